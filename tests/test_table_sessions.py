"""Table sessions: agents and observations, determinism, long seeded sessions (chips
conserved, button and blind rules every hand), docstring examples."""

from __future__ import annotations

import random
from typing import Any

import pytest
from table_checks import Shove, call_all, session

from holdem import (
    Action,
    AgentError,
    CallAgent,
    Card,
    EquityAgent,
    Game,
    HandState,
    IllegalActionError,
    Observation,
    RandomAgent,
    Table,
)


# ---------------------------------------------------------------------- agents
def test_illegal_agent_answer_raises_agent_error_and_voids_the_hand() -> None:
    def bad(obs: Observation) -> Any:
        return Action.raise_to(1)

    t = Table(Game(big_blind=2), seats=2, seed=1)
    t.sit(0, "bad", 100, bad)
    t.sit(1, "ok", 100, CallAgent())
    # heads-up the bad agent acts in the first hand whichever seat has the button
    with pytest.raises(AgentError, match=r"agent 'test_illegal.*bad' of player 'bad' \(seat 0\)"
                       r" answered Action\(ActionType.RAISE, 1\): raise to 1 is below"):
        t.play_hand()
    # the hand is void: no chips moved, no hand counted, no button placed
    assert (t.player("bad").stack, t.player("ok").stack, t.hand_number) == (100, 100, 0)
    assert t.button is None

    def garbage(obs: Observation) -> Any:
        return object()

    t.leave("bad")
    t.sit(0, "g", 100, garbage)
    with pytest.raises(AgentError, match=r"garbage' of player 'g'.*not an action"):
        t.play_hand()
    assert t.chips_in_play + t.cashed_out == t.bought_in == 300 and t.hand_number == 0


def test_observation_shows_only_what_the_seat_can_see() -> None:
    seen: list[Observation] = []

    def spy(obs: Observation) -> Any:
        seen.append(obs)
        return Action.check_or_call()

    t = Table(Game(big_blind=2), seats=4, seed=5)
    t.sit(0, "spy", 100, spy)
    call_all(t, [1, 2, 3])
    rec = t.play_hand()
    hole = rec.state.hole_cards
    others = {c for i, h in enumerate(hole) if i != rec.seats.index(0) for c in h or ()}
    for obs in seen:
        assert obs.hole_cards == hole[obs.position] and obs.seat == 0
        # nothing in the observation holds another seat's cards or the hand state itself
        fields = list(obs)
        assert not any(isinstance(v, type(rec.state)) for v in fields)
        assert not (others & set(obs.hole_cards))
        cards = {c for v in fields if isinstance(v, tuple) for c in v if isinstance(c, Card)}
        assert cards == set(obs.hole_cards) | set(obs.board)
        assert all(isinstance(r.seat, int) for r in obs.history)
    assert seen[-1].history[: len(seen[0].history)] == seen[0].history
    with pytest.raises(AttributeError):
        seen[0].pot = 5  # type: ignore[misc]


def test_observation_from_state_is_what_the_table_shows() -> None:
    """``Observation.from_state`` of the hand replayed gives, decision by decision, the
    observation the table gave the agent (a full table of players named by seat)."""
    seen: list[Observation] = []
    agent = RandomAgent(seed=3)

    def spy(obs: Observation) -> Any:
        seen.append(obs)
        return agent.act(obs)

    for seed in range(12):
        t = Table(Game(big_blind=2), seats=3, seed=seed)
        for seat in range(3):
            t.sit(seat, f"p{seat}", 200, spy)
        seen.clear()
        rec = t.play_hand()
        end = rec.state
        state = Game(big_blind=2).new_hand(list(rec.starting_stacks), button=end.button,
                                           hole_cards=end.hole_cards, board=end.board)
        rebuilt = []
        for seat, _street, kind, to, _amount, _all_in in end.raw_history():
            rebuilt.append(Observation.from_state(state, rec.number))
            state.apply(Action.fold() if kind == 0 else Action.check_or_call() if kind in (1, 2)
                        else Action.bet_or_raise(to), seat=seat)
        assert rebuilt == seen and state.payoffs == end.payoffs
    with pytest.raises(IllegalActionError, match="the hand is over"):
        Observation.from_state(state)


