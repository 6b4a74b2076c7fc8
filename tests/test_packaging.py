"""Packaging: what a user gets from ``pip install holdem-engine``.

Import time is a benchmark (bench/bench_import.py), not a timed test; stubs and py.typed are checked against the compiled modules that
exist; the metadata must declare no runtime dependencies.
"""

from __future__ import annotations

import importlib.machinery
import importlib.metadata
import importlib.util
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

import holdem

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path(holdem.__file__).resolve().parent


def installed() -> bool:
    """Is this checkout installed (``pip install -e .``), rather than built in place?"""
    try:
        dist = importlib.metadata.distribution("holdem-engine")
    except importlib.metadata.PackageNotFoundError:
        return False
    return dist.read_text("direct_url.json") is not None or dist.version == holdem.__version__


def compiled_modules() -> list[str]:
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    names = {
        p.name.split(".")[0] for p in PACKAGE.iterdir() if any(p.name.endswith(s) for s in suffixes)
    }
    names |= {p.stem for p in PACKAGE.glob("*.pyx")}
    return sorted(names)


def test_every_compiled_module_has_a_stub_and_the_package_is_typed() -> None:
    mods = compiled_modules()
    assert "_deck" in mods
    for name in mods:
        assert (PACKAGE / f"{name}.pyi").is_file(), f"holdem/{name} has no .pyi stub"
    assert (PACKAGE / "py.typed").is_file()


def test_compiled_modules_are_built() -> None:
    for name in compiled_modules():
        mod = __import__(f"holdem.{name}", fromlist=["_"])
        assert Path(mod.__file__ or "").suffix in {".so", ".pyd"}, name


def test_the_extensions_keep_the_c_core_private() -> None:
    """Built with hidden visibility (setup.py): each extension's dynamic symbol table defines
    its ``PyInit_*`` entry point and none of the ``hd_*`` functions of csrc/ that it links.
    They stay private to it: called directly, not through the PLT, and never resolved to
    another library's symbol of the same name."""
    import shutil

    nm = shutil.which("nm")
    libs = sorted(PACKAGE.rglob("*.so"))
    if not sys.platform.startswith("linux") or nm is None or not libs:
        pytest.skip("needs a Linux build of the extensions and binutils' nm")
    for lib in libs:
        out = subprocess.run([nm, "-D", "--defined-only", str(lib)], capture_output=True,
                             text=True, check=True).stdout
        names = {line.split()[-1] for line in out.splitlines() if line.strip()}
        assert f"PyInit_{lib.name.split('.')[0]}" in names, (lib.name, sorted(names))
        assert not {n for n in names if n.startswith("hd_")}, (lib.name, sorted(names))


def test_stubs_and_declarations_are_package_data() -> None:
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data = conf["tool"]["setuptools"]["package-data"]["holdem"]
    assert {"py.typed", "*.pyi", "*.pxd"} <= set(data)
    assert conf["tool"]["setuptools"]["include-package-data"] is False


def test_no_runtime_dependencies() -> None:
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert conf["project"]["dependencies"] == []
    if installed():  # pip install -e . (CI): the metadata pip saw says the same
        requires = importlib.metadata.requires("holdem-engine") or []
        assert all("extra ==" in r for r in requires), requires


def test_version() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+([ab]|rc)?\d*(\.dev\d+)?", holdem.__version__)
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" in conf["project"]["dynamic"]
    if installed():
        assert importlib.metadata.version("holdem-engine") == holdem.__version__


def test_all_is_exported() -> None:
    for name in holdem.__all__:
        assert hasattr(holdem, name), name


