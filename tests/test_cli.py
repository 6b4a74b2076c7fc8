"""The command line, driven as a user would: ``python -m holdem ...`` in a subprocess."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from child_env import child_env

from holdem.phh import dumps_all, loads

ROOT = Path(__file__).resolve().parent.parent

GOOD = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 7c2d', 'p3 f', 'p1 cbr 10', 'p2 f']
finishing_stacks = [102, 98, 100]
"""


def run(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = child_env(COLUMNS="100")
    return subprocess.run(
        [sys.executable, "-m", "holdem", *args], input=stdin, capture_output=True, text=True,
        env=env, cwd=cwd or ROOT, timeout=120,
    )


def test_help_everywhere() -> None:
    top = run("--help")
    assert top.returncode == 0 and "replay" in top.stdout and "usage: holdem" in top.stdout
    for cmd in ("equity", "simulate", "replay", "export", "play"):
        r = run(cmd, "--help")
        assert r.returncode == 0 and f"usage: holdem {cmd}" in r.stdout, cmd


@pytest.mark.parametrize(
    ("args", "why"),
    [
        ((), "the following arguments are required: COMMAND"),
        (("frobnicate",), "invalid choice: 'frobnicate'"),
        (("replay",), "the following arguments are required: FILE"),
        # the command's parser names itself and its help (the top one said "holdem:")
        (("replay", "x.phh", "--bogus"),
         "holdem replay: error: unrecognized arguments: --bogus (see 'holdem replay --help')"),
        (("simulate", "--bogus"), "holdem simulate: error: unrecognized arguments: --bogus"),
        (("play", "foo"), "holdem play: error: unrecognized arguments: foo (see 'holdem play "
                          "--help')"),
    ],
)
def test_bad_arguments_one_line_exit_2(args: tuple[str, ...], why: str) -> None:
    r = run(*args)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and why in r.stderr and "Traceback" not in r.stderr


def test_replay_reports_each_hand(tmp_path: Path) -> None:
    good = tmp_path / "good.phh"
    good.write_text(GOOD)
    r = run("replay", str(good))
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"ok        {good}" in r.stdout and "1 of 1 hands replayed exactly; 0 failed" in r.stdout
    r = run("replay", "-v", str(good))
    assert "final stacks 102 98 100" in r.stdout


def test_replay_mismatch_and_illegal_exit_1(tmp_path: Path) -> None:
    good = tmp_path / "good.phh"
    good.write_text(GOOD)
    bad_stacks = tmp_path / "stacks.phh"
    bad_stacks.write_text(GOOD.replace("[102, 98, 100]", "[100, 100, 100]"))
    illegal = tmp_path / "illegal.phh"
    illegal.write_text(GOOD.replace("'p1 cbr 10'", "'p1 cbr 3'"))
    unreadable = tmp_path / "latin1.phh"
    unreadable.write_bytes(GOOD.encode().replace(b"variant", b"\xe9variant", 1))
    r = run("replay", "-q", str(good), str(bad_stacks), str(illegal), str(unreadable))
    assert r.returncode == 1
    out = r.stdout
    assert f"MISMATCH  {bad_stacks}: p1 ends with 102, the file says 100" in out
    assert f"ILLEGAL   {illegal}: actions[4] 'p1 cbr 3':" in out
    assert (f"ERROR     {unreadable}: byte offset 0 (line 1) is not UTF-8 (invalid continuation "
            "byte): hand histories are UTF-8 text") in out
    assert "1 of 4 hands replayed exactly; 3 failed" in out
    assert "ok " not in out  # --quiet


def test_replay_without_hands_is_bad_input_exit_2(tmp_path: Path) -> None:
    # a missing file was counted as a failed hand (exit 1), and a folder without hands
    # "passed" with "0 of 0 hands" (exit 0); stats and export already said exit 2
    (tmp_path / "empty").mkdir()
    good = tmp_path / "good.phh"
    good.write_text(GOOD)
    for args, message in (([str(good), str(tmp_path / "none.phh")],
                           f"cannot read {tmp_path / 'none.phh'}: no such file or folder"),
                          ([str(tmp_path / "empty")], "no hands in the given files")):
        r = run("replay", *args)
        assert r.returncode == 2 and r.stdout == "", (args, r.stdout)
        assert r.stderr == f"holdem replay: error: {message}\n"


def test_replay_phhs_and_stdin(tmp_path: Path) -> None:
    hh = loads(GOOD)
    multi = tmp_path / "two.phhs"
    multi.write_text(dumps_all([hh, hh.replace(finishing_stacks=(1, 2, 3))]))
    r = run("replay", str(multi))
    assert r.returncode == 1
    assert f"ok        {multi}[1]" in r.stdout and f"MISMATCH  {multi}[2]" in r.stdout
    r = run("replay", "-", stdin=GOOD)
    assert r.returncode == 0 and "ok        <stdin>" in r.stdout


def test_export_pokerstars(tmp_path: Path) -> None:
    good = tmp_path / "good.phh"
    good.write_text(GOOD)
    r = run("export", str(good))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("PokerStars Hand #1: Hold'em No Limit (1/2)")
    assert "Player 1: raises 8 to 10" in r.stdout
    out = tmp_path / "out.txt"
    r = run("export", str(good), "-o", str(out))
    assert r.returncode == 0 and r.stdout == "" and out.read_text().startswith("PokerStars Hand")
    broken = tmp_path / "broken.phh"
    broken.write_text("variant = [\n")
    r = run("export", str(broken))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not valid TOML" in r.stderr


def test_export_refuses_to_overwrite_an_input_or_write_a_phh_name(tmp_path: Path) -> None:
    """``export FILE -o FILE`` overwrote the hand history with PokerStars text without a word;
    an output named .phh/.phhs held PokerStars text. One line, exit code 2, nothing written."""
    good = tmp_path / "good.phh"
    good.write_text(GOOD)
    (tmp_path / "link.txt").symlink_to(good)
    for output in (str(good), "good.phh", "./sub/../good.phh", "link.txt"):
        if output.startswith("./sub"):
            (tmp_path / "sub").mkdir(exist_ok=True)
        r = run("export", str(good), "-o", output, cwd=tmp_path)
        assert r.returncode == 2 and r.stdout == "", output
        assert r.stderr == (f"holdem export: error: --output names an input file ({output}): "
                            "the PokerStars text would overwrite its hands; give another "
                            "file\n"), output
        assert good.read_text() == GOOD
    for name in ("out.phhs", "out.PHH"):
        r = run("export", str(good), "-o", name, cwd=tmp_path)
        assert r.returncode == 2 and r.stdout == ""
        assert r.stderr == (f"holdem export: error: --output writes PokerStars text, not PHH, "
                            f"but {name} names a {name[3:]} file: give a name ending in "
                            ".txt\n")
        assert not (tmp_path / name).exists()
    r = run("export", "good.phh", "-o", "new.txt", cwd=tmp_path)  # a new file is still fine
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "new.txt").read_text().startswith("PokerStars Hand #1")


