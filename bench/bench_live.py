"""Live dealing overhead: hands/s of LiveHand against a plain HandState on the same workload.

Workload (same seeded policy for all three): 6-max no-limit, blinds 1/2, 100 big blind stacks;
at every decision a uniform choice among fold / check-call / bet-raise, raise size uniform in
[min, max]; hands run to the end. ``state`` is :class:`holdem.HandState` with checked
``apply``; ``live`` is :class:`holdem.LiveHand` without errors; ``live-errors`` reports a
premature flop (R40) before the first preflop action of each hand. The ratio to ``state`` is in
each live benchmark's ``extra_info`` (ratio of medians, same run). Run with
``python -m pytest bench/bench_live.py --benchmark-enable --benchmark-only``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from holdem import Action, Game, HandState, LiveHand, PrematureFlop

HANDS = 50
GAME = Game(big_blind=2)
_rates: dict[str, float] = {}


def _policy(hand: HandState | LiveHand, rng: random.Random) -> Action:
    la = hand.legal_actions()
    kinds = [1]
    if la.can_fold:
        kinds.append(0)
    if la.can_raise:
        kinds.append(2)
    kind = kinds[rng.randrange(len(kinds))]
    if kind == 0:
        return Action.fold()
    if kind == 1:
        return Action.check_or_call()
    assert la.min_to is not None and la.max_to is not None
    return Action.bet_or_raise(rng.randint(la.min_to, la.max_to))


def playouts(kind: str, hands: int, seed: int) -> int:
    rng = random.Random(seed)
    actions = 0
    for h in range(hands):
        hand: HandState | LiveHand
        if kind == "state":
            hand = GAME.new_hand([200] * 6, button=h % 6, seed=seed * 1_000_003 + h)
        else:
            hand = LiveHand(GAME, [200] * 6, button=h % 6, seed=seed * 1_000_003 + h)
            if kind == "live-errors":
                hand.report(PrematureFlop())
        while not hand.is_terminal():
            hand.apply(_policy(hand, rng))
            actions += 1
    return actions


def _run(benchmark: Any, name: str, fn: Callable[[], int]) -> None:
    actions = benchmark(fn)
    assert actions >= HANDS
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: a smoke run
        return
    median = stats.stats.median
    _rates[name] = HANDS / median
    benchmark.extra_info.update(hands_per_s=round(HANDS / median))
    if name != "state" and "state" in _rates:
        benchmark.extra_info["ratio_vs_state"] = round(_rates[name] / _rates["state"], 3)


@pytest.mark.benchmark(group="live-nl-6max")
@pytest.mark.parametrize("kind", ["state", "live", "live-errors"])
def test_live_overhead(benchmark: Any, kind: str) -> None:
    _run(benchmark, kind, lambda: playouts(kind, HANDS, 1))
