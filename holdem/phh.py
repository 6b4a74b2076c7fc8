"""PHH, the Poker Hand History format: read and write ``.phh`` files and multi-hand ``.phhs``.

PHH (Kim, J. "Poker Hand History File Format Specification", 2024, phh.readthedocs.io) is TOML:
game parameters, the ``actions`` as short strings, and optional facts about the hand. This
module handles the hold'em variants:

- ``NT`` no-limit Texas hold'em (spec), ``FT`` fixed-limit Texas hold'em (spec);
- ``PT`` pot-limit Texas hold'em. The spec (v0.0.1) has no code for pot-limit hold'em, only
  ``PO`` for pot-limit Omaha; ``PT`` follows its pattern (betting letter + game letter) and is
  the code the project's generated traces (``tests`` data, made with PokerKit) use. It takes
  the same fields as ``NT`` (``min_bet``, no ``small_bet``/``big_bet``).

Players are numbered ``p1``..``pN`` in the notation; the arrays (``starting_stacks``...) are in
the same order: index 0 is the first seat left of the button, the button is the last index
(heads-up the blinds are reversed: the button, index 1, posts the small blind). The dealer
deals ``card(s)``: two hole cards to a player together (``d dh p1 AsKs``) or one at a time
(a round of first cards from ``p1``, then one of second cards, as PokerKit writes a hand
uncompressed), and the flop together or in parts.

>>> hh = loads('''
... variant = "NT"
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [200, 200]
... actions = ["d dh p1 AsKs", "d dh p2 ????", "p2 cbr 6  # open", "p1 f"]
... ''')
>>> hh.actions[1].cards, hh.actions[2]
((None, None), HistoryAction.from_str('p2 cbr 6 # open'))
>>> loads(dumps(hh)) == hh
True

Reading gives what the standard library's ``tomllib`` gives (a fast path reads the lines PHH
files are made of; any other TOML goes to ``tomllib``); writing emits the small TOML subset PHH
needs (both in ``holdem._toml``). TOML comments are not data and are not kept; commentary inside an action
string (``"p1 f # tank fold"``) is kept. Fields whose name starts with ``_`` are user-defined
(allowed by the spec) and kept in :attr:`HandHistory.user_fields`; any other unknown field is an
error. A ``.phhs`` file holds several hands as TOML tables ``[1]``, ``[2]``, ...
"""

from __future__ import annotations

import dataclasses
import datetime
import io
import os
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import IO, Any, Final, NoReturn

from holdem import _textfile
from holdem._pickling import frozen_slots
from holdem._shown import EXCERPT_CHARS, excerpt, shown
from holdem._toml import dumps_key, dumps_value, time_problem
from holdem._toml import loads as _toml_loads
from holdem.cards import Card, parse_card
from holdem.errors import InvalidHistoryError, _not_text
from holdem.hand.actions import MAX_CHIPS

__all__ = [
    "VARIANTS",
    "HandHistory",
    "HistoryAction",
    "dump",
    "dump_all",
    "dumps",
    "dumps_all",
    "load",
    "load_all",
    "loads",
    "loads_all",
]

Number = int | float
Time = datetime.datetime | datetime.date | datetime.time

#: Variant codes this module reads and writes, with their names.
VARIANTS: Final = {
    "NT": "No-limit Texas hold 'em",
    "FT": "Fixed-limit Texas hold 'em",
    "PT": "Pot-limit Texas hold 'em",
}

#: Action kinds of the notation that exist in hold'em.
_KINDS: Final = ("dh", "db", "f", "cc", "cbr", "sm")
#: The kinds a HistoryAction may have: the notation's, and "" for a no-op (a comment).
_ACTION_KINDS: Final = frozenset((*_KINDS, ""))
#: The kinds with a player (the actor, or the player dealt to), and their number of cards.
_PLAYER_KINDS: Final = frozenset(("dh", "f", "cc", "cbr", "sm"))
#: The highest player index the notation writes (``p99``: two digits).
_MAX_PLAYER: Final = 98
_PLAYER: Final = re.compile(r"p([1-9][0-9]*)\Z")
_NUMBER: Final = re.compile(r"[0-9]+(\.[0-9]+)?\Z")
_PLAIN_INT: Final = re.compile(r"(?:0|[1-9][0-9]{0,14})\Z")  # below 2**53: no range check
# Two characters -> a card, as parse_card reads them (either case), or None for "??"
_PHH_CARDS: Final[dict[str, Card | None]] = {
    r + s: parse_card(r + s) for r in "23456789TJQKAtjqka" for s in "cdhsCDHS"} | {"??": None}
_PARSED: dict[tuple[str, int | None], HistoryAction] = {}  # HistoryAction.from_str's results
_PARSED_MAX: Final = 4096
_PARSED_TEXT: Final = 40  # characters: "d dh p10 AsKs" is 13, "p1 cbr 9007199254740992" 23


def _parse_number(text: str, action: str) -> Number:
    """An action's amount; ``action`` names the action text in messages."""
    if _PLAIN_INT.match(text):
        return int(text)  # the common case: below 2**53, nothing to check
    if not _NUMBER.match(text):
        raise InvalidHistoryError(
            f"{_where(action)}: amount {text[:30]!r} is not a non-negative number")
    whole = text.partition(".")[0].lstrip("0")
    if len(whole) > len(str(MAX_CHIPS)) or (float(text) if "." in text else int(text)) > MAX_CHIPS:
        raise InvalidHistoryError(
            f"{_where(action)}: amount {text[:30]!r}{'...' if len(text) > 30 else ''} is above "
            f"the engine's limit of 2**53 chips")
    return float(text) if "." in text else int(text)


def _format_number(x: Number) -> str:
    """An amount as the action grammar reads it back: positional, never an exponent (the
    float's shortest digits, so it parses to the same float: ``1e-05`` is ``0.00001``)."""
    if isinstance(x, int) or x.is_integer():
        return str(x) if isinstance(x, int) else repr(x)
    return format(Decimal(repr(x)), "f")


