/* Part of the <intrin.h> stand-ins (tests/test_c_portability.py): what Microsoft documents
 * for the 64-bit targets (x64, ARM64), not for 32-bit x86. */
unsigned char _BitScanForward64(unsigned long *index, unsigned __int64 mask);
unsigned char _BitScanReverse64(unsigned long *index, unsigned __int64 mask);
__int64 _InterlockedExchange64(__int64 volatile *target, __int64 value);
__int64 _InterlockedExchangeAdd64(__int64 volatile *addend, __int64 value);
