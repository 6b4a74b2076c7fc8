/* Hand evaluator: the out-of-line parts (validation, batch loops, enumeration). */
#include "hd_eval.h"

#include <string.h>

static const hd_rank_t hd_cat_min[10] = {
    HD_MIN_HIGH_CARD, HD_MIN_PAIR, HD_MIN_TWO_PAIR, HD_MIN_THREE_OF_A_KIND, HD_MIN_STRAIGHT,
    HD_MIN_FLUSH, HD_MIN_FULL_HOUSE, HD_MIN_FOUR_OF_A_KIND, HD_MIN_STRAIGHT_FLUSH,
    HD_NUM_RANKS + 1,
};

void hd_eval_init(void) {
    /* The tables are const data compiled in: nothing to fill. */
}

int hd_category(hd_rank_t r) {
    int c;
    if (r < 1 || r > HD_NUM_RANKS) return -1;
    for (c = 8; r < hd_cat_min[c]; --c) {
    }
    return c;
}

hd_rank_t hd_eval_cards(const uint8_t *cards, int n) {
    hd_hand_t h = hd_hand_empty();
    uint64_t seen = 0;
    int i;
    if (cards == NULL || n < 5 || n > 7) return 0;
    for (i = 0; i < n; ++i) {
        unsigned c = cards[i];
        if (c >= HD_NCARDS || (seen >> c & 1u)) return 0;
        seen |= (uint64_t)1 << c;
        h = hd_hand_add(h, (int)c);
    }
    return hd_hand_rank(h);
}

/* Card value -> index 0..255 into hd_batch_key (values >= 256 and negatives map to 255). */
#define HD_CLAMP8(v) ((unsigned)(uint8_t)(v))
#define HD_CLAMPW(v) ((uint64_t)(v) > 255u ? 255u : (unsigned)(uint64_t)(v))

/* Batch kernel. hd_batch_pair maps every value 0..255 (after clamping) to a pair (key, bit):
 * a card's key (the rank-key/suit-counter sum of hd_hand_t) and 1 << id; (HD_POISON, 0) for
 * any value >= 52. Every value indexes inside the table, so there is no range compare.
 * - POPCNT kernel (x86, chosen at run time): per card, one byte load and one 16-byte vector
 *   add of the pair (key and bit sums side by side). popcount(sum of bits) is at most K, and
 *   equals K iff the row's K bits are nonzero and distinct (a carry loses a bit): the kernel
 *   only adds the popcounts up, and the call was good iff the total is n * K.
 * - Portable kernel (MSVC, non-x86): scalar adds; the row is good iff the sum of its bits
 *   equals their OR and no poisoned key shows above bit HD_KEY_BAD_SHIFT.
 * Only if a row was bad, a plain second pass finds the first one. HD_ROWS rows go through
 * each iteration side by side, and the flush case (about 3% of random 7-card hands) is a call
 * out of the hot loop. */
#define HD_ROWS 4

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) \
    && !defined(HD_NO_POPCNT)
#define HD_POPCNT_PATH 1
typedef uint64_t hd_v2u64 __attribute__((vector_size(16)));

/* key and sum (of the bits) of a row of K cards; ids = sum. */
#define HD_ROW_KEYS_1(row, K, CLAMP, key, ids, sum)                                \
    do {                                                                           \
        hd_v2u64 acc_ = {HD_KEY_INIT, 0}, x_;                                      \
        int j_;                                                                    \
        for (j_ = 0; j_ < (K); ++j_) {                                             \
            memcpy(&x_, &hd_batch_pair[2u * CLAMP((row)[j_])], sizeof x_);         \
            acc_ += x_;                                                            \
        }                                                                          \
        (key) = acc_[0];                                                           \
        (sum) = (ids) = acc_[1];                                                   \
    } while (0)
#endif

/* key, ids (OR of the bits) and sum of the bits of a row of K cards. */
#define HD_ROW_KEYS_0(row, K, CLAMP, key, ids, sum)                                \
    do {                                                                           \
        int j_;                                                                    \
        (key) = HD_KEY_INIT;                                                       \
        (ids) = 0;                                                                 \
        (sum) = 0;                                                                 \
        for (j_ = 0; j_ < (K); ++j_) {                                             \
            const uint64_t *e_ = &hd_batch_pair[2u * CLAMP((row)[j_])];            \
            (key) += e_[0];                                                        \
            (ids) |= e_[1];                                                        \
            (sum) += e_[1];                                                        \
        }                                                                          \
    } while (0)

