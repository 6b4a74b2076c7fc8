"""Equity speed: exhaustive heads-up preflop, Monte Carlo 3-way preflop, scaling over 2 workers.

Run: ``python -m pytest bench/bench_equity.py --benchmark-enable --benchmark-only``.
Compare within one run (ratios of medians): the machine is shared and noisy. Peers that are too
slow for the full workload run a reduced one, scaled per board and labelled so in the name and
``extra_info`` (``boards``: boards evaluated per call; divide the median by it).

Targets: exhaustive heads-up preflop, 1,712,304 boards, <= 10 ms on one core
(eval7 in a Python loop: about 0.86 s); Monte Carlo 3-way preflop >= 20 M boards/s on one core
(pokerkit's calculate_equities: about 1,600 boards/s); near-linear scaling with cores.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from itertools import combinations, islice
from typing import Any

import eval7
import pokerkit
import pytest

import holdem

HU = ["AsKs", "QdQc"]
THREE = ["AsKs", "QdQc", "JhTh"]
FLOP = "2c7h9d"
RANGES = ["22+, A2s+, KTs+, ATo+", "TT+, AQ+"]
MC_SAMPLES = 1_000_000
EVAL7_BOARDS = 20_000          # reduced eval7 workload (of 1,712,304), scaled per board
POKERKIT_SAMPLES = 100         # reduced pokerkit workload, scaled per board


def _rate(benchmark: Any, boards: int) -> None:
    """Record boards per call and, when timing is on, per-board time and boards/s (median)."""
    benchmark.extra_info["boards"] = boards
    stats = getattr(benchmark, "stats", None)
    median = getattr(getattr(stats, "stats", None), "median", None)
    if median:
        benchmark.extra_info["ns_per_board"] = round(1e9 * median / boards, 2)
        benchmark.extra_info["M_boards_per_s"] = round(boards / median / 1e6, 4)


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolExecutor]:
    with ProcessPoolExecutor(max_workers=2) as p:
        p.submit(int).result()  # start the workers outside the timing
        yield p


# --- exhaustive heads-up preflop -------------------------------------------------------------


@pytest.mark.benchmark(group="exact heads-up preflop (per call; see boards)")
def test_exact_headsup_holdem(benchmark: Any) -> None:
    r = benchmark(holdem.equity, HU, executor="serial")
    _rate(benchmark, r.boards)
    assert r.boards == 1_712_304 and round(100 * r[0].equity, 4) == 46.2145


def _eval7_loop(boards: int) -> float:
    hero = [eval7.Card(c) for c in ("As", "Ks")]
    villain = [eval7.Card(c) for c in ("Qd", "Qc")]
    used = {"As", "Ks", "Qd", "Qc"}
    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs" if r + s not in used]
    share = 0.0
    for board in islice(combinations(deck, 5), boards):
        b = list(board)
        h, v = eval7.evaluate(b + hero), eval7.evaluate(b + villain)
        share += 1.0 if h > v else 0.5 if h == v else 0.0
    return share / boards


@pytest.mark.benchmark(group="exact heads-up preflop (per call; see boards)")
def test_exact_headsup_eval7_python_loop_reduced(benchmark: Any) -> None:
    """eval7.evaluate in a Python loop over the first 20,000 boards (of 1,712,304): scale x85.6."""
    share = benchmark(_eval7_loop, EVAL7_BOARDS)
    _rate(benchmark, EVAL7_BOARDS)
    benchmark.extra_info["scale_to_full"] = 1_712_304 / EVAL7_BOARDS
    assert 0.0 < share < 1.0


@pytest.mark.benchmark(group="exact heads-up on a flop (990 boards)")
def test_exact_flop_holdem(benchmark: Any) -> None:
    r = benchmark(holdem.equity, HU, FLOP, executor="serial")
    _rate(benchmark, r.boards)
    assert r.boards == 990


@pytest.mark.benchmark(group="exact heads-up on a flop (990 boards)")
def test_exact_flop_holdem_cards(benchmark: Any) -> None:
    """The same call with the hands and the flop as Card objects: the general path (parsing,
    the problem's arrays, the executor and progress machinery), which hands written as text
    skip when the boards fit one chunk. Compare with ``test_exact_flop_holdem``."""
    hands = [[holdem.Card(h[:2]), holdem.Card(h[2:])] for h in HU]
    flop = [holdem.Card(FLOP[i:i + 2]) for i in range(0, 6, 2)]
    r = benchmark(holdem.equity, hands, flop, executor="serial")
    _rate(benchmark, r.boards)
    assert r == holdem.equity(HU, FLOP)


def _eval7_flop_loop() -> float:
    hero = [eval7.Card(c) for c in ("As", "Ks")]
    villain = [eval7.Card(c) for c in ("Qd", "Qc")]
    flop = [eval7.Card(c) for c in ("2c", "7h", "9d")]
    used = {"As", "Ks", "Qd", "Qc", "2c", "7h", "9d"}
    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs" if r + s not in used]
    share = 0.0
    n = 0
    for turn_river in combinations(deck, 2):
        b = flop + list(turn_river)
        h, v = eval7.evaluate(b + hero), eval7.evaluate(b + villain)
        share += 1.0 if h > v else 0.5 if h == v else 0.0
        n += 1
    return share / n


@pytest.mark.benchmark(group="exact heads-up on a flop (990 boards)")
def test_exact_flop_eval7_python_loop(benchmark: Any) -> None:
    """eval7.evaluate in a Python loop over all 990 turn-river pairs (full workload).

    (eval7's py_hand_vs_range_exact returns 0.0 for every input in the installed version, so
    the loop is the peer.)
    """
    eq = benchmark(_eval7_flop_loop)
    _rate(benchmark, 990)
    assert eq == pytest.approx(holdem.equity(HU, FLOP)[0].equity, abs=1e-12)


# --- a small range against a hand on the turn -------------------------------------------------

TURN = "2c7h9d4s"
TURN_PLAYERS = ["QQ+, AKs", "JhTh"]  # 22 combos left, 44 rivers each: 968 boards


@pytest.mark.benchmark(group="range against a hand on the turn (968 boards, one call)")
def test_range_turn_holdem(benchmark: Any) -> None:
    """The range given as text, so each call parses it too: what a bot pricing a spot does."""
    r = benchmark(holdem.equity, TURN_PLAYERS, TURN, executor="serial")
    _rate(benchmark, r.boards)
    assert r.boards == 968


@pytest.mark.benchmark(group="range against a hand on the turn (968 boards, one call)")
def test_range_turn_holdem_range_object(benchmark: Any) -> None:
    """The range parsed once, a :class:`holdem.Range` given to every call (its label is its
    text, written once)."""
    players = [holdem.Range(TURN_PLAYERS[0]), TURN_PLAYERS[1]]
    r = benchmark(holdem.equity, players, TURN, executor="serial")
    _rate(benchmark, r.boards)
    assert r.boards == 968


def _eval7_range_turn() -> float:
    combos = [(eval7.Card(str(a)), eval7.Card(str(b)))
              for a, b in holdem.Range(TURN_PLAYERS[0]).combos]
    hero = [eval7.Card("Jh"), eval7.Card("Th")]
    board = [eval7.Card(TURN[i:i + 2]) for i in range(0, 8, 2)]
    used = {str(c) for c in (*hero, *board)}
    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs" if r + s not in used]
    share = 0.0
    n = 0
    for a, b in combos:
        if str(a) in used or str(b) in used:
            continue
        for river in deck:
            if river in (a, b):
                continue
            full = [*board, river]
            v, h = eval7.evaluate([*full, a, b]), eval7.evaluate([*full, *hero])
            share += 1.0 if v > h else 0.5 if v == h else 0.0
            n += 1
    return share / n


@pytest.mark.benchmark(group="range against a hand on the turn (968 boards, one call)")
def test_range_turn_eval7_python_loop(benchmark: Any) -> None:
    """eval7.evaluate in a Python loop over the same 968 boards (the range's combos listed
    once per call, from holdem's parse; eval7 has no range parser of its own)."""
    eq = benchmark(_eval7_range_turn)
    _rate(benchmark, 968)
    assert eq == pytest.approx(holdem.equity(TURN_PLAYERS, TURN)[0].equity, abs=1e-12)


# --- Monte Carlo 3-way preflop ---------------------------------------------------------------


@pytest.mark.benchmark(group="monte carlo 3-way preflop (per call; see boards)")
def test_mc_3way_holdem_one_core(benchmark: Any) -> None:
    r = benchmark(holdem.equity, THREE, samples=MC_SAMPLES, seed=1, executor="serial")
    _rate(benchmark, r.boards)
    assert r.boards == MC_SAMPLES


def _pokerkit_3way(samples: int) -> list[float]:
    ranges = [pokerkit.parse_range(h) for h in THREE]
    return pokerkit.calculate_equities(
        ranges, (), 2, 5, pokerkit.Deck.STANDARD, (pokerkit.StandardHighHand,),
        sample_count=samples,
    )


@pytest.mark.benchmark(group="monte carlo 3-way preflop (per call; see boards)")
def test_mc_3way_pokerkit_reduced(benchmark: Any) -> None:
    """pokerkit.calculate_equities with 100 samples (vs 1,000,000): scale x10,000."""
    eq = benchmark(_pokerkit_3way, POKERKIT_SAMPLES)
    _rate(benchmark, POKERKIT_SAMPLES)
    benchmark.extra_info["scale_to_full"] = MC_SAMPLES / POKERKIT_SAMPLES
    assert sum(eq) == pytest.approx(1.0)


# --- scaling ---------------------------------------------------------------------------------


@pytest.mark.benchmark(group="scaling: monte carlo 3-way, 4M boards")
def test_scaling_serial(benchmark: Any) -> None:
    r = benchmark(holdem.equity, THREE, samples=4 * MC_SAMPLES, seed=2, executor="serial")
    _rate(benchmark, r.boards)


@pytest.mark.benchmark(group="scaling: monte carlo 3-way, 4M boards")
def test_scaling_two_processes(benchmark: Any, pool: ProcessPoolExecutor) -> None:
    r = benchmark(holdem.equity, THREE, samples=4 * MC_SAMPLES, seed=2, executor=pool)
    _rate(benchmark, r.boards)
    assert r == holdem.equity(THREE, samples=4 * MC_SAMPLES, seed=2, executor="serial")


@pytest.mark.benchmark(group="scaling: monte carlo 3-way, 4M boards")
def test_scaling_two_threads(benchmark: Any) -> None:
    """The kernels release the GIL, so a thread pool scales too (no pickling, no startup)."""
    with ThreadPoolExecutor(max_workers=2) as threads:
        r = benchmark(holdem.equity, THREE, samples=4 * MC_SAMPLES, seed=2, executor=threads)
    _rate(benchmark, r.boards)


@pytest.mark.benchmark(group="scaling: exact range vs range on a flop")
def test_scaling_exact_ranges_serial(benchmark: Any) -> None:
    r = benchmark(holdem.equity, RANGES, "Kh7c2d", exact=True,
                  executor="serial")
    _rate(benchmark, r.boards)


@pytest.mark.benchmark(group="scaling: exact range vs range on a flop")
def test_scaling_exact_ranges_two_processes(benchmark: Any, pool: ProcessPoolExecutor) -> None:
    r = benchmark(holdem.equity, RANGES, "Kh7c2d", exact=True,
                  executor=pool)
    _rate(benchmark, r.boards)
