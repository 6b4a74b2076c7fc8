"""Pots: uncalled chips (R21), side pots (R31), odd chips (R32), rake (R34)."""

from __future__ import annotations

import random
from array import array
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pots_reference import reference_split

import holdem
from holdem import InvalidPotError, Pot, PotResult, Rake, split_pots
from holdem._pots import resolve, split_pots_batch

LIVE3 = [False, False, False]


# --- R21: uncalled chips ------------------------------------------------------------------

def test_r21_uncalled_part_of_a_bet_is_returned() -> None:
    # Seat 0 bets 100, seat 1 calls all in for 40: 60 were never called.
    r = split_pots([100, 40], [False, False], [1, 2], button=0)
    assert r.returned == (60, 0)
    assert r.pots == (Pot(80, (0, 1), (1,), (80,)),)
    assert r.payouts == (60, 80)


def test_r21_uncalled_bet_returned_when_everyone_folds() -> None:
    # Blinds 1/2, seat 2 raises to 50, both blinds fold: 48 back, the blinds' 3 + 2 called.
    r = split_pots([1, 2, 50], [True, True, False], None, button=2)
    assert r.returned == (0, 0, 48)
    assert r.payouts == (0, 0, 53)
    assert r.pots == (Pot(5, (2,), (2,), (5,)),)


def test_r21_nothing_returned_when_the_top_bet_was_matched() -> None:
    r = split_pots([100, 100, 30], LIVE3, [5, 5, 9], button=0)
    assert r.returned == (0, 0, 0)
    assert r.payouts == (70, 70, 90)


def test_r21_return_is_measured_against_a_folded_caller_too() -> None:
    # Seat 1 called 80 then folded to seat 0's 200: seat 0 gets 120 back, wins 80 + 80 + 20.
    r = split_pots([200, 80, 20], [False, True, False], [3, None, 1], button=0)
    assert r.returned == (120, 0, 0)
    assert r.payouts == (300, 0, 0)


def test_r21_excess_of_a_folded_top_committer_is_returned_too() -> None:
    # Malformed but possible input (a seat folded although nobody bet more): the 60 chips
    # nobody matched go back; the called 40 stay in the pot for seat 1.
    r = split_pots([100, 40], [True, False], None, button=1)
    assert (r.returned, r.payouts) == ((60, 0), (60, 80))


# --- R31: side pots -----------------------------------------------------------------------

ANA, BORIS, VERA = 0, 1, 2
# Seed 002: Ana all in for 20; Boris and Vera call, then bet 50 more each on the turn.
SEED_002 = [20, 20 + 50, 20 + 50]


def test_r31_seed_002_ana_boris_vera_pots() -> None:
    # Ana has the best hand: she wins the 60 main pot; Vera beats Boris for the 100 side pot.
    r = split_pots(SEED_002, LIVE3, [300, 100, 200], button=VERA)
    main, side = r.pots
    assert (main.amount, main.eligible) == (60, (ANA, BORIS, VERA))
    assert (side.amount, side.eligible) == (100, (BORIS, VERA))
    assert main.winners == (ANA,) and side.winners == (VERA,)
    assert r.payouts == (60, 0, 100)


def test_r31_seed_002_short_stack_cannot_win_more_than_she_matched() -> None:
    r = split_pots(SEED_002, LIVE3, [300, 200, 100], button=VERA)
    assert r.payouts == (60, 100, 0)
    r = split_pots(SEED_002, LIVE3, [100, 300, 200], button=VERA)
    assert r.payouts == (0, 160, 0)


def test_r31_folded_chips_stay_in_the_pot_but_folded_seats_cannot_win() -> None:
    # Seat 3 put in 30 then folded holding the best cards (its rank is ignored).
    r = split_pots([20, 70, 70, 30], [False, False, False, True], [1, 2, 3, 9999], button=0)
    assert [(p.amount, p.eligible) for p in r.pots] == [(80, (0, 1, 2)), (110, (1, 2))]
    assert r.payouts == (0, 0, 190, 0)


