"""Agents: what plays a seat at a :class:`holdem.Table`, and the built-in ones.

An agent is any callable ``agent(observation) -> action`` or any object with a method
``act(observation) -> action``. The action is an :class:`holdem.Action`, PHH text (``"f"``,
``"cc"``, ``"cbr 300"``) or the int code (0 fold, 1 check/call, ``k >= 2`` bet/raise to
``k - 1``). The table validates it; an illegal or malformed answer raises
:class:`holdem.AgentError` naming the agent and the action (the table never fixes it).

The :class:`Observation` holds only what that seat can see: its own hole cards, the board,
stacks, bets, the pot, the legal actions and the public history of the hand.

Agents that draw random numbers should take a ``seed`` and offer ``spawn(seed) -> agent`` (a
fresh copy seeded with ``seed``): :func:`holdem.simulate` uses it to give every chunk of hands
its own stream, so results do not depend on how chunks are spread over workers.

>>> from holdem import Game, Table
>>> table = Table(Game(big_blind=2), seats=3, seed=1)
>>> for seat, agent in enumerate([CallAgent(), RandomAgent(seed=5), EquityAgent(seed=6)]):
...     table.sit(seat, f"p{seat}", 200, agent)
>>> record = table.play_hand()
>>> sum(record.payoffs.values()) + record.rake
0
"""

from __future__ import annotations

import copy
import inspect
import operator
import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple, Protocol, Self, TypeAlias, TypeVar, runtime_checkable

from holdem._eval import evaluate_many
from holdem._ints import int_or_none
from holdem._seeding import resolve_seed, seed_bits
from holdem._shown import fields_repr, literal, shown
from holdem.cards import Card, CardLike, to_card_ids
from holdem.errors import (
    DuplicateCardError,
    IllegalActionError,
    InvalidConfigError,
    InvalidHandError,
    InvalidStateError,
)
from holdem.hand._core import table_loop
from holdem.hand.actions import MAX_CHIPS, Action, ActionType
from holdem.hand.game import HandState
from holdem.hand.records import ActionRecord, LegalActions, Street

__all__ = [
    "MAX_EQUITY_SAMPLES",
    "ActionLike",
    "Agent",
    "AgentLike",
    "CallAgent",
    "CompiledPolicy",
    "EquityAgent",
    "Observation",
    "RandomAgent",
]

ActionLike = Action | str | int

_STREETS = tuple(Street)
_T = TypeVar("_T")
_TYPES = tuple(ActionType)


@runtime_checkable
class Agent(Protocol):
    """An object agent (a plain callable ``(Observation) -> ActionLike`` works too)."""

    def act(self, observation: Observation) -> ActionLike: ...


# The built-in agents declare that they are agents to a type checker (so that a list of them
# is a list[Agent], not a list[object]); at run time they stay plain classes, as before.
if TYPE_CHECKING:
    class DeclaresPolicy(Protocol):
        """An agent that declares a C policy (:meth:`holdem.vector.VectorGame.play` takes
        it); a name for type checkers only."""

        @property
        def compiled_policy(self) -> CompiledPolicy | None: ...

    class _BuiltinAgent(Agent, DeclaresPolicy, Protocol):
        pass

    _AgentBase: TypeAlias = _BuiltinAgent
else:
    _AgentBase = object


