"""Where the button and the blinds go next hand, and who is dealt in (R2-R4, R36, R37).

Pure functions over seat numbers; :class:`holdem.table.table.Table` feeds them and applies the plan.
Seats are ``0..size-1`` clockwise. A seat's *kind* for the coming hand is one of:

- ``REGULAR``: dealt in, owes nothing;
- ``POSTER``: wants to be dealt in but owes a post first (a new player's entry bet, R36, or
  missed blinds, Robert's Rules);
- ``WAITING``: waits for the big blind (a new player who chose to wait, R36, or a returning
  player who chose to wait rather than post);
- ``OUT``: not dealt in (sitting out in a cash game, no chips R37, or an empty seat).

Rules followed (RULES.md ids; Robert's Rules of Poker, "Button and blind use", for cash games;
TDA for tournaments):

- Moving button (default, R4): the button moves to the next player dealt in, the small blind is
  the next one, the big blind the next one after it; a waiting player sitting where the big blind
  lands is dealt in as the big blind. A player who owes a post is not dealt in on the button or
  the small blind ("a new player may not post in between the blinds and the button", Robert's
  Rules): they wait until the button has passed. A waiting player whom the blinds would jump
  (the players right of them busted or left, so the small blind lands past them) takes the big
  blind right after the button, the small blind dead for that hand (R36: dealt in when the
  big blind reaches them, not an orbit later), also when two other players are left; posters
  the small blind passed over who then sit left of that big blind post as usual.
- Dead button (TDA "dead button"; Robert's Rules button and blind use 2b): the big blind moves
  to the next player due for it; the small blind is posted by last hand's big blind (dead small
  blind when that player is gone) and the button is on last hand's small blind seat (dead or
  not), even on an empty seat. Players owing nothing who sit between that seat and the small
  blind's (back after a heads-up hand, whose button is also its small blind) are dealt in:
  the button moves on to the last of them. When the progression would put the button and
  the big blind on one player (players sitting down between the blinds of a short table) or
  the big blind between the button and the small blind's seat (after a heads-up hand whose
  button left), that hand is placed as with a moving button and the progression resumes
  from it.
- Heads-up (R3, TDA 34): the button posts the small blind; the big blind goes to the player who
  did not post it last hand, so nobody posts the big blind twice in a row when a table goes
  from three players to two.
- Heads-up to three-handed (R36 with R3, R4): while two players play heads-up, the button and
  the small blind are one seat and the big blind alternates between the two, so neither rule
  above ever reaches a third player who posts or waits for the big blind. Instead the big blind
  moves on clockwise from last hand's big blind to the first such player, who posts it (an
  entry bet or missed blinds are settled by it, as for anybody who enters in the big blind);
  the heads-up player right of them posts the small blind and the other one has the button
  (placement ``"joining"``). Other posters between the big blind and the button post as usual.
  The same applies when a hand of three or more leaves two players and such a player, except
  that the button moves on to the next of the two (R4) and the small blind is dead unless the
  other one sits between the button and the big blind. A seat that had the big blind last
  hand (its player back to wait for it, or a new player in it) waits for it to come round.
- When fewer than two players are ready without owing (a new game), everybody with chips who is
  not sitting out is dealt in and nobody owes anything (Robert's Rules: blind obligations start
  with the game).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import NamedTuple

__all__ = ["Kind", "Plan", "Positions", "between", "plan_hand"]


class Kind(IntEnum):
    OUT = 0
    REGULAR = 1
    POSTER = 2
    WAITING = 3


_REGULAR, _POSTER, _WAITING = int(Kind.REGULAR), int(Kind.POSTER), int(Kind.WAITING)


class Positions(NamedTuple):
    """Table seats of a hand's button, small blind (``None`` when dead) and big blind;
    ``sb_seat`` is the small blind's seat even when it is dead (last hand's big blind seat)."""

    button: int
    small_blind: int | None
    big_blind: int
    sb_seat: int | None = None


class Plan(NamedTuple):
    """The coming hand: seats dealt in (ascending), positions, seats that post what they owe,
    whether this is a new game (everybody dealt in, all debts forgiven), and how the button
    and blinds were placed: ``"moving"``, ``"dead"`` (dead-button progression),
    ``"heads-up"`` (R3 / TDA 34) or ``"joining"`` (a heads-up game gets a third player)."""

    dealt: tuple[int, ...]
    positions: Positions
    posters: tuple[int, ...]
    new_game: bool
    placement: str = "moving"


def between(a: int, b: int, s: int, size: int) -> bool:
    """True when seat ``s`` lies strictly between ``a`` and ``b`` going clockwise."""
    return 0 < (s - a) % size < (b - a) % size


def _next(seats: Sequence[int], after: int, size: int) -> int:
    """The first seat of ``seats`` (ascending) strictly clockwise after ``after``."""
    for s in seats:
        if s > after:
            return s
    return seats[0]


def plan_hand(kinds: Sequence[int], prev: Positions | None, *, dead_button: bool,
              first_button: int) -> Plan | None:
    """Plan the next hand, or ``None`` when fewer than two players can be dealt in.

    ``kinds[s]`` is the kind of seat ``s``; ``prev`` the last hand's positions (``None`` before
    the first hand); ``first_button`` the seat drawn for the button of a new game (used when
    it holds a player dealt in, else the next such seat).
    """
    size = len(kinds)
    ready: list[int] = []
    posters: list[int] = []
    waiting: list[int] = []
    for s, k in enumerate(kinds):
        if k == _REGULAR:
            ready.append(s)
        elif k == _POSTER:
            posters.append(s)
        elif k == _WAITING:
            waiting.append(s)
    if prev is not None and not posters and not waiting and not dead_button and len(ready) > 2:
        # the common case: everybody dealt in owes nothing (R4, R2)
        button = _next(ready, prev.button, size)
        sb = _next(ready, button, size)
        return Plan(tuple(ready), Positions(button, sb, _next(ready, sb, size), sb), (), False)
    if len(ready) + len(posters) + len(waiting) < 2:
        return None
    if prev is None or len(ready) < 2:
        every = sorted(ready + posters + waiting)
        button = first_button if first_button in every else _next(every, first_button, size)
        if prev is not None:
            button = _next(every, prev.button, size)
        return _moving(every, [], [], button, prev, size, new_game=True)
    if dead_button:
        plan = _dead(ready, posters, waiting, prev, size)
    else:
        button = _next(sorted(ready + posters), prev.button, size)
        plan = _moving(ready, posters, waiting, button, prev, size, new_game=False)
    # the big blind moves on: a seat that had it last hand (left and taken again, or its
    # player back to wait for it) waits for it to come round
    newcomers = sorted(s for s in posters + waiting if s != prev.big_blind)
    if len(plan.dealt) == 2 and len(ready) == 2 and newcomers:
        # a heads-up game would leave the newcomer out for good (the button and the small
        # blind are one seat, so the positions never reach them): they take the big blind
        return _joining(ready, posters, newcomers, prev, size)
    return plan


def _heads_up_hand(prev: Positions) -> bool:
    """Whether the last hand was heads-up (R3: its button posted the small blind)."""
    return prev.small_blind == prev.button


def _heads_up(dealt: Sequence[int], prev: Positions | None, size: int,
              button: int | None, posters: Sequence[int]) -> Plan:
    """R3 / TDA 34: the big blind to the player who did not post it last hand."""
    if prev is not None:
        bb = _next(sorted(dealt), prev.big_blind, size)
    else:
        assert button is not None
        bb = _next(sorted(dealt), button, size)
    btn = dealt[0] if dealt[1] == bb else dealt[1]
    # Heads-up a debt is settled by the blinds themselves (they alternate every hand).
    return Plan(tuple(sorted(dealt)), Positions(btn, btn, bb, btn), (), prev is None, "heads-up")


def _moving(ready: list[int], posters: list[int], waiting: list[int], button: int,
            prev: Positions | None, size: int, *, new_game: bool) -> Plan:
    players = sorted(ready + posters)
    poster_set = set(posters)
    while True:
        if len(players) == 2 and not waiting:
            return _heads_up(players, prev, size, button, ())
        if button not in players:
            button = _next(players, button, size)
        if button in poster_set and len(players) > 2:
            players.remove(button)
            button = _next(players, button, size)
            continue
        sb = _next(players, button, size)
        if sb in poster_set and len(players) > 2:
            players.remove(sb)
            continue
        # a waiting player the button would have to jump over is not dealt in (R4)
        reach = [w for w in waiting if prev is None or not between(prev.button, button, w, size)]
        bb = _next(sorted(players + reach), sb, size)
        if prev is not None and (len(players) > 2 or not _heads_up_hand(prev)):
            # the small blind would jump over a waiting player (the player before them busted
            # or left) and the big blind with it: they take the big blind, the small blind is
            # dead this hand (R36: dealt in when the big blind reaches them)
            jumped = [w for w in reach if between(button, sb, w, size)
                      and between(prev.big_blind, bb, w, size)]
            if jumped:
                bb = min(jumped, key=lambda w: (w - button) % size)
                # posters passed over as the small blind who now sit left of the big blind
                # post (not those the button passed over: it moves to the next player, R4)
                dealt = sorted({*players, bb, *(
                    s for s in posters if between(bb, button, s, size)
                    and not between(prev.button, button, s, size))})
                posting = tuple(s for s in dealt if s in poster_set)
                return Plan(tuple(dealt), Positions(button, None, bb, None), posting, new_game)
        dealt = sorted({*players, bb})
        if len(dealt) == 2:
            return _heads_up(dealt, prev, size, button, ())
        if bb == button:  # only possible with two players; handled above
            raise AssertionError("big blind on the button with three players")
        posting = tuple(s for s in dealt if s in poster_set and s != bb)
        return Plan(tuple(dealt), Positions(button, sb, bb, sb), posting, new_game)


def _joining(ready: list[int], posters: list[int], newcomers: list[int], prev: Positions,
             size: int) -> Plan:
    """Two players left to play heads-up and others who post or wait for the big blind (R3,
    R4, R36). The big blind moves on clockwise from last hand's big blind to the first of
    them, who posts it (which settles an entry bet or missed blinds, as for anybody who
    enters in the big blind). After a heads-up hand the one of the two right of it posts
    the small blind and the other has the button. After a hand of three or more the button
    moves on to the next of the two (R4), and the other posts the small blind when it sits
    between the button and the big blind, else the small blind is dead (as when a waiting
    player is jumped). Other posters left of the big blind and right of the button post as
    usual; the rest wait (nobody enters between the button and the big blind)."""
    bb = _next(newcomers, prev.big_blind, size)
    sb: int | None
    if _heads_up_hand(prev):
        sb = max(ready, key=lambda s: (s - bb) % size)  # the player right of the big blind
        button = ready[0] if ready[1] == sb else ready[1]
    else:
        button = _next(ready, prev.button, size)
        other = ready[0] if ready[1] == button else ready[1]
        sb = other if between(button, bb, other, size) else None
    dealt = [*ready, bb]
    dealt += [s for s in posters if s != bb and between(bb, button, s, size)]
    posting = tuple(s for s in sorted(dealt) if s in posters and s != bb)
    return Plan(tuple(sorted(dealt)), Positions(button, sb, bb, sb), posting, False, "joining")


def _dead(ready: list[int], posters: list[int], waiting: list[int], prev: Positions,
          size: int) -> Plan:
    candidates = sorted(ready + posters + waiting)
    bb = _next(candidates, prev.big_blind, size)
    sb: int | None = prev.big_blind if prev.big_blind in ready else None
    # the button goes to last hand's small blind seat, dead or not (possibly an empty seat)
    button = prev.sb_seat if prev.sb_seat is not None else (
        prev.small_blind if prev.small_blind is not None else prev.button)
    # players owing nothing between that seat and the small blind's (back after a heads-up
    # hand, whose button was also its small blind, or a hand placed otherwise): the button
    # moves on to the last of them, so they are dealt in and the big blind still moves on
    gap = [s for s in ready if between(button, prev.big_blind, s, size)]
    if gap:
        button = max(gap, key=lambda s: (s - button) % size)
    if sb == bb:
        sb = None
    dealt = {s for s in ready + posters if not between(button, bb, s, size) and s != button}
    if button in ready:
        dealt.add(button)
    dealt.add(bb)
    if sb is not None:
        dealt.add(sb)
    if bb == button or between(button, prev.big_blind, bb, size):
        # The progression would put the button and the big blind on one player (players who
        # sat down between the blinds of a short table), or the big blind between the button
        # and the small blind (after a heads-up hand whose button then left). Position this
        # hand as with a moving button instead (R4); the dead-button progression resumes
        # from it.
        return _moving(ready, posters, waiting, _next(sorted(ready + posters), prev.button, size),
                       prev, size, new_game=False)
    if len(dealt) == 2:
        return _heads_up(sorted(dealt), prev, size, None, ())
    poster_set = set(posters)
    posting = tuple(s for s in sorted(dealt) if s in poster_set and s != bb)
    return Plan(tuple(sorted(dealt)), Positions(button, sb, bb, prev.big_blind), posting, False,
                "dead")
