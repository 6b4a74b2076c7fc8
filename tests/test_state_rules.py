"""One test (at least) per rule of RULES.md that applies to a single hand (R1-R33).

R4 (button movement) and R10 (tournament schedules) span several hands: they belong to the
table; a hand only honours the ``button`` it is given (tested under R1/R2).
"""

from __future__ import annotations

from typing import Any

import pytest

from holdem import (
    AnteType,
    DealStart,
    Game,
    HandState,
    Mode,
    SeatStatus,
    Street,
    Structure,
    parse_cards,
)
from holdem.errors import IllegalActionError, InvalidConfigError
from holdem.hand._reference import _deal_order

NL = Game(big_blind=2)
PL = Game(structure=Structure.POT_LIMIT, big_blind=2)
FL = Game(structure=Structure.FIXED_LIMIT, big_blind=20)

# Nine distinct dummy hands for seats that do not reach a showdown in the test.
HOLES = ["2c3d", "4c5d", "6c7d", "8c9d", "TcJd", "QcKd", "Ac2d", "3c4d", "5c6d", "7c8d"]
BOARD = "2h7h9sJsKh"


def deal(game: Game, stacks: list[int], *, button: int = 0, holes: list[str] | None = None,
         board: str = BOARD) -> HandState:
    holes = holes or HOLES[: len(stacks)]
    return game.new_hand(stacks, button=button, hole_cards=holes, board=board)


def check_down(state: HandState) -> None:
    while not state.is_terminal():
        state.check_or_call()


# --------------------------------------------------------------------------- table, blinds
def test_r1_two_to_ten_players() -> None:
    for n in (2, 10):
        assert NL.new_hand([100] * n, button=n - 1, seed=1).num_players == n
    for n in (1, 11):
        with pytest.raises(InvalidConfigError, match="2 to 10"):
            NL.new_hand([100] * n, seed=1)
    with pytest.raises(InvalidConfigError, match="button"):
        NL.new_hand([100] * 3, button=3, seed=1)


def test_r2_blinds_left_of_button() -> None:
    s = deal(NL, [100] * 4, button=2)
    assert (s.small_blind_seat, s.big_blind_seat) == (3, 0)
    assert s.bets == (2, 0, 0, 1) and s.actor == 1


def test_r3_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    s = deal(NL, [100, 100], button=1)
    assert s.small_blind_seat == 1 and s.bets == (2, 1) and s.actor == 1
    s.call()
    s.check()
    assert s.street is Street.FLOP and s.actor == 0  # the button acts last after the flop


def test_r5_small_blind_is_half_the_big_blind_rounded_down() -> None:
    assert Game(big_blind=5).small_blind == 2
    assert Game(big_blind=5, small_blind=3).small_blind == 3
    assert Game(big_blind=5, small_blind=0).small_blind == 0
    assert deal(Game(big_blind=5), [100] * 3).bets == (0, 2, 5)
    # no number stands for the default: -1 was once read as "not given"
    for bad in (-1, -2):
        with pytest.raises(InvalidConfigError, match=f"small_blind must be at least 0, got {bad}"):
            Game(big_blind=5, small_blind=bad)
    with pytest.raises(InvalidConfigError, match="small bet"):
        Game(structure=Structure.FIXED_LIMIT, big_blind=2, small_bet=4)


def test_r6_live_big_blind_may_check_or_raise() -> None:
    s = deal(NL, [100] * 3)
    s.call()
    s.call()
    la = s.legal_actions()
    assert la.seat == 2 and la.can_check and la.can_raise and la.min_to == 4
    s.raise_to(6)
    assert s.street is Street.PREFLOP and s.actor == 0


def test_r7_antes_uniform_big_blind_and_none() -> None:
    assert deal(NL, [100] * 3).pot == 3  # no ante by default
    s = deal(Game(big_blind=2, ante=1), [100] * 3)
    assert s.pot == 6 and s.bets == (0, 1, 2) and s.stacks == (99, 98, 97)
    assert s.legal_actions().call == 2  # antes are dead: not part of the bet to call
    s = deal(Game(big_blind=2, ante=2, ante_type=AnteType.BIG_BLIND), [100] * 3)
    assert s.stacks == (100, 99, 96) and s.pot == 5
    assert [p.kind for p in s.posts] == ["small_blind", "big_blind", "big_blind_ante"]


