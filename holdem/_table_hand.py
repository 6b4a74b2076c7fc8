"""Private helpers of :class:`holdem.table.Table` for playing one hand.

- :func:`fast_code`: decides when an agent's answer is plainly legal, so the trusted
  ``apply_unchecked`` path can be taken (anything else goes through the checked ``apply``,
  which raises the precise error).
- ``compiled_loop``: :mod:`holdem._table_loop` (the table's decision loop, ``RandomAgent``'s
  policy and the per-hand bookkeeping in C) when the compiled hand core is in use, else None.
  A build whose table loop fails to load says so with a ``RuntimeWarning`` and plays on with
  the Python steps (correct, slower).

The table's extra forced bets (a dead small blind, entry bets and missed blinds) are posted by
``Game.new_hand(dead_small_blind=..., extra_posts=...)`` itself, on the compiled core.
"""

from __future__ import annotations

from typing import Any

from holdem.actions import Action, ActionType
from holdem.hand_types import LegalActions
from holdem.state import COMPILED

__all__ = ["compiled_loop", "fast_code"]

compiled_loop: Any = None
if COMPILED:
    try:
        from holdem import _table_loop as compiled_loop
    except ImportError as exc:  # a broken or partial build: say so, then carry on
        import warnings

        warnings.warn(
            f"holdem: the compiled table loop did not load ({exc}); tables use the Python "
            f"loop, which is correct but slower. Reinstall holdem or rebuild it in place.",
            RuntimeWarning, stacklevel=2)
        compiled_loop = None


def fast_code(action: object, la: LegalActions) -> int:
    """The ``apply_unchecked`` kind of ``action`` when it is plainly legal (0 fold, 1 check or
    call, 2 bet or raise to ``action.to``), else -1: the checked ``apply`` then decides and
    reports. Legal means exactly what :class:`holdem.LegalActions` says: fold when offered,
    check when nothing is owed, call when facing a bet, a bet (no bet yet) or raise (facing
    one) to an int between ``min_to`` and ``max_to``."""
    if type(action) is int:
        if action == 1:
            return 1
        if action == 0:
            return 0 if la.can_fold else -1
        return -1
    if type(action) is not Action:
        return -1
    t, to = action
    if t is _BR or (t is _BET and la.is_bet) or (t is _RAISE and not la.is_bet):
        lo, hi = la.min_to, la.max_to
        if la.can_raise and type(to) is int and lo is not None and hi is not None and lo <= to <= hi:
            return 2
        return -1
    if t is _CC or (t is _CHECK and la.can_check) or (t is _CALL and not la.can_check):
        return 1
    if t is _FOLD_T:
        return 0 if la.can_fold else -1
    return -1


_BR, _BET, _RAISE = ActionType.BET_RAISE, ActionType.BET, ActionType.RAISE
_CC, _CHECK, _CALL = ActionType.CHECK_CALL, ActionType.CHECK, ActionType.CALL
_FOLD_T = ActionType.FOLD
