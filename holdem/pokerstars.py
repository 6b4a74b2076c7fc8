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
  in Roman numerals, I..MMMCMXCIX, before the stakes), the hand number from ``hand`` when it
  is an integer, the date from ``year``/``month``/``day``/``time`` (``1970/01/01 00:00:00``
  when absent) and the time zone from ``time_zone_abbreviation`` (else ``UTC``);
- ``Table 'NAME' N-max Seat #B is the button`` (``table``, ``seat_count``, ``seats`` when given;
  seats are numbered 1..n from the first seat left of the button otherwise);
- seats with starting stacks, posts (``posts the ante``, ``posts small blind``, ``posts big
  blind``, ``posts straddle``), ``*** HOLE CARDS ***`` with a ``Dealt to NAME [..]`` line for
  every known hand (trackers read them all; unknown hands are omitted);
- actions: ``folds``, ``checks``, ``calls X``, ``bets X``, ``raises X to Y`` (with ``and is
  all-in``); street lines ``*** FLOP *** [..]``, ``*** TURN *** [..] [.]``, ``*** RIVER ***``;
- ``Uncalled bet (X) returned to NAME``, ``*** SHOW DOWN ***`` with ``shows [..] (hand)`` /
  ``mucks hand``, ``NAME collected X from pot`` (``main pot`` and ``side pot``, or
  ``side pot-K`` when there are several);
- ``*** SUMMARY ***``: total pot, side pots, rake, board, one line per seat.

