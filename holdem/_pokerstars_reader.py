"""Reading one PokerStars hand's lines into a :class:`holdem.phh.HandHistory` (the import's
hot path, behind :func:`holdem.pokerstars.parse`).

Plain Python that the build also compiles with Cython (``setup.py``; about 1.5x faster); the
module works the same uncompiled. Lines are dispatched on their first characters and words
with ``str`` methods, amounts kept in integer units (chips or cents) while reading.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from holdem._shown import excerpt
from holdem.cards import Card, parse_card
from holdem.errors import InvalidHistoryError
from holdem.hand.actions import MAX_CHIPS
from holdem.phh import HandHistory, HistoryAction, Number, _UserFields

__all__ = ["HandReader", "hands"]

_CARD: dict[str, Card] = {str(c): c for c in (parse_card(r + s) for r in "23456789TJQKA" for s in "cdhs")}
#: The cards of a bracket's text (``"Ah Kd"``), shared: hands repeat deals and boards.
_CARD_TEXT: dict[str, tuple[Card, ...]] = {}
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_STRUCTURES = (("Hold'em No Limit", "NT"), ("Hold'em Pot Limit", "PT"), ("Hold'em Limit", "FT"))
#: A street line's word (``line[4:8]``) -> its head and the board's size after it.
_STREET_LINES = {"FLOP": ("*** FLOP ***", 3), "TURN": ("*** TURN ***", 4),
                 "RIVE": ("*** RIVER ***", 5)}
_SKIP_SUFFIXES = (" is disconnected", " is connected", " has timed out", " has returned",
                  " leaves the table", " is sitting out", " will be allowed to play after the button",
                  " was removed from the table for failing to post", " has timed out while disconnected",
                  " has timed out while being disconnected", " sits out")
#: Knockout tournaments: "A wins the $0.25 bounty for eliminating B", "A, B split the $50 bounty
#: for eliminating C", progressive knockouts "A wins $0.31 for eliminating B and their own
#: bounty increases by $0.30 to $4" (money outside the pot: not part of the hand).
_BOUNTY = (" bounty for eliminating ", " and their own bounty increases by ")
_IGNORED = ("doesn't show hand", "sits out", "is sitting out", "sitting out", "is back",
            "sits in", "has returned", "leaves the table", "is disconnected", "is connected")
_HAND_STARTS = ("PokerStars ", "\ufeffPokerStars ")
_PLAYS = frozenset({"folds", "calls", "checks", "raises", "bets", "shows", "mucks"})
_DATE = re.compile(r"(\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})(?: ([A-Z]{2,5}))?",
                   re.ASCII)
_SEAT = re.compile(r"Seat (\d+): (.+) \(([^ ()]+) in chips(?:, [^()]*)?\)(.*)\Z", re.ASCII)
#: The most digits of a seat, button, N-max or hand number read as an int (ASCII digits only:
#: ``"²".isdigit()`` is true but ``int()`` refuses it).
_MAX_DIGITS = 30
#: The most decimals of the stakes (the exporter's limit, ``pokerstars._money``).
_MAX_PLACES = 9


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
_FIELDS = frozenset(_DEFAULTS) | {"user_fields"}


def _history(**fields: Any) -> HandHistory:
    """A HandHistory from values this module built and checked (the parser's fast path: the
    field-by-field validation of ``HandHistory()`` is most of the cost of a hand)."""
    hh: HandHistory = object.__new__(HandHistory)
    if not hasattr(hh, "__dict__") or "user_fields" not in fields or not fields.keys() <= _FIELDS:
        return HandHistory(**fields)  # pragma: no cover - a field this module does not know
    values = hh.__dict__
    values.update(_DEFAULTS)
    values.update(fields)
    values["user_fields"] = _UserFields(values["user_fields"])  # (read-only, as HandHistory's)
    return hh


def _integer(text: str) -> int | None:
    """``text`` as an int if it is ASCII digits (at most ``_MAX_DIGITS``), else None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= _MAX_DIGITS else None


def _roman(text: str) -> int | None:
    total = 0
    for i, ch in enumerate(text):
        v = _ROMAN.get(ch)
        if v is None:
            return None
        nxt = _ROMAN.get(text[i + 1]) if i + 1 < len(text) else None
        total += -v if nxt is not None and nxt > v else v
    return total or None


