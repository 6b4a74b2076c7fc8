"""Bad input to split_pots and Rake raises InvalidPotError naming it (the README's error
contract: a ValueError subclass of holdem.HoldemError, or a TypeError naming the parameter),
whatever the size of the numbers given."""

from __future__ import annotations

import itertools
import pickle
import time
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from holdem import InvalidPotError, Rake, split_pots

HUGE = 10**5000  # str() refuses ints of more than 4300 digits with a plain ValueError


@pytest.mark.parametrize(("call", "named"), [
    (lambda: split_pots([HUGE, 1], [False, False], [1, 2], 0), "committed\\[0\\]"),
    (lambda: split_pots([1, -HUGE], [False, False], [1, 2], 0), "committed\\[1\\]"),
    (lambda: split_pots([1, 1], [False, False], [1, HUGE], 0), "ranks\\[1\\]"),
    (lambda: split_pots([1, 1], [False, False], [1, 2], HUGE), "button"),
    (lambda: split_pots([1, 1], [False, False], [1, 2], -HUGE), "button"),
    (lambda: split_pots([1, 1], [False, False], [1, 2], 0, dead=HUGE), "dead"),
    (lambda: Rake(HUGE), "rake fraction"),
    (lambda: Rake(-HUGE), "rake fraction"),
    (lambda: Rake(Fraction(1, HUGE)), "rake fraction"),
    (lambda: Rake(0.05, cap=-HUGE), "rake cap"),
])
def test_r31_r34_huge_numbers_are_refused_with_invalid_pot_error(
        call: Callable[[], object], named: str) -> None:
    """R31/R34 inputs (chips, ranks, button, dead money, rake fraction and cap) out of range
    by thousands of digits: InvalidPotError naming the input, not the plain ValueError of
    printing the number in the message."""
    with pytest.raises(InvalidPotError, match=named) as err:
        call()
    assert "bits" in str(err.value)


@pytest.mark.parametrize(("where", "named"), [
    ("committed", "committed\\[0\\]"), ("ranks", "ranks\\[0\\]"), ("button", "button"),
    ("dead", "dead"),
])
def test_r31_a_numpy_array_where_one_number_belongs_is_named(where: str, named: str) -> None:
    """R31 inputs: a numpy array of several items in place of one number (its ``__index__``
    raises a bare TypeError) is refused with InvalidPotError naming the argument."""
    np = pytest.importorskip("numpy")
    many = np.array([1, 2])
    committed: list[object] = [1, 2]
    ranks: list[object] = [1, 2]
    button: object = 0
    dead: object = 0
    if where == "committed":
        committed[0] = many
    elif where == "ranks":
        ranks[0] = many
    elif where == "button":
        button = many
    else:
        dead = many
    with pytest.raises(InvalidPotError, match=named):
        split_pots(committed, [False, False], ranks, button, dead=dead)  # type: ignore[arg-type]


@pytest.mark.parametrize(("fraction", "cap"), [
    (Fraction(-1, 2), None), (Fraction(3, 2), None), (Fraction(1, 2**33), None),
    (Fraction(1, 20), -1), (Fraction(1, 20), -5), (Fraction(1, 20), 1.5), (0.05, None),
])
def test_r34_split_pots_batch_refuses_a_rake_look_alike_out_of_range(fraction: object,
                                                                     cap: object) -> None:
    """R34: split_pots_batch reads ``rake`` by its fields; one that no holdem.Rake could hold
    (a fraction outside [0, 1], a negative or fractional cap: -1 is not "no cap") raises
    InvalidPotError, never OverflowError nor a silent uncapped rake."""
    np = pytest.importorskip("numpy")
    from types import SimpleNamespace

    from holdem.pots import split_pots_batch

    rake = SimpleNamespace(fraction=fraction, cap=cap, no_flop_no_drop=True)
    out = np.zeros((1, 2), np.int64)
    with pytest.raises(InvalidPotError, match="rake"):
        split_pots_batch(np.array([[100, 100]], np.int64), np.zeros((1, 2), np.uint8),
                         np.array([[1, 2]], np.int32), np.array([0], np.int32), out, rake=rake)
    assert out.tolist() == [[0, 0]]


@pytest.mark.parametrize("text", ["1e-999999999", "1e999999999", " 1e-99999999 ", "-1e-999999999",
                                  "1e-5000", "0." + "0" * 300 + "1"])
@pytest.mark.parametrize("kind", [str, Decimal])
def test_r34_a_rake_with_a_huge_exponent_is_refused_at_once(text: str, kind: type) -> None:
    """Fraction computes 10**exponent before any range check: Rake("1e-999999999") ran for
    minutes. A fraction allowed (denominator at most 2**32) has a small exponent; the text
    is named as given (``"1e-5000"`` was shown as a fraction of 16,610 bits)."""
    value = kind(text.strip()) if kind is Decimal else text
    started = time.perf_counter()
    with pytest.raises(InvalidPotError, match="rake fraction must be a finite number in"):
        Rake(value)
    assert time.perf_counter() - started < 5  # (it took minutes; a generous bound)


