"""Dealing throughput: shuffle + deal a 6-player hold'em hand (12 hole + 5 board + 3 burns).

Goal: >= 5 M deals/s in a batch loop on this 2-core machine. Peers are timed in the
same test, on the same work, and reported as ratios of medians in ``extra_info``:
eval7 (``Deck()`` + ``shuffle()`` + ``deal(20)`` per hand, its fastest Python path) and
pokerkit (``shuffled(Deck.STANDARD)`` then 20 cards per hand).

Run: ``python -m pytest bench/bench_deck.py --benchmark-enable --benchmark-only``.
"""

from __future__ import annotations

import statistics
import time
from array import array
from collections.abc import Callable
from typing import Any

import pytest

from holdem import Deck, deal_hands, hand_width

PLAYERS = 6
BATCH = 100_000  # hands per batch call
PEER_HANDS = 2_000  # hands per timed peer loop (peers are ~100x slower)


def _median_rate(fn: Callable[[], object], per_call: int, repeats: int = 5) -> float:
    """Hands per second of ``fn`` (which deals ``per_call`` hands): median of ``repeats``."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return per_call / statistics.median(times)


def _eval7_loop(n: int) -> Callable[[], object]:
    eval7 = pytest.importorskip("eval7")

    def run() -> object:
        hand = None
        for _ in range(n):
            d = eval7.Deck()
            d.shuffle()
            hand = d.deal(20)
        return hand

    return run


def _pokerkit_loop(n: int) -> Callable[[], object]:
    pokerkit = pytest.importorskip("pokerkit")
    standard, shuffled = pokerkit.Deck.STANDARD, pokerkit.shuffled

    def run() -> object:
        hand = None
        for _ in range(n):
            hand = shuffled(standard)[:20]
        return hand

    return run


def _holdem_python_loop(n: int) -> Callable[[], object]:
    deck = Deck(seed=1)

    def run() -> object:
        hand = None
        for _ in range(n):
            deck.reset()
            hand = (
                deck.deal(12),
                deck.burn(),
                deck.deal(3),
                deck.burn(),
                deck.deal(1),
                deck.burn(),
                deck.deal(1),
            )
        return hand

    return run


def _peer_ratios(benchmark: Any, ours: float) -> None:
    info = benchmark.extra_info
    for name, make in (("eval7", _eval7_loop), ("pokerkit", _pokerkit_loop)):
        try:
            rate = _median_rate(make(PEER_HANDS), PEER_HANDS)
        except pytest.skip.Exception:
            continue
        info[f"{name}_deals_per_s"] = round(rate)
        info[f"ratio_vs_{name}"] = round(ours / rate, 1)


def test_deal_hands_batch(benchmark: Any) -> None:
    """The batch API: ``deal_hands`` into a preallocated buffer (nogil C loop)."""
    out = array("B", bytes(BATCH * hand_width(PLAYERS)))
    benchmark(deal_hands, BATCH, PLAYERS, seed=1, out=out)
    assert len(set(out[:20])) == 20
    if benchmark.disabled:
        return
    rate = BATCH / benchmark.stats.stats.median
    benchmark.extra_info["deals_per_s"] = round(rate)
    benchmark.extra_info["goal_deals_per_s"] = 5_000_000
    _peer_ratios(benchmark, rate)


def test_deck_python_api(benchmark: Any) -> None:
    """One hand at a time through the Python ``Deck`` API (reset, deal, burn)."""
    n = 10_000
    hand = benchmark(_holdem_python_loop(n))
    assert hand is not None
    if benchmark.disabled:
        return
    rate = n / benchmark.stats.stats.median
    benchmark.extra_info["deals_per_s"] = round(rate)
    _peer_ratios(benchmark, rate)


def test_peer_eval7_deal(benchmark: Any) -> None:
    """eval7, for the table: new Deck, shuffle, deal 20, per hand."""
    assert benchmark(_eval7_loop(PEER_HANDS)) is not None


def test_peer_pokerkit_deal(benchmark: Any) -> None:
    """pokerkit, for the table: shuffled standard deck, 20 cards, per hand."""
    assert benchmark(_pokerkit_loop(PEER_HANDS)) is not None
