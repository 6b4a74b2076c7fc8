"""The deterministic chunking helpers shared by equity and simulate (holdem._parallel)."""

import contextlib
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest
from child_env import child_env
from hypothesis import given
from hypothesis import strategies as st

from holdem import InvalidConfigError, _parallel
from holdem._parallel import (
    TASK_CHUNKS,
    chunk_seed,
    chunk_sizes,
    master_seed,
    open_executor,
    process_pool,
    run_tasks,
    split_even,
)


def draws(count: int, seed: int) -> list[float]:
    """A stand-in chunk job: ``count`` numbers from a generator seeded with the chunk seed."""
    rng = random.Random(seed)
    return [rng.random() for _ in range(count)]


@given(st.integers(0, 10_000), st.integers(1, 5_000))
def test_chunk_sizes_cover_the_total(total: int, chunk: int) -> None:
    sizes = chunk_sizes(total, chunk)
    assert sum(sizes) == total
    assert all(s == chunk for s in sizes[:-1]) and all(0 < s <= chunk for s in sizes)


@given(st.lists(st.integers(), max_size=200), st.integers(1, 50))
def test_split_even_keeps_order_and_balance(items: list[int], parts: int) -> None:
    out = split_even(items, parts)
    assert [x for part in out for x in part] == items
    if items:
        lengths = [len(p) for p in out]
        assert min(lengths) >= 1 and max(lengths) - min(lengths) <= 1
        assert len(out) == min(parts, len(items))


def test_chunk_seeds_are_distinct_and_stable() -> None:
    seeds = {chunk_seed(42, i) for i in range(10_000)}
    assert len(seeds) == 10_000
    assert chunk_seed(42, 3) == chunk_seed(42, 3) != chunk_seed(43, 3)
    assert all(0 <= s < 2**64 for s in seeds)


def test_master_seed_follows_the_project_rule() -> None:
    assert master_seed(5) == (5, 5)
    assert master_seed(-1) == (-1, 2**64 - 1)
    kept, bits = master_seed(None)
    assert kept == bits and 0 <= bits < 2**64
    with pytest.raises(InvalidConfigError):
        master_seed(1.5)


def test_map_seeded_is_identical_on_any_executor_and_worker_count() -> None:
    sizes = chunk_sizes(1_000, 64)
    with open_executor("serial") as runner:
        serial = runner.map_seeded(draws, (), sizes, 99)
    assert [len(r) for r in serial] == sizes
    for workers in (1, 2, 5):
        with ThreadPoolExecutor(workers) as pool, open_executor(pool) as runner:
            assert runner.workers == workers
            assert runner.map_seeded(draws, (), sizes, 99) == serial
    with ProcessPoolExecutor(2) as pool, open_executor(pool) as runner:
        assert runner.map_seeded(draws, (), sizes, 99) == serial
    # later rounds continue the chunk numbering
    with open_executor("serial") as runner:
        assert runner.map_seeded(draws, (), sizes[5:], 99, start=5) == serial[5:]


def test_executor_resolution() -> None:
    assert run_tasks(pow, [(2, 3), (3, 2)], "serial") == [8, 9]
    assert run_tasks(pow, [(2, 3), (3, 2)], None, small=True) == [8, 9]
    with ThreadPoolExecutor(2) as pool:
        assert run_tasks(pow, [(2, 10)] * 3, pool) == [1024] * 3
    for bad in ("threads", 3, object()):
        with pytest.raises(InvalidConfigError), open_executor(bad):  # type: ignore[arg-type]
            pass


class CountingPool(ThreadPoolExecutor):
    """A real thread pool that records how many tasks were submitted."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.submitted = 0

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def,override]
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


def test_imap_reads_tasks_as_results_are_taken() -> None:
    """imap used to turn the tasks into a list and submit them all: a job of millions of
    tasks held them all (and all their results). Now at most ``window`` are in flight, the
    tasks may be an endless generator, and the results still come in order."""
    read = 0

    def endless() -> object:
        nonlocal read
        i = 0
        while True:
            read += 1
            if read > 10_000:
                raise AssertionError("imap read every task before running one")
            yield (i,)
            i += 1

    with CountingPool(2) as pool, open_executor(pool) as runner:
        assert runner.workers == 2 and runner.window == 64
        got = []
        for r in runner.imap(abs, endless()):
            got.append(r)
            assert pool.submitted <= len(got) + runner.window
            if len(got) == 500:
                break
        assert got == list(range(500))
        assert read == pool.submitted <= 500 + runner.window
    with CountingPool(20) as pool, open_executor(pool) as runner:
        assert runner.window == 160  # eight a worker
        assert runner.map(abs, [(-i,) for i in range(1_000)]) == list(range(1_000))
        assert pool.submitted == 1_000


def test_pickling_errors_are_told_apart_on_every_python() -> None:
    """What pickle raises for a lambda or a local object, in the words of each supported
    Python, reads as a pickling error (reported with the advice to use module-level objects or
    executor='serial'); an agent's own AttributeError or TypeError does not."""
    import pickle

    from holdem._parallel import _is_pickling_error

    def local() -> object:
        class Local:
            pass

        return Local()

    for obj in (lambda: None, local()):  # this Python's own words
        with pytest.raises(Exception) as info:
            pickle.dumps(obj)
        assert _is_pickling_error(info.value), repr(info.value)
    assert _is_pickling_error(AttributeError("Can't pickle local object 'f.<locals>.g'"))  # 3.12
    assert _is_pickling_error(AttributeError("Can't get local object 'f.<locals>.g'"))  # 3.13
    assert _is_pickling_error(pickle.PicklingError("Can't pickle local object 'f.<locals>.g'"))
    assert _is_pickling_error(TypeError("cannot pickle '_thread.lock' object"))
    assert not _is_pickling_error(AttributeError("'NoneType' object has no attribute 'seat'"))
    assert not _is_pickling_error(TypeError("unsupported operand type(s) for +: 'int' and 'str'"))


