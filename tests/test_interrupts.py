"""An exception in the middle of a call (Ctrl-C's KeyboardInterrupt, MemoryError) leaves the
object as it was before the call, or in a state that later calls handle: chips conserved, the
next call plays on or raises a clear :mod:`holdem.errors` error.

The interrupt is injected deterministically: a tracer raises it at a chosen line of a holdem
function (where a real Ctrl-C can land: right after a call returns).
"""

from __future__ import annotations

import linecache
import pickle
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import pytest

from holdem import Action, CallAgent, Game, Mode, Rake, Table
from holdem.errors import IllegalActionError, InvalidStateError
from holdem.hand.game import ReferenceHandState


@contextmanager
def interrupt_at(function: str | tuple[str, ...], line: str) -> Iterator[None]:
    """Raise KeyboardInterrupt once, when ``function`` (a holdem function, or any of several)
    is about to run its line starting with ``line``."""
    fired = False
    names = (function,) if isinstance(function, str) else function

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal fired
        if fired:
            return None
        if event == "line":
            text = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
            if text.startswith(line):
                fired = True
                raise KeyboardInterrupt
        return local

    with _traced(names, local, lambda: fired):
        yield
    assert fired, f"the tracer never reached {function}: {line}"


@contextmanager
def _traced(names: tuple[str, ...], local: Any, fired: Callable[[], bool],
            anywhere: tuple[str, ...] = ()) -> Iterator[None]:
    """Run the block with ``local`` tracing the holdem functions named ``names`` and the
    functions of any module named ``anywhere``, until ``fired()``."""
    def outer(frame: FrameType, event: str, arg: Any) -> Any:
        name = frame.f_code.co_name
        if fired() or not (name in anywhere or (
                name in names and "holdem" in frame.f_code.co_filename)):
            return None
        return local

    sys.settrace(outer)
    try:
        yield
    finally:
        sys.settrace(None)


def _raiser(obs: Any) -> Any:
    la = obs.legal
    return la.min_to + 1 if la.can_raise and obs.hand_number % 2 == 0 else 1


def _table(tournament: bool = False) -> Table:
    game = (Game(big_blind=2, mode=Mode.TOURNAMENT) if tournament
            else Game(big_blind=2, rake=Rake("0.05", cap=3)))
    t = Table(game, seats=4, seed=5)
    for seat, (name, stack) in enumerate([("a", 100), ("b", 100), ("c", 60), ("d", 40)]):
        t.sit(seat, name, stack, CallAgent() if seat % 3 == 0 else _raiser)
    t.play(2)
    return t


def _snapshot(t: Table) -> tuple[Any, ...]:
    return (t.hand_number, t.rake, t.bought_in, t.cashed_out, t.button, dict(t.places),
            [None if p is None else (p.name, p.stack, p.status, p.owes, p.hands_played)
             for p in t.seats])


def _records(t: Table, hands: int) -> list[tuple[Any, ...]]:
    return [(r.number, sorted(r.payoffs.items()), r.rake) for r in t.play(hands)]


@pytest.mark.parametrize(("tournament", "line"), [
    (False, "self.rake += res.rake"),  # after the players were paid
    (False, "self._prev = pos"),
    (True, "self.hand_number += 1"),
    (True, "remaining = sum("),  # a tournament elimination under way
])
def test_table_interrupted_while_paying_a_hand_voids_it(tournament: bool, line: str) -> None:
    """Ctrl-C after the players were paid and before the hand was counted left chips not
    conserved (the rake not taken) and the hand number not moved: the next hand replayed the
    same deck. The hand is now void, the table exactly as before it."""
    t = _table(tournament)
    twin = pickle.loads(pickle.dumps(t))
    before = _snapshot(t)
    fn = "_eliminate" if line.startswith("remaining") else "_settle"
    if tournament and fn == "_eliminate":
        # play to the first hand that eliminates somebody, on both tables
        while not any(r.eliminated for r in pickle.loads(pickle.dumps(t)).play(1)):
            t.play(1)
            twin.play(1)
        before = _snapshot(t)
    with interrupt_at(fn, line), pytest.raises(KeyboardInterrupt):
        t.play(3)
    assert _snapshot(t) == before
    assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in
    assert _records(t, 5) == _records(twin, 5)


