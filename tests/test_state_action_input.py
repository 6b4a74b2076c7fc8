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


@pytest.mark.parametrize("text", ["px cc", "P3 cc", "p cc", "pp3 cc"])
def test_parse_refuses_a_player_prefix_that_is_not_p_and_digits(text: str) -> None:
    """A PHH player is a lower-case ``p`` and digits (R1): ``px cc`` is not a player's check or
    call, and neither is ``P3 cc`` (the actor words are case-insensitive, the prefix is not)."""
    with pytest.raises(InvalidActionError, match=r"^unknown action "):
        Action.parse(text)


@pytest.mark.parametrize("text, expected", [
    ("FOLD", Action(ActionType.FOLD)),
    ("Check", Action(ActionType.CHECK)),
    ("CALL", Action(ActionType.CALL)),
    ("RAISE 300", Action(ActionType.RAISE, 300)),
    ("cbr 00000000000000000300", Action(ActionType.BET_RAISE, 300)),
    ("cbr " + "0" * 40 + str(2**53), Action(ActionType.BET_RAISE, 2**53)),
])
def test_parse_reads_words_in_any_case_and_amounts_with_leading_zeros(
        text: str, expected: Action) -> None:
    """The words are read case-insensitively; leading zeros do not count toward the limit on
    an amount's digits (only the value does)."""
    assert Action.parse(text) == expected


@pytest.mark.parametrize("text", ["cbr 300 400", "raise 300 400", "bet 1 2 3"])
def test_parse_refuses_more_than_one_amount(text: str) -> None:
    """``cbr 300 400`` is refused, not read as a raise to 300 with the 400 dropped."""
    with pytest.raises(InvalidActionError, match=r"needs exactly one amount"):
        Action.parse(text)


@pytest.mark.parametrize("text, match", [
    ("p100 cc", r"PHH players are p1 \.\. p10, got 'p100'"),
    ("p\u0661 cc", r"PHH players are p1 \.\. p10"),  # an Arabic-Indic 1 is not a digit here
    ("p0 cc", r"PHH players are numbered from p1"),
])
def test_player_of_refuses_players_outside_p1_to_p10(text: str, match: str) -> None:
    """R1: at most 10 players, numbered from p1, in ASCII digits."""
    with pytest.raises(InvalidActionError, match=match):
        Action.player_of(text)


def test_player_of_reads_p1_to_p10() -> None:
    assert (Action.player_of("p1 cc"), Action.player_of("p10 f")) == (0, 9)


def test_negative_codes_and_amounts_are_not_fold_codes() -> None:
    """``from_int(-1)`` is not an action code, and a bet/raise to -1 has no code (0 is the
    fold's code: a negative amount must not encode as one)."""
    with pytest.raises(InvalidActionError, match=r"^not an action code: -1"):
        Action.from_int(-1)
    with pytest.raises(InvalidActionError, match=r"bet/raise to -1: amounts are non-negative"):
        Action(ActionType.BET_RAISE, -1).to_int()


def test_raise_to_bounds() -> None:
    """R22: a bet or raise is never to 0; 2**53 chips is the engine's (documented) limit."""
    with pytest.raises(InvalidActionError, match=r"amount must be positive, got 0"):
        Action.raise_to(0)
    assert Action.raise_to(2**53).to == 2**53
    with pytest.raises(InvalidActionError, match=r"above the engine's limit of 2\*\*53 chips"):
        Action.raise_to(2**53 + 1)


@pytest.mark.parametrize("cls", CORES, ids=IDS)
@pytest.mark.parametrize("kind", list(ActionType))
def test_an_action_type_alone_is_not_an_action_code(cls: type, kind: ActionType) -> None:
    """ActionType is an IntEnum: ``apply(ActionType.ALL_IN)`` was read as the code 7 (a bet
    to 6), ``ActionType.RAISE`` as a bet to 3. A kind alone is refused, the state unchanged."""
    state = three_handed(cls)
    before = seen(state)
    with pytest.raises(InvalidActionError, match=rf"{kind!r} alone is not an action"):
        state.apply(kind)
    with pytest.raises(InvalidActionError, match="alone is not an action"):
        state.is_legal(kind)
    assert seen(state) == before
    state.apply((ActionType.ALL_IN, None))  # as a pair it is one
    assert state.history[-1].all_in


@pytest.mark.parametrize("cls", CORES, ids=IDS)
def test_a_clone_of_a_finished_hand_has_its_own_result(cls: type) -> None:
    """A clone shared the result's ``shown`` and ``ranks`` dicts: clearing one emptied the
    original's, whose pickle then failed ("must be dicts of the same seats")."""
    state = cls._start(Game(big_blind=2), [100, 100], 0, None, ["AsAh", "KsKh"], "Ad9c5h2s3c")
    while not state.is_terminal():
        state.check_or_call()
    shown = dict(state.result.shown)
    copy = state.clone()
    assert copy.result == state.result
    copy.result.shown.clear()
    copy.result.ranks.clear()
    assert state.result.shown == shown and len(state.result.ranks) == 2
    assert pickle.loads(pickle.dumps(state)).result == state.result


@pytest.mark.parametrize("cls", CORES, ids=IDS)
def test_a_deep_copy_is_a_clone_and_does_not_replay_the_hand(cls: type,
                                                             monkeypatch: Any) -> None:
    """``copy.deepcopy`` went through the pickle path: the whole hand checked and replayed
    (OpenSpiel deep-copies a Python state's fields for every node a tree search visits). It
    is ``clone()`` now: equal, independent (its result's dicts too), the same object for two
    references to one state, and no replay."""
    import copy

    state = cls._start(Game(big_blind=2), [100, 100, 100], 0, 7, None, None)
    state.raise_to(6)
    calls: list[object] = []
    monkeypatch.setattr(cls, "__setstate__", lambda self, st: calls.append(st), raising=False)
    twin = copy.deepcopy(state)
    assert type(twin) is cls and twin == state and twin is not state and calls == []
    twin.fold()
    assert state.actor == 1 and len(state.history) == 1 and len(twin.history) == 2
    pair = copy.deepcopy([state, state])
    assert pair[0] is pair[1] and pair[0] == state
    while not state.is_terminal():
        state.check_or_call()
    done = copy.deepcopy(state)
    assert done.result == state.result
    done.result.shown.clear()
    assert state.result.shown


class _Seed(int):
    pass


@pytest.mark.parametrize("cls", CORES, ids=IDS)
@pytest.mark.parametrize("seed", [_Seed(5), np.int64(5), np.uint32(5)])
def test_a_seed_of_any_integer_type_deals_and_pickles(cls: type, seed: Any) -> None:
    """An int subclass seed dealt a hand whose pickle and deepcopy were refused ("seed must
    be an int or None, got _Seed"); numpy seeds were refused while every other integer input
    takes them. The seed is kept as a plain int, and deals as 5 does."""
    state = cls._start(Game(big_blind=2), [100, 100, 100], 0, seed, None, None)
    plain = cls._start(Game(big_blind=2), [100, 100, 100], 0, 5, None, None)
    assert type(state.seed) is int and state.seed == 5
    assert state.hole_cards == plain.hole_cards and state.board == plain.board
    assert pickle.loads(pickle.dumps(state)).hole_cards == plain.hole_cards
