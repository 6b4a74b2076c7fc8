"""Export hands as PokerStars-style text, the format hand trackers import (write only).

The hand is first replayed under the rules (:func:`holdem.history.replay`), so every amount
(calls, raise sizes, uncalled bets, pots, side pots) is the engine's. The subset written:

- header ``PokerStars Hand #N: Hold'em No Limit (sb/bb) - YYYY/MM/DD HH:MM:SS TZ`` (``Pot Limit``,
  ``Limit (small bet/big bet)``), the hand number from ``hand`` when it is an integer, the date
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

Not written: currency amounts with cents, time banks, chat, sit-outs, tournament buy-ins.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Sequence

from holdem.actions import ActionType
from holdem.cards import Card
from holdem.hand_types import Street
from holdem.history import replay
from holdem.phh import HandHistory
from holdem.state import HandState

__all__ = ["to_pokerstars"]

_GAME = {"NT": "Hold'em No Limit", "PT": "Hold'em Pot Limit", "FT": "Hold'em Limit"}
_STREET_NAME = {Street.FLOP: "FLOP", Street.TURN: "TURN", Street.RIVER: "RIVER"}
_POST_TEXT = {
    "ante": "posts the ante",
    "big_blind_ante": "posts the ante",
    "small_blind": "posts small blind",
    "big_blind": "posts big blind",
    "straddle": "posts straddle",
}


def _cards(cards: Sequence[Card]) -> str:
    return "[" + " ".join(str(c) for c in cards) + "]"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


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
    state = result.state
    n = hh.num_players
    names = _names(hh)
    seats = list(hh.seats) if hh.seats is not None else list(range(1, n + 1))
    button = n - 1
    game = state.game
    if hh.variant == "FT":
        stakes = f"{game.small_bet}/{game.big_bet}"
    else:
        stakes = f"{game.small_blind}/{game.big_blind}"
    number = hh.hand if isinstance(hh.hand, int) else 1
    lines = [f"PokerStars Hand #{number}: {_GAME[hh.variant]} ({stakes}) - {_date(hh)}"]
    table = hh.table if hh.table is not None else (hh.event or "holdem")
    max_seats = hh.seat_count or max(n, max(seats))
    lines.append(f"Table '{table}' {max_seats}-max Seat #{seats[button]} is the button")
    for p in range(n):
        lines.append(f"Seat {seats[p]}: {names[p]} ({_num(hh.starting_stacks[p])} in chips)")
    # PokerStars lists the antes first, then the blinds and the straddle.
    ordered = sorted(state.posts, key=lambda p: 0 if p.kind in ("ante", "big_blind_ante") else 1)
    for post in ordered:
        if post.amount:
            allin = " and is all-in" if _posted_all_in(state, post.seat) else ""
            lines.append(f"{names[post.seat]}: {_POST_TEXT.get(post.kind, 'posts')} {post.amount}{allin}")
    lines.append("*** HOLE CARDS ***")
    for p in range(n):
        cards = state.hole_cards[p]
        if cards:
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
        if post.kind in ("small_blind", "big_blind", "straddle"):
            street_bet[post.seat] += post.amount
    current = max(street_bet)

    def close_street() -> None:
        # R21: the part of the highest street bet that nobody matched goes back to its owner.
        top = max(street_bet)
        if street_bet.count(top) == 1 and top:
            second = max(b for i, b in enumerate(street_bet) if i != street_bet.index(top))
            lines.append(f"Uncalled bet ({top - second}) returned to {names[street_bet.index(top)]}")

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
            lines.append(f"{who}: calls {rec.amount}{allin}")
        elif t == ActionType.BET:
            lines.append(f"{who}: bets {rec.to}{allin}")
        else:
            lines.append(f"{who}: raises {rec.to - current} to {rec.to}{allin}")
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
            lines.append(f"{names[seat]} collected {share} from {label}")
    lines.append("*** SUMMARY ***")
    total = sum(p.amount for p in pots)
    if len(pots) > 1:
        parts = [f"Main pot {pots[0].amount}."] + [
            f"Side pot-{k} {p.amount}." for k, p in enumerate(pots[1:], 1)
        ]
        lines.append(f"Total pot {total} {' '.join(parts)} | Rake {end.rake}")
    else:
        lines.append(f"Total pot {total} | Rake {end.rake}")
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
            text += f" showed {_cards(end.shown[p])} and " + (f"won ({won[p]}){how}" if won[p] else f"lost{how}")
        elif p in end.mucked:
            text += " mucked"
        elif won[p]:
            text += f" collected ({won[p]})"
        lines.append(text)
    return "\n".join(lines)


def _posted_all_in(state: HandState, seat: int) -> bool:
    return sum(p.amount for p in state.posts if p.seat == seat) >= state.starting_stacks[seat]
