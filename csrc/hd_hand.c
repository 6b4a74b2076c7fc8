/* The betting rules of one hand over a struct (see hd_hand.h for the contract). Every function
 * follows holdem/hand/_reference.py (the reference core) line for line; the comments name the rule. */
#include "hd_hand.h"

#include "hd_eval.h"

#define HD_HAND_MAX_STACK ((int64_t)1 << 53)

enum { HD_POST_OWN = 0, HD_POST_LIVE = 1, HD_POST_DEAD = 2 }; /* how hd_post counts chips */

/* Nonzero when every card in cards[0 .. k) is known. */
static int hd_known(const uint8_t *cards, int k)
{
    int j;
    for (j = 0; j < k; j++)
        if (cards[j] >= HD_NCARDS) return 0;
    return 1;
}

void hd_rules_init_nl(hd_rules_t *g, int64_t small_blind, int64_t big_blind)
{
    int k;
    g->structure = HD_NL;
    g->straddle = 0;
    g->bb_ante = 0;
    g->deal_from_bb = 0;
    g->lift_heads_up = 0;
    g->fold_free = 0;
    g->cap = HD_HAND_UNBOUNDED;
    g->has_rake = 0;
    g->big_blind = big_blind;
    g->small_blind = small_blind;
    g->ante = 0;
    for (k = 0; k < 4; k++) g->sizes[k] = big_blind;
    g->rake.num = 0;
    g->rake.den = 1;
    g->rake.cap = HD_POTS_NO_CAP;
    g->rake.no_flop_no_drop = 1;
}

int hd_rules_check(const hd_rules_t *g)
{
    int k;
    if (g == 0) return HD_HAND_E_RULES;
    if (g->structure < HD_NL || g->structure > HD_FL) return HD_HAND_E_RULES;
    if (g->big_blind < 1 || g->big_blind > HD_HAND_MAX_STACK) return HD_HAND_E_RULES;
    if (g->small_blind < 0 || g->small_blind > g->big_blind) return HD_HAND_E_RULES;
    if (g->ante < 0 || g->ante > HD_HAND_MAX_STACK) return HD_HAND_E_RULES;
    if (g->cap < 1) return HD_HAND_E_RULES;
    for (k = 0; k < 4; k++)
        if (g->sizes[k] < 1 || g->sizes[k] > HD_HAND_MAX_STACK) return HD_HAND_E_RULES;
    if (g->has_rake) {
        if (g->rake.den < 1 || g->rake.den > HD_POTS_MAX_RAKE_DEN || g->rake.num > g->rake.den)
            return HD_HAND_E_RULES;
        if (g->rake.cap < 0 && g->rake.cap != HD_POTS_NO_CAP) return HD_HAND_E_RULES;
    }
    return HD_HAND_OK;
}

/* A forced bet of up to `amount` (all in for less when short, R9); live bets count toward the
 * street total, dead ones are dead money (not the seat's contribution). Recorded in posts[]. */
HD_INLINE void hd_post(hd_hstate_t *h, int seat, int64_t amount, int how, int kind,
                       hd_post_t *posts, int *np)
{
    int64_t a = amount < h->stacks[seat] ? amount : h->stacks[seat];
    if (a <= 0) return;
    h->stacks[seat] -= a;
    if (how == HD_POST_DEAD) {
        h->dead += a;
    } else {
        h->committed[seat] += a;
        if (how == HD_POST_LIVE) h->bets[seat] += a;
    }
    if (posts != 0 && *np < HD_HAND_MAX_POSTS) {
        posts[*np].seat = seat;
        posts[*np].kind = kind;
        posts[*np].amount = a;
        ++*np;
    }
}

/* Whether seat i, owing chips, faces a bet it has not matched: another live seat has chips
 * behind (it may bet on), or bet more than i. A seat alone with chips whose bet covers every
 * other live seat's (they are all in for less, a short big blind for one: R9's full big blind
 * is owed to nobody who could match it) has nothing to do: R20 deals on. */
