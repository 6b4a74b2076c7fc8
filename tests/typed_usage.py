"""Code a user writes, checked by ``mypy --strict`` (the lint job; pyproject.toml lists this
file): correct calls must type-check, and each wrong one must be refused, which its
``type: ignore`` says (strict mode reports an ignore that nothing needed). Not run by pytest.
"""

from __future__ import annotations

from fractions import Fraction

from holdem import *  # noqa: F403 (what the star import gives a type checker)
from holdem import Game
from holdem.vector import ActionLayout

# the facade's names, those it imports on first use included
events: list[type[DealerError]] = [CardExposed, ExtraCards, OverdealtFlop,  # noqa: F405
                                   PrematureFlop, PrematureRiver, PrematureTurn]  # noqa: F405
records: tuple[type[Ruling], type[CardAccount]] = (Ruling, CardAccount)  # noqa: F405

# pot fractions as the constructor takes them (ints, floats, text, Fractions)
layouts = [ActionLayout((1,), min_raise=False), ActionLayout(fractions=(0.5, 1)),
           ActionLayout(("1/3",), keep="first"), ActionLayout([Fraction(1, 2)])]
stored: tuple[Fraction, ...] = layouts[0].fractions
ActionLayout((None,))  # type: ignore[arg-type]

# the action verbs take an action, PHH text or an int code, and nothing else
hand = Game(big_blind=2).new_hand([200, 200], seed=1)
hand.apply("cc")
hand.apply(1)
hand.apply(None)  # type: ignore[arg-type]
hand.apply(3.5)  # type: ignore[arg-type]
given = Game(big_blind=2).new_hand([200, 200], hole_cards=["AsKs", "QdQc"])
given.add_board("Qh7d2c")
given.add_board(None)  # type: ignore[arg-type]
