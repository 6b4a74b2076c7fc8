"""What a new user hit in the first hour, each test named after its item.

The command line is driven as a user would: ``python -m holdem ...`` in a subprocess.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from child_env import child_env
from on_terminal import run_on_terminal

import holdem
from holdem import CallAgent, Game, HoldemError, InvalidConfigError
from holdem.table.agents import ActionLike, Observation

ROOT = Path(__file__).resolve().parent.parent
ENV = child_env(COLUMNS="100")


def run(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "holdem", *args], input=stdin, capture_output=True, text=True,
        env=ENV, cwd=ROOT, timeout=timeout,
    )


def one_line_error(r: subprocess.CompletedProcess[str], prog: str) -> str:
    """Assert the bad-input contract (exit 2, one line on stderr, no traceback); the line."""
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1, r.stderr[-2000:]
    assert r.stderr.startswith(f"holdem {prog}: error: "), r.stderr
    return r.stderr


# --- item 1: Ctrl-C stops runs with worker processes -------------------------------------------

needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/stat"),
                                reason="finds the worker processes in /proc (Linux)")


def _children(pid: int) -> list[int]:
    """Live child processes of ``pid`` (from /proc; zombies do not count)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(entry))
    return out


def _alive(pids: list[int]) -> list[int]:
    alive = []
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    alive.append(p)
        except OSError:
            pass
    return alive


def _interrupt_after_workers_start(cmd: list[str], workers: int) -> tuple[int, float, list[int],
                                                                          str]:
    """Start ``cmd``, wait until ``workers`` worker processes run, send SIGINT (as Ctrl-C
    does); returns (exit code, seconds from SIGINT to exit, the workers, stderr)."""
    proc = subprocess.Popen(
        cmd, env=ENV, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # a shell may start background jobs with SIGINT ignored: give the child the default
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        kids: list[int] = []
        while time.monotonic() < deadline and proc.poll() is None:
            kids = _children(proc.pid)
            if len(kids) >= workers:
                break
            time.sleep(0.05)
        assert len(kids) >= workers, "the worker processes never started"
        time.sleep(0.5)  # the workers are busy now
        assert proc.poll() is None, "the run ended before it could be interrupted"
        start = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        took = time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    time.sleep(0.2)
    return proc.returncode, took, _alive(kids), err


@pytest.mark.parametrize(
    "args",
    [
        ("simulate", "--players", "6", "--hands", "400000", "--seed", "4", "--workers", "2"),
        ("equity", "AK", "22+", "--samples", "3000000000", "--workers", "2"),
    ],
    ids=["simulate", "equity"],
)
@needs_proc
def test_item_1_ctrl_c_stops_the_cli_and_its_workers(args: tuple[str, ...]) -> None:
    code, took, alive, err = _interrupt_after_workers_start(
        [sys.executable, "-m", "holdem", *args], 2)
    assert code == 130, err
    assert took < 3.0, f"took {took:.1f} s to stop"
    assert alive == [], f"worker processes still running: {alive}"
    assert err.endswith(f"holdem {args[0]}: interrupted\n") and "Traceback" not in err


API_SCRIPT = """
import sys, time, holdem
what = sys.argv[1]
try:
    if what == "simulate":
        holdem.simulate([holdem.RandomAgent(), holdem.CallAgent(), holdem.EquityAgent()],
                        holdem.Game(big_blind=2), hands=400_000, seed=1)
    else:
        holdem.equity(["AK", "22+"], samples=3_000_000_000, seed=1)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
"""


@pytest.mark.parametrize("what", ["simulate", "equity"])
@needs_proc
def test_item_1_ctrl_c_stops_the_python_api_and_its_workers(what: str) -> None:
    if holdem._parallel.cpu_count() < 2:
        pytest.skip("executor=None runs in-process on one core: no pool to stop")
    code, took, alive, err = _interrupt_after_workers_start(
        [sys.executable, "-c", API_SCRIPT, what], 2)
    assert code == 3, err  # KeyboardInterrupt reached the caller
    assert took < 3.0, f"took {took:.1f} s to stop"
    assert alive == [], f"worker processes still running: {alive}"


def test_item_1_interrupted_wait_cancels_pending_tasks_of_a_callers_pool() -> None:
    """A pool the caller passed in keeps running (it is the caller's), but the tasks that
    had not started are cancelled."""
    from concurrent.futures import ThreadPoolExecutor

    from holdem._parallel import Runner

    with ThreadPoolExecutor(max_workers=1) as pool:
        runner = Runner(pool, 1)
        results = runner.imap(time.sleep, [(0.2,)] * 20)
        next(results)
        results.close()  # the consumer stops early, as an interrupted wait does
        start = time.monotonic()
    assert time.monotonic() - start < 1.0  # not 19 more sleeps


# --- item 3: progress on long runs -------------------------------------------------------------

LINE = re.compile(
    r"^(simulate|equity): [\d,]+/([\d,]+) (hands|boards) \(\d+%\), [\d,]+ \3/s, "
    r"\d+:\d\d elapsed, ETA (\d+:\d\d|\?)$"
)


@pytest.mark.parametrize(
    ("args", "total"),
    [
        # the built-in agents play on the batched engine: enough hands for a second or two
        (("simulate", "--players", "6", "--hands", "60000", "--seed", "1", "--workers", "1"),
         "60,000"),
        (("equity", "AK", "22+", "--samples", "40000000", "--seed", "1", "--workers", "1"),
         "40,000,000"),
    ],
    ids=["simulate", "equity"],
)
def test_item_3_progress_lines_when_stderr_is_not_a_terminal(args: tuple[str, ...],
                                                             total: str) -> None:
    r = run(*args, "--progress", "0.1")
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stderr.splitlines() if LINE.match(ln)]
    assert len(lines) >= 2, r.stderr  # at least one while running, and the last one
    assert all(LINE.match(ln).group(2) == total for ln in lines)  # type: ignore[union-attr]
    assert f"{total}/{total}" in lines[-1] and "(100%)" in lines[-1]
    assert "\r" not in r.stderr


