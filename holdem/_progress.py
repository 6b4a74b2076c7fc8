"""Progress reports of long runs (:func:`holdem.simulate`, :func:`holdem.equity`) on stderr.

``progress`` (the argument those functions take) picks the form:

* ``None`` (automatic): on a terminal, a bar redrawn in place once the run has lasted a second;
  otherwise (a log file, CI, ``nohup``) one line every 10 seconds, so short runs print nothing
  and long ones are never silent;
* ``True``: the bar from the start on a terminal, else a line every 10 seconds;
* a number of seconds: a line every that many seconds, terminal or not;
* ``False``: nothing.

Both forms give the count done, the percentage, the rate, the elapsed time and an estimate of
the time left (ETA)::

    simulate: 120,000/400,000 hands (30%), 12,034 hands/s, 0:10 elapsed, ETA 0:23
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import Final, TextIO

__all__ = ["LINE_EVERY", "Progress", "format_duration"]

LINE_EVERY: Final = 10.0
"""Seconds between two progress lines when stderr is not a terminal."""
BAR_DELAY: Final = 1.0
"""Seconds an automatic bar waits before it is first drawn (short runs stay quiet)."""
BAR_EVERY: Final = 0.1
"""Seconds between two redraws of the bar."""
MAX_EVERY: Final = 1e6
"""Seconds between two progress lines must be fewer than this (as ``--progress`` takes them):
a longer interval (``10**400`` raised OverflowError as a float) is refused."""


def format_duration(seconds: float) -> str:
    """``m:ss`` or ``h:mm:ss``."""
    s = round(seconds)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _columns(stream: TextIO) -> int:
    """The width of the terminal ``stream`` writes to (80 when it cannot be told)."""
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0
    if columns <= 0:  # not a terminal, or one that does not tell its size
        columns = shutil.get_terminal_size((80, 24)).columns
    return max(columns, 20)


class Progress:
    """Reports ``done`` of ``total`` ``unit`` of the task ``what``; see the module docstring."""

    def __init__(self, what: str, unit: str, total: int, mode: bool | float | None,
                 stream: TextIO | None = None) -> None:
        if isinstance(mode, bool) or mode is None:
            pass
        elif not isinstance(mode, (int, float)) or not 0 < mode < MAX_EVERY:
            from holdem._shown import excerpt
            from holdem.errors import InvalidConfigError

            raise InvalidConfigError(
                f"progress must be None, True, False or a number of seconds above 0 and below "
                f"1000000, not {excerpt(mode)}")
        self.what = what
        self.unit = unit
        self.total = total
        self.done = 0
        out = stream if stream is not None else sys.stderr
        self.stream: TextIO | None = None if mode is False else out
        self.start = time.monotonic()
        self.shown = False
        self.asked = mode is not None and mode is not False
        self.bar = False
        self.every = 0.0
        self.next = 0.0
        if mode is False:
            pass
        elif isinstance(mode, bool) or mode is None:
            self.bar = _isatty(out)
            if self.bar:
                self.every = BAR_EVERY
                self.next = self.start + (BAR_DELAY if mode is None else 0.0)
            else:
                self.every = LINE_EVERY
                self.next = self.start + LINE_EVERY
        else:
            self.every = float(mode)
            self.next = self.start + self.every

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        """:meth:`finish` after a run; after an error or Ctrl-C, only end the bar's line."""
        if kind is None:
            self.finish()
        elif self.stream is not None and self.bar and self.shown:
            self.stream.write("\n")
            self.stream.flush()

    def update(self, n: int) -> None:
        """Count ``n`` more units done; report if it is time."""
        self.done += n
        if self.stream is None:
            return
        now = time.monotonic()
        if now >= self.next and self.done < self.total:
            self.next = now + self.every
            self._report(now)

    def finish(self) -> None:
        """End the report with the final count, rate and time (the bar's last state), if
        anything was reported or the report was asked for."""
        if self.stream is None or not (self.shown or self.asked):
            return
        self._report(time.monotonic())
        if self.bar:
            self.stream.write("\n")
            self.stream.flush()

    def _report(self, now: float) -> None:
        assert self.stream is not None
        elapsed = now - self.start
        frac = self.done / self.total if self.total else 1.0
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else None
        eta = format_duration(left) if left is not None else "?"
        stats = (f"{rate:,.0f} {self.unit}/s, {format_duration(elapsed)} elapsed, ETA {eta}")
        if self.bar:
            # redrawn in place only while it fits on one line: a line that wraps is not erased
            # by "\r", and every redraw would scroll the terminal; so the bar shrinks to fit
            head = f"{self.what} {self.done:,}/{self.total:,} {self.unit} "
            tail = f"{100 * frac:3.0f}%  {stats}"
            room = _columns(self.stream) - 1
            width = min(30, room - len(head) - len(tail) - 3)
            bar = f"[{'#' * int(width * frac):<{width}}] " if width >= 5 else ""
            self.stream.write(f"\r{(head + bar + tail)[:room]}\x1b[K")
        else:
            self.stream.write(f"{self.what}: {self.done:,}/{self.total:,} {self.unit} "
                              f"({100 * frac:.0f}%), {stats}\n")
        self.stream.flush()
        self.shown = True
