/* A stand-in for MSVC's <intrin.h> on ARM64 (tests/test_c_portability.py): the intrinsics
 * of the families csrc/ uses that Microsoft documents for ARM64. No x86 popcount, pause or
 * prefetch. */
#ifndef HD_TEST_INTRIN_H
#define HD_TEST_INTRIN_H
#include "../intrin_all.h"
#include "../intrin_64.h"
void __yield(void);
#endif
