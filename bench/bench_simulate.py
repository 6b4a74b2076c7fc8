"""``holdem simulate``'s main workload on both engines, in the same run.

The README's main command: ``holdem simulate --players 6 --hands 10000 --seed 1`` (6-max
no-limit 1/2, 200-chip stacks every hand, the built-in agents random, call, equity repeated
over the seats, chunks of 500 hands).

- ``test_simulate_batched_1_core``: :func:`holdem.simulate` with ``executor="serial"``; every
  agent has a compiled policy, so the hands are played by the batched engine
  (:meth:`holdem.vector.VectorGame.play`, the equity Monte Carlo in C).
- ``test_simulate_batched_2_workers``: the same on a 2-process pool (workers started outside
  the timing).
- ``test_simulate_table_1_core``: the same agents on :class:`holdem.Table`
  (``engine="table"``: their Python ``act``), fewer hands (it is ~50x slower).
  ``extra_info['ratio_batched_vs_table']`` is batched hands/s over table hands/s, both medians
  of this run.

Run: ``python -m pytest bench/bench_simulate.py --benchmark-enable --benchmark-only``.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from holdem import Game, simulate
from holdem.cli._play import make_agent

HANDS = 10_000
TABLE_HANDS = 500
NL6 = Game(big_blind=2)
_rates: dict[str, float] = {}


def _agents() -> dict[str, Any]:
    kinds = ("random", "call", "equity")
    return {f"{kinds[k % 3]}-{k + 1}": make_agent(kinds[k % 3], k) for k in range(6)}


def _sim(executor: Any, hands: int, engine: str) -> int:
    r = simulate(_agents(), NL6, hands=hands, seed=1, executor=executor, progress=False,
                 engine=engine)
    assert r.engine == engine and sum(p.chips for p in r.players) + r.rake == 0
    return r.hands


def _record(benchmark: Any, name: str, hands: int, peers: dict[str, str]) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: a smoke run
        return
    _rates[name] = hands / stats.stats.median
    benchmark.extra_info["hands_per_s"] = round(_rates[name])
    for label, peer in peers.items():
        if peer in _rates:
            ratio = _rates[name] / _rates[peer] if name != "table" else _rates[peer] / _rates[name]
            benchmark.extra_info[label] = round(ratio, 2)


@pytest.mark.benchmark(group="simulate-main")
def test_simulate_batched_1_core(benchmark: Any) -> None:
    assert benchmark.pedantic(_sim, args=("serial", HANDS, "batched"), rounds=5,
                              iterations=1) == HANDS
    _record(benchmark, "batched1", HANDS, {})


@pytest.mark.benchmark(group="simulate-main")
def test_simulate_batched_2_workers(benchmark: Any) -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        pool.submit(int).result()  # start the workers outside the timing
        assert benchmark.pedantic(_sim, args=(pool, HANDS, "batched"), rounds=5,
                                  iterations=1) == HANDS
    _record(benchmark, "batched2", HANDS, {"ratio_vs_1_core": "batched1"})


@pytest.mark.benchmark(group="simulate-main")
def test_simulate_table_1_core(benchmark: Any) -> None:
    assert benchmark.pedantic(_sim, args=("serial", TABLE_HANDS, "table"), rounds=3,
                              iterations=1) == TABLE_HANDS
    _record(benchmark, "table", TABLE_HANDS, {"ratio_batched_vs_table": "batched1"})
