"""Hand histories meet the engine: replay a PHH hand under the rules, write a finished hand.

:func:`replay` loads a :class:`holdem.phh.HandHistory` into the state machine
(:class:`holdem.HandState`), applies every action with full validation and compares the final
stacks with the file's ``finishing_stacks``. An action the rules do not allow raises
:class:`holdem.InvalidHistoryError` naming the file, the action's index and why; differing
final stacks are reported in :attr:`Replay.mismatches` (``Replay.check()`` raises on them).

:func:`from_state` writes any engine hand (finished or not) as a ``HandHistory``;
``replay(from_state(state))`` reaches the same stacks.

How a PHH hand maps onto the engine (``docs/RULES.md`` ids):

- PHH player ``pK`` (array index ``K-1``) is engine seat ``K-1`` and the button is the last
  seat, ``n-1`` (PHH lists players from the first seat left of the button). Heads-up the
  button posts the small blind (R3), which is PHH's "reversed blinds" rule.
- ``variant``: ``NT`` no-limit (R22-R24), ``PT`` pot-limit (R25), ``FT`` fixed-limit
  (R26-R28). ``min_bet`` (``NT``/``PT``) and ``small_bet`` (``FT``) must equal the big blind
  (R5, R22); ``big_bet`` is the fixed-limit big bet.
- ``blinds_or_straddles``: ``[sb, bb, 0, ...]``, or ``[sb, bb, 2*bb, 0, ...]`` for a straddle
  (R8, cash games, 3+ players). Other straddle layouts are not rules this engine plays.
- ``antes``: all zero, all equal (a uniform ante, R7), or only index 1 non-zero (a big-blind
  ante posted by the big blind, R7's option; the WSOP files use it). A big-blind ante is dead
  money in the main pot (PHH's default, ``ante_trimming_status`` false). Uniform antes are
  trimmed (R9: a player who posts less wins from each opponent only what they posted), which
  is ``ante_trimming_status = true``: :func:`from_state` writes it, and a file that leaves it
  false while a player cannot post the full ante is refused (untrimmed, every ante would go
  to the main pot).
- The fixed-limit cap (R27: a bet and three raises) holds; a ``_cap_bets`` user field (the
  number of bets allowed, as in the project's generated traces) overrides it, and
  ``_cap_heads_up = false`` lifts it when only two players are left (``Game.cap_heads_up``).
- A ``_fold_when_check_free = true`` user field offers folding when checking is free (R17's
  option, ``Game.fold_when_check_free``). :func:`from_state` writes these two fields for a game
  that departs from the default, so that any engine hand replays.
- Hole cards are given to the engine as dealt (``????`` is an unknown hand, allowed while that
  player never shows); a hand shown later with ``sm`` fills in cards dealt unknown.
- A ``_extra_posts`` user field (``[[player, live, dead], ...]``) posts beyond the blinds:
  an entry bet or a missed big blind (live) and a missed small blind (dead), as
  :class:`holdem.ExtraPost` (R36, Robert's Rules); PokerStars imports use it.
- A ``_dead_hands`` user field (``[player, ...]``, 0-based) lists the players whose hand is
  dead from the deal (TDA 30: absent in a tournament): they post their blinds and antes, then
  are folded before any action (``Game.new_hand(dead_hands=...)``). :func:`from_state` writes
  it for a hand with dead hands; the file has no fold action for them.
- Dealer actions are checked against the engine's progress: ``d db`` must come when the
  betting round is over (R19, R20), and player actions on a street only after its cards.
- A player whose cards are unknown and who mucks at the showdown (``pN sm`` without cards)
  has a dead hand: the weakest cards left stand in for it (:attr:`Replay.stand_ins`).
- Showdown lines (``sm``) must show the cards the player holds. The engine decides the
  showdown itself (R33: all hands shown when a player is all in; otherwise a hand that cannot
  win is mucked); a PHH muck of a winning hand shows up as a finishing-stack mismatch.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from holdem._ints import int_or_none
from holdem._shown import excerpt
from holdem.cards import Card
from holdem.errors import HoldemError, InvalidHandError, InvalidHistoryError
from holdem.evaluator import evaluate
from holdem.hand.actions import Action, ActionType
from holdem.hand.game import AnteType, Game, HandState, ReferenceHandState, Structure
from holdem.hand.records import SeatStatus, Street
from holdem.phh import HandHistory, HistoryAction, Number, _history_arg
from holdem.pots import Rake

__all__ = ["ChipUnit", "Replay", "chip_unit", "from_state", "game_for", "replay"]

#: What ``chip_unit=`` takes: ``1``, ``0.01``, ``"0.5"``, ``Fraction(1, 2)``, ``Decimal("0.01")``.
ChipUnit = int | float | str | Fraction | Decimal

_STRUCTURE = {"NT": Structure.NO_LIMIT, "PT": Structure.POT_LIMIT, "FT": Structure.FIXED_LIMIT}
_VARIANT = {v: k for k, v in _STRUCTURE.items()}
_PHH_POSTS = frozenset({"ante", "big_blind_ante", "small_blind", "big_blind", "straddle"})
_BOARD_AT = {Street.PREFLOP: 0, Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5, Street.SHOWDOWN: 5}


def _fraction(value: Number) -> Fraction:
    """A file amount exactly: a float is the decimal it prints as (``0.1`` is 1/10)."""
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


def _input_amounts(hh: HandHistory) -> Iterable[Number]:
    yield from hh.antes
    yield from hh.blinds_or_straddles
    yield from hh.starting_stacks
    for x in (hh.min_bet, hh.small_bet, hh.big_bet):
        if x is not None:
            yield x
    for a in hh.actions:
        if a.amount is not None:
            yield a.amount
    rake = hh.user_fields.get("_rake")
    if isinstance(rake, float):
        yield rake
    extra = hh.user_fields.get("_extra_posts")
    if isinstance(extra, (list, tuple)):
        for item in extra:
            if isinstance(item, (list, tuple)):
                yield from (x for x in item[1:] if isinstance(x, float))


def chip_unit(hh: HandHistory) -> Fraction:
    """The file's smallest unit: 1 when every amount the hand is played with is whole, else
    ``10**-k`` for the most decimal places written (``1/100`` for dollars and cents).

    The finishing stacks are results, not inputs: they do not set the unit (a file that
    splits an odd chip in halves is still played in whole chips, see :attr:`Replay.odd_chip`).
    A ``_chip_unit`` user field sets it (PokerStars imports in dollars use ``0.01``, so a $5 pot
    split two ways is $2.50 each even when every amount written is whole).

    >>> from holdem.phh import HandHistory
    >>> chip_unit(HandHistory("NT", (0, 0), (0.25, 0.5), (50, 48.37), min_bet=0.5))
    Fraction(1, 100)
    """
    given = _history_arg(hh, "chip_unit").user_fields.get("_chip_unit")
    if given is not None:
        return _unit(given)
    places = 0
    for x in _input_amounts(hh):
        if isinstance(x, float) and not x.is_integer() and math.isfinite(x):
            exponent = Decimal(repr(x)).as_tuple().exponent
            assert isinstance(exponent, int)
            places = max(places, -exponent)
    return Fraction(1, 10**places)


_UNIT_DIGITS = 18  # a chip unit is 10**-18 .. 10**18 (PHH files use 1 or a few decimals)


def _unit(given: ChipUnit, what: str = "chip_unit") -> Fraction:
    """``given`` as a chip unit; errors name it ``what`` (the CLI's ``--chip-unit``)."""
    unit: Fraction | None
    try:
        if isinstance(given, bool):
            raise TypeError
        whole = int_or_none(given)  # numpy ints as plain ints (Fraction would keep their type)
        value: ChipUnit = given if whole is None else whole
        if isinstance(value, str):
            if len(value) > 100:
                raise ValueError
            # text that is not a decimal ("1/3") stays text, for Fraction
            with contextlib.suppress(ArithmeticError):
                value = Decimal(value.strip())
        if isinstance(value, Decimal) and value.is_finite() and value != 0 and not (
                -2 * _UNIT_DIGITS <= value.adjusted() <= 2 * _UNIT_DIGITS):
            unit = None  # far out of range: Fraction would compute 10**exponent ("1e-99999999")
        else:
            unit = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    except (TypeError, ValueError, ArithmeticError):
        raise InvalidHistoryError(
            f"{what} {excerpt(given)} is not a number (give one like 1, 0.5 or 0.01)") from None
    if unit is not None and unit <= 0:
        raise InvalidHistoryError(
            f"{what} must be positive, not {excerpt(given)} (give one like 1, 0.5 or 0.01)")
    if unit is None or not Fraction(1, 10**_UNIT_DIGITS) <= unit <= 10**_UNIT_DIGITS:
        raise InvalidHistoryError(f"{what} {excerpt(given)} is out of range: give one from "
                                  f"1e-{_UNIT_DIGITS} to 1e{_UNIT_DIGITS}")
    return unit


def _chips(value: Number, what: str, unit: Fraction = Fraction(1)) -> int:
    """A file amount in chips of ``unit`` (an error if it is not a whole number of them)."""
    if unit == 1 and isinstance(value, int):
        return value
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidHistoryError(f"{what} {value!r} is not a finite amount")
    chips = _fraction(value) / unit
    if chips.denominator != 1:
        if unit == 1:
            raise InvalidHistoryError(f"{what} {value!r} is not a whole number of chips")
        raise InvalidHistoryError(
            f"{what} {value!r} is not a whole number of the chip unit {_unit_text(unit)}")
    return int(chips)


def _unit_text(unit: Fraction) -> str:
    """A chip unit as people write it: ``'1'``, ``'0.01'``, ``'0.5'`` (else ``'1/3'``)."""
    if unit.denominator == 1:
        return str(unit.numerator)
    d = unit.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return str(unit)
    return format(Decimal(unit.numerator) / Decimal(unit.denominator), "f")


def _amount(chips: int, unit: Fraction) -> Number:
    """``chips`` of ``unit`` in the file's units (an int when whole, else a float)."""
    if unit == 1:
        return chips
    value = chips * unit
    return value.numerator if value.denominator == 1 else float(value)


def game_for(hh: HandHistory, *, chip_unit: ChipUnit | None = None) -> Game:
    """The engine's :class:`holdem.Game` for a hand history (see the module docstring).

    Amounts are in chips of ``chip_unit`` (default: the file's smallest unit,
    :func:`chip_unit`). A ``_rake`` user field (the rake taken, in the file's units, with
    ``_total_pot`` the pot it was taken from, as PokerStars summaries give them) becomes the
    game's rake (R34), taken from the main pot first.
    """
    hh = _history_arg(hh, "game_for")
    unit = _unit(chip_unit) if chip_unit is not None else _file_unit(hh)
    n = hh.num_players
    blinds = [_chips(b, "blind", unit) for b in hh.blinds_or_straddles]
    sb, bb = blinds[0], blinds[1]
    rest = blinds[2:]
    straddle = False
    if any(rest):
        if n >= 3 and rest[0] == 2 * bb and not any(rest[1:]):
            straddle = True
        else:
            raise InvalidHistoryError(
                f"blinds_or_straddles {list(hh.blinds_or_straddles)}: the engine plays a small "
                "and a big blind and optionally one straddle of twice the big blind left of "
                "the big blind (R8)"
            )
    if bb <= 0:
        raise InvalidHistoryError(f"blinds_or_straddles {list(hh.blinds_or_straddles)}: no big blind")
    antes = [_chips(a, "ante", unit) for a in hh.antes]
    ante, ante_type = 0, AnteType.UNIFORM
    if any(antes):
        if len(set(antes)) == 1:
            ante = antes[0]
        elif antes[1] and not any(a for i, a in enumerate(antes) if i != 1):
            ante, ante_type = antes[1], AnteType.BIG_BLIND
        else:
            raise InvalidHistoryError(
                f"antes {list(hh.antes)}: the engine plays a uniform ante or a big-blind ante "
                "(R7)"
            )
    kwargs: dict[str, Any] = {}
    if hh.variant == "FT":
        assert hh.small_bet is not None and hh.big_bet is not None
        small = _chips(hh.small_bet, "small_bet", unit)
        if small != bb:
            raise InvalidHistoryError(
                f"small_bet {small} differs from the big blind {bb}: in fixed limit the big "
                "blind is the small bet (R5)"
            )
        kwargs["big_bet"] = _chips(hh.big_bet, "big_bet", unit)
        cap = hh.user_fields.get("_cap_bets")
        if cap is not None:
            if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
                raise InvalidHistoryError(f"_cap_bets must be a positive integer, not {cap!r}")
            kwargs["max_raises"] = cap - 1
    else:
        assert hh.min_bet is not None
        min_bet = _chips(hh.min_bet, "min_bet", unit)
        if min_bet != bb:
            raise InvalidHistoryError(
                f"min_bet {min_bet} differs from the big blind {bb}: the minimum bet is the big "
                "blind (R22)"
            )
    for name, default in (("cap_heads_up", True), ("fold_when_check_free", False)):
        flag = hh.user_fields.get("_" + name, default)
        if not isinstance(flag, bool):
            raise InvalidHistoryError(f"_{name} must be true or false, not {excerpt(flag)}")
        if flag is not default:
            kwargs[name] = flag
    rake = _rake(hh, unit)
    if rake is not None:
        kwargs["rake"] = rake
    try:
        return Game(structure=_STRUCTURE[hh.variant], big_blind=bb, small_blind=sb, ante=ante,
                    ante_type=ante_type, straddle=straddle, **kwargs)
    except HoldemError as e:
        raise InvalidHistoryError(f"the game cannot be played: {e}") from None


_file_unit = chip_unit


def _rake(hh: HandHistory, unit: Fraction) -> Rake | None:
    taken, total = hh.user_fields.get("_rake"), hh.user_fields.get("_total_pot")
    if taken is None or taken == 0:
        return None
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0
               for x in (taken, total)):
        raise InvalidHistoryError(
            f"_rake {taken!r} needs a _total_pot (the pot it was taken from): non-negative "
            f"amounts, not {total!r}")
    assert isinstance(taken, (int, float)) and isinstance(total, (int, float))
    rake, pot = _chips(taken, "_rake", unit), _chips(total, "_total_pot", unit)
    if not 0 < rake <= pot:
        raise InvalidHistoryError(f"_rake {taken!r} is more than the _total_pot {total!r}")
    # Exactly this many chips (R34: the rake is taken from the pots' total, capped, main pot
    # first): all of the pot capped at rake. (The fraction rake/pot refused pots above 2**32
    # chips: a rake fraction's denominator is at most 2**32.)
    return Rake(1, cap=rake, no_flop_no_drop=False)


