# cython: language_level=3
"""The batched engine behind :class:`holdem.vector.VectorGame`: N tables as one C array of
``hd_hstate_t`` (csrc/hd_hand.h), stepped by ``nogil`` loops over slices of the batch (one
thread: ``run``) or over chunks that threads take from a shared counter (``share``, or
``share_start`` then ``share_finish`` for a step that runs while the caller goes on).

Nothing here holds a Python object per table or per decision. The public class, the action
layout and the observation spec live in :mod:`holdem.vector`; this module takes plain numbers
(the rules, the layout as codes, the seed) and fills the output buffers it is given.
"""

cimport cython
from cpython.mem cimport PyMem_Calloc, PyMem_Free, PyMem_Malloc
from cpython.number cimport PyNumber_Index
from cpython.pythread cimport PyThread_get_thread_ident
from libc.stdint cimport (int32_t, int64_t, uint8_t, uint16_t, uint64_t, uintptr_t, INT32_MAX,
                          INT64_MAX)
from libc.string cimport memcmp, memcpy, memmove, memset

from holdem._deck cimport hd_deal_seats, hd_deck_t, hd_rng_seed, hd_rng_t, hd_seed_child
from holdem._eval cimport eval_tables, hd_tables_share
from holdem._pots cimport HD_POTS_NO_CAP, HD_POTS_NO_RANK
from holdem.hand._compiled cimport HandCore
from holdem.hand._hd_hand cimport (
    HD_BET_RAISE, HD_CHECK_CALL, HD_FOLD, HD_HAND_MAX_SEATS, HD_HAND_OK, HD_HAND_UNBOUNDED,
    HD_REC_BET, HD_REC_RAISE,
    hd_hs_act, hd_hs_check, hd_hs_consistent, hd_hs_legal, hd_hs_legal_inline, hd_hs_pot,
    hd_hs_start, hd_hs_start_trusted, hd_hstate_t, hd_legal_t, hd_rules_check, hd_rules_t,
)

import os
import sys
import threading

from holdem._shown import excerpt, shown
from holdem.errors import (ChipOverflowError, IllegalActionError, InvalidArrayError,
                           InvalidConfigError, InvalidSeatError, InvalidStateError,
                           InvalidTableError)

__all__ = ["MAX_TABLES", "OBS_VERSION", "POLICIES", "Batch", "actor_rewards", "encode_state",
           "equity_estimate", "first_outside", "obs_names", "obs_width", "play_fits"]

hd_tables_share(eval_tables())  # the evaluator's tables, linked once into holdem._eval

cdef unsigned long forks = 0  # forks into this process (see Batch._check_free)


def _forked() -> None:
    global forks
    forks += 1


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_forked)


cdef extern from "hd_common.h" nogil:
    void hd_prefetch(const void *p)


cdef extern from "hd_atomic.h" nogil:
    ctypedef struct hd_share_t:
        int64_t finished
    ctypedef struct hd_lane_t:
        int64_t next
    enum:
        HD_LANES
    int64_t hd_now_ns()
    int64_t hd_atomic_load(int64_t *p)
    void hd_atomic_store(int64_t *p, int64_t v)
    bint hd_atomic_cas(int64_t *p, int64_t *expected, int64_t desired)
    int64_t hd_atomic_add(int64_t *p, int64_t v)
    void hd_cpu_relax()
    void hd_thread_yield()


cdef extern from "Python.h":
    # declared noexcept: the exception a handler raises stays set, and play() raises it
    int _check_signals "PyErr_CheckSignals"() noexcept


cdef int _raise_pending() except -1:
    """Raise the exception already set (by a signal handler, through _check_signals)."""
    return -1


cdef extern from "hd_agents.h" nogil:
    enum:
        HD_POLICY_RANDOM
        HD_POLICY_CALL
        HD_POLICY_EQUITY
    ctypedef struct hd_policy_t:
        int32_t kind
        int32_t samples
        double raise_at
    int hd_policy_check(const hd_policy_t *p)
    double hd_equity_mc(const uint8_t *hole, const uint8_t *board, int nboard, int opponents,
                        int samples, hd_rng_t *r)
    void hd_policy_act(const hd_policy_t *p, const hd_hstate_t *h, const hd_legal_t *la,
                       hd_rng_t *r, int *kind, int64_t *to, double *equity)


# Action column codes (holdem.vector.ActionLayout builds the list).
cdef enum:
    COL_FOLD = 0
    COL_CHECK_CALL = 1
    COL_FRACTION = 2
    COL_MIN_RAISE = 3
    COL_ALL_IN = 4
    MAX_COLS = 32

# ActionLayout's presets, whose amounts have a compiled path of their own (_amounts_preset)
cdef enum:
    PRESET_NONE = 0
    PRESET_DEFAULT = 1  # fold, check/call, half pot, pot, min-raise, all-in; keep="all_in"
    PRESET_FCPA = 2     # fold, check/call, pot, all-in; keep="first"
    PRESET_FCHPA = 3    # fold, check/call, half pot, pot, all-in; keep="first"

# Observation layout, version 1 (holdem.vector.ObservationSpec names every column).
OBS_VERSION = 1
cdef enum:
    O_HOLE = 0
    O_FLOP = 52
    O_TURN = 104
    O_RIVER = 156
    O_STREET = 208
    O_POSITION = 212    # + players: the actor's distance from the button, one-hot
    SEAT_COLS = 6       # per seat relative to the actor
    GLOBAL_COLS = 7
    STREET_COLS = 2     # per street: bets/raises, chips added (big blinds)

MAX_TABLES = 1 << 26    # sizes are checked before any product is formed
cdef int64_t MAX_STACK = 1 << 53  # chips per seat (hd_hand.c's HD_HAND_MAX_STACK)
# play() looks at the clock every POLL_DECISIONS decisions (an equity decision counts
# 1 + samples / 256; see _poll) and runs the signal handlers every POLL_NS (100 ms)
cdef enum:
    POLL_DECISIONS = 32
cdef int64_t POLL_NS = 100000000
cdef enum:
    PLAY_STOPPED = -2    # _poll: another slice of the play() call raised: stop
    PLAY_RAISED = -3     # _poll: a signal handler raised here (its exception is set)
cdef enum:
    PREFETCH_AHEAD = 4  # _run asks for the lines of the table this many ahead
cdef enum:
    LOG_CAP = 64        # actions kept per hand for history() (more: the hand's log is dropped)
    LOG_FULL = 1 << 20

# Compiled policies (csrc/hd_agents.h), by code.
POLICIES = ("random", "call", "equity")
# Policy streams: stream k of table t is child_seed(child_seed(seed, t), POLICY_STREAM - k)
# (the table's hands are dealt from the indexes 0, 1, 2...).
cdef uint64_t POLICY_STREAM = 0xFFFFFFFFFFFFFFFFULL
cdef int64_t LOW32 = 0xFFFFFFFF  # a lane's word: (end << 32) | next table (MAX_TABLES < 2**31)

cdef list _SEAT_FIELDS = ["button_distance", "stack", "bet", "committed", "folded", "all_in"]
cdef list _GLOBAL_FIELDS = ["pot", "to_call", "min_raise_to", "max_raise_to", "current_bet",
                            "players_in_hand", "players_to_act"]
cdef list _STREET_NAMES = ["preflop", "flop", "turn", "river"]


def equity_estimate(hole, board, opponents, samples, seed):
    """The equity policy's Monte Carlo estimate (csrc/hd_agents.h) of ``hole`` (2 card ids) on
    ``board`` (0..5 card ids) against ``opponents`` (1..3) random hands, ``samples`` deals,
    from a generator seeded with ``seed`` (0..2**64-1)."""
    cdef uint8_t h[2]
    cdef uint8_t b[5]
    cdef hd_rng_t r
    cdef int k
    cdef tuple hs, bs
    # the counts and the seed as plain ints, range-checked before they become C integers
    opponents = _plain_int("opponents", opponents)
    samples = _plain_int("samples", samples)
    seed = _plain_int("seed", seed)
    if not 0 <= seed < 1 << 64:
        raise InvalidConfigError(f"seed must be 0..2**64-1, got {shown(seed)}")
    try:  # plain tuples of plain ints, counted once (a subclass's len() may change)
        hs = tuple([PyNumber_Index(c) for c in hole])
        bs = tuple([PyNumber_Index(c) for c in board])
    except TypeError:
        raise InvalidConfigError("need 2 hole cards and 0..5 board cards, distinct ids 0..51") \
            from None
    cards = hs + bs
    if len(hs) != 2 or len(bs) > 5 or len(set(cards)) != len(cards) \
            or not all([0 <= c < 52 for c in cards]):
        raise InvalidConfigError("need 2 hole cards and 0..5 board cards, distinct ids 0..51")
    if not 1 <= samples <= 1000000:
        raise InvalidConfigError(f"samples must be 1..1000000, got {shown(samples)}")
    if not 1 <= opponents <= 3:  # the C estimate plays against at most 3 (more count as 3)
        raise InvalidConfigError(f"opponents must be 1..3, got {shown(opponents)}")
    for k in range(2):
        h[k] = hs[k]
    for k in range(len(bs)):
        b[k] = bs[k]
    hd_rng_seed(&r, <uint64_t>seed)
    return hd_equity_mc(h, b, len(bs), <int>opponents, <int>samples, &r)


cdef object _plain_int(str name, object value):
    """``value`` as a plain int (bools and int subclasses too), else InvalidConfigError."""
    try:
        return int(PyNumber_Index(value))
    except TypeError:
        raise InvalidConfigError(f"{name} must be an int, got {type(value).__name__}") from None


def play_fits(hands, total, bint session):
    """Whether ``Batch.play`` can play ``hands`` hands in one call at a table of ``total``
    starting chips: the int64 sums of squared payoffs cannot overflow (a hand moves at most
    the table's chips; in a session refilled seats add up to ``total`` a hand)."""
    bound = total * (hands + 1) if session else total
    return hands * bound * bound < 1 << 63


def first_outside(const int64_t[::1] cols, int64_t size):
    """The index of the first entry of ``cols`` outside 0..size-1, or -1: the Gymnasium
    vector env's check of a batch of actions against its action space, in one pass."""
    cdef Py_ssize_t i
    if size < 0:
        raise InvalidArrayError(f"size must be >= 0, got {size}")
    for i in range(cols.shape[0]):
        if <uint64_t>cols[i] >= <uint64_t>size:  # (a negative entry wraps above size)
            return i
    return -1


def actor_rewards(const float[:, ::1] rewards, const int64_t[::1] actor,
                  const uint8_t[::1] done, double[::1] out):
    """``out[i] = rewards[i, actor[i]]`` where ``done[i]`` is nonzero and ``actor[i]`` is a
    seat (0..P-1), else 0.0: per table, the payoff of the seat that acted in a step (the
    Gymnasium vector env's reward), in one pass. The four must have as many rows."""
    cdef Py_ssize_t i, n = rewards.shape[0]
    cdef int64_t a
    if not actor.shape[0] == done.shape[0] == out.shape[0] == n:
        raise InvalidArrayError(
            f"rewards, actor, done and out must have as many rows, got {n}, "
            f"{actor.shape[0]}, {done.shape[0]} and {out.shape[0]}")
    for i in range(n):
        a = actor[i]
        if done[i] and 0 <= a < rewards.shape[1]:
            out[i] = rewards[i, a]
        else:
            out[i] = 0.0


cdef inline int _card_id(object card) except -1:
    """A card id 0..51 of a state's tuples (a HandState holds only those: checked anyway, as
    it indexes a row)."""
    cdef int c = card
    if not 0 <= c < 52:
        raise InvalidStateError(f"not a card id: {card!r}")
    return c


cdef bint _street_summary(HandCore hs, const hd_hstate_t *h, float *o, double ib) except -1:
    """The street summary of ``ObservationSpec.encode`` (per street: bets and raises, the
    chips the actions added; a finished hand's last action not counted) in
    ``o[:4 * STREET_COLS]``, from the state's actions as ``vector._street_counts`` reads them.
    False (nothing written) when an action's street is out of range."""
    cdef int64_t added[4]
    cdef int64_t raises[4]
    cdef int st, kind, k
    cdef Py_ssize_t j, last
    cdef tuple rec
    cdef list hist = hs._hist
    memset(added, 0, sizeof(added))
    memset(raises, 0, sizeof(raises))
    last = len(hist) - 1 if h.over else len(hist)
    for j in range(len(hist)):
        rec = hist[j]
        st, kind = rec[1], rec[2]
        if not 0 <= st < 4:
            return False
        if kind == HD_REC_BET or kind == HD_REC_RAISE:
            raises[st] += 1
        if j < last:
            added[st] += <int64_t>rec[4]
    for k in range(4):
        o[STREET_COLS * k] = <float>raises[k]
        o[STREET_COLS * k + 1] = <float>(added[k] * ib)
    return True


def encode_state(state, int seat, float[::1] out):
    """``ObservationSpec(n).encode(state, seat)`` as float32 in ``out[:width]``, read from the
    C struct of a ``HandState`` of the compiled core (its cards from the state's own tuples,
    as ``hole_cards`` and ``board`` give them: a seat's may be unknown; the street summary
    from its actions): returns True; for any other state (the reference core, one
    not started) returns False (the caller encodes it in Python). ``seat`` must be 0..n-1,
    ``out`` that wide at least."""
    cdef HandCore hs
    cdef const hd_hstate_t *h
    cdef hd_legal_t la
    cdef int n, s, r, k, width, button, to_act = 0, live = 0
    cdef double ib
    cdef float *o
    if not isinstance(state, HandCore):
        return False
    hs = <HandCore>state
    if hs._game is None:  # not started
        return False
    h = &hs._h
    n = h.n
    width = O_POSITION + n + SEAT_COLS * n + GLOBAL_COLS + 4 * STREET_COLS
    if not 0 <= seat < n or out.shape[0] < width:
        raise InvalidArrayError(f"seat {seat} of {n}, or out has fewer than {width} columns")
    ib = 1.0 / <double>hs._rules.g.big_blind
    o = &out[0]
    memset(o, 0, width * sizeof(float))
    hole = hs._hole[seat]
    if hole is not None:  # (None: a seat whose cards are unknown)
        for c in hole:
            o[O_HOLE + _card_id(c)] = 1.0
    board = hs._board
    for k in range(h.nboard):
        o[(O_FLOP if k < 3 else O_TURN if k == 3 else O_RIVER) + _card_id(board[k])] = 1.0
    o[O_STREET + (h.street if h.street < 3 else 3)] = 1.0
    button = h.button
    o[O_POSITION + (seat - button + n) % n] = 1.0
    o += O_POSITION + n
    for r in range(n):  # the seats from seat clockwise (a block each, its position first)
        s = (seat + r) % n
        o[0] = <float>((s - button + n) % n)
        to_act += _seat_block(o, h, s, h.stacks[s] - h.payout[s], ib)
        live += h.folded[s] == 0
        o += SEAT_COLS
    o[0] = <float>(hd_hs_pot(h) * ib)
    if seat == h.actor and not h.over:
        hd_hs_legal_inline(&hs._rules.g, h, &la)
        o[1] = <float>(la.call * ib)
        if la.can_raise:
            o[2] = <float>(la.min_to * ib)
            o[3] = <float>(la.max_to * ib)
    o[4] = <float>(h.cur * ib)
    o[5] = live
    o[6] = to_act
    return _street_summary(hs, h, o + GLOBAL_COLS, ib)


