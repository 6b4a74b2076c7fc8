"""Checks shared by both hand cores (compiled ``_hand`` and reference ``_betting``).

Start arguments (R1, stacks, button, given cards) and the translation of a requested action
into the core's ``(kind, to)`` with the error messages that say what was tried and what is
allowed. Everything here is plain Python on immutable inputs, so both cores give the same
answers and the same messages.
"""

from __future__ import annotations

import enum
import itertools
import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from holdem._ints import int_or_none
from holdem._shown import shown
from holdem.cards import Card, parse_cards
from holdem.errors import (
    DuplicateCardError,
    IllegalActionError,
    InvalidActionError,
    InvalidCardError,
    InvalidConfigError,
    InvalidHandError,
    InvalidSeatError,
    InvalidStateError,
)
from holdem.hand.actions import MAX_CHIPS, Action, ActionType
from holdem.hand.records import LegalActions

if TYPE_CHECKING:
    from holdem.hand._plan import GameLike

__all__ = [
    "BET_RAISE",
    "CHECK_CALL",
    "FOLD",
    "MAX_CHIPS",
    "actions_of",
    "check_start",
    "given_cards",
    "more_board",
    "not_started",
    "plan_dead_hands",
    "plan_posts",
    "resolve",
    "seat_index",
    "to_action",
]

FOLD, CHECK_CALL, BET_RAISE = 0, 1, 2


def not_started(state: object) -> InvalidStateError:
    """The error for a hand state that was never started (made by ``HandState.__new__``, not
    by :meth:`holdem.Game.new_hand` or by unpickling): it holds no hand to query or play.
    A reference-core state keeps only its game when an action stops mid-way (an interrupt,
    MemoryError): its hand is void, and said so."""
    if hasattr(state, "_game"):
        return InvalidStateError(
            f"this {type(state).__name__} holds no hand any more: an action was stopped "
            f"mid-way (an interrupt or an error inside the engine) and voided the hand")
    return InvalidStateError(
        f"this {type(state).__name__} was never started (it holds no hand): make one with "
        f"Game.new_hand(stacks, ...) or by unpickling a started hand")


def seat_index(seat: object, n: int) -> int:
    """Check a seat number given to a per-seat query: an int in ``0..n-1``."""
    index = int_or_none(seat)  # a plain int: a subclass's comparisons are not trusted
    if index is None:
        raise TypeError(f"seat must be an int seat number 0..{n - 1}, got "
                        f"{type(seat).__name__}: {shown(seat)}")
    seat = index
    if not 0 <= seat < n:
        raise InvalidSeatError(
            f"seat {shown(seat)} is out of range: this hand has seats 0..{n - 1}")
    return seat


def check_start(game: GameLike, stacks: Sequence[int], button: int) -> tuple[list[int], int]:
    """Validate the stacks and button of a new hand (R1); return them as plain ints (the
    stacks in a new list): an int subclass's comparisons and arithmetic are not trusted."""
    if (type(stacks) is list and 2 <= len(stacks) <= 10 and type(button) is int
            and 0 <= button < len(stacks) and not (game.straddle and len(stacks) < 3)
            and all(type(s) is int and 0 < s <= MAX_CHIPS for s in stacks)):
        return stacks[:], button  # the common case, checked in one pass
    if isinstance(stacks, str | bytes):
        raise InvalidConfigError(f"stacks must be a sequence of ints, got {shown(stacks)}")
    try:
        out = _first(stacks, 10)
    except TypeError:
        raise InvalidConfigError(f"stacks must be a sequence of ints, got {shown(stacks)}") from None
    n = len(out)
    if not 2 <= n <= 10:
        raise InvalidConfigError(f"a hand needs 2 to 10 players (R1), got "
                                 f"{n if n <= 10 else 'more'}")
    for i, s in enumerate(out):
        chips = int_or_none(s)  # a plain int (a subclass's comparisons may lie), numpy's too
        if chips is None:
            raise InvalidConfigError(f"stack of seat {i} must be an int >= 1, got {shown(s)}")
        out[i] = chips
        if chips < 1:
            raise InvalidConfigError(f"stack of seat {i} must be an int >= 1, got {shown(s)}")
        if chips > MAX_CHIPS:
            raise InvalidConfigError(f"stack of seat {i} is above 2**53 chips")
    seat = int_or_none(button)
    if seat is None or not 0 <= seat < n:
        raise InvalidConfigError(f"button must be a seat 0..{n - 1}, got {shown(button)}")
    if game.straddle and n < 3:
        raise InvalidConfigError("a straddle needs at least 3 players (R8)")
    return out, seat


