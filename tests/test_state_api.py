"""API shape of Game / HandState / Action: construction, queries, errors, clone, pickle."""

from __future__ import annotations

import pickle

import pytest

import holdem
from holdem import Action, ActionType, Game, SeatStatus, Street, Structure
from holdem.errors import IllegalActionError, InvalidActionError, InvalidConfigError, OutOfTurnError


def hu_hand() -> holdem.HandState:
    return Game(big_blind=2).new_hand([100, 100], button=0, hole_cards=["AsAh", "KdKc"],
                                      board="2c7d9hJsQs")


def test_game_defaults_and_validation() -> None:
    g = Game(big_blind=5)
    assert g.small_blind == 2 and g.structure is Structure.NO_LIMIT
    with pytest.raises(InvalidConfigError):
        Game(big_blind=0)
    with pytest.raises(InvalidConfigError):
        Game(big_blind=2, small_blind=3)
    with pytest.raises(InvalidConfigError):
        Game(big_blind=2, straddle=True, mode=holdem.Mode.TOURNAMENT)
    with pytest.raises(InvalidConfigError):
        Game(structure=Structure.FIXED_LIMIT, big_blind=2, small_bet=4)
    with pytest.raises(TypeError):
        Game(Structure.NO_LIMIT, 2)  # type: ignore[misc]
    fl = Game(structure=Structure.FIXED_LIMIT, big_blind=4)
    assert (fl.small_bet, fl.big_bet, fl.max_raises) == (4, 8, 3)


def test_action_parse_format_roundtrip() -> None:
    for text in ["f", "cc", "cbr 300"]:
        assert str(Action.parse(text)) == text
    assert Action.parse("p2 cbr 40") == Action(ActionType.BET_RAISE, 40)
    assert Action.parse("raise 8") == Action.raise_to(8)
    for code in [0, 1, 2, 301]:
        assert Action.from_int(code).to_int() == code
    for bad in ["", "zz", "cbr", "cbr x", "f 3", "cbr -2"]:
        with pytest.raises(InvalidActionError):
            Action.parse(bad)


def test_enums_read_as_words_and_stay_ints() -> None:
    # str() is for people (as Street and HandCategory), repr() pastes back, int() is the code
    words = {ActionType.FOLD: "fold", ActionType.CHECK: "check", ActionType.CALL: "call",
             ActionType.BET: "bet", ActionType.RAISE: "raise",
             ActionType.CHECK_CALL: "check/call", ActionType.BET_RAISE: "bet/raise",
             ActionType.ALL_IN: "all-in"}
    assert {t: str(t) for t in ActionType} == words
    assert [str(s) for s in SeatStatus] == ["active", "folded", "all-in"]
    for member in [*ActionType, *SeatStatus]:
        assert f"{member}" == str(member) and eval(repr(member), vars(holdem)) is member
        assert f"{member:d}" == str(int(member)) and member == int(member)
    s = hu_hand()
    s.fold()
    assert f"{s.history[-1].type} / {s.status(0)}" == "fold / folded"


def test_an_action_built_by_hand_without_its_amount_says_so() -> None:
    # Action is a NamedTuple: Action(ActionType.RAISE) builds; its code and its text must not
    # call it an all-in or fail with a KeyError
    with pytest.raises(InvalidActionError, match=r"^raise without an amount has no int code"):
        Action(ActionType.RAISE).to_int()
    with pytest.raises(InvalidActionError, match=r"^an all-in has no int code"):
        Action.all_in().to_int()
    with pytest.raises(InvalidActionError, match=r"^not an action type: 'f' \(an ActionType\)"):
        Action("f").to_int()  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError, match=r"^bet to 'x': amounts are non-negative ints"):
        Action(ActionType.BET, "x").to_int()  # type: ignore[arg-type]
    assert str(Action("f")) == repr(Action("f")) == "Action('f')"  # type: ignore[arg-type]
    assert Action(ActionType.BET_RAISE, 6).to_int() == 7
    assert Action(6, 6).to_int() == 7  # type: ignore[arg-type]


