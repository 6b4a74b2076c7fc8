"""holdem.rl.gymnasium: the vector env over VectorGame and the single-table env (check_env)."""

from __future__ import annotations

import doctest
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from badinput import stateless_round_trip  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from test_history import random_action  # noqa: E402
from test_vector_clone import same_results  # noqa: E402

from holdem import Game, IllegalActionError, InvalidConfigError, Structure  # noqa: E402
from holdem.rl.gymnasium import HoldemEnv, HoldemVectorEnv, RandomPolicy  # noqa: E402
from holdem.vector import ActionLayout, ObservationSpec, VectorGame, sample_legal  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_single_env_passes_check_env(players: int) -> None:
    check_env(HoldemEnv(players=players))
    check_env(HoldemEnv(players=players, seat=players - 1, render_mode="ansi"))


def test_single_env_passes_check_env_in_fixed_limit() -> None:
    game = Game(structure=Structure.FIXED_LIMIT, big_blind=2)
    check_env(HoldemEnv(game, players=4, actions="fchpa", opponents=RandomPolicy(3)))


def test_single_env_opponents_are_policies_and_rewards_add_up() -> None:
    calls: list[int] = []

    def caller(obs: np.ndarray, mask: np.ndarray) -> int:
        assert obs.shape == (VectorGame(Game(big_blind=2), num_tables=1, players=3,
                                        stacks=200, seed=0).observation_spec.width,)
        calls.append(1)
        return 1  # always check/call

    env = HoldemEnv(players=3, opponents=[caller, RandomPolicy(1)], seat=1, seed=4)
    _, info = env.reset(seed=4)
    total = 0.0
    hands = 0
    while hands < 200:
        assert env.vector_game.current_player[0] == 1 and info["action_mask"].any()
        action = int(np.flatnonzero(info["action_mask"])[-1])  # the biggest legal column
        _, reward, terminated, _, info = env.step(action)
        total += reward
        if terminated:
            hands += 1
            _, info = env.reset()
            total += info["skipped_reward"]
    assert calls
    learner = float(env.vector_game.total_payoffs()[0, 1]) / 2  # chips to big blinds
    # every hand counted once: the payoffs the engine recorded for the learner's seat
    assert total == pytest.approx(learner)


@pytest.mark.parametrize("call", ["step", "reset"])
def test_a_policy_may_not_step_or_reset_its_own_env(call: str) -> None:
    """An opponent's policy that calls ``step`` or ``reset`` of the env asking it: the step
    was played for the opponent's seat (a reset dealt the next hand and gave it the policy's
    answer). Refused; a policy that goes on after the refusal leaves the hands as a policy
    that never called gives them."""
    seen: list[str] = []

    def meddler(obs: np.ndarray, mask: np.ndarray) -> int:
        try:
            env.step(1) if call == "step" else env.reset()
        except IllegalActionError as exc:
            seen.append(str(exc))
        return 1

    def plain(obs: np.ndarray, mask: np.ndarray) -> int:
        return 1

    histories = []
    for policy in (meddler, plain):
        env = HoldemEnv(players=3, opponents=policy, seat=1, seed=4)
        env.reset(seed=4)
        for _ in range(40):
            if env.step(2)[2]:
                env.reset()
        histories.append([env.vector_game.history(0), env.vector_game.total_payoffs().tolist()])
    assert histories[0] == histories[1]
    assert seen and set(seen) == {
        f"{call}() was called from inside an opponent's policy, while the env asks it for its "
        f"action: a policy returns a column and may not step or reset the env it plays in"}

    def breaks(obs: np.ndarray, mask: np.ndarray) -> int:
        env.step(1)
        return 1

    env = HoldemEnv(players=3, opponents=breaks, seat=1, seed=4)
    with pytest.raises(IllegalActionError, match="called from inside an opponent's policy"):
        env.reset(seed=4)
    with pytest.raises(IllegalActionError, match="an opponent's policy failed"):
        env.step(1)


def test_single_env_illegal_action_modes() -> None:
    env = HoldemEnv(players=2, actions="fcpa", illegal="raise")
    env.reset(seed=1)  # heads-up: seat 0 has the button and acts first
    with pytest.raises(IllegalActionError, match="not a column"):
        env.step(99)
    assert env.vector_game.history(0) == []  # nothing moved
    lenient = HoldemEnv(players=2, actions="fcpa", opponents=lambda obs, mask: 0)
    lenient.reset(seed=1)
    for far in (4, 99, -1, np.int64(4)):  # outside the action space: refused in either mode
        with pytest.raises(IllegalActionError, match=r"not a column index .*0\.\.3"):
            lenient.step(far)
    assert lenient.vector_game.history(0) == []  # nothing moved
    lenient.step(1)  # call; the opponent's fold (a check is free) checks
    assert [(seat, street, kind) for seat, street, kind, _ in lenient.vector_game.history(0)] \
        == [(0, 0, 1), (1, 0, 1), (1, 1, 1)]  # call, check; on the flop the big blind checks
    with pytest.raises(InvalidConfigError):
        HoldemEnv(players=2, illegal="ignore")
    with pytest.raises(InvalidConfigError):
        HoldemEnv(players=2, seat=2)


def test_vector_env_declares_autoreset_and_single_spaces() -> None:
    envs = HoldemVectorEnv(Game(big_blind=2), num_envs=32, players=6, stacks=200)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=1)
    width = envs.vector_game.observation_spec.width
    assert envs.single_observation_space.shape == (width,)
    assert envs.single_action_space.n == 6
    assert obs.shape == (32, width) and info["action_mask"].shape == (32, 6)
    assert info["action_mask"].dtype == bool


def test_vector_env_is_the_vector_game_same_seed() -> None:
    envs = HoldemVectorEnv(Game(big_blind=2), num_envs=16, players=4, stacks=100,
                           illegal="raise")
    ref = VectorGame(Game(big_blind=2), num_tables=16, players=4, stacks=100, seed=9)
    obs, info = envs.reset(seed=9)
    ref_obs = ref.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        assert np.array_equal(obs, ref_obs)
        assert np.array_equal(info["action_mask"], ref.legal_mask)
        actor = ref.current_player.copy()
        cols = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        obs, reward, terminated, truncated, info = envs.step(cols)
        ref_obs, ref_rew, done = ref.step(cols)
        assert np.array_equal(terminated, done) and not truncated.any()
        assert np.array_equal(info["rewards"], ref_rew)
        assert np.array_equal(info["actor"], actor)
        expect = np.where(done, ref_rew[np.arange(16), actor], 0.0)
        assert np.array_equal(reward, expect)
        ended += int(done.sum())
        assert envs.single_observation_space.contains(obs[0])
    assert ended > 100


def test_vector_env_illegal_actions() -> None:
    envs = HoldemVectorEnv(Game(big_blind=2), num_envs=4, players=2, illegal="raise")
    envs.reset(seed=1)
    with pytest.raises(IllegalActionError, match="table"):
        envs.step(np.full(4, 99))
    fold = envs.vector_game.action_layout.names.index("fold")
    lenient = HoldemVectorEnv(Game(big_blind=2), num_envs=4, players=2, stacks=60)
    lenient.reset(seed=1)
    size = lenient.single_action_space.n
    # outside the action space: refused whatever `illegal` says, naming the first such table
    for cols, table in (([0, 1, 99, -1], 2), ([-1, 0, 0, 0], 0), ([0, 0, 0, size], 3)):
        with pytest.raises(IllegalActionError,
                           match=rf"^table {table}: action {cols[table]} is not a column index"):
            lenient.step(np.array(cols))
    with pytest.raises(IllegalActionError, match="table 1"):
        lenient.step(np.array([0, 2**40, 0, 0], dtype=np.uint64))
    assert [len(lenient.vector_game.history(i)) for i in range(4)] == [0, 0, 0, 0]
    # a masked column (fold, facing no bet after the call) plays check/call
    lenient.step(np.ones(4, dtype=np.int64))  # the buttons call
    _, _, _, _, after = lenient.step(np.full(4, fold))  # the big blinds check
    assert [lenient.vector_game.history(i)[-1][:3] for i in range(4)] == [(1, 0, 1)] * 4
    assert after["current_player"].tolist() == [1, 1, 1, 1]  # the flop: the big blind first


def test_vector_env_lenient_mode_plays_check_call_for_any_bad_column() -> None:
    # every column of the action space drawn at random, legal or not: a masked column plays
    # check/call on its table, the others are played as given
    envs = HoldemVectorEnv(Game(big_blind=2), num_envs=32, players=3, stacks=60)
    ref = VectorGame(Game(big_blind=2), num_tables=32, players=3, stacks=60, seed=5)
    obs, info = envs.reset(seed=5)
    ref.reset()
    size = envs.single_action_space.n
    check_call = ref.action_layout.names.index("check_call")
    rng = np.random.default_rng(1)
    masked = 0
    for _ in range(200):
        cols = rng.integers(0, size, size=32)
        legal = ref.legal_mask[np.arange(32), cols]
        masked += int((~legal).sum())
        actor = ref.current_player.copy()
        obs, reward, terminated, _, info = envs.step(cols)
        ref_obs, ref_rew, done = ref.step(np.where(legal, cols, check_call))
        assert np.array_equal(obs, ref_obs) and np.array_equal(terminated, done)
        assert np.array_equal(reward, np.where(done, ref_rew[np.arange(32), actor], 0.0))
        assert np.array_equal(info["action_mask"], ref.legal_mask)
    assert masked > 1000


