"""Tournament tables as a user running a sit-and-go sees them: chips, blind schedules, the
errors of bad schedules. Rule ids from RULES.md (and TDA rules) are in the docstrings."""

from __future__ import annotations

import copy
import copyreg
import itertools
import pickle
from fractions import Fraction
from typing import Any

import pytest
from table_checks import call_all

from holdem import (
    BlindLevel,
    BlindSchedule,
    CallAgent,
    Game,
    InvalidConfigError,
    InvalidStateError,
    Mode,
    Table,
)
from holdem.pots import Rake


def _forged_table(state: dict[str, Any]) -> Any:
    """Load a table pickle whose state was altered to ``state``."""

    class Forged:
        def __reduce__(self) -> tuple[Any, ...]:
            return (copyreg._reconstructor, (Table, object, None),  # type: ignore[attr-defined]
                    state)

    return pickle.loads(pickle.dumps(Forged()))


# ---------------------------------------------------------------------- rake (R34)
def test_R34_a_tournament_table_takes_no_rake() -> None:
    """R34's rake is the house's share of a cash pot; the table's rules give it to cash mode
    only ("Cash mode: rake from game.rake"). A tournament's chips are not money: no pot of a
    tournament is raked, or the winner would end with fewer chips than were bought in. A
    tournament game with a rake is refused when the table is made, not raked hand after hand."""
    game = Game(big_blind=10, mode=Mode.TOURNAMENT, rake=Rake(0.1, cap=50))
    with pytest.raises(InvalidConfigError, match="rake"):
        Table(game, seats=3, seed=1)


def test_R34_an_altered_pickle_of_a_tournament_table_with_a_rake_is_refused() -> None:
    t = Table(Game(big_blind=10, mode=Mode.TOURNAMENT), seats=3, seed=1)
    call_all(t, [0, 1, 2], stack=500)
    t.play(2)
    state = dict(t.__getstate__())
    state["game"] = Game(big_blind=10, mode=Mode.TOURNAMENT, rake=Rake(0.1))
    with pytest.raises(InvalidStateError, match="not a valid pickled Table"):
        _forged_table(state)
    assert pickle.loads(pickle.dumps(t)).player("s0").stack == t.player("s0").stack



# ---------------------------------------------------------------------- timed levels (R10)
def test_R10_timed_levels_past_the_end_of_a_float_stay_at_the_last_level() -> None:
    """R10 levels by time: however many periods have passed, the last level stays in force
    (the module's promise); the division of the elapsed time by a tiny period, or an elapsed
    time without end, never overflows."""
    levels = [BlindLevel(5, 10), BlindLevel(10, 20)]
    tiny = BlindSchedule(levels, minutes_per_level=1e-320)
    assert tiny.level_at(seconds=0.0).big_blind == 10
    assert tiny.level_at(seconds=100.0).big_blind == 20
    assert tiny.level_at(seconds=1e300).big_blind == 20
    ten = BlindSchedule(levels, minutes_per_level=10)
    assert ten.index_at(seconds=float("inf")) == 1
    assert ten.index_at(seconds=599.0) == 0 and ten.index_at(seconds=600.0) == 1
    forever = BlindSchedule(levels, minutes_per_level=float("inf"))
    assert forever.index_at(seconds=1e300) == 0


def test_R10_a_period_no_float_can_hold_is_refused_up_front() -> None:
    """A minutes_per_level too large for a float was accepted, then the first timed hand
    raised OverflowError: it is refused when the schedule is made, naming the value."""
    with pytest.raises(InvalidConfigError, match="minutes_per_level"):
        BlindSchedule([BlindLevel(5, 10)], minutes_per_level=10**400)


def test_R10_minutes_per_level_takes_any_real_number_of_minutes() -> None:
    """R10 by time: half a minute given as a Fraction or a numpy float is half a minute (a
    Fraction was refused as "must be > 0", numpy ints as well); the value is kept as an int or
    a float, so the repr pastes back."""
    np = pytest.importorskip("numpy")
    levels = [BlindLevel(5, 10), BlindLevel(10, 20)]
    for half in (Fraction(1, 2), np.float32(0.5), np.float64(0.5), 0.5):
        sched = BlindSchedule(levels, minutes_per_level=half)
        assert sched.minutes_per_level == 0.5 and type(sched.minutes_per_level) is float
        assert sched.index_at(seconds=29.9) == 0 and sched.index_at(seconds=30) == 1
        assert eval(repr(sched)) == sched
    three = BlindSchedule(levels, minutes_per_level=np.int16(3))
    assert three.minutes_per_level == 3 and type(three.minutes_per_level) is int


