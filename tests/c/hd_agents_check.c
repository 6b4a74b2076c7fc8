/* The compiled policies (csrc/hd_agents.h) on their own: every policy plays whole hands in
 * every structure at 2-10 seats, each decision legal (hd_hs_check) and chips conserved; the
 * equity estimate stays in [0, 1] and memory-safe on garbage input; the 64-bit bounded draw
 * stays in range. Run under ASan/UBSan by tests/test_agents_compiled.py when the compiler has
 * them. Prints "ok" or the first failure. */
#include <stdio.h>

#include "hd_agents.h"
#include "hd_deck.h"
#include "hd_hand.h"
#include "hd_rng.h"

static int fail(const char *what, int hand)
{
    printf("FAIL %s (hand %d)\n", what, hand);
    return 1;
}

int main(void)
{
    hd_rules_t g;
    hd_hstate_t h;
    hd_legal_t la;
    hd_deck_t deck;
    hd_rng_t r, pr;
    hd_policy_t pol[3];
    uint8_t row[28], cards[25], junk[7];
    int64_t stacks[10], before, after, to;
    int hand, n, k, kind, steps;
    double eq;
    uint64_t x, bound;
    pol[0].kind = HD_POLICY_RANDOM;
    pol[1].kind = HD_POLICY_CALL;
    pol[2].kind = HD_POLICY_EQUITY;
    for (k = 0; k < 3; k++) {
        pol[k].samples = 12;
        pol[k].raise_at = 0.5;
        if (hd_policy_check(&pol[k]) != 0) return fail("policy_check", k);
    }
    pol[2].samples = 0;
    if (hd_policy_check(&pol[2]) == 0) return fail("samples 0 accepted", 0);
    pol[2].samples = 12;
    hd_rng_seed(&r, 777);
    hd_rng_seed(&pr, 778);
    for (hand = 0; hand < 20000; hand++) {
        hd_rules_init_nl(&g, 1, 2);
        g.structure = hand % 3;
        if (g.structure == HD_FL) {
            g.sizes[0] = g.sizes[1] = 2;
            g.sizes[2] = g.sizes[3] = 4;
            g.cap = 4;
        }
        g.ante = hand % 5 == 0 ? 1 : 0;
        n = 2 + (int)hd_rng_below(&r, 9);
        for (k = 0; k < n; k++) stacks[k] = 1 + (int64_t)hd_rng_below(&r, 400);
        hd_deal_hand(&deck, hd_rng_next(&r), n, 1, row);
        for (k = 0; k < 2 * n; k++) cards[k] = row[k];
        for (k = 0; k < 5; k++) cards[2 * n + k] = row[2 * n + k];
        if (hd_hs_start(&g, &h, n, hand % n, stacks, cards) != HD_HAND_OK)
            return fail("start", hand);
        before = 0;
        for (k = 0; k < n; k++) before += stacks[k];
        steps = 0;
        while (!h.over) {
            if (++steps > 1000) return fail("hand does not end", hand);
            hd_hs_legal(&g, &h, &la);
            hd_policy_act(&pol[(la.seat + hand) % 3], &h, &la, &pr, &kind, &to, &eq);
            if (pol[(la.seat + hand) % 3].kind == HD_POLICY_EQUITY && !(eq >= 0.0 && eq <= 1.0))
                return fail("equity outside [0, 1]", hand);
            if (pol[(la.seat + hand) % 3].kind == HD_POLICY_CALL && kind != HD_CHECK_CALL)
                return fail("call policy did not check/call", hand);
            if (hd_hs_check(&g, &h, kind, to) != HD_HAND_OK) return fail("illegal action", hand);
            hd_hs_act(&g, &h, kind, to);
        }
        if (h.error) return fail("settlement", hand);
        after = h.rake;
        for (k = 0; k < n; k++) after += h.stacks[k];
        if (after != before) return fail("chips not conserved", hand);
    }
    /* garbage into the estimate: out-of-range ids, repeats, bad counts */
    for (hand = 0; hand < 2000; hand++) {
        for (k = 0; k < 7; k++) junk[k] = (uint8_t)hd_rng_below(&r, 256);
        if (hand % 3 == 0) junk[1] = junk[0];
        eq = hd_equity_mc(junk, junk + 2, (int)hd_rng_below(&r, 12) - 3,
                          (int)hd_rng_below(&r, 8) - 2, (int)hd_rng_below(&r, 5) - 1, &pr);
        if (!(eq >= 0.0 && eq <= 1.0)) return fail("garbage equity outside [0, 1]", hand);
    }
    for (hand = 0; hand < 100000; hand++) {
        bound = hand % 2 ? (uint64_t)1 << 53 : hd_rng_next(&r) | 1u;
        x = hd_rng_below64(&pr, bound);
        if (x >= bound) return fail("below64 out of range", hand);
    }
    if (hd_rng_below64(&pr, 1) != 0 || hd_rng_below64(&pr, 0) != 0) return fail("below64(1)", 0);
    printf("ok\n");
    return 0;
}
