"""The instruction-count gate: instructions per unit of work under valgrind, against a baseline.

Wall time on a shared machine moves by 30-50% from run to run; instruction counts move by far
less than 0.5%, so a 3% threshold on them catches real slowdowns without false alarms. A
workload may have its own ``threshold_percent`` in the baseline (kept across updates), for
one whose count moves more than that between runs of the same build.

The MRO walk of a type attribute cache miss is not counted (``find_name_in_mro``, which a miss
in ``_PyType_Lookup`` falls back on, runs with collection off). CPython's cache has one slot
per (type version tag XOR address of the name object) modulo 4096: two hot lookups that share a
slot evict each other on every call, and whether they do depends on where the heap put the
interned names and in which order the types got their tags, i.e. on the environment, the paths,
the files on ``sys.path``, the workloads run before in the process, unrelated code.
``hand_validated`` measured 225,5xx-225,7xx instructions per hand where none of its lookups
shared a slot and 228,4xx, 231,9xx or 234,3xx-234,8xx where some did (7.6, 14.7 or 21.4 misses
per hand at 340-400 instructions each); with the walk left out, 60 layouts measured 225,491 to
226,388 (0.4% apart: what a miss costs besides the walk, and the heap's other effects).
Everything else is counted: the lookups, their hits, the attribute machinery around them; a
change that made a lookup miss on every call for another reason (a class attribute set on each
call, a name the cache does not take) would have only its walk along the MRO left out.

Each workload of ``bench/icount_workloads.py`` runs at two sizes in one process under callgrind;
the cost is the marginal one, ``(I(n2) - I(n1)) / (n2 - n1)`` (start-up, imports and set-up
cancel out). The workloads run in two processes side by side (``--jobs``).

Usually run through ``bench/gate.sh``, which builds the package with the pinned build toolchain
(``bench/gate-requirements.txt``) first, so the counts stay comparable::

    bench/gate.sh check                    # measure, compare with bench/baseline.json
    bench/gate.sh update "why it changed"  # measure, rewrite the baseline with that reason

Directly (measuring the holdem this interpreter imports)::

    python bench/icount.py check [--strict] [--baseline FILE] [--workloads a,b]
    python bench/icount.py update --reason "..."
    python bench/icount.py run --out FILE            # measure only
    python bench/icount.py compare --current FILE [--baseline FILE] [--strict]

``check``/``compare`` print a table (baseline, now, change) for every workload and exit 1
when any workload costs more than 3% over its baseline, with one ``FAIL`` line naming each;
improvements beyond 3% are listed so the baseline can be tightened. When the toolchain (Python,
Cython, gcc, valgrind, CPU kind) differs from the one the baseline was recorded with, the
counts are not comparable: the table is printed and the gate says it was not applied; exit 0,
or 3 with ``--strict`` (what ``.ci/run`` uses). Exit 2: the measurement itself failed.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
WORKLOADS_SCRIPT = HERE / "icount_workloads.py"
BASELINE = HERE / "baseline.json"
RESULTS = HERE / "results"
THRESHOLD = 3.0  # percent over the baseline that fails the gate
# The toolchain fields that must match the baseline's for the counts to be comparable.
TOOLCHAIN_KEYS = ("python", "cython", "gcc", "valgrind", "machine", "avx2")

EXIT_OK, EXIT_REGRESSION, EXIT_ERROR, EXIT_NOT_COMPARABLE = 0, 1, 2, 3


class GateError(Exception):
    """The measurement could not be made (valgrind missing, a workload failed...)."""


# --- toolchain -------------------------------------------------------------------------------


def _probe(python: str) -> dict[str, Any]:
    code = (
        "import json, sys, sysconfig, holdem, holdem._eval as e\n"
        "try:\n"
        "    import Cython; cy = Cython.__version__\n"
        "except ImportError:\n"
        "    cy = ''\n"
        "print(json.dumps({'python': sys.version.split()[0], 'holdem': holdem.__version__,\n"
        "  'so': e.__file__, 'cc': sysconfig.get_config_var('CC') or '', 'cython': cy}))\n"
    )
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, cwd=tempfile.gettempdir())
    if out.returncode:
        raise GateError(f"cannot import holdem with {python}: {out.stderr.strip()[-500:]}")
    info: dict[str, Any] = json.loads(out.stdout)
    return info


def toolchain(python: str = sys.executable) -> dict[str, Any]:
    """What the counts depend on: the interpreter, the compilers that built holdem (read from
    the compiled module itself), valgrind, and the CPU kind (the evaluator picks an AVX2
    kernel at run time)."""
    info = _probe(python)
    blob = Path(info["so"]).read_bytes()
    gcc = re.search(rb"GCC: \(([^)]*)\) ([0-9.]+)", blob)
    cython = re.search(rb"__Pyx_[A-Za-z]+_(\d+)_(\d+)_(\d+)", blob)
    try:
        valgrind = subprocess.run(["valgrind", "--version"], capture_output=True, text=True,
                                  check=True).stdout.strip().removeprefix("valgrind-")
    except (OSError, subprocess.CalledProcessError):
        valgrind = "missing"
    try:
        flags = Path("/proc/cpuinfo").read_text()
        avx2 = bool(re.search(r"^flags\s*:.*\bavx2\b", flags, re.M))
    except OSError:
        avx2 = False
    return {
        "python": info["python"],
        # a stripped release build (setup.py links with -s) keeps no Cython symbols: then the
        # Cython of the interpreter's environment, which built it (bench/gate.sh builds without
        # build isolation, with the pinned Cython)
        "cython": (".".join(x.decode() for x in cython.groups()) if cython
                   else info.get("cython") or "unknown"),
        "gcc": f"{gcc.group(2).decode()} ({gcc.group(1).decode()})" if gcc else "unknown",
        "valgrind": valgrind,
        "machine": platform.machine(),
        "avx2": avx2,
        "holdem": info["holdem"],
    }


def toolchain_differences(baseline: dict[str, Any], now: dict[str, Any]) -> list[str]:
    return [f"{k}: baseline {baseline.get(k)!r}, now {now.get(k)!r}"
            for k in TOOLCHAIN_KEYS if baseline.get(k) != now.get(k)]


# --- measuring -------------------------------------------------------------------------------


def _workload_table(python: str) -> dict[str, dict[str, Any]]:
    """name -> {unit, n1, n2, about}, read from the workloads module without importing holdem
    into this process (it may be a different environment)."""
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import icount_workloads as w\n"
        "print(json.dumps({k: dict(unit=v.unit, n1=v.n1, n2=v.n2, about=v.about)"
        " for k, v in w.WORKLOADS.items()}))\n"
    )
    return _run_json([python, "-c", code, str(HERE)])


def _run_json(cmd: list[str]) -> Any:
    out = subprocess.run(cmd, capture_output=True, text=True, env=_clean_env(), cwd=HERE)
    if out.returncode:
        raise GateError(f"{' '.join(cmd[:3])}...: exit {out.returncode}\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _clean_env() -> dict[str, str]:
    """A fixed environment, the same for every caller: the hash seed fixed, nothing from the
    caller's variables (their size and content shift the interpreter's heap, and with it the
    counts of the Python-level workloads by a few tenths of a percent)."""
    return {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LC_ALL": "C.UTF-8",
            "PYTHONHASHSEED": "0", "PYTHONNOUSERSITE": "1"}


# Not counted: the MRO walk of a type attribute cache miss (see the module's docstring). The
# order matters: --toggle-collect also sets collection off at the start, --collect-atstart=yes
# after it sets it on again (collection is then off inside the function only).
UNCOUNTED = ("--toggle-collect=find_name_in_mro", "--collect-atstart=yes")


def callgrind_command(python: str, out: str, names: list[str]) -> list[str]:
    """The valgrind command that measures the named workloads, dumping to ``out``.N."""
    return [
        shutil.which("valgrind") or "valgrind", "--tool=callgrind", "--dump-before=getppid",
        "--dump-instr=no", *UNCOUNTED, f"--callgrind-out-file={out}", "-q",
        python, str(WORKLOADS_SCRIPT), "--measure", *names,
    ]


def _callgrind_shard(python: str, names: list[str]) -> dict[str, dict[str, int]]:
    """Run the named workloads in one callgrind process; return {name: {phase: Ir}}."""
    with tempfile.TemporaryDirectory(prefix="holdem-icount-") as tmp:
        segments = _run_json(callgrind_command(python, f"{tmp}/cg.out", names))
        dumps = sorted((p for p in Path(tmp).iterdir() if re.fullmatch(r"cg\.out\.\d+", p.name)),
                       key=lambda p: int(p.name.rsplit(".", 1)[1]))
        if len(dumps) != len(segments):
            raise GateError(f"callgrind wrote {len(dumps)} dumps for {len(segments)} segments "
                            "(is the getppid marker intercepted?)")
        costs: dict[str, dict[str, int]] = {}
        for (name, phase), dump in zip(segments, dumps, strict=True):
            m = re.search(r"^totals:\s*(\d+)", dump.read_text(errors="replace"), re.M)
            if m is None:
                raise GateError(f"no totals line in {dump.name}")
            costs.setdefault(name, {})[phase] = int(m.group(1))
    return costs


def _shards(names: list[str], jobs: int) -> list[list[str]]:
    """Round-robin, so the slow (Python-level) and fast workloads spread over the processes."""
    return [s for s in (names[k::jobs] for k in range(jobs)) if s]


def measure(python: str = sys.executable, names: list[str] | None = None,
            jobs: int = 2) -> dict[str, Any]:
    """Measure the workloads with ``python`` under callgrind; the result as baseline.json
    stores it (without the update history)."""
    if shutil.which("valgrind") is None:
        raise GateError("valgrind is not installed (Debian/Ubuntu: apt-get install valgrind)")
    table = _workload_table(python)
    names = names or list(table)
    unknown = [n for n in names if n not in table]
    if unknown:
        raise GateError(f"unknown workload(s) {unknown}; known: {', '.join(table)}")
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(lambda s: _callgrind_shard(python, s), _shards(names, jobs)))
    costs = {k: v for part in parts for k, v in part.items()}
    workloads = {}
    for name in names:
        w, c = table[name], costs[name]
        workloads[name] = {
            "unit": w["unit"],
            "ir_per_unit": round((c["n2"] - c["n1"]) / (w["n2"] - w["n1"]), 2),
            "n1": w["n1"], "n2": w["n2"],
            "ir_total": c["setup"] + c["n1"] + c["n2"],
        }
    return {
        "toolchain": toolchain(python),
        "seconds": round(time.monotonic() - t0, 1),
        "workloads": workloads,
    }


# --- comparing -------------------------------------------------------------------------------


def compare(baseline: dict[str, Any], current: dict[str, Any],
            threshold: float = THRESHOLD) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows of (workload, unit, baseline, now, change %, status) and the FAIL lines. A
    workload's own ``threshold_percent`` in the baseline (one whose count moves between runs
    of the same build) replaces ``threshold`` for it."""
    rows, fails = [], []
    base_w, now_w = baseline.get("workloads", {}), current.get("workloads", {})
    for name in sorted(set(base_w) | set(now_w), key=lambda n: (n not in now_w, n)):
        b = base_w.get(name, {}).get("ir_per_unit")
        n = now_w.get(name, {}).get("ir_per_unit")
        unit = (now_w.get(name) or base_w.get(name))["unit"]
        change = None if b is None or n is None or not b else 100.0 * (n - b) / b
        limit = base_w.get(name, {}).get("threshold_percent", threshold)
        if n is None:
            status = "not measured"
        elif change is None:
            status = "new (no baseline)"
        elif change > limit:
            status = "REGRESSION"
            fails.append(f"FAIL {name}: {change:+.2f}% instructions per {unit} "
                         f"({b:,.1f} -> {n:,.1f}), over the {limit:g}% limit")
        elif change < -limit:
            status = "improved: tighten the baseline"
        else:
            status = "ok"
        rows.append(dict(workload=name, unit=unit, baseline=b, now=n, change=change,
                         status=status))
    return rows, fails