def test_r8_straddle() -> None:
    g = Game(big_blind=2, straddle=True)
    s = deal(g, [100] * 4)
    assert s.bets == (0, 1, 2, 4) and s.actor == 0  # action starts left of the straddler
    la = s.legal_actions()
    assert la.call == 4 and la.min_to == 8
    s.call()
    s.call()
    s.call()
    la = s.legal_actions()  # the straddler acts last with the option to raise
    assert la.seat == 3 and la.can_check and la.can_raise
    with pytest.raises(InvalidConfigError, match="cash games only"):
        Game(big_blind=2, straddle=True, mode=Mode.TOURNAMENT)


def test_r9_short_blind_posts_all_in_call_and_raise_from_full_blind() -> None:
    s = deal(Game(big_blind=10), [100, 100, 6])
    assert s.bets == (0, 5, 6) and s.status(2) is SeatStatus.ALL_IN
    la = s.legal_actions()
    assert la.seat == 0 and la.call == 10 and la.min_to == 20


# --------------------------------------------------------------------------- the deal
def test_r11_shuffled_per_seed() -> None:
    a = NL.new_hand([100] * 6, seed=5)
    b = NL.new_hand([100] * 6, seed=5)
    c = NL.new_hand([100] * 6, seed=6)
    assert a.hole_cards == b.hole_cards and a.hole_cards != c.hole_cards
    cards = [x for h in a.hole_cards for x in h or ()]
    check_down(a)
    cards += [*a.board, *a.burned]
    assert len(cards) == len(set(cards)) == 12 + 5 + 3


def test_r12_deal_one_at_a_time_from_left_of_button_or_big_blind() -> None:
    order = _deal_order(9, 2 * 4 + 8)
    s = NL.new_hand([100] * 4, button=1, seed=9)
    assert s.hole_cards[2] == (order[0], order[4]) and s.hole_cards[1] == (order[3], order[7])
    g = Game(big_blind=2, deal_start=DealStart.LEFT_OF_BIG_BLIND)
    s = g.new_hand([100] * 4, button=1, seed=9)
    assert s.hole_cards[0] == (order[0], order[4])  # big blind is seat 3; seat 0 is left of it


def test_r13_r14_burn_before_each_street_flop_turn_river() -> None:
    s = NL.new_hand([100] * 3, seed=11)
    order = _deal_order(11, 14)
    assert s.board == () and s.burned == ()
    seen = []
    while not s.is_terminal():
        s.check_or_call()
        seen.append((len(s.board), len(s.burned)))
    assert (3, 1) in seen and (4, 2) in seen and (5, 3) in seen
    assert list(s.burned) == [order[6], order[10], order[12]]
    assert list(s.board) == [order[7], order[8], order[9], order[11], order[13]]


# --------------------------------------------------------------------------- betting
def test_r15_four_betting_rounds() -> None:
    s = deal(NL, [100] * 3)
    streets = []
    while not s.is_terminal():
        streets.append(s.street)
        s.check_or_call()
    assert sorted(set(streets)) == [Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER]
    assert s.street is Street.SHOWDOWN


def test_r16_first_to_act() -> None:
    s = deal(NL, [100] * 5)
    assert s.actor == 3  # left of the big blind
    s.call()
    s.call()
    s.call()
    s.fold()  # the small blind folds
    s.check()
    assert s.street is Street.FLOP and s.actor == 2  # first active seat left of the button


def test_r17_actions_and_forced_bet_counts_as_bet() -> None:
    s = deal(NL, [100] * 3)
    la = s.legal_actions()
    assert not la.can_check and la.can_fold and not la.is_bet  # the big blind is a bet
    with pytest.raises(IllegalActionError, match="check is not allowed"):
        s.check()
    s.call()
    s.call()
    la = s.legal_actions()
    assert la.can_check and not la.can_fold  # folding when checking is free: not offered
    with pytest.raises(IllegalActionError, match="fold is not offered"):
        s.fold()
    s2 = deal(Game(big_blind=2, fold_when_check_free=True), [100] * 3)
    s2.call()
    s2.call()
    assert s2.legal_actions().can_fold
    # all in is a raise of every chip; nobody may raise when all others are all in
    s3 = deal(NL, [50, 100, 30])
    s3.all_in()
    assert s3.history[-1].type.name == "RAISE" and s3.history[-1].all_in
    s3.call()  # small blind calls 50
    la = s3.legal_actions()  # big blind: 30 chips, all others all in or covered
    assert la.call == 28 and not la.can_raise
    with pytest.raises(IllegalActionError, match=r"R18|R17"):
        s3.raise_to(60)