def test_item_3_short_runs_stay_quiet_by_default_and_no_progress_silences() -> None:
    r = run("simulate", "--players", "3", "--hands", "200", "--seed", "1", "--workers", "1")
    assert r.returncode == 0 and "hands/s," not in r.stderr and "ETA" not in r.stderr
    r = run("simulate", "--players", "3", "--hands", "200", "--seed", "1", "--workers", "1",
            "--progress", "0.1", "--no-progress")
    assert r.returncode == 0 and "ETA" not in r.stderr


def test_item_3_progress_bar_on_a_terminal() -> None:
    """On a terminal the bar is redrawn in place (``\\r``) with the rate and the ETA."""
    status, text = run_on_terminal(["simulate", "--players", "3", "--hands", "2000", "--seed",
                                    "1", "--workers", "1", "--progress"], ENV, ROOT)
    assert status == 0
    assert "\rsimulate 2,000/2,000 hands [" in text and "100%" in text
    assert re.search(r"hands/s, \d+:\d\d elapsed, ETA \d+:\d\d", text), text


def test_item_3_progress_argument_is_checked() -> None:
    with pytest.raises(InvalidConfigError, match="progress"):
        holdem.simulate([CallAgent(), CallAgent()], Game(big_blind=2), hands=10,
                        executor="serial", progress=-1)
    with pytest.raises(InvalidConfigError, match="progress"):
        holdem.equity(["AsKs", "QdQc"], samples=1000, seed=1, progress="yes")  # type: ignore[arg-type]


def test_item_3_progress_lines_from_the_python_api(capsys: pytest.CaptureFixture[str]) -> None:
    holdem.equity(["AK", "22+"], samples=300_000, seed=1, executor="serial", progress=True)
    err = capsys.readouterr().err
    assert LINE.match(err.splitlines()[-1]) and "300,000/300,000 boards (100%)" in err


