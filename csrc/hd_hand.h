/* The betting rules of one hand as plain C over a struct: start, legal actions, act, settle.
 * Plain C99, no Python.h, no allocation, no globals: every function may run without the GIL,
 * and independent hands (one struct each) may be stepped from different threads.
 *
 * The rules are exactly those of holdem.HandState (the reference holdem/hand/_reference.py lists every
 * choice with its RULES.md id): the amount to call preflop is the full big blind or straddle
 * (R9); the minimum raise increment starts at the big blind (the straddle) and grows with each
 * full raise (R22-R24); a seat that already acted may raise again only when it faces at least a
 * full raise since its last action (R24, several short all-ins add up; fixed limit: half a bet,
 * R28); fixed-limit bets go to exactly L + S, an all-in to at least L + S/2 is a full raise and
 * counts toward the cap (R26-R28, the cap lifted heads-up when configured); pot limit is the
 * current bet plus the pot after calling (R25); nobody bets or raises when no other seat could
 * answer (R17) or with no more chips than the call (R18); a round ends when no seat able to act
 * owes chips or has yet to act (R19), an all-in run-out deals on without betting (R20), and the
 * uncalled part of the highest bet goes back at the end of each round (R21). Antes (R7): uniform
 * antes before the blinds (a seat's own contribution), or a big-blind ante after the big blind
 * (dead money). Straddle (R8): a live 2 * big blind left of the big blind. Settlement (R29-R34):
 * each live seat's best five of seven (hd_eval.h) and the pot kernel (hd_pots.h: side pots,
 * odd chips left of the button, rake). Which hands a real dealer would muck does not change who
 * is paid (a mucked hand never beats the hand that made it muck): hd_hs_showdown computes the
 * R33 showing order and the mucked hands for display, from the settled struct.
 *
 * Forced bets a table needs beyond the regular blinds (hd_hs_start_ex, as holdem.Game.new_hand's
 * dead_small_blind and extra_posts): a dead small blind (nobody posts it, the big blind sits
 * left of the button) and extra posts (a live part posted like a blind, a dead part that is
 * dead money for the main pot) and dead hands (TDA 30: a seat absent at the deal posts, then
 * its hand is folded before any action, its posts staying in the pots as a folded seat's, R31;
 * one live seat left wins at once). Hands started from given cards may leave cards unknown
 * (HD_CARD_NONE): a board card needed before it is known, or an unknown hand at the showdown,
 * stops the hand with h.error set (the caller restores its copy and reports it).
 *
 * Seats are 0..n-1 clockwise; chips are int64, stacks 1..2^53 (as holdem.Game allows).
 *
 * Use:
 *     hd_rules_t g;  hd_rules_init_nl(&g, 1, 2);      (or fill every field, then hd_rules_check)
 *     hd_hstate_t h;
 *     hd_hs_start(&g, &h, n, button, stacks, cards);  cards: hole cards then the five board cards
 *     while (!h.over) { hd_hs_legal(&g, &h, &la); ... hd_hs_act(&g, &h, kind, to); }
 *     h.stacks[] are the final stacks, h.payout[] what each seat got back from the pots.
 *
 * The compiled hand core (holdem/hand/_compiled.pyx, behind holdem.HandState) holds one
 * hd_hstate_t and uses the hd_rules_t of its Game (filled once per Game from game._plan);
 * beside the struct it keeps only Python objects (history list, card tuples, posts, seed,
 * the result). The batched engine (holdem/_vector.pyx) steps arrays of the same struct.
 */
#ifndef HD_HAND_H
#define HD_HAND_H

#include "hd_common.h"
#include "hd_pots.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HD_HAND_MAX_SEATS 10
#define HD_HAND_UNBOUNDED (1 << 30)
#define HD_HAND_MAX_POSTS (3 * HD_HAND_MAX_SEATS)  /* forced bets of one hand, at most */
#define HD_CARD_NONE 255                           /* a card not known (given cards only) */