def test_r18_call_all_in_for_less() -> None:
    s = deal(NL, [10, 100, 100, 100])
    s.raise_to(40)  # seat 3
    la = s.legal_actions()  # seat 0 has 10 chips
    assert la.seat == 0 and la.call == 10 and not la.can_raise
    s.call()
    assert s.status(0) is SeatStatus.ALL_IN and s.bets[0] == 10


def test_r19_round_end_and_last_player_wins_at_once() -> None:
    s = deal(NL, [100] * 3)
    s.raise_to(6)
    s.fold()
    s.fold()
    assert s.is_terminal() and s.board == () and s.payoffs == (3, -1, -2)
    assert s.result.returned == (4, 0, 0)  # R21 too: the uncalled 4 comes back


def test_r20_all_in_run_out_without_betting() -> None:
    s = deal(NL, [100, 100, 40])
    s.all_in()
    s.fold()
    s.call()  # the big blind calls all in for 40
    assert s.is_terminal() and len(s.board) == 5 and s.street is Street.SHOWDOWN


def test_r21_uncalled_bet_returned() -> None:
    s = deal(NL, [100, 100, 30])
    s.raise_to(100)  # seat 0 all in for 100
    s.fold()
    s.call()  # seat 2 calls all in for 30
    # 70 of seat 0's raise is uncalled and goes back before the pots are formed
    assert s.committed == (30, 1, 30)
    assert s.stacks[0] == 70 and s.is_terminal()


def test_r22_no_limit_min_bet_big_blind_max_stack() -> None:
    s = deal(NL, [100] * 3)
    s.call()
    s.call()
    s.check()
    la = s.legal_actions()
    assert la.is_bet and (la.min_to, la.max_to) == (2, 98)
    with pytest.raises(IllegalActionError, match="bet to 1 is below the minimum bet to 2"):
        s.bet(1)


def test_r23_minimum_raise_seed_002_examples() -> None:
    s = deal(NL, [1000] * 4)
    check_preflop_to_flop(s)
    s.bet(4)
    assert s.legal_actions().min_to == 8  # bet 4 -> min raise to 8
    with pytest.raises(IllegalActionError, match="raise to 6 is below the minimum raise to 8"):
        s.raise_to(6)
    s.raise_to(20)  # +16 >= 4
    assert s.legal_actions().min_to == 36
    s2 = deal(NL, [1000] * 4)
    check_preflop_to_flop(s2)
    s2.bet(8)
    s2.raise_to(20)  # +12
    assert s2.legal_actions().min_to == 32  # raise to 20 (+12) -> next min raise to 32


def check_preflop_to_flop(s: HandState) -> None:
    while s.street is Street.PREFLOP:
        s.check_or_call()


def test_r24_short_all_in_does_not_reopen_but_several_together_do() -> None:
    s2 = deal(NL, [1000, 1000, 1000, 140, 170])
    check_preflop_to_flop(s2)
    s2.bet(100)  # seat 1
    s2.call()  # seat 2
    s2.all_in()  # seat 3: 138, short (+38)
    la = s2.legal_actions()  # seat 4 has not acted: may raise, min to 138 + 100
    assert la.seat == 4 and la.can_raise and la.min_to == 168
    s2.all_in()  # seat 4: 168 total, +30 short; together +68 over seat 1's 100: still short
    s2.call()  # seat 0 calls 168
    la = s2.legal_actions()
    assert la.seat == 1 and not la.can_raise
    with pytest.raises(IllegalActionError, match="did not reopen"):
        s2.raise_to(400)
    before = s2.clone()
    assert s2 == before
    # several short all-ins that together make a full raise reopen the betting (TDA 47)
    s3 = deal(NL, [1000, 1000, 1000, 160, 210])
    check_preflop_to_flop(s3)
    s3.bet(100)  # seat 1
    s3.call()  # seat 2
    s3.all_in()  # seat 3: 158 (+58, short)
    s3.all_in()  # seat 4: 208 (+50, short) -> seat 1 faces +108 >= 100
    s3.call()  # seat 0
    la = s3.legal_actions()
    assert la.seat == 1 and la.can_raise and la.min_to == 308


