"""The batched engine (holdem.vector) against HandState, decision by decision (R1-R34)."""

from __future__ import annotations

import pickle
import re
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import holdem
from holdem import Action, AnteType, Card, DealStart, Game, HandState, Rake, Structure, vector
from holdem.errors import (
    ChipOverflowError,
    HoldemError,
    IllegalActionError,
    InvalidArrayError,
    InvalidConfigError,
    InvalidSeatError,
    InvalidTableError,
)
from holdem.vector import ActionLayout, ObservationSpec, VectorGame

GAMES = {
    "nl": Game(big_blind=2),
    "pl": Game(structure=Structure.POT_LIMIT, big_blind=2),
    "fl": Game(structure=Structure.FIXED_LIMIT, big_blind=2),
    "fl_uncapped_hu": Game(structure=Structure.FIXED_LIMIT, big_blind=4, cap_heads_up=False,
                           max_raises=2),
    "nl_ante": Game(big_blind=4, ante=1),
    "nl_bb_ante": Game(big_blind=4, ante=4, ante_type=AnteType.BIG_BLIND),
    "pl_straddle": Game(structure=Structure.POT_LIMIT, big_blind=2, straddle=True),
    "nl_rake": Game(big_blind=2, rake=Rake(0.05, cap=3)),
    "fl_rake_ante": Game(structure=Structure.FIXED_LIMIT, big_blind=2, ante=1,
                         rake=Rake("1/10", no_flop_no_drop=False)),
    "nl_odd": Game(big_blind=3, small_blind=1, fold_when_check_free=True,
                   deal_start=DealStart.LEFT_OF_BIG_BLIND),
}


def test_cards_and_table_state_give_card_objects() -> None:
    # as HandState.hole_cards: Card (an int), so repr and str read as cards, not ids
    env = VectorGame(Game(big_blind=2), num_tables=2, players=3, stacks=200, seed=1)
    env.reset()
    hole, board = env.cards(1, 0)
    t = env.table_state(1)
    cards = [c for pair in hole for c in pair] + list(board)
    assert len(cards) == 11 and len(set(cards)) == 11
    assert all(type(c) is Card for c in cards)
    assert all(type(c) is Card for pair in t["hole"] for c in pair)
    assert all(type(c) is Card for c in t["all_board"]) and t["board"] == ()
    assert (t["hole"], t["all_board"]) == (hole, board)
    assert repr(hole[0][0]).startswith("Card('")


def _hand_state(game: Game, env: VectorGame, i: int) -> HandState:
    """Table i's hand as a HandState dealt the same cards (R11-R14 given, not shuffled)."""
    t = env.table_state(i)
    assert env.cards(i, t["hand"]) == (t["hole"], t["all_board"])
    assert t["button"] == t["hand"] % env.players
    return game.new_hand(list(t["starting_stacks"]), button=t["button"],
                         hole_cards=[list(h) for h in t["hole"]], board=list(t["all_board"]))


def _legal_tuple(la: holdem.LegalActions) -> tuple[Any, ...]:
    return tuple(la)


def _action(la: holdem.LegalActions, kind: int, to: int) -> Action:
    if kind == 0:
        return Action.fold()
    if kind == 1:
        return Action.check() if la.can_check else Action.call()
    return Action.bet(to) if la.is_bet else Action.raise_to(to)


def _differential(game: Game, players: int, *, tables: int, steps: int, seed: int,
                  stacks: Any, session: bool = False,
                  layout: ActionLayout | str = "default") -> int:
    """Step VectorGame and one HandState per table with the same random actions; compare every
    decision (actor, legal set and amounts, observation row), and at each hand's end the
    payoffs and final stacks. Returns the number of hands compared."""
    env = VectorGame(game, num_tables=tables, players=players, stacks=stacks, seed=seed,
                     session=session, actions=layout)
    env.reset()
    rng = np.random.default_rng(seed)
    states = [_hand_state(game, env, i) for i in range(tables)]
    numbers = [0] * tables  # the hand number of states[i]
    names = env.action_layout.names
    hands = 0
    for step in range(steps):
        exact = step % 2 == 1
        kinds = np.zeros(tables, dtype=np.int64)
        tos = np.zeros(tables, dtype=np.int64)
        cols = np.zeros(tables, dtype=np.int64)
        for i, state in enumerate(states):
            if step % 7 == 0:  # the raw history replays to the same hand, every field
                assert env.hand_state(i) == state
                assert [a[0] for a in env.history(i)] == [h[0] for h in state.raw_history()]
            la = state.legal_actions()
            assert env.current_player[i] == state.actor
            assert env.legal_actions(i) == _legal_tuple(la), (i, step)
            # the row (most steps update it from the last one) encodes the reference hand
            want = np.asarray(env.observation_spec.encode(state), np.float32)
            assert np.array_equal(env.observation[i], want), (i, step)
            tbl = env.table_state(i)
            assert tbl["stacks"] == state.stacks and tbl["bets"] == state.bets
            assert tbl["pot"] == state.pot and tbl["street"] == state.street_index
            mask = env.legal_mask[i]
            amounts = env.raise_amounts(i)
            # the layout's arithmetic, as ActionLayout computes it in Python (R22, R25)
            assert amounts == env.action_layout.amounts(state), (i, step)
            assert mask.tolist() == env.action_layout.mask(state), (i, step)
            # the mask agrees with the exact view
            assert mask[names.index("check_call")]
            if "fold" in names:
                assert mask[names.index("fold")] == la.can_fold
            assert any(a is not None for a in amounts) == la.can_raise
            for c, a in enumerate(amounts):
                assert (a is not None) == (mask[c] and c >= names.index("check_call") + 1)
                if a is not None:
                    assert la.min_to is not None and la.max_to is not None
                    assert la.min_to <= a <= la.max_to
            raised = [a for a in amounts if a is not None]
            assert len(raised) == len(set(raised))  # duplicates are masked
            if exact:
                kind = int(rng.integers(0, 3))
                if (kind == 0 and not la.can_fold) or (kind == 2 and not la.can_raise):
                    kind = 1
                to = 0
                if kind == 2:
                    assert la.min_to is not None and la.max_to is not None
                    to = int(rng.integers(la.min_to, la.max_to + 1))
                kinds[i], tos[i] = kind, to
            else:
                col = int(rng.choice(np.flatnonzero(mask)))
                cols[i] = col
                kind = 0 if names[col] == "fold" else 1 if names[col] == "check_call" else 2
                to = amounts[col] if kind == 2 else 0
            state.apply(_action(la, kind, to))
        if exact:
            _, rewards, done = env.step_exact(kinds, tos)
        else:
            _, rewards, done = env.step(cols)
        for i in range(tables):
            assert bool(done[i]) == states[i].is_terminal(), (i, step)
            if done[i]:
                res = states[i].result
                last = env.last_hand(i)
                assert last is not None and last.is_terminal() and last.result == res
                assert last.raw_history() == states[i].raw_history()
                payoffs = list(res.payoffs)
                final = res.final_stacks
                nxt = env.table_state(i)
                # a session hand in which nobody can act is dealt out within the step: replay
                # it through HandState from its cards and add its payoffs
                for h in range(numbers[i] + 1, nxt["hand"]):
                    assert session
                    hole, board = env.cards(i, h)
                    skipped = game.new_hand(_refill(final, stacks, players),
                                            button=h % players, hole_cards=list(hole),
                                            board=list(board))
                    assert skipped.is_terminal()
                    payoffs = [a + b for a, b in zip(payoffs, skipped.result.payoffs,
                                                     strict=True)]
                    final = skipped.result.final_stacks
                assert tuple(env.payoffs[i]) == tuple(payoffs)
                assert np.allclose(rewards[i], np.array(payoffs) / game.big_blind)
                if session:
                    assert list(nxt["starting_stacks"]) == _refill(final, stacks, players)
                    assert nxt["button"] == (states[i].button + 1 + nxt["hand"] - numbers[i]
                                             - 1) % players
                hands += 1
                numbers[i] = nxt["hand"]
                states[i] = _hand_state(game, env, i)
            else:
                assert not rewards[i].any()
    return hands


def _refill(final: Any, stacks: Any, players: int) -> list[int]:
    """A session's next starting stacks: carried over, a busted seat refilled."""
    start = (stacks,) * players if isinstance(stacks, int) else tuple(stacks)
    return [s if s > 0 else e for s, e in zip(final, start, strict=True)]


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("players", range(2, 11))
def test_differential_every_structure(name: str, players: int) -> None:
    """R1-R34: the batched engine makes every decision HandState makes (actor, legal set and
    amounts) and pays the same (final stacks, payoffs incl. rake and odd chips)."""
    game = GAMES[name]
    if game.straddle and players < 3:
        with pytest.raises(InvalidConfigError, match="straddle"):
            VectorGame(game, num_tables=1, players=players, stacks=100, seed=1)
        return
    # uneven short stacks: all-ins, side pots and short all-in reopening come up often
    stacks = [40 + 37 * k % 90 for k in range(players)]
    hands = _differential(game, players, tables=5, steps=80, seed=players * 31 + len(name),
                          stacks=stacks)
    assert hands > 5


@pytest.mark.parametrize("players", [2, 3, 6, 10])
@pytest.mark.parametrize("layout", ["fcpa", "fchpa", "default"])
def test_differential_session(players: int, layout: str) -> None:
    """A session: the button moves, stacks carry over, busted seats are refilled."""
    hands = _differential(GAMES["nl"], players, tables=4, steps=60, seed=players,
                          stacks=30, session=True, layout=layout)
    assert hands > 10


@pytest.mark.parametrize("players", [2, 6])
@pytest.mark.parametrize("name", ["nl", "pl", "fl", "nl_ante"])
@pytest.mark.parametrize("layout", ["fcpa", "fchpa"])
def test_differential_openspiel_presets(layout: str, name: str, players: int) -> None:
    """OpenSpiel's presets (keep="first": a fraction beyond an all-in is masked, not clipped)
    in every betting structure, with short uneven stacks (all-ins and duplicate amounts come
    up often): every decision's amounts and mask are ActionLayout's (R22, R25)."""
    stacks = [9 + 23 * k % 60 for k in range(players)]
    hands = _differential(GAMES[name], players, tables=6, steps=60, seed=players + len(name),
                          stacks=stacks, layout=layout)
    assert hands > 10


def test_differential_fixed_limit_session() -> None:
    """R26-R28 over a session of short stacks (all-ins below half a bet, the cap)."""
    assert _differential(GAMES["fl"], 4, tables=6, steps=80, seed=3, stacks=11,
                         session=True) > 20


def test_pot_fraction_arithmetic() -> None:
    """A pot-sized raise is the call plus the pot after the call (R25's maximum), clipped to
    the minimum raise and the stack; half pot of 3 chips facing 2 collapses onto the min-raise."""
    game = Game(big_blind=2)
    env = VectorGame(game, num_tables=1, players=3, stacks=[100, 100, 9], seed=5,
                     actions="fchpa")
    env.reset()
    # seat 0 (button) first: pot 3, owes 2 -> pot raise to 2 + (3 + 2) = 7; half: 2 + 2 = 4
    assert env.current_player[0] == 0
    assert env.action_layout.names == ("fold", "check_call", "raise_half_pot", "raise_pot",
                                       "all_in")
    assert env.raise_amounts(0) == [None, None, 4, 7, 100]
    pl = Game(structure=Structure.POT_LIMIT, big_blind=2)
    st_ = pl.new_hand([100, 100, 100], button=0, seed=5)
    assert st_.legal_actions().max_to == 7  # the same number as pot limit's maximum
    env.step([3])  # raise to 7
    # seat 1 (SB, 1 in): pot 10, owes 6 -> 7 + 16 = 23; half 7 + 8 = 15; min 12
    assert env.raise_amounts(0) == [None, None, 15, 23, 100]
    env.step([1])  # call
    # seat 2 has 9 chips (2 in): every size clips to its all-in of 9, shown once (all-in)
    assert env.raise_amounts(0) == [None, None, None, None, 9]
    assert list(env.legal_mask[0]) == [True, True, False, False, True]


