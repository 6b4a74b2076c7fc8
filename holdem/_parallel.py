"""Deterministic parallel work: fixed-size chunks, per-chunk seeds, any executor.

The rule that makes parallel results reproducible: the work is cut into chunks whose sizes
depend only on the job (never on the number of workers), chunk ``i`` draws its random numbers
from a generator seeded with :func:`chunk_seed(master, i) <chunk_seed>`, and the parent combines
chunk results in chunk order. Then a given master seed gives bit-identical results on one core,
on a process pool, on threads or on a Dask cluster.

Used by :func:`holdem.equity` and :func:`holdem.simulate`. The ``executor`` argument those take
is resolved by :func:`run_tasks`:

* ``None``: in-process for small jobs, else a local :class:`~concurrent.futures.ProcessPoolExecutor`
  over all cores (created for the call and shut down after it);
* ``"serial"``: in-process, in chunk order;
* any object with ``submit(fn, *args) -> future`` whose futures have ``result()``: any
  :class:`concurrent.futures.Executor`, a Dask client's ``client.get_executor(pure=False)``,
  or a small adapter for Ray (see :func:`holdem.equity`).

Task functions must be importable module-level functions and their arguments picklable (they
travel to other processes or machines).

Interrupts: when the caller's wait is interrupted (Ctrl-C, or any exception), the tasks not yet
started are cancelled, and a process pool made here (:func:`process_pool`) has its workers
terminated at once instead of finishing their tasks; workers of a pool the caller passed in are
the caller's to stop. Pool workers ignore SIGINT: a Ctrl-C in a terminal reaches the whole
process group, and only the parent decides what to stop.

>>> chunk_sizes(10, 4)
[4, 4, 2]
>>> chunk_seed(1, 0) == chunk_seed(1, 0) != chunk_seed(1, 1)
True
>>> run_tasks(pow, [(2, 3), (3, 2)], "serial")
[8, 9]

A seeded job in chunks (what :func:`holdem.simulate` and :func:`holdem.equity` do): the
function gets its fixed arguments, the chunk's size and the chunk's seed; results come back
per chunk, in chunk order, identical for any executor.

>>> with open_executor("serial") as runner:
...     runner.map_seeded(divmod, (), chunk_sizes(10, 4), seed=7) == [
...         divmod(4, chunk_seed(7, 0)), divmod(4, chunk_seed(7, 1)), divmod(2, chunk_seed(7, 2))]
True
"""

from __future__ import annotations

import collections
import itertools
import os
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, TypeVar, Union

from holdem._deck import child_seed
from holdem._seeding import resolve_seed, seed_bits
from holdem._shown import excerpt
from holdem.errors import InvalidConfigError

if TYPE_CHECKING:  # concurrent.futures pulls in multiprocessing: import it only when used
    from concurrent.futures import Executor
    from multiprocessing.process import BaseProcess

__all__ = [
    "ExecutorLike",
    "Runner",
    "SupportsSubmit",
    "chunk_seed",
    "chunk_sizes",
    "cpu_count",
    "iter_chunk_sizes",
    "master_seed",
    "open_executor",
    "process_pool",
    "run_tasks",
    "split_even",
]

TASK_CHUNKS: Final = 32
"""Most chunks in one task of :meth:`Runner.map_seeded` on an executor."""
WINDOW_PER_WORKER: Final = 8
WINDOW_MIN: Final = 64
""":meth:`Runner.imap` keeps ``max(WINDOW_MIN, WINDOW_PER_WORKER * workers)`` tasks in flight:
enough to keep every worker busy, few enough that a long job's tasks and results are not all
held at once."""
T = TypeVar("T")


class _Future(Protocol):
    def result(self) -> Any: ...


class SupportsSubmit(Protocol):
    """What ``executor=`` needs: ``submit(fn, *args)`` returning something with ``result()``."""

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> _Future: ...


ExecutorLike = Union[SupportsSubmit, "Executor", Literal["serial"], None]


chunk_seed: Final = child_seed
"""The seed of chunk ``index`` under master ``seed`` (``chunk_seed(seed, index)``): holdem's one
seed derivation, :func:`holdem.child_seed` (``hd_seed_child`` in csrc/hd_rng.h). It depends only
on (seed, index), so chunk ``i`` draws the same numbers wherever it runs."""