def test_export_in_workers_gives_the_same_text(tmp_path: Path) -> None:
    """``holdem export --workers N`` converts chunks of hands in worker processes: the same
    text for any N, in the files' order, and the first bad hand's error (not that of a later
    file the parent read first), with no file written."""
    from holdem.cli._hands import CHUNK_HANDS

    hands = [GOOD.replace("[100, 100, 100]", f"[100, 100, {100 + i}]").replace(
        "[102, 98, 100]", f"[102, 98, {100 + i}]") for i in range(CHUNK_HANDS + 3)]
    many = tmp_path / "many.phhs"
    many.write_text("".join(f"[{i}]\n{h}\n" for i, h in enumerate(hands, 1)))
    one = tmp_path / "one.phh"
    one.write_text(GOOD)
    texts = [run("export", str(many), str(one), "--workers", w).stdout for w in ("1", "2", "3")]
    assert texts[0] == texts[1] == texts[2]
    assert texts[0].count("PokerStars Hand #") == CHUNK_HANDS + 4
    assert f"Seat 3: Player 3 ({100 + CHUNK_HANDS + 2} in chips)" in texts[0]
    bad = hands[:]
    bad[CHUNK_HANDS + 1] = GOOD.replace("'p1 cbr 10'", "'p1 cbr 1'")  # below the minimum
    many.write_text("".join(f"[{i}]\n{h}\n" for i, h in enumerate(bad, 1)))
    unreadable = tmp_path / "b.phhs"
    unreadable.write_bytes(b"[1]\n\xff\n")
    for w in ("1", "2"):
        out = tmp_path / f"out{w}.txt"
        r = run("export", str(many), str(unreadable), "--workers", w, "-o", str(out))
        assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
        assert f"{many}[{CHUNK_HANDS + 2}]" in r.stderr and not out.exists()


