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
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cli import GOOD, run

from holdem import _textfile, phh, pokerstars
from holdem.errors import InvalidHistoryError

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
