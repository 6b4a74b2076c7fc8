"""Bad-input suite: the batched engine's other entry points (step, step_exact, step_async's
slices and flags, ActionLayout) and the RL adapters (Gymnasium, PettingZoo, OpenSpiel) with
odd types, shapes, values and call orders. See tests/badinput.py for the contract and how each
property runs in a child process; the targeted tests pin the defects the properties found."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import pytest
from badinput import bounded, call, rejected, run_in_child
from hypothesis import example, given
from hypothesis import strategies as st

from holdem import Game, IllegalActionError, InvalidConfigError

np = pytest.importorskip("numpy")

ODD = st.one_of(st.none(), st.floats(allow_nan=True), st.text(max_size=3), st.booleans(),
                st.binary(max_size=2), st.complex_numbers(max_magnitude=4),
                st.sampled_from([2**63, -(2**63) - 1, 2**64, 2**70]),
                st.builds(object), st.dictionaries(st.integers(0, 3), st.integers(0, 3),
                                                   max_size=2))
HUGE = st.sampled_from([2**31, 2**63 - 1, 2**63, 2**64, -(2**63), -(2**63) - 1, 2**70])


def _vector(draw: st.DrawFn, n: int, values: st.SearchStrategy[Any]) -> Any:
    """``n`` drawn values as a list, a tuple or a numpy array of an odd dtype or layout; or
    another length, a nested list, a 0-d array or not a vector at all."""
    how = draw(st.sampled_from(["list", "tuple", "array", "array", "dtype", "strided", "2d",
                                "0d", "length", "ragged", "odd", "readonly", "bigendian"]))
    items = draw(st.lists(values, min_size=n, max_size=n))
    if how == "odd":
        return draw(ODD)
    if how == "length":
        return items + [1] * draw(st.integers(1, 2)) if draw(st.booleans()) else items[:-1]
    if how == "ragged":
        return [[v] for v in items[:1]] + items[1:] + [[1, 2]]
    if how in ("list", "tuple"):
        return items if how == "list" else tuple(items)
    try:
        arr = np.array(items, dtype=np.int64)
    except (OverflowError, TypeError, ValueError):
        return items
    if how == "dtype":
        dtype = draw(st.sampled_from(["int8", "uint8", "uint64", "int32", "float64", "bool",
                                      "object", "complex128", ">i8", "<U2"]))
        with np.errstate(all="ignore"):
            return arr.astype(dtype)
    if how == "strided":
        return np.repeat(arr, 2)[::2]
    if how == "2d":
        return arr.reshape(1, -1)
    if how == "0d":
        return np.array(items[0] if items else 1)
    if how == "bigendian":
        return arr.astype(">i8")
    if how == "readonly":
        arr.flags.writeable = False
    return arr


# --------------------------------------------------------------------------- VectorGame

TABLES = 5


@st.composite
def slices(draw: st.DrawFn) -> Any:
    bound = st.one_of(st.none(), st.integers(-TABLES - 2, TABLES + 2), HUGE, ODD,
                      st.sampled_from([np.int64(1), np.uint64(3), np.int8(-2)]))
    if draw(st.integers(0, 4)) == 0:
        return draw(st.one_of(ODD, st.just(range(TABLES)), st.integers(0, TABLES)))
    return slice(draw(bound), draw(bound), draw(st.one_of(st.none(), st.integers(-2, 2),
                                                          ODD)))


@st.composite
def vector_ops(draw: st.DrawFn) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    op = draw(st.sampled_from(["step", "unchecked", "exact", "async", "async", "async",
                               "abandon"]))
    cols = st.one_of(st.integers(0, 5), st.integers(-3, 9), HUGE)
    if op == "abandon":
        size = draw(st.sampled_from([TABLES, TABLES, 0, TABLES - 1, TABLES + 1]))
        return op, (_vector(draw, size, st.one_of(st.booleans(), st.integers(-1, 2))),), {}
    if op == "exact":
        kinds = _vector(draw, TABLES, st.integers(-1, 3))
        amounts = _vector(draw, TABLES, st.one_of(st.integers(0, 300), HUGE))
        return op, (kinds, amounts), {}
    if op != "async":
        return op, (_vector(draw, TABLES, cols),), {}
    which = draw(slices()) if draw(st.booleans()) else None
    rows = TABLES
    if isinstance(which, slice):
        try:
            lo, hi, _ = which.indices(TABLES)
            rows = max(0, hi - lo)
        except (TypeError, ValueError, OverflowError):
            pass
    hold = None if draw(st.booleans()) else _vector(draw, TABLES, st.booleans())
    checked = draw(st.one_of(st.booleans(), ODD))
    return op, (_vector(draw, rows, cols), which), {"hold": hold, "checked": checked}


def _vg_state(vg: Any) -> list[Any]:
    """What a refused call must leave as it was: the rows, the actors, the totals, the hands.

    A step in flight (an accepted ``step_async``) is completed first: until then its threads
    are writing the rows (VectorGame.step_async), so a copy taken earlier would catch them
    mid-step and the step's own progress would read as a change made by the refused call."""
    vg.step_wait()
    return [vg.observation.copy(), vg.legal_mask.copy(), vg.current_player.copy(),
            vg.total_payoffs(), vg.hands_played()]


def _same(before: list[Any], after: list[Any]) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))


@given(st.lists(vector_ops(), min_size=1, max_size=8))
@bounded(80)
def vector_game_inputs(ops: list[tuple[str, tuple[Any, ...], dict[str, Any]]]) -> None:
    from holdem.vector import VectorGame

    env = VectorGame(Game(big_blind=2), num_tables=TABLES, players=3, stacks=60, seed=5,
                     num_threads=2)
    env.reset()

    for op, args, kwargs in ops:
        before = _vg_state(env)
        fn = {"step": env.step, "unchecked": env.step_unchecked, "exact": env.step_exact,
              "async": env.step_async, "abandon": env.abandon}[op]
        got = call(fn, *args, **kwargs)
        env.step_wait()
        if rejected(got):
            assert _same(before, _vg_state(env)), (op, args, kwargs, got)
    env.close()


def test_vector_game_inputs() -> None:
    run_in_child(__file__, "vector_game_inputs")


def test_step_async_tables_that_are_not_integer_slices_are_refused_by_the_library() -> None:
    from holdem import InvalidArrayError
    from holdem.vector import VectorGame

    env = VectorGame(Game(big_blind=2), num_tables=3, players=2, stacks=100, seed=1)
    env.reset()
    before = [env.table_state(i) for i in range(3)]
    for bad in (slice(0.0, 3), slice("a", None), slice(None, None, 0), slice(0, 3, 1.0)):
        with pytest.raises(InvalidArrayError, match="tables must be a slice"):
            env.step_async([1, 1, 1], bad)
    assert [env.table_state(i) for i in range(3)] == before


