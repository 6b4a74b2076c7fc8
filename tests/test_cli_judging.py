"""The judging commands: ``holdem simulate --duplicate/--chart`` and ``holdem stats``."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from child_env import child_env

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = child_env(COLUMNS="100")
    return subprocess.run([sys.executable, "-m", "holdem", *args], capture_output=True,
                          text=True, env=env, cwd=cwd or ROOT, timeout=120)


def test_simulate_duplicate_prints_both_intervals() -> None:
    r = run("simulate", "--players", "2", "--agents", "call,random", "--hands", "500",
            "--seed", "1", "--duplicate")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("1,000 hands of no-limit hold'em, 2 players")
    assert lines[1].split()[-3:] == ["duplicate", "95%", "CI"]
    call = lines[3].split()
    assert call[0] == "call-1" and call[1] == "1,000"
    plain, dup = float(call[5]), float(call[-1])
    assert 0 < dup < plain
    again = run("simulate", "--players", "2", "--agents", "call,random", "--hands", "500",
                "--seed", "1", "--duplicate", "rotations", "--workers", "2")
    assert again.stdout == r.stdout


def test_simulate_chart_writes_an_svg(tmp_path: Path) -> None:
    out = tmp_path / "w.svg"
    r = run("simulate", "--players", "3", "--hands", "300", "--seed", "2", "--chart", str(out),
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    svg = out.read_text()
    assert svg.startswith("<svg") and svg.count("<polyline") == 3
    bad = run("simulate", "--hands", "10", "--chart", str(tmp_path / "no" / "w.svg"))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "cannot write" in bad.stderr


def test_the_readme_chart_is_what_its_command_draws(tmp_path: Path) -> None:
    """docs/img/winnings.svg, shown in the README beside the command that draws it, is that
    command's output (it no longer was)."""
    out = tmp_path / "winnings.svg"
    r = run("simulate", "--players", "3", "--agents", "equity,call,random", "--hands", "20000",
            "--seed", "1", "--chart", str(out))
    assert r.returncode == 0, r.stderr
    readme = (ROOT / "README.md").read_text()
    assert ("holdem simulate --players 3 --agents equity,call,random --hands 20000 --seed 1 "
            "--chart winnings.svg") in readme
    assert out.read_bytes() == (ROOT / "docs" / "img" / "winnings.svg").read_bytes()


@pytest.mark.parametrize("argv", [("simulate", "--hands", "10", "--chart"),
                                  ("stats", "-", "--chart"), ("stats", "-", "--grid")])
@pytest.mark.parametrize("name", ["out.png", "out.PDF", "w.svg.html"])
def test_charts_refuse_a_name_of_another_format(tmp_path: Path, argv: tuple[str, ...],
                                                name: str) -> None:
    """``--chart out.png`` wrote SVG text into a .png: refused in one line before any work, and
    no file is made. Any case of .svg, and a name without an extension, still write."""
    r = run(*argv, name, cwd=tmp_path)
    ext = os.path.splitext(name)[1]
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.strip().endswith(f"{argv[-1]} writes an SVG image, but {name} names a {ext} "
                                     f"file: give a name ending in .svg")
    assert list(tmp_path.iterdir()) == []


