"""Player statistics over any sequence of hands: simulations, table sessions, hand histories.

>>> import holdem
>>> table = holdem.Table(holdem.Game(big_blind=2), seats=3, seed=1)
>>> for seat, agent in enumerate([holdem.CallAgent(), holdem.RandomAgent(seed=2),
...                               holdem.EquityAgent(seed=3, samples=2)]):
...     table.sit(seat, agent.name, 400, agent)
>>> stats = holdem.player_stats(table.play(20))
>>> stats["call"].pfr  # a calling station never raises
0.0
>>> print(stats)  # doctest: +SKIP
player  hands  VPIP   PFR  3-bet  fold 3b  c-bet    AF  WTSD  W$SD  net won  bb/100   95% CI ...

:class:`Stats` accepts, in any mix: :class:`holdem.HandRecord` (``Table.play``), hand
histories (:class:`holdem.phh.HandHistory`, replayed under the rules; a PokerStars import gives
the same objects), or a finished :class:`holdem.HandState` with the players' names.
:func:`holdem.simulate` collects the same statistics in its workers with ``stats=True``.

The definitions are the ones poker tracking software uses (the sources are cited per field of
:class:`PlayerStats`). All counts are per hand: a player who raises twice preflop has one PFR
hand. The blinds, straddles and antes are posts, not actions: the first preflop raise is the
"2-bet", a re-raise of it the 3-bet.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Collection, Container, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from holdem._ints import int_or_none
from holdem._pickling import frozen_slots
from holdem._shown import excerpt
from holdem.cards import RANKS as _RANKS
from holdem.errors import InvalidConfigError, InvalidStateError

if TYPE_CHECKING:
    from typing import TypeAlias

    from holdem.hand.game import HandState, ReferenceHandState
    from holdem.hand.records import HandResult
    from holdem.phh import HandHistory
    from holdem.table.table import HandRecord

    _Hand: TypeAlias = HandRecord | HandState | ReferenceHandState | HandHistory
    """What :class:`Stats` counts: a Table's record, a finished hand or a hand history."""

__all__ = ["PlayerStats", "Stats", "format_table", "player_stats"]

_Z95 = 1.959963984540054
_BOARD_AT = (0, 3, 4, 5)  # board cards dealt when a street's betting ends (preflop..river)
# the counters of one player, by index in Stats._counts[name]
(_HANDS, _VPIP, _PFR, _TB_CH, _TB, _F3_CH, _F3, _CB_CH, _CB, _AGG, _CALLS, _FLOPS, _SD, _WSD,
 _NET) = range(15)
_INTS = 15
# floats: net in big blinds, its square, all-in adjusted net in chips and in big blinds,
# then an int: hands where the all-in adjustment applied (a count kept as a float stopped at
# 2**53, while the hands it is a share of count on to _MAX_COUNT; pickles made before hold it
# as a whole float, read as an int)
_BB, _BB2, _ADJ, _ADJ_BB, _ADJ_N = range(5)
_ACTION_COUNTS = frozenset({_AGG, _CALLS})  # actions, not hands: more than one a hand
_MAX_COUNT = 2**62  # hands (or actions) a pickled Stats may count (no run plays more)
_MAX_BITS = 256  # net chips, and money's numerator and denominator, in a pickled Stats
# a hand's payoff in big blinds (a curve's step): at most every chip of 10 stacks of 2**53
_MOST_BB_A_HAND = 10 * 2**53
_EQUITIES: dict[tuple[int | None, tuple[str, ...], str, str], tuple[float, ...]] = {}
"""The all-in equities this process worked out, shared by every :class:`Stats`, by (boards
sampled or None for exact, hands, board, dead cards): an equity depends only on these (a sampled one is
seeded by the cards), so statistics over chunks of hands, merged, find the equities of the
chunks before them as one Stats over every hand would."""
_EQUITIES_MAX = 10_000
# the 169 starting-hand classes (Stats._count_classes): a pair ("77"), or two ranks, the
# higher first, suited or offsuit ("AKs", "T9o")
_CLASSES = frozenset(r + r for r in _RANKS) | frozenset(
    hi + lo + kind for i, hi in enumerate(_RANKS) for lo in _RANKS[:i] for kind in "so")


