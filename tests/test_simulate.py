"""holdem.simulate: determinism on any executor, zero-sum results, errors, progress bar."""

from __future__ import annotations

import importlib
import itertools
import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

import holdem
from holdem import CallAgent, EquityAgent, Game, InvalidConfigError, Mode, RandomAgent, simulate
from holdem._parallel import open_executor
from holdem.pots import Rake

GAME = Game(big_blind=2, rake=Rake(0.05, cap=4))
AGENTS = (RandomAgent(seed=1), CallAgent(), RandomAgent(seed=2), EquityAgent(seed=3, samples=2))


ENGINES = ("table", "batched")  # the built-in agents play on either


def run(executor: object, engine: str = "table") -> holdem.SimulationResult:
    return simulate(AGENTS, GAME, hands=120, seed=99, chunk_hands=30,
                    executor=executor, engine=engine)  # type: ignore[arg-type]


@pytest.mark.parametrize("engine", ENGINES)
def test_simulate_same_seed_same_result_serial_threads_process_pool(engine: str) -> None:
    serial = run("serial", engine)
    assert serial.engine == engine
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert run(pool, engine) == serial
    with ThreadPoolExecutor(max_workers=3) as threads:
        assert run(threads, engine) == serial
    assert run("serial", engine) == serial
    other = simulate(AGENTS, GAME, hands=120, seed=100, chunk_hands=30, executor="serial",
                     engine=engine)
    assert other != serial


def test_simulate_same_result_on_a_dask_cluster() -> None:
    from distributed import Client, LocalCluster

    serial = [run("serial", engine) for engine in ENGINES]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        # the cluster's threads, not this machine's cores, size the window of tasks in flight
        for executor in (client, client.get_executor(pure=False)):
            with open_executor(executor) as runner:
                assert (runner.workers, runner.window) == (2, 64)
        with LocalCluster(n_workers=3, threads_per_worker=4, processes=False,
                          dashboard_address=":0") as big, Client(big) as c12, \
                open_executor(c12.get_executor(pure=False)) as runner:
            assert (runner.workers, runner.window) == (12, 96)
        for engine, want in zip(ENGINES, serial, strict=True):
            assert run(client.get_executor(pure=False), engine) == want