def test_refused_action_code_says_what_the_code_meant() -> None:
    """An int is an action code (0 fold, 1 check/call, k >= 2 bet/raise to k - 1): a refused
    one names the action it stood for, so a seat number or an amount passed by mistake is
    recognisable, and the state is unchanged."""
    s = hu_hand()  # seat 0 to act preflop, facing the big blind of 2: raises go to 4 .. 100
    before = s.clone()
    with pytest.raises(IllegalActionError,
                       match=r"^action code 3 means a bet/raise to 2 \(codes: 0 fold, 1 check/call, "
                             r"k >= 2 bet/raise to k - 1\): raise to 2 is below the minimum raise "
                             r"to 4"):
        s.apply(3)
    with pytest.raises(IllegalActionError, match=r"^action code 102 means a bet/raise to 101 .*"
                                                 r"above the maximum raise to 100"):
        s.apply(102)
    assert s == before
    s.apply(1)  # the small blind calls; the big blind may check: folding is not offered
    with pytest.raises(IllegalActionError, match=r"^action code 0 means fold .*checking is free"):
        s.apply(0)
    with pytest.raises(IllegalActionError, match=r"^raise to 2 is below"):  # not a code
        s.apply(Action.raise_to(2))
    s.apply(5)  # the big blind raises to 4
    assert s.bets == (2, 4) and s.actor == 0


def test_basic_play_and_queries() -> None:
    s = hu_hand()
    assert s.actor == 0 and s.street is Street.PREFLOP and s.pot == 3
    assert s.stacks == (99, 98) and s.bets == (1, 2)
    s.raise_to(6)
    s.call()
    assert s.street is Street.FLOP and s.board == tuple(holdem.parse_cards("2c7d9h"))
    assert s.actor == 1  # R3: heads-up the button acts last after the flop
    s.check()
    s.bet(10)
    assert s.statuses == (SeatStatus.ACTIVE, SeatStatus.ACTIVE)
    s.fold()
    assert s.is_terminal() and s.payoffs == (6, -6) and s.result.final_stacks == (106, 94)
    assert [r.phh for r in s.history] == ["p1 cbr 6", "p2 cc", "p2 cc", "p1 cbr 10", "p2 f"]


def test_rejections_leave_state_unchanged() -> None:
    s = hu_hand()
    before = s.clone()
    with pytest.raises(OutOfTurnError):
        s.call(seat=1)
    with pytest.raises(IllegalActionError, match="raise to 3 is below the minimum raise to 4"):
        s.raise_to(3)
    with pytest.raises(IllegalActionError, match="check is not allowed"):
        s.check()
    with pytest.raises(IllegalActionError, match="raise instead"):
        s.bet(10)
    assert s == before


def test_clone_and_pickle() -> None:
    s = hu_hand()
    c = s.clone()
    s.raise_to(6)
    assert c.actor == 0 and c.bets == (1, 2)
    t = pickle.loads(pickle.dumps(s))
    assert t == s
    t.call()
    assert s.street is Street.PREFLOP and t.street is Street.FLOP


def test_seed_is_recorded_and_replays() -> None:
    g = Game(big_blind=2)
    a = g.new_hand([100] * 4, button=1)  # no seed: one is drawn and recorded
    assert isinstance(a.seed, int)
    b = g.new_hand([100] * 4, button=1, seed=a.seed)
    assert b.hole_cards == a.hole_cards and b.seed == a.seed
    assert hu_hand().seed is None  # cards given
    with pytest.raises(TypeError):
        holdem.HandState()


