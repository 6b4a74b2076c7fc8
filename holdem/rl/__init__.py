"""Standard reinforcement-learning interfaces over the engine (the optional ``rl`` extra).

The adapters share the batched engine's encoding (:mod:`holdem.vector`: the observation spec and
the discrete action layouts); each framework is imported only by its own module, so
``import holdem`` never needs them.

- :mod:`holdem.rl.pettingzoo`: ``HoldemAECEnv`` and ``HoldemParallelEnv`` (registered as
  ``holdem/Holdem-v0``).
- :mod:`holdem.rl.gymnasium`: ``HoldemVectorEnv`` (a ``gymnasium.vector.VectorEnv`` over
  :class:`holdem.vector.VectorGame`) and ``HoldemEnv`` (one table, opponents are policies).
- :mod:`holdem.rl.openspiel`: the ``python_holdem`` game for ``pyspiel``.

Without the extra, importing an adapter raises one :class:`ImportError` naming what is missing
and how to install it.
"""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Any

from holdem._ints import int_or_none

if TYPE_CHECKING:
    from holdem import HandState
    from holdem.vector import VectorGame

__all__ = ["RENDER_MODES", "check_render_mode", "checked_restore", "env_seed", "hand_text",
           "kept_stacks", "missing_extra", "not_a_column", "reduce_with_state", "restore"]

RENDER_MODES = ("human", "ansi")
"""The render modes of every env: ``"ansi"`` (``render()`` returns text), ``"human"`` (it
prints it)."""


def not_a_column(action: int, names: tuple[str, ...]) -> str:
    """The message for an action outside the action space (refused in every mode)."""
    from holdem._shown import shown

    return (f"action {shown(action)} is not a column index of the layout (0..{len(names) - 1}: "
            f"{', '.join(names)})")


def env_seed(value: object) -> int:
    """An env's seed: an int 0..2**64-1 (numpy integers too), as Gymnasium and PettingZoo
    take seeds (the engine itself takes any int), or InvalidConfigError."""
    from holdem._ints import int_or_none
    from holdem._shown import excerpt
    from holdem.errors import InvalidConfigError

    seed = int_or_none(value)
    if seed is None or not 0 <= seed < 1 << 64:
        raise InvalidConfigError(f"seed must be an int in 0..2**64-1, got {excerpt(value)}")
    return seed


def check_render_mode(value: object) -> str | None:
    """An env's ``render_mode``: None or one of :data:`RENDER_MODES`, or InvalidConfigError."""
    from holdem._shown import excerpt
    from holdem.errors import InvalidConfigError

    if value is None or (type(value) is str and value in RENDER_MODES):
        return value
    raise InvalidConfigError(f"render_mode must be None, 'human' or 'ansi', got {excerpt(value)}")


def kept_stacks(given: object, vg: VectorGame) -> int | tuple[int, ...]:
    """The stacks an env keeps to build its engine again (``reset(seed=s)``): an int as given,
    anything else as the engine read it (a generator is spent, a list can change later)."""
    stack = int_or_none(given)
    return stack if stack is not None else vg.stacks


def checked_restore(what: str, state: object, fresh: dict[str, object], engine: str,
                    dynamic: dict[str, tuple[int, int] | type]) -> dict[str, object]:
    """The ``__dict__`` of an env restored from ``state`` (a pickle's), or
    :class:`holdem.InvalidStateError` naming ``what`` and the field that is wrong.

    ``fresh`` is the ``__dict__`` of an env built anew by the constructor from the state's
    arguments (so they are checked as new input is); the state must have the same fields. Its
    engine (the field ``engine``, a VectorGame checked by its own unpickling) must be the one
    those arguments build; the ``dynamic`` fields must be ints in a range (``(low, high)``) or
    of a type; every other field is the fresh env's, and one that is an int, a bool or a str
    there (``num_envs``, ``seat``, ...) must be pickled as it is."""
    from holdem._shown import excerpt
    from holdem.errors import InvalidStateError
    from holdem.vector import VectorGame

    def bad(why: str) -> InvalidStateError:
        return InvalidStateError(f"not a valid pickled {what}: {why}")

    if type(state) is not dict or set(state) != set(fresh):
        raise bad("its fields are not the env's")
    vg, like = state[engine], fresh[engine]
    assert isinstance(like, VectorGame)
    if type(vg) is not VectorGame or (vg.game, vg.num_tables, vg.players, vg.stacks,
                                      vg.action_layout, vg._session) != (
            like.game, like.num_tables, like.players, like.stacks, like.action_layout,
            like._session):
        raise bad("its engine is not the one its arguments make")
    for name, made in fresh.items():  # (``num_envs=-1`` failed in numpy at the next step)
        kept = state[name]
        if name not in dynamic and type(made) in (int, bool, str) and (
                type(kept) is not type(made) or kept != made):
            raise bad(f"{name} is {excerpt(kept)}, not {made!r} as its arguments make it")
    out = dict(fresh)
    out[engine] = vg
    for name, rule in dynamic.items():
        value = state[name]
        if isinstance(rule, tuple):
            low, high = rule
            if type(value) is not int or not low <= value <= high:
                raise bad(f"{name} must be an int {low}..{high}, got {excerpt(value)}")
        elif type(value) is not rule:
            raise bad(f"{name} must be a {rule.__name__}, got {type(value).__name__}")
        out[name] = value
    return out


