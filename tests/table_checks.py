"""Shared helpers of the table tests: seating, scripted agents, rule checkers, sessions."""

from __future__ import annotations

import random
from typing import Any

from holdem import (
    Action,
    CallAgent,
    Game,
    HandRecord,
    Observation,
    PlayerStatus,
    RandomAgent,
    Table,
)
from holdem.pots import Rake
from holdem.table._seating import between


def call_all(table: Table, seats: list[int], stack: int = 200) -> None:
    for s in seats:
        table.sit(s, f"s{s}", stack, CallAgent())


def owing_blinds(game: Game) -> Table:
    """A 6-seat table of five callers where p3 sat out and came back owing the blinds that
    passed: the next hand with p3 in it goes through ``game.new_hand(extra_posts=...)``."""
    table = Table(game, seats=6, seed=1)
    for s in range(5):
        table.sit(s, f"p{s}", 200, CallAgent())
    table.play(2)
    table.sit_out("p3")
    table.play(4)
    table.come_back("p3")
    return table


class Shove:
    """All in at every turn (bet/raise to the maximum, or call)."""

    def act(self, obs: Observation) -> Any:
        la = obs.legal
        if la.can_raise:
            return Action.bet_or_raise(la.max_to)  # type: ignore[arg-type]
        return Action.check_or_call()


def nxt(seats: tuple[int, ...], after: int, size: int) -> int:
    return min(seats, key=lambda s: (s - after - 1) % size)


def can_post(rec: HandRecord, seat: int) -> bool:
    """Whether ``seat`` had chips left for its blind after the ante (R9: else no post)."""
    return rec.starting_stacks[rec.seats.index(seat)] > rec.state.game.ante


def check_moving_button(prev: HandRecord | None, rec: HandRecord, size: int) -> None:
    """R2, R3, R4 (moving button) for one hand, from the records only."""
    seats = rec.seats
    assert rec.button in seats and rec.big_blind in seats
    kinds = {(s, k) for s, k, _ in rec.posts}
    if len(seats) == 2:
        # R3: heads-up the button posts the small blind; TDA 34: no big blind twice in a row
        assert rec.small_blind == rec.button != rec.big_blind
        if prev is not None and prev.big_blind in seats:
            assert rec.big_blind != prev.big_blind
    else:
        if prev is not None and rec.placement == "joining":
            # R36 with R3/R4: two players left to play heads-up get a newcomer, who takes the
            # big blind: it moves on from last hand's to the first newcomer (other posters
            # are dealt in after it); after a heads-up hand the two players take the small
            # blind and the button (checked below by R2), after a hand of three or more the
            # button moves on to the next of them (R4)
            newcomers = {rec.big_blind} | {s for s, k, _ in rec.posts
                                           if k in ("entry_big_blind", "dead_small_blind")}
            assert rec.big_blind != prev.big_blind
            assert rec.big_blind == nxt(tuple(sorted(newcomers)), prev.big_blind, size)
            if prev.small_blind != prev.button:
                # (a straddle left of the big blind may be a newcomer's: it covers the entry)
                players = tuple(s for s in seats if s not in newcomers and not (
                    (s, "straddle") in kinds and between(rec.big_blind, rec.button, s, size)))
                assert rec.button == nxt(players, prev.button, size) != prev.button  # R4
        elif prev is not None:
            assert rec.button == nxt(seats, prev.button, size)  # R4
        if rec.small_blind is None:
            # R36: a waiting player the blinds would have jumped (the players before them
            # busted or left) or a newcomer joining two players after a hand of three or more
            # takes the big blind right after the button; the small blind is dead; the big
            # blind moved on from last hand's over nobody dealt in before them
            assert prev is not None and (rec.placement == "moving" or (
                rec.placement == "joining" and prev.small_blind != prev.button))
            assert rec.big_blind == nxt(seats, rec.button, size)
            if rec.placement == "moving":
                others = tuple(s for s in seats if s != rec.button)
                assert rec.big_blind == nxt(others, prev.big_blind, size)
            assert all(k != "small_blind" for _, k, _ in rec.posts)
        else:
            assert rec.small_blind == nxt(seats, rec.button, size)  # R2
            assert rec.big_blind == nxt(seats, rec.small_blind, size)
        for s, k, _ in rec.posts:  # entry bets and missed blinds never on the button or SB
            if k in ("entry_big_blind", "dead_small_blind"):
                assert s not in (rec.button, rec.small_blind, rec.big_blind)
    if can_post(rec, rec.big_blind):
        assert (rec.big_blind, "big_blind") in kinds
    if rec.small_blind is not None and can_post(rec, rec.small_blind):
        assert (rec.small_blind, "small_blind") in kinds
    state = rec.state
    assert state.button == seats.index(rec.button)


