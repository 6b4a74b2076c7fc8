"""The ACPC protocol: gamedefs, ``MATCHSTATE`` lines, a TCP client and ``STATE`` log import.

The Annual Computer Poker Competition's dealer talks to bots in lines of text::

    MATCHSTATE:<position>:<hand number>:<betting>:<cards>

``betting`` lists the actions of each betting round (``c`` check or call, ``f`` fold, ``r``
raise: bare in limit, ``r<total>`` in no-limit, where the total is everything the raiser has
put in over the *whole hand*, blinds included), rounds separated by ``/`` (a ``/`` is written
as soon as a round closes). ``cards`` is ``hole|hole|.../flop/turn/river``: the hole cards of
every position (empty when hidden), then the board of each round reached.

Games. :func:`parse_game` is the one reader of hold'em games: an ACPC gamedef or an OpenSpiel
``universal_poker(...)`` string becomes a :class:`GameDef`, which the protocol code here and
the OpenSpiel game (:mod:`holdem.rl.openspiel`) both use. It reads any stacks, and the dealer
on any position (from ``blind`` and ``firstPlayer``); what holdem cannot play (other decks,
round counts, blind orders, pot limit) raises :class:`GameDefError`, a
:class:`holdem.ProtocolError` that is also a :class:`holdem.InvalidConfigError`.

Seat order. ACPC numbers players by *position*. The standard hold'em gamedefs put the dealer
on the last position (``n - 1``): heads-up (R3) position 1 is the button and posts the small
blind (``blind = 100 50``: position 0 posts the big blind) and acts first preflop
(``firstPlayer = 2 1 1 1``, 1-based), position 0 first after the flop; with 3 or more players
position 0 posts the small blind, 1 the big blind, 2 acts first preflop (``firstPlayer = 3``)
and position 0 first after the flop. :meth:`GameDef.new_hand` deals with the button on
:attr:`GameDef.button` and holdem seat ``s`` is ACPC position ``s``; for a hand dealt with
another button, :func:`matchstate_of` maps position ``p`` to seat ``(button + 1 + p) % n``.

The protocol code (``MATCHSTATE`` and ``STATE`` lines, :func:`play`; :func:`parse_gamedef`)
plays what ACPC's dealer plays as holdem does, and refuses the rest with
:class:`GameDefError` naming the limitation (:meth:`GameDef.check_protocol`): the dealer
must be on the last position, limit games have no stacks, and stacks are equal (with unequal
stacks a short all-in raise can face a player who already acted: ACPC's dealer lets that
player raise again, holdem does not, R24). The OpenSpiel game plays all of them.

Amounts. ACPC's no-limit ``r<total>`` is a total over the hand; holdem's
``Action.raise_to(to)`` is the street total: :func:`street_raise_to` gives
``to = total - (committed - bets)`` for the raiser (``committed`` over the hand, ``bets`` on
this street), and :func:`to_action` and :func:`acpc_action` convert with it both ways.

Rules. The ACPC dealer's rules agree with holdem's on the standard games: folding is refused
when checking is free (holdem's default, R17), the minimum raise is the last raise (or the big
blind), a limit round is capped after ``maxRaises`` raises, and after an all-in call the
remaining rounds are written empty (``r20000c///``). Lines are read strictly: a closed round
must be followed by its ``/`` and its board cards, as the dealer writes them (the ACPC code
itself skips ``/`` when it reads). One difference: the dealer keeps at most 64 actions a round
(its ``MAX_NUM_ACTIONS``) and refuses a raise once the round's actions and the players number
more than 64 (it then forces a call or a fold); holdem has no such cap. Reached only after
dozens of raises in one no-limit round with deep stacks: a line with more is read, and in
:func:`play` the dealer's forced call of such a raise ends the match with a
:class:`holdem.ProtocolError`.

>>> from holdem import acpc
>>> gd = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
>>> ms = acpc.parse_matchstate("MATCHSTATE:1:7:r300c/r900:|AsKd/2c7d9h")
>>> state = ms.to_state(gd)  # position 0 (big blind) bet on the flop: 900 over the hand
>>> state.actor, state.bets, state.committed
(1, (600, 0), (900, 300))
>>> from holdem import Action
>>> acpc.acpc_action(state, Action.raise_to(1800))  # street 1800 -> 2100 over the hand
'r2100'
"""

from __future__ import annotations

import io
import socket
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from holdem import (
    Action,
    ActionType,
    AgentError,
    Card,
    Game,
    HandState,
    HoldemError,
    InvalidActionError,
    InvalidConfigError,
    Observation,
    ProtocolError,
    SeatStatus,
    Street,
    Structure,
    _textfile,
)
from holdem._ints import int_or_none
from holdem._pickling import frozen_slots, reduce_fields, setstate_through_init
from holdem._shown import excerpt, shown
from holdem.errors import _not_text
from holdem.hand.actions import MAX_CHIPS

if TYPE_CHECKING:
    from typing import TypedDict, Unpack

    from holdem import HandHistory
    from holdem.cards import CardLike
    from holdem.hand.records import ActionRecord, ExtraPost
    from holdem.table.agents import AgentLike

    class _Deal(TypedDict, total=False):
        """The keyword arguments :meth:`GameDef.new_hand` passes on to
        :meth:`holdem.Game.new_hand`."""

        seed: int | None
        hole_cards: Sequence[Sequence[CardLike] | str | None] | None
        board: Sequence[CardLike] | str | None
        dead_small_blind: bool
        extra_posts: Sequence[ExtraPost | tuple[int, int, int]]
        dead_hands: Sequence[int]

__all__ = [
    "HEADS_UP_LIMIT",
    "HEADS_UP_NO_LIMIT",
    "ClientResult",
    "GameDef",
    "GameDefError",
    "LogState",
    "MatchState",
    "acpc_action",
    "import_log",
    "import_state_line",
    "matchstate_of",
    "parse_game",
    "parse_gamedef",
    "parse_log_line",
    "parse_matchstate",
    "play",
    "street_raise_to",
    "to_action",
]

HEADS_UP_NO_LIMIT = """GAMEDEF
nolimit
numPlayers = 2
numRounds = 4
stack = 20000 20000
blind = 100 50
firstPlayer = 2 1 1 1
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""
"""The ACPC heads-up no-limit hold'em gamedef (reverse blinds, 200 big blinds deep)."""

HEADS_UP_LIMIT = """GAMEDEF
limit
numPlayers = 2
numRounds = 4
blind = 10 5
raiseSize = 10 10 20 20
firstPlayer = 2 1 1 1
maxRaises = 3 4 4 4
numSuits = 4
numRanks = 13
numHoleCards = 2
numBoardCards = 0 3 1 1
END GAMEDEF
"""
"""The ACPC heads-up limit hold'em gamedef (reverse blinds)."""

_MAX_LINE = 1 << 16
_MAX_TIMEOUT = 10**9  # seconds: every platform's socket timeouts hold it (2**31 - 1 on Windows)
_BOARD = (0, 3, 1, 1)
_STREETS = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)


def _short(line: str) -> str:
    return repr(line if len(line) <= 200 else line[:200] + "...")


def _int_field(text: str, what: str, line: str, low: int = 0) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 16:
        raise ProtocolError(f"{what} must be a non-negative integer, got {text!r} in {_short(line)}")
    value = int(text)
    if value < low:
        raise ProtocolError(f"{what} must be at least {low}, got {value} in {_short(line)}")
    return value


# --- gamedefs ---------------------------------------------------------------------------


class GameDefError(ProtocolError, InvalidConfigError):
    """A gamedef, a ``universal_poker(...)`` string or an ACPC amount holdem cannot use: a
    :class:`holdem.ProtocolError` (ACPC input) and a :class:`holdem.InvalidConfigError` (it
    sets up a game), so the callers of either catch it."""


_ABSTRACTIONS = ("fcpa", "fchpa", "fullgame")


