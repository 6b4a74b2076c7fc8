"""Every real hand of the vendored PHH corpus replays under the rules, to the recorded chip.

The corpus (``tests/data/phh-corpus.tar.xz``, see ``tests/data/README.md``): 10,000 Pluribus
hands, 18 WSOP 2023 Event #43 hands (no-limit with a big-blind ante, fixed-limit) and the
Dwan-Ivey 2009 hand. Every action must be legal in the engine (R15-R28) and every final stack
must equal the file's ``finishing_stacks``. Known departures are named here, not skipped:

- 8 Pluribus hands split a pot with an odd chip and record half chips (``x.5``). With whole
  chips R32 gives the odd chip to the first tied winner left of the button: checked below.
- The WSOP no-limit files post a big-blind ante (R7's option), paid by the big blind, and it
  can exceed the big blind (225,000 on a 150,000 big blind).
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import pytest
from phh_corpus import corpus_texts

from holdem.history import replay
from holdem.phh import HandHistory, loads

#: Pluribus hands whose recorded finishing stacks hold half chips (a pot split two ways with an
#: odd chip), with the two tied winners as PHH player numbers.
ODD_CHIP_HANDS = {
    "phh/pluribus/102/0.phh": (1, 5),
    "phh/pluribus/32/23.phh": (3, 6),
    "phh/pluribus/41b/204.phh": (1, 4),
    "phh/pluribus/60/88.phh": (2, 6),
    "phh/pluribus/75b/76.phh": (3, 6),
    "phh/pluribus/88/128.phh": (4, 6),
    "phh/pluribus/91/43.phh": (4, 5),
    "phh/pluribus/91/53.phh": (1, 4),
}

#: The big blind is all in with a big-blind ante larger than the blind and is called: the ante
#: is dead money, not an uncalled bet (R21 returns uncalled *bets*). Named test below.
BB_ANTE_ALL_IN = "phh/wsop/2023/43/5/68.phh"


@dataclass(frozen=True)
class Outcome:
    """What the full-corpus test needs to know about one replayed hand (small, picklable)."""

    name: str
    variant: str
    starting_stacks: tuple[float, ...]
    finishing_stacks: tuple[float, ...] | None
    final_stacks: tuple[int, ...]
    mismatches: tuple[str, ...]
    terminal: bool


def _replay_chunk(chunk: list[tuple[str, str]]) -> list[Outcome]:
    out = []
    for name, text in chunk:
        hh = loads(text, name=name)
        result = replay(hh, name=name)  # raises InvalidHistoryError on any illegal action
        out.append(Outcome(name, hh.variant, hh.starting_stacks, hh.finishing_stacks,
                           result.final_stacks, result.mismatches, result.state.is_terminal()))
    return out


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    """Parse and replay every corpus hand, on all cores (chunks in file order, so the result
    does not depend on the number of workers)."""
    texts = list(corpus_texts())
    chunks = [texts[i : i + 500] for i in range(0, len(texts), 500)]
    workers = min(len(chunks), os.cpu_count() or 1)
    if workers <= 1:
        return [o for chunk in chunks for o in _replay_chunk(chunk)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [o for part in pool.map(_replay_chunk, chunks) for o in part]


@pytest.fixture(scope="module")
def small() -> dict[str, HandHistory]:
    """The 19 WSOP and famous hands, parsed in-process."""
    return {name: loads(text, name=name) for name, text in corpus_texts()
            if not name.startswith("phh/pluribus/")}


def _check_r32(o: Outcome) -> None:
    """R32: the odd chip of a two-way split goes to the first winner left of the button."""
    assert o.finishing_stacks is not None
    a, b = ODD_CHIP_HANDS[o.name]
    recorded, final = o.finishing_stacks, o.final_stacks
    for p in range(len(final)):
        if p + 1 not in (a, b):
            assert final[p] == recorded[p], (o.name, p + 1)
    # PHH index 0 is the first seat left of the button, so the lower player number is the
    # first winner clockwise from the button.
    first, second = min(a, b) - 1, max(a, b) - 1
    assert recorded[first] == recorded[second] and not float(recorded[first]).is_integer()
    assert final[first] == math.ceil(recorded[first]), o.name
    assert final[second] == math.floor(recorded[second]), o.name
    assert sum(final) == sum(recorded) == sum(o.starting_stacks)


def test_corpus_is_complete(outcomes: list[Outcome]) -> None:
    names = [o.name for o in outcomes]
    assert len(names) == len(set(names)) == 10_019
    assert sum(n.startswith("phh/pluribus/") for n in names) == 10_000
    assert sum(n.startswith("phh/wsop/") for n in names) == 18
    assert {o.variant for o in outcomes} == {"NT", "FT"}
    assert set(ODD_CHIP_HANDS) <= set(names) and BB_ANTE_ALL_IN in names


def test_every_real_hand_replays_exactly(outcomes: list[Outcome]) -> None:
    """R15-R33 on 10,019 real hands: every action legal (the fixture raises otherwise), every
    final stack as recorded."""
    wrong: list[str] = []
    odd = 0
    for o in outcomes:
        assert o.terminal, o.name
        if o.name in ODD_CHIP_HANDS:
            _check_r32(o)
            odd += 1
        elif o.finishing_stacks is None:
            assert o.name == "phh/famous/dwan-ivey-2009.phh"
        elif o.mismatches:
            wrong.append(f"{o.name}: {'; '.join(o.mismatches)}")
    assert odd == len(ODD_CHIP_HANDS)
    assert wrong == []


def test_fractional_stacks_are_exactly_the_named_hands(outcomes: list[Outcome]) -> None:
    fractional = {
        o.name for o in outcomes
        if o.finishing_stacks is not None
        and any(isinstance(s, float) and not s.is_integer() for s in o.finishing_stacks)
    }
    assert fractional == set(ODD_CHIP_HANDS)


def test_big_blind_ante_is_not_returned(small: dict[str, HandHistory]) -> None:
    """R7 big-blind ante + R21: Tong (p2, big blind) posts 225,000 ante + 150,000 blind, goes
    all in to 3,350,000 and is called by Rast (p5), who wins. The ante is dead money, not an
    uncalled bet: Tong ends with 0 and Rast with 21,700,000, as recorded."""
    hh = small[BB_ANTE_ALL_IN]
    result = replay(hh, name=BB_ANTE_ALL_IN)
    assert result.final_stacks == (2_200_000, 0, 2_675_000, 3_125_000, 21_700_000)
    assert result.mismatches == ()


def test_wsop_files_post_a_big_blind_ante(small: dict[str, HandHistory]) -> None:
    """R7's big-blind ante: only the big blind (PHH index 1) antes in the WSOP no-limit files."""
    nt = [(n, hh) for n, hh in small.items() if n.startswith("phh/wsop/") and hh.variant == "NT"]
    assert len(nt) == 11
    for name, hh in nt:
        assert hh.antes[1] > 0 and not any(a for i, a in enumerate(hh.antes) if i != 1), name
        state = replay(hh, name=name).state
        posts = [(p.seat, p.kind) for p in state.posts]
        assert (1, "big_blind_ante") in posts and (1, "big_blind") in posts, name


def test_dwan_ivey_2009(small: dict[str, HandHistory]) -> None:
    """The file records no finishing stacks; the known result: Dwan's 7-high straight beats
    Ivey's wheel for a pot of 1,109,500 (both all-in amounts of 553,500 plus Antonius's 500
    ante and 2,000 big blind). Antonius's hand is unknown (``????``) and he folds."""
    name = "phh/famous/dwan-ivey-2009.phh"
    hh = small[name]
    assert hh.actions[1].cards == (None, None)
    result = replay(hh, name=name)
    assert result.final_stacks == (1_125_600 - 553_500, 2_000_000 - 2_500, 1_109_500)
    assert result.state.result.pots[0].amount == 1_109_500
