"""Shared benchmark fixtures and helpers.

Fixed, seeded inputs so every run (and every peer) sees the same; each benchmark's
``extra_info`` (rates, ratios to peers) is printed after pytest-benchmark's table, so a short
run (.ci/run) shows the figures that matter.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

N_CALL_HANDS = 10_000  # hands per round in the per-call benchmarks
N_BATCH_HANDS = 1_000_000  # rows in the batch benchmark


def _hands(n: int, size: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(range(52), size)) for _ in range(n)]


@pytest.fixture(scope="session")
def hands7() -> list[tuple[int, ...]]:
    """10,000 random 7-card hands as tuples of card ids (4*rank + suit), seed 2024."""
    return _hands(N_CALL_HANDS, 7, seed=2024)


@pytest.fixture(scope="session")
def batch7() -> Any:
    """1,000,000 random 7-card hands as a C-contiguous numpy uint8 array (N x 7), seed 7."""
    np = pytest.importorskip("numpy", reason="the batch benchmark feeds a numpy array")
    rng = np.random.default_rng(7)
    rows = rng.integers(0, 52, size=(2 * N_BATCH_HANDS, 7), dtype=np.uint8)
    srt = np.sort(rows, axis=1)
    distinct = (srt[:, 1:] != srt[:, :-1]).all(axis=1)  # about 2/3 of rows: keep those
    return np.ascontiguousarray(rows[distinct][:N_BATCH_HANDS])


def _record_rate(benchmark: Any, items: int, unit: str = "hands/s") -> None:
    """Store ``items / median`` in the benchmark's extra_info (only when benchmarks ran)."""
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        median = stats.stats.median
        benchmark.extra_info[unit] = round(items / median) if median > 0 else None
        benchmark.extra_info["items_per_round"] = items


@pytest.fixture
def record_rate() -> Callable[..., None]:
    """``record_rate(benchmark, items_per_round, unit="hands/s")`` after ``benchmark(...)``."""
    return _record_rate


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    session = getattr(config, "_benchmarksession", None)
    rows = [
        (b.name, b.extra_info)
        for b in getattr(session, "benchmarks", []) or []
        if getattr(b, "extra_info", None)
    ]
    if not rows:
        return
    terminalreporter.section("benchmark figures (extra_info)")
    for name, info in rows:
        figures = ", ".join(
            f"{k}={v:,}" if isinstance(v, int) else f"{k}={v}" for k, v in info.items()
        )
        terminalreporter.write_line(f"{name}: {figures}")
