"""Without the ``rl`` extra, an adapter of holdem.rl fails with one ImportError that names the
missing framework and the install command (not a bare ModuleNotFoundError)."""

from __future__ import annotations

import subprocess
import sys

import pytest

CASES = [
    ("holdem.rl.pettingzoo", "numpy"),
    ("holdem.rl.pettingzoo", "pettingzoo"),
    ("holdem.rl.gymnasium", "gymnasium"),
    ("holdem.rl.openspiel", "pyspiel"),
]


@pytest.mark.parametrize(("adapter", "missing"), CASES)
def test_adapter_without_its_framework_says_how_to_install(adapter: str, missing: str) -> None:
    # None in sys.modules makes `import <missing>` fail as if it were not installed
    code = (f"import sys; sys.modules[{missing!r}] = None\n"
            f"try:\n    import {adapter}\n"
            f"except ImportError as e:\n    print(type(e).__name__, '|', e)\n"
            f"else:\n    print('imported')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    line = out.stdout.strip()
    assert line.startswith("ImportError |"), line
    assert f"{adapter} needs {missing}" in line and 'pip install "holdem-engine[rl]"' in line
    assert 'pip install ".[rl]"' in line
