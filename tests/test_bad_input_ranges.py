"""Bad-input suite: ranges (Range text, parse_range, Range methods) and equity. See
tests/badinput.py for the contract and how each property runs in a child process."""

from __future__ import annotations

from typing import Any

import pytest
from badinput import bounded, call, rejected, run_in_child
from hypothesis import given
from hypothesis import strategies as st

# Range text from the notation's own pieces, glued at random (and some plain junk).
PIECES = st.sampled_from([
    "AA", "KK", "AKs", "AKo", "AK", "QQ+", "ATs+", "A5s-A2s", "99-22", "AcKd", "T9s", "72o",
    "22+", "A2+", "KQ", "0.5(", "40%(", "(", ")", ",", " ", "+", "-", "%", ".", "0", "1",
    "1.5(", "-1(", "1e400(", "nan(", "inf(", "0(", "100%(", "101%(", "AsAs", "AA-KK",
    "KK-AA", "AKs-AQo", "XX", "A", "s", "o", "1" * 40, "9" * 500, "((((", "))))", "\x00", "é",
    "AKs+-", "2%(", "0.0000001(", "AhKh,AhKh", "[", "]", "{", "random", "RANDOM", "rand",
])
RANGE_TEXT = st.one_of(st.lists(PIECES, max_size=14).map("".join), st.text(max_size=16),
                       st.integers(1, 3000).map(lambda k: "(" * k + "AA" + ")" * k))
ODD = st.one_of(st.none(), st.integers(-3, 3), st.floats(allow_nan=True), st.binary(max_size=3),
                st.just(["AA"]))
CARDS = st.one_of(st.sampled_from(["", "As", "AsKs", "AhAdAc", "Xx", "AsAs", "2c3c4c5c6c"]),
                  st.lists(st.integers(-2, 55), max_size=3), ODD)


@given(st.one_of(RANGE_TEXT, ODD), CARDS, st.one_of(CARDS, st.sampled_from(["AA", "AsKs"])))
@bounded(200)
def range_text(text: Any, dead: Any, hand: Any) -> None:
    import holdem

    got = call(holdem.Range, text, types=("text",))
    if not rejected(got):
        assert isinstance(text, str)
        assert holdem.Range(str(got)) == got and eval(repr(got), {"Range": holdem.Range}) == got
        assert len(got) == len(got.combos) and all(0 < w <= 1 for w in got.weights)
        without = call(got.without, dead, types=("cards",))
        if not rejected(without):
            assert len(without) <= len(got)
        weight = call(got.weight, hand, types=("hand",))
        if not rejected(weight):
            assert 0 <= weight <= 1
        call(got.__contains__, hand)
    got = call(holdem.parse_range, text, dead=dead, types=("text", "dead"))
    if not rejected(got):
        assert isinstance(got, holdem.Range)


@given(st.one_of(st.lists(st.one_of(CARDS, RANGE_TEXT, st.integers(0, 51)), max_size=4),
                 st.dictionaries(st.sampled_from(["AsKs", "AA", "Xx", "7c2d"]),
                                 st.one_of(st.floats(allow_nan=True), st.integers(-2, 2),
                                           ODD), max_size=3),
                 ODD))
@bounded(100)
def range_from_combos(combos: Any) -> None:
    import holdem

    got = call(holdem.Range.from_combos, combos, types=("combos",))
    if not rejected(got):
        assert all(0 < w <= 1 for w in got.weights)


PLAYER = st.one_of(st.sampled_from(["AsKs", "QdQc", "7h2c", "AA", "QQ+, AKs", "22+", "AK",
                                    "0.5(TT-88)", "AsAs", "Xx", "", "AcKd", "AhKh,AsKs",
                                    "random", "0.5(random), AA"]),
                   st.lists(st.integers(-1, 53), min_size=2, max_size=2),
                   RANGE_TEXT, ODD)


@given(st.lists(PLAYER, min_size=0, max_size=11),
       st.one_of(st.sampled_from(["", "Qs7h2c", "Qs7h2c5d", "Qs7h2c5d9d", "Qs", "QsQs7h",
                                  "Qs7h2c5d9d3c"]), CARDS),
       CARDS,
       st.one_of(st.none(), st.integers(1, 600), st.integers(-2, 0), st.just(2**70), ODD),
       st.one_of(st.none(), st.integers(-(2**70), 2**70), ODD),
       st.one_of(st.none(), st.just(False), st.just(True), ODD),
       st.one_of(st.none(), st.floats(allow_nan=True), st.just(0.2), ODD))
@bounded(80)
def equity(players: Any, board: Any, dead: Any, samples: Any, seed: Any, exact: Any,
           target_se: Any) -> None:
    import holdem

    if exact is not False and isinstance(board, str) and len(board) < 8:
        exact = False  # keep enumeration small: a bounded test, not a benchmark
    if samples is None and target_se is None and not exact:
        samples = 300
    if isinstance(samples, int) and samples > 600:
        samples = -samples
    if isinstance(target_se, float) and target_se < 0.05:
        target_se = 0.05  # a small standard error is a long run, not a bad value
    got = call(holdem.equity, players, board, dead, samples=samples, seed=seed,
               executor="serial", exact=exact, target_se=target_se,
               types=("players", "board", "dead", "samples", "seed", "exact", "target_se"))
    if rejected(got):
        return
    assert 2 <= len(got.players) <= 10 and abs(sum(got.equities) - 1) < 1e-9


@pytest.mark.parametrize("combos", [None, 7, {"AsKs": None}, {"AsKs": "half"}, {"AsKs": b"1"}])
def test_range_from_combos_rejects_non_hands_and_non_numbers(combos: Any) -> None:
    # Found by this suite: TypeError / a plain ValueError from float() instead of
    # InvalidRangeError.
    import holdem

    with pytest.raises(holdem.InvalidRangeError, match=r"combos must be|is not a number"):
        holdem.Range.from_combos(combos)
    assert holdem.Range.from_combos({"AsKs": 0.5}).weight("AsKs") == 0.5


@pytest.mark.parametrize("prop", ["range_text", "range_from_combos", "equity"])
def test_in_child(prop: str) -> None:
    run_in_child(__file__, prop)
