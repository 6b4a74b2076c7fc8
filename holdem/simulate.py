"""Play many hands between agents, on one core, all cores or a cluster, reproducibly.

>>> import holdem
>>> result = holdem.simulate([holdem.RandomAgent(), holdem.CallAgent()], holdem.Game(big_blind=2),
...                          hands=400, seed=1, executor="serial")
>>> result.hands, sum(r.chips for r in result.players) + result.rake
(400, 0)
>>> print(result)
400 hands, big blind 2, rake 0
  random     -2,783 chips  -347.9 bb/100 (95% CI +/- 650.8)  showdowns 82.8% (won 53.2%)
  call       +2,783 chips  +347.9 bb/100 (95% CI +/- 650.8)  showdowns 82.8% (won 52.0%)

How it works: the ``hands`` are cut into chunks of ``chunk_hands`` (the last one shorter). Chunk
``i`` is a cash :class:`holdem.Table` seeded with ``chunk_seed(seed, i)`` where the agents sit in
an order rotated by ``i`` (so nobody keeps the same neighbours) and every hand starts with each
agent at ``stack`` chips (default 100 big blinds). Agents with a ``spawn(seed)`` method are
re-seeded per chunk from the same seed; every other agent plays each chunk as a copy of the
agent given (``copy.deepcopy``, as a worker process gets a pickled copy), so what an agent
learns or draws in one chunk does not carry into the next on any executor (an agent that
cannot be copied is shared by the chunks: its results then depend on their order). Chunk
results are integer sums added in chunk order, so a seed gives bit-identical results on any
``executor`` with any number of workers
(``None``: a local process pool over all cores, ``"serial"``: in-process, or any
``concurrent.futures.Executor``, including a Dask client's ``client.get_executor(pure=False)``).
Agents must be picklable to run in other processes (the built-in agents are).

Two engines (``engine=``, ``result.engine``): when every agent declares a compiled policy
(``agent.compiled_policy``: the built-in agents do) and ``stats`` is off, each chunk is one
table of :meth:`holdem.vector.VectorGame.play` seeded with the chunk's seed: the hands are
played in C, the agents' rules as C policies (each agent with its own generator in every
seating), about 50 times faster. Otherwise (any agent deciding in Python, or ``stats=True``,
whose statistics need every hand's history) the chunks are Tables as above. The batched engine
deals its own cards and its policies draw from C generators, so the two engines play different
hands from one seed: the same rules and distributions, each deterministic on any executor.

Duplicate matches (``duplicate=True``, the method of the Annual Computer Poker Competition):
each of the ``hands`` deals is played once for every seating of the agents, on a table seeded
the same way, so every seat gets the same cards, button and board in each seating and the luck
of the deal cancels. ``duplicate=True`` (or ``"rotations"``) uses the ``k`` rotations of ``k``
agents, ``"permutations"`` all ``k!`` orders (a chunk of more than 65,536 hands is played as
several tasks, each a range of its seatings: the same result, on every core, with progress).
``result.hands`` counts the hands played (deals times seatings); each agent's
``duplicate_bb_per_100`` and ``duplicate_ci95`` come from its average over the seatings of
each deal, one number per deal, so the interval measures skill rather than the cards:

>>> dup = holdem.simulate([holdem.RandomAgent(), holdem.CallAgent()], holdem.Game(big_blind=2),
...                       hands=200, seed=1, executor="serial", duplicate=True)
>>> dup.hands, dup.deals, dup.seatings
(400, 200, 2)
>>> r = dup["call"]
>>> r.duplicate_ci95 < r.ci95
True
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from holdem._ints import int_or_none
from holdem._parallel import (
    ExecutorLike,
    chunk_seed,
    iter_chunk_sizes,
    master_seed,
    open_executor,
)
from holdem._pickling import frozen_slots
from holdem._progress import Progress
from holdem._shown import excerpt, fields_repr, shown
from holdem.errors import InvalidConfigError
from holdem.hand.actions import MAX_CHIPS
from holdem.hand.game import Game, Mode
from holdem.stats import PlayerStats, Stats
from holdem.table.agents import (
    AgentLike,
    CompiledPolicy,
    agent_name,
    not_an_agent_hint,
    resolve_agent,
)
from holdem.table.table import Table

__all__ = ["MAX_CHUNK_HANDS", "AgentResult", "SimulationResult", "simulate"]

_CURVE_POINTS = 10_000  # the most points SimulationResult.curve keeps

MAX_CHUNK_HANDS: int = 1_000_000
"""The most hands (deals) a chunk of :func:`simulate` takes: progress lines, Ctrl-C and a
process pool's share of the work go by chunks, and a duplicate chunk keeps every deal's
payoffs (a chunk of 10**10 hands played for an hour without a progress line, and a duplicate
one of 10**8 filled 4 GB before a bare ``MemoryError``)."""

_Z95 = 1.959963984540054


@frozen_slots
@dataclass(frozen=True, slots=True)
class AgentResult:
    """One agent's results over the simulation.

    ``chips``: net chips won; ``bb_per_100``: big blinds won per 100 hands, with ``ci95`` the
    half-width of its 95% confidence interval (normal approximation over per-hand results);
    ``showdowns``/``showdown_share``: hands that reached a showdown with this agent in it, and
    their share of its hands; ``showdowns_won``: those where it won chips.
    ``duplicate_bb_per_100``/``duplicate_ci95``: with ``simulate(duplicate=...)``, the mean over
    deals of the agent's average result over the seatings of each deal (the same mean as
    ``bb_per_100``) and the half-width of its 95% interval over deals; ``None`` otherwise.
    Fewer than 2 hands (deals) have no spread to measure: the interval is then 0.0, and the
    text shows ``n/a``.
    """

    name: str
    hands: int
    chips: int
    bb_per_100: float
    ci95: float
    showdowns: int
    showdown_share: float
    showdowns_won: int
    duplicate_bb_per_100: float | None = None
    duplicate_ci95: float | None = None

    def __str__(self) -> str:
        return self._text(None)

    def _text(self, deals: int | None) -> str:
        """The line of :meth:`__str__`; ``deals``: a duplicate run's deals, when known."""
        won = self.showdowns_won / self.showdowns if self.showdowns else 0.0
        dup = ""
        if self.duplicate_bb_per_100 is not None and self.duplicate_ci95 is not None:
            ci = "n/a" if deals is not None and deals < 2 else f"{self.duplicate_ci95:.1f}"
            dup = f"  duplicate {self.duplicate_bb_per_100:+.1f} bb/100 (95% CI +/- {ci})"
        ci = f"{self.ci95:.1f}" if self.hands >= 2 else "n/a"
        return (f"{self.name:<10} {self.chips:+,} chips  {self.bb_per_100:+.1f} bb/100 "
                f"(95% CI +/- {ci}){dup}  showdowns "
                f"{100 * self.showdown_share:.1f}% (won {100 * won:.1f}%)")


