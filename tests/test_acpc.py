"""The ACPC protocol (holdem.acpc): gamedefs, MATCHSTATE lines <-> HandState, STATE logs."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import holdem
from holdem import (
    Action,
    ActionType,
    ExtraPost,
    Game,
    HoldemError,
    ProtocolError,
    Street,
    Structure,
    acpc,
    phh,
)

DATA = Path(__file__).parent / "data" / "acpc"
NL2 = acpc.parse_gamedef((DATA / "holdem.nolimit.2p.reverse_blinds.game").read_text())
FL2 = acpc.parse_gamedef(acpc.HEADS_UP_LIMIT)
FL3 = acpc.parse_gamedef((DATA / "holdem.limit.3p.game").read_text())
NL6 = acpc.parse_gamedef((DATA / "holdem.nolimit.6p.game").read_text())


# --- gamedefs -----------------------------------------------------------------------------


def test_gamedef_heads_up_no_limit() -> None:
    assert NL2.game == holdem.Game(big_blind=100, small_blind=50)
    assert NL2.starting_stacks == (20000, 20000)
    assert acpc.parse_gamedef(str(NL2)) == NL2


def test_gamedef_limit_caps_match_holdem_max_raises() -> None:
    # ACPC maxRaises 3 4 4 4 counts raises (the big blind is no raise; a postflop bet is one):
    # holdem's max_raises=3 is "a bet and three raises, the big blind counting as the bet".
    game = FL2.game
    assert (game.structure, game.big_blind, game.small_blind) == (
        holdem.Structure.FIXED_LIMIT, 10, 5)
    assert (game.small_bet, game.big_bet, game.max_raises) == (10, 20, 3)
    state = FL2.new_hand(seed=1)
    for _ in range(3):
        state.apply(acpc.to_action(state, "r"))
    assert not state.legal_actions().can_raise  # 10, 20, 30, 40: capped after three raises
    with pytest.raises(ProtocolError, match="may not raise"):
        acpc.to_action(state, "r")
    state.apply(acpc.to_action(state, "c"))
    for _ in range(4):
        state.apply(acpc.to_action(state, "r"))
    assert not state.legal_actions().can_raise  # flop: a bet and three raises


def test_gamedef_limit_stacks_never_bind() -> None:
    # limit has no stacks in ACPC; holdem's stand-in is deeper than any capped betting
    ms = acpc.parse_matchstate("MATCHSTATE:0:0:rrrc/rrrrc/rrrrc/rrrr:|/2c3c4c/5c/6c")
    state = ms.to_state(FL2)  # every round capped; the river's fourth raise is position 1's
    assert state.actor == 0 and state.stacks[0] > 0 and state.legal_actions().can_raise is False


def test_gamedef_seat_mapping_r3_heads_up() -> None:
    # R3: heads-up the button (ACPC position 1, blind 50) acts first preflop, last after
    state = NL2.new_hand(seed=2)
    assert state.button == 1 and state.bets == (100, 50) and state.actor == 1
    state.apply(acpc.to_action(state, "c"))
    state.apply(acpc.to_action(state, "c"))
    assert state.street is Street.FLOP and state.actor == 0


def test_gamedef_seat_mapping_multiway() -> None:
    # firstPlayer = 3 1 1 1: position 2 first preflop, position 0 (small blind) after
    state = NL6.new_hand(seed=2)
    assert state.bets == (50, 100, 0, 0, 0, 0) and state.actor == 2 and state.button == 5
    state3 = FL3.new_hand(seed=2)
    assert state3.bets == (5, 10, 0) and state3.actor == 2


@pytest.mark.parametrize(("change", "message"), [
    (("numSuits = 4", "numSuits = 2"), "standard hold'em deck"),
    (("numRanks = 13", "numRanks = 3"), "standard hold'em deck"),
    (("numHoleCards = 2", "numHoleCards = 1"), "standard hold'em deck"),
    (("numBoardCards = 0 3 1 1", "numBoardCards = 0 1"), "numBoardCards"),
    (("firstPlayer = 2 1 1 1", "firstPlayer = 1 2 2 2"), "firstPlayer"),
    (("blind = 100 50", "blind = 50 100"), "blind"),
    (("stack = 20000 20000", "stack = 20000 100"), "stack"),
    (("END GAMEDEF", ""), "END GAMEDEF"),
    (("nolimit", "potlimit"), "pot limit"),
    (("numRounds = 4", "numRounds = 4\nbogus = 1"), "unknown key"),
    (("numRounds = 4", "numRounds = x"), "integer"),
])
def test_gamedef_refuses_non_standard(change: tuple[str, str], message: str) -> None:
    text = acpc.HEADS_UP_NO_LIMIT.replace(*change)
    with pytest.raises(ProtocolError, match=message):
        acpc.parse_gamedef(text)


def test_gamedef_limit_refusals() -> None:
    with pytest.raises(ProtocolError, match="raiseSize"):
        acpc.parse_gamedef(acpc.HEADS_UP_LIMIT.replace("raiseSize = 10 10 20 20",
                                                       "raiseSize = 10 20 20 20"))
    with pytest.raises(ProtocolError, match="maxRaises"):
        acpc.parse_gamedef(acpc.HEADS_UP_LIMIT.replace("maxRaises = 3 4 4 4",
                                                       "maxRaises = 3 3 4 4"))


def test_parse_game_one_reader_for_gamedefs_and_universal_poker() -> None:
    """One reader: a universal_poker(...) string and the gamedef it names give the same
    GameDef; its errors are ProtocolErrors and InvalidConfigErrors both."""
    up = ("universal_poker(betting=nolimit,numPlayers=2,numRounds=4,blind=100 50,"
          "firstPlayer=2 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,"
          "stack=20000 20000)")
    assert acpc.parse_game(up) == NL2 == acpc.parse_gamedef(up)
    assert acpc.parse_game(up.replace(")", ",bettingAbstraction=fcpa)")).betting_abstraction \
        == "fcpa"
    assert issubclass(acpc.GameDefError, ProtocolError)
    assert issubclass(acpc.GameDefError, holdem.InvalidConfigError)
    for bad, message in ((up.replace("numRounds=4", "numRounds=3"), "numRounds"),
                         (up.replace(")", ",potSize=200)"), "subgames"),
                         (up.replace(")", ",bogus=1)"), "unknown parameter 'bogus'"),
                         (up.replace("blind=100 50", "blind=100 50 0"), "one number per")):
        with pytest.raises(acpc.GameDefError, match=message):
            acpc.parse_game(bad)


def test_unequal_stacks_read_once_refused_by_the_protocol_only() -> None:
    """Unequal stacks: parse_game reads them (the OpenSpiel game plays them); the protocol
    code refuses them, naming why (a short all-in raise reopens the betting for ACPC's dealer,
    not for holdem, R24)."""
    text = acpc.HEADS_UP_NO_LIMIT.replace("stack = 20000 20000", "stack = 20000 100")
    gd = acpc.parse_game(text)
    assert gd.stacks == (20000, 100) and gd.new_hand(seed=1).stacks == (19900, 50)
    with pytest.raises(ProtocolError, match=r"equal stacks only.*R24"):
        gd.check_protocol()
    with pytest.raises(ProtocolError, match="equal stacks only"):
        acpc.parse_matchstate("MATCHSTATE:0:0::AsKd|").to_state(gd)


def test_dealer_on_another_position_read_once_refused_by_the_protocol() -> None:
    # 3 players, the dealer on position 0: small blind on 1, big blind on 2, position 0 first
    text = (acpc.HEADS_UP_LIMIT.replace("numPlayers = 2", "numPlayers = 3")
            .replace("blind = 10 5", "blind = 0 5 10").replace("firstPlayer = 2 1 1 1",
                                                                "firstPlayer = 1 2 2 2"))
    gd = acpc.parse_game(text)
    assert gd.button == 0 and gd.first_players == (1, 2, 2, 2)
    state = gd.new_hand(seed=3)
    assert state.button == 0 and state.bets == (0, 5, 10) and state.actor == 0
    assert acpc.parse_game(str(gd)) == gd
    with pytest.raises(ProtocolError, match="dealer on the last position"):
        acpc.parse_gamedef(text)
    with pytest.raises(ProtocolError, match=r"firstPlayer 3 1 1 1 does not fit blind 0 5 10"):
        acpc.parse_game(text.replace("firstPlayer = 1 2 2 2", "firstPlayer = 3 1 1 1"))


def test_street_raise_to_is_the_protocols_conversion() -> None:
    # the one conversion: r<total over the hand> less what went in before this street
    state = acpc.parse_matchstate("MATCHSTATE:0:0:r300c/c:AsKd|/2c7d9h").to_state(NL2)
    assert acpc.street_raise_to(900, 300) == 600 == acpc.to_action(state, "r900").to
    with pytest.raises(ProtocolError, match="not above"):
        acpc.to_action(state, "r300")


# --- MATCHSTATE lines --------------------------------------------------------------------

# The limit example exchange of the ACPC protocol description (position 1 is the button).
PROTOCOL_EXAMPLE = [
    ("MATCHSTATE:0:0::TdAs|", 1),
    ("MATCHSTATE:1:0::|Qd7c", 1),
    ("MATCHSTATE:0:0:r:TdAs|", 0),
    ("MATCHSTATE:0:0:rc/:TdAs|/2c8c3h", 0),
    ("MATCHSTATE:1:0:rc/r:|Qd7c/2c8c3h", 1),
    ("MATCHSTATE:1:0:rc/rc/:|Qd7c/2c8c3h/9c", 0),
]


@pytest.mark.parametrize(("line", "actor"), PROTOCOL_EXAMPLE)
def test_matchstate_protocol_example(line: str, actor: int) -> None:
    ms = acpc.parse_matchstate(line)
    assert str(ms) == line
    state = ms.to_state(FL2)
    assert state.actor == actor
    assert acpc.matchstate_of(state, ms.position, ms.hand_number) == ms


def test_matchstate_fields() -> None:
    ms = acpc.parse_matchstate("MATCHSTATE:1:30:r300c/cr900:|9hQd/8dAs8s\r\n")
    assert (ms.position, ms.hand_number) == (1, 30)
    assert ms.betting == (("r300", "c"), ("c", "r900"))
    assert ms.hole_cards == (None, (holdem.Card("9h"), holdem.Card("Qd")))
    assert ms.board == tuple(holdem.parse_cards("8dAs8s"))


def test_raise_to_total_over_hand_is_converted_to_street_amount() -> None:
    # "r900" on the flop after 300 each preflop: the street amount is 900 - 300 = 600
    state = acpc.parse_matchstate("MATCHSTATE:0:0:r300c/c:AsKd|/2c7d9h").to_state(NL2)
    assert state.actor == 1 and state.committed == (300, 300) and state.bets == (0, 0)
    assert acpc.to_action(state, "r900") == Action(ActionType.BET_RAISE, 600)
    state.apply(acpc.to_action(state, "r900"))
    assert state.bets == (0, 600) and state.committed == (300, 900)
    # and back: a raise to 1800 on the street is 2100 over the hand
    assert acpc.acpc_action(state, Action.raise_to(1800)) == "r2100"
    assert acpc.acpc_action(state, "cc") == "c"
    assert acpc.acpc_action(state, "f") == "f"
    assert acpc.acpc_action(state, Action.all_in()) == "r20000"
    # preflop the blinds count: the button's raise to 300 is r300, street amount 300
    pre = NL2.new_hand(seed=1)
    assert acpc.to_action(pre, "r300") == Action(ActionType.BET_RAISE, 300)
    assert acpc.acpc_action(pre, Action.raise_to(300)) == "r300"


def test_no_limit_min_raise_and_all_in() -> None:
    state = NL2.new_hand(seed=1)
    with pytest.raises(ProtocolError, match=r"not legal.*r200\.\.r20000"):
        acpc.to_action(state, "r150")  # below the minimum raise to 200
    state.apply(acpc.to_action(state, "r20000"))
    assert state.stacks[1] == 0
    assert acpc.matchstate_of(state, 0).betting == (("r20000",),)
    state.apply(acpc.to_action(state, "c"))
    assert state.is_terminal()
    assert acpc.matchstate_of(state, 0).betting_text == "r20000c///"


def _random_hand(gamedef: acpc.GameDef, seed: int) -> list[holdem.HandState]:
    """Every intermediate state of one hand played by random agents."""
    state = gamedef.new_hand(seed=seed)
    states = [state.clone()]
    rng = random.Random(seed)
    while not state.is_terminal():
        la = state.legal_actions()
        if la.can_raise and rng.random() < 0.3:
            assert la.min_to is not None and la.max_to is not None
            state.apply(Action(ActionType.BET_RAISE, rng.randint(la.min_to, la.max_to)))
        elif la.can_fold and rng.random() < 0.1:
            state.fold()
        else:
            state.check_or_call()
        states.append(state.clone())
    return states


@pytest.mark.parametrize("gamedef", [NL2, FL2, FL3, NL6], ids=["nl2", "fl2", "fl3", "nl6"])
def test_matchstate_round_trip_random_hands(gamedef: acpc.GameDef) -> None:
    for seed in range(40):
        for state in _random_hand(gamedef, seed):
            for position in range(gamedef.num_players):
                ms = acpc.matchstate_of(state, position, seed)
                line = str(ms)
                again = acpc.parse_matchstate(line)
                assert again == ms and str(again) == line
                back = again.to_state(gamedef)
                assert back.history == state.history
                assert (back.actor, back.street, back.bets, back.committed, back.stacks) == (
                    state.actor, state.street, state.bets, state.committed, state.stacks)
                assert back.hole_cards[position] == state.hole_cards[position]
                if state.is_terminal():
                    assert back.payoffs == state.payoffs


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "message"), [
    ("MATCHSTATE:0:0:cc", "not a MATCHSTATE"),
    ("MATCH:0:0:cc:AsKd|", "not a MATCHSTATE"),
    ("MATCHSTATE:x:0::AsKd|", "position"),
    ("MATCHSTATE:2:0::AsKd|", "position 2"),
    ("MATCHSTATE:0:-1::AsKd|", "hand number"),
    ("MATCHSTATE:0:0:k:AsKd|", "unknown action 'k'"),
    ("MATCHSTATE:0:0::AsKx|", "not a card"),
    ("MATCHSTATE:0:0::AsK|", "two-character"),
    ("MATCHSTATE:0:0::AsAs|", "dealt twice"),
    ("MATCHSTATE:0:0::AsKd|KdQc", "dealt twice"),
    ("MATCHSTATE:0:0::AsKdQc|", "3 hole cards"),
    ("MATCHSTATE:0:0:cc/:AsKd|/2c7d", "deals 3 board cards"),
    ("MATCHSTATE:0:0:c/c/c/c/c:AsKd|", "5 rounds"),
    ("MATCHSTATE:0:0::AsKd", "hole-card fields"),
])
def test_matchstate_malformed(line: str, message: str) -> None:
    with pytest.raises(ProtocolError, match=message):
        acpc.parse_matchstate(line)


@pytest.mark.parametrize(("line", "message"), [
    ("MATCHSTATE:0:0:cc:AsKd|", "the board needs 3 cards"),
    ("MATCHSTATE:0:0::AsKd|/2c7d9h", "reaches round 0 but the cards show the board of 1"),
    ("MATCHSTATE:0:0:cc/:AsKd|", "reaches round 1 but the cards show the board of 0"),
    ("MATCHSTATE:0:0:c/:AsKd|/2c7d9h", "starts before round 0 closed"),
    ("MATCHSTATE:0:0:ccc:AsKd|", "the board needs 3 cards"),
    ("MATCHSTATE:0:0:r50:AsKd|", "not legal"),
    ("MATCHSTATE:0:0:r:AsKd|", "without an amount"),
    ("MATCHSTATE:0:0:cf:AsKd|", r"'f' is not legal here; allowed: c, r200\.\.r20000"),
    ("MATCHSTATE:0:0:r20000cc///:AsKd|QcQd/2c7d9h/3s/4d", "after the round or hand closed"),
    ("MATCHSTATE:0:0:r20000c//:AsKd|QcQd/2c7d9h/3s/4d", "reaches round 2 but the cards"),
    ("MATCHSTATE:0:0:fc:AsKd|", "after the round or hand closed"),
    ("MATCHSTATE:0:0:f/:AsKd|/2c7d9h", "ended in round 0"),
    ("MATCHSTATE:0:0:r300c/r350:AsKd|/2c7d9h", "not legal"),
    ("MATCHSTATE:0:0::AsKd|Qc7h|2d2h", "3 hole-card fields for a 2-player game"),
])
def test_matchstate_illegal_play(line: str, message: str) -> None:
    ms = acpc.parse_matchstate(line)
    with pytest.raises(ProtocolError, match=message) as info:
        ms.to_state(NL2)
    assert line in str(info.value)  # the message names the line


def test_limit_raise_with_wrong_amount() -> None:
    with pytest.raises(ProtocolError, match="limit raise 'r30' must be to 20"):
        acpc.parse_matchstate("MATCHSTATE:0:0:r30:AsKd|").to_state(FL2)
    assert acpc.parse_matchstate("MATCHSTATE:0:0:r20:AsKd|").to_state(FL2).bets == (10, 20)


_ALPHABET = "MATCHSTATE:0123456789|/rcfAKQJT98sdhc\r\n x-"


@given(st.text(max_size=80))
def test_fuzz_random_text_raises_only_protocol_error(text: str) -> None:
    for parse in (acpc.parse_matchstate, acpc.parse_log_line, acpc.parse_gamedef):
        with contextlib.suppress(ProtocolError):
            parse(text)


@given(st.text(alphabet=_ALPHABET, max_size=60), st.text(alphabet="rcf0123456789/", max_size=30))
def test_fuzz_near_miss_lines_raise_only_protocol_error(text: str, betting: str) -> None:
    for line in (text, f"MATCHSTATE:0:1:{betting}:AsKd|", f"MATCHSTATE:1:1:{betting}:|AsKd"
                 + "/2c3c4c/5c/6c" * (betting.count("/") > 0)):
        with contextlib.suppress(ProtocolError):
            ms = acpc.parse_matchstate(line)
            for gamedef in (NL2, FL2):
                with contextlib.suppress(ProtocolError):
                    ms.to_state(gamedef)
        with contextlib.suppress(ProtocolError):
            acpc.import_state_line(line.replace("MATCHSTATE:0", "STATE") + ":0|0:a|b", NL2)


@given(st.text(max_size=24))
def test_fuzz_to_action_raises_only_protocol_error(token: str) -> None:
    for gamedef in (NL2, FL2):
        state = gamedef.new_hand(seed=5)
        with contextlib.suppress(ProtocolError):
            state.apply(acpc.to_action(state, token))
    state = NL2.new_hand(seed=5)
    for huge in ("r" + "9" * 16, "r" + "9" * 17, "r0", "r-5", "r\u00b2"):
        with pytest.raises(ProtocolError, match=r"raise|not legal"):
            acpc.to_action(state, huge)


def test_protocol_error_is_a_holdem_error() -> None:
    assert issubclass(ProtocolError, HoldemError) and issubclass(ProtocolError, ValueError)
    assert holdem.ProtocolError is ProtocolError


# --- STATE logs ---------------------------------------------------------------------------


def test_import_log_of_a_stream_that_is_not_text_in_its_encoding(tmp_path: Path) -> None:
    """Used to let the UnicodeDecodeError of the caller's stream escape."""
    path = tmp_path / "match.log"
    path.write_bytes((DATA / "nolimit.2p.log").read_bytes().replace(b"#", b"# \xe9", 1))
    with open(path, encoding="utf-8") as f, pytest.raises(ProtocolError) as info:
        acpc.import_log(f, NL2)
    assert str(info.value) == (f"{path}: the stream is not valid utf-8 text (byte 0xe9: invalid "
                               "continuation byte): open the file with the encoding it is "
                               "written in")
    assert isinstance(info.value.__cause__, UnicodeDecodeError)
    with open(path, encoding="latin-1") as f:  # the encoding it is written in
        assert len(acpc.import_log(f, NL2)) == 5


