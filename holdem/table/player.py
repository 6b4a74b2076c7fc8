"""A player at a :class:`holdem.Table`: :class:`Player` and its :class:`PlayerStatus`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from enum import Enum

from holdem._enums import NamedRepr
from holdem._shown import shown
from holdem.errors import InvalidStateError
from holdem.hand._validate import MAX_CHIPS
from holdem.table.agents import ActionLike, AgentLike, Observation, resolve_agent

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
    agent: AgentLike
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
        self._act = None  # (looked up again by the check below, and by a restored table)
        problem = self.problem()
        if problem is None and not (type(self.seat) is int and 0 <= self.seat < 10):
            problem = f"a seat must be an int 0..9, got {shown(self.seat)}"
        if problem is not None:
            raise InvalidStateError(f"not a valid pickled Player: {problem}")

    def problem(self) -> str | None:
        """What is wrong with the fields a pickle restored (the seat aside: a table checks
        it against its own), or None; the agent's ``act`` is looked up."""
        if not all(hasattr(self, f) for f in _PLAYER_FIELDS):
            return "a player made without its fields (by Player.__new__ or a pickle without them)"
        if not isinstance(self.name, str) or not self.name:
            return f"a name must be a non-empty string, got {shown(self.name)}"
        if type(self.stack) is not int or not 0 <= self.stack <= MAX_CHIPS:
            return f"a stack must be an int 0..2**53, got {shown(self.stack)}"
        if not isinstance(self.status, PlayerStatus):
            return f"status must be a PlayerStatus, got {shown(self.status)}"
        for field in ("entry_due", "owes_big_blind", "owes_small_blind", "leaving"):
            if type(getattr(self, field)) is not bool:
                return f"{field} must be True or False, got {shown(getattr(self, field))}"
        if type(self.hands_played) is not int or self.hands_played < 0:
            return f"hands_played must be an int >= 0, got {shown(self.hands_played)}"
        act = resolve_agent(self.agent)
        if act is None:
            return f"the agent {shown(self.agent)} cannot act"
        self._act = act
        return None


_PLAYER_FIELDS = ("name", "seat", "stack", "agent", "status", "entry_due", "owes_big_blind",
                  "owes_small_blind", "leaving", "hands_played")
