"""PHH replay under the rules, and engine hands written as PHH (round trip)."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holdem import InvalidHistoryError
from holdem.hand.actions import Action
from holdem.hand.game import AnteType, Game, HandState, Structure
from holdem.history import from_state, game_for, replay
from holdem.phh import HandHistory, dumps, loads

HEADER = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
"""

DEAL = "'d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 7c2d'"


def _hand(actions: str, extra: str = "", header: str = HEADER) -> HandHistory:
    return loads(header + f"actions = [{DEAL}, {actions}]\n" + extra, name="t.phh")


@pytest.mark.parametrize("value", [42, None, "cc", (x for x in ()), {"variant": "NT"}])
def test_functions_of_a_hand_history_name_what_they_were_given(value: object,
                                                               tmp_path: object) -> None:
    """They raised AttributeError ("'int' object has no attribute 'user_fields'")."""
    import os

    from holdem import history, phh, pokerstars

    target = os.path.join(str(tmp_path), "x.phh")
    for name, call in [("replay", lambda: replay(value)),  # type: ignore[arg-type]
                       ("game_for", lambda: game_for(value)),  # type: ignore[arg-type]
                       ("chip_unit", lambda: history.chip_unit(value)),  # type: ignore[arg-type]
                       ("dumps", lambda: phh.dumps(value)),  # type: ignore[arg-type]
                       ("dump", lambda: phh.dump(value, target)),  # type: ignore[arg-type]
                       ("to_pokerstars",
                        lambda: pokerstars.to_pokerstars(value))]:  # type: ignore[arg-type]
        with pytest.raises(InvalidHistoryError, match=rf"{name} needs a holdem\.phh\.HandHistory"):
            call()
    assert not os.path.exists(target)
    with pytest.raises(InvalidHistoryError, match=r"from_state needs a holdem\.HandState"):
        from_state(value)  # type: ignore[arg-type]


def test_a_legal_hand_replays_and_matches() -> None:
    hh = _hand(
        "'p3 cbr 6', 'p1 cc', 'p2 f', 'd db 2c7d9h', 'p1 cc', 'p3 cbr 10', 'p1 cc', "
        "'d db Js', 'p1 cc', 'p3 cc', 'd db Qs', 'p1 cc', 'p3 cc', 'p1 sm AsAh', 'p3 sm 7c2d'",
        "finishing_stacks = [84, 98, 118]\n",
    )
    r = replay(hh, name="t.phh")
    assert r.ok and r.final_stacks == (84, 98, 118) and r.check() is r
    assert r.state.is_terminal()


def test_finishing_stack_mismatch_is_reported() -> None:
    hh = _hand("'p3 f', 'p1 f'", "finishing_stacks = [99, 101, 100]\n")
    r = replay(hh, name="t.phh")
    assert r.final_stacks == (99, 101, 100) and r.ok
    bad = hh.replace(finishing_stacks=(100, 100, 100))
    r = replay(bad, name="t.phh")
    assert r.mismatches == ("p1 ends with 99, the file says 100", "p2 ends with 101, the file says 100")
    with pytest.raises(InvalidHistoryError, match=r"t\.phh: final stacks differ: p1 ends with 99"):
        r.check()


@pytest.mark.parametrize(
    ("actions", "index", "why"),
    [
        # R23: a raise must be at least the big blind above the bet (to 4 at least).
        ("'p3 cbr 3'", 3, r"p3 cbr 3'"),
        # R16: preflop the first to act is left of the big blind (p3), not p1.
        ("'p1 cc'", 3, "it is p3's turn, not p1's"),
        # R19: the flop comes only once the betting round is over.
        ("'p3 cc', 'd db 2c7d9h'", 4, "preflop betting is not over"),
        # Flop actions need the flop dealt first.
        ("'p3 cc', 'p1 cc', 'p2 cc', 'p1 cc', 'd db 2c7d9h'", 6, r"flop cards were not dealt"),
        ("'p3 cc', 'p1 cc', 'p2 cc', 'p1 cc'", 5, r"does not deal the flop"),
        # R17: no check when facing the big blind.
        ("'p3 cbr 6', 'p1 cc', 'p2 cc', 'd db 2c7d9h', 'p1 cbr 1'", 7, "p1 cbr 1'"),
        # R19: a hand that is over takes no more betting.
        ("'p3 f', 'p1 f', 'p2 cc'", 5, "the hand is over"),
        ("'p3 f', 'p1 f', 'd db 2c7d9h'", 5, "betting is not over|the next board"),
        ("'p3 cc', 'p1 cc', 'p2 cc', 'd db 2c7d', 'd db 9h3c'", 7, "next board deal is 1 card"),
        ("'p3 f', 'p1 cc', 'p2 cc', 'd db 2c7d9h', 'p1 cc', 'p2 cc', 'd db 3c', 'p1 cc', "
         "'p2 cc', 'd db 4c', 'p1 cc', 'p2 cc', 'p1 sm KdKc'", 15, "p1 was dealt AsAh, not KdKc"),
        ("'p3 cbr 6', 'p1 sm'", 4, "betting is not over"),
        ("'p3 f', 'p1 f', 'p3 sm 7c2d'", 5, "p3 folded: only players still in the hand"),
    ],
)
def test_illegal_actions_name_file_index_and_reason(actions: str, index: int, why: str) -> None:
    hh = _hand(actions)
    with pytest.raises(InvalidHistoryError, match=rf"t\.phh: actions\[{index}\] .*({why})"):
        replay(hh, name="t.phh")


