"""PokerStars-style export (write only): the lines trackers read, with the engine's amounts."""

from __future__ import annotations

import dataclasses

import pytest
from phh_corpus import corpus_texts

from holdem import InvalidHistoryError
from holdem.phh import loads
from holdem.pokerstars import to_pokerstars


def _corpus(name: str) -> str:
    return dict(corpus_texts("phh/famous/"))[name]


def test_dwan_ivey_export() -> None:
    text = to_pokerstars(loads(_corpus("phh/famous/dwan-ivey-2009.phh")))
    lines = text.splitlines()
    assert lines[0].startswith("PokerStars Hand #1: Hold'em No Limit (1000/2000) - 2009/01/01")
    assert lines[1] == "Table 'Full Tilt Million Dollar Cash Game S4E12' 3-max Seat #3 is the button"
    for expected in [
        "Seat 3: Tom Dwan (553500 in chips)",
        "Phil Ivey: posts the ante 500",
        "Patrik Antonius: posts big blind 2000",
        "Dealt to Phil Ivey [Ac 2d]",
        "Tom Dwan: raises 5000 to 7000",
        "Phil Ivey: raises 16000 to 23000",
        "*** FLOP *** [Jc 3d 5c]",
        "Phil Ivey: bets 35000",
        "*** TURN *** [Jc 3d 5c] [4h]",
        "Phil Ivey: raises 834500 to 1067100 and is all-in",
        "Tom Dwan: calls 262400 and is all-in",
        "*** RIVER *** [Jc 3d 5c 4h] [Jh]",
        "*** SHOW DOWN ***",
        "Tom Dwan collected 1109500 from pot",
        "Total pot 1109500 | Rake 0",
        "Board [Jc 3d 5c 4h Jh]",
        "Seat 2: Patrik Antonius (big blind) folded before Flop",
    ]:
        assert expected in lines, expected
    # antes first, then the blinds
    assert lines.index("Tom Dwan: posts the ante 500") < lines.index("Phil Ivey: posts small blind 1000")
    # Antonius's cards are unknown: no "Dealt to" line for him.
    assert not any(ln.startswith("Dealt to Patrik") for ln in lines)
    # R21: Ivey's uncalled 1067100 - 553500 comes back before the showdown.
    assert "Uncalled bet (572100) returned to Phil Ivey" in lines
    assert lines.index("Uncalled bet (572100) returned to Phil Ivey") < lines.index("*** SHOW DOWN ***")


SIDE_POT = """\
variant = 'PT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [20, 100, 100]
players = ['Ana', 'Boris', 'Vera']
hand = 42
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 cbr 7', 'p1 cbr 20', 'p2 cc',
  'p3 cc', 'd db 2c7d9h', 'p2 cbr 30', 'p3 cc', 'd db Js', 'p2 cc', 'p3 cc', 'd db 3d',
  'p2 cc', 'p3 cc']
"""


def test_side_pots_and_pot_limit_header() -> None:
    """R31: Ana's main pot of 60 and Boris's side pot of 60, as PokerStars lines."""
    lines = to_pokerstars(loads(SIDE_POT)).splitlines()
    assert lines[0].startswith("PokerStars Hand #42: Hold'em Pot Limit (1/2)")
    assert "Ana: raises 13 to 20 and is all-in" in lines
    assert "Ana collected 60 from main pot" in lines
    # one side pot: PokerStars writes "side pot" (hand #105034215446); "-1" only with more
    assert "Boris collected 60 from side pot" in lines
    assert "Total pot 120 Main pot 60. Side pot 60. | Rake 0" in lines