def test_table_interrupted_right_after_a_hand_starts_is_not_left_in_a_hand() -> None:
    """An interrupt between marking the table in a hand and entering the hand's try block left
    it marked for good: every later play_hand raised "a hand is already being played"."""
    t = _table()
    twin = pickle.loads(pickle.dumps(t))
    fired = False

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal fired
        if event == "line" and not fired and t._in_hand:
            fired = True
            raise KeyboardInterrupt
        return local

    sys.settrace(lambda f, e, a: local if f.f_code.co_name == "play_hand" else None)
    try:
        with pytest.raises(KeyboardInterrupt):
            t.play_hand()
    finally:
        sys.settrace(None)
    assert fired and not t._in_hand and t.can_play()
    pickle.dumps(t)
    assert _records(t, 3) == _records(twin, 3)


def _reference_hand(partial: bool) -> Any:
    game = Game(big_blind=2)
    if partial:
        st = ReferenceHandState._start(game, [200, 200, 100], 0, None,
                                       ["AsAh", "KdKc", "2c3c"], "7d8d9d")
    else:
        st = ReferenceHandState._start(game, [200, 200, 100], 0, 11, None, None)
    st.apply(Action.raise_to(6))
    return st


@pytest.mark.parametrize("partial", [False, True])
def test_reference_core_action_interrupted_midway(partial: bool) -> None:
    """The reference core's action moved chips in several steps: an interrupt between them
    left a state with the chips in the pot but no history, or a folded seat still to act.
    A hand whose cards may be missing is restored (a copy is kept for them); any other is
    void, and says so on every later call."""
    st = _reference_hand(partial)
    before = st.clone()
    with interrupt_at("_act", "self._hist.append"), pytest.raises(KeyboardInterrupt):
        st.apply(Action.call())
    if partial:
        assert st == before and st.history == before.history
        st.apply(Action.call())
        return
    calls: list[Callable[[], object]] = [
        lambda: st.stacks, st.legal_actions, lambda: st.apply(Action.call()), st.clone,
        lambda: pickle.dumps(st), st.result_or_none]
    for call in calls:
        with pytest.raises(InvalidStateError, match="stopped mid-way"):
            call()
    assert "not started" in repr(st)
    assert st != before


@pytest.mark.parametrize("method", ["step", "step_unchecked", "step_exact"])
def test_vector_step_with_threads_interrupted_is_never_left_in_flight(
        method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``num_threads`` >= 2 a step was started, then completed by a second call: Ctrl-C
    landing between the two (as the first returned) left it in flight, so the properties
    showed rows the worker threads were still writing. The step is now complete when the
    interrupt surfaces: the batch is exactly the twin that stepped without one."""
    from holdem.vector import VectorGame, _SliceThreads

    def make() -> VectorGame:
        env = VectorGame(Game(big_blind=2), num_tables=64, players=3, stacks=100, seed=3,
                         num_threads=2)
        env.reset()
        return env

    env, twin = make(), make()
    args: tuple[Any, ...] = ([1] * 64,) if method != "step_exact" else ([1] * 64, [0] * 64)
    getattr(twin, method)(*args)
    share = _SliceThreads.share

    def share_then_interrupt(self: _SliceThreads, *a: Any) -> None:
        share(self, *a)
        raise KeyboardInterrupt  # as the step's last call returns

    monkeypatch.setattr(_SliceThreads, "share", share_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        getattr(env, method)(*args)
    monkeypatch.undo()
    assert env._batch.in_flight == 0
    assert bytes(env.observation) == bytes(twin.observation)
    assert bytes(env.legal_mask) == bytes(twin.legal_mask)
    assert env._batch.dump() == twin._batch.dump()
    env.close()
    twin.close()


def _gym_env() -> Any:
    pytest.importorskip("gymnasium")
    from holdem.rl.gymnasium import HoldemEnv, RandomPolicy

    env = HoldemEnv(players=3, opponents=RandomPolicy(4), seed=2, illegal="raise")
    env.reset(seed=2)
    return env


@pytest.mark.parametrize(("column", "line"), [
    (0, "if done[0]:"),  # the learner folded: the hand ended, the next one dealt
    (1, "reward, ended = self._advance()"),  # the opponents not asked yet
])
def test_gymnasium_step_interrupted_after_the_learner_acted_refuses_until_reset(
        column: int, line: str) -> None:
    """Ctrl-C once the learner's action was played (as the engine's step returned) left the
    env showing the learner to act: the next step() played the learner's action in the next
    hand, or for an opponent's seat. It now refuses until reset(), which plays on."""
    from holdem.rl.gymnasium import HoldemEnv

    env = _gym_env()
    mask = env.action_masks()
    assert mask[column]
    with interrupt_at("step", line), pytest.raises(KeyboardInterrupt):
        env.step(column)
    with pytest.raises(IllegalActionError, match=r"stopped part-way .* call reset\(\)"):
        env.step(1)
    with pytest.raises(IllegalActionError, match="call reset"):
        env.action_masks()
    _obs, info = env.reset()
    assert isinstance(env, HoldemEnv) and info["action_mask"].any()
    env.step(int(info["action_mask"].nonzero()[0][0]))