def test_r31_three_all_in_levels_make_a_main_and_two_side_pots() -> None:
    r = split_pots([10, 40, 100, 100], [False] * 4, [4, 3, 2, 1], button=0)
    assert [(p.amount, p.eligible) for p in r.pots] == [
        (40, (0, 1, 2, 3)), (90, (1, 2, 3)), (120, (2, 3))]
    assert r.payouts == (40, 90, 120, 0)


def test_r31_only_one_seat_left_wins_without_ranks() -> None:
    r = split_pots([10, 40, 40, 25], [True, False, True, True], None, button=3)
    assert r.payouts == (0, 115, 0, 0)
    assert all(p.winners == (1,) for p in r.pots)


def test_r31_dead_chips_above_every_live_level_go_to_the_highest_live_contributor() -> None:
    # Seats 1 and 2 put in 100 each and then both folded (without facing a bet); seat 0 is
    # all in for 40 and seat 3 for 60. The 80 dead chips above 60 join the last pot, which
    # seat 3 (the highest live contributor) alone can win.
    r = split_pots([40, 100, 100, 60], [False, True, True, False], [9, None, None, 1], button=0)
    assert r.returned == (0, 0, 0, 0)
    assert [(p.amount, p.eligible) for p in r.pots] == [(160, (0, 3)), (140, (3,))]
    assert r.payouts == (160, 0, 0, 140)


def test_r31_live_seat_with_nothing_in_wins_only_what_is_dead_when_alone() -> None:
    # A live seat that committed nothing (e.g. all in for 0) still takes a pot that only
    # folded seats paid into, since nobody else is left.
    r = split_pots([0, 5, 5], [False, True, True], None, button=0)
    assert r.payouts == (10, 0, 0)
    assert r.pots == (Pot(10, (0,), (0,), (10,)),)


# --- R32: split pots and odd chips --------------------------------------------------------

def test_r32_fourteen_chips_three_ways_pays_5_5_4_never_6_4_4() -> None:
    # Seat 3 folded after putting in 2: a 14-chip pot tied three ways.
    folded = [False, False, False, True]
    r = split_pots([4, 4, 4, 2], folded, [7, 7, 7, None], button=3)
    assert r.pots[0].amount == 14
    assert r.payouts == (5, 5, 4, 0)


@pytest.mark.parametrize(("button", "expected"), [
    (0, (4, 5, 5, 0)), (1, (5, 4, 5, 0)), (2, (5, 5, 4, 0)), (3, (5, 5, 4, 0))])
def test_r32_odd_chips_start_left_of_the_button(button: int, expected: tuple[int, ...]) -> None:
    r = split_pots([4, 4, 4, 2], [False, False, False, True], [7, 7, 7, None], button=button)
    assert r.payouts == expected


def test_r32_each_pot_is_split_on_its_own() -> None:
    # Main pot 3*5 + 2 = 17 split by seats 0 and 1 (9/8); side pot 2*20 = 40 also tied (20/20);
    # seat 2 is not in the side pot, seat 3 folded. A pooled split would differ.
    r = split_pots([25, 25, 5, 2], [False, False, False, True], [6, 6, 1, None], button=1)
    assert [(p.amount, p.winners, p.shares) for p in r.pots] == [
        (17, (0, 1), (9, 8)), (40, (0, 1), (20, 20))]
    assert r.payouts == (29, 28, 0, 0)


def test_r32_no_seat_gets_two_odd_chips_from_one_pot() -> None:
    # 5 chips over 3 tied winners: 2, 2, 1 clockwise from the seat left of the button.
    r = split_pots([1, 1, 1, 1, 1], [False, False, False, True, True], [5, 5, 5, None, None],
                   button=0)
    assert r.payouts == (1, 2, 2, 0, 0)


# --- R34: rake ----------------------------------------------------------------------------

def test_r34_default_is_no_rake() -> None:
    assert split_pots([50, 50], [False, False], [2, 1], button=0).rake == 0