def test_item_3_progress_report_forms() -> None:
    import io

    from holdem._progress import Progress, format_duration

    assert [format_duration(x) for x in (0, 59.4, 61, 3600, 3725)] == [
        "0:00", "0:59", "1:01", "1:00:00", "1:02:05"]
    out = io.StringIO()  # not a terminal: lines
    with Progress("job", "items", 10, 0.01, stream=out) as bar:
        for _ in range(5):
            time.sleep(0.02)
            bar.update(2)
    lines = out.getvalue().splitlines()
    assert len(lines) >= 2 and lines[-1].startswith("job: 10/10 items (100%), ")
    assert all("items/s, " in ln and " elapsed, ETA " in ln for ln in lines)
    quiet = io.StringIO()  # automatic and short: nothing
    with Progress("job", "items", 10, None, stream=quiet) as bar:
        bar.update(10)
    assert quiet.getvalue() == ""
    with pytest.raises(KeyboardInterrupt), Progress("job", "items", 10, True, stream=quiet):
        raise KeyboardInterrupt  # an interrupted run prints no final line
    assert quiet.getvalue() == ""


# --- item 4: unpicklable agents ------------------------------------------------------------------


def _local_agent() -> object:
    class Local(CallAgent):  # decides in Python (a subclass as it is plays CallAgent's C policy)
        def act(self, observation: Observation) -> ActionLike:
            return super().act(observation)

    return Local()


@pytest.mark.parametrize("kind", ["lambda", "local class"])
def test_item_4_unpicklable_agent_says_what_to_do(kind: str) -> None:
    from concurrent.futures import ProcessPoolExecutor

    agent = (lambda obs: None) if kind == "lambda" else _local_agent()
    with ProcessPoolExecutor(max_workers=2) as pool, pytest.raises(InvalidConfigError) as info:
        holdem.simulate({"odd": agent, "call": CallAgent()}, Game(big_blind=2), hands=1000,
                        seed=1, executor=pool)
    msg = str(info.value)
    assert isinstance(info.value, HoldemError)
    assert "pickle" in msg and "executor='serial'" in msg and "module-level class" in msg
    # the advice works: in-process, the same agent plays
    if kind == "local class":
        r = holdem.simulate({"odd": agent, "call": CallAgent()}, Game(big_blind=2), hands=20,
                            seed=1, executor="serial")
        assert r.hands == 20


# --- item 7: arguments accepted silently ---------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("simulate", "--agents", "random,,call"), "has an empty name"),
        (("simulate", "--agents", ","), "needs at least one agent name"),
        (("simulate", "--players", "2", "--agents", "random,call,equity"),
         "names 3 agents for 2 seats: equity would not play"),
        (("play", "--players", "2", "--agents", "random,call"),
         "names 2 agents for 1 other seat: call would not play"),
        (("play", "--agents", "call,,random"), "has an empty name"),
    ],
)
def test_item_7_agents_list_is_refused_not_trimmed(args: tuple[str, ...], why: str) -> None:
    assert why in one_line_error(run(*args), args[0])


def test_item_7_default_agents_still_fit_any_table() -> None:
    r = run("simulate", "--players", "2", "--hands", "20", "--seed", "1")
    assert r.returncode == 0 and "random-1" in r.stdout and "call-2" in r.stdout
    assert "equity" not in r.stdout


def test_item_7_empty_range_on_the_command_line() -> None:
    assert "player 2: a hand has 2 cards, not 0" in one_line_error(run("equity", "AsKs", " "),
                                                                   "equity")


# --- item 8: output conventions ------------------------------------------------------------------


def test_item_8_equity_explains_its_plus_minus() -> None:
    r = run("equity", "AsKs", "QQ+", "--samples", "20000", "--seed", "1")
    assert r.returncode == 0 and " ± " in r.stdout
    assert "standard error" in r.stdout.splitlines()[-1]
    exact = run("equity", "AsKs", "QdQc")
    assert "±" not in exact.stdout and "standard error" not in exact.stdout