def test_cards_dealt_one_at_a_time_replay_as_dealt_together() -> None:
    """The PHH grammar deals ``card(s)``: pokerkit writes a hand uncompressed with one hole
    card a deal, a round of first cards then one of second cards, and may deal the flop card
    by card. Such files were refused ("hold'em deals exactly two hole cards", "the next board
    deal is 3 cards"); they replay as the same hand now."""
    together = ("'d dh p1 Qh7d', 'd dh p2 9s4s', 'd dh p3 6h6d', 'p3 cc', 'p1 cc', 'p2 cc', "
                "'d db 2c7c9h', 'p1 cbr 4', 'p2 f', 'p3 cc', 'd db Js', 'p1 cc', 'p3 cc', "
                "'d db Qs', 'p1 cc', 'p3 cc', 'p1 sm Qh7d', 'p3 sm 6h6d'")
    apart = (together.replace("'d dh p1 Qh7d', 'd dh p2 9s4s', 'd dh p3 6h6d'",
                              "'d dh p1 Qh', 'd dh p2 9s', 'd dh p3 6h', 'd dh p1 7d', "
                              "'d dh p2 4s', 'd dh p3 6d'")
             .replace("'d db 2c7c9h'", "'d db 2c', 'd db 7c', 'd db 9h'"))
    first = replay(loads(HEADER + f"actions = [{together}]\n"))
    second = replay(loads(HEADER + f"actions = [{apart}]\n"))
    assert first.final_stacks == second.final_stacks == (108, 98, 94)
    assert first.state.history == second.state.history
    assert first.state.hole_cards == second.state.hole_cards
    assert first.state.board == second.state.board
    # the flop in two parts, unknown cards one at a time
    parts = replay(loads(HEADER + "actions = ['d dh p1 ??', 'd dh p2 ??', 'd dh p3 ??', "
                         "'d dh p1 ??', 'd dh p2 ??', 'd dh p3 ??', 'p3 cc', 'p1 cc', 'p2 cc', "
                         "'d db 2c7c', 'd db 9h', 'p1 cc']\n"))
    assert parts.state.board[:3] == first.state.board[:3]


@pytest.mark.parametrize(("deals", "index", "why"), [
    ("'d dh p1 Qh', 'd dh p1 7d'", 1, "p2 is next"),
    ("'d dh p1 Qh', 'd dh p2 9s', 'd dh p2 4s'", 2, "p3 is next"),
    ("'d dh p1 Qh', 'd dh p2 9s', 'd dh p3 6h', 'd dh p1 7d5c'", 3,
     "p1 is dealt more than two hole cards"),
    ("'d dh p1 Qh', 'd dh p2 9s', 'd dh p3 6h', 'p3 cc'", 3, "only 0 of 3 players were dealt"),
    ("'d dh p1 Qh7d', 'd dh p2 9s', 'd dh p3 6h6d', 'd dh p2 4s', 'd dh p3 5c'", 4,
     "p3 is dealt more than two hole cards"),
    ("'d dh p1 Qh7d', 'd dh p1 Qh7d'", 1, "p1 was already dealt hole cards"),
    ("'d dh p1 Qh', 'p1 sm QhKs'", 1, "p1 was dealt Qh only"),
])
def test_cards_dealt_one_at_a_time_go_round_in_order(deals: str, index: int, why: str) -> None:
    with pytest.raises(InvalidHistoryError, match=rf"actions\[{index}\] .*{why}"):
        replay(loads(HEADER + f"actions = [{deals}]\n"))


@pytest.mark.parametrize(("action", "why"), [
    ("d db 2c7d9h3c", "the board is dealt as a flop of 3 cards .together or in parts."),
    ("d dh p1 AsKsQs", "hold'em deals two hole cards, together or one at a time"),
])
def test_deals_of_too_many_cards_are_refused_when_read(action: str, why: str) -> None:
    with pytest.raises(InvalidHistoryError, match=rf"actions\[0\]: action '{action}': {why}"):
        loads(HEADER + f"actions = ['{action}']\n")


