"""The ``holdem`` command line (also ``python -m holdem``).

Commands::

    holdem equity AsKs QdQc [--board 2c7d9h] [--dead 3s] [--samples N] [--seed S]
                            [--workers N | --scheduler ADDRESS]
    holdem simulate [--players 6] [--hands N] [--agents ...] [--seed S] [--duplicate]
                    [--chart SVG]
                    [--workers N | --scheduler ADDRESS]
    holdem replay FILE|DIR...      # PHH .phh/.phhs, PokerStars .txt; non-zero exit on a mismatch
                  [--workers N | --scheduler ADDRESS]
    holdem export FILE...          # PHH -> PokerStars-style text on stdout
                  [--workers N | --scheduler ADDRESS]
    holdem stats FILE... [--chart SVG] [--grid SVG]  # player statistics of PHH/PokerStars files
                 [--workers N | --scheduler ADDRESS]
    holdem play [--players 3] ...  # play against built-in agents, reading moves from stdin

Every command has ``--help``. Bad arguments print one line on stderr and exit with code 2;
errors in the input (a bad card, a broken file) also print one line, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import secrets
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any, NoReturn

from holdem._version import __version__
from holdem.cli import _hands
from holdem.errors import HoldemError, InvalidConfigError

__all__ = ["main"]

PROG = "holdem"


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error message (and exit code 2) instead of usage + message."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


class CommandError(Exception):
    """A user-facing failure of a command: printed as one line, exit code ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


MAX_FLAG: int = 1 << 53
"""Largest value of a count or chip flag: the engine's chip limit (2**53)."""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise _not_a_number(text, "a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    if value > MAX_FLAG:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is above the limit of 2**53 "
                                         f"({MAX_FLAG:,})")
    return value


def _not_a_number(text: str, what: str) -> argparse.ArgumentTypeError:
    shown = repr(text) if len(text) <= 40 else f"{text[:20]!r}... ({len(text)} characters)"
    if text.strip().lstrip("+-").isdigit():  # too many digits for int()
        return argparse.ArgumentTypeError(f"{shown} is too large")
    return argparse.ArgumentTypeError(f"{shown} is not {what}")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of seconds") from None
    if not 0 < value < 1e6:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: give seconds above 0 and below "
                                         f"1000000")
    return value


def _add_progress(p: argparse.ArgumentParser) -> None:
    p.add_argument("--progress", nargs="?", type=_seconds, const=True, metavar="SECONDS",
                   help="report progress (count, rate, ETA) on stderr: a bar on a terminal, "
                   "else a line every 10 s; with SECONDS, a line that often. Default: only for "
                   "runs longer than a second (terminal) or 10 s (log file, CI)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress report")


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise _not_a_number(text, "an integer seed") from None
    if not 0 <= value < 1 << 64:  # (the API reduces an int modulo 2**64: 2**64 would be 0)
        raise argparse.ArgumentTypeError(f"{text!r}: seeds are 0..2**64-1")
    return value


