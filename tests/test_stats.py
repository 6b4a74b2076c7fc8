"""holdem.stats: each statistic on hands worked out by hand, from states, records, histories."""

from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction
from typing import Any

import pytest

import holdem
from holdem import CallAgent, EquityAgent, Game, RandomAgent, Stats, player_stats, simulate
from holdem.hand.game import HandState
from holdem.history import from_state

NAMES = ("ann", "bob", "cat")


def act(state: HandState, *moves: str) -> None:
    """Apply moves like ``"raise_to 6"``, ``"call"`` in order."""
    for move in moves:
        verb, *amount = move.split()
        getattr(state, verb)(*map(int, amount))


def three_way() -> HandState:
    """Button ann (seat 0), bob small blind 1, cat big blind 2; stacks 200 each.

    Preflop: ann raises to 6 (open), bob re-raises to 18 (a 3-bet), cat folds, ann calls.
    Flop (bob first): bob bets 20 (a c-bet: he made the last preflop raise), ann raises to 60,
    bob calls. Turn and river checked. Showdown: ann's aces beat bob's kings.
    Pot 18 + 18 + 2 (cat's blind) + 60 + 60 = 158: ann +158 - 78 = +80, bob -78, cat -2.
    """
    s = Game(big_blind=2).new_hand([200, 200, 200], button=0,
                                   hole_cards=["AsAh", "KdKc", "7c2d"], board="2c7d9hJsQs")
    act(s, "raise_to 6", "raise_to 18", "fold", "call")
    act(s, "bet 20", "raise_to 60", "call")
    act(s, "check", "check", "check", "check")
    assert s.is_terminal()
    return s


def test_three_way_hand_worked_by_hand() -> None:
    st = Stats()
    st.add(three_way(), NAMES)
    ann, bob, cat = st["ann"], st["bob"], st["cat"]
    assert (ann.hands, bob.hands, cat.hands) == (1, 1, 1)
    # VPIP: ann raised, bob re-raised (both voluntary); cat only posted its blind, then folded
    assert (ann.vpip, bob.vpip, cat.vpip) == (1.0, 1.0, 0.0)
    # PFR: ann and bob raised preflop
    assert (ann.pfr, bob.pfr, cat.pfr) == (1.0, 1.0, 0.0)
    # 3-bet: bob acted facing exactly one raise (ann's) and re-raised: 1 chance, 1 3-bet.
    # cat acted facing two raises (no 3-bet chance); ann acted first (no raise yet).
    assert (bob.three_bet_chances, bob.three_bets) == (1, 1)
    assert ann.three_bet_chances == cat.three_bet_chances == 0
    assert ann.three_bet is None and bob.three_bet == 1.0
    # fold to 3-bet: ann made the first raise and faced bob's 3-bet: 1 chance, she called
    assert (ann.fold_to_three_bet_chances, ann.folds_to_three_bet) == (1, 0)
    assert ann.fold_to_three_bet == 0.0 and bob.fold_to_three_bet is None
    # c-bet: bob made the last preflop raise and was first to act on the flop: he bet
    assert (bob.cbet_chances, bob.cbets, bob.cbet) == (1, 1, 1.0)
    assert ann.cbet_chances == 0
    # aggression factor after the flop: bob bet once and called once -> 1/1;
    # ann raised once and never called after the flop -> infinite; cat never acted -> None
    assert bob.aggression_factor == 1.0
    assert ann.aggression_factor == math.inf and cat.aggression_factor is None
    # WTSD: ann and bob saw the flop and reached the showdown; cat did not see the flop.
    # W$SD: ann won chips at the showdown, bob did not.
    assert (ann.saw_flop, ann.showdowns, ann.wtsd, ann.wsd) == (1, 1, 1.0, 1.0)
    assert (bob.wtsd, bob.wsd) == (1.0, 0.0)
    assert (cat.saw_flop, cat.wtsd, cat.wsd) == (0, None, None)
    # net and bb/100 (big blind 2): ann +80 = +40 bb in one hand = +4000 bb/100
    assert (ann.net, bob.net, cat.net) == (80, -78, -2)
    assert ann.bb_per_100 == 4000.0 and cat.bb_per_100 == -100.0
    assert ann.ci95 == 0.0  # one hand: no interval
    # the betting ended on the river: no all-in adjustment, adjusted = actual
    assert ann.allin_hands == 0 and ann.allin_adjusted == 80.0


