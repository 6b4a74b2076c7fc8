"""Settlement: the one place where a hand meets the evaluator and the pot resolver (R29-R34).

:func:`settle` ranks each shown hand with ``holdem.evaluate`` (best five of seven, R29/R30;
higher is stronger) and resolves the pots with ``holdem.split_pots`` (dead money R7, uncalled
chips R21, side pots R31, odd chips R32, rake R34). The reference core calls it; the compiled
core settles in C (``hd_hs_settle``/``hd_hs_showdown`` in csrc/hd_hand.c, the same pot kernel)
into the same result (the differential tests compare the two hand by hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from holdem._eval import evaluate
from holdem.cards import Card
from holdem.errors import InvalidHandError
from holdem.hand.records import HandResult
from holdem.pots import Pot, split_pots

if TYPE_CHECKING:
    from holdem.hand._plan import GameLike

__all__ = ["dead_seats", "settle", "street_returns"]

_DEAD_POSTS = frozenset(("big_blind_ante", "dead_small_blind"))
"""Post kinds that are dead money (R7, R36): never a seat's bet, never returned."""


def street_returns(n: int, posts: Sequence[Sequence[Any]], hist: Sequence[Sequence[Any]],
                   committed: Sequence[int]) -> list[int]:
    """Chips each seat already got back as uncalled (R21) when a betting round closed: what it
    put in (its live posts and the ``amount`` of its actions, raw history records) minus what
    it still has in the pots (``committed``). ``posts`` are ``(seat, kind, amount)``."""
    put = [0] * n
    for post in posts:
        if post[1] not in _DEAD_POSTS:
            put[post[0]] += post[2]
    for rec in hist:
        put[rec[0]] += rec[4]
    return [max(put[j] - committed[j], 0) for j in range(n)]


def dead_seats(n: int, hist: Sequence[Sequence[Any]], folded: Sequence[bool]) -> list[int]:
    """The seats whose hand was dead from the deal (TDA 30): folded, but never by an action
    (no fold record, type 0, in the raw history ``hist``)."""
    by_action = {rec[0] for rec in hist if rec[2] == 0}
    return [j for j in range(n) if folded[j] and j not in by_action]


def settle(game: GameLike, button: int, folded: Sequence[bool], committed: Sequence[int],
           stacks: Sequence[int], start_stacks: Sequence[int],
           hole: Sequence[tuple[Card, ...] | None], board: tuple[Card, ...],
           river_bettor: int, showdown: bool, dead: int = 0,
           returned: Sequence[int] = ()) -> HandResult:
    """Pay the pots at the end of a hand and describe the showdown (R29-R33).

    ``showdown`` is False when all but one seat folded (R19: no cards are shown). Otherwise the
    seats still in show in order (R33): ``river_bettor`` (the last to bet or raise on the
    river, -1 if none) first, else the first seat left of the button, then clockwise. Losing
    hands are mucked when ``game.muck_losing_hands``: a hand is mucked when an already shown
    hand beats it and covers its whole contribution (it could not win any pot it is in); a
    mucked hand stays eligible for the pots it cannot win. When a seat in the showdown is all
    in, every hand is shown (TDA 16). Unknown hole cards at a showdown raise InvalidHandError.

    ``dead`` chips (a big-blind ante, R7) belong to nobody: dead money added to the main pot,
    never returned as uncalled (WSOP practice); ``split_pots(..., dead=dead)`` puts them in the
    main pot and rakes them with it.

    ``returned``: chips already given back to each seat as uncalled when a betting round
    closed (R21; :func:`street_returns`), empty for none. The result's ``returned`` adds them
    to what the pot resolver returns, so it counts every uncalled chip of the hand.
    """
    n = len(folded)
    ranks: list[int | None] | None = None
    order: list[int] = []
    shown: dict[int, tuple[Card, ...]] = {}
    rank_of: dict[int, int] = {}
    mucked: list[int] = []
    if showdown:
        first = river_bettor
        if first < 0:
            first = next(j for j in ((button + k) % n for k in range(1, n + 1)) if not folded[j])
        order = [j for j in ((first + k) % n for k in range(n)) if not folded[j]]
        show_all = (not game.muck_losing_hands) or any(stacks[j] == 0 for j in order)
        ranks = [None] * n
        for j in order:
            cards = hole[j]
            if cards is None:
                raise InvalidHandError(
                    f"seat {j} reaches the showdown but its hole cards are unknown")
            r = int(evaluate((*cards, *board)))  # R29: best five of the seven cards
            ranks[j] = r
            if not show_all and any(
                rk > r and committed[k] >= committed[j] for k, rk in rank_of.items()
            ):
                mucked.append(j)
                continue
            rank_of[j] = r
            shown[j] = cards
    else:
        lone = _lone_winner(folded, committed) if game.rake is None and not dead else None
        if lone is not None:
            return _lone_result(lone, committed, stacks, start_stacks, returned)
    res = split_pots(committed, folded, ranks, button, dead=dead, rake=game.rake,
                     flop_dealt=len(board) >= 3)
    payouts = res.payouts
    final = tuple([stacks[j] + payouts[j] for j in range(n)])
    payoffs = tuple([final[j] - start_stacks[j] for j in range(n)])
    back = res.returned
    if returned:
        back = tuple([back[j] + returned[j] for j in range(n)])
    return HandResult(payoffs, final, tuple(res.pots), back, int(res.rake),
                      tuple(order), shown, tuple(mucked), rank_of)


def _lone_winner(folded: Sequence[bool], committed: Sequence[int]) -> tuple[int, int] | None:
    """``(seat, excess)`` when one seat is left and committed at least as much as any other
    (the common case of a hand won by folds without rake), else None."""
    w = -1
    second = 0
    for j, f in enumerate(folded):
        if not f:
            w = j
        elif committed[j] > second:
            second = committed[j]
    if committed[w] < second or sum(committed) - (committed[w] - second) <= 0:
        return None
    return w, committed[w] - second


def _lone_result(lone: tuple[int, int], committed: Sequence[int], stacks: Sequence[int],
                 start_stacks: Sequence[int], street: Sequence[int] = ()) -> HandResult:
    """What ``split_pots`` gives when one seat is left (R19, R21): its uncalled excess back and
    one pot of everything else, no showdown. Kept equal to it by tests/test_state_rules.py."""
    w, excess = lone
    n = len(committed)
    total = sum(committed)
    final = list(stacks)
    final[w] += total
    returned = list(street) if street else [0] * n
    returned[w] += excess
    pot = Pot(amount=total - excess, eligible=(w,), winners=(w,), shares=(total - excess,))
    return HandResult(tuple([final[j] - start_stacks[j] for j in range(n)]), tuple(final),
                      (pot,), tuple(returned), 0, (), {}, (), {})

