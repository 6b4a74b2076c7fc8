"""The examples in the state modules' docstrings and the README's "Playing a hand" run."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import holdem.hand.actions
import holdem.hand.game
import holdem.hand.records

README = Path(__file__).parent.parent / "README.md"


@pytest.mark.parametrize("module", [holdem.hand.actions, holdem.hand.game, holdem.hand.records])
def test_module_doctests(module: object) -> None:
    failed, attempted = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)  # type: ignore[arg-type]
    assert attempted > 0 and failed == 0


def test_readme_playing_a_hand() -> None:
    text = README.read_text()
    start = text.index("### Playing a hand")
    end = text.index("\n#", start + 5)
    section = text[start:end]
    parser = doctest.DocTestParser()
    test = parser.get_doctest(section, {}, "README: Playing a hand", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert test.examples and runner.failures == 0
