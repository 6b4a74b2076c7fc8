"""Bad-input suite: PHH text (holdem.phh loads/loads_all, HistoryAction, replay) and LiveHand
(construction, actions, dealer-error events, clone/replay). See tests/badinput.py for the
contract and how each property runs in a child process."""

from __future__ import annotations

import datetime
import pickle
from typing import Any

import pytest
from badinput import bounded, call, forged_pickle, rejected, run_in_child
from hypothesis import given
from hypothesis import strategies as st

GOOD = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 AsAh', 'd dh p2 ????', 'd dh p3 Td9d', 'p3 cbr 6', 'p1 cbr 20', 'p2 f',
           'p3 cc', 'd db Jd8d2c', 'p1 cbr 30', 'p3 cbr 180', 'p1 cc', 'p1 sm AsAh',
           'p3 sm Td9d', 'd db 3h', 'd db Qs']
players = ['Ana', 'Boris', 'Vera']
finishing_stacks = [0, 198, 402]
"""
LINES = GOOD.replace("\n           ", " ").splitlines()

VALUES = st.one_of(
    st.sampled_from(["0", "1", "-1", "2", "200", "1e400", "nan", "inf", "0x10", "1_000", "1.5",
                     "true", "'NT'", "'FT'", "'PT'", "'XX'", "''", "[]", "[1, 2]", "[0, 0, 0]",
                     "[200, 200, 200]", "[1, 2, 0]", "[[1]]", "{}", "{a = 1}", "'p1 f'",
                     "['p1 f']", "[1, 'a']", "[9007199254740993, 1, 1]", "'''x'''", "\"x\"",
                     "1979-05-27", "[1,", "'unterminated", "[200, -5, 3]"]),
    st.integers(-(2**70), 2**70).map(str),
    st.integers(50, 6000).map(lambda k: "9" * k),
    st.integers(50, 6000).map(lambda k: "[" * k + "1" + "]" * k),
    st.integers(50, 3000).map(lambda k: "{a = " * k + "1" + "}" * k),
    st.integers(2, 12).map(lambda n: "[" + ", ".join(["100"] * n) + "]"),
)
KEYS = st.sampled_from(["variant", "antes", "blinds_or_straddles", "min_bet",
                        "starting_stacks", "actions", "players", "finishing_stacks",
                        "small_bet", "big_bet", "seats", "seat_count", "hand", "time_zone",
                        "bring_in", "[table]", "a.b", "'quoted'", "x y"])
ACTION_TEXT = st.one_of(
    st.sampled_from(["p1 f", "p2 cc", "p3 cbr 6", "d db Jd8d2c", "d db 3h", "d dh p1 AsAh",
                     "p1 sm AsAh", "p1 sm -", "p1 sm", "p4 f", "p0 f", "d dh p1 ????",
                     "d db ????", "d db JdJd2c", "p1 cbr -1", "p1 cbr 1.5", "# c", "",
                     "p1 cbr 1e400", "p1 xx", "d", "d dh", "p1 cbr 9007199254740993"]),
    st.integers(50, 6000).map(lambda k: "p1 cbr " + "9" * k),
    st.integers(50, 6000).map(lambda k: "p" + "9" * k + " f"),
    st.text(max_size=12))


@st.composite
def phh_texts(draw: st.DrawFn) -> str:
    lines = list(LINES)
    for _ in range(draw(st.integers(0, 4))):
        what = draw(st.integers(0, 4))
        i = draw(st.integers(0, len(lines) - 1))
        if what == 0:
            key = lines[i].split("=")[0].strip()
            lines[i] = f"{key} = {draw(VALUES)}"
        elif what == 1:
            lines.insert(i, f"{draw(KEYS)} = {draw(VALUES)}")
        elif what == 2:
            del lines[i]
        elif what == 3:
            actions = [repr(a) for a in draw(st.lists(ACTION_TEXT, max_size=16))]
            lines = [ln for ln in lines if not ln.startswith("actions")]
            lines.append(f"actions = [{', '.join(actions)}]")
        else:
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=40))
    return "\n".join(lines) + "\n"


@given(phh_texts(), st.booleans())
@bounded(150)
def phh_text(text: str, many: bool) -> None:
    import holdem
    from holdem import phh

    if many:
        got = call(phh.loads_all, text + "\n[2]\n" + GOOD.replace("\n", "\n", 1))
        return
    hh = call(phh.loads, text)
    if rejected(hh):
        return
    out = phh.dumps(hh)  # a hand that loads can always be written
    assert phh.loads(out) == hh
    got = call(holdem.replay, hh)
    if not rejected(got):
        assert isinstance(got.ok, bool)


_TZ = st.one_of(st.none(), st.timedeltas(datetime.timedelta(hours=-23), datetime.timedelta(
    hours=23)).map(datetime.timezone))
USER_LEAVES = st.one_of(
    st.booleans(), st.integers(-(2**64), 2**64), st.floats(allow_nan=False), st.text(max_size=8),
    st.dates(), st.datetimes(timezones=_TZ), st.times(timezones=_TZ), st.binary(max_size=4),
    st.sets(st.integers(0, 3), max_size=2), st.none(), st.just(object()), st.sampled_from(
        ["\ud800", "a\udfff", "'", '"', "\x00", "\n\t", "\\", "é"]))
USER_VALUES = st.recursive(USER_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(st.one_of(st.text(max_size=4), st.integers(0, 3)), inner, max_size=3)),
    max_leaves=12)


def _as_loaded(value: Any) -> Any:
    """A user value as TOML gives it back: tuples become lists."""
    if isinstance(value, (list, tuple)):
        return [_as_loaded(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_loaded(v) for k, v in value.items()}
    return value


@given(st.dictionaries(st.text(max_size=6).map(lambda k: "_" + k), USER_VALUES, max_size=3),
       st.one_of(st.none(), st.text(max_size=6), st.sampled_from(["\ud800", "x\udfff"])))
@bounded(200)
def phh_user_fields(user: dict[str, Any], event: Any) -> None:
    from holdem import phh

    base = phh.loads(GOOD)
    hh = call(base.replace, user_fields=user, event=event)
    if rejected(hh):
        return
    out = phh.dumps(hh)  # a hand that is built can always be written, and reads back
    back = phh.loads(out)
    assert back.user_fields == _as_loaded(hh.user_fields)
    assert back.event == hh.event


@given(st.one_of(ACTION_TEXT, st.none(), st.integers()), st.one_of(st.none(), st.integers(
    -2, 12), st.sampled_from([2**63, 2**64])))
@bounded(150)
def history_action(text: Any, players: Any) -> None:
    from holdem import phh

    got = call(phh.HistoryAction.from_str, text, players=players, types=("text", "players"))
    if not rejected(got):
        again = phh.HistoryAction.from_str(str(got), players=players)
        assert again.kind == got.kind and again.amount == got.amount


EVENT_ARG = st.one_of(st.integers(-2, 25), st.sampled_from([2**63, 2**64]), st.none(),
                     st.text(max_size=2), st.floats(allow_nan=True))
EVENTS = st.one_of(
    st.tuples(st.sampled_from(["CardExposed", "ExtraCards", "PrematureFlop", "OverdealtFlop"]),
              st.lists(EVENT_ARG, min_size=1, max_size=1)),
    st.tuples(st.sampled_from(["ExtraCards", "PrematureFlop", "OverdealtFlop", "PrematureTurn",
                               "PrematureRiver"]), st.just([])))
LIVE_ACTIONS = st.one_of(ACTION_TEXT, st.integers(-2, 300), st.none(), st.just("cc"),
                         st.just("cc"), st.just("f"))


@given(st.integers(2, 10), st.integers(0, 2**20), st.booleans(),
       st.lists(st.one_of(st.tuples(st.just("act"), LIVE_ACTIONS),
                          st.tuples(st.just("event"), EVENTS)), max_size=20))
@bounded(80)
def live_hand(n: int, seed: int, stacked: bool, steps: list[tuple[str, Any]]) -> None:
    import holdem
    from holdem.live import events as live_events

    deck = None
    if stacked:
        deck = [holdem.Card(c) for c in range(52)][::-1]
    hand = holdem.LiveHand(holdem.Game(big_blind=2), [100] * n, button=seed % n, deck=deck,
                           seed=seed)
    for kind, what in steps:
        before = (repr(hand.history), hand.stacks, hand.pot, hand.board, hand.burns,
                  hand.set_aside, hand.cards_left, hand.misdeals, repr(hand.accounting()))
        if kind == "act":
            got = call(hand.apply, what, types=("action",))
        else:
            name, args = what
            event = call(getattr(live_events, name), *args,
                         types=("position", "count", "cards"))
            if rejected(event):
                continue
            got = call(hand.report, event)
        after = (repr(hand.history), hand.stacks, hand.pot, hand.board, hand.burns,
                 hand.set_aside, hand.cards_left, hand.misdeals, repr(hand.accounting()))
        if rejected(got):
            assert after == before, f"a rejected call changed the hand: {got}"
        assert sum(hand.stacks) + hand.pot == 100 * n or hand.is_terminal()
        assert hand.accounting().is_complete()
    call(hand.possible_events)
    copy = hand.clone()
    assert repr(copy.history) == repr(hand.history)
    got = call(pickle.dumps, hand)
    if not rejected(got):
        assert repr(pickle.loads(got).history) == repr(hand.history)


@st.composite
def corrupt_live_hands(draw: st.DrawFn) -> bytes:
    import holdem

    n = draw(st.integers(2, 6))
    hand = holdem.LiveHand(holdem.Game(big_blind=2), [100] * n, seed=draw(st.integers(0, 99)))
    for _ in range(draw(st.integers(0, 5))):
        if hand.is_terminal():
            break
        hand.check_or_call()
    fn, args = hand.__reduce__()
    args = list(args)
    for _ in range(draw(st.integers(1, 2))):
        i = draw(st.integers(0, len(args) - 1))
        args[i] = draw(st.one_of(
            st.integers(-2, 12), st.sampled_from([2**53 + 1, 2**64]), st.none(),
            st.text(max_size=3), st.just(()), st.just((100,) * 11), st.just((0, 100)),
            st.lists(st.sampled_from(["cc", "f", "cbr 9", "x", 7]), max_size=6).map(tuple),
            st.just(tuple(range(52))), st.just((*range(51), 0))))
    return forged_pickle(fn, tuple(args))


@given(corrupt_live_hands())
@bounded(100)
def live_pickle(data: bytes) -> None:
    import pickle

    hand = call(pickle.loads, data)
    if rejected(hand):
        return
    assert hand.accounting().is_complete()
    for _ in range(4):
        call(hand.check_or_call)
    call(hand.possible_events)


@pytest.mark.parametrize(("field", "value"), [
    ("starting_stacks", (10**5000, 200, 200)), ("antes", (0, 0, 10**5000)),
    ("finishing_stacks", (0, 198, 10**5000)), ("min_bet", 10**5000), ("time_limit", 2**63),
    ("winnings", (0, 0, -(2**63) - 1)), ("time_banks", (1.5, 2**63, 0)),
], ids=["starting_stacks", "antes", "finishing_stacks", "min_bet", "time_limit", "winnings",
        "time_banks"])
def test_hand_history_numbers_beyond_toml_are_refused_when_built(field: str, value: Any) -> None:
    """A number field took an int of any size (the fast path for ints checked nothing): a
    hand with a stack of 10**5000 was built, then phh.dumps failed with Python's own
    ValueError (int max str digits). A hand that is built can always be written: an int in
    a number field is refused beyond TOML's 64 bits, as in the int fields and user fields."""
    from holdem import phh
    from holdem.errors import InvalidHistoryError

    base = phh.loads(GOOD)
    with pytest.raises(InvalidHistoryError, match=rf"^field {field!r}: the integer "
                                                  r".* is outside TOML's 64 bits"):
        base.replace(**{field: value})
    edge = base.replace(starting_stacks=(2**63 - 1, 200, 200))  # the largest still written
    assert phh.loads(phh.dumps(edge)) == edge


@pytest.mark.parametrize("prop", ["phh_text", "phh_user_fields", "history_action", "live_hand",
                                  "live_pickle"])
def test_in_child(prop: str) -> None:
    run_in_child(__file__, prop)
