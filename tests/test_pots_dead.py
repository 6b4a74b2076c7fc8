"""Dead money in the pots (R7: a big-blind ante is dead money in the main pot, WSOP practice).

``split_pots(..., dead=)`` / ``split_pots_batch(..., dead=)``: chips owned by no seat join the
main pot before the rake (R34) and the odd-chip split (R32), and are never returned as uncalled
(R21). The differential test against tests/pots_reference.py and the hypothesis properties
(conservation, folded seats, odd chips) with random dead money live in tests/test_pots.py.
"""

from __future__ import annotations

import random
from array import array
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_pots import hands, random_hand

from holdem import AnteType, Game, InvalidPotError, Pot, PotResult, Rake, split_pots
from holdem._pots import MAX_CHIPS, MAX_DEAD, split_pots_batch

LIVE3 = [False, False, False]


def test_r7_dead_money_joins_the_main_pot() -> None:
    # Seed 002 stacks plus a 6-chip big-blind ante: the main pot is 3 * 20 + 6 = 66.
    r = split_pots([20, 70, 70], LIVE3, [300, 100, 200], button=2, dead=6)
    assert [(p.amount, p.eligible, p.winners) for p in r.pots] == [
        (66, (0, 1, 2), (0,)), (100, (1, 2), (2,))]
    assert r.payouts == (66, 0, 100)
    assert (r.dead, r.total, r.returned) == (6, 166, (0, 0, 0))


def test_r7_r21_dead_money_is_never_returned_as_uncalled() -> None:
    # Everybody folds to a raise: the uncalled part goes back, the dead money stays in the pot.
    r = split_pots([1, 2, 50], [True, True, False], None, button=2, dead=2)
    assert r.returned == (0, 0, 48)
    assert r.pots == (Pot(7, (2,), (2,), (7,)),)
    assert r.payouts == (0, 0, 55)


def test_r7_r34_rake_counts_dead_money_capped_per_hand_from_the_main_pot() -> None:
    # Pots 66 + 100 = 166; 5% = 8 (floor of 8.3), taken from the main pot.
    r = split_pots([20, 70, 70], LIVE3, [300, 100, 200], button=2, dead=6, rake=Rake(0.05))
    assert r.rake == 8
    assert [(p.amount, p.rake, p.shares) for p in r.pots] == [(66, 8, (58,)), (100, 0, (100,))]
    capped = split_pots([20, 70, 70], LIVE3, [300, 100, 200], 2, dead=6, rake=Rake(0.05, cap=3))
    assert capped.rake == 3 and capped.payouts == (63, 0, 100)
    # Without a flop, no drop: the dead money is paid out whole.
    none = split_pots([20, 70, 70], LIVE3, [300, 100, 200], 2, dead=6, rake=Rake(0.05),
                      flop_dealt=False)
    assert none.rake == 0 and none.payouts == (66, 0, 100)


def test_r7_r32_dead_money_odd_chips_go_clockwise_from_left_of_the_button() -> None:
    # 3 * 4 + 5 dead = 17 chips tied three ways: 6, 6, 5 starting left of the button.
    for button, expected in [(0, (5, 6, 6, 0)), (1, (6, 5, 6, 0)), (2, (6, 6, 5, 0))]:
        r = split_pots([4, 4, 4, 0], [False, False, False, True], [7, 7, 7, None], button,
                       dead=5)
        assert r.payouts == expected


def test_r7_one_seat_left_wins_the_dead_money_without_ranks() -> None:
    r = split_pots([3, 3, 1], [True, False, True], None, button=0, dead=4)
    assert r.payouts == (0, 11, 0)
    assert r.pots == (Pot(11, (1,), (1,), (11,)),)


def test_r7_nothing_committed_the_live_seat_takes_the_dead_money() -> None:
    r = split_pots([0, 0, 0], [True, False, True], None, button=2, dead=9)
    assert r.payouts == (0, 9, 0)
    assert r.pots == (Pot(9, (1,), (1,), (9,)),)
    assert split_pots([0, 0], [False, False], None, 0).pots == ()   # no dead money: no pot


