"""Table pickles: a table (and its players, agents and blind schedule) pickles between hands
and plays on exactly as the original; a pickle whose state was altered raises
InvalidStateError (a HoldemError) when loaded, and never yields a table that fails later."""

from __future__ import annotations

import copyreg
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from table_checks import call_all

from holdem import (
    Action,
    BlindLevel,
    BlindSchedule,
    CallAgent,
    EquityAgent,
    Game,
    HoldemError,
    InvalidStateError,
    Mode,
    Observation,
    PlayerStatus,
    RandomAgent,
    Table,
    TableError,
)
from holdem.hand._validate import MAX_CHIPS
from holdem.table._seating import Positions
from holdem.table.table import Player


class _Forged:
    """Pickles as ``cls`` with the given state (what an altered pickle file holds)."""

    def __init__(self, cls: type, state: Any) -> None:
        self.cls, self.state = cls, state

    def __reduce__(self) -> tuple[Any, ...]:
        return (copyreg._reconstructor, (self.cls, object, None),  # type: ignore[attr-defined]
                self.state)


def _loads_forged(cls: type, state: Any) -> Any:
    return pickle.loads(pickle.dumps(_Forged(cls, state)))


def _session(tournament: bool = False, dead_button: bool = False) -> Table:
    if tournament:
        sched = BlindSchedule([BlindLevel(1, 2), BlindLevel(2, 4, 1)], hands_per_level=10)
        t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=5, seed=3, schedule=sched)
        for s in range(4):
            t.sit(s, f"r{s}", 300, RandomAgent(seed=s))
        t.play(12)
        return t
    t = Table(Game(big_blind=2, straddle=True), seats=7, seed=4, dead_button=dead_button)
    for s in (0, 2, 3, 5):
        t.sit(s, f"r{s}", 200, RandomAgent(seed=s))
    t.play(8)
    t.sit(6, "new", 100, EquityAgent(seed=1, samples=8))
    t.sit(1, "waits", 100, CallAgent(), wait_for_big_blind=True)
    t.sit_out("r3")
    t.play_hand()
    return t


def _records(t: Table, hands: int) -> list[Any]:
    return [(*r[:12], r.state.raw_history(), r.placement) for r in t.play(hands)]


@pytest.mark.parametrize("kind", ["cash", "dead_button", "tournament"])
def test_table_pickle_round_trip_plays_on_the_same(kind: str) -> None:
    t = _session(tournament=kind == "tournament", dead_button=kind == "dead_button")
    copy = pickle.loads(pickle.dumps(t))
    assert repr(copy) == repr(t)
    assert [(p.name, p.stack, p.status, p.owes) for p in copy.players] == [
        (p.name, p.stack, p.status, p.owes) for p in t.players]
    assert _records(copy, 40) == _records(t, 40)
    assert copy.chips_in_play + copy.cashed_out + copy.rake == copy.bought_in


@pytest.mark.parametrize("kind", ["cash", "tournament"])
def test_a_copy_of_a_table_shares_nothing(kind: str) -> None:
    """``copy.copy`` shared the seats, players and agents: playing the copy moved the
    original's stacks (its chips then did not add up, and it could not be pickled). A copy
    plays on as the original does, and leaves it as it was."""
    import copy as copying

    t = _session(tournament=kind == "tournament", dead_button=False)
    before = pickle.dumps(t)
    for dup in (copying.copy(t), copying.deepcopy(t)):
        assert _records(dup, 20) == _records(pickle.loads(before), 20)
        assert pickle.dumps(t) == before
        assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in


def test_table_cannot_be_pickled_during_a_hand() -> None:
    t = Table(Game(big_blind=2), seats=3, seed=1)
    errors: list[Exception] = []

    def pickler(obs: Observation) -> Any:
        try:
            pickle.dumps(t)
        except TableError as exc:
            errors.append(exc)
        return 1

    t.sit(0, "p", 100, pickler)
    call_all(t, [1, 2])
    t.play_hand()
    assert errors and "between hands" in str(errors[0])


def _state() -> dict[str, Any]:
    t = _session()
    state = t.__getstate__()
    assert _loads_forged(Table, dict(state)).hand_number == t.hand_number  # the forge works
    return state