def test_seeds_follow_the_rule_of_every_seed() -> None:
    """``seed`` is any int, taken modulo 2**64, or None (drawn and kept in ``env.seed``), as
    everywhere in holdem: it had to be 0..2**64-1 and had no default."""
    game = Game(big_blind=2)

    def cards(env: VectorGame) -> list[Any]:
        env.reset()
        return [env.cards(t, h) for t in range(3) for h in range(2)]

    same = [VectorGame(game, num_tables=3, players=2, stacks=100, seed=s)
            for s in (-1, 2**64 - 1, 2**65 - 1)]
    assert cards(same[0]) == cards(same[1]) == cards(same[2])
    assert [e.seed for e in same] == [-1, 2**64 - 1, 2**65 - 1]
    assert "seed=-1," in repr(same[0])
    drawn = VectorGame(game, num_tables=3, players=2, stacks=100)
    assert isinstance(drawn.seed, int) and 0 <= drawn.seed < 2**64
    again = VectorGame(game, num_tables=3, players=2, stacks=100, seed=drawn.seed)
    assert cards(drawn) == cards(again)
    for bad in (1.5, "1", True):
        with pytest.raises(InvalidConfigError, match="seed must be an int"):
            VectorGame(game, num_tables=3, players=2, stacks=100, seed=bad)  # type: ignore[arg-type]


def test_a_play_result_is_equal_to_itself_only() -> None:
    """PlayResult holds arrays: ``==`` ran numpy's elementwise comparison (ValueError: the
    truth value of an array is ambiguous) and ``hash`` raised TypeError."""
    import copy

    from holdem.table.agents import CompiledPolicy

    env = VectorGame(Game(big_blind=2), num_tables=2, players=2, stacks=100, seed=1)
    r = env.play(3, [CompiledPolicy("call")] * 2)
    assert r == r and r != copy.deepcopy(r) and hash(r) == hash(r)
    assert r.payoffs.tolist() == copy.deepcopy(r).payoffs.tolist()


def test_keep_says_which_duplicate_stays_legal() -> None:
    """Heads-up with 6 chips, the button owes 1 of a 3-chip pot: the pot raise is to
    2 + (3 + 1) = 6, its whole stack. ``keep="all_in"`` offers it as all_in; the fcpa preset
    (``keep="first"``) as raise_pot, as OpenSpiel's universal_poker offers it (its pot action,
    not its all-in); a pot raise beyond the stack is the all-in column under both."""
    game = Game(big_blind=2)
    for actions, want in (("fcpa", [None, None, 6, None]),
                          (ActionLayout((Fraction(1),), min_raise=False), [None, None, None, 6]),
                          (ActionLayout((Fraction(1),), min_raise=False, all_in=False,
                                        keep="first"), [None, None, 6])):
        env = VectorGame(game, num_tables=1, players=2, stacks=6, seed=1, actions=actions)
        env.reset()
        assert env.raise_amounts(0) == want, actions
        assert env.action_layout.amounts(env.hand_state(0)) == want
        assert list(env.legal_mask[0]) == [True, True] + [a is not None for a in want[2:]]
    # 5 chips: the pot raise (to 6) is beyond the stack; all-in is the legal raise column
    env = VectorGame(game, num_tables=1, players=2, stacks=5, seed=1, actions="fcpa")
    env.reset()
    assert env.raise_amounts(0) == [None, None, None, 5]
    with pytest.raises(InvalidConfigError, match="keep must be 'all_in' or 'first'"):
        ActionLayout(keep="pot")
    assert ActionLayout.preset("fchpa").keep == "first" and ActionLayout().keep == "all_in"


def test_fixed_limit_maps_to_one_column() -> None:
    """R26: every raise column clips to L + S; one is kept, the others are duplicates."""
    env = VectorGame(GAMES["fl"], num_tables=1, players=3, stacks=100, seed=1)
    env.reset()
    amounts = env.raise_amounts(0)
    assert [a for a in amounts if a is not None] == [4]
    assert env.legal_actions(0)[6:] == (4, 4)


def test_presets() -> None:
    assert ActionLayout.preset("fcpa").names == ("fold", "check_call", "raise_pot", "all_in")
    assert ActionLayout.preset("fchpa").names == (
        "fold", "check_call", "raise_half_pot", "raise_pot", "all_in")
    assert ActionLayout((0.33, 2.5)).names[2:4] == ("raise_0.33_pot", "raise_2.5_pot")
    with pytest.raises(InvalidConfigError, match="unknown action preset"):
        ActionLayout.preset("fcp")
    with pytest.raises(InvalidConfigError, match="pot fraction"):
        ActionLayout((0,))
    with pytest.raises(InvalidConfigError, match="repeat"):
        ActionLayout((0.5, 0.5))


def test_distinct_fractions_get_distinct_column_names() -> None:
    """One name per column: two pot fractions that print alike with 6 significant digits
    (49951/999 is 50.001001..., 50001/1000 is 50.001) are named with more digits; the other
    names stay as they were."""
    layout = ActionLayout((Fraction(49951, 999), Fraction(50001, 1000), Fraction(1, 7), 2.5))
    assert layout.names[2:6] == ("raise_50.001001_pot", "raise_50.001_pot",
                                 "raise_0.142857_pot", "raise_2.5_pot")
    assert len(set(layout.names)) == layout.size


@settings(max_examples=200, deadline=None)
@given(st.lists(st.fractions(min_value="1/1000", max_value=100, max_denominator=1000),
                min_size=1, max_size=20, unique=True))
def test_column_names_are_unique(fractions: list[Fraction]) -> None:
    layout = ActionLayout(tuple(fractions))
    assert len(set(layout.names)) == layout.size


def _policy_run(env: VectorGame, steps: int) -> list[Any]:
    """A deterministic policy: table i at step s plays its legal column number (i + s) % k."""
    out = []
    env.reset()
    for s in range(steps):
        mask = env.legal_mask
        cols = np.array([np.flatnonzero(mask[i])[(i + s) % mask[i].sum()]
                         for i in range(env.num_tables)])
        obs, rewards, done = env.step(cols)
        out.append((obs.copy(), rewards.copy(), done.copy(), env.current_player.copy()))
    return out


def test_deterministic_across_batch_size_and_threads() -> None:
    """Table i's cards depend only on (seed, i, hand number): the same tables play the same
    hands whatever N is and however the batch is split across threads."""
    game = GAMES["nl_ante"]
    big = _policy_run(VectorGame(game, num_tables=9, players=4, stacks=80, seed=77), 60)
    small = _policy_run(VectorGame(game, num_tables=4, players=4, stacks=80, seed=77), 60)
    threaded = _policy_run(VectorGame(game, num_tables=9, players=4, stacks=80, seed=77,
                                      num_threads=3), 60)
    for a, b, c in zip(big, small, threaded, strict=True):
        for x, y, z in zip(a, b, c, strict=True):
            assert np.array_equal(x[:4], y)
            assert np.array_equal(x, z)
    other = _policy_run(VectorGame(game, num_tables=4, players=4, stacks=80, seed=78), 60)
    assert not all(np.array_equal(a[0], b[0]) for a, b in zip(small, other, strict=True))


def test_observation_encoding() -> None:
    """The documented columns hold what the spec says, relative to the actor."""
    game = Game(big_blind=2)
    env = VectorGame(game, num_tables=2, players=3, stacks=[100, 60, 40], seed=9)
    obs = env.reset()
    spec = env.observation_spec
    assert spec == ObservationSpec(3) and spec.version == holdem.vector.OBS_VERSION == 1
    assert obs.shape == (2, spec.width) == (2, 227 + 7 * 3) and obs.dtype == np.float32
    assert len(spec.names) == spec.width == len(set(spec.names))
    t = env.table_state(0)
    actor = t["actor"]
    row = obs[0]
    hole = {holdem.Card(c) for c in t["hole"][actor]}
    assert {holdem.Card(k) for k in range(52) if row[k]} == hole
    assert row[spec.index(f"hole[{holdem.Card(t['hole'][actor][0])}]")] == 1
    assert row[spec.index("street[preflop]")] == 1 and not row[52:208].any()
    assert row[spec.index("position[0]")] == 1  # 3-handed the button acts first preflop
    assert row[spec.index("pot")] == 1.5 and row[spec.index("to_call")] == 1
    assert row[spec.index("min_raise_to")] == 2 and row[spec.index("max_raise_to")] == 50
    assert row[spec.index("seat[0].stack")] == 50 and row[spec.index("seat[1].stack")] == 29.5
    assert row[spec.index("seat[2].bet")] == 1 and row[spec.index("seat[2].button_distance")] == 2
    assert row[spec.index("players_in_hand")] == 3
    env.step([names_index(env, "min_raise")] * 2)
    row = env.observation[0]
    assert row[spec.index("preflop.raises")] == 1 and row[spec.index("preflop.added")] == 2
    assert row[spec.index("seat[2].bet")] == 2  # the raiser, two seats after the new actor
    with pytest.raises(InvalidConfigError, match="no observation column"):
        spec.index("nope")


def names_index(env: VectorGame, name: str) -> int:
    return env.action_layout.names.index(name)


def test_illegal_action_names_table_and_nothing_moves() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=3, players=3, stacks=100, seed=1)
    env.reset()
    before = [env.table_state(i) for i in range(3)]
    obs = env.observation.copy()
    half = names_index(env, "raise_half_pot")  # collapses onto the min-raise preflop
    with pytest.raises(IllegalActionError, match=r"table 1: action 2 \(raise_half_pot\) is not "
                                                 r"legal for seat 0 \(masked as a duplicate: it "
                                                 r"raises to 4, as column 4 \(min_raise\) does\); "
                                                 r"legal columns: fold"):
        env.step([1, half, 1])
    with pytest.raises(IllegalActionError, match="action 9 is not a column"):
        env.step([1, 1, 9])
    with pytest.raises(IllegalActionError, match=r"table 2: bet/raise to 3 is not legal.*"
                                                 r"bet/raise to 4\.\.100"):
        env.step_exact([1, 1, 2], [0, 0, 3])
    with pytest.raises(IllegalActionError, match="table 0: kind 5"):
        env.step_exact([5, 1, 1], [0, 0, 0])
    assert [env.table_state(i) for i in range(3)] == before
    assert np.array_equal(env.observation, obs)


@pytest.mark.parametrize("threads", [1, 2])
def test_exact_actions_the_hand_does_not_offer_are_refused(threads: int) -> None:
    """``step_exact`` checks each action against the hand's legal set, not only its amount:
    R17, a fold while checking is free (unless ``fold_when_check_free``), and a raise where
    nobody may raise, here facing an all-in that covers the caller (only call or fold remain;
    a raise "to 0" fits the empty raise range and would have cut the bet to call)."""
    env = VectorGame(Game(big_blind=2), num_tables=2, players=2, stacks=100, seed=1,
                     num_threads=threads)
    env.reset()
    env.step_exact([1, 2], [0, 100])  # table 0: the button calls; table 1: it moves all in
    before = [env.table_state(i) for i in range(2)]
    obs = env.observation.copy()
    with pytest.raises(IllegalActionError, match=r"table 0: fold is not legal for seat 1; "
                                                 r"allowed: check, bet/raise to 4\.\.100"):
        env.step_exact([0, 1], [0, 0])
    for to in (0, 2, 100):
        with pytest.raises(IllegalActionError, match=rf"table 1: bet/raise to {to} is not legal "
                                                     r"for seat 1; allowed: fold, call 98"):
            env.step_exact([1, 2], [0, to])
    assert [env.table_state(i) for i in range(2)] == before
    assert np.array_equal(env.observation, obs)
    free = VectorGame(Game(big_blind=2, fold_when_check_free=True), num_tables=1, players=2,
                      stacks=100, seed=1, num_threads=threads)
    free.reset()
    free.step_exact([1], [0])
    _, _, done = free.step_exact([0], [0])  # offered by the game: the big blind folds
    assert done[0] and free.payoffs[0].tolist() == [2, -2]


def test_bad_arrays() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=3, players=3, stacks=100, seed=1)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step([1, 1, 1])
    env.reset()
    with pytest.raises(InvalidArrayError, match=r"shape \(3,\)"):
        env.step([1, 1])
    with pytest.raises(InvalidArrayError, match=r"shape \(3,\)"):
        env.step(np.ones((3, 1), dtype=np.int64))
    with pytest.raises(InvalidArrayError, match="integers"):
        env.step(np.ones(3, dtype=np.float64))
    with pytest.raises(InvalidArrayError, match="integers"):
        env.step(np.ones(3, dtype=bool))
    env.step(np.ones(3, dtype=np.uint8))  # any integer dtype
    env.step_unchecked(np.array([-1, 99, 1]))  # unchecked: out-of-range plays check/call
    with pytest.raises(IndexError, match="table 3"):
        env.legal_actions(3)


