"""A hand state that was never started (``HandState.__new__(HandState)``, not
``Game.new_hand`` or unpickling) holds no hand. It used to answer inconsistently: the compiled
core reported 0 seats yet offered actions to seat 0 and failed in clone() with a TypeError,
the pure-Python core raised AttributeError everywhere. Both cores now refuse every query,
action, copy and pickle of it with InvalidStateError saying how to make a hand; repr says it is
not started and it compares equal to other blank states only.

The suite runs in compiled mode by default (HandState: the compiled core; ReferenceHandState:
the reference core); ``HOLDEM_PURE_PYTHON=1`` runs it with HandState on the reference core."""

from __future__ import annotations

import copy
import inspect
import pickle
import re
from typing import Any

import pytest
from table_checks import owing_blinds

from holdem import (
    Action,
    Game,
    HandState,
    InvalidStateError,
    Observation,
)
from holdem.hand.game import ReferenceHandState
from holdem.history import from_state
from holdem.table import table as table_mod


class SubState(HandState):
    """A subclass with its own attribute (a __dict__)."""

    note = "mine"


class SlottedSubState(HandState):
    __slots__ = ()


class SubReference(ReferenceHandState):
    pass


CLASSES = [HandState, ReferenceHandState, SubState, SlottedSubState, SubReference]

# the arguments of the public methods that take any (by parameter name)
ARGS: dict[str, Any] = {"seat": 0, "action": Action.fold(), "kind": 1, "to": 4, "cards": "2c"}


def _message(cls: type) -> str:
    return (f"this {cls.__name__} was never started (it holds no hand): make one with "
            "Game.new_hand(stacks, ...) or by unpickling a started hand")


def _public_members(cls: type) -> list[tuple[str, Any]]:
    """Every public method and property of ``cls`` (its own and inherited)."""
    out = []
    for name in dir(cls):
        if name.startswith("_"):
            continue
        out.append((name, inspect.getattr_static(cls, name)))
    return out


def _use(state: Any, name: str, member: Any) -> Any:
    """Read the property or call the method ``name`` with its required arguments."""
    if not callable(member) or isinstance(member, property):
        return getattr(state, name)
    bound = getattr(state, name)
    args = []
    for p in inspect.signature(bound).parameters.values():  # compiled methods have one too
        if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            assert p.name in ARGS, f"{name}: no test argument for its parameter {p.name!r}"
            args.append(ARGS[p.name])
    return bound(*args)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_public_member_of_a_blank_state_refuses_it(cls: type) -> None:
    blank = cls.__new__(cls)
    members = _public_members(cls)
    assert len(members) >= 45  # every query, action and verb of the API
    want = _message(cls)
    for name, member in members:
        if name == "note":
            continue  # SubState's own class attribute
        with pytest.raises(InvalidStateError) as err:
            _use(blank, name, member)
        assert str(err.value) == want, name
    # with every argument form the verbs take (seat given, PHH text, an int code)
    for call in (lambda: blank.apply("cc"), lambda: blank.apply(1), lambda: blank.fold(seat=0),
                 lambda: blank.bet(10, seat=1), lambda: blank.apply_unchecked(2, 10),
                 lambda: blank.apply_unchecked(0), lambda: blank.status(5),
                 lambda: blank.status_code(-1), lambda: blank._block_reason(0)):
        with pytest.raises(InvalidStateError, match=re.escape(want)):
            call()
    assert blank == cls.__new__(cls)  # still blank: nothing was set by a refused call


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_a_blank_state_copies_pickles_compares_and_prints(cls: type) -> None:
    blank = cls.__new__(cls)
    want = re.escape(_message(cls))
    for doing in (blank.clone, lambda: copy.copy(blank), lambda: copy.deepcopy(blank),
                  lambda: pickle.dumps(blank), blank.__reduce__):
        with pytest.raises(InvalidStateError, match=want):
            doing()
    assert repr(blank) == str(blank) == "<HandState not started>"
    started = cls._start(Game(big_blind=2), [100, 100], 0, 1, None, None)
    other = cls.__new__(cls)
    assert blank == other and (blank != other) is False
    assert blank != started and started != blank and (blank == started) is False
    assert blank != 5 and blank is not None
    with pytest.raises(TypeError, match="unhashable"):  # as a started state: mutable
        hash(blank)
    # a blank state is what unpickling fills: restoring a started hand into it still works
    rebuild, (kind, saved) = started.__reduce__()
    back = rebuild(kind, saved)
    assert type(back) is cls and back == started
    assert back.legal_actions() == started.legal_actions()


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_a_started_state_of_the_class_is_unaffected(cls: type) -> None:
    """The blank checks change nothing for a started hand, its clone or its pickle."""
    game = Game(big_blind=2)
    state = cls._start(game, [50, 60, 70], 1, 7, None, None)
    assert state.game is game and state.num_players == 3 and not state.is_terminal()
    while not state.is_terminal():
        state.apply_unchecked(1)
    assert state.actor is None and sum(state.payoffs) == 0
    assert state.clone() == state == pickle.loads(pickle.dumps(state))
    with pytest.raises(Exception, match="the hand is over") as err:
        state.legal_actions()
    assert not isinstance(err.value, InvalidStateError)
    assert repr(state).startswith("<HandState 3 seats, button 1, over")


