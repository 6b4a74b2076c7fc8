"""Hand ranges in the standard (PokerStove-style) notation, expanded to weighted combos.

A range is a set of two-card hands ("combos"), each with a weight in ``(0, 1]`` (the share of
the time the player holds it). Text is a comma-separated list of items:

=================  ==========================================================================
``AA``             a pocket pair (6 combos)
``AKs`` / ``AKo``  suited (4 combos) / offsuit (12 combos); ``AK`` is both (16 combos)
``QQ+``            QQ and every higher pair
``ATs+``           ATs, AJs, AQs, AKs: the kicker climbs up to one below the top card
``A5s-A2s``        A5s, A4s, A3s, A2s (same top card); ``99-22`` all pairs from 99 down to 22
``AcKd``           one exact combo
``0.5(AA,KK)``     a weight for the items inside the parentheses (nested weights multiply,
                   at most 32 levels deep)
``40%(ATs+)``      a weight given as a percentage
``random``         every two-card hand (1,326 combos), as in PokerStove
=================  ==========================================================================

Ranks are ``2-9 T J Q K A`` (either case; ``10`` for ``T`` as in card text: ``A10s``,
``10s10h``); ``KAs`` is read as ``AKs``. Weights are decimals
without an exponent (``0.00001``, not ``1e-05``); weights that multiply to less than the
smallest float are refused. When the same combo appears twice the later item wins. Text that
does not parse raises :class:`InvalidRangeError` with ``position`` (0-based index into the
text) and ``token``.

>>> r = Range("QQ+, AKs, 0.5(AKo)")
>>> len(r), r.total_weight
(34, 28.0)
>>> str(r)
'QQ+, AKs, 0.5(AKo)'
>>> str(Range("AA, AKs").without("As"))
'AhAd, AhAc, AhKh, AdAc, AdKd, AcKc'
>>> Range("AA, AKx")
Traceback (most recent call last):
...
holdem.errors.InvalidRangeError: invalid range token 'AKx' at position 4: expected a hand like AA, AKs, AKo, AK, QQ+, ATs+, A5s-A2s, 99-22 or AcKd
  AA, AKx
      ^
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from functools import cache
from numbers import Real
from typing import Any, Final

from holdem._shown import EXCERPT_CHARS, excerpt
from holdem.cards import CARDS, RANKS, Card, CardLike, parse_cards
from holdem.errors import HoldemError, InvalidRangeError

__all__ = ["Combo", "Range", "RangeLike", "parse_range"]

Combo = tuple[Card, Card]
"""A two-card hand, higher card id first: ``(Card('As'), Card('Kd'))``."""

_RANK_OF: Final = ({ch: i for i, ch in enumerate(RANKS)} | {ch.lower(): i for i, ch in enumerate(RANKS)}
                   | {"10": RANKS.index("T")})
_R = "10|[2-9TJQKAtjqka]"
_EXACT: Final = re.compile(f"({_R})([cdhsCDHS])({_R})([cdhsCDHS])")
_CLASS: Final = re.compile(f"({_R})({_R})([soSO]?)(\\+?)")
_SPAN: Final = re.compile(f"({_R})({_R})([soSO]?)-({_R})({_R})([soSO]?)")
_WEIGHT: Final = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(%?)")
MAX_DEPTH: Final = 32
"""Most levels of nested weights, ``0.5(0.5(...))``."""
_EXPECTED: Final = "a hand like AA, AKs, AKo, AK, QQ+, ATs+, A5s-A2s, 99-22 or AcKd"
_RANDOM: Final = "random"  # every combo
_EVERY_COMBO: Final = tuple((a, b) for a in range(52) for b in range(a))


@cache
def _order() -> dict[tuple[int, int], int]:
    """Combo -> its index in ascending (a, b) order (built on first use, not at import)."""
    return {c: i for i, c in enumerate(_EVERY_COMBO)}


@cache
def _combo_bits() -> dict[tuple[int, int], int]:
    """Combo ``(a, b)`` (card ids, ``a > b``) -> its 52-bit card mask (for ``holdem.equity``)."""
    return {c: 1 << c[0] | 1 << c[1] for c in _EVERY_COMBO}


def _combo(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a > b else (b, a)


@cache
def _class_combos(hi: int, lo: int, kind: str) -> tuple[tuple[int, int], ...]:
    """Combos of one hand class: ``kind`` is 's', 'o' or '' (both; for pairs always '')."""
    if hi == lo:
        return tuple(_combo(4 * hi + s1, 4 * hi + s2) for s1 in range(4) for s2 in range(s1))
    out: list[tuple[int, int]] = []
    for s1 in range(4):
        for s2 in range(4):
            if (s1 == s2 and kind != "o") or (s1 != s2 and kind != "s"):
                out.append((4 * hi + s1, 4 * lo + s2))
    return tuple(out)


def _descending(weights: Mapping[tuple[int, int], float]) -> dict[tuple[int, int], float]:
    """``weights`` with the combos in descending order (by first card, then second)."""
    return {c: weights[c] for c in sorted(weights, key=_order().__getitem__, reverse=True)}


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        # the weight of the last ``random`` item (0.0: none): it covers every combo, so the
        # items before it are dropped and only those after it are kept, in ``out`` (writing
        # its 1,326 combos for each ``random`` made "random, random, ..." cost 245 us an item)
        self.every = 0.0

    def weights(self) -> dict[tuple[int, int], float]:
        """The whole text's combos and weights (the later item wins)."""
        out: dict[tuple[int, int], float] = {}
        self.parse(out, 1.0, 0)
        if self.every:
            return dict.fromkeys(_EVERY_COMBO, self.every) | out
        return out

    def error(self, what: str, start: int, token: str) -> InvalidRangeError:
        text, at = self.text, start
        if len(text) > EXCERPT_CHARS:  # the caret diagram shows the text around the error
            lo = max(0, min(start - EXCERPT_CHARS // 2, len(text) - EXCERPT_CHARS))
            hi = lo + EXCERPT_CHARS
            at = start - lo + (3 if lo else 0)
            text = ("..." if lo else "") + text[lo:hi] + ("..." if hi < len(text) else "")
        # one column per character: a newline or tab of the text shows as a space, so the
        # caret stays under the error and the diagram keeps its two lines
        text = "".join(ch if ch.isprintable() else " " for ch in text)
        caret = "\n  " + text + "\n  " + " " * at + "^"
        where = f"token {excerpt(token)}" if token else "text"
        return InvalidRangeError(
            f"invalid range {where} at position {start}: {what}{caret}",
            position=start, token=token,
        )

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def token(self) -> tuple[int, str]:
        self.skip_space()
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] not in ",()" \
                and not self.text[self.pos].isspace():
            self.pos += 1
        return start, self.text[start:self.pos]

    def parse(self, out: dict[tuple[int, int], float], weight: float, depth: int) -> None:
        """Parse ``item (',' item)*`` up to the end of text (depth 0) or a ')' (depth > 0)."""
        while True:
            self.skip_space()
            if self.pos >= len(self.text) or self.text[self.pos] == ")":
                if self.pos >= len(self.text) and depth > 0:
                    raise self.error("missing ')'", self.pos, "")
                if self.pos < len(self.text) and depth == 0:
                    raise self.error("')' without a matching '('", self.pos, ")")
                if depth == 0 and self.text.strip() == "":
                    raise InvalidRangeError(
                        "empty range text: give at least one hand, like 'QQ+, AKs' (an empty "
                        "range, if you need one, is Range.from_combos(()))",
                        position=0, token="",
                    )
                raise self.error(f"expected {_EXPECTED}", self.pos, "")
            self.item(out, weight, depth)
            self.skip_space()
            if self.pos >= len(self.text):
                if depth > 0:
                    raise self.error("missing ')'", self.pos, "")
                return
            ch = self.text[self.pos]
            if ch == ")":
                if depth == 0:
                    raise self.error("')' without a matching '('", self.pos, ")")
                return
            if ch != ",":
                start, tok = self.token()
                raise self.error("expected ',' between items", start, tok or ch)
            self.pos += 1

    def item(self, out: dict[tuple[int, int], float], weight: float, depth: int) -> None:
        start, tok = self.token()
        self.skip_space()
        if self.pos < len(self.text) and self.text[self.pos] == "(":
            m = _WEIGHT.fullmatch(tok)
            if m is None:
                raise self.error(
                    "expected a weight like 0.5 or 40% before '('", start, tok or "("
                )
            # a percentage is moved two places as written (33.3% is 0.333, not 33.3 / 100 in floats)
            exact = Decimal(m.group(1)).scaleb(-2) if m.group(2) else Decimal(m.group(1))
            w = float(exact)
            # (compared as written: 1.0000000000000001 is above 1 though its float is 1.0)
            if exact > 1 or m.group(1).strip("0.") == "":
                raise self.error(
                    "a weight must be in (0, 1] (or (0%, 100%])", start, tok
                )
            if weight * w == 0.0:
                raise self.error(
                    "the weights multiply to less than the smallest float (about 5e-324)",
                    start, tok,
                )
            if depth >= MAX_DEPTH:
                raise self.error(f"weights nest at most {MAX_DEPTH} levels deep", start, tok)
            self.pos += 1
            self.parse(out, weight * w, depth + 1)
            self.pos += 1  # the ')'
            return
        if not tok:
            bad = self.text[self.pos] if self.pos < len(self.text) else ""
            raise self.error(f"expected {_EXPECTED}", start, bad)
        if tok.lower() == _RANDOM:
            out.clear()
            self.every = weight
            return
        out.update(dict.fromkeys(self.term(tok, start), weight))  # later items win

    def term(self, tok: str, start: int) -> Iterable[tuple[int, int]]:
        m = _EXACT.fullmatch(tok)
        if m is not None:
            a = int(Card(m.group(1).upper() + m.group(2).lower()))
            b = int(Card(m.group(3).upper() + m.group(4).lower()))
            if a == b:
                raise self.error("the two cards of a combo must differ", start, tok)
            return [_combo(a, b)]
        m = _CLASS.fullmatch(tok)
        if m is not None:
            hi, lo = _RANK_OF[m.group(1)], _RANK_OF[m.group(2)]
            hi, lo = max(hi, lo), min(hi, lo)
            kind = m.group(3).lower()
            if hi == lo and kind:
                raise self.error("a pair cannot be suited or offsuit", start, tok)
            if not m.group(4):
                return _class_combos(hi, lo, kind)
            if hi == lo:
                return [c for r in range(hi, 13) for c in _class_combos(r, r, "")]
            return [c for k in range(lo, hi) for c in _class_combos(hi, k, kind)]
        m = _SPAN.fullmatch(tok)
        if m is not None:
            a_hi, a_lo = _RANK_OF[m.group(1)], _RANK_OF[m.group(2)]
            b_hi, b_lo = _RANK_OF[m.group(4)], _RANK_OF[m.group(5)]
            kind, kind2 = m.group(3).lower(), m.group(6).lower()
            a_hi, a_lo = max(a_hi, a_lo), min(a_hi, a_lo)
            b_hi, b_lo = max(b_hi, b_lo), min(b_hi, b_lo)
            if a_hi == a_lo and b_hi == b_lo:
                if kind or kind2:
                    raise self.error("a pair cannot be suited or offsuit", start, tok)
                lo_r, hi_r = sorted((a_hi, b_hi))
                return [c for r in range(lo_r, hi_r + 1) for c in _class_combos(r, r, "")]
            if a_hi != b_hi or a_hi == a_lo or b_hi == b_lo:  # (before the suits: AA-AKs)
                raise self.error(
                    "a span joins two pairs (99-22) or two hands with the same top card "
                    "(A5s-A2s)", start, tok,
                )
            if kind != kind2:
                raise self.error("both ends of a span must be suited, offsuit or neither",
                                 start, tok)
            lo_k, hi_k = sorted((a_lo, b_lo))
            return [c for k in range(lo_k, hi_k + 1) for c in _class_combos(a_hi, k, kind)]
        raise self.error(f"expected {_EXPECTED}", start, tok)


# --- normal form ---------------------------------------------------------------------------


def _kicker_runs(hi: int, kickers: list[int], sfx: str) -> list[str]:
    """Descending runs of kickers under top card ``hi`` as ``AKs``, ``ATs+``, ``A5s-A2s``."""
    out: list[str] = []
    ks = sorted(kickers, reverse=True)
    i = 0
    while i < len(ks):
        j = i
        while j + 1 < len(ks) and ks[j + 1] == ks[j] - 1:
            j += 1
        top, bottom = ks[i], ks[j]
        h = RANKS[hi]
        if top == bottom:
            out.append(f"{h}{RANKS[top]}{sfx}")
        elif top == hi - 1:
            out.append(f"{h}{RANKS[bottom]}{sfx}+")
        else:
            out.append(f"{h}{RANKS[top]}{sfx}-{h}{RANKS[bottom]}{sfx}")
        i = j + 1
    return out


def _pair_runs(pairs: list[int]) -> list[str]:
    out: list[str] = []
    ps = sorted(pairs, reverse=True)
    i = 0
    while i < len(ps):
        j = i
        while j + 1 < len(ps) and ps[j + 1] == ps[j] - 1:
            j += 1
        top, bottom = RANKS[ps[i]], RANKS[ps[j]]
        if i == j:
            out.append(top * 2)
        elif ps[i] == 12:
            out.append(f"{bottom}{bottom}+")
        else:
            out.append(f"{top}{top}-{bottom}{bottom}")
        i = j + 1
    return out


_ClassSets = tuple[frozenset[tuple[int, int]], ...]


@cache
def _class_sets() -> tuple[_ClassSets, tuple[_ClassSets, ...], tuple[_ClassSets, ...]]:
    """The combos of every pair, suited and offsuit class as sets, indexed by rank (built on
    first use, not at import)."""
    return (tuple(frozenset(_class_combos(hi, hi, "")) for hi in range(13)),
            tuple(tuple(frozenset(_class_combos(hi, lo, "s")) for lo in range(hi))
                  for hi in range(13)),
            tuple(tuple(frozenset(_class_combos(hi, lo, "o")) for lo in range(hi))
                  for hi in range(13)))


def _format_group(combos: set[tuple[int, int]]) -> list[str]:
    """Shortest-ish text for a set of combos that share one weight."""
    left = set(combos)
    pairs: list[int] = []
    suited: dict[int, set[int]] = {}
    offsuit: dict[int, set[int]] = {}
    present = {(a >> 2, b >> 2) for a, b in left}  # the (rank, rank) classes with a combo here
    pair_sets, suited_sets, offsuit_sets = _class_sets()
    for hi in range(12, -1, -1):
        cs = pair_sets[hi]
        if (hi, hi) in present and cs <= left:
            pairs.append(hi)
            left -= cs
        for lo in range(hi - 1, -1, -1):
            if (hi, lo) not in present:
                continue
            s = suited_sets[hi][lo]
            o = offsuit_sets[hi][lo]
            if s <= left:
                suited.setdefault(hi, set()).add(lo)
                left -= s
            if o <= left:
                offsuit.setdefault(hi, set()).add(lo)
                left -= o
    parts = _pair_runs(pairs)
    for hi in range(12, -1, -1):
        s_k, o_k = suited.get(hi, set()), offsuit.get(hi, set())
        both = s_k & o_k
        parts += _kicker_runs(hi, list(both), "")
        parts += _kicker_runs(hi, list(s_k - both), "s")
        parts += _kicker_runs(hi, list(o_k - both), "o")
    parts += [f"{CARDS[a]}{CARDS[b]}" for a, b in sorted(left, reverse=True)]
    return parts


def _format(weights: Mapping[tuple[int, int], float]) -> str:
    groups: dict[float, set[tuple[int, int]]] = {}
    for c, w in weights.items():
        groups.setdefault(w, set()).add(c)
    parts: list[str] = []
    for w in sorted(groups, reverse=True):
        group = groups[w]
        text = _RANDOM if len(group) == len(_EVERY_COMBO) else ", ".join(_format_group(group))
        # positional notation (1e-05 is written 0.00001): the grammar has no exponents
        parts.append(text if w == 1.0 else f"{Decimal(repr(w)):f}({text})")
    return ", ".join(parts)


# --- the Range class -----------------------------------------------------------------------


HandLike = str | Iterable[CardLike]


def _parse_hand(hand: HandLike) -> tuple[int, int]:
    cards = parse_cards(hand)
    if len(cards) != 2:
        raise InvalidRangeError(f"a combo has two cards, not {len(cards)}: {excerpt(hand)}")
    return _combo(int(cards[0]), int(cards[1]))


class Range:
    """An immutable set of two-card combos with weights in ``(0, 1]``.

    ``Range(text)`` parses range notation (see the module docstring); ``str()`` writes the
    normal form back, and ``repr()`` pastes back: ``Range('QQ+, AKs')``. Ranges compare equal
    when they hold the same combos with the same weights.

    >>> r = Range("KK+, AcKd")
    >>> r
    Range('KK+, AcKd')
    >>> r.combos[:2]
    ((Card('As'), Card('Ah')), (Card('As'), Card('Ad')))
    >>> ("Ah", "As") in r, r.weight("KsKh")
    (True, 1.0)
    """

    __slots__ = ("_hash", "_text", "_weights")

    _weights: dict[tuple[int, int], float]
    _hash: int | None
    _text: str | None  # str(self), written once (a range never changes)

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise InvalidRangeError(f"range text must be a str, not {type(text).__name__}")
        self._weights = _descending(_Parser(text).weights())
        self._hash = None
        self._text = None

    @classmethod
    def from_combos(
        cls, combos: Mapping[HandLike, float] | Iterable[HandLike]
    ) -> Range:
        """A range from combos (each text like ``"AsKd"`` or two cards), or a mapping to weights.
        A combo given twice (``"AsKd"`` and ``"KdAs"``) raises :class:`InvalidRangeError`.

        >>> Range.from_combos({"AsAh": 0.5, "KsKh": 1})
        Range('KsKh, 0.5(AsAh)')
        """
        items: Iterable[tuple[HandLike, float]]
        if isinstance(combos, Mapping):
            items = combos.items()
        elif isinstance(combos, str | bytes):  # (its characters are no hands)
            raise InvalidRangeError(f"combos must be an iterable of hands or a mapping of "
                                    f"hands to weights, not the text {excerpt(combos)}: give "
                                    f"[{excerpt(combos)}], or parse range text with Range(...)")
        elif isinstance(combos, Iterable):
            items = ((c, 1.0) for c in combos)
        else:
            raise InvalidRangeError(f"combos must be an iterable of hands or a mapping of "
                                    f"hands to weights, not {type(combos).__name__}")
        out: dict[tuple[int, int], float] = {}
        for hand, given in items:
            if isinstance(given, bool) or not isinstance(given, Real | Decimal):
                raise InvalidRangeError(
                    f"weight {excerpt(given)} for {excerpt(hand)} is not a number")
            try:
                w = float(given)
            except OverflowError:  # 10**400, Fraction(10**400): far above 1
                w = math.inf
            except ValueError:  # Decimal("sNaN")
                w = math.nan
            if not 0.0 < w <= 1.0:  # (Fraction(1, 10**400) is 0.0 as a float)
                raise InvalidRangeError(f"weight {excerpt(given)} for {excerpt(hand)} is "
                                        f"outside (0, 1] (as a float: {w!r})")
            combo = _parse_hand(hand)
            if combo in out:  # (so an endless iterable ends: 1,326 combos at most)
                raise InvalidRangeError(f"{excerpt(hand)} is given twice (as "
                                        f"{CARDS[combo[0]]}{CARDS[combo[1]]})")
            out[combo] = w
        return cls._make(out)

    @classmethod
    def _make(cls, weights: Mapping[tuple[int, int], float]) -> Range:
        r = cls.__new__(cls)
        r._weights = _descending(weights)
        r._hash = None
        r._text = None
        return r

    # -- views --
    @property
    def combos(self) -> tuple[Combo, ...]:
        """The combos, higher card first, in descending order."""
        return tuple((CARDS[a], CARDS[b]) for a, b in self._weights)

    @property
    def weights(self) -> tuple[float, ...]:
        """The weight of each combo, in the order of :attr:`combos`."""
        return tuple(self._weights.values())

    def items(self) -> Iterator[tuple[Combo, float]]:
        """``(combo, weight)`` pairs."""
        for (a, b), w in self._weights.items():
            yield (CARDS[a], CARDS[b]), w

    @property
    def total_weight(self) -> float:
        """The sum of the weights (the number of combos when every weight is 1)."""
        return float(sum(self._weights.values()))

    def weight(self, hand: HandLike) -> float:
        """The weight of one combo (0.0 when it is not in the range)."""
        return self._weights.get(_parse_hand(hand), 0.0)

    def without(self, cards: str | Iterable[CardLike]) -> Range:
        """The range minus every combo that uses one of ``cards`` (known or dead cards).

        >>> len(Range("AA").without("As Kd"))
        3
        """
        mask = 0
        for c in parse_cards(cards, unique=False):
            mask |= 1 << int(c)
        return Range._make(
            {c: w for c, w in self._weights.items() if not (mask >> c[0] & 1 or mask >> c[1] & 1)}
        )

    # -- protocols --
    def __len__(self) -> int:
        return len(self._weights)

    def __iter__(self) -> Iterator[Combo]:
        return iter(self.combos)

    def __contains__(self, hand: object) -> bool:
        try:
            return _parse_hand(hand) in self._weights  # type: ignore[arg-type]
        except HoldemError:
            return False

    def __bool__(self) -> bool:
        return bool(self._weights)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Range):
            return NotImplemented
        return self._weights == other._weights

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self._weights.items()))
        return self._hash

    def __str__(self) -> str:
        if self._text is None:
            self._text = _format(self._weights)
        return self._text

    def __repr__(self) -> str:
        if not self._weights:
            return "Range.from_combos(())"  # Range('') is refused: say how to make it
        return f"Range({str(self)!r})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if not self._weights:
            return (Range.from_combos, ((),))
        return (Range, (str(self),))


RangeLike = Range | str


def parse_range(text: RangeLike, *, dead: str | Iterable[CardLike] = ()) -> Range:
    """Parse range text (a :class:`Range` passes through), removing combos blocked by ``dead``.

    >>> parse_range("AKs", dead="Ks Qd")
    Range('AhKh, AdKd, AcKc')
    """
    r = text if isinstance(text, Range) else Range(text)
    return r if isinstance(dead, str | tuple | list) and not dead else r.without(dead)