@pytest.mark.parametrize(("minutes", "message"), [
    (True, "a number of minutes > 0, got True"), ("1", "a number of minutes > 0, got '1'"),
    ([1], "a number of minutes > 0"), (0, "> 0, got 0"), (Fraction(-1, 2), "> 0, got Fraction"),
    (float("nan"), "> 0, got nan")], ids=repr)
def test_R10_minutes_per_level_that_are_no_time_are_refused_by_name(minutes: object,
                                                                     message: str) -> None:
    with pytest.raises(InvalidConfigError, match=f"minutes_per_level must be {message}"):
        BlindSchedule([BlindLevel(5, 10)], minutes_per_level=minutes)  # type: ignore[arg-type]


def test_R10_a_table_with_a_tiny_period_plays_at_the_last_level() -> None:
    now = [0.0]
    t = Table(Game(big_blind=10, mode=Mode.TOURNAMENT), seats=3, seed=1, clock=lambda: now[0],
              schedule=BlindSchedule([BlindLevel(5, 10), BlindLevel(10, 20)],
                                     minutes_per_level=1e-320))
    call_all(t, [0, 1, 2], stack=500)
    assert t.play_hand().state.game.big_blind == 10
    now[0] = 30.0
    assert t.level == BlindLevel(10, 20)
    assert t.play_hand().state.game.big_blind == 20


def test_R10_levels_by_hands_do_not_read_the_clock() -> None:
    """Levels by hands never look at the clock: a table whose clock gives no time still
    plays them."""
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=3, seed=1,
              clock=lambda: float("nan"),
              schedule=BlindSchedule([BlindLevel(1, 2), BlindLevel(2, 4)], hands_per_level=1))
    call_all(t, [0, 1, 2], stack=100)
    assert [r.state.game.big_blind for r in t.play(2)] == [2, 4]


@pytest.mark.parametrize("reading", [float("nan"), None, "12:00"], ids=repr)
def test_R10_a_clock_that_gives_no_time_gets_the_library_error(reading: object) -> None:
    """The table's clock must give seconds: a reading that is not a number (NaN, None, text)
    raises InvalidConfigError naming the clock, not Python's ValueError or TypeError; the
    table is unchanged."""
    readings = itertools.chain([0.0, 0.0], itertools.repeat(reading))
    t = Table(Game(big_blind=10, mode=Mode.TOURNAMENT), seats=3, seed=1,
              clock=lambda: next(readings),
              schedule=BlindSchedule([BlindLevel(5, 10), BlindLevel(10, 20)],
                                     minutes_per_level=10))
    call_all(t, [0, 1, 2], stack=500)
    t.play_hand()
    stacks = [p.stack for p in t.players]
    with pytest.raises(InvalidConfigError, match="clock"):
        t.play_hand()
    with pytest.raises(InvalidConfigError, match="clock"):
        _ = t.level
    assert [p.stack for p in t.players] == stacks and t.hand_number == 1
    with pytest.raises(InvalidConfigError, match="seconds"):
        BlindSchedule([BlindLevel(5, 10)], minutes_per_level=10).index_at(seconds=float("nan"))


# ---------------------------------------------------------------------- schedule input
@pytest.mark.parametrize("levels", [None, 5, BlindLevel(5, 10)], ids=repr)
def test_R10_a_schedule_without_a_sequence_of_levels_gets_the_library_error(
        levels: Any) -> None:
    """BlindSchedule(None) (or one level not in a list) raised Python's TypeError "object is
    not iterable", which names nothing of the schedule: it raises InvalidConfigError naming
    the levels, as a list of things other than levels already did."""
    with pytest.raises(InvalidConfigError, match="BlindLevel"):
        BlindSchedule(levels, hands_per_level=5)