def test_both_cores_answer_a_blank_state_alike() -> None:
    """The same class of error and the same message (but the class name) from each core,
    member by member."""
    answers = {}
    for core in (HandState, ReferenceHandState):
        blank = core.__new__(core)
        got = []
        for name, member in _public_members(core):
            try:
                _use(blank, name, member)
            except Exception as exc:
                got.append((name, type(exc), str(exc).replace(core.__name__, "X")))
            else:
                got.append((name, None, ""))
        answers[core] = got
    assert answers[HandState] == answers[ReferenceHandState]


def test_functions_taking_a_hand_refuse_a_blank_state() -> None:
    blank = HandState.__new__(HandState)
    want = re.escape(_message(HandState))
    for call in (lambda: Observation.from_state(blank), lambda: from_state(blank)):
        with pytest.raises(InvalidStateError, match=want):
            call()


def test_the_compiled_table_steps_refuse_a_blank_state() -> None:
    fast = table_mod._fast
    if fast is None:
        pytest.skip("HOLDEM_PURE_PYTHON=1: the table runs its Python steps only")
    blank = HandState.__new__(HandState)
    want = re.escape(_message(HandState))
    with pytest.raises(InvalidStateError, match=want):
        fast.run_hand(blank, [], (), (), 0, 2, 0, False, None, None)
    with pytest.raises(InvalidStateError, match=want):
        fast.table_posts(blank, ())


class _BlankGame(Game):
    """A Game whose ``new_hand`` (the table calls it for hands with extra posts) returns a
    state it never started."""

    def new_hand(self, stacks: Any, **kwargs: Any) -> Any:
        return HandState.__new__(HandState)


@pytest.mark.parametrize("path", ["compiled steps", "python steps"])
def test_a_table_given_a_blank_state_refuses_it(monkeypatch: pytest.MonkeyPatch,
                                                path: str) -> None:
    if path == "python steps":
        monkeypatch.setattr(table_mod, "_fast", None)
    elif table_mod._fast is None:
        pytest.skip("HOLDEM_PURE_PYTHON=1: the table runs its Python steps only")
    t = owing_blinds(_BlankGame(big_blind=2))  # the next hand with p3 goes through new_hand
    for _ in range(10):
        before = (t.hand_number, tuple(p.stack for p in t.players), t.rake)
        try:
            t.play_hand()
        except InvalidStateError as exc:
            assert str(exc) == _message(HandState)
            break
    else:
        raise AssertionError("no hand with extra posts")
    assert (t.hand_number, tuple(p.stack for p in t.players), t.rake) == before
