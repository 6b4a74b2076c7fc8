"""Actions: what a player does at their turn, as a small immutable value.

An :class:`Action` is a kind (:class:`ActionType`) and, for bets and raises, the amount the
player's *street total* goes to ("raise to 300", never "raise by"). The text form is the PHH
token set (the one PokerKit parses): ``f`` fold, ``cc`` check or call, ``cbr 300`` bet or
raise to 300. Longer words are accepted on input (``fold``, ``check``, ``call``, ``bet 300``,
``raise 300``, ``allin``).

>>> Action.parse("cbr 300")
Action(ActionType.BET_RAISE, 300)
>>> str(Action.raise_to(300)), str(Action.call())
('cbr 300', 'cc')
>>> Action.parse("f") == Action.fold()
True

Int encoding (OpenSpiel style, for RL users): ``0`` fold, ``1`` check or call, ``k >= 2`` bet or
raise to ``k - 1`` chips (so a bet of one chip is representable).

>>> Action.raise_to(300).to_int(), Action.from_int(301)
(301, Action(ActionType.BET_RAISE, 300))
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Final, NamedTuple

from holdem._enums import NamedRepr
from holdem._ints import int_or_none
from holdem._shown import literal, shown
from holdem.errors import InvalidActionError

__all__ = ["CHECK_CALL_INT", "FOLD_INT", "MAX_CHIPS", "Action", "ActionType"]

MAX_CHIPS: Final = 1 << 53
"""The engine's limit on any chip amount (a stack, a bet, a blind): exact in a float64 and
far from overflowing the C cores' int64 sums."""
_MAX_DIGITS: Final = len(str(MAX_CHIPS))

FOLD_INT: Final = 0
CHECK_CALL_INT: Final = 1


class ActionType(NamedRepr, IntEnum):
    """The kind of an action.

    ``FOLD``, ``CHECK``, ``CALL``, ``BET`` and ``RAISE`` are strict: the engine rejects a ``BET``
    when a raise is meant and a ``CHECK`` when facing a bet. ``CHECK_CALL`` and ``BET_RAISE``
    are the loose PHH forms (``cc``, ``cbr``) that mean whichever of the two applies. ``ALL_IN``
    is a bet, call or raise of every chip the player has (R17: not an action of its own; the
    history records what it was).
    """

    FOLD = 0
    CHECK = 1
    CALL = 2
    BET = 3
    RAISE = 4
    CHECK_CALL = 5
    BET_RAISE = 6
    ALL_IN = 7

    @property
    def token(self) -> str:
        """The PHH token: ``f``, ``cc`` or ``cbr`` (``ALL_IN`` has none of its own)."""
        return _TOKENS[self]

    def __str__(self) -> str:
        """For people: ``fold``, ``check``, ``call``, ``bet``, ``raise``, ``check/call``,
        ``bet/raise``, ``all-in`` (``int()`` gives the value, ``repr()`` the member).

        >>> str(ActionType.CHECK_CALL), f"{ActionType.FOLD}", int(ActionType.FOLD)
        ('check/call', 'fold', 0)
        """
        return _WORDS_FOR_PEOPLE[self]


_WORDS_FOR_PEOPLE: Final = {
    ActionType.FOLD: "fold",
    ActionType.CHECK: "check",
    ActionType.CALL: "call",
    ActionType.BET: "bet",
    ActionType.RAISE: "raise",
    ActionType.CHECK_CALL: "check/call",
    ActionType.BET_RAISE: "bet/raise",
    ActionType.ALL_IN: "all-in",
}

_TOKENS: Final = {
    ActionType.FOLD: "f",
    ActionType.CHECK: "cc",
    ActionType.CALL: "cc",
    ActionType.CHECK_CALL: "cc",
    ActionType.BET: "cbr",
    ActionType.RAISE: "cbr",
    ActionType.BET_RAISE: "cbr",
    ActionType.ALL_IN: "allin",
}

_AMOUNT_KINDS: Final = frozenset({ActionType.BET, ActionType.RAISE, ActionType.BET_RAISE})

_WORDS: Final = {
    "f": ActionType.FOLD,
    "fold": ActionType.FOLD,
    "cc": ActionType.CHECK_CALL,
    "x": ActionType.CHECK,
    "check": ActionType.CHECK,
    "c": ActionType.CALL,
    "call": ActionType.CALL,
    "cbr": ActionType.BET_RAISE,
    "b": ActionType.BET,
    "bet": ActionType.BET,
    "r": ActionType.RAISE,
    "raise": ActionType.RAISE,
    "allin": ActionType.ALL_IN,
    "all-in": ActionType.ALL_IN,
    "all_in": ActionType.ALL_IN,
    "shove": ActionType.ALL_IN,
}