def test_dealing_must_come_first_and_in_order() -> None:
    base = HEADER + "actions = [{}]\n"
    with pytest.raises(InvalidHistoryError, match=r"actions\[0\].*p1 is next"):
        replay(loads(base.format("'d dh p2 KsKh', 'd dh p1 AsAh', 'd dh p3 7c2d'")))
    with pytest.raises(InvalidHistoryError, match=r"actions\[2\].*only 2 of 3 players"):
        replay(loads(base.format("'d dh p1 AsAh', 'd dh p2 KsKh', 'p3 f'")))
    with pytest.raises(InvalidHistoryError, match=r"actions\[1\].*p1 was dealt AsAh, not KsKh"):
        replay(loads(base.format("'d dh p1 AsAh', 'd dh p1 KsKh'")))
    with pytest.raises(InvalidHistoryError, match="the hand cannot start"):
        replay(loads(base.format("'d dh p1 AsAh', 'd dh p2 AsKh', 'd dh p3 7c2d'")))


def test_unknown_hole_cards_that_fold_replay() -> None:
    hh = loads(HEADER + "actions = ['d dh p1 AsAh', 'd dh p2 ????', 'd dh p3 ????', "
               "'p3 f', 'p1 cbr 10', 'p2 f']\nfinishing_stacks = [102, 98, 100]\n")
    assert replay(hh).ok


def test_unknown_hand_at_showdown_cannot_be_settled() -> None:
    hh = loads(HEADER + "actions = ['d dh p1 AsAh', 'd dh p2 ????', 'd dh p3 7c2d', 'p3 f', "
               "'p1 cbr 100', 'p2 cc', 'd db 2c7d9h', 'd db Js', 'd db Qs']\n")
    with pytest.raises(InvalidHistoryError, match="unknown"):
        replay(hh)


def test_unknown_hand_kept_at_the_showdown_is_named() -> None:
    """PHH lets a cash-game player neither muck nor show ('pN sm ????'): the replay cannot
    settle that pot, and says so, naming the player (the whole board is dealt: no board is
    missing)."""
    hh = loads(HEADER + "actions = ['d dh p1 AsAh', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', "
               "'p1 cc', 'p2 cc', 'd db 2c7d9h', 'p1 cc', 'p2 cc', 'd db Js', 'p1 cc', 'p2 cc', "
               "'d db Qs', 'p1 cc', 'p2 cc', 'p1 sm AsAh', 'p2 sm ????']\n")
    with pytest.raises(InvalidHistoryError) as e:
        replay(hh, name="t.phh")
    assert "actions[14] 'p2 cc': p2 reaches the showdown with unknown hole cards" in str(e.value)
    assert "does not deal" not in str(e.value) and "seat" not in str(e.value)


_CHECKED_DOWN = ("'d dh p1 {p1}', 'd dh p2 {p2}', 'p2 cc', 'p1 cc', 'd db 7hTc5s', 'p1 cc', "
                 "'p2 cc', 'd db 5d', 'p1 cc', 'p2 cc', 'd db 8d', 'p1 cc', 'p2 cc', {shows}")
_HEADS_UP = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
             "starting_stacks = [100, 100]\nactions = [{}]\n")


def test_an_unknown_hand_mucked_by_the_first_to_show_is_refused_for_that_reason() -> None:
    """R33: checked down, p1 (first left of the button) shows first, and the engine always
    shows that hand, so a stand-in cannot play it. The refusal said "a player is all in"
    while both had 98 behind; it names the real reason now. Second in the order, the same
    muck replays with stand-in cards."""
    first = _CHECKED_DOWN.format(p1="????", p2="6h6d", shows="'p1 sm', 'p2 sm 6h6d'")
    with pytest.raises(InvalidHistoryError) as e:
        replay(loads(_HEADS_UP.format(first)))
    assert "p1 mucks unknown cards, but p1 is the first to show (R33" in str(e.value)
    assert "all in" not in str(e.value)
    second = _CHECKED_DOWN.format(p1="6h6d", p2="????", shows="'p1 sm 6h6d', 'p2 sm'")
    played = replay(loads(_HEADS_UP.format(second) + "finishing_stacks = [102, 98]\n"))
    assert played.ok and played.stand_ins == {1} and 1 not in played.state.result.shown


