"""Build and run a plain-C check program of tests/c/ against the C core (csrc/), under
AddressSanitizer and UndefinedBehaviorSanitizer when the compiler has them."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_c_check(tmp_path: Path, name: str, csources: tuple[str, ...],
                defines: tuple[str, ...] = ()) -> None:
    """Compile tests/c/<name>.c with csrc/<csources> (and ``defines``, ``-D`` options), run it,
    and require it prints "ok"."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None or not all((ROOT / "csrc" / f).exists() for f in csources):
        pytest.skip("needs a C compiler and a source checkout")
    # the program carries its own sanitizers: a runtime preloaded into the interpreter (a
    # sanitizer run of the suite, see setup.py) must not be loaded into it or its compiler
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    exe = tmp_path / name
    sources = [str(ROOT / "tests" / "c" / f"{name}.c")] + [str(ROOT / "csrc" / f)
                                                          for f in csources]
    base = [cc, "-std=c99", "-O1", "-g", "-Wall", "-Wextra", "-Werror", *defines,
            "-I", str(ROOT / "csrc")]
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
    built = subprocess.run([*base, *sanitize, *sources, "-o", str(exe)], capture_output=True,
                           text=True, check=False, env=env)
    if built.returncode != 0:  # no sanitizer runtime: the plain build must still be clean
        subprocess.run([*base, *sources, "-o", str(exe)], check=True, capture_output=True,
                       text=True, env=env)
    result = subprocess.run([str(exe)], capture_output=True, text=True, check=False, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok"