enum { HD_NL = 0, HD_PL = 1, HD_FL = 2 };                 /* betting structure */
enum { HD_FOLD = 0, HD_CHECK_CALL = 1, HD_BET_RAISE = 2 };  /* action kinds (to: bet/raise) */
enum { HD_STREET_PREFLOP = 0, HD_STREET_FLOP, HD_STREET_TURN, HD_STREET_RIVER,
       HD_STREET_SHOWDOWN };

/* Errors of hd_rules_check, hd_hs_start and hd_hs_check (0 = OK). */
enum {
    HD_HAND_OK = 0,
    HD_HAND_E_RULES = -1,     /* a field of hd_rules_t out of range */
    HD_HAND_E_SEATS = -2,     /* n outside 2..10, or a straddle with fewer than 3 */
    HD_HAND_E_BUTTON = -3,    /* button outside 0..n-1 */
    HD_HAND_E_STACK = -4,     /* a stack below 1 or above HD_POTS_MAX_CHIPS */
    HD_HAND_E_CARDS = -5,     /* a card id outside 0..51 or repeated */
    HD_HAND_E_OVER = -6,      /* the hand is over: nobody is to act */
    HD_HAND_E_KIND = -7,      /* action kind not 0, 1 or 2 */
    HD_HAND_E_FOLD = -8,      /* fold not offered (checking is free, fold_when_check_free 0) */
    HD_HAND_E_RAISE = -9,     /* a bet/raise is not allowed now (R17, R18, R24, R27, R28) */
    HD_HAND_E_AMOUNT = -10,   /* a bet/raise amount outside [min_to, max_to] */
    HD_HAND_E_POSTS = -11,    /* hd_start_t out of range (extra post seat, amounts, count,
                                 dead hands) */
    HD_HAND_E_BOARD = -12,    /* h.error: a board card was needed but is not known */
    HD_HAND_E_HOLE = -13,     /* h.error: a seat reached the showdown with unknown cards */
    HD_HAND_E_STATE = -14     /* hd_hs_consistent: the struct breaks an invariant */
};

/* Forced bets, in posting order (hd_post_t.kind; holdem/hand/_compiled.pyx names them). */
enum { HD_POST_ANTE = 0, HD_POST_SMALL_BLIND, HD_POST_BIG_BLIND, HD_POST_STRADDLE,
       HD_POST_BIG_BLIND_ANTE, HD_POST_ENTRY_BIG_BLIND, HD_POST_DEAD_SMALL_BLIND };

/* What an action was, for the history (hd_record_t.type: holdem.ActionType's values). */
enum { HD_REC_FOLD = 0, HD_REC_CHECK, HD_REC_CALL, HD_REC_BET, HD_REC_RAISE };

/* One game's rules (the fields of holdem.Game a hand needs). */
typedef struct {
    int32_t structure;       /* HD_NL, HD_PL or HD_FL */
    int32_t straddle;        /* nonzero: the seat left of the big blind posts 2 * big_blind */
    int32_t bb_ante;         /* nonzero: the big blind posts the ante (dead), else uniform */
    int32_t deal_from_bb;    /* nonzero: cards dealt from left of the big blind (R12) */
    int32_t lift_heads_up;   /* nonzero: the fixed-limit cap is lifted with two players left */
    int32_t fold_free;       /* nonzero: folding is offered when checking is free */
    int32_t cap;             /* fixed limit: a bet and max_raises raises; else HD_HAND_UNBOUNDED */
    int32_t has_rake;        /* nonzero: rake applies (see hd_pots.h) */
    int64_t big_blind;       /* >= 1 */
    int64_t small_blind;     /* 0..big_blind */
    int64_t ante;            /* >= 0 */
    int64_t sizes[4];        /* bet size per street (fixed limit: small, small, big, big) */
    hd_rake_t rake;
} hd_rules_t;

