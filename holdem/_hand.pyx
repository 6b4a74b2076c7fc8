# cython: language_level=3
"""The compiled core of :class:`holdem.HandState`: fixed C arrays, no allocation per action.

This is a line-by-line port of the pure-Python reference core :mod:`holdem._betting` (same
rules, same messages; see its docstring for the rule choices). The test suite runs both on the
same traces and random hands and compares them decision by decision.
"""

from libc.stdint cimport int64_t, uint64_t
from libc.string cimport memcpy

from holdem._deck cimport (
    hd_deck_init,
    hd_deck_pop,
    hd_deck_shuffle,
    hd_deck_t,
    hd_rng_seed,
    hd_rng_t,
)

from holdem._deck import Deck
from holdem.actions import Action, ActionType
from holdem.cards import Card, parse_cards
from holdem.errors import (
    DuplicateCardError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidConfigError,
    InvalidHandError,
    OutOfTurnError,
)
from holdem.hand_types import HandResult, LegalActions, Post

__all__ = ["HandCore"]

cdef enum:
    MAXP = 10
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

MAX_CHIPS = 1 << 53
cdef object _MASK64 = (1 << 64) - 1
cdef tuple _CARD_OBJS = tuple(Card(i) for i in range(52))


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
cdef object _FOLD_T = ActionType.FOLD
cdef object _CHECK_T = ActionType.CHECK
cdef object _CALL_T = ActionType.CALL
cdef object _CC_T = ActionType.CHECK_CALL
cdef object _BET_T = ActionType.BET
cdef object _RAISE_T = ActionType.RAISE
cdef object _BR_T = ActionType.BET_RAISE
cdef object _ALLIN_T = ActionType.ALL_IN


def _cards_of(value):
    if isinstance(value, str):
        return parse_cards(value)
    return tuple(Card(c) for c in value)


def _rebuild(cls, state):
    cdef HandCore st = cls.__new__(cls)
    st._setstate(state)
    return st