def _player(state: dict[str, Any], **change: Any) -> dict[str, Any]:
    seats = list(state["_seats"])
    k = next(i for i, p in enumerate(seats) if p is not None)
    p = seats[k]
    q = Player(p.name, p.seat, p.stack, p.agent, p.status, p.entry_due, p.owes_big_blind,
               p.owes_small_blind, p.leaving, p.hands_played)
    for name, v in change.items():
        object.__setattr__(q, name, v)
    seats[k] = q
    return {**state, "_seats": seats}


_ALTERED = {
    "size 0": {"size": 0}, "size 11": {"size": 11}, "size 1000": {"size": 1000},
    "size not an int": {"size": 7.0},
    "seats shorter": {"_seats": None}, "seats longer": {"_seats": "longer"},
    "a seat holds junk": {"_seats": "junk"},
    "button out of range": {"_prev": Positions(7, 0, 2, 0)},
    "negative big blind": {"_prev": Positions(0, 2, -1, 2)},
    "small blind out of range": {"_prev": Positions(0, 99, 2, 99)},
    "positions not Positions": {"_prev": (0, 2, 3, 2)},
    "no positions after hands": {"_prev": None},
    "last small blind out of range": {"_prev_sb_pos": 17},
    "first button out of range": {"_first_button": 7},
    "negative hand number": {"hand_number": -1},
    "hand number beyond 64 bits": {"hand_number": 2**64},
    "chips do not add up": {"bought_in": 1},
    "negative rake": {"rake": -1},
    "saved mid-hand": {"_in_hand": True},
    "tournament flag": {"tournament": True},
    "minimum buy-in": {"min_buy_in": 3},
    "maximum buy-in below the minimum": {"max_buy_in": 5},
    "schedule on a cash table": {"schedule": BlindSchedule([BlindLevel(1, 2)],
                                                           hands_per_level=2)},
    "seed and bits differ": {"_bits": 12345},
    "places at a cash table": {"places": {"r0": 1}},
    "clock not callable": {"clock": 5},
    "game not a Game": {"game": "nl 1/2"},
    "dead_button not a bool": {"dead_button": 1},
}


@pytest.mark.parametrize("what", sorted(_ALTERED))
def test_altered_table_pickle_raises_invalid_state_error(what: str) -> None:
    state = {**_state(), **_ALTERED[what]}
    if what == "seats shorter":
        state["_seats"] = _state()["_seats"][:-1]
    elif what == "seats longer":
        state["_seats"] = [*_state()["_seats"], None]
    elif what == "a seat holds junk":
        state["_seats"] = ["junk", *_state()["_seats"][1:]]
    with pytest.raises(InvalidStateError, match="not a valid pickled Table"):
        _loads_forged(Table, state)


@pytest.mark.parametrize("change", [
    {"seat": 6}, {"name": ""}, {"name": "r2"}, {"stack": -1}, {"stack": MAX_CHIPS + 1},
    {"stack": 10.0}, {"status": "active"}, {"entry_due": 1}, {"leaving": None},
    {"hands_played": -3}, {"agent": None},
], ids=repr)
def test_altered_player_in_a_table_pickle_raises_invalid_state_error(change: Any) -> None:
    # refused by the table's checks, or, for a field a player holds on its own, by the
    # player's (the first to run, as the player is unpickled first)
    with pytest.raises(InvalidStateError, match=r"not a valid pickled (Table|Player)"):
        _loads_forged(Table, _player(_state(), **change))


@pytest.mark.parametrize("change", [
    {"seat": 10}, {"seat": -1}, {"seat": "0"}, {"name": ""}, {"name": 5}, {"stack": -1},
    {"stack": MAX_CHIPS + 1}, {"stack": 10.0}, {"status": "active"}, {"entry_due": 1},
    {"leaving": None}, {"hands_played": -3}, {"agent": None},
], ids=repr)
def test_altered_player_pickle_raises_invalid_state_error(change: Any) -> None:
    """A player pickled on its own took any fields (a stack of -100, a status 'junk'):
    checked as a table checks its players."""
    import dataclasses

    good = Player("a", 0, 100, CallAgent())
    names = ["name", "seat", "stack", "agent", "status", "entry_due", "owes_big_blind",
             "owes_small_blind", "leaving", "hands_played"]
    state = tuple({**{n: getattr(good, n) for n in names}, **change}[n] for n in names)
    with pytest.raises(InvalidStateError, match="not a valid pickled Player"):
        _loads_forged(Player, state)
    again = pickle.loads(pickle.dumps(good))
    assert [getattr(again, f.name) for f in dataclasses.fields(Player) if f.name != "agent"
            and f.name != "_act"] == [getattr(good, f.name) for f in dataclasses.fields(Player)
                                      if f.name not in ("agent", "_act")]


