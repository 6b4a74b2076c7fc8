"""VectorGame(num_threads=k): the same results as one thread; the worker threads stop."""

from __future__ import annotations

import gc
import multiprocessing
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from holdem import Game, RandomAgent
from holdem.errors import IllegalActionError, InvalidArrayError, InvalidConfigError
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


def test_a_worker_that_cannot_start_leaves_no_thread_behind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When the process cannot start one more thread (out of threads or memory), the
    workers already started are stopped, the step raises, and nothing moved."""
    before = _workers()
    env = VectorGame(GAME, num_tables=8, players=3, stacks=100, seed=1, num_threads=4)
    obs = env.reset().copy()
    real_start = threading.Thread.start
    calls = 0

    def start(thread: threading.Thread) -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise RuntimeError("can't start new thread")
        real_start(thread)

    monkeypatch.setattr(threading.Thread, "start", start)
    with pytest.raises(RuntimeError, match="can't start new thread"):
        env.step([1] * 8)
    assert calls == 3
    assert _workers() == before
    assert np.array_equal(env.observation, obs)
    monkeypatch.undo()
    env.step([1] * 8)  # with threads to be had, the next step starts its workers
    assert _workers() == before + 3
    env.close()
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


# --- steps shared by threads: chunks of tables taken from one counter ----------------------

def _exact(env: VectorGame, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """A random legal (kind, amount) per table, from its exact legal actions."""
    kinds, amounts = [], []
    for t in range(env.num_tables):
        _, can_fold, _, _, can_raise, _, lo, hi = env.legal_actions(t)
        kind = int(rng.integers(3))
        if (kind == 0 and not can_fold) or (kind == 2 and not can_raise):
            kind = 1
        kinds.append(kind)
        amounts.append(int(rng.integers(lo, hi + 1)) if kind == 2 else 0)
    return kinds, amounts


def _snapshot(env: VectorGame) -> tuple[np.ndarray, ...]:
    return (env.observation.copy(), env.legal_mask.copy(), env.current_player.copy(),
            env.payoffs.copy(), env.total_payoffs(), env.hands_played())


def _same(a: tuple[np.ndarray, ...], b: tuple[np.ndarray, ...]) -> None:
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x, y)


def _mixed_run(threads: int, tables: int, steps: int) -> list[tuple[np.ndarray, ...]]:
    """``steps`` steps of every kind (checked, unchecked with masked and out-of-range columns,
    exact), and a rejected illegal step that must move no table."""
    env = VectorGame(GAME, num_tables=tables, players=6, stacks=200, seed=11,
                     session=True, num_threads=threads)
    env.reset()
    rng = np.random.default_rng(11)
    out = []
    for t in range(steps):
        mask = env.legal_mask
        cols = (rng.random(mask.shape) * mask).argmax(axis=1)
        if t % 3 == 0:
            obs, rewards, done = env.step(cols)
        elif t % 3 == 1:  # some columns masked or out of range: they play check/call
            wild = rng.integers(-1, mask.shape[1] + 1, size=tables)
            obs, rewards, done = env.step_unchecked(np.where(rng.random(tables) < 0.2, wild, cols))
        else:
            obs, rewards, done = env.step_exact(*_exact(env, rng))
        out.append((obs.copy(), rewards.copy(), done.copy(), *_snapshot(env)))
        if t % 10 == 5:  # an illegal column on the last table: nothing moves
            before = _snapshot(env)
            bad = (rng.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1)
            illegal = np.flatnonzero(~env.legal_mask[-1])
            bad[-1] = illegal[0] if illegal.size else env.action_layout.size
            with pytest.raises(IllegalActionError, match=f"table {tables - 1}"):
                env.step(bad)
            _same(before, _snapshot(env))
    env.close()
    return out


@pytest.mark.parametrize("tables", [301, 1000])
def test_shared_steps_are_bit_identical_for_1_2_3_threads(tables: int) -> None:
    """N not a multiple of the chunk (301 -> 37 x 8 + 5 with 2 threads, 25 x 12 + 1 with 3)."""
    one = _mixed_run(1, tables, 40)
    assert sum(int(s[2].sum()) for s in one) > tables  # hands ended along the way
    for threads in (2, 3):
        for a, b in zip(one, _mixed_run(threads, tables, 40), strict=True):
            _same(a, b)


def _args(env: VectorGame, cols: object) -> tuple[object, ...]:
    """Batch.share's step arguments after the chunk: unchecked columns (the outputs are the
    ones ``env`` bound)."""
    return (np.asarray(cols, dtype=np.int64),)


def _outputs(env: VectorGame) -> tuple[Any, ...]:
    return (env._obs, env._mask, env._actor, env._payoffs, env._rewards, env._done)


def _share(env: VectorGame, cols: object, chunk: int) -> None:
    """One step of ``env``'s batch shared by its threads in chunks of ``chunk`` tables."""
    env._workers().share(env._batch.share, env._batch.assist, (chunk, *_args(env, cols)),
                         (0.001 * (chunk % 2),))


