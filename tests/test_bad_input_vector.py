"""Bad-input suite: VectorGame.step_async (and step / step_unchecked between its calls) with
odd actions, slices and flags, on two threads against one; sample_legal with odd masks and
generators. See tests/badinput.py for the contract and how each property runs in a child
process."""

from __future__ import annotations

from typing import Any

import pytest
from badinput import bounded, call, rejected, run_in_child
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("numpy")

TABLES = 37
COLUMNS = 6  # the default layout
DTYPES = ["int64", "int64", "int64", "int32", "int8", "uint8", "uint64", ">i8", "float64",
          "bool", "object"]
ODD = st.one_of(st.none(), st.floats(allow_nan=True), st.text(max_size=3), st.booleans(),
                st.binary(max_size=2))


@st.composite
def tables(draw: st.DrawFn) -> Any:
    bound = st.one_of(st.none(), *[st.integers(-TABLES - 3, TABLES + 3)] * 4,
                      st.sampled_from([2**63, -(2**63) - 1, 2**70]))
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return None
    if kind == 1:
        return draw(st.one_of(ODD, st.integers(0, TABLES), st.tuples(st.integers(0, 9),
                                                                      st.integers(0, 9))))
    step = draw(st.one_of(st.none(), st.none(), st.integers(-2, 3)))
    if step == 0:
        step = None
    return slice(draw(bound), draw(bound), step)


@st.composite
def actions(draw: st.DrawFn, mask: Any) -> Any:
    """Mostly legal columns for the rows of ``mask``; sometimes one illegal or out-of-range
    entry, another length, dtype or layout, or not an array at all."""
    import numpy as np

    picks = draw(st.lists(st.integers(0, 99), min_size=len(mask), max_size=len(mask)))
    values: list[Any] = [int(np.flatnonzero(row)[r % int(row.sum())])
                         for row, r in zip(mask, picks, strict=True)]
    if values and draw(st.integers(0, 3)) == 0:
        values[draw(st.integers(0, len(values) - 1))] = draw(st.one_of(
            st.integers(-3, COLUMNS + 3),
            st.sampled_from([2**31, -(2**63), 2**63 - 1, 2**63, 2**70])))
    size = draw(st.sampled_from([0, 0, 0, 0, 0, 0, 1, -1, -len(values)]))
    values = (values + [1] * max(size, 0))[:len(values) + min(size, 0)]
    how = draw(st.sampled_from(["array"] * 6 + ["list", "dtype", "strided", "2d", "odd",
                                                "readonly"]))
    if how == "list":
        return values
    if how == "odd":
        return draw(ODD)
    try:
        arr = np.array(values, dtype=np.int64)
    except OverflowError:
        return values
    if how == "dtype":
        with np.errstate(all="ignore"):
            return arr.astype(draw(st.sampled_from(DTYPES)))
    if how == "strided":
        return np.repeat(arr, 2)[::2]
    if how == "2d":
        return arr.reshape(1, -1)
    if how == "readonly":
        arr.flags.writeable = False
    return arr


def _rows(which: Any) -> slice:
    """The tables ``which`` selects, for drawing actions (all of them if it is not a slice)."""
    if isinstance(which, slice):
        try:
            lo, hi, _ = which.indices(TABLES)
        except (TypeError, ValueError, OverflowError):
            return slice(None)
        return slice(lo, max(lo, hi))
    return slice(None)


def _outcome(value: Any) -> Any:
    return (type(value.exc), str(value.exc)) if rejected(value) else "ok"


CHECKED = st.integers(0, 11).flatmap(lambda k: ODD if k == 0 else st.just(k % 2 == 0))


@given(st.lists(st.tuples(st.sampled_from(["async", "async", "async", "step", "unchecked"]),
                          tables(), st.data(), CHECKED),
                min_size=1, max_size=12))
@bounded(60)
def step_async(ops: list[tuple[Any, ...]]) -> None:
    import numpy as np

    from holdem import Game
    from holdem.vector import VectorGame

    two = VectorGame(Game(big_blind=2), num_tables=TABLES, players=6, stacks=200, seed=3,
                     num_threads=2)
    one = VectorGame(Game(big_blind=2), num_tables=TABLES, players=6, stacks=200, seed=3)
    two.reset()
    one.reset()
    def state(env: VectorGame) -> list[Any]:
        return [env.observation.copy(), env.legal_mask.copy(), env.current_player.copy(),
                env.payoffs.copy(), env.total_payoffs(), env.hands_played()]

    for op, which, data, checked in ops:
        cols = data.draw(actions(one.legal_mask[_rows(which) if op == "async" else
                                                slice(None)]))
        before = state(one)
        outcomes = []
        for env in (two, one):
            if op == "async":
                got = call(env.step_async, cols, which, checked=checked,
                           types=("actions", "tables", "checked"))
            else:
                got = call(env.step if op == "step" else env.step_unchecked, cols,
                           types=("actions",))
            outcomes.append(_outcome(got))
        # the same outcome on both (a refused call names the same table and action) ...
        assert outcomes[0] == outcomes[1], (op, which, cols, checked, outcomes)
        # ... a refused call moved no table ...
        if outcomes[1] != "ok":
            assert all(np.array_equal(a, b) for a, b in zip(before, state(one), strict=True))
        # ... and two threads left the tables where one did
        two.step_wait()
        assert all(np.array_equal(a, b) for a, b in zip(state(two), state(one), strict=True))
    two.close()


def test_step_async() -> None:
    run_in_child(__file__, "step_async")


HUGE_INT = 10**5000  # more digits than Python turns into text (int max str digits: 4300)


