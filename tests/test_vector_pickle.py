"""Pickling a VectorGame: a batch in play restored exactly, and every corrupt or edited pickle
refused (holdem.InvalidStateError) before any table changes."""

from __future__ import annotations

import ctypes
import pickle
import random
import sys
from typing import Any

import numpy as np
import pytest
from test_vector_clone import GAMES, assert_same, random_columns, snapshot

from holdem import Game, _vector
from holdem.errors import IllegalActionError, InvalidStateError
from holdem.pots import Rake
from holdem.vector import VectorGame, _unpickle


class Hand(ctypes.Structure):
    """hd_hstate_t (csrc/hd_hand.h), to edit the tables' bytes field by field."""

    _fields_ = [(f, ctypes.c_int64 * 10) for f in ("stacks", "bets", "committed", "acted")] + [
        (f, ctypes.c_int64) for f in ("cur", "inc", "full", "dead", "rake")] + [
        (f, ctypes.c_int32) for f in ("n", "button", "sb_seat", "bb_seat", "first_dealt",
                                      "street", "actor", "raises", "aggr", "live", "nboard",
                                      "over", "showdown", "error")] + [
        ("folded", ctypes.c_uint8 * 10), ("hole", ctypes.c_uint8 * 20),
        ("board", ctypes.c_uint8 * 5), ("unknown", ctypes.c_uint8), ("pad_", ctypes.c_uint8 * 2),
        ("ranks", ctypes.c_int32 * 10), ("start", ctypes.c_int64 * 10),
        ("payout", ctypes.c_int64 * 10)]


class Table(ctypes.Structure):
    """vtab_t (holdem/_vector.pyx)."""

    _fields_ = [(f, ctypes.c_int32) for f in ("nlog", "can_fold", "cur_log", "nhot")] + [
        ("hot", ctypes.c_uint16 * 10), ("nraise", ctypes.c_int32 * 4), ("paid", ctypes.c_int32),
        ("pot", ctypes.c_int64), ("added", ctypes.c_int64 * 4), ("h", Hand),
        ("amt", ctypes.c_int64 * 32), ("hand_no", ctypes.c_int64), ("voided", ctypes.c_int64),
        ("tseed", ctypes.c_uint64), ("carry", ctypes.c_int64 * 10),
        ("total", ctypes.c_uint64 * 10), ("total_hi", ctypes.c_int64 * 10),
        ("last_button", ctypes.c_int32), ("nlast", ctypes.c_int32),
        ("last_start", ctypes.c_int64 * 10), ("last_final", ctypes.c_int64 * 10),
        ("last_cards", ctypes.c_uint8 * 25),
        ("pad2", ctypes.c_uint8 * 7), ("log", (ctypes.c_uint64 * 64) * 2)]