def test_step_async_ragged_hold_is_refused_by_the_library() -> None:
    from holdem import InvalidArrayError
    from holdem.vector import VectorGame

    env = VectorGame(Game(big_blind=2), num_tables=3, players=2, stacks=100, seed=1)
    env.reset()
    before = [env.table_state(i) for i in range(3)]
    with pytest.raises(InvalidArrayError, match="hold must be 3 bools"):
        env.step_async([1, 1, 1], hold=[[True], True, [False, True]])
    assert [env.table_state(i) for i in range(3)] == before


@given(st.lists(st.one_of(ODD, st.integers(-3, 200), st.fractions(), HUGE,
                          st.floats(min_value=1e-320, max_value=1e-300),
                          st.builds(np.array, st.floats(0.1, 2)),
                          st.builds(np.array, st.lists(st.floats(0.1, 2), max_size=2)),
                          st.sampled_from([np.float32(0.5), np.int64(1), np.uint8(2)])),
                max_size=4))
@bounded(150)
def layout_fractions(fractions: list[Any]) -> None:
    from holdem.vector import ActionLayout

    got = call(ActionLayout, tuple(fractions))
    if rejected(got) and "not exact" in str(got.exc):  # a hint names a fraction in range
        assert "Fraction(0," not in str(got.exc), got


def test_layout_fractions() -> None:
    run_in_child(__file__, "layout_fractions")


def test_layout_fraction_given_as_an_array_is_a_config_error() -> None:
    from holdem.vector import ActionLayout

    for bad in (np.array(0.5), np.array([0.5]), np.array([1, 2])):
        with pytest.raises(InvalidConfigError, match="a pot fraction must be a number"):
            ActionLayout((bad,))


def test_layout_fraction_too_small_gives_no_zero_hint() -> None:
    from holdem.vector import ActionLayout

    with pytest.raises(InvalidConfigError, match=r"in \(0, 100\]") as info:
        ActionLayout((1e-320,))
    assert "Fraction(0, 1)" not in str(info.value)


def test_actions_of_python_ints_outside_int64_say_so() -> None:
    from holdem import InvalidArrayError
    from holdem.vector import VectorGame

    env = VectorGame(Game(big_blind=2), num_tables=4, players=2, stacks=100, seed=1)
    env.reset()
    for bad in ([2**64, 1, 1, 1], [-(2**63) - 1, 1, 1, 1], [2**63, -1, 1, 1]):
        with pytest.raises(InvalidArrayError, match="has a value outside int64"):
            env.step(bad)
        with pytest.raises(InvalidArrayError, match="has a value outside int64"):
            env.step_exact([2, 1, 1, 1], bad)


# --------------------------------------------------------------------------- Gymnasium

ENVS = 4


@st.composite
def gym_ops(draw: st.DrawFn) -> tuple[str, Any]:
    op = draw(st.sampled_from(["step", "step", "step", "async", "wait", "reset", "reset"]))
    if op in ("step", "async"):
        cols = st.one_of(st.integers(0, 5), st.integers(-3, 9), HUGE)
        return op, _vector(draw, ENVS, cols)
    if op == "reset":
        return op, draw(st.one_of(st.none(), st.integers(0, 9), ODD, HUGE,
                                  st.lists(st.integers(0, 3), max_size=2)))
    return op, None


@given(st.sampled_from(["check_call", "raise"]), st.sampled_from(["same_step", "next_step"]),
       st.lists(gym_ops(), min_size=1, max_size=10))
# A step refused while an accepted step_async is still being stepped by the threads (found at
# HOLDEM_BAD_INPUT_SCALE=20), now run at every scale; five times over, as the threads may
# finish any one of those steps before the snapshot is taken.
@example("check_call", "same_step",
         [("async", np.zeros(ENVS, dtype=np.int64)), ("step", [0] * ENVS), ("wait", None)] * 5)
@bounded(60)
def gym_vector_env(illegal: str, mode: str, ops: list[tuple[str, Any]]) -> None:
    from holdem.rl.gymnasium import HoldemVectorEnv

    env = HoldemVectorEnv(Game(big_blind=2), num_envs=ENVS, players=3, stacks=60,
                          illegal=illegal, autoreset_mode=mode, num_threads=2)
    call(env.reset, seed=1)
    for op, arg in ops:
        vg = env.vector_game
        before = _vg_state(vg)
        if op == "step":
            got = call(env.step, arg)
        elif op == "async":
            got = call(env.step_async, arg)
        elif op == "wait":
            got = call(env.step_wait)
        else:
            got = call(env.reset, seed=arg)
        if rejected(got) and op != "wait":
            assert env.vector_game is vg, (op, arg, got)
            assert _same(before, _vg_state(vg)), (op, arg, got)
    env.close()


def test_gym_vector_env() -> None:
    pytest.importorskip("gymnasium")
    run_in_child(__file__, "gym_vector_env")


@given(st.lists(st.tuples(st.sampled_from(["step", "step", "reset"]),
                          st.one_of(ODD, st.integers(-3, 9), HUGE,
                                    st.sampled_from([np.int8(-1), np.uint64(2**64 - 1),
                                                     np.array(1), np.array([1]),
                                                     np.array(1.0), np.bool_(True)]))),
                min_size=1, max_size=10))
@bounded(60)
def gym_env(ops: list[tuple[str, Any]]) -> None:
    from holdem.rl.gymnasium import HoldemEnv

    env = HoldemEnv(players=3, seat=1, illegal="raise")
    call(env.reset, seed=2)
    for op, arg in ops:
        before = env.vector_game.table_state(0)
        got = call(env.step, arg) if op == "step" else call(env.reset, seed=arg)
        if rejected(got) and op == "step":
            assert env.vector_game.table_state(0) == before, (arg, got)


def test_gym_env() -> None:
    pytest.importorskip("gymnasium")
    run_in_child(__file__, "gym_env")


def test_gym_vector_env_illegal_and_autoreset_mode_must_be_their_own_types() -> None:
    pytest.importorskip("gymnasium")
    from holdem.rl.gymnasium import HoldemEnv, HoldemVectorEnv

    for kwargs in ({"illegal": np.array(["raise"])}, {"illegal": np.array(["raise", "x"])},
                   {"autoreset_mode": np.array([1, 2])},
                   {"autoreset_mode": np.array(["same_step"])}):
        with pytest.raises(InvalidConfigError, match=next(iter(kwargs))):
            HoldemVectorEnv(Game(big_blind=2), num_envs=2, **kwargs)
    with pytest.raises(InvalidConfigError, match="illegal"):
        HoldemEnv(illegal=np.array(["raise"]))  # type: ignore[arg-type]


