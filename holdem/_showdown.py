"""The one place where a hand meets the evaluator and the pot resolver (R29-R34).

``rank7`` ranks a seat's seven cards (``holdem.evaluate``, branch ``eval``), ``describe_rank``
names it (``holdem.describe``) and ``split`` resolves the pots (``holdem.pots.split_pots``,
branch ``pots``). Until the evaluator is importable, a small private pure-Python stand-in with
the same contract is used (higher rank = stronger).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from holdem.pots import PotResult, Rake, split_pots

__all__ = ["describe_rank", "rank7", "split"]

_CATEGORY_NAMES = (
    "High Card", "Pair", "Two Pair", "Three of a Kind", "Straight", "Flush",
    "Full House", "Four of a Kind", "Straight Flush",
)


def _rank5(cards: Sequence[int]) -> int:
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    uniq = sorted(set(ranks), reverse=True)
    straight_hi = -1
    if len(uniq) == 5:
        if uniq[0] - uniq[4] == 4:
            straight_hi = uniq[0]
        elif uniq == [12, 3, 2, 1, 0]:
            straight_hi = 3
    counts = sorted(((ranks.count(r), r) for r in uniq), reverse=True)
    shape = [c for c, _ in counts]
    order = [r for _, r in counts]
    if straight_hi >= 0 and flush:
        cat, key = 8, [straight_hi]
    elif shape[0] == 4:
        cat, key = 7, order
    elif shape == [3, 2]:
        cat, key = 6, order
    elif flush:
        cat, key = 5, ranks
    elif straight_hi >= 0:
        cat, key = 4, [straight_hi]
    elif shape[0] == 3:
        cat, key = 3, order
    elif shape == [2, 2, 1]:
        cat, key = 2, order
    elif shape[0] == 2:
        cat, key = 1, order
    else:
        cat, key = 0, ranks
    value = cat
    for i in range(5):
        value = value * 13 + (key[i] if i < len(key) else 0)
    return value


def _fallback_evaluate(cards: Sequence[int]) -> int:
    return max(_rank5(five) for five in combinations(cards, 5))


def _fallback_describe(rank: int) -> str:
    return _CATEGORY_NAMES[rank // 13**5]


_impl: dict[str, Callable[..., Any]] = {}


def _load() -> dict[str, Callable[..., Any]]:
    import holdem

    evaluate = getattr(holdem, "evaluate", None)
    describe = getattr(holdem, "describe", None)
    if evaluate is None or describe is None:
        evaluate, describe = _fallback_evaluate, _fallback_describe
    _impl.update(evaluate=evaluate, describe=describe)
    return _impl


def rank7(cards: Sequence[int]) -> int:
    """The evaluator rank of 5-7 cards (higher is stronger)."""
    impl = _impl or _load()
    return int(impl["evaluate"](list(cards)))


def describe_rank(rank: int) -> str:
    impl = _impl or _load()
    return str(impl["describe"](rank))


def split(committed: Sequence[int], folded: Sequence[bool], ranks: Sequence[int | None] | None,
          button: int, *, rake: Rake | None, flop_dealt: bool) -> PotResult:
    """Resolve the pots (R21, R31, R32, R34): ``holdem.pots.split_pots``."""
    return split_pots(committed, folded, ranks, button, rake=rake, flop_dealt=flop_dealt)
