/* Shared portability helpers for the holdem C core. Plain C99, no Python.h. */
#ifndef HD_COMMON_H
#define HD_COMMON_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_MSC_VER)
#  include <intrin.h>
#  define HD_INLINE static __inline
#  if defined(_M_X64) || defined(_M_IX86)
#    define hd_prefetch(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#  else
#    define hd_prefetch(p) ((void)(p))
#  endif
#else
#  define HD_INLINE static inline
#  define hd_prefetch(p) __builtin_prefetch((const void *)(p), 1, 3) /* for writing */
#endif

/* Bit counts: hd_popcount64(x) and hd_ctz64(x) (x != 0).
 * - GCC/Clang: their builtins (no POPCNT instruction unless the target has one).
 * - MSVC on x64 and ARM64: _BitScanForward64, and the popcount in plain C: __popcnt64 is
 *   x64-only and runs POPCNT whatever the CPU (an illegal instruction on the few x86-64
 *   CPUs without it). Only the GCC/Clang x86 evaluator kernel counts bits on a
 *   hot path (hd_eval.c), after checking the CPU.
 * - Anything else (32-bit MSVC, other compilers), or HD_PORTABLE_BITS: plain C. The tests
 *   build the C checks with HD_PORTABLE_BITS so that this version is run too. */
#if !defined(HD_PORTABLE_BITS) && (defined(__GNUC__) || defined(__clang__))
#  define hd_popcount64(x) __builtin_popcountll((unsigned long long)(x))
#  define hd_ctz64(x) __builtin_ctzll((unsigned long long)(x))
#else
HD_INLINE int hd_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);                           /* 2-bit sums */
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL); /* 4-bit sums */
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;                           /* byte sums */
    return (int)((x * 0x0101010101010101ULL) >> 56);                      /* their total */
}
#  if !defined(HD_PORTABLE_BITS) && defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
HD_INLINE int hd_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
#  else
/* binary search: halve the window that holds the lowest set bit */
HD_INLINE int hd_ctz64(uint64_t x) {
    int n = 0;
    if ((x & 0xFFFFFFFFULL) == 0) { n += 32; x >>= 32; }
    if ((x & 0xFFFFULL) == 0) { n += 16; x >>= 16; }
    if ((x & 0xFFULL) == 0) { n += 8; x >>= 8; }
    if ((x & 0xFULL) == 0) { n += 4; x >>= 4; }
    if ((x & 0x3ULL) == 0) { n += 2; x >>= 2; }
    return n + (int)((x & 1u) == 0);
}
#  endif
#endif

#define HD_NCARDS 52
#define HD_NRANKS 13
#define HD_NSUITS 4

#ifdef __cplusplus
}
#endif
#endif /* HD_COMMON_H */
