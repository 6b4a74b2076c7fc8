/* The hand rules in C (csrc/hd_hand.h) on their own: random legal play in every structure at
 * 2-10 seats conserves chips and keeps every legal range consistent; random garbage actions
 * through the unchecked hd_hs_act stay memory-safe and chip-conserving (run under ASan/UBSan by
 * tests/test_vector.py when the compiler has them). The table starts (hd_hs_start_ex: dead small
 * blind, extra posts, unknown cards) keep every invariant hd_hs_consistent checks, stop on an
 * unknown card instead of reading it, and a struct with one field changed at random is either
 * refused by hd_hs_consistent or played on safely. hd_hs_start_trusted starts the same struct as
 * hd_hs_start on valid input, and hd_deal_seats deals hd_deal_hand's cards in seat order.
 * Prints "ok" or the first failure. */
#include <stdio.h>
#include <string.h>

#include "hd_deck.h"
#include "hd_hand.h"
#include "hd_rng.h"

static int fail(const char *what, int hand)
{
    printf("FAIL %s (hand %d)\n", what, hand);
    return 1;
}

static int64_t total_chips(const hd_hstate_t *h)
{
    int64_t t = h->dead;
    int j;
    for (j = 0; j < h->n; j++) t += h->stacks[j] + h->committed[j];
    return t;
}

/* hd_hs_start_ex with random options, unknown cards and garbage; hd_hs_consistent throughout. */
static int check_table_starts(void)
{
    hd_rules_t g;
    hd_hstate_t h, m;
    hd_legal_t la;
    hd_deck_t deck;
    hd_rng_t r;
    hd_start_t opt;
    hd_post_t posts[HD_HAND_MAX_POSTS];
    hd_record_t rec;
    hd_pot_result_t res;
    int32_t order[HD_HAND_MAX_SEATS];
    uint8_t row[28], cards[25], shown[HD_HAND_MAX_SEATS];
    int64_t stacks[10], start_total, *field;
    int hand, n, k, steps, np, code, count;
    hd_rng_seed(&r, 777);
    for (hand = 0; hand < 50000; hand++) {
        hd_rules_init_nl(&g, 1 + hand % 3, 2 + hand % 3);
        g.structure = hand % 3;
        g.straddle = hand % 4 == 1;
        g.ante = hand % 5 == 0 ? 1 : 0;
        g.bb_ante = hand % 10 == 0;
        g.deal_from_bb = hand % 3 == 1;
        n = 2 + (int)hd_rng_below(&r, 9);
        if (g.straddle && n < 3) n = 3;
        for (k = 0; k < n; k++) stacks[k] = 1 + (int64_t)hd_rng_below(&r, 60);
        hd_deal_hand(&deck, hd_rng_next(&r), n, 0, row);
        for (k = 0; k < 2 * n + 5; k++)
            cards[k] = hand % 4 == 0 && hd_rng_below(&r, 6) == 0 ? HD_CARD_NONE : row[k];
        opt.dead_small_blind = n >= 3 && hd_rng_below(&r, 3) == 0;
        opt.unknown_cards = hand % 4 == 0;
        /* TDA 30 dead hands, sometimes out of range (a bit at n or above, every seat dead, a
           negative mask): must be refused */
        opt.dead_hands = hand % 3 == 2 ? (int32_t)hd_rng_below(&r, 1u << (n + 1)) : 0;
        if (hand % 97 == 5) opt.dead_hands = -1;
        opt.nextra = (int)hd_rng_below(&r, 4);
        for (k = 0; k < opt.nextra; k++) { /* sometimes out of range: must be refused */
            opt.extra[k].seat = (int)hd_rng_below(&r, (uint32_t)n + 1);
            opt.extra[k].pad_ = 0;
            opt.extra[k].live = (int64_t)hd_rng_below(&r, 5) - 1;
            opt.extra[k].dead = (int64_t)hd_rng_below(&r, 4);
        }
        code = hd_hs_start_ex(&g, &h, n, (int)hd_rng_below(&r, (uint32_t)n), stacks, cards, &opt,
                              posts, &np);
        if (code == HD_HAND_E_POSTS) continue;
        if (code != HD_HAND_OK) return fail("start_ex", hand);
        if (np < 1 || np > HD_HAND_MAX_POSTS) return fail("posts", hand);
        start_total = 0;
        for (k = 0; k < n; k++) start_total += stacks[k];
        for (steps = 0; !h.over && !h.error; steps++) {
            if (steps > 10000) return fail("no end", hand);
            if (total_chips(&h) != start_total) return fail("chips (table start)", hand);
            if (hd_hs_consistent(&g, &h) != HD_HAND_OK) return fail("consistent", hand);
            if (steps == 2) { /* one field changed at random: refused, or safe to play on */
                m = h;
                switch (hd_rng_below(&r, 5)) {
                case 0: field = &m.stacks[hd_rng_below(&r, HD_HAND_MAX_SEATS)]; break;
                case 1: field = &m.bets[hd_rng_below(&r, HD_HAND_MAX_SEATS)]; break;
                case 2: field = &m.committed[hd_rng_below(&r, HD_HAND_MAX_SEATS)]; break;
                case 3: field = &m.acted[hd_rng_below(&r, HD_HAND_MAX_SEATS)]; break;
                default: field = hd_rng_below(&r, 2) ? &m.cur : &m.dead; break;
                }
                *field = (int64_t)(hd_rng_next(&r) >> hd_rng_below(&r, 64)) - 3;
                for (k = 0; k < 30 && hd_hs_consistent(&g, &m) == HD_HAND_OK && !m.over &&
                     !m.error; k++) {
                    hd_hs_legal(&g, &m, &la);
                    hd_hs_act_rec(&g, &m, (int)hd_rng_below(&r, 3), la.max_to, &rec);
                }
            }
            hd_hs_legal(&g, &h, &la);
            hd_hs_act_rec(&g, &h, (int)hd_rng_below(&r, 3),
                          la.can_raise ? la.min_to : (int64_t)hd_rng_below(&r, 9), &rec);
            if (rec.seat < 0 || rec.seat >= n || rec.type < HD_REC_FOLD || rec.type > HD_REC_RAISE)
                return fail("record", hand);
        }
        if (h.error) {
            if (!opt.unknown_cards || (h.error != HD_HAND_E_BOARD && h.error != HD_HAND_E_HOLE))
                return fail("unknown card error", hand);
            continue;
        }
        if (hd_hs_consistent(&g, &h) != HD_HAND_OK) return fail("consistent at the end", hand);
        if (hd_hs_settle(&g, &h, &res) != HD_POTS_OK) return fail("settle again", hand);
        for (k = 0; k < n; k++)
            if (res.payouts[k] != h.payout[k]) return fail("payouts again", hand);
        if (h.showdown) {
            count = hd_hs_showdown(&h, hand % 2, order, shown);
            if (count != h.live || (hand % 2 == 0 && !shown[count - 1])) return fail("showdown", hand);
            if (!shown[0]) return fail("the first hand shows", hand);
        }
    }
    return 0;
}

