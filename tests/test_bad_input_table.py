"""Bad-input suite: Table (sit, add_chips, leave, sit_out, come_back, play_hand with agents
that answer badly). See tests/badinput.py for the contract and how each property runs in a
child process."""

from __future__ import annotations

from typing import Any

import pytest
from badinput import _Forged, bounded, call, forged_pickle, rejected, run_in_child
from hypothesis import given
from hypothesis import strategies as st

HUGE = st.sampled_from([2**53 - 1, 2**53, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**30])
CHIPS = st.one_of(st.integers(-5, 600), HUGE, st.integers(-(2**70), 2**70))
ODD = st.one_of(st.none(), st.floats(allow_nan=True), st.binary(max_size=2), st.booleans(),
                st.just([1]))
GOOD_NAMES = st.sampled_from(["p0", "p1", "p2", "ana", "boris"])
NAMES = st.one_of(GOOD_NAMES, GOOD_NAMES, GOOD_NAMES, st.just(""), ODD, st.text(max_size=3))
SEATS = st.one_of(st.integers(0, 9), st.integers(0, 9), st.integers(-2, 11), HUGE, ODD)
BUY_INS = st.one_of(st.integers(20, 400), st.integers(20, 400), CHIPS, ODD)

# What a badly written agent may answer (besides raising): junk of every kind.
ANSWERS = st.one_of(
    st.sampled_from(["f", "cc", "x", "cbr", "cbr -1", "cbr 1e9", "sm", "p9 cc", "", "fold"]),
    st.integers(-3, 500).map(lambda a: f"cbr {a}"), st.integers(-3, 500),
    HUGE.map(lambda a: f"cbr {a}"), HUGE, st.integers(300, 5000).map(lambda k: "cbr " + "9" * k),
    ODD, st.text(max_size=6), st.just(object()))


class Scripted:
    """An agent: answers legally (check/call) except where its script says otherwise."""

    def __init__(self, script: list[Any]) -> None:
        self.script = list(script)

    def __call__(self, obs: Any) -> Any:
        if self.script:
            answer = self.script.pop(0)
            if answer is not None:
                return answer
        return "cc"


def _public(table: Any) -> tuple[Any, ...]:
    """The table's public state, for 'a rejected call changes nothing'."""
    seats = tuple(None if p is None else (p.name, p.seat, p.stack, p.status, p.entry_due,
                                         p.owes_big_blind, p.owes_small_blind, p.leaving,
                                         p.hands_played)
                  for p in table.seats)
    return (seats, table.button, table.hand_number, table.bought_in, table.cashed_out,
            table.rake, table.chips_in_play, table.can_play())


OPS = st.lists(st.one_of(
    st.tuples(st.just("sit"), st.tuples(SEATS, NAMES, BUY_INS), st.one_of(st.booleans(), ODD)),
    st.tuples(st.just("add_chips"), st.tuples(NAMES, BUY_INS), st.none()),
    st.tuples(st.sampled_from(["leave", "sit_out", "come_back", "wait_for_big_blind",
                               "player"]), st.tuples(NAMES), st.none()),
    st.tuples(st.just("play_hand"), st.tuples(), st.lists(st.one_of(ANSWERS, st.none()),
                                                          max_size=4)),
), max_size=16)


@given(st.integers(2, 10), st.integers(0, 2**32), st.booleans(), st.integers(0, 3), OPS)
@bounded(100)
def table_session(seats: int, seed: int, dead_button: bool, seated: int,
                  ops: list[tuple[str, tuple[Any, ...], Any]]) -> None:
    import holdem

    table = holdem.Table(holdem.Game(big_blind=2), seats=seats, seed=seed, max_buy_in=10**6,
                         dead_button=dead_button)
    for i in range(min(seated, seats)):
        table.sit(i, f"p{i}", 200, Scripted([]))
    for name, args, extra in ops:
        before = _public(table)
        if name == "sit":
            got = call(table.sit, *args, Scripted([]), wait_for_big_blind=extra,
                       types=("seat", "name", "buy_in", "wait_for_big_blind"))
        elif name == "play_hand":
            players = table.players
            for p in players:  # the first player answers from the script, the others call
                p.agent.script = list(extra) if p is players[0] else []
            got = call(table.play_hand)
        else:
            got = call(getattr(table, name), *args, types=("name", "amount"))
        if rejected(got):
            assert _public(table) == before, f"a rejected {name}{args!r} changed the table"
        assert table.chips_in_play + table.cashed_out + table.rake == table.bought_in
        assert all(p.stack >= 0 for p in table.players)


@given(st.one_of(st.integers(-1, 12), HUGE, ODD), st.one_of(st.none(), CHIPS, ODD),
       st.one_of(st.none(), st.integers(0, 10), HUGE, ODD), st.one_of(st.booleans(), ODD))
@bounded(100)
def table_config(seats: Any, max_buy_in: Any, seed: Any, dead_button: Any) -> None:
    import holdem

    got = call(holdem.Table, holdem.Game(big_blind=2), seats, seed=seed, max_buy_in=max_buy_in,
               dead_button=dead_button, types=("seats", "seed", "max_buy_in", "dead_button"))
    if not rejected(got):
        assert 2 <= got.size <= 10


@st.composite
def corrupt_tables(draw: st.DrawFn) -> bytes:
    import copyreg

    import holdem
    from holdem.table.agents import CallAgent

    table = holdem.Table(holdem.Game(big_blind=2), seats=draw(st.integers(2, 6)),
                         seed=draw(st.integers(0, 100)))
    for i in range(draw(st.integers(0, 2)), table.size):
        table.sit(i, f"p{i}", 200, CallAgent())
    if len(table.players) >= 2:
        table.play(draw(st.integers(0, 3)))
    state = dict(table.__getstate__())
    seats = list(state["_seats"])
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()) and any(seats):
            i = draw(st.sampled_from([i for i, p in enumerate(seats) if p is not None]))
            fields = list(seats[i].__getstate__())
            k = draw(st.integers(0, len(fields) - 1))
            fields[k] = draw(st.one_of(CHIPS, ODD, NAMES, st.just(holdem.PlayerStatus.WAITING),
                                       st.sampled_from([-1, 10, 2**53 + 1])))
            if draw(st.integers(0, 5)) == 0:
                fields = fields[:k]
            seats[i] = _Forged(copyreg._reconstructor, (holdem.Player, object, None),
                               tuple(fields))
        else:
            key = draw(st.sampled_from(sorted(state)))
            state[key] = draw(st.one_of(CHIPS, ODD, st.sampled_from([-1, 0, 11, 2**53 + 1]),
                                        st.just([None] * 11), st.just({})))
    if "_seats" in state and isinstance(state["_seats"], list):
        state["_seats"] = seats
    return forged_pickle(copyreg._reconstructor, (holdem.Table, object, None), state)


@given(corrupt_tables())
@bounded(100)
def table_pickle(data: bytes) -> None:
    table = call(__import__("pickle").loads, data)
    if rejected(table):
        return
    assert table.chips_in_play + table.cashed_out + table.rake == table.bought_in
    for _ in range(3):
        got = call(table.play_hand)
        if rejected(got):
            break
        assert table.chips_in_play + table.cashed_out + table.rake == table.bought_in
    for p in table.players:
        call(table.add_chips, p.name, 10)
        call(table.leave, p.name)


@pytest.mark.parametrize("prop", ["table_session", "table_config", "table_pickle"])
def test_in_child(prop: str) -> None:
    run_in_child(__file__, prop)
