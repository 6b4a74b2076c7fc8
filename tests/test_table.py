"""Table sessions: seats, buy-ins, the moving and the dead button, blinds owed, tournaments,
agents. Rule ids from RULES.md are in the test names."""

from __future__ import annotations

import random

import pytest
from table_checks import Shove, call_all, check_moving_button, nxt

import holdem
import holdem.table.table as table_mod
from holdem import (
    Action,
    ActionType,
    BlindLevel,
    BlindSchedule,
    CallAgent,
    Game,
    InvalidConfigError,
    Mode,
    Observation,
    PlayerStatus,
    Street,
    Table,
    TableError,
)
from holdem.table._seating import between


# ---------------------------------------------------------------------- R35 / R37 / errors
def test_R35_buy_in_bounds() -> None:
    t = Table(Game(big_blind=2), seats=6, max_buy_in=400)
    assert t.min_buy_in == 20  # 10 times the lower limit
    with pytest.raises(TableError, match="below the minimum 20"):
        t.sit(0, "a", 19, CallAgent())
    with pytest.raises(TableError, match="above the table maximum of 400"):
        t.sit(0, "a", 401, CallAgent())
    t.sit(0, "a", 20, CallAgent())
    t.sit(1, "b", 400, CallAgent())
    with pytest.raises(TableError, match="above the table maximum"):
        t.add_chips("b", 1)
    t.add_chips("a", 380)
    assert t.player("a").stack == 400 and t.bought_in == 800
    with pytest.raises(InvalidConfigError):
        Table(Game(big_blind=2), max_buy_in=10)


def test_table_errors_seat_taken_unknown_player_bad_agent() -> None:
    t = Table(Game(big_blind=2), seats=3)
    t.sit(0, "a", 100, CallAgent())
    with pytest.raises(TableError, match="seat 0 is taken by 'a'"):
        t.sit(0, "b", 100, CallAgent())
    with pytest.raises(TableError, match="already seated"):
        t.sit(1, "a", 100, CallAgent())
    with pytest.raises(TableError, match=r"seat must be 0\.\.2"):
        t.sit(3, "b", 100, CallAgent())
    with pytest.raises(TableError, match="unknown player 'zed'"):
        t.leave("zed")
    with pytest.raises(TableError, match="callable"):
        t.sit(1, "b", 100, 42)
    assert not t.can_play()
    with pytest.raises(TableError, match="two players"):
        t.play_hand()
    with pytest.raises(InvalidConfigError):
        Table(Game(big_blind=2), seats=11)
    assert t.chips_in_play == t.bought_in == 100


def test_R37_no_chips_no_cards_until_rebuy() -> None:
    t = Table(Game(big_blind=2), seats=3, seed=11)
    t.sit(0, "short", 20, Shove())
    t.sit(1, "b", 1000, CallAgent())
    t.sit(2, "c", 1000, CallAgent())
    while t.player("short").stack > 0:
        t.play_hand()
    rec = t.play_hand()
    assert 0 not in rec.seats  # R37: not dealt in
    with pytest.raises(TableError, match="below the minimum"):
        t.add_chips("short", 19)  # a rebuy is subject to R35
    t.add_chips("short", 20)
    dealt_again = [t.play_hand() for _ in range(3)]
    assert any(0 in r.seats for r in dealt_again)
    assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in


# ---------------------------------------------------------------------- R4 / R2 / R3
def test_R4_button_moves_to_next_player_dealt_in() -> None:
    t = Table(Game(big_blind=2), seats=9, seed=2)
    call_all(t, [0, 2, 3, 7])
    recs = [t.play_hand()]
    t.sit_out("s3")
    recs += t.play(6)
    t.come_back("s3")
    recs += t.play(6)
    for prev, rec in zip([None, *recs], recs, strict=False):
        check_moving_button(prev, rec, 9)
    buttons = [r.button for r in recs]
    assert all(b != 3 for b in buttons[1:7])  # sitting out: skipped
    assert len(set(buttons)) == 4