def tables_of(data: bytes) -> list[Table]:
    """The tables of Batch.dump_tables() as structs (this platform's layout, checked)."""
    fmt = _vector.Batch.table_format()
    assert fmt[2:] == (ctypes.sizeof(Table), ctypes.sizeof(Hand), Table.h.offset,
                       Table.log.offset, 64) and fmt[1] == sys.byteorder
    size = ctypes.sizeof(Table)
    return [Table.from_buffer_copy(data, k * size) for k in range(len(data) // size)]


def bytes_of(tables: list[Table]) -> bytes:
    return b"".join(bytes(t) for t in tables)


def assert_edits_refused(target: VectorGame, good: bytes,
                         edits: list[tuple[Any, str]]) -> None:
    """Each ``(edit, message)``: table 0 of the dump ``good`` so edited is refused by
    ``target`` with ``message``."""
    for edit, message in edits:
        tables = tables_of(good)
        edit(tables[0])
        with pytest.raises(InvalidStateError, match=f"table 0: .*{message}"):
            target._batch.load_tables(bytes_of(tables))


def roundtrip(env: VectorGame, protocol: int = pickle.HIGHEST_PROTOCOL) -> VectorGame:
    other = pickle.loads(pickle.dumps(env, protocol))
    assert type(other) is VectorGame and other is not env
    return other


def long_hands(num_tables: int) -> VectorGame:
    """A 10-seat batch whose every hand has run past 64 actions (everyone min-raises from a
    billion chips: no hand ends), so its log is not kept."""
    env = VectorGame(Game(big_blind=2), num_tables=num_tables, players=10, stacks=10**9,
                     seed=3)
    env.reset()
    min_raise = env.action_layout.names.index("min_raise")
    for _ in range(70):
        env.step(np.full(num_tables, min_raise))
    return env


def played(game: Game = GAMES["nl"], steps: int = 25, **kw: Any) -> VectorGame:
    args: dict[str, Any] = dict(num_tables=6, players=4, stacks=80, seed=11)
    args.update(kw)
    env = VectorGame(game, **args)
    env.reset()
    rng = np.random.default_rng(steps)
    for _ in range(steps):
        env.step(random_columns(env, rng))
    return env


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("players", [2, 6, 10])
@pytest.mark.parametrize(("session", "final"), [(False, False), (True, True)])
def test_an_unpickled_batch_plays_on_exactly_as_the_original(name: str, players: int,
                                                             session: bool, final: bool) -> None:
    if name == "pl_straddle" and players == 2:
        players = 3  # a straddle needs 3 (R8)
    env = played(GAMES[name], 23, num_tables=7, players=players, stacks=60, seed=5,
                 session=session, final_observation=final)
    protocol = (players + len(name)) % (pickle.HIGHEST_PROTOCOL + 1)
    other = roundtrip(env, protocol)
    assert repr(other) == repr(env)
    assert_same(snapshot(env), snapshot(other))
    rng = np.random.default_rng(players)
    for k in range(40):
        cols = random_columns(env, rng)
        for a, b in zip(env.step(cols), other.step(cols), strict=True):
            np.testing.assert_array_equal(a, b)
        if k % 10 == 9:
            assert_same(snapshot(env), snapshot(other))


def test_a_batch_never_reset_unpickles_as_one() -> None:
    env = VectorGame(Game(big_blind=2), num_tables=3, players=3, stacks=100, seed=2)
    other = roundtrip(env)
    env.reset()
    other.reset()
    assert_same(snapshot(env), snapshot(other))


def test_hands_of_more_than_64_actions_are_restored_without_their_log() -> None:
    """A hand whose log is not kept cannot be replayed: its state is checked by the engine's
    consistency check (chips, seats, cards) and the seed's cards instead."""
    env = long_hands(4)
    with pytest.raises(Exception, match="more than 64 actions"):
        env.history(0)
    other = roundtrip(env)
    assert_same(snapshot_no_history(env), snapshot_no_history(other))
    rng = np.random.default_rng(3)
    for _ in range(30):
        cols = random_columns(env, rng)
        for a, b in zip(env.step(cols), other.step(cols), strict=True):
            np.testing.assert_array_equal(a, b)
    assert env.hands_played().sum() > 0
    assert_same(snapshot_no_history(env), snapshot_no_history(other))


def snapshot_no_history(env: VectorGame) -> dict[str, Any]:
    """snapshot() without what needs a kept log (history, hand_state, last_hand)."""
    snap: dict[str, Any] = {
        "obs": env.observation.copy(), "mask": env.legal_mask.copy(),
        "actor": env.current_player.copy(), "payoffs": env.payoffs.copy(),
        "hands": env.hands_played().copy(), "totals": env.total_payoffs().copy(),
    }
    for t in range(env.num_tables):
        snap[f"state{t}"] = env.table_state(t)
        snap[f"amounts{t}"] = env.raise_amounts(t)
    return snap


def test_after_play_abandon_and_threads() -> None:
    from holdem.table.agents import CallAgent, RandomAgent

    env = VectorGame(Game(big_blind=2), num_tables=40, players=3, stacks=100, seed=4,
                     session=True, num_threads=2)
    env.reset()
    env.play(5, [RandomAgent(), CallAgent(), RandomAgent()])
    rng = np.random.default_rng(4)
    env.step(random_columns(env, rng))
    env.abandon(rng.random(40) < 0.5)
    env.step_async(random_columns(env, rng))  # in flight: completed before pickling
    other = roundtrip(env)
    assert_same(snapshot(env), snapshot(other))
    for _ in range(10):
        cols = random_columns(env, rng)
        env.step_async(cols)
        other.step_async(cols)
        assert_same(snapshot(env), snapshot(other))
    env.close()
    other.close()


# ------------------------------------------------------------------ refused pickles
def reduced(env: VectorGame) -> tuple[tuple[Any, ...], dict[str, Any]]:
    fn, (args, state) = env.__reduce__()
    assert fn is _unpickle
    return args, dict(state)


def test_the_digest_catches_corrupt_bytes() -> None:
    env = played()
    args, state = reduced(env)
    rng = random.Random(1)
    for _ in range(50):
        tables = bytearray(state["tables"])
        tables[rng.randrange(len(tables))] ^= 1 << rng.randrange(8)
        with pytest.raises(InvalidStateError, match="digest"):
            _unpickle(args, {**state, "tables": bytes(tables)})
    outputs = list(state["outputs"])
    outputs[1] = outputs[1][:-1] + bytes([outputs[1][-1] ^ 4])
    with pytest.raises(InvalidStateError, match="digest"):
        _unpickle(args, {**state, "outputs": tuple(outputs)})
    assert_same(snapshot(_unpickle(args, state)), snapshot(env))  # the true state loads


def test_a_whole_pickle_flipped_anywhere_never_loads_a_broken_batch() -> None:
    """Bytes flipped anywhere in the pickle: refused (by pickle or by the checks), or a
    batch that plays (a flip in an argument can make another valid batch)."""
    env = played(num_tables=3)
    blob = pickle.dumps(env)
    rng = random.Random(2)
    refused = 0
    for _ in range(300):
        data = bytearray(blob)
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        try:
            other = pickle.loads(bytes(data))
        except Exception:
            refused += 1
            continue
        if isinstance(other, VectorGame) and other._started:
            other.step(random_columns(other, np.random.default_rng(0)))
    assert refused > 250  # most flips land in the tables, which the digest covers


def test_arguments_and_fields_are_checked() -> None:
    env = played()
    args, state = reduced(env)
    cases: list[tuple[Any, Any, str]] = [
        (args[:8], state, "9 a VectorGame pickles"),
        (list(args), state, "9 a VectorGame pickles"),
        (("not a game", *args[1:]), state, "game is not a Game"),
        ((*args[:1], 0, *args[2:]), state, "arguments are refused"),
        ((*args[:4], 1.5, *args[5:]), state, "arguments are refused"),
        # -1 is a seed (2**64 - 1), but not the one these tables were dealt from
        ((*args[:4], -1, *args[5:]), state, "its seed is not this batch's"),
        (args, [state], "dict with a format"),
        (args, {**state, "format": (0, *state["format"][1:])}, "another table layout"),
        (args, {**state, "started": 1}, "fields of a batch in play"),
        (args, {**state, "started": False}, "never reset has no tables"),
        (args, {**state, "extra": 1}, "fields of a batch in play"),
        (args, {k: v for k, v in state.items() if k != "digest"}, "fields of a batch in play"),
        (args, {**state, "tables": bytearray(state["tables"])}, "are not bytes"),
        (args, {**state, "outputs": list(state["outputs"])}, "are not bytes"),
        (args, {**state, "outputs": state["outputs"][:2]}, "are not bytes"),
        ((*args[:1], 7, *args[2:]), state, "an output of"),  # 7 tables' buffers, 6 given
    ]
    for a, s, message in cases:
        with pytest.raises(InvalidStateError, match=message):
            _unpickle(a, s)
    # outputs of the wrong size or flags that are not 0/1, with a digest that matches
    from holdem.vector import _digest

    for outputs, message in [
        ((state["outputs"][0][:-8], *state["outputs"][1:]), "an output of"),
        ((*state["outputs"][:2], b"\x02" + state["outputs"][2][1:]), "done flags"),
    ]:
        s = {**state, "outputs": outputs, "digest": _digest(state["tables"], outputs)}
        with pytest.raises(InvalidStateError, match=message):
            _unpickle(args, s)


def test_tables_from_another_batch_or_edited_are_refused() -> None:
    """The engine's checks on the tables themselves (Batch.load_tables: no digest there)."""
    env = played(num_tables=4)
    target = played(num_tables=4)  # the same arguments: the tables load into it
    before = snapshot(target)
    good = env._batch.dump_tables()
    size = len(good) // 4
    other_seed = played(num_tables=4, seed=12)._batch.dump_tables()
    cases = [
        (other_seed, "table 0: its seed is not this batch's"),
        (good[size:2 * size] + good[:size] + good[2 * size:], "table 0: its seed"),
        (bytes(size) + good[size:], "table 0: hand number"),
        (good[:-1], "bytes of tables"),
    ]
    for data, message in cases:
        with pytest.raises(InvalidStateError, match=message):
            target._batch.load_tables(data)
        assert_same(before, snapshot(target))  # nothing changed
    target._batch.load_tables(good)
    for t in range(4):
        assert target.hand_state(t) == env.hand_state(t)


def test_tables_dealt_from_other_stacks_are_refused_out_of_a_session() -> None:
    """Out of a session every hand starts from the batch's stacks: a table whose hand (or
    last hand) started from others, the same seed's cards, would bring chips the batch never
    had (and observations above its observation_high)."""
    target = played(num_tables=4)
    before = snapshot(target)
    rich = played(num_tables=4, stacks=[10**12, 80, 80, 80])
    with pytest.raises(InvalidStateError, match="table 0: its hand did not start from"):
        target._batch.load_tables(rich._batch.dump_tables())
    assert_same(before, snapshot(target))
    # the last hand's starting stacks, edited keeping the total
    tables = tables_of(played(num_tables=4)._batch.dump_tables())
    assert list(tables[0].last_start)[:4] == [80] * 4 and target.last_hand(0) is not None
    tables[0].last_start[0], tables[0].last_start[1] = 81, 79
    with pytest.raises(InvalidStateError, match="table 0: the last hand did not start from"):
        target._batch.load_tables(bytes_of(tables))
    assert_same(before, snapshot(target))


def test_the_last_hands_final_stacks_are_checked() -> None:
    """The last hand's final stacks (kept for a hand whose actions are not: the payoffs of
    a step that ends it and deals out the next) must be the ones its actions give, or, with
    no actions kept, in range and holding no chip more than the hand started with."""
    env = played(num_tables=2)
    target = played(num_tables=2)
    last = env.last_hand(0)
    assert last is not None
    assert env._batch.last_stacks(0) == last.result.final_stacks
    tables = tables_of(env._batch.dump_tables())
    tables[0].last_final[0] += 1
    with pytest.raises(InvalidStateError,
                       match="table 0: the last hand's final stacks are not the ones its"):
        target._batch.load_tables(bytes_of(tables))
    # a hand of more than 64 actions, then a fold: its actions are not kept, its stacks are
    big = VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=10**9, seed=3)
    big.reset()
    names = big.action_layout.names
    for _ in range(70):
        big.step([names.index("min_raise")])
    big.step([names.index("fold")])
    with pytest.raises(IllegalActionError, match="more than 64 actions"):
        big.last_hand(0)
    final = big._batch.last_stacks(0)
    assert final is not None and sum(final) == 2 * 10**9 and final != (10**9, 10**9)
    good = big._batch.dump_tables()
    other = VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=10**9, seed=3)
    other.reset()
    for value, message in [(-1, "final stacks are out of range"),
                           (final[0] + 1, "final stacks hold more chips than it started with")]:
        tables = tables_of(good)
        tables[0].last_final[0] = value
        with pytest.raises(InvalidStateError, match=f"table 0: the last hand's {message}"):
            other._batch.load_tables(bytes_of(tables))
    other._batch.load_tables(good)
    assert other._batch.last_stacks(0) == final


