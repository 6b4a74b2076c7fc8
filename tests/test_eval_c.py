"""The C evaluator API on its own (csrc/hd_eval.h), compiled with the system C compiler.

Built three times: the default (on x86 with GCC/Clang, the AVX2 kernel for byte rows and the
POPCNT kernel for the rest, picked at run time), -DHD_NO_AVX2 (POPCNT for every type) and
-DHD_NO_POPCNT (the portable kernel that validates with sum == OR and a poisoned key, used by
MSVC and non-x86 targets), so every batch implementation is checked wherever there is a C
compiler (skipped where there is none, e.g. Windows without cc). On a CPU without AVX2 the
default build runs the POPCNT kernel again. Two more builds add -DHD_PORTABLE_BITS: the bit
counts of csrc/hd_common.h in plain C (what 32-bit MSVC and other compilers get) instead of
the compiler's builtins, under the portable and the POPCNT kernels.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CC = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


@pytest.mark.skipif(CC is None, reason="no C compiler on PATH")
@pytest.mark.skipif(not (ROOT / "csrc" / "hd_eval.c").exists(),
                    reason="needs a source checkout (csrc/), e.g. not a wheel's test run")
@pytest.mark.parametrize(
    "defines",
    [[], ["-DHD_NO_AVX2"], ["-DHD_NO_POPCNT"], ["-DHD_NO_POPCNT", "-DHD_PORTABLE_BITS"],
     ["-DHD_NO_AVX2", "-DHD_PORTABLE_BITS"]],
    ids=["default", "popcnt", "portable", "portable-bits", "popcnt-portable-bits"],
)
def test_c_api(tmp_path: Path, defines: list[str]) -> None:
    exe = tmp_path / "hd_eval_check"
    assert CC is not None
    subprocess.run(
        [CC, "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", *defines,
         "-I", str(ROOT / "csrc"), str(ROOT / "tests" / "c" / "hd_eval_check.c"),
         str(ROOT / "csrc" / "hd_eval.c"), str(ROOT / "csrc" / "hd_tables.c"), "-o", str(exe)],
        check=True, capture_output=True, text=True,
    )
    result = subprocess.run([str(exe)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok"


@pytest.mark.skipif(not (ROOT / "csrc" / "hd_eval.c").exists(),
                    reason="needs a source checkout (csrc/), e.g. not a wheel's test run")
@pytest.mark.parametrize("defines", [(), ("-DHD_NO_AVX2",), ("-DHD_NO_POPCNT",)],
                         ids=["default", "popcnt", "portable"])
def test_c_api_under_sanitizers(tmp_path: Path, defines: tuple[str, ...]) -> None:
    """The same checks under AddressSanitizer and UndefinedBehaviorSanitizer: an index past a
    table (a garbage accumulator) or a read past the last row of a batch fails here even when
    every rank comes out right."""
    from c_checks import run_c_check

    run_c_check(tmp_path, "hd_eval_check", ("hd_eval.c", "hd_tables.c"), defines)
