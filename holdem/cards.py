"""Cards: 52 immutable values, ``int``-backed (``4*rank + suit``), parsed from and printed as text.

Ranks are ``2 3 4 5 6 7 8 9 T J Q K A`` (0..12), suits ``c d h s`` (0..3), so the deuce of
clubs is 0 and the ace of spades 51. ``10`` is accepted for ``T`` and letters in any case.

>>> Card("As")
Card('As')
>>> int(Card("As")), str(Card(0))
(51, '2c')
>>> parse_cards("AsKd 10h")
(Card('As'), Card('Kd'), Card('Th'))
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from typing import Final, SupportsIndex

from holdem._ints import int_or_none
from holdem._shown import excerpt, shown
from holdem.errors import DuplicateCardError, InvalidCardError, InvalidConfigError

__all__ = [
    "CARDS",
    "RANKS",
    "SUITS",
    "Card",
    "CardLike",
    "cards_to_mask",
    "format_cards",
    "mask_to_cards",
    "parse_card",
    "parse_cards",
    "to_card_ids",
]

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
RANK_NAMES: Final = (
    "Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight",
    "Nine", "Ten", "Jack", "Queen", "King", "Ace",
)
SUIT_NAMES: Final = ("Clubs", "Diamonds", "Hearts", "Spades")

_RANK_OF: Final = {ch: i for i, ch in enumerate(RANKS)} | {ch.lower(): i for i, ch in enumerate(RANKS)}
_SUIT_OF: Final = {ch: i for i, ch in enumerate(SUITS)} | {ch.upper(): i for i, ch in enumerate(SUITS)}


class Card(int):
    """One of the 52 cards; an ``int`` subclass, so it works anywhere a card id does.

    ``Card("As")``, ``Card("10d")``, ``Card(51)`` and ``Card(Card("As"))`` all work; the 52
    instances are shared, so ``Card("As") is Card(51)``.
    """

    __slots__ = ()

    def __new__(cls, value: CardLike) -> Card:
        if type(value) is Card:
            return value
        if type(value) is int and 0 <= value < 52:  # before the (slow) protocol check
            return CARDS[value]
        if isinstance(value, str):
            return parse_card(value)
        i = int_or_none(value)
        if i is None:
            raise InvalidCardError(
                f"not a card: {excerpt(value)} (give text like 'As' or an int 0..51)")
        if not 0 <= i < 52:
            raise InvalidCardError(f"card id {shown(i)} is out of range (ids are 0..51)")
        return CARDS[i]

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse one card: ``Card.from_str("Td")``."""
        return parse_card(text)

    @classmethod
    def from_int(cls, value: int) -> Card:
        """The card with id ``value`` (``4*rank + suit``); text is refused (see
        :meth:`from_str`)."""
        if isinstance(value, str):
            raise InvalidCardError(
                f"Card.from_int takes a card id (an int 0..51), not text: {excerpt(value)} "
                "(use Card.from_str or parse_card for text)"
            )
        return cls(value)

    @property
    def rank(self) -> int:
        """0 (deuce) .. 12 (ace)."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return int(self) & 3

    @property
    def rank_char(self) -> str:
        """The rank as a character, ``'2'`` .. ``'9'``, ``'T'``, ``'J'``, ``'Q'``, ``'K'``,
        ``'A'``."""
        return RANKS[int(self) >> 2]

    @property
    def suit_char(self) -> str:
        """The suit as a character, ``'c'``, ``'d'``, ``'h'`` or ``'s'``."""
        return SUITS[int(self) & 3]

    @property
    def name(self) -> str:
        """``'Ace of Spades'``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    @property
    def mask(self) -> int:
        """``1 << id``: the card as a one-bit set."""
        return 1 << int(self)

    def __str__(self) -> str:
        return RANKS[int(self) >> 2] + SUITS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


def _make(i: int) -> Card:
    return int.__new__(Card, i)


CARDS: Final[tuple[Card, ...]] = tuple(_make(i) for i in range(52))
_BY_TEXT: Final = {
    r + s: CARDS[4 * ri + si]
    for ri, rr in enumerate(RANKS)
    for si, ss in enumerate(SUITS)
    for r in {rr, rr.lower()} | ({"10"} if rr == "T" else set())
    for s in {ss, ss.upper()}
}

CardLike = Card | int | str


def parse_card(text: str) -> Card:
    """Parse exactly one card (``'As'``, ``'td'``, ``'10h'``); surrounding spaces are ignored."""
    card = _BY_TEXT.get(text.strip()) if isinstance(text, str) else None
    if card is None:
        raise InvalidCardError(
            f"not a card: {excerpt(text)} (a rank 2-9, T (or 10), J, Q, K, A then a suit c, d, "
            "h, s)"
        )
    return card


def _split(text: str) -> list[str]:
    out: list[str] = []
    for chunk in text.replace(",", " ").split():
        i = 0
        while i < len(chunk):
            width = 3 if chunk.startswith("10", i) else 2
            out.append(chunk[i : i + width])
            i += width
    return out