def test_counters_out_of_their_range_are_refused() -> None:
    """Counters a step adds to (a seat's summed payoffs) and the last hand's record, out of
    the range their hands allow: refused (a step would overflow them)."""
    env = played(num_tables=2)
    good = env._batch.dump_tables()
    target = played(num_tables=2)
    hands = int(env.hands_played()[0])
    assert hands > 0 and env.last_hand(0) is not None
    edits: list[tuple[str, Any, str]] = [
        ("total_hi", lambda t: t.total_hi.__setitem__(1, 2**63 - 1), "payoffs summed"),
        ("total_hi", lambda t: t.total_hi.__setitem__(0, -hands - 1), "payoffs summed"),
        ("nlast", lambda t: setattr(t, "nlast", 0), "actions logged in the last hand"),
        ("voided", lambda t: setattr(t, "voided", t.hand_no - 1), "last hand ended by"),
        ("nlast", lambda t: setattr(t, "nlast", -1), "last hand ended by"),
    ]
    for _, edit, message in edits:
        tables = tables_of(good)
        edit(tables[0])
        with pytest.raises(InvalidStateError, match=f"table 0: .*{message}"):
            target._batch.load_tables(bytes_of(tables))
    tables = tables_of(good)
    tables[0].total_hi[0] = hands  # in the high word's range, but the sums do not add up
    with pytest.raises(InvalidStateError, match="table 0: its seats' payoffs summed add up to "):
        target._batch.load_tables(bytes_of(tables))
    target._batch.load_tables(good)


