# The compiled core has exactly the API of the pure-Python reference core.
from holdem.hand._reference import HandCore as HandCore

__all__ = ["HandCore"]