def _pair(tables: int, players: int, seed: int, threads: int) -> tuple[VectorGame, VectorGame]:
    """The same batch with one thread and with ``threads``, both reset."""
    envs = tuple(VectorGame(GAME, num_tables=tables, players=players, stacks=200, seed=seed,
                            num_threads=k) for k in (1, threads))
    for env in envs:
        env.reset()
    return envs


@pytest.mark.parametrize("chunk", [1, 7, 64, 129, 130, 1000])
def test_any_chunk_gives_the_same_tables_more_threads_than_chunks(chunk: int) -> None:
    """130 tables: a ragged last chunk (7, 64, 129) and fewer chunks than the 4 threads (64:
    3, 129: 2, 130 and 1000: 1), so some workers find nothing to take."""
    ref, env = _pair(130, 6, 3, 4)
    rng = np.random.default_rng(3)
    for _ in range(30):
        cols = (rng.random(ref.legal_mask.shape) * ref.legal_mask).argmax(axis=1)
        ref.step_unchecked(cols)
        _share(env, cols, chunk)
        _same(_snapshot(ref), _snapshot(env))
        _same((ref._rewards, ref._done), (env._rewards, env._done))
    env.close()


@pytest.mark.parametrize(("tables", "lanes", "chunk"), [(130, 2, 7), (130, 3, 64), (130, 16, 1),
                                                     (5, 16, 2), (130, 4, 1000)])
def test_lanes_give_the_same_tables(tables: int, lanes: int, chunk: int) -> None:
    """A step cut into lanes (one a thread, each taking its own lane first, then the
    others'): the same tables as one thread, with more lanes than threads (the caller and
    the workers take the lanes nobody owns), more lanes than tables (5 tables, 16 lanes: as
    many lanes as tables) and chunks longer than a lane."""
    ref, env = _pair(tables, 6, 4, 3)
    rng = np.random.default_rng(4)

    def step(wake: Any, *args: Any) -> None:
        env._batch.share_start(wake, *args)
        env._batch.share_finish()

    for _ in range(30):
        cols = (rng.random(ref.legal_mask.shape) * ref.legal_mask).argmax(axis=1)
        ref.step_unchecked(cols)
        env._workers().share(step, env._batch.assist,
                             (chunk, np.asarray(cols, dtype=np.int64), 0, tables, False, None,
                              lanes), (0.001,))
        _same(_snapshot(ref), _snapshot(env))
        _same((ref._rewards, ref._done), (env._rewards, env._done))
    for bad in (0, 17, -1):
        with pytest.raises(InvalidConfigError, match=rf"lanes must be 1\.\.16, got {bad}$"):
            env._batch.share_start(lambda: None, 4, np.ones(tables, dtype=np.int64), 0, tables,
                                   False, None, bad)
        _same(_snapshot(ref), _snapshot(env))  # refused before anything moved
    env.close()


def test_more_threads_than_lanes_give_the_same_results() -> None:
    """num_threads above the 16 lanes: workers 16 and up start from the lanes of others."""
    ref, env = _pair(90, 4, 8, 20)
    rng = np.random.default_rng(8)
    for t in range(30):
        cols = (rng.random(ref.legal_mask.shape) * ref.legal_mask).argmax(axis=1)
        ref.step_unchecked(cols)
        (env.step if t % 2 else env.step_unchecked)(cols)
        _same(_snapshot(ref), _snapshot(env))
    env.close()


