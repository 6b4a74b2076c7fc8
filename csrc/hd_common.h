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
static __inline int hd_popcount64(uint64_t x) { return (int)__popcnt64(x); }
static __inline int hd_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
static __inline int hd_clz32(uint32_t x) { unsigned long i; _BitScanReverse(&i, x); return 31 - (int)i; }
#  if defined(_M_X64) || defined(_M_IX86)
#    define hd_prefetch(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
#  else
#    define hd_prefetch(p) ((void)(p))
#  endif
#else
#  define HD_INLINE static inline
#  define hd_popcount64(x) __builtin_popcountll((unsigned long long)(x))
#  define hd_ctz64(x) __builtin_ctzll((unsigned long long)(x))
#  define hd_clz32(x) __builtin_clz((unsigned int)(x))
#  define hd_prefetch(p) __builtin_prefetch((const void *)(p), 1, 3) /* for writing */
#endif

#define HD_NCARDS 52
#define HD_NRANKS 13
#define HD_NSUITS 4

#ifdef __cplusplus
}
#endif
#endif /* HD_COMMON_H */
