"""Bad input to split_pots and Rake raises InvalidPotError naming it (the README's error
contract: a ValueError subclass of holdem.HoldemError, or a TypeError naming the parameter),
whatever the size of the numbers given."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

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
    (lambda: Rake("1e-5000"), "rake fraction"),
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