def test_leaving_mid_hand_folds_at_next_turn() -> None:
    t = Table(Game(big_blind=2), seats=3, seed=2)

    class Leaver:
        def act(self, obs: Observation) -> Any:
            t.leave(obs.player)
            la = obs.legal
            return Action.check_or_call() if la.can_check else Action.call()

    t.sit(0, "leaver", 100, Leaver())
    t.sit(1, "b", 100, Shove())
    t.sit(2, "c", 100, CallAgent())
    # play until the leaver has acted in some hand
    for _ in range(5):
        rec = t.play_hand()
        if "leaver" in rec.names:
            break
    assert all(p.name != "leaver" for p in t.players)
    assert t.chips_in_play + t.cashed_out == t.bought_in


def test_builtin_agents_play_legally_and_equity_agent_folds_junk() -> None:
    t = Table(Game(big_blind=2), seats=3, seed=12)
    t.sit(0, "r", 200, RandomAgent(seed=1))
    t.sit(1, "c", 200, CallAgent())
    t.sit(2, "e", 200, EquityAgent(seed=2, samples=24))
    t.play(30)
    assert t.chips_in_play + t.cashed_out == t.bought_in
    e = EquityAgent(seed=3, samples=200)
    from holdem import parse_cards
    assert e.equity(parse_cards("AsAh"), (), 1) > 0.75
    assert e.equity(parse_cards("7h2c"), parse_cards("AsKsQs"), 1) < 0.2


# ---------------------------------------------------------------------- determinism, session
def test_same_seed_same_session() -> None:
    _, ra = session(21, 300, check=False)
    _, rb = session(21, 300, check=False)
    assert [(r.button, r.seats, r.payoffs, r.state.history) for r in ra] == [
        (r.button, r.seats, r.payoffs, r.state.history) for r in rb]
    _, rc = session(22, 300, check=False)
    assert [r.payoffs for r in rc] != [r.payoffs for r in ra]


def test_long_session_conserves_chips_and_obeys_button_rules() -> None:
    """10,000 hands at 6 seats with joins, leaves, sit-outs, rebuys and rake (R4, R34-R37)."""
    t, recs = session(2024, 10_000)
    assert len(recs) > 8_500
    assert t.rake > 0
    assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in
    assert any(len(r.seats) == 2 for r in recs) and any(len(r.seats) == 6 for r in recs)
    assert any(k == "entry_big_blind" for r in recs for _, k, _ in r.posts)
    assert any(k == "dead_small_blind" for r in recs for _, k, _ in r.posts)
    # every hand, extra posts included, runs on the state machine itself (no adapters)
    assert all(type(r.state) is HandState for r in recs)


def test_long_session_dead_button_conserves_chips() -> None:
    _, recs = session(7, 2_000, dead_button=True)
    assert any(r.small_blind is None for r in recs)
    for r in recs:
        assert type(r.state) is HandState
        if r.small_blind is None and len(r.seats) > 2:  # TDA: button right behind the BB
            assert r.state.big_blind_seat == (r.state.button + 1) % len(r.seats)
            assert all(p.kind != "small_blind" for p in r.state.posts)
    assert any(r.button not in r.seats for r in recs)


