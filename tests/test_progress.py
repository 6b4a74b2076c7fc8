"""Progress reports of long runs (holdem._progress): lines when not on a terminal, a bar on one,
and their arithmetic (rates, ETA, widths)."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest

from holdem import _progress
from holdem._progress import Progress, format_duration


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    c = _Clock()
    monkeypatch.setattr(_progress, "time", SimpleNamespace(monotonic=c.monotonic))
    return c


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_format_duration_rounds_to_the_nearest_second() -> None:
    assert [format_duration(x) for x in (59.6, 0.5001, 3599.5)] == ["1:00", "0:01", "1:00:00"]


def test_an_automatic_report_that_showed_a_line_ends_with_the_final_count(clock: _Clock) -> None:
    out = io.StringIO()  # not a terminal: a line every LINE_EVERY seconds
    with Progress("job", "items", 10, None, stream=out) as bar:
        clock.now += _progress.LINE_EVERY
        bar.update(4)  # shown: the run is long
        clock.now += 1
        bar.update(6)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("job: 4/10 items (40%), ")
    assert lines[1].startswith("job: 10/10 items (100%), ")


def test_the_last_update_leaves_the_final_line_to_finish(clock: _Clock) -> None:
    out = io.StringIO()
    with Progress("job", "items", 10, 0.5, stream=out) as bar:
        clock.now += 1
        bar.update(10)  # done: not reported here, finish() reports it once
    assert out.getvalue().count("10/10") == 1


def test_an_asked_bar_is_drawn_from_the_first_update(clock: _Clock) -> None:
    out = _Tty()
    bar = Progress("job", "items", 10, True, stream=out)
    bar.update(1)  # progress=True: no BAR_DELAY
    assert out.getvalue().startswith("\rjob 1/10 items")
    auto = _Tty()
    bar = Progress("job", "items", 10, None, stream=auto)
    bar.update(1)  # automatic: quiet for BAR_DELAY
    assert auto.getvalue() == ""


def test_the_bar_takes_at_least_20_columns(clock: _Clock, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "5")  # a StringIO has no fileno: the size comes from COLUMNS
    out = _Tty()
    Progress("job", "items", 10, True, stream=out).update(1)
    drawn = out.getvalue()
    assert drawn.startswith("\r") and drawn.endswith("\x1b[K")
    assert len(drawn) - len("\r\x1b[K") == 19  # room = max(5, 20) - 1


def test_lines_every_10_seconds_when_not_a_terminal(clock: _Clock) -> None:
    out = io.StringIO()
    bar = Progress("job", "items", 100, None, stream=out)
    clock.now += 9.9
    bar.update(1)
    assert out.getvalue() == ""  # the module doc: one line every 10 seconds
    clock.now += 0.1
    bar.update(1)
    assert out.getvalue().startswith("job: 2/100 items (2%), ")


def test_the_eta_is_the_time_left_for_the_units_left(clock: _Clock) -> None:
    out = io.StringIO()
    bar = Progress("job", "items", 100, 1.0, stream=out)
    clock.now += 10
    bar.update(40)  # 4 items/s, 60 left: 15 s
    assert out.getvalue() == "job: 40/100 items (40%), 4 items/s, 0:10 elapsed, ETA 0:15\n"


def test_an_empty_job_is_complete(clock: _Clock) -> None:
    out = io.StringIO()
    Progress("job", "items", 0, 1.0, stream=out).finish()
    assert out.getvalue().startswith("job: 0/0 items (100%), ")


def test_the_bar_is_at_most_30_wide_and_at_least_5(clock: _Clock,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    out = _Tty()
    Progress("job", "items", 10, True, stream=out).update(5)
    assert "[" + "#" * 15 + " " * 15 + "] " in out.getvalue()
    # " 10%  0 items/s, 0:00 elapsed, ETA ?" (36) + "job 1/10 items " (15) + 3 + 5 = 59
    monkeypatch.setenv("COLUMNS", "60")
    out = _Tty()
    Progress("job", "items", 10, True, stream=out).update(1)
    assert "job 1/10 items [     ]  10%" in out.getvalue()