@pytest.mark.parametrize("line", [
    "skipped += got",  # dealing past a hand that ended before the learner acted
    "self._vg.step([self._cc])",  # playing the hand in play out by check/call
])
def test_gymnasium_reset_interrupted_part_way_refuses_until_reset(line: str) -> None:
    """reset() deals past hands that end before the learner acts, and mid-hand plays the hand
    out by check/call: Ctrl-C in either left the env showing the learner to act in a hand an
    opponent was to act in (the next step played for the opponent)."""
    env = _gym_env()
    with interrupt_at("reset", line), pytest.raises(KeyboardInterrupt):
        env.reset()
    with pytest.raises(IllegalActionError, match="call reset"):
        env.step(1)
    env.reset()
    env.step(1)


def _vector_env(mode: str) -> Any:
    pytest.importorskip("gymnasium")
    from holdem.rl.gymnasium import HoldemVectorEnv

    env = HoldemVectorEnv(Game(big_blind=2), num_envs=6, players=3, seed=1,
                          autoreset_mode=mode)
    env.reset(seed=1)
    return env


def _vector_steps(env: Any) -> list[Any]:
    """Eight steps of a fixed policy (the k-th legal column), their outputs."""
    out = []
    for k in range(8):
        mask = env.vector_game.legal_mask
        cols = [int(row.nonzero()[0][k % int(row.sum())]) for row in mask]
        obs, reward, done, _, info = env.step(cols)
        out.append((obs.tolist(), reward.tolist(), done.tolist(), info["actor"].tolist()))
    return out


@contextmanager
def interrupt_after(returned: tuple[str, ...], caller: Callable[..., Any]) -> Iterator[None]:
    """Raise KeyboardInterrupt once, at the first line ``caller`` (a holdem function) runs
    after a function named in ``returned`` (of any module) returned to it: where a real
    Ctrl-C lands as that call returns."""
    armed = fired = False
    target = caller.__code__

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal armed, fired
        if fired:
            return None
        if event == "return" and frame.f_code.co_name in returned and \
                frame.f_back is not None and frame.f_back.f_code is target:
            armed = True
        elif event == "line" and armed and frame.f_code is target:
            fired = True
            raise KeyboardInterrupt
        return local

    with _traced((target.co_name,), local, lambda: fired, anywhere=returned):
        yield
    assert fired, f"the tracer never saw {returned} return to {caller}"


@pytest.mark.parametrize("mode", ["same_step", "next_step"])
@pytest.mark.parametrize("method", ["reset", "step", "step_async"])
def test_vector_env_interrupted_as_it_was_taken_is_not_left_in_use(method: str,
                                                                   mode: str) -> None:
    """HoldemVectorEnv is held by a call (and from step_async to step_wait) so that a second
    thread is refused. Ctrl-C as the call took it, before the block that gives it back, left
    it held for good: every later step and reset raised "in use by another thread". Now the
    env refuses steps until reset() (the call stopped part-way), and then plays as a fresh
    one."""
    env, fresh = _vector_env(mode), _vector_env(mode)
    cols = [int(row.nonzero()[0][0]) for row in env.vector_game.legal_mask]
    call: Callable[[], object] = {"reset": lambda: env.reset(seed=1),
                                  "step": lambda: env.step(cols),
                                  "step_async": lambda: env.step_async(cols)}[method]
    with interrupt_after(("_claim", "_take"), getattr(type(env), method)), \
            pytest.raises(KeyboardInterrupt):
        call()
    with pytest.raises(IllegalActionError, match=r"stopped part-way.*call reset\(\)"):
        env.step(cols)
    env.reset(seed=1)
    assert _vector_steps(env) == _vector_steps(fresh)


