"""The one place where a hand meets the evaluator and the pot resolver (R29-R34).

``rank7`` ranks a seat's seven cards (``holdem.evaluate``, branch ``eval``), ``describe_rank``
names it (``holdem.describe``) and ``split`` resolves the pots (``holdem.pots.split_pots``,
branch ``pots``). Until those modules are importable, small private pure-Python stand-ins with
the same contracts are used (higher rank = stronger; odd chips clockwise from the button).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

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


@dataclass(frozen=True, slots=True)
class _Pot:
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    rake: int = 0


@dataclass(frozen=True, slots=True)
class _PotResult:
    payouts: tuple[int, ...]
    returned: tuple[int, ...]
    pots: tuple[_Pot, ...]
    rake: int


def _fallback_split(committed: Sequence[int], folded: Sequence[bool],
                    ranks: Sequence[int | None] | None, button: int, *,
                    rake: Any = None, flop_dealt: bool = True) -> _PotResult:
    n = len(committed)
    com = list(committed)
    returned = [0] * n
    top = max(com)
    if com.count(top) == 1:
        second = max(c for i, c in enumerate(com) if com.index(top) != i)
        i = com.index(top)
        returned[i] = top - second
        com[i] = second
    payouts = returned[:]
    levels = sorted({com[i] for i in range(n) if not folded[i] and com[i] > 0})
    pots: list[list[Any]] = []
    prev = 0
    for k, level in enumerate(levels):
        hi = level if k < len(levels) - 1 else max(com)
        amount = sum(max(0, min(c, hi) - prev) for c in com)
        eligible = tuple(i for i in range(n) if not folded[i] and com[i] >= level)
        pots.append([amount, eligible])
        prev = hi
    total = sum(p[0] for p in pots)
    total_rake = rake.of(total, flop_dealt=flop_dealt) if rake is not None else 0
    out: list[_Pot] = []
    left = total_rake
    for amount, eligible in pots:
        take = min(left, amount)
        left -= take
        if len(eligible) == 1 or ranks is None:
            winners = eligible[:1]
        else:
            best = max(ranks[i] or 0 for i in eligible)
            winners = tuple(i for i in eligible if ranks[i] == best)
        net = amount - take
        share, odd = divmod(net, len(winners))
        shares = dict.fromkeys(winners, share)
        for j in range(1, n + 1):
            seat = (button + j) % n
            if odd and seat in shares:
                shares[seat] += 1
                odd -= 1
        for w in winners:
            payouts[w] += shares[w]
        out.append(_Pot(amount, eligible, winners, tuple(shares[w] for w in winners), take))
    return _PotResult(tuple(payouts), tuple(returned), tuple(out), total_rake)


_impl: dict[str, Callable[..., Any]] = {}


def _load() -> dict[str, Callable[..., Any]]:
    import holdem

    evaluate = getattr(holdem, "evaluate", None)
    describe = getattr(holdem, "describe", None)
    if evaluate is None or describe is None:
        evaluate, describe = _fallback_evaluate, _fallback_describe
    try:
        from holdem.pots import split_pots  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        split_pots = _fallback_split
    _impl.update(evaluate=evaluate, describe=describe, split=split_pots)
    return _impl


def rank7(cards: Sequence[int]) -> int:
    """The evaluator rank of 5-7 cards (higher is stronger)."""
    impl = _impl or _load()
    return int(impl["evaluate"](list(cards)))


def describe_rank(rank: int) -> str:
    impl = _impl or _load()
    return str(impl["describe"](rank))


def split(committed: Sequence[int], folded: Sequence[bool], ranks: Sequence[int | None] | None,
          button: int, *, rake: Any, flop_dealt: bool) -> Any:
    """Resolve the pots: ``holdem.pots.split_pots`` with the same arguments."""
    impl = _impl or _load()
    return impl["split"](committed, folded, ranks, button, rake=rake, flop_dealt=flop_dealt)
