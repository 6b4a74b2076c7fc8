"""Play many hands between agents, on one core, all cores or a cluster, reproducibly.

>>> import holdem
>>> result = holdem.simulate([holdem.RandomAgent(), holdem.CallAgent()], holdem.Game(big_blind=2),
...                          hands=400, seed=1, executor="serial")
>>> result.hands, sum(r.chips for r in result.players) + result.rake
(400, 0)
>>> print(result)  # doctest: +SKIP
400 hands, blinds 1/2, rake 0
  random   +1,234 chips  +154.2 bb/100 (95% CI +/- 98.1)  showdowns 31.0% (won 52.4%)
  call     -1,234 chips  -154.2 bb/100 (95% CI +/- 98.1)  showdowns 31.0% (won 47.6%)

How it works: the ``hands`` are cut into chunks of ``chunk_hands`` (the last one shorter). Chunk
``i`` is a cash :class:`holdem.Table` seeded with ``chunk_seed(seed, i)`` where the agents sit in
an order rotated by ``i`` (so nobody keeps the same neighbours) and every hand starts with each
agent at ``stack`` chips (default 100 big blinds). Agents with a ``spawn(seed)`` method are
re-seeded per chunk from the same seed. Chunk results are integer sums added in chunk order,
so a seed gives bit-identical results on any ``executor`` with any number of workers
(``None``: a local process pool over all cores, ``"serial"``: in-process, or any
``concurrent.futures.Executor``, including a Dask client's ``client.get_executor(pure=False)``).
Agents must be picklable to run in other processes (the built-in agents are).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from holdem._parallel import ExecutorLike, chunk_seed, chunk_sizes, master_seed, open_executor
from holdem._progress import Progress
from holdem.agents import agent_name, resolve_agent
from holdem.errors import InvalidConfigError
from holdem.game import Game, Mode
from holdem.table import Table

__all__ = ["AgentResult", "SimulationResult", "simulate"]

_Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class AgentResult:
    """One agent's results over the simulation.

    ``chips``: net chips won; ``bb_per_100``: big blinds won per 100 hands, with ``ci95`` the
    half-width of its 95% confidence interval (normal approximation over per-hand results);
    ``showdowns``/``showdown_share``: hands that reached a showdown with this agent in it, and
    their share of its hands; ``showdowns_won``: those where it won chips.
    """

    name: str
    hands: int
    chips: int
    bb_per_100: float
    ci95: float
    showdowns: int
    showdown_share: float
    showdowns_won: int

    def __str__(self) -> str:
        won = self.showdowns_won / self.showdowns if self.showdowns else 0.0
        return (f"{self.name:<10} {self.chips:+,} chips  {self.bb_per_100:+.1f} bb/100 "
                f"(95% CI +/- {self.ci95:.1f})  showdowns {100 * self.showdown_share:.1f}% "
                f"(won {100 * won:.1f}%)")


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """Totals and per-agent results (in the order the agents were given)."""

    hands: int
    rake: int
    big_blind: int
    seed: int
    players: tuple[AgentResult, ...]

    def __getitem__(self, name: str) -> AgentResult:
        for r in self.players:
            if r.name == name:
                return r
        raise KeyError(name)

    def __str__(self) -> str:
        head = f"{self.hands:,} hands, big blind {self.big_blind}, rake {self.rake:,}"
        return "\n".join([head, *(f"  {r}" for r in self.players)])


def _named(agents: Sequence[Any] | Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    if isinstance(agents, Mapping):
        names = tuple(str(k) for k in agents)
        objs = tuple(agents.values())
    else:
        objs = tuple(agents)
        base = [agent_name(a) for a in objs]
        names = tuple(b if base.count(b) == 1 else f"{b}{i}" for i, b in enumerate(base))
    if not 2 <= len(objs) <= 10:
        raise InvalidConfigError(f"simulate needs 2 to 10 agents (R1), got {len(objs)}")
    if len(set(names)) != len(names):
        raise InvalidConfigError(f"agent names must be distinct, got {names}")
    for n, a in zip(names, objs, strict=True):
        if resolve_agent(a) is None:
            raise InvalidConfigError(f"agent {n!r} must be callable or have an act() method")
    return names, objs


def _play_chunk(names: tuple[str, ...], agents: tuple[Any, ...], game: Game, hands: int,
                seed: int, index: int, stack: int) -> tuple[int, list[list[int]]]:
    """Play one chunk; returns (rake, per agent [chips, sum of squares, showdowns, won])."""
    n = len(agents)
    table = Table(game, seats=n, seed=seed)
    for k in range(n):
        agent = agents[k]
        spawn = getattr(agent, "spawn", None)
        if callable(spawn):
            agent = spawn(chunk_seed(seed, 1 + k))
        table.sit((k + index) % n, names[k], stack, agent)
    stats = [[0, 0, 0, 0] for _ in range(n)]
    slot = {name: k for k, name in enumerate(names)}
    rake = 0
    for _ in range(hands):
        table._reset_stacks(stack)
        rec = table.play_hand()
        rake += rec.rake
        res = rec.state.result
        order = set(res.showdown_order)
        winners = set(res.winners)
        for i, name in enumerate(rec.names):
            st = stats[slot[name]]
            pay = res.payoffs[i]
            st[0] += pay
            st[1] += pay * pay
            if i in order:
                st[2] += 1
                if i in winners:
                    st[3] += 1
    return rake, stats


def simulate(agents: Sequence[Any] | Mapping[str, Any], game: Game, hands: int = 10_000, *,
             seed: int | None = None, executor: ExecutorLike = None, stack: int | None = None,
             chunk_hands: int = 500, progress: bool | float | None = None) -> SimulationResult:
    """Play ``hands`` hands of ``game`` between ``agents``; see the module docstring.

    - ``agents``: 2 to 10 agents (a sequence, named after each agent's ``name`` attribute or
      class, or a mapping name -> agent).
    - ``game``: a cash :class:`holdem.Game` (blinds, structure, rake...).
    - ``seed``: any int (reduced modulo 2**64, the project's seed rule); ``None`` draws one
      (kept in the result's ``seed`` so the run can be replayed).
    - ``executor``: ``None`` (all cores), ``"serial"`` or any executor (``submit(fn, *args)``).
    - ``stack``: chips each agent starts every hand with (default ``100 * big_blind``).
    - ``chunk_hands``: hands per chunk (part of the result's identity together with ``seed``).
    - ``progress``: progress (count, rate, ETA) on stderr: ``None`` for long runs only (a bar
      on a terminal, else a line every 10 s), ``True`` always, ``False`` never, or a number of
      seconds between progress lines (see :mod:`holdem._progress`).

    Ctrl-C (``KeyboardInterrupt``) cancels the chunks not started and stops a process pool
    made for the call at once. Agents that cannot be pickled (lambdas, local classes) raise
    :class:`InvalidConfigError` on a process pool: use module-level classes or
    ``executor="serial"``.
    """
    names, objs = _named(agents)
    if not isinstance(game, Game):
        raise InvalidConfigError(f"game must be a holdem.Game, got {game!r}")
    if game.mode is not Mode.CASH:
        raise InvalidConfigError("simulate plays cash hands: use a Game with mode=Mode.CASH")
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise InvalidConfigError(f"hands must be an int >= 1, got {hands!r}")
    if isinstance(chunk_hands, bool) or not isinstance(chunk_hands, int) or chunk_hands < 1:
        raise InvalidConfigError(f"chunk_hands must be an int >= 1, got {chunk_hands!r}")
    if stack is None:
        stack = 100 * game.big_blind
    if isinstance(stack, bool) or not isinstance(stack, int) or stack < 10 * game.big_blind:
        raise InvalidConfigError(
            f"stack must be an int of at least 10 big blinds (R35), got {stack!r}")
    kept, master = master_seed(seed)
    sizes = chunk_sizes(hands, chunk_hands)
    tasks = [(names, objs, game, size, chunk_seed(master, i), i, stack)
             for i, size in enumerate(sizes)]
    results: list[tuple[int, list[list[int]]]] = []
    with (open_executor(executor, small=len(tasks) <= 1) as runner,
          Progress("simulate", "hands", hands, progress) as bar):
        for t, result in zip(tasks, runner.imap(_play_chunk, tasks), strict=False):
            results.append(result)
            bar.update(t[3])
    rake = 0
    totals = [[0, 0, 0, 0] for _ in names]
    for r, stats in results:
        rake += r
        for tot, st in zip(totals, stats, strict=True):
            for j in range(4):
                tot[j] += st[j]
    bb = game.big_blind
    out = []
    for name, (chips, sq, sd, won) in zip(names, totals, strict=True):
        mean = chips / hands
        var = (sq - chips * mean) / (hands - 1) if hands > 1 else 0.0
        ci = _Z95 * math.sqrt(max(var, 0.0) / hands) * 100 / bb
        out.append(AgentResult(name, hands, chips, 100 * mean / bb, ci, sd, sd / hands, won))
    return SimulationResult(hands, rake, bb, kept, tuple(out))
