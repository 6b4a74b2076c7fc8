"""Bad-input suite: split_pots, Rake and split_pots_batch (dtypes, shapes, layouts, out).
See tests/badinput.py for the contract and how each property runs in a child process."""

from __future__ import annotations

import array
from typing import Any

import pytest
from badinput import bounded, call, rejected, run_in_child
from hypothesis import given
from hypothesis import strategies as st

CHIPS = st.one_of(st.integers(0, 300), st.integers(-5, 5), st.integers(-(2**70), 2**70),
                  st.sampled_from([2**53, 2**53 + 1, 2**62, 2**63 - 1, 2**63, 2**64]))
ODD = st.one_of(st.none(), st.floats(allow_nan=True), st.text(max_size=3), st.booleans(),
                st.binary(max_size=2))


@st.composite
def hands(draw: st.DrawFn) -> tuple[Any, ...]:
    n = draw(st.integers(0, 12))
    lengths = draw(st.lists(st.sampled_from([n, n, n, n + 1, max(n - 1, 0)]), min_size=3,
                            max_size=3))
    committed: Any = draw(st.lists(st.one_of(CHIPS, st.integers(0, 100)), min_size=lengths[0],
                                   max_size=lengths[0]))
    folded: Any = draw(st.lists(st.one_of(st.booleans(), st.booleans(), st.integers(-1, 2)),
                                min_size=lengths[1], max_size=lengths[1]))
    ranks: Any = draw(st.one_of(
        st.none(),
        st.lists(st.one_of(st.none(), st.integers(0, 9), st.integers(-(2**40), 2**40)),
                 min_size=lengths[2], max_size=lengths[2])))
    if draw(st.integers(0, 9)) == 0:
        which = draw(st.integers(0, 2))
        bad = draw(ODD)
        committed, folded, ranks = [bad if i == which else v for i, v in
                                    enumerate((committed, folded, ranks))]
    button = draw(st.one_of(st.integers(-2, 12), CHIPS, ODD))
    dead = draw(st.one_of(st.integers(0, 50), CHIPS, ODD))
    rake = draw(st.one_of(st.none(), st.sampled_from(["0.05", "1/3", 0.1, 1, 0, 2, -1, "x"]),
                          st.fractions(), ODD))
    cap = draw(st.one_of(st.none(), st.integers(0, 10), CHIPS, ODD))
    flop = draw(st.one_of(st.booleans(), ODD))
    return committed, folded, ranks, button, dead, (rake, cap), flop


@given(hands())
@bounded(200)
def split_pots(case: tuple[Any, ...]) -> None:
    import holdem

    committed, folded, ranks, button, dead, (fraction, cap), flop = case
    rake = None
    if fraction is not None:
        rake = call(holdem.Rake, fraction, cap=cap, types=("fraction", "cap"))
        if rejected(rake):
            return
        assert 0 <= rake.fraction <= 1
    got = call(holdem.split_pots, committed, folded, ranks, button, dead=dead, rake=rake,
               flop_dealt=flop,
               types=("committed", "folded", "ranks", "button", "dead", "flop_dealt"))
    if rejected(got):
        return
    assert sum(got.payouts) + got.rake == sum(committed) + dead
    assert all(p >= 0 for p in got.payouts) and len(got.payouts) == len(committed)
    assert 2 <= len(committed) <= 10 and 0 <= button < len(committed)


DTYPES = ["int64", "int64", "int64", "int32", "int16", "uint8", "float64", ">i8", "uint64",
          "bool", "object"]


