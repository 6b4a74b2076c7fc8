"""The hand evaluator: exhaustive counts, a reference oracle, rules R29/R30, bad input."""

from __future__ import annotations

import array
import ctypes
import doctest
import random
import subprocess
import sys
from collections import Counter
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import best_value, classify_five

import holdem
from holdem import (
    Card,
    DuplicateCardError,
    HandCategory,
    InvalidArrayError,
    InvalidCardError,
    InvalidHandError,
    _eval,
    best_five,
    category,
    describe,
    evaluate,
    evaluate_many,
    parse_cards,
)

ROOT = Path(__file__).resolve().parent.parent

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
SIX_CARD_COUNTS = {
    HandCategory.STRAIGHT_FLUSH: 1_844,
    HandCategory.FOUR_OF_A_KIND: 14_664,
    HandCategory.FULL_HOUSE: 165_984,
    HandCategory.FLUSH: 205_792,
    HandCategory.STRAIGHT: 361_620,
    HandCategory.THREE_OF_A_KIND: 732_160,
    HandCategory.TWO_PAIR: 2_532_816,
    HandCategory.PAIR: 9_730_740,
    HandCategory.HIGH_CARD: 6_612_900,
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


def ev(text: str) -> int:
    return evaluate(text)


def ids(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def category_counts(hist: list[int]) -> Counter[HandCategory]:
    out: Counter[HandCategory] = Counter()
    for rank, n in enumerate(hist[1:], start=1):
        out[category(rank)] += n
    return out


# --- exhaustive ------------------------------------------------------------------------------


def test_exhaustive_five_card_counts_and_7462_values() -> None:
    hist = _eval._rank_histogram(5)  # compiled loop over all C(52, 5) hands
    assert sum(hist) == comb(52, 5) == 2_598_960
    assert hist[0] == 0
    assert [r for r, n in enumerate(hist) if n] == list(range(1, 7463))  # dense 1..7462
    assert category_counts(hist) == FIVE_CARD_COUNTS


def test_exhaustive_six_card_counts() -> None:
    hist = _eval._rank_histogram(6)
    assert sum(hist) == comb(52, 6) and hist[0] == 0
    assert category_counts(hist) == SIX_CARD_COUNTS


def test_exhaustive_seven_card_counts() -> None:
    hist = _eval._rank_histogram(7)  # 133,784,560 hands, never materialized
    assert sum(hist) == comb(52, 7) == 133_784_560
    assert hist[0] == 0
    assert category_counts(hist) == SEVEN_CARD_COUNTS
    assert sum(1 for n in hist if n) == 4_824  # distinct values reachable with 7 cards


def five_card_classes() -> list[list[int]]:
    """One five-card hand per equivalence class: every rank multiset off-suit, every flush."""
    hands: list[list[int]] = []

    def rec(rank: int, left: int, cards: list[int]) -> None:
        if left == 0:
            hands.append(cards.copy())
            return
        if rank < 0:
            return
        for k in range(min(4, left), -1, -1):
            rec(rank - 1, left - k, cards + [4 * rank + s for s in range(k)])

    rec(12, 5, [])
    for hand in hands:  # five distinct ranks all in clubs would be a flush: move one
        if len({c % 4 for c in hand}) == 1:
            hand[0] += 1
    hands += [[4 * r + 2 for r in rs] for rs in combinations(range(13), 5)]  # hearts flushes
    return hands


def test_rank_order_matches_reference_on_every_five_card_class() -> None:
    """All 7,462 classes: ranks are exactly 1..7462 in the reference's order (R30)."""
    hands = five_card_classes()
    assert len(hands) == 7_462
    pairs = sorted((classify_five(h), evaluate(h)) for h in hands)
    assert [rank for _, rank in pairs] == list(range(1, 7463))
    for value, rank in pairs:
        assert category(rank) == value[0]


# --- reference agreement on random hands ------------------------------------------------------


def random_hands(n: int, size: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(n)]


@pytest.mark.parametrize(("size", "n"), [(5, 50_000), (6, 30_000), (7, 20_000)])
def test_random_hands_agree_with_reference(size: int, n: int) -> None:
    """100,000 seeded random hands: same category, same order, same ties as the oracle."""
    hands = random_hands(n, size, seed=size)
    ours = list(evaluate_many(np.array(hands, dtype=np.uint8)))
    assert ours[:2000] == [evaluate(h) for h in hands[:2000]]
    theirs = [best_value(h) for h in hands]
    rank_of: dict[tuple[int, ...], int] = {}
    for rank, value in zip(ours, theirs, strict=True):
        assert category(rank) == value[0]
        assert rank_of.setdefault(value, rank) == rank  # equal hands, equal ranks
    by_value = sorted(rank_of.items())
    assert [r for _, r in by_value] == sorted(rank_of.values())  # same order
    assert len(set(rank_of.values())) == len(rank_of)  # different hands, different ranks


# --- rules: R30 order, kickers, wheel, suits ---------------------------------------------------


def test_r30_category_order() -> None:
    """R30: straight flush > quads > full house > flush > straight > trips > two pair > pair."""
    hands = [
        "Ah Kd 9c 7s 4h",  # high card
        "Ah Ad 9c 7s 4h",  # pair
        "Ah Ad 9c 9s 4h",  # two pair
        "Ah Ad Ac 7s 4h",  # three of a kind
        "6h 5d 4c 3s 2h",  # straight (the lowest straight but one)
        "Jh 9h 7h 4h 2h",  # flush
        "3h 3d 3c 2s 2h",  # full house (the lowest)
        "2h 2d 2c 2s 3h",  # four of a kind (the lowest)
        "5h 4h 3h 2h Ah",  # straight flush (the lowest: steel wheel)
    ]
    ranks = [ev(h) for h in hands]
    assert ranks == sorted(ranks)
    assert [category(r) for r in ranks] == list(HandCategory)


def test_r30_extremes() -> None:
    assert ev("7c 5d 4h 3s 2c") == 1
    assert ev("Ah Kh Qh Jh Th") == _eval.NUM_RANKS == 7462
    assert describe(7462) == "Royal Flush"
    assert describe(1) == "High Card, Seven, Five, Four, Three, Deuce"


def test_r30_kickers_break_ties() -> None:
    """R30: kickers break ties, down to the fifth card."""
    assert ev("Ah Ad Kc 7s 4h") > ev("As Ac Qc 7d 4d")  # pair: first kicker
    assert ev("Ah Ad Kc 7s 4h") > ev("As Ac Kd 7d 3d")  # pair: third kicker
    assert ev("Ah Kd 9c 7s 4h") > ev("As Kh 9d 7d 3c")  # high card: fifth card
    assert ev("Ah Ad Kc Ks 4h") > ev("As Ac Kd Kh 3d")  # two pair: kicker
    assert ev("9h 9d 9c As 2h") > ev("9s 9c 9d Ks Qh")  # trips: kicker
    assert ev("Qh Qd Qc Qs 5h") > ev("Qh Qd Qc Qs 4h")  # quads: kicker
    assert ev("Kh Kd Kc 2s 2h") > ev("Qh Qd Qc As Ah")  # full house: trips first
    assert ev("Ah Qh 9h 7h 3h") > ev("As Qs 9s 7s 2s")  # flush: fifth card


def test_r29_r30_only_five_cards_play() -> None:
    """R29: the best five of seven; a sixth or seventh card never counts as a kicker."""
    board = "Ah Kd 9c 7s 4h"
    assert ev(board + " 2c 3d") == ev(board + " 2d 3h") == ev(board)  # board plays: split
    assert ev(board + " Qc 2d") > ev(board + " Jc 2d")  # one hole card plays
    # three pair: the best two pairs and the best remaining card
    assert ev("Ah Ad Kc Ks Qh Qd 2c") == ev("Ah Ad Kc Ks Qh 3c 2d")
    assert ev("Ah Ad Kc Ks 5h 5d Qc") == ev("Ah Ad Kc Ks Qc")
    assert ev("Ah Ad Kc Ks 5h 5d 4c") == ev("Ah Ad Kc Ks 5h")  # the third pair's card kicks


def test_r29_board_alone_one_hole_or_two_hole() -> None:
    """R29: two hole + three board, one hole + four board, or the board alone."""
    board = "Th Jh Qh Kh 2c"
    assert category(ev(board + " Ah 3d")) == HandCategory.STRAIGHT_FLUSH  # one + four
    assert describe(ev(board + " Ah 3d")) == "Royal Flush"
    royal_board = "Ts Js Qs Ks As"
    assert ev(royal_board + " 2c 3d") == ev(royal_board + " Ah Ad") == 7462  # board plays
    assert best_five(royal_board + " 2c 3d") == parse_cards("As Ks Qs Js Ts")
    two_plus_three = parse_cards("9c 9d 9h 2s 5d Kc Kd")
    assert describe(evaluate(two_plus_three)) == "Full House, Nines full of Kings"
    assert set(best_five(two_plus_three)) == set(parse_cards("9c 9d 9h Kc Kd"))


def test_r30_wheel_is_the_lowest_straight() -> None:
    """R30: the ace plays low in A-2-3-4-5; six-high beats the wheel; no wrap-around."""
    wheel = ev("Ah 2d 3c 4s 5h")
    assert category(wheel) == HandCategory.STRAIGHT
    assert wheel == _eval.CATEGORY_MIN[HandCategory.STRAIGHT]
    assert describe(wheel) == "Straight, Five high"
    assert ev("2d 3c 4s 5h 6c") > wheel
    assert ev("Ah Kd Qc Js Th") > ev("Kd Qc Js Th 9h")
    assert category(ev("Kh Ad 2c 3s 4h")) == HandCategory.HIGH_CARD  # K-A-2-3-4 is not
    steel = ev("Ah 2h 3h 4h 5h")
    assert steel == _eval.CATEGORY_MIN[HandCategory.STRAIGHT_FLUSH]
    assert describe(steel) == "Straight Flush, Five high"
    assert ev("Ah 2d 3c 4s 5h 6d 7c") == ev("3c 4s 5h 6d 7c")  # seven-high, not the wheel
    assert best_five("Ah 2d 3c 4s 5h Kd Kc") == parse_cards("5h 4s 3c 2d Ah")


def test_r30_suits_never_break_ties() -> None:
    """R30: identical ranks split the pot whatever the suits."""
    assert ev("Ah Kh Qh Jh 9h") == ev("As Ks Qs Js 9s") == ev("Ac Kc Qc Jc 9c")
    assert ev("Ah Kd 9c 7s 4h") == ev("As Kc 9h 7d 4c")
    assert ev("Th Jh Qh Kh Ah") == ev("Ts Js Qs Ks As")
    assert ev("2c 2d 5h 5s 9c 3d Jh") == ev("2h 2s 5c 5d 9d 3c Jd")


def test_seven_card_specials() -> None:
    assert describe(ev("Ah Ad Ac Kh Kd Kc 2s")) == "Full House, Aces full of Kings"
    assert describe(ev("9h 9d 9c 9s Ah Ad Ac")) == "Four of a Kind, Nines, Ace kicker"
    sf_vs_straight = ev("5h 6h 7h 8h 9h Td Jc")
    assert describe(sf_vs_straight) == "Straight Flush, Nine high"
    assert category(ev("2h 5h 7h 9h Jh Td 8c")) == HandCategory.FLUSH  # flush beats straight
    six_flush = ev("2h 5h 7h 9h Jh Kh 3c")  # the best five of six hearts
    assert six_flush == ev("5h 7h 9h Jh Kh")


# --- describe, category, best_five ------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "text"),
    [
        ("Ac Kd 9h 7s 4c", "High Card, Ace, King, Nine, Seven, Four"),
        ("9c 9d Ac Kd 4h", "Pair, Nines, Ace, King, Four kickers"),
        ("Ah Ad Kc Ks Qd 7c 2h", "Two Pair, Aces and Kings, Queen kicker"),
        ("7c 7d 7h Ac 4d", "Three of a Kind, Sevens, Ace, Four kickers"),
        ("6c 6d 6h Ac 4d", "Three of a Kind, Sixes, Ace, Four kickers"),
        ("Tc Jd Qh Kc Ad", "Straight, Ace high"),
        ("Ac Jc 9c 6c 2c", "Flush, Ace, Jack, Nine, Six, Deuce"),
        ("Kh Kd Ks 7c 7h", "Full House, Kings full of Sevens"),
        ("9c 9d 9h 9s Ac", "Four of a Kind, Nines, Ace kicker"),
        ("9h 8h 7h 6h 5h", "Straight Flush, Nine high"),
        ("Ah Kh Qh Jh Th", "Royal Flush"),
    ],
)
def test_describe(hand: str, text: str) -> None:
    assert describe(ev(hand)) == text


def test_describe_every_rank_is_distinct() -> None:
    texts = [describe(r) for r in range(1, 7463)]
    assert len(set(texts)) == 7462


def test_category_enum() -> None:
    assert [c.name for c in HandCategory] == [
        "HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT",
        "FLUSH", "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH",
    ]
    assert HandCategory.STRAIGHT_FLUSH == 8 and HandCategory.HIGH_CARD == 0
    assert str(HandCategory.TWO_PAIR) == "Two Pair"
    assert category(1) is HandCategory.HIGH_CARD
    assert category(7462) is HandCategory.STRAIGHT_FLUSH


@pytest.mark.parametrize("bad", [0, -1, 7463, 10**20, True, "5", 3.0, None])
def test_category_and_describe_reject_bad_ranks(bad: object) -> None:
    with pytest.raises(InvalidHandError, match="not a hand rank"):
        category(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidHandError, match="not a hand rank"):
        describe(bad)  # type: ignore[arg-type]


def test_best_five_orders_groups_then_kickers() -> None:
    assert best_five("Ah Ad Kc Ks Qd 7c 2h") == parse_cards("Ah Ad Ks Kc Qd")
    assert best_five("Kh Kd Ks 7c 7h 7d 2c") == parse_cards("Ks Kh Kd 7h 7d")
    assert best_five("Ac Kd Qh 7s 4h 3c 2d") == parse_cards("Ac Kd Qh 7s 4h")
    assert best_five(parse_cards("2h 5h 7h 9h Jh Kh 3c")) == parse_cards("Kh Jh 9h 7h 5h")
    assert best_five([51, 47, 43, 39, 35]) == parse_cards("As Ks Qs Js Ts")
    assert all(type(c) is Card for c in best_five("Ah Ad Kc Ks Qd"))


def test_best_five_has_the_hands_rank_on_random_hands() -> None:
    for hand in random_hands(300, 7, seed=11) + random_hands(100, 6, seed=12):
        five = best_five(hand)
        assert len(set(five)) == 5 and set(five) <= set(hand)
        assert evaluate(five) == evaluate(hand)


def test_best_five_rejects_bad_input() -> None:
    with pytest.raises(InvalidHandError):
        best_five("Ah Ad Kc Ks")
    with pytest.raises(DuplicateCardError):
        best_five("Ah Ad Kc Ks Ah")


# --- evaluate: accepted inputs and errors ------------------------------------------------------


def test_evaluate_accepts_every_card_form() -> None:
    want = ev("As Kd Qh Jc 9s 2d 3c")
    cards = parse_cards("As Kd Qh Jc 9s 2d 3c")
    ints = [int(c) for c in cards]
    assert evaluate(cards) == evaluate(list(cards)) == want
    assert evaluate(ints) == evaluate(tuple(ints)) == want
    assert evaluate([str(c) for c in cards]) == want
    assert evaluate("AsKdQhJc9s2d3c") == evaluate("as kd qh jc 9s 2d 3c") == want
    assert evaluate(iter(ints)) == evaluate(c for c in cards) == want
    assert evaluate([np.uint8(i) for i in ints]) == want
    assert evaluate(np.array(ints)) == want
    assert evaluate([cards[0], 46, "Qh", *ints[3:]]) == want
    assert type(evaluate(ints)) is int


def test_evaluate_text_forms_agree_with_parse_cards() -> None:
    rng = random.Random(21)
    for hand in random_hands(2000, 7, seed=22)[:2000]:
        k = rng.choice((5, 6, 7))
        texts = [str(Card(c)) for c in hand[:k]]
        texts = [t.lower() if rng.random() < 0.3 else t for t in texts]
        texts = ["10" + t[1] if t[0] == "T" and rng.random() < 0.5 else t for t in texts]
        text = "".join(t + rng.choice(("", " ", ", ", "\t", "  ")) for t in texts)
        assert evaluate(text) == evaluate(hand[:k]) == evaluate(parse_cards(text))


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("AsKdQhJc9s2d3c4h", InvalidHandError),
        ("As Kd Qh Jc 9", InvalidCardError),
        ("As Kd Qh Jc 9x", InvalidCardError),
        ("A s Kd Qh Jc 9s", InvalidCardError),
        ("As Kd Qh Jc 9\u2660", InvalidCardError),
        ("As Kd Qh Jc 1s", InvalidCardError),
        ("As Kd Qh Jc 11s", InvalidCardError),
        ("As Kd Qh Jc As", DuplicateCardError),
        ("As Kd Qh Jc 10s Ts", DuplicateCardError),
    ],
)
def test_evaluate_bad_text(text: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        evaluate(text)


@pytest.mark.parametrize(
    "hand", ["", "As Kd Qh Jc", [0, 1, 2, 3], [], "As Kd Qh Jc 9s 2d 3c 4h", list(range(8))]
)
def test_evaluate_wrong_count(hand: object) -> None:
    with pytest.raises(InvalidHandError, match="5, 6 or 7 cards"):
        evaluate(hand)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("hand", "needle"),
    [
        ([0, 1, 2, 3, 52], "52"),
        ([0, 1, 2, 3, -1], "-1"),
        ((0, 1, 2, 3, 2**70), str(2**70)),
        ([0, 1, 2, 3, "Xx"], "Xx"),
        ("As Kd Qh Jc 1s", "1s"),
        ([0, 1, 2, 3, 4.0], "4.0"),
        ([0, 1, 2, 3, True], "True"),
        ([0, 1, 2, 3, None], "None"),
        (5, "5"),
    ],
)
def test_evaluate_invalid_card_names_it(hand: object, needle: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        evaluate(hand)  # type: ignore[arg-type]
    assert needle in str(info.value)
    assert not isinstance(info.value, DuplicateCardError)


@pytest.mark.parametrize(
    ("hand", "needle"),
    [
        ([0, 1, 2, 3, 0], "2c"),
        ((51, 50, 49, 48, 51, 7), "As"),
        ("As Kd Qh Jc As", "As"),
        ([Card("Td"), 1, 2, 3, "td"], "Td"),
    ],
)
def test_evaluate_duplicate_names_the_card(hand: object, needle: str) -> None:
    with pytest.raises(DuplicateCardError, match=needle):
        evaluate(hand)  # type: ignore[arg-type]


def test_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        evaluate([0, 0, 1, 2, 3])
    with pytest.raises(holdem.HoldemError):
        evaluate_many(np.zeros((2, 4), dtype=np.uint8))


# --- evaluate_many ----------------------------------------------------------------------------

INT_DTYPES = [np.uint8, np.int8, np.uint16, np.int16, np.uint32, np.int32, np.uint64, np.int64]


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("size", [5, 6, 7])
def test_evaluate_many_numpy_any_int_dtype(dtype: type, size: int) -> None:
    hands = random_hands(500, size, seed=100 + size)
    got = evaluate_many(np.array(hands, dtype=dtype))
    assert isinstance(got, np.ndarray) and got.dtype == np.uint16 and got.shape == (500,)
    assert got.tolist() == [evaluate(h) for h in hands]


def test_evaluate_many_other_buffers() -> None:
    hands = random_hands(50, 7, seed=7)
    want = [evaluate(h) for h in hands]
    flat = bytes(c for h in hands for c in h)
    for buf in (flat, bytearray(flat), array.array("B", flat)):
        got = evaluate_many(buf, n_cards=7)
        assert isinstance(got, array.array) and got.typecode == "H"
        assert got.tolist() == want
    assert evaluate_many(memoryview(flat).cast("B", (50, 7))).tolist() == want
    assert evaluate_many(array.array("q", list(flat)), n_cards=7).tolist() == want
    assert evaluate_many(np.frombuffer(flat, np.uint8), n_cards=7).tolist() == want
    explicit = (ctypes.c_int32 * len(flat))(*flat)  # format '<i': explicit byte order
    assert evaluate_many(explicit, n_cards=7).tolist() == want
    explicit[7 * 3 + 2] = 99
    with pytest.raises(InvalidArrayError, match="row 3 has card id 99"):
        evaluate_many(explicit, n_cards=7)
    assert evaluate_many(np.array(hands), n_cards=7).tolist() == want
    assert len(evaluate_many(np.zeros((0, 7), dtype=np.uint8))) == 0
    assert len(evaluate_many(b"", n_cards=5)) == 0


def test_evaluate_many_out() -> None:
    hands = np.array(random_hands(64, 7, seed=9), dtype=np.int32)
    out = np.zeros(64, dtype=np.uint16)
    assert evaluate_many(hands, out=out) is out
    assert out.tolist() == evaluate_many(hands).tolist()
    arr = array.array("H", bytes(128))
    assert evaluate_many(hands, out=arr) is arr and arr.tolist() == out.tolist()
    shared = np.zeros(64 * 7 + 64, dtype=np.uint16)
    shared[: 64 * 7] = hands.ravel()
    with pytest.raises(InvalidArrayError, match="overlap"):
        evaluate_many(shared[: 64 * 7].reshape(64, 7), out=shared[64 * 6 : 64 * 7])
    assert evaluate_many(shared[: 64 * 7].reshape(64, 7), out=shared[64 * 7 :]).tolist() == (
        out.tolist())
    for dtype in (np.int32, np.uint32, np.int64, np.uint64):
        wide = np.full(64, -1).astype(dtype)
        assert evaluate_many(hands, out=wide) is wide and wide.tolist() == out.tolist()
    many = np.array(random_hands(5000, 6, seed=19), dtype=np.uint8)  # several chunks
    wide = np.zeros(5000, np.int32)
    evaluate_many(many, out=wide)
    assert wide.tolist() == evaluate_many(many).tolist()
    many[4321, 2] = 52
    with pytest.raises(InvalidArrayError, match="row 4321 "):
        evaluate_many(many, out=wide)
    for bad in (np.zeros(63, np.uint16), np.zeros(64, np.int16), np.zeros((8, 8), np.uint16),
                np.zeros(64, np.float32), np.zeros(128, np.uint16)[::2], b"\0" * 128, [0] * 64):
        with pytest.raises(InvalidArrayError, match="out"):
            evaluate_many(hands, out=bad)


@pytest.mark.parametrize(
    ("buf", "kwargs", "needle"),
    [
        (np.zeros((3, 4), np.uint8), {}, "5, 6 or 7"),
        (np.zeros((3, 8), np.uint8), {}, "5, 6 or 7"),
        (np.zeros((2, 3, 7), np.uint8), {}, "2-D"),
        (np.zeros(14, np.uint8), {}, "n_cards"),
        (np.arange(13, dtype=np.uint8), {"n_cards": 7}, "whole number"),
        (np.arange(14, dtype=np.uint8), {"n_cards": 4}, "5, 6 or 7"),
        (np.arange(14, dtype=np.uint8).reshape(2, 7), {"n_cards": 5}, "does not match"),
        (np.zeros((2, 7), np.float64), {}, "integers"),
        (np.zeros((2, 7), np.bool_), {}, "integers"),
        (np.zeros((2, 7), ">f4"), {}, "integers"),
        (np.zeros((2, 14), np.float32)[:, ::2], {}, "integers"),
        ([[0, 1, 2, 3, 4]], {}, "buffer"),
        ("As Kd Qh Jc 9s", {}, "buffer"),
        (np.int64(3), {}, "2-D"),
    ],
)
def test_evaluate_many_rejects_bad_shapes_and_dtypes(buf: object, kwargs: dict[str, object],
                                                     needle: str) -> None:
    with pytest.raises(InvalidArrayError, match=needle):
        evaluate_many(buf, **kwargs)


@pytest.mark.parametrize("dtype", [">i2", ">u4", ">i8", "<i8", "=i8", "<u2"])
def test_evaluate_many_reads_any_byte_order(dtype: str) -> None:
    """Big-endian arrays, and fields of packed records (format "=q", which is native), were
    refused as "not native integers" while the docs promise any integer dtype."""
    hands = random_hands(200, 7, seed=3)
    want = evaluate_many(np.array(hands, dtype=np.uint8))
    arr = np.array(hands, dtype=dtype)
    assert np.array_equal(evaluate_many(arr), want)
    assert np.array_equal(evaluate_many(arr[:, :5]), evaluate_many(np.array(hands)[:, :5]))
    assert np.array_equal(evaluate_many(arr[::-1]), want[::-1])
    rec = np.zeros(200, dtype=[("id", "u1"), ("cards", dtype, (7,))])  # packed: unaligned
    rec["cards"] = hands
    assert np.array_equal(evaluate_many(rec["cards"]), want)
    bad = arr.copy()
    bad[150, 6] = 60
    with pytest.raises(InvalidArrayError, match="row 150"):
        evaluate_many(bad)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_evaluate_many_reads_any_layout(dtype: type) -> None:
    """Buffers that are not C-contiguous (a column slice, a transposed, reversed or strided
    view, a strided memoryview) were refused; they are read through a copy, with the same
    ranks as their contiguous copies, and a bad card in them is still found."""
    hands = np.array(random_hands(300, 7, seed=8), dtype=dtype)
    full = evaluate_many(np.ascontiguousarray(hands))
    assert np.array_equal(evaluate_many(hands[:, :5]),
                          evaluate_many(np.ascontiguousarray(hands[:, :5])))
    assert np.array_equal(evaluate_many(hands[:, 1:]),
                          evaluate_many(np.ascontiguousarray(hands[:, 1:])))
    assert np.array_equal(evaluate_many(np.asfortranarray(hands)), full)
    assert np.array_equal(evaluate_many(hands[::-1]), full[::-1])
    assert np.array_equal(evaluate_many(hands[::3]), full[::3])
    assert np.array_equal(evaluate_many(hands.T.copy().T), full)
    flat = np.repeat(hands.reshape(-1), 2)[::2]  # 1-D, stride of two items
    assert np.array_equal(evaluate_many(flat, n_cards=7), full)
    assert isinstance(evaluate_many(hands[:, :5]), np.ndarray)  # numpy in, numpy out
    mv = memoryview(bytes(np.repeat(hands.astype(np.uint8).reshape(-1), 2)))[::2]
    assert not mv.c_contiguous
    assert list(evaluate_many(mv, n_cards=7)) == full.tolist()
    out = np.zeros(300, dtype=np.uint16)
    assert evaluate_many(hands[:, :6], out=out) is out
    assert np.array_equal(out, evaluate_many(np.ascontiguousarray(hands[:, :6])))
    bad = hands.copy()
    bad[7, 2] = 52
    with pytest.raises(InvalidArrayError, match=r"row 7 has card id 52, outside 0\.\.51"):
        evaluate_many(bad[:, :5])


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("bad", [52, 63, 64, 127, 255, -1, 300, -300, 2**40])
def test_evaluate_many_rejects_out_of_range_ids(dtype: type, bad: int) -> None:
    info = np.iinfo(dtype)
    if not info.min <= bad <= info.max:
        return  # not representable in this dtype
    hands = np.array(random_hands(10, 7, seed=3), dtype=dtype)
    hands[6, 4] = bad
    with pytest.raises(InvalidArrayError, match=rf"row 6 has card id {bad}, outside 0\.\.51"):
        evaluate_many(hands)


@pytest.mark.parametrize("size", [5, 6, 7])
def test_evaluate_many_rejects_duplicates_and_names_the_first_bad_row(size: int) -> None:
    hands = np.array(random_hands(1000, size, seed=4), dtype=np.uint8)
    hands[700, 0] = hands[700, size - 1]
    hands[900, 1] = 200
    card = str(Card(int(hands[700, 0])))
    with pytest.raises(InvalidArrayError, match=f"row 700 has card {card} .* twice"):
        evaluate_many(hands)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
@pytest.mark.parametrize("size", [5, 6, 7])
def test_evaluate_many_byte_rows_of_every_length(dtype: type, size: int) -> None:
    """Byte rows take the SIMD kernel four rows at a time and leave the last few to a scalar
    loop: every batch length from 0 to 40 agrees with evaluate(), in exactly sized buffers
    (under ASan a read past the end would show), flushes included."""
    hands = random_hands(40, size, seed=30 + size)
    hands[5] = [48, 44, 40, 36, 32, 1, 2][:size]  # a flush in a middle lane (AKQJT of clubs)
    want = [evaluate(h) for h in hands]
    for n in range(41):
        arr = np.array(hands[:n], dtype=dtype).reshape(n, size)
        assert evaluate_many(arr).tolist() == want[:n]
        flat = bytes(np.array(hands[:n], dtype=np.uint8).reshape(-1))
        assert evaluate_many(flat, n_cards=size).tolist() == want[:n]


def test_evaluate_many_checks_every_row_position() -> None:
    base = np.array(random_hands(3, 7, seed=5), dtype=np.uint8)
    for col in range(7):
        hands = base.copy()
        hands[1, col] = hands[1, (col + 1) % 7]
        with pytest.raises(InvalidArrayError, match="row 1"):
            evaluate_many(hands)


@given(
    dtype=st.sampled_from(INT_DTYPES),
    k=st.integers(5, 7),
    data=st.data(),
)
def test_evaluate_many_on_arbitrary_values(dtype: type, k: int, data: st.DataObject) -> None:
    """Garbage in: either every row is a valid hand and each rank matches evaluate(), or
    InvalidArrayError names the first bad row. Never a crash (this also runs under ASan)."""
    low = -3 if np.issubdtype(dtype, np.signedinteger) else 0
    rows = data.draw(st.lists(
        st.one_of(
            st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True),
            st.lists(st.integers(low, 70), min_size=k, max_size=k),
        ),
        max_size=20,
    ))
    arr = np.array(rows, dtype=dtype).reshape(len(rows), k)
    bad = [i for i, r in enumerate(rows) if len(set(r)) < k or not all(0 <= v < 52 for v in r)]
    if bad:
        with pytest.raises(InvalidArrayError, match=f"row {bad[0]} "):
            evaluate_many(arr)
    else:
        assert evaluate_many(arr).tolist() == [evaluate(r) for r in rows]