static int hd_faces_a_bet(const hd_hstate_t *h, int i)
{
    int n = h->n, j;
    for (j = 0; j < n; j++) /* the common case ends at the first other seat with chips */
        if (j != i && !h->folded[j] && h->stacks[j] > 0) return 1;
    for (j = 0; j < n; j++)
        if (j != i && !h->folded[j] && h->bets[j] > h->bets[i]) return 1;
    return 0;
}

/* The first seat from `start` (0 .. 2n-1, taken mod n) clockwise that must act, or -1: the
 * round is over (R19). */
static int hd_find_actor(const hd_hstate_t *h, int start)
{
    int n = h->n, j, k, i, chips = -1; /* seats with chips behind, counted when first needed */
    i = start >= n ? start - n : start; /* start: 0 .. 2n-1 */
    for (k = 0; k < n; k++, i = i + 1 == n ? 0 : i + 1) { /* seats from start, clockwise */
        if (h->folded[i] || h->stacks[i] == 0) continue;
        if (h->bets[i] < h->cur) {
            /* the common case first: the seat that set the bet to call (the last to bet or
             * raise, else the big blind) is still in with it */
            j = h->aggr >= 0 ? h->aggr : h->bb_seat;
            if ((!h->folded[j] && h->bets[j] == h->cur) || hd_faces_a_bet(h, i)) return i;
            continue;
        }
        if (h->acted[i] < 0) {
            if (chips < 0)
                for (chips = 0, j = 0; j < n; j++)
                    chips += h->stacks[j] > 0 && !h->folded[j];
            if (chips > 1) return i;
        }
    }
    return -1;
}

int hd_hs_settle(const hd_rules_t *g, const hd_hstate_t *h, hd_pot_result_t *out)
{
    return hd_split_pots(h->committed, h->folded, h->showdown ? h->ranks : 0, h->n, h->button,
                         h->dead, g->has_rake ? &g->rake : 0, h->nboard >= 3, out);
}

/* End the hand: one seat left (R19) or a showdown (R29-R33); pay the pots (R31, R32, R34). */
static void hd_finish(const hd_rules_t *g, hd_hstate_t *h)
{
    hd_pot_result_t res;
    int n = h->n, j, k, code;
    int showdown = h->live > 1;
    if (showdown && h->unknown) { /* R29: every live hand and five board cards must be known */
        if (!hd_known(h->board, 5)) {
            h->error = HD_HAND_E_BOARD;
            h->actor = -1;
            return;
        }
        for (j = 0; j < n; j++)
            if (!h->folded[j] && !hd_known(h->hole + 2 * j, 2)) {
                h->error = HD_HAND_E_HOLE;
                h->actor = -1;
                return;
            }
    }
    h->showdown = showdown;
    for (j = 0; j < n; j++) h->ranks[j] = HD_POTS_NO_RANK;
    if (showdown) {
        hd_hand_t b = hd_hand_empty();
        for (k = 0; k < h->nboard; k++) b = hd_hand_add(b, h->board[k]);
        for (j = 0; j < n; j++) {
            if (h->folded[j]) continue;
            /* R29: the best five of the seat's seven cards */
            h->ranks[j] = (int32_t)hd_hand_rank(
                hd_hand_add(hd_hand_add(b, h->hole[2 * j]), h->hole[2 * j + 1]));
        }
    }
    code = hd_hs_settle(g, h, &res);
    h->error = code;
    h->rake = code == HD_POTS_OK ? res.rake : 0;
    for (j = 0; j < n; j++) {
        h->payout[j] = code == HD_POTS_OK ? res.payouts[j] : 0;
        h->stacks[j] += h->payout[j];
    }
    if (showdown) h->street = HD_STREET_SHOWDOWN;
    h->over = 1;
    h->actor = -1;
}

