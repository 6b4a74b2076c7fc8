"""Tournament tables as a user running a sit-and-go sees them: chips, blind schedules, the
errors of bad schedules. Rule ids from RULES.md (and TDA rules) are in the docstrings."""

from __future__ import annotations

import copyreg
import pickle
from typing import Any

import pytest
from table_checks import call_all

from holdem import (
    Game,
    InvalidConfigError,
    InvalidStateError,
    Mode,
    Table,
)
from holdem.pots import Rake


def _forged_table(state: dict[str, Any]) -> Any:
    """Load a table pickle whose state was altered to ``state``."""

    class Forged:
        def __reduce__(self) -> tuple[Any, ...]:
            return (copyreg._reconstructor, (Table, object, None),  # type: ignore[attr-defined]
                    state)

    return pickle.loads(pickle.dumps(Forged()))


# ---------------------------------------------------------------------- rake (R34)
def test_R34_a_tournament_table_takes_no_rake() -> None:
    """R34's rake is the house's share of a cash pot; the table's rules give it to cash mode
    only ("Cash mode: rake from game.rake"). A tournament's chips are not money: no pot of a
    tournament is raked, or the winner would end with fewer chips than were bought in. A
    tournament game with a rake is refused when the table is made, not raked hand after hand."""
    game = Game(big_blind=10, mode=Mode.TOURNAMENT, rake=Rake(0.1, cap=50))
    with pytest.raises(InvalidConfigError, match="rake"):
        Table(game, seats=3, seed=1)


def test_R34_an_altered_pickle_of_a_tournament_table_with_a_rake_is_refused() -> None:
    t = Table(Game(big_blind=10, mode=Mode.TOURNAMENT), seats=3, seed=1)
    call_all(t, [0, 1, 2], stack=500)
    t.play(2)
    state = dict(t.__getstate__())
    state["game"] = Game(big_blind=10, mode=Mode.TOURNAMENT, rake=Rake(0.1))
    with pytest.raises(InvalidStateError, match="not a valid pickled Table"):
        _forged_table(state)
    assert pickle.loads(pickle.dumps(t)).player("s0").stack == t.player("s0").stack

