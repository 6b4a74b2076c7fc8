"""A slow, obviously correct pot splitter in plain Python: the oracle for holdem.pots.

Written from RULES.md (R21, R31, R32, R34) and the documented choices in holdem/pots.py, not
from the C kernel: it peels pots off the smallest remaining live stack, one layer at a time,
and does the rake with Fraction arithmetic. Not shipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

RawPot = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def reference_split(
    committed: Sequence[int],
    folded: Sequence[bool],
    ranks: Sequence[int | None],
    button: int,
    fraction: Fraction = Fraction(0),
    cap: int | None = None,
    no_flop_no_drop: bool = True,
    flop_dealt: bool = True,
) -> tuple[tuple[int, ...], tuple[int, ...], int, list[RawPot]]:
    """Same output shape as holdem._pots.resolve: (payouts, returned, rake, pots)."""
    n = len(committed)
    live = [not f for f in folded]
    if not any(live):
        raise ValueError("everyone folded")
    stacks = list(committed)

    # R21: the biggest bet, if nobody matched it, comes back down to the next biggest.
    by_size = sorted(stacks, reverse=True)
    returned = [0] * n
    if by_size[0] > by_size[1]:
        top = stacks.index(by_size[0])
        returned[top] = by_size[0] - by_size[1]
        stacks[top] = by_size[1]
    total = sum(stacks)

    # R31: peel one layer per smallest remaining live stack.
    left = stacks[:]
    seats = range(n)
    amounts: list[int] = []
    eligibles: list[tuple[int, ...]] = []
    while True:
        live_left = [left[i] for i in seats if live[i] and left[i] > 0]
        if not live_left:
            break
        step = min(live_left)
        eligible = tuple([i for i in seats if live[i] and left[i] >= step])
        amount = 0
        for i in seats:     # every seat pays up to `step` into this layer
            if left[i] >= step:
                amount += step
                left[i] -= step
            else:
                amount += left[i]
                left[i] = 0
        amounts.append(amount)
        eligibles.append(eligible)
    dead = sum(left)              # folded chips above every live seat's stack
    if dead:
        if amounts:
            amounts[-1] += dead
        else:
            amounts.append(dead)
            eligibles.append(tuple(i for i in range(n) if live[i]))

    # R34: rake on the whole pot, rounded down, capped per hand, main pot first.
    rake = 0
    if fraction and not (no_flop_no_drop and not flop_dealt):
        rake = total * fraction.numerator // fraction.denominator
        if cap is not None:
            rake = min(rake, cap)
    total_rake = rake

    clockwise = [(button + 1 + k) % n for k in range(n)]
    payouts = list(returned)
    pots: list[RawPot] = []
    for amount, eligible in zip(amounts, eligibles, strict=True):
        pot_rake = min(rake, amount)
        rake -= pot_rake
        winners: tuple[int, ...]
        if len(eligible) == 1:
            winners = eligible
        else:
            for seat in eligible:
                if ranks[seat] is None:
                    raise ValueError(f"seat {seat} needs a rank")
            best = max(ranks[s] for s in eligible)  # type: ignore[type-var]
            winners = tuple(s for s in eligible if ranks[s] == best)
        # R32: deal the pot out chip by chip, clockwise from left of the button.
        # Whole rounds first (one chip to every winner per round), then the last partial round.
        rounds, rest = divmod(amount - pot_rake, len(winners))
        got = dict.fromkeys(winners, rounds)
        for s in [s for s in clockwise if s in got][:rest]:
            got[s] += 1
        for s in winners:
            payouts[s] += got[s]
        pots.append((amount, pot_rake, eligible, winners, tuple(got[s] for s in winners)))
    return tuple(payouts), tuple(returned), total_rake, pots