def test_r34_percentage_is_rounded_down() -> None:
    r = split_pots([19, 20], [False, False], [2, 1], button=0, rake=Rake(Fraction(1, 10)))
    # 38 in the pot (1 uncalled chip back): 3.8 -> 3.
    assert (r.rake, r.payouts, r.returned) == (3, (35, 1), (0, 1))


@pytest.mark.parametrize("fraction", [0.05, Decimal("0.05"), Fraction(5, 100), "0.05", "1/20"])
def test_r34_five_percent_of_100_is_5_not_4(fraction: object) -> None:
    r = split_pots([50, 50], [False, False], [2, 1], button=0, rake=Rake(fraction))  # type: ignore[arg-type]
    assert r.rake == 5
    assert r.payouts == (95, 0)


def test_r34_cap_is_per_hand_not_per_pot() -> None:
    # 10% of 300 is 30, capped at 5 for the whole hand although there are two pots.
    r = split_pots([50, 125, 125], LIVE3, [3, 2, 1], button=0, rake=Rake(0.1, cap=5))
    assert r.rake == 5
    assert [p.rake for p in r.pots] == [5, 0]
    assert r.payouts == (145, 150, 0)


def test_r34_no_flop_no_drop() -> None:
    rake = Rake(0.1, cap=5)
    r = split_pots([10, 10], [False, False], [1, 2], button=0, rake=rake, flop_dealt=False)
    assert r.rake == 0 and r.payouts == (0, 20)
    r = split_pots([10, 10], [False, False], [1, 2], button=0, rake=rake, flop_dealt=True)
    assert r.rake == 2 and r.payouts == (0, 18)
    drop = Rake(0.1, cap=5, no_flop_no_drop=False)
    r = split_pots([10, 10], [False, False], [1, 2], button=0, rake=drop, flop_dealt=False)
    assert r.rake == 2


def test_r34_taken_from_the_main_pot_first() -> None:
    # Main pot 60 (seat 0 wins it) pays all 10 chips of rake; the side pot 100 pays none.
    r = split_pots(SEED_002, LIVE3, [300, 100, 200], button=2, rake=Rake(Fraction(1, 16)))
    assert r.rake == 10
    assert [(p.amount, p.rake, p.shares) for p in r.pots] == [(60, 10, (50,)), (100, 0, (100,))]
    assert r.payouts == (50, 0, 100)


def test_r34_rake_larger_than_the_main_pot_spills_into_the_side_pots() -> None:
    # Main pot 3 * 2 = 6, total 206; 10% = 20: 6 from the main pot, 14 from the side pot.
    r = split_pots([2, 102, 102], LIVE3, [3, 2, 1], button=0, rake=Rake("0.1"))
    assert [(p.amount, p.rake) for p in r.pots] == [(6, 6), (200, 14)]
    assert r.payouts == (0, 186, 0)


def test_r34_rake_is_on_the_pot_after_the_uncalled_return() -> None:
    r = split_pots([10, 110], [False, False], [1, 2], button=0, rake=Rake(0.5))
    assert (r.returned, r.rake, r.payouts) == ((0, 100), 10, (0, 110))


def test_r34_full_rake_and_zero_cap() -> None:
    assert split_pots([7, 7], [False, False], [1, 1], 0, rake=Rake(1)).payouts == (0, 0)
    assert split_pots([7, 7], [False, False], [1, 1], 0, rake=Rake(1, cap=0)).payouts == (7, 7)


# --- rake objects -------------------------------------------------------------------------

def test_rake_is_exact_and_prints() -> None:
    assert Rake(0.05).fraction == Fraction(1, 20)
    assert Rake(0.1) == Rake(Decimal("0.1")) == Rake("1/10") == Rake(Fraction(1, 10))
    assert repr(Rake(0.05, cap=3)) == "Rake('1/20', cap=3)"
    assert eval(repr(Rake(Fraction(1, 3), no_flop_no_drop=False))) == Rake(
        Fraction(1, 3), no_flop_no_drop=False)
    assert str(Rake(0.05, cap=3)) == "5% rake, cap 3 per hand, no flop no drop"
    assert str(Rake("0.025")) == "2.5% rake, no cap, no flop no drop"
    assert Rake(0.05, cap=3).of(1000) == 3
    with pytest.raises(AttributeError):
        Rake(0.05).cap = 2  # type: ignore[misc]


