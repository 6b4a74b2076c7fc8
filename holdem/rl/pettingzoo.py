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

- ``observe(agent)`` is ``{"observation": float32 (F,), "action_mask": int8 (A,)}``: the current
  hand from that agent's seat (its own hole cards, the public state now), whether it acts or
  not, as :meth:`holdem.vector.ObservationSpec.encode` writes it; the ``action_mask`` is all
  zeros for an agent that is not acting, as PettingZoo documents. Once the episode is over
  (``terminations``) every agent sees the hand as it stood at its last decision (the engine has
  dealt the next hand already; the result is in the rewards), with no actor-only columns.
- No wrapper is needed: calls before :meth:`reset`, actions outside the space, an action for
  a finished agent or a step after the episode raise :class:`holdem.IllegalActionError`.
- Rewards are in big blinds: when a hand ends every seat gets its payoff (chips won minus chips
  put in, divided by the big blind).
- An episode is one hand (``hands=1``, fresh stacks every hand), or a session of ``hands``
  hands with stacks carried over (busted seats refilled), as :class:`holdem.vector.VectorGame`
  with ``session=True``. In a session, a hand whose forced bets leave nobody able to act
  (every seat but one all in from its blind or ante) needs no decision: the engine deals it
  out in the step that ended the hand before it. It counts as one of the ``hands`` and its
  payoff is paid in that step, so that step's rewards are the sum of the payoffs of the
  hands it ended (never of a hand past the episode's last).
- The button moves one seat per hand, across :meth:`reset` too. ``reset(seed=s)`` starts again
  from hand 0 of seed ``s`` (the button on seat 0); ``reset()`` deals the next hand. In a
  session, the first ``reset()`` plays the session of the env's ``seed`` (as
  ``reset(seed=seed)`` does), and each later one a new session, seeded
  ``child_seed(seed, k)`` for the k-th.
- An illegal action raises :class:`holdem.IllegalActionError` naming the action and the legal
  columns; the state is unchanged. With ``illegal="check_call"`` an int action on a masked
  column plays check/call instead (for samplers that ignore the mask, such as PettingZoo's
  ``parallel_seed_test``). An action outside the action space (not ``0..A-1``) always
  raises.