def test_item_8_players_are_numbered_from_1_for_people() -> None:
    err = one_line_error(run("equity", "AsKs", "AsQd"), "equity")
    assert "player 2 (AsQd)" in err and "player 1's hand (AsKs)" in err
    with pytest.raises(HoldemError, match=r"player 2: a hand has 2 cards"):
        holdem.equity(["AsKs", ["Qd"]])


def test_item_8_exported_play_session_has_the_real_date(tmp_path: Path) -> None:
    saved = tmp_path / "session.phhs"
    before = time.gmtime()
    r = run("play", "--players", "2", "--hands", "2", "--seed", "3", "--save", str(saved),
            stdin="f\nf\nf\nf\n")
    assert r.returncode == 0, r.stderr
    out = run("export", str(saved))
    assert out.returncode == 0, out.stderr
    after = time.gmtime()
    days = {time.strftime("%Y/%m/%d", t) for t in (before, after)}
    stamps = re.findall(r" - (\d{4}/\d\d/\d\d) \d\d:\d\d:\d\d UTC", out.stdout)
    assert len(stamps) == 2 and set(stamps) <= days, out.stdout[:500]
    assert "1970/01/01" not in out.stdout


# --- holdem, the command: no traceback for bad input ----------------------------------------------

DEEP_RANGE = "0.5(" * 3000 + "AA" + ")" * 3000


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("simulate", "--big-blind", "9223372036854775808"), "above the limit of 2**53"),
        (("simulate", "--stack", str(2**64)), "above the limit of 2**53"),
        (("simulate", "--hands", "9" * 5000), "(5000 characters) is too large"),
        (("simulate", "--seed", "7" * 5000), "(5000 characters) is too large"),
        (("equity", "AsKs", "QdQc", "--samples", str(2**53 + 1)), "above the limit of 2**53"),
        (("equity", "AsKs", DEEP_RANGE), "weights nest at most 32 levels deep"),
        (("equity", "AsKs", "QdQc", "--progress", "nan"), "give seconds above 0"),
        (("export", "/no/such/file.phh"), "cannot read /no/such/file.phh"),
        (("export", str(ROOT)), "cannot read"),
        (("play", "--save", "/no/such/folder/x.phhs"), "cannot write"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None,
)
def test_the_command_never_prints_a_traceback_for_bad_input(args: tuple[str, ...],
                                                            why: str) -> None:
    assert why in one_line_error(run(*args, stdin="quit\n"), args[0])


# --- item 2: the wheel can be used from Cython ----------------------------------------------------

TINY_PYX = """
# cython: language_level=3
from libc.stdint cimport int32_t, int64_t, uint8_t
from holdem._eval cimport eval_cards_c
from holdem._pots cimport HD_POTS_OK, hd_pot_result_t, split_pots_c


def rank(cards):
    cdef uint8_t buf[7]
    cdef int n = len(cards)
    for i in range(n):
        buf[i] = cards[i]
    with nogil:
        r = eval_cards_c(buf, n)
    return r


def payouts(committed, ranks, int button):
    cdef int64_t c[10]
    cdef uint8_t folded[10]
    cdef int32_t r[10]
    cdef hd_pot_result_t out
    cdef int n = len(committed)
    for i in range(n):
        c[i] = committed[i]
        folded[i] = 0
        r[i] = ranks[i]
    with nogil:
        code = split_pots_c(c, folded, r, n, button, 0, NULL, True, &out)
    assert code == HD_POTS_OK, code
    return [out.payouts[i] for i in range(n)]
"""

TINY_SETUP = """
import holdem
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(name="tiny", ext_modules=cythonize(
    [Extension("tiny", ["tiny.pyx"], include_dirs=[holdem.get_include()])],
    language_level=3))
"""