@frozen_slots
@dataclass(frozen=True, slots=True)
class SimulationResult:
    """Totals and per-agent results (in the order the agents were given).

    ``hands``: hands played; ``deals``: distinct deals (``hands`` divided by ``seatings``, the
    number of seatings each deal was played in: 1 unless ``duplicate``); ``chunk_hands``: the
    deals per chunk. ``curve`` and ``stats`` (large) are neither shown by ``repr()`` nor
    compared: ``eval(repr(result)) == result``.
    """

    hands: int
    rake: int
    big_blind: int
    seed: int
    players: tuple[AgentResult, ...]
    deals: int = 0
    seatings: int = 1
    chunk_hands: int = 500
    curve: tuple[tuple[int, tuple[int, ...]], ...] = dataclasses.field(default=(), repr=False,
                                                                      compare=False)
    """The points of a winnings chart: (deals played, each agent's chips won so far), every
    tenth of a chunk (every deal of a chunk under 20) and at its end
    (:func:`holdem.charts.simulation_chart`). A run of more than 10,000 such points keeps
    every k-th of them and the last, k the least that leaves at most 10,000."""
    stats: tuple[PlayerStats, ...] | None = dataclasses.field(default=None, repr=False,
                                                               compare=False)
    """With ``simulate(stats=True)``: each agent's :class:`holdem.PlayerStats`."""
    engine: str = "table"
    """Where the hands were played: ``"batched"`` (compiled policies in the batched engine)
    or ``"table"`` (:class:`holdem.Table` with the agents' Python ``act``)."""

    def __getitem__(self, name: str) -> AgentResult:
        for r in self.players:
            if r.name == name:
                return r
        raise KeyError(name)

    def __repr__(self) -> str:
        return fields_repr(self)  # (a seed of any size: in hex when too long for decimal)

    def __str__(self) -> str:
        head = f"{self.hands:,} hands, big blind {self.big_blind}, rake {self.rake:,}"
        if self.seatings > 1:
            head += (f" (duplicate: {self.deals:,} deal{'s' if self.deals != 1 else ''} x "
                     f"{self.seatings} seatings)")
        deals = self.deals if self.seatings > 1 else None
        return "\n".join([head, *(f"  {r._text(deals)}" for r in self.players)])


