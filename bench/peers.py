"""The peer table: wall-time ratios against eval7, phevaluator, holdem-hand-evaluator, treys and
pokerkit, from one interleaved run (every round times every task once, in a fixed order, so
load changes hit all of them alike; each timing repeats its task for at least 50 ms); medians
of ``--rounds`` rounds (at least 5).

Reported, not gated: the ratios move with the machine's load far less than absolute times do,
but they still move. The equity figures are ratios too: holdem's exhaustive heads-up and
Monte Carlo 3-way cost per board against the same run's per-call evaluator loop (the boards
evaluated one call per hand from Python) and against eval7 doing the same in a Python loop.

    python bench/peers.py [--rounds 5] [--json bench/results/latest.json] [--markdown FILE]

Needs the ``bench`` extra (the peers); a peer that is not installed is left out, and says so.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the benchmark modules' helpers (same workloads as bench/)

from bench_eval import _text  # noqa: E402

import holdem  # noqa: E402

HANDS = 2_000  # 7-card hands per evaluator round
TREYS_HANDS = 400  # treys is slower: fewer hands, compared per hand
HU = ["AsKs", "QdQc"]
THREE = ["AsKs", "QdQc", "JhTh"]
MC_BOARDS = 200_000
EVAL7_BOARDS = 5_000  # eval7's Python loop over the first boards of the exhaustive run
POKERKIT_BOARDS = 50
STATE_HANDS = 40
DEAL_HANDS = 2_000


MIN_TIME = 0.05  # seconds per timing: short timings are mostly timer and scheduler noise


class Task:
    """``fn()`` does ``units`` units of work (hands, calls, boards); a timing calls it
    ``repeat`` times, enough for about ``MIN_TIME`` (set by :meth:`calibrate`)."""

    def __init__(self, name: str, units: int, fn: Callable[[], object]) -> None:
        self.name, self.units, self.fn = name, units, fn
        self.repeat = 1
        self.times: list[float] = []  # wall time per timing
        self.cpu_times: list[float] = []  # this process's CPU time per timing

    def calibrate(self) -> None:
        """One untimed warm-up call, then the repeat count from a timed one."""
        self.fn()
        t0 = time.perf_counter()
        self.fn()
        self.repeat = max(1, math.ceil(MIN_TIME / max(time.perf_counter() - t0, 1e-9)))

    def time_once(self) -> None:
        fn, c0, t0 = self.fn, time.process_time(), time.perf_counter()
        for _ in range(self.repeat):
            fn()
        self.times.append(time.perf_counter() - t0)
        self.cpu_times.append(time.process_time() - c0)

    @property
    def per_unit(self) -> float:
        return statistics.median(self.times) / (self.units * self.repeat)

    @property
    def cpu_per_unit(self) -> float:
        return statistics.median(self.cpu_times) / (self.units * self.repeat)


def _hands() -> list[tuple[int, ...]]:
    import random

    rng = random.Random(2024)
    return [tuple(rng.sample(range(52), 7)) for _ in range(HANDS)]


def _loop(fn: Callable[[Any], object], items: list[Any]) -> Callable[[], object]:
    def run() -> object:
        for item in items:
            fn(item)
        return None

    return run


def tasks() -> tuple[list[Task], list[str]]:
    """The tasks, and the peers that are missing."""
    hands = _hands()
    out: list[Task] = []
    missing: list[str] = []
    out.append(Task("evaluate:holdem", HANDS, _loop(holdem.evaluate, hands)))
    try:
        import eval7

        e7 = [[eval7.Card(_text(c)) for c in h] for h in hands]
        out.append(Task("evaluate:eval7", HANDS, _loop(eval7.evaluate, e7)))
    except ImportError:
        missing.append("eval7")
    try:
        from phevaluator import evaluate_cards

        def ph() -> object:
            for h in hands:
                evaluate_cards(*h)
            return None

        out.append(Task("evaluate:phevaluator", HANDS, ph))
    except ImportError:
        missing.append("phevaluator")
    try:
        import holdem_hand_evaluator as hhe

        texts = ["".join(_text(c) for c in h) for h in hands]
        out.append(Task("evaluate:holdem-hand-evaluator", HANDS, _loop(hhe.evaluate_hand, texts)))
    except ImportError:
        missing.append("holdem-hand-evaluator")
    try:
        import treys

        ev, new = treys.Evaluator(), treys.Card.new
        th = [([new(_text(c)) for c in h[:5]], [new(_text(c)) for c in h[5:]])
              for h in hands[:TREYS_HANDS]]

        def tr() -> object:
            for board, hole in th:
                ev.evaluate(board, hole)
            return None

        out.append(Task("evaluate:treys", TREYS_HANDS, tr))
    except ImportError:
        missing.append("treys")

    # dealing a 6-player hand (12 hole cards, 5 board cards, 3 burns)
    from array import array

    buf = array("B", bytes(DEAL_HANDS * holdem.hand_width(6)))
    out.append(Task("deal:holdem", DEAL_HANDS,
                    lambda: holdem.deal_hands(DEAL_HANDS, 6, seed=1, out=buf)))
    import bench_deck

    for peer in ("eval7", "pokerkit"):
        try:
            out.append(Task(f"deal:{peer}", DEAL_HANDS // 10,
                            getattr(bench_deck, f"_{peer}_loop")(DEAL_HANDS // 10)))
        except BaseException:  # pytest.skip when the peer is missing
            missing.append(peer)

    # a random 6-max no-limit hand to the end, and PHH parsing (the bench/ workloads)
    import bench_state

    out.append(Task("hand:holdem", STATE_HANDS,
                    lambda: bench_state.holdem_playouts(bench_state.NL6, 6, STATE_HANDS, 1)))
    try:
        import pokerkit  # noqa: F401

        out.append(Task("hand:pokerkit", STATE_HANDS // 10,
                        lambda: bench_state.pokerkit_playouts(False, 6, STATE_HANDS // 10, 1)))
        import bench_phh

        out.append(Task("phh-parse:holdem", bench_phh.HANDS, bench_phh._holdem_parse))
        out.append(Task("phh-parse:pokerkit", bench_phh.HANDS, bench_phh._pokerkit_parse))
    except ImportError:
        missing.append("pokerkit")

    # equity, per board
    out.append(Task("exact-hu:holdem", 1_712_304,
                    lambda: holdem.equity(HU, executor="serial")))
    out.append(Task("mc-3way:holdem", MC_BOARDS,
                    lambda: holdem.equity(THREE, samples=MC_BOARDS, seed=1, executor="serial")))
    try:
        import bench_equity

        out.append(Task("exact-hu:eval7-loop", EVAL7_BOARDS,
                        lambda: bench_equity._eval7_loop(EVAL7_BOARDS)))
        out.append(Task("mc-3way:pokerkit", POKERKIT_BOARDS,
                        lambda: bench_equity._pokerkit_3way(POKERKIT_BOARDS)))
    except ImportError:
        pass  # named above
    return out, sorted(set(missing))


# (row label, holdem task, peer label, peer task, peer units per holdem unit)
COMPARISONS = [
    ("evaluate, 7 cards, one call", "evaluate:holdem", "eval7", "evaluate:eval7", 1),
    ("evaluate, 7 cards, one call", "evaluate:holdem", "phevaluator", "evaluate:phevaluator", 1),
    ("evaluate, 7 cards, one call", "evaluate:holdem", "holdem-hand-evaluator",
     "evaluate:holdem-hand-evaluator", 1),
    ("evaluate, 7 cards, one call", "evaluate:holdem", "treys", "evaluate:treys", 1),
    ("deal a 6-player hand", "deal:holdem", "eval7", "deal:eval7", 1),
    ("deal a 6-player hand", "deal:holdem", "pokerkit", "deal:pokerkit", 1),
    ("random 6-max hand (HandState)", "hand:holdem", "pokerkit", "hand:pokerkit", 1),
    ("parse a PHH hand", "phh-parse:holdem", "pokerkit", "phh-parse:pokerkit", 1),
    ("exact heads-up equity, per board", "exact-hu:holdem", "holdem evaluate loop (2 calls)",
     "evaluate:holdem", 2),
    ("exact heads-up equity, per board", "exact-hu:holdem", "eval7 Python loop",
     "exact-hu:eval7-loop", 1),
    ("Monte Carlo 3-way equity, per board", "mc-3way:holdem", "holdem evaluate loop (3 calls)",
     "evaluate:holdem", 3),
    ("Monte Carlo 3-way equity, per board", "mc-3way:holdem", "eval7 evaluate loop (3 calls)",
     "evaluate:eval7", 3),
    ("Monte Carlo 3-way equity, per board", "mc-3way:holdem", "pokerkit calculate_equities",
     "mc-3way:pokerkit", 1),
]


def run(rounds: int) -> dict[str, Any]:
    todo, missing = tasks()
    for t in todo:
        t.calibrate()
    for _ in range(rounds):
        for t in todo:
            t.time_once()
    by_name = {t.name: t for t in todo}
    rows = []
    for label, ours, peer, theirs, factor in COMPARISONS:
        if ours in by_name and theirs in by_name:
            a, b = by_name[ours], by_name[theirs]
            rows.append({"workload": label, "peer": peer,
                         "holdem_faster_x": round(factor * b.per_unit / a.per_unit, 2),
                         "holdem_faster_x_cpu": round(factor * b.cpu_per_unit / a.cpu_per_unit, 2)})
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()} {platform.system()}, {_cpus()} CPUs",
        "python": platform.python_version(),
        "holdem": holdem.__version__,
        "rounds": rounds,
        "missing_peers": missing,
        "ratios": rows,
        "median_ns_per_unit": {t.name: round(1e9 * t.per_unit, 2) for t in todo},
    }


def _cpus() -> int:
    import os

    return os.cpu_count() or 1


def markdown(result: dict[str, Any]) -> str:
    lines = [f"### Peer ratios (wall time, medians of {result['rounds']} interleaved rounds, "
             f"{result['date']}, {result['machine']}, Python {result['python']})", "",
             "| workload | peer | speed-up, wall time | speed-up, CPU time |", "|---|---|---:|---:|"]
    lines += [f"| {r['workload']} | {r['peer']} | {r['holdem_faster_x']:,.2f}x | "
              f"{r['holdem_faster_x_cpu']:,.2f}x |" for r in result["ratios"]]
    lines += ["", "Speed-up: the peer's time over holdem's for the same work. On a loaded machine "
              "wall time includes waiting for a core; CPU time (this process's) does not."]
    if result["missing_peers"]:
        lines += ["", f"Not installed (left out): {', '.join(result['missing_peers'])}."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="peers", description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--json", type=Path, default=HERE / "results" / "latest.json")
    p.add_argument("--markdown", type=Path, default=None, help="also write the table here")
    args = p.parse_args(argv)
    if args.rounds < 5:
        p.error("--rounds: at least 5 (the figures are medians)")
    result = run(args.rounds)
    text = markdown(result)
    print(text)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    if args.markdown:
        args.markdown.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
