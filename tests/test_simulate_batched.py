"""holdem.simulate on the batched engine: when it is chosen, reproducibility on any executor,
duplicate matches, and the Table path for everything else."""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor

import pytest

from holdem import CallAgent, EquityAgent, Game, InvalidConfigError, RandomAgent, simulate
from holdem.cli._play import make_agent
from holdem.simulate import MAX_CHUNK_HANDS
from holdem.table.agents import CompiledPolicy, Observation

GAME = Game(big_blind=2)


def _default_agents(players: int = 6) -> dict[str, object]:
    """The agents of ``holdem simulate`` (random, call, equity repeated over the seats)."""
    kinds = ["random", "call", "equity"]
    return {f"{kinds[k % 3]}-{k + 1}": make_agent(kinds[k % 3], k) for k in range(players)}


def test_default_agents_play_batched_bit_identical_on_any_executor() -> None:
    agents = _default_agents()
    serial = simulate(agents, GAME, hands=1200, seed=1, chunk_hands=200, executor="serial")
    assert serial.engine == "batched"
    assert serial.hands == 1200 and sum(p.chips for p in serial.players) + serial.rake == 0
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert simulate(agents, GAME, hands=1200, seed=1, chunk_hands=200,
                        executor=pool) == serial
    assert simulate(agents, GAME, hands=1200, seed=2, chunk_hands=200,
                    executor="serial") != serial
    # the curve: ten points per chunk, the last one each agent's total
    assert [d for d, _ in serial.curve][:10] == list(range(20, 201, 20))
    assert list(serial.curve[-1][1]) == [p.chips for p in serial.players]
    # the equity agents beat the random ones by far (as on the Table path)
    assert min(serial["equity-3"].chips, serial["equity-6"].chips) > 0
    assert max(serial["random-1"].chips, serial["random-4"].chips) < 0


def test_batched_and_table_paths_agree_in_distribution() -> None:
    # Different random streams (C generators vs random.Random): different hands, the same
    # rules, so the same distributions. (120,000 hands each gave +903 and +906 bb/100 for the
    # equity agent, showdowns 41.5% on both.)
    agents = {"equity": EquityAgent(seed=1, samples=16), "random": RandomAgent(seed=2),
              "call": CallAgent()}
    b, t = (simulate(agents, GAME, hands=4000, seed=5, executor="serial", engine=engine)
            for engine in ("batched", "table"))
    assert (b.engine, t.engine) == ("batched", "table")
    for name in agents:
        x, y = b[name], t[name]
        assert abs(x.bb_per_100 - y.bb_per_100) < 1.5 * math.hypot(x.ci95, y.ci95)
        p = (x.showdown_share + y.showdown_share) / 2
        assert abs(x.showdown_share - y.showdown_share) < 4 * math.sqrt(2 * p * (1 - p) / 4000)
    assert b["call"].showdown_share > b["random"].showdown_share > b["equity"].showdown_share
    assert b["equity"].bb_per_100 > 3 * b["equity"].ci95


def test_batched_duplicate_is_reproducible_and_deals_the_same_cards() -> None:
    agents = _default_agents(3)
    r = simulate(agents, GAME, hands=300, seed=3, chunk_hands=100, executor="serial",
                 duplicate=True)
    assert r.engine == "batched" and (r.hands, r.deals, r.seatings) == (900, 300, 3)
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert simulate(agents, GAME, hands=300, seed=3, chunk_hands=100, executor=pool,
                        duplicate=True) == r
    for p in r.players:
        assert p.duplicate_bb_per_100 == pytest.approx(p.bb_per_100)
        assert p.duplicate_ci95 is not None and p.duplicate_ci95 > 0
    perm = simulate(agents, GAME, hands=50, seed=3, executor="serial",
                    duplicate="permutations")
    assert perm.engine == "batched" and perm.seatings == 6


