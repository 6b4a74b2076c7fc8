"""holdem._ints: every argument the package reads as a whole number takes any integer type
(numpy's integer scalars too) and keeps a plain ``int``; a ``bool`` or a float is refused,
naming the argument. These arguments refused numpy integers (a policy's ``argmax`` is one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import holdem
from holdem import CallAgent, Game, Stats, Table, equity, simulate
from holdem.hand.actions import Action
from holdem.live.events import CardExposed, ExtraCards, OverdealtFlop, PrematureFlop
from holdem.live.hand import LiveHand
from holdem.pots import Rake
from holdem.rl import gymnasium as gym
from holdem.rl import pettingzoo
from holdem.table.tournament import BlindLevel, BlindSchedule
from holdem.vector import ObservationSpec

GAME = Game(big_blind=2)


def _table(seats: Any = 3, max_buy_in: Any = None) -> Table:
    return Table(GAME, seats=seats, seed=1, max_buy_in=max_buy_in)


def _sat(seat: Any = 0, buy_in: Any = 200) -> Table:
    table = _table()
    table.sit(seat, "ann", buy_in, CallAgent())
    return table


def _rebought(amount: Any) -> Table:
    table = _sat()
    table.player("ann").stack = 0
    table.add_chips("ann", amount)
    return table


# name -> (build with a value, read back what was kept, a valid plain int)
CASES: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any], int]] = {
    "HandState.status seat": (
        lambda v: GAME.new_hand([100] * 3, button=0, seed=1).status(v), lambda r: r.name, 1),
    "Table seats": (_table, lambda t: t.size, 3),
    "Table max_buy_in": (lambda v: _table(max_buy_in=v), lambda t: t.max_buy_in, 400),
    "Table.sit seat": (_sat, lambda t: t.player("ann").seat, 1),
    "Table.sit buy_in": (lambda v: _sat(buy_in=v), lambda t: t.player("ann").stack, 150),
    "Table.add_chips": (_rebought, lambda t: t.player("ann").stack, 150),
    "equity samples": (lambda v: equity(["AsKs", "QdQc"], samples=v, seed=1),
                       lambda r: r.boards, 100),
    "simulate hands": (lambda v: simulate([CallAgent(), CallAgent()], game=GAME, hands=v,
                                          seed=1),
                       lambda r: r.hands, 4),
    "simulate stack": (lambda v: simulate([CallAgent(), CallAgent()], game=GAME, hands=2,
                                          seed=1, stack=v),
                       lambda r: r.hands, 40),
    "Stats allin_samples": (lambda v: Stats(allin_samples=v), lambda s: s.allin_samples, 10),
    "EquityAgent.equity opponents": (
        lambda v: holdem.EquityAgent(1, samples=50).equity("AsAh", "Ad7c2s", v),
        lambda e: round(e, 6), 1),
    "BlindLevel": (lambda v: BlindLevel(1, v, 0), lambda b: b.big_blind, 2),
    "BlindSchedule hands_per_level": (
        lambda v: BlindSchedule([BlindLevel(1, 2)], hands_per_level=v),
        lambda s: s.hands_per_level, 10),
    "Rake cap": (lambda v: Rake(0.05, cap=v), lambda r: r.cap, 3),
    "CardExposed": (CardExposed, lambda e: e.position, 2),
    "ExtraCards": (ExtraCards, lambda e: e.count, 1),
    "PrematureFlop": (PrematureFlop, lambda e: e.cards, 3),
    "OverdealtFlop": (OverdealtFlop, lambda e: e.cards, 4),
    "ObservationSpec.encode seat": (
        lambda v: ObservationSpec(3).encode(GAME.new_hand([100] * 3, button=0, seed=1), v),
        lambda row: row, 2),
    "PettingZoo hands": (lambda v: pettingzoo.env(players=2, hands=v),
                         lambda e: e.unwrapped._core.hands, 3),
    "Gymnasium stacks kept": (lambda v: gym.HoldemEnv(stacks=v),
                              lambda e: e._args["stacks"], 150),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("kind", [np.int64, np.int32, np.uint16])
def test_numpy_integers_are_ints_kept_plain(name: str, kind: Any) -> None:
    build, read, value = CASES[name]
    expected = read(build(value))
    got = read(build(kind(value)))
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("bad", [True, 2.0, "2"])
def test_bools_floats_and_text_are_refused(name: str, bad: Any) -> None:
    build, _, _ = CASES[name]
    with pytest.raises((ValueError, TypeError)):
        build(bad)


def test_a_live_hand_takes_an_action_code_from_numpy() -> None:
    """An action code (``Action.to_int``) from numpy is an action at a live hand, as at a
    HandState (``apply(np.int64(1))``); it was refused. (The ACPC client: in
    test_acpc_client.py.)"""
    code = Action.parse("cc").to_int()
    live = LiveHand(GAME, [100, 100, 100], button=0, seed=1)
    live.apply(np.int64(code))
    assert live.history[-1] == Action.parse("cc")
