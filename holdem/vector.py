"""Batched self-play: thousands of tables stepped together in C, arrays in and out.

>>> from holdem import Game
>>> from holdem.vector import VectorGame
>>> env = VectorGame(Game(big_blind=2), num_tables=8, players=6, stacks=200, seed=1)
>>> obs = env.reset()
>>> len(env.current_player), env.action_layout.names
(8, ('fold', 'check_call', 'raise_half_pot', 'raise_pot', 'min_raise', 'all_in'))
>>> obs, rewards, done = env.step([1] * 8)  # everyone checks or calls

Every table plays real hands of the :class:`holdem.Game` with exactly the rules of
:class:`holdem.HandState` (one C core, ``csrc/hd_hand.h``). A table whose hand ends is dealt
its next hand at once: ``done[i]`` says a hand ended on table ``i`` in this step and
``rewards[i]`` holds that hand's payoffs per seat (in big blinds; :attr:`VectorGame.payoffs`
in chips). In a session, a hand in which nobody can act (every seat all in from the forced
bets) is dealt out at once and its payoffs count in the same step. Table ``i``'s cards depend
only on ``(seed, i, hand number)``.

Arrays: with numpy installed, the outputs are numpy arrays (float32 observations, bool legal
mask, int32 actors, float32 rewards, bool done). Without numpy they are ``memoryview`` objects
of the same shapes and formats. A reward is the payoff in big blinds as a float32 (24 bits of
precision): past 2**24 big blinds, which a session's stacks, carried over and refilled, can
reach after a long run, it no longer counts every big blind. The int64
:attr:`VectorGame.payoffs` and :meth:`VectorGame.total_payoffs` are exact chips: sum those
over many hands. The outputs are the engine's own buffers: the next step overwrites them, so
copy what you keep. Inputs are any integer buffers or sequences.
"""

from __future__ import annotations

import array
import hashlib
import importlib
import itertools
import numbers
import operator
import os
import queue
import struct
import sys
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any, SupportsIndex

from holdem import _memory, _vector
from holdem._ints import int_or_none
from holdem._pickling import reduce_fields, setstate_through_init
from holdem._seeding import resolve_seed, seed_bits
from holdem._shown import excerpt, literal, shown
from holdem.cards import Card
from holdem.errors import (
    HoldemError,
    IllegalActionError,
    InvalidArrayError,
    InvalidConfigError,
    InvalidSeatError,
    InvalidStateError,
    InvalidTableError,
)
from holdem.hand._plan import Plan
from holdem.hand.actions import MAX_CHIPS, Action
from holdem.hand.game import Game, HandState
from holdem.hand.records import LegalActions
from holdem.pots import _decimal_fraction
from holdem.table.agents import MAX_EQUITY_SAMPLES, CompiledPolicy

if TYPE_CHECKING:
    from holdem.table.agents import DeclaresPolicy

_np: Any  # numpy is optional (typed as Any: the lint environment has no numpy)
try:
    _np = importlib.import_module("numpy")
except ImportError:  # pragma: no cover - exercised by the no-numpy job
    _np = None

__all__ = ["OBS_VERSION", "ActionLayout", "CompiledPolicy", "ObservationSpec", "PlayResult",
           "VectorGame", "compiled_policy", "sample_legal"]

OBS_VERSION: int = _vector.OBS_VERSION

_FOLD, _CC, _FRAC, _MIN, _ALLIN = 0, 1, 2, 3, 4
_CHUNK = 64  # tables a thread takes at a time in a step shared by threads (at most)
# After its chunks a worker watches for the next step (for twice the last gap between steps,
# when that is at most half of this many seconds) before it sleeps on its queue.
_LINGER = 0.002
_KIND_NAMES = ("fold", "check/call", "bet/raise")
_INT64_MAX = (1 << 63) - 1
_FRACTION_WORDS = {Fraction(1, 2): "half_pot", Fraction(1): "pot", Fraction(1, 4): "quarter_pot",
                   Fraction(3, 4): "three_quarter_pot", Fraction(2): "two_pot",
                   Fraction(1, 3): "third_pot", Fraction(2, 3): "two_thirds_pot"}


def _fraction(value: object) -> Fraction:
    if not isinstance(value, bool | float | Fraction | str) and hasattr(value, "__index__"):
        try:
            value = operator.index(value)  # numpy ints too, as plain ints
        except TypeError:  # a numpy array (of floats, or of more than one value)
            raise InvalidConfigError(f"a pot fraction must be a number, got {excerpt(value)}") from None
    if not isinstance(value, bool | int | float | Fraction | str) and isinstance(value,
                                                                            numbers.Real):
        value = float(value)  # a numpy float (float64 is a float already)
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction | str):
        raise InvalidConfigError(f"a pot fraction must be a number, got {excerpt(value)}")
    exact = None
    if isinstance(value, str):
        try:  # text far out of range is refused before Fraction computes 10**exponent for it
            exact = _decimal_fraction(value, range(-12, 5))
        except ValueError:
            raise InvalidConfigError(f"a pot fraction must be in (0, 100] with a denominator up "
                                     f"to 1000, got {excerpt(value)}") from None
    try:
        f = exact if exact is not None else (
            Fraction(str(value)) if isinstance(value, float) else Fraction(value))
    except (ValueError, ZeroDivisionError):
        raise InvalidConfigError(f"a pot fraction must be a number, got {excerpt(value)}") from None
    if not 0 < f <= 100 or f.denominator > 1000:
        hint = ""
        if isinstance(value, float) and 0 < f <= 100:
            near = f.limit_denominator(1000)
            if near:  # (a float too small for any such fraction gets no hint)
                hint = (f" (a float such as 1/3 is not exact: write Fraction({near.numerator}, "
                        f"{near.denominator}) or the string '{near}')")
        raise InvalidConfigError(
            f"a pot fraction must be in (0, 100] with a denominator up to 1000, got "
            f"{excerpt(value)}{hint}")
    return f


def _fraction_names(fractions: Sequence[Fraction]) -> list[str]:
    """The names of distinct pot fractions in column names: a word for the common ones, else
    the decimal with 6 significant digits; fractions whose 6 digits are the same (50.001 for
    both 49951/999 and 50001/1000) get more digits, until every name is its own."""
    digits = [6] * len(fractions)
    while True:
        names = [_FRACTION_WORDS.get(f) or f"{float(f):.{d}g}_pot"
                 for f, d in zip(fractions, digits, strict=True)]
        same = {name for name in names if names.count(name) > 1}
        if not same:  # (17 digits tell any two floats apart, and the fractions are distinct)
            return names
        for k, name in enumerate(names):
            if name in same:
                digits[k] += 1