def check_dead_button(prev: HandRecord, rec: HandRecord, size: int) -> None:
    """TDA dead button, three or more players: the big blind moves to the next player due,
    the small blind is last hand's big blind (dead when gone), the button is on last hand's
    small blind seat (it stays after a dead small blind), possibly an empty seat."""
    assert rec.big_blind == nxt(rec.seats, prev.big_blind, size)
    assert rec.small_blind == (prev.big_blind if prev.big_blind in rec.seats else None)
    if prev.small_blind is not None:
        assert rec.button == prev.small_blind
    else:  # on last hand's dead small blind seat: between its button and big blind
        assert between(prev.button, prev.big_blind, rec.button, size)
    kinds = [k for _, k, _ in rec.posts]
    if rec.small_blind is None:
        assert "small_blind" not in kinds
    elif can_post(rec, rec.small_blind):
        assert "small_blind" in kinds
    state = rec.state
    # the hand's button is the last player to act after the flop: the seat right of the
    # button seat (itself when dealt in)
    last = max(rec.seats, key=lambda s: (s - rec.button - 1) % size)
    assert state.button == rec.seats.index(last)



def check_dead_order(prev: HandRecord, rec: HandRecord, size: int) -> None:
    """R2 on a dead-button hand (TDA dead button): clockwise the button (possibly an empty
    seat), the small blind's seat (last hand's big blind when it is dead), the big blind,
    and nobody dealt in between the button and the small blind's seat."""
    sb_seat = rec.small_blind if rec.small_blind is not None else prev.big_blind
    assert rec.big_blind != prev.big_blind  # it moves on one player every hand
    assert not between(rec.button, sb_seat, rec.big_blind, size)
    assert not any(between(rec.button, sb_seat, s, size) for s in rec.seats)


def toggle_sitting_out(t: Table, rng: random.Random) -> None:
    """A random player sits out, or comes back (waiting for the big blind 30% of the time)."""
    p = rng.choice(t.players)
    if p.status is PlayerStatus.SITTING_OUT:
        t.come_back(p.name, wait_for_big_blind=rng.random() < 0.3)
    else:
        t.sit_out(p.name)


def session(seed: int, hands: int, *, dead_button: bool = False,
            check: bool = True) -> tuple[Table, list[HandRecord]]:
    """A 6-seat cash session with random joins, leaves, sit-outs, rebuys and rake."""
    rng = random.Random(seed)
    game = Game(big_blind=2, rake=Rake(0.05, cap=3))
    t = Table(game, seats=6, seed=seed, max_buy_in=500, dead_button=dead_button)
    names = iter(range(10**6))
    recs: list[HandRecord] = []
    prev: HandRecord | None = None
    for _ in range(hands):
        r = rng.random()
        empty = [s for s, p in enumerate(t.seats) if p is None]
        if empty and r < 0.08:
            t.sit(rng.choice(empty), f"p{next(names)}", rng.randint(20, 500),
                  RandomAgent(seed=rng.randrange(2**32)), wait_for_big_blind=rng.random() < 0.4)
        elif r < 0.11 and t.players:
            t.leave(rng.choice(t.players).name)
        elif r < 0.16 and t.players:
            toggle_sitting_out(t, rng)
        for p in t.players:
            if p.stack == 0 and rng.random() < 0.5:
                t.add_chips(p.name, rng.randint(20, 500))
        if not t.can_play():
            continue
        # players in the game who owe nothing: every hand deals them in, whichever placement
        # (R4; a dead-button table too, coming out of a heads-up hand with a rebuy, R37)
        owing_nothing = {p.seat for p in t.players if p.status is PlayerStatus.ACTIVE
                         and p.stack > 0 and not p.owes}
        rec = t.play_hand()
        if check:
            assert owing_nothing <= set(rec.seats), (owing_nothing, rec)
            assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in
            if not dead_button:
                check_moving_button(prev, rec, 6)
            elif prev is not None and rec.placement == "dead":
                check_dead_order(prev, rec, 6)
                if prev.placement == "dead":
                    check_dead_button(prev, rec, 6)
            assert sum(rec.payoffs.values()) + rec.rake == 0
        recs.append(rec)
        prev = rec
    return t, recs