def test_docstring_examples() -> None:
    from holdem import evaluator

    for module in (_eval, evaluator):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0 and result.failed == 0


# --- tables ------------------------------------------------------------------------------------


@pytest.mark.skipif(
    not (ROOT / "tools" / "gen_tables.py").exists() or not (ROOT / "csrc").is_dir(),
    reason="needs a source checkout (tools/ and csrc/), e.g. not a wheel's test run",
)
def test_generated_tables_are_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_tables.py"), "--check"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 0, result.stderr


def test_tables_are_small() -> None:
    assert _eval.TABLE_BYTES < 256_000  # well under 1 MB (242,176 bytes today)


def test_every_public_enum_repr_pastes_back() -> None:
    """repr() of every public enum member is ``Type.MEMBER``, which evaluates to the member
    (HandCategory's was ``<HandCategory.TWO_PAIR: 2>``, which does not); str() stays text."""
    import enum

    import holdem

    enums = [v for k, v in vars(holdem).items()
             if not k.startswith("_") and isinstance(v, type) and issubclass(v, enum.Enum)]
    assert holdem.HandCategory in enums and holdem.Street in enums
    for cls in enums:
        for member in cls:
            assert repr(member) == f"{cls.__name__}.{member.name}"
            assert eval(repr(member), vars(holdem)) is member
    assert str(holdem.HandCategory.TWO_PAIR) == "Two Pair"