@dataclass(frozen=True)
class Replay:
    """The outcome of :func:`replay`.

    ``state`` is the engine state after the last action, in chips of ``chip_unit`` (1 for
    whole-chip files, ``Fraction(1, 100)`` for dollars and cents); ``final_stacks`` the stacks
    then in the file's units (ints for whole chips, else floats such as ``12.37``);
    ``mismatches`` one line per player whose stack differs from the file's
    ``finishing_stacks`` (empty when they agree or the file records none).

    ``odd_chip`` is set when the only difference is the odd chip: the file splits it finer
    than ``chip_unit`` (the Pluribus files record half chips) while R32 gives it whole to the
    first winner left of the button. It is then the unit that reproduces the file (replay
    with ``chip_unit=result.odd_chip`` to get the file's stacks exactly), else ``None``.

    ``stand_ins`` are the players (0-based PHH indices) whose unknown hand was mucked at the
    showdown and played by the weakest cards left (their ``state.hole_cards`` are not real).
    """

    history: HandHistory
    state: HandState
    final_stacks: tuple[Number, ...]
    mismatches: tuple[str, ...]
    name: str | None = None
    chip_unit: Fraction = Fraction(1)
    odd_chip: Fraction | None = None
    stand_ins: frozenset[int] = frozenset()

    @property
    def ok(self) -> bool:
        return not self.mismatches

    @property
    def compared(self) -> bool:
        """True when the file records finishing stacks (so the replay compared them)."""
        return self.history.finishing_stacks is not None

    def amount(self, chips: int) -> Number:
        """Engine chips (of :attr:`chip_unit`) in the file's units."""
        return _amount(chips, self.chip_unit)

    def check(self) -> Replay:
        """Raise :class:`InvalidHistoryError` if the final stacks differ; else return self."""
        if self.mismatches:
            raise InvalidHistoryError(
                f"{self.name or 'hand'}: final stacks differ: " + "; ".join(self.mismatches)
            )
        return self


