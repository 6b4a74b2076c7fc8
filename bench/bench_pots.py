"""Pot resolution speed: one 6-seat showdown with a main pot, two side pots and a split.

Seats 0..5, button on seat 5. Seat 0 (small blind) folds after posting 5; seat 5 is all in for
50, seat 1 for 120, seats 2, 3 and 4 for 300. Seat 5 has the best hand (main pot 255), seats 2
and 3 tie for both side pots (280 and 540). Reported as medians:

- ``split_pots``: one call from Python, result objects included;
- ``resolve``: the compiled wrapper alone (tuples, no dataclasses);
- ``batch``: ``split_pots_batch`` over 10,000 hands in one ``nogil`` loop; ``extra_info``
  holds the time per resolution (target: under 1 microsecond); ``batch_dead_column`` the same
  with a per-hand dead-money column (R7);
- ``pokerkit_pots``: pokerkit's pot layering (``tuple(state.pots)``) on the same hand, played
  to the same point. pokerkit does its showdown and odd chips inside its state machine, so
  only its layering step can be timed on its own: it does less work than ``split_pots``.
"""

from __future__ import annotations

from array import array
from typing import Any

import pytest

from holdem import split_pots
from holdem._pots import resolve, split_pots_batch

COMMITTED = [5, 120, 300, 300, 300, 50]
FOLDED = [True, False, False, False, False, False]
RANKS: list[int | None] = [None, 3000, 5000, 5000, 1000, 6000]
BUTTON = 5
PAYOUTS = (0, 0, 410, 410, 0, 255)
BATCH = 10_000


def _rotated(xs: list[Any], shift: int) -> list[Any]:
    return [xs[(i - shift) % len(xs)] for i in range(len(xs))]


def _matrix(fmt: str, rows: list[list[int]]) -> Any:
    """A C-contiguous 2-D buffer without numpy."""
    flat = array(fmt, [v for row in rows for v in row])
    return memoryview(flat).cast("B").cast(fmt, (len(rows), len(rows[0])))  # type: ignore[call-overload]


def _per_call(benchmark: Any, count: int) -> None:
    if benchmark.stats is not None:
        median = benchmark.stats.stats.median
        benchmark.extra_info["median_ns_per_resolution"] = round(median / count * 1e9, 1)


def test_split_pots_python(benchmark: Any) -> None:
    result = benchmark(split_pots, COMMITTED, FOLDED, RANKS, BUTTON)
    assert result.payouts == PAYOUTS
    assert [p.amount for p in result.pots] == [255, 280, 540]
    _per_call(benchmark, 1)


def test_resolve_compiled_wrapper(benchmark: Any) -> None:
    payouts, _, _, pots = benchmark(resolve, COMMITTED, FOLDED, RANKS, BUTTON, None, True)
    assert payouts == PAYOUTS and len(pots) == 3
    _per_call(benchmark, 1)


def test_split_pots_batch(benchmark: Any) -> None:
    shifts = [k % 6 for k in range(BATCH)]
    committed = _matrix("q", [_rotated(COMMITTED, s) for s in shifts])
    folded = _matrix("B", [[int(f) for f in _rotated(FOLDED, s)] for s in shifts])
    ranks = _matrix("i", [[-1 if r is None else r for r in _rotated(RANKS, s)] for s in shifts])
    buttons = array("i", [(BUTTON + s) % 6 for s in shifts])
    payouts = _matrix("q", [[0] * 6 for _ in shifts])
    benchmark(split_pots_batch, committed, folded, ranks, buttons, payouts)
    rows = payouts.tolist()
    assert all(tuple(rows[k]) == tuple(_rotated(list(PAYOUTS), s)) for k, s in enumerate(shifts))
    benchmark.extra_info["resolutions_per_call"] = BATCH
    _per_call(benchmark, BATCH)


def test_split_pots_batch_dead_column(benchmark: Any) -> None:
    """The batch with a per-hand dead-money column (R7: a big-blind ante of 6 per hand)."""
    shifts = [k % 6 for k in range(BATCH)]
    committed = _matrix("q", [_rotated(COMMITTED, s) for s in shifts])
    folded = _matrix("B", [[int(f) for f in _rotated(FOLDED, s)] for s in shifts])
    ranks = _matrix("i", [[-1 if r is None else r for r in _rotated(RANKS, s)] for s in shifts])
    buttons = array("i", [(BUTTON + s) % 6 for s in shifts])
    payouts = _matrix("q", [[0] * 6 for _ in shifts])
    dead = array("q", [6] * BATCH)
    benchmark(split_pots_batch, committed, folded, ranks, buttons, payouts, dead=dead)
    rows = payouts.tolist()
    want = list(PAYOUTS)
    want[5] += 6   # the dead money joins the main pot, which seat 5 wins
    assert all(tuple(rows[k]) == tuple(_rotated(want, s)) for k, s in enumerate(shifts))
    benchmark.extra_info["resolutions_per_call"] = BATCH
    _per_call(benchmark, BATCH)


def test_pokerkit_pots(benchmark: Any) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    auto = pokerkit.Automation
    state = pokerkit.NoLimitTexasHoldem.create_state(
        (auto.ANTE_POSTING, auto.BET_COLLECTION, auto.BLIND_OR_STRADDLE_POSTING,
         auto.CARD_BURNING, auto.HOLE_DEALING, auto.HOLE_CARDS_SHOWING_OR_MUCKING,
         auto.HAND_KILLING, auto.CHIPS_PUSHING, auto.CHIPS_PULLING),
        True, 0, (5, 10), 10, (200, 120, 300, 300, 300, 50), 6)
    # pokerkit seats: 0 small blind, 1 big blind, 5 button, as ours.
    state.complete_bet_or_raise_to(300)   # seat 2 all in
    state.check_or_call()                 # seat 3
    state.check_or_call()                 # seat 4
    state.check_or_call()                 # seat 5 all in for 50
    state.fold()                          # seat 0 (posted 5)
    state.check_or_call()                 # seat 1 all in for 120
    pots = benchmark(lambda: tuple(state.pots))
    assert [p.amount for p in pots] == [255, 280, 540]
    benchmark.extra_info["note"] = "pokerkit pot layering only (no showdown, odd chips)"
    _per_call(benchmark, 1)
