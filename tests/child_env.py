"""The environment of the commands the tests start: this source tree first on PYTHONPATH,
and the caller's own PYTHONPATH kept after it (CI's forkserver pass puts ``tools/forkserver``
there: a command a test starts must run under it too)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child_env(**extra: str) -> dict[str, str]:
    """``os.environ`` with the source tree first on PYTHONPATH, and ``extra`` set."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, **extra}
