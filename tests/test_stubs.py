"""The ``.pyi`` stubs of the compiled modules say what those modules export and accept.

A type checker reads only the stub of a compiled module, so a name, an ``__all__`` entry or a
``@final`` that differs from the module is wrong for every user of the types. Type annotations
cannot be compared (the compiled functions carry none); everything else is, read from the
stubs' syntax and from the modules themselves.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

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


# Functions whose signature reads wrong on purpose: holdem._eval is built with
# always_allow_keywords=False, so its one-argument functions take no keyword at all (the stub's
# ``/``) while their text signature (for help() and inspect) reads ``(cards)``.
_POSITIONAL_ONLY_AT_RUNTIME = {"holdem._eval.evaluate"}


def _stub_parameters(node: ast.FunctionDef) -> list[tuple[str, str, object]]:
    """(name, kind, default) of each parameter; the default is ``...`` when there is none to
    compare (none, or ``...`` in the stub) and the literal value otherwise."""
    a = node.args
    positional = [(p, "POSITIONAL_ONLY") for p in a.posonlyargs]
    positional += [(p, "POSITIONAL_OR_KEYWORD") for p in a.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults))
    defaults += a.defaults
    out: list[tuple[str, str, object]] = []
    for (p, kind), d in zip(positional, defaults, strict=True):
        out.append((p.arg, kind, _literal(d)))
    if a.vararg is not None:
        out.append((a.vararg.arg, "VAR_POSITIONAL", ...))
    for p, kd in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        out.append((p.arg, "KEYWORD_ONLY", _literal(kd)))
    if a.kwarg is not None:
        out.append((a.kwarg.arg, "VAR_KEYWORD", ...))
    return out


def _literal(node: ast.expr | None) -> object:
    if node is None or (isinstance(node, ast.Constant) and node.value is Ellipsis):
        return ...
    return ast.literal_eval(node)


def _runtime_parameters(obj: Callable[..., Any], stub: list[tuple[str, str, object]],
                        ) -> list[tuple[str, str, object]]:
    out: list[tuple[str, str, object]] = []
    for p, (_, _, stub_default) in zip(inspect.signature(obj).parameters.values(),
                                       [*stub, *[("", "", ...)] * 64], strict=False):
        has = p.default is not inspect.Parameter.empty
        # a default the stub writes as ``...`` is not compared, only that there is one
        default = ... if not has or stub_default is ... else p.default
        out.append((p.name, p.kind.name, default))
    return out


def _functions(module: ModuleType, tree: ast.Module,
               ) -> list[tuple[str, Callable[..., Any], ast.FunctionDef]]:
    """(dotted name, runtime object, stub node) of the stub's functions and methods (not the
    overloaded ones, the properties and the special methods, which have no signature at
    runtime to compare)."""
    found: list[tuple[str, Callable[..., Any], ast.FunctionDef]] = []

    def add(prefix: str, owner: object, nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("__"):
                continue
            if _decorators(node) & {"overload", "property"}:
                continue
            found.append((f"{prefix}.{node.name}", getattr(owner, node.name), node))

    add(module.__name__, module, tree.body)
    for cls_name, cls_node in _stub_classes(tree).items():
        add(f"{module.__name__}.{cls_name}", getattr(module, cls_name), cls_node.body)
    return found


@pytest.mark.parametrize("name", COMPILED)
def test_the_stub_signatures_are_the_module_signatures(name: str) -> None:
    module = importlib.import_module(name)
    for dotted, obj, node in _functions(module, _stub(module)):
        stub = _stub_parameters(node)
        if "classmethod" in _decorators(node):
            stub = stub[1:]  # cls, bound by the attribute lookup
        runtime = _runtime_parameters(obj, stub)
        if dotted in _POSITIONAL_ONLY_AT_RUNTIME:
            runtime = [(n, "POSITIONAL_ONLY" if k == "POSITIONAL_OR_KEYWORD" else k, d)
                       for n, k, d in runtime]
        assert stub == runtime, dotted


def test_evaluate_takes_its_cards_by_position_only() -> None:
    # the exception above, checked: the stub's ``/`` is what the function does
    import holdem._eval

    assert holdem._eval.evaluate("As Ks Qs Js Ts") == 7462
    with pytest.raises(TypeError):
        holdem._eval.evaluate(cards="As Ks Qs Js Ts")  # type: ignore[call-arg]
