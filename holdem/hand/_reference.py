"""The betting engine behind :class:`holdem.HandState`: forced bets, legal actions, acting.

Rule choices (RULES.md ids; where RULES.md is silent, WSOP/TDA for tournaments and Robert's
Rules for cash games, which agree on everything here):

- Preflop the amount to call is the full big blind (or straddle) even when it was posted short
  (R9); the minimum raise increment starts at the big blind (or the straddle).
- A seat that already acted may raise again only when the amount it faces since its last action
  is at least a full raise: no-limit/pot-limit, the current minimum raise increment (R23, R24;
  several short all-ins add up, TDA 47); fixed limit, half a bet (R28, TDA 47B).
- Fixed limit: a bet or raise goes to exactly ``L + S`` (``L`` the level of the last full bet or
  raise, preflop the big blind; ``S`` the street's bet). An all-in to at least ``L + S/2`` is a
  full raise: it moves ``L`` and counts toward the cap (R27, R28). With the cap lifted heads-up
  (``cap_heads_up=False``, Robert's Rules), raises made while two players are left do not
  count toward it, and a round capped with more players in stays capped after folds leave
  two.
- Nobody may bet or raise when no other seat in the hand could put in more than the current bet
  (R17), nor with no more chips than the call (that is an all-in call, R18).
- A round ends when no seat still able to act owes chips or has yet to act (R19); a seat that
  has not acted is skipped when nobody else could answer a bet (everyone else all in), so an
  all-in run-out deals the board without betting (R20); so is a seat alone with chips whose
  bet already covers every other seat's, though it owes R9's full big blind (the big blind
  posted all in for less than its small blind). The uncalled part of the highest bet
  goes back to its owner at the end of each round (R21).
- Antes (R7): a uniform ante is posted before the blinds and is part of each seat's
  contribution; a big-blind ante is posted after the big blind (TDA: the blind first when the
  player is short) and is dead money in the main pot (WSOP), never returned as uncalled.
- Dead small blind (TDA dead-button rule, 3+ players): nobody posts the small blind, the big
  blind sits left of the button; preflop action starts left of the big blind (or straddle),
  later streets left of the button, so the big blind acts first after the flop (R16).
- Extra posts (``Game.new_hand(extra_posts=...)``): a live part (R36 entry bet, or a missed big
  blind, Robert's Rules) is posted like a blind: it counts toward the call, the amount to call
  and the minimum raise stay at the big blind level, and when nobody raised the poster keeps
  the option to check or raise (R6). A dead part (a missed small blind) is dead money in the
  main pot, like a big-blind ante: not part of the seat's bet, never returned as uncalled.
- Dead hands (TDA 30, ``Game.new_hand(dead_hands=...)``): a seat absent at the deal posts its
  forced bets, then its hand is folded before any action (its chips stay in the pots as a
  folded seat's, R31, the uncalled part returned, R21); with one live seat left the hand
  ends at once (R19).
- Straddle (R8): a live blind of twice the big blind; preflop the minimum raise is to twice the
  straddle (it plays as the round's big blind, Robert's Rules); in fixed limit it counts as a
  raise toward the cap.
- Showdown (R33): the last river bettor shows first, else the first seat left of the button;
  a hand that an earlier shown hand beats in every pot it is in is mucked (it keeps no claim);
  with any seat all in, every hand is shown (TDA 16). See :func:`holdem.hand._settle.settle`.

This pure-Python core is the reference; the compiled core used by default,
:mod:`holdem.hand._compiled`, runs the same rules in plain C (csrc/hd_hand.c). Both share
:mod:`holdem.hand._validate` (checks and messages); this core settles with
:mod:`holdem.hand._settle`, the compiled one in C into the same result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from holdem._deck import Deck
from holdem._ints import int_or_none
from holdem._seeding import resolve_seed
from holdem._shown import shown
from holdem.cards import Card, CardLike
from holdem.errors import (
    IllegalActionError,
    InvalidConfigError,
    InvalidHandError,
    InvalidStateError,
    OutOfTurnError,
)
from holdem.hand._fields import FIELDS, check_replay, check_state, rebuild, register_core
from holdem.hand._settle import settle, street_returns
from holdem.hand._validate import (
    actions_of,
    check_start,
    explain_code,
    given_cards,
    more_board,
    not_started,
    plan_dead_hands,
    plan_posts,
    resolve,
    seat_index,
    to_action,
)
from holdem.hand.actions import Action
from holdem.hand.records import HandResult, LegalActions, Post

if TYPE_CHECKING:
    from holdem.hand._plan import GameLike

_S = TypeVar("_S", bound="HandCore")

__all__ = ["HandCore"]

_NL, _PL, _FL = 0, 1, 2
_FOLD, _CC, _BR = 0, 1, 2
# history type codes (ActionType values)
_T_FOLD, _T_CHECK, _T_CALL, _T_BET, _T_RAISE = 0, 1, 2, 3, 4


def _deal_order(seed: int | None, count: int) -> tuple[Card, ...]:
    """The top ``count`` cards of a deck shuffled by ``seed`` (R11), in deal order."""
    return Deck(seed=seed).deal(count)


def _blank(cls: type[_S], doing: str) -> _S:
    """``cls.__new__(cls)``, refused (InvalidStateError) unless it is a hand (as the compiled
    core's): a subclass whose ``__new__`` returns something else (None...) has no slots to fill."""
    o = cls.__new__(cls)
    if not isinstance(o, HandCore):
        raise InvalidStateError(f"cannot {doing}: {cls.__name__}.__new__ returned "
                                f"{type(o).__name__}, not a hand state")
    return o


def _rebuild(cls: type[_S], state: Any) -> _S:
    """Unpickle a hand of this core (``holdem.hand._fields.rebuild``; pickles of earlier
    versions name this function): ``cls`` must be a hand class, ``state`` the tuple of
    :data:`holdem.hand._fields.FIELDS` (checked by ``__setstate__``)."""
    if not (isinstance(cls, type) and issubclass(cls, HandCore)):
        raise InvalidStateError(f"not a valid pickled HandState: {cls!r} is not a hand class")
    st = _blank(cls, "unpickle")
    st.__setstate__(state)
    return st


class HandCore:
    """The plain-data core of :class:`holdem.HandState` (all state lives in these slots).

    A state never started (``HandState.__new__``, not :meth:`holdem.Game.new_hand` or
    unpickling) has none of its slots set: each public entry point turns the AttributeError
    of its first read into :class:`holdem.InvalidStateError` (``not_started``). A ``try`` costs
    nothing until it catches, so the per-decision methods pay nothing for it.
    """

    __slots__ = (
        "_acted", "_actor", "_aggr", "_bb", "_bb_seat", "_bets", "_board", "_burns", "_button",
        "_cap", "_committed", "_cur", "_dead", "_fold_free", "_folded", "_full", "_game", "_hist", "_hole",
        "_inc", "_kind", "_legal", "_lift", "_live", "_n", "_nboard", "_over", "_partial",
        "_posts", "_raises", "_result", "_sb_seat", "_seed", "_sizes", "_stacks",
        "_start_stacks", "_street",
    )

    _game: GameLike
    _n: int
    _button: int
    _start_stacks: tuple[int, ...]
    _stacks: list[int]
    _bets: list[int]
    _committed: list[int]
    _folded: list[bool]
    _acted: list[int]
    _street: int
    _actor: int
    _cur: int
    _inc: int
    _full: int
    _raises: int
    _aggr: int
    _hole: tuple[tuple[Card, ...] | None, ...]
    _board: tuple[Card, ...]
    _burns: tuple[Card, ...]
    _nboard: int
    _hist: list[tuple[int, int, int, int, int, bool]]
    _posts: tuple[Post, ...]
    _result: HandResult | None
    _legal: LegalActions | None
    _over: bool
    _partial: bool
    _live: int
    _kind: int
    _bb: int
    _sizes: tuple[int, int, int, int]
    _cap: int
    _lift: bool
    _fold_free: bool
    _sb_seat: int
    _seed: int | None
    _dead: int
    _bb_seat: int

    # ------------------------------------------------------------------ queries
    @property
    def game(self) -> GameLike:
        """The :class:`holdem.Game` this hand is played under."""
        try:
            return self._game
        except AttributeError:
            raise not_started(self) from None

    @property
    def num_players(self) -> int:
        try:
            return self._n
        except AttributeError:
            raise not_started(self) from None

    @property
    def button(self) -> int:
        try:
            return self._button
        except AttributeError:
            raise not_started(self) from None

    @property
    def small_blind_seat(self) -> int:
        """R2/R3: left of the button, or the button itself heads-up or when the small blind
        is dead (``dead_small_blind=True``: nobody posted it)."""
        try:
            return self._sb_seat
        except AttributeError:
            raise not_started(self) from None

    @property
    def big_blind_seat(self) -> int:
        try:
            return self._bb_seat
        except AttributeError:
            raise not_started(self) from None

    @property
    def actor(self) -> int | None:
        """The seat to act, or ``None`` when the hand is over."""
        try:
            return None if self._actor < 0 else self._actor
        except AttributeError:
            raise not_started(self) from None

    @property
    def board(self) -> tuple[Card, ...]:
        """The community cards dealt so far (R14)."""
        try:
            return self._board[: self._nboard]
        except AttributeError:
            raise not_started(self) from None

    @property
    def burned(self) -> tuple[Card, ...]:
        """The burn cards used so far (R13); empty when the hand was started from given cards."""
        try:
            return self._burns[: (0, 0, 0, 1, 2, 3)[self._nboard]]
        except AttributeError:
            raise not_started(self) from None

    @property
    def hole_cards(self) -> tuple[tuple[Card, ...] | None, ...]:
        """Each seat's two hole cards (``None`` for a hand given as unknown)."""
        try:
            return self._hole
        except AttributeError:
            raise not_started(self) from None

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind, per seat (not counting chips already bet)."""
        try:
            return tuple(self._stacks)
        except AttributeError:
            raise not_started(self) from None

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        """Chips per seat before the forced bets."""
        try:
            return self._start_stacks
        except AttributeError:
            raise not_started(self) from None

    @property
    def bets(self) -> tuple[int, ...]:
        """Each seat's bet on the current street (blinds count, antes do not)."""
        try:
            return tuple(self._bets)
        except AttributeError:
            raise not_started(self) from None

    @property
    def committed(self) -> tuple[int, ...]:
        """Chips each seat has put in this hand (a big-blind ante and the dead part of an
        extra post are dead money: in :attr:`pot`, not here; a dead hand's posts are here,
        as a folded seat's). An
        uncalled bet leaves it when its street closes (R21); in a hand won because everyone
        else folded, the winner's last bet stays here and in :attr:`pot`; its uncalled part
        is ``result.returned``."""
        try:
            return tuple(self._committed)
        except AttributeError:
            raise not_started(self) from None

    @property
    def pot(self) -> int:
        """All chips in the middle: current street bets and a big-blind ante included."""
        try:
            return sum(self._committed) + self._dead
        except AttributeError:
            raise not_started(self) from None

    @property
    def posts(self) -> tuple[Post, ...]:
        """The forced bets posted at the start (antes, blinds, straddle, extra posts), in
        posting order."""
        try:
            return self._posts
        except AttributeError:
            raise not_started(self) from None

    @property
    def current_bet(self) -> int:
        """The street total a seat must match to call (preflop at least the full big blind, R9)."""
        try:
            return self._cur
        except AttributeError:
            raise not_started(self) from None

    def is_terminal(self) -> bool:
        try:
            return self._over
        except AttributeError:
            raise not_started(self) from None

    @property
    def street_index(self) -> int:
        """0 preflop, 1 flop, 2 turn, 3 river, 4 showdown."""
        try:
            return self._street
        except AttributeError:
            raise not_started(self) from None

    @property
    def seed(self) -> int | None:
        """The deck seed of this hand (drawn from os.urandom when none was given), or None when
        the cards were given: ``game.new_hand(stacks, button=b, seed=state.seed)`` replays it."""
        try:
            return self._seed
        except AttributeError:
            raise not_started(self) from None

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("start a hand with Game.new_hand(...)")

    def add_board(self, cards: Sequence[CardLike] | str) -> None:
        """Give more board cards to a hand started from given cards (live dealing, replays):
        the board grows up to five cards; cards already dealt never change."""
        try:
            hole, board, seed = self._hole, self._board, self._seed
        except AttributeError:
            raise not_started(self) from None
        self._board, self._partial = more_board(hole, board, seed, cards)

    def status_code(self, seat: int) -> int:
        """0 active, 1 folded, 2 all in."""
        seat = self._seat(seat)
        if self._folded[seat]:
            return 1
        return 2 if self._stacks[seat] == 0 else 0

    def raw_history(self) -> list[tuple[int, int, int, int, int, bool]]:
        """The history as ``(seat, street, type, to, amount, all_in)`` int tuples."""
        try:
            return list(self._hist)
        except AttributeError:
            raise not_started(self) from None

    def result_or_none(self) -> HandResult | None:
        try:
            return self._result
        except AttributeError:
            raise not_started(self) from None

    def __getstate__(self) -> tuple[Any, ...]:
        """The state as the tuple of :data:`holdem.hand._fields.FIELDS` (the compiled core's
        pickle format too)."""
        try:
            return tuple(
                tuple(getattr(self, "_" + name)) if name in _AS_TUPLE
                else getattr(self, "_" + name) for name in FIELDS)
        except AttributeError:
            raise not_started(self) from None

    def __setstate__(self, state: Any) -> None:
        """Restore a state checked by :func:`holdem.hand._fields.check_state` and replayed by
        :func:`holdem.hand._fields.check_replay` (a corrupt one raises
        :class:`holdem.InvalidStateError`)."""
        s = check_state(state)
        check_replay(s)
        for name in FIELDS:
            value = s[name]
            if name in _AS_LIST:
                value = list(value)
            elif name == "posts":
                value = tuple(Post(*p) for p in value)
            object.__setattr__(self, "_" + name, value)
        object.__setattr__(self, "_legal", None)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as ``rebuild(cls, state)`` (``holdem.hand._fields``, as the compiled core):
        unpickling makes the hand with ``cls.__new__`` in the core ``cls`` belongs to where it
        is loaded, and refuses what is not a hand state."""
        return (rebuild, (type(self), self.__getstate__()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandCore):
            return NotImplemented
        # (a hand voided by an interrupted action keeps only its game: no hand, as a blank)
        started, other_started = hasattr(self, "_over"), hasattr(other, "_over")
        if not (started and other_started):
            return started is other_started  # states never started are all alike
        return all(getattr(self, k) == getattr(other, k) for k in _COMPARED)

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ copying
    def clone(self: _S) -> _S:
        """An independent copy (lists copied, immutable parts shared): cheap, no deepcopy."""
        new = _blank(type(self), "clone")
        try:
            for name in _SHARED:
                object.__setattr__(new, name, getattr(self, name))
        except AttributeError:
            raise not_started(self) from None
        new._stacks = self._stacks[:]
        new._bets = self._bets[:]
        new._committed = self._committed[:]
        new._folded = self._folded[:]
        new._acted = self._acted[:]
        new._hist = self._hist[:]
        if new._result is not None:
            new._result = new._result._own()
        return new

    __copy__ = clone

    def __deepcopy__(self: _S, memo: dict[int, object]) -> _S:
        # clone() is already a deep copy: what it shares is immutable. (copy.deepcopy went
        # through __reduce__ and checked and replayed the whole hand, as a pickle is.)
        return self.clone()

    def _block_reason(self, i: int) -> str | None:
        """Why seat ``i`` may not bet or raise now (a seat outside 0..n-1: InvalidSeatError)."""
        return self._raise_block(self._seat(i))

    def _seat(self, seat: int) -> int:
        """``seat`` checked as an index 0..n-1 (else InvalidSeatError; a state never started:
        InvalidStateError)."""
        try:
            n = self._n
        except AttributeError:
            raise not_started(self) from None
        if type(seat) is not int or not 0 <= seat < n:
            return seat_index(seat, n)
        return seat

    # ------------------------------------------------------------------ showdown
    def _need_board(self, count: int) -> None:
        if count > len(self._board):
            raise InvalidHandError(
                f"the board needs {count} cards but only {len(self._board)} were given")

    def _finish(self) -> None:
        """End the hand: one seat left (R19) or a showdown (R29-R33); pay the pots."""
        showdown = self._live > 1
        if showdown:
            self._need_board(5)
        self._result = settle(self._game, self._button, self._folded, self._committed,
                              self._stacks, self._start_stacks, self._hole,
                              self._board[: self._nboard],
                              self._aggr if self._street == 3 else -1, showdown, self._dead,
                              street_returns(self._n, self._posts, self._hist, self._committed))
        if showdown:
            self._street = 4
        self._over = True
        self._actor = -1
        self._legal = None

    # ------------------------------------------------------------------ setup
    @classmethod
    def _start(cls: type[_S], game: GameLike, stacks: Sequence[int], button: int, seed: int | None,
               hole_cards: Any, board: Any, dead_small_blind: bool = False,
               extra_posts: Any = (), dead_hands: Any = ()) -> _S:
        stacks, button = check_start(game, stacks, button)
        n = len(stacks)
        dead_seats = () if type(dead_hands) is tuple and not dead_hands \
            else plan_dead_hands(n, dead_hands)
        extras: tuple[tuple[int, int, int], ...]
        if dead_small_blind is False and (type(extra_posts) is tuple
                                          or type(extra_posts) is list) and not extra_posts:
            hu = n == 2
            sb_seat = button if hu else (button + 1) % n
            bb_seat = (button + 1) % n if hu else (button + 2) % n
            post_sb, extras = True, ()
        else:
            sb_seat, bb_seat, post_sb, extras = plan_posts(game, n, button, dead_small_blind,
                                                           extra_posts)
        st = _blank(cls, "start a hand")
        st._game = game
        st._n = n
        st._button = button
        st._start_stacks = tuple(stacks)
        st._sb_seat, st._bb_seat = sb_seat, bb_seat
        first_dealt = ((bb_seat if game._plan.deal_from_bb else button) + 1) % n
        cls._deal(st, seed, hole_cards, board, first_dealt)

        st._stacks = stacks
        st._bets = [0] * n
        st._committed = [0] * n
        st._folded = [False] * n
        st._acted = [-1] * n
        st._hist = []
        st._street = 0
        st._over = False
        st._result = None
        st._legal = None
        st._live = n
        st._aggr = -1
        plan = game._plan
        st._kind = plan.structure
        bb = st._bb = plan.big_blind
        st._sizes = plan.sizes
        st._cap = plan.cap
        st._lift = plan.lift_heads_up
        st._fold_free = plan.fold_free

        posts: list[Post] = []
        st._dead = 0

        def post(seat: int, kind: str, amount: int, live: bool) -> None:
            a = min(amount, stacks[seat])
            if a <= 0:
                return
            stacks[seat] -= a
            st._committed[seat] += a
            if live:
                st._bets[seat] += a
            posts.append(Post(seat, kind, a))

        ante = plan.ante
        bb_ante = plan.bb_ante
        if ante and not bb_ante:
            for k in range(n):
                post((sb_seat + k) % n, "ante", ante, False)
        if post_sb:
            post(sb_seat, "small_blind", plan.small_blind, True)
        post(bb_seat, "big_blind", bb, True)
        level = bb
        last = bb_seat
        if plan.straddle:
            last = (bb_seat + 1) % n
            level = 2 * bb
            post(last, "straddle", level, True)
        if ante and bb_ante:
            # A big-blind ante is dead money for the main pot, never an uncalled bet.
            a = min(ante, stacks[bb_seat])
            if a > 0:
                stacks[bb_seat] -= a
                st._dead += a
                posts.append(Post(bb_seat, "big_blind_ante", a))
        for seat, live, dead in extras:
            # R36 entry bet / missed blinds (Robert's Rules): the live part first, counted as
            # the seat's bet (R9: all in for less when short); the dead part from what is left,
            # dead money for the main pot like the big-blind ante (never returned as uncalled).
            post(seat, "entry_big_blind", live, True)
            a = min(dead, stacks[seat])
            if a > 0:
                stacks[seat] -= a
                st._dead += a
                posts.append(Post(seat, "dead_small_blind", a))
        st._posts = tuple(posts)
        st._cur = level
        st._inc = level
        st._full = level
        st._raises = 2 if plan.straddle else 1
        st._actor = -1
        st._nboard = 0
        for seat in dead_seats:
            # TDA 30: an absent player's hand is dead at the deal, folded: what it posted stays
            # in the pots it reaches as a folded seat's chips (R31: nobody wins more from it
            # than they put in), its uncalled part returned (R21)
            st._folded[seat] = True
            st._live -= 1
        if st._live == 1:  # every other hand dead: the one live seat wins (R19)
            st._finish()
            return st
        actor = st._find_actor((last + 1) % n)
        if actor < 0:
            st._end_street()
        else:
            st._actor = actor
        return st

    @staticmethod
    def _deal(st: HandCore, seed: int | None, hole_cards: Any, board: Any,
              first: int) -> None:
        n = st._n
        if hole_cards is None and board is None:
            plain = None if seed is None else int_or_none(seed)  # numpy ints too
            if plain is None and seed is not None:
                raise InvalidConfigError(f"seed must be an int or None, got {seed!r}")
            seed = resolve_seed(None) if plain is None else plain  # a plain int, kept
            st._seed = seed
            order = _deal_order(seed, 2 * n + 8)
            hole: list[tuple[Card, ...] | None] = [None] * n
            for k in range(n):
                hole[(first + k) % n] = (order[k], order[n + k])
            b = 2 * n
            st._hole = tuple(hole)
            st._burns = (order[b], order[b + 4], order[b + 6])
            st._board = (*order[b + 1:b + 4], order[b + 5], order[b + 7])
            st._partial = False
            return
        st._hole, st._board, st._partial = given_cards(n, seed, hole_cards, board)
        st._seed = None
        st._burns = ()

    # ------------------------------------------------------------------ engine core
    def _find_actor(self, start: int) -> int:
        """The first seat from ``start`` clockwise that must act, or -1 (round over, R19)."""
        n = self._n
        stacks = self._stacks
        folded = self._folded
        bets = self._bets
        acted = self._acted
        cur = self._cur
        chips = 0
        for j in range(n):
            if stacks[j] > 0 and not folded[j]:
                chips += 1
        for k in range(n):
            i = (start + k) % n
            if folded[i] or stacks[i] == 0:
                continue
            if bets[i] < cur:
                # alone with chips and covering every other live bet (all in for less: a
                # short big blind, R9), nothing is owed to anyone who could match it: R20
                if chips > 1 or any(bets[j] > bets[i] for j in range(n) if not folded[j]):
                    return i
            elif acted[i] < 0 and chips > 1:
                return i
        return -1

    def _end_street(self) -> None:
        """Close the round: return the uncalled bet (R21), deal on (R13, R14, R20)."""
        n = self._n
        bets = self._bets
        while True:
            top = max(bets)
            if top > 0 and bets.count(top) == 1:
                k = bets.index(top)
                second = 0
                for j in range(n):
                    if j != k and bets[j] > second:
                        second = bets[j]
                excess = top - second
                self._stacks[k] += excess
                self._committed[k] -= excess
            if self._street == 3:
                self._finish()
                return
            self._street += 1
            nb = 3 if self._street == 1 else self._nboard + 1
            if self._partial:
                self._need_board(nb)
            self._nboard = nb
            for j in range(n):
                bets[j] = 0
            self._acted = [-1] * n
            self._cur = 0
            self._inc = self._bb
            self._full = 0
            self._raises = 0
            self._aggr = -1
            actor = self._find_actor((self._button + 1) % n)
            if actor >= 0:
                self._actor = actor
                return

    def _act(self, kind: int, to: int) -> None:
        """Apply an action without any check (kind 0 fold, 1 check/call, 2 bet/raise to)."""
        i = self._actor
        self._legal = None
        stacks = self._stacks
        bets = self._bets
        cur = self._cur
        if kind == _FOLD:
            self._folded[i] = True
            self._live -= 1
            self._hist.append((i, self._street, _T_FOLD, bets[i], 0, False))
            if self._live == 1:
                self._finish()
                return
        elif kind == _CC:
            owe = cur - bets[i]
            if owe <= 0:
                self._hist.append((i, self._street, _T_CHECK, bets[i], 0, False))
            else:
                if owe > stacks[i]:
                    owe = stacks[i]
                stacks[i] -= owe
                bets[i] += owe
                self._committed[i] += owe
                self._hist.append((i, self._street, _T_CALL, bets[i], owe, stacks[i] == 0))
            self._acted[i] = cur
        else:
            add = to - bets[i]
            stacks[i] -= add
            bets[i] = to
            self._committed[i] += add
            if self._kind == _FL:
                if 2 * (to - self._full) >= self._sizes[self._street]:
                    self._full = to
                    # R27: a raise heads-up with the cap lifted does not count toward it; a
                    # round capped with more players in stays capped (Robert's Rules)
                    if not (self._lift and self._live == 2):
                        self._raises += 1
            elif to - cur >= self._inc:
                self._inc = to - cur
            self._cur = to
            self._acted[i] = to
            self._aggr = i
            self._hist.append((i, self._street, _T_BET if cur == 0 else _T_RAISE, to, add,
                               stacks[i] == 0))
        actor = self._find_actor((i + 1) % self._n)
        if actor < 0:
            self._end_street()
        else:
            self._actor = actor

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> LegalActions:
        """What the seat to act may do (cached; see :class:`holdem.hand.records.LegalActions`)."""
        try:
            legal = self._legal
        except AttributeError:
            raise not_started(self) from None
        if legal is not None:
            return legal
        if self._over:
            raise IllegalActionError("the hand is over: nobody is to act")
        i = self._actor
        cur = self._cur
        bet = self._bets[i]
        stack = self._stacks[i]
        owe = cur - bet
        can_check = owe <= 0
        call = 0 if can_check else min(owe, stack)
        can_raise = self._raise_block(i) is None
        lo = hi = None
        if can_raise:
            total = bet + stack
            if self._kind == _FL:
                lo = min(self._full + self._sizes[self._street], total)
                hi = lo
            else:
                lo = min(cur + self._inc, total)
                if self._kind == _NL:
                    hi = total
                else:  # R25: the highest bet plus the pot after calling
                    hi = min(max(2 * cur - bet + sum(self._committed) + self._dead, lo), total)
        legal = LegalActions(i, (not can_check) or self._fold_free, can_check, call, can_raise,
                             cur == 0, lo, hi)
        self._legal = legal
        return legal

    def _raise_block(self, i: int) -> str | None:
        """Why seat ``i`` may not bet or raise now, or ``None`` when it may."""
        cur = self._cur
        bets = self._bets
        stacks = self._stacks
        owe = cur - bets[i]
        if stacks[i] <= owe:
            return "the seat cannot cover more than the call (R18: call all in or fold)"
        folded = self._folded
        for j in range(self._n):
            if j != i and not folded[j] and bets[j] + stacks[j] > cur:
                break
        else:
            return "no other player in the hand could call more (R17: call or fold only)"
        if self._kind == _FL and self._raises >= self._cap:
            return f"the betting is capped (R27: a bet and {self._cap - 1} raises)"
        acted = self._acted[i]
        if acted >= 0:
            faced = cur - acted
            if self._kind == _FL:
                if 2 * faced < self._sizes[self._street]:
                    return ("an all-in of less than half a bet did not reopen the betting "
                            "(R28: call or fold only)")
            elif faced < self._inc:
                return ("an all-in of less than a full raise did not reopen the betting "
                        "(R24: call or fold only)")
        return None

    def actions(self) -> list[Action]:
        """The legal action kinds as actions (fold, check or call, min and max bet/raise)."""
        return actions_of(self.legal_actions())

    def is_legal(self, action: Action | str | int) -> bool:
        """Whether :meth:`apply` would take ``action`` now (False at the end of the hand); a
        malformed action raises :class:`InvalidActionError` as :meth:`apply` does."""
        try:
            self._resolve(action, None)
        except IllegalActionError:
            return False
        return True

    # ------------------------------------------------------------------ acting (checked)
    def _seat_check(self, seat: int | None) -> LegalActions:
        try:
            over = self._over
        except AttributeError:
            raise not_started(self) from None
        if over:
            raise IllegalActionError("the hand is over: no more actions")
        if seat is not None and seat != self._actor:
            raise OutOfTurnError(
                f"seat {shown(seat)} acted out of turn: seat {self._actor} is to act")
        return self.legal_actions()

    def _resolve(self, action: Action | str | int, seat: int | None) -> tuple[int, int]:
        """Validate ``action`` for the seat to act; return ``(kind, to)`` for :meth:`_act`."""
        t, to, seat = to_action(action, seat)
        la = self._seat_check(seat)
        i = la.seat
        if not isinstance(action, (tuple, str)):  # an int code: say what it meant
            try:
                return resolve(t, to, la, self._bets[i], self._stacks[i], self._cur,
                               self._block_reason)
            except IllegalActionError as exc:
                raise explain_code(action, exc) from None
        return resolve(t, to, la, self._bets[i], self._stacks[i], self._cur,
                       self._block_reason)

    def apply(self, action: Action | str | int, *, seat: int | None = None) -> None:
        """Validate and apply ``action``: an :class:`Action` (or an ``(ActionType, to)``
        pair: ``to`` is None for fold, check, call and all-in), PHH text (``"cbr 300"``,
        ``"p2 cc"``) or an int code (``0`` fold, ``1`` check/call, ``k`` bet/raise to
        ``k - 1``). Codes and amounts may be any integer type but bool (numpy's too).

        ``seat``, when given, must be the seat to act (else :class:`OutOfTurnError`). A
        malformed action raises :class:`InvalidActionError`, one the rules do not allow
        :class:`IllegalActionError`; either way the state is unchanged.
        """
        kind, to = self._resolve(action, seat)
        self._act_restoring(kind, to)

    def _act_restoring(self, kind: int, to: int) -> None:
        """:meth:`_act`; a card not given that stops a partial hand mid-way restores the
        state before InvalidHandError propagates."""
        if self._partial:
            # what _act may change, kept aside: the fields (their values shared, as clone
            # shares them), copies of the per-seat lists, and the history's length (_act only
            # appends to it; a clone copied the whole history at every action)
            saved = [(name, getattr(self, name)) for name in _SHARED]
            saved += [(name, getattr(self, name)[:]) for name in _SEAT_LISTS]
            hist = self._hist
            nhist = len(hist)
            try:
                self._act(kind, to)
            except BaseException:  # a missing card, or an interrupt (Ctrl-C) mid-way
                for name, value in saved:
                    object.__setattr__(self, name, value)
                del hist[nhist:]
                self._hist = hist
                raise
        else:
            try:
                self._act(kind, to)
            except BaseException:
                # stopped mid-way (Ctrl-C, MemoryError): no copy was kept to restore, so the
                # hand is void: every later call raises InvalidStateError (not_started)
                for name in _SLOTS:
                    if name != "_game" and hasattr(self, name):
                        object.__delattr__(self, name)
                raise

    def apply_unchecked(self, kind: int, to: int = 0) -> None:
        """Fast path for trusted callers: ``kind`` 0 fold, 1 check/call, 2 bet/raise to ``to``.

        No validation at all: an illegal action leaves the state inconsistent. Use
        :meth:`legal_actions` to stay within the rules. A card that was not given, needed by
        the action, raises InvalidHandError and leaves the state as it was (as :meth:`apply`).
        """
        try:
            over = self._over
        except AttributeError:
            raise not_started(self) from None
        if over:
            raise IllegalActionError("the hand is over: no more actions")
        self._act_restoring(kind, to)


_SLOTS = HandCore.__slots__
_AS_LIST = frozenset(("stacks", "bets", "committed", "folded", "acted", "hist"))
_AS_TUPLE = _AS_LIST | {"sizes"}
if {"_" + f for f in FIELDS} | {"_legal"} != set(_SLOTS):  # one declared list of fields
    raise ImportError("holdem.hand._reference: the slots differ from holdem.hand._fields.FIELDS")
_SEAT_LISTS = ("_stacks", "_bets", "_committed", "_folded", "_acted")  # (lists, copied)
_SHARED = tuple(s for s in _SLOTS if s not in (*_SEAT_LISTS, "_hist"))
_COMPARED = tuple(s for s in _SLOTS if s != "_legal")


register_core(HandCore, _rebuild)  # pickles name holdem.hand._fields.rebuild