@pytest.mark.parametrize("command", ["replay", "stats", "export"])
def test_no_hands_and_stdin_twice_are_bad_input(tmp_path: Path, command: str) -> None:
    """``export`` of a file without hands wrote a blank line and exited 0 (``replay`` and
    ``stats`` said "no hands"); ``- -`` read standard input once, and the second ``-`` was an
    empty file. Both are one line, exit code 2, for the three commands."""
    empty = tmp_path / "empty.phhs"
    empty.write_text("")
    r = run(command, str(empty))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stdout == ""
    assert "no hands in the given files" in r.stderr
    r = run(command, "-", "-", stdin=GOOD)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stdout == ""
    assert "'-' (standard input) is given more than once" in r.stderr


# --- play: scripted input on stdin ------------------------------------------------------------


def test_play_scripted_session() -> None:
    """A user plays two hands against calling agents, with mistakes along the way."""
    moves = "help\nstatus\nr 1\nbet\nx\nwhat\nf\nc\nx\nx\nx\n" * 3
    r = run("play", "--players", "2", "--hands", "2", "--agents", "call", "--seed", "7",
            stdin=moves)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert r.stderr == "" and "Traceback" not in out
    assert "seed 7 (same game again: --seed 7)" in out
    assert re.search(r"^=== Hand 1: (You have|call-2 has) the button; blinds 1/2 ===$", out, re.M)
    assert re.search(r"^Posted: (You 1, call-2 2|You 2, call-2 1)$", out, re.M)
    assert re.search(r"^Your cards: [2-9TJQKA][cdhs] [2-9TJQKA][cdhs]$", out, re.M)
    # legal actions with amounts, then helpful messages for bad input
    assert re.search(r"You may: (fold \(f\) \| call 1 \(c\)|check \(x\)) \| raise to 4\.\.\d+ \(r N\)", out)
    assert "moves: f (fold)" in out  # help
    assert re.search(r"^Stacks: You \d+ \(.*\) \| call-2 \d+", out, re.M)  # status
    assert "raise to 1 is not allowed: the raise goes from 4 to" in out
    assert "bet needs one amount" in out
    assert "'what' is not a move (type help for the list)" in out
    assert ("you cannot check facing a bet: call 1 or fold" in out
            or "no need to fold: checking is free (R17); check" in out)
    assert "=== Hand 2:" in out and "Session over after 2 hands." in out
    # chips are conserved over the session
    finals = [int(line.split()[1]) for line in out.splitlines()
              if line.startswith(("  You ", "  call-2 "))]
    assert sum(finals) == 400


def test_play_same_seed_same_session() -> None:
    moves = "c\n" * 40
    a = run("play", "--players", "4", "--hands", "3", "--seed", "11", stdin=moves)
    b = run("play", "--players", "4", "--hands", "3", "--seed", "11", stdin=moves)
    assert a.returncode == b.returncode == 0 and a.stdout == b.stdout


