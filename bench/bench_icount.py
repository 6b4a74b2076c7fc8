"""The instruction-count gate's own checks (no valgrind needed): the workloads run, the
comparison fails on a workload over the threshold and names it, and the baseline file keeps
one workload per line. The gate itself: ``bench/gate.sh check`` (see bench/icount.py); the
5% injection proof: ``python bench/inject_slowdown.py``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import icount
import icount_workloads

TOOLS = {"python": "3.11.7", "cython": "3.3.1", "gcc": "12.2.0 (Debian)", "valgrind": "3.19.0",
         "machine": "x86_64", "avx2": True, "holdem": "0.1.0"}


def _result(**ir: float) -> dict[str, Any]:
    return {"toolchain": dict(TOOLS),
            "workloads": {k: {"ir_per_unit": v, "unit": "hand"} for k, v in ir.items()}}


@pytest.mark.parametrize("name", sorted(icount_workloads.WORKLOADS))
def test_workload_runs(name: str) -> None:
    w = icount_workloads.WORKLOADS[name]
    assert 0 < w.n1 < w.n2
    w.setup()(w.n1)  # each workload checks its own result (payouts, boards, replays)


def test_the_issue_workloads_are_covered() -> None:
    assert set(icount_workloads.WORKLOADS) >= {
        "evaluate_call", "evaluate_many_bytes", "evaluate_many_int64", "deal_hands",
        "split_pots_batch", "split_pots", "equity_exact_hu", "equity_mc_3way",
        "hand_validated", "hand_unchecked", "table_python_agent", "phh_round_trip"}


def test_committed_baseline_covers_every_workload() -> None:
    baseline = json.loads(icount.BASELINE.read_text())
    assert set(baseline["workloads"]) == set(icount_workloads.WORKLOADS)
    assert baseline["updates"] and all(isinstance(u, str) and u for u in baseline["updates"])
    assert set(icount.TOOLCHAIN_KEYS) <= set(baseline["toolchain"])


def test_the_type_cache_walk_is_the_only_code_not_counted() -> None:
    cmd = icount.callgrind_command("python3", "/tmp/x/cg.out", ["a"])
    # --toggle-collect turns collection off at the start; --collect-atstart=yes must follow it
    toggles = [c for c in cmd if c.startswith(("--toggle-collect", "--collect-atstart"))]
    assert toggles == ["--toggle-collect=find_name_in_mro", "--collect-atstart=yes"]
    assert cmd[-3:] == [str(icount.WORKLOADS_SCRIPT), "--measure", "a"]


def test_a_workload_over_the_threshold_fails_and_is_named() -> None:
    status, text = icount.report(_result(a=1000.0, b=50.0), _result(a=1050.0, b=50.1),
                                 strict=True)
    assert status == icount.EXIT_REGRESSION
    fails = [line for line in text.splitlines() if line.startswith("FAIL")]
    assert len(fails) == 1 and fails[0].startswith("FAIL a: +5.00%")
    assert "| b | hand | 50.0 | 50.1 | +0.20% | ok |" in text


def test_within_the_threshold_passes_and_improvements_are_reported() -> None:
    status, text = icount.report(_result(a=1000.0, b=100.0), _result(a=1029.0, b=90.0),
                                 strict=True)
    assert status == icount.EXIT_OK
    assert "icount gate: passed" in text
    assert "Improved by more than 3%: b" in text


def test_a_different_toolchain_is_not_compared_silently() -> None:
    now = _result(a=2000.0)
    now["toolchain"]["gcc"] = "13.2.0 (Ubuntu)"
    status, text = icount.report(_result(a=1000.0), now, strict=False)
    assert status == icount.EXIT_OK and "GATE NOT APPLIED" in text and "gcc: baseline" in text
    status, _ = icount.report(_result(a=1000.0), now, strict=True)
    assert status == icount.EXIT_NOT_COMPARABLE


def test_new_and_removed_workloads() -> None:
    status, text = icount.report(_result(old=10.0), _result(new=10.0), strict=True)
    assert status == icount.EXIT_OK
    assert "| new | hand | - | 10.0 | - | new (no baseline) |" in text
    assert "| old | hand | 10.0 | - | - | not measured |" in text


def test_baseline_update_keeps_the_reasons_one_workload_per_line(tmp_path: Path) -> None:
    path = tmp_path / "baseline.json"
    icount.update_baseline(path, _result(b=2.0, a=1.0), "first")
    icount.update_baseline(path, _result(b=2.0, a=1.5), "a got slower:\n on purpose")
    text = path.read_text()
    data = json.loads(text)
    assert [u.split(": ", 1)[1] for u in data["updates"]] == ["first", "a got slower: on purpose"]
    assert data["workloads"]["a"] == {"ir_per_unit": 1.5, "unit": "hand"}
    lines = text.splitlines()
    assert sum('"a": {' in line for line in lines) == 1
    assert lines.index('    "a": {"ir_per_unit": 1.5, "unit": "hand"},') < lines.index(
        '    "b": {"ir_per_unit": 2.0, "unit": "hand"}')
    with pytest.raises(icount.GateError, match="reason"):
        icount.update_baseline(path, _result(a=1.0), "  ")


def test_a_partial_update_changes_only_the_workloads_measured(tmp_path: Path) -> None:
    path = tmp_path / "baseline.json"
    icount.update_baseline(path, _result(a=1.0, b=2.0, c=3.0), "first")
    icount.update_baseline(path, _result(b=1.5), "b got faster", partial=True)
    data = json.loads(path.read_text())
    assert {k: v["ir_per_unit"] for k, v in data["workloads"].items()} == {
        "a": 1.0, "b": 1.5, "c": 3.0}
    assert data["updates"][-1].endswith("b got faster (only b)")
    other = _result(b=1.0)
    other["toolchain"] = {**other["toolchain"], "gcc": "another"}
    with pytest.raises(icount.GateError, match="toolchain"):
        icount.update_baseline(path, other, "elsewhere", partial=True)
    assert json.loads(path.read_text()) == data  # refused: the file is unchanged


def test_a_workload_with_its_own_threshold_is_judged_by_it_and_keeps_it(tmp_path: Path) -> None:
    base = _result(a=1000.0, b=1000.0)
    base["workloads"]["a"]["threshold_percent"] = 6.0
    status, text = icount.report(base, _result(a=1050.0, b=1029.0), strict=True)
    assert status == icount.EXIT_OK and "own limits: a +6%" in text
    status, text = icount.report(base, _result(a=1070.0, b=1000.0), strict=True)
    assert status == icount.EXIT_REGRESSION and "over the 6% limit" in text
    status, text = icount.report(base, _result(a=1000.0, b=1040.0), strict=True)
    assert status == icount.EXIT_REGRESSION and "FAIL b: +4.00%" in text
    path = tmp_path / "baseline.json"
    path.write_text(icount.dumps_baseline({**base, "updates": ["first"]}))
    icount.update_baseline(path, _result(a=1010.0, b=990.0), "again")
    data = json.loads(path.read_text())
    assert data["workloads"]["a"] == {"ir_per_unit": 1010.0, "threshold_percent": 6.0,
                                      "unit": "hand"}
    assert data["workloads"]["b"] == {"ir_per_unit": 990.0, "unit": "hand"}


@pytest.mark.parametrize("loop", ["table", "handstate", "vector"])
def test_icount_ratio_loops_run(loop: str) -> None:
    """``bench/icount_ratio.py``'s loops run outside valgrind (so they never rot): the small
    run's decisions then the large run's, the large one more."""
    import re
    import subprocess

    pytest.importorskip("numpy", reason="the batched loop's policy is numpy")
    script = Path(__file__).resolve().parent / "icount_ratio.py"
    done = subprocess.run([sys.executable, str(script), "--child", loop, "1", "2"],
                          capture_output=True, text=True, timeout=300, check=True)
    made = re.fullmatch(r"DECISIONS (\d+) (\d+)\n", done.stdout)
    assert made is not None, done.stdout
    small, large = int(made.group(1)), int(made.group(2))
    assert 0 < small < large
    if loop == "vector":
        assert (small, large) == (4096, 8192)  # a decision a table a step
