"""Files that are not hand-history text: binary files and devices given by mistake.

Hand histories are UTF-8 text without NUL characters. A file or a device that is not (a
binary file, ``/dev/zero``, ``/dev/urandom``) is refused at its first NUL character or first
byte that is not UTF-8, with its place named, instead of being read whole first: a device
has no end, so ``holdem stats /dev/zero`` read until the memory ran out.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cli import GOOD, run

from holdem import _textfile, phh, pokerstars
from holdem.errors import InvalidHistoryError, ProtocolError

DATA = Path(__file__).parent / "data" / "pokerstars"
DEVICES = pytest.mark.skipif(not os.path.exists("/dev/zero") or sys.platform == "win32",
                             reason="needs /dev/zero and /dev/urandom")
NUL = "holds a NUL character: not a text file (hand histories are UTF-8 text)"


def test_a_nul_character_is_named_by_its_line(tmp_path: Path) -> None:
    """Past the first chunk, on the line it is on, for PHH files, PokerStars files and the
    reader of streams."""
    big = (GOOD + "\n") * (_textfile.CHUNK // len(GOOD) + 3)  # NUL in the second chunk
    line = big.count("\n") + 2
    path = tmp_path / "nul.phh"
    path.write_text(big + "\n# comment \x00\n")
    with pytest.raises(InvalidHistoryError, match=re.escape(f"nul.phh: line {line} {NUL}")):
        phh.load(path)
    with pytest.raises(InvalidHistoryError, match=re.escape(f"<s>: line {line} {NUL}")):
        _textfile.read(io.StringIO(big + "\n# comment \x00\n"), "<s>")
    stars = (DATA / "cash-limits.txt").read_text()
    path = tmp_path / "nul.txt"
    path.write_text(stars + "\n\nx\x00y\n")
    with pytest.raises(InvalidHistoryError, match=re.escape(
            f"nul.txt: line {stars.count(chr(10)) + 3} {NUL}")):
        list(pokerstars.parse(path))


def test_a_pokerstars_line_too_long_is_refused(tmp_path: Path) -> None:
    """A line longer than MAX_LINE characters ends the read (an endless line was read until
    the memory ran out); one of MAX_LINE is read. Also where the line starts in one chunk and
    ends in the next."""
    path = tmp_path / "long.txt"
    path.write_text("PokerStars Hand #1: " + "x" * _textfile.MAX_LINE + "\n")
    with pytest.raises(InvalidHistoryError, match=rf"long.txt: line 1 is longer than "
                       rf"{_textfile.MAX_LINE:,} characters: not a hand history"):
        list(pokerstars.parse(path))
    path.write_text("PokerStars Hand #1: " + "x" * (_textfile.MAX_LINE - 20) + "\n")
    with pytest.raises(InvalidHistoryError, match="line 1") as e:  # read, then not a hand
        list(pokerstars.parse(path))
    assert "longer than" not in str(e.value)
    head = "PokerStars Hand #1: x\n" * (_textfile.CHUNK // 22)  # its last line ends in chunk 2
    path.write_text(head + "y" * (_textfile.MAX_LINE + 1) + "\nz\n")
    with pytest.raises(InvalidHistoryError, match=rf"line {head.count(chr(10)) + 1} is longer"):
        list(_textfile.lines(path))
    path.write_text(head + "y" * _textfile.MAX_LINE + "\n")
    assert len(list(_textfile.lines(path))) == head.count("\n") + 1


def test_phh_files_keep_their_text(tmp_path: Path) -> None:
    """Read in chunks, a PHH file is the same text as read whole: its CRLF newlines kept."""
    hh = phh.loads(GOOD)
    path = tmp_path / "crlf.phh"
    path.write_bytes(GOOD.replace("\n", "\r\n").encode())
    assert phh.load(path) == hh
    path = tmp_path / "big.phhs"
    hands = [hh] * (_textfile.CHUNK // len(GOOD) + 3)
    phh.dump_all(hands, path)
    assert phh.load_all(path) == hands


@DEVICES
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_are_refused_at_once(device: str) -> None:
    """The library and every command that reads hands (they read until the memory ran out:
    a device has no end)."""
    with pytest.raises(InvalidHistoryError, match=f"{device}: "):
        phh.load(device)
    with pytest.raises(InvalidHistoryError, match=f"{device}: "):
        list(pokerstars.parse(Path(device)))
    for command in ("stats", "export"):
        r = run(command, device)
        assert r.returncode == 2, r.stderr
        assert r.stderr.startswith(f"holdem {command}: error: {device}: ")
        assert r.stderr.count("\n") == 1
    r = run("replay", device)
    assert r.returncode == 1 and r.stdout.startswith(f"ERROR     {device}: ")
    if device == "/dev/zero":
        with open(device) as zero:
            from holdem.cli import main

            err = io.StringIO()
            assert main(["stats", "-"], stdin=zero, stdout=io.StringIO(), stderr=err) == 2
        assert err.getvalue() == f"holdem stats: error: <stdin>: line 1 {NUL}\n"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet="ab\u00e9\n\r\x0b\x0c\x1c\x85\u2028\u2029", max_size=60),
       chunk=st.integers(1, 9), bom=st.booleans())
def test_lines_are_the_lines_of_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       text: str, chunk: int, bom: bool) -> None:
    """Cut from chunks, the lines are those of a file read line by line (newlines translated,
    lines ended by "\\n" only, a BOM skipped), whatever the chunk size; with a line longer
    than MAX_LINE, the error names it."""
    monkeypatch.setattr(_textfile, "CHUNK", chunk)
    monkeypatch.setattr(_textfile, "MAX_LINE", chunk)
    path = tmp_path / "t.txt"
    path.write_bytes(("\ufeff" if bom else "").encode() + text.encode())
    with open(path, encoding="utf-8-sig") as f:
        expected = list(f)
    long = [k for k, line in enumerate(expected, 1) if len(line.rstrip("\n")) > chunk]
    if long:
        with pytest.raises(InvalidHistoryError, match=f"t.txt: line {long[0]} is longer"):
            list(_textfile.lines(path))
    else:
        assert list(_textfile.lines(path)) == expected


# --- where a file is not UTF-8 (a sequence cut by a 64 KiB read or by the end), a missing file
def test_a_bad_byte_right_after_a_64k_boundary_is_placed_at_its_sequence(tmp_path: Path) -> None:
    """not_utf8 reads in 64 KiB chunks: a 2-byte sequence cut by the boundary (its lead byte
    last in chunk 1, a bad continuation first in chunk 2) is named at the lead byte's offset."""
    data = b"a" * ((1 << 16) - 1) + b"\xc3(" + b"\n"
    path = tmp_path / "cut.txt"
    path.write_bytes(data)
    with pytest.raises(InvalidHistoryError,
                       match=r"cut\.txt: byte offset 65535 \(line 1\) is not UTF-8"):
        list(pokerstars.parse(path))
    with pytest.raises(InvalidHistoryError, match=r"byte offset 65535 \(line 1\)"):
        phh.load(path)


