"""Replay the 50 PokerKit-generated traces decision by decision (see tests/data/README.md).

At every decision: the same seat to act, the same street, the same legal options (fold, check,
call amount, bet/raise allowed with min and max raise-to; where a decision is ``disputed`` the
``tda`` answer, R24/R28), the same street bet, stack and pot; at the end the same final stacks
and pots.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from holdem import Game, HandState, Mode, Structure
from holdem.hand.game import COMPILED, ReferenceHandState

DATA = Path(__file__).parent / "data" / "public_50.jsonl"
_LINES = DATA.read_text().splitlines()
HEADER = json.loads(_LINES[0])
HANDS = [json.loads(line) for line in _LINES[1:]]
_STRUCT = {"NL": Structure.NO_LIMIT, "PL": Structure.POT_LIMIT, "FL": Structure.FIXED_LIMIT}
_STREETS = {"preflop": 0, "flop": 1, "turn": 2, "river": 3}


def game_of(hand: dict[str, Any]) -> Game:
    kw: dict[str, Any] = {
        "structure": _STRUCT[hand["variant"]],
        "big_blind": hand["blinds"]["bb"],
        "small_blind": hand["blinds"]["sb"],
        "ante": hand["ante"],
        "mode": Mode.TOURNAMENT,
    }
    if hand["variant"] == "FL":
        lim = hand["limits"]
        kw.update(small_bet=lim["small_bet"], big_bet=lim["big_bet"],
                  max_raises=lim["cap_bets"] - 1)
    return Game(**kw)


def start(hand: dict[str, Any], impl: str = "default") -> HandState | ReferenceHandState:
    holes = ["".join(h) for h in hand["hole"]]
    board = "".join(hand["board"])
    if impl == "reference":
        return ReferenceHandState._start(game_of(hand), hand["stacks"], hand["button"], None,
                                         holes, board)
    return game_of(hand).new_hand(hand["stacks"], button=hand["button"], hole_cards=holes,
                                  board=board)


# The default HandState (compiled core when built) and the pure-Python reference core.
IMPLS = ["default", "reference"] if COMPILED else ["default"]


def test_header() -> None:
    assert HEADER["type"] == "header" and len(HANDS) == HEADER["n"] == 50


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("hand", HANDS, ids=[h["id"] for h in HANDS])
def test_trace_replays(hand: dict[str, Any], impl: str) -> None:
    state = start(hand, impl)
    posted = [0] * hand["players"]
    for post in state.posts:
        if post.kind != "ante":
            posted[post.seat] += post.amount
    assert posted == hand["posted"]
    for k, act in enumerate(hand["actions"]):
        where = f"{hand['id']} decision {k} ({act['street']}, seat {act['seat']})"
        assert state.actor == act["seat"], where
        assert int(state.street) == _STREETS[act["street"]], where
        want = dict(act["legal"])
        if "tda" in act:
            want.update(act["tda"])
        la = state.legal_actions()
        got = {"can_fold": la.can_fold, "can_check": la.can_check, "call": la.call,
               "can_raise": la.can_raise, "min_to": la.min_to, "max_to": la.max_to}
        assert got == want, where
        seat = act["seat"]
        ctx = {"bet": state.bets[seat], "stack": state.stacks[seat], "pot": state.pot}
        assert ctx == act["ctx"], where
        kind = act["action"]
        if kind == "fold":
            state.fold(seat=seat)
        elif kind == "check":
            state.check(seat=seat)
        elif kind == "call":
            state.call(seat=seat)
        elif kind == "bet":
            state.bet(act["to"], seat=seat)
        else:
            state.raise_to(act["to"], seat=seat)
        if "to" in act and kind != "fold":
            rec = state.history[-1]
            assert rec.to == act["to"], where
            assert rec.all_in == act.get("allin", False), where
    assert state.is_terminal(), hand["id"]
    exp = hand["expected"]
    res = state.result
    assert list(res.final_stacks) == exp["final_stacks"]
    assert list(res.payoffs) == exp["net"]
    assert len(state.board) == exp["board_cards_dealt"]
    if not exp["folded_win"]:
        assert sorted(res.showdown_order) == exp["showdown_seats"]
        pots = [{"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners),
                 "shares": [[w, s] for w, s in zip(p.winners, p.shares, strict=True)]}
                for p in res.pots]
        assert pots == exp["pots"]
