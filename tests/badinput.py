"""Shared machinery of the bad-input suite (``tests/test_bad_input_*.py``).

The contract under test (README, Cards): every error holdem raises for bad input is a
``ValueError`` subclass of :class:`holdem.HoldemError`; a wrong Python *type* may raise
``TypeError`` if the message names the parameter; a rejected call changes nothing; no input
crashes the interpreter or hangs.

Each property is a hypothesis test (derandomized, a fixed number of examples, no example
database) that runs in a child interpreter, so a segmentation fault or an abort from the C code
fails that one test instead of killing pytest, and a hang is cut off by a timeout:

- :func:`run_in_child` (called by pytest) starts ``python -c`` on the property and fails the
  test with the child's output (hypothesis prints the falsifying example), its exit status or
  signal, and the last input the child started on (so a crash or hang names its input);
- :func:`call` (called in the child) makes one call, records its input, arms a watchdog
  (``faulthandler``: it fires even inside C code holding the GIL) and checks the exception
  against the contract.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings

TESTS = Path(__file__).resolve().parent

CALL_TIMEOUT = 10.0
"""Seconds one call may take before the child is stopped (a hang)."""

CHILD_TIMEOUT = 120.0
"""Seconds one child process (one property) may take in all."""

_LAST_ENV = "HOLDEM_BAD_INPUT_LAST"


def bounded(max_examples: int = 100) -> settings:
    """Hypothesis settings of the suite: reproducible (derandomized, no example database) and
    bounded (``max_examples``, times ``HOLDEM_BAD_INPUT_SCALE`` (default 1) for a longer hunt;
    time is bounded by the watchdogs, not by a flaky deadline)."""
    return settings(
        max_examples=max_examples * _scale(),
        deadline=None,
        derandomize=True,
        database=None,
        print_blob=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                               HealthCheck.data_too_large],
    )


# --------------------------------------------------------------------------- parent side

def _scale() -> int:
    return max(1, int(os.environ.get("HOLDEM_BAD_INPUT_SCALE", "1")))


def run_in_child(module_file: str, prop: str, *, timeout: float | None = None) -> None:
    """Run the property ``prop`` of the test module ``module_file`` in a child interpreter
    and fail the test on anything but a clean exit (default timeout: CHILD_TIMEOUT, times
    the scale)."""
    import pytest

    if timeout is None:
        timeout = CHILD_TIMEOUT * _scale()

    module = Path(module_file).stem
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import importlib; "
        "getattr(importlib.import_module(sys.argv[2]), sys.argv[3])()"
    )
    with tempfile.TemporaryDirectory() as tmp:
        last = Path(tmp, "last-input.txt")
        env = {**os.environ, _LAST_ENV: str(last), "PYTHONFAULTHANDLER": "1",
               "PYTHONHASHSEED": "0"}
        env.pop("HYPOTHESIS_PROFILE", None)
        cmd = [sys.executable, "-c", code, str(TESTS), module, prop]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env,
                                  timeout=timeout, cwd=tmp)
        except subprocess.TimeoutExpired as exc:
            pytest.fail(f"{module}.{prop} did not finish in {timeout:.0f} s (a hang?)\n"
                        f"last input: {_read(last)}\n{_tail(exc.stdout)}{_tail(exc.stderr)}",
                        pytrace=False)
        if proc.returncode != 0:
            rc = proc.returncode
            how = (f"killed by {signal.Signals(-rc).name}" if rc < 0 and -rc in
                   signal.Signals._value2member_map_ else f"exit status {rc}")
            pytest.fail(f"{module}.{prop} failed in the child process ({how})\n"
                        f"last input: {_read(last)}\n"
                        f"--- stdout\n{_tail(proc.stdout)}--- stderr\n{_tail(proc.stderr)}",
                        pytrace=False)


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")[:4000] or "(none)"
    except OSError:
        return "(none)"


def _tail(text: str | bytes | None, limit: int = 12000) -> str:
    if text is None:
        return ""
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    return text[-limit:] + ("\n" if text and not text.endswith("\n") else "")


# --------------------------------------------------------------------------- child side

class Rejected:
    """A call that raised an exception the contract allows."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def __repr__(self) -> str:
        return f"Rejected({self.exc!r})"


