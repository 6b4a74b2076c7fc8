"""Hand-history text read from files and streams, checked as it is read.

Hand histories (PHH, PokerStars) are UTF-8 text without NUL characters. Read in chunks or
lines of bounded size, a binary file or a device (``/dev/zero``, ``/dev/urandom``) given by
mistake is refused at its first NUL character or first byte that is not UTF-8, instead of
being read whole (or forever: a device has no end) before the parser sees it.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import IO

from holdem.errors import HoldemError, InvalidHistoryError

_OTHER_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"

CHUNK = 1 << 20
"""Characters read at a time."""
MAX_LINE = CHUNK
"""The longest line :func:`lines` reads, its newline left out (hand histories' lines are
short). At most :data:`CHUNK`: a line that starts within a chunk is no longer."""


def read(f: IO[str], name: str) -> str:
    """The rest of the text stream ``f``, read a chunk at a time; ``name`` prefixes errors.
    A NUL character raises :class:`InvalidHistoryError`; a decoding error of ``f`` (its
    UnicodeDecodeError) is raised as soon as its chunk is read."""
    parts: list[str] = []
    for chunk in _text_chunks(f, name):
        if "\x00" in chunk:  # the lines before it counted only then
            _no_nul(chunk, name, 1 + sum(p.count("\n") for p in parts))
        parts.append(chunk)
    return "".join(parts)


def read_binary(f: IO[bytes], name: str) -> str:
    """The rest of the binary stream ``f`` decoded as UTF-8, read a chunk at a time; ``name``
    prefixes errors. A byte that is not UTF-8 or a NUL character raises
    :class:`InvalidHistoryError` naming its place, as soon as its chunk is read."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    offset = newlines = 0
    while True:
        chunk = f.read(CHUNK) or b""
        if not isinstance(chunk, (bytes, bytearray)):
            raise TypeError(f"{name}: read() of a binary file must give bytes, it gave "
                            f"{type(chunk).__name__}")
        try:
            text = decoder.decode(chunk, final=not chunk)
        except UnicodeDecodeError as e:
            raise InvalidHistoryError(
                f"{name}: {_bad_byte(e, offset, len(chunk), 1 + newlines)}") from None
        _no_nul(text, name, 1 + newlines)
        if not chunk:
            return "".join(parts)
        parts.append(text)
        offset += len(chunk)
        newlines += text.count("\n")


def stream_lines(f: IO[str] | io.TextIOBase, name: str,
                 error: type[HoldemError] = InvalidHistoryError) -> Iterator[str]:
    """The lines of the open text stream ``f`` (newlines as its mode gives them), cut from
    chunks of :data:`CHUNK` characters: a NUL character or a line longer than
    :data:`MAX_LINE` characters raises ``error`` naming the line (iterating a stream reads a
    line whole: a device without newlines, such as ``/dev/zero``, filled the memory). A
    decoding error of ``f`` is raised as it comes."""
    return _split(_text_chunks(f, name), name, error)


def _text_chunks(f: IO[str] | io.TextIOBase, name: str) -> Iterator[str]:
    """The rest of the text stream ``f``, :data:`CHUNK` characters at a time."""
    while chunk := f.read(CHUNK):
        if not isinstance(chunk, str):
            raise TypeError(f"{name}: read() of a text file must give str, it gave "
                            f"{type(chunk).__name__}")
        yield chunk


def read_path(path: str | os.PathLike[str]) -> str:
    """The text of the UTF-8 file at ``path``, its newlines kept. A byte that is not UTF-8 or
    a NUL character raises :class:`InvalidHistoryError` naming its place; a file that cannot
    be opened raises its OSError."""
    name = os.fspath(path)
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return read(f, name)
    except UnicodeDecodeError as e:
        raise InvalidHistoryError(f"{name}: {not_utf8(path, e)}") from None