def markdown_table(rows: list[dict[str, Any]]) -> str:
    def num(x: float | None) -> str:
        return "-" if x is None else f"{x:,.1f}"

    lines = ["| workload | instructions per | baseline | now | change | status |",
             "|---|---|---:|---:|---:|---|"]
    for r in rows:
        change = "-" if r["change"] is None else f"{r['change']:+.2f}%"
        lines.append(f"| {r['workload']} | {r['unit']} | {num(r['baseline'])} | "
                     f"{num(r['now'])} | {change} | {r['status']} |")
    return "\n".join(lines)


def report(baseline: dict[str, Any], current: dict[str, Any], *, strict: bool,
           threshold: float = THRESHOLD, label: str = "bench/baseline.json") -> tuple[int, str]:
    """The comparison as text and the exit status."""
    rows, fails = compare(baseline, current, threshold)
    out = [f"### Instruction counts (callgrind), against {label}", "", markdown_table(rows), ""]
    differs = toolchain_differences(baseline.get("toolchain", {}), current.get("toolchain", {}))
    improved = [r["workload"] for r in rows if r["status"].startswith("improved")]
    status = EXIT_OK
    if differs:
        out.append("GATE NOT APPLIED: the toolchain differs from the baseline's, so the counts "
                   "are not comparable:")
        out += [f"  {d}" for d in differs]
        out.append("  (build with bench/gate.sh, which pins the build toolchain, or record a "
                   "baseline for this toolchain: bench/gate.sh update \"reason\")")
        status = EXIT_NOT_COMPARABLE if strict else EXIT_OK
    elif fails:
        out += fails
        out.append(f"icount gate: FAILED ({len(fails)} workload(s) over +{threshold:g}%). If the "
                   "slowdown is intended, update the baseline in the same commit: "
                   "bench/gate.sh update \"reason\"")
        status = EXIT_REGRESSION
    else:
        own = ", ".join(f"{k} +{v['threshold_percent']:g}%" for k, v in
                        sorted(baseline.get("workloads", {}).items()) if "threshold_percent" in v)
        out.append(f"icount gate: passed (no workload over +{threshold:g}%"
                   f"{f'; own limits: {own}' if own else ''})")
    if improved and not differs:
        out.append(f"Improved by more than {threshold:g}%: {', '.join(improved)}; tighten the "
                   "baseline: bench/gate.sh update \"reason\"")
    return status, "\n".join(out)


