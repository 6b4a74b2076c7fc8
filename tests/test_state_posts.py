"""Forced bets beyond the regular blinds: ``Game.new_hand(dead_small_blind=, extra_posts=)``.

R36 entry bet (live, with the option when unraised), missed blinds (big blind live, small
blind dead: Robert's Rules), dead small blind (TDA dead button), short posts (R9). Every test
runs on both cores (compiled ``HandState`` and ``ReferenceHandState``).
"""

from __future__ import annotations

from typing import Any

import pytest

from holdem import Deck, ExtraPost, Game, HandState, Street, Structure
from holdem.errors import HoldemError, InvalidConfigError, InvalidHistoryError
from holdem.hand.game import ReferenceHandState
from holdem.history import from_state

CORES = ["compiled", "reference"]


def start(core: str, game: Game, stacks: list[int], button: int = 0, seed: int = 1,
          **kw: Any) -> Any:
    if core == "compiled":
        state = game.new_hand(stacks, button=button, seed=seed, **kw)
        assert type(state) is HandState
        return state
    return ReferenceHandState._start(game, stacks, button, seed, None, None,
                                     kw.get("dead_small_blind", False), kw.get("extra_posts", ()),
                                     kw.get("dead_hands", ()))


@pytest.mark.parametrize("core", CORES)
def test_R36_entry_bet_is_live_and_poster_has_the_option(core: str) -> None:
    # 6 seats, button 0: SB 1, BB 2; seat 5 (a new player) posts an entry bet
    st = start(core, Game(big_blind=2), [100] * 6, extra_posts=[ExtraPost(5, 2)])
    assert st.posts[-1] == (5, "entry_big_blind", 2)
    assert st.bets == (0, 1, 2, 0, 0, 2) and st.current_bet == 2
    assert st.actor == 3  # R16: left of the big blind, the poster waits for its turn
    st.call()
    st.call()  # seat 4
    la = st.legal_actions()  # the poster: its live 2 counts toward the call
    assert la.seat == 5 and la.can_check and la.call == 0 and la.can_raise and la.min_to == 4
    st.check()
    st.call()  # button
    st.call()  # SB completes
    la = st.legal_actions()
    assert la.seat == 2 and la.can_check  # R6: the big blind still has its option
    st.check()
    assert st.street is Street.FLOP and st.pot == 12


@pytest.mark.parametrize("core", CORES)
def test_R36_entry_bet_faces_a_raise_like_a_blind(core: str) -> None:
    st = start(core, Game(big_blind=2), [100] * 6, extra_posts=[(5, 2, 0)])
    st.raise_to(6)  # seat 3
    st.fold()  # seat 4
    la = st.legal_actions()
    assert la.seat == 5 and la.call == 4 and not la.can_check and la.min_to == 10  # R23


@pytest.mark.parametrize("core", CORES)
def test_missed_blinds_dead_part_in_the_pot_never_returned(core: str) -> None:
    """Robert's Rules: big blind live, small blind dead. Seat 3 posts 2 live + 1 dead."""
    st = start(core, Game(big_blind=2), [100] * 4, extra_posts=[ExtraPost(3, live=2, dead=1)])
    assert [p[1:] for p in st.posts] == [("small_blind", 1), ("big_blind", 2),
                                         ("entry_big_blind", 2), ("dead_small_blind", 1)]
    assert st.bets == (0, 1, 2, 2) and st.committed == (0, 1, 2, 2) and st.pot == 6
    assert st.actor == 3 and st.legal_actions().can_check  # live part counts toward the call
    st.raise_to(6)
    st.fold()
    st.fold()
    st.fold()
    res = st.result
    assert res.returned == (0, 0, 0, 4)  # the uncalled raise, not the dead chip
    assert res.payoffs == (0, -1, -2, 3) and sum(res.payoffs) == 0


@pytest.mark.parametrize("core", CORES)
def test_missed_blinds_dead_chip_goes_to_the_winner(core: str) -> None:
    st = start(core, Game(big_blind=2), [100] * 4, extra_posts=[ExtraPost(3, 2, 1)])
    st.check()  # poster: its live big blind covers the call
    st.fold()  # button
    st.fold()  # small blind
    st.raise_to(6)  # big blind
    st.fold()  # poster: the big blind wins its live and dead chips
    assert st.result.payoffs == (0, -1, 4, -3)
    assert st.result.returned == (0, 0, 4, 0)


@pytest.mark.parametrize("core", CORES)
def test_R9_short_poster_posts_live_first_all_in(core: str) -> None:
    st = start(core, Game(big_blind=10), [100, 100, 100, 7, 12],
               extra_posts=[(3, 10, 5), (4, 10, 5)])
    assert [p for p in st.posts if p.seat >= 3] == [
        (3, "entry_big_blind", 7), (4, "entry_big_blind", 10), (4, "dead_small_blind", 2)]
    assert st.stacks[3] == 0 and st.stacks[4] == 0
    assert st.current_bet == 10  # R9: the call is still the full big blind
    la = st.legal_actions()
    assert la.seat == 0 and la.call == 10 and la.min_to == 20


@pytest.mark.parametrize("core", CORES)
def test_pot_limit_counts_dead_chips(core: str) -> None:
    st = start(core, Game(structure=Structure.POT_LIMIT, big_blind=2), [100] * 4,
               extra_posts=[(3, 2, 1)])
    la = st.legal_actions()  # R25: pot 6 (1 + 2 + 2 + dead 1), nothing to call: to 2 + 6
    assert la.seat == 3 and la.max_to == 8


