"""Buffers that Python's memoryview cannot read item by item (a byte-order or alignment
prefix, more than one dimension, a numpy dtype a buffer cannot hold) and batches whose sizes
disagree: every one is refused with a HoldemError naming the argument, never
NotImplementedError, a bare ValueError or a copy of the whole input first."""

from __future__ import annotations

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


def _unreadable_card_buffers() -> list[object]:
    bufs: list[object] = [memoryview(bytes([0, 1, 2, 3, 4, 5])).cast("B", (2, 3))]  # 2-D
    try:
        import numpy as np
    except ImportError:
        return bufs
    misaligned = np.zeros(8 * 5 + 1, np.uint8)[1:].view(np.int64)  # format '=q'
    misaligned[:] = [0, 5, 10, 15, 20]
    bufs += [memoryview(np.arange(5, dtype=">i4")), memoryview(misaligned),
             memoryview(np.arange(5, dtype=np.float16))]
    return bufs


@pytest.mark.parametrize("buf", _unreadable_card_buffers(),
                         ids=lambda b: f"{b.format}-{b.ndim}d")  # type: ignore[attr-defined]
def test_cards_from_a_buffer_memoryview_cannot_iterate_are_refused(buf: memoryview) -> None:
    for call in (parse_cards, evaluate, best_five, Deck(seed=1).remove):
        with pytest.raises(InvalidCardError, match="cannot read card ids from this buffer"):
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