def heads_up_allin_on_flop() -> HandState:
    """Heads-up: ann (button, seat 0) posts the small blind 1, bob the big blind 2; 200 each.

    ann raises to 6, bob calls (a 3-bet chance he did not take). Flop 2c7d9h: bob bets 10
    first (a "donk" bet: ann, the preflop raiser, gets no c-bet chance), ann moves all in,
    bob calls. Turn Ks, river 3c: bob's set of kings beats ann's aces.

    All-in adjusted: on 2c7d9h, 45 cards are left, C(45,2) = 990 turn-river pairs. No
    straight, flush or tie is possible for either hand. KdKc wins when a king comes (Ks or
    Kh): 990 - C(43,2) = 990 - 903 = 87 pairs, except the 2 x 2 = 4 pairs of a king and an
    ace (Ad, Ac), where aces make a higher set: 83 pairs. So AsAh wins 907/990. The pot is 400:
    ann's expected net is 400 * 907/990 - 200 = +166.46 and bob's 400 * 83/990 - 200 =
    -166.46, where the board gave ann -200 and bob +200.
    """
    s = Game(big_blind=2).new_hand([200, 200], button=0, hole_cards=["AsAh", "KdKc"],
                                   board="2c7d9hKs3c")
    act(s, "raise_to 6", "call")
    act(s, "bet 10", "all_in", "call")
    assert s.is_terminal()
    return s


def test_allin_adjusted_and_donk_bet_worked_by_hand() -> None:
    st = Stats()
    st.add(heads_up_allin_on_flop(), ("ann", "bob"))
    ann, bob = st["ann"], st["bob"]
    assert (ann.net, bob.net) == (-200, 200)
    assert ann.allin_hands == bob.allin_hands == 1
    assert ann.allin_adjusted == pytest.approx(400 * 907 / 990 - 200)
    assert bob.allin_adjusted == pytest.approx(400 * 83 / 990 - 200)
    assert ann.allin_adjusted_bb_per_100 == pytest.approx(100 * (400 * 907 / 990 - 200) / 2)
    assert (bob.three_bet_chances, bob.three_bets, bob.vpip) == (1, 0, 1.0)
    assert ann.cbet_chances == 0  # bob bet the flop before ann could
    assert (ann.aggression_factor, bob.aggression_factor) == (math.inf, 1.0)  # bob: bet, call
    assert (ann.wtsd, ann.wsd, bob.wsd) == (1.0, 0.0, 1.0)
    off = Stats(allin_adjusted=False)
    off.add(heads_up_allin_on_flop(), ("ann", "bob"))
    assert off["ann"].allin_adjusted is None and off["ann"].allin_adjusted_bb_per_100 is None


def test_fold_to_three_bet_and_walks_worked_by_hand() -> None:
    st = Stats()
    # ann opens to 6, bob 3-bets to 20, ann folds: ann 1 chance, 1 fold; bob 1 3-bet of 1
    s = Game(big_blind=2).new_hand([200, 200], button=0)
    act(s, "raise_to 6", "raise_to 20", "fold")
    st.add(s, ("ann", "bob"))
    # a walk: ann (button, small blind) folds, bob wins the blind without acting
    w = Game(big_blind=2).new_hand([200, 200], button=0)
    w.fold()
    st.add(w, ("ann", "bob"))
    ann, bob = st["ann"], st["bob"]
    assert (ann.fold_to_three_bet_chances, ann.folds_to_three_bet) == (1, 1)
    assert (bob.three_bet_chances, bob.three_bets) == (1, 1)
    # two hands each: ann put money in voluntarily in one (the open): VPIP 1/2, PFR 1/2;
    # bob raised in one and never acted in the other: VPIP 1/2
    assert (ann.vpip, ann.pfr, bob.vpip, bob.pfr) == (0.5, 0.5, 0.5, 0.5)
    # nobody saw a flop: WTSD undefined; results -6 and -1 for ann = -3.5 bb in 2 hands
    assert ann.wtsd is None and ann.net == -7 and ann.bb_per_100 == -175.0
    # interval over per-hand results in bb, -3 and -0.5: mean -1.75, sample variance
    # ((-1.25)^2 + 1.25^2) / 1 = 3.125; half-width 1.96 * sqrt(3.125 / 2) * 100
    assert ann.ci95 == pytest.approx(1.959963984540054 * math.sqrt(3.125 / 2) * 100)


def test_histories_records_and_states_give_the_same_statistics() -> None:
    hands = [three_way(), three_way()]
    from_states = Stats()
    for h in hands:
        from_states.add(h, NAMES)
    histories = [from_state(h, players=list(NAMES)) for h in hands]
    assert player_stats(histories) == from_states
    table = holdem.Table(Game(big_blind=2), seats=3, seed=5)
    for seat, agent in enumerate([CallAgent(), RandomAgent(seed=2), EquityAgent(seed=3,
                                                                                samples=2)]):
        table.sit(seat, NAMES[seat], 1000, agent)
    records = table.play(40)
    by_record = player_stats(records)
    by_state = Stats()
    for rec in records:
        by_state.add(rec.state, rec.names)
    assert by_record == by_state
    assert sum(p.net for p in by_record.values()) + sum(r.rake for r in records) == 0
    assert "VPIP" in str(by_record) and "ann" in str(by_record)


