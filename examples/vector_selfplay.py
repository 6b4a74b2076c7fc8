"""Batched self-play: 4,096 six-max tables stepped together by a numpy policy.

Run: ``python examples/vector_selfplay.py`` (needs numpy: ``pip install holdem-engine[numpy]``).
"""

from __future__ import annotations

import time

import numpy as np

from holdem import Game
from holdem.vector import VectorGame


def main() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=4096, players=6, stacks=200, seed=1,
                     actions="fchpa")
    obs = env.reset()
    spec = env.observation_spec
    print(f"{env.num_tables} tables, observations {obs.shape} (version {spec.version}), "
          f"actions {env.action_layout.names}")
    rng = np.random.default_rng(1)
    won = np.zeros(env.players)
    hands = 0
    steps = 200
    start = time.perf_counter()
    for _ in range(steps):
        # a uniform random policy over the legal columns (replace with your model)
        cols = (rng.random(env.legal_mask.shape, dtype=np.float32) * env.legal_mask).argmax(1)
        obs, rewards, done = env.step(cols)
        hands += int(done.sum())
        won += rewards[done].sum(axis=0)
    elapsed = time.perf_counter() - start
    print(f"{steps * env.num_tables:,} decisions, {hands:,} hands in {elapsed:.2f} s "
          f"({steps * env.num_tables / elapsed:,.0f} decisions/s)")
    print("big blinds won per seat:", np.round(won, 1), "(sum 0: no rake)")
    print("pot of table 0 now (bb):", obs[0, spec.index("pot")])


if __name__ == "__main__":
    main()
