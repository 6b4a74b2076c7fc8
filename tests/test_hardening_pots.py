"""split_pots_batch takes any integer dtype and any layout for its
inputs (as evaluate_many does), and a read-only or wrong-dtype output raises
InvalidArrayError naming the argument, what was given and what is wanted."""

from __future__ import annotations

from array import array
from typing import Any

import pytest

from holdem import InvalidArrayError
from holdem.pots import split_pots_batch

np = pytest.importorskip("numpy")

COMMITTED = [[50, 100, 100], [20, 20, 0], [7, 9, 9]]
FOLDED = [[0, 0, 1], [0, 0, 1], [1, 0, 0]]
RANKS = [[7, 5, -1], [3, 3, -1], [-1, 4, 8]]
BUTTONS = [0, 1, 2]


def expected() -> Any:
    out = np.zeros((3, 3), dtype=np.int64)
    split_pots_batch(np.array(COMMITTED, dtype=np.int64), np.array(FOLDED, dtype=np.uint8),
                     np.array(RANKS, dtype=np.int32), np.array(BUTTONS, dtype=np.int32), out)
    return out


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint16",
                                   "uint32", "uint64"])
def test_split_pots_batch_any_integer_dtype(dtype: str) -> None:
    out = np.zeros((3, 3), dtype=np.int64)
    ranks = np.array(RANKS, dtype=np.int64)
    if dtype.startswith("u"):
        ranks = np.where(ranks < 0, 0, ranks)  # unsigned: no -1 rank; 0 ranks lowest
    split_pots_batch(np.array(COMMITTED, dtype=dtype), np.array(FOLDED, dtype=dtype),
                     ranks.astype(dtype), np.array(BUTTONS, dtype=dtype), out)
    assert out.sum() == np.array(COMMITTED).sum()
    if not dtype.startswith("u"):
        assert (out == expected()).all()


def test_split_pots_batch_bool_folded_and_non_contiguous_inputs() -> None:
    wide = np.zeros((3, 6), dtype=np.int64)
    wide[:, ::2] = COMMITTED
    committed = wide[:, ::2]
    assert not committed.flags.c_contiguous
    out = np.zeros((3, 3), dtype=np.int64)
    split_pots_batch(committed, np.array(FOLDED, dtype=bool), np.asfortranarray(RANKS),
                     np.array(BUTTONS * 2, dtype=np.int16)[::2][:3] * 0 + BUTTONS, out)
    assert (out == expected()).all()


def test_split_pots_batch_non_contiguous_memoryview_without_numpy_types() -> None:
    committed = array("h", [v for row in COMMITTED for v in row])
    out = memoryview(array("q", [0] * 9)).cast("B").cast("q", (3, 3))
    folded = array("h", [v for row in FOLDED for v in row])
    ranks = array("b", [v for row in RANKS for v in row])
    buttons = memoryview(array("b", [v for b in BUTTONS for v in (b, 99)]))[::2]
    assert not buttons.c_contiguous
    split_pots_batch(memoryview(committed).cast("B").cast("h", (3, 3)),
                     memoryview(folded).cast("B").cast("h", (3, 3)),
                     memoryview(ranks).cast("B").cast("b", (3, 3)), buttons, out)
    assert out.tolist() == expected().tolist()


@pytest.mark.parametrize(("name", "bad"), [
    ("ranks", np.array([[2**40, 5, -1]] * 3, dtype=np.int64)),
    ("folded", np.array([[0, 2, 1]] * 3, dtype=np.int32)),
    ("committed", np.array([[2**63, 1, 1]] * 3, dtype=np.uint64)),
    ("committed", np.array([[1.5, 1, 1]] * 3)),
])
def test_split_pots_batch_values_that_do_not_fit(name: str, bad: Any) -> None:
    args = {"committed": np.array(COMMITTED), "folded": np.array(FOLDED, dtype=np.uint8),
            "ranks": np.array(RANKS, dtype=np.int32), "buttons": np.array(BUTTONS, np.int32)}
    args[name] = bad
    with pytest.raises(InvalidArrayError, match=name):
        split_pots_batch(args["committed"], args["folded"], args["ranks"], args["buttons"],
                         np.zeros((3, 3), dtype=np.int64))