def test_R3_heads_up_button_posts_small_blind_and_acts_first() -> None:
    t = Table(Game(big_blind=2), seats=6, seed=4)
    call_all(t, [1, 4])
    for rec in t.play(4):
        assert rec.small_blind == rec.button
        first = rec.state.history[0]
        assert rec.seats[first.seat] == rec.button  # acts first preflop


@pytest.mark.parametrize("seed", range(12))
def test_R3_heads_up_transition_three_to_two(seed: int) -> None:
    """When one of three busts, the big blind goes to the player who did not post it last
    hand (TDA 34), the button posts the small blind (R3)."""
    game = Game(big_blind=2, mode=Mode.TOURNAMENT)
    t = Table(game, seats=3, seed=seed)
    for s, stack in enumerate([30, 60, 90]):
        t.sit(s, f"p{s}", stack, Shove())
    prev = None
    seen = False
    while not t.is_over():
        rec = t.play_hand()
        if prev is not None and len(prev.seats) == 3 and len(rec.seats) == 2:
            seen = True
            assert rec.small_blind == rec.button != rec.big_blind
            if prev.big_blind in rec.seats:
                assert rec.big_blind != prev.big_blind
        prev = rec
    assert seen or len(prev.eliminated) == 2  # type: ignore[union-attr]


# ---------------------------------------------------------------------- R36 and missed blinds
def test_R36_entry_bet_is_a_live_big_blind() -> None:
    posted = 0
    for seed in range(8):
        t = Table(Game(big_blind=2), seats=7, seed=seed)
        call_all(t, [0, 1, 2, 3, 4])
        t.play_hand()
        t.sit(6, "new", 100, CallAgent())  # posts by default (R36)
        recs = t.play(4)
        rec = next(r for r in recs if 6 in r.seats)  # the first hand dealt in
        posts = {k: a for s, k, a in rec.posts if s == 6}
        if rec.big_blind == 6:  # the big blind reached the new player: that is the entry
            assert posts == {"big_blind": 2}
            continue
        assert 6 not in (rec.button, rec.small_blind)
        assert posts == {"entry_big_blind": 2}
        posted += 1
        # live: everybody just called, so the poster checks its option preflop, like a blind
        i = rec.seats.index(6)
        pre = [a for a in rec.state.history if a.seat == i and a.street is Street.PREFLOP]
        assert pre[0].type is ActionType.CHECK
        assert not t.player("new").owes
    assert posted >= 2


def test_R36_new_player_waits_for_the_big_blind() -> None:
    t = Table(Game(big_blind=2), seats=6, seed=6)
    call_all(t, [0, 1, 2, 3])
    t.play_hand()
    t.sit(5, "w", 100, CallAgent(), wait_for_big_blind=True)
    assert t.player("w").status is PlayerStatus.WAITING
    recs = t.play(6)
    dealt = [r for r in recs if 5 in r.seats]
    assert dealt and dealt[0].big_blind == 5  # first hand dealt in: as the big blind
    assert all(k != "entry_big_blind" for r in recs for _, k, _ in r.posts)
    assert t.player("w").status is PlayerStatus.ACTIVE
    # a waiting player who changes their mind posts the entry bet instead
    t.sit(4, "w2", 100, CallAgent(), wait_for_big_blind=True)
    t.come_back("w2")
    assert t.player("w2").entry_due and t.player("w2").status is PlayerStatus.ACTIVE


class _SeatsAPlayer:
    """Calls, and at its first turn sits ``name`` down at ``seat`` (a join during a hand)."""

    def __init__(self, seat: int, name: str, **kw: object) -> None:
        self.table: Table | None = None
        self.seat, self.name, self.kw = seat, name, kw

    def act(self, obs: object) -> int:
        if self.table is not None:
            table, self.table = self.table, None
            table.sit(self.seat, self.name, 200, CallAgent(), **self.kw)  # type: ignore[arg-type]
        return 1