TINY_RUN = """
import sys, holdem, tiny
site = sys.argv[1]
assert holdem.__file__.startswith(site), holdem.__file__
assert holdem.get_include().startswith(site), holdem.get_include()
for text in ("AsKsQsJsTs", "2c3d4h5s7c", "AhAdKcKs9h2d3c", "7h7d7c2s2d"):
    cards = [int(c) for c in holdem.parse_cards(text)]
    assert tiny.rank(cards) == holdem.evaluate(text), text
assert tiny.rank([0, 0, 1, 2, 3]) == 0  # a repeated card: 0, never out of bounds
assert tiny.payouts([100, 100, 100], [7, 3, 7], 0) == [150, 0, 150]
print("ok")
"""


@pytest.mark.slow
def test_item_2_cython_extension_builds_against_the_installed_wheel(tmp_path: Path) -> None:
    """Build the wheel (from a copy of the source tree, which stays as it was), install it
    into a folder of its own, compile a tiny extension that cimports the evaluator and the
    pots kernel with ``holdem.get_include()``, and run it."""
    pytest.importorskip("Cython")
    if not (ROOT / "setup.py").exists():
        pytest.skip("needs the source tree to build a wheel")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    dist, site, ext = tmp_path / "dist", tmp_path / "site", tmp_path / "ext"
    ext.mkdir()

    def sh(*cmd: str, cwd: Path = ROOT, **extra: str) -> str:
        r = subprocess.run(cmd, cwd=cwd, env={**env, **extra}, capture_output=True,
                           text=True, timeout=1800)
        assert r.returncode == 0, (cmd, r.stdout[-3000:], r.stderr[-3000:])
        return r.stdout

    # built from a copy: a build in the source tree would regenerate its C files and its build
    # flavour stamp (a sanitizer or debug build there would then read as a release build)
    src = tmp_path / "src"
    sh("bash", str(ROOT / "tools" / "copy_tree.sh"), str(ROOT), str(src))
    # a debug build (-O0) compiles in a third of a release build's time; what this checks (the
    # headers and declarations the wheel ships, a cimport against them) is the same in both
    sh(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
       "-w", str(dist), str(src), HOLDEM_DEBUG="1")
    (wheel,) = dist.glob("holdem_engine-*.whl")
    sh(sys.executable, str(ROOT / "tools" / "check_dist.py"), str(wheel))
    sh(sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site),
       str(wheel))
    assert (site / "holdem" / "hd_eval.h").exists() and (site / "holdem" / "_pots.pxd").exists()
    (ext / "tiny.pyx").write_text(TINY_PYX)
    (ext / "setup.py").write_text(TINY_SETUP)
    sh(sys.executable, "setup.py", "-q", "build_ext", "--inplace", cwd=ext, PYTHONPATH=str(site))
    out = sh(sys.executable, "-c", TINY_RUN, str(site), cwd=ext,
             PYTHONPATH=os.pathsep.join([str(ext), str(site)]))
    assert out.strip() == "ok"


def test_item_2_get_include_holds_the_headers() -> None:
    inc = Path(holdem.get_include())
    for header in ("hd_eval.h", "hd_pots.h", "hd_common.h", "hd_tables.h"):
        assert (inc / header).exists(), header


# --- item 9: packaging ------------------------------------------------------------------------------


def test_item_9_no_placeholder_project_url_and_no_relative_links_in_readme() -> None:
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for url in meta.get("urls", {}).values():
        assert "example." not in url and url.startswith("https://"), url
    readme = (ROOT / "README.md").read_text()
    # the README is the package index page: a relative link goes nowhere there
    links = re.findall(r"(?<!!)\[[^\]]*\]\(([^)]+)\)", readme)
    assert [u for u in links if not u.startswith(("https://", "http://", "#"))] == []
    # Images are the one exception while the project has no public home to link them from:
    # each must be a file of the repository that the sdist ships (MANIFEST.in), so it shows
    # on the repository page and travels with the source.
    for src in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme):
        if not src.startswith(("https://", "http://")):
            assert (ROOT / src).is_file(), src
            assert src.startswith("docs/"), src
            assert "graft docs" in (ROOT / "MANIFEST.in").read_text().splitlines(), src
    assert "In\n  brief:" in readme and "R31" in readme


