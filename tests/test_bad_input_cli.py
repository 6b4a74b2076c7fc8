"""Bad-input suite: the ``holdem`` command (argument fuzz, each run in its own process).

The contract (README, Command line): bad arguments or bad input print one line on stderr and
exit with status 2, never a traceback; ``replay`` exits 1 when a hand breaks a rule or ends
with other stacks. No run crashes (a signal) or hangs (a timeout). Every generated run is
kept small (few hands, few samples, one worker), so the examples are bounded in time.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from badinput import bounded
from hypothesis import given
from hypothesis import strategies as st

CLI_TIMEOUT = 60.0
GOOD_PHH = (Path(__file__).parent / "test_bad_input_phh.py").read_text().split('"""')[3]
FILES = {
    "good.phh": GOOD_PHH,
    "nested.phh": "variant = " + "[" * 3000 + "1" + "]" * 3000 + "\n",
    "huge.phh": GOOD_PHH.replace("min_bet = 2", "min_bet = " + "9" * 5000),
    "bigchips.phh": GOOD_PHH.replace("[200, 200, 200]", "[9223372036854775808, 200, 200]"),
    "junk.phh": "\x00\x01 not toml [[[",
    "empty.phhs": "",
    "binary.phh": "\udcff",
}
INTS = st.one_of(st.integers(-3, 12).map(str), st.sampled_from(
    ["0", "-1", "2**53", "9007199254740993", "9223372036854775808", "18446744073709551616",
     "1e3", "1.5", "", "x", "0x10", "١٢", "9" * 5000, "nan", " 3"]))
CARDS = st.sampled_from(["AsKs", "QdQc", "AK", "QQ+,AKs", "AsAs", "Xx", "", "22+", "7h2c",
                         "AsKs QdQc", "0.5(AA", "-x", "--", "9" * 400])
AGENTS = st.sampled_from(["random", "call", "equity", "random,call", "random,,call", "x",
                          "", ",", "random,call,equity,random,call,equity,random,call,x,y,z"])


def _flag(name: str, values: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return st.one_of(st.just([]), values.map(lambda v: [name, v]), st.just([name]))


SIMULATE = st.tuples(
    st.just(["simulate", "--workers", "1"]), _flag("--players", INTS),
    st.one_of(st.integers(1, 30).map(lambda n: ["--hands", str(n)]),
              INTS.filter(lambda v: not v.strip().isdigit() or len(v) > 12 or int(v) < 1)
              .map(lambda v: ["--hands", v])),
    _flag("--agents", AGENTS), _flag("--stack", INTS), _flag("--big-blind", INTS),
    _flag("--limit", st.sampled_from(["no", "pot", "fixed", "x"])), _flag("--seed", INTS))
EQUITY = st.tuples(
    st.just(["equity"]), st.lists(CARDS, max_size=4), _flag("--board", CARDS),
    _flag("--dead", CARDS),
    st.one_of(st.integers(1, 500).map(lambda n: ["--samples", str(n)]),
              INTS.filter(lambda v: not v.strip().isdigit() or len(v) > 12 or int(v) < 1)
              .map(lambda v: ["--samples", v])),
    _flag("--seed", INTS), st.sampled_from([[], ["--workers", "1"], ["--workers", "x"]]))
PLAY = st.tuples(
    st.just(["play", "--hands", "1"]), _flag("--players", INTS), _flag("--agents", AGENTS),
    _flag("--stack", INTS), _flag("--big-blind", INTS), _flag("--seed", INTS),
    st.sampled_from([[], ["--save", "out.phhs"], ["--save", "."], ["--save", "no/such/dir"]]))
FILE_CMDS = st.tuples(
    st.sampled_from([["replay"], ["replay", "-q"], ["replay", "-v"], ["export"],
                     ["export", "-o", "out.txt"], ["export", "-o", "."], ["stats"],
                     ["stats", "--allin-samples", "10"]]),
    st.lists(st.sampled_from([*FILES, "missing.phh", ".", "-"]), min_size=0, max_size=3),
    st.sampled_from([[], ["--workers", "1"], ["--workers", "2"]]),
    _flag("--workers", INTS))
OTHER = st.lists(st.sampled_from(["--help", "--version", "x", "", "-", "--", "simulate",
                                  "--players", "-q", "equity", "\udcff"]), max_size=3)
ARGV = st.one_of(SIMULATE, EQUITY, PLAY, FILE_CMDS, OTHER.map(lambda a: (a,))).map(
    lambda parts: [a for part in parts for a in part])


@given(ARGV, st.sampled_from(["", "quit\n", "x\nx\nc\nf\nr 99999999999999999999\nquit\n",
                              GOOD_PHH]))
@bounded(15)
def test_holdem_command(argv: list[str], stdin: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for name, text in FILES.items():
            Path(tmp, name).write_text(text, errors="surrogateescape")
        env = {**os.environ, "PYTHONFAULTHANDLER": "1", "COLUMNS": "80"}
        cmd = [sys.executable, "-m", "holdem", *argv]
        try:
            proc = subprocess.run(cmd, input=stdin.encode(), capture_output=True, cwd=tmp,
                                  env=env, timeout=CLI_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"holdem {argv!r} did not finish in {CLI_TIMEOUT} s") from None
    err = proc.stderr.decode(errors="replace")
    what = f"holdem {argv!r} (stdin {stdin[:30]!r}): exit {proc.returncode}, stderr:\n{err[-3000:]}"
    assert proc.returncode >= 0, f"crashed: {what}"
    assert "Traceback" not in err, f"printed a traceback: {what}"
    assert proc.returncode in (0, 1, 2), what
    if proc.returncode == 2:
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert len(lines) == 1, f"a bad-input exit must print one line: {what}"


@pytest.mark.skipif(os.name != "posix", reason="closes the child's standard output before exec")
@pytest.mark.parametrize("argv", [["equity", "AsAh", "KsKd"],
                                  ["simulate", "--hands", "10", "--seed", "1"]])
def test_a_closed_standard_output_is_an_error(argv: list[str]) -> None:
    """``holdem ... >&-``: Python starts with ``sys.stdout`` None and print() drops the
    results; the command said nothing and exited 0. Now one line on stderr, exit 2."""
    proc = subprocess.run([sys.executable, "-m", "holdem", *argv], stderr=subprocess.PIPE,
                          preexec_fn=lambda: os.close(1), timeout=CLI_TIMEOUT)
    assert proc.returncode == 2
    assert proc.stderr.decode() == (f"holdem {argv[0]}: error: standard output is closed: the "
                                    f"results would be lost\n")
