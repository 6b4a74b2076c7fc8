"""Tournament blind schedules (R10): levels that rise after a number of hands or minutes.

>>> schedule = BlindSchedule([BlindLevel(10, 20), BlindLevel(15, 30, ante=5)], hands_per_level=8)
>>> schedule.level_at(hands=7).big_blind, schedule.level_at(hands=8).big_blind
(20, 30)
>>> timed = BlindSchedule([BlindLevel(10, 20), BlindLevel(15, 30)], minutes_per_level=10)
>>> timed.level_at(seconds=599.0).big_blind, timed.level_at(seconds=600.0).big_blind
(20, 30)

The last level stays in force once the schedule runs out (WSOP/TDA practice: play continues
at the final level until the director adds more).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from holdem._ints import int_or_none
from holdem._pickling import frozen_slots, setstate_through_init
from holdem._shown import literal, shown
from holdem.errors import InvalidConfigError, InvalidStateError
from holdem.hand._validate import MAX_CHIPS

__all__ = ["BlindLevel", "BlindSchedule"]


@frozen_slots
@dataclass(frozen=True, slots=True)
class BlindLevel:
    """One level: small blind, big blind and ante (R5, R7). ``ante`` follows the game's
    ante type (uniform or big-blind ante)."""

    small_blind: int
    big_blind: int
    ante: int = 0

    def __post_init__(self) -> None:
        for name in ("small_blind", "big_blind", "ante"):
            given = getattr(self, name)
            value = int_or_none(given)  # numpy integers too, kept as plain ints
            if value is None or value < 0:
                raise InvalidConfigError(f"{name} must be an int >= 0, got {shown(given)}")
            object.__setattr__(self, name, value)
            if value > MAX_CHIPS:
                raise InvalidConfigError(f"{name} must be at most the engine's limit of "
                                         f"2**53 = {MAX_CHIPS} chips, got {shown(value)}")
        if self.big_blind < 1:
            raise InvalidConfigError(f"big_blind must be at least 1, got {shown(self.big_blind)}")
        if self.small_blind > self.big_blind:
            raise InvalidConfigError(
                f"small_blind {self.small_blind} is above the big blind {self.big_blind}")

    def __str__(self) -> str:
        ante = f" ante {self.ante}" if self.ante else ""
        return f"{self.small_blind}/{self.big_blind}{ante}"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle through the constructor, so an altered pickle is checked like new input."""
        return (_restore, (BlindLevel, (self.small_blind, self.big_blind, self.ante), {}))

    __setstate__ = setstate_through_init  # a pickle in another form: checked all the same


@frozen_slots
@dataclass(frozen=True, slots=True, init=False)
class BlindSchedule:
    """Blind levels for a tournament table (R10), by hands or by time (exactly one of them).

    - ``hands_per_level``: the level goes up every that many hands (hand counts start at 0).
    - ``minutes_per_level``: the level goes up every that many minutes of the table clock
      (the table's injectable ``clock``, started at its first hand).
    """

    levels: tuple[BlindLevel, ...]
    hands_per_level: int | None
    minutes_per_level: float | None

    def __init__(self, levels: Sequence[BlindLevel], *, hands_per_level: int | None = None,
                 minutes_per_level: float | None = None) -> None:
        try:
            levels = tuple(levels)
        except TypeError:  # not iterable: name what was given, not Python's iteration
            raise InvalidConfigError(f"a schedule needs a sequence of one or more BlindLevel "
                                     f"values, got {shown(levels)}") from None
        if not levels or not all(isinstance(lv, BlindLevel) for lv in levels):
            raise InvalidConfigError("a schedule needs one or more BlindLevel values")
        if (hands_per_level is None) == (minutes_per_level is None):
            raise InvalidConfigError("give exactly one of hands_per_level= or minutes_per_level=")
        if hands_per_level is not None:
            count = int_or_none(hands_per_level)
            if count is None or count < 1:
                raise InvalidConfigError(
                    f"hands_per_level must be an int >= 1, got {shown(hands_per_level)}")
            hands_per_level = count
        if minutes_per_level is not None:
            minutes_per_level = _minutes(minutes_per_level)
        object.__setattr__(self, "levels", levels)
        object.__setattr__(self, "hands_per_level", hands_per_level)
        object.__setattr__(self, "minutes_per_level", minutes_per_level)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle through the constructor, so an altered pickle is checked like new input."""
        return (_restore, (BlindSchedule, (self.levels,), {
            "hands_per_level": self.hands_per_level,
            "minutes_per_level": self.minutes_per_level}))

    def index_at(self, *, hands: int = 0, seconds: float = 0.0) -> int:
        """The 0-based level index after ``hands`` hands / ``seconds`` of play."""
        last = len(self.levels) - 1
        if self.hands_per_level is not None:
            count = int_or_none(hands)  # numpy integers too
            if count is None:
                raise InvalidConfigError(f"hands must be an int number of hands, got "
                                         f"{shown(hands)}")
            return min(max(count // self.hands_per_level, 0), last)
        assert self.minutes_per_level is not None
        if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real) or (
                seconds != seconds):
            raise InvalidConfigError(f"seconds must be a number of seconds, got {shown(seconds)}")
        try:
            elapsed = float(seconds)
        except OverflowError:  # an int no float holds: as far as time goes, forever
            elapsed = math.inf if seconds > 0 else -math.inf
        period = 60.0 * self.minutes_per_level
        if elapsed <= 0 or period == math.inf:
            return 0
        if elapsed == math.inf:
            return last
        periods = elapsed // period  # inf when the period is tiny: past the last level
        return last if periods >= last else int(periods)

    def level_at(self, *, hands: int = 0, seconds: float = 0.0) -> BlindLevel:
        """The level in force after ``hands`` hands / ``seconds`` of play."""
        return self.levels[self.index_at(hands=hands, seconds=seconds)]

    def __repr__(self) -> str:
        by = (f"hands_per_level={literal(self.hands_per_level)}" if self.hands_per_level is not None
              else f"minutes_per_level={self.minutes_per_level}")
        return f"BlindSchedule({list(self.levels)!r}, {by})"


def _minutes(value: object) -> float:
    """``minutes_per_level`` as the schedule keeps it: an int stays an int (numpy's too),
    another real number (a Fraction, a numpy float) becomes the float nearest to it."""
    count = int_or_none(value)
    if count is not None:
        value = count
    elif isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidConfigError(f"minutes_per_level must be a number of minutes > 0, got "
                                 f"{shown(value)}")
    try:
        minutes = float(value)
    except OverflowError:
        raise InvalidConfigError(f"minutes_per_level must be a number a float can hold "
                                 f"(float('inf') never raises the level), got "
                                 f"{shown(value)}") from None
    if not minutes > 0:
        raise InvalidConfigError(f"minutes_per_level must be > 0, got {shown(value)}")
    return value if type(value) is int else minutes


def _restore(cls: object, args: object, kwargs: object) -> BlindLevel | BlindSchedule:
    """Unpickle a :class:`BlindLevel` or :class:`BlindSchedule` through its checks (a corrupt
    pickle raises :class:`InvalidStateError`)."""
    if cls not in (BlindLevel, BlindSchedule) or type(args) is not tuple or type(
            kwargs) is not dict:
        raise InvalidStateError(f"not a valid pickled blind level or schedule: {shown(cls)}")
    try:
        return cls(*args, **kwargs)
    except (InvalidConfigError, TypeError) as exc:
        raise InvalidStateError(f"not a valid pickled {cls.__name__}: {exc}") from None
