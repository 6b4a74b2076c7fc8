/* Atomic int64 counters, spin-wait helpers and a clock for threads sharing one batch of work.
 * GCC/Clang: the __atomic builtins; MSVC: the _Interlocked intrinsics (full barriers).
 * Plain C99, no Python.h. */
#ifndef HD_ATOMIC_H
#define HD_ATOMIC_H

/* clock_gettime under -std=c99 on glibc (Python.h, included first by Cython, defines it) */
#if defined(__linux__) && !defined(_POSIX_C_SOURCE)
#  define _POSIX_C_SOURCE 200809L
#endif

#include <stdint.h>

#include "hd_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A counter on a cache line of its own (it is written by every thread). */
typedef struct {
    char pad0[64];
    int64_t finished;  /* tables stepped */
    char pad1[56];
} hd_share_t;

/* One lane of shared work: a word of its own user's encoding, alone on its cache line
   whatever the alignment of the array it is in (an array of them starts with 64 bytes of
   padding: see hd_share_t). */
#define HD_LANES 16
typedef struct {
    int64_t next;
    char pad[120];
} hd_lane_t;

#if defined(_MSC_VER)
#  include <intrin.h>
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  ifndef NOMINMAX
#    define NOMINMAX
#  endif
#  include <windows.h>

HD_INLINE int64_t hd_atomic_load(int64_t *p) {
    return _InterlockedCompareExchange64((volatile __int64 *)p, 0, 0);
}
/* *p = desired if *p == *expected (returns 1); else *expected = *p (returns 0). */
HD_INLINE int hd_atomic_cas(int64_t *p, int64_t *expected, int64_t desired) {
    int64_t seen = _InterlockedCompareExchange64((volatile __int64 *)p, desired, *expected);
    if (seen == *expected) return 1;
    *expected = seen;
    return 0;
}
#  if defined(_M_X64) || defined(_M_ARM64)
HD_INLINE void hd_atomic_store(int64_t *p, int64_t v) {
    _InterlockedExchange64((volatile __int64 *)p, v);
}
/* *p += v; returns the new value */
HD_INLINE int64_t hd_atomic_add(int64_t *p, int64_t v) {
    return _InterlockedExchangeAdd64((volatile __int64 *)p, v) + v;
}
#  else
/* 32-bit targets: of the 64-bit interlocked operations only the compare-exchange is an
 * intrinsic everywhere (cmpxchg8b on x86), so the store and the add loop on it */
HD_INLINE void hd_atomic_store(int64_t *p, int64_t v) {
    int64_t seen = hd_atomic_load(p);
    while (!hd_atomic_cas(p, &seen, v)) {}
}
/* *p += v; returns the new value */
HD_INLINE int64_t hd_atomic_add(int64_t *p, int64_t v) {
    int64_t seen = hd_atomic_load(p);
    while (!hd_atomic_cas(p, &seen, seen + v)) {}
    return seen + v;
}
#  endif
HD_INLINE void hd_cpu_relax(void) {
#  if defined(_M_X64) || defined(_M_IX86)
    _mm_pause();
#  elif defined(_M_ARM64) || defined(_M_ARM)
    __yield();
#  endif
}
HD_INLINE void hd_thread_yield(void) { SwitchToThread(); }
/* a monotonic clock in nanoseconds */
HD_INLINE int64_t hd_now_ns(void) {
    LARGE_INTEGER t, f;
    QueryPerformanceCounter(&t);
    QueryPerformanceFrequency(&f);
    return (int64_t)((double)t.QuadPart * (1e9 / (double)f.QuadPart));
}

#else
#  include <sched.h>
#  include <time.h>

/* acquire loads, release stores and adds, acq_rel compare-and-swap */
HD_INLINE int64_t hd_atomic_load(int64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
HD_INLINE void hd_atomic_store(int64_t *p, int64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
/* *p = desired if *p == *expected (returns 1); else *expected = *p (returns 0). */
HD_INLINE int hd_atomic_cas(int64_t *p, int64_t *expected, int64_t desired) {
    return __atomic_compare_exchange_n(p, expected, desired, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
}
/* *p += v; returns the new value */
HD_INLINE int64_t hd_atomic_add(int64_t *p, int64_t v) {
    return __atomic_add_fetch(p, v, __ATOMIC_RELEASE);
}
HD_INLINE void hd_cpu_relax(void) {
#  if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#  elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#  endif
}
HD_INLINE void hd_thread_yield(void) { (void)sched_yield(); }
/* a monotonic clock in nanoseconds */
HD_INLINE int64_t hd_now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}
#endif

#ifdef __cplusplus
}
#endif
#endif /* HD_ATOMIC_H */