def plan_posts(game: GameLike, n: int, button: int, dead_small_blind: object,
               extra_posts: Any) -> tuple[int, int, bool, tuple[tuple[int, int, int], ...]]:
    """Validate ``Game.new_hand``'s ``dead_small_blind`` and ``extra_posts`` for ``n`` seats;
    return ``(sb_seat, bb_seat, post_small_blind, ((seat, live, dead), ...))``.

    Regular positions (R2, R3): the small blind left of the button (the button heads-up), the
    big blind next. With a dead small blind (TDA dead-button rule; 3+ players only: heads-up
    the button always posts it, R3) nobody posts the small blind, the big blind sits directly
    left of the button, and ``sb_seat`` is reported as the button (where the small blind
    passed). Each extra post is ``(seat, live, dead)`` or :class:`holdem.ExtraPost`: a seat
    that posts no blind or straddle, at most once, ``0 <= live <= big_blind`` (more would be a
    raise), ``0 <= dead <= big_blind``, not both zero.
    """
    if not isinstance(dead_small_blind, bool):
        raise InvalidConfigError(f"dead_small_blind must be True or False, got {shown(dead_small_blind)}")
    if dead_small_blind:
        if n < 3:
            raise InvalidConfigError(
                "a dead small blind needs 3 or more players: heads-up the button posts the "
                "small blind (R3)")
        sb_seat, bb_seat = button, (button + 1) % n
    elif n == 2:
        sb_seat, bb_seat = button, (button + 1) % n
    else:
        sb_seat, bb_seat = (button + 1) % n, (button + 2) % n
    blinds = {bb_seat: "the big blind"}
    if not dead_small_blind:
        blinds[sb_seat] = "the small blind"
    if game.straddle:
        blinds[(bb_seat + 1) % n] = "the straddle"
    try:
        if isinstance(extra_posts, str | bytes):
            raise TypeError
        items = _first(extra_posts, n)  # a seat posts once: n + 1 posts are too many
    except TypeError:
        raise InvalidConfigError(
            f"extra_posts must be a sequence of (seat, live, dead) posts, got {shown(extra_posts)}"
        ) from None
    if len(items) > n:
        raise InvalidConfigError(f"extra_posts: more posts than the {n} seats (a seat posts "
                                 "once)")
    bb = game.big_blind
    out: list[tuple[int, int, int]] = []
    seen: set[int] = set()
    for item in items:
        try:
            seat, live, dead = item
        except (TypeError, ValueError):
            raise InvalidConfigError(
                f"an extra post is (seat, live chips, dead chips), got {shown(item)}") from None
        checked = []
        for name, v in (("seat", seat), ("live chips", live), ("dead chips", dead)):
            # plain ints (numpy's too): a subclass's comparisons, hash and equality are not trusted
            plain = int_or_none(v)
            if plain is None:
                raise InvalidConfigError(f"extra post {shown(item)}: {name} must be an int, got {shown(v)}")
            checked.append(plain)
        seat, live, dead = checked
        if not 0 <= seat < n:
            raise InvalidConfigError(f"extra post {shown(item)}: seat must be 0..{n - 1}, got {shown(seat)}")
        if seat in blinds:
            raise InvalidConfigError(
                f"extra post {shown(item)}: seat {seat} already posts {blinds[seat]}")
        if seat in seen:
            raise InvalidConfigError(f"extra post {shown(item)}: seat {seat} posts only once")
        if not 0 <= live <= bb:
            raise InvalidConfigError(
                f"extra post {shown(item)}: live chips must be 0..{bb} (at most the big blind), "
                f"got {shown(live)}")
        if not 0 <= dead <= bb:
            raise InvalidConfigError(
                f"extra post {shown(item)}: dead chips must be 0..{bb} (at most the big blind), "
                f"got {shown(dead)}")
        if live == 0 and dead == 0:
            raise InvalidConfigError(f"extra post {shown(item)}: posts no chips")
        seen.add(seat)
        out.append((seat, live, dead))
    return sb_seat, bb_seat, not dead_small_blind, tuple(out)


