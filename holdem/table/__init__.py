"""A table session: :class:`holdem.Table` (seating, blinds, the button), its players, the
agents that play, tournament blind schedules and the compiled table loop. Public names are
reached through :mod:`holdem`."""
