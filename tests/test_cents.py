"""Hand histories in dollars and cents: played in the file's smallest unit, reported in its units.

A file whose amounts have decimals (``0.05``, ``48.37``) is played in chips of ``10**-k`` for
the most decimal places written (cents), so every rule applies to whole cents and R32's odd
chip is the odd cent. Results come back in the file's units.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from phh_corpus import corpus_texts

from holdem import InvalidHistoryError
from holdem.history import chip_unit, game_for, replay
from holdem.phh import HandHistory, loads

CENTS = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.05, 0.1, 0]
min_bet = 0.1
starting_stacks = [10, 10, 5.03]
actions = ['d dh p1 AsKd', 'd dh p2 AhKc', 'd dh p3 7c2d', 'p3 cbr 0.35', 'p1 cc', 'p2 cc',
  'd db 2s3d8h', 'p1 cc', 'p2 cc', 'p3 cc', 'd db Jc', 'p1 cbr 0.5', 'p2 cc', 'p3 f',
  'd db 9s', 'p1 cc', 'p2 cc']
finishing_stacks = [10.18, 10.17, 4.68]
"""


def test_cents_are_the_unit() -> None:
    hh = loads(CENTS)
    assert chip_unit(hh) == Fraction(1, 100)
    game = game_for(hh)
    assert (game.small_blind, game.big_blind) == (5, 10)


def test_odd_cent_goes_left_of_the_button() -> None:
    """R32 in cents: p1 and p2 tie (ace-king high) for a pot of $2.05; the odd cent goes to the
    first winner left of the button (p1), so $1.03 and $1.02. Worked out by hand:
    p1 10 - 0.35 - 0.50 + 1.03 = 10.18; p2 10 - 0.85 + 1.02 = 10.17; p3 5.03 - 0.35 = 4.68."""
    r = replay(loads(CENTS), name="cents.phh")
    assert r.ok and r.chip_unit == Fraction(1, 100)
    assert r.final_stacks == (10.18, 10.17, 4.68)
    assert r.state.result.pots[0].amount == 205  # the engine plays in cents
    assert r.state.result.pots[0].shares == (103, 102)
    assert r.amount(205) == 2.05 and r.odd_chip is None


def test_a_finer_unit_splits_the_odd_cent() -> None:
    r = replay(loads(CENTS), chip_unit="0.005")
    assert r.final_stacks == (10.175, 10.175, 4.68)
    assert r.mismatches == (
        "p1 ends with 10.175, the file says 10.18", "p2 ends with 10.175, the file says 10.17")
    assert replay(loads(CENTS), chip_unit=Decimal("0.01")).ok
    assert replay(loads(CENTS), chip_unit=0.01).ok


@pytest.mark.parametrize(
    ("unit", "why"),
    [
        (1, r"blind 0\.05 is not a whole number of chips"),
        (0.1, r"blind 0\.05 is not a whole number of the chip unit 0\.1"),
        ("0.03", r"not a whole number of the chip unit 0\.03"),
        (0, "chip_unit must be positive"),
        (-1, "chip_unit must be positive"),
        ("a cent", "'a cent' is not a number"),
        (True, "True is not a number"),
    ],
)
def test_bad_units(unit: object, why: str) -> None:
    with pytest.raises(InvalidHistoryError, match=why):
        replay(loads(CENTS), chip_unit=unit)  # type: ignore[arg-type]


def test_amount_off_the_unit_names_the_action() -> None:
    hh = loads(CENTS.replace("'p3 cbr 0.35'", "'p3 cbr 0.355'"))
    assert chip_unit(hh) == Fraction(1, 1000)  # three decimals written: played in mills
    with pytest.raises(InvalidHistoryError, match=r"c\.phh: actions\[3\] 'p3 cbr 0\.355': amount "
                       r"0\.355 is not a whole number of the chip unit 0\.01"):
        replay(hh, name="c.phh", chip_unit="0.01")


def test_whole_chip_files_stay_whole() -> None:
    hh = HandHistory("NT", (0, 0), (1, 2), (100.0, 50), min_bet=2)
    assert chip_unit(hh) == 1
    r = replay(hh)  # heads-up: the button (p2) posts the small blind (R3)
    assert r.final_stacks == (98, 49) and all(isinstance(s, int) for s in r.final_stacks)


#: The Pluribus hands that split an odd chip in halves (tests/test_phh_corpus.py names them).
ODD = ("phh/pluribus/102/0.phh", "phh/pluribus/91/53.phh")


@pytest.fixture(scope="module")
def odd_hands() -> dict[str, HandHistory]:
    return {n: loads(t, name=n) for n, t in corpus_texts("phh/pluribus/") if n in ODD}


def test_odd_chip_is_named_and_a_half_chip_unit_reproduces_the_file(
        odd_hands: dict[str, HandHistory]) -> None:
    """R32 gives the odd chip whole to the first winner left of the button; the files split it.
    The replay says so (``odd_chip``), and playing in half chips reproduces the file exactly."""
    assert set(odd_hands) == set(ODD)
    for name, hh in odd_hands.items():
        r = replay(hh, name=name)
        assert r.chip_unit == 1 and len(r.mismatches) == 2 and r.odd_chip == Fraction(1, 2)
        exact = replay(hh, name=name, chip_unit=r.odd_chip)
        assert exact.ok and exact.final_stacks == hh.finishing_stacks
        # R32: the two winners differ by exactly one chip in whole chips.
        diffs = sorted(a - b for a, b in zip(r.final_stacks, exact.final_stacks, strict=True)
                       if a != b)
        assert diffs == [-0.5, 0.5]


def test_a_real_mismatch_is_not_called_an_odd_chip() -> None:
    hh = loads(CENTS.replace("finishing_stacks = [10.18, 10.17, 4.68]",
                             "finishing_stacks = [10.175, 10.165, 4.68]"))
    r = replay(hh)
    assert r.mismatches and r.odd_chip is None
