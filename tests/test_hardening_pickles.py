"""A pickled hand state whose values were altered is refused with InvalidStateError by both
hand cores, never read out of bounds; every state restored from a valid pickle plays on exactly
like the original.

Corrupt pickles are loaded in a child process, so a crash shows as a crash.
"""

from __future__ import annotations

import copyreg
import functools
import pickle
import random
import subprocess
import sys
import textwrap
from types import SimpleNamespace
from typing import Any

import pytest

from holdem import AnteType, Card, Game, HoldemError, InvalidStateError, Structure
from holdem.hand._fields import FIELDS, check_state
from holdem.hand.game import COMPILED, HandState, ReferenceHandState
from holdem.pots import Pot

CORES = [HandState, ReferenceHandState]
IDX = {name: i for i, name in enumerate(FIELDS)}


def start(cls: type, game: Game, stacks: list[int], button: int, seed: int) -> Any:
    return cls._start(game, stacks, button, seed, None, None)


def state_of(st: Any) -> tuple[Any, ...]:
    return st._getstate() if hasattr(st, "_getstate") else st.__getstate__()


class Forged:
    """Pickles as ``cls`` restored from ``state`` (the two cores' own pickle formats)."""

    def __init__(self, cls: type, state: tuple[Any, ...]) -> None:
        self.cls, self.state = cls, state

    def __reduce__(self) -> Any:
        if self.cls is ReferenceHandState:
            return (copyreg._reconstructor, (self.cls, object, None), self.state)
        import holdem.hand._compiled

        return (holdem.hand._compiled._rebuild, (self.cls, self.state))


def forge(cls: type, state: tuple[Any, ...]) -> bytes:
    return pickle.dumps(Forged(cls, state))


def base_hand(cls: type) -> Any:
    st = start(cls, Game(big_blind=2, ante=1), [100, 80, 60, 200], 0, 11)
    st.call()
    st.raise_to(10)
    return st


def altered(state: tuple[Any, ...], **changes: Any) -> tuple[Any, ...]:
    out = list(state)
    for name, value in changes.items():
        out[IDX[name]] = value(out[IDX[name]]) if callable(value) else value
    return tuple(out)


def river_hand(cls: type) -> Any:
    """The hand of ``_finished`` before its last check: river, the button (seat 0) to act."""
    st = start(cls, Game(big_blind=2, ante=1), [100, 80, 60, 200], 0, 11)
    while st.street != 3 or st.actor != 0:
        st.apply(1)
    return st


def corrupted(cls: type, change: dict[str, Any]) -> tuple[Any, ...]:
    """The state of a ``CORRUPTIONS`` entry: ``base_hand`` (or the hand its ``"at"`` names:
    ``"river"``, ``"finished"``) of ``cls`` with the entry's fields changed."""
    fields = dict(change)
    base = {"preflop": base_hand, "river": river_hand,
            "finished": _finished}[fields.pop("at", "preflop")]
    return altered(state_of(base(cls)), **fields)


def _finished_result(_: object) -> Any:
    """The result of ``_finished`` (the same deal as ``base_hand`` and ``river_hand``)."""
    return _finished(ReferenceHandState).result


@functools.cache
def _spare_card() -> Card:
    """A card that ``base_hand`` deals to nobody (not in a hole, on the board or burned)."""
    s = dict(zip(FIELDS, state_of(base_hand(ReferenceHandState)), strict=True))
    used = {int(c) for c in (*s["board"], *s["burns"], *(c for h in s["hole"] for c in h))}
    return next(Card(i) for i in range(52) if i not in used)


def _move_in(seat: int, chips: int) -> dict[str, Any]:
    """``chips`` of ``seat``'s stack moved into its bet (the chip total is unchanged)."""
    def add(k: int) -> Any:
        return lambda v: (*v[:seat], v[seat] + k, *v[seat + 1:])
    return {"stacks": add(-chips), "bets": add(chips), "committed": add(chips)}


# field -> bad values (each one alone must be refused)
def lookalike_game(game: Game) -> SimpleNamespace:
    """Every attribute the hand cores read of a game (holdem.hand._plan.GameLike), copied from
    a real one, on an object that is not a Game: a pickled hand holding it is refused."""
    names = ("_plan", "big_blind", "straddle", "muck_losing_hands", "rake")
    return SimpleNamespace(_core_rules=None, **{n: getattr(game, n) for n in names})


CORRUPTIONS: list[dict[str, Any]] = [
    {"n": 0}, {"n": 1}, {"n": 11}, {"n": 1000}, {"n": -1}, {"n": 2**64}, {"n": True}, {"n": "4"},
    {"actor": 4}, {"actor": 99}, {"actor": -2}, {"actor": 2**40}, {"actor": None},
    {"button": 4}, {"button": -1}, {"button": 1000},
    {"sb_seat": 10}, {"bb_seat": -5}, {"aggr": 50},
    {"street": 5}, {"street": -1}, {"street": 99}, {"street": 1},
    {"nboard": 6}, {"nboard": 9}, {"nboard": -3},
    {"stacks": lambda v: v + (5,) * 7}, {"stacks": lambda v: v + (5,) * 996},
    {"stacks": lambda v: v[:2]}, {"bets": lambda v: v * 3}, {"folded": lambda v: v * 250},
    {"acted": lambda v: (*v, 0)}, {"committed": lambda v: (2 ** 63, *v[1:])},
    {"stacks": lambda v: (-1, *v[1:])}, {"stacks": lambda v: (2 ** 64, *v[1:])},
    {"stacks": lambda v: (v[0] + 1, *v[1:])}, {"folded": lambda v: (1, *v[1:])},
    {"folded": lambda v: (True,) * len(v)}, {"live": 1}, {"live": 9},
    {"cur": -1}, {"cur": 2**63}, {"inc": "x"}, {"dead": -4},
    {"kind": 7}, {"sizes": (1, 2)}, {"cap": -1}, {"bb": 3}, {"over": 1}, {"over": True},
    {"board": lambda v: v * 2}, {"board": (1, 2, 3, 4, 5)}, {"hole": lambda v: v[:2]},
    {"hole": lambda v: ((v[0][0], v[0][0]), *v[1:])}, {"burns": lambda v: v[:1]},
    {"posts": ((50, "big_blind", 2),)}, {"posts": ((0, "bribe", 2),)},
    {"hist": ((99, 0, 2, 2, 2, False),)}, {"hist": ((0, 7, 2, 2, 2, False),)},
    {"hist": ((0, 0, 9, 2, 2, False),)}, {"hist": 5},
    {"game": None}, {"game": "Game(big_blind=2)"}, {"seed": "7"}, {"result": "won"},
    {"game": lookalike_game},
    {"start_stacks": lambda v: (*v, 1)}, {"start_stacks": lambda v: (0, *v[1:])},
    # checks only the reference core exposes (the compiled core checks these in C as well)
    {"aggr": -2}, {"acted": lambda v: (-2, *v[1:])},
    {"bb": 2.0},  # the plan's values typed as the game's (an int, not a float equal to it)
    # the bet sizes too: (2.0, 2.0, 4.0, 4.0) loaded, and the reference core then offered a
    # fixed-limit raise to 4.0 that its own apply refused
    {"sizes": lambda v: tuple(float(x) for x in v)},
    # R37: a seat with no chips is not dealt in (start 0, nothing behind or in, cards dealt)
    {"start_stacks": lambda v: (*v[:3], 0), "stacks": lambda v: (*v[:3], 0),
     "bets": lambda v: (*v[:3], 0), "committed": lambda v: (*v[:3], 0)},
    # a chip moved from seat 1 to seat 0: the total is right, seat 0 has more than it started with
    {"stacks": lambda v: (v[0] + 1, v[1] - 1, *v[2:])},
    _move_in(1, 78),  # the seat to act (seat 1) is all in
    # R15: no betting round after the river: the showdown is not open, a record not on it
    {"at": "finished", "over": False, "actor": 1, "result": None},
    {"hist": lambda v: (*v, (1, 4, 1, 0, 0, False))},
    # R14: five board cards at most, and the ones dealt known (the flop: three)
    {"board": lambda v: (*v, _spare_card())},
    {"street": 1, "nboard": 3, "board": lambda v: v[:2], "partial": True},
    # R12: two hole cards per seat, all of them known when the hand is marked complete
    {"hole": lambda v: (v[0][:1], *v[1:])}, {"hole": lambda v: (None, *v[1:])},
    # a result only once the hand is over: the river, seat 0 to act, with the hand's result
    {"at": "river", "result": _finished_result},
]