def plan_dead_hands(n: int, dead_hands: Any) -> tuple[int, ...]:
    """Validate ``Game.new_hand``'s ``dead_hands`` for ``n`` seats; return the seats, sorted.

    TDA 30: the hand of a seat absent at the deal is dead. Each entry is an int seat
    ``0..n-1`` (not a bool), at most once; at least one seat stays live (a hand with every
    hand dead has nobody to win it).
    """
    if isinstance(dead_hands, (str, bytes)):
        raise InvalidConfigError(
            f"dead_hands must be a sequence of seat numbers 0..{n - 1}, got {shown(dead_hands)}")
    try:
        items = _first(dead_hands, n)  # each seat once: n + 1 seats are too many
    except TypeError:
        raise InvalidConfigError(
            f"dead_hands must be a sequence of seat numbers 0..{n - 1}, got {shown(dead_hands)}"
        ) from None
    seen: set[int] = set()
    for item in items:
        seat = int_or_none(item)  # a plain int (a subclass's comparisons may lie), numpy's too
        if seat is None:
            raise InvalidConfigError(
                f"dead_hands: a seat must be an int 0..{n - 1}, got {shown(item)}")
        if not 0 <= seat < n:
            raise InvalidConfigError(
                f"dead_hands: seat must be 0..{n - 1}, got {shown(seat)}")
        if seat in seen:
            raise InvalidConfigError(f"dead_hands: seat {seat} is given twice")
        seen.add(seat)
    if len(seen) >= n:
        raise InvalidConfigError(
            f"dead_hands: every one of the {n} seats is dead; at least one hand must stay live "
            f"(TDA 30 kills the hands of absent players only)")
    return tuple(sorted(seen))


def _first(items: Any, most: int) -> list[Any]:
    """The first ``most + 1`` items of an iterable (TypeError when it is not one): enough to
    tell that there are too many without reading an endless or huge one to its end."""
    return list(itertools.islice(items, most + 1))


def _cards_of(value: Any, most: int) -> tuple[Card, ...]:
    """Cards given as text or an iterable of cards, at most ``most + 1`` of them read."""
    if isinstance(value, str):
        return parse_cards(value)
    return tuple(Card(c) for c in _first(value, most))


def _count(cards: Sequence[Card], most: int) -> str:
    return str(len(cards)) if len(cards) <= most else f"more than {most}"


def given_cards(n: int, seed: object, hole_cards: Any, board: Any
                ) -> tuple[tuple[tuple[Card, ...] | None, ...], tuple[Card, ...], bool]:
    """Check cards given for a replay: ``(holes, board, partial)``; ``partial`` when some hole
    cards are unknown (``None`` or PHH's ``"????"``) or the board has fewer than five cards."""
    if seed is not None:
        raise InvalidConfigError("give either seed= or the cards (hole_cards=, board=), not both")
    try:
        # counted as a plain tuple (a subclass's len() may lie), one entry too many at most
        hole_cards = None if isinstance(hole_cards, str) else tuple(_first(hole_cards, n))
    except TypeError:
        hole_cards = None
    if hole_cards is None or len(hole_cards) != n:
        raise InvalidConfigError(f"hole_cards needs one entry per seat ({n})")
    holes: list[tuple[Card, ...] | None] = []
    seen: set[int] = set()
    partial = False
    for i, h in enumerate(hole_cards):
        if h is None or (isinstance(h, str) and h.strip() == "????"):  # PHH's unknown hand
            holes.append(None)
            partial = True
            continue
        try:
            cards = _cards_of(h, 2)
        except (TypeError, InvalidCardError) as exc:
            raise InvalidCardError(f"hole cards of seat {i}: {exc}") from None
        if len(cards) != 2:
            raise InvalidHandError(f"seat {i} needs exactly 2 hole cards, got {_count(cards, 2)}")
        holes.append(cards)
        for c in cards:
            if c in seen:
                raise DuplicateCardError(f"card {c} is given twice")
            seen.add(c)
    try:
        bcards = _cards_of(board, 5) if board is not None else ()
    except TypeError:
        raise InvalidCardError(f"board must be cards (text such as 'Jd8d2c', or an iterable of "
                               f"cards), got {shown(board)}") from None
    except InvalidCardError as exc:
        raise InvalidCardError(f"board: {exc}") from None
    if len(bcards) > 5:
        raise InvalidHandError(f"a board has at most 5 cards, got {_count(bcards, 5)}")
    for c in bcards:
        if c in seen:
            raise DuplicateCardError(f"card {c} is given twice")
        seen.add(c)
    return tuple(holes), bcards, partial or len(bcards) < 5


