"""Code a user writes, checked by ``mypy --strict`` (the lint job; pyproject.toml lists this
file): correct calls must type-check, and each wrong one must be refused, which its
``type: ignore`` says (strict mode reports an ignore that nothing needed). Not run by pytest.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from fractions import Fraction
from typing import Any

import numpy as np

from holdem import *  # noqa: F403 (what the star import gives a type checker)
from holdem import Game
from holdem.acpc import HEADS_UP_NO_LIMIT, parse_gamedef
from holdem.rl.gymnasium import HoldemEnv, RandomPolicy
from holdem.stats import Stats
from holdem.table.agents import AgentLike, CompiledPolicy
from holdem.vector import ActionLayout, VectorGame

# the facade's names, those it imports on first use included
events: list[type[DealerError]] = [CardExposed, ExtraCards, OverdealtFlop,  # noqa: F405
                                   PrematureFlop, PrematureRiver, PrematureTurn]  # noqa: F405
records: tuple[type[Ruling], type[CardAccount]] = (Ruling, CardAccount)  # noqa: F405

# pot fractions as the constructor takes them (ints, floats, text, Fractions)
layouts = [ActionLayout((1,), min_raise=False), ActionLayout(fractions=(0.5, 1)),
           ActionLayout(("1/3",), keep="first"), ActionLayout([Fraction(1, 2)])]
stored: tuple[Fraction, ...] = layouts[0].fractions
ActionLayout((None,))  # type: ignore[arg-type]

# the action verbs take an action, PHH text or an int code, and nothing else
hand = Game(big_blind=2).new_hand([200, 200], seed=1)
hand.apply("cc")
hand.apply(1)
hand.apply(None)  # type: ignore[arg-type]
hand.apply(3.5)  # type: ignore[arg-type]
given = Game(big_blind=2).new_hand([200, 200], hole_cards=["AsKs", "QdQc"])
given.add_board("Qh7d2c")
given.add_board(None)  # type: ignore[arg-type]


# --- agents: an object with act(observation) or a callable (Observation) -> action ---
class Tight:
    def act(self, observation: Observation) -> Action | str | int:  # noqa: F405
        return "cc" if observation.legal.can_check else "f"


def loose(observation: Observation) -> str:  # noqa: F405
    return "cc"


class Floats:  # not an agent: an action is never a float
    def act(self, observation: Observation) -> float:  # noqa: F405
        return 1.5


game = Game(big_blind=2)
table = Table(game, seats=6, seed=7)  # noqa: F405
table.sit(0, "a", 200, Tight())
table.sit(1, "b", 200, loose)
table.sit(2, "c", 200, RandomAgent(seed=1))  # noqa: F405
table.sit(3, "d", 200, Floats())  # type: ignore[arg-type]
table.sit(4, "e", 200, "call")  # type: ignore[arg-type]
played = table.play(3)

builtin = [RandomAgent(), CallAgent(), EquityAgent()]  # a list[Agent]  # noqa: F405
mixed: list[AgentLike] = [Tight(), loose, RandomAgent()]  # noqa: F405
simulate(builtin, game, hands=10, seed=1, executor="serial")  # noqa: F405
simulate(mixed, game, hands=10, seed=1, executor="serial")  # noqa: F405
simulate({"t": Tight(), "l": loose}, game, hands=10, seed=1, executor="serial")  # noqa: F405
simulate([Floats(), loose], game, hands=10)  # type: ignore[list-item]  # noqa: F405
simulate(builtin, game, hands=10, executor="threads")  # type: ignore[arg-type]  # noqa: F405


# --- executors: anything with submit(fn, *args) returning something with result() ---
class InProcess:
    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Future[Any]:
        done: Future[Any] = Future()
        done.set_result(fn(*args))
        return done


class NoFuture:
    def submit(self, fn: Callable[..., Any], /, *args: Any) -> int:
        return 0


equity(["AsKs", "QQ+"], samples=1000, seed=1, executor=InProcess())  # noqa: F405
equity(["AsKs", "QQ+"], samples=1000, executor=NoFuture())  # type: ignore[arg-type]  # noqa: F405

# --- statistics take a Table's records, finished hands and hand histories ---
stats = Stats(played)
stats.add(given, names=["x", "y"])
stats.update([played[0]])
stats.add(42)  # type: ignore[arg-type]
player_stats(["not a hand"])  # type: ignore[list-item]  # noqa: F405

# --- VectorGame.play: compiled policies, or the built-in agents that declare one ---
env = VectorGame(game, num_tables=2, players=3, stacks=200, seed=1)
env.play(10, builtin)
env.play(10, [CompiledPolicy("random"), CallAgent(), EquityAgent()])  # noqa: F405
env.play(10, ["random", "call", "equity"])  # type: ignore[list-item]


# --- Gymnasium opponents: policy(observation, action_mask) -> an integer of any type ---
def greedy(observation: np.ndarray, action_mask: np.ndarray) -> np.intp:
    return np.argmax(action_mask)


HoldemEnv(game, players=3, opponents=[greedy, RandomPolicy(1)])

# --- ACPC: the keyword arguments GameDef.new_hand passes on to Game.new_hand ---
gamedef = parse_gamedef(HEADS_UP_NO_LIMIT)
gamedef.new_hand(seed=1)
gamedef.new_hand(hole_cards=["AsKs", None], board="2c7d9h")
gamedef.new_hand(sed=1)  # type: ignore[call-arg]