def test_agents_without_a_compiled_policy_play_on_tables() -> None:
    class Folder(CallAgent):
        name = "folder"

        def act(self, observation: Observation) -> int:
            return 0 if observation.legal.can_fold else 1

    r = simulate([Folder(), CallAgent()], GAME, hands=40, seed=1, executor="serial")
    assert r.engine == "table" and r["folder"].chips < 0
    r = simulate([lambda o: 1, CallAgent()], GAME, hands=20, seed=1, executor="serial")
    assert r.engine == "table"
    # statistics need full hand histories: the Table path
    r = simulate([RandomAgent(), CallAgent()], GAME, hands=20, seed=1, executor="serial",
                 stats=True)
    assert r.engine == "table" and r.stats is not None
    # a declared policy whose parameters the C policy does not take
    r = simulate([_BadPolicy(), CallAgent()], GAME, hands=10, seed=1, executor="serial")
    assert r.engine == "table"


class _BadPolicy(CallAgent):
    compiled_policy = CompiledPolicy("equity", 0, 0.5)  # type: ignore[assignment]


class _BigPolicy(CallAgent):  # (EquityAgent refuses more than 1,000,000 samples itself)
    compiled_policy = CompiledPolicy("equity", 2_000_000, 0.5)  # type: ignore[assignment]


def test_engine_errors() -> None:
    with pytest.raises(InvalidConfigError, match="engine must be"):
        simulate([CallAgent(), CallAgent()], GAME, hands=5, engine="gpu")
    with pytest.raises(InvalidConfigError, match="without one: b"):
        simulate({"a": CallAgent(), "b": lambda o: 1}, GAME, hands=5, engine="batched")
    with pytest.raises(InvalidConfigError, match="stats=False"):
        simulate([CallAgent(), CallAgent()], GAME, hands=5, engine="batched", stats=True)
    # an agent whose declared policy the engine cannot run: the reason is named
    with pytest.raises(InvalidConfigError) as e:
        simulate({"a": CallAgent(), "eq": _BigPolicy()}, GAME, hands=5, engine="batched")
    assert str(e.value).endswith(
        "agents without one: eq (its compiled policy: samples must be an int in "
        "1..1,000,000, got 2000000)")
    with pytest.raises(InvalidConfigError, match=r"without one: bad \(its compiled policy: "
                                                 r"samples must be an int in 1\.\.1,000,000, "
                                                 r"got 0\)"):
        simulate({"a": CallAgent(), "bad": _BadPolicy()}, GAME, hands=5, engine="batched")


def test_seeded_batched_simulation_is_pinned() -> None:
    # The cards (hd_deck.h under child seeds), the C policies' draws (xoshiro256**) and the
    # rules give these numbers on every machine; a change to any of them shows here.
    r = simulate([RandomAgent(seed=1), CallAgent(), EquityAgent(seed=2, samples=8)],
                 Game(big_blind=2), hands=600, seed=9, executor="serial", chunk_hands=200,
                 progress=False)
    assert r.engine == "batched"
    assert [(p.name, p.chips, p.showdowns, p.showdowns_won) for p in r.players] == [
        ("random", -5788, 421, 195), ("call", -2022, 544, 256), ("equity", 7810, 219, 113)]
    assert r.rake == 0 and r.curve[:2] == ((20, (-639, -403, 1042)), (40, (-1920, 484, 1436)))


def test_stacks_too_deep_for_a_batched_chunk_play_on_tables() -> None:
    """A chunk whose int64 sums of squared payoffs could overflow is refused by the batched
    engine's play(): ``engine="auto"`` then plays on tables instead of failing, and
    ``engine="batched"`` says what to change."""
    agents = {"random": RandomAgent(), "call": CallAgent()}
    deep = 10**8  # 2 * 10**8 chips at a table: 500-hand chunks could overflow, 100 cannot
    auto = simulate(agents, GAME, hands=600, seed=1, stack=deep, chunk_hands=500,
                    executor="serial")
    assert auto.engine == "table" and auto.hands == 600
    assert sum(p.chips for p in auto.players) + auto.rake == 0
    with pytest.raises(InvalidConfigError, match="chunks of 500 hands with 100000000 chips"):
        simulate(agents, GAME, hands=600, seed=1, stack=deep, chunk_hands=500,
                 executor="serial", engine="batched")
    small = simulate(agents, GAME, hands=200, seed=1, stack=deep, chunk_hands=100,
                     executor="serial")
    assert small.engine == "batched"


