"""The one place where a hand meets the evaluator and the pot resolver (R29-R34).

``rank7`` ranks a seat's seven cards with ``holdem.evaluate`` (best five of seven, R29/R30;
higher is stronger), ``describe_rank`` names a rank (``holdem.describe``) and ``split``
resolves the pots with ``holdem.split_pots`` (uncalled chips R21, side pots R31, odd chips
R32, rake R34).
"""

from __future__ import annotations

from collections.abc import Sequence

from holdem._eval import evaluate
from holdem.evaluator import describe
from holdem.pots import PotResult, Rake, split_pots

__all__ = ["describe_rank", "rank7", "split"]


def rank7(cards: Sequence[int]) -> int:
    """The evaluator rank of 5-7 cards (higher is stronger)."""
    return int(evaluate(cards))


def describe_rank(rank: int) -> str:
    """The text description of a rank, e.g. ``'Two Pair, Aces and Kings, Queen kicker'``."""
    return describe(rank)


def split(committed: Sequence[int], folded: Sequence[bool], ranks: Sequence[int | None] | None,
          button: int, *, rake: Rake | None, flop_dealt: bool) -> PotResult:
    """Resolve the pots (R21, R31, R32, R34): ``holdem.split_pots``."""
    return split_pots(committed, folded, ranks, button, rake=rake, flop_dealt=flop_dealt)