def test_unknown_hand_shown_later_is_used() -> None:
    hh = loads(HEADER + "actions = ['d dh p1 AsAh', 'd dh p2 ????', 'd dh p3 7c2d', 'p3 f', "
               "'p1 cbr 100', 'p2 cc', 'p1 sm AsAh', 'p2 sm KsKh', 'd db 2c7d9h', 'd db Kd', "
               "'d db 3s']\nfinishing_stacks = [0, 200, 100]\n")
    assert replay(hh).ok


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("blinds_or_straddles", "[1, 2, 3]", "one straddle of twice the big blind"),
        ("antes", "[1, 2, 0]", "uniform ante or a big-blind ante"),
        ("min_bet", "4", "minimum bet is the big blind"),
        ("starting_stacks", "[100, inf, 100]", "unknown: cannot replay"),
    ],
)
def test_games_the_engine_does_not_play(field: str, value: str, why: str) -> None:
    lines = [ln if not ln.startswith(field + " ") else f"{field} = {value}" for ln in HEADER.splitlines()]
    hh = loads("\n".join(lines) + f"\nactions = [{DEAL}]\n")
    with pytest.raises(InvalidHistoryError, match=why):
        replay(hh, name="g.phh")


def test_game_mapping() -> None:
    """R5/R7/R8: blinds, antes and straddle from the PHH arrays."""
    g = game_for(_hand("'p3 f'"))
    assert (g.structure, g.small_blind, g.big_blind, g.ante, g.straddle) == (
        Structure.NO_LIMIT, 1, 2, 0, False)
    bba = loads(HEADER.replace("antes = [0, 0, 0]", "antes = [0, 3, 0]") + "actions = []\n")
    assert (game_for(bba).ante, game_for(bba).ante_type) == (3, AnteType.BIG_BLIND)
    uni = loads(HEADER.replace("antes = [0, 0, 0]", "antes = [1, 1, 1]") + "actions = []\n")
    assert (game_for(uni).ante, game_for(uni).ante_type) == (1, AnteType.UNIFORM)
    st_ = loads(HEADER.replace("[1, 2, 0]", "[1, 2, 4]") + "actions = []\n")
    assert game_for(st_).straddle
    ft = loads(HEADER.replace("'NT'", "'FT'").replace("min_bet = 2", "small_bet = 2\nbig_bet = 4")
               + "actions = []\n_cap_bets = 5\n")
    g = game_for(ft)
    assert (g.structure, g.big_bet, g.max_raises) == (Structure.FIXED_LIMIT, 4, 4)
    pt = loads(HEADER.replace("'NT'", "'PT'") + "actions = []\n")
    assert game_for(pt).structure is Structure.POT_LIMIT
    assert (g.cap_heads_up, g.fold_when_check_free) == (True, False)  # the defaults
    opts = loads(HEADER.replace("'NT'", "'FT'").replace("min_bet = 2", "small_bet = 2\nbig_bet = 4")
                 + "actions = []\n_cap_heads_up = false\n_fold_when_check_free = true\n")
    assert (game_for(opts).cap_heads_up, game_for(opts).fold_when_check_free) == (False, True)


@pytest.mark.parametrize("field", ["_cap_heads_up", "_fold_when_check_free"])
@pytest.mark.parametrize("value", ["1", "'yes'", "0"])
def test_game_options_must_be_booleans(field: str, value: str) -> None:
    hh = loads(HEADER + f"actions = []\n{field} = {value}\n")
    with pytest.raises(InvalidHistoryError, match=f"{field} must be true or false, not"):
        game_for(hh)


def test_hands_of_the_game_options_replay() -> None:
    """R27 (cap lifted heads-up) and R17 (fold when checking is free): the hands the PHH
    could not describe before (found replaying VectorGame hands)."""
    fl = Game(big_blind=2, structure=Structure.FIXED_LIMIT, cap_heads_up=False)
    hs = fl.new_hand([100, 100], button=0, hole_cards=[[0, 1], [2, 3]],
                     board=[10, 11, 12, 13, 14])
    for to in (4, 6, 8, 10):  # a fifth bet: past the cap of R27, lifted heads-up
        hs.apply(Action.bet_or_raise(to))
    hs.apply(Action.fold())
    hh = from_state(hs)
    assert hh.user_fields == {"_cap_heads_up": False}
    assert replay(loads(dumps(hh))).ok
    nl = Game(big_blind=2, fold_when_check_free=True)
    hs = nl.new_hand([100, 100, 100], button=0, hole_cards=[[0, 1], [2, 3], [4, 5]],
                     board=[10, 11, 12, 13, 14])
    for action in (Action.check_or_call(), Action.check_or_call(), Action.check_or_call(),
                   Action.fold()):  # the flop: the first to act folds though checking is free
        hs.apply(action)
    hh = from_state(hs)
    assert hh.user_fields == {"_fold_when_check_free": True}
    r = replay(loads(dumps(hh)))
    assert r.ok and r.state.stacks == hs.stacks