@pytest.mark.parametrize("session", [False, True])
def test_payoff_sums_that_break_chip_conservation_or_outrun_the_hands_are_refused(
        session: bool) -> None:
    """The seats' payoffs summed were checked only for their high words: a million chips
    added to a seat at a 200-chip table loaded (total_payoffs then showed the win), and a
    low word of 2**64 - 1 loaded and made total_payoffs raise ChipOverflowError. The sums add
    up to 0 (no rake), and no seat's moves by more than the chips at the table per hand."""
    env = VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=100, seed=1,
                     session=session)
    env.reset()
    rng = np.random.default_rng(4)
    for _ in range(30):
        env.step([int(rng.choice(np.flatnonzero(env.legal_mask[0])))])
    hands = int(env.hands_played()[0])
    assert hands > 0 and list(env.total_payoffs()[0]) != [0, 0]
    good = env._batch.dump_tables()
    target = env.clone()
    edits: list[tuple[Any, str]] = [
        (lambda t: t.total.__setitem__(0, (t.total[0] + 10**6) % 2**64), "add up to 1000000"),
        (lambda t: t.total.__setitem__(0, 2**64 - 1), "add up to"),
    ]
    if not session:  # conserved, but more than the 200 chips at the table a hand
        move = 401 * hands  # |total + move| >= 401 h - 200 h
        edits.append((lambda t: (t.total.__setitem__(0, (t.total[0] + move) % 2**64),
                                 t.total.__setitem__(1, (t.total[1] - move) % 2**64)),
                      "out of reach"))
    assert_edits_refused(target, good, edits)
    target._batch.load_tables(good)
    assert list(target.total_payoffs()[0]) == list(env.total_payoffs()[0])


