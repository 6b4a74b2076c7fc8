"""PettingZoo AEC loop: holdem.rl.pettingzoo against PettingZoo's ``texas_holdem_no_limit_v6``.

Workload: heads-up no-limit, one hand per episode, the same agent loop code for every side
(:func:`aec_loop`: ``agent_iter`` / ``last`` / ``step``, ``reset`` when the hand is over), the
policy a uniform random choice among the ``action_mask`` columns (numpy, its time counted).
Each environment is taken as its ``env()`` entry point returns it to users:

- ``test_rlcard_aec``: ``pettingzoo.classic.texas_holdem_no_limit_v6.env()`` (RLCard 1.2, the
  ``bench`` extra installs it): RLCard's game wrapped in PettingZoo's
  ``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``
  (1/2 blinds, 100-chip stacks; fold, check/call, half pot, pot, all-in).
- ``test_holdem_aec``: ``holdem.rl.pettingzoo.env()``, a bare :class:`HoldemAECEnv` (1/2
  blinds, 200-chip stacks, the ``default`` layout: fold, check/call, half pot, pot,
  min-raise, all-in). It needs no wrapper: it refuses calls before ``reset``, actions outside
  its space or for a finished agent itself (``IllegalActionError``; tests/test_rl_pettingzoo.py).
- ``test_holdem_aec_wrapped``: the same behind the three wrappers RLCard's ``env()`` adds
  (redundant for it; the like-for-like figure).
- ``test_holdem_gymnasium_env``: the single-table Gymnasium env :class:`HoldemEnv` (same game
  and layout as ``test_holdem_aec``), the learner's seat played by the same random masked
  choice and the other by a :class:`RandomPolicy` (:func:`gym_loop`); a decision is one of
  either seat, so the rate is comparable with the AEC loops'. Each episode ends with the
  finished hand encoded from the learner's seat (``VectorGame.last_hand_observation``).

Each benchmark's ``extra_info`` has ``decisions_per_s`` (per median round) and the ratio to
the RLCard environment measured in the same run (``ratio_vs_rlcard``; the goal for
``test_holdem_aec`` is at least 10). Run:
``python -m pytest bench/bench_rl.py --benchmark-enable --benchmark-only -p no:randomly``.
"""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.utils import wrappers  # noqa: E402

from holdem.rl import gymnasium as hgym  # noqa: E402
from holdem.rl import pettingzoo as hpz  # noqa: E402

DECISIONS = 3000
_rates: dict[str, float] = {}


def aec_loop(env: Any, rng: Any, decisions: int) -> int:
    """Play ``decisions`` decisions through the AEC API with a random masked policy."""
    done = 0
    env.reset(seed=int(rng.integers(1 << 30)))
    while done < decisions:
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rng.integers(len(legal)))]))
            done += 1
            del agent
        env.reset()
    return done


class _CountingPolicy:
    """A :class:`RandomPolicy` that counts its decisions."""

    def __init__(self, seed: int) -> None:
        self.policy = hgym.RandomPolicy(seed)
        self.calls = 0

    def __call__(self, observation: Any, action_mask: Any) -> int:
        self.calls += 1
        return self.policy(observation, action_mask)


def gym_loop(env: Any, opponent: _CountingPolicy, rng: Any, decisions: int) -> int:
    """Play at least ``decisions`` decisions (the learner's steps and its opponent's) through
    the Gymnasium API, the learner a random masked choice; returns the decisions made."""
    opponent.calls = 0
    steps = 0
    _, info = env.reset(seed=int(rng.integers(1 << 30)))
    while steps + opponent.calls < decisions:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, _, info = env.step(int(legal[int(rng.integers(len(legal)))]))
        steps += 1
        if terminated:
            _, info = env.reset()
    return steps + opponent.calls


def _record(benchmark: Any, record_rate: Any, name: str, decisions: int) -> None:
    """Decisions/s per median round (conftest's ``record_rate``) and the ratio to RLCard."""
    assert decisions > 0
    record_rate(benchmark, decisions, "decisions_per_s")
    rate = benchmark.extra_info.get("decisions_per_s")
    if rate is None:  # benchmarks disabled: a smoke run
        return
    _rates[name] = rate
    if name != "rlcard" and "rlcard" in _rates:
        benchmark.extra_info["ratio_vs_rlcard"] = round(rate / _rates["rlcard"], 2)


@pytest.mark.benchmark(group="pettingzoo-aec-hunl")
def test_rlcard_aec(benchmark: Any, record_rate: Any) -> None:
    texas = pytest.importorskip("pettingzoo.classic.texas_holdem_no_limit_v6",
                                reason="the bench extra installs rlcard")
    env = texas.env()
    rng = np.random.default_rng(1)
    _record(benchmark, record_rate, "rlcard", benchmark(aec_loop, env, rng, DECISIONS))


@pytest.mark.benchmark(group="pettingzoo-aec-hunl")
def test_holdem_aec(benchmark: Any, record_rate: Any) -> None:
    env = hpz.env()
    assert isinstance(env, hpz.HoldemAECEnv)  # as users get it: no wrapper
    rng = np.random.default_rng(1)
    _record(benchmark, record_rate, "holdem", benchmark(aec_loop, env, rng, DECISIONS))


@pytest.mark.benchmark(group="pettingzoo-aec-hunl")
def test_holdem_aec_wrapped(benchmark: Any, record_rate: Any) -> None:
    env = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        wrappers.TerminateIllegalWrapper(hpz.env(), illegal_reward=-1)))
    rng = np.random.default_rng(1)
    _record(benchmark, record_rate, "holdem_wrapped", benchmark(aec_loop, env, rng, DECISIONS))


@pytest.mark.benchmark(group="pettingzoo-aec-hunl")
def test_holdem_gymnasium_env(benchmark: Any, record_rate: Any) -> None:
    opponent = _CountingPolicy(2)
    env = hgym.HoldemEnv(players=2, stacks=200, opponents=opponent, seed=1)
    rng = np.random.default_rng(1)
    _record(benchmark, record_rate, "holdem_gymnasium",
            benchmark(gym_loop, env, opponent, rng, DECISIONS))