def test_a_huge_int_is_refused_as_a_hand_error() -> None:
    """A rank or n_cards of more digits than Python turns into text: the message quoted it
    and failed with a bare ValueError ("Exceeds the limit (4300 digits) ...")."""
    huge = 10**5000
    for fn in (holdem.category, holdem.describe):
        with pytest.raises(InvalidHandError, match="16610 bits"):
            fn(huge)
        with pytest.raises(InvalidHandError, match="16610 bits"):
            fn(-huge)
    with pytest.raises(InvalidCardError, match="16610 bits"):
        evaluate([0, 1, 2, 3, huge])
    for cards in (bytes(5), np.zeros((1, 5), np.uint8)):
        with pytest.raises(InvalidArrayError, match="16610 bits"):
            evaluate_many(cards, n_cards=huge)


def test_a_long_hand_is_quoted_short() -> None:
    """The wrong-count message quoted the whole input (here a megabyte of text)."""
    for fn in (evaluate, best_five):
        with pytest.raises(InvalidHandError) as info:
            fn("As" + " " * 1_000_000 + "Kd")
        assert len(str(info.value)) < 200
        assert str(info.value).startswith("a hand to evaluate has 5, 6 or 7 cards, got 2: ")
    with pytest.raises(InvalidHandError) as info:
        evaluate(list(range(52)))
    assert len(str(info.value)) < 200


def test_n_cards_is_read_the_same_for_flat_and_2d_buffers() -> None:
    """n_cards=np.int64(7) was refused for a flat buffer but taken for a 2-D one; n_cards=7.0
    was taken for a 2-D buffer but refused for a flat one."""
    hands = np.array([[48, 49, 50, 51, 44, 0, 1], [0, 4, 9, 13, 22, 31, 40]], dtype=np.uint8)
    want = evaluate_many(hands).tolist()
    for n in (7, np.int64(7), np.uint8(7)):
        assert evaluate_many(hands, n_cards=n).tolist() == want
        assert evaluate_many(hands.ravel(), n_cards=n).tolist() == want
        assert evaluate_many(hands.tobytes(), n_cards=n).tolist() == want
    for bad in (7.0, True, "7", np.array(7.0), np.arange(7), 4, 8, -7):
        for cards in (hands, hands.ravel()):
            with pytest.raises(InvalidArrayError, match="n_cards must be 5, 6 or 7"):
                evaluate_many(cards, n_cards=bad)
    with pytest.raises(InvalidArrayError, match="n_cards=6 does not match the array's 7"):
        evaluate_many(hands, n_cards=np.int64(6))
