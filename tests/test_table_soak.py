"""Table soak: 100,000 hands in seeded sessions at 2-10 seats with random joins, leaves,
rebuys, sit-outs, straddles and antes; after every hand chips are conserved and every seated
player with chips who is not sitting out has been dealt in within one orbit (R36, R37), the
button and blinds obey R2-R4 / the TDA dead button (tests/table_soak.py). Plus a hypothesis
property test of the same session invariants over arbitrary sequences of table calls."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from table_checks import check_moving_button
from table_soak import Soak, soak

import holdem.table.table as table_mod
from holdem import CallAgent, Game, HandRecord, PlayerStatus, RandomAgent, Table, TableError
from holdem.hand._validate import MAX_CHIPS
from holdem.table._seating import Kind, Positions, plan_hand

SESSIONS = 20
HANDS = 5_000  # 20 sessions x 5,000 hands = 100,000 hands (about 5 s on a quiet machine)


def test_R36_R37_soak_100k_hands_chips_conserved_everybody_dealt_in_within_an_orbit() -> None:
    sizes: set[int] = set()
    seen: dict[str, int] = {}
    for seed in range(SESSIONS):
        s = soak(seed, HANDS)  # checks every hand (Soak.check)
        t = s.table
        assert s.hands == HANDS and t.chips_in_play + t.cashed_out + t.rake == t.bought_in
        sizes.add(s.size)
        seen["joined"] = seen.get("joined", 0) + s.names
        seen["cashed out"] = seen.get("cashed out", 0) + (t.cashed_out > 0)
        seen["longest wait"] = max(seen.get("longest wait", 0), s.longest_wait)
    # the sessions cover what the soak is for
    assert sizes == set(range(2, 11))
    assert seen["joined"] > 1_000 and seen["cashed out"] == SESSIONS
    assert seen["longest wait"] >= 4  # players did wait (for the big blind or the button)


def _kinds_seen(seed: int, hands: int) -> dict[str, int]:
    """What one session's hands contained (posts, placements), to check the soak's reach."""
    s = Soak(seed)
    out: dict[str, int] = {}
    while s.hands < hands:
        rec = s.step()
        if rec is None:
            if len(s.table.players) < 2:
                s._sit(next(k for k, p in enumerate(s.table.seats) if p is None))
            continue
        for _, kind, _ in rec.posts:
            out[kind] = out.get(kind, 0) + 1
        out[rec.placement] = out.get(rec.placement, 0) + 1
        if rec.small_blind is None:
            out["dead small blind"] = out.get("dead small blind", 0) + 1
    return out


def test_soak_sessions_straddle_ante_enter_and_rejoin_heads_up() -> None:
    total: dict[str, int] = {}
    for seed in range(SESSIONS):
        for k, v in _kinds_seen(seed, 600).items():
            total[k] = total.get(k, 0) + v
    for kind in ("straddle", "ante", "entry_big_blind", "dead_small_blind", "joining",
                 "heads-up", "dead", "dead small blind"):
        assert total.get(kind, 0) > 0, kind


@pytest.mark.skipif(table_mod._fast is None, reason="the compiled core is not in use")
def test_soak_sessions_play_the_same_on_the_compiled_and_python_paths(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def run(seed: int) -> list[Any]:
        s = Soak(seed)
        out = []
        while s.hands < 300:
            rec = s.step()
            if rec is not None:
                out.append((*rec[:12], rec.state.raw_history(), rec.placement))
            elif len(s.table.players) < 2:
                s._sit(next(k for k, p in enumerate(s.table.seats) if p is None))
        return out

    seeds = [0, 7, 17, 27]
    compiled = [run(seed) for seed in seeds]
    monkeypatch.setattr(table_mod, "_fast", None)
    assert [run(seed) for seed in seeds] == compiled


def test_R36_waiting_player_the_blinds_would_jump_takes_the_big_blind() -> None:
    """Moving button: last hand seat 4 had the button, 5 the small blind, 6 the big blind;
    seat 6 busted and a player waits for the big blind at seat 0. The button moves to 5 (R4);
    the next player is 1, past the waiting seat 0, so the blinds would jump it (small blind 1,
    big blind 3) and it would wait another orbit. Instead it takes the big blind and the small
    blind is dead this hand."""
    kinds = [Kind.WAITING, Kind.REGULAR, Kind.OUT, Kind.REGULAR, Kind.REGULAR, Kind.REGULAR,
             Kind.OUT]
    prev = Positions(4, 5, 6, 5)
    plan = plan_hand([int(k) for k in kinds], prev, dead_button=False, first_button=0)
    assert plan is not None
    assert plan.positions[:3] == (5, None, 0) and plan.dealt == (0, 1, 3, 4, 5)
    # a waiting player right after the button who was not jumped waits for the big blind
    prev = Positions(3, 4, 5, 4)
    kinds = [Kind.REGULAR, Kind.REGULAR, Kind.OUT, Kind.REGULAR, Kind.REGULAR, Kind.WAITING,
             Kind.REGULAR]
    plan = plan_hand([int(k) for k in kinds], prev, dead_button=False, first_button=0)
    assert plan is not None and plan.positions[:3] == (4, 6, 0) and 5 not in plan.dealt


# ---------------------------------------------------------------------- hypothesis
_op = st.one_of(
    st.tuples(st.just("sit"), st.integers(0, 9), st.integers(-5, 700), st.booleans()),
    st.tuples(st.just("sit_huge"), st.integers(0, 9), st.integers(0, 3), st.booleans()),
    st.tuples(st.just("leave"), st.integers(0, 9), st.just(0), st.booleans()),
    st.tuples(st.just("sit_out"), st.integers(0, 9), st.just(0), st.booleans()),
    st.tuples(st.just("come_back"), st.integers(0, 9), st.just(0), st.booleans()),
    st.tuples(st.just("add_chips"), st.integers(0, 9), st.integers(-5, 700), st.booleans()),
    st.tuples(st.just("play"), st.integers(1, 12), st.just(0), st.booleans()),
)


def _snapshot(t: Table) -> Any:
    return (t.bought_in, t.cashed_out, t.rake, t.hand_number,
            tuple(None if p is None else (p.name, p.stack, p.status, p.owes) for p in t.seats))


@given(size=st.integers(2, 10), straddle=st.booleans(), ante=st.integers(0, 2),
       dead_button=st.booleans(), seed=st.integers(0, 2**32),
       ops=st.lists(_op, max_size=40))
def test_table_session_invariants_hold_for_any_sequence_of_calls(
        size: int, straddle: bool, ante: int, dead_button: bool, seed: int,
        ops: list[tuple[str, int, int, bool]]) -> None:
    """Any sequence of sit / leave / sit out / come back / add chips / play: a refused call
    raises TableError and changes nothing; chips are conserved; no stack above the engine's
    limit; a ready player is dealt in within one orbit; R2-R4 every hand (moving button)."""
    game = Game(big_blind=2, ante=ante, straddle=straddle and size >= 4)
    t = Table(game, seats=size, seed=seed, dead_button=dead_button)
    waited: dict[str, int] = {}
    prev: HandRecord | None = None
    names = 0
    for kind, a, b, flag in ops:
        seat = a % size
        p = t.seats[seat]
        before = _snapshot(t)
        try:
            if kind == "sit":
                t.sit(seat, f"n{names}", b, RandomAgent(seed=names) if flag else CallAgent(),
                      wait_for_big_blind=flag)
                names += 1
            elif kind == "sit_huge":
                t.sit(seat, f"n{names}", MAX_CHIPS - b, CallAgent())
                names += 1
            elif kind == "add_chips" and p is not None:
                t.add_chips(p.name, b if flag else MAX_CHIPS - b)
            elif kind == "leave" and p is not None:
                t.leave(p.name)
                waited.pop(p.name, None)
            elif kind == "sit_out" and p is not None:
                t.sit_out(p.name)
            elif kind == "come_back" and p is not None:
                t.come_back(p.name, wait_for_big_blind=flag)
            elif kind == "play":
                for _ in range(a):
                    if not t.can_play():
                        break
                    ready = {q.name for q in t.players
                             if q.stack > 0 and q.status is not PlayerStatus.SITTING_OUT}
                    rec = t.play_hand()
                    assert sum(rec.payoffs.values()) + rec.rake == 0
                    if not dead_button:
                        check_moving_button(prev, rec, size)
                    for name in set(waited) - ready:
                        del waited[name]
                    for name in ready:
                        if name in rec.names:
                            waited.pop(name, None)
                        else:
                            waited[name] = waited.get(name, 0) + 1
                            assert waited[name] < size
                    prev = rec
        except TableError:
            assert _snapshot(t) == before  # refused: nothing changed
        assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in
        assert t.chips_in_play <= MAX_CHIPS
        assert all(0 <= q.stack <= MAX_CHIPS for q in t.players)