def test_r25_pot_limit_maximum() -> None:
    s = deal(PL, [1000] * 4)
    la = s.legal_actions()
    assert la.max_to == 7  # 2 + (pot 3 + call 2)
    s.raise_to(7)
    assert s.legal_actions().max_to == 7 + 3 + 7 + 7  # 24
    s2 = deal(PL, [1000] * 3)
    check_preflop_to_flop(s2)  # pot 6
    s2.bet(6)
    assert s2.legal_actions().max_to == 6 + 12 + 6  # 24: bet plus the pot after calling
    with pytest.raises(IllegalActionError, match="above the maximum raise to 24"):
        s2.raise_to(25)


def test_r26_fixed_limit_bet_sizes() -> None:
    s = deal(FL, [10000] * 3)
    assert (s.legal_actions().min_to, s.legal_actions().max_to) == (40, 40)
    check_preflop_to_flop(s)
    assert s.legal_actions().min_to == 20
    while s.street is Street.FLOP:
        s.check()
    assert s.legal_actions().max_to == 40  # big bet on the turn
    with pytest.raises(IllegalActionError, match="only bet is to 40"):
        s.bet(60)


def test_r27_cap_bet_and_three_raises_big_blind_is_the_bet() -> None:
    s = deal(FL, [10000] * 3)
    s.raise_to(40)
    s.raise_to(60)
    s.raise_to(80)  # BB + 3 raises: capped
    la = s.legal_actions()
    assert not la.can_raise and la.call == 40
    with pytest.raises(IllegalActionError, match="capped"):
        s.raise_to(100)
    # heads-up the cap holds by default; cap_heads_up=False lifts it
    hu = deal(FL, [10000] * 2)
    for to in (40, 60, 80):
        hu.raise_to(to)
    assert not hu.legal_actions().can_raise
    lifted = deal(Game(structure=Structure.FIXED_LIMIT, big_blind=20, cap_heads_up=False),
                  [10000] * 2)
    for to in (40, 60, 80, 100):
        lifted.raise_to(to)
    assert lifted.legal_actions().can_raise


@pytest.mark.parametrize("core", ["compiled", "reference"])
def test_r27_lifted_cap_stays_capped_once_reached_multiway(core: str) -> None:
    """R27 option ``cap_heads_up=False`` (Robert's Rules, "Betting and raising" 4): raising
    is unlimited when the action becomes heads-up before the raising has been capped; once
    the raising is capped on a betting round, a later fold that leaves two players
    heads-up does not uncap it. Both cores."""
    from holdem.hand.game import ReferenceHandState

    game = Game(structure=Structure.FIXED_LIMIT, big_blind=20, cap_heads_up=False)

    def start(stacks: list[int]) -> HandState:
        if core == "compiled":
            return deal(game, stacks)
        return ReferenceHandState._start(  # type: ignore[return-value]
            game, stacks, 0, None, HOLES[: len(stacks)], BOARD)

    s = start([10000] * 3)  # button 0 acts first, then the small blind 1, the big blind 2
    s.raise_to(40)
    s.raise_to(60)
    s.raise_to(80)  # the big blind and three raises: capped with three players in
    s.fold()  # seat 0 folds: seats 1 and 2 are heads-up, the round already capped
    la = s.legal_actions()
    assert la.seat == 1 and not la.can_raise and la.call == 20
    with pytest.raises(IllegalActionError, match="capped"):
        s.raise_to(100)
    s.call()
    assert s.street is Street.FLOP
    # heads-up before the cap: unlimited raising on the next round
    for to in (20, 40, 60, 80, 100, 120):
        s.bet_or_raise(to)
    assert s.legal_actions().can_raise
    # heads-up before the cap is reached preflop: unlimited
    t = start([10000] * 3)
    t.fold()  # seat 0 folds: heads-up after one bet
    for to in (40, 60, 80, 100, 120):
        t.raise_to(to)
    assert t.legal_actions().can_raise


def test_r28_fixed_limit_half_bet_rule() -> None:
    # $20 round: a $15 all-in (>= half a bet) is a full bet; the next raise goes to $35
    s = deal(FL, [1000, 1000, 1000, 15 + 20])
    check_preflop_to_flop(s)  # seat 3 has 15 left
    s.check()  # seat 1
    s.check()  # seat 2
    s.all_in()  # seat 3 bets 15
    la = s.legal_actions()
    assert la.seat == 0 and (la.min_to, la.max_to) == (35, 35)
    s.call()
    la = s.legal_actions()  # seat 1 checked before: a full bet reopens
    assert la.can_raise and la.min_to == 35
    # less than half a bet: no reopening; a seat yet to act completes to L + S
    s2 = deal(FL, [1000, 1000, 1000, 8 + 20])
    check_preflop_to_flop(s2)
    s2.check()
    s2.check()
    s2.all_in()  # 8 < 10
    la = s2.legal_actions()
    assert la.seat == 0 and la.min_to == 20  # completes the wager to 20
    s2.call()
    assert not s2.legal_actions().can_raise  # seat 1 checked and faces 8: call or fold


