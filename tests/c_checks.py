"""Build and run a plain-C check program of tests/c/ against the C core (csrc/), under
AddressSanitizer and UndefinedBehaviorSanitizer when the compiler has them."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def c_env() -> dict[str, str]:
    """The environment for the compiler and the programs: a sanitizer runtime preloaded into
    the interpreter (a sanitizer run of the suite, see setup.py) must not be loaded into them
    (the programs carry their own)."""
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}


def build_c(exe: Path, sources: list[str], options: tuple[str, ...] = ()) -> bool:
    """Compile ``sources`` (with csrc/ on the include path, and ``options``) into ``exe``, with
    ASan and UBSan when the compiler has them, warnings as errors. False (a skip) when there
    is no C compiler or no source checkout."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None or not all(Path(f).exists() for f in sources):
        return False
    base = [cc, "-std=c99", "-O1", "-g", "-Wall", "-Wextra", "-Werror", *options,
            "-I", str(ROOT / "csrc")]
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
    built = subprocess.run([*base, *sanitize, *sources, "-o", str(exe)], capture_output=True,
                           text=True, check=False, env=c_env())
    if built.returncode != 0:  # no sanitizer runtime: the plain build must still be clean
        subprocess.run([*base, *sources, "-o", str(exe)], check=True, capture_output=True,
                       text=True, env=c_env())
    return True


def run_c_check(tmp_path: Path, name: str, csources: tuple[str, ...],
                defines: tuple[str, ...] = ()) -> None:
    """Compile tests/c/<name>.c with csrc/<csources> (and ``defines``, ``-D`` options), run it,
    and require it prints "ok"."""
    exe = tmp_path / name
    sources = [str(ROOT / "tests" / "c" / f"{name}.c")] + [str(ROOT / "csrc" / f)
                                                          for f in csources]
    if not build_c(exe, sources, defines):
        pytest.skip("needs a C compiler and a source checkout")
    result = subprocess.run([str(exe)], capture_output=True, text=True, check=False,
                            env=c_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok"