Amounts are in the file's units (:func:`holdem.history.chip_unit`): chips, or dollars and cents
(``$0.05`` with the hand's ``currency_symbol``) for a hand played in cents, or the unit's
decimals (``0.5/1.0`` in tenths: the import reads the unit from the stakes). The rake of a hand
with ``_rake`` is written in the summary. Not written: time banks, chat, sit-outs.
"""

from __future__ import annotations

import datetime
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Any

from holdem import _textfile
from holdem._pokerstars_reader import HandReader, hands
from holdem._shown import excerpt
from holdem.cards import Card
from holdem.errors import InvalidHistoryError, _not_text
from holdem.hand.actions import ActionType
from holdem.hand.game import HandState
from holdem.hand.records import Street
from holdem.history import replay
from holdem.phh import HandHistory, _history_arg

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
    """``n`` (1..3999) in Roman numerals, as PokerStars writes tournament levels."""
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

    Raises :class:`holdem.InvalidHistoryError` if the hand does not replay under the rules (or
    its ``finishing_stacks`` are not the ones the rules give: ``replay``'s mismatch), if
    a tournament's ``level`` is not 1..3999 (PokerStars writes levels in Roman numerals), or if
    a hand is dead from the deal (``_dead_hands``, TDA 30: PokerStars has no way to write it),
    if it is not finished, or if its text would not read back (:func:`parse`) as the same
    hand (the check runs on every hand: export then import gives the same hand).

    >>> from holdem import Game, from_state
    >>> s = Game(big_blind=2).new_hand([100, 100], hole_cards=["AsAh", "KdKc"], board="2c7d9hJs3d")
    >>> s.raise_to(6); s.fold()
    >>> text = to_pokerstars(from_state(s, players=["Ana", "Boris"]))
    >>> print("\\n".join(text.splitlines()[9:13]))
    Ana: raises 4 to 6
    Boris: folds
    Uncalled bet (4) returned to Ana
    Ana collected 4 from pot
    >>> next(parse(text)).finishing_stacks
    (98, 102)
    """
    hh = _history_arg(hh, "to_pokerstars")
    tournament = hh.event is not None and hh.event.startswith(("Tournament #",
                                                               "Zoom Tournament #"))
    if tournament and hh.level and not 1 <= hh.level <= 3999:
        where = f"{name}: " if name else ""
        raise InvalidHistoryError(f"{where}level {hh.level} cannot be written: PokerStars "
                                  "writes tournament levels in Roman numerals, I to MMMCMXCIX "
                                  "(1..3999)")
    result = replay(hh, name=name)
    if result.odd_chip is None:  # (an odd chip split finer than R32 is not an error)
        result.check()  # final stacks other than the rules' (replay's MISMATCH): refused
    if result.state.dead_hands:
        # PokerStars has no way to say it: its own sitting-out players fold (or check) in turn,
        # and a fold out of turn would not read back
        where = f"{name}: " if name else ""
        dead = ", ".join(_names(hh)[p] for p in result.state.dead_hands)
        raise InvalidHistoryError(
            f"{where}the PokerStars format cannot say that a hand is dead from the deal (TDA 30, "
            f"the _dead_hands user field: {dead}); keep such hands as PHH")
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
    if tournament:
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
    if end is None:  # (the summary, PokerStars text's end, needs the result)
        raise InvalidHistoryError(f"{name + ': ' if name else ''}the hand is not finished: "
                                  "PokerStars text is written for finished hands; keep it as PHH")
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
        label = ("pot" if len(pots) == 1 else "main pot" if k == 0
                 else "side pot" if len(pots) == 2 else f"side pot-{k}")  # as PokerStars writes
        for seat, share in zip(pot.winners, pot.shares, strict=True):
            won[seat] += share
            lines.append(f"{names[seat]} collected {m(share)} from {label}")
    lines.append("*** SUMMARY ***")
    total = sum(p.amount for p in pots)
    if len(pots) > 1:
        # PokerStars lists each pot after its rake (the collected amounts add up to them).
        parts = [f"Main pot {m(pots[0].amount - pots[0].rake)}."] + [
            f"Side pot{'' if len(pots) == 2 else f'-{k}'} {m(p.amount - p.rake)}."
            for k, p in enumerate(pots[1:], 1)
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
    out = "\n".join(lines)
    _reads_back(out, result.final_stacks, name)
    return out


def _reads_back(text: str, final: tuple[Any, ...], name: str | None) -> None:
    """InvalidHistoryError unless ``text`` reads back as the hand it was written from (the same
    final stacks): a hand the PokerStars format cannot hold (a straddler all in from the ante,
    a fold when checking is free, a name the reader takes for a line of its own...) is
    refused rather than written as text that reads as another hand, or not at all."""
    where = f"{name}: " if name else ""
    try:
        back = list(parse(text, name=name))
        got = replay(back[0]).final_stacks if len(back) == 1 else None
    except InvalidHistoryError as e:
        raise InvalidHistoryError(f"{where}this hand cannot be written as PokerStars text: the "
                                  f"text would not read back ({str(e).removeprefix(where)}); "
                                  "keep it as PHH") from None
    if got != final:
        raise InvalidHistoryError(f"{where}this hand cannot be written as PokerStars text: it "
                                  f"would read back as another hand (final stacks {got}, not "
                                  f"{final}); keep it as PHH")


def _posted_all_in(state: HandState, seat: int) -> bool:
    return sum(p.amount for p in state.posts if p.seat == seat) >= state.starting_stacks[seat]


# --- import ----------------------------------------------------------------------------------

Source = str | os.PathLike[str] | Iterable[str]

def _check(hh: HandHistory, hand: HandReader, summary: dict[str, Any]) -> None:
    """Replay ``hh`` under the rules and compare it with the text's summary and results."""
    try:
        result = replay(hh)
    except InvalidHistoryError as e:
        text = str(e)
        m = re.match(r"actions\[(\d+)\]", text)
        lineno = hand.first
        if m is not None and int(m.group(1)) < len(hand.action_lines):
            lineno = hand.action_lines[int(m.group(1))]
        if "hole cards are unknown" in text or "with unknown hole cards" in text:
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
        players = hh.players
        assert players is not None

        def player(m: re.Match[str]) -> str:
            return excerpt(players[int(m.group(1)) - 1], quote=False)

        why = "; ".join(re.sub(r"\Ap(\d+)", player, x) for x in result.mismatches)
        raise hand.error(f"the collected amounts differ from the replay: {why}", lineno, line)


def _lines(source: Source, name: str | None) -> Iterator[str]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError(f"parse: source must be text (str), a path or a text stream, not "
                        f"{type(source).__name__} (decode it first)")
    if isinstance(source, (io.RawIOBase, io.BufferedIOBase)):  # refused before a line is
        # read: a binary device's line (/dev/zero) has no end
        raise TypeError(f"parse: source must give lines of text (str), not bytes (open the "
                        f"file in text mode): {type(source).__name__} is a binary file")
    if isinstance(source, io.TextIOBase):  # each line read with a bound
        return _textfile.stream_lines(source, name or "<stream>")
    if isinstance(source, os.PathLike) or (
        isinstance(source, str) and "\n" not in source and not source.lstrip("\ufeff").startswith(
            ("PokerStars", "\n")) and source.strip()
    ):
        return _textfile.lines(source)
    if isinstance(source, str):
        return io.StringIO(source, newline=None)  # \r\n and \r as \n, as a file is read
    return iter(source)


def parse(source: Source, *, check: bool = True, name: str | None = None,
          on_error: Callable[[InvalidHistoryError], object] | None = None,
          ) -> Iterator[HandHistory]:
    """Read PokerStars hand histories, one :class:`HandHistory` per hand, lazily.

    ``source`` is the text itself (a ``str`` with a newline or starting with ``PokerStars``),
    a path, or a text stream (any iterable of lines): the hands stream one at a time, so a
    file of any size is read in constant memory. An open text file's lines are read with a
    bound: a NUL character or a line over 1,048,576 characters raises
    :class:`InvalidHistoryError` (a binary file raises ``TypeError``). ``name`` labels errors
    (default: the path or the stream's ``name``).

    Hands are written the way :func:`holdem.history.replay` plays them: players from the
    first seat left of the button (``seats`` and ``players`` keep the table's seat numbers
    and names; players sitting out and not dealt in are left out), amounts in the room's
    units (chips, or dollars with ``_chip_unit = 0.01`` so the hand is played in cents; stakes
    with other decimals, ``0.5/1.0``, set the unit to them: ``0.1``),
    ``finishing_stacks`` from the text's bets, uncalled bets and collected amounts, and the
    summary's rake as ``_rake`` with its ``_total_pot``.

    With ``check=True`` every hand is replayed under the rules and its pots, rake and
    finishing stacks compared with the text (about 3-4 times slower than ``check=False``).
    Text that is not a hand history, or a hand that does not check, raises
    :class:`InvalidHistoryError` naming the hand number and the line; with ``on_error`` the
    error is passed to it instead and reading goes on with the next hand. A file that cannot
    be read, or is not UTF-8 (the error names its first bad byte's offset), raises
    :class:`InvalidHistoryError` even with ``on_error``: the whole file is bad, not a hand
    (open a file in another encoding and pass the stream; a stream that is not valid text in
    its encoding raises :class:`InvalidHistoryError` too, from the ``UnicodeDecodeError``).
    ``bytes`` raise ``TypeError``.
    """
    for block in _blocks(source, name):
        if isinstance(block, InvalidHistoryError):
            if on_error is None:
                raise block
            on_error(block)
            continue
        try:
            yield _one(*block, check)
        except InvalidHistoryError as e:
            if on_error is None:
                raise
            on_error(e)


def _blocks(source: Source, name: str | None,
            ) -> Iterator[tuple[int, list[str], str] | InvalidHistoryError]:
    """The first half of :func:`parse`: the text cut into hands, ``(first line number,
    lines, where)`` for :func:`_one` (plain data: it may run in another process), and the
    error of each line outside any hand. A file that cannot be read raises."""
    if name is None:
        name = os.fspath(source) if isinstance(source, (str, os.PathLike)) and not (
            isinstance(source, str) and ("\n" in source or source.lstrip("\ufeff").startswith(
                "PokerStars"))) else getattr(source, "name", None)
    where = f"{name}: " if name else ""
    try:
        for first, got in hands(_lines(source, name)):
            if isinstance(got, str):
                yield InvalidHistoryError(
                    f"{where}line {first}: not a PokerStars hand history (hands start with "
                    f"'PokerStars Hand #'): {excerpt(got.strip())}")
            else:
                yield first, got, where
    except UnicodeDecodeError as e:  # a stream the caller opened in text mode (a path's
        # bytes are decoded, and refused naming the first bad byte, in _textfile.lines)
        raise InvalidHistoryError(f"{where}{_not_text(e)}") from e


def _one(first: int, lines: list[str], where: str, check: bool = False) -> HandHistory:
    """The second half of :func:`parse`: one hand of :func:`_blocks`."""
    hand = HandReader(first, lines, where)
    hh = hand.parse()
    if check:
        _check(hh, hand, hand.summary_data)
    return hh