def test_missing_or_extra_fields_and_bad_player_pickles() -> None:
    state = _state()
    for bad in ({k: v for k, v in state.items() if k != "rake"}, {**state, "x": 1}, [1, 2],
                "state"):
        with pytest.raises(InvalidStateError):
            _loads_forged(Table, bad)
    with pytest.raises(InvalidStateError, match="Player"):
        _loads_forged(Player, ("a", 0))


@pytest.mark.parametrize("obj, state", [
    (RandomAgent, {"seed": 1, "_rng": 5}),
    (RandomAgent, {"seed": 1}),
    (EquityAgent, {"seed": 1, "samples": 0, "raise_at": 0.6, "_rng": random.Random(1)}),
    (EquityAgent, {"seed": 1, "samples": 8, "raise_at": "high", "_rng": random.Random(1)}),
], ids=["random-rng", "random-missing", "equity-samples", "equity-raise_at"])
def test_altered_agent_pickles_raise_invalid_state_error(obj: type, state: Any) -> None:
    with pytest.raises(InvalidStateError):
        _loads_forged(obj, state)


def test_blind_levels_and_schedules_unpickle_through_their_checks() -> None:
    level = BlindLevel(5, 10, 1)
    sched = BlindSchedule([BlindLevel(1, 2), level], minutes_per_level=15)
    assert pickle.loads(pickle.dumps(level)) == level
    assert repr(pickle.loads(pickle.dumps(sched))) == repr(sched)
    data = pickle.dumps(level)
    for bad in (b"K\x05K\nK\x01", ):  # the three ints as pickled
        assert bad in data
    with pytest.raises(InvalidStateError, match="BlindLevel"):
        pickle.loads(data.replace(b"K\x05K\nK\x01", b"K\x05J\xff\xff\xff\xffK\x01"))  # bb -1
    with pytest.raises(InvalidStateError, match="BlindLevel"):
        pickle.loads(data.replace(b"K\x05K\nK\x01", b"K\x0bK\nK\x01"))  # sb above the bb
    from holdem.table.tournament import _restore
    with pytest.raises(InvalidStateError, match="BlindSchedule"):
        _restore(BlindSchedule, ((),), {"hands_per_level": 3, "minutes_per_level": None})
    with pytest.raises(InvalidStateError):
        _restore(dict, (), {})


_FIELDS = ["size", "_first_button", "_prev_sb_pos", "hand_number", "bought_in", "cashed_out",
           "rake", "_prev", "stack", "seat", "hands_played"]


@given(field=st.sampled_from(_FIELDS),
       value=st.one_of(st.integers(-2**70, 2**70), st.integers(-3, 12), st.none(),
                       st.floats(allow_nan=True), st.text(max_size=3),
                       st.tuples(st.integers(-2, 12), st.integers(-2, 12))))
def test_any_altered_field_is_refused_or_gives_a_table_that_plays(field: str,
                                                                 value: Any) -> None:
    """Whatever one field is changed to: the load raises InvalidStateError, or the table it
    gives plays on with nothing but HoldemErrors (no IndexError, no crash)."""
    state = _STATE
    if field in ("stack", "seat", "hands_played"):
        state = _player(state, **{field: value})
    elif field == "_prev" and isinstance(value, tuple):
        state = {**state, "_prev": Positions(value[0], value[1], value[1], None)}
    else:
        state = {**state, field: value}
    try:
        t = _loads_forged(Table, state)
    except InvalidStateError:
        return
    for _ in range(5):
        try:
            t.play_hand()
        except HoldemError:
            break
    assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in


_STATE = _state()


@pytest.mark.parametrize("field", ["bought_in", "hand_number", "stack", "seat", "size"])
def test_altered_pickle_with_an_int_too_long_to_print(field: str) -> None:
    huge = 10**5000
    state = (_player(_STATE, **{field: huge}) if field in ("stack", "seat")
             else {**_STATE, field: huge})
    with pytest.raises(InvalidStateError, match=r"an int of 16610 bits|chips do not add up"):
        _loads_forged(Table, state)



def _fresh(seats: int = 3, **kw: Any) -> Table:
    return Table(Game(big_blind=2), seats=seats, seed=1, **kw)


