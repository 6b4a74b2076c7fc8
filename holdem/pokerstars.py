"""PokerStars hand histories: import (:func:`parse`) and export (:func:`to_pokerstars`).

Import reads the text PokerStars writes (cash games in chips or dollars and cents, tournaments,
no-limit, pot-limit and fixed-limit hold'em, 2-10 players) into :class:`holdem.phh.HandHistory`
objects, one hand at a time, and by default replays each under the rules and compares it with
the summary (see :func:`parse`).

Export:

The hand is first replayed under the rules (:func:`holdem.history.replay`), so every amount
(calls, raise sizes, uncalled bets, pots, side pots) is the engine's. The subset written:

- header ``PokerStars Hand #N: Hold'em No Limit (sb/bb) - YYYY/MM/DD HH:MM:SS TZ`` (``Pot Limit``,
  ``Limit (small bet/big bet)``; a tournament's ``event`` ``Tournament #T, ...`` and ``Level``
  before the stakes), the hand number from ``hand`` when it is an integer, the date
  from ``year``/``month``/``day``/``time`` (``1970/01/01 00:00:00`` when absent) and the time
  zone from ``time_zone_abbreviation`` (else ``UTC``);
- ``Table 'NAME' N-max Seat #B is the button`` (``table``, ``seat_count``, ``seats`` when given;
  seats are numbered 1..n from the first seat left of the button otherwise);
- seats with starting stacks, posts (``posts the ante``, ``posts small blind``, ``posts big
  blind``, ``posts straddle``), ``*** HOLE CARDS ***`` with a ``Dealt to NAME [..]`` line for
  every known hand (trackers read them all; unknown hands are omitted);
- actions: ``folds``, ``checks``, ``calls X``, ``bets X``, ``raises X to Y`` (with ``and is
  all-in``); street lines ``*** FLOP *** [..]``, ``*** TURN *** [..] [.]``, ``*** RIVER ***``;
- ``Uncalled bet (X) returned to NAME``, ``*** SHOW DOWN ***`` with ``shows [..] (hand)`` /
  ``mucks hand``, ``NAME collected X from pot`` (``main pot`` / ``side pot-K`` when there are
  side pots);
- ``*** SUMMARY ***``: total pot, side pots, rake, board, one line per seat.

Amounts are in the file's units (:func:`holdem.history.chip_unit`): chips, or dollars and cents
(``$0.05`` with the hand's ``currency_symbol``) for a hand played in cents. The rake of a hand
with ``_rake`` is written in the summary. Not written: time banks, chat, sit-outs.
"""

from __future__ import annotations

import dataclasses
import datetime
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any

from holdem.cards import Card, parse_card
from holdem.errors import InvalidHistoryError
from holdem.hand.actions import ActionType
from holdem.hand.records import Street
from holdem.hand.state import HandState
from holdem.history import replay
from holdem.phh import HandHistory, HistoryAction, Number

__all__ = ["parse", "to_pokerstars"]

_GAME = {"NT": "Hold'em No Limit", "PT": "Hold'em Pot Limit", "FT": "Hold'em Limit"}
_STREET_NAME = {Street.FLOP: "FLOP", Street.TURN: "TURN", Street.RIVER: "RIVER"}
_POST_TEXT = {
    "ante": "posts the ante",
    "big_blind_ante": "posts the ante",
    "small_blind": "posts small blind",
    "big_blind": "posts big blind",
    "straddle": "posts straddle",
}


def _to_roman(n: int) -> str:
    out = ""
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                           (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                           (4, "IV"), (1, "I")):
        while n >= value:
            out += letters
            n -= value
    return out


def _cards(cards: Sequence[Card]) -> str:
    return "[" + " ".join(str(c) for c in cards) + "]"


def _money(unit: Fraction, symbol: str) -> Callable[[int], str]:
    """Engine chips (of ``unit``) as the text writes amounts: ``1500``, ``$0.05``."""
    if unit == 1:
        return str
    places = 0
    while (unit * 10**places).denominator != 1:
        places += 1
        if places > 9:
            raise InvalidHistoryError(f"the chip unit {unit} is not a decimal amount")
    scale = 10**places
    step = int(unit * scale)

    def money(chips: int) -> str:
        v = chips * step
        return f"{symbol}{v // scale}.{v % scale:0{places}d}"

    return money


def _date(hh: HandHistory) -> str:
    y, m, d = hh.year or 1970, hh.month or 1, hh.day or 1
    hms = "00:00:00"
    t = hh.time
    if isinstance(t, datetime.date):  # a date or a date-time
        y, m, d = t.year, t.month, t.day
    if isinstance(t, (datetime.datetime, datetime.time)):
        hms = f"{t.hour:02d}:{t.minute:02d}:{t.second:02d}"
    return f"{y:04d}/{m:02d}/{d:02d} {hms} {hh.time_zone_abbreviation or 'UTC'}"


def _names(hh: HandHistory) -> list[str]:
    n = hh.num_players
    raw = list(hh.players) if hh.players is not None else [""] * n
    out: list[str] = []
    for i, name in enumerate(raw):
        # A colon or a bracket would break the "NAME: action" and "[cards]" lines trackers parse.
        clean = re.sub(r"[:\[\]\n\r]", " ", name).strip() or f"Player {i + 1}"
        while clean in out:
            clean += f" ({i + 1})"
        out.append(clean)
    return out