@pytest.mark.parametrize("wait", [False, True])
def test_R36_player_seated_during_the_first_hand_posts_or_waits(wait: bool) -> None:
    """The session starts with its first hand: a cash player who sits down while it is being
    played joins like any later newcomer, posting an entry bet (never on the button or the
    small blind) or waiting for the big blind (R36), instead of being dealt in for free."""
    for seed in range(6):
        t = Table(Game(big_blind=2), seats=6, seed=seed)
        agent = _SeatsAPlayer(3, "late", wait_for_big_blind=wait)
        agent.table = t
        t.sit(0, "a", 200, agent)
        call_all(t, [1, 2])
        t.play_hand()
        late = t.player("late")
        assert late.status is (PlayerStatus.WAITING if wait else PlayerStatus.ACTIVE)
        assert late.entry_due is not wait
        rec = next(r for r in t.play(6) if 3 in r.seats)
        posts = {k: a for s, k, a in rec.posts if s == 3}
        if rec.big_blind == 3:
            assert posts == {"big_blind": 2}
        else:
            assert not wait and posts == {"entry_big_blind": 2}
            assert 3 not in (rec.button, rec.small_blind)


def test_R36_no_late_registration_during_the_first_tournament_hand() -> None:
    from holdem import AgentError
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=6, seed=1)
    agent = _SeatsAPlayer(3, "late")
    agent.table = t
    t.sit(0, "a", 200, agent)
    call_all(t, [1, 2])
    with pytest.raises((TableError, AgentError), match="no late registration"):
        t.play_hand()
    assert t.seats[3] is None and t.hand_number == 0 and t.chips_in_play == t.bought_in == 600


def test_R36_waiting_newcomer_who_sits_out_and_comes_back_still_owes_the_big_blind() -> None:
    """A newcomer waiting for the big blind (R36) who sits out and comes back has still not
    posted: they post the entry bet (never on the button or the small blind) or wait again,
    as a waiting player who comes back does; they are not dealt in for free."""
    for seed in range(8):
        t = Table(Game(big_blind=2), seats=6, seed=seed)
        call_all(t, [0, 1, 2])
        t.play_hand()
        t.sit(4, "new", 200, CallAgent(), wait_for_big_blind=True)
        t.sit_out("new")
        t.come_back("new")
        assert t.player("new").owes
        rec = next(r for r in t.play(6) if 4 in r.seats)
        posts = {k: a for s, k, a in rec.posts if s == 4}
        if rec.big_blind == 4:
            assert posts == {"big_blind": 2}
        else:
            assert posts == {"entry_big_blind": 2} and 4 not in (rec.button, rec.small_blind)
        assert not t.player("new").owes
        # waiting again instead: dealt in first as the big blind
        t.sit(5, "new2", 200, CallAgent(), wait_for_big_blind=True)
        t.sit_out("new2")
        t.wait_for_big_blind("new2")
        rec = next(r for r in t.play(6) if 5 in r.seats)
        assert rec.big_blind == 5


@pytest.mark.parametrize("wait", [False, True])
def test_R36_newcomer_away_while_the_blinds_pass_owes_the_entry_bet_only(wait: bool) -> None:
    """A newcomer (posting or waiting, R36) who sits out before being dealt a hand is not in
    the game yet: the blinds passing their seat meanwhile are not missed blinds. They were
    charged a dead small blind on top of the entry bet (3 chips where a newcomer arriving
    later posts 2)."""
    for seed in range(6):
        t = Table(Game(big_blind=2), seats=6, seed=seed)
        call_all(t, [0, 1, 2, 3])
        t.play_hand()
        t.sit(5, "new", 100, CallAgent(), wait_for_big_blind=wait)
        t.sit_out("new")
        t.play(6)  # the blinds pass seat 5
        assert not t.player("new").owes_big_blind and not t.player("new").owes_small_blind
        t.come_back("new")
        rec = next(r for r in t.play(6) if 5 in r.seats)
        posts = {k: a for s, k, a in rec.posts if s == 5}
        assert posts in ({"entry_big_blind": 2}, {"big_blind": 2}), posts
        assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in


