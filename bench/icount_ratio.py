"""Instructions per decision of the three self-play loops of ``bench_vector.py``, and their ratios:
the load-independent side of its time ratios (valgrind counts instructions, not time).

- ``table``: a :class:`holdem.Table` of six Python agents (``bench_vector.table_decisions``);
- ``handstate``: the ``HandState`` loop with ``apply_unchecked`` (``handstate_decisions``);
- ``vector``: ``VectorGame`` at 4,096 6-max tables with the ``sample_legal`` numpy policy
  (``vector_steps``), the policy and the Python loop counted.

Each loop runs under callgrind with a small and then a large count, after a warm-up, the
counters dumped between them as the instruction-count gate does (``bench/icount.py``: its
fixed environment, its collector frozen, its uncounted type-cache misses); the cost is the
marginal one, ``(I(large) - I(small)) / (decisions(large) - decisions(small))``, so start-up,
imports, set-up and per-call costs cancel out (the vector loop's steps go on from one run to
the next, as the benchmark's rounds do). Needs valgrind and numpy::

    python bench/icount_ratio.py          # about two minutes

The time ratio of ``bench_vector.py`` is this instruction ratio times the ratio of the two
loops' instructions per second, which for the vector loop falls when the machine's other
tenants take the shared cache its working set lives in (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import icount

HERE = Path(__file__).resolve().parent
SIZES = {"table": (50, 350), "handstate": (50, 350), "vector": (20, 60)}  # hands, hands, steps


def _child(mode: str, small: int, large: int) -> None:
    """Under callgrind: a warm-up run, then the small and the large run between markers (as
    ``icount_workloads.measure``: callgrind dumps its counters at each ``os.getppid``); prints
    the decisions of the two measured runs."""
    sys.path.insert(0, str(HERE))
    import numpy as np
    from bench_vector import (
        NL6,
        TABLES,
        handstate_decisions,
        table_decisions,
        vector_steps,
    )

    from holdem.vector import VectorGame

    if mode == "vector":
        env = VectorGame(NL6, num_tables=TABLES, players=6, stacks=200, seed=1)
        env.reset()
        rng = np.random.default_rng(1)

        def run(n: int) -> int:  # (steps go on from where the last left the tables)
            return vector_steps(env, rng, n)
    else:
        loop = table_decisions if mode == "table" else handstate_decisions

        def run(n: int) -> int:
            return loop(n, 2)
    run(small)  # warm-up: lazy imports, caches, the interpreter's specialization
    gc.collect()
    gc.freeze()
    os.getppid()
    made = [run(small)]
    os.getppid()
    made.append(run(large))
    os.getppid()
    print(f"DECISIONS {made[0]} {made[1]}")


def _measure(mode: str) -> float:
    """Instructions a decision: the large run's less the small one's, over the decisions."""
    small, large = SIZES[mode]
    with tempfile.TemporaryDirectory(prefix="holdem-icratio-") as tmp:
        out = f"{tmp}/cg.out"
        done = subprocess.run(
            [shutil.which("valgrind") or "valgrind", "--tool=callgrind", "--dump-before=getppid",
             "--dump-instr=no",
             *icount.UNCOUNTED, f"--callgrind-out-file={out}", "-q", sys.executable, __file__,
             "--child", mode, str(small), str(large)],
            capture_output=True, text=True, check=True, env=icount._clean_env())
        made = re.search(r"DECISIONS (\d+) (\d+)", done.stdout)
        dumps = sorted(Path(tmp).glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        totals = [re.search(r"^totals:\s*(\d+)", d.read_text(errors="replace"), re.M)
                  for d in dumps]
        if made is None or len(totals) != 3 or None in totals:
            raise SystemExit(f"no counts for {mode}:\n{done.stdout[-1000:]}{done.stderr[-2000:]}")
        first, second = (int(m.group(1)) for m in totals[1:] if m is not None)
        d1, d2 = int(made.group(1)), int(made.group(2))
    print(f"{mode:10} {(second - first) / (d2 - d1):10,.0f} instructions a decision "
          f"({d1:,} and {d2:,} decisions measured)")
    return (second - first) / (d2 - d1)


def main() -> None:
    per = {mode: _measure(mode) for mode in SIZES}
    print(f"table / vector:     {per['table'] / per['vector']:.1f}x")
    print(f"handstate / vector: {per['handstate'] / per['vector']:.1f}x")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        _child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        main()