def test_item_9_release_builds_strip_the_extensions() -> None:
    if not (ROOT / "setup.py").exists():
        pytest.skip("needs the source tree (setup.py)")
    text = (ROOT / "setup.py").read_text()
    assert 'ldflags += ["-s"]' in text
    stamp = ROOT / "build" / "holdem-flavour.txt"
    so = next((ROOT / "holdem").glob("_eval*.so"), None)
    if not sys.platform.startswith("linux") or so is None or not stamp.exists():
        pytest.skip("needs a Linux build in the source tree")
    if stamp.read_text() != "debug=0 sanitize=0":
        pytest.skip("a debug or sanitizer build keeps its symbols")
    # a stripped ELF file has no .symtab section (only the dynamic symbols)
    assert b".symtab" not in so.read_bytes(), f"{so.name} is not stripped"


# --- item 10: a source checkout without built extensions -------------------------------------------


@pytest.mark.parametrize("pure", ["", "1"])
def test_item_10_import_from_unbuilt_source_says_why(tmp_path: Path, pure: str) -> None:
    import shutil

    # the imported package (the source tree's holdem/, or an installed one): its Python files
    shutil.copytree(Path(holdem.__file__).resolve().parent, tmp_path / "holdem",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HOLDEM_PURE_PYTHON")}
    if pure:
        env["HOLDEM_PURE_PYTHON"] = pure
    # -S: no site-packages, so no installed (or editable) holdem can answer for the copy
    r = subprocess.run([sys.executable, "-S", "-c", "import holdem"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: holdem's compiled extensions are not built"), last
    assert "pip install ." in last and "python setup.py build_ext --inplace" in last
    assert "ModuleNotFoundError" not in r.stderr


# --- item 6: holdem play -----------------------------------------------------------------------------


def _quit_after(moves: str, *args: str) -> tuple[str, str]:
    """(the prompt answered by 'quit', the leave message) of a scripted session."""
    r = run("play", *args, stdin=moves + "quit\n")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    at = lines.index("> quit")
    prompt = next(ln for ln in reversed(lines[:at]) if ln.startswith("Your turn ("))
    return prompt, lines[at + 1]


def test_item_6_quit_facing_a_bet_folds_and_says_so() -> None:
    prompt, said = _quit_after("c\n", "--seed", "1")
    assert prompt.startswith("Your turn (to call ")
    assert said == "You leave the table: your hand is folded."


def test_item_6_quit_when_checking_is_free_checks_and_says_so() -> None:
    prompt, said = _quit_after("c\n", "--players", "2", "--agents", "call", "--seed", "1")
    assert prompt.startswith("Your turn (no bet to you")
    assert said == ("You leave the table: you check while checking is free, and fold if "
                    "someone bets.")


def test_item_6_readme_scripted_hand_is_a_real_hand() -> None:
    """The README's scripted example plays a whole hand (no move refused) and prints what
    the README shows."""
    readme = (ROOT / "README.md").read_text()
    (line,) = [ln for ln in readme.splitlines() if ln.startswith("printf ") and "holdem play" in ln]
    script, command = line.split(" | ")
    moves = script.removeprefix("printf '").removesuffix("'").replace("\\n", "\n")
    args = command.split()[2:]
    r = run("play", *args, stdin=moves)
    assert r.returncode == 0, r.stderr
    assert "cannot" not in r.stdout and "You may:" in r.stdout
    shown = readme.split("The scripted hand, shortened", 1)[1].split("```text\n", 1)[1]
    shown = shown.split("```", 1)[0]
    for expected in shown.splitlines():
        if expected != "...":
            assert expected in r.stdout.splitlines(), expected
