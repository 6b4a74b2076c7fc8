"""Batched self-play: 4,096 six-max tables stepped together by a numpy policy.

Run: ``python examples/vector_selfplay.py`` (needs numpy: ``pip install
"holdem-engine[numpy]"``, or ``pip install ".[numpy]"`` in a source checkout).
``--threads 2`` steps the batch with two threads and overlaps the policy with the step: the
batch is cut in two halves, and the policy of one half runs while the threads step the other
(``step_async``). The results are the same for any number of threads.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from holdem import Game
from holdem.vector import VectorGame, sample_legal


def policy(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform random choice among the legal columns (replace with your model)."""
    cols: np.ndarray = sample_legal(mask, rng)
    return cols


def _count(text: str) -> int:
    """An argparse type: a whole number >= 1 (tables, steps, threads...)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return int(text)


def _seed(text: str) -> int:
    """An argparse type: a seed of VectorGame, a whole number in 0..2**64-1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value < 1 << 64:
        raise argparse.ArgumentTypeError(f"must be in 0..2**64-1, got {text}")
    return value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=_count, default=4096,
                        help="tables stepped together (default 4096)")
    parser.add_argument("--steps", type=_count, default=200,
                        help="steps of the whole batch, one decision per table (default 200)")
    parser.add_argument("--threads", type=_count, default=1,
                        help="threads stepping the batch; 2 also overlaps the policy with the "
                             "step (default 1; the results do not change)")
    parser.add_argument("--seed", type=_seed, default=1,
                        help="seed of the cards and the policy, 0..2**64-1 (default 1)")
    args = parser.parse_args(argv)
    env = VectorGame(Game(big_blind=2), num_tables=args.tables, players=6, stacks=200,
                     seed=args.seed, actions="fchpa", num_threads=args.threads)
    obs = env.reset()
    spec = env.observation_spec
    print(f"{env.num_tables} tables, observations {obs.shape} (version {spec.version}), "
          f"actions {env.action_layout.names}, {args.threads} thread(s)")
    rng = np.random.default_rng(args.seed)
    mask = env.legal_mask
    halves = (slice(0, env.num_tables // 2), slice(env.num_tables // 2, None))
    start = time.perf_counter()
    for _ in range(args.steps):
        if args.threads == 1:
            env.step(policy(mask, rng))
        else:
            # this half's policy runs while the other half is stepped (the halves draw, in
            # order, the numbers one call for the whole batch would: the same columns)
            for half in halves:
                env.step_async(policy(mask[half], rng), half)
    obs, _, _ = env.step_wait()
    elapsed = time.perf_counter() - start
    decisions = args.steps * env.num_tables
    print(f"{decisions:,} decisions, {int(env.hands_played().sum()):,} hands in "
          f"{elapsed:.2f} s ({decisions / elapsed:,.0f} decisions/s)")
    won = env.total_payoffs().sum(axis=0) / env.game.big_blind
    print("big blinds won per seat:", won.tolist(), "(sum 0: no rake)")
    print("pot of table 0 now (bb):", obs[0, spec.index("pot")])
    env.close()


if __name__ == "__main__":
    main()
