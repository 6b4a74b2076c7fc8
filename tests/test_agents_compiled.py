"""The built-in agents' compiled policies (csrc/hd_agents.h) and VectorGame.play: legal
decisions, the Python agents' rules, the equity estimate, whole hands played in C."""

from __future__ import annotations

import math
import random
import signal
import time
from typing import Any

import pytest

from holdem import CallAgent, EquityAgent, Game, InvalidConfigError, RandomAgent
from holdem.cards import Card
from holdem.hand.actions import Action, ActionType
from holdem.pots import Rake
from holdem.table.agents import CompiledPolicy, Observation, equity_decision
from holdem.vector import VectorGame, compiled_policy

GAME = Game(big_blind=2)
RANDOM, CALL, EQUITY = (CompiledPolicy("random"), CompiledPolicy("call"),
                        CompiledPolicy("equity", 48, 0.65))


def _code(action: object) -> tuple[int, int]:
    """A Python agent's answer as (kind, to)."""
    if isinstance(action, Action):
        assert action.type is ActionType.BET_RAISE and action.to is not None
        return 2, action.to
    assert action in (0, 1)
    return int(action), 0  # type: ignore[call-overload]


def _spots(seed: int, count: int, players: int = 4) -> Any:
    """``count`` decisions of real hands (one table, random legal play between them), as the
    1-table env positioned on each."""
    env = VectorGame(GAME, num_tables=1, players=players, stacks=200, seed=seed)
    env.reset()
    rnd = random.Random(seed)
    for _ in range(count):
        yield env
        mask = [c for c, ok in enumerate(env.legal_mask[0]) if ok]
        env.step([rnd.choice(mask)])


# --- the declaration -------------------------------------------------------------------------


def test_built_in_agents_declare_their_compiled_policy() -> None:
    assert RandomAgent(seed=1).compiled_policy == RANDOM
    assert CallAgent().compiled_policy == CALL
    assert EquityAgent(seed=2, samples=30, raise_at=0.7).compiled_policy == (
        CompiledPolicy("equity", 30, 0.7))
    assert compiled_policy(RANDOM) == RANDOM and compiled_policy(lambda o: 1) is None


def test_a_subclass_that_decides_differently_has_no_compiled_policy() -> None:
    class Folder(CallAgent):
        def act(self, observation: Observation) -> int:
            return 0

    class Optimist(EquityAgent):
        def equity(self, hole: tuple[Card, ...], board: tuple[Card, ...],
                   opponents: int) -> float:
            return 1.0

    class Named(RandomAgent):
        name = "named"

    assert Folder().compiled_policy is None and Optimist().compiled_policy is None
    assert Named(seed=1).compiled_policy == RANDOM  # decides as RandomAgent does


# --- decisions -------------------------------------------------------------------------------


def test_compiled_decisions_are_legal_and_follow_the_python_rules() -> None:
    seen: dict[str, set[int]] = {"random": set(), "call": set(), "equity": set()}
    for k, env in enumerate(_spots(seed=5, count=300)):
        state = env.hand_state(0)
        la = state.legal_actions()
        seat = la.seat
        for policy in (RANDOM, CALL, EQUITY, CompiledPolicy("equity", 20, 0.3)):
            kind, to, eq = env._batch.decide(0, policy.code, 1000 + k)
            action = (Action.fold() if kind == 0 else Action.check_or_call() if kind == 1
                      else Action.bet_or_raise(to))
            assert state.is_legal(action), (policy, kind, to, la)
            seen[policy.kind].add(kind)
            if policy.kind == "call":
                assert (kind, to, eq) == (1, 0, -1.0)  # never folds, never raises
            elif policy.kind == "equity":
                assert 0.0 <= eq <= 1.0
                want = equity_decision(eq, policy.raise_at, la, state.bets[seat], state.pot)
                assert (kind, to) == _code(want)
    assert seen == {"random": {0, 1, 2}, "call": {1}, "equity": {0, 1, 2}}


