/* Pot resolution: uncalled chips, side pots, split pots, odd chips and rake.
 * Plain C99, no Python.h, no allocation. Rules R21, R31, R32, R34 (see holdem/pots.py for the
 * documented semantics; this header documents the C contract).
 *
 * Seats are 0..n-1, clockwise = increasing index (mod n), 2 <= n <= HD_POTS_MAX_SEATS.
 *
 * hd_split_pots(committed, folded, ranks, n, button, rake, flop_dealt, out):
 *   committed[i]  chips seat i put in this hand, 0 <= committed[i] <= HD_POTS_MAX_CHIPS
 *   folded[i]     nonzero if seat i folded (its chips stay in the pots, it cannot win)
 *   ranks[i]      hand value, higher is stronger, >= 0; HD_POTS_NO_RANK (< 0) when unknown.
 *                 Needed only for live seats eligible for a pot that two or more live seats
 *                 contest. `ranks` itself may be NULL when no showdown is needed.
 *   button        0 <= button < n; odd chips go first to the first winner left of it
 *   rake          NULL for no rake; otherwise num/den in [0, 1] with 1 <= den <= 2^32,
 *                 cap >= 0 or HD_POTS_NO_CAP
 *   flop_dealt    0 means "no flop": no rake when rake->no_flop_no_drop is set
 *   out           filled on success; contents unspecified on error
 * Returns HD_POTS_OK (0) or a negative HD_POTS_E_* code; out->error_seat names the seat at fault
 * (or -1). Never reads committed/folded/ranks outside [0, n).
 */
#ifndef HD_POTS_H
#define HD_POTS_H

#include "hd_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HD_POTS_MAX_SEATS 10
#define HD_POTS_MAX_POTS HD_POTS_MAX_SEATS
/* Per-seat limit: ten seats at the limit still sum below 2^63. */
#define HD_POTS_MAX_CHIPS ((int64_t)1 << 59)
#define HD_POTS_MAX_RAKE_DEN ((uint64_t)1 << 32)
#define HD_POTS_NO_RANK (-1)
#define HD_POTS_NO_CAP ((int64_t)-1)

enum {
    HD_POTS_OK = 0,
    HD_POTS_E_NULL = -1,     /* a required pointer is NULL */
    HD_POTS_E_SEATS = -2,    /* n outside 2..HD_POTS_MAX_SEATS */
    HD_POTS_E_BUTTON = -3,   /* button outside 0..n-1 */
    HD_POTS_E_CHIPS = -4,    /* committed[error_seat] negative or above HD_POTS_MAX_CHIPS */
    HD_POTS_E_NO_LIVE = -5,  /* every seat folded */
    HD_POTS_E_RANK = -6,     /* ranks[error_seat] missing for a seat that needs a showdown */
    HD_POTS_E_RAKE = -7      /* rake fraction outside [0, 1], bad denominator, bad cap */
};

typedef struct {
    uint64_t num;            /* rake fraction = num / den */
    uint64_t den;
    int64_t cap;             /* per hand; HD_POTS_NO_CAP for none */
    int32_t no_flop_no_drop; /* nonzero: no rake when the flop was not dealt */
} hd_rake_t;

typedef struct {
    int64_t amount;                       /* chips in the pot, before rake */
    int64_t rake;                         /* part of the pot's amount taken as rake */
    int64_t shares[HD_POTS_MAX_SEATS];    /* chips won from this pot, per seat */
    uint16_t eligible;                    /* bit i: seat i may win this pot */
    uint16_t winners;                     /* bit i: seat i won (a share of) this pot */
} hd_pot_t;

typedef struct {
    int32_t n_pots;                       /* main pot first, then side pots */
    int32_t error_seat;                   /* seat at fault on error, else -1 */
    int64_t rake;                         /* total rake of the hand */
    int64_t returned[HD_POTS_MAX_SEATS];  /* uncalled chips given back (R21) */
    int64_t payouts[HD_POTS_MAX_SEATS];   /* returned + winnings */
    hd_pot_t pots[HD_POTS_MAX_POTS];
} hd_pot_result_t;

int hd_split_pots(const int64_t *committed, const uint8_t *folded, const int32_t *ranks,
                  int n, int button, const hd_rake_t *rake, int flop_dealt,
                  hd_pot_result_t *out);

/* floor(total * num / den) for 0 <= num <= den <= 2^32, 0 <= total < 2^63, without overflow. */
HD_INLINE uint64_t hd_pots_rake_of(uint64_t total, uint64_t num, uint64_t den)
{
    uint64_t q = total / den, r = total % den;
    return q * num + (r * num) / den;
}

#ifdef __cplusplus
}
#endif
#endif /* HD_POTS_H */