@pytest.mark.parametrize("kwargs, message", [
    ({"num_tables": 1 << 40}, "num_tables must be 1.."),
    ({"num_tables": 0}, "num_tables must be 1.."),
    ({"players": 11}, "players must be 2..10"),
    ({"players": 1}, "players must be 2..10"),
    ({"stacks": 0}, "stack of seat 0"),
    ({"stacks": [5, 5]}, "stacks has 2 entries"),
    ({"num_threads": 0}, "num_threads"),
    ({"actions": "x"}, "unknown action preset"),
    ({"session": 1}, "session must be"),
    ({"stacks": 1.5}, "stacks must be an int"),
    ({"stacks": [100, True, 100]}, "stacks must be an int"),
    ({"seed": 1.0}, "seed must be an int"),
    ({"num_tables": "2"}, "num_tables must be an int"),
])
def test_bad_config(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"num_tables": 2, "players": 3, "stacks": 100, "seed": 1}
    args.update(kwargs)
    with pytest.raises(InvalidConfigError, match=message):
        VectorGame(Game(big_blind=2), **args)


def test_numpy_integers_accepted() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=np.int64(2), players=np.int32(3),
                     stacks=np.array([50, 60, 70]), seed=np.uint64(2**63))
    env.reset()
    assert env.table_state(1)["starting_stacks"] == (50, 60, 70)


def test_memory_per_table() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=2, players=6, stacks=100, seed=1)
    assert env.memory_per_table() <= 4096
    assert repr(env).startswith("VectorGame(Game(")


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 10), st.sampled_from(sorted(GAMES)), st.integers(0, 2**32),
       st.booleans())
def test_chips_conserved(players: int, name: str, seed: int, session: bool) -> None:
    """R31, R34: at every step each table's stacks plus its pot equal its starting chips, and
    a finished hand's payoffs sum to minus the rake (zero without rake)."""
    game = GAMES[name]
    if game.straddle and players < 3:
        return
    env = VectorGame(game, num_tables=3, players=players, stacks=[7 + 13 * k for k in
                                                                  range(players)],
                     seed=seed, session=session, actions="fchpa")
    env.reset()
    rng = np.random.default_rng(seed)
    for _ in range(30):
        for i in range(3):
            t = env.table_state(i)
            assert sum(t["stacks"]) + t["pot"] == sum(t["starting_stacks"])
        mask = env.legal_mask
        _, _, done = env.step([int(rng.choice(np.flatnonzero(m))) for m in mask])
        for i in np.flatnonzero(done):
            total = int(env.payoffs[i].sum())
            assert total == 0 if game.rake is None else total <= 0


def test_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy is optional: the outputs are memoryviews of the same shapes and formats, inputs
    any integer sequence or buffer, and the results are the same."""
    import array

    import holdem.vector as vector

    with_np = _policy_run(VectorGame(GAMES["pl"], num_tables=3, players=3, stacks=50,
                                     seed=4), 10)
    monkeypatch.setattr(vector, "_np", None)
    env = VectorGame(GAMES["pl"], num_tables=3, players=3, stacks=50, seed=4)
    obs = env.reset()
    assert isinstance(obs, memoryview) and obs.shape == (3, env.observation_spec.width)
    assert obs.format == "f" and env.legal_mask.format == "B"
    for s in range(10):
        mask = env.legal_mask
        cols = []
        for i in range(3):
            legal = [c for c in range(mask.shape[1]) if mask[i, c]]
            cols.append(legal[(i + s) % len(legal)])
        # a list, an int64 buffer (read in place), an int32 buffer (converted)
        step_in: object = (cols, array.array("q", cols), array.array("i", cols))[s % 3]
        obs, rewards, done = env.step(step_in)
        ref_obs, ref_rewards, ref_done, ref_actor = with_np[s]
        assert np.array_equal(np.asarray(obs), ref_obs)
        assert np.array_equal(np.asarray(rewards), ref_rewards)
        assert np.array_equal(np.asarray(done).astype(bool), ref_done)
        assert list(env.current_player) == list(ref_actor)
    with pytest.raises(InvalidArrayError, match="integers"):
        env.step([1.0, 1, 1])
    with pytest.raises(InvalidArrayError, match="integer buffer"):
        env.step(array.array("d", [1, 1, 1]))
    with pytest.raises(InvalidArrayError, match=r"shape \(3,\), got \(2,\)"):
        env.step(array.array("q", [1, 1]))
    with pytest.raises(InvalidArrayError, match="outside int64"):
        env.step(array.array("Q", [1, 1, 2**63]))


def test_step_exact_plays_the_entries_it_checked() -> None:
    """step_exact copies what it checks: a caller's buffer written after the check (as by
    another thread) cannot reach a table. The write here comes right after the real check."""
    env = VectorGame(GAMES["nl"], num_tables=4, players=3, stacks=100, seed=9)
    env.reset()
    ref = VectorGame(GAMES["nl"], num_tables=4, players=3, stacks=100, seed=9)
    ref.reset()
    real = env._batch

    class WrittenAfterCheck:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def check_exact(self, kinds: Any, tos: Any) -> int:
            bad = real.check_exact(kinds, tos)
            kinds[:] = 2  # raise ...
            tos[:] = 1    # ... to 1 chip: never legal
            return bad

    env._batch = WrittenAfterCheck()  # type: ignore[assignment]
    for _ in range(12):
        kinds = np.ones(4, dtype=np.int64)  # check/call everywhere
        tos = np.zeros(4, dtype=np.int64)
        obs, rewards, done = env.step_exact(kinds, tos)
        ref_obs, ref_rewards, ref_done = ref.step_exact(np.ones(4, np.int64), np.zeros(4, np.int64))
        assert (kinds == 2).all()  # the write happened
        assert np.array_equal(obs, ref_obs) and np.array_equal(rewards, ref_rewards)
        assert np.array_equal(done, ref_done)


def test_module_examples() -> None:
    import doctest

    import holdem.vector as vector

    failed, tried = doctest.testmod(vector, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failed == 0


def test_stacks_too_short_for_a_decision() -> None:
    """R9: stacks that put every seat all in from the forced bets would deal forever."""
    with pytest.raises(InvalidConfigError, match=r"too short.*nobody acts"):
        VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=1, seed=1)
    with pytest.raises(InvalidConfigError, match="too short"):
        VectorGame(Game(big_blind=4, ante=4), num_tables=1, players=3, stacks=[4, 4, 4],
                   seed=1)


def test_session_hands_without_decision() -> None:
    """A session where carried stacks are often all in from the antes and blinds: those
    hands are dealt out within the step (counted in hands_played and in the payoffs), and
    every step's payoffs still sum to zero (R31, no rake)."""
    game = Game(big_blind=2, ante=2)
    env = VectorGame(game, num_tables=16, players=3, stacks=5, seed=3, session=True,
                     actions="fcpa")
    env.reset()
    rng = np.random.default_rng(3)
    done_events = np.zeros(16, dtype=np.int64)
    for _ in range(300):
        mask = env.legal_mask
        _, rewards, done = env.step([int(rng.choice(np.flatnonzero(m))) for m in mask])
        done_events += done
        assert not env.payoffs[done].sum(axis=1).any()
        assert np.allclose(rewards[done], env.payoffs[done] / 2)
        for i in range(16):
            t = env.table_state(i)
            assert sum(t["stacks"]) + t["pot"] == sum(t["starting_stacks"])
    assert (env.hands_played() >= done_events).all()
    assert (env.hands_played() > done_events).any()  # some hands had no decision


def test_engine_refuses_an_unknown_column_kind() -> None:
    """The compiled batch checks the column codes it is given (a layout always passes valid
    ones): an unknown kind would otherwise leave its amount and mask unwritten."""
    from holdem import _vector
    from holdem.vector import _rules

    layout = ActionLayout.preset("fcpa")
    codes, order = list(layout._codes), list(layout._priority)
    args = (_rules(Game(big_blind=2)), 4, 3, (200, 200, 200), 1, False)
    batch = _vector.Batch(*args, codes, order)
    assert batch.num_cols == len(codes)
    with pytest.raises(InvalidArrayError, match="call bind"):  # no outputs bound: no step
        batch.run(0, 4, np.ones(4, dtype=np.int64))
    with pytest.raises(InvalidArrayError, match="call bind"):
        batch.reset()
    for bad in (-1, 5, 99):
        with pytest.raises(InvalidConfigError, match=f"column 1: unknown kind {bad}"):
            _vector.Batch(*args, [codes[0], (bad, 1, 1), *codes[2:]], order)
    # the duplicate priority must name each raise column once
    for bad_order in ([2], [2, 2], [3, 2, 1], [], [2, 3, 4]):
        with pytest.raises(InvalidConfigError, match="is not an order of the raise columns"):
            _vector.Batch(*args, codes, bad_order)


def test_c_core_on_its_own(tmp_path: Any) -> None:
    """csrc/hd_hand.h in plain C (tests/c/hd_hand_check.c): random legal play in every
    structure conserves chips (R31, R34) and keeps the legal ranges consistent (R22-R28), and
    garbage through the unchecked hd_hs_act stays memory-safe, under ASan/UBSan when the
    compiler has them."""
    from c_checks import run_c_check

    run_c_check(tmp_path, "hd_hand_check", ("hd_hand.c", "hd_pots.c", "hd_eval.c", "hd_tables.c"))


PINNED = "cb5165130305879a"  # sha256 prefix of the trajectory below (observation version 1)


def test_totals_unchecked_and_pinned_digest() -> None:
    """total_payoffs sums every finished hand's payoffs per table and seat; step_unchecked
    with legal columns plays exactly as step; and the trajectory of a fixed seed is pinned
    (dealing, rules and encoding give the same bytes on every machine and version 1)."""
    import hashlib

    game = GAMES["nl_ante"]
    a = VectorGame(game, num_tables=32, players=5, stacks=120, seed=2024, session=True)
    b = VectorGame(game, num_tables=32, players=5, stacks=120, seed=2024, session=True)
    a.reset()
    b.reset()
    rng = np.random.default_rng(5)
    summed = np.zeros((32, 5), dtype=np.int64)
    digest = hashlib.sha256()
    for _ in range(200):
        cols = (rng.random(a.legal_mask.shape) * a.legal_mask).argmax(axis=1)
        obs, rewards, done = a.step(cols)
        obs_b, rewards_b, done_b = b.step_unchecked(cols)
        assert np.array_equal(obs, obs_b) and np.array_equal(rewards, rewards_b)
        assert np.array_equal(done, done_b)
        summed += a.payoffs * done[:, None]
        for arr in (obs, rewards, done, a.current_player, a.legal_mask):
            digest.update(np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tobytes())
    assert np.array_equal(a.total_payoffs(), summed)
    assert a.total_payoffs().sum() == 0
    assert digest.hexdigest()[:16] == PINNED


def test_total_payoffs_past_int64_raise_and_stay_exact() -> None:
    """total_payoffs sums an unbounded number of hands: with blinds near the 2**53 stack limit
    one seat passes 2**63 chips after about a thousand hands. The sum was an int64 that
    overflowed (undefined behaviour; in practice it wrapped to the wrong sign). It is kept
    exact: outside int64 total_payoffs raises ChipOverflowError (a HoldemError and an
    OverflowError) quoting the sum, and it reads
    right again once the sum is back in range."""
    big = 1 << 53
    env = VectorGame(Game(big_blind=big - (1 << 50), small_blind=1 << 52), num_tables=1,
                     players=2, stacks=big, seed=4)
    env.reset()
    exact = [0, 0]

    def play_until(winner: int, done_when: Any) -> None:
        # the winner goes all in whenever it may raise, the other folds whenever it may
        while not done_when():
            la = env.legal_actions(0)
            if int(env.current_player[0]) == winner:
                kind, to = (2, la.max_to) if la.can_raise else (1, 0)
            else:
                kind, to = (0, 0) if la.can_fold else (1, 0)
            _, _, done = env.step_exact([kind], [to])
            if done[0]:
                for k in range(2):
                    exact[k] += int(env.payoffs[0, k])

    play_until(0, lambda: exact[0] > (1 << 63) + big)  # seat 1 below -2**63 as well
    before = np.full((1, 2), 7, dtype=np.int64)
    with pytest.raises(ChipOverflowError, match=f"seat 0: .* are {exact[0]} chips, outside int64") as e:
        env._batch.totals(before)
    assert isinstance(e.value, HoldemError) and isinstance(e.value, OverflowError)
    assert (before == 7).all()  # left as it was
    with pytest.raises(ChipOverflowError):
        env.total_payoffs()
    play_until(1, lambda: exact[0] < (1 << 62))  # back in range, both seats
    assert env.total_payoffs().tolist() == [exact]
    assert exact[0] + exact[1] == 0