def test_play_end_of_input_and_quit() -> None:
    r = run("play", "--hands", "5", "--seed", "3", stdin="")
    assert r.returncode == 0 and "You leave the table" in r.stdout
    assert re.search(r"Session over after [1-5] hands?\.", r.stdout)
    r = run("play", "--seed", "3", "--agents", "equity,call", stdin="quit\n")
    assert r.returncode == 0 and "You leave the table" in r.stdout
    assert re.search(r"Session over after \d+ hands?\.", r.stdout)


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("--players", "11"), "argument --players: '11' is not between 2 and 10"),
        (("--players", "x"), "'x' is not a whole number"),
        (("--agents", "shark"), "unknown agent 'shark' (built-in agents: call, equity, random)"),
        (("--limit", "half"), "argument --limit: invalid choice: 'half'"),
        (("--stack", "19"), "--stack 19 is below the minimum buy-in of 10 big blinds (20, R35)"),
        (("--seed", "-4"), "'-4': seeds are 0..2**64-1"),
        # the API reduces a seed modulo 2**64: 2**64 played the game of seed 0
        (("--seed", str(2**64)), f"'{2**64}': seeds are 0..2**64-1"),
        # replay and stats read a .txt file as PokerStars text: the saved hands were unreadable
        (("--save", "x.txt"), "--save writes PHH, but x.txt names a .txt file: give a name "
                              "ending in .phhs (or .phh)"),
    ],
)
def test_play_bad_arguments(args: tuple[str, ...], why: str) -> None:
    r = run("play", *args)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and why in r.stderr, r.stderr


def test_play_saves_hands_that_replay(tmp_path: Path) -> None:
    """Every hand played is written as PHH and replays exactly through the rules engine."""
    saved = tmp_path / "session.phhs"
    r = run("play", "--players", "4", "--hands", "6", "--agents", "random,equity", "--seed", "5",
            "--save", str(saved), stdin="c\nx\n" * 60)
    assert r.returncode == 0, r.stderr
    played = int(re.search(r"Session over after (\d+) hands?", r.stdout).group(1))  # type: ignore[union-attr]
    assert played >= 2
    check = run("replay", str(saved))
    assert check.returncode == 0, check.stdout
    assert f"{played} of {played} hands replayed exactly; 0 failed" in check.stdout


# --- equity and simulate ----------------------------------------------------------------------


def test_equity_exact_and_monte_carlo() -> None:
    r = run("equity", "AsKs", "QdQc")
    assert r.returncode == 0, r.stderr
    assert "1,712,304 boards (exact)" in r.stdout
    assert re.search(r"AsKs\s+equity\s+46\.2145%", r.stdout)
    assert re.search(r"QdQc\s+equity\s+53\.7855%", r.stdout)
    args = ("equity", "AhKh", "QQ+,AKs", "--board", "Qs7h2c", "--samples", "20000", "--seed", "1")
    a, b, c = run(*args), run(*args, "--workers", "1"), run(*args, "--workers", "2")
    assert a.returncode == b.returncode == c.returncode == 0, a.stderr + c.stderr
    assert a.stdout == b.stdout == c.stdout  # same seed, same numbers, any number of workers
    assert "board Qs7h2c" in a.stdout and "20,000 boards (Monte Carlo, seed 1)" in a.stdout


def test_equity_takes_a_range_of_exact_combos() -> None:
    # used to fail with "a hand has 2 cards, not 4": the text also reads as four cards
    r = run("equity", "AhKh,AsKs", "JdJc", "--board", "2c7d9h8s")
    assert r.returncode == 0, r.stderr
    assert "88 boards (exact)" in r.stdout
    assert re.search(r"AhKh,AsKs\s+equity\s+13\.6364%", r.stdout)


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("AsKs",), "give 2 to 10 hands or ranges, not 1"),
        (("AsKs", "AsQc"), "card As"),
        (("AsKx", "QdQc"), "AsKx"),
        (("AsKs", "QdQc", "--samples", "0"), "argument --samples: '0' must be at least 1"),
        (("AsKs", "QdQc", "--workers", "2", "--scheduler", "tcp://x:1"), "not allowed with"),
        (("AsKs", "QdQc", "--exact", "--samples", "5"), "--exact enumerates every board"),
    ],
)
def test_equity_bad_input(args: tuple[str, ...], why: str) -> None:
    r = run("equity", *args)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and why in r.stderr, r.stderr


