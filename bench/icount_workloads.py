"""The instruction-count workloads: fixed, seeded, no peers, standard library + holdem only.

Each workload is a name, a unit of work, two sizes ``n1 < n2`` and a ``setup()`` that builds
its inputs and returns ``run(n)``, which does ``n`` units. ``bench/icount.py`` runs this file
under valgrind (callgrind); the cost it reports for a workload is the marginal one,
``(I(n2) - I(n1)) / (n2 - n1)`` instructions per unit, both sizes measured in the same process
after a warm-up, so interpreter start-up, imports, set-up and per-call overhead cancel out.

Run directly (no valgrind) to check that every workload works::

    python bench/icount_workloads.py --smoke

Under valgrind, ``python bench/icount_workloads.py --measure NAME...`` calls ``os.getppid()``
(the marker callgrind dumps its counters before) around each measured size and prints the
order of the segments as JSON on its last line.
"""

from __future__ import annotations

import gc
import json
import os
import random
import sys
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import holdem
from holdem import Action, Game, Structure, Table, evaluate, evaluate_many, phh, split_pots
from holdem.pots import split_pots_batch

Run = Callable[[int], object]


@dataclass(frozen=True)
class Workload:
    """One workload: ``setup()`` returns ``run(n)``, which does ``n`` units of work."""

    name: str
    unit: str
    n1: int
    n2: int
    setup: Callable[[], Run]
    about: str


def _hands(n: int, size: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(range(52), size)) for _ in range(n)]


def _matrix(fmt: str, rows: list[list[int]], repeat: int = 1) -> memoryview:
    """A C-contiguous 2-D buffer (without numpy): ``rows`` repeated ``repeat`` times."""
    flat = array(fmt, [v for row in rows for v in row]) * repeat
    shape = (len(rows) * repeat, len(rows[0]))
    return memoryview(flat).cast("B").cast(fmt, shape)  # type: ignore[call-overload]


# --- evaluator -------------------------------------------------------------------------------


def _eval_call() -> Run:
    hands = _hands(2_000, 7, seed=2024) * 3

    def run(n: int) -> object:
        for hand in hands[:n]:
            evaluate(hand)
        return None

    return run


def _eval_many_bytes() -> Run:
    rows = b"".join(bytes(h) for h in _hands(2_000, 7, seed=7)) * 20

    def run(n: int) -> object:
        return evaluate_many(rows[: 7 * n], n_cards=7)

    return run


