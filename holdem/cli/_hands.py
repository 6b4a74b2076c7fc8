"""The hand-history files of ``holdem replay``, ``stats`` and ``export``: finding them, reading
them and cutting them into hands, in chunks that worker processes can take.

A hand is first a *source*, ``(label, kind, data)``: plain data, cheap to pickle, cut from
its file here (the TOML of a ``.phhs`` file is parsed; a PokerStars file is cut at its hand
headers). :func:`parse_source` turns a source into its :class:`holdem.phh.HandHistory`,
checking every field: most of the reading, so it runs in the workers. A parsed history is not
what travels to them: unpickling one checks it again, which costs as much as reading it.

The chunks hold :data:`CHUNK_HANDS` hands whatever the number of workers, so results added
up chunk by chunk, in file order, do not depend on them.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import pathlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any

from holdem import _textfile
from holdem.errors import HoldemError

__all__ = ["CHUNK_HANDS", "POOL_BYTES", "hand_paths", "hand_sources", "input_bytes", "no_hand",
           "parse_source", "phh_file_sources", "source_chunks"]

Source = tuple[str, str, Any]
"""``(label, kind, data)``: one hand, cut from its file but not yet checked. Kinds: ``"phh"``
(a .phh text), ``"table"`` (one table of a .phhs file, with the name errors give it),
``"stars"`` (the lines of a PokerStars hand), ``"error"`` (what was wrong where the hand
should be)."""

CHUNK_HANDS = 256
"""Hands per chunk (a task for a worker). Fixed, so that every float sum is added in the same
groups and order whatever the number of workers: the output does not depend on them."""

POOL_BYTES = 2 << 20
"""Without --workers, the commands use every core when their files hold at least this many
bytes (about 4,000 hands: a few seconds on one core); below, a pool costs more than it saves."""

SUFFIXES = (".phh", ".phhs", ".txt")


def is_pokerstars(text: str) -> bool:
    """Whether text (the start of a file) begins with a PokerStars hand."""
    return text.lstrip("\ufeff \t\r\n").startswith("PokerStars")


def hand_paths(paths: Sequence[str]) -> Iterator[str]:
    """The files to read: each argument, or the .phh/.phhs/.txt files under a folder (a .txt
    file there that does not start with a PokerStars hand is skipped: notes, logs)."""
    for path in paths:
        if path != "-" and os.path.isdir(path):
            found: list[str] = []
            for root, dirs, files in os.walk(path):
                dirs.sort()
                found.extend(os.path.join(root, f) for f in files if f.endswith(SUFFIXES))
            yield from (f for f in sorted(found) if not f.endswith(".txt") or _starts_stars(f))
        else:
            yield path


def _starts_stars(path: str) -> bool:
    """Whether the file at path starts with a PokerStars hand (an unreadable one: yes, so
    that its error is reported)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return is_pokerstars(f.read(4096))
    except OSError:
        return True


def input_bytes(paths: Sequence[str]) -> int:
    """The bytes of the files in ``paths`` (standard input counts as none)."""
    total = 0
    for path in paths:
        if path != "-":
            with contextlib.suppress(OSError):
                total += os.path.getsize(path)
    return total


def phh_file_sources(path: str, stdin: IO[str]) -> list[Source]:
    """The hands of a .phh/.phhs file (or PHH on standard input) as sources; a file that
    cannot be read, is not TOML or holds PokerStars text raises."""
    text, name = (_read_stdin(stdin), "<stdin>") if path == "-" else (_read_text(path), path)
    return _phh_sources(text, name)


def _read_stdin(stdin: IO[str]) -> str:
    """Standard input, whole. Bytes that are not text in its encoding are the error of its
    place in the files, as for a file: read ahead of the hands before it (the chunks are
    cut before the hands are replayed), they must not stop the command before those."""
    try:
        return _textfile.read(stdin, "<stdin>")
    except UnicodeDecodeError as e:
        raise HoldemError(f"<stdin>: not {e.encoding} text ({e.reason})") from None
    except OSError as e:
        raise HoldemError(f"cannot read <stdin>: {e.strerror or e}") from None


def _read_text(path: str) -> str:
    try:
        return _textfile.read_path(path)
    except OSError as e:
        raise HoldemError(f"cannot read {path}: {e.strerror or e}") from None


def _phh_sources(text: str, name: str) -> list[Source]:
    """The hands of a PHH text: its TOML is parsed here."""
    from holdem import phh

    if is_pokerstars(text):
        raise HoldemError(f"{name}: PokerStars text, not PHH: export reads PHH files (.phh, "
                          ".phhs); replay and stats read both")
    if next(_toml_lines(text), None) is None:
        return []  # empty, blank or comments only: no hand (not one without its fields)
    if name.endswith(".phhs") or _looks_multi(text):
        return [(entry[0], "table", entry) for entry in phh._tables(text, name)]
    return [(name, "phh", text)]