@frozen_slots
@dataclass(frozen=True, slots=True)
class GameDef:
    """A hold'em game as ACPC describes it (see :func:`parse_game`); ``str()`` writes the
    gamedef. ``blinds`` and ``stacks`` are per position; ``stacks`` is None in a limit game
    without stacks; ``betting_abstraction`` is a ``universal_poker`` string's
    ``bettingAbstraction`` (None when not given). A GameDef made directly is checked as
    :func:`parse_game` checks a gamedef (:class:`GameDefError` naming the field)."""

    limit: bool
    num_players: int
    blinds: tuple[int, ...]
    stacks: tuple[int, ...] | None = None
    raise_sizes: tuple[int, ...] | None = None
    max_raises: tuple[int, ...] | None = None
    betting_abstraction: str | None = None

    def __post_init__(self) -> None:
        n = self.num_players
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 10:
            raise GameDefError(f"GameDef: num_players must be an int 2..10, got {excerpt(n)}")
        for name in ("blinds", "stacks"):
            value = getattr(self, name)
            if value is None and name == "stacks":
                continue
            if not isinstance(value, tuple) or len(value) != n or not all(
                    type(x) is int and x >= 0 for x in value):
                raise GameDefError(f"GameDef: {name} must be a tuple of {n} ints >= 0, got "
                                   f"{excerpt(value)}")
        if self.stacks is not None and (short := _blind_over_stack(self.blinds, self.stacks)):
            raise GameDefError(f"GameDef: {short}")
        self._check_rules()

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce_fields(self)  # through the constructor: a pickle is checked as input

    __setstate__ = setstate_through_init

    def _check_rules(self) -> None:
        """What :func:`parse_game` checks of a gamedef, for a GameDef made directly (which
        could otherwise fail later with an AssertionError, or write a gamedef holdem does not
        play as it says)."""
        if type(self.limit) is not bool:
            raise GameDefError(f"GameDef: limit must be a bool, got {excerpt(self.limit)}")
        if self.stacks is None and not self.limit:
            raise GameDefError("GameDef: a no-limit game needs stacks")
        if self.stacks is not None and min(self.stacks) < 1:
            raise GameDefError(f"GameDef: stacks must be positive, got {excerpt(self.stacks)}")
        if not 1 <= sum(1 for b in self.blinds if b) <= 2:
            raise GameDefError(f"GameDef: blinds {excerpt(self.blinds)} are not a hold'em blind "
                               f"structure (a big blind and at most one small blind)")
        self.button  # noqa: B018 - GameDefError unless the blinds are hold'em's
        for name in ("raise_sizes", "max_raises"):
            value = getattr(self, name)
            if not self.limit:
                if value is not None:
                    raise GameDefError(f"GameDef: {name} apply to limit games only, got "
                                       f"{value!r}")
            elif not isinstance(value, tuple) or len(value) != 4 or not all(
                    type(x) is int and x >= 0 for x in value):
                raise GameDefError(f"GameDef: a limit game needs {name} as a tuple of 4 ints "
                                   f">= 0 (one per round), got {value!r}")
        if self.limit:
            assert self.raise_sizes is not None and self.max_raises is not None
            problem = _limit_problem(self.big_blind, self.raise_sizes, self.max_raises,
                                     "raise_sizes", "max_raises")
            if problem:
                raise GameDefError(f"GameDef: {problem}")
        abstraction = self.betting_abstraction
        if abstraction is not None and abstraction not in _ABSTRACTIONS:
            raise GameDefError(f"GameDef: betting_abstraction {abstraction!r}: holdem reads "
                               f"{', '.join(_ABSTRACTIONS)}")
        try:
            self.game  # noqa: B018 - holdem's own checks of the blinds and bets
            self.new_hand(seed=0)  # and of the stacks (at most 2**53 chips a seat)
        except HoldemError as exc:
            raise GameDefError(f"GameDef: {exc}") from None

    @property
    def big_blind(self) -> int:
        return max(self.blinds)

    @property
    def small_blind(self) -> int:
        posted = sorted(b for b in self.blinds if b)
        return posted[0] if len(posted) == 2 else 0

    @property
    def button(self) -> int:
        """The dealer's position: heads-up the small blind, else the position before it."""
        n, blinds = self.num_players, self.blinds
        for b in reversed(range(n)):  # heads-up equal blinds: the dealer on position 1
            if _blinds_for(n, b, self.small_blind, self.big_blind) == blinds:
                return b
        raise GameDefError(f"blind {_nums(blinds)} is not a hold'em blind structure")

    @property
    def first_players(self) -> tuple[int, ...]:
        """ACPC's ``firstPlayer`` (1-based, per round) of hold'em with these blinds."""
        return _first_players(self.num_players, self.button)

    @property
    def game(self) -> Game:
        """The holdem :class:`~holdem.Game` of these rules."""
        if not self.limit:
            return Game(structure=Structure.NO_LIMIT, big_blind=self.big_blind,
                        small_blind=self.small_blind)
        assert self.raise_sizes is not None and self.max_raises is not None
        return Game(structure=Structure.FIXED_LIMIT, big_blind=self.big_blind,
                    small_blind=self.small_blind, small_bet=self.raise_sizes[0],
                    big_bet=self.raise_sizes[2], max_raises=self.max_raises[0])

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        """Every position's stack at the start of a hand. ACPC limit games have no stacks:
        holdem gets one larger than anybody can bet (every round capped), so none is all in."""
        if self.stacks is not None:
            return self.stacks
        assert self.raise_sizes is not None and self.max_raises is not None
        deep = self.big_blind + sum(s * (m + 1) for s, m in zip(self.raise_sizes,
                                                                self.max_raises, strict=True))
        return (deep,) * self.num_players

    def new_hand(self, **deal: Unpack[_Deal]) -> HandState:
        """A holdem hand of this game with position ``p`` on seat ``p`` (the button on
        :attr:`button`); keyword arguments go to :meth:`holdem.Game.new_hand` (``seed``,
        ``hole_cards``...)."""
        return self.game.new_hand(list(self.starting_stacks), button=self.button, **deal)

    def check_protocol(self) -> GameDef:
        """This gamedef, if the protocol code (MATCHSTATE and STATE lines, :func:`play`) can
        play it as ACPC's dealer does; else :class:`GameDefError` naming the limitation."""
        n = self.num_players
        if self.button != n - 1:
            raise GameDefError(
                f"gamedef: blind {_nums(self.blinds)} puts the dealer on position "
                f"{self.button}; the ACPC protocol code plays the dealer on the last position "
                f"(blind {_nums(_blinds_for(n, n - 1, self.small_blind, self.big_blind))})")
        if self.limit and self.stacks is not None:
            raise GameDefError("gamedef: the ACPC protocol code reads limit games without "
                               "stacks only")
        if self.stacks is not None and len(set(self.stacks)) != 1:
            raise GameDefError(
                f"gamedef: stack {_nums(self.stacks)}: the ACPC protocol code plays equal "
                f"stacks only (with unequal ones a short all-in raise may face a player who "
                f"already acted: holdem does not reopen the betting for it, R24, ACPC's "
                f"dealer does)")
        return self

    def __str__(self) -> str:
        n = self.num_players
        lines = ["GAMEDEF", "limit" if self.limit else "nolimit", f"numPlayers = {n}",
                 "numRounds = 4"]
        if self.stacks is not None:
            lines.append("stack = " + _nums(self.stacks))
        lines.append("blind = " + _nums(self.blinds))
        if self.raise_sizes is not None:
            lines.append("raiseSize = " + _nums(self.raise_sizes))
        lines.append("firstPlayer = " + _nums(self.first_players))
        if self.max_raises is not None:
            lines.append("maxRaises = " + _nums(self.max_raises))
        lines += ["numSuits = 4", "numRanks = 13", "numHoleCards = 2",
                  "numBoardCards = 0 3 1 1", "END GAMEDEF"]
        return "\n".join(lines) + "\n"


def _limit_problem(bb: int, sizes: Sequence[int], caps: Sequence[int], sizes_name: str,
                   caps_name: str) -> str | None:
    """What keeps fixed-limit bet sizes and caps (one per round) from being hold'em's as
    holdem plays it, or None."""
    if sizes[0] != bb or sizes[1] != bb or sizes[2] != sizes[3] or sizes[2] < bb:
        return (f"{sizes_name} {_nums(sizes)} must be 'b b B B' with b the big blind ({bb}) "
                f"and B >= b")
    if tuple(caps[1:]) != (caps[0] + 1,) * 3:
        return (f"{caps_name} {_nums(caps)} must be 'k k+1 k+1 k+1' (the big blind counts as "
                f"the preflop bet)")
    return None


def _blind_over_stack(blinds: Sequence[int], stacks: Sequence[int]) -> str | None:
    """Why a blind cannot be posted in full (ACPC refuses such a game), or None."""
    for p, (blind, stack) in enumerate(zip(blinds, stacks, strict=True)):
        if blind > stack:
            return (f"the blind of position {p} ({shown(blind)}) is greater than its stack "
                    f"({shown(stack)}); ACPC refuses such a game")
    return None