#define HD_ROW_KEYS(row, K, CLAMP, PC, key, ids, sum) \
    HD_ROW_KEYS_##PC(row, K, CLAMP, key, ids, sum)

/* Validation of one row (see above): with POPCNT, count its distinct valid cards into cnt;
 * without, OR into bad a value that is nonzero iff two bits collided or a key was poisoned. */
#define HD_ROW_CHECK(key, ids, sum, PC, bad, cnt)                                  \
    do {                                                                           \
        if (PC) (cnt) += (uint64_t)hd_popcount64(ids);                             \
        else (bad) |= ((sum) ^ (ids)) | ((key) >> HD_KEY_BAD_SHIFT);               \
    } while (0)

#if defined(__GNUC__) || defined(__clang__)
#define HD_HOT static inline __attribute__((always_inline))
#define HD_COLD __attribute__((noinline, cold))
#define HD_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define HD_HOT HD_INLINE
#define HD_COLD
#define HD_UNLIKELY(x) (x)
#endif

/* The flush branch of hd_rank_key_ids out of line: about 3% of random 7-card hands. */
static HD_COLD hd_rank_t hd_flush_rank_ids(uint64_t key, uint64_t ids) {
    return hd_rank_key_ids(key, ids);
}

/* hd_rank_key_ids for rows of K cards (a constant: the right hash table is chosen at compile
 * time), the flush case out of line. */
HD_HOT hd_rank_t hd_rank_batch(uint64_t key, uint64_t ids, int K) {
    if (HD_UNLIKELY(key & HD_FLUSH_BITS)) return hd_flush_rank_ids(key, ids);
    return K == 7 ? hd_lookup7(key) : hd_lookup56(key);
}

#define HD_ROW_DO(cards, i, K, CLAMP, PC, out, bad, cnt)                              \
    do {                                                                           \
        uint64_t key_, ids_, sum_;                                                 \
        HD_ROW_KEYS((cards) + (size_t)(K) * (i), K, CLAMP, PC, key_, ids_, sum_);  \
        HD_ROW_CHECK(key_, ids_, sum_, PC, bad, cnt);                              \
        (out)[i] = hd_rank_batch(key_, ids_, K);                                    \
    } while (0)

#define HD_KERNEL_BODY(CLAMP, PC, cards, n, K, out, bad, cnt)                        \
    do {                                                                           \
        size_t i_ = 0;                                                             \
        for (; i_ + HD_ROWS <= (n); i_ += HD_ROWS) {                               \
            uint64_t k0_, k1_, k2_, k3_, d0_, d1_, d2_, d3_, s0_, s1_, s2_, s3_;   \
            const T_ *p_ = (cards) + (size_t)(K) * i_;                             \
            HD_ROW_KEYS(p_, K, CLAMP, PC, k0_, d0_, s0_);                          \
            HD_ROW_KEYS(p_ + (K), K, CLAMP, PC, k1_, d1_, s1_);                    \
            HD_ROW_KEYS(p_ + 2 * (K), K, CLAMP, PC, k2_, d2_, s2_);                \
            HD_ROW_KEYS(p_ + 3 * (K), K, CLAMP, PC, k3_, d3_, s3_);                \
            HD_ROW_CHECK(k0_, d0_, s0_, PC, bad, cnt);                             \
            HD_ROW_CHECK(k1_, d1_, s1_, PC, bad, cnt);                             \
            HD_ROW_CHECK(k2_, d2_, s2_, PC, bad, cnt);                             \
            HD_ROW_CHECK(k3_, d3_, s3_, PC, bad, cnt);                             \
            (out)[i_] = hd_rank_batch(k0_, d0_, K);                                 \
            (out)[i_ + 1] = hd_rank_batch(k1_, d1_, K);                             \
            (out)[i_ + 2] = hd_rank_batch(k2_, d2_, K);                             \
            (out)[i_ + 3] = hd_rank_batch(k3_, d3_, K);                             \
        }                                                                          \
        for (; i_ < (n); ++i_) HD_ROW_DO(cards, i_, K, CLAMP, PC, out, bad, cnt);     \
    } while (0)