def test_a_one_seat_table_pickle_is_refused() -> None:
    """R1: 2 to 10 players, so a table has 2 to 10 seats; a forged one-seat table whose
    other fields agree with it (one seat list, button 0) is refused too."""
    state = {**_fresh(2).__getstate__(), "size": 1, "_seats": [None], "_first_button": 0}
    with pytest.raises(InvalidStateError, match="a table has 2 to 10 seats, got 1"):
        _loads_forged(Table, state)


def test_a_min_buy_in_that_only_equals_as_a_float_is_refused() -> None:
    assert _STATE["min_buy_in"] == 20
    with pytest.raises(InvalidStateError, match=r"min_buy_in 20\.0 does not match the game"):
        _loads_forged(Table, {**_STATE, "min_buy_in": 20.0})


def test_a_table_whose_maximum_buy_in_is_its_minimum_pickles() -> None:
    t = _fresh(max_buy_in=20)
    assert t.min_buy_in == t.max_buy_in == 20
    call_all(t, [0, 1], stack=20)
    t.play(2)
    copy = pickle.loads(pickle.dumps(t))
    assert copy.max_buy_in == 20 and copy.hand_number == t.hand_number


@pytest.mark.parametrize("played", [True, -1.0, -1e-9, "60"], ids=repr)
def test_the_seconds_played_on_the_level_clock_are_none_or_a_time_at_least_zero(
        played: object) -> None:
    """finite_seconds: an int or float, not a bool (True is no time), and a clock that has
    run cannot have run for less than no time."""
    with pytest.raises(InvalidStateError, match="the seconds played on the level clock must be "
                                                "None or a finite number >= 0"):
        _loads_forged(Table, {**_STATE, "_clock_seconds": played})


def test_a_hand_number_beyond_63_bits_is_refused() -> None:
    with pytest.raises(InvalidStateError, match=r"hand_number must be an int 0\.\.2\*\*63-1"):
        _loads_forged(Table, {**_STATE, "hand_number": 2**63})
    assert _loads_forged(Table, {**_STATE, "hand_number": 2**63 - 1}).hand_number == 2**63 - 1


def test_hands_played_without_last_positions_are_refused() -> None:
    """After a hand the table keeps its positions: hand_number > 0 with no last positions
    (the last small blind seat agreeing, None) is a forged state."""
    with pytest.raises(InvalidStateError, match="no last hand's positions after 5 hands"):
        _loads_forged(Table, {**_STATE, "_prev": None, "_prev_sb_pos": None, "hand_number": 5})


def test_a_last_small_blind_seat_out_of_range_is_refused() -> None:
    prev = _STATE["_prev"]._replace(sb_seat=99)
    with pytest.raises(InvalidStateError, match=r"last hand's positions must be seats 0\.\.6"):
        _loads_forged(Table, {**_STATE, "_prev": prev})


def test_negative_totals_that_add_up_are_refused() -> None:
    """cashed_out and rake are each checked >= 0, not only their sum with the stacks."""
    state = {**_STATE, "cashed_out": _STATE["cashed_out"] - 5, "rake": _STATE["rake"] + 5}
    assert state["cashed_out"] < 0
    with pytest.raises(InvalidStateError, match="cashed_out must be an int >= 0"):
        _loads_forged(Table, state)


def test_a_finishing_place_below_1_is_refused() -> None:
    state = _session(tournament=True).__getstate__()
    with pytest.raises(InvalidStateError, match="places must map names to places >= 1"):
        _loads_forged(Table, {**state, "places": {"gone": 0}})


class _OtherPlayer(Player):
    """A Player subclass (module level: it pickles by reference)."""


def test_a_seat_holding_a_player_subclass_is_refused() -> None:
    seats = list(_STATE["_seats"])
    k = next(i for i, p in enumerate(seats) if p is not None)
    p = seats[k]
    seats[k] = _OtherPlayer(p.name, p.seat, p.stack, p.agent, p.status, p.entry_due,
                            p.owes_big_blind, p.owes_small_blind, p.leaving, p.hands_played)
    with pytest.raises(InvalidStateError, match=f"seat {k} must hold a Player or None"):
        _loads_forged(Table, {**_STATE, "_seats": seats})


@pytest.mark.parametrize("change", [{"_prev_sb_pos": -1}, {"_prev": "sb_seat=-1"},
                                    {"_prev": "small_blind=-1"}], ids=repr)
