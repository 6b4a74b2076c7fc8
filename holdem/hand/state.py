"""One hand of Texas Hold'em as a state machine: forced bets, betting rounds, showdown.

Build a :class:`HandState` with :meth:`holdem.Game.new_hand`. Query it freely (queries never
change it), act with :meth:`~HandState.fold`, :meth:`~HandState.check`, :meth:`~HandState.call`,
:meth:`~HandState.bet`, :meth:`~HandState.raise_to`, :meth:`~HandState.all_in` or the generic
:meth:`~HandState.apply`. Every action is validated; a rejected one raises
:class:`holdem.errors.IllegalActionError` (:class:`~holdem.errors.OutOfTurnError` for the wrong
seat) and leaves the state exactly as it was. Trusted callers (simulations) may use
:meth:`~HandState.apply_unchecked`.

>>> from holdem import Game
>>> state = Game(big_blind=2).new_hand([100, 100], button=0, hole_cards=["AsAh", "KdKc"],
...                                    board="2c7d9hJsQs")
>>> state.actor, state.legal_actions().min_to  # R3: heads-up the button posts SB, acts first
(0, 4)
>>> state.raise_to(6); state.call()
>>> str(state.street), state.pot
('flop', 12)
>>> state.check(); state.bet(10); state.fold()
>>> state.is_terminal(), state.payoffs
(True, (6, -6))

The state is plain data: the compiled core (``holdem.hand._compiled``) keeps it in one C
struct (csrc/hd_hand.h), the pure-Python reference core (``holdem.hand._reference``, chosen with
``HOLDEM_PURE_PYTHON=1``) in ``__slots__`` lists; :mod:`holdem.hand._core` chooses.
:meth:`clone` copies a few arrays and states pickle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from holdem.errors import IllegalActionError, InvalidConfigError
from holdem.hand import _reference
from holdem.hand._core import COMPILED, HandCore
from holdem.hand.actions import Action, ActionType, ActionVerbs
from holdem.hand.records import ActionRecord, HandResult, SeatStatus, Street

__all__ = ["COMPILED", "MAX_ACTION_CODES", "Action", "HandState", "ReferenceHandState"]

#: The most bet/raise sizes :meth:`HandState.legal_action_codes` lists (one code per chip).
MAX_ACTION_CODES = 1 << 20

if TYPE_CHECKING:
    _QueryBase = HandCore
else:
    _QueryBase = object

_STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER, Street.SHOWDOWN)
_TYPES = tuple(ActionType)
_STATUS = (SeatStatus.ACTIVE, SeatStatus.FOLDED, SeatStatus.ALL_IN)


class _HandQueries(ActionVerbs, _QueryBase):
    """The part of the API built on the core's plain queries (enums, records, result)."""

    __slots__ = ()

    @property
    def street(self) -> Street:
        """The current betting round; ``SHOWDOWN`` once a showdown happened."""
        return _STREETS[self.street_index]

    def status(self, seat: int) -> SeatStatus:
        """ACTIVE, FOLDED or ALL_IN (no chips behind, still in the hand)."""
        return _STATUS[self.status_code(seat)]

    @property
    def statuses(self) -> tuple[SeatStatus, ...]:
        return tuple(_STATUS[self.status_code(i)] for i in range(self.num_players))

    @property
    def history(self) -> tuple[ActionRecord, ...]:
        """Every action so far, in order (see :class:`holdem.ActionRecord`)."""
        return tuple(
            ActionRecord(s, _STREETS[st], _TYPES[t], to, amt, ai)
            for s, st, t, to, amt, ai in self.raw_history()
        )

    def history_by_street(self) -> dict[Street, tuple[ActionRecord, ...]]:
        """The history grouped by street (streets without actions are absent)."""
        out: dict[Street, list[ActionRecord]] = {}
        for rec in self.history:
            out.setdefault(rec.street, []).append(rec)
        return {k: tuple(v) for k, v in out.items()}

    @property
    def result(self) -> HandResult:
        """The outcome (payoffs, final stacks, pots, showdown); only when the hand is over."""
        res = self.result_or_none()
        if res is None:
            raise IllegalActionError("the hand is not over yet: no result")
        return res

    @property
    def payoffs(self) -> tuple[int, ...]:
        """Net chips per seat (final minus starting stack); only when the hand is over."""
        res = self.result_or_none()
        if res is None:
            raise IllegalActionError("the hand is not over yet: no payoffs")
        return res.payoffs

    def current_player(self) -> int:
        """OpenSpiel style: the seat to act, or -4 (``pyspiel.PlayerId.TERMINAL``) at the end."""
        actor = self.actor
        return -4 if actor is None else actor

    def legal_action_codes(self) -> list[int]:
        """OpenSpiel-style int actions of the seat to act (see :meth:`holdem.Action.from_int`):
        ``0`` fold (when offered), ``1`` check/call, ``k`` bet/raise to ``k - 1`` for every
        legal size, ascending. Empty at the end of the hand. The list holds one code per chip
        of the raise range, so it is refused (:class:`InvalidConfigError`) beyond
        ``MAX_ACTION_CODES`` sizes: deep stacks want :meth:`legal_actions` (the range) or a
        discrete layout (:class:`holdem.vector.ActionLayout`)."""
        if self.is_terminal():
            return []
        la = self.legal_actions()
        codes = [0] if la.can_fold else []
        codes.append(1)
        if la.can_raise:
            assert la.min_to is not None and la.max_to is not None
            sizes = la.max_to - la.min_to + 1
            if sizes > MAX_ACTION_CODES:
                raise InvalidConfigError(
                    f"legal_action_codes would list {sizes:,} bet/raise sizes (to {la.min_to:,} "
                    f"..{la.max_to:,}); at most {MAX_ACTION_CODES:,} are listed: use "
                    f"legal_actions() for the range of sizes, or smaller stacks")
            codes.extend(range(la.min_to + 1, la.max_to + 2))
        return codes

    def returns(self) -> list[float]:
        """OpenSpiel-style payoffs as floats (zeros until the hand is over)."""
        res = self.result_or_none()
        if res is None:
            return [0.0] * self.num_players
        return [float(p) for p in res.payoffs]

    def __repr__(self) -> str:
        where = ("over" if self.is_terminal()
                 else f"{_STREETS[self.street_index]}, seat {self.actor} to act")
        return (f"<HandState {self.num_players} seats, button {self.button}, {where}, "
                f"pot {self.pot}, stacks {list(self.stacks)}>")


class HandState(_HandQueries, HandCore):
    """The state of one hand (see the module docstring). Seats are ``0..n-1`` clockwise.

    Start one with :meth:`holdem.Game.new_hand`. Queries: ``actor``, ``street``, ``board``,
    ``burned``, ``hole_cards``, ``stacks``, ``starting_stacks``, ``bets``, ``committed``,
    ``pot``, ``current_bet``, ``status(seat)``, ``statuses``, ``posts``, ``legal_actions()``,
    ``actions()``, ``is_legal(action)``, ``history``, ``is_terminal()``, ``result``,
    ``payoffs``. Actions: ``fold``, ``check``, ``call``, ``check_or_call``, ``bet``,
    ``raise_to``, ``bet_or_raise``, ``all_in``, ``apply``; ``apply_unchecked`` for trusted
    loops; ``clone()``.
    """

    __slots__ = ()


class ReferenceHandState(_HandQueries, _reference.HandCore):
    """The same API over the pure-Python reference core (for differential tests)."""

    __slots__ = ()

