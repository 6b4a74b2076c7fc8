"""The steps of :class:`holdem.Table` for one hand, apart from the class.

- :func:`run_hand_python`: the decision loop the table runs on the pure-Python reference core
  (the compiled core runs its C twin, :func:`holdem.table._loop.run_hand`; the tests compare
  the two session by session).
- :func:`cached_plan`, :func:`cached_hand`: the seating plan of a hand (button, blinds, who is
  dealt in), a pure function of the seats and the last positions, memoized.
- :func:`fast_code`: decides when an agent's answer is plainly legal, so the trusted
  ``apply_unchecked`` path can be taken (anything else goes through the checked ``apply``,
  which raises the precise error).

The table's extra forced bets (a dead small blind, entry bets and missed blinds) are posted by
``Game.new_hand(dead_small_blind=..., extra_posts=...)`` itself, on the compiled core, and the
hands of tournament players sitting out are dead at the deal (TDA 30,
``Game.new_hand(dead_hands=...)``): they never act. A player who leaves during a hand, or
sits out during one in a tournament, checks when free and folds otherwise, without being
asked; in a cash game a player who sits out during a hand plays it out (is still asked).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from holdem.cards import Card
from holdem.errors import TableError
from holdem.hand.actions import Action, ActionType
from holdem.hand.game import HandState
from holdem.hand.records import LegalActions, Street
from holdem.table._seating import Plan, Positions, plan_hand
from holdem.table.agents import Observation
from holdem.table.player import Player

__all__ = ["cached_hand", "cached_plan", "fast_code", "run_hand_python"]

_STREETS = tuple(Street)
_BET_RAISE = ActionType.BET_RAISE


def run_hand_python(state: HandState, players: list[Player], dealt: tuple[int, ...],
                    names: tuple[str, ...], button_index: int, bb: int, number: int,
                    tournament: bool, sitting_out: object,
                    apply_checked: Callable[[HandState, Player, int, object], None]) -> None:
    """One hand's decision loop in Python (the pure-Python core's; the compiled core runs
    the same loop in C, :func:`holdem.table._loop.run_hand`, with the same arguments):
    observation, agent call, then the answer applied directly when plainly legal, else
    through ``apply_checked`` (the checked ``apply``, which raises the agent's error)."""
    seated = tuple(players)  # an agent that changes the caller's list changes no seat
    acts = [p._act for p in seated]
    holes = state.hole_cards  # dealt at the start: the same tuple for the whole hand
    n = state.num_players
    if not (len(seated) == len(dealt) == len(names) == len(holes) == n):
        raise TableError(f"run_hand: the hand has {n} seats but {len(seated)} players, "
                         f"{len(dealt)} seats dealt, {len(names)} names and {len(holes)} hole "
                         f"cards were given: one of each per seat")
    is_terminal, legal_actions = state.is_terminal, state.legal_actions
    apply_unchecked = state.apply_unchecked
    # stacks, bets, committed and the pot change only when chips go in or a street starts,
    # the board only with the street: after a check or a fold on the same street the last
    # values are still right (and immutable)
    street = -1
    moved = True
    stacks: tuple[int, ...] = ()
    bets = committed = stacks
    board: tuple[Card, ...] = ()
    pot = 0
    dead = tuple(state.dead_hands)
    while not is_terminal():
        i: int = state.actor  # type: ignore[assignment]
        p = seated[i]
        la = legal_actions()
        if p.leaving or (tournament and p.status is sitting_out):
            apply_unchecked(1 if la.can_check else 0)
            continue
        st = state.street_index
        if moved or st != street:
            stacks, bets, committed = state.stacks, state.bets, state.committed
            pot = state.pot
            if st != street:
                board = state.board
                street = st
        # the agent of a seated player is set, and every seat dealt in has its hole cards
        action = acts[i](Observation(  # type: ignore[misc]
            dealt[i], i, names[i], holes[i], board, _STREETS[st], pot, stacks,  # type: ignore[arg-type]
            bets, committed, dealt, names, button_index, la, bb, number,
            state.raw_history(), dead))
        if type(action) is int:
            if action == 1:
                moved = not la.can_check
                apply_unchecked(1)
                continue
            if action == 0 and la.can_fold:
                moved = False
                apply_unchecked(0)
                continue
        elif type(action) is Action and len(action) == 2 and action[0] is _BET_RAISE:
            to = action[1]
            if (la.can_raise and type(to) is int and la.min_to is not None
                    and la.max_to is not None and la.min_to <= to <= la.max_to):
                moved = True
                apply_unchecked(2, to)
                continue
        else:
            code = fast_code(action, la)
            if code >= 0:
                moved = code == 2 or (code == 1 and not la.can_check)
                apply_unchecked(code, action[1] if code == 2 else 0)  # type: ignore[index,arg-type]
                continue
        moved = True
        apply_checked(state, p, dealt[i], action)


@functools.lru_cache(maxsize=4096)
def cached_plan(kinds: tuple[int, ...], prev: Positions | None, dead_button: bool,
                 first_button: int) -> Plan | None:
    """:func:`holdem.table._seating.plan_hand` is a pure function of these: memoized."""
    return plan_hand(kinds, prev, dead_button=dead_button, first_button=first_button)


@functools.lru_cache(maxsize=4096)
def cached_hand(kinds: tuple[int, ...], prev: Positions | None, dead_button: bool,
                 first_button: int) -> tuple[Plan, dict[int, int], int, bool] | None:
    """The plan with what dealing it needs, worked out once per (seating, last positions):
    ``(plan, position of each dealt seat, button position, dead small blind)``. The dict is
    shared between hands: read it, never change it."""
    plan = cached_plan(kinds, prev, dead_button, first_button)
    if plan is None:
        return None
    dealt = plan.dealt
    n = len(dealt)
    index = {s: i for i, s in enumerate(dealt)}
    pos = plan.positions
    bb_i = index[pos.big_blind]
    dead_sb = n > 2 and pos.small_blind is None
    if n == 2:
        btn = index[pos.button]
    elif dead_sb:
        btn = (bb_i - 1) % n  # TDA dead button: the button right behind the big blind
    else:
        assert pos.small_blind is not None and index[pos.small_blind] == (bb_i - 1) % n
        btn = (bb_i - 2) % n
    return plan, index, btn, dead_sb


def fast_code(action: object, la: LegalActions) -> int:
    """The ``apply_unchecked`` kind of ``action`` when it is plainly legal (0 fold, 1 check or
    call, 2 bet or raise to ``action.to``), else -1: the checked ``apply`` then decides and
    reports. Legal means exactly what :class:`holdem.LegalActions` says: fold when offered,
    check when nothing is owed, call when facing a bet (none of them with an amount), a bet
    (no bet yet) or raise (facing one) to an int between ``min_to`` and ``max_to``."""
    if type(action) is int:
        if action == 1:
            return 1
        if action == 0:
            return 0 if la.can_fold else -1
        return -1
    if type(action) is not Action or len(action) != 2:  # (tuple.__new__ makes others)
        return -1
    t, to = action
    if t is _BR or (t is _BET and la.is_bet) or (t is _RAISE and not la.is_bet):
        lo, hi = la.min_to, la.max_to
        if la.can_raise and type(to) is int and lo is not None and hi is not None and lo <= to <= hi:
            return 2
        return -1
    if to is not None:  # a check, call or fold takes no amount
        return -1
    if t is _CC or (t is _CHECK and la.can_check) or (t is _CALL and not la.can_check):
        return 1
    if t is _FOLD_T:
        return 0 if la.can_fold else -1
    return -1


_BR, _BET, _RAISE = ActionType.BET_RAISE, ActionType.BET, ActionType.RAISE
_CC, _CHECK, _CALL = ActionType.CHECK_CALL, ActionType.CHECK, ActionType.CALL
_FOLD_T = ActionType.FOLD