@pytest.mark.parametrize(("args", "kwargs", "needle"), [
    ((-0.01,), {}, "[0, 1]"),
    ((1.5,), {}, "[0, 1]"),
    ((Fraction(3, 2),), {}, "[0, 1]"),
    ((float("nan"),), {}, "finite"),
    ((float("inf"),), {}, "finite"),
    ((True,), {}, "number"),
    ((None,), {}, "int, float"),
    (("five",), {}, "finite"),
    ((Fraction(1, 2**33),), {}, "denominator"),
    ((0.05,), {"cap": -1}, "cap"),
    ((0.05,), {"cap": 2.5}, "cap"),
])
def test_bad_rake_is_rejected(args: tuple[object, ...], kwargs: dict[str, object],
                              needle: str) -> None:
    with pytest.raises(InvalidPotError, match=None) as info:
        Rake(*args, **kwargs)  # type: ignore[arg-type]
    assert needle in str(info.value)


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize(("committed", "folded", "ranks", "button", "needle"), [
    ([10, -1], [False, False], [1, 2], 0, "committed[1] is -1"),
    ([10, 2.5], [False, False], [1, 2], 0, "committed[1]"),
    ([10, "5"], [False, False], [1, 2], 0, "committed[1]"),
    ([10, 2**60], [False, False], [1, 2], 0, "at most"),
    ([10, 10], [False, False], [1, None], 0, "ranks[1] is missing"),
    ([10, 10], [False, False], None, 0, "ranks[0] is missing"),
    ([10, 10, 10], [False, False, True], [1, None, None], 0, "ranks[1] is missing"),
    ([10, 10], [False, False], [1, -3], 0, "ranks[1] is -3"),
    ([10, 10], [False, False], [1, 2.0], 0, "ranks[1]"),
    ([10, 10], [False, False], [1, 2**31], 0, "ranks[1]"),
    ([10, 10], [False], [1, 2], 0, "folded has 1 entries"),
    ([10, 10], [False, False], [1, 2, 3], 0, "ranks has 3 entries"),
    ([10, 10], [False, False], [1, 2], 2, "button must be a seat index in 0..1, got 2"),
    ([10, 10], [False, False], [1, 2], -1, "button"),
    ([10, 10], [False, False], [1, 2], 0.0, "button"),
    ([10], [False], [1], 0, "2 to 10 seats, got 1"),
    ([1] * 11, [False] * 11, [1] * 11, 0, "2 to 10 seats, got 11"),
    ([10, 10], [True, True], [None, None], 0, "every seat folded"),
])
def test_bad_input_raises_invalid_pot_error(committed: list[object], folded: list[bool],
                                            ranks: list[object] | None, button: object,
                                            needle: str) -> None:
    with pytest.raises(InvalidPotError) as info:
        split_pots(committed, folded, ranks, button)  # type: ignore[arg-type]
    assert needle in str(info.value)
    assert isinstance(info.value, ValueError)


def test_numpy_scalars_are_accepted() -> None:
    np = pytest.importorskip("numpy")
    r = split_pots(np.array(SEED_002), np.zeros(3, dtype=bool), np.array([300, 100, 200]),
                   np.int64(2))
    assert r.payouts == (60, 0, 100)
    assert all(type(v) is int for v in r.payouts + r.returned)


def test_bad_rake_argument() -> None:
    with pytest.raises(InvalidPotError, match="Rake"):
        split_pots([1, 1], [False, False], [1, 1], 0, rake=0.05)  # type: ignore[arg-type]


def test_ranks_of_folded_and_uncontested_seats_are_not_needed() -> None:
    # Seat 2 is all alone in the side pot: no rank needed for it... but it contests the main.
    r = split_pots([10, 10, 50], [False, True, False], [1, None, 2], button=0)
    assert r.payouts == (0, 0, 70)
    # With a rank given for a folded seat it is simply ignored.
    assert split_pots([10, 10], [True, False], [100, None], 0).payouts == (0, 20)