def test_simulate_collects_the_same_statistics_on_any_executor() -> None:
    agents = (CallAgent(), RandomAgent(seed=1), EquityAgent(seed=3, samples=2))
    serial = simulate(agents, Game(big_blind=2), hands=90, seed=3, chunk_hands=30,
                      executor="serial", stats=True)
    assert serial.stats is not None
    assert [p.hands for p in serial.stats] == [90, 90, 90]
    assert [p.net for p in serial.stats] == [r.chips for r in serial.players]
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert simulate(agents, Game(big_blind=2), hands=90, seed=3, chunk_hands=30,
                        executor=pool, stats=True) == serial
    # the same numbers as playing the hands at a table and reading the records
    assert serial.stats[0].pfr == 0.0 and serial.stats[1].pfr is not None


def test_stats_errors() -> None:
    with pytest.raises(holdem.InvalidConfigError, match="HandRecord"):
        Stats([42])
    s = Game(big_blind=2).new_hand([200, 200], button=0)
    with pytest.raises(holdem.InvalidConfigError, match="finished"):
        Stats().add(s, ("a", "b"))


def test_allin_samples_estimate_preflop_allins_reproducibly() -> None:
    # heads-up all in preflop: AsAh against KdKc, 81.26% for the aces over all 1,712,304
    # boards (holdem equity AsAh KdKc); ann expects 400 * 0.8126 - 200 = +125.0
    def hand() -> HandState:
        s = Game(big_blind=2).new_hand([200, 200], button=0, hole_cards=["AsAh", "KdKc"],
                                       board="2c7d9hKs3c")
        act(s, "all_in", "call")
        return s

    exact = Stats()
    exact.add(hand(), ("ann", "bob"))
    sampled = Stats(allin_samples=4000)
    sampled.add(hand(), ("ann", "bob"))
    again = Stats(allin_samples=4000)
    again.add(hand(), ("ann", "bob"))
    ev = exact["ann"].allin_adjusted
    assert ev is not None and ev == pytest.approx(400 * 0.812555 - 200, abs=0.5)
    assert sampled["ann"].allin_adjusted == pytest.approx(ev, abs=400 * 0.02)
    assert again == sampled
    # as many samples as boards, or more: every board once, exactly (10**14 samples ran for
    # about 1,000 hours to estimate what 1,712,304 boards give exactly)
    for n in (1_712_304, 10**14):
        every = Stats(allin_samples=n)
        every.add(hand(), ("ann", "bob"))
        assert every["ann"].allin_adjusted == ev
    fewer = Stats(allin_samples=1_712_303)  # one board fewer: sampled (a seeded estimate)
    fewer.add(hand(), ("ann", "bob"))
    assert fewer["ann"].allin_adjusted != ev
    assert fewer["ann"].allin_adjusted == pytest.approx(ev, abs=1)
    with pytest.raises(holdem.InvalidConfigError, match="allin_samples"):
        Stats(allin_samples=0)


@pytest.mark.parametrize("option", ["allin_adjusted", "curves", "starting_hands"])
@pytest.mark.parametrize("value", ["no", 0, 1, None])
def test_options_must_be_bools(option: str, value: object) -> None:
    # "no" is truthy: it would switch the option on (and the Stats would not load back
    # from its pickle, which checks for a bool)
    with pytest.raises(holdem.InvalidConfigError, match=f"{option} must be True or False"):
        Stats(**{option: value})  # type: ignore[arg-type]


def test_merge_with_itself_doubles_every_count() -> None:
    # it used to extend the curve it was reading, until memory ran out
    st = Stats(curves=True, allin_adjusted=False)
    st.add(three_way(), NAMES)
    once = {name: st[name] for name in NAMES}
    st.merge(st)
    for name in NAMES:
        assert st[name].hands == 2 * once[name].hands == 2
        assert st[name].net == 2 * once[name].net
    assert st.curves is not None and st.curves["ann"] == [40.0, 80.0]  # big blinds
    with pytest.raises(holdem.InvalidConfigError, match="another Stats"):
        st.merge([st])  # type: ignore[arg-type]


@pytest.mark.parametrize(("names", "message"), [
    (("ann", "bob"), "one name per seat: 3"),
    (("ann", "bob", "cat", "dan"), "one name per seat: 3"),
    ("abc", "one name per seat"),
    (("ann", "bob", "ann"), "distinct: 'ann' sits in seats 0 and 2"),
    (("ann", 7, "cat"), r"names\[1\] must be a str"),
    # other types: a bare TypeError (no len) or IndexError that did not name ``names``
    (5, "names must be a tuple or list"),
    ({"ann": 0, "bob": 1, "cat": 2}, "names must be a tuple or list"),
    ((n for n in ("ann", "bob", "cat")), "names must be a tuple or list"),
    ({"ann", "bob", "cat"}, "names must be a tuple or list"),
])
def test_names_must_match_the_seats(names: object, message: str) -> None:
    # too few names silently dropped a seat, too many raised IndexError, and a repeated name
    # counted one player twice in a hand
    st = Stats()
    with pytest.raises(holdem.InvalidConfigError, match=message):
        st.add(three_way(), names)  # type: ignore[arg-type]
    assert len(st) == 0 and list(st) == []  # nothing counted
    with pytest.raises(holdem.InvalidConfigError, match="names must be a tuple or list"):
        st.add_state(three_way(), None)  # type: ignore[arg-type]