class Observation(NamedTuple):
    """What one seat sees when it is to act (an immutable snapshot built by the table).

    Per-hand positions are indexed ``0..n-1`` over the players dealt in (``seats[i]`` is the
    table seat of position ``i``, ``names[i]`` its player): ``stacks``, ``bets`` (this
    street), ``committed`` (this hand) follow that order. ``position`` is this seat's position,
    ``seat`` its table seat. ``button`` is the position of the button (for a dead button, the
    position acting last after the flop). ``history`` lists the actions so far
    (:class:`holdem.ActionRecord`, seats as positions); ``raw_history`` is the same as plain
    ``(seat, street, type, to, amount, all_in)`` int tuples. ``dead_hands``: the positions
    whose hands are dead from the deal (a tournament player sitting out, TDA 30): they posted
    and never act.
    """

    seat: int
    position: int
    player: str
    hole_cards: tuple[Card, ...]
    board: tuple[Card, ...]
    street: Street
    pot: int
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    committed: tuple[int, ...]
    seats: tuple[int, ...]
    names: tuple[str, ...]
    button: int
    legal: LegalActions
    big_blind: int
    hand_number: int
    raw_history: list[tuple[int, int, int, int, int, bool]]
    dead_hands: tuple[int, ...] = ()

    @property
    def history(self) -> tuple[ActionRecord, ...]:
        """The public actions of this hand so far, oldest first."""
        return tuple(ActionRecord(s, _STREETS[st], _TYPES[t], to, amt, ai)
                     for s, st, t, to, amt, ai in self.raw_history)

    @classmethod
    def from_state(cls, state: HandState, hand_number: int = 0) -> Observation:
        """What the seat to act in ``state`` sees: to play an agent outside a
        :class:`holdem.Table` (positions are the hand's seats, players ``p0``, ``p1``, ...)."""
        if not isinstance(state, HandState):
            raise InvalidStateError(f"state must be a holdem.HandState, got {shown(state)}")
        if type(hand_number) is not int or not 0 <= hand_number <= MAX_CHIPS:
            raise InvalidConfigError(f"hand_number must be an int 0..2**53, got {shown(hand_number)}")
        seat = state.actor
        if seat is None:
            raise IllegalActionError("the hand is over: nobody is to act")
        n = state.num_players
        return cls(
            seat=seat, position=seat, player=f"p{seat}",
            hole_cards=tuple(state.hole_cards[seat] or ()), board=tuple(state.board),
            street=state.street, pot=state.pot, stacks=tuple(state.stacks),
            bets=tuple(state.bets), committed=tuple(state.committed), seats=tuple(range(n)),
            names=tuple(f"p{s}" for s in range(n)), button=state.button,
            legal=state.legal_actions(), big_blind=state.game.big_blind,
            hand_number=hand_number, raw_history=list(state.raw_history()),
            dead_hands=tuple(state.dead_hands))

    @property
    def to_call(self) -> int:
        """Chips this seat needs to call (0 when it may check)."""
        return self.legal.call

    @property
    def opponents(self) -> int:
        """Players still in the hand besides this one (not folded, no dead hand)."""
        out = {r[0] for r in self.raw_history if r[2] == _FOLD_TYPE}
        out.update(self.dead_hands)
        out.discard(self.position)
        return len(self.seats) - 1 - len(out)

    def __repr__(self) -> str:
        cards = "".join(str(c) for c in self.hole_cards)
        board = "".join(str(c) for c in self.board) or "-"
        return (f"<Observation {self.player!r} seat {self.seat} {cards} board {board} "
                f"{self.street} pot {self.pot} to call {self.legal.call}>")


AgentLike: TypeAlias = Agent | Callable[[Observation], ActionLike]
"""What a :class:`holdem.Table` seat, :func:`holdem.simulate` and :func:`holdem.acpc.play`
take as an agent: an object with ``act(observation)`` or a callable ``(Observation) ->
action``. (A list of agents of different classes, built before the call, needs an annotation,
``agents: list[AgentLike] = [...]``: a type checker infers ``list[object]`` otherwise; a list
of the built-in agents alone is a ``list[Agent]``.)"""


_FOLD_TYPE = int(ActionType.FOLD)


def resolve_agent(agent: object) -> Callable[[Observation], ActionLike] | None:
    """The function to call for ``agent`` (its ``act`` method or itself), or ``None``. A
    class is an agent only through a static or class method ``act`` (its plain ``act`` would
    be called without an instance, and calling the class makes one, not an action)."""
    if isinstance(agent, type) and not isinstance(
            inspect.getattr_static(agent, "act", None), staticmethod | classmethod):
        return None
    if isinstance(agent, RandomAgent | EquityAgent) and "_rng" not in vars(agent):
        return None  # made without its state (a pickle without it): no generator to draw from
    act = getattr(agent, "act", None)
    if callable(act):
        return act  # type: ignore[no-any-return,unused-ignore]
    if callable(agent):
        return agent  # type: ignore[return-value,unused-ignore]
    return None