def test_negative_seats_in_last_positions_are_refused(change: dict[str, Any]) -> None:
    state = dict(_STATE)
    if change.get("_prev") == "sb_seat=-1":
        state["_prev"] = _STATE["_prev"]._replace(sb_seat=-1)
    elif change.get("_prev") == "small_blind=-1":
        state["_prev"] = _STATE["_prev"]._replace(small_blind=-1)
    else:
        state.update(change)
    with pytest.raises(InvalidStateError, match="not a valid pickled Table"):
        _loads_forged(Table, state)


def test_a_table_holding_the_engines_limit_of_chips_pickles() -> None:
    """2**53 chips at the table is allowed (every one of them may end in one stack)."""
    t = Table(Game(big_blind=2), seats=3, seed=1)
    t.sit(0, "a", MAX_CHIPS // 2, CallAgent())
    t.sit(1, "b", MAX_CHIPS // 2, CallAgent())
    assert t.chips_in_play == MAX_CHIPS == 2**53
    copy = pickle.loads(pickle.dumps(t))
    assert copy.chips_in_play == MAX_CHIPS


def test_a_player_leaving_is_never_seated_between_hands() -> None:
    """A player who leaves during a hand is removed when it ends: a pickle (between hands)
    seating one marked leaving was loaded, and in a tournament (where ``leave`` refuses a
    player with chips) the next hand removed every such player, cashing out their chips."""
    tournament = _session(tournament=True).__getstate__()
    for state in (_STATE, tournament):
        with pytest.raises(InvalidStateError, match="is leaving, but a table between hands"):
            _loads_forged(Table, _player(state, leaving=True))


def _knocked_out() -> Table:
    """A tournament of four with one player knocked out (place 4) and three still seated."""
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=5, seed=1)
    for s in range(4):
        t.sit(s, f"r{s}", 300, RandomAgent(seed=s))
    while not t.places:
        t.play_hand()
    assert len(t.players) == 3 and t.places == {"r0": 4}
    return t


class _AllIn:
    """Bets or raises all in whenever it may, else checks or calls."""

    def act(self, obs: Observation) -> Any:
        la = obs.legal
        return Action.bet_or_raise(la.max_to) if la.can_raise else Action.check_or_call()


def test_tournament_places_a_table_reaches_pickle() -> None:
    over = _session(tournament=True)
    assert over.is_over() and over.places == {"r3": 3, "r0": 4, "r1": 2, "r2": 1}
    ties = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=4, seed=0)
    for s, chips in enumerate([300, 30, 30, 50]):
        ties.sit(s, f"p{s}_{chips}", chips, _AllIn())
    ties.play_hand()
    assert ties.places == {"p0_300": 1, "p3_50": 2, "p1_30": 3, "p2_30": 3}
    for t in (over, ties, _knocked_out()):
        copy = pickle.loads(pickle.dumps(t))
        assert copy.places == t.places and copy.is_over() == t.is_over()


@pytest.mark.parametrize("places", [
    {"r0": 4, "nobody": 1},  # a winner who never sat, the players still seated
    {"r0": 2**201}, {"r0": 3}, {"r0": 5},  # the first player out of four finishes fourth
    {"r0": 4, "r1": 1}, {"r0": 4, "r1": 3},  # a place for a player still seated
    {"r0": 4, "gone": 4, "x": 4, "y": 4, "z": 4, "w": 4},  # more places than seats
], ids=repr)
def test_tournament_places_no_table_reaches_are_refused(places: dict[str, int]) -> None:
    """Finishing places were checked for their types only: places for nobody who sat, up to
    2**201, or for players still seated loaded, and the tournament then ended with a winner
    who never played."""
    with pytest.raises(InvalidStateError, match="not the finishing places"):
        _loads_forged(Table, {**_knocked_out().__getstate__(), "places": places})


@pytest.mark.parametrize("places", [{"r2": 1}, {"r3": 3, "r0": 4, "r1": 2},
                                    {"r3": 3, "r0": 4, "r1": 2, "r2": 2}], ids=repr)
def test_an_over_tournament_has_its_winner_and_no_other_place(places: dict[str, int]) -> None:
    with pytest.raises(InvalidStateError, match="not the finishing places"):
        _loads_forged(Table, {**_session(tournament=True).__getstate__(), "places": places})