def test_names_of_a_str_subclass_are_read_as_plain_str() -> None:
    """A str subclass whose __hash__ fails stopped add_state halfway: the seats before it
    were counted, the rest not; one whose __eq__ lies counted one name as two players."""

    class NoHash(str):
        def __hash__(self) -> int:
            raise RuntimeError("no hash")

    class NeverEqual(str):
        def __eq__(self, other: object) -> bool:
            return False

        __hash__ = str.__hash__

    st = Stats()
    st.add(three_way(), ("ann", "bob", NoHash("cat")))
    assert {name: st[name].hands for name in st} == {"ann": 1, "bob": 1, "cat": 1}
    assert all(type(name) is str for name in st)
    with pytest.raises(holdem.InvalidConfigError, match="distinct: 'ann' sits in seats 0 and 1"):
        st.add(three_way(), (NeverEqual("ann"), NeverEqual("ann"), "cat"))
    assert {name: st[name].hands for name in st} == {"ann": 1, "bob": 1, "cat": 1}


def test_names_are_refused_for_a_record_or_a_history() -> None:
    # they were ignored: the record's (or the file's) own names were counted
    table = holdem.Table(Game(big_blind=2), seats=3, seed=1)
    for seat, name in enumerate(NAMES):
        table.sit(seat, name, 200, CallAgent())
    record = table.play_hand()
    st = Stats()
    with pytest.raises(holdem.InvalidConfigError, match="names are for a HandState"):
        st.add(record, ("x", "y", "z"))
    with pytest.raises(holdem.InvalidConfigError, match="names are for a HandState"):
        st.add(from_state(record.state), ("x", "y", "z"))
    assert len(st) == 0
    st.add(record)
    assert sorted(st) == sorted(NAMES)


def test_the_table_has_no_interval_for_a_single_hand() -> None:
    # a player seen in one hand showed "+/- 0.0": an interval of width 0, not "unknown"
    st = Stats()
    st.add(three_way(), NAMES)
    rows = holdem.stats.format_table(st.values()).splitlines()
    assert all("+/- n/a" in row for row in rows[1:]) and "+/- 0.0" not in rows[0]
    st.add(three_way(), NAMES)
    assert "+/- n/a" not in holdem.stats.format_table(st.values())


def test_pickles_round_trip_and_corrupt_ones_are_refused() -> None:
    # __setstate__ took any dict: str() of the restored object raised IndexError later
    import pickle

    st = Stats(curves=True, starting_hands=True)
    st.add(three_way(), NAMES)
    again = pickle.loads(pickle.dumps(st))
    assert str(again) == str(st) and again.curves == st.curves
    state = st.__getstate__()
    bad_states: list[object] = [
        5, {}, dict(state, ints={"ann": [1, 2]}), dict(state, allin_samples=0),
        dict(state, floats={}), dict(state, curves={"ann": ["x"]}),
        dict(state, starting_hands={"ann": {"AA": [1]}}), dict(state, money={"zed": 1}),
    ]

    def edited(part: str, name: str, index: int, value: object) -> dict[str, Any]:
        rows = {k: list(v) for k, v in state[part].items()}
        rows[name][index] = value
        return dict(state, **{part: rows})

    name = NAMES[0]
    hands = state["ints"][name][0]
    # values of the right type out of range: they loaded, then a table or a repr raised a
    # plain ValueError or OverflowError, or counted -4 hands (found by a review)
    bad_states += [edited("ints", name, 0, -5), edited("ints", name, 1, hands + 1),
                   edited("ints", name, 0, 10**5000), edited("ints", name, 14, 10**100),
                   edited("floats", name, 4, float("nan")), edited("floats", name, 0, float("inf")),
                   edited("floats", name, 4, 0.5), edited("floats", name, 4, float(hands + 1)),
                   dict(state, curves={k: [float("nan")] for k in state["curves"]}),
                   dict(state, money={name: Fraction(1, 2**300)})]
    for bad in bad_states:
        fresh = Stats.__new__(Stats)
        with pytest.raises(holdem.InvalidStateError, match="not a valid pickled Stats"):
            fresh.__setstate__(bad)  # type: ignore[arg-type]
    fresh = Stats.__new__(Stats)
    fresh.__setstate__(edited("ints", name, 14, -10**30))  # a net loss in range
    assert fresh[name].hands == hands
    fresh.__setstate__(edited("ints", name, 9, 5 * hands + 3))  # bets and raises: not hands
    assert fresh[name].hands == hands


