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

/* Card value -> index 0..255 into hd_card_pair (values >= 256 and negatives map to 255). */
#define HD_CLAMP8(v) ((unsigned)(uint8_t)(v))
#define HD_CLAMPW(v) ((uint64_t)(v) > 255u ? 255u : (unsigned)(uint64_t)(v))

/* Sum the (key, bit) pairs of a row's K cards into key and sum, OR the bits into any.
 * With GCC/Clang both sums are one 128-bit vector add per card (any buffer alignment). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(HD_NO_VECTOR)
#define HD_VECTOR_PATH 1
typedef uint64_t hd_v2u64 __attribute__((vector_size(16)));
#define HD_ACCUMULATE(row, K, CLAMP, key, sum, any)                                  \
    do {                                                                             \
        hd_v2u64 acc_ = {HD_KEY_INIT, 0}, or_ = {0, 0}, x_;                          \
        int j_;                                                                      \
        for (j_ = 0; j_ < (K); ++j_) {                                               \
            memcpy(&x_, &hd_card_pair[2u * CLAMP((row)[j_])], sizeof x_);            \
            acc_ += x_;                                                              \
            or_ |= x_;                                                               \
        }                                                                            \
        (key) = acc_[0];                                                             \
        (sum) = acc_[1];                                                             \
        (any) = or_[1];                                                              \
    } while (0)
#else
#define HD_ACCUMULATE(row, K, CLAMP, key, sum, any)                                  \
    do {                                                                             \
        int j_;                                                                      \
        (key) = HD_KEY_INIT;                                                         \
        (sum) = 0;                                                                   \
        (any) = 0;                                                                   \
        for (j_ = 0; j_ < (K); ++j_) {                                               \
            const uint64_t *p_ = &hd_card_pair[2u * CLAMP((row)[j_])];               \
            (key) += p_[0];                                                          \
            (sum) += p_[1];                                                          \
            (any) |= p_[1];                                                          \
        }                                                                            \
    } while (0)
#endif

/* x86-64 / x86 with GCC or Clang: a second row kernel compiled for the POPCNT instruction,
 * chosen at run time (__builtin_cpu_supports), saves the OR per card. */
#if defined(HD_VECTOR_PATH) && (defined(__x86_64__) || defined(__i386__)) && !defined(HD_NO_POPCNT)
#define HD_POPCNT_PATH 1
#endif

/* The loop over rows shared by every kernel: out[i] = ROW(row i, &bad), where ROW ORs a
 * nonzero value into bad for an invalid row. Only if some row was bad, a plain second pass
 * finds the first one. Returns -1 or that row's index. */
#define HD_ROWS_LOOP(ROW, suffix, cards, n, k, out)                                   \
    do {                                                                              \
        size_t i_;                                                                    \
        uint64_t bad_ = 0;                                                            \
        if ((k) < 5 || (k) > 7) return 0;                                             \
        switch (k) {                                                                  \
        case 5:                                                                       \
            for (i_ = 0; i_ < (n); ++i_) (out)[i_] = ROW((cards) + 5 * i_, 5, &bad_); \
            break;                                                                    \
        case 6:                                                                       \
            for (i_ = 0; i_ < (n); ++i_) (out)[i_] = ROW((cards) + 6 * i_, 6, &bad_); \
            break;                                                                    \
        default:                                                                      \
            for (i_ = 0; i_ < (n); ++i_) (out)[i_] = ROW((cards) + 7 * i_, 7, &bad_); \
            break;                                                                    \
        }                                                                             \
        if (!bad_) return -1;                                                         \
        for (i_ = 0; i_ < (n); ++i_)                                                  \
            if (!hd_row_ok_##suffix((cards) + (size_t)(k) * i_, (k))) return (ptrdiff_t)i_; \
        return -1;                                                                    \
    } while (0)

/* One row of K cards: returns its rank, or 0 if a card id is >= 52 (or negative) or repeated.
 * Validation without branches: bits of distinct ids add without carries, so sum == any; a
 * bad value sets bit 63 of any. K is a constant at each call site so the loop unrolls. */
#define HD_ROW_OR_DEF(suffix, T, CLAMP)                                                \
    static int hd_row_ok_##suffix(const T *row, int k) {                               \
        uint64_t seen = 0;                                                             \
        int j;                                                                         \
        for (j = 0; j < k; ++j) {                                                      \
            uint64_t v = (uint64_t)row[j];                                             \
            if (v >= HD_NCARDS || (seen >> v & 1u)) return 0;                          \
            seen |= (uint64_t)1 << v;                                                  \
        }                                                                              \
        return 1;                                                                      \
    }                                                                                  \
    HD_INLINE hd_rank_t hd_row_##suffix(const T *row, const int K, uint64_t *bad) {    \
        uint64_t key, sum, any;                                                        \
        HD_ACCUMULATE(row, K, CLAMP, key, sum, any);                                   \
        *bad |= (sum ^ any) | (any >> HD_NCARDS);                                      \
        return hd_rank_key_ids(key, any);                                              \
    }                                                                                  \
    static ptrdiff_t hd_batch_or_##suffix(const T *cards, size_t n, int k, hd_rank_t *out) { \
        HD_ROWS_LOOP(hd_row_##suffix, suffix, cards, n, k, out);                       \
    }

#ifdef HD_POPCNT_PATH
/* Same with the sum only: valid iff popcount(sum) == K and no bit >= 52. (m bad values add
 * m * 2**63: odd m leaves bit 63 set; even m >= 2 leaves at most K - m bits.) */
#define HD_ROW_PC_DEF(suffix, T, CLAMP)                                                \
    __attribute__((target("popcnt"))) static inline hd_rank_t                          \
    hd_row_pc_##suffix(const T *row, const int K, uint64_t *bad) {                     \
        hd_v2u64 acc = {HD_KEY_INIT, 0}, x;                                            \
        uint64_t sum;                                                                  \
        int j;                                                                         \
        for (j = 0; j < K; ++j) {                                                      \
            memcpy(&x, &hd_card_pair[2u * CLAMP(row[j])], sizeof x);                   \
            acc += x;                                                                  \
        }                                                                              \
        sum = acc[1];                                                                  \
        *bad |= (uint64_t)(__builtin_popcountll(sum) != K) | (sum >> HD_NCARDS);       \
        return hd_rank_key_ids(acc[0], sum);                                           \
    }                                                                                  \
    __attribute__((target("popcnt"))) static ptrdiff_t                                 \
    hd_batch_pc_##suffix(const T *cards, size_t n, int k, hd_rank_t *out) {            \
        HD_ROWS_LOOP(hd_row_pc_##suffix, suffix, cards, n, k, out);                    \
    }                                                                                  \
    ptrdiff_t hd_eval_batch_##suffix(const T *cards, size_t n, int k, hd_rank_t *out) { \
        if (__builtin_cpu_supports("popcnt")) return hd_batch_pc_##suffix(cards, n, k, out); \
        return hd_batch_or_##suffix(cards, n, k, out);                                 \
    }
#define HD_BATCH_DEF(suffix, T, CLAMP) HD_ROW_OR_DEF(suffix, T, CLAMP) HD_ROW_PC_DEF(suffix, T, CLAMP)
#else
#define HD_BATCH_DEF(suffix, T, CLAMP)                                                 \
    HD_ROW_OR_DEF(suffix, T, CLAMP)                                                    \
    ptrdiff_t hd_eval_batch_##suffix(const T *cards, size_t n, int k, hd_rank_t *out) { \
        return hd_batch_or_##suffix(cards, n, k, out);                                 \
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
