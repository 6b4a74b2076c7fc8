"""Run a ``holdem`` command with its stderr on a pseudo-terminal (POSIX), as a person sees it."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest


def run_on_terminal(args: list[str], env: dict[str, str], cwd: Path,
                    columns: int | None = None) -> tuple[int, str]:
    """``python -m holdem *args`` with stderr on a terminal (``columns`` wide, when given);
    returns its exit status and everything the terminal received."""
    pty = pytest.importorskip("pty")
    controller, terminal = pty.openpty()
    if columns is not None:
        fcntl = pytest.importorskip("fcntl")
        termios = pytest.importorskip("termios")
        fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    try:
        proc = subprocess.run([sys.executable, "-m", "holdem", *args], stdout=subprocess.PIPE,
                              stderr=terminal, env=env, cwd=cwd, timeout=120)
        os.close(terminal)
        terminal = -1
        chunks = []
        while True:
            try:
                data = os.read(controller, 65536)
            except OSError:  # EIO: the terminal is closed and drained
                break
            if not data:
                break
            chunks.append(data)
    finally:
        if terminal != -1:
            os.close(terminal)
        os.close(controller)
    return proc.returncode, b"".join(chunks).decode()
