"""What a newcomer sees in a ``holdem play`` session and its saved hands, and in a short
``holdem simulate``: driven as a user would, in a subprocess."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from child_env import child_env
from on_terminal import run_on_terminal
from test_cli import ROOT, run


def test_play_bet_on_the_big_blind_option_is_explained() -> None:
    """In the big blind with nothing to call the prompt says "no bet to you"; typing a bet must
    not be answered with "there is already a bet", which contradicts it."""
    # hand 1: fold the button; hand 2: the big blind, the calling agent completes
    r = run("play", "--players", "2", "--agents", "call", "--seed", "1", "--hands", "2",
            stdin="f\nb 6\nr 6\nq\n")
    assert r.returncode == 0, r.stderr
    hand2 = r.stdout.split("=== Hand 2")[1]
    assert "Your turn (no bet to you; pot 4;" in hand2
    assert "there is already a bet" not in hand2
    assert ("nothing to call, but the big blind counts as this round's bet: raise instead (r N)"
            in hand2)
    assert "call-2 calls 4" in hand2  # and the raise the message points to is taken


def test_play_says_when_an_agent_is_out_of_chips() -> None:
    """An agent that loses its last chip must not vanish from the next hand unannounced."""
    r = run("play", "--players", "3", "--agents", "equity,random", "--seed", "1",
            stdin="r 10\nc\na\ncall\nbet 4\nr 14\nfold\nc\nallin\nq\n")
    assert r.returncode == 0, r.stderr
    hand4, hand5 = r.stdout.split("=== Hand 4")[1].split("=== Hand 5")
    assert "random-3 calls 27 (all in)" in hand4
    assert "random-3 is out of chips and sits out" in hand4
    assert "random-3" not in hand5.split("Session over")[0]  # dealt out from then on
    assert re.search(r"^  random-3 +0  \(-200\)$", r.stdout, re.M)


def test_play_saved_hands_keep_the_table_seats(tmp_path: Path) -> None:
    """You are seat 1 and the button moves; the saved hands (and their export) say so, instead
    of renumbering the seats from the small blind in every hand."""
    saved = tmp_path / "s.phhs"
    r = run("play", "--players", "3", "--agents", "call", "--seed", "2", "--hands", "3",
            "--save", str(saved), stdin="c\n" * 40)
    assert r.returncode == 0, r.stderr
    buttons = re.findall(r"^=== Hand \d: (You have|call-(\d) has) the button", r.stdout, re.M)
    expected = ["1" if who == "You have" else seat for who, seat in buttons]
    assert len(expected) == 3 and len(set(expected)) == 3  # the button moved
    text = saved.read_text()
    assert "seat_count = 3" in text
    out = run("export", str(saved))
    assert out.returncode == 0, out.stderr
    assert re.findall(r"Seat #(\d) is the button", out.stdout) == expected
    assert re.findall(r"^Seat (\d): You \(\d+ in chips\)", out.stdout, re.M) == ["1", "1", "1"]
    assert re.findall(r"^Seat (\d): call-2 \(\d+ in chips\)", out.stdout, re.M) == ["2", "2", "2"]
    check = run("replay", str(saved))
    assert check.returncode == 0 and "3 of 3 hands replayed exactly" in check.stdout


def test_simulate_one_hand_has_no_interval() -> None:
    """One hand measures no spread: the 95% interval is not +/- 0.0 (certainty)."""
    r = run("simulate", "--players", "3", "--hands", "1", "--seed", "2", "--no-progress")
    assert r.returncode == 0, r.stderr
    rows = [line for line in r.stdout.splitlines() if line.startswith(("random-1", "call-2"))]
    assert len(rows) == 2
    assert all("+/- n/a" in row and "+/- 0.0" not in row for row in rows), r.stdout
    assert r.stdout.startswith("1 hand of no-limit hold'em, 3 players"), r.stdout  # not "1 hands"
    r = run("simulate", "--players", "3", "--hands", "1", "--seed", "2", "--duplicate",
            "--no-progress")
    assert r.returncode == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if line.startswith("random-1"))
    assert row.endswith("+/- n/a"), r.stdout  # one deal: no duplicate interval either
    assert "+/- 0.0" not in r.stdout
    r = run("simulate", "--players", "2", "--hands", "2", "--seed", "3", "--no-progress")
    assert "+/- n/a" not in r.stdout  # two hands do have one


def test_play_all_in_typed_as_the_help_writes_it() -> None:
    """The help lists "a (all in)"; typing "all in" must go all in, not be "not a move"."""
    r = run("play", "--players", "2", "--agents", "call", "--seed", "1", "--hands", "1",
            stdin="help\nall in\nq\n")
    assert r.returncode == 0, r.stderr
    assert "a (all in)" in r.stdout
    assert "'all' is not a move" not in r.stdout
    assert "call-2 calls 198 (all in)" in r.stdout


@pytest.mark.parametrize("columns", [60, 100])
def test_simulate_progress_bar_fits_the_terminal(columns: int) -> None:
    """The bar is redrawn in place with "\\r", which only works on one line: a bar wider than
    the terminal wraps, and every redraw then scrolls a new line. It must fit."""
    env = {k: v for k, v in child_env().items() if k not in ("COLUMNS", "LINES")}
    status, text = run_on_terminal(["simulate", "--players", "3", "--hands", "2000", "--seed",
                                    "1", "--workers", "1", "--progress"], env, ROOT, columns)
    assert status == 0
    # the bar's redraws (the terminal turns each "\\n" into "\\r\\n")
    draws = [d.replace("\x1b[K", "").strip("\n") for d in text.split("\r")]
    draws = [d for d in draws if d.startswith("simulate ")]
    assert draws and all(len(d) < columns for d in draws), draws
    assert draws[-1].startswith("simulate 2,000/2,000 hands") and "100%" in draws[-1]
    if columns >= 100:
        assert "] 100%" in draws[-1] and re.search(r"elapsed, ETA \d+:\d\d$", draws[-1])


class _EndlessLine(io.StringIO):
    """Standard input of NUL characters with no end of line (``< /dev/zero``); reading it
    without a bound never returns (the line grew by gigabytes a second)."""

    def readline(self, size: int | None = -1, /) -> str:
        if size is None or size < 0:
            raise AssertionError("a read of a line without a bound")
        return "\0" * size


def test_play_refuses_a_line_that_never_ends() -> None:
    """``holdem play < /dev/zero``: a move is read as one line of at most MOVE_CHARS
    characters; a longer one is an error of one line (exit 2), not a read of all of it."""
    from holdem.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(["play", "--players", "2", "--seed", "1"], stdin=_EndlessLine(), stdout=out,
                stderr=err)
    assert code == 2
    assert re.fullmatch(r"holdem play: error: a move is one line of at most \d+ characters; "
                        r"the input has a longer one \(is it a text of moves\?\)\n",
                        err.getvalue()), err.getvalue()