def not_an_agent_hint(agent: object) -> str:
    """What to give instead of ``agent``, which :func:`resolve_agent` refused: a name or a
    class is not an agent (``""`` for anything else)."""
    if isinstance(agent, type):
        return f" (a class: give an instance, e.g. {agent.__name__}())"
    if isinstance(agent, str):
        return (" (a name is not an agent: give the agent itself, e.g. holdem.CallAgent(), "
                "RandomAgent() or EquityAgent())")
    return ""


def agent_name(agent: object) -> str:
    name = getattr(agent, "name", None)
    if isinstance(name, str):
        return name
    return getattr(agent, "__qualname__", type(agent).__name__)


class CompiledPolicy(NamedTuple):
    """A built-in agent's decision rule as a C policy (``csrc/hd_agents.h``), run inside the
    batched engine (:meth:`holdem.vector.VectorGame.play`, and :func:`holdem.simulate` when
    every agent has one) with no Python call per decision.

    ``kind``: ``"random"``, ``"call"`` or ``"equity"``; ``samples`` and ``raise_at``: the
    equity policy's parameters (:class:`EquityAgent`). An agent declares its policy as its
    ``compiled_policy`` attribute; the built-in agents give ``None`` when a subclass overrides
    how they decide (then the agent plays through its Python ``act``). The C policies draw
    from their own generators (xoshiro256**, one per table and seat or stream), not from the
    agent's :class:`random.Random`: the same rules and distributions, different hands.
    """

    kind: str
    samples: int = 0
    raise_at: float = 0.0

    @property
    def code(self) -> tuple[int, int, float]:
        """``(kind code, samples, raise_at)`` as the engine takes it."""
        return _POLICY_CODES[self.kind], self.samples, self.raise_at

    def __repr__(self) -> str:
        return fields_repr(self)  # (samples of any size: in hex when too long for decimal)


_POLICY_CODES = {"random": 0, "call": 1, "equity": 2}


def _copied(agent: _T) -> _T:
    """A copy of ``agent`` for :meth:`RandomAgent.spawn`: its attributes deep-copied, as a
    worker process's pickled copy holds them (a subclass's list shared by every chunk of a
    :func:`holdem.simulate` run in one process made its results depend on the executor), the
    generator left out (spawn gives the copy its own). Not through the agent's pickling
    methods, which keep only the built-in agents' own fields. Attributes that cannot be
    copied (a lock, a connection) are shared, as :func:`holdem.simulate` shares such agents."""
    new = object.__new__(type(agent))
    memo: dict[int, object] = {}  # one memo: attributes that share an object still do
    for k, v in agent.__dict__.items():
        if k in ("_rng", "_random"):
            continue
        try:
            new.__dict__[k] = copy.deepcopy(v, memo)
        except Exception:  # whatever the attribute raises on copying: shared
            new.__dict__[k] = v
    return new


_RANDOM_FIELDS = frozenset({"seed", "_rng"})
_EQUITY_FIELDS = frozenset({"seed", "samples", "raise_at", "_rng"})

MAX_EQUITY_SAMPLES: int = 1_000_000
"""The most ``samples`` an :class:`EquityAgent` (and the compiled ``"equity"`` policy) takes:
a decision's estimate then has a standard error of 0.05% at most."""


def _fields_fit(agent: object, cls: type, state: dict[str, object],
                fields: frozenset[str]) -> bool:
    """Whether a pickled state has the fields of ``cls`` (and only those for ``cls`` itself;
    a subclass may add its own)."""
    keys = state.keys()
    return keys == fields if type(agent) is cls else fields <= keys and "_random" not in keys


def _decides_as(agent: object, cls: type, *methods: str) -> bool:
    """True when ``agent``'s class decides with ``cls``'s own ``methods`` (not overridden)."""
    kind = type(agent)
    return all(getattr(kind, m) is getattr(cls, m) for m in methods)


class CallAgent(_AgentBase):
    """Always checks or calls (never folds, never raises): a "calling station"."""

    name = "call"

    def act(self, observation: Observation) -> ActionLike:
        return Action.check_or_call()

    @property
    def compiled_policy(self) -> CompiledPolicy | None:
        """The C policy ``"call"`` (None in a subclass that overrides ``act``)."""
        return CompiledPolicy("call") if _decides_as(self, CallAgent, "act") else None

    def __repr__(self) -> str:
        return "CallAgent()"


