"""Hand evaluator speed: 7 cards per call from Python (holdem vs peers) and batch evaluation.

Each per-call benchmark evaluates the same 10,000 seeded 7-card hands, each peer given its own
fastest input form (prepared outside the timed loop). Compare peers as ratios of medians in the
same run; ``extra_info["hands/s"]`` records the rate.

    python -m pytest bench/bench_eval.py --benchmark-enable --benchmark-only
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from holdem import CARDS, evaluate, evaluate_many, format_cards

N_CALL_HANDS = 10_000  # as in conftest.py
N_BATCH_HANDS = 1_000_000
RANKS = "23456789TJQKA"
SUITS = "cdhs"


def _text(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def _run(benchmark: Any, fn: Callable[[Any], object], inputs: Sequence[Any],
         record_rate: Callable[..., None]) -> None:
    def loop() -> None:
        for hand in inputs:
            fn(hand)

    benchmark(loop)
    record_rate(benchmark, len(inputs))


@pytest.mark.benchmark(group="eval7-per-call")
def test_holdem_ints(benchmark: Any, hands7: list[tuple[int, ...]], record_rate: Any) -> None:
    """holdem.evaluate(tuple of 7 ints)."""
    assert evaluate(hands7[0]) >= 1
    _run(benchmark, evaluate, hands7, record_rate)


@pytest.mark.benchmark(group="eval7-per-call")
def test_holdem_cards(benchmark: Any, hands7: list[tuple[int, ...]], record_rate: Any) -> None:
    """holdem.evaluate(list of 7 Card objects)."""
    hands = [[CARDS[c] for c in h] for h in hands7]
    _run(benchmark, evaluate, hands, record_rate)


@pytest.mark.benchmark(group="eval7-per-call")
def test_holdem_text(benchmark: Any, hands7: list[tuple[int, ...]], record_rate: Any) -> None:
    """holdem.evaluate("As Kd ...") -- text parsing included."""
    hands = [format_cards(h) for h in hands7]
    _run(benchmark, evaluate, hands, record_rate)


@pytest.mark.benchmark(group="eval7-per-call")
def test_peer_eval7(benchmark: Any, hands7: list[tuple[int, ...]], record_rate: Any) -> None:
    """eval7.evaluate(list of eval7.Card)."""
    eval7 = pytest.importorskip("eval7", reason="peer eval7 is not installed")
    hands = [[eval7.Card(_text(c)) for c in h] for h in hands7]
    _run(benchmark, eval7.evaluate, hands, record_rate)


@pytest.mark.benchmark(group="eval7-per-call")
def test_peer_phevaluator(benchmark: Any, hands7: list[tuple[int, ...]], record_rate: Any) -> None:
    """phevaluator.evaluate_cards(*7 ints) (same 4*rank + suit ids as holdem)."""
    ph = pytest.importorskip("phevaluator", reason="peer phevaluator is not installed")
    evaluate_cards = ph.evaluate_cards
    assert evaluate_cards(*[_text(c) for c in hands7[0]]) == evaluate_cards(*hands7[0])

    def loop() -> None:
        for hand in hands7:
            evaluate_cards(*hand)

    benchmark(loop)
    record_rate(benchmark, len(hands7))


@pytest.mark.benchmark(group="eval7-per-call")
def test_peer_treys(benchmark: Any, hands7: list[tuple[int, ...]], record_rate: Any) -> None:
    """treys.Evaluator().evaluate(board of 5, hand of 2) with treys card ints."""
    treys = pytest.importorskip("treys", reason="peer treys is not installed")
    ev = treys.Evaluator()
    new = treys.Card.new
    hands = [([new(_text(c)) for c in h[:5]], [new(_text(c)) for c in h[5:]]) for h in hands7]
    hands = hands[: N_CALL_HANDS // 10]  # treys is slow: fewer hands per round

    def loop() -> None:
        for board, hole in hands:
            ev.evaluate(board, hole)

    benchmark(loop)
    record_rate(benchmark, len(hands))


@pytest.mark.benchmark(group="eval7-per-call")
def test_peer_holdem_hand_evaluator(benchmark: Any, hands7: list[tuple[int, ...]], record_rate: Any) -> None:
    """holdem_hand_evaluator.evaluate_hand("AsKd...") (its input is a string)."""
    hhe = pytest.importorskip(
        "holdem_hand_evaluator", reason="peer holdem-hand-evaluator is not installed"
    )
    hands = ["".join(_text(c) for c in h) for h in hands7]
    _run(benchmark, hhe.evaluate_hand, hands, record_rate)


_batch_rates: dict[str, float] = {}


def _batch_rate(benchmark: Any, name: str) -> None:
    stats = getattr(benchmark, "stats", None)
    if stats is not None and stats.stats.median > 0:
        _batch_rates[name] = N_BATCH_HANDS / stats.stats.median


@pytest.mark.benchmark(group="eval7-batch")
def test_holdem_evaluate_many(benchmark: Any, batch7: Any, record_rate: Any) -> None:
    """holdem.evaluate_many on 1,000,000 random 7-card hands (numpy uint8, N x 7): the AVX2
    kernel where the CPU has it."""
    ranks = benchmark(evaluate_many, batch7)
    assert len(ranks) == N_BATCH_HANDS and int(ranks.min()) >= 1
    record_rate(benchmark, N_BATCH_HANDS)
    _batch_rate(benchmark, "u8")


@pytest.mark.benchmark(group="eval7-batch")
def test_holdem_evaluate_many_scalar_kernel(benchmark: Any, batch7: Any,
                                            record_rate: Any) -> None:
    """The same hands as uint16: the scalar (POPCNT) kernel, one row at a time: per-card key
    sums and a perfect-hash lookup, the classic design of fast table evaluators (OMPEval's
    kind). A same-run baseline: ``extra_info["simd_speedup"]`` is the uint8 rate over this."""
    wide = batch7.astype("uint16")
    ranks = benchmark(evaluate_many, wide)
    assert ranks.tolist()[:1000] == evaluate_many(batch7).tolist()[:1000]
    record_rate(benchmark, N_BATCH_HANDS)
    _batch_rate(benchmark, "u16")
    if "u8" in _batch_rates and "u16" in _batch_rates:
        benchmark.extra_info["simd_speedup"] = round(_batch_rates["u8"] / _batch_rates["u16"], 2)


@pytest.mark.benchmark(group="eval7-batch")
def test_holdem_evaluate_many_into_out(benchmark: Any, batch7: Any, record_rate: Any) -> None:
    """Same, writing into a preallocated uint16 buffer (out=)."""
    np = pytest.importorskip("numpy")
    out = np.empty(N_BATCH_HANDS, dtype=np.uint16)
    benchmark(evaluate_many, batch7, out=out)
    record_rate(benchmark, N_BATCH_HANDS)