def test_a_dead_hand_does_not_see_the_flop() -> None:
    """A dead hand (TDA 30: a tournament player sitting out) is folded without an action of
    its own: it was counted as having seen the flop (and not reached the showdown), so its
    WTSD was 0 where it had no chance to go."""
    h = Game(big_blind=2).new_hand([200] * 4, button=0, hole_cards=["AsAh", "7c2d", "KsKh",
                                                                     "QdQc"],
                                   board="Ad9c5h2s3c", dead_hands=[3])
    while not h.is_terminal():
        h.apply(1)
    st = Stats()
    st.add(h)
    assert (st["seat3"].saw_flop, st["seat3"].showdowns, st["seat3"].wtsd) == (0, 0, None)
    assert (st["seat0"].saw_flop, st["seat0"].wtsd) == (1, 1.0)


def test_stand_in_cards_are_not_counted_as_a_starting_hand() -> None:
    """A player whose cards are unknown and who mucks at the showdown is played by stand-in
    cards (Replay.stand_ins): they were counted in the starting-hand grid as the player's."""
    from holdem.phh import loads

    hh = loads("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
               "starting_stacks = [100, 100]\nplayers = ['Ana', 'Boris']\n"
               "actions = ['d dh p1 AsAh', 'd dh p2 ????', 'p2 cc', 'p1 cc', 'd db Jd8d2c',\n"
               "           'p1 cc', 'p2 cc', 'd db 3h', 'p1 cc', 'p2 cc', 'd db Qs', 'p1 cc',\n"
               "           'p2 cc', 'p1 sm AsAh', 'p2 sm']\n")
    st = Stats([hh], starting_hands=True)
    assert st.starting_hands == {"Ana": {"AA": [1, 0]}}
    assert st["Boris"].hands == 1  # the hand itself counts


def test_allin_adjusted_is_in_the_hands_units_as_net() -> None:
    """A history in dollars and cents is played in cents: ``net`` came out in dollars and
    ``allin_adjusted`` in cents (100 times too large)."""
    s = heads_up_allin_on_flop()
    st = Stats()
    st.add_state(s, ("ann", "bob"), unit=Fraction(1, 100))
    assert st["ann"].net == pytest.approx(-2.0)
    assert st["ann"].allin_adjusted == pytest.approx((400 * 907 / 990 - 200) / 100)
    plain = three_way()
    st.add_state(plain, NAMES, unit=Fraction(1, 100))  # no all-in: adjusted == net
    assert st["cat"].allin_adjusted == pytest.approx(st["cat"].net) == pytest.approx(-0.02)


@pytest.mark.parametrize("options", [{"allin_adjusted": False}, {"curves": True},
                                     {"starting_hands": True}])
def test_merge_refuses_stats_kept_with_other_options(options: dict[str, bool]) -> None:
    """Merging Stats of other options mixed all-in adjusted and plain winnings, left curves
    shorter than the hands and grids without some hands; it is refused, naming both."""
    a, b = Stats(), Stats(**options)
    a.add(three_way(), NAMES)
    b.add(heads_up_allin_on_flop(), ("ann", "bob"))
    with pytest.raises(holdem.InvalidConfigError, match="merge takes Stats kept with the same "
                                                        "options"):
        a.merge(b)
    assert a["ann"].hands == 1  # unchanged
    same = Stats(allin_samples=1000)  # samples may differ: both estimate the same thing
    same.add(heads_up_allin_on_flop(), ("ann", "bob"))
    a.merge(same)
    assert a["ann"].hands == 2


def test_a_history_whose_final_stacks_differ_is_refused() -> None:
    """A hand history whose finishing stacks are not what the rules give (the replay's
    MISMATCH) was counted with the engine's numbers without a word: the statistics then
    said the opposite of the file. Refused now; an odd chip the file splits finer than R32
    (the Pluribus files' half chips) is not an error."""
    from holdem import InvalidHistoryError
    from holdem.phh import loads

    text = ("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            "starting_stacks = [100, 100]\nplayers = ['Ana', 'Boris']\n"
            "actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 6', 'p1 f']\n")
    assert Stats([loads(text + "finishing_stacks = [98, 102]\n")])["Boris"].net == 2
    with pytest.raises(InvalidHistoryError, match="final stacks differ"):
        Stats([loads(text + "finishing_stacks = [102, 98]\n")])


@pytest.mark.parametrize("unknown", [5, "01", {7}, [-1], [1.0], None, {0: 1}.keys() | {True}])
def test_unknown_seats_must_be_seats_of_the_hand(unknown: object) -> None:
    """``add_state(unknown=...)``: seats whose cards are stand-ins. Anything but a collection
    of this hand's seats is refused by name (``5`` raised TypeError in the grid count)."""
    st = Stats(starting_hands=True)
    with pytest.raises(holdem.InvalidConfigError, match=r"unknown must be a collection of "
                                                        r"seats 0\.\.2"):
        st.add_state(three_way(), NAMES, unknown=unknown)  # type: ignore[arg-type]
    assert len(st) == 0
    st.add_state(three_way(), NAMES, unknown=frozenset({1}))
    assert set(st.starting_hands or {}) == {"ann", "cat"}


