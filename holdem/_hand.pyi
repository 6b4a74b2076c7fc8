# The compiled core has exactly the API of the pure-Python reference core.
from holdem._betting import HandCore as HandCore

__all__ = ["HandCore"]
