"""PokerStars import (``holdem.pokerstars.parse``): real-format fixtures, round trips, errors.

The fixtures in ``tests/data/pokerstars/`` were written for these tests from the format's
structure (cash games in dollars and cents with rake, a tournament with antes and side pots,
fixed-limit and pot-limit hands); their amounts are worked out by hand in the comments below.
Every hand is checked by a replay under the rules against its summary (``check=True``).
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_history import _play_randomly

from holdem import InvalidHistoryError
from holdem.hand.game import AnteType, Game, Structure
from holdem.history import from_state, replay
from holdem.phh import HandHistory, dumps, loads
from holdem.pokerstars import parse, to_pokerstars
from holdem.pots import Rake

DATA = Path(__file__).parent / "data" / "pokerstars"
SAME = ("variant", "antes", "blinds_or_straddles", "starting_stacks", "actions",
        "finishing_stacks", "min_bet", "small_bet", "big_bet", "players", "user_fields")


def _hands(name: str) -> list[HandHistory]:
    return list(parse(DATA / name))


def test_cash_game_in_cents_with_rake_and_a_player_sitting_out() -> None:
    """Hand 1: sleepy sits out (not dealt in); Hero wins $14.65 less $0.65 rake (R34):
    10 - 1 - 1.25 - 3 - 2 + 14 = 16.75; grinder_x's mucked hand is unknown."""
    h1, h2, h3 = _hands("cash-nl-cents.txt")
    assert h1.players == ("nitwit77", "Ralph W.", "grinder_x", "fishy_joe", "Hero")
    assert h1.seats == (3, 4, 6, 1, 2) and h1.seat_count == 6 and h1.table == "Aludra IV"
    assert (h1.hand, h1.currency, h1.currency_symbol) == (208012345671, "USD", "$")
    assert h1.blinds_or_straddles == (0.05, 0.1, 0, 0, 0) and h1.min_bet == 0.1
    assert h1.user_fields == {"_chip_unit": 0.01, "_rake": 0.65, "_total_pot": 14.65}
    assert h1.actions[2].cards == (None, None)  # grinder_x mucked: unknown
    assert h1.finishing_stacks == (9.35, 4.02, 18.06, 10.57, 16.75)
    assert (h1.year, h1.month, h1.day, str(h1.time), h1.time_zone_abbreviation) == (
        2020, 3, 14, "21:05:33", "ET")
    # Hand 2 (R21): nitwit77's uncalled $0.15 comes back; he wins the blinds.
    assert h2.finishing_stacks[h2.players.index("nitwit77")] == 9.5  # type: ignore[union-attr]
    # Hand 3 (R32 in cents): a board straight splits $1.85 - $0.08 rake = $1.77; the odd cent
    # goes to Hero, the first winner left of the button.
    r = replay(h3)
    pot = r.state.result.pots[0]
    assert (pot.amount, pot.rake, pot.shares) == (185, 8, (89, 88))
    assert r.final_stacks == (17.91, 10.47, 16.79, 9.53, 3.97) and r.ok


def test_tournament_antes_side_pots_and_a_player_sitting_out() -> None:
    """Four all-ins: main pot 4 x 920 + 125 + 25 = 3830 and side pot 3 x 955 = 2865 to
    tiltproof's jacks, side pot 2 x 1275 = 2550 to Hero's queens (R31); Hero's uncalled 2260
    comes back (R21). away_guy sits out but posts and folds, so he is in the hand."""
    (hh,) = _hands("tournament-side-pots.txt")
    assert hh.event == "Tournament #2876543210, $3.19+$0.31 USD" and hh.level == 7
    assert hh.players == ("away_guy", "river_rat", "Ace_Mike", "tiltproof", "Hero", "donkeykong")
    assert hh.antes == (25,) * 6 and hh.blinds_or_straddles == (100, 200, 0, 0, 0, 0)
    assert hh.user_fields == {}
    r = replay(hh)
    assert [(p.amount, p.winners) for p in r.state.result.pots if p.amount] == [
        (3830, (3,)), (2865, (3,)), (2550, (4,))]
    assert r.final_stacks == (2075, 0, 0, 6695, 4810, 12008) and r.ok


def test_fixed_limit_and_pot_limit() -> None:
    """Fixed limit: a bet and three raises cap preflop (R27); capper's kings beat quiet_one,
    who mucks unknown cards: $2.50 - $0.12 = $2.38. Pot limit heads-up: pot-sized raises
    (R25) and an all-in for less; Hero wins $100 - $0.50."""
    fl, pl = _hands("cash-limits.txt")
    assert (fl.variant, fl.small_bet, fl.big_bet) == ("FT", 0.1, 0.2)
    assert fl.blinds_or_straddles == (0.05, 0.1, 0, 0)
    assert fl.finishing_stacks == (4.5, 7.73, 1.1, 4.8)
    # quiet_one (p3) mucks unknown cards: a dead hand, played by the weakest cards left
    assert fl.actions[2].cards == (None, None) and str(fl.actions[-1]) == "p3 sm"
    r = replay(fl)
    assert r.ok and r.stand_ins == {2} and 2 in r.state.result.mucked
    assert "Dealt to quiet_one" not in to_pokerstars(fl)  # stand-in cards are never written
    assert (pl.variant, pl.min_bet, pl.players) == ("PT", 0.5, ("Hero", "villain"))
    assert pl.blinds_or_straddles == (0.25, 0.5)  # heads-up: the button posts the small blind
    assert replay(pl).final_stacks == (99.5, 0)