@pytest.mark.parametrize(("name", "players", "stacks", "session"), [
    ("nl", 6, 200, False), ("nl", 2, 30, True), ("pl", 4, 100, False), ("fl", 5, 100, True),
    ("fl_uncapped_hu", 2, 60, False), ("nl_ante", 10, 300, True), ("nl_bb_ante", 7, 120, True),
    ("pl_straddle", 6, 150, False), ("nl_rake", 3, 41, False), ("fl_rake_ante", 4, 80, True),
    ("nl_odd", 9, 90, False)])
def test_last_hand_observation_is_the_finished_hand_encoded(name: str, players: int,
                                                             stacks: int, session: bool) -> None:
    """last_hand_observation (in C, from the table's log) is the row ObservationSpec.encode
    gives for last_hand() and the seat, for every seat of every table after every step:
    folds, showdowns, all-in run-outs, uncalled bets, rake, antes, straddles, sessions."""
    env = VectorGame(GAMES[name], num_tables=24, players=players, stacks=stacks, seed=7,
                     session=session)
    env.reset()
    spec = env.observation_spec
    assert env.last_hand_observation(3, players - 1) is None  # no hand has ended yet
    rng = np.random.default_rng(players)
    seen, boards = 0, set()
    for _ in range(40):
        env.step(vector.sample_legal(env.legal_mask, rng))
        for i in range(env.num_tables):
            hand = env.last_hand(i)
            if hand is None:
                continue
            boards.add(len(hand.board))
            for seat in range(players):
                row = env.last_hand_observation(i, seat)
                assert row.dtype == np.float32 and row.shape == (spec.width,)
                assert np.array_equal(row, np.asarray(spec.encode(hand, seat),
                                                      dtype=np.float32)), (i, seat)
                seen += 1
    assert seen > 500 and 0 in boards and 5 in boards
    copy = pickle.loads(pickle.dumps(env))  # the log travels with the tables
    for i in range(env.num_tables):
        assert np.array_equal(copy.last_hand_observation(i, 0), env.last_hand_observation(i, 0))


def test_last_hand_observation_inputs_and_log_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bad tables and seats are refused by name; a hand of more than 64 actions has no log to
    build the row from (IllegalActionError, as last_hand); without numpy: a memoryview."""
    env = VectorGame(Game(big_blind=2), num_tables=2, players=3, stacks=100_000, seed=8)
    env.reset()
    for bad in (-1, 2, 1.0, "0", None, 2**70, -(2**70), [0]):
        with pytest.raises(InvalidTableError, match="table"):
            env.last_hand_observation(bad, 0)  # type: ignore[arg-type]
    for bad in (-1, 3, True, 0.0, "1", None, 2**70, np.uint64(2**63), [1]):
        with pytest.raises(InvalidSeatError, match=r"seat must be an int 0\.\.2, got"):
            env.last_hand_observation(0, bad)  # type: ignore[arg-type]
    assert env.last_hand_observation(0, np.int64(2)) is None
    env.step([1, 0])  # the button calls on table 0, folds on table 1
    for _ in range(70):  # a min-raise war on table 0: more than 64 actions
        env.step_exact([2, 1], [env.legal_actions(0).min_to, 0])
    while not env.step([0, 1])[2][0]:
        pass
    with pytest.raises(IllegalActionError, match="more than 64 actions"):
        env.last_hand_observation(0, 1)
    hand = env.last_hand(1)
    assert hand is not None
    want = np.asarray(env.observation_spec.encode(hand, 2), dtype=np.float32)
    assert np.array_equal(env.last_hand_observation(1, 2), want)
    monkeypatch.setattr(vector, "_np", None)
    row = env.last_hand_observation(1, 2)
    assert isinstance(row, memoryview) and row.format == "f"
    assert np.array_equal(np.asarray(row), want)


def test_history_phh_and_log_limit() -> None:
    """The raw public history of a table, its finished hand as PHH, and the limit of 64 logged
    actions per hand (a longer hand plays on; only its history is not kept)."""
    env = VectorGame(Game(big_blind=2), num_tables=1, players=3, stacks=100_000, seed=8)
    env.reset()
    assert env.last_hand(0) is None and env.history(0) == []
    env.step([1])  # the button calls 2
    assert env.history(0) == [(0, 0, 1, 0)]
    for _ in range(70):  # a min-raise war: more than 64 actions
        lo = env.legal_actions(0).min_to
        env.step_exact([2], [lo])
    with pytest.raises(IllegalActionError, match="more than 64 actions"):
        env.history(0)
    while True:
        _, _, done = env.step([0])
        if done[0]:
            break
    with pytest.raises(IllegalActionError, match="more than 64 actions"):
        env.last_hand(0)
    assert env.history(0) == []  # the next hand is logged again
    env.step([0])
    env.step([0])
    last = env.last_hand(0)
    assert last is not None and last.is_terminal()
    text = holdem.from_state(last).dumps()
    assert "'p3 f', 'p1 f']" in text  # PHH p1 is left of the button
    assert holdem.HandHistory.loads(text).actions == holdem.from_state(last).actions


@st.composite
def _games(draw: st.DrawFn) -> Game:
    structure = draw(st.sampled_from(list(Structure)))
    bb = draw(st.integers(1, 12))
    kwargs: dict[str, Any] = {
        "structure": structure, "big_blind": bb, "small_blind": draw(st.integers(0, bb)),
        "ante": draw(st.integers(0, 2 * bb)),
        "ante_type": draw(st.sampled_from(list(AnteType))),
        "straddle": draw(st.booleans()),
        "fold_when_check_free": draw(st.booleans()),
        "deal_start": draw(st.sampled_from(list(DealStart))),
    }
    if structure is Structure.FIXED_LIMIT:
        kwargs["big_bet"] = draw(st.integers(bb, 3 * bb))
        kwargs["max_raises"] = draw(st.integers(0, 5))
        kwargs["cap_heads_up"] = draw(st.booleans())
    if draw(st.booleans()):
        kwargs["rake"] = Rake(draw(st.sampled_from(["1/20", "1/10", "0.03", "1"])),
                              cap=draw(st.sampled_from([None, 0, 1, 5])),
                              no_flop_no_drop=draw(st.booleans()))
    return Game(**kwargs)


@settings(max_examples=100, deadline=None)
@given(_games(), st.integers(2, 10), st.integers(0, 2**32), st.booleans(), st.data())
def test_differential_random_games(game: Game, players: int, seed: int, session: bool,
                                   data: st.DataObject) -> None:
    """The differential proof over random rules (blinds, small blind 0..bb, antes of both
    kinds, straddle, fixed-limit sizes and caps, rake) and random uneven stacks."""
    if game.straddle and players < 3:
        return
    stacks = data.draw(st.lists(st.integers(1, 40 * game.big_blind), min_size=players,
                                max_size=players))
    try:
        VectorGame(game, num_tables=1, players=players, stacks=stacks, seed=seed)
    except InvalidConfigError as exc:  # only stacks that leave nobody a decision are refused
        assert "too short" in str(exc)
        return
    _differential(game, players, tables=3, steps=24, seed=seed, stacks=stacks,
                  session=session, layout=data.draw(st.sampled_from(["fcpa", "default"])))


@settings(max_examples=60, deadline=None)
@given(_games(), st.integers(2, 10), st.integers(0, 2**32), st.booleans(), st.data())
def test_finished_hands_of_random_games_replay_from_phh(game: Game, players: int, seed: int,
                                                        session: bool,
                                                        data: st.DataObject) -> None:
    """Every finished hand, whatever the rules (R17's fold when checking is free and R27's
    cap lifted heads-up included), exports as PHH and replays to the same stacks."""
    if game.straddle and players < 3:
        return
    stacks = data.draw(st.lists(st.integers(1, 40 * game.big_blind), min_size=players,
                                max_size=players))
    try:
        env = VectorGame(game, num_tables=4, players=players, stacks=stacks, seed=seed,
                         session=session)
    except InvalidConfigError as exc:
        assert "too short" in str(exc)
        return
    env.reset()
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(40):
        cols = (rng.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1)
        _, _, done = env.step(cols)
        for t in np.flatnonzero(done):
            last = env.last_hand(int(t))
            assert last is not None
            r = holdem.replay(holdem.HandHistory.loads(holdem.from_state(last).dumps()))
            assert r.ok, (game, r.mismatches)
            assert r.state.result.final_stacks == tuple(
                last.result.final_stacks[(last.button + 1 + k) % players]
                for k in range(players))
            checked += 1
    assert checked > 0


@pytest.mark.parametrize(("name", "players", "session"),
                         [("nl", 2, False), ("pl_straddle", 6, True), ("fl_rake_ante", 10, True),
                          ("nl_bb_ante", 3, True)])
def test_rows_rewritten_in_place_equal_a_fresh_encoding(name: str, players: int,
                                                        session: bool) -> None:
    """A step rewrites only the one-hot columns that changed (cards, street, position) and
    every other column; each row still equals ObservationSpec.encode of the table's hand at
    every step, across streets, hand ends and session refills. The rows are read-only views
    of the engine's buffer."""
    env = VectorGame(GAMES[name], num_tables=3, players=players, stacks=40, seed=11,
                     session=session)
    obs = env.reset()
    assert not obs.flags.writeable and not env.observation.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        obs[0, 0] = 1.0
    rng = np.random.default_rng(players)
    ends = 0
    for _ in range(150):
        for t in range(env.num_tables):
            want = np.asarray(env.observation_spec.encode(env.hand_state(t)), np.float32)
            assert np.array_equal(obs[t], want), (name, t)
        cols = (rng.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1)
        obs, _, done = env.step(cols)
        assert not obs.flags.writeable
        ends += int(done.sum())
    assert ends >= 10  # the rows crossed many hand boundaries


@pytest.mark.parametrize(("name", "players", "stacks"),
                         [("nl", 6, 200), ("nl_ante", 10, 30), ("pl_straddle", 4, 60),
                          ("fl_rake_ante", 3, 25), ("nl_odd", 2, 9)])
def test_rows_equal_a_fresh_encoding_through_every_kind_of_step(name: str, players: int,
                                                                 stacks: int) -> None:
    """Most steps rewrite a row from the last one (the seat blocks turned to the new actor,
    only the seat that acted computed again). Whatever the step (checked columns, exact
    sizes of any legal amount, unchecked masked columns played as check/call, halves on two
    threads with step_async), every row equals ObservationSpec.encode of its table's hand
    after every step, with short stacks for all-ins, side pots and hand ends."""
    env = VectorGame(GAMES[name], num_tables=8, players=players, stacks=stacks, seed=23,
                     session=True, num_threads=2)
    env.reset()
    rng = np.random.default_rng(players)
    size = env.action_layout.size
    for step in range(240):
        mode = step % 4
        if mode == 0:
            env.step((rng.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1))
        elif mode == 1:
            kinds, tos = [], []
            for t in range(env.num_tables):
                _, can_fold, _, _, can_raise, _, lo, hi = env.legal_actions(t)
                kind = int(rng.integers(0, 3))
                if (kind == 0 and not can_fold) or (kind == 2 and not can_raise):
                    kind = 1
                kinds.append(kind)
                tos.append(int(rng.integers(lo, hi + 1)) if kind == 2 else 0)
            env.step_exact(kinds, tos)
        elif mode == 2:  # any column, masked ones included
            env.step_unchecked(rng.integers(0, size, env.num_tables))
        else:
            half = env.num_tables // 2
            for part in (slice(0, half), slice(half, None)):
                m = env.legal_mask[part]
                env.step_async((rng.random(m.shape) * m).argmax(axis=1), part)
            env.step_wait()
        for t in range(env.num_tables):
            want = np.asarray(env.observation_spec.encode(env.hand_state(t)), np.float32)
            assert np.array_equal(env.observation[t], want), (name, step, t)
    assert env.hands_played().sum() >= 40  # the rows crossed many hand boundaries
    env.close()


