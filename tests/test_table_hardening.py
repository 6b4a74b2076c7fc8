"""Table bugs found in long sessions: a third player at a heads-up table,
an entry post on the straddle seat, stacks above the engine's limit. Rule ids from RULES.md
are in the test names."""

from __future__ import annotations

import re
import sys
from typing import Any

import pytest
from table_checks import Shove, call_all, check_moving_button, owing_blinds

import holdem.table._steps as _steps
import holdem.table.table as table_mod
from holdem import (
    BlindLevel,
    CallAgent,
    Game,
    HandRecord,
    InvalidConfigError,
    RandomAgent,
    Table,
    TableError,
)
from holdem.hand._validate import MAX_CHIPS
from holdem.table.player import Player


# ---------------------------------------------------------------------- 3.1: heads-up to three
def _issue_recipe(dead_button: bool = False, **sit: Any) -> tuple[Table, list[HandRecord]]:
    """The issue's recipe: seats 0 and 2 play 3 hands heads-up, then seat 4 sits down."""
    t = Table(Game(big_blind=2), seats=6, seed=5, dead_button=dead_button)
    t.sit(0, "a", 200, CallAgent())
    t.sit(2, "b", 200, CallAgent())
    recs = t.play(3)
    assert all(len(r.seats) == 2 for r in recs)
    t.sit(4, "c", 200, CallAgent(), **sit)
    return t, recs + t.play(30)


@pytest.mark.parametrize("dead_button", [False, True])
@pytest.mark.parametrize("wait", [False, True])
def test_R36_R3_new_player_at_a_heads_up_table_is_dealt_in(dead_button: bool,
                                                         wait: bool) -> None:
    """The newcomer (posting the entry bet or waiting for the big blind, R36) is
    dealt in at the very next hand, as the big blind, and in every hand after it."""
    t, recs = _issue_recipe(dead_button, wait_for_big_blind=wait)
    after = recs[3:]
    assert len(after) == 30 and all(4 in r.seats for r in after)
    first = after[0]
    # a dead-button table may reach them with its own progression (the big blind moves on)
    assert first.placement in (("joining", "dead") if dead_button else ("joining",))
    assert first.big_blind == 4
    # the two heads-up players take the small blind (right of the big blind) and the button
    assert (first.small_blind, first.button) == (2, 0)
    # the big blind is the entry bet (R36): nothing else posted, nothing owed after it
    assert sorted(first.posts) == [(2, "small_blind", 1), (4, "big_blind", 2)]
    assert not t.player("c").owes
    if not dead_button:
        prev = recs[2]
        for rec in after:
            check_moving_button(prev, rec, 6)  # R2, R3, R4 and the joining placement
            prev = rec
    assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in


def test_R36_R3_newcomer_right_of_the_button_takes_the_big_blind() -> None:
    """The other side of the table: the newcomer sits between last hand's button (the heads-up
    small blind) and its big blind; the big blind still moves on to them."""
    t = Table(Game(big_blind=2), seats=6, seed=5)
    call_all(t, [0, 3])
    prev = t.play(3)[-1]
    seat = 1 if prev.button == 0 else 4  # clockwise right after the heads-up button
    t.sit(seat, "new", 100, CallAgent())
    rec = t.play_hand()
    assert rec.placement == "joining" and rec.big_blind == seat and len(rec.seats) == 3
    check_moving_button(prev, rec, 6)
    # nobody posts the big blind twice in a row (TDA 34 spirit); the button is not the newcomer
    assert rec.big_blind != prev.big_blind and rec.button != seat


def test_R37_rebuy_after_busting_at_a_heads_up_table_is_dealt_in() -> None:
    t = Table(Game(big_blind=2), seats=6, seed=3)
    call_all(t, [2, 4], stack=500)
    t.sit(0, "short", 20, Shove())
    while t.player("short").stack > 0:
        assert 0 in t.play_hand().seats
    assert all(r.seats == (2, 4) for r in t.play(4))  # R37: no chips, no cards
    t.add_chips("short", 40)
    rec = t.play_hand()
    assert 0 in rec.seats and rec.big_blind == 0 and rec.placement == "joining"
    for _ in range(10):  # dealt in every hand while it has chips
        if t.player("short").stack == 0:
            break
        assert 0 in t.play_hand().seats
    assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in