def _extra_posts(hh: HandHistory, unit: Fraction, where: str) -> list[tuple[int, int, int]]:
    """The ``_extra_posts`` user field: ``[[player, live, dead], ...]`` (0-based players,
    amounts in the file's units), posts beyond the blinds (R36 entry bets, missed blinds):
    :class:`holdem.ExtraPost`."""
    raw = hh.user_fields.get("_extra_posts")
    if raw is None:
        return []
    out = []
    if isinstance(raw, (list, tuple)):
        for item in raw:
            if (isinstance(item, (list, tuple)) and len(item) == 3
                    and isinstance(item[0], int) and 0 <= item[0] < hh.num_players
                    and all(isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0
                            for x in item[1:])):
                out.append((item[0], _chips(item[1], "_extra_posts live", unit),
                            _chips(item[2], "_extra_posts dead", unit)))
                continue
            break
        else:
            return out
    raise InvalidHistoryError(
        f"{where}_extra_posts must be a list of [player index, live, dead] posts, not {raw!r}")


def _dead_hands(hh: HandHistory, where: str) -> list[int]:
    """The ``_dead_hands`` user field: ``[player, ...]`` (0-based players), the hands dead from
    the deal (TDA 30). The engine checks the rest (each player once, one left live)."""
    raw = hh.user_fields.get("_dead_hands")
    if raw is None:
        return []
    if isinstance(raw, (list, tuple)) and all(
            isinstance(p, int) and not isinstance(p, bool) and 0 <= p < hh.num_players
            for p in raw):
        return list(raw)
    raise InvalidHistoryError(
        f"{where}_dead_hands must be a list of player indices 0..{hh.num_players - 1}, "
        f"not {raw!r}")


