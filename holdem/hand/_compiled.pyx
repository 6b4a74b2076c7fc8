# cython: language_level=3
"""The compiled core of :class:`holdem.HandState`: fixed C arrays; an action allocates only its
plain history tuple.

This is a line-by-line port of the pure-Python reference core :mod:`holdem.hand._reference` (same
rules, same messages; see its docstring for the rule choices). The test suite runs both on the
same traces and random hands and compares them decision by decision.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy

from holdem._deck cimport (
    hd_deck_init,
    hd_deck_pop,
    hd_deck_shuffle,
    hd_deck_t,
    hd_rng_seed,
    hd_rng_t,
)
from holdem._pots cimport HD_POTS_NO_RANK, HD_POTS_OK, hd_pot_result_t, hd_pot_t, split_pots_c

from holdem._deck import Deck
from holdem.hand._fields import FIELDS, check_state
from holdem._eval import evaluate
from holdem._seeding import resolve_seed
from holdem.hand._settle import settle
from holdem.hand._validate import (
    MAX_CHIPS,
    actions_of,
    check_start,
    given_cards,
    more_board,
    plan_posts,
    resolve,
    seat_index,
    to_action,
)
from holdem._shown import shown as _shown
from holdem.cards import Card
from holdem.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidConfigError,
    InvalidHandError,
    InvalidStateError,
    OutOfTurnError,
)
from holdem.hand.records import HandResult, LegalActions, Post
from holdem.pots import Pot

__all__ = ["HandCore"]

cdef enum:
    K_NL = 0
    K_PL = 1
    K_FL = 2
    A_FOLD = 0
    A_CC = 1
    A_BR = 2
    T_FOLD = 0
    T_CHECK = 1
    T_CALL = 2
    T_BET = 3
    T_RAISE = 4

cdef object _MASK64 = (1 << 64) - 1
cdef object _MAX_CHIPS = MAX_CHIPS
cdef tuple _CARD_OBJS = tuple(Card(i) for i in range(52))
# LegalActions(*fields) without the Python-level NamedTuple.__new__: the same tuple subclass
_new_tuple = tuple.__new__


cdef tuple _deal_order(seed, int count):
    """The top ``count`` cards of ``Deck(seed=seed)`` (R11), dealt in C without the Deck object.

    Same generator, same shuffle, same order as ``holdem.Deck(seed=seed).deal(count)``.
    """
    cdef hd_deck_t deck
    cdef hd_rng_t rng
    if type(seed) is not int:
        return Deck(seed=seed).deal(count)
    hd_deck_init(&deck)
    hd_rng_seed(&rng, <uint64_t>(seed & _MASK64))
    hd_deck_shuffle(&deck, &rng)
    return tuple([_CARD_OBJS[hd_deck_pop(&deck)] for _ in range(count)])


cdef bint _plain_start(object stacks, object button, bint straddle):
    """The common, valid case checked in C: a list of 2-10 int stacks in 1..2**53, int button."""
    cdef Py_ssize_t n, i
    cdef object s
    if type(stacks) is not list or type(button) is not int:
        return False
    n = len(<list>stacks)
    if n < (3 if straddle else 2) or n > MAXP or not 0 <= button < n:
        return False
    for i in range(n):
        s = (<list>stacks)[i]
        if type(s) is not int or not 0 < s <= _MAX_CHIPS:
            return False
    return True


def _rebuild(cls, state):
    cdef HandCore st
    if not (isinstance(cls, type) and issubclass(cls, HandCore)):
        raise InvalidStateError(f"not a valid pickled HandState: {cls!r} is not a hand class")
    st = cls.__new__(cls)
    st._setstate(state)
    return st


cdef class HandCore:
    """Compiled hand state (see :class:`holdem.HandState` for the documented API)."""

    # the C state is declared in _hand.pxd (other Cython modules, like the table loop, cimport it)

    def __init__(self, *args, **kwargs):
        raise TypeError("start a hand with Game.new_hand(...)")

    # ------------------------------------------------------------------ setup
    @classmethod
    def _start(cls, game, stacks, button, seed, hole_cards, board, dead_small_blind=False,
               extra_posts=()):
        cdef HandCore st
        cdef int n, i, k, sb_seat, bb_seat, last, actor, seat, kind, first_dealt
        cdef int64_t level, bb, level_a, sb, ante
        cdef bint post_sb = True, from_bb, bb_ante, straddle
        cdef tuple extras = ()
        cdef list posts
        plan = game._plan
        kind = plan.structure
        from_bb = plan.deal_from_bb
        bb_ante = plan.bb_ante
        bb = plan.big_blind
        sb = plan.small_blind
        ante = plan.ante
        straddle = plan.straddle
        small = plan.sizes[0]
        big = plan.sizes[2]
        cap = plan.cap
        lift = plan.lift_heads_up
        fold_free = plan.fold_free
        if not _plain_start(stacks, button, straddle):
            stacks = check_start(game, stacks, button)  # raises with the reason
        n = len(stacks)
        if dead_small_blind is False and not extra_posts:
            if n == 2:
                sb_seat = button
                bb_seat = 1 - sb_seat
            else:
                sb_seat = (button + 1) % n
                bb_seat = (button + 2) % n
        else:
            sb_seat, bb_seat, post_sb, extras = plan_posts(game, n, button, dead_small_blind,
                                                           extra_posts)
        st = cls.__new__(cls)
        st.game = game
        st._n = n
        st._button = button
        st._start_stacks = tuple(stacks)
        st._sb_seat = sb_seat
        st._bb_seat = bb_seat
        first_dealt = (bb_seat if from_bb else button) + 1
        if first_dealt == n:
            first_dealt = 0
        st._deal(seed, hole_cards, board, first_dealt)
        for i in range(n):
            st._stacks[i] = stacks[i]
            st._bets[i] = 0
            st._committed[i] = 0
            st._folded[i] = False
            st._acted[i] = -1
        st._hist = []
        st._street = 0
        st._over = False
        st._result = None
        st._legal = None
        st._live = n
        st._aggr = -1
        st._first = -1
        st._kind = kind
        st._bb = bb
        st._sizes[0] = st._sizes[1] = small
        st._sizes[2] = st._sizes[3] = big
        st._cap = cap
        st._lift = lift
        st._fold_free = fold_free
        st._dead = 0
        if ante == 0 and post_sb and not straddle and not extras:
            # the common case: two blinds (R2-R5, R9: all in for less when short)
            level_a = st._blind(sb_seat, sb)
            level = st._blind(bb_seat, bb)
            if level_a > 0:
                st._posts = ((sb_seat, "small_blind", level_a), (bb_seat, "big_blind", level))
            else:
                st._posts = ((bb_seat, "big_blind", level),)
            level = bb
            last = bb_seat
        else:
            posts = []
            if ante and not bb_ante:
                for k in range(n):
                    st._post(posts, (sb_seat + k) % n, "ante", ante, False)
            if post_sb:
                st._post(posts, sb_seat, "small_blind", sb, True)
            st._post(posts, bb_seat, "big_blind", bb, True)
            level = bb
            last = bb_seat
            if straddle:
                last = (bb_seat + 1) % n
                level = 2 * bb
                st._post(posts, last, "straddle", level, True)
            if ante and bb_ante:  # dead money for the main pot, never an uncalled bet
                level_a = ante if ante < st._stacks[bb_seat] else st._stacks[bb_seat]
                if level_a > 0:
                    st._stacks[bb_seat] -= level_a
                    st._dead = level_a
                    posts.append((bb_seat, "big_blind_ante", level_a))
            for seat, live, dead in extras:
                # live part first, as the seat's bet (R9: all in for less); dead part from what
                # is left, dead money for the main pot (see holdem.hand._reference)
                st._post(posts, seat, "entry_big_blind", live, True)
                level_a = dead if dead < st._stacks[seat] else st._stacks[seat]
                if level_a > 0:
                    st._stacks[seat] -= level_a
                    st._dead += level_a
                    posts.append((seat, "dead_small_blind", level_a))
            st._posts = tuple(posts)
        st._cur = level
        st._inc = level
        st._full = level
        st._raises = 2 if straddle else 1
        st._actor = -1
        st._nboard = 0
        actor = st._find_actor((last + 1) % n)
        if actor < 0:
            st._end_street()
        else:
            st._actor = actor
        return st

    cdef int64_t _blind(self, int seat, int64_t amount) noexcept:
        """Post a live blind of ``amount`` (all in for less, R9); return the chips posted."""
        cdef int64_t a = amount if amount < self._stacks[seat] else self._stacks[seat]
        if a <= 0:
            return 0
        self._stacks[seat] -= a
        self._committed[seat] += a
        self._bets[seat] += a
        return a

    cdef _post(self, list posts, int seat, str kind, int64_t amount, bint live):
        cdef int64_t a = amount if amount < self._stacks[seat] else self._stacks[seat]
        if a <= 0:
            return
        self._stacks[seat] -= a
        self._committed[seat] += a
        if live:
            self._bets[seat] += a
        posts.append((seat, kind, a))

    cdef _deal(self, seed, hole_cards, board, int first):
        cdef int n = self._n, k, b
        cdef hd_deck_t deck
        cdef hd_rng_t rng
        cdef int ids[2 * MAXP + 8]
        cdef tuple order
        cdef list hole
        if hole_cards is None and board is None:
            if type(seed) is not int:
                if isinstance(seed, bool) or not (seed is None or isinstance(seed, int)):
                    raise InvalidConfigError(f"seed must be an int or None, got {seed!r}")
                if seed is None:
                    seed = resolve_seed(None)
            self._seed = seed
            if type(seed) is not int:  # an int subclass: through holdem.Deck
                order = _deal_order(seed, 2 * n + 8)
                for k in range(2 * n + 8):
                    ids[k] = order[k]
            else:  # R11: the same generator, shuffle and order as Deck(seed=seed).deal()
                hd_deck_init(&deck)
                hd_rng_seed(&rng, <uint64_t>(seed & _MASK64))
                hd_deck_shuffle(&deck, &rng)
                for k in range(2 * n + 8):
                    ids[k] = hd_deck_pop(&deck)
            hole = [None] * n
            for k in range(n):
                hole[(first + k) % n] = (_CARD_OBJS[ids[k]], _CARD_OBJS[ids[n + k]])
            b = 2 * n
            self._hole = tuple(hole)
            self._burns = (_CARD_OBJS[ids[b]], _CARD_OBJS[ids[b + 4]], _CARD_OBJS[ids[b + 6]])
            self._board = (_CARD_OBJS[ids[b + 1]], _CARD_OBJS[ids[b + 2]],
                           _CARD_OBJS[ids[b + 3]], _CARD_OBJS[ids[b + 5]],
                           _CARD_OBJS[ids[b + 7]])
            self._partial = False
            return
        self._hole, self._board, self._partial = given_cards(n, seed, hole_cards, board)
        self._seed = None
        self._burns = ()

    # ------------------------------------------------------------------ plain queries
    @property
    def num_players(self):
        return self._n

    @property
    def button(self):
        return self._button

    @property
    def small_blind_seat(self):
        """R2/R3: left of the button, or the button itself heads-up or when the small blind
        is dead (``dead_small_blind=True``: nobody posted it)."""
        return self._sb_seat

    @property
    def big_blind_seat(self):
        return self._bb_seat

    @property
    def actor(self):
        """The seat to act, or ``None`` when the hand is over."""
        return None if self._actor < 0 else self._actor

    @property
    def street_index(self):
        """0 preflop, 1 flop, 2 turn, 3 river, 4 showdown."""
        return self._street

    @property
    def board(self):
        """The community cards dealt so far (R14)."""
        return self._board[: self._nboard]

    @property
    def burned(self):
        """The burn cards used so far (R13); empty when the hand was started from given cards."""
        return self._burns[: (0, 0, 0, 1, 2, 3)[self._nboard]]

    @property
    def hole_cards(self):
        """Each seat's two hole cards (``None`` for a hand given as unknown)."""
        return self._hole

    @property
    def stacks(self):
        """Chips behind, per seat (not counting chips already bet)."""
        return tuple([self._stacks[i] for i in range(self._n)])

    @property
    def starting_stacks(self):
        return self._start_stacks

    @property
    def bets(self):
        """Each seat's bet on the current street (blinds count, antes do not)."""
        return tuple([self._bets[i] for i in range(self._n)])

    @property
    def committed(self):
        """Chips each seat has put in this hand, uncalled bets removed (a big-blind ante and
        the dead part of an extra post are dead money: in :attr:`pot`, not here)."""
        return tuple([self._committed[i] for i in range(self._n)])

    @property
    def pot(self):
        """All chips in the middle, current street bets included."""
        cdef int64_t t = self._dead
        cdef int i
        for i in range(self._n):
            t += self._committed[i]
        return t

    @property
    def posts(self):
        """The forced bets posted at the start (antes, blinds, straddle, extra posts), in
        posting order."""
        return tuple([Post(*p) for p in self._posts])

    @property
    def current_bet(self):
        """The street total a seat must match to call (preflop at least the full big blind, R9)."""
        return self._cur

    def is_terminal(self):
        return self._over

    @property
    def seed(self):
        """The deck seed of this hand (drawn from os.urandom when none was given), or None when
        the cards were given: ``game.new_hand(stacks, button=b, seed=state.seed)`` replays it."""
        return self._seed

    def add_board(self, cards):
        """Give more board cards to a hand started from given cards (live dealing, replays):
        the board grows up to five cards; cards already dealt never change."""
        self._board, self._partial = more_board(self._hole, self._board, self._seed, cards)

    def status_code(self, seat):
        """0 active, 1 folded, 2 all in (a seat outside 0..n-1: InvalidSeatError)."""
        cdef int i
        if type(seat) is not int or not 0 <= seat < self._n:
            seat = seat_index(seat, self._n)
        i = seat
        if self._folded[i]:
            return 1
        return 2 if self._stacks[i] == 0 else 0

    def raw_history(self):
        """The history as ``(seat, street, type, to, amount, all_in)`` int tuples."""
        return list(self._hist)

    def result_or_none(self):
        if self._result is None and self._over:
            self._result = self._settle()
        return self._result

    # ------------------------------------------------------------------ copying, pickling
    cpdef HandCore clone(self):
        """An independent copy (C arrays copied, immutable parts shared): cheap, no deepcopy."""
        cdef HandCore new = type(self).__new__(type(self))
        new._copy_from(self)
        new._hist = list(self._hist)
        return new

    def __copy__(self):
        return self.clone()

    cdef _copy_from(self, HandCore o):
        self.game = o.game
        self._n = o._n
        self._button = o._button
        self._street = o._street
        self._actor = o._actor
        self._raises = o._raises
        self._aggr = o._aggr
        self._nboard = o._nboard
        self._live = o._live
        self._kind = o._kind
        self._sb_seat = o._sb_seat
        self._bb_seat = o._bb_seat
        self._cur = o._cur
        self._inc = o._inc
        self._full = o._full
        self._bb = o._bb
        self._cap = o._cap
        self._dead = o._dead
        memcpy(self._sizes, o._sizes, sizeof(self._sizes))
        self._over = o._over
        self._partial = o._partial
        self._lift = o._lift
        self._fold_free = o._fold_free
        memcpy(self._stacks, o._stacks, sizeof(self._stacks))
        memcpy(self._bets, o._bets, sizeof(self._bets))
        memcpy(self._committed, o._committed, sizeof(self._committed))
        memcpy(self._acted, o._acted, sizeof(self._acted))
        memcpy(self._folded, o._folded, sizeof(self._folded))
        self._start_stacks = o._start_stacks
        self._hole = o._hole
        self._board = o._board
        self._burns = o._burns
        self._posts = o._posts
        self._hist = o._hist
        self._seed = o._seed
        self._result = o._result
        self._first = o._first
        self._legal = o._legal

    def _getstate(self):
        """The state as the tuple of :data:`holdem.hand._fields.FIELDS` (in that order)."""
        cdef int n = self._n
        return (
            self.game, n, self._button, self._street, self._actor, self._raises, self._aggr,
            self._nboard, self._live, self._kind, self._sb_seat, self._bb_seat, self._cur,
            self._inc, self._full, self._bb, self._cap, self._dead,
            tuple([self._sizes[i] for i in range(4)]), self._over, self._partial, self._lift,
            self._fold_free,
            tuple([self._stacks[i] for i in range(n)]), tuple([self._bets[i] for i in range(n)]),
            tuple([self._committed[i] for i in range(n)]),
            tuple([self._acted[i] for i in range(n)]),
            tuple([bool(self._folded[i]) for i in range(n)]),
            self._start_stacks, self._hole, self._board, self._burns, self._posts,
            tuple(self._hist), self.result_or_none(), self._seed,
        )

    def _setstate(self, state):
        """Restore a state from :meth:`_getstate`'s tuple, checked first by
        :func:`holdem.hand._fields.check_state` (InvalidStateError; nothing is changed)."""
        cdef int i, n
        s = check_state(state)
        n = s["n"]
        if n > MAXP:  # not reached: check_state bounds the seat count by the same limit
            raise InvalidStateError(f"not a valid pickled HandState: {n} seats")
        self.game = s["game"]
        self._n = n
        self._button = s["button"]
        self._street = s["street"]
        self._actor = s["actor"]
        self._raises = s["raises"]
        self._aggr = s["aggr"]
        self._nboard = s["nboard"]
        self._live = s["live"]
        self._kind = s["kind"]
        self._sb_seat = s["sb_seat"]
        self._bb_seat = s["bb_seat"]
        self._cur = s["cur"]
        self._inc = s["inc"]
        self._full = s["full"]
        self._bb = s["bb"]
        self._cap = s["cap"]
        self._dead = s["dead"]
        for i in range(4):
            self._sizes[i] = s["sizes"][i]
        self._over = s["over"]
        self._partial = s["partial"]
        self._lift = s["lift"]
        self._fold_free = s["fold_free"]
        for i in range(n):
            self._stacks[i] = s["stacks"][i]
            self._bets[i] = s["bets"][i]
            self._committed[i] = s["committed"][i]
            self._acted[i] = s["acted"][i]
            self._folded[i] = s["folded"][i]
        self._start_stacks = s["start_stacks"]
        self._hole = s["hole"]
        self._board = s["board"]
        self._burns = s["burns"]
        self._posts = s["posts"]
        self._hist = list(s["hist"])
        self._result = s["result"]
        self._seed = s["seed"]
        self._first = -1
        self._legal = None

    def __reduce__(self):
        return (_rebuild, (type(self), self._getstate()))

    def __eq__(self, other):
        if not isinstance(other, HandCore):
            return NotImplemented
        return self._getstate() == (<HandCore>other)._getstate()

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    # ------------------------------------------------------------------ showdown
    cdef _need_board(self, int count):
        if count > len(self._board):
            raise InvalidHandError(
                f"the board needs {count} cards but only {len(self._board)} were given")

    cdef _finish(self):
        """End the hand: one seat left (R19) or a showdown (R29-R33).

        Everything that can fail (a board or hole cards missing at the showdown) is checked
        here; the pots are paid and the :class:`holdem.HandResult` built on first use
        (:meth:`result_or_none`), from state that no longer changes once the hand is over.
        """
        cdef int n = self._n, j, k, first
        cdef bint showdown = self._live > 1
        first = self._aggr if self._street == 3 else -1
        if showdown:
            self._need_board(5)
            if first < 0:  # R33: first seat in the hand left of the button
                for k in range(1, n + 1):
                    j = (self._button + k) % n
                    if not self._folded[j]:
                        first = j
                        break
            for k in range(n):  # unknown hole cards at a showdown, in showing order
                j = (first + k) % n
                if not self._folded[j] and self._hole[j] is None:
                    raise InvalidHandError(
                        f"seat {j} reaches the showdown but its hole cards are unknown")
            self._street = 4
        self._first = first
        self._over = True
        self._actor = -1
        self._legal = None

    cdef object _settle(self):
        """The result of the finished hand: :func:`holdem.hand._settle.settle` computed from the C
        arrays (same rules, same values); a hand with rake goes through ``settle`` itself."""
        cdef int n = self._n, j, k, w, first = self._first
        cdef bint showdown = self._live > 1, show_all
        cdef int64_t total = 0, second = 0, amount, r
        cdef int32_t ranks[MAXP]
        cdef uint8_t folded[MAXP]
        cdef hd_pot_result_t res
        cdef hd_pot_t *p
        game = self.game
        if game.rake is not None:
            return settle(
                game, self._button, [bool(self._folded[j]) for j in range(n)],
                [self._committed[j] for j in range(n)], [self._stacks[j] for j in range(n)],
                self._start_stacks, self._hole, self._board[: self._nboard],
                first, showdown, self._dead)
        for j in range(n):
            total += self._committed[j]
            folded[j] = self._folded[j]
            ranks[j] = HD_POTS_NO_RANK
        order = []
        shown = {}
        rank_of = {}
        mucked = []
        if showdown:  # R29-R33 (see holdem.hand._settle.settle)
            board = self._board[: self._nboard]
            show_all = not game.muck_losing_hands
            for k in range(n):
                j = (first + k) % n
                if not self._folded[j]:
                    order.append(j)
                    if self._stacks[j] == 0:
                        show_all = True
            for j in order:
                cards = self._hole[j]
                r = evaluate(cards + board)  # R29: best five of the seven cards
                ranks[j] = <int32_t>r
                if not show_all:
                    for k in rank_of:
                        if ranks[k] > r and self._committed[k] >= self._committed[j]:
                            break
                    else:
                        k = -1
                    if k >= 0:
                        mucked.append(j)
                        continue
                rank_of[j] = r
                shown[j] = cards
        elif self._dead == 0:  # R19, R21: one seat left (holdem.hand._settle._lone_result)
            w = -1
            for j in range(n):
                if not self._folded[j]:
                    w = j
                elif self._committed[j] > second:
                    second = self._committed[j]
            if self._committed[w] >= second and total - (self._committed[w] - second) > 0:
                amount = total - (self._committed[w] - second)
                final = [self._stacks[j] for j in range(n)]
                final[w] += total
                returned = [0] * n
                returned[w] = self._committed[w] - second
                return _new_tuple(HandResult, (
                    tuple([final[j] - self._start_stacks[j] for j in range(n)]), tuple(final),
                    (Pot(amount, (w,), (w,), (amount,)),), tuple(returned), 0, (), {}, (), {}))
        if split_pots_c(self._committed, folded, ranks, n, self._button, self._dead, NULL,
                        self._nboard >= 3, &res) != HD_POTS_OK:
            return settle(  # not reached for a valid hand; raises with the reason
                game, self._button, [bool(self._folded[j]) for j in range(n)],
                [self._committed[j] for j in range(n)], [self._stacks[j] for j in range(n)],
                self._start_stacks, self._hole, self._board[: self._nboard],
                first, showdown, self._dead)
        pots = []
        for k in range(res.n_pots):  # as holdem.pots.split_pots builds them
            p = &res.pots[k]
            eligible = []
            winners = []
            shares = []
            for j in range(n):
                if (p.eligible >> j) & 1:
                    eligible.append(j)
                if (p.winners >> j) & 1:
                    winners.append(j)
                    shares.append(p.shares[j])
            pots.append(Pot(p.amount, tuple(eligible), tuple(winners), tuple(shares), p.rake))
        final = tuple([self._stacks[j] + res.payouts[j] for j in range(n)])
        return _new_tuple(HandResult, (
            tuple([final[j] - self._start_stacks[j] for j in range(n)]), final, tuple(pots),
            tuple([res.returned[j] for j in range(n)]), res.rake, tuple(order), shown,
            tuple(mucked), rank_of))

    # ------------------------------------------------------------------ engine core
    cdef int _find_actor(self, int start) noexcept:
        """The first seat from ``start`` clockwise that must act, or -1 (round over, R19)."""
        cdef int n = self._n, j, k, i, chips = 0
        for j in range(n):
            if self._stacks[j] > 0 and not self._folded[j]:
                chips += 1
        for k in range(n):
            i = (start + k) % n
            if self._folded[i] or self._stacks[i] == 0:
                continue
            if self._bets[i] < self._cur or (self._acted[i] < 0 and chips > 1):
                return i
        return -1

    cdef _end_street(self):
        """Close the round: return the uncalled bet (R21), deal on (R13, R14, R20)."""
        cdef int n = self._n, j, k, cnt, actor, nb
        cdef int64_t top, second
        while True:
            top = 0
            k = -1
            cnt = 0
            for j in range(n):
                if self._bets[j] > top:
                    top = self._bets[j]
                    k = j
                    cnt = 1
                elif self._bets[j] == top:
                    cnt += 1
            if top > 0 and cnt == 1:
                second = 0
                for j in range(n):
                    if j != k and self._bets[j] > second:
                        second = self._bets[j]
                self._stacks[k] += top - second
                self._committed[k] -= top - second
            if self._street == 3:
                self._finish()
                return
            nb = 3 if self._street == 0 else self._nboard + 1
            if self._partial:
                self._need_board(nb)
            self._street += 1
            self._nboard = nb
            for j in range(n):
                self._bets[j] = 0
                self._acted[j] = -1
            self._cur = 0
            self._inc = self._bb
            self._full = 0
            self._raises = 0
            self._aggr = -1
            actor = self._find_actor((self._button + 1) % n)
            if actor >= 0:
                self._actor = actor
                return

    cdef _act(self, int kind, int64_t to):
        """Apply an action without any check (kind 0 fold, 1 check/call, 2 bet/raise to)."""
        cdef int i = self._actor, actor
        cdef int64_t cur = self._cur, owe, add
        self._legal = None
        if kind == A_FOLD:
            self._folded[i] = True
            self._live -= 1
            self._hist.append((i, self._street, T_FOLD, self._bets[i], 0, False))
            if self._live == 1:
                self._finish()
                return
        elif kind == A_CC:
            owe = cur - self._bets[i]
            if owe <= 0:
                self._hist.append((i, self._street, T_CHECK, self._bets[i], 0, False))
            else:
                if owe > self._stacks[i]:
                    owe = self._stacks[i]
                self._stacks[i] -= owe
                self._bets[i] += owe
                self._committed[i] += owe
                self._hist.append((i, self._street, T_CALL, self._bets[i], owe,
                                   self._stacks[i] == 0))
            self._acted[i] = cur
        else:
            add = to - self._bets[i]
            self._stacks[i] -= add
            self._bets[i] = to
            self._committed[i] += add
            if self._kind == K_FL:
                if 2 * (to - self._full) >= self._sizes[self._street]:
                    self._full = to
                    self._raises += 1
            elif to - cur >= self._inc:
                self._inc = to - cur
            self._cur = to
            self._acted[i] = to
            self._aggr = i
            self._hist.append((i, self._street, T_BET if cur == 0 else T_RAISE, to, add,
                               self._stacks[i] == 0))
        actor = self._find_actor((i + 1) % self._n)
        if actor < 0:
            self._end_street()
        else:
            self._actor = actor

    # ------------------------------------------------------------------ legal actions
    cpdef legal_actions(self):
        """What the seat to act may do (cached; see :class:`holdem.LegalActions`)."""
        cdef int i
        cdef int64_t cur, bet, stack, owe, total, lo, hi
        cdef bint can_check, can_raise
        if self._legal is not None:
            return self._legal
        if self._over:
            raise IllegalActionError("the hand is over: nobody is to act")
        i = self._actor
        cur = self._cur
        bet = self._bets[i]
        stack = self._stacks[i]
        owe = cur - bet
        can_check = owe <= 0
        can_raise = self._raise_block(i) == 0
        if can_raise:
            total = bet + stack
            if self._kind == K_FL:
                lo = self._full + self._sizes[self._street]
                if lo > total:
                    lo = total
                hi = lo
            else:
                lo = cur + self._inc
                if lo > total:
                    lo = total
                if self._kind == K_NL:
                    hi = total
                else:  # R25: the highest bet plus the pot after calling
                    hi = 2 * cur - bet + self._dead
                    for j in range(self._n):
                        hi += self._committed[j]
                    if hi < lo:
                        hi = lo
                    if hi > total:
                        hi = total
            legal = _new_tuple(LegalActions, (
                i, (not can_check) or self._fold_free, can_check,
                0 if can_check else (owe if owe < stack else stack), True, cur == 0, lo, hi))
        else:
            legal = _new_tuple(LegalActions, (
                i, (not can_check) or self._fold_free, can_check,
                0 if can_check else (owe if owe < stack else stack), False, cur == 0, None, None))
        self._legal = legal
        return legal

    cdef int _raise_block(self, int i) noexcept:
        """0 when seat ``i`` may bet or raise now, else the reason's code (see _REASONS)."""
        cdef int64_t cur = self._cur, faced
        cdef int j
        if self._stacks[i] <= cur - self._bets[i]:
            return 1
        for j in range(self._n):
            if j != i and not self._folded[j] and self._bets[j] + self._stacks[j] > cur:
                break
        else:
            return 2
        if (self._kind == K_FL and self._raises >= self._cap
                and not (self._lift and self._live == 2)):
            return 3
        if self._acted[i] >= 0:
            faced = cur - self._acted[i]
            if self._kind == K_FL:
                if 2 * faced < self._sizes[self._street]:
                    return 4
            elif faced < self._inc:
                return 5
        return 0

    def _block_reason(self, int i):
        code = self._raise_block(i)
        if code == 3:
            return f"the betting is capped (R27: a bet and {self._cap - 1} raises)"
        return _REASONS[code]

    def actions(self):
        """The legal action kinds as actions (fold, check or call, min and max bet/raise)."""
        return actions_of(self.legal_actions())

    def is_legal(self, action):
        try:
            self._resolve(action, None)
        except IllegalActionError:
            return False
        return True

    # ------------------------------------------------------------------ acting (checked)
    cdef _seat_check(self, seat):
        if self._over:
            raise IllegalActionError("the hand is over: no more actions")
        if seat is not None and seat != self._actor:
            raise OutOfTurnError(
                f"seat {_shown(seat)} acted out of turn: seat {self._actor} is to act")
        return self.legal_actions()

    cdef tuple _resolve(self, action, seat):
        """Validate ``action`` for the seat to act; return ``(kind, to)`` for :meth:`_act`."""
        t, to, seat = to_action(action, seat)
        la = self._seat_check(seat)
        i = la.seat
        return resolve(t, to, la, self._bets[i], self._stacks[i], self._cur, self._block_reason)

    def apply(self, action, *, seat=None):
        """Validate and apply ``action`` (an :class:`Action`, PHH text or int code).

        ``seat``, when given, must be the seat to act (else :class:`OutOfTurnError`).
        """
        cdef HandCore backup
        kind, to = self._resolve(action, seat)
        if self._partial:
            backup = self.clone()
            try:
                self._act(kind, to)
            except InvalidHandError:
                self._copy_from(backup)
                raise
        else:
            self._act(kind, to)

    def apply_unchecked(self, kind, to=0):
        """Fast path for trusted callers: ``kind`` 0 fold, 1 check/call, 2 bet/raise to ``to``.

        No validation of the rules: an illegal action leaves the state inconsistent (but never
        touches memory outside the state: acting on a finished hand is refused, and a value
        that does not fit a C integer raises InvalidActionError, not OverflowError).
        """
        cdef int k
        cdef int64_t t
        if self._over:
            raise IllegalActionError("the hand is over: no more actions")
        try:
            k = kind
            t = to
        except OverflowError:
            raise InvalidActionError(
                f"apply_unchecked: kind is 0..2 and to 0 .. 2**53 chips (the engine's limit), "
                f"got kind={_shown(kind)}, to={_shown(to)}") from None
        except TypeError:
            raise TypeError(f"apply_unchecked: kind and to must be ints, got "
                            f"{type(kind).__name__} and {type(to).__name__}") from None
        self._act(k, t)