@pytest.mark.parametrize(("gamedef", "log", "count"), [
    (NL2, "nolimit.2p.log", 5), (FL3, "limit.3p.log", 2), (NL6, "pluribus.6p.log", 1)])
def test_import_log_replays_exactly(gamedef: acpc.GameDef, log: str, count: int) -> None:
    lines = (DATA / log).read_text().splitlines()
    histories = acpc.import_log(lines, gamedef)
    assert len(histories) == count
    states = [acpc.parse_log_line(x) for x in lines if x.startswith("STATE:")]
    for hh, line in zip(histories, states, strict=True):
        assert hh.players == line.players and hh.hand == line.hand_number
        rep = holdem.replay(phh.loads(str(hh)))  # through the PHH text
        assert rep.ok
        assert rep.state.payoffs == tuple(int(x) for x in line.outcome)
        assert str(line) in (DATA / log).read_text()


def test_import_state_line_checks_outcome() -> None:
    good = "STATE:0:r300c/cr900f:AsKd|QhQc/2c7d9h:-300|300:alice|bob"
    assert acpc.import_state_line(good, NL2).finishing_stacks == (19700, 20300)
    with pytest.raises(ProtocolError, match=r"position 0 \(alice\) wins -300 by the rules, "
                                            r"the log says -200"):
        acpc.import_state_line(good.replace("-300|300", "-200|200"), NL2)
    with pytest.raises(ProtocolError, match="sum to"):
        acpc.import_state_line(good.replace("-300|300", "-300|200"), NL2)
    # a fraction is no licence to be a chip off: only a tied pot's even split is fractional
    with pytest.raises(ProtocolError, match=r"wins 50 by the rules, the log says 50\.9"):
        acpc.import_state_line("STATE:3:f:AsKd|AhKh:50.9|-50.9:a|b", NL2)
    chop = "STATE:3:cc/cc/cc/cc:AsKd|AhKh/2c7d9h/3s/4s:{}:a|b"  # an even chop: 0 each
    assert acpc.import_state_line(chop.format("0|0"), NL2).finishing_stacks == (20000, 20000)
    with pytest.raises(ProtocolError, match=r"wins 0 by the rules, the log says -0\.5"):
        acpc.import_state_line(chop.format("-0.5|0.5"), NL2)
    with pytest.raises(ProtocolError, match="not over"):
        acpc.import_state_line("STATE:0:r300c/c:AsKd|QhQc/2c7d9h:0|0:a|b", NL2)
    with pytest.raises(ProtocolError, match="not a STATE"):
        acpc.import_state_line("STATE:0:f:AsKd|QhQc:0|0", NL2)
    with pytest.raises(ProtocolError, match="must agree"):
        acpc.import_state_line("STATE:0:f:AsKd|QhQc:50|-50|0:a|b", NL2)


