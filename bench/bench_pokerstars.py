"""PokerStars hand histories: import (``parse``) against the export in the same run.

Workload: the first 1,000 Pluribus hands of the vendored corpus (six players, no-limit, every
hand to its end), exported once as PokerStars text (about 40 lines a hand). ``export``: hand
history -> text (:func:`holdem.pokerstars.to_pokerstars`, which replays each hand under the
rules). ``import``: text -> hand histories, ``parse(text, check=False)``; ``import-checked``:
``parse(text)``, every hand also replayed and compared with its summary. Run with
``python -m pytest bench/bench_pokerstars.py --benchmark-enable --benchmark-only``; hands/s
and the ratio to the export (ratio of medians, same run) are in ``extra_info``. The goal: the
import reads at least 20,000 hands/s on one core.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from holdem import phh
from holdem.pokerstars import parse, to_pokerstars

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from phh_corpus import corpus_texts

HANDS = 1000
HISTORIES = [phh.loads(text) for _, (_, text) in
             zip(range(HANDS), corpus_texts("phh/pluribus/"), strict=False)]
TEXT = "\n\n\n".join(to_pokerstars(hh) for hh in HISTORIES) + "\n"
_rates: dict[str, float] = {}


def _timed(benchmark: Any, record_rate: Callable[..., None], name: str,
           fn: Callable[[], int]) -> None:
    assert benchmark(fn) == HANDS
    record_rate(benchmark, HANDS)
    rate = benchmark.extra_info.get("hands/s")
    if rate:  # benchmarks enabled: the ratio to the export of the same run
        _rates[name] = rate
        if name != "export" and "export" in _rates:
            benchmark.extra_info["ratio_to_export"] = round(rate / _rates["export"], 2)


@pytest.mark.benchmark(group="pokerstars")
def test_export(benchmark: Any, record_rate: Callable[..., None]) -> None:
    _timed(benchmark, record_rate, "export", lambda: len([to_pokerstars(h) for h in HISTORIES]))


@pytest.mark.benchmark(group="pokerstars")
def test_import(benchmark: Any, record_rate: Callable[..., None]) -> None:
    _timed(benchmark, record_rate, "import", lambda: sum(1 for _ in parse(TEXT, check=False)))


@pytest.mark.benchmark(group="pokerstars")
def test_import_checked(benchmark: Any, record_rate: Callable[..., None]) -> None:
    _timed(benchmark, record_rate, "import-checked", lambda: sum(1 for _ in parse(TEXT)))