def test_phh_lines_name_the_seat() -> None:
    s = hu_hand()
    with pytest.raises(OutOfTurnError):
        s.apply("p2 cbr 6")  # PHH p2 is seat 1; seat 0 is to act
    s.apply("p1 cbr 6")
    s.apply("p2 cc")
    assert s.street is Street.FLOP
    with pytest.raises(InvalidActionError):
        s.apply("p1 cc", seat=1)  # seat= disagrees with the PHH token (p1 is seat 0)


def test_rake_through_the_pots_module() -> None:
    """R34 (rake) is applied by holdem.split_pots; the hand passes it on with the flop flag."""
    g = Game(big_blind=2, rake=holdem.Rake(0.05, cap=3))
    s = g.new_hand([100, 100], button=0, hole_cards=["AsAh", "KdKc"], board="2c7d9hJsQs")
    s.raise_to(40)
    s.fold()  # no flop, no drop
    assert s.result.rake == 0 and s.payoffs == (2, -2)
    s = g.new_hand([100, 100], button=0, hole_cards=["AsAh", "KdKc"], board="2c7d9hJsQs")
    s.raise_to(40)
    s.call()
    while not s.is_terminal():
        s.check()
    assert s.result.rake == 3 and s.payoffs == (37, -40)


def test_actions_and_is_legal() -> None:
    s = hu_hand()
    assert s.actions() == [Action.fold(), Action.call(), Action.raise_to(4), Action.raise_to(100)]
    assert s.is_legal("cbr 4") and not s.is_legal("cbr 3") and not s.is_legal(Action.check())
    assert s.is_legal(5)  # int code 5: raise to 4
    s.call()
    assert s.actions() == [Action.check(), Action.raise_to(4), Action.raise_to(100)]


def test_fixed_limit_straddle_counts_as_a_raise() -> None:
    g = Game(structure=Structure.FIXED_LIMIT, big_blind=2, straddle=True)
    s = g.new_hand([100] * 4, button=0, seed=3)
    la = s.legal_actions()
    assert la.seat == 0 and la.call == 4 and (la.min_to, la.max_to) == (6, 6)
    s.raise_to(6)
    s.raise_to(8)  # big blind (bet), straddle, 6, 8: capped
    assert not s.legal_actions().can_raise


def test_add_board_for_live_dealing() -> None:
    s = Game(big_blind=2).new_hand([100, 100], button=0, hole_cards=["AsAh", "KdKc"])
    s.call()
    before = s.clone()
    with pytest.raises(holdem.InvalidHandError, match="board needs 3"):
        s.check()
    assert s == before  # the round-closing action was rolled back
    with pytest.raises(holdem.DuplicateCardError):
        s.add_board("As2c3c")
    s.add_board("2c7d9h")
    s.check()
    assert s.street is Street.FLOP and len(s.board) == 3
    s.add_board(["Js", "Qs"])
    while not s.is_terminal():
        s.check()
    assert s.payoffs == (2, -2)
    with pytest.raises(holdem.InvalidHandError):
        Game(big_blind=2).new_hand([100, 100], seed=1).add_board("2c")


def test_openspiel_style_codes() -> None:
    s = hu_hand()
    codes = s.legal_action_codes()
    assert codes[:3] == [0, 1, 5] and codes[-1] == 101 and len(codes) == 2 + 97
    assert all(s.is_legal(c) for c in codes)
    assert s.current_player() == 0
    s.apply(0)
    assert s.current_player() == -4 and s.legal_action_codes() == [] and s.returns() == [-1.0, 1.0]


def test_openspiel_style_codes_refused_beyond_the_listed_bound() -> None:
    from holdem.hand.game import MAX_ACTION_CODES

    ok = Game(big_blind=2).new_hand([MAX_ACTION_CODES + 3] * 2, seed=1)
    assert len(ok.legal_action_codes()) == 2 + MAX_ACTION_CODES  # to 4 .. all in, one a chip
    deep = Game(big_blind=2).new_hand([2**53 - 1] * 2, seed=1)
    with pytest.raises(holdem.InvalidConfigError, match="legal_actions"):
        deep.legal_action_codes()
    assert deep.legal_actions().max_to == 2**53 - 1  # the query itself is fine


