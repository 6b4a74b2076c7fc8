"""Batched self-play (holdem.vector.VectorGame) against the one-decision-per-call loops.

Workload: 6-max no-limit 1/2 at 100 big blinds (200 chips), fresh stacks every hand.

- ``test_vector_random[1]`` / ``[2]``: N = 4,096 tables, ``num_threads`` 1 and 2, the policy a
  uniform random choice among the legal columns of the default layout, written in numpy over
  the whole batch (its time counted): :func:`holdem.vector.sample_legal`, which looks each
  row's pattern of legal columns up in a table. Besides the rate with the policy
  (``decisions_per_s``), ``engine_decisions_per_s`` counts only the time inside
  ``step_unchecked`` (the median round's share).
- ``test_vector_random_argmax``: the same on one thread with the same policy written the
  first way that comes to mind, ``argmax(random(N, A) * legal_mask)`` (about 4x the numpy
  time of ``sample_legal``: a reduction over 6 columns per row, and two (N, A) temporaries).
- ``test_vector_pipelined``: ``num_threads=2`` with the batch in two halves, the numpy
  policy of one half computed while the threads step the other (``step_async``).
- ``test_handstate_loop``: :class:`holdem.HandState` with ``apply_unchecked`` and the inline
  uniform policy of ``bench_table.bare_hands`` (one Python call per decision).
- ``test_table_python_agent``: a :class:`holdem.Table` of six Python agents (the pure-Python
  uniform policy of :class:`holdem.RandomAgent`, not its compiled twin).
- ``test_rlcard_step``: RLCard's ``no-limit-holdem`` (6 players, 200 chips, blinds 1/2),
  ``env.step`` with a uniform choice among ``legal_actions`` (numpy draws).
- ``test_pettingzoo_aec``: PettingZoo's ``texas_holdem_no_limit_v6`` (RLCard's game) with 6
  players, through ``bench_rl.aec_loop``. The environment fixes 100-chip stacks; its RLCard
  game is given 200 after each seeding, so it plays 100 big blinds too.
- ``test_universal_poker``: OpenSpiel's ``universal_poker`` (C++), the same game (6 players,
  blinds 1/2, 200 chips, the ``fchpa`` abstraction), uniform random playouts through
  ``bench_openspiel.playouts``; skipped when ``open_spiel`` is not installed.
- ``test_vector_mlp`` / ``test_table_mlp``: a small numpy MLP (observation -> 128 -> 128 ->
  columns, ReLU, fixed seeded weights, greedy over the legal columns) over the whole batch,
  against the same network called once per decision by a Python agent at a :class:`Table`
  (its input: the table observation's stacks, bets, pot and cards written into a vector of
  the same width).
- ``test_vector_vs_table_interleaved[sample_legal]`` / ``[argmax]`` /
  ``test_vector_threads_interleaved[steps]``: the same ratios
  (one thread over the ``Table`` loop; two threads over one) from alternated rounds, one of
  each back to back, as the median of the per-round ratios with their range: on a loaded
  machine steadier than the ratio of two medians measured a minute apart.
- ``test_sample_legal_vs_argmax_interleaved[16]`` / ``[4096]``: the policy alone,
  ``sample_legal`` over ``argmax_policy`` on an engine's legal mask of 16 and 4,096 rows,
  rounds alternated (below 192 rows ``sample_legal`` packs the rows with ``numpy.packbits``,
  from there it gathers them: both pay a fixed cost per call that the argmax does not).
- ``test_vector_threads_interleaved[pipelined]``: the pipelined two threads over one
  thread, rounds alternated the same way.
- ``test_vector_pipelined_vs_steps_interleaved``: the pipelined halves over whole steps,
  both with two threads, rounds alternated.
- ``test_gym_vector_env_interleaved[...]``: the Gymnasium ``HoldemVectorEnv`` (``copy`` True,
  False; same-step with and without ``final_obs``; next-step; 4,096 tables, and 8 and 64 with
  the defaults) with the same policy, its rate over the bare loop's at as many tables, rounds
  alternated.
- ``test_partial_reset_abandon``: ``VectorGame.abandon`` of half of 4,096 session tables
  (Gymnasium's ``reset_mask``), its time over one step of the whole batch measured just
  before (``test_partial_reset_step``) as ``ratio_vs_step``.
- ``test_vector_scaling_tables`` / ``_players``: the random policy as N and the number of
  players grow (``bench/vector_scaling.py`` prints both tables and the RSS per table).

Each benchmark's ``extra_info`` has ``decisions_per_s`` (per median round) and its ratios to
the others measured in the same run (``ratio_vs_<peer>``; ``engine_ratio_vs_vector1`` for the
engine step alone; ``cores_used``: the CPU time of all the process's threads over the wall
time while a vector test ran). The vector tests run last in their group, so they see every peer. Run:
``python -m pytest bench/bench_vector.py --benchmark-enable --benchmark-only``. On a shared
machine, ``--benchmark-timer=time.process_time`` times by this process's CPU time (all its
threads: for ``num_threads=2`` that measures the CPU cost per decision, not the speed-up).
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from holdem import Game, Table
from holdem.table.agents import _random_act_python
from holdem.vector import VectorGame, sample_legal

np = pytest.importorskip("numpy", reason="the batched policy is written in numpy")

NL6 = Game(big_blind=2)
TABLES = 4096
STEPS = 40
HANDS = 300
PEER_DECISIONS = 3000
UNIVERSAL_POKER_6MAX = (
    "universal_poker(betting=nolimit,numPlayers=6,numRounds=4,blind=1 2 0 0 0 0,"
    "firstPlayer=3 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,"
    "stack=200 200 200 200 200 200,bettingAbstraction=fchpa)")
_LOOPS = ("handstate", "table", "rlcard", "pettingzoo", "universal_poker")
PEERS = {"table": ("handstate",), "vector1": _LOOPS, "vector2": (*_LOOPS, "vector1"),
         "pipelined2": (*_LOOPS, "vector1", "vector2"),
         "vector1_argmax": (*_LOOPS, "vector1"),
         "vector_mlp": ("table_mlp", "vector1")}  # the ratios each benchmark reports
_rates: dict[str, float] = {}
_engine: dict[str, list[float]] = {}  # seconds inside step_unchecked, one entry per round


class PythonRandomAgent:
    """RandomAgent's policy as plain Python (the compiled table loop does not recognise it)."""

    act = _random_act_python

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed).random