/* One kernel per (element type, validation flavour): K is a constant in each case so the
 * card loops unroll. Returns -1 or the index of the first bad row. */
#define HD_KERNEL_DEF(ATTR, name, T, CLAMP, PC, suffix)                                \
    ATTR static ptrdiff_t name(const T *cards, size_t n, int k, hd_rank_t *out) {  \
        typedef T T_;                                                              \
        uint64_t bad = 0, cnt = 0;                                                          \
        size_t i;                                                                  \
        switch (k) {                                                               \
        case 5: HD_KERNEL_BODY(CLAMP, PC, cards, n, 5, out, bad, cnt); break;       \
        case 6: HD_KERNEL_BODY(CLAMP, PC, cards, n, 6, out, bad, cnt); break;       \
        case 7: HD_KERNEL_BODY(CLAMP, PC, cards, n, 7, out, bad, cnt); break;       \
        default: return 0;                                                         \
        }                                                                          \
        if (!bad && cnt == (PC ? (uint64_t)n * (uint64_t)k : 0)) return -1;         \
        for (i = 0; i < n; ++i)                                                    \
            if (!hd_row_ok_##suffix(cards + (size_t)k * i, k)) return (ptrdiff_t)i; \
        return -1;                                                                 \
    }

#define HD_ROW_OK_DEF(suffix, T)                                                   \
    static int hd_row_ok_##suffix(const T *row, int k) {                           \
        uint64_t seen = 0;                                                         \
        int j;                                                                     \
        for (j = 0; j < k; ++j) {                                                  \
            uint64_t v = (uint64_t)row[j];                                         \
            if (v >= HD_NCARDS || (seen >> v & 1u)) return 0;                      \
            seen |= (uint64_t)1 << v;                                              \
        }                                                                          \
        return 1;                                                                  \
    }

#define HD_BATCH_GENERIC(suffix, T, CLAMP) \
    HD_ROW_OK_DEF(suffix, T) HD_KERNEL_DEF(, hd_batch_sum_##suffix, T, CLAMP, 0, suffix)

#ifdef HD_POPCNT_PATH
#define HD_BATCH_DEF(suffix, T, CLAMP)                                                 \
    HD_BATCH_GENERIC(suffix, T, CLAMP)                                                 \
    HD_KERNEL_DEF(__attribute__((target("popcnt"))), hd_batch_pc_##suffix, T, CLAMP, 1, suffix) \
    ptrdiff_t hd_eval_batch_##suffix(const T *cards, size_t n, int k, hd_rank_t *out) { \
        if (__builtin_cpu_supports("popcnt")) return hd_batch_pc_##suffix(cards, n, k, out); \
        return hd_batch_sum_##suffix(cards, n, k, out);                                \
    }
#else
#define HD_BATCH_DEF(suffix, T, CLAMP)                                                 \
    HD_BATCH_GENERIC(suffix, T, CLAMP)                                                 \
    ptrdiff_t hd_eval_batch_##suffix(const T *cards, size_t n, int k, hd_rank_t *out) { \
        return hd_batch_sum_##suffix(cards, n, k, out);                                \
    }
#endif

#ifdef HD_POPCNT_PATH
/* byte rows: the scalar kernels here, the public functions after the AVX2 kernel below */
HD_BATCH_GENERIC(u8, uint8_t, HD_CLAMP8)
HD_KERNEL_DEF(__attribute__((target("popcnt"))), hd_batch_pc_u8, uint8_t, HD_CLAMP8, 1, u8)
HD_BATCH_GENERIC(i8, int8_t, HD_CLAMP8)
HD_KERNEL_DEF(__attribute__((target("popcnt"))), hd_batch_pc_i8, int8_t, HD_CLAMP8, 1, i8)
#else
HD_BATCH_DEF(u8, uint8_t, HD_CLAMP8)
HD_BATCH_DEF(i8, int8_t, HD_CLAMP8)
#endif
HD_BATCH_DEF(u16, uint16_t, HD_CLAMPW)
HD_BATCH_DEF(i16, int16_t, HD_CLAMPW)
HD_BATCH_DEF(u32, uint32_t, HD_CLAMPW)
HD_BATCH_DEF(i32, int32_t, HD_CLAMPW)
HD_BATCH_DEF(u64, uint64_t, HD_CLAMPW)
HD_BATCH_DEF(i64, int64_t, HD_CLAMPW)

