"""A game as the hand cores see it: its betting :class:`Plan`, the :class:`GameLike` protocol
of what they read, and the one class whose instances a hand state may hold.

The cores (``holdem.hand._reference``, ``holdem.hand._compiled``, their validation, settlement
and pickle checks) sit below :class:`holdem.Game`, whose ``new_hand`` starts them: they never
import it. They read a game through :class:`GameLike`, and a pickled hand is accepted only when
its game is an instance of the class :mod:`holdem.hand.game` declares with
:func:`set_game_class` when it is imported (before that, no pickled hand is accepted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

if TYPE_CHECKING:
    from holdem.pots import Rake

__all__ = ["STRUCTURE_CODES", "UNBOUNDED_CAP", "GameLike", "Plan", "is_game", "set_game_class"]


class Plan(NamedTuple):
    """What a hand's betting engine needs from a :class:`holdem.Game`, derived once per Game
    (``game._plan``) and read by name. Field for field the C ``hd_rules_t`` (csrc/hd_hand.h)."""

    structure: int  # 0 no-limit, 1 pot-limit, 2 fixed-limit
    straddle: bool  # R8: a live 2 * big_blind left of the big blind
    bb_ante: bool  # R7: the big blind posts the ante (dead money), else uniform
    deal_from_bb: bool  # R12: cards dealt from left of the big blind
    lift_heads_up: bool  # fixed limit: the cap is lifted with two players left
    fold_free: bool  # R17: folding is offered when checking is free
    cap: int  # fixed limit: a bet and max_raises raises (R27); else unbounded (1 << 30)
    big_blind: int
    small_blind: int
    ante: int
    sizes: tuple[int, int, int, int]  # bet size per street (fixed limit: small, small, big, big)
    rake: tuple[int, int, int, int] | None  # (numerator, denominator, cap or -1, no flop no drop)


STRUCTURE_CODES = {"NL": 0, "PL": 1, "FL": 2}
""":class:`holdem.Structure` value -> :attr:`Plan.structure` code (the C ``HD_NL``/``HD_PL``/``HD_FL``)."""

UNBOUNDED_CAP = 1 << 30
""":attr:`Plan.cap` outside fixed limit (the C ``HD_HAND_UNBOUNDED``)."""


class GameLike(Protocol):
    """What the hand cores read of a game (:class:`holdem.Game` is the one implementation)."""

    @property
    def _plan(self) -> Plan: ...

    @property
    def _core_rules(self) -> Any: ...  # the compiled core's C copy of _plan, made on first use

    @property
    def big_blind(self) -> int: ...

    @property
    def straddle(self) -> bool: ...

    @property
    def muck_losing_hands(self) -> bool: ...

    @property
    def rake(self) -> Rake | None: ...


_GAME_CLASS: list[type] = []  # set once, by holdem.hand.game at import


def set_game_class(cls: type) -> None:
    """Declare the class of the games a hand state may hold (:class:`holdem.Game`; a reload
    of its module declares the new class)."""
    _GAME_CLASS[:] = [cls]


def is_game(obj: object) -> bool:
    """Whether ``obj`` is a game of the declared class (False while none is declared)."""
    return bool(_GAME_CLASS) and isinstance(obj, _GAME_CLASS[0])