def argmax_policy(mask: Any, rng: Any) -> Any:
    """The uniform masked policy as ``argmax(random(N, A) * mask)`` (float32 draws)."""
    return (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)


POLICIES = {"sample_legal": sample_legal, "argmax": argmax_policy}


def vector_steps(env: VectorGame, rng: Any, steps: int, engine: list[float] | None = None,
                 clock: Any = time.perf_counter, policy: Any = sample_legal) -> int:
    """``steps`` batched decisions with a uniform masked numpy policy (``policy(mask, rng)``,
    ``sample_legal`` by default); returns decisions. The seconds (by ``clock``) spent inside
    ``step_unchecked`` are appended to ``engine``."""
    inside = 0.0
    mask = env.legal_mask  # the engine's buffer: each step rewrites it in place
    for _ in range(steps):
        cols = policy(mask, rng)
        t0 = clock()
        env.step_unchecked(cols)
        inside += clock() - t0
    if engine is not None:
        engine.append(inside)
    return steps * env.num_tables


def pipelined_steps(env: VectorGame, rng: Any, steps: int) -> int:
    """``vector_steps`` with the batch in two halves: the numpy policy of one half runs
    while the threads step the other (``step_async``); returns decisions."""
    half = env.num_tables // 2
    parts = (slice(0, half), slice(half, None))
    mask = env.legal_mask
    for _ in range(steps):
        for part in parts:
            env.step_async(sample_legal(mask[part], rng), part, checked=False)
    env.step_wait()
    return steps * env.num_tables


def handstate_decisions(hands: int, seed: int) -> int:
    from bench_table import bare_hands

    return bare_hands(hands, seed)