/* Close the round: return the uncalled bet (R21), deal on (R13, R14), run out (R20). */
static void hd_end_street(const hd_rules_t *g, hd_hstate_t *h)
{
    int n = h->n, j, k = -1, count = 0, actor;
    int64_t top = 0, second = 0, b;
    /* R21: a unique highest bet gets back its excess over the second highest (one pass: second
       is the highest bet of the other seats when top is unique) */
    for (j = 0; j < n; j++) {
        b = h->bets[j];
        if (b > top) {
            second = top;
            top = b;
            count = 1;
            k = j;
        } else if (b == top) {
            count++;
        } else if (b > second) {
            second = b;
        }
    }
    if (top > 0 && count == 1) {
        h->stacks[k] += top - second;
        h->committed[k] -= top - second;
    }
    for (;;) {
        if (h->street == HD_STREET_RIVER) {
            hd_finish(g, h);
            return;
        }
        k = h->street == HD_STREET_PREFLOP ? 3 : h->nboard + 1;
        if (h->unknown && !hd_known(h->board, k)) { /* R14: the next card is not known (yet) */
            h->error = HD_HAND_E_BOARD;
            h->actor = -1;
            return;
        }
        h->street++;
        h->nboard = k;
        /* every seat: those from n on hold bet 0 and acted -1 already (fixed bounds, no call
           of a fill routine) */
        for (j = 0; j < HD_HAND_MAX_SEATS; j++) {
            h->bets[j] = 0;
            h->acted[j] = -1;
        }
        h->cur = 0;
        h->inc = g->big_blind;
        h->full = 0;
        h->raises = 0;
        h->aggr = -1;
        actor = hd_find_actor(h, h->button + 1);
        if (actor >= 0) {
            h->actor = actor;
            return;
        }
        /* R20: nobody can act, and no later street changes that (the seats' chips, folds and
           bets stay as they are now): every card known, straight to the river's end */
        if (!h->unknown && h->street < HD_STREET_RIVER) {
            h->street = HD_STREET_RIVER;
            h->nboard = 5;
        }
    }
}

/* HD_HAND_OK when the extra posts are in range: seats not posting a blind, once each. */
static int hd_check_extras(const hd_rules_t *g, const hd_hstate_t *h, const hd_start_t *opt,
                           int post_sb, int straddle_seat)
{
    int k, s;
    uint32_t seen = 0;
    if (opt->nextra < 0 || opt->nextra > HD_HAND_MAX_SEATS) return HD_HAND_E_POSTS;
    for (k = 0; k < opt->nextra; k++) {
        s = opt->extra[k].seat;
        if (s < 0 || s >= h->n || s == h->bb_seat || (post_sb && s == h->sb_seat) ||
            s == straddle_seat || (seen >> s) & 1u)
            return HD_HAND_E_POSTS;
        if (opt->extra[k].live < 0 || opt->extra[k].live > g->big_blind ||
            opt->extra[k].dead < 0 || opt->extra[k].dead > g->big_blind)
            return HD_HAND_E_POSTS;
        seen |= 1u << s;
    }
    return HD_HAND_OK;
}

/* hd_hs_start_ex, inlined into every entry point (hd_hs_start and hd_hs_start_trusted pass no
 * options and no posts: those branches fold away; `trusted` skips the checks of the rules,
 * the seats, the button and the cards, which the caller made). */