def master_seed(seed: object) -> tuple[int, int]:
    """``(kept, bits)`` for a user ``seed`` under the project rule (:mod:`holdem._seeding`):
    any int (reduced modulo 2**64 to seed the chunks) or ``None`` (fresh from the OS; ``kept``
    is what to report so the run can be replayed)."""
    kept = resolve_seed(seed)
    return kept, seed_bits(kept)


def chunk_sizes(total: int, chunk: int) -> list[int]:
    """``total`` items cut into chunks of ``chunk`` (the last one shorter)."""
    return list(iter_chunk_sizes(total, chunk))


def iter_chunk_sizes(total: int, chunk: int) -> Iterator[int]:
    """:func:`chunk_sizes` made as they are needed (a long job has millions of chunks)."""
    return (min(chunk, total - start) for start in range(0, total, chunk))


def cpu_count() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run_tasks(
    fn: Callable[..., T],
    tasks: Sequence[tuple[Any, ...]],
    executor: ExecutorLike,
    *,
    small: bool = False,
) -> list[T]:
    """``[fn(*t) for t in tasks]``, on ``executor``, results in task order.

    With ``executor=None`` the tasks run in-process when ``small`` is true, there is one task,
    or there is one core; otherwise on a fresh local process pool over all cores.
    """
    with open_executor(executor, small=small or len(tasks) <= 1) as runner:
        return runner.map(fn, tasks)