def test_import_state_line_showdown_needs_cards() -> None:
    with pytest.raises(ProtocolError, match="STATE:1"):
        acpc.import_state_line("STATE:1:cc/cc/cc/cc:AsKd|/2c7d9h/3s/4d:-100|100:a|b", NL2)


def test_module_docstring_examples() -> None:
    import doctest

    failed, tried = doctest.testmod(acpc, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failed == 0


def test_import_fractional_split_r32_odd_chip() -> None:
    # ACPC splits a pot in fractions (valueOfState is a double): 25 chips tied between
    # positions 1 and 2 are 12.5 each. holdem gives the odd chip to the first winner left of
    # the button (R32: position 1), so the replay is off by less than a chip, as documented.
    line = "STATE:7:cfc/cc/cc/cc:2c3d|AsKh|AdKs/4c7d9h/Ts/2h:-5|2.5|2.5:x|y|z"
    hh = acpc.import_state_line(line, FL3)
    assert holdem.replay(hh).state.payoffs == (-5, 3, 2)
    with pytest.raises(ProtocolError, match="position 1"):
        acpc.import_state_line(line.replace("-5|2.5|2.5", "-5|1.5|3.5"), FL3)


def test_import_a_three_way_split_as_the_dealer_writes_it() -> None:
    # 50 chips tied three ways are 16.666667 each in the log ("%.6f"), which sums to
    # 1/1000000, not 0: the line was refused before its outcome was compared with the rules'
    line = ("STATE:7:ccfffc/ccc/ccc/ccc:2c3c|4d5d|6h7h|8c9d|2h3h|4s5s/AsKsQs/Js/Ts:"
            "-50|16.666667|16.666667|16.666667|-0|-0:a|b|c|d|e|f")
    hh = acpc.import_state_line(line, NL6)
    assert holdem.replay(hh).state.payoffs == (-50, 17, 17, 16, 0, 0)  # R32: odd chips
    with pytest.raises(ProtocolError, match="sum to"):  # a chip off is still refused
        acpc.import_state_line(line.replace("-50|", "-49|"), NL6)


def test_street_raise_to_refuses_bad_numbers() -> None:
    """Amounts that are not ints in 0..2**53 raise GameDefError (a ProtocolError)."""
    for args in ((2**80, 3), (1.5, 0), ("9", 0), (10, -3), (True, 0)):
        with pytest.raises(ProtocolError, match="must be an int"):
            acpc.street_raise_to(*args)
    assert acpc.street_raise_to(900, 300) == 600
    import numpy as np

    got = acpc.street_raise_to(np.int64(900), np.uint16(300))  # they were refused
    assert got == 600 and type(got) is int


@pytest.mark.parametrize("outcome", ["\u00b2", "-\u00b9\u00b2", "3.\u0661"])
def test_unicode_digits_in_an_outcome_are_a_protocol_error(outcome: str) -> None:
    # str.isdigit() holds for them but Fraction() refused them with a plain ValueError
    with pytest.raises(acpc.ProtocolError, match="is not a number"):
        acpc.parse_log_line(f"STATE:0:r300c/cr900f:AsKd|QhQc/2c7d9h:{outcome}|300:alice|bob")


@pytest.mark.parametrize(("args", "what"), [
    ((False, 10**12, (1, 2)), "num_players"), ((False, 2, (1, 2, 3)), "blinds"),
    ((False, 2, [1, 2]), "blinds"), ((False, 2, (1, 2), (100,)), "stacks"),
    ((False, True, (1, 2)), "num_players"), ((False, 2, (1, -2)), "blinds"),
    # these gave an AssertionError later (.game, .new_hand()), or a GameDef whose gamedef text
    # says other bets than the game holdem plays (raiseSize 10 20 20 20 played 10 on the flop)
    ((True, 2, (10, 5)), "a limit game needs raise_sizes"),
    ((True, 2, (10, 5), None, (10, 10, 20, 20)), "a limit game needs max_raises"),
    ((True, 2, (10, 5), None, (10, 10, 20), (3, 4, 4)), "a limit game needs raise_sizes"),
    ((True, 2, (10, 5), None, (10, 20, 20, 20), (3, 4, 4, 4)), r"raise_sizes .* must be"),
    ((True, 2, (10, 5), None, (10, 10, 20, 20), (3, 3, 4, 4)), r"max_raises .* must be"),
    ((False, 2, (100, 50)), "a no-limit game needs stacks"),
    ((False, 2, (100, 50), (200, 200), (1, 2, 3, 4)), "raise_sizes apply to limit games"),
    ((False, 2, (100, 50), (200, 200), None, None, "bogus"), "betting_abstraction"),
    ((False, 3, (50, 100, 0), (200, 200, 0)), "stacks must be positive"),
    ((1, 2, (100, 50), (200, 200)), "limit must be a bool"),
    ((False, 3, (0, 0, 0), (200, 200, 200)), "blind structure"),
])
def test_gamedef_made_directly_is_checked(args: tuple[object, ...], what: str) -> None:
    # GameDef(False, 10**12, (1, 2)).button tried every position: MemoryError
    with pytest.raises(acpc.GameDefError, match=rf"GameDef: .*{what}"):
        acpc.GameDef(*args)  # type: ignore[arg-type]
    assert acpc.GameDef(False, 2, (2, 1), (200, 200)).button == 1


@pytest.mark.parametrize("game", [
    Game(big_blind=2, ante=1), Game(big_blind=2, straddle=True),
    Game(big_blind=2, structure=Structure.POT_LIMIT),
])
def test_matchstate_of_refuses_what_acpc_cannot_say(game: Game) -> None:
    # the line was written anyway, with amounts that count the ante (ACPC has none)
    state = game.new_hand([200, 200, 200], seed=1)
    state.check_or_call()
    with pytest.raises(ProtocolError, match="no antes, straddle or pot limit"):
        acpc.matchstate_of(state, 0)


@pytest.mark.parametrize("kwargs", [
    {"dead_hands": [2]}, {"extra_posts": [ExtraPost(2, live=2, dead=1)]},
    {"dead_small_blind": True},
])
def test_matchstate_of_refuses_forced_bets_acpc_has_not(kwargs: dict[str, object]) -> None:
    # a dead hand gave a bare AssertionError (under -O a line where the dead seat acted); an
    # extra post a line of another hand (no entry bet, the dead chip gone from the pot)
    state = Game(big_blind=2).new_hand([100] * 4, button=3, seed=1, **kwargs)  # type: ignore[arg-type]
    state.check_or_call()
    with pytest.raises(ProtocolError, match="the two blinds only"):
        acpc.matchstate_of(state, 0)
    plain = Game(big_blind=2).new_hand([100] * 4, button=3, seed=1)
    plain.check_or_call()
    assert str(acpc.matchstate_of(plain, 0)).startswith("MATCHSTATE:0:0:c:")


def test_the_helpers_name_a_state_that_is_not_a_hand() -> None:
    # AttributeError: 'NoneType' object has no attribute 'actor'
    for call in (lambda: acpc.to_action(None, "c"), lambda: acpc.acpc_action(None, "c"),  # type: ignore[arg-type]
                 lambda: acpc.matchstate_of(None, 0)):  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"state must be a holdem\.HandState, got NoneType"):
            call()