def test_unchecked_path_refuses_a_finished_hand() -> None:
    s = hu_hand()
    s.apply_unchecked(0)
    assert s.is_terminal()
    with pytest.raises(IllegalActionError, match="over"):
        s.apply_unchecked(1)
    with pytest.raises(IllegalActionError, match="over"):
        s.legal_actions()


def test_committed_keeps_a_fold_winners_uncalled_bet_as_documented() -> None:
    """R21. ``committed`` said "uncalled bets removed", but a hand won by folds keeps the
    winner's last bet in ``committed`` and ``pot``; its uncalled part is ``result.returned``.
    A bet called short leaves ``committed`` when the street closes. Both cores."""
    from holdem.hand.game import HandState, ReferenceHandState

    game = Game(big_blind=2)
    for cls in (HandState, ReferenceHandState):
        st = cls._start(game, [100, 100, 100], 0, 1, None, None)
        st.raise_to(10)
        st.fold()
        st.fold()
        assert st.committed == (10, 1, 2) and st.pot == 13
        assert st.result.returned == (8, 0, 0) and st.result.final_stacks == (103, 99, 98)
        st = cls._start(game, [100, 30], 0, 1, None, None)
        st.raise_to(60)
        st.call()  # all in for 30: 30 of the 60 are not called
        assert st.committed == (30, 30) and st.pot == 60


def test_repr_of_a_finished_hand_shows_what_was_paid() -> None:
    """A finished hand's repr shows the payoffs and the final stacks, not the chips behind and
    the pot before the payout (``stacks [100, 99, 98], pot 13`` read as if nobody was paid).
    Both cores."""
    from holdem.hand.game import HandState, ReferenceHandState

    game = Game(big_blind=2)
    for cls in (HandState, ReferenceHandState):
        st = cls._start(game, [100, 100, 100], 0, 1, None, None)
        assert repr(st) == ("<HandState 3 seats, button 0, preflop, seat 0 to act, pot 3, "
                            "stacks [100, 99, 98]>")
        st.raise_to(10)
        st.fold()
        st.fold()
        assert repr(st) == ("<HandState 3 seats, button 0, over, payoffs [3, -1, -2], "
                            "final stacks [103, 99, 98]>")


@pytest.mark.parametrize("structure", list(Structure))
@pytest.mark.parametrize("bad", ["abc", -5, None, [1], 2.0, True])
def test_max_raises_is_checked_in_every_structure(structure: Structure, bad: object) -> None:
    """``max_raises`` was checked in fixed limit only: ``Game(max_raises="abc")`` was taken
    (and ``[1]`` made the Game unhashable); it is a count of raises, not chips."""
    with pytest.raises(InvalidConfigError, match=r"max_raises must be (an int number of "
                                                 r"raises|at least 0)"):
        Game(big_blind=2, structure=structure, max_raises=bad)  # type: ignore[arg-type]
    import numpy as np

    game = Game(big_blind=2, structure=structure, max_raises=np.int64(4))  # type: ignore[arg-type]
    assert type(game.max_raises) is int and hash(game) == hash(Game(
        big_blind=2, structure=structure, max_raises=4))


def test_result_dicts_are_the_readers_own() -> None:
    """``state.result`` handed out the hand's own ``shown`` and ``ranks`` dicts: a reader that
    changed them changed the hand (its later results and clones), and its pickle then failed
    ("result.shown and result.ranks must be dicts of the same seats")."""
    s = hu_hand()
    s.call()
    while not s.is_terminal():
        s.check()
    first = s.result
    shown, ranks = dict(first.shown), dict(first.ranks)
    assert shown and ranks
    first.shown.clear()
    first.ranks[0] = -1
    assert s.result.shown == shown and s.result.ranks == ranks
    assert s.clone().result.shown == shown
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.result == s.result and back.result.ranks == ranks