def test_two_side_pots_are_numbered_and_every_export_reads_back() -> None:
    """Two side pots: ``side pot-1``, ``side pot-2`` as PokerStars numbers them. An export
    reads back as the hand it was written from, or is refused: a hand whose text would read
    as another hand, or not at all, was written all the same (a straddler all in from the
    ante; a fold when checking is free; an unfinished hand as cut-off text)."""
    from holdem import Action, Game
    from holdem.history import from_state, replay
    from holdem.pokerstars import parse

    s = Game(big_blind=2).new_hand([10, 40, 100, 100], button=0,
                                   hole_cards=["AsAh", "KsKh", "QsQh", "JsJh"], board="2c7d9h3dTc")
    while not s.is_terminal():
        s.apply(Action.bet_or_raise(s.legal_actions().max_to) if s.legal_actions().can_raise
                else Action.check_or_call())
    text = to_pokerstars(from_state(s))
    assert "from side pot-1" in text and "from side pot-2" in text and "Side pot-2" in text
    assert next(parse(text)).finishing_stacks == replay(from_state(s)).final_stacks
    # a blind all in on the ante posts nothing more (R9), and PokerStars writes no blind line:
    # its text read as "nobody posts the small/big blind" (and was refused). The game's blind
    # is the header's now. A straddle cannot be told from no straddle: still refused.
    for stacks in ([100, 100, 1], [100, 1, 100], [1, 100], [100, 1], [100, 1, 1, 100]):
        short = Game(big_blind=2, ante=1).new_hand(stacks, button=0, seed=1)
        while not short.is_terminal():
            short.apply(Action.check_or_call())
        text = to_pokerstars(from_state(short), name="short.phh")
        assert "posts the ante 1 and is all-in" in text
        assert next(parse(text)).finishing_stacks == replay(from_state(short)).final_stacks
    straddler_short = Game(big_blind=2, ante=1, straddle=True).new_hand([100, 100, 100, 1],
                                                                       button=0, seed=1)
    while not straddler_short.is_terminal():
        straddler_short.apply(Action.check_or_call())
    with pytest.raises(InvalidHistoryError, match="cannot be written as PokerStars text"):
        to_pokerstars(from_state(straddler_short), name="short.phh")
    free = Game(big_blind=2, fold_when_check_free=True).new_hand([100, 100], button=0, seed=1)
    free.apply(Action.check_or_call())
    free.apply(Action.fold())  # the big blind folds when checking is free
    with pytest.raises(InvalidHistoryError, match="fold is not offered"):
        to_pokerstars(from_state(free))
    unfinished = Game(big_blind=2).new_hand([100, 100], button=0, seed=1)
    unfinished.apply(Action.bet_or_raise(6))
    with pytest.raises(InvalidHistoryError, match="the hand is not finished"):
        to_pokerstars(from_state(unfinished))
    # text with \r line endings reads as a file of them does
    assert next(parse(text.replace("\n", "\r"))) == next(parse(text))


def test_a_hand_whose_final_stacks_are_not_the_rules_is_refused() -> None:
    # it was written with the stacks the rules give, the file's own silently dropped
    # (replay calls it a MISMATCH and statistics refuse it)
    from holdem import Game
    from holdem.history import from_state

    s = Game(big_blind=2).new_hand([100, 100], button=0, seed=1)
    s.raise_to(6)
    s.fold()
    hh = from_state(s, players=["Ana", "Boris"])
    assert to_pokerstars(hh)
    wrong = dataclasses.replace(hh, finishing_stacks=(101, 99))
    with pytest.raises(InvalidHistoryError, match=r"x\.phh: final stacks differ"):
        to_pokerstars(wrong, name="x.phh")


def test_fixed_limit_header_and_bad_hands() -> None:
    ft = SIDE_POT.replace("'PT'", "'FT'").replace("min_bet = 2", "small_bet = 2\nbig_bet = 4")
    ft = ft.replace("'p3 cbr 7', 'p1 cbr 20'", "'p3 cbr 4', 'p1 cbr 6'")
    with pytest.raises(InvalidHistoryError, match=r"x\.phh: actions\[\d+\]"):
        to_pokerstars(loads(ft), name="x.phh")  # p2 cbr 30 is not a fixed-limit bet (R26)
    fixed = ft.split("actions =")[0] + (
        "actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 f', 'p1 cc', 'p2 cc',"
        " 'd db 2c7d9h', 'p1 cbr 2', 'p2 f']\n"
    )
    lines = to_pokerstars(loads(fixed)).splitlines()
    assert lines[0].startswith("PokerStars Hand #42: Hold'em Limit (2/4)")
    assert "Uncalled bet (2) returned to Ana" in lines and "Ana collected 4 from pot" in lines


@pytest.mark.parametrize("level", [-1, 4000, 10**18])
def test_a_level_roman_numerals_cannot_write_is_refused(level: int) -> None:
    """PokerStars writes tournament levels in Roman numerals (I..MMMCMXCIX); 10**18 used to
    hang, M by M."""
    hh = dataclasses.replace(loads(SIDE_POT), event="Tournament #1", level=level)
    with pytest.raises(InvalidHistoryError, match=rf"x\.phh: level {level} cannot be written: "
                       r"PokerStars writes tournament levels in Roman numerals"):
        to_pokerstars(hh, name="x.phh")


def test_the_largest_level() -> None:
    hh = dataclasses.replace(loads(SIDE_POT), event="Tournament #1", level=3999)
    assert " - Level MMMCMXCIX (1/2)" in to_pokerstars(hh).splitlines()[0]