def test_rewards_are_zero_on_tables_whose_hand_goes_on_also_after_a_reset() -> None:
    """A table's rewards row holds its hand's result only in the step that ended the hand:
    the next step that does not end one gives zeros, also when reset() came between."""
    env = VectorGame(Game(big_blind=2), num_tables=16, players=3, stacks=100, seed=4)
    env.reset()
    fold = env.action_layout.names.index("fold")
    call = env.action_layout.names.index("check_call")
    for after_reset in (False, True):
        while True:  # fold where offered (else check/call) until hands end
            _, rewards, done = env.step_unchecked(np.full(16, fold))
            if done.any():
                assert rewards[done.astype(bool)].any()
                break
        if after_reset:
            env.reset()
        _, rewards, done = env.step_unchecked(np.full(16, call))
        going_on = ~done.astype(bool)
        assert going_on.any()
        assert not rewards[going_on].any(), after_reset


@settings(max_examples=25, deadline=None)
@given(fractions=st.lists(st.one_of(
           st.fractions(min_value="1/997", max_value=100, max_denominator=997),
           # power-of-two denominators: the C step shifts instead of dividing
           st.builds(Fraction, st.integers(1, 100), st.sampled_from([1, 2, 4, 8, 64, 512]))),
           min_size=1, max_size=4, unique=True),
       stacks=st.one_of(st.lists(st.integers(3, 2**53), min_size=3, max_size=3),
                        st.lists(st.integers(3, 40), min_size=3, max_size=3)),
       seed=st.integers(0, 2**32), keep=st.sampled_from(["all_in", "first"]),
       all_in=st.booleans(),
       structure=st.sampled_from([Structure.NO_LIMIT, Structure.POT_LIMIT,
                                  Structure.FIXED_LIMIT]))
# pot limit (and fixed limit) below the stack: a fraction beyond the stack is clipped to the
# limit's maximum, not masked for the all-in column (keep="first" yields only to an all-in
# that is the maximum)
@example(fractions=[Fraction(10)], stacks=[40, 40, 40], seed=1, keep="first", all_in=True,
         structure=Structure.POT_LIMIT)
@example(fractions=[Fraction(100), Fraction(1, 2)], stacks=[40, 40, 40], seed=2, keep="first",
         all_in=True, structure=Structure.FIXED_LIMIT)
def test_raise_columns_equal_the_exact_arithmetic(fractions: list[Any], stacks: list[int],
                                                   seed: int, keep: str, all_in: bool,
                                                   structure: Structure) -> None:
    """The C step's pot-fraction amounts (shifts when the denominator is a power of two, a
    saturating product) equal ActionLayout.amounts' exact integers, for any fractions and stacks up to
    2**53 (R22, R25: clipped to the minimum raise, the limit's maximum and the stack, duplicates
    masked, the one kept as ``keep`` says; short stacks make many duplicates), in no-limit,
    pot-limit and fixed-limit games."""
    layout = ActionLayout(tuple(fractions), min_raise=True, all_in=all_in, keep=keep)
    env = VectorGame(Game(structure=structure, big_blind=2), num_tables=2, players=3,
                     stacks=stacks, seed=seed, actions=layout)
    env.reset()
    rng = np.random.default_rng(seed)
    for _ in range(12):
        for t in range(2):
            assert env.raise_amounts(t) == layout.amounts(env.hand_state(t))
        env.step((rng.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1))


def test_per_table_methods_take_a_table_index_and_name_the_range() -> None:
    """Every per-table method takes an int (numpy integers too) 0..N-1; anything else, bools
    included, raises InvalidTableError (a ValueError and an IndexError) naming the range."""
    env = VectorGame(Game(big_blind=2), num_tables=3, players=3, stacks=100, seed=1)
    with pytest.raises(IllegalActionError, match="reset"):
        env.history(0)
    env.reset()
    env.step([1, 1, 1])
    methods = ["history", "hand_state", "last_hand", "legal_actions", "raise_amounts",
               "table_state"]
    for name in methods:
        method = getattr(env, name)
        assert str(method(np.int32(2))) == str(method(2))  # numpy ints are indexes
        for bad, message in [(3, "table 3 is out of range 0..2"),
                             (-1, "table -1 is out of range 0..2"),
                             (2**64, "out of range 0..2"),
                             (np.uint64(2**64 - 1), "out of range 0..2"),
                             (True, "table must be an int 0..2, got True"),
                             (1.0, "got 1.0"), ("0", "got '0'"), (None, "got None"),
                             (np.array([1]), "got array([1])"), (np.bool_(True), "got ")]:
            with pytest.raises(holdem.InvalidTableError, match=re.escape(message)) as err:
                method(bad)
            assert isinstance(err.value, ValueError) and isinstance(err.value, IndexError)
    assert env.cards(np.int64(1), np.int32(4)) == env.cards(1, 4)
    for hand in (-1, 2**63, 1.5, True, "2", np.array([1]), None):
        with pytest.raises(holdem.InvalidTableError, match=r"hand must be an int 0\.\.2"):
            env.cards(0, hand)
    with pytest.raises(holdem.InvalidTableError, match="out of range"):
        env.cards(3, 0)


def test_results_before_reset_are_refused() -> None:
    """hands_played, total_payoffs and payoffs say "call reset() first", as the observation
    and the mask do (hands_played used to answer -1 per table)."""
    env = VectorGame(Game(big_blind=2), num_tables=2, players=2, stacks=100, seed=1)
    for read in (env.hands_played, env.total_payoffs, lambda: env.payoffs):
        with pytest.raises(IllegalActionError, match=r"call reset\(\) first"):
            read()
    env.reset()
    assert env.hands_played().tolist() == [0, 0]
    assert env.total_payoffs().tolist() == [[0, 0], [0, 0]]


def test_every_output_array_is_read_only() -> None:
    """The engine rewrites only what changed (a rewards row only after a paid hand), so a
    user's edit would outlive the step or garble an error message: every array a user gets
    is a read-only view; the engine's own writes still show through it."""
    env = VectorGame(Game(big_blind=2), num_tables=4, players=2, stacks=20, seed=3)
    obs = env.reset()
    outputs = {"observation": lambda: env.observation, "legal_mask": lambda: env.legal_mask,
               "current_player": lambda: env.current_player, "payoffs": lambda: env.payoffs}
    ended = 0
    for _ in range(40):
        # all in where it is legal, else check/call: hands end often
        obs, rewards, done = env.step_unchecked(np.full(4, env.action_layout.size - 1))
        ended += int(done.sum())
        for name, read in outputs.items():
            arr = read()
            assert not arr.flags.writeable, name
            with pytest.raises(ValueError, match="read-only"):
                arr.flat[0] = 1
        for arr in (obs, rewards, done):
            assert not arr.flags.writeable
            with pytest.raises(ValueError, match="read-only"):
                arr.flat[0] = 1
        # the views follow the engine: rewards this step's, payoffs the last hand's
        assert np.array_equal(rewards[done], env.payoffs[done] / 2)
        assert not rewards[~done].any()
    assert ended > 0 and np.any(env.total_payoffs() != 0)


@pytest.mark.parametrize("bad, message", [
    ({"players": 1}, "players must be 2..10, got 1"),
    ({"players": 11}, "players must be 2..10, got 11"),
    ({"players": 6.0}, "players must be 2..10, got 6.0"),
    ({"players": True}, "players must be 2..10, got True"),
    ({"players": "6"}, "players must be 2..10, got '6'"),
    ({"players": 6, "version": 2}, "version must be 1 (the only version), got 2"),
])
def test_observation_spec_refuses_what_it_cannot_encode(bad: dict[str, Any],
                                                        message: str) -> None:
    with pytest.raises(InvalidConfigError, match=re.escape(message)):
        ObservationSpec(**bad)
    assert ObservationSpec(np.int64(6)) == ObservationSpec(6)
    assert ObservationSpec(np.int64(6)).width == 269


@pytest.mark.parametrize("fractions, message", [
    (0.5, "fractions must be a sequence of pot fractions, e.g. (0.5, 1) or ('1/3',), got 0.5"),
    ("0.5", "fractions must be a sequence of pot fractions, e.g. (0.5, 1) or ('1/3',), "
            "got '0.5'"),
    ((1 / 3,), "got 0.3333333333333333 (a float such as 1/3 is not exact: write "
               "Fraction(1, 3) or the string '1/3')"),
    ((0.7071,), "(a float such as 1/3 is not exact: write Fraction(239, 338) or the string "
                 "'239/338')"),
    ((0,), "a pot fraction must be in (0, 100] with a denominator up to 1000, got 0"),
    # text whose exponent Fraction would expand first (it ran for minutes)
    (("1e-999999999",), "a pot fraction must be in (0, 100] with a denominator up to 1000, "
                        "got '1e-999999999'"),
    (("0e-999999999",), "a pot fraction must be in (0, 100] with a denominator up to 1000"),
    (("1e999999999",), "a pot fraction must be in (0, 100] with a denominator up to 1000"),
])
def test_action_layout_fractions_errors_say_what_to_write(fractions: Any,
                                                           message: str) -> None:
    with pytest.raises(InvalidConfigError, match=re.escape(message)):
        ActionLayout(fractions)
    assert ActionLayout(["1/3"]).fractions == ActionLayout((Fraction(1, 3),)).fractions
    assert ActionLayout(["5e-1", " 0.75 ", "1e2"]).fractions == (
        Fraction(1, 2), Fraction(3, 4), Fraction(100))


def test_actions_that_are_not_a_vector_are_named() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=3, players=3, stacks=100, seed=1)
    env.reset()
    before = [env.table_state(i) for i in range(3)]
    for bad in (None, "111"):
        for step in (env.step, env.step_unchecked):
            with pytest.raises(InvalidArrayError, match=re.escape(
                    f"actions must be a vector of 3 ints, got {bad!r}")):
                step(bad)
    with pytest.raises(IllegalActionError, match="kind 3 is not an action kind: kinds are 0 "
                       "fold, 1 check/call, 2 bet/raise; allowed: fold, call 2"):
        env.step_exact([1, 3, 1], [0, 0, 0])
    assert [env.table_state(i) for i in range(3)] == before
    env.step_async([], slice(2, 1))  # an empty slice takes an empty list
    env.step_async((), slice(3, None))
    assert [env.table_state(i) for i in range(3)] == before


def test_misaligned_int64_actions_are_copied_not_read_in_place() -> None:
    """An int64 buffer cut at an odd offset is C-contiguous but not aligned: the engine
    plays a copy of it (the batch's own entry points refuse it), with the same result."""
    import array

    def play(make: Any) -> list[Any]:
        env = VectorGame(Game(big_blind=2), num_tables=4, players=2, stacks=100, seed=1)
        env.reset()
        for k in range(12):
            cols = [1 + (k + i) % 2 for i in range(4)]  # check/call, then half pot
            env.step_unchecked(make(cols))
        return [env.table_state(i) for i in range(4)]

    def unaligned(cols: list[int]) -> Any:
        a = np.frombuffer(bytearray(8 * len(cols) + 1), dtype=np.int64, offset=1)
        a[:] = cols
        assert not a.flags.aligned and a.flags.c_contiguous
        return a

    def unaligned_view(cols: list[int]) -> Any:
        mv = memoryview(bytearray(8 * len(cols) + 1))[1:].cast("q")
        for i, c in enumerate(cols):
            mv[i] = c
        return mv

    want = play(lambda cols: np.array(cols, np.int64))
    assert play(unaligned) == want
    assert play(unaligned_view) == want
    assert play(lambda cols: array.array("q", cols)) == want
    env = VectorGame(Game(big_blind=2), num_tables=4, players=2, stacks=100, seed=1)
    env.reset()
    for call in (lambda: env._batch.check_columns(unaligned([1] * 4)),
                 lambda: env._batch.run(0, 4, unaligned([1] * 4)),
                 lambda: env._batch.check_exact(unaligned([1] * 4), np.zeros(4, np.int64))):
        with pytest.raises(InvalidArrayError, match="aligned int64"):
            call()
    env.step([1, 1, 1, 1])  # a refused call consumed nothing


