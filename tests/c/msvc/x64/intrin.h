/* A stand-in for MSVC's <intrin.h> on x64 (tests/test_c_portability.py): the intrinsics of
 * the families csrc/ uses (bit scans and counts, 64-bit interlocked operations, pause and
 * prefetch) that Microsoft documents for x64. */
#ifndef HD_TEST_INTRIN_H
#define HD_TEST_INTRIN_H
#include "../intrin_all.h"
#include "../intrin_64.h"
unsigned int __popcnt(unsigned int value);
unsigned __int64 __popcnt64(unsigned __int64 value);
void _mm_pause(void);
void _mm_prefetch(char const *p, int hint);
#define _MM_HINT_T0 1
#endif
