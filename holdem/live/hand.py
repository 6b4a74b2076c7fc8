"""Live dealing: a hand dealt off a physical deck, with the dealer's errors (R38-R42) as events.

A :class:`LiveHand` deals from a deck in physical order (a stacked deck you give, top card
first, or a seeded shuffle), one card at a time as a dealer would (R11-R14): two hole cards per
player clockwise from the first seat dealt to (R12), then burn and flop, burn and turn, burn and
river (R13, R14), each street as soon as the betting round before it is over. The betting is
exactly :class:`holdem.HandState`'s: the live hand drives a ``HandState`` built from the cards
actually dealt and replays the actions on it whenever a card changes.

Dealer errors are reported with :meth:`LiveHand.report` (events in :mod:`holdem.live.events`);
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

- Each procedure is applied when its event is reported (the whole deal is out once the hand
  is created, so "after the deal" is then). The exposed card of R39 and the extra card of R42
  both are "used as the burn card": when both happen in one deal both go to the burns, in the
  order reported (the R39 replacement and the R42 extra card are each the top card at that
  moment), and the flop is dealt without a further burn.
- A premature flop is turned after a burn, unless a burn for the flop is already on the table
  (R39, R42, or an earlier premature flop): the dealer burns once per street.
- R40 reshuffles as soon as the error is reported; R41 reshuffles when the river is dealt
  ("after that round"), so a hand that ends on the turn leaves the set-aside card set aside.
- A second premature turn (or river) in the same betting round is not covered by the rules
  and is refused (call the floor); so is an overdealt flop reported after a premature turn on
  that flop (the premature burn and turn already came off the deck). Board errors cannot be
  reported in an all-in run-out (no betting is going on: the board is dealt at once, R20).

Every event is checked: one that cannot happen now raises :class:`holdem.InvalidEventError`
naming the event and what is possible now, and leaves the hand unchanged. After every event
and action each of the 52 cards is in exactly one place (:meth:`LiveHand.accounting`).

Shuffles are deterministic. By default shuffle ``k`` of the hand (``k = 0`` for the first
deck when no stacked deck is given, then 1, 2, ... for each reshuffle) is a
:class:`holdem.Deck` seeded with ``child_seed(seed, k)``, restricted to the cards being
shuffled. A table that knows the real order after a physical shuffle passes ``shuffle=``: a
function given the cards to shuffle that returns them in their new order, top first. It is
given, in this order: for a misdeal, the hole cards in deal order, the burns, then the deck top
first; for a premature flop, the deck top first (the turned cards still on top); for a flop
with too many cards, the turned cards in board order, then the deck top first; for R41, the
deck top first, then the set-aside cards.

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

import operator
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from holdem._deck import Deck, child_seed
from holdem._ints import int_or_none
from holdem._seeding import resolve_seed
from holdem._shown import excerpt, literal
from holdem.cards import CARDS, Card, CardLike, format_cards, parse_cards
from holdem.errors import (
    DeckError,
    HoldemError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidConfigError,
    InvalidEventError,
    InvalidHandError,
    InvalidStateError,
)
from holdem.hand.actions import Action, ActionType, ActionVerbs
from holdem.hand.game import DealStart, Game, HandState
from holdem.hand.records import HandResult, LegalActions, Street
from holdem.live._table import Table, can_finish
from holdem.live.events import (
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

__all__ = ["LiveHand", "ShuffleFunction"]

ShuffleFunction = Callable[[tuple[Card, ...]], Iterable[CardLike]]
"""Given the cards to shuffle (a tuple), return the same cards in their new order, top first."""


def _to_action(action: Action | str | int) -> Action:
    if isinstance(action, str):
        return Action.parse(action)
    code = int_or_none(action)  # numpy's integers too
    if code is not None:
        return Action.from_int(code)
    if isinstance(action, tuple) and len(action) == 2 and isinstance(action[0], ActionType):
        return Action(action[0], action[1])
    raise InvalidActionError(f"not an action: {excerpt(action)}")


def _read(path: str, doc: str | None = None) -> Any:
    """A read-only attribute of :class:`LiveHand`: the value at ``path`` of the hand
    (``"_state.pot"``: its betting state's pot), declared with its type in the class."""
    return property(operator.attrgetter(path), doc=doc)


class LiveHand(ActionVerbs):
    """One hand dealt live off a physical deck, with dealer errors reported as events.

    ``LiveHand(game, stacks, *, button=0, deck=None, seed=None, shuffle=None)``:

    - ``game``: a :class:`holdem.Game`; ``stacks``, ``button``: as :meth:`holdem.Game.new_hand`.
    - ``deck``: a stacked deck, all 52 cards top first (text or cards); ``None`` shuffles one
      with ``seed``.
    - ``seed``: seeds every shuffle of the hand (``None``: a fresh one, kept in :attr:`seed`).
    - ``shuffle``: a :data:`ShuffleFunction` for reshuffles instead of the seeded one.

    Act with :meth:`apply` (or :meth:`fold`, :meth:`check`, :meth:`call`, :meth:`bet`,
    :meth:`raise_to`, :meth:`all_in`...) exactly as on a :class:`holdem.HandState`; report
    dealer errors with :meth:`report` (:meth:`possible_events` says which could happen now).
    Queries: :attr:`hole_cards`, :attr:`board`, :attr:`burns`, :attr:`set_aside`,
    :meth:`accounting` (all 52 cards), :attr:`history` (actions and events), :attr:`rulings`,
    :attr:`state` (a copy of the betting state), :attr:`result`. :meth:`clone` copies the hand;
    :meth:`replay` applies a recorded history.
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
            raise InvalidConfigError(f"game must be a holdem.Game, got {excerpt(game)}")
        if shuffle is not None and not callable(shuffle):
            raise InvalidConfigError(f"shuffle must be a function or None, got {excerpt(shuffle)}")
        # A throw-away hand validates stacks and button exactly as the state machine does.
        probe = game.new_hand(stacks, button=button, seed=0)
        self._game = game
        # the checked values (stacks may be any iterable, read once by the probe)
        self._stacks = probe.starting_stacks
        self._button = probe.button
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
        t = Table.new(order, n, self._first, self._reshuffle)
        self._actions: list[Action] = []
        self._history: list[Action | DealerError] = []
        self._rulings: list[Ruling] = []
        state = self._settle(t, [])
        if t.board:  # an all-in run-out from the blinds: the deal is over at once
            t.dealing = False
        self._t = t
        self._state = state
        self._check(t, state)

    if not TYPE_CHECKING:  # (type checkers would take every attribute name as valid)

        def __getattr__(self, name: str) -> Any:
            # Reached only when a lookup failed: on a hand made by LiveHand.__new__ (never
            # dealt) every slot is unset, and each query, action, copy and pickle reads one.
            if name in LiveHand.__slots__:
                raise InvalidStateError(
                    f"this {type(self).__name__} was never dealt (it holds no hand): make one "
                    f"with LiveHand(game, stacks, ...) or by unpickling a dealt hand")
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # ------------------------------------------------------------------ queries
    game: Game = _read("_game")
    seed: int = _read(
        "_seed", "The seed of this hand's shuffles (the one drawn when ``seed=None`` was given).")
    num_players: int = _read("_n")
    button: int = _read("_button")
    first_seat_dealt: int = _read("_first", "The seat that gets deal positions ``0`` and ``n`` (R12).")
    misdeals: int = _read(
        "_t.misdeals", "How many times this hand was misdealt and dealt again (R38, R39, R42).")
    # the betting state's, as on a HandState
    street: Street = _read("_state.street")
    actor: int | None = _read("_state.actor")
    stacks: tuple[int, ...] = _read("_state.stacks")
    pot: int = _read("_state.pot")
    result: HandResult = _read("_state.result")
    payoffs: tuple[int, ...] = _read("_state.payoffs")

    @property
    def state(self) -> HandState:
        """A copy of the betting state (changing it does not change this hand)."""
        return self._state.clone()

    @property
    def hole_cards(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's hole cards dealt so far, by seat."""
        return tuple(tuple(h) for h in self._t.hole)

    @property
    def board(self) -> tuple[Card, ...]:
        """The board cards dealt so far."""
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

    def is_dealing(self) -> bool:
        """True while the deal is open (no action and no board error yet): the time for
        :class:`CardExposed` and :class:`ExtraCards`."""
        return self._t.dealing

    def is_terminal(self) -> bool:
        """Whether the hand is over."""
        return self._state.is_terminal()

    def legal_actions(self) -> LegalActions:
        """What the seat to act may do (as :meth:`holdem.HandState.legal_actions`)."""
        return self._state.legal_actions()

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
        return self._t.account()

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
        street is dealt off the deck when the round ends. A rejected action changes nothing.

        The state validates the action as given: a PHH player token (``p3 cc``) must name the
        seat to act (else :class:`holdem.OutOfTurnError`), and an int is an action code."""
        act = _to_action(action)
        if self._state.is_terminal():
            raise IllegalActionError("the hand is over: no more actions")
        # Applied in place, not on a clone: a rejected action (and the InvalidHandError of a
        # round that needs cards) leaves the state unchanged, and a clone per action copied
        # the whole history each time (quadratic in the hand's length).
        trial = self._state
        try:
            trial.apply(action, seat=seat)
            self._t.dealing = False  # no card moved: the table stays as it is (consistent)
        except InvalidHandError:
            # The action is legal and ends a round: the board needs more cards.
            t = self._t.copy()
            t.dealing = False
            trial = self._settle(t, [*self._actions, act])
            self._check(t, trial)
            self._t = t
        except BaseException as exc:
            if not isinstance(exc, HoldemError):  # (refused: nothing changed)
                self._stopped(act)
            raise
        # recorded with no call in between (a Ctrl-C lands only at a call's return): an
        # action in the state is an action in the records
        self._state = trial
        self._actions += [act]
        self._history += [act]

    def _stopped(self, act: Action) -> None:
        """After an exception (Ctrl-C) raised around the in-place apply of ``act``: the state
        may have taken it as the exception came (the records had not): record it then, so
        that the state and the records (which a pickle, a clone's replay and every later
        street are built from) stay the same hand. A state voided mid-way is built again
        from the records."""
        try:
            taken = len(self._state.history) > len(self._actions)
        except HoldemError:  # voided by the interrupt (see HandState.apply): as before it
            self._state = self._settle(self._t.copy(), self._actions)
            return
        if taken:
            self._t.dealing = False
            self._actions += [act]
            self._history += [act]

    def report(self, event: DealerError) -> Ruling:
        """Apply the rules' procedure for a dealer error; return (and record) the ruling.

        Raises :class:`holdem.InvalidEventError` when the event cannot happen now (the hand
        is then unchanged).
        """
        if not isinstance(event, DealerError) or type(event) is DealerError:
            raise InvalidEventError(f"not a dealer-error event: {excerpt(event)}")
        reason = self._block(event)
        if reason is not None:
            possible = ", ".join(self.possible_events()) or "none (no dealer error can happen now)"
            raise InvalidEventError(f"{event!r} cannot happen now: {reason}; possible now: "
                                    f"{possible}")
        t = self._t.copy()
        rule, text, rebuild = t.procedure(event)
        state = self._settle(t, self._actions) if rebuild else self._state
        self._check(t, state)
        ruling = Ruling(event, rule, text)
        self._t, self._state = t, state
        self._history += [event]  # (no call between the three: see apply)
        self._rulings += [ruling]
        return ruling

    def clone(self) -> LiveHand:
        """An independent copy (the table, the betting state and the records are copied)."""
        new = object.__new__(LiveHand)
        for name in LiveHand.__slots__:
            object.__setattr__(new, name, getattr(self, name))
        new._t = self._t.copy()
        new._state = self._state.clone()
        new._actions = self._actions[:]
        new._history = self._history[:]
        new._rulings = self._rulings[:]
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the hand's inputs and history; unpickling deals and replays it through
        the checked API, so a corrupt pickle raises :class:`holdem.InvalidStateError` and
        never yields a hand the rules could not produce. (With a custom ``shuffle`` the
        function is pickled too and called again: it must be deterministic.)"""
        return (_restore_live, (self._game, self._stacks, self._button, self._deck0,
                                self._seed, self._shuffle, tuple(self._history)))

    def replay(self, items: Iterable[Action | DealerError | str | int]) -> LiveHand:
        """Apply actions and report events in order; return ``self`` (for chaining).

        All or nothing: an item that is refused raises its error, its message starting with
        the item's index, and the hand is left as it was before the call. ``items`` is an
        iterable of items, not one text or bytes (:class:`holdem.InvalidActionError`)."""
        if (isinstance(items, str | bytes | bytearray | memoryview)
                or not hasattr(items, "__iter__")):
            raise InvalidActionError(f"replay takes an iterable of actions and events (a list), "
                                     f"not {type(items).__name__} {excerpt(items)}")
        trial = self.clone()
        for k, item in enumerate(items):
            try:
                if isinstance(item, DealerError):
                    trial.report(item)
                else:
                    trial.apply(item)
            except HoldemError as exc:
                exc.args = (f"replay item {k} ({excerpt(item)}): {exc}", *exc.args[1:])
                raise
        for name in LiveHand.__slots__:
            object.__setattr__(self, name, getattr(trial, name))
        return self

    def __repr__(self) -> str:
        if self._shuffle is not None:
            return (f"<LiveHand {self._n} seats, {self._state.street}, board "
                    f"{format_cards(self._t.board) or '-'}, custom shuffle>")
        deck = f"{format_cards(self._deck0, '')!r}" if self._deck0 is not None else "None"
        return (f"LiveHand({self._game!r}, {list(self._stacks)!r}, button={self._button}, "
                f"deck={deck}, seed={literal(self._seed)}).replay({list(self._history)!r})")

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
        if self._t.aside_street == 1:
            # The premature turn's burn and card came off the deck after the flop: the cards
            # of an overdealt flop are no longer on top, and R40 does not say what becomes of
            # the set-aside turn. As for a second premature turn: call the floor.
            return ("a premature turn was already set aside on this flop (an overdealt flop "
                    "after it is not covered by the rules)")
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
        if not can_finish(len(t.stub) - 2, len(t.board), t.flop_burned, True,
                           len(t.aside) + 1):
            return "the deck would not have enough cards left to finish the hand"
        return None

    def _settle(self, t: Table, actions: list[Action]) -> HandState:
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
                t.deal_street()
                continue
            return state

    def _reshuffle(self, k: int, cards: list[Card]) -> list[Card]:
        """Shuffle number ``k`` of the hand: the seeded deck, or the caller's function."""
        if self._shuffle is None:
            deck = Deck(seed=child_seed(self._seed, k))
            keep = set(cards)
            deck.remove([c for c in CARDS if c not in keep])
            return list(deck.deal(len(cards)))
        given = tuple(cards)
        try:
            out = list(parse_cards(self._shuffle(given)))
        except TypeError:
            raise DeckError("the shuffle function must return an iterable of cards") from None
        except InvalidCardError as exc:  # not cards, or a card twice: say whose fault it is
            raise DeckError(f"the shuffle function must return the {len(given)} cards it was "
                            f"given in a new order; what it returned is not: {exc}") from exc
        if sorted(out) != sorted(given):
            raise DeckError(f"the shuffle function must return the {len(given)} cards it was "
                            f"given in a new order; got {format_cards(out)}")
        return out

    def _check(self, t: Table, state: HandState) -> None:
        """Every card in exactly one place, and the state holds the cards on the table."""
        acc = t.account()
        if not acc.is_complete() or state.board != acc.board or state.hole_cards != acc.hole:
            raise RuntimeError(f"live dealing: card accounting broken ({acc})")



def _restore_live(game: object, stacks: object, button: object, deck: object, seed: object,
                  shuffle: object, history: object) -> LiveHand:
    """Unpickle a :class:`LiveHand`: deal it again from its inputs and replay its history."""
    try:
        if not isinstance(history, tuple):
            raise InvalidStateError(f"history must be a tuple, got {type(history).__name__}")
        for item in history:
            if not isinstance(item, Action | DealerError):
                raise InvalidStateError(f"history holds {excerpt(item)}, not an action or event")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidStateError(f"seed must be an int, got {excerpt(seed)}")
        hand = LiveHand(game, stacks, button=button, deck=deck,  # type: ignore[arg-type]
                        seed=seed, shuffle=shuffle)  # type: ignore[arg-type]
        return hand.replay(history)
    except InvalidStateError as exc:
        raise InvalidStateError(f"not a valid pickled LiveHand: {exc}") from None
    except (HoldemError, TypeError, IndexError, KeyError, AttributeError) as exc:
        raise InvalidStateError(
            f"not a valid pickled LiveHand: {type(exc).__name__}: {exc}") from None
