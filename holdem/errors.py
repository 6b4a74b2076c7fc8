"""The exception hierarchy: every error caused by bad input is a :class:`ValueError`.

>>> import holdem
>>> issubclass(holdem.IllegalActionError, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "AgentError",
    "ChipOverflowError",
    "DeckError",
    "DuplicateCardError",
    "HoldemError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidArrayError",
    "InvalidCardError",
    "InvalidConfigError",
    "InvalidEventError",
    "InvalidHandError",
    "InvalidHistoryError",
    "InvalidPotError",
    "InvalidRangeError",
    "InvalidSeatError",
    "InvalidStateError",
    "InvalidTableError",
    "OutOfTurnError",
    "ProtocolError",
    "TableError",
]


def _not_text(error: UnicodeDecodeError) -> str:
    """Why a stream opened by the caller could not be read: its bytes are not text in the
    encoding it was opened with (the message of the library's error, chained to ``error``)."""
    bad = " ".join(f"0x{b:02x}" for b in error.object[error.start : error.end][:4])
    return (f"the stream is not valid {error.encoding} text (byte {bad}: {error.reason}): "
            "open the file with the encoding it is written in")


class HoldemError(ValueError):
    """Base class of every error raised by holdem for bad input."""


class InvalidCardError(HoldemError):
    """A card given as text or int that is not one of the 52 cards."""


class DuplicateCardError(InvalidCardError):
    """The same card given twice where cards must be distinct."""


class DeckError(HoldemError):
    """A deck operation that cannot be done: dealing more cards than are left, removing a card
    that is not in the deck."""


class InvalidHandError(HoldemError):
    """A hand with the wrong number of cards for the operation."""


class InvalidArrayError(HoldemError):
    """A batch buffer with the wrong shape, dtype, layout or out-of-range values."""


class InvalidConfigError(HoldemError):
    """A game, table or rake description with impossible values."""


class InvalidActionError(HoldemError):
    """An action that cannot be understood (bad syntax, unknown kind, negative amount)."""


class IllegalActionError(HoldemError):
    """A well-formed action that the rules do not allow in the current state."""


class OutOfTurnError(IllegalActionError):
    """An action by a seat whose turn it is not."""


class AgentError(IllegalActionError):
    """An agent answered with an illegal or malformed action."""


class InvalidPotError(HoldemError):
    """Bad input to the pot resolver (negative chips, missing ranks, wrong lengths...)."""


class InvalidRangeError(HoldemError):
    """Range notation that cannot be parsed, or a range with nothing left to deal.

    For text that does not parse, ``position`` is the 0-based index of the offending token in
    the text and ``token`` the token itself (both ``None`` when the error is not about text).
    """

    def __init__(self, message: str, *, position: int | None = None,
                 token: str | None = None) -> None:
        super().__init__(message)
        self.position = position
        self.token = token


class InvalidHistoryError(HoldemError):
    """A hand history (PHH) that is malformed or does not replay."""


class InvalidEventError(HoldemError):
    """A live-dealing event that cannot happen at this moment."""


class InvalidSeatError(HoldemError, IndexError):
    """A seat number outside the hand's seats ``0..n-1`` (also an :class:`IndexError`)."""


class InvalidTableError(HoldemError, IndexError):
    """A table of a batch (:class:`holdem.vector.VectorGame`) outside ``0..N-1``, or a hand
    number below 0 (also an :class:`IndexError`)."""


class InvalidStateError(HoldemError):
    """A saved state (a pickle) that is corrupt or inconsistent: restoring it is refused, so
    no object ever holds a state the engine could not have produced. Also a hand state that
    was never started (``HandState.__new__(HandState)``): it holds no hand to query or play."""


class ChipOverflowError(HoldemError, OverflowError):
    """A chip sum that holdem keeps exact but cannot give back as an int64 (more than
    2**63 - 1 chips either way), such as ``VectorGame.total_payoffs()`` after enough huge
    pots (also an :class:`OverflowError`)."""


class TableError(HoldemError):
    """A table operation that is not allowed (seat taken, buy-in out of bounds...)."""


class ProtocolError(HoldemError):
    """A line of the ACPC protocol (``MATCHSTATE``, ``STATE``, a gamedef) that is malformed or
    describes impossible play (illegal betting, impossible cards); the message names the line."""