def test_every_public_name_resolves_including_lazy_ones() -> None:
    """``__all__`` names exist (some are imported on first use), functions that share their
    module's name stay functions, and unknown names raise AttributeError."""
    code = (
        "import holdem, holdem.equity, holdem.simulate, holdem.history, holdem.live.hand\n"
        "missing = [n for n in holdem.__all__ if not hasattr(holdem, n)]\n"
        "assert not missing, missing\n"
        "assert callable(holdem.equity) and callable(holdem.simulate)\n"
        "assert set(holdem.__all__) <= set(dir(holdem))\n"
        "extra = {n for n in dir(holdem) if not n.startswith('_')} - set(holdem.__all__)\n"
        "stray = [n for n in extra if getattr(getattr(holdem, n), '__name__', '') != 'holdem.' + n]\n"
        "assert not stray, stray  # only subpackages beside __all__, no helper imports\n"
        "from holdem import LiveHand, replay\n"
        "assert LiveHand.__module__ == 'holdem.live.hand' and replay.__module__ == 'holdem.history'\n"
        "try:\n    holdem.no_such_name\nexcept AttributeError:\n    pass\n"
        "else:\n    raise SystemExit('no AttributeError')\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_import_holdem_leaves_histories_and_live_dealing_unloaded() -> None:
    code = (
        "import sys, holdem\n"
        "lazy = {'holdem.history', 'holdem.phh', 'holdem.live.hand', 'holdem.live.events'}\n"
        "assert not lazy & set(sys.modules), lazy & set(sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


@pytest.mark.parametrize("module", ["holdem.hand._compiled", "holdem.table._loop"])
def test_a_missing_compiled_hand_core_is_reported_not_silent(module: str) -> None:
    """If the compiled hand core (or its table loop) fails to load, ``import holdem`` fails
    with one ImportError that says how to build it (no silent fallback);
    HOLDEM_PURE_PYTHON=1 chooses the reference core quietly."""
    code = (
        "import sys, warnings\n"
        f"sys.modules[{module!r}] = None  # import fails as in a broken build\n"
        "warnings.simplefilter('error')\n"
        "try:\n"
        "    import holdem\n"
        "except ImportError as exc:\n"
        "    msg = str(exc)\n"
        "else:\n"
        "    raise SystemExit('no ImportError')\n"
        "assert 'compiled hand core did not load' in msg, msg\n"
        f"assert {module!r} in msg, msg\n"
        "assert 'pip install -e .' in msg and 'build_ext --inplace' in msg, msg\n"
        "assert 'HOLDEM_PURE_PYTHON=1' in msg, msg\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "HOLDEM_PURE_PYTHON"}
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, env=env)
    quiet = (
        "import warnings\n"
        "warnings.simplefilter('error')\n"
        "import holdem\n"
        "from holdem.hand._reference import HandCore\n"
        "assert holdem.hand.game.HandCore is HandCore\n"
        "assert holdem.hand._core.table_loop is None\n"
        "s = holdem.Game(big_blind=2).new_hand([100, 100], button=0, seed=1)\n"
        "s.fold()\n"
        "assert s.is_terminal() and sum(s.payoffs) == 0\n"
    )
    subprocess.run([sys.executable, "-c", quiet], cwd=ROOT, check=True,
                   env={**env, "HOLDEM_PURE_PYTHON": "1"})
    compiled = (
        "import warnings\n"
        "warnings.simplefilter('error')\n"
        "import holdem\n"
        "from holdem.hand._compiled import HandCore\n"
        "assert holdem.hand.game.HandCore is HandCore\n"
    )
    subprocess.run([sys.executable, "-c", compiled], cwd=ROOT, check=True, env=env)


def test_every_subpackage_is_packaged() -> None:
    """A wheel holds the packages that pyproject.toml lists (``packages`` is explicit): every
    folder of holdem/ with an ``__init__.py`` must be among them, with its stubs and .pxd."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    # the imported package: the source tree's holdem/ in a checkout, site-packages' once installed
    top = PACKAGE.parent
    found = {".".join(p.parent.relative_to(top).parts) for p in PACKAGE.rglob("__init__.py")}
    assert found == set(meta["packages"])
    data = meta["package-data"]
    for pkg in found:
        folder = top.joinpath(*pkg.split("."))
        kinds = {p.suffix for p in folder.iterdir() if p.suffix in {".pyi", ".pxd"}}
        for suffix in kinds:
            assert f"*{suffix}" in data.get(pkg, []), (pkg, suffix)


def test_the_facade_lists_the_live_events_of_their_module() -> None:
    """``holdem`` names the events it imports on first use without importing their module."""
    import holdem.live.events

    assert holdem.live.events.__all__ == holdem._LAZY_EVENTS
    assert set(holdem.live.events.__all__) <= set(holdem.__all__)


def test_the_facade_all_is_what_a_type_checker_reads() -> None:
    """A type checker reads ``__all__`` only as list literals and other modules' ``__all__``
    (``from holdem import *`` under mypy drops a name added through a variable)."""
    import ast

    import holdem

    static: list[str] = []
    tree = ast.parse(Path(holdem.__file__ or "").read_text(encoding="utf-8"))
    for node in tree.body:
        target = (node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1
                  else node.target if isinstance(node, ast.AugAssign) else None)
        if not (isinstance(target, ast.Name) and target.id == "__all__"):
            continue
        assert isinstance(node, ast.Assign | ast.AugAssign)
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "__all__":
            assert isinstance(value.value, ast.Name)  # an imported module's __all__
            static += getattr(holdem, value.value.id).__all__
        else:
            assert isinstance(value, ast.List), ast.unparse(node)  # a literal, not a variable
            static += ast.literal_eval(value)
    assert static == holdem.__all__


# --- the sdist's contents ---------------------------------------------------------------------

# a working tree after a local test run: what the sdist keeps, and the caches it must leave out
_KEPT = ["README.md", "LICENSE", "pyproject.toml", "setup.py", "MANIFEST.in", "csrc/hd_eval.c",
         "csrc/hd_eval.h", "holdem/__init__.py", "holdem/_eval.pyx", "holdem/_eval.pxd",
         "holdem/_eval.pyi", "holdem/py.typed", "holdem/hand/_compiled.pyx",
         "tests/test_eval.py", "tests/data/public_50.jsonl", "tests/c/hd_eval_check.c",
         "bench/bench_eval.py", "tools/check_dist.py", "examples/vector_selfplay.py",
         "docs/img/winnings.svg"]
_SCRATCH = ["tests/.hypothesis/constants/0123", "tests/.hypothesis/unicode_data/x.json.gz",
            "tests/.pytest_cache/v/cache/lastfailed", "tests/__pycache__/test_eval.cpython-312.pyc",
            "bench/.benchmarks/Linux-CPython-3.12-64bit/0001_run.json", "bench/results/icount.json",
            "holdem/__pycache__/cards.cpython-312.pyc", "holdem/_eval.c",
            "holdem/_eval.cpython-312-x86_64-linux-gnu.so", "holdem/hand/_compiled.c",
            "tools/.mypy_cache/3.12/x.json", "examples/.ruff_cache/0.6/y"]


def test_the_sdist_manifest_leaves_out_the_caches_of_a_local_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """MANIFEST.in, applied by setuptools to a working tree after a local run (hypothesis's
    example database in tests/, pytest's and pytest-benchmark's caches, bytecode, generated C
    and compiled modules), keeps the sources and leaves every cache and build product out: an
    sdist built from a working tree holds what one built from a clean checkout does."""
    egg_info = pytest.importorskip("setuptools.command.egg_info")
    manifest = ROOT / "MANIFEST.in"
    if not manifest.is_file():
        pytest.skip("needs the source tree (MANIFEST.in)")
    for name in _KEPT + _SCRATCH:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    (tmp_path / "MANIFEST.in").write_text(manifest.read_text())
    monkeypatch.chdir(tmp_path)
    files = egg_info.FileList()
    files.findall()
    for line in manifest.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            files.process_template_line(line)
    assert sorted(files.files) == sorted(_KEPT)


def _check_dist() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_dist", ROOT / "tools" / "check_dist.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_check_dist_refuses_the_caches_of_a_local_run_in_an_sdist() -> None:
    """tools/check_dist.py (run on every sdist CI builds) names each cache folder once."""
    check = _check_dist()
    top = "holdem_engine-0.1.0"
    needed = ["csrc/hd_common.h", "csrc/hd_rng.h", "csrc/hd_deck.h", "csrc/hd_eval.h",
              "csrc/hd_tables.h", "csrc/hd_pots.h", "holdem/_deck.pyx", "holdem/_deck.pxd",
              "holdem/_deck.pyi", "holdem/hand/_compiled.pyx", "holdem/hand/_compiled.pxd",
              "holdem/table/_loop.pyx", "holdem/py.typed", "pyproject.toml", "setup.py",
              "README.md", "LICENSE"]
    clean = [top] + [f"{top}/{n}" for n in needed]
    assert check.check_sdist(clean) == []
    dirty = clean + [f"{top}/{n}" for n in _SCRATCH]
    problems = check.check_sdist(dirty)
    named = {p.split(" ")[0] for p in problems}
    assert named == {"tests/.hypothesis", "tests/.pytest_cache", "tests/__pycache__",
                     "bench/.benchmarks", "bench/results", "holdem/__pycache__", "holdem/_eval.c",
                     "holdem/_eval.cpython-312-x86_64-linux-gnu.so", "holdem/hand/_compiled.c",
                     "tools/.mypy_cache", "examples/.ruff_cache"}, problems
    assert len(problems) == len(named), problems  # each folder once, not each file in it


def test_the_wheel_tests_get_every_file_the_tests_read() -> None:
    """cibuildwheel runs the tests against each installed wheel from a folder holding only its
    ``test-sources``: every top-level file or folder of the tree that a test reads must be one
    of them, but for the source package and setup.py (never copied: the source package would
    shadow the wheel) and the CI workflows, which the tests that use them skip without."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["cibuildwheel"]
    sources = set(conf["test-sources"])
    assert not {"holdem", "setup.py"} & sources
    read: set[str] = set()
    for path in (ROOT / "tests").glob("*.py"):
        text = path.read_text()
        read |= set(re.findall(r'ROOT / "([\w.-]+)', text))
        read |= set(re.findall(r'parent\.parent / "([\w.-]+)', text))
    assert "tests" in sources and "examples" in read
    assert read - sources <= {"holdem", "setup.py", "build", ".github"}, read - sources


def test_the_build_requirements_hold_a_new_cython_major_off() -> None:
    """An isolated build takes the newest Cython the build requirements allow: a new major
    version (which changes the language's defaults, as 3.0 did) must not be it. The build
    without isolation (the test extra, for the wheel test), CI's TSan job and tools/tsan.sh ask
    for the same versions as the isolated build."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())
    build = {re.split(r"[<>=!~; ]", r, maxsplit=1)[0].lower(): r
             for r in conf["build-system"]["requires"]}
    assert set(build) == {"setuptools", "cython"}, build
    assert re.fullmatch(r"Cython>=3\.\d+,<4", build["cython"]), build["cython"]
    test_extra = conf["project"]["optional-dependencies"]["test"]
    assert build["cython"] in test_extra and build["setuptools"] in test_extra
    for script in (ROOT / "tools" / "tsan.sh", ROOT / ".github" / "workflows" / "ci.yml"):
        if script.exists():  # the source tree (the wheel tests get tools/, not .github/)
            text = script.read_text()
            assert f'"{build["cython"]}"' in text and f'"{build["setuptools"]}"' in text, script
            assert len(re.findall(r'"Cython[^"]*"', text)) == 1, script