@pytest.mark.parametrize("engine", ENGINES)
def test_a_long_run_keeps_at_most_ten_thousand_curve_points(
        engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The curve had ten points per chunk, and simulate held every chunk's result before adding
    them up: memory grew with the run (about 3 GB of curve for 10**9 hands). A run of more
    than 10,000 points now keeps every k-th point and the last; the totals do not change."""
    sim = sys.modules["holdem.simulate"]  # the module (holdem.simulate is the function)
    agents = {"call": CallAgent(), "random": RandomAgent(seed=1)}
    kwargs = dict(hands=2_050, seed=4, chunk_hands=2, executor="serial", engine=engine)
    full = simulate(agents, GAME, **kwargs)  # type: ignore[arg-type]
    # 1,025 chunks of 2 hands: a point a hand, 2,050 (under 10,000: all kept); with a limit
    # of 1,025 every 2nd point is kept
    assert len(full.curve) == 2_050 and [d for d, _ in full.curve] == list(range(1, 2_051))
    monkeypatch.setattr(sim, "_CURVE_POINTS", 1_025)
    thinned = simulate(agents, GAME, **kwargs)  # type: ignore[arg-type]
    odd = simulate(agents, GAME, **{**kwargs, "hands": 2_049})  # type: ignore[arg-type]
    assert odd.curve[-1][0] == 2_049 and len(odd.curve) == 1_025  # the last point is kept
    assert thinned.players == full.players and thinned.rake == full.rake
    assert thinned.curve == full.curve[1::2]
    assert thinned.curve[-1] == (2_050, tuple(p.chips for p in full.players))


def test_a_huge_run_starts_at_once() -> None:
    """simulate built the list of every chunk's task, and submitted them all, before taking
    one result: 10**8 hands meant two million tasks in flight (10**12 hands: memory ran out).
    The tasks are now made as the results are taken, at most a window (64) ahead."""
    class Stop(Exception):
        pass

    class Taken:
        def __init__(self, future: Any, pool: Pool) -> None:
            self.future, self.pool = future, pool

        def result(self) -> Any:
            self.pool.taken += 1
            return self.future.result()

    class Pool(ThreadPoolExecutor):
        submitted = taken = 0

        def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def,override]
            assert self.submitted - self.taken <= 64, "submitted without taking results"
            self.submitted += 1
            if self.submitted > 200:
                raise Stop
            return Taken(super().submit(fn, *args, **kwargs), self)

    with Pool(2) as pool:
        with pytest.raises(Stop):
            simulate(AGENTS[:2], GAME, hands=10**8, seed=1, executor=pool, chunk_hands=50)
        assert pool.submitted == 201 and pool.taken >= 201 - 64


@pytest.mark.parametrize("engine", ENGINES)
def test_simulate_is_zero_sum_minus_rake(engine: str) -> None:
    r = run("serial", engine)
    assert r.hands == 120 and all(p.hands == 120 for p in r.players)
    assert sum(p.chips for p in r.players) + r.rake == 0
    assert r.rake > 0
    assert [p.name for p in r.players] == ["random0", "call", "random2", "equity"]
    for p in r.players:
        assert p.bb_per_100 == pytest.approx(100 * p.chips / 120 / 2)
        assert p.ci95 > 0 and 0 <= p.showdown_share <= 1
        assert p.showdowns_won <= p.showdowns
    assert r["call"].showdown_share >= r["random0"].showdown_share


@pytest.mark.parametrize("engine", ENGINES)
def test_two_calling_stations_always_reach_showdown(engine: str) -> None:
    r = simulate({"a": CallAgent(), "b": CallAgent()}, Game(big_blind=2), hands=100, seed=3,
                 executor="serial", engine=engine)
    assert r["a"].showdowns == r["b"].showdowns == 100
    assert r["a"].chips == -r["b"].chips and r.rake == 0


@pytest.mark.parametrize("stats", [False, True])
def test_a_result_pastes_back(stats: bool) -> None:
    """``eval(repr(result)) == result``: the curve and statistics (left out of the repr, they
    are large) were compared, so the pasted result was unequal."""
    r = simulate([RandomAgent(), CallAgent()], Game(big_blind=2), hands=200, seed=1,
                 executor="serial", stats=stats)
    assert len(r.curve) > 0 and (r.stats is not None) == stats
    again = eval(repr(r), vars(holdem))
    assert again == r and hash(again) == hash(r) and again.curve == () and again.stats is None


def test_simulate_errors() -> None:
    with pytest.raises(InvalidConfigError, match="2 to 10 agents"):
        simulate([CallAgent()], GAME, hands=10)
    with pytest.raises(InvalidConfigError, match="cash"):
        simulate([CallAgent(), CallAgent()], Game(big_blind=2, mode=Mode.TOURNAMENT), hands=10)
    with pytest.raises(InvalidConfigError, match="hands"):
        simulate([CallAgent(), CallAgent()], GAME, hands=0)
    with pytest.raises(InvalidConfigError, match="stack"):
        simulate([CallAgent(), CallAgent()], GAME, hands=5, stack=19)
    with pytest.raises(InvalidConfigError, match="executor"):
        simulate([CallAgent(), CallAgent()], GAME, hands=5, executor="cluster")
    with pytest.raises(InvalidConfigError, match="act"):
        simulate([CallAgent(), 5], GAME, hands=5)


def test_an_agent_that_is_not_one_is_shown_in_the_error() -> None:
    # a name (as the command line takes them) is not an agent: the message shows what was
    # given and which objects to give instead
    with pytest.raises(InvalidConfigError, match=r"^agent 'str' must be callable or have an "
                                                 r"act\(\) method, got 'random' \(a name is "
                                                 r"not an agent: .*holdem\.CallAgent\(\)"):
        simulate([CallAgent(), "random"], GAME, hands=5)
    with pytest.raises(InvalidConfigError, match=r"^agent 'b' must be .*, got 5$"):
        simulate({"a": CallAgent(), "b": 5}, GAME, hands=5)


def test_progress_bar_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    simulate([CallAgent(), CallAgent()], GAME, hands=30, seed=1, chunk_hands=10,
             executor="serial", progress=True)
    err = capsys.readouterr().err
    assert "30/30 hands" in err and "100%" in err
    simulate([CallAgent(), CallAgent()], GAME, hands=30, seed=1, executor="serial")
    assert capsys.readouterr().err == ""  # not a terminal: no bar by default


# --- duplicate matches --------------------------------------------------------------------


def run_duplicate(executor: object, duplicate: bool | str = True) -> holdem.SimulationResult:
    return simulate(AGENTS[:3], GAME, hands=60, seed=98, chunk_hands=20, executor=executor,
                    duplicate=duplicate, stats=True)  # type: ignore[arg-type]


def test_duplicate_plays_every_deal_once_per_rotation() -> None:
    r = run_duplicate("serial")
    assert (r.hands, r.deals, r.seatings) == (180, 60, 3)
    assert all(p.hands == 180 for p in r.players)
    assert sum(p.chips for p in r.players) + r.rake == 0
    # statistics over every hand played, per-chunk totals adding up to each agent's chips
    assert r.stats is not None and [p.hands for p in r.stats] == [180, 180, 180]
    assert [p.net for p in r.stats] == [p.chips for p in r.players]
    # ten points per chunk of 20 deals, the last one each agent's total
    assert [d for d, _ in r.curve] == list(range(2, 61, 2))
    assert list(r.curve[-1][1]) == [p.chips for p in r.players]
    for p in r.players:
        assert p.duplicate_bb_per_100 == pytest.approx(p.bb_per_100)
        assert p.duplicate_ci95 is not None and p.duplicate_ci95 > 0
    perm = run_duplicate("serial", "permutations")
    assert (perm.hands, perm.deals, perm.seatings) == (360, 60, 6)
    plain = simulate(AGENTS[:3], GAME, hands=60, seed=98, chunk_hands=20, executor="serial")
    assert plain.seatings == 1 and plain.players[0].duplicate_ci95 is None
    assert plain.stats is None and plain.deals == plain.hands == 60
    assert "duplicate: 60 deals x 3 seatings" in str(r) and "duplicate " in str(r.players[0])


@pytest.mark.parametrize("n", range(1, 8))
def test_seatings_are_built_one_at_a_time_in_itertools_order(n: int) -> None:
    from holdem.simulate import _seating, _seating_count

    assert [_seating("permutations", n, j) for j in range(_seating_count("permutations", n))] \
        == list(itertools.permutations(range(n)))
    assert [_seating("rotations", n, j) for j in range(_seating_count("rotations", n))] \
        == [tuple((k + r) % n for k in range(n)) for r in range(n)]
    assert _seating(None, n, 0) == tuple(range(n)) and _seating_count(None, n) == 1
    assert _seating_count("permutations", 10) == 3_628_800
    assert _seating("permutations", 10, 3_628_799) == tuple(range(9, -1, -1))


class CountingExecutor(ThreadPoolExecutor):
    """A real thread pool that counts the tasks submitted to it."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


@pytest.mark.parametrize(("engine", "stats"), [("table", False), ("table", True),
                                               ("batched", False)])
def test_a_big_duplicate_chunk_is_split_by_seatings_with_the_same_result(
        engine: str, stats: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every seating replays its chunk's deals from the chunk's seed (agents re-spawned), so
    # playing the seatings of a chunk as several tasks changes nothing in the result, curve
    # and statistics included; the tasks let a run of 8! or 10! seatings use every core and
    # report progress before its first chunk ends.
    sim = importlib.import_module("holdem.simulate")

    agents = AGENTS[:4]
    kw: dict[str, Any] = dict(hands=10, seed=7, chunk_hands=4, engine=engine, stats=stats,
                              duplicate="permutations")
    whole = simulate(agents, GAME, executor="serial", **kw)
    assert (whole.hands, whole.deals, whole.seatings) == (240, 10, 24)
    assert sum(p.chips for p in whole.players) + whole.rake == 0
    with CountingExecutor() as pool:
        assert simulate(agents, GAME, executor=pool, **kw) == whole
        assert pool.submitted == 3  # one task per chunk of 4, 4 and 2 deals
    for task_hands, tasks in ((40, 2 * 3 + 2), (1, 24 * 3)):
        # at most 40 hands a task: each chunk of 4 deals x 24 seatings (96 hands) in 3 tasks
        # of 8 seatings, the last chunk (2 deals, 48 hands) in 2; at 1, one task per seating
        monkeypatch.setattr(sim, "_TASK_HANDS", task_hands)
        assert simulate(agents, GAME, executor="serial", **kw) == whole
        with CountingExecutor() as pool:
            assert simulate(agents, GAME, executor=pool, **kw) == whole
            assert pool.submitted == tasks
    rotations = dict(kw, duplicate=True)
    monkeypatch.setattr(sim, "_TASK_HANDS", 1 << 16)
    plain = simulate(agents, GAME, executor="serial", **rotations)
    monkeypatch.setattr(sim, "_TASK_HANDS", 3)
    assert simulate(agents, GAME, executor="serial", **rotations) == plain


def test_ten_agents_in_every_order_report_progress_from_the_first_task(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # 10! seatings of one deal: 3,628,800 hands. The seatings are built in the tasks (never all
    # held: they took 500 MB), and the progress bar moves with every task: stop after three.
    sim = importlib.import_module("holdem.simulate")

    played = []
    real = sim._play_chunk_batched

    def counted(*args: Any, **kw: Any) -> Any:
        if len(played) == 3:
            raise KeyboardInterrupt
        played.append(len(kw["seatings"]))
        return real(*args, **kw)

    monkeypatch.setattr(sim, "_play_chunk_batched", counted)
    assert sim._seating_groups(1, 3_628_800) == 56  # tasks of 64,800 hands by default
    monkeypatch.setattr(sim, "_TASK_HANDS", 4096)  # smaller tasks, a quicker test
    agents = [CallAgent() for _ in range(10)]
    with pytest.raises(KeyboardInterrupt):
        simulate(agents, Game(big_blind=2), hands=1, seed=1, executor="serial",
                 duplicate="permutations", progress=1e-9)
    assert sim._seating_groups(1, 3_628_800) == 886 and played == [4095, 4096, 4096]
    err = capsys.readouterr().err
    assert "4,095/3,628,800 hands" in err and "8,191/3,628,800 hands" in err


@pytest.mark.parametrize("engine", ENGINES)
def test_duplicate_deals_the_same_cards_to_each_seat(engine: str) -> None:
    # Two calling stations always reach the showdown, so in the two seatings of a deal the
    # same cards win the same pot: each agent's total over the seatings of every deal is
    # exactly 0. This holds only if each seat gets the same cards (and button) in both.
    r = simulate({"a": CallAgent(), "b": CallAgent()}, Game(big_blind=2), hands=200, seed=4,
                 executor="serial", duplicate=True, engine=engine)
    assert r["a"].chips == r["b"].chips == 0
    assert r["a"].duplicate_ci95 == 0.0 and r["a"].ci95 > 0


@pytest.mark.parametrize("engine", ENGINES)
def test_duplicate_interval_much_narrower_than_plain_for_the_same_hands(engine: str) -> None:
    agents = {"call": CallAgent(), "random": RandomAgent(seed=1)}
    plain = simulate(agents, Game(big_blind=2), hands=8000, seed=11, executor="serial",
                     engine=engine)
    dup = simulate(agents, Game(big_blind=2), hands=4000, seed=11, executor="serial",
                   duplicate=True, engine=engine)
    assert dup.hands == plain.hands == 8000
    width = dup["call"].duplicate_ci95
    assert width is not None and width < 0.7 * plain["call"].ci95


def test_duplicate_same_result_on_any_executor() -> None:
    from distributed import Client, LocalCluster

    serial = run_duplicate("serial")
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert run_duplicate(pool) == serial
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        assert run_duplicate(client.get_executor(pure=False)) == serial
    assert run_duplicate("serial", "rotations") == serial


def test_duplicate_errors() -> None:
    with pytest.raises(InvalidConfigError, match="duplicate must be"):
        simulate([CallAgent(), CallAgent()], GAME, hands=5, duplicate="mirror")


class _Drifting:
    """A stateful agent without ``spawn``: its own generator, drawn from every decision."""

    def __init__(self, seed: int) -> None:
        import random

        self.rng = random.Random(seed)

    def act(self, obs: Any) -> Any:
        return holdem.Action.fold() if obs.legal.can_fold and self.rng.random() < 0.3 else 1


def test_an_agent_without_spawn_plays_each_chunk_as_a_copy_on_any_executor() -> None:
    """Each chunk plays a copy of such an agent (as a worker process gets a pickled one), so
    serial runs, thread pools and process pools agree, and the caller's agent is not moved
    (they gave four different results: the serial run carried the agent's state from chunk
    to chunk and from call to call, threads shared it)."""
    def run(executor: Any) -> Any:
        return simulate([_Drifting(1), CallAgent()], Game(big_blind=2), hands=300,
                        chunk_hands=50, seed=5, executor=executor)

    agent = _Drifting(1)
    before = agent.rng.getstate()
    first = simulate([agent, CallAgent()], Game(big_blind=2), hands=300, chunk_hands=50,
                     seed=5, executor="serial")
    assert agent.rng.getstate() == before
    assert run("serial") == first
    with ThreadPoolExecutor(2) as pool:
        assert run(pool) == first
    with ProcessPoolExecutor(2) as pool:
        assert run(pool) == first


class _Adaptive(RandomAgent):
    """A subclass of a built-in agent that learns: it decides through its Python ``act``
    and keeps a list of what it saw (its ``spawn`` is RandomAgent's)."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.seen: list[int] = []

    def act(self, obs: Any) -> Any:
        self.seen.append(obs.pot)
        return 1 if len(self.seen) % 3 == 0 else RandomAgent.act(self, obs)


class _AdaptiveEquity(EquityAgent):
    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, samples=8)
        self.seen: list[int] = []

    def act(self, obs: Any) -> Any:
        self.seen.append(obs.pot)
        return 1 if len(self.seen) % 4 == 0 else EquityAgent.act(self, obs)


@pytest.mark.parametrize("kind", [_Adaptive, _AdaptiveEquity])
def test_a_spawned_subclass_learns_in_its_chunk_only_on_any_executor(kind: Any) -> None:
    """``spawn`` of a subclass of a built-in agent copied its attributes shallowly: every
    chunk run in one process appended to the caller's list, so a serial run gave 1010 chips,
    a process pool 1333 and a thread pool of 4 1615, and a second serial call another
    figure. Each chunk's agent has copies of them, as a worker's pickled copy has."""
    def run(executor: Any, agent: Any = None) -> Any:
        return simulate([agent or kind(seed=1), CallAgent()], Game(big_blind=2), hands=240,
                        chunk_hands=40, seed=1, executor=executor)

    agent = kind(seed=1)
    first = run("serial", agent)
    assert first.engine == "table" and agent.seen == []
    assert run("serial", agent) == first
    with ThreadPoolExecutor(4) as pool:
        assert run(pool) == first
    with ProcessPoolExecutor(2) as pool:
        assert run(pool) == first


@pytest.mark.parametrize("flag", ["no", 1, None])
def test_stats_is_a_boolean(flag: object) -> None:
    with pytest.raises(InvalidConfigError, match="stats must be True or False, got"):
        simulate([CallAgent(), CallAgent()], Game(big_blind=2), hands=10, stats=flag)  # type: ignore[arg-type]


def test_an_agent_that_cannot_be_copied_still_plays_serially() -> None:
    """An agent holding a lock cannot be copied: the serial chunks share it (as before)."""
    import threading

    class Locked:
        def __init__(self) -> None:
            self.lock = threading.Lock()
            self.decisions = 0

        def act(self, obs: Any) -> int:
            with self.lock:
                self.decisions += 1
            return 1

    agent = Locked()
    result = simulate([agent, CallAgent()], Game(big_blind=2), hands=40, chunk_hands=10,
                      seed=2, executor="serial")
    assert result.hands == 40 and agent.decisions > 0


def _per_hand_payoffs(result: holdem.SimulationResult) -> list[tuple[int, ...]]:
    """Each hand's payoffs per agent, from the winnings curve (a point per hand when the
    chunks have at most 10 hands: a point every tenth of a chunk)."""
    assert [h for h, _ in result.curve] == list(range(1, result.hands + 1))
    out, before = [], (0,) * len(result.players)
    for _, so_far in result.curve:
        out.append(tuple(b - a for a, b in zip(before, so_far, strict=True)))
        before = so_far
    return out


@pytest.mark.parametrize("engine", ENGINES)
def test_ci95_is_the_normal_interval_over_per_hand_results(engine: str) -> None:
    """``ci95``: 1.95996... (the 97.5% normal quantile) times the sample (n - 1) standard
    deviation of the per-hand results over sqrt(hands), in bb/100; computed here from every
    hand's payoffs, read off the curve."""
    game = Game(big_blind=2)
    result = simulate([RandomAgent(seed=1), CallAgent()], game, hands=40, seed=1,
                      chunk_hands=10, executor="serial", engine=engine)
    assert result.engine == engine and result.hands == 40
    hands = _per_hand_payoffs(result)
    z = statistics.NormalDist().inv_cdf(0.975)
    for k, r in enumerate(result.players):
        pays = [h[k] for h in hands]
        assert sum(pays) == r.chips
        assert len(set(pays)) > 1  # a spread to measure
        sd = statistics.stdev(pays)
        assert r.ci95 == pytest.approx(z * sd / math.sqrt(40) * 100 / game.big_blind, rel=1e-9)
        assert r.bb_per_100 == pytest.approx(100 * statistics.fmean(pays) / game.big_blind)


_SEATS: list[tuple[str, int]] = []


class _SeatRecorder(CallAgent):
    """Calls, and records (its name, its table seat) at every decision (copies included)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name

    def act(self, obs: Any) -> Any:
        _SEATS.append((self.name, obs.seat))
        return super().act(obs)


def test_table_engine_rotates_the_seats_chunk_by_chunk() -> None:
    """Chunk ``i`` seats agent ``k`` at ``(k + i) % n``: with 3 chunks each agent plays every
    seat, one chunk each, in that order."""
    _SEATS.clear()
    names = ("a", "b", "c")
    result = simulate([_SeatRecorder(x) for x in names], Game(big_blind=2), hands=30, seed=1,
                      chunk_hands=10, executor="serial", engine="table")
    assert result.engine == "table" and result.hands == 30
    for k, name in enumerate(names):
        seats = [s for x, s in _SEATS if x == name]
        runs = [s for i, s in enumerate(seats) if i == 0 or seats[i - 1] != s]
        assert runs == [(k + i) % 3 for i in range(3)]
