/* The built-in agents' decision rules (see hd_agents.h for the contract). */
#include "hd_agents.h"

#include "hd_eval.h"

int hd_policy_check(const hd_policy_t *p)
{
    if (p == 0) return -1;
    switch (p->kind) {
    case HD_POLICY_RANDOM:
    case HD_POLICY_CALL:
        return 0;
    case HD_POLICY_EQUITY:
        if (p->samples < 1 || p->samples > HD_POLICY_MAX_SAMPLES) return -1;
        if (!(p->raise_at == p->raise_at)) return -1; /* NaN */
        return 0;
    default:
        return -1;
    }
}

uint64_t hd_rng_below64(hd_rng_t *r, uint64_t n)
{
    /* Reject the lowest (2^64 mod n) values, then reduce: every residue is equally likely. */
    uint64_t threshold, x;
    if (n <= 1) return 0;
    if (n <= 0xFFFFFFFFULL) return hd_rng_below(r, (uint32_t)n);
    threshold = (uint64_t)(0 - n) % n;
    do {
        x = hd_rng_next(r);
    } while (x < threshold);
    return x % n;
}

double hd_equity_mc(const uint8_t *hole, const uint8_t *board, int nboard, int opponents,
                    int samples, hd_rng_t *r)
{
    uint8_t deck[HD_NCARDS];
    uint64_t known = 0;
    hd_hand_t b = hd_hand_empty(), mine = hd_hand_empty(), full;
    int m = 0, c, k, s, o, need, draw, ties;
    unsigned j;
    uint8_t t;
    hd_rank_t me, best, x;
    double score = 0.0;
    if (nboard < 0) nboard = 0;
    if (nboard > 5) nboard = 5;
    if (opponents < 1) opponents = 1;
    if (opponents > 3) opponents = 3;
    if (samples < 1) samples = 1;
    for (k = 0; k < 2; k++) {
        known |= (uint64_t)1 << (hole[k] & 63u);
        mine = hd_hand_add(mine, hole[k] & 63);
    }
    for (k = 0; k < nboard; k++) {
        known |= (uint64_t)1 << (board[k] & 63u);
        b = hd_hand_add(b, board[k] & 63);
    }
    for (c = 0; c < HD_NCARDS; c++)
        if (!((known >> c) & 1u)) deck[m++] = (uint8_t)c;
    need = 5 - nboard;
    draw = need + 2 * opponents;
    if (m < draw) return 0.0; /* only with repeated known cards: nothing sensible to deal */
    for (s = 0; s < samples; s++) {
        /* partial Fisher-Yates: deck[0 .. draw) become a uniform random draw */
        for (k = 0; k < draw; k++) {
            j = (unsigned)k + hd_rng_below(r, (uint32_t)(m - k));
            t = deck[k];
            deck[k] = deck[j];
            deck[j] = t;
        }
        full = b;
        for (k = 0; k < need; k++) full = hd_hand_add(full, deck[k]);
        me = hd_hand_rank7(hd_hand_merge(full, mine));
        best = 0;
        ties = 0;
        for (o = 0; o < opponents; o++) {
            x = hd_hand_rank7(hd_hand_add(hd_hand_add(full, deck[need + 2 * o]),
                                          deck[need + 2 * o + 1]));
            if (x > best) {
                best = x;
                ties = 1;
            } else if (x == best) {
                ties++;
            }
        }
        if (me > best)
            score += 1.0;
        else if (me == best)
            score += 1.0 / (double)(1 + ties);
    }
    return score / (double)samples;
}

void hd_policy_act(const hd_policy_t *p, const hd_hstate_t *h, const hd_legal_t *la,
                   hd_rng_t *r, int *kind, int64_t *to, double *equity)
{
    int seat = la->seat, can_fold = la->can_fold != 0, can_raise = la->can_raise != 0, k;
    int64_t pot, target;
    double eq;
    *to = 0;
    if (equity) *equity = -1.0;
    if (p->kind == HD_POLICY_RANDOM) {
        k = (int)hd_rng_below(r, (uint32_t)(1 + can_fold + can_raise));
        if (can_fold) {
            if (k == 0) {
                *kind = HD_FOLD;
                return;
            }
            k--;
        }
        if (k == 0) {
            *kind = HD_CHECK_CALL;
            return;
        }
        *kind = HD_BET_RAISE;
        *to = la->min_to + (int64_t)hd_rng_below64(r, (uint64_t)(la->max_to - la->min_to) + 1u);
        return;
    }
    if (p->kind != HD_POLICY_EQUITY || seat < 0 || seat >= HD_HAND_MAX_SEATS) {
        *kind = HD_CHECK_CALL; /* call (and the safe answer for anything else) */
        return;
    }
    eq = hd_equity_mc(&h->hole[2 * seat], h->board, h->nboard, h->live - 1, p->samples, r);
    if (equity) *equity = eq;
    pot = hd_hs_pot(h);
    if (can_raise && eq >= p->raise_at) {
        target = h->bets[seat] + la->call + (2 * pot) / 3;
        if (target < la->min_to) target = la->min_to;
        if (target > la->max_to) target = la->max_to;
        *kind = HD_BET_RAISE;
        *to = target;
        return;
    }
    if (la->can_check || !can_fold) {
        *kind = HD_CHECK_CALL;
        return;
    }
    *kind = eq >= (double)la->call / (double)(pot + la->call) ? HD_CHECK_CALL : HD_FOLD;
}