def _enumerated_win_shares(hands: list[str], board: str, dead: str = "") -> list[float]:
    """Each hand's share of the pot over every remaining board (ties split; no ``dead`` card
    on it), counted with holdem.evaluate alone: the definition of the all-in equity,
    independent of holdem.stats."""
    from itertools import combinations

    holes = [holdem.parse_cards(h) for h in hands]
    known = holdem.parse_cards(board) if board else ()
    used = {c for h in holes for c in h} | set(known) | set(holdem.parse_cards(dead))
    rest = [c for c in holdem.CARDS if c not in used]
    shares = [0.0] * len(hands)
    boards = 0
    for more in combinations(rest, 5 - len(known)):
        ranks = [holdem.evaluate([*h, *known, *more]) for h in holes]
        best = max(ranks)
        winners = [i for i, r in enumerate(ranks) if r == best]
        for i in winners:
            shares[i] += 1 / len(winners)
        boards += 1
    return [s / boards for s in shares]


def test_allin_where_the_other_player_covers_is_adjusted() -> None:
    """PlayerStats: "every hand that was all in before the river with the cards known pays
    its expected value". Only one player needs to be all in: bob (400) covers ann (200),
    moves all in on the flop and ann calls her last chips; bob keeps 200 behind (they come
    back to him) and the 400-chip pot is shared by the equities on the flop 2c7d9h."""
    s = Game(big_blind=2).new_hand([200, 400], button=0, hole_cards=["AsAh", "KdKc"],
                                   board="2c7d9hKs3c")
    act(s, "raise_to 6", "call", "all_in", "call")
    assert s.is_terminal()
    st = Stats()
    st.add(s, ("ann", "bob"))
    ann, bob = st["ann"], st["bob"]
    assert (ann.net, bob.net) == (-200, 200)  # bob's kings made a set on the turn
    assert ann.allin_hands == bob.allin_hands == 1
    # 907 of the 990 turn-river pairs win for the aces (see heads_up_allin_on_flop)
    ann_eq, bob_eq = _enumerated_win_shares(["AsAh", "KdKc"], "2c7d9h")
    assert ann_eq == pytest.approx(907 / 990) and bob_eq == pytest.approx(83 / 990)
    assert ann.allin_adjusted == pytest.approx(400 * ann_eq - 200)
    assert bob.allin_adjusted == pytest.approx(400 * bob_eq - 200)


def test_side_pot_equity_leaves_out_the_cards_of_the_player_all_in_for_less() -> None:
    """PlayerStats: each pot is "shared by the eligible players' equities over the remaining
    board, ... the hands of the players all in for less out of the deck". ann (20 chips) is
    all in on the flop 7s6d2s with AsKs, bob and cat (100 each) with AhAd and 9s8s: the side
    pot of 160 is bob's and cat's, and ann's two spades cannot come, so cat has seven flush
    cards left, not nine (counting them gave cat about 5 chips too many)."""
    s = Game(big_blind=2).new_hand([20, 100, 100], button=0,
                                   hole_cards=["AsKs", "AhAd", "9s8s"], board="7s6d2sTc3h")
    act(s, "call", "call", "check")  # preflop: 2 each
    act(s, "all_in", "call", "call")  # flop: bob all in (98), cat calls, ann calls her 18
    assert s.is_terminal()
    assert [(p.amount, p.eligible) for p in s.result.pots] == [(60, (0, 1, 2)), (160, (1, 2))]
    st = Stats()
    st.add(s, ("ann", "bob", "cat"))
    main = _enumerated_win_shares(["AsKs", "AhAd", "9s8s"], "7s6d2s")
    side = _enumerated_win_shares(["AhAd", "9s8s"], "7s6d2s", dead="AsKs")
    blind = _enumerated_win_shares(["AhAd", "9s8s"], "7s6d2s")  # ann's cards in the deck
    assert abs(side[1] - blind[1]) * 160 > 4.5  # the dead cards matter here
    assert st["ann"].allin_hands == st["bob"].allin_hands == 1
    assert st["ann"].allin_adjusted == pytest.approx(60 * main[0] - 20)
    assert st["bob"].allin_adjusted == pytest.approx(60 * main[1] + 160 * side[0] - 100)
    assert st["cat"].allin_adjusted == pytest.approx(60 * main[2] + 160 * side[1] - 100)


def test_a_river_allin_is_not_an_allin_hand() -> None:
    """PlayerStats: the adjustment applies to hands "all in before the river"; all in on the
    river, every card is out and there is nothing to adjust: it is not counted in
    ``allin_hands`` and the adjusted winnings are the actual ones."""
    s = Game(big_blind=2).new_hand([200, 200], button=0, hole_cards=["AsAh", "KdKc"],
                                   board="2c7d9h3sKs")
    act(s, "call", "check")  # preflop: ann completes, bob checks
    act(s, "check", "check", "check", "check")  # flop, turn
    act(s, "all_in", "call")  # river: bob moves all in, ann calls
    assert s.is_terminal()
    st = Stats()
    st.add(s, ("ann", "bob"))
    ann, bob = st["ann"], st["bob"]
    assert (ann.net, bob.net) == (-200, 200)
    assert ann.allin_hands == bob.allin_hands == 0
    assert (ann.allin_adjusted, bob.allin_adjusted) == (-200, 200)


