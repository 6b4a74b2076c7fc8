"""A poker table: seats, players coming and going, a moving button, hand after hand.

>>> from holdem import CallAgent, Game, RandomAgent, Table
>>> table = Table(Game(big_blind=2), seats=6, seed=7)
>>> table.sit(0, "ana", 200, RandomAgent(seed=1))
>>> table.sit(2, "boris", 200, CallAgent())
>>> table.sit(4, "vera", 100, RandomAgent(seed=2))
>>> records = table.play(50)
>>> table.chips_in_play + table.cashed_out + table.rake == table.bought_in
True

Rules (RULES.md ids; where they are silent, Robert's Rules of Poker for cash games and the TDA
rules for tournaments, as said at each point):

- Seats ``0..seats-1`` clockwise, 2 to 10 seats (R1). A player sits with a buy-in of at least
  10 times the lower limit (the big blind; fixed limit: the small bet) and at most the table's
  ``max_buy_in`` when given (R35). In a tournament the buy-in is the starting stack (any
  positive amount) and players sit before the first hand (no late registration).
- A new cash player either posts an entry bet equal to the big blind, live like a blind (the
  default), or waits for the big blind (``wait_for_big_blind=True``) (R36). A poster is not dealt
  in on the button or the small blind: they wait for the button to pass (Robert's Rules).
- The button moves to the next player dealt in (R4), the blinds follow (R2); heads-up the
  button posts the small blind and the big blind goes to the player who did not post it last
  hand (R3, TDA 34), which also settles the move from three players to two. From two to three
  or more: while two play heads-up, a player who posts or waits for the big blind is dealt in
  at the next hand as the big blind (the two others take the small blind and the button;
  R36 with R3, R4: see :mod:`holdem.table._seating`). ``dead_button=True``
  places the big blind first and the small blind and button behind it, possibly dead (TDA dead
  button; Robert's Rules, button and blind use 2b). See :mod:`holdem.table._seating`.
- Missed blinds (cash; Robert's Rules, button and blind use): a player not dealt in (sitting
  out, or without chips) when the big blind passes their seat owes a big blind, and when the
  small blind passes it also owes a small blind. Coming back they post them (the big blind
  live, the small blind dead) or wait for the big blind (``wait_for_big_blind=True``), which
  settles the debt. Heads-up, debts are forgiven (the blinds alternate every hand).
- ``sit_out``/``come_back``: a cash player sitting out is not dealt in. In a tournament a
  player sitting out is still dealt in and posts blinds and antes (TDA: absent players are
  blinded off), but their hand is dead at the deal (TDA 30: a player must be at their seat
  when the cards are dealt): it is folded before any action, ``Game.new_hand(dead_hands=...)``,
  and what it posted stays in the pots as a folded seat's chips (R31, R21), so an absent big
  blind never wins a pot.
  When every player dealt in is sitting out, nobody's hand is killed (a hand needs a live
  seat): their hands check when they may and fold otherwise. A player who sits out during a
  hand (from inside an agent) plays on the same way, checking or folding, until it ends.
- No chips, no cards (R37): ``add_chips`` between hands (a rebuy from zero must be at least the
  minimum buy-in; the stack may not go above ``max_buy_in``). Not in tournaments (freezeout).
- ``leave`` between hands cashes the player out. Leaving during a hand (from inside an agent)
  takes effect at that player's next turn: the hand is folded then (checked while checking is
  free, as folding is not offered then, R17) and the player is cashed out after the hand.
- Tournament mode (``game.mode is Mode.TOURNAMENT``): a :class:`~holdem.table.tournament.BlindSchedule`
  raises blinds and antes by hands or by time (R10, injectable ``clock``); players without chips
  are eliminated, finishing places counted from the bottom; several players out in one hand are
  placed by the chips they started the hand with, equal stacks tie (TDA). No straddle (R8).
- Cash mode: rake from ``game.rake`` (R34); a tournament game with a rake is refused.
- Determinism: the deck of hand ``k`` is seeded from ``(seed, k)`` and the first button is
  drawn from ``seed``: the same seed, agents and joins give the same session.
- Chips are conserved: ``chips_in_play + cashed_out + rake == bought_in`` at all times. No
  stack, and no table total (one stack may win it all), goes above the engine's limit of
  2**53 chips: ``sit`` and ``add_chips`` refuse such amounts.
- A table pickles between hands; loading checks the state (:mod:`holdem.table._state`): an
  altered one raises :class:`~holdem.errors.InvalidStateError`.

With the compiled hand core, a hand's decision loop and the per-hand bookkeeping run in C
(:mod:`holdem.table._loop`); the pure-Python core uses the same steps written in Python
(:mod:`holdem.table._steps`, ``Table._kinds_python``...). Both play the same sessions
(tests/test_table_fast.py).
"""

