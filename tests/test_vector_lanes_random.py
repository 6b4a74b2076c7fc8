"""Random programs of steps on VectorGame(num_threads=k), compared after every operation with
the same program on one thread: a shared step is cut into lanes, and whatever the lanes,
ranges, chunks and interleaving, every table ends as one thread leaves it."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest

from holdem import Game
from holdem.errors import IllegalActionError
from holdem.vector import VectorGame

GAME = Game(big_blind=2)
_OPS = ("step", "unchecked", "exact", "async", "halves", "async_no_wait", "abandon", "reset",
        "close")
_P = (0.2, 0.2, 0.06, 0.2, 0.1, 0.06, 0.08, 0.04, 0.06)


def _snapshot(env: VectorGame) -> tuple[Any, ...]:
    return (env.observation.copy(), env.legal_mask.copy(), env.current_player.copy(),
            env.payoffs.copy(), env._rewards.copy(), env._done.copy(),
            np.asarray(env.total_payoffs()).copy(), np.asarray(env.hands_played()).copy())


def _exact(env: VectorGame, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n = env.num_tables
    kinds, amounts = np.ones(n, np.int64), np.zeros(n, np.int64)
    for i in range(n):
        _, can_fold, _, _, can_raise, _, lo, hi = env._batch.legal(i)
        r = rng.random()
        if r < 0.2 and can_fold:
            kinds[i] = 0
        elif r < 0.5 and can_raise:
            kinds[i], amounts[i] = 2, int(rng.integers(lo, hi + 1))
    return kinds, amounts


def _random_cols(mask: np.ndarray, rng: np.random.Generator, masked: bool) -> np.ndarray:
    cols = (rng.random(mask.shape) * mask).argmax(axis=1).astype(np.int64)
    if masked:  # masked and out-of-range columns (check/call unchecked)
        bad = rng.random(len(cols)) < 0.2
        cols[bad] = rng.integers(-3, mask.shape[1] + 3, size=int(bad.sum()))
    return cols


def _program(seed: int, threads: int) -> int:
    """A random program on one thread and on ``threads``; returns the operations compared."""
    rng = np.random.default_rng(seed)
    n = int(rng.choice([1, 2, 3, 5, 16, 17, 31, 64, 129, 300]) if rng.random() < 0.6
            else rng.integers(1, 301))
    kw = {"num_tables": n, "players": int(rng.integers(2, 11)),
          "stacks": int(rng.choice([20, 200, 1000])), "seed": int(rng.integers(0, 1 << 63)),
          "session": bool(rng.random() < 0.5), "final_observation": bool(rng.random() < 0.5)}
    ref, env = (VectorGame(GAME, num_threads=k, **kw) for k in (1, threads))
    envs = (ref, env)
    for e in envs:
        e.reset()
    compared = 0
    for _ in range(int(rng.integers(20, 60))):
        op = rng.choice(_OPS, p=_P)
        if op in ("step", "unchecked"):
            cols = _random_cols(ref.legal_mask, rng, op == "unchecked")
            for e in envs:
                (e.step if op == "step" else e.step_unchecked)(cols)
        elif op == "exact":
            kinds, amounts = _exact(ref, rng)
            for e in envs:
                e.step_exact(kinds, amounts)
        elif op in ("async", "halves", "async_no_wait"):
            cut = int(rng.integers(0, n + 1))
            parts = ([(0, cut), (cut, n)] if op == "halves" else
                     [sorted(int(x) for x in rng.integers(0, n + 1, size=2))])
            for lo, hi in parts:
                checked = bool(rng.random() < 0.5)
                cols = _random_cols(ref.legal_mask, rng, not checked)[lo:hi]
                hold = None if rng.random() < 0.6 else rng.random(n) < 0.3
                for e in envs:
                    e.step_async(cols, slice(lo, hi), checked=checked, hold=hold)
            if op == "async_no_wait":
                continue  # the next operation completes it
            for e in envs:
                e.step_wait()
        elif op == "abandon":
            flags = rng.random(n) < rng.random()
            for e in envs:
                e.abandon(flags)
        elif op == "reset":
            for e in envs:
                e.reset()
        else:
            for e in envs:
                e.close()
        for x, y in zip(_snapshot(ref), _snapshot(env), strict=True):
            assert np.array_equal(x, y), (seed, threads, n, op)
        compared += 1
    for e in envs:
        e.close()
    return compared


@pytest.mark.parametrize("threads", [2, 3, 5, 20])
def test_random_programs_give_the_results_of_one_thread(threads: int) -> None:
    assert sum(_program(seed, threads) for seed in range(12)) > 0


def test_shared_steps_with_helpers_of_every_home() -> None:
    """Back-to-back shared steps of random ranges, lanes (1..16) and chunks, with helper
    threads assisting from odd homes (negative, past the lanes, huge) and lingering between
    steps: every step leaves the tables as one thread does."""
    rng = np.random.default_rng(7)
    n = 77
    kw = {"num_tables": n, "players": 4, "stacks": 200, "seed": 3}
    ref, env = VectorGame(GAME, **kw), VectorGame(GAME, **kw)
    ref.reset()
    env.reset()
    batch = env._batch
    stop = threading.Event()

    def helper(home: int) -> None:
        while not stop.is_set():
            batch.assist(0.05, home)

    helpers = [threading.Thread(target=helper, args=(h,)) for h in (-7, 1, 15, 17, 2**62)]
    for t in helpers:
        t.start()
    try:
        for _ in range(200):
            cols = _random_cols(ref.legal_mask, rng, False)
            lo, hi = sorted(int(x) for x in rng.integers(0, n + 1, size=2))
            if rng.random() < 0.3:
                lo, hi = 0, n
            lanes, chunk = int(rng.integers(1, 17)), int(rng.choice([1, 3, 7, 64]))
            ref._batch.run(lo, hi, cols[lo:hi].copy())
            batch.share_start(lambda: None, chunk, cols[lo:hi].copy(), lo, hi, True, None, lanes)
            batch.share_finish()
            for x, y in zip(_snapshot(ref)[:6], _snapshot(env)[:6], strict=True):
                assert np.array_equal(x, y), (lo, hi, lanes, chunk)
    finally:
        stop.set()
        for t in helpers:
            t.join()


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_gymnasium_two_threads_as_one(mode: str) -> None:
    pytest.importorskip("gymnasium")
    from holdem.rl.gymnasium import HoldemVectorEnv

    def same(x: Any, y: Any) -> None:
        if isinstance(x, dict):
            assert x.keys() == y.keys()
            for k in x:
                same(x[k], y[k])
        elif isinstance(x, tuple | list) or (isinstance(x, np.ndarray) and x.dtype == object):
            assert len(x) == len(y)
            for u, v in zip(x, y, strict=True):
                same(u, v)
        else:
            assert np.array_equal(np.asarray(x), np.asarray(y))

    rng = np.random.default_rng(5)
    envs = [HoldemVectorEnv(GAME, num_envs=37, players=3, seed=9, session=True,
                            autoreset_mode=mode, num_threads=k) for k in (1, 2)]
    outs = [e.reset() for e in envs]
    for _ in range(80):
        mask = outs[0][-1]["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        r = rng.random()
        if r < 0.1:
            flags = rng.random(37) < 0.3
            flags[0] = True
            outs = [e.reset(options={"reset_mask": flags}) for e in envs]
        elif r < 0.55:
            for e in envs:
                e.step_async(actions)
            outs = [e.step_wait() for e in envs]
        else:
            outs = [e.step(actions) for e in envs]
        same(outs[0], outs[1])
    for e in envs:
        e.close()


def test_an_illegal_column_moves_no_table_with_threads() -> None:
    ref, env = (VectorGame(GAME, num_tables=50, players=3, stacks=100, seed=2, num_threads=k)
                for k in (1, 3))
    for e in (ref, env):
        e.reset()
    mask = ref.legal_mask
    cols = mask.argmax(axis=1).astype(np.int64)
    illegal = np.flatnonzero(~mask[7])
    cols[7] = illegal[0]
    for e in (ref, env):
        with pytest.raises(IllegalActionError):
            e.step(cols)
    for x, y in zip(_snapshot(ref), _snapshot(env), strict=True):
        assert np.array_equal(x, y)
    env.close()
