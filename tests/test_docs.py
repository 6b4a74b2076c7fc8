"""The examples in README.md and in the docstrings run and print what they say."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_readme_examples() -> None:
    failed, tried = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS)
    assert tried > 0 and failed == 0


@pytest.mark.parametrize("name", ["holdem", "holdem._deck", "holdem._ints", "holdem._memory", "holdem._seeding", "holdem._shown",
                                  "holdem._toml",
                                  "holdem.cards", "holdem.equity", "holdem.history",
                                  "holdem.phh", "holdem.pokerstars", "holdem.ranges",
                                  "holdem.simulate", "holdem.stats", "holdem.vector"])
def test_docstring_examples(name: str) -> None:
    mod = importlib.import_module(name)
    failed, tried = doctest.testmod(mod, optionflags=FLAGS)
    assert tried > 0 and failed == 0


def test_compiled_functions_have_signatures() -> None:
    # editors and help() show them: inspect.signature raised ValueError for the Cython
    # functions before they were built with clinic-format signatures
    import inspect

    import holdem
    from holdem.vector import VectorGame

    assert str(inspect.signature(holdem.evaluate)) == "(cards, /)"  # as the function takes it
    # the compiled class too (its docstring opens with the signature, in clinic format)
    assert str(inspect.signature(holdem.Deck)) == "(seed=None)"
    assert holdem.Deck.__doc__ is not None and holdem.Deck.__doc__.startswith("A 52-card deck")
    assert str(inspect.signature(holdem.evaluate_many)) == "(cards, *, n_cards=None, out=None)"
    assert "seed" in inspect.signature(holdem.deal_hands).parameters
    assert list(inspect.signature(holdem.HandState.apply).parameters)[:2] == ["self", "action"]
    assert "actions" in inspect.signature(VectorGame.step).parameters