@pytest.mark.parametrize("copy", [True, False])
def test_vector_env_copy_option(copy: bool) -> None:
    envs = HoldemVectorEnv(Game(big_blind=2), num_envs=8, players=2, copy=copy)
    same = HoldemVectorEnv(Game(big_blind=2), num_envs=8, players=2)
    obs, info = envs.reset(seed=3)
    want, want_info = same.reset(seed=3)
    engine = envs.vector_game
    assert np.shares_memory(obs, engine.observation) is not copy
    assert np.shares_memory(info["action_mask"], engine.legal_mask) is not copy
    for _ in range(20):
        cols = (np.arange(8) % 2).astype(np.int64)
        kept = obs.copy()
        obs, _, terminated, _, info = envs.step(cols)
        want, _, want_done, _, want_info = same.step(cols)
        assert np.array_equal(obs, want) and np.array_equal(terminated, want_done)
        assert np.array_equal(info["action_mask"], want_info["action_mask"])
        assert np.shares_memory(obs, engine.observation) is not copy
    assert not np.array_equal(kept, obs)  # the tables moved on
    with pytest.raises(InvalidConfigError, match="copy"):
        HoldemVectorEnv(Game(big_blind=2), num_envs=2, copy="yes")  # type: ignore[arg-type]


def test_vector_env_step_async_is_step_in_two_halves() -> None:
    """step_async + step_wait (two threads) give what step gives; one pending at a time; an
    illegal action is refused by step_async and leaves nothing pending."""
    envs = HoldemVectorEnv(Game(big_blind=2), num_envs=300, players=6, num_threads=2,
                           illegal="raise")
    same = HoldemVectorEnv(Game(big_blind=2), num_envs=300, players=6)
    _, info = envs.reset(seed=4)
    same.reset(seed=4)
    rng = np.random.default_rng(4)
    for t in range(60):
        cols = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        envs.step_async(cols)
        if t == 0:
            # each call names itself (step named step_async, which it calls)
            for name, call in (("step_async", envs.step_async), ("step", envs.step),
                               ("reset", lambda _: envs.reset())):
                with pytest.raises(IllegalActionError,
                                   match=f"^{name}: a step_async is pending; call step_wait"):
                    call(cols)
        got = envs.step_wait()
        want = same.step(cols)
        info = got[4]
        for x, y in zip(got[:4], want[:4], strict=True):
            assert np.array_equal(x, y)
        assert got[4].keys() == want[4].keys()
        for k in got[4]:
            if k == "final_obs":  # one row or None per table
                assert all((a is None and b is None) or np.array_equal(a, b)
                           for a, b in zip(got[4][k], want[4][k], strict=True))
            elif k == "final_info":
                assert got[4][k] == want[4][k] == {}
            else:
                assert np.array_equal(got[4][k], want[4][k]), k
    with pytest.raises(IllegalActionError, match="no step_async"):
        envs.step_wait()
    with pytest.raises(IllegalActionError, match="table"):
        envs.step_async(np.full(300, 99))
    with pytest.raises(IllegalActionError, match="no step_async"):
        envs.step_wait()
    envs.close()