HD_INLINE int hd_start(const hd_rules_t *g, hd_hstate_t *h, int n, int button,
                       const int64_t *stacks, const uint8_t *cards, const hd_start_t *opt,
                       hd_post_t *posts, int *nposts, int trusted)
{
    int j, k, last, actor, np = 0, post_sb = 1, alone = 0;
    int unknown = opt != 0 && opt->unknown_cards;
    uint64_t seen = 0;
    int64_t level;
    if (nposts != 0) *nposts = 0;
    if (!trusted) {
        if (hd_rules_check(g) != HD_HAND_OK) return HD_HAND_E_RULES;
        if (n < 2 || n > HD_HAND_MAX_SEATS || (g->straddle && n < 3)) return HD_HAND_E_SEATS;
        if (button < 0 || button >= n) return HD_HAND_E_BUTTON;
    }
    for (j = 0; j < n; j++)
        if (stacks[j] < 1 || stacks[j] > HD_HAND_MAX_STACK) return HD_HAND_E_STACK;
    if (!trusted)
        for (k = 0; k < 2 * n + 5; k++) {
            if (unknown && cards[k] == HD_CARD_NONE) continue;
            if (cards[k] >= HD_NCARDS || (seen >> cards[k]) & 1u) return HD_HAND_E_CARDS;
            seen |= (uint64_t)1 << cards[k];
        }
    h->n = n;
    h->button = button;
    if (opt != 0 && opt->dead_small_blind) { /* TDA dead button: the big blind left of it */
        if (n < 3) return HD_HAND_E_POSTS;
        post_sb = 0;
        h->sb_seat = button;
        h->bb_seat = (button + 1) % n;
    } else { /* R2, R3: heads-up the button posts the small blind */
        h->sb_seat = n == 2 ? button : (button + 1) % n;
        h->bb_seat = n == 2 ? (button + 1) % n : (button + 2) % n;
    }
    last = g->straddle ? (h->bb_seat + 1) % n : h->bb_seat;
    if (opt != 0 && hd_check_extras(g, h, opt, post_sb, g->straddle ? last : -1) != HD_HAND_OK)
        return HD_HAND_E_POSTS;
    /* TDA 30: dead hands only among the n seats, at least one seat left live */
    if (opt != 0 && opt->dead_hands != 0 &&
        ((uint32_t)opt->dead_hands >> n != 0 ||
         (uint32_t)opt->dead_hands == ((uint32_t)1 << n) - 1u))
        return HD_HAND_E_POSTS;
    h->first_dealt = g->deal_from_bb ? (h->bb_seat + 1) % n : (button + 1) % n;
    for (k = 0; k < 2 * n; k++) h->hole[k] = cards[k];
    for (k = 2 * n; k < 2 * HD_HAND_MAX_SEATS; k++) h->hole[k] = 0;
    for (k = 0; k < 5; k++) h->board[k] = cards[2 * n + k];
    h->unknown = (uint8_t)(unknown != 0);
    h->pad_[0] = h->pad_[1] = 0;
    /* one loop per array, fixed bounds: the constant ones become a few wide stores each */
    for (j = 0; j < HD_HAND_MAX_SEATS; j++) {
        h->stacks[j] = j < n ? stacks[j] : 0;
        h->start[j] = h->stacks[j];
    }
    for (j = 0; j < HD_HAND_MAX_SEATS; j++) h->bets[j] = 0;
    for (j = 0; j < HD_HAND_MAX_SEATS; j++) h->committed[j] = 0;
    for (j = 0; j < HD_HAND_MAX_SEATS; j++) h->acted[j] = -1;
    for (j = 0; j < HD_HAND_MAX_SEATS; j++) h->payout[j] = 0;
    for (j = 0; j < HD_HAND_MAX_SEATS; j++) h->ranks[j] = HD_POTS_NO_RANK;
    for (j = 0; j < HD_HAND_MAX_SEATS; j++) h->folded[j] = 0;
    h->street = HD_STREET_PREFLOP;
    h->over = 0;
    h->showdown = 0;
    h->error = 0;
    h->live = n;
    h->aggr = -1;
    h->dead = 0;
    h->rake = 0;
    h->nboard = 0;
    /* R7: a uniform ante before the blinds, from the small blind clockwise */
    if (g->ante && !g->bb_ante)
        for (k = 0; k < n; k++)
            hd_post(h, (h->sb_seat + k) % n, g->ante, HD_POST_OWN, HD_POST_ANTE, posts, &np);
    if (post_sb)
        hd_post(h, h->sb_seat, g->small_blind, HD_POST_LIVE, HD_POST_SMALL_BLIND, posts, &np);
    hd_post(h, h->bb_seat, g->big_blind, HD_POST_LIVE, HD_POST_BIG_BLIND, posts, &np);
    level = g->big_blind;
    if (g->straddle) { /* R8: a live straddle of twice the big blind */
        level = 2 * g->big_blind;
        hd_post(h, last, level, HD_POST_LIVE, HD_POST_STRADDLE, posts, &np);
    }
    if (g->ante && g->bb_ante) /* R7: the big blind's ante is dead money, after the blind */
        hd_post(h, h->bb_seat, g->ante, HD_POST_DEAD, HD_POST_BIG_BLIND_ANTE, posts, &np);
    if (opt != 0)
        for (k = 0; k < opt->nextra; k++) {
            /* R36 entry bet / missed blinds: the live part like a blind (R9: all in for less),
               then the dead part from what is left, dead money like a big-blind ante */
            hd_post(h, opt->extra[k].seat, opt->extra[k].live, HD_POST_LIVE,
                    HD_POST_ENTRY_BIG_BLIND, posts, &np);
            hd_post(h, opt->extra[k].seat, opt->extra[k].dead, HD_POST_DEAD,
                    HD_POST_DEAD_SMALL_BLIND, posts, &np);
        }
    if (nposts != 0) *nposts = np;
    if (opt != 0 && opt->dead_hands != 0) { /* TDA 30: the forced bets stay in, the hands die */
        for (j = 0; j < n; j++)
            if (((uint32_t)opt->dead_hands >> j) & 1u) {
                /* folded at the deal: what it posted stays in the pots it reaches, as a folded
                 * seat's chips (R31: nobody wins more from it than they put in), its uncalled
                 * part returned (R21) */
                h->folded[j] = 1;
                h->live--;
            }
        alone = h->live == 1;
    }
    h->cur = level; /* R9: the full big blind (straddle) to call even if posted short */
    h->inc = level;
    h->full = level;
    h->raises = g->straddle ? 2 : 1;
    h->actor = -1;
    if (alone) { /* TDA 30: every other hand dead, the one live seat wins (R19) */
        hd_finish(g, h);
        return HD_HAND_OK;
    }
    actor = hd_find_actor(h, last + 1);
    if (actor < 0)
        hd_end_street(g, h);
    else
        h->actor = actor;
    return HD_HAND_OK;
}

