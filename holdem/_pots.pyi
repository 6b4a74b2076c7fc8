"""Type stubs for the compiled pot resolver (holdem/_pots.pyx)."""

from collections.abc import Sequence
from typing import Any

from holdem.pots import Rake

MAX_SEATS: int
MAX_CHIPS: int
MAX_DEAD: int
MAX_RAKE_DENOMINATOR: int

_RawPot = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]

def resolve(
    committed: Sequence[int],
    folded: Sequence[bool],
    ranks: Sequence[int | None] | None,
    button: int,
    rake: Rake | None,
    flop_dealt: bool,
    dead: int = 0,
) -> tuple[tuple[int, ...], tuple[int, ...], int, list[_RawPot]]: ...
def check_flag(name: str, value: object) -> bool: ...
def split_pots_batch(
    committed: Any,
    folded: Any,
    ranks: Any,
    buttons: Any,
    payouts: Any,
    rakes: Any = None,
    *,
    rake: Rake | None = None,
    flop_dealt: bool = True,
    dead: Any = 0,
) -> None: ...