/* hd_deck_find and hd_deck_remove refuse what is not a card id: -256 would be card 0 as a
 * byte, 52 + 256 card 52 (none) */
static int check_deck_find(void)
{
    hd_deck_t deck;
    int bad[4] = {-256, -1, 52, 52 + 256}, k;
    hd_deck_init(&deck);
    for (k = 0; k < 4; k++) {
        if (hd_deck_find(&deck, bad[k]) != -1) return fail("deck find: not a card", k);
        if (hd_deck_remove(&deck, bad[k]) != -1 || deck.n != 52)
            return fail("deck remove: not a card", k);
    }
    if (hd_deck_remove(&deck, 0) != 0 || deck.n != 51 || hd_deck_find(&deck, 0) != -1)
        return fail("deck remove: card 0", 0);
    return 0;
}

/* hd_deal_seats deals hd_deal_hand's cards (with burns) into seat order, for every table size
 * and first seat. */
static int check_deal_seats(void)
{
    hd_deck_t deck;
    hd_rng_t r;
    uint8_t row[28], cards[25];
    uint64_t seed;
    int hand, n, first, p, s, k;
    hd_rng_seed(&r, 4242);
    for (hand = 0; hand < 20000; hand++) {
        n = 2 + hand % 9;
        first = (int)hd_rng_below(&r, (uint32_t)n);
        seed = hd_rng_next(&r);
        hd_deal_hand(&deck, seed, n, 1, row);
        hd_deal_seats(&deck, seed, n, first, cards);
        for (p = 0; p < n; p++) {
            s = (first + p) % n;
            if (cards[2 * s] != row[2 * p] || cards[2 * s + 1] != row[2 * p + 1])
                return fail("deal seats: hole cards", hand);
        }
        for (k = 0; k < 5; k++)
            if (cards[2 * n + k] != row[2 * n + k]) return fail("deal seats: board", hand);
    }
    return 0;
}

/* hd_hs_consistent on a state whose per-seat chips are extreme (int64's ends): refused, with no
 * signed overflow on the way (its sum of stacks - payout + committed must not be reached with
 * unbounded terms; a UBSan build aborts on the overflow). */
static int check_consistent_extremes(void)
{
    static const int64_t ends[] = {INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1, -1};
    hd_rules_t g;
    hd_hstate_t h, m;
    int64_t stacks[3] = {100, 100, 100};
    uint8_t cards[11] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    int e, f, seat;
    hd_rules_init_nl(&g, 1, 2);
    if (hd_hs_start(&g, &h, 3, 0, stacks, cards) != HD_HAND_OK) return fail("extremes start", 0);
    if (hd_hs_consistent(&g, &h) != HD_HAND_OK) return fail("extremes consistent", 0);
    for (e = 0; e < (int)(sizeof ends / sizeof ends[0]); e++) {
        for (f = 0; f < 5; f++) {
            for (seat = 0; seat < 3; seat++) {
                m = h;
                switch (f) {
                case 0: m.stacks[seat] = ends[e]; break;
                case 1: m.committed[seat] = ends[e]; break;
                case 2: m.payout[seat] = ends[e]; break;
                case 3: m.stacks[seat] = ends[e]; m.committed[seat] = ends[e]; break;
                default:  /* the payout at the other end (-(x + 1): no overflow at INT64_MIN) */
                    m.stacks[seat] = ends[e];
                    m.payout[seat] = ends[e] < 0 ? -(ends[e] + 1) : -ends[e];
                    break;
                }
                if (hd_hs_consistent(&g, &m) != HD_HAND_E_STATE)
                    return fail("extremes", e * 15 + f * 3 + seat);
            }
        }
    }
    return 0;
}


