/* Part of the <intrin.h> stand-ins (tests/test_c_portability.py): what Microsoft documents
 * for every target (x86, x64, ARM64) among the families csrc/ uses. */
#define __int64 long long
unsigned char _BitScanForward(unsigned long *index, unsigned long mask);
unsigned char _BitScanReverse(unsigned long *index, unsigned long mask);
__int64 _InterlockedCompareExchange64(__int64 volatile *dest, __int64 exchange, __int64 comparand);