# --- engine hands written as PHH read back and replay to the same stacks -----------------


def random_action(state: HandState, rng: random.Random) -> Action:
    """A random legal action: check/call, fold when offered, a raise of any size or all in."""
    legal = state.legal_actions()
    options = [Action.check_or_call()]
    if legal.can_fold:
        options.append(Action.fold())
    if legal.can_raise:
        assert legal.min_to is not None and legal.max_to is not None
        options.append(Action.bet_or_raise(rng.randint(legal.min_to, legal.max_to)))
        options.append(Action.bet_or_raise(legal.max_to))
    return rng.choice(options)


def _play_randomly(state: HandState, rng: random.Random) -> None:
    while not state.is_terminal():
        state.apply(random_action(state, rng))


@given(
    n=st.integers(2, 10),
    structure=st.sampled_from(list(Structure)),
    ante=st.sampled_from([(0, AnteType.UNIFORM), (1, AnteType.UNIFORM), (3, AnteType.BIG_BLIND)]),
    straddle=st.booleans(),
    options=st.fixed_dictionaries({"cap_heads_up": st.booleans(),
                                   "fold_when_check_free": st.booleans()}),
    button=st.integers(0, 9),
    seed=st.integers(0, 2**32),
)
def test_engine_hands_round_trip_through_phh(
    n: int, structure: Structure, ante: tuple[int, AnteType], straddle: bool,
    options: dict[str, bool], button: int, seed: int
) -> None:
    """Any engine hand replays from its PHH, R17's and R27's options included."""
    rng = random.Random(seed)
    game = Game(structure=structure, big_blind=2, ante=ante[0], ante_type=ante[1],
                straddle=straddle and n >= 3, **options)
    stacks = [rng.choice([3, 10, 50, 200, 1000]) for _ in range(n)]
    state = game.new_hand(stacks, button=button % n, seed=seed)
    _play_randomly(state, rng)
    names = [f"player {i}" for i in range(n)]
    hh = from_state(state, players=names, event="property test")
    text = dumps(hh)
    back = loads(text)
    assert back == hh
    r = replay(back, name="round trip")
    assert r.ok, r.mismatches
    # Same stacks seat by seat (PHH p1 is the seat left of the button).
    order = [(button % n + 1 + k) % n for k in range(n)]
    assert r.final_stacks == tuple(state.result.final_stacks[s] for s in order)
    assert [rec.phh.split(" ", 1)[1] for rec in r.state.history] == [
        rec.phh.split(" ", 1)[1] for rec in state.history
    ]
    assert back.players == tuple(names[s] for s in order)


def test_generated_traces_replay_from_phhs() -> None:
    """The 50 PokerKit-generated hands (NL/PL/FL, 2-10 players, side pots; see
    tests/data/README.md) read from their .phhs file replay to the recorded stacks."""
    from pathlib import Path

    from holdem.phh import load_all

    hands = load_all(Path(__file__).parent / "data" / "public_50.phhs")
    assert len(hands) == 50 and {h.variant for h in hands} == {"NT", "PT", "FT"}
    assert min(h.num_players for h in hands) == 2 and max(h.num_players for h in hands) == 10
    for i, hh in enumerate(hands, 1):
        r = replay(hh, name=f"public_50.phhs[{i}]")
        assert r.state.is_terminal() and r.ok, (i, r.mismatches)



def test_table_session_hands_round_trip() -> None:
    """Hands of a table session (moving button R4, players going broke R37) written as PHH
    replay to the same stacks; a hand with a forced bet PHH cannot describe is refused."""
    from holdem import RandomAgent, Table

    table = Table(Game(big_blind=2), seats=5, seed=9)
    for seat in range(5):
        table.sit(seat, f"p{seat}", 100 + 50 * seat, RandomAgent(seed=seat))
    written = 0
    sizes = set()
    for record in table.play(200):
        try:
            hh = from_state(record.state, players=list(record.names))
        except InvalidHistoryError as e:
            assert "PHH describes only" in str(e)
            continue
        r = replay(loads(dumps(hh)), name=f"hand {record.number}")
        assert r.ok, r.mismatches
        written += 1
        sizes.add(hh.num_players)
    assert written >= 10 and {2, 5} <= sizes  # from 5-handed down to heads-up (R3)


def test_fractional_amounts_in_whole_chips_are_refused() -> None:
    """With ``chip_unit=1`` a half chip is not an amount the engine can play (it was refused by
    default before amounts in cents were read; see tests/test_cents.py for the default)."""
    with pytest.raises(InvalidHistoryError, match=r"t\.phh: actions\[3\] .*6\.5 is not a whole "
                       "number of chips"):
        replay(_hand("'p3 cbr 6.5'"), name="t.phh", chip_unit=1)
    lines = [ln if not ln.startswith("starting_stacks") else "starting_stacks = [100, 100.5, 100]"
             for ln in HEADER.splitlines()]
    hh = loads("\n".join(lines) + f"\nactions = [{DEAL}]\n")
    with pytest.raises(InvalidHistoryError, match=r"g\.phh: starting stack 100\.5 is not a whole"):
        replay(hh, name="g.phh", chip_unit=1)


