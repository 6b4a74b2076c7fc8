"""One hand of Texas Hold'em: the config and the state it deals (``game``: :class:`holdem.Game`,
:class:`holdem.HandState`), its actions and records, validation, settlement, and the two hand
cores (compiled and pure-Python reference) with the one module that chooses between them
(``holdem.hand._core``). The cores sit below ``game`` and read a game through
``holdem.hand._plan``. Public names are reached through :mod:`holdem`."""
