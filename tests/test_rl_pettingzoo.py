"""holdem.rl.pettingzoo: the PettingZoo API checkers, and the RLCard rule bugs pinned (R-ids)."""

from __future__ import annotations

import doctest
from fractions import Fraction
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import pettingzoo  # noqa: E402
from badinput import stateless_round_trip  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402
from test_vector_clone import same_results  # noqa: E402

import holdem  # noqa: E402
from holdem import Game, IllegalActionError, InvalidConfigError, Structure, evaluate  # noqa: E402
from holdem.rl.pettingzoo import HoldemAECEnv, HoldemParallelEnv  # noqa: E402
from holdem.vector import ActionLayout, ObservationSpec, VectorGame  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


def col(env: HoldemAECEnv, name: str) -> int:
    return env.vector_game.action_layout.names.index(name)


def play(env: HoldemAECEnv, *names: str) -> None:
    for name in names:
        env.step(col(env, name))


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_aec_api_and_seed_tests(players: int) -> None:
    api_test(HoldemAECEnv(players=players), num_cycles=200)
    seed_test(lambda: HoldemAECEnv(players=players), num_cycles=200)


@pytest.mark.parametrize("game", [Game(big_blind=2, ante=1), Game(big_blind=2, straddle=True),
                                  Game(structure=Structure.POT_LIMIT, big_blind=2),
                                  Game(structure=Structure.FIXED_LIMIT, big_blind=2)])
def test_aec_api_test_in_every_structure_and_a_session(game: Game) -> None:
    api_test(HoldemAECEnv(game, players=4, stacks=60, hands=5, actions="fchpa"), num_cycles=200)


@pytest.mark.parametrize("players", [2, 6, 10])
def test_parallel_api_and_seed_tests(players: int) -> None:
    parallel_api_test(HoldemParallelEnv(players=players), num_cycles=200)
    parallel_seed_test(lambda: HoldemParallelEnv(players=players), num_cycles=200)


def test_registered_in_pettingzoo_registry() -> None:
    aec = pettingzoo.make("aec", "holdem/Holdem-v0", players=3, actions="fcpa")
    par = pettingzoo.make("parallel", "holdem/Holdem-v0", players=3)
    assert isinstance(aec, HoldemAECEnv) and isinstance(par, HoldemParallelEnv)
    assert aec.possible_agents == ["player_0", "player_1", "player_2"]


@pytest.mark.parametrize("cls", [HoldemAECEnv, HoldemParallelEnv])
def test_repr_is_the_call_that_makes_the_env(cls: type[Any]) -> None:
    # as VectorGame's repr: the arguments, pasted back, make the same env (it was the default
    # <... object at 0x...>); str() stays PettingZoo's, the metadata name
    env = cls(Game(big_blind=4, ante=1), players=3, stacks=[100, 200, 300],
              actions=ActionLayout(fractions=("1/3",)), hands=5, seed=3, illegal="check_call")
    namespace = {**vars(holdem), "ActionLayout": ActionLayout, "Fraction": Fraction,
                 cls.__name__: cls}
    again = eval(repr(env), namespace)
    assert type(again) is cls and repr(again) == repr(env)
    assert repr(env).startswith(f"{cls.__name__}(Game(structure=Structure.NO_LIMIT, big_blind=4, ")
    assert repr(env).endswith(", players=3, stacks=(100, 200, 300), actions=ActionLayout("
                              "fractions=(Fraction(1, 3),), fold=True, min_raise=True, "
                              "all_in=True, keep='all_in'), hands=5, seed=3, illegal='check_call', "
                              "render_mode=None)")
    assert str(env) == cls.metadata["name"]
    env.reset(seed=8)  # the seed it plays from now
    assert "seed=8," in repr(env)

def test_observation_is_the_vector_encoding_from_the_actor() -> None:
    env = HoldemAECEnv(Game(big_blind=2), players=3, stacks=100, seed=5)
    env.reset(seed=5)
    vg = VectorGame(Game(big_blind=2), num_tables=1, players=3, stacks=100, seed=5)
    ref = vg.reset()
    obs = env.observe(env.agent_selection)
    assert np.array_equal(obs["observation"], ref[0])
    assert np.array_equal(obs["action_mask"], vg.legal_mask[0].astype(np.int8))
    assert env.observation_space("player_0")["observation"].shape == (vg.observation_spec.width,)
    assert env.action_space("player_0").n == len(vg.action_layout.names)


def test_illegal_action_raises_and_leaves_the_state() -> None:
    env = HoldemAECEnv(players=2, actions="fcpa")
    env.reset(seed=1)
    play(env, "check_call")  # the small blind calls: the big blind may check
    before = env.vector_game.history(0)
    with pytest.raises(IllegalActionError, match="fold"):
        env.step(99)  # not a column: the message lists the legal ones
    for bad in (1.5, True, "1", 2**70):
        with pytest.raises(IllegalActionError, match="column index"):
            env.step(bad)  # type: ignore[arg-type]
    assert env.vector_game.history(0) == before
    with pytest.raises(InvalidConfigError):
        HoldemAECEnv(players=2, hands=0)


def test_an_action_may_be_a_numpy_integer_or_a_0d_integer_array() -> None:
    # a 0-d array was refused here while HoldemEnv (Gymnasium) took it
    for action in (np.int64(1), np.array(1), np.array(1, dtype=np.uint8)):
        env = HoldemAECEnv(players=2, actions="fcpa")
        env.reset(seed=1)
        env.step(action)  # type: ignore[arg-type]
        assert env.vector_game.history(0) == [(0, 0, 1, 0)]  # seat 0 preflop: call
    env = HoldemAECEnv(players=2, actions="fcpa")
    env.reset(seed=1)
    for bad in (np.array([1]), np.array(1.0)):
        with pytest.raises(IllegalActionError, match="column index"):
            env.step(bad)  # type: ignore[arg-type]