def test_payoff_sums_of_a_raked_game_may_add_up_to_less_than_0_but_never_more() -> None:
    env = VectorGame(Game(big_blind=2, rake=Rake(0.05, cap=3)), num_tables=1, players=3,
                     stacks=100, seed=2)
    env.reset()
    for _ in range(40):
        env.step([int(np.flatnonzero(env.legal_mask[0])[-1])])
    sums = [int(x) for x in env.total_payoffs()[0]]
    assert sum(sums) < 0  # the rake taken
    good = env._batch.dump_tables()
    tables = tables_of(good)
    tables[0].total[0] = (tables[0].total[0] - sum(sums) + 1) % 2**64  # more than it all
    with pytest.raises(InvalidStateError, match="add up to 1, not 0 less the rake"):
        env.clone()._batch.load_tables(bytes_of(tables))


def test_a_hand_without_its_log_is_refused_when_its_betting_is_not_reachable() -> None:
    """A hand of more than 64 actions cannot be replayed: what its start fixes and what every
    action keeps are checked instead (a raise increment below the big blind would accept a
    raise smaller than the minimum; a raise count is at most the chips the street added)."""
    env = long_hands(2)
    min_raise = env.action_layout.names.index("min_raise")
    good = env._batch.dump_tables()
    assert tables_of(good)[0].nlog > 64
    target = env.clone()
    edits: list[tuple[Any, str]] = [
        (lambda t: setattr(t.h, "inc", 1), "betting levels"),
        (lambda t: setattr(t.h, "sb_seat", (t.h.sb_seat + 1) % 10), "blinds"),
        (lambda t: setattr(t.h, "cur", t.h.cur - 1), "bet more than the bet to call"),
        (lambda t: t.h.acted.__setitem__(0, t.h.cur + 1), "bet more than the bet to call"),
        (lambda t: t.nraise.__setitem__(t.h.street, 2**31 - 1), "betting summary"),
        (lambda t: t.added.__setitem__(t.h.street, 2**63 - 1), "betting summary"),
        (lambda t: t.added.__setitem__(t.h.street, t.added[t.h.street] + 1), "add up to its pot"),
        (lambda t: t.nraise.__setitem__(3, 1), "betting summary"),
    ]
    assert_edits_refused(target, good, edits)
    target._batch.load_tables(good)
    for _ in range(5):
        for a, b in zip(env.step(np.full(2, min_raise)), target.step(np.full(2, min_raise)),
                        strict=True):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", ["nl", "fl_ante_rake"])
