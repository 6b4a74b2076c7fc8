"""``holdem replay``, ``stats`` and ``export`` with two worker processes against one, same run.

Workload: 1,280 hands of six random agents (five chunks of 256) in one ``.phhs`` file, written
once per session. Each round runs the command with ``--workers 1`` and ``--workers 2`` back to
back (the order alternating between rounds), in this process through ``holdem.cli.main``; the
median of the per-round ratios (one worker's time over two workers') is in ``extra_info`` as
``speedup_2_workers``, with its range. The outputs of the two runs are checked equal. Run with
``python -m pytest bench/bench_cli_workers.py --benchmark-enable --benchmark-only``; on a machine
with one core the ratio is about 1 or below.
"""

from __future__ import annotations

import io
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

from holdem import Game, RandomAgent, Table, phh
from holdem.cli import main
from holdem.cli._hands import CHUNK_HANDS
from holdem.history import from_state

HANDS = 5 * CHUNK_HANDS
ARGS = {"replay": ["-q"], "stats": ["--allin-samples", "200"], "export": []}


@pytest.fixture(scope="session")
def hands_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    table = Table(Game(big_blind=2), seats=6, seed=3)
    for s in range(6):
        table.sit(s, f"r{s}", 200, RandomAgent(seed=s))
    hands = []
    for _ in range(HANDS):
        table._reset_stacks(200)
        hands.append(from_state(table.play_hand().state, players=[f"r{s}" for s in range(6)]))
    path = tmp_path_factory.mktemp("cli") / "hands.phhs"
    phh.dump_all(hands, path)
    return path


def _timed(argv: list[str]) -> tuple[float, str]:
    out = io.StringIO()
    start = time.perf_counter()
    code = main(argv, stdout=out, stderr=io.StringIO())
    elapsed = time.perf_counter() - start
    assert code == 0, argv
    return elapsed, out.getvalue()


@pytest.mark.benchmark(group="cli-workers")
@pytest.mark.parametrize("command", sorted(ARGS))
def test_two_workers_over_one(benchmark: Any, command: str, hands_file: Path) -> None:
    times: dict[int, list[float]] = {1: [], 2: []}
    outputs: dict[int, str] = {}

    def one_round() -> None:
        order = (1, 2) if len(times[1]) % 2 == 0 else (2, 1)
        for workers in order:
            elapsed, outputs[workers] = _timed(
                [command, str(hands_file), *ARGS[command], "--workers", str(workers)])
            times[workers].append(elapsed)

    benchmark.pedantic(one_round, rounds=3, iterations=1)
    assert outputs[1] == outputs[2]
    ratios = [a / b for a, b in zip(times[1], times[2], strict=True)]
    benchmark.extra_info["speedup_2_workers"] = round(statistics.median(ratios), 2)
    benchmark.extra_info["speedup_range"] = [round(min(ratios), 2), round(max(ratios), 2)]
    benchmark.extra_info["hands_per_s_1_worker"] = round(HANDS / statistics.median(times[1]))