def to_pokerstars(hh: HandHistory, *, name: str | None = None) -> str:
    """The hand as PokerStars-style text (see the module docstring for the subset written).

    Raises :class:`holdem.InvalidHistoryError` if the hand does not replay under the rules.
    """
    result = replay(hh, name=name)
    hidden = result.stand_ins  # cards standing in for an unknown mucked hand: never printed
    state = result.state
    m = _money(result.chip_unit, hh.currency_symbol or "")
    n = hh.num_players
    names = _names(hh)
    seats = list(hh.seats) if hh.seats is not None else list(range(1, n + 1))
    button = n - 1
    game = state.game
    if hh.variant == "FT":
        assert game.small_bet is not None and game.big_bet is not None  # set by Game for FL
        stakes = f"{m(game.small_bet)}/{m(game.big_bet)}"
    else:
        stakes = f"{m(game.small_blind)}/{m(game.big_blind)}"
    if hh.currency and result.chip_unit != 1:
        stakes += f" {hh.currency}"
    number = hh.hand if isinstance(hh.hand, int) else 1
    game_text = f"{_GAME[hh.variant]} ({stakes})"
    if hh.event is not None and hh.event.startswith("Tournament #"):
        level = f" - Level {_to_roman(hh.level)}" if hh.level else ""
        game_text = f"{hh.event} {_GAME[hh.variant]}{level} ({stakes})"
    lines = [f"PokerStars Hand #{number}: {game_text} - {_date(hh)}"]
    table = hh.table if hh.table is not None else (hh.event or "holdem")
    max_seats = hh.seat_count or max(n, max(seats))
    lines.append(f"Table '{table}' {max_seats}-max Seat #{seats[button]} is the button")
    for p in range(n):
        lines.append(f"Seat {seats[p]}: {names[p]} ({m(state.starting_stacks[p])} in chips)")
    # PokerStars lists the antes first, then the blinds and the straddle.
    ordered = [p for p in sorted(state.posts, key=lambda p: 0 if p.kind in ("ante", "big_blind_ante")
                                 else 1) if p.amount]
    last = {post.seat: k for k, post in enumerate(ordered)}  # "all-in" goes on a seat's last post
    extra = {x.seat: 0 for x in ordered if x.kind in ("entry_big_blind", "dead_small_blind")}
    for x in ordered:
        if x.seat in extra:
            extra[x.seat] += x.amount
    for k, post in enumerate(ordered):
        allin = " and is all-in" if last[post.seat] == k and _posted_all_in(state, post.seat) else ""
        text = _POST_TEXT.get(post.kind, "posts")
        amount = post.amount
        if post.seat in extra:  # PokerStars writes a seat's extra posts as one line
            if last[post.seat] != k:
                continue
            kinds = {x.kind for x in ordered if x.seat == post.seat}
            amount = extra[post.seat]
            text = ("posts small & big blinds" if len(kinds) == 2 else
                    "posts big blind" if "entry_big_blind" in kinds else "posts small blind")
        lines.append(f"{names[post.seat]}: {text} {m(amount)}{allin}")
    lines.append("*** HOLE CARDS ***")
    for p in range(n):
        cards = state.hole_cards[p]
        if cards and p not in hidden:
            lines.append(f"Dealt to {names[p]} {_cards(cards)}")
    board = state.board
    street = Street.PREFLOP
    folded_on: dict[int, Street] = {}

    def street_line(s: Street) -> None:
        at = {Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}[s]
        if len(board) < at:
            return
        if s is Street.FLOP:
            lines.append(f"*** FLOP *** {_cards(board[:3])}")
        else:
            lines.append(f"*** {_STREET_NAME[s]} *** {_cards(board[: at - 1])} [{board[at - 1]}]")

    # Street totals before each action: posts count toward the preflop street (blinds,
    # straddle), antes do not.
    street_bet = [0] * n
    for post in state.posts:
        if post.kind in ("small_blind", "big_blind", "straddle", "entry_big_blind"):
            street_bet[post.seat] += post.amount
    current = max(street_bet)

    def close_street() -> None:
        # R21: the part of the highest street bet that nobody matched goes back to its owner.
        top = max(street_bet)
        if street_bet.count(top) == 1 and top:
            second = max(b for i, b in enumerate(street_bet) if i != street_bet.index(top))
            lines.append(f"Uncalled bet ({m(top - second)}) returned to {names[street_bet.index(top)]}")

    for rec in state.history:
        if street < rec.street:
            close_street()
        while street < rec.street:
            street = Street(street + 1)
            street_line(street)
            street_bet = [0] * n
            current = 0
        who = names[rec.seat]
        allin = " and is all-in" if rec.all_in else ""
        t = rec.type
        if t == ActionType.FOLD:
            lines.append(f"{who}: folds")
            folded_on[rec.seat] = rec.street
        elif t == ActionType.CHECK:
            lines.append(f"{who}: checks")
        elif t == ActionType.CALL:
            lines.append(f"{who}: calls {m(rec.amount)}{allin}")
        elif t == ActionType.BET:
            lines.append(f"{who}: bets {m(rec.to)}{allin}")
        else:
            lines.append(f"{who}: raises {m(rec.to - current)} to {m(rec.to)}{allin}")
        street_bet[rec.seat] = rec.to
        current = max(current, rec.to)
    end = state.result if state.is_terminal() else None
    if end is None:
        return "\n".join(lines)
    close_street()
    if end.showdown_order:
        while street < Street.RIVER:
            street = Street(street + 1)
            street_line(street)
    pots = [p for p in end.pots if p.amount]
    if end.showdown_order:
        lines.append("*** SHOW DOWN ***")
        for seat in end.showdown_order:
            if seat in end.shown:
                desc = end.descriptions.get(seat, "")
                lines.append(f"{names[seat]}: shows {_cards(end.shown[seat])}"
                             + (f" ({desc})" if desc else ""))
            else:
                lines.append(f"{names[seat]}: mucks hand")
    won = [0] * n
    for k, pot in enumerate(pots):
        label = "pot" if len(pots) == 1 else ("main pot" if k == 0 else f"side pot-{k}")
        for seat, share in zip(pot.winners, pot.shares, strict=True):
            won[seat] += share
            lines.append(f"{names[seat]} collected {m(share)} from {label}")
    lines.append("*** SUMMARY ***")
    total = sum(p.amount for p in pots)
    if len(pots) > 1:
        # PokerStars lists each pot after its rake (the collected amounts add up to them).
        parts = [f"Main pot {m(pots[0].amount - pots[0].rake)}."] + [
            f"Side pot-{k} {m(p.amount - p.rake)}." for k, p in enumerate(pots[1:], 1)
        ]
        lines.append(f"Total pot {m(total)} {' '.join(parts)} | Rake {m(end.rake)}")
    else:
        lines.append(f"Total pot {m(total)} | Rake {m(end.rake)}")
    if board:
        lines.append(f"Board {_cards(board)}")
    sb_seat, bb_seat = state.small_blind_seat, state.big_blind_seat
    for p in range(n):
        role = ""
        if p == button:
            role += " (button)"
        if p == sb_seat and any(x.kind == "small_blind" and x.seat == p for x in state.posts):
            role += " (small blind)"
        if p == bb_seat:
            role += " (big blind)"
        text = f"Seat {seats[p]}: {names[p]}{role}"
        if p in folded_on:
            s = folded_on[p]
            text += " folded before Flop" if s is Street.PREFLOP else f" folded on the {str(s).capitalize()}"
        elif p in end.shown:
            desc = end.descriptions.get(p, "")
            how = f" with {desc}" if desc else ""
            text += f" showed {_cards(end.shown[p])} and " + (f"won ({m(won[p])}){how}" if won[p] else f"lost{how}")
        elif p in end.mucked:
            text += " mucked"
        elif won[p]:
            text += f" collected ({m(won[p])})"
        lines.append(text)
    return "\n".join(lines)


