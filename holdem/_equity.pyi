"""Stubs for the compiled equity kernels (see holdem/_equity.pyx)."""

from typing_extensions import Buffer

def exact_chunk(
    cards: Buffer, board: Buffer, dead: int, n: int, assign: Buffer, aweight: Buffer,
    u0: int, u1: int, first: int,
) -> tuple[int, float, list[float], list[float]]: ...
def mc_chunk(
    cards: Buffer, offsets: Buffer, accept: Buffer, board: Buffer, dead: int, samples: int,
    seed: int,
) -> tuple[list[int], list[int], int]: ...
def valid_assignments(
    cards: Buffer, offsets: Buffer, weight: Buffer, dead: int, limit: int,
) -> tuple[bytes, bytes] | None: ...