cdef class HandCore:
    """Compiled hand state (see :class:`holdem.HandState` for the documented API)."""

    cdef readonly object game
    cdef int _n, _button, _street, _actor, _raises, _aggr, _nboard, _live, _kind
    cdef int _sb_seat, _bb_seat
    cdef int64_t _cur, _inc, _full, _bb, _cap
    cdef int64_t _sizes[4]
    cdef bint _over, _partial, _lift, _fold_free
    cdef int64_t _stacks[MAXP]
    cdef int64_t _bets[MAXP]
    cdef int64_t _committed[MAXP]
    cdef int64_t _acted[MAXP]
    cdef bint _folded[MAXP]
    cdef tuple _start_stacks, _hole, _board, _burns, _posts
    cdef list _hist
    cdef object _result, _legal

    def __init__(self, *args, **kwargs):
        raise TypeError("start a hand with Game.new_hand(...)")

    # ------------------------------------------------------------------ setup
    @classmethod
    def _start(cls, game, stacks, button, seed, hole_cards, board):
        cdef HandCore st
        cdef int n, i, k, sb_seat, bb_seat, last, actor
        cdef int64_t level, bb
        try:
            stacks = list(stacks)
        except TypeError:
            raise InvalidConfigError(f"stacks must be a sequence of ints, got {stacks!r}") from None
        n = len(stacks)
        if not 2 <= n <= 10:
            raise InvalidConfigError(f"a hand needs 2 to 10 players (R1), got {n}")
        for i, s in enumerate(stacks):
            if isinstance(s, bool) or not isinstance(s, int) or s < 1:
                raise InvalidConfigError(f"stack of seat {i} must be an int >= 1, got {s!r}")
            if s > MAX_CHIPS:
                raise InvalidConfigError(f"stack of seat {i} is above 2**53 chips")
        if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < n:
            raise InvalidConfigError(f"button must be a seat 0..{n - 1}, got {button!r}")
        if game.straddle and n < 3:
            raise InvalidConfigError("a straddle needs at least 3 players (R8)")
        st = cls.__new__(cls)
        st.game = game
        st._n = n
        st._button = button
        st._start_stacks = tuple(stacks)
        if n == 2:
            sb_seat = button
            bb_seat = (button + 1) % n
        else:
            sb_seat = (button + 1) % n
            bb_seat = (button + 2) % n
        st._sb_seat = sb_seat
        st._bb_seat = bb_seat
        first_dealt = (button + 1) % n
        if game.deal_start.value == "big_blind":
            first_dealt = (bb_seat + 1) % n
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
        structure = game.structure.value
        st._kind = K_NL if structure == "NL" else K_PL if structure == "PL" else K_FL
        bb = game.big_blind
        st._bb = bb
        if st._kind == K_FL:
            st._sizes[0] = st._sizes[1] = game.small_bet
            st._sizes[2] = st._sizes[3] = game.big_bet
            st._cap = 1 + game.max_raises
        else:
            for k in range(4):
                st._sizes[k] = bb
            st._cap = 1 << 30
        st._lift = not game.cap_heads_up
        st._fold_free = game.fold_when_check_free
        posts = []
        ante = game.ante
        bb_ante = game.ante_type.value == "big_blind"
        if ante and not bb_ante:
            for k in range(n):
                st._post(posts, (sb_seat + k) % n, "ante", ante, False)
        st._post(posts, sb_seat, "small_blind", game.small_blind, True)
        st._post(posts, bb_seat, "big_blind", bb, True)
        level = bb
        last = bb_seat
        if game.straddle:
            last = (bb_seat + 1) % n
            level = 2 * bb
            st._post(posts, last, "straddle", level, True)
        if ante and bb_ante:
            st._post(posts, bb_seat, "big_blind_ante", ante, False)
        st._posts = tuple(posts)
        st._cur = level
        st._inc = level
        st._full = level
        st._raises = 2 if game.straddle else 1
        st._actor = -1
        st._nboard = 0
        actor = st._find_actor((last + 1) % n)
        if actor < 0:
            st._end_street()
        else:
            st._actor = actor
        return st

    cdef _post(self, list posts, int seat, str kind, int64_t amount, bint live):
        cdef int64_t a = amount if amount < self._stacks[seat] else self._stacks[seat]
        if a <= 0:
            return
        self._stacks[seat] -= a
        self._committed[seat] += a
        if live:
            self._bets[seat] += a
        posts.append(Post(seat, kind, a))

    cdef _deal(self, seed, hole_cards, board, int first):
        cdef int n = self._n, k, b
        if hole_cards is None and board is None:
            if isinstance(seed, bool) or not (seed is None or isinstance(seed, int)):
                raise InvalidConfigError(f"seed must be an int or None, got {seed!r}")
            order = _deal_order(seed, 2 * n + 8)
            hole = [None] * n
            for k in range(n):
                hole[(first + k) % n] = (order[k], order[n + k])
            b = 2 * n
            self._hole = tuple(hole)
            self._burns = (order[b], order[b + 4], order[b + 6])
            self._board = (order[b + 1], order[b + 2], order[b + 3], order[b + 5], order[b + 7])
            self._partial = False
            return
        if seed is not None:
            raise InvalidConfigError(
                "give either seed= or the cards (hole_cards=, board=), not both")
        if hole_cards is None or len(hole_cards) != n:
            raise InvalidConfigError(f"hole_cards needs one entry per seat ({n})")
        holes = []
        seen = set()
        partial = False
        for i, h in enumerate(hole_cards):
            if h is None:
                holes.append(None)
                partial = True
                continue
            try:
                cards = _cards_of(h)
            except (TypeError, InvalidCardError) as exc:
                raise InvalidCardError(f"hole cards of seat {i}: {exc}") from None
            if len(cards) != 2:
                raise InvalidHandError(f"seat {i} needs exactly 2 hole cards, got {len(cards)}")
            holes.append(cards)
            for c in cards:
                if c in seen:
                    raise DuplicateCardError(f"card {c} is given twice")
                seen.add(c)
        bcards = _cards_of(board) if board is not None else ()
        if len(bcards) > 5:
            raise InvalidHandError(f"a board has at most 5 cards, got {len(bcards)}")
        for c in bcards:
            if c in seen:
                raise DuplicateCardError(f"card {c} is given twice")
            seen.add(c)
        self._hole = tuple(holes)
        self._board = tuple(bcards)
        self._burns = ()
        self._partial = partial or len(bcards) < 5

    # ------------------------------------------------------------------ plain queries
    @property
    def num_players(self):
        return self._n

    @property
    def button(self):
        return self._button

    @property
    def small_blind_seat(self):
        """R2/R3: left of the button, or the button itself heads-up."""
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
        """Chips each seat has put in this hand (antes and every street, uncalled bets removed)."""
        return tuple([self._committed[i] for i in range(self._n)])

    @property
    def pot(self):
        """All chips in the middle, current street bets included."""
        cdef int64_t t = 0
        cdef int i
        for i in range(self._n):
            t += self._committed[i]
        return t

    @property
    def posts(self):
        """The forced bets posted at the start (antes, blinds, straddle), in posting order."""
        return self._posts

    @property
    def current_bet(self):
        """The street total a seat must match to call (preflop at least the full big blind, R9)."""
        return self._cur

    def is_terminal(self):
        return self._over

    def status_code(self, int seat):
        """0 active, 1 folded, 2 all in."""
        if not 0 <= seat < self._n:
            raise IndexError(f"seat {seat} is out of range")
        if self._folded[seat]:
            return 1
        return 2 if self._stacks[seat] == 0 else 0

    def raw_history(self):
        """The history as ``(seat, street, type, to, amount, all_in)`` int tuples."""
        return list(self._hist)

    def result_or_none(self):
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
        self._result = o._result
        self._legal = o._legal

    def _getstate(self):
        cdef int n = self._n
        return (
            self.game, n, self._button, self._street, self._actor, self._raises, self._aggr,
            self._nboard, self._live, self._kind, self._sb_seat, self._bb_seat, self._cur,
            self._inc, self._full, self._bb, self._cap,
            tuple([self._sizes[i] for i in range(4)]), self._over, self._partial, self._lift,
            self._fold_free,
            tuple([self._stacks[i] for i in range(n)]), tuple([self._bets[i] for i in range(n)]),
            tuple([self._committed[i] for i in range(n)]),
            tuple([self._acted[i] for i in range(n)]),
            tuple([bool(self._folded[i]) for i in range(n)]),
            self._start_stacks, self._hole, self._board, self._burns, self._posts,
            tuple(self._hist), self._result,
        )

    def _setstate(self, state):
        cdef int i
        (self.game, self._n, self._button, self._street, self._actor, self._raises, self._aggr,
         self._nboard, self._live, self._kind, self._sb_seat, self._bb_seat, self._cur,
         self._inc, self._full, self._bb, self._cap, sizes, self._over, self._partial,
         self._lift, self._fold_free, stacks, bets, committed, acted, folded,
         self._start_stacks, self._hole, self._board, self._burns, self._posts, hist,
         self._result) = state
        for i in range(4):
            self._sizes[i] = sizes[i]
        for i in range(self._n):
            self._stacks[i] = stacks[i]
            self._bets[i] = bets[i]
            self._committed[i] = committed[i]
            self._acted[i] = acted[i]
            self._folded[i] = folded[i]
        self._hist = list(hist)
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
        """End the hand: one seat left (R19) or a showdown (R29-R33); pay the pots."""
        from holdem import _showdown

        cdef int n = self._n, j, k, first
        cdef bint show_all
        game = self.game
        folded = [bool(self._folded[j]) for j in range(n)]
        committed = [self._committed[j] for j in range(n)]
        ranks = None
        order = []
        shown = {}
        rank_of = {}
        mucked = []
        if self._live > 1:
            self._need_board(5)
            first = self._aggr if (self._aggr >= 0 and self._street == 3) else -1
            if first < 0:
                for k in range(1, n + 1):
                    j = (self._button + k) % n
                    if not self._folded[j]:
                        first = j
                        break
            for k in range(n):
                j = (first + k) % n
                if not self._folded[j]:
                    order.append(j)
            show_all = not game.muck_losing_hands
            for j in order:
                if self._stacks[j] == 0:
                    show_all = True
            board = self._board
            ranks = [None] * n
            for j in order:
                hole = self._hole[j]
                if hole is None:
                    raise InvalidHandError(
                        f"seat {j} reaches the showdown but its hole cards are unknown")
                r = _showdown.rank7((hole[0], hole[1]) + board)
                ranks[j] = r
                if not show_all:
                    beaten = False
                    for k2, r2 in rank_of.items():
                        if r2 > r and committed[k2] >= committed[j]:
                            beaten = True
                            break
                    if beaten:
                        # R33: beaten in every pot it is in by a shown hand: mucked (it
                        # stays eligible; it could not win anything).
                        mucked.append(j)
                        continue
                rank_of[j] = r
                shown[j] = hole
        res = _showdown.split(committed, folded, ranks, self._button, rake=game.rake,
                              flop_dealt=self._nboard >= 3)
        payouts = res.payouts
        final = tuple([self._stacks[j] + payouts[j] for j in range(n)])
        payoffs = tuple([final[j] - self._start_stacks[j] for j in range(n)])
        self._result = HandResult(payoffs, final, tuple(res.pots), tuple(res.returned),
                                  int(res.rake), tuple(order), shown, tuple(mucked), rank_of)
        if self._live > 1:
            self._street = 4
        self._over = True
        self._actor = -1
        self._legal = None

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
                    hi = 2 * cur - bet
                    for j in range(self._n):
                        hi += self._committed[j]
                    if hi < lo:
                        hi = lo
                    if hi > total:
                        hi = total
            legal = LegalActions(i, (not can_check) or self._fold_free, can_check,
                                 0 if can_check else (owe if owe < stack else stack),
                                 True, cur == 0, lo, hi)
        else:
            legal = LegalActions(i, (not can_check) or self._fold_free, can_check,
                                 0 if can_check else (owe if owe < stack else stack),
                                 False, cur == 0, None, None)
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
        la = self.legal_actions()
        out = []
        if la.can_fold:
            out.append(Action.fold())
        out.append(Action.check() if la.can_check else Action.call())
        if la.can_raise:
            make = Action.bet if la.is_bet else Action.raise_to
            out.append(make(la.min_to))
            if la.max_to != la.min_to:
                out.append(make(la.max_to))
        return out

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
            raise OutOfTurnError(f"seat {seat} acted out of turn: seat {self._actor} is to act")
        return self.legal_actions()

    cdef _range(self, la, to, str word):
        if not la.can_raise:
            raise IllegalActionError(
                f"{word} to {to} is not allowed: {self._block_reason(la.seat)}")
        if la.min_to == la.max_to and to != la.min_to:
            raise IllegalActionError(
                f"{word} to {to} is not allowed: the only {word} is to {la.min_to}")
        if to < la.min_to:
            raise IllegalActionError(f"{word} to {to} is below the minimum {word} to {la.min_to}")
        if to > la.max_to:
            raise IllegalActionError(f"{word} to {to} is above the maximum {word} to {la.max_to}")

    cdef tuple _resolve(self, action, seat):
        """Validate ``action`` for the seat to act; return ``(kind, to)`` for :meth:`_act`."""
        if isinstance(action, str):
            action = Action.parse(action)
        elif isinstance(action, int) and not isinstance(action, bool):
            action = Action.from_int(action)
        elif not isinstance(action, tuple) or len(action) != 2:
            raise InvalidActionError(f"not an action: {action!r}")
        la = self._seat_check(seat)
        t, to = action
        if t == _FOLD_T:
            if not la.can_fold:
                raise IllegalActionError("fold is not offered: checking is free (R17); check")
            return (A_FOLD, 0)
        if t == _CHECK_T:
            if not la.can_check:
                raise IllegalActionError(
                    f"check is not allowed facing a bet: call {la.call} or fold")
            return (A_CC, 0)
        if t == _CALL_T:
            if la.can_check:
                raise IllegalActionError("call: there is no bet to call; check instead")
            return (A_CC, 0)
        if t == _CC_T:
            return (A_CC, 0)
        if t == _ALLIN_T:
            i = la.seat
            total = self._bets[i] + self._stacks[i]
            if la.can_raise and la.max_to == total:
                return (A_BR, total)
            if not la.can_check and la.call == self._stacks[i]:
                return (A_CC, 0)
            allowed = f"the maximum is to {la.max_to}" if la.can_raise else "call or fold"
            raise IllegalActionError(f"all in to {total} is not allowed: {allowed}")
        if to is None:
            raise InvalidActionError(f"{t.name.lower()} needs an amount")
        if t == _BET_T:
            if not la.is_bet:
                raise IllegalActionError(
                    f"bet to {to}: there is already a bet of {self._cur}; raise instead")
            self._range(la, to, "bet")
        elif t == _RAISE_T:
            if la.is_bet:
                raise IllegalActionError(f"raise to {to}: there is no bet to raise; bet instead")
            self._range(la, to, "raise")
        elif t == _BR_T:
            self._range(la, to, "bet" if la.is_bet else "raise")
        else:
            raise InvalidActionError(f"unknown action type {t!r}")
        return (A_BR, to)

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

    def apply_unchecked(self, int kind, int64_t to=0):
        """Fast path for trusted callers: ``kind`` 0 fold, 1 check/call, 2 bet/raise to ``to``.

        No validation at all: an illegal action leaves the state inconsistent.
        """
        self._act(kind, to)

    def fold(self, *, seat=None):
        self.apply(Action.fold(), seat=seat)

    def check(self, *, seat=None):
        self.apply(Action.check(), seat=seat)

    def call(self, *, seat=None):
        self.apply(Action.call(), seat=seat)

    def check_or_call(self, *, seat=None):
        self.apply(Action.check_or_call(), seat=seat)

    def bet(self, to, *, seat=None):
        """Open the betting on this street: this seat's street total goes to ``to``."""
        self.apply(Action.bet(to), seat=seat)

    def raise_to(self, to, *, seat=None):
        """Raise: this seat's street total goes to ``to`` (not "by")."""
        self.apply(Action.raise_to(to), seat=seat)

    def bet_or_raise(self, to, *, seat=None):
        """PHH ``cbr``: bet or raise to ``to``, whichever applies."""
        self.apply(Action.bet_or_raise(to), seat=seat)

    def all_in(self, *, seat=None):
        """Bet, raise or call with every chip (R17), when that amount is legal."""
        self.apply(Action.all_in(), seat=seat)


_REASONS = (
    None,
    "the seat cannot cover more than the call (R18: call all in or fold)",
    "no other player in the hand could call more (R17: call or fold only)",
    "the betting is capped (R27)",
    "an all-in of less than half a bet did not reopen the betting (R28: call or fold only)",
    "an all-in of less than a full raise did not reopen the betting (R24: call or fold only)",
)
