"""The ``holdem`` command line (also ``python -m holdem``).

Commands::

    holdem equity AsKs QdQc [--board 2c7d9h] [--dead 3s] [--samples N] [--seed S]
                            [--workers N | --scheduler ADDRESS]
    holdem simulate [--players 6] [--hands N] [--agents ...] [--seed S]
                    [--workers N | --scheduler ADDRESS]
    holdem replay FILE...          # PHH .phh/.phhs files; non-zero exit on any mismatch
    holdem export FILE...          # PHH -> PokerStars-style text on stdout
    holdem play [--players 3] ...  # play against built-in agents, reading moves from stdin

Every command has ``--help``. Bad arguments print one line on stderr and exit with code 2;
errors in the input (a bad card, a broken file) also print one line, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any, NoReturn

from holdem._version import __version__
from holdem.errors import HoldemError

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


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer seed") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: seeds are non-negative")
    return value


def _add_parallel(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--workers", type=_positive_int, metavar="N",
                       help="local worker processes (default: 1, in this process)")
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
        "replay",
        help="replay PHH hand histories and check their finishing stacks",
        description="Replay each hand of the given .phh/.phhs files through the rules engine: "
        "every action must be legal and the final stacks must equal the file's "
        "finishing_stacks. Exit code 1 if any hand fails.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs files ('-' for stdin)")
    p.add_argument("-q", "--quiet", action="store_true", help="print only failures and the total")
    p.add_argument("-v", "--verbose", action="store_true", help="print every hand's final stacks")
    p.set_defaults(run=_cmd_replay)

    p = sub.add_parser(
        "export",
        help="convert PHH hand histories to PokerStars-style text",
        description="Write the hands of the given .phh/.phhs files as PokerStars-style hand "
        "histories (for tracking software) on stdout or to --output.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs files ('-' for stdin)")
    p.add_argument("-o", "--output", metavar="PATH", help="write to PATH instead of stdout")
    p.set_defaults(run=_cmd_export)
    return parser


# --- replay / export -------------------------------------------------------------------------


def _read_hands(path: str, stdin: IO[str]) -> list[tuple[str, Any]]:
    """``(label, HandHistory)`` for every hand of a .phh/.phhs file."""
    from holdem import phh

    if path == "-":
        text, name = stdin.read(), "<stdin>"
    else:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise HoldemError(f"cannot read {path}: {e.strerror or e}") from None
        except UnicodeDecodeError as e:
            raise HoldemError(f"{path}: not UTF-8 text ({e.reason})") from None
        name = path
    if name.endswith(".phhs") or _looks_multi(text):
        hands = phh.loads_all(text, name=name)
        return [(f"{name}[{i}]", hh) for i, hh in enumerate(hands, 1)]
    return [(name, phh.loads(text, name=name))]


def _looks_multi(text: str) -> bool:
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith("#"):
            return s.startswith("[")
    return False


def _cmd_replay(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[str]) -> int:
    from holdem.history import replay

    failed = total = 0
    for path in args.files:
        try:
            hands = _read_hands(path, stdin)
        except HoldemError as e:
            failed += 1
            total += 1
            print(f"ERROR     {e}", file=out)
            continue
        for label, hh in hands:
            total += 1
            try:
                result = replay(hh, name=label)
            except HoldemError as e:
                failed += 1
                print(f"ILLEGAL   {e}", file=out)
                continue
            if result.mismatches:
                failed += 1
                print(f"MISMATCH  {label}: " + "; ".join(result.mismatches), file=out)
            elif not args.quiet:
                how = "ok" if hh.finishing_stacks is not None else "ok (no finishing_stacks)"
                line = f"{how:<9} {label}"
                if args.verbose:
                    line += "  final stacks " + " ".join(map(str, result.final_stacks))
                print(line, file=out)
    print(f"{total - failed} of {total} hands replayed exactly; {failed} failed", file=out)
    return 1 if failed else 0


def _cmd_export(args: argparse.Namespace, out: IO[str], err: IO[str], stdin: IO[str]) -> int:
    from holdem.pokerstars import to_pokerstars

    texts = []
    for path in args.files:
        for label, hh in _read_hands(path, stdin):
            texts.append(to_pokerstars(hh, name=label))
    body = "\n\n".join(texts) + "\n"
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(body)
        except OSError as e:
            raise CommandError(f"cannot write {args.output}: {e.strerror or e}") from None
    else:
        out.write(body)
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
    args = parser.parse_args(argv)
    run: Callable[..., int] = args.run
    prog = f"{PROG} {args.command}"
    try:
        return run(args, out, err, stdin or sys.stdin)
    except (HoldemError, CommandError) as e:
        code = e.code if isinstance(e, CommandError) else 2
        print(f"{prog}: error: {e}", file=err)
        return code
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=err)
        return 130
    except BrokenPipeError:
        # The reader went away (``holdem export ... | head``): not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