def test_places_before_a_tournament_starts_are_refused() -> None:
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=5, seed=3)
    for s in range(2):
        t.sit(s, f"r{s}", 300, CallAgent())
    with pytest.raises(InvalidStateError, match="not the finishing places"):
        _loads_forged(Table, {**t.__getstate__(), "places": {"gone": 3}})


@pytest.mark.parametrize("change", [{"owes_big_blind": True}, {"owes_small_blind": True},
                                    {"entry_due": True}, {"status": PlayerStatus.WAITING}],
                         ids=repr)
def test_a_tournament_player_under_cash_rules_is_refused(change: dict[str, Any]) -> None:
    """A tournament deals in every player with chips: nobody waits for the big blind or owes
    a blind (R36 is for cash games)."""
    with pytest.raises(InvalidStateError, match="a tournament player neither waits"):
        _loads_forged(Table, _player(_knocked_out().__getstate__(), **change))


def test_a_tournament_that_cashed_chips_out_is_refused() -> None:
    state = _knocked_out().__getstate__()
    state = {**state, "bought_in": state["bought_in"] + 50, "cashed_out": 50}
    with pytest.raises(InvalidStateError, match="a tournament cashes nobody out"):
        _loads_forged(Table, state)


def test_a_table_that_played_the_most_hands_refuses_the_next_and_still_pickles() -> None:
    """A pickle holds up to 2**63 - 1 hands: a table loaded at that count played on and could
    then not be pickled again. The table plays no hand past the count it pickles."""
    t = _loads_forged(Table, {**_STATE, "hand_number": 2**63 - 2})
    t.play_hand()
    assert t.hand_number == 2**63 - 1
    before = pickle.dumps(t)
    assert pickle.loads(before).hand_number == 2**63 - 1
    for table in (t, pickle.loads(before)):
        with pytest.raises(TableError, match="the most a table counts"):
            table.play_hand()
        with pytest.raises(TableError, match="the most a table counts"):
            table.play(3)
    assert pickle.dumps(t) == before


class _Blank:
    """Pickles as a ``cls`` made without its state (copyreg's reconstructor, no state)."""

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def __reduce__(self) -> tuple[Any, ...]:
        return (copyreg._reconstructor, (self.cls, object, None))  # type: ignore[attr-defined]


@pytest.mark.parametrize("made", ["unpickled", "__new__"])
def test_a_table_made_without_its_state_says_so_in_its_repr(made: str) -> None:
    """A table unpickled without its state (or made by ``Table.__new__``) raised
    AttributeError from its repr (a debugger's first look at it): it says it holds no
    state. (Its other uses raise AttributeError: a hook on every failed lookup would put the
    whole class on CPython's slow attribute path, +4.6% instructions a hand.)"""
    blank = pickle.loads(pickle.dumps(_Blank(Table))) if made == "unpickled" else \
        Table.__new__(Table)
    assert repr(blank) == "<Table with no state>"


@pytest.mark.parametrize("cls", [Player, RandomAgent, EquityAgent])
def test_a_table_pickle_seating_a_player_or_agent_without_its_state_is_refused(
        cls: type) -> None:
    """A player made without its state made the table's load raise AttributeError; an agent
    made without its state loaded, and the table then failed in play()."""
    state = _STATE
    if cls is Player:
        seats = list(state["_seats"])
        k = next(i for i, p in enumerate(seats) if p is not None)
        seats[k] = _Blank(Player)
        state = {**state, "_seats": seats}
        match = f"seat {k}: a player made without its fields"
    else:
        state = _player(state, agent=_Blank(cls))
        match = f"the agent <{cls.__name__} with no state> cannot act"
    with pytest.raises(InvalidStateError, match=match):
        _loads_forged(Table, state)


@pytest.mark.parametrize("cls", [RandomAgent, EquityAgent])
def test_an_agent_made_without_its_state_is_refused_a_seat(cls: type) -> None:
    """An agent unpickled without its state sat down and failed in the middle of a hand
    (AttributeError from its act): its repr says it holds no state and a table refuses it."""
    blank = pickle.loads(pickle.dumps(_Blank(cls)))
    assert repr(blank) == f"<{cls.__name__} with no state>"
    t = Table(Game(big_blind=2), seats=2, seed=1)
    with pytest.raises(TableError, match="must be callable or have an act"):
        t.sit(0, "a", 100, blank)
