"""Odd input at the public API, found by a fuzz of every entry point: endless iterables, huge
counts, numpy values, calls that must leave the state as it was."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import holdem
from holdem import (
    Action,
    ActionType,
    Game,
    InvalidActionError,
    InvalidCardError,
    InvalidConfigError,
    InvalidHandError,
    InvalidPotError,
    InvalidRangeError,
    LiveHand,
    Rake,
    Range,
    Table,
    TableError,
)

np = pytest.importorskip("numpy")


def _endless(item: Any, most: int = 1000) -> Iterator[Any]:
    """``item`` again and again: an endless iterable that fails the test (rather than hang
    it) when more than ``most`` items are read."""
    for _ in range(most):
        yield item
    raise AssertionError(f"read more than {most} items of an endless iterable")


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: Game(big_blind=2).new_hand(_endless(200)), InvalidConfigError,
     r"2 to 10 players \(R1\), got more"),
    (lambda: Game(big_blind=2).new_hand([200, 200], hole_cards=_endless("AsAh")),
     InvalidConfigError, r"one entry per seat \(2\)"),
    (lambda: Game(big_blind=2).new_hand([200, 200], hole_cards=[_endless("As"), "KsKh"]),
     InvalidHandError, "2 hole cards, got more than 2"),
    (lambda: Game(big_blind=2).new_hand([200, 200], hole_cards=["AsAh", "KsKh"],
                                        board=_endless("2c")),
     InvalidHandError, "at most 5 cards, got more than 5"),
    (lambda: Game(big_blind=2).new_hand([200, 200], hole_cards=["AsAh", "KsKh"], board="2c3c")
     .add_board(_endless("4c")), InvalidHandError, "more than 3 more is too many"),
    (lambda: Game(big_blind=2).new_hand([200] * 3, seed=1, extra_posts=_endless((0, 2, 0))),
     InvalidConfigError, "more posts than the 3 seats"),
    (lambda: Game(big_blind=2).new_hand([200] * 3, seed=1, dead_hands=_endless(0)),
     InvalidConfigError, "seat 0 is given twice"),
    (lambda: Range.from_combos(_endless("AsKd")), InvalidRangeError, "'AsKd' is given twice"),
])
def test_endless_iterables_are_refused_after_a_few_items(call: Callable[[], object],
                                                        error: type[Exception], match: str) -> None:
    """They were read to their end: new_hand(itertools.count(1)) grew until MemoryError, a
    board of itertools.cycle(...) and Range.from_combos(itertools.repeat("AsKd")) never
    returned."""
    with pytest.raises(error, match=match):
        call()


def test_huge_sequences_are_refused_by_their_length() -> None:
    from holdem.vector import ObservationSpec, VectorGame

    spec = ObservationSpec(2)
    with pytest.raises(InvalidConfigError, match="hole must be two distinct card ids"):
        spec.reseat(np.zeros(spec.width, np.float32), 1, range(10**18))  # it hung
    vg = VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=200, seed=1)
    with pytest.raises(InvalidConfigError, match="streams must be 2 ints"):
        vg.play(10, [holdem.CallAgent()] * 2, streams=range(10**18))  # it grew until MemoryError


def test_counts_beyond_2_53_are_refused_as_vector_play_refuses_them() -> None:
    """equity(samples=10**100) and simulate(hands=10**100) ran for ever."""
    with pytest.raises(InvalidConfigError, match=r"samples must be an int 1..2\*\*53"):
        holdem.equity(["AsAh", "KsKh"], samples=10**100, seed=1, executor="serial")
    with pytest.raises(InvalidConfigError, match=r"hands must be an int 1..2\*\*53"):
        holdem.simulate([holdem.CallAgent()] * 2, Game(big_blind=2), 10**100, seed=1,
                        executor="serial")


def test_board_that_is_not_cards_is_named() -> None:
    """It raised a bare TypeError: 'int' object is not iterable."""
    with pytest.raises(InvalidCardError, match=r"board must be cards .* got 5"):
        Game(big_blind=2).new_hand([200, 200], hole_cards=["AsAh", "KsKh"], board=5)


def test_numpy_integers_are_ints_for_the_game_and_the_hand() -> None:
    """Every whole-number argument takes numpy's integers (holdem._ints); Game and new_hand
    refused them ("big_blind must be an int number of chips, got np.int64(2)"). They are kept
    as plain ints."""
    game = Game(big_blind=np.int64(2), ante=np.int32(1))
    assert game == Game(big_blind=2, ante=1) and type(game.big_blind) is int
    assert repr(game) == repr(Game(big_blind=2, ante=1))
    state = game.new_hand(np.array([200, 100, 50]), button=np.int64(1), seed=1,
                          extra_posts=[(np.int64(1), np.int64(2), 0)], dead_hands=np.array([0]))
    plain = game.new_hand([200, 100, 50], button=1, seed=1, extra_posts=[(1, 2, 0)],
                          dead_hands=[0])
    assert state.starting_stacks == plain.starting_stacks and state.bets == plain.bets
    assert type(state.starting_stacks[0]) is int


@pytest.mark.parametrize(("call", "match"), [
    (lambda: Game(big_blind=2, straddle=np.array([True, False])), "straddle must be True or"),
    (lambda: Game(big_blind=2).new_hand([200] * 3, seed=1, extra_posts=""),
     "extra_posts must be a sequence"),
    (lambda: Game(big_blind=2).new_hand([200] * 3, seed=1, extra_posts=False),
     "extra_posts must be a sequence"),
    (lambda: Game(big_blind=2).new_hand([200] * 3, seed=1, extra_posts=np.array([[1, 2, 0]])),
     "seat 1 already posts the small blind"),
])
def test_values_are_checked_before_their_truth_is_read(call: Callable[[], object],
                                                       match: str) -> None:
    """A numpy array's truth value raised numpy's own ValueError ("ambiguous"), and
    extra_posts=False or "" was read as no posts."""
    with pytest.raises(InvalidConfigError, match=match):
        call()


def test_live_hand_replay_is_all_or_nothing() -> None:
    """A refused item left the items before it applied; bytes were read as action codes."""
    hand = LiveHand(Game(big_blind=2), [200, 200, 200], seed=1)
    before = repr(hand)
    with pytest.raises(InvalidActionError, match=r"^replay item 1 \('bogus'\): unknown action"):
        hand.replay(["cc", "bogus"])
    assert repr(hand) == before and hand.history == ()
    for text in (b"As", "cc"):
        with pytest.raises(InvalidActionError, match="an iterable of actions and events"):
            hand.replay(text)  # type: ignore[arg-type]
        assert repr(hand) == before
    assert hand.replay(["cc", "cc"]) is hand and len(hand.history) == 2
    assert eval(repr(hand), vars(holdem)).history == hand.history


def test_rake_of_and_share_of_check_their_argument() -> None:
    """Rake.of(nan) gave nan, of(-100) -5 and of(1000.0) a float; Pot.share_of(True) read seat
    1 and share_of("x") gave 0."""
    rake = Rake(0.05)
    for bad in (float("nan"), -100, 1000.0, "100", True):
        with pytest.raises(InvalidPotError, match="total must be an int of chips >= 0"):
            rake.of(bad)  # type: ignore[arg-type]
    assert rake.of(1000) == rake.of(np.int64(1000)) == 50
    pot = holdem.split_pots([10, 10], [False, False], [1, 2], 0).pots[0]
    for bad in (True, 1.0, "x", -1):
        with pytest.raises(InvalidPotError, match="seat must be an int >= 0"):
            pot.share_of(bad)  # type: ignore[arg-type]
    assert pot.share_of(1) == pot.share_of(np.int64(1)) == 20 and pot.share_of(5) == 0


def test_come_back_takes_a_bool_as_sit_does() -> None:
    """wait_for_big_blind="no" made the player wait (sit() refused it)."""
    table = Table(Game(big_blind=2), seats=3, seed=1)
    table.sit(0, "ana", 200, holdem.CallAgent())
    table.sit_out("ana")
    with pytest.raises(TableError, match="wait_for_big_blind must be True or False, got 'no'"):
        table.come_back("ana", wait_for_big_blind="no")  # type: ignore[arg-type]
    assert str(table.player("ana").status) == str(holdem.PlayerStatus.SITTING_OUT)


def test_action_repr_pastes_back_as_the_same_action() -> None:
    """The amount was written with str(): Action(RAISE, "6") printed as Action(..., 6)."""
    for action in (Action(ActionType.RAISE, "6"), Action.raise_to(6),  # type: ignore[arg-type]
                   Action.fold(), Action(ActionType.BET, 10**20)):
        assert eval(repr(action), vars(holdem)) == action


def test_numpy_arrays_are_refused_before_their_truth_is_read() -> None:
    """Comparing an array with a str (``keep in (...)``, ``name == ...``) or reading its truth
    raised numpy's "truth value of an array is ambiguous"."""
    from holdem.table.tournament import BlindLevel, BlindSchedule
    from holdem.vector import ActionLayout

    pair = np.array(["a", "b"])
    with pytest.raises(InvalidConfigError, match="executor must be None"):
        holdem.equity(["AsAh", "KsKh"], board="2c3c4c5c", executor=pair)
    with pytest.raises(InvalidConfigError, match="keep must be 'all_in' or 'first'"):
        ActionLayout(keep=pair)  # type: ignore[arg-type]
    table = Table(Game(big_blind=2), seats=3, seed=1)
    table.sit(0, "a", 100, holdem.CallAgent())
    with pytest.raises(TableError, match="a player's name is a str"):
        table.player(pair)  # type: ignore[arg-type]
    schedule = BlindSchedule([BlindLevel(1, 2), BlindLevel(2, 4)], hands_per_level=10)
    with pytest.raises(InvalidConfigError, match="hands must be an int number of hands"):
        schedule.index_at(hands=np.array([1, 2]))  # type: ignore[arg-type]
    assert schedule.index_at(hands=np.int64(25)) == 1
    assert holdem.parse_range("AA", dead=np.array([51, 50])) == Range("AdAc")
    assert holdem.parse_range("AA", dead="") == Range("AA")


def test_rl_modes_that_are_arrays_are_refused() -> None:
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from holdem.rl.gymnasium import HoldemEnv
    from holdem.rl.pettingzoo import env as aec_env

    pair = np.array(["ansi", "human"])
    with pytest.raises(InvalidConfigError, match="render_mode"):
        HoldemEnv(Game(big_blind=2), players=2, render_mode=pair)  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match="render_mode"):
        aec_env(render_mode=pair)  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match="illegal"):
        aec_env(illegal=pair)  # type: ignore[arg-type]


def test_a_chip_unit_too_long_to_print_is_named() -> None:
    """A chip unit of 10**5000 made the message itself fail (int repr over 4,300 digits:
    a bare ValueError from replay, from_state and Stats.add_state)."""
    from holdem.errors import InvalidHistoryError
    from holdem.history import from_state

    state = Game(big_blind=2).new_hand([100, 100], seed=1)
    state.fold()
    with pytest.raises(InvalidHistoryError, match="chip_unit an int of 16610 bits is out of range"):
        from_state(state, chip_unit=10**5000)
    with pytest.raises(InvalidConfigError, match=r"^unit an int of 16610 bits is out of range"):
        holdem.Stats().add_state(state, ["a", "b"], unit=10**5000)
