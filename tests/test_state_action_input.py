"""What ``HandState.apply`` and the verbs take as an action, on both cores: integer types for
codes and amounts, ``(ActionType, to)`` pairs, and the refusals (the state unchanged)."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest

from holdem import Action, ActionType, Game, Structure
from holdem.errors import IllegalActionError, InvalidActionError
from holdem.hand.game import HandState, ReferenceHandState

CORES = [HandState, ReferenceHandState]
IDS = ["compiled", "reference"]


def three_handed(cls: type, game: Game | None = None) -> Any:
    """Seat 0 (the button) to act preflop, facing the big blind of 2: raises go to 4 .. 100."""
    return cls._start(game or Game(big_blind=2), [100, 100, 100], 0, 3, None, None)


def seen(state: Any) -> tuple[Any, ...]:
    return (pickle.dumps(state), state.legal_actions(), state.history, repr(state))


@pytest.mark.parametrize("cls", CORES, ids=IDS)
def test_numpy_integers_are_codes_and_amounts(cls: type) -> None:
    """OpenSpiel style: ``state.apply(np.random.choice(state.legal_action_codes()))`` plays the
    code (a numpy integer, as an ``np.argmax`` of a policy is); amounts of the verbs and of an
    ``(ActionType, to)`` pair may be numpy integers too, as ``seat=`` may (they were refused
    with "not an action" / "amount must be an int")."""
    for code, amount in ((np.int64(7), np.int64(6)), (np.int32(7), np.uint16(6)),
                         (np.array(7), np.intp(6))):
        plain = three_handed(cls)
        plain.apply(7)
        for verb, arg in (("apply", code), ("raise_to", amount), ("bet_or_raise", amount),
                          ("apply", (ActionType.RAISE, amount)), ("apply", Action.raise_to(amount))):
            state = three_handed(cls)
            getattr(state, verb)(arg)
            assert state == plain and state.history == plain.history
            assert type(state.history[-1].to) is int
    assert Action.from_int(np.int64(7)) == Action.from_int(7)
    assert type(Action.bet(np.int64(6)).to) is int
    state = three_handed(cls)
    with pytest.raises(IllegalActionError, match=r"^action code 3 means a bet/raise to 2 "):
        state.apply(np.int64(3))
    assert state.is_legal(np.int64(7)) and not state.is_legal(np.int64(3))


@pytest.mark.parametrize("cls", CORES, ids=IDS)
@pytest.mark.parametrize("action", [
    np.float64(1.0), np.True_, np.arange(3), (ActionType.RAISE, np.float64(6.0)),
    (ActionType.RAISE, 6.0), (ActionType.RAISE, True),
], ids=repr)
def test_non_integer_codes_and_amounts_still_refused(cls: type, action: object) -> None:
    state = three_handed(cls)
    before = seen(state)
    with pytest.raises(InvalidActionError):
        state.apply(action)
    assert seen(state) == before
    with pytest.raises(InvalidActionError):
        state.raise_to(np.float64(6.0))  # type: ignore[arg-type]
    assert seen(state) == before


@pytest.mark.parametrize("cls", CORES, ids=IDS)
@pytest.mark.parametrize("kind", [True, False, 1.0, 0.0, "call", None, 8, -1, 2**70])
def test_pair_kind_must_be_an_action_type(cls: type, kind: object) -> None:
    """The kind of an ``(ActionType, to)`` pair is an ActionType (or its int value): a bool, a
    float or text was compared to the enum by value, so ``(True, None)`` checked and
    ``(0.0, None)`` folded."""
    state = three_handed(cls, Game(big_blind=2, fold_when_check_free=True))
    state.call()
    state.call()  # the big blind's option: check free, fold offered
    before = seen(state)
    with pytest.raises(InvalidActionError, match=r"^unknown action type .*: an ActionType"):
        state.apply((kind, None))
    assert seen(state) == before
    state.apply((0, None))  # the int value of an ActionType is one
    assert state.history[-1].type is ActionType.FOLD


@pytest.mark.parametrize("cls", CORES, ids=IDS)
@pytest.mark.parametrize("kind", [ActionType.FOLD, ActionType.CHECK, ActionType.CALL,
                                  ActionType.CHECK_CALL, ActionType.ALL_IN])
@pytest.mark.parametrize("to", [0, 5, 100, "x"])
def test_amount_on_a_kind_without_one_is_refused(cls: type, kind: ActionType, to: object) -> None:
    """``Action(ActionType.FOLD, 5)`` (or a call or all-in with an amount) was played with the
    amount ignored; ``Action.parse("fold 5")`` refuses it ("takes no amount"), so must apply."""
    state = three_handed(cls)
    before = seen(state)
    with pytest.raises(InvalidActionError, match=r"takes no amount"):
        state.apply(Action(kind, to))  # type: ignore[arg-type]
    assert seen(state) == before
    assert not _legal(state, Action(kind, to))  # type: ignore[arg-type]


def _legal(state: Any, action: Action) -> bool:
    try:
        return bool(state.is_legal(action))
    except InvalidActionError:
        return False


@pytest.mark.parametrize("cls", CORES, ids=IDS)
@pytest.mark.parametrize("free_fold", [False, True])
def test_refused_all_in_names_check_when_nothing_is_owed(cls: type, free_fold: bool) -> None:
    """R27 with no raises (``max_raises=0``): the big blind's option is a check only, and an
    all-in is refused; the message said "call or fold" (there was nothing to call, and folding
    is not offered unless folding when a check is free is enabled, R17)."""
    game = Game(structure=Structure.FIXED_LIMIT, big_blind=2, max_raises=0,
                fold_when_check_free=free_fold)
    state = three_handed(cls, game)
    state.call()
    state.call()
    la = state.legal_actions()
    assert la.can_check and not la.can_raise and la.can_fold is free_fold
    before = seen(state)
    allowed = "check or fold" if free_fold else "check"
    with pytest.raises(IllegalActionError, match=rf"^all in to 100 is not allowed: {allowed}$"):
        state.all_in()
    assert seen(state) == before