class _InterruptedWait:
    """A future whose wait was interrupted as CPython's Condition.wait can be: Ctrl-C just
    after the wait released its lock, so leaving the ``with`` block raised RuntimeError while
    the KeyboardInterrupt was being handled (seen once in a CI run of
    test_first_hour's Ctrl-C test)."""

    cancelled = False

    def result(self) -> object:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise RuntimeError("cannot release un-acquired lock") from None

    def cancel(self) -> bool:
        self.cancelled = True
        return True


class _Interrupting:
    def __init__(self) -> None:
        self.futures: list[_InterruptedWait] = []

    def submit(self, fn: object, *args: object) -> _InterruptedWait:
        f = _InterruptedWait()
        self.futures.append(f)
        return f


def test_a_ctrl_c_inside_the_wait_is_raised_as_keyboard_interrupt() -> None:
    pool = _Interrupting()
    with open_executor(pool) as runner, pytest.raises(KeyboardInterrupt):
        runner.map(abs, [(-i,) for i in range(10)])
    assert len(pool.futures) > 1 and all(f.cancelled for f in pool.futures[1:])


class _Done:
    def __init__(self, value: object) -> None:
        self.value = value

    def result(self) -> object:
        return self.value

    def cancel(self) -> bool:
        return False


class _Broken:
    """An executor whose futures give back ``answer(fn(*args))`` (or whose submit() returns
    ``future`` itself when it is given)."""

    def __init__(self, answer: Callable[[object], object], future: object = _Done) -> None:
        self.answer, self.future = answer, future

    def submit(self, fn: Callable[..., object], *args: object) -> object:
        if self.future is not _Done:
            return self.future
        return _Done(self.answer(fn(*args)))


@pytest.mark.parametrize("executor", [
    _Broken(lambda got: None), _Broken(lambda got: "garbage"), _Broken(lambda got: (1, 2, 3)),
    _Broken(lambda got: got[1]),  # the bare result, as a plain executor gives it: is refused
    _Broken(lambda got: None, future=None), _Broken(lambda got: None, future=5)])
def test_an_executor_that_gives_back_something_else_is_named(executor: _Broken) -> None:
    """An executor whose futures give back something else than what the task returned (or
    whose submit() returns no future): the library read it as the task's result and raised
    a raw TypeError or ValueError (or computed wrong numbers). Now InvalidConfigError naming
    the executor; equity and simulate say the same."""
    import holdem

    named = (r"a future's result\(\) gave .*, not what the submitted function returned"
             r"|submit\(\) must return a future \(with result\(\)\)")
    with open_executor(executor) as runner, pytest.raises(InvalidConfigError, match=named):
        runner.map(abs, [(-i,) for i in range(4)])
    with pytest.raises(InvalidConfigError, match=named):
        holdem.equity(["AsAh", "KsKd"], samples=20_000, seed=1, executor=executor)
    with pytest.raises(InvalidConfigError, match=named):
        holdem.simulate([holdem.RandomAgent(), holdem.CallAgent()], holdem.Game(big_blind=2),
                        hands=2_000, seed=1, chunk_hands=500, executor=executor)


def test_other_runtime_errors_of_a_task_are_left_alone() -> None:
    def broken(x: int) -> int:
        raise RuntimeError(f"task {x} failed")

    with ThreadPoolExecutor(2) as pool, open_executor(pool) as runner, \
            pytest.raises(RuntimeError, match="task 0 failed"):
        runner.map(broken, [(i,) for i in range(4)])


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX: a dead parent's children are "
                    "adopted (their parent id changes); Windows has no SIGKILL either")