@pytest.mark.parametrize("hands", [1.5, "3", None], ids=repr)
def test_R10_level_at_a_hand_count_that_is_not_an_int_gets_the_library_error(
        hands: Any) -> None:
    """level_at(hands=1.5) failed inside with "tuple indices must be integers": the hand
    count is named in an InvalidConfigError."""
    schedule = BlindSchedule([BlindLevel(5, 10), BlindLevel(10, 20)], hands_per_level=1)
    with pytest.raises(InvalidConfigError, match="hands"):
        schedule.level_at(hands=hands)
    assert schedule.level_at(hands=1).big_blind == 20


def test_R10_numpy_numbers_are_hand_counts_and_seconds() -> None:
    """Numpy integers count hands and numpy floats (float32 too) give seconds, as ints and
    floats do."""
    np = pytest.importorskip("numpy")
    by_hands = BlindSchedule([BlindLevel(5, 10), BlindLevel(10, 20)], hands_per_level=2)
    assert by_hands.index_at(hands=np.int64(2)) == by_hands.index_at(hands=np.uint8(3)) == 1
    timed = BlindSchedule([BlindLevel(5, 10), BlindLevel(10, 20)], minutes_per_level=1)
    assert timed.index_at(seconds=np.float32(59.5)) == 0
    assert timed.index_at(seconds=np.float64(60.0)) == timed.index_at(seconds=np.int32(61)) == 1


# ---------------------------------------------------------------------- pickles
_NOW = [0.0]


def _read_clock() -> float:
    """A table clock that pickles (by name) and reads ``_NOW``: setting ``_NOW`` between a
    dump and a load stands for another process, whose clock has another origin."""
    return _NOW[0]


def _timed_tournament() -> Table:
    _NOW[0] = 0.0
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=4, seed=3, clock=_read_clock,
              schedule=BlindSchedule([BlindLevel(1, 2), BlindLevel(2, 4)], minutes_per_level=1))
    call_all(t, [0, 1, 2, 3], stack=100)
    t.play(2)
    return t


@pytest.mark.parametrize("load_at", [7.0, 1000.0, -5e6], ids=repr)
def test_R10_a_timed_tournament_loaded_elsewhere_resumes_its_level_clock(
        load_at: float) -> None:
    """R10: the level goes up by the time played. A pickle keeps the seconds the level clock
    has run, and loading resumes it there, whatever the loading clock reads (another process,
    or a reboot, starts time.monotonic anew; the time spent pickled does not count). The
    pickle held the raw reading, so a table saved 90 s into its clock and loaded where the
    clock read 7 came back 7 s in, at the first level."""
    _NOW[0] = 0.0
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=3, seed=3, clock=_read_clock,
              schedule=BlindSchedule([BlindLevel(1, 2), BlindLevel(2, 4), BlindLevel(3, 6)],
                                     minutes_per_level=1))
    call_all(t, [0, 1, 2], stack=200)
    t.play_hand()  # the clock starts here, at 0
    _NOW[0] = 90.0
    assert t.level == BlindLevel(2, 4)
    data = pickle.dumps(t)
    _NOW[0] = load_at
    copy_ = pickle.loads(data)
    assert copy_.level == BlindLevel(2, 4)
    assert copy_.play_hand().state.game.big_blind == 4
    _NOW[0] = load_at + 29.0  # 119 s played
    assert copy_.level == BlindLevel(2, 4)
    _NOW[0] = load_at + 30.0  # 120 s: the third level
    assert copy_.level == BlindLevel(3, 6)
    assert copy_.play_hand().state.game.big_blind == 6


def test_R10_a_timed_tournament_pickled_before_its_first_hand_starts_its_clock_after() -> None:
    """Before the first hand the level clock has not started (None in the pickle): the copy
    starts it at its own first hand."""
    _NOW[0] = 50.0
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=2, seed=3, clock=_read_clock,
              schedule=BlindSchedule([BlindLevel(1, 2), BlindLevel(2, 4)], minutes_per_level=1))
    call_all(t, [0, 1], stack=200)
    assert t.__getstate__()["_clock_seconds"] is None
    copy_ = pickle.loads(pickle.dumps(t))
    _NOW[0] = 500.0
    assert copy_.level == BlindLevel(1, 2)
    assert copy_.play_hand().state.game.big_blind == 2
    _NOW[0] = 559.0
    assert copy_.level == BlindLevel(1, 2)
    _NOW[0] = 560.0
    assert copy_.level == BlindLevel(2, 4)