def lines(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of the UTF-8 file at ``path`` (a BOM skipped, newlines translated), lazily.
    A file that cannot be read, that is not UTF-8, that holds a NUL character or a line
    longer than :data:`MAX_LINE` characters raises :class:`InvalidHistoryError` naming the
    place. The lines are cut from chunks of :data:`CHUNK` characters: io's own line iterator
    would read an endless line whole."""
    name = os.fspath(path)
    try:
        f = open(path, encoding="utf-8-sig")  # noqa: SIM115 - closed below
    except OSError as e:
        raise InvalidHistoryError(f"cannot read {name}: {e.strerror or e}") from None

    def chunks() -> Iterator[str]:
        while True:
            try:
                chunk = f.read(CHUNK)
            except UnicodeDecodeError as e:
                raise InvalidHistoryError(f"{name}: {not_utf8(path, e)}") from None
            if not chunk:
                return
            yield chunk

    with f:
        yield from _split(chunks(), name, InvalidHistoryError)


def _split(chunks: Iterator[str], name: str, error: type[HoldemError]) -> Iterator[str]:
    """The lines of the text in ``chunks`` (of at most :data:`CHUNK` characters each), ended
    by "\\n"; a NUL character or a line longer than :data:`MAX_LINE` raises ``error``."""
    carry = ""  # the start of a line not ended yet
    number = 0  # lines before carry
    for chunk in chunks:
        _no_nul(chunk, name, number + 1, error)  # (carry holds no newline)
        text = carry + chunk
        # only the line that began before this chunk can be longer than MAX_LINE
        # (CHUNK): it is text's first, ended or not
        first = text.find("\n")
        if (first if first >= 0 else len(text)) > MAX_LINE:
            raise error(f"{name}: line {number + 1} is longer than {MAX_LINE:,} characters: "
                        f"not a hand history")
        cut = text.rfind("\n") + 1
        carry = text[cut:]
        if cut:
            part = text[:cut]
            # lines end at "\n" only: str.splitlines (faster) also ends them at these
            got = (list(io.StringIO(part)) if any(c in part for c in _OTHER_BREAKS)
                   else part.splitlines(keepends=True))
            number += len(got)
            yield from got
    if carry:
        yield carry


def not_utf8(path: str | os.PathLike[str], error: UnicodeDecodeError) -> str:
    """Where the file's text stops being UTF-8: its first bad byte (a second, binary read)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset, line = 0, 1
    try:
        with open(path, "rb") as f:
            while True:
                chunk = f.read(1 << 16)
                try:
                    decoder.decode(chunk, final=not chunk)
                except UnicodeDecodeError as e:
                    return _bad_byte(e, offset, len(chunk), line)
                if not chunk:
                    break
                offset += len(chunk)
                line += chunk.count(b"\n")
    except OSError:
        pass
    return f"not UTF-8 text ({error.reason})"


def _bad_byte(e: UnicodeDecodeError, offset: int, size: int, line: int) -> str:
    """Where ``e`` was raised, decoding a chunk of ``size`` bytes read at byte ``offset`` on
    line ``line`` (``e.object``: the bytes the decoder held from before, then the chunk)."""
    start = offset + size - len(e.object) + e.start
    line += e.object[: e.start].count(b"\n")
    return (f"byte offset {start} (line {line}) is not UTF-8 ({e.reason}): hand histories "
            f"are UTF-8 text")


def _no_nul(text: str, name: str, first_line: int,
            error: type[HoldemError] = InvalidHistoryError) -> None:
    at = text.find("\x00")
    if at >= 0:
        raise error(
            f"{name}: line {first_line + text.count(chr(10), 0, at)} holds a NUL character: "
            "not a text file (hand histories are UTF-8 text)")


def write_replacing(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` newlines) to the file ``path`` as a whole. An existing
    regular file is replaced only once the new text is all written (to a temporary file
    beside it, then renamed over it, with the old file's permissions), so an exception
    part-way (Ctrl-C, a full disk) leaves the old file as it was, not emptied or cut short.
    Any other path (a new file, a device, a pipe, a directory where no file can be made) is
    written in place."""
    real = os.path.realpath(path)
    tmp = None
    if os.path.isfile(real):
        with contextlib.suppress(OSError):  # (no file can be made there: in place)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(real), prefix=".holdem-",
                                       suffix=".tmp")
    if tmp is None:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        shutil.copymode(real, tmp)
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise
