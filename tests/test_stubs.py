"""The ``.pyi`` stubs of the compiled modules say what those modules export and accept.

A type checker reads only the stub of a compiled module, so a name, an ``__all__`` entry or a
``@final`` that differs from the module is wrong for every user of the types. Type annotations
cannot be compared (the compiled functions carry none); everything else is, read from the
stubs' syntax and from the modules themselves.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from types import ModuleType

import pytest

# every module built by Cython (setup.py), whose .pyi is all a type checker sees of it
COMPILED = ["holdem._deck", "holdem._equity", "holdem._eval", "holdem._pokerstars_reader",
            "holdem._pots", "holdem._vector", "holdem.hand._compiled", "holdem.table._loop"]


def _stub(module: ModuleType) -> ast.Module:
    path = Path(module.__file__ or "").with_name(module.__name__.rsplit(".", 1)[1] + ".pyi")
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _stub_all(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "__all__"):
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return value
    return None


def _stub_classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def _decorators(node: ast.ClassDef | ast.FunctionDef) -> set[str]:
    out = set()
    for d in node.decorator_list:
        if isinstance(d, ast.Name):
            out.add(d.id)
        elif isinstance(d, ast.Attribute):
            out.add(d.attr)
    return out


def _subclassable(cls: type) -> bool:
    try:
        type("Sub", (cls,), {})
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("name", COMPILED)
def test_the_stub_all_is_the_module_all(name: str) -> None:
    module = importlib.import_module(name)
    assert _stub_all(_stub(module)) == getattr(module, "__all__", None)


@pytest.mark.parametrize("name", COMPILED)
def test_a_class_is_final_in_the_stub_when_it_cannot_be_subclassed(name: str) -> None:
    module = importlib.import_module(name)
    for cls_name, node in _stub_classes(_stub(module)).items():
        cls = getattr(module, cls_name)
        final = "final" in _decorators(node)
        assert final == (not _subclassable(cls)), f"{name}.{cls_name}"


def _stub_members(node: ast.ClassDef) -> set[str]:
    out = set()
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(item.name)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            out.add(item.target.id)
    return out


@pytest.mark.parametrize("name", COMPILED)
def test_the_stub_declares_every_public_method_of_a_class(name: str) -> None:
    # (a missing method is an attribute error for mypy, wherever the module's own code or a
    # test calls it)
    module = importlib.import_module(name)
    for cls_name, node in _stub_classes(_stub(module)).items():
        cls = getattr(module, cls_name)
        public = {m for m in vars(cls) if not m.startswith("_")}
        missing = public - _stub_members(node)
        assert not missing, f"{name}.{cls_name}: {sorted(missing)}"