def _posted_all_in(state: HandState, seat: int) -> bool:
    return sum(p.amount for p in state.posts if p.seat == seat) >= state.starting_stacks[seat]


# --- import ----------------------------------------------------------------------------------

Source = str | os.PathLike[str] | Iterable[str]

_CARD: dict[str, Card] = {str(c): c for c in (parse_card(r + s) for r in "23456789TJQKA" for s in "cdhs")}
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_STRUCTURES = (("Hold'em No Limit", "NT"), ("Hold'em Pot Limit", "PT"), ("Hold'em Limit", "FT"))
_STREET_LINES = {"*** FLOP ***": 3, "*** TURN ***": 4, "*** RIVER ***": 5}
_SKIP_SUFFIXES = (" is disconnected", " is connected", " has timed out", " has returned",
                  " leaves the table", " is sitting out", " will be allowed to play after the button",
                  " was removed from the table for failing to post", " has timed out while disconnected",
                  " has timed out while being disconnected")
_IGNORED = ("doesn't show hand", "sits out", "is sitting out", "sitting out", "is back",
            "sits in", "has returned", "leaves the table", "is disconnected", "is connected")
_PLAYS = frozenset({"folds", "calls", "checks", "raises", "bets", "shows", "mucks"})
_DATE = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})(?: ([A-Z]{2,5}))?")
_SEAT = re.compile(r"Seat (\d+): (.+) \(([^ ()]+) in chips(?:, [^()]*)?\)(.*)\Z")


#: Actions without amounts or cards, shared (they are immutable): (player, kind) -> action.
_SIMPLE: dict[tuple[int, str], HistoryAction] = {
    (p, kind): HistoryAction(p, kind, cards=(None, None) if kind == "dh" else None)
    for p in range(10) for kind in ("f", "cc", "dh")
}
_ACTIONS: dict[tuple[int | None, str, tuple[Card, ...] | None, Number | None], HistoryAction] = {}


def _action(player: int | None, kind: str, cards: tuple[Card, ...] | None,
            amount: Number | None) -> HistoryAction:
    """A shared HistoryAction (they are immutable; hands repeat deals, cards and amounts)."""
    key = (player, kind, cards, amount)
    a = _ACTIONS.get(key)
    if a is None:
        if len(_ACTIONS) >= 100_000:
            _ACTIONS.clear()
        a = _ACTIONS[key] = HistoryAction(player, kind, cards=cards, amount=amount)
    return a


_DEFAULTS = {f.name: f.default for f in dataclasses.fields(HandHistory) if f.name != "user_fields"}


def _history(**fields: Any) -> HandHistory:
    """A HandHistory from values this module built and checked (the parser's fast path: the
    field-by-field validation of ``HandHistory()`` is most of the cost of a hand)."""
    hh: HandHistory = object.__new__(HandHistory)
    values = dict(_DEFAULTS)
    values.update(fields)
    if not hasattr(hh, "__dict__") or values.keys() != _DEFAULTS.keys() | {"user_fields"}:
        return HandHistory(**fields)  # pragma: no cover - a field this module does not know
    hh.__dict__.update(values)
    return hh