@pytest.mark.parametrize("text", [
    acpc.HEADS_UP_NO_LIMIT.replace("stack = 20000 20000", "stack = 60 60"),
    acpc.HEADS_UP_NO_LIMIT.replace("stack = 20000 20000", "stack = 100 40"),
    "universal_poker(betting=nolimit,numPlayers=2,numRounds=4,blind=100 50,firstPlayer=2 1 1 1,"
    "numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,stack=60 60)",
])
def test_gamedef_blind_greater_than_stack_is_refused(text: str) -> None:
    # ACPC's readGame (and so OpenSpiel's universal_poker) refuses a blind above its stack;
    # it was read, and holdem posted a short all-in blind the gamedef does not describe
    with pytest.raises(acpc.GameDefError, match=r"blind of position \d \(\d+\) is greater "
                                                r"than its stack"):
        acpc.parse_game(text)
    with pytest.raises(acpc.GameDefError, match=r"GameDef: the blind of position 0 \(100\)"):
        acpc.GameDef(False, 2, (100, 50), (60, 60))
    assert acpc.parse_game(acpc.HEADS_UP_NO_LIMIT.replace("20000 20000", "100 100")).stacks \
        == (100, 100)  # a blind equal to the stack: all in from the start, as in ACPC


def test_a_gamedef_beyond_the_engines_chips_is_refused_when_read() -> None:
    """Stacks above 2**53 chips (or a limit game whose raises can bet that many) were
    accepted, then every MATCHSTATE line failed, blamed on the line."""
    top = 2**53
    deep = acpc.HEADS_UP_NO_LIMIT.replace("stack = 20000 20000", f"stack = {top} {top}")
    assert acpc.parse_gamedef(deep).stacks == (top, top)
    for text in (deep.replace(str(top), str(top + 1)),
                 acpc.HEADS_UP_LIMIT.replace("raiseSize = 10 10 20 20",
                                             f"raiseSize = 10 10 {2**45} {2**45}")
                 .replace("maxRaises = 3 4 4 4", "maxRaises = 1000 1001 1001 1001")):
        with pytest.raises(acpc.GameDefError, match=r"above 2\*\*53 chips"):
            acpc.parse_gamedef(text)
    with pytest.raises(acpc.GameDefError, match=r"above 2\*\*53 chips"):
        acpc.GameDef(False, 2, (100, 50), (top + 1, top + 1))


