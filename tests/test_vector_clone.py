"""VectorGame.clone (and copy.copy / copy.deepcopy): an independent copy of a batch in play
(pickling: tests/test_vector_pickle.py)."""

from __future__ import annotations

import contextlib
import copy
import sys
import threading
import time
from typing import Any

import numpy as np
import pytest

from holdem import AnteType, Game, Rake, Structure
from holdem.errors import IllegalActionError, InvalidConfigError
from holdem.vector import VectorGame

GAMES = {
    "nl": Game(big_blind=2),
    "pl_straddle": Game(structure=Structure.POT_LIMIT, big_blind=2, straddle=True),
    "fl_ante_rake": Game(structure=Structure.FIXED_LIMIT, big_blind=2, ante=1,
                         rake=Rake("1/10", no_flop_no_drop=False)),
    "nl_bb_ante": Game(big_blind=4, ante=4, ante_type=AnteType.BIG_BLIND),
}


def snapshot(env: VectorGame) -> dict[str, Any]:
    """Everything a user can read of a batch, as plain copies (a step in flight finished)."""
    env.hands_played()  # completes a step in flight (reset first: raises otherwise)
    snap: dict[str, Any] = {
        "obs": env.observation.copy(), "mask": env.legal_mask.copy(),
        "actor": env.current_player.copy(), "payoffs": env.payoffs.copy(),
        "hands": env.hands_played().copy(), "totals": env.total_payoffs().copy(),
    }
    if env._final is not None:  # (the property raises when they are not kept)
        snap["final"] = env.final_observation.copy()
    for t in range(env.num_tables):
        snap[f"history{t}"] = env.history(t)
        snap[f"state{t}"] = env.table_state(t)
        snap[f"hand{t}"] = env.hand_state(t)
        snap[f"last{t}"] = env.last_hand(t)
        snap[f"amounts{t}"] = env.raise_amounts(t)
    return snap


def assert_same(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], np.ndarray):
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)
        else:
            assert a[key] == b[key], key


def same_results(u: object, v: object) -> bool:
    """Deep equality of what an env's step or reset returns: tuples and lists, dicts (infos,
    per-agent observations), arrays, object arrays of rows, None."""
    if isinstance(u, dict):
        return isinstance(v, dict) and u.keys() == v.keys() and all(
            same_results(u[k], v[k]) for k in u)
    if isinstance(u, tuple | list):
        return isinstance(v, tuple | list) and len(u) == len(v) and all(
            same_results(a, b) for a, b in zip(u, v, strict=True))
    if isinstance(u, np.ndarray) and u.dtype == object:
        return isinstance(v, np.ndarray) and u.shape == v.shape and all(
            same_results(a, b) for a, b in zip(u.ravel(), v.ravel(), strict=True))
    if u is None or v is None:
        return u is v
    return bool(np.array_equal(np.asarray(u), np.asarray(v)))


