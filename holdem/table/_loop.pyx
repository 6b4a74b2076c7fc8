# cython: language_level=3
"""The compiled part of :class:`holdem.Table`: one hand's decision loop over the compiled hand
core, :class:`holdem.RandomAgent`'s policy, and the table's per-hand bookkeeping (seat kinds,
the players dealt in, deck seeds, posts, payouts, stack resets), each the C twin of a step
that ``holdem/table/table.py`` and ``holdem/table/_steps.py`` also keep in Python for the
pure-Python core.

:func:`run_hand` is ``holdem.table._steps.run_hand_python`` (the loop used with the
pure-Python reference core) written against the C state of :class:`holdem.hand._compiled.HandCore`:
the same observations (every field, every decision), the same agent calls, the same
validation of the answers (a plainly legal answer is applied directly, anything else goes
through the checked ``apply`` and its error), the same order of everything. The tests run
seeded sessions through both and compare them hand by hand.
"""

from libc.stdint cimport int64_t
from cpython.ref cimport Py_INCREF
from cpython.list cimport PyList_GetSlice
from cpython.long cimport PyLong_FromLongLong
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

from holdem.hand._compiled cimport HandCore

from holdem.errors import TableError
from holdem.hand._validate import not_started
from holdem.table._seating import Kind
from holdem.hand.actions import Action, ActionType
from holdem.hand.records import LegalActions, Street

__all__ = [
    "bind", "hand_players", "pay", "random_act", "reset_stacks", "run_hand",
    "seat_kinds", "table_posts",
]

cdef extern from *:
    """
    /* A new, empty instance of the tuple subclass t with n slots (what tuple.__new__(t, ...)
       allocates before copying the items in). */
    static PyObject *hd_alloc_tuple_of(PyTypeObject *t, Py_ssize_t n) {
        return t->tp_alloc(t, n);
    }
    """
    object hd_alloc_tuple_of(type t, Py_ssize_t n)

cdef tuple _STREETS = tuple(Street)
cdef type _LegalActions = LegalActions
cdef type _Observation = None  # holdem.Observation, bound by holdem.table.agents (see bind)
cdef object _BET_RAISE = ActionType.BET_RAISE
cdef object _BET = ActionType.BET
cdef object _RAISE = ActionType.RAISE
cdef object _CC = ActionType.CHECK_CALL
cdef object _CHECK = ActionType.CHECK
cdef object _CALL = ActionType.CALL
cdef object _FOLD = ActionType.FOLD
cdef type _Action = Action
# random_act's bet sizes in C arithmetic: 0 <= min_to <= max_to <= this (a hand's amounts are
# at most 10 * 2**53): hi - lo + 1, its product with a draw in [0, 1) rounded to a double,
# and lo plus that stay below 2**63
cdef int64_t _SPAN_MAX = 1 << 61
cdef object _FOLD_CODE = 0
cdef object _CC_CODE = 1


cdef inline void _put(object t, Py_ssize_t i, object v) noexcept:
    Py_INCREF(v)
    PyTuple_SET_ITEM(t, i, v)


cdef inline tuple _ints(const int64_t *a, int n):
    """The first ``n`` values of ``a`` as a tuple of ints."""
    cdef tuple t = PyTuple_New(n)
    cdef int k
    for k in range(n):
        _put(t, k, PyLong_FromLongLong(a[k]))
    return t


cdef object _observation(type cls, object seat, int position, object player, object hole,
                         object board, object street, object pot, object stacks, object bets,
                         object committed, tuple seats, tuple names, object button, object legal,
                         object big_blind, object number, object history, tuple dead):
    """``cls(seat, position, ...)`` for the 18-field Observation tuple, filled in place."""
    obs = hd_alloc_tuple_of(cls, 18)
    _put(obs, 0, seat)
    _put(obs, 1, position)
    _put(obs, 2, player)
    _put(obs, 3, hole)
    _put(obs, 4, board)
    _put(obs, 5, street)
    _put(obs, 6, pot)
    _put(obs, 7, stacks)
    _put(obs, 8, bets)
    _put(obs, 9, committed)
    _put(obs, 10, seats)
    _put(obs, 11, names)
    _put(obs, 12, button)
    _put(obs, 13, legal)
    _put(obs, 14, big_blind)
    _put(obs, 15, number)
    _put(obs, 16, history)
    _put(obs, 17, dead)
    return obs


cdef int _plain_code(object action, tuple la):
    """:func:`holdem.table._steps.fast_code` on the core's LegalActions tuple ``la``."""
    cdef object t, to, lo, hi
    if type(action) is int:
        if action == 1:
            return 1
        if action == 0:
            return 0 if la[1] else -1
        return -1
    if type(action) is not _Action or len(<tuple>action) != 2:  # (tuple.__new__ makes others)
        return -1
    t = (<tuple>action)[0]
    if t is _BET_RAISE or (t is _BET and la[5]) or (t is _RAISE and not la[5]):
        to = (<tuple>action)[1]
        lo = la[6]
        hi = la[7]
        if la[4] and type(to) is int and lo is not None and hi is not None and lo <= to <= hi:
            return 2
        return -1
    if (<tuple>action)[1] is not None:  # a check, call or fold takes no amount
        return -1
    if t is _CC or (t is _CHECK and la[2]) or (t is _CALL and not la[2]):
        return 1
    if t is _FOLD:
        return 0 if la[1] else -1
    return -1