/* ---- AVX2 kernel for rows of byte-sized ids (x86 with gcc or clang; chosen at run time) ----
 * Four rows per iteration, each spread to its own 8-byte lane of a 256-bit register (its k
 * cards, then zero bytes that count as a deuce of clubs each and are taken off the sums):
 * - rank keys: VPSHUFB looks up byte b of every card's rank key (four byte planes) and
 *   VPSADBW adds each lane's bytes, so a lane ends up holding its row's rank-key sum; two more
 *   planes give the suit counters (the flush test);
 * - the hash (hd_lookup7 / hd_lookup56) in SIMD as well: a 32-bit multiply, shifts and a mask
 *   give each row's table row and column, and only the two table reads are scalar;
 * - validation on whole registers, checked once after the loop: the largest byte seen (a
 *   value >= 52 is bad) and equal bytes between a lane and its rotations (a repeated card).
 * Rows with a flush (about 3% of random 7-card rows) go through a scalar call. The last few
 * rows (the loads read 16 bytes at a time) and any batch with a bad row are left to the
 * popcount kernel, which also finds the first bad row. */
#if defined(HD_POPCNT_PATH) && !defined(HD_NO_AVX2)
#define HD_AVX2_PATH 1
#include <immintrin.h>

#define HD_TARGET_AVX2 __attribute__((target("avx2,popcnt")))

/* Rank of a row of k byte ids that holds 5 or more cards of one suit (0 if none does):
 * suit counters in nibbles, then the rank mask of the flush suit. No branch but the loop. */
static HD_TARGET_AVX2 inline __attribute__((always_inline)) hd_rank_t
hd_flush_row(const uint8_t *row, const int k) {
    unsigned cnt = 0x3333u, s, m = 0;
    int j;
    for (j = 0; j < k; ++j) cnt += 1u << ((row[j] & 3u) << 2);
    cnt &= 0x8888u; /* bit 3 of the nibble of each suit with 5 or more cards */
    if (!cnt) return 0;
    s = ((unsigned)hd_ctz64(cnt) >> 2) & 3u;
    for (j = 0; j < k; ++j) m |= (unsigned)((row[j] & 3u) == s) << ((row[j] >> 2) & 15u);
    return hd_flush_rank[m & 0x1FFFu];
}

#define HD_LOADV(a) _mm256_loadu_si256((const __m256i *)(const void *)(a))