def test_a_turn_allin_is_valued_from_the_turn_board() -> None:
    """PlayerStats: an all-in hand pays "each pot shared by the eligible players' equities
    over the remaining board": all in on the turn, the remaining board is the river card
    alone, drawn to the four cards 2c7d9h3s. Of the 44 rivers only Ks and Kh win for
    KdKc (no straight, flush or tie is possible): ann's aces win 42/44 of the 400 pot (the
    flop's equity, 907/990, would be wrong here)."""
    s = Game(big_blind=2).new_hand([200, 200], button=0, hole_cards=["AsAh", "KdKc"],
                                   board="2c7d9h3sKs")
    act(s, "call", "check")
    act(s, "check", "check")  # flop
    act(s, "all_in", "call")  # turn: bob moves all in, ann calls
    assert s.is_terminal()
    st = Stats()
    st.add(s, ("ann", "bob"))
    ann_eq, bob_eq = _enumerated_win_shares(["AsAh", "KdKc"], "2c7d9h3s")
    assert (ann_eq, bob_eq) == (pytest.approx(42 / 44), pytest.approx(2 / 44))
    assert st["ann"].allin_hands == 1
    assert st["ann"].allin_adjusted == pytest.approx(400 * ann_eq - 200)
    assert st["bob"].allin_adjusted == pytest.approx(400 * bob_eq - 200)


def test_allin_samples_leave_flop_and_turn_allins_exact() -> None:
    """Stats: "``allin_samples=N`` estimates preflop all-ins from N boards instead"; after
    the flop the remaining boards are few and are enumerated exactly whatever N is. With a
    single sampled board the estimate would be +200 or -200; the exact value is
    400 * 907/990 - 200."""
    st = Stats(allin_samples=1)
    st.add(heads_up_allin_on_flop(), ("ann", "bob"))
    ann_eq, _ = _enumerated_win_shares(["AsAh", "KdKc"], "2c7d9h")
    assert st["ann"].allin_hands == 1
    assert st["ann"].allin_adjusted == pytest.approx(400 * ann_eq - 200)
    assert st["ann"].allin_adjusted == pytest.approx(400 * 907 / 990 - 200)


def test_allin_adjusted_bb_per_100_counts_big_blinds_for_hands_not_all_in() -> None:
    """PlayerStats: ``allin_adjusted_bb_per_100`` is "the same winnings" as ``bb_per_100``
    (big blinds per 100 hands) with all-in hands at their expected value; a hand that was not
    all in counts what it won, in big blinds. In three_way (big blind 2), nobody is all in:
    ann +80 chips = +40 bb, bob -39 bb, cat -1 bb in one hand."""
    st = Stats()
    st.add(three_way(), NAMES)
    for name, bb in (("ann", 40), ("bob", -39), ("cat", -1)):
        p = st[name]
        assert p.allin_hands == 0
        assert p.bb_per_100 == pytest.approx(100 * bb)
        assert p.allin_adjusted_bb_per_100 == pytest.approx(100 * bb)


def test_a_hand_that_ends_on_the_flop_was_seen_on_the_flop() -> None:
    """PlayerStats ``wtsd``: "share of the hands where the player saw the flop that it took to
    the showdown". ann raises, bob calls, bob bets the flop and ann folds: both saw the flop
    (the hand ended on it), neither went to the showdown: WTSD 0/1 for each, not undefined."""
    s = Game(big_blind=2).new_hand([200, 200], button=0)
    act(s, "raise_to 6", "call", "bet 10", "fold")
    assert s.is_terminal()
    st = Stats()
    st.add(s, ("ann", "bob"))
    for name in ("ann", "bob"):
        p = st[name]
        assert (p.saw_flop, p.showdowns, p.wtsd, p.wsd) == (1, 0, 0.0, None)


def test_merge_adds_the_starting_hands_played_counts() -> None:
    """Stats ``starting_hands``: per class, [hands dealt with known cards, of which played
    voluntarily (VPIP)]; ``merge`` (what simulate(stats=True) does with its chunks) adds both
    counts. Hand 1: ann folds AsAh preflop (dealt, not played), bob's 7c2d wins without
    acting (dealt, not played). Hand 2 (three_way): ann raises AsAh, bob 3-bets KdKc (both
    played), cat folds 7c2d from the big blind (not played)."""
    fold = Game(big_blind=2).new_hand([200, 200], button=0, hole_cards=["AsAh", "7c2d"])
    fold.fold()
    first = Stats(starting_hands=True)
    first.add(fold, ("ann", "bob"))
    second = Stats(starting_hands=True)
    second.add(three_way(), NAMES)
    merged = Stats(starting_hands=True)
    merged.merge(first)
    merged.merge(second)
    assert merged.starting_hands == {
        "ann": {"AA": [2, 1]},
        "bob": {"72o": [1, 0], "KK": [1, 1]},
        "cat": {"72o": [1, 0]},
    }
    together = Stats(starting_hands=True)  # the same hands added to one Stats
    together.add(fold, ("ann", "bob"))
    together.add(three_way(), NAMES)
    assert together.starting_hands == merged.starting_hands


