"""The package layout of docs/ARCHITECTURE.md holds: every module imports first in a fresh
interpreter (no import cycle depends on the order), and each layer imports only the layers
below it (checked on the module-level imports of the sources)."""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _package() -> Path:
    """The source tree's holdem/, or, with the tests run against an installed holdem from
    outside the tree (the wheel tests), the installed package: its plain-Python modules."""
    if (ROOT / "holdem" / "__init__.py").is_file():
        return ROOT / "holdem"
    spec = importlib.util.find_spec("holdem")
    assert spec is not None and spec.origin is not None, "holdem is not installed"
    return Path(spec.origin).resolve().parent


PKG = _package()


def _sources() -> dict[str, Path]:
    """holdem's modules (dotted names, a package by its own name) -> their source files."""
    out = {}
    for path in sorted(PKG.rglob("*")):
        if path.suffix not in {".py", ".pyx"} or "build" in path.parts:
            continue
        parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _compiled() -> set[str]:
    """holdem's compiled modules found built in PKG (dotted names)."""
    out = set()
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in PKG.rglob(f"*{suffix}"):
            parts = path.relative_to(PKG.parent).parts
            out.add(".".join([*parts[:-1], path.name.removesuffix(suffix)]))
    return out


def _modules() -> list[str]:
    return [m for m in _sources() if not m.endswith(".__main__")]


MODULES = _modules()

# what each package may import (module-level), besides itself and the top-level foundations
_FOUNDATION = {"holdem._version", "holdem.errors", "holdem._enums", "holdem._shown",
               "holdem._ints", "holdem._seeding", "holdem._textfile", "holdem.cards",
               "holdem._pickling", "holdem._memory"}
_KERNELS = {"holdem._eval", "holdem.evaluator", "holdem._deck", "holdem._pots", "holdem.pots",
            "holdem._equity", "holdem.equity", "holdem.ranges", "holdem._parallel",
            "holdem._progress"}


def _layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 2 and parts[1] in {"hand", "table", "live", "cli"}:
        return parts[1]
    if module in _FOUNDATION:
        return "foundation"
    if module in _KERNELS:
        return "kernels"
    return "top"  # the facade, formats, simulate, stats, charts


_ALLOWED = {
    "foundation": {"foundation"},
    "kernels": {"foundation", "kernels"},
    "hand": {"foundation", "kernels", "hand", "table._loop"},
    "table": {"foundation", "kernels", "hand", "table"},
    "live": {"foundation", "kernels", "hand", "live"},
}


def _imports(path: Path) -> set[str]:
    """The holdem modules ``path`` imports (or cimports) at module level: the unindented
    import lines (imports under TYPE_CHECKING are indented)."""
    found = set()
    for m in _IMPORT.finditer(path.read_text()):
        module = m.group(1) or m.group(3)
        if module in {"holdem", "holdem.hand", "holdem.table"} and m.group(2):
            names = m.group(2).strip("()").split(",")
            found |= {f"{module}.{n.split()[0]}" for n in names if n.strip()}
        else:
            found.add(module)
    return found


_IMPORT = re.compile(r"^(?:from (holdem[\w.]*) c?import ([^\n]*)|import (holdem[\w.]*))",
                     re.MULTILINE)


@pytest.mark.parametrize("module", MODULES)
def test_every_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    subprocess.run([sys.executable, "-c", f"import {module}; import holdem"], cwd=ROOT,
                   check=True)


def test_each_layer_imports_only_the_layers_below() -> None:
    bad = []
    for path in sorted(PKG.rglob("*")):
        if path.suffix not in {".py", ".pyx"}:
            continue
        parts = list(path.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        module = ".".join(parts)
        allowed = _ALLOWED.get(_layer(module))
        if allowed is None:
            continue
        for imported in _imports(path):
            layer = _layer(imported)
            if layer not in allowed and imported.removeprefix("holdem.") not in allowed:
                bad.append(f"{module} imports {imported} ({layer})")
    assert not bad, bad


def test_the_compiled_core_is_chosen_in_one_place() -> None:
    """Only holdem.hand._core reads HOLDEM_PURE_PYTHON or imports a compiled core by name."""
    readers = [p.relative_to(PKG.parent).as_posix() for p in PKG.rglob("*.py")
               if "HOLDEM_PURE_PYTHON\")" in p.read_text()
               or "import HandCore" in p.read_text().replace("_reference import HandCore", "")]
    assert readers == ["holdem/hand/_core.py"], readers


def _all_imports(path: Path, modules: set[str]) -> set[str]:
    """Every holdem module ``path`` imports anywhere: at module level, under TYPE_CHECKING or
    inside a function (a deferred import is a dependency too). ``from a.b import c`` counts as
    ``a.b.c`` when that is a module, else as ``a.b``."""
    text = path.read_text()
    pairs: list[tuple[str, list[str]]] = []
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                pairs.append((node.module, [a.name for a in node.names]))
            elif isinstance(node, ast.Import):
                pairs += [(a.name, []) for a in node.names]
    else:  # Cython: the import and cimport lines, at any indentation, parentheses joined
        text = re.sub(r"\(([^)]*)\)", lambda m: m.group(1).replace("\n", " "), text)
        for m in re.finditer(r"^\s*(?:from (holdem[\w.]*) c?import ([^\n]*)|import (holdem[\w.]*))",
                             text, re.MULTILINE):
            names = [n.split()[0] for n in (m.group(2) or "").split(",") if n.strip()]
            pairs.append((m.group(1) or m.group(3), names))
    found = set()
    for module, names in pairs:
        if not module.startswith("holdem"):
            continue
        subs = {f"{module}.{n}" for n in names} & modules
        found |= subs or {module}
    return found


def test_no_import_cycle_counting_deferred_and_type_checking_imports() -> None:
    """The modules form a DAG: no cycle, not even one hidden by an import deferred into a
    function or kept under TYPE_CHECKING (the cores never import holdem.hand.game: they read
    a game through holdem.hand._plan.GameLike)."""
    sources = _sources()
    # an installed holdem has its compiled modules but not their .pyx: they are modules too
    modules = set(sources) | _compiled()
    graph = {module: _all_imports(path, modules) - {module}
             for module, path in sources.items()}
    for module in graph:
        # a package whose __init__ imports nothing (a docstring) runs first whatever
        # imports a submodule: no edge to it (the facade, holdem, imports everything: kept)
        graph[module] = {m for m in graph[module]
                         if not (module.startswith(m + ".") and not graph.get(m))}
    cycles = []
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for nxt in sorted(graph.get(m, ())):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*path[path.index(nxt):], nxt]))
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not cycles, cycles


def test_the_compiled_modules_hold_no_generator_expression() -> None:
    """Cython 3.3 leaks one reference to its shared generator type each time a generator
    expression of a compiled module runs (seen as ``sys.gettotalrefcount`` growing on a debug
    CPython: +3 a ``Deck`` unpickling). The .pyx modules use list comprehensions instead: none
    of the C Cython generated from them makes a generator's scope. (A plain .py compiled as it
    is, such as ``_pokerstars_reader``, keeps its generator expressions: it is Python first.)"""
    generated = [c for c in sorted(PKG.rglob("*.c")) if c.with_suffix(".pyx").is_file()]
    if not generated:
        pytest.skip("no C generated from the .pyx modules here (the package was installed)")
    scopes = {c.relative_to(PKG).as_posix(): sorted(set(re.findall(
        r"__pyx_scope_struct_\d*_?genexpr", c.read_text(encoding="utf-8", errors="replace"))))
        for c in generated}
    assert not {name: found for name, found in scopes.items() if found}