_REASONS = (
    None,
    "the seat cannot cover more than the call (R18: call all in or fold)",
    "no other player in the hand could call more (R17: call or fold only)",
    "the betting is capped (R27)",
    "an all-in of less than half a bet did not reopen the betting (R28: call or fold only)",
    "an all-in of less than a full raise did not reopen the betting (R24: call or fold only)",
)


def _check_fields():
    """Import-time check that ``_getstate``, ``_setstate`` and ``_copy_from`` (``clone``)
    cover exactly the declared :data:`holdem.hand._fields.FIELDS`, on a hand mid-street with
    every field away from its default: a field missing from one of them fails the import."""
    from holdem.hand.game import AnteType, Game
    game = Game(big_blind=2, ante=1, ante_type=AnteType.BIG_BLIND)
    cdef HandCore probe = HandCore._start(game, [7, 90, 11], 1, 5, None, None)
    cdef HandCore back = HandCore.__new__(HandCore)
    probe.apply("cbr 6")
    state = probe._getstate()
    if len(state) != len(FIELDS):
        raise ImportError(f"holdem.hand._compiled: _getstate gives {len(state)} fields, FIELDS "
                          f"declares {len(FIELDS)}")
    back._setstate(state)
    if back._getstate() != state:
        raise ImportError("holdem.hand._compiled: _setstate does not restore what _getstate saved")
    if probe.clone()._getstate() != state:
        raise ImportError("holdem.hand._compiled: _copy_from (clone) misses a field of FIELDS")


_check_fields()