# --------------------------------------------------------------------------- showdown
def test_r29_best_five_of_seven_board_plays() -> None:
    s = deal(NL, [100, 100], holes=["2c3d", "2d3c"], board="AhKhQhJhTh")
    check_down(s)
    assert s.payoffs == (0, 0)  # the board plays for both: split
    assert s.result.pots[0].winners == (0, 1)


def test_r30_hand_ranking_wheel_and_kickers() -> None:
    # A-2-3-4-5 straight (ace low) beats three of a kind; 6-high straight beats the wheel
    s = deal(NL, [100] * 3, holes=["Ac2d", "9c9d", "6s2h"], board="3h4c5d9hKs")
    check_down(s)
    assert s.result.pots[0].winners == (2,)
    s = deal(NL, [100] * 2, holes=["Ac2d", "9c9d"], board="3h4c5d9hKs")
    check_down(s)
    assert s.result.pots[0].winners == (0,)
    # kicker decides; suits never do
    s = deal(NL, [100] * 3, holes=["AcQd", "AdJc", "AsQc"], board="Ah7c5d3s2h")
    check_down(s)
    assert s.result.pots[0].winners == (0, 2)


def test_r31_side_pots_seed_002_ana_boris_vera() -> None:
    # Ana (seat 0) 20, Boris (1) and Vera (2) 100; Ana all in for 20, both call, then both
    # bet 50 on the turn: main pot 60 (all three), side pot 100 (Boris, Vera).
    g = Game(big_blind=2, small_blind=1)
    s = g.new_hand([20, 100, 100], button=0, hole_cards=["AsAh", "KsKh", "QsQh"],
                   board="2c7d9hJc3s")
    s.all_in()
    s.call()
    s.call()
    s.check()
    s.check()
    s.bet(50)
    s.call()
    s.check()
    s.check()
    pots = s.result.pots
    assert [(p.amount, p.eligible) for p in pots] == [(60, (0, 1, 2)), (100, (1, 2))]
    assert s.result.final_stacks == (60, 130, 30)


def test_r32_odd_chip_to_first_winner_left_of_button() -> None:
    g = Game(big_blind=3, small_blind=1)
    s = g.new_hand([100] * 3, button=0, hole_cards=["2c3d", "4s5s", "4d5c"],
                   board="AhKhQh9s8c")
    s.fold()
    s.call()  # small blind completes: pot 6 split 3/3; fold seat 0 first
    s.check()
    check_down(s)
    assert s.payoffs == (0, 0, 0)
    s = g.new_hand([100] * 3, button=0, hole_cards=["2c3d", "9c4s", "9d4d"],
                   board="AhKhQh9s8c")
    s.call()  # seat 0 limps 3 and loses; pot 9 split between seats 1 and 2: odd chip to seat 1
    s.call()
    s.check()
    check_down(s)
    assert s.result.pots[0].shares == (5, 4) and s.payoffs == (-3, 2, 1)


def test_r33_showdown_order_and_mucking() -> None:
    holes = ["2c3d", "AsAh", "KsKh"]
    s = deal(NL, [100] * 3, holes=holes, board="2h7c9sJd4d")
    check_preflop_to_flop(s)
    while s.street is not Street.RIVER:
        s.check()
    s.check()  # seat 1
    s.bet(10)  # seat 2 bets the river: shows first
    s.call()  # seat 0
    s.call()  # seat 1
    res = s.result
    assert res.showdown_order == (2, 0, 1)
    assert res.mucked == (0,) and 0 not in res.shown  # seat 0's 2-3 lost to the kings: mucked
    assert set(res.shown) == {1, 2} and res.pots[0].winners == (1,)
    # no river bet: the first active seat left of the button shows first
    s = deal(NL, [100] * 3, holes=holes, board="2h7c9sJd4d")
    check_down(s)
    assert s.result.showdown_order == (1, 2, 0)
    # everyone all in: all hands are shown
    s = deal(NL, [100] * 3, holes=holes, board="2h7c9sJd4d")
    s.all_in()
    s.call()
    s.call()
    assert s.result.mucked == () and set(s.result.shown) == {0, 1, 2}
    assert s.result.descriptions[1]
    # show_all option
    g = Game(big_blind=2, muck_losing_hands=False)
    s = deal(g, [100] * 3, holes=holes, board="2h7c9sJd4d")
    check_down(s)
    assert s.result.mucked == ()