@pytest.mark.parametrize(("call", "match"), [
    (lambda vg, g: type(vg)(g, num_tables=2, players=2, stacks=200, num_threads=HUGE_INT),
     r"^num_threads must be 1\.\.256, got an int of 16610 bits"),
    (lambda vg, g: type(vg)(g, num_tables=HUGE_INT, players=2, stacks=200),
     r"^num_tables must be 1\.\.\d+, got an int of 16610 bits"),
    (lambda vg, g: type(vg)(g, num_tables=2, players=-HUGE_INT, stacks=200),
     r"^players must be 2\.\.10 \(R1\), got an int of 16610 bits"),
    (lambda vg, g: type(vg)(g, num_tables=2, players=2, stacks=HUGE_INT),
     r"^stack of seat 0 must be 1\.\.2\*\*53, got an int of 16610 bits"),
    (lambda vg, g: type(vg)(g, num_tables=2, players=2, stacks=[200, -HUGE_INT]),
     r"^stack of seat 1 must be 1\.\.2\*\*53, got an int of 16610 bits"),
    (lambda vg, g: vg.play(HUGE_INT, []), r"^hands must be 1\.\.2\*\*53, got an int of 16610 bits"),
    (lambda vg, g: vg.play(10, [], curve_every=-HUGE_INT),
     r"^curve_every must be >= 1, got an int of 16610 bits"),
    (lambda vg, g: vg.history(HUGE_INT), r"^table an int of 16610 bits is out of range 0\.\.1"),
    (lambda vg, g: vg.legal_actions(-HUGE_INT), r"^table an int of 16610 bits is out of range"),
    (lambda vg, g: vg.cards(HUGE_INT, 0), r"^table an int of 16610 bits is out of range"),
    (lambda vg, g: vg.cards(0, HUGE_INT), r"^hand must be an int .*, got an int of 16610 bits"),
])
def test_ints_too_long_to_print_are_described(call: Any, match: str) -> None:
    """An int of more than 4,300 digits was formatted raw into the message, which then failed
    with Python's own ValueError ("Exceeds the limit (4300 digits) for integer string
    conversion") instead of the library's error."""
    from holdem import Game, HoldemError
    from holdem.vector import VectorGame

    game = Game(big_blind=2)
    vg = VectorGame(game, num_tables=2, players=2, stacks=200, seed=1)
    vg.reset()
    with pytest.raises(HoldemError, match=match):
        call(vg, game)


def test_repr_of_a_vector_game_with_a_huge_seed_pastes_back() -> None:
    """Any int is a seed; the repr failed on one too long for decimal text (it shows it in
    hex, as Deck does) and still evaluates to a VectorGame of that seed."""
    from fractions import Fraction

    import holdem
    from holdem.vector import ActionLayout, VectorGame

    vg = VectorGame(holdem.Game(big_blind=2), num_tables=2, players=2, stacks=200,
                    seed=HUGE_INT)
    text = repr(vg)
    assert "seed=0x" in text
    again = eval(text, {**vars(holdem), "VectorGame": VectorGame,
                        "ActionLayout": ActionLayout, "Fraction": Fraction})
    assert again.seed == HUGE_INT and repr(again) == text


MASK_DTYPES = ["bool", "uint8", "int8", "int64", "uint64", ">i4", "float32", "float64",
               "complex64", "object", "U2", "datetime64[s]"]


@st.composite
def masks(draw: st.DrawFn) -> Any:
    """Legal masks of any size and dtype, often with a row of no legal column; sometimes
    another shape, nested lists (ragged too) or not an array at all."""
    import numpy as np

    rows, columns = draw(st.integers(0, 9)), draw(st.integers(0, 15))
    cells = draw(st.lists(st.integers(0, 3), min_size=rows * columns,
                          max_size=rows * columns))
    arr = np.array(cells, dtype=np.int64).reshape(rows, columns) if columns else \
        np.zeros((rows, 0), np.int64)
    how = draw(st.sampled_from(["dtype"] * 6 + ["list", "ragged", "1d", "3d", "odd",
                                                "strided", "huge"]))
    if how == "odd":
        return draw(ODD)
    if how == "list":
        return arr.tolist()
    if how == "ragged":
        return [[1, 0], [1]]
    if how == "1d":
        return arr.ravel()
    if how == "3d":
        return arr.reshape(1, rows, columns)
    if how == "strided":
        return np.repeat(arr, 2, axis=0)[::2].astype(bool)
    if how == "huge":
        return [[2**70, 0]] * max(rows, 1)
    with np.errstate(all="ignore"):
        return arr.astype(draw(st.sampled_from(MASK_DTYPES)))


RNGS = st.one_of(st.integers(-3, 2**64 + 3), st.just(10**50), ODD, st.just("generator"),
                 st.just("sequence"), st.lists(st.integers(0, 9), max_size=2))


@given(masks(), RNGS)
@bounded(150)
def sample_legal_inputs(mask: Any, rng: Any) -> None:
    import numpy as np

    from holdem.vector import sample_legal

    if rng == "generator":
        rng = np.random.default_rng(1)
    elif rng == "sequence":
        rng = np.random.SeedSequence(1)
    got = call(sample_legal, mask, rng)
    if rejected(got):
        return
    # accepted: a 2-D bool or integer mask, one of its legal (nonzero) columns per row
    m = np.asarray(mask)
    assert m.ndim == 2 and m.dtype.kind in "biu", (m.dtype, m.shape)
    assert got.shape == (m.shape[0],) and got.dtype == np.int64
    assert (m[np.arange(m.shape[0]), got] != 0).all()


def test_sample_legal_inputs() -> None:
    run_in_child(__file__, "sample_legal_inputs")