# --- the baseline file -----------------------------------------------------------------------


def dumps_baseline(data: dict[str, Any]) -> str:
    """One workload per line, keys sorted: two branches that touch different workloads
    merge without a conflict, and a diff shows exactly what moved."""
    lines = ["{"]
    lines.append('  "format": 1,')
    lines.append(f'  "threshold_percent": {json.dumps(data.get("threshold_percent", THRESHOLD))},')
    lines.append(f'  "toolchain": {json.dumps(data["toolchain"], sort_keys=True)},')
    lines.append('  "updates": [')
    updates = data.get("updates", [])
    lines += [f"    {json.dumps(u)}{',' if k < len(updates) - 1 else ''}"
              for k, u in enumerate(updates)]
    lines.append("  ],")
    lines.append('  "workloads": {')
    items = sorted(data["workloads"].items())
    lines += [f"    {json.dumps(k)}: {json.dumps(v, sort_keys=True)}"
              f"{',' if i < len(items) - 1 else ''}" for i, (k, v) in enumerate(items)]
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _own_threshold(baseline: dict[str, Any], name: str) -> dict[str, float]:
    """A workload's own threshold in ``baseline`` (kept across updates), as a dict to merge."""
    own = baseline.get("workloads", {}).get(name, {}).get("threshold_percent")
    return {} if own is None else {"threshold_percent": own}


