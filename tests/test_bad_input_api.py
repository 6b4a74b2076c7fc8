"""Odd input at the public API, found by a fuzz of every entry point: endless iterables, huge
counts, numpy values, calls that must leave the state as it was."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import holdem
import holdem.acpc
import holdem.charts
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


HUGE_INT = 10**5000  # more digits than Python turns into text (int max str digits: 4300)


def _two_random() -> list[Any]:
    from holdem.table.agents import RandomAgent

    return [RandomAgent(seed=1), RandomAgent(seed=2)]


@pytest.mark.parametrize(("call", "error", "match"), [
    (lambda: holdem.simulate(_two_random(), Game(big_blind=2), 10, stack=HUGE_INT,
                             executor="serial"),
     InvalidConfigError, r"^stack an int of 16610 bits for 2 agents puts an int of 16611 bits"),
    (lambda: holdem.simulate(_two_random(), Game(big_blind=2), 10, stack=-HUGE_INT),
     InvalidConfigError, r"^stack must be an int of at least 10 big blinds \(R35\), got an int"),
    (lambda: holdem.simulate(_two_random(), Game(big_blind=2), 10, chunk_hands=-HUGE_INT),
     InvalidConfigError, r"^chunk_hands must be an int 1\.\.1,000,000 .*, got an int of 16610 bits$"),
    (lambda: holdem.simulate(_two_random(), Game(big_blind=2), 10, duplicate=HUGE_INT),
     InvalidConfigError, r"^duplicate must be .*, got an int of 16610 bits"),
    (lambda: holdem.simulate(_two_random(), HUGE_INT), InvalidConfigError,  # type: ignore[arg-type]
     r"^game must be a holdem.Game, got an int of 16610 bits"),
    (lambda: holdem.simulate(_two_random(), Game(big_blind=2), 10, executor="serial",
                             progress=10**400),
     InvalidConfigError, r"^progress must be .* above 0 and below 1000000, not an int of 1329 bits"),
    (lambda: holdem.equity(["AsAh", "KsKh"], samples=1000, executor="serial", progress=10**400),
     InvalidConfigError, r"^progress must be .* above 0 and below 1000000"),
    (lambda: holdem.equity(["AsAh", "KsKh"], target_se=HUGE_INT), InvalidConfigError,
     r"^target_se must be a number in \(0, 1\), not an int of 16610 bits"),
    (lambda: holdem.equity(["AsAh", "KsKh"], executor=HUGE_INT), InvalidConfigError,  # type: ignore[arg-type]
     r"^executor must be .*, not an int of 16610 bits"),
    (lambda: holdem.charts.winnings_chart({"a": [(0, 1), (1, 2)]}, width=HUGE_INT),
     InvalidConfigError, r"^width must be from 400 to 100000 pixels, got an int of 16610 bits"),
    (lambda: holdem.charts.winnings_chart({"a": [(0, 1), (1, -HUGE_INT)]}), InvalidConfigError,
     r"^curve 'a': y of point 1 must be a finite number within \+/-1e15, got an int of 16610"),
    (lambda: holdem.charts.winnings_chart({"a": [(0, 1), HUGE_INT]}), InvalidConfigError,
     r"^curve 'a': point 1 must be \(x, y\), got an int of 16610 bits"),
    (lambda: holdem.charts.grid_chart({"AA": 0.5}, cell=HUGE_INT), InvalidConfigError,
     r"^cell must be from 24 to 100000 pixels, got an int of 16610 bits"),
    (lambda: holdem.charts.grid_chart({"AA": HUGE_INT}), InvalidConfigError,
     r"^the value of 'AA' must be a finite number within \+/-1e15, got an int of 16610 bits"),
    (lambda: Game(big_blind=2, structure=HUGE_INT), InvalidConfigError,  # type: ignore[arg-type]
     r"^structure must be a Structure, got an int of 16610 bits"),
    (lambda: Game(big_blind=2, rake=HUGE_INT), InvalidConfigError,  # type: ignore[arg-type]
     r"^rake must be a holdem.pots.Rake or None, got an int of 16610 bits"),
    (lambda: Table(HUGE_INT, seats=2), InvalidConfigError,  # type: ignore[arg-type]
     r"^game must be a holdem.Game, got an int of 16610 bits"),
    (lambda: holdem.Observation.from_state(Game(big_blind=2).new_hand([9, 9], seed=1), HUGE_INT),
     InvalidConfigError, r"^hand_number must be an int 0\.\.2\*\*53, got an int of 16610 bits"),
    (lambda: holdem.format_cards(HUGE_INT), InvalidCardError,  # type: ignore[arg-type]
     r"^not an iterable of cards: an int of 16610 bits"),
    (lambda: holdem.Stats().merge(HUGE_INT), InvalidConfigError,  # type: ignore[arg-type]
     r"^merge takes another Stats, not an int of 16610 bits"),
    (lambda: holdem.Stats(curves=HUGE_INT), InvalidConfigError,  # type: ignore[arg-type]
     r"^curves must be True or False, got an int of 16610 bits"),
    (lambda: LiveHand(HUGE_INT, [200, 200]), InvalidConfigError,  # type: ignore[arg-type]
     r"^game must be a holdem.Game, got an int of 16610 bits"),
    (lambda: LiveHand(Game(big_blind=2), [200, 200], seed=1).report(HUGE_INT),  # type: ignore[arg-type]
     holdem.InvalidEventError, r"^not a dealer-error event: an int of 16610 bits"),
    (lambda: holdem.ExtraCards(-HUGE_INT), holdem.InvalidEventError,
     r"^ExtraCards: count must be at least 1, got an int of 16610 bits"),
    (lambda: holdem.HistoryAction.from_str("p2 f", players=-HUGE_INT), holdem.InvalidHistoryError,
     r"there is no p2 in a hand of an int of 16610 bits players"),
    (lambda: holdem.acpc.GameDef(num_players=2, limit=HUGE_INT, blinds=(1, 2),  # type: ignore[arg-type]
                                 stacks=(20, 20)),
     holdem.acpc.GameDefError, r"^GameDef: limit must be a bool, got an int of 16610 bits"),
    (lambda: holdem.acpc.GameDef(num_players=2, limit=False, blinds=(HUGE_INT, 2),
                                 stacks=(20, 20)),
     holdem.acpc.GameDefError, r"^GameDef: the blind of position 0 \(an int of 16610 bits\)"),
])
def test_ints_too_long_to_print_are_described_by_the_library(
        call: Callable[[], object], error: type[Exception], match: str) -> None:
    """An int of more than 4,300 digits was formatted raw into these messages, which then
    failed with Python's own ValueError ("Exceeds the limit (4300 digits) for integer string
    conversion"), or reached float() (OverflowError), instead of the library's error."""
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("make", [
    lambda: holdem.RandomAgent(seed=HUGE_INT),
    lambda: holdem.EquityAgent(seed=-HUGE_INT),
    lambda: Rake("1/20", cap=HUGE_INT),
    lambda: holdem.BlindSchedule([holdem.BlindLevel(1, 2)], hands_per_level=HUGE_INT),
    lambda: Action(ActionType.BET_RAISE, HUGE_INT),
    lambda: holdem.ExtraCards(HUGE_INT),
    lambda: holdem.equity(["AsAh", "KsKh"], samples=100, executor="serial", seed=HUGE_INT),
    lambda: holdem.simulate(_two_random(), Game(big_blind=2), 10, seed=-HUGE_INT,
                            executor="serial"),
])
def test_reprs_of_values_holding_huge_ints_paste_back(make: Callable[[], object]) -> None:
    """These are accepted with an int of any size (seeds, counts, a rake cap), but their repr
    (and str) failed on one too long for decimal text: it is written in hex, which pastes back."""
    from fractions import Fraction

    from holdem.table.agents import CompiledPolicy

    value = make()
    text = repr(value)
    assert "0x" in text
    str(value)  # no ValueError either
    names = {**vars(holdem), "Fraction": Fraction, "CompiledPolicy": CompiledPolicy}
    again = eval(text, names)
    assert repr(again) == text
    if not isinstance(value, holdem.RandomAgent | holdem.EquityAgent):  # (compared by identity)
        assert again == value