def reduce_with_state(obj: Any) -> tuple[Any, ...]:
    """The ``__reduce__`` of the envs, policies and states whose ``__setstate__`` checks a
    pickle: ``(restore, (class, state))``, the state among the arguments, so that no pickle
    of them loads without it (the default's state, left out, gave an object with no fields
    that failed at its first use with AttributeError; an OpenSpiel state, a crash)."""
    return (restore, (type(obj), obj.__getstate__()))


def restore(cls: type, state: object) -> Any:
    """An object of ``cls`` (a class pickled by :func:`reduce_with_state`) given ``state`` by
    its checked ``__setstate__``, or :class:`holdem.InvalidStateError`."""
    from holdem._shown import excerpt
    from holdem.errors import InvalidStateError

    if not isinstance(cls, type) or getattr(cls, "__reduce__", None) is not reduce_with_state:
        raise InvalidStateError(f"not a pickled holdem.rl object: {excerpt(cls)}")
    made: Any = cls  # (its own __new__: a pyspiel state's is pybind11's)
    obj = made.__new__(made)
    obj.__setstate__(state)
    return obj


def missing_extra(module: str, error: ImportError) -> str:
    """The message of the ImportError an adapter raises when its framework is not installed."""
    return (f"{module} needs {error.name or 'a package of the rl extra'}, which is not "
            f"installed: pip install \"holdem-engine[rl]\" (numpy, Gymnasium, PettingZoo, "
            f"OpenSpiel; from a source checkout: pip install \".[rl]\")")


def hand_text(state: HandState, shown: Container[int], *, title: str = "") -> str:
    """A hand as text for ``render()``: the street, the button, the pot and the board, then
    one line per seat (stack, bet this street, hole cards when the seat is in ``shown``, else
    ``??``, and whether it folded, is all in or is to act); a finished hand adds each seat's
    payoff in chips."""
    n = state.num_players
    over = state.is_terminal()
    roles = {state.button: "button", state.small_blind_seat: "SB", state.big_blind_seat: "BB"}
    if n == 2:
        roles[state.button] = "button/SB"
    board = " ".join(str(c) for c in state.board) or "-"
    head = f"{title}{': ' if title else ''}" + ("hand over" if over else str(state.street))
    lines = [f"{head} | pot {state.pot} | board {board}"]
    payoffs = state.payoffs if over else None
    for k in range(n):
        hole = state.hole_cards[k]
        cards = " ".join(str(c) for c in hole) if k in shown and hole is not None else "?? ??"
        status = state.statuses[k].name.lower().replace("_", " ")
        flags = [] if status == "active" else [status]
        if not over and state.actor == k:
            flags.append("to act")
        if payoffs is not None:
            flags.append(f"{payoffs[k]:+d}")
        lines.append(f"seat {k} {roles.get(k, ''):<9} stack {state.stacks[k]:>6} "
                     f"bet {state.bets[k]:>6}  {cards}  {' '.join(flags)}".rstrip())
    return "\n".join(lines)


def _shown_hand(vg: VectorGame, last: bool, shown: Container[int], *, title: str = "",
                table: int = 0) -> str:
    """:func:`hand_text` of ``table``'s current hand, or with ``last`` of the last hand that
    ended there; a hand of more than 64 actions keeps no history, so only its table is told."""
    from holdem.errors import IllegalActionError

    try:
        state = vg.last_hand(table) if last else vg.hand_state(table)
    except IllegalActionError:
        return (f"{title}{': ' if title else ''}the hand has more than 64 actions, so its "
                f"history is not kept and it cannot be shown")
    if state is None:
        return f"{title}{': ' if title else ''}no hand has ended yet"
    return hand_text(state, shown, title=title)