@pytest.mark.parametrize("method", multiprocessing.get_all_start_methods())
def test_workers_end_when_their_parent_is_killed(tmp_path: Path, method: str) -> None:
    """A parent killed outright (SIGKILL, the OOM killer) cannot stop its pool: its workers
    waited for work for ever, each holding its memory. They now watch their parent and end
    within about a second of its death, with every start method: a forkserver worker's parent
    process is the fork server, which outlived the pool's owner (Linux's default from 3.14)."""
    script = tmp_path / "parent.py"
    # the __main__ guard: forkserver and spawn workers import the script again
    script.write_text(
        "import multiprocessing, os, sys, time\n"
        "from holdem._parallel import process_pool\n"
        "if __name__ == '__main__':\n"
        "    multiprocessing.set_start_method(sys.argv[1], force=True)\n"
        "    with process_pool(2) as pool:\n"
        "        pids = {pool.submit(os.getpid).result() for _ in range(20)}\n"
        "        pids |= {f.result() for f in [pool.submit(os.getpid) for _ in range(20)]}\n"
        "        print(*sorted(pids | set(pool._processes)), flush=True)  # (all it started)\n"
        "        time.sleep(120)\n")
    env = child_env()
    parent = subprocess.Popen([sys.executable, str(script), method], stdout=subprocess.PIPE,
                              text=True, env=env)
    workers: list[int] = []
    try:
        assert parent.stdout is not None
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert workers and all(_alive(pid) for pid in workers)
        parent.kill()
        parent.wait(10)
        deadline = time.monotonic() + 15
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived their parent"
    finally:
        parent.kill()
        parent.wait(10)
        parent.stdout.close()  # (else a ResourceWarning: an unclosed pipe)
        for pid in workers:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc (macOS): ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


# ---------------------------------------------------------------------- mutation-run additions
def test_map_seeded_on_an_executor_makes_at_least_two_tasks_per_worker() -> None:
    """Runner.map_seeded: on an executor there are at least two tasks per worker (here 2
    workers, 8 one-item chunks: at least 4 tasks, each reported to ``done``), and the results
    are still per chunk, in chunk order."""
    sizes = chunk_sizes(8, 1)
    calls: list[int] = []
    with ThreadPoolExecutor(max_workers=2) as pool, open_executor(pool) as runner:
        assert runner.workers == 2
        got = runner.map_seeded(draws, (), sizes, 5, done=calls.append)
    assert len(calls) >= 4 and sum(calls) == 8
    assert got == [draws(1, chunk_seed(5, i)) for i in range(8)]



def test_run_tasks_runs_a_single_task_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """executor=None with one task: in-process (the docstring), even on a many-core machine;
    a local function (no pool could take it) shows where it ran."""
    monkeypatch.setattr(_parallel, "cpu_count", lambda: 4)
    calls: list[int] = []

    def local(x: int) -> int:
        calls.append(x)
        return x + 1

    assert run_tasks(local, [(1,)], None) == [2]
    assert calls == [1]


class _CountingPool(ProcessPoolExecutor):
    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.submitted = 0

    def submit(self, fn, /, *args, **kw):  # type: ignore[no-untyped-def,override]
        self.submitted += 1
        return super().submit(fn, *args, **kw)


def test_unpicklable_work_fails_in_the_caller_before_anything_is_submitted() -> None:
    with _CountingPool(max_workers=1) as pool:
        with pytest.raises(InvalidConfigError, match="cannot be pickled"), \
                open_executor(pool) as runner:
            runner.map(abs, [(lambda: 0,)])
        assert pool.submitted == 0


def test_map_seeded_puts_at_most_task_chunks_chunks_in_a_task() -> None:
    """100 chunks on one worker: ceil(100 / 32) = 4 tasks, none over TASK_CHUNKS (a floor
    made 3 tasks of 33-34 chunks)."""
    calls: list[int] = []
    with ThreadPoolExecutor(max_workers=1) as pool, open_executor(pool) as runner:
        got = runner.map_seeded(divmod, (), chunk_sizes(100, 1), 5, done=calls.append)
    assert max(calls) <= TASK_CHUNKS and sum(calls) == 100 and len(calls) == 4
    assert got == [divmod(1, chunk_seed(5, i)) for i in range(100)]


def test_automatic_executor_on_one_core_runs_in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_parallel, "cpu_count", lambda: 1)
    with open_executor(None) as runner:
        assert runner.executor is None and runner.workers == 1


def test_an_executor_that_says_it_has_no_workers_counts_as_this_machines_cores(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``_max_workers`` is a hint: 0 (or less) is no count, and the cores are used."""
    monkeypatch.setattr(_parallel, "cpu_count", lambda: 3)

    class Odd:
        _max_workers = 0

        def submit(self, fn: object, *args: object) -> None:
            raise AssertionError("not called")

    with open_executor(Odd()) as runner:
        assert runner.workers == 3


def test_a_process_pool_left_by_an_error_terminates_its_workers() -> None:
    """An error in the block (Ctrl-C included) terminates the pool's workers at once: a
    task still running is not waited for."""
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="stop"), process_pool(1) as pool:
        pool.submit(os.getpid).result()  # the worker is up
        pool.submit(time.sleep, 60)
        procs = list(pool._processes.values())  # type: ignore[attr-defined]
        raise RuntimeError("stop")
    assert time.monotonic() - start < 30  # a shutdown that waits takes 60 s
    assert procs and not any(p.is_alive() for p in procs)