/* What the seat to act may do (the C twin of holdem.hand.records.LegalActions). */
typedef struct {
    int32_t seat;
    int32_t can_fold;
    int32_t can_check;
    int32_t can_raise;
    int32_t is_bet;          /* nobody has bet on this street: a bet, not a raise */
    int32_t pad_;
    int64_t call;            /* chips a call puts in (0 when checking) */
    int64_t min_to;          /* bet/raise to, street totals (valid when can_raise) */
    int64_t max_to;
} hd_legal_t;

/* One forced bet posted by hd_hs_start_ex. */
typedef struct {
    int32_t seat;
    int32_t kind;            /* HD_POST_* */
    int64_t amount;          /* chips posted (>= 1; all in for less when short) */
} hd_post_t;

/* One extra post: `live` chips posted like a blind, then `dead` chips of dead money. */
typedef struct {
    int32_t seat;            /* not a blind or straddle seat, at most once */
    int32_t pad_;
    int64_t live;            /* 0..big_blind */
    int64_t dead;            /* 0..big_blind */
} hd_extra_t;

/* Options of hd_hs_start_ex (all zero: a regular hand, as hd_hs_start). */
typedef struct {
    int32_t dead_small_blind; /* 3+ seats: nobody posts the small blind, the big blind sits
                                 left of the button (sb_seat is then the button) */
    int32_t unknown_cards;    /* nonzero: HD_CARD_NONE marks a card not known (yet) */
    int32_t nextra;           /* 0..HD_HAND_MAX_SEATS entries of extra[] */
    int32_t dead_hands;       /* bit s: seat s's hand is dead (TDA 30: absent at the deal). It
                                 posts its forced bets, then is folded before any action; bits
                                 only below n, at least one seat left live */
    hd_extra_t extra[HD_HAND_MAX_SEATS];
} hd_start_t;

/* What an action did (hd_hs_act_rec), the fields of one history entry. */
typedef struct {
    int32_t seat;
    int32_t street;          /* the street it was made on */
    int32_t type;            /* HD_REC_* */
    int32_t all_in;          /* nonzero when it put the seat's last chip in */
    int64_t to;              /* the seat's street total after it */
    int64_t amount;          /* chips it added */
} hd_record_t;

/* One hand (664 bytes). Fields are read freely; write them only through the functions. */
typedef struct {
    int64_t stacks[HD_HAND_MAX_SEATS];     /* chips behind */
    int64_t bets[HD_HAND_MAX_SEATS];       /* this street's bet (blinds count, antes not) */
    int64_t committed[HD_HAND_MAX_SEATS];  /* put in this hand, uncalled returned (no dead) */
    int64_t acted[HD_HAND_MAX_SEATS];      /* street total when the seat last acted, -1 none */
    int64_t cur;             /* the street total to call */
    int64_t inc;             /* the current minimum raise increment (NL/PL) */
    int64_t full;            /* fixed limit: the level of the last full bet or raise */
    int64_t dead;            /* dead money (big-blind ante) */
    int64_t rake;            /* after settlement: the rake taken */
    int32_t n, button, sb_seat, bb_seat, first_dealt;
    int32_t street;          /* 0 preflop .. 3 river, 4 showdown */
    int32_t actor;           /* seat to act, -1 when over */
    int32_t raises;          /* fixed limit: full bets/raises this street counted toward the
                                cap (the blind counts; none heads-up with the cap lifted) */
    int32_t aggr;            /* last seat to bet or raise this street, -1 none */
    int32_t live;            /* seats not folded */
    int32_t nboard;          /* board cards dealt 0, 3, 4, 5 */
    int32_t over;            /* nonzero when settled */
    int32_t showdown;        /* nonzero when the hand went to a showdown */
    int32_t error;           /* nonzero if settlement failed (never with valid input), or
                                HD_HAND_E_BOARD / HD_HAND_E_HOLE (unknown cards needed) */
    uint8_t folded[HD_HAND_MAX_SEATS];
    uint8_t hole[2 * HD_HAND_MAX_SEATS];   /* seat s: hole[2s], hole[2s+1] */
    uint8_t board[5];
    uint8_t unknown;         /* nonzero: some cards may be HD_CARD_NONE (hd_start_t) */
    uint8_t pad_[2];
    /* read at the start and the end of a hand only: last, off the cache lines every decision
       touches (the batched engine streams through thousands of these per step) */
    int32_t ranks[HD_HAND_MAX_SEATS];      /* after a showdown: evaluator ranks, -1 none */
    int64_t start[HD_HAND_MAX_SEATS];      /* stacks before the forced bets */
    int64_t payout[HD_HAND_MAX_SEATS];     /* after settlement: chips back from the pots */
} hd_hstate_t;