class Action(NamedTuple):
    """One action: ``type`` and ``to`` (the street total after a bet or raise, else ``None``).

    Build with the class methods (``Action.fold()``, ``Action.raise_to(8)``...), from text with
    :meth:`parse` or from an int with :meth:`from_int`. ``str()`` gives the PHH token.
    """

    type: ActionType
    to: int | None = None

    @classmethod
    def fold(cls) -> Action:
        return _FOLD

    @classmethod
    def check(cls) -> Action:
        return _CHECK

    @classmethod
    def call(cls) -> Action:
        return _CALL

    @classmethod
    def check_or_call(cls) -> Action:
        return _CHECK_CALL

    @classmethod
    def all_in(cls) -> Action:
        return _ALL_IN

    @classmethod
    def bet(cls, to: int) -> Action:
        return cls(ActionType.BET, _amount(to))

    @classmethod
    def raise_to(cls, to: int) -> Action:
        return cls(ActionType.RAISE, _amount(to))

    @classmethod
    def bet_or_raise(cls, to: int) -> Action:
        return cls(ActionType.BET_RAISE, _amount(to))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse ``f``, ``cc``, ``cbr 300`` (PHH) or ``fold``/``check``/``call``/``bet 300``/
        ``raise 300``/``allin``. A leading PHH player token (``p3 cc``) is skipped here (see
        :meth:`player_of`; ``HandState.apply("p3 cc")`` checks that seat 2 is to act)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"not an action string: {text!r}")
        parts = text.split()
        if len(parts) >= 2 and parts[0][:1] == "p" and parts[0][1:].isdigit():
            parts = parts[1:]
        if not parts:
            raise InvalidActionError(f"empty action string: {text!r}")
        kind = _WORDS.get(parts[0].lower())
        if kind is None:
            raise InvalidActionError(
                f"unknown action {parts[0]!r} in {text!r} (expected f, cc, cbr N, fold, check, "
                "call, bet N, raise N or allin)"
            )
        if kind in _AMOUNT_KINDS:
            if len(parts) != 2:
                raise InvalidActionError(f"{text!r}: {parts[0]} needs exactly one amount")
            return cls(kind, _amount(_whole(parts[1], text)))
        if len(parts) != 1:
            raise InvalidActionError(f"{text!r}: {parts[0]} takes no amount")
        return cls(kind, None)

    @staticmethod
    def player_of(text: str) -> int | None:
        """The seat named by a leading PHH player token (``p3 cc`` -> seat 2), else None."""
        head = text.split(maxsplit=1)[0] if isinstance(text, str) and text.strip() else ""
        if len(head) >= 2 and head[0] == "p" and head[1:].isdigit():
            if not head[1:].isascii() or len(head[1:].lstrip("0")) > 2:
                raise InvalidActionError(
                    f"{text[:60]!r}: PHH players are p1 .. p10, got {head[:30]!r}")
            seat = int(head[1:]) - 1
            if seat < 0:
                raise InvalidActionError(f"{text!r}: PHH players are numbered from p1")
            return seat
        return None

    @classmethod
    def from_int(cls, code: int) -> Action:
        """Decode the OpenSpiel-style int (``0`` fold, ``1`` check/call, ``k>=2`` to ``k-1``)."""
        value = code if type(code) is int else int_or_none(code)  # numpy's ints too
        if value is None or value < 0:
            raise InvalidActionError(f"not an action code: {shown(code)} (a non-negative int)")
        code = value
        if code == FOLD_INT:
            return _FOLD
        if code == CHECK_CALL_INT:
            return _CHECK_CALL
        return cls(ActionType.BET_RAISE, code - 1)

    def to_int(self) -> int:
        """Encode as an int (see :meth:`from_int`); ``ALL_IN`` has no code of its own."""
        t = self.type
        if t == ActionType.FOLD:
            return FOLD_INT
        if t in (ActionType.CHECK, ActionType.CALL, ActionType.CHECK_CALL):
            return CHECK_CALL_INT
        if t not in _TOKENS:
            raise InvalidActionError(f"not an action type: {shown(t)} (an ActionType)")
        if self.to is None:
            if t == ActionType.ALL_IN:
                raise InvalidActionError("an all-in has no int code: give its amount "
                                         "(bet_or_raise)")
            raise InvalidActionError(f"{ActionType(t)} without an amount has no int code: give "
                                     "the street total it goes to")
        to = int_or_none(self.to)  # numpy's ints too
        if to is None or to < 0:
            raise InvalidActionError(f"{ActionType(t)} to {shown(self.to)}: amounts are "
                                     "non-negative ints")
        return to + 1

    def __str__(self) -> str:
        if len(self) != 2:  # made by tuple.__new__(Action, ...): no type or amount to read
            return repr(self)
        tok = _TOKENS.get(self.type)
        if tok is None:  # an Action built with something else than an ActionType
            return repr(self)
        if self.to is None:
            return tok
        try:
            return f"{tok} {self.to}"
        except ValueError:  # an amount too long for decimal text: no PHH token
            return repr(self)

    def __repr__(self) -> str:
        if len(self) != 2:  # made by tuple.__new__(Action, ...): an error message shows it
            return f"<malformed Action of {len(self)} items: {shown(tuple(self))}>"
        if self.to is None:
            return f"Action({self.type!r})"
        to = literal(self.to) if type(self.to) is int else repr(self.to)  # (hex when too long)
        return f"Action({self.type!r}, {to})"