def test_gym_vector_env_num_envs_is_named_as_given() -> None:
    """A bad ``num_envs`` is refused under that name (the engine's is ``num_tables``), through
    the constructor and through ``gymnasium.make_vec``, whose keyword it is."""
    gymnasium = pytest.importorskip("gymnasium")
    from holdem.rl.gymnasium import SELF_PLAY_ID, HoldemVectorEnv

    for bad, match in ((0, r"^num_envs must be 1\.\.67108864, got 0$"),
                       (-3, r"^num_envs must be 1\.\.67108864, got -3$"),
                       (2**26 + 1, r"^num_envs must be 1\.\.67108864, got 67108865$"),
                       ("8", r"^num_envs must be an int, got '8'$"),
                       (True, r"^num_envs must be an int, got True$"),
                       (2.0, r"^num_envs must be an int, got 2\.0$")):
        with pytest.raises(InvalidConfigError, match=match):
            HoldemVectorEnv(Game(big_blind=2), num_envs=bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidConfigError, match=match):
            gymnasium.make_vec(SELF_PLAY_ID, num_envs=bad)
    assert HoldemVectorEnv(num_envs=np.uint8(3)).num_envs == 3


def test_gym_env_seat_takes_a_numpy_int_as_the_other_ints() -> None:
    pytest.importorskip("gymnasium")
    from holdem.rl.gymnasium import HoldemEnv

    env = HoldemEnv(players=3, seat=np.int64(2))  # type: ignore[arg-type]
    assert env.seat == 2 and type(env.seat) is int
    for bad in (np.int64(3), 1.0, True, np.array([1]), "1"):
        with pytest.raises(InvalidConfigError, match=r"seat must be an int 0\.\.2"):
            HoldemEnv(players=3, seat=bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- PettingZoo

def test_pettingzoo_reset_with_a_refused_seed_changes_nothing() -> None:
    pytest.importorskip("pettingzoo")
    from holdem.rl.pettingzoo import HoldemAECEnv, HoldemParallelEnv

    for env in (HoldemAECEnv(players=2, hands=3, seed=7), HoldemParallelEnv(players=2, hands=3,
                                                                            seed=7)):
        env.reset()
        for bad in (-1, 1.0, "x", [1], 2**64):
            with pytest.raises(InvalidConfigError, match="seed must be"):
                env.reset(seed=bad)
            assert (env._core.seed, env._core.episode) == (7, 0)  # the seed's own session
        env.reset()  # the next session of seed 7, as if the refused calls had not been made
        twin = type(env)(players=2, hands=3, seed=7)
        twin.reset()
        twin.reset()
        assert env._core.episode == 1
        assert env.vector_game.cards(0, 0) == twin.vector_game.cards(0, 0)


def test_pettingzoo_last_before_reset_and_after_the_episode() -> None:
    pytest.importorskip("pettingzoo")
    from holdem.rl.pettingzoo import HoldemAECEnv

    env = HoldemAECEnv(players=2)
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        env.last()
    env.reset(seed=1)
    while env.agents:
        _, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else 1)
    with pytest.raises(IllegalActionError, match=r"call reset\(\)"):
        env.last()


def test_pettingzoo_observe_an_unhashable_agent() -> None:
    pytest.importorskip("pettingzoo")
    from holdem.rl.pettingzoo import HoldemAECEnv

    env = HoldemAECEnv(players=2)
    env.reset(seed=1)
    for bad in (["player_0"], {}, {"player_0"}):
        with pytest.raises(InvalidConfigError, match="unknown agent"):
            env.observe(bad)  # type: ignore[arg-type]


def test_pettingzoo_parallel_step_needs_a_dict_of_actions() -> None:
    pytest.importorskip("pettingzoo")
    from holdem.rl.pettingzoo import HoldemParallelEnv

    env = HoldemParallelEnv(players=2)
    env.reset(seed=1)
    before = env.vector_game.table_state(0)
    for bad in (None, 1, "player_0", ["player_0"], ("player_0", 1)):
        with pytest.raises(IllegalActionError, match="actions must be a dict"):
            env.step(bad)  # type: ignore[arg-type]
    assert env.vector_game.table_state(0) == before


PZ_ACTION = st.one_of(ODD, st.integers(-3, 9), HUGE,
                      st.sampled_from([np.int8(-1), np.uint64(2**64 - 1), np.int64(1),
                                       np.array(1), np.array([1]), np.bool_(True)]))
PZ_AGENT = st.one_of(st.sampled_from(["player_0", "player_1", "player_2", "player_9"]), ODD,
                     st.lists(st.just("player_0"), max_size=1))


def _pz_state(env: Any) -> Any:
    core = env._core
    return (core.vg.table_state(0) if core.started else None, core.seed, core.episode,
            core.hand, core.in_hand, list(env.agents))


@given(st.sampled_from([1, 3]), st.sampled_from(["raise", "check_call"]),
       st.lists(st.tuples(st.sampled_from(["step", "step", "step", "observe", "last",
                                           "reset"]), PZ_ACTION, PZ_AGENT,
                          st.one_of(st.none(), st.integers(0, 5), ODD, HUGE)),
                min_size=1, max_size=12))
@bounded(60)
def pettingzoo_aec(hands: int, illegal: str, ops: list[tuple[Any, ...]]) -> None:
    from holdem.rl.pettingzoo import HoldemAECEnv

    env = HoldemAECEnv(players=3, stacks=40, hands=hands, illegal=illegal)
    for op, action, agent, seed in ops:
        before = _pz_state(env)
        if op == "step":
            got = call(env.step, action)
        elif op == "observe":
            got = call(env.observe, agent)
        elif op == "last":
            got = call(env.last)
        else:
            got = call(env.reset, seed=seed)
        if rejected(got):
            assert _pz_state(env) == before, (op, action, agent, seed, got)


def test_pettingzoo_aec() -> None:
    pytest.importorskip("pettingzoo")
    run_in_child(__file__, "pettingzoo_aec")


@given(st.lists(st.tuples(st.sampled_from(["step", "step", "step", "reset"]),
                          st.one_of(ODD, PZ_ACTION, st.lists(PZ_ACTION, max_size=2),
                                    st.dictionaries(PZ_AGENT.filter(lambda a: not isinstance(
                                        a, list | dict)), PZ_ACTION, max_size=3)),
                          st.one_of(st.none(), st.integers(0, 5), ODD, HUGE)),
                min_size=1, max_size=12))
@bounded(60)
def pettingzoo_parallel(ops: list[tuple[Any, ...]]) -> None:
    from holdem.rl.pettingzoo import HoldemParallelEnv

    env = HoldemParallelEnv(players=3, stacks=40, hands=2)
    for op, actions, seed in ops:
        before = _pz_state(env)
        got = call(env.step, actions) if op == "step" else call(env.reset, seed=seed)
        if rejected(got):
            assert _pz_state(env) == before, (op, actions, seed, got)


