"""VectorGame misused across threads and processes: every case ends with a clear error or the
right result, never a hang or a crash. Cases that could hang or crash run in a subprocess
with a timeout, so the test suite itself cannot."""

from __future__ import annotations

import itertools
import os
import queue
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable

import numpy as np
import pytest
from child_env import child_env

from holdem import Game
from holdem.errors import IllegalActionError, InvalidArrayError
from holdem.vector import VectorGame

GAME = Game(big_blind=2)


def _run_script(code: str, timeout: float = 90) -> str:
    """Run ``code`` in a fresh interpreter (the repository's ``holdem``); fail on a non-zero
    exit or a timeout (a hang). Returns its stdout."""
    env = child_env()
    try:
        proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                              capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the script hung (killed after {timeout} s); output: {exc.stdout!r} "
                    f"{exc.stderr!r}")
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr[-3000:])
    return proc.stdout


_FORK_WHILE_PLAYING = """
    import gc, os, sys, threading, time
    import numpy as np
    from holdem import Game
    from holdem.table.agents import CompiledPolicy
    from holdem.vector import VectorGame

    env = VectorGame(Game(big_blind=2), num_tables=64, players=3, stacks=100, seed=1,
                     num_threads=2)
    env.reset()
    env.step(np.ones(64, np.int64))
    pool = env._workers()
    calls = pool._calls
    stop = threading.Event()

    def player():  # another thread inside play(), which holds the pool while it runs
        while not stop.is_set():
            env.play(3000, [CompiledPolicy("call")] * 3)

    thread = threading.Thread(target=player)
    thread.start()
    while pool._calls == calls:  # play() has taken the pool (and runs for a while)
        time.sleep(0.001)
    pid = os.fork()
    if pid == 0:
        how = {how!r}
        if how == "close":
            env.close()
            env.close()
            env.step(np.ones(64, np.int64))  # the child's own workers
            env.close()
        elif how == "collect":
            del env
            gc.collect()
        sys.exit(0)  # a normal exit: the finalizers of anything left open run
    deadline = time.monotonic() + 30
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            status = None
            break
        time.sleep(0.01)
    stop.set()
    thread.join()
    env.close()
    print("child", "hung" if status is None else os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")
@pytest.mark.parametrize("how", ["close", "collect", "exit"])
def test_a_child_forked_while_another_thread_plays_closes_and_exits(how: str) -> None:
    """A child forked while another thread of the parent was inside play() (which holds the
    worker pool): close(), garbage collection and the exit's finalizers in the child used to
    wait forever for that thread, which is not in the child, to let the pool go."""
    out = _run_script(_FORK_WHILE_PLAYING.replace("{how!r}", repr(how)))
    assert out.split() == ["child", "0"]


def _states(env: VectorGame) -> list[object]:
    return [env.table_state(i) for i in range(env.num_tables)]


@pytest.mark.parametrize("threads", [1, 2])
def test_step_async_refuses_odd_slices_and_holds_with_the_library_error(threads: int) -> None:
    """A slice whose bounds are not ints or whose step is 0, and a ragged ``hold``, used to
    escape as Python's own TypeError or ValueError (not HoldemError): now InvalidArrayError
    saying what ``tables`` or ``hold`` must be; no table moves."""
    env = VectorGame(GAME, num_tables=12, players=3, stacks=100, seed=3, num_threads=threads)
    env.reset()
    before = _states(env)
    ones = np.ones(6, dtype=np.int64)
    for tables in (slice(0, 6, 0), slice(0.5, 6), slice("0", 6), slice(0, 6.0),
                   slice(0, 12, 2.0)):
        with pytest.raises(InvalidArrayError, match=r"tables must be a slice with int bounds "
                                                    r"and step 1, got slice\("):
            env.step_async(ones, tables)
    for hold in ([[True], [True, False]], [True] * 11 + [[False, True]]):
        with pytest.raises(InvalidArrayError, match="hold must be 12 bools"):
            env.step_async(np.ones(12, dtype=np.int64), hold=hold)
    assert env._batch.in_flight == 0
    assert _states(env) == before
    env.step_async(ones, slice(np.int64(6), None))  # numpy ints are ints
    env.step_wait()
    env.close()


class _Other:
    """Another Python thread that runs the calls it is given, one at a time."""

    def __init__(self) -> None:
        self._calls: queue.SimpleQueue[Callable[[], object] | None] = queue.SimpleQueue()
        self._results: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while (fn := self._calls.get()) is not None:
            try:
                self._results.put(fn())
            except BaseException as exc:  # handed back to the test's thread
                self._results.put(exc)

    def __call__(self, fn: Callable[[], object]) -> object:
        """``fn()`` in the other thread: its result, or the exception it raised."""
        self._calls.put(fn)
        return self._results.get(timeout=60)

    def stop(self) -> None:
        self._calls.put(None)
        self._thread.join(60)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_check_made_by_one_thread_is_never_played_by_another(threads: int) -> None:
    """step() and step_async() check the actions, then play the entries checked. Between the
    two, another Python thread's check used to replace them: the first thread's step played
    the other's actions and returned as if it had played its own, and the other's step then
    failed with 'no checked actions ... check them first' although its actions had been
    played. Now a step plays only the entries its own thread checked; the other thread's
    call is refused as a use from two threads, and moves nothing."""
    n = 30
    env = VectorGame(GAME, num_tables=n, players=3, stacks=100, seed=4, num_threads=threads)
    ref = VectorGame(GAME, num_tables=n, players=3, stacks=100, seed=4)
    env.reset()
    ref.reset()
    b = env._batch
    fold, call = np.zeros(n, dtype=np.int64), np.ones(n, dtype=np.int64)
    other = _Other()
    for play in (lambda: b.run(0, n, None), lambda: b.share(lambda: None, 4, None)):
        assert b.check_columns(fold) == -1                 # this thread: fold
        assert other(lambda: b.check_columns(call)) == -1  # the other thread: call
        with pytest.raises(IllegalActionError, match="in use by another thread"):
            play()                                         # not the other's calls
        assert _states(env) == _states(ref)                # nothing moved
        assert other(play) is None                         # the other plays its own
        ref.step(call)
        assert _states(env) == _states(ref)
    # a check spoiled by the other thread's step is refused as a use from two threads too
    assert b.check_columns(call) == -1
    assert other(lambda: b.run(0, n, call)) is None
    ref.step(call)
    with pytest.raises(IllegalActionError, match="in use by another thread"):
        b.run(0, n, None)
    assert _states(env) == _states(ref)
    assert b.check_columns(call) == -1                     # and this thread's own check plays
    b.run(0, n, None)
    ref.step(call)
    assert _states(env) == _states(ref)
    other.stop()
    env.close()


def _split_run(threads: int, steps: int, seed: int) -> list[tuple[np.ndarray, ...]]:
    """``steps`` steps of a session batch, each cut into parts at random points (empty parts
    and parts of one table included) stepped with step_async one after the other; checked
    and unchecked parts mixed, some tables held."""
    n = 257
    env = VectorGame(GAME, num_tables=n, players=6, stacks=120, seed=seed, session=True,
                     num_threads=threads, final_observation=True)
    env.reset()
    draws = np.random.default_rng(seed)
    cuts = np.random.default_rng(seed + threads)  # the parts differ with the thread count
    out = []
    for t in range(steps):
        cols = (draws.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1)
        hold = draws.random(n) < 0.1 if t % 4 == 1 else None
        bounds = [0, *sorted(cuts.integers(0, n + 1, size=int(cuts.integers(0, 6)))), n]
        for k, (lo, hi) in enumerate(itertools.pairwise(bounds)):
            env.step_async(cols[lo:hi], slice(lo, hi), checked=bool((t + k) % 2), hold=hold)
        obs, rewards, done = env.step_wait()
        out.append((obs.copy(), rewards.copy(), done.copy(), env.payoffs.copy(),
                    env.final_observation.copy(), env.legal_mask.copy(),
                    env.current_player.copy()))
    out.append((env.total_payoffs(), env.hands_played()))
    env.close()
    return out


def test_any_thread_count_and_any_split_of_step_async_give_the_same_tables() -> None:
    """num_threads 1, 2, 3 and 7 (more threads than the two cores), each with its own random
    cuts of every step into step_async parts, give bit-identical outputs step by step."""
    one = _split_run(1, 40, 13)
    assert int(sum(s[2].sum() for s in one[:-1])) > 257  # hands ended along the way
    for threads in (2, 3, 7):
        for a, b in zip(one, _split_run(threads, 40, 13), strict=True):
            for x, y in zip(a, b, strict=True):
                assert np.array_equal(x, y)


_FORK_WHILE_STEPPING = """
    import os, sys, threading, time
    import numpy as np
    from holdem import Game
    from holdem.errors import IllegalActionError
    from holdem.vector import VectorGame

    n = 20000
    env = VectorGame(Game(big_blind=2), num_tables=n, players=6, stacks=200, seed=1)
    env.reset()
    stop = threading.Event()
    ones = np.ones(n, np.int64)

    def stepper():  # another thread, nearly always inside a step (the GIL released)
        while not stop.is_set():
            env.step_unchecked(ones)

    thread = threading.Thread(target=stepper)
    thread.start()
    messages = set()
    for _ in range(50):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            try:
                env.table_state(0)
                text = "free"  # forked between two steps: the child may use the tables
            except IllegalActionError as exc:
                text = str(exc)
            os.write(write, text.encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as f:
            messages.add(f.read())
        os.waitpid(pid, 0)
        if len(messages - {"free"}):
            break
    stop.set()
    thread.join()
    env.close()
    print(sorted(messages - {"free"}))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")
def test_a_child_forked_during_another_threads_step_says_so() -> None:
    """A child forked while another thread was inside a step (one thread: no workers) finds
    the batch busy for good, its tables maybe half-way through the step. It used to be told
    that another thread was using the batch and to use it from one thread at a time; now it
    is told that the process was forked during the step and to make a new VectorGame."""
    out = _run_script(_FORK_WHILE_STEPPING)
    assert "forked while another thread was stepping" in out, out
    assert "make a new VectorGame in this process" in out, out


_LEFT_IN_FLIGHT = """
    import gc, threading
    import numpy as np
    from holdem import Game
    from holdem.vector import VectorGame

    n = 3000
    for k in range(5):  # collected with a step in flight (in a reference cycle)
        env = VectorGame(Game(big_blind=2), num_tables=n, players=6, stacks=200, seed=k,
                         num_threads=3, final_observation=True)
        env.reset()
        env.cycle = env
        obs = env.observation
        env.step_async(np.ones(n, np.int64), checked=False)
        del env
        gc.collect()
        assert float(obs.sum()) > 0  # the rows outlive the game
    assert not any(t.name.startswith("holdem-vector-") for t in threading.enumerate())
    # and left in flight, never closed, at the interpreter's exit
    env = VectorGame(Game(big_blind=2), num_tables=n, players=6, stacks=200, seed=9,
                     num_threads=3)
    env.reset()
    env.step_async(np.ones(n // 2, np.int64), slice(0, n // 2))
    print("exiting")
"""


def test_a_game_collected_or_left_at_exit_with_a_step_in_flight() -> None:
    """Garbage collection of a VectorGame whose step_async is in flight, and the interpreter's
    exit with one never waited for nor closed: the workers finish the step and stop; the
    process exits with 0 (no crash, no hang)."""
    assert _run_script(_LEFT_IN_FLIGHT).split() == ["exiting"]


def test_step_async_copies_hold_too() -> None:
    """The hold flags, like the actions, are copied before step_async returns: flipping or
    dropping the caller's array while the step runs changes nothing."""
    n = 4096
    env = VectorGame(GAME, num_tables=n, players=6, stacks=200, seed=6, num_threads=2)
    ref = VectorGame(GAME, num_tables=n, players=6, stacks=200, seed=6)
    env.reset()
    ref.reset()
    rng = np.random.default_rng(6)
    for _ in range(10):
        cols = (rng.random(ref.legal_mask.shape) * ref.legal_mask).argmax(axis=1)
        hold = rng.random(n) < 0.5
        flags = hold.copy()
        env.step_async(cols.copy(), checked=False, hold=flags)
        flags[:] = ~flags  # while the step runs
        del flags
        ref.step_async(cols, checked=False, hold=hold)
        for a, b in zip(env.step_wait(), ref.step_wait(), strict=True):
            assert np.array_equal(a, b)
    assert _states(env) == _states(ref)
    env.close()
