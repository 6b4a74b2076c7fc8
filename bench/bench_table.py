"""Table and simulation throughput, next to the bare hand state on the same workload.

- ``test_bare_state_6max``: 6-max no-limit 1/2, 200-chip stacks every hand, the seeded uniform
  policy of :class:`holdem.RandomAgent` (same draws, same work per decision) written inline,
  calling ``HandState`` directly (``apply_unchecked``).
- ``test_table_6max_random_agents``: the same game at a :class:`holdem.Table` with six
  :class:`holdem.RandomAgent` (same policy, but through observations, agent calls, validated
  ``apply``, seating and button logic, records). ``extra_info['ratio_vs_bare']`` is the ratio of
  the two medians measured in the same run (table hands/s over bare hands/s). With the compiled
  core the table's loop and bookkeeping run in C (``holdem/table/_loop.pyx``); the bare loop is
  plain Python over the same compiled ``HandState``.
- ``test_simulate_1_core`` / ``test_simulate_2_workers``: :func:`holdem.simulate` hands/s with
  six built-in random agents on Tables (``engine="table"``; bench_simulate.py measures the
  batched engine), ``executor="serial"`` and a 2-process pool.

Run: ``python -m pytest bench/bench_table.py --benchmark-enable --benchmark-only``.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from holdem import Game, RandomAgent, Table, simulate

HANDS = 300
SIM_HANDS = 2_000
NL6 = Game(big_blind=2)
_rates: dict[str, float] = {}


def bare_hands(hands: int, seed: int) -> int:
    """The bare state loop; returns actions taken. Its policy is :class:`holdem.RandomAgent`'s,
    draw for draw (``int(random() * n)`` over the kinds offered, then over the sizes), written
    inline: the same work per decision as the table's agents, so the ratio measures the table."""
    rnd = random.Random(seed).random
    stacks = [200] * 6
    actions = 0
    for h in range(hands):
        state = NL6.new_hand(stacks, button=h % 6, seed=seed * 1_000_003 + h)
        while not state.is_terminal():
            la = state.legal_actions()
            k = int(rnd() * (1 + la.can_fold + la.can_raise))
            actions += 1
            if la.can_fold:
                if k == 0:
                    state.apply_unchecked(0)
                    continue
                k -= 1
            if k == 0:
                state.apply_unchecked(1)
            else:
                lo, hi = la.min_to, la.max_to
                state.apply_unchecked(2, lo + int(rnd() * (hi - lo + 1)))  # type: ignore[operator]
        # the table settles every hand (it needs the payoffs) and a HandState settles lazily,
        # on first use: read them here too, as bench_state does
        if sum(state.payoffs):
            raise AssertionError("chips not conserved")
    return actions


def table_hands(hands: int, seed: int) -> int:
    table = Table(NL6, seats=6, seed=seed)
    for s in range(6):
        table.sit(s, f"r{s}", 200, RandomAgent(seed=seed + s))
    actions = 0
    for _ in range(hands):
        table._reset_stacks(200)
        actions += len(table.play_hand().state.raw_history())
    return actions


def _record(benchmark: Any, name: str, hands: int, result: int, peer: str = "") -> None:
    assert result > 0
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: a smoke run
        return
    median = stats.stats.median
    _rates[name] = hands / median
    benchmark.extra_info["hands_per_s"] = round(hands / median)
    if peer in _rates:
        benchmark.extra_info[f"ratio_vs_{peer}"] = round(_rates[name] / _rates[peer], 3)


@pytest.mark.benchmark(group="table-6max")
def test_bare_state_6max(benchmark: Any) -> None:
    _record(benchmark, "bare", HANDS, benchmark(bare_hands, HANDS, 1))


@pytest.mark.benchmark(group="table-6max")
def test_table_6max_random_agents(benchmark: Any) -> None:
    _record(benchmark, "table", HANDS, benchmark(table_hands, HANDS, 1), peer="bare")


def _sim(executor: Any) -> int:
    agents = [RandomAgent(seed=k) for k in range(6)]
    r = simulate(agents, NL6, hands=SIM_HANDS, seed=5, executor=executor, chunk_hands=250,
                 progress=False, engine="table")
    return r.hands


@pytest.mark.benchmark(group="simulate")
def test_simulate_1_core(benchmark: Any) -> None:
    _record(benchmark, "sim1", SIM_HANDS,
            benchmark.pedantic(_sim, args=("serial",), rounds=3, iterations=1))


@pytest.mark.benchmark(group="simulate")
def test_simulate_2_workers(benchmark: Any) -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        pool.submit(int).result()  # start the workers outside the timing
        _record(benchmark, "sim2", SIM_HANDS,
                benchmark.pedantic(_sim, args=(pool,), rounds=3, iterations=1), peer="sim1")
