"""The hand evaluator: exhaustive counts, a reference oracle, rules R29/R30, bad input."""

from __future__ import annotations

from collections import Counter
from math import comb

import holdem
from holdem import HandCategory, category, evaluate
from holdem._eval import _rank_histogram

FIVE_CARD_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 40,
    HandCategory.FOUR_OF_A_KIND: 624,
    HandCategory.FULL_HOUSE: 3_744,
    HandCategory.FLUSH: 5_108,
    HandCategory.STRAIGHT: 10_200,
    HandCategory.THREE_OF_A_KIND: 54_912,
    HandCategory.TWO_PAIR: 123_552,
    HandCategory.PAIR: 1_098_240,
    HandCategory.HIGH_CARD: 1_302_540,
}
SEVEN_CARD_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 41_584,
    HandCategory.FOUR_OF_A_KIND: 224_848,
    HandCategory.FULL_HOUSE: 3_473_184,
    HandCategory.FLUSH: 4_047_644,
    HandCategory.STRAIGHT: 6_180_020,
    HandCategory.THREE_OF_A_KIND: 6_461_620,
    HandCategory.TWO_PAIR: 31_433_400,
    HandCategory.PAIR: 58_627_800,
    HandCategory.HIGH_CARD: 23_294_460,
}


def category_counts(hist: list[int]) -> Counter[HandCategory]:
    out: Counter[HandCategory] = Counter()
    for rank, n in enumerate(hist[1:], start=1):
        out[category(rank)] += n
    return out


def test_exhaustive_five_card_counts_and_7462_values() -> None:
    hist = _rank_histogram(5)
    assert sum(hist) == comb(52, 5) == 2_598_960
    assert hist[0] == 0
    assert sum(1 for n in hist if n) == 7_462  # every value 1..7462 occurs
    assert category_counts(hist) == FIVE_CARD_COUNTS


def test_exhaustive_seven_card_counts() -> None:
    hist = _rank_histogram(7)
    assert sum(hist) == comb(52, 7) == 133_784_560
    assert hist[0] == 0
    assert category_counts(hist) == SEVEN_CARD_COUNTS


def test_extremes() -> None:
    assert evaluate("7c 5d 4h 3s 2c") == 1
    assert evaluate("Ah Kh Qh Jh Th") == holdem.evaluator.NUM_RANKS == 7462