from __future__ import annotations

import copy
import dataclasses
import random
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from holdem._deck import child_seed
from holdem._ints import int_or_none
from holdem._parallel import master_seed
from holdem._shown import shown
from holdem.errors import (
    AgentError,
    IllegalActionError,
    InvalidActionError,
    InvalidConfigError,
    InvalidStateError,
    TableError,
)
from holdem.hand._core import table_loop
from holdem.hand._validate import MAX_CHIPS
from holdem.hand.game import Game, HandState, Mode, Structure
from holdem.hand.records import ExtraPost
from holdem.table._seating import Kind, Plan, Positions, between
from holdem.table._state import MAX_HANDS, check_table_state, copy_fields, finite_seconds
from holdem.table._steps import (
    cached_hand,
    cached_plan,
    run_hand_python,
)
from holdem.table.agents import AgentLike, agent_name, not_an_agent_hint, resolve_agent
from holdem.table.player import Player, PlayerStatus
from holdem.table.tournament import BlindLevel, BlindSchedule

__all__ = ["HandRecord", "Player", "PlayerStatus", "Table"]

# With the compiled hand core, the decision loop and the per-hand bookkeeping run in C too
# (holdem/table/_loop.pyx: the same steps, checked against the Python ones by the tests).
_fast: Any = table_loop


_OUT, _REGULAR, _POSTER, _WAITING_KIND = (int(Kind.OUT), int(Kind.REGULAR), int(Kind.POSTER),
                                         int(Kind.WAITING))
_SITTING_OUT, _WAITING = PlayerStatus.SITTING_OUT, PlayerStatus.WAITING
_ACTIVE = PlayerStatus.ACTIVE
_start_hand = HandState._start  # what Game.new_hand calls for a plain seeded hand


class HandRecord(NamedTuple):
    """One finished hand at the table (seats are table seats; ``state`` is the final
    :class:`holdem.HandState`, whose own seat numbers are positions ``0..n-1`` over ``seats``;
    a dead small blind and the entry bets and missed blinds are dealt by
    ``Game.new_hand(dead_small_blind=..., extra_posts=..., dead_hands=...)``)."""

    number: int
    level: BlindLevel | None
    button: int
    small_blind: int | None
    big_blind: int
    seats: tuple[int, ...]
    names: tuple[str, ...]
    starting_stacks: tuple[int, ...]
    posts: tuple[tuple[int, str, int], ...]
    payoffs: dict[str, int]
    rake: int
    eliminated: tuple[str, ...]
    state: HandState
    new_game: bool = False
    """True when fewer than two players were ready to play without owing: everybody was dealt
    in and debts were forgiven (the blind rotation starts again)."""
    placement: str = "moving"
    """How the button and blinds were placed: ``"moving"`` (R4), ``"dead"`` (TDA dead button),
    ``"heads-up"`` (R3, TDA 34) or ``"joining"`` (a heads-up game gets a third player, who
    takes the big blind: R36 with R3, R4). A dead-button table uses ``"moving"`` for a hand
    the dead-button progression cannot place (see :mod:`holdem.table._seating`)."""