def _roman(text: str) -> int | None:
    total = 0
    for i, ch in enumerate(text):
        v = _ROMAN.get(ch)
        if v is None:
            return None
        nxt = _ROMAN.get(text[i + 1]) if i + 1 < len(text) else None
        total += -v if nxt is not None and nxt > v else v
    return total or None


class _Hand:
    """One hand's lines -> a HandHistory (amounts kept in integer units while parsing)."""

    def __init__(self, first: int, lines: list[str], where: str) -> None:
        self.first = first  # the line number of lines[0]
        self.lines = lines
        self.i = 0  # the line being read
        self.where = where
        self.hand = "?"
        self.scale = 1
        self.places = 0
        self.symbol = ""

    # errors ------------------------------------------------------------------------------
    def error(self, why: str, lineno: int | None = None, line: str | None = None) -> InvalidHistoryError:
        if lineno is None:
            lineno = self.first + self.i
        if line is None:
            line = self.line_at(lineno)
        return InvalidHistoryError(
            f"{self.where}hand #{self.hand}, line {lineno}: {why}: {line.strip()!r}")

    def units(self, text: str) -> int:
        t = text.lstrip("$€£")
        if t.isdigit():
            return int(t) * self.scale
        w, dot, f = t.partition(".")
        if dot and w.isdigit() and f.isdigit() and 0 < len(f) <= self.places:
            return int(w) * self.scale + int(f.ljust(self.places, "0"))
        if dot and w.isdigit() and f.isdigit():
            raise self.error(f"{text} has more decimals than the stakes")
        raise self.error(f"{text!r} is not an amount")

    def out(self, units: int) -> Number:
        if self.scale == 1 or units % self.scale == 0:
            return units // self.scale
        return units / self.scale

    def money(self, units: int) -> str:
        """Units as the text writes them (``$0.05``, ``1500``)."""
        if self.scale == 1:
            return str(units)
        return f"{self.symbol}{units // self.scale}.{units % self.scale:0{self.places}d}"

    def cards(self, text: str) -> tuple[Card, ...]:
        try:
            return tuple(_CARD[c] for c in text.split())
        except KeyError:
            raise self.error(f"[{text}] are not cards (like [Ah Kd])") from None

    def bracket(self, text: str) -> tuple[tuple[Card, ...], str]:
        """The cards of the first ``[..]`` in ``text`` and the text after it."""
        a = text.find("[")
        b = text.find("]", a + 1)
        if a < 0 or b < 0:
            raise self.error("cards in brackets expected")
        return self.cards(text[a + 1 : b]), text[b + 1 :]

    def misplaced(self, section: str) -> InvalidHistoryError:
        return self.error("a player action before the hole cards are dealt"
                          if section == "posts" else "unexpected line in the summary")

    # parsing -----------------------------------------------------------------------------
    def header(self, line: str) -> tuple[str, dict[str, Any]]:
        body = line.lstrip("\ufeff")
        k = body.find("Hand #")
        if k < 0:
            k = body.find("Game #")
        colon = body.find(":", k)
        if k < 0 or colon < 0:
            raise self.error("a hand starts with 'PokerStars Hand #N: ...'")
        number = body[k + 6 : colon]
        self.hand = number
        fields: dict[str, Any] = {"hand": int(number) if number.isdigit() else number}
        rest = body[colon + 1 :].strip()
        variant = None
        for text, code in _STRUCTURES:
            at = rest.find(text)
            if at >= 0:
                variant = code
                after = rest[at + len(text) :]
                before = rest[:at].strip().rstrip(",").strip()
                break
        if variant is None:
            raise self.error("not a hold'em hand (Hold'em No Limit, Pot Limit or Limit)")
        if before.startswith("Tournament #"):
            fields["event"] = before
        elif before:
            raise self.error(f"unknown game {before!r}")
        tournament = "event" in fields
        p = after.find("(")
        q = after.find(")", p)
        if p < 0 or q < 0:
            raise self.error("the stakes (small/big) are missing")
        stakes = after[p + 1 : q].split()
        if tournament:
            level = after[:p].strip(" -")
            if level.startswith("Level "):
                lv = _roman(level[6:].strip())
                if lv is not None:
                    fields["level"] = lv
        if len(stakes) == 2 and stakes[1].isalpha():
            fields["currency"] = stakes[1]
        small, _, big = stakes[0].partition("/")
        if not tournament and (small[:1] in "$€£" or "." in stakes[0]):
            self.scale, self.places = 100, 2
            if small[:1] in "$€£":
                self.symbol = small[0]
                fields["currency_symbol"] = small[0]
        if not big:
            raise self.error("the stakes must read (small/big)")
        stake = (self.units(small), self.units(big))
        m = _DATE.search(after, q)
        if m is not None:
            y, mo, d, hh, mi, ss, tz = m.groups()
            fields.update(year=int(y), month=int(mo), day=int(d),
                          time=datetime.time(int(hh), int(mi), int(ss)))
            if tz:
                fields["time_zone_abbreviation"] = tz
        fields["_stakes"] = stake
        return variant, fields

    def parse(self) -> HandHistory:
        lines = self.lines
        self.i = 0
        variant, fields = self.header(lines[0])
        stakes: tuple[int, int] = fields.pop("_stakes")
        i = 1
        # table line
        if i < len(lines) and lines[i].startswith("Table '"):
            self.i = i
            t = lines[i]
            b = t.rfind(" Seat #")
            q = t.rfind("'", 0, b)
            bw = t[b + 7 :].split()[0] if b >= 0 and t[b + 7 :].split() else ""
            if b < 0 or q < 7 or not bw.isdigit():
                raise self.error("the table line reads Table 'NAME' N-max Seat #B is the button")
            fields["table"] = t[7:q]
            for w in t[q + 1 : b].split():
                if w.endswith("-max") and w[:-4].isdigit():
                    fields["seat_count"] = int(w[:-4])
            button = int(bw)
            i += 1
        else:
            self.i = min(i, len(lines) - 1)
            raise self.error("the table line (Table 'NAME' ... Seat #B is the button) is missing")
        # seat lines
        seat_of: dict[str, int] = {}
        stack_of: dict[str, int] = {}
        while i < len(lines) and lines[i].startswith("Seat "):
            self.i = i
            m = _SEAT.match(lines[i])
            if m is None:
                raise self.error("a seat line reads Seat N: NAME (STACK in chips)")
            name = m.group(2)
            if name in seat_of:
                raise self.error(f"{name} sits in two seats")
            seat_of[name] = int(m.group(1))
            stack_of[name] = self.units(m.group(3))
            i += 1
        if len(seat_of) < 2:
            raise self.error("fewer than 2 players are seated")
        names = sorted(seat_of, key=len, reverse=True)
        name_set = set(seat_of)

        def who(text: str) -> tuple[str, str]:
            """``NAME: rest`` -> (NAME, rest)."""
            k = text.find(": ")
            if k >= 0 and text[:k] in name_set:
                return text[:k], text[k + 2 :]
            for nm in names:
                if text.startswith(nm + ": "):
                    return nm, text[len(nm) + 2 :]
            raise self.error("not a line of a seated player")

        def starts_with_name(text: str) -> tuple[str, str] | None:
            for nm in names:
                if text.startswith(nm) and text[len(nm) : len(nm) + 1] == " ":
                    return nm, text[len(nm) + 1 :]
            return None

        committed: dict[str, int] = dict.fromkeys(seat_of, 0)
        street_bet: dict[str, int] = dict.fromkeys(seat_of, 0)
        returned: dict[str, int] = dict.fromkeys(seat_of, 0)
        collected: dict[str, int] = dict.fromkeys(seat_of, 0)
        cards_of: dict[str, tuple[Card, ...]] = {}
        active: set[str] = set()
        posts: list[tuple[str, str, int, int, bool]] = []  # (name, kind, amount, lineno, all-in)
        actions: list[tuple[str | None, str, Any, int]] = []  # (name|None, kind, data, lineno)
        board: list[Card] = []
        summary: dict[str, Any] = {}
        section = "posts"
        n_lines = len(lines)
        first = self.first
        while i < n_lines:
            line = lines[i]
            self.i = i
            lineno = first + i
            i += 1
            if not line:
                continue
            if line.startswith("*** "):
                if line.startswith("*** HOLE CARDS ***"):
                    section = "preflop"
                    continue
                for head, count in _STREET_LINES.items():
                    if line.startswith(head):
                        got, rest = self.bracket(line[len(head) :])
                        if "[" in rest:
                            got = got + self.bracket(rest)[0]
                        if len(got) != count or got[: len(board)] != tuple(board):
                            raise self.error(f"the board has {count} cards here, continuing "
                                             f"[{' '.join(map(str, board))}]")
                        actions.append((None, "db", got[len(board) :], lineno))
                        board = list(got)
                        for nm in street_bet:
                            street_bet[nm] = 0
                        section = "street"
                        break
                else:
                    if line.startswith("*** SHOW DOWN ***"):
                        section = "showdown"
                    elif line.startswith("*** SUMMARY ***"):
                        section = "summary"
                        i = self.summary(lines, i, summary, names, cards_of)
                    else:
                        raise self.error("unknown section (run it twice is not supported)")
                continue
            if line.startswith("Dealt to "):
                b = line.find(" [", 9)
                named = (line[9:b], line[b:]) if line[9:b] in name_set else \
                    starts_with_name(line[9:])
                if named is None:
                    raise self.error("cards dealt to a player who is not seated")
                nm, rest = named
                cards, _ = self.bracket(rest)
                if len(cards) != 2:
                    raise self.error("hold'em deals two hole cards")
                cards_of[nm] = cards
                active.add(nm)
                continue
            if line.startswith("Uncalled bet ("):
                close = line.find(")")
                amount = self.units(line[14:close])
                nm = line[close + 1 :].removeprefix(" returned to ").strip()
                if nm not in seat_of:
                    raise self.error("an uncalled bet returned to a player who is not seated")
                returned[nm] += amount
                continue
            k = line.find(": ")
            if k >= 0 and line[:k] in name_set:
                nm, rest = line[:k], line[k + 2 :]
            else:
                c = line.find(" collected ")
                named = (line[:c], line[c + 1 :]) if c > 0 and line[:c] in name_set else \
                    starts_with_name(line)
                if named is not None and named[1].startswith("collected "):
                    nm, rest = named
                    words = rest.split()
                    collected[nm] += self.units(words[1])
                    continue
                if named is not None and (named[1].startswith("said, ") or named[1].endswith(_SKIP_SUFFIXES)
                                        or named[1].startswith(("joins the table", "is sitting out",
                                                              "has timed out", "leaves", "is connected",
                                                              "is disconnected", "has returned",
                                                              "will be allowed", "sits out",
                                                              "was removed", "finished the tournament",
                                                              "wins the tournament", "re-buys",
                                                              "adds ", "is back"))):
                    continue
                if line.startswith(("The player ", "Player ", "Betting is capped")) or \
                        line.endswith(_SKIP_SUFFIXES) or " joins the table at seat #" in line:
                    continue  # table talk, or players coming and going who are not in the hand
                try:
                    nm, rest = who(line)
                except InvalidHistoryError:
                    raise self.error("not a PokerStars hand-history line") from None
            rest = rest.strip()
            sp = rest.find(" ")
            verb = rest if sp < 0 else rest[:sp]
            if verb in _PLAYS and section in ("posts", "summary"):
                raise self.misplaced(section)
            if verb == "folds":
                actions.append((nm, "f", None, lineno))
                if sp > 0 and "[" in rest:
                    cards_of[nm] = self.bracket(rest)[0]
            elif verb == "calls" or verb == "bets":
                arg = rest[sp + 1 :]
                e = arg.find(" ")
                amount = self.units(arg if e < 0 else arg[:e])
                committed[nm] += amount
                street_bet[nm] += amount
                actions.append((nm, "cc", None, lineno) if verb == "calls"
                               else (nm, "cbr", street_bet[nm], lineno))
            elif verb == "checks":
                actions.append((nm, "cc", None, lineno))
            elif verb == "raises":
                words = rest.split(" ", 4)
                if len(words) < 4 or words[2] != "to":
                    raise self.error("a raise reads 'raises X to Y'")
                to = self.units(words[3])
                if to <= street_bet[nm]:
                    raise self.error("a raise to less than the player's bet")
                committed[nm] += to - street_bet[nm]
                street_bet[nm] = to
                actions.append((nm, "cbr", to, lineno))
            elif verb == "posts":
                if section != "posts":
                    raise self.error("posts come before the hole cards")
                body = rest[6:].removesuffix(" and is all-in")
                allin = len(body) + 6 < len(rest)
                if body.startswith("the ante "):
                    kind, amount = "ante", self.units(body[9:])
                elif body.startswith("small blind "):
                    kind, amount = "small_blind", self.units(body[12:])
                elif body.startswith("big blind "):
                    kind, amount = "big_blind", self.units(body[10:])
                elif body.startswith("straddle "):
                    kind, amount = "straddle", self.units(body[9:])
                elif body.startswith("small & big blinds "):
                    kind, amount = "small_and_big", self.units(body[19:])
                else:
                    raise self.error("a post reads 'posts the ante X', 'posts small blind X', "
                                     "'posts big blind X', 'posts small & big blinds X' or "
                                     "'posts straddle X'")
                posts.append((nm, kind, amount, lineno, allin))
                committed[nm] += amount
                if kind != "ante":
                    street_bet[nm] += amount
            elif verb in ("shows", "mucks"):
                shown = None
                if verb == "shows":
                    shown = self.bracket(rest)[0]
                    if len(shown) != 2:
                        raise self.error("a hold'em player shows two hole cards")
                    cards_of[nm] = shown
                elif rest != "mucks hand":
                    raise self.error("not a PokerStars action")
                actions.append((nm, "sm", shown, lineno))
            elif rest.startswith(_IGNORED) or rest == "":
                continue
            else:
                raise self.error("not a PokerStars action")
            active.add(nm)
        self.summary_data = summary
        if "total" not in summary:
            self.i = len(lines) - 1
            raise self.error("the hand has no *** SUMMARY *** with a Total pot line")
        return self.build(variant, fields, stakes, button, seat_of, stack_of, active, posts,
                          actions, cards_of, committed, returned, collected, summary)

    def summary(self, lines: list[str], i: int, out: dict[str, Any],
                names: list[str], cards_of: dict[str, tuple[Card, ...]]) -> int:
        while i < len(lines):
            line = lines[i]
            self.i = i
            lineno = self.first + i
            i += 1
            if line.startswith("Total pot "):
                main, bar, tail = line.partition("| Rake ")
                if not bar:
                    raise self.error("the total pot line reads 'Total pot X | Rake Y'")
                words = main.split()
                out["total"] = self.units(words[2])
                pots: list[int] = []
                for k in range(3, len(words) - 1):
                    w = words[k]
                    if words[k - 1] in ("Main", "Side") and (w == "pot" or w.startswith("pot-")):
                        pots.append(self.units(words[k + 1].rstrip(".")))
                out["pots"] = pots
                out["rake"] = self.units(tail.split()[0])
                out["line"] = (lineno, line)
            elif line.startswith("Seat ") and "[" in line:  # cards shown or mucked
                colon = line.find(": ")
                body = line[colon + 2 :]
                for nm in names:
                    if body.startswith(nm + " ") or body == nm:
                        rest = body[len(nm) :]
                        for word in ("showed [", "mucked ["):
                            at = rest.find(word)
                            if at >= 0:
                                cards = self.bracket(rest[at:])[0]
                                if len(cards) == 2:
                                    cards_of[nm] = cards
                        break
        return i

    def build(self, variant: str, fields: dict[str, Any], stakes: tuple[int, int], button: int,
              seat_of: dict[str, int], stack_of: dict[str, int], active: set[str],
              posts: list[tuple[str, str, int, int, bool]], actions: list[tuple[str | None, str, Any, int]],
              cards_of: dict[str, tuple[Card, ...]], committed: dict[str, int],
              returned: dict[str, int], collected: dict[str, int], summary: dict[str, Any],
              ) -> HandHistory:
        # Players dealt in, from the first seat left of the button (the button last).
        players = sorted(active, key=lambda nm: (seat_of[nm] <= button, seat_of[nm]))
        n = len(players)
        if n < 2:
            raise self.error("fewer than 2 players are dealt in", self.first, self.lines[0])
        index = {nm: k for k, nm in enumerate(players)}
        small, big = stakes
        # PHH lists the blinds by position: [small blind, big blind, straddle, 0...] (heads-up
        # too, where the button, index 1, posts the small blind) and a big-blind ante at index 1.
        nominal_bb = small if variant == "FT" else big
        nominal = {"small_blind": small if variant != "FT" else small // 2,
                   "big_blind": nominal_bb, "straddle": 2 * nominal_bb}
        sb_at, bb_at = (1, 0) if n == 2 else (0, 1)
        where_at = {"small_blind": (sb_at, 0), "big_blind": (bb_at, 1), "straddle": (2, 2)}
        antes = [0] * n
        blinds = [0] * n
        ante_posts = [p for p in posts if p[1] == "ante"]
        top_ante = max((p[2] for p in ante_posts), default=0)
        bb_ante = len(ante_posts) == 1 and index[ante_posts[0][0]] == bb_at
        if ante_posts and len(ante_posts) != n and not bb_ante:
            raise self.error("not every player posts the ante (the engine plays one ante for "
                             "all or a big-blind ante, R7)", self.first, self.lines[0])
        extra: dict[int, list[int]] = {}
        for nm, kind, amount, lineno, allin in posts:
            k = index[nm]
            # Posts out of the blinds' positions: an entry bet or missed big blind (live) and
            # a missed small blind (dead), the engine's extra posts (R36, Robert's Rules).
            if kind == "small_and_big" or (kind == "big_blind" and k != bb_at) or (
                    kind == "small_blind" and k != sb_at):
                if k in extra or (k in (sb_at, bb_at) and kind != "small_blind"):
                    raise self.error("a player in the blinds posts the blinds only (one extra "
                                     "post per player, R36)", lineno, self.line_at(lineno))
                if kind == "small_blind":
                    extra[k] = [0, amount]
                elif kind == "big_blind":
                    extra[k] = [amount, 0]
                else:
                    live = min(amount, nominal["big_blind"])
                    extra[k] = [live, amount - live]
                continue
            if kind == "ante":
                if amount != top_ante and not allin:
                    raise self.error("the antes differ (the engine plays one ante for all, R7)",
                                     lineno, self.line_at(lineno))
                if bb_ante:
                    antes[1] = top_ante
                else:
                    antes[k] = top_ante
                continue
            seat_k, at = where_at[kind]
            if k != seat_k or (kind == "straddle" and n < 3):
                raise self.error(
                    f"the {kind.replace('_', ' ')} is posted out of position (entry, missed or "
                    "dead blinds are not supported)", lineno, self.line_at(lineno))
            if blinds[at]:
                raise self.error(f"a second {kind.replace('_', ' ')}", lineno, self.line_at(lineno))
            # A short stack posts all in for less (R9): the game's blind is the nominal one.
            blinds[at] = max(amount, nominal[kind]) if allin else amount
        if not blinds[1]:
            raise self.error("nobody posts the big blind (a missing big blind is not "
                             "supported)", self.first, self.lines[0])
        if not blinds[0]:
            raise self.error("nobody posts the small blind (a dead small blind is not "
                             "supported)", self.first, self.lines[0])
        out = self.out
        hh_actions: list[HistoryAction] = []
        self.action_lines: list[int] = []
        for nm in players:
            c = cards_of.get(nm)
            hh_actions.append(_action(index[nm], "dh", c, None) if c
                              else _SIMPLE[index[nm], "dh"])
            self.action_lines.append(self.first)
        for nm2, kind, data, lineno in actions:
            if nm2 is None:
                hh_actions.append(_action(None, "db", data, None))
            elif nm2 not in index:
                raise self.error("acts but is not dealt in", lineno, self.line_at(lineno))
            elif kind == "cbr":
                hh_actions.append(_action(index[nm2], "cbr", None, out(data)))
            elif kind == "sm":
                hh_actions.append(_action(index[nm2], "sm", data, None))
            else:
                hh_actions.append(_SIMPLE[index[nm2], kind])
            self.action_lines.append(lineno)
        final = [stack_of[nm] - committed[nm] + returned[nm] + collected[nm] for nm in players]
        if any(stack_of[nm] <= 0 for nm in players):
            raise self.error("a player dealt in has no chips", self.first, self.lines[0])
        if any(f < 0 for f in final):
            raise self.error("a player bets more than the chips in front of them", self.first, self.lines[0])
        user: dict[str, Any] = {}
        if extra:
            user["_extra_posts"] = [[k, out(v[0]), out(v[1])] for k, v in sorted(extra.items())]
        if self.scale != 1:
            user["_chip_unit"] = 1 / self.scale
        if summary["rake"]:
            user["_rake"] = out(summary["rake"])
            user["_total_pot"] = out(summary["total"])
        bet: dict[str, Any]
        if variant == "FT":
            bet = {"small_bet": out(small), "big_bet": out(big)}
        else:
            bet = {"min_bet": out(big)}
        return _history(
            variant=variant,
            antes=tuple(out(a) for a in antes),
            blinds_or_straddles=tuple(out(b) for b in blinds),
            starting_stacks=tuple(out(stack_of[nm]) for nm in players),
            actions=tuple(hh_actions),
            seats=tuple(seat_of[nm] for nm in players),
            players=tuple(players),
            finishing_stacks=tuple(out(f) for f in final),
            user_fields=user,
            **bet,
            **fields,
        )

    def line_at(self, lineno: int) -> str:
        k = lineno - self.first
        return self.lines[k] if 0 <= k < len(self.lines) else ""


