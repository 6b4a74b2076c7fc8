/* The built-in agents' decision rules as plain C over one hand (hd_hand.h): random, call and
 * equity, the compiled twins of holdem.RandomAgent, CallAgent and EquityAgent.
 *
 * Plain C99, no Python.h, no allocation, no globals: a policy reads the hand and its legal
 * actions, draws from the generator it is given (one per table and seat), and returns the
 * action (kind, to). Same rules as the Python agents (holdem/table/agents.py):
 *
 *   random: uniform over the kinds offered (fold, check/call, bet/raise), then a bet/raise
 *           size uniform in [min_to, max_to];
 *   call:   always check/call;
 *   equity: a Monte Carlo equity (`samples` deals of the rest of the board and of
 *           min(opponents, 3) random hands, ties shared) with hd_eval.h's evaluator; equity
 *           >= raise_at and a raise offered: bet/raise to bet + call + 2/3 pot (clamped to
 *           [min_to, max_to]); else check when free; else call when equity >= the pot odds
 *           call / (pot + call); else fold.
 *
 * The random numbers come from xoshiro256** (hd_rng.h), not Python's Mersenne Twister, so the
 * hands played differ from the Python agents' draw for draw; the decision distributions are
 * the same.
 */
#ifndef HD_AGENTS_H
#define HD_AGENTS_H

#include "hd_common.h"
#include "hd_hand.h"
#include "hd_rng.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { HD_POLICY_RANDOM = 0, HD_POLICY_CALL = 1, HD_POLICY_EQUITY = 2 };

#define HD_POLICY_MAX_SAMPLES 1000000

/* One policy and its parameters (samples and raise_at are read by the equity policy only). */
typedef struct {
    int32_t kind;       /* HD_POLICY_* */
    int32_t samples;    /* equity: deals per estimate, 1..HD_POLICY_MAX_SAMPLES */
    double raise_at;    /* equity: bet or raise with at least this equity */
} hd_policy_t;

/* 0 when the policy is valid, else -1 (unknown kind, samples out of range, raise_at NaN). */
int hd_policy_check(const hd_policy_t *p);

/* Uniform integer in [0, n) for 1 <= n (any 64-bit n), exactly unbiased (rejection). */
uint64_t hd_rng_below64(hd_rng_t *r, uint64_t n);

/* Monte Carlo equity of `hole` (2 cards) on `board` (nboard cards, 0..5) against `opponents`
 * random hands (clamped to 1..3), ties shared: `samples` deals (at least 1). Card ids are
 * read modulo 64 (garbage in only gives a meaningless estimate, never an out-of-bounds read). */
double hd_equity_mc(const uint8_t *hole, const uint8_t *board, int nboard, int opponents,
                    int samples, hd_rng_t *r);

/* The policy's action for the seat to act in h (la: hd_hs_legal of h; h not over). Writes
 * the kind (HD_FOLD, HD_CHECK_CALL, HD_BET_RAISE) and `to` (the bet/raise total, 0 otherwise);
 * `equity` (may be NULL) gets the equity estimate of the equity policy, -1 for the others.
 * The action is legal for any valid policy. */
void hd_policy_act(const hd_policy_t *p, const hd_hstate_t *h, const hd_legal_t *la,
                   hd_rng_t *r, int *kind, int64_t *to, double *equity);

#ifdef __cplusplus
}
#endif
#endif /* HD_AGENTS_H */
