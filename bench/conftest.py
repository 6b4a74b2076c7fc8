"""Shared benchmark helpers: print each benchmark's ``extra_info`` (rates, ratios to peers)
after pytest-benchmark's table, so a short run (.ci/run) shows the figures that matter."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    session = getattr(config, "_benchmarksession", None)
    rows = [
        (b.name, b.extra_info)
        for b in getattr(session, "benchmarks", []) or []
        if getattr(b, "extra_info", None)
    ]
    if not rows:
        return
    terminalreporter.section("benchmark figures (extra_info)")
    for name, info in rows:
        figures = ", ".join(
            f"{k}={v:,}" if isinstance(v, int) else f"{k}={v}" for k, v in info.items()
        )
        terminalreporter.write_line(f"{name}: {figures}")
