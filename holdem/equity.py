"""All-in equity of hands and ranges: exhaustive enumeration or seeded Monte Carlo, on any executor.

>>> r = equity(["AsKs", "QdQc"])
>>> r.exact, r.boards, round(100 * r[0].equity, 4)
(True, 1712304, 46.2145)
>>> r = equity(["AsKs", "QQ+"], samples=200_000, seed=1)
>>> r.exact, r.boards, abs(r[0].equity - 0.34586) < 5 * r[0].stderr
(False, 200000, True)

How the work is done
--------------------
Each player is a hand (two cards) or a :class:`~holdem.Range`. Combos blocked by the board,
the dead cards and the other players' hands are removed first.

*Exhaustive* (``exact=True``, or automatically when the work is small and no ``samples`` or
``target_se`` is given): every assignment of combos to players with no card in common, weighted
by the product of the combo weights, times every completion of the board. The loops enumerate
the missing board cards in increasing order, adding one card per loop level to an incremental
evaluator accumulator, and evaluate each hand by adding its two hole cards.

*Monte Carlo*: each sample draws a combo per player (uniformly, kept with probability weight /
largest weight), redraws all combos if two collide (rejection: this samples assignments in
proportion to the product of their weights, exactly as enumeration weighs them), then draws the
missing board cards uniformly from the cards left. The standard error is that of the mean pot
share per board (share 1 for a win, ``1/k`` for a ``k``-way tie, else 0), from exact integer
counts. With ``target_se`` the run goes in rounds of 16 chunks of 65,536 boards and stops after
the first round at which every player's standard error is at most ``target_se`` (or at
``samples``).

Determinism and parallelism
---------------------------
Work is cut into chunks whose sizes depend only on the problem; Monte Carlo chunk ``i`` uses a
generator seeded from (``seed``, ``i``) and results are combined in chunk order, so the same
seed gives bit-identical results with any executor and any number of workers. ``executor``:

* ``None``: in-process for small jobs, else a local process pool over all cores;
* ``"serial"``: in-process;
* any :class:`concurrent.futures.Executor` (process or thread pool, ...);
* a Dask cluster: ``Client("tcp://scheduler:8786").get_executor(pure=False)``;
* Ray, through a three-line adapter (Ray object refs convert to futures)::

      import ray

      @ray.remote
      def _call(fn, *args):
          return fn(*args)

      class RayExecutor:
          def submit(self, fn, *args):
              return _call.remote(fn, *args).future()

      holdem.equity(["AsKs", "QQ+"], samples=10**8, seed=1, executor=RayExecutor())
"""

from __future__ import annotations

import array
import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from itertools import chain
from typing import Any, Final, SupportsIndex

from holdem import _equity
from holdem._ints import int_or_none
from holdem._parallel import (
    ExecutorLike,
    Runner,
    master_seed,
    open_executor,
    split_even,
)
from holdem._progress import Progress
from holdem._shown import excerpt, fields_repr, literal
from holdem.cards import CARDS, CardLike, parse_cards
from holdem.errors import (
    DuplicateCardError,
    InvalidCardError,
    InvalidConfigError,
    InvalidHandError,
    InvalidRangeError,
)
from holdem.ranges import Range, _combo_bits

__all__ = ["EquityResult", "PlayerEquity", "PlayerLike", "equity"]

PlayerLike = Range | str | Iterable[CardLike]

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10
AUTO_EXACT_WORK: Final = 50_000_000
"""Hand evaluations up to which ``exact=None`` enumerates (about a fifth of a second per core)."""
AUTO_COUNT_LIMIT: Final = 10_000_000
"""Largest product of range sizes for which ``exact=None`` counts the valid assignments."""
EXACT_MAX_ASSIGNMENTS: Final = 5_000_000
"""Most combo assignments exhaustive enumeration will list."""
EXACT_CHUNK_BOARDS: Final = 1 << 18
EXACT_TASK_WORK: Final = 1 << 27
"""Most hand evaluations in one task of an enumeration (about half a second; progress is
shown between tasks)."""
"""Boards per exhaustive chunk (about)."""
MC_CHUNK: Final = 1 << 16
"""Monte Carlo samples per chunk; chunk ``i`` has its own seed."""
MC_ROUND_CHUNKS: Final = 16
"""Chunks between two checks of the ``target_se`` stop rule."""
MC_BATCH_CHUNKS: Final = 1 << 12
"""Most chunks planned at once without ``target_se`` (memory stays bounded for any
``samples``; batches change nothing in the results)."""
DEFAULT_SAMPLES: Final = 1_000_000
DEFAULT_MAX_SAMPLES: Final = 100_000_000
SMALL_WORK: Final = 20_000_000
"""Hand evaluations below which ``executor=None`` stays in-process."""


