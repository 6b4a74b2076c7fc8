"""Bad-input suite: Game, Game.new_hand, HandState actions (apply, the verbs, seat=), the
per-seat queries (status, is_legal...) and HandState pickles. See tests/badinput.py for the
contract and how each property runs in a child process."""

from __future__ import annotations

import copyreg
import pickle
from typing import Any

import pytest
from badinput import bounded, call, forged_pickle, rejected, run_in_child
from hypothesis import given
from hypothesis import strategies as st

HUGE = st.sampled_from([2**31, 2**32, 2**53, 2**53 + 1, 2**62, 2**63 - 1, 2**63, 2**64,
                        10**30, -(2**63) - 1])
SMALL = st.integers(-3, 400)
NUMS = st.one_of(SMALL, SMALL, HUGE, st.integers(-(2**70), 2**70))
ODD = st.one_of(st.none(), st.floats(allow_nan=True), st.text(max_size=4), st.booleans(),
                st.binary(max_size=2), st.just([1]))
SEATS = st.one_of(st.integers(-12, 12), HUGE, ODD)

QUERIES = ("actor", "street", "board", "stacks", "bets", "committed", "statuses", "pot",
           "history", "posts", "hole_cards", "burned", "button", "small_blind_seat",
           "big_blind_seat", "seed", "num_players", "starting_stacks", "current_bet",
           "is_terminal", "street_index")
METHODS = ("legal_actions", "current_player", "returns", "actions", "clone",
           "history_by_street")


def _queries(state: Any) -> tuple[Any, ...]:
    """Every public query of ``state``, each through the contract check."""
    out = []
    for name in QUERIES:
        value = call(getattr, state, name)
        out.append(value() if callable(value) and name == "is_terminal" else repr(value))
    for name in METHODS:
        out.append(repr(call(getattr(state, name))))
    if state.is_terminal():
        out.append(repr(call(getattr, state, "result")))
        out.append(repr(call(getattr, state, "payoffs")))
    for seat in range(-1, state.num_players + 1):
        out.append(repr(call(state.status, seat)))
    return tuple(out)


def _conserved(state: Any) -> None:
    assert sum(state.stacks) + state.pot == sum(state.starting_stacks) or state.is_terminal()
    if state.is_terminal():
        res = state.result
        assert sum(res.final_stacks) + res.rake == sum(state.starting_stacks)


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    import holdem

    kwargs: dict[str, Any] = {"big_blind": draw(st.one_of(st.integers(1, 20), NUMS, ODD))}
    for name, good in (("small_blind", st.integers(0, 10)), ("ante", st.integers(0, 5)),
                       ("straddle", st.booleans()),
                       ("structure", st.sampled_from(list(holdem.Structure))),
                       ("ante_type", st.sampled_from(list(holdem.AnteType))),
                       ("mode", st.sampled_from(list(holdem.Mode))),
                       ("max_raises", st.integers(0, 5)), ("big_bet", st.integers(1, 40)),
                       ("fold_when_check_free", st.booleans()),
                       ("rake", st.sampled_from([None, holdem.Rake("1/20", cap=3)]))):
        choice = draw(st.integers(0, 5))
        if choice == 0:
            kwargs[name] = draw(good)
        elif choice == 1:
            kwargs[name] = draw(st.one_of(NUMS, ODD))
    if kwargs.get("structure") is holdem.Structure.FIXED_LIMIT:
        kwargs.setdefault("small_bet", kwargs["big_blind"])
    elif "big_bet" in kwargs and draw(st.booleans()):
        del kwargs["big_bet"]
    return kwargs


