/* libFuzzer target: the evaluator (csrc/hd_eval.h).
 *
 * - Any input at all: hd_hand_add with any card int, the lookups with any key, hd_rank_key_ids
 *   with any key and id mask, hd_eval_cards and the batch functions with any bytes stay inside
 *   their tables (hd_eval.h's memory-safety promise; ASan reports a read outside).
 * - 5 to 7 distinct cards: the rank is 1..7462, the same by every entry point, and a 6- or
 *   7-card rank is the best of its 5-card subsets (a differential check of the tables).
 *
 * Built by tests/test_fuzz_corpus.py (gcc, ASan + UBSan, tests/fuzz/replay.c replays the
 * corpus) and by tools/fuzz.sh (clang's libFuzzer, to search for new inputs). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hd_eval.h"

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_eval: %s\n", what);
    abort();
}

static uint64_t take64(const uint8_t **p, size_t *n)
{
    uint64_t v = 0;
    size_t k = *n < 8 ? *n : 8;
    memcpy(&v, *p, k);
    *p += k;
    *n -= k;
    return v;
}

/* The best rank of the five-card subsets of c[0 .. n), n = 6 or 7. */
static hd_rank_t best_of_five(const uint8_t *c, int n)
{
    hd_rank_t best = 0, r;
    int a, b, k, m;
    uint8_t five[5];
    /* leave out two cards of 7 (a < b), or one of 6 (a == b) */
    for (a = 0; a < n; a++)
        for (b = a; b < n; b++) {
            if ((n == 7) == (a == b)) continue;
            for (k = 0, m = 0; k < n; k++)
                if (k != a && k != b) five[m++] = c[k];
            if (m != 5) fail("five of the cards");
            r = hd_eval_cards(five, 5);
            if (r > best) best = r;
        }
    return best;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data;
    size_t left = size;
    uint8_t cards[7];
    int n, k, j, distinct = 1;
    hd_hand_t h = hd_hand_empty();
    hd_rank_t r, r2, out[4];
    uint64_t key, ids;
    volatile hd_rank_t sink;

    hd_eval_init();
    /* raw keys and masks: any value stays inside the tables */
    key = take64(&p, &left);
    ids = take64(&p, &left);
    sink = hd_lookup7(key);
    sink = hd_lookup56(key);
    sink = hd_lookup_any(key);
    sink = hd_rank_key_ids(key, ids);
    if (key & HD_FLUSH_BITS) sink = hd_flush_lanes(key & HD_FLUSH_BITS, ids);
    h.key = key;
    h.mask = ids;
    sink = hd_hand_rank(h);
    sink = hd_hand_rank7(h);
    (void)sink;
    /* the batch functions on the raw bytes, as rows of 5, 6 and 7 */
    for (k = 5; k <= 7; k++) {
        size_t rows = left / (size_t)k;
        if (rows > 4) rows = 4;
        (void)hd_eval_batch_u8(p, rows, k, out);
        if (left >= 8 * (size_t)k) {
            int64_t wide[7];
            memcpy(wide, p, sizeof(int64_t) * (size_t)k);
            (void)hd_eval_batch_i64(wide, 1, k, out);
        }
    }
    if (left < 1) return 0;
    n = 5 + p[0] % 3;
    p++;
    left--;
    if (left < (size_t)n) return 0;
    /* any card ints through hd_hand_add: safe, whatever they are */
    h = hd_hand_empty();
    for (k = 0; k < n; k++) h = hd_hand_add(h, (int)(int8_t)p[k] * 3);
    sink = hd_hand_rank(h);
    /* the cards as ids 0..51 */
    for (k = 0; k < n; k++) {
        cards[k] = (uint8_t)(p[k] % 64);
        for (j = 0; j < k; j++)
            if (cards[j] == cards[k]) distinct = 0;
        if (cards[k] >= 52) distinct = 0;
    }
    r = hd_eval_cards(cards, n);
    if (!distinct) {
        if (r != 0) fail("a repeated card or an id out of range was ranked");
        return 0;
    }
    if (r < 1 || r > HD_NUM_RANKS) fail("rank out of range");
    h = hd_hand_empty();
    ids = 0;
    key = HD_KEY_INIT;
    for (k = 0; k < n; k++) {
        h = hd_hand_add(h, cards[k]);
        ids |= (uint64_t)1 << cards[k];
        key += hd_card_key[cards[k]];
    }
    if (hd_hand_rank(h) != r || hd_rank_key_ids(key, ids) != r) fail("entry points disagree");
    if (n == 7 && hd_hand_rank7(h) != r) fail("hd_hand_rank7 disagrees");
    if (hd_eval_batch_u8(cards, 1, n, out) != -1 || out[0] != r) fail("the batch disagrees");
    if (hd_category(r) < 0 || hd_category(r) > 8) fail("category");
    if (n > 5) {
        r2 = best_of_five(cards, n);
        if (r2 != r) fail("not the best of its five-card subsets");
    }
    return 0;
}