def test_pettingzoo_parallel() -> None:
    pytest.importorskip("pettingzoo")
    run_in_child(__file__, "pettingzoo_parallel")


# --------------------------------------------------------------------------- OpenSpiel

# Python ints in int64 (pyspiel converts the argument first: its own TypeError beyond) and
# not -1 (pyspiel's kInvalidAction, refused by pyspiel itself with its SpielError)
SPIEL_INT = st.one_of(st.integers(-3, 260).filter(lambda a: a != -1),
                      st.sampled_from([2**31, 2**63 - 1, -(2**63), 10**6]))


@given(st.sampled_from(["fcpa", "default", "exact"]), st.randoms(use_true_random=False),
       st.lists(st.tuples(st.sampled_from(["apply", "apply", "string", "legal"]), SPIEL_INT),
                max_size=40))
@bounded(60)
def openspiel_moves(actions: str, rng: Any, odd: list[tuple[str, int]]) -> None:
    import pyspiel

    import holdem.rl.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game(f"python_holdem(players=3,stack=40,actions={actions})")
    state = game.new_initial_state()
    for op, value in odd:
        player = state.current_player()
        before = (str(state), state.history())
        if op == "apply":
            got = call(state.apply_action, value)
            if rejected(got):
                assert (str(state), state.history()) == before, (value, got)
        elif op == "string":
            got = call(state.action_to_string, max(player, 0) if player != -1 else -1, value)
            if not rejected(got) and player >= 0 and 0 <= value < game.num_distinct_actions():
                assert isinstance(got, str)
        else:
            call(state.legal_actions)
        if state.is_terminal():
            continue
        if state.is_chance_node():  # a real move between the odd ones
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_openspiel_moves() -> None:
    pytest.importorskip("pyspiel")
    run_in_child(__file__, "openspiel_moves")


def _finished_state(actions: str) -> Any:
    import pyspiel

    import holdem.rl.openspiel  # noqa: F401 - registers the game

    state = pyspiel.load_game(f"python_holdem(actions={actions})").new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node()
                           else state.legal_actions()[0])
    return state


@pytest.mark.parametrize("actions", ["fcpa", "exact"])
def test_openspiel_action_on_a_finished_hand_is_illegal(actions: str) -> None:
    pytest.importorskip("pyspiel")
    state = _finished_state(actions)
    before = (str(state), state.history(), state.returns())
    for action in (0, 1, 5):
        with pytest.raises(IllegalActionError, match="the hand is over"):
            state.apply_action(action)
    assert (str(state), state.history(), state.returns()) == before


def test_openspiel_action_to_string_of_a_column_outside_the_layout() -> None:
    pytest.importorskip("pyspiel")
    import pyspiel

    import holdem.rl.openspiel  # noqa: F401 - registers the game

    state = pyspiel.load_game("python_holdem(actions=fcpa)").new_initial_state()
    for c in range(4):
        state.apply_action(c)
    assert [state.action_to_string(0, a) for a in range(4)] == [
        "fold", "check_call", "raise_pot", "all_in"]
    for bad in (4, 99, -2, -4, 2**40):
        with pytest.raises(IllegalActionError, match=r"not a column index of the layout \(0\.\.3"):
            state.action_to_string(0, bad)


def test_openspiel_load_game_checks_its_parameters_before_pyspiel() -> None:
    pytest.importorskip("pyspiel")
    from holdem.rl import openspiel

    for params, message in (({"stack": 2**40}, "stack must fit OpenSpiel's 32-bit int"),
                            ({"players": 2**70}, "players must fit OpenSpiel's 32-bit int"),
                            ({"stack": -(2**31) - 1}, "stack must fit OpenSpiel's 32-bit int"),
                            ({"players": "2"}, "players must be an int"),
                            ({"players": True}, "players must be an int"),
                            ({"players": 2.0}, "players must be an int"),
                            ({"actions": None}, "actions must be a str"),
                            ({"stacks": [100, 100]}, "stacks must be a str"),
                            ({"bogus": 1}, "unknown parameter 'bogus'")):
        with pytest.raises(InvalidConfigError, match=message):
            openspiel.load_game(**params)
    # numpy integers are ints, as everywhere else in the library
    assert openspiel.load_game(players=np.int64(3), stack=np.uint16(50)).num_players() == 3
    for spec in (5, None, b"GAMEDEF", ["GAMEDEF"]):
        if spec is not None:  # (load_game(None): no specification, the defaults)
            with pytest.raises(InvalidConfigError, match="spec must be an ACPC gamedef"):
                openspiel.load_game(spec)  # type: ignore[arg-type]
        with pytest.raises(InvalidConfigError, match="spec must be an ACPC gamedef"):
            openspiel.game_parameters(spec)  # type: ignore[arg-type]