def test_matchstate_of_and_acpc_action_name_bad_arguments() -> None:
    """``matchstate_of(st, 0, -1)`` wrote ``MATCHSTATE:0:-1:...``, a line parse_matchstate
    refuses; ``position="0"`` raised a bare TypeError, ``acpc_action(st, 5)`` AttributeError."""
    st = NL2.new_hand(seed=1)
    for position, number in ((0, -1), (0, 1.5), (0, None), (0, 2**53 + 1), (True, 0), ("0", 0)):
        with pytest.raises(ProtocolError, match=r"hand_number must be an int 0\.\.2|position"):
            acpc.matchstate_of(st, position, number)  # type: ignore[arg-type]
    line = str(acpc.matchstate_of(st, 1, 2**53))
    assert acpc.parse_matchstate(line).hand_number == 2**53
    for bad in (5, None, 1.0):
        with pytest.raises(holdem.InvalidActionError, match=r"action must be a holdem\.Action"):
            acpc.acpc_action(st, bad)  # type: ignore[arg-type]


def test_parse_matchstate_refuses_numbers_longer_than_16_digits():
    # numbers are read up to 16 digits (2**53 has 16): a 17-digit hand number or raise total
    # is refused as the line is read
    seventeen = "1" * 17
    with pytest.raises(ProtocolError, match="hand number"):
        acpc.parse_matchstate(f"MATCHSTATE:0:{seventeen}::AsKd|")
    with pytest.raises(ProtocolError, match="raise amount too large"):
        acpc.parse_matchstate(f"MATCHSTATE:0:1:r{seventeen}:AsKd|")
    assert acpc.parse_matchstate(f"MATCHSTATE:0:{seventeen[:16]}::AsKd|").hand_number \
        == int(seventeen[:16])