/* No-limit rules with these blinds and no ante, straddle or rake (fill more fields after). */
void hd_rules_init_nl(hd_rules_t *g, int64_t small_blind, int64_t big_blind);
/* HD_HAND_OK or HD_HAND_E_RULES. */
int hd_rules_check(const hd_rules_t *g);

/* Start a hand: post antes, blinds and straddle, take the cards, find the first actor (or run
 * the hand out when nobody can act). cards[0 .. 2n) are the hole cards by seat, cards[2n ..
 * 2n+5) the board. Validates everything; on error h is unspecified. */
int hd_hs_start(const hd_rules_t *g, hd_hstate_t *h, int n, int button, const int64_t *stacks,
                const uint8_t *cards);

/* hd_hs_start for a caller that already checked everything but the stacks: g passed
 * hd_rules_check (and is not changed since), 2 <= n <= 10 (3 with a straddle), 0 <= button < n,
 * and cards[0 .. 2n+5) are distinct ids 0..51 (the batched engine: its rules are checked once,
 * its cards dealt from a deck). The stacks are checked as hd_hs_start checks them; the hand
 * started is the same. Anything else out of range is undefined behaviour. */
int hd_hs_start_trusted(const hd_rules_t *g, hd_hstate_t *h, int n, int button,
                        const int64_t *stacks, const uint8_t *cards);

/* hd_hs_start with the options of a table (opt may be NULL: regular). The forced bets posted
 * are written to posts[0 .. *nposts) when posts is not NULL (room for HD_HAND_MAX_POSTS). */
int hd_hs_start_ex(const hd_rules_t *g, hd_hstate_t *h, int n, int button, const int64_t *stacks,
                   const uint8_t *cards, const hd_start_t *opt, hd_post_t *posts, int *nposts);

/* The legal actions of the seat to act; h must not be over. */
void hd_hs_legal(const hd_rules_t *g, const hd_hstate_t *h, hd_legal_t *out);

/* 0 when seat i may bet or raise now, else the rule that forbids it: 18 (no more chips than
 * the call), 17 (nobody could answer), 27 (fixed-limit cap), 28 or 24 (not reopened). */
int hd_hs_raise_block(const hd_rules_t *g, const hd_hstate_t *h, int i);

/* 0 when (kind, to) is legal for the seat to act, else a negative HD_HAND_E_* code. */
int hd_hs_check(const hd_rules_t *g, const hd_hstate_t *h, int kind, int64_t to);

/* Apply an action without any check (kind HD_FOLD, HD_CHECK_CALL, HD_BET_RAISE to `to`).
 * Settles the hand when it ends. An illegal action gives a state outside the rules but still
 * memory-safe and chip-conserving (a bet/raise amount is clamped to the seat's chips). */
void hd_hs_act(const hd_rules_t *g, hd_hstate_t *h, int kind, int64_t to);

/* hd_hs_act that also describes the action in *rec (not written when nothing was done: the
 * hand over or no seat to act). After it, h.error is HD_HAND_E_BOARD or HD_HAND_E_HOLE when
 * a card that is not known was needed (the state is then mid-way: restore a copy). */
void hd_hs_act_rec(const hd_rules_t *g, hd_hstate_t *h, int kind, int64_t to, hd_record_t *rec);

/* Total chips in the middle (committed plus dead money); inline: the batched engine reads it
 * several times per decision. */
HD_INLINE int64_t hd_hs_pot(const hd_hstate_t *h)
{
    int64_t t = h->dead;
    int j;
    for (j = 0; j < h->n; j++) t += h->committed[j];
    return t;
}