def _where(action: str) -> str:
    """How messages name an action text."""
    return f"action {action!r}" if len(action) <= EXCERPT_CHARS else f"action {excerpt(action)}"


def _player_index(word: str, players: int | None, action: str) -> int:
    """``pN`` -> N - 1 (N at most ``players`` when given); ``action`` names the text."""
    m = _PLAYER.match(word)
    if m is None or len(m.group(1)) > 2:
        raise InvalidHistoryError(f"{_where(action)}: {word[:30]!r} is not a player (p1 .. p10)")
    n = int(m.group(1))
    if players is not None and n > players:
        raise InvalidHistoryError(
            f"{_where(action)}: there is no {word} in a {players}-player hand"
            if players.bit_length() <= 64 else
            f"{_where(action)}: there is no {word} in a hand of {shown(players)} players")
    return n - 1


def _parse_phh_cards(text: str, action: str) -> tuple[Card | None, ...]:
    """The cards of ``text`` (two characters each, ``??`` unknown); ``action`` names the
    action text in messages."""
    if len(text) % 2 or not text:
        raise InvalidHistoryError(
            f"{_where(action)}: cards {excerpt(text)} must be two characters each, like 'AsKd' "
            "or '????'"
        )
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        chunk = text[i : i + 2]
        if chunk not in _PHH_CARDS:
            raise InvalidHistoryError(
                f"{_where(action)}: {chunk!r} in {excerpt(text)} is not a card (rank 2-9TJQKA "
                "then suit cdhs, or ?? for an unknown card)"
            )
        out.append(_PHH_CARDS[chunk])
    if len(out) > 1:
        known = [c for c in out if c is not None]
        if len(set(known)) != len(known):
            raise InvalidHistoryError(
                f"{_where(action)}: a card appears twice in {excerpt(text)}")
    return tuple(out)