_FOLD_HAND = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AsKs", "d dh p2 7c2d", "p2 f"]
finishing_stacks = [201, 199]
"""


@pytest.mark.parametrize("unit", ["1e-99999999", "1e99999999", "1e-3000000", "1e-19",
                                  "1e19", " 1E-400 "])
def test_chip_unit_out_of_range_is_refused_at_once(unit: str) -> None:
    # Fraction("1e-99999999") computes 10**99999999: replay hung on such a _chip_unit
    import time

    hh = loads(_FOLD_HAND + f'_chip_unit = "{unit}"\n')
    start = time.perf_counter()
    with pytest.raises(InvalidHistoryError, match=r"chip_unit .* out of range: give one from "
                                                  r"1e-18 to 1e18"):
        replay(hh)
    with pytest.raises(InvalidHistoryError, match="out of range"):
        replay(loads(_FOLD_HAND), chip_unit=unit)
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize(("unit", "final"), [("0.5", (201, 199)), ("1/2", (201, 199)),
                                             ("1e-2", (201, 199)), ("1", (201, 199))])
def test_chip_units_in_range_still_work(unit: str, final: tuple[int, int]) -> None:
    played = replay(loads(_FOLD_HAND + f'_chip_unit = "{unit}"\n'))
    assert played.final_stacks == final and not played.mismatches


def test_float_noise_in_a_finishing_stack_is_a_mismatch_not_an_error() -> None:
    # the odd-chip retry used a unit of about 1e-14, in which the stacks pass 2**53 chips: it
    # raised "stack of seat 0 is above 2**53 chips" instead of reporting the mismatch
    hh = loads(_FOLD_HAND.replace("[201, 199]", "[201.00000000000003, 199]"))
    played = replay(hh)
    assert played.odd_chip is None
    assert played.mismatches == ("p1 ends with 201, the file says 201.00000000000003",)


_SHORT_ANTE = """\
variant = 'NT'
{trim}antes = [10, 10, 10]
blinds_or_straddles = [10, 20, 0]
min_bet = 20
starting_stacks = [6, 900, 900]
actions = ['d dh p1 QdQs', 'd dh p2 8c3d', 'd dh p3 9h4s', 'p3 cc', 'p2 cc', 'd db KdJc5h',
           'p2 cc', 'p3 cc', 'd db 2s', 'p2 cc', 'p3 cc', 'd db 7c', 'p2 cc', 'p3 cc']