@dataclass(frozen=True)
class ActionLayout:
    """The discrete action columns of a :class:`VectorGame`.

    Columns, in this order: ``fold`` (when ``fold``), ``check_call``, one bet/raise per pot
    fraction, ``min_raise`` (when ``min_raise``), ``all_in`` (when ``all_in``).

    - A bet/raise of fraction ``f`` goes to ``current bet + f * (pot after calling)``, rounded
      down and clipped to the minimum raise and the stack: ``f = 1`` is the pot-sized raise
      (the call plus the pot after the call), the pot-limit maximum.
    - ``all_in`` is legal when the seat may bet or raise its whole stack (a call all in is the
      ``check_call`` column).
    - Two raise columns that land on the same amount are one action, and ``keep`` says which
      stays legal (the other is masked as its duplicate): ``"all_in"`` (default) keeps
      all-in, then min-raise, then the fractions in the order given. ``"first"`` keeps the
      first in column order (fractions, min-raise, all-in), except that a fraction above an
      all-in is not clipped down to it (it is masked: the all-in column offers that amount).
      That is OpenSpiel's universal_poker: a pot raise of exactly the stack is its pot
      action, one beyond the stack is its all-in.
    - Fixed limit maps naturally: every raise column clips to the one legal amount, so one
      column stays legal and the others are masked as its duplicates.

    Presets: ``ActionLayout.preset("fcpa")`` (fold, call, pot, all-in, ``keep="first"``:
    OpenSpiel's universal_poker ``fcpa``, the same legal actions), ``"fchpa"`` (plus half
    pot, before pot), ``"default"``.
    """

    fractions: tuple[Fraction, ...] = (Fraction(1, 2), Fraction(1))
    fold: bool = True
    min_raise: bool = True
    all_in: bool = True
    keep: str = "all_in"

    if TYPE_CHECKING:  # what the constructor takes (it stores the fractions as Fractions)
        def __init__(self, fractions: Sequence[Fraction | SupportsIndex | float | str] = ...,
                     fold: bool = ..., min_raise: bool = ..., all_in: bool = ...,
                     keep: str = ...) -> None: ...

    def __post_init__(self) -> None:
        if isinstance(self.fractions, str | bytes | Mapping | AbstractSet) or not hasattr(
                self.fractions, "__iter__"):  # (the columns follow the fractions' order)
            raise InvalidConfigError(
                f"fractions must be a sequence of pot fractions, e.g. (0.5, 1) or ('1/3',), "
                f"got {excerpt(self.fractions)}")
        fr = tuple(_fraction(f) for f in self.fractions)
        if len(set(fr)) != len(fr):
            raise InvalidConfigError(f"pot fractions repeat: {excerpt(self.fractions)}")
        object.__setattr__(self, "fractions", fr)
        for name in ("fold", "min_raise", "all_in"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidConfigError(f"{name} must be True or False")
        if type(self.keep) is not str or self.keep not in ("all_in", "first"):
            raise InvalidConfigError(f"keep must be 'all_in' or 'first' (which of two raise "
                                     f"columns of the same amount stays legal), got "
                                     f"{excerpt(self.keep)}")
        if len(self.names) > 32:
            raise InvalidConfigError("an action layout has at most 32 columns")

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_fields(self)  # through the constructor: a pickle is checked as input

    __setstate__ = setstate_through_init

    @classmethod
    def preset(cls, name: str) -> ActionLayout:
        """``"fcpa"``, ``"fchpa"`` or ``"default"`` (fold, call, half pot, pot, min, all-in)."""
        if name == "fcpa":
            return cls((Fraction(1),), min_raise=False, keep="first")
        if name == "fchpa":
            return cls((Fraction(1, 2), Fraction(1)), min_raise=False, keep="first")
        if name == "default":
            return cls()
        raise InvalidConfigError(f"unknown action preset {excerpt(name)}: use fcpa, fchpa or default")

    @cached_property  # (frozen: computed once; a pickle goes through the constructor)
    def names(self) -> tuple[str, ...]:
        """One name per column."""
        out = ["fold"] if self.fold else []
        out.append("check_call")
        out += ["raise_" + name for name in _fraction_names(self.fractions)]
        if self.min_raise:
            out.append("min_raise")
        if self.all_in:
            out.append("all_in")
        return tuple(out)

    @property
    def size(self) -> int:
        """The number of columns, A."""
        return len(self.names)

    def amounts(self, state: HandState) -> list[int | None]:
        """The bet/raise total of each column for ``state``'s seat to act (None when the column
        is masked; ``fold`` and ``check_call`` are None too): the rule of
        :meth:`VectorGame.raise_amounts`, for one :class:`holdem.HandState`."""
        if not isinstance(state, HandState):
            raise InvalidConfigError(f"state must be a holdem.HandState, got {excerpt(state)}")
        raw = self._raw_amounts(state)
        out: list[int | None] = [None] * len(raw)
        for c in self._priority:
            out[c] = None if raw[c] in out else raw[c]
        return out

    def _raw_amounts(self, state: HandState) -> list[int | None]:
        """:meth:`amounts` before a column that lands on the amount of one kept before it is
        masked as its duplicate."""
        codes = self._codes
        out: list[int | None] = [None] * len(codes)
        if state.is_terminal():
            return out
        la = state.legal_actions()
        if not la.can_raise:
            return out
        assert la.min_to is not None and la.max_to is not None
        seat = la.seat
        cur = state.current_bet
        total = state.bets[seat] + state.stacks[seat]
        base = state.pot + max(0, cur - state.bets[seat])
        # keep="first": a fraction above an all-in yields to the all-in column
        yields = self.keep == "first" and self.all_in and la.max_to == total
        for c in self._priority:
            code, num, den = codes[c]
            a: int | None
            if code == _ALLIN:
                a = total if la.max_to == total else None
            elif code == _MIN:
                a = la.min_to
            else:
                a = max(cur + base * num // den, la.min_to)
                a = None if yields and a > total else min(a, la.max_to)
            out[c] = a
        return out

    def mask(self, state: HandState) -> list[bool]:
        """The legal columns for ``state``'s seat to act (all False once the hand is over)."""
        if not isinstance(state, HandState):
            raise InvalidConfigError(f"state must be a holdem.HandState, got {excerpt(state)}")
        if state.is_terminal():
            return [False] * self.size
        can_fold = state.legal_actions().can_fold
        return [can_fold if code == _FOLD else code == _CC or a is not None
                for (code, _, _), a in zip(self._codes, self.amounts(state), strict=True)]

    @cached_property
    def _priority(self) -> tuple[int, ...]:
        """The raise columns (see :attr:`_codes`), the one kept of two duplicates first (see
        ``keep``)."""
        first = 2 if self.fold else 1  # after fold and check_call
        fractions = list(range(first, first + len(self.fractions)))
        after = first + len(self.fractions)
        low = [after] if self.min_raise else []
        shove = [after + len(low)] if self.all_in else []
        return tuple(fractions + low + shove if self.keep == "first" else shove + low + fractions)

    @cached_property
    def _codes(self) -> tuple[tuple[int, int, int], ...]:
        """(kind, numerator, denominator) per column."""
        out = [(_FOLD, 0, 1)] if self.fold else []
        out.append((_CC, 0, 1))
        out += [(_FRAC, f.numerator, f.denominator) for f in self.fractions]
        if self.min_raise:
            out.append((_MIN, 0, 1))
        if self.all_in:
            out.append((_ALLIN, 0, 1))
        return tuple(out)


@dataclass(frozen=True)
class ObservationSpec:
    """The observation encoding (float32, one row per table, relative to the seat to act).

    Version 1, for ``P`` players (``width = 227 + 7 * P``):

    - ``hole[c]`` (52): 1 for the actor's two hole cards (``c`` a card such as ``As``);
    - ``flop[c]``, ``turn[c]``, ``river[c]`` (52 each): the board dealt so far, by street;
    - ``street[s]`` (4): one-hot preflop, flop, turn, river;
    - ``position[k]`` (P): one-hot, the actor's seats after the button (0 the button,
      1 the small blind, ...; heads-up the button is the small blind);
    - ``seat[r].*`` (6 per seat, ``r`` seats after the actor, ``r = 0`` the actor):
      ``button_distance`` (seats after the button), ``stack``, ``bet`` (this street),
      ``committed`` (this hand), ``folded``, ``all_in``;
    - ``pot``, ``to_call``, ``min_raise_to``, ``max_raise_to`` (0 when the actor may not
      raise), ``current_bet``, ``players_in_hand`` (not folded), ``players_to_act`` (not
      folded and with chips);
    - per street ``s``: ``s.raises`` (bets and raises made; the engine's count stops at
      2**31 - 1) and ``s.added`` (chips the actions put in the pot on that street, uncalled
      chips given back deducted).

    Chip amounts are in big blinds.
    """

    players: int
    version: int = OBS_VERSION

    def __post_init__(self) -> None:
        for name, value, lo, hi in (("players", self.players, 2, 10),
                                    ("version", self.version, OBS_VERSION, OBS_VERSION)):
            i = int_or_none(value)
            if i is None or not lo <= i <= hi:
                allowed = f"{lo}..{hi}" if lo < hi else f"{lo} (the only version)"
                raise InvalidConfigError(f"ObservationSpec {name} must be {allowed}, got {excerpt(value)}")
            object.__setattr__(self, name, i)

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_fields(self)  # through the constructor: a pickle is checked as input

    __setstate__ = setstate_through_init

    @property
    def names(self) -> tuple[str, ...]:
        """Every column's name, in order (``hole[As]``, ``seat[0].stack``, ``pot``...)."""
        return tuple(_vector.obs_names(self.players))

    @property
    def width(self) -> int:
        """The number of columns, F."""
        return int(_vector.obs_width(self.players))

    def index(self, name: str) -> int:
        """The column of ``name`` (e.g. ``"pot"``, ``"seat[0].stack"``, ``"hole[As]"``)."""
        try:
            return self.names.index(name)
        except ValueError:
            raise InvalidConfigError(f"no observation column named {excerpt(name)}") from None


    def high(self, game: Game, stacks: int | Sequence[int] | None) -> list[float]:
        """The largest value each column can take (every column is >= 0), for hands of
        ``game`` that start from ``stacks`` (an int, or one per seat). With ``stacks`` None
        (a session: busted seats are refilled, so a stack has no bound) the chip columns and
        the raise counts are ``inf``.

        A table never holds more chips than its starting stacks (``T``), so a chip column is
        at most ``max(T, forced level)`` in big blinds (the level a short blind still sets:
        the big blind, or the straddle), rounded to float32 as the rows are; each bet or raise
        lifts the street's bet by a chip at least, so a street's raises are at most that many
        chips. The one-hot and flag columns are at most 1, the distances ``players - 1``, the
        counts of players ``players``.

        >>> from holdem import Game
        >>> spec = ObservationSpec(2)
        >>> high = spec.high(Game(big_blind=2), 200)
        >>> high[spec.index("pot")], high[spec.index("seat[1].button_distance")]
        (200.0, 1.0)
        """
        n = self.players
        if not isinstance(game, Game):
            raise InvalidConfigError(f"game must be a holdem.Game, got {excerpt(game)}")
        if stacks is None:
            chips = per_bb = float("inf")
        else:
            one = int_or_none(stacks)
            seq: list[int | None]
            if one is not None:
                seq = [one] * n
            elif hasattr(stacks, "__iter__") and not isinstance(
                    stacks, str | bytes | Mapping | AbstractSet):
                seq = [int_or_none(s) for s in stacks]
            else:
                seq = []
            if len(seq) != n or not all(s is not None and 1 <= s <= MAX_CHIPS for s in seq):
                raise InvalidConfigError(f"stacks must be an int 1..2**53 or {n} of them, "
                                         f"got {excerpt(stacks)}")
            level = game.big_blind * (2 if game.straddle else 1)
            chips = float(max(sum(s for s in seq if s is not None), level))
            per_bb = struct.unpack("f", struct.pack("f", chips * (1.0 / game.big_blind)))[0]
        seat = [float(n - 1), per_bb, per_bb, per_bb, 1.0, 1.0]
        return ([1.0] * (212 + n) + seat * n + [per_bb] * 5 + [float(n)] * 2
                + [chips, per_bb] * 4)

    def encode(self, state: HandState, seat: int | None = None) -> list[float]:
        """One row of this encoding for one :class:`holdem.HandState`, seen by ``seat``
        (default: the seat to act), as :attr:`VectorGame.observation` shows it to the actor.

        For a seat that is not to act (or once the hand is over) ``to_call``,
        ``min_raise_to`` and ``max_raise_to`` are 0; a hand over shows the street it ended on
        (the river's after a showdown).
        ``s.added`` counts the chips of the actions that did not end the hand, less an
        uncalled bet given back when the street closed.
        """
        if not isinstance(state, HandState):
            raise InvalidConfigError(f"state must be a holdem.HandState, got {excerpt(state)}")
        n = state.num_players
        if n != self.players:
            raise InvalidConfigError(f"the spec is for {self.players} players, the hand has {n}")
        actor = state.actor
        if seat is None:
            if actor is None:
                raise InvalidConfigError("the hand is over: give the seat to encode for")
            seat = actor
        index = int_or_none(seat)
        if index is None or not 0 <= index < n:
            raise InvalidConfigError(f"seat must be 0..{n - 1}, got {excerpt(seat)}")
        seat = index
        ib = 1.0 / state.game.big_blind
        row = [0.0] * self.width
        hole = state.hole_cards[seat]
        if hole is not None:
            for c in hole:
                row[int(c)] = 1.0
        for k, c in enumerate(state.board):
            row[(52, 52, 52, 104, 156)[k] + int(c)] = 1.0
        street = min(state.street_index, 3)
        row[208 + street] = 1.0
        button = state.button
        row[212 + (seat - button) % n] = 1.0
        base = 212 + n
        stacks, bets, committed = state.stacks, state.bets, state.committed
        to_act = 0
        for r in range(n):
            s = (seat + r) % n
            k = base + 6 * r
            folded = state.status_code(s) == 1
            row[k:k + 6] = [float((s - button) % n), stacks[s] * ib, bets[s] * ib,
                            committed[s] * ib, float(folded), float(not folded and stacks[s] == 0)]
            to_act += not folded and stacks[s] > 0
        k = base + 6 * n
        row[k] = state.pot * ib
        if seat == actor:
            la = state.legal_actions()
            row[k + 1] = la.call * ib
            if la.can_raise:
                assert la.min_to is not None and la.max_to is not None
                row[k + 2], row[k + 3] = la.min_to * ib, la.max_to * ib
        row[k + 4] = state.current_bet * ib
        row[k + 5] = float(sum(state.status_code(s) != 1 for s in range(n)))
        row[k + 6] = float(to_act)
        raises, added = _street_counts(state)
        for s in range(4):
            row[k + 7 + 2 * s] = float(raises[s])
            row[k + 8 + 2 * s] = added[s] * ib
        return row

    def reseat(self, row: Any, shift: int, hole: Sequence[int]) -> Any:
        """``row`` (a row seen by the seat to act, a list or a numpy row) as the seat ``shift``
        seats after it sees it, given that seat's ``hole`` cards: the seat blocks turned, its
        position, and ``to_call``, ``min_raise_to``, ``max_raise_to`` 0 (they are the actor's),
        as :meth:`encode` writes it for a seat that is not to act. ``shift`` 0 is the actor's
        own row as a seat not to act sees it (those three 0), as the hand stands once it has
        ended (the PettingZoo and Gymnasium envs show it so). A new row of the same type."""
        n = self.players
        turn = int_or_none(shift)  # numpy ints too, as plain ints
        if turn is None or not 0 <= turn < n:
            raise InvalidConfigError(f"shift must be 0..{n - 1}, got {excerpt(shift)}")
        shift = turn
        shape = getattr(row, "shape", None)
        is_row = isinstance(row, list) or (_np is not None and isinstance(row, _np.ndarray)
                                           and row.ndim == 1)
        if not is_row or len(row) != self.width:
            got = type(row).__name__ + (
                f" of shape {(len(row),) if shape is None else shape}" if is_row
                or shape is not None else "")
            raise InvalidArrayError(f"row must be one observation row of {self.width} values "
                                    f"(a list or a 1-D numpy array), got {got}")
        try:  # three ids at most are read: two or none are wanted
            cards = [-1 if isinstance(c, bool) or not hasattr(c, "__index__")
                     else operator.index(c) for c in itertools.islice(hole, 3)]
        except TypeError:  # not a sequence
            cards = [-1]
        if len(cards) not in (0, 2) or len(set(cards)) != len(cards) or not all(
                0 <= c < 52 for c in cards):
            raise InvalidConfigError(f"hole must be two distinct card ids 0..51 (or none), "
                                     f"got {excerpt(hole)}")
        cut = 212 + n + 6 * shift
        try:
            distance = int(row[cut])
        except (TypeError, ValueError, OverflowError):  # not a number, nan, inf
            distance = -1
        if not 0 <= distance < n:
            raise InvalidArrayError(f"row is not an observation row: the seat's distance from "
                                    f"the button reads {excerpt(row[cut])}")
        return _reseated(row, n, shift, cards)


def _reseated(row: Any, n: int, shift: int, cards: Sequence[int]) -> Any:
    """:meth:`ObservationSpec.reseat` of a row it has checked, or of the engine's own (the
    PettingZoo env's): ``row`` of ``n`` seats (a list or a 1-D numpy array), ``shift`` 0..n-1,
    ``cards`` none or two distinct ids 0..51."""
    base, cut, end = 212 + n, 212 + n + 6 * shift, 212 + 7 * n
    distance = int(row[cut])  # the seat's distance from the button, in its block
    out = row.copy()
    out[base:end - 6 * shift] = row[cut:end]
    out[end - 6 * shift:end] = row[base:cut]
    if isinstance(out, list):
        for lo, hi in ((0, 52), (212, base), (end + 1, end + 4)):  # hole, position, the actor's
            out[lo:hi] = [0.0] * (hi - lo)
    else:
        out[:52] = 0.0
        out[212:base] = 0.0
        out[end + 1:end + 4] = 0.0
    for c in cards:
        out[c] = 1.0
    out[212 + distance] = 1.0
    return out


def _encode_into(spec: ObservationSpec, state: HandState, seat: int, out: Any) -> None:
    """``spec.encode(state, seat)`` written into ``out[:spec.width]`` (a float32 buffer, a
    numpy array say): the compiled core's hand is read in C, anything else is encoded and
    converted. ``state`` and ``seat`` are checked by the caller (the OpenSpiel observer's:
    its own state, a player 0..n-1)."""
    if state.num_players != spec.players or not _vector.encode_state(state, seat, out):
        out[:spec.width] = spec.encode(state, seat)  # (another core's; or refused there)


def _street_counts(state: HandState) -> tuple[list[int], list[int]]:
    """Bets/raises and chips added per street by the actions (see :meth:`ObservationSpec.encode`),
    the last action of a finished hand not counted. No uncalled bet needs taking back: one goes
    back (R21) only when a street closes with its bettor the one seat left able to act (any
    other seat with chips would have matched it), so no action follows it."""
    raises, added = [0] * 4, [0] * 4
    hist = state.raw_history()
    last = len(hist) - 1 if state.is_terminal() else len(hist)
    for j, (_, st, kind, _, amount, _) in enumerate(hist):
        if kind in (3, 4):  # BET, RAISE
            raises[st] += 1
        if j < last:
            added[st] += amount
    return raises, added


def _card_tuple(ids: Sequence[int]) -> tuple[Card, ...]:
    """Card ids 0..51 (as the engine reports them) as :class:`holdem.Card`."""
    return tuple([Card(c) for c in ids])


def _hole_cards(hole: Sequence[Sequence[int]]) -> tuple[tuple[Card, Card], ...]:
    """Hole cards by seat, card ids as :class:`holdem.Card`."""
    return tuple([(Card(a), Card(b)) for a, b in hole])


def _integer(name: str, value: object) -> int:
    """``value`` as an int (numpy integers too; not bools or floats)."""
    i = int_or_none(value)
    if i is None:
        raise InvalidConfigError(f"{name} must be an int, got {excerpt(value)}")
    return i


def _rules(game: Game) -> tuple[Any, ...]:
    """The game's betting rules for the batched engine: the values of ``game._plan`` (the one
    :class:`holdem.hand.game.Plan` derived from a Game), in ``hd_rules_t``'s field order."""
    if not isinstance(game, Game):
        raise InvalidConfigError(f"game must be a holdem.Game, got {excerpt(game)}")
    plan: Plan = game._plan
    return tuple(plan)


_MAX_HANDS = 1 << 53               # hands per play() call (hand numbers stay exact floats)
# play()'s curve_hands: a tuple entry and its int (at most 8 + 32 bytes for a hand number
# below 2**53), and 8 more while the tuple is built
_MARK_BYTES = 48


def _bytes_per_table(players: int, layout: ActionLayout, final_observation: bool) -> int:
    """Bytes per table of a :class:`VectorGame` of ``players`` seats and ``layout``: the C
    state plus the engine's output buffers (:meth:`VectorGame.memory_per_table`; known
    before anything is allocated)."""
    rows = 2 if final_observation else 1  # the observations (and final ones)
    return int(_vector.Batch.table_bytes()) + 4 * int(_vector.obs_width(players)) * rows + \
        layout.size + 4 + 8 * players + 4 * players + 1 + 16


def _alloc(fmt: str, shape: tuple[int, ...]) -> Any:
    size = 1
    for s in shape:
        size *= s
    if _np is not None:
        dt = {"f": _np.float32, "B": _np.uint8, "i": _np.int32, "q": _np.int64}[fmt]
        return _np.zeros(shape, dtype=dt)
    flat: Any = memoryview(array.array(fmt, bytes(array.array(fmt).itemsize * size))).cast("B")
    return flat.cast(fmt, shape)


def _read_only(buf: Any) -> Any:
    """A read-only view of ``buf`` (the engine keeps writing through its own view)."""
    if _np is not None:
        view = buf.view()
        view.flags.writeable = False
        return view
    return buf.toreadonly()


def _unlogged(table: int) -> IllegalActionError:
    """The error for a hand of table ``table`` whose actions are not kept (more than 64)."""
    return IllegalActionError(f"table {table}: the hand has more than 64 actions; its history "
                              "is not kept")


def _int64_vector(values: object, n: int, what: str) -> Any:
    """``values`` as a C-contiguous int64 vector of length ``n`` (checked, no table moves)."""
    if values is None or isinstance(values, str):
        raise InvalidArrayError(f"{what} must be a vector of {n} ints, got {excerpt(values)}")
    if _np is not None:
        v: Any = values
        if (type(v) is _np.ndarray and v.dtype == _np.int64 and v.shape == (n,)
                and v.flags.c_contiguous and v.flags.aligned):
            return v  # already what the engine reads
        try:
            arr = _np.asarray(values)
        except (ValueError, TypeError) as exc:  # ragged nesting, odd objects
            raise InvalidArrayError(f"{what} must be a vector of ints: {exc}") from None
        if arr.size == 0 and arr.dtype.kind == "f" and not isinstance(values, _np.ndarray):
            arr = arr.astype(_np.int64)  # [] or (): numpy makes them float64
        if arr.dtype.kind not in ("i", "u"):
            if isinstance(values, list | tuple) and values and all(
                    isinstance(x, int) and not isinstance(x, bool) for x in values):
                raise InvalidArrayError(f"{what} has a value outside int64")  # numpy: object
            raise InvalidArrayError(f"{what} must be integers, got dtype {arr.dtype}")
        if arr.shape != (n,):
            raise InvalidArrayError(f"{what} must have shape ({n},), got {arr.shape}")
        if isinstance(values, list | tuple):  # numpy makes ints of the bools among ints
            for x in values:
                if isinstance(x, bool | _np.bool_):
                    raise InvalidArrayError(f"{what} must be integers, got {excerpt(x)}")
        if arr.dtype.kind == "u" and arr.size and int(arr.max()) > _INT64_MAX:
            raise InvalidArrayError(f"{what} has a value outside int64")  # (not wrapped)
        return _np.require(arr, _np.int64, ("C", "A"))  # contiguous and aligned
    try:
        mv = memoryview(values)  # type: ignore[arg-type]
    except TypeError:
        mv = None
    if mv is not None:
        if mv.format not in ("q", "l", "i", "b", "h", "B", "H", "I", "L", "Q") or mv.ndim != 1:
            raise InvalidArrayError(f"{what} must be a 1-D integer buffer, got format {mv.format}")
        if len(mv) != n:
            raise InvalidArrayError(f"{what} must have shape ({n},), got ({len(mv)},)")
        if isinstance(values, array.array) and values.typecode == "q":
            return values  # int64 in its own (aligned) block: the engine reads it as it is
        if mv.format in ("q", "l") and mv.itemsize == 8 and mv.c_contiguous:
            out = array.array("q")  # a copy: another buffer's items may be misaligned
            out.frombytes(mv.cast("B"))
            return out
        try:  # a buffer's items are ints: no per-item check
            return array.array("q", mv.tolist())
        except OverflowError:
            raise InvalidArrayError(f"{what} has a value outside int64") from None
    if not isinstance(values, Sequence):  # a dict (its keys), a set (no order), an iterator
        raise InvalidArrayError(f"{what} must be a sequence of ints (a list, a tuple or an "
                                f"integer buffer), got {type(values).__name__}")
    seq = list(values)
    if len(seq) != n:
        raise InvalidArrayError(f"{what} must have shape ({n},), got ({len(seq)},)")
    for v in seq:
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidArrayError(f"{what} must be integers, got {excerpt(v)}")
    try:
        return array.array("q", seq)
    except OverflowError:
        raise InvalidArrayError(f"{what} has a value outside int64") from None


def _flags(values: object, n: int, what: str) -> Any:
    """``values`` (N bools) as a C-contiguous uint8 vector of length ``n`` (checked)."""
    if _np is not None:
        try:
            arr = _np.asarray(values)
        except (ValueError, TypeError) as exc:  # ragged nesting, odd objects
            raise InvalidArrayError(f"{what} must be {n} bools: {exc}") from None
        if arr.dtype != _np.bool_ or arr.shape != (n,):
            raise InvalidArrayError(f"{what} must be {n} bools (shape ({n},), dtype bool), "
                                    f"got dtype {arr.dtype} and shape {arr.shape}")
        return _np.ascontiguousarray(arr).view(_np.uint8)
    try:
        seq = list(values if isinstance(values, Sequence)
                   else memoryview(values))  # type: ignore[arg-type]
    except (TypeError, NotImplementedError):  # not a sequence or buffer; a 2-D buffer
        raise InvalidArrayError(f"{what} must be {n} bools, got {excerpt(values)}") from None
    if len(seq) != n or not all(isinstance(v, bool) for v in seq):
        raise InvalidArrayError(f"{what} must be {n} bools, got {excerpt(values)}")
    return array.array("B", seq)


_POOLS_LOCK = threading.Lock()
"""Held while a VectorGame starts or drops its worker threads (never while they run)."""


class _SliceThreads:
    """Worker threads for a batch (the C loops run without the GIL).

    :meth:`share` (a step): the workers are woken through their queues and join the caller in
    taking chunks of tables; the caller waits for the tables in C, not for replies.
    :meth:`run` (``play``): fixed slices, one queue put per worker, the caller runs the first
    slice, then one reply per worker."""

    def __init__(self, count: int) -> None:
        self.pid = os.getpid()  # a forked child has none of these threads
        self._jobs: list[queue.SimpleQueue[Any]] = [queue.SimpleQueue() for _ in range(count)]
        self._done: queue.SimpleQueue[tuple[int, BaseException | None]] = queue.SimpleQueue()
        self._failed: list[BaseException] = []  # errors of jobs nobody waits for
        self._calls = 0
        self._wake_for: tuple[Any, ...] | None = None  # the assist call _wake was built for
        self._wake: Callable[[], None] = lambda: None
        self._running = threading.RLock()  # one run() or close() at a time (see run)
        self._closed = False
        self._threads = [threading.Thread(target=_slice_worker,
                                          args=(jobs, self._done, self._failed),
                                          name=f"holdem-vector-{k}", daemon=True)
                         for k, jobs in enumerate(self._jobs)]
        started = 0
        try:
            for t in self._threads:
                t.start()
                started += 1
        except BaseException:
            # no thread left behind waiting for jobs that will never come (a failed start:
            # the process is out of threads or memory); the caller gets the error
            for jobs in self._jobs[:started]:
                jobs.put(None)
            for t in self._threads[:started]:
                t.join()
            raise

    def share(self, step: Callable[..., None], assist: Callable[..., None],
              args: tuple[Any, ...], assist_args: tuple[Any, ...] = ()) -> None:
        """``step(wake, *args)``, where ``wake()`` has worker ``k`` (0, 1, ...) call
        ``assist(*assist_args, k + 1)`` (no reply: ``step`` itself returns once every table is
        stepped, or, for a step that is finished later, once it is published). A worker that
        has a job queued already gets no other: it is about to call ``assist`` or is inside
        it, watching for steps (so its queue stays short)."""
        self._raise_failed()
        if self._wake_for != (assist, assist_args):
            # built once for a batch, not per step: a step of a small batch takes a few
            # microseconds, and the caller builds the wake-up before it takes any table.
            # Worker k assists from lane k + 1 (the caller's is lane 0: see Batch.share_start)
            pairs = [(jobs, (0, assist, (*assist_args, k + 1)))
                     for k, jobs in enumerate(self._jobs)]

            def wake() -> None:
                for jobs, job in pairs:
                    if not jobs.qsize():
                        jobs.put(job)

            self._wake_for, self._wake = (assist, assist_args), wake
        step(self._wake, *args)

    def run(self, fn: Callable[..., None], bounds: list[int], args: tuple[Any, ...]) -> None:
        """``fn(bounds[k], bounds[k + 1], *args)`` for every slice ``k``, all in parallel.
        Returns when every slice is done (replies left by an interrupted call are skipped).
        Calls from other threads wait their turn (the replies name no caller). Once the pool
        is closed (by another thread, between the caller's taking it and this call) the
        slices run one after the other in the calling thread."""
        with self._running:
            if self._closed:
                for k in range(len(bounds) - 1):
                    fn(bounds[k], bounds[k + 1], *args)
                return
            self._run(fn, bounds, args)

    def _run(self, fn: Callable[..., None], bounds: list[int], args: tuple[Any, ...]) -> None:
        self._raise_failed()
        self._calls += 1
        call = self._calls
        for k, jobs in enumerate(self._jobs, start=1):
            jobs.put((call, fn, (bounds[k], bounds[k + 1], *args)))
        error: BaseException | None = None
        try:
            fn(bounds[0], bounds[1], *args)
        finally:
            waiting = len(self._jobs)
            while waiting:
                done_call, exc = self._done.get()
                if done_call == call:
                    waiting -= 1
                    error = error or exc
        if error is not None:
            raise error

    def _raise_failed(self) -> None:
        if self._failed:
            raise self._failed.pop(0)

    def close(self) -> None:
        """Stop the workers (after the jobs already queued, and after a run() in progress in
        another thread); then raise a worker's error that no call has raised yet. In a child
        forked after the pool started there is nothing to stop: its threads, and a call of
        another thread that held the pool's lock at the fork, are the parent's."""
        if self.pid != os.getpid():
            self._closed = True
            return
        with self._running:
            if not self._closed:
                self._closed = True
                for jobs in self._jobs:
                    jobs.put(None)
                for t in self._threads:
                    t.join()
        self._raise_failed()


def _slice_worker(jobs: queue.SimpleQueue[Any], done: queue.SimpleQueue[Any],
                  failed: list[BaseException]) -> None:
    while (job := jobs.get()) is not None:
        call, fn, args = job
        del job
        try:
            fn(*args)
        except BaseException as exc:  # handed to the caller, which raises it
            if call:
                done.put((call, exc))
            else:
                failed.append(exc)
        else:
            if call:
                done.put((call, None))
        del fn, args


def _declared_policy(policy: object) -> object:
    """``policy`` itself when it is a CompiledPolicy, else the agent's ``compiled_policy``."""
    if isinstance(policy, CompiledPolicy):
        return policy
    return getattr(policy, "compiled_policy", None)


def _policy_problem(p: CompiledPolicy) -> str | None:
    """What keeps the engine from running ``p`` (None: it can)."""
    if p.kind not in _vector.POLICIES:
        return f"kind {excerpt(p.kind)} is not one of {', '.join(map(repr, _vector.POLICIES))}"
    low = 1 if p.kind == "equity" else 0  # (the other kinds do not read these fields,
    if (isinstance(p.samples, bool) or not isinstance(p.samples, int)  # but C takes them)
            or not low <= p.samples <= MAX_EQUITY_SAMPLES):
        return (f"samples must be an int in {low}..{MAX_EQUITY_SAMPLES:,}, got "
                f"{excerpt(p.samples)}")
    if isinstance(p.raise_at, bool) or not isinstance(p.raise_at, int | float) or (
            p.raise_at != p.raise_at
            or (isinstance(p.raise_at, int) and abs(p.raise_at) > sys.float_info.max)):
        return (f"raise_at must be a number a float holds (infinities too), not NaN, got "
                f"{excerpt(p.raise_at)}")
    return None


def compiled_policy(policy: object) -> CompiledPolicy | None:
    """``policy`` itself (a :class:`holdem.table.agents.CompiledPolicy`) or the agent's
    declared ``compiled_policy``, when it is one the engine can run; else None."""
    p = _declared_policy(policy)
    if not isinstance(p, CompiledPolicy) or _policy_problem(p) is not None:
        return None
    return p


_LOOKUP_COLUMNS = 12  # masks of up to this many columns sample through a table of patterns
_lookups: dict[int, tuple[Any, Any, Any]] = {}
# times a little-endian word of eight 0/1 bytes: byte i lands on bit 56 + i, and the
# products of other bytes stay below bit 56 or pass bit 63 (no carry reaches bits 56..63)
_GATHER_BYTES = 0x0102040810204080
# below this many rows numpy.packbits finds the patterns in less time than the gather:
# sample_legal of one 6-column row took 6.8 us with it against 10.2, of 4,096 rows 92 us
# against 30 (the two cross between 128 and 256 rows, 6 or 12 columns)
_PACK_ROWS = 192


def _lookup(columns: int) -> tuple[Any, Any, Any]:
    """For masks of ``columns`` (<= _LOOKUP_COLUMNS) columns, indexed by a row's pattern (bit
    c: column c legal; with fewer than 8 columns :func:`_patterns` may leave the next row's
    first columns in bits ``columns``..7, so there are 2**max(columns, 8) patterns, those
    bits ignored): the number of legal columns (float32) and the legal columns in order (a
    row of columns + 1, padded with the last one), flattened; then that row length as an
    int64 scalar."""
    found = _lookups.get(columns)
    if found is None:
        patterns = _np.arange(1 << max(columns, 8)) & ((1 << columns) - 1)
        bits = (patterns[:, None] >> _np.arange(columns)) & 1
        counts = bits.sum(axis=1)
        # the k-th legal column of a pattern is the first whose running count passes k
        running = bits.cumsum(axis=1)
        k = _np.minimum(_np.arange(columns + 1), _np.maximum(counts - 1, 0)[:, None])
        table = (running[:, None, :] > k[:, :, None]).argmax(axis=2).astype(_np.int64)
        found = (counts.astype(_np.float32), table.ravel(), _np.int64(columns + 1))
        _lookups[columns] = found
    return found


def _patterns(m: Any) -> Any:
    """Each row's pattern of legal columns (bit c: column c legal) of an (n, a) bool or
    integer mask, a <= _LOOKUP_COLUMNS, as int64; when a < 8, bits a..7 are 0 or hold the
    next row's first columns (the tables of _lookup ignore them).

    Few rows (n < _PACK_ROWS): numpy.packbits, a byte or two per row. Else the rows are
    copied as 0/1 bytes into one buffer (8 zero bytes after them), read as little-endian
    64-bit words at a stride of a bytes, and each word's eight bytes are gathered into eight
    bits by one multiplication (a > 8: a second word for the rest)."""
    n, a = m.shape
    if n < _PACK_ROWS:  # (nonzero bytes and integers are packed as 1)
        packed = _np.packbits(m, axis=1, bitorder="little")  # (as m's order: maybe F)
        if a > 8:
            packed = _np.ascontiguousarray(packed).view("<u2")
        return packed[:, 0].astype(_np.int64)
    buf = _np.zeros(n * a + 8, _np.bool_)
    # (a bool array may hold bytes other than 0 and 1: != turns each into 0 or 1)
    _np.not_equal(m, False if m.dtype == _np.bool_ else 0, out=buf[:n * a].reshape(n, a))
    gather, shift = _np.uint64(_GATHER_BYTES), _np.uint64(56)
    pattern = _np.ndarray((n,), dtype="<u8", buffer=buf, strides=(a,)) * gather
    pattern >>= shift
    if a > 8:
        rest = _np.ndarray((n,), dtype="<u8", buffer=buf, offset=8, strides=(a,)) * gather
        rest >>= shift
        rest &= _np.uint64((1 << (a - 8)) - 1)
        rest <<= _np.uint64(8)
        pattern |= rest
    return pattern.view(_np.int64)


def sample_legal(mask: Any, rng: Any) -> Any:
    """A uniformly random legal column per row of a legal mask: the uniform random policy
    over a whole batch, vectorized in numpy (it needs numpy).

    ``mask`` is (N, A) bool, as :attr:`VectorGame.legal_mask` (integers: nonzero is legal);
    ``rng`` a ``numpy.random.Generator`` (keep one and pass it to every call: the same
    generator state gives the same columns) or a seed for a new one. Returns the columns as
    an (N,) int64 array, each drawn with probability 1 / (legal columns of its row) (up to
    the draws' precision: 2**-24). A row with no legal column is refused. It pays off from
    about 200 rows: its fixed cost (about 6-7 us a call) is about three times that of
    ``(rng.random(mask.shape) * mask).argmax(axis=1)``.

    >>> import numpy as np
    >>> mask = np.array([[True, False, True], [False, True, False]])
    >>> sample_legal(mask, np.random.default_rng(1)).tolist()
    [0, 1]
    """
    if _np is None:
        raise ModuleNotFoundError("sample_legal needs numpy: pip install 'holdem-engine[numpy]'")
    if not isinstance(rng, _np.random.Generator):
        if isinstance(rng, bool) or not isinstance(rng, int | _np.integer
                                                   | _np.random.SeedSequence):
            raise InvalidArrayError(f"rng must be a numpy.random.Generator or a seed (an "
                                    f"int >= 0), got {excerpt(rng)}")
        try:
            rng = _np.random.default_rng(rng)
        except ValueError as exc:  # a negative seed
            raise InvalidArrayError(f"rng must be a numpy.random.Generator or a seed (an "
                                    f"int >= 0): {exc}") from None
    try:
        m = _np.asarray(mask)
    except (ValueError, TypeError) as exc:  # ragged nesting, odd objects
        raise InvalidArrayError(f"mask must be a 2-D array of bools: {exc}") from None
    if m.ndim != 2 or m.shape[1] == 0:
        raise InvalidArrayError(f"mask must be a 2-D array of bools with at least one "
                                f"column (N, A), got shape {m.shape}")
    if m.dtype != _np.bool_ and m.dtype.kind not in ("i", "u"):
        raise InvalidArrayError(f"mask must be bools (or integers, nonzero: legal), "
                                f"got dtype {m.dtype}")
    n, columns = m.shape
    if n == 0:
        return _np.zeros(0, _np.int64)
    if columns <= _LOOKUP_COLUMNS:
        counts, table, stride = _lookup(columns)
        pattern = _patterns(m)
        count = counts.take(pattern)
        if _np.count_nonzero(count) != n:
            row = int(_np.flatnonzero(count == 0)[0])
            raise InvalidArrayError(f"mask row {row} has no legal column")
        draw = rng.random(n, dtype=_np.float32)
        draw *= count
        pattern *= stride
        pattern += draw.astype(_np.intp)
        return table.take(pattern)
    if m.dtype != _np.bool_:
        m = m != 0
    legal = m.any(axis=1)
    if not legal.all():
        row = int(_np.flatnonzero(~legal)[0])
        raise InvalidArrayError(f"mask row {row} has no legal column")
    # the legal column with the largest draw in [1, 2) (a draw of 0 would tie with the
    # illegal columns' 0; a tie between two legal columns has odds near 2**-52)
    draws = rng.random(m.shape)
    draws += 1.0
    draws *= m
    return draws.argmax(axis=1).astype(_np.int64)


@dataclass(frozen=True, eq=False)  # it holds arrays: equal only to itself
class PlayResult:
    """What :meth:`VectorGame.play` returns: per table and seat, over the hands played.

    Arrays as the engine's other outputs (numpy with numpy installed, else ``memoryview``),
    all int64: ``payoffs`` (N, P) chips won; ``squares`` (N, P) the sum of each hand's payoff
    squared (for confidence intervals); ``showdowns`` (N, P) hands the seat took to a
    showdown; ``showdowns_won`` (N, P) those where it won chips from a pot; ``rake`` (N,);
    ``curve`` (N, len(curve_hands), P) the chips won so far after ``curve_hands[j]`` hands;
    ``hand_payoffs`` (N, hands, P) each hand's payoffs (with ``keep_hands=True``, else None).
    """

    hands: int
    payoffs: Any
    squares: Any
    showdowns: Any
    showdowns_won: Any
    rake: Any
    curve_hands: tuple[int, ...]
    curve: Any
    hand_payoffs: Any = None


class VectorGame:
    """``num_tables`` independent tables of ``game`` with ``players`` seats, stepped together.

    - ``stacks``: chips per seat at the start of each hand (an int, or one per seat).
    - ``session``: False (default) deals every hand from ``stacks``; True plays a session:
      the button moves one seat per hand, stacks carry over and a busted seat is refilled to
      its starting stack. Every seat restarts from its starting stack after 64 hands in a
      row that nobody could act in, and when a stack carried over is above 2**53 chips (a
      seat's limit). (With fresh stacks the button also moves one seat per hand.)
    - ``actions``: an :class:`ActionLayout` or a preset name (``"default"``, ``"fcpa"``,
      ``"fchpa"``).
    - ``seed``: table ``i``'s hand ``h`` is dealt from ``child_seed(child_seed(seed, i), h)``;
      any int (taken modulo 2**64, as everywhere in holdem), or None (default): 64 bits are
      drawn and kept in :attr:`seed`.
    - ``num_tables``: 1 .. 2**26, and no more than the machine's physical memory holds
      (:meth:`memory_per_table` bytes each, counted before anything is allocated; more
      raises :class:`holdem.InvalidConfigError` naming the bytes).
    - ``num_threads``: threads stepping the batch in parallel (the C loop runs without the
      GIL): they take chunks of tables until none is left; the results do not depend on it.
    - ``final_observation``: True keeps, for each table whose hand ends in a step, the row
      of its last decision in :attr:`final_observation` (the observation buffer is given the
      next hand's first row at once).

    A step's ``rewards`` and :attr:`payoffs` hold, per table, the chips of the hands that
    ended in that step: the one its action ended and, in a session, any next hand dealt out
    at once because its forced bets left nobody to act (their sum); :meth:`last_hand` is the
    hand ended by the action, and :meth:`hands_played` counts them all.
    """

    def __init__(self, game: Game, *, num_tables: int, players: int, stacks: int | Sequence[int],
                 seed: int | None = None, session: bool = False,
                 actions: ActionLayout | str = "default",
                 num_threads: int = 1, final_observation: bool = False) -> None:
        num_tables = _integer("num_tables", num_tables)
        players = _integer("players", players)
        seed = resolve_seed(seed)  # any int (taken modulo 2**64), or None: drawn and kept
        num_threads = _integer("num_threads", num_threads)
        if not 1 <= num_threads <= 256:
            raise InvalidConfigError(f"num_threads must be 1..256, got {shown(num_threads)}")
        if not isinstance(session, bool):
            raise InvalidConfigError("session must be True or False")
        if not isinstance(final_observation, bool):
            raise InvalidConfigError("final_observation must be True or False")
        if not 1 <= num_tables <= _vector.MAX_TABLES:
            raise InvalidConfigError(f"num_tables must be 1..{_vector.MAX_TABLES}, got {shown(num_tables)}")
        if not 2 <= players <= 10:
            raise InvalidConfigError(f"players must be 2..10 (R1), got {shown(players)}")
        if isinstance(stacks, str | bytes | Mapping | AbstractSet):  # (no seat order)
            raise InvalidConfigError(f"stacks must be an int or ints, one per seat in seat "
                                     f"order, got {excerpt(stacks)}")
        try:
            seq = [stacks] * players if not hasattr(stacks, "__iter__") else list(stacks)
        except TypeError:
            raise InvalidConfigError(f"stacks must be an int or ints, got {excerpt(stacks)}") from None
        stack_t = tuple(_integer("stacks", s) for s in seq)
        layout = ActionLayout.preset(actions) if isinstance(actions, str) else actions
        if not isinstance(layout, ActionLayout):
            raise InvalidConfigError(f"actions must be an ActionLayout or a preset name, got {excerpt(actions)}")
        rules = _rules(game)
        # the tables' memory, counted before any is allocated (2**26 tables at 3.5 KB each
        # asked the allocator for 237 GB and raised a bare MemoryError)
        size = num_tables * _bytes_per_table(players, layout, final_observation)
        advice = "use fewer tables (num_tables), or split them over several batches"
        _memory.check_fits(size, f"{num_tables:,} tables", advice)
        self._game = game
        self._layout = layout
        self._spec = ObservationSpec(players)
        self._seed = seed
        self._session = session
        self._stacks = stack_t
        self._threads = num_threads
        n, a, w = num_tables, layout.size, self._spec.width
        try:
            self._batch = _vector.Batch(rules, num_tables, players, stack_t, seed_bits(seed),
                                        session, list(layout._codes), list(layout._priority),
                                        layout.keep == "first")
            self._obs = _alloc("f", (n, w))
            self._mask = _alloc("B", (n, a))
            self._actor = _alloc("i", (n,))
            self._payoffs = _alloc("q", (n, players))
            self._rewards = _alloc("f", (n, players))
            self._done = _alloc("B", (n,))
            self._final = _alloc("f", (n, w)) if final_observation else None
        except MemoryError:  # (another limit than the machine's: ulimit -v, a container)
            raise _memory.no_memory(size, f"{num_tables:,} tables", advice) from None
        self._obs_view = _read_only(self._obs)  # each step rewrites only what changed
        # what users get: read-only views (a step rewrites only what changed, and a rewards
        # row only after a hand was paid, so an edit would outlive the step)
        self._done_view = _read_only(self._done.view(bool) if _np is not None else self._done)
        self._mask_view = _read_only(self._mask.view(bool) if _np is not None else self._mask)
        self._actor_view = _read_only(self._actor)
        self._payoffs_view = _read_only(self._payoffs)
        self._rewards_view = _read_only(self._rewards)
        self._final_view = None if self._final is None else _read_only(self._final)
        self._batch.bind(self._obs, self._mask, self._actor, self._payoffs, self._rewards,
                         self._done, self._final)  # every step writes these
        self._pool: _SliceThreads | None = None
        self._close_pool: weakref.finalize[[], VectorGame] | None = None
        self._started = False

    def __repr__(self) -> str:
        return (f"VectorGame({self._game!r}, num_tables={self.num_tables}, "
                f"players={self.players}, stacks={self._stacks!r}, seed={literal(self._seed)}, "
                f"session={self._session}, actions={self._layout!r}, "
                f"num_threads={self._threads}"
                f"{', final_observation=True' if self._final is not None else ''})")

    # ------------------------------------------------------------------ properties
    @property
    def game(self) -> Game:
        """The game every table plays."""
        return self._game

    @property
    def seed(self) -> int:
        """The seed, as given or as drawn for ``seed=None`` (pass it back to replay)."""
        return self._seed

    @property
    def num_tables(self) -> int:
        """N, the number of tables (the rows of every array)."""
        return int(self._batch.num_tables)

    @property
    def players(self) -> int:
        """Seats per table."""
        return int(self._batch.players)

    @property
    def stacks(self) -> tuple[int, ...]:
        """The starting stack of each seat, in chips: of every hand, or of a session's first
        hand (and of a refilled seat)."""
        return self._stacks

    @property
    def action_layout(self) -> ActionLayout:
        """The discrete columns of :attr:`legal_mask` and of :meth:`step`'s actions."""
        return self._layout

    @property
    def observation_spec(self) -> ObservationSpec:
        """The columns of :attr:`observation` (names, width, version)."""
        return self._spec

    @property
    def observation_high(self) -> tuple[float, ...]:
        """The largest value of each observation column on these tables (every column is
        >= 0): :meth:`ObservationSpec.high` for the game and the starting stacks; in a session
        the chip columns and raise counts are ``inf`` (refilled seats bring new chips)."""
        return tuple(self._spec.high(self._game, None if self._session else self._stacks))

    @property
    def current_player(self) -> Any:
        """The seat to act per table, shape (N,) int32."""
        self._need_start()
        return self._actor_view

    @property
    def legal_mask(self) -> Any:
        """Legal action columns per table, shape (N, A) bool (uint8 without numpy)."""
        self._need_start()
        return self._mask_view

    @property
    def observation(self) -> Any:
        """The observation of each table's actor, shape (N, F) float32 (read-only: the
        engine's own buffer, rewritten by every step; copy it to keep or change it)."""
        self._need_start()
        return self._obs_view

    @property
    def final_observation(self) -> Any:
        """Per table, the row of the last decision of the last hand that ended there (the
        rows where a step's ``done`` is True are that step's hands), shape (N, F) float32,
        read-only; zeros before a table's first hand ends. Needs
        ``VectorGame(..., final_observation=True)``."""
        self._need_start()
        if self._final_view is None:
            raise IllegalActionError(
                "final observations are not kept: make the VectorGame with "
                "final_observation=True (under a HoldemVectorEnv: final_obs=True)")
        return self._final_view

    @property
    def payoffs(self) -> Any:
        """Chips won or lost per seat on each table in the last step that ended a hand
        there, (N, P) int64, read-only: the hand its action ended plus, in a session, the
        hands dealt out in the same step because their forced bets left nobody to act (see
        :class:`VectorGame`). Unlike a step's rewards, the row stays until the next hand
        ends."""
        self._need_start()
        return self._payoffs_view

    def hands_played(self) -> Any:
        """Hands finished per table, shape (N,) int64."""
        self._ready()
        out = _alloc("q", (self.num_tables,))
        self._batch.hands_played(out)
        return out

    def total_payoffs(self) -> Any:
        """Chips won or lost per table and seat over every hand finished since :meth:`reset`,
        shape (N, P) int64. The sums are kept exact however many hands are played; one that is
        outside int64 (more than 2**63 - 1 chips either way) raises
        :class:`holdem.ChipOverflowError` (also an ``OverflowError``)."""
        self._ready()
        out = _alloc("q", (self.num_tables, self.players))
        self._batch.totals(out)
        return out

    def history(self, table: int) -> list[tuple[int, int, int, int]]:
        """The raw public history of ``table``'s current hand: ``(seat, street, kind, to)``
        per action (kind 0 fold, 1 check/call, 2 bet/raise to ``to``; street 0-3)."""
        table = self._table(table)
        return list(self._actions(self._current(table), table))

    def hand_state(self, table: int) -> HandState:
        """``table``'s current hand as a :class:`holdem.HandState` (the same cards, forced
        bets and actions, replayed): for search, CFR or a look at every field."""
        table = self._table(table)
        return self._replay(self._current(table), table)

    def last_hand(self, table: int) -> HandState | None:
        """The last hand that ended on ``table`` by an action, as a finished
        :class:`holdem.HandState` (None before the first); ``holdem.from_state(...)`` writes it
        as PHH."""
        table = self._table(table)
        self._ready()
        rec = self._batch.history(table, True)
        return None if rec is None else self._replay(rec, table)

    def last_hand_observation(self, table: int, seat: int) -> Any:
        """The last hand that ended on ``table`` by an action, as ``seat`` sees it once it is
        over: the row ``observation_spec.encode(last_hand(table), seat)`` gives (its own hole
        cards, the board dealt, stacks before the pots are paid, bets and committed chips as
        they ended, nothing to call), a float32 array of ``observation_spec.width`` (a
        ``memoryview`` without numpy). Built in C from the table's log: about 20 times
        cheaper than replaying the hand as a :class:`holdem.HandState` and encoding that
        (about 2.5 us a 6-max row). None before the first hand ends;
        :class:`holdem.IllegalActionError` when that hand had more than 64 actions (its
        history is not kept).

        >>> from holdem import Game
        >>> env = VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=100, seed=1)
        >>> _ = env.reset()
        >>> _ = env.step([0])  # the button folds its small blind
        >>> row = env.last_hand_observation(0, 1)
        >>> row.tolist() == env.observation_spec.encode(env.last_hand(0), 1)
        True
        """
        table = self._table(table)
        index = int_or_none(seat)
        if index is None or not 0 <= index < self.players:
            raise InvalidSeatError(f"seat must be an int 0..{self.players - 1}, got "
                                   f"{excerpt(seat)}")
        self._ready()
        row = _alloc("f", (self.observation_spec.width,))
        got = self._batch.last_row(table, index, row)
        if got == -1:
            return None
        if got == -2:
            raise _unlogged(table)
        return row

    def _current(self, table: int) -> tuple[Any, ...]:
        self._ready()
        rec = self._batch.history(table, False)
        if rec is None:  # pragma: no cover - a started table always has a current hand
            raise IllegalActionError("call reset() first")
        return tuple(rec)

    @staticmethod
    def _actions(rec: tuple[Any, ...], table: int) -> list[tuple[int, int, int, int]]:
        if rec[4] is None:
            raise _unlogged(table)
        return list(rec[4])

    def _replay(self, rec: tuple[Any, ...], table: int) -> HandState:
        button, stacks, hole, board, _ = rec
        state = self._game.new_hand(list(stacks), button=button,
                                    hole_cards=[list(h) for h in hole], board=list(board))
        for seat, _street, kind, to in self._actions(rec, table):
            action = (Action.fold() if kind == 0 else Action.check_or_call() if kind == 1
                      else Action.bet_or_raise(to))
            state.apply(action, seat=seat)
        return state

    def cards(self, table: int, hand: int) -> tuple[tuple[tuple[Card, Card], ...], tuple[Card, ...]]:
        """The cards of ``table``'s hand number ``hand`` (0 after :meth:`reset`, played or
        not): hole cards by seat and the five board cards, as :class:`holdem.Card` (ints, as
        :attr:`holdem.HandState.hole_cards`). They depend only on ``(seed, table, hand)``;
        hand ``h`` has the button on seat ``h % players``."""
        table = self._table(table)
        h = int_or_none(hand)
        if h is None or not 0 <= h <= _INT64_MAX:
            raise InvalidTableError(f"hand must be an int 0..2**63-1 (hands are numbered from "
                                    f"0), got {excerpt(hand)}")
        hole, board = self._batch.cards(table, h)
        return _hole_cards(hole), _card_tuple(board)

    def legal_actions(self, table: int) -> LegalActions:
        """Table ``table``'s exact legal actions, as :meth:`holdem.HandState.legal_actions`
        gives them (a :class:`holdem.LegalActions`; amounts are street totals)."""
        table = self._table(table)
        self._ready()
        return LegalActions(*self._batch.legal(table))

    def raise_amounts(self, table: int) -> list[int | None]:
        """The bet/raise total of each action column on ``table`` (None when masked)."""
        table = self._table(table)
        self._ready()
        return list(self._batch.amounts(table))

    def table_state(self, table: int) -> dict[str, Any]:
        """A snapshot of one table (stacks, bets, cards, ...) as a dict of Python values;
        cards (``hole``, ``board``, ``all_board``: the whole board to come) as
        :class:`holdem.Card`."""
        table = self._table(table)
        self._ready()
        state = dict(self._batch.table(table))
        state["hole"] = _hole_cards(state["hole"])
        state["board"] = _card_tuple(state["board"])
        state["all_board"] = _card_tuple(state["all_board"])
        return state

    def _table(self, table: object) -> int:
        """``table`` as an index 0..N-1 (numpy integers too; not bools, floats or strings)."""
        i = int_or_none(table)
        if i is None:
            raise InvalidTableError(f"table must be an int 0..{self.num_tables - 1}, got {excerpt(table)}")
        if not 0 <= i < self.num_tables:
            raise InvalidTableError(f"table {shown(i)} is out of range 0..{self.num_tables - 1}")
        return i

    def memory_per_table(self) -> int:
        """Bytes per table: the C state plus the engine's output buffers."""
        return _bytes_per_table(self.players, self._layout, self._final is not None)

    # ------------------------------------------------------------------ stepping
    def _need_start(self) -> None:
        if not self._started:
            raise IllegalActionError("call reset() first")

    def _finish(self) -> None:
        """Complete the step that :meth:`step_async` started, if one is in flight."""
        if self._batch.in_flight:
            if self._pool is not None and self._pool.pid != os.getpid():
                raise IllegalActionError(
                    "this process was forked while a step_async was in flight: the threads "
                    "stepping it are not here, so its tables are incomplete; make a new "
                    "VectorGame in this process")
            self._batch.share_finish()

    def _ready(self) -> None:
        self._need_start()
        self._finish()

    def reset(self) -> Any:
        """Deal hand 0 on every table; return the observations (N, F)."""
        self._finish()
        self._batch.reset()
        self._started = True
        return self._obs_view

    def abandon(self, flags: object) -> Any:
        """Void the hand in play on the tables flagged (N bools, one per table) and deal
        each of them its next hand; return the observations (N, F).

        A voided hand pays nothing: every seat gets back the chips it had when the hand
        began (in a session the next hand starts from them), and it counts in neither
        :meth:`hands_played` nor :meth:`total_payoffs`. It keeps its hand number, so the
        next hand is still the one of ``(seed, table, hand number)`` (:meth:`cards`). In a
        session, a next hand whose forced bets leave nobody able to act (which a step would
        deal out at once) is voided too, and the one after it dealt, until a hand somebody
        acts in: no chips move in ``abandon``.
        :meth:`last_hand`, :attr:`payoffs`, :attr:`final_observation` and the last step's
        rewards and ``done`` flags keep the last hand that ended there; the rows of
        :attr:`observation`, :attr:`legal_mask` and :attr:`current_player` show the new
        hands. Gymnasium's partial reset (``reset_mask``) is built on it.

        >>> from holdem import Game
        >>> env = VectorGame(Game(big_blind=2), num_tables=3, players=2, stacks=100, seed=1)
        >>> _ = env.reset()
        >>> _ = env.abandon([False, True, False])
        >>> env.hand_state(1).hole_cards == env.cards(1, 1)[0]
        True
        """
        self._ready()
        self._batch.abandon(_flags(flags, self.num_tables, "flags"))
        return self._obs_view

    def step(self, actions: object) -> tuple[Any, Any, Any]:
        """Play one action column per table; return ``(obs, rewards, done)``.

        ``actions`` is shape (N,) of column indexes. A masked column on any table raises
        :class:`holdem.IllegalActionError` naming the table and the action; then no table moves.
        """
        self._ready()
        cols = _int64_vector(actions, self.num_tables, "actions")
        bad = self._batch.check_columns(cols)
        if bad >= 0:
            raise IllegalActionError(self._column_error(int(bad), int(cols[bad])))
        return self._run(None)  # the entries just checked

    def step_unchecked(self, actions: object) -> tuple[Any, Any, Any]:
        """:meth:`step` without the legality pass: a masked or out-of-range column plays
        check/call. For trusted policies that sample from :attr:`legal_mask`."""
        self._ready()
        return self._run(_int64_vector(actions, self.num_tables, "actions"))

    def step_exact(self, kinds: object, amounts: object) -> tuple[Any, Any, Any]:
        """The exact view: ``kinds`` 0 fold, 1 check/call, 2 bet/raise to ``amounts`` (street
        totals, any legal size; ignored for kinds 0 and 1). Illegal entries raise
        :class:`holdem.IllegalActionError` naming the table; then no table moves."""
        self._ready()
        k = _int64_vector(kinds, self.num_tables, "kinds")
        t = _int64_vector(amounts, self.num_tables, "amounts")
        bad = self._batch.check_exact(k, t)  # copies what it checks
        if bad >= 0:
            kind, to = int(k[bad]), int(t[bad])
            if not 0 <= kind <= 2:
                raise IllegalActionError(
                    f"table {bad}: kind {kind} is not an action kind: kinds are 0 fold, "
                    f"1 check/call, 2 bet/raise; {self._legal_text(bad)}")
            what = _KIND_NAMES[kind] + (f" to {to}" if kind == 2 else "")
            raise IllegalActionError(
                f"table {bad}: {what} is not legal for seat {self._batch.legal(bad)[0]}; "
                f"{self._legal_text(bad)}")
        return self._run(None)  # the entries just checked (copied)

    def step_async(self, actions: object, tables: slice | None = None, *,
                   checked: bool = True, hold: object = None) -> None:
        """Start stepping ``tables`` (a slice of the batch, all by default) with one action
        column per table, and return while threads step them (``num_threads`` >= 2; with
        one thread the step is done before it returns). :meth:`step_wait` waits for it.

        Meanwhile the caller may compute the actions of other tables: with the batch in two
        halves, the policy of one half runs while the other half is stepped (see the
        README). A step already in flight is completed first. ``actions`` are copied, so the
        caller may reuse its buffer at once. ``checked`` (default) refuses a masked column as
        :meth:`step` does, before any table moves; ``checked=False`` plays check/call for it,
        as :meth:`step_unchecked` does.

        ``hold`` (None, or N bools, one per table of the batch): the tables flagged do not
        move in this step; their rows stay as they are, their ``done`` is False and their
        rewards 0 (their actions are still checked when ``checked``); the flags are copied
        as the actions are. An env that shows a finished hand for one step before the next
        (Gymnasium's next-step autoreset) holds those tables.

        Until the step is complete, the rows of ``tables`` in :attr:`observation`,
        :attr:`legal_mask`, :attr:`current_player`, :attr:`payoffs`,
        :attr:`final_observation` and the rewards and ``done`` arrays are being written: read
        other rows only. Every other method completes the step first.
        """
        self._ready()
        if not isinstance(checked, bool):
            raise InvalidConfigError(f"checked must be True or False, got {excerpt(checked)}")
        n = self.num_tables
        if tables is None:
            lo, hi = 0, n
        elif isinstance(tables, slice):
            try:
                lo, hi, stride = tables.indices(n)
            except (TypeError, ValueError):  # bounds not ints, or a step of 0
                raise InvalidArrayError(f"tables must be a slice with int bounds and step 1, "
                                        f"got {excerpt(tables)}") from None
            if stride != 1:
                raise InvalidArrayError(f"tables must be a slice with step 1, got {excerpt(tables)}")
            hi = max(lo, hi)
        else:
            raise InvalidArrayError(f"tables must be a slice of the batch, got {excerpt(tables)}")
        cols = _int64_vector(actions, hi - lo, "actions")
        flags = None if hold is None else _flags(hold, n, "hold")
        if checked:
            bad = self._batch.check_columns(cols, lo)
            if bad >= 0:
                raise IllegalActionError(self._column_error(int(bad), int(cols[bad - lo])))
        self._start(lo, hi, None if checked else cols, True, flags)  # None: the entries checked

    def step_wait(self) -> tuple[Any, Any, Any]:
        """Wait until the step started by :meth:`step_async` is complete (at once if none
        is in flight); return ``(obs, rewards, done)`` for the whole batch, as :meth:`step`
        does."""
        self._ready()
        return self._obs_view, self._rewards_view, self._done_view

    def _run(self, cols: Any) -> tuple[Any, Any, Any]:
        """Step every table: ``cols`` unchecked, or None for the batch's last check."""
        # complete when _start returns (Batch.share, not share_start then _finish: Ctrl-C
        # landing between those two calls left the step in flight, its rows still being
        # written by the workers while the caller read the properties)
        self._start(0, self.num_tables, cols, False, wait=True)
        return self._obs_view, self._rewards_view, self._done_view

    def _start(self, lo: int, hi: int, cols: Any, copy: bool, hold: Any = None,
               wait: bool = False) -> None:
        """Start stepping tables lo..hi-1 (``cols`` unchecked, or None for the batch's last
        check of them; ``copy``: copy ``cols`` first; ``hold``: None or N uint8 flags, the
        tables not to move). One thread: stepped here. More: the threads take chunks of
        tables until none is left (a late one takes fewer), and :meth:`_finish` joins them;
        with ``wait`` the step is complete when this returns (or raises)."""
        threads = min(self._threads, hi - lo)
        if threads <= 1:
            self._batch.run(lo, hi, cols, hold)
        else:
            chunk = max(1, min(_CHUNK, (hi - lo) // (4 * threads)))
            self._workers().share(self._batch.share if wait else self._batch.share_start,
                                  self._batch.assist,
                                  (chunk, cols, lo, hi, copy, hold, min(threads, 16)),
                                  (_LINGER,))

    def _workers(self) -> _SliceThreads:
        with _POOLS_LOCK:  # two threads stepping one batch start one pool, not two
            if self._pool is not None and self._pool.pid != os.getpid():
                # a child forked after the workers started: they do not exist here (a fixed
                # slice handed to one would never be stepped), so start this process's own
                if self._close_pool is not None:
                    self._close_pool.detach()
                self._pool = None
            if self._pool is None:
                self._pool = _SliceThreads(min(self._threads, self.num_tables) - 1)
                self._close_pool = weakref.finalize(self, self._pool.close)
            return self._pool

    def _slices(self, fn: Callable[..., None], args: tuple[Any, ...]) -> None:
        """``fn(lo, hi, *args)`` over ``num_threads`` slices of the batch, in parallel."""
        n = self.num_tables
        threads = min(self._threads, n)
        if threads <= 1:
            fn(0, n, *args)
            return
        self._workers().run(fn, [n * k // threads for k in range(threads + 1)], args)

    def clone(self) -> VectorGame:
        """An independent copy of the batch as it stands: the same game and arguments, every
        table at the same decision of the same hand, with the same arrays, totals and
        histories. Stepping one does not move the other, and the same actions give both the
        same results. A step in flight (:meth:`step_async`) is completed first; the copy
        starts its own threads when it needs them. ``copy.copy`` and ``copy.deepcopy`` make
        one too.

        >>> from holdem import Game
        >>> env = VectorGame(Game(big_blind=2), num_tables=2, players=3, stacks=100, seed=1)
        >>> _ = env.reset()
        >>> fork = env.clone()
        >>> _ = fork.step([1, 1])
        >>> [len(env.history(t)) for t in (0, 1)], [len(fork.history(t)) for t in (0, 1)]
        ([0, 0], [1, 1])
        """
        self._finish()
        other = VectorGame(self._game, num_tables=self.num_tables, players=self.players,
                           stacks=self._stacks, seed=self._seed, session=self._session,
                           actions=self._layout, num_threads=self._threads,
                           final_observation=self._final is not None)
        started = self._started  # (read with the copy: nothing between releases the GIL)
        other._batch.copy_from(self._batch)  # the tables and the arrays, together
        other._started = started
        return other

    def __copy__(self) -> VectorGame:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> VectorGame:
        return self.clone()

    def __reduce__(self) -> tuple[Callable[..., VectorGame], tuple[Any, ...]]:
        """Pickle the batch as it stands (a step in flight is completed first): its
        arguments, every table's C state and the last step's payoffs, rewards, ``done`` flags
        and final rows, with a digest. Unpickling checks every table (see
        :func:`_unpickle`) and writes the observations, masks and actors again; it needs the
        same platform layout (byte order, struct sizes) and raises
        :class:`holdem.InvalidStateError` on a pickle that is corrupt or was edited."""
        self._finish()
        args = (self._game, self.num_tables, self.players, self._stacks, self._seed,
                self._session, self._layout, self._threads, self._final is not None)
        state: dict[str, Any] = {"format": _vector.Batch.table_format(),
                                 "started": self._started}
        if self._started:
            tables, outputs = self._batch.dump()  # together (another thread may step it)
            state.update(tables=tables, outputs=outputs, digest=_digest(tables, outputs))
        return (_unpickle, (args, state))

    def _kept_outputs(self) -> list[Any]:
        """The output buffers a pickle keeps, in ``Batch.dump``'s order (the others are written
        again from the tables)."""
        kept = [self._payoffs, self._rewards, self._done]
        if self._final is not None:
            kept.append(self._final)
        return kept

    def close(self) -> None:
        """Stop the worker threads (if any), after the step in flight."""
        self._finish()
        with _POOLS_LOCK:
            pool, stop, self._pool = self._pool, self._close_pool, None
        if pool is not None and stop is not None:
            stop()  # (a worker's error is raised here: the pool is gone all the same)

    def play(self, hands: int, policies: Sequence[CompiledPolicy | DeclaresPolicy], *,
             curve_every: int | None = None, keep_hands: bool = False,
             streams: Sequence[int] | None = None) -> PlayResult:
        """Play hands ``0 .. hands-1`` to the end on every table with compiled policies, all
        in C (no Python call per decision; ``num_threads`` slices of the batch in parallel).

        ``policies``: one per seat (the same on every table), each a
        :class:`holdem.table.agents.CompiledPolicy` or an agent that declares one as its
        ``compiled_policy`` (the built-in ``RandomAgent``, ``CallAgent``, ``EquityAgent``).
        Table ``i`` deals the cards :meth:`step` deals there (they depend only on ``(seed, i,
        hand number)``, the button on seat ``h % players``); seat ``s``'s policy draws from
        its own generator seeded from ``(seed, i, streams[s])`` (``streams`` defaults to the
        seat numbers; give a policy the same stream in another seat and it keeps its draws).
        So the result depends only on the arguments, not on ``num_threads``. ``curve_every``: hands between the points of
        ``curve`` (default a tenth of ``hands``; the last hand is always a point).
        ``play`` leaves :meth:`step`'s tables as they were. What the call holds (the results,
        ``curve`` and ``curve_hands``, ``hand_payoffs`` with ``keep_hands``: about
        ``8 * num_tables * players`` bytes per point or kept hand, 48 per point of
        ``curve_hands``) is counted before anything is allocated: more than the machine's
        physical memory raises :class:`holdem.InvalidConfigError` naming the bytes. Ctrl-C
        (a signal handler that raises) stops every thread of the call within about 0.1 s
        and raises ``KeyboardInterrupt`` (or the handler's exception); no result is returned.
        """
        self._finish()
        hands = _integer("hands", hands)
        if not 1 <= hands <= _MAX_HANDS:
            raise InvalidConfigError(f"hands must be 1..2**53, got {shown(hands)}")
        step = max(1, hands // 10) if curve_every is None else _integer("curve_every", curve_every)
        if step < 1:
            raise InvalidConfigError(f"curve_every must be >= 1, got {shown(step)}")
        step = min(step, hands)  # (the same one point at the last hand: a C long)
        if not isinstance(keep_hands, bool):
            raise InvalidConfigError(f"keep_hands must be True or False, got {excerpt(keep_hands)}")
        # what the call holds, counted before anything is allocated (Python ints: exact):
        # the int64 results, curve_hands (a tuple of Python ints) and hand_payoffs
        n, p_ = self.num_tables, self.players
        points = -(-hands // step)
        curve_bytes = 8 * n * points * p_ + _MARK_BYTES * points
        kept_bytes = 8 * n * hands * p_ if keep_hands else 0
        size = 8 * n * (4 * p_ + 1) + curve_bytes + kept_bytes
        what = (f"play({hands:,} hands) on {n:,} tables: the curve of {points:,} points "
                f"({curve_bytes:,} bytes)"
                + (f" and keep_hands=True ({kept_bytes:,} bytes)" if keep_hands else ""))
        advice = ("play fewer hands per call, raise curve_every"
                  + (", or leave keep_hands False" if keep_hands else ""))
        _memory.check_fits(size, what, advice)
        if isinstance(policies, str | bytes) or not isinstance(policies, Sequence):
            raise InvalidConfigError("policies must be a sequence, one per seat")
        if len(policies) != self.players:
            raise InvalidConfigError(
                f"policies has {len(policies)} entries for {self.players} seats")
        codes = []
        for s, p in enumerate(policies):
            cp = _declared_policy(p)
            if not isinstance(cp, CompiledPolicy):
                raise InvalidConfigError(
                    f"seat {s}: {p!r} has no compiled policy (use a CompiledPolicy, or an "
                    "agent with a compiled_policy such as RandomAgent, CallAgent, EquityAgent)")
            problem = _policy_problem(cp)
            if problem is not None:
                raise InvalidConfigError(
                    f"seat {s}: {p!r} has no compiled policy the engine can run: {problem}")
            codes.append(cp.code)
        if streams is not None and (not isinstance(streams, Sequence)
                                    or len(streams) != self.players):
            raise InvalidConfigError(
                f"streams must be {self.players} ints in 0..2**32-1, got {excerpt(streams)}")
        ids = list(range(self.players)) if streams is None else [
            _integer("streams", x) for x in streams]
        if len(ids) != self.players or not all(0 <= x < 1 << 32 for x in ids):
            raise InvalidConfigError(
                f"streams must be {self.players} ints in 0..2**32-1, got {excerpt(streams)}")
        try:
            marks = tuple(range(step, hands + 1, step)) if hands % step == 0 else (
                *range(step, hands + 1, step), hands)
            out = [_alloc("q", (n, p_)) for _ in range(4)]
            rake = _alloc("q", (n,))
            curve = _alloc("q", (n, points, p_))
            per_hand = _alloc("q", (n, hands, p_)) if keep_hands else None
        except MemoryError:  # (another limit than the machine's: ulimit -v, a container)
            raise _memory.no_memory(size, what, advice) from None
        # stop: set by the slice whose thread runs a signal handler that raises (Ctrl-C): the
        # others stop at their next poll and that slice raises the handler's exception
        stop = _alloc("q", (1,))
        args = (hands, codes, ids, step, *out, rake, curve, per_hand, stop)
        bad: dict[int, int] = {}

        def play_slice(lo: int, hi: int, *a: Any) -> None:
            bad[lo] = self._batch.play(lo, hi, *a)

        try:
            self._slices(play_slice, args)
        except BaseException:
            # Ctrl-C while this thread waited for the other slices (its own was done): they
            # stop at their next poll instead of playing on unseen
            stop[0] = 1
            raise
        for b in bad.values():
            if b >= 0:  # pragma: no cover - a compiled policy answered illegally: a bug
                raise RuntimeError(f"table {b}: a compiled policy made an illegal decision")
            if b != -1:  # pragma: no cover - stopped, but the slice that raised did not
                raise RuntimeError("play() stopped without the exception that stopped it")
        return PlayResult(hands, out[0], out[1], out[2], out[3], rake, marks, curve, per_hand)

    # ------------------------------------------------------------------ messages
    def _legal_text(self, table: int) -> str:
        _, can_fold, can_check, call, can_raise, _, lo, hi = self._batch.legal(table)
        parts = (["fold"] if can_fold else []) + (["check"] if can_check else [f"call {call}"])
        if can_raise:
            parts.append(f"bet/raise to {lo}..{hi}" if lo != hi else f"bet/raise to {lo}")
        return "allowed: " + ", ".join(parts)

    def _column_error(self, table: int, col: int) -> str:
        names = self._layout.names
        if not 0 <= col < len(names):
            return (f"table {table}: action {col} is not a column of the layout "
                    f"(0..{len(names) - 1}: {', '.join(names)})")
        legal = [names[c] for c in range(len(names)) if self._mask[table, c]]
        dup = ""
        raw: list[int | None]
        kept: list[int | None]
        try:
            state = self.hand_state(table)
        except HoldemError:  # a hand of more actions than the log keeps: no amounts to show
            raw = kept = [None] * len(names)
        else:
            raw, kept = self._layout._raw_amounts(state), self._layout.amounts(state)
        if raw[col] is not None and kept[col] is None:  # legal, but another column has it
            k = kept.index(raw[col])
            dup = (f" (masked as a duplicate: it raises to {raw[col]}, as column {k} "
                   f"({names[k]}) does)")
        return (f"table {table}: action {col} ({names[col]}) is not legal for seat "
                f"{self._batch.legal(table)[0]}{dup}; legal columns: {', '.join(legal)} "
                f"({self._legal_text(table)})")



def _digest(tables: bytes, outputs: tuple[bytes, ...]) -> bytes:
    h = hashlib.blake2b(tables, digest_size=16)
    for part in outputs:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.digest()


def _unpickle(args: object, state: object) -> VectorGame:
    """A :class:`VectorGame` from :meth:`VectorGame.__reduce__`'s arguments and state: made
    anew from the arguments, then given the tables (each checked by the engine, see
    ``Batch.load_tables``) and the last step's outputs. Anything else raises
    :class:`holdem.InvalidStateError`."""
    def bad(reason: str) -> InvalidStateError:
        return InvalidStateError(f"not a valid pickled VectorGame: {reason}")

    if type(args) is not tuple or len(args) != 9:
        raise bad("its arguments are not the 9 a VectorGame pickles")
    if type(state) is not dict or not {"format", "started"} <= state.keys():
        raise bad("its state is not a dict with a format and a started flag")
    if type(state["format"]) is not tuple or state["format"] != _vector.Batch.table_format():
        raise bad(f"it was pickled with another table layout ({excerpt(state['format'])}; this "
                  f"build has {_vector.Batch.table_format()!r}): make a new VectorGame with "
                  f"the same arguments")
    game, num_tables, players, stacks, seed, session, layout, threads, final = args
    if not isinstance(game, Game):
        raise bad(f"game is not a Game: {excerpt(game)}")
    try:
        env = VectorGame(game, num_tables=num_tables, players=players, stacks=stacks,
                         seed=seed, session=session, actions=layout, num_threads=threads,
                         final_observation=final)
    except Exception as exc:  # (a pickled layout or game is not checked by its __init__)
        raise bad(f"its arguments are refused: {type(exc).__name__}: {exc}") from exc
    started = state["started"]
    if started is False:
        if state.keys() != {"format", "started"}:
            raise bad("a batch never reset has no tables to restore")
        return env
    if started is not True or state.keys() != {"format", "started", "tables", "outputs",
                                                 "digest"}:
        raise bad("its state does not have the fields of a batch in play")
    tables, outputs, digest = state["tables"], state["outputs"], state["digest"]
    kept = env._kept_outputs()
    if (type(tables) is not bytes or type(outputs) is not tuple or len(outputs) != len(kept)
            or not all(type(part) is bytes for part in outputs)):
        raise bad("its tables and outputs are not bytes")
    if type(digest) is not bytes or digest != _digest(tables, outputs):
        raise bad("its digest does not match its tables and outputs (it is corrupt)")
    views = [memoryview(buf).cast("B") for buf in kept]
    for part, view in zip(outputs, views, strict=True):
        if len(part) != view.nbytes:
            raise bad(f"an output of {len(part)} bytes where {view.nbytes} are expected")
    if outputs[2].strip(b"\x00\x01"):
        raise bad("its done flags are not 0 or 1")
    env._batch.load_tables(tables)  # checks every table; InvalidStateError, nothing changed
    for part, view in zip(outputs, views, strict=True):
        view[:] = part
    env._started = True
    return env