def test_every_fixture_exports_and_imports_back() -> None:
    for path in sorted(DATA.glob("*.txt")):
        for hh in parse(path):
            back = next(parse(to_pokerstars(hh)))
            for field in (*SAME[:3], *SAME[5:], "seats", "hand", "table", "event", "level"):
                assert getattr(back, field) == getattr(hh, field), (path.name, hh.hand, field)
            assert back.starting_stacks == hh.starting_stacks
            # the showdown order is the engine's (R33), so compare the actions as sets there
            assert set(back.actions) == set(hh.actions)


def _generated(seed: int) -> tuple[HandHistory, bool]:
    """A random engine hand (2-10 players, NL/PL/FL, antes, straddle, rake, cents)."""
    rng = random.Random(seed)
    n = rng.randint(2, 10)
    ante = rng.choice([(0, AnteType.UNIFORM), (1, AnteType.UNIFORM), (3, AnteType.BIG_BLIND)])
    rake = rng.choice([None, Rake(0.05, cap=3)])
    game = Game(structure=rng.choice(list(Structure)), big_blind=2, ante=ante[0],
                ante_type=ante[1], straddle=n >= 3 and rng.random() < 0.3, rake=rake)
    stacks = [rng.choice([3, 10, 50, 200, 1000]) for _ in range(n)]
    state = game.new_hand(stacks, button=rng.randrange(n), seed=seed)
    _play_randomly(state, rng)
    cents = rng.random() < 0.3
    extra = {"chip_unit": 0.01, "currency_symbol": "$"} if cents else {}
    hh = from_state(state, players=[f"player {i}" for i in range(n)], hand=seed + 1, **extra)
    # A big blind whose posts put it all in posts a short big-blind ante: the text shows what
    # was posted, not the ante the game asked for (the replay is the same).
    short_ante = ante[1] is AnteType.BIG_BLIND and any(
        sum(p.amount for p in state.posts if p.seat == state.big_blind_seat) >= s
        for s in [state.starting_stacks[state.big_blind_seat]])
    return hh, short_ante


def test_generated_hands_round_trip() -> None:
    """Export, then import, gives the same hand: 600 random hands of every structure, 2-10
    players, antes, straddles, side pots, rake and amounts in cents, checked by a replay."""
    sizes = set()
    for seed in range(600):
        hh, short_ante = _generated(seed)
        text = to_pokerstars(hh)
        (back,) = parse(text)
        for field in SAME:
            if field == "antes" and short_ante:
                continue
            assert getattr(back, field) == getattr(hh, field), (seed, field, text)
        assert replay(back).final_stacks == replay(hh).final_stacks
        assert loads(dumps(back)) == back  # and the imported hand is valid PHH
        sizes.add(hh.num_players)
    assert sizes == set(range(2, 11))


def test_a_table_session_streams_back() -> None:
    """Hands of seeded Table sessions, exported as one text, stream back hand by hand."""
    from holdem import RandomAgent, Table

    hands = []
    for seed in range(5):  # random agents go broke fast: five seeded sessions
        table = Table(Game(big_blind=2, ante=seed % 2), seats=6, seed=seed)
        for seat in range(6):
            table.sit(seat, f"seat{seat}", 150 + 20 * seat, RandomAgent(seed=seat))
        for record in table.play(200):
            try:
                hands.append(from_state(record.state, players=list(record.names),
                                        hand=record.number))
            except InvalidHistoryError:
                continue  # a dead small blind PHH cannot describe
    text = "\n\n\n".join(to_pokerstars(hh) for hh in hands) + "\n"
    back = list(parse(io.StringIO(text)))
    assert len(back) == len(hands) >= 100
    for a, b in zip(hands, back, strict=True):
        for field in SAME:
            assert getattr(b, field) == getattr(a, field), (a.hand, field)