def test_reprs_holding_huge_ints_in_other_objects_do_not_fail() -> None:
    """A Game with such a rake cap, a LiveHand with such a seed: their reprs show it in hex."""
    game = Game(big_blind=2, rake=Rake("1/20", cap=HUGE_INT))
    assert "cap=0x" in repr(game) and "cap 0x" in str(game.rake)
    assert "seed=0x" in repr(LiveHand(Game(big_blind=2), [200, 200], seed=HUGE_INT))
    assert "seed 0x" in str(holdem.equity(["AsAh", "KsKh"], samples=100, executor="serial",
                                          seed=HUGE_INT))


def test_reprs_through_fields_repr_name_the_class_as_before() -> None:
    """The reprs that write huge ints in hex (``fields_repr``) named a NamedTuple subclass by
    its ``__qualname__`` (``test_....<locals>.Local(...)``, which does not paste back) where
    NamedTuple's own repr, and the repr before, use ``__name__``."""
    from holdem.table.agents import CompiledPolicy

    class Local(CompiledPolicy):
        pass

    assert repr(Local("random", 0, 0.5)) == "Local(kind='random', samples=0, raise_at=0.5)"
    assert repr(CompiledPolicy("call")) == "CompiledPolicy(kind='call', samples=0, raise_at=0.0)"
