"""VectorGame(num_threads=k): the same results as one thread; the worker threads stop."""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

from holdem import Game
from holdem.errors import InvalidArrayError
from holdem.vector import VectorGame

GAME = Game(big_blind=2)


def _workers() -> int:
    return sum(t.name.startswith("holdem-vector-") for t in threading.enumerate())


def _play(threads: int, steps: int = 40) -> list[tuple[np.ndarray, ...]]:
    env = VectorGame(GAME, num_tables=101, players=6, stacks=200, seed=5, num_threads=threads)
    env.reset()
    rng = np.random.default_rng(5)
    out = []
    for t in range(steps):
        cols = (rng.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1)
        step = env.step if t % 2 else env.step_unchecked
        obs, rewards, done = step(cols)
        out.append((obs.copy(), rewards.copy(), done.copy(), env.payoffs.copy()))
    out.append((env.total_payoffs(), env.hands_played()))
    env.close()
    return out


def test_threads_give_the_same_results_as_one() -> None:
    one = _play(1)
    for threads in (2, 3, 4):
        for a, b in zip(one, _play(threads), strict=True):
            for x, y in zip(a, b, strict=True):
                assert np.array_equal(x, y)


def test_worker_threads_stop_on_close_and_when_collected() -> None:
    before = _workers()
    env = VectorGame(GAME, num_tables=8, players=3, stacks=100, seed=1, num_threads=3)
    env.reset()
    env.step([1] * 8)
    assert _workers() == before + 2
    env.close()
    assert _workers() == before
    env.step([1] * 8)  # stepping again starts them again
    assert _workers() == before + 2
    del env
    gc.collect()
    assert _workers() == before


def test_a_failing_slice_raises_in_the_caller() -> None:
    from holdem.vector import _SliceThreads

    ran: list[tuple[int, int]] = []

    def step(lo: int, hi: int, fail_from: int) -> None:
        if lo >= fail_from:
            raise InvalidArrayError(f"slice {lo}:{hi}")
        ran.append((lo, hi))

    pool = _SliceThreads(2)
    try:
        with pytest.raises(InvalidArrayError, match="slice 6:9"):
            pool.run(step, [0, 3, 6, 9], (6,))
        assert sorted(ran) == [(0, 3), (3, 6)]
        pool.run(step, [0, 3, 6, 9], (9,))  # the workers go on after an error
        assert sorted(ran) == [(0, 3), (0, 3), (3, 6), (3, 6), (6, 9)]
    finally:
        pool.close()


def test_replies_of_an_interrupted_step_are_skipped() -> None:
    from holdem.vector import _SliceThreads

    ran: list[int] = []
    pool = _SliceThreads(1)
    try:
        # what an interrupted wait leaves behind: a reply of an earlier call
        pool._done.put((pool._calls, InvalidArrayError("stale")))
        pool.run(lambda lo, hi: ran.append(lo), [0, 1, 2], ())
        assert sorted(ran) == [0, 1]
    finally:
        pool.close()