def test_random_edits_of_the_tables_are_refused_or_harmless(name: str) -> None:
    """Bytes of the tables' C state flipped at random, the digest bypassed: each load is
    refused with nothing changed, or gives tables that play on legally (every check of
    the engine holds; a finished hand's chips add up)."""
    game = GAMES[name]
    env = played(game, 30, num_tables=5, players=6, stacks=60, seed=21, session=True)
    good = env._batch.dump_tables()
    target = played(game, 30, num_tables=5, players=6, stacks=60, seed=21, session=True)
    rng = random.Random(name)
    refused = 0
    for trial in range(400):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        before = snapshot(target)
        try:
            target._batch.load_tables(bytes(data))
        except InvalidStateError:
            refused += 1
            assert_same(before, snapshot(target))
            continue
        cols_rng = np.random.default_rng(trial)
        for _ in range(6):
            _, _, done = target.step(random_columns(target, cols_rng))
            if game.rake is None:
                assert (target.payoffs[done.astype(bool)].sum(axis=1) == 0).all()
        target._batch.load_tables(good)  # back to the true state for the next trial
    assert 0 < refused < 400


def test_each_checked_field_edited_is_refused_with_its_reason() -> None:
    env = played(GAMES["nl"], 30, num_tables=3, players=6, stacks=60, seed=31, session=True)
    target = played(GAMES["nl"], 30, num_tables=3, players=6, stacks=60, seed=31,
                    session=True)
    good = env._batch.dump_tables()
    t = next(i for i, tab in enumerate(tables_of(good))
             if tab.nlog > 0 and tab.nlast >= 0)  # a table with both logs kept
    tab = tables_of(good)[t]
    hole, last, cur = tab.h.hole, tab.last_cards, tab.cur_log
    assert hole[0] != 60 and last[0] != 52
    edits: list[tuple[Any, str]] = [
        (lambda x: setattr(x.h, "actor", 7), "not a state the engine can reach"),
        (lambda x: x.h.hole.__setitem__(0, 60), "not a state the engine can reach"),
        (lambda x: x.h.hole.__setitem__(0, hole[1]), "not a state the engine"),
        (lambda x: x.h.stacks.__setitem__(0, x.h.stacks[0] + 1), "not a state the engine"),
        (lambda x: x.h.ranks.__setitem__(0, 5), "showdown or payouts"),
        (lambda x: setattr(x, "cur_log", 2), "log or payment flags"),
        (lambda x: setattr(x, "paid", 3), "log or payment flags"),
        (lambda x: setattr(x, "nlog", 65), "actions logged"),
        (lambda x: setattr(x, "nlog", -2), "actions logged"),
        (lambda x: setattr(x, "nlast", 70), "actions logged in the last hand"),
        (lambda x: setattr(x, "last_button", 9), "the last hand's button"),
        (lambda x: x.last_cards.__setitem__(0, last[1]), "not distinct"),
        (lambda x: x.last_cards.__setitem__(0, 52), "not distinct"),
        (lambda x: setattr(x, "hand_no", 0), "hand number"),
        # the message's number: no overflow (UBSan: INT64_MIN - 1) and the value held
        (lambda x: setattr(x, "hand_no", -2**63),
         r"hand number -9223372036854775808 \(the next hand's\) is out of range"),
        (lambda x: setattr(x, "hand_no", x.hand_no + 6), "not the ones the seed deals"),
        (lambda x: setattr(x, "hand_no", x.hand_no + 1), "the button is on seat"),
        (lambda x: setattr(x, "voided", x.hand_no), "voided hands"),
        (lambda x: x.nraise.__setitem__(0, x.nraise[0] + 1), "betting summary"),
        (lambda x: x.added.__setitem__(0, x.added[0] + 2), "betting summary"),
        (lambda x: x.carry.__setitem__(0, 59 if x.carry[0] != 59 else 58),
         "stacks carried over"),
        (lambda x: x.total_hi.__setitem__(0, (1 << 62) + 1), "payoffs summed are out of range"),
        (lambda x: x.log[cur].__setitem__(0, x.log[cur][0] ^ (1 << 62)),
         "actions|state its actions lead to"),
    ]
    before = snapshot(target)
    for edit, message in edits:
        tables = tables_of(good)
        edit(tables[t])
        with pytest.raises(InvalidStateError, match=f"table {t}: .*({message})"):
            target._batch.load_tables(bytes_of(tables))
        assert_same(before, snapshot(target))
    target._batch.load_tables(good)  # and the true state loads