def random_columns(env: VectorGame, rng: np.random.Generator) -> Any:
    return (rng.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("players", [2, 6, 10])
@pytest.mark.parametrize(("session", "final"), [(False, False), (True, True)])
def test_a_clone_plays_on_exactly_as_the_original(name: str, players: int, session: bool,
                                                  final: bool) -> None:
    """Cloned mid-run, both batches give the same results for the same actions, step after
    step (hands ending, sessions carrying stacks, totals and histories included)."""
    if name == "pl_straddle" and players == 2:
        players = 3  # a straddle needs 3 (R8)
    env = VectorGame(GAMES[name], num_tables=7, players=players, stacks=60, seed=5,
                     session=session, final_observation=final)
    env.reset()
    rng = np.random.default_rng(players)
    for _ in range(23):
        env.step(random_columns(env, rng))
    fork = env.clone()
    at_clone = env.hands_played().sum()
    assert_same(snapshot(env), snapshot(fork))
    for k in range(40):
        cols = random_columns(env, rng)
        obs_a, rew_a, done_a = env.step(cols)
        obs_b, rew_b, done_b = fork.step(cols)
        np.testing.assert_array_equal(rew_a, rew_b)
        np.testing.assert_array_equal(done_a, done_b)
        np.testing.assert_array_equal(obs_a, obs_b)
        if k % 10 == 9:
            assert_same(snapshot(env), snapshot(fork))
    assert env.hands_played().sum() > at_clone  # hands ended after the clone


def test_a_clone_is_independent_of_the_original() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=5, players=4, stacks=100, seed=2,
                     session=True, final_observation=True)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(10):
        env.step(random_columns(env, rng))
    before = snapshot(env)
    fork = env.clone()
    for arr_a, arr_b in ((env.observation, fork.observation), (env.legal_mask, fork.legal_mask),
                         (env.current_player, fork.current_player),
                         (env.payoffs, fork.payoffs),
                         (env.final_observation, fork.final_observation)):
        assert not np.shares_memory(arr_a, arr_b)
    for _ in range(30):  # the fork plays on; the original does not move
        fork.step(random_columns(fork, rng))
    fork.abandon([True] * 5)
    assert_same(before, snapshot(env))
    assert fork.hands_played().sum() > env.hands_played().sum()
    # and the other way round
    fork_before = snapshot(fork)
    for _ in range(5):
        env.step(random_columns(env, rng))
    assert_same(fork_before, snapshot(fork))


def test_the_rewards_and_done_flags_of_the_last_step_are_copied() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=64, players=2, stacks=20, seed=3)
    env.reset()
    rng = np.random.default_rng(3)
    while True:
        _, rewards, done = env.step(random_columns(env, rng))
        if done.any():
            break
    fork = env.clone()
    _, rewards_b, done_b = fork.step_wait()  # nothing in flight: the arrays as they stand
    np.testing.assert_array_equal(rewards, rewards_b)
    np.testing.assert_array_equal(done, done_b)
    assert done_b.any() and np.abs(rewards_b).sum() > 0


def test_copy_and_deepcopy_make_clones() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=3, players=3, stacks=100, seed=4)
    env.reset()
    env.step([1, 1, 1])
    for make in (copy.copy, copy.deepcopy):
        other = make(env)
        assert type(other) is VectorGame and other is not env
        assert_same(snapshot(env), snapshot(other))
        assert not np.shares_memory(env.observation, other.observation)
        assert repr(other) == repr(env)
    holder = copy.deepcopy({"env": env, "again": env})  # one copy per object (the memo)
    assert holder["env"] is holder["again"] and holder["env"] is not env


def test_a_clone_of_a_batch_not_reset_needs_reset_too() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=2, players=2, stacks=100, seed=1)
    fork = env.clone()
    with pytest.raises(IllegalActionError, match="reset"):
        fork.step([1, 1])
    fork.reset()
    env.reset()
    assert_same(snapshot(env), snapshot(fork))


@pytest.mark.parametrize("threads", [2, 3])
def test_a_step_in_flight_is_completed_before_the_copy(threads: int) -> None:
    env = VectorGame(Game(big_blind=2), num_tables=300, players=6, stacks=200, seed=8,
                     num_threads=threads)
    ref = VectorGame(Game(big_blind=2), num_tables=300, players=6, stacks=200, seed=8)
    env.reset()
    ref.reset()
    rng = np.random.default_rng(8)
    for _ in range(6):
        cols = random_columns(env, rng)
        env.step_async(cols)
        ref.step(cols)
        fork = env.clone()  # completes the step, copies the result
        assert not env._batch.in_flight
        assert_same(snapshot(ref), snapshot(fork))
        assert_same(snapshot(ref), snapshot(env))
        fork.step_async(cols := random_columns(fork, rng))  # the fork has threads of its own
        env.step(cols)
        ref.step(cols)
        fork.step_wait()
        assert_same(snapshot(ref), snapshot(fork))
        fork.close()
    env.close()


