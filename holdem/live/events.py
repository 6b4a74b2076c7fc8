"""Dealer errors (RULES.md R38-R42) as small immutable events, and what the engine rules.

Report them to a :class:`holdem.live.hand.LiveHand` with :meth:`~holdem.live.hand.LiveHand.report`.
Each event is a frozen value whose ``repr`` pastes back:

>>> CardExposed(3)
CardExposed(position=3)
>>> PrematureFlop() == eval(repr(PrematureFlop()))
True

==================  =====  ==========================================================
event               rule   when it can be reported
==================  =====  ==========================================================
``CardExposed(p)``  R38    during the deal; ``p`` is the deal position (0 = the first
                    R39    card dealt). ``p == 0`` or a second exposure: misdeal.
``ExtraCards(k)``   R42    during the deal: ``k`` extra cards went to the first player
                           after everyone had two. One is the burn card; more: misdeal.
``PrematureFlop``   R40    while the preflop betting is going on.
``OverdealtFlop``   R40    the flop is out and nobody has acted on it yet.
``PrematureTurn``   R41    while the flop betting is going on (once per round).
``PrematureRiver``  R41    while the turn betting is going on (once per round).
==================  =====  ==========================================================
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from holdem._ints import int_or_none
from holdem._shown import excerpt, fields_repr, shown
from holdem.cards import Card, format_cards
from holdem.errors import InvalidEventError

__all__ = [
    "CardAccount",
    "CardExposed",
    "DealerError",
    "ExtraCards",
    "OverdealtFlop",
    "PrematureFlop",
    "PrematureRiver",
    "PrematureTurn",
    "Ruling",
]


def _count(owner: str, name: str, given: object, low: int) -> int:
    """``given`` as a plain int (numpy integers too), checked to be at least ``low``."""
    value = int_or_none(given)
    if value is None:
        raise InvalidEventError(f"{owner}: {name} must be an int, got {excerpt(given)}")
    if value < low:
        raise InvalidEventError(f"{owner}: {name} must be at least {low}, got {shown(value)}")
    return value


class DealerError:
    """Base class of the dealer-error events: immutable, compared and hashed by type and
    fields; ``rule`` is the RULES.md id the event falls under. (Plain ``__slots__`` classes
    rather than dataclasses: they cost nothing at ``import holdem``.)"""

    __slots__: tuple[str, ...] = ()
    rule: ClassVar[str] = ""

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DealerError):
            return NotImplemented
        return type(self) is type(other) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._values()))

    def __repr__(self) -> str:
        return fields_repr(self, self.__slots__)  # (ints of any size: hex past decimal's limit)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __reduce__(self) -> tuple[type[DealerError], tuple[object, ...]]:
        return type(self), self._values()


class CardExposed(DealerError):
    """R38/R39: the dealer exposed the card at deal ``position`` during the deal.

    Positions count the hole cards in the order they were dealt, from 0: with ``n`` players
    the first seat dealt to gets positions ``0`` and ``n``, the next one ``1`` and ``n + 1``...
    Position 0 (the first card of the deal) is a misdeal (R38); any other position is replaced
    after the deal by the top card and becomes the burn card (R39); a second exposed card in the
    same deal is a misdeal (R39).
    """

    __slots__ = ("position",)
    rule: ClassVar[str] = "R38/R39"
    position: int

    def __init__(self, position: int) -> None:
        object.__setattr__(self, "position", _count("CardExposed", "position", position, 0))


class ExtraCards(DealerError):
    """R42: ``count`` extra cards were dealt to the first player after everyone had two.

    One extra card goes back and is used as the burn card (the flop then comes without another
    burn); more than one in the same deal (in one report or several) is a misdeal.
    """

    __slots__ = ("count",)
    rule: ClassVar[str] = "R42"
    count: int

    def __init__(self, count: int = 1) -> None:
        object.__setattr__(self, "count", _count("ExtraCards", "count", count, 1))


class PrematureFlop(DealerError):
    """R40: the dealer burned and turned a flop of ``cards`` cards before the preflop betting
    was complete. The board cards are shuffled back into the deck, the burn stays, and once the
    betting is over a new flop is dealt without a burn."""

    __slots__ = ("cards",)
    rule: ClassVar[str] = "R40"
    cards: int

    def __init__(self, cards: int = 3) -> None:
        object.__setattr__(self, "cards", _count("PrematureFlop", "cards", cards, 3))


class OverdealtFlop(DealerError):
    """R40: the flop was turned with ``cards`` cards (more than three). All of them are
    shuffled back into the deck (the burn stays) and a new flop is dealt without a burn, even
    when it is known which card is the extra one (seed 001)."""

    __slots__ = ("cards",)
    rule: ClassVar[str] = "R40"
    cards: int

    def __init__(self, cards: int = 4) -> None:
        object.__setattr__(self, "cards", _count("OverdealtFlop", "cards", cards, 4))


class PrematureTurn(DealerError):
    """R41: the dealer burned and turned the turn before the flop betting was complete. The
    card is set aside for this round (even if the remaining players fold); the betting
    finishes; the dealer burns and turns what would have been the river as the turn; after the
    turn betting the set-aside card is shuffled back into the deck (burns excluded) and the
    river is dealt without a burn."""

    __slots__ = ()
    rule: ClassVar[str] = "R41"


class PrematureRiver(DealerError):
    """R41: the dealer burned and turned the river before the turn betting was complete. The
    card is set aside; after the betting the rest of the deck is reshuffled with it (burns
    excluded) and the river is dealt without a burn."""

    __slots__ = ()
    rule: ClassVar[str] = "R41"


class Ruling(NamedTuple):
    """What the engine did about one reported event: the rule applied and a short text."""

    event: DealerError
    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.text}"


class CardAccount(NamedTuple):
    """Where each of the 52 cards is (see :meth:`holdem.live.hand.LiveHand.accounting`).

    - ``deck``: the cards left in the deck, top first;
    - ``hole``: each seat's hole cards (folded hands included), indexed by seat;
    - ``burns``: burn cards, in the order they were burned;
    - ``board``: the community cards;
    - ``set_aside``: cards taken out of play for now (R41), until they are shuffled back.
    """

    deck: tuple[Card, ...]
    hole: tuple[tuple[Card, ...], ...]
    burns: tuple[Card, ...]
    board: tuple[Card, ...]
    set_aside: tuple[Card, ...]

    def cards(self) -> tuple[Card, ...]:
        """Every card in the account (deck, hole cards by seat, burns, board, set aside)."""
        out: list[Card] = list(self.deck)
        for h in self.hole:
            out.extend(h)
        out.extend(self.burns)
        out.extend(self.board)
        out.extend(self.set_aside)
        return tuple(out)

    def is_complete(self) -> bool:
        """True when the account holds each of the 52 cards exactly once."""
        cards = self.cards()
        return len(cards) == 52 and len(set(cards)) == 52

    def __str__(self) -> str:
        hole = " | ".join(format_cards(h, "") for h in self.hole)
        burns = format_cards(self.burns) or "-"
        board = format_cards(self.board) or "-"
        aside = format_cards(self.set_aside) or "-"
        return (f"deck {len(self.deck)} cards; hole {hole}; burns {burns}; board {board}; "
                f"set aside {aside}")