def _roman(n: int) -> str:
    """Roman numerals digit by digit (a conversion of the test's own, not the module's)."""
    ones = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
    tens = ["", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"]
    hundreds = ["", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"]
    return "M" * (n // 1000) + hundreds[n // 100 % 10] + tens[n // 10 % 10] + ones[n % 10]


@pytest.mark.parametrize("level", [1, 4, 9, 14, 40, 44, 49, 90, 99, 400, 444, 494, 900, 1994,
                                   2449, 3888])
def test_levels_are_written_in_roman_numerals(level: int) -> None:
    assert _roman(444) == "CDXLIV" and _roman(1994) == "MCMXCIV"  # the test's own, checked
    hh = dataclasses.replace(loads(SIDE_POT), event="Tournament #1", level=level)
    header = to_pokerstars(hh).splitlines()[0]
    assert f" - Level {_roman(level)} (1/2) - " in header


FOLDS = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
players = ['Ana', 'Boris', 'Vera']
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 cc', 'p1 cc', 'p2 cc',
  'd db 2c7d9h', 'p1 cbr 4', 'p2 cc', 'p3 f', 'd db Js', 'p1 cc', 'p2 cbr 10', 'p1 f']
"""


def test_summary_lines_of_a_hand_won_without_a_showdown() -> None:
    """As PokerStars writes them: ``folded on the Flop`` / ``on the Turn`` (the street of the
    fold) and ``collected (X)`` for the winner who shows nothing."""
    lines = to_pokerstars(loads(FOLDS)).splitlines()
    summary = lines[lines.index("*** SUMMARY ***") + 1:]
    assert summary == [
        "Total pot 14 | Rake 0",
        "Board [2c 7d 9h Js]",
        "Seat 1: Ana (small blind) folded on the Turn",
        "Seat 2: Boris (big blind) collected (14)",
        "Seat 3: Vera (button) folded on the Flop",
    ]


def test_the_time_and_the_seat_numbers_of_the_file() -> None:
    """The header's time is HH:MM:SS; seats numbered up to 9 make a ``9-max`` table (when the
    file gives no ``seat_count``)."""
    import datetime

    hh = dataclasses.replace(loads(FOLDS), seats=(2, 5, 9), year=2020, month=5, day=2,
                             time=datetime.time(18, 44, 10), time_zone_abbreviation="ET")
    lines = to_pokerstars(hh).splitlines()
    assert lines[0] == "PokerStars Hand #1: Hold'em No Limit (1/2) - 2020/05/02 18:44:10 ET"
    assert lines[1] == "Table 'holdem' 9-max Seat #9 is the button"
    assert lines[2:5] == ["Seat 2: Ana (100 in chips)", "Seat 5: Boris (100 in chips)",
                          "Seat 9: Vera (100 in chips)"]
    assert lines[-3:] == ["Seat 2: Ana (small blind) folded on the Turn",
                          "Seat 5: Boris (big blind) collected (14)",
                          "Seat 9: Vera (button) folded on the Flop"]


def _summary_seats(text: str) -> list[str]:
    return [ln for ln in text.split("*** SUMMARY ***")[1].splitlines() if ln.startswith("Seat")]


def test_summary_lines_of_a_showdown() -> None:
    """``showed [..] and lost with ..``, ``showed [..] and won (X) with ..`` and ``mucked``,
    as in PokerStars summaries."""
    from holdem import Game
    from holdem.history import from_state

    s = Game(big_blind=2).new_hand([100, 100, 100], button=0,
                                   hole_cards=["AsAh", "KdKc", "7c2d"], board="2h7d9hJs3c")
    s.call()
    s.call()
    s.check()
    for _ in range(2):
        s.check()
        s.check()
        s.check()
    s.bet(10)
    s.call()
    s.call()
    seats = _summary_seats(to_pokerstars(from_state(s)))
    assert len(seats) == 3
    assert seats[0].startswith("Seat 1: Player 1 (small blind) showed [Kd Kc] and lost with ")
    assert seats[1].startswith("Seat 2: Player 2 (big blind) showed [7c 2d] and won (36) with ")
    assert seats[2] == "Seat 3: Player 3 (button) mucked"


def test_no_small_blind_label_when_the_small_blind_was_not_posted() -> None:
    """The small blind's seat, all in from the ante, posts no blind: its summary line has no
    ``(small blind)``; the big blind's still has ``(big blind)``."""
    from holdem import Action, Game
    from holdem.history import from_state

    t = Game(big_blind=2, ante=1).new_hand([100, 1, 100], button=0, seed=1)
    while not t.is_terminal():
        t.apply(Action.check_or_call())
    text = to_pokerstars(from_state(t))
    assert "posts small blind" not in text
    seats = _summary_seats(text)
    assert seats[0].startswith("Seat 1: Player 1 showed [")
    assert seats[1].startswith("Seat 2: Player 2 (big blind) showed [")
    assert seats[2].startswith("Seat 3: Player 3 (button) showed [")
