/* libFuzzer target: the hand rules in C (csrc/hd_hand.h) driven by arbitrary bytes.
 *
 * The input gives the rules (any structure, blinds, ante, straddle, bet sizes, cap, rake:
 * hd_rules_check decides), the seats, button, stacks and cards (also out of range or
 * repeated), the table options of hd_hs_start_ex (dead small blind, unknown cards, extra posts,
 * dead hands) and then a list of actions. hd_hs_start_ex validates everything it is given;
 * when it accepts, the hand is played:
 * - an action hd_hs_check accepts is played by hd_hs_act_rec: the record describes it, and
 *   the state keeps every invariant hd_hs_consistent checks;
 * - one it refuses is, when the input says so, played anyway by the unchecked hd_hs_act (the
 *   batched engine's fast path): the state may leave the rules but stays memory-safe;
 * - now and then bytes of the struct are overwritten (a corrupt pickle): hd_hs_consistent
 *   refuses it, or play goes on safely and conserves chips from there.
 * - the built-in agents' compiled policies (csrc/hd_agents.h: random, call, equity) decide
 *   some of the actions: theirs are legal, and the equity estimate is in [0, 1] (also from
 *   hd_equity_mc on garbage card bytes).
 * Always: chips are conserved (stacks + committed + dead in play; stacks + rake once settled),
 * hd_hs_legal's range is consistent, and settling again gives the same payouts. Without
 * table options, hd_hs_start and hd_hs_start_trusted start the same struct as hd_hs_start_ex.
 *
 * Built by tests/test_fuzz_corpus.py (gcc, ASan + UBSan, replayed over tests/fuzz/corpus/hand)
 * and by tools/fuzz.sh (clang's libFuzzer). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hd_agents.h"
#include "hd_hand.h"
#include "hd_rng.h"

typedef struct {
    const uint8_t *p;
    size_t left;
} input_t;

static uint64_t take(input_t *in, size_t k)
{
    uint64_t v = 0;
    if (k > in->left) k = in->left;
    memcpy(&v, in->p, k);
    in->p += k;
    in->left -= k;
    return v;
}

/* A chip amount: mostly small (the interesting splits and all-ins), now and then any int64. */
static int64_t chips(input_t *in)
{
    uint64_t b = take(in, 1);
    if (b == 255) return (int64_t)take(in, 8);
    if (b == 254) return (int64_t)(take(in, 2) << 20);
    return (int64_t)b;
}

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_hand: %s\n", what);
    abort();
}

static int64_t in_play(const hd_hstate_t *h)
{
    int64_t t = h->dead;
    int j;
    for (j = 0; j < h->n; j++) t += h->stacks[j] + h->committed[j];
    return t;
}

static int64_t settled(const hd_hstate_t *h)
{
    int64_t t = h->rake;
    int j;
    for (j = 0; j < h->n; j++) t += h->stacks[j];
    return t;
}

/* Play the rest of the input as actions; `rules_kept`: every action so far was legal and the
 * struct was not touched, so hd_hs_consistent must hold throughout. */
