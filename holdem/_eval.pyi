"""Type stubs for the compiled evaluator core (holdem/_eval.pyx)."""

from collections.abc import Iterable
from typing import Any, Final

from holdem.cards import CardLike

NUM_RANKS: Final[int]
CATEGORY_MIN: Final[tuple[int, ...]]
TABLE_BYTES: Final[int]

def evaluate(cards: str | Iterable[CardLike], /) -> int: ...
def evaluate_many(cards: Any, *, n_cards: int | None = None, out: Any = None) -> Any: ...
def _rank_histogram(n: int) -> list[int]: ...