def test_cards_given_partly_unknown_for_folded_seats() -> None:
    s = NL.new_hand([100] * 3, button=0, hole_cards=[None, "AsAh", None], board=None)
    s.fold()
    s.fold()
    assert s.is_terminal() and s.payoffs == (0, -1, 1)
    s = NL.new_hand([100] * 3, button=0, hole_cards=[None, "AsAh", "KsKh"], board="2c3c4c")
    s.fold()
    s.call()
    before = s.clone()
    with pytest.raises(Exception, match="board needs 4"):
        s.check()
        s.check()
        s.check()
    # the failing action leaves the state as it was before it
    assert s.street is Street.FLOP and s.board == tuple(parse_cards("2c3c4c"))
    assert before.street is Street.PREFLOP


@pytest.mark.parametrize("seed", range(40))
def test_r19_r21_lone_winner_fast_path_equals_split_pots(seed: int) -> None:
    """The no-showdown shortcut of holdem.hand._settle gives exactly what split_pots gives."""
    import random

    from holdem import split_pots
    from holdem.hand._settle import _lone_result, _lone_winner

    rng = random.Random(seed)
    n = rng.randint(2, 10)
    committed = [rng.randint(0, 50) for _ in range(n)]
    w = rng.randrange(n)
    committed[w] = max(committed) + rng.randint(0, 30)
    folded = [j != w for j in range(n)]
    stacks = [rng.randint(0, 100) for _ in range(n)]
    lone = _lone_winner(folded, committed)
    if lone is None:
        assert sum(committed) - (committed[w] - sorted(committed)[-2]) <= 0
        return
    fast = _lone_result(lone, committed, stacks, stacks)
    ref = split_pots(committed, folded, None, button=0)
    assert fast.pots == ref.pots and fast.returned == ref.returned
    assert fast.final_stacks == tuple(s + p for s, p in zip(stacks, ref.payouts, strict=True))


def test_r7_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    # WSOP practice (the Event #43 hands replay this way): the big blind's ante is never an
    # uncalled bet. Seat 2 (big blind, 200) posts 2 + ante 4 and shoves; seat 0 calls with less.
    g = Game(big_blind=2, ante=4, ante_type=AnteType.BIG_BLIND)
    s = g.new_hand([100, 100, 200], button=0, hole_cards=["AsAh", "2c3d", "KsKh"],
                   board="4c8d9hJsQd")
    assert s.pot == 7 and s.committed == (0, 1, 2)  # the ante is in the pot, not committed
    s.all_in()  # seat 0: all in to 100
    s.fold()  # seat 1 (small blind)
    s.call()  # seat 2 calls 100 (98 more)
    res = s.result
    assert res.returned == (0, 0, 0)
    assert [(p.amount, p.winners) for p in res.pots] == [(205, (0,))]
    assert res.final_stacks == (205, 99, 96)


def _both_cores(game: Game, stacks: list[int], **kw: object) -> list[object]:
    from holdem.hand.game import ReferenceHandState

    holes, board = kw.get("hole_cards"), kw.get("board")
    return [game.new_hand(stacks, button=0, hole_cards=holes, board=board),  # type: ignore[arg-type]
            ReferenceHandState._start(game, stacks, 0, None, holes, board)]


@pytest.mark.parametrize("river_bet", [False, True])
def test_r33_unknown_hand_reaching_showdown_raises_at_the_last_action(river_bet: bool) -> None:
    """R33: the first seat to show with unknown cards is named when the hand ends (not later,
    when the result is read), by both cores, and the failed action changes nothing."""
    from holdem.errors import InvalidHandError

    holes = [None, "AsAh", None]  # seats 0 and 2 unknown; seat 1 folds
    for s in _both_cores(NL, [100] * 3, hole_cards=holes, board="2c3c4c5d9h"):
        s.call()  # type: ignore[attr-defined]  # seat 0
        s.fold()  # type: ignore[attr-defined]  # seat 1
        for _ in range(6):  # seat 2 checks preflop; flop and turn checked through; river
            s.check()  # type: ignore[attr-defined]
        assert s.actor == 0 and s.street is Street.RIVER  # type: ignore[attr-defined]
        if river_bet:
            s.bet(4)  # type: ignore[attr-defined]  # seat 0 shows first (R33)
            last, named = "call", 0
        else:
            last, named = "check", 2  # first left of the button
        before = s.clone()  # type: ignore[attr-defined]
        with pytest.raises(InvalidHandError, match=f"seat {named} reaches the showdown"):
            getattr(s, last)()
        assert s == before and not s.is_terminal()  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(30))
