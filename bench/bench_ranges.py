"""Range text parsing: a long text costs by its length, whatever its items.

Each benchmark parses a text of 5,000 items; ``extra_info`` holds the time per item. The
``random`` item covers every combo: it costs about what a one-combo item costs (it used to
write its 1,326 combos each time, about 200 times as much). ``22+`` writes its 78 combos.
"""

from __future__ import annotations

from typing import Any

import pytest

from holdem import Range

ITEMS = 5_000


def _parse(benchmark: Any, item: str) -> None:
    text = ", ".join([item] * ITEMS)
    r = benchmark(Range, text)
    assert r == Range(item)
    if benchmark.stats is not None:
        benchmark.extra_info["us_per_item"] = benchmark.stats.stats.median / ITEMS * 1e6


@pytest.mark.benchmark(group="range-text")
@pytest.mark.parametrize("item", ["AsKd", "random", "0.5(random)", "22+"])
def test_range_text(benchmark: Any, item: str) -> None:
    _parse(benchmark, item)
