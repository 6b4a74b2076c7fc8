"""A mixin for the package's enums: ``repr()`` is ``Type.MEMBER``, which pastes back."""

from __future__ import annotations

__all__ = ["NamedRepr"]


class NamedRepr:
    """``repr(Structure.NO_LIMIT) == 'Structure.NO_LIMIT'`` (mix in before ``Enum``)."""

    __slots__ = ()
    name: str

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"