/* hd_hs_raise_block and hd_hs_legal as inline functions (the batched engine asks for the legal
 * actions at every decision; hd_hand.c's entry points are these). */
HD_INLINE int hd_hs_raise_block_inline(const hd_rules_t *g, const hd_hstate_t *h, int i)
{
    int j, other = 0;
    int64_t owe = h->cur - h->bets[i], faced;
    if (h->stacks[i] <= owe) return 18; /* R18: call all in or fold */
    for (j = 0; j < h->n; j++)
        if (j != i && !h->folded[j] && h->bets[j] + h->stacks[j] > h->cur) {
            other = 1;
            break;
        }
    if (!other) return 17; /* R17: nobody could call more */
    if (g->structure == HD_FL && h->raises >= g->cap)
        return 27; /* R27: capped (raises heads-up with the cap lifted are not counted) */
    if (h->acted[i] >= 0) {
        faced = h->cur - h->acted[i];
        if (g->structure == HD_FL) {
            if (2 * faced < g->sizes[h->street]) return 28; /* R28: not reopened */
        } else if (faced < h->inc) {
            return 24; /* R24: a short all-in did not reopen the betting */
        }
    }
    return 0;
}

HD_INLINE void hd_hs_legal_inline(const hd_rules_t *g, const hd_hstate_t *h, hd_legal_t *out)
{
    int i = h->actor < 0 ? 0 : h->actor;
    int64_t bet = h->bets[i], stack = h->stacks[i], owe = h->cur - bet, total, lo, hi;
    out->seat = h->actor;
    out->can_check = owe <= 0;
    out->call = out->can_check ? 0 : (owe < stack ? owe : stack);
    out->can_fold = !out->can_check || g->fold_free;
    out->is_bet = h->cur == 0;
    out->pad_ = 0;
    out->can_raise = !h->over && hd_hs_raise_block_inline(g, h, i) == 0;
    out->min_to = 0;
    out->max_to = 0;
    if (!out->can_raise) return;
    total = bet + stack;
    if (g->structure == HD_FL) { /* R26: exactly L + S */
        lo = h->full + g->sizes[h->street];
        if (lo > total) lo = total;
        hi = lo;
    } else {
        lo = h->cur + h->inc; /* R22, R23 */
        if (lo > total) lo = total;
        if (g->structure == HD_NL) {
            hi = total;
        } else { /* R25: the highest bet plus the pot after calling */
            hi = 2 * h->cur - bet + hd_hs_pot(h);
            if (hi < lo) hi = lo;
            if (hi > total) hi = total;
        }
    }
    out->min_to = lo;
    out->max_to = hi;
}

/* The pots of a settled hand (the same hd_split_pots call that paid it): HD_POTS_OK or its
 * error. */
int hd_hs_settle(const hd_rules_t *g, const hd_hstate_t *h, hd_pot_result_t *out);

/* R33 showing order of a hand at (or reaching) its showdown: the last river bettor first, else
 * the first live seat left of the button, then clockwise; the live seats into order[], their
 * count returned. */
int hd_hs_show_order(const hd_hstate_t *h, int32_t *order);

/* R33 for display (payouts do not depend on it): order[] as hd_hs_show_order, shown[k] nonzero
 * when order[k] shows. With `muck` nonzero a hand that an already shown hand beats while
 * covering its whole contribution is mucked, unless a seat in the showdown is all in (then
 * every hand shows, TDA 16). Needs h.ranks (a settled showdown). Returns the count. */
int hd_hs_showdown(const hd_hstate_t *h, int muck, int32_t *order, uint8_t *shown);

/* HD_HAND_OK when a struct filled from outside (an unpickled hand, not yet settled: payout
 * zero) keeps every invariant the functions rely on (ranges, chips adding up, cards), else
 * HD_HAND_E_STATE. */
int hd_hs_consistent(const hd_rules_t *g, const hd_hstate_t *h);

#ifdef __cplusplus
}
#endif
#endif /* HD_HAND_H */