def bind(type observation):
    """Set the :class:`holdem.Observation` class (defined in :mod:`holdem.table.agents`, which
    imports this module: it binds it once, at import)."""
    global _Observation
    _Observation = observation


def run_hand(HandCore state not None, list players, tuple dealt, tuple names, object button,
             object big_blind, object number, bint tournament, object sitting_out,
             object apply_checked):
    """Play ``state`` (a compiled :class:`holdem.HandState`) to its end with the agents.

    ``players[i]``: the :class:`holdem.table.table.Player` at position ``i`` (its agent's function
    is ``_act``); a player who is ``leaving`` (or sitting out in a tournament) checks when
    free, else folds, without being asked; ``apply_checked(state, player, seat, action)``
    applies an answer that is not plainly legal through the checked ``apply`` (raising
    :class:`holdem.AgentError` for an illegal one).
    """
    cdef int i, n = state._h.n, k, code, st, street = -1
    cdef bint moved = True
    cdef int64_t total
    cdef tuple la, holes = state._hole
    cdef object p, action, stacks = (), bets = (), committed = (), board = (), pot = 0
    cdef tuple seated = tuple(players)  # an agent that changes the caller's list changes no seat
    cdef tuple dead
    cdef list acts = [p._act for p in seated]
    if state._game is None:  # a state never started: no hand, no hole cards
        raise not_started(state)
    if _Observation is None:
        raise RuntimeError("holdem.table._loop.bind(Observation) was not called")
    # indexed by seat below without bounds checks (release builds): check the lengths once
    if not (len(seated) == len(dealt) == len(names) == len(holes) == n):
        raise TableError(f"run_hand: the hand has {n} seats but {len(seated)} players, "
                         f"{len(dealt)} seats dealt, {len(names)} names and {len(holes)} hole "
                         f"cards were given: one of each per seat")
    dead = ()  # the hands dead from the deal (folded before any action): rare, so looked
    for k in range(n):  # up (in Python) only when a seat is folded already
        if state._h.folded[k]:
            dead = tuple(state.dead_hands)
            break
    while not state._h.over:
        i = state._h.actor
        if state._h.n != n or not 0 <= i < n:  # an agent restored another hand into it
            raise TableError(f"the hand in play now has {state._h.n} seats, seat {i} to "
                             f"act, but was dealt with {n}: a hand may not be replaced while "
                             f"it is played")
        p = seated[i]
        legal = state.legal_actions()  # (a subclass of HandState may override it)
        if not (isinstance(legal, tuple) and len(<tuple>legal) == 8):  # indexed unchecked
            raise TableError(f"{type(state).__name__}.legal_actions() returned "
                             f"{type(legal).__name__}"
                             + (f" of {len(<tuple>legal)} items" if isinstance(legal, tuple)
                                else "") + ": the table needs a LegalActions (8 fields)")
        la = <tuple>legal
        if p.leaving or (tournament and p.status is sitting_out):
            state._act(1 if la[2] else 0, 0)
            continue
        st = state._h.street
        if moved or st != street:
            stacks = _ints(state._h.stacks, n)
            bets = _ints(state._h.bets, n)
            committed = _ints(state._h.committed, n)
            total = state._h.dead  # hd_hs_pot (in the hand core's .so, not linked here)
            for k in range(n):
                total += state._h.committed[k]
            pot = total
            if st != street:
                board = state._board[:state._h.nboard]
                street = st
        history = PyList_GetSlice(state._hist, 0, len(state._hist))  # raw_history()
        action = acts[i](_observation(
            _Observation, dealt[i], i, names[i], holes[i], board, _STREETS[st], pot, stacks,
            bets, committed, dealt, names, button, la, big_blind, number, history, dead))
        code = _plain_code(action, la)
        if code == 2:
            moved = True
            state._act(2, (<tuple>action)[1])
        elif code == 1:
            moved = not la[2]
            state._act(1, 0)
        elif code == 0:
            moved = False
            state._act(0, 0)
        else:
            moved = True
            apply_checked(state, p, dealt[i], action)


