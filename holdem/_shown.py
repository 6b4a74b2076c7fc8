"""How a bad value is shown in an error message.

Python refuses to turn an int of more than 4,300 digits into text (``ValueError: Exceeds the
limit...``), so an error message that quotes such a value would itself fail with the wrong
exception. :func:`shown` quotes a value when it can and describes it otherwise.

>>> shown(12), shown("x"), shown(10**5000)
('12', "'x'", 'an int of 16610 bits')
"""

from __future__ import annotations

__all__ = ["shown"]

_MAX_BITS = 256  # about 77 digits: longer ints are described, not printed


def shown(value: object) -> str:
    """``repr(value)``, or a short description when it is (or holds) an int too long to print."""
    if type(value) is int and value.bit_length() > _MAX_BITS:
        return f"an int of {value.bit_length()} bits"
    try:
        return repr(value)
    except ValueError:
        return f"a {type(value).__name__} too large to print"