def obs_width(int players):
    """The number of observation columns for ``players`` seats (version 1)."""
    return O_POSITION + players + SEAT_COLS * players + GLOBAL_COLS + 4 * STREET_COLS


def obs_names(int players):
    """The name of every observation column, in order (version 1)."""
    from holdem.cards import Card
    names = []
    for part in ("hole", "flop", "turn", "river"):
        names += [f"{part}[{Card(c)}]" for c in range(52)]
    names += [f"street[{s}]" for s in _STREET_NAMES]
    names += [f"position[{k}]" for k in range(players)]
    for r in range(players):
        names += [f"seat[{r}].{f}" for f in _SEAT_FIELDS]
    names += list(_GLOBAL_FIELDS)
    for s in _STREET_NAMES:
        names += [f"{s}.raises", f"{s}.added"]
    return names


ctypedef struct vtab_t:
    # What every decision reads or writes comes first, in as few cache lines as possible (a
    # step streams through thousands of tables): these fields, the part of h before its
    # ranks/start/payout, then the first num_cols entries of amt.
    int32_t nlog               # actions logged this hand (LOG_FULL: more than LOG_CAP)
    int32_t can_fold           # cached by _write for the next _map: fold offered
    int32_t cur_log            # log[cur_log] is this hand's, log[1 - cur_log] the last hand's
    int32_t nhot               # the one-hot columns _write set in the table's observation row
    uint16_t hot[10]           # (cleared by the next _write instead of the whole row)
    int32_t nraise[4]          # bets/raises per street (saturating at INT32_MAX)
    int32_t paid               # its rewards row holds a hand's result (the next step zeroes it)
    int64_t pot                # hd_hs_pot(&h) at the decision shown (set by _act, _new_hand)
    int64_t added[4]           # chips added to the pot per street by actions (uncalled back)
    hd_hstate_t h
    int64_t amt[32]            # cached by _write: the bet/raise amount per column (-1: masked)
    # per hand or colder
    int64_t hand_no            # hands started on this table
    int64_t voided             # hands abandoned (abandon) before they ended
    uint64_t tseed             # hd_seed_child(seed, i): the table's hands are its children
    int64_t carry[10]          # session: the stacks the next hand starts from
    uint64_t total[10]         # payoffs summed over every finished hand since reset(): the
    int64_t total_hi[10]       # low and high words of a 128-bit sum (_add_total)
    int32_t last_button        # the last hand ended by an action: button, stacks, cards, log
    int32_t nlast              # actions logged in the last hand (-1: none yet)
    int64_t last_start[10]
    int64_t last_final[10]     # its stacks at its end (its payoffs: last_final - last_start)
    uint8_t last_cards[25]
    uint8_t pad2[7]
    uint64_t log[2][64]        # actions, packed (see _act); swapped, not copied, per hand


ctypedef struct step_args_t:   # one step's inputs and outputs, as run() and share() take them
    const int64_t *kinds       # kinds and tos (checked), or cols (unchecked); the others NULL
    const int64_t *tos
    const int64_t *cols
    const uint8_t *hold        # NULL, or one flag per table of the batch: nonzero holds it
    float *obs
    float *final               # NULL, or rows that get a table's last row when its hand ends
    uint8_t *mask
    int32_t *actor
    int64_t *payoffs
    float *rewards
    uint8_t *done


cdef inline void _add_total(vtab_t *t, int k, int64_t v) noexcept nogil:
    """Add a hand's payoff ``v`` to seat k's total, exactly: the sum over an unbounded number
    of hands leaves int64 (a seat taking 2**52 chips a hand does after about 2**11 hands), so
    it is kept as 128 bits, total_hi:total, the low word unsigned (it wraps, which is defined)
    and the high word counting its carries (it moves by at most one a hand)."""
    cdef uint64_t lo = t.total[k]
    cdef uint64_t s = lo + <uint64_t>v
    t.total_hi[k] += <int64_t>(s < lo) - <int64_t>(v < 0)
    t.total[k] = s


cdef inline int64_t _frac_to(int64_t min_to, int64_t max_to, int64_t cur, int64_t base,
                             int64_t num, int64_t den, int shift, int64_t lim) noexcept nogil:
    """cur + base * num / den, clipped to [min_to, max_to] (saturating): ``base`` (>= 0) is
    the pot after the call, ``lim`` the largest quotient that may be multiplied by num,
    (INT64_MAX // 4) // num. ``shift`` is log2(den) when den is a power of two (then no
    division: shifts and masks of a non-negative number are exact), else -1."""
    cdef int64_t q, r, extra
    if shift >= 0:
        q = base >> shift
        r = base & (den - 1)
    else:
        q = base // den
        r = base % den
    if q > lim:
        return max_to
    extra = q * num
    if r != 0:
        extra += (r * num) >> shift if shift >= 0 else (r * num) // den
    extra = cur + extra
    if extra < min_to:
        return min_to
    if extra > max_to:
        return max_to
    return extra


cdef inline bint _fixed_seats(int n) noexcept nogil:
    """Whether Batch._span steps n-seat tables with n a compile-time constant (heads-up,
    6-max, full ring): the compiler then unrolls the loops over the seats, and _write turns
    the seat blocks with copies of a fixed size."""
    return n == 2 or n == 6 or n == 9


cdef inline void _copy_blocks(float *dst, const float *src, int count) noexcept nogil:
    """Copy ``count`` seat blocks (SEAT_COLS floats each) from src to dst, first to last (so
    dst may overlap src from below): three 8-byte moves per block, no call of a copy routine
    of variable size (blocks are short and few)."""
    cdef uint64_t x0, x1, x2
    for _ in range(count):
        memcpy(&x0, src, 8)
        memcpy(&x1, src + 2, 8)
        memcpy(&x2, src + 4, 8)
        memcpy(dst, &x0, 8)
        memcpy(dst + 2, &x1, 8)
        memcpy(dst + 4, &x2, 8)
        src += SEAT_COLS
        dst += SEAT_COLS


cdef inline int _seat_block(float *o, const hd_hstate_t *h, int s, int64_t stack,
                            double ib) noexcept nogil:
    """Seat s's observation columns after its position (o[1..5]: stack, bet, committed in big
    blinds, folded, all in); returns 1 if it can still act (in the hand, with chips).
    ``stack``: its chips behind, h.stacks[s] in a hand in play (a settled hand's less its
    payout, as HandState.stacks gives them)."""
    cdef bint live = h.folded[s] == 0
    o[1] = <float>(stack * ib)
    o[2] = <float>(h.bets[s] * ib)
    o[3] = <float>(h.committed[s] * ib)
    o[4] = <float>(not live)
    o[5] = <float>(live & (stack == 0))
    return live & (stack > 0)


cdef inline void _unpack(uint64_t e, int *seat, int *street, int *kind,
                         int64_t *to) noexcept nogil:
    """A logged action (packed by Batch._act): to in bits 0-55, seat 56-59, street 60-61,
    kind 62-63."""
    seat[0] = <int>((e >> 56) & 15)
    street[0] = <int>((e >> 60) & 3)
    kind[0] = <int>(e >> 62)
    to[0] = <int64_t>(e & ((1ULL << 56) - 1))


cdef bint _same_hand(const hd_hstate_t *a, const hd_hstate_t *b) noexcept nogil:
    """Whether two hand states hold the same values, field by field (not their padding)."""
    cdef size_t seats = HD_HAND_MAX_SEATS
    return (memcmp(a.stacks, b.stacks, seats * 8) == 0
            and memcmp(a.bets, b.bets, seats * 8) == 0
            and memcmp(a.committed, b.committed, seats * 8) == 0
            and memcmp(a.acted, b.acted, seats * 8) == 0
            and memcmp(a.start, b.start, seats * 8) == 0
            and memcmp(a.payout, b.payout, seats * 8) == 0
            and memcmp(a.ranks, b.ranks, seats * 4) == 0
            and memcmp(a.folded, b.folded, seats) == 0
            and memcmp(a.hole, b.hole, 2 * seats) == 0
            and memcmp(a.board, b.board, 5) == 0
            and a.cur == b.cur and a.inc == b.inc and a.full == b.full and a.dead == b.dead
            and a.rake == b.rake and a.n == b.n and a.button == b.button
            and a.sb_seat == b.sb_seat and a.bb_seat == b.bb_seat
            and a.first_dealt == b.first_dealt and a.street == b.street
            and a.actor == b.actor and a.raises == b.raises and a.aggr == b.aggr
            and a.live == b.live and a.nboard == b.nboard and a.over == b.over
            and a.showdown == b.showdown and a.error == b.error and a.unknown == b.unknown)


