/* Standalone checks of the C evaluator API (csrc/hd_eval.h), built by tests/test_eval_c.py
 * with and without -DHD_NO_POPCNT (the portable batch kernel used by MSVC and non-x86), and
 * with -DHD_PORTABLE_BITS (hd_common.h's bit counts in plain C, as 32-bit MSVC builds them).
 * Prints one line per failed check and exits with the number of failures. */
#include <stdio.h>
#include <stdlib.h>

#include "hd_eval.h"

static int failures = 0;
#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            printf("FAIL line %d: %s\n", __LINE__, #cond);                 \
            failures++;                                                    \
        }                                                                  \
    } while (0)

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static unsigned next_card(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % 52u);
}

/* hd_popcount64 and hd_ctz64 (hd_common.h: builtins, intrinsics or plain C by platform,
 * plain C with -DHD_PORTABLE_BITS) against a bit-by-bit count. */
static void check_bits(void) {
    int i, k, naive_pop, naive_ctz;
    uint64_t x;
    CHECK(hd_popcount64(0) == 0 && hd_popcount64(~(uint64_t)0) == 64);
    for (i = 0; i < 64; ++i) {
        CHECK(hd_popcount64((uint64_t)1 << i) == 1 && hd_ctz64((uint64_t)1 << i) == i);
        CHECK(hd_ctz64(~(uint64_t)0 << i) == i && hd_popcount64(~(uint64_t)0 << i) == 64 - i);
    }
    for (k = 0; k < 100000; ++k) {
        x = (uint64_t)next_card() << 58 ^ rng_state;
        if (k & 1) x &= rng_state << (k & 63); /* sparser values, low bits clear */
        naive_pop = 0;
        naive_ctz = -1;
        for (i = 63; i >= 0; --i)
            if (x >> i & 1u) {
                naive_pop++;
                naive_ctz = i;
            }
        CHECK(hd_popcount64(x) == naive_pop);
        if (x != 0) CHECK(hd_ctz64(x) == naive_ctz);
    }
}

