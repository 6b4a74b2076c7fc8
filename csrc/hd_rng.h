/* Per-object random numbers: splitmix64 seeding, xoshiro256** generation, unbiased bounded draws.
 *
 * Algorithms: xoshiro256** and splitmix64 by Blackman & Vigna ("Scrambled linear pseudorandom
 * number generators", 2018); the bounded draw is Lemire's multiply-shift with rejection
 * ("Fast random integer generation in an interval", 2019), which is exactly uniform.
 * All state is passed by pointer: no globals, so independent generators never interact. */
#ifndef HD_RNG_H
#define HD_RNG_H

#include "hd_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { uint64_t s[4]; } hd_rng_t;

HD_INLINE uint64_t hd_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Seed from one 64-bit value; the state is never all zero. */
HD_INLINE void hd_rng_seed(hd_rng_t *r, uint64_t seed) {
    uint64_t x = seed;
    r->s[0] = hd_splitmix64(&x);
    r->s[1] = hd_splitmix64(&x);
    r->s[2] = hd_splitmix64(&x);
    r->s[3] = hd_splitmix64(&x);
}

HD_INLINE uint64_t hd_rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

HD_INLINE uint64_t hd_rng_next(hd_rng_t *r) {
    uint64_t *s = r->s;
    uint64_t result = hd_rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = hd_rotl64(s[3], 45);
    return result;
}

/* Uniform integer in [0, n) for 1 <= n < 2^32, exactly unbiased. */
HD_INLINE uint32_t hd_rng_below(hd_rng_t *r, uint32_t n) {
    uint64_t m = (hd_rng_next(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while (low < threshold) {
            m = (hd_rng_next(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Uniform double in [0, 1) with 53 random bits. */
HD_INLINE double hd_rng_double(hd_rng_t *r) {
    return (double)(hd_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* A child seed for stream `index` of master seed `seed`: deterministic, well mixed, and
 * independent of how many streams there are (so chunked work gives the same result on any
 * number of workers). holdem's one seed derivation: batch rows, parallel chunks, table hands,
 * agents' seeds and vector tables all use it; Python reaches it as holdem._deck.child_seed. */
HD_INLINE uint64_t hd_seed_child(uint64_t seed, uint64_t index) {
    uint64_t x = seed ^ 0x6A09E667F3BCC909ULL;
    uint64_t a = hd_splitmix64(&x);
    x = a ^ (index * 0xD1B54A32D192ED03ULL + 0x243F6A8885A308D3ULL);
    hd_splitmix64(&x);
    return hd_splitmix64(&x);
}

#ifdef __cplusplus
}
#endif
#endif /* HD_RNG_H */
