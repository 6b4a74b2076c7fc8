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