def table_decisions(hands: int, seed: int) -> int:
    table = Table(NL6, seats=6, seed=seed)
    for s in range(6):
        table.sit(s, f"p{s}", 200, PythonRandomAgent(seed + s))
    decisions = 0
    for _ in range(hands):
        table._reset_stacks(200)
        decisions += len(table.play_hand().state.raw_history())
    return decisions


def rlcard_decisions(env: Any, rng: Any, decisions: int) -> int:
    """RLCard's own loop: ``env.step`` with a uniform choice among the legal actions."""
    state, _ = env.reset()
    for _ in range(decisions):
        legal = list(state["legal_actions"])
        state, _ = env.step(legal[int(rng.integers(len(legal)))])
        if env.is_over():
            state, _ = env.reset()
    return decisions


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _record(benchmark: Any, name: str, decisions: int) -> None:
    assert decisions > 0
    stats = getattr(benchmark, "stats", None)
    if stats is None:  # benchmarks disabled: a smoke run
        return
    _rates[name] = decisions / stats.stats.median
    benchmark.extra_info["decisions_per_s"] = round(_rates[name])
    for peer in PEERS.get(name, ()):
        if peer in _rates:
            benchmark.extra_info[f"ratio_vs_{peer}"] = round(_rates[name] / _rates[peer], 2)
    inside = _engine.get(name)
    if inside:
        # the engine's share: the median of the measured rounds' seconds in the step (the
        # list starts with pytest-benchmark's calibration calls)
        engine_rate = decisions / _median(inside[-stats.stats.rounds:])
        _rates[f"engine_{name}"] = engine_rate
        benchmark.extra_info["engine_decisions_per_s"] = round(engine_rate)
        if name != "vector1" and "engine_vector1" in _rates:
            benchmark.extra_info["engine_ratio_vs_vector1"] = round(
                engine_rate / _rates["engine_vector1"], 2)


@pytest.mark.benchmark(group="self-play-6max")
def test_handstate_loop(benchmark: Any) -> None:
    _record(benchmark, "handstate", benchmark(handstate_decisions, HANDS, 1))


@pytest.mark.benchmark(group="self-play-6max")
def test_table_python_agent(benchmark: Any) -> None:
    _record(benchmark, "table", benchmark(table_decisions, HANDS, 1))


@pytest.mark.benchmark(group="self-play-6max")
def test_rlcard_step(benchmark: Any) -> None:
    rlcard = pytest.importorskip("rlcard", reason="the bench extra installs rlcard")
    env = rlcard.make("no-limit-holdem",
                      config={"game_num_players": 6, "chips_for_each": 200, "seed": 1})
    rng = np.random.default_rng(1)
    _record(benchmark, "rlcard", benchmark(rlcard_decisions, env, rng, PEER_DECISIONS))


def pettingzoo_6max() -> Any:
    """PettingZoo's no-limit environment for 6 players at 200 chips (its game is RLCard's;
    the environment makes a new one with 100-chip stacks whenever it is seeded)."""
    texas = pytest.importorskip("pettingzoo.classic.texas_holdem_no_limit_v6",
                                reason="the bench extra installs pettingzoo and rlcard")
    env = texas.env(num_players=6)
    raw = env.unwrapped
    reseed = raw._seed

    def _seed(seed: int | None = None) -> None:
        reseed(seed)
        raw.env.game.init_chips = [200] * 6

    raw._seed = _seed
    raw.env.game.init_chips = [200] * 6
    return env


@pytest.mark.benchmark(group="self-play-6max")
def test_pettingzoo_aec(benchmark: Any) -> None:
    from bench_rl import aec_loop

    env = pettingzoo_6max()
    rng = np.random.default_rng(1)
    _record(benchmark, "pettingzoo", benchmark(aec_loop, env, rng, PEER_DECISIONS))
    assert env.unwrapped.env.game.init_chips == [200] * 6