def test_module_docstring_examples() -> None:
    import importlib

    failed, tried = doctest.testmod(importlib.import_module("holdem.rl.gymnasium"),
                                    optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert tried > 0 and failed == 0


@pytest.mark.parametrize("bad", [[2**70] * 4, [1.7] * 4, None, "abc", [[1], [1, 2]], [1] * 3,
                                 np.ones((2, 3), dtype=np.int64),
                                 np.full(4, 2**64 - 1, dtype=np.uint64), object()])
def test_vector_env_refuses_bad_actions_with_a_holdem_error(bad: object) -> None:
    """Not ints, too large for int64, the wrong count: a HoldemError (a ValueError), no table
    moves and nothing is pending; a float is not truncated to a column."""
    from holdem import HoldemError

    envs = HoldemVectorEnv(Game(big_blind=2), num_envs=4, players=2, num_threads=2)
    envs.reset(seed=1)
    before = envs.vector_game.observation.copy()
    for call in (envs.step, envs.step_async):
        with pytest.raises(HoldemError):
            call(bad)
    assert np.array_equal(envs.vector_game.observation, before)
    envs.step(np.ones(4, dtype=np.int64))  # nothing was pending
    envs.close()


@pytest.mark.parametrize("shape", [(2, 4), (8, 1), (1, 8), (4, 2, 1)])
def test_vector_env_refuses_actions_of_another_shape(shape: tuple[int, ...]) -> None:
    """Only shape (N,) (the action space's): N values in another shape are refused."""
    from holdem import InvalidArrayError

    envs = HoldemVectorEnv(Game(big_blind=2), num_envs=8, players=2)
    envs.reset(seed=1)
    assert envs.action_space.shape == (8,)
    with pytest.raises(InvalidArrayError, match=r"shape \(8,\)"):
        envs.step(np.ones(shape, dtype=np.int64))
    assert envs.vector_game.history(0) == []
    envs.step(np.ones(8, dtype=np.int64))
    assert len(envs.vector_game.history(0)) == 1


# ---------------------------------------------------------------- HoldemEnv: episodes


def _learner_episodes(env: HoldemEnv, seed: int, episodes: int) -> list[Any]:
    """Play ``episodes`` episodes (random legal columns); return each terminal observation,
    its info and the finished hand (``last_hand``)."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    out = []
    while len(out) < episodes:
        col = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, _, terminated, _, info = env.step(col)
        if terminated:
            out.append((obs, info, env.vector_game.last_hand(0)))
            _, info = env.reset()
    return out


@pytest.mark.parametrize(("players", "seat"), [(2, 0), (2, 1), (3, 1), (6, 4)])
def test_terminal_observation_is_the_learners_view_of_the_finished_hand(players: int,
                                                                        seat: int) -> None:
    """Never another seat's hole cards: the finished hand encoded from the learner's seat,
    with an all-zero mask."""
    env = HoldemEnv(players=players, seat=seat, opponents=RandomPolicy(5))
    spec = env.vector_game.observation_spec
    for obs, info, hand in _learner_episodes(env, seed=players + seat, episodes=60):
        mine = sorted(int(c) for c in hand.hole_cards[seat])
        assert np.flatnonzero(obs[:52]).tolist() == mine
        assert np.array_equal(obs, np.asarray(spec.encode(hand, seat), dtype=np.float32))
        assert not info["action_mask"].any() and info["action_mask"].dtype == bool
        assert env.observation_space.contains(obs)


def test_step_after_the_episode_raises_until_reset() -> None:
    env = HoldemEnv(Game(big_blind=2), players=3, seat=0, opponents=RandomPolicy(seed=2))
    _, info = env.reset(seed=1)
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    history = env.vector_game.history(0)
    for _ in range(2):
        with pytest.raises(IllegalActionError, match=r"episode is over.*reset\(\)"):
            env.step(1)
    assert env.vector_game.history(0) == history  # nobody played the refused action
    _, info = env.reset()
    assert info["action_mask"].any()
    env.step(1)


@pytest.mark.parametrize("good", [1, np.int64(1), np.int32(1), np.uint8(1), np.array(1),
                                  np.array(1, dtype=np.uint16)])
def test_single_env_takes_int_actions(good: object) -> None:
    env = HoldemEnv(players=2, actions="fcpa", illegal="raise")
    env.reset(seed=1)
    env.step(good)
    assert env.vector_game.history(0)[0][:3] == (0, 0, 1)  # the button calls


@pytest.mark.parametrize("bad", [np.array([1]), None, 1.7, 1.0, np.float64(1.0), "1", True,
                                 np.bool_(True), np.array(1.0), [1], object()])
def test_single_env_refuses_what_is_not_a_column_index(bad: object) -> None:
    for illegal in ("check_call", "raise"):
        env = HoldemEnv(players=2, actions="fcpa", illegal=illegal)
        env.reset(seed=1)
        with pytest.raises(IllegalActionError, match=r"column index 0\.\.3 \(an int"):
            env.step(bad)
        assert env.vector_game.history(0) == []


def test_random_policy_draws_as_generator_choice() -> None:
    """RandomPolicy(seed) gives, mask after mask, the columns ``Generator.choice`` of the
    legal ones gives from the same seed (what it drew before it took the cheaper
    ``integers``): the same seed plays the same opponents as before, and every legal column
    comes up about equally often."""
    policy, ref = RandomPolicy(11), np.random.default_rng(11)
    masks = np.random.default_rng(0).random((3000, 6)) < 0.5
    masks[~masks.any(axis=1), 1] = True
    counts = np.zeros(6, dtype=np.int64)
    for mask in masks:
        col = policy(np.zeros(3, dtype=np.float32), mask)
        assert type(col) is int and mask[col]
        assert col == int(ref.choice(np.flatnonzero(mask)))
        if mask.all():
            counts[col] += 1
    assert counts.sum() > 30 and counts.min() > 0


def test_reset_with_a_seed_reseeds_the_opponents() -> None:
    """As documented: reset(seed=s) reseeds the k-th opponent with s + k, whatever seed it
    was made with, so two envs reset with the same seed play the same episodes."""
    def episodes(policy_seed: int) -> list[object]:
        env = HoldemEnv(players=3, seat=1, opponents=RandomPolicy(seed=policy_seed))
        return [(o.tolist(), i["action_mask"].tolist(), h.history)
                for o, i, h in _learner_episodes(env, seed=7, episodes=20)]

    assert episodes(2) == episodes(99)
    pols = [RandomPolicy(seed=2), RandomPolicy(seed=3)]
    env = HoldemEnv(players=3, seat=1, opponents=pols)
    env.reset(seed=10)
    assert [p.seed for p in pols] == [10, 11]
    env.reset()
    assert [p.seed for p in pols] == [10, 11]  # no seed: the policies go on


# ---------------------------------------------------------------- registration and render


def test_registered_with_gymnasium_and_make_passes_check_env() -> None:
    import gymnasium

    from holdem.rl.gymnasium import ENV_ID

    assert ENV_ID == "holdem/Holdem-v0" and ENV_ID in gymnasium.registry
    env = gymnasium.make(ENV_ID, players=3, seat=2, actions="fchpa")
    assert isinstance(env.unwrapped, HoldemEnv) and env.unwrapped.seat == 2
    check_env(env.unwrapped)
    check_env(env)
    shown = gymnasium.make(ENV_ID, render_mode="ansi")
    shown.reset(seed=1)
    assert isinstance(shown.render(), str)
    import importlib
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "overriding environment" warning
        importlib.reload(importlib.import_module("holdem.rl.gymnasium"))


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("mode", ["human", "ansi"])
def test_single_env_render_modes_pass_check_env(mode: str) -> None:
    check_env(HoldemEnv(players=3, render_mode=mode), skip_render_check=False)


def test_single_env_ansi_render_shows_the_learners_cards_only(capsys: pytest.CaptureFixture[str],
                                                              ) -> None:
    env = HoldemEnv(players=3, seat=1, render_mode="ansi", opponents=RandomPolicy(1))
    assert env.render() == "no hand yet: call reset()"
    _, info = env.reset(seed=3)
    state = env.vector_game.hand_state(0)
    text = env.render()
    assert isinstance(text, str)
    assert " ".join(str(c) for c in state.hole_cards[1]) in text
    for k in (0, 2):
        assert " ".join(str(c) for c in state.hole_cards[k]) not in text
    assert text.count("?? ??") == 2 and "to act" in text and f"pot {state.pot}" in text
    lines = text.splitlines()
    assert len(lines) == 4 and lines[2].startswith("seat 1") and "to act" in lines[2]
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    last = env.vector_game.last_hand(0)
    after = env.render()
    assert "hand over" in after and " ".join(str(c) for c in last.hole_cards[1]) in after
    human = HoldemEnv(players=3, seat=1, render_mode="human", opponents=RandomPolicy(1))
    human.reset(seed=3)
    assert human.render() is None
    assert capsys.readouterr().out == text + "\n"
    with pytest.raises(InvalidConfigError, match="render_mode"):
        HoldemEnv(players=2, render_mode="rgb_array")


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_vector_env_renders_every_table_with_every_seats_cards(
        mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``render_mode="ansi"``: one text per table, as ``SyncVectorEnv`` returns one frame per
    sub-env (the hand in play, every seat's cards: one policy plays them all); in next-step
    mode a table showing a finished hand shows that hand. Through ``make_vec`` too, and kept
    by a pickle; "human" prints the same texts."""
    import gymnasium

    import holdem.rl.gymnasium  # noqa: F401 - registers the ids

    envs = gymnasium.make_vec("holdem/SelfPlay-v0", num_envs=5, players=3, render_mode="ansi",
                              autoreset_mode=mode)
    assert type(envs).__name__ == "HoldemVectorEnv" and envs.render_mode == "ansi"
    assert envs.render() == ("no hand yet: call reset()",) * 5
    _, info = envs.reset(seed=7)
    rng = np.random.default_rng(7)
    terminated = np.zeros(5, dtype=bool)  # the last step's
    ended_seen = 0
    for _ in range(30):
        texts = envs.render()
        assert isinstance(texts, tuple) and len(texts) == 5
        for i, text in enumerate(texts):
            ended = mode == "next_step" and bool(terminated[i])  # showing its finished hand
            state = envs.vector_game.last_hand(i) if ended else envs.vector_game.hand_state(i)
            assert state is not None
            lines = text.splitlines()
            assert lines[0].startswith(f"table {i}: ") and len(lines) == 4
            assert ("hand over" in lines[0]) == ended and f"pot {state.pot}" in lines[0]
            for k in range(3):  # every seat's hole cards, in seat order
                assert lines[k + 1].startswith(f"seat {k} ")
                assert " ".join(str(c) for c in state.hole_cards[k]) in lines[k + 1]
            if not ended:
                assert "to act" in lines[info["current_player"][i] + 1]
            ended_seen += ended
        _, _, terminated, _, info = envs.step(sample_legal(info["action_mask"], rng))
    assert (ended_seen > 0) == (mode == "next_step")
    copy = pickle.loads(pickle.dumps(envs))
    assert copy.render_mode == "ansi" and copy.render() == envs.render()
    human = HoldemVectorEnv(num_envs=2, players=2, render_mode="human")
    assert human.render() is None
    assert capsys.readouterr().out == "no hand yet: call reset()\n\nno hand yet: call reset()\n"
    human.reset(seed=1)
    ansi = HoldemVectorEnv(num_envs=2, players=2, render_mode="ansi")
    ansi.reset(seed=1)
    assert human.render() is None
    assert capsys.readouterr().out == "\n\n".join(ansi.render() or ()) + "\n"
    assert HoldemVectorEnv(num_envs=2).render() is None  # no render mode: nothing
    for bad in ("rgb_array", "ANSI", 1, b"ansi"):
        with pytest.raises(InvalidConfigError, match="render_mode must be None, 'human' or"):
            HoldemVectorEnv(num_envs=2, render_mode=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match="render_mode"):
        gymnasium.make_vec("holdem/SelfPlay-v0", num_envs=2, render_mode="rgb_array")


def test_a_hand_of_more_than_64_actions_ends_with_the_learners_own_view() -> None:
    """The engine keeps no history of a hand with more than 64 actions (a min-raise war with
    deep stacks): the terminal observation is then the hand at its last decision turned to
    the learner's seat (its own cards; nothing of an opponent's), and rendering says why
    the hand cannot be shown instead of raising."""
    game = Game(big_blind=2)
    min_raise = ActionLayout().names.index("min_raise")

    def war(obs: np.ndarray, mask: np.ndarray) -> int:
        return min_raise if mask[min_raise] else 1

    env = HoldemEnv(game, players=2, seat=1, opponents=war, stacks=100_000, render_mode="ansi")
    obs, info = env.reset(seed=3)
    steps, done = 0, False
    while not done:
        obs, _, done, _, info = env.step(min_raise if info["action_mask"][min_raise] else 1)
        steps += 1
    assert steps > 32  # the learner's half of more than 64 actions
    with pytest.raises(IllegalActionError, match="more than 64 actions"):
        env.vector_game.last_hand(0)
    hole = env.vector_game.cards(0, 0)[0]
    assert sorted(np.flatnonzero(obs[:52]).tolist()) == sorted(hole[1])  # the learner's
    assert not info["action_mask"].any()
    assert obs[ObservationSpec(2).index("to_call")] == 0.0
    assert "more than 64 actions" in str(env.render())


def test_bad_seeds_and_players_raise_the_projects_errors() -> None:
    """A seed is an int 0..2**64-1 (numpy integers too) in the constructor and in reset; the
    rest raises InvalidConfigError (reset used to raise Gymnasium's own error type, and a
    string for players a TypeError)."""
    with pytest.raises(InvalidConfigError, match="players must be an int, got '1'"):
        HoldemEnv(players="1")  # type: ignore[arg-type]
    for bad in (-1, 2**64, 1.5, True, "1"):
        with pytest.raises(InvalidConfigError, match=r"seed must be an int in 0\.\.2\*\*64-1"):
            HoldemEnv(seed=bad)  # type: ignore[arg-type]
    env = HoldemEnv(Game(big_blind=2), players=3, seed=np.int64(4))  # type: ignore[arg-type]
    first = env.reset(seed=np.int64(7))[0]  # type: ignore[arg-type]
    assert np.array_equal(first, HoldemEnv(Game(big_blind=2), players=3).reset(seed=7)[0])
    for bad in (-1, 2**64, 1.5, True):
        with pytest.raises(InvalidConfigError, match=r"seed must be an int in 0\.\.2\*\*64-1"):
            env.reset(seed=bad)  # type: ignore[arg-type]
    env.step(1)  # the episode goes on after the refused resets


def _pick(i: int, k: int, mask: np.ndarray) -> int:
    """Table i's k-th decision: a uniform legal column drawn from (i, k) alone."""
    return int((np.random.default_rng([i, k]).random(mask.shape) * mask).argmax())


@pytest.mark.parametrize("session", [False, True])
def test_next_step_autoreset_shows_the_final_row_then_holds_the_table(session: bool) -> None:
    """autoreset_mode="next_step": the step that ends a hand returns terminated, the hand's
    reward and, as final observation, the row of the seat's last decision (mask: check/call
    only, current_player: that seat); the next step ignores that table's action and returns
    the new hand's first row with reward 0 (actor -1). Per table, the decisions (rows, masks, actions)
    and the rewards are those of the same-step env: only the extra step differs."""
    n, steps = 12, 160
    kw: dict[str, Any] = {"num_envs": n, "players": 3, "stacks": 30, "session": session}
    nxt = HoldemVectorEnv(Game(big_blind=2), autoreset_mode="next_step", **kw)
    same = HoldemVectorEnv(Game(big_blind=2), **kw)
    assert nxt.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert same.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    logs: dict[str, list[list[Any]]] = {"next": [[] for _ in range(n)],
                                        "same": [[] for _ in range(n)]}
    for name, env in (("next", nxt), ("same", same)):
        obs, info = env.reset(seed=5)
        count = [0] * n
        ending = np.zeros(n, dtype=bool)
        for _ in range(steps):
            cols = np.zeros(n, dtype=np.int64)
            for i in range(n):
                if not ending[i]:
                    cols[i] = _pick(i, count[i], info["action_mask"][i])
                    logs[name][i].append(("decide", obs[i].tobytes(), int(cols[i])))
                    count[i] += 1
                else:
                    cols[i] = 99 if i % 2 else 0  # ignored, whatever it is
            last_obs, actor = obs.copy(), info["current_player"].copy()
            obs, reward, terminated, truncated, info = env.step(cols)
            assert not truncated.any()
            if name == "same" and terminated.any():  # Gymnasium's final_obs: the last rows
                assert info["_final_obs"].tolist() == terminated.tolist()
                assert info["_final_info"].tolist() == terminated.tolist()
                for i in range(n):
                    final = info["final_obs"][i]
                    assert (final is None) != bool(terminated[i])
                    if final is not None:
                        assert np.array_equal(final, last_obs[i]) and final.dtype == np.float32
            elif name == "same":
                assert "final_obs" not in info and "_final_obs" not in info
            for i in range(n):
                if ending[i]:  # held: the new hand's first row, nothing paid, nobody acted
                    assert not terminated[i] and reward[i] == 0.0
                    assert info["actor"][i] == -1 and not info["rewards"][i].any()
                elif terminated[i]:
                    logs[name][i].append(("paid", float(reward[i])))
                    if name == "next":
                        assert np.array_equal(obs[i], last_obs[i])  # the final row
                        assert info["action_mask"][i].tolist() == [
                            c == "check_call" for c in env.vector_game.action_layout.names]
                        assert info["current_player"][i] == actor[i]
            ending = terminated.copy() if name == "next" else np.zeros(n, dtype=bool)
    hands = 0
    for i in range(n):
        a, b = logs["next"][i], logs["same"][i]
        k = min(len(a), len(b))
        assert k > 60 and a[:k] == b[:k], i
        hands += sum(e[0] == "paid" for e in a[:k])
    assert hands > 3 * n


def test_same_step_final_obs_has_the_shape_of_sync_vector_envs() -> None:
    """In SAME_STEP mode the final-observation keys are those Gymnasium's own SyncVectorEnv
    gives in that mode (checked on one: HoldemEnv tables): an object array of N entries,
    None where no episode ended, with bool masks; final_info a dict with its mask. The rows
    stay what they were after the next steps (copies, not the engine's reused buffer)."""
    from gymnasium.vector import SyncVectorEnv

    ref = SyncVectorEnv([lambda: HoldemEnv(Game(big_blind=2), players=2,
                                           opponents=RandomPolicy(1))] * 3,
                        autoreset_mode=AutoresetMode.SAME_STEP)
    ours = HoldemVectorEnv(Game(big_blind=2), num_envs=3, players=2, copy=False)
    finals: list[tuple[np.ndarray, np.ndarray]] = []
    for env in (ref, ours):
        _, info = env.reset(seed=2)
        for _ in range(500):
            cols = np.array([int(np.flatnonzero(m)[0]) for m in info["action_mask"]])
            _, _, terminated, _, info = env.step(cols)
            if terminated.any() and not terminated.all():
                break
        keys = {k for k in info if "final" in k}
        assert keys == {"final_obs", "_final_obs", "final_info", "_final_info"}, env
        assert info["final_obs"].dtype == object and info["final_obs"].shape == (3,)
        assert info["_final_obs"].dtype == bool and info["_final_obs"].tolist() == \
            terminated.tolist()
        assert isinstance(info["final_info"], dict)
        assert info["_final_info"].tolist() == terminated.tolist()
        assert [x is None for x in info["final_obs"]] == (~terminated).tolist()
        if env is ours:
            i = int(np.flatnonzero(terminated)[0])
            finals.append((info["final_obs"][i].copy(), info["final_obs"][i]))
            for _ in range(40):  # more hands end: the given rows do not change
                env.step(np.ones(3, np.int64))
    kept, given = finals[0]
    assert np.array_equal(kept, given)
    lean = HoldemVectorEnv(Game(big_blind=2), num_envs=64, players=2, final_obs=False)
    full = HoldemVectorEnv(Game(big_blind=2), num_envs=64, players=2, final_obs=True)
    lean_obs, info = lean.reset(seed=2)
    full_obs, _ = full.reset(seed=2)
    assert np.array_equal(lean_obs, full_obs)
    ended = 0
    rng = np.random.default_rng(2)
    for _ in range(30):
        cols = sample_legal(info["action_mask"], rng)
        got = lean.step(cols)
        want = full.step(cols)
        for a, b in zip(got[:4], want[:4], strict=True):
            assert np.array_equal(a, b)
        info = got[4]
        assert not any("final" in k for k in info)
        assert {k: v for k, v in want[4].items() if "final" not in k}.keys() == info.keys()
        for k in info:
            assert np.array_equal(info[k], want[4][k]), k
        ended += int(got[2].sum())
    assert ended > 0
    # the engine keeps no final rows it would never show (copying them costs a step time)
    with pytest.raises(IllegalActionError, match=r"not kept: .*HoldemVectorEnv: final_obs=True"):
        _ = lean.vector_game.final_observation
    assert full.vector_game.final_observation.shape == (64, full.single_observation_space.shape[0])
    next_step = HoldemVectorEnv(Game(big_blind=2), num_envs=4, players=2, final_obs=False,
                                autoreset_mode="next_step")  # shows final rows: keeps them
    next_step.reset(seed=1)
    assert next_step.vector_game.final_observation.shape[0] == 4
    with pytest.raises(InvalidConfigError, match="final_obs must be True or False"):
        HoldemVectorEnv(Game(big_blind=2), num_envs=2, final_obs=1)  # type: ignore[arg-type]


def test_next_step_autoreset_serves_gymnasiums_observation_wrappers() -> None:
    """Gymnasium's observation wrappers refuse same-step envs; a next-step env runs under
    them (and reset clears a pending final row)."""
    from gymnasium.wrappers.vector import NormalizeObservation

    env = HoldemVectorEnv(Game(big_blind=2), num_envs=32, players=2, autoreset_mode="next_step")
    with pytest.raises(ValueError, match="autoreset_mode"):
        NormalizeObservation(HoldemVectorEnv(Game(big_blind=2), num_envs=2, players=2))
    wrapped = NormalizeObservation(env)
    obs, info = wrapped.reset(seed=3)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(60):
        cols = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        obs, _, terminated, _, info = wrapped.step(cols)
        ended += int(terminated.sum())
    assert ended > 20 and np.isfinite(obs).all()
    while not terminated.any():  # some tables show a final row (they would be held)
        cols = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        obs, _, terminated, _, info = wrapped.step(cols)
    env.reset()  # no seed: the tables stay where they are, and none is held any more
    vg = env.vector_game
    before = [len(vg.history(i)) for i in range(32)]
    env.step(np.ones(32, np.int64))  # check/call everywhere
    moved = [len(vg.history(i)) != before[i] for i in range(32)]
    assert all(moved[i] for i in np.flatnonzero(terminated))  # the ones that were pending


@pytest.mark.parametrize("bad", ["sometimes", AutoresetMode.DISABLED, 1, None])
def test_vector_env_refuses_an_unknown_autoreset_mode(bad: object) -> None:
    with pytest.raises(InvalidConfigError, match="autoreset_mode must be 'same_step' or "
                                                 "'next_step'"):
        HoldemVectorEnv(Game(big_blind=2), num_envs=2, autoreset_mode=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("given", "mode"), [("NextStep", AutoresetMode.NEXT_STEP),
                                             ("SameStep", AutoresetMode.SAME_STEP),
                                             ("NEXT_STEP", AutoresetMode.NEXT_STEP)])
def test_vector_env_takes_the_autoreset_modes_values(given: str, mode: AutoresetMode) -> None:
    # AutoresetMode's own values ("NextStep"), which Gymnasium's vector envs take, were refused
    env = HoldemVectorEnv(Game(big_blind=2), num_envs=2, autoreset_mode=given)
    assert env.metadata["autoreset_mode"] is mode


def test_vector_env_is_stepped_by_one_thread_at_a_time() -> None:
    """A step of a second thread came between another's step and the copy of its outputs,
    which then returned that step's results (done flags counted twice or lost). The env is
    held from step_async to step_wait: another thread is refused, and every step a thread
    gets is its own (the done flags returned add up to the hands played)."""
    import sys
    import threading
    import time

    env = HoldemVectorEnv(Game(big_blind=2), num_envs=200, players=2, stacks=20, seed=1)
    env.reset(seed=1)
    ended = [0, 0]
    refused = [0, 0]
    calls = np.ones(200, dtype=np.int64)

    def work(k: int) -> None:
        # 1.5 s each, and on a loaded machine on until this thread has had a step of its own
        # (one thread can lose every race for a while: that is not what is tested here)
        start = time.perf_counter()
        while (time.perf_counter() < start + 1.5
               or (ended[k] == 0 and time.perf_counter() < start + 60)):
            try:
                ended[k] += int(env.step(calls)[2].sum())
            except IllegalActionError as exc:
                assert "in use by another thread" in str(exc) or "pending" in str(exc)
                refused[k] += 1

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert sum(ended) == int(env.vector_game.hands_played().sum())
    assert min(ended) > 0
    env.step_async(calls)
    result: list[BaseException] = []

    def wait() -> None:
        try:
            env.step_wait()
        except IllegalActionError as exc:
            result.append(exc)

    other = threading.Thread(target=wait)
    other.start()
    other.join()
    assert len(result) == 1 and "another thread's" in str(result[0])
    env.step_wait()  # the step's own thread takes it


def _hooked_vector_env(when: Callable[[str, object], bool], run: Callable[[], None]) -> Any:
    """A 4-table env that runs ``run`` (once, in this thread) right after the first store of
    one of its fields for which ``when(name, value)`` holds: another thread's call is then
    made at that exact moment of this thread's step."""

    class Hooked(HoldemVectorEnv):
        fired = False

        def __setattr__(self, name: str, value: object) -> None:
            super().__setattr__(name, value)
            if not Hooked.fired and self.__dict__.get("_armed") and when(name, value):
                Hooked.fired = True
                run()

    env = Hooked(Game(big_blind=2), num_envs=4, players=2, stacks=20, seed=1)
    env.reset(seed=1)
    env._armed = True
    return env


def _in_thread(call: Callable[[], object], outcome: list[object]) -> Callable[[], None]:
    """``call`` made in another thread, its result (or IllegalActionError) kept in outcome."""
    import threading

    def body() -> None:
        try:
            outcome.append(call())
        except IllegalActionError as exc:
            outcome.append(exc)

    def run() -> None:
        other = threading.Thread(target=body)
        other.start()
        other.join()

    return run


@pytest.mark.parametrize("split", [False, True])
def test_a_step_taken_as_another_ends_is_not_left_pending(split: bool) -> None:
    """A thread whose step() took the env the moment another thread's step_wait freed it (its
    step_async then ran) found that step_wait still held: its step_wait was refused, and the
    step it had started stayed pending, so every later step and reset of the env, from any
    thread, was refused. Here the second thread's whole step runs at that moment: it must
    go through, and leave nothing pending."""
    calls = np.ones(4, dtype=np.int64)
    outcome: list[object] = []
    env: Any = None
    env = _hooked_vector_env(lambda name, value: name == "_holder" and value is None,
                             _in_thread(lambda: env.step(calls)[2].shape, outcome))
    if split:
        env.step_async(calls)
        env.step_wait()
    else:
        env.step(calls)
    assert outcome == [(4,)]
    env.step(calls)  # nothing pending: the env steps on
    env.reset(seed=2)


@pytest.mark.parametrize("moment", ["pending", "taken"])
def test_a_stray_step_wait_of_another_thread_leaves_the_step_whole(moment: str) -> None:
    """Another thread's step_wait (nothing of its own pending) took step_wait's lock before
    it refused: a step() whose own wait came at that moment was refused halfway, its step
    played and left pending, and every later step and reset was refused. Here the stray
    call comes as the step's own thread has started the step (``pending``) and as its wait
    has taken it (``taken``): the stray call is refused, the step goes through and leaves
    nothing pending."""
    calls = np.ones(4, dtype=np.int64)
    stray: list[object] = []
    env: Any = None

    def when(name: str, value: object) -> bool:
        return name == "_pending" and (value is None) == (moment == "taken")

    env = _hooked_vector_env(when, _in_thread(lambda: env.step_wait(), stray))
    env.step_async(calls)
    obs, rewards, done, _, _ = env.step_wait()
    assert len(stray) == 1 and isinstance(stray[0], IllegalActionError)
    assert ("another thread's" if moment == "pending" else "no step_async") in str(stray[0])
    assert obs.shape[0] == rewards.shape[0] == done.shape[0] == 4
    env.step(calls)  # nothing pending: the env steps on
    env.reset(seed=2)


@pytest.mark.parametrize("answer", [7, -1, 2.5, None, "1"])
def test_single_env_opponent_bad_column_stops_the_env_until_reset(answer: object) -> None:
    # an opponent's column outside the action space, or not an int, raises naming its seat and
    # policy; the env then refuses step() (an opponent is to act, mid-hand) until reset()
    def policy(obs: np.ndarray, mask: np.ndarray) -> object:
        return answer

    env = HoldemEnv(players=3, opponents=[RandomPolicy(1), policy], seat=0, stacks=100)
    with pytest.raises(IllegalActionError, match=r"seat 2's policy .*policy"):
        for _ in range(20):  # seat 2 acts before the learner in some hand
            env.reset()
            env.step(1)
    before = env.vector_game.history(0)
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        env.step(1)
    assert env.vector_game.history(0) == before  # nothing was played for anyone
    env._policies[2] = RandomPolicy(2)  # the user fixes the policy; reset plays on
    _, info = env.reset()
    assert int(env.vector_game.current_player[0]) == 0 and info["action_mask"].any()
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_single_env_policy_error_stops_the_env_until_reset() -> None:
    def broken(obs: np.ndarray, mask: np.ndarray) -> int:
        raise RuntimeError("policy bug")

    env = HoldemEnv(players=2, opponents=broken, seat=1)
    with pytest.raises(RuntimeError, match="policy bug"):
        env.reset(seed=3)  # seat 0 (the button) acts first heads-up
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        env.step(1)  # seat 0 is to act: nothing is played for it
    assert env.vector_game.history(0) == []
    env._policies[0] = RandomPolicy(0)
    _, info = env.reset()
    assert int(env.vector_game.current_player[0]) == 1
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


def test_single_env_action_masks_is_the_mask_of_the_last_observation() -> None:
    # sb3_contrib's MaskablePPO asks the env for action_masks() after every reset and step
    env = HoldemEnv(players=3, seed=5, stacks=100)
    with pytest.raises(IllegalActionError, match=r"call reset\(\) first"):
        env.action_masks()
    seen_end = 0
    _, info = env.reset()
    for _ in range(300):
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (env.action_space.n,)
        assert (mask == info["action_mask"]).all()
        assert (mask == env.vector_game.legal_mask[0]).all() and mask.any()
        mask[:] = False  # a copy: the env's own is not changed
        assert env.action_masks().any()
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        if terminated:
            seen_end += 1
            assert not env.action_masks().any() and not info["action_mask"].any()
            _, info = env.reset()
    assert seen_end > 20

    def broken(obs: np.ndarray, mask: np.ndarray) -> int:
        raise RuntimeError("policy bug")

    env = HoldemEnv(players=2, opponents=broken, seat=1)
    with pytest.raises(RuntimeError, match="policy bug"):
        env.reset(seed=3)
    with pytest.raises(IllegalActionError, match=r"policy failed .* call reset\(\)"):
        env.action_masks()


@pytest.mark.parametrize("opponents", ["RandomAgent", "text", 5])
def test_single_env_opponents_that_are_not_policies(opponents: object) -> None:
    from holdem import RandomAgent

    given = RandomAgent(seed=1) if opponents == "RandomAgent" else opponents
    hint = "RandomPolicy" if opponents == "RandomAgent" else "policy"
    with pytest.raises(InvalidConfigError, match=rf"opponents must be .*{hint}"):
        HoldemEnv(players=3, opponents=given)  # type: ignore[arg-type]


def test_make_vec_of_the_self_play_id_is_the_vector_env() -> None:
    """``gymnasium.make_vec("holdem/SelfPlay-v0", num_envs=N, **kwargs)`` is
    ``HoldemVectorEnv(num_envs=N, **kwargs)`` (no-limit 1/2 when no game is given): the same
    steps, the id's spec kept through a pickle."""
    import pickle
    import sys

    import gymnasium

    from holdem.rl.gymnasium import SELF_PLAY_ID

    assert SELF_PLAY_ID == "holdem/SelfPlay-v0" and SELF_PLAY_ID in gymnasium.registry
    made = gymnasium.make_vec(SELF_PLAY_ID, num_envs=8, players=6, actions="fcpa", seed=3,
                              autoreset_mode="next_step")
    plain = HoldemVectorEnv(Game(big_blind=2), num_envs=8, players=6, actions="fcpa", seed=3,
                            autoreset_mode="next_step")
    # (the module's class now: another test reloads the module, making a new class object)
    assert type(made) is sys.modules["holdem.rl.gymnasium"].HoldemVectorEnv
    assert made.spec is not None
    assert made.spec.id == SELF_PLAY_ID and made.spec.kwargs["num_envs"] == 8
    assert made.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert made.single_action_space == plain.single_action_space
    rng = np.random.default_rng(2)
    for env in (made, plain):
        env.reset()
    for k in range(60):
        if k == 30:
            made = pickle.loads(pickle.dumps(made))
            assert made.spec is not None and made.spec.id == SELF_PLAY_ID
        cols = sample_legal(made._vg.legal_mask, rng)
        ours, theirs = made.step(cols), plain.step(cols)
        for a, b in zip(ours[:4], theirs[:4], strict=True):
            assert np.array_equal(a, b)
    made.close()
    plain.close()


def test_make_of_the_self_play_id_is_refused() -> None:
    """Self-play is a batch: ``gymnasium.make`` of its id, or ``make_vec`` in the mode that
    makes one env per table, says to use ``make_vec`` (its default mode)."""
    import gymnasium

    from holdem.rl.gymnasium import SELF_PLAY_ID

    with pytest.raises(InvalidConfigError, match=r"is a vector env.*make_vec\('holdem/SelfPl"):
        gymnasium.make(SELF_PLAY_ID, players=3)
    with pytest.raises(InvalidConfigError, match="is a vector env"):
        gymnasium.make_vec(SELF_PLAY_ID, num_envs=2, vectorization_mode="sync")


def test_make_vec_of_the_single_env_id_syncs_single_envs() -> None:
    """``make_vec("holdem/Holdem-v0")``: Gymnasium's ``SyncVectorEnv`` of ``HoldemEnv``s, the
    keyword arguments given to each (``reset(seed=s)`` seeds sub-env ``i`` with ``s + i``)."""
    import gymnasium

    from holdem.rl.gymnasium import ENV_ID

    envs = gymnasium.make_vec(ENV_ID, num_envs=3, players=3, seat=1, actions="fchpa")
    assert isinstance(envs, gymnasium.vector.SyncVectorEnv)
    obs, info = envs.reset(seed=7)
    for i in range(3):
        one = HoldemEnv(players=3, seat=1, actions="fchpa")
        first, first_info = one.reset(seed=7 + i)
        assert np.array_equal(obs[i], first)
        assert np.array_equal(info["action_mask"][i], first_info["action_mask"])
    envs.close()


@pytest.mark.parametrize(("make", "shown"), [
    # 3 seats: 248 columns; 4 seats: 255
    ("env = gymnasium.make('holdem.rl.gymnasium:holdem/Holdem-v0', players=3)",
     "HoldemEnv (248,) (6,)"),
    ("env = gymnasium.make_vec('holdem.rl.gymnasium:holdem/SelfPlay-v0', num_envs=5, players=4)",
     "HoldemVectorEnv (5, 255) (5, 6)"),
])
def test_make_with_the_module_in_the_id_in_a_fresh_interpreter(make: str, shown: str) -> None:
    # the README's form: Gymnasium imports holdem.rl.gymnasium itself (no import beforehand)
    import subprocess
    import sys

    code = (f"import gymnasium\n{make}\n"
            "obs, info = env.reset(seed=1)\n"
            "print(type(env.unwrapped).__name__, obs.shape, info['action_mask'].shape)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert out.strip() == shown


def test_single_env_repr_names_the_seats() -> None:
    env = HoldemEnv(players=3, seat=1, opponents=[RandomPolicy(4), RandomPolicy(5)])
    assert repr(env) == ("<HoldemEnv 3 players, learner seat 1; opponents seat 0: "
                         "RandomPolicy(seed=4), seat 2: RandomPolicy(seed=5)>")


def test_vector_env_reset_with_a_seed_seeds_np_random() -> None:
    """``reset(seed=s)`` seeds ``np_random`` as Gymnasium's ``VectorEnv.reset`` does (it was
    left unseeded: a random ``np_random_seed``, a stream that differed run to run)."""
    draws = []
    for seed in (5, np.uint64(5)):
        envs = HoldemVectorEnv(Game(big_blind=2), num_envs=4, players=3)
        envs.reset(seed=seed)
        assert envs.np_random_seed == 5
        draws.append(envs.np_random.integers(1 << 30, size=8).tolist())
        envs.reset()  # without a seed: the stream goes on
        assert envs.np_random_seed == 5
        envs.close()
    assert draws[0] == draws[1]


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_reset_without_a_seed_resets_every_table(mode: str) -> None:
    """Gymnasium's ``reset()`` resets every sub-env; ``reset()`` without a seed kept the tables
    mid-hand (the observations of the last step again, so RecordEpisodeStatistics counted the
    hand that went on as a new episode). Every table now shows a hand nobody has acted in,
    as a reset_mask of all tables gives, and the batch keeps its seed."""
    envs = HoldemVectorEnv(Game(big_blind=2), num_envs=6, players=3, autoreset_mode=mode)
    envs.reset(seed=3)
    rng = np.random.default_rng(1)
    for _ in range(7):
        _, _, _, _, info = envs.step((rng.random((6, envs.single_action_space.n))
                                      * envs.vector_game.legal_mask).argmax(axis=1))
    assert any(envs.vector_game.history(i) for i in range(6))
    obs, info = envs.reset()
    assert not any(envs.vector_game.history(i) for i in range(6))
    assert info["action_mask"].any(axis=1).all()
    assert envs.vector_game.seed == 3
    assert np.array_equal(obs, envs.vector_game.observation)
    envs.close()


def test_reset_options_are_refused_not_ignored() -> None:
    """An option ignored silently would reset other tables than the caller asked for. The
    vector env takes ``reset_mask`` alone, checked as Gymnasium's vector envs check it; the
    single env takes none. ``None`` and ``{}`` (what Gymnasium's wrappers and ``check_env``
    pass) ask for nothing; anything else raises :class:`InvalidConfigError` (a partial reset
    before the first reset: :class:`IllegalActionError`) and changes nothing."""
    envs = HoldemVectorEnv(Game(big_blind=2), num_envs=4, players=3, seed=2)
    with pytest.raises(IllegalActionError, match="call reset"):
        envs.reset(options={"reset_mask": np.ones(4, dtype=bool)})
    obs, _ = envs.reset(options={})
    envs.step(np.ones(4, dtype=np.int64))  # check/call everywhere
    before = envs._vg.observation.copy()
    mask = np.array([True, False, True, False])
    for options, message in [
            ({"reset_mask": mask, "x": 1}, "reset takes no options"),
            ({"x": 1}, "reset takes no options"), ([1], "reset takes no options"),
            (3, "reset takes no options"),
            ({"reset_mask": mask.tolist()}, "numpy bool array of shape"),
            ({"reset_mask": mask.astype(np.int8)}, "numpy bool array of shape"),
            ({"reset_mask": mask[:3]}, r"numpy bool array of shape \(4,\)"),
            ({"reset_mask": np.zeros(4, dtype=bool)}, "at least one table")]:
        with pytest.raises(InvalidConfigError, match=message):
            envs.reset(options=options)  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match="keeps the batch's seed"):
        envs.reset(seed=2, options={"reset_mask": mask})
    assert np.array_equal(envs._vg.observation, before)
    assert envs.reset(options=None)[0].shape == obs.shape
    envs.close()
    env = HoldemEnv(players=2, seed=3)
    first, _ = env.reset(options={})
    with pytest.raises(InvalidConfigError, match=r"reset takes no options.*deals the next hand"):
        env.reset(options={"reset_mask": True})
    assert env.reset(seed=3, options=None)[0].tolist() == first.tolist()


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_reset_mask_resets_the_flagged_tables_only(mode: str) -> None:
    """Gymnasium's partial reset: ``reset(options={"reset_mask": m})``. A flagged table whose
    hand is in play has it voided (VectorGame.abandon: nobody paid, the table's next hand
    dealt); one showing a finished hand (next-step mode) shows the hand dealt after it and
    is no longer held. Each flagged table shows a hand nobody has acted in; the others
    return what the last step returned (in next-step mode a final row, check/call only,
    and they are held in the next step)."""
    n = 16
    env = HoldemVectorEnv(Game(big_blind=2), num_envs=n, players=3, stacks=30, seed=7,
                          autoreset_mode=mode)
    obs, info = env.reset(seed=7)
    vg = env.vector_game  # (a reset with a seed makes a new one)
    rng = np.random.default_rng(7)
    resets = 0
    for step in range(80):
        cols = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        obs, _, terminated, _, info = env.step(cols)
        if step % 5 != 2:
            continue
        mask = rng.random(n) < 0.5
        mask[0] = True
        hands = [vg.table_state(i)["hand"] for i in range(n)]
        played, totals = vg.hands_played(), vg.total_payoffs()
        held = terminated.copy() if mode == "next_step" else np.zeros(n, dtype=bool)
        new_obs, new_info = env.reset(options={"reset_mask": mask})
        resets += 1
        assert np.array_equal(vg.hands_played(), played)  # nothing voided is counted
        assert np.array_equal(vg.total_payoffs(), totals)
        for i in range(n):
            if mask[i]:
                assert vg.history(i) == []  # a hand nobody has acted in
                # voided: the next hand number; a held table shows the one already dealt
                assert vg.table_state(i)["hand"] == hands[i] + (0 if held[i] else 1)
                assert np.array_equal(new_obs[i], vg.observation[i])
                assert np.array_equal(new_info["action_mask"][i], vg.legal_mask[i])
                assert new_info["current_player"][i] == vg.current_player[i]
            else:
                assert vg.table_state(i)["hand"] == hands[i]
                assert np.array_equal(new_obs[i], obs[i])  # what the last step returned
                assert np.array_equal(new_info["action_mask"][i], info["action_mask"][i])
                assert new_info["current_player"][i] == info["current_player"][i]
        obs, info = new_obs, new_info
        # the next step holds exactly the tables still showing a finished hand
        before = [len(vg.history(i)) for i in range(n)]
        hands = [vg.table_state(i)["hand"] for i in range(n)]
        cols = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        obs, _, terminated, _, info = env.step(cols)
        for i in range(n):
            moved = vg.table_state(i)["hand"] != hands[i] or len(vg.history(i)) != before[i]
            assert moved != bool(held[i] and not mask[i]), (step, i)
            if held[i] and not mask[i]:
                assert info["actor"][i] == -1
    assert resets >= 10
    env.close()


def test_reset_mask_through_gymnasiums_episode_statistics_wrapper() -> None:
    """Gymnasium's RecordEpisodeStatistics passes the partial reset through and restarts
    the flagged tables' episode counts; the env resets those tables."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = HoldemVectorEnv(Game(big_blind=2), num_envs=8, players=2, seed=1)
    wrapped = RecordEpisodeStatistics(env)
    wrapped.reset(seed=1)
    wrapped.step(np.ones(8, dtype=np.int64))
    mask = np.zeros(8, dtype=bool)
    mask[[1, 5]] = True
    hands = [env.vector_game.table_state(i)["hand"] for i in range(8)]
    wrapped.reset(options={"reset_mask": mask})
    assert [env.vector_game.table_state(i)["hand"] - hands[i] for i in range(8)] == \
        mask.astype(int).tolist()
    assert wrapped.episode_lengths.tolist() == [1, 0, 1, 1, 1, 0, 1, 1]


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
def test_reset_mask_in_a_short_stacked_session_moves_no_chips(mode: str) -> None:
    """A partial reset returns no rewards, so it must move no chips: in a session of short
    stacks the hand after a voided one may leave nobody able to act, and it is voided too
    (VectorGame.abandon). hands_played and total_payoffs stay as the steps left them."""
    n = 32
    env = HoldemVectorEnv(Game(big_blind=2), num_envs=n, players=2, stacks=12, seed=3,
                          session=True, autoreset_mode=mode)
    _, info = env.reset(seed=3)
    vg = env.vector_game
    rng = np.random.default_rng(2)
    for _ in range(60):
        played, totals = vg.hands_played(), vg.total_payoffs()
        mask = rng.random(n) < 0.3
        mask[0] = True
        _, info = env.reset(options={"reset_mask": mask})
        assert np.array_equal(vg.hands_played(), played)
        assert np.array_equal(vg.total_payoffs(), totals)
        cols = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        _, _, _, _, info = env.step(cols)
    env.close()


def test_reset_mask_does_not_read_back_the_callers_info_arrays() -> None:
    """Next-step mode: a partial reset shows the tables still held with the seat that acted
    last as their current player. That seat comes from the env's own record, not from the
    ``info["actor"]`` array the step handed to the caller, which the caller may change."""
    n = 16
    env = HoldemVectorEnv(Game(big_blind=2), num_envs=n, players=3, seed=4,
                          autoreset_mode="next_step")
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    terminated = np.zeros(n, dtype=bool)
    for _ in range(200):
        cols = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        _, _, terminated, _, info = env.step(cols)
        if terminated.any() and not terminated.all():
            break
    assert terminated.any() and not terminated.all()
    actor = info["actor"].copy()
    info["actor"][:] = 99  # the caller's array, to do with as it likes
    mask = ~terminated
    _, after = env.reset(options={"reset_mask": mask})
    assert np.array_equal(after["current_player"][terminated], actor[terminated])
    env.close()


def _pickled(env: Any) -> Any:
    import pickle

    return pickle.loads(pickle.dumps(env))


def _current(name: str) -> Any:
    """The module's class as it is now: test_registered_with_gymnasium... reloads the module,
    and pickle finds a class by its name, so an instance of the class imported at the top
    would no longer be the module's."""
    import importlib

    return getattr(importlib.import_module("holdem.rl.gymnasium"), name)


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
@pytest.mark.parametrize(("mode", "copy"), [("same_step", True), ("next_step", True),
                                            ("same_step", False), ("next_step", False)])
def test_a_vector_env_copied_mid_run_steps_on_as_the_original(how: str, mode: str,
                                                              copy: bool) -> None:
    """Pickled or deep-copied mid-run (its VectorGame with it): the same actions give the
    same observations, rewards, flags and infos (final rows included), step after step."""
    import copy as copying

    make = _pickled if how == "pickle" else copying.deepcopy
    env = _current("HoldemVectorEnv")(Game(big_blind=2), num_envs=6, players=3,
                                      autoreset_mode=mode, copy=copy)
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(7):
        *_, info = env.step((rng.random(info["action_mask"].shape) * info["action_mask"])
                            .argmax(axis=1))
    other = make(env)
    ended = 0
    for _ in range(40):
        cols = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        mine = copying.deepcopy(env.step(cols))  # (copy=False returns the env's own buffers)
        theirs = other.step(cols)
        assert same_results(mine, theirs)
        info = mine[4]
        ended += int(np.sum(mine[2]))
    assert ended > 0  # hands ended (and were reset) after the copy


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_a_single_env_copied_mid_hand_plays_on_as_the_original(how: str) -> None:
    import copy as copying

    make = _pickled if how == "pickle" else copying.deepcopy
    env = _current("HoldemEnv")(Game(big_blind=2), players=4,
                                opponents=_current("RandomPolicy")(7))
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    _, _, done, _, info = env.step(int(np.argmax(info["action_mask"])))
    if done:
        _, info = env.reset()
    other = make(env)
    episodes = 0
    for _ in range(60):
        col = int((rng.random(info["action_mask"].shape) * info["action_mask"]).argmax())
        mine = copying.deepcopy(env.step(col))
        assert same_results(mine, other.step(col))
        info = mine[4]
        if mine[2] or mine[3]:
            episodes += 1
            first = env.reset()
            assert same_results(first, other.reset())
            info = first[1]
    assert episodes > 1


def test_a_vector_env_pickle_is_checked() -> None:
    """HoldemVectorEnv restored any state (``__dict__.update``): ``_vg=None`` failed at the
    next reset with AttributeError, ``_ended`` of another length or ``num_envs=-1`` with
    numpy's ValueError. Each field is checked at load as HoldemEnv's are (the arguments
    through the constructor, the engine against them, the arrays against the engine); a
    field made from the arguments (the spaces, the metadata) is made again."""
    import pickle

    from holdem import InvalidStateError

    cls = _current("HoldemVectorEnv")
    env = cls(Game(big_blind=2), num_envs=3, players=3, autoreset_mode="next_step")
    env.reset(seed=1)
    env.step(np.ones(3, dtype=np.int64))
    good = pickle.loads(pickle.dumps(env.__getstate__()))
    idle = cls(Game(big_blind=2), num_envs=3).__getstate__()  # never reset, same-step mode
    other = VectorGame(Game(big_blind=2), num_tables=3, players=2, stacks=200, seed=1)
    for state, field, value, why in [
            (good, "_vg", None, "not an env's state"),
            (good, "_vg", other, "its engine is not the one its arguments make"),
            (good, "num_envs", -1, "num_envs is -1, not 3"),
            (good, "players", 2, "players is 2, not 3"),
            (good, "_next_step", "yes", "not an env's state"),
            (good, "_copy", 1, "copy must be True or False"),
            (good, "_started", 1, "_started must be a bool"),
            (good, "_np_random", 5, "its generator"),
            (good, "_ended", np.zeros(1, dtype=bool), "_ended must be 3 bools"),
            (good, "_last_actor", np.full(3, 7, dtype=np.int64), "_last_actor must be 3 seats"),
            (good, "_last_actor", np.zeros(3, dtype=np.int32), "_last_actor must be 3 seats"),
            (good, "_pending", [0, 0, 0], "_pending must be 3 seats"),
            (idle, "_started", True, "_started is not its engine's"),
            (idle, "_pending", np.zeros(3, dtype=np.int64), "a step is pending"),
            (idle, "_ended", np.ones(3, dtype=bool), "_ended flags tables")]:
        with pytest.raises(InvalidStateError,
                           match=f"not a valid pickled HoldemVectorEnv: {why}"):
            cls.__new__(cls).__setstate__({**state, field: value})
    twin = cls.__new__(cls)
    twin.__setstate__({**good, "action_space": None, "observation_space": None, "metadata": {}})
    assert twin.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    for _ in range(8):
        assert same_results(env.step(np.ones(3, dtype=np.int64)),
                            twin.step(np.ones(3, dtype=np.int64)))


def test_the_envs_and_random_policy_never_load_without_their_state() -> None:
    """A pickle of HoldemVectorEnv, HoldemEnv or RandomPolicy written without its state
    (``__setstate__`` never called) gave an object with no fields, failing at its first use
    with AttributeError; and RandomPolicy took any state (``_rng=None`` failed at its first
    call). Their pickles carry the state as an argument now, and a state refused by
    ``__setstate__`` (none at all included) raises InvalidStateError at load."""
    import pickle

    from holdem import InvalidStateError

    vec = _current("HoldemVectorEnv")(Game(big_blind=2), num_envs=3)
    vec.reset(seed=2)
    single = _current("HoldemEnv")(players=3, opponents=_current("RandomPolicy")(4))
    single.reset(seed=2)
    mask = np.ones(6, dtype=bool)
    for obj, drop in [(vec, type(vec)), (single, type(single)),
                      (single, _current("RandomPolicy"))]:
        twin = stateless_round_trip(obj, drop)
        if obj is vec:
            assert same_results(vec.step(np.ones(3, dtype=np.int64)),
                                twin.step(np.ones(3, dtype=np.int64)))
        else:
            assert same_results(single.step(1), twin.step(1))
    policy = _current("RandomPolicy")(9)
    twin = stateless_round_trip(policy, type(policy))
    assert [policy(None, mask) for _ in range(9)] == [twin(None, mask) for _ in range(9)]
    from holdem.rl import restore

    for cls in (type(vec), type(single), type(policy)):
        with pytest.raises(InvalidStateError, match=f"not a valid pickled {cls.__name__}"):
            restore(cls, None)
    with pytest.raises(InvalidStateError, match=r"not a pickled holdem\.rl object"):
        restore(dict, {})
    for state in ({"seed": 1, "_rng": None}, {"seed": -1, "_rng": np.random.default_rng()},
                  {"seed": 1, "_rng": np.random.default_rng(), "x": 1}):
        policy.__dict__.clear()
        policy.__dict__.update(state)
        with pytest.raises(InvalidStateError, match="not a valid pickled RandomPolicy"):
            pickle.loads(pickle.dumps(policy))


def test_an_env_made_by_gymnasium_make_pickles() -> None:
    """``gymnasium.make`` gives the env its ``spec``: the env's pickle (and copy.deepcopy)
    was refused ("its fields are not the env's"), so a made env could not be checkpointed.
    The spec is kept (a spec that is not an EnvSpec is refused) and the copy plays on as
    the original."""
    import copy
    import pickle

    import gymnasium

    from holdem import InvalidStateError

    envs = [gymnasium.make("holdem/Holdem-v0", players=3, seed=3) for _ in range(3)]
    for env in envs:
        env.reset(seed=5)
    twins = [pickle.loads(pickle.dumps(envs[1])), copy.deepcopy(envs[2])]
    for twin in twins:
        assert twin.unwrapped.spec == envs[0].unwrapped.spec
    for _ in range(6):
        mine = envs[0].step(1)
        assert all(same_results(mine, twin.step(1)) for twin in twins)
        if mine[2]:
            break
    raw = envs[0].unwrapped
    with pytest.raises(InvalidStateError, match="its spec is not a Gymnasium EnvSpec"):
        type(raw).__new__(type(raw)).__setstate__({**raw.__dict__, "spec": "holdem"})


def _seat_ever_acts(game: Game, stacks: list[int], seat: int) -> bool:
    """Whether ``seat`` gets a decision in some of many random hands, every button tried (an
    independent search: the hands are played out, not judged from the forced bets)."""
    rng = random.Random(0)
    for button in range(len(stacks)):
        for _ in range(40):
            state = game.new_hand(stacks, button=button)
            while not state.is_terminal():
                if state.actor == seat:
                    return True
                state.apply(random_action(state, rng))
    return False


def test_a_learner_seat_that_never_acts_is_refused_not_dealt_past_forever() -> None:
    """Found hanging: a learner all in from the ante wherever the button is never gets a
    decision, and reset() dealt past its hands forever (R7 antes, R9 all in for less)."""
    for game, stacks in [(Game(big_blind=2, ante=1), [1, 200, 200]),
                         (Game(big_blind=2, ante=3), [3, 200, 200])]:
        with pytest.raises(InvalidConfigError,
                           match=r"seat 0 never acts: with stacks \(\d+, 200, 200\) it is all in "
                                 r"from the forced bets wherever the button is"):
            HoldemEnv(game, players=3, stacks=stacks, seat=0)
        env = HoldemEnv(game, players=3, stacks=stacks, seat=1)  # another seat acts
        env.reset(seed=1)
    env = HoldemEnv(Game(big_blind=2, ante=1), players=3, stacks=[2, 200, 200], seat=0)
    for episode in range(6):  # one chip after the ante: a decision on some hands
        env.reset(seed=episode)
        assert env.action_masks().any()


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_learner_seat_is_refused_exactly_when_it_can_never_act(data: st.DataObject) -> None:
    """Refused or not, the env agrees with random hands played out over every button (R2-R9
    forced bets of every kind: blinds, small blind 0, antes of both kinds, straddle)."""
    from holdem import AnteType

    bb = data.draw(st.integers(1, 6))
    players = data.draw(st.integers(2, 6))
    game = Game(structure=data.draw(st.sampled_from(list(Structure))), big_blind=bb,
                small_blind=data.draw(st.integers(0, bb)), ante=data.draw(st.integers(0, 2 * bb)),
                ante_type=data.draw(st.sampled_from(list(AnteType))),
                straddle=players >= 3 and data.draw(st.booleans()))
    stacks = data.draw(st.lists(st.integers(1, 4 * bb), min_size=players, max_size=players))
    seat = data.draw(st.integers(0, players - 1))
    try:
        HoldemEnv(game, players=players, stacks=stacks, seat=seat)
    except InvalidConfigError as exc:
        if "too short" in str(exc):  # nobody acts in some hand: the engine's own refusal
            return
        assert f"seat {seat} never acts" in str(exc)
        assert not _seat_ever_acts(game, stacks, seat)
        return
    assert _seat_ever_acts(game, stacks, seat)


def test_stacks_given_by_an_iterator_or_a_list_changed_later_survive_a_seeded_reset() -> None:
    """The envs build their engine again on reset(seed=s): from the stacks as first read."""
    from holdem.rl.pettingzoo import HoldemAECEnv

    given = [100, 200, 300]
    envs = [HoldemEnv(Game(big_blind=2), players=3, stacks=iter(given)),
            HoldemVectorEnv(Game(big_blind=2), num_envs=2, players=3, stacks=iter(given)),
            HoldemEnv(Game(big_blind=2), players=3, stacks=given)]
    given.append(400)  # the caller's list changes after the env was made
    for env in envs:
        env.reset(seed=3)
        assert env.vector_game.stacks == (100, 200, 300)
    aec = HoldemAECEnv(Game(big_blind=2), players=3, stacks=(s for s in (100, 200, 300)))
    aec.reset(seed=3)
    assert aec.vector_game.stacks == (100, 200, 300)


def test_skipped_reward_is_the_payoff_of_the_hands_dealt_past() -> None:
    """A hand that ends before the learner acts (all fold to its big blind) is dealt past:
    its payoff, in big blinds, is ``info["skipped_reward"]`` of the next reset, added up
    over every hand dealt past (the engine's own payoffs for the learner's seat)."""
    def fold(obs: np.ndarray, mask: np.ndarray) -> int:
        return 0 if mask[0] else 1

    env = HoldemEnv(Game(big_blind=2), players=3, opponents=fold, seed=1)
    got = []
    for _ in range(6):
        _, info = env.reset()
        got.append(info["skipped_reward"])
        done = False
        while not done:
            _, _, done, _, info = env.step(1)
    # the learner is the big blind every third hand: the button and the small blind fold to
    # it, and it wins the small blind (1 chip, half a big blind) without acting
    assert sorted(got) == [0.0, 0.0, 0.0, 0.5, 0.5, 0.5]

    def caller(obs: np.ndarray, mask: np.ndarray) -> int:
        return 1

    # 1 chip: the learner is all in from either blind, so two hands a round are dealt past
    env = HoldemEnv(Game(big_blind=2), players=3, opponents=caller, stacks=[1, 200, 200],
                    seed=2)
    vg = env.vector_game
    _, info = env.reset()
    assert info["skipped_reward"] == 0.0
    sums = []
    for _ in range(8):
        done = False
        while not done:
            _, _, done, _, info = env.step(1)
        hands, total = int(vg.hands_played()[0]), float(vg.total_payoffs()[0, 0])
        _, info = env.reset()
        assert int(vg.hands_played()[0]) == hands + 2  # two hands dealt past
        expected = (float(vg.total_payoffs()[0, 0]) - total) / 2
        assert info["skipped_reward"] == expected
        sums.append(expected)
    assert any(sums) and len(set(sums)) > 1


def test_final_row_of_an_unkept_hand_is_turned_to_the_learner_when_an_opponent_acted_last(
) -> None:
    """A hand of more than 64 actions keeps no history: its final row is the last decision's
    turned to the learner's seat. With three seats and an opponent acting last, the position
    one-hot and the seat blocks are the learner's (seat r the r-th after the learner)."""
    names = ActionLayout().names
    low, shove = names.index("min_raise"), names.index("all_in")

    def min_raiser(obs: np.ndarray, mask: np.ndarray) -> int:
        return low if mask[low] else 1

    def caller(obs: np.ndarray, mask: np.ndarray) -> int:
        return 1

    n, seat = 3, 0
    env = HoldemEnv(Game(big_blind=2), players=n, stacks=400, opponents=[min_raiser, caller],
                    seat=seat, seed=1)
    obs, info = env.reset()
    vg = env.vector_game
    hand = int(vg.hands_played()[0])
    button = vg.table_state(0)["button"]
    done, steps = False, 0
    while not done:  # the learner min-raises 40 times (more than 64 actions), then shoves
        mask = info["action_mask"]
        col = low if mask[low] and steps < 40 else shove if mask[shove] else 1
        obs, _, done, _, info = env.step(col)
        steps += 1
    with pytest.raises(IllegalActionError, match="more than 64 actions"):
        vg.last_hand(0)
    spec = ObservationSpec(n)
    # the learner shoved, seat 1 called, seat 2 (the caller) ended the hand
    assert np.flatnonzero(obs[:52]).tolist() == sorted(vg.cards(0, hand)[0][seat])
    position = [float(obs[spec.index(f"position[{k}]")]) for k in range(n)]
    assert position == [float(k == (seat - button) % n) for k in range(n)]
    for r in range(n):
        assert obs[spec.index(f"seat[{r}].button_distance")] == (seat + r - button) % n
    assert obs[spec.index("seat[0].stack")] == 0 and obs[spec.index("seat[0].all_in")] == 1
    assert obs[spec.index("to_call")] == 0 and not info["action_mask"].any()