def _nums(values: Iterable[int]) -> str:
    return " ".join(map(str, values))


def _blinds_for(n: int, button: int, sb: int, bb: int) -> tuple[int, ...]:
    """The blind per position with the dealer on ``button`` (heads-up it posts the small)."""
    out = [0] * n
    out[button if n == 2 else (button + 1) % n] = sb
    out[(button + 1) % n if n == 2 else (button + 2) % n] = bb
    return tuple(out)


def _first_players(n: int, button: int) -> tuple[int, ...]:
    """Hold'em's ``firstPlayer`` (1-based): left of the big blind preflop, then left of the
    button (heads-up the big blind)."""
    pre = (button + (2 if n == 2 else 3)) % n
    post = (button + 1) % n
    return (pre + 1, post + 1, post + 1, post + 1)


_GAMEDEF_KEYS = {
    "numplayers": "numPlayers", "numrounds": "numRounds", "stack": "stack", "blind": "blind",
    "raisesize": "raiseSize", "firstplayer": "firstPlayer", "maxraises": "maxRaises",
    "numsuits": "numSuits", "numranks": "numRanks", "numholecards": "numHoleCards",
    "numboardcards": "numBoardCards",
}
# universal_poker(...) only: the betting type, OpenSpiel's action abstraction, and subgames
_UNIVERSAL_KEYS = {"betting": "betting", "bettingabstraction": "bettingAbstraction",
                   "potsize": "potSize", "boardcards": "boardCards",
                   "handreaches": "handReaches"}