def test_parse_matchstate_checks_the_hole_card_fields():
    # hold'em has 2..10 positions, each dealt 2 hole cards (or none shown)
    with pytest.raises(ProtocolError, match=r"2\.\.10 hole-card fields"):
        acpc.parse_matchstate("MATCHSTATE:0:1::AsKd" + "|" * 10)  # 11 fields
    assert len(acpc.parse_matchstate("MATCHSTATE:0:1::AsKd" + "|" * 9).hole_cards) == 10
    with pytest.raises(ProtocolError, match="position 1 has 1 hole cards"):
        acpc.parse_matchstate("MATCHSTATE:0:1::AsKd|Qc")


def test_parse_matchstate_refuses_a_card_both_in_the_hole_and_on_the_board():
    with pytest.raises(ProtocolError, match="card As is dealt twice"):
        acpc.parse_matchstate("MATCHSTATE:0:1:cc/:AsKd|/As2c3d")
    with pytest.raises(ProtocolError, match="card 2c is dealt twice"):
        acpc.parse_matchstate("MATCHSTATE:0:1:cc/:AsKd|2cQd/2c3d4h")


def test_acpc_action_all_in_that_only_calls_is_c():
    # the big blind's all-in facing an all-in of the same size is a call: 'c', not a raise
    st = NL2.new_hand(seed=1)
    st.apply(Action.raise_to(20000))  # position 1 (the button) moves all in
    assert st.actor == 0
    assert acpc.acpc_action(st, Action.all_in()) == "c"