def test_without_numpy_actions_must_be_a_sequence_and_hold_one_dimensional(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without numpy, a dict was read as its keys (a set in its own order, a generator as
    it came) and a 2-D buffer as hold failed with NotImplementedError."""
    import array

    import holdem.vector as vector
    from holdem import InvalidArrayError

    monkeypatch.setattr(vector, "_np", None)
    env = vector.VectorGame(Game(big_blind=2), num_tables=4, players=2, stacks=100, seed=1)
    env.reset()
    before = [env.table_state(i) for i in range(4)]
    for bad in ({0: 1, 1: 1, 2: 1, 3: 1}, {1, 2, 3, 4}, (1 for _ in range(4))):
        for fn in (env.step, env.step_unchecked, env.step_async):
            with pytest.raises(InvalidArrayError, match="actions must be a sequence of ints"):
                fn(bad)
        with pytest.raises(InvalidArrayError, match="kinds must be a sequence of ints"):
            env.step_exact(bad, [0] * 4)
    two_d = memoryview(array.array("B", [0] * 4)).cast("?", (2, 2))
    for bad_hold in (two_d, {True: 1, False: 2, 3: 4, 5: 6}, 7):
        with pytest.raises(InvalidArrayError, match="hold must be 4 bools"):
            env.step_async([1] * 4, hold=bad_hold)
    assert [env.table_state(i) for i in range(4)] == before
    env.step_async([1] * 4, hold=memoryview(array.array("B", [1, 0, 0, 1])).cast("?"))
    env.step_async([1] * 4, hold=(True, False, False, True))


def test_play_curve_every_beyond_c_long_is_one_point() -> None:
    from holdem.table.agents import CallAgent
    from holdem.vector import VectorGame

    env = VectorGame(Game(big_blind=2), num_tables=2, players=2, stacks=100, seed=1)
    for every in (2**63, 2**70, np.uint64(2**64 - 1)):
        got = env.play(3, [CallAgent(), CallAgent()], curve_every=every)
        assert got.curve_hands == (3,)
        assert np.array_equal(got.curve[:, 0], got.payoffs)


def test_play_keep_hands_must_be_a_bool() -> None:
    from holdem.table.agents import CallAgent
    from holdem.vector import VectorGame

    env = VectorGame(Game(big_blind=2), num_tables=2, players=2, stacks=100, seed=1)
    for bad in (None, 1, "yes", np.bool_(True)):
        with pytest.raises(InvalidConfigError, match="keep_hands must be True or False"):
            env.play(2, [CallAgent(), CallAgent()], keep_hands=bad)  # type: ignore[arg-type]
    assert env.play(2, [CallAgent(), CallAgent()], keep_hands=True).hand_payoffs.shape == (
        2, 2, 2)


def _machine_with(monkeypatch: pytest.MonkeyPatch, nbytes: int) -> None:
    """Make holdem see a machine of ``nbytes`` of physical memory (the checks' one probe)."""
    from holdem import _memory

    monkeypatch.setattr(_memory, "physical_memory", lambda: nbytes)


def test_vector_game_tables_beyond_the_machines_memory_are_refused_before_allocating(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """num_tables=2**26 (237 GB at 3.5 KB a table) was let through to the allocator, which
    raised a bare MemoryError("no memory for 67108864 tables"). The tables' bytes
    (memory_per_table each) are counted first and refused beyond the machine's memory."""
    from holdem import vector

    small = vector.VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=100, seed=1)
    per_table = small.memory_per_table()
    _machine_with(monkeypatch, 100 * per_table)
    with monkeypatch.context() as m:
        m.setattr(vector, "_alloc", lambda *a: pytest.fail("allocated before the check"))
        for n, final in ((101, False), (80, True), (2**26, False)):  # (80 fit without final rows)
            with pytest.raises(InvalidConfigError,
                               match=rf"^{n:,} tables would take about [0-9,]+ bytes, more than "
                                     rf"this machine's {100 * per_table:,} bytes of memory: use "
                                     r"fewer tables \(num_tables\)"):
                vector.VectorGame(Game(big_blind=2), num_tables=n, players=2, stacks=100,
                                  final_observation=final)
    env = vector.VectorGame(Game(big_blind=2), num_tables=100, players=2, stacks=100, seed=1)
    assert env.memory_per_table() == per_table  # (the count the check used)


def test_the_machines_memory_is_its_physical_memory_or_unknown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound is the physical memory os.sysconf gives; where it cannot say (Windows),
    nothing is refused beforehand (a fixed 64 GiB refused what a bigger machine holds)."""
    import os

    from holdem import _memory

    if hasattr(os, "sysconf") and "SC_PHYS_PAGES" in os.sysconf_names:
        assert _memory.physical_memory() == (os.sysconf("SC_PAGE_SIZE")
                                             * os.sysconf("SC_PHYS_PAGES"))

    def unknown(name: str) -> int:
        raise ValueError(name)

    monkeypatch.setattr(os, "sysconf", unknown, raising=False)
    assert _memory.physical_memory() is None
    _memory.check_fits(2**80, "a test", "none")  # unknown: left to the allocator
    monkeypatch.setattr(os, "sysconf", lambda name: -1, raising=False)
    assert _memory.physical_memory() is None


def test_vector_game_out_of_memory_is_the_librarys_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A MemoryError met allocating within the machine's memory (ulimit -v, a container) is
    an InvalidConfigError naming the bytes, as the check's (it was a bare MemoryError)."""
    from holdem import vector

    def no_memory(*args: object) -> None:
        raise MemoryError

    env = vector.VectorGame(Game(big_blind=2), num_tables=2, players=2, stacks=100, seed=1)
    monkeypatch.setattr(vector, "_alloc", no_memory)
    with pytest.raises(InvalidConfigError, match=r"^3 tables: no memory for about [0-9,]+ bytes"):
        vector.VectorGame(Game(big_blind=2), num_tables=3, players=2, stacks=100)
    with pytest.raises(InvalidConfigError, match=r"^play\(10 hands\) on 2 tables: .* no memory "
                                                 r"for about [0-9,]+ bytes: play fewer hands"):
        env.play(10, [_call(), _call()])


def _call() -> Any:
    from holdem.table.agents import CallAgent

    return CallAgent()


def test_play_counts_every_buffer_and_refuses_beyond_the_machines_memory(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """play's size check counted the int64 arrays against a fixed 64 GiB, not curve_hands (a
    tuple of Python ints, about 40 bytes a point: play(10**8, curve_every=1) built 3.8 GB of
    them before failing with a bare MemoryError), and let keep_hands ask for 14.9 GiB on
    any machine. Every buffer is counted before anything is allocated, against the
    machine's memory."""
    from holdem import vector

    env = vector.VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=100, seed=1)
    seats = [_call(), _call()]
    # 200,000 points: a 3.2 MB curve and 9.6 MB of curve_hands, more than 10 MB together
    _machine_with(monkeypatch, 10**7)
    with monkeypatch.context() as m:
        m.setattr(vector, "_alloc", lambda *a: pytest.fail("allocated before the check"))
        with pytest.raises(InvalidConfigError,
                           match=r"^play\(200,000 hands\) on 1 tables: the curve of 200,000 "
                                 r"points \(12,800,000 bytes\) would take about 12,800,072 "
                                 r"bytes, more than this machine's 10,000,000 bytes of memory: "
                                 r"play fewer hands per call, raise curve_every$"):
            env.play(200_000, seats, curve_every=1)
        with pytest.raises(InvalidConfigError,
                           match=r"keep_hands=True \(16,000,000 bytes\) would take about "
                                 r"16,000,712 bytes, .*, or leave keep_hands False$"):
            env.play(10**6, seats, keep_hands=True)
    assert len(env.play(200_000, seats, curve_every=1000).curve_hands) == 200
    _machine_with(monkeypatch, 2 * 10**7)  # a machine that holds it plays it
    got = env.play(200_000, seats, curve_every=1)
    assert got.curve_hands[:3] == (1, 2, 3) and len(got.curve_hands) == 200_000


def test_gym_vector_env_beyond_the_machines_memory_is_refused_before_allocating(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """HoldemVectorEnv(num_envs=2**20) raised numpy's _ArrayMemoryError on a 4 GB limit: its
    tables and its own arrays (the observation space's bounds, a step's copies: more than
    the engine's) are counted first and refused beyond the machine's memory."""
    pytest.importorskip("gymnasium")
    from holdem import vector
    from holdem.rl.gymnasium import HoldemVectorEnv

    tables = vector.VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=100,
                               final_observation=True).memory_per_table()
    _machine_with(monkeypatch, 2000 * tables)  # the engine's 1,000 tables fit, the env's not
    with monkeypatch.context() as m:
        m.setattr(vector, "_alloc", lambda *a: pytest.fail("allocated before the check"))
        with pytest.raises(InvalidConfigError,
                           match=r"^1,000 tables and their spaces would take about [0-9,]+ "
                                 r"bytes, more than this machine's [0-9,]+ bytes of memory: "
                                 r"use fewer tables \(num_envs\)"):
            HoldemVectorEnv(Game(big_blind=2), num_envs=1000, players=2)
    env = HoldemVectorEnv(Game(big_blind=2), num_envs=np.int64(100), players=2)
    assert env.reset()[0].shape == (100, env.vector_game.observation_spec.width)
    with pytest.raises(InvalidConfigError, match=r"players must be 2\.\.10"):  # (its own words)
        HoldemVectorEnv(Game(big_blind=2), num_envs=1000, players=11)


def test_gym_vector_env_num_envs_and_players_are_plain_ints() -> None:
    pytest.importorskip("gymnasium")
    from holdem.rl.gymnasium import HoldemVectorEnv

    env = HoldemVectorEnv(Game(big_blind=2), num_envs=np.int64(3), players=np.uint8(4))
    assert (env.num_envs, env.players) == (3, 4)
    assert type(env.num_envs) is int and type(env.players) is int


def test_openspiel_strings_of_a_player_outside_the_game_are_refused() -> None:
    """The observer's strings for player 2 of a heads-up game were player 0's (-1: player
    1's), hole cards included; the tensors already refused such a player."""
    pytest.importorskip("pyspiel")
    import pyspiel
    from open_spiel.python.observation import make_observation

    import holdem.rl.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_holdem")
    state = game.new_initial_state()
    for card in range(4):
        state.apply_action(card)
    for recall in (True, False):
        observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall))
        for player in (2, -1, 99):
            with pytest.raises(InvalidConfigError, match=r"seat must be 0\.\.1"):
                observer.string_from(state, player)
            with pytest.raises(InvalidConfigError, match=r"seat must be 0\.\.1"):
                observer.set_from(state, player)
        assert "seat 1" in observer.string_from(state, 1)
    fresh = game.new_initial_state()  # before the deal too
    for player in (2, -1):
        with pytest.raises(InvalidConfigError, match=r"seat must be 0\.\.1"):
            fresh.encode(player)
        with pytest.raises(InvalidConfigError, match=r"seat must be 0\.\.1"):
            state.information_state_text(player)
        with pytest.raises(InvalidConfigError, match=r"seat must be 0\.\.1"):
            state.observation_text(player)


