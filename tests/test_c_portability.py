"""The C core's MSVC branches, compiled without MSVC.

``csrc/`` picks compiler intrinsics by platform (``hd_common.h``: bit counts and prefetch;
``hd_atomic.h``: the batched engine's atomics). The release wheels for Windows are AMD64 only,
so a source build on 32-bit Windows or Windows on ARM64 compiles branches no CI machine
builds. This check compiles every C file of ``csrc/`` and every header as MSVC would see them
(``_MSC_VER`` and the target's ``_M_*`` macro defined, the GCC and Clang macros undefined), with
the host's GCC, ``-fsyntax-only``, against stand-ins for ``<intrin.h>`` that declare only the
intrinsics Microsoft documents for that target (``tests/c/msvc/<target>/intrin.h``) and for
``<windows.h>``. An intrinsic a target does not have is an implicit declaration, an error.

Only a GCC host runs it (Clang and Apple's headers do not take the GCC macros being
undefined); the Linux CI jobs do. It checks names, types and the preprocessor paths, not code
generation: no MSVC build is run.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STUBS = ROOT / "tests" / "c" / "msvc"
CC = shutil.which("gcc") or shutil.which("cc")


def _is_gcc(cc: str | None) -> bool:
    if cc is None:
        return False
    out = subprocess.run([cc, "--version"], capture_output=True, text=True, check=False).stdout
    return "Free Software Foundation" in out and "clang" not in out.lower()


TARGETS = {
    "x64": ["-D_M_X64=100", "-D_M_AMD64=100"],
    "x86": ["-D_M_IX86=600"],
    "arm64": ["-D_M_ARM64=1"],
}
SOURCES = sorted(p.name for p in (ROOT / "csrc").glob("*.c"))

pytestmark = [
    pytest.mark.skipif(not _is_gcc(CC), reason="needs GCC on PATH"),
    pytest.mark.skipif(not (ROOT / "csrc").is_dir(), reason="needs a source checkout (csrc/)"),
]


def _compile(target: str, source: Path, csrc: Path,
             defines: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    assert CC is not None
    return subprocess.run(
        [CC, "-std=c99", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", *defines,
         "-Werror=implicit-function-declaration", "-U__GNUC__", "-U__clang__",
         "-D_MSC_VER=1930", *TARGETS[target], "-I", str(STUBS / target), "-I", str(STUBS),
         "-I", str(csrc), str(source)],
        capture_output=True, text=True, check=False)


@pytest.mark.parametrize("source", ["all_headers.c", *SOURCES])
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_msvc_branches_compile(target: str, source: str) -> None:
    """Each file as setup.py builds it: with HD_TABLES_SHARED (the modules that read the
    evaluator's tables from holdem._eval) and, but for hd_tables_shared.c, without."""
    path = STUBS / source if source == "all_headers.c" else ROOT / "csrc" / source
    for defines in (("-DHD_TABLES_SHARED",), ()):
        if defines or source != "hd_tables_shared.c":
            result = _compile(target, path, ROOT / "csrc", defines)
            assert result.returncode == 0, f"{defines}: {result.stderr}"


def test_stubs_catch_a_missing_intrinsic(tmp_path: Path) -> None:
    """The check can fail: a header that calls an intrinsic 32-bit x86 lacks is refused
    there (hd_common.h as it was, with __popcnt64 and _BitScanForward64), and accepted on
    x64, which has both."""
    csrc = tmp_path / "csrc"
    shutil.copytree(ROOT / "csrc", csrc)
    common = (csrc / "hd_common.h").read_text()
    marker = "#if !defined(HD_PORTABLE_BITS) && (defined(__GNUC__) || defined(__clang__))"
    assert marker in common
    common = common.replace(marker, "#if defined(_MSC_VER)\n"
                            "#  define hd_popcount64(x) ((int)__popcnt64(x))\n"
                            "HD_INLINE int hd_ctz64(uint64_t x) "
                            "{ unsigned long i; _BitScanForward64(&i, x); return (int)i; }\n"
                            "#elif !defined(HD_PORTABLE_BITS) && "
                            "(defined(__GNUC__) || defined(__clang__))")
    (csrc / "hd_common.h").write_text(common)
    bad = _compile("x86", STUBS / "all_headers.c", csrc)
    assert bad.returncode != 0
    assert "__popcnt64" in bad.stderr and "_BitScanForward64" in bad.stderr
    assert _compile("x64", STUBS / "all_headers.c", csrc).returncode == 0