def test_compiled_random_policy_is_uniform_over_kinds_and_sizes() -> None:
    env = VectorGame(GAME, num_tables=1, players=3, stacks=200, seed=1)
    env.reset()  # first to act preflop: fold, call 2, raise to 4..200 are all offered
    _, can_fold, _, _, can_raise, _, lo, hi = env.legal_actions(0)
    assert can_fold and can_raise and (lo, hi) == (4, 200)
    draws = [env._batch.decide(0, RANDOM.code, s)[:2] for s in range(6000)]
    kinds = [sum(1 for k, _ in draws if k == kind) / len(draws) for kind in (0, 1, 2)]
    assert all(abs(f - 1 / 3) < 0.03 for f in kinds), kinds
    sizes = [to for k, to in draws if k == 2]
    assert min(sizes) >= 4 and max(sizes) <= 200
    assert abs(sum(sizes) / len(sizes) - 102) < 4  # uniform on 4..200: mean 102, sd ~57
    assert sum(1 for t in sizes if t < 53) / len(sizes) == pytest.approx(0.25, abs=0.03)
    # the Python agent, same spot: the same distribution over kinds
    state = env.hand_state(0)
    obs = Observation(0, 0, "p", (), (), state.street, state.pot, state.stacks, state.bets,
                      state.committed, (0, 1, 2), ("a", "b", "c"), 0, state.legal_actions(),
                      2, 0, [])
    agent = RandomAgent(seed=3)
    py = [_code(agent.act(obs))[0] for _ in range(6000)]
    assert all(abs(py.count(kind) / 6000 - 1 / 3) < 0.03 for kind in (0, 1, 2))


@pytest.mark.parametrize(("hole", "board", "opponents"), [
    ("AsAd", "", 1),
    ("7c2d", "AhKhQh", 2),
    ("9s9h", "9d5c2hKs", 3),
    ("JhTh", "9h8c2h", 1),
    ("5c5d", "AsKdQhJcTs", 2),
])
def test_compiled_equity_matches_the_python_estimate(hole: str, board: str,
                                                     opponents: int) -> None:
    from holdem import _vector

    h = [int(Card(hole[i:i + 2])) for i in (0, 2)]
    b = [int(Card(board[i:i + 2])) for i in range(0, len(board), 2)]
    c = _vector.equity_estimate(h, b, opponents, 200_000, 7)
    agent = EquityAgent(seed=8, samples=20_000)
    py = agent.equity(tuple(Card(x) for x in h), tuple(Card(x) for x in b), opponents)
    sigma = math.sqrt(max(py * (1 - py), 0.01) / 20_000)
    assert abs(c - py) < 5 * sigma, (c, py)


def test_equity_estimate_rejects_bad_cards() -> None:
    from holdem import _vector

    with pytest.raises(InvalidConfigError, match="distinct"):
        _vector.equity_estimate([1, 1], [], 1, 10, 0)
    with pytest.raises(InvalidConfigError, match="distinct"):
        _vector.equity_estimate([1, 52], [], 1, 10, 0)
    with pytest.raises(InvalidConfigError, match="samples"):
        _vector.equity_estimate([1, 2], [], 1, 0, 0)


def test_c_policies_on_their_own(tmp_path: Any) -> None:
    """csrc/hd_agents.h in plain C (tests/c/hd_agents_check.c): every policy plays whole hands
    in every structure at 2-10 seats with legal decisions and chips conserved (R31, R34), and
    garbage into the equity estimate stays memory-safe, under ASan/UBSan when available."""
    from c_checks import run_c_check

    run_c_check(tmp_path, "hd_agents_check",
                ("hd_agents.c", "hd_hand.c", "hd_pots.c", "hd_eval.c", "hd_tables.c"))


# --- VectorGame.play -------------------------------------------------------------------------


