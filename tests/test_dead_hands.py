"""Dead hands: ``Game.new_hand(dead_hands=...)`` and tournament players sitting out.

TDA 30: a player must be at their seat when the cards are dealt to have a live hand; an
absent player's hand is dead, while their blinds and antes stay in the pot (absent players
are blinded off, R36 for sitting out). Every hand test runs on both cores (compiled
``HandState`` and ``ReferenceHandState``).
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_state_posts import CORES, start

from holdem import Action, CallAgent, Game, Mode, RandomAgent, SeatStatus, Table
from holdem.errors import InvalidConfigError, InvalidHistoryError
from holdem.hand.game import COMPILED, ReferenceHandState
from holdem.history import from_state, replay
from holdem.phh import HandHistory
from holdem.pokerstars import to_pokerstars
from holdem.table.agents import Observation
from holdem.table.player import PlayerStatus


@pytest.mark.parametrize("core", CORES)
def test_TDA30_dead_big_blind_posts_then_is_folded_at_the_deal(core: str) -> None:
    # 3 seats, button 0: SB 1, BB 2 absent
    st = start(core, Game(big_blind=2, ante=1), [100] * 3, dead_hands=[2])
    assert [(p.seat, p.kind, p.amount) for p in st.posts] == [
        (1, "ante", 1), (2, "ante", 1), (0, "ante", 1), (1, "small_blind", 1),
        (2, "big_blind", 2)]
    assert st.status(2) is SeatStatus.FOLDED and st.dead_hands == (2,)
    assert st.history == () and st.current_bet == 2 and st.pot == 6
    assert st.actor == 0  # R16: left of the big blind, the dead seat never acts
    seen = []
    while not st.is_terminal():
        seen.append(st.actor)
        st.check_or_call()
    assert 2 not in seen  # skipped on every street
    assert 2 not in st.result.showdown_order
    assert st.result.payoffs[2] == -3  # its ante and blind are dead money for the others


@pytest.mark.parametrize("core", CORES)
def test_TDA30_absent_big_blind_cannot_win_when_everyone_folds(core: str) -> None:
    # the old behaviour: everyone folds to the absent big blind, who wins the blinds
    st = start(core, Game(big_blind=2), [100] * 4, dead_hands=[2])
    st.fold()  # seat 3
    st.fold()  # button
    assert st.is_terminal()  # the small blind is the last live hand: it wins at once
    res = st.result
    # R31: the small blind wins from the dead big blind what it put in (1); R21: the other
    # chip of the big blind, matched by nobody, goes back to it
    assert res.payoffs == (0, 1, -1, 0) and res.showdown_order == ()
    assert res.returned == (0, 0, 1, 0) and sum(res.payoffs) == 0


@pytest.mark.parametrize("core", CORES)
def test_TDA30_absent_big_blind_cannot_check_down_to_a_showdown(core: str) -> None:
    for seed in range(20):
        st = start(core, Game(big_blind=2), [100] * 3, seed=seed, dead_hands=[2])
        while not st.is_terminal():
            st.check_or_call()
        res = st.result
        assert set(res.showdown_order) == {0, 1}
        assert res.payoffs[2] == -2 and res.final_stacks[2] == 98


@pytest.mark.parametrize("core", CORES)
def test_TDA30_heads_up_dead_hand_the_other_seat_wins_at_once(core: str) -> None:
    # heads-up, button 0 posts the SB; the button wins 1 of the absent big blind's 2 (R31:
    # what it put in), the other is uncalled and goes back (R21)
    st = start(core, Game(big_blind=2), [100, 100], dead_hands=[1])
    assert st.is_terminal() and st.actor is None
    assert st.posts == ((0, "small_blind", 1), (1, "big_blind", 2))
    assert st.result.payoffs == (1, -1) and st.result.returned == (0, 1)
    assert st.history == () and st.dead_hands == (1,)
    # the absent small blind (button) heads-up: the big blind wins the small blind
    st = start(core, Game(big_blind=2), [100, 100], dead_hands=[0])
    assert st.is_terminal() and st.result.payoffs == (-1, 1)
    # R21: the part of the big blind the folded small blind did not match is uncalled
    assert st.result.returned == (0, 1)


@pytest.mark.parametrize("core", CORES)
def test_TDA30_all_but_one_dead_ends_the_hand_at_the_deal(core: str) -> None:
    st = start(core, Game(big_blind=2, ante=1), [50] * 5, button=0, dead_hands=[0, 2, 3, 4])
    assert st.is_terminal() and st.dead_hands == (0, 2, 3, 4)
    res = st.result
    # seat 1 (SB, ante and blind: 2 in) wins the other antes and 1 of the dead big blind
    # (R31: from each seat at most what it put in); the big blind's last chip goes back (R21)
    assert res.payoffs == (-1, 1 + 1 + 1 + 1 + 1, -2, -1, -1) and res.returned == (0, 0, 1, 0, 0)


@pytest.mark.parametrize("core", CORES)
def test_TDA30_R31_a_short_all_in_wins_from_a_dead_hand_only_what_it_put_in(core: str) -> None:
    """R31 with TDA 30: the small blind, all in for 10, wins at most 10 from the absent big
    blind; the 90 more that the big blind posted and the button called make a side pot only
    the button can win (a folded seat's chips stay in the pots they reach). The dead blind
    was main-pot money: the short stack won 100 from it for its 10."""
    seen = set()
    for seed in range(12):
        st = start(core, Game(big_blind=100), [1000, 10, 1000], seed=seed, dead_hands=[2])
        st.call()  # the button calls the big blind; the small blind is all in
        assert st.is_terminal()
        res = st.result
        assert [(p.amount, p.eligible, p.winners) for p in res.pots][1] == (180, (0,), (0,))
        assert res.pots[0].amount == 30 and res.pots[0].eligible == (0, 1)
        assert res.payoffs[2] == -100 and res.payoffs[1] in (-10, 5, 20)
        assert res.returned == (0, 0, 0) and sum(res.payoffs) == 0
        seen.add(res.payoffs[1])
    assert {-10, 20} <= seen  # the short stack won the main pot in some deals, lost in others


@pytest.mark.parametrize("core", CORES)
def test_TDA30_R20_small_blind_is_not_asked_to_complete_a_dead_big_blind(core: str) -> None:
    """R20 with a dead hand: once every live player but the small blind is all in for no
    more than its blind, betting is over. The dead big blind's 100 is not a bet the small
    blind must call (its hand never acts or wins): the small blind matches it with its own
    50 in a side pot only it can win, and the 50 nobody matched goes back (R21, R31)."""
    winners = set()
    for seed in range(12):
        # 4 seats, button 0 (40 chips), small blind 1, big blind 2 absent, seat 3 (10 chips)
        st = start(core, Game(big_blind=100), [40, 1000, 1000, 10], seed=seed,
                   dead_hands=[2])
        assert st.actor == 3
        st.call()  # all in for 10
        assert st.actor == 0
        st.call()  # all in for 40
        assert st.is_terminal() and [a.seat for a in st.history] == [3, 0]
        res = st.result
        assert [(p.amount, p.eligible) for p in res.pots] == [
            (40, (0, 1, 3)), (90, (0, 1)), (20, (1,))]
        assert res.pots[2].winners == (1,)
        assert res.returned == (0, 0, 50, 0)
        assert res.payoffs[2] == -50 and sum(res.payoffs) == 0
        assert len(st.board) == 5  # R20: the board is dealt out with no more betting
        winners.add(res.pots[0].winners)
    assert len(winners) > 1  # the main pot went to different seats across the deals


def test_TDA30_R31_tournament_short_stack_against_an_absent_big_blind() -> None:
    t = Table(Game(big_blind=100, mode=Mode.TOURNAMENT), seats=3, seed=1)
    t.sit(0, "big", 1000, CallAgent())
    t.sit(1, "short", 10, CallAgent())
    t.sit(2, "away", 1000, CallAgent())
    t.sit_out("away")
    r = t.play_hand()
    assert [(s, k, a) for s, k, a in r.posts] == [(1, "small_blind", 10), (2, "big_blind", 100)]
    assert r.payoffs["away"] == -100 and r.payoffs["short"] <= 20
    assert t.chips_in_play == t.bought_in


@pytest.mark.parametrize("core", CORES)
def test_TDA30_dead_hands_with_extra_posts_and_dead_small_blind(core: str) -> None:
    # 5 seats, button 0, dead small blind: BB 1; seat 4 posts an entry bet and a dead SB,
    # then is absent (dead); seat 2 is absent too (posts nothing: its hand is dead)
    st = start(core, Game(big_blind=2), [100] * 5, dead_small_blind=True,
               extra_posts=[(4, 2, 1)], dead_hands=[4, 2])
    assert st.posts[-2:] == ((4, "entry_big_blind", 2), (4, "dead_small_blind", 1))
    assert st.dead_hands == (2, 4) and st.pot == 5
    assert st.actor == 3
    st.fold()  # seat 3
    st.fold()  # the button
    res = st.result
    assert res.payoffs == (0, 3, 0, 0, -3)  # the big blind wins the poster's 3 dead chips


@pytest.mark.parametrize("core", CORES)
@pytest.mark.parametrize(("dead", "msg"), [
    ([5], "dead_hands: seat must be 0..4"),
    ([-1], "dead_hands: seat must be 0..4"),
    ([1, 1], "seat 1 is given twice"),
    ([True], "a seat must be an int"),
    ([1.0], "a seat must be an int"),
    (["1"], "a seat must be an int"),
    ([0, 1, 2, 3, 4], "at least one hand must stay live"),
    (5, "dead_hands must be a sequence"),
    ("12", "dead_hands must be a sequence"),
    (None, "dead_hands must be a sequence"),
])
def test_TDA30_invalid_dead_hands_are_rejected(core: str, dead: Any, msg: str) -> None:
    game = Game(big_blind=2)
    with pytest.raises(InvalidConfigError, match=msg):
        start(core, game, [100] * 5, dead_hands=dead)


def test_TDA30_invalid_dead_hands_leave_the_inputs_unchanged() -> None:
    game = Game(big_blind=2)
    stacks = [100] * 3
    dead = [0, 1, 2]
    with pytest.raises(InvalidConfigError):
        game.new_hand(stacks, seed=1, dead_hands=dead)
    assert stacks == [100] * 3 and dead == [0, 1, 2]
    assert game.new_hand(stacks, seed=1, dead_hands=[]).dead_hands == ()


@pytest.mark.parametrize("core", CORES)
def test_TDA30_dead_hand_round_trips_pickle_and_clone(core: str) -> None:
    st = start(core, Game(big_blind=2), [100] * 4, dead_hands=[2])
    for other in (pickle.loads(pickle.dumps(st)), st.clone()):
        assert other == st and other.dead_hands == (2,)
        assert other.status(2) is SeatStatus.FOLDED and other.actor == st.actor
    st.call()
    done, twin = pickle.loads(pickle.dumps(st)), st.clone()
    for other in (st, done, twin):
        other.fold()
        other.fold()
    assert done.is_terminal() and done.dead_hands == (2,)
    # the copies settle as the original: the dead big blind is not returned as uncalled
    assert done.result == twin.result == st.result and st.result.returned[2] == 0
    assert pickle.loads(pickle.dumps(done)).result == done.result


@pytest.mark.parametrize("core", CORES)
def test_TDA30_dead_hand_round_trips_phh_and_replay(core: str) -> None:
    st = start(core, Game(big_blind=2, ante=1), [100] * 4, seed=5, dead_hands=[2, 0])
    rng = random.Random(3)
    while not st.is_terminal():
        la = st.legal_actions()
        st.fold() if la.can_fold and rng.random() < 0.2 else st.check_or_call()
    hh = from_state(st)
    # PHH p1 is the seat left of the button (seat 1): seat 2 is index 1, seat 0 index 3
    assert hh.user_fields["_dead_hands"] == [1, 3]
    again = HandHistory.loads(hh.dumps())
    assert again.user_fields["_dead_hands"] == [1, 3]
    rep = replay(again).check()
    assert rep.state.dead_hands == (1, 3)
    assert rep.state.result.payoffs == tuple(st.result.payoffs[(1 + k) % 4] for k in range(4))
    # PokerStars text cannot say that a hand is dead from the deal: refused, not written wrong
    with pytest.raises(InvalidHistoryError, match=r"dead from the deal .*: Player 2, Player 4\)"):
        to_pokerstars(again)


def test_TDA30_phh_dead_hands_field_is_checked() -> None:
    st = Game(big_blind=2).new_hand([100] * 3, seed=1, dead_hands=[2])
    st.fold()
    hh = from_state(st)
    for bad in ([5], "x", [True]):
        broken = HandHistory.loads(hh.dumps()).__class__(
            **{**{f: getattr(hh, f) for f in ("variant", "antes", "blinds_or_straddles",
                                              "min_bet", "starting_stacks", "actions")},
               "user_fields": {"_dead_hands": bad}})
        with pytest.raises(InvalidHistoryError, match="_dead_hands"):
            replay(broken)
    every = HandHistory.loads(hh.dumps()).__class__(
        **{**{f: getattr(hh, f) for f in ("variant", "antes", "blinds_or_straddles",
                                          "min_bet", "starting_stacks", "actions")},
           "user_fields": {"_dead_hands": [0, 1, 2]}})
    with pytest.raises(InvalidHistoryError, match="at least one hand must stay live"):
        replay(every)


@pytest.mark.skipif(not COMPILED, reason="the compiled core is not built")
def test_TDA30_both_cores_agree_on_random_dead_hands() -> None:
    rng = random.Random(30)
    for _ in range(300):
        n = rng.randint(2, 10)
        game = Game(big_blind=2, ante=rng.choice([0, 1]), straddle=n >= 3 and rng.random() < 0.3)
        stacks = [rng.randint(1, 80) for _ in range(n)]
        button = rng.randrange(n)
        dead = rng.sample(range(n), rng.randint(1, n - 1))
        seed = rng.randrange(2**32)
        a = game.new_hand(stacks, button=button, seed=seed, dead_hands=dead)
        b = ReferenceHandState._start(game, stacks, button, seed, None, None, False, (), dead)
        assert (a.posts, a.actor, a.statuses, a.pot, a.dead_hands) == (
            b.posts, b.actor, b.statuses, b.pot, b.dead_hands)
        while not a.is_terminal():
            assert a.legal_actions() == b.legal_actions()
            action = rng.choice(a.actions())
            a.apply(action)
            b.apply(action)
        assert b.is_terminal() and a.result == b.result and a.history == b.history


# ---------------------------------------------------------------------- the table
def _fold(observation: Observation) -> Action:
    """An agent that folds whenever it may."""
    return Action.fold() if observation.legal.can_fold else Action.check()


def _tournament(seats: int = 3, seed: int = 3) -> Table:
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=seats, seed=seed)
    for s in range(seats):
        t.sit(s, f"s{s}", 100, CallAgent())
    return t


def test_TDA30_R36_tournament_player_sitting_out_is_dealt_a_dead_hand() -> None:
    t = _tournament()
    t.sit_out("s0")
    recs = t.play(6)
    for r in recs:
        assert 0 in r.seats  # still dealt in, and posts the blinds when they come
        i = r.seats.index(0)
        assert r.state.dead_hands == (i,)
        assert r.state.status(i) is SeatStatus.FOLDED
        assert all(a.seat != i for a in r.state.history)  # never acts
        assert r.payoffs["s0"] <= 0  # never wins a pot
    assert any(r.payoffs["s0"] < 0 for r in recs)  # blinded off
    assert t.chips_in_play == t.bought_in
    t.come_back("s0")
    rec = t.play_hand()
    assert rec.state.dead_hands == ()


def test_TDA30_R36_absent_big_blind_does_not_win_the_blinds() -> None:
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=3, seed=3)
    for s in range(3):
        t.sit(s, f"s{s}", 100, _fold)
    for _ in range(6):
        absent = next(p for p in t.seats if p is not None and p.name == "s2")
        if absent.status is PlayerStatus.ACTIVE:
            t.sit_out("s2")
        rec = t.play_hand()
        assert rec.payoffs["s2"] <= 0  # folded to as the big blind: it used to win
    assert t.chips_in_play == t.bought_in


def test_TDA30_cash_player_sitting_out_is_still_not_dealt_in() -> None:
    t = Table(Game(big_blind=2), seats=3, seed=3)
    for s in range(3):
        t.sit(s, f"s{s}", 100, CallAgent())
    t.sit_out("s1")
    for rec in t.play(4):
        assert 1 not in rec.seats and rec.state.dead_hands == ()


def test_TDA30_every_player_sitting_out_plays_on_checking_and_folding() -> None:
    t = _tournament()
    for s in range(3):
        t.sit_out(f"s{s}")
    rec = t.play_hand()
    assert rec.state.dead_hands == ()  # a hand needs a live seat: nobody's hand is killed
    assert all(a.type.name in ("CHECK", "FOLD") for a in rec.state.history)


_tour_op = st.one_of(
    st.tuples(st.just("sit_out"), st.integers(0, 9)),
    st.tuples(st.just("come_back"), st.integers(0, 9)),
    st.tuples(st.just("play"), st.integers(1, 6)),
)


@settings(max_examples=40, deadline=None)
@given(size=st.integers(2, 8), ante=st.integers(0, 2), seed=st.integers(0, 2**32),
       ops=st.lists(_tour_op, max_size=20))
def test_TDA30_R36_tournament_with_sit_outs_conserves_chips(
        size: int, ante: int, seed: int, ops: list[tuple[str, int]]) -> None:
    """Any sequence of sit out / come back / play in a tournament: chips are conserved hand
    by hand, and the hands of players sitting out at the deal are dead (they never act or
    win) unless everybody dealt in is sitting out."""
    t = Table(Game(big_blind=2, ante=ante, mode=Mode.TOURNAMENT), seats=size, seed=seed)
    for s in range(size):
        t.sit(s, f"p{s}", 40 + 10 * s, RandomAgent(seed=seed + s) if s % 2 else CallAgent())
    total = t.bought_in
    for kind, a in ops:
        players = t.players
        if not players:
            break
        p = players[a % len(players)]
        if kind == "sit_out" and p.status is PlayerStatus.ACTIVE:
            t.sit_out(p.name)
        elif kind == "come_back" and p.status is PlayerStatus.SITTING_OUT:
            t.come_back(p.name)
        elif kind == "play":
            for _ in range(a):
                if not t.can_play():
                    break
                away = {q.name for q in t.players if q.status is PlayerStatus.SITTING_OUT}
                rec = t.play_hand()
                assert sum(rec.payoffs.values()) == 0
                assert sum(q.stack for q in t.players) == total
                names = rec.names
                dead = rec.state.dead_hands
                if len(away & set(names)) < len(names):
                    assert {names[k] for k in dead} == away & set(names)
                    for k in dead:
                        assert rec.payoffs[names[k]] <= 0
                        assert all(x.seat != k for x in rec.state.history)
    assert t.chips_in_play == total