int main(void)
{
    hd_rules_t g;
    hd_hstate_t h, t;
    hd_legal_t la;
    hd_deck_t deck;
    hd_rng_t r;
    uint8_t row[28], cards[25];
    int64_t stacks[10], start_total;
    int hand, n, k, kind, garbage, steps, button;
    int64_t to;
    hd_rng_seed(&r, 12345);
    for (hand = 0; hand < 200000; hand++) {
        garbage = hand % 4 == 3;
        hd_rules_init_nl(&g, 1, 2);
        g.structure = hand % 3;
        if (g.structure == HD_FL) {
            g.sizes[2] = g.sizes[3] = 4;
            g.cap = 4;
            g.lift_heads_up = hand % 2;
        }
        n = 2 + (int)hd_rng_below(&r, 9);
        g.ante = hand % 5 == 0 ? 1 : 0;
        g.bb_ante = hand % 10 == 0;
        g.straddle = n >= 3 && hand % 7 == 0;
        g.fold_free = hand % 11 == 0;
        if (hand % 6 == 0) {
            g.has_rake = 1;
            g.rake.num = 1;
            g.rake.den = 20;
            g.rake.cap = 3;
        }
        for (k = 0; k < n; k++) stacks[k] = 1 + (int64_t)hd_rng_below(&r, 120);
        hd_deal_hand(&deck, hd_rng_next(&r), n, 0, row);
        for (k = 0; k < 2 * n + 5; k++) cards[k] = row[k];
        memset(&h, 0, sizeof h);
        memset(&t, 0, sizeof t);
        button = (int)hd_rng_below(&r, (uint32_t)n);
        if (hd_hs_start(&g, &h, n, button, stacks, cards) != 0) return fail("start", hand);
        if (hd_hs_start_trusted(&g, &t, n, button, stacks, cards) != 0 ||
            memcmp(&h, &t, sizeof h) != 0)
            return fail("trusted start", hand);
        start_total = 0;
        for (k = 0; k < n; k++) start_total += stacks[k];
        for (steps = 0; !h.over; steps++) {
            if (steps > 10000) return fail("no end", hand);
            if (total_chips(&h) != start_total) return fail("chips in play", hand);
            hd_hs_legal(&g, &h, &la);
            if (la.seat != h.actor || h.stacks[la.seat] <= 0) return fail("actor", hand);
            if (la.can_raise && (la.min_to > la.max_to || la.max_to >
                                 h.bets[la.seat] + h.stacks[la.seat] || la.min_to <= h.cur))
                return fail("raise range", hand);
            if (garbage) {
                kind = (int)hd_rng_below(&r, 5) - 1;
                to = (int64_t)(hd_rng_next(&r) >> 1) * (hd_rng_below(&r, 2) ? 1 : -1);
            } else {
                kind = (int)hd_rng_below(&r, 3);
                if (kind == HD_FOLD && !la.can_fold) kind = HD_CHECK_CALL;
                if (kind == HD_BET_RAISE && !la.can_raise) kind = HD_CHECK_CALL;
                to = kind == HD_BET_RAISE
                    ? la.min_to + (int64_t)hd_rng_below(&r, (uint32_t)(la.max_to - la.min_to + 1))
                    : 0;
                if (hd_hs_check(&g, &h, kind, to) != HD_HAND_OK) return fail("check", hand);
                if (kind == HD_BET_RAISE &&
                    (hd_hs_check(&g, &h, kind, la.max_to + 1) == HD_HAND_OK ||
                     hd_hs_check(&g, &h, kind, la.min_to - 1) == HD_HAND_OK))
                    return fail("amount bounds", hand);
            }
            hd_hs_act(&g, &h, kind, to);
        }
        if (h.error) return fail("settle", hand);
        {
            int64_t after = h.rake;
            for (k = 0; k < n; k++) after += h.stacks[k];
            if (after != start_total) return fail("chips after settle", hand);
            if (!g.has_rake && h.rake != 0) return fail("rake", hand);
        }
        if (hd_hs_check(&g, &h, HD_CHECK_CALL, 0) != HD_HAND_E_OVER) return fail("over", hand);
    }
    if (check_table_starts() != 0) return 1;
    if (check_deal_seats() != 0) return 1;
    if (check_deck_find() != 0) return 1;
    if (check_consistent_extremes() != 0) return 1;
    printf("ok\n");
    return 0;
}
