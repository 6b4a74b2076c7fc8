"""The OpenSpiel game (holdem.rl.openspiel) against OpenSpiel's own universal_poker.

Workload: heads-up no-limit, blinds 50/100, 200 big blinds (20,000 chips), the fcpa action
abstraction (fold, call, pot, all-in) on both sides; uniform random playouts through the
pyspiel API (``legal_actions``, ``chance_outcomes``, ``apply_action``), seeded. A decision is
one player action (chance nodes are not counted, but their time is).

- ``test_python_holdem``: ``pyspiel.load_game("python_holdem(...)")`` (a Python game);
- ``test_universal_poker``: ``pyspiel.load_game("universal_poker(...)")`` (C++), the same game.
- ``test_python_holdem_mccfr`` / ``test_universal_poker_mccfr``: a tree search instead of
  playouts, OpenSpiel's external sampling MCCFR (``open_spiel.python.algorithms``), seeded,
  with 2,000-chip stacks: every node it visits clones a state (``state.child``).
- ``test_python_holdem_tensors`` / ``test_universal_poker_tensors``: the acting player's
  ``information_state_tensor`` and ``observation_tensor`` at every decision of seeded random
  playouts (the nodes collected beforehand), what deep RL algorithms (NFSP, deep CFR) ask
  for at each step; a tensor is one call.
- ``test_python_holdem_resample`` / ``test_universal_poker_resample``:
  ``resample_from_infostate`` for the acting player at every decision of seeded random
  playouts (the nodes collected beforehand), what OpenSpiel's ISMCTS asks once a simulation.

Each benchmark's ``extra_info`` has ``decisions/s`` (``iterations/s`` for MCCFR,
``tensors/s`` for the tensors, ``resamples/s``; per median round); the one that runs second of a pair also has ``python_holdem_over_universal_poker``,
python_holdem's rate over universal_poker's, both measured in the same run (the same loop,
seed and hands). Run:
``python -m pytest bench/bench_openspiel.py --benchmark-enable --benchmark-only``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the rl extra (open_spiel) is not installed")
ospiel = pytest.importorskip("holdem.rl.openspiel")

HUNL = ("universal_poker(betting=nolimit,numPlayers=2,numRounds=4,blind=100 50,"
        "firstPlayer=2 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,"
        "stack=20000 20000,bettingAbstraction=fcpa)")
HANDS = 200
_rates: dict[str, float] = {}


def playouts(game: Any, hands: int, seed: int, nodes: list[Any] | None = None) -> int:
    """``hands`` uniform random playouts; returns the player decisions made. ``nodes``: a
    list that gets a copy of the state at each decision."""
    rng = random.Random(seed)
    decisions = 0
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                if nodes is not None:
                    nodes.append(state.clone())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
    return decisions


def _compare(benchmark: Any, name: str, decisions: int, record_rate: Any,
             unit: str = "decisions/s", pair: str = "") -> None:
    """``unit`` (``record_rate``) and, once both games of the ``pair`` ("" playouts,
    "_mccfr") have run in this session, ``python_holdem_over_universal_poker``:
    python_holdem's rate over universal_poker's."""
    assert decisions > 0
    record_rate(benchmark, decisions, unit)
    rate = benchmark.extra_info.get(unit)
    if rate:
        _rates[name + pair] = rate
        if "python_holdem" + pair in _rates and "universal_poker" + pair in _rates:
            benchmark.extra_info["python_holdem_over_universal_poker"] = round(
                _rates["python_holdem" + pair] / _rates["universal_poker" + pair], 3)


MCCFR_HUNL = HUNL.replace("stack=20000 20000", "stack=2000 2000")
assert MCCFR_HUNL != HUNL
MCCFR_ITERATIONS = 40


def mccfr(game: Any, iterations: int, seed: int) -> int:
    """``iterations`` of external sampling MCCFR (it samples with numpy's global
    generator: seeded here); returns the iterations."""
    import numpy as np
    from open_spiel.python.algorithms import external_sampling_mccfr

    np.random.seed(seed)
    solver = external_sampling_mccfr.ExternalSamplingSolver(
        game, external_sampling_mccfr.AverageType.SIMPLE)
    for _ in range(iterations):
        solver.iteration()
    return iterations


@pytest.mark.benchmark(group="openspiel-hunl")
def test_universal_poker(benchmark: Any, record_rate: Any) -> None:
    game = pyspiel.load_game(HUNL)
    _compare(benchmark, "universal_poker", benchmark(playouts, game, HANDS, 1), record_rate)


@pytest.mark.benchmark(group="openspiel-hunl")
def test_python_holdem(benchmark: Any, record_rate: Any) -> None:
    game = ospiel.load_game(HUNL)
    _compare(benchmark, "python_holdem", benchmark(playouts, game, HANDS, 1), record_rate)


@pytest.mark.benchmark(group="openspiel-hunl-mccfr")
def test_universal_poker_mccfr(benchmark: Any, record_rate: Any) -> None:
    game = pyspiel.load_game(MCCFR_HUNL)
    _compare(benchmark, "universal_poker", benchmark(mccfr, game, MCCFR_ITERATIONS, 1),
             record_rate, "iterations/s", "_mccfr")


@pytest.mark.benchmark(group="openspiel-hunl-mccfr")
def test_python_holdem_mccfr(benchmark: Any, record_rate: Any) -> None:
    game = ospiel.load_game(MCCFR_HUNL)
    _compare(benchmark, "python_holdem", benchmark(mccfr, game, MCCFR_ITERATIONS, 1),
             record_rate, "iterations/s", "_mccfr")


TENSOR_HANDS = 40


def decision_nodes(game: Any, hands: int, seed: int) -> list[Any]:
    """A copy of the state at every decision of ``hands`` seeded random playouts."""
    nodes: list[Any] = []
    playouts(game, hands, seed, nodes)
    return nodes


def tensors(nodes: list[Any]) -> int:
    """Both tensors of the acting player at each node; returns the calls made."""
    for state in nodes:
        player = state.current_player()
        state.information_state_tensor(player)
        state.observation_tensor(player)
    return 2 * len(nodes)


def _at_nodes(benchmark: Any, record_rate: Any, name: str, hands: int, work: Any,
              unit: str) -> None:
    """``work`` (tensors, resamples) over the decision nodes of ``hands`` seeded playouts of
    game ``name`` (python_holdem or universal_poker), recorded as ``unit`` for the pair."""
    game = ospiel.load_game(HUNL) if name == "python_holdem" else pyspiel.load_game(HUNL)
    nodes = decision_nodes(game, hands, 1)
    _compare(benchmark, name, benchmark(work, nodes), record_rate, unit,
             "_" + unit.split("/")[0])


@pytest.mark.benchmark(group="openspiel-hunl-tensors")
def test_universal_poker_tensors(benchmark: Any, record_rate: Any) -> None:
    _at_nodes(benchmark, record_rate, "universal_poker", TENSOR_HANDS, tensors, "tensors/s")


@pytest.mark.benchmark(group="openspiel-hunl-tensors")
def test_python_holdem_tensors(benchmark: Any, record_rate: Any) -> None:
    _at_nodes(benchmark, record_rate, "python_holdem", TENSOR_HANDS, tensors, "tensors/s")


RESAMPLE_HANDS = 20


def resamples(nodes: list[Any]) -> int:
    """``resample_from_infostate`` of the acting player at each node, with a seeded sampler
    (as ISMCTS passes one); returns the calls made."""
    sampler = pyspiel.UniformProbabilitySampler(1, 0.0, 1.0)
    for state in nodes:
        state.resample_from_infostate(state.current_player(), sampler)
    return len(nodes)


@pytest.mark.benchmark(group="openspiel-hunl-resample")
def test_universal_poker_resample(benchmark: Any, record_rate: Any) -> None:
    _at_nodes(benchmark, record_rate, "universal_poker", RESAMPLE_HANDS, resamples,
              "resamples/s")


@pytest.mark.benchmark(group="openspiel-hunl-resample")
def test_python_holdem_resample(benchmark: Any, record_rate: Any) -> None:
    _at_nodes(benchmark, record_rate, "python_holdem", RESAMPLE_HANDS, resamples, "resamples/s")
