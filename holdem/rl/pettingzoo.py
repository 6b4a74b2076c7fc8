"""PettingZoo environments over the batched engine: :class:`HoldemAECEnv` and :class:`HoldemParallelEnv`.

>>> from holdem import Game
>>> from holdem.rl.pettingzoo import HoldemAECEnv
>>> env = HoldemAECEnv(Game(big_blind=2), players=2, stacks=200, actions="fcpa")
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, obs["action_mask"].tolist()
('player_0', [1, 1, 1, 1])

Agents are ``player_0`` .. ``player_{P-1}``, one per seat. The encoding is the batched
engine's (:class:`holdem.vector.ObservationSpec`, version 1; :class:`holdem.vector.ActionLayout`):

- ``observe(agent)`` is ``{"observation": float32 (F,), "action_mask": int8 (A,)}``. The acting
  agent's observation is the current one, from its seat; an agent that is not acting keeps the
  one of its last turn in this hand (zeros before its first turn), and its ``action_mask`` is
  all zeros, as PettingZoo documents.
- Rewards are in big blinds: when a hand ends every seat gets its payoff (chips won minus chips
  put in, divided by the big blind).
- An episode is one hand (``hands=1``, fresh stacks every hand), or a session of ``hands``
  hands with stacks carried over (busted seats refilled), as :class:`holdem.vector.VectorGame`
  with ``session=True``.
- The button moves one seat per hand, across :meth:`reset` too. ``reset(seed=s)`` starts again
  from hand 0 of seed ``s`` (the button on seat 0); ``reset()`` deals the next hand.
- An illegal action raises :class:`holdem.IllegalActionError` naming the action and the legal
  columns; the state is unchanged.

Importing this module registers ``holdem/Holdem-v0`` in PettingZoo's AEC and parallel
registries (``pettingzoo.make("aec", "holdem/Holdem-v0", players=2)``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, ClassVar

from holdem.rl import missing_extra

try:  # the optional rl extra
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo import register as _register
except ImportError as _exc:
    raise ImportError(missing_extra(__name__, _exc)) from _exc

from holdem import Game, HandState, IllegalActionError, InvalidConfigError
from holdem.vector import ActionLayout, VectorGame

__all__ = ["HoldemAECEnv", "HoldemParallelEnv", "env", "parallel_env"]

_MASK = 2**64


def _session_seed(seed: int, episode: int) -> int:
    """The seed of session ``episode`` (a fixed mix, so sessions differ but replay)."""
    return (seed * 0x9E3779B97F4A7C15 + episode * 0xBF58476D1CE4E5B9 + episode) % _MASK


class _Core:
    """One table of a :class:`VectorGame` with the per-agent views both APIs share."""

    def __init__(self, game: Game, players: int, stacks: int | Sequence[int],
                 actions: ActionLayout | str, hands: int, seed: int) -> None:
        if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
            raise InvalidConfigError(f"hands must be an int >= 1, got {hands!r}")
        self.game = game
        self.players = players
        self.stacks = stacks
        self.actions = actions
        self.hands = hands
        self.seed = seed
        self.episode = 0
        self.vg = self._new(seed)
        self.agents_all = [f"player_{k}" for k in range(players)]
        self.width = self.vg.observation_spec.width
        self.size = self.vg.action_layout.size
        self.obs = np.zeros((players, self.width), dtype=np.float32)
        self.mask = np.zeros(self.size, dtype=np.int8)
        self.zero_mask = np.zeros(self.size, dtype=np.int8)
        self.in_hand = False
        self.start_hands = 0
        self.seat_of = {a: k for k, a in enumerate(self.agents_all)}
        self.col = np.zeros(1, dtype=np.int64)
        self.actor = 0

    def _new(self, seed: int) -> VectorGame:
        vg = VectorGame(self.game, num_tables=1, players=self.players, stacks=self.stacks,
                        seed=seed, session=self.hands > 1, actions=self.actions)
        vg.reset()
        return vg

    def reset(self, seed: int | None) -> None:
        if seed is not None:
            self.seed = seed
            self.episode = 0
            self.vg = self._new(seed)
        elif self.hands > 1:  # a new session
            self.episode += 1
            self.vg = self._new(_session_seed(self.seed, self.episode))
        elif self.in_hand:  # a hand cut short: play it out by check/call, its result unused
            cc = self.vg.action_layout.names.index("check_call")
            before = int(self.vg.hands_played()[0])
            while int(self.vg.hands_played()[0]) == before:
                self.vg.step([cc])
        self.start_hands = int(self.vg.hands_played()[0])
        self.obs[:] = 0
        self.in_hand = True
        self._look()

    def _look(self) -> None:
        self.actor = actor = int(self.vg.current_player[0])
        self.obs[actor] = self.vg.observation[0]
        self.mask[:] = self.vg.legal_mask[0]

    def play(self, action: object) -> tuple[np.ndarray | None, bool]:
        """Play ``action`` for the actor; return (rewards in bb or None, episode over)."""
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise IllegalActionError(f"an action must be a column index (int), got {action!r}")
        if not 0 <= action < self.size:
            names = self.vg.action_layout.names
            raise IllegalActionError(f"action {action} is not a column index of the layout "
                                     f"(0..{self.size - 1}: {', '.join(names)})")
        if not self.mask[action]:
            self.vg.step([int(action)])  # raises IllegalActionError naming the legal columns
        self.col[0] = action
        _, rewards, done = self.vg.step_unchecked(self.col)  # checked against the mask above
        if not done[0]:
            self._look()
            return None, False
        rew = np.array(rewards[0], dtype=np.float64)
        played = int(self.vg.hands_played()[0]) - self.start_hands
        if played >= self.hands:
            self.in_hand = False
            return rew, True
        self.obs[:] = 0
        self._look()
        return rew, False

    def observe(self, seat: int, acting: bool) -> dict[str, np.ndarray]:
        return {"observation": self.obs[seat].copy(),
                "action_mask": (self.mask if acting else self.zero_mask).copy()}

    def spaces(self) -> tuple[spaces.Dict, spaces.Discrete]:
        obs = spaces.Dict({
            "observation": spaces.Box(low=0.0, high=np.inf, shape=(self.width,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.size,), dtype=np.int8)})
        return obs, spaces.Discrete(self.size)

    def render(self) -> str:
        state: HandState = self.vg.hand_state(0)
        return repr(state)


def _attach(env: Any, game: Game | None, players: int, stacks: int | Sequence[int],
            actions: ActionLayout | str, hands: int, seed: int, render_mode: str | None) -> None:
    """Give ``env`` (AEC or parallel) its table, its agents and their spaces."""
    if render_mode not in (None, "ansi"):
        raise InvalidConfigError(f"render_mode must be None or 'ansi', got {render_mode!r}")
    env.render_mode = render_mode
    env._core = _Core(Game(big_blind=2) if game is None else game, players, stacks, actions,
                      hands, seed)
    env.possible_agents = list(env._core.agents_all)
    env._obs_space, env._act_space = env._core.spaces()
    env.observation_spaces = dict.fromkeys(env.possible_agents, env._obs_space)
    env.action_spaces = dict.fromkeys(env.possible_agents, env._act_space)


class HoldemAECEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """Texas Hold'em as a PettingZoo AEC environment (turn by turn).

    ``game``: blinds, antes, straddle, structure and rake (default ``Game(big_blind=2)``);
    ``players`` 2-10; ``stacks`` chips per seat (an int or one per seat); ``actions`` an
    :class:`holdem.vector.ActionLayout` or a preset name (``"default"``, ``"fcpa"``,
    ``"fchpa"``); ``hands`` hands per episode (1: fresh stacks; more: a session with stacks
    carried over); ``seed`` the seed used until ``reset(seed=...)`` gives another.
    """

    _core: _Core
    _obs_space: spaces.Dict
    _act_space: spaces.Discrete
    metadata: ClassVar[dict[str, Any]] = {"name": "holdem_v0", "render_modes": ["ansi"], "is_parallelizable": True}

    def __init__(self, game: Game | None = None, *, players: int = 2,
                 stacks: int | Sequence[int] = 200, actions: ActionLayout | str = "default",
                 hands: int = 1, seed: int = 0, render_mode: str | None = None) -> None:
        super().__init__()
        _attach(self, game, players, stacks, actions, hands, seed, render_mode)
        self.agents: list[str] = []

    @property
    def vector_game(self) -> VectorGame:
        """The one-table engine underneath (``hand_state(0)``, ``last_hand(0)``, ...)."""
        return self._core.vg

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._core.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._core.actor]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._core.seat_of[agent]
        acting = agent == self.agent_selection and not self.terminations.get(agent, True)
        return self._core.observe(seat, acting)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        rewards, over = self._core.play(action)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if rewards is not None:
            for k, a in enumerate(self.possible_agents):
                self.rewards[a] = float(rewards[k])
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[self._core.actor]
        self._accumulate_rewards()

    def render(self) -> str | None:
        return self._core.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


class HoldemParallelEnv(ParallelEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """The same game as a PettingZoo parallel environment.

    Poker is turn-based: each :meth:`step` plays the action of the acting agent (the one whose
    ``action_mask`` is not all zeros); the actions given for the other agents are ignored. The
    arguments are those of :class:`HoldemAECEnv`.
    """

    _core: _Core
    _obs_space: spaces.Dict
    _act_space: spaces.Discrete
    metadata: ClassVar[dict[str, Any]] = {"name": "holdem_parallel_v0", "render_modes": ["ansi"]}

    def __init__(self, game: Game | None = None, *, players: int = 2,
                 stacks: int | Sequence[int] = 200, actions: ActionLayout | str = "default",
                 hands: int = 1, seed: int = 0, render_mode: str | None = None) -> None:
        _attach(self, game, players, stacks, actions, hands, seed, render_mode)
        self.agents: list[str] = []

    @property
    def vector_game(self) -> VectorGame:
        return self._core.vg

    @functools.cache  # noqa: B019 - one space object per env, as the API test requires
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _all_obs(self) -> dict[str, dict[str, np.ndarray]]:
        actor = self._core.actor
        return {a: self._core.observe(k, k == actor) for k, a in enumerate(self.possible_agents)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        self._core.reset(seed)
        self.agents = list(self.possible_agents)
        return self._all_obs(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, int]) -> tuple[
            dict[str, dict[str, np.ndarray]], dict[str, float], dict[str, bool],
            dict[str, bool], dict[str, dict[str, Any]]]:
        if not self.agents:
            raise IllegalActionError("the episode is over: call reset()")
        actor = self.possible_agents[self._core.actor]
        if actor not in actions:
            raise IllegalActionError(f"no action for the acting agent {actor}")
        rewards, over = self._core.play(actions[actor])
        rew = {a: 0.0 if rewards is None else float(rewards[k])
               for k, a in enumerate(self.possible_agents)}
        term = dict.fromkeys(self.possible_agents, over)
        trunc = dict.fromkeys(self.possible_agents, False)
        obs = ({a: self._core.observe(k, False) for k, a in enumerate(self.possible_agents)}
               if over else self._all_obs())
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.possible_agents}
        if over:
            self.agents = []
        return obs, rew, term, trunc, infos

    def render(self) -> str | None:
        return self._core.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> HoldemAECEnv:
    """A :class:`HoldemAECEnv` (the registry's entry point)."""
    return HoldemAECEnv(**kwargs)


def parallel_env(**kwargs: Any) -> HoldemParallelEnv:
    """A :class:`HoldemParallelEnv` (the registry's entry point)."""
    return HoldemParallelEnv(**kwargs)


_register("aec", "holdem/Holdem-v0", "holdem.rl.pettingzoo:env")
_register("parallel", "holdem/Holdem-v0", "holdem.rl.pettingzoo:parallel_env")
