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

The state is plain data (ints, lists, tuples in ``__slots__``): :meth:`clone` copies a few lists
and states pickle.
"""

from __future__ import annotations

from typing import Any

from holdem._betting import HandCore
from holdem.actions import Action, ActionType
from holdem.cards import Card
from holdem.errors import IllegalActionError
from holdem.hand_types import ActionRecord, HandResult, Post, SeatStatus, Street

__all__ = ["HandState"]

_STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER, Street.SHOWDOWN)
_TYPES = tuple(ActionType)
_STATUS = (SeatStatus.ACTIVE, SeatStatus.FOLDED, SeatStatus.ALL_IN)
_BOARD_AT = (0, 3, 4, 5, 5)


class HandState(HandCore):
    """The state of one hand (see the module docstring). Seats are ``0..n-1`` clockwise."""

    __slots__ = ()

    # ------------------------------------------------------------------ queries
    @property
    def game(self) -> Any:
        """The :class:`holdem.Game` this hand is played under."""
        return self._game

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def button(self) -> int:
        return self._button

    @property
    def small_blind_seat(self) -> int:
        """R2/R3: left of the button, or the button itself heads-up."""
        return self._sb_seat

    @property
    def big_blind_seat(self) -> int:
        return self._bb_seat

    @property
    def actor(self) -> int | None:
        """The seat to act, or ``None`` when the hand is over."""
        return None if self._actor < 0 else self._actor

    @property
    def street(self) -> Street:
        """The current betting round; ``SHOWDOWN`` once a showdown happened."""
        return _STREETS[self._street]

    @property
    def board(self) -> tuple[Card, ...]:
        """The community cards dealt so far (R14)."""
        return self._board[: self._nboard]

    @property
    def burned(self) -> tuple[Card, ...]:
        """The burn cards used so far (R13); empty when the hand was started from given cards."""
        return self._burns[: (0, 0, 0, 1, 2, 3)[self._nboard]]

    @property
    def hole_cards(self) -> tuple[tuple[Card, ...] | None, ...]:
        """Each seat's two hole cards (``None`` for a hand given as unknown)."""
        return self._hole

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind, per seat (not counting chips already bet)."""
        return tuple(self._stacks)

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        """Chips per seat before the forced bets."""
        return self._start_stacks

    @property
    def bets(self) -> tuple[int, ...]:
        """Each seat's bet on the current street (blinds count, antes do not)."""
        return tuple(self._bets)

    @property
    def committed(self) -> tuple[int, ...]:
        """Chips each seat has put in this hand (antes and every street, uncalled bets removed)."""
        return tuple(self._committed)

    @property
    def pot(self) -> int:
        """All chips in the middle, current street bets included."""
        return sum(self._committed)

    @property
    def statuses(self) -> tuple[SeatStatus, ...]:
        return tuple(self.status(i) for i in range(self._n))

    def status(self, seat: int) -> SeatStatus:
        """ACTIVE, FOLDED or ALL_IN (no chips behind, still in the hand)."""
        if self._folded[seat]:
            return SeatStatus.FOLDED
        return SeatStatus.ALL_IN if self._stacks[seat] == 0 else SeatStatus.ACTIVE

    @property
    def posts(self) -> tuple[Post, ...]:
        """The forced bets posted at the start (antes, blinds, straddle), in posting order."""
        return self._posts

    @property
    def current_bet(self) -> int:
        """The street total a seat must match to call (preflop at least the full big blind, R9)."""
        return self._cur

    def is_terminal(self) -> bool:
        return self._over

    @property
    def history(self) -> tuple[ActionRecord, ...]:
        """Every action so far, in order (see :class:`holdem.hand_types.ActionRecord`)."""
        return tuple(
            ActionRecord(s, _STREETS[st], _TYPES[t], to, amt, ai)
            for s, st, t, to, amt, ai in self._hist
        )

    def history_by_street(self) -> dict[Street, tuple[ActionRecord, ...]]:
        out: dict[Street, list[ActionRecord]] = {}
        for rec in self.history:
            out.setdefault(rec.street, []).append(rec)
        return {k: tuple(v) for k, v in out.items()}

    @property
    def result(self) -> HandResult:
        """The outcome (payoffs, final stacks, pots, showdown); only when the hand is over."""
        if self._result is None:
            raise IllegalActionError("the hand is not over yet: no result")
        return self._result

    @property
    def payoffs(self) -> tuple[int, ...]:
        """Net chips per seat (final minus starting stack); only when the hand is over."""
        return self.result.payoffs

    def returns(self) -> list[float]:
        """OpenSpiel-style payoffs as floats (zeros until the hand is over)."""
        if self._result is None:
            return [0.0] * self._n
        return [float(p) for p in self._result.payoffs]

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in HandCore.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandState):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in _COMPARED)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        where = "over" if self._over else f"{self.street}, seat {self._actor} to act"
        return (f"<HandState {self._n} seats, button {self._button}, {where}, "
                f"pot {self.pot}, stacks {list(self._stacks)}>")


_COMPARED = tuple(s for s in HandCore.__slots__ if s not in ("_legal",))

# Re-exported so ``from holdem.state import Action`` works for callers of apply().
__all__ += ["Action"]
