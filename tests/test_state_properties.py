"""Property tests (hypothesis): random play in all three structures, 2-10 players, random stacks.

Random legal play never errors, conserves chips at every step and ends; random actions that
the legal-action summary says are illegal are always rejected and leave the state unchanged;
clones and pickles replay to the same end; the compiled and reference cores agree step by
step. A third of the hands (3+ players) have a dead small blind and/or extra posts (entry bets,
missed blinds, some short: R9, R36); a quarter have dead hands (TDA 30: seats absent at the
deal post, then are folded before any action; all but one at times, which ends the hand).
"""

from __future__ import annotations

import pickle
import random

from hypothesis import given
from hypothesis import strategies as st

from holdem import Action, ActionType, AnteType, Card, ExtraPost, Game, HandState, Structure
from holdem.errors import HoldemError, IllegalActionError, OutOfTurnError
from holdem.hand.game import COMPILED, ReferenceHandState

Case = tuple[HandState, int, dict[str, object]]  # state, action seed, dead SB / extra posts


@st.composite
def hands(draw: st.DrawFn) -> Case:
    structure = draw(st.sampled_from(list(Structure)))
    n = draw(st.integers(2, 10))
    bb = draw(st.integers(1, 20))
    kw: dict[str, object] = {"structure": structure, "big_blind": bb}
    kw["ante"] = draw(st.sampled_from([0, 0, 1, bb // 2]))
    kw["ante_type"] = draw(st.sampled_from(list(AnteType)))
    if n >= 3:
        kw["straddle"] = draw(st.booleans())
    if structure is Structure.FIXED_LIMIT:
        kw["cap_heads_up"] = draw(st.booleans())
    kw["fold_when_check_free"] = draw(st.booleans())
    game = Game(**kw)  # type: ignore[arg-type]
    stacks = draw(st.lists(st.integers(1, 60 * bb), min_size=n, max_size=n))
    button = draw(st.integers(0, n - 1))
    posts: dict[str, object] = {}
    if n >= 3 and draw(st.integers(0, 2)) == 0:
        posts = table_posts(draw, game, n, button)
    if draw(st.integers(0, 3)) == 0:  # TDA 30: dead hands, one seat at least left live
        posts["dead_hands"] = draw(st.lists(st.integers(0, n - 1), unique=True, min_size=1,
                                            max_size=n - 1))
    state = game.new_hand(stacks, button=button, seed=draw(st.integers(0, 2**32)),
                          **posts)  # type: ignore[arg-type]
    return state, draw(st.integers(0, 2**32)), posts


def table_posts(draw: st.DrawFn, game: Game, n: int, button: int) -> dict[str, object]:
    """A dead small blind and/or extra posts (entry bets, missed blinds, short or not)."""
    dead_sb = draw(st.booleans())
    bb_seat = (button + 1) % n if dead_sb else (button + 2) % n
    blinds = {bb_seat} | (set() if dead_sb else {(button + 1) % n})
    if game.straddle:
        blinds.add((bb_seat + 1) % n)
    free = [s for s in range(n) if s not in blinds]
    seats = draw(st.lists(st.sampled_from(free), unique=True, max_size=len(free))) if free else []
    bb = game.big_blind
    extra = []
    for seat in seats:
        live = draw(st.sampled_from([bb, bb, 0, draw(st.integers(0, bb))]))
        dead = draw(st.sampled_from([0, game.small_blind, draw(st.integers(0, bb))]))
        if live or dead:
            extra.append(ExtraPost(seat, live, dead) if draw(st.booleans()) else (seat, live, dead))
    return {"dead_small_blind": dead_sb, "extra_posts": extra}


def is_legal(state: HandState, action: Action) -> bool:
    la = state.legal_actions()
    t, to = action
    if t == ActionType.FOLD:
        return la.can_fold
    if t == ActionType.CHECK:
        return la.can_check
    if t == ActionType.CALL:
        return not la.can_check
    if not la.can_raise:
        return False
    assert la.min_to is not None and la.max_to is not None and to is not None
    if (t == ActionType.BET and not la.is_bet) or (t == ActionType.RAISE and la.is_bet):
        return False
    return la.min_to <= to <= la.max_to


def random_action(state: HandState, rng: random.Random) -> Action:
    la = state.legal_actions()
    t = rng.choice([ActionType.FOLD, ActionType.CHECK, ActionType.CALL, ActionType.BET,
                    ActionType.RAISE])
    if t in (ActionType.BET, ActionType.RAISE):
        hi = (la.max_to or state.current_bet + 10) + 5
        return Action(t, rng.randint(1, hi))
    return Action(t)


def legal_action(state: HandState, rng: random.Random) -> Action:
    la = state.legal_actions()
    kinds = [k for k, ok in ((0, la.can_fold), (1, True), (2, la.can_raise)) if ok]
    kind = rng.choice(kinds)
    if kind == 0:
        return Action.fold()
    if kind == 1:
        return Action.check() if la.can_check else Action.call()
    assert la.min_to is not None and la.max_to is not None
    to = rng.randint(la.min_to, la.max_to)
    return Action.bet(to) if la.is_bet else Action.raise_to(to)


@given(hands())
def test_random_legal_play_conserves_chips_and_ends(case: Case) -> None:
    state, seed, _ = case
    rng = random.Random(seed)
    total = sum(state.starting_stacks)
    steps = 0
    while not state.is_terminal():
        assert sum(state.stacks) + state.pot == total
        assert all(x >= 0 for x in state.stacks)
        state.apply(legal_action(state, rng))
        steps += 1
        assert steps < 500
    res = state.result
    assert sum(res.final_stacks) + res.rake == total
    assert sum(res.payoffs) == -res.rake
    assert all(x >= 0 for x in res.final_stacks)
    assert len(state.history) == steps


@given(hands())
def test_random_illegal_actions_are_rejected_and_change_nothing(case: Case) -> None:
    state, seed, _ = case
    rng = random.Random(seed)
    while not state.is_terminal():
        action = random_action(state, rng)
        if rng.random() < 0.1:
            other = (state.legal_actions().seat + rng.randint(1, state.num_players - 1))
            snapshot = state.clone()
            try:
                state.apply(action, seat=other % state.num_players)
            except OutOfTurnError:
                pass
            else:
                raise AssertionError("an action out of turn was accepted")
            assert state == snapshot
        if is_legal(state, action):
            state.apply(action)
            continue
        snapshot = state.clone()
        try:
            state.apply(action)
        except IllegalActionError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"illegal {action!r} accepted: {state.legal_actions()}")
        assert state == snapshot
        state.apply(legal_action(state, rng))


@given(hands())
def test_clone_and_pickle_replay_identically(case: Case) -> None:
    state, seed, _ = case
    rng = random.Random(seed)
    for _ in range(rng.randint(0, 6)):
        if state.is_terminal():
            break
        state.apply(legal_action(state, rng))
    copy = state.clone()
    pickled = pickle.loads(pickle.dumps(state))
    assert copy == state == pickled
    actions = []
    while not state.is_terminal():
        actions.append(legal_action(state, rng))
        state.apply(actions[-1])
    for other in (copy, pickled):
        for a in actions:
            other.apply(a)
        assert other.result.final_stacks == state.result.final_stacks
        assert other.history == state.history


def test_errors_are_value_errors() -> None:
    assert issubclass(IllegalActionError, HoldemError) and issubclass(HoldemError, ValueError)


@given(hands())
def test_compiled_core_matches_reference_core(case: Case) -> None:
    """Differential: the compiled core and the pure-Python reference agree at every step."""
    state, seed, posts = case
    if not COMPILED:
        return
    args = (posts.get("dead_small_blind", False), posts.get("extra_posts", ()),
            posts.get("dead_hands", ()))
    ref = ReferenceHandState._start(state.game, state.starting_stacks, state.button, None,
                                    state.hole_cards, _full_board(state), *args)
    by_seed = ReferenceHandState._start(state.game, list(state.starting_stacks), state.button,
                                        state.seed, None, None, *args)
    assert by_seed.hole_cards == state.hole_cards  # same deal order for the same seed
    rng = random.Random(seed)
    assert (ref.posts, ref.actor, ref.small_blind_seat, ref.big_blind_seat) == (
        state.posts, state.actor, state.small_blind_seat, state.big_blind_seat)
    assert (ref.committed, ref.current_bet) == (state.committed, state.current_bet)
    assert ref.dead_hands == state.dead_hands == tuple(sorted(posts.get("dead_hands", ())))
    assert ref.statuses == state.statuses and ref.is_terminal() == state.is_terminal()
    while not state.is_terminal():
        assert not ref.is_terminal()
        assert ref.legal_actions() == state.legal_actions()
        assert (ref.stacks, ref.bets, ref.pot, ref.street) == (
            state.stacks, state.bets, state.pot, state.street)
        action = random_action(state, rng) if rng.random() < 0.3 else legal_action(state, rng)
        outcomes = []
        for s in (state, ref):
            try:
                s.apply(action)
                outcomes.append("ok")
            except HoldemError as exc:
                outcomes.append(f"{type(exc).__name__}: {exc}")
        assert outcomes[0] == outcomes[1]
    assert ref.is_terminal()
    assert ref.result == state.result
    assert ref.history == state.history
    assert ref.board == state.board


def _full_board(state: HandState) -> tuple[Card, ...]:
    if state.is_terminal() and not state.board:  # won at the deal (dead hands): no board
        return ()
    probe = state.clone()
    while not probe.is_terminal():
        probe.check_or_call()
    assert len(probe.board) == 5  # checking down always reaches the river
    return probe.board