@st.composite
def batches(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    import numpy as np

    m = draw(st.integers(0, 4))
    n = draw(st.sampled_from([2, 3, 6, 10, 1, 11, 0]))
    committed = np.array(draw(st.lists(st.lists(st.integers(0, 200), min_size=n, max_size=n),
                                       min_size=m, max_size=m)), dtype=np.int64).reshape(m, n)
    if draw(st.integers(0, 4)) == 0 and m and n:
        committed[0, 0] = draw(st.sampled_from([-1, 2**53 + 1, 2**62, -(2**63)]))
    folded = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n),
                                    min_size=m, max_size=m)), dtype=np.uint8).reshape(m, n)
    if m and n:
        folded[:, 0] = 0  # at least one seat is live in most hands
    if draw(st.integers(0, 5)) == 0 and m and n:
        folded[0, :] = draw(st.sampled_from([1, 2, 255]))
    ranks = np.array(draw(st.lists(st.lists(st.integers(-1, 9), min_size=n, max_size=n),
                                   min_size=m, max_size=m)), dtype=np.int32).reshape(m, n)
    buttons = np.array(draw(st.lists(st.integers(-1, max(n, 1)), min_size=m, max_size=m)),
                       dtype=np.int32)
    payouts = np.full((m, n), -7, dtype=np.int64)
    rakes = np.full(m, -7, dtype=np.int64) if draw(st.booleans()) else None
    arrays: dict[str, Any] = {"committed": committed, "folded": folded, "ranks": ranks,
                              "buttons": buttons, "payouts": payouts, "rakes": rakes}
    for _ in range(draw(st.integers(0, 2))):
        name = draw(st.sampled_from(sorted(arrays)))
        arr = arrays[name]
        if not isinstance(arr, np.ndarray):
            continue
        how = draw(st.sampled_from(["dtype", "fortran", "strided", "readonly", "shape", "list",
                                    "none", "flat"]))
        if how == "dtype":
            with np.errstate(all="ignore"):
                arrays[name] = arr.astype(draw(st.sampled_from(DTYPES)))
        elif how == "fortran" and arr.ndim == 2:
            arrays[name] = np.asfortranarray(np.concatenate([arr, arr], axis=1))[:, :n]
        elif how == "strided":
            arrays[name] = np.repeat(arr, 2, axis=0)[::2]
        elif how == "readonly":
            arr.flags.writeable = False
        elif how == "shape":
            arrays[name] = np.zeros((m + 1, *arr.shape[1:]), dtype=arr.dtype)
        elif how == "list":
            arrays[name] = arr.tolist()
        elif how == "none":
            arrays[name] = None
        elif how == "flat":
            arrays[name] = arr.reshape(-1)
    options: dict[str, Any] = {}
    if draw(st.booleans()):
        options["dead"] = draw(st.one_of(
            st.integers(0, 20), st.integers(-3, -1), st.just(2**62),
            st.lists(st.integers(0, 20), min_size=m, max_size=m).map(
                lambda x: np.array(x, dtype=np.int64)),
            st.lists(st.integers(0, 20), min_size=m, max_size=m).map(
                lambda x: np.array(x, dtype=np.int32)),
            st.just(np.zeros(m + 1, dtype=np.int64)), ODD))
    if draw(st.booleans()):
        options["rake"] = draw(st.sampled_from([None, "1/20", "x"]))
    if draw(st.booleans()):
        options["flop_dealt"] = draw(st.one_of(st.booleans(), ODD))
    return arrays, options


@given(batches())
@bounded(150)
def split_pots_batch(case: tuple[dict[str, Any], dict[str, Any]]) -> None:
    import numpy as np

    import holdem
    from holdem.pots import split_pots_batch

    arrays, options = case
    if isinstance(options.get("rake"), str):
        options["rake"] = call(holdem.Rake, options["rake"])
        if rejected(options["rake"]):
            return
    inputs = {k: (np.array(v, copy=True) if isinstance(v, np.ndarray) else v)
              for k, v in arrays.items() if k not in ("payouts", "rakes")}
    outs = {k: np.array(arrays[k], copy=True) for k in ("payouts", "rakes")
            if isinstance(arrays[k], np.ndarray)}
    names = ("committed", "folded", "ranks", "buttons", "payouts", "rakes")
    got = call(split_pots_batch, *(arrays[k] for k in names), **options,
               types=(*names, "dead", "rake", "flop_dealt"))
    for k, v in inputs.items():  # the inputs are never written
        assert v is None or not isinstance(v, np.ndarray) or np.array_equal(arrays[k], v)
    if rejected(got):
        text = str(got.exc)
        if not text.startswith("hand "):  # not a per-hand error: nothing was written
            for k, v in outs.items():
                assert np.array_equal(arrays[k], v), f"a rejected call wrote to {k}"
        return
    assert got is None
    # every row is what split_pots says for that hand
    dead = options.get("dead", 0)
    for i in range(len(arrays["committed"])):
        row = [int(x) for x in arrays["committed"][i]]
        folded = [bool(x) for x in arrays["folded"][i]]
        ranks = [None if int(x) < 0 else int(x) for x in arrays["ranks"][i]]
        d = int(dead[i]) if isinstance(dead, np.ndarray) else int(dead)
        want = holdem.split_pots(row, folded, ranks, int(arrays["buttons"][i]), dead=d,
                                 rake=options.get("rake"),
                                 flop_dealt=bool(options.get("flop_dealt", True)))
        assert tuple(int(x) for x in arrays["payouts"][i]) == want.payouts
        if isinstance(arrays["rakes"], np.ndarray):
            assert int(arrays["rakes"][i]) == want.rake