@pytest.mark.benchmark(group="self-play-6max")
def test_universal_poker(benchmark: Any) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
    from bench_openspiel import playouts

    game = pyspiel.load_game(UNIVERSAL_POKER_6MAX)
    _record(benchmark, "universal_poker", benchmark(playouts, game, 200, 1))


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.benchmark(group="self-play-6max")
def test_vector_random(benchmark: Any, threads: int, request: pytest.FixtureRequest) -> None:
    env = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1, num_threads=threads)
    env.reset()
    rng = np.random.default_rng(1)
    name = f"vector{threads}"
    inside = _engine[name] = []
    # the engine's share is timed by the benchmark's clock (--benchmark-timer)
    cpu = str(request.config.getoption("benchmark_timer")) == "time.process_time"
    clock = time.process_time if cpu else time.perf_counter
    wall, cpu_time = time.perf_counter(), time.process_time()
    decisions = benchmark(vector_steps, env, rng, STEPS, inside, clock)
    wall, cpu_time = time.perf_counter() - wall, time.process_time() - cpu_time
    env.close()
    _record(benchmark, name, decisions)
    if getattr(benchmark, "stats", None) is not None:
        # the cores this process got while it ran (CPU time of all its threads / wall time):
        # a 2-thread ratio near 1 with about 1 core used says the machine was busy
        benchmark.extra_info["cores_used"] = round(cpu_time / wall, 2)


@pytest.mark.benchmark(group="self-play-6max")
def test_vector_random_argmax(benchmark: Any) -> None:
    """One thread with the policy written as ``argmax(random(N, A) * mask)``."""
    env = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1)
    env.reset()
    inside = _engine["vector1_argmax"] = []
    decisions = benchmark(vector_steps, env, np.random.default_rng(1), STEPS, inside,
                          time.perf_counter, argmax_policy)
    _record(benchmark, "vector1_argmax", decisions)


@pytest.mark.benchmark(group="self-play-6max")
def test_vector_pipelined(benchmark: Any) -> None:
    """``num_threads=2`` with the policy of one half of the batch overlapping the step of
    the other (``step_async``), against the plain loops above."""
    env = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1, num_threads=2)
    env.reset()
    rng = np.random.default_rng(1)
    wall, cpu_time = time.perf_counter(), time.process_time()
    decisions = benchmark(pipelined_steps, env, rng, STEPS)
    wall, cpu_time = time.perf_counter() - wall, time.process_time() - cpu_time
    env.close()
    _record(benchmark, "pipelined2", decisions)
    if getattr(benchmark, "stats", None) is not None:
        benchmark.extra_info["cores_used"] = round(cpu_time / wall, 2)


INTERLEAVED_ROUNDS = 9


def _interleaved(benchmark: Any, first: Any, second: Any, key: str) -> None:
    """Alternate one round of ``first`` and one of ``second`` (each returns its decisions),
    ``INTERLEAVED_ROUNDS`` times; record the median of the per-round ratios of their rates
    (second over first) and their range as ``extra_info[key]``. On a loaded machine this is
    steadier than the ratio of two medians measured a minute apart."""
    ratios: list[float] = []

    def pair() -> int:
        t0 = time.perf_counter()
        a = first()
        t1 = time.perf_counter()
        b = second()
        t2 = time.perf_counter()
        ratios.append((b / (t2 - t1)) / (a / (t1 - t0)))
        return a + b

    benchmark.pedantic(pair, rounds=INTERLEAVED_ROUNDS, iterations=1)
    assert ratios and all(r > 0 for r in ratios)
    if getattr(benchmark, "stats", None) is not None:
        benchmark.extra_info[key] = round(_median(ratios), 2)
        benchmark.extra_info[f"{key}_range"] = [round(min(ratios), 2), round(max(ratios), 2)]


@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.benchmark(group="self-play-6max-interleaved")
def test_vector_vs_table_interleaved(benchmark: Any, policy: str) -> None:
    """One thread against the :class:`Table` + Python-agent loop, rounds alternated, with
    the numpy policy written either way."""
    env = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1)
    env.reset()
    rng = np.random.default_rng(1)
    _interleaved(benchmark, lambda: table_decisions(HANDS, 1),
                 lambda: vector_steps(env, rng, STEPS, policy=POLICIES[policy]),
                 "ratio_vs_table")