int hd_hs_start(const hd_rules_t *g, hd_hstate_t *h, int n, int button, const int64_t *stacks,
                const uint8_t *cards)
{
    return hd_start(g, h, n, button, stacks, cards, 0, 0, 0, 0);
}

int hd_hs_start_trusted(const hd_rules_t *g, hd_hstate_t *h, int n, int button,
                        const int64_t *stacks, const uint8_t *cards)
{
    return hd_start(g, h, n, button, stacks, cards, 0, 0, 0, 1);
}

int hd_hs_start_ex(const hd_rules_t *g, hd_hstate_t *h, int n, int button, const int64_t *stacks,
                   const uint8_t *cards, const hd_start_t *opt, hd_post_t *posts, int *nposts)
{
    return hd_start(g, h, n, button, stacks, cards, opt, posts, nposts, 0);
}

int hd_hs_raise_block(const hd_rules_t *g, const hd_hstate_t *h, int i)
{
    return hd_hs_raise_block_inline(g, h, i);
}

void hd_hs_legal(const hd_rules_t *g, const hd_hstate_t *h, hd_legal_t *out)
{
    hd_hs_legal_inline(g, h, out);
}

int hd_hs_check(const hd_rules_t *g, const hd_hstate_t *h, int kind, int64_t to)
{
    hd_legal_t la;
    if (h->over || h->actor < 0) return HD_HAND_E_OVER;
    if (kind < HD_FOLD || kind > HD_BET_RAISE) return HD_HAND_E_KIND;
    hd_hs_legal(g, h, &la);
    if (kind == HD_FOLD) return la.can_fold ? HD_HAND_OK : HD_HAND_E_FOLD;
    if (kind == HD_CHECK_CALL) return HD_HAND_OK;
    if (!la.can_raise) return HD_HAND_E_RAISE;
    if (to < la.min_to || to > la.max_to) return HD_HAND_E_AMOUNT;
    return HD_HAND_OK;
}