@pytest.mark.parametrize("engine", ["auto", "batched", "table"])
def test_a_straddle_game_heads_up_plays_without_the_straddle(engine: str) -> None:
    """R8: a straddle needs three players; heads-up a Table deals a straddle game without it.
    The batched engine refuses a straddle heads-up, so simulate plays its chunks the same way
    (before, ``engine="auto"`` raised "a straddle needs at least 3 players" from a chunk)."""
    agents = {"random": RandomAgent(seed=1), "call": CallAgent()}
    kw = {"hands": 300, "seed": 4, "executor": "serial", "chunk_hands": 100, "engine": engine}
    straddle = simulate(agents, Game(big_blind=2, straddle=True), **kw)  # type: ignore[arg-type]
    plain = simulate(agents, GAME, **kw)  # type: ignore[arg-type]
    assert straddle.engine == plain.engine == ("table" if engine == "table" else "batched")
    assert straddle == plain and straddle.hands == 300


def test_stacks_all_in_from_the_forced_bets_play_on_tables() -> None:
    """The batched engine refuses stacks that the forced bets put all in before anybody acts
    (its tables would deal forever when stepped); a Table plays such hands. ``engine="auto"``
    raised that refusal from the first chunk: it now plays on tables, and
    ``engine="batched"`` says why it cannot."""
    agents = {"random": RandomAgent(seed=1), "call": CallAgent(), "equity": EquityAgent(seed=2)}
    game = Game(big_blind=2, ante=50)  # antes above the 20-chip stacks: every hand all in
    auto = simulate(agents, game, hands=90, seed=1, stack=20, chunk_hands=30,
                    executor="serial")
    table = simulate(agents, game, hands=90, seed=1, stack=20, chunk_hands=30,
                     executor="serial", engine="table")
    assert auto.engine == "table" and auto == table
    assert all(p.showdowns == 90 for p in auto.players)
    assert sum(p.chips for p in auto.players) + auto.rake == 0
    with pytest.raises(InvalidConfigError, match=r"engine='batched' cannot play.*too short"):
        simulate(agents, game, hands=90, seed=1, stack=20, engine="batched")


@pytest.mark.parametrize("engine", ["batched", "table"])
def test_a_straddle_game_of_three_posts_the_straddle(engine: str) -> None:
    """Three calling stations check every street after calling preflop, so each hand a loser
    loses exactly the preflop price: the straddle (2 big blinds) when it is posted, one big
    blind without; the batched engine keeps the straddle at three players (only heads-up
    is it dropped)."""
    agents = [CallAgent(), CallAgent(), CallAgent()]
    kw = {"hands": 30, "seed": 3, "executor": "serial", "chunk_hands": 10, "engine": engine}
    for straddle, price in ((True, 4), (False, 2)):
        result = simulate(agents, Game(big_blind=2, straddle=straddle), **kw)  # type: ignore[arg-type]
        assert result.engine == engine and result.hands == 30
        assert [h for h, _ in result.curve] == list(range(1, 31))  # a point per hand
        before = (0, 0, 0)
        for _, so_far in result.curve:
            pays = [b - a for a, b in zip(before, so_far, strict=True)]
            before = so_far
            assert sum(pays) == 0
            assert all(p in (0, -price) or p > 0 for p in pays)
            assert min(pays) == -price or pays == [0, 0, 0]  # a three-way split
        assert result.players[0].showdowns == 30