def test_share_checks_its_arguments_before_waking_anyone() -> None:
    _, env = _pair(50, 3, 2, 2)
    woken: list[int] = []
    good = _args(env, np.ones(50))
    before = _snapshot(env)
    for chunk, args, error in [
            (8, (np.ones(49, dtype=np.int64),), "actions must have shape"),
            (8, (None,), "no checked actions"),  # None: the last check's, and there is none
            (8, (np.ones(50, dtype=np.int32),), "mismatch"),
            (0, good, "chunk must be 1.."),
    ]:
        with pytest.raises(ValueError, match=error):
            env._batch.share(lambda: woken.append(1), chunk, *args)
    assert woken == []
    _same(before, _snapshot(env))
    for linger in (0.0, 0.001, -1.0):  # no step in progress: returns, nothing moves
        env._batch.assist(linger)
        _same(before, _snapshot(env))
    # the outputs are checked when they are bound; a rejected bind keeps the bound ones
    out = _outputs(env)
    for outputs, error in [
            ((env._obs[:49], *out[1:]), "output buffers"),
            ((*out[:3], np.zeros((50, 2), dtype=np.int64), *out[4:]), "output buffers"),
            ((*out[:3], env._payoffs[:, :2], *out[4:]), "not C-contiguous"),
            ((*out[:5], np.zeros(50, dtype=np.int64)), "mismatch"),
    ]:
        with pytest.raises(ValueError, match=error):
            env._batch.bind(*outputs)
    env._batch.share(lambda: woken.append(1), 8, *good)
    assert woken == [1]
    ref = VectorGame(GAME, num_tables=50, players=3, stacks=200, seed=2)
    ref.reset()
    ref.step_unchecked(np.ones(50, dtype=np.int64))
    _same(_snapshot(ref), _snapshot(env))
    env.close()


def test_a_step_inside_a_step_is_refused_and_the_outer_step_completes() -> None:
    ref, env = _pair(50, 3, 2, 2)
    args = _args(env, np.ones(50))

    def wake_and_step_again() -> None:
        env._batch.share(lambda: None, 4, *args)

    with pytest.raises(IllegalActionError, match="one thread at a time"):
        env._batch.share(wake_and_step_again, 4, *args)
    ref.step_unchecked([1] * 50)  # the outer step ran once, whole
    _same(_snapshot(ref), _snapshot(env))
    env.step_unchecked([1] * 50)  # and the batch steps again afterwards
    ref.step_unchecked([1] * 50)
    _same(_snapshot(ref), _snapshot(env))
    env.close()


def test_checked_actions_are_played_once_and_only_on_the_tables_they_were_checked_on() -> None:
    """The batch keeps the entries of its last successful check for one step: a failed check,
    another step or a reset in between leaves nothing to play (a stale entry could be illegal
    now), and nothing checks, binds or resets while a step runs."""
    ref, env = _pair(20, 3, 5, 2)
    b = env._batch
    ones = np.ones(20, dtype=np.int64)
    assert b.check_columns(ones) == -1
    b.run(0, 20, None)
    ref.step_unchecked(ones)
    _same(_snapshot(ref), _snapshot(env))
    for played, spoil in ((True, lambda: None),           # played once already
                          (False, lambda: b.run(0, 20, ones)),  # another step moved the tables
                          (False, b.reset),               # the tables were dealt again
                          (False, lambda: b.check_columns(np.full(20, 99, dtype=np.int64)))):
        assert b.check_columns(ones) == -1            # (99: not a column, a failed check)
        if played:
            b.run(0, 20, None)
        spoil()
        with pytest.raises(IllegalActionError, match="no checked actions"):
            b.run(0, 20, None)
        with pytest.raises(IllegalActionError, match="no checked actions"):
            b.share(lambda: None, 4, None)
    ref.reset()
    ref.step_unchecked(ones)
    b.reset()
    b.run(0, 20, ones)
    assert b.check_exact(ones, np.zeros(20, dtype=np.int64)) == -1
    b.share(lambda: None, 4, None)
    ref.step_unchecked(ones)
    _same(_snapshot(ref), _snapshot(env))
    out = _outputs(env)
    for inside in (lambda: b.check_columns(ones), lambda: b.check_exact(ones, ones),
                   lambda: b.reset(), lambda: b.bind(*out), lambda: b.run(0, 20, ones),
                   # nor read a hand half-way through an action
                   lambda: b.legal(3), lambda: b.amounts(3), lambda: b.table(3),
                   lambda: b.history(3, False), lambda: b.decide(3, (0, 0, 0.0), 1),
                   # nor sum results half-way through a step
                   lambda: b.totals(env._payoffs.copy()),
                   lambda: b.hands_played(np.zeros(20, dtype=np.int64))):
        with pytest.raises(IllegalActionError, match="another thread"):
            b.share(inside, 4, ones)  # the wake-up runs while the step is in progress
        ref.step_unchecked(ones)      # and the step itself completed
        _same(_snapshot(ref), _snapshot(env))
    seen: list[object] = []
    b.share(lambda: seen.append(b.cards(3, 0)), 4, ones)  # from the seed alone: allowed
    ref.step_unchecked(ones)
    assert seen == [ref._batch.cards(3, 0)]
    _same(_snapshot(ref), _snapshot(env))
    env.close()


