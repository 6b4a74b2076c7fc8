"""Seeds: how the ints users pass as ``seed=`` become the 64 bits a C generator is seeded with.

Every random thing in holdem takes ``seed``: an ``int`` of any size or sign, or ``None``.

- An int is reduced modulo 2**64 (two's complement for negative numbers), so ``-1`` and
  ``2**64 - 1`` are the same seed, and ``2**64`` is the same seed as ``0``. Ints 0 .. 2**64-1
  map to themselves. Anything ``int``-like (``numpy.int64``, anything with ``__index__``) is
  accepted; ``bool``, ``float``, ``str`` ... are not.
- ``None`` draws 64 bits from :func:`os.urandom`; the object keeps the int it drew (e.g.
  ``Deck.seed``) so the run can be replayed by passing it back.

>>> seed_bits(-1) == 2**64 - 1, seed_bits(2**64 + 5)
(True, 5)
"""

from __future__ import annotations

import os
from typing import SupportsIndex

from holdem._ints import int_or_none
from holdem._shown import excerpt
from holdem.errors import InvalidConfigError

__all__ = ["SeedLike", "resolve_seed", "seed_bits"]

SeedLike = SupportsIndex | None

_MASK64 = (1 << 64) - 1


def _as_int(seed: object) -> int:
    value = int_or_none(seed)
    if value is None:
        raise InvalidConfigError(
            f"seed must be an int (any size or sign) or None, not {type(seed).__name__}: "
            f"{excerpt(seed)}"
        )
    return value


def seed_bits(seed: SupportsIndex) -> int:
    """The 64-bit value (0 .. 2**64-1) that seeds the C generator for ``seed``."""
    return _as_int(seed) & _MASK64


def resolve_seed(seed: object) -> int:
    """The int to keep as the seed: ``seed`` itself (checked), or a fresh one from os.urandom."""
    if seed is None:
        return int.from_bytes(os.urandom(8), "little")
    return _as_int(seed)