def test_play_results_add_up_and_conserve_chips() -> None:
    game = Game(big_blind=2, rake=Rake(0.05, cap=4))
    env = VectorGame(game, num_tables=5, players=4, stacks=200, seed=3)
    r = env.play(300, [RandomAgent(), CallAgent(), EquityAgent(samples=8), RANDOM],
                 keep_hands=True, curve_every=40)
    assert r.hands == 300 and r.curve_hands == (40, 80, 120, 160, 200, 240, 280, 300)
    rake = r.rake.tolist()
    assert sum(rake) > 0
    for i in range(5):
        pays = r.payoffs.tolist()[i]
        rows = r.hand_payoffs.tolist()[i]
        assert sum(pays) + rake[i] == 0
        assert [sum(row[s] for row in rows) for s in range(4)] == pays
        assert [sum(row[s] ** 2 for row in rows) for s in range(4)] == r.squares.tolist()[i]
        assert r.curve.tolist()[i][-1] == pays
        assert r.curve.tolist()[i][0] == [sum(row[s] for row in rows[:40]) for s in range(4)]
        sd, won = r.showdowns.tolist()[i], r.showdowns_won.tolist()[i]
        assert sd[1] >= max(sd[0], sd[3]) and all(w <= s for w, s in zip(won, sd, strict=True))


def test_play_deals_the_cards_of_step_and_follows_the_rules() -> None:
    # Calling stations: each hand is the deal of step() played check/call to the showdown by
    # holdem.HandState; play's payoffs must be exactly those.
    env = VectorGame(GAME, num_tables=2, players=3, stacks=100, seed=9)
    r = env.play(40, [CALL, CALL, CALL], keep_hands=True)
    assert r.showdowns.tolist() == [[40] * 3] * 2  # a calling station never folds
    for i in range(2):
        for h in range(40):
            hole, board = env.cards(i, h)
            state = GAME.new_hand([100] * 3, button=h % 3, hole_cards=[list(x) for x in hole],
                                  board=list(board))
            while not state.is_terminal():
                state.check_or_call()
            assert list(state.payoffs) == r.hand_payoffs.tolist()[i][h]


def test_play_is_deterministic_and_independent_of_threads() -> None:
    policies = [RANDOM, EQUITY, CALL, RANDOM, EQUITY, CALL]

    def run(threads: int, seed: int = 1) -> tuple[Any, ...]:
        env = VectorGame(GAME, num_tables=6, players=6, stacks=200, seed=seed,
                         num_threads=threads)
        r = env.play(100, policies)
        env.close()
        return (r.payoffs.tolist(), r.squares.tolist(), r.showdowns.tolist(),
                r.showdowns_won.tolist(), r.curve.tolist())

    one = run(1)
    assert run(3) == one and run(1) == one
    assert run(1, seed=2) != one
    # each table plays its own cards and draws: table results differ
    assert len({tuple(row) for row in one[0]}) == 6


def test_play_streams_follow_the_policy_not_the_seat() -> None:
    env = VectorGame(GAME, num_tables=1, players=2, stacks=200, seed=4)
    a = env.play(50, [RANDOM, RANDOM], keep_hands=True)
    b = env.play(50, [RANDOM, RANDOM], keep_hands=True, streams=[1, 0])
    assert a.hand_payoffs.tolist() != b.hand_payoffs.tolist()
    assert env.play(50, [RANDOM, RANDOM], keep_hands=True,
                    streams=[0, 1]).hand_payoffs.tolist() == a.hand_payoffs.tolist()


def test_play_in_a_session_carries_stacks() -> None:
    env = VectorGame(GAME, num_tables=3, players=3, stacks=40, seed=2, session=True)
    r = env.play(200, [RANDOM, RANDOM, EQUITY], keep_hands=True)
    assert all(sum(p) == 0 for p in r.payoffs.tolist())
    # a seat's losses in a hand never exceed what it carried in (refilled to 40 when busted)
    for rows in r.hand_payoffs.tolist():
        stacks = [40] * 3
        for row in rows:
            stacks = [s if s > 0 else 40 for s in stacks]
            assert all(-p <= s for p, s in zip(row, stacks, strict=True))
            stacks = [s + p for s, p in zip(stacks, row, strict=True)]


