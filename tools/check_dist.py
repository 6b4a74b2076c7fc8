"""Check what the built distributions contain: ``python tools/check_dist.py dist/*``.

Wheels: every compiled module has its ``.pyi`` stub, the ``.pxd`` declarations and
``py.typed`` ship, so do the C headers the ``.pxd`` files include (and those headers include,
next to them in ``holdem/``: Cython code cimports holdem's kernels from an installed wheel),
and no generated C, Cython source or test file does.
Sdists: the C sources (``csrc/``) and Cython sources ship, the generated C, build products and
the caches a local run leaves behind (``.hypothesis``, ``__pycache__``...) do not.
"""

from __future__ import annotations

import re
import sys
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import PurePosixPath

# folders a local run leaves in the source tree (the test data base of hypothesis, the caches of
# pytest, pytest-benchmark, mypy and ruff, the bytecode)
SCRATCH = {".hypothesis", ".pytest_cache", ".benchmarks", ".mypy_cache", ".ruff_cache",
           "__pycache__"}
_INCLUDE = re.compile(r'(?:cdef extern from|#include) "([^"]+)"')


def check_wheel(names: list[str], read: Callable[[str], str] | None = None) -> list[str]:
    """Problems of a wheel holding ``names``; ``read(name)`` gives a member's text (to
    follow the headers the .pxd files include)."""
    errors = []
    pkg = [PurePosixPath(n) for n in names if n.startswith("holdem/")]
    compiled = [p for p in pkg if p.suffix in {".so", ".pyd"}]
    if not compiled:
        errors.append("no compiled extension (.so/.pyd)")
    for p in compiled:
        stub = p.parent / (p.name.split(".")[0] + ".pyi")
        if stub not in pkg:
            errors.append(f"{p} has no stub {stub}")
    if PurePosixPath("holdem/py.typed") not in pkg:
        errors.append("holdem/py.typed is missing")
    if not any(p.suffix == ".pxd" for p in pkg):
        errors.append("no .pxd declarations")
    if read is not None:
        todo = [str(p) for p in pkg if p.suffix == ".pxd"]
        seen: set[str] = set()
        while todo:
            member = todo.pop()
            for header in _INCLUDE.findall(read(member)):
                path = f"holdem/{header}"
                if path in seen:
                    continue
                seen.add(path)
                if PurePosixPath(path) not in pkg:
                    errors.append(f"{header} (included by {member}) is missing from holdem/")
                else:
                    todo.append(path)
    errors += [f"{p} must not be in a wheel" for p in pkg if p.suffix in {".c", ".cpp", ".pyx", ".html"}]
    errors += [f"{n} must not be in a wheel" for n in names if n.startswith(("tests/", "bench/"))]
    return errors


def check_sdist(names: list[str]) -> list[str]:
    rel = [PurePosixPath(*PurePosixPath(n).parts[1:]) for n in names]
    errors = []
    for need in ("csrc/hd_common.h", "csrc/hd_rng.h", "csrc/hd_deck.h", "csrc/hd_eval.h",
                 "csrc/hd_tables.h", "csrc/hd_pots.h", "holdem/_deck.pyx",
                 "holdem/_deck.pxd", "holdem/_deck.pyi", "holdem/hand/_compiled.pyx",
                 "holdem/hand/_compiled.pxd", "holdem/table/_loop.pyx", "holdem/py.typed", "pyproject.toml",
                 "setup.py", "README.md", "LICENSE"):
        if PurePosixPath(need) not in rel:
            errors.append(f"{need} is missing")
    errors += [f"{p} (generated) must not be in the sdist" for p in rel
               if p.parts[:1] == ("holdem",) and p.suffix in {".c", ".cpp", ".html"}]
    errors += [f"{p} (build product) must not be in the sdist" for p in rel
               if p.suffix in {".so", ".pyd", ".o"}]
    scratch: dict[PurePosixPath, None] = {}  # each folder once, in order
    for p in rel:
        at = next((i for i, part in enumerate(p.parts) if part in SCRATCH), None)
        if at is not None:
            scratch[PurePosixPath(*p.parts[: at + 1])] = None
        elif p.parts[:2] == ("bench", "results"):
            scratch[PurePosixPath("bench/results")] = None
        elif p.suffix in {".pyc", ".pyo"}:
            scratch[p] = None
    errors += [f"{p} (cache or scratch of a local run) must not be in the sdist" for p in scratch]
    return errors


def main(paths: list[str]) -> int:
    bad = 0
    for path in paths:
        if path.endswith(".whl"):
            with zipfile.ZipFile(path) as z:
                errors = check_wheel(z.namelist(), lambda n: z.read(n).decode("utf-8"))
        elif path.endswith(".tar.gz"):
            with tarfile.open(path) as t:
                errors = check_sdist(t.getnames())
        else:
            continue
        print(f"{path}: {'ok' if not errors else 'FAILED'}")
        for e in errors:
            print(f"  - {e}")
        bad += bool(errors)
    return 1 if bad or not paths else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