def more_board(hole: Sequence[tuple[Card, ...] | None], board: tuple[Card, ...], seed: object,
               cards: Any) -> tuple[tuple[Card, ...], bool]:
    """Check board cards added to a hand started from given cards: ``(board, partial)``."""
    if seed is not None:
        raise InvalidHandError("the board of a dealt hand (seed=) comes from its deck")
    try:
        extra = _cards_of(cards, 5 - len(board))
    except TypeError:
        raise InvalidCardError(f"not cards: {shown(cards)}") from None
    new = (*board, *extra)
    if len(new) > 5:
        raise InvalidHandError(f"a board has at most 5 cards: {len(board)} given, "
                               f"{_count(extra, 5 - len(board))} more is too many")
    seen = {c for h in hole if h is not None for c in h}
    for c in new:
        if c in seen:
            raise DuplicateCardError(f"card {c} is given twice")
        seen.add(c)
    return new, len(new) < 5 or any(h is None for h in hole)


def _range(la: LegalActions, to: int, word: str, reason: Callable[[int], str | None]) -> None:
    if not la.can_raise:
        raise IllegalActionError(f"{word} to {to} is not allowed: {reason(la.seat)}")
    assert la.min_to is not None and la.max_to is not None
    if la.min_to == la.max_to and to != la.min_to:
        raise IllegalActionError(
            f"{word} to {to} is not allowed: the only {word} is to {la.min_to}")
    if to < la.min_to:
        raise IllegalActionError(f"{word} to {to} is below the minimum {word} to {la.min_to}")
    if to > la.max_to:
        raise IllegalActionError(f"{word} to {to} is above the maximum {word} to {la.max_to}")


def _acting_seat(seat: object) -> int:
    """``seat`` of ``apply(..., seat=)`` as a plain int: an int (or another integer type, such
    as numpy's), never a bool, a float or text (InvalidActionError naming the parameter)."""
    if not isinstance(seat, bool):
        try:
            return operator.index(seat)  # type: ignore[arg-type]  # TypeError below
        except TypeError:
            pass
    raise InvalidActionError(f"seat must be an int seat number (the seat to act) or None, "
                             f"got {type(seat).__name__}: {shown(seat)}")


_KINDS = {int(t): t for t in ActionType}
#: by ActionType value: whether the kind has an amount (BET, RAISE, BET_RAISE)
_HAS_AMOUNT = tuple(t in (ActionType.BET, ActionType.RAISE, ActionType.BET_RAISE)
                    for t in ActionType)


def _kind(value: object) -> ActionType:
    """The kind of an ``(ActionType, to)`` pair given as something else than an ActionType:
    its int value (any integer type), never a bool, a float or text."""
    code = int_or_none(value)
    kind = None if code is None else _KINDS.get(code)
    if kind is None:
        raise InvalidActionError(
            f"unknown action type {shown(value)}: an ActionType (FOLD, CHECK, CALL, BET, RAISE, "
            f"CHECK_CALL, BET_RAISE or ALL_IN)")
    return kind


def to_action(action: object, seat: int | None = None) -> tuple[Any, Any, int | None]:
    """An :class:`Action`, PHH text or int code as ``(ActionType, to, seat)``; a PHH player
    token (``p3 cbr 300``) names the seat that must be acting (it must agree with ``seat``).
    ``seat`` is None or an int seat number (any integer type but bool, as a plain int); an
    int code and an amount may be any integer type but bool too (numpy's, as plain ints).
    The kind of an ``(ActionType, to)`` pair is an ActionType or its int value, and a kind
    without an amount (fold, check, call, all-in) comes with ``to=None``."""
    if seat is not None:
        seat = _acting_seat(seat)
    if isinstance(action, tuple):
        if len(action) != 2:
            raise InvalidActionError(f"not an action: {shown(action)}")
        t, to = action
        if type(t) is not ActionType:
            t = _kind(t)
        if to is None:
            return t, None, seat
        if not _HAS_AMOUNT[t]:
            raise InvalidActionError(
                f"{t.name.lower()} takes no amount, got to={shown(to)} (only BET, RAISE and "
                f"BET_RAISE have one)")
        if type(to) is not int:
            amount = int_or_none(to)
            to = to if amount is None else amount  # resolve refuses what is not an integer
        return t, to, seat
    if isinstance(action, str):
        named = Action.player_of(action)
        if named is not None:
            if seat is not None and seat != named:
                raise InvalidActionError(
                    f"{action[:60]!r} names seat {named}, but seat={shown(seat)} was given")
            seat = named
        t, to = Action.parse(action)
        return t, to, seat
    if isinstance(action, enum.Enum):  # ActionType.ALL_IN is an int (7), not the code 7
        raise InvalidActionError(
            f"{action!r} alone is not an action: give an Action (Action.all_in(), "
            f"Action(ActionType.RAISE, 300)...), an (ActionType, to) pair, PHH text or an int "
            f"code")
    code = int_or_none(action)
    if code is None:
        raise InvalidActionError(f"not an action: {shown(action)}")
    t, to = Action.from_int(code)
    return t, to, seat


