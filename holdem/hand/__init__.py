"""One hand of Texas Hold'em: the config (:class:`holdem.Game`), the state
(:class:`holdem.HandState`), its actions and records, validation, settlement, and the two hand
cores (compiled and pure-Python reference) with the one module that chooses between them
(``holdem.hand._core``). Public names are reached through :mod:`holdem`."""
