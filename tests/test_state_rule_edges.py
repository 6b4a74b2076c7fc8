"""Rule edges that only a compiled-vs-reference comparison or an unrelated test used to catch (R9,
R17, R20, R21, R28, R33, R34, TDA 30), each pinned here on the rule itself.

Every test runs the same hand on both cores (compiled ``HandState`` and
``ReferenceHandState``) with fixed cards, so a slip in either core's rule shows up directly
rather than only as a disagreement between the two.
"""

from __future__ import annotations

from typing import Any

import pytest

from holdem import Action, Game, Rake, Street, Structure
from holdem.errors import IllegalActionError
from holdem.hand.game import HandState, ReferenceHandState

CORES = [HandState, ReferenceHandState]
CORE_IDS = ["compiled", "reference"]

FL = Game(structure=Structure.FIXED_LIMIT, big_blind=20)  # small bet 20, big bet 40


def start(cls: Any, game: Game, stacks: list[int], holes: list[str], board: str,
          button: int = 0, **extra: Any) -> Any:
    if extra:
        return cls._start(game, stacks, button, None, holes, board,
                          extra.get("dead_small_blind", False), extra.get("extra_posts", ()),
                          extra.get("dead_hands", ()))
    return cls._start(game, stacks, button, None, holes, board)


# --------------------------------------------------------------------------- R21
@pytest.mark.parametrize("cls", CORES, ids=CORE_IDS)
def test_r21_folded_bet_counts_as_called_when_returning_the_uncalled_part(cls: Any) -> None:
    """R21: only the part of the top bet that nobody matched is returned. Chips a player put
    in and then folded count as called: seat 2 raises to 60, seat 0 calls all in for 15,
    seat 1 had bet 30 and folds -> 30 of the 60 come back, not 45."""
    st = start(cls, Game(big_blind=2), [17, 100, 100], ["2c3d", "4h5h", "AsAh"],
               "2h7d9cJsQd")
    st.call()  # button (seat 0) limps: 15 behind
    st.call()  # small blind completes
    st.check()  # big blind
    assert st.street is Street.FLOP and st.actor == 1
    st.bet(30)
    st.raise_to(60)
    st.call()  # seat 0 all in for 15
    st.fold()  # seat 1 leaves its 30 in the pot
    assert st.is_terminal() and len(st.board) == 5  # R20: run out, seat 2 alone has chips
    res = st.result
    assert res.returned == (0, 0, 30)
    assert st.committed == (17, 32, 32)
    # seat 2's aces win: main pot 3 x 17, side pot 15 + 15 (seat 1's fold counts)
    assert res.final_stacks == (0, 68, 100 - 32 + 81)
    assert res.payoffs == (-17, -32, 49)


# --------------------------------------------------------------------------- R9/R20
@pytest.mark.parametrize("cls", CORES, ids=CORE_IDS)
def test_r9_r20_heads_up_big_blind_all_in_for_the_small_blind_leaves_no_decision(cls: Any
                                                                                ) -> None:
    """R9: a big blind short of chips posts what it has. Heads-up with exactly the small
    blind's amount, the button's small blind already matches it: nobody owes a chip and
    nobody may raise (R17, no other player could put in more), so there is no decision and
    the board is dealt out (R20)."""
    st = start(cls, Game(big_blind=2), [100, 1], ["AsAh", "2c3d"], "2h7d9cJsQd")
    assert st.is_terminal() and len(st.board) == 5 and not st.raw_history()
    assert st.result.final_stacks == (101, 0)
    st = start(cls, Game(big_blind=2), [100, 2], ["AsAh", "2c3d"], "2h7d9cJsQd")
    assert not st.is_terminal() and st.actor == 0  # one chip more: the button owes one


# --------------------------------------------------------------------------- R28
@pytest.mark.parametrize("cls", CORES, ids=CORE_IDS)
def test_r28_all_in_of_exactly_half_a_bet_is_a_full_raise(cls: Any) -> None:
    """R28: an all-in to L + S/2 (here exactly 30 over a 20 big blind on a 20 round) counts
    as a full raise: the next raise goes to one bet above it (50, not 40), and it counts
    toward the cap (one bet and three raises: two more raises, then call or fold)."""
    st = start(cls, FL, [30, 200, 200], ["2c3d", "4c5d", "6c7d"], "8h9hTsJsKh")
    assert st.actor == 0
    st.raise_to(30)  # all in: half a small bet over the big blind
    la = st.legal_actions()
    assert la.seat == 1 and la.can_raise and la.min_to == la.max_to == 50
    st.raise_to(50)  # raise 2 (the big blind is the bet, the all-in raise 1)
    st.raise_to(70)  # raise 3: the cap
    la = st.legal_actions()
    assert la.seat == 1 and not la.can_raise and la.call == 20


@pytest.mark.parametrize("cls", CORES, ids=CORE_IDS)
def test_r28_player_facing_exactly_half_a_bet_all_in_may_raise_again(cls: Any) -> None:
    """R28: an all-in that raises by exactly half a bet reopens the betting: the button,
    who already called 20, faces the small blind's all-in to 30 and may raise (to 50)."""
    st = start(cls, FL, [200, 30, 200], ["2c3d", "4c5d", "6c7d"], "8h9hTsJsKh")
    st.call()  # the button calls the big blind, 20
    st.raise_to(30)  # the small blind (10 posted) is all in to 30: +10 = S/2
    st.call()  # the big blind
    la = st.legal_actions()
    assert la.seat == 0 and la.call == 10
    assert la.can_raise and la.min_to == la.max_to == 50
    st.raise_to(50)
    assert st.actor == 2 and st.current_bet == 50