/* hd_hs_act_rec, inlined into both entry points (hd_hs_act keeps no record). */
HD_INLINE void hd_act(const hd_rules_t *g, hd_hstate_t *h, int kind, int64_t to,
                      hd_record_t *rec)
{
    int i = h->actor, actor, type;
    int64_t owe, add = 0, cur = h->cur;
    if (h->over || i < 0 || i >= h->n) return;
    if (kind == HD_FOLD) {
        h->folded[i] = 1;
        h->live--;
        type = HD_REC_FOLD;
    } else if (kind == HD_CHECK_CALL) {
        owe = cur - h->bets[i];
        type = HD_REC_CHECK;
        if (owe > 0) {
            if (owe > h->stacks[i]) owe = h->stacks[i];
            h->stacks[i] -= owe;
            h->bets[i] += owe;
            h->committed[i] += owe;
            type = HD_REC_CALL;
            add = owe;
        }
        h->acted[i] = cur;
    } else {
        /* unchecked: keep even a wrong amount inside the seat's chips (no overflow, no debt) */
        if (to < h->bets[i]) to = h->bets[i];
        if (to > h->bets[i] + h->stacks[i]) to = h->bets[i] + h->stacks[i];
        add = to - h->bets[i];
        h->stacks[i] -= add;
        h->bets[i] = to;
        h->committed[i] += add;
        if (g->structure == HD_FL) {
            if (2 * (to - h->full) >= g->sizes[h->street]) { /* R28: a full raise */
                h->full = to;
                /* R27: a raise heads-up with the cap lifted does not count toward it; a round
                   capped with more players in stays capped (Robert's Rules) */
                if (!(g->lift_heads_up && h->live == 2)) h->raises++;
            }
        } else if (to - cur >= h->inc) { /* R23: a full raise sets the next increment */
            h->inc = to - cur;
        }
        h->cur = to;
        h->acted[i] = to;
        h->aggr = i;
        type = cur == 0 ? HD_REC_BET : HD_REC_RAISE;
    }
    if (rec != 0) {
        rec->seat = i;
        rec->street = h->street;
        rec->type = type;
        rec->all_in = type != HD_REC_FOLD && type != HD_REC_CHECK && h->stacks[i] == 0;
        rec->to = h->bets[i];
        rec->amount = add;
    }
    if (h->live == 1) { /* everyone else folded (R19) */
        hd_finish(g, h);
        return;
    }
    actor = hd_find_actor(h, i + 1);
    if (actor < 0)
        hd_end_street(g, h);
    else
        h->actor = actor;
}

void hd_hs_act(const hd_rules_t *g, hd_hstate_t *h, int kind, int64_t to)
{
    hd_act(g, h, kind, to, 0);
}

void hd_hs_act_rec(const hd_rules_t *g, hd_hstate_t *h, int kind, int64_t to, hd_record_t *rec)
{
    hd_act(g, h, kind, to, rec);
}

int hd_hs_show_order(const hd_hstate_t *h, int32_t *order)
{
    int n = h->n, first = h->aggr, j, k, count = 0;
    if (n < 1 || n > HD_HAND_MAX_SEATS) return 0;
    if (first < 0 || first >= n || h->folded[first]) { /* R33: first live seat left of button */
        first = h->button;
        for (k = 1; k <= n; k++) {
            j = (h->button + k) % n;
            if (!h->folded[j]) {
                first = j;
                break;
            }
        }
    }
    for (k = 0; k < n; k++) {
        j = (first + k) % n;
        if (!h->folded[j]) order[count++] = j;
    }
    return count;
}

int hd_hs_showdown(const hd_hstate_t *h, int muck, int32_t *order, uint8_t *shown)
{
    int count = hd_hs_show_order(h, order), a, b, j, show_all = !muck;
    for (a = 0; a < count; a++)
        if (h->stacks[order[a]] - h->payout[order[a]] == 0) show_all = 1; /* TDA 16 */
    for (a = 0; a < count; a++) {
        j = order[a];
        shown[a] = 1;
        if (show_all) continue;
        for (b = 0; b < a; b++)
            if (shown[b] && h->ranks[order[b]] > h->ranks[j] &&
                h->committed[order[b]] >= h->committed[j]) {
                shown[a] = 0; /* beaten by a shown hand that covers it in every pot */
                break;
            }
    }
    return count;
}