def test_R10_a_pickle_whose_clock_gives_no_time_when_loaded_is_refused() -> None:
    """Loading reads the table's clock (to resume the level clock): a clock that gives no
    time then refuses the pickle by name, nothing half loaded."""
    t = _timed_tournament()
    data = pickle.dumps(t)
    _NOW[0] = float("nan")
    with pytest.raises(InvalidStateError, match=r"not a valid pickled Table.*clock"):
        pickle.loads(data)


def test_a_tournament_pickle_with_a_seated_player_without_chips_is_refused() -> None:
    """A tournament eliminates a player whose stack reaches 0 at the end of that hand (the
    table's rules), so no tournament seat holds a player without chips. An altered pickle
    with one loaded, and the table never ended: that player was never placed, is_over()
    stayed False while no hand could be dealt. It raises InvalidStateError."""
    t = _timed_tournament()
    state = dict(t.__getstate__())
    seats = [copy.copy(p) for p in state["_seats"]]
    seats[1].stack += seats[0].stack
    seats[0].stack = 0
    state["_seats"] = seats
    with pytest.raises(InvalidStateError, match=r"not a valid pickled Table.*chips"):
        _forged_table(state)


@pytest.mark.parametrize("played", [float("nan"), float("inf"), -float("inf")], ids=repr)
def test_a_table_pickle_with_clock_seconds_that_are_no_time_is_refused(played: float) -> None:
    """The time the level clock has run (R10 timed levels) is a finite number of seconds; an
    altered pickle with NaN or an infinity was loaded and failed at the next hand."""
    state = dict(_timed_tournament().__getstate__())
    state["_clock_seconds"] = played
    with pytest.raises(InvalidStateError, match=r"not a valid pickled Table.*level clock"):
        _forged_table(state)


class _Shover:
    """Bets or raises all in whenever it may, else checks or calls."""

    def act(self, obs: Any) -> Any:
        from holdem import Action

        la = obs.legal
        return Action.bet_or_raise(la.max_to) if la.can_raise else Action.check_or_call()


def test_r10_players_out_in_one_hand_place_by_starting_stack_ties_shared() -> None:
    """TDA (R10's tournaments): players eliminated in the same hand finish in the order of
    their stacks at the start of the hand, the bigger stack higher; equal stacks share the
    place. Stacks 300/30/30/50, everyone all in, the 300 busts the other three."""
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=4, seed=0)
    for s, chips in enumerate([300, 30, 30, 50]):
        t.sit(s, f"p{s}_{chips}", chips, _Shover())
    r = t.play_hand()
    assert set(r.eliminated) == {"p1_30", "p2_30", "p3_50"}
    assert t.places == {"p0_300": 1, "p3_50": 2, "p1_30": 3, "p2_30": 3}


def test_r10_r26_fixed_limit_tournament_levels_set_both_bet_sizes() -> None:
    """R10 with R26: in a fixed-limit tournament a level of blinds 5/10 plays a small bet of
    10 and a big bet of 20 (the turn and river bets)."""
    from holdem import Action, Structure

    class BetsTheTurn:
        def act(self, obs: Any) -> Any:
            la = obs.legal
            if obs.street.name == "TURN" and la.can_raise:
                return Action.bet_or_raise(la.min_to)
            return Action.check_or_call()

    game = Game(structure=Structure.FIXED_LIMIT, big_blind=2, mode=Mode.TOURNAMENT)
    t = Table(game, seats=2, seed=1,
              schedule=BlindSchedule([BlindLevel(5, 10)], hands_per_level=10))
    t.sit(0, "a", 1000, BetsTheTurn())
    t.sit(1, "b", 1000, CallAgent())
    r = t.play_hand()
    assert (r.state.game.small_bet, r.state.game.big_bet) == (10, 20)
    assert [(h.type.name, h.to) for h in r.state.history if h.street.name == "TURN"] == [
        ("CHECK", 0), ("BET", 20), ("CALL", 20)]
