"""The state of one hand, declared once: the fields both hand cores keep, and their checks.

:data:`FIELDS` names every field of a hand's state in pickle order. The compiled core
(``holdem.hand._compiled``) and the reference core (``holdem.hand._reference``) both pickle a hand as the
tuple of these values and both restore one through :func:`check_state`, so a pickle altered
by hand (a seat count of 1000, an actor out of range, a board of nine cards, per-seat arrays
longer than the C struct's arrays, wrong types, chips that do not add up) raises
:class:`holdem.InvalidStateError` before any value reaches a C array. Then
:func:`check_replay` plays the hand again from its start and history: a state whose values
each pass but do not belong together (a forged history, swapped cards) is refused too.
``_compiled.pyx`` checks at import that its ``_getstate``/``_setstate`` handle exactly these
fields, in this order, and checks a loaded struct again in C (``hd_hs_consistent``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from holdem.cards import Card
from holdem.errors import HoldemError, InvalidStateError
from holdem.evaluator import evaluate
from holdem.hand._plan import GameLike, is_game
from holdem.hand._settle import dead_seats
from holdem.hand.actions import MAX_CHIPS as _MAX_CHIPS
from holdem.hand.actions import Action
from holdem.hand.records import HandResult
from holdem.pots import Pot

__all__ = ["FIELDS", "MAX_SEATS", "PER_SEAT", "POST_KINDS", "check_replay", "check_state",
           "plan_fields", "rebuild", "register_core"]

MAX_SEATS = 10  # R1; the compiled core's C struct (hd_hstate_t) holds this many seats
_MAX_TOTAL = MAX_SEATS * _MAX_CHIPS  # all chips of a hand: fits a C int64 with room to spare

FIELDS: tuple[str, ...] = (
    "game", "n", "button", "street", "actor", "raises", "aggr", "nboard", "live", "kind",
    "sb_seat", "bb_seat", "cur", "inc", "full", "bb", "cap", "dead", "sizes", "over",
    "partial", "lift", "fold_free", "stacks", "bets", "committed", "acted", "folded",
    "start_stacks", "hole", "board", "burns", "posts", "hist", "result", "seed",
)
"""Every field of a hand's state, in pickle order (the reference core's slots by name)."""

PER_SEAT: tuple[str, ...] = ("stacks", "bets", "committed", "acted", "folded")
"""The per-seat arrays (``MAX_SEATS`` long in the compiled core's C struct)."""

_BOARD_COUNT = (0, 3, 4, 5, 5)  # board cards dealt by street (preflop .. showdown)
POST_KINDS: tuple[str, ...] = ("ante", "small_blind", "big_blind", "straddle", "big_blind_ante",
                               "entry_big_blind", "dead_small_blind")
"""Every :attr:`holdem.Post.kind`; the compiled core's C post codes (``HD_POST_*``) index it."""
_POST_KINDS = frozenset(POST_KINDS)


_CORES: dict[type, Callable[[Any, Any], Any]] = {}  # hand core base class -> its unpickler


def register_core(base: type, unpickle: Callable[[Any, Any], Any]) -> None:
    """Called by each hand core at import: ``unpickle(cls, state)`` restores a hand whose class
    derives from ``base`` (its ``HandCore``)."""
    _CORES[base] = unpickle


def rebuild(*args: Any) -> Any:
    """Unpickle a hand pickled by either core (both pickle as ``rebuild(cls, FIELDS tuple)``):
    the core of ``cls`` as it is where the pickle is loaded restores it, so a hand pickled
    under ``HOLDEM_PURE_PYTHON=1`` loads in the compiled core and the other way round. A
    ``cls`` that is not a hand class, or other arguments than these two (an altered pickle
    gives what it holds), raise :class:`holdem.InvalidStateError`."""
    if len(args) != 2:
        raise _bad(f"expected a hand class and its state, got {len(args)} values")
    cls, state = args
    if isinstance(cls, type):
        for base, unpickle in _CORES.items():
            if issubclass(cls, base):
                return unpickle(cls, state)
    raise _bad(f"{cls!r} is not a hand class")


def plan_fields(game: GameLike) -> dict[str, Any]:
    """The fields of :data:`FIELDS` that a hand takes from its game (``game._plan``), by name."""
    p = game._plan
    return {"kind": p.structure, "bb": p.big_blind, "sizes": p.sizes, "cap": p.cap,
            "lift": p.lift_heads_up, "fold_free": p.fold_free}


def _bad(reason: str) -> InvalidStateError:
    return InvalidStateError(f"not a valid pickled HandState: {reason}")


def _int(name: str, v: object, low: int, high: int) -> int:
    if type(v) is not int:
        raise _bad(f"{name} must be an int, got {type(v).__name__}")
    if not low <= v <= high:
        raise _bad(f"{name} is {v}, outside {low}..{high}")
    return v


def _bool(name: str, v: object) -> bool:
    if type(v) is not bool:
        raise _bad(f"{name} must be True or False, got {type(v).__name__}")
    return v


def _seq(name: str, v: object, length: int | None = None, most: int | None = None) -> tuple[Any, ...]:
    if not isinstance(v, tuple | list):
        raise _bad(f"{name} must be a tuple, got {type(v).__name__}")
    v = tuple(v)  # counted as a plain tuple: a subclass's len() is not trusted
    if length is not None and len(v) != length:
        raise _bad(f"{name} has {len(v)} entries, the hand has {length} seats")
    if most is not None and len(v) > most:
        raise _bad(f"{name} has {len(v)} entries, at most {most} allowed")
    return v


def _cards(name: str, v: object, most: int) -> tuple[Card, ...]:
    out = _seq(name, v, most=most)
    for c in out:
        if not isinstance(c, Card):
            raise _bad(f"{name} holds {c!r}, not a Card")
    return out


def _check_result(result: object, s: dict[str, Any], n: int) -> None:
    """The result of a finished hand agrees with the state: chips (final stacks, payoffs,
    rake, pots) add up, and what was shown is the seats' cards and their ranks."""
    if type(result) is not HandResult:
        raise _bad(f"result must be a HandResult, got {type(result).__name__}")
    start, stacks = s["start_stacks"], s["stacks"]
    final = _seq("result.final_stacks", result.final_stacks, n)
    payoffs = _seq("result.payoffs", result.payoffs, n)
    returned = _seq("result.returned", result.returned, n)
    rake = _int("result.rake", result.rake, 0, _MAX_TOTAL)
    for i in range(n):
        # a winner may end above one stack's limit: at most every chip of the hand
        _int(f"result.final_stacks[{i}]", final[i], stacks[i], _MAX_TOTAL)
        _int(f"result.returned[{i}]", returned[i], 0, _MAX_CHIPS)
        if payoffs[i] != final[i] - start[i] or type(payoffs[i]) is not int:
            raise _bad(f"result.payoffs[{i}] is {payoffs[i]!r}, but seat {i} went from "
                       f"{start[i]} to {final[i]} chips")
    if sum(final) + rake != sum(start):
        raise _bad("the result's final stacks and rake do not add up to the starting stacks")
    pots = _seq("result.pots", result.pots, most=MAX_SEATS)
    for k, pot in enumerate(pots):
        try:  # (a Pot made by a crafted pickle may lack its fields, or hold anything in them)
            ok = type(pot) is Pot and set(pot.winners) <= set(pot.eligible) <= set(range(n)) \
                and len(pot.shares) == len(pot.winners) and type(pot.rake) is int \
                and sum(pot.shares) == pot.amount - pot.rake
        except (AttributeError, TypeError):
            ok = False
        if not ok:
            raise _bad(f"result.pots[{k}] is not a pot of these seats that adds up")
    if sum(pot.rake for pot in pots) != rake:
        raise _bad("the result's pots do not hold its rake")
    order = _seq("result.showdown_order", result.showdown_order, most=n)
    mucked = _seq("result.mucked", result.mucked, most=n)
    shown, ranks = result.shown, result.ranks
    if type(shown) is not dict or type(ranks) is not dict or set(shown) != set(ranks):
        raise _bad("result.shown and result.ranks must be dicts of the same seats")
    for seat in (*order, *mucked, *shown):
        _int("a seat of the result", seat, 0, n - 1)
    board = s["board"]
    for seat, cards in shown.items():
        hole = s["hole"][seat]
        if hole is None or _cards("shown cards", cards, 2) != tuple(hole):
            raise _bad(f"seat {seat} is shown with cards it does not hold")
        if len(board) == 5 and ranks[seat] != evaluate([*hole, *board]):
            raise _bad(f"seat {seat}'s rank is not its hand's")


def check_state(state: object) -> dict[str, Any]:
    """Validate a pickled hand state (a tuple of :data:`FIELDS`); return it as a dict of
    plain values (tuples, ints, bools), or raise :class:`holdem.InvalidStateError`."""
    if isinstance(state, tuple):
        state = tuple(state)  # a plain tuple: a subclass's len() is not trusted
    if not isinstance(state, tuple) or len(state) != len(FIELDS):
        got = f"{len(state)} values" if isinstance(state, tuple) else type(state).__name__
        raise _bad(f"expected a tuple of {len(FIELDS)} fields, got {got}")
    s = dict(zip(FIELDS, state, strict=True))
    game = s["game"]
    if not is_game(game):
        raise _bad(f"game must be a holdem.Game, got {type(game).__name__}")
    n = _int("the seat count", s["n"], 2, MAX_SEATS)
    for name in ("button", "sb_seat", "bb_seat"):
        _int(name, s[name], 0, n - 1)
    _int("actor", s["actor"], -1, n - 1)
    _int("aggr", s["aggr"], -1, n - 1)
    street = _int("street", s["street"], 0, 4)
    _int("nboard", s["nboard"], 0, 5)
    if s["nboard"] != _BOARD_COUNT[street]:
        raise _bad(f"{s['nboard']} board cards dealt on street {street} "
                   f"(expected {_BOARD_COUNT[street]})")
    for name in ("over", "partial", "lift", "fold_free"):
        _bool(name, s[name])
    # the betting plan comes from the game (validated by Game itself)
    plan = plan_fields(game)
    s["sizes"] = _seq("sizes", s["sizes"], 4)
    if any(type(size) is not int for size in s["sizes"]):  # (compared below: 2.0 == 2)
        raise _bad(f"sizes must be ints, got {s['sizes']!r}")
    for name, want in plan.items():
        if s[name] != want or type(s[name]) is not type(want):
            raise _bad(f"{name} is {s[name]!r}, but the game says {want!r}")
    _int("raises", s["raises"], 0, 1 << 30)
    for name in ("cur", "inc", "full", "dead"):
        _int(name, s[name], 0, _MAX_TOTAL)
    for name in PER_SEAT:
        s[name] = _seq(name, s[name], n)
    start = _seq("start_stacks", s["start_stacks"], n)
    s["start_stacks"] = start
    for i in range(n):
        _int(f"start_stacks[{i}]", start[i], 1, _MAX_CHIPS)
        _int(f"stacks[{i}]", s["stacks"][i], 0, _MAX_CHIPS)
        _int(f"bets[{i}]", s["bets"][i], 0, _MAX_CHIPS)
        _int(f"committed[{i}]", s["committed"][i], 0, _MAX_CHIPS)
        # the street total a seat acted at: the current bet it called, which a straddle
        # (2 * big_blind) or a blind posted short may set above any one stack (as "cur")
        _int(f"acted[{i}]", s["acted"][i], -1, _MAX_TOTAL)
        _bool(f"folded[{i}]", s["folded"][i])
        if s["stacks"][i] + s["committed"][i] > start[i]:
            raise _bad(f"seat {i} has {s['stacks'][i]} behind and {s['committed'][i]} in, "
                       f"more than its starting {start[i]}")
    if sum(s["stacks"]) + sum(s["committed"]) + s["dead"] != sum(start):
        raise _bad("the chips do not add up to the starting stacks")
    live = n - sum(s["folded"])
    if _int("live", s["live"], 1, n) != live:
        raise _bad(f"live is {s['live']}, but {live} seats have not folded")
    actor = s["actor"]
    if s["over"]:
        if actor != -1:
            raise _bad("the hand is over but a seat is to act")
    else:
        if street > 3 or live < 2:
            raise _bad("the hand is not over but no betting round is open")
        if actor < 0 or s["folded"][actor] or s["stacks"][actor] == 0:
            raise _bad(f"seat {actor} is to act but cannot (folded, all in or no seat)")
    hole = _seq("hole", s["hole"], n)
    s["hole"] = hole
    seen: set[int] = set()
    for i, h in enumerate(hole):
        if h is None:
            continue
        cards = _cards(f"hole[{i}]", h, 2)
        if len(cards) != 2:
            raise _bad(f"seat {i} holds {len(cards)} cards")
        seen.update(int(c) for c in cards)
    s["board"] = board = _cards("board", s["board"], 5)
    s["burns"] = burns = _cards("burns", s["burns"], 3)
    if len(burns) not in (0, 3):
        raise _bad(f"{len(burns)} burn cards (0 or 3)")
    every = [c for h in hole if h is not None for c in h] + list(board) + list(burns)
    if len({int(c) for c in every}) != len(every):
        raise _bad("a card appears twice")
    if len(board) < s["nboard"]:
        raise _bad(f"{s['nboard']} board cards dealt but only {len(board)} known")
    if not s["partial"] and (len(board) < 5 or None in hole):
        raise _bad("cards are missing but the hand is marked complete")
    posts = _seq("posts", s["posts"], most=3 * MAX_SEATS)
    out_posts = []
    for p in posts:
        q = _seq("a post", p, 3)
        _int("a post's seat", q[0], 0, n - 1)
        if q[1] not in _POST_KINDS:
            raise _bad(f"unknown post kind {q[1]!r}")
        _int("a post's amount", q[2], 1, _MAX_CHIPS)
        out_posts.append(q)
    s["posts"] = tuple(out_posts)
    hist = _seq("hist", s["hist"])
    out_hist = []
    for rec in hist:
        r = _seq("a history record", rec, 6)
        _int("a record's seat", r[0], 0, n - 1)
        _int("a record's street", r[1], 0, 3)
        _int("a record's type", r[2], 0, 4)
        _int("a record's total", r[3], 0, _MAX_CHIPS)
        _int("a record's amount", r[4], 0, _MAX_CHIPS)
        _bool("a record's all-in flag", r[5])
        out_hist.append(r)
    s["hist"] = tuple(out_hist)
    result = s["result"]
    if s["over"] != (result is not None):
        raise _bad("a result must be present exactly when the hand is over")
    if result is not None:
        _check_result(result, s, n)
    seed = s["seed"]
    if seed is not None and type(seed) is not int:
        raise _bad(f"seed must be an int or None, got {type(seed).__name__}")
    return s


# a history record's type (fold, check, call, bet, raise) as the action that makes it
_RECORDED: tuple[Callable[[int], Action], ...] = (
    lambda to: Action.fold(), lambda to: Action.check(), lambda to: Action.call(),
    Action.bet, Action.raise_to)


def _plain(value: object) -> object:
    """``value`` with its lists and tuples (named or not) as plain tuples, for comparing."""
    if isinstance(value, tuple | list):
        return tuple(_plain(v) for v in value)
    return value


def check_replay(s: dict[str, Any]) -> None:
    """A state checked by :func:`check_state` is the hand that its start (stacks, button,
    forced bets, cards) and its history replay to, field for field: values that each pass
    their own checks but do not belong together (a history no hand could have, a post or a
    bet moved, cards swapped) raise :class:`holdem.InvalidStateError`. The fields of ``s``
    then take the replay's values (equal ones: a list of cards given for a tuple, a result
    with lists, are kept in the form the hand itself makes). Both cores call it last, before
    they change anything."""
    n, button, posts, hist = s["n"], s["button"], s["posts"], s["hist"]
    extras: dict[int, list[int]] = {}  # seat -> [live, dead], in the order they were posted
    for seat, kind, amount in posts:
        if kind in ("entry_big_blind", "dead_small_blind"):
            extras.setdefault(seat, [0, 0])[kind == "dead_small_blind"] = amount
    dealt = s["seed"] is not None
    try:
        replay = s["game"].new_hand(
            list(s["start_stacks"]), button=button, seed=s["seed"],
            hole_cards=None if dealt else s["hole"], board=None if dealt else s["board"],
            dead_small_blind=n > 2 and s["bb_seat"] == (button + 1) % n,
            extra_posts=[(seat, live, dead) for seat, (live, dead) in extras.items()],
            dead_hands=tuple(dead_seats(n, hist, s["folded"])))
        for seat, _street, kind, to, _amount, _all_in in hist:
            replay.apply(_RECORDED[kind](to), seat=seat)
    except HoldemError as exc:
        raise _bad(f"its start and history do not replay: {exc}") from None
    for name, want in zip(FIELDS, replay.__reduce__()[1][1], strict=True):
        if s[name] != want and _plain(s[name]) != _plain(want):
            raise _bad(f"{name} is {s[name]!r}, but its start and history give {want!r}")
        s[name] = want  # the replay's own values: a list given for a tuple is not kept

