"""The table soak session (tests/test_table_soak.py): long seeded cash sessions at 2-10 seats
where players join, leave, rebuy, sit out, come back, wait for the big blind, straddle and pay
antes, checked after every hand."""

from __future__ import annotations

import random
from typing import Any

from table_checks import (
    check_dead_button,
    check_dead_order,
    check_moving_button,
    toggle_sitting_out,
)

from holdem import (
    AnteType,
    CallAgent,
    Game,
    HandRecord,
    PlayerStatus,
    RandomAgent,
    Table,
)
from holdem.pots import Rake


class Soak:
    """One seeded session; :meth:`step` makes the random seat changes of one hand, then plays
    it and checks the table (:meth:`check`)."""

    def __init__(self, seed: int) -> None:
        rng = self.rng = random.Random(seed)
        self.size = rng.randint(2, 10)
        ante = rng.choice([0, 0, 1, 2])
        self.game = Game(big_blind=2, ante=ante,
                         ante_type=rng.choice([AnteType.UNIFORM, AnteType.BIG_BLIND]),
                         straddle=self.size >= 4 and rng.random() < 0.5,
                         rake=Rake(0.05, cap=3) if rng.random() < 0.5 else None)
        self.dead_button = rng.random() < 0.3
        self.table = Table(self.game, seats=self.size, seed=seed, max_buy_in=600,
                           dead_button=self.dead_button)
        self.names = 0
        self.waited: dict[str, int] = {}  # hands played while ready and not dealt in
        self.longest_wait = 0
        self.prev: HandRecord | None = None
        self.hands = 0
        for s in range(self.size):
            if rng.random() < 0.7:
                self._sit(s)

    def _sit(self, seat: int) -> None:
        rng = self.rng
        agent: Any = CallAgent() if rng.random() < 0.15 else RandomAgent(rng.randrange(2**32))
        self.table.sit(seat, f"p{self.names}", rng.randint(20, 600), agent,
                       wait_for_big_blind=rng.random() < 0.4)
        self.names += 1

    def _changes(self) -> None:
        """Random seat changes between hands (about one every eight hands per kind)."""
        t, rng = self.table, self.rng
        r = rng.random()
        empty = [s for s, p in enumerate(t.seats) if p is None]
        if empty and r < 0.10:
            self._sit(rng.choice(empty))
        elif r < 0.14 and t.players:
            t.leave(rng.choice(t.players).name)
        elif r < 0.22 and t.players:
            toggle_sitting_out(t, rng)
        for p in t.players:
            if p.stack == 0:
                if rng.random() < 0.4:
                    t.add_chips(p.name, rng.randint(20, 600))
                elif rng.random() < 0.1:
                    t.leave(p.name)
            elif p.stack < 100 and rng.random() < 0.02:
                amount = rng.randint(1, 600)
                if p.stack + amount <= 600:  # the table maximum (R35)
                    t.add_chips(p.name, amount)

    def step(self) -> HandRecord | None:
        self._changes()
        t = self.table
        if not t.can_play():
            return None
        ready = {p.name for p in t.players
                 if p.stack > 0 and p.status is not PlayerStatus.SITTING_OUT}
        rec = t.play_hand()
        self.check(rec, ready)
        self.hands += 1
        return rec

    def check(self, rec: HandRecord, ready: set[str]) -> None:
        t = self.table
        # chips are conserved, hand by hand and over the session (R34 rake included)
        assert sum(rec.payoffs.values()) + rec.rake == 0
        assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in
        assert all(p.stack >= 0 for p in t.players)
        # every seated player with chips who is not sitting out is dealt in within one orbit
        # (R36, R37: posting or waiting for the big blind; an orbit is one hand per seat)
        dealt = set(rec.names)
        for name in list(self.waited):
            if name not in ready:
                del self.waited[name]
        for name in ready:
            if name in dealt:
                self.waited.pop(name, None)
            else:
                w = self.waited[name] = self.waited.get(name, 0) + 1
                self.longest_wait = max(self.longest_wait, w)
                assert w < self.size, (
                    f"{name} ready but not dealt in for {w} hands at a {self.size}-seat table "
                    f"(hand {rec.number})")
        # the button and blind rules (R2-R4, R36, TDA dead button)
        prev = self.prev
        if not self.dead_button:
            check_moving_button(prev, rec, self.size)
        elif prev is not None and rec.placement == "dead":
            check_dead_order(prev, rec, self.size)
            if prev.placement == "dead":
                check_dead_button(prev, rec, self.size)
        straddles = [s for s, k, _ in rec.posts if k == "straddle"]
        if self.game.straddle and len(rec.seats) >= 3:
            # R8: left of the big blind, one post per seat (the straddle covers an entry bet)
            assert len(straddles) <= 1
            for s in straddles:
                assert [k for q, k, _ in rec.posts if q == s and k != "ante"] == ["straddle"]
        else:
            assert not straddles
        self.prev = rec


def soak(seed: int, hands: int) -> Soak:
    """Play ``hands`` hands of the seeded session (re-seating when the table runs dry)."""
    s = Soak(seed)
    while s.hands < hands:
        if s.step() is None and len(s.table.players) < 2:
            empty = [k for k, p in enumerate(s.table.seats) if p is None]
            s._sit(s.rng.choice(empty))
    return s
