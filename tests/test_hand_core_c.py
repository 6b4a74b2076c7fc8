"""The compiled hand core over the plain-C rules (csrc/hd_hand.c): one implementation of the
betting rules, checked against the pure-Python reference core (holdem/hand/_reference.py).

What the other differential tests (tests/test_state_properties.py) do not reach: rake (R34),
``muck_losing_hands=False`` (R33), dealing from the big blind (R12), hands whose cards arrive
later, the named game plan, the declared code mappings, and the C check of a loaded struct.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from holdem import Game, Rake
from holdem.errors import InvalidHandError, InvalidStateError
from holdem.hand._fields import FIELDS, POST_KINDS
from holdem.hand._plan import Plan
from holdem.hand.actions import Action, ActionType
from holdem.hand.game import COMPILED, AnteType, DealStart, HandState, ReferenceHandState, Structure
from holdem.vector import _rules

GAMES = [
    Game(big_blind=2, rake=Rake("0.05", cap=3)),
    Game(big_blind=4, rake=Rake("1/7", no_flop_no_drop=False), muck_losing_hands=False),
    Game(structure=Structure.POT_LIMIT, big_blind=2, ante=1, ante_type=AnteType.BIG_BLIND,
         rake=Rake("0.1"), deal_start=DealStart.LEFT_OF_BIG_BLIND),
    Game(structure=Structure.FIXED_LIMIT, big_blind=2, straddle=True, cap_heads_up=False,
         muck_losing_hands=False, ante=1),
    Game(big_blind=3, small_blind=0, deal_start=DealStart.LEFT_OF_BIG_BLIND,
         fold_when_check_free=True),
]


def _action(state: Any, rng: random.Random) -> Action:
    """A legal action: mostly check/call, sometimes fold, a bet or raise of a random size."""
    la = state.legal_actions()
    r = rng.random()
    if la.can_raise and r < 0.3:
        return Action.bet_or_raise(rng.randint(la.min_to, la.max_to))
    if la.can_fold and r < 0.4:
        return Action.fold()
    return Action.check_or_call()


@pytest.mark.parametrize("game", GAMES, ids=range(len(GAMES)))
def test_compiled_settlement_matches_reference_with_rake_and_showing_rules(game: Game) -> None:
    """R29-R34: the C settlement (pots, rake, odd chips, showing order, mucks) equals
    holdem.hand._settle.settle, decision by decision, over random hands."""
    showdowns = raked = 0
    for seed in range(150):
        rng = random.Random(seed)
        n = rng.randint(3 if game.straddle else 2, 10)
        stacks = [rng.randint(1, 80) for _ in range(n)]
        button = rng.randrange(n)
        comp = HandState._start(game, list(stacks), button, seed, None, None)
        ref = ReferenceHandState._start(game, list(stacks), button, seed, None, None)
        while not comp.is_terminal():
            assert comp.legal_actions() == ref.legal_actions()
            assert (comp.stacks, comp.bets, comp.committed, comp.pot) == (
                ref.stacks, ref.bets, ref.committed, ref.pot)
            action = _action(comp, rng)
            comp.apply(action)
            ref.apply(action)
        assert ref.is_terminal()
        assert comp.result == ref.result
        assert comp.history == ref.history and comp.posts == ref.posts
        assert (comp.stacks, comp.street, comp.board) == (ref.stacks, ref.street, ref.board)
        showdowns += bool(comp.result.showdown_order)
        raked += comp.result.rake > 0
    assert showdowns > 10
    assert raked > 10 or game.rake is None


def test_cards_arriving_later_match_reference_and_restore() -> None:
    """Given cards with the board still missing: a street that needs an unknown card raises
    InvalidHandError and leaves the state exactly as it was (both cores); an unknown hand at
    the showdown raises naming the seat; add_board lets play go on."""
    game = Game(big_blind=2)
    for cls in (HandState, ReferenceHandState):
        st = cls._start(game, [50, 50, 50], 0, None, ["AsAh", None, "KdKc"], "2c7d")
        st.call()
        st.call()
        before = st.clone()
        with pytest.raises(InvalidHandError, match="board needs 3 cards but only 2"):
            st.check()
        assert st == before and st.history == before.history
        st.add_board("9h")
        st.check()
        assert len(st.board) == 3
        st.add_board("JsQs")
        st.check()
        st.bet(4)
        st.call()
        st.fold()  # seat 1 (unknown cards) leaves before the showdown
        while not st.is_terminal():
            st.check()
        assert st.result.showdown_order == (2, 0)
    st = game.new_hand([50, 50], button=0, hole_cards=["AsAh", None], board="2c7d9hJsQs")
    st.call()
    st.check()
    for _ in range(2):
        st.check()
        st.check()
    st.check()
    before = st.clone()
    with pytest.raises(InvalidHandError, match="seat 1 reaches the showdown but its hole cards"):
        st.check()
    assert st == before and st.history == before.history


def test_reference_partial_hand_restores_without_copying_the_history() -> None:
    """The reference core keeps aside what an action may change on a hand whose cards may be
    missing, not a clone of the state: a clone per action copied the whole history each time
    (quadratic in the hand's length). A call that needs the flop still restores every field."""
    from unittest import mock

    game = Game(big_blind=2)
    st = ReferenceHandState._start(game, [10**9, 10**9], 0, None, ["AsAh", "KdKc"], "2c")
    with mock.patch.object(ReferenceHandState, "clone", side_effect=AssertionError("cloned")):
        for _ in range(100):
            st.apply(Action.raise_to(st.legal_actions().min_to))
    before = st.clone()
    with (mock.patch.object(ReferenceHandState, "clone", side_effect=AssertionError("cloned")),
          pytest.raises(InvalidHandError, match="board needs 3 cards but only 1")):
        st.apply(Action.call())
    assert st == before and st.history == before.history and len(st.history) == 100
    assert (st.stacks, st.bets, st.committed) == (before.stacks, before.bets, before.committed)
    st.add_board("7d9h")
    st.apply(Action.call())
    assert st.street_index == 1 and len(st.history) == 101


def test_plan_is_one_named_record_in_hd_rules_order() -> None:
    """Game._plan is read by name; the batched engine gets its values in hd_rules_t order."""
    game = Game(structure=Structure.FIXED_LIMIT, big_blind=4, max_raises=4, straddle=True,
                ante=2, ante_type=AnteType.BIG_BLIND, rake=Rake("0.05", cap=7))
    plan = game._plan
    assert isinstance(plan, Plan)
    assert plan._fields == ("structure", "straddle", "bb_ante", "deal_from_bb", "lift_heads_up",
                            "fold_free", "cap", "big_blind", "small_blind", "ante", "sizes",
                            "rake")
    assert (plan.structure, plan.cap, plan.sizes, plan.bb_ante, plan.straddle) == (
        2, 5, (4, 4, 8, 8), True, True)
    assert plan.rake == (1, 20, 7, 1)
    assert _rules(game) == tuple(plan)
    assert Game(big_blind=2)._plan.cap == 1 << 30


def test_codes_follow_their_declared_mappings() -> None:
    """Post kinds (HD_POST_*) index POST_KINDS; history types (HD_REC_*) are ActionType values:
    every kind of post and action comes out named as the reference names it."""
    game = Game(big_blind=2, ante=1, straddle=True)
    st = game.new_hand([40] * 6, button=0, seed=3, dead_small_blind=True,
                       extra_posts=[(4, 2, 1)])
    ref = ReferenceHandState._start(game, [40] * 6, 0, 3, None, None, True, [(4, 2, 1)])
    assert st.posts == ref.posts
    kinds = {p.kind for p in st.posts}
    assert kinds == {"ante", "big_blind", "straddle", "entry_big_blind", "dead_small_blind"}
    assert kinds <= set(POST_KINDS)
    bba = Game(big_blind=2, ante=2, ante_type=AnteType.BIG_BLIND).new_hand([30, 30], seed=1)
    assert [p.kind for p in bba.posts] == ["small_blind", "big_blind", "big_blind_ante"]
    for s in (st, ref):
        s.raise_to(9)
        s.call()
        s.fold()
    assert st.history == ref.history
    assert [r.type for r in st.history] == [ActionType.RAISE, ActionType.CALL, ActionType.FOLD]


def _state_with(st: HandState, **changes: Any) -> tuple[Any, ...]:
    values = dict(zip(FIELDS, st.__reduce__()[1][1], strict=True))
    values.update(changes)
    return tuple(values[f] for f in FIELDS)


@pytest.mark.skipif(not COMPILED, reason="HOLDEM_PURE_PYTHON=1: HandState is the reference "
                    "core, which has no C struct to check")
def test_loaded_struct_is_checked_in_c() -> None:
    """A pickle that passes the Python field checks but breaks an invariant of the engine
    (here a seat's street bet above what it put in) is refused: InvalidStateError."""
    st = Game(big_blind=2).new_hand([100, 100, 100], button=0, seed=5)
    st.call()
    good = _state_with(st)
    back = HandState.__new__(HandState)
    back._setstate(good)  # type: ignore[attr-defined]
    assert back == st
    bets = list(st.bets)
    bets[0] = st.committed[0] + 10
    with pytest.raises(InvalidStateError, match="not one the engine can reach"):
        HandState.__new__(HandState)._setstate(_state_with(st, bets=tuple(bets)))  # type: ignore[attr-defined]


@pytest.mark.parametrize("cls", [HandState, ReferenceHandState])
def test_pickle_and_clone_carry_every_declared_field(cls: type[Any]) -> None:
    """Both cores save, restore and clone exactly the fields of FIELDS: a hand mid-street with
    every field away from its default survives a save/restore and a clone, field for field
    (a field one of them forgets fails here)."""
    game = Game(big_blind=2, ante=1, ante_type=AnteType.BIG_BLIND)
    probe = cls._start(game, [7, 90, 11], 1, 5, None, None)
    probe.apply("cbr 6")
    save = getattr(probe, "_getstate", None) or probe.__getstate__
    state = save()
    assert len(state) == len(FIELDS)
    back = cls.__new__(cls)
    (getattr(back, "_setstate", None) or back.__setstate__)(state)
    again = getattr(back, "_getstate", None) or back.__getstate__
    assert again() == state
    copy = probe.clone()
    assert (getattr(copy, "_getstate", None) or copy.__getstate__)() == state
    assert back == probe == copy