def test_r29_r33_result_on_first_use_equals_reference(seed: int) -> None:
    """The compiled core settles a finished hand when its result is first read; clones and
    pickles taken before that give the same result as the reference core."""
    import pickle
    import random

    rnd = random.Random(seed)
    n = rnd.randint(2, 6)
    stacks = [rnd.randint(5, 60) for _ in range(n)]
    game = FL if seed % 2 else NL
    s = game.new_hand(stacks, button=seed % n, seed=seed)
    from holdem.hand.game import ReferenceHandState

    ref = ReferenceHandState._start(game, stacks, seed % n, seed, None, None)
    while not s.is_terminal():
        la = s.legal_actions()
        kind = rnd.choice([k for k, ok in ((0, la.can_fold), (1, True), (2, la.can_raise)) if ok])
        to = rnd.randint(la.min_to, la.max_to) if kind == 2 else 0  # type: ignore[arg-type]
        s.apply_unchecked(kind, to)
        ref.apply_unchecked(kind, to)
    copy, pickled = s.clone(), pickle.loads(pickle.dumps(s))
    assert s.result == ref.result == copy.result == pickled.result
    assert s.payoffs == ref.payoffs and sum(s.payoffs) == 0


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_r13_one_burn_before_flop_turn_and_river(players: int) -> None:
    """R13: a card is burned before the flop, the turn and the river: after the 2n hole cards,
    the deck's next cards are burn, flop (3), burn, turn, burn, river."""
    from holdem import Deck

    for seed in range(20):
        st = Game(big_blind=2).new_hand([100] * players, button=0, seed=seed)
        burns_by_street = []
        while not st.is_terminal():
            la = st.legal_actions()
            st.check() if la.can_check else st.call()
            burns_by_street.append((len(st.board), len(st.burned)))
        assert {(3, 1), (4, 2), (5, 3)} <= set(burns_by_street)
        assert all(b == {0: 0, 3: 1, 4: 2, 5: 3}[n] for n, b in burns_by_street)
        deck = Deck(seed=st.seed)
        order = [deck.deal_one() for _ in range(2 * players + 8)]
        rest = order[2 * players:]
        assert list(st.burned) == [rest[0], rest[4], rest[6]]
        assert list(st.board) == [rest[1], rest[2], rest[3], rest[5], rest[7]]


def test_r20_a_lone_stack_covering_a_short_big_blind_does_not_act() -> None:
    """R20 with R9: the big blind posts all in for less than the small blind put in, and the
    small blind is the only seat left with chips. The bets are matched (nobody can call
    more), so the board is dealt: the small blind was asked to act, offered a fold of a pot
    it covers and a call of R9's full big blind that nobody could match (pokerkit and real
    dealers deal on). Facing a short big blind bigger than its own post, it still acts."""
    from holdem.hand.game import HandState, ReferenceHandState

    for cls in (HandState, ReferenceHandState):
        def start(game: Game, stacks: list[int], button: int, cls: type = cls) -> Any:
            return cls._start(game, stacks, button, 1, None, None)

        hu = start(Game(big_blind=10), [87, 1], 0)  # the button posts 5, the big blind 1
        assert hu.is_terminal() and len(hu.board) == 5 and not hu.raw_history()
        assert hu.result.returned == (4, 0) and sum(hu.result.payoffs) == 0
        three = start(Game(big_blind=10), [100, 50, 3], 0)  # the button folds, then nobody
        three.fold()
        assert three.is_terminal() and len(three.board) == 5
        # the big blind's 8 is more than the small blind's 5: the small blind acts
        more = start(Game(big_blind=10), [87, 8], 0)
        la = more.legal_actions()
        assert more.actor == 0 and la.can_fold and la.call == 5 and not la.can_raise
        more.call()
        assert more.is_terminal() and more.result.returned == (2, 0)