def _check(hh: HandHistory, hand: _Hand, summary: dict[str, Any]) -> None:
    """Replay ``hh`` under the rules and compare it with the text's summary and results."""
    try:
        result = replay(hh)
    except InvalidHistoryError as e:
        text = str(e)
        m = re.match(r"actions\[(\d+)\]", text)
        lineno = hand.first
        if m is not None and int(m.group(1)) < len(hand.action_lines):
            lineno = hand.action_lines[int(m.group(1))]
        if "hole cards are unknown" in text:
            text = ("a hand whose cards are unknown reaches the showdown: the engine cannot "
                    f"settle it ({text})")
        raise hand.error(f"the hand does not replay under the rules: {text}", lineno,
                         hand.line_at(lineno)) from None
    state = result.state
    lineno, line = summary["line"]
    if not state.is_terminal():
        raise hand.error("the hand ends before it is over (no more actions, nobody won)",
                         lineno, line)
    end = state.result
    pots = [p for p in end.pots if p.amount]
    total = sum(p.amount for p in pots)
    if total != summary["total"] or end.rake != summary["rake"]:
        raise hand.error(f"the replay gives a total pot of {hand.money(total)} and a rake of "
                         f"{hand.money(end.rake)}", lineno, line)
    listed = summary["pots"]
    if listed and listed != [p.amount - p.rake for p in pots]:
        raise hand.error("the replay gives the pots " + ", ".join(
            hand.money(p.amount - p.rake) for p in pots), lineno, line)
    if not listed and len(pots) > 1:
        raise hand.error(f"the replay gives {len(pots)} pots (a main pot and side pots)",
                         lineno, line)
    if result.mismatches:
        assert hh.players is not None
        why = "; ".join(re.sub(r"\Ap(\d+)", lambda m: hh.players[int(m.group(1)) - 1],  # type: ignore[index]
                               x) for x in result.mismatches)
        raise hand.error(f"the collected amounts differ from the replay: {why}", lineno, line)