def _random_act_python(self: RandomAgent, observation: Observation) -> ActionLike:
    """:meth:`RandomAgent.act` in Python, the reference core's (the tests compare the compiled
    one, :func:`holdem.table._loop.random_act`, with it draw for draw)."""
    la = observation.legal
    rnd = self._random
    k = int(rnd() * (1 + la.can_fold + la.can_raise))
    if la.can_fold:
        if k == 0:
            return _FOLD_CODE
        k -= 1
    if k == 0:
        return _CC_CODE
    lo, hi = la.min_to, la.max_to
    assert lo is not None and hi is not None
    return Action(_BET_RAISE, lo + int(rnd() * (hi - lo + 1)))


class RandomAgent(_AgentBase):
    """Picks uniformly among the kinds offered (fold, check/call, bet/raise), and a bet or
    raise size uniformly between the minimum and the maximum (draws are ``int(random() * n)``
    from its own :class:`random.Random`: fast, bias below 2**-40). Seeded: the same seed plays
    the same way (``seed=None`` draws 64 bits and keeps them in ``seed``, as every seed of
    holdem: the agent's play can be replayed)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed = resolve_seed(seed)  # None: 64 bits drawn and kept (a replayable run)
        self._rng = random.Random(seed_bits(seed))
        self._random = self._rng.random

    def __getstate__(self) -> dict[str, object]:
        # a subclass's own attributes travel too (the bound method is rebuilt)
        extra = {k: v for k, v in self.__dict__.items() if k != "_random"}
        return {**extra, "seed": self.seed, "_rng": self._rng}

    def __setstate__(self, state: dict[str, object]) -> None:
        if (type(state) is not dict or not _fields_fit(self, RandomAgent, state, _RANDOM_FIELDS)
                or not isinstance(state["_rng"], random.Random)
                or not (state["seed"] is None or type(state["seed"]) is int)):
            raise InvalidStateError(f"not a valid pickled RandomAgent: {shown(state)}")
        self.__dict__.update(state)
        self._random = self._rng.random

    def spawn(self, seed: int) -> Self:
        """A fresh copy seeded with ``seed`` (of the same class: a subclass keeps its way of
        deciding and copies of its own attributes)."""
        if type(self) is RandomAgent:
            return RandomAgent(seed)  # type: ignore[return-value]
        new = _copied(self)
        new.seed = checked = resolve_seed(seed)
        new._rng = random.Random(seed_bits(checked))
        new._random = new._rng.random
        return new

    # The uniform choice: the Python policy below on the reference core, the same code compiled
    # (holdem.table._loop.random_act, draw for draw the same) with the compiled core; the seam
    # (holdem.hand._core) chose which.
    act = _random_act_python if table_loop is None else table_loop.random_act

    @property
    def compiled_policy(self) -> CompiledPolicy | None:
        """The C policy ``"random"`` (None in a subclass that overrides ``act``)."""
        return CompiledPolicy("random") if _decides_as(self, RandomAgent, "act") else None

    def __repr__(self) -> str:
        if "_rng" not in vars(self):  # made without its state (cls.__new__, a forged pickle)
            return f"<{type(self).__name__} with no state>"
        return f"RandomAgent(seed={literal(self.seed)})"


_FOLD_CODE = 0
_CC_CODE = 1
_BET_RAISE = ActionType.BET_RAISE
if table_loop is not None:  # the compiled policy builds observations' type: give it once
    table_loop.bind(Observation)


class EquityAgent(_AgentBase):
    """Plays by its estimated equity against the players still in the hand.

    The equity is a Monte Carlo estimate (``samples`` deals of the opponents' hands and the
    rest of the board, ranked in one call to the batch evaluator ``holdem.evaluate_many``)
    against ``min(opponents, 3)`` random hands. (``holdem.equity`` gives exact and parallel
    equities, but its per-call setup is too heavy for a decision inside a simulation.) Then: with equity at least ``raise_at`` it bets or raises to about
    two thirds of the pot (within the legal range); with equity at least the pot odds
    (``to_call / (pot + to_call)``) it calls; else it checks or folds. Seeded (``seed=None``
    draws 64 bits and keeps them in ``seed``). ``samples``
    is an int 1..1,000,000 (:data:`MAX_EQUITY_SAMPLES`, as the compiled policy) and
    ``raise_at`` a number, not NaN: anything else raises :class:`holdem.InvalidConfigError`.
    """

    name = "equity"

    def __init__(self, seed: int | None = None, *, samples: int = 48,
                 raise_at: float = 0.65) -> None:
        self.seed = seed = resolve_seed(seed)  # None: 64 bits drawn and kept (a replayable run)
        self.samples = _equity_samples(samples)
        self.raise_at = _equity_raise_at(raise_at)
        self._rng = random.Random(seed_bits(seed))

    def __setstate__(self, state: dict[str, object]) -> None:
        samples = state.get("samples") if type(state) is dict else None
        raise_at = state.get("raise_at") if type(state) is dict else None
        if (type(state) is not dict or not _fields_fit(self, EquityAgent, state, _EQUITY_FIELDS)
                or type(samples) is not int or not 1 <= samples <= MAX_EQUITY_SAMPLES
                or type(raise_at) not in (int, float) or not _valid(_equity_raise_at, raise_at)
                or not isinstance(state["_rng"], random.Random)
                or not (state["seed"] is None or type(state["seed"]) is int)):
            raise InvalidStateError(f"not a valid pickled EquityAgent: {shown(state)}")
        self.__dict__.update(state)

    def spawn(self, seed: int) -> Self:
        """A fresh copy seeded with ``seed`` (of the same class: a subclass keeps its way of
        deciding and copies of its own attributes)."""
        if type(self) is EquityAgent:
            return EquityAgent(seed, samples=self.samples,  # type: ignore[return-value]
                               raise_at=self.raise_at)
        new = _copied(self)
        new.seed = checked = resolve_seed(seed)
        new._rng = random.Random(seed_bits(checked))
        return new

    def equity(self, hole: str | Iterable[CardLike], board: str | Iterable[CardLike],
               opponents: int) -> float:
        """Monte Carlo equity of ``hole`` on ``board`` against ``opponents`` random hands
        (at most 3), ties shared: ``samples`` deals ranked in one batch evaluator call.
        ``hole``: two cards; ``board``: 0, 3, 4 or 5 more, all distinct (as :class:`Card`,
        ids or text); ``opponents``: an int >= 1. Anything else raises a
        :class:`holdem.InvalidHandError` or :class:`holdem.InvalidCardError` naming it.

        >>> agent = EquityAgent(7, samples=400)
        >>> round(agent.equity("AsAh", "Ad7c2s", 1), 1)
        1.0
        """
        hole, board = _equity_cards(hole, board)
        count = int_or_none(opponents)
        if count is None or count < 1:
            raise InvalidHandError(f"opponents must be an int >= 1, got {shown(opponents)}")
        opp = min(count, 3)
        known = {*hole, *board}
        deck = [c for c in range(52) if c not in known]
        m = len(deck)
        need = 5 - len(board)
        draw = need + 2 * opp
        rnd = self._rng.random
        hb = bytes(hole)
        bb = bytes(board)
        rows = bytearray()
        for _ in range(self.samples):
            for k in range(draw):  # partial Fisher-Yates: the first `draw` cards are random
                j = k + int(rnd() * (m - k))
                deck[k], deck[j] = deck[j], deck[k]
            full = bb + bytes(deck[:need])
            rows += hb
            rows += full
            for k in range(need, draw, 2):
                rows.append(deck[k])
                rows.append(deck[k + 1])
                rows += full
        ranks = evaluate_many(rows, n_cards=7)
        per = opp + 1
        score = 0.0
        for i in range(0, len(ranks), per):
            mine = ranks[i]
            best = max(ranks[i + 1:i + per])
            if mine > best:
                score += 1.0
            elif mine == best:
                score += 1.0 / (1 + ranks[i + 1:i + per].count(best))
        return score / self.samples

    def act(self, observation: Observation) -> ActionLike:
        eq = self.equity(observation.hole_cards, observation.board, observation.opponents)
        return equity_decision(eq, self.raise_at, observation.legal,
                               observation.bets[observation.position], observation.pot)

    @property
    def compiled_policy(self) -> CompiledPolicy | None:
        """The C policy ``"equity"`` with this agent's ``samples`` and ``raise_at`` (None in a
        subclass that overrides ``act`` or ``equity``)."""
        if not _decides_as(self, EquityAgent, "act", "equity"):
            return None
        return CompiledPolicy("equity", self.samples, float(self.raise_at))

    def __repr__(self) -> str:
        if "_rng" not in vars(self):  # made without its state (cls.__new__, a forged pickle)
            return f"<{type(self).__name__} with no state>"
        return (f"EquityAgent(seed={literal(self.seed)}, samples={literal(self.samples)}, "
                f"raise_at={self.raise_at})")


def _equity_cards(hole: str | Iterable[CardLike], board: str | Iterable[CardLike]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:meth:`EquityAgent.equity`'s cards as ids: two hole cards and 0, 3, 4 or 5 board
    cards, all distinct; else InvalidHandError (a count) or InvalidCardError (a card)."""
    h = tuple(to_card_ids(hole))
    b = tuple(to_card_ids(board))
    if len(h) != 2:
        raise InvalidHandError(f"hole must be two cards, got {len(h)}")
    if len(b) not in (0, 3, 4, 5):
        raise InvalidHandError(f"board must be 0, 3, 4 or 5 cards, got {len(b)}")
    if not set(h).isdisjoint(b):
        raise DuplicateCardError(f"{Card(next(c for c in h if c in b))} is both a hole card "
                                 "and on the board")
    return h, b