def test_a_file_cut_in_a_utf8_sequence_names_the_place(tmp_path: Path) -> None:
    """A file that ends inside a multibyte character: the truncated sequence is named by its
    offset and line (decoded with final=True at the end of the file)."""
    path = tmp_path / "cut.txt"
    path.write_bytes(b"x\n\xe2\x82")
    with pytest.raises(InvalidHistoryError, match=r"cut\.txt: byte offset 2 \(line 2\) is not "
                       r"UTF-8 \(unexpected end of data\)"):
        list(pokerstars.parse(path))
    with pytest.raises(InvalidHistoryError, match=r"byte offset 2 \(line 2\)"):
        phh.load(path)


def test_a_missing_pokerstars_file_is_named_once(tmp_path: Path) -> None:
    """lines() reports an OSError by its strerror: the path is named once, no errno."""
    path = tmp_path / "missing.txt"
    with pytest.raises(InvalidHistoryError) as e:
        list(pokerstars.parse(path))
    assert str(e.value) == f"cannot read {path}: No such file or directory"


# --- open files passed in: read in bounded pieces too --------------------------------------
class _Endless(io.TextIOBase):
    """A text stream without end (as ``/dev/zero`` or ``yes``): ``fill`` repeated. A read or
    a line asked for whole fails the test instead of filling the memory."""

    def __init__(self, fill: str) -> None:
        self.fill = fill

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1, /) -> str:
        assert size is not None and size >= 0, "the stream was read whole"
        return (self.fill * (size // len(self.fill) + 1))[:size]

    def readline(self, size: int | None = -1, /) -> str:
        assert size is not None and size >= 0, "a line was read whole"
        return self.read(size)


class _EndlessBytes(io.RawIOBase):
    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = len(buffer)
        assert n <= 1 << 24, "the stream was read whole"
        buffer[:n] = b"\0" * n
        return n

    def readall(self) -> bytes:
        raise AssertionError("the stream was read whole")


def test_open_files_without_end_are_refused() -> None:
    """An open file passed in (not a path) is read in chunks or bounded lines, and refused at
    its first NUL character or at a line longer than MAX_LINE: phh.load read it whole, and
    pokerstars.parse and acpc.import_log read its first line whole (a device such as
    /dev/zero has no end: the memory ran out)."""
    from holdem import acpc

    gd = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
    for fn in (phh.load, phh.load_all):
        with pytest.raises(InvalidHistoryError, match=f"line 1 {re.escape(NUL)}"):
            fn(_Endless("\0"))
        with pytest.raises(InvalidHistoryError, match=f"line 1 {re.escape(NUL)}"):
            fn(io.BufferedReader(_EndlessBytes()))
    with pytest.raises(InvalidHistoryError, match=f"<stream>: line 1 {re.escape(NUL)}"):
        list(pokerstars.parse(_Endless("\0")))
    with pytest.raises(InvalidHistoryError, match=f"line 1 is longer than {_textfile.MAX_LINE:,}"):
        list(pokerstars.parse(_Endless("PokerStars Hand #1: ")))
    with pytest.raises(ProtocolError, match=f"line 1 {re.escape(NUL)}"):
        acpc.import_log(_Endless("\0"), gd)
    with pytest.raises(ProtocolError, match=f"line 1 is longer than {_textfile.MAX_LINE:,}"):
        acpc.import_log(_Endless("# x"), gd)
    # a binary file is refused before a line is read
    with pytest.raises(TypeError, match=r"parse: source must give lines of text \(str\), not "
                       r"bytes \(open the file in text mode\): BufferedReader is a binary file"):
        list(pokerstars.parse(io.BufferedReader(_EndlessBytes())))
    with pytest.raises(TypeError, match=r"import_log: lines must give str lines, not bytes"):
        acpc.import_log(io.BufferedReader(_EndlessBytes()), gd)  # type: ignore[arg-type]


def test_open_files_are_read_as_before(tmp_path: Path) -> None:
    """Text and binary files, read in chunks: the same hands as the text; a line of exactly
    MAX_LINE characters is read; a byte that is not UTF-8 in a binary file is named by its
    offset and line, past the first chunk too."""
    hh = phh.loads(GOOD)
    big = GOOD + ("#" * 99 + "\n") * (_textfile.CHUNK // 100 + 3)  # over one chunk
    assert phh.load(io.StringIO(big.replace("\n", "\r\n"))) == hh
    assert phh.load(io.BytesIO(("\ufeff" + GOOD).encode())) == hh
    data = big.encode() + "# \u00e9".encode()[:-1] + b"\n"
    with pytest.raises(InvalidHistoryError, match=rf"byte offset {len(big) + 2} \(line "
                       rf"{big.count(chr(10)) + 1}\) is not UTF-8 \(invalid continuation"):
        phh.load(io.BytesIO(data))
    with pytest.raises(InvalidHistoryError, match=rf"line {big.count(chr(10)) + 1} {re.escape(NUL)}"):
        phh.load(io.BytesIO(big.encode() + b"#\0"))
    stars = (DATA / "cash-limits.txt").read_text()
    with open(DATA / "cash-limits.txt") as f:
        assert list(pokerstars.parse(f)) == list(pokerstars.parse(stars))
    long = "x" * _textfile.MAX_LINE
    assert list(_textfile.stream_lines(io.StringIO(f"a\n{long}\n{long}"), "s")) == [
        "a\n", long + "\n", long]
    with pytest.raises(InvalidHistoryError, match="s: line 2 is longer"):
        list(_textfile.stream_lines(io.StringIO(f"a\n{long}x"), "s"))


@DEVICES
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_open_devices_are_refused_at_once(device: str) -> None:
    """As test_devices_are_refused_at_once, for the device opened by the caller (in a child
    process whose memory is limited: the old code read until the memory ran out). Under
    AddressSanitizer (its runtime preloaded: the README's sanitizer run) the limit is ASan's own
    2 GB resident limit: ASan reserves terabytes of address space for its shadow memory, so an
    address-space limit would stop the interpreter as it starts."""
    env = dict(os.environ)
    asan = "libasan" in env.get("LD_PRELOAD", "")
    if asan:
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":hard_rss_limit_mb=2048"
    limit = "pass" if asan else "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))"
    code = f"""
        import resource
        {limit}
        from holdem import acpc, phh, pokerstars
        from holdem.errors import InvalidHistoryError, ProtocolError
        gd = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
        text = {{"errors": "replace"}}
        cases = [({{"mode": "rb"}}, phh.load, InvalidHistoryError),
                 ({{"mode": "rb"}}, phh.load_all, InvalidHistoryError),
                 (text, phh.load, InvalidHistoryError), (text, phh.load_all, InvalidHistoryError),
                 (text, lambda f: list(pokerstars.parse(f)), InvalidHistoryError),
                 (text, lambda f: acpc.import_log(f, gd), ProtocolError)]
        for how, read, error in cases:
            with open({device!r}, **how) as f:
                try:
                    read(f)
                except error as e:
                    assert str(e).startswith({device!r} + ": "), e
                else:
                    raise SystemExit("read")
    """
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