def random_act(self, observation):
    """Pick uniformly among the kinds offered (fold, check/call, bet/raise), then a bet or
    raise size uniformly between the minimum and the maximum: ``int(random() * n)`` draws from
    the agent's own :class:`random.Random` (``self._random``)."""
    cdef bint can_fold, can_raise, fits
    cdef int k
    cdef int64_t lo = 0, hi = 0
    cdef tuple t
    # (exact types of full length: tuple.__new__ makes a NamedTuple of any length)
    if type(observation) is _Observation and len(<tuple>observation) == 18:
        la = (<tuple>observation)[13]
    else:
        la = observation.legal
    rnd = self._random
    if type(la) is _LegalActions and len(<tuple>la) == 8:
        t = <tuple>la
        can_fold = t[1]
        can_raise = t[4]
        lo_o = t[6]
        hi_o = t[7]
    else:
        can_fold = la.can_fold
        can_raise = la.can_raise
        lo_o, hi_o = la.min_to, la.max_to
    k = <int>(<double>rnd() * (1 + can_fold + can_raise))
    if can_fold:
        if k == 0:
            return _FOLD_CODE
        k -= 1
    if k == 0:
        return _CC_CODE
    assert lo_o is not None and hi_o is not None
    action = hd_alloc_tuple_of(_Action, 2)  # Action(BET_RAISE, to), filled in place
    _put(action, 0, _BET_RAISE)
    fits = False
    if type(lo_o) is int and type(hi_o) is int:  # (pointer tests: the hands' own bounds)
        try:
            lo = lo_o
            hi = hi_o
            fits = 0 <= lo <= hi <= _SPAN_MAX
        except OverflowError:  # outside int64: the Python arithmetic below
            pass
    if fits:
        _put(action, 1, PyLong_FromLongLong(lo + <int64_t>(<double>rnd() * <double>(hi - lo + 1))))
    else:
        # amounts no hand offers (an observation made up by the caller): hi - lo + 1 may pass
        # 2**63, or the bounds int64, or they may not be ints at all, so Python arithmetic, as
        # the reference policy (the same draw, the same result)
        _put(action, 1, lo_o + int(rnd() * (hi_o - lo_o + 1)))
    return action


cdef object _OUT = int(Kind.OUT)
cdef object _REGULAR = int(Kind.REGULAR)
cdef object _POSTER = int(Kind.POSTER)
cdef object _WAITING_KIND = int(Kind.WAITING)


def seat_kinds(list seats, bint tournament, object sitting_out, object waiting):
    """``Table._kinds`` in C: each seat's :class:`holdem.table._seating.Kind` as its int value."""
    cdef Py_ssize_t n = len(seats), k
    cdef tuple out = PyTuple_New(n)
    cdef object p, kind
    for k in range(n):
        p = seats[k]
        if p is None or p.stack == 0:
            kind = _OUT
        elif tournament:
            kind = _REGULAR
        elif p.status is sitting_out:
            kind = _OUT
        elif p.status is waiting:
            kind = _WAITING_KIND
        elif p.entry_due or p.owes_big_blind or p.owes_small_blind:
            kind = _POSTER
        else:
            kind = _REGULAR
        _put(out, k, kind)
    return out


def table_posts(HandCore state not None, tuple dealt):
    """The forced bets of ``state`` as ``(table seat, kind, amount)`` (``Table._deal``)."""
    cdef tuple post
    if state._game is None:  # a state never started: no hand, no posts
        raise not_started(state)
    if len(dealt) != state._h.n:  # indexed without bounds checks
        raise TableError(f"table_posts: {len(dealt)} seats dealt but the hand has "
                         f"{state._h.n} seats: one table seat per seat of the hand")
    return tuple([(dealt[<int>post[0]], post[1], post[2]) for post in state._posts])


def pay(list players, tuple names, object result):
    """Give each player dealt in its final stack (and count the hand); returns the payoffs by
    name and whether a player is leaving."""
    cdef tuple final = result.final_stacks, payoffs = result.payoffs
    cdef tuple seated = tuple(players)  # indexed below: a copy nothing else can change
    cdef Py_ssize_t n = len(seated), k
    cdef dict out = {}
    cdef bint leaving = False
    if len(final) != n or len(names) != n or len(payoffs) != n:
        raise TableError(f"players, names and the hand's seats differ in number ({n} "
                         f"players, {len(names)} names, {len(final)} seats): the players "
                         f"dealt in may not change during the hand")
    for k in range(n):
        p = seated[k]
        p.stack = final[k]
        p.hands_played += 1
        out[names[k]] = payoffs[k]
        if p.leaving:
            leaving = True
    return out, leaving


def hand_players(list seats, tuple dealt):
    """The players dealt in (in position order), their stacks and names (``play_hand``)."""
    cdef Py_ssize_t n = len(dealt), k
    cdef list players = [None] * n, stacks = [None] * n
    cdef tuple names = PyTuple_New(n)
    for k in range(n):
        if not 0 <= dealt[k] < len(seats):  # indexed without bounds checks
            raise TableError(f"hand_players: seat {dealt[k]} is dealt in, the table has "
                             f"seats 0..{len(seats) - 1}")
        p = seats[<Py_ssize_t>dealt[k]]
        players[k] = p
        stacks[k] = p.stack
        _put(names, k, p.name)
    return players, stacks, names


def reset_stacks(list seats, object amount):
    """Set every seated player's stack to ``amount``; the chips added and taken off."""
    added = 0
    removed = 0
    for p in seats:
        if p is not None:
            stack = p.stack
            if stack < amount:
                added += amount - stack
            else:
                removed += stack - amount
            p.stack = amount
    return added, removed
