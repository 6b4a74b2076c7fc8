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

#: A hand whose final stacks the engine gets wrong today (an engine bug, reported to the state
#: branch): the big blind's ante is returned to it as if it were an uncalled bet (R21 returns
#: uncalled *bets*; an ante is dead money). Checked by ``test_big_blind_ante_is_not_returned``.
BB_ANTE_ALL_IN = "phh/wsop/2023/43/5/68.phh"


def _load_all() -> list[tuple[str, HandHistory]]:
    return [(name, loads(text, name=name)) for name, text in corpus_texts()]


@pytest.fixture(scope="module")
def corpus() -> list[tuple[str, HandHistory]]:
    return _load_all()


def _check_r32(name: str, hh: HandHistory, final: tuple[int, ...]) -> None:
    """R32: the odd chip of a two-way split goes to the first winner left of the button."""
    assert hh.finishing_stacks is not None
    a, b = ODD_CHIP_HANDS[name]
    recorded = hh.finishing_stacks
    for p in range(hh.num_players):
        if p + 1 not in (a, b):
            assert final[p] == recorded[p], (name, p + 1)
    # PHH index 0 is the first seat left of the button, so the lower player number is the
    # first winner clockwise from the button.
    first, second = min(a, b) - 1, max(a, b) - 1
    assert recorded[first] == recorded[second] and not float(recorded[first]).is_integer()
    assert final[first] == math.ceil(recorded[first]), name
    assert final[second] == math.floor(recorded[second]), name
    assert sum(final) == sum(recorded) == sum(hh.starting_stacks)


def test_corpus_is_complete(corpus: list[tuple[str, HandHistory]]) -> None:
    names = [n for n, _ in corpus]
    assert len(names) == 10_019
    assert sum(n.startswith("phh/pluribus/") for n in names) == 10_000
    assert sum(n.startswith("phh/wsop/") for n in names) == 18
    variants = {hh.variant for _, hh in corpus}
    assert variants == {"NT", "FT"}
    assert set(ODD_CHIP_HANDS) <= set(names) and BB_ANTE_ALL_IN in names


def test_every_real_hand_replays_exactly(corpus: list[tuple[str, HandHistory]]) -> None:
    """R15-R33 on 10,019 real hands: every action legal, every final stack as recorded."""
    wrong: list[str] = []
    odd = 0
    for name, hh in corpus:
        result = replay(hh, name=name)  # raises InvalidHistoryError on any illegal action
        assert result.state.is_terminal(), name
        if name in ODD_CHIP_HANDS:
            _check_r32(name, hh, result.final_stacks)
            odd += 1
        elif name == BB_ANTE_ALL_IN:
            continue  # its actions are all legal (checked above); stacks: see below
        elif hh.finishing_stacks is None:
            assert name == "phh/famous/dwan-ivey-2009.phh"
        elif result.mismatches:
            wrong.append(f"{name}: {'; '.join(result.mismatches)}")
    assert odd == len(ODD_CHIP_HANDS)
    assert wrong == []


def test_fractional_stacks_are_exactly_the_named_hands(
    corpus: list[tuple[str, HandHistory]],
) -> None:
    fractional = {
        name for name, hh in corpus
        if hh.finishing_stacks is not None
        and any(isinstance(s, float) and not s.is_integer() for s in hh.finishing_stacks)
    }
    assert fractional == set(ODD_CHIP_HANDS)


@pytest.mark.xfail(
    strict=True,
    reason="engine bug (state branch): the big-blind ante is returned as an uncalled bet",
)
def test_big_blind_ante_is_not_returned(corpus: list[tuple[str, HandHistory]]) -> None:
    """R7 big-blind ante + R21: Tong (p2, big blind) posts 225,000 ante + 150,000 blind, goes
    all in to 3,350,000 and is called by Rast (p5), who wins. The ante is dead money, not an
    uncalled bet: Tong ends with 0 and Rast with 21,700,000, as recorded."""
    hh = dict(corpus)[BB_ANTE_ALL_IN]
    result = replay(hh, name=BB_ANTE_ALL_IN)
    assert result.final_stacks == (2_200_000, 0, 2_675_000, 3_125_000, 21_700_000)
    assert result.mismatches == ()


def test_wsop_files_post_a_big_blind_ante(corpus: list[tuple[str, HandHistory]]) -> None:
    """R7's big-blind ante: only the big blind (PHH index 1) antes in the WSOP no-limit files."""
    nt = [(n, hh) for n, hh in corpus if n.startswith("phh/wsop/") and hh.variant == "NT"]
    assert len(nt) == 11
    for name, hh in nt:
        assert hh.antes[1] > 0 and not any(a for i, a in enumerate(hh.antes) if i != 1), name
        state = replay(hh, name=name).state
        posts = [(p.seat, p.kind) for p in state.posts]
        assert (1, "big_blind_ante") in posts and (1, "big_blind") in posts, name


def test_dwan_ivey_2009(corpus: list[tuple[str, HandHistory]]) -> None:
    """The file records no finishing stacks; the known result: Dwan's 7-high straight beats
    Ivey's wheel for a pot of 1,109,500 (both all-in amounts of 553,500 plus Antonius's 500
    ante and 2,000 big blind). Antonius's hand is unknown (``????``) and he folds."""
    name = "phh/famous/dwan-ivey-2009.phh"
    hh = dict(corpus)[name]
    assert hh.actions[1].cards == (None, None)
    result = replay(hh, name=name)
    assert result.final_stacks == (1_125_600 - 553_500, 2_000_000 - 2_500, 1_109_500)
    assert result.state.result.pots[0].amount == 1_109_500