def test_stale_wake_ups_are_harmless() -> None:
    """Extra assist jobs queued between steps (late wake-ups) take no chunk of a step they
    were not woken for with wrong arguments: the results stay those of one thread."""
    before = _workers()
    ref, env = _pair(200, 6, 9, 3)
    rng = np.random.default_rng(9)
    for t in range(40):
        cols = (rng.random(ref.legal_mask.shape) * ref.legal_mask).argmax(axis=1)
        ref.step_unchecked(cols)
        env.step_unchecked(cols.copy())
        for jobs in env._workers()._jobs[: 1 + t % 2]:
            for _ in range(3):
                jobs.put((0, env._batch.assist, (0.0005 * (t % 3),)))
        _same(_snapshot(ref), _snapshot(env))
    env.close()  # the stale jobs queued last run first, then the workers stop
    assert _workers() == before


def test_a_failing_shared_job_is_raised_not_lost() -> None:
    from holdem.vector import _SliceThreads

    def boom(*lane: int) -> None:  # worker k is called with its lane, k + 1
        raise InvalidArrayError("worker failed")

    stepped: list[int] = []
    pool = _SliceThreads(1)
    pool.share(lambda wake, x: (wake(), stepped.append(x)), boom, (5,))
    assert stepped == [5]  # the caller's step does not wait for the worker's reply
    with pytest.raises(InvalidArrayError, match="worker failed"):
        pool.close()  # the worker's error, raised once every queued job has run
    pool = _SliceThreads(1)
    try:
        pool.share(lambda wake: wake(), boom, ())
        pool.run(lambda lo, hi: None, [0, 1, 2], ())  # after this the worker has failed
        with pytest.raises(InvalidArrayError, match="worker failed"):
            pool.share(lambda wake: wake(), lambda *lane: None, ())
        pool.share(lambda wake: stepped.append(6), lambda *lane: None, ())  # raised once only
        assert stepped == [5, 6]
    finally:
        pool.close()


def test_pool_closes_cleanly_after_shared_steps() -> None:
    before = _workers()
    env = VectorGame(GAME, num_tables=500, players=6, stacks=200, seed=4, num_threads=3)
    env.reset()
    for _ in range(200):
        env.step_unchecked(np.ones(500, dtype=np.int64))
        # a worker watching for steps gets no job per step: its queue stays short
        assert all(jobs.qsize() <= 1 for jobs in env._workers()._jobs)
    assert _workers() == before + 2
    env.close()
    assert _workers() == before
    env.close()  # twice is fine
    assert _workers() == before


def test_play_between_shared_steps_uses_the_same_workers() -> None:
    """play() keeps its fixed slices on the workers that share the steps (lingering or not):
    steps, play, steps give one thread's results, and play leaves the steps' tables alone."""
    from holdem.table.agents import CompiledPolicy

    policies = [CompiledPolicy("random"), CompiledPolicy("call")] * 2

    def run(threads: int) -> list[object]:
        env = VectorGame(GAME, num_tables=600, players=4, stacks=200, seed=8,
                         num_threads=threads)
        env.reset()
        rng = np.random.default_rng(8)
        out: list[object] = []
        for rounds in range(3):
            for _ in range(15):
                cols = (rng.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1)
                env.step(cols)
            out.append(_snapshot(env))
            r = env.play(5 + rounds, policies, keep_hands=True)
            out.append((r.payoffs, r.hand_payoffs, r.curve, r.rake))
            out.append(_snapshot(env))
        env.close()
        return out

    one = run(1)
    for threads in (2, 3):
        for a, b in zip(one, run(threads), strict=True):
            _same(a, b)


def _in_forked_child(target: Callable[[Any, Any], None], env: VectorGame) -> list[Any]:
    """``target(env, out)`` in a forked child; what it put in ``out`` (it must exit with 0)."""
    ctx = multiprocessing.get_context("fork")
    out = ctx.SimpleQueue()
    child = ctx.Process(target=target, args=(env, out))
    child.start()
    child.join(60)
    alive = child.is_alive()
    if alive:
        child.kill()
    got = []
    while not out.empty():
        got.append(out.get())
    assert not alive and child.exitcode == 0, (alive, child.exitcode, got)
    return got


