"""Live dealing: a hand dealt off a physical deck, with the dealer's errors (R38-R42) as events.

A :class:`LiveHand` deals from a deck in physical order (a stacked deck you give, top card
first, or a seeded shuffle), one card at a time as a dealer would (R11-R14): two hole cards per
player clockwise from the first seat dealt to (R12), then burn and flop, burn and turn, burn and
river (R13, R14), each street as soon as the betting round before it is over. The betting is
exactly :class:`holdem.HandState`'s: the live hand drives a ``HandState`` built from the cards
actually dealt and replays the actions on it whenever a card changes.

Dealer errors are reported with :meth:`LiveHand.report` (events in :mod:`holdem.live_events`);
the engine applies the procedure of the rules (seed 001, "Errores del Repartidor"):

- R38 the first card of the deal exposed: misdeal; all cards collected, reshuffled, dealt again.
- R39 another card exposed during the deal: the deal goes on; the card is replaced by the top
  card of the deck and becomes the burn card (the flop then comes without another burn). A
  second exposed card in the same deal: misdeal.
- R40 a flop with too many cards, or turned before the preflop betting was over: the board
  cards are shuffled back into the deck, the burn card stays, the new flop is dealt without a
  burn (the cut of the deck is part of the shuffle).
- R41 the turn turned before the flop betting was over: the card is set aside; the betting
  finishes; the dealer burns and turns what would have been the river as the turn; after the
  turn betting the deck is reshuffled with the set-aside card (burns excluded) and the river is
  dealt without a burn. The river turned before the turn betting was over: the card is set
  aside, and after the betting the deck is reshuffled with it and the river dealt the same way.
- R42 one extra card dealt to the first player after everyone has two: it goes back and is
  used as the burn card. More than one: misdeal.

Choices where the rules are silent (said here so they can be checked):

- The exposed card of R39 and the extra card of R42 both say "used as the burn card". When
  both happen in one deal both go to the burns (in the order reported) and the flop is dealt
  without a further burn.
- A premature flop is turned after a burn, unless a burn for the flop is already on the table
  (R39, R42, or an earlier premature flop): the dealer burns once per street.
- R40 reshuffles as soon as the error is reported; R41 reshuffles when the river is dealt
  ("after that round"), so a hand that ends on the turn leaves the set-aside card set aside.
- A second premature turn (or river) in the same betting round is not covered by the rules
  and is refused (call the floor). Board errors cannot be reported in an all-in run-out (no
  betting is going on: the board is dealt at once, R20).

Every event is checked: one that cannot happen now raises :class:`holdem.InvalidEventError`
naming the event and what is possible now, and leaves the hand unchanged. After every event
and action each of the 52 cards is in exactly one place (:meth:`LiveHand.accounting`).

Shuffles are deterministic. By default shuffle ``k`` of the hand (``k = 0`` for the first
deck when no stacked deck is given, then 1, 2, ... for each reshuffle) is a
:class:`holdem.Deck` seeded with ``child_seed(seed, k)``, restricted to the cards being
shuffled. A table that knows the real order after a physical shuffle passes ``shuffle=``: a
function given the cards to shuffle (for a misdeal: the hole cards in deal order, then burns,
board and set-aside cards, then the deck top first; for R40: the deck top first, the returned
board cards in their old places; for R41: the deck top first, then the set-aside cards) that
returns them in their new order, top first.

>>> from holdem import Game, CARDS, parse_cards
>>> top = parse_cards("As Ks Ah Kh Qs Js Ts 9s 8s 7s")
>>> deck = [*top, *(c for c in CARDS if c not in top)]
>>> hand = LiveHand(Game(big_blind=2), [100, 100], button=0, deck=deck, seed=1)
>>> hand.hole_cards  # heads-up: seat 1 is dealt first (R12)
((Card('Ks'), Card('Kh')), (Card('As'), Card('Ah')))
>>> print(hand.report(CardExposed(2)))
R39: the exposed Ah (seat 1) is replaced by the top card Qs and becomes the burn card
>>> hand.call(); hand.check()
>>> hand.board, hand.burns  # no second burn before the flop
((Card('Js'), Card('Ts'), Card('9s')), (Card('Ah'),))
>>> hand.accounting().is_complete()
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from holdem._deck import Deck, child_seed
from holdem._seeding import resolve_seed
from holdem.actions import Action, ActionType
from holdem.cards import CARDS, Card, CardLike, format_cards, parse_cards
from holdem.errors import (
    DeckError,
    IllegalActionError,
    InvalidActionError,
    InvalidConfigError,
    InvalidEventError,
    InvalidHandError,
)
from holdem.game import DealStart, Game
from holdem.hand_types import HandResult, LegalActions, Street
from holdem.live_events import (
    CardAccount,
    CardExposed,
    DealerError,
    ExtraCards,
    OverdealtFlop,
    PrematureFlop,
    PrematureRiver,
    PrematureTurn,
    Ruling,
)
from holdem.state import HandState

__all__ = ["LiveHand", "ShuffleFunction"]

ShuffleFunction = Callable[[tuple[Card, ...]], Iterable[CardLike]]
"""Given the cards to shuffle (a tuple), return the same cards in their new order, top first."""


class _Table:
    """Where the physical cards are (mutable; :class:`LiveHand` works on copies, then commits)."""

    __slots__ = ("aside", "aside_street", "board", "burns", "dealing", "exposed", "extra",
                 "flop_burned", "hole", "misdeals", "river_reshuffle", "shuffles", "stub")

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

    def copy(self) -> _Table:
        new = object.__new__(_Table)
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
        return new

    def take(self) -> Card:
        if not self.stub:  # guarded by LiveHand._can_finish; reaching this is a bug
            raise RuntimeError("live dealing: the deck ran out")
        return self.stub.pop(0)


def _can_finish(stub: int, board: int, flop_burned: bool, reshuffle: bool, aside: int) -> bool:
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


def _to_action(action: Action | str | int) -> Action:
    if isinstance(action, str):
        return Action.parse(action)
    if isinstance(action, int) and not isinstance(action, bool):
        return Action.from_int(action)
    if isinstance(action, tuple) and len(action) == 2 and isinstance(action[0], ActionType):
        return Action(action[0], action[1])
    raise InvalidActionError(f"not an action: {action!r}")


class LiveHand:
    """One hand dealt live off a physical deck, with dealer errors reported as events.

    ``LiveHand(game, stacks, *, button=0, deck=None, seed=None, shuffle=None)``:

    - ``game``: a :class:`holdem.Game`; ``stacks``, ``button``: as :meth:`holdem.Game.new_hand`.
    - ``deck``: a stacked deck, all 52 cards top first (text or cards); ``None`` shuffles one
      with ``seed``.
    - ``seed``: seeds every shuffle of the hand (``None``: a fresh one, kept in :attr:`seed`).
    - ``shuffle``: a :data:`ShuffleFunction` for reshuffles instead of the seeded one.

    Act with :meth:`apply` (or :meth:`fold`, :meth:`check`, :meth:`call`, :meth:`bet`,
    :meth:`raise_to`, :meth:`all_in`...) exactly as on a :class:`holdem.HandState`; report
    dealer errors with :meth:`report`.
    """

    __slots__ = (
        "_actions",
        "_button",
        "_deck0",
        "_first",
        "_game",
        "_history",
        "_n",
        "_rulings",
        "_seed",
        "_shuffle",
        "_stacks",
        "_state",
        "_t",
    )

    def __init__(
        self,
        game: Game,
        stacks: Sequence[int],
        *,
        button: int = 0,
        deck: str | Iterable[CardLike] | None = None,
        seed: int | None = None,
        shuffle: ShuffleFunction | None = None,
    ) -> None:
        if not isinstance(game, Game):
            raise InvalidConfigError(f"game must be a holdem.Game, got {game!r}")
        if shuffle is not None and not callable(shuffle):
            raise InvalidConfigError(f"shuffle must be a function or None, got {shuffle!r}")
        # A throw-away hand validates stacks and button exactly as the state machine does.
        probe = game.new_hand(stacks, button=button, seed=0)
        self._game = game
        self._stacks = tuple(stacks)
        self._button = button
        self._n = n = len(self._stacks)
        bb_seat = probe.big_blind_seat
        self._first = ((bb_seat + 1) % n if game.deal_start is DealStart.LEFT_OF_BIG_BLIND
                       else (button + 1) % n)
        self._seed = resolve_seed(seed)
        self._shuffle = shuffle
        if deck is None:
            order = list(Deck(seed=child_seed(self._seed, 0)).deal(52))
        else:
            order = list(parse_cards(deck))
            if len(order) != 52:
                raise DeckError(
                    f"a stacked deck must hold all 52 cards, top first; got {len(order)}")
        self._deck0 = tuple(order) if deck is not None else None
        t = object.__new__(_Table)
        t.stub = order
        t.hole = [[] for _ in range(n)]
        t.burns, t.board, t.aside = [], [], []
        t.flop_burned = t.river_reshuffle = False
        t.aside_street = -1
        t.shuffles = t.exposed = t.extra = t.misdeals = 0
        t.dealing = True
        self._deal(t)
        self._actions: list[Action] = []
        self._history: list[Action | DealerError] = []
        self._rulings: list[Ruling] = []
        state = self._settle(t, [])
        if t.board:  # an all-in run-out from the blinds: the deal is over at once
            t.dealing = False
        self._t = t
        self._state = state
        self._check(t, state)

    # ------------------------------------------------------------------ queries
    @property
    def game(self) -> Game:
        return self._game

    @property
    def seed(self) -> int:
        """The seed of this hand's shuffles (the one drawn when ``seed=None`` was given)."""
        return self._seed

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def button(self) -> int:
        return self._button

    @property
    def first_seat_dealt(self) -> int:
        """The seat that gets deal positions ``0`` and ``n`` (R12)."""
        return self._first

    @property
    def state(self) -> HandState:
        """A copy of the betting state (changing it does not change this hand)."""
        return self._state.clone()

    @property
    def hole_cards(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(h) for h in self._t.hole)

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(self._t.board)

    @property
    def burns(self) -> tuple[Card, ...]:
        """Burn cards, in the order they were burned (R13, and R39/R42 burns)."""
        return tuple(self._t.burns)

    @property
    def set_aside(self) -> tuple[Card, ...]:
        """Cards out of play until the next reshuffle (R41)."""
        return tuple(self._t.aside)

    @property
    def cards_left(self) -> int:
        """How many cards are left in the deck."""
        return len(self._t.stub)

    @property
    def misdeals(self) -> int:
        """How many times this hand was misdealt and dealt again (R38, R39, R42)."""
        return self._t.misdeals

    def is_dealing(self) -> bool:
        """True while the deal is open (no action and no board error yet): the time for
        :class:`CardExposed` and :class:`ExtraCards`."""
        return self._t.dealing

    @property
    def street(self) -> Street:
        return self._state.street

    @property
    def actor(self) -> int | None:
        return self._state.actor

    def is_terminal(self) -> bool:
        return self._state.is_terminal()

    def legal_actions(self) -> LegalActions:
        return self._state.legal_actions()

    @property
    def stacks(self) -> tuple[int, ...]:
        return self._state.stacks

    @property
    def pot(self) -> int:
        return self._state.pot

    @property
    def result(self) -> HandResult:
        return self._state.result

    @property
    def payoffs(self) -> tuple[int, ...]:
        return self._state.payoffs

    @property
    def history(self) -> tuple[Action | DealerError, ...]:
        """Every action and reported dealer error, in order (what :meth:`replay` takes)."""
        return tuple(self._history)

    @property
    def rulings(self) -> tuple[Ruling, ...]:
        """What the engine did about each reported event, in order."""
        return tuple(self._rulings)

    def accounting(self) -> CardAccount:
        """Where every card is now: deck (top first), hole cards, burns, board, set aside."""
        return self._account(self._t)

    def possible_events(self) -> tuple[str, ...]:
        """The dealer errors that could be reported now, as text (empty when none)."""
        out: list[str] = []
        if self._state.is_terminal():
            return ()
        t = self._t
        if t.dealing:
            out.append(f"CardExposed(position=0..{2 * self._n - 1})")
            out.append("ExtraCards(count>=1)")
        street = self._state.street
        if street == Street.PREFLOP:
            most = len(t.stub) - (0 if t.flop_burned else 1)
            out.append(f"PrematureFlop(cards=3..{most})")
        elif street == Street.FLOP:
            if self._overdealt_block(None) is None:
                out.append(f"OverdealtFlop(cards=4..{3 + len(t.stub)})")
            if self._premature_block(1) is None:
                out.append("PrematureTurn()")
        elif street == Street.TURN and self._premature_block(2) is None:
            out.append("PrematureRiver()")
        return tuple(out)

    # ------------------------------------------------------------------ acting
    def apply(self, action: Action | str | int, *, seat: int | None = None) -> None:
        """Validate and apply a betting action (as :meth:`holdem.HandState.apply`); the next
        street is dealt off the deck when the round ends. A rejected action changes nothing."""
        act = _to_action(action)
        if self._state.is_terminal():
            raise IllegalActionError("the hand is over: no more actions")
        trial = self._state.clone()
        t = self._t.copy()
        t.dealing = False
        try:
            trial.apply(act, seat=seat)
        except InvalidHandError:
            # The action is legal and ends a round: the board needs more cards.
            trial = self._settle(t, [*self._actions, act])
        self._check(t, trial)
        self._t, self._state = t, trial
        self._actions.append(act)
        self._history.append(act)

    def fold(self, *, seat: int | None = None) -> None:
        self.apply(Action.fold(), seat=seat)

    def check(self, *, seat: int | None = None) -> None:
        self.apply(Action.check(), seat=seat)

    def call(self, *, seat: int | None = None) -> None:
        self.apply(Action.call(), seat=seat)

    def check_or_call(self, *, seat: int | None = None) -> None:
        self.apply(Action.check_or_call(), seat=seat)

    def bet(self, to: int, *, seat: int | None = None) -> None:
        self.apply(Action.bet(to), seat=seat)

    def raise_to(self, to: int, *, seat: int | None = None) -> None:
        self.apply(Action.raise_to(to), seat=seat)

    def bet_or_raise(self, to: int, *, seat: int | None = None) -> None:
        self.apply(Action.bet_or_raise(to), seat=seat)

    def all_in(self, *, seat: int | None = None) -> None:
        self.apply(Action.all_in(), seat=seat)

    def report(self, event: DealerError) -> Ruling:
        """Apply the rules' procedure for a dealer error; return (and record) the ruling.

        Raises :class:`holdem.InvalidEventError` when the event cannot happen now (the hand
        is then unchanged).
        """
        if not isinstance(event, DealerError) or type(event) is DealerError:
            raise InvalidEventError(f"not a dealer-error event: {event!r}")
        reason = self._block(event)
        if reason is not None:
            possible = ", ".join(self.possible_events()) or "none (no dealer error can happen now)"
            raise InvalidEventError(f"{event!r} cannot happen now: {reason}; possible now: "
                                    f"{possible}")
        t = self._t.copy()
        rule, text, rebuild = self._procedure(t, event)
        state = self._settle(t, self._actions) if rebuild else self._state
        self._check(t, state)
        ruling = Ruling(event, rule, text)
        self._t, self._state = t, state
        self._history.append(event)
        self._rulings.append(ruling)
        return ruling

    def replay(self, items: Iterable[Action | DealerError | str | int]) -> LiveHand:
        """Apply actions and report events in order; return ``self`` (for chaining)."""
        for item in items:
            if isinstance(item, DealerError):
                self.report(item)
            else:
                self.apply(item)
        return self

    def __repr__(self) -> str:
        if self._shuffle is not None:
            return (f"<LiveHand {self._n} seats, {self._state.street}, board "
                    f"{format_cards(self._t.board) or '-'}, custom shuffle>")
        deck = f"{format_cards(self._deck0, '')!r}" if self._deck0 is not None else "None"
        return (f"LiveHand({self._game!r}, {list(self._stacks)!r}, button={self._button}, "
                f"deck={deck}, seed={self._seed}).replay({list(self._history)!r})")

    # ------------------------------------------------------------------ validation
    def _block(self, event: DealerError) -> str | None:
        """Why ``event`` cannot happen now, or ``None`` when it can."""
        if self._state.is_terminal():
            return "the hand is over"
        t = self._t
        street = self._state.street
        if isinstance(event, CardExposed | ExtraCards):
            if not t.dealing:
                return "the deal is over (betting or the board has started)"
            if isinstance(event, CardExposed) and event.position >= 2 * self._n:
                return (f"the deal has positions 0..{2 * self._n - 1} "
                        f"({self._n} players, two cards each)")
            return None
        if isinstance(event, PrematureFlop):
            if street != Street.PREFLOP:
                return f"the flop is already out (the {street} betting is going on)"
            most = len(t.stub) - (0 if t.flop_burned else 1)
            if event.cards > most:
                return f"only {most} cards could be turned from the deck"
            return None
        if isinstance(event, OverdealtFlop):
            return self._overdealt_block(event)
        if isinstance(event, PrematureTurn):
            return self._premature_block(1)
        if isinstance(event, PrematureRiver):
            return self._premature_block(2)
        return f"unknown event type {type(event).__name__}"

    def _overdealt_block(self, event: OverdealtFlop | None) -> str | None:
        street = self._state.street
        if street != Street.FLOP:
            return f"the flop is not the street being played (it is the {street})"
        if any(r.street == Street.FLOP for r in self._state.history):
            return "the flop betting has started"
        if event is not None and event.cards - 3 > len(self._t.stub):
            return f"only {len(self._t.stub)} cards are left in the deck"
        return None

    def _premature_block(self, street: int) -> str | None:
        name = "turn" if street == 1 else "river"
        betting = "flop" if street == 1 else "turn"
        current = self._state.street
        if current != street:
            return f"a premature {name} happens during the {betting} betting (now: {current})"
        t = self._t
        if t.aside_street == street:
            return (f"a premature {name} was already set aside in this round (a second one is "
                    "not covered by the rules)")
        if not _can_finish(len(t.stub) - 2, len(t.board), t.flop_burned, True,
                           len(t.aside) + 1):
            return "the deck would not have enough cards left to finish the hand"
        return None

    # ------------------------------------------------------------------ procedures
    def _procedure(self, t: _Table, event: DealerError) -> tuple[str, str, bool]:
        """Apply the rules' procedure to ``t``; return (rule id, text, board/hole changed)."""
        if isinstance(event, CardExposed):
            t.exposed += 1
            if event.position == 0:
                return self._misdeal(t, "R38", "the first card of the deal was exposed")
            if t.exposed >= 2:
                return self._misdeal(t, "R39", "two cards were exposed during the deal")
            seat, k = self._seat_of(event.position)
            card = t.hole[seat][k]
            new = t.take()
            t.hole[seat][k] = new
            t.burns.append(card)
            t.flop_burned = True
            return ("R39", f"the exposed {card} (seat {seat}) is replaced by the top card {new} "
                    "and becomes the burn card", True)
        if isinstance(event, ExtraCards):
            t.extra += event.count
            if t.extra >= 2:
                return self._misdeal(t, "R42", f"{t.extra} extra cards were dealt")
            card = t.take()
            t.burns.append(card)
            t.flop_burned = True
            return "R42", f"the extra card {card} goes back and is used as the burn card", False
        if isinstance(event, PrematureFlop):
            t.dealing = False
            burn = ""
            if not t.flop_burned:
                b = t.take()
                t.burns.append(b)
                t.flop_burned = True
                burn = f" (after burning {b})"
            turned = t.stub[: event.cards]
            t.stub = self._reshuffle(t, t.stub)
            return ("R40", f"the premature flop {format_cards(turned)}{burn} is shuffled back "
                    "into the deck; the burn stays; the new flop comes without a burn", False)
        if isinstance(event, OverdealtFlop):
            extra = event.cards - 3
            turned = t.board + t.stub[:extra]
            t.stub = self._reshuffle(t, turned + t.stub[extra:])
            t.board = [t.take() for _ in range(3)]
            return ("R40", f"the flop of {event.cards} cards {format_cards(turned)} is shuffled "
                    f"back into the deck; the burn stays; new flop {format_cards(t.board)} "
                    "without a burn", True)
        if isinstance(event, PrematureTurn | PrematureRiver):
            street = 1 if isinstance(event, PrematureTurn) else 2
            b = t.take()
            c = t.take()
            t.burns.append(b)
            t.aside.append(c)
            t.aside_street = street
            t.river_reshuffle = True
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

    def _misdeal(self, t: _Table, rule: str, why: str) -> tuple[str, str, bool]:
        n = self._n
        dealt = [t.hole[(self._first + p % n) % n][p // n] for p in range(2 * n)]
        cards = dealt + t.burns + t.board + t.aside + t.stub
        t.stub = self._reshuffle(t, cards)
        t.hole = [[] for _ in range(n)]
        t.burns, t.board, t.aside = [], [], []
        t.flop_burned = t.river_reshuffle = False
        t.aside_street = -1
        t.exposed = t.extra = 0
        t.dealing = True
        t.misdeals += 1
        self._deal(t)
        return rule, f"misdeal ({why}): all 52 cards collected, reshuffled and dealt again", True

    # ------------------------------------------------------------------ dealing
    def _seat_of(self, position: int) -> tuple[int, int]:
        n = self._n
        return (self._first + position % n) % n, position // n

    def _deal(self, t: _Table) -> None:
        """R12: two hole cards each, one at a time clockwise from the first seat dealt to."""
        for p in range(2 * self._n):
            seat, _ = self._seat_of(p)
            t.hole[seat].append(t.take())

    def _deal_street(self, t: _Table) -> None:
        """Deal the next street off the deck with the burn due (R13, R14, R39-R42)."""
        nb = len(t.board)
        if nb == 0:
            if not t.flop_burned:
                t.burns.append(t.take())
            t.flop_burned = True
            t.board.extend(t.take() for _ in range(3))
        elif nb == 3:
            t.burns.append(t.take())
            t.board.append(t.take())
        elif nb == 4:
            if t.river_reshuffle:
                t.stub = self._reshuffle(t, t.stub + t.aside)
                t.aside = []
            else:
                t.burns.append(t.take())
            t.board.append(t.take())
        else:  # pragma: no cover - the state never asks for a sixth card
            raise RuntimeError("live dealing: the board is already complete")

    def _reshuffle(self, t: _Table, cards: list[Card]) -> list[Card]:
        t.shuffles += 1
        if self._shuffle is None:
            deck = Deck(seed=child_seed(self._seed, t.shuffles))
            keep = set(cards)
            deck.remove([c for c in CARDS if c not in keep])
            return list(deck.deal(len(cards)))
        given = tuple(cards)
        try:
            out = list(parse_cards(self._shuffle(given)))
        except TypeError:
            raise DeckError("the shuffle function must return an iterable of cards") from None
        if sorted(out) != sorted(given):
            raise DeckError(f"the shuffle function must return the {len(given)} cards it was "
                            f"given in a new order; got {format_cards(out)}")
        return out

    def _settle(self, t: _Table, actions: list[Action]) -> HandState:
        """A state from the cards on the table with ``actions`` replayed, dealing each street
        off the deck when the state needs it."""
        game = self._game
        while True:
            try:
                state = game.new_hand(self._stacks, button=self._button,
                                      hole_cards=[tuple(h) for h in t.hole],
                                      board=tuple(t.board))
                for a in actions:
                    state.apply(a)
            except InvalidHandError:
                if len(t.board) >= 5:
                    raise
                self._deal_street(t)
                continue
            return state

    def _account(self, t: _Table) -> CardAccount:
        return CardAccount(tuple(t.stub), tuple(tuple(h) for h in t.hole), tuple(t.burns),
                           tuple(t.board), tuple(t.aside))

    def _check(self, t: _Table, state: HandState) -> None:
        """Every card in exactly one place, and the state holds the cards on the table."""
        acc = self._account(t)
        if not acc.is_complete() or state.board != acc.board or state.hole_cards != acc.hole:
            raise RuntimeError(f"live dealing: card accounting broken ({acc})")