def update_baseline(path: Path, current: dict[str, Any], reason: str,
                    partial: bool = False) -> dict[str, Any]:
    """Rewrite the baseline with ``current``'s counts. ``partial``: only the workloads measured
    change (``update --workloads a,b``), the others keep their counts; that needs the
    baseline's toolchain, or the file would mix counts that cannot be compared."""
    reason = " ".join(reason.split())
    if not reason:
        raise GateError("update needs a one-line --reason")
    old = json.loads(path.read_text()) if path.exists() else {}
    if partial and old.get("toolchain") != current["toolchain"]:
        raise GateError("a partial update (--workloads) needs the baseline's toolchain: "
                        "measure every workload to record a new one")
    today = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
    kept = dict(old.get("workloads", {})) if partial else {}
    if partial:
        names = ", ".join(sorted(current["workloads"]))
        reason = f"{reason} (only {names})"
    data = {
        "threshold_percent": old.get("threshold_percent", THRESHOLD),
        "toolchain": current["toolchain"],
        "updates": [*old.get("updates", []), f"{today}: {reason}"],
        "workloads": {**kept, **{k: {"ir_per_unit": v["ir_per_unit"], "unit": v["unit"],
                                     **_own_threshold(old, k)}
                                 for k, v in current["workloads"].items()}},
    }
    path.write_text(dumps_baseline(data))
    return data