def test_openspiel_make_py_observer_of_an_odd_type() -> None:
    pytest.importorskip("pyspiel")
    import pyspiel

    import holdem.rl.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_holdem")
    for bad in (5, "perfect", object()):
        with pytest.raises(InvalidConfigError, match="iig_obs_type must be"):
            game.make_py_observer(bad)
    # none: the observation (perfect_recall False), as OpenSpiel's games take it
    assert game.make_py_observer(None).tensor.shape == game.make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=False)).tensor.shape


def test_layout_mask_and_amounts_of_something_that_is_not_a_hand() -> None:
    from holdem.vector import ActionLayout

    layout = ActionLayout()
    for bad in (None, 5, "x", Game(big_blind=2), np.zeros(3)):
        for method in (layout.mask, layout.amounts):
            with pytest.raises(InvalidConfigError, match=r"state must be a holdem\.HandState"):
                method(bad)  # type: ignore[arg-type]
    state = Game(big_blind=2).new_hand([100, 100])
    assert layout.mask(state)[1] and layout.amounts(state)[-1] == 100


def test_reseat_of_a_row_that_is_not_a_list_or_a_numpy_row() -> None:
    from holdem import InvalidArrayError
    from holdem.vector import ObservationSpec

    spec = ObservationSpec(3)
    row = np.asarray(spec.encode(Game(big_blind=2).new_hand([100] * 3)), dtype=np.float32)
    for bad in (None, 5, np.array(1.0), memoryview(row), tuple(row.tolist()), row[None, :],
                row[:-1], row.tolist()[:-1]):
        with pytest.raises(InvalidArrayError, match=f"one observation row of {spec.width}"):
            spec.reseat(bad, 1, (0, 1))
    assert spec.reseat(row, 1, (0, 1)).shape == row.shape
    assert len(spec.reseat(row.tolist(), 1, (0, 1))) == spec.width


def test_vector_game_stacks_of_a_dict_or_a_set_are_refused() -> None:
    """A dict was read as its keys and a set in its own order (ObservationSpec.high
    already refuses both, and a string)."""
    from holdem.vector import VectorGame

    for bad in ({100: "a", 200: "b", 300: "c"}, {300, 100, 200}, frozenset({1, 2, 3}),
                "200", b"200"):
        with pytest.raises(InvalidConfigError, match="stacks must be an int or ints"):
            VectorGame(Game(big_blind=2), num_tables=1, players=3, stacks=bad, seed=1)
    env = VectorGame(Game(big_blind=2), num_tables=1, players=3, stacks=iter([300, 100, 200]),
                     seed=1)
    assert "stacks=(300, 100, 200)" in repr(env)


def test_layout_fractions_of_a_dict_or_a_set_are_refused() -> None:
    """The columns follow the order of the fractions: a set has none of its own, and a dict
    was read as its keys."""
    from holdem.vector import ActionLayout

    for bad in ({0.5, 1}, frozenset({0.5}), {0.5: "half", 1: "pot"}):
        with pytest.raises(InvalidConfigError, match="fractions must be a sequence"):
            ActionLayout(bad)  # type: ignore[arg-type]
    assert ActionLayout([1, "1/2"]).names[2:4] == ("raise_pot", "raise_half_pot")


def test_errors_quote_a_huge_input_in_a_short_line() -> None:
    """A refused value of a megabyte (a string, a long list) is quoted by its first
    characters and its size, so the message stays one short line."""
    from holdem.vector import ActionLayout, VectorGame

    huge_text, huge_list = "x" * 1_000_000, list(range(200_000))
    tries: list[Any] = [
        lambda: VectorGame(Game(big_blind=2), num_tables=2, players=2, stacks=huge_text,
                           seed=1),
        lambda: ActionLayout.preset(huge_text),
        lambda: VectorGame(Game(big_blind=2), num_tables=2, players=2, stacks=200,
                           actions=huge_list, seed=1),
    ]
    if importlib.util.find_spec("pettingzoo") is not None:
        from holdem.rl.pettingzoo import HoldemParallelEnv

        env = HoldemParallelEnv(players=2)
        env.reset(seed=1)
        tries.append(lambda: env.step(huge_list))  # type: ignore[arg-type]
    for attempt in tries:
        with pytest.raises((InvalidConfigError, IllegalActionError)) as info:
            attempt()
        assert len(str(info.value)) < 400, str(info.value)[:500]
        assert "..." in str(info.value)