def _stand_in_mucks(hh: HandHistory, hole: list[tuple[Card, ...] | None],
                    board: Sequence[Card]) -> frozenset[int]:
    """Give the weakest cards left to players whose hand is unknown and who muck at the
    showdown (``pN sm`` without cards, as PokerStars records other players' losing hands).

    A mucked hand is dead and wins nothing; the weakest holding stands for it unless even that
    would tie a winner (the replay then differs from the file and says so). Needs the whole
    board; returns the players given stand-in cards.
    """
    mucked = {a.player for a in hh.actions
              if a.kind == "sm" and a.cards is None and not a.shows_dealt}
    unknown = [p for p in sorted(x for x in mucked if x is not None) if hole[p] is None]
    if not unknown or len(board) != 5:
        return frozenset()
    used = {int(c) for c in board}
    for cards in hole:
        if cards is not None:
            used.update(int(c) for c in cards)
    for p in unknown:
        free = [c for c in range(52) if c not in used]
        best: tuple[int, int, int] | None = None
        for x in range(len(free)):
            for y in range(x + 1, len(free)):
                r = int(evaluate((free[x], free[y], *board)))
                if best is None or r < best[0]:
                    best = (r, free[x], free[y])
        assert best is not None
        used.update(best[1:])
        hole[p] = (Card(best[1]), Card(best[2]))
    return frozenset(unknown)


