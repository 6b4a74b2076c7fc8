/* A stand-in for MSVC's <intrin.h> on 32-bit x86 (tests/test_c_portability.py): the
 * intrinsics of the families csrc/ uses that Microsoft documents for x86. No 64-bit bit scan
 * or count, and of the 64-bit interlocked operations only the compare-exchange. */
#ifndef HD_TEST_INTRIN_H
#define HD_TEST_INTRIN_H
#include "../intrin_all.h"
unsigned int __popcnt(unsigned int value);
void _mm_pause(void);
void _mm_prefetch(char const *p, int hint);
#define _MM_HINT_T0 1
#endif
