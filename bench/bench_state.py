"""Random playouts: hands/s and actions/s of HandState against PokerKit on the same workload.

Workload (identical for both engines, same seeded policy): 6-max no-limit, blinds 1/2, 100 big
blind stacks; and heads-up fixed-limit 2/4 with 100 big blind stacks. At every decision the
policy picks uniformly among the kinds offered (fold / check-call / bet-raise) and a raise size
uniformly in [min, max]; hands run to the end, showdown included, and
both engines' payoffs are read (holdem settles a finished hand lazily, on first use). Run with
``python -m pytest bench/bench_state.py --benchmark-enable --benchmark-only``; the speed ratio
against PokerKit is in each holdem benchmark's ``extra_info`` (ratio of medians, same run).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from holdem import Game, Structure

HANDS = 200
NL6 = Game(structure=Structure.NO_LIMIT, big_blind=2)
FL2 = Game(structure=Structure.FIXED_LIMIT, big_blind=2)
_rates: dict[str, float] = {}  # hands/s by benchmark, to compare peers in the same run


def holdem_playouts(game: Game, players: int, hands: int, seed: int) -> int:
    """Play ``hands`` random hands; return the number of actions taken."""
    rnd = random.Random(seed).random
    stacks = [200] * players
    actions = 0
    for h in range(hands):
        state = game.new_hand(stacks, button=h % players, seed=seed * 1_000_003 + h)
        while not state.is_terminal():
            la = state.legal_actions()
            kinds = (0, 1, 2) if la.can_fold else (1, 2)
            if not la.can_raise:
                kinds = kinds[:-1]
            kind = kinds[int(rnd() * len(kinds))]
            if kind == 2:
                lo, hi = la.min_to, la.max_to
                state.apply_unchecked(2, lo + int(rnd() * (hi - lo + 1)))  # type: ignore[operator]
            else:
                state.apply_unchecked(kind)
            actions += 1
        # the hand is settled (showdown, pots) like PokerKit's automated hands: read the
        # payoffs, since a HandState settles lazily on first use
        if sum(state.payoffs):
            raise AssertionError("chips not conserved")
    return actions


def pokerkit_playouts(limit: bool, players: int, hands: int, seed: int) -> int:
    from pokerkit import Automation, FixedLimitTexasHoldem, Mode, NoLimitTexasHoldem

    auto = (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
        Automation.RUNOUT_COUNT_SELECTION, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )
    rnd = random.Random(seed).random
    actions = 0
    for _ in range(hands):
        if limit:
            st = FixedLimitTexasHoldem.create_state(auto, True, 0, (1, 2), 2, 4, (200,) * players,
                                                    players, mode=Mode.TOURNAMENT)
        else:
            st = NoLimitTexasHoldem.create_state(auto, True, 0, (1, 2), 2, (200,) * players,
                                                 players, mode=Mode.TOURNAMENT)
        while st.status:
            kinds = [k for k, ok in ((0, st.can_fold()), (1, st.can_check_or_call()),
                                     (2, st.can_complete_bet_or_raise_to())) if ok]
            kind = kinds[int(rnd() * len(kinds))]
            if kind == 0:
                st.fold()
            elif kind == 1:
                st.check_or_call()
            else:
                lo = st.min_completion_betting_or_raising_to_amount
                hi = st.max_completion_betting_or_raising_to_amount
                st.complete_bet_or_raise_to(lo + int(rnd() * (hi - lo + 1)))
            actions += 1
        if sum(st.payoffs):
            raise AssertionError("chips not conserved")
    return actions


def _run(benchmark: Any, name: str, peer: str, hands: int, fn: Callable[[], int]) -> None:
    actions = benchmark(fn)
    assert actions >= hands
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: a smoke run
        return
    median = stats.stats.median
    _rates[name] = hands / median
    benchmark.extra_info.update(hands_per_s=round(hands / median),
                                actions_per_s=round(actions / median))
    if peer in _rates:
        benchmark.extra_info["speedup_vs_pokerkit"] = round(_rates[name] / _rates[peer], 1)


@pytest.mark.benchmark(group="state-nl-6max")
def test_pokerkit_nl_6max(benchmark: Any) -> None:
    pytest.importorskip("pokerkit")
    n = HANDS // 10
    _run(benchmark, "pokerkit-nl", "", n, lambda: pokerkit_playouts(False, 6, n, 1))


@pytest.mark.benchmark(group="state-nl-6max")
def test_holdem_nl_6max(benchmark: Any) -> None:
    _run(benchmark, "holdem-nl", "pokerkit-nl", HANDS, lambda: holdem_playouts(NL6, 6, HANDS, 1))


@pytest.mark.benchmark(group="state-fl-hu")
def test_pokerkit_fl_heads_up(benchmark: Any) -> None:
    pytest.importorskip("pokerkit")
    n = HANDS // 10
    _run(benchmark, "pokerkit-fl", "", n, lambda: pokerkit_playouts(True, 2, n, 2))


@pytest.mark.benchmark(group="state-fl-hu")
def test_holdem_fl_heads_up(benchmark: Any) -> None:
    _run(benchmark, "holdem-fl", "pokerkit-fl", HANDS, lambda: holdem_playouts(FL2, 2, HANDS, 2))
