"""How a bad value is shown in an error message.

Python refuses to turn an int of more than 4,300 digits into text (``ValueError: Exceeds the
limit...``), so an error message that quotes such a value would itself fail with the wrong
exception. :func:`shown` quotes a value when it can and describes it otherwise;
:func:`excerpt` also bounds a long text to its first :data:`EXCERPT_CHARS` characters. A
``repr`` that must paste back writes such an int in hex (:func:`literal`, as
:class:`holdem.Deck` shows its seed).

>>> shown(12), shown("x"), shown(10**5000)
('12', "'x'", 'an int of 16610 bits')
>>> literal(12), literal(-(2**20000))[:8]
('12', '-0x10000')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

__all__ = ["EXCERPT_CHARS", "excerpt", "fields_repr", "literal", "shown"]

_MAX_BITS = 256  # about 77 digits: longer ints are described, not printed


def shown(value: object) -> str:
    """``repr(value)``, or a short description when it is (or holds) an int too long to print."""
    if type(value) is int and value.bit_length() > _MAX_BITS:
        return f"an int of {value.bit_length()} bits"
    try:
        return repr(value)
    except ValueError:
        return f"a {type(value).__name__} too large to print"


def literal(value: int) -> str:
    """``repr(value)`` of an int, in hex when it has more digits than Python turns into
    decimal text: Python code that reads back as ``value`` (for a ``repr``, which must not
    fail)."""
    try:
        return repr(value)
    except ValueError:  # an int past Python's limit of digits printed: hex has none
        return hex(value)


def fields_repr(obj: Any, names: Iterable[str] | None = None) -> str:
    """The ``repr`` :func:`dataclasses.dataclass` (or :class:`typing.NamedTuple`) makes for
    ``obj`` (its fields shown by ``repr``; or the attributes ``names``, after the class's
    ``__name__``), but with the int
    fields through :func:`literal`: it does not fail on a seed of any size, and still pastes
    back."""
    # (a dataclass's repr names its class by __qualname__, a NamedTuple's by __name__)
    cls = type(obj).__qualname__ if names is None and dataclasses.is_dataclass(obj) else \
        type(obj).__name__
    if names is None:
        names = ([f.name for f in dataclasses.fields(obj) if f.repr]
                 if dataclasses.is_dataclass(obj) else obj._fields)  # (else a NamedTuple)
    parts = ", ".join(
        f"{name}={literal(value) if type(value := getattr(obj, name)) is int else repr(value)}"
        for name in names)
    return f"{cls}({parts})"


#: How many characters of a user's text an error message quotes (:func:`excerpt`).
EXCERPT_CHARS = 80


def excerpt(value: object, *, quote: bool = True) -> str:
    """A user's text (or value) for an error message: the ``repr`` of a str (``quote=False``:
    the str itself), or :func:`shown` of any other value (an int too long to print is
    described), bounded: text longer than ``EXCERPT_CHARS`` shows
    the first of them, ``...`` and its length, so that a message quoting a megabyte line stays
    one short line (and still says where the problem is).

    >>> excerpt("p1 zz"), excerpt("p1 zz", quote=False)
    ("'p1 zz'", 'p1 zz')
    >>> long = excerpt("x" * 1_000_000)
    >>> len(long), long.endswith("xx'... (1,000,000 characters)")
    (108, True)
    >>> excerpt(list(range(10**6)))[-12:]
    '20, 21, 2...'
    """
    if isinstance(value, str):
        if len(value) <= EXCERPT_CHARS:
            return repr(value) if quote else value
        head = value[:EXCERPT_CHARS]
        return f"{head!r}... ({len(value):,} characters)" if quote else \
            f"{head}... ({len(value):,} characters)"
    text = shown(value)  # an int too long to print is described
    return text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS] + "..."
