"""Value semantics of the frozen value types: assigning or deleting any attribute raises
:class:`dataclasses.FrozenInstanceError` naming it."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest

from holdem import (
    AgentResult,
    BlindLevel,
    BlindSchedule,
    CallAgent,
    Game,
    Pot,
    SimulationResult,
    Table,
    split_pots,
)
from holdem.acpc import parse_game
from holdem.phh import HistoryAction
from holdem.stats import Stats


def _frozen_values() -> list[Any]:
    agent = AgentResult("a", 10, 5, 25.0, 1.0, 2, 0.2, 1)
    table = Table(Game(big_blind=2), seats=2, seed=1)
    table.sit(0, "a", 100, CallAgent())
    table.sit(1, "b", 100, CallAgent())
    return [
        Game(big_blind=2),
        Pot(14, (0, 1), (0,), (14,)),
        split_pots([20, 70], [False, False], [3, 1], button=0),
        BlindLevel(1, 2),
        BlindSchedule([BlindLevel(1, 2)], hands_per_level=10),
        agent,
        SimulationResult(10, 0, 2, 1, (agent, agent)),
        HistoryAction.from_str("p3 cbr 7000"),
        next(iter(Stats([table.play_hand()]).values())),
        parse_game("GAMEDEF\nnolimit\nnumPlayers = 2\nnumRounds = 4\nblind = 1 2\n"
                      "firstPlayer = 1 2 2 2\nnumSuits = 4\nnumRanks = 13\nnumHoleCards = 2\n"
                      "numBoardCards = 0 3 1 1\nstack = 200 200\nEND GAMEDEF\n"),
    ]


@pytest.mark.parametrize("value", _frozen_values(),
                         ids=lambda v: type(v).__name__)
def test_frozen_values_refuse_any_assignment_clearly(value: Any) -> None:
    """A name that is not a field (a typo: ``game.big_blnd = 4``) raised ``TypeError: super(type,
    obj): obj must be an instance or subtype of type`` (Python's frozen ``slots=True``
    dataclasses, 3.11 to 3.13); a field raised FrozenInstanceError. Both now do."""
    field = dataclasses.fields(value)[0].name
    for name in (field, "not_a_field"):
        with pytest.raises(dataclasses.FrozenInstanceError, match=f"assign to field '{name}'"):
            setattr(value, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError, match=f"delete field '{name}'"):
            delattr(value, name)
    assert pickle.loads(pickle.dumps(value)) == value


def test_a_subclass_of_a_frozen_value_keeps_its_own_attributes() -> None:
    """As with any frozen dataclass: a subclass's instance may set what is not a field (it
    raised the same TypeError), never a field."""

    class Level(BlindLevel):
        pass

    level = Level(1, 2)
    level.note = "mine"  # type: ignore[attr-defined]
    assert level.note == "mine"  # type: ignore[attr-defined]
    del level.note  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError, match="field 'big_blind'"):
        level.big_blind = 4  # type: ignore[misc]


def test_every_frozen_slotted_dataclass_has_the_clear_refusal() -> None:
    """Every ``@dataclass(frozen=True, slots=True)`` class of the package goes through
    ``frozen_slots`` (a new one without it would answer a typo with Python's TypeError)."""
    import importlib
    import pkgutil

    import holdem

    missing, found = [], 0
    for info in pkgutil.walk_packages(holdem.__path__, "holdem."):
        if info.name.startswith("holdem.rl") or info.name == "holdem.__main__":
            continue  # (the rl extra's frameworks may be absent; the adapters define none)
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if (isinstance(obj, type) and obj.__module__ == module.__name__
                    and dataclasses.is_dataclass(obj) and "__slots__" in vars(obj)
                    and obj.__dataclass_params__.frozen):  # type: ignore[attr-defined]
                found += 1
                if "frozen_slots" not in obj.__setattr__.__qualname__:
                    missing.append(f"{module.__name__}.{obj.__qualname__}")
    assert found >= 13 and missing == []