int hd_hs_consistent(const hd_rules_t *g, const hd_hstate_t *h)
{
    static const int32_t nboard[5] = {0, 3, 4, 5, 5};
    int n = h->n, j, live = 0;
    int64_t total = h->dead, start = 0, top = HD_HAND_MAX_SEATS * HD_HAND_MAX_STACK;
    uint64_t seen = 0;
    uint8_t c;
    if (hd_rules_check(g) != HD_HAND_OK) return HD_HAND_E_STATE;
    if (n < 2 || n > HD_HAND_MAX_SEATS) return HD_HAND_E_STATE;
    if (h->button < 0 || h->button >= n || h->sb_seat < 0 || h->sb_seat >= n ||
        h->bb_seat < 0 || h->bb_seat >= n || h->first_dealt < 0 || h->first_dealt >= n ||
        h->actor < -1 || h->actor >= n || h->aggr < -1 || h->aggr >= n)
        return HD_HAND_E_STATE;
    if (h->street < 0 || h->street > HD_STREET_SHOWDOWN || h->nboard != nboard[h->street])
        return HD_HAND_E_STATE;
    if (h->cur < 0 || h->cur > top || h->inc < 0 || h->inc > top || h->full < 0 ||
        h->full > top || h->dead < 0 || h->dead > top || h->raises < 0 ||
        h->raises > HD_HAND_UNBOUNDED || h->error != 0 || (h->over != 0 && h->over != 1) ||
        h->unknown > 1)
        return HD_HAND_E_STATE;
    for (j = 0; j < HD_HAND_MAX_SEATS; j++) {
        if (j >= n) {
            if (h->stacks[j] || h->bets[j] || h->committed[j] || h->start[j] || h->payout[j])
                return HD_HAND_E_STATE;
            continue;
        }
        /* every term bounded before the sum (0 <= payout <= stacks <= 2 * top, committed <=
           top): stacks - payout + committed stays far inside int64 */
        if (h->start[j] < 1 || h->start[j] > HD_HAND_MAX_STACK || h->stacks[j] < 0 ||
            h->stacks[j] > 2 * top || h->payout[j] < 0 || h->payout[j] > h->stacks[j] ||
            h->bets[j] < 0 || h->bets[j] > HD_HAND_MAX_STACK || h->committed[j] < 0 ||
            h->committed[j] > top || (!h->over && h->bets[j] > h->committed[j]) ||
            h->stacks[j] - h->payout[j] + h->committed[j] > h->start[j] || h->acted[j] < -1 ||
            h->acted[j] > top || h->folded[j] > 1)
            return HD_HAND_E_STATE;
        total += h->stacks[j] - h->payout[j] + h->committed[j];
        start += h->start[j];
        live += !h->folded[j];
    }
    if (total != start || live != h->live || live < 1) return HD_HAND_E_STATE;
    if (h->over) {
        if (h->actor != -1) return HD_HAND_E_STATE;
    } else if (h->street > HD_STREET_RIVER || live < 2 || h->actor < 0 || h->folded[h->actor] ||
               h->stacks[h->actor] == 0) {
        return HD_HAND_E_STATE;
    }
    for (j = 0; j < 2 * n + 5; j++) {
        c = j < 2 * n ? h->hole[j] : h->board[j - 2 * n];
        if (c == HD_CARD_NONE && h->unknown) continue;
        if (c >= HD_NCARDS || (seen >> c) & 1u) return HD_HAND_E_STATE;
        seen |= (uint64_t)1 << c;
    }
    for (j = 0; j < h->nboard; j++)
        if (h->board[j] >= HD_NCARDS) return HD_HAND_E_STATE;
    return HD_HAND_OK;
}