def test_pickled_starting_hands_and_curves_no_stats_make_are_refused() -> None:
    """The starting hands and curves of a pickle were checked for their types only: a class
    that is none ('ZZz'), more hands played than dealt ([1, 5]: a VPIP of 500% in the
    charts) or a curve point of 1e17 big blinds after one hand loaded. Refused: what
    ``Stats`` can never count."""
    import pickle

    st = Stats(curves=True, starting_hands=True)
    for _ in range(3):
        st.add(three_way(), NAMES)
    state = st.__getstate__()
    assert pickle.loads(pickle.dumps(st)).starting_hands == st.starting_hands
    ann = state["starting_hands"]["ann"]
    assert ann == {"AA": [3, 3]} and state["ints"]["ann"][0] == 3

    def classes(**rows: list[int]) -> dict[str, Any]:
        return dict(state, starting_hands={**state["starting_hands"], "ann": {**ann, **rows}})

    def curve(points: list[float]) -> dict[str, Any]:
        return dict(state, curves={**state["curves"], "ann": points})

    bad_states = [
        (classes(ZZz=[1, 0]), "per hand class"), (classes(AKs=[1, 5]), "played 0..dealt"),
        (classes(KAs=[0, 0]), "per hand class"), (classes(AA=[3, -1]), "played 0..dealt"),
        (classes(AA=[True, 0]), "per hand class"),
        (classes(AA=[4, 3]), "count more hands"),  # 4 dealt in 3 hands
        (classes(KK=[3, 3], AA=[3, 3]), "count more hands"),  # 6 dealt in 3 hands
        (curve([1e17, 80.0, 120.0]), "curve of 'ann'"),  # beyond every chip of a hand
        (curve([40.0, 80.0]), "curve of 'ann'"), (curve([]), "curve of 'ann'"),
    ]
    for bad, what in bad_states:
        fresh = Stats.__new__(Stats)
        with pytest.raises(holdem.InvalidStateError, match=f"not a valid pickled Stats: .*"
                                                           f"{what}"):
            fresh.__setstate__(bad)
    fresh = Stats.__new__(Stats)  # the most a hand can win (every chip), hand after hand
    fresh.__setstate__(curve([10.0 * 2**53, 20.0 * 2**53, 30.0 * 2**53]))
    assert fresh.curves is not None and fresh.curves["ann"][2] == 30.0 * 2**53


class _BlankStats:
    """Pickles as Stats made without their state (copyreg's reconstructor, no state)."""

    def __reduce__(self) -> tuple[Any, ...]:
        import copyreg

        return (copyreg._reconstructor, (Stats, object, None))  # type: ignore[attr-defined]


@pytest.mark.parametrize("made", ["unpickled", "__new__"])
def test_stats_made_without_their_state_say_so_in_their_repr(made: str) -> None:
    """Stats unpickled without their state (or made by ``Stats.__new__``) raised
    AttributeError from their repr: it says they hold no state."""
    import pickle

    blank = pickle.loads(pickle.dumps(_BlankStats())) if made == "unpickled" else \
        Stats.__new__(Stats)
    assert repr(blank) == "<Stats with no state>"


def test_allin_hands_count_on_past_2_53() -> None:
    """A long run: the all-in adjusted hands were counted in a float, which stops at 2**53
    (adding 1 rounds back), while the hands they are a share of count on to 2**62 (what a
    pickled Stats may hold). A Stats restored at 2**53 of them must go on counting, exactly;
    a pickle made before (the count as a whole float) still loads, as an int."""
    import copy
    import pickle

    st = Stats()
    st.add(heads_up_allin_on_flop(), ("ann", "bob"))
    state = copy.deepcopy(st.__getstate__())  # (the state is the Stats' own lists)
    big = 2**53
    for name in ("ann", "bob"):
        state["ints"][name][0] = big + 10  # hands
        state["floats"][name][4] = float(big)  # as a pickle made before held it
    long_run = Stats.__new__(Stats)
    long_run.__setstate__(state)
    assert long_run["ann"].allin_hands == big
    long_run.add(heads_up_allin_on_flop(), ("ann", "bob"))
    long_run.merge(st)
    assert long_run["ann"].allin_hands == long_run["bob"].allin_hands == big + 2
    again = pickle.loads(pickle.dumps(long_run))
    again.add(heads_up_allin_on_flop(), ("ann", "bob"))
    assert again["ann"].allin_hands == big + 3 and again["ann"].hands == big + 13