static HD_TARGET_AVX2 inline __attribute__((always_inline)) size_t
hd_avx2_rows(const uint8_t *cards, size_t n, const int k, hd_rank_t *out, int *bad) {
    /* k = 7 reads the 7-card hash, k = 5 or 6 the 5/6-card one */
    const uint32_t mul = k == 7 ? HD_HASH7_MUL : HD_HASH56_MUL;
    const int shift = k == 7 ? HD_HASH7_SHIFT : HD_HASH56_SHIFT;
    const int colb = k == 7 ? HD_HASH7_COL_BITS : HD_HASH56_COL_BITS;
    const uint8_t *disp = k == 7 ? hd_hash7_disp : hd_hash56_disp;
    const uint16_t *rank = k == 7 ? hd_hash7_rank : hd_hash56_rank;
    uint8_t spread[32], rot[3][32], valid[32], plane[6][32];
    uint32_t idx[8];
    __m256i vmax = _mm256_setzero_si256(), dup = _mm256_setzero_si256();
    const __m256i zero = _mm256_setzero_si256(), low4 = _mm256_set1_epi8(0x0F);
    /* the 8 - k zero bytes of a lane count as deuces of clubs: take them off */
    const __m256i init = _mm256_set1_epi64x(
        (long long)(HD_KEY_INIT - (uint64_t)(8 - k) * (hd_card_key[0] & 0xFFFFFFFFFFFFULL)));
    const __m256i flushv = _mm256_set1_epi64x((long long)HD_FLUSH_BITS);
    const __m256i mulv = _mm256_set1_epi64x((long long)mul);
    const __m256i colmask = _mm256_set1_epi64x((long long)((1u << colb) - 1u));
    __m256i SPREAD, ROT1, ROT2, ROT3, PL0, PL1, PL2, PL3, SA, SB;
    size_t i = 0;
    int b, j, fl;
    for (b = 0; b < 32; ++b) {
        int pos = b & 7, row = (b >> 3) & 1, r = b & 15;
        spread[b] = (uint8_t)(pos < k ? row * k + pos : 0x80);
        for (j = 0; j < 3; ++j)
            rot[j][b] = (uint8_t)(pos < k ? row * 8 + (pos + j + 1) % k : 0x80);
        valid[b] = (uint8_t)(pos < k ? 0xFF : 0);
        for (j = 0; j < 4; ++j)  /* byte j of the rank key of rank r (index: id >> 2) */
            plane[j][b] = (uint8_t)(r < HD_NRANKS ? (uint32_t)hd_card_key[4 * r] >> (8 * j) : 0);
        /* suit counters (index: the id's low nibble, suit = low 2 bits) */
        plane[4][b] = (uint8_t)((r & 3) == 0 ? 1 : (r & 3) == 1 ? 16 : 0);
        plane[5][b] = (uint8_t)((r & 3) == 2 ? 1 : (r & 3) == 3 ? 16 : 0);
    }
    SPREAD = HD_LOADV(spread);
    ROT1 = HD_LOADV(rot[0]);
    ROT2 = HD_LOADV(rot[1]);
    ROT3 = HD_LOADV(rot[2]);
    PL0 = HD_LOADV(plane[0]);
    PL1 = HD_LOADV(plane[1]);
    PL2 = HD_LOADV(plane[2]);
    PL3 = HD_LOADV(plane[3]);
    SA = HD_LOADV(plane[4]);
    SB = HD_LOADV(plane[5]);
    /* 16-byte loads at p and p + 2k: the last one ends at p + 2k + 16 <= p + 6k */
    for (; i + 6 <= n; i += 4) {
        const uint8_t *p = cards + (size_t)k * i;
        __m256i v = _mm256_inserti128_si256(
            _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)p)),
            _mm_loadu_si128((const __m128i *)(const void *)(p + 2 * k)), 1);
        __m256i s = _mm256_shuffle_epi8(v, SPREAD);
        __m256i rk = _mm256_and_si256(_mm256_srli_epi16(s, 2), low4);
        __m256i lo, hi, key, h;
        vmax = _mm256_max_epu8(vmax, s);
        dup = _mm256_or_si256(dup, _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(s, _mm256_shuffle_epi8(s, ROT1)),
                            _mm256_cmpeq_epi8(s, _mm256_shuffle_epi8(s, ROT2))),
            _mm256_cmpeq_epi8(s, _mm256_shuffle_epi8(s, ROT3))));
        lo = _mm256_add_epi64(
            _mm256_sad_epu8(_mm256_shuffle_epi8(PL0, rk), zero),
            _mm256_slli_epi64(_mm256_sad_epu8(_mm256_shuffle_epi8(PL1, rk), zero), 8));
        hi = _mm256_add_epi64(
            _mm256_sad_epu8(_mm256_shuffle_epi8(PL2, rk), zero),
            _mm256_slli_epi64(_mm256_sad_epu8(_mm256_shuffle_epi8(PL3, rk), zero), 8));
        key = _mm256_add_epi64(
            _mm256_add_epi64(lo, _mm256_slli_epi64(hi, 16)),
            _mm256_add_epi64(
                _mm256_add_epi64(
                    _mm256_slli_epi64(_mm256_sad_epu8(_mm256_shuffle_epi8(SA, s), zero), 32),
                    _mm256_slli_epi64(_mm256_sad_epu8(_mm256_shuffle_epi8(SB, s), zero), 40)),
                init));
        /* h = rank-key sum * mul mod 2**32 (the high dword of mulv is 0); then column
         * (h >> shift) & colmask in the low dword, row h >> (shift + colb) in the high one */
        h = _mm256_mullo_epi32(key, mulv);
        h = _mm256_blend_epi32(_mm256_and_si256(_mm256_srli_epi32(h, shift), colmask),
                               _mm256_slli_epi64(h, 32 - shift - colb), 0xAA);
        _mm256_storeu_si256((__m256i *)(void *)idx, h);
        out[i] = rank[idx[0] ^ disp[idx[1]]];
        out[i + 1] = rank[idx[2] ^ disp[idx[3]]];
        out[i + 2] = rank[idx[4] ^ disp[idx[5]]];
        out[i + 3] = rank[idx[6] ^ disp[idx[7]]];
        /* rows with a flush: the hash gave a meaningless (in-bounds) rank, replace it */
        fl = _mm256_movemask_pd(_mm256_castsi256_pd(
            _mm256_cmpeq_epi64(_mm256_and_si256(key, flushv), zero))) ^ 15;
        while (HD_UNLIKELY(fl)) {
            j = hd_ctz64((unsigned)fl);
            out[i + j] = hd_flush_row(p + k * j, k);
            fl &= fl - 1;
        }
    }
    {
        const __m256i c51 = _mm256_set1_epi8(51);
        *bad = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(vmax, c51), c51)) != -1
               || !_mm256_testz_si256(dup, HD_LOADV(valid));
    }
    return i;
}