class _Counting:
    """A text stream that counts the lines read from it."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.read = 0

    def __iter__(self) -> Iterator[str]:
        for line in self.lines:
            self.read += 1
            yield line


def test_a_file_streams_one_hand_at_a_time() -> None:
    one = (DATA / "tournament-side-pots.txt").read_text()
    lines = io.StringIO((one + "\n\n") * 1000).readlines()
    stream = _Counting(lines)
    hands = parse(stream)
    first = next(hands)
    per_hand = len(lines) // 1000
    assert stream.read <= per_hand + 1  # the first hand, and the next hand's first line
    assert first.hand == 210987654321
    assert sum(1 for _ in hands) == 999 and stream.read == len(lines)


def test_sources() -> None:
    path = DATA / "cash-limits.txt"
    text = path.read_text()
    expected = list(parse(text))
    assert len(expected) == 2
    assert list(parse(str(path))) == expected
    with open(path, encoding="utf-8") as f:
        assert list(parse(f)) == expected
    with pytest.raises(InvalidHistoryError, match=r"cannot read nowhere\.txt"):
        list(parse("nowhere.txt"))


def _bad(old: str, new: str) -> str:
    text = (DATA / "cash-limits.txt").read_text()
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("villain: calls $3\n", "villain: dances\n", r"hand #208011112222, line 55: not a "
         r"PokerStars action: 'villain: dances'"),
        ("quiet_one: calls $0.10\n", "quiet_one: calls $0.105\n",
         r"hand #208099887766, line 11: \$0.105 has more decimals than the stakes"),
        ("Seat 4: Hero ($5 in chips)", "Seat 4: Hero (five in chips)",
         r"hand #208099887766, line 4: 'five' is not an amount"),
        # pot limit (R25): the largest bet on the flop is the pot, $9
        ("Hero: bets $9\n", "Hero: bets $10\n",
         r"hand #208011112222, line 57: the hand does not replay under the rules: .*p1 cbr 10"),
        # the summary disagrees with the replay
        ("Total pot $2.50 | Rake $0.12", "Total pot $2.60 | Rake $0.12",
         r"hand #208099887766, line 36: the replay gives a total pot of \$2.50"),
        ("capper collected $2.38 from pot", "capper collected $2.40 from pot",
         r"hand #208099887766, line 36: the collected amounts differ from the replay: capper "
         r"ends with 7.73, the file says 7.75"),
        ("*** FLOP *** [Th 7c 2s]", "*** FLOP *** [Th 7c]",
         r"hand #208099887766, line 20: the board has 3 cards here"),
        ("*** HOLE CARDS ***\nDealt to Hero [Ad Tc]", "Dealt to Hero [Ad Tc]",
         r"hand #208099887766, line 10: a player action before the hole cards"),
        ("Hero: posts small blind $0.05", "Hero: posts a dead button $0.05",
         r"hand #208099887766, line 7: a post reads 'posts the ante X'"),
        ("Hero: posts small blind $0.05", "Hero: posts small & big blinds $0.15",
         r"hand #208099887766, line 7: a player in the blinds posts the blinds only"),
        ("capper: posts big blind $0.10", "quiet_one: posts big blind $0.10",
         r"hand #208099887766, line 1: nobody posts the big blind"),  # only an entry post
        # these used to escape as IndexError or ValueError (int() of "²", of 4300+ digits)
        ("Total pot $2.50 | Rake $0.12", "Total pot | Rake 0",
         r"hand #208099887766, line 36: the total pot line reads 'Total pot X \| Rake Y'"),
        ("Hero ($5 in chips)", "Hero ($²5 in chips)",
         r"hand #208099887766, line 4: '\$²5' is not an amount"),
        ("Hero ($5 in chips)", "Hero (" + "9" * 5000 + " in chips)",
         r"hand #208099887766, line 4: 9{30}\.\.\. is above the engine's limit of 2\*\*53 chips"),
        ("Hero ($5 in chips)", "Hero ($90071992547409.93 in chips)",  # 2**53 + 1 cents
         r"hand #208099887766, line 4: \$90071992547409.93 is above the engine's limit"),
        ("Seat #1 is the button", "Seat #¹ is the button",
         r"hand #208099887766, line 2: the table line reads"),
        ("Seat #1 is the button", "Seat #" + "1" * 5000 + " is the button",
         r"hand #208099887766, line 2: the table line reads"),
        # without these two checks a later line is refused instead, as "not a PokerStars
        # hand-history line" (no test told the two apart)
        ("Seat 6: capper ($6.35", "Seat 6: Hero ($6.35",
         r"hand #208099887766, line 5: Hero sits in two seats: 'Seat 6: Hero \(\$6\.35 in chips\)'$"),
        ("Seat 1: limpy ($4.80 in chips)\nSeat 4: Hero ($5 in chips)\nSeat 6: capper ($6.35 in "
         "chips)\nSeat 9: quiet_one ($2.10 in chips)\n", "Seat 4: Hero ($5 in chips)\n",
         r"hand #208099887766, line 3: fewer than 2 players are seated: 'Seat 4: Hero"),
        ("Seat 4: Hero", "Seat " + "4" * 5000 + ": Hero",
         r"hand #208099887766, line 4: seat 4{30}\.\.\. is not a seat number"),
        ("($0.10/$0.20 USD)", "($0.¹0/$0.20 USD)",
         r"hand #208099887766, line 1: '\$0.¹0' is not an amount"),
        ("($0.10/$0.20 USD)", "($0.1000000000/$0.20 USD)",
         r"hand #208099887766, line 1: the stakes have more than 9 decimals"),
        ("2020/03/15 1:02:03 ET [", "2020/03/15 29:02:03 ET [",
         r"hand #208099887766, line 1: '2020/03/15 29:02:03 ET' is not a date and time"),
        ("2020/03/15 1:02:03 ET [", "2020/02/30 1:02:03 ET [",
         r"hand #208099887766, line 1: '2020/02/30 1:02:03 ET' is not a date and time"),
    ],
)
def test_bad_text_names_the_hand_and_the_line(old: str, new: str, where: str) -> None:
    with pytest.raises(InvalidHistoryError, match=rf"limits\.txt: {where}"):
        list(parse(_bad(old, new), name="limits.txt"))


@pytest.mark.parametrize(("old", "new", "where"), [
    ("Dealt to Hero [Ad Tc]", "Dealt to Hero [Ad Ad]",
     r"line 10: a card appears twice in \[Ad Ad\]: 'Dealt to Hero \[Ad Ad\]'"),
    ("*** FLOP *** [Th 7c 2s]", "*** FLOP *** [Th 7c 7c]",
     r"line 20: a card appears twice in \[Th 7c 7c\]"),
    ("*** FLOP *** [Th 7c 2s]", "*** FLOP *** [Th 7c] [Th]",
     r"line 20: a card appears twice on the board: '\*\*\* FLOP \*\*\* \[Th 7c\] \[Th\]'"),
    ("limpy: folds\n", "limpy: folds [Ah Kd Qc]\n",  # one card is a real line: see below
     r"line 12: hold'em deals two hole cards: 'limpy: folds \[Ah Kd Qc\]'"),
])
def test_cards_an_action_cannot_hold_name_the_line(old: str, new: str, where: str) -> None:
    """Used to read (check=False) into an action the notation cannot write (a card twice,
    three hole cards), or to fail later on another line; the action's own check then raised without
    the hand and the line."""
    for check in (True, False):
        with pytest.raises(InvalidHistoryError, match=rf"limits\.txt: hand #208099887766, {where}"):
            list(parse(_bad(old, new), name="limits.txt", check=check))


MB = 1_000_000


@pytest.mark.parametrize(("old", "new", "where"), [
    ("limpy: folds\n", "limpy: dances " + "x" * MB + "\n",
     "hand #208099887766, line 12: not a PokerStars action: 'limpy: dances xxx"),
    ("Hero ($5 in chips)", "Hero ($5" + "x" * MB + " in chips)",
     "hand #208099887766, line 4: '$5xxx"),
    ("Dealt to Hero [Ad Tc]", "Dealt to Hero [Ad " + "Q" * MB + "]",
     "hand #208099887766, line 10: [Ad QQQ"),
    ("Hold'em Limit ($0.10", "Razz " + "r" * MB + " Hold'em Limit ($0.10",
     "hand #208099887766, line 1: unknown game 'Razz rrr"),
    ("Hand #208099887766:", "Hand #" + "1" * MB + ":\nx", "hand #111"),
])
def test_a_megabyte_line_is_quoted_short(old: str, new: str, where: str) -> None:
    """An error used to quote the whole line (and the long word in it): a megabyte message.
    It quotes the first 80 characters and the length, and still names the hand and line."""
    with pytest.raises(InvalidHistoryError) as info:
        list(parse(_bad(old, new), name="limits.txt"))
    message = str(info.value)
    assert message.startswith(f"limits.txt: {where}")
    assert len(message) < 500 and "characters)" in message


def test_a_megabyte_line_outside_the_hands_is_quoted_short() -> None:
    with pytest.raises(InvalidHistoryError) as info:
        list(parse("y" * MB + "\n" + (DATA / "cash-limits.txt").read_text(), name="f.txt"))
    assert str(info.value) == (
        "f.txt: line 1: not a PokerStars hand history (hands start with 'PokerStars Hand #'): "
        f"{'y' * 80!r}... (1,000,000 characters)")


def test_numbers_in_other_scripts_are_not_numbers() -> None:
    """A hand number in other digits (or of 31+ digits) is kept as text, like any hand id that
    is not a number; a N-max in other digits is left out."""
    text = _bad("Hand #208099887766:", "Hand #²08099887766:").replace("9-max", "⁹-max", 1)
    fl, _ = parse(text)
    assert fl.hand == "²08099887766" and fl.seat_count is None
    (fl, _) = parse(_bad("Hand #208099887766:", "Hand #" + "1" * 5000 + ":"))
    assert fl.hand == "1" * 5000


def _players(n: int) -> str:
    """A hand of ``n`` players dealt in: all fold to the big blind."""
    seats = "".join(f"Seat {k}: p{k} (100 in chips)\n" for k in range(1, n + 1))
    folds = "".join(f"p{k}: folds\n" for k in [*range(3, n + 1), 1])
    return (f"PokerStars Hand #{n}: Hold'em No Limit (1/2) - 2020/01/01 00:00:00 ET\n"
            f"Table 'T' {n}-max Seat #{n} is the button\n{seats}p1: posts small blind 1\n"
            f"p2: posts big blind 2\n*** HOLE CARDS ***\n{folds}Uncalled bet (1) returned to "
            "p2\np2 collected 2 from pot\n*** SUMMARY ***\nTotal pot 2 | Rake 0\n\n")


def test_more_than_ten_players_dealt_in() -> None:
    """Used to escape as KeyError: (10, 'dh'); on_error gets it and reading goes on."""
    assert [h.num_players for h in parse(_players(10))] == [10]
    for check in (True, False):
        with pytest.raises(InvalidHistoryError, match=r"hand #11, line 1: 11 players are dealt "
                           r"in: hold'em is played by 2 to 10"):
            list(parse(_players(11), check=check))
    errors: list[InvalidHistoryError] = []
    hands = list(parse(_players(11) + _players(3), on_error=errors.append))
    assert [h.hand for h in hands] == [3] and len(errors) == 1


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    """A bad byte (here past the first 64 KiB read) raises the library's error naming the file
    and the byte's offset, with or without on_error: it is the file that is bad, not a hand."""
    text = (DATA / "cash-limits.txt").read_text()
    data = (text + "\n\n").encode() * 30 + text.replace("limpy", "l\xefmpy", 1).encode("latin-1")
    assert len(data) > 1 << 16
    path = tmp_path / "latin1.txt"
    path.write_bytes(data)
    at = data.index(b"\xef")
    line = data[:at].count(b"\n") + 1
    message = rf"latin1\.txt: byte offset {at} \(line {line}\) is not UTF-8"
    with pytest.raises(InvalidHistoryError, match=message):
        list(parse(path))
    errors: list[InvalidHistoryError] = []
    with pytest.raises(InvalidHistoryError, match=message):
        list(parse(str(path), on_error=errors.append))
    assert errors == []