def _step_and_play_in_child(env: Any, out: Any) -> None:
    env.step(np.ones(env.num_tables, dtype=np.int64))
    out.put(("step", env.table_state(0)["stacks"]))
    r = env.play(6, [RandomAgent()] * env.players)
    out.put(("play", r.payoffs.tolist()))


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                    reason="needs the fork start method (POSIX)")
def test_a_forked_child_starts_its_own_workers() -> None:
    """After a fork the parent's worker threads do not exist in the child: a step and play()
    there start the child's own (play() used to wait forever for a slice nobody stepped),
    with the results of one thread."""
    game = Game(big_blind=2)
    env = VectorGame(game, num_tables=256, players=3, stacks=100, seed=4, num_threads=2)
    env.reset()
    env.step(np.ones(256, dtype=np.int64))
    env.play(3, [RandomAgent()] * 3)  # the parent's workers are running
    ref = VectorGame(game, num_tables=256, players=3, stacks=100, seed=4)
    ref.reset()
    ref.step(np.ones(256, dtype=np.int64))
    ref.step(np.ones(256, dtype=np.int64))
    want = [("step", ref.table_state(0)["stacks"]),
            ("play", ref.play(6, [RandomAgent()] * 3).payoffs.tolist())]
    got = _in_forked_child(_step_and_play_in_child, env)
    assert got == want
    env.close()


# ---------------------------------------------------------------------- step_async / step_wait
def _cols(u: np.ndarray, mask: Any) -> np.ndarray:
    """The uniform masked policy on draws ``u`` (one row per table)."""
    return (u * mask).argmax(axis=1)


@pytest.mark.parametrize(("tables", "threads", "split"),
                         [(101, 2, 50), (101, 3, 1), (64, 2, 63), (200, 2, 100), (9, 1, 4)])
def test_halves_stepped_in_turn_give_the_tables_of_whole_steps(
        tables: int, threads: int, split: int) -> None:
    """The batch in two parts, one stepped (step_async) while the policy of the other runs:
    after k steps of each part every table is where k whole steps of one thread put it
    (each table's draws are the same in both runs), checked and unchecked steps mixed."""
    ref = VectorGame(GAME, num_tables=tables, players=6, stacks=200, seed=11)
    env = VectorGame(GAME, num_tables=tables, players=6, stacks=200, seed=11,
                     num_threads=threads)
    ref.reset()
    env.reset()
    draws = np.random.default_rng(11).random((30, tables))[:, :, None] * np.ones(
        ref.action_layout.size)
    draws = draws + np.random.default_rng(12).random(draws.shape)  # ties broken per column
    a, b = slice(0, split), slice(split, None)
    for k in range(30):
        checked = k % 3 == 0
        env.step_async(_cols(draws[k, a], env.legal_mask[a]), a, checked=checked)
        # part a is in flight: the policy of part b reads only part b's rows
        env.step_async(_cols(draws[k, b], env.legal_mask[b]), b, checked=checked)
        ref.step(_cols(draws[k], ref.legal_mask))
        # part a is complete (the second call finished it first); part b may still run
        for got, want in ((env.observation, ref.observation), (env.legal_mask, ref.legal_mask),
                          (env.current_player, ref.current_player), (env.payoffs, ref.payoffs)):
            assert np.array_equal(got[a], want[a])
        obs, rewards, done = env.step_wait()
        _same(_snapshot(ref), _snapshot(env))
        assert np.array_equal(rewards, ref._rewards) and np.array_equal(done, ref._done_view)
        assert np.array_equal(obs, ref.observation)
    assert np.array_equal(env.total_payoffs(), ref.total_payoffs())
    assert np.array_equal(env.hands_played(), ref.hands_played())
    env.close()


