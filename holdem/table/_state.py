"""The checks of a :class:`holdem.Table` restored from a pickle.

A pickle is input like any other: :func:`check_table_state` refuses a state the table could
not have reached (wrong types, seats or positions out of range, chips that do not add up,
stacks above the engine's limit, a table caught in the middle of a hand) with
:class:`holdem.errors.InvalidStateError`, before the table takes it, so a restored table
never fails later with an ``IndexError`` or a crash in the hand core.
"""

from __future__ import annotations

import math
from typing import Any

from holdem._parallel import master_seed
from holdem._shown import shown
from holdem.errors import InvalidStateError
from holdem.hand._validate import MAX_CHIPS
from holdem.hand.game import Game, Mode
from holdem.table._seating import Positions
from holdem.table.player import Player, PlayerStatus
from holdem.table.tournament import BlindSchedule

__all__ = ["FIELDS", "MAX_HANDS", "check_table_state", "copy_fields", "finite_seconds"]

FIELDS = frozenset({
    "tournament", "min_buy_in", "game", "size", "max_buy_in", "dead_button", "schedule",
    "clock", "seed", "_bits", "_seats", "_prev", "_prev_sb_pos", "_first_button",
    "_clock_seconds", "hand_number", "bought_in", "cashed_out", "rake", "places", "_in_hand",
})
"""What a pickled table holds (its caches, the level games and the seed head, are rebuilt).
``_clock_seconds`` stands for the table's ``_start_time``: the seconds its level clock had run
when it was pickled (None: not started), not the clock's raw reading, which means nothing to
another process (the default clock, :func:`time.monotonic`, starts anew at every boot)."""

MAX_HANDS = (1 << 63) - 1
"""The most hands a table counts (its ``hand_number``, as a pickle holds it); a table that has
played them plays no more."""


def _fail(what: str) -> InvalidStateError:
    return InvalidStateError(f"not a valid pickled Table: {what}")


def _is_int(v: object) -> bool:
    return type(v) is int


