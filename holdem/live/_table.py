"""The physical cards of a :class:`holdem.live.hand.LiveHand` and the rules' procedures on them.

Private: :class:`Table` is mutable; ``LiveHand`` validates an event, applies its procedure to a
copy of the table and commits the copy only when everything succeeded.
"""

from __future__ import annotations

from collections.abc import Callable

from holdem._shown import shown
from holdem.cards import Card, format_cards
from holdem.errors import InvalidEventError
from holdem.live import events

__all__ = ["Shuffler", "Table", "can_finish"]

Shuffler = Callable[[int, list[Card]], list[Card]]
"""``shuffler(k, cards)``: shuffle number ``k`` of the hand, returning ``cards`` top first."""


class Table:
    """Where the physical cards are (mutable; :class:`LiveHand` works on copies, then commits)."""

    __slots__ = ("aside", "aside_street", "board", "burns", "dealing", "exposed", "extra", "first",
                 "flop_burned", "hole", "misdeals", "n", "river_reshuffle", "shuffler", "shuffles",
                 "stub")

    stub: list[Card]
    hole: list[list[Card]]
    burns: list[Card]
    board: list[Card]
    aside: list[Card]
    flop_burned: bool
    river_reshuffle: bool
    aside_street: int
    shuffles: int
    exposed: int
    extra: int
    dealing: bool
    misdeals: int
    n: int
    first: int
    shuffler: Shuffler

    @classmethod
    def new(cls, order: list[Card], n: int, first: int, shuffler: Shuffler) -> Table:
        """A table with the deck ``order`` (top first) and the hole cards dealt (R12)."""
        t = object.__new__(cls)
        t.stub = order
        t.n, t.first, t.shuffler = n, first, shuffler
        t.hole = [[] for _ in range(n)]
        t.burns, t.board, t.aside = [], [], []
        t.flop_burned = t.river_reshuffle = False
        t.aside_street = -1
        t.shuffles = t.exposed = t.extra = t.misdeals = 0
        t.dealing = True
        t.deal_hole()
        return t

    def copy(self) -> Table:
        new = object.__new__(type(self))
        new.stub = self.stub[:]
        new.hole = [h[:] for h in self.hole]
        new.burns = self.burns[:]
        new.board = self.board[:]
        new.aside = self.aside[:]
        new.flop_burned = self.flop_burned
        new.river_reshuffle = self.river_reshuffle
        new.aside_street = self.aside_street
        new.shuffles = self.shuffles
        new.exposed = self.exposed
        new.extra = self.extra
        new.dealing = self.dealing
        new.misdeals = self.misdeals
        new.n, new.first, new.shuffler = self.n, self.first, self.shuffler
        return new

    def take(self) -> Card:
        if not self.stub:  # guarded by can_finish; reaching this is a bug
            raise RuntimeError("live dealing: the deck ran out")
        return self.stub.pop(0)

    def reshuffle(self, cards: list[Card]) -> list[Card]:
        """Shuffle ``cards`` (the next shuffle of the hand); return them top first."""
        self.shuffles += 1
        return self.shuffler(self.shuffles, cards)

    def account(self) -> events.CardAccount:
        return events.CardAccount(tuple(self.stub), tuple(tuple(h) for h in self.hole),
                           tuple(self.burns), tuple(self.board), tuple(self.aside))

    def procedure(self, event: events.DealerError) -> tuple[str, str, bool]:
        """Apply the rules' procedure for ``event``; return (rule id, text, board or hole cards
        changed)."""
        if isinstance(event, events.CardExposed):
            self.exposed += 1
            if event.position == 0:
                return self.misdeal("R38", "the first card of the deal was exposed")
            if self.exposed >= 2:
                return self.misdeal("R39", "two cards were exposed during the deal")
            seat, k = self.seat_of(event.position)
            card = self.hole[seat][k]
            new = self.take()
            self.hole[seat][k] = new
            self.burns.append(card)
            self.flop_burned = True
            return ("R39", f"the exposed {card} (seat {seat}) is replaced by the top card {new} "
                    "and becomes the burn card", True)
        if isinstance(event, events.ExtraCards):
            self.extra += event.count
            if self.extra >= 2:
                return self.misdeal("R42", f"{shown(self.extra)} extra cards were dealt")
            card = self.take()
            self.burns.append(card)
            self.flop_burned = True
            return "R42", f"the extra card {card} goes back and is used as the burn card", False
        if isinstance(event, events.PrematureFlop):
            self.dealing = False
            burn = ""
            if not self.flop_burned:
                b = self.take()
                self.burns.append(b)
                self.flop_burned = True
                burn = f" (after burning {b})"
            turned = self.stub[: event.cards]
            self.stub = self.reshuffle(self.stub)
            return ("R40", f"the premature flop {format_cards(turned)}{burn} is shuffled back "
                    "into the deck; the burn stays; the new flop comes without a burn", False)
        if isinstance(event, events.OverdealtFlop):
            extra = event.cards - 3
            turned = self.board + self.stub[:extra]
            self.stub = self.reshuffle(turned + self.stub[extra:])
            self.board = [self.take() for _ in range(3)]
            return ("R40", f"the flop of {event.cards} cards {format_cards(turned)} is shuffled "
                    f"back into the deck; the burn stays; new flop {format_cards(self.board)} "
                    "without a burn", True)
        if isinstance(event, events.PrematureTurn | events.PrematureRiver):
            street = 1 if isinstance(event, events.PrematureTurn) else 2
            b = self.take()
            c = self.take()
            self.burns.append(b)
            self.aside.append(c)
            self.aside_street = street
            self.river_reshuffle = True
            if street == 1:
                text = (f"the premature turn {c} is set aside (the burn {b} stays); after the "
                        "flop betting the dealer burns and turns the next card as the turn; the "
                        "river comes after a reshuffle with the set-aside card, without a burn")
            else:
                text = (f"the premature river {c} is set aside (the burn {b} stays); after the "
                        "turn betting the deck is reshuffled with it and the river comes "
                        "without a burn")
            return "R41", text, False
        raise InvalidEventError(f"unknown event type {type(event).__name__}")  # pragma: no cover

    def misdeal(self, rule: str, why: str) -> tuple[str, str, bool]:
        n = self.n
        dealt = [self.hole[(self.first + p % n) % n][p // n] for p in range(2 * n)]
        cards = dealt + self.burns + self.board + self.aside + self.stub
        self.stub = self.reshuffle(cards)
        self.hole = [[] for _ in range(n)]
        self.burns, self.board, self.aside = [], [], []
        self.flop_burned = self.river_reshuffle = False
        self.aside_street = -1
        self.exposed = self.extra = 0
        self.dealing = True
        self.misdeals += 1
        self.deal_hole()
        return rule, f"misdeal ({why}): all 52 cards collected, reshuffled and dealt again", True

    # ------------------------------------------------------------------ dealing
    def seat_of(self, position: int) -> tuple[int, int]:
        n = self.n
        return (self.first + position % n) % n, position // n

    def deal_hole(self) -> None:
        """R12: two hole cards each, one at a time clockwise from the first seat dealt to."""
        for p in range(2 * self.n):
            seat, _ = self.seat_of(p)
            self.hole[seat].append(self.take())

    def deal_street(self) -> None:
        """Deal the next street off the deck with the burn due (R13, R14, R39-R42)."""
        nb = len(self.board)
        if nb == 0:
            if not self.flop_burned:
                self.burns.append(self.take())
            self.flop_burned = True
            self.board.extend(self.take() for _ in range(3))
        elif nb == 3:
            self.burns.append(self.take())
            self.board.append(self.take())
        elif nb == 4:
            if self.river_reshuffle:
                self.stub = self.reshuffle(self.stub + self.aside)
                self.aside = []
            else:
                self.burns.append(self.take())
            self.board.append(self.take())
        else:  # pragma: no cover - the state never asks for a sixth card
            raise RuntimeError("live dealing: the board is already complete")


def can_finish(stub: int, board: int, flop_burned: bool, reshuffle: bool, aside: int) -> bool:
    """Whether ``stub`` cards (plus ``aside`` ones shuffled back for the river) can finish the
    board from ``board`` cards with the burns still due."""
    if board == 0:
        stub -= 3 if flop_burned else 4
    if board <= 3:
        stub -= 2
    if stub < 0:
        return False
    if board <= 4:
        stub -= 1 if reshuffle else 2
        if reshuffle:
            stub += aside
    return stub >= 0