def test_R36_back_from_sitting_out_at_a_heads_up_table_is_dealt_in() -> None:
    t = Table(Game(big_blind=2), seats=6, seed=8)
    call_all(t, [1, 3, 5])
    t.play(2)
    t.sit_out("s3")
    t.play(4)  # heads-up meanwhile; the big blind passes seat 3
    t.come_back("s3")
    rec = t.play_hand()
    assert 3 in rec.seats
    assert all(3 in r.seats for r in t.play(10))
    assert not t.player("s3").owes


def test_R36_heads_up_joining_several_newcomers() -> None:
    """Two newcomers at once: the first clockwise from last hand's big blind takes the big
    blind; the other posts its entry bet when it sits between the big blind and the button,
    else it waits for the button to pass (never dealt in on the button or a blind)."""
    seen_entry = seen_wait = 0
    for seed in range(6):
        for pair in [(1, 2), (1, 4), (1, 5), (2, 4), (4, 5)]:
            t = Table(Game(big_blind=2), seats=6, seed=seed)
            call_all(t, [0, 3])
            prev = t.play(2)[-1]
            for s in pair:
                t.sit(s, f"n{s}", 100, CallAgent())
            rec = t.play_hand()
            assert rec.placement == "joining" and rec.big_blind in pair
            check_moving_button(prev, rec, 6)
            other = pair[0] + pair[1] - rec.big_blind
            if other in rec.seats:
                seen_entry += 1
                assert (other, "entry_big_blind", 2) in rec.posts
                assert other not in (rec.button, rec.small_blind)
            else:
                seen_wait += 1
            prev = rec
            for later in t.play(6):
                check_moving_button(prev, later, 6)
                prev = later
            assert set(prev.seats) == {0, 3, *pair}
    assert seen_entry and seen_wait