def _equity_samples(samples: object) -> int:
    """``samples`` of an :class:`EquityAgent` as a plain int 1..MAX_EQUITY_SAMPLES, else
    InvalidConfigError."""
    if not isinstance(samples, bool):
        try:
            value = operator.index(samples)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if 1 <= value <= MAX_EQUITY_SAMPLES:
                return value
    raise InvalidConfigError(
        f"samples must be an int 1..{MAX_EQUITY_SAMPLES:,} (a standard error of 0.05% at the "
        f"most; more only costs time and memory), got {shown(samples)}")


def _valid(check: Callable[[object], object], value: object) -> bool:
    """Whether ``check(value)`` accepts ``value`` (raises no InvalidConfigError)."""
    try:
        check(value)
    except InvalidConfigError:
        return False
    return True


def _equity_raise_at(raise_at: object) -> float:
    """``raise_at`` of an :class:`EquityAgent`: a real number, not NaN, that a float holds
    (as given when it is a plain int or float, else as a float), else InvalidConfigError."""
    if isinstance(raise_at, int | float) and not isinstance(raise_at, bool) \
            and raise_at == raise_at:
        try:
            as_float = float(raise_at)  # (the compiled policy takes a double)
        except OverflowError:
            raise InvalidConfigError(f"raise_at must be a number a float can hold (an equity "
                                     f"to compare with, 0..1), got {shown(raise_at)}") from None
        return raise_at if type(raise_at) in (int, float) else as_float
    raise InvalidConfigError(f"raise_at must be a number (not NaN), got {shown(raise_at)}")


def equity_decision(equity: float, raise_at: float, legal: LegalActions, bet: int,
                    pot: int) -> ActionLike:
    """:class:`EquityAgent`'s rule (the C policy ``"equity"`` applies the same): with
    ``equity`` at least ``raise_at`` bet or raise to ``bet + call + 2/3 pot`` (clamped to the
    legal range); else check when free; else call when ``equity`` reaches the pot odds
    ``call / (pot + call)``; else fold. ``bet``: the seat's bet this street; ``pot``: every
    chip in the middle."""
    la = legal
    if la.can_raise and equity >= raise_at:
        assert la.min_to is not None and la.max_to is not None
        target = bet + la.call + (2 * pot) // 3
        return Action(ActionType.BET_RAISE, min(max(target, la.min_to), la.max_to))
    if la.can_check:
        return _CC_CODE
    odds = la.call / (pot + la.call)
    return _CC_CODE if equity >= odds else _FOLD_CODE