# --- result objects -----------------------------------------------------------------------

def test_result_repr_pastes_back_and_str_reads_like_a_hand_history() -> None:
    r = split_pots([100, 40, 120, 45], [False, False, False, True], [7, 9, 7, None], button=0,
                   rake=Rake(0.05, cap=3))
    assert eval(repr(r), {"PotResult": PotResult, "Pot": Pot}) == r
    assert str(r) == (
        "Uncalled 20 returned to seat 2\n"
        "Main pot: 160 chips (seats 0, 1, 2 eligible), rake 3: seat 1 wins 157\n"
        "Side pot 1: 125 chips (seats 0, 2 eligible): split by seats 0, 2 (62, 63)\n"
        "Rake 3")
    assert r.winnings == (62, 157, 63, 0)
    assert r.total == 285
    assert r.pots[1].share_of(2) == 63 and r.pots[1].share_of(1) == 0
    assert r.pots[0].net == 157
    assert hash(r) == hash(eval(repr(r), {"PotResult": PotResult, "Pot": Pot}))


def test_results_and_rake_pickle_copy_and_replace() -> None:
    import copy
    import dataclasses
    import pickle

    r = split_pots(SEED_002, LIVE3, [3, 2, 1], button=0, rake=Rake(0.05, cap=2))
    assert pickle.loads(pickle.dumps(r)) == r
    assert copy.deepcopy(r) == r
    rake = Rake(0.05, cap=2)
    assert pickle.loads(pickle.dumps(rake)) == rake
    assert dataclasses.replace(rake, cap=None) == Rake("1/20")
    with pytest.raises(InvalidPotError):
        dataclasses.replace(rake, cap=-2)


def test_exported_from_the_package() -> None:
    for name in ("Pot", "PotResult", "Rake", "split_pots"):
        assert name in holdem.__all__ and getattr(holdem, name) is not None


# --- properties (hypothesis) --------------------------------------------------------------

@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], list[bool], list[int | None], int]:
    n = draw(st.integers(2, 10))
    committed = draw(st.lists(st.integers(0, 300), min_size=n, max_size=n))
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    assume(not all(folded))
    ranks: list[int | None] = [
        None if f else r
        for f, r in zip(folded, draw(st.lists(st.integers(1, 6), min_size=n, max_size=n)),
                        strict=True)]
    button = draw(st.integers(0, n - 1))
    return committed, folded, ranks, button


rakes = st.one_of(
    st.none(),
    st.builds(Rake, st.fractions(0, 1, max_denominator=1000),
              st.one_of(st.none(), st.integers(0, 50)), st.booleans()))
deads = st.one_of(st.just(0), st.integers(0, 400))   # R7: dead money (a big-blind ante)


@given(hands(), rakes, st.booleans(), deads)
def test_chips_are_conserved(hand: tuple[list[int], list[bool], list[int | None], int],
                             rake: Rake | None, flop: bool, dead: int) -> None:
    committed, folded, ranks, button = hand
    r = split_pots(committed, folded, ranks, button, dead=dead, rake=rake, flop_dealt=flop)
    assert sum(r.payouts) + r.rake == sum(committed) + dead   # R7: dead money included
    assert r.dead == dead
    assert r.rake == sum(p.rake for p in r.pots)
    assert all(sum(p.shares) == p.amount - p.rake for p in r.pots)
    assert r.total + sum(r.returned) == sum(committed) + dead
    # R21: dead money is never returned; the uncalled return does not depend on it.
    assert r.returned == split_pots(committed, folded, ranks, button).returned
    expected_rake = 0 if rake is None else rake.of(r.total, flop_dealt=flop)
    assert r.rake == expected_rake