def _named(agents: Sequence[Any] | Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    if isinstance(agents, Mapping):
        names = tuple(str(k) for k in agents)
        objs = tuple(agents.values())
    else:
        if isinstance(agents, str | bytes) or not hasattr(agents, "__iter__"):
            raise InvalidConfigError(f"agents must be a list of agents or a mapping of names "
                                     f"to agents, got {excerpt(agents)}")
        objs = tuple(agents)
        base = [agent_name(a) for a in objs]
        names = tuple(b if base.count(b) == 1 else f"{b}{i}" for i, b in enumerate(base))
    if not 2 <= len(objs) <= 10:
        raise InvalidConfigError(f"simulate needs 2 to 10 agents (R1), got {len(objs)}")
    if len(set(names)) != len(names):
        raise InvalidConfigError(f"agent names must be distinct, got {names}")
    for n, a in zip(names, objs, strict=True):
        if resolve_agent(a) is None:
            raise InvalidConfigError(f"agent {n!r} must be callable or have an act() method, "
                                     f"got {excerpt(a)}{not_an_agent_hint(a)}")
    return names, objs


_Points = list[tuple[int, tuple[int, ...]]]
# (rake, per agent [chips, sum of squares, showdowns, won], the statistics or None, the curve
# points, and for a duplicate task each agent's chips per deal summed over its seatings)
_ChunkResult = tuple[int, list[list[int]], Stats | None, _Points, list[list[int]] | None]

# A duplicate chunk of more hands than this (deals x seatings) is played as several tasks, each
# a range of the seatings (so 8 or 10 agents in every permutation still use every core and
# report progress); every seating replays the chunk's deals from its seed, so the split does
# not change what is played.
_TASK_HANDS = 1 << 16


_A = TypeVar("_A")


def _copy(agent: _A) -> _A:
    """A chunk's copy of an agent without ``spawn`` (the agent itself if it cannot be copied:
    a lock, a connection...)."""
    try:
        return copy.deepcopy(agent)
    except Exception:  # whatever the agent's state raises on copying
        return agent


def _play_chunk(names: tuple[str, ...], agents: tuple[Any, ...], game: Game, hands: int,
                seed: int, index: int, stack: int, *,
                seatings: tuple[tuple[int, ...], ...] | None = None,
                collect: bool = False) -> _ChunkResult:
    """Play one chunk; returns (rake, per agent [chips, sum of squares, showdowns, won], the
    players' statistics when ``collect``, the curve points: (deals played in the chunk, each
    agent's chips so far) every tenth of the chunk, None). Agent ``k`` sits in seat
    ``(k + index) % n``.

    A duplicate task (``seatings`` given: some or all of the seatings) plays the same
    ``hands`` deals once per seating: every seating uses a table seeded with ``seed``, so hand
    ``h`` deals the same cards and button to the same seats whoever sits there; seating ``s``
    puts agent ``k`` in seat ``(s[k] + index) % n``. It returns no curve points but each
    agent's chips per deal summed over these seatings (the caller adds up the tasks of a
    chunk, then :func:`_deal_points`).
    """
    acc = Stats(allin_adjusted=False) if collect else None
    n = len(agents)
    dup = seatings is not None
    deal = [[0] * hands for _ in range(n)] if dup else []
    stats = [[0] * 4 for _ in range(n)]
    slot = {name: k for k, name in enumerate(names)}
    rake = 0
    step = max(1, hands // 10)
    points: list[tuple[int, tuple[int, ...]]] = []
    for seating in seatings if seatings is not None else (tuple(range(n)),):
        table = Table(game, seats=n, seed=seed)
        for k in range(n):
            agent = agents[k]
            spawn = getattr(agent, "spawn", None)
            agent = spawn(chunk_seed(seed, 1 + k)) if callable(spawn) else _copy(agent)
            table.sit((seating[k] + index) % n, names[k], stack, agent)
        for h in range(hands):
            table._reset_stacks(stack)
            rec = table.play_hand()
            rake += rec.rake
            res = rec.state.result
            if acc is not None:
                acc.add_state(rec.state, rec.names)
            order = set(res.showdown_order)
            winners = set(res.winners)
            for i, name in enumerate(rec.names):
                k = slot[name]
                st = stats[k]
                pay = res.payoffs[i]
                st[0] += pay
                st[1] += pay * pay
                if dup:
                    deal[k][h] += pay
                if i in order:
                    st[2] += 1
                    if i in winners:
                        st[3] += 1
            if not dup and ((h + 1) % step == 0 or h + 1 == hands):
                points.append((h + 1, tuple(st[0] for st in stats)))
    return rake, stats, acc, points, deal if dup else None


def _deal_points(deal: list[list[int]], stats: list[list[int]],
                 step: int) -> list[tuple[int, tuple[int, ...]]]:
    """A duplicate chunk's curve from each agent's deal totals (``deal[k][h]``: its chips in
    deal ``h`` summed over the seatings); also appends to each agent's row the sum of its
    deal totals and the sum of their squares."""
    n, hands = len(deal), len(deal[0])
    points = []
    run = [0] * n
    for h in range(hands):
        for k in range(n):
            run[k] += deal[k][h]
        if (h + 1) % step == 0 or h + 1 == hands:
            points.append((h + 1, tuple(run)))
    for k in range(n):
        stats[k] += [sum(deal[k]), sum(d * d for d in deal[k])]
    return points


def _play_chunk_batched(names: tuple[str, ...], policies: tuple[CompiledPolicy, ...],
                        game: Game, hands: int, seed: int, index: int, stack: int, *,
                        seatings: tuple[tuple[int, ...], ...] | None = None) -> _ChunkResult:
    """:func:`_play_chunk` on the batched engine: the chunk is one table of a
    :class:`holdem.vector.VectorGame` seeded with ``seed``, played to the end by the agents'
    compiled policies (agent ``k`` in seat ``(s[k] + index) % n`` of each seating ``s``, so a
    duplicate chunk deals the same cards to the same seats in every seating). Same result
    layout; no statistics."""
    from holdem.vector import VectorGame

    n = len(policies)
    game = _batched_game(game, n)
    dup = seatings is not None
    stats = [[0] * 4 for _ in range(n)]
    deal = [[0] * hands for _ in range(n)] if dup else []  # (a plain run keeps no deal)
    step = max(1, hands // 10)
    env = VectorGame(game, num_tables=1, players=n, stacks=stack, seed=seed)
    rake = 0
    points: list[tuple[int, tuple[int, ...]]] = []
    for seating in seatings if seatings is not None else (tuple(range(n)),):
        seat = [(seating[k] + index) % n for k in range(n)]
        by_seat = list(policies)
        streams = list(range(n))
        for k in range(n):  # agent k keeps its own random stream whatever its seat
            by_seat[seat[k]] = policies[k]
            streams[seat[k]] = k
        res = env.play(hands, by_seat, curve_every=step, keep_hands=dup, streams=streams)
        rake += int(res.rake[0])
        pay, sq, sd, won = (a.tolist()[0] for a in (res.payoffs, res.squares, res.showdowns,
                                                     res.showdowns_won))
        for k in range(n):
            s, st = seat[k], stats[k]
            st[0] += pay[s]
            st[1] += sq[s]
            st[2] += sd[s]
            st[3] += won[s]
        if dup:
            rows = res.hand_payoffs.tolist()[0]
            for k in range(n):
                s, d = seat[k], deal[k]
                for h in range(hands):
                    d[h] += rows[h][s]
        else:
            curve = res.curve.tolist()[0]
            points = [(h, tuple(curve[j][seat[k]] for k in range(n)))
                      for j, h in enumerate(res.curve_hands)]
    return rake, stats, None, points, deal if dup else None


def _batched_game(game: Game, players: int) -> Game:
    """The game a batched chunk plays: ``game``, without a straddle heads-up (R8: there is
    none with two players, as a :class:`holdem.Table` deals it; the batched engine refuses
    one)."""
    if game.straddle and players < 3:
        return dataclasses.replace(game, straddle=False)
    return game


def _batched_refusal(game: Game, players: int, stack: int) -> str | None:
    """Why the batched engine cannot play ``game`` at ``players`` seats of ``stack`` chips
    (e.g. stacks the forced bets put all in before anybody acts, which a Table plays but
    whose batched tables would deal forever), or None when it can."""
    from holdem.vector import VectorGame

    try:
        VectorGame(_batched_game(game, players), num_tables=1, players=players, stacks=stack,
                   seed=0).close()
    except InvalidConfigError as e:
        return str(e)
    return None


def _batched_fits(hands: int, chips: int) -> bool:
    """Whether one chunk of ``hands`` hands at a table of ``chips`` chips fits a
    :meth:`holdem.vector.VectorGame.play` call (fresh stacks every hand)."""
    from holdem._vector import play_fits

    return bool(play_fits(hands, chips, False))


def _compiled(objs: tuple[Any, ...]) -> tuple[CompiledPolicy, ...] | None:
    """Every agent's compiled policy, or None when one has none (it plays in Python)."""
    if not all(isinstance(getattr(a, "compiled_policy", None), CompiledPolicy) for a in objs):
        return None  # without importing the batched engine (and numpy, when installed)
    from holdem.vector import compiled_policy

    out = tuple(compiled_policy(a) for a in objs)
    return None if any(p is None for p in out) else out  # type: ignore[return-value]


def _uncompiled(name: str, agent: object) -> str:
    """``name``, and why the engine cannot run the compiled policy the agent declares (when
    it declares one: ``EquityAgent(samples=2_000_000)`` does, beyond the engine's limit)."""
    declared = getattr(agent, "compiled_policy", None)
    if not isinstance(declared, CompiledPolicy):
        return name
    from holdem.vector import _policy_problem

    problem = _policy_problem(declared)
    return name if problem is None else f"{name} (its compiled policy: {problem})"


def _seating_kind(duplicate: object) -> str | None:
    """``None`` (no duplicate), ``"rotations"`` or ``"permutations"``."""
    if duplicate is False:
        return None
    if duplicate is True or duplicate == "rotations":
        return "rotations"
    if duplicate == "permutations":
        return "permutations"
    raise InvalidConfigError(
        f"duplicate must be False, True, 'rotations' or 'permutations', got {excerpt(duplicate)}")


def _seating_count(kind: str | None, n: int) -> int:
    """How many seatings each deal is played in: 1, ``n`` rotations or ``n!`` orders."""
    return 1 if kind is None else n if kind == "rotations" else math.factorial(n)


def _seating(kind: str | None, n: int, j: int) -> tuple[int, ...]:
    """Seating ``j`` (``0 <= j < _seating_count(kind, n)``) as each agent's seat offset: the
    ``j``-th rotation, or the ``j``-th order of ``itertools.permutations(range(n))``
    (lexicographic: ``j`` read in the factorial number system), built without the others."""
    if kind is None:
        return tuple(range(n))
    if kind == "rotations":
        return tuple((k + j) % n for k in range(n))
    left = list(range(n))
    out = []
    for k in range(n - 1, -1, -1):
        q, j = divmod(j, math.factorial(k))
        out.append(left.pop(q))
    return tuple(out)


def _duplicate_task(play: Callable[..., _ChunkResult], kind: str, lo: int, hi: int,
                    *args: Any) -> _ChunkResult:
    """``play(*args)`` for seatings ``lo..hi-1`` of a duplicate chunk (built in the worker)."""
    n = len(args[0])
    return play(*args, seatings=tuple(_seating(kind, n, j) for j in range(lo, hi)))


def _seating_groups(size: int, m: int) -> int:
    """How many tasks play a duplicate chunk of ``size`` deals and ``m`` seatings: one per
    ``_TASK_HANDS`` hands or fewer, at most one per seating."""
    return min(m, max(1, -(-size * m // _TASK_HANDS)))


def _chunk_points(size: int) -> int:
    """The curve points of a chunk of ``size`` hands (deals): one every ``max(1, size // 10)``
    and its last (up to 19 for a chunk under 20)."""
    return -(-size // max(1, size // 10))


def _ci95(total: int, squares: int, count: int) -> float:
    """Half-width of the 95% interval of the mean of ``count`` values (normal approximation)."""
    if count < 2:
        return 0.0
    mean = total / count
    var = (squares - total * mean) / (count - 1)
    return _Z95 * math.sqrt(max(var, 0.0) / count)


def simulate(agents: Sequence[AgentLike] | Mapping[str, AgentLike], game: Game,
             hands: int = 10_000, *,
             seed: int | None = None, executor: ExecutorLike = None, stack: int | None = None,
             chunk_hands: int = 500, progress: bool | float | None = None,
             duplicate: bool | str = False, stats: bool = False,
             engine: str = "auto") -> SimulationResult:
    """Play ``hands`` hands of ``game`` between ``agents``; see the module docstring.

    - ``agents``: 2 to 10 agents (a sequence, named after each agent's ``name`` attribute or
      class, or a mapping name -> agent).
    - ``game``: a cash :class:`holdem.Game` (blinds, structure, rake...).
    - ``seed``: any int (reduced modulo 2**64, the project's seed rule); ``None`` draws one
      (kept in the result's ``seed`` so the run can be replayed).
    - ``executor``: ``None`` (all cores), ``"serial"`` or any executor (``submit(fn, *args)``).
    - ``stack``: chips each agent starts every hand with (default ``100 * big_blind``).
    - ``chunk_hands``: hands per chunk, 1..1,000,000 (:data:`MAX_CHUNK_HANDS`; part of the
      result's identity together with ``seed``).
    - ``progress``: progress (count, rate, ETA) on stderr: ``None`` for long runs only (a bar
      on a terminal, else a line every 10 s), ``True`` always, ``False`` never, or a number of
      seconds between progress lines (see :mod:`holdem._progress`).
    - ``duplicate``: ``True`` or ``"rotations"`` plays each of the ``hands`` deals once per
      rotation of the agents over the seats, ``"permutations"`` once per order of the agents
      (see the module docstring); ``chunk_hands`` then counts deals.
    - ``stats``: collect each agent's playing statistics (VPIP, PFR, aggression...: see
      :mod:`holdem.stats`) in the workers, as the result's ``stats``.
    - ``engine``: ``"auto"`` (default) plays on the batched engine when every agent has a
      compiled policy, ``stats`` is off and a chunk fits its int64 sums of squared payoffs
      (``chunk_hands * (players * stack) ** 2 < 2**63``: 6 trillion hands at 6 players of
      200 chips) and the batched engine takes the game and stacks (not when the forced bets
      can put every seat all in before anybody acts), else on Tables; ``"batched"`` requires
      it;
      ``"table"`` always plays on Tables (see the module docstring).

    Ctrl-C (``KeyboardInterrupt``) cancels the chunks not started and stops a process pool
    made for the call at once. Agents that cannot be pickled (lambdas, local classes) raise
    :class:`InvalidConfigError` on a process pool: use module-level classes or
    ``executor="serial"``.
    """
    names, objs = _named(agents)
    if not isinstance(game, Game):
        raise InvalidConfigError(f"game must be a holdem.Game, got {excerpt(game)}")
    if game.mode is not Mode.CASH:
        raise InvalidConfigError("simulate plays cash hands: use a Game with mode=Mode.CASH")
    count = int_or_none(hands)
    if count is None or not 1 <= count <= 1 << 53:
        raise InvalidConfigError(f"hands must be an int 1..2**53, got {excerpt(hands)}")
    chunk = int_or_none(chunk_hands)
    if chunk is None or not 1 <= chunk <= MAX_CHUNK_HANDS:
        raise InvalidConfigError(
            f"chunk_hands must be an int 1..{MAX_CHUNK_HANDS:,} (progress, Ctrl-C and the "
            f"memory of a duplicate chunk go by chunks), got {excerpt(chunk_hands)}")
    chips = 100 * game.big_blind if stack is None else int_or_none(stack)
    if chips is None or chips < 10 * game.big_blind:
        raise InvalidConfigError(
            f"stack must be an int of at least 10 big blinds (R35), got {excerpt(stack)}")
    if chips * len(objs) > MAX_CHIPS:  # (all of them may end in one stack)
        raise InvalidConfigError(
            f"stack {shown(chips)} for {len(objs)} agents puts {shown(chips * len(objs))} chips "
            f"on the table, above the engine's limit of 2**53: give at most "
            f"{MAX_CHIPS // len(objs)}")
    hands, chunk_hands, stack = count, chunk, chips
    if engine not in ("auto", "batched", "table"):
        raise InvalidConfigError(f"engine must be 'auto', 'batched' or 'table', got {excerpt(engine)}")
    if stats is not True and stats is not False:  # ("no" is not False)
        raise InvalidConfigError(f"stats must be True or False, got {excerpt(stats)}")
    kind = _seating_kind(duplicate)
    m = _seating_count(kind, len(objs))
    policies = None if engine == "table" or stats else _compiled(objs)
    if engine == "batched" and policies is None:
        missing = [_uncompiled(n, a) for n, a in zip(names, objs, strict=True)
                   if _compiled((a,)) is None]
        raise InvalidConfigError(
            "engine='batched' needs stats=False (the statistics need full hand histories)"
            if not missing else "engine='batched' needs a compiled policy for every agent; "
            "agents without one: " + ", ".join(missing))
    chunks = -(-hands // chunk_hands)
    biggest = min(chunk_hands, hands)  # the size of every chunk but a shorter last one
    if policies is not None and not _batched_fits(biggest, len(objs) * stack):
        if engine == "batched":
            raise InvalidConfigError(
                f"engine='batched' cannot play chunks of {biggest} hands with {stack} chips a "
                f"seat (its int64 sums of squared payoffs could overflow): give a smaller "
                f"chunk_hands or stack, or engine='table'")
        policies = None  # "auto": the tables play it
    refusal = None if policies is None else _batched_refusal(game, len(objs), stack)
    if refusal is not None:
        if engine == "batched":
            raise InvalidConfigError(f"engine='batched' cannot play this game: {refusal}")
        policies = None  # "auto": the tables play it
    play: Callable[..., _ChunkResult] = _play_chunk if policies is None else _play_chunk_batched
    if stats:
        play = functools.partial(play, collect=True)
    if kind is not None:
        play = functools.partial(_duplicate_task, play, kind)
    kept, master = master_seed(seed)

    def plan() -> Iterator[tuple[int, int, int, int]]:
        """(chunk, deals, first seating, end seating) of every task, in order."""
        for i, size in enumerate(iter_chunk_sizes(hands, chunk_hands)):
            g = _seating_groups(size, m)
            for j in range(g):
                yield i, size, m * j // g, m * (j + 1) // g

    def task(i: int, size: int, lo: int, hi: int) -> tuple[Any, ...]:
        head = () if kind is None else (lo, hi)
        return (*head, names, objs if policies is None else policies, game, size,
                chunk_seed(master, i), i, stack)

    last = hands - (chunks - 1) * chunk_hands
    tasks = (chunks - 1) * _seating_groups(chunk_hands, m) + _seating_groups(last, m)
    # the results are added up as they come, in task order (never all held: a long run's
    # memory does not grow with its chunks); the curve keeps every stride-th point
    all_points = (chunks - 1) * _chunk_points(chunk_hands) + _chunk_points(last)
    stride = max(1, -(-all_points // _CURVE_POINTS))
    rake = 0
    totals = [[0] * (4 if kind is None else 6) for _ in names]
    merged = Stats(allin_adjusted=False) if stats else None
    curve: list[tuple[int, tuple[int, ...]]] = []
    done = 0
    seen = 0  # curve points so far, kept or not
    base = (0,) * len(names)
    # a duplicate chunk's tasks, added up until its last one: per agent its 4 sums, its chips
    # per deal
    rows: list[list[int]] = []
    deal: list[list[int]] = []
    with (open_executor(executor, small=tasks <= 1) as runner,
          Progress("simulate", "hands", hands * m, progress) as bar):
        for (_, size, lo, hi), (r, per_agent, acc, points, by_deal) in zip(
                plan(), runner.imap(play, itertools.starmap(task, plan())), strict=True):
            rake += r
            if merged is not None and acc is not None:
                merged.merge(acc)
            bar.update(size * (hi - lo))
            if by_deal is not None:
                if lo == 0:
                    rows, deal = per_agent, by_deal
                else:
                    for row, more, d, d_more in zip(rows, per_agent, deal, by_deal, strict=True):
                        for j in range(4):
                            row[j] += more[j]
                        for h in range(size):
                            d[h] += d_more[h]
                if hi < m:
                    continue
                per_agent = rows
                points = _deal_points(deal, rows, max(1, size // 10))
            end = len(points) - 1
            for j, (d_, so_far) in enumerate(points):
                seen += 1
                if seen % stride == 0 or (j == end and done + size == hands):
                    curve.append((done + d_, tuple(b + c for b, c in zip(base, so_far,
                                                                           strict=True))))
            base = tuple(b + c for b, c in zip(base, points[-1][1], strict=True))
            done += size
            for tot, st in zip(totals, per_agent, strict=True):
                for j in range(len(tot)):
                    tot[j] += st[j]
    bb = game.big_blind
    played = hands * m
    out = []
    for name, tot in zip(names, totals, strict=True):
        chips, sq, sd, won = tot[:4]
        ci = _ci95(chips, sq, played) * 100 / bb
        dup_mean = dup_ci = None
        if kind is not None:
            # one value per deal: the agent's total over the seatings, divided by m
            dup_mean = 100 * tot[4] / played / bb
            dup_ci = _ci95(tot[4], tot[5], hands) / m * 100 / bb
        out.append(AgentResult(name, played, chips, 100 * (chips / played) / bb, ci, sd,
                               sd / played, won, dup_mean, dup_ci))
    player_stats = None
    if merged is not None:
        player_stats = tuple(merged[name] for name in names)
    return SimulationResult(played, rake, bb, kept, tuple(out), hands, m, chunk_hands,
                            tuple(curve), player_stats,
                            "table" if policies is None else "batched")