@pytest.mark.parametrize("dead_button", [False, True])
@pytest.mark.parametrize("wait", [False, True])
def test_R36_player_away_from_the_first_hand_owes_the_entry_bet_only(
        wait: bool, dead_button: bool) -> None:
    """A player seated before the first hand who sits out before it was never in the game:
    coming back they post a newcomer's entry bet or wait for the big blind (R36), not the
    blinds that passed them. They were charged a live big blind plus a dead small blind."""
    for seed in range(6):
        t = Table(Game(big_blind=2), seats=6, seed=seed, dead_button=dead_button)
        call_all(t, [0, 1, 2, 3, 4])
        t.sit_out("s4")
        t.play(7)  # more than an orbit: both blinds pass seat 4
        p = t.player("s4")
        assert p.hands_played == 0 and p.entry_due
        assert not p.owes_big_blind and not p.owes_small_blind
        t.come_back("s4", wait_for_big_blind=wait)
        recs = t.play(7)
        rec = next(r for r in recs if 4 in r.seats)
        posts = {k: a for s, k, a in rec.posts if s == 4}
        if wait or rec.big_blind == 4:
            assert rec.big_blind == 4 and posts == {"big_blind": 2}, (seed, posts)
        else:
            assert posts == {"entry_big_blind": 2}, (seed, posts)
            assert 4 not in (rec.button, rec.small_blind)
        assert not p.owes and p.hands_played > 0
        assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in


def test_R36_poster_waits_when_it_would_be_button_or_small_blind() -> None:
    for seed in range(6):
        t = Table(Game(big_blind=2), seats=6, seed=seed)
        call_all(t, [0, 2, 4])
        prev = t.play_hand()
        t.sit(1, "new", 100, CallAgent())
        first = True
        for rec in t.play(6):
            check_moving_button(prev, rec, 6)
            if 1 in rec.seats and first:
                first = False
                assert 1 not in (rec.button, rec.small_blind)
            prev = rec
        assert not first


def test_missed_blinds_posted_big_live_small_dead() -> None:
    """Robert's Rules: a player who missed both blinds posts the big blind live and the small
    blind dead, or waits for the big blind."""
    t = Table(Game(big_blind=2), seats=5, seed=8)
    call_all(t, [0, 1, 2, 3, 4])
    t.play_hand()
    t.sit_out("s2")
    t.play(5)  # a full orbit: both blinds pass seat 2
    p = t.player("s2")
    assert p.owes_big_blind and p.owes_small_blind
    t.come_back("s2")
    recs = t.play(3)
    rec = next(r for r in recs if 2 in r.seats)
    posts = {k: a for s, k, a in rec.posts if s == 2}
    if rec.big_blind == 2:
        assert posts == {"big_blind": 2}
    else:
        assert posts == {"entry_big_blind": 2, "dead_small_blind": 1}
        i = rec.seats.index(2)
        pre = [a for a in rec.state.history if a.street is Street.PREFLOP and a.seat == i]
        assert pre[0].type is ActionType.CHECK  # the big blind part is live
    assert not p.owes
    # the other way: wait for the big blind, owing nothing
    t.sit_out("s3")
    t.play(5)
    t.wait_for_big_blind("s3")
    assert not t.player("s3").owes
    recs = t.play(5)
    first = next(r for r in recs if 3 in r.seats)
    assert first.big_blind == 3


# ---------------------------------------------------------------------- dead button
@pytest.mark.parametrize("dead_button", [False, True])
def test_R4_R36_big_blind_who_sits_out_owes_the_small_blind_they_miss(dead_button: bool) -> None:
    """Robert's Rules (button and blind use): a player away when a blind is due misses it and
    posts it on coming back (the big blind live, the small blind dead). Last hand's big blind
    sits out: with a moving button the small blind moves past their seat; with the TDA dead
    button (R4 option) it stays on their seat, dead. Either way they missed it."""
    t = Table(Game(big_blind=2), seats=6, seed=1, dead_button=dead_button)
    call_all(t, list(range(6)))
    first = t.play_hand()
    away = t.seats[first.big_blind]
    assert away is not None
    t.sit_out(away.name)
    rec = t.play_hand()
    if dead_button:
        assert rec.small_blind is None and rec.state.num_players == 5  # dead on their seat
    assert away.owes_small_blind
    t.play(6)  # the big blind passes their seat too
    assert away.owes_big_blind and away.owes_small_blind
    t.come_back(away.name)
    back = next(r for r in t.play(6) if away.seat in r.seats)
    posts = {k: a for s, k, a in back.posts if s == away.seat}
    assert posts in ({"big_blind": 2}, {"entry_big_blind": 2, "dead_small_blind": 1})
    assert not away.owes