def test_parse_log_line_refuses_an_outcome_that_is_not_a_number():
    with pytest.raises(ProtocolError, match=r"outcome '1\.2\.3' is not a number"):
        acpc.parse_log_line("STATE:1:f:AsKd|QcJc:1.2.3|-1.2.3:a|b")


def test_parse_game_heads_up_equal_blinds_puts_the_dealer_on_position_1():
    gd = acpc.parse_game(acpc.HEADS_UP_NO_LIMIT.replace("blind = 100 50", "blind = 100 100"))
    assert gd.button == 1
    assert gd.first_players == (2, 1, 1, 1)


def test_parse_game_reads_ten_players():
    text = (acpc.HEADS_UP_NO_LIMIT.replace("numPlayers = 2", "numPlayers = 10")
            .replace("stack = 20000 20000", "stack = " + " ".join(["20000"] * 10))
            .replace("blind = 100 50", "blind = 50 100" + " 0" * 8)
            .replace("firstPlayer = 2 1 1 1", "firstPlayer = 3 1 1 1"))
    gd = acpc.parse_gamedef(text)
    assert gd.num_players == 10 and gd.button == 9
    with pytest.raises(acpc.GameDefError, match=r"numPlayers must be 2\.\.10"):
        acpc.parse_game(text.replace("numPlayers = 10", "numPlayers = 11"))


def test_matchstate_of_hides_the_other_hole_cards_before_a_showdown():
    # a position sees its own hole cards; the others' only at a showdown
    st = NL2.new_hand(hole_cards=[holdem.parse_cards("AsKd"), holdem.parse_cards("QcJc")])
    assert str(acpc.matchstate_of(st, 0)) == "MATCHSTATE:0:0::AsKd|"
    assert str(acpc.matchstate_of(st, 1)) == "MATCHSTATE:1:0::|QcJc"
