"""Buffers that Python's memoryview cannot read item by item (a byte-order or alignment
prefix, more than one dimension, a format this Python's memoryview does not unpack), buffers
of floats, and batches whose sizes disagree: every one is refused with a HoldemError naming the
argument, never NotImplementedError, a bare ValueError or a copy of the whole input first."""

from __future__ import annotations

import struct
import sys
from array import array

import pytest

from holdem import (
    Deck,
    InvalidArrayError,
    InvalidCardError,
    InvalidPotError,
    best_five,
    evaluate,
    parse_cards,
)
from holdem.pots import split_pots_batch

# memoryview unpacks half floats (format 'e') from Python 3.12 on: before, a float16 buffer is
# one it cannot iterate; from then on, a buffer of floats like any other ('f', 'd').
HALF_FLOATS_UNPACKED = sys.version_info >= (3, 12)


def _unreadable_card_buffers() -> list[object]:
    bufs: list[object] = [memoryview(bytes([0, 1, 2, 3, 4, 5])).cast("B", (2, 3))]  # 2-D
    try:
        import numpy as np
    except ImportError:
        return bufs
    misaligned = np.zeros(8 * 5 + 1, np.uint8)[1:].view(np.int64)  # format '=q'
    misaligned[:] = [0, 5, 10, 15, 20]
    bufs += [memoryview(np.arange(5, dtype=">i4")), memoryview(misaligned)]
    if not HALF_FLOATS_UNPACKED:
        bufs.append(memoryview(np.arange(5, dtype=np.float16)))
    return bufs


def _float_card_buffers() -> list[object]:
    """1-D native buffers of the floats 0, 5, 10, 15, 20: memoryview reads each item as a
    float, which is not a card."""
    bufs: list[object] = [memoryview(array("d", [0, 5, 10, 15, 20])),
                          memoryview(array("f", [0, 5, 10, 15, 20]))]
    if HALF_FLOATS_UNPACKED:
        # (memoryview refuses a cast to 'e' before 3.12)
        bufs.append(memoryview(struct.pack("@5e", 0, 5, 10, 15, 20)).cast("e"))
        try:
            import numpy as np
        except ImportError:
            return bufs
        bufs.append(memoryview(np.arange(0, 25, 5, dtype=np.float16)))
    return bufs


@pytest.mark.parametrize("buf", _unreadable_card_buffers(),
                         ids=lambda b: f"{b.format}-{b.ndim}d")  # type: ignore[attr-defined]
def test_cards_from_a_buffer_memoryview_cannot_iterate_are_refused(buf: memoryview) -> None:
    for call in (parse_cards, evaluate, best_five, Deck(seed=1).remove):
        with pytest.raises(InvalidCardError, match="cannot read card ids from this buffer"):
            call(buf)


@pytest.mark.parametrize(
    "buf", _float_card_buffers(),
    ids=lambda b: f"{b.format}-{type(b.obj).__name__}")  # type: ignore[attr-defined]
def test_cards_from_a_buffer_of_floats_are_refused(buf: memoryview) -> None:
    assert buf.tolist() == [0.0, 5.0, 10.0, 15.0, 20.0]
    for call in (parse_cards, evaluate, best_five, Deck(seed=1).remove):
        with pytest.raises(InvalidCardError, match=r"^not a card: 0\.0 "):
            call(buf)


def _pots_batch(m: int = 2, n: int = 3) -> tuple[object, ...]:
    np = pytest.importorskip("numpy")
    return (np.full((m, n), 10, np.int64), np.zeros((m, n), np.uint8),
            np.arange(m * n, dtype=np.int32).reshape(m, n), np.zeros(m, np.int32),
            np.zeros((m, n), np.int64))


def test_split_pots_batch_reads_an_unaligned_memoryview() -> None:
    np = pytest.importorskip("numpy")
    committed, folded, ranks, buttons, payouts = _pots_batch()
    raw = np.zeros(committed.nbytes + 1, np.uint8)[1:].view(np.int64).reshape(2, 3)  # '=q'
    raw[:] = committed
    view = memoryview(raw)
    assert view.format == "=q"
    split_pots_batch(view, folded, ranks, buttons, payouts)
    expected = np.zeros((2, 3), np.int64)
    split_pots_batch(committed, folded, ranks, buttons, expected)
    assert payouts.tolist() == expected.tolist()


def test_split_pots_batch_refuses_a_buffer_that_cannot_export_its_items() -> None:
    committed, folded, ranks, buttons, payouts = _pots_batch()
    with pytest.raises(InvalidArrayError, match="committed must be a buffer of integers"):
        split_pots_batch(committed.astype("datetime64[s]"), folded, ranks, buttons, payouts)