def test_a_stream_that_is_not_text_in_its_encoding(tmp_path: Path) -> None:
    """A stream the caller opened in text mode used to let its UnicodeDecodeError escape: it
    is the library's error (the whole stream is bad: with on_error too), chained to it."""
    text = (DATA / "cash-limits.txt").read_text()
    path = tmp_path / "latin1.txt"
    path.write_bytes(text.replace("limpy", "l\xefmpy").encode("latin-1"))
    message = (f"{path}: the stream is not valid utf-8 text (byte 0xef: invalid continuation "
               "byte): open the file with the encoding it is written in")
    errors: list[InvalidHistoryError] = []
    for on_error in (None, errors.append):
        with open(path, encoding="utf-8") as f, pytest.raises(InvalidHistoryError) as info:
            list(parse(f, on_error=on_error))
        assert str(info.value) == message
        assert isinstance(info.value.__cause__, UnicodeDecodeError)
    assert errors == []
    unnamed = io.TextIOWrapper(io.BytesIO(b"PokerStars Hand #1: \xff\n"), encoding="ascii")
    with pytest.raises(InvalidHistoryError, match=r"^the stream is not valid ascii text \(byte "
                       r"0xff: ordinal not in range\(128\)\)"):
        list(parse(unnamed))
    with open(path, encoding="latin-1") as f:  # the encoding it is written in
        assert len(list(parse(f))) == len(_hands("cash-limits.txt"))


