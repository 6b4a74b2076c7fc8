"""What counts as an int a user gives: any integer type (``int`` and its subclasses, numpy's
integer scalars, anything whose ``__index__`` answers), never a ``bool``. An ``__index__``
that refuses (a numpy array that is not one integer, ``numpy.array(5.0)``) does not count.
Every argument the package reads as a whole number goes through :func:`int_or_none`.

>>> int_or_none(7), int_or_none(True), int_or_none(7.0), int_or_none("7")
(7, None, None, None)
"""

from __future__ import annotations

import operator

__all__ = ["int_or_none"]


def int_or_none(value: object) -> int | None:
    """``value`` as a plain ``int`` when it is an integer of any type but ``bool``, else None."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None