static void play(const hd_rules_t *g, hd_hstate_t *h, input_t *in, int64_t total, int rules_kept)
{
    hd_legal_t la;
    hd_record_t rec;
    hd_pot_result_t res;
    int32_t order[HD_HAND_MAX_SEATS];
    uint8_t shown[HD_HAND_MAX_SEATS];
    hd_policy_t pol;
    hd_rng_t rng;
    double eq;
    uint8_t garbage[7];
    int steps, kind, code, j, count;
    uint64_t b;
    int64_t to, span;
    size_t off;
    for (steps = 0; !h->over && !h->error && in->left > 0; steps++) {
        if (steps > 4000) fail("no end");
        if (in_play(h) != total) fail("chips in play");
        if (rules_kept && hd_hs_consistent(g, h) != HD_HAND_OK) fail("consistent in play");
        if (h->actor < 0 || h->actor >= h->n) fail("actor");
        hd_hs_legal(g, h, &la);
        if (la.can_raise != (hd_hs_raise_block(g, h, h->actor) == 0)) fail("raise block");
        if (la.seat != h->actor || la.call < 0 || la.call > h->stacks[h->actor]) fail("legal call");
        /* (a struct that passed hd_hs_consistent after an overwrite is memory-safe to play,
           not a state of the rules: its range is checked only while the rules were kept) */
        if (rules_kept && la.can_raise && (la.min_to > la.max_to || la.min_to <= h->cur ||
                                           la.max_to > h->bets[la.seat] + h->stacks[la.seat]))
            fail("legal range");
        b = take(in, 1);
        if (b == 0xFF && in->left >= 3) { /* overwrite a struct byte: a corrupt pickle */
            off = (size_t)take(in, 2) % sizeof(hd_hstate_t);
            ((uint8_t *)h)[off] = (uint8_t)take(in, 1);
            if (hd_hs_consistent(g, h) != HD_HAND_OK || h->over) return; /* refused */
            total = in_play(h);
            rules_kept = 0; /* consistent is not closed under play from any consistent state */
            continue;
        }
        if (b >> 6 & 1) { /* a built-in agent's compiled policy decides */
            pol.kind = (int32_t)(b >> 7 ? HD_POLICY_RANDOM : take(in, 1) % 3);
            pol.samples = 1 + (int32_t)(take(in, 1) % 8);
            pol.raise_at = (double)take(in, 1) / 200.0;
            hd_rng_seed(&rng, take(in, 8));
            if (hd_policy_check(&pol) != 0) fail("policy");
            hd_policy_act(&pol, h, &la, &rng, &kind, &to, &eq);
            if (pol.kind == HD_POLICY_EQUITY ? !(eq >= 0.0 && eq <= 1.0) : eq != -1.0)
                fail("policy equity");
            /* hd_agents.h: the action is legal for any valid policy */
            if (rules_kept && hd_hs_check(g, h, kind, to) != HD_HAND_OK) fail("policy action");
        } else {
            kind = (int)(b % 4) == 3 ? (int)(int8_t)take(in, 1) : (int)(b % 4);
            span = la.max_to - la.min_to;
            switch (b >> 2 & 7) {
            case 0: to = la.min_to; break;
            case 1: to = la.max_to; break;
            case 2:
                to = la.min_to + (span > 0 ? (int64_t)(take(in, 2) % (uint64_t)(span + 1)) : 0);
                break;
            case 3: to = la.min_to - 1; break;
            case 4: to = la.max_to + 1; break;
            default: to = chips(in); break;
            }
        }
        code = hd_hs_check(g, h, kind, to);
        if (code == HD_HAND_OK) {
            if (kind < HD_FOLD || kind > HD_BET_RAISE) fail("checked kind");
            if (kind == HD_BET_RAISE && (!la.can_raise || to < la.min_to || to > la.max_to))
                fail("checked amount");
            rec.seat = -1;
            hd_hs_act_rec(g, h, kind, to, &rec);
            if (rec.seat != la.seat || rec.amount < 0) fail("record");
        } else if (b >> 5 & 1) { /* the unchecked path, on an action the rules refuse */
            hd_hs_act(g, h, kind, to);
            rules_kept = 0;
        }
        if (h->error) return; /* a card not known was needed: the state is mid-way */
    }
    /* hd_equity_mc reads card ids modulo 64: any bytes give an estimate in [0, 1] */
    for (j = 0; j < 7; j++) garbage[j] = (uint8_t)take(in, 1);
    hd_rng_seed(&rng, (uint64_t)total);
    eq = hd_equity_mc(garbage, garbage + 2, garbage[6] % 6, (int)(int8_t)garbage[5], 2, &rng);
    if (!(eq >= 0.0 && eq <= 1.0)) fail("equity of garbage");
    if (!h->over) {
        if (in_play(h) != total) fail("chips at the end of the input");
        return;
    }
    if (settled(h) != total) fail("chips after settling");
    if (!g->has_rake && h->rake != 0) fail("rake without rake");
    if (rules_kept && hd_hs_consistent(g, h) != HD_HAND_OK) fail("consistent at the end");
    if (hd_hs_check(g, h, HD_CHECK_CALL, 0) != HD_HAND_E_OVER) fail("over");
    if (rules_kept && !h->error) {
        if (hd_hs_settle(g, h, &res) != HD_POTS_OK) fail("settle again");
        for (j = 0; j < h->n; j++)
            if (res.payouts[j] != h->payout[j]) fail("payouts again");
        if (h->showdown) {
            count = hd_hs_showdown(h, (int)(total & 1), order, shown);
            if (count != h->live || !shown[0]) fail("showdown");
        }
    }
    (void)hd_hs_show_order(h, order);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input_t in = {data, size};
    hd_rules_t g;
    hd_hstate_t h, plain;
    hd_start_t opt;
    hd_post_t posts[HD_HAND_MAX_POSTS];
    int64_t stacks[HD_HAND_MAX_SEATS + 6], total;
    uint8_t cards[2 * (HD_HAND_MAX_SEATS + 6) + 5];
    uint64_t flags;
    int n, k, button, np = -1, code, seats;

    if (size < 8) return 0;
    flags = take(&in, 2);
    hd_rules_init_nl(&g, 1, 2);
    g.structure = (int32_t)(flags % 3);
    g.straddle = (int32_t)(flags >> 2 & 1);
    g.bb_ante = (int32_t)(flags >> 3 & 1);
    g.deal_from_bb = (int32_t)(flags >> 4 & 1);
    g.lift_heads_up = (int32_t)(flags >> 5 & 1);
    g.fold_free = (int32_t)(flags >> 6 & 1);
    if (flags >> 7 & 1) { /* other amounts: checked by hd_rules_check */
        g.small_blind = chips(&in);
        g.big_blind = chips(&in);
        g.ante = chips(&in);
        for (k = 0; k < 4; k++) g.sizes[k] = chips(&in);
        g.cap = (int32_t)(int8_t)take(&in, 1);
    } else if (g.structure == HD_FL) {
        g.sizes[0] = g.sizes[1] = 2;
        g.sizes[2] = g.sizes[3] = 4;
        g.cap = 4;
    }
    if (flags >> 8 & 1) {
        g.has_rake = 1;
        g.rake.num = take(&in, 1);
        g.rake.den = take(&in, 1);
        g.rake.cap = (int64_t)(int8_t)take(&in, 1);
        g.rake.no_flop_no_drop = (int32_t)(flags >> 9 & 1);
    }
    if (hd_rules_check(&g) != HD_HAND_OK) return 0;
    n = (int)(int8_t)take(&in, 1);          /* also outside 2..10: refused */
    button = (int)(int8_t)take(&in, 1);
    seats = n >= 0 && n <= HD_HAND_MAX_SEATS + 6 ? n : 0;
    for (k = 0; k < seats; k++) stacks[k] = chips(&in);
    for (k = 0; k < 2 * seats + 5; k++) {
        /* a permutation prefix mostly (valid cards), raw bytes when the flag says so */
        cards[k] = (uint8_t)take(&in, 1);
        if (!(flags >> 10 & 1) && cards[k] != HD_CARD_NONE) cards[k] %= 52;
    }
    memset(&opt, 0, sizeof opt);
    opt.dead_small_blind = (int32_t)(flags >> 11 & 1);
    opt.unknown_cards = (int32_t)(flags >> 12 & 1);
    if (flags >> 13 & 1) {
        opt.dead_hands = (int32_t)take(&in, 2);
        opt.nextra = (int32_t)(int8_t)take(&in, 1);
        for (k = 0; k < HD_HAND_MAX_SEATS && k < opt.nextra; k++) {
            opt.extra[k].seat = (int32_t)(int8_t)take(&in, 1);
            opt.extra[k].live = chips(&in);
            opt.extra[k].dead = chips(&in);
        }
    }
    memset(&h, 0, sizeof h);
    code = hd_hs_start_ex(&g, &h, n, button, stacks, cards, flags >> 14 & 1 ? NULL : &opt,
                          posts, &np);
    if (flags >> 14 & 1 || (!opt.dead_small_blind && !opt.unknown_cards && !(flags >> 13 & 1))) {
        /* no table options: hd_hs_start is the same start, and hd_hs_start_trusted too for
           the input it trusts (checked rules, seats, button, distinct cards 0..51) */
        memset(&plain, 0, sizeof plain);
        if (hd_hs_start(&g, &plain, n, button, stacks, cards) != code) fail("start codes");
        if (code == HD_HAND_OK && memcmp(&plain, &h, sizeof h) != 0) fail("start structs");
        if (code == HD_HAND_OK) {
            memset(&plain, 0, sizeof plain);
            if (hd_hs_start_trusted(&g, &plain, n, button, stacks, cards) != HD_HAND_OK ||
                memcmp(&plain, &h, sizeof h) != 0)
                fail("trusted start");
        }
    }
    if (code != HD_HAND_OK) return 0;
    if (n < 2 || n > HD_HAND_MAX_SEATS || button < 0 || button >= n) fail("accepted seats");
    if (np < 0 || np > HD_HAND_MAX_POSTS) fail("posts");
    for (total = 0, k = 0; k < n; k++) {
        if (stacks[k] < 1) fail("accepted stack");
        total += stacks[k];
    }
    if (h.error) return 0; /* run out at the start and a card was not known */
    if (!h.over && hd_hs_consistent(&g, &h) != HD_HAND_OK) fail("consistent at the start");
    if (h.over ? settled(&h) != total : in_play(&h) != total) fail("chips at the start");
    play(&g, &h, &in, total, 1);
    return 0;
}