def test_a_fixed_limit_cap_beyond_int32_plays_as_unbounded() -> None:
    """Game accepts any max_raises; the batched engine takes a cap beyond 2**30 raises as
    never reached (R27), as HandState does, instead of overflowing its int32 field."""
    game = Game(structure=Structure.FIXED_LIMIT, big_blind=2, max_raises=2**31 - 1)
    env = VectorGame(game, num_tables=2, players=2, stacks=100, seed=0)
    env.reset()
    raises = 0
    for _ in range(40):  # the last legal column: a raise while one is legal
        la = [_legal_tuple(env.hand_state(i).legal_actions()) for i in range(2)]
        assert [env.legal_actions(i) for i in range(2)] == la
        assert all(type(env.legal_actions(i)) is holdem.LegalActions for i in range(2))
        cols = [int(np.flatnonzero(row)[-1]) for row in env.legal_mask]
        raises += sum(c >= 2 for c in cols)
        env.step(cols)
    assert raises >= 40


def test_a_batch_is_initialised_once() -> None:
    """Calling the batch's __init__ again would keep outputs bound for the old size."""
    from holdem.vector import _rules

    env = VectorGame(Game(big_blind=2), num_tables=2, players=2, stacks=100, seed=1)
    env.reset()
    with pytest.raises(InvalidConfigError, match="initialised once"):
        env._batch.__init__(_rules(env.game), 64, 2, (100, 100), 1, False,
                            list(env.action_layout._codes), list(env.action_layout._priority))
    env.reset()
    env.step([1, 1])


@pytest.mark.parametrize("threads", [1, 2])
def test_held_tables_do_not_move_and_go_on_as_if_the_step_had_not_been(threads: int) -> None:
    """step_async(hold=...): a held table keeps its hand, rows, mask and actor; its done is
    False and its rewards 0 (also right after a step that paid it). The others step as in a
    batch without holds, and a held table, once released, plays on as a table that never
    saw the held steps' actions."""
    game, n, steps, held_for = GAMES["nl_ante"], 40, 30, 6
    held = np.zeros(n, dtype=bool)
    held[::3] = True
    a = VectorGame(game, num_tables=n, players=3, stacks=30, seed=9, num_threads=threads)
    c = VectorGame(game, num_tables=n, players=3, stacks=30, seed=9)  # no holds
    d = VectorGame(game, num_tables=n, players=3, stacks=30, seed=9)  # from the release on
    for env in (a, c, d):
        env.reset()
    rng = np.random.default_rng(9)
    for t in range(steps):
        cols = (rng.random(a.legal_mask.shape) * a.legal_mask).argmax(axis=1)
        hold = held if t < held_for else None
        before = [(a.table_state(i), a.observation[i].copy(), a.legal_mask[i].copy(),
                   int(a.current_player[i])) for i in range(n)]
        a.step_async(cols, checked=False, hold=hold)
        _, rewards, done = a.step_wait()
        c.step_unchecked(cols)
        if t >= held_for:
            d.step_unchecked(cols)
        for i in range(n):
            if hold is not None and hold[i]:
                assert (a.table_state(i), int(a.current_player[i])) == (before[i][0], before[i][3])
                assert np.array_equal(a.observation[i], before[i][1])
                assert np.array_equal(a.legal_mask[i], before[i][2])
                assert not done[i] and not rewards[i].any()
    for i in range(n):
        ref = d if held[i] else c
        assert a.table_state(i) == ref.table_state(i), i
        assert np.array_equal(a.observation[i], ref.observation[i])
    # a table paid in one step and held in the next has rewards 0 and done False
    e = VectorGame(game, num_tables=1, players=3, stacks=30, seed=9, num_threads=threads)
    e.reset()
    while not e.step_unchecked([len(e.action_layout.names) - 1])[2][0]:
        pass
    assert e.step_wait()[1][0].any()
    e.step_async([1], checked=False, hold=[True])
    _, rewards, done = e.step_wait()
    assert not done[0] and not rewards[0].any()


def test_hold_is_checked_before_any_table_moves() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=3, players=2, stacks=100, seed=1)
    env.reset()
    before = [env.table_state(i) for i in range(3)]
    for bad, message in [([True, False], r"hold must be 3 bools \(shape \(3,\), dtype bool\), "
                                         r"got dtype bool and shape \(2,\)"),
                         (np.array([1, 0, 1]), "got dtype int64 and shape"),
                         ("yes", "hold must be 3 bools"), (5, "hold must be 3 bools")]:
        with pytest.raises(InvalidArrayError, match=message):
            env.step_async([1, 1, 1], hold=bad)
    assert [env.table_state(i) for i in range(3)] == before
    env.step([1, 1, 1])


@pytest.mark.parametrize(("threads", "session"), [(1, False), (2, True)])
def test_final_observation_is_the_last_decisions_row(threads: int, session: bool) -> None:
    """With final_observation=True, a table whose hand ends in a step keeps the row of its
    last decision (the observation before that step) in final_observation; held tables and
    tables whose hand goes on leave their final row as it was."""
    n = 50
    env = VectorGame(GAMES["nl_bb_ante"], num_tables=n, players=4, stacks=40, seed=2,
                     session=session, num_threads=threads, final_observation=True)
    env.reset()
    assert not env.final_observation.any() and not env.final_observation.flags.writeable
    assert "final_observation=True" in repr(env)
    rng = np.random.default_rng(2)
    ended = 0
    for t in range(80):
        before, finals = env.observation.copy(), env.final_observation.copy()
        hold = rng.random(n) < 0.2 if t % 3 == 0 else None
        cols = (rng.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1)
        env.step_async(cols, hold=hold)
        _, _, done = env.step_wait()
        assert np.array_equal(env.final_observation[done], before[done])
        assert np.array_equal(env.final_observation[~done], finals[~done])
        ended += int(done.sum())
    assert ended > 100
    plain = VectorGame(GAMES["nl_bb_ante"], num_tables=n, players=4, stacks=40, seed=2)
    plain.reset()
    with pytest.raises(IllegalActionError, match="final_observation=True"):
        plain.final_observation  # noqa: B018 - the property raises
    assert env.memory_per_table() == plain.memory_per_table() + 4 * env.observation_spec.width
    with pytest.raises(InvalidConfigError, match="final_observation must be True or False"):
        VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=9, seed=0,
                   final_observation=1)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_observation_high_bounds_every_row_of_every_game(name: str) -> None:
    """observation_high (ObservationSpec.high) bounds every value the rows take, final rows
    included, with fresh stacks (short and uneven ones too, 2-10 players), and is finite;
    a session's chip columns are inf. The pot and a street's chips reach half the table's
    chips at least, so a bound halved would fail."""
    game = GAMES[name]
    rng = np.random.default_rng(11)
    for players in (2, 3, 6, 10):
        if game.straddle and players < 3:
            continue
        stacks = [int(x) for x in rng.integers(6, 60, players)] if players != 6 else 200
        env = VectorGame(game, num_tables=64, players=players, stacks=stacks, seed=players,
                         final_observation=True)
        high = np.array(env.observation_high, dtype=np.float32)
        assert high.shape == (env.observation_spec.width,) and np.isfinite(high).all()
        top = np.zeros_like(high)
        env.reset()
        for _ in range(150):
            m = env.legal_mask
            cols = (rng.random(m.shape) * (m * (1 + 5 * (np.arange(m.shape[1]) >= 2)))
                    ).argmax(axis=1)  # raise-heavy: more chips in, more raises
            env.step_unchecked(cols)
            for rows in (env.observation, env.final_observation):
                assert (rows >= 0).all() and (rows <= high).all(), name
                top = np.maximum(top, rows.max(axis=0))
        spec = env.observation_spec
        total = sum(stacks) if isinstance(stacks, list) else 200 * players
        if game.structure != Structure.FIXED_LIMIT or players != 6:  # (deep FL: small pots)
            assert top[spec.index("pot")] >= total / 2 / game.big_blind, (name, players)
        session = VectorGame(game, num_tables=1, players=players, stacks=stacks, seed=0,
                             session=True)
        shigh = session.observation_high
        for col in ("pot", "seat[0].stack", "river.raises", "preflop.added"):
            assert shigh[spec.index(col)] == float("inf")
        for col in ("hole[As]", "seat[1].folded", "players_in_hand", "seat[0].button_distance"):
            assert shigh[spec.index(col)] == high[spec.index(col)]


def test_observation_high_rounds_as_the_rows_and_refuses_bad_stacks() -> None:
    """The chip bound is the table's chips in big blinds rounded to float32 as the rows are
    (202/3 is not a float32); the
    straddle's level counts when the stacks are smaller; bad stacks are refused."""
    game = Game(big_blind=3, small_blind=1)
    spec = ObservationSpec(2)
    high = spec.high(game, [100, 102])
    k = spec.index("max_raise_to")
    assert high[k] == float(np.float32(202 * (1 / 3))) != 202 / 3
    state = game.new_hand([100, 102], button=0)
    state.apply(Action.raise_to(state.legal_actions().max_to))  # all in (100)
    row = np.array(spec.encode(state), dtype=np.float32)  # the other seat to call
    assert (row <= np.array(high, dtype=np.float32)).all() and row[spec.index("pot")] > 34
    assert ObservationSpec(3).high(Game(big_blind=4, straddle=True), 2)[
        ObservationSpec(3).index("current_bet")] == 2.0  # 8 chips of straddle, 6 in stacks
    for bad in (0, [1, 2, 3], [5, True], "100", -4, [2.5, 3]):
        with pytest.raises(InvalidConfigError,
                           match=r"stacks must be an int 1..2\*\*53 or 2 of them"):
            spec.high(game, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match=r"game must be a holdem\.Game"):
        spec.high("nl", 100)  # type: ignore[arg-type]
    assert spec.high(game, [np.int64(5), 7]) == spec.high(game, [5, 7])


def test_session_stacks_above_a_seats_limit_restart_every_seat_and_pay_once() -> None:
    """A session carries stacks over; a stack above 2**53 chips (a seat's limit) cannot start
    a hand. The engine used to ignore the refused start and pay the last hand again, 64
    times; now every seat restarts from its starting stack and the hand is paid once."""
    env = VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=2**53, seed=0,
                     session=True)
    env.reset()
    _, rewards, done = env.step([0])  # the small blind folds: the big blind wins 1 chip
    assert done.tolist() == [True]
    assert env.payoffs[0].tolist() == [-1, 1]
    assert rewards[0].tolist() == [-0.5, 0.5]
    assert env.hands_played().tolist() == [1]
    assert env.total_payoffs().tolist() == [[-1, 1]]
    state = env.table_state(0)
    assert [s + b for s, b in zip(state["stacks"], state["bets"], strict=True)] == [2**53] * 2
    # below the limit the stacks still carry over
    env = VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=2**53 - 2, seed=0,
                     session=True)
    env.reset()
    env.step([0])
    state = env.table_state(0)
    assert sorted(s + b for s, b in zip(state["stacks"], state["bets"], strict=True)) == [
        2**53 - 3, 2**53 - 1]


@pytest.mark.parametrize("session", [False, True])
def test_next_stacks_is_the_engines_session_rule(session: bool) -> None:
    batch = VectorGame(Game(big_blind=2), num_tables=1, players=3, stacks=[50, 60, 70], seed=0,
                       session=session)._batch
    fresh = (50, 60, 70)
    assert batch.next_stacks((10, 0, 170), 0) == ((10, 60, 170) if session else fresh)
    for skipped in (1, 63):  # fewer than 64 hands in a row dealt out: stacks still carry
        assert batch.next_stacks((10, 0, 170), skipped) == ((10, 60, 170) if session
                                                            else fresh)
    assert batch.next_stacks((10, 0, 170), 64) == fresh  # 64 hands nobody could act in
    assert batch.next_stacks((10, 2**53 + 1, 5), 0) == fresh  # above a seat's limit
    assert batch.next_stacks((1, 2**53, 5), 0) == ((1, 2**53, 5) if session else fresh)
    with pytest.raises(InvalidConfigError):
        batch.next_stacks((1, 2), 0)


