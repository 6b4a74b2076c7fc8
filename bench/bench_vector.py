"""Batched self-play (holdem.vector.VectorGame) against the one-decision-per-call loops.

Workload: 6-max no-limit 1/2 at 100 big blinds (200 chips), fresh stacks every hand.

- ``test_vector_random_1_thread`` / ``_2_threads``: N = 4,096 tables, the policy a uniform
  random choice among the legal columns of the default layout, written in numpy over the whole
  batch (its time counted): ``argmax(random(N, A) * legal_mask)``.
- ``test_handstate_loop``: :class:`holdem.HandState` with ``apply_unchecked`` and the inline
  uniform policy of ``bench_table.bare_hands`` (one Python call per decision).
- ``test_table_python_agent``: a :class:`holdem.Table` of six Python agents (the pure-Python
  uniform policy of :class:`holdem.RandomAgent`, not its compiled twin).
- ``test_vector_mlp`` / ``test_table_mlp``: a small numpy MLP (observation -> 128 -> 128 ->
  columns, ReLU, fixed seeded weights, greedy over the legal columns) over the whole batch,
  against the same network called once per decision by a Python agent at a :class:`Table`
  (its input: the table observation's stacks, bets, pot and cards written into a vector of
  the same width).

Each benchmark's ``extra_info`` has ``decisions_per_s`` (per median round) and its ratios to
the others measured in the same run. Run:
``python -m pytest bench/bench_vector.py --benchmark-enable --benchmark-only``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from holdem import Game, Table
from holdem.table.agents import _random_act_python
from holdem.vector import VectorGame

np = pytest.importorskip("numpy", reason="the batched policy is written in numpy")

NL6 = Game(big_blind=2)
TABLES = 4096
STEPS = 40
HANDS = 300
_rates: dict[str, float] = {}


class PythonRandomAgent:
    """RandomAgent's policy as plain Python (the compiled table loop does not recognise it)."""

    act = _random_act_python

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed).random


def vector_steps(env: VectorGame, rng: Any, steps: int) -> int:
    """``steps`` batched decisions with the uniform masked numpy policy; returns decisions."""
    shape = (env.num_tables, env.action_layout.size)
    for _ in range(steps):
        cols = (rng.random(shape, dtype=np.float32) * env.legal_mask).argmax(axis=1)
        env.step_unchecked(cols)
    return steps * env.num_tables


def handstate_decisions(hands: int, seed: int) -> int:
    from bench_table import bare_hands

    return bare_hands(hands, seed)


def table_decisions(hands: int, seed: int) -> int:
    table = Table(NL6, seats=6, seed=seed)
    for s in range(6):
        table.sit(s, f"p{s}", 200, PythonRandomAgent(seed + s))
    decisions = 0
    for _ in range(hands):
        table._reset_stacks(200)
        decisions += len(table.play_hand().state.raw_history())
    return decisions


def _record(benchmark: Any, name: str, decisions: int) -> None:
    assert decisions > 0
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: a smoke run
        return
    _rates[name] = decisions / stats.stats.median
    benchmark.extra_info["decisions_per_s"] = round(_rates[name])
    for peer in ("handstate", "table", "vector1", "table_mlp"):
        if peer in _rates and peer != name:
            benchmark.extra_info[f"ratio_vs_{peer}"] = round(_rates[name] / _rates[peer], 2)


@pytest.mark.benchmark(group="self-play-6max")
def test_handstate_loop(benchmark: Any) -> None:
    _record(benchmark, "handstate", benchmark(handstate_decisions, HANDS, 1))


@pytest.mark.benchmark(group="self-play-6max")
def test_table_python_agent(benchmark: Any) -> None:
    _record(benchmark, "table", benchmark(table_decisions, HANDS, 1))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.benchmark(group="self-play-6max")
def test_vector_random(benchmark: Any, threads: int) -> None:
    env = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1, num_threads=threads)
    env.reset()
    rng = np.random.default_rng(1)
    decisions = benchmark(vector_steps, env, rng, STEPS)
    env.close()
    _record(benchmark, f"vector{threads}", decisions)