@pytest.mark.parametrize(("out", "said"), [
    (np.zeros((3, 3), dtype=np.int32), "4-byte"),
    (np.zeros((3, 3), dtype=np.float64), "'d'"),
    (np.zeros((3, 6), dtype=np.int64)[:, ::2], "not C-contiguous"),
    (np.zeros((3, 3), dtype=np.int64), "read-only"),
])
def test_split_pots_batch_bad_output_names_the_argument(out: Any, said: str) -> None:
    if said == "read-only":
        out.setflags(write=False)
    with pytest.raises(InvalidArrayError, match=f"payouts must be a writable C-contiguous 2-D "
                                                f"int64 buffer; got .*{said}"):
        split_pots_batch(np.array(COMMITTED, dtype=np.int32), np.array(FOLDED),
                         np.array(RANKS), np.array(BUTTONS), out)
    with pytest.raises(InvalidArrayError, match="payouts must be a writable"):
        split_pots_batch(np.array(COMMITTED), np.array(FOLDED, dtype=np.uint8),
                         np.array(RANKS, dtype=np.int32), np.array(BUTTONS, dtype=np.int32), out)


def test_split_pots_batch_bad_rakes_output() -> None:
    with pytest.raises(InvalidArrayError, match="rakes must be a writable"):
        split_pots_batch(np.array(COMMITTED), np.array(FOLDED), np.array(RANKS),
                         np.array(BUTTONS), np.zeros((3, 3), dtype=np.int64),
                         np.zeros(3, dtype=np.int32))


def test_split_pots_batch_wrong_type_names_the_parameter() -> None:
    with pytest.raises(TypeError, match="committed must be a buffer"):
        split_pots_batch(None, np.array(FOLDED), np.array(RANKS), np.array(BUTTONS),
                         np.zeros((3, 3), dtype=np.int64))
    with pytest.raises(TypeError, match="ranks must be a buffer"):
        split_pots_batch(np.array(COMMITTED), np.array(FOLDED), 5, np.array(BUTTONS),
                         np.zeros((3, 3), dtype=np.int64))


def _misaligned(values: Any, dtype: str) -> Any:
    """``values`` in a C-contiguous array that starts one byte off its items' alignment."""
    arr = np.asarray(values, dtype=dtype)
    raw = np.zeros(arr.nbytes + 1, dtype=np.uint8)
    view = raw[1:].view(dtype).reshape(arr.shape)
    view[...] = arr
    return view


def test_split_pots_batch_buffers_off_their_alignment() -> None:
    """The loop read C-contiguous buffers of the exact types in place even when they started
    off their items' alignment (a numpy view at an odd byte offset): misaligned C reads and
    writes. Such inputs are now copied; such an output is named (it is written in place)."""
    args = (_misaligned(COMMITTED, "int64"), _misaligned(FOLDED, "uint8"),
            _misaligned(RANKS, "int32"), _misaligned(BUTTONS, "int32"))
    out = np.zeros((3, 3), dtype=np.int64)
    split_pots_batch(*args, out, dead=_misaligned([1, 0, 2], "int64"))
    plain = np.zeros((3, 3), dtype=np.int64)
    split_pots_batch(np.array(COMMITTED), np.array(FOLDED, dtype=np.uint8),
                     np.array(RANKS, dtype=np.int32), np.array(BUTTONS, dtype=np.int32), plain,
                     dead=np.array([1, 0, 2]))
    assert out.tolist() == plain.tolist()
    for name, payouts, rakes in (("payouts", _misaligned(np.zeros((3, 3)), "int64"), None),
                                 ("rakes", out, _misaligned([0, 0, 0], "int64"))):
        with pytest.raises(InvalidArrayError, match=f"{name} must be an aligned int64 buffer"):
            split_pots_batch(*args, payouts, rakes)