class HandReader:
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
        self.action_lines: list[int] = []  # the line of each action of the built hand

    # errors ------------------------------------------------------------------------------
    def error(self, why: str, lineno: int | None = None, line: str | None = None) -> InvalidHistoryError:
        if lineno is None:
            lineno = self.first + self.i
        if line is None:
            line = self.line_at(lineno)
        return InvalidHistoryError(f"{self.where}hand #{excerpt(self.hand, quote=False)}, "
                                   f"line {lineno}: {why}: {excerpt(line.strip())}")

    def units(self, text: str) -> int:
        t = text.lstrip("$€£")
        if t.isdigit() and t.isascii() and len(t) <= 15:
            got = int(t) * self.scale
        else:
            w, dot, f = t.partition(".")
            if not (w.isdigit() and (f.isdigit() or not dot) and t.isascii()):
                raise self.error(f"{excerpt(text)} is not an amount")
            if len(f) > self.places:
                raise self.error(f"{excerpt(text, quote=False)} has more decimals than the "
                                 "stakes")
            w = w.lstrip("0")
            got = MAX_CHIPS + 1 if len(w) > 16 else int(w or "0") * self.scale + (
                int(f.ljust(self.places, "0")) if self.places else 0)
        if got > MAX_CHIPS:
            raise self.error(f"{text[:30]}{'...' if len(text) > 30 else ''} is above the "
                             "engine's limit of 2**53 chips")
        return got

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
        got = _CARD_TEXT.get(text)
        if got is None:
            try:
                got = tuple(_CARD[c] for c in text.split())
            except KeyError:
                raise self.error(f"[{excerpt(text, quote=False)}] are not cards (like "
                                 "[Ah Kd])") from None
            if len(set(got)) != len(got):
                raise self.error(f"a card appears twice in [{excerpt(text, quote=False)}]")
            if len(_CARD_TEXT) >= 100_000:
                _CARD_TEXT.clear()
            _CARD_TEXT[text] = got
        return got

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
        whole = _integer(number)
        fields: dict[str, Any] = {"hand": number if whole is None else whole}
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
        if before.startswith("{") and "}" in before:
            # a Home Game names its club first: "{club name}  Hold'em No Limit (1/2)"
            before = before[before.index("}") + 1 :].strip()
        if before.startswith(("Tournament #", "Zoom Tournament #")):
            fields["event"] = before
        elif before:
            raise self.error(f"unknown game {excerpt(before)}")
        tournament = "event" in fields
        p = after.find("(")
        q = after.find(")", p)
        if p < 0 or q < 0:
            raise self.error("the stakes (small/big) are missing")
        stakes = after[p + 1 : q].split()
        if not stakes:
            raise self.error("the stakes (small/big) are missing")
        if tournament:
            level = after[:p].strip(" -")
            if level.startswith("Level "):
                lv = _roman(level[6:].strip())
                if lv is not None:
                    fields["level"] = lv
        if len(stakes) == 2 and stakes[1].isalpha():
            fields["currency"] = stakes[1]
        small, _, big = stakes[0].partition("/")
        if not small or not big:
            raise self.error("the stakes must read (small/big)")
        if not tournament and (small[0] in "$€£" or "." in stakes[0]):
            # Dollars and cents, or the decimals the stakes are written with (an export in
            # tenths writes 0.5/1.0: R32's odd chip is then a tenth).
            self.places = 2
            if "." in stakes[0]:
                self.places = max(len(small.partition(".")[2]), len(big.partition(".")[2]))
            if self.places > _MAX_PLACES:
                raise self.error(f"the stakes have more than {_MAX_PLACES} decimals")
            self.scale = 10**self.places
            if small[:1] in "$€£":
                self.symbol = small[0]
                fields["currency_symbol"] = small[0]
        stake = (self.units(small), self.units(big))
        m = _DATE.search(after, q)
        if m is not None:
            y, mo, d, hh, mi, ss, tz = m.groups()
            try:
                datetime.date(int(y), int(mo), int(d))
                time = datetime.time(int(hh), int(mi), int(ss))
            except ValueError:
                raise self.error(f"{m.group(0)!r} is not a date and time "
                                 "(YYYY/MM/DD HH:MM:SS)") from None
            fields.update(year=int(y), month=int(mo), day=int(d), time=time)
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
            seat = _integer(bw)
            if b < 0 or q < 7 or seat is None:
                raise self.error("the table line reads Table 'NAME' N-max Seat #B is the button")
            fields["table"] = t[7:q]
            for w in t[q + 1 : b].split():
                count = _integer(w[:-4]) if w.endswith("-max") else None
                if count is not None:
                    fields["seat_count"] = count
            button = seat
            i += 1
        else:
            self.i = min(i, len(lines) - 1)
            raise self.error("the table line (Table 'NAME' ... Seat #B is the button) is missing")
        # seat lines
        seat_of: dict[str, int] = {}
        stack_of: dict[str, int] = {}
        n_lines = len(lines)
        units = self.units
        seat_match = _SEAT.match
        while i < n_lines and lines[i].startswith("Seat "):
            self.i = i
            m = seat_match(lines[i])
            if m is None:
                raise self.error("a seat line reads Seat N: NAME (STACK in chips)")
            number, name, stack, _ = m.groups()
            if name in seat_of:
                raise self.error(f"{excerpt(name, quote=False)} sits in two seats")
            if len(number) > _MAX_DIGITS:
                raise self.error(f"seat {number[:30]}... is not a seat number")
            seat_of[name] = int(number)
            stack_of[name] = units(stack)
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
        act = actions.append
        board: tuple[Card, ...] = ()
        summary: dict[str, Any] = {}
        section = "posts"
        first = self.first
        start = i
        # Typed locals: compiled, their str methods and slices are direct calls.
        line: str
        rest: str
        nm: str
        verb: str
        # One pass over the lines, dispatching on their first character and words with str
        # methods (the common lines first: "NAME: verb ...", then "Dealt to", the streets).
        for i in range(start, n_lines):
            line = lines[i]
            if not line:
                continue
            self.i = i
            c = line[0]
            if c == "*" and line.startswith("*** "):
                if line.startswith("*** HOLE CARDS ***"):
                    section = "preflop"
                    continue
                street = _STREET_LINES.get(line[4:8])
                if street is not None and line.startswith(street[0]):
                    head, count = street
                    got, rest = self.bracket(line[len(head) :])
                    if "[" in rest:
                        got = got + self.bracket(rest)[0]
                    if len(got) != count or got[: len(board)] != board:
                        raise self.error(f"the board has {count} cards here, continuing "
                                         f"[{' '.join(map(str, board))}]")
                    if len(set(got)) != count:
                        raise self.error("a card appears twice on the board")
                    act((None, "db", got[len(board) :], first + i))
                    board = got
                    for nm in street_bet:
                        street_bet[nm] = 0
                    section = "street"
                elif line.startswith("*** SHOW DOWN ***"):
                    section = "showdown"
                elif line.startswith("*** SUMMARY ***"):
                    section = "summary"
                    self.summary(lines, i + 1, summary, names, cards_of)
                    break  # the summary reads the hand's last lines
                else:
                    raise self.error("unknown section (run it twice is not supported)")
                continue
            if c == "D" and line.startswith("Dealt to "):
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
            if c == "U" and line.startswith("Uncalled bet ("):
                close = line.find(")")
                amount = units(line[14:close])
                nm = line[close + 1 :].removeprefix(" returned to ").strip()
                if nm not in seat_of:
                    raise self.error("an uncalled bet returned to a player who is not seated")
                returned[nm] += amount
                continue
            k = line.find(": ")
            if k >= 0 and line[:k] in name_set:
                nm, rest = line[:k], line[k + 2 :]
            else:
                at = line.find(" collected ")
                named = (line[:at], line[at + 1 :]) if at > 0 and line[:at] in name_set else \
                    starts_with_name(line)
                if named is not None and named[1].startswith("collected "):
                    nm, rest = named
                    words = rest.split()
                    collected[nm] += units(words[1])
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
                if any(b in line for b in _BOUNTY):
                    continue  # a knockout bounty won: paid outside the pot
                if named is not None and named[1].startswith("cashed out the hand for "):
                    raise self.error("the hand was cashed out (PokerStars' all-in cash out pays "
                                     "outside the pot): not supported")
                try:
                    nm, rest = who(line)
                except InvalidHistoryError:
                    raise self.error("not a PokerStars hand-history line") from None
            if rest[:1].isspace() or rest[-1:].isspace():
                rest = rest.strip()
            sp = rest.find(" ")
            verb = rest if sp < 0 else rest[:sp]
            if verb in _PLAYS and (section == "posts" or section == "summary"):
                raise self.misplaced(section)
            if verb == "folds":
                act((nm, "f", None, first + i))
                if sp > 0 and "[" in rest:
                    cards = self.bracket(rest)[0]
                    if len(cards) == 1:
                        pass  # "folds [Ks]": one card shown, the hand stays unknown
                    elif len(cards) != 2:
                        raise self.error("hold'em deals two hole cards")
                    else:
                        cards_of[nm] = cards
            elif verb == "calls" or verb == "bets":
                e = rest.find(" ", sp + 1)
                amount = units(rest[sp + 1 :] if e < 0 else rest[sp + 1 : e])
                committed[nm] += amount
                street_bet[nm] += amount
                act((nm, "cc", None, first + i) if verb == "calls"
                    else (nm, "cbr", street_bet[nm], first + i))
            elif verb == "checks":
                act((nm, "cc", None, first + i))
            elif verb == "raises":
                words = rest.split(" ", 4)
                if len(words) < 4 or words[2] != "to":
                    raise self.error("a raise reads 'raises X to Y'")
                to = units(words[3])
                if to <= street_bet[nm]:
                    raise self.error("a raise to less than the player's bet")
                committed[nm] += to - street_bet[nm]
                street_bet[nm] = to
                act((nm, "cbr", to, first + i))
            elif verb == "posts":
                if section != "posts":
                    raise self.error("posts come before the hole cards")
                body = rest[6:].removesuffix(" and is all-in")
                allin = len(body) + 6 < len(rest)
                if body.startswith("the ante "):
                    kind, amount = "ante", units(body[9:])
                elif body.startswith("small blind "):
                    kind, amount = "small_blind", units(body[12:])
                elif body.startswith("big blind "):
                    kind, amount = "big_blind", units(body[10:])
                elif body.startswith("straddle "):
                    kind, amount = "straddle", units(body[9:])
                elif body.startswith("small & big blinds "):
                    kind, amount = "small_and_big", units(body[19:])
                else:
                    raise self.error("a post reads 'posts the ante X', 'posts small blind X', "
                                     "'posts big blind X', 'posts small & big blinds X' or "
                                     "'posts straddle X'")
                posts.append((nm, kind, amount, first + i, allin))
                committed[nm] += amount
                if kind != "ante":
                    street_bet[nm] += amount
            elif verb == "shows" or verb == "mucks":
                shown = None
                if verb == "shows":
                    shown = self.bracket(rest)[0]
                    if len(shown) == 1:  # one card, after an uncontested win: as "folds [Ks]",
                        active.add(nm)   # the hand stays unknown
                        continue
                    if len(shown) != 2:
                        raise self.error("a hold'em player shows two hole cards")
                    cards_of[nm] = shown
                elif rest != "mucks hand":
                    raise self.error("not a PokerStars action")
                act((nm, "sm", shown, first + i))
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
        line: str
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
                if len(words) < 3:
                    raise self.error("the total pot line reads 'Total pot X | Rake Y'")
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
        by_seat = sorted([(seat_of[nm], nm) for nm in active])
        cut = sum(1 for seat, _ in by_seat if seat <= button)
        players = [nm for _, nm in by_seat[cut:]] + [nm for _, nm in by_seat[:cut]]
        n = len(players)
        if n < 2:
            raise self.error("fewer than 2 players are dealt in", self.first, self.lines[0])
        if n > 10:
            raise self.error(f"{n} players are dealt in: hold'em is played by 2 to 10",
                             self.first, self.lines[0])
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
        # A blind all in on the ante posts nothing more (R9): the game's blind is the nominal one.
        broke = {index[p[0]] for p in ante_posts if p[4]}
        if not blinds[1]:
            if bb_at not in broke:
                raise self.error("nobody posts the big blind (a missing big blind is not "
                                 "supported)", self.first, self.lines[0])
            blinds[1] = nominal["big_blind"]
        if not blinds[0]:
            if sb_at not in broke:
                raise self.error("nobody posts the small blind (a dead small blind is not "
                                 "supported)", self.first, self.lines[0])
            blinds[0] = nominal["small_blind"]
        out = self.out
        # Amounts are integers in the text's units: chips need no conversion.
        conv: Callable[[int], Number] | None = None if self.scale == 1 else out
        shared = _ACTIONS
        hh_actions: list[HistoryAction] = [
            (shared.get((k, "dh", c, None)) or _action(k, "dh", c, None)) if c
            else _SIMPLE[k, "dh"]
            for k, c in enumerate(map(cards_of.get, players))]
        self.action_lines = [self.first] * n
        self.action_lines += [x[3] for x in actions]
        add = hh_actions.append
        for nm2, kind, data, lineno in actions:
            if nm2 is None:
                add(shared.get((None, "db", data, None)) or _action(None, "db", data, None))
                continue
            p = index.get(nm2)
            if p is None:
                raise self.error("acts but is not dealt in", lineno, self.line_at(lineno))
            if kind == "cbr":
                to: Number = data if conv is None else conv(data)
                add(shared.get((p, "cbr", None, to)) or _action(p, "cbr", None, to))
            elif kind == "sm":
                add(shared.get((p, "sm", data, None)) or _action(p, "sm", data, None))
            else:
                add(_SIMPLE[p, kind])
        starting = [stack_of[nm] for nm in players]
        final = [stack_of[nm] - committed[nm] + returned[nm] + collected[nm] for nm in players]
        if min(starting) <= 0:
            raise self.error("a player dealt in has no chips", self.first, self.lines[0])
        if min(final) < 0:
            raise self.error("a player bets more than the chips in front of them", self.first, self.lines[0])
        user: dict[str, Any] = {}
        if extra:
            user["_extra_posts"] = [[k, out(v[0]), out(v[1])] for k, v in sorted(extra.items())]
        if conv is not None:
            user["_chip_unit"] = 1 / self.scale
        if summary["rake"]:
            user["_rake"] = out(summary["rake"])
            user["_total_pot"] = out(summary["total"])
        bet: dict[str, Any]
        if variant == "FT":
            bet = {"small_bet": out(small), "big_bet": out(big)}
        else:
            bet = {"min_bet": out(big)}
        if any(antes) and not bb_ante:
            # a player all in on the ante wins from each opponent only what they posted
            fields["ante_trimming_status"] = True
        return _history(
            variant=variant,
            antes=tuple(antes) if conv is None else tuple(map(conv, antes)),
            blinds_or_straddles=tuple(blinds) if conv is None else tuple(map(conv, blinds)),
            starting_stacks=tuple(starting) if conv is None else tuple(map(conv, starting)),
            actions=tuple(hh_actions),
            seats=tuple([seat_of[nm] for nm in players]),
            players=tuple(players),
            finishing_stacks=tuple(final) if conv is None else tuple(map(conv, final)),
            user_fields=user,
            **bet,
            **fields,
        )

    def line_at(self, lineno: int) -> str:
        k = lineno - self.first
        return self.lines[k] if 0 <= k < len(self.lines) else ""


def hands(lines: Iterable[str]) -> Iterator[tuple[int, list[str] | str]]:
    """Split text lines into hands: ``(line number, the hand's lines)`` for each hand (lines
    stripped at the right), and ``(line number, line)`` for a line outside the hands that is
    neither blank nor a ``*****`` separator. Lazy: one hand in memory at a time."""
    buf: list[str] = []
    first = 0
    line: str
    for lineno, raw in enumerate(lines, 1):
        if not isinstance(raw, str):
            raise TypeError(f"parse: source must give lines of text (str), not "
                            f"{type(raw).__name__} (open the file in text mode)")
        line = raw.rstrip()
        if line.startswith(_HAND_STARTS):
            if buf:
                yield first, buf
            buf = [line]
            first = lineno
        elif buf:
            buf.append(line)
        elif line.strip() and not line.startswith("*****"):
            yield lineno, line
    if buf:
        yield first, buf