@pytest.mark.parametrize("rows", [16, 4096])
@pytest.mark.benchmark(group="policy-interleaved")
def test_sample_legal_vs_argmax_interleaved(benchmark: Any, rows: int) -> None:
    """The policy alone on a legal mask of the engine (default layout): ``sample_legal``
    against ``argmax_policy``, rounds of calls alternated; ``ratio_vs_argmax`` is the
    median of the per-round ratios of their rates (rows drawn per second)."""
    env = VectorGame(NL6, num_tables=rows, players=6, stacks=200, seed=1)
    env.reset()
    mask = env.legal_mask
    rng = np.random.default_rng(1)
    calls = max(1, 2_000_000 // (rows * 100))

    def drawing(policy: Any) -> int:
        for _ in range(calls):
            policy(mask, rng)
        return calls * rows

    _interleaved(benchmark, lambda: drawing(argmax_policy), lambda: drawing(sample_legal),
                 "ratio_vs_argmax")


@pytest.mark.parametrize("loop", ["steps", "pipelined"])
@pytest.mark.benchmark(group="self-play-6max-interleaved")
def test_vector_threads_interleaved(benchmark: Any, loop: str) -> None:
    """``num_threads=2`` against one thread, rounds alternated (the numpy policy counted):
    whole steps, or the halves pipelined (``step_async``)."""
    one = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1)
    two = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1, num_threads=2)
    one.reset()
    two.reset()
    rng1, rng2 = np.random.default_rng(1), np.random.default_rng(1)
    steps = vector_steps if loop == "steps" else pipelined_steps
    _interleaved(benchmark, lambda: vector_steps(one, rng1, STEPS),
                 lambda: steps(two, rng2, STEPS), "ratio_vs_vector1")
    two.close()


@pytest.mark.benchmark(group="self-play-6max-interleaved")
def test_vector_pipelined_vs_steps_interleaved(benchmark: Any) -> None:
    """Two threads both: the halves pipelined (``step_async``) against whole steps, rounds
    alternated (what overlapping the policy with the step gains)."""
    two = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1, num_threads=2)
    pipe = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1, num_threads=2)
    two.reset()
    pipe.reset()
    rng1, rng2 = np.random.default_rng(1), np.random.default_rng(1)
    _interleaved(benchmark, lambda: vector_steps(two, rng1, STEPS),
                 lambda: pipelined_steps(pipe, rng2, STEPS), "ratio_vs_vector2")
    two.close()
    pipe.close()


def gym_vector_steps(envs: Any, rng: Any, steps: int) -> int:
    """``vector_steps`` through the Gymnasium ``HoldemVectorEnv``: the same numpy policy on
    ``info["action_mask"]``."""
    mask = envs.reset()[1]["action_mask"]
    for _ in range(steps):
        mask = envs.step(sample_legal(mask, rng))[4]["action_mask"]
    return steps * envs.num_envs


@pytest.mark.parametrize(("copy", "mode", "final_obs", "tables"),
                         [(True, "same_step", True, TABLES), (False, "same_step", True, TABLES),
                          (False, "same_step", False, TABLES), (True, "next_step", True, TABLES),
                          (True, "same_step", True, 8), (True, "same_step", True, 64)])
@pytest.mark.benchmark(group="self-play-6max-interleaved")
def test_gym_vector_env_interleaved(benchmark: Any, copy: bool, mode: str,
                                    final_obs: bool, tables: int) -> None:
    """``HoldemVectorEnv`` (``copy`` True or False; ``autoreset_mode`` same-step or next-step;
    same-step with or without ``info["final_obs"]``; 4,096 tables, or 8 and 64 with the
    defaults) against the bare ``VectorGame`` loop with ``step_unchecked`` at as many tables,
    rounds alternated: ``ratio_vs_vector1`` is the env's rate over the bare loop's (1 would be
    no cost at all; at a few tables the env's own work per step weighs most)."""
    pytest.importorskip("gymnasium", reason="the rl extra installs gymnasium")
    from holdem.rl.gymnasium import HoldemVectorEnv

    env = VectorGame(NL6, num_tables=tables, players=6, stacks=200, seed=1)
    env.reset()
    envs = HoldemVectorEnv(NL6, num_envs=tables, players=6, stacks=200, seed=1, copy=copy,
                           autoreset_mode=mode, final_obs=final_obs)
    rng1, rng2 = np.random.default_rng(1), np.random.default_rng(1)
    steps = STEPS * TABLES // tables // 8  # (a few tables: as many steps as take ~ a round)
    steps = max(steps, STEPS)
    _interleaved(benchmark, lambda: vector_steps(env, rng1, steps),
                 lambda: gym_vector_steps(envs, rng2, steps), "ratio_vs_vector1")
    envs.close()