@pytest.mark.skipif(table_mod._fast is None, reason="the compiled core is not in use")
def test_heads_up_joining_plays_the_same_on_the_compiled_and_python_paths(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def run() -> list[Any]:
        t, recs = _issue_recipe()
        t.sit(1, "d", 100, RandomAgent(seed=4), wait_for_big_blind=True)
        recs += t.play(20)
        return [(*r[:12], r.state.raw_history(), r.placement) for r in recs]

    compiled = run()
    monkeypatch.setattr(table_mod, "_fast", None)
    assert run() == compiled


# ---------------------------------------------------------------------- 3.2: straddle seat
def test_R36_R8_straddle_covers_the_entry_bet_of_its_seat() -> None:
    """Ruling under R36 (RULES.md): a seat that owes an entry bet (or missed
    blinds) and is due to straddle posts the straddle only; the live straddle (two big blinds)
    covers the one-big-blind entry bet, as the big blind covers it for a player who enters in
    the big blind, and settles what the seat owed."""
    covered = 0
    for seed in range(40):
        t = Table(Game(big_blind=2, straddle=True), seats=9, seed=seed)
        call_all(t, [0, 2, 4, 6, 8])
        t.play_hand()
        t.sit(5, "new", 100, CallAgent())
        t.sit(7, "new2", 100, CallAgent())
        for _ in range(6):
            owed = {p.seat for p in t.players if p.owes}
            rec = t.play_hand()  # raised InvalidConfigError before the ruling
            straddler = [s for s, k, _ in rec.posts if k == "straddle"]
            assert len(straddler) == 1
            s = straddler[0]
            assert [k for q, k, _ in rec.posts if q == s] == ["straddle"]
            if s in owed:
                covered += 1
                assert not t.player(t.seats[s].name).owes  # type: ignore[union-attr]
            assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in
    assert covered >= 3


# ---------------------------------------------------------------------- 3.3: the chip limit
def test_sit_and_add_chips_refuse_stacks_above_the_engine_limit() -> None:
    """No stack (and no table total, since one stack may win it all) above 2**53
    chips; the message names the limit; a refused call changes nothing."""
    t = Table(Game(big_blind=2), seats=4, seed=1)
    with pytest.raises(TableError, match=r"above the engine's limit of 2\*\*53"):
        t.sit(0, "a", MAX_CHIPS + 1, CallAgent())
    assert t.players == () and t.bought_in == 0
    t.sit(0, "a", MAX_CHIPS // 2, CallAgent())
    t.sit(1, "b", MAX_CHIPS // 2, CallAgent())
    before = (t.chips_in_play, t.bought_in, t.player("a").stack)
    with pytest.raises(TableError, match=r"2\*\*53 = 9007199254740992"):
        t.add_chips("a", MAX_CHIPS // 2 + 1)  # one stack above the limit
    with pytest.raises(TableError, match=r"chips on the table, above the engine's limit"):
        t.add_chips("a", 1)  # the table total above the limit
    with pytest.raises(TableError, match=r"chips on the table, above the engine's limit"):
        t.sit(2, "c", 20, CallAgent())
    assert (t.chips_in_play, t.bought_in, t.player("a").stack) == before
    assert len(t.players) == 2
    # at the limit the table still deals: every stack stays within it, whoever wins
    for rec in t.play(20):
        assert all(s <= MAX_CHIPS for s in rec.starting_stacks)
    assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in == MAX_CHIPS


def test_tournament_stacks_and_blind_levels_within_the_engine_limit() -> None:
    from holdem import Mode
    t = Table(Game(big_blind=2, mode=Mode.TOURNAMENT), seats=3, seed=1)
    with pytest.raises(TableError, match=r"2\*\*53"):
        t.sit(0, "a", MAX_CHIPS + 1, CallAgent())
    for name in ("small_blind", "big_blind", "ante"):
        values = {"small_blind": 1, "big_blind": 2, "ante": 0, name: MAX_CHIPS + 1}
        if name == "small_blind":
            values["big_blind"] = MAX_CHIPS + 2
        with pytest.raises(InvalidConfigError, match=r"2\*\*53"):
            BlindLevel(**values)


@pytest.mark.parametrize("huge", [10**5000, -10**5000, MAX_CHIPS + 1], ids=["+5000 digits",
                                                                          "-5000 digits",
                                                                          "2**53+1"])
def test_huge_amounts_get_a_table_error_naming_them(huge: int) -> None:
    """Amounts far too large even to print (over 4,300 digits) still get the table's own
    error, never Python's ValueError about printing them; nothing changes."""
    t = Table(Game(big_blind=2), seats=3, seed=1)
    call_all(t, [0])
    before = (t.bought_in, t.player("s0").stack)
    for call in (lambda: t.sit(1, "x", huge, CallAgent()),
                 lambda: t.sit(huge, "x", 20, CallAgent()),
                 lambda: t.add_chips("s0", huge)):
        with pytest.raises(TableError) as err:
            call()
        assert "chips" in str(err.value) or "seat" in str(err.value)
        if abs(huge) > 10**100:
            assert "an int of 16610 bits" in str(err.value)
    for call in (lambda: t.leave(huge), lambda: t.sit(1, huge, 20, CallAgent())):  # type: ignore[arg-type]
        with pytest.raises(TableError, match="player"):
            call()
    assert (t.bought_in, t.player("s0").stack) == before and len(t.players) == 1
    with pytest.raises(InvalidConfigError, match="max_buy_in"):
        Table(Game(big_blind=2), max_buy_in=-abs(huge))
    with pytest.raises(InvalidConfigError, match="big_blind"):
        BlindLevel(1, abs(huge))


# ---------------------------------------------------------------------- the table's own checks
# The table's per-hand steps check what they are given against the hand; what does not match
# raises TableError (a HoldemError), on both of the table's paths: its C steps
# (holdem/table/_loop.pyx, compiled core only) and its Python steps (holdem/table/_steps.py).
TABLE_PATHS = ["compiled steps", "python steps"]


def _on_path(monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    if path == "python steps":
        monkeypatch.setattr(table_mod, "_fast", None)
    elif table_mod._fast is None:
        pytest.skip("HOLDEM_PURE_PYTHON=1: the table runs its Python steps only")


def _snapshot(t: Table) -> tuple[Any, ...]:
    return (t.hand_number, t.bought_in, t.cashed_out, t.rake, t.chips_in_play,
            tuple((p.name, p.stack, p.hands_played) for p in t.players))


@pytest.mark.parametrize("path", TABLE_PATHS)
def test_an_agent_that_empties_the_players_list_gets_a_table_error(
        monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    """An agent that reaches the list of players of the hand (through its caller's frame) and
    empties it: the settlement refuses it with TableError, before any stack changes."""
    _on_path(monkeypatch, path)

    def agent(obs: Any) -> int:
        frame = sys._getframe(1)
        while "players" not in frame.f_locals:
            frame = frame.f_back  # type: ignore[assignment]
        frame.f_locals["players"].clear()
        return 1

    t = Table(Game(big_blind=2), seats=3, seed=1)
    for s in range(3):
        t.sit(s, f"p{s}", 100, agent)
    before = _snapshot(t)
    with pytest.raises(TableError) as err:
        t.play_hand()
    assert str(err.value) == ("players, names and the hand's seats differ in number (0 "
                              "players, 3 names, 3 seats): the players dealt in may not "
                              "change during the hand")
    assert _snapshot(t) == before


class _OddGame(Game):
    """A Game whose ``new_hand`` (the table calls it for hands with extra posts) deals
    something else than the hand it was asked for."""

    deals = "itself"

    def new_hand(self, stacks: Any, **kwargs: Any) -> Any:
        deals = type(self).deals
        if deals == "None":
            return None
        if deals == "a seat more":
            return Game.new_hand(self, [*stacks, 100], **kwargs)
        if deals == "a seat less":
            return Game.new_hand(self, list(stacks)[:-1], **kwargs)
        if deals == "other stacks":
            return Game.new_hand(self, [s + 1 for s in stacks], **kwargs)
        if deals == "stacks it changed":
            stacks[0] += 1000  # the caller's list: the table compares with what it asked for
            return Game.new_hand(self, stacks, **kwargs)
        return Game.new_hand(self, stacks, **kwargs)


@pytest.mark.parametrize("path", TABLE_PATHS)
@pytest.mark.parametrize("deals", ["None", "a seat more", "a seat less", "other stacks",
                                   "stacks it changed"])
def test_a_game_whose_new_hand_deals_another_hand_gets_a_table_error(
        monkeypatch: pytest.MonkeyPatch, path: str, deals: str) -> None:
    """A subclass of Game may deal the table's hands (with extra posts: the entry bet of a
    player coming back); a hand that is not one of the players dealt in with their stacks
    (None, a seat more or less: a bare ValueError or AttributeError before; other stacks:
    chips made or lost) raises TableError naming it; the hand is void, nothing changes."""
    _on_path(monkeypatch, path)
    monkeypatch.setattr(_OddGame, "deals", "itself")
    t = owing_blinds(_OddGame(big_blind=2))  # p3 posts what it owes (new_hand(extra_posts=))
    monkeypatch.setattr(_OddGame, "deals", deals)
    for _ in range(10):  # the hands before p3's are dealt by the core (no extra posts)
        before = _snapshot(t)
        try:
            t.play_hand()
        except TableError as exc:
            assert re.fullmatch(r"_OddGame\.new_hand returned .*: the table needs a HandState "
                                r"of the 5 players dealt in, with their stacks \(\d+(, \d+){4}\)",
                                str(exc)), exc
            break
    else:
        raise AssertionError("no hand with extra posts")
    assert _snapshot(t) == before
    monkeypatch.setattr(_OddGame, "deals", "itself")
    assert len(t.play(3)) == 3  # the table plays on
    assert t.chips_in_play + t.cashed_out + t.rake == t.bought_in


@pytest.mark.parametrize("path", TABLE_PATHS)
def test_the_decision_loop_refuses_players_that_do_not_match_the_hand(
        monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    """The decision loop (``run_hand``: C or Python) checks once that players, seats dealt,
    names and hole cards agree with the hand: TableError, and the hand is not touched."""
    _on_path(monkeypatch, path)
    run = _steps.run_hand_python if path == "python steps" else table_mod._fast.run_hand
    state = Game(big_blind=2).new_hand([100, 100, 100], button=0, seed=1)
    copy = state.clone()
    with pytest.raises(TableError, match=r"^run_hand: the hand has 3 seats but 0 players, 3 "
                       r"seats dealt, 3 names and 3 hole cards were given: one of each per "
                       r"seat$"):
        run(state, [], (0, 1, 2), ("a", "b", "c"), 0, 2, 0, False, None, None)
    assert state == copy


def test_the_compiled_bookkeeping_refuses_seats_that_do_not_match() -> None:
    """The C steps index their arguments without bounds checks: what does not match (seats
    dealt for another hand, a seat the table does not have) raises TableError first."""
    fast = table_mod._fast
    if fast is None:
        pytest.skip("HOLDEM_PURE_PYTHON=1: the table runs its Python steps only")
    state = Game(big_blind=2).new_hand([100, 100, 100], button=0, seed=1)
    with pytest.raises(TableError, match=r"^table_posts: 2 seats dealt but the hand has 3 "
                       r"seats: one table seat per seat of the hand$"):
        fast.table_posts(state, (0, 1))
    players = [Player("a", 0, 100, CallAgent()), Player("b", 1, 100, CallAgent())]
    with pytest.raises(TableError, match=r"^hand_players: seat 5 is dealt in, the table has "
                       r"seats 0\.\.1$"):
        fast.hand_players(players, (0, 5))
    state.fold()
    state.fold()
    with pytest.raises(TableError, match=r"^players, names and the hand's seats differ in "
                       r"number \(2 players, 2 names, 3 seats\)"):
        fast.pay(players, ("a", "b"), state.result)
    assert [p.stack for p in players] == [100, 100] and players[0].hands_played == 0


# The C steps index tuples without bounds checks (release builds), and ``tuple.__new__`` makes
# a NamedTuple (Observation, LegalActions, Action) of any length; a HandState subclass (dealt
# by a Game subclass) may override legal_actions, and an agent may reach the hand in play.
# What does not fit raises, never reads past a tuple: each case runs in a child process, so a
# crash shows as one.
_CHILD_SETUP = """
import gc, sys
from holdem import (Action, ActionType, Game, HandState, LegalActions, Mode, Observation,
                    RandomAgent, Table)
import holdem.table.table as table_mod
if sys.argv[1] == "python steps":
    table_mod._fast = None
"""


def _in_child(path: str, body: str) -> str:
    """Run ``body`` after _CHILD_SETUP in a child process (on the table's ``path``); its
    output, once it has exited normally."""
    import subprocess
    import textwrap

    code = _CHILD_SETUP + textwrap.dedent(body)
    proc = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode >= 0, f"child crashed with signal {-proc.returncode}: {proc.stderr}"
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@pytest.mark.parametrize("path", TABLE_PATHS)
@pytest.mark.parametrize("answer", ["tuple.__new__(Action, ())",
                                    "tuple.__new__(Action, (ActionType.CALL,))",
                                    "tuple.__new__(Action, (ActionType.CALL, None, 5))"])
def test_an_action_made_with_the_wrong_number_of_fields_is_an_agent_error(
        path: str, answer: str) -> None:
    """An agent answering an Action of 0, 1 or 3 fields (made by ``tuple.__new__``): the C
    loop read its fields without a bounds check (a crash); now AgentError, as for any
    answer that is not an action."""
    if path == "compiled steps" and table_mod._fast is None:
        pytest.skip("HOLDEM_PURE_PYTHON=1: the table runs its Python steps only")
    out = _in_child(path, f"""
        from holdem import AgentError
        t = Table(Game(big_blind=2), seats=2, seed=1)
        for s in range(2):
            t.sit(s, f"p{{s}}", 100, lambda obs: {answer})
        try:
            t.play_hand()
        except AgentError as exc:
            print(exc)
    """)
    assert re.fullmatch(r"agent '<lambda>' of player 'p\d' \(seat \d\) answered <malformed "
                        r"Action of ([013]) items: \(.*\)>: not an action: <malformed Action "
                        r"of \1 items: \(.*\)>", out), out


@pytest.mark.parametrize("returns", ["(0, True)", "[0, True, True, 0, True, True, 2, 4]",
                                     "5", "None"])
def test_a_hand_state_whose_legal_actions_is_not_legal_actions_gets_a_table_error(
        returns: str) -> None:
    """A Game subclass deals a HandState subclass whose ``legal_actions()`` returns no
    LegalActions (a short tuple, a list, an int, None): the C loop read its fields without a
    bounds check (a crash); now TableError naming what it returned, the hand void."""
    if table_mod._fast is None:
        pytest.skip("HOLDEM_PURE_PYTHON=1: the table runs its Python steps only")
    out = _in_child("compiled steps", f"""
        from holdem import TableError
        class Odd(HandState):
            __slots__ = ()
            def legal_actions(self):
                return {returns}
        class OddGame(Game):
            def new_hand(self, *args, **kwargs):
                state = super().new_hand(*args, **kwargs)
                state.__class__ = Odd
                return state
        t = Table(OddGame(big_blind=2, mode=Mode.TOURNAMENT), seats=3, seed=1)
        for s in range(3):
            t.sit(s, f"p{{s}}", 100, lambda obs: 1)
        t.sit_out("p2")  # a tournament hand with an absent player: dealt by OddGame.new_hand
        before = [p.stack for p in t.players]
        try:
            t.play_hand()
        except TableError as exc:
            print(exc)
        assert [p.stack for p in t.players] == before
    """)
    what = {"(0, True)": "tuple of 2 items", "5": "int", "None": "NoneType"}.get(returns, "list")
    assert out == (f"Odd.legal_actions() returned {what}: the table needs a LegalActions "
                   f"(8 fields)")


def test_a_hand_replaced_while_it_is_played_gets_a_table_error() -> None:
    """An agent that finds the hand in play (gc) and restores a 10-seat hand into it: the C
    loop indexed the 2 players by the new actor's seat (a crash); now TableError."""
    if table_mod._fast is None:
        pytest.skip("HOLDEM_PURE_PYTHON=1: the table runs its Python steps only")
    out = _in_child("compiled steps", """
        from holdem import TableError
        big = Game(big_blind=2).new_hand([100] * 10, button=0, seed=1)
        big.call()
        other = big._getstate()
        def agent(obs):
            for o in gc.get_objects():
                if type(o) is HandState and o is not big and o.num_players == 2:
                    o._setstate(other)
            return 1
        t = Table(Game(big_blind=2), seats=2, seed=1)
        for s in range(2):
            t.sit(s, f"p{s}", 100, agent)
        try:
            t.play_hand()
        except TableError as exc:
            print(exc)
    """)
    assert re.fullmatch(r"the hand in play now has 10 seats, seat \d to act, but was dealt "
                        r"with 2: a hand may not be replaced while it is played", out), out


@pytest.mark.parametrize("observation", [
    "tuple.__new__(Observation, ())",
    "Observation._make([None] * 13 + [tuple.__new__(LegalActions, ())] + [None] * 4)",
    "Observation._make([None] * 13 + [tuple.__new__(LegalActions, (0, True))] + [None] * 4)"])
def test_random_agent_reads_no_field_an_observation_does_not_have(observation: str) -> None:
    """RandomAgent given an Observation or LegalActions of too few fields (``tuple.__new__``):
    the compiled policy read them without a bounds check (a crash); now IndexError, as the
    Python policy raises (a field that is not there)."""
    out = _in_child("compiled steps", f"""
        try:
            RandomAgent(seed=1).act({observation})
        except IndexError as exc:
            print(exc)
    """)
    assert out == "tuple index out of range"
