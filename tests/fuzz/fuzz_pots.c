/* libFuzzer target: the pot splitter (csrc/hd_pots.h) on any arguments.
 *
 * The input fills every argument of hd_split_pots: the seat count (also out of range), the
 * committed chips, folded flags, ranks (or no ranks), the button, dead money, the rake and
 * the flop flag. hd_split_pots must never read outside [0, n) of its arrays (they are made
 * exactly n long on the heap: ASan sees a read past them), and on success:
 * - chips are conserved: sum(payouts) + rake == sum(committed) + dead (R31, R34);
 * - every payout is at least the seat's uncalled chips, and a folded seat wins nothing;
 * - each pot's shares and rake add up to its amount, only eligible seats share it, and the
 *   rake is within the fraction and the cap (R34);
 * - the shares of one pot differ by at most one chip (R32: odd chips one at a time).
 *
 * Built by tests/test_fuzz_corpus.py (gcc, ASan + UBSan, replayed over tests/fuzz/corpus/pots)
 * and by tools/fuzz.sh (clang's libFuzzer). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hd_pots.h"

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_pots: %s\n", what);
    abort();
}

static uint64_t take(const uint8_t **p, size_t *n, size_t k)
{
    uint64_t v = 0;
    if (k > *n) k = *n;
    memcpy(&v, *p, k);
    *p += k;
    *n -= k;
    return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data;
    size_t left = size;
    int n, i, k, button, flop, has_ranks, has_rake, code;
    uint64_t flags;
    int64_t dead, total = 0, paid = 0, lo, hi, sum;
    int64_t *committed;
    uint8_t *folded;
    int32_t *ranks = NULL;
    hd_rake_t rake;
    hd_pot_result_t out;
    const hd_pot_t *pot;

    if (left < 4) return 0;
    n = (int)(int8_t)take(&p, &left, 1);  /* also outside 2..10 */
    flags = take(&p, &left, 1);
    button = (int)(int8_t)take(&p, &left, 1);
    flop = (int)(flags & 1);
    has_ranks = (int)(flags >> 1 & 1);
    has_rake = (int)(flags >> 2 & 1);
    k = n >= 0 && n <= 16 ? n : 1;       /* the arrays: exactly n entries when n is sane */
    committed = (int64_t *)malloc(sizeof(int64_t) * (size_t)k);
    folded = (uint8_t *)malloc((size_t)k);
    ranks = (int32_t *)malloc(sizeof(int32_t) * (size_t)k);
    if (committed == NULL || folded == NULL || ranks == NULL) fail("out of memory");
    for (i = 0; i < k; i++) {
        /* small chip counts mostly (splits and odd chips), now and then any int64 */
        uint64_t c = take(&p, &left, flags >> 3 & 1 ? 8 : 1);
        committed[i] = (int64_t)c;
        folded[i] = (uint8_t)(take(&p, &left, 1) % 3 == 0);
        ranks[i] = (int32_t)(int8_t)take(&p, &left, 1);
    }
    dead = flags >> 4 & 1 ? (int64_t)take(&p, &left, 8) : (int64_t)take(&p, &left, 1) % 7;
    memset(&rake, 0, sizeof rake);
    rake.num = take(&p, &left, 1);
    rake.den = take(&p, &left, 1);
    if (flags >> 5 & 1) {
        rake.num = take(&p, &left, 8);
        rake.den = take(&p, &left, 8);
    }
    rake.cap = (int64_t)(int8_t)take(&p, &left, 1);
    rake.no_flop_no_drop = (int32_t)(flags >> 6 & 1);
    code = hd_split_pots(committed, folded, has_ranks ? ranks : NULL, n, button, dead,
                         has_rake ? &rake : NULL, flop, &out);
    if (code == HD_POTS_OK) {
        if (n < 2 || n > HD_POTS_MAX_SEATS || button < 0 || button >= n) fail("accepted seats");
        for (i = 0; i < n; i++) total += committed[i];
        total += dead;
        for (i = 0; i < n; i++) {
            paid += out.payouts[i];
            if (out.payouts[i] < out.returned[i] || out.returned[i] < 0) fail("returned");
            if (folded[i] && out.payouts[i] != out.returned[i]) fail("a folded seat won");
        }
        if (paid + out.rake != total || out.rake < 0) fail("chips not conserved");
        /* no pot only when every chip went back uncalled (R21) */
        for (i = 0, sum = total; i < n; i++) sum -= out.returned[i];
        if (out.n_pots < (sum > 0) || out.n_pots > HD_POTS_MAX_POTS) fail("pot count");
        sum = 0;
        for (k = 0; k < out.n_pots; k++) {
            pot = &out.pots[k];
            lo = INT64_MAX;
            hi = -1;
            paid = pot->rake;
            for (i = 0; i < n; i++) {
                paid += pot->shares[i];
                if (pot->shares[i] && !(pot->winners >> i & 1)) fail("a share to a non-winner");
                if ((pot->winners >> i & 1) && !(pot->eligible >> i & 1)) fail("an ineligible winner");
                if (pot->winners >> i & 1) {
                    if (pot->shares[i] < lo) lo = pot->shares[i];
                    if (pot->shares[i] > hi) hi = pot->shares[i];
                }
            }
            if (paid != pot->amount || pot->rake < 0) fail("pot shares");
            if (hi >= 0 && hi - lo > 1) fail("uneven split (R32)");
            sum += pot->rake;
        }
        if (sum != out.rake) fail("rake total");
        if (!has_rake && out.rake != 0) fail("rake without rake");
        if (has_rake && rake.cap >= 0 && out.rake > rake.cap) fail("rake above the cap");
        if (has_rake && rake.no_flop_no_drop && !flop && out.rake != 0) fail("rake without a flop");
        if (has_rake && rake.den > 0 && rake.num <= rake.den
            && (uint64_t)out.rake > hd_pots_rake_of((uint64_t)total, rake.num, rake.den))
            fail("rake above the fraction");
    }
    free(committed);
    free(folded);
    free(ranks);
    return 0;
}