@st.composite
def hand_args(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(0, 11))
    stacks: Any = draw(st.lists(st.one_of(st.integers(1, 500), NUMS, ODD.filter(lambda x: x is
                                                                           not None)),
                                min_size=n, max_size=n)
                       if draw(st.integers(0, 2)) == 0 else
                       st.lists(st.integers(1, 500), min_size=n, max_size=n))
    args: dict[str, Any] = {"stacks": stacks}
    if draw(st.booleans()):
        args["button"] = draw(SEATS)
    if draw(st.booleans()):
        args["seed"] = draw(st.one_of(NUMS, ODD))
    else:
        cards = st.one_of(st.sampled_from(["AsAh", "KsKh", "????", "7c2d", "AsAs", "Xx", ""]),
                          st.none(), st.just(["As", "Kd"]), ODD)
        args["hole_cards"] = draw(st.one_of(st.lists(cards, min_size=n, max_size=n), ODD))
        args["board"] = draw(st.one_of(st.sampled_from(["", "Ad9c5h", "Ad9c5h2s3c", "Ad9c5h2s3c4c",
                                                        "Qs"]), ODD))
    if draw(st.integers(0, 3)) == 0:
        args["dead_small_blind"] = draw(st.one_of(st.booleans(), ODD))
    if draw(st.integers(0, 3)) == 0:
        post = st.tuples(SEATS, st.one_of(st.integers(0, 3), NUMS), st.one_of(st.integers(0, 2),
                                                                               NUMS))
        args["extra_posts"] = draw(st.one_of(st.lists(post, max_size=3), ODD))
    if draw(st.integers(0, 3)) == 0:  # TDA 30: seats whose hand is dead from the deal
        args["dead_hands"] = draw(st.one_of(st.lists(st.one_of(SEATS, NUMS), max_size=11),
                                            ODD))
    return args


TYPED = ("big_blind", "small_blind", "ante", "straddle", "structure", "ante_type", "mode",
         "max_raises", "big_bet", "small_bet", "fold_when_check_free", "rake", "stacks",
         "button", "seed", "hole_cards", "board", "dead_small_blind", "extra_posts")


@given(games(), hand_args())
@bounded(150)
def game_and_new_hand(game_kwargs: dict[str, Any], args: dict[str, Any]) -> None:
    import holdem

    game = call(holdem.Game, **game_kwargs, types=TYPED)
    if rejected(game):
        return
    stacks = args.pop("stacks")
    state = call(game.new_hand, stacks, **args, types=TYPED)
    if rejected(state):
        return
    assert 2 <= state.num_players <= 10 and list(state.starting_stacks) == list(stacks)
    _queries(state)
    _conserved(state)


def _action_strategy() -> st.SearchStrategy[Any]:
    import holdem

    amounts = st.one_of(st.integers(-2, 300), HUGE)
    texts = st.one_of(
        st.sampled_from(["f", "cc", "x", "c", "cbr", "cbr 6", "sm", "sd", "d dh p1 AsAh",
                         "p1 f", "p2 cc", "p11 cc", "p0 cc", "p-1 f", "cbr -4", "cbr 1e3",
                         "cbr 0x10", "cbr 6.5", "  cc  ", "cc # note", "", "p1", "cbr 6 7"]),
        amounts.map(lambda a: f"cbr {a}"),
        st.integers(1, 12).map(lambda p: f"p{p} cbr 10"),
        st.integers(100, 6000).map(lambda k: f"p1 cbr {'9' * k}"),
        st.integers(100, 6000).map(lambda k: f"cbr {'9' * k}"),
        st.integers(100, 6000).map(lambda k: f"p{'9' * k} cc"),
        st.text(max_size=10))
    codes = st.one_of(st.integers(-3, 300), HUGE)
    actions = st.one_of(
        st.sampled_from([holdem.Action.fold(), holdem.Action.check(), holdem.Action.call(),
                         holdem.Action.all_in()]),
        st.tuples(st.just("Action"), st.sampled_from(["raise_to", "bet", "bet_or_raise"]),
                  amounts))  # built by the test (the constructor checks the amount)
    return st.one_of(texts, codes, actions, ODD)


@st.composite
def plays(draw: st.DrawFn) -> tuple[Any, list[tuple[Any, ...]]]:
    import holdem

    n = draw(st.integers(2, 10))
    structure = draw(st.sampled_from(list(holdem.Structure)))
    game = holdem.Game(structure=structure, big_blind=2, ante=draw(st.sampled_from([0, 1])),
                       straddle=n >= 3 and draw(st.booleans()),
                       rake=draw(st.sampled_from([None, holdem.Rake("1/20", cap=3)])))
    stacks = draw(st.lists(st.one_of(st.integers(1, 400), st.sampled_from([2**53, 2**53 - 1])),
                           min_size=n, max_size=n))
    start = (stacks, draw(st.integers(0, n - 1)), draw(st.integers(0, 2**64 - 1)))
    steps = draw(st.lists(st.tuples(
        st.sampled_from(["legal", "legal", "legal", "apply", "verb", "query", "add_board",
                         "unchecked"]),
        _action_strategy(),
        st.one_of(st.none(), st.none(), SEATS),
        st.integers(0, 99)), max_size=30))
    return (game, start), steps