def test_bytes_are_refused() -> None:
    """Used to escape as AttributeError: 'int' object has no attribute 'rstrip'."""
    text = (DATA / "cash-limits.txt").read_text()
    with pytest.raises(TypeError, match=r"parse: source must be text \(str\), a path or a "
                       r"text stream, not bytes"):
        list(parse(text.encode()))
    with pytest.raises(TypeError, match=r"parse: source must give lines of text \(str\), not "
                       r"bytes \(open the file in text mode\)"):
        list(parse(io.BytesIO(text.encode())))


TENTHS = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [0.1, 0.2, 0]
min_bet = 0.2
starting_stacks = [10, 10, 10]
actions = ['d dh p1 2c3d', 'd dh p2 4c5d', 'd dh p3 6c7d', 'p3 cc', 'p1 f', 'p2 cc',
  'd db AsKsQs', 'p2 cc', 'p3 cc', 'd db Js', 'p2 cc', 'p3 cc', 'd db Ts', 'p2 cc', 'p3 cc']
"""


def test_a_hand_in_tenths_round_trips() -> None:
    """R32 in tenths: the board's royal flush splits 0.5 as 0.3 (the first winner left of the
    button) and 0.2. The export writes tenths, 0.1/0.2; the import used to read them as cents
    (0.25 each) and refuse the hand."""
    hh = loads(TENTHS)
    text = to_pokerstars(hh)
    assert "Player 2 collected 0.3 from pot" in text.splitlines()
    (back,) = parse(text)
    assert back.user_fields == {"_chip_unit": 0.1}
    assert replay(back).final_stacks == replay(hh).final_stacks == (9.9, 10.1, 10)


def test_generated_hands_in_chips_tenths_and_cents_round_trip() -> None:
    """300 random hands in chip units of 1, 0.1 and 0.01 export and import back the same."""
    units = set()
    for seed in range(300):
        rng = random.Random(seed)
        n = rng.randint(2, 6)
        game = Game(structure=rng.choice(list(Structure)), big_blind=2, ante=rng.choice([0, 1]),
                    rake=rng.choice([None, Rake(0.05, cap=3)]))
        state = game.new_hand([rng.choice([3, 11, 50, 201]) for _ in range(n)],
                              button=rng.randrange(n), seed=seed)
        _play_randomly(state, rng)
        unit = rng.choice([1, 0.1, 0.01])
        extra = {} if unit == 1 else {"chip_unit": unit, "currency_symbol": rng.choice(["$", ""])}
        hh = from_state(state, players=[f"p{i}" for i in range(n)], hand=seed, **extra)
        (back,) = parse(to_pokerstars(hh))
        for field in SAME:
            assert getattr(back, field) == getattr(hh, field), (seed, field)
        assert replay(back).final_stacks == replay(hh).final_stacks
        units.add(unit)
    assert len(units) == 3


def test_check_false_skips_the_replay() -> None:
    text = _bad("Total pot $2.50 | Rake $0.12", "Total pot $2.60 | Rake $0.12")
    fl, _ = parse(text, check=False)
    assert fl.finishing_stacks == (4.5, 7.73, 1.1, 4.8)


def test_text_that_is_not_a_hand_history() -> None:
    with pytest.raises(InvalidHistoryError, match=r"x\.txt: line 1: not a PokerStars hand"):
        list(parse("hello\nworld\n", name="x.txt"))
    with pytest.raises(InvalidHistoryError, match="not a hold'em hand"):
        list(parse("PokerStars Hand #1: Omaha Pot Limit ($0.01/$0.02) - 2020/01/01 00:00:00 ET\n"))


def test_a_mucked_unknown_hand_in_an_all_in_showdown_is_refused() -> None:
    """R33: with a player all in every hand is shown, so an unknown hand cannot be mucked."""
    text = (DATA / "cash-limits.txt").read_text().split("\n\n\n\n")[1]
    text = text.replace("Dealt to Hero [8s 8h]\n", "").replace(
        "Hero: shows [8s 8h] (a full house, Eights full of Kings)", "Hero: mucks hand").replace(
        "showed [8s 8h] and won ($99.50) with a full house, Eights full of Kings", "mucked")
    with pytest.raises(InvalidHistoryError, match=r"p1 mucks unknown cards, but every hand is "
                       r"shown at this showdown"):
        list(parse(text))


ENTRY = """\
PokerStars Hand #208055500011:  Hold'em No Limit ($0.05/$0.10 USD) - 2020/03/16 9:12:44 ET
Table 'Aludra IV' 6-max Seat #1 is the button
Seat 1: fishy_joe ($10.12 in chips)
Seat 2: Hero ($16.79 in chips)
Seat 3: nitwit77 ($9.53 in chips)
Seat 4: newcomer ($10 in chips)
Seat 5: sleepy ($9.85 in chips)
Seat 6: grinder_x ($17.91 in chips)
Hero: posts small blind $0.05
nitwit77: posts big blind $0.10
newcomer: posts big blind $0.10
sleepy: posts small & big blinds $0.15
*** HOLE CARDS ***
Dealt to Hero [Jc Jd]
newcomer: checks
sleepy: checks
grinder_x: folds
fishy_joe: folds
Hero: raises $0.80 to $0.90
nitwit77: folds
newcomer: folds
sleepy: calls $0.80
*** FLOP *** [2c 7h 9s]
Hero: bets $1
sleepy: folds
Uncalled bet ($1) returned to Hero
Hero collected $1.95 from pot
Hero: doesn't show hand
*** SUMMARY ***
Total pot $2.05 | Rake $0.10
Board [2c 7h 9s]
Seat 1: fishy_joe (button) folded before Flop (didn't bet)
Seat 2: Hero (small blind) collected ($1.95)
Seat 3: nitwit77 (big blind) folded before Flop
Seat 4: newcomer folded before Flop
Seat 5: sleepy folded on the Flop
Seat 6: grinder_x folded before Flop (didn't bet)
"""


def test_entry_and_missed_blinds() -> None:
    """R36: newcomer posts an entry big blind, live, so he may check (R6); sleepy, back from
    sitting out, posts his missed blinds: $0.10 live and $0.05 dead (Robert's Rules), then
    checks and calls Hero's raise. The pot: 0.90 + 0.10 + 0.10 + 0.90 + 0.05 dead = $2.05;
    Hero collects $1.95 after the $0.10 rake (his $1 flop bet comes back, R21)."""
    (hh,) = parse(ENTRY)
    assert hh.players == ("Hero", "nitwit77", "newcomer", "sleepy", "grinder_x", "fishy_joe")
    assert hh.user_fields["_extra_posts"] == [[2, 0.1, 0], [3, 0.1, 0.05]]
    r = replay(hh)
    assert [(p.seat, p.kind) for p in r.state.posts[2:]] == [
        (2, "entry_big_blind"), (3, "entry_big_blind"), (3, "dead_small_blind")]
    assert r.final_stacks == (17.84, 9.43, 9.9, 8.9, 17.91, 10.12) and r.ok
    back = next(parse(to_pokerstars(hh)))
    for field in SAME:
        assert getattr(back, field) == getattr(hh, field), field
    assert loads(dumps(hh)) == hh


def test_on_error_reports_a_bad_hand_and_reads_on() -> None:
    text = (DATA / "cash-nl-cents.txt").read_text()
    bad = text.replace("nitwit77: raises $0.15 to $0.25", "nitwit77: raises $0.15 to")
    errors: list[InvalidHistoryError] = []
    hands = list(parse("junk\n" + bad, on_error=errors.append))
    assert [h.hand for h in hands] == [208012345671, 208012345673]
    assert [str(e).split(": ")[0] for e in errors] == ["line 1", "hand #208012345672, line 62"]
    with pytest.raises(InvalidHistoryError, match="a raise reads 'raises X to Y'"):
        list(parse(bad))


@pytest.mark.parametrize(("fixture", "old", "new"), [
    ("cash-nl-cents.txt", "($0.05/$0.10 USD)", "(/$0.05/$0.10 USD)"),
    ("cash-nl-cents.txt", "($0.05/$0.10 USD)", "()"),
    ("cash-nl-cents.txt", "($0.05/$0.10 USD)", "($0.05/ USD)"),
    ("tournament-side-pots.txt", "Level VII (100/200)", "Level VII ()"),
])
def test_stakes_without_a_small_or_big_blind(fixture: str, old: str, new: str) -> None:
    """Headers whose stakes lack a blind used to escape as IndexError."""
    text = (DATA / fixture).read_text(encoding="utf-8").replace(old, new, 1)
    with pytest.raises(InvalidHistoryError,
                       match=r"the stakes (must read \(small/big\)|\(small/big\) are missing)"):
        list(parse(text))


KNOCKOUT = """\
PokerStars Hand #81234567890: Zoom Tournament #391827364, $1.00+$0.25+$0.15 USD Hold'em No Limit - Level III (25/50) - 2010/08/03 11:20:01 ET
Table '391827364 8' 9-max Seat #1 is the button
Seat 1: Marlowe (3000 in chips, $0.25 bounty)
Seat 2: Quince (465 in chips, $0.25 bounty)
Seat 3: Hero (2000 in chips, $0.25 bounty)
Seat 4: Ted the Mad (1500 in chips, $0.25 bounty)
Quince: posts small blind 25
Hero: posts big blind 50
Sleepy Sam: sits out
*** HOLE CARDS ***
Dealt to Hero [7c 4d]
Ted the Mad: folds [Ks]
Marlowe: raises 50 to 100
Quince: raises 365 to 465 and is all-in
Hero: folds
Marlowe: calls 365
*** FLOP *** [2d 8c Qh]
*** TURN *** [2d 8c Qh] [7h]
*** RIVER *** [2d 8c Qh 7h] [9h]
*** SHOW DOWN ***
Marlowe: shows [8s 8h] (three of a kind, Eights)
Quince: shows [3d 3c] (a pair of Threes)
Marlowe collected 980 from pot
Marlowe wins the $0.25 bounty for eliminating Quince
Marlowe, Hero split the $0.25 bounty for eliminating Quince
Marlowe wins $0.31 for eliminating Quince and their own bounty increases by $0.30 to $4
Quince finished the tournament in 56th place
*** SUMMARY ***
Total pot 980 | Rake 0
Board [2d 8c Qh 7h 9h]
Seat 1: Marlowe (button) showed [8s 8h] and won (980) with three of a kind, Eights
Seat 2: Quince (small blind) showed [3d 3c] and lost with a pair of Threes
Seat 3: Hero (big blind) folded before Flop
Seat 4: Ted the Mad folded before Flop (didn't bet)
"""


def test_lines_pokerstars_writes_that_are_not_the_hand() -> None:
    """Lines of real PokerStars files used to stop the import as 'not a PokerStars hand-history
    line' or 'hold'em deals two hole cards': a player who is not seated sitting out
    ("Sleepy Sam: sits out"), the knockout bounties (won, split, progressive; paid outside the
    pot), a fold showing one card ("folds [Ks]") and a Zoom tournament's header. Pot: 465 +
    465 + 50 = 980 to Marlowe's set."""
    (hh,) = parse(KNOCKOUT)
    assert hh.event == "Zoom Tournament #391827364, $1.00+$0.25+$0.15 USD" and hh.level == 3
    assert hh.players == ("Quince", "Hero", "Ted the Mad", "Marlowe")
    assert hh.actions[2].cards == (None, None)  # one card shown: the hand stays unknown
    r = replay(hh)
    assert r.final_stacks == (0, 1950, 1500, 3515) and r.ok
    # the export writes the Zoom tournament's header back, with its level
    text = to_pokerstars(hh)
    assert text.splitlines()[0].startswith(
        "PokerStars Hand #81234567890: Zoom Tournament #391827364, $1.00+$0.25+$0.15 USD "
        "Hold'em No Limit - Level III (25/50) - 2010/08/03")
    back = next(parse(text))
    assert (back.event, back.level) == (hh.event, hh.level)


def test_a_cashed_out_hand_is_refused_by_name() -> None:
    """PokerStars' all-in cash out pays outside the pot: refused as such, not as 'not a
    PokerStars hand-history line'."""
    text = KNOCKOUT.replace("Marlowe wins the $0.25 bounty for eliminating Quince\n",
                            "Quince cashed out the hand for 100 | Cash Out Fee 2\n")
    with pytest.raises(InvalidHistoryError, match=r"hand #81234567890, line 24: the hand was "
                       r"cashed out .*not supported: 'Quince cashed out the hand for 100"):
        list(parse(text))


def test_a_home_game_hand() -> None:
    """A Home Game's header names the club in braces before the game: it used to be refused
    as an unknown game '{club}'."""
    text = """\
PokerStars Home Game Hand #90817263540: {Thursday Club}  Hold'em No Limit (1/2) - 2012/01/28 20:58:29 ET
Table 'Kitchen' 9-max (Play Money) Seat #5 is the button
Seat 4: Player0 (400 in chips)
Seat 5: Hero (150 in chips)
Hero: posts small blind 1
Player0: posts big blind 2
*** HOLE CARDS ***
Dealt to Hero [4d Jd]
Hero: calls 1
Player0: checks
*** FLOP *** [Qs Ah Ks]
Player0: checks
Hero said, "hey"
Hero: checks
*** TURN *** [Qs Ah Ks] [8s]
Player0: bets 2
Hero: folds
Uncalled bet (2) returned to Player0
Player0 collected 4 from pot
*** SUMMARY ***
Total pot 4 | Rake 0
Board [Qs Ah Ks 8s]
Seat 4: Player0 (big blind) collected (4)
Seat 5: Hero (button) (small blind) folded on the Turn
"""
    (hh,) = parse(text)
    assert hh.hand == 90817263540 and hh.event is None and hh.table == "Kitchen"
    assert hh.players == ("Player0", "Hero") and hh.finishing_stacks == (402, 148)


def test_one_card_shown_after_an_uncontested_win_is_read() -> None:
    """A winner who shows one card after everyone folded (``shows [Kd] (high card King)``, as
    a player may choose) was refused: "a hold'em player shows two hole cards". It reads as
    ``folds [Ks]`` does: the hand stays unknown, the rest is the same hand."""
    text = (DATA / "cash-nl-cents.txt").read_text()
    one = text.replace("nitwit77: doesn't show hand", "nitwit77: shows [Kd] (high card King)")
    assert one != text
    assert list(parse(one)) == list(parse(text))
    with pytest.raises(InvalidHistoryError, match="shows two hole cards"):  # three: not hold'em
        list(parse(text.replace("nitwit77: doesn't show hand", "nitwit77: shows [Kd Qd Jd]")))


@pytest.mark.parametrize(("currency", "expected"), [
    ("USD", "USD"), ("EUR", "EUR"), ("U5D", None), ("12", None),
])
def test_the_currency_is_a_word_of_letters(currency: str, expected: str | None) -> None:
    """The word after the stakes is the currency only when it is letters: ``U5D`` is none."""
    text = (DATA / "cash-nl-cents.txt").read_text(encoding="utf-8")
    h1 = next(parse(text.replace("($0.05/$0.10 USD)", f"($0.05/$0.10 {currency})", 1)))
    assert h1.currency == expected
    assert h1.blinds_or_straddles == (0.05, 0.1, 0, 0, 0)


@pytest.mark.parametrize(("level", "expected"), [
    ("Level VII", 7), ("Level II", 2), ("Level \t", None), ("Level ", None),
])
def test_a_tournament_level_without_a_number_is_none(level: str, expected: int | None) -> None:
    """A header's ``Level`` with no numeral reads as no level (None), not level 0."""
    text = (DATA / "tournament-side-pots.txt").read_text(encoding="utf-8")
    first = next(parse(text.replace("Level VII", level, 1)))
    assert first.level == expected



def test_imported_user_fields_cannot_be_changed() -> None:
    """The import's fast path builds its histories without the constructor: their
    ``user_fields`` refuse changes as a constructed history's do (they were plain dicts)."""
    h1 = _hands("cash-nl-cents.txt")[0]
    assert h1.user_fields == {"_chip_unit": 0.01, "_rake": 0.65, "_total_pot": 14.65}
    with pytest.raises(TypeError, match="cannot be changed"):
        h1.user_fields["_rake"] = 0.0  # type: ignore[index]
    assert h1.user_fields["_rake"] == 0.65 and h1 == loads(dumps(h1))