@pytest.mark.parametrize(("function", "line"), [
    ("_step_async", "return actor"),  # the engine has taken the step
    ("_step_wait", "obs, rewards, done = self._vg.step_wait()"),  # the pending step taken
    ("_step_wait", "seat_rewards = rewards.copy()"),  # the engine's outputs not yet shown
])
@pytest.mark.parametrize("split", [False, True])
def test_vector_env_step_interrupted_after_the_tables_moved_refuses_until_reset(
        function: str, line: str, split: bool) -> None:
    """Ctrl-C once the engine had the step (or the pending step was taken) left the env free
    with the tables a step ahead of what it had shown: the next step played the caller's
    columns, chosen for the observation before, on the new decisions (in next-step mode a
    finished hand was never shown). The env now refuses steps until reset()."""
    env, fresh = _vector_env("next_step"), _vector_env("next_step")
    cols = [int(row.nonzero()[0][-1]) for row in env.vector_game.legal_mask]
    with interrupt_at(function, line), pytest.raises(KeyboardInterrupt):
        if split:
            env.step_async(cols)
            env.step_wait()
        else:
            env.step(cols)
    with pytest.raises(IllegalActionError, match=r"stopped part-way.*call reset\(\)"):
        env.step(cols)
    with pytest.raises(IllegalActionError, match="stopped part-way"):
        env.step_async(cols)
    env.reset(seed=1)
    assert _vector_steps(env) == _vector_steps(fresh)


def test_gymnasium_interrupted_as_the_opponents_are_asked_is_not_left_advancing() -> None:
    """While an opponent's policy is asked, the env is marked so that the policy may not
    step or reset it. Ctrl-C as the mark was set, before the block that clears it, left it
    set for good: every later step and reset raised "called from inside an opponent's
    policy"."""
    from holdem.rl import gymnasium

    env = _gym_env()
    fired = False

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal fired
        if event == "line" and not fired:
            try:
                gymnasium._not_advancing(env, "marked?")
            except IllegalActionError:  # the env is marked: interrupted right after that
                fired = True
                raise KeyboardInterrupt from None
        return local

    with _traced(("_advance",), local, lambda: fired), pytest.raises(KeyboardInterrupt):
        env.reset()
    assert fired
    _obs, info = env.reset()
    env.step(int(info["action_mask"].nonzero()[0][0]))


def _aec(parallel: bool = False) -> Any:
    pytest.importorskip("pettingzoo")
    from holdem.rl.pettingzoo import HoldemAECEnv, HoldemParallelEnv

    env = (HoldemParallelEnv if parallel else HoldemAECEnv)(players=3, seed=6, hands=2)
    env.reset(seed=6)
    return env


@pytest.mark.parametrize(("function", "line"), [
    ("play", "self.actor = int(self.actors[0])"),  # _Core.play: the engine has stepped
    ("step", "self.agent_selection = self.possible_agents"),
])
def test_pettingzoo_aec_step_interrupted_after_the_table_moved_refuses_until_reset(
        function: str, line: str) -> None:
    """Ctrl-C as the engine's step returned left the acting agent (and the env's hand
    number) as they were before it: the next agent's action was played for another seat.
    Every call now refuses until reset()."""
    env = _aec()
    agent = env.agent_selection
    with interrupt_at(function, line), pytest.raises(KeyboardInterrupt):
        env.step(1)
    for call in (lambda: env.step(1), env.last, lambda: env.observe(agent),
                 lambda: pickle.dumps(env)):
        with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
            call()
    env.reset()
    obs, *_ = env.last()
    env.step(int(obs["action_mask"].nonzero()[0][0]))


@pytest.mark.parametrize("parallel", [False, True])
def test_pettingzoo_reset_interrupted_as_the_table_was_reset_refuses_until_reset(
        parallel: bool) -> None:
    """Ctrl-C as the table's reset returned, before the env's own reset of its agents, left
    the env showing the last episode's agents (none, once it ended) over the new hand: the
    next step played for the wrong agent or was refused as the episode's end. It now
    refuses until reset()."""
    env = _aec(parallel)
    with interrupt_after(("reset",), type(env).reset), pytest.raises(KeyboardInterrupt):
        env.reset(seed=7)
    if parallel:
        with pytest.raises(IllegalActionError, match="call reset"):
            env.step({a: 1 for a in env.possible_agents})
    else:
        with pytest.raises(IllegalActionError, match="call reset"):
            env.step(1)
    env.reset(seed=7)
    if parallel:
        env.step({a: 1 for a in env.agents})
    else:
        env.step(1)


def test_pettingzoo_parallel_step_interrupted_at_the_episode_end_refuses_until_reset() -> None:
    """Ctrl-C after the episode's last hand ended, before the env closed the episode, left
    it open: the next step played a hand past the episode."""
    env = _aec(parallel=True)
    with interrupt_at("step", "if over:"), pytest.raises(KeyboardInterrupt):
        while True:
            actor = env.agents[env._core.actor]
            env.step({actor: 0 if env._core.mask[0] else 1})
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        env.step({env.agents[env._core.actor]: 1})
    obs, _ = env.reset()
    assert len(obs) == 3