def test_equity_exact_of_too_many_names_the_options() -> None:
    """The library's message named its Python arguments (samples=... or target_se=...)."""
    r = run("equity", "random", "random", "random", "--exact")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == ("holdem equity: error: more than 5,000,000 combo assignments: too many "
                        "to enumerate; drop --exact or give --samples N\n")


def test_simulate_summary_and_determinism() -> None:
    args = ("simulate", "--players", "3", "--hands", "300", "--seed", "1",
            "--agents", "random,call,equity")
    a = run(*args)
    assert a.returncode == 0, a.stderr
    lines = a.stdout.splitlines()
    assert lines[0].startswith("300 hands of no-limit hold'em, 3 players, blinds 1/2, stacks 200")
    assert lines[1].split() == ["agent", "hands", "chips", "won", "bb/100", "95%", "CI",
                                "showdowns", "won", "at", "SD"]
    rows = [ln.split() for ln in lines[3:6]]
    assert [r[0] for r in rows] == ["random-1", "call-2", "equity-3"]
    assert all(r[1] == "300" for r in rows)
    assert sum(int(r[2].replace(",", "")) for r in rows) == 0  # no rake: zero-sum
    assert lines[-1] == "total chips won 0 and rake 0: they sum to zero"
    assert "hands/s" in a.stderr and "simulate 300/300" not in a.stderr  # no bar off a terminal
    assert "hands/s on the batched engine" in a.stderr  # the default agents are all compiled
    b = run(*args, "--workers", "2")
    assert b.returncode == 0 and b.stdout == a.stdout  # same seed, any number of workers


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("--players", "1"), "'1' is not between 2 and 10"),
        (("--hands", "0"), "'0' must be at least 1"),
        (("--agents", "gto"), "unknown agent 'gto'"),
        (("--stack", "5"), "below the minimum buy-in"),
        (("--workers", "x"), "'x' is not a whole number"),
        (("--workers", "1000000"), "'1000000' is above the limit of"),
    ],
)
def test_simulate_bad_arguments(args: tuple[str, ...], why: str) -> None:
    r = run("simulate", *args)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and why in r.stderr, r.stderr


def test_workers_are_bounded_by_the_cores() -> None:
    """``--workers 100000`` forked 100,000 processes up front (a pool starts all its workers
    at once, whatever the job) and ran for minutes on a 100-hand job: at most 4 per core,
    and at least 64, are taken; one more is refused naming the limit, by every command."""
    from holdem._parallel import cpu_count
    from holdem.cli import _max_workers, _workers

    most = _max_workers()
    assert most == max(64, 4 * cpu_count())
    assert _workers(str(most)) == most and _workers("1") == 1
    with pytest.raises(argparse.ArgumentTypeError, match=f"above the limit of {most} worker"):
        _workers(str(most + 1))
    for command in (("equity", "AsKs", "QdQc"), ("stats", "x.phh"), ("export", "x.phh"),
                    ("replay", "x.phh"), ("simulate",)):
        r = run(*command, "--workers", str(most + 1))
        assert r.returncode == 2 and f"above the limit of {most} worker" in r.stderr, r.stderr