int main(void) {
    enum { N = 20000 };
    static uint8_t rows[N * 7];
    static int32_t rows32[N * 7];
    static hd_rank_t out[N], out32[N];
    size_t i;
    int j;
    hd_eval_init();
    hd_eval_init(); /* idempotent */
    check_bits();

    for (i = 0; i < N; ++i) {
        uint64_t used = 0;
        for (j = 0; j < 7; ++j) {
            unsigned c;
            do c = next_card(); while (used >> c & 1u);
            used |= (uint64_t)1 << c;
            rows[i * 7 + j] = (uint8_t)c;
            rows32[i * 7 + j] = (int32_t)c;
        }
    }
    CHECK(hd_eval_batch_u8(rows, N, 7, out) == -1);
    CHECK(hd_eval_batch_i32(rows32, N, 7, out32) == -1);
    for (i = 0; i < N; ++i) {
        hd_hand_t h = hd_hand_empty(), board = hd_hand_empty(), hole = hd_hand_empty();
        for (j = 0; j < 7; ++j) h = hd_hand_add(h, rows[i * 7 + j]);
        for (j = 0; j < 5; ++j) board = hd_hand_add(board, rows[i * 7 + j]);
        for (j = 5; j < 7; ++j) hole = hd_hand_add(hole, rows[i * 7 + j]);
        CHECK(out[i] == hd_eval_cards(rows + i * 7, 7));
        CHECK(out32[i] == out[i]);
        CHECK(hd_hand_rank(h) == out[i] && hd_hand_rank7(h) == out[i]);
        CHECK((h.key >> HD_COUNT_SHIFT & 15u) == 7u);
        CHECK(hd_hand_rank(hd_hand_merge(board, hole)) == out[i]);
        CHECK(hd_category(out[i]) >= 0);
    }
    /* 5 and 6 cards: the first k cards of each 7-card row */
    {
        static uint8_t short_rows[N * 6];
        int k;
        for (k = 5; k <= 6; ++k) {
            for (i = 0; i < N; ++i)
                for (j = 0; j < k; ++j) short_rows[i * k + j] = rows[i * 7 + j];
            CHECK(hd_eval_batch_u8(short_rows, N, k, out) == -1);
            for (i = 0; i < N; ++i) CHECK(out[i] == hd_eval_cards(rows + i * 7, k));
        }
    }

    /* bad input is reported, never read out of bounds */
    {
        uint8_t royal[7] = {51, 47, 43, 39, 35, 0, 1}, dup[5] = {0, 1, 2, 3, 0}, big[5] = {0, 1, 2, 3, 52};
        CHECK(hd_eval_cards(royal, 7) == 7462 && hd_category(7462) == HD_STRAIGHT_FLUSH);
        CHECK(hd_eval_cards(royal, 4) == 0 && hd_eval_cards(royal, 8) == 0);
        CHECK(hd_eval_cards(NULL, 5) == 0);
        CHECK(hd_eval_cards(dup, 5) == 0 && hd_eval_cards(big, 5) == 0);
        CHECK(hd_category(0) == -1 && hd_category(7463) == -1 && hd_category(1) == HD_HIGH_CARD);
        CHECK(hd_eval_batch_u8(royal, 1, 4, out) == 0 && hd_eval_batch_u8(royal, 1, 8, out) == 0);
    }
    {
        /* each refusal on its own, with cards that rank as a hand when it is skipped: eight
           cards, a card id 52, a card twice */
        uint8_t eight[8] = {1, 33, 2, 3, 26, 43, 51, 14}, over[5] = {33, 26, 12, 29, 52};
        uint8_t twice[7] = {12, 12, 25, 38, 51, 0, 5};
        CHECK(hd_eval_cards(eight, 8) == 0);
        CHECK(hd_eval_cards(over, 5) == 0);
        CHECK(hd_eval_cards(twice, 7) == 0);
        CHECK(hd_eval_cards(eight + 1, 7) > 0);
    }
    /* rows outside the groups of four (the tail loop) and values the tables poison */
    {
        uint8_t few[3 * 7];
        for (i = 0; i < 3 * 7; ++i) few[i] = rows[i];
        CHECK(hd_eval_batch_u8(few, 3, 7, out) == -1);
        for (i = 0; i < 3; ++i) CHECK(out[i] == hd_eval_cards(rows + i * 7, 7));
        few[2 * 7 + 6] = few[2 * 7 + 0];
        CHECK(hd_eval_batch_u8(few, 3, 7, out) == 2);
        few[2 * 7 + 6] = 255;
        CHECK(hd_eval_batch_u8(few, 3, 7, out) == 2);
        few[1 * 7 + 4] = 52;
        CHECK(hd_eval_batch_u8(few, 3, 7, out) == 1);
        CHECK(hd_eval_batch_u8(few, 1, 7, out) == -1);
    }
    {
        uint8_t saved = rows[7 * 5 + 2];
        rows[7 * 5 + 2] = 200;
        CHECK(hd_eval_batch_u8(rows, N, 7, out) == 5);
        rows[7 * 5 + 2] = saved;
        CHECK(hd_eval_batch_u8(rows, N, 7, out) == -1);
    }
        /* every pair of positions repeated, in every row of a group of four (the SIMD kernel
     * compares each lane with its rotations) and in the tail; every position out of range */
    {
        static uint8_t g[12 * 7];
        static int8_t gi[12 * 7];
        int k, a, b2, r;
        for (k = 5; k <= 7; ++k) {
            for (i = 0; i < 12; ++i)
                for (j = 0; j < k; ++j) g[i * k + j] = rows[i * 7 + j];
            CHECK(hd_eval_batch_u8(g, 12, k, out) == -1);
            for (r = 0; r < 12; ++r)
                for (a = 0; a < k; ++a) {
                    uint8_t saved = g[r * k + a];
                    for (b2 = 0; b2 < k; ++b2) {
                        if (b2 == a) continue;
                        g[r * k + a] = g[r * k + b2];
                        CHECK(hd_eval_batch_u8(g, 12, k, out) == r);
                    }
                    g[r * k + a] = 52;
                    CHECK(hd_eval_batch_u8(g, 12, k, out) == r);
                    g[r * k + a] = 255;
                    CHECK(hd_eval_batch_u8(g, 12, k, out) == r);
                    g[r * k + a] = saved;
                }
            /* two bad rows: the first is reported */
            g[9 * k] = 60;
            g[3 * k + 1] = g[3 * k];
            CHECK(hd_eval_batch_u8(g, 12, k, out) == 3);
            for (i = 0; i < 12; ++i)
                for (j = 0; j < k; ++j) gi[i * k + j] = (int8_t)rows[i * 7 + j];
            CHECK(hd_eval_batch_i8(gi, 12, k, out32) == -1);
            for (i = 0; i < 12; ++i) CHECK(out32[i] == hd_eval_cards(rows + i * 7, k));
            gi[7 * k + k - 1] = -1;
            CHECK(hd_eval_batch_i8(gi, 12, k, out32) == 7);
        }
    }
    rows[7 * 900 + 3] = rows[7 * 900 + 6];
    CHECK(hd_eval_batch_u8(rows, N, 7, out) == 900);
    rows32[7 * 800 + 6] = -1;
    CHECK(hd_eval_batch_i32(rows32, N, 7, out32) == 800);
    rows32[7 * 700 + 0] = 52;
    rows32[7 * 700 + 1] = 53; /* two bad values: their bits carry out of the sum */
    CHECK(hd_eval_batch_i32(rows32, N, 7, out32) == 700);
    rows32[7 * 600 + 2] = 1 << 20;
    CHECK(hd_eval_batch_i32(rows32, N, 7, out32) == 600);
    {
        /* garbage accumulators stay inside the tables (rank meaningless, no crash) */
        hd_hand_t h = hd_hand_empty();
        for (j = 0; j < 40; ++j) h = hd_hand_add(h, j * 7 + 3);
        (void)hd_hand_rank(h);
        (void)hd_hand_rank7(h);
        (void)hd_rank_key_ids(~(uint64_t)0, ~(uint64_t)0);
    }
    {
        static uint64_t hist[HD_NUM_RANKS + 1];
        uint64_t total = 0;
        int r, distinct = 0;
        CHECK(hd_rank_histogram(4, hist) == -1 && hd_rank_histogram(8, hist) == -1);
        CHECK(hd_rank_histogram(5, hist) == 0);
        for (r = 0; r <= HD_NUM_RANKS; ++r) {
            total += hist[r];
            distinct += hist[r] != 0;
        }
        CHECK(total == 2598960u && hist[0] == 0 && distinct == 7462);
    }
    if (failures == 0) printf("ok\n");
    return failures;
}