@pytest.mark.parametrize("name", ["holdem.table.table", "holdem.table.agents", "holdem.table.tournament",
                                  "holdem.simulate", "holdem.table._seating", "holdem._shown"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    failed, tried = doctest.testmod(importlib.import_module(name),
                                    optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failed == 0 and (tried > 0 or name == "holdem.table._seating")




def test_observation_from_state_refuses_bad_input() -> None:
    from holdem import IllegalActionError, InvalidConfigError, InvalidStateError
    from holdem.table.agents import Observation

    state = Game(big_blind=2).new_hand([100, 100], seed=1)
    with pytest.raises(InvalidStateError, match="HandState"):
        Observation.from_state(None)  # type: ignore[arg-type]
    for number in (-1, 2**80, "x", 1.5):
        with pytest.raises(InvalidConfigError, match="hand_number"):
            Observation.from_state(state, hand_number=number)  # type: ignore[arg-type]
    state.fold()
    with pytest.raises(IllegalActionError, match="over"):
        Observation.from_state(state)


def test_r4_r36_dead_button_a_newcomer_on_the_button_seat_waits() -> None:
    """R4 (dead button) with R36: a newcomer who sits down where the button lands is not
    dealt in on the button (a mutation dealing them in survived every test)."""
    t = Table(Game(big_blind=2), seats=6, seed=3, dead_button=True)
    for s in range(4):
        t.sit(s, f"p{s}", 200, CallAgent())
    first = t.play_hand()
    assert (first.button, first.small_blind, first.big_blind) == (1, 2, 3)
    t.leave("p2")
    t.sit(2, "new", 200, CallAgent())  # posts to come in (R36), but not on the button
    r = t.play_hand()
    assert (r.button, r.small_blind, r.big_blind) == (2, 3, 0)
    assert r.seats == (0, 1, 3) and all(p[0] != 2 for p in r.posts)


def test_r4_r36_moving_button_skips_nobody_when_two_newcomers_wait() -> None:
    """R4: the button moves to the next player; two newcomers waiting for the big blind
    (R36) do not turn the hand into a heads-up join. The button goes to seat 4; seat 7,
    waiting right after it now that seat 6 left, would be jumped by the small blind (seat 8)
    and wait an orbit: it takes the big blind, the small blind dead (the R36 ruling, also
    with two players left; this hand went to seat 0 before). Seat 0 gets the big blind at
    the next hand, when it reaches it."""
    t = Table(Game(big_blind=2), seats=9, seed=5)
    for s in (1, 4, 6, 8):
        t.sit(s, f"p{s}", 200, CallAgent())
    for _ in range(20):
        r = t.play_hand()
        if r.button == 1:
            break
    assert (r.button, r.small_blind, r.big_blind, r.seats) == (1, 4, 6, (1, 4, 6, 8))
    t.leave("p1")
    t.leave("p6")
    t.sit(7, "w7", 200, CallAgent(), wait_for_big_blind=True)
    t.sit(0, "w0", 200, CallAgent(), wait_for_big_blind=True)
    r = t.play_hand()
    assert (r.button, r.small_blind, r.big_blind) == (4, None, 7)
    assert r.seats == (4, 7, 8) and r.placement == "moving"
    r = t.play_hand()
    assert (r.button, r.small_blind, r.big_blind, r.seats) == (7, 8, 0, (0, 4, 7, 8))


def test_r36_cash_player_sitting_out_mid_hand_plays_the_hand_out() -> None:
    """R36 (cash games): sitting out takes effect from the next hand; the hand in play goes
    on, the player asked at each turn (only a tournament's absent player is folded)."""

    class SitsOutThenCalls:
        def __init__(self, table: Table) -> None:
            self.table, self.asked = table, 0

        def act(self, obs: Observation) -> Action:
            self.asked += 1
            if self.asked == 1:
                self.table.sit_out(obs.player)
            return Action.check_or_call()

    class RaisesOnce:
        done = False

        def act(self, obs: Observation) -> Action:
            if not self.done and obs.legal.can_raise:
                self.done = True
                assert obs.legal.min_to is not None
                return Action.bet_or_raise(obs.legal.min_to)
            return Action.check_or_call()

    t = Table(Game(big_blind=2), seats=3, seed=1)
    agent = SitsOutThenCalls(t)
    t.sit(0, "a", 200, agent)
    t.sit(1, "b", 200, RaisesOnce())
    t.sit(2, "c", 200, CallAgent())
    r = t.play_hand()
    mine = [(h.street.name, h.type.name, h.to) for h in r.state.history if r.seats[h.seat] == 0]
    assert agent.asked == 5 and mine[:2] == [("PREFLOP", "CALL", 2), ("PREFLOP", "CALL", 4)]
    assert len(r.state.board) == 5 and r.state.status(r.seats.index(0)).name != "FOLDED"


def test_r3_r36_heads_up_blinds_settle_a_wait_for_the_big_blind() -> None:
    """R3 with R36: heads-up the blinds alternate, so a player waiting for the big blind who
    is dealt in heads-up is active after it; the next newcomer joins the game as R36 says
    (button 2, small blind 0, big blind 1)."""
    t = Table(Game(big_blind=2), seats=3, seed=2)
    for s in range(3):
        t.sit(s, f"p{s}", 200, CallAgent())
    t.play_hand()
    t.leave("p1")
    t.wait_for_big_blind("p2")
    r = t.play_hand()
    assert (r.button, r.big_blind, r.placement) == (2, 0, "heads-up")
    assert t.player("p2").status.name == "ACTIVE"
    t.sit(1, "new", 200, CallAgent(), wait_for_big_blind=True)
    r = t.play_hand()
    assert (r.button, r.small_blind, r.big_blind, r.seats, r.placement) == (
        2, 0, 1, (0, 1, 2), "joining")


def test_r4_r37_dead_button_after_heads_up_deals_in_players_back() -> None:
    """R4 (dead button) after a heads-up hand (R3): its button is also its small blind, so the
    dead-button progression would put the button back on that seat and leave out a player
    who came back between it and the blinds owing nothing. The button moves on to that
    player (everybody dealt in) and the big blind still moves on one player."""
    t = Table(Game(big_blind=2), seats=4, seed=1, dead_button=True)
    call_all(t, [0, 1, 2, 3])
    first = t.play_hand()
    assert (first.button, first.small_blind, first.big_blind) == (1, 2, 3)
    t.sit_out("s1")
    t.sit_out("s3")
    heads_up = t.play_hand()
    assert (heads_up.button, heads_up.small_blind, heads_up.big_blind, heads_up.seats) == (
        2, 2, 0, (0, 2))
    t.come_back("s1")
    t.come_back("s3")  # the big blind went from seat 3 to seat 0: neither owes anything
    assert not t.player("s1").owes and not t.player("s3").owes
    r = t.play_hand()  # the progression alone: button 2, small blind 0, big blind 1, seat 3 out
    assert (r.button, r.small_blind, r.big_blind, r.seats, r.placement) == (
        3, 0, 1, (0, 1, 2, 3), "dead")
    r = t.play_hand()
    assert (r.button, r.small_blind, r.big_blind, r.seats, r.placement) == (
        0, 1, 2, (0, 1, 2, 3), "dead")


@pytest.mark.parametrize("wait", [False, True])
def test_r4_r36_a_newcomer_joining_two_players_after_three_handed_moves_the_button(
        wait: bool) -> None:
    """R4 with R36: three-handed (button 0, blinds 1 and 2), the big blind leaves and a
    newcomer sits down (posting, or waiting for the big blind) where the big blind goes next.
    They take it, and the button moves on to seat 1 with the small blind dead: the placement
    for a heads-up game kept the button on seat 0 and the small blind on seat 1 two hands
    running (seat 0 played two hands without a blind)."""
    t = Table(Game(big_blind=2), seats=4, seed=1)
    call_all(t, [0, 1, 2])
    while t.play_hand().button != 0:
        pass
    t.leave("s2")
    t.sit(3, "new", 200, CallAgent(), wait_for_big_blind=wait)
    r = t.play_hand()
    assert (r.button, r.small_blind, r.big_blind, r.seats) == (1, None, 3, (0, 1, 3))
    assert [(s, k) for s, k, _ in r.posts] == [(3, "big_blind")]
    r = t.play_hand()
    assert (r.button, r.small_blind, r.big_blind, r.seats) == (3, 0, 1, (0, 1, 3))


def test_r36_last_hands_big_blind_back_waiting_waits_for_it_to_come_round() -> None:
    """R36: three-handed, the big blind sits out and comes back at once to wait for the big
    blind. They do not take it again at the next hand (the placement for a heads-up game
    gave them it and repeated last hand's positions): the two others play heads-up, then the
    big blind moves on to them as to a newcomer (R3 with R36)."""
    t = Table(Game(big_blind=2), seats=4, seed=1)
    call_all(t, [0, 1, 2])
    while t.play_hand().button != 0:
        pass
    t.sit_out("s2")
    t.come_back("s2", wait_for_big_blind=True)
    r = t.play_hand()
    assert (r.button, r.small_blind, r.big_blind, r.seats) == (1, 1, 0, (0, 1))
    r = t.play_hand()
    assert (r.button, r.small_blind, r.big_blind, r.seats) == (0, 1, 2, (0, 1, 2))


def test_r2_r4_dead_button_after_heads_up_keeps_the_blinds_in_order() -> None:
    """R2, R4 (dead button) after a heads-up hand whose button then sits out: the
    progression put the button between the small blind (seat 1) and the big blind (seat 3),
    and a newcomer posting on seat 0 played as the button (Robert's Rules: not dealt in
    between the button and the blinds). That hand is placed as with a moving button: the
    newcomer takes the big blind (R36, the heads-up game gets a third player)."""
    t = Table(Game(big_blind=2), seats=5, seed=1, dead_button=True)
    t.sit(1, "p1", 400, CallAgent())
    t.sit(2, "p2", 400, CallAgent())
    t.sit(3, "p3", 20, Shove())
    assert t.play_hand().button == 1 and t.player("p3").stack == 0
    r = t.play_hand()
    assert (r.button, r.small_blind, r.big_blind, r.seats) == (2, 2, 1, (1, 2))
    t.add_chips("p3", 20)
    t.sit_out("p2")
    t.sit(0, "new", 200, CallAgent())
    r = t.play_hand()
    assert (r.button, r.small_blind, r.big_blind, r.seats) == (1, 3, 0, (0, 1, 3))
    assert r.seats[r.state.button] == r.button
    assert [(s, k) for s, k, _ in r.posts] == [(3, "small_blind"), (0, "big_blind")]


def test_r4_dead_button_a_player_back_before_the_small_blind_takes_the_button() -> None:
    """R4 (dead button): last hand button 2, small blind 3, big blind 1 (placed as a heads-up
    game joined); seat 0, back owing nothing, sits between the progression's button seat (3)
    and the small blind's (1). The button moves on to seat 0 and the big blind to seat 2: a
    placement as with a moving button put the big blind on seat 1 two hands running."""
    from holdem.table._seating import Positions, plan_hand

    plan = plan_hand((1, 1, 1, 1, 0), Positions(2, 3, 1, 3), dead_button=True, first_button=0)
    assert plan is not None
    assert (plan.positions[:3], plan.dealt, plan.placement) == ((0, 1, 2), (0, 1, 2, 3), "dead")


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_r4_r37_dead_button_short_tables_with_rebuys_deal_in_who_owes_nothing(
        seats: int) -> None:
    """R4 (dead button), R37: short-stacked short tables bust players often and go heads-up;
    a player who rebuys (or comes back) owing nothing is dealt in at once, every hand."""
    missed = []
    played = 0
    for seed in range(20):
        rng = random.Random(seed)
        t = Table(Game(big_blind=2), seats=seats, seed=seed, dead_button=True)
        for s in range(seats):
            t.sit(s, f"p{s}", 40, RandomAgent(seed=s))
        for _ in range(120):
            for p in t.players:
                if p.stack == 0 and rng.random() < 0.5:
                    t.add_chips(p.name, 40)
            if not t.can_play():
                continue
            ready = {p.seat for p in t.players if p.stack > 0 and not p.owes}
            rec = t.play_hand()
            played += 1
            missed += [(seed, rec.number, s) for s in ready - set(rec.seats)]
            assert t.chips_in_play + t.cashed_out == t.bought_in
    assert missed == [] and played > 2_000


def test_r36_dead_button_missed_small_blind_is_owed_after_a_dead_small_blind() -> None:
    """R36 / Robert's Rules on a dead-button table: a player who sits out as the blinds pass
    owes both blinds, the small blind counted from the previous hand's big blind when the
    small blind was dead, and posts 2 live plus 1 dead on return."""
    t = Table(Game(big_blind=2), seats=6, seed=1, dead_button=True)
    for s in range(6):
        t.sit(s, f"p{s}", 200, CallAgent())
    bb = t.play_hand().big_blind
    y = f"p{(bb + 1) % 6}"
    t.leave(f"p{bb}")  # the next hand's small blind is dead
    t.sit_out(y)
    first = t.play_hand()
    assert first.small_blind is None
    t.play_hand()
    p = t.player(y)
    assert p.owes_big_blind and p.owes_small_blind
    t.come_back(y)
    for _ in range(10):
        r = t.play_hand()
        if p.seat in r.seats:
            break
    assert [x for x in r.posts if x[0] == p.seat] == [(p.seat, "entry_big_blind", 2),
                                                       (p.seat, "dead_small_blind", 1)]
