"""The Python steps of :class:`holdem.Table` for one hand, kept apart from the class.

- :func:`run_hand_python`: the decision loop the table runs on the pure-Python reference core
  (the compiled core runs its C twin, :func:`holdem._table_loop.run_hand`; the tests compare
  the two session by session).
- :func:`cached_plan`, :func:`cached_hand`: the seating plan of a hand (button, blinds, who is
  dealt in), a pure function of the seats and the last positions, memoized.
- :func:`seed_head`, :func:`hand_seed`: each hand's deck seed (``holdem._parallel.chunk_seed``
  written out).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from holdem._seating import Plan, Positions, plan_hand
from holdem._table_hand import fast_code
from holdem.actions import Action, ActionType
from holdem.agents import Observation
from holdem.hand_types import Street
from holdem.state import HandState

if TYPE_CHECKING:
    from holdem.table import Player

__all__ = ["cached_hand", "cached_plan", "hand_seed", "run_hand_python", "seed_head"]

_STREETS = tuple(Street)
_BET_RAISE = ActionType.BET_RAISE
_new_obs = tuple.__new__  # Observation fields in order, without the keyword-argument layer


def run_hand_python(state: HandState, players: list[Player], dealt: tuple[int, ...],
                    names: tuple[str, ...], button_index: int, bb: int, number: int,
                    tournament: bool, sitting_out: object,
                    apply_checked: Callable[[HandState, Player, int, object], None]) -> None:
    """One hand's decision loop in Python (the pure-Python core's; the compiled core runs
    the same loop in C, :func:`holdem._table_loop.run_hand`, with the same arguments):
    observation, agent call, then the answer applied directly when plainly legal, else
    through ``apply_checked`` (the checked ``apply``, which raises the agent's error)."""
    acts = [p._act for p in players]
    holes = state.hole_cards  # dealt at the start: the same tuple for the whole hand
    is_terminal, legal_actions = state.is_terminal, state.legal_actions
    apply_unchecked = state.apply_unchecked
    # stacks, bets, committed and the pot change only when chips go in or a street starts,
    # the board only with the street: after a check or a fold on the same street the last
    # values are still right (and immutable)
    street = -1
    moved = True
    stacks: tuple[int, ...] = ()
    bets = committed = board = stacks
    pot = 0
    while not is_terminal():
        i: int = state.actor  # type: ignore[assignment]
        p = players[i]
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
        action = acts[i](_new_obs(Observation, (  # type: ignore[misc]
            dealt[i], i, names[i], holes[i], board, _STREETS[st], pot, stacks,
            bets, committed, dealt, names, button_index, la, bb, number,
            state.raw_history())))
        if type(action) is int:
            if action == 1:
                moved = not la.can_check
                apply_unchecked(1)
                continue
            if action == 0 and la.can_fold:
                moved = False
                apply_unchecked(0)
                continue
        elif type(action) is Action and action[0] is _BET_RAISE:
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
    """:func:`holdem._seating.plan_hand` is a pure function of these: memoized."""
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


def seed_head(bits: int) -> int:
    """The part of :func:`holdem._parallel.chunk_seed` that depends on the seed only."""
    x = ((bits ^ 0x6A09E667F3BCC909) + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def hand_seed(head: int, number: int) -> int:
    """The deck seed of hand ``number``: ``chunk_seed(bits, number)`` with ``head`` from
    :func:`seed_head` (``bits``), written out (two splitmix64 steps) for speed."""
    x = head ^ ((number * 0xD1B54A32D192ED03 + 0x243F6A8885A308D3) & _MASK64)
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


_MASK64 = (1 << 64) - 1
