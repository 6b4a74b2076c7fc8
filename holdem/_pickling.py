"""How the frozen value objects pickle: through their constructor, so that a pickle, however
altered, is checked as new input is and never yields an object the constructor refuses.

A class pickles as ``(rebuild, (cls, fields))`` (:func:`rebuild`) and takes
:func:`setstate_through_init` as its ``__setstate__``: a pickle in another form (the default
of a dataclass, written by an earlier build or crafted) also goes through the constructor.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from holdem._shown import excerpt
from holdem.errors import HoldemError, InvalidStateError

__all__ = ["frozen_slots", "rebuild", "reduce_fields", "setstate_through_init"]

_CONSTRUCTOR_ERRORS = (HoldemError, TypeError, ValueError, ArithmeticError)


def rebuild(cls: type, fields: object) -> Any:
    """``cls(*fields)`` (a tuple) or ``cls(**fields)`` (a dict): an unpickled value object, or
    :class:`InvalidStateError` naming the class and what its constructor refused."""
    if not isinstance(cls, type) or not (type(fields) is tuple or (
            type(fields) is dict and all(type(k) is str for k in fields))):
        raise InvalidStateError(f"not a pickled value object: {excerpt(cls)}, {excerpt(fields)}")
    try:
        return cls(*fields) if type(fields) is tuple else cls(**fields)  # type: ignore[arg-type]
    except _CONSTRUCTOR_ERRORS as exc:
        raise InvalidStateError(f"not a valid pickled {cls.__name__}: {exc}") from None


def reduce_fields(obj: Any) -> tuple[Any, ...]:
    """The ``__reduce__`` of a dataclass built from its ``init`` fields, in order (values
    only: pickling what was unpickled gives the same bytes)."""
    return (rebuild, (type(obj), tuple(getattr(obj, f.name)
                                       for f in dataclasses.fields(obj) if f.init)))


def setstate_through_init(obj: Any, state: object) -> None:
    """``__setstate__`` of a frozen dataclass that pickles with :func:`reduce_fields`: the
    state (a dict of fields, the list of a slotted dataclass's fields, or ``(dict, dict)``
    slot state) is given to the constructor, and ``obj`` takes every field it made."""
    cls = type(obj)
    names = [f.name for f in dataclasses.fields(cls)]
    values: object = state
    if type(state) is tuple and len(state) == 2 and all(
            s is None or type(s) is dict for s in state):
        values = {**(state[0] or {}), **(state[1] or {})}
    elif type(state) in (list, tuple) and len(state) == len(names):  # type: ignore[arg-type]
        values = dict(zip(names, state, strict=True))  # type: ignore[call-overload]
    if type(values) is not dict:
        raise InvalidStateError(f"not a pickled {cls.__name__}: {excerpt(state)}")
    init = {f.name for f in dataclasses.fields(cls) if f.init}
    made = rebuild(cls, {k: v for k, v in values.items() if k in init})
    for name in names:
        object.__setattr__(obj, name, getattr(made, name))


_T = TypeVar("_T", bound=type)


def frozen_slots(cls: _T) -> _T:
    """Give a ``@dataclass(frozen=True, slots=True)`` class the refusals a frozen dataclass
    means (apply it above the ``@dataclass``): setting or deleting any attribute raises
    :class:`dataclasses.FrozenInstanceError` naming it. Python's own (3.11 to 3.13) answered
    a name that is not a field (``game.big_blnd = 4``) with ``TypeError: super(type, obj): obj
    must be an instance or subtype of type``: the methods it makes refer to the class before
    ``slots=True`` replaced it. As there, an instance of a subclass may set its own attributes
    (those that are not fields)."""
    names = frozenset(f.name for f in dataclasses.fields(cls))
    owner: type[Any] = cls

    def __setattr__(self: object, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def __delattr__(self: object, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    cls.__setattr__ = __setattr__  # type: ignore[assignment]
    cls.__delattr__ = __delattr__  # type: ignore[assignment]
    return cls