@pytest.mark.parametrize("tables", [1, 64, 4096, 100_000])
@pytest.mark.benchmark(group="self-play-scaling-tables")
def test_vector_scaling_tables(benchmark: Any, tables: int) -> None:
    """Cost per decision as N grows (6-max NL 100bb, the same numpy policy)."""
    env = VectorGame(NL6, num_tables=tables, players=6, stacks=200, seed=1)
    env.reset()
    steps = max(2, 160_000 // tables) if tables > 1 else 2_000
    _record(benchmark, f"tables{tables}",
            benchmark(vector_steps, env, np.random.default_rng(1), steps))


@pytest.mark.parametrize("players", [2, 4, 6, 8, 10])
@pytest.mark.benchmark(group="self-play-scaling-players")
def test_vector_scaling_players(benchmark: Any, players: int) -> None:
    """Cost per decision as the number of players grows (N = 4,096, NL 100bb)."""
    env = VectorGame(NL6, num_tables=TABLES, players=players, stacks=200, seed=1)
    env.reset()
    _record(benchmark, f"players{players}",
            benchmark(vector_steps, env, np.random.default_rng(1), STEPS))


class MLP:
    """Two hidden layers of 128 (ReLU), seeded weights: logits per action column."""

    def __init__(self, width: int, columns: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = rng.standard_normal((width, 128), dtype=np.float32) / np.sqrt(width)
        self.w2 = rng.standard_normal((128, 128), dtype=np.float32) / np.sqrt(128)
        self.w3 = rng.standard_normal((128, columns), dtype=np.float32) / np.sqrt(128)

    def __call__(self, x: Any) -> Any:
        h = np.maximum(x @ self.w1, 0)
        h = np.maximum(h @ self.w2, 0)
        return h @ self.w3


def vector_mlp_steps(env: VectorGame, net: MLP, steps: int) -> int:
    obs = env.observation
    for _ in range(steps):
        logits = net(obs)
        cols = np.where(env.legal_mask, logits, -np.inf).argmax(axis=1)
        obs, _, _ = env.step_unchecked(cols)
    return steps * env.num_tables


class MLPAgent:
    """The same network, one observation per call (fold, check/call, min raise, max raise)."""

    def __init__(self, net: MLP, width: int) -> None:
        self.net = net
        self.width = width

    def act(self, observation: Any) -> Any:
        from holdem import Action

        x = np.zeros(self.width, dtype=np.float32)
        n = len(observation.stacks)
        bb = observation.big_blind
        x[:n] = observation.stacks
        x[n:2 * n] = observation.bets
        x[2 * n] = observation.pot / bb
        for c in observation.hole_cards + observation.board:
            x[16 + int(c)] = 1.0
        logits = self.net(x)
        la = observation.legal
        best = -np.inf
        choice: Any = Action.check_or_call()
        for k, ok in enumerate((la.can_fold, True, la.can_raise, la.can_raise)):
            if ok and logits[k] > best:
                best = logits[k]
                choice = (Action.fold() if k == 0 else Action.check_or_call() if k == 1
                          else Action.bet_or_raise(la.min_to if k == 2 else la.max_to))
        return choice


def table_mlp_decisions(hands: int, seed: int, net: MLP, width: int) -> int:
    table = Table(NL6, seats=6, seed=seed)
    for s in range(6):
        table.sit(s, f"p{s}", 200, MLPAgent(net, width))
    decisions = 0
    for _ in range(hands):
        table._reset_stacks(200)
        decisions += len(table.play_hand().state.raw_history())
    return decisions


@pytest.mark.benchmark(group="self-play-mlp")
def test_table_mlp(benchmark: Any) -> None:
    env = VectorGame(NL6, num_tables=1, players=6, stacks=200, seed=1)
    net = MLP(env.observation_spec.width, env.action_layout.size)
    _record(benchmark, "table_mlp",
            benchmark(table_mlp_decisions, 100, 1, net, env.observation_spec.width))


@pytest.mark.benchmark(group="self-play-mlp")
def test_vector_mlp(benchmark: Any) -> None:
    env = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1)
    env.reset()
    net = MLP(env.observation_spec.width, env.action_layout.size)
    _record(benchmark, "vector_mlp", benchmark(vector_mlp_steps, env, net, 10))


def _partial_env() -> VectorGame:
    env = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1, session=True)
    env.reset()
    return env


