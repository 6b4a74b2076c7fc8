"""A slow, plain, obviously correct hand evaluator used as an oracle by the tests.

It shares nothing with the compiled evaluator: it looks at every five-card subset, names the
hand the way a dealer would, and compares hands as tuples ``(category, tie-breakers...)``
(category 0 = high card .. 8 = straight flush, ranks 0 = deuce .. 12 = ace, the wheel's high
card is the five, rank 3). Not shipped with the package; other tests may import it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

HandValue = tuple[int, ...]


def classify_five(cards: Sequence[int]) -> HandValue:
    """(category, tie-breakers...) of exactly five distinct card ids (4*rank + suit)."""
    assert len(cards) == 5 and len(set(cards)) == 5
    ranks = [card // 4 for card in cards]
    suits = [card % 4 for card in cards]
    is_flush = len(set(suits)) == 1

    distinct = sorted(set(ranks), reverse=True)
    straight_high = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:  # A-2-3-4-5: the ace plays low
            straight_high = 3

    count = {r: ranks.count(r) for r in distinct}
    # bigger groups first, then higher ranks: (quad, kicker), (trips, pair), (p1, p2, kicker)...
    groups = sorted(distinct, key=lambda r: (count[r], r), reverse=True)
    shape = sorted(count.values(), reverse=True)

    if straight_high is not None and is_flush:
        return (STRAIGHT_FLUSH, straight_high)
    if shape == [4, 1]:
        return (QUADS, *groups)
    if shape == [3, 2]:
        return (FULL_HOUSE, *groups)
    if is_flush:
        return (FLUSH, *distinct)
    if straight_high is not None:
        return (STRAIGHT, straight_high)
    if shape == [3, 1, 1]:
        return (TRIPS, *groups)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, *groups)
    if shape == [2, 1, 1, 1]:
        return (PAIR, *groups)
    return (HIGH_CARD, *groups)


def best_value(cards: Iterable[int]) -> HandValue:
    """The value of the best five of 5, 6 or 7 cards."""
    cards = list(cards)
    assert 5 <= len(cards) <= 7 and len(set(cards)) == len(cards)
    return max(classify_five(five) for five in combinations(cards, 5))


def category_of(cards: Iterable[int]) -> int:
    return best_value(cards)[0]