def _known_cards(hh: HandHistory, where: str) -> tuple[list[tuple[Card, ...] | None], list[Card]]:
    """The hole cards (by player; ``None`` = unknown) and the board, from dh/sm/db actions."""
    n = hh.num_players
    dealt: list[tuple[Card | None, ...] | None] = [None] * n
    board: list[Card] = []
    for i, a in enumerate(hh.actions):
        if a.kind == "db":
            assert a.cards is not None
            board.extend(c for c in a.cards if c is not None)
        elif a.kind in ("dh", "sm") and a.cards is not None:
            assert a.player is not None
            have = dealt[a.player]
            if have is None:
                dealt[a.player] = a.cards
                continue
            if a.kind == "dh" and len(have) + len(a.cards) <= 2:  # dealt one card at a time
                dealt[a.player] = have + a.cards
                continue
            if len(have) != len(a.cards):
                raise InvalidHistoryError(
                    f"{where}actions[{i}] '{a}': p{a.player + 1} "
                    + ("is dealt more than two hole cards" if a.kind == "dh" else
                       f"was dealt {_cards_text(have)} only"))
            merged = []
            for old, new in zip(have, a.cards, strict=True):
                if old is not None and new is not None and old != new:
                    raise InvalidHistoryError(
                        f"{where}actions[{i}] '{a}': p{a.player + 1} was dealt "
                        f"{_cards_text(have)}, not {_cards_text(a.cards)}"
                    )
                merged.append(old if new is None else new)
            dealt[a.player] = tuple(merged)
    hole: list[tuple[Card, ...] | None] = []
    for cards in dealt:
        if cards is None or None in cards or len(cards) != 2:
            hole.append(None)
        else:
            hole.append(tuple(c for c in cards if c is not None))
    return hole, board