def test_hands_dealt_out_in_a_session_carry_their_stacks() -> None:
    """In a session, hands that nobody can act in (here the short stack all in on its ante
    and blind, covered) are dealt out in the step that ended the hand before, their payoffs
    count in that step, and the stacks they leave carry over: the busted seat is refilled to
    its starting stack, the other keeps what it won (every seat restarts only after 64 such
    hands in a row)."""
    env = VectorGame(Game(big_blind=2, ante=1), num_tables=1, players=2, stacks=[3, 200],
                     session=True, seed=1)
    env.reset()
    _, rewards, done = env.step_exact([0], [0])  # hand 0: the button folds its small blind
    assert done.tolist() == [True] and env.hands_played().tolist() == [3]  # hands 1, 2 dealt out
    assert env.payoffs[0].tolist() == [-3, 3] and rewards[0].tolist() == [-1.5, 1.5]
    state = env.table_state(0)
    assert state["hand"] == 3 and state["starting_stacks"] == (3, 203)


def test_every_deal_start_deals_the_cards_handstate_deals_from_the_tables_seed() -> None:
    """Table i's hand h is dealt from ``child_seed(child_seed(seed, i), h)``: the cards a
    :class:`HandState` deals from that seed, in the game's deal order (R12: from the seat
    left of the button, or left of the big blind)."""
    for start in DealStart:
        game = Game(big_blind=2, deal_start=start)
        for i in range(3):
            env = VectorGame(game, num_tables=3, players=4, stacks=100, seed=7)
            env.reset()
            for h in range(5):
                if h:
                    while env.table_state(i)["hand"] < h:  # check/call to the next hand
                        env.step([1] * 3)
                ref = game.new_hand([100] * 4, button=h % 4,
                                    seed=holdem.child_seed(holdem.child_seed(7, i), h))
                state = env.table_state(i)
                assert state["hole"] == ref.hole_cards, (start, i, h)
                while not ref.is_terminal():  # the board it deals, to the river
                    ref.check_or_call()
                assert state["all_board"] == ref.board, (start, i, h)


def test_a_pot_fraction_past_int64_is_the_all_in() -> None:
    """A pot-fraction column raises to the current bet plus the fraction of the pot after the
    call, clipped to the minimum raise and the stack: when that sum passes what int64 holds
    (a 100x pot over 2**53-chip stacks) the column is the all-in, not the minimum raise."""
    big = 2**53
    env = VectorGame(Game(big_blind=2), num_tables=1, players=10, stacks=big, seed=3,
                     actions=ActionLayout(fractions=(100,), min_raise=False, all_in=False))
    env.reset()
    env.step_exact([2], [big // 2])
    while env.table_state(0)["street"] == 0:
        env.step_exact([1], [0])
    actor = env.table_state(0)["actor"]
    assert env.raise_amounts(0) == [None, None, env.table_state(0)["stacks"][actor]]


def test_the_amount_given_with_a_fold_or_call_is_ignored() -> None:
    """``step_exact`` ignores the amount of kinds 0 and 1: the history records a call as a
    call (amount 0) and the batch pickles and loads as before."""
    env = VectorGame(Game(big_blind=2), num_tables=1, players=3, stacks=100, seed=1)
    env.reset()
    env.step_exact([1], [50])
    env.step_exact([0], [77])
    assert env.history(0) == [(0, 0, 1, 0), (1, 0, 0, 0)]
    back = pickle.loads(pickle.dumps(env))
    assert back.history(0) == env.history(0)


def test_session_play_refuses_what_could_overflow_its_sums() -> None:
    """``play`` keeps the int64 sums of squared payoffs from overflowing; in a session a
    refilled seat adds up to the table's chips each hand, so the bound grows with the hands:
    200 hands of 2 x 2**20 chips fit with fresh stacks and not in a session."""
    fresh = VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=2**20, seed=1)
    fresh.play(200, [holdem.CallAgent(), holdem.CallAgent()])
    session = VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=2**20, seed=1,
                         session=True)
    with pytest.raises(InvalidConfigError, match="could overflow the int64 sums"):
        session.play(200, [holdem.CallAgent(), holdem.CallAgent()])
    session.play(20, [holdem.CallAgent(), holdem.CallAgent()])


def test_reset_zeroes_the_last_hands_outputs() -> None:
    """After reset() no hand has ended: the final rows, payoffs, rewards and done flags of
    the hands before it are zeros, as before the first reset."""
    env = VectorGame(Game(big_blind=2), num_tables=3, players=2, stacks=200, seed=0,
                     final_observation=True)
    env.reset()
    _, rewards, done = env.step([0, 0, 0])
    assert done.all() and env.final_observation.any(axis=1).all()
    assert env.payoffs.any(axis=1).all() and rewards.any(axis=1).all()
    env.reset()
    assert not env.final_observation.any()
    assert not env.payoffs.any()
    assert not rewards.any() and not done.any()  # the step's views of the engine's buffers
    assert env.last_hand(0) is None and env.hands_played().tolist() == [0, 0, 0]
    _, rewards, done = env.step([1, 1, 1])  # calls: no hand ends
    assert not done.any() and not rewards.any()


def test_spec_and_play_refuse_odd_arguments_with_the_library_errors() -> None:
    """Arguments that used to escape as OverflowError, TypeError or AttributeError."""
    spec = ObservationSpec(2)
    game = Game(big_blind=2)
    for stacks in (10**400, 2**53 + 1, [200, 2**60], {200: 1, 300: 2}, "200", 0, [1.5, 2]):
        with pytest.raises(InvalidConfigError, match=r"stacks must be an int 1\.\.2"):
            spec.high(game, stacks)  # type: ignore[arg-type]
    assert spec.high(game, np.array([100, 100])) == spec.high(game, 100)
    row = np.zeros(spec.width, dtype=np.float32)
    for bad in (np.inf, np.nan, -1.0, 2.0):
        row[spec.index("seat[1].button_distance")] = bad
        with pytest.raises(InvalidArrayError, match="not an observation row"):
            spec.reseat(row, 1, [0, 1])
    with pytest.raises(InvalidConfigError, match="hole must be two distinct card ids"):
        spec.reseat(row, 1, None)  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match=r"state must be a holdem\.HandState"):
        spec.encode(None)  # type: ignore[arg-type]
    from holdem.table.agents import CompiledPolicy
    env = VectorGame(game, num_tables=1, players=2, stacks=200, seed=1)
    with pytest.raises(InvalidConfigError, match="streams must be 2 ints"):
        env.play(1, [CompiledPolicy("call")] * 2, streams=5)  # type: ignore[arg-type]


def test_numpy_ints_are_ints_for_fractions_and_reseat() -> None:
    assert ActionLayout(fractions=(np.int64(2), np.int32(1))) == ActionLayout(fractions=(2, 1))
    spec = ObservationSpec(3)
    env = VectorGame(Game(big_blind=2), num_tables=1, players=3, stacks=200, seed=1)
    row = env.reset()[0]
    hole = [0, 1]
    assert np.array_equal(spec.reseat(row, np.int64(1), hole), spec.reseat(row, 1, hole))
    with pytest.raises(InvalidConfigError, match=r"shift must be 0\.\.2"):
        spec.reseat(row, np.int64(3), hole)


def test_numpy_floats_are_floats_for_fractions() -> None:
    # np.float32(0.5) was "not a number" while np.float64 (a float subclass) was taken
    for kind in (np.float16, np.float32, np.float64):
        assert ActionLayout(fractions=(kind(0.5), kind(2))) == ActionLayout(fractions=(0.5, 2))
    with pytest.raises(InvalidConfigError, match=r"Fraction\(1, 10\)"):  # as a float 0.1
        ActionLayout(fractions=(np.float32(0.1),))


def test_a_bool_among_the_actions_is_refused_with_or_without_numpy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # with numpy, [True, 1, 1] was played as column 1; without it, refused
    env = VectorGame(Game(big_blind=2), num_tables=3, players=3, stacks=100, seed=1)
    env.reset()
    before = env.table_state(0)
    for actions in ([True, 1, 1], (1, 1, np.bool_(False))):
        with pytest.raises(InvalidArrayError, match="actions must be integers, got"):
            env.step(actions)
    monkeypatch.setattr(vector, "_np", None)
    with pytest.raises(InvalidArrayError, match="actions must be integers, got True"):
        env.step([True, 1, 1])
    assert env.table_state(0) == before


def _snapshot(env: VectorGame, i: int) -> tuple[Any, ...]:
    """What abandon must leave alone on table i (and, unflagged, its hand and rows too)."""
    last = env.last_hand(i)
    return (last.raw_history() if last is not None else None,
            tuple(env.payoffs[i]), env.final_observation[i].tobytes())


@pytest.mark.parametrize(("name", "players", "session", "threads"),
                         [("nl", 6, False, 1), ("nl_ante", 3, True, 2),
                          ("fl_rake_ante", 4, True, 1), ("pl_straddle", 5, False, 2)])
def test_abandon_voids_the_flagged_hands_and_deals_their_next(name: str, players: int,
                                                              session: bool,
                                                              threads: int) -> None:
    """abandon(flags): on each flagged table the hand in play is void (every seat gets back
    the chips it began the hand with, nothing is paid, the hand counts in neither
    hands_played nor total_payoffs, last_hand/payoffs/final rows keep the last hand that
    ended), and the table's next hand number is dealt: its cards are cards(i, hand), its
    button hand % players, its rows a fresh encoding. The other tables do not move. The
    tables then play on exactly like HandState (rows checked every step), and the run is
    the same with one or two threads."""
    game, n = GAMES[name], 24
    runs = []
    for t in (1, threads):
        env = VectorGame(game, num_tables=n, players=players, stacks=40, seed=31,
                         session=session, num_threads=t, final_observation=True)
        env.reset()
        rng = np.random.default_rng(5)
        voided = 0
        for step in range(120):
            if step % 9 == 4:
                flags = rng.random(n) < 0.4
                before = [env.table_state(i) for i in range(n)]
                rows = env.observation.copy(), env.legal_mask.copy(), env.current_player.copy()
                kept = [_snapshot(env, i) for i in range(n)]
                played, totals = env.hands_played(), env.total_payoffs()
                obs = env.abandon(flags)
                assert obs is env.observation
                assert np.array_equal(env.hands_played(), played)
                assert np.array_equal(env.total_payoffs(), totals)
                for i in range(n):
                    assert _snapshot(env, i) == kept[i], (step, i)
                    now = env.table_state(i)
                    if not flags[i]:
                        assert now == before[i]
                        assert np.array_equal(env.observation[i], rows[0][i])
                        assert np.array_equal(env.legal_mask[i], rows[1][i])
                        assert env.current_player[i] == rows[2][i]
                        continue
                    voided += 1
                    assert now["hand"] == before[i]["hand"] + 1
                    assert now["button"] == now["hand"] % players
                    # session: the voided hand's starting stacks carry over, chips conserved
                    want = (list(before[i]["starting_stacks"]) if session
                            else [40] * players)
                    assert list(now["starting_stacks"]) == want
                    assert not env.history(i)
                    ref = _hand_state(game, env, i)  # also checks the cards: cards(i, hand)
                    assert env.hand_state(i) == ref
                    assert env.legal_actions(i) == _legal_tuple(ref.legal_actions())
                    assert env.current_player[i] == ref.actor
                    want_row = np.asarray(env.observation_spec.encode(ref), np.float32)
                    assert np.array_equal(env.observation[i], want_row)
                    assert np.array_equal(env.legal_mask[i], env.action_layout.mask(ref))
            env.step((rng.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1))
            for i in range(n):
                want_row = np.asarray(env.observation_spec.encode(env.hand_state(i)),
                                      np.float32)
                assert np.array_equal(env.observation[i], want_row), (step, i)
        assert voided >= 50
        runs.append(([env.table_state(i) for i in range(n)], env.total_payoffs().tolist(),
                     env.hands_played().tolist()))
        env.close()
    assert runs[0] == runs[1]


def test_abandon_refuses_bad_flags_and_an_unstarted_batch() -> None:
    """Flags are N bools (a numpy bool array or a list of bools); anything else, or a batch
    not reset yet, raises the library's errors and no table moves."""
    env = VectorGame(Game(big_blind=2), num_tables=4, players=2, stacks=50, seed=1)
    with pytest.raises(IllegalActionError, match="reset"):
        env.abandon([True] * 4)
    env.reset()
    before = [env.table_state(i) for i in range(4)]
    for bad in ([True] * 3, [1, 0, 0, 0], np.ones(4, dtype=np.int64), np.ones((4, 1), bool),
                "TTTT", None, 3):
        with pytest.raises(InvalidArrayError, match="flags must be 4 bools"):
            env.abandon(bad)
    assert [env.table_state(i) for i in range(4)] == before
    env.abandon(np.zeros(4, dtype=bool))  # nothing flagged: nothing moves
    assert [env.table_state(i) for i in range(4)] == before


