"""The built-in Python agents themselves: their parameters, ``spawn`` and pickles, as
``holdem.simulate`` uses them (also for subclasses that decide their own way)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from holdem import CallAgent, EquityAgent, Game, InvalidConfigError, Table


@pytest.mark.parametrize("kw, match", [
    ({"samples": 0}, "samples"),
    ({"samples": -5}, "samples"),
    ({"samples": 1.5}, "samples"),
    ({"samples": "48"}, "samples"),
    ({"samples": True}, "samples"),
    ({"raise_at": math.nan}, "raise_at"),
    ({"raise_at": "high"}, "raise_at"),
    ({"raise_at": None}, "raise_at"),
    ({"raise_at": True}, "raise_at"),
])
def test_equity_agent_refuses_bad_parameters(kw: dict[str, Any], match: str) -> None:
    """Before, ``samples=0`` raised ZeroDivisionError at the agent's first decision, a negative
    count played with an equity of 0, and a bad ``raise_at`` raised TypeError or ValueError
    inside a hand."""
    with pytest.raises(InvalidConfigError, match=match):
        EquityAgent(seed=1, **kw)


def test_equity_agent_accepts_good_parameters_and_plays() -> None:
    for kw in ({"samples": 1}, {"samples": 3, "raise_at": 1}, {"raise_at": 0.5},
               {"raise_at": math.inf}):
        agent = EquityAgent(seed=1, **kw)  # type: ignore[arg-type]
        table = Table(Game(big_blind=2), seats=2, seed=1)
        table.sit(0, "e", 200, agent)
        table.sit(1, "c", 200, CallAgent())
        record = table.play_hand()
        assert sum(record.payoffs.values()) == 0
