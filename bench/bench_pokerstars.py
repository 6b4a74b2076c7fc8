"""PokerStars hand histories: import (``parse``) against the export and PokerKit, same run.

Workload: the first 1,000 Pluribus hands of the vendored corpus (six players, no-limit, every
hand to its end), exported once as PokerStars text (about 40 lines a hand). Benchmarks:

- ``import``: the goal's mode, ``parse(text, check=False)``: text -> hand histories, no replay;
- ``import-file``: ``parse(path, check=False)``: the same text read from a file, in chunks
  checked for NUL characters and overlong lines (its ``ratio_to_import``: the reading's cost);
- ``import-checked``: ``parse(text)`` (the default, ``check=True``): every hand also replayed
  under the rules and compared with its summary;
- ``export``: hand history -> text (:func:`holdem.pokerstars.to_pokerstars`, which replays
  each hand under the rules);
- ``pokerkit``: PokerKit's own PokerStars parser (``pokerkit.HandHistory.from_pokerstars``)
  on the same text, when PokerKit is installed (the ``test`` extra). It does not replay the
  hands either, so it is the peer of ``import``.

Run with ``python -m pytest bench/bench_pokerstars.py --benchmark-enable --benchmark-only``
(add ``--benchmark-timer time.process_time`` to time the CPU of the one core used, which a
loaded machine does not dilute). hands/s and the ratios of the imports to the export and to
PokerKit (ratios of medians, same run) are in ``extra_info``. The goal: the import
reads at least 20,000 hands/s on one core.
"""

from __future__ import annotations

import sys
import warnings
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
           fn: Callable[[], int], mode: str) -> None:
    benchmark.extra_info["mode"] = mode
    assert benchmark(fn) == HANDS
    record_rate(benchmark, HANDS)
    rate = benchmark.extra_info.get("hands/s")
    if rate:  # benchmarks enabled: the ratios to the peers of the same run
        _rates[name] = rate
        if name.startswith("import"):
            for peer in ("export", "pokerkit", "import"):
                if peer in _rates and peer != name:
                    benchmark.extra_info[f"ratio_to_{peer}"] = round(rate / _rates[peer], 2)


# The peers run first, so that the imports can report their ratios to them.
@pytest.mark.benchmark(group="pokerstars")
def test_export(benchmark: Any, record_rate: Callable[..., None]) -> None:
    _timed(benchmark, record_rate, "export", lambda: len([to_pokerstars(h) for h in HISTORIES]),
           "to_pokerstars(hh): replay + text")


def _pokerkit_hands(from_pokerstars: Callable[..., Any]) -> int:
    with warnings.catch_warnings():
        # PokerKit warns once a hand about the header's time zone field it does not know.
        warnings.simplefilter("ignore")
        return sum(1 for _ in from_pokerstars(TEXT))


@pytest.mark.benchmark(group="pokerstars")
def test_pokerkit(benchmark: Any, record_rate: Callable[..., None]) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    read = pokerkit.HandHistory.from_pokerstars
    _timed(benchmark, record_rate, "pokerkit", lambda: _pokerkit_hands(read),
           "pokerkit.HandHistory.from_pokerstars(text), no replay")


@pytest.mark.benchmark(group="pokerstars")
def test_import(benchmark: Any, record_rate: Callable[..., None]) -> None:
    _timed(benchmark, record_rate, "import", lambda: sum(1 for _ in parse(TEXT, check=False)),
           "parse(text, check=False): no replay")


@pytest.mark.benchmark(group="pokerstars")
def test_import_file(benchmark: Any, record_rate: Callable[..., None], tmp_path: Path) -> None:
    path = tmp_path / "hands.txt"
    path.write_text(TEXT, encoding="utf-8")
    _timed(benchmark, record_rate, "import-file",
           lambda: sum(1 for _ in parse(path, check=False)), "parse(path, check=False)")


@pytest.mark.benchmark(group="pokerstars")
def test_import_checked(benchmark: Any, record_rate: Callable[..., None]) -> None:
    _timed(benchmark, record_rate, "import-checked", lambda: sum(1 for _ in parse(TEXT)),
           "parse(text), check=True: every hand replayed")


def test_pokerkit_reads_the_same_hands() -> None:
    """The peer parses this text into the same players, stacks and actions (a fair race)."""
    pokerkit = pytest.importorskip("pokerkit")
    text = "\n\n\n".join(TEXT.split("\n\n\n")[:200])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = list(pokerkit.HandHistory.from_pokerstars(text))
    ours = list(parse(text, check=False))
    assert len(theirs) == len(ours) == 200
    for a, b in zip(theirs, ours, strict=True):
        assert list(a.players) == list(b.players)
        assert list(a.starting_stacks) == list(b.starting_stacks)
        # Betting actions (PokerKit adds "sm ????" entries of its own around all-in showdowns).
        assert [x for x in a.actions if x.split()[1] in ("f", "cc", "cbr")] == \
            [str(x) for x in b.actions if x.kind in ("f", "cc", "cbr")]
