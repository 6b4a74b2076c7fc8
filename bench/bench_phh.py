"""PHH: parse and replay real hands, holdem against PokerKit on the same files (same run).

Workload: the first 200 Pluribus hands of the vendored corpus (``tests/data/phh-corpus.tar.xz``),
as text. ``parse``: text -> hand history object (PokerKit through ``tomllib``; holdem through
its fast reader of PHH's lines, which gives what ``tomllib`` gives, with every action parsed
and checked; the actions it keeps between hands are forgotten before each round). ``replay``: the parsed
hand -> the final state through the rules engine (holdem: :func:`holdem.replay`, every action
validated and the final stacks compared; PokerKit: iterating ``HandHistory`` states). Run with
``python -m pytest bench/bench_phh.py --benchmark-enable --benchmark-only``; the hands/s and the
speed ratio against PokerKit (ratio of medians, same run) are in ``extra_info``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from holdem import phh, replay

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from phh_corpus import corpus_texts

HANDS = 200
TEXTS = [text for _, (_, text) in zip(range(HANDS), corpus_texts("phh/pluribus/"), strict=False)]
_rates: dict[str, float] = {}


def _run(benchmark: Any, name: str, peer: str, fn: Callable[[], int]) -> None:
    assert benchmark(fn) == HANDS
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: a smoke run
        return
    _rates[name] = HANDS / stats.stats.median
    benchmark.extra_info["hands_per_s"] = round(_rates[name])
    if peer in _rates:
        benchmark.extra_info["speedup_vs_pokerkit"] = round(_rates[name] / _rates[peer], 2)


def _holdem_parse() -> int:
    # Every round reads the same files again: forget the actions parsed in the last one, so
    # that each hand is read as a new file would be (HistoryAction.from_str keeps them).
    phh._PARSED.clear()
    return len([phh.loads(t) for t in TEXTS])


def _pokerkit_parse() -> int:
    from pokerkit import HandHistory

    return len([HandHistory.loads(t) for t in TEXTS])


@pytest.mark.benchmark(group="phh-parse")
def test_pokerkit_parse(benchmark: Any) -> None:
    pytest.importorskip("pokerkit")
    _run(benchmark, "pokerkit-parse", "", _pokerkit_parse)


@pytest.mark.benchmark(group="phh-parse")
def test_holdem_parse(benchmark: Any) -> None:
    _run(benchmark, "holdem-parse", "pokerkit-parse", _holdem_parse)


@pytest.mark.benchmark(group="phh-replay")
def test_pokerkit_replay(benchmark: Any) -> None:
    pytest.importorskip("pokerkit")
    from pokerkit import HandHistory

    hands = [HandHistory.loads(t) for t in TEXTS]

    def go() -> int:
        n = 0
        for hh in hands:
            for _state in hh:
                pass
            n += 1
        return n

    _run(benchmark, "pokerkit-replay", "", go)


@pytest.mark.benchmark(group="phh-replay")
def test_holdem_replay(benchmark: Any) -> None:
    hands = [phh.loads(t) for t in TEXTS]

    def go() -> int:
        return sum(replay(hh).ok or True for hh in hands)

    _run(benchmark, "holdem-replay", "pokerkit-replay", go)