def _cards_text(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def _to_action(a: HistoryAction, where: str, index: int, unit: Fraction) -> Action:
    if a.kind == "f":
        return Action.fold()
    if a.kind == "cc":
        return Action.check_or_call()
    assert a.amount is not None
    if unit == 1 and isinstance(a.amount, int):
        return Action.bet_or_raise(a.amount)
    try:
        return Action.bet_or_raise(_chips(a.amount, "amount", unit))
    except InvalidHistoryError as e:
        raise InvalidHistoryError(f"{where}actions[{index}] '{a}': {e}") from None


def replay(hh: HandHistory, *, name: str | None = None,
           chip_unit: ChipUnit | None = None) -> Replay:
    """Replay ``hh`` under the rules (see the module docstring); ``name`` labels errors.

    The hand is played in chips of ``chip_unit`` (default: the file's smallest unit,
    :func:`chip_unit`: a dollars-and-cents file is played in cents, so R32's odd chip is the
    odd cent) and the final stacks are given back in the file's units. An amount that is not
    a whole number of units raises :class:`InvalidHistoryError`.
    """
    where = f"{name}: " if name else ""
    hh = _history_arg(hh, "replay")
    unit = _unit(chip_unit) if chip_unit is not None else _file_unit(hh)
    result = _replay(hh, where, name, unit)
    if result.mismatches and chip_unit is None:
        finer = _odd_chip_unit(hh, unit)
        if finer is not None and _replay_or_none(hh, where, name, finer) == ():
            return Replay(hh, result.state, result.final_stacks, result.mismatches, name, unit,
                          finer, result.stand_ins)
    return result


def _replay_or_none(hh: HandHistory, where: str, name: str | None,
                    unit: Fraction) -> tuple[str, ...] | None:
    """The mismatches of a replay in chips of ``unit``, or None when it cannot be played so
    (a unit so fine that the stacks exceed the engine's bound explains nothing)."""
    try:
        return _replay(hh, where, name, unit).mismatches
    except HoldemError:
        return None


def _odd_chip_unit(hh: HandHistory, unit: Fraction) -> Fraction | None:
    """The largest unit dividing ``unit`` and every finishing stack, when finer than ``unit``."""
    assert hh.finishing_stacks is not None
    g = unit
    for s in hh.finishing_stacks:
        if isinstance(s, float) and not math.isfinite(s):
            return None
        f = _fraction(s)
        d = g.denominator * f.denominator // math.gcd(g.denominator, f.denominator)
        g = Fraction(math.gcd(int(g * d), int(f * d)), d)
    return g if 0 < g < unit else None


def _replay(hh: HandHistory, where: str, name: str | None, unit: Fraction) -> Replay:
    n = hh.num_players
    try:
        game = game_for(hh, chip_unit=unit)
    except InvalidHistoryError as e:
        raise InvalidHistoryError(f"{where}{e}") from None
    stacks = []
    for s in hh.starting_stacks:
        if isinstance(s, float) and (s != s or s in (float("inf"), float("-inf"))):
            raise InvalidHistoryError(f"{where}starting stack {s} is unknown: cannot replay")
        stacks.append(_chips(s, f"{where}starting stack", unit))
    if game.ante and game.ante_type is AnteType.UNIFORM and hh.ante_trimming_status is not True:
        short = [p for p in range(n) if stacks[p] < game.ante]
        if short:
            raise InvalidHistoryError(
                f"{where}p{short[0] + 1} cannot post the full ante and ante_trimming_status is "
                "not true: untrimmed (the PHH default, false) every ante goes to the main pot "
                "and a short player can win all of them, which this engine does not play (it "
                "trims: a player wins from each opponent only what they posted, R9); a hand "
                "played with trimmed antes says ante_trimming_status = true")
    hole, board = _known_cards(hh, where)
    stand_ins = _stand_in_mucks(hh, hole, board)
    extra = _extra_posts(hh, unit, where)
    dead = _dead_hands(hh, where)
    try:
        if extra or dead:
            state = game.new_hand(stacks, button=n - 1, hole_cards=hole, board=board,
                                  extra_posts=extra, dead_hands=dead)
        else:
            state = game.new_hand(stacks, button=n - 1, hole_cards=hole, board=board)
    except HoldemError as e:
        raise InvalidHistoryError(f"{where}the hand cannot start: {e}") from None
    got = [0] * n  # the hole cards dealt to each player so far
    dealt = 0  # the players dealt both
    board_seen = 0
    for i, a in enumerate(hh.actions):
        if a.kind == "":
            continue

        def fail(why: str, i: int = i, a: HistoryAction = a) -> InvalidHistoryError:
            return InvalidHistoryError(f"{where}actions[{i}] '{a}': {why}")

        if a.kind == "dh":
            # two cards each, given together or one at a time (a round of first cards, then
            # one of second cards): always to the first player with the fewest cards
            assert a.player is not None and a.cards is not None
            if got[a.player] + len(a.cards) > 2:
                raise fail(f"p{a.player + 1} was already dealt hole cards")
            if state.history or board_seen:
                raise fail("hole cards are dealt before any betting")
            expected = got.index(min(got))
            if a.player != expected:
                raise fail(f"hole cards are dealt in order from p1: p{expected + 1} is next")
            got[a.player] += len(a.cards)
            dealt += got[a.player] == 2
            continue
        if dealt != n and a.kind != "db":
            raise fail(f"only {dealt} of {n} players were dealt hole cards")
        if a.kind == "db":
            # the flop as 3 cards or in parts, the turn and the river 1 card each
            assert a.cards is not None
            want = (3 if board_seen < 3 else 5 if board_seen >= 5 else board_seen + 1) - board_seen
            if len(a.cards) > want or board_seen >= 5:
                raise fail(
                    "the board is complete" if board_seen >= 5
                    else f"the next board deal is {want} card{'s' if want > 1 else ''}"
                    + (" (together or one at a time)" if want > 1 else "")
                )
            reached = _BOARD_AT[state.street] if not state.is_terminal() else len(state.board)
            if board_seen + len(a.cards) > reached:
                raise fail(
                    f"the {state.street} betting is not over"
                    + (f" (p{state.actor + 1} to act)" if state.actor is not None else "")
                )
            board_seen += len(a.cards)
            continue
        assert a.player is not None
        if a.kind == "sm":
            if not state.is_terminal() and state.actor is not None:
                raise fail(f"the betting is not over (p{state.actor + 1} to act)")
            if state.status(a.player) is SeatStatus.FOLDED:
                raise fail(f"p{a.player + 1} folded: only players still in the hand show down")
            if a.cards is not None:
                held = hole[a.player]
                if held is not None and not all(
                    c is None or c == h for c, h in zip(a.cards, held, strict=True)
                ):
                    raise fail(f"p{a.player + 1} holds {_cards_text(held)}")
            continue
        # f, cc, cbr: a betting action, validated by the engine
        if state.is_terminal():
            raise fail("the hand is over")
        if _BOARD_AT[state.street] != board_seen:
            raise fail(f"the {state.street} cards were not dealt ('d db ...' missing)")
        if state.actor != a.player:
            who = "nobody" if state.actor is None else f"p{state.actor + 1}"
            raise fail(f"it is {who}'s turn, not p{a.player + 1}'s")
        action = _to_action(a, where, i, unit)
        try:
            state.apply(action)
        except InvalidHandError as e:
            # The round ends here and the engine needs cards the file does not give: the next
            # board cards, or (board complete) the hole cards of a hand reaching the showdown.
            unknown = [p for p in range(n) if hole[p] is None
                       and state.status(p) is not SeatStatus.FOLDED]
            if len(board) >= 5 and unknown:
                who = ", ".join(f"p{p + 1}" for p in unknown)
                raise fail(f"{who} reach{'es' if len(unknown) == 1 else ''} the showdown with "
                           "unknown hole cards (dealt '????' and never shown, or shown as "
                           "'????'): the pot cannot be settled without them") from None
            missing = {0: "flop", 3: "turn", 4: "river"}.get(board_seen, "board")
            raise fail(f"the betting round ends here but the file does not deal the {missing} "
                       f"({e})") from None
        except HoldemError as e:
            raise fail(str(e)) from None
    if stand_ins and state.is_terminal() and stand_ins & set(state.result.shown):
        p = min(stand_ins & set(state.result.shown))
        if any(state.status(s) is SeatStatus.ALL_IN for s in state.result.showdown_order):
            why = "every hand is shown at this showdown (a player is all in, R33)"
        else:  # the first to show: the engine shows that hand, never a stand-in for it
            why = (f"p{p + 1} is the first to show (R33: the last to bet or raise on the river, "
                   "else the first player left of the button), whose hand is always shown: the "
                   "file does not say what it was")
        raise InvalidHistoryError(f"{where}p{p + 1} mucks unknown cards, but {why}")
    chips = state.result.final_stacks if state.is_terminal() else state.stacks
    final = tuple(chips) if unit == 1 else tuple(_amount(c, unit) for c in chips)
    mismatches: list[str] = []
    if hh.finishing_stacks is not None:
        for p, (mine, theirs) in enumerate(zip(final, hh.finishing_stacks, strict=True)):
            if mine != theirs:
                mismatches.append(f"p{p + 1} ends with {mine}, the file says {theirs}")
    return Replay(hh, state, final, tuple(mismatches), name, unit, stand_ins=stand_ins)


def from_state(state: HandState | ReferenceHandState, *, chip_unit: ChipUnit = 1,
               **fields: Any) -> HandHistory:
    """Write an engine hand (finished or not) as a PHH :class:`HandHistory`.

    Seats are rotated so that PHH ``p1`` is the first seat left of the button; extra keyword
    arguments set optional fields (``players=[...]``, and ``seats``, ``winnings``,
    ``time_banks``, in engine seat order; ``event=...``, ``hand=...``). ``finishing_stacks``
    is filled in from the engine. With ``chip_unit``
    (``0.01`` for a game played in cents) amounts are written in the file's units and the
    ``_chip_unit`` user field records it; a raked hand records its rake as ``_rake`` and
    ``_total_pot`` (see :func:`game_for`).
    """
    if not isinstance(state, (HandState, ReferenceHandState)):
        raise InvalidHistoryError(f"from_state needs a holdem.HandState, got "
                                  f"{type(state).__name__}: {excerpt(state)}")
    unit = _unit(chip_unit)
    if unit != 1 and Fraction(repr(float(unit))) != unit:  # the file records it as a float
        raise InvalidHistoryError(
            f"chip_unit {_unit_text(unit)} cannot be written exactly in a PHH file (its "
            f"_chip_unit field is a decimal number, such as 0.01 or 0.5)")

    def amt(chips: int) -> Number:
        return _amount(chips, unit)

    game = state.game
    n = state.num_players
    for post in state.posts:
        if post.kind not in _PHH_POSTS:
            raise InvalidHistoryError(
                f"seat {post.seat} posted a {post.kind.replace('_', ' ')} ({post.amount}): PHH "
                "describes only the game's blinds, straddle and antes"
            )
    if n > 2 and state.big_blind_seat == (state.button + 1) % n:
        raise InvalidHistoryError(
            "the small blind is dead (the button sits right behind the big blind, TDA dead "
            "button): PHH describes only the game's blinds, straddle and antes")
    order = [(state.button + 1 + k) % n for k in range(n)]  # PHH index -> engine seat
    pos = {seat: k for k, seat in enumerate(order)}
    antes = [0] * n
    blinds = [0] * n
    # PHH lists the blinds by position (index 0 = small blind, 1 = big blind, 2 = straddle),
    # reversed heads-up where the button (index 1) posts the small blind.
    blinds[0], blinds[1] = game.small_blind, game.big_blind
    if game.straddle:
        blinds[2] = game.straddle_amount
    if game.ante:
        if game.ante_type is AnteType.BIG_BLIND:
            antes[1] = game.ante  # dead money in the main pot: PHH's default (untrimmed)
        else:
            antes = [game.ante] * n
            # The engine trims uniform antes (R9: a short player wins from each opponent only
            # what they posted); the PHH default (false) would give them every ante.
            fields.setdefault("ante_trimming_status", True)
    given_user = fields.pop("user_fields", None)
    if given_user is not None and not isinstance(given_user, Mapping):
        raise InvalidHistoryError(
            f"user_fields must be a mapping of '_name' to value, not {given_user!r}")
    user = dict(given_user or {})
    if unit != 1:
        user["_chip_unit"] = float(unit)
    dead = state.dead_hands
    if dead:  # TDA 30: hands dead from the deal (posted, folded before any action)
        user["_dead_hands"] = sorted(pos[seat] for seat in dead)
    actions: list[HistoryAction] = []
    for seat in order:
        cards = state.hole_cards[seat]
        actions.append(HistoryAction(pos[seat], "dh", cards=cards if cards else (None, None)))
    board = state.board
    street = Street.PREFLOP

    def deal_to(target: Street) -> None:
        nonlocal street
        while street < target and street < Street.RIVER:
            street = Street(street + 1)
            lo, hi = _BOARD_AT[Street(street - 1)], _BOARD_AT[street]
            if len(board) >= hi:
                actions.append(HistoryAction(None, "db", cards=tuple(board[lo:hi])))

    for rec in state.history:
        deal_to(rec.street)
        if rec.type == ActionType.FOLD:
            actions.append(HistoryAction(pos[rec.seat], "f"))
        elif rec.type in (ActionType.CHECK, ActionType.CALL):
            actions.append(HistoryAction(pos[rec.seat], "cc"))
        else:
            actions.append(HistoryAction(pos[rec.seat], "cbr", amount=amt(rec.to)))
    final: tuple[int, ...] = state.stacks
    if not state.is_terminal():
        deal_to(state.street)  # the cards of a street whose betting has not begun yet
    if state.is_terminal():
        result = state.result
        final = result.final_stacks
        if result.showdown_order:
            deal_to(Street.RIVER)
        for seat in result.showdown_order:
            shown = result.shown.get(seat)
            actions.append(HistoryAction(pos[seat], "sm", cards=shown))
        if result.rake:
            user["_rake"] = amt(result.rake)
            user["_total_pot"] = amt(sum(p.amount for p in result.pots))
    if "finishing_stacks" in fields:
        raise InvalidHistoryError("finishing_stacks is filled in from the hand: do not give it")
    for name in ("players", "seats", "winnings", "time_banks"):  # per seat: rotated as p1..pn
        values = fields.get(name)
        if values is None:
            continue
        if isinstance(values, str | bytes) or not isinstance(values, Sequence):
            raise InvalidHistoryError(
                f"{name} must be a list of {'names' if name == 'players' else 'values'}, one "
                f"per seat in engine seat order, not {excerpt(values)}")
        if len(values) != n:
            raise InvalidHistoryError(f"{name} has {len(values)} entries for {n} seats")
        fields[name] = tuple(values[s] for s in order)
    kwargs: dict[str, Any] = {"min_bet": amt(game.big_blind)}
    if game.structure is Structure.FIXED_LIMIT:
        assert game.small_bet is not None and game.big_bet is not None  # set by Game for FL
        kwargs = {"small_bet": amt(game.small_bet), "big_bet": amt(game.big_bet)}
        if game.max_raises != 3:
            user["_cap_bets"] = game.max_raises + 1
        if not game.cap_heads_up:
            user["_cap_heads_up"] = False
    if game.fold_when_check_free:
        user["_fold_when_check_free"] = True
    if user:
        fields["user_fields"] = user
    return HandHistory(
        variant=_VARIANT[game.structure],
        antes=tuple(amt(a) for a in antes),
        blinds_or_straddles=tuple(amt(b) for b in blinds),
        starting_stacks=tuple(amt(state.starting_stacks[s]) for s in order),
        actions=tuple(actions),
        finishing_stacks=tuple(amt(final[s]) for s in order),
        **kwargs,
        **fields,
    )
