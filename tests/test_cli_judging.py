"""The judging commands: ``holdem simulate --duplicate/--chart`` and ``holdem stats``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="100")
    return subprocess.run([sys.executable, "-m", "holdem", *args], capture_output=True,
                          text=True, env=env, cwd=cwd or ROOT, timeout=120)


def test_simulate_duplicate_prints_both_intervals() -> None:
    r = run("simulate", "--players", "2", "--agents", "call,random", "--hands", "500",
            "--seed", "1", "--duplicate")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("1,000 hands of no-limit hold'em, 2 players")
    assert lines[1].split()[-3:] == ["duplicate", "95%", "CI"]
    call = lines[3].split()
    assert call[0] == "call-1" and call[1] == "1,000"
    plain, dup = float(call[5]), float(call[-1])
    assert 0 < dup < plain
    again = run("simulate", "--players", "2", "--agents", "call,random", "--hands", "500",
                "--seed", "1", "--duplicate", "rotations", "--workers", "2")
    assert again.stdout == r.stdout