class Runner:
    """Runs batches of tasks on one resolved executor; made by :func:`open_executor`."""

    def __init__(self, executor: SupportsSubmit | Executor | None, workers: int) -> None:
        self.executor = executor
        self.workers = workers
        """How many tasks can run at once (a hint for splitting work into tasks)."""
        self.window = max(WINDOW_MIN, WINDOW_PER_WORKER * workers)
        """How many tasks :meth:`imap` keeps submitted ahead of the one it waits for."""

    def map(self, fn: Callable[..., T], tasks: Iterable[tuple[Any, ...]]) -> list[T]:
        """``[fn(*t) for t in tasks]``: submitted all at once, results in task order."""
        return list(self.imap(fn, tasks))

    def imap(self, fn: Callable[..., T], tasks: Iterable[tuple[Any, ...]]) -> Iterator[T]:
        """``fn(*t)`` for each task, yielded in task order as they complete. On an executor at
        most :attr:`window` tasks are in flight (submitted, result not yet taken): ``tasks`` is
        read as results are taken, so neither the tasks nor the results of a long job are all
        held at once (``tasks`` may be a generator). If the consumer stops early or the wait
        is interrupted (Ctrl-C), the tasks not yet started are cancelled."""
        if self.executor is None:
            for t in tasks:
                yield fn(*t)
            return
        it = iter(tasks)
        head = list(itertools.islice(it, 1))
        if not head:
            return
        if _uses_pickle(self.executor):
            _check_picklable(fn, head[0])
        futures: collections.deque[Any] = collections.deque()
        try:
            futures.append(self.executor.submit(_tagged, fn, *head[0]))
            while futures:
                for t in itertools.islice(it, self.window - len(futures)):
                    futures.append(self.executor.submit(_tagged, fn, *t))
                yield _untagged(_result(futures.popleft()), self.executor)
        except BaseException as e:
            # A pool of process_pool() is stopped by its owner (its workers are terminated and
            # its futures failed by the pool itself); cancelling them here too would race with
            # that. Other executors are the caller's: cancel what has not started.
            if self.executor not in _OWNED:
                for f in futures:
                    cancel = getattr(f, "cancel", None)
                    if callable(cancel):
                        cancel()
            if _is_pickling_error(e):
                raise _unpicklable(fn, e) from e
            raise

    def map_seeded(
        self,
        fn: Callable[..., T],
        args: tuple[Any, ...],
        sizes: Sequence[int],
        seed: int,
        *,
        start: int = 0,
        done: Callable[[int], None] | None = None,
    ) -> list[T]:
        """Per-chunk results of ``fn(*args, sizes[i], chunk_seed(seed, start + i))``, in order.

        The chunks are grouped into tasks, which changes nothing in the results: each chunk
        only sees its size and its own seed. In-process every chunk is a task; on an executor
        there are at least two tasks per worker and at most :data:`TASK_CHUNKS` chunks per
        task, so progress and Ctrl-C are seen often on long jobs. ``done(k)`` is called as
        each task's ``k`` chunks come back, in order (for progress reports). ``fn`` must be a
        module-level function and ``args`` picklable. ``start`` numbers the chunks of a later
        round after those of earlier ones (for stop rules).
        """
        items = [(n, chunk_seed(seed, start + i)) for i, n in enumerate(sizes)]
        if self.executor is None:
            parts = len(items)
        else:
            parts = max(2 * self.workers, -(-len(items) // TASK_CHUNKS))
        out: list[T] = []
        for rs in self.imap(_run_chunks, [(fn, args, list(part))
                                          for part in split_even(items, parts)]):
            out += rs
            if done is not None:
                done(len(rs))
        return out


def _run_chunks(
    fn: Callable[..., T], args: tuple[Any, ...], chunks: list[tuple[int, int]]
) -> list[T]:
    """One task of :meth:`Runner.map_seeded`: several chunks, one result each."""
    return [fn(*args, n, s) for n, s in chunks]


_TAG: Final = "holdem task result"


def _tagged(fn: Callable[..., T], *args: Any) -> tuple[str, T]:
    """``fn(*args)`` as a task runs it on an executor: tagged, so that what the executor's
    future gives back is known to be the task's result (see :func:`_untagged`)."""
    return (_TAG, fn(*args))


def _untagged(got: Any, executor: object) -> Any:
    """The result of a :func:`_tagged` task, or InvalidConfigError when the executor's future
    gave something else (its result had been read by the library as a task's: a raw
    TypeError or ValueError, or wrong numbers)."""
    if type(got) is tuple and len(got) == 2 and got[0] == _TAG:
        return got[1]
    raise InvalidConfigError(
        f"executor {excerpt(executor)}: a future's result() gave {excerpt(got)}, not what the "
        f"submitted function returned")


def _result(future: Any) -> Any:
    """``future.result()``, with Ctrl-C always raised as ``KeyboardInterrupt``. CPython's
    ``threading.Condition.wait`` (which ``concurrent.futures`` waits in) can take the interrupt
    just after it has released its lock, before the code that takes it back: the ``with``
    block around the wait then fails to release the lock, and the caller got "RuntimeError:
    cannot release un-acquired lock" (raised while handling the interrupt) instead."""
    result = getattr(future, "result", None)
    if not callable(result):
        raise InvalidConfigError(f"an executor's submit() must return a future (with "
                                 f"result()), it returned {excerpt(future)}")
    try:
        return result()
    except RuntimeError as e:
        if isinstance(e.__context__, KeyboardInterrupt):
            raise e.__context__ from None
        raise


def _is_pickling_error(e: BaseException) -> bool:
    import pickle

    if isinstance(e, pickle.PicklingError):
        return True
    # pickle raises AttributeError/TypeError for local objects and lambdas, and for objects
    # that refuse: "Can't pickle local object 'f.<locals>.g'" (Python 3.11, 3.12), "Can't get
    # local object 'f.<locals>.g'" (3.13), "cannot pickle '_thread.lock' object"
    return isinstance(e, (AttributeError, TypeError)) and (
        "pickle" in str(e) or str(e).startswith("Can't get local object"))


def _uses_pickle(executor: object) -> bool:
    """Whether ``executor`` sends tasks with the standard pickle (a local process pool)."""
    from concurrent.futures import ProcessPoolExecutor

    return isinstance(executor, ProcessPoolExecutor)


def _check_picklable(fn: Callable[..., Any], task: tuple[Any, ...]) -> None:
    """Fail early, in the caller, with a message that says what to do, rather than in the
    pool's feeder thread with a bare ``PicklingError``."""
    import pickle

    try:
        pickle.dumps((fn, task))
    except Exception as e:
        if _is_pickling_error(e):
            raise _unpicklable(fn, e) from e
        raise


def _unpicklable(fn: Callable[..., Any], e: BaseException) -> InvalidConfigError:
    return InvalidConfigError(
        "the work cannot be sent to worker processes because something in it cannot be "
        f"pickled ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}); "
        "agents and other arguments must be picklable: define them as module-level classes "
        "or functions (not lambdas or local objects), or run in this process with "
        "executor='serial'"
    )


def _init_worker() -> None:
    """Initializer of pool workers: Ctrl-C is the parent's to handle (see the module doc), and
    a worker whose parent died ends too (see :func:`_watch_parent`)."""
    import multiprocessing
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(os.getppid(), multiprocessing.parent_process()),
                     name="holdem-parent-watch", daemon=True).start()


def _watch_parent(parent: int, owner: BaseProcess | None = None, every: float = 0.5) -> None:
    """End this worker once its parent is gone: its parent process id changes (it was
    adopted), or ``owner`` (``multiprocessing.parent_process()``: the process that made the
    pool) has died. A parent killed outright (SIGKILL, the OOM killer) cannot stop its
    workers, and they waited for work for ever, each holding its memory. The id alone missed
    it with the forkserver start method (Linux's default from Python 3.14: a worker's parent
    is the fork server, which lives on as long as the workers do), and for a worker whose
    parent died before this watch started (it took the adoptive parent's id)."""
    while True:
        time.sleep(every)
        if os.getppid() != parent or (owner is not None and not owner.is_alive()):
            os._exit(1)


_OWNED: weakref.WeakSet[Any] = weakref.WeakSet()
"""Pools made by :func:`process_pool`: their owner stops them (see :meth:`Runner.imap`)."""


@contextmanager
def process_pool(workers: int) -> Iterator[Executor]:
    """A local process pool of ``workers`` processes for a ``with`` block.

    On a normal exit it is shut down after its tasks; if the block raises (Ctrl-C included),
    its workers are terminated at once and the work not done is dropped.
    """
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker)
    _OWNED.add(pool)
    try:
        yield pool
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def _stop_pool(pool: Executor) -> None:
    """Terminate the workers of ``pool`` (made by :func:`process_pool`).

    The futures are left alone: the pool's manager thread sees its workers die and fails
    every future not done (cancelling them first would race with it).
    """
    procs = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    for p in procs:
        if p.is_alive():
            p.terminate()
    pool.shutdown(wait=False)
    for p in procs:
        p.join(timeout=2)
        if p.is_alive():  # pragma: no cover - a worker stuck in uninterruptible C code
            p.kill()
            p.join(timeout=1)
    if manager is not None:  # it fails the futures left and closes its pipes: let it finish
        manager.join(timeout=2)