@pytest.mark.parametrize(("value", "want"), [
    ("5e-2", Fraction(1, 20)), ("0.0500000000", Fraction(1, 20)), ("1E0", Fraction(1)),
    ("2.5e-10", Fraction(1, 4_000_000_000)), (Decimal("0.1"), Fraction(1, 10)),
    ("1/3", Fraction(1, 3)), ("0e-999999999", Fraction(0))])
def test_r34_rake_fractions_with_exponents_in_range_still_read(value: object,
                                                                want: Fraction) -> None:
    assert Rake(value).fraction == want  # type: ignore[arg-type]


@pytest.mark.parametrize("flag", ["no", None, 1, 0.0, np.True_])
def test_r34_rake_flags_are_booleans_not_truthiness(flag: object) -> None:
    """``no_flop_no_drop="no"`` read as True, None as False (also in a pickle edited so)."""
    with pytest.raises(InvalidPotError, match="no_flop_no_drop must be True or False, got"):
        Rake(0.05, no_flop_no_drop=flag)  # type: ignore[arg-type]
    with pytest.raises(InvalidPotError, match="flop_dealt must be True or False, got"):
        Rake(0.05).of(100, flop_dealt=flag)  # type: ignore[arg-type]
    # Protocol 2 has no frames: spliced into a framed pickle (protocol 4 and up), the flag's
    # own frame broke the outer one, which the C unpickler refuses before holdem sees it from
    # CPython 3.13.15 and 3.14.7 on (gh-154848)
    edited = pickle.dumps(Rake(0.05), 2).replace(pickle.dumps(True, 2)[2:-1],
                                                 pickle.dumps(flag, 2)[2:-1])
    assert edited != pickle.dumps(Rake(0.05), 2)
    with pytest.raises(InvalidPotError, match="no_flop_no_drop"):
        pickle.loads(edited)


@pytest.mark.parametrize("bad", ["no", "", None, 2, -1, 0.0, [False],
                                 np.array([0, 1]), np.array([True]), np.array(2)])
def test_r31_folded_entries_are_booleans_not_truthiness(bad: object) -> None:
    """``folded=["no", "no", False]`` read as two folds and paid the third seat everything."""
    with pytest.raises(InvalidPotError, match=r"folded\[0\] must be True or False \(or 0 or 1\)"):
        split_pots([20, 70, 70], [bad, False, False], [1, 2, 3], button=2)


def test_r31_folded_takes_bools_numpy_bools_and_0_or_1() -> None:
    want = split_pots([20, 70, 70], [False, False, True], [1, 2, 3], button=2).payouts
    for folded in ([0, 0, 1], np.array([False, False, True]), [np.False_, np.False_, np.True_],
                   np.array([0, 0, 1], dtype=np.uint8), (False, False, True)):
        assert split_pots([20, 70, 70], folded, [1, 2, 3], button=2).payouts == want


@pytest.mark.parametrize("where", ["committed", "folded", "ranks"])
def test_r31_unordered_collections_are_not_seats(where: str) -> None:
    """A set gave its seats in its own iteration order: ``split_pots({70, 20}, ...)``."""
    args: dict[str, Any] = {"committed": [70, 20], "folded": [False, False], "ranks": [5, 1]}
    args[where] = set(args[where]) if where != "folded" else {0: False, 1: False}
    with pytest.raises(InvalidPotError, match=f"{where} must be a sequence with one entry per"):
        split_pots(args["committed"], args["folded"], args["ranks"], button=0)


@pytest.mark.parametrize("where", ["committed", "folded", "ranks"])
def test_r31_a_huge_sized_input_is_refused_before_it_is_copied(where: str) -> None:
    """R31 inputs: a sized input of more entries than seats (a broadcast numpy array of 2**31
    entries holds 8 bytes) was copied into a tuple first: 24 GB, then the OOM killer."""
    np = pytest.importorskip("numpy")
    args: dict[str, object] = {"committed": [10, 10, 10], "folded": [False] * 3,
                               "ranks": [1, 2, 3]}
    args[where] = np.broadcast_to(np.int64(1), (2**31,))
    with pytest.raises(InvalidPotError, match=f"needs 2 to 10 seats, got 2147483648 {where} "
                                              "entries"):
        split_pots(args["committed"], args["folded"], args["ranks"],  # type: ignore[arg-type]
                   button=0)


@pytest.mark.parametrize("where", ["committed", "folded", "ranks"])
def test_r31_a_length_that_lies_does_not_read_an_endless_input(where: str) -> None:
    """R31 inputs: a sequence whose len() says 3 while its iterator never ends was copied
    into a tuple whole (the memory ran out); at most one entry past the limit is read now."""
    values = {"committed": 10, "folded": False, "ranks": 1}

    class Endless:
        def __len__(self) -> int:
            return 3

        def __iter__(self) -> Any:
            for k in itertools.count():
                assert k < 10_000, "the endless input was read on"
                yield values[where]

    args: dict[str, object] = {"committed": [10, 10, 10], "folded": [False] * 3,
                               "ranks": [1, 2, 3]}
    args[where] = Endless()
    with pytest.raises(InvalidPotError, match=f"needs 2 to 10 seats, got more than 10 {where} "
                                              r"entries \(its len\(\) said fewer\)"):
        split_pots(args["committed"], args["folded"], args["ranks"],  # type: ignore[arg-type]
                   button=0)