@pytest.mark.parametrize("tables", [1, 64, 4096, 100_000])
@pytest.mark.benchmark(group="self-play-scaling-tables")
def test_vector_scaling_tables(benchmark: Any, tables: int) -> None:
    """Cost per decision as N grows (6-max NL 100bb, the same numpy policy)."""
    env = VectorGame(NL6, num_tables=tables, players=6, stacks=200, seed=1)
    env.reset()
    steps = max(2, 160_000 // tables) if tables > 1 else 2_000
    _record(benchmark, f"tables{tables}",
            benchmark(vector_steps, env, np.random.default_rng(1), steps))


@pytest.mark.parametrize("players", [2, 4, 6, 8, 10])
@pytest.mark.benchmark(group="self-play-scaling-players")
def test_vector_scaling_players(benchmark: Any, players: int) -> None:
    """Cost per decision as the number of players grows (N = 4,096, NL 100bb)."""
    env = VectorGame(NL6, num_tables=TABLES, players=players, stacks=200, seed=1)
    env.reset()
    _record(benchmark, f"players{players}",
            benchmark(vector_steps, env, np.random.default_rng(1), STEPS))


class MLP:
    """Two hidden layers of 128 (ReLU), seeded weights: logits per action column."""

    def __init__(self, width: int, columns: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = rng.standard_normal((width, 128), dtype=np.float32) / np.sqrt(width)
        self.w2 = rng.standard_normal((128, 128), dtype=np.float32) / np.sqrt(128)
        self.w3 = rng.standard_normal((128, columns), dtype=np.float32) / np.sqrt(128)

    def __call__(self, x: Any) -> Any:
        h = np.maximum(x @ self.w1, 0)
        h = np.maximum(h @ self.w2, 0)
        return h @ self.w3


def vector_mlp_steps(env: VectorGame, net: MLP, steps: int) -> int:
    obs = env.observation
    for _ in range(steps):
        logits = net(obs)
        cols = np.where(env.legal_mask, logits, -np.inf).argmax(axis=1)
        obs, _, _ = env.step_unchecked(cols)
    return steps * env.num_tables


class MLPAgent:
    """The same network, one observation per call (fold, check/call, min raise, max raise)."""

    def __init__(self, net: MLP, width: int) -> None:
        self.net = net
        self.width = width

    def act(self, observation: Any) -> Any:
        from holdem import Action

        x = np.zeros(self.width, dtype=np.float32)
        n = len(observation.stacks)
        bb = observation.big_blind
        x[:n] = observation.stacks
        x[n:2 * n] = observation.bets
        x[2 * n] = observation.pot / bb
        for c in observation.hole_cards + observation.board:
            x[16 + int(c)] = 1.0
        logits = self.net(x)
        la = observation.legal
        best = -np.inf
        choice: Any = Action.check_or_call()
        for k, ok in enumerate((la.can_fold, True, la.can_raise, la.can_raise)):
            if ok and logits[k] > best:
                best = logits[k]
                choice = (Action.fold() if k == 0 else Action.check_or_call() if k == 1
                          else Action.bet_or_raise(la.min_to if k == 2 else la.max_to))
        return choice


def table_mlp_decisions(hands: int, seed: int, net: MLP, width: int) -> int:
    table = Table(NL6, seats=6, seed=seed)
    for s in range(6):
        table.sit(s, f"p{s}", 200, MLPAgent(net, width))
    decisions = 0
    for _ in range(hands):
        table._reset_stacks(200)
        decisions += len(table.play_hand().state.raw_history())
    return decisions


@pytest.mark.benchmark(group="self-play-mlp")
def test_table_mlp(benchmark: Any) -> None:
    env = VectorGame(NL6, num_tables=1, players=6, stacks=200, seed=1)
    net = MLP(env.observation_spec.width, env.action_layout.size)
    _record(benchmark, "table_mlp",
            benchmark(table_mlp_decisions, 100, 1, net, env.observation_spec.width))


@pytest.mark.benchmark(group="self-play-mlp")
def test_vector_mlp(benchmark: Any) -> None:
    env = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1)
    env.reset()
    net = MLP(env.observation_spec.width, env.action_layout.size)
    _record(benchmark, "vector_mlp", benchmark(vector_mlp_steps, env, net, 10))