class Table:
    """A table of ``seats`` seats playing ``game`` hand after hand (see the module docstring).

    ``seed``: the session seed, any int (None: drawn at random, kept in :attr:`seed`). ``max_buy_in``:
    optional cap on buy-ins and stacks after adding chips (R35). ``dead_button``: TDA dead
    button instead of the moving button (R4). ``schedule``/``clock``: tournament levels (R10)
    and the clock they are timed with (seconds, default :func:`time.monotonic`).
    """

    def __init__(self, game: Game, seats: int = 9, *, seed: int | None = None,
                 max_buy_in: int | None = None, dead_button: bool = False,
                 schedule: BlindSchedule | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        if not isinstance(game, Game):
            raise InvalidConfigError(f"game must be a holdem.Game, got {shown(game)}")
        count = int_or_none(seats)
        if count is None or not 2 <= count <= 10:
            raise InvalidConfigError(f"a table has 2 to 10 seats (R1), got {shown(seats)}")
        seats = count
        self.tournament = game.mode is Mode.TOURNAMENT
        if schedule is not None:
            if not isinstance(schedule, BlindSchedule):
                raise InvalidConfigError(f"schedule must be a BlindSchedule, got {shown(schedule)}")
            if not self.tournament:
                raise InvalidConfigError("a blind schedule needs a tournament game (R10): "
                                         "Game(mode=Mode.TOURNAMENT, ...)")
        if self.tournament and game.rake is not None:
            # R34: the house's share of a cash pot; a tournament's pots are not raked (its
            # chips are not money: the winner ends with every chip bought in)
            raise InvalidConfigError(f"a tournament takes no rake (R34 is for cash games): "
                                     f"give the tournament game rake=None, got {game.rake!r}")
        lower = game.big_blind
        self.min_buy_in = 10 * lower
        """R35: ten times the lower limit (1 in a tournament: the buy-in is the stack)."""
        if self.tournament:
            self.min_buy_in = 1
        if max_buy_in is not None:
            most = int_or_none(max_buy_in)
            if most is None or most < self.min_buy_in:
                raise InvalidConfigError(
                    f"max_buy_in must be an int >= the minimum buy-in {self.min_buy_in}, "
                    f"got {shown(max_buy_in)}")
            max_buy_in = most
        if dead_button is not True and dead_button is not False:  # ("no" is not False)
            raise InvalidConfigError(f"dead_button must be True or False, got {shown(dead_button)}")
        if clock is not None and not callable(clock):
            raise InvalidConfigError(f"clock must be a function giving the time in seconds (as "
                                     f"time.monotonic) or None, got {shown(clock)}")
        self.game = game
        self.size = seats
        self.max_buy_in = max_buy_in
        self.dead_button = dead_button
        self.schedule = schedule
        self.clock = clock if clock is not None else time.monotonic
        self.seed, self._bits = master_seed(seed)
        self._seats: list[Player | None] = [None] * seats
        self._prev: Positions | None = None
        self._prev_sb_pos: int | None = None
        self._first_button = random.Random(self._bits).randrange(seats)
        self._games: dict[int, Game] = {}
        self._start_time: float | None = None
        self.hand_number = 0
        """Hands played so far (the next hand's number)."""
        self.bought_in = 0
        """All chips brought to the table (buy-ins and chips added)."""
        self.cashed_out = 0
        """All chips taken away by players who left."""
        self.rake = 0
        """All rake taken (R34)."""
        self.places: dict[str, int] = {}
        """Tournament finishing places (1 = winner), filled as players are eliminated."""
        self._in_hand = False

    # ------------------------------------------------------------------ queries
    @property
    def players(self) -> tuple[Player, ...]:
        """The seated players, by seat."""
        return tuple(p for p in self._seats if p is not None)

    @property
    def seats(self) -> tuple[Player | None, ...]:
        """Every seat in order: its :class:`Player`, or None when empty."""
        return tuple(self._seats)

    def player(self, name: str) -> Player:
        """The player called ``name`` (:class:`TableError` if nobody sits under that name)."""
        if not isinstance(name, str):
            raise TableError(f"a player's name is a str, got {shown(name)}")
        for p in self._seats:
            if p is not None and p.name == name:
                return p
        seated = ", ".join(repr(p.name) for p in self._seats if p is not None) or "nobody"
        raise TableError(f"unknown player {shown(name)} (seated: {seated})")

    @property
    def button(self) -> int | None:
        """The seat of the last hand's button (``None`` before the first hand)."""
        return None if self._prev is None else self._prev.button

    @property
    def chips_in_play(self) -> int:
        """The seated players' stacks added up."""
        return sum(p.stack for p in self._seats if p is not None)

    @property
    def level(self) -> BlindLevel | None:
        """The blind level of the next hand (tournaments with a schedule)."""
        if self.schedule is None:
            return None
        return self.schedule.levels[self._level_index()]

    def is_over(self) -> bool:
        """A tournament ends when one player has all the chips."""
        return self.tournament and bool(self.places) and len(self.players) <= 1

    def __repr__(self) -> str:
        if not self.__dict__:  # made without its state (Table.__new__, a forged pickle)
            return "<Table with no state>"
        who = ", ".join(f"{p.seat}:{p.name}({p.stack})" for p in self.players)
        return f"<Table {self.size} seats, hand {self.hand_number}, [{who}]>"

    # ------------------------------------------------------------------ pickling
    def __copy__(self) -> Table:
        """A copy that shares nothing with the table (seats, stacks, agents): what a pickle
        round trip gives. A shallow copy shared the seats, so playing it moved these chips."""
        return copy.deepcopy(self)

    def __getstate__(self) -> dict[str, Any]:
        """A table pickles between hands (its agents must pickle too). Timed levels (R10)
        keep the time their clock has run, not its reading: loading resumes the clock there
        (the time spent pickled does not count, as on a paused tournament clock)."""
        if self._in_hand:
            raise TableError("a table can be pickled between hands only")
        played = None if self._start_time is None else max(0.0, self._now() - self._start_time)
        return copy_fields(self.__dict__, played)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore a pickled table after checking its state: a corrupt or inconsistent one
        raises :class:`InvalidStateError` (see :mod:`holdem.table._state`)."""
        check_table_state(state, Player)
        state = dict(state)
        played = state.pop("_clock_seconds")
        self.__dict__.update(state)
        self._start_time = None
        self._games = {}
        if played is not None:  # the level clock goes on from where it stood when pickled
            try:
                start = self._now() - played
            except InvalidConfigError as exc:
                self.__dict__.clear()
                raise InvalidStateError(f"not a valid pickled Table: {exc}") from None
            self._start_time = start
        try:
            self._plan()  # the seating plan of the next hand can be made
        except Exception as exc:  # pragma: no cover - the checks above are meant to catch it
            self.__dict__.clear()
            raise InvalidStateError(f"not a valid pickled Table: {exc!r}") from None

    # ------------------------------------------------------------------ seating
    def sit(self, seat: int, name: str, buy_in: int, agent: AgentLike, *,
            wait_for_big_blind: bool = False) -> None:
        """Seat ``name`` at ``seat`` with ``buy_in`` chips, played by ``agent`` (R35, R36).

        Before the first hand everybody is simply dealt in; later a cash player posts an entry
        bet or, with ``wait_for_big_blind=True``, waits for the big blind (R36).
        """
        index = int_or_none(seat)
        if index is None or not 0 <= index < self.size:
            raise TableError(f"seat must be 0..{self.size - 1}, got {shown(seat)}")
        seat = index
        if wait_for_big_blind is not True and wait_for_big_blind is not False:
            raise TableError(f"wait_for_big_blind must be True or False, got "
                             f"{shown(wait_for_big_blind)}")
        if not isinstance(name, str) or not name:
            raise TableError(f"a player needs a non-empty name, got {shown(name)}")
        taken = self._seats[seat]
        if taken is not None:
            raise TableError(f"seat {seat} is taken by {taken.name!r}")
        if any(p is not None and p.name == name for p in self._seats):
            raise TableError(f"a player called {name!r} is already seated")
        act = resolve_agent(agent)
        if act is None:
            raise TableError(f"agent for {name!r} must be callable or have an act() method, "
                             f"got {agent!r}{not_an_agent_hint(agent)}")
        # the session has started once the first hand is dealt (an agent may sit a player
        # down during it): from then on a cash newcomer posts or waits (R36)
        started = self.hand_number > 0 or self._in_hand
        if self.tournament and started:
            raise TableError("the tournament has started: no late registration")
        buy_in = self._check_buy_in(name, 0, buy_in)
        player = Player(name, seat, buy_in, agent, _act=act)
        if not self.tournament and started:
            if wait_for_big_blind:
                player.status = PlayerStatus.WAITING
            else:
                player.entry_due = True
        self._seats[seat] = player
        self.bought_in += buy_in

    def _check_buy_in(self, name: str, stack: int, given: int) -> int:
        """The chips ``given`` to ``name`` (who has ``stack``) as a plain int, checked."""
        amount = int_or_none(given)
        if amount is None or amount < 1:
            raise TableError(f"chips for {name!r} must be a positive int, got {shown(given)}")
        # the engine deals stacks up to MAX_CHIPS; every chip at the table may end in one
        # stack, so the table's total is held to it too (else a hand could not be dealt)
        if stack + amount > MAX_CHIPS:
            raise TableError(f"{shown(amount)} chips for {name!r} would put the stack above "
                             f"the engine's limit of 2**53 = {MAX_CHIPS} chips")
        total = self.chips_in_play + amount
        if total > MAX_CHIPS:
            raise TableError(f"{shown(amount)} more chips for {name!r} would put {total} chips "
                             f"on the table, above the engine's limit of 2**53 = {MAX_CHIPS} "
                             f"(all of them may end in one stack)")
        if stack == 0 and amount < self.min_buy_in:
            raise TableError(f"buy-in {amount} for {name!r} is below the minimum "
                             f"{self.min_buy_in} (R35: 10 times the lower limit)")
        if self.max_buy_in is not None and stack + amount > self.max_buy_in:
            raise TableError(f"{name!r} would have {stack + amount} chips, above the table "
                             f"maximum of {self.max_buy_in} (R35)")
        return amount

    def add_chips(self, name: str, amount: int) -> None:
        """Add chips between hands (a rebuy; R37 and R35 limits). Cash games only."""
        p = self.player(name)
        if self.tournament:
            raise TableError("no rebuys in a tournament (freezeout)")
        if self._in_hand:
            raise TableError("chips can be added between hands only")
        amount = self._check_buy_in(name, p.stack, amount)
        p.stack += amount
        self.bought_in += amount

    def sit_out(self, name: str) -> None:
        """Sit out from the next hand on (cash: not dealt in; tournament: blinded off)."""
        p = self.player(name)
        if p.status is PlayerStatus.WAITING and not self.tournament:
            # still not in the game: coming back they post or wait for the big blind (R36)
            p.entry_due = True
        p.status = PlayerStatus.SITTING_OUT

    def come_back(self, name: str, *, wait_for_big_blind: bool = False) -> None:
        """Come back from sitting out (or stop waiting for the big blind): post what is owed
        (a player who was waiting posts a big blind, R36), or wait for the big blind."""
        if wait_for_big_blind is not True and wait_for_big_blind is not False:
            raise TableError(f"wait_for_big_blind must be True or False, got "
                             f"{shown(wait_for_big_blind)}")
        p = self.player(name)
        if wait_for_big_blind and not self.tournament:
            p.status = PlayerStatus.WAITING
            p.owes_big_blind = p.owes_small_blind = p.entry_due = False
        else:
            if p.status is PlayerStatus.WAITING and not self.tournament:
                p.entry_due = True  # stops waiting: posts a big blind to come in (R36)
            p.status = PlayerStatus.ACTIVE

    def wait_for_big_blind(self, name: str) -> None:
        """Instead of posting what is owed, wait for the big blind (R36, cash games)."""
        self.come_back(name, wait_for_big_blind=True)

    def leave(self, name: str) -> int:
        """Leave the table: returns the chips cashed out (0 when leaving mid-hand: the hand is
        folded at the player's next turn and the chips are cashed out after it)."""
        p = self.player(name)
        if self.tournament and p.stack > 0:
            raise TableError(f"{name!r} cannot leave a tournament with chips; sit out instead")
        if self._in_hand and p.seat in self._dealt:
            p.leaving = True
            return 0
        return self._remove(p)

    def _reset_stacks(self, amount: int) -> None:
        """Set every seated player's stack to ``amount`` between hands (simulations), counting
        chips added as bought in and chips taken off as cashed out."""
        if _fast is not None:
            added, removed = _fast.reset_stacks(self._seats, amount)
            self.bought_in += added
            self.cashed_out += removed
            return
        for p in self._seats:
            if p is not None:
                if p.stack < amount:
                    self.bought_in += amount - p.stack
                else:
                    self.cashed_out += p.stack - amount
                p.stack = amount

    def _remove(self, p: Player) -> int:
        self._seats[p.seat] = None
        self.cashed_out += p.stack
        chips, p.stack = p.stack, 0
        return chips

    # ------------------------------------------------------------------ playing
    def play(self, hands: int) -> list[HandRecord]:
        """Play up to ``hands`` hands (an int >= 0); stops early when a tournament ends or
        fewer than two players can be dealt in. The records are returned together, about
        7 KB a 6-max hand: for millions of hands iterate :meth:`hands` (one record at a
        time) or use :func:`holdem.simulate`."""
        count = int_or_none(hands)
        if count is None or count < 0:
            raise TableError(f"hands must be an int >= 0, got {shown(hands)}")
        hands = count
        out = []
        for _ in range(hands):
            if not self.can_play():
                break
            out.append(self.play_hand())
        return out

    def hands(self) -> Iterator[HandRecord]:
        """Play hands for as long as two players can be dealt in."""
        while self.can_play():
            yield self.play_hand()

    def can_play(self) -> bool:
        """Whether a hand can be dealt now: two players or more with chips who are not sitting
        out (cash), and the tournament not over."""
        return not self.is_over() and not self._in_hand and self._plan() is not None

    def _now(self) -> float:
        """The table clock's reading (R10 timed levels): :class:`InvalidConfigError` unless it
        is a finite number of seconds."""
        now = self.clock()
        if not finite_seconds(now):
            raise InvalidConfigError(f"the table's clock must give the time as a finite number "
                                     f"of seconds, got {shown(now)}")
        return now

    def _level_index(self) -> int:
        assert self.schedule is not None
        elapsed = 0.0
        if self._start_time is not None and self.schedule.minutes_per_level is not None:
            elapsed = self._now() - self._start_time
        return self.schedule.index_at(hands=self.hand_number, seconds=elapsed)

    def _hand_game(self) -> tuple[Game, BlindLevel | None]:
        if self.schedule is None:
            return self.game, None
        if self._start_time is None and self.schedule.minutes_per_level is not None:
            self._start_time = self._now()  # timed levels: the clock starts at the first hand
        k = self._level_index()
        lv = self.schedule.levels[k]
        g = self._games.get(k)
        if g is None:
            extra: dict[str, Any] = {}
            if self.game.structure is Structure.FIXED_LIMIT:
                extra = {"small_bet": lv.big_blind, "big_bet": 2 * lv.big_blind}
            g = dataclasses.replace(self.game, big_blind=lv.big_blind,
                                    small_blind=lv.small_blind, ante=lv.ante, **extra)
            self._games[k] = g
        return g, lv

    def _kinds(self) -> tuple[int, ...]:
        """Each seat's :class:`~holdem.table._seating.Kind` (as its int value, which is how
        :func:`~holdem.table._seating.plan_hand` compares them)."""
        if _fast is None:
            return self._kinds_python()
        kinds: tuple[int, ...] = _fast.seat_kinds(self._seats, self.tournament, _SITTING_OUT,
                                                  _WAITING)
        return kinds

    def _kinds_python(self) -> tuple[int, ...]:
        if self.tournament:
            return tuple([_OUT if p is None or p.stack == 0 else _REGULAR for p in self._seats])
        return tuple([_OUT if p is None or p.stack == 0 or p.status is _SITTING_OUT
                      else _WAITING_KIND if p.status is _WAITING
                      else _POSTER if p.entry_due or p.owes_big_blind or p.owes_small_blind
                      else _REGULAR for p in self._seats])

    def _plan(self) -> Plan | None:
        return cached_plan(self._kinds(), self._prev, self.dead_button, self._first_button)

    def play_hand(self) -> HandRecord:
        """Deal and play one hand with the players' agents; returns its record.

        An agent's illegal or malformed answer raises :class:`AgentError`; the hand is then
        void (no chips move, the table is as before it).
        """
        if self._in_hand:
            raise TableError("a hand is already being played")
        if self.hand_number >= MAX_HANDS:
            raise TableError(f"this table has played {self.hand_number} hands, the most a table "
                             f"counts (and pickles): play on at a new table")
        if self.tournament and self.is_over():
            raise TableError("the tournament is over")
        hand = cached_hand(self._kinds(), self._prev, self.dead_button, self._first_button)
        if hand is None:
            raise TableError("a hand needs two players with chips who are not sitting out")
        plan, index, button_index, dead_sb = hand
        game, level = (self.game, None) if self.schedule is None else self._hand_game()
        dealt = plan.dealt
        seats = self._seats
        players: list[Player]
        if _fast is not None:
            players, stacks, names = _fast.hand_players(seats, dealt)
        else:
            players = [seats[s] for s in dealt]  # type: ignore[misc]
            stacks = [p.stack for p in players]
            names = tuple([p.name for p in players])
        try:
            self._dealt = dealt
            self._in_hand = True  # (set in the try: an interrupt right after it unsets it)
            state, posts = self._deal(game, plan, stacks, index, button_index, dead_sb)
            self._run(state, dealt, players, names, button_index, game)
            # what settling changes, kept to void the hand if it stops mid-way (Ctrl-C,
            # MemoryError): dealt players' stacks are the hand's starting stacks
            saved = (self.rake, self.hand_number, self.cashed_out, self._prev,
                     self._prev_sb_pos, seats[:],
                     [(p, p.status, p.entry_due, p.owes_big_blind, p.owes_small_blind,
                       p.hands_played) for p in seats if p is not None])
        except BaseException:
            # a void hand (an agent failed): nothing moved; players who left during it go now
            self._void_hand()
            raise
        finally:
            self._in_hand = False
            self._dealt = ()
        try:
            return self._settle(state, plan, level, posts, players, names)
        except BaseException:
            # stopped while paying the hand (an interrupt, MemoryError): the hand is void,
            # the table as before it, as when an agent fails
            (self.rake, self.hand_number, self.cashed_out, self._prev, self._prev_sb_pos,
             self._seats[:], flags) = saved
            for p, status, entry_due, owes_bb, owes_sb, played in flags:
                p.status, p.entry_due, p.owes_big_blind = status, entry_due, owes_bb
                p.owes_small_blind, p.hands_played = owes_sb, played
            for s, stack in zip(dealt, state.starting_stacks, strict=True):
                p = self._seat(s)
                p.stack = stack
                self.places.pop(p.name, None)  # (placed by this hand if at all)
            self._void_hand()
            raise

    def _void_hand(self) -> None:
        """After a void hand, the players who left during it go."""
        for p in self._seats:
            if p is not None and p.leaving:
                self._remove(p)

    _dealt: tuple[int, ...] = ()

    def _deal(self, game: Game, plan: Plan, stacks: list[int], index: dict[int, int],
              btn: int, dead_sb: bool) -> tuple[HandState, tuple[tuple[int, str, int], ...]]:
        dealt = plan.dealt
        if game.straddle and len(dealt) == 2:
            game = dataclasses.replace(game, straddle=False)
        seed = child_seed(self._bits, self.hand_number)
        absent: list[int] = []
        if self.tournament:
            # TDA 30 with R36: an absent player posts, and their hand is dead at the deal
            absent = [k for k, s in enumerate(dealt) if self._seat(s).status is _SITTING_OUT]
            if len(absent) == len(dealt):  # nobody at the table: no live hand to kill them for
                absent = []
        if dead_sb or plan.posters or absent:
            extra = []
            # the straddle (2 big blinds, live) covers what its seat owes, as the big blind
            # does for a player who enters in the big blind (RULES.md, R36 with R8)
            straddler = ((index[plan.positions.big_blind] + 1) % len(dealt)
                         if game.straddle else -1)
            for s in plan.posters:
                if index[s] == straddler:
                    continue
                p = self._seat(s)
                # R36 entry bet / missed big blind live, missed small blind dead (Robert's Rules)
                live = game.big_blind if (p.entry_due or p.owes_big_blind) else 0
                dead = game.small_blind if p.owes_small_blind else 0
                if live or dead:
                    extra.append(ExtraPost(index[s], live, dead))
            want = tuple(stacks)
            state = game.new_hand(stacks, button=btn, seed=seed, dead_small_blind=dead_sb,
                                  extra_posts=extra, dead_hands=absent)
            # a subclass of Game may deal its own hand: it must be one of these players
            if not (isinstance(state, HandState) and state.starting_stacks == want):
                raise TableError(
                    f"{type(game).__name__}.new_hand returned {shown(state)}: the table needs a "
                    f"HandState of the {len(dealt)} players dealt in, with their stacks {want}")
        else:
            # game.new_hand(stacks, button=btn, seed=seed) without its keyword layer
            state = _start_hand(game, stacks, btn, seed, None, None)
        if _fast is not None:
            return state, _fast.table_posts(state, dealt)
        return state, tuple([(dealt[p.seat], p.kind, p.amount) for p in state.posts])

    def _seat(self, seat: int) -> Player:
        p = self._seats[seat]
        assert p is not None
        return p

    def _run(self, state: HandState, dealt: tuple[int, ...], players: list[Player],
             names: tuple[str, ...], button_index: int, game: Game) -> None:
        """Play the hand to its end with the agents (see
        :func:`holdem.table._steps.run_hand_python`)."""
        (run_hand_python if _fast is None else _fast.run_hand)(
            state, players, dealt, names, button_index, game.big_blind, self.hand_number,
            self.tournament, _SITTING_OUT, self._apply_checked)

    def _apply_checked(self, state: HandState, p: Player, seat: int, action: object) -> None:
        """Apply an agent's answer through the checked ``apply``; an illegal or malformed one
        raises :class:`AgentError` naming the agent, the player and the answer."""
        try:
            state.apply(action)  # type: ignore[arg-type]  # any answer: apply checks it
        except (IllegalActionError, InvalidActionError) as exc:
            raise AgentError(f"agent {agent_name(p.agent)!r} of player {p.name!r} (seat "
                             f"{seat}) answered {action!r}: {exc}") from exc

    def _settle(self, state: HandState, plan: Plan, level: BlindLevel | None,
                posts: tuple[tuple[int, str, int], ...], players: list[Player],
                names: tuple[str, ...]) -> HandRecord:
        res = state.result_or_none()  # the hand is over: its result (state.result)
        assert res is not None
        dealt = plan.dealt
        pos = plan.positions
        start = state.starting_stacks
        payoffs: dict[str, int]
        if _fast is not None:
            payoffs, leaving = _fast.pay(players, names, res)
        else:
            seated = tuple(players)  # as _fast.pay: a copy, its length checked first
            if not (len(res.final_stacks) == len(names) == len(res.payoffs) == len(seated)):
                raise TableError(f"players, names and the hand's seats differ in number "
                                 f"({len(seated)} players, {len(names)} names, "
                                 f"{len(res.final_stacks)} seats): the players dealt in may "
                                 f"not change during the hand")
            for p, final in zip(seated, res.final_stacks, strict=True):
                p.stack = final
                p.hands_played += 1
            payoffs = dict(zip(names, res.payoffs, strict=True))
            leaving = True  # look below
        self.rake += res.rake
        # debts: posted, took the big blind, or forgiven (new game, heads-up)
        if plan.new_game or len(dealt) == 2:
            settled: list[Player] = players
        else:
            bb_player = self._seats[pos.big_blind]
            settled = [bb_player] if bb_player is not None else []
            if plan.posters:
                settled += [self._seat(s) for s in plan.posters]
        for p in settled:
            p.entry_due = p.owes_big_blind = p.owes_small_blind = False
            if p.status is _WAITING:
                p.status = _ACTIVE
        prev = self._prev
        sb_pos = pos.small_blind if pos.small_blind is not None else (
            prev.big_blind if prev is not None else None)
        if (not self.tournament and prev is not None
                and len(dealt) < self.size - self._seats.count(None)):
            for q in self._seats:
                # only players who are away owe what passed them: sitting out or without
                # chips (not those waiting for the big blind or for the button to pass, nor
                # a newcomer still owing the entry bet: not in the game yet, R36)
                if q is None or q.seat in dealt or q.entry_due or not (
                        q.status is PlayerStatus.SITTING_OUT or q.stack == 0):
                    continue
                if q.hands_played == 0:
                    # sat down before the first hand and sat out: never in the game, so they
                    # owe no blind that passed them, only a newcomer's entry bet (R36)
                    q.entry_due = True
                    continue
                if between(prev.big_blind, pos.big_blind, q.seat, self.size):
                    q.owes_big_blind = True
                if (self._prev_sb_pos is not None and sb_pos is not None
                        and between(self._prev_sb_pos, sb_pos, q.seat, self.size)):
                    q.owes_small_blind = True
                elif pos.small_blind is None and q.seat == pos.sb_seat:
                    # dead button: the small blind was due at this seat and is dead because
                    # its player is away: they missed it as much as when it moves past them
                    q.owes_small_blind = True
        self._prev = pos
        self._prev_sb_pos = sb_pos
        eliminated: tuple[str, ...] = ()
        if self.tournament:
            eliminated = self._eliminate(players, start)
        if leaving:
            for p in players:
                if p.leaving:
                    self._remove(p)
        record = HandRecord(
            self.hand_number, level, pos.button, pos.small_blind, pos.big_blind, dealt, names,
            start, posts, payoffs, res.rake, eliminated, state, plan.new_game, plan.placement)
        self.hand_number += 1
        return record

    def _eliminate(self, players: list[Player], start: tuple[int, ...]) -> tuple[str, ...]:
        out = [(s, p) for p, s in zip(players, start, strict=True) if p.stack == 0]
        if not out:
            return ()
        remaining = sum(1 for p in self._seats if p is not None and p.stack > 0)
        out.sort(key=lambda sp: -sp[0])
        place = remaining + 1
        for k, (s, p) in enumerate(out):
            if k > 0 and s < out[k - 1][0]:
                place = remaining + 1 + k
            self.places[p.name] = place
            self._seats[p.seat] = None
        if remaining == 1:
            winner = next(p for p in self._seats if p is not None and p.stack > 0)
            self.places[winner.name] = 1
        return tuple(p.name for _, p in out)