def _eval_many_int64() -> Run:
    flat = array("q", [c for h in _hands(2_000, 7, seed=8) for c in h]) * 20
    rows = memoryview(flat).cast("B").cast("q", (len(flat) // 7, 7))  # type: ignore[call-overload]

    def run(n: int) -> object:
        return evaluate_many(rows[:n])

    return run


# --- dealing and pots ------------------------------------------------------------------------


def _deal_hands() -> Run:
    out = array("B", bytes(20_000 * holdem.hand_width(6)))

    def run(n: int) -> object:
        return holdem.deal_hands(n, 6, seed=1, out=memoryview(out)[: n * holdem.hand_width(6)])

    return run


# One 6-seat showdown: a main pot, two side pots and a split (as bench/bench_pots.py).
COMMITTED = [5, 120, 300, 300, 300, 50]
FOLDED = [True, False, False, False, False, False]
RANKS: list[int | None] = [None, 3000, 5000, 5000, 1000, 6000]
PAYOUTS = (0, 0, 410, 410, 0, 255)


def _rotated(xs: list[Any], shift: int) -> list[Any]:
    return [xs[(i - shift) % len(xs)] for i in range(len(xs))]


def _split_pots_batch() -> Run:
    """The showdown rotated to each of the 6 buttons, the 6 rows repeated."""
    reps = 2_000
    shifts = list(range(6))
    committed = _matrix("q", [_rotated(COMMITTED, s) for s in shifts], reps)
    folded = _matrix("B", [[int(f) for f in _rotated(FOLDED, s)] for s in shifts], reps)
    ranks = _matrix("i", [[-1 if r is None else r for r in _rotated(RANKS, s)] for s in shifts],
                    reps)
    buttons = array("i", [(5 + s) % 6 for s in shifts]) * reps
    payouts = _matrix("q", [[0] * 6 for _ in shifts], reps)
    shifts *= reps

    def run(n: int) -> object:
        split_pots_batch(committed[:n], folded[:n], ranks[:n], memoryview(buttons)[:n],
                         payouts[:n])
        if tuple(payouts[n - 1 : n].tolist()[0]) != tuple(_rotated(list(PAYOUTS), shifts[n - 1])):
            raise AssertionError("split_pots_batch: wrong payouts")
        return None

    return run


def _split_pots() -> Run:
    def run(n: int) -> object:
        for _ in range(n):
            result = split_pots(COMMITTED, FOLDED, RANKS, 5)
        if result.payouts != PAYOUTS:
            raise AssertionError("split_pots: wrong payouts")
        return None

    return run


# --- equity ----------------------------------------------------------------------------------

HU = ["AsKs", "QdQc"]
THREE = ["AsKs", "QdQc", "JhTh"]


def _equity_exact_hu() -> Run:
    """Exhaustive heads-up on a fixed list of flops: 990 turn-river boards each."""
    used = set(holdem.parse_cards("AsKs QdQc"))
    rng = random.Random(11)
    flops = [rng.sample([c for c in range(52) if c not in used], 3) for _ in range(8)]

    def run(n: int) -> object:  # n boards, a multiple of 990
        total = 0
        for flop in flops[: n // 990]:
            total += holdem.equity(HU, flop, executor="serial", exact=True).boards
        if total != n:
            raise AssertionError(f"equity: {total} boards, expected {n}")
        return None

    return run


def _equity_mc_3way() -> Run:
    def run(n: int) -> object:
        r = holdem.equity(THREE, samples=n, seed=1, executor="serial")
        if r.boards != n:
            raise AssertionError("equity: wrong sample count")
        return None

    return run


# --- hand state, table, hand histories -------------------------------------------------------

NL6 = Game(structure=Structure.NO_LIMIT, big_blind=2)


# The kinds a decision draws from (0 fold, 1 check/call, 2 bet/raise), by (can fold, can raise).
KINDS = (((1,), (1, 2)), ((0, 1), (0, 1, 2)))
FOLD_OR_CALL = (Action.fold(), Action.check_or_call())


def _random_hands(validated: bool) -> Run:
    """Random 6-max no-limit hands to the end (payoffs read): each decision a kind drawn
    uniformly among those offered, a bet or raise size uniformly in [min, max] (the policy of
    bench/bench_state.py)."""

    def run(n: int) -> object:
        rnd = random.Random(5).random
        stacks = [200] * 6
        for h in range(n):
            state = NL6.new_hand(stacks, button=h % 6, seed=1_000_003 + h)
            while not state.is_terminal():
                la = state.legal_actions()
                offered = KINDS[la.can_fold][la.can_raise]
                kind = offered[int(rnd() * len(offered))]
                if kind != 2:
                    if validated:
                        state.apply(FOLD_OR_CALL[kind])
                    else:
                        state.apply_unchecked(kind)
                    continue
                to = la.min_to + int(rnd() * (la.max_to - la.min_to + 1))
                if validated:
                    state.apply(Action.bet_or_raise(to))
                else:
                    state.apply_unchecked(2, to)
            if sum(state.payoffs):
                raise AssertionError("chips not conserved")
        return None

    return run


class PythonAgent:
    """A seeded agent written in Python (the table cannot take its compiled fast path): folds
    to a bet one time in five, raises the minimum one time in five, else checks or calls."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed).random

    def act(self, observation: holdem.Observation) -> Action:
        la = observation.legal
        r = self._random()
        if la.can_fold and r < 0.2:
            return Action.fold()
        if la.can_raise and r > 0.8 and la.min_to is not None:
            return Action.bet_or_raise(la.min_to)
        return Action.check_or_call()


def _table_python_agent() -> Run:
    def run(n: int) -> object:
        table = Table(NL6, seats=6, seed=3)
        for s in range(6):  # deep stacks: nobody busts within the workload
            table.sit(s, f"p{s}", 1_000_000, PythonAgent(seed=s))
        records = table.play(n)
        if len(records) != n:
            raise AssertionError("table: hands missing")
        return None

    return run


def _phh_round_trip() -> Run:
    """Engine hand -> PHH text -> parsed history -> replayed under the rules, per hand."""
    hands = []
    rnd = random.Random(9).random
    for h in range(12):
        state = NL6.new_hand([200] * 6, button=h % 6, seed=77_000 + h)
        while not state.is_terminal():
            la = state.legal_actions()
            if la.can_raise and rnd() < 0.25:
                state.apply(Action.bet_or_raise(la.min_to))  # type: ignore[arg-type]
            elif la.can_fold and rnd() < 0.3:
                state.apply(Action.fold())
            else:
                state.apply(Action.check_or_call())
        hands.append(state)

    def run(n: int) -> object:
        for state in hands[:n]:
            text = phh.dumps(holdem.from_state(state))
            if not holdem.replay(phh.loads(text)).ok:
                raise AssertionError("PHH round trip: the replay disagrees")
        return None

    return run


def _vector_step() -> Run:
    """The batched engine: 256 6-max no-limit tables stepped together, per decision. Each
    step plays a seeded column per table (a masked column plays check/call:
    ``step_unchecked``), so folds, calls and raises of every size of the layout occur."""
    from holdem.vector import VectorGame

    tables = 256
    env = VectorGame(NL6, num_tables=tables, players=6, stacks=200, seed=5)
    size = env.action_layout.size
    rng = random.Random(13)
    columns = [array("q", [rng.randrange(size) for _ in range(tables)]) for _ in range(64)]
    env.reset()

    def run(n: int) -> object:
        for k in range(n // tables):
            env.step_unchecked(columns[k % 64])
        return None

    return run


def _vector_play() -> Run:
    """Whole hands in C with the built-in agents' compiled policies (random, call, equity,
    twice each around a 6-max table: what ``simulate`` runs), 8 tables, per hand."""
    from holdem import CallAgent, EquityAgent, RandomAgent
    from holdem.vector import VectorGame

    tables = 8
    env = VectorGame(NL6, num_tables=tables, players=6, stacks=200, seed=5)
    policies = [RandomAgent(), CallAgent(), EquityAgent()] * 2

    def run(n: int) -> object:
        return env.play(n // tables, policies)

    return run


WORKLOADS: dict[str, Workload] = {
    w.name: w
    for w in (
        Workload("evaluate_call", "call", 2_000, 6_000, _eval_call,
                 "holdem.evaluate(tuple of 7 ints), one call from Python per hand"),
        Workload("evaluate_many_bytes", "row", 8_000, 40_000, _eval_many_bytes,
                 "evaluate_many on 7-card byte rows (bytes, n_cards=7): the uint8 kernel"),
        Workload("evaluate_many_int64", "row", 8_000, 40_000, _eval_many_int64,
                 "evaluate_many on an int64 N x 7 buffer"),
        Workload("deal_hands", "hand", 4_000, 20_000, _deal_hands,
                 "deal_hands: 6-player hands (20 cards with burns) into a buffer"),
        Workload("split_pots_batch", "hand", 2_400, 12_000, _split_pots_batch,
                 "split_pots_batch: a 6-seat showdown with side pots and a split, per row"),
        Workload("split_pots", "call", 100, 300, _split_pots,
                 "split_pots from Python, result objects included"),
        Workload("equity_exact_hu", "board", 2 * 990, 6 * 990, _equity_exact_hu,
                 "exhaustive heads-up equity, AsKs vs QdQc on fixed flops (990 boards each)"),
        Workload("equity_mc_3way", "board", 10_000, 50_000, _equity_mc_3way,
                 "Monte Carlo 3-way preflop equity (seeded), per sampled board"),
        Workload("hand_validated", "hand", 10, 30, lambda: _random_hands(True),
                 "a random 6-max HandState hand with validated apply(Action)"),
        Workload("hand_unchecked", "hand", 10, 30, lambda: _random_hands(False),
                 "the same hands with apply_unchecked"),
        Workload("table_python_agent", "hand", 10, 30, _table_python_agent,
                 "a 6-max Table session with a Python agent in every seat"),
        Workload("vector_step", "decision", 256 * 20, 256 * 60, _vector_step,
                 "VectorGame.step_unchecked, 256 6-max no-limit tables, per decision"),
        Workload("vector_play", "hand", 8 * 8, 8 * 24, _vector_play,
                 "VectorGame.play: whole 6-max hands with the compiled random, call and "
                 "equity policies, per hand"),
        Workload("phh_round_trip", "hand", 4, 12, _phh_round_trip,
                 "from_state -> phh.dumps -> phh.loads -> replay, per hand"),
    )
}


def _mark() -> None:
    """The segment boundary: callgrind dumps its counters before each getppid call."""
    os.getppid()


def measure(names: list[str]) -> list[list[str]]:
    """Run the workloads with markers around each measured size; return the segments
    (one ``[workload, phase]`` per marker: the segment that the marker closes)."""
    segments: list[list[str]] = []
    for name in names:
        w = WORKLOADS[name]
        run = w.setup()
        run(w.n1)  # warm-up: lazy imports, caches, the interpreter's specialization
        # A full collection (the generation counts start at 0) and every object so far moved
        # out of the collector's sight: what the collector costs in the measured segments
        # depends on this workload's own objects, not on the workloads before it.
        gc.collect()
        gc.freeze()
        _mark()
        segments.append([name, "setup"])
        run(w.n1)
        _mark()
        segments.append([name, "n1"])
        run(w.n2)
        _mark()
        segments.append([name, "n2"])
    return segments


def smoke(names: list[str]) -> None:
    """Each workload once at size n1 (no valgrind), so they never rot."""
    for name in names:
        w = WORKLOADS[name]
        w.setup()(w.n1)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--measure"]:
        print(json.dumps(measure(argv[1:] or list(WORKLOADS))))
        return 0
    if argv[:1] == ["--smoke"]:
        smoke(argv[1:] or list(WORKLOADS))
        print(f"{len(argv[1:]) or len(WORKLOADS)} workloads ran")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