def test_env_pickles_are_checked() -> None:
    """The envs unpickled any state (PettingZoo's core by ``__dict__.update``, HoldemEnv by
    default): ``actor=99`` or ``seat=99`` loaded and failed at the next step or reset with
    IndexError or KeyError, a missing field with AttributeError, ``seed=-5`` or ``hands=0``
    (which the constructor refuses) were kept. Each is InvalidStateError now, and a true
    pickle plays on as the original."""
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    import pickle

    from holdem import InvalidStateError
    from holdem.rl.gymnasium import HoldemEnv
    from holdem.rl.pettingzoo import HoldemAECEnv, HoldemParallelEnv
    from holdem.vector import VectorGame

    aec = HoldemAECEnv(Game(big_blind=2), players=3, hands=3, seed=2)
    aec.reset(seed=1)
    par = HoldemParallelEnv(players=2, hands=2, seed=3)
    par.reset(seed=5)
    gym = HoldemEnv(Game(big_blind=2), players=3, seat=1)
    gym.reset(seed=1)
    for env in (aec, par, gym, HoldemEnv(players=2)):
        again = pickle.loads(pickle.dumps(env))
        assert type(again) is type(env)
    twin = pickle.loads(pickle.dumps(gym))
    for _ in range(6):
        a, b = gym.step(1), twin.step(1)
        assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
        if a[2]:
            break
    core = aec._core
    good = core.__getstate__()
    other = VectorGame(Game(big_blind=2), num_tables=1, players=3, stacks=99, seed=1)
    other.reset()
    for field, value, why in [("actor", 99, "actor must be an int -1..2"),
                              ("seed", -5, "seed must be an int in 0..2\\*\\*64-1"),
                              ("hands", 0, "hands must be an int >= 1"),
                              ("vg", "junk", "its engine is not the one"),
                              ("vg", VectorGame(Game(big_blind=2), num_tables=1, players=3,
                                                stacks=99, seed=1), "its engine was never"),
                              ("vg", other, "its engine is not the one"),
                              ("started", 1, "started must be a bool"),
                              ("holes", ((1, 2),), "holes must be")]:
        with pytest.raises(InvalidStateError, match=f"not a valid pickled PettingZoo env: "
                                                    f"{why}"):
            type(core).__new__(type(core)).__setstate__({**good, field: value})
    with pytest.raises(InvalidStateError, match="its fields are not the env's"):
        type(core).__new__(type(core)).__setstate__(
            {k: v for k, v in good.items() if k != "episode"})
    state = dict(gym.__dict__)
    for field, value, why in [("seat", 99, "seat must be an int 0..2"),
                              ("_last_actor", 5, "_last_actor must be an int 0..2"),
                              ("_broken", None, "_broken must be a bool"),
                              ("_policies", {0: print}, "opponents must be one policy or "
                                                        "a sequence of 2"),
                              ("_policies", {5: print, 0: print}, "its opponents. seats"),
                              ("_np_random", 5, "its generator")]:
        with pytest.raises(InvalidStateError, match=f"not a valid pickled HoldemEnv: ({why})"):
            HoldemEnv.__new__(HoldemEnv).__setstate__({**state, field: value})


