"""The subset of TOML that PHH files use: written here, and read here fast.

Writing: strings, booleans, integers, floats (``inf`` and ``nan`` included), local and offset
dates and times, arrays and inline tables of those. Keys that are not bare TOML keys are quoted.

>>> print(dumps_value(["p1 cbr 210", "d db 7d5h9d"]))
['p1 cbr 210', 'd db 7d5h9d']
>>> dumps_value(1.5), dumps_value(float("inf")), dumps_value("it's")
('1.5', 'inf', '"it\\'s"')

Reading: :func:`loads` gives exactly what the standard library's ``tomllib.loads`` gives. A
document made only of the lines PHH files are made of (``key = value`` with a string without
escapes, a decimal number, ``inf``/``nan``, a boolean or a one-line array of those; ``[table]``
headers; blank lines and comments) is read line by line with a few regular expressions, several
times faster than ``tomllib``. Anything else (escapes, multi-line arrays or strings, dates,
inline tables, dotted keys, a duplicate key...) is left to ``tomllib``, which also raises every
error, so the two can never disagree.

>>> loads("antes = [0, 0]\\nvariant = 'NT'  # no-limit\\n")
{'antes': [0, 0], 'variant': 'NT'}
"""

from __future__ import annotations

import datetime
import math
import re
import tomllib
from collections.abc import Mapping
from typing import Any, Final

from holdem._shown import excerpt

__all__ = ["dumps_key", "dumps_value", "loads"]

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


# --- reading --------------------------------------------------------------------------------
# Each pattern accepts only text that tomllib reads the same way (TOML 1.0): strings without
# escapes and without the control characters TOML refuses (all but tab), decimal integers
# without leading zeros or underscores (at most 30 digits: far from int()'s limit), decimal
# floats with digits on both sides of the point and/or an exponent, inf and nan with a sign or
# not, true and false. A line that does not match is not an error here: the document goes to
# tomllib.
_ELEM: Final = (
    r"'([^'\x00-\x08\x0a-\x1f\x7f]*)'"                       # 1: literal string
    r'|"([^"\\\x00-\x08\x0a-\x1f\x7f]*)"'                  # 2: basic string, no escape
    r"|([+-]?(?:0|[1-9][0-9]{0,29})"                              # 3: float
    r"(?:\.[0-9]{1,60}(?:[eE][+-]?[0-9]{1,4})?|[eE][+-]?[0-9]{1,4}))"
    r"|([+-]?(?:inf|nan))"                                        # 4: inf, nan
    r"|([+-]?(?:0|[1-9][0-9]{0,29}))"                             # 5: integer
    r"|(true)|(false)"                                            # 6, 7
)
_COMMENT: Final = r"[ \t]*(?:#[^\x00-\x08\x0a-\x1f\x7f]*)?"
_LIT: Final = r"'[^'\x00-\x08\x0a-\x1f\x7f]*'"
_INT: Final = r"[+-]?(?:0|[1-9][0-9]{0,29})"


def _array(item: str) -> str:
    """A one-line array of ``item``s (a trailing comma allowed), as group 1."""
    return (rf"(\[[ \t]*(?:(?:{item})[ \t]*,[ \t]*)*(?:(?:{item})[ \t]*(?:,[ \t]*)?)?\])"
            + _COMMENT)


_KEY: Final = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*")
_OTHER: Final = re.compile(rf"(?:[ \t]*\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\])?{_COMMENT}")  # [table]
_SCALAR: Final = re.compile(rf"(?:{_ELEM}){_COMMENT}")
_INTS: Final = re.compile(_array(_INT))       # the common arrays first: integers ...
_LITS: Final = re.compile(_array(_LIT))       # ... and literal strings
_MIXED: Final = re.compile(_array(_ELEM))
_ELEMS: Final = re.compile(_ELEM)


def _scalar(groups: tuple[str | None, ...]) -> Any:
    """The value of an _ELEM match (its 7 groups)."""
    text = groups[0]
    if text is not None:
        return text
    text = groups[1]
    if text is not None:
        return text
    text = groups[2]
    if text is None:
        text = groups[3]
    if text is not None:
        return float(text)
    text = groups[4]
    if text is not None:
        return int(text)
    return groups[5] is not None  # true (else false)


def _fast(text: str) -> dict[str, Any] | None:
    """The document as tomllib reads it, if it is made only of the lines above; else None."""
    root: dict[str, Any] = {}
    table = root
    lines = text.split("\n")
    last = len(lines) - 1
    for i, line in enumerate(lines):
        if line.endswith("\r") and i < last:  # CRLF; a lone CR is left to tomllib
            line = line[:-1]
        m = _KEY.match(line)
        if m is None:
            m = _OTHER.fullmatch(line)
            if m is None:
                return None
            name = m.group(1)
            if name is not None:
                if name in root:
                    return None  # a table defined twice, or over a key: tomllib's error
                table = root[name] = {}
            continue
        key = m.group(1)
        if key in table:
            return None  # a duplicate key: tomllib's error
        at = m.end()
        if line.startswith("[", at):
            m = _INTS.fullmatch(line, at)
            if m is not None:
                # int() reads each piece as TOML does once the pattern has checked them (it
                # allows spaces around them; a trailing comma leaves one empty piece)
                items = m.group(1)[1:-1].split(",")
                if not items[-1].strip():
                    items.pop()
                table[key] = list(map(int, items))
                continue
            m = _LITS.fullmatch(line, at)
            if m is not None:
                # no quote inside a literal string: the pieces between quotes alternate
                table[key] = m.group(1).split("'")[1::2]
                continue
            m = _MIXED.fullmatch(line, at)
            if m is None:
                return None
            table[key] = [_scalar(e.groups()) for e in _ELEMS.finditer(m.group(1), 1)]
            continue
        m = _SCALAR.fullmatch(line, at)
        if m is None:
            return None
        table[key] = _scalar(m.groups())
    return root


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, faster on the lines PHH files are made of (see above)."""
    data = _fast(text) if type(text) is str else None
    return data if data is not None else tomllib.loads(text)