def finite_seconds(v: object) -> bool:
    """Whether ``v`` is a time in seconds a table can use: an int or float (not a bool),
    finite (an int no float holds is not)."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        return False
    try:
        return math.isfinite(v)
    except OverflowError:  # an int no float holds
        return False


def _seat_or_none(v: object, size: int) -> bool:
    return v is None or (_is_int(v) and 0 <= v < size)  # type: ignore[operator]


def check_table_state(state: object, player_type: type[Player]) -> None:
    """Raise :class:`InvalidStateError` unless ``state`` (a pickled table's ``__dict__``) is
    one a :class:`holdem.Table` can hold between hands."""
    if not isinstance(state, dict) or set(state) != FIELDS:
        keys = shown(list(state)) if isinstance(state, dict) else type(state).__name__
        raise _fail(f"expected the fields {sorted(FIELDS)}, got {keys}")
    s: dict[str, Any] = state
    game = s["game"]
    if not isinstance(game, Game):
        raise _fail(f"game must be a holdem.Game, got {shown(game)}")
    size = s["size"]
    if not _is_int(size) or not 2 <= size <= 10:
        raise _fail(f"a table has 2 to 10 seats, got {shown(size)}")
    tournament = game.mode is Mode.TOURNAMENT
    if s["tournament"] is not tournament:
        raise _fail(f"tournament must be {tournament} for {shown(game)}")
    if tournament and game.rake is not None:
        raise _fail(f"a tournament game takes no rake (R34), got {shown(game)}")
    if s["min_buy_in"] != (1 if tournament else 10 * game.big_blind) or not _is_int(
            s["min_buy_in"]):
        raise _fail(f"min_buy_in {shown(s['min_buy_in'])} does not match the game")
    cap = s["max_buy_in"]
    if cap is not None and (not _is_int(cap) or cap < s["min_buy_in"]):
        raise _fail(f"max_buy_in must be None or an int >= {s['min_buy_in']}, got {shown(cap)}")
    for name in ("dead_button", "_in_hand"):
        if type(s[name]) is not bool:
            raise _fail(f"{name} must be True or False, got {shown(s[name])}")
    if s["_in_hand"]:
        raise _fail("it was saved in the middle of a hand")
    schedule = s["schedule"]
    if schedule is not None and (not isinstance(schedule, BlindSchedule) or not tournament):
        raise _fail(f"schedule must be None or a BlindSchedule of a tournament, "
                    f"got {shown(schedule)}")
    if not callable(s["clock"]):
        raise _fail(f"clock must be callable, got {shown(s['clock'])}")
    played = s["_clock_seconds"]
    if played is not None and not (finite_seconds(played) and played >= 0):
        raise _fail(f"the seconds played on the level clock must be None or a finite number "
                    f">= 0, got {shown(played)}")
    seed, bits = s["seed"], s["_bits"]
    if not _is_int(seed) or not _is_int(bits) or master_seed(seed) != (seed, bits):
        raise _fail(f"the seed {shown(seed)} and its bits {shown(bits)} do not match")
    if not _is_int(s["_first_button"]) or not 0 <= s["_first_button"] < size:
        raise _fail(f"the first button must be a seat 0..{size - 1}, got "
                    f"{shown(s['_first_button'])}")
    _check_seats(s["_seats"], size, player_type)
    if tournament:
        # a tournament player whose stack reaches 0 is eliminated at the end of that hand
        broke = [p.name for p in s["_seats"] if p is not None and p.stack == 0]
        if broke:
            raise _fail(f"a tournament seats no player without chips (they are eliminated), "
                        f"got {shown(broke)}")
        # nor one who waits for the big blind or owes a blind (cash rules, R36)
        owing = [p.name for p in s["_seats"]
                 if p is not None and (p.owes or p.status is PlayerStatus.WAITING)]
        if owing:
            raise _fail(f"a tournament player neither waits for the big blind nor owes a "
                        f"blind, got {shown(owing)}")
    prev = s["_prev"]
    hands = s["hand_number"]
    if not _is_int(hands) or not 0 <= hands <= MAX_HANDS:
        raise _fail(f"hand_number must be an int 0..2**63-1, got {shown(hands)}")
    if prev is None:
        if hands != 0 or s["_prev_sb_pos"] is not None:
            raise _fail(f"no last hand's positions after {shown(hands)} hands")
    elif not (isinstance(prev, Positions) and len(prev) == 4
              and all(_is_int(v) and 0 <= v < size for v in (prev.button, prev.big_blind))
              and _seat_or_none(prev.small_blind, size) and _seat_or_none(prev.sb_seat, size)):
        raise _fail(f"last hand's positions must be seats 0..{size - 1}, got {shown(prev)}")
    if not _seat_or_none(s["_prev_sb_pos"], size):
        raise _fail(f"last small blind seat must be None or 0..{size - 1}, got "
                    f"{shown(s['_prev_sb_pos'])}")
    for name in ("bought_in", "cashed_out", "rake"):
        if not _is_int(s[name]) or s[name] < 0:
            raise _fail(f"{name} must be an int >= 0, got {shown(s[name])}")
    in_play = sum(p.stack for p in s["_seats"] if p is not None)
    if in_play > MAX_CHIPS:
        raise _fail(f"{in_play} chips at the table, above the engine's limit of 2**53")
    if in_play + s["cashed_out"] + s["rake"] != s["bought_in"]:
        raise _fail(f"chips do not add up: {in_play} in play + {shown(s['cashed_out'])} cashed "
                    f"out + {shown(s['rake'])} rake != {shown(s['bought_in'])} bought in")
    if tournament and s["cashed_out"]:  # (nobody leaves a tournament with chips)
        raise _fail(f"a tournament cashes nobody out, got {shown(s['cashed_out'])} chips")
    places = s["places"]
    if not isinstance(places, dict) or not all(
            isinstance(k, str) and _is_int(v) and v >= 1 for k, v in places.items()):
        raise _fail(f"places must map names to places >= 1, got {shown(places)}")
    if places and not tournament:
        raise _fail("a cash table has no finishing places")
    if places:
        _check_places(places, [p.name for p in s["_seats"] if p is not None], size, hands)


def _check_places(places: dict[str, int], seated: list[str], size: int, hands: int) -> None:
    """The finishing places of a tournament (see ``Table._eliminate``): a player knocked out
    finishes 1 + the number of players ahead (the ones still seated, and the ones knocked out
    later or with a bigger stack), players out in one hand with equal stacks sharing a place;
    the last player seated has won (place 1)."""
    out = sorted(place for name, place in places.items() if name not in seated)
    won = {name: place for name, place in places.items() if name in seated}
    if hands == 0 or len(places) > size or not seated or won != (
            {seated[0]: 1} if len(seated) == 1 and out else {}) or any(
            place != len(seated) + 1 + out.index(place) for place in out):
        raise _fail(f"places {shown(places)} are not the finishing places of the players "
                    f"knocked out, with {shown(seated)} seated after {hands} hands")


def _check_seats(seats: object, size: int, player_type: type[Player]) -> None:
    if type(seats) is not list or len(seats) != size:
        raise _fail(f"the seats must be a list of {size} entries, got {shown(seats)}")
    names = set()
    for k, p in enumerate(seats):
        if p is None:
            continue
        if type(p) is not player_type:
            raise _fail(f"seat {k} must hold a Player or None, got {shown(p)}")
        problem = p.problem()  # its fields are all there; the agent's act looked up too
        if problem is not None:
            raise _fail(f"seat {k}: {problem}")
        if p.seat != k:
            raise _fail(f"the player at seat {k} says seat {shown(p.seat)}")
        if not isinstance(p.name, str) or not p.name or p.name in names:
            raise _fail(f"seat {k}: player names must be distinct non-empty strings, "
                        f"got {shown(p.name)}")
        names.add(p.name)
        if p.leaving:  # a player who leaves during a hand is gone when it ends
            raise _fail(f"seat {k}: {p.name!r} is leaving, but a table between hands has "
                        f"seated nobody who is")


def copy_fields(state: dict[str, Any], clock_seconds: float | None) -> dict[str, Any]:
    """The fields of a table's ``__dict__`` that are pickled (see :data:`FIELDS`), with
    ``clock_seconds`` for the clock's start."""
    out = {k: v for k, v in state.items() if k in FIELDS}
    out["_clock_seconds"] = clock_seconds
    return out

