"""A game and its hands: :class:`Game`, the frozen keyword-only config, and :class:`HandState`,
the state machine of one hand it deals (forced bets, betting rounds, showdown).

>>> game = Game(structure=Structure.NO_LIMIT, big_blind=2)
>>> game.small_blind  # R5: half the big blind, rounded down
1
>>> state = game.new_hand([200, 200, 200], button=0, seed=7)
>>> state.actor  # R16: left of the big blind (seat 0 is the button, 1 SB, 2 BB)
0

Everything in a Game is validated on creation; an impossible value raises
:class:`InvalidConfigError` naming the field and what is allowed.

Query a hand freely (queries never change it), act with :meth:`~HandState.fold`,
:meth:`~HandState.check`, :meth:`~HandState.call`, :meth:`~HandState.bet`,
:meth:`~HandState.raise_to`, :meth:`~HandState.all_in` or the generic :meth:`~HandState.apply`.
Every action is validated; a rejected one raises :class:`holdem.errors.IllegalActionError`
(:class:`~holdem.errors.OutOfTurnError` for the wrong seat) and leaves the state exactly as it
was. Trusted callers (simulations) may use :meth:`~HandState.apply_unchecked`.

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

A hand's state is plain data: the compiled core (``holdem.hand._compiled``) keeps it in one C
struct (csrc/hd_hand.h), the pure-Python reference core (``holdem.hand._reference``, chosen with
``HOLDEM_PURE_PYTHON=1``) in ``__slots__`` lists; :mod:`holdem.hand._core` chooses.
:meth:`HandState.clone` copies a few arrays and states pickle. The cores sit below this module
and never import it: they read a game through :class:`holdem.hand._plan.GameLike`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import TYPE_CHECKING, Any

from holdem._enums import NamedRepr
from holdem._ints import int_or_none
from holdem._pickling import frozen_slots, setstate_through_init
from holdem._shown import shown
from holdem.errors import IllegalActionError, InvalidConfigError, InvalidStateError
from holdem.hand import _reference
from holdem.hand._core import COMPILED, HandCore
from holdem.hand._plan import STRUCTURE_CODES, UNBOUNDED_CAP, Plan, set_game_class
from holdem.hand._settle import dead_seats
from holdem.hand.actions import MAX_CHIPS, Action, ActionType, ActionVerbs
from holdem.hand.records import ActionRecord, ExtraPost, HandResult, SeatStatus, Street
from holdem.pots import Rake

if TYPE_CHECKING:
    from holdem.cards import CardLike

__all__ = ["COMPILED", "MAX_ACTION_CODES", "Action", "AnteType", "DealStart", "Game",
           "HandState", "Mode", "ReferenceHandState", "Structure"]


class Structure(NamedRepr, Enum):
    """Betting structure: no-limit (R22-R24), pot-limit (R25), fixed-limit (R26-R28)."""

    NO_LIMIT = "NL"
    POT_LIMIT = "PL"
    FIXED_LIMIT = "FL"


class AnteType(NamedRepr, Enum):
    """R7: ``UNIFORM`` (every player posts ``ante``) or ``BIG_BLIND`` (the big blind posts it)."""

    UNIFORM = "uniform"
    BIG_BLIND = "big_blind"


class Mode(NamedRepr, Enum):
    """Cash game or tournament (R8: no straddle in tournaments; R10 schedules live on the table)."""

    CASH = "cash"
    TOURNAMENT = "tournament"


class DealStart(NamedRepr, Enum):
    """R12: the first seat dealt to: left of the button (standard) or left of the big blind."""

    LEFT_OF_BUTTON = "button"
    LEFT_OF_BIG_BLIND = "big_blind"


def _int(game: Game, name: str, low: int, unit: str = "chips") -> int:
    """Field ``name`` of ``game``: an int of any integer type (numpy's too, never a bool) from
    ``low`` to 2**53, kept as a plain int; else InvalidConfigError (``unit``: what it counts)."""
    value = getattr(game, name)
    chips = int_or_none(value)
    if chips is None:
        raise InvalidConfigError(f"{name} must be an int number of {unit}, got {shown(value)}")
    if chips < low:
        raise InvalidConfigError(f"{name} must be at least {low}, got {shown(value)}")
    if chips > MAX_CHIPS:
        raise InvalidConfigError(
            f"{name} is {shown(value)}, above the engine's limit of 2**53 ({MAX_CHIPS}) {unit}")
    if value is not chips:
        object.__setattr__(game, name, chips)
    return chips


class _HalfBigBlind:
    """``Game.small_blind``'s default: half the big blind, rounded down (R5)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "big_blind // 2"


_HALF_BIG_BLIND: Any = _HalfBigBlind()


@frozen_slots
@dataclass(frozen=True, kw_only=True, slots=True)
class Game:
    """One table's rules for a hand of Texas Hold'em (frozen; every field keyword-only).

    - ``structure``: :class:`Structure` (default no-limit).
    - ``big_blind`` (required, >= 1); ``small_blind`` defaults to ``big_blind // 2`` (R5), may
      be 0 (no small blind) and may not exceed the big blind.
    - ``ante`` (default 0, R7) and ``ante_type`` (:class:`AnteType`, default uniform). A uniform
      ante is posted before the blinds and counts as each seat's own contribution (side pots);
      a big-blind ante is posted by the big blind after the blind (TDA: the blind takes
      precedence when the player is short) and is dead money in the main pot (WSOP), never
      returned as an uncalled bet.
    - ``straddle`` (R8): the player left of the big blind posts a live ``2 * big_blind``; cash
      games with 3 or more players only. Preflop the minimum raise is then to twice the straddle
      (the straddle plays as the big blind of the round, Robert's Rules).
    - Fixed limit (R26-R28): ``small_bet`` must equal the big blind (R5, defaults to it),
      ``big_bet`` defaults to ``2 * small_bet``; ``max_raises`` (default 3: a bet and three
      raises, the big blind counting as the preflop bet, R27); ``cap_heads_up`` (default True:
      the cap holds when only two players remain; False lifts it, Robert's Rules: raising
      is unlimited once the action is heads-up before the cap is reached, but a round capped
      with more players in stays capped when folds leave two).
    - ``fold_when_check_free`` (default False, R17): offer folding when checking is free.
    - ``deal_start`` (R12): :class:`DealStart`, default left of the button.
    - ``rake`` (R34): a ``holdem.pots.Rake`` or ``None`` (default: no rake).
    - ``mode``: :class:`Mode` (default cash).
    - ``muck_losing_hands`` (R33, default True): at showdown a hand that cannot win any pot it is
      in is mucked (recorded); False makes every hand show.
    """

    structure: Structure = Structure.NO_LIMIT
    big_blind: int
    small_blind: int = _HALF_BIG_BLIND
    ante: int = 0
    ante_type: AnteType = AnteType.UNIFORM
    straddle: bool = False
    small_bet: int | None = None
    big_bet: int | None = None
    max_raises: int = 3
    cap_heads_up: bool = True
    fold_when_check_free: bool = False
    deal_start: DealStart = DealStart.LEFT_OF_BUTTON
    rake: Rake | None = None
    mode: Mode = Mode.CASH
    muck_losing_hands: bool = True
    # Derived once for the hand cores (not part of the config's identity): see Plan.
    _plan: Plan = field(init=False, repr=False, compare=False, hash=False)
    # The compiled core's C copy of _plan, made on first use (holdem.hand._compiled).
    _core_rules: Any = field(init=False, default=None, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.structure, Structure):
            raise InvalidConfigError(f"structure must be a Structure, got {shown(self.structure)}")
        for name in ("straddle", "cap_heads_up", "fold_when_check_free", "muck_losing_hands"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidConfigError(f"{name} must be True or False, got "
                                         f"{shown(getattr(self, name))}")
        bb = _int(self, "big_blind", 1)
        if self.small_blind is _HALF_BIG_BLIND:
            object.__setattr__(self, "small_blind", bb // 2)
        sb = _int(self, "small_blind", 0)
        if sb > bb:
            raise InvalidConfigError(f"small_blind {sb} is above the big blind {bb}")
        _int(self, "ante", 0)
        if not isinstance(self.ante_type, AnteType):
            raise InvalidConfigError(f"ante_type must be an AnteType, got {shown(self.ante_type)}")
        if not isinstance(self.mode, Mode):
            raise InvalidConfigError(f"mode must be a Mode, got {shown(self.mode)}")
        if not isinstance(self.deal_start, DealStart):
            raise InvalidConfigError(f"deal_start must be a DealStart, got {shown(self.deal_start)}")
        if self.straddle and self.mode is Mode.TOURNAMENT:
            raise InvalidConfigError("straddle is allowed in cash games only (R8), not in tournaments")
        if self.structure is Structure.FIXED_LIMIT:
            if self.small_bet is None:
                object.__setattr__(self, "small_bet", bb)
            small = _int(self, "small_bet", 1)
            if small != bb:
                raise InvalidConfigError(
                    f"fixed limit: the big blind is the small bet (R5), got small_bet {small} "
                    f"and big_blind {bb}"
                )
            if self.big_bet is None:
                object.__setattr__(self, "big_bet", 2 * small)
            _int(self, "big_bet", small)
        else:
            if self.small_bet is not None or self.big_bet is not None:
                raise InvalidConfigError("small_bet and big_bet apply to fixed limit only")
        _int(self, "max_raises", 0, "raises")  # (fixed limit's cap; checked in every game)
        rake = self.rake
        if rake is not None and not isinstance(rake, Rake):
            raise InvalidConfigError(f"rake must be a holdem.pots.Rake or None, got {shown(rake)}")
        object.__setattr__(self, "_plan", self._make_plan())

    def _make_plan(self) -> Plan:
        fixed = self.structure is Structure.FIXED_LIMIT
        bb = self.big_blind
        small = self.small_bet if fixed and self.small_bet is not None else bb
        big = self.big_bet if fixed and self.big_bet is not None else bb
        rake = self.rake
        return Plan(
            structure=STRUCTURE_CODES[self.structure.value], straddle=self.straddle,
            bb_ante=self.ante_type is AnteType.BIG_BLIND,
            deal_from_bb=self.deal_start is DealStart.LEFT_OF_BIG_BLIND,
            lift_heads_up=not self.cap_heads_up, fold_free=self.fold_when_check_free,
            cap=1 + self.max_raises if fixed else UNBOUNDED_CAP, big_blind=bb,
            small_blind=self.small_blind, ante=self.ante, sizes=(small, small, big, big),
            rake=None if rake is None else (
                rake.fraction.numerator, rake.fraction.denominator,
                # a cap above every chip at the table (10 seats of 2**53) takes nothing: no cap
                -1 if rake.cap is None or rake.cap > 16 * MAX_CHIPS else rake.cap,
                int(rake.no_flop_no_drop)))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle through the constructor, so an altered pickle is checked like new input."""
        return (_game_from, (tuple((f.name, getattr(self, f.name)) for f in fields(self)
                                   if f.init),))

    __setstate__ = setstate_through_init  # a pickle in another form: checked all the same

    @property
    def straddle_amount(self) -> int:
        """The straddle (``2 * big_blind``) when enabled, else 0."""
        return 2 * self.big_blind if self.straddle else 0

    def new_hand(
        self,
        stacks: Sequence[int],
        *,
        button: int = 0,
        seed: int | None = None,
        hole_cards: Sequence[Sequence[CardLike] | str | None] | None = None,
        board: Sequence[CardLike] | str | None = None,
        dead_small_blind: bool = False,
        extra_posts: Sequence[ExtraPost | tuple[int, int, int]] = (),
        dead_hands: Sequence[int] = (),
    ) -> HandState:
        """Start a hand: post the forced bets (R2-R9) and deal (R11-R14).

        ``stacks`` are the chips of seats ``0..n-1`` before forced bets (2 to 10 seats, R1,
        each at least 1 chip); ``button`` is the dealer seat. Give either ``seed`` (a shuffled
        deck) or ``hole_cards`` (two cards per seat, ``None`` or ``"????"`` for an unknown
        hand: allowed only for a seat that never shows) and ``board`` (up to five cards; cards
        still missing when needed raise :class:`holdem.errors.InvalidHandError`).

        Forced bets a table needs beyond the regular blinds:

        - ``dead_small_blind=True`` (3+ players): nobody posts the small blind and the big
          blind is the seat left of the button (TDA dead-button rule: the button may sit one
          seat behind the big blind). Cards are dealt from the big blind; preflop the seat
          left of the big blind (or straddle) acts first, after the flop the big blind.
        - ``extra_posts``: :class:`holdem.ExtraPost` values or ``(seat, live, dead)`` tuples,
          posted after the blinds (and antes). The live part (``0..big_blind``: an entry bet
          equal to the big blind, R36, or the big blind owed for missed blinds, Robert's Rules)
          counts as the seat's bet like a blind: the call and the minimum raise stay at the
          big blind level and, when nobody raised, the poster has the option (R6). The dead
          part (``0..big_blind``: the missed small blind) goes to the main pot, is not part
          of the seat's bet and is never returned as uncalled. A short stack posts all in for
          less, live part first (R9). A seat that posts a blind or straddle may not post extra.
        - ``dead_hands``: seats whose hand is dead (TDA 30: a tournament player absent when
          the cards are dealt). Each posts its forced bets as usual (antes, blinds, extra
          posts), then its hand is folded before any action (status FOLDED, no history
          record): nobody acts for it and it wins nothing. What it posted stays in the pots
          as a folded seat's chips (R31: nobody wins more from it than they put in) and the
          part nobody matched is returned to it (R21). When one live seat is left, the hand
          ends at once and that seat wins (uncalled chips back, R21). Int seats ``0..n-1``,
          each once, at least one seat left live.
          :attr:`HandState.dead_hands` reads them back.

        Impossible values raise :class:`holdem.errors.InvalidConfigError`.

        >>> game = Game(big_blind=2)
        >>> st = game.new_hand([100] * 5, button=0, seed=1, extra_posts=[ExtraPost(4, 2, 1)])
        >>> st.actor, st.bets, st.pot  # seat 3 (left of the BB) first; seat 4's dead 1 in pot
        (3, (0, 1, 2, 0, 2), 6)
        >>> st = game.new_hand([100] * 4, button=0, seed=1, dead_small_blind=True)
        >>> st.big_blind_seat, st.actor, st.bets
        (1, 2, (0, 2, 0, 0))
        >>> st = game.new_hand([100] * 3, button=0, seed=1, dead_hands=[2])
        >>> st.dead_hands, st.actor, st.pot  # TDA 30: the absent big blind posted, hand dead
        ((2,), 0, 3)
        """
        if dead_small_blind is False and (
                type(extra_posts) is tuple or type(extra_posts) is list) and not extra_posts and (
                type(dead_hands) is tuple and not dead_hands):
            return HandState._start(self, stacks, button, seed, hole_cards, board)
        return HandState._start(self, stacks, button, seed, hole_cards, board,
                                dead_small_blind, extra_posts, dead_hands)

    new_initial_state = new_hand


def _game_from(*args: object) -> Game:
    """Unpickle a :class:`Game` (one argument: its ``(field, value)`` pairs) through its
    checks."""
    if len(args) != 1:  # (an altered pickle gives what it holds)
        raise InvalidStateError(f"not a valid pickled Game: expected its fields, got "
                                f"{len(args)} values")
    try:
        kwargs = dict(args[0])  # type: ignore[call-overload]
        return Game(**kwargs)
    except InvalidConfigError as exc:
        raise InvalidStateError(f"not a valid pickled Game: {exc}") from None
    except (TypeError, ValueError) as exc:
        raise InvalidStateError(f"not a valid pickled Game: {exc}") from None


set_game_class(Game)  # the one class of game a pickled hand may hold (holdem.hand._plan)


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

    if TYPE_CHECKING:  # the cores hold the game as a GameLike; a hand's game is a Game

        @property
        def game(self) -> Game: ...

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
    def dead_hands(self) -> tuple[int, ...]:
        """The seats whose hand was dead from the deal (``Game.new_hand(dead_hands=...)``,
        TDA 30): folded without folding (no fold in the history), in seat order."""
        n = self.num_players
        return tuple(dead_seats(n, self.raw_history(), [self.status_code(i) == 1
                                                        for i in range(n)]))

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
        """The outcome (payoffs, final stacks, pots, showdown); only when the hand is over.

        Each read is the caller's own: its ``shown`` and ``ranks`` dicts are copies, so
        changing them leaves the hand (its clones, pickles and later results) as it was."""
        res = self.result_or_none()
        if res is None:
            raise IllegalActionError("the hand is not over yet: no result")
        return res._own()

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
        try:
            over = self.is_terminal()
        except InvalidStateError:  # never started (HandState.__new__): no hand to show
            return "<HandState not started>"
        head = f"<HandState {self.num_players} seats, button {self.button}"
        try:
            res = self.result_or_none() if over else None
        except ValueError:  # a repr never raises: the plain form below
            res = None
        if res is not None:  # the chips are paid: what each seat won and ends with
            return (f"{head}, over, payoffs {list(res.payoffs)}, "
                    f"final stacks {list(res.final_stacks)}>")
        where = ("over" if over
                 else f"{_STREETS[self.street_index]}, seat {self.actor} to act")
        return f"{head}, {where}, pot {self.pot}, stacks {list(self.stacks)}>"


class HandState(_HandQueries, HandCore):
    """The state of one hand (see the module docstring). Seats are ``0..n-1`` clockwise.

    Start one with :meth:`holdem.Game.new_hand`. Queries: ``actor``, ``street``, ``board``,
    ``burned``, ``hole_cards``, ``stacks``, ``starting_stacks``, ``bets``, ``committed``,
    ``pot``, ``current_bet``, ``status(seat)``, ``statuses``, ``posts``, ``legal_actions()``,
    ``actions()``, ``is_legal(action)``, ``history``, ``is_terminal()``, ``result``,
    ``payoffs``. Actions: ``fold``, ``check``, ``call``, ``check_or_call``, ``bet``,
    ``raise_to``, ``bet_or_raise``, ``all_in``, ``apply``; ``apply_unchecked`` for trusted
    loops; ``clone()``. A state made without a hand (``HandState.__new__(HandState)``) refuses
    all of these with :class:`InvalidStateError`.
    """

    __slots__ = ()


class ReferenceHandState(_HandQueries, _reference.HandCore):
    """The same API over the pure-Python reference core (for differential tests)."""

    __slots__ = ()