@frozen_slots
@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's statistics (counts, then ratios as properties; a ratio without any chance
    to happen is ``None``).

    - ``vpip`` (voluntarily put money in pot): share of hands where the player called or raised
      preflop; posting a blind or checking the big blind is not voluntary (GGPoker Smart HUD
      help, "VPIP definition"; poker.fandom.com, "Player statistics"). Every hand dealt counts,
      walks included (a big blind that everybody folded to); PokerTracker 4 leaves walks out
      of VPIP and PFR, so its figures for a big blind run a little higher.
    - ``pfr`` (preflop raise): share of hands with a preflop bet or raise (same sources).
    - ``three_bet``: share of the chances to re-raise a single preflop raise (the player acts
      facing exactly one raise) where the player re-raised (Poker Sleuth, "3bet": opportunity
      when one raise was made this round, instance a raise).
    - ``fold_to_three_bet``: share of the times the first preflop raiser, facing a 3-bet (and no
      4-bet yet), folded.
    - ``cbet`` (continuation bet): share of flops where the last preflop raiser could bet first
      (nobody bet the flop before it) and did (PokerNews, "Continuation bet"; Poker Copilot,
      "Continuation bets").
    - ``aggression_factor``: (bets + raises) / calls after the flop; checks and folds do not
      count (pokerengineering.com, "Aggression Factor (AF)"); ``inf`` with no calls.
    - ``wtsd`` (went to showdown): share of the hands where the player saw the flop that it
      took to the showdown (shown or mucked); ``wsd`` (W$SD, won money at showdown): share
      of those showdowns where it won chips back from a pot (poker.fandom.com, "WtSD %" and
      "Win SD %").
    - ``net``: chips won (in the hands' units); ``bb_per_100``: big blinds won per 100 hands,
      ``ci95`` the half-width of its 95% interval (normal approximation over per-hand results).
    - ``allin_adjusted``/``allin_adjusted_bb_per_100``: the same winnings where every hand that
      was all in before the river with the cards known pays its expected value (each pot shared
      by the eligible players' equities over the remaining board, computed with
      :func:`holdem.equity`, the hands of the players all in for less out of the deck)
      instead of what the board gave; ``allin_hands`` counts those hands.
      ``None`` when not computed.
    """

    name: str
    hands: int
    vpip_hands: int
    pfr_hands: int
    three_bet_chances: int
    three_bets: int
    fold_to_three_bet_chances: int
    folds_to_three_bet: int
    cbet_chances: int
    cbets: int
    postflop_aggressive: int
    postflop_calls: int
    saw_flop: int
    showdowns: int
    showdowns_won: int
    net: int | float
    bb_won: float
    bb_squares: float
    allin_adjusted: float | None = None
    allin_adjusted_bb: float | None = None
    allin_hands: int = 0

    @staticmethod
    def _ratio(num: int, den: int) -> float | None:
        return num / den if den else None

    @property
    def vpip(self) -> float | None:
        return self._ratio(self.vpip_hands, self.hands)

    @property
    def pfr(self) -> float | None:
        return self._ratio(self.pfr_hands, self.hands)

    @property
    def three_bet(self) -> float | None:
        return self._ratio(self.three_bets, self.three_bet_chances)

    @property
    def fold_to_three_bet(self) -> float | None:
        return self._ratio(self.folds_to_three_bet, self.fold_to_three_bet_chances)

    @property
    def cbet(self) -> float | None:
        return self._ratio(self.cbets, self.cbet_chances)

    @property
    def aggression_factor(self) -> float | None:
        if self.postflop_calls:
            return self.postflop_aggressive / self.postflop_calls
        return math.inf if self.postflop_aggressive else None

    @property
    def wtsd(self) -> float | None:
        return self._ratio(self.showdowns, self.saw_flop)

    @property
    def wsd(self) -> float | None:
        return self._ratio(self.showdowns_won, self.showdowns)

    @property
    def bb_per_100(self) -> float:
        return 100 * self.bb_won / self.hands if self.hands else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95% interval of :attr:`bb_per_100`."""
        n = self.hands
        if n < 2:
            return 0.0
        mean = self.bb_won / n
        var = max((self.bb_squares - self.bb_won * mean) / (n - 1), 0.0)
        return 100 * _Z95 * math.sqrt(var / n)

    @property
    def allin_adjusted_bb_per_100(self) -> float | None:
        if self.allin_adjusted_bb is None or not self.hands:
            return None
        return 100 * self.allin_adjusted_bb / self.hands


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


_HEADER = ("player", "hands", "VPIP", "PFR", "3-bet", "fold 3b", "c-bet", "AF", "WTSD", "W$SD",
           "net won", "bb/100", "95% CI", "all-in adj bb/100")


def _row(p: PlayerStats) -> tuple[str, ...]:
    af = p.aggression_factor
    adj = p.allin_adjusted_bb_per_100
    net = f"{p.net:+,}" if isinstance(p.net, int) else f"{p.net:+,.2f}"
    return (p.name, f"{p.hands:,}", _pct(p.vpip), _pct(p.pfr), _pct(p.three_bet),
            _pct(p.fold_to_three_bet), _pct(p.cbet),
            "-" if af is None else ("inf" if af == math.inf else f"{af:.2f}"),
            _pct(p.wtsd), _pct(p.wsd), net, f"{p.bb_per_100:+.1f}", f"+/- {p.ci95:.1f}" if p.hands >= 2 else "+/- n/a",
            "-" if adj is None else f"{adj:+.1f}")


def _table_row(p: object, i: int) -> tuple[str, ...]:
    if not isinstance(p, PlayerStats):
        raise InvalidConfigError(
            f"format_table takes PlayerStats (such as a Stats' values()), players[{i}] is "
            f"{type(p).__name__}: {excerpt(p)}")
    return _row(p)


def format_table(players: Iterable[PlayerStats]) -> str:
    """An aligned text table, one player a row (percentages for the shares); ``players`` is
    an iterable of :class:`PlayerStats` (``stats.values()``), else :class:`InvalidConfigError`."""
    if isinstance(players, Stats | str) or not isinstance(players, Iterable):
        hint = " (pass stats.values())" if isinstance(players, Stats) else ""
        raise InvalidConfigError(
            f"format_table takes an iterable of PlayerStats, got {type(players).__name__}: "
            f"{excerpt(players)}{hint}")
    rows = [_HEADER, *(_table_row(p, i) for i, p in enumerate(players))]
    widths = [max(len(r[i]) for r in rows) for i in range(len(_HEADER))]
    return "\n".join(
        "  ".join([f"{r[0]:<{widths[0]}}", *(f"{c:>{w}}" for c, w in zip(r[1:], widths[1:],
                                                                          strict=True))])
        for r in rows)


def _unit(unit: object) -> Fraction | int:
    """``add_state``'s ``unit`` read as :func:`holdem.history.chip_unit` reads a chip unit
    (exact, 1e-18..1e18), an int when it is whole, or InvalidConfigError naming it."""
    from holdem.errors import InvalidHistoryError
    from holdem.history import _unit as chip_unit_of

    try:
        value = chip_unit_of(unit, "unit")  # type: ignore[arg-type]  # checked there
    except InvalidHistoryError as e:
        raise InvalidConfigError(str(e)) from None
    return value.numerator if value.denominator == 1 else value


class Stats(Mapping[str, PlayerStats]):
    """An accumulator of per-player statistics; a mapping name -> :class:`PlayerStats`.

    ``allin_adjusted``: compute the all-in adjusted winnings (one equity per all-in hand;
    off by default in :func:`holdem.simulate`, on here). The equities are exact; a preflop
    all-in then enumerates every board (about 7-10 ms), so for many all-in hands
    ``allin_samples=N`` estimates preflop all-ins from ``N`` boards instead (seeded by the
    cards: the same hand always gives the same estimate; with ``N`` at least the number of
    boards left, every board is enumerated, exactly). ``curves``: keep each player's
    cumulative winnings in big blinds after each of its hands (for charts).
    ``starting_hands``: count each player's known starting hands by class and how often it
    played them (for the 13x13 grid of :mod:`holdem.charts`).
    """

    def __init__(self, hands: Iterable[_Hand] = (), *, allin_adjusted: bool = True,
                 allin_samples: int | None = None, curves: bool = False,
                 starting_hands: bool = False) -> None:
        if allin_samples is not None:
            count = int_or_none(allin_samples)
            if count is None or count < 1:
                raise InvalidConfigError(
                    f"allin_samples must be None (exact) or an int >= 1, got {allin_samples!r}")
            allin_samples = count
        for option, value in (("allin_adjusted", allin_adjusted), ("curves", curves),
                              ("starting_hands", starting_hands)):
            if not isinstance(value, bool):  # "no" would switch it on
                raise InvalidConfigError(f"{option} must be True or False, got {excerpt(value)}")
        self.allin_adjusted = allin_adjusted
        self.allin_samples = allin_samples
        self.starting_hands: dict[str, dict[str, list[int]]] | None = (
            {} if starting_hands else None)
        """With ``starting_hands=True``: per player, hand class (``AKs``, ``T9o``, ``77``) ->
        [hands dealt with known cards, of which played voluntarily (VPIP)]."""
        self._ints: dict[str, list[int]] = {}
        self._floats: dict[str, list[float]] = {}
        # net won in the hands' own units, for hands played in a unit other than one chip
        # (a history in dollars and cents is played in cents: see holdem.history.chip_unit)
        self._money: dict[str, Fraction] = {}
        self.curves: dict[str, list[float]] | None = {} if curves else None
        self.update(hands)

    # -- adding hands
    def update(self, hands: Iterable[_Hand]) -> None:
        """Add every hand of ``hands`` (see :meth:`add`), one at a time: when a hand is refused
        (or ``hands`` raises), the hands before it stay counted."""
        from holdem.phh import HandHistory

        if (isinstance(hands, str | bytes | HandHistory) or not hasattr(hands, "__iter__")
                or hasattr(hands, "raw_history") or hasattr(hands, "state")):
            raise InvalidConfigError(
                f"hands must be an iterable of hands (a list; add() takes one hand), got "
                f"{type(hands).__name__}: {excerpt(hands)}")
        for hand in hands:
            self.add(hand)

    def add(self, hand: _Hand, names: Sequence[str] | None = None) -> None:
        """Add one finished hand: a :class:`holdem.HandRecord`, a hand history (replayed), or a
        :class:`holdem.HandState` (``names`` by seat; default ``seat0``, ``seat1``...). A
        record or a history names its players itself: ``names`` is for a state only."""
        state = getattr(hand, "state", None)
        is_state = hasattr(hand, "raw_history") and hasattr(hand, "result_or_none")
        if names is not None and not is_state:
            raise InvalidConfigError(
                "names are for a HandState: a HandRecord or a hand history names its players "
                "itself")
        if state is not None and hasattr(hand, "names"):  # a Table's HandRecord
            self.add_state(state, hand.names)
            return
        if is_state:  # a HandState of either core (a duck test mypy does not follow)
            n = hand.num_players  # type: ignore[union-attr]
            self.add_state(hand, names if names is not None else  # type: ignore[arg-type]
                           tuple(f"seat{k}" for k in range(n)))
            return
        from holdem.phh import HandHistory

        if isinstance(hand, HandHistory):
            from holdem.history import replay

            played = replay(hand)
            if played.odd_chip is None:  # (an odd chip split finer than R32 is not an error)
                played.check()  # a hand whose final stacks are not the file's: refused
            who = hand.players or tuple(f"p{k + 1}" for k in range(hand.num_players))
            self.add_state(played.state, who, unit=played.chip_unit, unknown=played.stand_ins)
            return
        raise InvalidConfigError(
            f"a hand must be a HandRecord, a hand history or a HandState, not {hand!r}")

    def _player(self, name: str) -> tuple[list[int], list[float]]:
        ints = self._ints.get(name)
        if ints is None:
            ints = self._ints[name] = [0] * _INTS
            self._floats[name] = [0.0, 0.0, 0.0, 0.0, 0]  # (the count an int: see _ADJ_N)
            if self.curves is not None:
                self.curves[name] = []
        return ints, self._floats[name]

    def add_state(self, state: HandState, names: Sequence[str], *, unit: Fraction | int = 1,
                  unknown: Collection[int] = ()) -> None:
        """Add a finished :class:`holdem.HandState` whose seat ``i`` is player ``names[i]``;
        ``unit`` is what one chip of the state is worth in the hand's own units (a history in
        dollars and cents is played in cents: ``unit=Fraction(1, 100)``), so ``net`` and
        ``allin_adjusted`` come out in those units: a positive int, :class:`~fractions.Fraction`,
        :class:`~decimal.Decimal` or float from ``1e-18`` to ``1e18`` (as
        :func:`holdem.history.chip_unit`), else :class:`InvalidConfigError`. ``unknown``: seats
        whose hole cards are stand-ins (:attr:`holdem.history.Replay.stand_ins`), left out of
        the starting hands."""
        result_or_none = getattr(state, "result_or_none", None)
        if not callable(result_or_none) or not hasattr(state, "raw_history"):
            raise InvalidConfigError(f"add_state needs a finished holdem.HandState, got "
                                     f"{type(state).__name__}: {excerpt(state)}")
        if type(unit) is not int or unit != 1:
            unit = _unit(unit)
        res = result_or_none()
        if res is None:
            raise InvalidConfigError("statistics need finished hands: this one is not over")
        n = state.num_players
        if not isinstance(unknown, AbstractSet | tuple | list) or not all(
                type(s) is int and 0 <= s < n for s in unknown):
            raise InvalidConfigError(f"unknown must be a collection of seats 0..{n - 1}, got "
                                     f"{excerpt(unknown)}")
        if not isinstance(names, tuple | list) or len(names) != n:
            raise InvalidConfigError(
                f"names must be a tuple or list of one name per seat: {n} for this hand, got "
                f"{excerpt(names)}")
        if not all(type(name) is str for name in names):
            # a str subclass as plain str: its own __hash__ or __eq__ could fail or lie
            # halfway through the counts below (some seats counted, others not)
            for i, name in enumerate(names):
                if not isinstance(name, str):
                    raise InvalidConfigError(f"names[{i}] must be a str, got {excerpt(name)}")
            names = [str.__str__(name) for name in names]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise InvalidConfigError(
                    f"names must be distinct: {name!r} sits in seats {names.index(name)} and {i}")
        vpip = [False] * n
        pfr = [False] * n
        folded = [False] * n
        for seat in state.dead_hands:  # folded before the deal: no action of theirs (TDA 30)
            folded[seat] = True
        tb_ch = [False] * n
        tb = [False] * n
        agg = [0] * n
        calls = [0] * n
        raises = 0
        first = last = -1
        f3_seat = -1
        f3_fold = False
        cb_seat = -1
        cb = False
        cb_open = True
        street = 0
        for seat, street, kind, _to, _amount, _all_in in state.raw_history():
            if street == 0:
                if raises == 1:
                    tb_ch[seat] = True
                    if kind >= 3:
                        tb[seat] = True
                elif raises == 2 and seat == first and f3_seat < 0:
                    f3_seat = seat
                    f3_fold = kind == 0
                if kind == 0:
                    folded[seat] = True
                elif kind >= 2:
                    vpip[seat] = True
                    if kind >= 3:
                        pfr[seat] = True
                        raises += 1
                        if raises == 1:
                            first = seat
                        last = seat
            else:
                if kind >= 3:
                    agg[seat] += 1
                elif kind == 2:
                    calls[seat] += 1
                if street == 1 and cb_open:
                    if seat == last:
                        cb_seat = seat
                        cb = kind == 3
                        cb_open = False
                    elif kind >= 3:
                        cb_open = False
        flop = state.street_index >= 1
        shown = res.showdown_order
        winners = res.winners if shown else ()
        bb = state.game.big_blind
        payoffs = res.payoffs
        adjusted = None
        if self.allin_adjusted and len(shown) >= 2:
            adjusted = self._allin(state, res, street)
        curves = self.curves
        money = 1 if unit == 1 else float(unit)  # allin_adjusted in the hands' units, as net
        if self.starting_hands is not None:
            self._count_classes(state, names, vpip, unknown)
        for i in range(n):
            name = names[i]
            ints, floats = self._player(name)
            ints[_HANDS] += 1
            if vpip[i]:
                ints[_VPIP] += 1
                if pfr[i]:
                    ints[_PFR] += 1
            if tb_ch[i]:
                ints[_TB_CH] += 1
                if tb[i]:
                    ints[_TB] += 1
            if i == f3_seat:
                ints[_F3_CH] += 1
                if f3_fold:
                    ints[_F3] += 1
            if i == cb_seat:
                ints[_CB_CH] += 1
                if cb:
                    ints[_CB] += 1
            ints[_AGG] += agg[i]
            ints[_CALLS] += calls[i]
            if flop and not folded[i]:
                ints[_FLOPS] += 1
                if i in shown:
                    ints[_SD] += 1
                    if i in winners:
                        ints[_WSD] += 1
            pay = payoffs[i]
            if unit == 1:
                ints[_NET] += pay
            else:
                self._money[name] = self._money.get(name, Fraction(0)) + pay * unit
            x = pay / bb
            floats[_BB] += x
            floats[_BB2] += x * x
            if adjusted is not None:
                floats[_ADJ] += adjusted[i] * money
                floats[_ADJ_BB] += adjusted[i] / bb
                floats[_ADJ_N] += 1
            else:
                floats[_ADJ] += pay * money
                floats[_ADJ_BB] += x
            if curves is not None:
                c = curves[name]
                c.append((c[-1] if c else 0.0) + x)

    def _count_classes(self, state: HandState, names: Sequence[str], vpip: list[bool],
                       unknown: Container[int]) -> None:
        assert self.starting_hands is not None
        for i, cards in enumerate(state.hole_cards):
            if cards is None or len(cards) != 2 or None in cards or i in unknown:
                continue
            a, b = cards
            hi, lo = (a, b) if a.rank >= b.rank else (b, a)
            cls = _RANKS[hi.rank] + _RANKS[lo.rank]
            if hi.rank != lo.rank:
                cls += "s" if hi.suit == lo.suit else "o"
            row = self.starting_hands.setdefault(names[i], {}).setdefault(cls, [0, 0])
            row[0] += 1
            if vpip[i]:
                row[1] += 1

    def _allin(self, state: Any, res: HandResult, last_street: int) -> list[float] | None:
        """Each seat's expected net when the betting ended all in before the river with every
        live hand known; ``None`` otherwise."""
        if not state.raw_history():
            last_street = 0
        if last_street >= 3:
            return None
        statuses = [state.status_code(i) for i in range(state.num_players)]
        live = [i for i, s in enumerate(statuses) if s != 1]
        if len(live) < 2 or sum(1 for i in live if statuses[i] == 0) > 1:
            return None
        holes = state.hole_cards
        if any(holes[i] is None or None in holes[i] for i in live):
            return None
        board = "".join(str(c) for c in state.board[:_BOARD_AT[last_street]])
        expected = [0.0] * state.num_players
        won = [0] * state.num_players
        for pot in res.pots:
            for w, share in zip(pot.winners, pot.shares, strict=True):
                won[w] += share
            net = pot.amount - pot.rake
            elig = tuple(i for i in pot.eligible if statuses[i] != 1)
            if len(elig) == 1:
                expected[elig[0]] += net
                continue
            hands = tuple("".join(str(c) for c in holes[i]) for i in elig)
            # the hands of the live seats that cannot win this pot (all in for less) are
            # known and out of the deck: not boards for it
            dead = "".join("".join(str(c) for c in holes[i]) for i in live if i not in elig)
            eq = self._equities(hands, board, dead)
            for i, e in zip(elig, eq, strict=True):
                expected[i] += net * e
        return [p - w + e for p, w, e in zip(res.payoffs, won, expected, strict=True)]

    def _equities(self, hands: tuple[str, ...], board: str, dead: str) -> tuple[float, ...]:
        samples = self.allin_samples if not board else None  # None: exact
        if samples is not None and samples >= math.comb(52 - 2 * len(hands) - len(dead) // 2, 5):
            samples = None  # as many samples as boards or more: every board, exactly, is cheaper
        key = (samples, hands, board, dead)
        eq = _EQUITIES.get(key)
        if eq is None:
            from holdem.equity import equity

            if samples is not None:
                seed = 0
                for h in (*hands, dead):  # a seed that depends on the cards only
                    for ch in h:
                        seed = (seed * 131 + ord(ch)) & 0xFFFFFFFFFFFF
                eq = equity(list(hands), board, dead, executor="serial", samples=samples,
                            seed=seed).equities
            else:
                eq = equity(list(hands), board, dead, executor="serial", exact=True).equities
            if len(_EQUITIES) < _EQUITIES_MAX:
                _EQUITIES[key] = eq
        return eq

    def merge(self, other: Stats) -> None:
        """Add ``other``'s counts to these (players in ``other`` first seen are appended).
        ``s.merge(s)`` doubles every count."""
        if not isinstance(other, Stats):
            raise InvalidConfigError(f"merge takes another Stats, not {excerpt(other)}")
        kept, given = self._options(), other._options()
        if kept != given:  # (an all-in adjusted total, a curve or a grid would be wrong)
            raise InvalidConfigError(
                f"merge takes Stats kept with the same options: these have {kept}, the other "
                f"{given}")
        if other is self:
            other = copy.deepcopy(other)
        for name, ints in other._ints.items():
            mine, floats = self._player(name)
            for j, v in enumerate(ints):
                mine[j] += v
            for j, f in enumerate(other._floats[name]):
                floats[j] += f
            if name in other._money:
                self._money[name] = self._money.get(name, Fraction(0)) + other._money[name]
            if self.starting_hands is not None and other.starting_hands is not None:
                mine_classes = self.starting_hands.setdefault(name, {})
                for cls, (dealt, played) in other.starting_hands.get(name, {}).items():
                    row = mine_classes.setdefault(cls, [0, 0])
                    row[0] += dealt
                    row[1] += played
            if self.curves is not None and other.curves is not None:
                c = self.curves[name]
                base = c[-1] if c else 0.0
                c.extend(base + x for x in other.curves[name])

    def _options(self) -> dict[str, object]:
        """What this Stats keeps (a merge needs the same; ``allin_samples`` may differ)."""
        return {"allin_adjusted": self.allin_adjusted, "curves": self.curves is not None,
                "starting_hands": self.starting_hands is not None}

    # -- reading
    def __getitem__(self, name: str) -> PlayerStats:
        ints = self._ints[name]
        f = self._floats[name]
        adj = self.allin_adjusted
        make: Any = PlayerStats  # the counters, in field order
        net: int | float = ints[_NET]
        if name in self._money:
            money = ints[_NET] + self._money[name]
            net = money.numerator if money.denominator == 1 else float(money)
        out: PlayerStats = make(name, *ints[:_NET], net, *ints[_NET + 1:], f[_BB], f[_BB2],
                                f[_ADJ] if adj else None, f[_ADJ_BB] if adj else None,
                                int(f[_ADJ_N]))
        return out

    def __iter__(self) -> Iterator[str]:
        return iter(self._ints)

    def __len__(self) -> int:
        return len(self._ints)

    def __repr__(self) -> str:
        if not vars(self):  # made without its state (Stats.__new__, a forged pickle)
            return "<Stats with no state>"
        return f"<Stats {len(self)} players, {sum(v[_HANDS] for v in self._ints.values()):,} " \
               f"player-hands>"

    def __str__(self) -> str:
        return format_table(self.values())

    def __getstate__(self) -> dict[str, Any]:
        return {"allin_adjusted": self.allin_adjusted, "allin_samples": self.allin_samples,
                "ints": self._ints, "money": self._money,
                "floats": self._floats, "curves": self.curves,
                "starting_hands": self.starting_hands}

    def __setstate__(self, d: dict[str, Any]) -> None:
        problem = _state_problem(d)
        if problem is not None:
            raise InvalidStateError(f"not a valid pickled Stats: {problem}")
        self.allin_adjusted = d["allin_adjusted"]
        self.allin_samples = d["allin_samples"]
        self._ints = d["ints"]
        # the all-in count as an int (a pickle made before holds a whole float)
        self._floats = {name: [*f[:_ADJ_N], int(f[_ADJ_N])] for name, f in d["floats"].items()}
        self._money = d.get("money", {})
        self.curves = d["curves"]
        self.starting_hands = d["starting_hands"]


def _state_problem(d: object) -> str | None:
    """What is wrong with a pickled :class:`Stats`' state (None: nothing), so that a corrupt
    pickle fails when it is loaded, not later in a table or a merge."""
    if type(d) is not dict:
        return f"a dict was expected, got {type(d).__name__}"
    keys = {"allin_adjusted", "allin_samples", "ints", "floats", "curves", "starting_hands"}
    if not keys <= d.keys():
        return f"missing {sorted(keys - d.keys())}"
    samples = d["allin_samples"]
    if not isinstance(d["allin_adjusted"], bool) or not (samples is None or (
            type(samples) is int and samples >= 1)):
        return "allin_adjusted must be a bool and allin_samples None or an int >= 1"
    ints, floats, money = d["ints"], d["floats"], d.get("money", {})
    if type(ints) is not dict or type(floats) is not dict or type(money) is not dict:
        return "ints, floats and money must be dicts"
    if ints.keys() != floats.keys() or not money.keys() <= ints.keys():
        return "ints, floats and money must name the same players"
    for name, row in ints.items():
        if type(name) is not str or type(row) is not list or len(row) != _INTS or not all(
                type(x) is int for x in row):
            return f"the counts of {name!r} must be a list of {_INTS} ints"
        hands = row[_HANDS]
        if not 0 <= hands <= _MAX_COUNT or not all(
                0 <= x <= (_MAX_COUNT if k in _ACTION_COUNTS else hands)
                for k, x in enumerate(row) if k != _NET):
            return (f"the counts of {name!r} must be 0..{_MAX_COUNT:,} hands, the hands "
                    f"counted in each other statistic 0..hands")
        if abs(row[_NET]).bit_length() > _MAX_BITS:
            return f"the net chips of {name!r} are out of range"
        f = floats[name]
        if type(f) is not list or len(f) != 5 or not all(
                type(x) is float and math.isfinite(x) for x in f[:_ADJ_N]):
            return f"the sums of {name!r} must be a list of 4 finite floats and a count"
        count = f[_ADJ_N]  # an int; a whole float in a pickle made before it was one
        if not ((type(count) is int or (type(count) is float and count.is_integer()))
                and 0 <= count <= hands):
            return f"the all-in adjusted hands of {name!r} must be a whole number 0..hands"
        if name in money and (type(money[name]) is not Fraction or max(
                abs(money[name].numerator), money[name].denominator).bit_length() > _MAX_BITS):
            return f"the money of {name!r} must be a Fraction in range"
    curves = d["curves"]
    if curves is not None and (type(curves) is not dict or curves.keys() != ints.keys() or
                               not all(type(c) is list and all(
                                   type(x) is float and math.isfinite(x) for x in c)
                                       for c in curves.values())):
        return "curves must be None or a list of finite floats per player"
    for name, c in (curves or {}).items():
        # a point after each of the player's hands, each hand winning or losing at most
        # _MOST_BB_A_HAND big blinds
        if len(c) != ints[name][_HANDS] or not all(
                abs(x) <= (k + 1) * _MOST_BB_A_HAND for k, x in enumerate(c)):
            return (f"the curve of {name!r} must hold a point per hand played, moving by at "
                    f"most 10 * 2**53 big blinds a hand")
    starting = d["starting_hands"]
    if starting is not None and (type(starting) is not dict or
                                 not starting.keys() <= ints.keys()):
        return "starting_hands must be None or [dealt, played] per class per player"
    for name, h in (starting or {}).items():
        if type(h) is not dict or not all(
                k in _CLASSES and type(v) is list and len(v) == 2 and type(v[0]) is int
                and type(v[1]) is int and 0 <= v[1] <= v[0] for k, v in h.items()):
            return (f"the starting hands of {name!r} must be [dealt, played] per hand class "
                    f"(AKs, T9o, 77), played 0..dealt")
        row = ints[name]
        if sum(v[0] for v in h.values()) > row[_HANDS] or \
                sum(v[1] for v in h.values()) > row[_VPIP]:
            return f"the starting hands of {name!r} count more hands than its statistics"
    return None


def player_stats(hands: Iterable[_Hand], *, allin_adjusted: bool = True,
                 allin_samples: int | None = None) -> Stats:
    """Statistics of every player over ``hands`` (see :class:`Stats` for what a hand may be
    and for the options)."""
    return Stats(hands, allin_adjusted=allin_adjusted, allin_samples=allin_samples)
