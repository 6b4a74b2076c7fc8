# The API of _pokerstars_reader.py (the same module, compiled by Cython; the .py is its source).
from collections.abc import Iterable, Iterator
from typing import Any

from holdem.errors import InvalidHistoryError
from holdem.phh import HandHistory, Number

__all__ = ["HandReader", "hands"]

def hands(lines: Iterable[str]) -> Iterator[tuple[int, list[str] | str]]: ...

class HandReader:
    first: int
    lines: list[str]
    i: int
    where: str
    hand: str
    scale: int
    places: int
    symbol: str
    action_lines: list[int]
    summary_data: dict[str, Any]
    def __init__(self, first: int, lines: list[str], where: str) -> None: ...
    def error(self, why: str, lineno: int | None = None,
              line: str | None = None) -> InvalidHistoryError: ...
    def units(self, text: str) -> int: ...
    def out(self, units: int) -> Number: ...
    def money(self, units: int) -> str: ...
    def parse(self) -> HandHistory: ...
    def line_at(self, lineno: int) -> str: ...