- ``render_mode="ansi"``: :meth:`~HoldemAECEnv.render` returns the table as text (every
  seat's hole cards, the board, the pot, the bets, the seat to act); ``"human"`` prints it.

Importing this module registers ``holdem/Holdem-v0`` in PettingZoo's AEC and parallel
registries (``pettingzoo.make("aec", "holdem/Holdem-v0", players=2)``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal, overload

from holdem._ints import int_or_none
from holdem._shown import excerpt, literal
from holdem.rl import (
    RENDER_MODES,
    _shown_hand,
    check_render_mode,
    checked_restore,
    env_seed,
    kept_stacks,
    missing_extra,
    not_a_column,
    reduce_with_state,
)

try:  # the optional rl extra
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo import register as _register
except ImportError as _exc:
    raise ImportError(missing_extra(__name__, _exc)) from _exc

from holdem import (
    Card,
    Game,
    HoldemError,
    IllegalActionError,
    InvalidConfigError,
    InvalidStateError,
    child_seed,
)
from holdem.vector import ActionLayout, VectorGame, _reseated

__all__ = ["HoldemAECEnv", "HoldemParallelEnv", "env", "parallel_env"]


class _Core:
    """One table of a :class:`VectorGame` with the per-agent views both APIs share.

    The engine writes the actor's row and mask into its own buffers at every step; they are
    read in place (``row``, ``mask``) and copied only when an observation is handed out. Any
    other seat's row is the actor's turned to that seat (:meth:`ObservationSpec.reseat`).
    """

    def __init__(self, game: Game, players: int, stacks: int | Sequence[int],
                 actions: ActionLayout | str, hands: int, seed: int, illegal: str) -> None:
        count = int_or_none(hands)
        if count is None or count < 1:
            raise InvalidConfigError(f"hands must be an int >= 1, got {excerpt(hands)}")
        hands = count
        if type(illegal) is not str or illegal not in ("raise", "check_call"):
            raise InvalidConfigError(f"illegal must be 'raise' or 'check_call', got {excerpt(illegal)}")
        self.lenient = illegal == "check_call"
        self.game = game
        self.players = players
        self.stacks = stacks
        self.actions = actions
        self.hands = hands
        self.seed = seed = env_seed(seed)
        self.episode = 0
        self.vg = self._new(seed)
        self.stacks = kept_stacks(stacks, self.vg)
        self.spec = self.vg.observation_spec
        self.agents_all = [f"player_{k}" for k in range(players)]
        self.width = self.spec.width
        self.size = self.vg.action_layout.size
        self.zero_mask = np.zeros(self.size, dtype=np.int8)
        self.started = False   # reset() called
        self.in_hand = False   # False once the episode is over
        self.start_hands = 0
        self.seat_of = {a: k for k, a in enumerate(self.agents_all)}
        self.col = np.zeros(1, dtype=np.int64)
        self.hand = 0          # the table's hand number (VectorGame.cards)
        self.holes: tuple[tuple[Card, Card], ...] = ()
        self.holes_of = -1     # the hand number of ``holes``
        self.last_actor = 0    # the seat of the last decision
        self.last_hand_no = 0  # the hand number of the last decision
        self._bind()
        self.check_call = self.vg.action_layout.names.index("check_call")

    def _new(self, seed: int) -> VectorGame:
        vg = VectorGame(self.game, num_tables=1, players=self.players, stacks=self.stacks,
                        seed=seed, session=self.hands > 1, actions=self.actions,
                        final_observation=True)  # the last decision's row, once over
        vg.reset()
        return vg

    _VIEWS = ("row", "mask", "actors", "rewards", "done", "run")

    broken = False
    """Set (on the instance) when a step stopped after the engine moved (Ctrl-C, or an error
    while the env took in the step's outcome): the env's view of the hand (the actor, the
    hand number, the agent selected) may be the step's before, so every call but
    :meth:`reset` (which clears it) refuses rather than play an action for the wrong seat."""

    def check_whole(self) -> None:
        if self.broken:
            raise IllegalActionError("the last step was stopped (an interrupt or an error) "
                                     "after the table moved: call reset()")

    def _views(self) -> None:
        """Views of the engine's buffers (written in place by every step), and its one-table
        step: ``VectorGame.step_unchecked`` without the per-call conversion of the actions
        (``col`` is already the int64 buffer it would make) and thread dispatch."""
        vg = self.vg
        self.row = vg.observation[0]
        self.mask = vg.legal_mask[0].view(np.int8)
        self.actors = vg.current_player
        self.rewards = vg._rewards
        self.done = vg._done
        self.run = functools.partial(vg._batch.run, 0, 1, self.col)

    def _bind(self) -> None:
        """:meth:`_views` of a new engine, and where its table stands."""
        self._views()
        self.actor = int(self.actors[0])
        self.hand = int(self.vg.hands_played()[0])
        self.holes_of = -1
        self.last_actor = self.last_hand_no = 0  # no decision yet on this engine

    def __getstate__(self) -> dict[str, Any]:
        """The state without the views of the engine's buffers: a copy or a pickle of the
        engine has buffers of its own, which :meth:`__setstate__` views again."""
        self.check_whole()  # (a stopped step is not pickled as if it were whole)
        return {k: v for k, v in self.__dict__.items() if k not in self._VIEWS}

    __reduce__ = reduce_with_state  # (a pickle always carries the state it is checked by)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Checked: the arguments through the constructor, the engine against them, the
        rest in range and where the engine stands (a pickle with ``actor=99`` failed only at
        the next step; another seat in range played for the engine's actor)."""
        def bad(why: str) -> InvalidStateError:
            return InvalidStateError(f"not a valid pickled PettingZoo env: {why}")

        lenient = state.get("lenient") if type(state) is dict else None
        if type(lenient) is not bool:
            raise bad("not an env's state")
        try:
            fresh = _Core(state["game"], state["players"], state["stacks"], state["actions"],
                          state["hands"], state["seed"], "check_call" if lenient else "raise")
        except (KeyError, TypeError, HoldemError) as exc:
            raise bad(str(exc)[:300]) from None
        vg, n = state.get("vg"), fresh.players
        try:
            hands = int(vg.hands_played()[0]) if type(vg) is VectorGame else 0
        except HoldemError:  # (never reset: not an env's)
            raise bad("its engine was never reset") from None
        restored = checked_restore(
            "PettingZoo env", state, fresh.__getstate__(), "vg",
            {"episode": (0, 1 << 62), "started": bool, "in_hand": bool, "hand": (0, hands),
             "start_hands": (0, hands), "holes_of": (-1, hands), "actor": (-1, n - 1),
             "last_actor": (0, n - 1), "last_hand_no": (0, hands), "holes": tuple})
        assert type(vg) is VectorGame  # (checked_restore refuses anything else)
        holes: Any = restored["holes"]
        holes_of: Any = restored["holes_of"]
        if holes and (len(holes) != n or not all(
                type(h) is tuple and len(h) == 2 and all(type(c) is Card for c in h)
                for h in holes)):
            raise bad("holes must be a pair of card ids per seat")
        # the engine's own: the seat to act, the hand number, the cards dealt (``holes`` is
        # a cache of the hand ``holes_of``'s)
        if restored["actor"] != int(vg.current_player[0]):
            raise bad(f"actor {restored['actor']} is not its engine's seat to act "
                      f"({int(vg.current_player[0])})")
        if restored["hand"] != hands:
            raise bad(f"hand {restored['hand']} is not its engine's hand number ({hands})")
        if holes_of != -1 and holes != vg.cards(0, holes_of)[0]:
            raise bad(f"holes are not the cards of hand {holes_of}")
        self.__dict__.update(restored)
        self._views()

    def reset(self, seed: int | None) -> None:
        if seed is not None:
            seed = env_seed(seed)
        self.broken = True  # until this reset is complete (a new engine, its views bound)
        if seed is not None:
            vg = self._new(seed)  # a seed refused (here or by the engine) changes nothing
            self.seed, self.episode, self.vg = seed, 0, vg
        elif self.hands > 1 and self.started:  # a new session (the first is the seed's own)
            self.episode += 1
            self.vg = self._new(child_seed(self.seed, self.episode))  # the one derivation
        else:
            if self.in_hand:  # a hand cut short: play it out by check/call, its result unused
                before = int(self.vg.hands_played()[0])
                while int(self.vg.hands_played()[0]) == before:
                    self.vg.step([self.check_call])
                self.hand = int(self.vg.hands_played()[0])
            self.actor = int(self.actors[0])  # the same engine: its buffers are bound
        if seed is not None or self.hands > 1:
            self._bind()
        self.start_hands = self.hand
        self.started = self.in_hand = True
        self.__dict__.pop("broken", None)

    def play(self, action: object) -> tuple[np.ndarray | None, bool]:
        """Play ``action`` for the actor; return (rewards in bb or None, episode over).

        One step can end more than one hand: in a session, a hand whose forced bets leave
        nobody able to act is dealt out by the engine in the same step. Each is a hand of
        the episode; the rewards are the sum of their payoffs, and hands past the episode's
        last are not counted (nor paid)."""
        self.check_whole()
        code = int_or_none(action)  # numpy integers and 0-d integer arrays too, as HoldemEnv
        if code is None:
            raise IllegalActionError(f"an action must be a column index 0..{self.size - 1} "
                                     f"(an int), got {excerpt(action)}")
        action = code
        if not 0 <= action < self.size:  # outside the action space: a bug, in either mode
            raise IllegalActionError(not_a_column(int(action), self.vg.action_layout.names))
        if not self.mask[action]:
            if self.lenient:
                action = self.check_call
            else:
                self.vg.step([int(action)])  # raises IllegalActionError naming the legal columns
        try:  # (from here on the fields follow the engine: see ``broken``)
            self.last_actor = self.actor
            self.last_hand_no = self.hand
            self.col[0] = action
            self.run()  # checked against the mask above
            self.actor = int(self.actors[0])
            if not self.done[0]:
                return None, False
            played = int(self.vg.hands_played()[0]) if self.hands > 1 else self.hand + 1
            left = self.hands - (self.hand - self.start_hands)  # hands still to end
            ended, self.hand = played - self.hand, played
            if ended < left:
                return self.rewards[0].astype(np.float64), False
            self.in_hand = False
            if ended == left:
                return self.rewards[0].astype(np.float64), True
            return self._first_payoffs(left) / self.game.big_blind, True
        except BaseException:
            self.broken = True
            raise

    def _first_payoffs(self, count: int) -> np.ndarray:
        """The chips won or lost by each seat in the first ``count`` hands the last step
        ended: the hand its action ended, then the hands the engine dealt out after it, each
        started from the stacks the engine's session rule gives (``Batch.next_stacks``)."""
        record = self.vg._batch.history(0, True)  # (its actions may not be kept)
        carry = self.vg._batch.last_stacks(0)
        assert record is not None and carry is not None  # a hand just ended by an action
        total: np.ndarray = np.subtract(carry, record[1], dtype=np.float64)
        for j in range(count - 1):
            number = self.last_hand_no + 1 + j
            start = list(self.vg._batch.next_stacks(tuple(carry), j))
            hole, board = self.vg.cards(0, number)
            hand = self.game.new_hand(start, button=number % self.players,
                                      hole_cards=[list(h) for h in hole], board=list(board))
            dealt = hand.result_or_none()
            assert dealt is not None  # the engine dealt it out: nobody could act
            total += dealt.payoffs
            carry = dealt.final_stacks
        return total

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """``seat``'s view of the hand now: the actor gets the engine's row and mask; any other
        seat the row turned to it (its own cards), with a mask of zeros. Once the episode is
        over, every seat sees the hand as it stood at its last decision."""
        self.check_whole()
        if self.in_hand:
            if seat == self.actor:
                return {"observation": self.row.copy(), "action_mask": self.mask.copy()}
            row, actor, hand = self.row, self.actor, self.hand
        elif self.started:
            row, actor, hand = self.vg.final_observation[0], self.last_actor, self.last_hand_no
        else:
            raise IllegalActionError("call reset() first")
        if hand != self.holes_of:
            self.holes, self.holes_of = self.vg.cards(0, hand)[0], hand
        # (reseat without its checks: the row is the engine's, the cards the seed's)
        return {"observation": _reseated(row, self.players, (seat - actor) % self.players,
                                         self.holes[seat]),
                "action_mask": self.zero_mask.copy()}

    def spaces(self) -> tuple[spaces.Dict, spaces.Discrete]:
        obs = spaces.Dict({
            # 0 up to each column's largest value (inf for chips in a session of hands)
            "observation": spaces.Box(low=np.zeros(self.width, dtype=np.float32),
                                      high=np.array(self.vg.observation_high, np.float32),
                                      dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.size,), dtype=np.int8)})
        return obs, spaces.Discrete(self.size)

    def render(self, mode: str | None) -> str | None:
        """The table as text (every seat's hole cards: the view of a spectator), for
        ``render_mode`` "ansi" (returned) or "human" (printed); once the episode is over, the
        hand of its last decision."""
        if mode is None:
            return None
        if not self.started:
            text = "no hand yet: call reset()"
        else:
            played = self.hand - self.start_hands
            text = _shown_hand(self.vg, not self.in_hand, range(self.players),
                              title=f"hand {played + 1} of {self.hands}" if self.in_hand
                              else "episode over")
        if mode == "human":
            print(text)
            return None
        return text


def _attach(env: Any, game: Game | None, players: int, stacks: int | Sequence[int],
            actions: ActionLayout | str, hands: int, seed: int, illegal: str,
            render_mode: str | None) -> None:
    """Give ``env`` (AEC or parallel) its table, its agents and their spaces."""
    env.render_mode = check_render_mode(render_mode)
    env._core = _Core(Game(big_blind=2) if game is None else game, players, stacks, actions,
                      hands, seed, illegal)
    _agents(env)


def _agents(env: Any) -> None:
    """Give ``env`` the agents of its table and their spaces."""
    env.possible_agents = list(env._core.agents_all)
    env._obs_space, env._act_space = env._core.spaces()
    env.observation_spaces = dict.fromkeys(env.possible_agents, env._obs_space)
    env.action_spaces = dict.fromkeys(env.possible_agents, env._act_space)


# the fields of an AEC env once reset, besides its table's and the agents in play
_EPISODE = ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos",
            "agent_selection", "_rewarded")


def _restore(env: Any, state: object) -> None:
    """``__setstate__`` of both envs, checked: the table (``_core``, checked by its own
    unpickling) and the render mode as pickled; the agents (its seats') and their spaces made
    again from the table; the agents in play, and the AEC env's per-agent dicts and
    selection, as the table stands (a pickle with ``possible_agents`` cut short, or an agent
    missing from ``terminations``, failed at the next step with IndexError or KeyError)."""
    def bad(why: str) -> InvalidStateError:
        return InvalidStateError(f"not a valid pickled {type(env).__name__}: {why}")

    core = state.get("_core") if type(state) is dict else None
    if type(core) is not _Core or "run" not in core.__dict__:  # (its views: restored)
        raise bad("not an env's state")
    assert type(state) is dict
    episode = isinstance(env, HoldemAECEnv) and core.started  # (the AEC env's, once reset)
    if set(state) != {"render_mode", "_core", "possible_agents", "_obs_space", "_act_space",
                      "observation_spaces", "action_spaces", "agents",
                      *(_EPISODE if episode else ())}:
        raise bad("its fields are not the env's")
    mode, agents, every = state["render_mode"], state["agents"], core.agents_all
    if mode is not None and (type(mode) is not str or mode not in RENDER_MODES):
        raise bad(f"render_mode must be None, 'human' or 'ansi', got {excerpt(mode)}")
    if state["possible_agents"] != every:
        raise bad(f"possible_agents {excerpt(state['possible_agents'])} are not its table's "
                  f"{len(every)} seats")
    if core.in_hand:  # every agent plays
        playing: list[str] | None = every
    elif episode:  # the hand is over: the AEC env's agents leave one by one, in order
        playing = [a for a in every if a in agents] if type(agents) is list else None
    else:
        playing = []
    if type(agents) is not list or agents != playing:
        raise bad(f"agents {excerpt(agents)} are not those in play at its table")
    restored: dict[str, Any] = {"render_mode": mode, "_core": core, "agents": list(agents)}
    if episode:
        for name, kind in (("rewards", float), ("_cumulative_rewards", float),
                           ("infos", dict)):
            values = state[name]
            if type(values) is not dict or set(values) != set(agents) or not all(
                    type(v) is kind for v in values.values()):
                raise bad(f"{name} must hold a {kind.__name__} per agent in play")
            restored[name] = values
        for name, flag in (("terminations", not core.in_hand), ("truncations", False)):
            if state[name] != dict.fromkeys(agents, flag):
                raise bad(f"{name} must be {flag} for every agent in play")
            restored[name] = dict.fromkeys(agents, flag)
        chosen = state["agent_selection"]
        if type(chosen) is not str or not (chosen == every[core.actor] if core.in_hand
                                           else chosen in (agents or every)):
            raise bad(f"agent_selection {excerpt(chosen)} is not the agent to act")
        if type(state["_rewarded"]) is not bool:
            raise bad("_rewarded must be a bool")
        restored.update(agent_selection=chosen, _rewarded=state["_rewarded"])
    env.__dict__.update(restored)
    _agents(env)


def _repr(env: Any) -> str:
    """The call that makes an env of ``env``'s class with its arguments (``seed``: the one
    the env plays from now, the last given to ``reset``), as :class:`VectorGame` shows itself."""
    c: _Core = env._core
    illegal = "check_call" if c.lenient else "raise"
    return (f"{type(env).__name__}({c.game!r}, players={c.players}, stacks={c.stacks!r}, "
            f"actions={c.actions!r}, hands={literal(c.hands)}, seed={c.seed!r}, illegal={illegal!r}, "
            f"render_mode={env.render_mode!r})")


class HoldemAECEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """Texas Hold'em as a PettingZoo AEC environment (turn by turn).

    ``game``: blinds, antes, straddle, structure and rake (default ``Game(big_blind=2)``);
    ``players`` 2-10; ``stacks`` chips per seat (an int or one per seat); ``actions`` an
    :class:`holdem.vector.ActionLayout` or a preset name (``"default"``, ``"fcpa"``,
    ``"fchpa"``); ``hands`` hands per episode (1: fresh stacks; more: a session with stacks
    carried over); ``seed`` the seed used until ``reset(seed=...)`` gives another;
    ``illegal`` what an int action on a masked column does: ``"raise"`` (the default) raises
    :class:`holdem.IllegalActionError` and changes nothing, ``"check_call"`` plays check/call
    instead (for samplers that ignore the mask); an action that is not an int, or not a
    column index ``0..A-1``, always raises. ``render_mode``: None, ``"ansi"`` (:meth:`render` returns the table as
    text, every seat's cards shown) or ``"human"`` (it prints that text).
    """

    _core: _Core
    _obs_space: spaces.Dict
    _act_space: spaces.Discrete
    # not parallelizable: seats act in the betting order, not in a cycle of every agent, so
    # PettingZoo's aec_to_parallel cannot step it (HoldemParallelEnv is the parallel API)
    metadata: ClassVar[dict[str, Any]] = {"name": "holdem_v0", "render_modes": list(RENDER_MODES),
                                          "is_parallelizable": False}

    def __init__(self, game: Game | None = None, *, players: int = 2,
                 stacks: int | Sequence[int] = 200, actions: ActionLayout | str = "default",
                 hands: int = 1, seed: int = 0, illegal: str = "raise",
                 render_mode: str | None = None) -> None:
        super().__init__()
        _attach(self, game, players, stacks, actions, hands, seed, illegal, render_mode)
        self.agents: list[str] = []

    @property
    def vector_game(self) -> VectorGame:
        """The one-table engine underneath (``hand_state(0)``, ``last_hand(0)``, ...)."""
        return self._core.vg

    __reduce__ = reduce_with_state  # (a pickle always carries the state it is checked by)
    __setstate__ = _restore

    def __repr__(self) -> str:
        return _repr(self)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # options are taken and unused, as PettingZoo's envs do (its api_test and seed_test
        # pass options={"options": 1}); there is no partial reset of one table to ask for
        try:  # (inside: stopped as the core's reset returns, the env showed the last episode)
            self._core.reset(seed)
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection = self.possible_agents[self._core.actor]
            self._rewarded = False  # self.rewards holds a hand's payoffs (zeroed at the next step)
        except HoldemError:
            raise  # a seed refused: the core says whether anything changed
        except BaseException:  # stopped with the last episode's agent selected, maybe
            self._core.broken = True
            raise

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        try:
            seat = self._core.seat_of.get(agent)
        except TypeError:  # unhashable: not an agent's name
            seat = None
        if seat is None:
            raise InvalidConfigError(f"unknown agent {excerpt(agent)}; agents: "
                                     f"{', '.join(self.possible_agents)}")
        return self._core.observe(seat)

    @overload
    def last(self, observe: Literal[True] = True) -> tuple[dict[str, np.ndarray], float, bool,
                                                            bool, dict[str, Any]]: ...
    @overload
    def last(self, observe: bool) -> tuple[dict[str, np.ndarray] | None, float, bool, bool,
                                           dict[str, Any]]: ...

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool,
                                                   bool, dict[str, Any]]:
        """The acting agent's observation (``None`` with ``observe=False``), cumulative reward,
        termination, truncation and info."""
        if not self.agents:
            raise IllegalActionError("no agent to act: call reset() (the episode is over or "
                                     "has not started)")
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def step(self, action: int | None) -> None:
        if not self.agents:
            raise IllegalActionError("no agent to act: call reset() (the episode is over or "
                                     "has not started)")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(f"{agent}'s episode is over: its only action is None, "
                                         f"got {excerpt(action)}")
            self._remove(agent)
            return
        try:
            rewards, over = self._core.play(action)
            cumulative = self._cumulative_rewards
            cumulative[agent] = 0.0
            if rewards is not None:
                rew = self.rewards
                for k, a in enumerate(self.possible_agents):
                    rew[a] = r = float(rewards[k])
                    cumulative[a] += r
                self._rewarded = True
            elif self._rewarded:
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._rewarded = False
            if over:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.agent_selection = self.possible_agents[self._core.actor]
        except HoldemError:
            raise  # refused before the table moved, or the core marked itself broken
        except BaseException:  # stopped with the agent selected before the step, maybe
            self._core.broken = True
            raise

    def _remove(self, agent: str) -> None:
        """The step of a finished agent (as ``AECEnv._was_dead_step``; every agent finishes
        together here): it leaves, the next one is selected, the rewards are cleared."""
        del self.terminations[agent], self.truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False

    def render(self) -> str | None:
        return self._core.render(self.render_mode)

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
    metadata: ClassVar[dict[str, Any]] = {"name": "holdem_parallel_v0",
                                          "render_modes": list(RENDER_MODES)}

    def __init__(self, game: Game | None = None, *, players: int = 2,
                 stacks: int | Sequence[int] = 200, actions: ActionLayout | str = "default",
                 hands: int = 1, seed: int = 0, illegal: str = "raise",
                 render_mode: str | None = None) -> None:
        _attach(self, game, players, stacks, actions, hands, seed, illegal, render_mode)
        self.agents: list[str] = []

    @property
    def vector_game(self) -> VectorGame:
        return self._core.vg

    __reduce__ = reduce_with_state  # (a pickle always carries the state it is checked by)
    __setstate__ = _restore

    def __repr__(self) -> str:
        return _repr(self)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space  # one space object per env, as the API test requires

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _all_obs(self) -> dict[str, dict[str, np.ndarray]]:
        return {a: self._core.observe(k) for k, a in enumerate(self.possible_agents)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        # options: taken and unused (see HoldemAECEnv.reset)
        try:  # (inside, as in HoldemAECEnv.reset)
            self._core.reset(seed)
            self.agents = list(self.possible_agents)
            return self._all_obs(), {a: {} for a in self.agents}
        except HoldemError:
            raise  # a seed refused (see HoldemAECEnv.reset)
        except BaseException:  # stopped with the last episode's agents, maybe none
            self._core.broken = True
            raise

    def step(self, actions: dict[str, int]) -> tuple[
            dict[str, dict[str, np.ndarray]], dict[str, float], dict[str, bool],
            dict[str, bool], dict[str, dict[str, Any]]]:
        if not self.agents:
            raise IllegalActionError("the episode is over: call reset()")
        if not isinstance(actions, Mapping):
            raise IllegalActionError(f"actions must be a dict of agent name -> action (the "
                                     f"acting agent's is played), got {excerpt(actions)}")
        unknown = [a for a in actions if a not in self.possible_agents]
        if unknown:  # (a misspelt name would be ignored like another agent's action)
            raise IllegalActionError(f"actions for agents not in this game: "
                                     f"{excerpt(unknown)}; the agents are "
                                     f"{', '.join(self.possible_agents)}")
        actor = self.possible_agents[self._core.actor]
        if actor not in actions:
            raise IllegalActionError(f"no action for the acting agent {actor}")
        try:
            rewards, over = self._core.play(actions[actor])
            rew = {a: 0.0 if rewards is None else float(rewards[k])
                   for k, a in enumerate(self.possible_agents)}
            term = dict.fromkeys(self.possible_agents, over)
            trunc = dict.fromkeys(self.possible_agents, False)
            obs = self._all_obs()
            infos: dict[str, dict[str, Any]] = {a: {} for a in self.possible_agents}
            if over:
                self.agents = []
        except HoldemError:
            raise  # refused before the table moved, or the core marked itself broken
        except BaseException:  # stopped with the episode still open after its last hand
            self._core.broken = True
            raise
        return obs, rew, term, trunc, infos

    def render(self) -> str | None:
        return self._core.render(self.render_mode)

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