static HD_TARGET_AVX2 ptrdiff_t hd_batch_avx2(const uint8_t *cards, size_t n, int k,
                                              hd_rank_t *out) {
    size_t done;
    int bad = 0;
    switch (k) {
    case 5: done = hd_avx2_rows(cards, n, 5, out, &bad); break;
    case 6: done = hd_avx2_rows(cards, n, 6, out, &bad); break;
    case 7: done = hd_avx2_rows(cards, n, 7, out, &bad); break;
    default: return 0;
    }
    if (bad) return hd_batch_pc_u8(cards, n, k, out);  /* finds the first bad row */
    if (done < n) {
        ptrdiff_t tail = hd_batch_pc_u8(cards + (size_t)k * done, n - done, k, out + done);
        if (tail >= 0) return (ptrdiff_t)done + tail;
    }
    return -1;
}
#endif

#ifdef HD_POPCNT_PATH
/* Byte rows: AVX2 if the CPU has it (int8 ids have the same bytes: negatives are >= 128,
 * out of range, either way), else popcount, else portable. */
ptrdiff_t hd_eval_batch_u8(const uint8_t *cards, size_t n, int k, hd_rank_t *out) {
#ifdef HD_AVX2_PATH
    if (__builtin_cpu_supports("avx2")) return hd_batch_avx2(cards, n, k, out);
#endif
    if (__builtin_cpu_supports("popcnt")) return hd_batch_pc_u8(cards, n, k, out);
    return hd_batch_sum_u8(cards, n, k, out);
}

ptrdiff_t hd_eval_batch_i8(const int8_t *cards, size_t n, int k, hd_rank_t *out) {
#ifdef HD_AVX2_PATH
    if (__builtin_cpu_supports("avx2")) return hd_batch_avx2((const uint8_t *)cards, n, k, out);
#endif
    if (__builtin_cpu_supports("popcnt")) return hd_batch_pc_i8(cards, n, k, out);
    return hd_batch_sum_i8(cards, n, k, out);
}
#endif

static void hd_hist_rec(hd_hand_t h, int first, int left, uint64_t *hist) {
    int c;
    if (left == 1) {
        for (c = first; c < HD_NCARDS; ++c) hist[hd_hand_rank(hd_hand_add(h, c))]++;
        return;
    }
    for (c = first; c <= HD_NCARDS - left; ++c) hd_hist_rec(hd_hand_add(h, c), c + 1, left - 1, hist);
}

int hd_rank_histogram(int n, uint64_t hist[HD_NUM_RANKS + 1]) {
    if (n < 5 || n > 7 || hist == NULL) return -1;
    memset(hist, 0, sizeof(uint64_t) * (HD_NUM_RANKS + 1));
    hd_hist_rec(hd_hand_empty(), 0, n, hist);
    return 0;
}