def test_a_clone_of_a_closed_batch_and_a_clone_of_a_clone() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=40, players=3, stacks=100, seed=9,
                     num_threads=2)
    env.reset()
    rng = np.random.default_rng(9)
    env.step(random_columns(env, rng))
    env.close()
    second = env.clone().clone()
    cols = random_columns(env, rng)
    env.step(cols)
    second.step(cols)
    assert_same(snapshot(env), snapshot(second))
    second.close()
    env.close()


def test_copy_from_refuses_batches_that_do_not_match() -> None:
    """The internal copy checks what makes the tables' memory and meaning the same."""
    base = dict(num_tables=4, players=3, stacks=100, seed=1)
    env = VectorGame(Game(big_blind=2), **base)  # type: ignore[arg-type]
    env.reset()
    others = [
        VectorGame(Game(big_blind=2), **{**base, "num_tables": 5}),  # type: ignore[arg-type]
        VectorGame(Game(big_blind=2), **{**base, "players": 4}),  # type: ignore[arg-type]
        VectorGame(Game(big_blind=2), **{**base, "seed": 2}),  # type: ignore[arg-type]
        VectorGame(Game(big_blind=2), **{**base, "stacks": 90}),  # type: ignore[arg-type]
        VectorGame(Game(big_blind=2), **{**base, "session": True}),  # type: ignore[arg-type]
        VectorGame(Game(big_blind=2), **base, actions="fcpa"),  # type: ignore[arg-type]
    ]
    for other in others:
        with pytest.raises(InvalidConfigError, match="same arguments"):
            other._batch.copy_from(env._batch)
    with pytest.raises(InvalidConfigError, match="onto itself"):
        env._batch.copy_from(env._batch)
    with pytest.raises(TypeError):
        env._batch.copy_from(None)


def test_copy_from_refuses_a_batch_in_use() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=200, players=6, stacks=200, seed=1,
                     num_threads=2)
    twin = VectorGame(Game(big_blind=2), num_tables=200, players=6, stacks=200, seed=1)
    env.reset()
    twin.reset()
    before = snapshot(twin)
    env.step_async(random_columns(env, np.random.default_rng(1)))
    assert env._batch.in_flight == 200  # until step_wait, however soon the threads are done
    with pytest.raises(IllegalActionError, match="in use"):
        twin._batch.copy_from(env._batch)
    assert_same(before, snapshot(twin))  # nothing copied
    env.step_wait()
    twin._batch.copy_from(env._batch)
    env.close()


def test_a_clone_made_while_another_thread_steps_is_whole_or_refused() -> None:
    """clone() from one thread while another steps the batch: refused (the batch is in use)
    or a copy whose arrays are the ones of its tables (copied together), never the tables
    of one step with the rows of the next."""
    env = VectorGame(Game(big_blind=2), num_tables=500, players=3, stacks=100, seed=1,
                     final_observation=True)
    env.reset()
    stop = threading.Event()

    def stepper() -> None:
        rng = np.random.default_rng(0)
        while not stop.is_set():
            with contextlib.suppress(IllegalActionError):
                env.step_unchecked(random_columns(env, rng))
            # A gap between steps, so that clones also land outside a step however slow
            # the build (a sanitizer build steps the batch many times slower).
            time.sleep(1e-4)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    thread = threading.Thread(target=stepper)
    thread.start()
    copies = []
    attempts = 0
    deadline = time.monotonic() + 120.0
    try:
        # At least 150 attempts and 20 whole copies; the deadline only bounds a hung run.
        while (attempts < 150 or len(copies) < 20) and time.monotonic() < deadline:
            attempts += 1
            with contextlib.suppress(IllegalActionError):
                copies.append(env.clone())
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)
    assert len(copies) >= 20, (attempts, len(copies))
    for other in copies:
        rows, mask = other.observation.copy(), other.legal_mask.copy()
        other._batch.load_tables(other._batch.dump_tables())  # rows written from the tables
        np.testing.assert_array_equal(rows, other.observation)
        np.testing.assert_array_equal(mask, other.legal_mask)