def test_dead_button_dead_small_blind_when_big_blind_leaves() -> None:
    """TDA dead button: last hand's big blind is gone, so no small blind is posted this hand;
    the button moves to last hand's small blind; the big blind moves on one player."""
    t = Table(Game(big_blind=2), seats=5, dead_button=True, seed=1)
    call_all(t, [0, 1, 2, 3, 4])
    prev = t.play_hand()
    t.leave(t.seats[prev.big_blind].name)  # type: ignore[union-attr]
    rec = t.play_hand()
    assert rec.small_blind is None
    assert rec.button == prev.small_blind
    assert rec.big_blind == nxt(rec.seats, prev.big_blind, 5)
    assert [k for _, k, _ in rec.posts] == ["big_blind"]
    # after the flop the big blind (first left of the button) acts first, the button last
    flop = [a for a in rec.state.history if a.street is Street.FLOP]
    assert rec.seats[flop[0].seat] == rec.big_blind
    assert rec.seats[flop[-1].seat] == rec.button
    # next hand: the small blind is back and the button goes to the dead small blind's seat,
    # the empty seat the big blind left (Robert's Rules: "in front of an empty seat")
    nxt_rec = t.play_hand()
    assert nxt_rec.small_blind == rec.big_blind
    assert nxt_rec.button == prev.big_blind and nxt_rec.button not in nxt_rec.seats


def test_dead_button_on_an_empty_seat_when_small_blind_leaves() -> None:
    t = Table(Game(big_blind=2), seats=5, dead_button=True, seed=3)
    call_all(t, [0, 1, 2, 3, 4])
    prev = t.play_hand()
    assert prev.small_blind is not None
    t.leave(t.seats[prev.small_blind].name)  # type: ignore[union-attr]
    rec = t.play_hand()
    assert rec.button == prev.small_blind and rec.button not in rec.seats  # dead button
    assert rec.small_blind == prev.big_blind
    assert rec.big_blind == nxt(rec.seats, prev.big_blind, 5)
    flop = [a for a in rec.state.history if a.street is Street.FLOP]
    assert rec.seats[flop[0].seat] == rec.small_blind
    # the player right of the dead button acts last, as the button would
    assert rec.seats[flop[-1].seat] == max(
        rec.seats, key=lambda s: (s - rec.button - 1) % 5)
    # in a moving-button game the button would have moved to a player instead
    m = Table(Game(big_blind=2), seats=5, seed=3)
    call_all(m, [0, 1, 2, 3, 4])
    mp = m.play_hand()
    m.leave(m.seats[mp.small_blind].name)  # type: ignore[arg-type,union-attr]
    assert m.play_hand().button in m.play_hand().seats


def test_dead_button_long_run_big_blind_moves_one_player_each_hand() -> None:
    rng = random.Random(4)
    t = Table(Game(big_blind=2), seats=6, dead_button=True, seed=9)
    call_all(t, range(6))  # type: ignore[arg-type]
    prev = t.play_hand()
    names = iter(range(1000))
    dead_sb = dead_btn = 0
    for _ in range(300):
        empty = [s for s, p in enumerate(t.seats) if p is None]
        if empty and rng.random() < 0.3:
            t.sit(rng.choice(empty), f"n{next(names)}", 100, CallAgent(),
                  wait_for_big_blind=rng.random() < 0.5)
        elif len(t.players) > 3 and rng.random() < 0.2:
            t.leave(rng.choice(t.players).name)
        rec = t.play_hand()
        if rec.placement == "dead" and prev.placement == "dead":
            # TDA dead button: the big blind goes to the next player due (nobody dealt in is
            # skipped); the small blind is last hand's big blind or dead; the button is on
            # last hand's small blind seat, or stays after a dead small blind
            assert rec.big_blind == nxt(rec.seats, prev.big_blind, 6)
            assert rec.small_blind == (prev.big_blind if prev.big_blind in rec.seats else None)
            if prev.small_blind is not None:
                assert rec.button == prev.small_blind
            else:
                assert between(prev.button, prev.big_blind, rec.button, 6)
            dead_sb += rec.small_blind is None
            dead_btn += rec.button not in rec.seats
        elif len(rec.seats) == 2:
            assert rec.small_blind == rec.button != rec.big_blind  # R3
        prev = rec
    assert dead_sb and dead_btn
    assert t.chips_in_play + t.cashed_out == t.bought_in


