"""How the batched engine's cost per decision grows with the batch and the table size, and its
memory per table.

Prints three tables (6-max no-limit 1/2 at 100 big blinds, the uniform random masked numpy
policy of ``bench_vector.vector_steps``, its time counted; medians of ``--rounds`` rounds):

- N = 1 .. 100,000 tables at 6 players: decisions/s and nanoseconds per decision;
- 2 .. 10 players at N = 4,096;
- ``num_threads`` 1 and 2 at N = 4,096, with the CPU time of both threads (how many cores
  the process got: on a shared machine the wall-time ratio says more about the neighbours);
- the resident memory a batch adds, measured in a fresh interpreter per size (VmRSS after
  ``reset()`` and a few steps, less VmRSS before the batch was made), per table, beside
  :meth:`holdem.vector.VectorGame.memory_per_table`.

Run: ``python bench/vector_scaling.py`` (``--quick`` for a short run; needs numpy).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_vector import NL6, vector_steps

from holdem.vector import VectorGame

TABLE_SIZES = (1, 16, 256, 1024, 4096, 16_384, 100_000)
PLAYER_COUNTS = tuple(range(2, 11))
RSS_SIZES = (4096, 100_000)


def rate(tables: int, players: int, decisions: int, rounds: int,
         threads: int = 1) -> tuple[float, float]:
    """Median decisions/s of ``rounds`` rounds of about ``decisions`` decisions each, by the
    wall clock and by this process's CPU time (all its threads; steadier on a shared
    machine)."""
    env = VectorGame(NL6, num_tables=tables, players=players, stacks=200, seed=1,
                     num_threads=threads)
    env.reset()
    rng = np.random.default_rng(1)
    steps = max(2, decisions // tables)
    vector_steps(env, rng, steps)  # warm up: caches, first hands
    wall, cpu = [], []
    for _ in range(rounds):
        start, start_cpu = time.perf_counter(), time.process_time()
        vector_steps(env, rng, steps)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    env.close()
    return steps * tables / statistics.median(wall), steps * tables / statistics.median(cpu)


def _row(label: str, wall: float, cpu: float) -> str:
    return f"{label:>8} {wall:>14,.0f} {1e9 / wall:>12.0f} {1e9 / cpu:>16.0f}"


_HEADER = f"{{:>8}} {'decisions/s':>14} {'ns/decision':>12} {'CPU ns/decision':>16}"


def _vm_rss() -> int:
    """This process's resident set in bytes (Linux /proc)."""
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise OSError("no VmRSS in /proc/self/status")


def rss_child(tables: int, players: int) -> dict[str, Any]:
    """Run in a fresh interpreter: the resident bytes a batch of ``tables`` adds."""
    rng = np.random.default_rng(1)
    before = _vm_rss()
    env = VectorGame(NL6, num_tables=tables, players=players, stacks=200, seed=1)
    env.reset()
    vector_steps(env, rng, 3)
    after = _vm_rss()
    return {"tables": tables, "players": players, "rss_bytes": after - before,
            "per_table": (after - before) / tables, "accounted": env.memory_per_table()}


def rss(tables: int, players: int) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--rss-child", str(tables), str(players)],
        check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer decisions per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rss-child", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rss_child:
        print(json.dumps(rss_child(*args.rss_child)))
        return 0
    decisions = 40_000 if args.quick else 400_000

    print("6-max NL 100bb, uniform random numpy policy (time counted), 1 thread; medians")
    print(_HEADER.format("tables"))
    for n in TABLE_SIZES:
        print(_row(f"{n:,}", *rate(n, 6, 4_000 if n == 1 else decisions, args.rounds)))

    print("\nN = 4,096 tables, NL 100bb")
    print(_HEADER.format("players"))
    for p in PLAYER_COUNTS:
        print(_row(str(p), *rate(4096, p, decisions, args.rounds)))

    print("\nN = 4,096 tables, 6 players, num_threads 1 and 2 (CPU: both threads' time; "
          "cores used = CPU time / wall time)")
    print(_HEADER.format("threads") + f" {'cores used':>11}")
    for t in (1, 2):
        wall, cpu = rate(4096, 6, decisions, args.rounds, threads=t)
        print(_row(str(t), wall, cpu) + f" {wall / cpu:>11.2f}")

    print("\nresident memory added by a batch (6 players; a fresh interpreter per size)")
    print(f"{'tables':>8} {'RSS MB':>8} {'bytes/table':>12} {'memory_per_table()':>19}")
    for n in RSS_SIZES:
        m = rss(n, 6)
        print(f"{n:>8,} {m['rss_bytes'] / 1e6:>8.1f} {m['per_table']:>12,.0f} "
              f"{m['accounted']:>19,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
