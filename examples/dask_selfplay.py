"""Batched self-play across a Dask cluster: one batch of tables per task, gathered in order.

Batch ``b`` of a run with seed ``s`` is a :class:`holdem.vector.VectorGame` seeded with
``holdem.child_seed(s, b)``, and its numpy policy draws from a generator seeded the same way.
A batch depends only on its seed and its size, so the gathered results are the same run
serially, on one worker or on many: the number of batches is part of the job, the number of
workers is not (give each worker one or more batches).

Each batch returns its trajectory (the action column chosen per step and table, the step's
``done`` flags) and its results (hands played and chips won per seat, from
``VectorGame.total_payoffs``).

Run: ``python examples/dask_selfplay.py`` (a local cluster of 2 workers) or
``python examples/dask_selfplay.py --scheduler tcp://host:8786``; it needs numpy and
``distributed`` (``pip install "holdem-engine[dask,numpy]"``; in a source checkout
``pip install ".[dask,numpy]"``).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from holdem import Game, child_seed
from holdem.vector import VectorGame

GAME = Game(big_blind=2)


@dataclass(frozen=True)
class BatchResult:
    """One batch's trajectory and results."""

    seed: int
    actions: Any      # (steps, tables) uint8: the column each table's actor played
    done: Any         # (steps, tables) bool: a hand ended on that table in that step
    hands: int        # hands finished over the batch's tables
    payoffs: Any      # (players,) int64: chips won per seat, summed over the tables

    def same_as(self, other: BatchResult) -> bool:
        return (self.seed == other.seed and self.hands == other.hands
                and np.array_equal(self.actions, other.actions)
                and np.array_equal(self.done, other.done)
                and np.array_equal(self.payoffs, other.payoffs))


def batch_seeds(seed: int, batches: int) -> list[int]:
    """The seed of every batch of a run: ``child_seed(seed, b)``."""
    return [child_seed(seed, b) for b in range(batches)]


def play_batch(seed: int, tables: int, steps: int, players: int = 6) -> BatchResult:
    """``steps`` decisions on each of ``tables`` 6-max tables (100 big blinds), a uniform
    random policy over the legal columns (replace it with your model)."""
    env = VectorGame(GAME, num_tables=tables, players=players, stacks=200, seed=seed)
    rng = np.random.default_rng(seed)
    env.reset()
    actions = np.empty((steps, tables), dtype=np.uint8)
    done = np.empty((steps, tables), dtype=bool)
    shape = (tables, env.action_layout.size)
    for t in range(steps):
        cols = (rng.random(shape, dtype=np.float32) * env.legal_mask).argmax(axis=1)
        actions[t] = cols
        done[t] = env.step_unchecked(cols)[2]
    return BatchResult(seed, actions, done, int(env.hands_played().sum()),
                       env.total_payoffs().sum(axis=0))


def run_serial(seed: int, batches: int, tables: int, steps: int) -> list[BatchResult]:
    """Every batch in this process, in order (the reference for a cluster run)."""
    return [play_batch(s, tables, steps) for s in batch_seeds(seed, batches)]


def run_on_cluster(client: Any, seed: int, batches: int, tables: int,
                   steps: int) -> list[BatchResult]:
    """One task per batch on a ``distributed.Client``; results gathered in batch order."""
    seeds = batch_seeds(seed, batches)
    futures = client.map(play_batch, seeds, tables=tables, steps=steps, pure=False)
    results: list[BatchResult] = client.gather(futures)
    return results


def _count(text: str) -> int:
    """An argparse type: a whole number >= 1 (tables, steps, threads...)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> None:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SystemExit("this example needs Dask's distributed: pip install "
                         "\"holdem-engine[dask,numpy]\" (in a source checkout: "
                         "pip install \".[dask,numpy]\")") from None

    parser = argparse.ArgumentParser(description="batched self-play on a Dask cluster")
    parser.add_argument("--scheduler", help="a scheduler address (default: a local cluster)")
    parser.add_argument("--workers", type=_count, default=2, help="local cluster workers")
    parser.add_argument("--batches", type=_count, default=4,
                        help="batches, one task each; part of the job, so of the results "
                             "(default 4)")
    parser.add_argument("--tables", type=_count, default=4096,
                        help="tables per batch (default 4096)")
    parser.add_argument("--steps", type=_count, default=200,
                        help="steps of each batch (default 200)")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the run; batch b uses holdem.child_seed(seed, b) (default 1)")
    args = parser.parse_args(argv)
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               dashboard_address=None)
        client = Client(cluster)
    with client:
        start = time.perf_counter()
        results = run_on_cluster(client, args.seed, args.batches, args.tables, args.steps)
        elapsed = time.perf_counter() - start
    decisions = args.batches * args.tables * args.steps
    print(f"{args.batches} batches of {args.tables} tables x {args.steps} steps: "
          f"{decisions:,} decisions in {elapsed:.2f} s ({decisions / elapsed:,.0f}/s, "
          "the workers' first imports included, not the cluster's start)")
    print(f"hands: {sum(r.hands for r in results):,}")
    chips = [int(c) for c in sum(r.payoffs for r in results)]
    print(f"chips won per seat: {chips} (sum {sum(chips)}: no rake)")


if __name__ == "__main__":
    main()