# ---------------------------------------------------------------------- tournaments (R8, R10)
def test_R10_blinds_rise_by_hands() -> None:
    sched = BlindSchedule([BlindLevel(1, 2), BlindLevel(2, 4, ante=1), BlindLevel(5, 10)],
                          hands_per_level=3)
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=4, schedule=sched, seed=1)
    call_all(t, [0, 1, 2, 3], stack=1000)
    recs = t.play(8)
    bbs = [r.state.game.big_blind for r in recs]
    assert bbs == [2, 2, 2, 4, 4, 4, 10, 10]
    antes = [sum(a for _, k, a in r.posts if k == "ante") for r in recs]
    assert antes[:3] == [0, 0, 0] and antes[3:6] == [4, 4, 4]
    assert [r.level for r in recs][3] == BlindLevel(2, 4, ante=1)


def test_R10_blinds_rise_by_time_with_injected_clock() -> None:
    now = [100.0]
    sched = BlindSchedule([BlindLevel(1, 2), BlindLevel(3, 6)], minutes_per_level=20)
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=3, schedule=sched,
              clock=lambda: now[0], seed=2)
    call_all(t, [0, 1, 2], stack=1000)
    assert t.play_hand().state.game.big_blind == 2
    now[0] += 20 * 60 - 1
    assert t.play_hand().state.game.big_blind == 2
    now[0] += 1
    assert t.play_hand().state.game.big_blind == 6
    now[0] += 10**6  # past the end: the last level stays
    assert t.play_hand().state.game.big_blind == 6


def test_R8_no_straddle_in_tournaments_and_schedule_needs_tournament() -> None:
    with pytest.raises(InvalidConfigError, match="R8"):
        Game(big_blind=2, straddle=True, mode=Mode.TOURNAMENT)
    with pytest.raises(InvalidConfigError, match="tournament"):
        Table(Game(big_blind=2), schedule=BlindSchedule([BlindLevel(1, 2)], hands_per_level=5))
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=3, seed=1)
    call_all(t, [0, 1, 2])
    for rec in t.play(5):
        assert all(k != "straddle" for _, k, _ in rec.posts)


def test_tournament_eliminations_and_places() -> None:
    for seed in range(5):
        t = Table(Game(big_blind=10, mode=Mode.TOURNAMENT), seats=6, seed=seed,
                  schedule=BlindSchedule([BlindLevel(5, 10), BlindLevel(10, 20)],
                                         hands_per_level=10))
        for s in range(6):
            t.sit(s, f"p{s}", 100 + 20 * s, Shove())
        t.play_hand()
        with pytest.raises(TableError, match="late registration"):
            t.sit(next(i for i, p in enumerate(t.seats) if p is None) if None in t.seats
                  else 0, "late", 100, CallAgent())
        while not t.is_over():
            t.play_hand()
        places = t.places
        assert sorted(places) == [f"p{s}" for s in range(6)]
        assert min(places.values()) == 1 and list(places.values()).count(1) == 1
        assert max(places.values()) <= 6
        (winner,) = t.players
        assert winner.stack == t.bought_in == sum(100 + 20 * s for s in range(6))
        with pytest.raises(TableError, match="over"):
            t.play_hand()


def test_tournament_player_sitting_out_is_blinded_off() -> None:
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=3, seed=3)
    call_all(t, [0, 1, 2], stack=100)
    t.sit_out("s0")
    with pytest.raises(TableError, match="cannot leave a tournament"):
        t.leave("s0")
    recs = t.play(6)
    assert all(0 in r.seats for r in recs)  # still dealt in, posts the blinds
    i_hist = [a for r in recs for a in r.state.history if r.seats[a.seat] == 0]
    assert all(a.type in (ActionType.FOLD, ActionType.CHECK) for a in i_hist)