@pytest.mark.parametrize("core", CORES)
def test_fixed_limit_live_post_is_not_a_raise(core: str) -> None:
    st = start(core, Game(structure=Structure.FIXED_LIMIT, big_blind=2), [100] * 4,
               extra_posts=[(3, 2, 1)])
    la = st.legal_actions()
    assert la.min_to == la.max_to == 4  # R26: one small bet above the big blind


@pytest.mark.parametrize("core", CORES)
def test_dead_small_blind_positions_and_action_order(core: str) -> None:
    """TDA dead button: no small blind, the button right behind the big blind (R16)."""
    st = start(core, Game(big_blind=2), [100] * 4, button=3, seed=5, dead_small_blind=True)
    assert st.big_blind_seat == 0 and st.small_blind_seat == 3
    assert [p[:2] for p in st.posts] == [(0, "big_blind")]
    assert st.bets == (2, 0, 0, 0)
    assert st.actor == 1  # left of the big blind
    st.call()
    st.call()
    st.call()  # the button
    la = st.legal_actions()
    assert la.seat == 0 and la.can_check  # R6
    st.check()
    assert st.street is Street.FLOP and st.pot == 8
    assert st.actor == 0  # after the flop the big blind (left of the button) acts first
    for seat in (0, 1, 2, 3):  # the button acts last
        st.check(seat=seat)
    assert st.actor == 0 and st.street is Street.TURN
    # R12: cards are dealt from the first seat left of the button (the big blind)
    order = Deck(seed=5).deal(8)
    assert st.hole_cards[0] == (order[0], order[4])
    assert st.hole_cards[3] == (order[3], order[7])


@pytest.mark.parametrize("core", CORES)
def test_dead_small_blind_walk_returns_the_big_blind(core: str) -> None:
    st = start(core, Game(big_blind=2, ante=1), [100] * 3, dead_small_blind=True)
    assert [p.kind for p in st.posts] == ["ante", "ante", "ante", "big_blind"]
    st.fold()
    st.fold()
    res = st.result
    assert res.returned == (0, 2, 0)  # R21: the uncalled big blind
    assert res.payoffs == (-1, 2, -1)


@pytest.mark.parametrize("core", CORES)
def test_dead_small_blind_with_straddle_and_extra_post(core: str) -> None:
    st = start(core, Game(big_blind=2, straddle=True), [100] * 5, button=0,
               dead_small_blind=True, extra_posts=[(4, 2, 1)])
    # BB 1, straddle 2, poster 4; preflop action starts left of the straddler
    assert st.bets == (0, 2, 4, 0, 2) and st.current_bet == 4
    assert st.actor == 3
    assert st.legal_actions().min_to == 8


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(("kw", "msg"), [
    ({"dead_small_blind": 1}, "dead_small_blind must be True or False"),
    ({"extra_posts": [(7, 2, 0)]}, "seat must be 0..4"),
    ({"extra_posts": [(-1, 2, 0)]}, "seat must be 0..4"),
    ({"extra_posts": [(3, -2, 0)]}, "live chips must be 0..2"),
    ({"extra_posts": [(3, 4, 0)]}, "live chips must be 0..2"),
    ({"extra_posts": [(3, 2, -1)]}, "dead chips must be 0..2"),
    ({"extra_posts": [(3, 0, 0)]}, "posts no chips"),
    ({"extra_posts": [(3, 2, 0), (3, 0, 1)]}, "posts only once"),
    ({"extra_posts": [(2, 2, 0)]}, "already posts the big blind"),
    ({"extra_posts": [(1, 2, 0)]}, "already posts the small blind"),
    ({"extra_posts": [(3, 2.0, 0)]}, "live chips must be an int"),
    ({"extra_posts": [(3, True, 0)]}, "live chips must be an int"),
    ({"extra_posts": [(3, 2)]}, "an extra post is (seat, live chips, dead chips)"),
    ({"extra_posts": 5}, "extra_posts must be a sequence"),
])
def test_invalid_posts_are_rejected(core: str, kw: dict[str, Any], msg: str) -> None:
    with pytest.raises(InvalidConfigError, match=msg.replace("(", r"\(").replace(")", r"\)")):
        start(core, Game(big_blind=2), [100] * 5, **kw)


@pytest.mark.parametrize("core", CORES)
def test_dead_small_blind_needs_three_players(core: str) -> None:
    with pytest.raises(InvalidConfigError, match="R3"):
        start(core, Game(big_blind=2), [100, 100], dead_small_blind=True)
    with pytest.raises(InvalidConfigError, match="already posts the straddle"):
        start(core, Game(big_blind=2, straddle=True), [100] * 4, extra_posts=[(3, 2, 0)])
    assert issubclass(InvalidConfigError, HoldemError)


def test_extra_post_value_type() -> None:
    p = ExtraPost(4, live=2, dead=1)
    assert eval(repr(p)) == p and tuple(p) == (4, 2, 1) and ExtraPost(1, 2).dead == 0


@pytest.mark.parametrize("kw", [{"dead_small_blind": True}, {"extra_posts": [(3, 2, 0)]}])
def test_phh_refuses_forced_bets_it_cannot_describe(kw: dict[str, Any]) -> None:
    st = Game(big_blind=2).new_hand([100] * 4, button=0, seed=3, **kw)
    with pytest.raises(InvalidHistoryError, match="PHH describes only"):
        from_state(st)
    from_state(Game(big_blind=2).new_hand([100] * 4, button=0, seed=3))  # a regular hand writes