@given(hands())
def test_nobody_wins_more_from_an_opponent_than_they_matched(
        hand: tuple[list[int], list[bool], list[int | None], int]) -> None:
    committed, folded, ranks, button = hand
    r = split_pots(committed, folded, ranks, button)
    put = [c - back for c, back in zip(committed, r.returned, strict=True)]
    top_live = max(p for p, f in zip(put, folded, strict=True) if not f)
    for seat, won in enumerate(r.winnings):
        bound = sum(min(p, put[seat]) for p in put)
        if put[seat] == top_live:   # documented: dead chips above every live level
            bound += sum(max(0, p - top_live) for p, f in zip(put, folded, strict=True) if f)
        assert won <= bound
    if all(p <= top_live for p in put):   # the usual case: the plain R31 bound
        for seat, won in enumerate(r.winnings):
            assert won <= sum(min(p, put[seat]) for p in put)


@given(hands(), deads)
def test_folded_seats_never_win(hand: tuple[list[int], list[bool], list[int | None], int],
                                dead: int) -> None:
    committed, folded, ranks, button = hand
    r = split_pots(committed, folded, ranks, button, dead=dead)
    for seat, f in enumerate(folded):
        if f:
            assert r.winnings[seat] == 0
            assert all(seat not in p.eligible and seat not in p.winners for p in r.pots)


@given(hands(), rakes, deads)
def test_odd_chips_differ_by_at_most_one_between_tied_winners(
        hand: tuple[list[int], list[bool], list[int | None], int], rake: Rake | None,
        dead: int) -> None:
    committed, folded, ranks, button = hand
    r = split_pots(committed, folded, ranks, button, dead=dead, rake=rake)
    n = len(committed)
    for pot in r.pots:
        assert set(pot.winners) <= set(pot.eligible)
        assert max(pot.shares) - min(pot.shares) <= 1
        # The bigger shares go to the first winners clockwise from left of the button.
        clockwise = sorted(pot.winners, key=lambda s: (s - button - 1) % n)
        in_order = [pot.share_of(s) for s in clockwise]
        assert in_order == sorted(in_order, reverse=True)


@given(hands(), st.integers(0, 9), rakes)
def test_rotating_seats_and_button_rotates_the_result(
        hand: tuple[list[int], list[bool], list[int | None], int], shift: int,
        rake: Rake | None) -> None:
    committed, folded, ranks, button = hand
    n = len(committed)

    def rot(xs: list[object] | tuple[object, ...]) -> list[object]:
        return [xs[(i - shift) % n] for i in range(n)]

    r = split_pots(committed, folded, ranks, button, rake=rake)
    q = split_pots(rot(committed), rot(folded), rot(ranks), (button + shift) % n,  # type: ignore[arg-type]
                   rake=rake)
    assert list(q.payouts) == rot(r.payouts)
    assert list(q.returned) == rot(r.returned)
    assert q.rake == r.rake
    assert len(q.pots) == len(r.pots)
    for a, b in zip(r.pots, q.pots, strict=True):
        assert (a.amount, a.rake) == (b.amount, b.rake)
        assert sorted((s + shift) % n for s in a.eligible) == list(b.eligible)
        assert {(s + shift) % n: a.share_of(s) for s in a.winners} == dict(
            zip(b.winners, b.shares, strict=True))


# --- differential against the plain-Python reference -------------------------------------

def random_hand(rng: random.Random) -> tuple[list[int], list[bool], list[int | None], int]:
    rand = rng.random
    n = 2 + int(rand() * 9)
    if rand() < 0.5:    # few distinct levels: many ties and side pots with equal stacks
        levels = [(0, 1, 2, 5, 10, 25, 100)[int(rand() * 7)] for _ in range(3)]
        committed = [levels[int(rand() * 3)] for _ in range(n)]
    else:
        committed = [int(rand() * 1001) for _ in range(n)]
    folded = [rand() < 0.3 for _ in range(n)]
    if all(folded):
        folded[int(rand() * n)] = False
    ranks: list[int | None] = [None if f else 1 + int(rand() * 4) for f in folded]
    return committed, folded, ranks, int(rand() * n)