def _describe(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    name = getattr(fn, "__qualname__", repr(fn))
    parts = [_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()]
    return f"{name}({', '.join(parts)})"


def _short(value: Any, limit: int = 600) -> str:
    try:
        text = repr(value)
    except Exception as exc:  # a repr that fails is itself worth reporting
        text = f"<repr failed: {exc!r}>"
    return text if len(text) <= limit else text[:limit] + f"...<{len(text)} chars>"


def _record(text: str) -> None:
    path = os.environ.get(_LAST_ENV)
    if path:
        with open(path, "w") as f:
            f.write(text)


def call(fn: Callable[..., Any], *args: Any, types: Iterable[str] = (), **kwargs: Any) -> Any:
    """Call ``fn(*args, **kwargs)`` under the contract; return its value or a :class:`Rejected`.

    Allowed: returning, raising :class:`holdem.HoldemError`, or raising ``TypeError`` whose
    message names one of ``types`` (the parameters given a wrong Python type; pass none when
    every argument has its documented type). Anything else raises ``AssertionError`` naming
    the call, so hypothesis shrinks and prints the input.
    """
    from holdem import HoldemError

    what = _describe(fn, args, kwargs)
    _record(what)
    names = tuple(types)
    faulthandler.dump_traceback_later(CALL_TIMEOUT, exit=True)
    try:
        value = fn(*args, **kwargs)
    except HoldemError as exc:
        if not str(exc):
            raise AssertionError(f"{what} raised {type(exc).__name__} without a message") from exc
        return Rejected(exc)
    except TypeError as exc:
        if not any(name in str(exc) for name in names):
            raise AssertionError(
                f"{what} raised TypeError({str(exc)!r}), which is not a HoldemError"
                + (f" and does not name the parameter ({', '.join(names)})" if names else "")
            ) from exc
        return Rejected(exc)
    except Exception as exc:
        raise AssertionError(
            f"{what} raised {type(exc).__name__}({str(exc)[:300]!r}), not a HoldemError"
        ) from exc
    finally:
        faulthandler.cancel_dump_traceback_later()
    return value


def rejected(outcome: Any) -> bool:
    return isinstance(outcome, Rejected)


class _Forged:
    """Pickles as ``fn(*args)`` (then ``__setstate__(state)``): a hand-altered pickle that
    loads through the real unpickling path of the object ``fn`` rebuilds."""

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...], state: Any) -> None:
        self.fn, self.args, self.state = fn, args, state

    def __reduce__(self) -> tuple[Any, ...]:
        if self.state is None:
            return (self.fn, self.args)
        return (self.fn, self.args, self.state)


def forged_pickle(fn: Callable[..., Any], args: tuple[Any, ...], state: Any = None) -> bytes:
    """Pickle bytes that unpickle as ``fn(*args)`` followed by ``__setstate__(state)``."""
    import pickle

    return pickle.dumps(_Forged(fn, args, state))


def stateless_round_trip(obj: Any, drop: type) -> Any:
    """``obj`` pickled with every object of class ``drop`` written without its state (its
    ``__reduce_ex__`` tuple cut to the class and arguments: a pickle that never calls
    ``__setstate__``), then loaded."""
    import io
    import pickle

    class Pickler(pickle.Pickler):
        def reducer_override(self, o: Any) -> Any:
            return o.__reduce_ex__(2)[:2] if type(o) is drop else NotImplemented

    buf = io.BytesIO()
    Pickler(buf, protocol=2).dump(obj)
    return pickle.loads(buf.getvalue())
