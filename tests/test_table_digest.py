"""Pinned seeded sessions: the table, its observations and ``simulate`` must keep playing
exactly the same hands (digests computed before the table fast path; any drift fails)."""

from __future__ import annotations

import hashlib
from typing import Any

from holdem import CallAgent, EquityAgent, Game, Observation, RandomAgent, Table, simulate


class _Spy:
    """A RandomAgent that also hashes every observation it is shown (every seat is one)."""

    def __init__(self, seed: int, h: Any) -> None:
        self._agent = RandomAgent(seed=seed)
        self._h = h

    def act(self, obs: Observation) -> Any:
        la = obs.legal
        self._h.update(repr((obs.seat, obs.position, obs.player, obs.hole_cards, obs.board,
                             obs.street, obs.pot, obs.stacks, obs.bets, obs.committed,
                             obs.seats, obs.names, obs.button, la.can_fold, la.can_check,
                             la.can_raise, la.call, la.min_to, la.max_to, obs.big_blind,
                             obs.hand_number, list(obs.raw_history), obs.history,
                             obs.to_call, obs.opponents)).encode())
        return self._agent.act(obs)


def _session_digest(dead_button: bool) -> tuple[str, str]:
    t = Table(Game(big_blind=2), seats=6, seed=2024, dead_button=dead_button)
    seen = hashlib.sha256()
    for s in range(6):
        t.sit(s, f"r{s}", 100 + 20 * s, _Spy(s, seen))
    h = hashlib.sha256()
    for k in range(500):
        assert t.can_play()
        rec = t.play_hand()
        h.update(repr((rec.number, rec.button, rec.small_blind, rec.big_blind, rec.seats,
                       rec.starting_stacks, rec.posts, sorted(rec.payoffs.items()), rec.rake,
                       rec.state.raw_history())).encode())
        for p in t.players:
            if p.stack == 0:
                t.add_chips(p.name, 150)
        if k == 100:
            t.sit_out("r2")
        if k == 140:
            t.come_back("r2")
    return h.hexdigest(), seen.hexdigest()


def test_seeded_500_hand_session_is_pinned() -> None:
    records, observations = _session_digest(dead_button=False)
    assert records == "5ed075cb451f8a51a105bbe1f75fc91dfe8eecb3571a67f3ea683189c8360094"
    assert observations == "d1ac83ee231f90019d9174ed57f0dd49cb79702692ac0d091b565ed22579b243"


def test_seeded_500_hand_dead_button_session_is_pinned() -> None:
    records, observations = _session_digest(dead_button=True)
    assert records == "72d9c8b3d74c9385990536e0628efadfa0499b751b988ea77daceab746f418cf"
    assert observations == "3ca707ccc2a615b886f805f475b18663ee71a3794f1d453c3cfda191522d4d1e"


def test_seeded_simulation_is_pinned() -> None:
    r = simulate([RandomAgent(seed=1), CallAgent(), EquityAgent(seed=2, samples=8)],
                 Game(big_blind=2), hands=600, seed=9, executor="serial", chunk_hands=200,
                 progress=False, engine="table")  # the Table path (batched: test_simulate_batched)
    assert [(p.name, p.chips, p.showdowns, p.showdowns_won) for p in r.players] == [
        ("random", -7301, 423, 194), ("call", 635, 558, 269), ("equity", 6666, 233, 124)]
    assert r.rake == 0