def test_play_leaves_the_stepping_state_alone() -> None:
    env = VectorGame(GAME, num_tables=2, players=3, stacks=200, seed=6)
    obs = env.reset().tolist()
    before = env.table_state(1)
    env.play(20, [CALL, RANDOM, EQUITY])
    assert env.table_state(1) == before
    assert env.observation.tolist() == obs


class _Declares:
    """An agent that declares ``policy`` as its compiled policy."""

    def __init__(self, policy: CompiledPolicy) -> None:
        self.compiled_policy = policy


def test_play_errors() -> None:
    env = VectorGame(GAME, num_tables=1, players=2, stacks=200, seed=1)
    with pytest.raises(InvalidConfigError, match="no compiled policy"):
        env.play(10, [CALL, lambda o: 1])
    with pytest.raises(InvalidConfigError, match="2 seats"):
        env.play(10, [CALL])
    with pytest.raises(InvalidConfigError, match="hands"):
        env.play(0, [CALL, CALL])
    with pytest.raises(InvalidConfigError, match="curve_every"):
        env.play(10, [CALL, CALL], curve_every=0)
    with pytest.raises(InvalidConfigError, match="streams"):
        env.play(10, [CALL, CALL], streams=[0, -1])
    # a CompiledPolicy the engine cannot run: the error names the field at fault
    for bad, why in ((CompiledPolicy("equity", 0, 0.5), r"samples must be .* got 0"),
                     (CompiledPolicy("equity", 10**7, 0.5), "samples must be"),
                     (CompiledPolicy("equity", True, 0.5), "samples must be"),
                     (CompiledPolicy("equity", 20, float("nan")), "raise_at must be"),
                     (CompiledPolicy("equity", 20, "0.5"), "raise_at must be"),  # type: ignore[arg-type]
                     (CompiledPolicy("bluff"), "kind 'bluff' is not one of 'random'"),
                     # fields the other kinds do not read still reach C (a review found an
                     # OverflowError and a TypeError, not the project's errors)
                     (CompiledPolicy("equity", 20, 10**400), "raise_at must be a number a float"),
                     (CompiledPolicy("equity", 20, True), "raise_at must be"),
                     (CompiledPolicy("random", 0, "x"), "raise_at must be"),  # type: ignore[arg-type]
                     (CompiledPolicy("call", 10**30), r"samples must be an int in 0\.\.1,000,000"),
                     (CompiledPolicy("random", -1), "samples must be"),
                     (CompiledPolicy("call", 0, float("nan")), "raise_at must be")):
        with pytest.raises(InvalidConfigError, match="no compiled policy the engine can run: "
                           + why):
            env.play(10, [CALL, bad])
    with pytest.raises(InvalidConfigError, match=r"seat 0: .* 'bluff'"):  # an agent declaring it
        env.play(10, [_Declares(CompiledPolicy("bluff")), CALL])
    # what the engine can run: infinities (never / always raise) and the other kinds' fields
    env.play(10, [CALL, CompiledPolicy("equity", 20, float("inf"))])
    env.play(10, [CompiledPolicy("call", 5, -2), CompiledPolicy("random", 0, 10**300)])
    big = VectorGame(GAME, num_tables=1, players=2, stacks=2**40, seed=1)
    with pytest.raises(InvalidConfigError, match="overflow"):
        big.play(10, [CALL, CALL])


