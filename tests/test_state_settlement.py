"""Settlement of a played hand as ``HandState.result`` reports it (R21, R29-R34), on both
cores (compiled ``HandState`` and ``ReferenceHandState``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from holdem import Action, AnteType, Game, Rake
from holdem.hand.game import HandState, ReferenceHandState

CORES = ["compiled", "reference"]


def start(core: str, game: Game, stacks: list[int], button: int = 0, seed: int | None = None,
          holes: list[str] | None = None, board: str | None = None) -> Any:
    cls = HandState if core == "compiled" else ReferenceHandState
    return cls._start(game, list(stacks), button, seed, holes, board)


def uncalled_by_chip_count(state: Any) -> tuple[int, ...]:
    """Chips each seat got back uncalled, from the chip count alone: what it put in (posts and
    actions) minus what it lost to the pots, after the hand (final = start - in + back + won)."""
    res = state.result
    n = state.num_players
    put = [0] * n
    for post in state.posts:
        put[post.seat] += post.amount
    for rec in state.history:
        put[rec.seat] += rec.amount
    won = [sum(pot.share_of(j) for pot in res.pots) for j in range(n)]
    return tuple(res.final_stacks[j] - state.starting_stacks[j] + put[j] - won[j]
                 for j in range(n))


@pytest.mark.parametrize("core", CORES)
def test_r21_uncalled_part_of_an_all_in_called_for_less_is_in_the_result(core: str) -> None:
    """R21: seat 0 shoves 100 and seat 1 calls all in for 40; the 60 nobody called go back to
    seat 0 before the pot is formed, and HandResult.returned (uncalled chips returned per
    seat) says so, as it does when the hand ends by a fold."""
    st = start(core, Game(big_blind=2), [100, 40], holes=["AsAh", "KdKc"], board="2c7d9hJsQs")
    st.all_in()
    st.call()
    res = st.result
    assert res.final_stacks == (140, 0)
    assert [pot.amount for pot in res.pots] == [80]
    assert res.returned == (60, 0)


@pytest.mark.parametrize("core", CORES)
def test_r21_uncalled_river_bet_at_showdown_is_in_the_result(core: str) -> None:
    """R21: on the river seat 2 bets its last 30, seat 0 raises to 60 and seat 1 folds: 30 of
    the raise is uncalled and returned, and the result reports it."""
    st = start(core, Game(big_blind=2), [100, 100, 40], holes=["AsAh", "KdKc", "QsQh"],
               board="2c7d9hJs3s")
    st.call()  # seat 0 (button) calls 2
    st.call()  # seat 1 (small blind) completes
    st.raise_to(10)  # seat 2 (big blind)
    st.call()
    st.call()
    for _ in range(6):  # flop and turn checked through
        st.check()
    st.check()  # river: seat 1 checks
    st.all_in()  # seat 2 bets its last 30
    st.raise_to(60)  # seat 0 raises to 60
    st.fold()  # seat 1 folds
    # seat 2 is all in: the round ends with 30 of seat 0's raise uncalled
    res = st.result
    assert res.final_stacks == (150, 90, 0)
    assert res.returned == (30, 0, 0)
    assert res.returned == uncalled_by_chip_count(st)


@pytest.mark.parametrize("core", CORES)
def test_r21_result_reports_every_uncalled_chip_over_random_hands(core: str) -> None:
    """R21: over random hands (folds, all-ins of every size, antes, rake), HandResult.returned
    equals the chips each seat got back without a call, however the hand ended."""
    games = [Game(big_blind=2), Game(big_blind=4, ante=1),
             Game(big_blind=2, ante=2, ante_type=AnteType.BIG_BLIND, rake=Rake("0.05", cap=3))]
    returns = 0
    for seed in range(300):
        rng = random.Random(seed)
        game = games[seed % len(games)]
        n = rng.randint(2, 6)
        stacks = [rng.choice([rng.randint(1, 20), rng.randint(20, 120)]) for _ in range(n)]
        st = start(core, game, stacks, button=rng.randrange(n), seed=seed)
        while not st.is_terminal():
            la = st.legal_actions()
            r = rng.random()
            if la.can_raise and r < 0.35:
                st.apply(Action.bet_or_raise(rng.choice([la.min_to, la.max_to])))
            elif la.can_fold and r < 0.5:
                st.apply(Action.fold())
            else:
                st.apply(Action.check_or_call())
        assert st.result.returned == uncalled_by_chip_count(st), seed
        returns += any(st.result.returned)
    assert returns > 50
