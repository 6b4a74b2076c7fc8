"""Standard reinforcement-learning interfaces over the engine (the optional ``rl`` extra).

The adapters share the batched engine's encoding (:mod:`holdem.vector`: the observation spec and
the discrete action layouts); each framework is imported only by its own module, so
``import holdem`` never needs them.

- :mod:`holdem.rl.pettingzoo`: ``HoldemAECEnv`` and ``HoldemParallelEnv`` (registered as
  ``holdem/Holdem-v0``).
- :mod:`holdem.rl.gymnasium`: ``HoldemVectorEnv`` (a ``gymnasium.vector.VectorEnv`` over
  :class:`holdem.vector.VectorGame`) and ``HoldemEnv`` (one table, opponents are policies).
"""
