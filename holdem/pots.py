"""Pots at the end of a hand: uncalled chips, side pots, dead money, split pots, odd chips, rake.

:func:`split_pots` takes what each seat committed this hand, who folded, the hand ranks (higher
is stronger) and the button, and returns a :class:`PotResult`: chips paid to each seat and the
pot breakdown for display and hand histories. The work is done by an allocation-free C kernel
(``csrc/hd_pots.c``); :func:`split_pots_batch` resolves many hands from buffers in one
``nogil`` loop, and Cython code can ``cimport`` the kernel as ``holdem._pots.split_pots_c``.

The rules, in the order they are applied (ids from RULES.md):

1. **Uncalled chips (R21).** The seat that committed the most, if it is alone at the top, gets
   back its excess over the second-highest commitment before any pot is formed (whether or not
   it folded: chips nobody matched were never at stake).
2. **Side pots (R31).** Pots are layered at each distinct commitment of a seat that did not fold
   (all-in levels): the main pot holds everybody's chips up to the lowest live level, the next
   pot the chips between that level and the next one, and so on. Folded chips stay in every pot
   they reach, but folded seats are never eligible. Folded chips above the highest live level
   (possible only when a seat folded without facing a bet) are *dead money* that goes into the
   last pot, won by the highest live contributors, as in a live game where the last player left
   in the hand takes the pot.
   **Dead money (R7).** ``dead`` chips that belong to no seat (a big-blind ante: WSOP posts it
   as dead money, never an uncalled bet) go into the main pot, the pot of the lowest live
   level, which every seat still in the hand is eligible for; that pot exists whenever
   ``dead > 0``, even if no seat committed anything. They are never returned (R21). One seat
   left wins them without a showdown; two or more live seats contest them, so ranks are needed.
3. **Showdown.** Each pot is won by its eligible seat(s) with the highest rank; a pot with a
   single eligible seat is awarded without a showdown, so ranks are needed only for live seats
   that contest a pot with another live seat (when all but one seat folded, pass ``ranks=None``).
4. **Odd chips (R32).** Each pot is split on its own into equal shares; chips that do not divide
   go one at a time to the tied winners, clockwise starting with the first seat left of the
   button (14 chips three ways pays 5/5/4, never 6/4/4). WSOP rule 73 / Robert's Rules.
5. **Rake (R34).** ``floor(fraction * total pot)``, where the total pot excludes the uncalled
   chips and includes the dead money, then capped at ``cap`` per hand (not per pot); nothing
   when ``no_flop_no_drop`` is set and the flop was not dealt. It is taken from the main pot
   first; only when the main pot is smaller than the rake does the rest come from the side
   pots, in order. Each pot reports its part (:attr:`Pot.rake`) and the result the total
   (:attr:`PotResult.rake`).

Chips are conserved: ``sum(payouts) + rake == sum(committed) + dead``.

>>> from holdem.pots import Rake, split_pots
>>> # R31, seed 002: Ana (seat 0) all in for 20; Boris and Vera put in 70 each; Ana's hand
>>> # is best, Vera beats Boris.
>>> result = split_pots([20, 70, 70], [False, False, False], [300, 100, 200], button=2)
>>> result.payouts
(60, 0, 100)
>>> [(pot.amount, pot.eligible, pot.winners) for pot in result.pots]
[(60, (0, 1, 2), (0,)), (100, (1, 2), (2,))]
>>> # R32: a 14-chip pot tied three ways, button on seat 3 (which folded).
>>> split_pots([4, 4, 4, 2], [False, False, False, True], [9, 9, 9, None], button=3).payouts
(5, 5, 4, 0)
>>> split_pots([100, 100], [False, False], [5, 1], button=0, rake=Rake(0.05, cap=3)).payouts
(197, 0)
>>> # R7: a big-blind ante of 4 is dead money in the main pot; seat 1's raise was uncalled.
>>> split_pots([1, 10], [True, False], None, button=0, dead=4).payouts
(0, 15)
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from holdem import _pots
from holdem._ints import int_or_none
from holdem._pickling import frozen_slots, setstate_through_init
from holdem._pots import split_pots_batch
from holdem._shown import excerpt, literal
from holdem.errors import InvalidPotError

__all__ = ["Pot", "PotResult", "Rake", "split_pots", "split_pots_batch"]

RakeFraction = int | float | Fraction | Decimal | str

_MAX_DEN = _pots.MAX_RAKE_DENOMINATOR


_SHOWN_BITS = 2000  # below the 640 digits sys.set_int_max_str_digits accepts at least


def _shown(value: object, show: Callable[[object], str] = repr) -> str:
    """``show(value)`` for an error message, or its size for an int or Fraction too long to
    print (more than 4300 digits raise a plain ValueError)."""
    if isinstance(value, int | Fraction):
        bits = max(value.numerator.bit_length(), value.denominator.bit_length())
        if bits > _SHOWN_BITS:
            kind = "an integer" if isinstance(value, int) else "a fraction"
            return f"{'-' if value < 0 else ''}{kind} of {bits} bits"
    return show(value)


def _decimal_fraction(value: Decimal | str, digits: range = range(-20, 3)) -> Fraction | None:
    """A decimal (a Decimal, or text such as ``"0.05"`` or ``"5e-2"``) as a Fraction, or None
    for text that is not one (``"1/20"``: no exponent there). ValueError, before Fraction
    computes ``10**exponent`` (minutes for ``"1e-999999999"`` or ``"0e-999999999"``), for a
    non-zero decimal whose leading digit's exponent (``Decimal.adjusted``) is outside
    ``digits`` (the default holds every fraction in [0, 1] with a denominator of at most
    2**32, with room), and for text of more than 200 characters."""
    if isinstance(value, str):
        text = value.strip()
        if len(text) > 200:
            raise ValueError
        try:
            value = Decimal(text)
        except ArithmeticError:
            return None
    if not value.is_finite():
        raise ValueError
    if value == 0:
        return Fraction(0)
    if value.adjusted() not in digits:
        raise ValueError
    return Fraction(value)


def _exact_fraction(value: object) -> Fraction:
    """Read a rake fraction exactly: a float is taken as the shortest decimal that prints it."""
    if isinstance(value, bool):
        raise InvalidPotError(f"rake fraction must be a number in [0, 1], got {_shown(value)}")
    try:
        if isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError
            # repr() is the shortest decimal that round-trips: 0.05 -> '0.05' -> 1/20, where
            # Fraction(0.05) would be 3602879701896397/72057594037927936 and 5% of 100 -> 4.
            return Fraction(repr(value))
        if isinstance(value, Decimal | str):
            exact = _decimal_fraction(value)
            if exact is not None:
                return exact
        if isinstance(value, int | Fraction | str):
            return Fraction(value)
    except (ValueError, ArithmeticError):
        raise InvalidPotError(
            f"rake fraction must be a finite number in [0, 1] with a denominator of at most "
            f"2**32, got {_shown(value)}") from None
    raise InvalidPotError(
        f"rake fraction must be an int, float, Fraction, Decimal or str, got {_shown(value)}")


def _percent(fraction: Fraction) -> str:
    pct = fraction * 100
    if pct.denominator == 1:
        return f"{pct.numerator}%"
    text = f"{float(pct):.10g}"
    if Fraction(text) == pct:
        return f"{text}%"
    return f"{fraction.numerator}/{fraction.denominator}"


@dataclass(frozen=True, init=False)
class Rake:
    """The house's share of each pot (R34): a fraction, a cap per hand, "no flop, no drop".

    ``fraction`` is in [0, 1] and read exactly (int, Fraction, Decimal, str such as ``"1/20"``
    or ``"0.05"``, or float taken as the decimal it prints as: ``0.05`` is 1/20, so 5% of 100
    is 5); its reduced denominator must be at most 2**32 (any fraction with up to nine decimal
    places qualifies). ``cap`` (chips, per hand, not per pot) is an int >= 0 or None for no cap.

    >>> Rake(0.05, cap=3)
    Rake('1/20', cap=3)
    >>> print(Rake("0.1", no_flop_no_drop=False))
    10% rake, no cap, taken even without a flop
    >>> Rake(0.05) == Rake(Fraction(1, 20)) == Rake("5/100")
    True
    """

    fraction: Fraction
    cap: int | None = None
    no_flop_no_drop: bool = True

    def __init__(self, fraction: RakeFraction, cap: int | None = None,
                 no_flop_no_drop: bool = True) -> None:
        frac = _exact_fraction(fraction)
        if not 0 <= frac <= 1:
            raise InvalidPotError(f"rake fraction must be in [0, 1], got {_shown(fraction)}")
        if frac.denominator > _MAX_DEN:
            raise InvalidPotError(
                f"rake fraction {_shown(frac, str)} has a denominator above 2**32; use a "
                f"simpler fraction (at most nine decimal places)")
        if cap is not None:
            chips = int_or_none(cap)  # a plain int (a subclass's comparisons may lie)
            if chips is None:
                raise InvalidPotError(f"rake cap must be an int >= 0 or None, got {_shown(cap)}")
            cap = chips
            if cap < 0:
                raise InvalidPotError(f"rake cap must be >= 0 or None, got {_shown(cap, str)}")
        object.__setattr__(self, "fraction", frac)
        object.__setattr__(self, "cap", cap)
        object.__setattr__(self, "no_flop_no_drop",
                           _pots.check_flag("no_flop_no_drop", no_flop_no_drop))

    def __reduce__(self) -> tuple[Any, ...]:
        # through the constructor: an altered pickle is checked like new input
        return (Rake, (self.fraction, self.cap, self.no_flop_no_drop))

    __setstate__ = setstate_through_init  # a pickle in another form: checked all the same

    def of(self, total: int, *, flop_dealt: bool = True) -> int:
        """The rake on a hand whose pots hold ``total`` chips (after uncalled chips go back):
        an int >= 0, else :class:`holdem.InvalidPotError`.

        >>> Rake(0.05, cap=3).of(40), Rake(0.05, cap=3).of(1000), Rake(0.05).of(1000, flop_dealt=False)
        (2, 3, 0)
        """
        chips = int_or_none(total)
        if chips is None or chips < 0:
            raise InvalidPotError(f"total must be an int of chips >= 0, got {_shown(total)}")
        if self.no_flop_no_drop and not _pots.check_flag("flop_dealt", flop_dealt):
            return 0
        rake = chips * self.fraction.numerator // self.fraction.denominator
        return rake if self.cap is None else min(rake, self.cap)

    def __repr__(self) -> str:
        parts = [repr(str(self.fraction))]
        if self.cap is not None:
            parts.append(f"cap={literal(self.cap)}")  # (hex when too long for decimal)
        if not self.no_flop_no_drop:
            parts.append("no_flop_no_drop=False")
        return f"Rake({', '.join(parts)})"

    def __str__(self) -> str:
        cap = "no cap" if self.cap is None else f"cap {literal(self.cap)} per hand"
        drop = "no flop no drop" if self.no_flop_no_drop else "taken even without a flop"
        return f"{_percent(self.fraction)} rake, {cap}, {drop}"


def _seats(seats: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in seats)


@frozen_slots
@dataclass(frozen=True, slots=True)
class Pot:
    """One pot of a hand: ``amount`` chips (before rake) that only ``eligible`` seats may win.

    ``winners`` are the seats that won it (ascending) and ``shares[k]`` what ``winners[k]`` got;
    ``rake`` is the part of ``amount`` the house took, so ``sum(shares) == amount - rake``.

    >>> pot = Pot(amount=14, eligible=(0, 1, 2), winners=(0, 1, 2), shares=(5, 5, 4))
    >>> pot
    Pot(amount=14, eligible=(0, 1, 2), winners=(0, 1, 2), shares=(5, 5, 4), rake=0)
    >>> print(pot)
    14 chips (seats 0, 1, 2 eligible): split by seats 0, 1, 2 (5, 5, 4)
    """

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    rake: int = 0

    @property
    def net(self) -> int:
        """Chips paid out to the winners: ``amount - rake``."""
        return self.amount - self.rake

    def share_of(self, seat: int) -> int:
        """Chips ``seat`` won from this pot (0 if it did not win it). ``seat``: an int >= 0,
        else :class:`holdem.InvalidPotError`."""
        if type(seat) is not int:
            checked = int_or_none(seat)
            if checked is None:
                raise InvalidPotError(f"seat must be an int >= 0, got {_shown(seat)}")
            seat = checked
        if seat < 0:
            raise InvalidPotError(f"seat must be an int >= 0, got {_shown(seat)}")
        for winner, share in zip(self.winners, self.shares, strict=True):
            if winner == seat:
                return share
        return 0

    def __str__(self) -> str:
        head = f"{self.amount} chips (seat{'s' if len(self.eligible) > 1 else ''} "
        head += f"{_seats(self.eligible)} eligible)"
        if self.rake:
            head += f", rake {self.rake}"
        if len(self.winners) == 1:
            return f"{head}: seat {self.winners[0]} wins {self.shares[0]}"
        return f"{head}: split by seats {_seats(self.winners)} ({_seats(self.shares)})"


@frozen_slots
@dataclass(frozen=True, slots=True)
class PotResult:
    """What :func:`split_pots` decided.

    ``payouts[i]``: chips seat ``i`` receives (uncalled return + winnings); ``returned[i]``:
    the uncalled part (R21); ``pots``: main pot first, then side pots; ``rake``: the total
    rake (R34), the sum of the pots' ``rake``; ``dead``: the dead money (R7) that is part of
    the main pot's ``amount``. ``sum(payouts) + rake == sum(committed) + dead``.
    """

    payouts: tuple[int, ...]
    returned: tuple[int, ...]
    pots: tuple[Pot, ...]
    rake: int = 0
    dead: int = 0

    @property
    def winnings(self) -> tuple[int, ...]:
        """Chips each seat won from the pots: ``payouts`` minus the uncalled return."""
        return tuple(p - r for p, r in zip(self.payouts, self.returned, strict=True))

    @property
    def total(self) -> int:
        """Chips in all pots (before rake, after the uncalled return, dead money included)."""
        return sum(pot.amount for pot in self.pots)

    def __str__(self) -> str:
        lines = [f"Uncalled {r} returned to seat {seat}"
                 for seat, r in enumerate(self.returned) if r]
        if self.dead:
            lines.append(f"Dead money {self.dead} in the main pot")
        for k, pot in enumerate(self.pots):
            lines.append(f"{'Main pot' if k == 0 else f'Side pot {k}'}: {pot}")
        if self.rake:
            lines.append(f"Rake {self.rake}")
        return "\n".join(lines)


def _per_seat(name: str, values: Any) -> Sequence[Any]:
    """``values`` as a list or tuple, or InvalidPotError naming ``name`` if it is not a
    sequence."""
    if type(values) is list or type(values) is tuple:  # the common case, checked cheaply
        return values
    try:
        if (isinstance(values, (str, bytes, AbstractSet, Mapping))  # (no seat order)
                or not hasattr(values, "__len__")):
            raise TypeError
        if len(values) > _pots.MAX_SEATS:  # before a copy (a broadcast array of 2**31 entries)
            raise InvalidPotError(f"split_pots needs 2 to {_pots.MAX_SEATS} seats, got "
                                  f"{len(values)} {name} entries")
        # at most one entry past the limit is read: a __len__ may not tell the truth (an
        # endless __iter__ filled the memory); a 0-d numpy array has a length but no items
        # (TypeError)
        got = tuple(itertools.islice(values, _pots.MAX_SEATS + 1))
        if len(got) > _pots.MAX_SEATS:
            raise InvalidPotError(f"split_pots needs 2 to {_pots.MAX_SEATS} seats, got more "
                                  f"than {_pots.MAX_SEATS} {name} entries (its len() said "
                                  f"fewer)")
        return got
    except TypeError:
        raise InvalidPotError(f"{name} must be a sequence with one entry per seat, "
                              f"got {type(values).__name__}: {excerpt(values)}") from None


def split_pots(committed: Sequence[int], folded: Sequence[bool],
               ranks: Sequence[int | None] | None, button: int, *,
               dead: int = 0, rake: Rake | None = None, flop_dealt: bool = True) -> PotResult:
    """Pay out a finished hand (R7, R21, R31, R32, R34; see the module docstring for the rules).

    ``committed[i]``: chips seat ``i`` put in this hand (antes, blinds, bets), ints >= 0;
    ``folded[i]``: whether it folded; ``ranks[i]``: its hand rank (higher is stronger), None or
    ignored for folded seats and for a seat that wins uncontested (``ranks=None`` when all but
    one folded); ``button``: the button seat. Seats are 0..n-1 clockwise, 2 <= n <= 10.
    ``dead``: chips in the pot that belong to no seat (a big-blind ante, R7), an int >= 0; they
    join the main pot, are raked with it and are never returned as uncalled.
    Raises :class:`holdem.InvalidPotError` naming the bad input.

    >>> r = split_pots([100, 40, 120, 45], [False, False, False, True], [7, 9, 7, None], button=0)
    >>> r.payouts
    (62, 160, 83, 0)
    >>> print(r)
    Uncalled 20 returned to seat 2
    Main pot: 160 chips (seats 0, 1, 2 eligible): seat 1 wins 160
    Side pot 1: 125 chips (seats 0, 2 eligible): split by seats 0, 2 (62, 63)
    """
    if rake is not None and not isinstance(rake, Rake):
        raise InvalidPotError(f"rake must be a holdem.Rake or None, got {excerpt(rake)}")
    committed = _per_seat("committed", committed)
    folded = _per_seat("folded", folded)
    if ranks is not None:
        ranks = _per_seat("ranks", ranks)
    payouts, returned, total_rake, raw = _pots.resolve(
        committed, folded, ranks, button, rake, _pots.check_flag("flop_dealt", flop_dealt), dead)
    pots = tuple(Pot(amount, eligible, winners, shares, pot_rake)
                 for amount, pot_rake, eligible, winners, shares in raw)
    return PotResult(payouts, returned, pots, total_rake, operator.index(dead))  # checked