def test_r7_nothing_committed_two_live_seats_need_a_showdown_for_the_dead_money() -> None:
    with pytest.raises(InvalidPotError, match=r"ranks\[0\] is missing"):
        split_pots([0, 0, 0], [False, False, True], None, button=2, dead=9)
    r = split_pots([0, 0, 0], [False, False, True], [5, 8, None], button=2, dead=9)
    assert r.payouts == (0, 9, 0)
    r = split_pots([0, 0, 0], [False, False, True], [5, 5, None], button=2, dead=9)
    assert r.payouts == (5, 4, 0)   # R32: the odd chip to seat 0, first left of the button


def test_r7_live_seat_in_for_nothing_is_eligible_for_the_dead_money_only() -> None:
    # Seat 0 committed nothing but is still in the hand: the dead money is a main pot every live
    # seat contests, and the chips the others put in form a side pot seat 0 cannot win.
    r = split_pots([0, 20, 20], LIVE3, [9, 1, 2], button=2, dead=5)
    assert [(p.amount, p.eligible, p.winners) for p in r.pots] == [
        (5, (0, 1, 2), (0,)), (40, (1, 2), (2,))]
    assert r.payouts == (5, 0, 40)


def test_r7_wsop_big_blind_ante_hand_through_the_state_machine() -> None:
    # The state machine settles a big-blind-ante hand with split_pots(..., dead=) directly.
    g = Game(big_blind=2, ante=4, ante_type=AnteType.BIG_BLIND, rake=Rake(0.1, cap=5))
    s = g.new_hand([100, 100, 200], button=0, hole_cards=["AsAh", "2c3d", "KsKh"],
                   board="4c8d9hJsQd")
    s.all_in()
    s.fold()
    s.call()
    want = split_pots([100, 1, 100], [False, True, False], [2, None, 1], 0, dead=4,
                      rake=Rake(0.1, cap=5))   # aces beat kings on this board
    assert want.payouts == (200, 0, 0) and want.rake == 5
    assert s.result.pots == want.pots and s.result.rake == 5
    assert s.result.final_stacks == (200, 99, 96)


@pytest.mark.parametrize(("dead", "needle"), [
    (-1, "dead is -1; dead money must be >= 0"),
    (True, "dead is True"),
    (2.0, "dead is 2.0"),
    ("3", "dead is '3'"),
    (None, "dead is None"),
    (MAX_DEAD + 1, f"at most {MAX_DEAD}"),
])
def test_r7_bad_dead_money_is_rejected(dead: object, needle: str) -> None:
    with pytest.raises(InvalidPotError) as info:
        split_pots([10, 10], [False, False], [1, 2], 0, dead=dead)  # type: ignore[arg-type]
    assert needle in str(info.value)


def test_r7_dead_money_accepts_index_types_and_huge_amounts() -> None:
    np = pytest.importorskip("numpy")
    r = split_pots([5, 5], [False, True], None, 0, dead=np.int64(3))
    assert r.payouts == (13, 0) and type(r.dead) is int and r.dead == 3
    big = split_pots([MAX_CHIPS] * 10, [False] * 10, [1] * 10, 0, dead=MAX_DEAD,
                     rake=Rake(1, cap=MAX_CHIPS * 10))
    assert big.rake == MAX_CHIPS * 10                 # the cap binds although it is that big
    assert sum(big.payouts) + big.rake == 10 * MAX_CHIPS + MAX_DEAD


def test_r7_result_prints_and_pastes_back_with_dead_money() -> None:
    r = split_pots([1, 10], [True, False], None, button=0, dead=4, rake=Rake(0.2))
    assert eval(repr(r), {"PotResult": PotResult, "Pot": Pot}) == r
    assert r.dead == 4
    assert str(r) == (
        "Uncalled 9 returned to seat 1\n"
        "Dead money 4 in the main pot\n"
        "Main pot: 6 chips (seat 1 eligible), rake 1: seat 1 wins 5\n"
        "Rake 1")


