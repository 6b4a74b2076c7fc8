"""Dealing a real hand live: :class:`holdem.LiveHand`, its dealer-error events and rulings.
Public names are reached through :mod:`holdem`."""