def test_play_sizes_are_checked_before_anything_is_allocated() -> None:
    """Huge requests are refused by their sizes (no overflow, no attempt to allocate)."""
    env = VectorGame(GAME, num_tables=3, players=3, stacks=200, seed=1)
    seats = [CALL, CALL, CALL]
    for hands in (2**53 + 1, 2**63, 2**70):
        with pytest.raises(InvalidConfigError, match=r"hands must be 1\.\.2\*\*53"):
            env.play(hands, seats)
    with pytest.raises(InvalidConfigError, match="keep_hands=True"):
        env.play(10**12, seats, keep_hands=True)
    with pytest.raises(InvalidConfigError, match="curve"):
        env.play(2**40, seats, curve_every=1)
    r = env.play(7, seats, curve_every=3, keep_hands=True)
    assert r.curve_hands == (3, 6, 7) and tuple(r.hand_payoffs.shape) == (3, 7, 3)


class _Alarm(Exception):
    """Raised by the test's SIGALRM handler (as KeyboardInterrupt is by Ctrl-C's)."""


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timers (Windows)")
@pytest.mark.parametrize("threads", [1, 2])
def test_play_stops_at_a_signal(threads: int) -> None:
    """``VectorGame.play`` ran every hand in one C loop without the GIL: Ctrl-C (or any
    signal handler that raises) waited for the end, 100 hours for ``play(10**12)`` at one
    table. Every thread of the call stops within about 0.1 s and the handler's exception is
    raised; the batch plays on as before (the same result as a new one). (The old loop
    ran these calls to their end, then raised.)"""
    def alarm(*_: object) -> None:
        raise _Alarm

    old = signal.signal(signal.SIGALRM, alarm)
    try:
        env = VectorGame(Game(big_blind=2), num_tables=4, players=2, stacks=200, seed=1,
                         num_threads=threads)
        # 46 s and 25 s on one thread here, 23 s and 12 s on two, without the signal
        for agents, hands in (([RandomAgent(), CallAgent()], 3 * 10**7),
                              ([EquityAgent(samples=200), CallAgent()], 3 * 10**5)):
            signal.setitimer(signal.ITIMER_REAL, 0.3)
            start = time.monotonic()
            with pytest.raises(_Alarm):
                env.play(hands, agents)
            assert time.monotonic() - start < 5  # (0.30-0.31 s measured)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    fresh = VectorGame(Game(big_blind=2), num_tables=4, players=2, stacks=200, seed=1)
    again, new = (e.play(500, [RandomAgent(), CallAgent()]) for e in (env, fresh))
    assert list(again.payoffs.tolist()) == list(new.payoffs.tolist())


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timers (Windows)")
def test_play_stops_its_other_threads_when_interrupted_while_waiting() -> None:
    """With ``num_threads=2`` the calling thread plays one slice and waits for the other. A
    signal handler that raised while it waited (its slice done) ended the call, but the
    other thread played its slice to the end unseen, and the next call waited for it (0.94 s
    here). The call's flag stops it: the next call starts at once. (The handler raises only
    once the caller waits: while its slice plays, the handler runs inside ``play_slice``.)"""
    def alarm(_: int, frame: Any) -> None:
        if frame is not None and frame.f_code.co_name == "play_slice":
            signal.setitimer(signal.ITIMER_REAL, 0.02)  # still playing its own slice
            return
        raise _Alarm

    env = VectorGame(Game(big_blind=2), num_tables=3, players=2, stacks=200, seed=1,
                     num_threads=2)  # slices of 1 and 2 tables: the caller's ends first
    agents = [RandomAgent(), CallAgent()]
    start = time.monotonic()
    env.play(10**6, agents)
    unit = time.monotonic() - start  # the other slice's 2 tables, the caller's in half
    old = signal.signal(signal.SIGALRM, alarm)
    try:
        for _ in range(3):  # (the other slice may end first if its thread got the CPU)
            signal.setitimer(signal.ITIMER_REAL, 0.02)
            try:
                env.play(10**7, agents)  # the caller waits from about 5 units to 10
            except _Alarm:
                break
        else:
            pytest.fail("the caller never waited for the other slice")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    start = time.monotonic()
    env.play(10, agents)
    assert time.monotonic() - start < unit  # (0.4 ms measured; about 5 units before)