def test_random_policy_seed_is_checked_as_the_envs_seeds() -> None:
    """RandomPolicy handed its seed to numpy unchecked: a recursive list crashed the
    interpreter in default_rng (run in a child so that a regression cannot kill the suite),
    ``range(10**18)`` hung, -1 and 1.5 raised numpy's own errors, and True or an array was
    kept (its repr no valid Python). Each is InvalidConfigError now, in reseed too."""
    pytest.importorskip("gymnasium")
    import subprocess
    import sys

    from holdem.rl.gymnasium import HoldemEnv, RandomPolicy

    code = ("from holdem.errors import InvalidConfigError\n"
            "from holdem.rl.gymnasium import RandomPolicy\n"
            "l = []\nl.append(l)\n"
            "try:\n    RandomPolicy(l)\n"
            "except InvalidConfigError as e:\n    print('refused:', e)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert "refused: seed must be an int in 0..2**64-1, got [[...]]" in done.stdout
    for bad in (range(10**18), -1, 1.5, True, np.array([1, 2]), 2**64, "3", None,
                np.float64(2.0)):
        with pytest.raises(InvalidConfigError, match=r"seed must be an int in 0\.\.2\*\*64-1"):
            RandomPolicy(bad)  # type: ignore[arg-type]
        policy = RandomPolicy(5)
        with pytest.raises(InvalidConfigError, match=r"seed must be an int in 0\.\.2\*\*64-1"):
            policy.reseed(bad)  # type: ignore[arg-type]
        assert repr(policy) == "RandomPolicy(seed=5)"
    # numpy integers are ints, kept as plain ints (the repr is Python)
    policy = RandomPolicy(np.uint64(2**64 - 1))  # type: ignore[arg-type]
    assert type(policy.seed) is int and repr(policy) == f"RandomPolicy(seed={2**64 - 1})"
    mask = np.array([False, True, True])
    assert RandomPolicy(np.int64(7))(np.zeros(3), mask) == RandomPolicy(7)(np.zeros(3), mask)
    # reset(seed=s) reseeds the k-th opponent with s + k, kept within 0..2**64-1
    env = HoldemEnv(players=3, opponents=[RandomPolicy(1), RandomPolicy(2)], seed=1)
    env.reset(seed=2**64 - 1)
    assert [p.seed for p in env._policies.values()] == [2**64 - 1, 0]  # type: ignore[attr-defined]


def test_openspiel_history_codes_width_is_bounded_and_an_int() -> None:
    """history_codes(width) allocated any width (10**12: MemoryError), raised IndexError for a
    width below the decisions so far and a bare TypeError for 2.5 or "x"."""
    pytest.importorskip("pyspiel")
    from holdem.rl import openspiel

    game = openspiel.load_game()
    state = game.new_initial_state()
    most = game.history_width
    for bad in (10**12, most + 1, -1, 2.5, "x", True, None, np.float32(3)):
        with pytest.raises(InvalidConfigError, match=rf"width must be an int 0\.\.{most} "):
            state.history_codes(bad)
    for card in range(4):
        state.apply_action(card)
    state.apply_action(1)  # one decision
    before = str(state)
    for bad in (0, 10**12):
        with pytest.raises(InvalidConfigError, match=rf"width must be an int 1\.\.{most} "):
            state.history_codes(bad)
    assert str(state) == before
    assert state.history_codes(np.int64(2)) == [2.0, 0.0]
    assert len(state.history_codes(most)) == most


def test_openspiel_holdem_game_params_are_checked_as_load_games() -> None:
    """HoldemGame(params) read its ints with int(): 2.5 big blinds were 2, 3.99 players 3, a
    button of 1.5 seat 1, True an int, an infinite stack raised OverflowError; params of "x"
    raised dict()'s ValueError and 5 a TypeError. They are checked as load_game checks them
    now, and pyspiel's own path still loads the game."""
    pytest.importorskip("pyspiel")
    import pyspiel

    from holdem.rl import openspiel

    for params, message in (({"big_blind": 2.5}, "big_blind must be an int, got 2.5"),
                            ({"players": 3.99}, "players must be an int, got 3.99"),
                            ({"button": 1.5}, "button must be an int, got 1.5"),
                            ({"players": True}, "players must be an int, got True"),
                            ({"stack": float("inf")}, "stack must be an int, got inf"),
                            ({"stack": "50"}, "stack must be an int, got '50'"),
                            ({"actions": None}, "actions must be a str"),
                            ({"stacks": [100, 100]}, "stacks must be a str"),
                            ({5: 1}, "unknown parameter 5; allowed: "),
                            ("x", "params must be a dict of game parameters .or None., got 'x'"),
                            (5, "params must be a dict of game parameters .or None., got 5"),
                            ([("players", 3)], "params must be a dict of game parameters")):
        with pytest.raises(InvalidConfigError, match=message):
            openspiel.HoldemGame(params)  # type: ignore[arg-type]
        if isinstance(params, dict) and all(isinstance(k, str) for k in params):
            with pytest.raises(InvalidConfigError, match=message):  # as load_game says it
                openspiel.load_game(**params)
    assert openspiel.HoldemGame({"players": np.int8(3)}).num_players() == 3
    assert str(openspiel.HoldemGame(None)) == str(openspiel.HoldemGame({})) == str(
        pyspiel.load_game("python_holdem"))
    game = pyspiel.load_game("python_holdem(players=3,stacks=50 60 70,big_blind=4,"
                             "small_blind=2,button=1)")
    assert game.config.stacks == (50, 60, 70) and game.config.button == 1


def test_openspiel_state_methods_of_a_player_that_is_not_an_int() -> None:
    """private_text("x") raised a TypeError that did not name the player, encode of
    Decimal("nan") decimal.InvalidOperation, and True was seat 1: each is the module's
    InvalidConfigError for a seat now, the strings and the tensor alike."""
    pytest.importorskip("pyspiel")
    from decimal import Decimal

    from holdem.rl import openspiel

    state = openspiel.load_game().new_initial_state()
    for card in range(4):
        state.apply_action(card)
    for bad in ("x", Decimal("nan"), Decimal(1), 1.0, True, None, np.array([0, 1])):
        for method in (state.private_text, state.encode, state.observation_text,
                       state.information_state_text):
            with pytest.raises(InvalidConfigError, match=r"seat must be 0\.\.1, got "):
                method(bad)
    assert state.private_text(np.int64(1)) == state.private_text(1)
    assert state.encode(np.uint8(0)) == state.encode(0)


HUGE_INT = 10**5000  # more digits than Python turns into text (int max str digits: 4300)


@pytest.mark.parametrize(("module", "make", "match"), [
    ("gymnasium", lambda m, g: m.HoldemVectorEnv(g, num_envs=HUGE_INT),
     r"^num_envs must be 1\.\.\d+, got an int of 16610 bits"),
    ("gymnasium", lambda m, g: m.HoldemVectorEnv(g, num_envs=2, num_threads=HUGE_INT),
     r"^num_threads must be 1\.\.256, got an int of 16610 bits"),
    ("gymnasium", lambda m, g: m.HoldemVectorEnv(g, num_envs=2, players=HUGE_INT),
     r"^players must be 2\.\.10 \(R1\), got an int of 16610 bits"),
    ("gymnasium", lambda m, g: m.HoldemVectorEnv(g, num_envs=2, stacks=HUGE_INT),
     r"^stack of seat 0 must be 1\.\.2\*\*53, got an int of 16610 bits"),
    ("gymnasium", lambda m, g: m.HoldemEnv(g, players=-HUGE_INT),
     r"^players must be 2\.\.10 \(R1\), got an int of 16610 bits"),
    ("gymnasium", lambda m, g: m.HoldemEnv(g, stacks=HUGE_INT),
     r"^stack of seat 0 must be 1\.\.2\*\*53, got an int of 16610 bits"),
    ("gymnasium", lambda m, g: (env := m.HoldemEnv(g), env.reset(seed=1), env.step(HUGE_INT)),
     r"^action an int of 16610 bits is not a column index"),
    ("pettingzoo", lambda m, g: m.HoldemParallelEnv(g, players=HUGE_INT),
     r"^players must be 2\.\.10 \(R1\), got an int of 16610 bits"),
    ("pettingzoo", lambda m, g: m.HoldemAECEnv(g, stacks=-HUGE_INT),
     r"^stack of seat 0 must be 1\.\.2\*\*53, got an int of 16610 bits"),
    ("pettingzoo", lambda m, g: (env := m.HoldemAECEnv(g), env.reset(seed=1),
                                 env.step(HUGE_INT)),
     r"action an int of 16610 bits is not a column index"),
    ("openspiel", lambda m, g: m.load_game(players=HUGE_INT),
     r"^players must fit OpenSpiel's 32-bit int parameters .*got an int of 16610 bits"),
])
def test_rl_ints_too_long_to_print_are_described(module: str, make: Any, match: str) -> None:
    """An int of more than 4,300 digits reached a message formatted raw (VectorGame's checks,
    the adapters' action and parameter checks), which failed with Python's own ValueError
    ("Exceeds the limit (4300 digits) ...") instead of the library's error."""
    from holdem import HoldemError

    pytest.importorskip({"openspiel": "pyspiel"}.get(module, module))
    adapter = importlib.import_module(f"holdem.rl.{module}")
    with pytest.raises(HoldemError, match=match):
        make(adapter, Game(big_blind=2))


def test_pettingzoo_repr_with_a_huge_hand_count_does_not_fail() -> None:
    """``hands`` is any int >= 1; the env's repr failed on one too long for decimal text."""
    pzoo = pytest.importorskip("holdem.rl.pettingzoo")

    for cls in (pzoo.HoldemParallelEnv, pzoo.HoldemAECEnv):
        assert "hands=0x" in repr(cls(Game(big_blind=2), hands=HUGE_INT))