"""


def test_short_ante_follows_ante_trimming_status() -> None:
    """PHH: with ante_trimming_status false (the default) every ante goes to the main pot, so
    p1, all in on a 6-chip ante, would win 6 + 10 + 10; trimmed (true) p1 wins 6 from each
    player, as the engine plays it (R9). A file that does not say true is refused, and the
    engine's hands are written with ante_trimming_status = true so that they mean what their
    finishing_stacks record."""
    for trim in ("", "ante_trimming_status = false\n"):
        hh = loads(_SHORT_ANTE.format(trim=trim))
        with pytest.raises(InvalidHistoryError, match="p1 cannot post the full ante and "
                           "ante_trimming_status is not true"):
            replay(hh)
    hh = loads(_SHORT_ANTE.format(trim="ante_trimming_status = true\n"))
    r = replay(hh)
    assert r.final_stacks == (18, 870, 918)
    written = from_state(r.state)
    assert written.ante_trimming_status is True and written.finishing_stacks == (18, 870, 918)
    assert "ante_trimming_status = true\n" in dumps(written)
    # the big-blind ante is dead money in the main pot: PHH's default, nothing written
    bba = Game(structure=Structure.NO_LIMIT, big_blind=2, ante=2, ante_type=AnteType.BIG_BLIND)
    state = bba.new_hand([100, 100, 100], button=2, seed=1)
    state.apply(Action.fold())
    state.apply(Action.fold())
    assert from_state(state).ante_trimming_status is None


def test_an_unfinished_hand_keeps_the_cards_of_a_street_not_yet_bet() -> None:
    # The flop is on the table, nobody has acted on it yet: from_state left it out, so the
    # text did not show it and replay(from_state(state)) failed ('does not deal the flop').
    state = Game(big_blind=2).new_hand([100, 100, 100], button=0, seed=5)
    state.call()
    state.call()
    state.check()
    assert len(state.board) == 3 and str(state.street) == "flop"
    hh = from_state(state)
    assert str(hh.actions[-1]) == "d db " + "".join(map(str, state.board))
    r = replay(hh)
    assert r.state.board == state.board and r.state.street == state.street
    assert r.state.actor is not None and r.final_stacks == (98, 98, 98)


def test_unfinished_hands_stopped_anywhere_round_trip() -> None:
    for seed in range(60):
        rng = random.Random(seed)
        n = rng.randint(2, 6)
        game = Game(structure=rng.choice(list(Structure)), big_blind=2)
        state = game.new_hand([rng.choice([20, 100, 400]) for _ in range(n)],
                              button=rng.randrange(n), seed=seed)
        for _ in range(rng.randint(0, 12)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            options = [Action.check_or_call()]
            if legal.can_raise:
                assert legal.min_to is not None
                options.append(Action.bet_or_raise(legal.min_to))
            state.apply(rng.choice(options))
        r = replay(from_state(state))
        assert r.state.board == state.board, seed
        assert r.state.street == state.street and r.state.pot == state.pot, seed
        order = [(state.button + 1 + k) % n for k in range(n)]
        assert r.state.stacks == tuple(state.stacks[s] for s in order), seed


@pytest.mark.parametrize(("fields", "message"), [
    ({"players": 5}, "players must be a list of names"),
    ({"players": "abc"}, "players must be a list of names"),  # was three players 'a', 'b', 'c'
    ({"user_fields": 5}, "user_fields must be a mapping"),
    ({"user_fields": ["_a"]}, "user_fields must be a mapping"),
])
def test_from_state_names_a_field_of_the_wrong_type(fields: dict[str, object],
                                                    message: str) -> None:
    # these raised TypeError (or, for a str, took each letter as a player's name)
    state = Game(big_blind=2).new_hand([100, 100, 100], button=0, seed=1)
    with pytest.raises(InvalidHistoryError, match=message):
        from_state(state, **fields)
    assert from_state(state, players=("a", "b", "c"), user_fields={"_x": 1}).user_fields == {
        "_x": 1}


TWO_HANDED = """\
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
"""


def test_a_rake_of_the_whole_pot_is_accepted() -> None:
    """``_rake`` may be all of ``_total_pot`` (only more than it is refused)."""
    actions = "actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 f']\n"
    r = replay(loads(TWO_HANDED + actions + "_rake = 2\n_total_pot = 2\n"))
    assert r.state.result.rake == 2 and r.final_stacks == (99, 99)
    with pytest.raises(InvalidHistoryError, match="_rake 3 is more than the _total_pot 2"):
        replay(loads(TWO_HANDED + actions + "_rake = 3\n_total_pot = 2\n"))


def test_r34_a_raked_pot_above_2_32_chips_round_trips() -> None:
    """R34: a raked hand whose pot is above 2**32 chips, written by from_state, replays to
    the same stacks (the rake was rebuilt as the fraction rake/pot, whose denominator the
    rake refuses above 2**32)."""
    from holdem import Rake

    for stacks in ([2**33, 2**33], [2**33, 2**40, 2**45]):
        st = Game(big_blind=2, rake=Rake("0.05", cap=3)).new_hand(stacks, button=0, seed=1)
        st.raise_to(st.legal_actions().max_to)  # all in, and everyone calls
        while not st.is_terminal():
            st.check_or_call()
        assert st.result.rake == 3
        hh = loads(from_state(st).dumps())
        assert hh.finishing_stacks is not None  # (what r.ok compares the replay with)
        r = replay(hh)
        assert r.ok and r.mismatches == () and r.state.result.rake == 3
        assert sorted(r.state.result.final_stacks) == sorted(st.result.final_stacks)


def test_hole_cards_dealt_after_the_board_are_refused() -> None:
    # both players are all in from the blinds: no betting comes between the board and the hands
    hh = loads(TWO_HANDED.replace("[100, 100]", "[1, 2]") + "actions = ['d db 2c7d9h', 'd db Js', "
               "'d db 3d', 'd dh p1 AsAh', 'd dh p2 KsKh']\n")
    with pytest.raises(InvalidHistoryError,
                       match=r"actions\[3\] 'd dh p1 AsAh': hole cards are dealt before any"):
        replay(hh)


def test_a_three_handed_dead_small_blind_cannot_be_written() -> None:
    """Three-handed, a dead small blind puts the big blind right behind the button: PHH has
    no way to say so, and from_state refuses it."""
    s = Game(big_blind=2).new_hand([100, 100, 100], button=0, dead_small_blind=True)
    assert s.big_blind_seat == 1
    with pytest.raises(InvalidHistoryError, match="the small blind is dead"):
        from_state(s)


def test_an_explicit_chip_unit_reports_a_split_odd_chip_as_a_mismatch() -> None:
    """The file splits a 5-chip pot 2.5 each: by default that is the odd chip (a unit of 1/2
    reproduces it); with ``chip_unit`` given it is a plain mismatch, not relabelled."""
    hh = loads(HEADER + "actions = ['d dh p1 7s2h', 'd dh p2 AsKs', 'd dh p3 AhKh', 'p3 cc', "
               "'p1 f', 'p2 cc', 'd db 2c7d9h', 'p2 cc', 'p3 cc', 'd db Jd', 'p2 cc', "
               "'p3 cc', 'd db 3c', 'p2 cc', 'p3 cc']\nfinishing_stacks = [99, 100.5, 100.5]\n")
    assert replay(hh).odd_chip == Fraction(1, 2)
    given = replay(hh, chip_unit=1)
    assert given.odd_chip is None
    assert given.mismatches == ("p2 ends with 101, the file says 100.5",
                                "p3 ends with 100, the file says 100.5")


def test_a_stack_of_exactly_the_ante_needs_no_ante_trimming_status() -> None:
    """A player whose stack is the ante posts all of it: no ante is short, nothing to trim."""
    hh = loads(TWO_HANDED.replace("antes = [0, 0]", "antes = [1, 1]").replace("[100, 100]",
                                                                           "[100, 1]")
               + "actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd db 2c7d9h', 'd db Js', "
               "'d db 3d']\n")
    assert hh.ante_trimming_status is not True
    assert replay(hh).final_stacks == (101, 0)
    short = dataclasses.replace(hh, antes=(2, 2))
    with pytest.raises(InvalidHistoryError, match="p2 cannot post the full ante"):
        replay(short)


def test_the_chip_unit_is_the_most_decimal_places_written() -> None:
    from holdem.history import chip_unit

    assert chip_unit(HandHistory("NT", (0, 0), (0.25, 0.5), (50, 48.37),
                                 min_bet=0.5)) == Fraction(1, 100)
    assert chip_unit(HandHistory("NT", (0, 0), (0.5, 1), (50, 48.375),
                                 min_bet=1)) == Fraction(1, 1000)
    assert chip_unit(HandHistory("NT", (0, 0), (1, 2), (50, 48), min_bet=2)) == 1


@pytest.mark.parametrize(("unit", "text"), [(Fraction(1, 5), "0.2"), (Fraction(1, 4), "0.25"),
                                            (Fraction(1, 50), "0.02"), (Fraction(1, 3), "1/3")])
def test_errors_write_a_chip_unit_as_a_decimal(unit: Fraction, text: str) -> None:
    hh = loads(TWO_HANDED.replace("antes = [0, 0]", "antes = [0.03, 0.03]")
               + "actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 f']\n")
    with pytest.raises(InvalidHistoryError) as e:
        replay(hh, chip_unit=unit)
    assert str(e.value) == f"ante 0.03 is not a whole number of the chip unit {text}"


def test_from_state_turns_every_per_seat_field_with_the_players() -> None:
    """Only ``players`` was turned to p1 = left of the button: ``seats`` (and winnings, time
    banks) stayed in engine order, pairing each name with another player's seat."""
    state = Game(big_blind=2).new_hand([100, 100, 100], button=0, seed=1)
    state.fold()
    state.fold()
    hh = from_state(state, players=["A", "B", "C"], seats=[1, 2, 3], time_banks=[10, 20, 30],
                    winnings=[0, 0, 3])
    assert hh.players == ("B", "C", "A")
    assert hh.seats == (2, 3, 1) and hh.time_banks == (20, 30, 10) and hh.winnings == (0, 3, 0)
    for fields, what in (({"seats": [1, 2]}, "seats has 2 entries for 3 seats"),
                         ({"time_banks": "abc"}, "time_banks must be a list"),
                         ({"finishing_stacks": [1, 2, 3]}, "finishing_stacks is filled in")):
        with pytest.raises(InvalidHistoryError, match=what):
            from_state(state, **fields)


def test_from_state_refuses_a_chip_unit_a_file_cannot_hold() -> None:
    """``chip_unit="1/3"`` wrote ``_chip_unit = 0.3333333333333333``, a file no replay could
    read back (blinds were not whole numbers of that unit)."""
    state = Game(big_blind=6).new_hand([300, 300], button=0, seed=1)
    state.fold()
    with pytest.raises(InvalidHistoryError, match="chip_unit 1/3 cannot be written exactly"):
        from_state(state, chip_unit="1/3")
    for unit in ("0.5", "0.01", 2):
        assert replay(loads(dumps(from_state(state, chip_unit=unit)))).ok
