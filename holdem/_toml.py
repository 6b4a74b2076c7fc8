"""Write the subset of TOML that PHH files use (reading is the standard library's ``tomllib``).

Values: strings, booleans, integers, floats (``inf`` and ``nan`` included), local and offset
dates and times, arrays and inline tables of those. Keys that are not bare TOML keys are quoted.

>>> print(dumps_value(["p1 cbr 210", "d db 7d5h9d"]))
['p1 cbr 210', 'd db 7d5h9d']
>>> dumps_value(1.5), dumps_value(float("inf")), dumps_value("it's")
('1.5', 'inf', '"it\\'s"')
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Mapping
from typing import Final

from holdem._shown import excerpt

__all__ = ["dumps_key", "dumps_value"]

_BARE_KEY: Final = re.compile(r"[A-Za-z0-9_-]+\Z")
_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f]")
_ESCAPES: Final = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def dumps_key(key: str) -> str:
    """A TOML key: bare when it can be, else a quoted string."""
    return key if _BARE_KEY.match(key) else _basic_string(key)


def _basic_string(text: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif _CONTROL.match(ch):
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _string(text: str) -> str:
    # Literal strings (single quotes) read best and are what the published corpus uses;
    # they cannot hold a quote or control characters, so those fall back to basic strings.
    if "'" in text or _CONTROL.search(text):
        return _basic_string(text)
    return "'" + text + "'"


def time_problem(value: datetime.date | datetime.time) -> str | None:
    """Why TOML cannot hold this date or time (None if it can): a time of day has no time
    zone in TOML, and an offset is whole minutes."""
    if isinstance(value, datetime.time):
        if value.tzinfo is not None:
            return "a TOML local time has no time zone (give the zone in time_zone)"
        return None
    if isinstance(value, datetime.datetime):
        offset = value.utcoffset()
        if offset is not None and offset % datetime.timedelta(minutes=1):
            return f"a TOML offset is whole minutes, not {offset}"
    return None


def dumps_value(value: object) -> str:
    """One TOML value, written inline; raises ``TypeError`` for types TOML cannot hold."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        problem = time_problem(value)
        if problem is not None:
            raise TypeError(f"cannot write {value!r} as TOML: {problem}")
        return value.isoformat()
    if isinstance(value, Mapping):
        items = ", ".join(f"{dumps_key(str(k))} = {dumps_value(v)}" for k, v in value.items())
        return "{" + items + "}" if items else "{}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(dumps_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} value {excerpt(value)} as TOML")