def test_chart_names_in_any_case_or_without_extension(tmp_path: Path) -> None:
    for name in ("W.SVG", "winnings"):
        r = run("simulate", "--players", "2", "--hands", "20", "--seed", "1", "--chart", name,
                cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert (tmp_path / name).read_text().startswith("<svg")


def test_stats_table_from_files_and_folders(tmp_path: Path) -> None:
    data = ROOT / "tests" / "data"
    r = run("stats", str(data / "public_50.phhs"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split()[:6] == ["player", "hands", "VPIP", "PFR", "3-bet", "fold"]
    assert lines[1].split()[:2] == ["p1", "50"]
    folder = run("stats", str(data / "phh" / "pluribus"), "--chart", str(tmp_path / "c.svg"),
                 "--grid", str(tmp_path / "g.svg"), "--player", "Pluribus", cwd=tmp_path)
    assert folder.returncode == 0, folder.stderr
    assert any(line.split()[0] == "Pluribus" for line in folder.stdout.splitlines()[1:])
    assert (tmp_path / "c.svg").read_text().startswith("<svg")
    assert "Pluribus: VPIP by starting hand" in (tmp_path / "g.svg").read_text()
    # 14 players, 10 curves: the chart says who is left out (it dropped them silently)
    assert len(folder.stdout.splitlines()) == 1 + 14
    assert "the chart shows the 10 players with the most hands of 14\n" in folder.stderr
    assert (tmp_path / "c.svg").read_text().count("bb/100") == 10


def test_stats_allin_samples_estimates_the_allin_equities(tmp_path: Path) -> None:
    from holdem import Game, RandomAgent, Table, phh
    from holdem.history import from_state

    table = Table(Game(big_blind=2), seats=6, seed=5)
    for s in range(6):
        table.sit(s, f"r{s}", 200, RandomAgent(seed=s))
    hands = []
    for _ in range(40):  # random agents: most hands end in an all-in
        table._reset_stacks(200)
        hands.append(from_state(table.play_hand().state, players=[f"r{s}" for s in range(6)]))
    path = tmp_path / "allin.phhs"
    phh.dump_all(hands, path)
    exact = run("stats", str(path), cwd=tmp_path)
    fast = run("stats", str(path), "--allin-samples", "2000", cwd=tmp_path)
    again = run("stats", str(path), "--allin-samples", "2000", cwd=tmp_path)
    assert exact.returncode == fast.returncode == 0, fast.stderr
    assert again.stdout == fast.stdout  # seeded by the cards
    rows = [line.rsplit(None, 1) for line in exact.stdout.splitlines()[1:]]
    estimated = [line.rsplit(None, 1) for line in fast.stdout.splitlines()[1:]]
    assert [r[0] for r in rows] == [r[0] for r in estimated]  # every other column is exact
    assert [r[1] for r in rows] != [r[1] for r in estimated]  # the estimates are used
    for (_, a), (_, b) in zip(rows, estimated, strict=True):
        assert abs(float(a) - float(b)) < 100  # bb/100 over 40 hands: within a few percent
    bad = run("stats", str(path), "--allin-samples", "0", cwd=tmp_path)
    assert bad.returncode == 2 and "--allin-samples" in bad.stderr


def _random_hands(count: int, seed: int) -> list[Any]:
    """``count`` finished hands of six random agents, as hand histories."""
    from holdem import Game, RandomAgent, Table
    from holdem.history import from_state

    table = Table(Game(big_blind=2), seats=6, seed=seed)
    for s in range(6):
        table.sit(s, f"r{s}", 200, RandomAgent(seed=seed + s))
    hands = []
    for _ in range(count):
        table._reset_stacks(200)
        hands.append(from_state(table.play_hand().state, players=[f"r{s}" for s in range(6)]))
    return hands


def test_stats_output_does_not_depend_on_the_workers(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``holdem stats --workers N`` replays chunks of hands in worker processes. The chunks do
    not depend on N, so the table, the chart and the grid are the same bytes for any N, in
    one process, and on the pool a big input gets without --workers."""
    from holdem import cli, phh
    from holdem.cli import _hands
    from holdem.cli._hands import CHUNK_HANDS

    path = tmp_path / "many.phhs"
    phh.dump_all(_random_hands(2 * CHUNK_HANDS + 37, seed=11), path)  # three chunks
    files = [str(path), str(ROOT / "tests" / "data" / "pokerstars")]
    outputs = []
    for workers in ("1", "2", "3"):
        chart, grid = tmp_path / f"c{workers}.svg", tmp_path / f"g{workers}.svg"
        r = run("stats", *files, "--allin-samples", "300", "--workers", workers,
                "--chart", str(chart), "--grid", str(grid), cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        outputs.append((r.stdout, chart.read_bytes(), grid.read_bytes()))
    assert outputs[0] == outputs[1] == outputs[2]
    table = outputs[0][0]
    rows = {line.split()[0]: line.split()[1] for line in table.splitlines()[1:]}
    assert rows["r0"] == f"{2 * CHUNK_HANDS + 37:,}"  # every hand of the three chunks counted
    assert len(rows) > 6  # and the players of the PokerStars files
    # without --workers: in this process for small files, every core above POOL_BYTES
    for limit in (_hands.POOL_BYTES, 1):
        monkeypatch.setattr(_hands, "POOL_BYTES", limit)
        out = io.StringIO()
        assert cli.main(["stats", *files, "--allin-samples", "300"], stdout=out,
                        stderr=io.StringIO()) == 0
        assert out.getvalue() == outputs[0][0]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_stats_in_workers_reports_the_first_bad_hand(tmp_path: Path, workers: str) -> None:
    """With the hands in chunks, in worker processes, the error reported is still that of
    the first bad hand in the files' order: not that of a later hand, or of a later file
    that cannot be read, which the parent meets first."""
    from holdem import phh
    from holdem.cli._hands import CHUNK_HANDS

    hands = _random_hands(CHUNK_HANDS + 20, seed=3)
    bad = CHUNK_HANDS + 5  # in the second chunk
    hands[bad] = hands[bad].replace(actions=hands[bad].actions[:6])  # dealt, not played
    first = tmp_path / "a.phhs"
    phh.dump_all(hands, first)
    broken = tmp_path / "b.phhs"
    broken.write_bytes(b"[1]\nvariant = 'NT'\xff\n")  # not UTF-8: refused where it is read
    r = run("stats", str(first), str(broken), "--workers", workers, "--allin-samples", "100",
            cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1, r.stderr
    assert f"a.phhs[{bad + 1}]: the hand is not finished" in r.stderr
    # a bad field of a table, checked in the worker, is named as in one process
    hands[bad] = hands[bad].replace(actions=hands[bad + 1].actions)
    text = phh.dumps_all(hands).replace("[2]\nvariant = ", "[2]\nvariant = 'XX'\n_v = ", 1)
    first.write_text(text)
    r = run("stats", str(first), "--workers", workers, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "a.phhs[2]: variant 'XX' is not supported" in r.stderr
    # the unreadable file is reported when nothing before it is bad
    first.write_text(phh.dumps_all(hands[:3]))
    r = run("stats", str(first), str(broken), "--workers", workers, cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "b.phhs" in r.stderr, r.stderr


def test_stats_on_a_dask_cluster(tmp_path: Path) -> None:
    """``holdem stats --scheduler ADDRESS``: the chunks go to the cluster's workers, the table
    is the one of one process, and a bad hand's error comes back as its one line."""
    from distributed import LocalCluster

    from holdem import cli, phh
    from holdem.cli._hands import CHUNK_HANDS

    hands = _random_hands(CHUNK_HANDS + 30, seed=8)
    path = tmp_path / "d.phhs"
    phh.dump_all(hands, path)
    argv = ["stats", str(path), "--allin-samples", "200"]
    here, there = io.StringIO(), io.StringIO()
    assert cli.main([*argv, "--workers", "1"], stdout=here, stderr=io.StringIO()) == 0
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert cli.main([*argv, "--scheduler", address], stdout=there,
                        stderr=io.StringIO()) == 0
        assert there.getvalue() == here.getvalue()
        hands[-1] = hands[-1].replace(actions=hands[-1].actions[:6])  # dealt, not played
        phh.dump_all(hands, path)
        err = io.StringIO()
        assert cli.main([*argv, "--scheduler", address], stdout=io.StringIO(),
                        stderr=err) == 2
        assert err.getvalue().count("\n") == 1
        assert f"d.phhs[{len(hands)}]: the hand is not finished" in err.getvalue()


def test_dask_workers_that_die_are_one_line() -> None:
    """A Dask worker that dies running a task (killed, out of memory) is retried on another,
    and when that one dies too Dask gives up with KilledWorker: each command says so in one
    line with exit code 2 (it was a traceback). The workers really die: a worker plugin ends
    the process as a task starts, and the nanny starts a new one."""
    import dask
    from distributed import Client, LocalCluster, WorkerPlugin

    from holdem import cli

    class DieOnTask(WorkerPlugin):  # type: ignore[misc]  # untyped library
        def transition(self, key: object, start: str, finish: str, **kwargs: object) -> None:
            if finish == "executing":
                os._exit(1)

    data = str(ROOT / "tests" / "data" / "public_50.phhs")
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                         dashboard_address=None) as cluster, Client(cluster) as client:
        client.register_plugin(DieOnTask())
        for argv in (["stats", data], ["replay", data], ["export", data, "-o", os.devnull]):
            out, err = io.StringIO(), io.StringIO()
            assert cli.main([*argv, "--scheduler", cluster.scheduler_address], stdout=out,
                            stderr=err) == 2, argv
            assert err.getvalue() == (
                f"holdem {argv[0]}: error: the Dask workers that ran a task died (killed, or "
                "out of memory?); the workers' logs say why\n"), argv


def test_a_lost_scheduler_is_one_line() -> None:
    """The scheduler stops while a command waits for its tasks: the client gives up and
    cancels them, and the command says so in one line with exit code 2 (it was a traceback
    of CancelledError, exit code 1). The tasks stall in the worker, so the command is still
    waiting when the cluster closes."""
    import threading

    from distributed import Client, LocalCluster, WorkerPlugin

    from holdem import cli

    class Stall(WorkerPlugin):  # type: ignore[misc]  # untyped library
        def transition(self, key: object, start: str, finish: str, **kwargs: object) -> None:
            if finish == "executing":
                time.sleep(60)

    data = str(ROOT / "tests" / "data" / "public_50.phhs")
    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    address = cluster.scheduler_address
    with Client(cluster) as client:
        client.register_plugin(Stall())
    codes: list[int] = []
    err = io.StringIO()
    command = threading.Thread(target=lambda: codes.append(cli.main(
        ["stats", data, "--scheduler", address], stdout=io.StringIO(), stderr=err)))
    command.start()
    deadline = time.monotonic() + 60
    while not cluster.scheduler.tasks and time.monotonic() < deadline:
        time.sleep(0.05)
    assert cluster.scheduler.tasks, "the command sent no task"
    cluster.close()
    command.join(120)
    assert codes == [2]
    assert err.getvalue() == (f"holdem stats: error: lost the scheduler at {address} (it "
                              "stopped, or the network failed)\n")


def test_tornado_logs_nothing_while_a_dask_command_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during a ``--scheduler`` run sometimes printed a tornado traceback (``Exception
    in callback ... FutureCancelledError``) before "interrupted": the client's loop passes each
    task's result on to the command (distributed.cfexecutor._cascade_future), and when Ctrl-C
    cancels a task whose result is on the way, that callback fails and tornado.application
    logs it at ERROR. The command silences that logger while its client is in use, and
    restores it after. Here such a callback fails on the loop of a real cluster's client,
    every time, while a command runs (a Ctrl-C meets that race in a few runs out of 40)."""
    import logging

    from distributed import LocalCluster, cfexecutor
    from distributed.client import FutureCancelledError
    from tornado import gen

    from holdem import cli

    cascade = cfexecutor._cascade_future
    failed: list[object] = []

    @gen.coroutine
    def cascade_after_a_cancelled_one(future: Any, cf_future: Any) -> Any:
        @gen.coroutine
        def cancelled() -> None:
            failed.append(future.key)
            raise FutureCancelledError(future.key, reason="Ctrl-C")

        future.client.loop.add_callback(cancelled)
        yield gen.sleep(0.05)  # tornado logs its failure before the result is passed on
        yield cascade(future, cf_future)

    class Records(logging.Handler):
        def __init__(self) -> None:
            super().__init__()
            self.records: list[logging.LogRecord] = []

        def emit(self, record: logging.LogRecord) -> None:
            self.records.append(record)

    handler = Records()
    log = logging.getLogger("tornado.application")
    level = log.level
    log.addHandler(handler)
    monkeypatch.setattr(cfexecutor, "_cascade_future", cascade_after_a_cancelled_one)
    try:
        with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
            out, err = io.StringIO(), io.StringIO()
            assert cli.main(["equity", "AsKs", "QdQc", "--samples", "20000", "--seed", "1",
                             "--scheduler", cluster.scheduler_address], stdout=out,
                            stderr=err) == 0
    finally:
        log.removeHandler(handler)
    assert failed, "no task went through the executor's callback"
    assert [r.getMessage() for r in handler.records] == [] and err.getvalue() == ""
    assert "20,000 boards (Monte Carlo, seed 1)" in out.getvalue()
    assert log.level == level  # restored


def test_stats_refuses_one_file_for_the_chart_and_the_grid(tmp_path: Path) -> None:
    """The grid was written over the chart without a word: one line, exit code 2, no file."""
    data = str(ROOT / "tests" / "data" / "public_50.phhs")
    r = run("stats", data, "--chart", "x.svg", "--grid", str(tmp_path / "x.svg"), cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().endswith("the grid would overwrite the chart; give two files")
    assert len(r.stderr.strip().splitlines()) == 1 and not (tmp_path / "x.svg").exists()


def test_stats_says_which_files_it_wrote(tmp_path: Path) -> None:
    """--chart and --grid used to write their files without a word: one line each on stderr
    (stdout keeps only the table)."""
    data = str(ROOT / "tests" / "data" / "public_50.phhs")
    chart, grid = tmp_path / "c.svg", tmp_path / "g.svg"
    r = run("stats", data, "--chart", str(chart), "--grid", str(grid), "--player", "p2",
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr == (f"wrote the cumulative winnings chart to {chart}\n"
                        f"wrote the starting-hand grid of p2 to {grid}\n")
    assert chart.read_text().startswith("<svg") and grid.read_text().startswith("<svg")
    assert r.stdout.splitlines()[0].split()[:2] == ["player", "hands"]
    alone = run("stats", data, "--grid", "g2.svg", cwd=tmp_path)  # the most hands: p1
    assert alone.returncode == 0 and alone.stderr == "wrote the starting-hand grid of p1 to g2.svg\n"
    assert (tmp_path / "g2.svg").exists()
    table = run("stats", data, cwd=tmp_path)
    assert table.returncode == 0 and table.stderr == ""


def test_simulate_and_export_say_which_files_they_wrote(tmp_path: Path) -> None:
    r = run("simulate", "--players", "2", "--hands", "20", "--seed", "1", "--chart", "w.svg",
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines()[0] == "wrote the cumulative winnings chart to w.svg"
    r = run("export", str(ROOT / "tests" / "data" / "public_50.phhs"), "-o", "out.txt",
            cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == ""
    assert r.stderr == "wrote 50 hands as PokerStars text to out.txt\n"
    assert (tmp_path / "out.txt").read_text().startswith("PokerStars Hand #")


def test_stats_bad_input_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.phh"
    bad.write_text("this is not a hand history\n")
    for args in ([str(bad)], [str(tmp_path / "missing.phh")], [str(tmp_path)],
                 [str(ROOT / "tests" / "data" / "public_50.phhs"), "--grid",
                  str(tmp_path / "g.svg"), "--player", "nobody"],
                 [str(ROOT / "tests" / "data" / "public_50.phhs"), "--player", "p1"]):
        r = run("stats", *args, cwd=tmp_path)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, (args, r.stderr)
        assert r.stderr.startswith("holdem stats: error: ")
        assert r.stdout == "", args  # refused before the table is printed


def test_stats_reads_pokerstars_files_and_reports_net_in_their_units(tmp_path: Path) -> None:
    """``holdem stats`` reads PokerStars text too (a file or a folder), and a cash
    game in dollars is played in cents but reported in dollars."""
    from fractions import Fraction

    from holdem.history import replay
    from holdem.pokerstars import parse

    cents = ROOT / "tests" / "data" / "pokerstars" / "cash-nl-cents.txt"
    expected: dict[str, Fraction] = {}
    for hh in parse(cents):
        played = replay(hh)
        for name, pay in zip(hh.players, played.state.payoffs, strict=True):
            expected[name] = expected.get(name, Fraction(0)) + pay * played.chip_unit
    assert any(v.denominator != 1 for v in expected.values())  # really cents
    r = run("stats", str(cents))
    assert r.returncode == 0, r.stderr
    rows = {line.split()[0]: line for line in r.stdout.splitlines()[1:]}
    assert set(rows) == {n.split()[0] for n in expected}
    for name, net in expected.items():
        shown = f"{float(net):+,.2f}" if net.denominator != 1 else f"{int(net):+,}"
        assert shown in rows[name.split()[0]], (name, shown, rows[name.split()[0]])
    folder = run("stats", str(cents.parent))
    assert folder.returncode == 0, folder.stderr
    assert len(folder.stdout.splitlines()) > len(r.stdout.splitlines())


def test_an_output_file_that_cannot_be_written_stops_before_the_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """simulate played every hand, then failed on --chart: the result of a long run was lost
    (nothing printed but the error); stats printed its table, then failed on --grid."""
    from holdem.cli import main

    def no_simulation(*args: object, **kwargs: object) -> None:
        raise AssertionError("simulated although the chart cannot be written")

    monkeypatch.setattr(sys.modules["holdem.simulate"], "simulate", no_simulation)
    for bad in (tmp_path / "missing" / "w.svg", tmp_path):
        out, err = io.StringIO(), io.StringIO()
        assert main(["simulate", "--hands", "100000", "--chart", str(bad)], stdout=out,
                    stderr=err) == 2
        assert out.getvalue() == "" and err.getvalue().count("\n") == 1
        assert err.getvalue().startswith(f"holdem simulate: error: cannot write {bad}: ")
    data = str(ROOT / "tests" / "data" / "public_50.phhs")
    out, err = io.StringIO(), io.StringIO()
    assert main(["stats", data, "--chart", str(tmp_path / "c.svg"), "--grid",
                 str(tmp_path / "missing" / "g.svg")], stdout=out, stderr=err) == 2
    assert out.getvalue() == "" and err.getvalue().count("\n") == 1
    assert "cannot write" in err.getvalue()
    assert list(tmp_path.iterdir()) == []  # the check leaves no empty file behind


@pytest.mark.parametrize("workers", ["1", "2"])
def test_stdin_that_is_not_text_is_reported_in_its_place(tmp_path: Path, workers: str) -> None:
    """Standard input is read when its place in the files is cut into chunks, ahead of the
    hands before it: bytes that are not text there were raised at once, so stats and export
    named them instead of an earlier bad hand, and replay stopped without the lines of the
    hands before it (how many depended on the workers)."""
    from holdem import cli, phh
    from holdem.cli._hands import CHUNK_HANDS

    hands = _random_hands(CHUNK_HANDS + 20, seed=4)
    hands[-1] = hands[-1].replace(actions=hands[-1].actions[:6])  # dealt, not played
    path = tmp_path / "a.phhs"
    phh.dump_all(hands, path)

    def stdin() -> io.TextIOWrapper:
        return io.TextIOWrapper(io.BytesIO(b"[1]\nvariant = 'NT'\xff\n"), encoding="utf-8")

    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["stats", str(path), "-", "--workers", workers], stdin=stdin(),
                    stdout=out, stderr=err) == 2
    assert err.getvalue().count("\n") == 1
    assert f"a.phhs[{len(hands)}]: the hand is not finished" in err.getvalue()
    out, err = io.StringIO(), io.StringIO()
    assert cli.main(["replay", str(path), "-", "--workers", workers], stdin=stdin(),
                    stdout=out, stderr=err) == 1
    lines = out.getvalue().splitlines()
    assert err.getvalue() == "" and len(lines) == len(hands) + 2
    assert lines[-2] == "ERROR     <stdin>: not utf-8 text (invalid start byte)"
    text = path.read_text().replace(f"[{len(hands)}]\nvariant = ", f"[{len(hands)}]\n"
                                    "variant = 'XX'\n_v = ", 1)
    path.write_text(text)
    err = io.StringIO()
    assert cli.main(["export", str(path), "-", "--workers", workers], stdin=stdin(),
                    stdout=io.StringIO(), stderr=err) == 2
    assert f"a.phhs[{len(hands)}]: variant 'XX' is not supported" in err.getvalue()


def _exit_at_once(*args: Any) -> Any:
    os._exit(3)  # a worker killed in the middle of its chunk (the OOM killer, kill -9)


def test_a_worker_that_dies_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker process that dies breaks the pool: its BrokenProcessPool was a traceback."""
    import multiprocessing

    from holdem import cli
    from holdem.cli import _hands

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the workers must be forked to see the patched module")
    monkeypatch.setattr(_hands, "parse_source", _exit_at_once)  # the forked workers' copy
    err = io.StringIO()
    data = str(ROOT / "tests" / "data" / "public_50.phhs")
    assert cli.main(["stats", data, "--workers", "2"], stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue().count("\n") == 1
    assert err.getvalue().startswith("holdem stats: error: a worker process stopped abruptly")


def test_stats_chunks_share_the_allin_equities(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chunk of ``holdem stats`` had its own equity cache, so a hand seen in an earlier
    chunk (a file given twice, duplicate hands) was worked out again: twice the time. The
    equities a process works out are now shared by every Stats, by ``allin_samples``."""
    from holdem import cli, phh
    from holdem.cli._hands import CHUNK_HANDS

    module = sys.modules["holdem.equity"]  # the module (holdem.equity is the function)
    stats_module = sys.modules["holdem.stats"]
    calls = []
    real = module.equity

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs.get("samples"))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "equity", counted)
    path = tmp_path / "a.phhs"
    phh.dump_all(_random_hands(CHUNK_HANDS + 10, seed=6), path)
    counts = []
    for files in ([path], [path, path]):
        monkeypatch.setattr(stats_module, "_EQUITIES", {})
        calls.clear()
        out = io.StringIO()
        assert cli.main(["stats", *map(str, files), "--allin-samples", "50", "--workers", "1"],
                        stdout=out, stderr=io.StringIO()) == 0
        counts.append(len(calls))
    assert counts[0] > 10 and counts[1] == counts[0]  # the second copy: every equity known
    assert 50 in calls  # preflop all-ins sampled (later ones stay exact)
    out = io.StringIO()  # an exact run does not take the sampled equities
    assert cli.main(["stats", str(path), "--workers", "1"], stdout=out,
                    stderr=io.StringIO()) == 0
    assert {key[0] for key in stats_module._EQUITIES} == {None, 50}