@dataclass(frozen=True)
class PlayerEquity:
    """One player's result: ``win`` (sole best hand), ``tie`` (best hand shared), ``equity``
    (share of the pot: wins plus ``1/k`` of each ``k``-way tie) and, for Monte Carlo, the
    standard error of ``equity``."""

    player: str
    win: float
    tie: float
    equity: float
    stderr: float | None = None


@dataclass(frozen=True)
class EquityResult:
    """The result of :func:`equity`: one :class:`PlayerEquity` per player, in input order.

    ``boards`` is the number of boards evaluated (for ranges enumerated exhaustively: the
    number of (combo assignment, board) pairs), ``exact`` tells enumeration from Monte Carlo,
    ``seed`` is the master seed used (``None`` for enumeration).
    """

    players: tuple[PlayerEquity, ...]
    boards: int
    exact: bool
    seed: int | None = None

    @property
    def equities(self) -> tuple[float, ...]:
        return tuple(p.equity for p in self.players)

    @property
    def stderr(self) -> float | None:
        """The largest standard error over the players (``None`` when exact)."""
        errs = [p.stderr for p in self.players if p.stderr is not None]
        return max(errs) if errs else None

    def __len__(self) -> int:
        return len(self.players)

    def __getitem__(self, i: int) -> PlayerEquity:
        return self.players[i]

    def __iter__(self) -> Iterator[PlayerEquity]:
        return iter(self.players)

    def __repr__(self) -> str:
        return fields_repr(self)  # (a seed of any size: in hex when too long for decimal)

    def __str__(self) -> str:
        seed = "None" if self.seed is None else literal(self.seed)  # (hex when too long)
        how = "exact" if self.exact else f"Monte Carlo, seed {seed}"
        lines = [f"{self.boards:,} board{'' if self.boards == 1 else 's'} ({how})"]
        for p in self.players:
            se = "" if p.stderr is None else f" ± {100 * p.stderr:.3f}"
            lines.append(
                f"  {p.player:<24} equity {100 * p.equity:8.4f}%{se}  "
                f"win {100 * p.win:8.4f}%  tie {100 * p.tie:7.4f}%"
            )
        if not self.exact:
            lines.append("  (± is the standard error in percentage points: the exact equity "
                         "is within 2 of them about 95% of the time)")
        return "\n".join(lines)


# --- input ---------------------------------------------------------------------------------


def _player(x: PlayerLike, who: str) -> tuple[str, tuple[int, int] | None, Range | None]:
    """(label, hand, range): exactly one of hand and range is set. ``who`` names ``x`` in
    errors ("player 2")."""
    if isinstance(x, Range):
        return str(x), None, x
    if isinstance(x, str):
        try:
            cards = parse_cards(x)
        except DuplicateCardError:
            # "AsKs, AsQs": range text of exact combos that share a card
            rng = _range_or_none(x)
            if rng is None:
                raise
            return x.strip(), None, rng
        except InvalidCardError:
            return x.strip(), None, Range(x)
        if len(cards) not in (0, 2):
            # "AhKh, QsQd": range text of exact combos also reads as a list of cards
            rng = _range_or_none(x)
            if rng is not None:
                return x.strip(), None, rng
    else:
        try:
            cards = parse_cards(x)
        except InvalidCardError as e:
            raise InvalidHandError(
                f"{who}: a hand is two cards (or give a Range or range text): {e}"
            ) from None
    if len(cards) != 2:
        raise InvalidHandError(f"{who}: a hand has 2 cards, not {len(cards)}: {x!r}")
    a, b = int(cards[0]), int(cards[1])
    return f"{CARDS[a]}{CARDS[b]}", (max(a, b), min(a, b)), None