@cython.final  # no subclass: the per-table methods are called directly, not through a vtable
cdef class Batch:
    """N tables of one game stepped together (see :class:`holdem.vector.VectorGame`)."""

    cdef hd_rules_t rules
    cdef vtab_t *tabs
    cdef int64_t *kinds_buf    # the actions of the last check (check_columns, check_exact):
    cdef int64_t *tos_buf      # (kind, to) per table, played by the next run/share(None)
    cdef bint checked          # they were checked against the tables as they are now
    cdef Py_ssize_t checked_lo  # (tables checked_lo..checked_hi-1)
    cdef Py_ssize_t checked_hi
    cdef int64_t *cols_buf     # the columns of a step started by share_start with copy=True
    cdef uint8_t *hold_buf     # the hold flags of a step (copied: see _step_args)
    cdef readonly Py_ssize_t num_tables
    cdef readonly int players
    cdef readonly int num_cols
    cdef readonly int width
    cdef readonly bint session
    cdef uint64_t seed
    cdef int64_t stacks0[10]
    cdef int col_code[32]
    cdef int raise_order[32]   # the raise columns in duplicate priority (see _amounts)
    cdef int preset_cols       # PRESET_*: the layout is one of ActionLayout's presets
    cdef bint keep_first       # ActionLayout(keep="first"): a fraction above the all-in yields
    cdef int num_raise_cols
    cdef int fixed_cols[32]    # the other columns (fold, check/call)
    cdef int num_fixed
    cdef int64_t col_num[32]
    cdef int64_t col_den[32]
    cdef int64_t col_lim[32]   # (INT64_MAX // 4) // num of a fraction column (see _frac_to)
    cdef int col_shift[32]     # log2(den) when den is a power of two, else -1 (see _frac_to)
    cdef double inv_bb
    # a step shared by threads (share/share_start/assist): its tables are cut into lanes, one
    # a thread; each lane's word holds (end << 32) | its first table not yet taken, and
    # tables are taken from it in chunks (see _take_chunks); share_state.finished counts the
    # tables stepped
    cdef hd_share_t share_state
    cdef char lanes_pad[64]
    cdef hd_lane_t lanes[HD_LANES]
    cdef int64_t chunk
    cdef int64_t count         # tables in the shared step (read by a thread once it took some)
    cdef step_args_t shared
    cdef int64_t inflight      # tables of a shared step started and not yet finished (0: none)
    cdef object held           # the columns' buffer of that step
    cdef step_args_t out       # the output buffers bound by bind() (its input fields unused)
    cdef object out_refs       # the memoryviews that keep them alive (None: nothing bound)
    cdef bint busy             # a step, check or reset in progress (see _claim)
    cdef unsigned long user    # the thread of the last step, check or reset (0: none yet)
    cdef unsigned long claim_forks  # the process's forks when the batch was last claimed
    cdef bint finishing        # a thread is inside share_finish (another may not enter)
    cdef int64_t done_ns       # when the last table of the last shared step was stepped (0: none)
    cdef int64_t gap_ns        # from then to the start of this one

    def __cinit__(self):
        self.tabs = NULL
        self.kinds_buf = NULL
        self.tos_buf = NULL
        self.cols_buf = NULL
        self.hold_buf = NULL

    def __init__(self, tuple rules, Py_ssize_t num_tables, int players, tuple stacks,
                 uint64_t seed, bint session, list columns, list priority,
                 bint keep_first=False):
        cdef int k
        cdef hd_rules_t *g = &self.rules
        if self.tabs != NULL:  # the bound outputs and threads' pointers are sized for them
            raise InvalidConfigError("a Batch is initialised once: make a new one")
        if not 1 <= num_tables <= MAX_TABLES:
            raise InvalidConfigError(
                f"num_tables must be 1..{MAX_TABLES}, got {shown(num_tables)}")
        if not 2 <= players <= 10:
            raise InvalidConfigError(f"players must be 2..10 (R1), got {shown(players)}")
        if len(stacks) != players:
            raise InvalidConfigError(f"stacks has {len(stacks)} entries for {players} players")
        # (copies: an element's __index__ cannot change what is read next, unchecked)
        columns = list(columns)
        priority = [int(k) for k in list(priority)]
        if not 1 <= len(columns) <= MAX_COLS:
            raise InvalidConfigError(f"an action layout has 1..{MAX_COLS} columns")
        (g.structure, g.straddle, g.bb_ante, g.deal_from_bb, g.lift_heads_up, g.fold_free,
         cap, g.big_blind, g.small_blind, g.ante, sizes, rake) = rules
        # R27: a cap beyond 2**30 raises is never reached (each raise is one action)
        g.cap = cap if cap < HD_HAND_UNBOUNDED else HD_HAND_UNBOUNDED
        sizes = tuple(sizes)
        if len(sizes) != 4:
            raise InvalidConfigError(f"the game's bet sizes must be 4 (one a street), got "
                                     f"{excerpt(sizes)}")
        for k in range(4):
            g.sizes[k] = sizes[k]
        g.has_rake = rake is not None
        g.rake.num, g.rake.den, g.rake.cap, g.rake.no_flop_no_drop = (
            rake if rake is not None else (0, 1, HD_POTS_NO_CAP, 1))
        if hd_rules_check(g) != HD_HAND_OK:
            raise InvalidConfigError(f"the game's values are out of the engine's range: {rules}")
        if g.straddle and players < 3:
            raise InvalidConfigError("a straddle needs at least 3 players (R8)")
        for k in range(players):
            if not 1 <= stacks[k] <= (1 << 53):
                raise InvalidConfigError(
                    f"stack of seat {k} must be 1..2**53, got {shown(stacks[k])}")
            self.stacks0[k] = stacks[k]
        self.num_cols = len(columns)
        for k in range(self.num_cols):
            try:
                self.col_code[k], self.col_num[k], self.col_den[k] = columns[k]
            except (TypeError, ValueError, OverflowError):
                raise InvalidConfigError(
                    f"column {k}: {excerpt(columns[k])} is not (kind, numerator, "
                    f"denominator)") from None
            if not COL_FOLD <= self.col_code[k] <= COL_ALL_IN:
                raise InvalidConfigError(f"column {k}: unknown kind {self.col_code[k]}")
            # a pot fraction num/den in (0, 100] with den <= 1000, as ActionLayout checks (the
            # division by den in _frac_to, and the bound on what num multiplies, need it)
            if self.col_code[k] == COL_FRACTION and not (
                    1 <= self.col_den[k] <= 1000
                    and 1 <= self.col_num[k] <= 100 * self.col_den[k]):
                raise InvalidConfigError(
                    f"column {k}: the pot fraction {self.col_num[k]}/{self.col_den[k]} is not in "
                    f"(0, 100] with a denominator 1..1000")
            self.col_shift[k] = -1
            if self.col_den[k] > 0 and self.col_den[k] & (self.col_den[k] - 1) == 0:
                self.col_shift[k] = int(self.col_den[k]).bit_length() - 1
            self.col_lim[k] = (INT64_MAX // 4) // self.col_num[k] if self.col_num[k] > 0 \
                else INT64_MAX
        # the raise columns in duplicate priority: each exactly once
        self.num_raise_cols = 0
        raising = [k for k in range(self.num_cols)
                   if self.col_code[k] not in (COL_FOLD, COL_CHECK_CALL)]
        if sorted(priority) != raising:
            raise InvalidConfigError(f"priority {excerpt(priority)} is not an order of the raise "
                                     f"columns {excerpt(raising)}")
        for k in priority:
            self.raise_order[self.num_raise_cols] = k
            self.num_raise_cols += 1
        self.keep_first = keep_first and any([self.col_code[k] == COL_ALL_IN
                                              for k in range(self.num_cols)])
        # ActionLayout's presets, the layouts most batches play: their amounts have a compiled
        # path of their own (_amounts_preset)
        codes = [self.col_code[k] for k in range(self.num_cols)]
        fractions = [(self.col_num[k], self.col_den[k]) for k in range(self.num_cols)
                     if self.col_code[k] == COL_FRACTION]
        order = [self.raise_order[k] for k in range(self.num_raise_cols)]
        self.preset_cols = PRESET_NONE
        if (not self.keep_first and order == [5, 4, 2, 3] and fractions == [(1, 2), (1, 1)]
                and codes == [COL_FOLD, COL_CHECK_CALL, COL_FRACTION, COL_FRACTION,
                              COL_MIN_RAISE, COL_ALL_IN]):
            self.preset_cols = PRESET_DEFAULT
        elif (self.keep_first and order == [2, 3] and fractions == [(1, 1)]
                and codes == [COL_FOLD, COL_CHECK_CALL, COL_FRACTION, COL_ALL_IN]):
            self.preset_cols = PRESET_FCPA
        elif (self.keep_first and order == [2, 3, 4] and fractions == [(1, 2), (1, 1)]
                and codes == [COL_FOLD, COL_CHECK_CALL, COL_FRACTION, COL_FRACTION, COL_ALL_IN]):
            self.preset_cols = PRESET_FCHPA
        self.num_fixed = 0
        for k in range(self.num_cols):
            if self.col_code[k] in (COL_FOLD, COL_CHECK_CALL):
                self.fixed_cols[self.num_fixed] = k
                self.num_fixed += 1
        self.num_tables = num_tables
        self.players = players
        self.width = obs_width(players)
        self.seed = seed
        self.session = session
        self.inv_bb = 1.0 / <double>g.big_blind
        self.share_state.finished = 0
        for k in range(HD_LANES):
            self.lanes[k].next = 0  # tables 0..-1: no shared step in progress
        self.chunk = 1
        self._check_decision()
        PyMem_Free(self.tabs)  # (NULL unless __init__ is called again)
        PyMem_Free(self.kinds_buf)
        PyMem_Free(self.tos_buf)
        PyMem_Free(self.cols_buf)
        PyMem_Free(self.hold_buf)
        self.checked = False
        self.tabs = <vtab_t *>PyMem_Calloc(<size_t>num_tables, sizeof(vtab_t))
        self.kinds_buf = <int64_t *>PyMem_Calloc(<size_t>num_tables, sizeof(int64_t))
        self.tos_buf = <int64_t *>PyMem_Calloc(<size_t>num_tables, sizeof(int64_t))
        self.cols_buf = <int64_t *>PyMem_Calloc(<size_t>num_tables, sizeof(int64_t))
        self.hold_buf = <uint8_t *>PyMem_Calloc(<size_t>num_tables, sizeof(uint8_t))
        if (self.tabs == NULL or self.kinds_buf == NULL or self.tos_buf == NULL
                or self.cols_buf == NULL or self.hold_buf == NULL):
            raise MemoryError(f"no memory for {num_tables} tables")

    cdef _check_decision(self):
        """Refuse starting stacks with which a hand can end before anybody acts (then a table
        would deal forever): whether it does depends on the stacks and the button only."""
        cdef hd_hstate_t h
        cdef uint8_t cards[25]
        cdef int k, b
        for k in range(25):
            cards[k] = k
        for b in range(self.players):
            hd_hs_start(&self.rules, &h, self.players, b, self.stacks0, cards)
            if h.over:
                raise InvalidConfigError(
                    f"stacks {tuple([self.stacks0[k] for k in range(self.players)])} are too "
                    f"short: with the button on seat {b} nobody acts (every seat is all in from "
                    f"the forced bets, or all but one, which covers them: R20)")

    def __dealloc__(self):
        PyMem_Free(self.tabs)
        PyMem_Free(self.kinds_buf)
        PyMem_Free(self.tos_buf)
        PyMem_Free(self.cols_buf)
        PyMem_Free(self.hold_buf)

    def copy_from(self, Batch src not None):
        """Make every table of this batch what it is in ``src``, a batch made with the same
        arguments: its tables' C state and its bound outputs are copied (together: another
        thread cannot step ``src`` in between). Neither batch may be in use: a step in
        flight must be finished first."""
        if src is self:
            raise InvalidConfigError("a batch cannot be copied onto itself")
        if (src.num_tables != self.num_tables or src.players != self.players
                or src.num_cols != self.num_cols or src.width != self.width
                or src.seed != self.seed or src.session != self.session
                or memcmp(src.stacks0, self.stacks0, sizeof(self.stacks0)) != 0
                or memcmp(src.col_code, self.col_code, sizeof(self.col_code)) != 0
                or memcmp(src.col_num, self.col_num, sizeof(self.col_num)) != 0
                or memcmp(src.col_den, self.col_den, sizeof(self.col_den)) != 0):
            raise InvalidConfigError("the batches were not made with the same arguments")
        if src.tabs == NULL or self.tabs == NULL:
            raise InvalidConfigError("a batch is not initialised")
        if src.out_refs is None or self.out_refs is None or (
                (src.out.final == NULL) != (self.out.final == NULL)):
            raise InvalidArrayError("both batches need output buffers of the same kinds bound")
        src._check_free()
        if src.inflight:
            raise IllegalActionError("the batch has a step in flight: finish it first")
        self._claim()
        try:
            # under the GIL: no thread can start a step of src meanwhile (a step needs the
            # GIL to start; src is free, so no worker is stepping it)
            memcpy(self.tabs, src.tabs, <size_t>self.num_tables * sizeof(vtab_t))
            self._copy_outputs(src)
            self.checked = False
        finally:
            self.busy = False

    cdef void _copy_outputs(self, Batch src) noexcept:
        """Copy src's bound outputs onto this batch's (both bound, of the same shapes)."""
        cdef size_t t = <size_t>self.num_tables, rows = t * <size_t>self.width
        memcpy(self.out.obs, src.out.obs, rows * sizeof(float))
        if self.out.final != NULL:
            memcpy(self.out.final, src.out.final, rows * sizeof(float))
        memcpy(self.out.mask, src.out.mask, t * <size_t>self.num_cols)
        memcpy(self.out.actor, src.out.actor, t * sizeof(int32_t))
        memcpy(self.out.payoffs, src.out.payoffs, t * <size_t>self.players * sizeof(int64_t))
        memcpy(self.out.rewards, src.out.rewards, t * <size_t>self.players * sizeof(float))
        memcpy(self.out.done, src.out.done, t)

    @staticmethod
    def table_format():
        """What the bytes of :meth:`dump_tables` depend on besides the batch's arguments: the
        format version, the byte order and the table struct's size and layout."""
        cdef vtab_t t
        return (2, sys.byteorder, sizeof(vtab_t), sizeof(hd_hstate_t),
                <size_t>(<char *>&t.h - <char *>&t), <size_t>(<char *>&t.log - <char *>&t),
                LOG_CAP)

    def dump_tables(self):
        """Every table's C state, as bytes (:meth:`load_tables` restores them)."""
        if self.tabs == NULL:
            raise InvalidConfigError("a batch is not initialised")
        self._check_free()
        if self.inflight:
            raise IllegalActionError("the batch has a step in flight: finish it first")
        return (<char *>self.tabs)[:<size_t>self.num_tables * sizeof(vtab_t)]

    def dump(self):
        """(:meth:`dump_tables`, the bound payoffs, rewards, done flags and final rows if
        bound, as bytes), read together: another thread cannot step the batch in between."""
        cdef size_t t = <size_t>self.num_tables, seats = t * <size_t>self.players
        if self.out_refs is None:
            raise InvalidArrayError("no output buffers: call bind() first")
        tables = self.dump_tables()  # (checks the batch is free; nothing here releases the GIL)
        outputs = ((<char *>self.out.payoffs)[:seats * sizeof(int64_t)],
                   (<char *>self.out.rewards)[:seats * sizeof(float)],
                   (<char *>self.out.done)[:t])
        if self.out.final != NULL:
            outputs += ((<char *>self.out.final)[:t * <size_t>self.width * sizeof(float)],)
        return tables, outputs

    def load_tables(self, const uint8_t[::1] data not None):
        """Make every table what ``data`` (:meth:`dump_tables` of a batch made with the same
        arguments) says, after checking each one: its hand must be one this batch deals
        (the seed's cards, the button of its hand number) in a state the engine can reach,
        and, when its actions are kept, exactly the state they lead to; the last hand's
        record must replay to its end. Then every observation row, mask and actor is
        written again. Raises InvalidStateError (nothing changed) otherwise."""
        cdef Py_ssize_t i
        cdef size_t size = <size_t>self.num_tables * sizeof(vtab_t)
        cdef vtab_t *tmp
        cdef vtab_t *t
        cdef step_args_t a = self.out
        if self.tabs == NULL:
            raise InvalidConfigError("a batch is not initialised")
        if self.out_refs is None:
            raise InvalidArrayError("no output buffers: call bind() first")
        if <size_t>data.shape[0] != size:
            raise InvalidStateError(
                f"not a valid pickled VectorGame: {data.shape[0]} bytes of tables, "
                f"{size} expected")
        self._claim()
        try:
            tmp = <vtab_t *>PyMem_Malloc(size)
            if tmp == NULL:
                raise MemoryError(f"no memory for {self.num_tables} tables")
            try:
                memcpy(tmp, &data[0], size)  # (data need not be aligned)
                for i in range(self.num_tables):
                    reason = self._invalid(i, &tmp[i])
                    if reason is not None:
                        raise InvalidStateError(
                            f"not a valid pickled VectorGame: table {i}: {reason}")
                memcpy(self.tabs, tmp, size)
            finally:
                PyMem_Free(tmp)
            self.checked = False
            for i in range(self.num_tables):
                t = &self.tabs[i]
                t.pot = hd_hs_pot(&t.h)  # what _act keeps, recomputed rather than read
                t.nhot = 0  # the row is zeroed and written whole
                memset(a.obs + i * self.width, 0, self.width * sizeof(float))
                self._write(i, a.obs + i * self.width, a.mask + i * self.num_cols,
                            a.actor + i, -1, self.players)
        finally:
            self.busy = False

    cdef object _invalid(self, Py_ssize_t i, vtab_t *t):
        """Why table i's state ``t`` (read from a dump) is not one this batch can hold, or
        None. Every field a step reads as an index or a count is checked; the rest are
        recomputed by load_tables (pot, the row's one-hot columns, the cached amounts)."""
        cdef const hd_hstate_t *h = &t.h
        cdef hd_hstate_t r
        cdef uint8_t cards[25]
        cdef int32_t nraise[4]
        cdef int64_t added[4]
        cdef int64_t st[10]
        cdef int n = self.players, k
        cdef int64_t hands, pot
        cdef uint64_t seen = 0
        if not 1 <= t.hand_no <= (1LL << 62):
            return f"hand number {t.hand_no} (the next hand's) is out of range"
        if not 0 <= t.voided < t.hand_no:
            return f"{t.voided} voided hands of {t.hand_no}"
        if t.tseed != hd_seed_child(self.seed, <uint64_t>i):
            return "its seed is not this batch's (another seed or another table)"
        if not (0 <= t.nlog <= LOG_CAP or t.nlog == LOG_FULL):
            return f"{t.nlog} actions logged"
        if not (t.nlast == -1 or 1 <= t.nlast <= LOG_CAP or t.nlast == LOG_FULL):
            return f"{t.nlast} actions logged in the last hand"
        hands = t.hand_no - 1 - t.voided  # hands finished
        if (t.nlast != -1 and hands < 1) or (t.nlast == -1 and hands > 0 and not self.session):
            return f"a last hand ended by an action does not match {hands} hands finished"
        for k in range(n):  # a hand moves a seat's high word by at most one (_add_total)
            if not -hands <= t.total_hi[k] <= hands:
                return f"seat {k}'s payoffs summed are out of range for {hands} hands"
        # the sums themselves (128 bits, as Python ints): chips are conserved, the rake aside,
        # and no hand moves a seat by more than the chips at the table (a session's stacks
        # are at most 2**53 each, else refilled: _stacks)
        totals = [(<object>t.total_hi[k] << 64) + <object>t.total[k] for k in range(n)]
        net = sum(totals)
        if net > 0 or (net != 0 and not self.rules.has_rake):
            return (f"its seats' payoffs summed add up to {net}, not 0"
                    + (" less the rake" if self.rules.has_rake else ""))
        most = max([self.stacks0[k] for k in range(n)])
        table = n * max(most, MAX_STACK) if self.session else sum(
            [self.stacks0[k] for k in range(n)])
        for k in range(n):
            if abs(totals[k]) > hands * table:
                return f"seat {k}'s payoffs summed, {totals[k]}, are out of reach in {hands} hands"
        if t.cur_log not in (0, 1) or t.paid not in (0, 1):
            return "its log or payment flags are not 0 or 1"
        if h.n != n or h.over or h.unknown or h.showdown or h.error:
            return "its hand is not one in play"
        if hd_hs_consistent(&self.rules, h) != HD_HAND_OK:
            return "its hand is not a state the engine can reach (chips, seats or cards)"
        if h.button != (t.hand_no - 1) % n:
            return f"the button is on seat {h.button}, hand {t.hand_no - 1} has it on seat " \
                   f"{(t.hand_no - 1) % n}"
        for k in range(HD_HAND_MAX_SEATS):
            if h.ranks[k] != HD_POTS_NO_RANK or h.payout[k] != 0:
                return "its hand has a showdown or payouts before its end"
        for k in range(2 * n, 2 * HD_HAND_MAX_SEATS):
            if h.hole[k] != 0:
                return "cards dealt to a seat that is not at the table"
        self._deal(t.tseed, t.hand_no - 1, cards)
        if memcmp(h.hole, cards, 2 * n) != 0 or memcmp(h.board, cards + 2 * n, 5) != 0:
            return f"its cards are not the ones the seed deals for hand {t.hand_no - 1}"
        # the hand started from the stacks carried (in a session: what abandon deals from) or
        # from the starting stacks (every seat refilled; out of a session, every hand)
        self._stacks(t.carry, 0, st)
        if memcmp(st, h.start, n * sizeof(int64_t)) != 0:
            self._stacks(NULL, 0, st)
            if memcmp(st, h.start, n * sizeof(int64_t)) != 0:
                return "its hand did not start from the stacks carried over or the starting ones"
        if t.nlog <= LOG_CAP:
            # the hand replayed from its start must be the state held, summaries included
            if self._replay(&r, h.button, h.start, cards, t.log[t.cur_log], t.nlog,
                            nraise, added) != 0 or r.over:
                return "its actions are not legal in its hand"
            if not _same_hand(&r, h):
                return "its hand is not the state its actions lead to"
            if memcmp(nraise, t.nraise, sizeof(nraise)) or memcmp(added, t.added, sizeof(added)):
                return "its betting summary is not the one its actions give"
        else:
            # no log to replay: what its start fixes (the blinds' seats, the forced bets) and
            # what every action keeps (no bet above the one to call, which with the raise
            # increment never drops; a raise adds chips; actions add the pot beyond the forced
            # bets; a street of 2**30 raises is out of reach, the int32 count needs room)
            if self._replay(&r, h.button, h.start, cards, NULL, 0, nraise, added) != 0 or r.over:
                return "its hand does not start as its state says"
            if (h.sb_seat != r.sb_seat or h.bb_seat != r.bb_seat or h.first_dealt != r.first_dealt
                    or h.cur < (r.cur if h.street == 0 else 0) or h.full > h.cur
                    or h.inc < (r.inc if h.street == 0 else self.rules.big_blind)):
                return "its blinds or betting levels are not ones its hand can have"
            for k in range(n):
                if h.bets[k] > h.cur or h.acted[k] > h.cur:
                    return f"seat {k} has bet more than the bet to call"
            pot = hd_hs_pot(&r)
            for k in range(4):
                if (not 0 <= t.added[k] <= hd_hs_pot(h) or (k > h.street and t.added[k] != 0)
                        or not 0 <= t.nraise[k] <= min(t.added[k], INT32_MAX)):
                    return "its betting summary is not one its hand can have"
                pot += t.added[k]
            if pot != hd_hs_pot(h):
                return "its betting summary does not add up to its pot"
        if t.nlast != -1:
            if not 0 <= t.last_button < n:
                return f"the last hand's button is seat {t.last_button}"
            for k in range(2 * n + 5):
                if t.last_cards[k] >= 52 or (seen >> t.last_cards[k]) & 1:
                    return "the last hand's cards are not distinct cards"
                seen |= 1ULL << t.last_cards[k]
            self._stacks(NULL, 0, st)
            if not self.session and memcmp(st, t.last_start, n * sizeof(int64_t)) != 0:
                return "the last hand did not start from the starting stacks"
            if t.nlast <= LOG_CAP:  # it must replay to its end, at its last action
                if (self._replay(&r, t.last_button, t.last_start, t.last_cards,
                                 t.log[1 - t.cur_log], t.nlast, nraise, added) != 0
                        or not r.over):
                    return "the last hand's actions are not a legal hand to its end"
                if memcmp(r.stacks, t.last_final, n * sizeof(int64_t)) != 0:
                    return "the last hand's final stacks are not the ones its actions give"
            else:
                pot = 0  # the chips at the table: none created (rake may take some)
                for k in range(n):
                    if not 1 <= t.last_start[k] <= MAX_STACK:
                        return "the last hand's stacks are out of range"
                    if not 0 <= t.last_final[k] <= MAX_STACK * n:
                        return "the last hand's final stacks are out of range"
                    pot += t.last_start[k] - t.last_final[k]
                if pot < 0:
                    return "the last hand's final stacks hold more chips than it started with"
        return None

    cdef int _replay(self, hd_hstate_t *r, int button, const int64_t *stacks,
                     const uint8_t *cards, const uint64_t *log, int count, int32_t *nraise,
                     int64_t *added):
        """Start a hand (checked) and play ``count`` logged actions on it, each checked (the
        seat and street logged must be the actor's, the action legal, the hand not over
        before the last); nraise/added get the per-street summaries _act keeps. 0 or -1."""
        cdef int k, kind, seat, street
        cdef int64_t to, before
        for k in range(4):
            nraise[k] = 0
            added[k] = 0
        memset(r, 0, sizeof(hd_hstate_t))
        if hd_hs_start(&self.rules, r, self.players, button, stacks, cards) != HD_HAND_OK:
            return -1
        for k in range(count):
            _unpack(log[k], &seat, &street, &kind, &to)
            if r.over or seat != r.actor or street != r.street or kind > HD_BET_RAISE:
                return -1
            if kind != HD_BET_RAISE and to != 0:
                return -1
            if hd_hs_check(&self.rules, r, kind, to) != HD_HAND_OK:
                return -1
            before = hd_hs_pot(r)
            hd_hs_act(&self.rules, r, kind, to)
            if kind == HD_BET_RAISE:
                nraise[street] += 1
            if not r.over:
                added[street] += hd_hs_pot(r) - before
        return 0

    @staticmethod
    def table_bytes():
        """Bytes of C state per table (its struct and its entries of the step buffers)."""
        return sizeof(vtab_t) + 3 * sizeof(int64_t) + sizeof(uint8_t)

    # ------------------------------------------------------------------ per table, nogil
    cdef void _deal(self, uint64_t tseed, int64_t hand, uint8_t *cards) noexcept nogil:
        """Hand ``hand`` of the table whose seed is ``tseed`` (hd_seed_child(seed, i) for table
        i): hole cards by seat, then the board (2n + 5 cards). They depend only on (seed, i,
        hand); the button of hand h is seat h % n."""
        cdef hd_deck_t deck
        cdef int n = self.players, button = <int>(hand % n), bb, first
        bb = (button + 1) % n if n == 2 else (button + 2) % n
        first = (bb + 1) % n if self.rules.deal_from_bb else (button + 1) % n
        # deal position p -> seat first + p (R12)
        hd_deal_seats(&deck, hd_seed_child(tseed, <uint64_t>hand), n, first, cards)

    def cards(self, Py_ssize_t i, int64_t hand):
        """Table i's cards of hand number ``hand``: (hole cards by seat, board)."""
        cdef uint8_t cards[25]
        cdef int k, n = self.players
        self._index(i, False)  # the cards come from the seed alone
        if hand < 0:
            raise InvalidTableError(f"hand {hand} is out of range (hands are numbered from 0)")
        self._deal(hd_seed_child(self.seed, <uint64_t>i), hand, cards)
        return (tuple([(cards[2 * k], cards[2 * k + 1]) for k in range(n)]),
                tuple([cards[2 * n + k] for k in range(5)]))

    def next_stacks(self, tuple carry, int skipped):
        """The stacks the next hand starts from (``_stacks``: the session rule) after a hand
        that left ``carry`` (one int per seat), ``skipped`` hands in a row having been dealt
        out before it without a decision (0 after a hand somebody acted in)."""
        cdef int64_t c[10]
        cdef int64_t st[10]
        cdef int k
        if len(carry) != self.players or skipped < 0:
            raise InvalidConfigError(f"carry needs {self.players} stacks and skipped >= 0")
        for k in range(self.players):
            c[k] = carry[k]
        self._stacks(c, skipped, st)
        return tuple([st[k] for k in range(self.players)])

    cdef inline void _stacks(self, const int64_t *carry, int skipped,
                             int64_t *st) noexcept nogil:
        """The stacks a hand starts from: in a session the ones carried over (``carry``; NULL
        before the first hand), a busted seat refilled, and every seat refilled after 64
        hands in a row that ended before any decision or when a stack carried over is above
        2**53 chips (a seat's limit); else the starting stacks."""
        cdef int k
        cdef bint carried = self.session and carry != NULL and skipped < 64
        if carried:
            for k in range(self.players):
                if carry[k] > MAX_STACK:
                    carried = False
        for k in range(self.players):
            if carried and carry[k] > 0:
                st[k] = carry[k]
            else:
                st[k] = self.stacks0[k]

    cdef void _new_hand(self, Py_ssize_t i, int64_t *payoffs, float *rewards,
                        bint void) noexcept nogil:
        """Start table i's next hand (auto-reset). A session hand that ends before any
        decision (every seat all in from the forced bets, or all but one, covering them) is
        dealt out at once and its payoffs are added to ``payoffs``/``rewards`` (when given);
        after 64 such hands in a row every
        seat restarts from its starting stack (which always leaves a decision: checked when
        the batch is made), so the loop ends. ``void`` (abandon): such a hand is voided
        instead (no chips move, it is not counted) and the next is dealt from the same
        stacks; whether a hand leaves a decision depends on the stacks and the button only,
        and the hand voided before had one, so a hand with one comes within a turn of the
        button."""
        cdef vtab_t *t = &self.tabs[i]
        cdef uint8_t cards[25]
        cdef int64_t st[10]
        cdef int n = self.players, k, button, skipped = 0
        while True:
            button = <int>(t.hand_no % n)
            self._stacks(t.carry if t.hand_no > 0 else NULL, skipped, st)
            self._deal(t.tseed, t.hand_no, cards)
            # trusted: the rules, seats and button were checked when the batch was made, the
            # cards come from a deck; the stacks are 1..2**53 (_stacks)
            if hd_hs_start_trusted(&self.rules, &t.h, n, button, st, cards) != HD_HAND_OK:
                self._stacks(NULL, 0, st)  # not reached: the starting stacks were checked
                hd_hs_start_trusted(&self.rules, &t.h, n, button, st, cards)
            t.nlog = 0
            t.hand_no += 1
            for k in range(4):
                t.added[k] = 0
                t.nraise[k] = 0
            if not t.h.over:
                t.pot = hd_hs_pot(&t.h)  # the first decision's (_write reads it)
                return
            if void:  # carry stays: the next hand starts from the same stacks
                t.voided += 1
                continue
            skipped += 1
            for k in range(n):
                t.carry[k] = t.h.stacks[k]
                _add_total(t, k, t.h.stacks[k] - t.h.start[k])
                if payoffs != NULL:
                    payoffs[k] += t.h.stacks[k] - t.h.start[k]
                    rewards[k] = <float>(payoffs[k] * self.inv_bb)

    cdef int _map(self, Py_ssize_t i, int64_t col, int64_t *kind, int64_t *to) noexcept nogil:
        """Discrete column -> (kind, to) for table i; 0 if legal and not a duplicate, else -1."""
        cdef int c, code
        cdef vtab_t *t = &self.tabs[i]
        if col < 0 or col >= self.num_cols:
            return -1
        # the legal set and amounts were cached by _write when this decision was shown
        c = <int>col
        code = self.col_code[c]
        if code == COL_FOLD:
            kind[0] = HD_FOLD
            to[0] = 0
            return 0 if t.can_fold else -1
        if code == COL_CHECK_CALL:
            kind[0] = HD_CHECK_CALL
            to[0] = 0
            return 0
        if t.amt[c] < 0:
            return -1
        kind[0] = HD_BET_RAISE
        to[0] = t.amt[c]
        return 0

    cdef inline void _amounts(self, const hd_hstate_t *h, const hd_legal_t *la, int64_t pot,
                              int64_t *amounts, uint8_t *mask) noexcept nogil:
        """Bet/raise amount per column (-1: not a raise column, not legal or a duplicate),
        and the legal mask per column. Of two duplicates the one earlier in ``raise_order``
        (the layout's ``keep``) is kept; with ``keep_first`` a fraction clipped down to an
        all-in is the all-in column's duplicate. ``pot`` is hd_hs_pot(h)."""
        cdef int c, j, m, code, nr = self.num_raise_cols, nseen = 0
        cdef int64_t a, owe, base, total, hi
        cdef int64_t seen[32]   # the distinct amounts offered so far, in priority order
        for j in range(self.num_fixed):
            c = self.fixed_cols[j]
            amounts[c] = -1
            mask[c] = la.can_fold if self.col_code[c] == COL_FOLD else 1
        if not la.can_raise:
            for j in range(nr):
                c = self.raise_order[j]
                amounts[c] = -1
                mask[c] = 0
            return
        total = h.bets[la.seat] + h.stacks[la.seat]
        owe = h.cur - h.bets[la.seat]
        base = pot + (owe if owe > 0 else 0)  # the pot after the call
        # keep_first: a fraction above an all-in is not clipped but yields to the all-in
        hi = INT64_MAX if self.keep_first and la.max_to == total else la.max_to
        for j in range(nr):
            c = self.raise_order[j]
            code = self.col_code[c]
            if code == COL_FRACTION:
                a = _frac_to(la.min_to, hi, h.cur, base, self.col_num[c], self.col_den[c],
                             self.col_shift[c], self.col_lim[c])
                if a > la.max_to:
                    a = -1
            elif code == COL_MIN_RAISE:
                a = la.min_to
            else:  # COL_ALL_IN
                a = total if la.max_to == total else -1
            if a >= 0:
                for m in range(nseen):
                    if seen[m] == a:
                        a = -1
                        break
                else:
                    seen[nseen] = a
                    nseen += 1
            amounts[c] = a
            mask[c] = a >= 0

    cdef inline void _amounts_preset(self, const hd_hstate_t *h, const hd_legal_t *la,
                                     int64_t pot, int64_t *amounts,
                                     uint8_t *mask) noexcept nogil:
        """_amounts for ActionLayout's presets (self.preset_cols): the same amounts and mask,
        with the columns' kinds, fractions and duplicate priority constants. The loop of
        _amounts over them, its switch and its search of the amounts seen take about 100
        instructions a decision more (11% of the step at 4,096 6-max tables, default layout).

        default: fold, check/call, half pot, pot, min-raise, all-in; of two duplicates the
        one first in all-in, min-raise, half pot, pot. fcpa and fchpa (fold, check/call,
        [half pot,] pot, all-in): the first column of two duplicates, and a fraction above
        an all-in is masked, not clipped to it (keep="first")."""
        cdef int64_t a2, a3, a4, a5, owe, base, total, hi
        cdef int c, last = self.num_cols - 1
        amounts[0] = -1
        amounts[1] = -1
        mask[0] = la.can_fold
        mask[1] = 1
        if not la.can_raise:
            for c in range(2, last + 1):
                amounts[c] = -1
                mask[c] = 0
            return
        total = h.bets[la.seat] + h.stacks[la.seat]
        owe = h.cur - h.bets[la.seat]
        base = pot + (owe if owe > 0 else 0)
        a5 = total if la.max_to == total else -1  # the all-in column's amount
        if self.preset_cols == PRESET_DEFAULT:
            a4 = la.min_to
            if a4 == a5:
                a4 = -1
            a2 = _frac_to(la.min_to, la.max_to, h.cur, base, 1, 2, 1, INT64_MAX // 4)
            if a2 == a5 or a2 == a4:
                a2 = -1
            a3 = _frac_to(la.min_to, la.max_to, h.cur, base, 1, 1, 0, INT64_MAX // 4)
            if a3 == a5 or a3 == a4 or a3 == a2:
                a3 = -1
            amounts[4] = a4
            mask[4] = a4 >= 0
        else:  # fcpa, fchpa: a fraction may reach past an all-in, then it is masked
            hi = INT64_MAX if la.max_to == total else la.max_to
            a2 = -1
            if self.preset_cols == PRESET_FCHPA:
                a2 = _frac_to(la.min_to, hi, h.cur, base, 1, 2, 1, INT64_MAX // 4)
                if a2 > la.max_to:
                    a2 = -1
            a3 = _frac_to(la.min_to, hi, h.cur, base, 1, 1, 0, INT64_MAX // 4)
            if a3 > la.max_to or a3 == a2:
                a3 = -1
            if a5 == a2 or a5 == a3:
                a5 = -1
            if self.preset_cols == PRESET_FCPA:  # its pot column is column 2
                a2 = a3
                a3 = -1
        amounts[2] = a2
        mask[2] = a2 >= 0
        if self.preset_cols != PRESET_FCPA:
            amounts[3] = a3
            mask[3] = a3 >= 0
        amounts[last] = a5
        mask[last] = a5 >= 0

    cdef inline void _write(self, Py_ssize_t i, float *obs, uint8_t *mask, int32_t *actor,
                            int moved, const int n) noexcept nogil:
        """Table i's observation row (relative to its actor), legal mask row and actor. The
        row must be the one the last _write (or reset, which zeroes it) filled: only the
        one-hot columns set then are cleared (``t.hot``), every other column is written.

        ``moved`` >= 0 (from _act): the last action was seat ``moved``'s, the actor of the
        last row, and changed no other seat, street or board. Then the seat blocks of the
        last row are turned to the new actor and only ``moved``'s is computed again (with
        this street's summary and the one-hot columns that depend on the actor); -1: the
        whole row is written. ``n`` is self.players (a constant where _span_n inlines it)."""
        cdef vtab_t *t = &self.tabs[i]
        cdef hd_hstate_t *h = &t.h
        cdef hd_legal_t la
        cdef int a = h.actor, s, p, k, c, d, to_act = 0, nhot
        cdef uint16_t hot[10]
        cdef float twice[20 * SEAT_COLS]
        cdef float pos
        cdef float *o
        cdef double ib = self.inv_bb
        cdef int64_t pot = t.pot  # summed where h last moved (_act, _new_hand)
        hd_hs_legal_inline(&self.rules, h, &la)
        actor[0] = a
        # mask (and the cache _map reads)
        if self.preset_cols != PRESET_NONE:
            self._amounts_preset(h, &la, pot, t.amt, mask)
        else:
            self._amounts(h, &la, pot, t.amt, mask)
        t.can_fold = la.can_fold
        p = a - h.button
        if p < 0:
            p += n
        o = obs + O_POSITION + n  # the seat blocks, from the actor clockwise
        k = O_POSITION + n + SEAT_COLS * n  # the global columns
        if moved >= 0:
            # one-hot: the street and the board stay; the hole cards and position follow a
            obs[t.hot[0]] = 0.0
            obs[t.hot[1]] = 0.0
            obs[t.hot[3]] = 0.0
            t.hot[0] = O_HOLE + h.hole[2 * a]
            t.hot[1] = O_HOLE + h.hole[2 * a + 1]
            t.hot[3] = O_POSITION + p
            obs[t.hot[0]] = 1.0
            obs[t.hot[1]] = 1.0
            obs[t.hot[3]] = 1.0
            # the last row's blocks start at moved's (its position column stays with it): the
            # row turns left by d blocks (a's in the last row), blocks 0..d-1 kept aside
            d = a - moved  # 1..n (n: a == moved, the row turns by a whole turn)
            if d <= 0:
                d += n
            to_act = <int>obs[k + 6] - (o[4] == 0.0 and o[1] > 0.0)  # moved's block: first
            if d == 1:  # the next seat acts (most decisions): the blocks move up by one
                pos = o[0]  # moved's position column goes with it, to the last block
                memmove(o, o + SEAT_COLS, (n - 1) * SEAT_COLS * sizeof(float))
                o[(n - 1) * SEAT_COLS] = pos
            elif _fixed_seats(n):  # the blocks twice over, then n of them from block d
                memcpy(twice, o, n * SEAT_COLS * sizeof(float))
                memcpy(twice + n * SEAT_COLS, o, n * SEAT_COLS * sizeof(float))
                memcpy(o, twice + d * SEAT_COLS, n * SEAT_COLS * sizeof(float))
            else:  # blocks 0..d-1 aside, d..n-1 down to 0, then 0..d-1 after them
                _copy_blocks(twice, o, d)
                _copy_blocks(o, o + d * SEAT_COLS, n - d)
                _copy_blocks(o + (n - d) * SEAT_COLS, twice, d)
            to_act += _seat_block(o + (n - d) * SEAT_COLS, h, moved, h.stacks[moved], ib)
        else:
            # observation: the one-hot columns (cards, street, position) ...
            for c in range(t.nhot):
                obs[t.hot[c]] = 0.0
            hot[0] = O_HOLE + h.hole[2 * a]
            hot[1] = O_HOLE + h.hole[2 * a + 1]
            hot[2] = O_STREET + h.street
            hot[3] = O_POSITION + p
            nhot = 4
            if h.nboard >= 3:
                hot[4] = O_FLOP + h.board[0]
                hot[5] = O_FLOP + h.board[1]
                hot[6] = O_FLOP + h.board[2]
                nhot = 7
                if h.nboard >= 4:
                    hot[7] = O_TURN + h.board[3]
                    nhot = 8
                    if h.nboard >= 5:
                        hot[8] = O_RIVER + h.board[4]
                        nhot = 9
            for c in range(nhot):
                obs[hot[c]] = 1.0
            for c in range(nhot, 10):
                hot[c] = 0  # the entries not in use: no stack bytes in the table (and its pickle)
            memcpy(t.hot, hot, sizeof(hot))
            t.nhot = nhot
            # ... then the seats from the actor clockwise (s; p its distance from the button)
            s = a
            for _ in range(n):
                o[0] = <float>p
                to_act += _seat_block(o, h, s, h.stacks[s], ib)
                o += SEAT_COLS
                s += 1
                if s == n:
                    s = 0
                p += 1
                if p == n:
                    p = 0
        obs[k] = pot * ib
        obs[k + 1] = la.call * ib
        obs[k + 2] = la.min_to * ib if la.can_raise else 0.0
        obs[k + 3] = la.max_to * ib if la.can_raise else 0.0
        obs[k + 4] = h.cur * ib
        obs[k + 5] = h.live
        obs[k + 6] = to_act
        k += GLOBAL_COLS
        if moved >= 0:  # only this street's summary moved
            s = h.street
            obs[k + 2 * s] = t.nraise[s]
            obs[k + 2 * s + 1] = t.added[s] * ib
        else:
            for s in range(4):
                obs[k + 2 * s] = t.nraise[s]
                obs[k + 2 * s + 1] = t.added[s] * ib

    cdef inline int _act(self, Py_ssize_t i, int kind, int64_t to, int64_t *payoffs,
                         float *rewards, uint8_t *done, const int n) noexcept nogil:
        """Apply (kind, to) on table i; when its hand ends, record the payoffs and deal the
        next hand. Returns the seat that acted when the action moved no other seat (the hand
        and the street go on: _write may then update its row from the last one), else -1."""
        cdef vtab_t *t = &self.tabs[i]
        cdef hd_hstate_t *h = &t.h
        cdef int street = h.street, seat = h.actor, k
        cdef int64_t before = t.pot  # this decision's pot
        cdef int64_t put = h.committed[seat] if 0 <= seat < n else 0  # seat's chips in it
        # the log: to in bits 0-55, seat 56-59, street 60-61, kind 62-63
        if t.nlog < LOG_CAP:
            t.log[t.cur_log][t.nlog] = (
                <uint64_t>(to if kind == HD_BET_RAISE else 0) & ((1ULL << 56) - 1)
                | (<uint64_t>h.actor << 56) | (<uint64_t>street << 60)
                | (<uint64_t>kind << 62))
            t.nlog += 1
        else:
            t.nlog = LOG_FULL
        hd_hs_act(&self.rules, h, kind, to)
        if kind == HD_BET_RAISE and t.nraise[street] < INT32_MAX:  # saturates (2**31 raises)
            t.nraise[street] += 1
        if not h.over:
            # the next decision's (_write reads it): on the same street only the seat's chips
            # moved (closing a street may give an uncalled bet back to another seat)
            if h.street == street:
                t.pot = before + (h.committed[seat] - put if 0 <= seat < n else 0)
            else:
                t.pot = hd_hs_pot(h)
            t.added[street] += t.pot - before
            done[0] = 0
            if t.paid:
                for k in range(n):
                    rewards[k] = 0.0
                t.paid = 0
            # on the same street an action changes only the actor's seat; closing a street
            # may give an uncalled bet back to another seat and clears every bet
            return seat if h.street == street else -1
        done[0] = 1
        t.paid = 1
        t.nlast = t.nlog
        t.last_button = h.button
        t.cur_log = 1 - t.cur_log  # this hand's log becomes the last hand's
        memcpy(t.last_cards, h.hole, 2 * n)
        memcpy(t.last_cards + 2 * n, h.board, 5)
        for k in range(n):
            t.last_start[k] = h.start[k]
            t.last_final[k] = h.stacks[k]
        for k in range(n):
            payoffs[k] = h.stacks[k] - h.start[k]
            rewards[k] = <float>(payoffs[k] * self.inv_bb)
            t.carry[k] = h.stacks[k]
            _add_total(t, k, payoffs[k])
        self._new_hand(i, payoffs, rewards, False)
        return -1

    cdef inline void _prefetch_hot(self, Py_ssize_t i, float *obs) noexcept nogil:
        """Ask for the lines of table i's observation row that hold the one-hot columns its
        last _write set (the next clears them; the board's stay on the same lines). Its
        struct was asked for earlier (_prefetch), so reading t.hot does not wait."""
        cdef const vtab_t *t = &self.tabs[i]
        cdef const float *row = obs + i * self.width
        cdef int k
        for k in range(t.nhot):
            hd_prefetch(row + t.hot[k])

    cdef inline void _prefetch(self, Py_ssize_t i, float *obs) noexcept nogil:
        """Ask for the cache lines a decision on table i touches: the head of its struct (up
        to h.ranks), the first entries of amt and the dense tail of its observation row."""
        cdef const char *p = <const char *>&self.tabs[i]
        cdef const char *row = <const char *>(obs + i * self.width)
        cdef size_t k, head = <size_t>(<const char *>&self.tabs[i].h.ranks[0] - p)
        for k in range(0, head, 64):
            hd_prefetch(p + k)
        hd_prefetch(&self.tabs[i].amt[0])
        for k in range(O_STREET * sizeof(float), self.width * sizeof(float), 64):
            hd_prefetch(row + k)

    cdef void _run(self, Py_ssize_t lo, Py_ssize_t hi, const int64_t *kinds,
                   const int64_t *tos, const int64_t *cols, const uint8_t *hold, float *obs,
                   float *final, uint8_t *mask, int32_t *actor, int64_t *payoffs,
                   float *rewards, uint8_t *done) noexcept nogil:
        """Step tables lo..hi-1 (see _span). A table whose ``hold`` flag is set (hold not
        NULL) does not move: its rows stay, its done flag is 0 and its rewards 0. The runs
        of tables between held ones go through _span, whose loop has no such test."""
        cdef Py_ssize_t i, start = lo
        cdef int k, n = self.players
        if hold != NULL:
            for i in range(lo, hi):
                if not hold[i]:
                    continue
                if start < i:
                    self._span(start, i, kinds, tos, cols, obs, final, mask, actor, payoffs,
                               rewards, done)
                start = i + 1
                done[i] = 0
                if self.tabs[i].paid:
                    for k in range(n):
                        rewards[i * n + k] = 0.0
                    self.tabs[i].paid = 0
        if start < hi:
            self._span(start, hi, kinds, tos, cols, obs, final, mask, actor, payoffs, rewards,
                       done)

    cdef void _span(self, Py_ssize_t lo, Py_ssize_t hi, const int64_t *kinds,
                    const int64_t *tos, const int64_t *cols, float *obs, float *final,
                    uint8_t *mask, int32_t *actor, int64_t *payoffs, float *rewards,
                    uint8_t *done) noexcept nogil:
        """Step tables lo..hi-1: with cols, map each column (unchecked); else (kinds, tos).
        With ``final``, a table whose hand ends first copies its row there (the last
        decision's, before the next hand's is written). The player counts of _fixed_seats
        call _span_n with n a constant (the compiler specializes _write for each: 4-8% less
        time a decision than one loop for all, alternated in one process)."""
        if self.players == 2:
            self._span_n(lo, hi, kinds, tos, cols, obs, final, mask, actor, payoffs, rewards,
                         done, 2)
        elif self.players == 6:
            self._span_n(lo, hi, kinds, tos, cols, obs, final, mask, actor, payoffs, rewards,
                         done, 6)
        elif self.players == 9:
            self._span_n(lo, hi, kinds, tos, cols, obs, final, mask, actor, payoffs, rewards,
                         done, 9)
        else:
            self._span_n(lo, hi, kinds, tos, cols, obs, final, mask, actor, payoffs, rewards,
                         done, self.players)

    cdef inline void _span_n(self, Py_ssize_t lo, Py_ssize_t hi, const int64_t *kinds,
                             const int64_t *tos, const int64_t *cols, float *obs,
                             float *final, uint8_t *mask, int32_t *actor, int64_t *payoffs,
                             float *rewards, uint8_t *done, const int n) noexcept nogil:
        """_span for n players (n == self.players; w, the row's width, is self.width)."""
        cdef Py_ssize_t i
        cdef int64_t kind, to
        cdef int moved
        cdef int w = O_POSITION + n + SEAT_COLS * n + GLOBAL_COLS + 4 * STREET_COLS
        for i in range(lo, hi):
            if i + 2 * PREFETCH_AHEAD < hi:
                self._prefetch(i + 2 * PREFETCH_AHEAD, obs)
            if i + PREFETCH_AHEAD < hi:
                self._prefetch_hot(i + PREFETCH_AHEAD, obs)
            if cols != NULL:
                if self._map(i, cols[i], &kind, &to) != 0:
                    kind = HD_CHECK_CALL  # unchecked: a masked column plays check/call
                    to = 0
            else:
                kind = kinds[i]
                to = tos[i]
            moved = self._act(i, <int>kind, to, payoffs + i * n, rewards + i * n, done + i, n)
            if final != NULL and done[i]:
                memcpy(final + i * w, obs + i * w, w * sizeof(float))
            self._write(i, obs + i * w, mask + i * self.num_cols, actor + i, moved, n)

    cdef int _poll(self, int64_t *stop, int64_t *poll) noexcept nogil:
        """Called by play() every POLL_DECISIONS decisions: 0 to go on; PLAY_STOPPED when
        another slice of the same play() call (``stop``: its flag, shared by the slices) saw
        a signal handler raise; PLAY_RAISED when one raised here (its exception is set: play()
        raises it). In the main thread (the only one where signal handlers run), they run
        once POLL_NS have passed since they last did (poll[0]: when), so a run of hours stops
        at Ctrl-C within about POLL_NS; taking the GIL for them then waits for another busy
        Python thread's switch interval (5 ms) at most: 5% of POLL_NS. Other threads pass
        poll[0] = INT64_MAX: they never take the GIL."""
        cdef int64_t now
        if hd_atomic_load(stop):
            return PLAY_STOPPED
        now = hd_now_ns()
        if now - poll[0] < POLL_NS:
            return 0
        poll[0] = now
        with gil:
            if _check_signals() != 0:
                hd_atomic_store(stop, 1)
                return PLAY_RAISED
        return 0

    cdef int _play_table(self, Py_ssize_t i, int64_t hands, const hd_policy_t *pol,
                         const uint64_t *streams, int64_t step, int64_t *chips,
                         int64_t *squares, int64_t *showdowns, int64_t *won, int64_t *rake,
                         int64_t *curve, int64_t *per_hand, int64_t *stop, int64_t *poll,
                         int64_t *tick) noexcept nogil:
        """Play table i's hands 0..hands-1 to the end with policy pol[s] in seat s (the cards
        step() deals; session stacks as _new_hand carries them). Adds the per-seat results
        (rows of n), fills ``curve`` every ``step`` hands and at the end, and ``per_hand`` (when
        given). Seat s's policy draws from stream streams[s] of the table. Returns 0, -1 if
        a policy made an illegal decision (a bug), or what _poll returned when it stopped the
        run (``tick`` counts the decisions since the last poll, an equity decision weighing
        more with its samples; ``poll`` its time; ``stop`` the call's flag)."""
        cdef hd_hstate_t h
        cdef hd_legal_t la
        cdef hd_rng_t rng[10]
        cdef uint8_t cards[25]
        cdef int64_t st[10]
        cdef int64_t carry[10]
        cdef int64_t run[10]
        cdef int64_t to, pay, hand
        cdef int64_t cost[10]  # what a decision of seat k adds to tick
        cdef int n = self.players, k, kind, seat, halt, skipped = 0
        cdef uint64_t tseed = hd_seed_child(self.seed, <uint64_t>i)
        for k in range(n):
            hd_rng_seed(&rng[k], hd_seed_child(tseed, POLICY_STREAM - streams[k]))
            # (an equity decision of 1,000,000 samples takes about 20 ms: polled each time)
            cost[k] = 1 + (pol[k].samples >> 8 if pol[k].kind == HD_POLICY_EQUITY else 0)
            carry[k] = self.stacks0[k]
            run[k] = 0
        for hand in range(hands):
            self._stacks(carry, skipped, st)
            self._deal(tseed, hand, cards)
            if hd_hs_start_trusted(&self.rules, &h, n, <int>(hand % n), st, cards) != HD_HAND_OK:
                self._stacks(NULL, 0, st)  # not reached: _stacks gives 1..2**53 chips a seat
                hd_hs_start_trusted(&self.rules, &h, n, <int>(hand % n), st, cards)
            skipped = skipped + 1 if h.over else 0
            while not h.over:
                if tick[0] >= POLL_DECISIONS:
                    tick[0] = 0
                    halt = self._poll(stop, poll)
                    if halt != 0:
                        return halt
                hd_hs_legal_inline(&self.rules, &h, &la)
                seat = la.seat
                tick[0] += cost[seat]
                hd_policy_act(&pol[seat], &h, &la, &rng[seat], &kind, &to, NULL)
                if hd_hs_check(&self.rules, &h, kind, to) != HD_HAND_OK:
                    return -1
                hd_hs_act(&self.rules, &h, kind, to)
            if h.error:
                return -1
            rake[0] += h.rake
            for k in range(n):
                pay = h.stacks[k] - h.start[k]
                carry[k] = h.stacks[k]
                run[k] += pay
                chips[k] += pay
                squares[k] += pay * pay
                if h.showdown and not h.folded[k]:
                    showdowns[k] += 1
                    if h.payout[k] > 0:
                        won[k] += 1
                if per_hand != NULL:
                    per_hand[hand * n + k] = pay
            if (hand + 1) % step == 0 or hand + 1 == hands:
                memcpy(curve, run, n * sizeof(int64_t))
                curve += n
        return 0

    # ------------------------------------------------------------------ Python API
    def play(self, Py_ssize_t lo, Py_ssize_t hi, int64_t hands, list policies, list streams,
             int64_t step,
             int64_t[:, ::1] chips, int64_t[:, ::1] squares, int64_t[:, ::1] showdowns,
             int64_t[:, ::1] won, int64_t[::1] rake, int64_t[:, :, ::1] curve, per_hand,
             int64_t[::1] stop not None):
        """Play hands 0..hands-1 on tables lo..hi-1 with one compiled policy per seat
        (``policies``: (code, samples, raise_at) per seat; seat s draws from the table's
        policy stream ``streams[s]``, 0..2**32-1), without touching the stepping
        state (releases the GIL). Outputs have num_tables rows and are zeroed first (rows
        lo..hi-1); ``curve`` has a point every ``step`` hands and at the end, ``per_hand``
        (None or int64 (num_tables, hands, players)) each hand's payoffs. Returns -1, the
        first table where a policy made an illegal decision, or PLAY_STOPPED (-2) when
        another slice of the call stopped it (``stop``: one int64, 0 at the start, shared by
        the call's slices). A signal handler that raises (Ctrl-C) stops every slice within
        about 0.1 s, and this call (the main thread's) raises its exception."""
        cdef hd_policy_t pol[10]
        cdef uint64_t st[10]
        cdef Py_ssize_t i, bad = -1, T = self.num_tables
        cdef int k, n = self.players
        cdef int64_t points, total = 0, tick = 0
        # only the main thread runs signal handlers: the others never take the GIL for them
        cdef int64_t poll = (hd_now_ns() if threading.current_thread() is threading.main_thread()
                             else INT64_MAX)
        cdef int64_t[:, :, ::1] ph
        cdef int64_t *php = NULL
        if not 0 <= lo <= hi <= T:
            raise InvalidArrayError(f"slice {lo}:{hi} outside 0..{T}")
        if hands < 1 or step < 1:
            raise InvalidConfigError(
                f"hands and the curve step must be >= 1, got {shown(hands)}, {shown(step)}")
        policies, streams = list(policies), list(streams)  # (copies, as in __init__)
        if len(policies) != n:
            raise InvalidConfigError(f"{len(policies)} policies for {n} seats")
        for k in range(n):
            pol[k].kind, pol[k].samples, pol[k].raise_at = policies[k]
            if hd_policy_check(&pol[k]) != 0:
                raise InvalidConfigError(
                    f"seat {k}: not a valid compiled policy: {excerpt(policies[k])}")
        if len(streams) != n or not all([0 <= x < 1 << 32 for x in streams]):
            raise InvalidConfigError(f"streams must be {n} ints 0..2**32-1, got {excerpt(streams)}")
        for k in range(n):
            st[k] = streams[k]
        for k in range(n):
            total += self.stacks0[k]
        if not play_fits(hands, total, self.session):
            raise InvalidConfigError(
                f"{hands} hands with {total} chips at a table could overflow the int64 sums of "
                f"squared payoffs: play fewer hands per call")
        points = hands // step + (1 if hands % step else 0)
        if not (chips.shape[0] == squares.shape[0] == showdowns.shape[0] == won.shape[0] == T
                and chips.shape[1] == squares.shape[1] == showdowns.shape[1] == won.shape[1]
                == n):
            raise InvalidArrayError("result arrays must have shape (num_tables, players)")
        if rake.shape[0] != T or curve.shape[0] != T or curve.shape[1] != points \
                or curve.shape[2] != n:
            raise InvalidArrayError("rake or curve arrays do not match the batch")
        if per_hand is not None:
            ph = per_hand
            if ph.shape[0] != T or ph.shape[1] != hands or ph.shape[2] != n:
                raise InvalidArrayError("per_hand must have shape (num_tables, hands, players)")
        if stop.shape[0] != 1:
            raise InvalidArrayError("stop must hold one int64")
        if lo == hi:
            return -1
        with nogil:
            for i in range(lo, hi):
                memset(&chips[i, 0], 0, n * sizeof(int64_t))
                memset(&squares[i, 0], 0, n * sizeof(int64_t))
                memset(&showdowns[i, 0], 0, n * sizeof(int64_t))
                memset(&won[i, 0], 0, n * sizeof(int64_t))
                rake[i] = 0
                if per_hand is not None:
                    php = &ph[i, 0, 0]
                k = self._play_table(i, hands, pol, st, step, &chips[i, 0], &squares[i, 0],
                                     &showdowns[i, 0], &won[i, 0], &rake[i], &curve[i, 0, 0],
                                     php, &stop[0], &poll, &tick)
                if k != 0:
                    bad = i if k == -1 else k
                    break
        if bad == PLAY_RAISED:
            _raise_pending()
        return bad

    def decide(self, Py_ssize_t i, tuple policy, uint64_t seed):
        """A compiled policy's answer on table i's current decision, drawing from a generator
        seeded with ``seed``: (kind, to, equity estimate or -1). Nothing moves."""
        cdef hd_policy_t p
        cdef hd_legal_t la
        cdef hd_rng_t r
        cdef int kind
        cdef int64_t to
        cdef double eq
        self._index(i)
        if self.tabs[i].h.over or self.tabs[i].h.n == 0:
            raise InvalidArrayError(f"table {i} has no decision: call reset() first")
        p.kind, p.samples, p.raise_at = policy
        if hd_policy_check(&p) != 0:
            raise InvalidConfigError(f"not a valid compiled policy: {excerpt(policy)}")
        hd_rng_seed(&r, seed)
        hd_hs_legal(&self.rules, &self.tabs[i].h, &la)
        hd_policy_act(&p, &self.tabs[i].h, &la, &r, &kind, &to, &eq)
        return kind, to, eq

    def reset(self):
        """Start hand 0 on every table and fill the bound outputs (every observation column:
        later steps rewrite only what changed, so the rows must stay bound); the final rows,
        payoffs, rewards and done flags of the hands before are zeroed."""
        cdef Py_ssize_t i
        cdef int n = self.players
        cdef step_args_t a = self.out
        if self.out_refs is None:
            raise InvalidArrayError("no output buffers: call bind() first")
        self._claim()
        self.checked = False
        try:
            with nogil:
                for i in range(self.num_tables):
                    memset(&self.tabs[i], 0, sizeof(vtab_t))
                    self.tabs[i].tseed = hd_seed_child(self.seed, <uint64_t>i)
                    self.tabs[i].nlast = -1
                    self._new_hand(i, NULL, NULL, False)
                    memset(a.obs + i * self.width, 0, self.width * sizeof(float))
                    if a.final != NULL:
                        memset(a.final + i * self.width, 0, self.width * sizeof(float))
                    memset(a.payoffs + i * n, 0, n * sizeof(int64_t))
                    memset(a.rewards + i * n, 0, n * sizeof(float))
                    a.done[i] = 0
                    self._write(i, a.obs + i * self.width, a.mask + i * self.num_cols,
                                a.actor + i, -1, self.players)
        finally:
            self.busy = False

    def abandon(self, const uint8_t[::1] flags):
        """Void the hand in play on each table whose flag is set and deal the table's next
        hand: every seat gets back the chips it had when the voided hand began (a session's
        next hand starts from them), nothing is paid or counted, and the last ended hand
        stays as it was. A session hand nobody could act in (every seat all in from the
        forced bets) is voided too, and the next dealt, until one somebody acts in. Rewrites
        those tables' observation, mask and actor rows (not their done flags, rewards,
        payoffs or final rows: the last hand that ended there)."""
        cdef Py_ssize_t i
        cdef int k, n = self.players
        cdef vtab_t *t
        cdef step_args_t a = self.out
        if flags.shape[0] != self.num_tables:
            raise InvalidArrayError(f"abandon needs one flag per table ({self.num_tables}), "
                                    f"got {flags.shape[0]}")
        if self.out_refs is None:
            raise InvalidArrayError("no output buffers: call bind() first")
        self._claim()
        self.checked = False  # a check of columns was for the hands voided here
        try:
            with nogil:
                for i in range(self.num_tables):
                    if not flags[i]:
                        continue
                    t = &self.tabs[i]
                    for k in range(n):
                        t.carry[k] = t.h.start[k]
                    t.voided += 1
                    self._new_hand(i, NULL, NULL, True)
                    self._write(i, a.obs + i * self.width, a.mask + i * self.num_cols,
                                a.actor + i, -1, self.players)
        finally:
            self.busy = False

    cdef int _check_free(self) except -1:
        """Raise if the batch is busy: another Python thread is stepping, checking or
        resetting it (the GIL released)."""
        if self.busy:
            if self.claim_forks != forks:  # the thread that claimed it is not in this process
                raise IllegalActionError(
                    "this process was forked while another thread was stepping, checking or "
                    "resetting this batch: that thread is not here, so its tables may be "
                    "half-way through a step; make a new VectorGame in this process")
            raise IllegalActionError("this batch is in use by another thread (a step, check "
                                     "or reset): use a VectorGame from one thread at a time")
        return 0

    cdef int _claim(self) except -1:
        """Mark the batch busy for a step, check or reset (see _check_free), by this thread
        (see _step_args)."""
        self._check_free()
        self.busy = True
        self.user = PyThread_get_thread_ident()
        self.claim_forks = forks
        return 0

    @staticmethod
    cdef int _aligned(const int64_t[::1] v, str what) except -1:
        """Raise unless ``v``'s items are aligned (a buffer cut at an odd offset may not be):
        the loops read them as int64."""
        if v.shape[0] and (<uintptr_t>&v[0]) % sizeof(int64_t):
            raise InvalidArrayError(f"{what} must be an aligned int64 buffer (copy it)")
        return 0

    cdef _check_out(self, float[:, ::1] obs, uint8_t[:, ::1] mask, int32_t[::1] actor):
        if (obs.shape[0] != self.num_tables or obs.shape[1] != self.width
                or mask.shape[0] != self.num_tables or mask.shape[1] != self.num_cols
                or actor.shape[0] != self.num_tables):
            raise InvalidArrayError("output buffers do not match the batch")

    def check_columns(self, const int64_t[::1] cols, Py_ssize_t lo=0):
        """Map the columns of tables lo..lo+len(cols)-1 to (kind, to) without moving any
        table, for the next ``run``, ``share`` or ``share_start`` of those tables without
        columns; the first illegal table or -1."""
        cdef Py_ssize_t i, hi, bad = -1
        if not 0 <= lo <= self.num_tables - cols.shape[0]:
            raise InvalidArrayError(f"{cols.shape[0]} actions from table {lo}: the batch has "
                                    f"{self.num_tables} tables")
        hi = lo + cols.shape[0]
        Batch._aligned(cols, "actions")
        self._claim()
        self.checked = False
        try:
            with nogil:
                for i in range(lo, hi):
                    if self._map(i, cols[i - lo], &self.kinds_buf[i], &self.tos_buf[i]) != 0:
                        bad = i
                        break
        finally:
            self.busy = False
        self.checked = bad < 0
        self.checked_lo = lo
        self.checked_hi = hi
        return bad

    def check_exact(self, const int64_t[::1] kinds, const int64_t[::1] tos):
        """The first table whose (kind, to) is illegal, or -1 (no table moves). The entries
        checked are copied for the next ``run`` or ``share`` without columns: a caller's
        buffer changed after the check (by another thread) cannot reach a table."""
        cdef Py_ssize_t i, bad = -1
        cdef int64_t kind, to
        if kinds.shape[0] != self.num_tables or tos.shape[0] != self.num_tables:
            raise InvalidArrayError(
                f"kinds and amounts must have shape ({self.num_tables},)")
        Batch._aligned(kinds, "kinds")
        Batch._aligned(tos, "amounts")
        self._claim()
        self.checked = False
        try:
            with nogil:
                for i in range(self.num_tables):
                    kind = kinds[i]
                    to = tos[i]
                    if kind < 0 or kind > 2 or hd_hs_check(
                            &self.rules, &self.tabs[i].h, <int>kind, to) != HD_HAND_OK:
                        bad = i
                        break
                    self.kinds_buf[i] = kind
                    self.tos_buf[i] = to
        finally:
            self.busy = False
        self.checked = bad < 0
        self.checked_lo = 0
        self.checked_hi = self.num_tables
        return bad

    def bind(self, float[:, ::1] obs, uint8_t[:, ::1] mask, int32_t[::1] actor,
             int64_t[:, ::1] payoffs, float[:, ::1] rewards, uint8_t[::1] done,
             float[:, ::1] final=None):
        """Bind the output buffers :meth:`reset`, :meth:`run` and :meth:`share` write
        (checked once here, held until the next bind; call :meth:`reset` after a bind).
        ``final`` (None, or rows shaped as ``obs``): where a table whose hand ends copies
        the row of its last decision."""
        self._check_out(obs, mask, actor)
        if (payoffs.shape[0] != self.num_tables or payoffs.shape[1] != self.players
                or rewards.shape[0] != self.num_tables or rewards.shape[1] != self.players
                or done.shape[0] != self.num_tables or (final is not None and (
                    final.shape[0] != self.num_tables or final.shape[1] != self.width))):
            raise InvalidArrayError("output buffers do not match the batch")
        self._check_free()
        self.out.final = NULL if final is None else &final[0, 0]
        self.out.obs = &obs[0, 0]
        self.out.mask = &mask[0, 0]
        self.out.actor = &actor[0]
        self.out.payoffs = &payoffs[0, 0]
        self.out.rewards = &rewards[0, 0]
        self.out.done = &done[0]
        self.out_refs = (obs, mask, actor, payoffs, rewards, done, final)

    cdef object _step_args(self, cols, Py_ssize_t lo, Py_ssize_t hi, bint copy,
                           step_args_t *a, hold):
        """Point ``a`` at the inputs of a step of tables lo..hi-1 (run, share, share_start):
        ``cols`` (one column per table of the step, copied first if ``copy``), or with None
        the entries of the last successful check of those same tables (once); ``hold`` (None,
        or one flag per table of the batch, copied: the tables to hold); and at the bound
        outputs. Returns the columns' buffer, which must be held while the step runs."""
        cdef const int64_t[::1] c_v
        cdef const uint8_t[::1] h_v
        if not 0 <= lo <= hi <= self.num_tables:
            raise InvalidArrayError(f"tables {lo}:{hi} outside 0..{self.num_tables}")
        if self.out_refs is None:
            raise InvalidArrayError("no output buffers: call bind() first")
        if hold is not None:
            h_v = hold
            if h_v.shape[0] != self.num_tables:
                raise InvalidArrayError(f"hold must have shape ({self.num_tables},), got "
                                        f"({h_v.shape[0]},)")
        a[0] = self.out
        a.kinds = a.tos = a.cols = NULL
        a.hold = NULL
        if hold is not None and hi > lo:
            memcpy(self.hold_buf + lo, &h_v[lo], <size_t>(hi - lo))
            a.hold = self.hold_buf
        if cols is None:
            if self.user != 0 and self.user != PyThread_get_thread_ident():
                # the entries are another thread's check, or this one's were spoiled by it
                raise IllegalActionError(
                    "this batch is in use by another thread (it checked, stepped or reset the "
                    "tables since this thread's check): use a VectorGame from one thread at a "
                    "time")
            if not self.checked or self.checked_lo != lo or self.checked_hi != hi:
                raise IllegalActionError(f"no checked actions to play for tables {lo}:{hi}: "
                                         f"check them first")
            self.checked = False  # played once
            a.kinds = self.kinds_buf
            a.tos = self.tos_buf
            return None
        c_v = cols
        if c_v.shape[0] != hi - lo:
            raise InvalidArrayError(f"actions must have shape ({hi - lo},), got ({c_v.shape[0]},)")
        if not (copy or lo > 0):
            Batch._aligned(c_v, "actions")  # read in place (memcpy takes any alignment)
        self.checked = False  # the tables move
        if copy or lo > 0:  # _run reads cols[i] for table i
            if hi > lo:
                memcpy(self.cols_buf + lo, &c_v[0], (hi - lo) * sizeof(int64_t))
            a.cols = self.cols_buf
            return None
        if hi > lo:
            a.cols = &c_v[0]
        return <object>c_v

    def run(self, Py_ssize_t lo, Py_ssize_t hi, cols, hold=None):
        """Step tables lo..hi-1 (releases the GIL) into the bound outputs: ``cols`` (unchecked
        columns, an int64 array of length hi - lo) or None (the entries of the last
        successful check of the same tables); the tables flagged in ``hold`` (None, or a
        uint8 array of num_tables flags) do not move."""
        cdef step_args_t a
        self._check_free()  # before _step_args, which consumes the last check
        held = self._step_args(cols, lo, hi, False, &a, hold)
        if lo == hi:
            return
        self._claim()
        try:
            with nogil:
                self._run(lo, hi, a.kinds, a.tos, a.cols, a.hold, a.obs, a.final, a.mask,
                          a.actor, a.payoffs, a.rewards, a.done)
        finally:
            self.busy = False
        del held

    def share(self, wake, Py_ssize_t chunk, cols, Py_ssize_t lo=0, Py_ssize_t hi=-1,
              bint copy=False, hold=None, int lanes=1):
        """Step tables lo..hi-1 (all by default: ``hi`` -1 is the batch's end) as :meth:`run`
        does, with other threads: :meth:`share_start`, then :meth:`share_finish`. No Python
        code runs between the two but ``wake`` (which share_start guards), so an exception
        (Ctrl-C) cannot leave this step in flight: it is complete when this returns or raises."""
        self.share_start(wake, chunk, cols, lo, self.num_tables if hi == -1 else hi, copy,
                         hold, lanes)
        self.share_finish()

    def share_start(self, wake, Py_ssize_t chunk, cols, Py_ssize_t lo, Py_ssize_t hi,
                    bint copy, hold=None, int lanes=1):
        """Start a step of tables lo..hi-1 (``cols`` as :meth:`run` takes them; with ``copy``
        they are copied first, so the caller may reuse its buffer at once) shared by threads:
        publish it, call ``wake()`` (which should have other threads call :meth:`assist`)
        and return. The batch stays busy until :meth:`share_finish`: threads already in
        ``assist`` step it meanwhile. Which thread steps a table does not change the result.
        If ``wake`` raises, the step completes before the error propagates. ``hold`` as
        :meth:`run` takes it.

        ``lanes`` (1..16, at most the tables): the tables are cut into that many contiguous
        lanes, one per thread (the caller's is lane 0, ``assist(linger, home)``'s lane
        ``home``); a thread takes chunks from its own lane, then from the others. With one
        lane per thread each thread steps the same tables step after step, so their memory
        stays in its core's caches (one lane: whichever thread comes first takes the next
        chunk, and the tables' lines move between cores every step)."""
        cdef step_args_t a
        cdef int64_t done, first, last
        cdef int k
        if not 1 <= chunk <= MAX_TABLES:
            raise InvalidConfigError(f"chunk must be 1..{MAX_TABLES}, got {shown(chunk)}")
        if not 1 <= lanes <= HD_LANES:
            raise InvalidConfigError(f"lanes must be 1..{HD_LANES}, got {shown(lanes)}")
        self._check_free()  # before _step_args, which consumes the last check
        held = self._step_args(cols, lo, hi, copy, &a, hold)
        if lo == hi:
            return
        # claimed before anything is recorded: _step_args may have run Python code (a
        # buffer's or an int's methods), so another thread may hold the batch by now, and
        # then this call must leave its step alone
        self._claim()
        # no shared step is in progress (each ends in share_finish): nothing reads these now
        self.shared = a
        self.held = held
        self.inflight = hi - lo
        hd_atomic_store(&self.count, hi - lo)
        hd_atomic_store(&self.chunk, chunk)
        hd_atomic_store(&self.share_state.finished, 0)
        done = hd_atomic_load(&self.done_ns)
        hd_atomic_store(&self.gap_ns, hd_now_ns() - done if done else INT64_MAX)
        if lanes > hi - lo:
            lanes = <int>(hi - lo)
        for k in range(lanes):  # each store publishes its lane (release)
            first = lo + (hi - lo) * k // lanes
            last = lo + (hi - lo) * (k + 1) // lanes
            hd_atomic_store(&self.lanes[k].next, (last << 32) | first)
        try:
            wake()
        except BaseException:
            self.share_finish()
            raise

    def share_finish(self):
        """Take chunks of the shared step started by :meth:`share_start` until none is left,
        wait without the GIL until every table taken by another thread is stepped, and free
        the batch. Nothing to do without a step started."""
        if self.inflight == 0:
            return
        if self.user != PyThread_get_thread_ident():
            # another Python thread's step: only that thread finishes it (finished here, its
            # own finishing call would be refused as if its step had not been played)
            raise IllegalActionError("this batch is in use by another thread (a step it "
                                     "started is in flight): use a VectorGame from one "
                                     "thread at a time")
        if self.finishing:  # another Python thread is finishing this step (GIL released)
            raise IllegalActionError("this batch is in use by another thread (finishing a "
                                     "step): use a VectorGame from one thread at a time")
        self.finishing = True
        try:
            with nogil:
                self._take_chunks(0)
                self._wait_stepped(self.inflight)
        finally:
            self.finishing = False
        self.inflight = 0
        self.held = None
        self.busy = False

    @property
    def in_flight(self):
        """Tables of a shared step started and not yet finished (0: none)."""
        return self.inflight

    def assist(self, double linger, Py_ssize_t home=0):
        """Take chunks of the shared step in progress, if any, until none is left (from lane
        ``home % 16`` first, lane 0 for a negative ``home``: see :meth:`share_start`); then,
        if the last table of a shared step and the start of the next came at most ``linger``
        seconds apart, watch for the next one (for twice that gap, again after each) and take
        its chunks too: back-to-back steps need no wake-up. With slower steps it returns at
        once, while the step still runs without the GIL, rather than in the middle of the
        caller's Python code. Releases the GIL."""
        cdef int64_t most = <int64_t>(min(max(linger, 0.0), 1.0) * 1e9)
        cdef int lane = <int>(home % HD_LANES) if home >= 0 else 0
        with nogil:
            self._take_chunks(lane)
            self._linger(most, lane)

    cdef inline bint _pending(self) noexcept nogil:
        """Whether a lane holds tables not yet taken."""
        cdef int64_t w
        cdef int k
        for k in range(HD_LANES):
            w = hd_atomic_load(&self.lanes[k].next)
            if (w & LOW32) < (w >> 32):
                return True
        return False

    cdef void _linger(self, int64_t most, int home) noexcept nogil:
        """Watch the lanes for the next step (see assist): a CPU pause per look for the first
        few microseconds, then a yield of the CPU per look."""
        cdef int64_t start = hd_now_ns(), window = self._window(most)
        cdef int looks = 0
        while window > 0:
            if self._pending():
                self._take_chunks(home)
                start = hd_now_ns()
                window = self._window(most)
                looks = 0
            looks += 1
            if looks < 256:
                hd_cpu_relax()
                continue
            if hd_now_ns() - start >= window:
                return
            hd_thread_yield()

    cdef inline int64_t _window(self, int64_t most) noexcept nogil:
        """How long to watch for the next shared step: twice the last gap between two, or 0
        when that gap is over half of ``most``."""
        cdef int64_t gap = hd_atomic_load(&self.gap_ns)
        return 2 * gap if gap <= most // 2 else 0

    cdef void _take_chunks(self, int home) noexcept nogil:
        """Step chunks of tables taken from the lanes until none is left: lane ``home`` first,
        then the next ones in turn. A chunk is taken by compare-and-swap of a lane's whole
        word (the lane's end with its next table, so a thread never pairs one step's end with
        another's start) and the step's arguments are read only after that: the step cannot
        end (nor the next one start) while a chunk taken from it is unfinished, so a thread
        never steps a chunk with another step's arguments, however late it is. The thread
        that steps the last table notes the time."""
        cdef int64_t w, lo, hi, end, c, count
        cdef step_args_t *a = &self.shared
        cdef int j = 0, lane = home
        while True:
            c = hd_atomic_load(&self.chunk)
            w = hd_atomic_load(&self.lanes[lane].next)
            while True:
                lo = w & LOW32
                end = w >> 32
                if lo >= end:
                    break
                hi = lo + c if c < end - lo else end
                if hd_atomic_cas(&self.lanes[lane].next, &w, (end << 32) | hi):
                    break
            if lo >= end:  # this lane is empty: the next one
                j += 1
                if j == HD_LANES:
                    return
                lane = lane + 1 if lane + 1 < HD_LANES else 0
                continue
            count = hd_atomic_load(&self.count)
            self._run(lo, hi, a.kinds, a.tos, a.cols, a.hold, a.obs, a.final, a.mask,
                      a.actor, a.payoffs, a.rewards, a.done)
            if hd_atomic_add(&self.share_state.finished, hi - lo) == count:
                hd_atomic_store(&self.done_ns, hd_now_ns())

    cdef void _wait_stepped(self, int64_t count) noexcept nogil:
        """Wait until ``count`` tables of the shared step are stepped (the chunks still
        running were taken by threads inside _take_chunks, which cannot fail)."""
        cdef int spins = 0
        while hd_atomic_load(&self.share_state.finished) < count:
            if spins < 1000:
                spins += 1
                hd_cpu_relax()
            else:
                hd_thread_yield()

    # ------------------------------------------------------------------ inspection
    def legal(self, Py_ssize_t i):
        """Table i's legal actions: (seat, can_fold, can_check, call, can_raise, is_bet,
        min_to, max_to), the fields of :class:`holdem.LegalActions`."""
        cdef hd_legal_t la
        self._index(i)
        hd_hs_legal(&self.rules, &self.tabs[i].h, &la)
        return (la.seat, bool(la.can_fold), bool(la.can_check), la.call, bool(la.can_raise),
                bool(la.is_bet), la.min_to if la.can_raise else None,
                la.max_to if la.can_raise else None)

    def amounts(self, Py_ssize_t i):
        """Table i's bet/raise amount per action column (None: not a legal raise column)."""
        cdef hd_legal_t la
        cdef int64_t amounts[32]
        cdef uint8_t mask[32]
        cdef int c
        self._index(i)
        hd_hs_legal(&self.rules, &self.tabs[i].h, &la)
        self._amounts(&self.tabs[i].h, &la, hd_hs_pot(&self.tabs[i].h), amounts, mask)
        return [None if amounts[c] < 0 else amounts[c] for c in range(self.num_cols)]

    def table(self, Py_ssize_t i):
        """A dict of table i's state (stacks, bets, committed, folded, button, street, actor,
        board dealt so far, hole cards, pot, hand number)."""
        cdef hd_hstate_t *h
        self._index(i)
        h = &self.tabs[i].h
        n = self.players
        return {
            "hand": self.tabs[i].hand_no - 1,
            "button": h.button,
            "actor": h.actor,
            "street": h.street,
            "stacks": tuple([h.stacks[k] for k in range(n)]),
            "starting_stacks": tuple([h.start[k] for k in range(n)]),
            "bets": tuple([h.bets[k] for k in range(n)]),
            "committed": tuple([h.committed[k] for k in range(n)]),
            "folded": tuple([bool(h.folded[k]) for k in range(n)]),
            "pot": hd_hs_pot(h),
            "board": tuple([h.board[k] for k in range(h.nboard)]),
            "all_board": tuple([h.board[k] for k in range(5)]),
            "hole": tuple([(h.hole[2 * k], h.hole[2 * k + 1]) for k in range(n)]),
        }

    cdef _index(self, Py_ssize_t i, bint state=True):
        """Check a table index; with ``state`` (the call reads the table's hand) also that no
        other thread is stepping, checking or resetting the batch (it would read a hand
        half-way through an action)."""
        if not 0 <= i < self.num_tables:
            raise InvalidTableError(f"table {i} is out of range 0..{self.num_tables - 1}")
        if state:
            self._check_free()

    def totals(self, int64_t[:, ::1] out):
        """Payoffs per table and seat summed over every finished hand (fills ``out``; not
        while another thread steps the batch: the sums would mix hands before and after).
        ChipOverflowError, ``out`` left as it was, when a sum is outside int64."""
        cdef Py_ssize_t i
        cdef int k
        cdef const vtab_t *t
        if out.shape[0] != self.num_tables or out.shape[1] != self.players:
            raise InvalidArrayError("out must have shape (num_tables, players)")
        self._check_free()
        for i in range(self.num_tables):
            t = &self.tabs[i]
            for k in range(self.players):
                # the 128-bit sum fits int64 when its high word is the low word's sign
                if t.total_hi[k] != (-1 if t.total[k] >> 63 else 0):
                    exact = (<object>t.total_hi[k] << 64) + <object>t.total[k]  # Python ints
                    raise ChipOverflowError(
                        f"table {i}, seat {k}: the payoffs summed since reset() are {exact} "
                        f"chips, outside int64: sum the payoffs of each hand as Python ints "
                        f"instead")
        for i in range(self.num_tables):
            for k in range(self.players):
                out[i, k] = <int64_t>self.tabs[i].total[k]

    def history(self, Py_ssize_t i, bint last):
        """Table i's actions as ``(seat, street, kind, to)`` tuples, of the current hand or of
        the last hand ended by an action, with that hand's ``(button, starting stacks, hole
        cards by seat, board)``; None when there is no such hand; the actions are None when
        the hand had more than LOG_CAP actions."""
        cdef vtab_t *t
        cdef const uint64_t *log
        cdef const uint8_t *cards
        cdef int count, k, n = self.players, seat, street, kind
        cdef int64_t to
        self._index(i)
        t = &self.tabs[i]
        if last:
            count, log, cards = t.nlast, t.log[1 - t.cur_log], t.last_cards
            setup = (t.last_button, tuple([t.last_start[k] for k in range(n)]))
        else:
            count, log = t.nlog, t.log[t.cur_log]
            setup = (t.h.button, tuple([t.h.start[k] for k in range(n)]))
        if count < 0:
            return None
        if last:
            hole = tuple([(cards[2 * k], cards[2 * k + 1]) for k in range(n)])
            board = tuple([cards[2 * n + k] for k in range(5)])
        else:
            hole = tuple([(t.h.hole[2 * k], t.h.hole[2 * k + 1]) for k in range(n)])
            board = tuple([t.h.board[k] for k in range(5)])
        if count > LOG_CAP:
            return setup + (hole, board, None)
        actions = []
        for k in range(count):
            _unpack(log[k], &seat, &street, &kind, &to)
            actions.append((seat, street, kind, to))
        return setup + (hole, board, actions)

    def last_row(self, Py_ssize_t i, int seat, float[::1] out):
        """Fill ``out`` (width floats) with the last hand ended by an action on table i as
        ``seat`` sees it once over: what ObservationSpec.encode gives for that hand and seat,
        from the hand replayed in C from its log (no HandState). 0; -1 when there is no
        such hand; -2 when its actions are not kept (more than LOG_CAP)."""
        cdef const vtab_t *t
        cdef hd_hstate_t r
        cdef int32_t nraise[4]
        cdef int64_t added[4]
        cdef int n = self.players, k, s, p, to_act = 0, live = 0
        cdef int64_t stack
        cdef double ib = self.inv_bb
        cdef float *o
        self._index(i)
        if not 0 <= seat < n:
            raise InvalidSeatError(f"seat must be 0..{n - 1}, got {seat}")
        if out.shape[0] != self.width:
            raise InvalidArrayError(f"out must hold {self.width} floats, got {out.shape[0]}")
        t = &self.tabs[i]
        if t.nlast == -1:
            return -1
        if t.nlast > LOG_CAP:
            return -2
        if (self._replay(&r, t.last_button, t.last_start, t.last_cards,
                         t.log[1 - t.cur_log], t.nlast, nraise, added) != 0 or not r.over):
            # not reached: a table's last hand replays to its end (load_tables checks it)
            raise InvalidStateError(f"table {i}: its last hand does not replay to its end")
        o = &out[0]
        memset(o, 0, self.width * sizeof(float))
        o[O_HOLE + r.hole[2 * seat]] = 1.0
        o[O_HOLE + r.hole[2 * seat + 1]] = 1.0
        for k in range(r.nboard):
            o[(O_FLOP if k < 3 else O_TURN if k == 3 else O_RIVER) + r.board[k]] = 1.0
        o[O_STREET + (r.street if r.street < 3 else 3)] = 1.0
        p = seat - r.button  # the seat's distance from the button
        if p < 0:
            p += n
        o[O_POSITION + p] = 1.0
        o += O_POSITION + n
        s = seat
        for _ in range(n):  # the seats from ``seat`` on; stacks before the pots' payouts
            stack = r.stacks[s] - r.payout[s]
            o[0] = p
            o[1] = <float>(stack * ib)
            o[2] = <float>(r.bets[s] * ib)
            o[3] = <float>(r.committed[s] * ib)
            o[4] = <float>(r.folded[s] != 0)
            o[5] = <float>(r.folded[s] == 0 and stack == 0)
            live += r.folded[s] == 0
            to_act += r.folded[s] == 0 and stack > 0
            o += SEAT_COLS
            s = s + 1 if s + 1 < n else 0
            p = p + 1 if p + 1 < n else 0
        # the hand is over: nobody is to act, so to_call and the raise range are 0
        o[0] = <float>(hd_hs_pot(&r) * ib)
        o[4] = <float>(r.cur * ib)
        o[5] = live
        o[6] = to_act
        o += GLOBAL_COLS
        for k in range(4):
            o[2 * k] = nraise[k]
            o[2 * k + 1] = <float>(added[k] * ib)
        return 0

    def last_stacks(self, Py_ssize_t i):
        """Table i's stacks at the end of the last hand ended by an action (kept when its
        actions are not), or None before the first."""
        cdef const vtab_t *t
        self._index(i)
        t = &self.tabs[i]
        if t.nlast == -1:
            return None
        return tuple([t.last_final[k] for k in range(self.players)])

    def hands_played(self, int64_t[::1] out):
        """Hands finished per table (fills ``out``; not while another thread steps the
        batch)."""
        cdef Py_ssize_t i
        if out.shape[0] != self.num_tables:
            raise InvalidArrayError("out must have one entry per table")
        self._check_free()
        for i in range(self.num_tables):
            out[i] = self.tabs[i].hand_no - 1 - self.tabs[i].voided
