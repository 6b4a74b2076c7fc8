"""Gymnasium environments over the batched engine: :class:`HoldemVectorEnv` and :class:`HoldemEnv`.

>>> import numpy as np
>>> from holdem import Game
>>> from holdem.rl.gymnasium import HoldemVectorEnv
>>> envs = HoldemVectorEnv(Game(big_blind=2), num_envs=64, players=6, stacks=200)
>>> obs, info = envs.reset(seed=1)
>>> obs.shape, info["action_mask"].shape, envs.single_action_space
((64, 269), (64, 6), Discrete(6))
>>> obs, reward, terminated, truncated, info = envs.step(np.ones(64, dtype=np.int64))

Both share the batched engine's encoding (:class:`holdem.vector.ObservationSpec`, version 1,
relative to the seat to act; :class:`holdem.vector.ActionLayout` columns). The legal columns
are ``info["action_mask"]`` (bool). An action on a masked column plays check/call
(``illegal="check_call"``, the default, as Gymnasium agents may sample the whole action
space) or raises :class:`holdem.IllegalActionError` (``illegal="raise"``).

Importing this module registers two ids with Gymnasium:

- ``holdem/Holdem-v0``, :class:`HoldemEnv` (``gymnasium.make("holdem/Holdem-v0",
  players=3)``; the keyword arguments are :class:`HoldemEnv`'s; ``gymnasium.make_vec`` of it
  runs copies of that one-table env in Gymnasium's ``SyncVectorEnv``);
- ``holdem/SelfPlay-v0``, :class:`HoldemVectorEnv`, a vector env only:
  ``gymnasium.make_vec("holdem/SelfPlay-v0", num_envs=4096, players=6)`` (the keyword
  arguments are :class:`HoldemVectorEnv`'s); ``gymnasium.make`` of it raises
  :class:`holdem.InvalidConfigError`.

In a fresh interpreter name the module in the id and Gymnasium imports it:
``gymnasium.make("holdem.rl.gymnasium:holdem/Holdem-v0", players=3)``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, SupportsIndex

from holdem._ints import int_or_none
from holdem._shown import excerpt, shown
from holdem.rl import missing_extra

try:  # the optional rl extra
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.envs.registration import EnvSpec
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError as _exc:
    raise ImportError(missing_extra(__name__, _exc)) from _exc

from holdem import (
    Game,
    HoldemError,
    IllegalActionError,
    InvalidConfigError,
    InvalidStateError,
    _memory,
)
from holdem._vector import MAX_TABLES as _MAX_TABLES
from holdem._vector import actor_rewards, first_outside
from holdem.rl import (
    RENDER_MODES,
    _shown_hand,
    check_render_mode,
    checked_restore,
    env_seed,
    kept_stacks,
    not_a_column,
    reduce_with_state,
)
from holdem.vector import ActionLayout, ObservationSpec, VectorGame, _bytes_per_table

__all__ = ["ENV_ID", "SELF_PLAY_ID", "HoldemEnv", "HoldemVectorEnv", "Policy", "RandomPolicy"]

ENV_ID = "holdem/Holdem-v0"
"""The id of :class:`HoldemEnv` in Gymnasium's registry."""

SELF_PLAY_ID = "holdem/SelfPlay-v0"
"""The id of :class:`HoldemVectorEnv` in Gymnasium's registry (``gymnasium.make_vec``)."""

Policy = Callable[[np.ndarray, np.ndarray], SupportsIndex]
"""An opponent: ``policy(observation, action_mask) -> action column``, the column an integer
of any type (a Python int, a numpy integer such as ``np.argmax``'s, a 0-d integer array)."""


def _illegal(value: str) -> bool:
    if not isinstance(value, str) or value not in ("check_call", "raise"):
        raise InvalidConfigError(f"illegal must be 'check_call' or 'raise', got {excerpt(value)}")
    return value == "raise"


def _obs_box(vg: VectorGame, rows: int | None = None) -> spaces.Box:
    """One table's observation space (or ``rows`` tables'): 0 up to each column's largest
    value (:attr:`VectorGame.observation_high`: finite unless stacks carry over)."""
    high = np.array(vg.observation_high, dtype=np.float32)
    if rows is not None:
        high = np.tile(high, (rows, 1))
    return spaces.Box(low=np.zeros_like(high), high=high, dtype=np.float32)


# bytes per table and observation column besides the engine's: the observation space's
# bounds (float32 low and high, their bool flags) and a step's copies (the observations, the
# final rows), about 28 per column as measured (peak resident memory over reset and steps)
_ENV_BYTES_PER_COLUMN = 28


def _vector_env_bytes(num_envs: object, players: object, actions: object,
                      final: bool) -> int | None:
    """The memory of a :class:`HoldemVectorEnv` of ``num_envs`` tables: its engine's (with
    the final observations when ``final``) and its own per table; None for arguments
    :class:`VectorGame` refuses (it says why)."""
    n, p = int_or_none(num_envs), int_or_none(players)
    if n is None or p is None or not 1 <= n <= _MAX_TABLES or not 2 <= p <= 10:
        return None
    try:
        layout = ActionLayout.preset(actions) if isinstance(actions, str) else actions
    except HoldemError:
        return None
    if not isinstance(layout, ActionLayout):
        return None
    return n * (_bytes_per_table(p, layout, final) + 2 * layout.size + 64
                + _ENV_BYTES_PER_COLUMN * ObservationSpec(p).width)


class _Claim:
    """One call's hold on a :class:`HoldemVectorEnv` (its ``_holder``), with its thread: a
    call gives back only the hold it took, which it tells by identity."""

    __slots__ = ("thread",)

    def __init__(self) -> None:
        self.thread = threading.get_ident()


_VECTOR_BROKEN = ("a step or reset of this env was stopped part-way (an interrupt; see that "
                  "error), so its tables may have moved without the env showing it: call "
                  "reset()")


class HoldemVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` tables of self-play: one Gymnasium vector env over :class:`VectorGame`.

    Each sub-environment is a table; each step plays one action for the seat to act on every
    table (one policy plays every seat). When a hand ends on table ``i`` the next hand is dealt
    in the same step (``autoreset_mode`` ``SAME_STEP``): ``terminated[i]`` is True, ``obs[i]``
    is the new hand's first observation and ``reward[i]`` is the hand's payoff, in big blinds,
    of the seat that acted. As Gymnasium's ``SyncVectorEnv`` does in this mode, a step in
    which some hand ended adds ``info["final_obs"]``, an object array of N entries: for such a
    table the ended hand's final observation, the row the seat that acted saw at that last
    decision (the hand as it stood then: a finished hand has no seat to act; a copy whatever
    ``copy`` is); ``None`` elsewhere. ``info["_final_obs"]`` is its (N,) bool mask
    (``terminated``); ``info["final_info"]`` is ``{}`` with the mask ``info["_final_info"]``.
    Keeping and building those rows makes a step about 1.4x-1.7x slower at 4,096 6-max
    tables with ``copy=False`` (the engine copies each finished hand's last row aside, then
    the env gathers them); ``final_obs=False`` leaves the four keys out and, in this mode,
    the engine keeps no final rows (a finished hand's value is 0, so self-play rarely needs
    them). ``info``:
    ``action_mask`` (N, A) bool, ``current_player`` (N,) the seat to act now, ``actor`` (N,)
    the seat that acted, ``rewards`` (N, P) every seat's payoff in big blinds of the hand that
    ended (zeros elsewhere). With ``session=True`` a
    hand whose forced bets leave nobody able to act is dealt out in the step that ended the
    hand before it: that step's rewards are the sum of both hands' payoffs.

    ``illegal``: what a masked column does: ``"check_call"`` (the default) plays check/call
    on that table, ``"raise"`` refuses the whole step with
    :class:`~holdem.errors.IllegalActionError` (no table moves). A column outside the action
    space (not ``0..A-1``) is refused that way whatever ``illegal`` says. ``actions`` must be
    N ints of shape (N,) (the action space's shape): any other shape, or values that are not
    integers, raise :class:`~holdem.errors.InvalidArrayError`. ``copy``: as Gymnasium's
    ``SyncVectorEnv``: True (the default) returns new arrays from ``reset`` and ``step``; False
    returns the engine's own observation, termination and mask arrays, which the next step
    overwrites (no copy of the (N, F) observations per step).

    ``autoreset_mode``: ``"same_step"`` (the default, above) or ``"next_step"`` (Gymnasium's
    own default, which its observation wrappers such as ``NormalizeObservation`` require; an
    :class:`gymnasium.vector.AutoresetMode` is taken too). With ``"next_step"``, the step that
    ends a hand on table ``i`` returns ``terminated[i]`` True, the reward as above and, as the
    final observation, the row the seat that acted saw at that last decision (the hand as it
    stood then); ``info["action_mask"][i]`` then holds check/call only and
    ``info["current_player"][i]`` is that seat. The next step ignores table ``i``'s action
    (the table is held: :meth:`holdem.vector.VectorGame.step_async`'s ``hold``) and returns
    the new hand's first observation with reward 0, ``terminated`` False and
    ``info["actor"][i]`` -1. It returns new
    observation arrays whatever ``copy`` is (the engine keeps the final rows:
    :attr:`holdem.vector.VectorGame.final_observation`).

    The other arguments are those of :class:`holdem.vector.VectorGame` (``game``: no-limit
    1/2 when None; ``session=True``: stacks carried over; ``num_threads``). ``num_envs``
    tables that would take more than the machine's physical memory (about 11 KB each at 2
    seats, 13 KB at 10, with the spaces and a step's copies) are refused before anything is
    allocated, with :class:`~holdem.errors.InvalidConfigError` naming the bytes.
    ``reset(seed=s)`` starts table ``i`` from hand 0 of seed ``s`` (and seeds ``np_random``
    with ``s``, as Gymnasium's ``VectorEnv.reset`` does); ``reset()`` without a seed resets
    every table as a ``reset_mask`` of all tables does (below): each shows a hand nobody has
    acted in yet.
    ``reset(options={"reset_mask": m})`` (``m`` a numpy bool array of shape (N,), as
    Gymnasium's vector envs take it) resets the tables flagged: each shows a hand nobody has
    acted in yet. On a table whose hand is in play that hand is voided (nobody pays; see
    :meth:`holdem.vector.VectorGame.abandon`) and the table's next hand is dealt; a table
    showing a finished hand (next-step mode) shows the hand already dealt after it. The
    other tables stay as the last step left them; the batch keeps its seed (a partial reset
    with a seed is refused). No other option is taken.

    ``step_async(actions)`` and ``step_wait()`` split :meth:`step` in two, as Gymnasium's
    ``AsyncVectorEnv`` does: with ``num_threads`` >= 2 the engine's threads play the step
    while the caller goes on (a learner update, say), and ``step_wait`` returns what ``step``
    would have. One step may be pending at a time; a call of another thread meanwhile raises
    :class:`~holdem.errors.IllegalActionError`. A step, step_wait or reset stopped part-way
    (Ctrl-C) leaves the env refusing steps until :meth:`reset` (the tables may have moved
    without the env showing it).

    ``render_mode``: ``"ansi"`` (:meth:`render` returns a tuple of N texts, as Gymnasium's
    ``SyncVectorEnv`` returns one frame per sub-env: table ``i``'s hand as the policy that
    plays every seat knows it, every seat's hole cards shown, with the board, the pot, the
    stacks and bets and the seat to act; in next-step mode a table showing a finished hand
    shows that hand and its payoffs) or ``"human"`` (it prints those texts).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP,  # noqa: RUF012 - Gymnasium's
                "render_modes": list(RENDER_MODES), "render_fps": 4}

    def __init__(self, game: Game | None = None, *, num_envs: int, players: int = 2,
                 stacks: int | Sequence[int] = 200, actions: ActionLayout | str = "default",
                 session: bool = False, seed: int = 0, num_threads: int = 1,
                 illegal: str = "check_call", copy: bool = True,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
                 final_obs: bool = True, render_mode: str | None = None) -> None:
        self.render_mode = check_render_mode(render_mode)
        n = int_or_none(num_envs)  # (checked here to name it as given: the engine's num_tables)
        if n is None:
            raise InvalidConfigError(f"num_envs must be an int, got {excerpt(num_envs)}")
        if not 1 <= n <= _MAX_TABLES:
            raise InvalidConfigError(f"num_envs must be 1..{_MAX_TABLES}, got {shown(n)}")
        self._args = dict(num_tables=n, players=players, stacks=stacks,
                          session=session, actions=actions, num_threads=num_threads)
        self._game = game = Game(big_blind=2) if game is None else game
        self._raise = _illegal(illegal)
        if not isinstance(copy, bool):
            raise InvalidConfigError(f"copy must be True or False, got {excerpt(copy)}")
        self._copy = copy
        if not isinstance(final_obs, bool):
            raise InvalidConfigError(f"final_obs must be True or False, got {excerpt(final_obs)}")
        self._final_obs = final_obs
        modes = {"same_step": AutoresetMode.SAME_STEP, "next_step": AutoresetMode.NEXT_STEP,
                 # the enum's values, as Gymnasium's own vector envs take them
                 "samestep": AutoresetMode.SAME_STEP, "nextstep": AutoresetMode.NEXT_STEP}
        mode = modes.get(autoreset_mode.lower()) if isinstance(autoreset_mode, str) else (
            autoreset_mode if isinstance(autoreset_mode, AutoresetMode)
            and autoreset_mode in modes.values() else None)
        if mode is None:
            raise InvalidConfigError(f"autoreset_mode must be 'same_step' or 'next_step' (or "
                                     f"AutoresetMode.SAME_STEP / NEXT_STEP, or their values "
                                     f"'SameStep' / 'NextStep'), got "
                                     f"{excerpt(autoreset_mode)}")
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self._next_step = mode is AutoresetMode.NEXT_STEP
        # the engine keeps each finished hand's last row where a step shows it (next-step mode,
        # or same-step mode's info["final_obs"]); else copying it and its rows cost for nothing
        keep = self._args["final_observation"] = self._next_step or final_obs
        need = _vector_env_bytes(num_envs, players, actions, keep)  # (before any allocation)
        what = (f"{int_or_none(num_envs):,} tables and their spaces" if need is not None
                else "the tables and their spaces")  # (None: VectorGame refuses num_envs)
        advice = "use fewer tables (num_envs), or split them over several envs"
        if need is not None:
            _memory.check_fits(need, what, advice)
        self._vg = VectorGame(game, seed=env_seed(seed), **self._args)  # type: ignore[arg-type]
        self._args["stacks"] = kept_stacks(stacks, self._vg)
        self._started = False
        self.num_envs = num_envs = self._vg.num_tables  # (checked: plain ints)
        self.players = self._vg.players
        size = self._size = self._vg.action_layout.size
        self.single_observation_space = _obs_box(self._vg)
        self.single_action_space = spaces.Discrete(size)
        try:
            self.observation_space = _obs_box(self._vg, num_envs)
            self.action_space = spaces.MultiDiscrete(np.full(num_envs, size))
        except MemoryError:  # (another limit than the machine's: ulimit -v, a container)
            self._vg.close()
            raise _memory.no_memory(need or 0, what, advice) from None
        self._pending: np.ndarray | None = None  # the actors of a step_async not waited for
        # the call holding the env (a _Claim; None: free), from a step_async to its step_wait
        # and through a step or a reset: a second Python thread is refused (its step would
        # come between this one's and its outputs). Taken under _lock inside each call's try
        # block, and given back by a plain store, so that an interrupt (Ctrl-C) landing
        # anywhere cannot leave it held.
        self._lock = threading.Lock()
        self._holder: _Claim | None = None
        self._broken = False  # a step or reset stopped part-way: step refuses until reset
        # next_step: the tables whose hand ended in the last step (held in the next)
        self._ended = np.zeros(num_envs, dtype=bool)
        self._last_actor = np.full(num_envs, -1, dtype=np.int64)  # who acted in the last step
        self._cc = self._vg.action_layout.names.index("check_call")

    @property
    def vector_game(self) -> VectorGame:
        """The engine underneath (its ``hand_state(i)``, ``last_hand(i)``, ...)."""
        return self._vg

    def _out(self, a: np.ndarray) -> np.ndarray:
        return a.copy() if self._copy else a

    def _info(self, actor: np.ndarray | None, rewards: np.ndarray | None) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._out(self._vg.legal_mask),
                                "current_player": self._out(self._vg.current_player)}
        if actor is not None:
            info["actor"] = actor
        if rewards is not None:
            info["rewards"] = rewards
        return info

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        if isinstance(seed, list):
            raise InvalidConfigError("seed must be one int: table i's cards come from (seed, i)")
        mask = self._reset_mask(options, seed)
        self._not_pending("reset")
        claim = _Claim()
        try:
            self._take(claim)
            out = self._reset(seed, mask)
            self._broken = False
            return out
        except HoldemError:
            raise  # refused (a bad seed): nothing changed
        except BaseException:
            if self._holder is claim:
                self._broken = True  # stopped part-way: steps refuse until a reset completes
            raise
        finally:
            if self._holder is claim:
                self._holder = None

    def _reset(self, seed: object, mask: np.ndarray | None
               ) -> tuple[np.ndarray, dict[str, Any]]:
        if mask is not None:
            return self._partial_reset(mask)
        if seed is None and self._started:
            # every table, as Gymnasium's reset() resets every sub-env: the hands in play
            # are voided and the next ones dealt (the tables keep their seed)
            return self._partial_reset(np.ones(self.num_envs, dtype=bool))
        if seed is not None:
            seed = env_seed(seed)
            self._vg.close()
            self._vg = VectorGame(self._game, seed=seed, **self._args)  # type: ignore[arg-type]
            self._started = False
            # np_random and np_random_seed, as VectorEnv.reset seeds them (the seed is an int
            # 0..2**64-1, numpy integers too: the engine has taken it)
            super().reset(seed=int_or_none(seed))
        if not self._started:
            self._vg.reset()
            self._started = True
        self._ended[:] = False
        return self._out(self._vg.observation), self._info(None, None)

    def _reset_mask(self, options: object, seed: object) -> np.ndarray | None:
        """The tables ``options["reset_mask"]`` asks to reset (None: no partial reset), as
        Gymnasium's vector envs check it: a numpy bool array of shape (N,), one True at
        least. No other option is taken."""
        if isinstance(options, dict) and set(options) == {"reset_mask"}:
            mask = options["reset_mask"]
            if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ \
                    or mask.shape != (self.num_envs,):
                raise InvalidConfigError(
                    f"options['reset_mask'] must be a numpy bool array of shape "
                    f"({self.num_envs},), got {excerpt(mask)}")
            if not mask.any():
                raise InvalidConfigError("options['reset_mask'] must flag at least one table")
            if seed is not None:
                raise InvalidConfigError(
                    "a partial reset (reset_mask) keeps the batch's seed: table i's cards "
                    "come from (seed, i, hand number); reset(seed=s) without it reseeds "
                    "every table")
            if not self._started:
                raise IllegalActionError("a partial reset (reset_mask) resets tables of a "
                                         "started batch: call reset() first")
            return mask
        _no_options(options, "the only option is reset_mask (a partial reset); a table deals "
                             "its next hand itself when one ends (autoreset), and "
                             "reset(seed=s) restarts every table")
        return None

    def _partial_reset(self, mask: np.ndarray) -> tuple[np.ndarray, dict[str, Any]]:
        """Gymnasium's ``reset_mask``: each flagged table shows a hand nobody has acted in
        yet. One whose hand ended in the last step (next-step mode) shows the hand already
        dealt after it; on the others the hand in play is voided
        (:meth:`holdem.vector.VectorGame.abandon`). The other tables are as the last step
        left them (in next-step mode a finished hand's final row, as that step gave)."""
        void = mask & ~self._ended
        if void.any():
            self._vg.abandon(void)
        self._ended &= ~mask
        info = self._info(None, None)
        if self._ended.any():
            return self._show_ended(self._vg.observation, info), info
        return self._out(self._vg.observation), info

    def _show_ended(self, obs: np.ndarray, info: dict[str, Any]) -> np.ndarray:
        """Next-step mode: the rows of the tables in ``_ended`` show their finished hand (the
        final row, check/call only, the seat that acted last) in a new observation array;
        ``info``'s mask and current player are changed in copies."""
        ended = self._ended
        out = obs.copy()
        out[ended] = self._vg.final_observation[ended]
        mask = info["action_mask"]
        if not mask.flags.writeable:  # the engine's own (copy=False)
            mask = info["action_mask"] = mask.copy()
        mask[ended] = False
        mask[ended, self._cc] = True
        current = info["current_player"] = info["current_player"].astype(np.int32, copy=True)
        current[ended] = self._last_actor[ended]
        return out

    def _not_pending(self, what: str) -> None:
        if self._pending is not None:
            raise IllegalActionError(f"{what}: a step_async is pending; call step_wait() first")

    def __getstate__(self) -> dict[str, Any]:
        """The env's fields but its locks (a copy gets its own, see :meth:`__setstate__`)."""
        state = dict(self.__dict__)
        for name in ("_lock", "_holder"):
            state.pop(name, None)
        return state

    __reduce__ = reduce_with_state  # (a pickle always carries the state it is checked by)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Checked as :class:`HoldemEnv`'s: the arguments through the constructor, the engine
        against them, the step's arrays of the engine's shape and seats (a pickle with
        ``_vg=None`` or ``_ended`` of another length failed only at the next step or reset)."""
        def bad(why: str) -> InvalidStateError:
            return InvalidStateError(f"not a valid pickled HoldemVectorEnv: {why}")

        args = state.get("_args") if type(state) is dict else None
        vg = state.get("_vg") if type(state) is dict else None
        if (type(args) is not dict or type(vg) is not VectorGame
                or args.get("num_tables") != vg.num_tables  # (before a fresh engine is made)
                or type(state.get("_raise")) is not bool
                or type(state.get("_next_step")) is not bool):
            raise bad("not an env's state")
        try:
            fresh = HoldemVectorEnv(
                state["_game"], num_envs=args["num_tables"], players=args["players"],
                stacks=args["stacks"], actions=args["actions"], session=args["session"],
                num_threads=args["num_threads"],
                illegal="raise" if state["_raise"] else "check_call", copy=state["_copy"],
                autoreset_mode="next_step" if state["_next_step"] else "same_step",
                final_obs=state["_final_obs"], render_mode=state["render_mode"])
        except (KeyError, TypeError, HoldemError) as exc:
            raise bad(str(exc)[:300]) from None
        if args != fresh._args:
            raise bad("its engine's arguments are not its own")
        restored = checked_restore(
            "HoldemVectorEnv", state, {**fresh.__getstate__(), **_gymnasium_fields(
                "HoldemVectorEnv", state)}, "_vg", {"_started": bool, "_broken": bool})
        n, started, ended = fresh.num_envs, restored["_started"], state["_ended"]
        if started != vg._started:
            raise bad("_started is not its engine's")
        if not (type(ended) is np.ndarray and ended.dtype == np.bool_ and ended.shape == (n,)):
            raise bad(f"_ended must be {n} bools")
        if ended.any() and not (started and fresh._next_step):
            raise bad("_ended flags tables: only a started batch in next-step mode holds any")
        if state["_pending"] is not None and not started:
            raise bad("a step is pending in a batch never reset")
        restored["_ended"] = ended.copy()  # (the env's own arrays: steps write them in place)
        for name in ("_last_actor", "_pending"):
            seats = state[name]
            if seats is None and name == "_pending":
                continue
            if not (type(seats) is np.ndarray and seats.dtype == np.int64
                    and seats.shape == (n,) and ((seats >= -1) & (seats < fresh.players)).all()):
                raise bad(f"{name} must be {n} seats -1..{fresh.players - 1} (int64)")
            restored[name] = seats.copy()
        self.__dict__.update(restored)
        self._lock = threading.Lock()
        # a step_async pending: this thread's to wait for
        self._holder = _Claim() if self._pending is not None else None

    def _take(self, claim: _Claim) -> None:
        """Hold the env for ``claim``'s call, or refuse: another thread has it (or a call of
        this thread is under way, from a signal handler say)."""
        with self._lock:
            if self._holder is not None:
                raise IllegalActionError("this env is in use by another thread (a step or a "
                                         "reset in progress): step it from one thread at a "
                                         "time")
            self._holder = claim

    def _ready_to_step(self, what: str) -> None:
        if not self._started:
            raise IllegalActionError("call reset() first")
        self._not_pending(what)
        if self._broken:
            raise IllegalActionError(_VECTOR_BROKEN)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        self._ready_to_step("step")
        claim = _Claim()
        try:  # step_async and step_wait in one try block: no step is left pending
            self._take(claim)
            return self._step_wait(self._step_async(actions))
        except HoldemError:
            raise  # refused (an illegal action, another thread's step): no table moved
        except BaseException:
            if self._holder is claim:
                self._broken = True  # stopped part-way: the tables may have moved
            raise
        finally:
            if self._holder is claim:
                self._holder = None

    def step_async(self, actions: Any) -> None:
        """Start a step (see the class docstring); an illegal action with ``illegal="raise"``
        raises here, and then no step is pending."""
        self._ready_to_step("step_async")
        claim = _Claim()
        try:
            self._take(claim)  # given back by step_wait, or here when no step starts
            self._pending = self._step_async(actions)
        except HoldemError:
            if self._holder is claim:  # refused: no table moved
                self._holder = None
            raise
        except BaseException:
            if self._holder is claim:  # stopped part-way: the tables may have moved
                self._broken = True
                self._holder = None
            raise

    def _step_async(self, actions: Any) -> np.ndarray:
        """:meth:`step_async`'s step; returns the actors of the step started."""
        actor: np.ndarray = self._vg.current_player.astype(np.int64)
        # the engine checks the array (ints, N of them); unchecked, it plays check/call for a
        # masked column. Columns outside the action space are refused here, in either mode.
        hold = None
        try:
            given = np.asarray(actions)
        except (ValueError, TypeError):  # ragged or odd: the engine names what is wrong
            given = np.zeros(0)
        ints = given.shape == (self.num_envs,) and given.dtype.kind in "iu"
        # tables showing a finished hand: held (count_nonzero: a C call, .any() a Python one)
        if self._next_step and np.count_nonzero(self._ended):
            hold = self._ended.copy()
            if ints:
                given = np.where(hold, self._cc, given)  # their actions are ignored
                actions = given
        if ints:
            self._check_space(given)
        self._vg.step_async(actions, checked=self._raise, hold=hold)
        if hold is not None:
            actor[hold] = -1  # nobody acts on a held table
        return actor

    def _check_space(self, cols: np.ndarray) -> None:
        """IllegalActionError naming the first table whose column is not in 0..A-1."""
        size = self._size
        if cols.dtype == np.int64 and cols.flags.c_contiguous and cols.flags.aligned:
            k = first_outside(cols, size)  # the usual batch: one pass in C
        else:
            outside = cols >= size if cols.dtype.kind == "u" else (cols < 0) | (cols >= size)
            k = int(outside.argmax()) if outside.any() else -1
        if k >= 0:
            raise IllegalActionError(f"table {k}: "
                                     f"{not_a_column(int(cols[k]), self._vg.action_layout.names)}"
                                     "; no table moved")

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                 dict[str, Any]]:
        """Wait for the step :meth:`step_async` started; return what :meth:`step` returns."""
        # another thread's call is refused before anything is taken (the pending step is
        # left whole for its own thread)
        claim = self._holder
        if self._pending is None:
            raise IllegalActionError("step_wait: no step_async to wait for")
        if claim is None or claim.thread != threading.get_ident():
            raise IllegalActionError("step_wait: the step_async pending is another "
                                     "thread's: step the env from one thread at a time")
        try:
            # taken whole or not at all; stopped before it, the step stays pending, held
            actor, self._pending = self._pending, None
            if actor is None:  # taken by a step_wait of this thread that re-entered
                raise IllegalActionError("step_wait: no step_async to wait for")
            return self._step_wait(actor)
        except BaseException:
            if self._pending is None:  # the step taken and not shown: refused until reset
                self._broken = True
            raise
        finally:
            if self._pending is None and self._holder is claim:
                self._holder = None

    def _step_wait(self, actor: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                     np.ndarray, dict[str, Any]]:
        obs, rewards, done = self._vg.step_wait()
        seat_rewards = rewards.copy()
        reward = np.empty(self.num_envs)  # the acting seat's payoff where its hand ended, else 0
        actor_rewards(seat_rewards, actor, done.view(np.uint8), reward)
        if not self._next_step:
            info = self._info(actor, seat_rewards)
            if self._final_obs and np.count_nonzero(done):
                self._add_final(info, done)
            return (self._out(obs), reward, self._out(done),
                    np.zeros(self.num_envs, dtype=bool), info)
        np.copyto(self._ended, done)
        self._last_actor = actor.copy()  # (info['actor'] is the caller's)
        info = self._info(actor, seat_rewards)
        # the finished hands, as their last decisions showed them
        out = self._show_ended(obs, info) if np.count_nonzero(done) else obs.copy()
        return out, reward, done.copy(), np.zeros(self.num_envs, dtype=bool), info

    def _add_final(self, info: dict[str, Any], done: np.ndarray) -> None:
        """Same-step mode: the ended hands' final observations, as ``SyncVectorEnv`` gives
        them (an object array, ``None`` where no hand ended, and the ``_`` masks)."""
        ended = done.nonzero()[0]
        rows = self._vg.final_observation.take(ended, axis=0)  # (a copy: the engine reuses them)
        final = np.empty(self.num_envs, dtype=object)  # (None everywhere)
        # one row per entry: fromiter takes each row as one object (no 2-D conversion)
        final[ended] = np.fromiter(rows, dtype=object, count=len(ended))
        info["final_obs"] = final
        info["_final_obs"] = done.copy()
        info["final_info"] = {}
        info["_final_info"] = done.copy()

    def render(self) -> tuple[str, ...] | None:
        """Every table's hand as text (``render_mode`` "ansi"), or printed ("human": the
        tables one after another, None returned); None without a render mode."""
        if self.render_mode is None:
            return None
        if not self._started:
            texts = ("no hand yet: call reset()",) * self.num_envs
        else:
            seats = range(self.players)
            texts = tuple(_shown_hand(self._vg, bool(self._ended[i]), seats, table=i,
                                      title=f"table {i}") for i in range(self.num_envs))
        if self.render_mode == "human":
            print("\n\n".join(texts))
            return None
        return texts

    def close_extras(self, **kwargs: Any) -> None:
        self._vg.close()


def _no_options(options: object, instead: str) -> None:
    """Refuse reset ``options`` (None and ``{}`` ask for nothing): neither env takes any, and
    one ignored silently (Gymnasium's ``reset_mask``, say) would reset other tables than
    asked. ``instead`` says what reset does."""
    if options is None or (isinstance(options, dict) and not options):
        return
    raise InvalidConfigError(f"reset takes no options, got {excerpt(options)}: {instead}")


def _gymnasium_fields(what: str, state: dict[str, Any]) -> dict[str, object]:
    """The fields Gymnasium sets on an env, as pickled in ``state`` (each once it is set):
    the generator ``reset(seed=...)`` made and its seed, and the spec ``gymnasium.make``
    gave; or InvalidStateError naming ``what``."""
    kept: dict[str, object] = {k: state[k] for k in ("_np_random", "_np_random_seed", "spec")
                               if k in state}
    if not (isinstance(kept.get("_np_random"), np.random.Generator | None)
            and type(kept.get("_np_random_seed", 0)) in (int, type(None))):
        raise InvalidStateError(f"not a valid pickled {what}: its generator is not a numpy "
                                f"Generator with an int seed")
    if not isinstance(kept.get("spec"), EnvSpec | None):
        raise InvalidStateError(f"not a valid pickled {what}: its spec is not a Gymnasium "
                                f"EnvSpec")
    return kept


class RandomPolicy:
    """An opponent that picks a legal column uniformly at random (seeded). ``seed``: an int
    0..2**64-1 (numpy integers too), as the envs take seeds; anything else raises
    :class:`holdem.InvalidConfigError`."""

    def __init__(self, seed: int = 0) -> None:
        seed = env_seed(seed)  # (numpy's default_rng reads a sequence, even a recursive one)
        self.seed = seed
        self._rng = np.random.default_rng(seed)

    __reduce__ = reduce_with_state  # (a pickle always carries the state it is checked by)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Checked: a seed as the constructor takes it and a numpy Generator (a pickle with
        ``_rng=None`` failed at the first call; a subclass may add fields of its own)."""
        fields = {"seed", "_rng"}
        if (type(state) is not dict
                or not (state.keys() == fields if type(self) is RandomPolicy
                        else fields <= state.keys())
                or type(state["seed"]) is not int or not 0 <= state["seed"] < 1 << 64
                or type(state["_rng"]) is not np.random.Generator):
            raise InvalidStateError(f"not a valid pickled RandomPolicy: {excerpt(state)}")
        self.__dict__.update(state)

    def __repr__(self) -> str:
        return f"RandomPolicy(seed={self.seed})"

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        # the draw Generator.choice(legal) makes, at a third of its cost
        return int(legal[self._rng.integers(legal.size)])

    def reseed(self, seed: int) -> None:
        """Start the random stream again from ``seed`` (checked as the constructor's)."""
        seed = env_seed(seed)
        self.seed = seed
        self._rng = np.random.default_rng(seed)


_BROKEN = ("an opponent's policy failed in the last step or reset, or it was stopped part-way "
           "(an interrupt; see that error): call reset(), which plays the hand out by "
           "check/call")
_ADVANCING: set[int] = set()
"""The ids of the envs whose opponents' policies are being asked (``HoldemEnv._advance``): a
policy that calls ``step`` or ``reset`` of its own env is refused (its step would be played
for the opponent's seat, its reset would give the policy's answer to the next hand). A set of
ids, added and discarded by single C calls: a WeakSet's Python methods could be stopped by
Ctrl-C as they ran (at their first line), leaving an env marked for good."""


def _not_advancing(env: HoldemEnv, call: str) -> None:
    if id(env) in _ADVANCING:
        raise IllegalActionError(f"{call} was called from inside an opponent's policy, while "
                                 f"the env asks it for its action: a policy returns a column "
                                 f"and may not step or reset the env it plays in")


class HoldemEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One table, one learning seat: the other seats are played by ``opponents``.

    ``opponents``: one policy per other seat, in seat order (a policy is
    ``policy(observation, action_mask) -> column``; :class:`RandomPolicy` is one), or a single
    policy for all of them; a masked column from a policy is treated as the learner's
    (``illegal``). ``seat``: the learner's seat (the button moves one seat per hand).

    An episode is one hand, from the learner's first decision; the reward is the learner's
    payoff in big blinds when the hand ends. A hand that ends before the learner acts (all
    fold to its big blind) is dealt past; its payoff is ``info["skipped_reward"]`` of the
    next observation. ``info["action_mask"]`` holds the legal columns, and so does
    :meth:`action_masks` (the method ``sb3_contrib``'s ``MaskablePPO`` calls). The observation when
    the episode ends (``terminated``) is the finished hand seen from the learner's seat (its
    own hole cards, the final board, stacks and bets, as
    :meth:`holdem.vector.ObservationSpec.encode` writes it), with an all-zero mask; a
    :meth:`step` after it raises :class:`holdem.IllegalActionError` until :meth:`reset`.

    An action is a column index ``0..A-1``: a Python int, a numpy integer or a 0-d integer
    array. Anything else, or a column outside ``0..A-1``, raises
    :class:`holdem.IllegalActionError` and plays nothing; an int on a masked column follows
    ``illegal`` (``"check_call"``, the default: check/call is played; ``"raise"``: the error,
    nothing played). The opponents' columns are checked the same way.

    Seeding: ``seed`` deals the cards until ``reset(seed=s)`` gives another. ``reset(seed=s)``
    also reseeds every opponent policy that has a ``reseed(seed)`` method (as
    :class:`RandomPolicy` has): the policy of the ``k``-th other seat (``k`` from 0, in seat
    order) with ``s + k`` (modulo 2**64, so that it stays a valid seed), so that the
    episodes after ``reset(seed=s)`` repeat exactly. The seed a policy was made with applies
    only until the first ``reset(seed=...)``; with ``reset()`` (no seed) the policies go on
    from where they are.

    ``render_mode``: ``"ansi"`` (:meth:`render` returns the hand as text: the learner's hole
    cards only, the board, the pot, every seat's stack and bet, the seat to act) or
    ``"human"`` (it prints that text).
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012 - Gymnasium's

    def __init__(self, game: Game | None = None, *, players: int = 2,
                 opponents: Policy | Sequence[Policy] | None = None, seat: int = 0,
                 stacks: int | Sequence[int] = 200, actions: ActionLayout | str = "default",
                 seed: int = 0, illegal: str = "check_call",
                 render_mode: str | None = None) -> None:
        render_mode = check_render_mode(render_mode)
        seed = env_seed(seed)
        self._game = Game(big_blind=2) if game is None else game
        self._args = dict(num_tables=1, players=players, stacks=stacks, actions=actions,
                          final_observation=True)  # (for a hand whose history is not kept)
        self._vg = VectorGame(self._game, seed=seed, **self._args)  # type: ignore[arg-type]
        self._args["stacks"] = kept_stacks(stacks, self._vg)
        players = self._vg.players  # checked (2..10) by the engine
        turn = int_or_none(seat)  # numpy ints too, as plain ints
        if turn is None or not 0 <= turn < players:
            raise InvalidConfigError(f"seat must be an int 0..{players - 1}, got {excerpt(seat)}")
        seat = turn
        stacks_t = self._vg.stacks
        if all(self._game.new_hand(stacks_t, button=b).actor != seat for b in range(players)):
            # the seat first to act in some hand acts in it whatever the others do; a seat
            # that never is (all in from its forced bets wherever the button is) never acts,
            # and reset() would deal past hands forever
            raise InvalidConfigError(
                f"seat {seat} never acts: with stacks {stacks_t} it is all in from the forced "
                f"bets wherever the button is, so no episode would start; give it more chips")
        if opponents is None:
            opponents = RandomPolicy(seed)
        if callable(opponents):
            pols = [opponents] * (players - 1)
        elif isinstance(opponents, Sequence) and not isinstance(opponents, str | bytes):
            pols = list(opponents)
        else:
            pols = []
        if len(pols) != players - 1 or not all(callable(p) for p in pols):
            hint = (" (a holdem agent such as RandomAgent plays at a Table: here use "
                    "RandomPolicy(seed) or your own function)"
                    if any(hasattr(p, "act") for p in [opponents, *pols]) else "")
            raise InvalidConfigError(
                f"opponents must be one policy or a sequence of {players - 1} policies, a "
                f"policy being policy(observation, action_mask) -> column; got "
                f"{excerpt(opponents)}{hint}")
        self._policies: dict[int, Policy] = dict(zip(
            [s for s in range(players) if s != seat], pols, strict=True))
        self.seat = seat
        self.render_mode = render_mode
        self._raise = _illegal(illegal)
        self._cc = self._vg.action_layout.names.index("check_call")
        self._size = self._vg.action_layout.size
        self._col = np.zeros(1, dtype=np.int64)  # the one table's column, as step() reads it
        self._last_actor = 0  # the seat of the last decision played
        self._started = False
        self._in_hand = False
        self._broken = False  # an opponent's policy failed mid-hand (see _advance)
        self.observation_space = _obs_box(self._vg)
        self.action_space = spaces.Discrete(self._vg.action_layout.size)

    @property
    def vector_game(self) -> VectorGame:
        return self._vg

    __reduce__ = reduce_with_state  # (a pickle always carries the state it is checked by)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Checked: the arguments through the constructor, the engine against them, the
        rest in range (a pickle with ``seat=99`` failed only at the next reset)."""
        args = state.get("_args") if type(state) is dict else None
        policies = state.get("_policies") if type(state) is dict else None
        if (type(args) is not dict or type(policies) is not dict
                or type(state.get("_raise")) is not bool):
            raise InvalidStateError("not a valid pickled HoldemEnv: not an env's state")
        try:
            fresh = HoldemEnv(state["_game"], players=args["players"], stacks=args["stacks"],
                              actions=args["actions"], seat=state["seat"],
                              opponents=list(policies.values()),
                              illegal="raise" if state["_raise"] else "check_call",
                              render_mode=state["render_mode"])
        except (KeyError, TypeError, HoldemError) as exc:
            raise InvalidStateError(f"not a valid pickled HoldemEnv: {exc}"[:300]) from None
        if set(policies) != set(fresh._policies) or args != fresh._args:
            raise InvalidStateError("not a valid pickled HoldemEnv: its opponents' seats or "
                                    "its engine's arguments are not its own")
        self.__dict__.update(checked_restore(
            "HoldemEnv", state, {**fresh.__dict__, **_gymnasium_fields("HoldemEnv", state)},
            "_vg",
            {"_last_actor": (0, fresh._vg.players - 1), "_started": bool, "_in_hand": bool,
             "_broken": bool}))
        self._policies = policies  # (the pickled callables, in the checked seats)

    def _advance(self) -> tuple[float, bool]:
        """Let the opponents act until the learner must; return (learner's bb, a hand ended).
        If a policy fails (its error, or a column that is not an int of the action space) the
        env is left mid-hand, an opponent to act: :meth:`step` refuses until :meth:`reset`."""
        key = id(self)
        try:  # (added inside: stopped as add returns, the env would stay "advancing" for good)
            _ADVANCING.add(key)
            while (actor := int(self._vg.current_player[0])) != self.seat:
                policy = self._policies[actor]
                got = policy(self._vg.observation[0].copy(), self._vg.legal_mask[0].copy())
                col = int_or_none(got)
                if col is None:
                    raise IllegalActionError(f"{self._who(actor)}returned {excerpt(got)}; a "
                                             f"policy returns a column index "
                                             f"0..{self._size - 1} (an int)")
                _, rewards, done = self._play(self._legal(col, actor))
                if done[0]:
                    return float(rewards[0, self.seat]), True
        except BaseException:
            self._broken = True
            raise
        finally:
            _ADVANCING.discard(key)
        return 0.0, False

    def _play(self, col: int) -> tuple[Any, Any, Any]:
        self._col[0] = col
        self._last_actor = int(self._vg.current_player[0])  # for _final, if it needs it
        return self._vg.step_unchecked(self._col)  # (a legal column: see _legal)

    def _who(self, actor: int) -> str:
        """The start of an error about the column seat ``actor``'s policy gave."""
        return f"seat {actor}'s policy {self._policies[actor]!r}: "

    def _legal(self, col: int, actor: int = -1) -> int:
        """``col``, or check/call for a masked column (``illegal="raise"``: the error); a
        column outside the action space always raises (naming seat ``actor``'s policy when
        it gave the column, -1: the learner)."""
        if not 0 <= col < self._size:
            raise IllegalActionError((self._who(actor) if actor >= 0 else "")
                                     + not_a_column(col, self._vg.action_layout.names))
        if self._vg.legal_mask[0, col]:
            return col
        if self._raise:
            self._vg.step([col])  # raises IllegalActionError naming the legal columns
        return self._cc

    def _column(self, action: object) -> int:
        """``action`` as a column index, or IllegalActionError naming it (nothing played)."""
        col = int_or_none(action)  # ints, numpy integers, 0-d integer arrays
        if col is not None:
            return col
        raise IllegalActionError(f"an action must be a column index 0..{self._size - 1}"
                                 f" (an int, a numpy integer or a 0-d integer array), got "
                                 f"{excerpt(action)} of type {type(action).__name__}")

    def action_masks(self) -> np.ndarray:
        """The legal columns of the last observation returned (a bool array of shape (A,),
        all False once the episode is over): ``info["action_mask"]``, for libraries that ask
        the env for it (``sb3_contrib``'s ``MaskablePPO``).

        >>> env = HoldemEnv(seed=1)
        >>> obs, info = env.reset()
        >>> bool((env.action_masks() == info["action_mask"]).all())
        True
        """
        if self._broken:
            raise IllegalActionError(_BROKEN)
        if not self._started:
            raise IllegalActionError("call reset() first")
        if not self._in_hand:  # the episode is over: the final observation's mask
            return np.zeros(self._size, dtype=bool)
        mask: np.ndarray = self._vg.legal_mask[0].copy()  # the learner is to act
        return mask

    def _obs(self) -> tuple[np.ndarray, dict[str, Any]]:
        return self._vg.observation[0].copy(), {"action_mask": self._vg.legal_mask[0].copy()}

    def _final(self) -> tuple[np.ndarray, dict[str, Any]]:
        """The hand that just ended, seen from the learner's seat, with no legal column (a
        hand of more than 64 actions keeps no history: then as it stood at its last
        decision, turned to the learner's seat)."""
        spec, mask = self._vg.observation_spec, np.zeros(self._size, dtype=bool)
        try:  # (observation_spec.encode of last_hand(0), built in C)
            final = self._vg.last_hand_observation(0, self.seat)
        except IllegalActionError:  # its history is not kept
            hole = self._vg.cards(0, int(self._vg.hands_played()[0]) - 1)[0][self.seat]
            row = self._vg.final_observation[0]  # the last decision's, by the engine
            return spec.reseat(row, (self.seat - self._last_actor) % spec.players,
                               hole), {"action_mask": mask}
        assert final is not None  # a hand just ended by an action
        return final, {"action_mask": mask}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[np.ndarray, dict[str, Any]]:
        _no_options(options, "reset() deals the next hand, reset(seed=s) hand 0 of seed s")
        _not_advancing(self, "reset()")
        if seed is not None:
            seed = env_seed(seed)  # (Gymnasium's own check raises its own error type)
        # refused until this reset is complete: stopped part-way (Ctrl-C in the play-out
        # below, or as a hand was dealt past) it left the env showing the learner to act in a
        # hand where another seat was
        self._broken = True
        super().reset(seed=seed)
        if seed is not None:
            self._vg = VectorGame(self._game, seed=seed, **self._args)  # type: ignore[arg-type]
            self._started = False
            for k, p in enumerate(self._policies.values()):
                reseed = getattr(p, "reseed", None)
                if reseed is not None:
                    reseed((seed + k) % (1 << 64))  # (a seed stays in 0..2**64-1)
        if not self._started:
            self._vg.reset()
            self._started = True
        elif self._in_hand:  # a hand cut short: played out by check/call, its result unused
            before = int(self._vg.hands_played()[0])
            while int(self._vg.hands_played()[0]) == before:
                self._vg.step([self._cc])
        self._in_hand = True
        skipped = 0.0
        while True:
            got, ended = self._advance()
            skipped += got
            if not ended:
                break
        obs, info = self._obs()
        info["skipped_reward"] = skipped
        self._broken = False
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        _not_advancing(self, "step()")
        if not self._started:
            raise IllegalActionError("call reset() first")
        if not self._in_hand:
            raise IllegalActionError("the episode is over (terminated): call reset() to "
                                     "start the next one")
        if self._broken:
            raise IllegalActionError(_BROKEN)
        col = self._legal(self._column(action))  # (refused: nothing played)
        try:
            _, rewards, done = self._play(col)
            if done[0]:
                reward, ended = float(rewards[0, self.seat]), True
            else:
                reward, ended = self._advance()
            if ended:
                self._in_hand = False
                obs, info = self._final()
            else:
                obs, info = self._obs()
        except BaseException:
            # stopped (Ctrl-C, an error) once the learner's action was played: the env's
            # view may be the step's before (the learner to act in a hand that has ended,
            # or an opponent to act), so step() refuses until reset() instead of playing
            # the next action for another seat or in the next hand
            self._broken = True
            raise
        return obs, reward, ended, False, info

    def __repr__(self) -> str:
        opponents = ", ".join(f"seat {s}: {p!r}" for s, p in self._policies.items())
        return (f"<HoldemEnv {self._vg.players} players, learner seat {self.seat}; "
                f"opponents {opponents}>")

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        if not self._started:
            text = "no hand yet: call reset()"
        else:
            text = _shown_hand(self._vg, not self._in_hand, (self.seat,),
                              title=f"seat {self.seat} (learner)")
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _self_play_single(**kwargs: object) -> None:
    """``gymnasium.make`` of :data:`SELF_PLAY_ID` (and ``make_vec`` of it in the ``sync`` or
    ``async`` mode, which make one env per table): refused, self-play is a batch."""
    raise InvalidConfigError(
        f"{SELF_PLAY_ID} is a vector env (one policy plays every seat of every table): make "
        f"it with gymnasium.make_vec({SELF_PLAY_ID!r}, num_envs=N) (its default mode); for "
        f"one table and one learning seat against policies use gymnasium.make({ENV_ID!r})")


def _register() -> None:
    """Register :class:`HoldemEnv` as :data:`ENV_ID` and :class:`HoldemVectorEnv` as
    :data:`SELF_PLAY_ID` (once each, if a reload imports the module again)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="holdem.rl.gymnasium:HoldemEnv")
    if SELF_PLAY_ID not in gymnasium.registry:
        gymnasium.register(id=SELF_PLAY_ID,
                           entry_point="holdem.rl.gymnasium:_self_play_single",
                           vector_entry_point="holdem.rl.gymnasium:HoldemVectorEnv")


_register()