def test_agrees_with_the_reference_on_100000_random_hands() -> None:
    rng = random.Random(20261129)
    rake_choices: list[Rake | None] = [
        None, Rake(0.05, cap=3), Rake(Fraction(1, 3)), Rake(0.1, cap=100, no_flop_no_drop=False),
        Rake(1), Rake(Fraction(7, 2**32))]
    with_dead = 0
    for case in range(100_000):
        committed, folded, ranks, button = random_hand(rng)
        rake = rake_choices[case % len(rake_choices)]
        flop = case % 7 != 0
        dead = 0 if rng.random() < 0.7 else (1, 3, 4, 50, 2**59)[int(rng.random() * 5)]
        with_dead += dead > 0
        got = resolve(committed, folded, ranks, button, rake, flop, dead)
        if rake is None:
            want = reference_split(committed, folded, ranks, button, flop_dealt=flop, dead=dead)
        else:
            want = reference_split(committed, folded, ranks, button, rake.fraction, rake.cap,
                                   rake.no_flop_no_drop, flop, dead)
        assert got == want, (case, committed, folded, ranks, button, rake, flop, dead)
    assert with_dead > 25_000


def test_reference_and_kernel_reject_the_same_missing_ranks() -> None:
    rng = random.Random(7)
    rejected = 0
    for _ in range(2000):
        committed, folded, ranks, button = random_hand(rng)
        ranks = [None if rng.random() < 0.3 else r for r in ranks]
        dead = 0 if rng.random() < 0.5 else 1 + int(rng.random() * 10)
        try:
            want = reference_split(committed, folded, ranks, button, dead=dead)
        except ValueError:
            rejected += 1
            with pytest.raises(InvalidPotError, match="missing"):
                resolve(committed, folded, ranks, button, None, True, dead)
        else:
            assert resolve(committed, folded, ranks, button, None, True, dead) == want
    assert rejected > 100


def test_big_amounts_do_not_overflow() -> None:
    big = 2**59
    r = split_pots([big] * 10, [False] * 10, [1] * 10, 0, rake=Rake(Fraction(2**32 - 1, 2**32)))
    assert r.rake == 10 * big * (2**32 - 1) // 2**32
    assert sum(r.payouts) + r.rake == 10 * big


# --- batch entry --------------------------------------------------------------------------

def _matrix(fmt: str, rows: list[list[int]]) -> Any:
    """A C-contiguous 2-D buffer without numpy."""
    flat = array(fmt, [v for row in rows for v in row])
    return memoryview(flat).cast("B").cast(fmt, (len(rows), len(rows[0])))  # type: ignore[call-overload]


def test_batch_agrees_with_single_resolution() -> None:
    rng = random.Random(3)
    rake = Rake(0.05, cap=3)
    for n in (2, 6, 10):
        hands_: list[tuple[list[int], list[bool], list[int | None], int]] = []
        while len(hands_) < 300:
            committed, folded, ranks, button = random_hand(rng)
            if len(committed) == n:
                hands_.append((committed, folded, ranks, button))
        committed_m = _matrix("q", [h[0] for h in hands_])
        folded_m = _matrix("B", [[int(f) for f in h[1]] for h in hands_])
        ranks_m = _matrix("i", [[-1 if r is None else r for r in h[2]] for h in hands_])
        buttons = array("i", [h[3] for h in hands_])
        payouts = _matrix("q", [[0] * n for _ in hands_])
        rake_out = array("q", [0] * len(hands_))
        split_pots_batch(committed_m, folded_m, ranks_m, buttons, payouts, rake_out, rake=rake)
        rows = payouts.tolist()
        for k, (committed, folded, ranks, button) in enumerate(hands_):
            r = split_pots(committed, folded, ranks, button, rake=rake)
            assert tuple(rows[k]) == r.payouts
            assert rake_out[k] == r.rake