def _label(c: dict[str, Any]) -> str:
    return ",".join(f"{k}={'<f>' if callable(v) else repr(v)[:20]}" for k, v in c.items())


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
@pytest.mark.parametrize("change", CORRUPTIONS, ids=[_label(c) for c in CORRUPTIONS])
def test_pickle_corrupt_hand_state_raises_invalid_state_error(cls: type,
                                                             change: dict[str, Any]) -> None:
    if cls is HandState and not COMPILED:
        pytest.skip("the compiled core is not built")
    data = forge(cls, corrupted(cls, change))
    with pytest.raises(InvalidStateError, match="not a valid pickled HandState"):
        pickle.loads(data)


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
def test_pickle_corrupt_hand_state_in_a_child_process(cls: type, tmp_path: Any) -> None:
    """Every corruption loaded in a fresh interpreter: no crash, InvalidStateError each time."""
    if cls is HandState and not COMPILED:
        pytest.skip("the compiled core is not built")
    base = state_of(base_hand(cls))
    blobs = [forge(cls, corrupted(cls, c)) for c in CORRUPTIONS]
    blobs += [forge(cls, base[:-1]), forge(cls, (*base, 0))]
    path = tmp_path / "blobs.pickle"
    path.write_bytes(pickle.dumps(blobs))
    code = textwrap.dedent(f"""
        import pickle, sys
        from holdem import InvalidStateError
        blobs = pickle.loads(open({str(path)!r}, "rb").read())
        for i, b in enumerate(blobs):
            try:
                pickle.loads(b)
            except InvalidStateError:
                continue
            sys.exit(f"blob {{i}} was accepted")
        print(len(blobs))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode >= 0, f"child crashed with signal {-proc.returncode}: {proc.stderr}"
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(len(blobs))]


def test_pickle_not_a_hand_class_is_refused() -> None:
    if not COMPILED:
        pytest.skip("the compiled core is not built")
    with pytest.raises(InvalidStateError, match="not a hand class"):
        pickle.loads(forge(dict, state_of(base_hand(HandState))))


GAMES = [
    Game(big_blind=2),
    Game(big_blind=4, ante=1),
    Game(big_blind=4, ante=4, ante_type=AnteType.BIG_BLIND),
    Game(big_blind=2, straddle=True),
    Game(structure=Structure.FIXED_LIMIT, big_blind=2, max_raises=2),
    Game(structure=Structure.POT_LIMIT, big_blind=2, fold_when_check_free=True),
]


def random_walk(cls: type, seed: int) -> list[Any]:
    """The states of one random hand, start to end (random game, stacks and actions)."""
    rng = random.Random(seed)
    game = rng.choice(GAMES)
    n = rng.randint(3, 10)
    st = start(cls, game, [rng.randint(1, 120) for _ in range(n)], rng.randrange(n),
               rng.randrange(1 << 32))
    out = [st.clone()]
    while not st.is_terminal():
        st.apply(rng.choice(st.actions()))
        out.append(st.clone())
    return out


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
@pytest.mark.parametrize("big_blind", [2**53, 2**52 + 1])
def test_pickle_street_total_above_a_stack_round_trips(cls: type, big_blind: int) -> None:
    """A straddle of 2 * big_blind is the street total to call even when nobody's stack
    reaches it; a seat that calls all in records that total as where it acted. The check of
    a pickled state bounded that record by one stack (2**53) and refused the state."""
    game = Game(big_blind=big_blind, straddle=True)
    st = start(cls, game, [2**53] * 4, 0, 1)
    st.call()  # all in for 2**53 against a straddle of 2 * big_blind
    assert not st.is_terminal() and st.current_bet == 2 * big_blind
    back = pickle.loads(pickle.dumps(st))
    assert back == st
    while not st.is_terminal():
        st.call()
        back.call()
        assert back == st
    assert back.result == st.result


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
def test_pickle_a_winner_above_one_stacks_limit_round_trips(cls: type) -> None:
    """Three stacks of 2**53 all in: the winner ends with more than one stack's limit. The
    check of a pickled result bounded each final stack by 2**53 and refused the hand."""
    if cls is HandState and not COMPILED:
        pytest.skip("the compiled core is not built")
    for seed in range(4):
        st = start(cls, Game(big_blind=2), [2**53] * 3, 0, seed)
        st.all_in()
        while not st.is_terminal():
            st.check_or_call()
        assert max(st.result.final_stacks) > 2**53
        assert pickle.loads(pickle.dumps(st)) == st


class _BarePot:
    """Unpickles as a ``Pot`` made without its fields (``copyreg``'s reconstructor)."""

    def __reduce__(self) -> Any:
        return (copyreg._reconstructor, (Pot, object, None))


def test_pickle_a_result_pot_without_its_fields_is_refused() -> None:
    """A result whose pot is a ``Pot`` made without its fields raised AttributeError while
    its fields were checked."""
    st = _finished(ReferenceHandState)
    r = st.result._replace(pots=(_BarePot(), *st.result.pots[1:]))
    for cls in CORES:
        if cls is HandState and not COMPILED:
            continue
        with pytest.raises(InvalidStateError, match=r"result\.pots\[0\] is not a pot"):
            pickle.loads(forge(cls, altered(state_of(_finished(cls)), result=r)))


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
def test_pickle_valid_state_restores_and_plays_on(cls: type) -> None:
    """Every state of 150 random hands passes the check, round-trips, and plays on the same."""
    for seed in range(150):
        for st in random_walk(cls, seed):
            back = pickle.loads(pickle.dumps(st))
            assert back == st and type(back) is type(st)
            assert check_state(state_of(st))["n"] == st.num_players
            rng = random.Random(seed)
            a, b = st.clone(), back
            while not a.is_terminal():
                act = rng.choice(a.actions())
                a.apply(act)
                b.apply(act)
                assert a == b
            assert a.result == b.result


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
def test_pickle_hands_of_every_start_round_trip(cls: type) -> None:
    """The replay that checks a loaded state rebuilds its start from the state itself: a dead
    small blind, extra posts (entry bets, dead small blinds, short), dead hands (TDA 30),
    cards given with some unknown and the board added as the hand goes. Every state of such
    hands loads as itself (no valid hand is refused)."""
    if cls is HandState and not COMPILED:
        pytest.skip("the compiled core is not built")
    rng = random.Random(3)
    kinds: set[str] = set()
    loaded = 0
    for seed in range(400):
        game = rng.choice(GAMES)
        n = rng.randint(3, 8)
        try:
            st = cls._start(
                game, [rng.randint(1, 60) for _ in range(n)], rng.randrange(n), seed, None,
                None, rng.random() < 0.3,
                [(s, rng.randint(0, 2), rng.randint(0, 1)) for s in rng.sample(range(n), 2)],
                tuple(sorted(rng.sample(range(n), rng.randint(0, 1)))))
        except HoldemError:  # an extra post on a blind's seat, both parts zero...
            continue
        kinds.update(p.kind for p in st.posts)
        if st.dead_hands:
            kinds.add("dead hand")
        if st.big_blind_seat == (st.button + 1) % n:
            kinds.add("dead small blind")
        while True:
            assert pickle.loads(pickle.dumps(st)) == st
            loaded += 1
            if st.is_terminal():
                break
            st.apply(rng.choice(st.actions()))
    assert {"entry_big_blind", "dead_small_blind", "dead hand", "dead small blind"} <= kinds
    assert loaded > 1000
    # cards given, seat 1's unknown (it folds), the turn and the river added during the hand
    st = cls._start(Game(big_blind=2), [50, 50, 50], 0, None, ["AsKs", None, "7d7c"], "2c3d4h")
    more = {1: "5s", 2: "9h"}  # added on the flop and on the turn, each before its street
    while True:
        assert pickle.loads(pickle.dumps(st)) == st
        if st.is_terminal():
            break
        if st.street_index in more:
            st.add_board(more.pop(st.street_index))
        elif st.actor == 1:
            st.fold()
        else:
            st.check_or_call()
    assert set(st.result.shown) == {0, 2}


def test_pickle_both_cores_save_the_same_fields() -> None:
    """The declared FIELDS are what both cores save, value for value (one list)."""
    if not COMPILED:
        pytest.skip("the compiled core is not built")
    for seed in range(40):
        for fast, ref in zip(random_walk(HandState, seed), random_walk(ReferenceHandState, seed),
                             strict=True):
            sf, sr = check_state(state_of(fast)), check_state(state_of(ref))
            assert sf.keys() == sr.keys() == set(FIELDS)
            assert sf == sr


INT_FIELDS = [f for f in FIELDS if f not in ("game", "result", "seed", "hole", "board", "burns",
                                             "posts", "hist", "sizes", "start_stacks")]


def _nudge(rng: random.Random, value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice([-3, -2, -1, 1, 2, 3, 10])
    if isinstance(value, tuple) and value and isinstance(value[0], int):
        i = rng.randrange(len(value))
        return (*value[:i], _nudge(rng, value[i]), *value[i + 1:])
    return value


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
def test_pickle_altered_states_are_all_refused(cls: type) -> None:
    """Random small alterations of valid states (one or two int fields nudged): each one is
    refused with InvalidStateError, by the field checks or by the replay of the hand's start
    and history (values that each passed their checks but no longer belonged together used
    to load). Run in a child process so a crash is seen."""
    if cls is HandState and not COMPILED:
        pytest.skip("the compiled core is not built")
    code = textwrap.dedent(f"""
        import pickle, random, sys
        sys.path.insert(0, {str(__import__("pathlib").Path(__file__).parent)!r})
        from test_hardening_pickles import (
            CORES, INT_FIELDS, IDX, _nudge, forge, random_walk, state_of)
        from holdem import InvalidStateError
        cls = CORES[{CORES.index(cls)}]
        rng = random.Random(5)
        accepted, refused, replayed = [], 0, 0
        for seed in range(60):
            for st in random_walk(cls, seed):
                for _ in range(4):
                    s = list(state_of(st))
                    names = rng.sample(INT_FIELDS, rng.randint(1, 2))
                    for name in names:
                        s[IDX[name]] = _nudge(rng, s[IDX[name]])
                    try:
                        pickle.loads(forge(cls, tuple(s)))
                    except InvalidStateError as exc:
                        refused += 1
                        replayed += "its start and history" in str(exc)
                        continue
                    accepted.append(names)
        print(accepted, refused, replayed)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode >= 0, f"child crashed with signal {-proc.returncode}: {proc.stderr}"
    assert proc.returncode == 0, proc.stderr
    accepted, refused, replayed = proc.stdout.rsplit(maxsplit=2)
    assert accepted == "[]" and int(refused) > 1000
    assert int(replayed) > 100  # the replay refused what every field check let through


def _folded_hand(cls: type) -> Any:
    """Four seats: seat 3 folds, seat 0 calls, seat 1 raises to 10 (the big blind to act)."""
    st = start(cls, Game(big_blind=2, ante=1), [100, 80, 60, 200], 0, 11)
    st.fold()
    st.call()
    st.raise_to(10)
    return st


def _swap(values: tuple[Any, ...], i: int, j: int) -> tuple[Any, ...]:
    out = list(values)
    out[i], out[j] = out[j], out[i]
    return tuple(out)


# a well-formed forgery: every field passes its own checks, the fields do not belong together
FORGERIES: list[tuple[str, dict[str, Any]]] = [
    ("a raise to another amount", {"hist": lambda v: (*v[:-1], (*v[-1][:3], 12, 12, False))}),
    ("the last action left out", {"hist": lambda v: v[:-1]}),
    ("two actions swapped", {"hist": lambda v: _swap(v, 1, 2)}),
    ("a fold by another seat", {"hist": lambda v: ((2, *v[0][1:]), *v[1:])}),
    ("a fold turned into a call", {"hist": lambda v: ((3, 0, 2, 2, 2, False), *v[1:])}),
    ("hole cards swapped", {"hole": lambda v: _swap(v, 0, 1)}),
    ("the board in another order", {"board": lambda v: v[::-1]}),
    ("another seed for the same cards", {"seed": lambda v: v + 1}),
    ("the small blind posted by another seat", {"posts": lambda v: tuple(
        (2, k, a) if k == "small_blind" else (s, k, a) for s, k, a in v)}),
    ("an ante posted as a straddle", {"posts": lambda v: tuple(
        (s, "straddle" if (s, k) == (3, "ante") else k, a) for s, k, a in v)}),
]


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
@pytest.mark.parametrize("what,change", FORGERIES, ids=[w for w, _ in FORGERIES])
def test_pickle_a_well_formed_forgery_is_refused_by_its_replay(
        cls: type, what: str, change: dict[str, Any]) -> None:
    """A pickle whose fields each pass their checks but do not belong together (a history
    no hand could have, cards swapped between seats, a post moved) used to load as a hand the
    engine never plays. Every state is now the hand its start and history replay to."""
    if cls is HandState and not COMPILED:
        pytest.skip("the compiled core is not built")
    st = _folded_hand(cls)
    good = state_of(st)
    assert pickle.loads(forge(cls, good)) == st
    check_state(altered(good, **change))  # each field passes on its own
    with pytest.raises(InvalidStateError, match=r"not a valid pickled HandState: .*its start "
                                                 r"and history"):
        pickle.loads(forge(cls, altered(good, **change)))


# --------------------------------------------------------------------------- LiveHand, Game


def live_hand() -> Any:
    from holdem import LiveHand

    h = LiveHand(Game(big_blind=2, ante=1), [100, 60, 80], button=1, seed=9)
    h.call()
    h.raise_to(10)
    return h


def test_pickle_live_hand_round_trip_plays_on() -> None:
    h = live_hand()
    back = pickle.loads(pickle.dumps(h))
    assert repr(back) == repr(h) and back.state == h.state and back.board == h.board
    while not h.state.is_terminal():
        act = h.state.actions()[-1]
        h.apply(act)
        back.apply(act)
        assert back.state == h.state and back.accounting() == h.accounting()
    assert back.result == h.result


def _live_args(h: Any) -> list[Any]:
    return list(h.__reduce__()[1])


LIVE_CORRUPTIONS: list[tuple[int, Any]] = [
    (0, None), (0, "game"), (1, (100,) * 11), (1, ()), (1, (100, -5, 80)), (1, (2**70,) * 3),
    (1, "abc"), (2, 3), (2, -1), (2, 2**64), (3, (0,) * 52), (3, tuple(range(40))), (4, "seed"),
    (5, 42), (6, ("p9 f",)), (6, (None,)), (6, "cc"),
]


@pytest.mark.parametrize(("index", "value"), LIVE_CORRUPTIONS)
def test_pickle_corrupt_live_hand_raises_invalid_state_error(index: int, value: Any) -> None:
    from holdem.live.hand import _restore_live

    args = _live_args(live_hand())
    args[index] = value
    with pytest.raises(InvalidStateError, match="not a valid pickled LiveHand"):
        _restore_live(*args)


def test_pickle_live_hand_with_an_illegal_history_is_refused() -> None:
    from holdem import Action
    from holdem.live.hand import _restore_live

    args = _live_args(live_hand())
    args[6] = (*args[6], Action.bet(5000))  # over the stack
    with pytest.raises(InvalidStateError, match="not a valid pickled LiveHand"):
        _restore_live(*args)


def test_pickle_game_altered_is_checked_like_new_input() -> None:
    from holdem.hand.game import _game_from

    good = Game(big_blind=4, ante=1)
    assert pickle.loads(pickle.dumps(good)) == good
    items = dict(good.__reduce__()[1][0])
    for change in ({"big_blind": 0}, {"ante": -1}, {"big_blind": "4"}, {"bogus": 1},
                   {"small_blind": 9}):
        with pytest.raises(InvalidStateError, match="not a valid pickled Game"):
            _game_from(tuple({**items, **change}.items()))
    with pytest.raises(InvalidStateError, match="not a valid pickled Game"):
        _game_from(5)


# --------------------------------------------------------------------------- Deck


DECK_CORRUPTIONS: list[tuple[int, Any]] = [
    (1, (0, 0, 0, 0)),  # all-zero generator: the shuffle would never end
    (1, (1, 2, 3)), (1, (-1, 2, 3, 4)), (1, (2**64, 2, 3, 4)), (1, (1.5, 2, 3, 4)), (1, None),
    (2, "x" * 52), (2, bytes(range(52)) * 2), (3, 2**64), (3, -1), (3, "52"), (4, None),
    (5, "yes"), (0, "seed"), (0, 1.5),
]


@pytest.mark.parametrize(("index", "value"), DECK_CORRUPTIONS, ids=[str(i) for i in
                                                                    range(len(DECK_CORRUPTIONS))])
def test_pickle_corrupt_deck_is_refused_in_a_child_process(index: int, value: Any) -> None:
    """Each corrupt Deck state, loaded and shuffled in a fresh interpreter (bounded time):
    a DeckError, never a crash, a hang or another exception."""
    from holdem import Deck

    fn, args = Deck(seed=1).__reduce__()
    bad = list(args)
    bad[index] = value
    data = pickle.dumps((fn, tuple(bad)))
    code = textwrap.dedent(f"""
        import pickle
        from holdem import DeckError
        fn, args = pickle.loads({data!r})
        try:
            d = fn(*args)
        except DeckError:
            print("refused")
        else:
            d.reset()
            print("accepted")
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode >= 0, f"child crashed with signal {-proc.returncode}: {proc.stderr}"
    assert proc.stdout.strip() == "refused", proc.stderr


_CROSS_HANDS = textwrap.dedent("""
    import pickle, random, sys
    import holdem
    from holdem import AnteType, Game, Structure

    def hands():
        # hands of every structure at several points of play, from the start to the end
        games = [Game(big_blind=2), Game(big_blind=4, ante=1, straddle=True),
                 Game(big_blind=4, ante=4, ante_type=AnteType.BIG_BLIND),
                 Game(structure=Structure.FIXED_LIMIT, big_blind=2, max_raises=2),
                 Game(structure=Structure.POT_LIMIT, big_blind=2, fold_when_check_free=True)]
        rng = random.Random(7)
        out = []
        for k in range(40):
            game = games[k % len(games)]
            n = rng.randint(3, 9)
            st = game.new_hand([rng.randint(5, 300) for _ in range(n)], seed=k,
                               button=rng.randrange(n))
            for _ in range(rng.randint(0, 12)):
                if st.is_terminal():
                    break
                options = st.actions()
                st.apply(options[rng.randrange(len(options))])
            out.append(st)
        return out

    def play_out(st, seed):
        rng = random.Random(seed)
        while not st.is_terminal():
            options = st.actions()
            st.apply(options[rng.randrange(len(options))])
        return st.payoffs
""")


def _child_env(compiled: bool) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if k != "HOLDEM_PURE_PYTHON"}
    if not compiled:
        env["HOLDEM_PURE_PYTHON"] = "1"
    return env


def test_a_hand_pickled_by_one_core_loads_in_the_other(tmp_path: Any) -> None:
    # both cores pickle as holdem.hand._fields.rebuild(cls, fields): the class is
    # holdem.HandState where the pickle loads, so it is restored by that process's core (it
    # used to name its own core's _rebuild, which refused the other core's class)
    ns: dict[str, Any] = {}
    exec(_CROSS_HANDS, ns)
    mine = ns["hands"]()
    assert any(st.is_terminal() for st in mine) and not all(st.is_terminal() for st in mine)
    (tmp_path / "parent.pkl").write_bytes(pickle.dumps(mine))
    child = _CROSS_HANDS + textwrap.dedent("""
        from holdem.hand.game import COMPILED
        print("compiled" if COMPILED else "pure")
        theirs = pickle.loads(open(sys.argv[1], "rb").read())
        own = hands()
        assert len(theirs) == len(own)
        for i, (a, b) in enumerate(zip(theirs, own)):
            assert type(a) is holdem.HandState, type(a)
            assert a == b, i
            assert play_out(a.clone(), i) == play_out(b.clone(), i), i
        open(sys.argv[2], "wb").write(pickle.dumps(own))
    """)
    other = not COMPILED
    proc = subprocess.run([sys.executable, "-c", child, str(tmp_path / "parent.pkl"),
                           str(tmp_path / "child.pkl")], capture_output=True, text=True,
                          timeout=300, env=_child_env(other))
    assert proc.returncode == 0, proc.stderr
    if proc.stdout.split() != ["compiled" if other else "pure"]:
        pytest.skip("the compiled core is not built: one core only")
    theirs = pickle.loads((tmp_path / "child.pkl").read_bytes())
    for i, (a, b) in enumerate(zip(theirs, mine, strict=True)):
        assert type(a) is HandState
        assert a == b, i
        assert ns["play_out"](a.clone(), i) == ns["play_out"](b.clone(), i), i


def test_pickles_naming_a_core_s_own_rebuild_still_load() -> None:
    # the format of earlier versions: the core's own _rebuild (same core only)
    import holdem.hand._reference as reference

    st = base_hand(ReferenceHandState)
    again = pickle.loads(pickle.dumps(_Named(reference._rebuild, type(st), state_of(st))))
    assert again == st
    if COMPILED:
        import holdem.hand._compiled as compiled

        st = base_hand(HandState)
        again = pickle.loads(pickle.dumps(_Named(compiled._rebuild, type(st), state_of(st))))
        assert again == st


class _Named:
    def __init__(self, fn: Any, cls: type, state: tuple[Any, ...]) -> None:
        self.fn, self.cls, self.state = fn, cls, state

    def __reduce__(self) -> Any:
        return (self.fn, (self.cls, self.state))


def test_rebuild_refuses_what_is_not_a_hand_class() -> None:
    from holdem.hand._fields import rebuild

    st = base_hand(HandState)
    for cls in (dict, object, None, "HandState", Game):
        with pytest.raises(InvalidStateError, match="is not a hand class"):
            rebuild(cls, state_of(st))


def _value_objects() -> list[Any]:
    from fractions import Fraction

    from holdem import Rake
    from holdem.acpc import GameDef
    from holdem.table.tournament import BlindLevel
    from holdem.vector import ActionLayout, ObservationSpec

    return [ActionLayout(), ActionLayout((Fraction(1, 3), 2), keep="first"),
            ActionLayout.preset("fcpa"), ObservationSpec(3), Game(big_blind=2, ante=1),
            Rake("0.05", cap=3), BlindLevel(1, 2), GameDef(limit=False, num_players=2,
                                                           blinds=(2, 1), stacks=(100, 100))]


@pytest.mark.parametrize("obj", _value_objects(), ids=lambda o: type(o).__name__)
def test_pickle_value_objects_go_through_their_constructor(obj: Any) -> None:
    """Frozen value objects pickle through their constructor (holdem._pickling): an equal
    object, the same bytes pickled again; and a state in the dataclass's default form (an
    earlier build's, or crafted: ``ActionLayout`` fractions that repeat hung ``.names``
    forever, a ``Game`` with a negative big blind played with the cached rules of another,
    ``Rake(-1)`` paid chips, ``GameDef`` of one player) is rebuilt by the constructor: the
    valid one restored, the altered one refused with InvalidStateError."""
    import copy
    import dataclasses

    data = pickle.dumps(obj)
    again = pickle.loads(data)
    assert again == obj and pickle.dumps(again) == data
    assert copy.copy(obj) == obj and copy.deepcopy(obj) == obj
    fields = dataclasses.fields(obj)
    state = {f.name: getattr(obj, f.name) for f in fields}
    for form in (state, [state[f.name] for f in fields], (None, state)):
        fresh = object.__new__(type(obj))
        fresh.__setstate__(form)
        assert fresh == obj
    first = next(f.name for f in fields if f.init)
    bad_values = {"fractions": ((0.5, 0.5), "ab", (0,)), "players": (50, "3", None),
                  "structure": ("NL", None), "fraction": (-1, 2, "x"), "small_blind": (5,),
                  "limit": ("no", 1)}[first]
    for bad in bad_values:
        for form in ({**state, first: bad}, [bad if f.name == first else state[f.name]
                                             for f in fields]):
            fresh = object.__new__(type(obj))
            with pytest.raises(InvalidStateError, match=f"not a valid pickled "
                                                        f"{type(obj).__name__}"):
                fresh.__setstate__(form)
    for junk in (None, 5, "text", [-1] * 40, (-1, -1)):
        with pytest.raises(InvalidStateError,
                           match=f"not a (valid )?pickled {type(obj).__name__}"):
            object.__new__(type(obj)).__setstate__(junk)


def test_pickle_value_object_rebuild_refuses_what_is_not_one() -> None:
    from holdem._pickling import rebuild
    from holdem.vector import ObservationSpec

    assert rebuild(ObservationSpec, (3,)) == ObservationSpec(3)
    for cls, fields in ((ObservationSpec, [3]), ("ObservationSpec", (3,)),
                        (ObservationSpec, {1: 3}), (ObservationSpec, (3, 1, 1))):
        with pytest.raises(InvalidStateError, match="not a"):
            rebuild(cls, fields)  # type: ignore[arg-type]


def _finished(cls: type) -> Any:
    """A hand played to a showdown with a split side pot (ranks and pots to forge)."""
    st = start(cls, Game(big_blind=2, ante=1), [100, 80, 60, 200], 0, 11)
    while not st.is_terminal():
        st.apply(1)  # check or call to the river
    return st


def _plus(values: tuple[int, ...], seat: int, k: int) -> tuple[int, ...]:
    """``values`` with ``k`` added to ``seat``'s."""
    return (*values[:seat], values[seat] + k, *values[seat + 1:])


def _forged_results(r: Any) -> list[tuple[str, Any]]:
    n = len(r.payoffs)
    other = next(s for s in range(n) if s not in r.shown)
    seat = next(iter(r.shown))
    pot = r.pots[0]
    won = pot.winners[0]
    assert other != won and pot.rake == r.rake == 0 and pot.amount > 2
    return [
        # a chip lost: the final stacks (and payoffs, which agree) sum one below the start
        ("add up", r._replace(final_stacks=_plus(r.final_stacks, won, -1),
                              payoffs=_plus(r.payoffs, won, -1))),
        # a chip of a loser's stack behind moved to the winner: the sum is right
        (rf"final_stacks\[{other}\]", r._replace(final_stacks=_plus(
            _plus(r.final_stacks, other, -1), won, 1), payoffs=_plus(
            _plus(r.payoffs, other, -1), won, 1))),
        # R32: one share per winner of a pot (two shares of the pot, one winner)
        ("pots", r._replace(pots=(pot.__class__(pot.amount, pot.eligible, (won,),
                                                (pot.amount - 1, 1), 0), *r.pots[1:]))),
        # R34: the rake the pots took is the result's rake (a chip of rake, none in the result)
        ("hold its rake", r._replace(pots=(pot.__class__(pot.amount, pot.eligible, (won,),
                                                         (pot.amount - 1,), 1), *r.pots[1:]))),
        # a rank for a seat that did not show
        ("same seats", r._replace(ranks={**r.ranks, other: 1})),
        ("payoffs", r._replace(payoffs=(100, -50, -50, 0))),
        ("final_stacks", r._replace(final_stacks=())),
        ("payoffs", r._replace(final_stacks=tuple(f + 1 for f in r.final_stacks))),
        ("payoffs", r._replace(payoffs=tuple(float(p) for p in r.payoffs))),
        ("returned", r._replace(returned=(-1,) * n)),
        ("rake", r._replace(rake=5)),
        ("pots", r._replace(pots=("junk",))),
        # a pot holding what no pot holds: shares that are no chips (a TypeError while adding
        # them up), a rake of 0.0 (equal to 0, but not a count of chips)
        ("pots", r._replace(pots=(pot.__class__(pot.amount, pot.eligible, pot.winners,
                                                ("x",) * len(pot.winners), pot.rake),
                                  *r.pots[1:]))),
        ("pots", r._replace(pots=(pot.__class__(pot.amount, pot.eligible, pot.winners,
                                                pot.shares, 0.0), *r.pots[1:]))),
        ("pots", r._replace(pots=(pot.__class__(pot.amount + 1, pot.eligible, pot.winners,
                                                pot.shares, pot.rake), *r.pots[1:]))),
        ("shown", r._replace(shown={**r.shown, other: r.shown[seat]},
                             ranks={**r.ranks, other: r.ranks[seat]})),
        ("seat of the result", r._replace(shown={7: "x"}, ranks={7: 1})),
        ("rank", r._replace(ranks={**r.ranks, seat: r.ranks[seat] + 1})),
        ("seat of the result", r._replace(showdown_order=(9,))),
        ("HandResult", tuple(r)),
    ]


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
def test_pickle_a_forged_result_is_refused(cls: type) -> None:
    """A finished hand's result was checked for its type and seat count only: forged payoffs
    (``(100, -50, -50, 0)`` for a hand whose payoffs differ) loaded, and ``from_state`` then
    failed with IndexError. The result must agree with the state: chips, pots, cards shown
    and their ranks."""
    if cls is HandState and not COMPILED:
        pytest.skip("the compiled core is not built")
    st = _finished(cls)
    r = st.result
    assert r.shown and len(r.pots) >= 1
    good = state_of(st)
    assert pickle.loads(forge(cls, good)).result == r
    for what, bad in _forged_results(r):
        with pytest.raises(InvalidStateError, match=f"not a valid pickled HandState: .*{what}"):
            pickle.loads(forge(cls, altered(good, result=bad)))


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
def test_pickle_lists_given_for_tuples_load_as_the_hand_makes_them(cls: type) -> None:
    """A pickle holding hole cards (or a result's fields) as lists loaded and kept them:
    the hand compared unequal to the same hand, ``hole_cards[0]`` was a mutable list, and at
    the showdown ``result.shown`` held it, so the hand no longer pickled. A loaded hand holds
    the values the hand itself makes."""
    if cls is HandState and not COMPILED:
        pytest.skip("the compiled core is not built")
    st = river_hand(cls)
    listed = altered(state_of(st), hole=lambda v: tuple(list(h) for h in v))
    back = pickle.loads(forge(cls, listed))
    assert back == st and back.hole_cards == st.hole_cards
    assert all(type(h) is tuple for h in back.hole_cards)
    while not st.is_terminal():
        st.apply(1)
        back.apply(1)
    assert back == st and back.result == st.result and back.result.shown
    assert all(type(cards) is tuple for cards in back.result.shown.values())
    assert pickle.loads(pickle.dumps(back)) == st
    r = st.result
    r_listed = r._replace(payoffs=list(r.payoffs), final_stacks=list(r.final_stacks),
                          pots=list(r.pots), returned=list(r.returned),
                          showdown_order=list(r.showdown_order), mucked=list(r.mucked))
    done = pickle.loads(forge(cls, altered(state_of(st), result=r_listed)))
    assert done == st and done.result == r
    assert all(type(v) is tuple for v in done.result[:4])
    assert pickle.loads(pickle.dumps(done)) == st


class _Call:
    """Pickles as ``fn(*args)`` (what an altered pickle calls its reconstructor with)."""

    def __init__(self, fn: Any, *args: Any) -> None:
        self.fn, self.args = fn, args

    def __reduce__(self) -> Any:
        return (self.fn, self.args)


def test_pickle_reconstructors_given_other_arguments_refuse_them() -> None:
    """A hand's and a game's reconstructors called with fewer or more arguments than they
    pickle (an altered pickle) raised a bare TypeError."""
    from holdem.hand._fields import rebuild
    from holdem.hand.game import _game_from

    st = base_hand(ReferenceHandState)
    for args in ((), (type(st),), (type(st), state_of(st), None)):
        with pytest.raises(InvalidStateError, match="not a valid pickled HandState: expected a "
                                                    "hand class and its state"):
            pickle.loads(pickle.dumps(_Call(rebuild, *args)))
    assert pickle.loads(pickle.dumps(_Call(rebuild, type(st), state_of(st)))) == st
    game = Game(big_blind=2, ante=1)
    items = game.__reduce__()[1]
    for args in ((), (*items, None)):
        with pytest.raises(InvalidStateError, match="not a valid pickled Game: expected its "
                                                    "fields"):
            pickle.loads(pickle.dumps(_Call(_game_from, *args)))
    assert pickle.loads(pickle.dumps(_Call(_game_from, *items))) == game