def test_the_summaries_of_a_hand_without_its_log_are_bounded() -> None:
    env = long_hands(2)
    good = env._batch.dump_tables()
    assert tables_of(good)[0].nlog > 64
    for field, value in [("nraise", -1), ("nraise", (1 << 30) + 1), ("added", -5),
                         ("added", 1 << 60)]:
        tables = tables_of(good)
        getattr(tables[0], field)[0] = value
        with pytest.raises(InvalidStateError, match="table 0: its betting summary is not one"):
            env._batch.load_tables(bytes_of(tables))
    tables = tables_of(good)
    tables[0].nraise[0] = 3  # any count in range
    env._batch.load_tables(bytes_of(tables))


def test_a_raise_count_at_its_int32_limit_saturates() -> None:
    """The per-street raise count is an int32 that stops at 2**31 - 1 instead of overflowing
    (2**31 raises on one street need stacks above 2**31 chips and days of steps: the count is
    set through a pickle of a hand that has put that many chips in, which loads)."""
    env = VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=2**40, seed=3)
    env.reset()
    min_raise = env.action_layout.names.index("min_raise")
    for _ in range(66):  # past 64 actions: the log is not kept, the summary is checked
        env.step(np.full(1, min_raise))
    la = env.legal_actions(0)
    assert la.min_to is not None
    env.step_exact(np.array([2]), np.array([la.min_to + 2**33]))  # raise by 2**33 chips
    good = env._batch.dump_tables()
    tables = tables_of(good)
    street = tables[0].h.street
    assert tables[0].nlog > 64 and tables[0].added[street] > 2**32
    tables[0].nraise[street] = 2**31 - 1
    env._batch.load_tables(bytes_of(tables))
    column = env.observation_spec.index(f"{('preflop', 'flop', 'turn', 'river')[street]}.raises")
    assert env.observation[0, column] == np.float32(2**31 - 1)
    env.step(np.full(1, min_raise))
    assert tables_of(env._batch.dump_tables())[0].nraise[street] == 2**31 - 1
    assert env.observation[0, column] == np.float32(2**31 - 1)  # not negative