def explain_code(code: Any, exc: IllegalActionError) -> IllegalActionError:
    """``exc``, raised by :func:`resolve` for the int action ``code`` (any integer type),
    saying what the code meant (an int is an action code, not a seat or an amount: ``3`` is
    a raise to 2)."""
    code = operator.index(code)
    meaning = "fold" if code == 0 else "check/call" if code == 1 else f"a bet/raise to {code - 1}"
    return IllegalActionError(f"action code {code} means {meaning} (codes: 0 fold, 1 check/call, "
                              f"k >= 2 bet/raise to k - 1): {exc}")


def resolve(t: Any, to: Any, la: LegalActions, bet: int, stack: int, cur: int,
            reason: Callable[[int], str | None]) -> tuple[int, int]:
    """Validate a requested action against the legal actions ``la`` of the seat to act (its
    street ``bet`` and ``stack``, the street's ``cur``rent bet); return ``(kind, to)``."""
    if t == ActionType.FOLD:
        if not la.can_fold:
            raise IllegalActionError("fold is not offered: checking is free (R17); check")
        return FOLD, 0
    if t == ActionType.CHECK:
        if not la.can_check:
            raise IllegalActionError(f"check is not allowed facing a bet: call {la.call} or fold")
        return CHECK_CALL, 0
    if t == ActionType.CALL:
        if la.can_check:
            raise IllegalActionError("call: there is no bet to call; check instead")
        return CHECK_CALL, 0
    if t == ActionType.CHECK_CALL:
        return CHECK_CALL, 0
    if t == ActionType.ALL_IN:
        total = bet + stack
        if la.can_raise and la.max_to == total:
            return BET_RAISE, total
        if not la.can_check and la.call == stack:
            return CHECK_CALL, 0
        if la.can_raise:
            allowed = f"the maximum is to {la.max_to}"
        elif la.can_check:  # no bet to call: the seat may not bet either (R27, R17)
            allowed = "check or fold" if la.can_fold else "check"
        else:
            allowed = "call or fold"
        raise IllegalActionError(f"all in to {total} is not allowed: {allowed}")
    if t not in (ActionType.BET, ActionType.RAISE, ActionType.BET_RAISE):
        raise InvalidActionError(f"unknown action type {shown(t)}")
    if isinstance(to, bool) or not isinstance(to, int):
        raise InvalidActionError(f"{ActionType(t).name.lower()} needs an int amount, got {shown(to)}")
    if not 0 <= to <= MAX_CHIPS:
        raise InvalidActionError(f"{ActionType(t).name.lower()} to {shown(to)}: amounts are "
                                 f"0 .. 2**53 chips (the engine's limit)")
    if t == ActionType.BET:
        if not la.is_bet:
            raise IllegalActionError(f"bet to {to}: there is already a bet of {cur}; raise instead")
        _range(la, to, "bet", reason)
    elif t == ActionType.RAISE:
        if la.is_bet:
            raise IllegalActionError(f"raise to {to}: there is no bet to raise; bet instead")
        _range(la, to, "raise", reason)
    else:
        _range(la, to, "bet" if la.is_bet else "raise", reason)
    return BET_RAISE, to


def actions_of(la: LegalActions) -> list[Action]:
    """The legal action kinds as actions (fold, check or call, min and max bet/raise)."""
    out: list[Action] = []
    if la.can_fold:
        out.append(Action.fold())
    out.append(Action.check() if la.can_check else Action.call())
    if la.can_raise:
        assert la.min_to is not None and la.max_to is not None
        make = Action.bet if la.is_bet else Action.raise_to
        out.append(make(la.min_to))
        if la.max_to != la.min_to:
            out.append(make(la.max_to))
    return out