def test_parallel_step_refuses_actions_for_agents_not_in_the_game() -> None:
    # they were ignored, as the other agents' actions are (a misspelt name went unseen)
    env = HoldemParallelEnv(players=2, actions="fcpa")
    env.reset(seed=1)
    before = env.vector_game.history(0)
    with pytest.raises(IllegalActionError, match=r"agents not in this game: \['player_9'\]; "
                                                 "the agents are player_0, player_1"):
        env.step({"player_0": 1, "player_1": 1, "player_9": 0})
    assert env.vector_game.history(0) == before
    env.step({"player_0": 1, "player_1": 1})  # the other agent's action is ignored
    assert len(env.vector_game.history(0)) == len(before) + 1


def test_rewards_in_big_blinds() -> None:
    env = HoldemAECEnv(Game(big_blind=10, small_blind=5), players=2, stacks=1000)
    env.reset(seed=1)
    play(env, "fold")  # the button (small blind) folds: it loses 5 chips, half a big blind
    assert env.rewards == {"player_0": -0.5, "player_1": 0.5}
    assert all(env.terminations.values())


# ---------------------------------------------------------------- the RLCard rule bugs


def find_seed(players: int, ok: Any) -> int:
    """The first seed whose hand 0 cards satisfy ``ok(ranks)`` (ranks by seat, by evaluate)."""
    game = Game(big_blind=2)
    for seed in range(1, 5000):
        hole, board = VectorGame(game, num_tables=1, players=players, stacks=100,
                                 seed=seed).cards(0, 0)
        ranks = [evaluate(list(h) + list(board)) for h in hole]
        if ok(ranks):
            return seed
    raise AssertionError("no seed found")  # pragma: no cover


def test_rlcard_bug1_side_pot_goes_to_its_best_eligible_hand_R31() -> None:
    # A (seat 0) is all in for 10 with the best hand; B beats C; B and C each put in 50.
    seed = find_seed(3, lambda r: r[0] > max(r[1], r[2]) and r[1] != r[2])
    env = HoldemAECEnv(Game(big_blind=2), players=3, stacks=[10, 50, 50])
    env.reset(seed=seed)
    play(env, "all_in", "all_in", "check_call")
    hole, board = env.vector_game.cards(0, 0)
    b, c = (1, 2) if evaluate(list(hole[1]) + list(board)) > evaluate(
        list(hole[2]) + list(board)) else (2, 1)
    assert all(env.terminations.values())
    # chips: A +20, B +30, C -50 (RLCard pays +20, -10, -10); rewards in big blinds (2 chips)
    assert env.rewards["player_0"] == 10.0
    assert env.rewards[f"player_{b}"] == 15.0
    assert env.rewards[f"player_{c}"] == -25.0


def test_rlcard_bug2_min_raise_enforced_R23() -> None:
    # A 0.1-pot raise would be below the minimum raise: it clips to it, so the column is the
    # min-raise column's duplicate and is masked; the min raise is the last increment again.
    layout = ActionLayout(fractions=(0.1, 1), min_raise=True)
    env = HoldemAECEnv(Game(big_blind=2), players=2, stacks=200, actions=layout)
    env.reset(seed=1)
    play(env, "raise_pot")  # the small blind raises to 6 (an increment of 4)
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask[col(env, "raise_0.1_pot")] == 0 and mask[col(env, "min_raise")] == 1
    assert env.vector_game.raise_amounts(0)[col(env, "min_raise")] == 10
    with pytest.raises(IllegalActionError):
        env.step(col(env, "raise_0.1_pot"))
    play(env, "min_raise")
    assert env.vector_game.history(0)[-1] == (1, 0, 2, 10)


def test_rlcard_bug3_pot_raise_is_call_plus_pot_after_call_R25() -> None:
    env = HoldemAECEnv(Game(big_blind=2), players=2, stacks=200, actions="fcpa")
    env.reset(seed=1)
    play(env, "raise_pot")  # at 1/2 the small blind's pot raise goes to 2 + (2 + 2) = 6
    assert env.vector_game.history(0) == [(0, 0, 2, 6)]


def test_rlcard_bug4_heads_up_big_blind_acts_first_after_the_flop_R3() -> None:
    env = HoldemAECEnv(players=2)
    for seed in (1, 2):
        env.reset(seed=seed)
        assert env.agent_selection == "player_0"  # the button posts the small blind, acts first
        play(env, "check_call", "check_call")  # call, check: the flop
        assert env.vector_game.table_state(0)["street"] == 1
        assert env.agent_selection == "player_1"  # the big blind acts first from the flop on
        play(env, "check_call")
        assert env.agent_selection == "player_0"


def test_rlcard_bug5_button_rotates_across_resets_and_stacks_are_kept_R4() -> None:
    env = HoldemAECEnv(players=3, stacks=[300, 200, 100])
    buttons = []
    env.reset(seed=7)
    for _ in range(6):
        state = env.vector_game.table_state(0)
        buttons.append(state["button"])
        assert state["starting_stacks"] == (300, 200, 100)  # the stacks asked for, every hand
        env.reset()
    assert buttons == [0, 1, 2, 0, 1, 2]


def test_session_carries_stacks_over_R4() -> None:
    env = HoldemAECEnv(players=2, stacks=100, hands=3)
    env.reset(seed=3)
    play(env, "fold")  # hand 1: the button folds its small blind
    assert not any(env.terminations.values())
    state = env.vector_game.table_state(0)
    assert state["button"] == 1 and state["starting_stacks"] == (99, 101)
    play(env, "fold")
    play(env, "fold")
    assert all(env.terminations.values())
    assert env.vector_game.hands_played()[0] == 3


def test_rlcard_bug6_odd_chip_goes_left_of_the_button_R32() -> None:
    # The button and the big blind tie; the small blind folds: a 5-chip pot, the odd chip to
    # the first winner left of the button (the big blind), every time.
    for nth in range(3):
        found: list[int] = []

        def tie(r: list[int], found: list[int] = found, nth: int = nth) -> bool:
            if r[0] == r[2] and r[1] < r[0]:
                found.append(1)
            return len(found) > nth

        seed = find_seed(3, tie)
        env = HoldemAECEnv(Game(big_blind=2), players=3, stacks=100)
        env.reset(seed=seed)
        play(env, "check_call", "fold", "check_call")  # button calls, SB folds, BB checks
        for _ in range(6):  # checked down: the big blind, then the button, on each street
            play(env, "check_call")
        assert all(env.terminations.values())
        assert env.rewards == {"player_0": 0.0, "player_1": -0.5, "player_2": 0.5}


