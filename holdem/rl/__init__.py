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

__all__ = ["missing_extra"]


def missing_extra(module: str, error: ImportError) -> str:
    """The message of the ImportError an adapter raises when its framework is not installed."""
    return (f"{module} needs {error.name or 'a package of the rl extra'}, which is not "
            f"installed: pip install \"holdem-engine[rl]\" (numpy, Gymnasium, PettingZoo, "
            f"OpenSpiel)")
