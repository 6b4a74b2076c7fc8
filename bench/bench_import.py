"""``import holdem`` in a fresh interpreter (goal: under 100 ms), next to ``import json``.

Speed is reported, never asserted: the machines are shared and noisy. Compare the median
with the baseline interpreter start measured in the same run.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _fresh_import(module: str) -> None:
    subprocess.run([sys.executable, "-c", f"import {module}"], cwd=ROOT, check=True)


@pytest.mark.parametrize("module", ["json", "holdem"])
def test_import_in_fresh_interpreter(benchmark: Any, module: str) -> None:
    benchmark.group = "import"
    benchmark.pedantic(_fresh_import, args=(module,), rounds=5, iterations=1)