def test_rlcard_bug7_action_mask_zero_for_agents_not_acting() -> None:
    env = HoldemAECEnv(players=4, hands=3)
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in env.agent_iter(max_iter=500):
        obs, _, term, trunc, _ = env.last()
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        if term or trunc:
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        env.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 10


def test_module_docstring_examples() -> None:
    import importlib

    failed, tried = doctest.testmod(importlib.import_module("holdem.rl.pettingzoo"),
                                    optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried > 0 and failed == 0


# ---------------------------------------------------------------- every agent's view


def _encoded(state: Any, seat: int) -> Any:
    spec = ObservationSpec(state.num_players)
    return np.asarray(spec.encode(state, seat), dtype=np.float32)


def _actor_only_zeroed(row: Any, players: int) -> Any:
    """``row`` with the actor-only columns (to_call, min/max_raise_to) zero."""
    spec = ObservationSpec(players)
    out = row.copy()
    for name in ("to_call", "min_raise_to", "max_raise_to"):
        out[spec.index(name)] = 0.0
    return out


@pytest.mark.parametrize(("players", "hands"), [(2, 1), (3, 1), (6, 3)])
def test_observe_is_the_current_state_for_every_agent(players: int, hands: int) -> None:
    """observe(agent) is the encoding of the current HandState from that agent's seat, whether
    it acts or not (its own cards, never the actor's; mask all zeros when not acting); once
    the episode is over every agent sees the hand as it stood at its last decision."""
    env = HoldemAECEnv(Game(big_blind=2), players=players, stacks=60, hands=hands)
    rng = np.random.default_rng(players)
    checked = 0
    for seed in range(12):
        env.reset(seed=seed)
        before = None
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                assert before is not None
                state, last_actor = before
                seat = int(agent.split("_")[1])
                obs = env.observe(agent)
                want = _encoded(state, seat)
                if seat == last_actor:
                    want = _actor_only_zeroed(want, players)
                assert np.array_equal(obs["observation"], want)
                assert not obs["action_mask"].any()
                env.step(None)
                continue
            state = env.vector_game.hand_state(0)
            actor = env._core.actor
            for k, other in enumerate(env.possible_agents):
                obs = env.observe(other)
                assert np.array_equal(obs["observation"], _encoded(state, k))
                hole = np.flatnonzero(obs["observation"][:52]).tolist()
                assert hole == sorted(int(c) for c in state.hole_cards[k])  # its own cards
                assert obs["action_mask"].any() == (k == actor)
                checked += 1
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            before = (state, actor)
            env.step(int(legal[int(rng.integers(len(legal)))]))
    assert checked > 50


def test_observe_of_a_waiting_agent_follows_the_public_state() -> None:
    """The big blind's view changes when the button calls (before it acts itself)."""
    env = HoldemAECEnv(Game(big_blind=2), players=2, stacks=100, actions="fcpa")
    env.reset(seed=4)
    assert env.agent_selection == "player_0"  # the button acts first heads-up
    waiting = env.observe("player_1")["observation"]
    mine = env.observe("player_0")["observation"]
    assert not (waiting[:52] * mine[:52]).any()  # each sees its own hole cards
    play(env, "raise_pot")
    assert env.agent_selection == "player_1"
    play(env, "check_call")  # the flop: the big blind acts first, the button waits
    after = env.observe("player_0")
    spec = ObservationSpec(2)
    assert after["observation"][spec.index("pot")] > mine[spec.index("pot")]
    assert after["observation"][spec.index("street[flop]")] == 1.0
    assert np.array_equal(after["observation"][:52], mine[:52])
    assert not after["action_mask"].any()


def test_parallel_observations_are_every_agents_current_view() -> None:
    env = HoldemParallelEnv(Game(big_blind=2), players=3, stacks=60, actions="fchpa")
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    while env.agents:
        state = env.vector_game.hand_state(0)
        actor = state.actor
        for k, a in enumerate(env.possible_agents):
            assert np.array_equal(obs[a]["observation"], _encoded(state, k))
            assert obs[a]["action_mask"].any() == (k == actor)
        legal = np.flatnonzero(obs[f"player_{actor}"]["action_mask"])
        obs, _, term, _, _ = env.step({f"player_{actor}": int(rng.choice(legal))})
    assert all(term.values())
    assert not any(o["action_mask"].any() for o in obs.values())


def test_reseat_turns_a_row_as_encode_does() -> None:
    """ObservationSpec.reseat (lists and numpy rows) equals encode for the other seats, and
    for the actor (shift 0) encode with the actor's columns 0 (as a seat not to act)."""
    vg = VectorGame(Game(big_blind=2, ante=1), num_tables=1, players=4, stacks=40, seed=8)
    vg.reset()
    rng = np.random.default_rng(8)
    spec = vg.observation_spec
    for _ in range(60):
        state = vg.hand_state(0)
        actor = state.actor
        row = vg.observation[0]
        for shift in range(4):
            seat = (actor + shift) % 4
            want = spec.encode(state, seat)
            hole = state.hole_cards[seat]
            if not shift:  # the actor as a seat not to act sees it (the hand ended)
                want = _actor_only_zeroed(np.asarray(want, np.float32), 4).tolist()
            assert spec.reseat(row.tolist(), shift, hole) == want
            assert np.array_equal(spec.reseat(row, shift, hole), np.asarray(want, np.float32))
        with pytest.raises(InvalidConfigError, match="shift"):
            spec.reseat(row, 4, hole)
        vg.step([int(rng.choice(np.flatnonzero(vg.legal_mask[0])))])


def test_no_wrapper_needed_out_of_order_calls_are_refused() -> None:
    """What PettingZoo's OrderEnforcingWrapper and AssertOutOfBoundsWrapper check, the env
    refuses itself with a holdem error: use before reset(), actions outside the space, an
    action for a finished agent, a step after the episode."""
    env = HoldemAECEnv(players=2, actions="fcpa")
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(1)
    with pytest.raises(IllegalActionError, match="reset"):
        env.observe("player_0")
    env.reset(seed=1)
    with pytest.raises(InvalidConfigError, match="unknown agent"):
        env.observe("player_9")
    for bad in (-1, 4, None):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    play(env, "fold")
    assert all(env.terminations.values())
    with pytest.raises(IllegalActionError, match="only action is None"):
        env.step(1)
    env.step(None)
    env.step(None)
    assert env.agents == []
    with pytest.raises(IllegalActionError, match="episode is over"):
        env.step(None)
    par = HoldemParallelEnv(players=2)
    par.reset(seed=1)
    with pytest.raises(IllegalActionError, match="acting agent"):
        par.step({})


def test_reseat_refuses_what_is_not_an_observation_row() -> None:
    """Bad rows and hole cards raise holdem errors naming what was wrong (never IndexError)."""
    from holdem import InvalidArrayError

    vg = VectorGame(Game(big_blind=2), num_tables=1, players=3, stacks=200, seed=1)
    vg.reset()
    spec, row = vg.observation_spec, np.asarray(vg.observation[0])
    for bad in (row[:5], np.zeros((3, spec.width)), "abc",
                np.full(spec.width, 1e9, dtype=np.float32)):
        with pytest.raises(InvalidArrayError, match="row"):
            spec.reseat(bad, 1, (0, 1))
    for hole in ((99, 1), (1,), (3, 3), (True, 2), ("As", 2)):
        with pytest.raises(InvalidConfigError, match="hole"):
            spec.reseat(row, 1, hole)
    assert spec.reseat(row, 1, (np.int64(4), 5)).tolist() == spec.reseat(row, 1, (4, 5)).tolist()


# ---------------------------------------------------------------- hands dealt out in a step


def _random_session(env: Any, seed: int) -> tuple[list[Any], list[int]]:
    """Play one AEC episode with random legal actions; check at every decision that each
    waiting agent sees its own hole cards of the hand in play. Returns each step's rewards
    (a P-vector, or None) and the engine's hands_played after each step."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: list[Any] = []
    played: list[int] = []
    for _agent in env.agent_iter():
        obs, _, term, _, _ = env.last()
        if term:
            env.step(None)
            continue
        state = env.vector_game.hand_state(0)
        for k, other in enumerate(env.possible_agents):
            seen = np.flatnonzero(env.observe(other)["observation"][:52]).tolist()
            assert seen == sorted(int(c) for c in state.hole_cards[k]), (other, seen)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        rewards.append([env.rewards.get(a, 0.0) for a in env.possible_agents]
                       if env._rewarded else None)
        played.append(int(env.vector_game.hands_played()[0]))
    return rewards, played


def test_a_hand_dealt_out_in_the_same_step_counts_and_shows_the_right_cards() -> None:
    """Stacks of 3 chips at 1/2: a hand often starts with the short stack all in from its
    blind and nobody left to act; the engine deals it out in the step that ended the hand
    before it. It is a hand of the session (counted once), the waiting agents see the hole
    cards of the hand in play, and the episode ends after exactly ``hands`` hands."""
    hands = 40
    env = HoldemAECEnv(Game(big_blind=2), players=2, stacks=[3, 40], hands=hands,
                       actions="fcpa")
    doubles = over = 0
    for seed in range(12):
        rewards, played = _random_session(env, seed)
        steps_with_two = [i for i in range(1, len(played)) if played[i] - played[i - 1] >= 2]
        doubles += len(steps_with_two)
        # the episode ends at the first step where the engine has ended `hands` hands
        assert played[-1] >= hands and all(p < hands for p in played[:-1])
        over += played[-1] > hands
        total = np.sum([r for r in rewards if r is not None], axis=0)
        if played[-1] == hands:  # every hand of the engine is a hand of the episode
            want = env.vector_game.total_payoffs()[0] / 2
            assert np.allclose(total, want)
    assert doubles >= 5  # the case did happen


def test_the_rewards_of_a_step_that_ends_two_hands_add_both_payoffs() -> None:
    """The step's rewards are the payoff of the hand its action ended plus that of the hand
    dealt out after it (computed here from a HandState of that hand)."""
    game = Game(big_blind=2)
    env = HoldemAECEnv(game, players=2, stacks=[3, 40], hands=5000, actions="fcpa")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    checked = nonzero = 0
    while env.agents and checked < 10:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        before = int(env.vector_game.hands_played()[0])
        obs = env.observe(agent)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        after = int(env.vector_game.hands_played()[0])
        if after - before != 2:
            continue
        acted = env.vector_game.last_hand(0)
        first = acted.result_or_none()
        start = [s if s > 0 else 40 if k else 3 for k, s in enumerate(first.final_stacks)]
        hole, board = env.vector_game.cards(0, before + 1)
        dealt = game.new_hand(start, button=(before + 1) % 2, hole_cards=[list(h) for h in hole],
                              board=list(board))
        assert dealt.is_terminal()  # nobody could act
        want = (np.asarray(first.payoffs) + np.asarray(dealt.payoffs)) / 2
        got = [env.rewards[a] for a in env.possible_agents]
        assert np.allclose(got, want), (got, want)
        # the env's own replay of a step's hands (used when a session's last step ends
        # hands past the episode) agrees with the engine
        assert np.allclose(env._core._first_payoffs(2) / 2, got)
        checked += 1
        nonzero += bool(any(dealt.payoffs))
    assert checked == 10 and nonzero >= 1


def test_the_last_step_of_a_session_pays_only_the_sessions_hands() -> None:
    """When the step that ends the session's last hand also deals out the next one, that
    hand is past the episode: not counted, not paid."""
    found = 0
    for seed in range(40):
        env = HoldemAECEnv(Game(big_blind=2), players=2, stacks=[3, 40], hands=2,
                           actions="fcpa")
        rewards, played = _random_session(env, seed)
        if played[-1] <= 2:
            continue
        found += 1
        # hand 0 was paid in an earlier step; the last step pays the hand its action ended
        paid = [r for r in rewards if r is not None]
        last = env.vector_game.last_hand(0).result_or_none()
        assert np.allclose(paid[-1], np.asarray(last.payoffs) / 2)
        total = env.vector_game.total_payoffs()[0] / 2
        assert not np.allclose(np.sum(paid, axis=0), total) or not any(
            env.vector_game.payoffs[0])  # the engine counted the extra hand
    assert found >= 1


def test_parallel_session_counts_the_hands_dealt_out() -> None:
    hands = 40
    for seed in range(8):
        env = HoldemParallelEnv(Game(big_blind=2), players=2, stacks=[3, 40], hands=hands,
                                actions="fcpa")
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        played = []
        while env.agents:
            actor = next(a for a in env.agents if obs[a]["action_mask"].any())
            state = env.vector_game.hand_state(0)
            for k, a in enumerate(env.possible_agents):
                hole = np.flatnonzero(obs[a]["observation"][:52]).tolist()
                assert hole == sorted(int(c) for c in state.hole_cards[k])
            obs, _, _, _, _ = env.step(
                {actor: int(rng.choice(np.flatnonzero(obs[actor]["action_mask"])))})
            played.append(int(env.vector_game.hands_played()[0]))
        assert played[-1] >= hands and all(p < hands for p in played[:-1])


# ---------------------------------------------------------------- illegal=, the checkers

GAMES = {"NL": Game(big_blind=2), "PL": Game(structure=Structure.POT_LIMIT, big_blind=2),
         "FL": Game(structure=Structure.FIXED_LIMIT, big_blind=2)}
CONFIGS = [(name, players, actions, hands) for name in GAMES for players, actions, hands in
           ((2, "default", 3), (3, "fchpa", 4), (6, "fcpa", 2))]


def test_illegal_option_check_call_plays_check_call_for_a_masked_column() -> None:
    for cls in (HoldemAECEnv, HoldemParallelEnv):
        strict = cls(GAMES["FL"], players=2, actions="fcpa")
        lenient = cls(GAMES["FL"], players=2, actions="fcpa", illegal="check_call")
        strict.reset(seed=1)
        lenient.reset(seed=1)
        shove = col(strict, "all_in")  # masked in fixed limit (the one raise is raise_pot)
        assert not strict.vector_game.legal_mask[0, shove]
        act: Any = shove if cls is HoldemAECEnv else {"player_0": shove}
        with pytest.raises(IllegalActionError, match="all_in"):
            strict.step(act)
        assert strict.vector_game.history(0) == []  # nothing moved
        lenient.step(act)
        assert lenient.vector_game.history(0)[0][:3] == (0, 0, 1)  # the button calls
        size = lenient.vector_game.action_layout.size
        for value in (size, 99, -1):  # outside the action space: refused in either mode
            far: Any = value if cls is HoldemAECEnv else {"player_1": value}
            with pytest.raises(IllegalActionError, match=rf"column index .*0\.\.{size - 1}"):
                lenient.step(far)
            assert len(lenient.vector_game.history(0)) == 1  # nothing moved
        fold = col(lenient, "fold")  # masked (a check is free): the big blind checks
        lenient.step(fold if cls is HoldemAECEnv else {"player_1": fold})
        assert lenient.vector_game.history(0)[-1][:3] == (1, 0, 1)
        bad: Any = 1.5 if cls is HoldemAECEnv else {"player_1": 1.5}
        with pytest.raises(IllegalActionError, match="column index"):
            lenient.step(bad)  # not an int: refused whatever `illegal` says
    with pytest.raises(InvalidConfigError, match="illegal"):
        HoldemAECEnv(players=2, illegal="ignore")


@pytest.mark.parametrize(("structure", "players", "actions", "hands"), CONFIGS)
def test_pettingzoo_checkers_play_many_steps(structure: str, players: int, actions: str,
                                             hands: int) -> None:
    """api_test, parallel_api_test, seed_test on the AEC env and on the parallel env (through
    PettingZoo's parallel_to_aec, whose loop samples with the mask and plays on), and
    parallel_seed_test (its loop samples without the mask: illegal="check_call"), across
    structures and table sizes; each of them must have played more than one step."""
    from pettingzoo.utils.conversions import parallel_to_aec

    game = GAMES[structure]
    kw: dict[str, Any] = dict(players=players, actions=actions, hands=hands, stacks=40)
    played: list[int] = []  # the actions each env played

    class AEC(HoldemAECEnv):
        def step(self, action: int | None) -> None:
            super().step(action)
            played[-1] += action is not None

    class Parallel(HoldemParallelEnv):
        def step(self, actions: dict[str, int]) -> Any:
            out = super().step(actions)
            played[-1] += 1
            return out

    def make(cls: Any, **extra: Any) -> Any:
        played.append(0)
        return cls(game, **kw, **extra)

    def most() -> int:
        most = max(played)
        played.clear()
        return most

    api_test(make(AEC), num_cycles=100)
    assert most() > 3
    seed_test(lambda: make(AEC), num_cycles=100)
    assert most() > 3
    parallel_api_test(make(Parallel), num_cycles=100)
    assert most() > 3
    seed_test(lambda: parallel_to_aec(make(Parallel)), num_cycles=100)
    assert most() > 3
    parallel_seed_test(lambda: make(Parallel, illegal="check_call"), num_cycles=100)
    assert most() >= 1  # its loop stops after one step (it tests any() of a dict)


def test_parallel_seed_test_needs_the_lenient_mode_in_fixed_limit() -> None:
    """The default (illegal="raise") refuses the unmasked samples of parallel_seed_test as
    soon as one is masked: the reason the checker runs with illegal="check_call"."""
    with pytest.raises(IllegalActionError, match="not legal"):
        parallel_seed_test(lambda: HoldemParallelEnv(GAMES["FL"], players=2), num_cycles=10)


@pytest.mark.parametrize("parallel", [False, True])
def test_render_test_and_the_text_shown(parallel: bool, capsys: Any) -> None:
    from pettingzoo.test import render_test
    from pettingzoo.utils.conversions import parallel_to_aec

    def make(render_mode: str | None = None) -> Any:
        if parallel:
            return parallel_to_aec(HoldemParallelEnv(players=3, hands=3,
                                                     render_mode=render_mode))
        return HoldemAECEnv(players=3, hands=3, render_mode=render_mode)

    render_test(make)
    env = HoldemAECEnv(players=3, hands=2, render_mode="ansi")
    assert env.render() == "no hand yet: call reset()"
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str)
    state = env.vector_game.hand_state(0)
    for k in range(3):  # a spectator's view: every seat's cards
        assert " ".join(str(c) for c in state.hole_cards[k]) in text
    assert "to act" in text and "hand 1 of 2" in text and "pot 3" in text
    human = HoldemAECEnv(players=3, hands=2, render_mode="human")
    human.reset(seed=2)
    capsys.readouterr()  # what render_test printed
    assert human.render() is None
    assert capsys.readouterr().out == text + "\n"
    with pytest.raises(InvalidConfigError, match="render_mode"):
        HoldemAECEnv(players=2, render_mode="rgb_array")


def test_a_hand_of_more_than_64_actions_renders_and_pays_without_its_history() -> None:
    """A min-raise war with deep stacks makes a hand of more than 64 actions, whose history
    the engine does not keep: rendering it says so instead of raising, and the episode's
    rewards are still the hand's payoffs."""
    env = HoldemAECEnv(Game(big_blind=2), players=2, stacks=100_000, render_mode="ansi")
    env.reset(seed=3)
    min_raise = ActionLayout().names.index("min_raise")
    actions, texts, paid = 0, [], {}
    for agent in env.agent_iter():
        obs, reward, term, _, _ = env.last()
        if term:
            paid[agent] = reward
            env.step(None)
            continue
        if actions == 70:
            texts.append(str(env.render()))
        mask = obs["action_mask"]
        env.step(min_raise if mask[min_raise] and actions < 80 else 1)
        actions += 1
    texts.append(str(env.render()))
    assert actions > 64
    assert all("more than 64 actions" in t for t in texts), texts
    assert sorted(paid) == ["player_0", "player_1"]
    assert sum(paid.values()) == 0 and paid["player_0"] != 0


def test_the_aec_env_does_not_claim_to_be_parallelizable() -> None:
    """The metadata said ``is_parallelizable``, so PettingZoo's ``aec_to_parallel`` took the
    AEC env, whose first parallel step then failed: seats act in the betting order (the
    first to act preflop, folded seats skipped), not in one cycle of every agent. PettingZoo
    refuses the conversion up front now, as for its own poker envs; the parallel API is
    :class:`HoldemParallelEnv`."""
    from pettingzoo.utils.conversions import aec_to_parallel

    for players in (2, 3, 6):
        env = HoldemAECEnv(players=players)
        assert env.metadata["is_parallelizable"] is False
        with pytest.raises(AssertionError, match="is_parallelizable"):
            aec_to_parallel(env)


def test_a_parallel_env_is_freed_once_unreferenced() -> None:
    """``observation_space``/``action_space`` of the parallel env were cached per
    ``(self, agent)`` in a cache shared by the class, which kept every env asked for a space
    (and its engine) alive for good."""
    import gc
    import weakref

    for cls in (HoldemParallelEnv, HoldemAECEnv):
        env = cls(players=3)
        space = env.observation_space("player_0")
        assert env.observation_space("player_1") is space  # one object, as the API test asks
        assert env.action_space("player_0") is env.action_space("player_2")
        ref = weakref.ref(env)
        del env
        gc.collect()
        assert ref() is None, cls.__name__


@pytest.mark.parametrize("cls", [HoldemAECEnv, HoldemParallelEnv])
def test_the_observation_space_is_typed_as_the_dict_it_is(cls: type[Any]) -> None:
    # env.observation_space(agent)["observation"] (the README) type-checks: the annotation
    # says Dict, not the Space it narrows
    import typing

    from gymnasium import spaces

    env = cls(Game(big_blind=2), players=2)
    assert isinstance(env.observation_space("player_0"), spaces.Dict)
    assert typing.get_type_hints(cls.observation_space)["return"] is spaces.Dict


def test_last_is_typed_with_an_observation_unless_observe_is_false() -> None:
    # obs["action_mask"] after env.last() (the README's loop) type-checks: only
    # last(observe=False) may return None for the observation
    import typing

    overloads = typing.get_overloads(HoldemAECEnv.last)
    assert len(overloads) == 2
    hints = typing.get_type_hints(overloads[0])
    assert hints["observe"] == typing.Literal[True]
    assert typing.get_origin(typing.get_args(hints["return"])[0]) is dict  # not "| None"
    env = HoldemAECEnv(Game(big_blind=2), players=2)
    env.reset(seed=1)
    assert set(env.last()[0] or ()) == {"observation", "action_mask"}
    assert env.last(observe=False)[0] is None


def _copier(how: str) -> Any:
    import copy
    import pickle

    return copy.deepcopy if how == "deepcopy" else (lambda e: pickle.loads(pickle.dumps(e)))


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
@pytest.mark.parametrize("hands", [1, 3])
def test_an_aec_env_copied_mid_hand_plays_on_as_the_original(how: str, hands: int) -> None:
    """A pickled or deep-copied env (the engine with it) is bound to its own copy: the same
    actions give the same observations, rewards and flags, across hands and resets."""
    env = HoldemAECEnv(players=3, hands=hands)
    env.reset(seed=4)
    rng = np.random.default_rng(4)

    def act(e: HoldemAECEnv) -> int:
        mask = e.observe(e.agent_selection)["action_mask"]
        return int((rng.random(mask.shape) * mask).argmax())

    for _ in range(3):
        env.step(act(env))
    other = _copier(how)(env)
    episodes = 0
    for _ in range(80):
        assert other.agent_selection == env.agent_selection
        assert same_results(env.last(), other.last())
        assert same_results({a: env.observe(a) for a in env.agents},
                     {a: other.observe(a) for a in other.agents})
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            env.step(None)
            other.step(None)
            if not env.agents:
                episodes += 1
                env.reset()
                other.reset()
            continue
        action = act(env)
        env.step(action)
        other.step(action)
    assert episodes > 0


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_parallel_env_copied_mid_hand_plays_on_as_the_original(how: str) -> None:
    env = HoldemParallelEnv(players=4, hands=2)
    obs, _ = env.reset(seed=6)
    rng = np.random.default_rng(6)
    obs = env.step({a: int(np.argmax(o["action_mask"])) for a, o in obs.items()})[0]
    other = _copier(how)(env)
    episodes = 0
    for _ in range(60):
        if not env.agents:
            episodes += 1
            first = env.reset()
            assert same_results(first, other.reset())
            obs = first[0]
            continue
        actions = {a: int((rng.random(o["action_mask"].shape) * o["action_mask"]).argmax())
                   for a, o in obs.items()}
        mine = env.step(actions)
        assert same_results(mine, other.step(actions))
        obs = mine[0]
    assert episodes > 0



def test_a_session_whose_last_hand_has_more_than_64_actions_pays_only_its_hands() -> None:
    """Found by a review: the last hand of a 2-hand session is a min-raise war of more than
    64 actions (its history is not kept) that leaves the loser 1 chip, so the step that ends
    it also deals out hand 2 (the 1-chip seat all in from its blind, R9). The episode pays
    hands 0 and 1 only (it paid hand 2 as well: the engine's sum of the step)."""
    env = HoldemAECEnv(Game(big_blind=1, small_blind=1), players=2, stacks=1001, hands=2,
                       seed=5)
    env.reset(seed=holdem.child_seed(5, 1))  # the deal where it happens
    vg = env.vector_game
    names = vg.action_layout.names
    min_raise, call, fold = (names.index(x) for x in ("min_raise", "check_call", "fold"))
    total = dict.fromkeys(env.possible_agents, 0.0)
    actions = 0
    for agent in env.agent_iter():
        obs, reward, term, _, _ = env.last()
        total[agent] += reward
        if term:
            env.step(None)
            continue
        if vg.hands_played()[0] == 0:  # hand 0: folded or checked down
            env.step(fold if obs["action_mask"][fold] else call)
            continue
        table = vg.table_state(0)  # hand 1: raise until one chip short of the smaller stack
        cap = min(s + b for s, b in zip(table["stacks"], table["bets"], strict=True)) - 1
        env.step(min_raise if obs["action_mask"][min_raise]
                 and vg.raise_amounts(0)[min_raise] <= cap else call)
        actions += 1
    assert actions > 64 and int(vg.hands_played()[0]) == 3  # hand 2 dealt out in the step
    # hands 0 and 1 leave the stacks 2001 and 1 (no rake): each seat's start was 1001
    assert sorted(total.values()) == [-1000.0, 1000.0], total


@pytest.mark.parametrize("players", [2, 3])
def test_reset_after_a_hand_cut_short_shows_every_agent_the_new_hands_cards(
        players: int) -> None:
    """hands=1: reset() in the middle of a hand plays it out and deals the next one; every
    agent's observation (the actor's and the others') then holds its own hole cards of the
    NEW hand, never those of the hand cut short."""
    env = HoldemAECEnv(players=players, seed=3)
    env.reset()
    vg = env.vector_game
    env.step(col(env, "check_call"))  # the hand goes on
    assert env.agent_selection in env.agents and not any(env.terminations.values())
    cut = int(vg.hands_played()[0])
    old = vg.hand_state(0).hole_cards
    env.reset()  # cut short: played out, the next hand dealt
    assert int(vg.hands_played()[0]) == cut + 1
    state = vg.hand_state(0)
    for agent in env.agents:
        seat = int(agent.split("_")[1])
        seen = np.flatnonzero(env.observe(agent)["observation"][:52]).tolist()
        assert seen == sorted(int(c) for c in state.hole_cards[seat]), (agent, seen)
        assert sorted(int(c) for c in old[seat]) != seen


def _session_rewards(env: Any) -> list[Any]:
    """Play ``env``'s episode to its end by check/call; every step's rewards."""
    out = []
    if isinstance(env, HoldemAECEnv):
        for agent in env.agent_iter():
            _, reward, term, trunc, _ = env.last()
            out.append((agent, reward))
            env.step(None if term or trunc else 1)
    else:
        while env.agents:
            out.append(env.step({a: 1 for a in env.agents})[1])
    return out


@pytest.mark.parametrize("env_class", [HoldemAECEnv, HoldemParallelEnv])
@pytest.mark.parametrize("reset", ["next session", "seed"])
def test_a_session_env_pickles_after_a_reset_to_a_new_engine(env_class: Any,
                                                             reset: str) -> None:
    """reset() of a session (or reset(seed=)) makes a new engine, at hand 0, but kept the
    last decision's hand number of the old one: the pickle of the env, and copy.deepcopy,
    were refused ("last_hand_no must be an int 0..0, got 1"), so a run could not be
    checkpointed at an episode boundary. The copies play on as the original does."""
    import copy
    import pickle

    env = env_class(Game(big_blind=2), players=2, hands=2, seed=3)
    env.reset(seed=1)
    _session_rewards(env)
    env.reset(seed=None if reset == "next session" else 7)
    twins = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    expected = _session_rewards(env)
    assert len(expected) >= 2
    for twin in twins:
        assert _session_rewards(twin) == expected


def test_the_first_reset_of_a_session_env_plays_its_seed_s_session() -> None:
    """hands > 1: the first reset() skipped the session of the env's seed (it dealt
    child_seed(seed, 1)'s), unlike reset(seed=seed) and unlike hands=1, whose first reset()
    plays the env's engine. Both now deal the same cards."""
    plain = HoldemAECEnv(Game(big_blind=2), players=3, hands=3, seed=5)
    plain.reset()
    seeded = HoldemAECEnv(Game(big_blind=2), players=3, hands=3, seed=99)
    seeded.reset(seed=5)
    assert plain.vector_game.cards(0, 0) == seeded.vector_game.cards(0, 0)
    _session_rewards(plain)
    plain.reset()  # the next session: the seed's first child
    other = HoldemAECEnv(Game(big_blind=2), players=3, hands=3, seed=0)
    other.reset(seed=holdem.child_seed(5, 1))
    assert plain.vector_game.cards(0, 0) == other.vector_game.cards(0, 0)


def _reloaded(env: Any, **fields: Any) -> Any:
    """``env`` pickled with ``fields`` of its ``__dict__`` changed (as in an edited pickle),
    then loaded."""
    import pickle

    copy = pickle.loads(pickle.dumps(env))
    copy.__dict__.update(fields)
    return pickle.loads(pickle.dumps(copy))


def test_an_env_pickle_is_checked_against_its_table() -> None:
    """The AEC and parallel envs restored their own fields unchecked (only their table's
    were): a pickle with ``possible_agents`` cut short failed at the next step with
    IndexError, one with an agent missing from ``terminations`` with KeyError. Each field is
    checked at load against the table; the spaces are made again from it. A true pickle
    after the episode, agents gone, plays on."""
    from holdem import InvalidStateError

    aec = HoldemAECEnv(Game(big_blind=2), players=3)
    aec.reset(seed=2)
    aec.step(1)
    par = HoldemParallelEnv(Game(big_blind=2), players=3)
    par.reset(seed=2)
    terms = {"player_0": False, "player_1": False}
    for env, fields, why in [
            (aec, {"possible_agents": ["player_0"]}, "possible_agents .* are not its table's"),
            (par, {"possible_agents": ["player_0"]}, "possible_agents .* are not its table's"),
            (aec, {"terminations": terms}, "terminations must be False for every agent"),
            (aec, {"truncations": dict.fromkeys(aec.agents, True)}, "truncations must be"),
            (aec, {"agents": ["player_0", "player_1"]}, "agents .* are not those in play"),
            (par, {"agents": []}, "agents .* are not those in play"),
            (aec, {"agent_selection": "player_0"}, "agent_selection 'player_0' is not"),
            (aec, {"rewards": None}, "rewards must hold a float per agent"),
            (aec, {"infos": {}}, "infos must hold a dict per agent"),
            (aec, {"_rewarded": 0}, "_rewarded must be a bool"),
            (aec, {"_core": None}, "not an env's state"),
            (par, {"render_mode": 5}, "render_mode must be None"),
            (aec, {"extra": 1}, "its fields are not the env's")]:
        with pytest.raises(InvalidStateError,
                           match=f"not a valid pickled {type(env).__name__}: {why}"):
            _reloaded(env, **fields)
    twin = _reloaded(par, _obs_space=None, observation_spaces={})
    assert twin.observation_space("player_1") is twin.observation_spaces["player_1"]
    actions = dict.fromkeys(par.agents, 1)
    assert same_results(par.step(actions), twin.step(actions))
    while not aec.terminations[aec.agent_selection]:
        aec.step(1)
    aec.step(None)  # one agent leaves
    twin = _reloaded(aec)
    assert twin.agents == aec.agents and len(aec.agents) == 2
    while aec.agents:
        assert same_results(aec.last(), twin.last())
        aec.step(None)
        twin.step(None)
    assert not twin.agents


def test_a_table_pickle_is_checked_against_its_engine() -> None:
    """The table under the envs (``_Core``): a state without ``vg`` raised KeyError;
    ``holes=()`` marked as the current hand's was taken and observe() raised IndexError (and
    another hand's cards there were shown); an ``actor`` in range but not the engine's seat
    to act made the wrong agent play; a ``hand`` number not the engine's showed the cards of
    another hand. Each is refused."""
    import pickle

    from holdem import InvalidStateError

    env = HoldemAECEnv(Game(big_blind=2), players=3, hands=3)
    env.reset(seed=2)
    while env._core.hand == 0:  # the first hand ends: hand 1 is in play
        env.step(0 if env.last()[0]["action_mask"][0] else 1)
    core = env._core
    other = (core.actor + 1) % 3
    env.observe(f"player_{other}")  # (fills the cache of hole cards)
    good = pickle.loads(pickle.dumps(core.__getstate__()))
    assert good["holes_of"] == good["hand"] == 1 and good["holes"]
    for fields, why in [
            ({"vg": None}, "its engine is not the one"),
            ({"holes": ()}, "holes are not the cards of hand 1"),
            ({"holes": tuple(reversed(good["holes"]))}, "holes are not the cards of hand 1"),
            ({"actor": other}, f"actor {other} is not its engine's seat to act"),
            ({"hand": 0}, "hand 0 is not its engine's hand number \\(1\\)")]:
        with pytest.raises(InvalidStateError, match=f"not a valid pickled PettingZoo env: {why}"):
            type(core).__new__(type(core)).__setstate__({**good, **fields})
    with pytest.raises(InvalidStateError, match="its fields are not the env's"):
        type(core).__new__(type(core)).__setstate__(
            {k: v for k, v in good.items() if k != "vg"})


@pytest.mark.parametrize("drop", ["env", "table"])
def test_an_env_never_loads_without_its_state(drop: str) -> None:
    """A pickle of an env (or of its table) written without its state (``__setstate__``
    never called) gave an object with no fields, failing at its first use with
    AttributeError. Their pickles carry the state as an argument now, and no state at all
    raises InvalidStateError at load."""
    from holdem import InvalidStateError

    aec = HoldemAECEnv(Game(big_blind=2), players=3)
    aec.reset(seed=3)
    par = HoldemParallelEnv(Game(big_blind=2), players=3)
    par.reset(seed=3)
    for env in (aec, par):
        twin = stateless_round_trip(env, type(env) if drop == "env" else type(env._core))
        if env is aec:
            aec.step(1)
            twin.step(1)
            assert same_results(aec.last(), twin.last())
        else:
            actions = dict.fromkeys(par.agents, 1)
            assert same_results(par.step(actions), twin.step(actions))
    from holdem.rl import restore

    for cls in (HoldemAECEnv, HoldemParallelEnv, type(aec._core)):
        with pytest.raises(InvalidStateError, match="not a valid pickled"):
            restore(cls, None)
