"""The C kernel's own contract (csrc/hd_pots.h), called directly through ctypes.

Covers the checks the Python wrapper never lets through (NULL pointers, bad rake numbers,
seat counts, garbage flags and ranks), so that ``hd_split_pots`` itself is shown to reject bad
input with its error codes and to stay inside its arrays (run under HOLDEM_SANITIZE=1).
"""

from __future__ import annotations

import ctypes
import random
from typing import Any

import pytest

import holdem._pots

MAX = 10
I64 = ctypes.c_int64


class Rake(ctypes.Structure):
    _fields_ = [("num", ctypes.c_uint64), ("den", ctypes.c_uint64), ("cap", I64),
                ("no_flop_no_drop", ctypes.c_int32)]


class Pot(ctypes.Structure):
    _fields_ = [("amount", I64), ("rake", I64), ("shares", I64 * MAX),
                ("eligible", ctypes.c_uint16), ("winners", ctypes.c_uint16)]


class Result(ctypes.Structure):
    _fields_ = [("n_pots", ctypes.c_int32), ("error_seat", ctypes.c_int32), ("rake", I64),
                ("returned", I64 * MAX), ("payouts", I64 * MAX), ("pots", Pot * MAX)]


OK, E_NULL, E_SEATS, E_BUTTON, E_CHIPS, E_NO_LIVE, E_RANK, E_RAKE = 0, -1, -2, -3, -4, -5, -6, -7


class Kernel:
    """hd_split_pots plus libc malloc/free: inputs live in exactly-sized malloc blocks, so a
    read past seat n-1 is a heap overflow that AddressSanitizer reports (ctypes arrays keep
    small buffers inside the Python object, where it could not)."""

    def __init__(self, fn: Any, libc: Any) -> None:
        self.fn, self.libc = fn, libc

    def __call__(self, *args: Any) -> int:
        return int(self.fn(*args))

    def array(self, ctype: Any, values: list[int] | None) -> int | None:
        if values is None:
            return None
        size = ctypes.sizeof(ctype) * max(1, len(values))
        address = int(self.libc.malloc(size))
        (ctype * len(values)).from_address(address)[:] = values
        return address

    def free(self, *addresses: int | None) -> None:
        for address in addresses:
            if address is not None:
                self.libc.free(address)


@pytest.fixture(scope="module")
def kernel() -> Kernel:
    lib = ctypes.CDLL(holdem._pots.__file__)
    try:
        fn = lib.hd_split_pots
    except AttributeError:  # pragma: no cover - the symbol is not exported on Windows
        pytest.skip("hd_split_pots is not an exported symbol of the extension on this platform")
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                   ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.restype = None
    libc.free.argtypes = [ctypes.c_void_p]
    return Kernel(fn, libc)


def call(kernel: Kernel, committed: list[int] | None, folded: list[int] | None,
         ranks: list[int] | None, button: int, rake: Rake | None = None, flop: int = 1,
         n: int | None = None) -> tuple[int, Result]:
    if n is None:
        n = len(committed) if committed is not None else 0
    c = kernel.array(I64, committed)
    f = kernel.array(ctypes.c_uint8, folded)
    r = kernel.array(ctypes.c_int32, ranks)
    res = Result()
    try:
        code = kernel(c, f, r, n, button, ctypes.byref(rake) if rake is not None else None,
                      flop, ctypes.byref(res))
    finally:
        kernel.free(c, f, r)
    return code, res


def test_null_pointers(kernel: Kernel) -> None:
    assert kernel(None, None, None, 2, 0, None, 1, None) == E_NULL
    code, res = call(kernel, None, [0, 0], [1, 1], 0, n=2)
    assert (code, res.error_seat) == (E_NULL, -1)
    assert call(kernel, [1, 1], None, [1, 1], 0)[0] == E_NULL