def test_step_async_copies_the_actions_and_other_methods_wait_for_it() -> None:
    """The caller's buffer is copied: overwriting it at once changes nothing. A step in
    flight is completed by every method that reads or moves the tables."""
    ref, env = _pair(4096, 6, 21, 2)
    rng = np.random.default_rng(21)
    readers = [lambda e: e.legal_actions(7), lambda e: e.raise_amounts(7),
               lambda e: e.table_state(7), lambda e: e.history(7), lambda e: e.hands_played(),
               lambda e: e.total_payoffs(), lambda e: e.hand_state(7).stacks,
               lambda e: e.last_hand(7) is None]
    for t in range(2 * len(readers)):
        cols = _cols(rng.random(ref.legal_mask.shape), ref.legal_mask)
        buf = cols.copy()
        env.step_async(buf, checked=bool(t % 2))
        buf[:] = 99  # not a column: played as check/call if the step read it now
        ref.step_unchecked(cols)
        reader = readers[t % len(readers)]
        got, want = reader(env), reader(ref)
        assert str(got) == str(want)
        assert env._batch.in_flight == 0
        _same(_snapshot(ref), _snapshot(env))
    for finish in (lambda e: e.step_unchecked(np.ones(4096, dtype=np.int64))[1],
                   lambda e: e.step(np.ones(4096, dtype=np.int64))[1],
                   lambda e: e.step_exact(np.ones(4096, dtype=np.int64),
                                          np.zeros(4096, dtype=np.int64))[1],
                   lambda e: e.play(2, [RandomAgent()] * 6).payoffs,
                   lambda e: e.reset()):
        cols = _cols(rng.random(ref.legal_mask.shape), ref.legal_mask)
        env.step_async(cols, checked=False)
        ref.step_unchecked(cols)
        assert np.array_equal(finish(env), finish(ref))
        _same(_snapshot(ref), _snapshot(env))
    env.step_async(np.ones(4096, dtype=np.int64))
    env.close()  # completes the step, then stops the workers
    ref.step(np.ones(4096, dtype=np.int64))
    _same(_snapshot(ref), _snapshot(env))
    assert env.step_wait()[0] is env.observation  # nothing in flight: at once


def test_step_async_refuses_bad_input_before_any_table_moves() -> None:
    ref, env = _pair(40, 3, 8, 2)
    env.step_async(np.ones(20, dtype=np.int64), slice(0, 20))  # in flight while refused below
    ref.step_unchecked(np.ones(40, dtype=np.int64))
    ref.step_unchecked(np.r_[np.zeros(20, dtype=np.int64), np.ones(20, dtype=np.int64)])
    for args, kwargs, error, what in [
            ((np.ones(20, dtype=np.int64), slice(0, 40, 2)), {}, InvalidArrayError,
             "slice with step 1"),
            ((np.ones(20, dtype=np.int64), (0, 20)), {}, InvalidArrayError, "a slice of"),
            ((np.ones(19, dtype=np.int64), slice(20, 40)), {}, InvalidArrayError,
             r"shape \(20,\)"),
            ((np.ones(20), slice(20, 40)), {}, InvalidArrayError, "integers|int64"),
            ((np.ones(20, dtype=np.int64), slice(20, 40)), {"checked": 1}, ValueError,
             "checked must be"),
            ((np.full(20, 9, dtype=np.int64), slice(20, 40)), {}, IllegalActionError,
             "table 20: action 9 is not a column"),
    ]:
        with pytest.raises(error, match=what):
            env.step_async(*args, **kwargs)
    # the step in flight was completed and the refused ones moved nothing: two more steps
    # of each half give the reference's two steps (zeros: fold, or check/call where fold is
    # masked, unchecked)
    env.step_async(np.ones(20, dtype=np.int64), slice(20, 40))
    env.step_async(np.zeros(20, dtype=np.int64), slice(0, 20), checked=False)
    env.step_async(np.ones(20, dtype=np.int64), slice(20, 40))
    env.step_wait()
    _same(_snapshot(ref), _snapshot(env))
    env.step_async(np.zeros(0, dtype=np.int64), slice(40, 50))  # empty: nothing to step
    assert env._batch.in_flight == 0
    with pytest.raises(IllegalActionError, match="reset"):
        VectorGame(GAME, num_tables=4, players=3, stacks=100, seed=1).step_async([1] * 4)
    env.close()


def test_batch_checks_and_steps_ranges() -> None:
    """Batch.check_columns(cols, lo) and run/share_start(lo, hi): a check is played only on
    the tables it covered; a range outside the batch is refused."""
    _, env = _pair(30, 3, 6, 2)
    b = env._batch
    ones = np.ones(10, dtype=np.int64)
    for lo in (-1, 21, 31):
        with pytest.raises(InvalidArrayError, match="from table"):
            b.check_columns(ones, lo)
    assert b.check_columns(ones, 10) == -1
    for lo, hi in ((0, 10), (20, 30), (10, 20)):  # only the last is the checked range
        if (lo, hi) == (10, 20):
            b.run(lo, hi, None)
            break
        with pytest.raises(IllegalActionError, match=f"no checked actions to play for tables {lo}:{hi}"):
            b.run(lo, hi, None)
    for lo, hi in ((-1, 10), (5, 31), (20, 10)):
        with pytest.raises(InvalidArrayError, match="outside"):
            b.share_start(lambda: None, 4, np.ones(max(hi - lo, 0), dtype=np.int64), lo, hi,
                          True)
    assert b.in_flight == 0
    b.share_start(lambda: None, 4, ones, 0, 10, True)
    assert b.in_flight == 10
    with pytest.raises(IllegalActionError, match="another thread"):
        b.run(20, 30, ones)
    b.share_finish()
    b.share_finish()  # nothing in flight: nothing to do
    assert b.in_flight == 0
    env.close()