def _range_or_none(text: str) -> Range | None:
    """``Range(text)``, or ``None`` when the text is not range notation."""
    try:
        return Range(text)
    except InvalidRangeError:
        return None


@dataclass(frozen=True)
class _Problem:
    n: int
    cards: bytes          # uint8[2 * ncombos]
    offsets: bytes        # int32[n + 1]
    weight: bytes         # float64[ncombos]: weight times a power of two (see _problem)
    accept: bytes         # float64[ncombos]: weight / largest weight of the player
    board: bytes          # uint8[nb]
    dead: int             # 52-bit mask of board and dead cards


def _problem(
    players: Sequence[PlayerLike], board: str | Iterable[CardLike], dead: str | Iterable[CardLike]
) -> tuple[list[str], _Problem]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidConfigError(
            "players must be a list of hands or ranges, e.g. ['AsKs', 'QQ+']"
        )
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidConfigError(
            f"equity needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}"
        )
    board_c = parse_cards(board)
    if len(board_c) not in (0, 3, 4, 5):
        raise InvalidHandError(f"a board has 0, 3, 4 or 5 cards, not {len(board_c)}")
    dead_c = parse_cards(dead)
    known: dict[int, str] = {}
    for c in board_c:
        known[int(c)] = "the board"
    for c in dead_c:
        if int(c) in known:
            raise DuplicateCardError(f"card {c} is both dead and on {known[int(c)]}")
        known[int(c)] = "the dead cards"
    parsed = [_player(x, f"player {i + 1}") for i, x in enumerate(players)]
    for i, (label, hand, _) in enumerate(parsed):
        if hand is None:
            continue
        for h in hand:
            if h in known:
                what = known[h]
                raise DuplicateCardError(
                    f"card {CARDS[h]} of player {i + 1} ({label}) is also in {what}"
                )
            known[h] = f"player {i + 1}'s hand ({label})"
    blocked = 0
    for h in known:
        blocked |= 1 << h
    labels: list[str] = []
    cards = bytearray()
    offsets = [0]
    weights: list[float] = []
    accept: list[float] = []
    bits = _combo_bits()
    for i, (label, hand, rng) in enumerate(parsed):
        labels.append(label)
        if hand is not None:
            pairs: list[tuple[int, int]] = [hand]
            ws = [1.0]
        else:
            assert rng is not None
            # the range's own (int, int) combos: no Card objects made and read back
            kept = [(c, w) for c, w in rng._weights.items() if not blocked & bits[c]]
            if not kept:
                raise InvalidRangeError(
                    f"player {i + 1}'s range {label!r} has no combos left once the board, dead "
                    "cards and other players' hands are removed"
                )
            pairs = [c for c, _ in kept]
            ws = [w for _, w in kept]
        top = max(ws)
        # enumeration multiplies the weights of the players: scale each player's so the largest
        # is in [1, 2), by a power of two (exact, so the equities keep every bit) so that the
        # products of tiny weights do not underflow to 0
        cards += bytes(chain.from_iterable(pairs))
        if top == 1.0:  # (the usual case: no scaling, and w / top is w)
            weights += ws
            accept += ws
        else:
            shift = 1 - math.frexp(top)[1]
            weights += [math.ldexp(w, shift) for w in ws]
            accept += [w / top for w in ws]
        offsets.append(len(weights))
    board_mask = 0
    for c in board_c:
        board_mask |= 1 << int(c)
    for c in dead_c:
        board_mask |= 1 << int(c)
    prob = _Problem(
        n=len(players),
        cards=bytes(cards),
        offsets=_i32(offsets),
        weight=_f64(weights),
        accept=_f64(accept),
        board=bytes(int(c) for c in board_c),
        dead=board_mask,
    )
    return labels, prob


def _i32(xs: Sequence[int]) -> bytes:
    import array

    return array.array("i", xs).tobytes()


def _f64(xs: Sequence[float]) -> bytes:
    import array

    return array.array("d", xs).tobytes()