def _lines(source: Source) -> Iterator[str]:
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and not source.lstrip("\ufeff").startswith(
            ("PokerStars", "\n")) and source.strip()
    ):
        try:
            f = open(source, encoding="utf-8-sig")  # noqa: SIM115 - closed below
        except OSError as e:
            raise InvalidHistoryError(f"cannot read {os.fspath(source)}: {e.strerror or e}") from None
        with f:
            yield from f
    elif isinstance(source, str):
        yield from io.StringIO(source)
    else:
        yield from source


def parse(source: Source, *, check: bool = True, name: str | None = None,
          on_error: Callable[[InvalidHistoryError], object] | None = None,
          ) -> Iterator[HandHistory]:
    """Read PokerStars hand histories, one :class:`HandHistory` per hand, lazily.

    ``source`` is the text itself (a ``str`` with a newline or starting with ``PokerStars``),
    a path, or a text stream (any iterable of lines): the hands stream one at a time, so a
    file of any size is read in constant memory. ``name`` labels errors (default: the path or
    the stream's ``name``).

    Hands are written the way :func:`holdem.history.replay` plays them: players from the
    first seat left of the button (``seats`` and ``players`` keep the table's seat numbers
    and names; players sitting out and not dealt in are left out), amounts in the room's
    units (chips, or dollars with ``_chip_unit = 0.01`` so the hand is played in cents),
    ``finishing_stacks`` from the text's bets, uncalled bets and collected amounts, and the
    summary's rake as ``_rake`` with its ``_total_pot``.

    With ``check=True`` every hand is replayed under the rules and its pots, rake and
    finishing stacks compared with the text (about 3-4 times slower than ``check=False``).
    Text that is not a hand history, or a hand that does not check, raises
    :class:`InvalidHistoryError` naming the hand number and the line; with ``on_error`` the
    error is passed to it instead and reading goes on with the next hand.
    """
    if name is None:
        name = os.fspath(source) if isinstance(source, (str, os.PathLike)) and not (
            isinstance(source, str) and ("\n" in source or source.lstrip("\ufeff").startswith(
                "PokerStars"))) else getattr(source, "name", None)
    where = f"{name}: " if name else ""
    buf: list[str] = []
    first = 0
    pending: list[tuple[int, list[str]]] = []
    for lineno, raw in enumerate(_lines(source), 1):
        line = raw.rstrip()
        if line.startswith(("PokerStars ", "\ufeffPokerStars ")):
            if buf:
                pending.append((first, buf))
            buf = [line]
            first = lineno
        elif buf:
            buf.append(line)
        elif line.strip() and not line.startswith("*****"):
            error = InvalidHistoryError(
                f"{where}line {lineno}: not a PokerStars hand history (hands start with "
                f"'PokerStars Hand #'): {line.strip()!r}")
            if on_error is None:
                raise error
            on_error(error)
        if pending:
            hand = pending.pop()
            try:
                yield _one(*hand, where, check)
            except InvalidHistoryError as e:
                if on_error is None:
                    raise
                on_error(e)
    if buf:
        try:
            yield _one(first, buf, where, check)
        except InvalidHistoryError as e:
            if on_error is None:
                raise
            on_error(e)


def _one(first: int, lines: list[str], where: str, check: bool) -> HandHistory:
    hand = _Hand(first, lines, where)
    hh = hand.parse()
    if check:
        _check(hh, hand, hand.summary_data)
    return hh