def _fork_in_flight(env: Any, out: Any) -> None:
    try:
        env.step_wait()
    except IllegalActionError as exc:
        out.put(str(exc))


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                    reason="needs the fork start method (POSIX)")
def test_a_child_forked_during_step_async_refuses_the_incomplete_tables() -> None:
    """The threads stepping a step_async are not in a forked child: waiting there for the
    tables they took would never end, so the child raises instead; the parent completes."""
    env = VectorGame(GAME, num_tables=8192, players=6, stacks=200, seed=4, num_threads=2)
    env.reset()
    env.step_async(np.ones(8192, dtype=np.int64), checked=False)
    (message,) = _in_forked_child(_fork_in_flight, env)
    assert "forked while a step_async was in flight" in message
    ref = VectorGame(GAME, num_tables=8192, players=6, stacks=200, seed=4)
    ref.reset()
    ref.step_unchecked(np.ones(8192, dtype=np.int64))
    env.step_wait()
    _same(_snapshot(ref), _snapshot(env))
    env.close()


def test_one_game_stepped_from_two_python_threads_refuses_the_second_and_stays_whole() -> None:
    """Two Python threads stepping one VectorGame (with worker threads): a call that finds
    the batch busy, or its last step being finished by the other thread, is refused with
    IllegalActionError; nothing else happens to the tables. Every step is the same
    check/call for all tables, so the tables end as one thread's after as many successful
    steps. (A second thread used to finish the same step too, free its actions while the
    workers read them and start the next step under them.)"""
    tables, calls = 300, 600
    env = VectorGame(GAME, num_tables=tables, players=3, stacks=50, seed=1, num_threads=3)
    env.reset()
    ok = [0, 0]
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def hammer(k: int) -> None:
        start.wait()
        for _ in range(calls):
            try:
                env.step_unchecked(np.ones(tables, np.int64))
                ok[k] += 1
            except BaseException as exc:  # every kind is checked below
                errors.append(exc)

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads)
    assert all(isinstance(e, IllegalActionError) and "in use by another thread" in str(e)
               for e in errors), errors[:3]
    assert sum(ok) + len(errors) == 2 * calls
    got = [env.table_state(i) for i in range(tables)], env.hands_played(), env.total_payoffs()
    env.close()
    ref = VectorGame(GAME, num_tables=tables, players=3, stacks=50, seed=1)
    ref.reset()
    for _ in range(sum(ok)):
        ref.step_unchecked(np.ones(tables, np.int64))
    want = [ref.table_state(i) for i in range(tables)], ref.hands_played(), ref.total_payoffs()
    assert got[0] == want[0]
    assert np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])


def test_a_step_in_flight_is_finished_by_its_own_thread_only() -> None:
    """A second Python thread finished a step another had started (step_async), then played
    its own; the first thread's finishing call could then be refused while its step had been
    played (the test above then failed, rarely: the tables one step ahead of the calls that
    succeeded). The second thread is refused, and nothing moves."""
    tables = 300
    env = VectorGame(GAME, num_tables=tables, players=3, stacks=50, seed=1, num_threads=3)
    env.reset()
    calls = np.ones(tables, np.int64)
    env.step_async(calls, checked=False)
    errors: list[BaseException] = []

    def other() -> None:
        for call in (lambda: env.step_unchecked(calls), env.step_wait, env.clone,
                     lambda: env.history(0)):
            try:
                call()
            except IllegalActionError as exc:
                errors.append(exc)

    t = threading.Thread(target=other)
    t.start()
    t.join(60)
    assert len(errors) == 4 and all("a step it started is in flight" in str(e) for e in errors)
    env.step_wait()
    ref = VectorGame(GAME, num_tables=tables, players=3, stacks=50, seed=1)
    ref.reset()
    ref.step_unchecked(calls)
    assert [env.table_state(i) for i in range(tables)] == [ref.table_state(i)
                                                          for i in range(tables)]
    env.close()