# _split's tokens as one pattern (\s: what str.split() splits on): "10" and the next
# character of its word, else up to two characters of a word
_TOKEN: Final = re.compile(r"10[^\s,]|[^\s,]{1,2}")
_EAGER_CHARS: Final = 1024  # texts up to this long are split at once (faster); longer, lazily


def _split_lazily(text: str) -> Iterator[str]:
    """:func:`_split` as the tokens are taken, so that a bad one ends the parse there (a 9 MB
    text was cut into tokens whole before the first was looked at)."""
    return (token.group() for token in _TOKEN.finditer(text))


def parse_cards(cards: str | Iterable[CardLike], *, unique: bool = True) -> tuple[Card, ...]:
    """Parse several cards from text (``"AsKd"``, ``"As Kd"``, ``"As,Kd"``) or an iterable.

    With ``unique=True`` (the default) a repeated card raises :class:`DuplicateCardError`.

    >>> parse_cards("Ah ah")
    Traceback (most recent call last):
    ...
    holdem.errors.DuplicateCardError: duplicate card: Ah appears twice in 'Ah ah'
    """
    if unique is not True and unique is not False:  # no truthiness guess: None allowed repeats
        raise InvalidConfigError(f"unique must be True or False, got {excerpt(unique)}")
    if isinstance(cards, str):
        if len(cards) <= _EAGER_CHARS:
            out = tuple(parse_card(t) for t in _split(cards))
        else:  # read as far as the first fault (with unique, 53 cards hold a repeat)
            lazy = _split_lazily(cards)
            out = tuple(parse_card(t) for t in (itertools.islice(lazy, 53) if unique else lazy))
    else:
        try:
            src: Iterable[CardLike] = cards
            if unique:  # 53 cards hold a repeat: no more are read (a huge or endless input)
                if type(cards) is list or type(cards) is tuple:
                    src = cards if len(cards) <= 53 else cards[:53]
                else:
                    src = itertools.islice(cards, 53)
            out = tuple(Card(c) for c in src)
        except TypeError:
            raise InvalidCardError(
                f"not a card or an iterable of cards: {excerpt(cards)}") from None
        except NotImplementedError as exc:
            # a memoryview Python cannot iterate: a non-native format (big-endian '>i', an
            # unaligned numpy view's '=q', a float16 'e' before Python 3.12...) or more than
            # one dimension
            raise InvalidCardError(
                f"cannot read card ids from this buffer ({exc}): give a 1-D buffer of native "
                f"integers, a list or text") from None
    if unique and len(set(out)) != len(out):
        seen: set[Card] = set()
        for c in out:
            if c in seen:
                raise DuplicateCardError(
                    f"duplicate card: {c} appears twice in {excerpt(cards)}")
            seen.add(c)
    return out


def to_card_ids(cards: str | Iterable[CardLike], *, unique: bool = True) -> list[int]:
    """Like :func:`parse_cards`, as plain ints."""
    return [int(c) for c in parse_cards(cards, unique=unique)]


def format_cards(cards: str | Iterable[CardLike], sep: str = " ") -> str:
    """``format_cards([51, 46]) == 'As Kh'``; text is parsed as by :func:`parse_cards`
    (repeats allowed) and written back in the standard spelling: ``format_cards("ah10D")``
    is ``'Ah Td'``."""
    if not isinstance(sep, str):
        raise TypeError(f"format_cards: sep must be a str, not {type(sep).__name__}")
    if isinstance(cards, str):
        return sep.join(str(c) for c in parse_cards(cards, unique=False))
    try:
        items = iter(cards)
    except TypeError:
        raise InvalidCardError(f"not an iterable of cards: {excerpt(cards)}") from None
    return sep.join(str(Card(c)) for c in items)


def cards_to_mask(cards: str | Iterable[CardLike]) -> int:
    """A set of cards as an int with bit ``id`` set for each card (read as
    :func:`parse_cards` reads them: a card given twice raises :class:`DuplicateCardError`)."""
    m = 0
    for c in parse_cards(cards):
        m |= 1 << int(c)
    return m


def mask_to_cards(mask: SupportsIndex) -> tuple[Card, ...]:
    """The cards of a mask made by :func:`cards_to_mask`, in id order (any int-like mask:
    a ``numpy.uint64`` too)."""
    value = int_or_none(mask)
    if value is None:
        raise TypeError(f"mask_to_cards: mask must be an int, not {type(mask).__name__}")
    if value < 0 or value >> 52:
        text = f"{value:#x}" if -(1 << 64) < value < 1 << 64 else \
            f"of {value.bit_length()} bits" + (" (negative)" if value < 0 else "")
        raise InvalidCardError(f"card mask {text} has bits outside 0..51")
    return tuple(CARDS[i] for i in range(52) if value >> i & 1)
