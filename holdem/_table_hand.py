"""Private helpers of :class:`holdem.table.Table` for playing one hand.

- :func:`fast_code`: decides when an agent's answer is plainly legal, so the trusted
  ``apply_unchecked`` path can be taken (anything else goes through the checked ``apply``,
  which raises the precise error).
- :func:`dead_small_blind`, :func:`extra_posts`, :func:`restart_action`: the table's forced
  bets that ``Game.new_hand`` does not post (see the comment above them).
"""

from __future__ import annotations

from typing import Any

from holdem.actions import Action, ActionType
from holdem.hand_types import LegalActions, Post

__all__ = ["dead_small_blind", "extra_posts", "fast_code", "restart_action"]


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


# ---------------------------------------------------------------------- hand adapters
# The hand state machine posts the antes and the two blinds of a regular deal. The table
# needs two more cases, added here on a freshly dealt hand before anyone acts:
# a dead small blind (no small blind, the button one seat behind the big blind) and extra
# posts (an entry bet or missed blinds: live chips count as a bet, dead chips do not).
# ``Game.new_hand`` has no parameters for them yet, so these hands are dealt on the
# pure-Python reference core (``ReferenceHandState``: same API, same cards for a seed, same
# rules), whose plain slots these helpers adjust. Every other hand uses the compiled core.

def dead_small_blind(state: Any, button: int) -> None:
    """The hand was built one seat early with a zero small blind: put the button back."""
    n = state._n
    if state.game.deal_start.value == "button":
        # cards were dealt from the seat after the build button: deal from the real one
        hole = state._hole
        state._hole = tuple(hole[(j - 1) % n] for j in range(n))
    state._button = button
    state._sb_seat = button
    if state._over:  # everybody all in from the antes: resolve again with the real button
        state._finish()


def extra_posts(state: Any, i: int, live: int, dead: int) -> list[tuple[str, int]]:
    """Post the live part first (a short stack posts it all in for less, R9), then the dead
    part from what is left."""
    stacks = state._stacks
    made = []
    posts = list(state._posts)
    if live and stacks[i]:
        a = min(live, stacks[i])
        stacks[i] -= a
        state._bets[i] += a
        state._committed[i] += a
        posts.append(Post(i, "entry_big_blind", a))
        made.append(("entry_big_blind", a))
    if dead and stacks[i]:
        a = min(dead, stacks[i])
        stacks[i] -= a
        state._committed[i] += a
        posts.append(Post(i, "dead_small_blind", a))
        made.append(("dead_small_blind", a))
    state._posts = tuple(posts)
    return made


def restart_action(state: Any, last: int) -> None:
    """Find the first seat to act again after extra posts (left of the last blind)."""
    state._legal = None
    actor = state._find_actor((last + 1) % state._n)
    if actor < 0:
        state._actor = -1
        state._end_street()
    else:
        state._actor = actor