def test_r20_all_in_run_out_deals_the_board_without_betting() -> None:
    """R20: once at most one player in the hand has chips and the bets are matched, the board
    is dealt to the end with no more decisions."""
    st = Game(big_blind=2).new_hand([50, 300], button=0, seed=3)
    st.raise_to(50)  # the button (small blind) is all in
    st.call()
    assert st.is_terminal() and len(st.board) == 5 and len(st.burned) == 3
    assert [r[1] for r in st.raw_history()] == [0, 0]  # both actions preflop, none after
    three = Game(big_blind=2).new_hand([40, 40, 500], button=0, seed=4)
    while not three.is_terminal():  # two short stacks all in, the big stack calls
        la = three.legal_actions()
        three.raise_to(la.max_to) if la.can_raise and three.stacks[three.actor] <= 40 \
            else three.call()
    assert len(three.board) == 5
    assert all(r[1] == 0 for r in three.raw_history())  # no decision after the preflop
    assert sum(three.result.payoffs) == 0


def test_r27_r17_all_in_facing_the_cap_is_refused_not_read_as_a_call() -> None:
    """R27 (the cap) with R17: facing a capped round a seat may only call or fold, so an
    all-in request is refused, not played as a call (a mutation reading it as a call
    survived every test)."""
    s = Game(structure=Structure.FIXED_LIMIT, big_blind=2).new_hand([100] * 3, button=0, seed=1)
    s.raise_to(4)
    s.raise_to(6)
    s.raise_to(8)  # the big blind's bet and three raises: capped
    la = s.legal_actions()
    assert not la.can_raise and la.call == 4
    before = s.clone()
    with pytest.raises(IllegalActionError, match="all in to 100 is not allowed: call or fold"):
        s.all_in()
    assert s.raw_history() == before.raw_history() and s.stacks == before.stacks


def test_r36_extra_post_dead_part_is_at_most_the_big_blind() -> None:
    """R36 / Robert's Rules: the dead part of an extra post is a missed small blind, at most
    a big blind; 4 chips at blinds 1/2 were accepted by the reference core under a mutation
    no test saw."""
    from holdem.hand.game import ReferenceHandState

    game = Game(big_blind=2)
    for start in (lambda: game.new_hand([100] * 4, button=0, seed=1, extra_posts=[(3, 2, 4)]),
                  lambda: ReferenceHandState._start(game, [100] * 4, 0, 1, None, None, False,
                                                    [(3, 2, 4)], ())):
        with pytest.raises(InvalidConfigError, match=r"extra post \(3, 2, 4\): dead chips must "
                                                     r"be 0..2 \(at most the big blind\), got 4"):
            start()
    assert game.new_hand([100] * 4, button=0, seed=1, extra_posts=[(3, 2, 2)]).pot == 7


@pytest.mark.parametrize("stacks", [[100, 0, 100], [0, 100], [100, 100, -5]])
def test_r37_a_seat_without_chips_is_not_dealt_in(stacks: list[int]) -> None:
    """R37: a player with no chips is not dealt in; a stack of 0 in a plain list of ints (the
    one-pass check of the common case) must be refused as a sequence of other types is."""
    from holdem.hand.game import ReferenceHandState

    bad = next(i for i, s in enumerate(stacks) if s < 1)
    for start in (lambda: Game(big_blind=2).new_hand(stacks, button=0, seed=1),
                  lambda: ReferenceHandState._start(Game(big_blind=2), stacks, 0, 1, None, None)):
        with pytest.raises(InvalidConfigError, match=f"stack of seat {bad} must be an int >= 1"):
            start()


def test_r7_r9_a_short_big_blind_posts_what_is_left_of_the_big_blind_ante() -> None:
    """R7 (big-blind ante, TDA: the blind first) with R9 (short, a player posts what they
    have): a big blind of 3 chips at 1/2 with a 2-chip big-blind ante posts the blind and 1
    chip of ante, and is all in. Both cores (the reference core's rule was unguarded)."""
    from holdem.hand.game import ReferenceHandState

    game = Game(big_blind=2, ante=2, ante_type=AnteType.BIG_BLIND)
    for cls in (HandState, ReferenceHandState):
        s = cls._start(game, [100, 100, 3], 0, 1, None, None)
        assert [(p.seat, p.kind, p.amount) for p in s.posts] == [
            (1, "small_blind", 1), (2, "big_blind", 2), (2, "big_blind_ante", 1)]
        assert s.pot == 4 and s.stacks[2] == 0 and s.status(2) is SeatStatus.ALL_IN