@pytest.mark.parametrize("threads", [1, 2])
def test_abandon_moves_no_chips_when_the_next_hand_leaves_nobody_to_act(threads: int) -> None:
    """In a session of short stacks the hand after a voided one can leave nobody able to act
    (every seat all in from the forced bets): played out, it would move chips that no step's
    rewards or payoffs report. abandon voids such a hand too and deals on to the first hand
    somebody acts in: that hand starts from the stacks the voided hand began with, and
    hands_played, total_payoffs and payoffs do not move. The hands passed over are exactly
    those whose forced bets leave nobody to act at those stacks (their numbers are kept, so
    later hands keep their cards)."""
    # Three seats of 3 chips, blinds 2/4 and an ante of 2: as the stacks move, some hands leave
    # nobody able to act (every seat but one all in from the forced bets, and that one covers
    # them: R20). (Heads-up blinds alone no longer do at any stacks the engine takes: a seat
    # alone with chips acts only facing a bigger bet.)
    game, n, players = Game(big_blind=4, small_blind=2, ante=2), 64, 3
    env = VectorGame(game, num_tables=n, players=players, stacks=3, seed=3, session=True,
                     num_threads=threads)
    env.reset()
    rng = np.random.default_rng(1)
    passed = 0
    for _ in range(60):
        flags = rng.random(n) < 0.3
        before = [env.table_state(i) for i in range(n)]
        played, totals = env.hands_played(), env.total_payoffs()
        payoffs = np.array(env.payoffs)
        env.abandon(flags)
        assert np.array_equal(env.hands_played(), played)
        assert np.array_equal(env.total_payoffs(), totals)
        assert np.array_equal(env.payoffs, payoffs)
        for i in np.flatnonzero(flags):
            now, was = env.table_state(int(i)), before[i]
            stacks = list(was["starting_stacks"])
            assert list(now["starting_stacks"]) == stacks, i
            assert not env.history(int(i)) and env.hand_state(int(i)).actor is not None
            for hand in range(was["hand"] + 1, now["hand"]):
                assert game.new_hand(stacks, button=hand % players).actor is None, (i, hand)
                passed += 1
        env.step((rng.random(env.legal_mask.shape) * env.legal_mask).argmax(axis=1))
    assert passed >= 5
    env.close()


def test_street_added_leaves_out_the_action_that_ended_the_hand() -> None:
    """ObservationSpec.encode: ``s.added`` counts the chips of the actions that did not end
    the hand, so on a finished hand the last action's chips are not in its street's count."""
    spec = ObservationSpec(2)
    s = Game(big_blind=2).new_hand([200, 200], button=0, seed=1)
    s.call()  # the small blind completes: 1 chip
    s.check()
    for _ in range(2):  # flop, turn
        s.check()
        s.check()
    s.check()
    s.bet(10)
    s.call()  # the river call ends the hand: its 10 chips are left out
    assert s.is_terminal()
    for seat in (0, 1):
        row = spec.encode(s, seat)
        assert row[spec.index("preflop.added")] == 0.5  # 1 chip, in big blinds
        assert row[spec.index("flop.added")] == row[spec.index("turn.added")] == 0
        assert row[spec.index("river.raises")] == 1
        assert row[spec.index("river.added")] == 5  # the bet of 10 chips, not the call
    # a preflop all-in called: the call that ends the hand is left out too
    s = Game(big_blind=2).new_hand([100, 100], button=0, seed=2)
    s.raise_to(100)  # the small blind shoves: 99 chips
    s.call()  # the big blind calls all in: the hand runs out to the end
    assert s.is_terminal()
    row = spec.encode(s, 1)
    assert row[spec.index("preflop.raises")] == 1
    assert row[spec.index("preflop.added")] == 99 / 2
    assert all(row[spec.index(f"{st}.added")] == 0 for st in ("flop", "turn", "river"))


INT64 = st.integers(-(2**63), 2**63 - 1)


@given(st.lists(st.one_of(st.integers(-3, 12), INT64), max_size=40),
       st.one_of(st.integers(0, 10), st.integers(0, 2**63 - 1)))
@example([0, 1, 2], 3)
@example([0, 3], 3)
@example([-1, 0], 3)
@example([-(2**63)], 2**63 - 1)
@example([], 0)
def test_first_outside_is_the_first_column_not_in_the_action_space(cols: list[int],
                                                                    size: int) -> None:
    # the Gymnasium vector env's check of a batch of columns, done in one pass in C
    from holdem._vector import first_outside

    outside = [i for i, c in enumerate(cols) if not 0 <= c < size]
    assert first_outside(np.array(cols, dtype=np.int64), size) == (outside[0] if outside
                                                                  else -1)


def test_first_outside_refuses_a_negative_size_and_other_buffers() -> None:
    from holdem._vector import first_outside

    with pytest.raises(InvalidArrayError, match="size must be >= 0, got -1"):
        first_outside(np.zeros(3, dtype=np.int64), -1)
    for bad in (np.zeros(3, dtype=np.int32), np.zeros(6, dtype=np.int64)[::2],
                np.zeros((2, 2), dtype=np.int64)):
        with pytest.raises(ValueError):  # the buffer is refused before it is read
            first_outside(bad, 3)


@given(st.integers(0, 12), st.integers(1, 10), st.integers(0, 2**32 - 1),
       st.lists(st.one_of(st.integers(-2, 11), INT64), min_size=12, max_size=12))
def test_actor_rewards_is_the_payoff_of_the_seat_that_acted_where_its_hand_ended(
        n: int, players: int, seed: int, seats: list[int]) -> None:
    from holdem._vector import actor_rewards

    rng = np.random.default_rng(seed)
    rewards = rng.standard_normal((n, players)).astype(np.float32)
    actor = np.array(seats[:n], dtype=np.int64)
    done = rng.random(n) < 0.5
    out = np.full(n, np.nan)
    actor_rewards(rewards, actor, done.view(np.uint8), out)
    expect = [float(rewards[i, a]) if done[i] and 0 <= a < players else 0.0
              for i, a in enumerate(actor.tolist())]
    assert out.tolist() == expect


def test_actor_rewards_refuses_arrays_of_other_lengths() -> None:
    from holdem._vector import actor_rewards

    rewards = np.zeros((4, 3), dtype=np.float32)
    actor, done, out = np.zeros(4, dtype=np.int64), np.ones(4, dtype=np.uint8), np.zeros(4)
    for args in ((rewards, actor[:3], done, out), (rewards, actor, done[:3], out),
                 (rewards, actor, done, out[:3]), (rewards[:3], actor, done, out)):
        with pytest.raises(InvalidArrayError, match="must have as many rows"):
            actor_rewards(*args)
    with pytest.raises(ValueError):  # float64 rewards: refused before anything is read
        actor_rewards(rewards.astype(np.float64), actor, done, out)
    assert not out.any()


def _random_move(state: HandState, rng: Any) -> None:
    """Fold, a bet/raise to a uniform legal amount, or check/call, at random."""
    legal = state.legal_actions()
    choice = rng.integers(4)
    if choice == 0 and legal.can_fold:
        state.fold()
    elif choice == 1 and legal.can_raise:
        assert legal.min_to is not None and legal.max_to is not None
        state.bet_or_raise(int(rng.integers(legal.min_to, legal.max_to + 1)))
    else:
        state.check_or_call()


def test_the_compiled_encoder_with_extra_posts_and_dead_hands() -> None:
    """The compiled encoder (``vector._encode_into``) writes ``ObservationSpec.encode``'s row,
    street summary included, with extra posts (an entry big blind live, a missed small blind
    dead), a dead small blind, big blind antes, a straddle and dead hands."""
    from holdem import ExtraPost
    from holdem.vector import _encode_into

    rng = np.random.default_rng(11)
    checked = 0
    for game in (Game(big_blind=4), Game(big_blind=4, ante=4, ante_type=AnteType.BIG_BLIND),
                 Game(big_blind=2, straddle=True)):
        for players in (3, 5, 8):
            spec = ObservationSpec(players)
            for hand in range(12):
                stacks = [int(x) for x in rng.integers(10, 80, size=players)]
                button = hand % players
                extra = [ExtraPost((button + 3 + k) % players, live=int(rng.integers(1, 9)),
                                   dead=int(rng.integers(0, 3))) for k in range(hand % 3)]
                extra = [e for e in extra if players > 3 or e.seat != (button + 3) % players]
                try:
                    state = game.new_hand(stacks, button=button, seed=hand,
                                          dead_small_blind=hand % 4 == 1,
                                          extra_posts=extra,
                                          dead_hands=[(button + 1) % players] if hand % 5 == 2
                                          else [])
                except holdem.InvalidConfigError:
                    continue  # (a combination the rules refuse)
                while True:
                    for seat in range(players):
                        out = np.full(spec.width, np.nan, dtype=np.float32)
                        _encode_into(spec, state, seat, out)
                        want = np.asarray(spec.encode(state, seat), dtype=np.float32)
                        assert np.array_equal(out, want), (players, hand, seat)
                        checked += 1
                    if state.is_terminal():
                        break
                    _random_move(state, rng)
    assert checked > 1000


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_compiled_encoder_is_encode_at_every_node_for_every_seat(name: str) -> None:
    """``vector._encode_into`` (the OpenSpiel observer's: the compiled core's hand read in C)
    writes what ``ObservationSpec.encode`` gives, as float32,
    for every seat at every decision and at the end of random hands at 2-10 seats (short
    stacks: all-ins and side pots), partial hands whose board is dealt as it comes included;
    anything else is left to the Python encoder, and a bad seat or a short buffer refused."""
    from holdem.hand.game import ReferenceHandState
    from holdem.vector import _encode_into

    game = GAMES[name]
    rng = np.random.default_rng(len(name))
    checked = 0
    for players in range(2, 11):
        if game.straddle and players < 3:
            continue
        spec = ObservationSpec(players)
        for hand in range(6):
            stacks = [int(x) for x in rng.integers(6, 60, size=players)]
            deck = rng.permutation(52).tolist()
            hole = [deck[2 * s:2 * s + 2] for s in range(players)]
            board = deck[2 * players:2 * players + 5]
            partial = hand % 2 == 1  # the board given as it is dealt (OpenSpiel's hands)
            state = game.new_hand(stacks, button=hand % players, hole_cards=hole,
                                  board=[] if partial else board)
            given = 0 if partial else 5  # board cards handed to the state
            while True:
                for seat in range(players):
                    out = np.full(spec.width + 3, np.nan, dtype=np.float32)
                    _encode_into(spec, state, seat, out)
                    want = np.asarray(spec.encode(state, seat), dtype=np.float32)
                    assert np.array_equal(out[:spec.width], want), (name, players, seat)
                    assert np.isnan(out[spec.width:]).all()  # nothing past the row
                    checked += 1
                if state.is_terminal():
                    break
                try:
                    _random_move(state, rng)
                except holdem.InvalidHandError:  # the board is needed: deal it, then again
                    state.add_board(board[given:max(3, given + 1)])
                    given = max(3, given + 1)
    assert checked > 1000
    # what is not a started hand of the compiled core is left to the Python encoder
    from holdem import _vector

    out = np.zeros(ObservationSpec(2).width, dtype=np.float32)
    reference = ReferenceHandState._start(Game(big_blind=2), [50, 50], 0, 3, None, None)
    for other in (reference, HandState.__new__(HandState), object()):
        assert _vector.encode_state(other, 0, out) is False and not out.any()
    started = Game(big_blind=2).new_hand([50, 50], button=0, seed=3)
    for seat, width in ((2, out.size), (-1, out.size), (0, out.size - 1)):
        with pytest.raises(InvalidArrayError, match="out has fewer than"):
            _vector.encode_state(started, seat, out[:width])
    three = Game(big_blind=2).new_hand([50, 50, 50], button=0, seed=3)
    with pytest.raises(InvalidConfigError, match="the spec is for 2 players, the hand has 3"):
        _encode_into(ObservationSpec(2), three, 0, np.zeros(300, dtype=np.float32))