@pytest.mark.parametrize("command", ["simulate", "play"])
@pytest.mark.parametrize("players", [2, 6])
def test_chip_options_above_the_engines_limit_name_the_option(command: str,
                                                             players: int) -> None:
    """``--stack``/``--big-blind`` of 2**53 passed the parser and were refused by the table
    with a message about an agent's chips (``play`` printed its banner first). The table holds
    at most 2**53 chips in all: the largest stack (or big blind, with the default stack of
    100 big blinds) for the players is accepted, one more is refused naming the option."""
    most = 2**53 // players
    base = (command, "--players", str(players), "--hands", "1", "--seed", "1", "--agents",
            "call")
    for args in (("--stack", str(most)), ("--big-blind", str(most // 100))):
        r = run(*base, *args, stdin="quit\n")
        assert r.returncode == 0, (args, r.stderr)
    limit = f"for {players} players (2**53 chips on the table, the engine's limit)"
    r = run(*base, "--stack", str(most + 1))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"holdem {command}: error: --stack {most + 1} is above {most}, the "
                        f"most {limit}\n")
    r = run(*base, "--big-blind", str(most // 100 + 1))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"holdem {command}: error: --big-blind {most // 100 + 1} is above "
                        f"{most // 100}, the most with the default stack of 100 big blinds "
                        f"{limit}\n")
    r = run(*base, "--stack", str(2**53), "--big-blind", str(2**53))
    assert r.returncode == 2 and f"--stack {2**53} is above {most}" in r.stderr


# ---------------------------------------------------------------------- mutation-run additions
def _main(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """The command line in-process (faster than a subprocess): exit code, stdout, stderr."""
    import io

    from holdem.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = main(list(args), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _interrupted_in_the_first_hand(saved: Path) -> int:
    """Run ``holdem play --save saved``, send it SIGINT at its first prompt; its exit code."""
    import signal

    env = child_env()
    proc = subprocess.Popen([sys.executable, "-m", "holdem", "play", "--players", "2",
                             "--agents", "call", "--seed", "5", "--save", str(saved)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    assert proc.stdout is not None
    shown = ""
    while not shown.endswith("> "):  # the first prompt: hand 1 is under way
        char = proc.stdout.read(1)
        assert char, shown
        shown += char
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert err == "holdem play: interrupted\n"
    return proc.returncode


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_play_save_keeps_an_existing_file_until_a_hand_is_played(tmp_path: Path) -> None:
    """--save: the file was emptied at the start, so Ctrl-C in the first hand lost a saved
    session; it is written anew when the first hand ends."""
    saved = tmp_path / "session.phhs"
    first = run("play", "--players", "2", "--hands", "2", "--agents", "call", "--seed", "4",
                "--save", str(saved), stdin="c\nx\n" * 20)
    assert first.returncode == 0, first.stderr
    old = saved.read_text()
    assert old.startswith("[1]") and "[2]" in old
    assert _interrupted_in_the_first_hand(saved) == 130
    assert saved.read_text() == old
    again = run("play", "--players", "2", "--hands", "1", "--agents", "call", "--seed", "5",
                "--save", str(saved), stdin="c\nx\n" * 10)
    assert again.returncode == 0, again.stderr
    new = saved.read_text()
    assert new.startswith("[1]") and "[2]" not in new and new != old
    assert run("replay", str(saved)).returncode == 0


def test_play_save_starts_the_file_with_the_first_hand_it_saves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A first hand PHH cannot hold is skipped; the next hand saved then still starts the
    file anew (it was appended to the file's old session)."""
    import holdem.history
    from holdem import HoldemError

    saved = tmp_path / "s.phhs"
    saved.write_text("OLD SESSION\n")
    real = holdem.history.from_state
    calls = []

    def first_fails(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise HoldemError("cannot be written (a test)")
        return real(*args, **kwargs)

    monkeypatch.setattr(holdem.history, "from_state", first_fails)
    code, out, err = _main("play", "--players", "2", "--hands", "2", "--agents", "call",
                           "--seed", "4", "--save", str(saved), stdin="c\nx\n" * 20)
    assert code == 0 and err == "", err
    assert "(hand 1 is not saved: cannot be written (a test))" in out
    text = saved.read_text()
    assert text.startswith("[2]\n") and "OLD" not in text and "[1]" not in text


@pytest.mark.parametrize("where", ["", "missing-folder/s.phhs", "."])
def test_play_save_refuses_a_path_it_cannot_write_before_any_hand(where: str,
                                                                  tmp_path: Path) -> None:
    # --save '' played a whole hand, then failed naming no file
    r = run("play", "--players", "2", "--agents", "call", "--seed", "1", "--save", where,
            stdin="c\n" * 20, cwd=tmp_path)
    assert r.returncode == 2 and "Hand 1" not in r.stdout
    assert r.stderr == f"holdem play: error: cannot write {where!r}: " + r.stderr.split(": ")[-1]
    assert r.stderr.count("\n") == 1


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT")
def test_play_save_a_session_cut_short_leaves_no_empty_file(tmp_path: Path) -> None:
    # Ctrl-C (or a broken pipe) in the first hand left an empty file, which replay refuses
    assert _interrupted_in_the_first_hand(tmp_path / "s.phhs") == 130
    assert not (tmp_path / "s.phhs").exists()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_play_save_a_failed_write_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "full.phhs").symlink_to("/dev/full")
    r = run("play", "--players", "2", "--hands", "1", "--agents", "call", "--seed", "1",
            "--save", "full.phhs", stdin="c\nx\n" * 10, cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr == "holdem play: error: full.phhs: No space left on device\n"


@pytest.mark.parametrize("args", [("replay", "-"), ("stats", "-"), ("export", "-"),
                                  ("play", "--hands", "1", "--seed", "1")])
@pytest.mark.skipif(sys.platform == "win32", reason="closes fd 0 in the child (POSIX)")
def test_a_closed_stdin_is_one_line_not_a_traceback(args: tuple[str, ...]) -> None:
    # Python's sys.stdin is None when the process has no fd 0 (<&-): AttributeError traceback
    env = child_env()
    r = subprocess.run([sys.executable, "-m", "holdem", *args], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
                       preexec_fn=lambda: os.close(0))
    assert r.returncode == 2, r.stderr
    assert r.stderr.endswith(f"holdem {args[0]}: error: standard input is closed: there is "
                             f"nothing to read\n")
    assert "Traceback" not in r.stderr


def test_play_takes_raise_to_n_as_the_prompt_writes_it() -> None:
    # the prompt offers "raise to 4..200 (r N)"; typing "raise to 6" was refused ("raise
    # needs one amount")
    code, out, err = _main("play", "--players", "2", "--hands", "1", "--agents", "call",
                           "--seed", "5", stdin="raise to 6\nx\nx\nbet to 8\nx\n")
    assert code == 0 and err == "", err
    assert "> raise to 6\ncall-2 calls 4\n" in out
    assert "needs one amount" not in out
    code, out, _ = _main("play", "--players", "2", "--hands", "1", "--agents", "call",
                         "--seed", "5", stdin="raise to\nraise to 6 7\nx\nx\nx\nx\n")
    assert "'to' is not a whole number of chips" in out  # "raise to" with no amount
    assert out.count("raise needs one amount") == 1  # "raise to 6 7"


def test_seed_zero_is_a_valid_seed() -> None:
    """--seed: seeds are 0..2**64-1, so 0 is accepted."""
    code, out, err = _main("play", "--players", "2", "--hands", "1", "--agents", "call",
                           "--seed", "0", stdin="")
    assert code == 0 and err == "" and "seed 0 (same game again: --seed 0)" in out


def test_r35_stack_of_exactly_ten_big_blinds_is_the_minimum_buy_in() -> None:
    """R35: the minimum buy-in is 10 big blinds: --stack 20 with --big-blind 2 is allowed
    (19 is refused, see test_play_bad_arguments)."""
    code, out, err = _main("play", "--players", "2", "--hands", "1", "--agents", "call",
                           "--big-blind", "2", "--stack", "20", "--seed", "1", stdin="")
    assert code == 0 and err == "", err
    assert "Session over after 1 hand." in out


def test_equity_takes_up_to_ten_hands() -> None:
    """equity: "give 2 to 10 hands or ranges": ten hands are computed, eleven refused."""
    hands = ["AsAh", "KsKh", "QsQh", "JsJh", "TsTh", "9s9h", "8s8h", "7s7h", "6s6h", "5s5h"]
    code, out, err = _main("equity", *hands, "--samples", "2000", "--seed", "1",
                           "--workers", "1")
    assert code == 0 and err == "", err
    assert all(h in out for h in ("AsAh", "5s5h")), out
    code, out, err = _main("equity", *hands, "4s4h", "--samples", "2000", "--workers", "1")
    assert code == 2 and "give 2 to 10 hands or ranges, not 11" in err


def test_play_summary_shows_each_stack_with_its_signed_change() -> None:
    """The session summary lists every seat's chips and its change from the starting stack
    (--stack 200) with an explicit sign: chips - change == 200 on every line, heads-up the
    changes add up to zero, and a gain is written with a '+'."""
    code, out, _ = _main("play", "--players", "2", "--hands", "3", "--agents", "call",
                         "--stack", "200", "--seed", "4", stdin="call\n" * 40)
    assert code == 0
    rows = re.findall(r"^  (\S+)\s+(\d+)\s+\(([+-]\d+)\)$", out, re.MULTILINE)
    assert len(rows) == 2, out
    assert all(int(chips) - int(change) == 200 for _, chips, change in rows)
    assert sum(int(change) for _, _, change in rows) == 0
    assert any(change.startswith("+") for _, _, change in rows)


def test_progress_interval_must_be_above_zero_seconds() -> None:
    """--progress SECONDS: a line that often; the parser takes 0 < SECONDS < 1000000, so a
    report every 0 seconds is refused (exit 2, one line) and a small positive one is not."""
    r = run("simulate", "--players", "2", "--hands", "10", "--progress", "0")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "'0': give seconds above 0 and below 1000000" in r.stderr
    r = run("simulate", "--players", "2", "--hands", "10", "--progress", "0.5", "--seed", "1")
    assert r.returncode == 0, r.stderr


def test_stats_reads_a_pokerstars_txt_with_a_byte_order_mark_in_a_folder(tmp_path: Path) -> None:
    """stats FOLDER: a .txt file in the folder is read as PokerStars text when it starts with
    a PokerStars hand, even behind a UTF-8 byte-order mark (skipping it would end in "no hands
    in the given files")."""
    text = (ROOT / "tests/data/pokerstars/cash-limits.txt").read_text(encoding="utf-8")
    (tmp_path / "hands").mkdir()
    (tmp_path / "hands" / "bom.txt").write_bytes(("\ufeff" + text).encode("utf-8"))
    code, out, err = _main("stats", str(tmp_path / "hands"))
    assert code == 0 and err == "", err
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()[1:] if line.strip()}
    assert rows == {"Hero": "2", "capper": "1", "limpy": "1", "quiet_one": "1",
                    "villain": "1"}, out


def test_stats_reads_a_multi_hand_phh_text_on_standard_input() -> None:
    """stats -: standard input is read whole and may be a multi-hand PHH text (tables of a
    .phhs file), not only one hand: the 50 public hands give each player's row (read as one
    hand, it would be refused: "<stdin>: unknown field '1'")."""
    stdin = (ROOT / "tests/data/public_50.phhs").read_text(encoding="utf-8")
    code, out, err = _main("stats", "-", stdin=stdin)
    assert code == 0 and err == "", err
    rows = {line.split()[0]: int(line.split()[1]) for line in out.splitlines()[1:] if line.strip()}
    assert rows["p1"] == rows["p2"] == 50 and rows["p10"] == 6, out
    assert len(rows) == 10, out
    assert out == run("stats", "tests/data/public_50.phhs").stdout  # as the file itself