def test_R12_dead_small_blind_deal_starts_left_of_the_button() -> None:
    """With a dead small blind the first card still goes to the first player left of the
    button (R12): here the big blind."""
    from holdem import Deck
    from holdem._parallel import chunk_seed

    t = Table(Game(big_blind=2), seats=5, dead_button=True, seed=1)
    call_all(t, [0, 1, 2, 3, 4])
    prev = t.play_hand()
    t.leave(t.seats[prev.big_blind].name)  # type: ignore[union-attr]
    rec = t.play_hand()
    assert rec.small_blind is None
    n = len(rec.seats)
    order = Deck(seed=chunk_seed(t.seed, rec.number)).deal(2 * n + 8)
    first = rec.seats.index(rec.big_blind)
    for k in range(n):
        assert rec.state.hole_cards[(first + k) % n] == (order[k], order[n + k])


def test_R9_missed_big_blind_posted_all_in_for_less() -> None:
    """A returning player who cannot cover the big blind they owe posts all in for less (R9)
    and the hand goes on without them acting."""
    entries = 0
    for seed in range(8):
        t = Table(Game(big_blind=10), seats=5, seed=seed)
        call_all(t, [0, 1, 2, 3, 4], stack=1000)
        t.play_hand()
        p = t.player("s1")
        t.bought_in -= p.stack - 4  # the player is down to 4 chips (test set-up)
        p.stack = 4
        p.owes_big_blind = True
        recs = t.play(5)
        rec = next(r for r in recs if 1 in r.seats)
        posts = {k: a for s, k, a in rec.posts if s == 1}
        i = rec.seats.index(1)
        if rec.big_blind == 1:
            assert posts == {"big_blind": 4}
        else:
            entries += 1
            assert posts == {"entry_big_blind": 4}
            assert not [a for a in rec.state.history if a.seat == i]  # all in: never acts
        assert rec.state.committed[i] == 4
        assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in
    assert entries >= 2



def test_player_repr_can_be_pasted_back() -> None:
    # the agent was left out of the repr, so pasting it failed (agent is required)
    from holdem import Player, PlayerStatus, RandomAgent  # noqa: F401 - for eval

    table = Table(Game(big_blind=2), seats=3, seed=1)
    table.sit(1, "ann", 150, RandomAgent(seed=4))
    player = table.seats[1]
    assert player is not None
    again = eval(repr(player))
    assert repr(again) == repr(player) and again.agent.seed == 4


@pytest.mark.parametrize("hands", [-1, 2.5, "3", None, True])
def test_play_takes_a_number_of_hands(hands: object) -> None:
    t = Table(Game(big_blind=2), seats=2, seed=1)
    t.sit(0, "a", 200, CallAgent())
    t.sit(1, "b", 200, CallAgent())
    with pytest.raises(TableError, match="hands must be an int >= 0, got"):
        t.play(hands)  # type: ignore[arg-type]
    assert t.hand_number == 0
    assert t.play(0) == [] and len(t.play(2)) == 2


def test_table_flags_and_clock_are_checked_when_given() -> None:
    """``clock=5`` failed at the first timed hand (TypeError), ``dead_button="no"`` and
    ``wait_for_big_blind="no"`` were read as True."""
    from holdem import InvalidConfigError

    with pytest.raises(InvalidConfigError, match="clock must be a function"):
        Table(Game(big_blind=2), seats=3, clock=5)  # type: ignore[arg-type]
    for flag in ("no", 1, None):
        with pytest.raises(InvalidConfigError, match="dead_button must be True or False"):
            Table(Game(big_blind=2), seats=3, dead_button=flag)  # type: ignore[arg-type]
        t = Table(Game(big_blind=2), seats=3)
        with pytest.raises(TableError, match="wait_for_big_blind must be True or False"):
            t.sit(0, "a", 200, CallAgent(), wait_for_big_blind=flag)  # type: ignore[arg-type]
        assert t.players == ()