def test_a_plain_batched_run_keeps_no_per_hand_table() -> None:
    # a plain run built a list per agent of chunk_hands ints it never used (8 bytes x agents x
    # chunk_hands: about 4 GB for 10 agents and chunks of 50,000,000 hands)
    import tracemalloc

    agents = [CallAgent() for _ in range(10)]
    simulate(agents, GAME, hands=10, seed=1, executor="serial", progress=False)  # (imports)
    tracemalloc.start()
    try:
        r = simulate(agents, GAME, hands=100_000, seed=1, executor="serial",
                     chunk_hands=100_000, progress=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.engine == "batched" and r.hands == 100_000
    assert peak < 1_000_000  # the table was 8,000,000 bytes of list slots


@pytest.mark.parametrize(("hands", "chunk", "duplicate"), [(38_000, 19, False),
                                                             (6_000, 15, True)])
def test_the_curve_keeps_at_most_ten_thousand_points(hands: int, chunk: int,
                                                     duplicate: bool) -> None:
    # chunks under 20 hands give a point a hand, not ten: 19,000 points were kept
    r = simulate([RandomAgent(seed=1), CallAgent()], GAME, hands=hands, seed=1,
                 executor="serial", chunk_hands=chunk, duplicate=duplicate, progress=False)
    assert 5_000 < len(r.curve) <= 10_000
    assert r.curve[-1] == (hands, tuple(p.chips for p in r.players)) if not duplicate else \
        r.curve[-1][0] == hands
    assert [d for d, _ in r.curve] == sorted({d for d, _ in r.curve})


def test_one_hand_or_one_deal_shows_no_interval() -> None:
    # "95% CI +/- 0.0" read as certainty (the CLI printed n/a)
    r = simulate([RandomAgent(seed=1), CallAgent()], GAME, hands=1, seed=1,
                 executor="serial", duplicate=True, progress=False)
    text = str(r)
    assert "(duplicate: 1 deal x 2 seatings)" in text
    assert "duplicate +0.0 bb/100 (95% CI +/- n/a)" in text
    one = simulate([RandomAgent(seed=1), CallAgent()], GAME, hands=1, seed=1,
                   executor="serial", progress=False)
    assert "(95% CI +/- n/a)" in str(one) and one.players[0].ci95 == 0.0


def test_a_stack_above_the_engines_chips_is_refused_by_name() -> None:
    # a TableError about chips "for 'call'" (a buy-in the user never made), after a pool
    with pytest.raises(InvalidConfigError, match=r"stack 9007199254740992 for 2 agents puts "
                                                 r"18014398509481984 chips on the table, above "
                                                 r"the engine's limit of 2\*\*53: give at most "
                                                 r"4503599627370496"):
        simulate([RandomAgent(), CallAgent()], GAME, hands=5, stack=2**53, seed=1)
    r = simulate([CallAgent(), CallAgent()], GAME, hands=2, stack=2**52, seed=1,
                 executor="serial", progress=False)
    assert r.hands == 2


@pytest.mark.parametrize("chunk", [0, -1, MAX_CHUNK_HANDS + 1, 10**10, "huge", 1.5, "500"])
def test_chunk_hands_are_bounded(chunk: object) -> None:
    """``chunk_hands`` took any int >= 1: a chunk of 10**10 hands played an hour with no
    progress line (progress and Ctrl-C go by chunks), and a duplicate chunk of 10**8 filled
    4 GB before a bare MemoryError. 1..1,000,000 are taken; the message names the bound (and
    a huge value only by its size)."""
    chunk = 10**5000 if chunk == "huge" else chunk
    with pytest.raises(InvalidConfigError,
                       match=r"chunk_hands must be an int 1\.\.1,000,000 ") as e:
        simulate([CallAgent(), CallAgent()], GAME, hands=5, chunk_hands=chunk, progress=False)
    assert len(str(e.value)) < 300
    r = simulate([CallAgent(), CallAgent()], GAME, hands=5, chunk_hands=MAX_CHUNK_HANDS,
                 executor="serial", progress=False)
    assert r.chunk_hands == MAX_CHUNK_HANDS and r.hands == 5