@pytest.mark.benchmark(group="partial-reset")
def test_partial_reset_step(benchmark: Any) -> None:
    """One step of the 4,096 tables with the uniform numpy policy (the unit the next test is
    measured against)."""
    env = _partial_env()
    rng = np.random.default_rng(1)
    benchmark(vector_steps, env, rng, 1)
    if getattr(benchmark, "stats", None) is not None:
        _rates["partial_step"] = benchmark.stats.stats.median


@pytest.mark.benchmark(group="partial-reset")
def test_partial_reset_abandon(benchmark: Any) -> None:
    """VectorGame.abandon of half the tables (Gymnasium's reset_mask), against one step of
    the whole batch measured just before (``ratio_vs_step``: its time over the step's)."""
    env = _partial_env()
    flags = np.zeros(TABLES, dtype=bool)
    flags[::2] = True
    assert benchmark(env.abandon, flags) is env.observation
    stats = getattr(benchmark, "stats", None)
    if stats is not None and "partial_step" in _rates:
        benchmark.extra_info["ratio_vs_step"] = round(
            stats.stats.median / _rates["partial_step"], 2)


def _finished_hands() -> VectorGame:
    """64 6-max tables each with a finished last hand (for the terminal observation)."""
    env = VectorGame(NL6, num_tables=64, players=6, stacks=200, seed=3)
    env.reset()
    rng = np.random.default_rng(3)
    while env.hands_played().min() == 0:  # (fresh stacks: every hand ends by an action)
        env.step_unchecked(sample_legal(env.legal_mask, rng))
    return env


@pytest.mark.benchmark(group="terminal-observation")
def test_last_hand_observation_encode(benchmark: Any) -> None:
    """A finished hand's row for one seat the Python way: the hand replayed as a HandState
    (``last_hand``) and encoded (``ObservationSpec.encode``), 64 tables."""
    env = _finished_hands()
    spec = env.observation_spec

    def rows() -> int:
        for i in range(64):
            np.asarray(spec.encode(env.last_hand(i), 2), dtype=np.float32)
        return 64

    assert benchmark(rows) == 64
    if getattr(benchmark, "stats", None) is not None:
        _rates["encode_rows"] = benchmark.stats.stats.median


@pytest.mark.benchmark(group="terminal-observation")
def test_last_hand_observation(benchmark: Any) -> None:
    """The same rows from ``VectorGame.last_hand_observation`` (built in C from the log);
    ``ratio_vs_encode``: its rate over the Python way's, measured just before."""
    env = _finished_hands()
    spec = env.observation_spec
    for i in range(64):  # the same rows
        assert np.array_equal(env.last_hand_observation(i, 2),
                              np.asarray(spec.encode(env.last_hand(i), 2), dtype=np.float32))

    def rows() -> int:
        for i in range(64):
            env.last_hand_observation(i, 2)
        return 64

    assert benchmark(rows) == 64
    stats = getattr(benchmark, "stats", None)
    if stats is not None and "encode_rows" in _rates:
        benchmark.extra_info["ratio_vs_encode"] = round(
            _rates["encode_rows"] / stats.stats.median, 1)
