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

/* hd_rank_key_ids with the hash lookup inline and the flush case out of line. */
HD_HOT hd_rank_t hd_rank_batch(uint64_t key, uint64_t ids) {
    if (HD_UNLIKELY(key & HD_FLUSH_BITS)) return hd_flush_rank_ids(key, ids);
    {
        uint64_t x = (uint64_t)(uint32_t)key * HD_HASH_MUL;
        unsigned row = (unsigned)(x >> (64 - HD_HASH_ROW_BITS));
        unsigned col = (unsigned)(x >> (64 - HD_HASH_ROW_BITS - HD_HASH_COL_BITS))
                       & ((1u << HD_HASH_COL_BITS) - 1u);
        return hd_hash_rank[col ^ hd_hash_disp[row]];
    }
}

#define HD_ROW_DO(cards, i, K, CLAMP, PC, out, bad, cnt)                              \
    do {                                                                           \
        uint64_t key_, ids_, sum_;                                                 \
        HD_ROW_KEYS((cards) + (size_t)(K) * (i), K, CLAMP, PC, key_, ids_, sum_);  \
        HD_ROW_CHECK(key_, ids_, sum_, PC, bad, cnt);                              \
        (out)[i] = hd_rank_batch(key_, ids_);                                    \
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
            (out)[i_] = hd_rank_batch(k0_, d0_);                                 \
            (out)[i_ + 1] = hd_rank_batch(k1_, d1_);                             \
            (out)[i_ + 2] = hd_rank_batch(k2_, d2_);                             \
            (out)[i_ + 3] = hd_rank_batch(k3_, d3_);                             \
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

HD_BATCH_DEF(u8, uint8_t, HD_CLAMP8)
HD_BATCH_DEF(i8, int8_t, HD_CLAMP8)
HD_BATCH_DEF(u16, uint16_t, HD_CLAMPW)
HD_BATCH_DEF(i16, int16_t, HD_CLAMPW)
HD_BATCH_DEF(u32, uint32_t, HD_CLAMPW)
HD_BATCH_DEF(i32, int32_t, HD_CLAMPW)
HD_BATCH_DEF(u64, uint64_t, HD_CLAMPW)
HD_BATCH_DEF(i64, int64_t, HD_CLAMPW)

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