class ActionVerbs:
    """The action verbs of a hand, all through one checked ``apply(action, seat=...)``.

    Mixed into :class:`holdem.HandState` and :class:`holdem.LiveHand`, so every way to act
    validates the same way (``seat``: who means to act; the wrong seat raises
    :class:`holdem.OutOfTurnError`).
    """

    __slots__ = ()

    if TYPE_CHECKING:  # provided by the class this is mixed into

        def apply(self, action: Action | str | int, *, seat: int | None = None) -> None: ...

    def fold(self, *, seat: int | None = None) -> None:
        self.apply(Action.fold(), seat=seat)

    def check(self, *, seat: int | None = None) -> None:
        self.apply(Action.check(), seat=seat)

    def call(self, *, seat: int | None = None) -> None:
        self.apply(Action.call(), seat=seat)

    def check_or_call(self, *, seat: int | None = None) -> None:
        self.apply(Action.check_or_call(), seat=seat)

    def bet(self, to: int, *, seat: int | None = None) -> None:
        """Open the betting on this street: this seat's street total goes to ``to``."""
        self.apply(Action.bet(to), seat=seat)

    def raise_to(self, to: int, *, seat: int | None = None) -> None:
        """Raise: this seat's street total goes to ``to`` (not "by")."""
        self.apply(Action.raise_to(to), seat=seat)

    def bet_or_raise(self, to: int, *, seat: int | None = None) -> None:
        """PHH ``cbr``: bet or raise to ``to``, whichever applies."""
        self.apply(Action.bet_or_raise(to), seat=seat)

    def all_in(self, *, seat: int | None = None) -> None:
        """Bet, raise or call with every chip (R17), when that amount is legal."""
        self.apply(Action.all_in(), seat=seat)


def _amount(value: object) -> int:
    to = int_or_none(value)
    if to is None:
        raise InvalidActionError(f"amount must be an int number of chips, got {shown(value)}")
    if to <= 0:
        raise InvalidActionError(f"amount must be positive, got {shown(to)}")
    if to > MAX_CHIPS:
        raise InvalidActionError(f"amount {shown(to)} is above the engine's limit of 2**53 chips")
    return to


def _whole(digits: str, text: str) -> int:
    """The chip amount written as ``digits`` (ASCII), checked against the limit before
    ``int()`` (which refuses more than 4300 digits with a plain ValueError)."""
    if not (digits.isascii() and digits.isdigit()):
        raise InvalidActionError(f"{text[:60]!r}: amount {digits[:30]!r} is not a whole number")
    if len(digits.lstrip("0")) > _MAX_DIGITS:
        raise InvalidActionError(f"{text[:60]!r}: the amount has {len(digits)} digits, above "
                                 f"the engine's limit of 2**53 chips")
    return int(digits)


_FOLD: Final = Action(ActionType.FOLD)
_CHECK: Final = Action(ActionType.CHECK)
_CALL: Final = Action(ActionType.CALL)
_CHECK_CALL: Final = Action(ActionType.CHECK_CALL)
_ALL_IN: Final = Action(ActionType.ALL_IN)
