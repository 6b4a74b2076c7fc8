"""The table's compiled path (holdem/table/_loop.pyx: decision loop, RandomAgent's policy,
per-hand bookkeeping) against the Python one it replaces with the compiled core: seeded
sessions with every kind of answer, leaves during hands, tournaments and dead buttons must play
identically, observation for observation, and reject bad answers with the same errors."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import holdem.table._steps as _table_steps
import holdem.table.table as table_mod
from holdem import (
    Action,
    AgentError,
    BlindLevel,
    BlindSchedule,
    CallAgent,
    Game,
    LegalActions,
    Mode,
    Observation,
    RandomAgent,
    Street,
    Table,
)
from holdem.pots import Rake
from holdem.table._steps import fast_code
from holdem.table.agents import _random_act_python

fast = table_mod._fast
compiled_only = pytest.mark.skipif(fast is None, reason="the compiled core is not in use")
ROOT = Path(__file__).resolve().parent.parent


class Mixed:
    """Answers in every form the table accepts (int codes, PHH text, each Action type), or
    leaves the table during the hand; logs every observation it is shown, field by field."""

    def __init__(self, seed: int, log: list[Any], table: Table, name: str) -> None:
        self.rng = random.Random(seed)
        self.log = log
        self.table = table
        self.name = name

    def act(self, obs: Observation) -> Any:
        self.log.append((tuple(obs), obs.history, obs.to_call, obs.opponents))
        la = obs.legal
        r = self.rng.random()
        if r < 0.003 and not self.table.tournament:
            self.table.leave(obs.player)  # takes effect at this player's next turn
        forms: list[Any] = [1, "cc", Action.check_or_call(),
                            Action.check() if la.can_check else Action.call()]
        if la.can_fold:
            forms += [0, "f", Action.fold()]
        if la.can_raise:
            assert la.min_to is not None and la.max_to is not None
            to = self.rng.randint(la.min_to, la.max_to)
            forms += [to + 1, f"cbr {to}", Action.bet_or_raise(to), Action.all_in(),
                      Action.bet(to) if la.is_bet else Action.raise_to(to)]
        return forms[int(self.rng.random() * len(forms))]


def _play(seed: int, *, tournament: bool = False, dead_button: bool = False,
          hands: int = 300) -> tuple[list[Any], list[Any], tuple[Any, ...]]:
    """A seeded session: its records, the observations shown and the final table."""
    if tournament:
        game = Game(big_blind=2, mode=Mode.TOURNAMENT)
        sched = BlindSchedule([BlindLevel(1, 2), BlindLevel(2, 4, 1), BlindLevel(5, 10, 1),
                               BlindLevel(10, 20, 2)], hands_per_level=25)
        t = Table(game, seats=6, seed=seed, schedule=sched)
    else:
        t = Table(Game(big_blind=2, rake=Rake(0.05, cap=3)), seats=6, seed=seed,
                  dead_button=dead_button)
    log: list[Any] = []
    rng = random.Random(seed)
    for s in range(6):
        name = f"p{s}"
        agent: Any = (RandomAgent(seed=seed + s) if s % 3 == 0 else CallAgent() if s == 4
                      else Mixed(seed + s, log, t, name))
        t.sit(s, name, (400 if tournament else 60) + 30 * s, agent)
    records = []
    joined = 6
    for k in range(hands):
        assert t._kinds() == t._kinds_python()
        if tournament and k == 3:
            t.sit_out(t.players[-1].name)  # blinded off: checks or folds without being asked
        if not tournament:
            empty = [s for s, p in enumerate(t.seats) if p is None]
            if empty and rng.random() < 0.3:
                t.sit(empty[0], f"p{joined}", 100, Mixed(joined, log, t, f"p{joined}"),
                      wait_for_big_blind=rng.random() < 0.5)
                joined += 1
            if rng.random() < 0.05 and t.players:
                p = rng.choice(t.players)
                t.sit_out(p.name) if p.status is table_mod.PlayerStatus.ACTIVE else (
                    t.come_back(p.name))
            for p in t.players:
                if p.stack == 0:
                    t.add_chips(p.name, 100)
        if not t.can_play():
            if tournament:
                break
            continue
        rec = t.play_hand()
        records.append((*rec[:12], rec.state.raw_history(), rec.state.result, rec.new_game,
                        rec.placement))
    final = tuple((p.seat, p.name, p.stack, p.status, p.hands_played, p.owes) for p in t.players)
    return records, log, (final, t.bought_in, t.cashed_out, t.rake, t.places, t.hand_number)


@compiled_only
@pytest.mark.parametrize("kind", ["cash", "dead_button", "tournament"])
@pytest.mark.parametrize("seed", [1, 2])
def test_compiled_table_plays_like_the_python_table(kind: str, seed: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    opts = {"tournament": kind == "tournament", "dead_button": kind == "dead_button"}
    # tournaments end fast (random shoves): several of them
    seeds = [100 * seed + k for k in range(16)] if kind == "tournament" else [seed]
    compiled = [_play(s, **opts) for s in seeds]
    monkeypatch.setattr(table_mod, "_fast", None)
    python = [_play(s, **opts) for s in seeds]
    assert sum(len(c[0]) for c in compiled) > 100
    # (tournaments: the player sitting out from hand 3 has a dead hand, TDA 30: never asked)
    assert sum(len(c[1]) for c in compiled) > 300
    for c, p in zip(compiled, python, strict=True):
        assert c[0] == p[0]
        assert c[1] == p[1]
        assert c[2] == p[2]


class Bad:
    name = "bad"

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def act(self, obs: Observation) -> Any:
        return self.answer


ILLEGAL = [Action.check(), Action.raise_to(10_000), Action.bet(4), "zz", 3.5, -1, 2, 10_000,
           None, "p9 cc", Action(Action.call().type, None)._replace(type=Action.bet(4).type),
           # a call, fold or check/call with an amount: apply refuses it, and so must the
           # table (both cores played it as a plain call or fold)
           Action(Action.call().type, 5), Action(Action.fold().type, 5),
           Action(Action.check_or_call().type, "x"), Action(Action.fold().type, 0)]
ODD = [True, (1, None), "cbr 6", 7, Action.fold()]


def _answer_once(answer: Any) -> tuple[Any, ...]:
    """Three callers; the first seat to act preflop in the second hand answers ``answer``
    (``Action.fold()``: the big blind on its free option answers it). The outcome: the error
    and the unchanged stacks, or the hand played."""
    t = Table(Game(big_blind=2), seats=3, seed=5)
    for s, name in enumerate("abc"):
        t.sit(s, name, 100, CallAgent())
    t.play_hand()
    before = tuple((p.name, p.stack) for p in t.players)
    hand = _table_steps.cached_hand(t._kinds(), t._prev, t.dead_button, t._first_button)
    assert hand is not None
    plan = hand[0]
    bb = plan.positions.big_blind
    first = plan.dealt[(plan.dealt.index(bb) + 1) % len(plan.dealt)]
    p = t._seats[bb if answer == Action.fold() else first]
    assert p is not None
    p.agent = Bad(answer)
    p._act = p.agent.act
    try:
        rec = t.play_hand()
    except AgentError as exc:
        assert tuple((q.name, q.stack) for q in t.players) == before  # the hand is void
        return ("error", str(exc))
    return ("played", rec.state.raw_history(), rec.payoffs)


@compiled_only
@pytest.mark.parametrize("answer", ILLEGAL + ODD, ids=repr)
def test_answers_are_judged_like_the_python_table(answer: Any,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = _answer_once(answer)
    monkeypatch.setattr(table_mod, "_fast", None)
    assert _answer_once(answer) == compiled
    if any(answer is a for a in ILLEGAL):
        assert compiled[0] == "error" and "'bad' of player" in compiled[1]


def _legal(rng: random.Random) -> LegalActions:
    can_check = rng.random() < 0.4
    can_raise = rng.random() < 0.6
    lo = rng.randint(2, 500)
    hi = lo + rng.choice([0, 1, rng.randint(0, 10**6), 2**53 - lo])
    return LegalActions(0, not can_check or rng.random() < 0.1, can_check,
                        0 if can_check else rng.randint(1, 100), can_raise, rng.random() < 0.5,
                        lo if can_raise else None, hi if can_raise else None)


@compiled_only
@pytest.mark.parametrize("wrap", ["observation", "duck"])
def test_random_agent_compiled_policy_draws_like_the_python_one(wrap: str) -> None:
    rng = random.Random(3)
    compiled, python = RandomAgent(seed=11), RandomAgent(seed=11)
    assert type(compiled).act is not _random_act_python  # the compiled one is in use
    for _ in range(5000):
        la = _legal(rng)
        obs: Any = (Observation(0, 0, "x", (), (), Street.PREFLOP, 3, (), (), (), (), (), 0, la,
                                2, 0, []) if wrap == "observation"
                    else SimpleNamespace(legal=SimpleNamespace(**la._asdict())))
        a, b = compiled.act(obs), _random_act_python(python, obs)
        assert a == b and type(a) is type(b)
        if type(a) is Action:
            assert type(a.to) is int


@compiled_only
@pytest.mark.parametrize("lo, hi", [(-2**63, 2**63 - 1), (0, 2**63 - 1), (2**62, 2**63 - 1),
                                    (-1, 2**62), (-5, 5), (10, 3), (2**61, 2**61 + 7),
                                    (2**63, 2**63 + 5), (2**64, 2**65), (-(2**64), 5),
                                    (0, 2**63), (-(2**63) - 1, 0), (10**30, 10**31)])
def test_random_agent_compiled_policy_draws_like_the_python_one_off_the_chip_range(
        lo: int, hi: int) -> None:
    """An observation made up by the caller may offer any bet range. Inside int64 the
    compiled policy computed max_to - min_to + 1 in int64, which overflowed past 2**63
    (undefined behaviour; in practice it wrapped, and the bet was min_to every time); outside
    it, it converted the bounds to int64 first and raised OverflowError, where the Python one
    (the reference) bets. It draws like the Python one."""
    compiled, python = RandomAgent(seed=5), RandomAgent(seed=5)
    la = LegalActions(0, True, False, 1, True, False, lo, hi)
    raises = set()
    for _ in range(200):
        obs = SimpleNamespace(legal=la)
        a, b = compiled.act(obs), _random_act_python(python, obs)
        assert a == b and type(a) is type(b)
        if type(a) is Action:
            assert type(a.to) is int
            assert lo <= a.to <= hi or lo > hi
            raises.add(a.to)
    assert len(raises) > 1 or hi - lo < 2


@compiled_only
@pytest.mark.parametrize("amount", [0, 150, 200, 10**15])
def test_reset_stacks_counts_chips_like_the_python_one(amount: int,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    def run() -> tuple[Any, ...]:
        t = Table(Game(big_blind=2), seats=6, seed=1)
        for s, stack in [(0, 20), (2, 150), (3, 400), (5, 10**6)]:
            t.sit(s, f"p{s}", stack, CallAgent())
        t._reset_stacks(amount)
        return tuple((p.name, p.stack) for p in t.players), t.bought_in, t.cashed_out
    compiled = run()
    monkeypatch.setattr(table_mod, "_fast", None)
    assert run() == compiled
    assert compiled[0] == tuple((f"p{s}", amount) for s in (0, 2, 3, 5))


class _FoldCode:
    """Answers the int code 0 (fold) to every decision."""

    def act(self, obs: Observation) -> int:
        return 0


def _fold_code_on_free_check(game: Game) -> tuple[Any, ...]:
    """Heads-up: 'a' calls, the big blind 'b' answers the int 0 (fold) on its free option.
    The outcome: the error with the table before and after, or the hand played."""
    t = Table(game, seats=2, seed=3)
    t.sit(0, "a", 100, CallAgent())
    t.sit(1, "b", 100, _FoldCode())
    before = (tuple((p.name, p.stack) for p in t.players), t.hand_number, t.button, t.rake)
    try:
        rec = t.play_hand()
    except AgentError as exc:
        after = (tuple((p.name, p.stack) for p in t.players), t.hand_number, t.button, t.rake)
        return ("error", str(exc), before, after)
    return ("played", rec.state.raw_history(), rec.payoffs,
            tuple((p.name, p.stack) for p in t.players))


@compiled_only
def test_r17_int_fold_code_when_checking_is_free_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """R17: folding is offered only when facing a bet. At the compiled table, an agent that
    answers the int code 0 (fold) when checking is free raises AgentError, as the Python table
    does, and the hand is void (no chips move, the table is as before it); with
    Game(fold_when_check_free=True) the same answer folds the big blind."""
    compiled = _fold_code_on_free_check(Game(big_blind=2))
    assert compiled[0] == "error", compiled
    assert "'b' (seat 1) answered 0" in compiled[1] and "fold is not offered" in compiled[1]
    assert compiled[2] == compiled[3]  # stacks, hand number, button and rake unchanged
    assert compiled[3][0] == (("a", 100), ("b", 100))
    allowed = _fold_code_on_free_check(Game(big_blind=2, fold_when_check_free=True))
    assert allowed[0] == "played", allowed
    assert allowed[2] == {"a": 2, "b": -2}
    assert allowed[3] == (("a", 102), ("b", 98))
    monkeypatch.setattr(table_mod, "_fast", None)
    assert _fold_code_on_free_check(Game(big_blind=2)) == compiled
    assert _fold_code_on_free_check(Game(big_blind=2, fold_when_check_free=True)) == allowed



@pytest.mark.parametrize("to", [10_000, 1])
def test_a_bet_or_raise_off_the_range_is_judged_not_applied(
        to: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Action.bet_or_raise(to) takes the Python loop's own fast path (not fast_code): above
    max_to or below min_to it must go through the checked apply, on both cores alike."""
    answer = Action.bet_or_raise(to)
    got = [_answer_once(answer)]
    if table_mod._fast is not None:
        monkeypatch.setattr(table_mod, "_fast", None)
        got.append(_answer_once(answer))
    for g in got:
        assert g[0] == "error" and "'bad' of player" in g[1], g
    assert got[0] == got[-1]


def test_fast_code_refuses_an_int_fold_that_is_not_offered() -> None:
    # LegalActions(actor, can_fold, can_check, to_call, can_raise, is_bet, min_to, max_to)
    free = LegalActions(0, False, True, 0, True, True, 4, 100)
    facing = LegalActions(0, True, False, 2, True, False, 4, 100)
    assert fast_code(0, free) == -1 and fast_code(0, facing) == 0
    assert fast_code(1, free) == 1 and fast_code(2, free) == -1
    assert fast_code(Action.fold(), free) == -1 and fast_code(Action.fold(), facing) == 0