def parse_game(text: str) -> GameDef:
    """Read a hold'em game from an ACPC gamedef (``GAMEDEF`` ... ``END GAMEDEF``; ``#`` starts
    a comment) or an OpenSpiel ``universal_poker(name=value,...)`` string (names in any case).

    Accepted: ``limit`` or ``nolimit`` with 2 to 10 players, 4 rounds, a 52-card deck
    (``numSuits = 4``, ``numRanks = 13``), 2 hole cards, ``numBoardCards = 0 3 1 1``, a big
    blind and at most one small blind on the position before it, ``firstPlayer`` as hold'em
    plays those blinds (:attr:`GameDef.first_players`), one ``stack`` per player (any sizes
    but none below its blind, as ACPC requires; optional in limit), in limit
    ``raiseSize = b b B B`` (small bet = big blind ``b``, ``B >= b``) with
    ``maxRaises = k k+1 k+1 k+1`` (the big blind counts as the preflop bet).
    Anything else raises :class:`GameDefError` naming the line or parameter.
    :func:`parse_gamedef` adds what the protocol code needs.

    >>> gd = parse_game("universal_poker(betting=nolimit,numPlayers=2,numRounds=4,"
    ...                 "blind=2 1,firstPlayer=2 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,"
    ...                 "numBoardCards=0 3 1 1,stack=40 60,bettingAbstraction=fcpa)")
    >>> gd.stacks, gd.button, gd.betting_abstraction
    ((40, 60), 1, 'fcpa')
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    head = text.lstrip()[:16].lower()
    if head.startswith("universal_poker"):
        kind, values, extra = _universal_fields(text)
    else:
        kind, values = _gamedef_fields(text)
        extra = {}
    return _standard(kind, values, extra)


def parse_gamedef(text: str) -> GameDef:
    """:func:`parse_game` for the protocol: also refuses (:class:`GameDefError`) what
    :meth:`GameDef.check_protocol` refuses (unequal stacks, limit stacks, a dealer elsewhere
    than the last position).

    >>> parse_gamedef(HEADS_UP_LIMIT).game.max_raises
    3
    """
    return parse_game(text).check_protocol()


def _gamedef_fields(text: str) -> tuple[str, dict[str, tuple[int, ...]]]:
    values: dict[str, tuple[int, ...]] = {}
    kind: str | None = None
    started = ended = False
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        low = line.lower()
        if ended:
            raise GameDefError(f"gamedef: text after END GAMEDEF: {_short(raw)}")
        if low == "gamedef":
            if started:
                raise GameDefError("gamedef: GAMEDEF given twice")
            started = True
            continue
        if not started:
            raise GameDefError(f"gamedef: expected GAMEDEF first (or universal_poker(...)), "
                               f"got {_short(raw)}")
        if low == "end gamedef":
            ended = True
        elif low in ("limit", "nolimit", "potlimit", "pot limit"):
            if kind is not None:
                raise GameDefError(f"gamedef: betting type given twice ({_short(raw)})")
            kind = low
        elif "=" in line:
            key, _, rest = line.partition("=")
            name = _GAMEDEF_KEYS.get(key.strip().lower())
            if name is None:
                raise GameDefError(
                    f"gamedef: unknown key {key.strip()!r} in {_short(raw)}; known: "
                    + ", ".join(sorted(_GAMEDEF_KEYS.values())))
            _put(values, name, rest, raw)
        else:
            raise GameDefError(f"gamedef: cannot read line {_short(raw)}")
    if not started or not ended:
        raise GameDefError("gamedef: the text must start with GAMEDEF and end with END GAMEDEF")
    if kind is None:
        raise GameDefError("gamedef: missing the betting type (limit or nolimit)")
    return kind, values


def _universal_fields(text: str) -> tuple[str, dict[str, tuple[int, ...]], dict[str, str]]:
    body = text.strip()
    if not body.endswith(")") or "(" not in body or body[:body.index("(")].strip().lower() \
            != "universal_poker":
        raise GameDefError(f"not a universal_poker(name=value,...) string: {_short(text)}")
    values: dict[str, tuple[int, ...]] = {}
    extra: dict[str, str] = {}
    for item in filter(None, (x.strip() for x in body[body.index("(") + 1:-1].split(","))):
        key, sep, value = item.partition("=")
        low = key.strip().lower()
        if not sep:
            raise GameDefError(f"universal_poker parameter {item!r} has no '='")
        if low in _UNIVERSAL_KEYS:
            if _UNIVERSAL_KEYS[low] in extra:
                raise GameDefError(f"universal_poker: {_UNIVERSAL_KEYS[low]} given twice")
            extra[_UNIVERSAL_KEYS[low]] = value.strip()
        elif low in _GAMEDEF_KEYS:
            _put(values, _GAMEDEF_KEYS[low], value, item)
        else:
            raise GameDefError(
                f"universal_poker: unknown parameter {key.strip()!r}; known: "
                + ", ".join(sorted([*_GAMEDEF_KEYS.values(), *_UNIVERSAL_KEYS.values()])))
    if extra.get("potSize", "0").strip("0") or extra.get("boardCards") \
            or extra.get("handReaches"):
        raise GameDefError("universal_poker: holdem plays whole hands, not subgames (potSize, "
                           "boardCards, handReaches)")
    kind = extra.get("betting", "nolimit").lower()
    return kind, values, extra


def _put(values: dict[str, tuple[int, ...]], name: str, rest: str, raw: str) -> None:
    if name in values:
        raise GameDefError(f"gamedef: {name} given twice")
    nums = rest.split()
    if not nums:
        raise GameDefError(f"gamedef: {name} has no value in {_short(raw)}")
    try:
        values[name] = tuple(_int_field(v, f"gamedef {name}", raw) for v in nums)
    except ProtocolError as exc:
        raise GameDefError(str(exc)) from None


def _standard(kind: str, v: dict[str, tuple[int, ...]], extra: dict[str, str]) -> GameDef:
    def one(name: str) -> int:
        got = v.get(name)
        if got is None:
            raise GameDefError(f"gamedef: missing {name}")
        if len(got) != 1:
            raise GameDefError(f"gamedef: {name} takes one number, got {len(got)}")
        return got[0]

    def per(name: str, count: int, what: str) -> tuple[int, ...]:
        got = v.get(name)
        if got is None:
            raise GameDefError(f"gamedef: missing {name}")
        if len(got) != count:
            raise GameDefError(f"gamedef: {name} needs one number per {what} ({count}), "
                               f"got {len(got)}")
        return got

    if kind not in ("limit", "nolimit"):
        raise GameDefError(f"gamedef: betting {kind!r}: pot limit is not an ACPC betting type "
                           f"holdem reads (limit or nolimit)")
    limit = kind == "limit"
    n = one("numPlayers")
    if not 2 <= n <= 10:
        raise GameDefError(f"gamedef: numPlayers must be 2..10 for hold'em, got {n}")
    deck = (one("numSuits"), one("numRanks"), one("numHoleCards"), one("numRounds"))
    if deck != (4, 13, 2, 4):
        raise GameDefError(
            f"gamedef: not a standard hold'em deck and deal (numSuits, numRanks, numHoleCards, "
            f"numRounds = {deck}); holdem plays 4 suits, 13 ranks, 2 hole cards, 4 rounds")
    if per("numBoardCards", 4, "round") != _BOARD:
        raise GameDefError(f"gamedef: numBoardCards must be 0 3 1 1 for hold'em, got "
                           f"{_nums(v['numBoardCards'])}")
    blinds = per("blind", n, "player")
    posted = sorted(b for b in blinds if b)
    if not 1 <= len(posted) <= 2:
        raise GameDefError(f"gamedef: blind {_nums(blinds)} is not a hold'em blind structure "
                           f"(a big blind and at most one small blind)")
    sb, bb = (posted[0] if len(posted) == 2 else 0), posted[-1]
    buttons = [b for b in range(n) if _blinds_for(n, b, sb, bb) == blinds]
    if not buttons:
        raise GameDefError(
            f"gamedef: blind {_nums(blinds)} is not a hold'em blind structure (the small blind "
            f"on the position before the big blind; heads-up 'big small' or 'small big')")
    first = per("firstPlayer", 4, "round")
    fits = [b for b in buttons if _first_players(n, b) == first]
    if not fits:
        raise GameDefError(
            f"gamedef: firstPlayer {_nums(first)} does not fit blind {_nums(blinds)}: hold'em "
            f"plays those blinds with firstPlayer {_nums(_first_players(n, buttons[0]))}")
    abstraction = extra.get("bettingAbstraction")
    if abstraction is not None and abstraction not in _ABSTRACTIONS:
        raise GameDefError(f"gamedef: bettingAbstraction {abstraction!r}: holdem reads "
                           f"{', '.join(_ABSTRACTIONS)}")
    stacks = per("stack", n, "player") if "stack" in v or not limit else None
    if stacks is not None and min(stacks) < 1:
        raise GameDefError(f"gamedef: stack must be positive for every player, got "
                           f"{_nums(stacks)}")
    if stacks is not None and (short := _blind_over_stack(blinds, stacks)):
        raise GameDefError(f"gamedef: {short}")
    sizes = caps = None
    if limit:
        sizes = per("raiseSize", 4, "round")
        caps = per("maxRaises", 4, "round")
        problem = _limit_problem(bb, sizes, caps, "raiseSize", "maxRaises")
        if problem:
            raise GameDefError(f"gamedef: {problem}")
    elif "raiseSize" in v or "maxRaises" in v:
        raise GameDefError("gamedef: raiseSize and maxRaises apply to limit games only")
    gamedef = GameDef(limit, n, blinds, stacks, sizes, caps, abstraction)
    if gamedef.button != fits[0]:  # heads-up equal blinds: the dealer is position 1
        raise GameDefError(f"gamedef: firstPlayer {_nums(first)} with blind {_nums(blinds)}: "
                           f"with equal blinds heads-up holdem reads the dealer on position 1 "
                           f"(firstPlayer {_nums(_first_players(2, 1))})")
    return gamedef  # (GameDef has run holdem's own checks of the blinds and bets)


def street_raise_to(hand_total: int, committed_before_street: int) -> int:
    """ACPC's no-limit raise-to (``r<total>``: the seat's chips over the whole hand, blinds
    included) as holdem's (the seat's total on this street): ``hand_total`` less what the seat
    put in on the earlier streets. :func:`to_action` and :func:`acpc_action` convert with it.

    >>> street_raise_to(900, 300)  # r900 on the flop after 300 preflop: a raise to 600
    600
    """
    ints = []
    for name, value in (("hand_total", hand_total),
                        ("committed_before_street", committed_before_street)):
        whole = int_or_none(value)  # numpy ints too, as plain ints
        if whole is None or not 0 <= whole <= MAX_CHIPS:
            raise GameDefError(f"ACPC raise to: {name} must be an int 0..2**53, got {value!r}")
        ints.append(whole)
    hand_total, committed_before_street = ints
    to = hand_total - committed_before_street
    if to <= 0:
        raise GameDefError(f"ACPC raise to {hand_total} is not above the "
                           f"{committed_before_street} chips put in before this street")
    return to


def _before_street(state: HandState, seat: int) -> int:
    """The chips ``seat`` put in on the streets before this one."""
    return state.committed[seat] - state.bets[seat]


# --- MATCHSTATE lines ------------------------------------------------------------------


def _split_betting(betting: str, line: str) -> tuple[tuple[str, ...], ...]:
    rounds = betting.split("/")
    if len(rounds) > 4:
        raise ProtocolError(f"betting {betting!r} has {len(rounds)} rounds, hold'em has 4, "
                            f"in {_short(line)}")
    out = []
    for text in rounds:
        tokens: list[str] = []
        i = 0
        while i < len(text):
            ch = text[i]
            if ch in "cf":
                tokens.append(ch)
                i += 1
            elif ch == "r":
                j = i + 1
                while j < len(text) and text[j] in "0123456789":
                    j += 1
                if j - i > 17:
                    raise ProtocolError(f"raise amount too large in {_short(line)}")
                tokens.append(text[i:j])
                i = j
            else:
                raise ProtocolError(
                    f"betting: unknown action {ch!r} in {_short(line)} (expected c, f, r or "
                    f"r<total>, rounds separated by '/')")
        out.append(tuple(tokens))
    return tuple(out)


def _parse_cards(text: str, what: str, line: str) -> tuple[Card, ...]:
    if len(text) % 2:
        raise ProtocolError(f"{what} {text!r} is not a list of two-character cards in "
                            f"{_short(line)}")
    cards = []
    for k in range(0, len(text), 2):
        try:
            cards.append(Card(text[k:k + 2]))
        except (HoldemError, TypeError):
            raise ProtocolError(f"{what}: {text[k:k + 2]!r} is not a card (rank 2-9TJQKA, suit "
                                f"shdc) in {_short(line)}") from None
    return tuple(cards)


def _split_cards(text: str, line: str) -> tuple[tuple[tuple[Card, ...] | None, ...],
                                                tuple[tuple[Card, ...], ...]]:
    parts = text.split("/")
    holes_text = parts[0].split("|")
    if not 2 <= len(holes_text) <= 10:
        raise ProtocolError(f"cards {text!r}: expected 2..10 hole-card fields separated by "
                            f"'|' in {_short(line)}")
    if len(parts) > 4:
        raise ProtocolError(f"cards {text!r}: more than 3 board rounds in {_short(line)}")
    holes: list[tuple[Card, ...] | None] = []
    for k, h in enumerate(holes_text):
        cards = _parse_cards(h, f"hole cards of position {k}", line)
        if len(cards) not in (0, 2):
            raise ProtocolError(f"position {k} has {len(cards)} hole cards, hold'em deals 2, "
                                f"in {_short(line)}")
        holes.append(cards or None)
    boards = []
    for r, b in enumerate(parts[1:], start=1):
        cards = _parse_cards(b, f"board of round {r}", line)
        if len(cards) != _BOARD[r]:
            raise ProtocolError(f"round {r} deals {_BOARD[r]} board cards, got {len(cards)} "
                                f"in {_short(line)}")
        boards.append(cards)
    seen: set[Card] = set()
    for c in [c for h in holes if h for c in h] + [c for b in boards for c in b]:
        if c in seen:
            raise ProtocolError(f"card {c} is dealt twice in {_short(line)}")
        seen.add(c)
    return tuple(holes), tuple(boards)


def _format_cards(holes: Sequence[Sequence[Card] | None],
                  boards: Sequence[Sequence[Card]]) -> str:
    text = "|".join("".join(map(str, h or ())) for h in holes)
    return text + "".join("/" + "".join(map(str, b)) for b in boards)


@frozen_slots
@dataclass(frozen=True, slots=True)
class MatchState:
    """One ``MATCHSTATE`` line: what ``position`` sees in hand ``hand_number``.

    ``betting`` holds each round's action tokens (``"c"``, ``"f"``, ``"r"``, ``"r600"``); an
    empty last round means the previous one has closed. ``hole_cards`` has one entry per
    position (``None`` when hidden); ``boards`` the board cards of rounds 1, 2, 3 reached.
    ``str()`` is the line.
    """

    position: int
    hand_number: int
    betting: tuple[tuple[str, ...], ...]
    hole_cards: tuple[tuple[Card, ...] | None, ...]
    boards: tuple[tuple[Card, ...], ...] = ()

    @property
    def betting_text(self) -> str:
        return "/".join("".join(r) for r in self.betting)

    @property
    def board(self) -> tuple[Card, ...]:
        return tuple(c for b in self.boards for c in b)

    def __str__(self) -> str:
        return (f"MATCHSTATE:{self.position}:{self.hand_number}:{self.betting_text}:"
                f"{_format_cards(self.hole_cards, self.boards)}")

    def to_state(self, gamedef: GameDef) -> HandState:
        """The holdem hand this line describes (position ``p`` on seat ``p``, button
        ``n - 1``): every action replayed and checked. Illegal betting or missing cards raise
        :class:`holdem.ProtocolError`; a ``gamedef`` that is not a :class:`GameDef`,
        :class:`TypeError`."""
        return _to_state(gamedef, self.betting, self.hole_cards, self.boards, str(self),
                         "MatchState.to_state")


def _fields(line: str, form: str) -> tuple[str, list[str]]:
    """``line`` without its line end, split at ``:`` into the fields of ``form``."""
    if not isinstance(line, str):
        raise TypeError(f"line must be a str, got {type(line).__name__}")
    head = form.split(":", 1)[0]
    if len(line) > _MAX_LINE:
        raise ProtocolError(f"line of {len(line)} characters is too long for a {head} line")
    text = line.rstrip("\r\n")
    parts = text.split(":")
    if len(parts) != form.count(":") + 1 or parts[0] != head:
        raise ProtocolError(f"not a {form} line: {_short(line)}")
    return text, parts


def parse_matchstate(line: str) -> MatchState:
    """Read a ``MATCHSTATE:<position>:<hand>:<betting>:<cards>`` line (a trailing newline and a
    client's ``:<action>`` are not part of it). The syntax is checked here, the play by
    :meth:`MatchState.to_state`."""
    text, parts = _fields(line, "MATCHSTATE:<position>:<hand>:<betting>:<cards>")
    holes, boards = _split_cards(parts[4], text)
    position = _int_field(parts[1], "position", text)
    if position >= len(holes):
        raise ProtocolError(f"position {position} is not one of the {len(holes)} positions in "
                            f"{_short(line)}")
    return MatchState(position, _int_field(parts[2], "hand number", text),
                      _split_betting(parts[3], text), holes, boards)


def _check_state(state: object) -> None:
    """A TypeError naming ``state`` when it is not a hand (as for a token that is not text)."""
    if not (hasattr(state, "legal_actions") and hasattr(state, "num_players")):
        raise TypeError(f"state must be a holdem.HandState, got {type(state).__name__}")


def to_action(state: HandState, token: str) -> Action:
    """The holdem :class:`~holdem.Action` of ACPC action ``token`` (``c``, ``f``, ``r``,
    ``r<total>``) for the seat to act: ``r<total>`` (a total over the hand) becomes
    ``raise_to(total - (committed - bets))`` (a street total). Limit raises may omit the amount.
    A token the state does not allow raises :class:`holdem.ProtocolError`."""
    _check_state(state)
    if not isinstance(token, str):
        raise TypeError(f"token must be a str, got {type(token).__name__}")
    try:
        return _to_action(state, token)
    except ProtocolError:
        raise
    except HoldemError as exc:
        raise ProtocolError(f"action {token!r}: {exc}") from None


def _to_action(state: HandState, token: str) -> Action:
    seat = state.actor
    if seat is None:
        raise ProtocolError(f"action {token!r} after the end of the hand")
    if token == "f":
        action = Action.fold()
    elif token == "c":
        action = Action(ActionType.CHECK_CALL)
    elif token.startswith("r"):
        la = state.legal_actions()
        if not la.can_raise:
            raise ProtocolError(f"seat {seat} may not raise here ({token!r}): the betting is "
                                f"capped or the seat cannot raise")
        assert la.min_to is not None
        behind = _before_street(state, seat)
        limit = state.game.structure is Structure.FIXED_LIMIT
        if token == "r":
            if not limit:
                raise ProtocolError("no-limit raise without an amount: write r<total over the "
                                    "hand>")
            action = Action(ActionType.BET_RAISE, la.min_to)
        else:
            amount = token[1:]
            if not (amount.isascii() and amount.isdigit()) or len(amount) > 16:
                raise ProtocolError(f"raise {token!r}: the amount must be at most 16 digits")
            to = street_raise_to(int(amount), behind)
            if limit and to != la.min_to:
                raise ProtocolError(f"limit raise {token!r} must be to {la.min_to + behind} over "
                                    f"the hand")
            action = Action(ActionType.BET_RAISE, to)
    else:
        raise ProtocolError(f"unknown ACPC action {token!r} (c, f, r or r<total>)")
    if not state.is_legal(action):
        la = state.legal_actions()
        behind = _before_street(state, seat)
        allowed = ["c"] + (["f"] if la.can_fold else [])
        if la.can_raise:
            assert la.min_to is not None and la.max_to is not None
            allowed.append(f"r{la.min_to + behind}..r{la.max_to + behind}")
        raise ProtocolError(f"seat {seat}: {token!r} is not legal here; allowed: "
                            + ", ".join(allowed))
    return action


def acpc_action(state: HandState, action: Action | str) -> str:
    """The ACPC token for ``action`` by the seat to act: ``f``, ``c``, ``r`` (limit) or
    ``r<total over the hand>`` (no-limit: ``to + committed - bets``). The action must be legal
    (else :class:`holdem.IllegalActionError` / :class:`holdem.ProtocolError`)."""
    _check_state(state)
    act = Action.parse(action) if isinstance(action, str) else action
    if not isinstance(act, Action):
        raise InvalidActionError(f"action must be a holdem.Action or its text (such as 'cc' "
                                 f"or 'cbr 600'), got {excerpt(action)}")
    seat = state.actor
    if seat is None:
        raise ProtocolError("no ACPC action after the end of the hand")
    kind = act.type
    if kind is ActionType.FOLD:
        if not state.legal_actions().can_fold:
            raise ProtocolError(f"seat {seat} may not fold when checking is free")
        return "f"
    if kind in (ActionType.CHECK, ActionType.CALL, ActionType.CHECK_CALL):
        if not state.is_legal(act):
            raise ProtocolError(f"seat {seat}: {act} is not legal here")
        return "c"
    if kind is ActionType.ALL_IN:
        to = state.bets[seat] + state.stacks[seat]
        if to <= state.current_bet:
            return "c"
        act = Action(ActionType.BET_RAISE, to)
    if not state.is_legal(act) or act.to is None:
        raise ProtocolError(f"seat {seat}: {act} is not legal here")
    if state.game.structure is Structure.FIXED_LIMIT:
        return "r"
    return f"r{act.to + _before_street(state, seat)}"


def _gamedef_arg(gamedef: object, what: str) -> None:
    """Refuse a ``gamedef`` that is not a :class:`GameDef` (:class:`TypeError` naming it, as
    :func:`play` does): a gamedef's text must be read first."""
    if not isinstance(gamedef, GameDef):
        hint = " (read the text with parse_gamedef first)" if isinstance(gamedef, str) else ""
        raise TypeError(f"{what}: gamedef must be a holdem.acpc.GameDef (see parse_gamedef), "
                        f"got {type(gamedef).__name__}: {excerpt(gamedef)}{hint}")


def _to_state(gamedef: GameDef, betting: Sequence[Sequence[str]],
              holes: Sequence[tuple[Card, ...] | None], boards: Sequence[Sequence[Card]],
              line: str, what: str) -> HandState:
    _gamedef_arg(gamedef, what)
    gamedef.check_protocol()
    n = gamedef.num_players
    if len(holes) != n:
        raise ProtocolError(f"{len(holes)} hole-card fields for a {n}-player game in "
                            f"{_short(line)}")
    if len(boards) != max(len(betting), 1) - 1:
        raise ProtocolError(f"the betting reaches round {max(len(betting), 1) - 1} but the "
                            f"cards show the board of {len(boards)} rounds in {_short(line)}")
    board = [c for b in boards for c in b]
    try:
        state = gamedef.new_hand(hole_cards=list(holes), board=list(board))
    except HoldemError as exc:
        raise ProtocolError(f"{exc} in {_short(line)}") from None
    if not betting:
        betting = ((),)
    for r, tokens in enumerate(betting):
        if r and not state.is_terminal() and state.street_index < r:
            raise ProtocolError(f"round {r} starts before round {r - 1} closed in "
                                f"{_short(line)}")
        for token in tokens:
            if state.is_terminal() or state.street_index != r:
                raise ProtocolError(f"action {token!r} in round {r} after the round or hand "
                                    f"closed in {_short(line)}")
            try:
                action = to_action(state, token)
                state.apply(action)
            except HoldemError as exc:
                raise ProtocolError(f"{exc} in {_short(line)}") from None
    last = len(betting) - 1
    if state.is_terminal():
        folded = sum(1 for s in state.statuses if s is SeatStatus.FOLDED)
        expected = 4 if folded < n - 1 else _STREETS.index(state.history[-1].street) + 1
        if len(betting) != expected:
            raise ProtocolError(f"the hand ended in round {expected - 1} but the betting "
                                f"shows {len(betting)} rounds in {_short(line)}")
    elif state.street_index != last:
        raise ProtocolError(f"round {last} closed but the betting has no '/' for round "
                            f"{last + 1} in {_short(line)}")
    return state


def matchstate_of(state: HandState, position: int, hand_number: int = 0) -> MatchState:
    """The ``MATCHSTATE`` position ``position`` sees for ``state`` (position ``p`` is seat
    ``(button + 1 + p) % n``): its own hole cards, and at a showdown those of every player who
    did not fold; the board dealt so far."""
    _check_state(state)
    n = state.num_players
    if int_or_none(position) is None or not 0 <= position < n:
        raise ProtocolError(f"position {excerpt(position)} is not one of 0..{n - 1}")
    if int_or_none(hand_number) is None or not 0 <= hand_number <= MAX_CHIPS:
        raise ProtocolError(f"hand_number must be an int 0..2**53 (a MATCHSTATE line's), got "
                            f"{excerpt(hand_number)}")
    position, hand_number = int(position), int(hand_number)
    game = state.game
    if game.ante or game.straddle or game.structure is Structure.POT_LIMIT:
        raise ProtocolError("ACPC's protocol has no antes, straddle or pot limit: this hand "
                            "cannot be written as a MATCHSTATE line")
    seat_of = [(state.button + 1 + p) % n for p in range(n)]
    position_of = {s: p for p, s in enumerate(seat_of)}
    fresh = state.game.new_hand(list(state.starting_stacks), button=state.button,
                                hole_cards=list(state.hole_cards), board=list(state.board))
    if state.dead_hands or fresh.posts != state.posts:
        raise ProtocolError("ACPC's protocol has the two blinds only: a hand with dead hands, "
                            "a dead small blind or extra posts cannot be written as a "
                            "MATCHSTATE line")
    rounds: list[list[str]] = [[]]
    for rec in state.history:
        while len(rounds) - 1 < _STREETS.index(rec.street):
            rounds.append([])
        assert fresh.actor is not None and position_of[fresh.actor] == position_of[rec.seat]
        act = (Action.fold() if rec.type is ActionType.FOLD else
               Action(ActionType.CHECK_CALL) if rec.type in (ActionType.CHECK, ActionType.CALL)
               else Action(ActionType.BET_RAISE, rec.to))
        rounds[-1].append(acpc_action(fresh, act))
        fresh.apply(act)
    if not state.is_terminal():
        while len(rounds) - 1 < state.street_index:
            rounds.append([])
    elif state.street is Street.SHOWDOWN:
        while len(rounds) < 4:
            rounds.append([])
    showdown = state.is_terminal() and state.street is Street.SHOWDOWN
    holes: list[tuple[Card, ...] | None] = []
    for p in range(n):
        seat = seat_of[p]
        visible = p == position or (showdown and state.status(seat) is not SeatStatus.FOLDED)
        cards = state.hole_cards[seat]
        holes.append(tuple(cards) if visible and cards else None)
    board = tuple(state.board)
    boards = [board[:3], board[3:4], board[4:5]]
    shown = max(0, len(rounds) - 1)
    return MatchState(position, hand_number, tuple(tuple(r) for r in rounds), tuple(holes),
                      tuple(boards[:shown]))


# --- the client --------------------------------------------------------------------------


@frozen_slots
@dataclass(frozen=True, slots=True)
class ClientResult:
    """What :func:`play` saw: ``hands`` finished, ``payoffs`` (chips won per hand, in order)
    and ``total`` (their sum) for the client's position in each hand.

    The values are the dealer's (ACPC's ``valueOfState``, summed in its ``SCORE`` line): a pot
    tied by ``k`` players is split in ``k`` equal parts, so a payoff is a
    :class:`~fractions.Fraction` when the split does not come out in whole chips (holdem's own
    :attr:`~holdem.HandState.payoffs` give the odd chip to one winner, R32)."""

    hands: int
    payoffs: tuple[int | Fraction, ...]

    @property
    def total(self) -> int | Fraction:
        total = sum(self.payoffs)
        return int(total) if isinstance(total, Fraction) and total.denominator == 1 else total


def _acpc_value(state: HandState, seat: int) -> int | Fraction:
    """ACPC's value of the finished hand for ``seat``: holdem's payoff, with every pot the
    seat tied for split evenly among its winners (no odd chip)."""
    result = state.result
    value = Fraction(result.payoffs[seat])
    for pot in result.pots:
        if seat in pot.winners:
            value += Fraction(pot.net, len(pot.winners)) - pot.share_of(seat)
    return int(value) if value.denominator == 1 else value


def play(host: str, port: int, agent: AgentLike, gamedef: GameDef, *,
         timeout: float | None = 30.0) -> ClientResult:
    """Connect to an ACPC dealer at ``host:port`` and play ``agent`` until the dealer closes.

    ``agent`` is a holdem agent (an object with ``act(observation)`` or a callable taking an
    :class:`holdem.Observation`, as for :class:`holdem.Table`); the observation is built from
    the hand the ``MATCHSTATE`` describes (seats are ACPC positions, names ``p0``, ``p1``...).
    The client sends ``VERSION:2.0.0``, then answers ``<matchstate>:<action>`` to each line
    where its position is to act. A line it cannot read raises :class:`holdem.ProtocolError`;
    an agent's illegal answer raises :class:`holdem.AgentError`. ``timeout`` (seconds, None
    for none) bounds the connection, every line of the dealer (from when the client waits
    for it to its end: a dealer that sends a line byte by byte gets no more) and the sending
    of every answer; one that runs out raises :class:`TimeoutError` saying how long the client
    waited (and, once connected, after how many finished hands). The match ends when the
    dealer closes the connection after a hand; closing it in the middle of a hand or of a
    line (ACPC's dealer stops so when a player fails), or resetting it at any time (a reset
    may lose lines already sent), raises :class:`holdem.ProtocolError`, as does a close before
    any hand (no dealer's seat does that). So does a line that does not follow the one
    before: each line of a hand must go on from the last (same position, cards and betting so
    far; after the client's answer, with that answer), no line may hold an action of the
    client's position that the client did not send, a hand must end before the next
    begins, and hands come in increasing order (the last line of a finished hand may come
    again). A connection refused or an unknown host
    raises the system's error (an :class:`OSError` of the same class) naming ``host:port``.

    The arguments are checked before connecting: ``gamedef`` must be a :class:`GameDef` the
    protocol code plays (:meth:`GameDef.check_protocol`), ``host`` a host name or address,
    ``port`` an int 1..65535 and ``timeout`` None or a positive number of seconds up to
    ``10**9`` (else :class:`TypeError`, or :class:`holdem.ProtocolError` /
    :class:`GameDefError` naming the value).
    """
    act = getattr(agent, "act", agent)
    if not callable(act):
        raise TypeError(f"agent must have an act(observation) method or be callable, got "
                        f"{agent!r}")
    if not isinstance(gamedef, GameDef):
        raise TypeError(f"gamedef must be a holdem.acpc.GameDef (see parse_gamedef), got "
                        f"{type(gamedef).__name__}")
    gamedef.check_protocol()
    if not isinstance(host, str):
        raise TypeError(f"host must be a str, got {type(host).__name__}")
    if "\0" in host:  # the system would read the name up to the NUL only
        raise ProtocolError(f"host {host[:80]!r} holds a NUL character: give a host name or "
                            f"address")
    if int_or_none(port) is None:
        raise TypeError(f"port must be an int, got {type(port).__name__}")
    port = int(port)  # numpy ints too, as plain ints
    if not 1 <= port <= 65535:
        raise ProtocolError(f"port must be 1..65535, got {excerpt(port)}")
    if timeout is not None:
        whole = int_or_none(timeout)  # numpy ints as plain ints (numpy's float64 is a float)
        if whole is not None:
            timeout = whole
        elif isinstance(timeout, bool) or not isinstance(timeout, int | float):
            raise TypeError(f"timeout must be a number of seconds or None, got "
                            f"{type(timeout).__name__}")
        if not 0 < timeout <= _MAX_TIMEOUT:  # sockets take no more (OverflowError)
            raise ProtocolError(f"timeout must be a positive number of seconds, at most 10**9 "
                                f"(about 31 years), or None for no timeout; got {excerpt(timeout)}")
    payoffs: list[int | Fraction] = []
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except TimeoutError:
        raise TimeoutError(f"no connection to the dealer at {host}:{port} within {timeout} s "
                           f"(timeout=None waits as long as the system does)") from None
    except UnicodeError as exc:  # a name the IDNA codec refuses (a label over 63 characters...)
        raise ProtocolError(f"host {host[:80]!r} is not a host name or address ({exc})"
                            ) from None
    except OSError as exc:  # refused, unreachable, an unknown host: the same error, named
        raise type(exc)(exc.errno, f"cannot connect to the dealer at {host[:80]}:{port}: "
                                   f"{exc.strerror or exc}") from exc
    with sock:  # closed on any error too, so the dealer sees the end at once
        dealer = _Dealer(sock, timeout)
        finished: tuple[int, str] | None = None  # the last finished hand and its last line
        open_hand: int | None = None  # the hand of the last line, while it is not over
        last: tuple[MatchState, HandState, str] | None = None  # that line, read
        answered: str | None = None  # that line's betting and the client's answer to it

        def cut(what: str) -> str:
            """The message of a dealer that closed or reset the connection too early."""
            where = "" if open_hand is None else f" in the middle of hand {open_hand}"
            return (f"the dealer {what}{where}: the match was cut short after {len(payoffs)} "
                    f"finished hands")

        dealer.send(b"VERSION:2.0.0\r\n", cut, len(payoffs))
        while raw := dealer.line(cut, len(payoffs)):
            try:
                line = raw.decode("ascii").rstrip("\r\n")
            except UnicodeDecodeError:
                raise ProtocolError(f"the dealer sent a non-ASCII line {raw[:80]!r}") from None
            if not line or line[0] in "#;":
                continue
            ms = parse_matchstate(line)
            if ms.hand_number > MAX_CHIPS:
                raise ProtocolError(f"hand number {ms.hand_number} is above 2**53 (the largest "
                                    f"an agent's observation holds) in {_short(line)}")
            if not ms.hole_cards[ms.position]:  # (parse_matchstate checked the position)
                raise ProtocolError(f"the dealer hid the client's own hole cards (position "
                                    f"{ms.position}) in {_short(line)}")
            state = ms.to_state(gamedef)
            # the client's actions this line may show that the last did not: its answer
            allowed, seen = (answered is not None), 0
            if last is not None:
                seen = len(last[1].history)
                _check_follows(last, ms, state, line)
                betting = ms.betting_text
                if answered is not None and not (betting.startswith(answered) and not betting[
                        len(answered):len(answered) + 1].isdigit()):
                    raise ProtocolError(
                        f"the client answered {answered[len(last[0].betting_text):]!r} to "
                        f"{_short(last[2])}, but the dealer went on with the betting "
                        f"{betting!r}: {_short(line)} (is the dealer's game this "
                        f"gamedef? ACPC's dealer changes an answer it finds invalid)")
                answered = None
            elif finished is not None and ms.hand_number <= finished[0]:
                if line == finished[1]:
                    continue  # the last line of the finished hand again
                raise ProtocolError(
                    f"hand {finished[0]} ended with {_short(finished[1])}, then came "
                    f"{_short(line)}: ACPC's dealer numbers the hands of a match in "
                    f"increasing order")
            mine = [a for a in state.history[seen:] if a.seat == ms.position]
            if len(mine) > allowed:
                raise ProtocolError(
                    f"the dealer's betting {ms.betting_text!r} has the client's position "
                    f"{ms.position} {_acted(mine[allowed])}, an action the client never sent: "
                    f"{_short(line)} (ACPC's dealer sends the client each line where it is to "
                    f"act and waits for its answer)")
            if state.is_terminal():
                payoffs.append(_acpc_value(state, ms.position))
                finished, open_hand, last = (ms.hand_number, line), None, None
                continue
            open_hand, last = ms.hand_number, (ms, state, line)
            if state.actor != ms.position:
                continue
            answer = act(Observation.from_state(state, ms.hand_number))
            try:
                if isinstance(answer, Action):
                    action = answer
                elif isinstance(answer, str):
                    action = Action.parse(answer)
                elif (code := int_or_none(answer)) is not None:  # numpy's integers too
                    action = Action.from_int(code)
                else:
                    raise TypeError("an agent answers an Action, a str or an int")
                token = acpc_action(state, action)
            except (HoldemError, TypeError) as exc:
                raise AgentError(f"the agent answered {answer!r} in {line!r}: {exc}") from None
            dealer.send(f"{line}:{token}\r\n".encode("ascii"), cut, len(payoffs))
            answered = ms.betting_text + token  # how the hand's next line must begin
        if open_hand is not None:  # ACPC's dealer ends a match after a hand; it stops on an error
            raise ProtocolError(cut("closed the connection"))
        if finished is None:  # a dealer's match has hands: this is likely no dealer's seat
            raise ProtocolError(f"{host[:80]}:{port} closed the connection before any hand: "
                                f"is it the port of a seat of an ACPC dealer?")
    return ClientResult(len(payoffs), tuple(payoffs))


def _acted(action: ActionRecord) -> str:
    """``action`` in words: ``call to 300 preflop``, ``fold turn``."""
    to = "" if action.type in (ActionType.FOLD, ActionType.CHECK) else f" to {action.to}"
    return f"{action.type}{to} {action.street}"


def _check_follows(last: tuple[MatchState, HandState, str], ms: MatchState, state: HandState,
                   line: str) -> None:
    """ProtocolError unless ``line`` (read as ``ms`` and ``state``) continues the hand of the
    last line, which did not end it: the same hand and position, every card shown before
    shown again, the betting and the board going on from where they were."""
    was, was_state, was_line = last
    if ms.hand_number != was.hand_number:
        raise ProtocolError(f"hand {ms.hand_number} began before hand {was.hand_number} ended "
                            f"(its last line was {_short(was_line)}): {_short(line)}")
    changed = [p for p, cards in enumerate(was.hole_cards)
               if cards is not None and ms.hole_cards[p] != cards]
    if ms.position != was.position:
        why = f"the position changed from {was.position} to {ms.position}"
    elif changed:
        why = f"the hole cards of position {changed[0]} changed"
    elif ms.board[:len(was.board)] != was.board:
        why = "the board changed"
    elif state.history[:len(was_state.history)] != was_state.history:
        why = f"the betting {ms.betting_text!r} does not go on from {was.betting_text!r}"
    else:
        return
    raise ProtocolError(f"{_short(line)} does not follow {_short(was_line)} in hand "
                        f"{ms.hand_number}: {why}")


class _Dealer:
    """The client's connection to the dealer: lines read whole within ``timeout`` each (at
    most ``_MAX_LINE`` bytes, so memory stays bounded), answers sent within ``timeout``, and a
    close or reset by the dealer turned into the error :func:`play` documents (``cut(what)``
    writes its message, naming the hand the match was in)."""

    def __init__(self, sock: socket.socket, timeout: float | None) -> None:
        self.sock = sock
        self.timeout = timeout
        self.buffer = bytearray()  # received, not yet returned: at most one line and a recv
        self.scanned = 0  # bytes of buffer known to hold no b"\n"

    def line(self, cut: Callable[[str], str], finished: int) -> bytes:
        """The dealer's next line with its b"\n" (b"" when it closed between lines)."""
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        while True:
            end = self.buffer.find(b"\n", self.scanned, _MAX_LINE)
            if end >= 0:
                line = bytes(self.buffer[:end + 1])
                del self.buffer[:end + 1]
                self.scanned = 0
                return line
            self.scanned = min(len(self.buffer), _MAX_LINE)
            if len(self.buffer) >= _MAX_LINE:
                raise ProtocolError(f"the dealer sent a line longer than 64 KiB (after "
                                    f"{finished} finished hands): {bytes(self.buffer[:80])!r}...")
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise self._late(finished)
                self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(1 << 16)
            except TimeoutError:
                raise self._late(finished) from None
            except ConnectionError as exc:
                raise ProtocolError(cut(f"reset the connection ({exc}; what it sent last "
                                        f"may be lost)")) from exc
            if not chunk:
                if self.buffer:
                    raise ProtocolError(cut(f"closed the connection in the middle of a line "
                                            f"({self._partial()})"))
                return b""
            self.buffer += chunk

    def _partial(self) -> str:
        got = len(self.buffer)
        return f"{got} byte{'s' * (got != 1)} with no end of line: {bytes(self.buffer[:80])!r}"

    def _late(self, finished: int) -> TimeoutError:
        what = ("sent nothing" if not self.buffer else
                f"did not end its line ({self._partial()})")
        return TimeoutError(f"the dealer {what} for {self.timeout} s (after {finished} "
                            f"finished hands; timeout=None waits for ever)")

    def send(self, data: bytes, cut: Callable[[str], str], finished: int) -> None:
        self.sock.settimeout(self.timeout)
        try:
            self.sock.sendall(data)
        except TimeoutError:
            raise TimeoutError(f"the dealer did not take the client's line {data.rstrip()!r} "
                               f"within {self.timeout} s (after {finished} finished hands; "
                               f"timeout=None waits for ever)") from None
        except ConnectionError as exc:
            raise ProtocolError(cut(f"closed or reset the connection before the client's line "
                                    f"{data.rstrip()!r} was sent ({exc})")) from exc


# --- STATE log lines ---------------------------------------------------------------------


@frozen_slots
@dataclass(frozen=True, slots=True)
class LogState:
    """One ``STATE:<hand>:<betting>:<cards>:<outcome>:<players>`` log line (the ACPC dealer's
    and the Pluribus logs' format): ``outcome`` is each position's winnings, ``players`` the
    names by position."""

    hand_number: int
    betting: tuple[tuple[str, ...], ...]
    hole_cards: tuple[tuple[Card, ...] | None, ...]
    boards: tuple[tuple[Card, ...], ...]
    outcome: tuple[Fraction, ...]
    players: tuple[str, ...]

    def __str__(self) -> str:
        def num(x: Fraction) -> str:
            return str(x.numerator) if x.denominator == 1 else str(float(x))

        return (f"STATE:{self.hand_number}:{'/'.join(''.join(r) for r in self.betting)}:"
                f"{_format_cards(self.hole_cards, self.boards)}:"
                f"{'|'.join(num(x) for x in self.outcome)}:{'|'.join(self.players)}")


def _outcome(text: str, line: str) -> Fraction:
    t = text.strip()
    body = t[1:] if t[:1] in "+-" else t
    digits = body.replace(".", "")
    if not body or len(body) > 30 or body.count(".") > 1 or not (
            digits.isascii() and digits.isdigit()):
        raise ProtocolError(f"outcome {text!r} is not a number in {_short(line)}")
    return Fraction(t)


_LOG_DECIMALS = Fraction(1, 10**4)  # how far a log's written split may be from the exact one
# (ACPC's dealer writes "%.6f" without its trailing zeros: a three-way split of 50 is
# 16.666667 three times, which does not sum to 50)


def parse_log_line(line: str) -> LogState:
    """Read one ``STATE:`` line (syntax only; :func:`import_state_line` checks the play)."""
    text, parts = _fields(line, "STATE:<hand>:<betting>:<cards>:<outcome>:<players>")
    holes, boards = _split_cards(parts[3], text)
    outcome = tuple(_outcome(x, text) for x in parts[4].split("|"))
    players = tuple(parts[5].split("|"))
    if len(outcome) != len(holes) or len(players) != len(holes):
        raise ProtocolError(f"{len(holes)} hole-card fields, {len(outcome)} outcomes and "
                            f"{len(players)} players in {_short(line)}: they must agree")
    total = sum(outcome, Fraction(0))
    if abs(total) > len(outcome) * _LOG_DECIMALS:  # a tied pot's shares are rounded
        raise ProtocolError(f"the outcomes sum to {total}, not 0, in {_short(line)}")
    return LogState(_int_field(parts[1], "hand number", text), _split_betting(parts[2], text),
                    holes, boards, outcome, players)


def import_state_line(line: str, gamedef: GameDef) -> HandHistory:
    """The PHH :class:`holdem.phh.HandHistory` of a ``STATE:`` log line, replayed and checked:
    the engine's payoff of every position must equal the line's outcome (exactly, or, for a
    tied pot, ACPC's even split of it, as the log writes it), else :class:`holdem.ProtocolError`.
    ``players`` and ``hand`` are set from the line. A ``line`` that is not a str or a
    ``gamedef`` that is not a :class:`GameDef` raises :class:`TypeError`."""
    from holdem import from_state

    _gamedef_arg(gamedef, "import_state_line")
    log = parse_log_line(line)
    text = line.rstrip("\r\n")
    state = _to_state(gamedef, log.betting, log.hole_cards, log.boards, text,
                      "import_state_line")
    if not state.is_terminal():
        raise ProtocolError(f"the hand is not over in {_short(text)}")
    for p, (want, got) in enumerate(zip(log.outcome, state.payoffs, strict=True)):
        # the engine's payoff (odd chip to the first winner, R32), or ACPC's even split of
        # a tied pot (no odd chip), as the log writes it (a few decimals)
        if want != got and abs(want - _acpc_value(state, p)) >= _LOG_DECIMALS:
            raise ProtocolError(f"position {p} ({log.players[p]}) wins {got} by the rules, the "
                                f"log says {want if want.denominator == 1 else float(want)}, in {_short(text)}")
    try:
        return from_state(state, players=list(log.players), hand=log.hand_number)
    except HoldemError as exc:
        raise ProtocolError(f"{exc} in {_short(text)}") from None


def import_log(lines: Iterable[str], gamedef: GameDef) -> list[HandHistory]:
    """Every ``STATE:`` line of an ACPC or Pluribus log as a hand history (other lines, such
    as ``#`` comments and ``SCORE:``, are skipped). A bad line raises :class:`ProtocolError`,
    and so does a stream that is not valid text in its encoding. ``lines`` must give ``str``
    lines (a text file, a list of str; a whole text: ``text.splitlines()``) and ``gamedef`` be
    a :class:`GameDef`, else :class:`TypeError`."""
    _gamedef_arg(gamedef, "import_log")
    if isinstance(lines, (str, bytes, bytearray, memoryview)):
        how = ("split it into lines: text.splitlines()" if isinstance(lines, str) else
               "decode it and split it into lines: data.decode('utf-8').splitlines()")
        raise TypeError(f"import_log: lines must be an iterable of str lines (a text file or "
                        f"a list), not one {type(lines).__name__} ({how})")
    name = getattr(lines, "name", None)
    if isinstance(lines, (io.RawIOBase, io.BufferedIOBase)):  # refused before a line is read:
        # a binary device's line (/dev/zero) has no end
        raise TypeError(f"import_log: lines must give str lines, not bytes (open the file in "
                        f"text mode): {type(lines).__name__} is a binary file")
    try:
        # a text file's lines are read with a bound (its own iterator reads a line whole)
        each = (_textfile.stream_lines(lines, str(name or "<stream>"), ProtocolError)
                if isinstance(lines, io.TextIOBase) else iter(lines))
    except TypeError:
        raise TypeError(f"import_log: lines must be an iterable of str lines (a text file or a "
                        f"list), not {type(lines).__name__}: {excerpt(lines)}") from None
    out = []
    try:
        for i, line in enumerate(each):
            if type(line) is not str and not isinstance(line, str):
                raise TypeError(
                    f"import_log: lines must give str lines, line {i + 1} is "
                    f"{type(line).__name__}: {excerpt(line)}"
                    + (" (open the file in text mode)" if isinstance(line, bytes) else ""))
            if line.startswith("STATE:"):
                out.append(import_state_line(line, gamedef))
    except UnicodeDecodeError as e:  # a stream the caller opened in text mode
        raise ProtocolError(f"{f'{name}: ' if name else ''}{_not_text(e)}") from e
    return out