def test_batch_with_numpy() -> None:
    np = pytest.importorskip("numpy")
    committed = np.array([SEED_002, [4, 4, 4]], dtype=np.int64)
    folded = np.zeros((2, 3), dtype=bool).view(np.uint8)
    ranks = np.array([[300, 100, 200], [7, 7, 7]], dtype=np.int32)
    payouts = np.zeros((2, 3), dtype=np.int64)
    split_pots_batch(committed, folded, ranks, np.array([2, 0], dtype=np.int32), payouts)
    assert payouts.tolist() == [[60, 0, 100], [4, 4, 4]]


def test_batch_bad_input_names_the_hand() -> None:
    committed = _matrix("q", [[10, 10], [10, 10]])
    folded = _matrix("B", [[0, 0], [0, 0]])
    ranks = _matrix("i", [[1, 2], [1, -1]])
    payouts = _matrix("q", [[0, 0], [0, 0]])
    with pytest.raises(InvalidPotError, match=r"hand 1: ranks\[1\] is missing"):
        split_pots_batch(committed, folded, ranks, array("i", [0, 0]), payouts)
    with pytest.raises(InvalidPotError, match="button"):
        split_pots_batch(committed, folded, _matrix("i", [[1, 2], [1, 2]]),
                         array("i", [0, 2]), payouts)
    with pytest.raises(InvalidPotError, match="shape"):
        split_pots_batch(committed, folded, ranks, array("i", [0, 0]), _matrix("q", [[0, 0]]))
    with pytest.raises(InvalidPotError, match="buttons"):
        split_pots_batch(committed, folded, ranks, array("i", [0]), payouts)
    with pytest.raises(InvalidPotError, match="Rake"):
        split_pots_batch(committed, folded, ranks, array("i", [0, 0]), payouts, rake=0.05)
    with pytest.raises(InvalidPotError, match="rakes"):
        split_pots_batch(committed, folded, ranks, array("i", [0, 0]), payouts, array("q", [0]))
    with pytest.raises(InvalidPotError, match="2 to 10 seats"):
        split_pots_batch(_matrix("q", [[1]]), _matrix("B", [[0]]), _matrix("i", [[1]]),
                         array("i", [0]), _matrix("q", [[0]]))
    with pytest.raises(InvalidPotError, match="committed"):
        split_pots_batch(_matrix("q", [[1, -1]]), _matrix("B", [[0, 0]]),
                         _matrix("i", [[1, 1]]), array("i", [0]), _matrix("q", [[0, 0]]))


# --- documentation ------------------------------------------------------------------------

def test_readme_pots_section_and_module_doctests_run() -> None:
    import doctest
    from pathlib import Path

    import holdem._pots
    import holdem.pots

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Pots", 1)[1].split("\n## ", 1)[0]
    parser = doctest.DocTestParser()
    test = parser.get_doctest(section, {}, "README.md#pots", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).attempted >= 6
    assert runner.summarize(verbose=False).failed == 0
    assert doctest.testmod(holdem.pots).failed == 0
    compiled = doctest.testmod(holdem._pots)
    assert compiled.attempted >= 5 and compiled.failed == 0


@pytest.mark.parametrize("cap", [2**53 + 1, 2**63, 10**30])
def test_r34_a_cap_above_every_chip_at_the_table_is_no_cap_in_a_hand(cap: int) -> None:
    # Game passed the cap to the C rules as an int64: OverflowError from 2**63 on (a PHH
    # _rake of 10**20 made replay fail that way); such a cap takes nothing, as no cap
    from holdem import Game

    h = Game(big_blind=2, rake=Rake(Fraction(1, 20), cap=cap)).new_hand([200, 200], seed=1)
    h.raise_to(100)
    while not h.is_terminal():
        h.check_or_call()
    assert h.result.rake == 10  # 5% of the 200 pot, uncapped


def test_rake_cap_is_read_once_as_a_plain_int() -> None:
    class Liar(int):
        def __lt__(self, other: object) -> bool:
            return False

    with pytest.raises(InvalidPotError, match="rake cap must be >= 0"):
        Rake(Fraction(1, 20), cap=Liar(-5))
    assert type(Rake(Fraction(1, 20), cap=Liar(5)).cap) is int
