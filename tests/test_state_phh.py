"""Real hands replay to their recorded finishing stacks (see tests/data/README.md).

A sample of the PHH corpus published with PokerKit: every 50th Pluribus hand (6-max no-limit),
the 8 Pluribus hands that split an odd chip, and the 18 hands of 2023 WSOP Event #43 (no-limit
with a big-blind ante, and fixed limit). The reader here is deliberately minimal (the PHH
module proper is ``holdem``'s hand-history issue): it builds the game from the header, deals the
recorded cards, applies the ``pN f / cc / cbr X`` lines through ``HandState.apply`` (which
checks that pN is the seat to act) and ignores show/muck lines (the showdown is automatic).

Known departure, named rather than skipped: the 8 Pluribus hands with an odd chip record
fractional stacks (``x.5``); with whole chips R32 gives the odd chip to the first tied winner
left of the button (the lowest PHH index, as index 0 sits left of the button).
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any

import pytest

from holdem import AnteType, Game, Mode, Structure

ROOT = Path(__file__).parent / "data" / "phh"
FILES = sorted(ROOT.rglob("*.phh"))


def load(path: Path) -> dict[str, Any]:
    with path.open("rb") as f:
        return tomllib.load(f)


def game_of(h: dict[str, Any]) -> Game:
    n = len(h["starting_stacks"])
    blinds = h["blinds_or_straddles"]
    sb, bb = (blinds[1], blinds[0]) if n == 2 else (blinds[0], blinds[1])
    antes = h["antes"]
    kw: dict[str, Any] = {"big_blind": bb, "small_blind": sb, "mode": Mode.TOURNAMENT}
    nonzero = [a for a in antes if a]
    if nonzero:
        kw["ante"] = max(nonzero)
        kw["ante_type"] = AnteType.UNIFORM if len(nonzero) == n else AnteType.BIG_BLIND
    if h["variant"] == "FT":
        kw.update(structure=Structure.FIXED_LIMIT, small_bet=h["small_bet"],
                  big_bet=h["big_bet"])
    else:
        assert h["variant"] == "NT"
    return Game(**kw)


def expected_stacks(h: dict[str, Any]) -> list[int]:
    stacks = h["finishing_stacks"]
    halves = [i for i, x in enumerate(stacks) if x != math.floor(x)]
    assert len(halves) in (0, 2)
    out = [math.floor(x) for x in stacks]
    if halves:  # R32: the odd chip to the first tied winner left of the button
        out[halves[0]] += 1
    return out


def test_sample_size() -> None:
    assert len(FILES) == 226


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_phh_hand_replays_to_finishing_stacks(path: Path) -> None:
    h = load(path)
    n = len(h["starting_stacks"])
    holes: list[str | None] = [None] * n
    board = ""
    for line in h["actions"]:
        parts = line.split()
        if parts[:2] == ["d", "dh"]:
            holes[int(parts[2][1:]) - 1] = parts[3]
        elif parts[:2] == ["d", "db"]:
            board += parts[2]
    state = game_of(h).new_hand(h["starting_stacks"], button=n - 1, hole_cards=holes,
                                board=board)
    if game_of(h).ante_type is AnteType.BIG_BLIND:  # WSOP: the big blind posts the ante
        assert [p.kind for p in state.posts][-1] == "big_blind_ante"
    for line in h["actions"]:
        if line.startswith("d ") or " sm" in line:
            continue
        state.apply(line)
    assert state.is_terminal()
    assert list(state.result.final_stacks) == expected_stacks(h)