@pytest.mark.parametrize("parallel", [False, True])
def test_pettingzoo_reset_interrupted_before_the_new_engine_is_bound_refuses_until_reset(
        parallel: bool) -> None:
    """reset() of a session episode makes a new engine, then views its buffers: Ctrl-C
    between the two left the env reading the old engine's actor and rows."""
    env = _aec(parallel)
    env.step({env.agents[env._core.actor]: 1} if parallel else 1)
    with interrupt_at("reset", "self._bind()"), pytest.raises(KeyboardInterrupt):
        env.reset()
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        env.step({env.possible_agents[env._core.actor]: 1} if parallel else 1)
    env.reset()
    env.step({env.agents[env._core.actor]: 1} if parallel else 1)


def _live() -> Any:
    from holdem.live.hand import LiveHand

    h = LiveHand(Game(big_blind=2), [100, 100, 100], button=0, seed=3)
    h.apply("cbr 6")
    return h


def test_live_hand_apply_interrupted_as_the_state_took_the_action_records_it() -> None:
    """LiveHand applies in place: Ctrl-C as the state's apply returned left the action in
    the state but not in the records, which a pickle, a clone's replay and every later
    street are built from (a pickle gave another hand). The action is now recorded."""
    h = _live()
    twin = _live()
    twin.apply("cc")
    with interrupt_at("apply", "self._t.dealing = False"), pytest.raises(KeyboardInterrupt):
        h.apply("cc")
    assert h.history == twin.history and h.state == twin.state
    assert pickle.loads(pickle.dumps(h)).state == h.state
    for a in ("cc", "cc"):  # the flop is dealt from the records: the same as the twin's
        h.apply(a)
        twin.apply(a)
    assert h.board == twin.board and h.state == twin.state


def test_phh_dump_interrupted_leaves_the_existing_file_as_it_was(tmp_path: Any) -> None:
    """dump() to a path opened the file for writing (emptying it), then wrote: Ctrl-C in
    between left an empty file where a hand had been. The file is now replaced only once the
    new text is all written."""
    from holdem import phh
    from holdem.history import from_state

    t = _table()
    old, new = (phh.dumps(from_state(r.state)) for r in t.play(2))
    path = tmp_path / "hand.phh"
    path.write_text(old, encoding="utf-8")
    with interrupt_at(("_write", "write_replacing"), "f.write(text)"), \
            pytest.raises(KeyboardInterrupt):
        phh.dump(phh.loads(new), path)
    assert path.read_text(encoding="utf-8") == old
    assert [p.name for p in tmp_path.iterdir()] == ["hand.phh"]  # no temporary file left
    phh.dump(phh.loads(new), path)
    assert path.read_text(encoding="utf-8") == new


def test_cli_play_save_interrupted_keeps_the_existing_file(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``holdem play --save`` writes the session's first hand over an existing file: the file
    was opened (emptied) before the hand's text was made, and Ctrl-C then left an empty file,
    which reads as a valid .phhs of no hands. The old file now stays until the hand is
    written in full."""
    import holdem.phh
    from holdem.cli._play import _save

    t = _table()
    record = t.play(1)[0]
    path = tmp_path / "session.phhs"
    path.write_text("[1]\nold = true\n", encoding="utf-8")

    def interrupted(hh: Any) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(holdem.phh, "dumps", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _save(str(path), record, 1, Any, 4, True)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "[1]\nold = true\n"
    assert _save(str(path), record, 1, Any, 4, True)
    assert len(holdem.phh.load_all(str(path))) == 1


def test_openspiel_move_interrupted_after_the_hand_took_it_refuses_every_query() -> None:
    """pyspiel records a move only once ``_apply_action`` returns: Ctrl-C after the holdem
    hand took the action left the hand a move ahead of pyspiel's history and of the action
    log, and the legal actions were the previous node's (a cache keyed on the log). The state
    now refuses every query with a clear error; a clone taken before plays on."""
    pyspiel = pytest.importorskip("pyspiel")
    import holdem.rl.openspiel  # noqa: F401 - registers python_holdem

    game = pyspiel.load_game("python_holdem(players=2,stack=40)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    before = state.clone()
    action = state.legal_actions()[1]
    with interrupt_at(("_apply_action", "_move"), "self._log.append("), \
            pytest.raises(KeyboardInterrupt):
        state.apply_action(action)
    assert state.history() == before.history()
    for call in (state.legal_actions, state.current_player,
                 lambda: state.information_state_string(0), lambda: pickle.dumps(state)):
        with pytest.raises(InvalidStateError, match="stopped mid-way"):
            call()
    before.apply_action(action)
    assert len(before.history()) == len(state.history()) + 1