def _mv(b: bytes, fmt: str) -> memoryview[Any]:
    """``b`` viewed as int32 (``"i"``) or float64 (``"d"``) items, for the kernels."""
    view = memoryview(b)
    return view.cast("i") if fmt == "i" else view.cast("d")


# --- tasks (module level: they travel to worker processes) ---------------------------------


def _exact_task(
    prob: _Problem, assign: bytes, aweight: bytes, units: list[tuple[int, int]], first: int
) -> list[tuple[int, float, list[float], list[float]]]:
    """Enumerate chunks of units (relative to the assignment slice given); one result each."""
    out = []
    for u0, u1 in units:
        out.append(
            _equity.exact_chunk(
                prob.cards, prob.board, prob.dead, prob.n, _mv(assign, "i"), _mv(aweight, "d"),
                u0, u1, first,
            )
        )
    return out


def _mc_chunk(prob: _Problem, count: int, seed: int) -> tuple[list[int], list[int], int]:
    """One Monte Carlo chunk: ``count`` boards from a generator seeded ``seed``."""
    result: tuple[list[int], list[int], int] = _equity.mc_chunk(
        prob.cards, _mv(prob.offsets, "i"), _mv(prob.accept, "d"), prob.board, prob.dead,
        count, seed,
    )
    return result


# --- the public function -------------------------------------------------------------------