@pytest.mark.parametrize("args", [(None, [False, False], None, 0), ([1, 2], None, None, 0),
                                  ([1, 2], [False, False], 5, 0), (7, [False], None, 0)])
def test_split_pots_names_an_argument_that_is_not_a_sequence(args: tuple[Any, ...]) -> None:
    # Found by this suite: a bare "TypeError: 'NoneType' object is not iterable".
    import holdem

    with pytest.raises(holdem.InvalidPotError, match="must be a sequence with one entry per"):
        holdem.split_pots(*args)


def _batch_of_two() -> tuple[Any, ...]:
    np = pytest.importorskip("numpy")

    committed = np.array([[10, 10, 10], [5, 5, 5]], dtype=np.int64)
    folded = np.zeros((2, 3), dtype=np.uint8)
    ranks = np.array([[1, 2, 3], [3, 2, 1]], dtype=np.int32)
    buttons = np.zeros(2, dtype=np.int32)
    return committed, folded, ranks, buttons


def test_split_pots_batch_dead_of_a_strided_memoryview_is_an_invalid_pot_error() -> None:
    # Found by this suite: a per-hand dead given as a memoryview that is not C-contiguous
    # (not a numpy array) raised a bare BufferError instead of InvalidPotError.
    np = pytest.importorskip("numpy")
    import holdem
    from holdem.pots import split_pots_batch

    payouts = np.full((2, 3), -7, dtype=np.int64)
    dead = memoryview(array.array("q", [1, 2, 3, 4]))[::2]
    with pytest.raises(holdem.InvalidPotError, match="C-contiguous int64 buffer of 2 entries"):
        split_pots_batch(*_batch_of_two(), payouts, dead=dead)
    assert (payouts == -7).all()
    split_pots_batch(*_batch_of_two(), payouts, dead=array.array("q", [1, 3]))
    assert payouts.tolist() == [[0, 0, 31], [18, 0, 0]]


@pytest.mark.parametrize("which", [0, 1, 2])
def test_split_pots_batch_an_empty_input_among_rows_is_refused(which: int) -> None:
    # Found by this suite: an input with no rows given as a memoryview (not a numpy array)
    # was taken for a batch of no hands: the call returned without checking the other
    # arrays' shapes, and the payouts of the hands given were never written.
    np = pytest.importorskip("numpy")
    import holdem
    from holdem.pots import split_pots_batch

    args = list(_batch_of_two())
    # committed as int8 (a copy is made), the empty input as a memoryview of 0 rows
    args[0] = args[0].astype(np.int8)
    empty = np.zeros((0, 3), dtype=args[which].dtype)
    args[which] = memoryview(empty)
    payouts = np.full((2, 3), -7, dtype=np.int64)
    with pytest.raises(holdem.InvalidPotError, match="has shape"):
        split_pots_batch(*args, payouts)
    assert (payouts == -7).all()
    # a batch of no hands whose arrays agree is still nothing to do
    none = [memoryview(np.zeros((0, 3), dtype=a.dtype)) for a in _batch_of_two()[:3]]
    split_pots_batch(*none, array.array("i"), memoryview(np.zeros((0, 3), dtype=np.int64)))
    with pytest.raises(holdem.InvalidPotError, match="dead has 1 entries for 0 hands"):
        split_pots_batch(*none, array.array("i"), memoryview(np.zeros((0, 3), dtype=np.int64)),
                         dead=array.array("q", [1]))


@pytest.mark.parametrize("prop", ["split_pots", "split_pots_batch"])
def test_in_child(prop: str) -> None:
    run_in_child(__file__, prop)
