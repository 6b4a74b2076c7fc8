"""holdem.simulate: determinism on any executor, zero-sum results, errors, progress bar."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

import holdem
from holdem import CallAgent, EquityAgent, Game, InvalidConfigError, Mode, RandomAgent, simulate
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
        for engine, want in zip(ENGINES, serial, strict=True):
            assert run(client.get_executor(pure=False), engine) == want


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
