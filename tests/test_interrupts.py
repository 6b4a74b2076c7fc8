"""An exception in the middle of a call (Ctrl-C's KeyboardInterrupt, MemoryError) leaves the
object as it was before the call, or in a state that later calls handle: chips conserved, the
next call plays on or raises a clear :mod:`holdem.errors` error.

The interrupt is injected deterministically: a tracer raises it at a chosen line of a holdem
function (where a real Ctrl-C can land: right after a call returns).
"""

from __future__ import annotations

import linecache
import pickle
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest

from holdem import Action, CallAgent, Game, Mode, Rake, Table
from holdem.errors import InvalidStateError
from holdem.hand.game import ReferenceHandState


@contextmanager
def interrupt_at(function: str, line: str) -> Iterator[None]:
    """Raise KeyboardInterrupt once, when ``function`` (a holdem function) is about to run its
    line starting with ``line``."""
    fired = False

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal fired
        if fired:
            return None
        if event == "line":
            text = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
            if text.startswith(line):
                fired = True
                raise KeyboardInterrupt
        return local

    def outer(frame: FrameType, event: str, arg: Any) -> Any:
        if fired or frame.f_code.co_name != function or "holdem" not in frame.f_code.co_filename:
            return None
        return local

    sys.settrace(outer)
    try:
        yield
    finally:
        sys.settrace(None)
    assert fired, f"the tracer never reached {function}: {line}"


def _raiser(obs: Any) -> Any:
    la = obs.legal
    return la.min_to + 1 if la.can_raise and obs.hand_number % 2 == 0 else 1


def _table(tournament: bool = False) -> Table:
    game = (Game(big_blind=2, mode=Mode.TOURNAMENT) if tournament
            else Game(big_blind=2, rake=Rake("0.05", cap=3)))
    t = Table(game, seats=4, seed=5)
    for seat, (name, stack) in enumerate([("a", 100), ("b", 100), ("c", 60), ("d", 40)]):
        t.sit(seat, name, stack, CallAgent() if seat % 3 == 0 else _raiser)
    t.play(2)
    return t


def _snapshot(t: Table) -> tuple[Any, ...]:
    return (t.hand_number, t.rake, t.bought_in, t.cashed_out, t.button, dict(t.places),
            [None if p is None else (p.name, p.stack, p.status, p.owes, p.hands_played)
             for p in t.seats])


def _records(t: Table, hands: int) -> list[tuple[Any, ...]]:
    return [(r.number, sorted(r.payoffs.items()), r.rake) for r in t.play(hands)]


@pytest.mark.parametrize(("tournament", "line"), [
    (False, "self.rake += res.rake"),  # after the players were paid
    (False, "self._prev = pos"),
    (True, "self.hand_number += 1"),
    (True, "remaining = sum("),  # a tournament elimination under way
])
def test_table_interrupted_while_paying_a_hand_voids_it(tournament: bool, line: str) -> None:
    """Ctrl-C after the players were paid and before the hand was counted left chips not
    conserved (the rake not taken) and the hand number not moved: the next hand replayed the
    same deck. The hand is now void, the table exactly as before it."""
    t = _table(tournament)
    twin = pickle.loads(pickle.dumps(t))
    before = _snapshot(t)
    fn = "_eliminate" if line.startswith("remaining") else "_settle"
    if tournament and fn == "_eliminate":
        # play to the first hand that eliminates somebody, on both tables
        while not any(r.eliminated for r in pickle.loads(pickle.dumps(t)).play(1)):
            t.play(1)
            twin.play(1)
        before = _snapshot(t)
    with interrupt_at(fn, line), pytest.raises(KeyboardInterrupt):
        t.play(3)
    assert _snapshot(t) == before
    assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in
    assert _records(t, 5) == _records(twin, 5)


def test_table_interrupted_right_after_a_hand_starts_is_not_left_in_a_hand() -> None:
    """An interrupt between marking the table in a hand and entering the hand's try block left
    it marked for good: every later play_hand raised "a hand is already being played"."""
    t = _table()
    twin = pickle.loads(pickle.dumps(t))
    fired = False

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal fired
        if event == "line" and not fired and t._in_hand:
            fired = True
            raise KeyboardInterrupt
        return local

    sys.settrace(lambda f, e, a: local if f.f_code.co_name == "play_hand" else None)
    try:
        with pytest.raises(KeyboardInterrupt):
            t.play_hand()
    finally:
        sys.settrace(None)
    assert fired and not t._in_hand and t.can_play()
    pickle.dumps(t)
    assert _records(t, 3) == _records(twin, 3)


def _reference_hand(partial: bool) -> Any:
    game = Game(big_blind=2)
    if partial:
        st = ReferenceHandState._start(game, [200, 200, 100], 0, None,
                                       ["AsAh", "KdKc", "2c3c"], "7d8d9d")
    else:
        st = ReferenceHandState._start(game, [200, 200, 100], 0, 11, None, None)
    st.apply(Action.raise_to(6))
    return st


@pytest.mark.parametrize("partial", [False, True])
def test_reference_core_action_interrupted_midway(partial: bool) -> None:
    """The reference core's action moved chips in several steps: an interrupt between them
    left a state with the chips in the pot but no history, or a folded seat still to act.
    A hand whose cards may be missing is restored (a copy is kept for them); any other is
    void, and says so on every later call."""
    st = _reference_hand(partial)
    before = st.clone()
    with interrupt_at("_act", "self._hist.append"), pytest.raises(KeyboardInterrupt):
        st.apply(Action.call())
    if partial:
        assert st == before and st.history == before.history
        st.apply(Action.call())
        return
    calls: list[Callable[[], object]] = [
        lambda: st.stacks, st.legal_actions, lambda: st.apply(Action.call()), st.clone,
        lambda: pickle.dumps(st), st.result_or_none]
    for call in calls:
        with pytest.raises(InvalidStateError, match="stopped mid-way"):
            call()
    assert "not started" in repr(st)
    assert st != before