def _bad_executor(executor: object) -> InvalidConfigError:
    return InvalidConfigError(
        "executor must be None (automatic), 'serial' or an object with submit(fn, *args) "
        f"such as a concurrent.futures.Executor, not {excerpt(executor)}"
    )


@contextmanager
def open_executor(executor: ExecutorLike, *, small: bool = False) -> Iterator[Runner]:
    """Resolve ``executor`` (see the module docstring) for the duration of a ``with`` block.

    A process pool made here for ``executor=None`` is shut down when the block ends; executors
    passed in are left running (they belong to the caller).
    """
    if executor is None:
        workers = cpu_count()
        if small or workers <= 1:
            yield Runner(None, 1)
            return
        with process_pool(workers) as pool:
            yield Runner(pool, workers)
        return
    if isinstance(executor, str):
        if executor != "serial":
            raise _bad_executor(executor)
        yield Runner(None, 1)
        return
    if not callable(getattr(executor, "submit", None)):
        raise _bad_executor(executor)
    yield Runner(executor, _workers_of(executor))


def _workers_of(executor: object) -> int:
    """How many tasks ``executor`` runs at once: a ``concurrent.futures`` pool's
    ``_max_workers``, the threads of a Dask client's workers (``nthreads()``; the client of
    ``client.get_executor()``), else this machine's cores."""
    hint = getattr(executor, "_max_workers", None)
    if isinstance(hint, int) and not isinstance(hint, bool) and hint > 0:
        return hint
    client = getattr(executor, "_client", executor)
    nthreads = getattr(client, "nthreads", None)
    if callable(nthreads):
        try:
            counts = nthreads()
            total = sum(counts.values()) if isinstance(counts, dict) else 0
        except Exception:  # only a hint: any failure falls back to the cores
            total = 0
        if isinstance(total, int) and total > 0:
            return total
    return cpu_count()


def split_even(items: Sequence[T], parts: int) -> list[Sequence[T]]:
    """``items`` cut into at most ``parts`` contiguous, non-empty slices of near-equal length."""
    parts = max(1, min(parts, len(items)))
    q, r = divmod(len(items), parts)
    out: list[Sequence[T]] = []
    start = 0
    for i in range(parts):
        end = start + q + (1 if i < r else 0)
        out.append(items[start:end])
        start = end
    return out