# --------------------------------------------------------------------------- R33
@pytest.mark.parametrize("cls", CORES, ids=CORE_IDS)
def test_r33_a_hand_that_ties_is_shown_not_mucked(cls: Any) -> None:
    """R33: only losing hands may be mucked. A hand that ties the hand already shown is not
    a losing hand: it is shown and takes its share of the pot."""
    game = Game(big_blind=2)
    assert game.muck_losing_hands
    st = start(cls, game, [100, 100], ["AhKd", "AcKh"], "2c7d9hJsQs")
    st.raise_to(10)
    st.call()
    while not st.is_terminal():
        st.check()
    res = st.result
    assert res.showdown_order == (1, 0)
    assert res.mucked == () and set(res.shown) == {0, 1}
    assert res.payoffs == (0, 0)


@pytest.mark.parametrize("cls", CORES, ids=CORE_IDS)
def test_r33_one_all_in_seat_makes_every_hand_shown(cls: Any) -> None:
    """R33 (TDA 16): when a player in the showdown is all in, every hand is shown, even
    with losing hands otherwise mucked and two players still holding chips."""
    game = Game(big_blind=2)
    assert game.muck_losing_hands
    st = start(cls, game, [10, 100, 100], ["2c3d", "AsAh", "KsKh"], "4c7d9hJsQd")
    st.raise_to(10)  # the button is all in
    st.call()
    st.call()
    while not st.is_terminal():  # seats 1 and 2 still have chips: they check it down
        st.check()
    res = st.result
    assert res.showdown_order == (1, 2, 0)
    assert res.mucked == () and set(res.shown) == {0, 1, 2}
    assert res.payoffs == (-10, 20, -10)
    # without an all-in the same losing hands are mucked
    st = start(cls, game, [100, 100, 100], ["2c3d", "AsAh", "KsKh"], "4c7d9hJsQd")
    st.call()
    st.call()
    while not st.is_terminal():
        st.check()
    assert st.result.showdown_order == (1, 2, 0) and st.result.mucked == (2, 0)


# --------------------------------------------------------------------------- R34
@pytest.mark.parametrize("cls", CORES, ids=CORE_IDS)
def test_r34_no_flop_no_drop_does_not_spare_a_hand_won_on_the_flop(cls: Any) -> None:
    """R34: with "no flop, no drop" the rake is skipped only when no flop was dealt. A hand
    won by a bet on the flop (three board cards, no showdown) is raked."""
    game = Game(big_blind=2, rake=Rake("0.1"))
    assert game.rake is not None and game.rake.no_flop_no_drop
    st = start(cls, game, [100, 100], ["2c3d", "4c5d"], "8h9hTsJsKh")
    st.raise_to(20)
    st.call()
    assert st.street is Street.FLOP
    st.bet(10)  # the big blind
    st.fold()
    assert st.is_terminal() and len(st.board) == 3
    res = st.result
    assert res.rake == 4  # 10% of the 40 pot; the uncalled 10 is returned first
    assert res.returned == (0, 10) and res.payoffs == (-20, 16)
    # the same fold before the flop: no flop, no drop
    st = start(cls, game, [100, 100], ["2c3d", "4c5d"], "8h9hTsJsKh")
    st.raise_to(20)
    st.fold()
    assert st.board == () and st.result.rake == 0


# --------------------------------------------------------------------------- TDA 30
@pytest.mark.parametrize("cls", CORES, ids=CORE_IDS)
def test_tda30_dead_hand_blind_stays_in_as_a_folded_bet(cls: Any) -> None:
    """TDA 30 with R21, R31 (``Game.new_hand(dead_hands=...)``): an absent big blind's post
    stays its bet and in what it committed, as a folded seat's; the live seats still owe
    the full big blind."""
    st = start(cls, Game(big_blind=2), [100] * 3, ["2c3d", "Qc4d", "6c7d"], "8h9hTsJsKh",
               dead_hands=[2])
    assert st.dead_hands == (2,)
    assert st.bets == (0, 1, 2) and st.committed == (0, 1, 2)
    assert st.current_bet == 2 and st.pot == 3
    st.raise_to(10)  # the button
    st.call()  # the small blind: the round closes, nothing uncalled
    assert st.street is Street.FLOP and st.bets == (0, 0, 0)
    assert st.committed == (10, 10, 2) and st.pot == 22
    while not st.is_terminal():
        st.check()
    res = st.result
    assert res.returned == (0, 0, 0)
    assert res.payoffs == (-10, 12, -2)  # seat 1's king-high straight wins 22


# --------------------------------------------------------------------------- R17
@pytest.mark.parametrize("cls", CORES, ids=CORE_IDS)
def test_r17_call_is_refused_when_checking_is_free(cls: Any) -> None:
    """R17: check only when nothing is owed, call only when something is. The big blind
    after two limps owes nothing: a CALL is illegal (not taken as a check)."""
    st = start(cls, Game(big_blind=2), [100] * 3, ["2c3d", "4c5d", "6c7d"], "8h9hTsJsKh")
    st.call()
    st.call()
    la = st.legal_actions()
    assert la.seat == 2 and la.can_check and la.call == 0
    assert not st.is_legal(Action.call())
    with pytest.raises(IllegalActionError, match="no bet to call"):
        st.apply(Action.call())
    with pytest.raises(IllegalActionError, match="no bet to call"):
        st.call()
    assert st.actor == 2 and st.street is Street.PREFLOP and st.raw_history()[-1][0] == 1
    st.check()  # still the legal way, and check_or_call stays a check
    assert st.street is Street.FLOP
    st.check_or_call()
    assert st.raw_history()[-1][2] == 1 and st.raw_history()[-1][4] == 0
