"""examples/dask_selfplay.py: batched self-play on a real Dask LocalCluster gathers the same
trajectories and results as the same batches run serially, for any number of workers."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("numpy")
pytest.importorskip("distributed")

import numpy as np

import holdem

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "dask_selfplay.py"
SEED, BATCHES, TABLES, STEPS = 7, 4, 48, 30


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dask_selfplay", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dask_selfplay"] = module
    spec.loader.exec_module(module)
    return module


selfplay = _example()


def _same(a: list, b: list) -> bool:  # type: ignore[type-arg]
    return len(a) == len(b) and all(x.same_as(y) for x, y in zip(a, b, strict=True))


def test_cluster_results_equal_serial_for_any_number_of_workers() -> None:
    from distributed import Client, LocalCluster

    serial = selfplay.run_serial(SEED, BATCHES, TABLES, STEPS)
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            gathered = selfplay.run_on_cluster(client, SEED, BATCHES, TABLES, STEPS)
            assert len(client.scheduler_info()["workers"]) == workers
        assert _same(gathered, serial), f"{workers} workers differ from the serial run"


def test_batches_are_seeded_from_the_run_seed() -> None:
    serial = selfplay.run_serial(SEED, BATCHES, TABLES, STEPS)
    assert [r.seed for r in serial] == [holdem.child_seed(SEED, b) for b in range(BATCHES)]
    # every batch plays its own cards and draws: no two trajectories are the same
    for i in range(BATCHES):
        for j in range(i):
            assert not np.array_equal(serial[i].actions, serial[j].actions)
    other = selfplay.run_serial(SEED + 1, BATCHES, TABLES, STEPS)
    assert not _same(other, serial)


def test_batch_results_are_real_hands() -> None:
    (r,) = selfplay.run_serial(SEED, 1, TABLES, STEPS)
    assert r.actions.shape == r.done.shape == (STEPS, TABLES)
    assert r.hands == int(r.done.sum()) > 0
    assert int(r.payoffs.sum()) == 0  # chips are conserved (no rake)
    assert r.payoffs.shape == (6,) and np.any(r.payoffs != 0)
