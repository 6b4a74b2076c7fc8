"""holdem.rl.gymnasium: the vector env over VectorGame and the single-table env (check_env)."""

from __future__ import annotations

import doctest

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

from holdem import Game, IllegalActionError, InvalidConfigError, Structure  # noqa: E402
from holdem.rl.gymnasium import HoldemEnv, HoldemVectorEnv, RandomPolicy  # noqa: E402
from holdem.vector import VectorGame  # noqa: E402

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


def test_single_env_illegal_action_modes() -> None:
    env = HoldemEnv(players=2, actions="fcpa", illegal="raise")
    env.reset(seed=1)  # heads-up: seat 0 has the button and acts first
    with pytest.raises(IllegalActionError, match="not a column"):
        env.step(99)
    assert env.vector_game.history(0) == []  # nothing moved
    lenient = HoldemEnv(players=2, actions="fcpa", opponents=lambda obs, mask: 0)
    lenient.reset(seed=1)
    lenient.step(99)  # plays check/call; the opponent's fold (a check is free) checks
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
    lenient = HoldemVectorEnv(Game(big_blind=2), num_envs=4, players=2)
    lenient.reset(seed=1)
    _, _, _, _, after = lenient.step(np.full(4, 99))  # plays check/call everywhere
    assert [len(lenient.vector_game.history(i)) for i in range(4)] == [1, 1, 1, 1]
    assert after["current_player"].tolist() == [1, 1, 1, 1]


def test_vector_env_lenient_mode_plays_check_call_for_any_bad_column() -> None:
    # every column drawn at random, legal or not, out of range included: a masked or unknown
    # column plays check/call on its table, the others are played as given
    envs = HoldemVectorEnv(Game(big_blind=2), num_envs=32, players=3, stacks=60)
    ref = VectorGame(Game(big_blind=2), num_tables=32, players=3, stacks=60, seed=5)
    obs, info = envs.reset(seed=5)
    ref.reset()
    size = envs.single_action_space.n
    check_call = ref.action_layout.names.index("check_call")
    rng = np.random.default_rng(1)
    masked = 0
    for _ in range(200):
        cols = rng.integers(-2, size + 2, size=32)
        mask = ref.legal_mask
        inside = (cols >= 0) & (cols < size)
        legal = np.zeros(32, dtype=bool)
        legal[inside] = mask[np.flatnonzero(inside), cols[inside]]
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
            for call in (envs.step_async, envs.step, lambda _: envs.reset()):
                with pytest.raises(IllegalActionError, match="step_async is pending"):
                    call(cols)
        got = envs.step_wait()
        want = same.step(cols)
        info = got[4]
        for x, y in zip(got[:4], want[:4], strict=True):
            assert np.array_equal(x, y)
        assert got[4].keys() == want[4].keys()
        assert all(np.array_equal(got[4][k], want[4][k]) for k in got[4])
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
    envs.step(np.ones((4, 1), dtype=np.int64))  # (N, 1) is flattened; nothing was pending
    envs.close()