@given(hands(), st.integers(1, 400))
def test_r7_dead_money_never_costs_anyone_without_rake(
        hand: tuple[list[int], list[bool], list[int | None], int], dead: int) -> None:
    committed, folded, ranks, button = hand
    base = split_pots(committed, folded, ranks, button)
    r = split_pots(committed, folded, ranks, button, dead=dead)
    live = tuple(i for i, f in enumerate(folded) if not f)
    assert r.pots[0].eligible == live                 # every seat in the hand can win it
    assert all(a >= b for a, b in zip(r.payouts, base.payouts, strict=True))
    assert sum(r.payouts) - sum(base.payouts) == dead
    if base.pots and base.pots[0].eligible == live:   # the dead money joins that main pot
        assert r.pots[0].amount == base.pots[0].amount + dead
        assert r.pots[1:] == base.pots[1:]
    else:   # a live seat is in for nothing (or nobody is in for anything): a pot of its own
        assert r.pots[0].amount == dead
        assert r.pots[1:] == base.pots


# --- batch --------------------------------------------------------------------------------

def _matrix(fmt: str, rows: list[list[int]]) -> Any:
    flat = array(fmt, [v for row in rows for v in row])
    return memoryview(flat).cast("B").cast(fmt, (len(rows), len(rows[0])))  # type: ignore[call-overload]


def _batch(n: int, count: int, seed: int) -> tuple[list[Any], tuple[Any, ...]]:
    rng = random.Random(seed)
    hands_: list[Any] = []
    while len(hands_) < count:
        hand = random_hand(rng)
        if len(hand[0]) == n:
            hands_.append(hand)
    return hands_, (_matrix("q", [h[0] for h in hands_]),
                    _matrix("B", [[int(f) for f in h[1]] for h in hands_]),
                    _matrix("i", [[-1 if r is None else r for r in h[2]] for h in hands_]),
                    array("i", [h[3] for h in hands_]))


@pytest.mark.parametrize("n", [2, 7, 10])
def test_r7_batch_dead_money_column_and_scalar_agree_with_split_pots(n: int) -> None:
    hands_, args = _batch(n, 200, n)
    rake = Rake(0.05, cap=4)
    column = array("q", [(k * 7) % 13 for k in range(len(hands_))])
    for dead in (column, 6):
        payouts = _matrix("q", [[0] * n for _ in hands_])
        rakes = array("q", [0] * len(hands_))
        split_pots_batch(*args, payouts, rakes, rake=rake, dead=dead)
        for k, (committed, folded, ranks, button) in enumerate(hands_):
            d = dead if isinstance(dead, int) else dead[k]
            r = split_pots(committed, folded, ranks, button, dead=d, rake=rake)
            assert tuple(payouts.tolist()[k]) == r.payouts and rakes[k] == r.rake


def test_r7_batch_dead_money_with_numpy() -> None:
    np = pytest.importorskip("numpy")
    committed = np.array([[20, 70, 70], [0, 0, 0]], dtype=np.int64)
    folded = np.array([[0, 0, 0], [1, 0, 1]], dtype=np.uint8)
    ranks = np.array([[300, 100, 200], [-1, -1, -1]], dtype=np.int32)
    payouts = np.zeros((2, 3), dtype=np.int64)
    split_pots_batch(committed, folded, ranks, np.array([2, 0], dtype=np.int32), payouts,
                     dead=np.array([6, 9], dtype=np.int64))
    assert payouts.tolist() == [[66, 0, 100], [0, 9, 0]]
    split_pots_batch(committed, folded, ranks, np.array([2, 0], dtype=np.int32), payouts,
                     dead=np.int64(1))
    assert payouts.tolist() == [[61, 0, 100], [0, 1, 0]]


def test_r7_batch_bad_dead_money_names_the_hand() -> None:
    _, args = _batch(3, 3, 1)
    payouts = _matrix("q", [[0] * 3 for _ in range(3)])
    with pytest.raises(InvalidPotError, match=r"hand 1: dead money is -1; it must be"):
        split_pots_batch(*args, payouts, dead=array("q", [0, -1, 0]))
    with pytest.raises(InvalidPotError, match="dead has 2 entries for 3 hands"):
        split_pots_batch(*args, payouts, dead=array("q", [0, 0]))
    with pytest.raises(InvalidPotError, match="int64 buffer"):
        split_pots_batch(*args, payouts, dead=array("i", [0, 0, 0]))
    with pytest.raises(InvalidPotError, match="dead is -2"):
        split_pots_batch(*args, payouts, dead=-2)
    with pytest.raises(InvalidPotError, match=r"dead is 1\.5"):
        split_pots_batch(*args, payouts, dead=1.5)