def test_seat_count_and_button(kernel: Kernel) -> None:
    assert call(kernel, [1], [0], [1], 0)[0] == E_SEATS
    assert call(kernel, [1] * 11, [0] * 11, [1] * 11, 0)[0] == E_SEATS
    assert call(kernel, [1, 1], [0, 0], [1, 1], 0, n=-5)[0] == E_SEATS
    assert call(kernel, [1, 1], [0, 0], [1, 1], 2)[0] == E_BUTTON
    assert call(kernel, [1, 1], [0, 0], [1, 1], -1)[0] == E_BUTTON


def test_chips_ranks_and_live_seats(kernel: Kernel) -> None:
    code, res = call(kernel, [1, -1, 1], [0, 0, 0], [1, 1, 1], 0)
    assert (code, res.error_seat) == (E_CHIPS, 1)
    code, res = call(kernel, [1, 2**59 + 1], [0, 0], [1, 1], 0)
    assert (code, res.error_seat) == (E_CHIPS, 1)
    assert call(kernel, [3, 3], [1, 7], [1, 1], 0)[0] == E_NO_LIVE   # any nonzero = folded
    code, res = call(kernel, [3, 3, 3], [0, 0, 0], [5, -7, 1], 0)
    assert (code, res.error_seat) == (E_RANK, 1)
    code, res = call(kernel, [3, 3], [0, 0], None, 0)
    assert (code, res.error_seat) == (E_RANK, 0)
    code, res = call(kernel, [3, 3], [0, 1], None, 0)      # uncontested: ranks not needed
    assert code == OK and list(res.payouts[:2]) == [6, 0]


@pytest.mark.parametrize(("num", "den", "cap"), [
    (1, 0, -1), (2, 1, -1), (1, 2**32 + 1, -1), (1, 20, -2), (2**40, 2**32, -1)])
def test_bad_rake_numbers(kernel: Kernel, num: int, den: int, cap: int) -> None:
    assert call(kernel, [5, 5], [0, 0], [1, 2], 0, Rake(num, den, cap, 1))[0] == E_RAKE


def test_rake_extremes(kernel: Kernel) -> None:
    code, res = call(kernel, [2**59] * 10, [0] * 10, [1] * 10, 0,
                     Rake(2**32 - 1, 2**32, -1, 1))
    assert code == OK
    assert res.rake == 10 * 2**59 * (2**32 - 1) // 2**32
    assert sum(res.payouts[:10]) + res.rake == 10 * 2**59


def test_random_garbage_is_rejected_or_conserved(kernel: Kernel) -> None:
    rng = random.Random(99)
    codes = set()
    for _ in range(5000):
        n = rng.randint(2, 10)
        committed = [rng.choice((0, 1, 7, 100, 2**59, -1, 2**59 + 1, rng.randint(0, 500)))
                     for _ in range(n)]
        folded = [rng.choice((0, 0, 0, 1, 255)) for _ in range(n)]
        ranks = [rng.choice((-1, -100, 0, 1, 2, 2**31 - 1)) for _ in range(n)]
        rake = None if rng.random() < 0.3 else Rake(
            rng.randint(0, 30), rng.choice((0, 1, 20, 100, 2**32, 2**32 + 1)),
            rng.choice((-1, -3, 0, 5, 2**62)), rng.randint(0, 1))
        button = rng.randint(-1, n)
        code, res = call(kernel, committed, folded, ranks, button, rake, rng.randint(0, 1))
        codes.add(code)
        if code == OK:
            assert sum(res.payouts[:n]) + res.rake == sum(committed)
            assert 0 <= res.n_pots <= n
            for k in range(res.n_pots):
                pot = res.pots[k]
                assert pot.winners and pot.winners & ~pot.eligible == 0
                assert sum(pot.shares[:n]) == pot.amount - pot.rake
        else:
            assert -1 <= res.error_seat < n
    assert codes >= {OK, E_BUTTON, E_CHIPS, E_RANK, E_RAKE}