def test_split_pots_batch_checks_shapes_before_copying() -> None:
    np = pytest.importorskip("numpy")
    committed, folded, ranks, buttons, payouts = _pots_batch()
    # 2**40 rows of a broadcast view (no memory behind them): a copy would never finish
    huge = np.broadcast_to(np.zeros(1, np.int16), (1 << 40, 3))
    for args, name in (((huge, folded, ranks, buttons, payouts), "folded"),
                       ((committed, folded, huge, buttons, payouts), "ranks"),
                       ((committed, huge, ranks, buttons, payouts), "folded")):
        before = payouts.copy()
        with pytest.raises(InvalidPotError, match=name):
            split_pots_batch(*args)
        assert (payouts == before).all()


def test_split_pots_batch_refuses_outputs_that_overlap_its_inputs() -> None:
    """A row written before a later row is read changed what that row read: payouts written
    over committed gave silently wrong results for every hand after the first."""
    np = pytest.importorskip("numpy")
    committed, folded, ranks, buttons, payouts = _pots_batch()
    m = len(committed)
    wide = np.zeros((m, 3), np.int64)
    for args, message in [
        ((committed, folded, ranks, buttons, committed), "payouts must not overlap committed"),
        ((committed, folded, ranks, buttons, payouts, payouts.reshape(-1)[:m]),
         "rakes must not overlap payouts"),
        ((committed, folded, ranks, buttons, wide, committed[:, 0].copy()), None),
    ]:
        before = [a.copy() for a in args]
        if message is None:
            split_pots_batch(*args)  # apart: accepted
            continue
        with pytest.raises(InvalidArrayError, match=message):
            split_pots_batch(*args)
        assert all((a == b).all() for a, b in zip(args, before, strict=True))
    shared = np.zeros(2 * m, np.int32)  # buttons inside the rakes' bytes
    rakes = shared.view(np.int64)
    with pytest.raises(InvalidArrayError, match="rakes must not overlap buttons"):
        split_pots_batch(committed, folded, ranks, shared[m: 2 * m], payouts, rakes)
    dead = np.zeros(m, np.int64)
    with pytest.raises(InvalidArrayError, match="rakes must not overlap dead"):
        split_pots_batch(committed, folded, ranks, buttons, payouts, dead, dead=dead)


@pytest.mark.parametrize("flag", ["yes", 1, None, [True]])
def test_split_pots_flop_dealt_is_true_or_false(flag: object) -> None:
    """It was read by truthiness ("no" dealt a flop; a numpy array raised its own ValueError)."""
    from holdem import split_pots

    committed, folded, ranks, buttons, payouts = _pots_batch()
    with pytest.raises(InvalidPotError, match="flop_dealt must be True or False"):
        split_pots([10, 10], [False, False], [1, 2], 0, flop_dealt=flag)
    with pytest.raises(InvalidPotError, match="flop_dealt must be True or False"):
        split_pots_batch(committed, folded, ranks, buttons, payouts, flop_dealt=flag)


def test_split_pots_names_a_zero_dimensional_array() -> None:
    np = pytest.importorskip("numpy")
    from holdem import split_pots

    for where in ("committed", "folded", "ranks"):
        args = {"committed": [10, 10], "folded": [False, False], "ranks": [1, 2]}
        args[where] = np.array(3)
        with pytest.raises(InvalidPotError, match=f"{where} must be a sequence"):
            split_pots(args["committed"], args["folded"], args["ranks"], 0)


def test_evaluate_many_checks_the_row_size_before_copying() -> None:
    """A strided view is read through a copy: its shape and n_cards are checked first, so a
    broadcast view of 2**40 rows with a wrong n_cards is refused, not copied (MemoryError)."""
    np = pytest.importorskip("numpy")
    from holdem import evaluate_many

    huge = np.broadcast_to(np.arange(7, dtype=np.int64), (1 << 40, 7))[:, ::-1]
    assert not huge.flags.c_contiguous
    for kw, message in [({"n_cards": 21}, "n_cards must be 5, 6 or 7"),
                        ({"n_cards": 6}, "n_cards=6 does not match the array's 7 columns")]:
        with pytest.raises(InvalidArrayError, match=message):
            evaluate_many(huge, **kw)
    with pytest.raises(InvalidArrayError, match="rows must have 5, 6 or 7 cards, got 8"):
        evaluate_many(np.broadcast_to(np.arange(8, dtype=np.int64), (1 << 40, 8))[:, ::-1])