def test_opponents_leaves_out_dead_hands() -> None:
    """TDA 30: a tournament player sitting out has a dead hand (posted, folded at the deal);
    ``Observation.opponents`` counted it as an opponent (EquityAgent sized its equity for
    three opponents against one)."""
    from holdem import Mode, Observation

    seen: list[tuple[int, tuple[int, ...]]] = []

    def spy(obs: Observation) -> int:
        seen.append((obs.opponents, obs.dead_hands))
        return 1

    t = Table(Game(big_blind=20, mode=Mode.TOURNAMENT), seats=4, seed=1)
    for s in range(4):
        t.sit(s, f"p{s}", 1000, spy)
    t.play_hand()
    t.sit_out("p2")
    t.sit_out("p3")
    seen.clear()
    rec = t.play_hand()
    dead = rec.state.dead_hands
    assert len(dead) == 2 and seen
    assert all(opponents == 1 and set(d) == set(dead) for opponents, d in seen)
    state = Game(big_blind=2).new_hand([100] * 4, button=0, seed=1, dead_hands=[1, 2])
    obs = Observation.from_state(state)
    assert obs.dead_hands == (1, 2) and obs.opponents == 1



def test_R3_first_hand_heads_up_is_a_new_game() -> None:
    """The first hand of a table is a new game (HandRecord.new_game), heads-up as with more
    players (R3: the button posts the small blind)."""
    t = Table(Game(big_blind=2), seats=3, seed=1)
    call_all(t, [0, 1])
    rec = t.play_hand()
    assert rec.placement == "heads-up" and rec.small_blind == rec.button != rec.big_blind
    assert rec.new_game is True
    assert t.play_hand().new_game is False


class _SitsOutAtFirstTurn:
    """Calls, and sits itself out at its first turn; counts the turns it is asked."""

    def __init__(self) -> None:
        self.table: Table | None = None
        self.asked = 0

    def act(self, obs: Observation) -> Action:
        self.asked += 1
        if self.asked == 1:
            assert self.table is not None
            self.table.sit_out(obs.player)
        return Action.check_or_call()


@pytest.mark.parametrize("core", ["compiled", "python"])
@pytest.mark.parametrize("tournament", [True, False])
def test_a_player_who_sits_out_during_a_hand(core: str, tournament: bool,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """_steps docstring: in a tournament a player who sits out during a hand checks when
    free and folds otherwise without being asked again; in a cash game they play it out."""
    if core == "python":
        monkeypatch.setattr(table_mod, "_fast", None)
    game = Game(big_blind=2, mode=Mode.TOURNAMENT) if tournament else Game(big_blind=2)
    t = Table(game, seats=3, seed=7)
    agent = _SitsOutAtFirstTurn()
    agent.table = t
    t.sit(0, "away", 200, agent)
    t.sit(1, "b", 200, CallAgent())
    t.sit(2, "c", 200, CallAgent())
    rec = t.play_hand()  # three callers: the hand goes to the river
    assert len(rec.state.board) == 5
    assert agent.asked == (1 if tournament else 4)


def test_an_agent_class_is_not_an_agent() -> None:
    """``sit(..., CallAgent)`` (the class) was taken, and the first hand failed with a bare
    ``TypeError: act() missing 1 required positional argument``; simulate took it too. A class
    is refused, naming the fix; one whose ``act`` is a static or class method still acts."""
    table = Table(Game(big_blind=2), seats=3, seed=1)
    with pytest.raises(TableError, match=r"agent for 'b' must be callable or have an act\(\) "
                                         r"method, got .*CallAgent.* \(a class: give an "
                                         r"instance, e\.g\. CallAgent\(\)\)"):
        table.sit(1, "b", 100, CallAgent)
    with pytest.raises(holdem.InvalidConfigError, match=r"\(a class: give an instance, e\.g\. "
                                                        r"RandomAgent\(\)\)"):
        holdem.simulate([CallAgent(), holdem.RandomAgent], Game(big_blind=2), hands=2, seed=1)

    class Caller:
        @staticmethod
        def act(observation: object) -> str:
            return "cc"

    table.sit(0, "a", 100, CallAgent())
    table.sit(1, "b", 100, Caller)
    assert table.play_hand().state.is_terminal()