# --- command line ----------------------------------------------------------------------------


def _save_results(results: Path, current: dict[str, Any], text: str | None) -> None:
    results.mkdir(parents=True, exist_ok=True)
    (results / "icount.json").write_text(json.dumps(current, indent=2, sort_keys=True) + "\n")
    if text is not None:
        (results / "icount.md").write_text(text + "\n")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="icount", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    for name in ("check", "run", "update", "compare"):
        s = sub.add_parser(name)
        s.add_argument("--baseline", type=Path, default=BASELINE)
        s.add_argument("--results", type=Path, default=RESULTS,
                       help="where check writes icount.json and icount.md")
        if name != "compare":
            s.add_argument("--workloads", help="comma-separated names (default: all)")
            s.add_argument("--jobs", "-j", type=int, default=min(2, os.cpu_count() or 1))
            s.add_argument("--python", default=sys.executable,
                           help="the interpreter whose holdem is measured")
        if name in ("check", "compare"):
            s.add_argument("--strict", action="store_true",
                           help="exit 3 (not 0) when the toolchain differs from the baseline's")
            s.add_argument("--threshold", type=float, default=None)
        if name == "compare":
            s.add_argument("--current", type=Path, required=True)
            s.add_argument("--label", help="what the baseline is, in the table's title")
        if name == "run":
            s.add_argument("--out", type=Path, default=None,
                           help="default: icount.json in --results")
        if name == "update":
            s.add_argument("--reason", required=True, help="one line: why the counts changed")
    args = p.parse_args(argv)
    try:
        if args.command == "compare":
            current = json.loads(args.current.read_text())
        else:
            names = args.workloads.split(",") if args.workloads else None
            current = measure(args.python, names, max(1, args.jobs))
            print(f"measured {len(current['workloads'])} workloads under callgrind in "
                  f"{current['seconds']} s", flush=True)
        if args.command == "run":
            args.out = args.out or args.results / "icount.json"
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(current, indent=2, sort_keys=True) + "\n")
            print(f"wrote {args.out}")
            return EXIT_OK
        if args.command == "update":
            data = update_baseline(args.baseline, current, args.reason,
                                   partial=args.workloads is not None)
            print(f"wrote {args.baseline}: {len(data['workloads'])} workloads, "
                  f"reason: {data['updates'][-1]}")
            return EXIT_OK
        baseline = json.loads(args.baseline.read_text())
        threshold = args.threshold if args.threshold is not None else baseline.get(
            "threshold_percent", THRESHOLD)
        status, text = report(baseline, current, strict=args.strict, threshold=threshold,
                              label=getattr(args, "label", None) or str(args.baseline.name))
        print(text)
        if args.command == "check":
            _save_results(args.results, current, text)
        return status
    except GateError as e:
        print(f"icount gate: ERROR: {e}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
