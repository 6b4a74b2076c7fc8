"""How much memory one call may ask for: no more than the machine has.

A call whose buffers are sized by its arguments (a batch of tables, :meth:`VectorGame.play`'s
results, :func:`holdem.deal_hands`' rows) counts their bytes before it allocates anything and
refuses a total above the machine's physical memory (:func:`physical_memory`, read with
``os.sysconf``; where it cannot be read, as on Windows, nothing is refused beforehand). That
is no policy on what a
call may use: what is refused could not be held in memory at once anyway (it failed with a
bare ``MemoryError``, or after swapping for minutes), and every machine that can hold a call
gives it the same result. A ``MemoryError`` met all the same (another limit: ``ulimit -v``, a
container, memory in use) is raised as the library's error naming the bytes (:func:`no_memory`).

>>> (physical_memory() or 1) > 0
True
"""

from __future__ import annotations

import os

from holdem.errors import HoldemError, InvalidConfigError

__all__ = ["check_fits", "no_memory", "physical_memory"]


def physical_memory() -> int | None:
    """The machine's physical memory in bytes, or None where it cannot be read (no
    ``os.sysconf``: Windows)."""
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        size = os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return pages * size if pages > 0 and size > 0 else None


def check_fits(nbytes: int, what: str, advice: str,
               error: type[HoldemError] = InvalidConfigError) -> None:
    """Raise ``error`` when ``what``, ``nbytes`` bytes, is more than the machine's memory
    (``advice``: how to ask for less). Where the memory is unknown nothing is refused here:
    the allocation's ``MemoryError`` is :func:`no_memory`'s error then."""
    limit = physical_memory()
    if limit is not None and nbytes > limit:
        raise error(f"{what} would take about {nbytes:,} bytes, more than this machine's "
                    f"{limit:,} bytes of memory: {advice}")


def no_memory(nbytes: int, what: str, advice: str,
              error: type[HoldemError] = InvalidConfigError) -> HoldemError:
    """The error to raise (``from None``) for a ``MemoryError`` met allocating ``what``."""
    return error(f"{what}: no memory for about {nbytes:,} bytes: {advice}")