def equity(
    players: Sequence[PlayerLike],
    board: str | Iterable[CardLike] = (),
    dead: str | Iterable[CardLike] = (),
    *,
    samples: int | None = None,
    seed: SupportsIndex | None = None,
    executor: ExecutorLike = None,
    exact: bool | None = None,
    target_se: float | None = None,
    progress: bool | float | None = None,
) -> EquityResult:
    """All-in equity of 2..10 players, each a hand (``"AsKs"``, two cards) or a range.

    ``board``: 0, 3, 4 or 5 known board cards; ``dead``: cards out of play. ``exact=None``
    enumerates when that is cheap and neither ``samples`` nor ``target_se`` is given, Monte
    Carlo otherwise (``samples`` boards, default 1,000,000; with ``target_se`` the most boards,
    default 100,000,000). ``exact=True`` always enumerates, ``exact=False`` never.
    ``seed``: any int makes Monte Carlo reproducible, on any executor (ints are taken modulo
    2**64; ``None`` draws one, reported as ``result.seed``); see the module docstring for
    ``executor``. ``progress``: boards done, rate and ETA on stderr (``None``: long runs only,
    a bar on a terminal, else a line every 10 s; ``True``; ``False``; or seconds between
    lines, see :mod:`holdem._progress`). Ctrl-C cancels the chunks not started and stops a
    process pool made for the call at once.

    Messages number the players from 1, in the order given (the convention of every message
    meant for people: ``holdem play`` says seat 1, PHH says p1).

    Raises :class:`InvalidConfigError` (player count, samples, seed, executor),
    :class:`InvalidHandError`, :class:`InvalidCardError` / :class:`DuplicateCardError`
    (cards used twice) and :class:`InvalidRangeError` (range text, or nothing left to deal).

    >>> print(equity(["7h2c", "AdAh"]))  # doctest: +NORMALIZE_WHITESPACE
    1,712,304 boards (exact)
      7h2c  equity  11.7944%  win  11.5723%  tie  0.4443%
      AdAh  equity  88.2056%  win  87.9834%  tie  0.4443%
    """
    if exact is not None and exact is not True and exact is not False:  # (1 == True)
        raise InvalidConfigError(f"exact must be None, True or False, not {excerpt(exact)}")
    if samples is not None:
        count = int_or_none(samples)
        if count is None or not 1 <= count <= 1 << 53:
            raise InvalidConfigError(f"samples must be an int 1..2**53, not {excerpt(samples)}")
        samples = count
    if target_se is not None and (
        isinstance(target_se, bool) or not isinstance(target_se, (int, float))
        or not 0 < target_se < 1
    ):
        raise InvalidConfigError(f"target_se must be a number in (0, 1), not {excerpt(target_se)}")
    if exact is True and (samples is not None or target_se is not None):
        raise InvalidConfigError("exact=True enumerates every board: do not give samples "
                                 "or target_se")
    if isinstance(executor, str) and executor != "serial":
        raise InvalidConfigError(f"executor must be None, 'serial' or an executor, "
                                 f"not {excerpt(executor)}")
    kept, master = master_seed(seed)
    if (samples is None and target_se is None and exact is not False
            and (progress is None or progress is False)
            and (executor is None or (type(executor) is str and executor == "serial"))):
        small = _small_hands(players, board, dead)
        if small is not None:
            return small
    labels, prob = _problem(players, board, dead)
    n = prob.n
    counts = [
        int.from_bytes(prob.offsets[4 * (p + 1):4 * (p + 2)], "little", signed=True)
        - int.from_bytes(prob.offsets[4 * p:4 * (p + 1)], "little", signed=True)
        for p in range(n)
    ]
    k = 5 - len(prob.board)
    rem = 52 - bin(prob.dead).count("1") - 2 * n
    if rem < 0:  # not even the hole cards can be dealt
        raise InvalidHandError(
            f"only {rem + 2 * n} cards are left for the {2 * n} hole cards of {n} players and "
            f"the {k} board cards still to come: too many dead cards")
    if rem < k:
        raise InvalidHandError(
            f"only {rem} cards are left for the {k} board cards still to come: too many "
            "dead cards"
        )
    per = math.comb(rem, k)
    bound = math.prod(counts)
    # automatic: enumerate when the valid assignments (counted when the product of the
    # range sizes is small enough to walk quickly) times the boards are little work
    want_exact = exact is True or (
        exact is None and samples is None and target_se is None
        and (bound * per * n <= AUTO_EXACT_WORK or bound <= AUTO_COUNT_LIMIT)
        and per * n <= AUTO_EXACT_WORK
    )
    if want_exact:
        limit = EXACT_MAX_ASSIGNMENTS if exact else max(1, AUTO_EXACT_WORK // (per * n))
        got = _equity.valid_assignments(
            prob.cards, _mv(prob.offsets, "i"), _mv(prob.weight, "d"), prob.dead, limit
        )
        if got is None:
            if exact:
                raise InvalidConfigError(
                    f"more than {EXACT_MAX_ASSIGNMENTS:,} combo assignments: too many to "
                    "enumerate; use Monte Carlo (samples=... or target_se=...)"
                )
        else:
            assign, aweight = got
            if not aweight:
                raise _no_deal()
            return _run_exact(labels, prob, assign, aweight, k, rem, per, executor, progress)
    probe = _equity.valid_assignments(
        prob.cards, _mv(prob.offsets, "i"), _mv(prob.weight, "d"), prob.dead, 0
    )
    if probe is not None:  # not even one assignment
        raise _no_deal()
    return _run_mc(labels, prob, samples, target_se, kept, master, executor, progress)


_CARD_ID: Final = {str(c): int(c) for c in CARDS}  # "As" -> 51: the canonical names only
_HAND_ASSIGN: Final = [memoryview(array.array("i", range(n)).tobytes()).cast("i")
                       for n in range(MAX_PLAYERS + 1)]  # hands only: player p deals combo p
_ONE: Final = memoryview(array.array("d", [1.0]).tobytes()).cast("d")


def _canonical(text: str, mask: int) -> tuple[list[int], int] | None:
    """The card ids of ``text`` written as canonical names without separators ("2c7d9h"), and
    ``mask`` with them added; None for any other text or a card met twice."""
    if len(text) % 2:
        return None
    ids = []
    for i in range(0, len(text), 2):
        c = _CARD_ID.get(text[i:i + 2])
        if c is None or mask >> c & 1:
            return None
        mask |= 1 << c
        ids.append(c)
    return ids, mask


def _small_hands(players: object, board: object, dead: object) -> EquityResult | None:
    """:func:`equity` of 2..10 hands written as canonical text ("AsKs"; board and dead cards
    likewise, or none) whose boards fit one chunk (a flop, turn or river to come), read and
    enumerated without the general path's machinery: the same result, bit for bit
    (``tests/test_equity.py`` compares them), in tens of microseconds. None for anything else,
    which the general path reads (and refuses, with its errors)."""
    if type(players) is not list and type(players) is not tuple:
        return None
    n = len(players)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        return None
    got = _canonical(board, 0) if type(board) is str else None
    if got is None or len(got[0]) not in (0, 3, 4, 5):
        return None
    board_ids, mask = got
    no_dead = type(dead) is tuple and not dead  # the default (not ==: arrays compare per item)
    more = _canonical(dead, mask) if type(dead) is str else ([], mask) if no_dead else None
    if more is None:
        return None
    dead_mask = taken = more[1]
    cards = bytearray()
    for x in players:
        hand = _canonical(x, taken) if type(x) is str and len(x) == 4 else None
        if hand is None:
            return None
        (a, b), taken = hand
        cards += bytes((a, b) if a > b else (b, a))
    k = 5 - len(board_ids)
    rem = 52 - dead_mask.bit_count() - 2 * n
    if rem < k:
        return None
    first, step = _exact_units(k, rem, math.comb(rem, k))
    if first > step:  # more than one chunk
        return None
    boards, total, wins, ties = _equity.exact_chunk(
        bytes(cards), bytes(board_ids), dead_mask, n, _HAND_ASSIGN[n], _ONE, 0, first, first)
    return _exact_result(players, boards, total, wins, ties)


def _no_deal() -> InvalidRangeError:
    return InvalidRangeError("no way to deal every player a hand: the ranges only hold "
                             "combos that share cards")


def _shares(n: int, wins: Sequence[float], ties: Sequence[float], p: int) -> tuple[float, float, float]:
    """(win, tie, pot share) sums of player ``p``."""
    tie = sum(ties[p * (n + 1) + k] for k in range(2, n + 1))
    share = wins[p] + sum(ties[p * (n + 1) + k] / k for k in range(2, n + 1))
    return float(wins[p]), float(tie), float(share)


def _exact_units(k: int, rem: int, per: int) -> tuple[int, int]:
    """(units per assignment, units per chunk) of an enumeration of ``per`` boards of ``k``
    cards from ``rem``: a unit is a first board card (one unit on the river); a chunk holds
    about ``EXACT_CHUNK_BOARDS`` boards."""
    first = rem - k + 1 if k > 0 else 1
    return first, max(1, -(-EXACT_CHUNK_BOARDS * first // per))


def _exact_result(labels: Sequence[str], boards: int, total: float, wins: Sequence[float],
                  ties: Sequence[float]) -> EquityResult:
    """An enumeration's result from its sums (``total``: the weight of every deal)."""
    n = len(labels)
    out = []
    for p in range(n):
        win, tie, share = _shares(n, wins, ties, p)
        out.append(PlayerEquity(labels[p], win / total, tie / total, share / total))
    return EquityResult(tuple(out), boards, True, None)


def _run_exact(
    labels: list[str], prob: _Problem, assign: bytes, aweight: bytes,
    k: int, rem: int, per: int, executor: ExecutorLike, progress: bool | float | None,
) -> EquityResult:
    n = prob.n
    a_count = len(aweight) // 8
    first, step = _exact_units(k, rem, per)
    units = a_count * first
    chunks = -(-units // step)  # chunk c: units c * step .. min((c + 1) * step, units)
    work = a_count * per * n

    def tasks(groups: int) -> Iterator[tuple[Any, ...]]:
        # made as the runner takes them (a long enumeration has millions of chunks)
        for group in split_even(range(chunks), groups):
            u0, u1 = group[0] * step, min((group[-1] + 1) * step, units)
            a0, a1 = u0 // first, (u1 - 1) // first + 1
            rel = [(u - a0 * first, min(u + step, units) - a0 * first)
                   for u in range(u0, u1, step)]
            yield prob, assign[4 * n * a0:4 * n * a1], aweight[8 * a0:8 * a1], rel, first

    boards = 0
    total = 0.0
    wins = [0.0] * n
    ties = [0.0] * (n * (n + 1))
    with (open_executor(executor, small=work <= SMALL_WORK or chunks == 1) as runner,
          Progress("equity", "boards", a_count * per, progress) as bar):
        # a few tasks a worker, and more for long runs: a progress line comes per task
        groups = max(4 * runner.workers if runner.executor else 1, -(-work // EXACT_TASK_WORK))
        for rs in runner.imap(_exact_task, tasks(groups)):
            for b, t, w, ti in rs:  # summed in chunk order, whatever the tasks
                boards += b
                total += t
                wins = [x + y for x, y in zip(wins, w, strict=True)]
                ties = [x + y for x, y in zip(ties, ti, strict=True)]
            bar.update(sum(r[0] for r in rs))
    if not total > 0.0:  # every deal's weight underflowed, even scaled (see _problem)
        raise InvalidRangeError("the combo weights are too small: every way to deal the "
                                "hands weighs less than the smallest float")
    return _exact_result(labels, boards, total, wins, ties)


def _run_mc(
    labels: list[str], prob: _Problem, samples: int | None, target_se: float | None,
    kept: int, master: int, executor: ExecutorLike, progress: bool | float | None,
) -> EquityResult:
    n = prob.n
    total = samples if samples is not None else (
        DEFAULT_SAMPLES if target_se is None else DEFAULT_MAX_SAMPLES
    )
    # chunk i has min(MC_CHUNK, total - i * MC_CHUNK) samples; rounds of chunks are planned
    # one at a time (results are summed in chunk order, so rounds change nothing in them)
    n_chunks = -(-total // MC_CHUNK)
    per_round = MC_ROUND_CHUNKS if target_se is not None else MC_BATCH_CHUNKS
    n_rounds = -(-n_chunks // per_round)
    wins = [0] * n
    ties = [0] * (n * (n + 1))
    done = 0
    stderr: list[float] = []
    with ExitStack() as stack:
        bar = stack.enter_context(Progress("equity", "boards", total, progress))
        runner: Runner | None = None
        for r in range(n_rounds):
            chunk_ids = range(r * per_round, min((r + 1) * per_round, n_chunks))
            round_sizes = [min(MC_CHUNK, total - i * MC_CHUNK) for i in chunk_ids]
            if runner is None:
                # with executor=None a stop-rule run does its first round in-process and only
                # starts a pool if it needs more rounds (results are the same either way)
                work = (total - done) * n
                first_round_only = executor is None and target_se is not None and r == 0
                small = work <= SMALL_WORK or n_chunks == 1 or first_round_only
                if first_round_only:
                    current = Runner(None, 1)
                else:
                    runner = current = stack.enter_context(open_executor(executor, small=small))
            else:
                current = runner
            back = 0

            def count(k: int, round_sizes: list[int] = round_sizes) -> None:
                nonlocal back
                bar.update(sum(round_sizes[back:back + k]))
                back += k

            try:
                results = current.map_seeded(
                    _mc_chunk, (prob,), round_sizes, master, start=chunk_ids[0], done=count,
                )
            except OverflowError:
                raise InvalidRangeError(
                    "the ranges collide too often to sample (a million redraws in a row): "
                    "narrow them or use exact=True"
                ) from None
            for w, t, _ in results:
                wins = [x + y for x, y in zip(wins, w, strict=True)]
                ties = [x + y for x, y in zip(ties, t, strict=True)]
            done += sum(round_sizes)
            stderr = [_stderr(n, wins, ties, p, done) for p in range(n)]
            if target_se is not None and max(stderr) <= target_se:
                break
    out = []
    for p in range(n):
        win, tie, share = _shares(n, wins, ties, p)
        out.append(PlayerEquity(labels[p], win / done, tie / done, share / done, stderr[p]))
    return EquityResult(tuple(out), done, False, kept)


def _stderr(n: int, wins: Sequence[int], ties: Sequence[int], p: int, count: int) -> float:
    """Standard error of the mean pot share of player ``p`` over ``count`` boards."""
    s1 = wins[p] + sum(ties[p * (n + 1) + k] / k for k in range(2, n + 1))
    s2 = wins[p] + sum(ties[p * (n + 1) + k] / (k * k) for k in range(2, n + 1))
    if count < 2:
        return math.inf
    mean = s1 / count
    var = max(0.0, (s2 - count * mean * mean) / (count - 1))
    return math.sqrt(var / count)
