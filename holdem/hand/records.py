"""Small value types returned by :class:`holdem.HandState` queries.

All are immutable (``NamedTuple`` or enums) and built only when asked for, so the state itself
stays plain ints and lists; the two dicts of a :class:`HandResult` (``shown``, ``ranks``) are
copied for each reader of ``HandState.result``, so changing them never changes the hand.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from holdem._enums import NamedRepr
from holdem.cards import Card
from holdem.evaluator import describe
from holdem.hand.actions import ActionType
from holdem.pots import Pot

__all__ = [
    "ActionRecord", "ExtraPost", "HandResult", "LegalActions", "Post", "SeatStatus", "Street",
]


class Street(NamedRepr, IntEnum):
    """The betting rounds (R15), then ``SHOWDOWN``; a finished hand reports where it ended."""

    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3
    SHOWDOWN = 4


    def __str__(self) -> str:
        return self.name.lower()


class SeatStatus(NamedRepr, IntEnum):
    """A seat's state in the hand: still able to act, folded, or all in (no chips behind)."""

    ACTIVE = 0
    FOLDED = 1
    ALL_IN = 2

    def __str__(self) -> str:
        """For people: ``active``, ``folded`` or ``all-in`` (``int()`` gives the value).

        >>> str(SeatStatus.ALL_IN), int(SeatStatus.ALL_IN)
        ('all-in', 2)
        """
        return "all-in" if self is SeatStatus.ALL_IN else self.name.lower()


class LegalActions(NamedTuple):
    """What the seat to act may do (all amounts in chips, street totals for ``*_to``).

    - ``can_fold``: facing a bet (or folding when a check is free is enabled, R17).
    - ``can_check``: nothing owed.
    - ``call``: chips needed to call, capped at the stack (0 when checking).
    - ``can_raise``: a bet or raise is allowed; ``is_bet`` says which (no bet yet on the street).
    - ``min_to`` / ``max_to``: the bet or raise-to range (``None`` when ``can_raise`` is False),
      capped at the seat's all-in total. A short all-in below the minimum shows as
      ``min_to == max_to == all-in``.
    """

    seat: int
    can_fold: bool
    can_check: bool
    call: int
    can_raise: bool
    is_bet: bool
    min_to: int | None
    max_to: int | None

    @property
    def can_call(self) -> bool:
        """True when facing a bet (a call, possibly all in for less, R18)."""
        return not self.can_check


class ActionRecord(NamedTuple):
    """One action of the history: who, on which street, what, and the chips involved.

    ``type`` is resolved (``CHECK`` or ``CALL``, ``BET`` or ``RAISE``; never the loose forms).
    ``to`` is the seat's street total after the action (blinds count, antes do not), ``amount``
    the chips the action added, ``all_in`` whether it put the seat all in. PHH: ``f`` for FOLD,
    ``cc`` for CHECK/CALL, ``cbr {to}`` for BET/RAISE.
    """

    seat: int
    street: Street
    type: ActionType
    to: int
    amount: int
    all_in: bool

    @property
    def phh(self) -> str:
        """The PHH action line, e.g. ``p3 cbr 300``, numbering the seats from 1: ``pN`` is seat
        N-1 of the hand, as ``HandState.apply`` reads it. A PHH file numbers its players from
        the seat left of the button (:func:`holdem.history.from_state` writes them so): the
        same numbers only when the button is the last seat (as in a hand replayed from a
        file)."""
        t = self.type
        if t == ActionType.FOLD:
            tok = "f"
        elif t in (ActionType.CHECK, ActionType.CALL):
            tok = "cc"
        else:
            tok = f"cbr {self.to}"
        return f"p{self.seat + 1} {tok}"


class Post(NamedTuple):
    """A forced bet posted at the start of the hand: ``kind`` is ``ante``, ``small_blind``,
    ``big_blind``, ``straddle`` or ``big_blind_ante``, or for an :class:`ExtraPost` its live
    part ``entry_big_blind`` and its dead part ``dead_small_blind``; ``amount`` may be short
    (R9)."""

    seat: int
    kind: str
    amount: int


class HandResult(NamedTuple):
    """The end of a hand.

    - ``payoffs``: net chips won (+) or lost (-) per seat.
    - ``final_stacks``: chips per seat after the hand.
    - ``pots``: :class:`holdem.Pot` values, main pot first (amount, eligible, winners, shares).
    - ``returned``: uncalled chips returned per seat over the whole hand (R21), those given
      back when a betting round closed included.
    - ``rake``: total rake (R34).
    - ``showdown_order``: seats in the order they showed or mucked (R33), empty without showdown.
    - ``shown``: seat -> the cards shown; ``mucked``: seats that mucked (gave up the pot).
    - ``ranks``: seat -> evaluator rank of each shown hand (higher is stronger).
    - ``descriptions`` (property): seat -> text description of each shown hand.
    """

    payoffs: tuple[int, ...]
    final_stacks: tuple[int, ...]
    pots: tuple[Pot, ...]
    returned: tuple[int, ...]
    rake: int
    showdown_order: tuple[int, ...]
    shown: dict[int, tuple[Card, ...]]
    mucked: tuple[int, ...]
    ranks: dict[int, int]

    @property
    def descriptions(self) -> dict[int, str]:
        """Seat -> text description of each shown hand (``holdem.describe``)."""
        return {seat: describe(rank) for seat, rank in self.ranks.items()}

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats that won chips from some pot, ascending."""
        return tuple(sorted({w for p in self.pots for w in p.winners}))

    def _own(self) -> HandResult:
        """A copy whose dicts are its own (a clone of a hand must not share them)."""
        return self._replace(shown=dict(self.shown), ranks=dict(self.ranks))


class ExtraPost(NamedTuple):
    """A post beyond the regular blinds, for ``Game.new_hand(extra_posts=...)``.

    ``seat`` posts ``live`` chips that count as its bet at the big blind level (an entry bet
    equal to the big blind, R36, or the big blind of a player who missed the blinds; like a
    blind it keeps the option to check or raise when nobody raised, R6) and ``dead`` chips that
    go straight into the main pot, are not part of its bet and are never returned as uncalled
    (the small blind of a player who missed both blinds, Robert's Rules of Poker: "button and
    blind use"). A short stack posts the live part first, all in for less (R9).

    >>> ExtraPost(4, live=2, dead=1)
    ExtraPost(seat=4, live=2, dead=1)
    """

    seat: int
    live: int
    dead: int = 0