def test_pickled_arguments_that_skipped_their_checks_are_refused() -> None:
    """A pickled ActionLayout or Game is rebuilt without its __init__ checks: whatever the
    VectorGame then raises is reported as an invalid pickle, as is an odd format object."""
    import dataclasses

    env = played()
    args, state = reduced(env)
    layout = args[6]
    odd = dataclasses.replace(layout)
    object.__setattr__(odd, "fractions", ("x",))

    class Weird(tuple):  # type: ignore[type-arg]
        def __eq__(self, other: object) -> bool:
            raise RuntimeError("no")

        __hash__ = tuple.__hash__

    for a, s, message in [((*args[:6], odd, *args[7:]), state, "arguments are refused"),
                          (args, {**state, "format": Weird(state["format"])},
                           "another table layout")]:
        with pytest.raises(InvalidStateError, match=message):
            _unpickle(a, s)


def test_clone_and_pickle_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """With numpy absent the arrays are memoryviews: copies and pickles work the same."""
    import copy

    import holdem.vector as vector

    monkeypatch.setattr(vector, "_np", None)
    env = VectorGame(Game(big_blind=2), num_tables=3, players=3, stacks=100, seed=7,
                     final_observation=True)
    env.reset()
    env.step([1, 1, 1])
    for make in (VectorGame.clone, copy.deepcopy, roundtrip):
        other = make(env)  # of env as it stands (it moves on below)
        assert isinstance(other.observation, memoryview)
        for _ in range(8):
            cols = [next(c for c in (2, 1) if env.legal_mask[t, c]) for t in range(3)]
            mine, theirs = env.clone().step(cols), other.clone().step(cols)
            assert [m.tolist() for m in mine] == [x.tolist() for x in theirs]
            env.step(cols)
            other.step(cols)
        assert other.observation.tolist() == env.observation.tolist()
        assert other.final_observation.tolist() == env.final_observation.tolist()
        assert [other.history(t) for t in range(3)] == [env.history(t) for t in range(3)]


def test_pickle_holds_no_uninitialized_bytes() -> None:
    """The one-hot entries past ``nhot`` are zero in every table: a dump (a pickle, a clone)
    carries no bytes of the C stack (addresses among them), and pickling what was unpickled
    gives the same bytes."""
    env = played()
    data = env._batch.dump_tables()
    for t in tables_of(data):
        assert 4 <= t.nhot <= 9
        assert list(t.hot)[t.nhot:] == [0] * (10 - t.nhot)
    once = pickle.dumps(env)
    assert pickle.dumps(pickle.loads(once)) == once
