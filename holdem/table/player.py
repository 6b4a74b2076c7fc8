"""A player at a :class:`holdem.Table`: :class:`Player` and its :class:`PlayerStatus`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from enum import Enum
from typing import Any

from holdem._enums import NamedRepr
from holdem._shown import shown
from holdem.errors import InvalidStateError
from holdem.table.agents import ActionLike, Observation

__all__ = ["Player", "PlayerStatus"]


class PlayerStatus(NamedRepr, Enum):
    """``ACTIVE`` (dealt in when possible), ``SITTING_OUT``, ``WAITING`` (for the big blind)."""

    ACTIVE = "active"
    SITTING_OUT = "sitting out"
    WAITING = "waiting for the big blind"



@dataclasses.dataclass(eq=False, slots=True)
class Player:
    """A player at the table (owned by the table: change it through :class:`Table` methods)."""

    name: str
    seat: int
    stack: int
    agent: Any
    status: PlayerStatus = PlayerStatus.ACTIVE
    entry_due: bool = False
    owes_big_blind: bool = False
    owes_small_blind: bool = False
    leaving: bool = False
    hands_played: int = 0
    _act: Callable[[Observation], ActionLike] | None = dataclasses.field(repr=False, default=None)

    @property
    def owes(self) -> bool:
        """Whether the player must post before being dealt in (entry bet or missed blinds)."""
        return self.entry_due or self.owes_big_blind or self.owes_small_blind

    def __getstate__(self) -> tuple[object, ...]:
        # the agent's function is looked up again when the table is restored
        return tuple([getattr(self, f) for f in _PLAYER_FIELDS])

    def __setstate__(self, state: tuple[object, ...]) -> None:
        if type(state) is not tuple or len(state) != len(_PLAYER_FIELDS):
            raise InvalidStateError(f"not a valid pickled Player: {shown(state)}")
        for f, v in zip(_PLAYER_FIELDS, state, strict=True):
            object.__setattr__(self, f, v)
        self._act = None


_PLAYER_FIELDS = ("name", "seat", "stack", "agent", "status", "entry_due", "owes_big_blind",
                  "owes_small_blind", "leaving", "hands_played")