VERBS = ("fold", "check", "call", "check_or_call", "bet", "raise_to", "bet_or_raise", "all_in")


@given(plays())
@bounded(100)
def apply_and_queries(case: tuple[Any, list[tuple[Any, ...]]]) -> None:
    (game, (stacks, button, seed)), steps = case
    state = game.new_hand(stacks, button=button, seed=seed)
    import holdem

    for kind, action, seat, pick in steps:
        if isinstance(action, tuple) and action[0] == "Action":
            action = call(getattr(holdem.Action, action[1]), action[2])
            if rejected(action):
                continue
        if state.is_terminal() and kind == "legal":
            kind = "apply"
        before = pickle.dumps(state)
        seat_kw = {} if seat is None else {"seat": seat}
        if kind == "legal":
            options = state.actions()
            got = call(state.apply, options[pick % len(options)], **seat_kw, types=("seat",))
        elif kind == "apply":
            got = call(state.apply, action, **seat_kw, types=("action", "seat"))
        elif kind == "verb":
            verb = VERBS[pick % len(VERBS)]
            args = (action,) if verb in ("bet", "raise_to", "bet_or_raise") else ()
            got = call(getattr(state, verb), *args, **seat_kw, types=("to", "seat"))
        elif kind == "add_board":
            got = call(state.add_board, action, types=("cards",))
        elif kind == "unchecked":
            got = None  # apply_unchecked trusts its caller by contract: not fuzzed
        else:
            got = None
            call(state.is_legal, action, types=("action",))
            call(state.status, seat if seat is not None else pick - 50, types=("seat",))
        if rejected(got):
            assert pickle.dumps(state) == before, f"a rejected call changed the state: {got}"
        _conserved(state)
    _queries(state)
    assert pickle.loads(pickle.dumps(state)) == state


@given(SEATS, st.integers(2, 10))
@bounded(100)
def per_seat_queries(seat: Any, n: int) -> None:
    import holdem

    state = holdem.Game(big_blind=2).new_hand([100] * n, seed=1)
    before = pickle.dumps(state)
    got = call(state.status, seat, types=("seat",))
    if not rejected(got):
        assert isinstance(seat, int) and 0 <= seat < n and not isinstance(seat, bool)
        assert isinstance(got, holdem.SeatStatus)
    assert pickle.dumps(state) == before


@st.composite
def corrupt_states(draw: st.DrawFn) -> bytes:
    import holdem
    from holdem.hand._core import COMPILED

    n = draw(st.integers(2, 10))
    game = holdem.Game(big_blind=2, straddle=n >= 3 and draw(st.booleans()))
    state = game.new_hand([draw(st.integers(3, 300)) for _ in range(n)], seed=draw(
        st.integers(0, 1000)), button=draw(st.integers(0, n - 1)))
    for _ in range(draw(st.integers(0, 6))):
        if state.is_terminal():
            break
        options = state.actions()
        state.apply(options[draw(st.integers(0, len(options) - 1))])
    # both cores pickle as _rebuild(cls, fields)
    rebuild, (cls, good) = state.__reduce_ex__(2)
    fields = list(good)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(fields) - 1))
        old = fields[i]
        if isinstance(old, tuple) and old and draw(st.booleans()):
            fields[i] = draw(st.one_of(
                st.just(old * 3), st.just(old[:1]), st.just(()),
                st.just(old + old[:1] * draw(st.integers(1, 1100))),
                st.lists(NUMS, min_size=len(old), max_size=len(old)).map(tuple)))
        else:
            fields[i] = draw(st.one_of(st.integers(-2, 12), st.sampled_from([0, 11, 1000]),
                                       NUMS, ODD, st.just(())))
    if COMPILED or draw(st.booleans()):
        return forged_pickle(rebuild, (cls, tuple(fields)))
    # the reference core's earlier pickles: copyreg's reconstructor, then __setstate__
    return forged_pickle(copyreg._reconstructor, (cls, object, None), tuple(fields))


@given(corrupt_states())
@bounded(150)
def state_pickle(data: bytes) -> None:
    state = call(pickle.loads, data)
    if rejected(state):
        return
    _queries(state)
    for verb in ("check_or_call", "fold", "all_in"):
        call(getattr(state, verb))
        _queries(state)


@pytest.mark.parametrize("prop", ["game_and_new_hand", "apply_and_queries", "per_seat_queries",
                                  "state_pickle"])
def test_in_child(prop: str) -> None:
    run_in_child(__file__, prop)