def _toml_lines(text: str) -> Iterator[str]:
    """The lines of a TOML text that are neither blank nor comments, stripped (lazily)."""
    return (s for s in map(str.strip, text.splitlines()) if s and not s.startswith("#"))


def _looks_multi(text: str) -> bool:
    return next(_toml_lines(text), "").startswith("[")


def hand_sources(path: str, stdin: IO[str]) -> Iterator[Source]:
    """The hands of a PHH or PokerStars file, as sources (none for a file without a hand:
    blank, or text in which no PokerStars hand starts). A PokerStars line outside any hand
    comes as an ``"error"`` source; a file that cannot be read, or a PHH file that is not TOML,
    raises. Standard input ('-') is read whole and may be either."""
    if path == "-":
        text = _read_stdin(stdin)
        if not is_pokerstars(text):
            yield from _phh_sources(text, "<stdin>")
            return
        yield from _stars_sources(lambda: io.StringIO(text), "<stdin>")
    elif path.endswith(".txt"):
        # a Path: a str is the text itself when it starts with "PokerStars" (a file named
        # "PokerStars 2024.txt" was read as one bad hand)
        yield from _stars_sources(lambda: pathlib.Path(path), path)
    else:
        yield from _phh_sources(_read_text(path), path)


def _stars_sources(source: Callable[[], Any], label: str) -> Iterator[Source]:
    """The hands of PokerStars text (``source()`` gives it, for :mod:`holdem.pokerstars`) and
    the error of each line outside them. A text in which no hand starts (notes, a PHH file
    named .txt) gives nothing: it holds no hand, not one bad hand a line. The errors of the
    lines before the first hand wait for it; past :data:`CHUNK_HANDS` of them, the text is
    searched for a hand without holding them, and read again from its start if one comes."""
    from holdem.pokerstars import _blocks

    def sources(blocks: Iterable[Any]) -> Iterator[Source]:
        return ((label, "error", b) if isinstance(b, HoldemError) else (label, "stars", b)
                for b in blocks)

    found = sources(_blocks(source(), label))
    held: list[Source] = []
    for item in found:
        held.append(item)
        if item[1] == "stars":
            yield from held
            yield from found
            return
        if len(held) > CHUNK_HANDS:
            if any(rest[1] == "stars" for rest in found):
                yield from sources(_blocks(source(), label))
            return


def parse_source(label: str, kind: str, data: Any) -> tuple[str, Any]:
    """``(label, HandHistory)`` of one source (a PokerStars hand's label gets its number);
    a bad hand raises its error."""
    if kind == "error":
        raise data
    if kind == "stars":
        from holdem.pokerstars import _one

        hh = _one(*data)
        return f"{label}#{hh.hand}", hh
    from holdem import phh

    if kind == "table":
        return label, phh._from_table(*data)
    return label, phh.loads(data, name=label)


def source_chunks(paths: Sequence[str], stdin: IO[str], *, phh_only: bool = False,
                  empty: list[str] | None = None) -> Iterator[list[Source]]:
    """The hands of ``paths``, in order, in chunks of :data:`CHUNK_HANDS`, cut as they are
    needed (``phh_only``: PHH files only, see :func:`phh_file_sources`). A file that cannot
    be read gives one ``"error"`` source, in its place, and the next file is read. The paths
    of the files that hold no hand are added to ``empty`` (see :func:`no_hand`)."""
    sources = _all_sources(paths, stdin, phh_file_sources if phh_only else hand_sources,
                           [] if empty is None else empty)
    while chunk := list(itertools.islice(sources, CHUNK_HANDS)):
        yield chunk


def _all_sources(paths: Sequence[str], stdin: IO[str],
                 read: Callable[[str, IO[str]], Iterable[Source]],
                 empty: list[str]) -> Iterator[Source]:
    for path in paths:
        count = 0
        try:
            for source in read(path, stdin):
                count += 1
                yield source
        except HoldemError as e:
            count += 1
            yield path, "error", e
        if not count:
            empty.append(path)


def no_hand(path: str, phh_only: bool = False) -> str:
    """What to say of a file (or '-') in which no hand was found: its name and the formats it
    was read as."""
    if path == "-":
        also = "" if phh_only else " and as PokerStars text"
        return f"standard input holds no hand (read as PHH{also})"
    if path.endswith(".txt") and not phh_only:
        return (f"{path} holds no hand (read as PokerStars text, as every .txt file; PHH files "
                "are .phh or .phhs)")
    return f"{path} holds no hand (read as PHH)"