def test_play_from_two_python_threads_at_once_gives_each_its_own_results() -> None:
    """play() hands fixed slices to the worker threads and waits for their replies; a second
    caller waits its turn (it used to take the first caller's replies, so one of them could
    wait forever)."""
    from holdem.table.agents import CompiledPolicy

    policies = [CompiledPolicy("random"), CompiledPolicy("call"), CompiledPolicy("random")]
    env = VectorGame(GAME, num_tables=64, players=3, stacks=100, seed=2, num_threads=3)
    want = {h: env.play(h, policies).payoffs for h in (30, 31)}
    got: dict[int, list[bool]] = {h: [] for h in want}
    errors: list[BaseException] = []
    start = threading.Barrier(2)

    def run(hands: int) -> None:
        start.wait()
        try:
            for _ in range(20):
                got[hands].append(np.array_equal(env.play(hands, policies).payoffs,
                                                  want[hands]))
        except BaseException as exc:  # checked in the test's thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(h,)) for h in want]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads)
    env.close()
    assert not errors, errors
    assert got == {h: [True] * 20 for h in want}


def test_close_from_another_thread_while_play_runs_never_hangs_it() -> None:
    """close() used to put its stop markers on the workers' queues while another thread was
    inside play(): that play queued its slices behind them and waited for good. Now close
    waits for the play in progress, and a play that took the pool before it closed runs
    its slices itself; every result is still the one a lone play gives."""
    from holdem.table.agents import CompiledPolicy

    policies = [CompiledPolicy("call"), CompiledPolicy("random")]
    env = VectorGame(GAME, num_tables=8, players=2, stacks=200, seed=1, num_threads=2)
    want = env.play(3, policies).payoffs.copy()
    results: list[bool] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def player() -> None:
        try:
            while not stop.is_set():
                results.append(np.array_equal(env.play(3, policies).payoffs, want))
        except BaseException as exc:  # checked in the test's thread
            errors.append(exc)

    thread = threading.Thread(target=player, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while len(results) < 200 and thread.is_alive() and time.monotonic() < deadline:
        env.close()
        time.sleep(0.0005)
    stop.set()
    thread.join(30)
    assert not thread.is_alive(), f"play() hung after {len(results)} calls"
    assert not errors, errors
    assert len(results) >= 200 and all(results)
    env.close()


def test_the_wake_up_of_shared_steps_is_built_once_not_per_step() -> None:
    """A step of a small batch takes microseconds: waking the workers must not build their
    jobs again at every step (the caller does it before it takes any table). Worker k still
    assists from lane k + 1, and another assist call gets a wake-up of its own."""
    from holdem.vector import _SliceThreads

    homes: list[tuple[str, int]] = []
    lock = threading.Lock()

    def first(linger: float, home: int) -> None:
        with lock:
            homes.append(("first", home))

    def second(linger: float, home: int) -> None:
        with lock:
            homes.append(("second", home))

    pool = _SliceThreads(3)
    try:
        wakes = []
        for _ in range(3):
            pool.share(lambda wake: (wakes.append(wake), wake()), first, (), (0.0,))
        assert wakes[0] is wakes[1] is wakes[2]
        pool.share(lambda wake: (wakes.append(wake), wake()), second, (), (0.0,))
        assert wakes[3] is not wakes[0]
    finally:
        pool.close()
    assert {h for w, h in homes if w == "first"} == {1, 2, 3}
    assert {h for w, h in homes if w == "second"} <= {1, 2, 3}  # (a queued worker gets none)


def test_the_wake_up_of_a_vector_game_is_reused_across_steps() -> None:
    env = VectorGame(GAME, num_tables=20, players=3, stacks=100, seed=1, num_threads=3)
    env.reset()
    env.step_unchecked([1] * 20)
    wake = env._pool._wake
    for _ in range(5):
        env.step_unchecked([1] * 20)
        env.step_async([1] * 10, slice(0, 10), checked=False)
        env.step_wait()
    assert env._pool._wake is wake
    env.close()


def test_threads_sharing_a_batch_start_one_pool() -> None:
    """Two threads stepping (or playing on) one batch could each start a pool of workers (the
    check and the start were not atomic): every pool but the last was left running, and
    close() stopped only that one (thousands of threads after a few seconds)."""
    before = _workers()
    env = VectorGame(GAME, num_tables=64, players=3, stacks=100, seed=1, num_threads=4)
    failed: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(25):
                env.play(2, [RandomAgent()] * 3)
                env.close()
        except BaseException as e:  # pragma: no cover - reported below
            failed.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failed
    assert _workers() <= before + 3  # at most the one pool of the last play
    env.close()
    assert _workers() == before