def _format_phh_cards(cards: Iterable[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


#: The numbers of cards a HistoryAction of each kind with cards holds.
_CARD_COUNTS: Final = {"dh": (1, 2), "db": (1, 2, 3), "sm": (2,)}


def _check_action_cards(kind: str, cards: object) -> None:
    """Refuse a HistoryAction's ``cards`` that the notation could not hold for ``kind``."""
    counts = _CARD_COUNTS.get(kind)
    if counts is None:
        raise InvalidHistoryError(
            f"HistoryAction: kind {kind!r} has no cards (cards=None), not {excerpt(cards)}")
    if type(cards) is not tuple or len(cards) not in counts:
        raise InvalidHistoryError(
            f"HistoryAction: the cards of kind {kind!r} must be a tuple of "
            + {"db": "1 to 3", "dh": "1 or 2"}.get(kind, "2") + f" cards, not {excerpt(cards)}")
    unknown = kind != "db"  # hole cards may be unknown (None, ?? in the notation)
    for c in cards:
        if type(c) is not Card and not (c is None and unknown):
            raise InvalidHistoryError(
                f"HistoryAction: {excerpt(c)} in the cards of kind {kind!r} is not a Card "
                "(give Card('As')" + (", or None for an unknown card)" if unknown else ")"))
    first = cards[0]
    if len(cards) > 1 and ((first is not None and first in cards[1:]) or (
            len(cards) == 3 and cards[1] == cards[2])):
        raise InvalidHistoryError(
            f"HistoryAction: a card appears twice in the cards of kind {kind!r}: {cards!r}")


@frozen_slots
@dataclass(frozen=True, slots=True)
class HistoryAction:
    """One entry of ``actions``: who acted, what, with which cards or amount, any commentary.

    ``player`` is the 0-based index into the hand's arrays (``p1`` is 0): the actor, or for a
    ``dh`` deal the player receiving the cards; ``None`` for a board deal and for no-ops. ``kind`` is ``"dh"`` (deal hole cards), ``"db"`` (deal board), ``"f"``,
    ``"cc"`` (check/call), ``"cbr"`` (bet/raise to ``amount``, a street total), ``"sm"``
    (show ``cards``, or muck when ``cards`` is ``None``; ``shows_dealt`` is the ``sm -`` form:
    show the cards dealt earlier), or ``""`` for a no-op (an empty or commentary-only entry).
    Unknown cards (``??``) are ``None`` inside ``cards``.

    >>> a = HistoryAction.from_str("p3 cbr 7000")
    >>> a.player, a.kind, a.amount, str(a)
    (2, 'cbr', 7000, 'p3 cbr 7000')
    >>> HistoryAction.from_str("d dh p2 ????").cards
    (None, None)
    """

    player: int | None
    kind: str
    cards: tuple[Card | None, ...] | None = None
    amount: Number | None = None
    commentary: str | None = None
    shows_dealt: bool = False

    def __post_init__(self) -> None:
        # The fields of one of the notation's actions, as from_str makes them: an action built
        # directly writes (str) and reads back (from_str) as itself. Kept cheap (from_str and
        # the PokerStars import build every action through here): the common actions pass in
        # a few comparisons, the others go through _check, which also explains a refusal.
        player = self.player
        if type(player) is int and 0 <= player <= _MAX_PLAYER and self.commentary is None \
                and self.shows_dealt is False:
            kind = self.kind
            if kind == "cc" or kind == "f":
                if self.cards is None and self.amount is None:
                    return
            elif kind == "cbr":
                amount = self.amount
                if self.cards is None and (type(amount) is int or type(amount) is float) \
                        and 0 <= amount <= MAX_CHIPS:
                    return
            elif kind == "dh" and self.amount is None:
                cards = self.cards
                if type(cards) is tuple and len(cards) == 2:
                    a, b = cards
                    if (type(a) is Card or a is None) and (type(b) is Card or b is None) and (
                            a != b or a is None):
                        return
        self._check()

    def _check(self) -> None:
        kind = self.kind
        if type(kind) is not str or kind not in _ACTION_KINDS:
            raise InvalidHistoryError(
                f"HistoryAction: kind {excerpt(kind)} is not an action: give 'dh', 'db', 'f', 'cc', "
                "'cbr', 'sm' or '' (a no-op)")
        player = self.player
        if kind in _PLAYER_KINDS:
            if type(player) is not int or not 0 <= player <= _MAX_PLAYER:
                raise InvalidHistoryError(
                    f"HistoryAction: player {excerpt(player)} (kind {kind!r}) is not a player index: "
                    f"give an int 0..{_MAX_PLAYER} (p1 is 0)")
        elif player is not None:
            raise InvalidHistoryError(
                f"HistoryAction: kind {kind!r} has no player (player=None), not {excerpt(player)}")
        cards = self.cards
        if cards is not None:
            _check_action_cards(kind, cards)
        elif kind == "dh" or kind == "db":
            raise InvalidHistoryError(
                f"HistoryAction: kind {kind!r} needs cards (a tuple of Card"
                + (" or None)" if kind == "dh" else ")"))
        amount = self.amount
        if kind == "cbr":
            if type(amount) is not int and type(amount) is not float:
                if isinstance(amount, bool) or not isinstance(amount, (int, float)):
                    raise InvalidHistoryError(
                        f"HistoryAction: the amount of kind 'cbr' must be a number (an int or "
                        f"a float), not {excerpt(amount)}")
                amount = int(amount) if isinstance(amount, int) else float(amount)
                object.__setattr__(self, "amount", amount)
            if not 0 <= amount <= MAX_CHIPS:  # also refuses nan
                raise InvalidHistoryError(
                    f"HistoryAction: the amount of kind 'cbr' must be from 0 to 2**53 chips "
                    f"(the engine's limit), not {excerpt(amount)}")
        elif amount is not None:
            raise InvalidHistoryError(
                f"HistoryAction: only kind 'cbr' has an amount, not kind {kind!r} "
                f"(amount={excerpt(amount)})")
        commentary = self.commentary
        if commentary is not None and (
                type(commentary) is not str or commentary != commentary.strip()):
            raise InvalidHistoryError(
                f"HistoryAction: commentary must be None or a str without leading or trailing "
                f"whitespace (the notation does not keep it), not {excerpt(commentary)}"
                if isinstance(commentary, str) else
                f"HistoryAction: commentary must be None or a str, not {excerpt(commentary)}")
        shows_dealt = self.shows_dealt
        if shows_dealt is not False:
            if shows_dealt is not True:
                raise InvalidHistoryError(
                    f"HistoryAction: shows_dealt must be True or False, not {excerpt(shows_dealt)}")
            if kind != "sm" or cards is not None:
                raise InvalidHistoryError(
                    "HistoryAction: shows_dealt=True is the 'sm -' action (show the cards dealt "
                    f"earlier): kind 'sm' without cards, not kind {kind!r}"
                    + (" with cards" if cards is not None else ""))

    @classmethod
    def from_str(cls, text: str, *, players: int | None = None) -> HistoryAction:
        """Parse one action notation; ``players`` (None, or an int: the number of players)
        bounds the ``pN`` index (any other type raises :class:`InvalidHistoryError`)."""
        if cls is HistoryAction and type(text) is str and len(text) <= _PARSED_TEXT and (
                players is None or type(players) is int):
            # Actions are immutable and files repeat them ("p2 f", "p1 cc"...): the parsed
            # ones are kept, up to a bound (the cache starts again when full), short ones
            # only (a long commentary is not held after its hand is gone).
            key = (text, players)
            action = _PARSED.get(key)
            if action is None:
                action = cls._parse(text, players)
                if len(_PARSED) >= _PARSED_MAX:
                    _PARSED.clear()
                _PARSED[key] = action
            return action
        if players is not None and type(players) is not int:
            raise InvalidHistoryError(
                f"HistoryAction.from_str: players must be None or an int (the number of "
                f"players, which bounds pN), not {type(players).__name__}: {excerpt(players)}")
        return cls._parse(text, players)

    @classmethod
    def _parse(cls, text: str, players: int | None) -> HistoryAction:
        if not isinstance(text, str):
            raise InvalidHistoryError(f"an action must be a string, not {excerpt(text)}")
        body, sep, comment = text.partition("#")
        commentary = comment.strip() if sep else None
        words = body.split()
        if not words:
            return cls(None, "", commentary=commentary)
        if words[0] == "d":
            if len(words) >= 2 and words[1] == "dh" and len(words) == 4:
                cards = _parse_phh_cards(words[3], text)
                if len(cards) not in (1, 2):
                    raise InvalidHistoryError(f"{_where(text)}: hold'em deals two hole cards, "
                                              "together or one at a time")
                return cls(_player_index(words[2], players, text), "dh", cards=cards,
                           commentary=commentary)
            if len(words) == 3 and words[1] == "db":
                cards = _parse_phh_cards(words[2], text)
                if None in cards:
                    raise InvalidHistoryError(f"{_where(text)}: board cards cannot be unknown")
                if len(cards) > 3:
                    raise InvalidHistoryError(
                        f"{_where(text)}: the board is dealt as a flop of 3 cards (together or "
                        "in parts), then 1 card twice")
                return cls(None, "db", cards=cards, commentary=commentary)
            raise InvalidHistoryError(
                f"{_where(text)}: dealer actions are 'd dh pN CARDS' and 'd db CARDS'"
            )
        p = _player_index(words[0], players, text)
        if len(words) < 2:
            raise InvalidHistoryError(f"{_where(text)}: missing the action after {words[0]}")
        kind, args = words[1], words[2:]
        if kind in ("f", "cc") and not args:
            return cls(p, kind, commentary=commentary)
        if kind == "cbr" and len(args) == 1:
            return cls(p, kind, amount=_parse_number(args[0], text), commentary=commentary)
        if kind == "sm" and not args:
            return cls(p, kind, commentary=commentary)
        if kind == "sm" and args == ["-"]:
            return cls(p, kind, commentary=commentary, shows_dealt=True)
        if kind == "sm" and len(args) == 1:
            cards = _parse_phh_cards(args[0], text)
            if len(cards) != 2:
                raise InvalidHistoryError(f"{_where(text)}: a hold'em player shows two hole cards")
            return cls(p, kind, cards=cards, commentary=commentary)
        if kind in ("pb", "sd"):
            raise InvalidHistoryError(
                f"{_where(text)}: {kind!r} (bring-in / discard) is not used in hold'em")
        raise InvalidHistoryError(
            f"{_where(text)}: player actions are 'pN f', 'pN cc', 'pN cbr AMOUNT', "
            "'pN sm [CARDS|-]'"
        )

    @property
    def is_dealer(self) -> bool:
        """True for the dealer's actions (``dh``, ``db``)."""
        return self.kind in ("dh", "db")

    def __str__(self) -> str:
        k = self.kind
        if k == "dh":
            assert self.cards is not None and self.player is not None
            text = f"d dh p{self.player + 1} {_format_phh_cards(self.cards)}"
        elif k == "db":
            assert self.cards is not None
            text = f"d db {_format_phh_cards(self.cards)}"
        elif k == "":
            text = ""
        else:
            assert self.player is not None
            text = f"p{self.player + 1} {k}"
            if k == "cbr":
                assert self.amount is not None
                text += f" {_format_number(self.amount)}"
            elif k == "sm" and self.shows_dealt:
                text += " -"
            elif k == "sm" and self.cards is not None:
                text += f" {_format_phh_cards(self.cards)}"
        if self.commentary is not None:
            text = f"{text} # {self.commentary}" if text else f"# {self.commentary}"
        return text

    def __repr__(self) -> str:
        return f"HistoryAction.from_str({str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the notation, so a corrupt pickle is parsed (and refused) as text is."""
        return (_action_from_pickle, (str(self),))

    def __setstate__(self, state: object) -> None:
        # a pickle in the default form (fields as a state): checked by writing and parsing
        # the notation back, which must give the same action
        names = [f.name for f in dataclasses.fields(HistoryAction)]
        if type(state) is not tuple or len(state) != len(names):
            raise InvalidHistoryError(f"not a pickled HistoryAction: {excerpt(state)}")
        try:
            candidate = HistoryAction(*state)
            parsed = HistoryAction.from_str(str(candidate))
        except (InvalidHistoryError, TypeError, ValueError, AssertionError, AttributeError,
                KeyError, IndexError):
            raise InvalidHistoryError(f"not a pickled HistoryAction: {excerpt(state)}") from None
        if parsed != candidate:
            raise InvalidHistoryError(f"not a pickled HistoryAction: {excerpt(state)}")
        for name in names:
            object.__setattr__(self, name, getattr(parsed, name))


# Field name -> (kind, required?) for the fields of the hold'em variants, in the order files
# list them (the corpus order: required fields, then optional ones as the spec tables them).
_NUM, _NUMS, _STR, _INT, _INTS, _STRS, _BOOL, _TIME, _STR_OR_INT = (
    "number", "array of numbers", "string", "integer", "array of integers", "array of strings",
    "boolean", "date/time", "string or integer",
)
_OPTIONAL: Final[tuple[tuple[str, str], ...]] = (
    ("author", _STR), ("event", _STR), ("url", _STR), ("venue", _STR), ("address", _STR),
    ("city", _STR), ("region", _STR), ("postal_code", _STR), ("country", _STR),
    ("time", _TIME), ("time_zone", _STR), ("time_zone_abbreviation", _STR),
    ("day", _INT), ("month", _INT), ("year", _INT), ("hand", _STR_OR_INT), ("level", _INT),
    ("seats", _INTS), ("seat_count", _INT), ("table", _STR_OR_INT), ("players", _STRS),
    ("finishing_stacks", _NUMS), ("winnings", _NUMS), ("currency", _STR),
    ("currency_symbol", _STR), ("time_limit", _NUM), ("time_banks", _NUMS),
)
_OPTIONAL_KINDS: Final = dict(_OPTIONAL)
_PER_PLAYER: Final = ("seats", "players", "finishing_stacks", "winnings", "time_banks")


_USER_DEPTH: Final = 64  # arrays and tables nested in one user-defined field, at most
_USER_ITEMS: Final = 100_000  # values in one user-defined field (nested ones counted), at most
_INT64: Final = 1 << 63


def _text_problem(text: str) -> str | None:
    """Why a PHH file cannot hold ``text`` (None if it can): files are UTF-8, which has no
    lone surrogates."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        return f"{text[e.start:e.end]!r} is not a character UTF-8 can write"
    return None


def _check_text(name: str, text: str) -> None:
    problem = _text_problem(text)
    if problem is not None:
        raise InvalidHistoryError(f"field {name!r} cannot be written: {problem}")


def _check_int64(name: str, value: Any) -> None:
    if not -_INT64 <= value < _INT64:
        raise InvalidHistoryError(
            f"field {name!r}: the integer {excerpt(value)} is outside TOML's 64 bits")


def _check_user_value(name: str, value: object) -> None:
    """Refuse a user-defined field's value that :func:`dumps` could not write as TOML (so a
    hand that is built can always be written): only booleans, numbers (integers in TOML's
    64 bits), strings, dates and times, and arrays and tables (string keys) of them, at
    most ``_USER_DEPTH`` deep and ``_USER_ITEMS`` values in all (a cycle reaches a limit)."""

    def refuse(why: str) -> InvalidHistoryError:
        return InvalidHistoryError(
            f"user-defined field {name!r} cannot be written as TOML: {why} (allowed: "
            f"booleans, numbers, strings, dates and times, and arrays and tables of them)")

    todo: list[tuple[object, int]] = [(value, 0)]
    seen = 0
    while todo:
        v, depth = todo.pop()
        seen += 1
        if seen > _USER_ITEMS:
            raise refuse(f"more than {_USER_ITEMS:,} values (or a structure holding itself)")
        if depth > _USER_DEPTH:
            raise refuse(f"arrays or tables nested more than {_USER_DEPTH} deep "
                         f"(or a structure holding itself)")
        if isinstance(v, bool):
            continue
        if isinstance(v, float):
            if v != v:  # read back, NaN is not equal to itself: the hand would not be either
                raise refuse("NaN (not a number) is not equal to itself once read back")
            continue
        if isinstance(v, int):
            if not -_INT64 <= v < _INT64:
                raise refuse(f"the integer {excerpt(v)} is outside TOML's 64 bits")
        elif isinstance(v, str):
            problem = _text_problem(v)
            if problem is not None:
                raise refuse(problem)
        elif isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
            problem = time_problem(v)
            if problem is not None:
                raise refuse(f"{v!r}: {problem}")
        elif isinstance(v, Mapping):
            for key, item in v.items():
                if not isinstance(key, str):
                    raise refuse(f"the table key {excerpt(key)} is not a string")
                problem = _text_problem(key)
                if problem is not None:
                    raise refuse(problem)
                todo.append((item, depth + 1))
        elif isinstance(v, (list, tuple)):
            todo.extend((item, depth + 1) for item in v)
        else:
            raise refuse(f"{type(v).__name__} value {excerpt(v)}")


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _check_kind(name: str, value: object, kind: str) -> Any:
    ok: bool
    if kind == _NUM:
        ok = _is_number(value)
        if ok and value != value:  # nan: no amount, and not equal to itself once read back
            raise InvalidHistoryError(f"field {name!r}: nan is not a number of chips or seconds")
        if ok and isinstance(value, int):  # (10**5000 was built, then failed to be written)
            _check_int64(name, value)
    elif kind == _STR:
        ok = isinstance(value, str)
        if isinstance(value, str):
            _check_text(name, value)
    elif kind == _INT:
        ok = isinstance(value, int) and not isinstance(value, bool)
        if ok:
            _check_int64(name, value)
    elif kind == _BOOL:
        ok = isinstance(value, bool)
    elif kind == _TIME:
        ok = isinstance(value, (datetime.datetime, datetime.date, datetime.time))
        if isinstance(value, (datetime.date, datetime.time)):
            problem = time_problem(value)
            if problem is not None:
                raise InvalidHistoryError(
                    f"field {name!r}: {value!r} cannot be written: {problem}")
    elif kind == _STR_OR_INT:
        ok = isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
        if isinstance(value, str):
            _check_text(name, value)
        elif ok:
            _check_int64(name, value)
    else:
        item = {_NUMS: _NUM, _INTS: _INT, _STRS: _STR}[kind]
        ok = isinstance(value, (list, tuple))
        if ok:
            assert isinstance(value, (list, tuple))
            if kind == _NUMS and all(type(x) is int and -_INT64 <= x < _INT64 for x in value):
                return tuple(value)  # the common case (chips as ints): no check can fail
            for x in value:
                _check_kind(name, x, item)
            return tuple(value)
    if not ok:
        article = "an" if kind[0] in "aei" else "a"
        raise InvalidHistoryError(
            f"field {name!r} must be {article} {kind}, not {excerpt(value)}")
    return value


_MOST_PLAYERS: Final = 23
"""The most players one deck deals a hold'em hand to (2 * 23 + 5 = 51 cards)."""


class _UserFields(dict[str, Any]):
    """:attr:`HandHistory.user_fields`: a ``dict`` that refuses changes (a history is frozen
    and its user fields are checked when it is built; ``hh.replace(user_fields=...)`` makes a
    changed copy). Reads, ``dict(...)``, ``|``, ``repr`` and JSON work as on a dict."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a HandHistory's user_fields cannot be changed: use "
                        "hh.replace(user_fields=...)")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (_UserFields, (dict(self),))


@dataclass(frozen=True, repr=False)
class HandHistory:
    """One hand in PHH: the game, the starting stacks, the actions and optional facts.

    Build one with :func:`loads` / :func:`load`, from a finished engine hand with
    ``holdem.history.from_state``, or directly. ``str()`` is the PHH text (:func:`dumps`).
    """

    variant: str
    antes: tuple[Number, ...]
    blinds_or_straddles: tuple[Number, ...]
    starting_stacks: tuple[Number, ...]
    actions: tuple[HistoryAction, ...] = ()
    min_bet: Number | None = None
    small_bet: Number | None = None
    big_bet: Number | None = None
    ante_trimming_status: bool | None = None
    author: str | None = None
    event: str | None = None
    url: str | None = None
    venue: str | None = None
    address: str | None = None
    city: str | None = None
    region: str | None = None
    postal_code: str | None = None
    country: str | None = None
    time: Time | None = None
    time_zone: str | None = None
    time_zone_abbreviation: str | None = None
    day: int | None = None
    month: int | None = None
    year: int | None = None
    hand: str | int | None = None
    level: int | None = None
    seats: tuple[int, ...] | None = None
    seat_count: int | None = None
    table: str | int | None = None
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[Number, ...] | None = None
    winnings: tuple[Number, ...] | None = None
    currency: str | None = None
    currency_symbol: str | None = None
    time_limit: Number | None = None
    time_banks: tuple[Number, ...] | None = None
    user_fields: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if not isinstance(self.variant, str) or self.variant not in VARIANTS:
            raise InvalidHistoryError(
                f"variant {excerpt(self.variant)} is not supported: holdem reads "
                + ", ".join(f"{k} ({v})" for k, v in VARIANTS.items())
            )
        for name in ("antes", "blinds_or_straddles", "starting_stacks"):
            set_(self, name, _check_kind(name, getattr(self, name), _NUMS))
        n = len(self.starting_stacks)
        if n < 2:
            raise InvalidHistoryError(f"a hand needs at least 2 players, starting_stacks has {n}")
        if n > _MOST_PLAYERS:
            raise InvalidHistoryError(
                f"a hold'em hand has at most {_MOST_PLAYERS} players (2 cards each and 5 on the "
                f"board come from one deck), starting_stacks has {n}")
        for name in ("antes", "blinds_or_straddles"):
            values = getattr(self, name)
            if len(values) != n:
                raise InvalidHistoryError(
                    f"field {name!r} has {len(values)} entries for {n} players"
                )
            if any(v < 0 for v in values):
                raise InvalidHistoryError(
                    f"field {name!r} has a negative amount: {excerpt(list(values))}")
        if any(not s > 0 for s in self.starting_stacks):  # inf (unknown) is positive
            raise InvalidHistoryError(
                "starting stacks must be positive (or inf when unknown): "
                f"{excerpt(list(self.starting_stacks))}"
            )
        fixed = self.variant == "FT"
        for name in ("min_bet", "small_bet", "big_bet"):
            value = getattr(self, name)
            needed = (name != "min_bet") == fixed
            if value is None and needed:
                raise InvalidHistoryError(f"variant {self.variant} requires the field {name!r}")
            if value is not None and not needed:
                raise InvalidHistoryError(
                    f"variant {self.variant} does not take the field {name!r} "
                    + ("(fixed-limit uses small_bet and big_bet)" if fixed else "(it uses min_bet)")
                )
            if value is not None:
                _check_kind(name, value, _NUM)
                if value <= 0:
                    raise InvalidHistoryError(f"field {name!r} must be positive, not {value!r}")
        if self.ante_trimming_status is not None:
            _check_kind("ante_trimming_status", self.ante_trimming_status, _BOOL)
        for name, kind in _OPTIONAL:
            value = getattr(self, name)
            if value is not None:
                set_(self, name, _check_kind(name, value, kind))
                if name in _PER_PLAYER and len(getattr(self, name)) != n:
                    raise InvalidHistoryError(
                        f"field {name!r} has {len(getattr(self, name))} entries for {n} players"
                    )
                if name in ("finishing_stacks", "winnings") and any(v < 0 for v in value):
                    raise InvalidHistoryError(
                        f"field {name!r} has a negative amount: {excerpt(list(value))}")
        actions: list[HistoryAction] = []
        if isinstance(self.actions, str | bytes) or not hasattr(self.actions, "__iter__"):
            raise InvalidHistoryError(f"field 'actions' must be a sequence of actions, not "
                                      f"{excerpt(self.actions)}")
        for i, a in enumerate(self.actions):
            if isinstance(a, str):
                try:
                    a = HistoryAction.from_str(a, players=n)
                except InvalidHistoryError as e:
                    raise InvalidHistoryError(f"actions[{i}]: {e}") from None
            elif not isinstance(a, HistoryAction):
                raise InvalidHistoryError(f"actions[{i}] is not an action: {excerpt(a)}")
            elif a.player is not None and not 0 <= a.player < n:
                raise InvalidHistoryError(f"actions[{i}] names p{a.player + 1} in a {n}-player hand")
            actions.append(a)
        set_(self, "actions", tuple(actions))
        if not isinstance(self.user_fields, Mapping):
            raise InvalidHistoryError(
                f"user_fields must be a mapping of '_name' to value, not "
                f"{excerpt(self.user_fields)}")
        user = dict(self.user_fields)
        for key, value in user.items():
            if not isinstance(key, str) or not key.startswith("_"):
                raise InvalidHistoryError(
                    f"user-defined field {excerpt(key)} must start with '_'")
            problem = _text_problem(key)
            if problem is not None:
                raise InvalidHistoryError(f"user-defined field {key!r}: {problem}")
            _check_user_value(key, value)
        set_(self, "user_fields", _UserFields(user))

    @property
    def num_players(self) -> int:
        return len(self.starting_stacks)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandHistory:
        """Build from a parsed TOML table (a mapping of field name to value), checking every
        field name and type (anything else raises :class:`InvalidHistoryError`)."""
        if type(data) is not dict and not isinstance(data, Mapping):
            raise InvalidHistoryError(
                f"from_dict needs a mapping of PHH field names to values (a TOML table), got "
                f"{type(data).__name__}: {excerpt(data)}")
        known = _field_names(cls)
        kwargs: dict[str, Any] = {}
        user: dict[str, Any] = {}
        try:  # (a key that is not a str fails in startswith: no check per key of every file)
            for key, value in data.items():
                if key.startswith("_"):
                    user[key] = value
                elif key in known:
                    kwargs[key] = value
                elif key == "bring_in":
                    raise InvalidHistoryError("field 'bring_in' is for stud games, not hold'em")
                else:
                    raise InvalidHistoryError(
                        f"unknown field {excerpt(key)} (PHH fields are listed at "
                        "phh.readthedocs.io; user-defined fields start with '_')"
                    )
        except (AttributeError, TypeError):
            bad = [k for k in data if not isinstance(k, str)]
            if not bad:
                raise
            raise InvalidHistoryError(
                f"from_dict: field names must be strings, got {type(bad[0]).__name__}: "
                f"{excerpt(bad[0])}") from None
        for req in ("variant", "antes", "blinds_or_straddles", "starting_stacks", "actions"):
            if req not in kwargs:
                raise InvalidHistoryError(f"missing required field {req!r}")
        if not isinstance(kwargs["variant"], str):
            raise InvalidHistoryError(
                f"field 'variant' must be a string, not {excerpt(kwargs['variant'])}")
        if not isinstance(kwargs["actions"], list):
            raise InvalidHistoryError("field 'actions' must be an array of strings")
        kwargs["actions"] = tuple(kwargs["actions"])
        return cls(**kwargs, user_fields=user)

    def to_dict(self) -> dict[str, Any]:
        """The fields that are set, in the order files list them (a TOML-ready mapping)."""
        out: dict[str, Any] = {"variant": self.variant}
        if self.ante_trimming_status is not None:
            out["ante_trimming_status"] = self.ante_trimming_status
        out["antes"] = list(self.antes)
        out["blinds_or_straddles"] = list(self.blinds_or_straddles)
        for name in ("min_bet", "small_bet", "big_bet"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        out["starting_stacks"] = list(self.starting_stacks)
        out["actions"] = [str(a) for a in self.actions]
        for name, _ in _OPTIONAL:
            value = getattr(self, name)
            if value is not None:
                out[name] = list(value) if isinstance(value, tuple) else value
        out.update(self.user_fields)
        return out

    @classmethod
    def loads(cls, text: str, *, name: str | None = None) -> HandHistory:
        """Parse one hand from PHH text (same as :func:`holdem.phh.loads`)."""
        return loads(text, name=name)

    @classmethod
    def load(cls, fp: IO[bytes] | IO[str] | str | os.PathLike[str]) -> HandHistory:
        """Read one hand from a ``.phh`` file (same as :func:`holdem.phh.load`)."""
        return load(fp)

    def dumps(self) -> str:
        """The PHH text of this hand (same as :func:`holdem.phh.dumps`)."""
        return dumps(self)

    def dump(self, fp: IO[str] | str | os.PathLike[str]) -> None:
        """Write this hand as a ``.phh`` file (same as :func:`holdem.phh.dump`)."""
        dump(self, fp)

    def replace(self, **changes: Any) -> HandHistory:
        """A copy with some fields changed (``dataclasses.replace``)."""
        return dataclasses.replace(self, **changes)

    def __str__(self) -> str:
        return dumps(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle through the constructor (actions as their notation), so that an altered
        pickle is checked like new input."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        values["actions"] = tuple(map(str, self.actions))
        values["user_fields"] = dict(self.user_fields)  # (a plain dict, as pickles hold it)
        return (_history_from_pickle, (values,))

    def __setstate__(self, state: object) -> None:
        # a pickle in the default form (the instance's dict): made again by the constructor
        made = _history_from_pickle(state)
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, getattr(made, f.name))

    def __repr__(self) -> str:
        # Only the fields that are set: the repr pastes back and stays readable.
        parts = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in ("variant", "antes", "blinds_or_straddles", "starting_stacks") or (
                value is not None and value != f.default and not (
                    f.name == "user_fields" and not value)
            ):
                parts.append(f"{f.name}={value!r}")
        return f"HandHistory({', '.join(parts)})"


_FIELD_NAMES: dict[type, frozenset[str]] = {}


def _field_names(cls: type[HandHistory]) -> frozenset[str]:
    """The PHH fields of a HandHistory class (``user_fields`` holds the others)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(f.name for f in dataclasses.fields(cls)) - {
            "user_fields"}
    return names


def _dump_table(data: Mapping[str, Any]) -> str:
    return "".join(f"{dumps_key(k)} = {dumps_value(v)}\n" for k, v in data.items())


def _name(source: object) -> str:
    return str(getattr(source, "name", source))


def _toml(text: str, name: str) -> dict[str, Any]:
    if text.startswith("\ufeff"):  # a byte order mark (editors on Windows write one):
        text = text[1:]  # TOML has no place for it; PokerStars files are read past it too
    try:
        return _toml_loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InvalidHistoryError(f"{name}: not valid TOML: {e}") from None
    except RecursionError:  # tomllib reads nested arrays and tables recursively
        raise InvalidHistoryError(
            f"{name}: arrays or tables nested too deeply to be a hand history") from None
    except ValueError as e:  # an integer of more than 4300 digits (int() refuses it)
        raise InvalidHistoryError(
            f"{name}: a number is too long ({str(e)[:60]}...); amounts are at most 2**53 "
            f"chips (the engine's limit)") from None


def _with_name(e: InvalidHistoryError, name: str | None) -> InvalidHistoryError:
    return InvalidHistoryError(f"{name}: {e}") if name else e


def _action_from_pickle(text: object) -> HistoryAction:
    if not isinstance(text, str):
        raise InvalidHistoryError(f"not a pickled HistoryAction: {excerpt(text)}")
    return HistoryAction.from_str(text)


def _history_from_pickle(values: object) -> HandHistory:
    if type(values) is not dict or not all(type(k) is str for k in values):
        raise InvalidHistoryError(f"not a pickled HandHistory: {excerpt(values)}")
    try:
        return HandHistory(**values)
    except TypeError as e:  # a missing or unknown field
        raise InvalidHistoryError(f"not a pickled HandHistory: {e}") from None


def _not_str(text: object, what: str) -> TypeError:
    """The error of :func:`loads` / :func:`loads_all` given ``text`` that is not a str."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        return TypeError(f"{what}: text must be a str, not {type(text).__name__} (decode it "
                         f"first: text.decode('utf-8'), or read the file with "
                         f"{what.replace('loads', 'load')})")
    return TypeError(f"{what}: text must be a str (the PHH text), not {type(text).__name__}: "
                     f"{excerpt(text)}")


def loads(text: str, *, name: str | None = None) -> HandHistory:
    """Parse one hand from PHH text; ``name`` (e.g. a file name) prefixes error messages.
    ``text`` must be a ``str`` (else :class:`TypeError`: decode ``bytes`` first)."""
    if not isinstance(text, str):
        raise _not_str(text, "loads")
    data = _toml(text, name or "PHH text")
    try:
        return HandHistory.from_dict(data)
    except InvalidHistoryError as e:
        raise _with_name(e, name) from None


def _history_arg(hh: object, what: str) -> HandHistory:
    """``hh`` if it is a :class:`HandHistory`, else the error naming ``what`` needs one."""
    if not isinstance(hh, HandHistory):
        raise InvalidHistoryError(f"{what} needs a holdem.phh.HandHistory, got "
                                  f"{type(hh).__name__}: {excerpt(hh)}")
    return hh


def dumps(hh: HandHistory) -> str:
    """PHH text of one hand (``loads(dumps(hh)) == hh``)."""
    return _dump_table(_history_arg(hh, "dumps").to_dict())


def _read(fp: IO[bytes] | IO[str] | str | os.PathLike[str], what: str) -> tuple[str, str]:
    data: bytes | str
    if isinstance(fp, (str, os.PathLike)):
        name = os.fspath(fp)
        data = _textfile.read_path(fp)
    else:
        read = getattr(fp, "read", None)
        if not callable(read):
            hint = (f" (for PHH text, use {what.replace('load', 'loads')})" if isinstance(
                fp, (bytes, bytearray, memoryview)) else "")
            raise TypeError(f"{what}: fp must be a path (str or os.PathLike) or an open file, "
                            f"not {type(fp).__name__}: {excerpt(fp)}{hint}")
        name = _name(fp)
        try:
            # an open file is read a chunk at a time (a device such as /dev/zero has no end:
            # read whole, it filled the memory); other objects with read() are read whole
            if isinstance(fp, io.TextIOBase):
                data = _textfile.read(fp, name)
            elif isinstance(fp, (io.RawIOBase, io.BufferedIOBase)):
                data = _textfile.read_binary(fp, name)
            else:
                data = read()
        except UnicodeDecodeError as e:  # a stream the caller opened in text mode
            raise InvalidHistoryError(f"{name}: {_not_text(e)}") from e
        if not isinstance(data, (str, bytes)):
            raise TypeError(f"{what}: fp.read() must give str or bytes, it gave "
                            f"{type(data).__name__}: {excerpt(data)}")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise InvalidHistoryError(f"{name}: not UTF-8 text: {e}") from None
    return data, name


def load(fp: IO[bytes] | IO[str] | str | os.PathLike[str]) -> HandHistory:
    """Read one hand from a ``.phh`` file (a path or an open file, text or binary; a text
    stream that is not valid in its encoding raises :class:`InvalidHistoryError`; anything
    else raises :class:`TypeError`)."""
    text, name = _read(fp, "load")
    return loads(text, name=name)


def _check_writable(fp: object, what: str) -> None:
    """Refuse (:class:`TypeError`, naming ``fp``) what :func:`_write` cannot write text to:
    checked before the text is made, so a bad call writes nothing."""
    if isinstance(fp, (str, os.PathLike)):
        return
    if not callable(getattr(fp, "write", None)):
        raise TypeError(f"{what}: fp must be a path (str or os.PathLike) or a file open for "
                        f"writing text, not {type(fp).__name__}: {excerpt(fp)}")
    if isinstance(fp, (io.RawIOBase, io.BufferedIOBase)):
        raise TypeError(f"{what}: fp is a binary file ({type(fp).__name__}): open it in text "
                        f"mode (open(path, 'w', encoding='utf-8')) or pass the path")


def _write(fp: IO[str] | str | os.PathLike[str], text: str) -> None:
    if isinstance(fp, (str, os.PathLike)):
        # (an existing file is replaced only once the text is all written: an interrupted
        # dump leaves it as it was, not empty or cut short)
        _textfile.write_replacing(fp, text)
    else:
        fp.write(text)


def dump(hh: HandHistory, fp: IO[str] | str | os.PathLike[str]) -> None:
    """Write one hand as a ``.phh`` file (a path or an open text file; anything else raises
    :class:`TypeError`)."""
    text = dumps(_history_arg(hh, "dump"))
    _check_writable(fp, "dump")
    _write(fp, text)


def loads_all(text: str, *, name: str | None = None) -> list[HandHistory]:
    """Parse a ``.phhs`` text: every top-level table is a hand, in file order (``text`` must
    be a ``str``, as for :func:`loads`)."""
    if not isinstance(text, str):
        raise _not_str(text, "loads_all")
    return [_from_table(where, table) for where, table in _tables(text, name)]


def _tables(text: str, name: str | None) -> list[tuple[str, Any]]:
    """The first half of :func:`loads_all`: the TOML of a ``.phhs`` text, as ``(where,
    table)`` per top-level entry (``where`` names it in errors). Plain data: the second half,
    :func:`_from_table`, may run in another process."""
    data = _toml(text, name or "PHHS text")
    return [(f"{name or 'PHHS text'}[{excerpt(key, quote=False)}]", table)
            for key, table in data.items()]


def _from_table(where: str, table: Any) -> HandHistory:
    """The hand of one ``.phhs`` table (see :func:`_tables`), every field checked."""
    if not isinstance(table, dict):
        raise InvalidHistoryError(
            f"{where}: a .phhs file holds only tables of hands ([1], [2], ...)"
        )
    try:
        return HandHistory.from_dict(table)
    except InvalidHistoryError as e:
        raise _with_name(e, where) from None


def dumps_all(hands: Sequence[HandHistory]) -> str:
    """``.phhs`` text: hands as tables ``[1]``, ``[2]``, ... separated by blank lines."""
    return "\n".join(f"[{i}]\n{dumps(hh)}" for i, hh in enumerate(hands, 1))


def load_all(fp: IO[bytes] | IO[str] | str | os.PathLike[str]) -> list[HandHistory]:
    """Read every hand of a ``.phhs`` file (``fp`` as for :func:`load`)."""
    text, name = _read(fp, "load_all")
    return loads_all(text, name=name)


def dump_all(hands: Sequence[HandHistory], fp: IO[str] | str | os.PathLike[str]) -> None:
    """Write hands as a ``.phhs`` file (``fp`` as for :func:`dump`)."""
    text = dumps_all(hands)
    _check_writable(fp, "dump_all")
    _write(fp, text)