def _int_range(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise _not_a_number(text, "a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text[:40]!r} is not between {low} and {high}")
        return value

    return parse


def _add_table(p: argparse.ArgumentParser, *, players: tuple[int, str],
               hands: tuple[int | None, str], agents: str, stack: str, seed: str) -> None:
    """The table arguments of ``simulate`` and ``play`` (defaults and help as given)."""
    p.add_argument("--players", type=_int_range(2, 10), default=players[0], metavar="N",
                   help=players[1])
    p.add_argument("--hands", type=_positive_int, default=hands[0], metavar="N", help=hands[1])
    p.add_argument("--agents", metavar="NAMES", help=agents)
    p.add_argument("--stack", type=_positive_int, metavar="CHIPS", help=stack)
    p.add_argument("--big-blind", type=_positive_int, default=2, metavar="CHIPS",
                   help="big blind (default 2; the small blind is half, R5)")
    p.add_argument("--limit", choices=("no", "pot", "fixed"), default="no",
                   help="betting structure (default no-limit)")
    p.add_argument("--seed", type=_seed, metavar="S", help=seed)


def _max_workers() -> int:
    """The most local worker processes ``--workers`` takes: 4 per core this process may use,
    and at least 64. The pool starts them all at once, whatever the size of the job (a
    mistyped ``--workers 100000`` forked until the machine ran out), and CPU-bound work gains
    nothing past one per core."""
    from holdem._parallel import cpu_count

    return max(64, 4 * cpu_count())


def _workers(text: str) -> int:
    value = _positive_int(text)
    most = _max_workers()
    if value > most:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is above the limit of {most} worker processes on this machine (4 "
            f"per core it may use, and at least 64)")
    return value


def _add_parallel(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--workers", type=_workers, metavar="N",
                       help="local worker processes (default: every core when the job is big; "
                            "1 = in this process; at most 4 per core, at least 64)")
    group.add_argument("--scheduler", metavar="ADDRESS",
                       help="a dask.distributed scheduler address (tcp://host:8786)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``holdem`` command (exposed for tests and docs)."""
    parser = _Parser(
        prog=PROG,
        description="Texas Hold'em engine: equity, simulation, hand histories, play.",
        epilog="Run 'holdem COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser(
        "equity",
        help="all-in equity of hands or ranges (exact or Monte Carlo)",
        description="All-in equity of 2-10 players, each a hand (AsKs) or a range (QQ+,AKs). "
        "Enumerates every board when that is cheap, else samples boards (Monte Carlo).",
        epilog="examples: holdem equity AsKs QdQc;  holdem equity AhKh 'QQ+,AKs' --board "
        "Qs7h2c --samples 200000 --seed 1",
    )
    p.add_argument("players", nargs="+", metavar="HAND",
                   help="two cards like AsKs, or a range like 'QQ+,AKs' (random: any two "
                        "cards; 2 to 10 of them)")
    p.add_argument("--board", default="", metavar="CARDS", help="known board cards: 0, 3, 4 or 5")
    p.add_argument("--dead", default="", metavar="CARDS", help="cards out of play")
    p.add_argument("--samples", type=_positive_int, metavar="N",
                   help="Monte Carlo with N boards (default: exact when cheap)")
    p.add_argument("--seed", type=_seed, metavar="S", help="seed for Monte Carlo (reproducible)")
    p.add_argument("--exact", action="store_true", help="always enumerate every board")
    _add_parallel(p)
    _add_progress(p)
    p.set_defaults(run=_cmd_equity, parser=p)

    p = sub.add_parser(
        "simulate",
        help="play many hands between built-in agents and summarize who wins",
        description="Play --hands hands of cash hold'em between built-in agents (each hand "
        "starts from --stack chips) and print a summary: chips won, big blinds per 100 hands "
        "with a 95% confidence interval, showdowns. The same --seed gives the same result "
        "with any --workers or --scheduler. Long runs report progress on stderr (see "
        "--progress); Ctrl-C stops the workers at once.",
        epilog="example: holdem simulate --players 6 --hands 10000 --seed 1",
    )
    _add_table(p, players=(6, "players at the table, 2-10 (default 6)"),
               hands=(10_000, "hands to play (default 10000)"),
               agents="comma-separated agents, repeated over the seats as needed, at most one "
               "per seat (built-in: call, random, equity; default random,call,equity)",
               stack="chips every agent starts each hand with (default 100 big blinds)",
               seed="seed (default: a fresh one, printed with the result)")
    p.add_argument("--duplicate", nargs="?", const="rotations", choices=("rotations",
                   "permutations"), help="duplicate match: play every deal once per rotation "
                   "of the agents over the seats (or per permutation), so the luck of the cards "
                   "cancels; --hands then counts deals")
    p.add_argument("--chart", metavar="SVG",
                   help="write the cumulative winnings of each agent (with the 95%% band) to "
                   "this SVG file")
    _add_parallel(p)
    _add_progress(p)
    p.set_defaults(run=_cmd_simulate, parser=p)

    p = sub.add_parser(
        "replay",
        help="replay hand histories (PHH, PokerStars) and check their final stacks",
        description="Replay each hand of the given files through the rules engine: every "
        "action must be legal and the final stacks must equal the file's (PHH "
        "finishing_stacks; PokerStars: what the text's bets, uncalled bets, rake and collected "
        "amounts leave). A folder is searched for .phh, .phhs and .txt (PokerStars) files "
        "(a .txt file that does not start with a PokerStars hand is skipped). Standard input "
        "('-') may hold PHH or PokerStars text. "
        "Amounts with decimals (dollars and cents) are played in the file's smallest unit. A "
        "file that splits an odd chip in halves (where R32 gives the whole chip to the first "
        "winner left of the button) is counted apart and is not a failure. The hands are "
        f"replayed in chunks of {_hands.CHUNK_HANDS}, on every core when the files are big "
        "(see --workers), and reported in the files' order. Exit code 1 if any "
        "hand fails; 2 if a file given is missing or no hand was found.",
        epilog="examples: holdem replay hands/;  holdem replay pluribus.phh --chip-unit 0.5",
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help=".phh, .phhs or PokerStars .txt files, or folders of them ('-' for stdin)")
    p.add_argument("--chip-unit", metavar="UNIT",
                   help="play in chips of UNIT (e.g. 0.5 or 0.01; default: the file's smallest "
                   "unit)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only failures and the total")
    p.add_argument("-v", "--verbose", action="store_true", help="print every hand's final stacks")
    _add_parallel(p)
    p.set_defaults(run=_cmd_replay, parser=p)

    p = sub.add_parser(
        "play",
        help="play hands against built-in agents in the terminal",
        description="Play hold'em against built-in agents: you are seat 1, stacks carry over "
        "and the button moves each hand. Moves are read one per line from stdin (type 'help' "
        "at the prompt), so a script can play too.",
    )
    _add_table(p, players=(3, "players at the table including you, 2-10 (default 3)"),
               hands=(None, "stop after N hands (default: until you quit or a side is broke)"),
               agents="comma-separated agents for the other seats, repeated as needed, at "
               "most one per seat (built-in: call, random, equity; default random)",
               stack="starting stack of every player (default 100 big blinds)",
               seed="seed for the cards and the agents (default: a fresh one, printed)")
    p.add_argument("--save", metavar="PATH",
                   help="write every hand played to PATH as PHH (.phhs; see 'holdem replay')")
    p.set_defaults(run=_cmd_play, parser=p)

    p = sub.add_parser(
        "export",
        help="convert PHH hand histories to PokerStars-style text",
        description="Write the hands of the given .phh/.phhs files as PokerStars-style hand "
        "histories (for tracking software) on stdout or to --output. The hands are converted "
        f"in chunks of {_hands.CHUNK_HANDS}, on every core when the files are big (see "
        "--workers); the text is the same with any number of workers.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs files ('-' for stdin)")
    p.add_argument("-o", "--output", metavar="PATH", help="write to PATH instead of stdout")
    _add_parallel(p)
    p.set_defaults(run=_cmd_export, parser=p)

    p = sub.add_parser(
        "stats",
        help="player statistics (VPIP, PFR, 3-bet, aggression, WTSD, bb/100...) of hand histories",
        description="Replay the hands of the given PHH files (.phh/.phhs) and PokerStars hand "
        "histories (.txt; a folder means every such file inside it) and print one row per player: hands, VPIP, PFR, 3-bet, fold to "
        "3-bet, c-bet (percentages), aggression factor, WTSD, W$SD, net won, bb/100 with its "
        "95% interval and the all-in adjusted bb/100 (from the exact equities of the all-in "
        "hands; see --allin-samples). Net won is in the files' units (dollars "
        "and cents for a cash game in dollars; a player's hands in different units, cash "
        "dollars and tournament chips, are added as they are: give them separately). The hands are replayed in chunks of "
        f"{_hands.CHUNK_HANDS}, on every core when the files are big (see --workers): the output is "
        "the same with any --workers or --scheduler. A file that cannot be read or replayed "
        "stops the command with one line on stderr (exit code 2): the first bad hand in "
        "the files' order.",
        epilog="example: holdem stats hands/ --chart winnings.svg",
    )
    p.add_argument("files", nargs="+", metavar="FILE",
                   help=".phh, .phhs or PokerStars .txt files, or folders of them ('-' for "
                   "stdin)")
    p.add_argument("--chart", metavar="SVG",
                   help="write the cumulative winnings of the players to this SVG file: the "
                   "ten with the most hands, with 95%% bands when there are at most four")
    p.add_argument("--grid", metavar="SVG",
                   help="write the 13x13 grid of how often --player played each starting hand "
                   "(VPIP, hands with known cards) to this SVG file")
    p.add_argument("--player", metavar="NAME",
                   help="the player of --grid (default: the one with the most hands)")
    p.add_argument("--allin-samples", type=_positive_int, metavar="N",
                   help="estimate the equities of each preflop all-in from N random boards "
                   "(seeded by the cards: the same hand always gives the same estimate) "
                   "instead of enumerating every board, 7-10 ms per all-in; for files with "
                   "many all-ins (with 10,000 boards, several times faster); N at least the "
                   "boards left enumerates them, exactly")
    _add_parallel(p)
    p.set_defaults(run=_cmd_stats, parser=p)
    return parser


# --- parallel work ---------------------------------------------------------------------------


@contextmanager
def _executor(args: argparse.Namespace) -> Iterator[Any]:
    """The ``executor`` argument for ``--workers N`` / ``--scheduler ADDRESS`` (else ``None``:
    the library decides, in-process for small jobs, all local cores for big ones)."""
    if args.scheduler:
        try:
            import distributed
        except ImportError:
            raise CommandError(
                "--scheduler needs dask.distributed: pip install 'holdem-engine[dask]' (from a "
                "source checkout: pip install '.[dask]')"
            ) from None
        try:
            make_client: Any = distributed.Client  # untyped library: keep mypy strict here
            client: Any = make_client(args.scheduler, timeout=10)
        except (OSError, TimeoutError, ValueError) as e:
            raise CommandError(f"cannot reach the scheduler at {args.scheduler}: {e}") from None
        import concurrent.futures
        import logging

        # the client logs a lost scheduler with a traceback at ERROR: the command says it;
        # and tornado, which runs the client's loop, logs one for a task that Ctrl-C
        # cancelled while its result was on the way (FutureCancelledError): the command
        # says "interrupted"
        logs = [logging.getLogger(name) for name in ("distributed.client", "tornado.application")]
        levels = [log.level for log in logs]
        for log in logs:
            log.setLevel(logging.CRITICAL)
        try:
            yield client.get_executor(pure=False)
        except concurrent.futures.CancelledError:
            # the client lost the scheduler (stopped, or the network failed) and gave up
            # reconnecting: it cancels every future
            raise CommandError(f"lost the scheduler at {args.scheduler} (it stopped, or the "
                               "network failed)") from None
        finally:
            client.close()
            for log, level in zip(logs, levels, strict=True):
                log.setLevel(level)
    elif args.workers is None:
        yield None
    elif args.workers == 1:
        yield "serial"
    else:
        from holdem._parallel import process_pool

        with process_pool(args.workers) as pool:  # Ctrl-C terminates its workers at once
            yield pool


@contextmanager
def _chunk_runner(args: argparse.Namespace, paths: Sequence[str]) -> Iterator[Any]:
    """The runner of a command's chunks of hands (:mod:`holdem.cli._hands`): --workers or
    --scheduler as given; else every core when the files (standard input not counted) hold
    :data:`_hands.POOL_BYTES` or more, in this process below that."""
    from holdem._parallel import open_executor

    small = _hands.input_bytes(paths) < _hands.POOL_BYTES
    with _executor(args) as executor, open_executor(executor, small=small) as runner:
        yield runner


# --- agents (simulate, play) -----------------------------------------------------------------


def _agent_names(text: str | None, default: str, seats: int, other: str) -> list[str]:
    """The names of ``--agents`` (``default`` when not given), checked: no empty name, no
    unknown agent, and no more names than the ``seats`` they are for (nothing is dropped
    silently; the default list is cut to the seats)."""
    from holdem.cli._play import make_agent

    if text is None:
        return default.split(",")[:seats]
    names = [a.strip() for a in text.split(",")]
    if not any(names):
        raise CommandError("--agents needs at least one agent name")
    if not all(names):
        raise CommandError(f"--agents {text!r} has an empty name: separate the names by "
                           "single commas, like random,call")
    if len(names) > seats:
        extra = ", ".join(names[seats:])
        raise CommandError(f"--agents names {len(names)} agents for {seats}{other} seat"
                           f"{'s' if seats != 1 else ''}: {extra} would not play (give at "
                           f"most {seats}, or more --players)")
    for name in names:
        make_agent(name, 0)  # unknown names fail here, before anything is printed
    return names


def _stack(args: argparse.Namespace) -> int:
    """The chips every seat starts with (``--stack``, default 100 big blinds), checked before
    anything is printed: at least 10 big blinds (R35), and at most the engine's limit of
    2**53 chips on the whole table (all of them may end in one stack), shared by the seats."""
    stack: int | None = args.stack
    big_blind: int = args.big_blind
    most = MAX_FLAG // args.players
    limit = f"for {args.players} players (2**53 chips on the table, the engine's limit)"
    if stack is None:
        if 100 * big_blind > most:
            raise CommandError(f"--big-blind {big_blind} is above {most // 100}, the most with "
                               f"the default stack of 100 big blinds {limit}")
        return 100 * big_blind
    if stack > most:
        raise CommandError(f"--stack {stack} is above {most}, the most {limit}")
    if stack < 10 * big_blind:
        raise CommandError(f"--stack {stack} is below the minimum buy-in of 10 big blinds "
                           f"({10 * big_blind}, R35)")
    return stack


# --- equity ----------------------------------------------------------------------------------


def _cmd_equity(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[str]) -> int:
    from holdem.equity import equity

    if not 2 <= len(args.players) <= 10:
        raise CommandError(f"give 2 to 10 hands or ranges, not {len(args.players)}")
    if args.exact and args.samples is not None:
        raise CommandError("--exact enumerates every board: do not give --samples")
    with _executor(args) as executor:
        try:
            result = equity(
                args.players, args.board, args.dead, samples=args.samples, seed=args.seed,
                executor=executor, exact=True if args.exact else None, progress=args.progress,
            )
        except InvalidConfigError as e:
            # the library names its Python arguments (samples=..., target_se=...)
            head, advice, _ = str(e).partition("; use Monte Carlo")
            if not (args.exact and advice):
                raise
            raise CommandError(f"{head}; drop --exact or give --samples N") from None
    if args.board:
        print(f"board {args.board}", file=out)
    print(result, file=out)
    return 0


# --- simulate --------------------------------------------------------------------------------


def _cmd_simulate(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[str]) -> int:
    from holdem.cli._play import make_agent, make_game
    from holdem.simulate import simulate

    kinds = _agent_names(args.agents, "random,call,equity", args.players, "")
    stack = _stack(args)
    game = make_game(args.limit, args.big_blind)
    agents = {}
    for k in range(args.players):
        kind = kinds[k % len(kinds)]
        agents[f"{kind}-{k + 1}"] = make_agent(kind, k)
    limit = {"no": "no-limit", "pot": "pot-limit", "fixed": "fixed-limit"}[args.limit]
    _check_svg("--chart", args.chart)
    _check_writable(args.chart)
    started = time.perf_counter()
    with _executor(args) as executor:
        result = simulate(agents, game, args.hands, seed=args.seed, executor=executor,
                          stack=stack, progress=args.progress,
                          duplicate=args.duplicate or False)
    if args.chart:
        from holdem.charts import simulation_chart

        _write_text(args.chart, simulation_chart(result), "the cumulative winnings chart", err)
    elapsed = time.perf_counter() - started
    hands = "1 hand" if result.hands == 1 else f"{result.hands:,} hands"
    print(f"{hands} of {limit} hold'em, {args.players} players, blinds "
          f"{game.small_blind}/{game.big_blind}, stacks {stack} (reset every hand), "
          f"seed {result.seed}", file=out)
    print(_summary_table(result), file=out)
    how = ("the batched engine (every agent has a compiled policy)" if result.engine == "batched"
           else "tables (one Python call per decision)")
    print(f"{elapsed:.1f} s, {result.hands / max(elapsed, 1e-9):,.0f} hands/s on {how}",
          file=err)
    return 0


def _summary_table(result: Any) -> str:
    """The per-agent results as an aligned text table, then the totals."""
    header: tuple[str, ...] = ("agent", "hands", "chips won", "bb/100", "95% CI", "showdowns",
                               "won at SD")
    dup = result.seatings > 1
    if dup:
        header += ("duplicate 95% CI",)
    rows = []
    for r in result.players:
        won = f"{100 * r.showdowns_won / r.showdowns:.1f}%" if r.showdowns else "-"
        # one hand (or one deal) has no spread to measure: no interval, rather than +/- 0.0
        ci = f"+/- {r.ci95:.1f}" if r.hands >= 2 else "+/- n/a"
        row: tuple[str, ...] = (r.name, f"{r.hands:,}", f"{r.chips:+,}", f"{r.bb_per_100:+.1f}",
                                ci, f"{100 * r.showdown_share:.1f}%", won)
        if dup:
            row += (f"+/- {r.duplicate_ci95:.1f}" if result.deals >= 2 else "+/- n/a",)
        rows.append(row)
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = f"{cells[0]:<{widths[0]}}"
        return "  ".join([first, *(f"{c:>{w}}" for c, w in zip(cells[1:], widths[1:], strict=True))])

    rule = "-" * len(line(header))
    total = sum(r.chips for r in result.players)
    return "\n".join([line(header), rule, *(line(r) for r in rows), rule,
                      f"total chips won {total:,} and rake {result.rake:,}: they sum to zero"])


# --- play ------------------------------------------------------------------------------------


def _cmd_play(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[str]) -> int:
    from holdem.cli._play import make_game, play_session

    names = _agent_names(args.agents, "random", args.players - 1, " other")
    stack = _stack(args)
    ext = os.path.splitext(args.save or "")[1]
    if ext and ext.lower() not in (".phh", ".phhs"):  # replay and stats read .txt as PokerStars
        raise CommandError(f"--save writes PHH, but {args.save} names a {ext} file: give a name "
                           f"ending in .phhs (or .phh)")
    game = make_game(args.limit, args.big_blind)
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    limit = {"no": "no-limit", "pot": "pot-limit", "fixed": "fixed-limit"}[args.limit]
    print(f"holdem play: {limit} hold'em, {args.players} players, stacks {stack}, seed {seed} "
          f"(same game again: --seed {seed}). Type 'help' for the moves.", file=out)
    if args.save is not None:  # refused now, not after a hand; an existing file is kept as
        # it is until the first hand ends (it is then written anew), a new one not made yet
        existed = os.path.lexists(args.save)
        try:
            open(args.save, "a", encoding="utf-8").close()
            if not existed:
                os.remove(args.save)
        except OSError as e:
            raise CommandError(f"cannot write {args.save!r}: {e.strerror or e}") from None
    return play_session(game=game, players=args.players, agents=names, stack=stack, seed=seed,
                        hands=args.hands, out=out, inp=stdin, save=args.save)


# --- replay / export -------------------------------------------------------------------------


def _check_given(paths: Sequence[str]) -> None:
    """CommandError (exit code 2) for an argument that is neither '-', a file nor a folder,
    and for '-' given twice (standard input is read once: the second would be empty)."""
    for path in paths:
        if path != "-" and not os.path.exists(path):
            raise CommandError(f"cannot read {path}: no such file or folder")
    if list(paths).count("-") > 1:
        raise CommandError("'-' (standard input) is given more than once: it can be read "
                           "only once")


def _replay_chunk(sources: list[_hands.Source], chip_unit: Any, quiet: bool,
                  verbose: bool) -> list[tuple[str, str | None]]:
    """``holdem replay`` of one chunk of hands (see :mod:`holdem.cli._hands`): a task, run in
    a worker process with --workers. Per hand, its outcome (``exact``, ``unchecked``, ``odd``
    or ``failed``) and the line to print (None: none)."""
    from holdem.history import _unit_text, replay

    out: list[tuple[str, str | None]] = []
    for source in sources:
        try:
            label, hh = _hands.parse_source(*source)
        except HoldemError as e:
            out.append(("failed", f"ERROR     {e}"))
            continue
        try:
            result = replay(hh, name=label, chip_unit=chip_unit)
        except HoldemError as e:
            out.append(("failed", f"ILLEGAL   {e}"))
            continue
        # -v: every hand that replays shows the final stacks the rules give it
        stacks = ("  final stacks " + " ".join(map(str, result.final_stacks))) if verbose else ""
        if result.odd_chip is not None:  # not a failure: no line with --quiet
            out.append(("odd", None if quiet else
                        f"ODD CHIP  {label}: the file splits the odd chip (R32 gives it "
                        "whole to the first winner left of the button): "
                        + "; ".join(result.mismatches)
                        + f"; --chip-unit {_unit_text(result.odd_chip)} reproduces the file"
                        + stacks))
        elif result.mismatches:
            out.append(("failed", f"MISMATCH  {label}: " + "; ".join(result.mismatches)
                        + stacks))
        elif not result.compared:
            out.append(("unchecked", None if quiet else
                        f"replayed  {label}: no stacks to compare" + stacks))
        else:
            out.append(("exact", None if quiet else f"{'ok':<9} {label}" + stacks))
    return out


def _cmd_replay(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[str]) -> int:
    from holdem.history import _unit

    unit = _unit(args.chip_unit, "--chip-unit") if args.chip_unit is not None else None
    _check_given(args.files)
    counts = dict.fromkeys(("exact", "unchecked", "odd", "failed"), 0)
    paths = list(_hands.hand_paths(args.files))
    empty: list[str] = []
    tasks = ((chunk, unit, args.quiet, args.verbose)
             for chunk in _hands.source_chunks(paths, stdin, empty=empty))
    with _chunk_runner(args, paths) as runner:
        for outcomes in runner.imap(_replay_chunk, tasks):
            for outcome, line in outcomes:
                counts[outcome] += 1
                if line is not None:
                    print(line, file=out)
    total = sum(counts.values())
    if total == 0:
        raise _no_hands(empty)
    _skipped(empty, err)
    summary = f"{counts['exact']} of {total} hands replayed exactly"
    if counts["unchecked"]:
        summary += f"; {counts['unchecked']} replayed, no stacks to compare"
    if counts["odd"]:
        summary += f"; {counts['odd']} split the odd chip (R32 differs, not a failure)"
    print(f"{summary}; {counts['failed']} failed", file=out)
    return 1 if counts["failed"] else 0


def _no_hands(empty: Sequence[str], phh_only: bool = False) -> CommandError:
    """The error of a command whose files hold no hand: it names the first file (``empty``:
    the files in which none was found) and what it was read as."""
    if not empty:
        return CommandError("no hands in the given files")
    others = ("" if len(empty) == 1 else "; nor does the other file" if len(empty) == 2
              else f"; nor do the {len(empty) - 1} other files")
    return CommandError(f"no hands in the given files: {_hands.no_hand(empty[0], phh_only)}"
                        f"{others}")


def _skipped(empty: Sequence[str], err: IO[str], phh_only: bool = False) -> None:
    """One line on standard error per file that held no hand, when others held hands (a file
    named by mistake, or emptied, is then not passed over in silence)."""
    for path in empty:
        print(f"skipped: {_hands.no_hand(path, phh_only)}", file=err)


def _export_chunk(sources: list[_hands.Source]) -> list[str]:
    """The PokerStars text of each hand of one chunk (see :mod:`holdem.cli._hands`): a task,
    run in a worker process with --workers. The first bad hand raises its error."""
    from holdem.pokerstars import to_pokerstars

    return [to_pokerstars(hh, name=label)
            for label, hh in (_hands.parse_source(*source) for source in sources)]


def _cmd_export(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[str]) -> int:
    _check_given(args.files)
    if args.output:
        _check_export_output(args.output, args.files)
    texts: list[str] = []
    empty: list[str] = []
    tasks = ((chunk,) for chunk in _hands.source_chunks(args.files, stdin, phh_only=True,
                                                        empty=empty))
    with _chunk_runner(args, args.files) as runner:
        for part in runner.imap(_export_chunk, tasks):
            texts.extend(part)
    if not texts:
        raise _no_hands(empty, phh_only=True)
    _skipped(empty, err, phh_only=True)
    body = "\n\n".join(texts) + "\n"
    if args.output:
        _write_text(args.output, body,
                    f"{len(texts)} hand{'s' if len(texts) != 1 else ''} as PokerStars text", err)
    else:
        out.write(body)
    return 0


def _check_export_output(path: str, files: Sequence[str]) -> None:
    """Refuse, before anything is read, an --output that is one of the input files (it was
    overwritten with the PokerStars text) or that is named like a PHH file."""
    for given in files:
        if given == "-":
            continue
        same = (os.path.samefile(path, given) if os.path.exists(path)
                else os.path.realpath(path) == os.path.realpath(given))
        if same:
            raise CommandError(f"--output names an input file ({path}): the PokerStars text "
                               "would overwrite its hands; give another file")
    ext = os.path.splitext(path)[1]
    if ext.lower() in (".phh", ".phhs"):
        raise CommandError(f"--output writes PokerStars text, not PHH, but {path} names a {ext} "
                           "file: give a name ending in .txt")


# --- stats -----------------------------------------------------------------------------------


def _check_writable(*paths: str | None) -> None:
    """Stop before the work, not after it, when an output file cannot be written (a missing
    folder, a folder given for a file, no permission); a file this check creates is removed."""
    for path in paths:
        if path is None:
            continue
        existed = os.path.lexists(path)
        try:
            with open(path, "a", encoding="utf-8"):
                pass
        except OSError as e:
            raise CommandError(f"cannot write {path}: {e.strerror or e}") from None
        if not existed:
            with contextlib.suppress(OSError):
                os.remove(path)


def _check_svg(option: str, path: str | None) -> None:
    """The charts are SVG: refuse a file name whose extension says another format
    (``--chart out.png`` wrote SVG into a .png). Names without one (``/dev/stdout``) pass."""
    if path is None:
        return
    ext = os.path.splitext(path)[1]
    if ext and ext.lower() != ".svg":
        raise CommandError(f"{option} writes an SVG image, but {path} names a {ext} file: "
                           f"give a name ending in .svg")


def _write_text(path: str, text: str, what: str, err: IO[str]) -> None:
    """Write an output file, then say on stderr (with the other reports: progress, timings)
    ``wrote WHAT to PATH``."""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise CommandError(f"cannot write {path}: {e.strerror or e}") from None
    print(f"wrote {what} to {path}", file=err)


def _stats_chunk(sources: list[_hands.Source], options: dict[str, Any]) -> Any:
    """The :class:`holdem.stats.Stats` of one chunk of hands (see :mod:`holdem.cli._hands`):
    a task, run in a worker process with --workers. The first bad hand raises its error."""
    from holdem.history import replay
    from holdem.stats import Stats

    stats = Stats(**options)
    for source in sources:
        label, hh = _hands.parse_source(*source)
        played = replay(hh, name=label)
        if not played.state.is_terminal():
            raise CommandError(f"{label}: the hand is not finished: no statistics")
        if played.odd_chip is None:  # (an odd chip split finer than R32 is not an error)
            played.check()  # the file's final stacks are not the rules': its numbers would lie
        stats.add_state(played.state, hh.players or tuple(f"p{k + 1}"
                                                          for k in range(hh.num_players)),
                        unit=played.chip_unit, unknown=played.stand_ins)
    return stats


def _cmd_stats(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[str]) -> int:
    from holdem.stats import Stats, format_table

    if args.player is not None and not args.grid:
        raise CommandError("--player chooses whose --grid to draw: give --grid SVG too")
    options = {"curves": bool(args.chart), "starting_hands": bool(args.grid),
               "allin_samples": args.allin_samples}
    stats = Stats(**options)
    _check_given(args.files)
    if args.chart and args.grid and os.path.abspath(args.chart) == os.path.abspath(args.grid):
        raise CommandError(f"--chart and --grid name the same file ({args.grid}): the grid "
                           f"would overwrite the chart; give two files")
    _check_svg("--chart", args.chart)
    _check_svg("--grid", args.grid)
    _check_writable(args.chart, args.grid)
    paths = list(_hands.hand_paths(args.files))
    empty: list[str] = []
    tasks = ((chunk, options) for chunk in _hands.source_chunks(paths, stdin, empty=empty))
    with _chunk_runner(args, paths) as runner:
        for part in runner.imap(_stats_chunk, tasks):
            stats.merge(part)
    if not stats:
        raise _no_hands(empty)
    _skipped(empty, err)
    players = sorted(stats.values(), key=lambda p: (-p.hands, p.name))
    if args.grid and args.player is not None and args.player not in stats:
        raise CommandError(f"--player {args.player!r} is not in these hands")  # nothing printed
    print(format_table(players), file=out)
    if args.chart:
        from holdem.charts import PALETTE, stats_chart

        _write_text(args.chart, stats_chart(stats), "the cumulative winnings chart", err)
        if len(stats) > len(PALETTE):  # (stats_chart draws those with the most hands)
            print(f"the chart shows the {len(PALETTE)} players with the most hands of "
                  f"{len(stats)}", file=err)
    if args.grid:
        from holdem.charts import grid_chart, vpip_frequencies

        who = args.player if args.player is not None else players[0].name
        if who not in stats:
            raise CommandError(f"--player {who!r} is not in these hands")
        known = sum(d for d, _ in (stats.starting_hands or {}).get(who, {}).values())
        _write_text(args.grid, grid_chart(
            vpip_frequencies(stats, who), title=f"{who}: VPIP by starting hand",
            subtitle=f"{known:,} hands with known cards; blank: never dealt",
            label="share of the hands dealt that the player played (VPIP)"),
            f"the starting-hand grid of {who}", err)
    return 0


# --- entry point -----------------------------------------------------------------------------


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    """Run the command line; returns the exit code (0 ok, 1 a failed check, 2 bad input)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # named by the command's own parser (the top one named itself, "holdem")
        args.parser.error(f"unrecognized arguments: {' '.join(extra)}")
    run: Callable[..., int] = args.run
    prog = f"{PROG} {args.command}"
    if out is None:  # started with standard output closed (``>&-``): print() would drop it all
        print(f"{prog}: error: standard output is closed: the results would be lost", file=err)
        return 2
    try:
        return run(args, out, err, stdin or sys.stdin or _ClosedStdin())
    except (HoldemError, CommandError) as e:
        code = e.code if isinstance(e, CommandError) else 2
        # One line: library messages may add a caret diagram on later lines.
        message = (str(e).splitlines() or [type(e).__name__])[0]
        print(f"{prog}: error: {message}", file=err)
        return code
    except KeyboardInterrupt:
        # on a terminal the line starts after the ^C echo (and any progress bar)
        start = "\n" if _isatty(err) else ""
        print(f"{start}{prog}: interrupted", file=err)
        return 130
    except UnicodeDecodeError as e:
        print(f"{prog}: error: the input is not valid text ({e.reason})", file=err)
        return 2
    except BrokenPipeError:
        # The reader went away (``holdem export ... | head``): not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    # Bad input the library does not (yet) name as a HoldemError: still one line, exit 2,
    # never a traceback (a number beyond a C long, input nested too deeply, a missing file).
    except (RecursionError, OverflowError, MemoryError, OSError, ValueError) as e:
        print(f"{prog}: error: {_bad_input(e)}", file=err)
        return 2
    except Exception as e:
        # A worker that died (killed, out of memory): one line, not the executor's traceback.
        lost = _lost_worker(e)
        if lost is None:
            raise
        print(f"{prog}: error: {lost}", file=err)
        return 2


def _lost_worker(e: BaseException) -> str | None:
    """One line on what died, when ``e`` says a worker died (else None): a local pool is then
    broken and every task left fails with BrokenProcessPool; Dask retries a task whose worker
    died on another one and gives up with KilledWorker when those die too
    (``allowed-failures``)."""
    from concurrent.futures import BrokenExecutor

    if isinstance(e, BrokenExecutor):
        return "a worker process stopped abruptly (killed, or out of memory?)"
    scheduler = sys.modules.get("distributed.scheduler")  # imported only with --scheduler
    killed = getattr(scheduler, "KilledWorker", None)
    if isinstance(killed, type) and isinstance(e, killed):
        return ("the Dask workers that ran a task died (killed, or out of memory?); the "
                "workers' logs say why")
    return None


class _ClosedStdin(io.StringIO):
    """Standard input when the process has none (``holdem replay - <&-``: Python's
    ``sys.stdin`` is None): reading it is an error of one line, not an AttributeError."""

    def read(self, size: int | None = -1, /) -> str:
        raise CommandError("standard input is closed: there is nothing to read")

    readline = read  # type: ignore[assignment]


def _bad_input(e: BaseException) -> str:
    """One line for a Python error caused by bad input."""
    if isinstance(e, RecursionError):
        return "the input is nested too deeply to read"
    if isinstance(e, OverflowError):
        return f"a number is too large ({_first_line(e)})"
    if isinstance(e, MemoryError):
        return "out of memory (is an input or a count too large?)"
    if isinstance(e, OSError):
        where = f"{e.filename}: " if e.filename else ""
        return f"{where}{e.strerror or _first_line(e)}"
    return _first_line(e)


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _first_line(e: BaseException) -> str:
    return (str(e).splitlines() or [type(e).__name__])[0]
