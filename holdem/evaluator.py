"""Hand evaluation: ranks, categories, descriptions and the best five cards.

A hand's *rank* is an int from 1 (7-5-4-3-2, the weakest five-card hand) to 7462 (royal
flush): higher is stronger, equal hands get equal ranks, and exactly 7,462 distinct values
occur over all five-card hands (R30).  With 6 or 7 cards the rank is that of the best five
(R29).  Suits never break ties.

>>> from holdem import evaluate, describe, category, best_five
>>> r = evaluate("Ah Ad Kc Ks Qd 7c 2h")
>>> describe(r), category(r).name
('Two Pair, Aces and Kings, Queen kicker', 'TWO_PAIR')
>>> best_five("Ah Ad Kc Ks Qd 7c 2h")
(Card('Ah'), Card('Ad'), Card('Ks'), Card('Kc'), Card('Qd'))

Descriptions follow one pattern, ``"<Category>, <what makes it>, <kickers>"``::

    High Card, Ace, King, Nine, Seven, Four
    Pair, Nines, Ace, King, Four kickers
    Two Pair, Aces and Kings, Queen kicker
    Three of a Kind, Sevens, Ace, Four kickers
    Straight, Five high                       (the wheel, A-2-3-4-5)
    Flush, Ace, Jack, Nine, Six, Deuce
    Full House, Kings full of Sevens
    Four of a Kind, Nines, Ace kicker
    Straight Flush, Nine high
    Royal Flush                               (the ace-high straight flush)
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from collections.abc import Iterable
from enum import IntEnum
from itertools import combinations, combinations_with_replacement
from typing import Final, SupportsIndex

from holdem._enums import NamedRepr
from holdem._eval import CATEGORY_MIN, NUM_RANKS, evaluate, evaluate_many
from holdem._shown import excerpt
from holdem.cards import RANK_NAMES, Card, CardLike, parse_cards
from holdem.errors import InvalidHandError

__all__ = [
    "NUM_RANKS",
    "HandCategory",
    "best_five",
    "category",
    "describe",
    "evaluate",
    "evaluate_many",
]


class HandCategory(NamedRepr, IntEnum):
    """The nine categories of poker hands, weakest first (R30)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    def __str__(self) -> str:
        return _CATEGORY_TEXT[self]


_CATEGORY_TEXT: Final = (
    "High Card", "Pair", "Two Pair", "Three of a Kind", "Straight",
    "Flush", "Full House", "Four of a Kind", "Straight Flush",
)
_PLURAL: Final = tuple("Sixes" if n == "Six" else n + "s" for n in RANK_NAMES)


def _check_rank(rank: SupportsIndex) -> int:
    """``rank`` as an int in 1..7462 (numpy integers are fine); else InvalidHandError."""
    try:
        value = None if isinstance(rank, bool) else operator.index(rank)
    except TypeError:
        value = None
    if value is None or not 1 <= value <= NUM_RANKS:
        raise InvalidHandError(f"not a hand rank: {excerpt(rank)} (ranks are 1..{NUM_RANKS})")
    return value


def category(rank: SupportsIndex) -> HandCategory:
    """The category of a rank from :func:`evaluate`.

    >>> category(7462), category(1)
    (HandCategory.STRAIGHT_FLUSH, HandCategory.HIGH_CARD)
    """
    return HandCategory(bisect_right(CATEGORY_MIN, _check_rank(rank)) - 1)


def _shape(five: tuple[int, ...]) -> tuple[int, ...]:
    """Ranks of five cards, most significant first: by count, then rank (wheel: 5-4-3-2-A)."""
    ranks = [c >> 2 for c in five]
    order = sorted(set(ranks), key=lambda r: (ranks.count(r), r), reverse=True)
    if order == [12, 3, 2, 1, 0]:
        order = [3, 2, 1, 0, 12]
    return tuple(order)


# rank -> one five-card hand of that rank, built on first use (7,462 hands, a few ms).
_EXAMPLES: dict[int, tuple[int, ...]] = {}


def _example(rank: int) -> tuple[int, ...]:
    global _EXAMPLES
    if not _EXAMPLES:
        examples: dict[int, tuple[int, ...]] = {}
        # Every rank multiset of five cards (no five of a kind), the k cards of a rank in
        # suits 0..k-1; five distinct ranks would all be clubs, so one moves to diamonds.
        for ranks in combinations_with_replacement(range(13), 5):
            if ranks[0] == ranks[4]:
                continue
            cards = [4 * r + ranks[:i].count(r) for i, r in enumerate(ranks)]
            if len(set(ranks)) == 5:
                cards[0] += 1
            examples.setdefault(evaluate(cards), tuple(cards))
        for flush in combinations(range(0, 52, 4), 5):  # clubs: flushes, straight flushes
            examples.setdefault(evaluate(flush), flush)
        _EXAMPLES = examples  # published whole: safe if two threads race to build it
    return _EXAMPLES[rank]


def describe(rank: SupportsIndex) -> str:
    """A description of a rank for people, e.g. ``"Two Pair, Aces and Kings, Queen kicker"``.

    >>> describe(evaluate("5d 4c 3h 2s Ac"))
    'Straight, Five high'
    >>> describe(evaluate("Kh Kd Ks 7c 7h"))
    'Full House, Kings full of Sevens'
    """
    value = _check_rank(rank)
    cat = category(value)
    order = _shape(_example(value))
    name = [RANK_NAMES[r] for r in order]
    plural = [_PLURAL[r] for r in order]
    text = str(cat)
    if cat in (HandCategory.HIGH_CARD, HandCategory.FLUSH):
        return f"{text}, {', '.join(name)}"
    if cat == HandCategory.STRAIGHT_FLUSH and order[0] == 12:
        return "Royal Flush"
    if cat in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        return f"{text}, {name[0]} high"
    if cat == HandCategory.PAIR:
        return f"{text}, {plural[0]}, {', '.join(name[1:])} kickers"
    if cat == HandCategory.TWO_PAIR:
        return f"{text}, {plural[0]} and {plural[1]}, {name[2]} kicker"
    if cat == HandCategory.THREE_OF_A_KIND:
        return f"{text}, {plural[0]}, {name[1]}, {name[2]} kickers"
    if cat == HandCategory.FULL_HOUSE:
        return f"{text}, {plural[0]} full of {plural[1]}"
    return f"{text}, {plural[0]}, {name[1]} kicker"  # four of a kind


def best_five(cards: str | Iterable[CardLike]) -> tuple[Card, ...]:
    """The best five of 5, 6 or 7 cards, most significant first (R29).

    Cards are ordered as they read: groups before kickers, higher ranks first, the wheel as
    5-4-3-2-A.  When several five-card choices tie (suits never matter, R30), the one with the
    highest card ids is returned, so the answer is deterministic.

    >>> best_five("Ac Kd Qh 7s 4h 3c 2d")
    (Card('Ac'), Card('Kd'), Card('Qh'), Card('7s'), Card('4h'))
    >>> best_five("2c 3d 4h 5s Ac 9d 9h")
    (Card('5s'), Card('4h'), Card('3d'), Card('2c'), Card('Ac'))
    """
    parsed = parse_cards(cards)
    target = evaluate(parsed)  # validates count and cards
    ids = sorted((int(c) for c in parsed), reverse=True)
    for five in combinations(ids, 5):
        if evaluate(five) == target:
            order = _shape(five)
            ranked = sorted(five, key=lambda c: (order.index(c >> 2), -c))
            return tuple(Card(c) for c in ranked)
    raise AssertionError("unreachable: some five cards make the hand")  # pragma: no cover
