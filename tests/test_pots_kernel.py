"""The C kernel's own contract (csrc/hd_pots.h), called through ctypes (by its address in the
module's C API).

Covers the checks the Python wrapper never lets through (NULL pointers, bad rake numbers,
seat counts, garbage flags and ranks), so that ``hd_split_pots`` itself is shown to reject bad
input with its error codes and to stay inside its arrays (run under HOLDEM_SANITIZE=1).
"""

from __future__ import annotations

import ctypes
import random
import sys
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


OK, E_NULL, E_SEATS, E_BUTTON, E_CHIPS, E_NO_LIVE, E_RANK, E_RAKE, E_DEAD = (
    0, -1, -2, -3, -4, -5, -6, -7, -8)


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


def kernel_address() -> int:
    """The address of hd_split_pots's caller in the module's C API: the capsule Cython
    exports for ``split_pots_c`` (holdem/_pots.pxd), which calls hd_split_pots with the same
    arguments. The extensions export no C symbol but their entry point (setup.py builds them
    with hidden visibility), so ctypes cannot look the kernel up by name."""
    capsule = holdem._pots.__pyx_capi__["split_pots_c"]
    get_name = ctypes.pythonapi["PyCapsule_GetName"]  # new function objects: the shared
    get_name.restype = ctypes.c_char_p                # ctypes.pythonapi ones stay as they are
    get_name.argtypes = [ctypes.py_object]
    get_pointer = ctypes.pythonapi["PyCapsule_GetPointer"]
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return int(get_pointer(capsule, get_name(capsule)))


@pytest.fixture(scope="module")
def kernel() -> Kernel:
    if sys.platform == "win32":  # pragma: no cover - no C library handle through CDLL(None)
        pytest.skip("malloc and free through ctypes.CDLL(None) need a POSIX C library")
    fn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                          ctypes.c_int, ctypes.c_int, I64, ctypes.c_void_p, ctypes.c_int,
                          ctypes.c_void_p)(kernel_address())
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.restype = None
    libc.free.argtypes = [ctypes.c_void_p]
    return Kernel(fn, libc)


def call(kernel: Kernel, committed: list[int] | None, folded: list[int] | None,
         ranks: list[int] | None, button: int, rake: Rake | None = None, flop: int = 1,
         n: int | None = None, dead: int = 0) -> tuple[int, Result]:
    if n is None:
        n = len(committed) if committed is not None else 0
    c = kernel.array(I64, committed)
    f = kernel.array(ctypes.c_uint8, folded)
    r = kernel.array(ctypes.c_int32, ranks)
    res = Result()
    try:
        code = kernel(c, f, r, n, button, dead,
                      ctypes.byref(rake) if rake is not None else None, flop, ctypes.byref(res))
    finally:
        kernel.free(c, f, r)
    return code, res


def test_null_pointers(kernel: Kernel) -> None:
    assert kernel(None, None, None, 2, 0, 0, None, 1, None) == E_NULL
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


def test_r7_dead_money_out_of_range(kernel: Kernel) -> None:
    for dead in (-1, -(2**63), 2**59 + 1, 2**63 - 1):
        code, res = call(kernel, [5, 5], [0, 0], [1, 2], 0, dead=dead)
        assert (code, res.error_seat) == (E_DEAD, -1)
    code, res = call(kernel, [5, 5], [0, 0], [1, 2], 0, dead=2**59)
    assert code == OK and list(res.payouts[:2]) == [0, 10 + 2**59]


def test_r7_dead_money_joins_the_main_pot_and_is_raked(kernel: Kernel) -> None:
    # Main pot 3 * 10 + 6 dead = 36, side pot 2 * 40 = 80; 10% of 116 = 11, main pot first.
    code, res = call(kernel, [10, 50, 50], [0, 0, 0], [9, 1, 2], 0, Rake(1, 10, -1, 1),
                     dead=6)
    assert code == OK and res.n_pots == 2 and res.rake == 11
    assert [(res.pots[k].amount, res.pots[k].rake) for k in range(2)] == [(36, 11), (80, 0)]
    assert list(res.payouts[:3]) == [25, 0, 80] and list(res.returned[:3]) == [0, 0, 0]


def test_r7_dead_money_with_nothing_committed(kernel: Kernel) -> None:
    code, res = call(kernel, [0, 0, 0], [1, 0, 1], None, 0, dead=7)   # one seat left: no ranks
    assert code == OK and res.n_pots == 1 and list(res.payouts[:3]) == [0, 7, 0]
    assert (res.pots[0].eligible, res.pots[0].winners) == (0b010, 0b010)
    code, res = call(kernel, [0, 0, 0], [0, 0, 1], None, 0, dead=7)   # two live: a showdown
    assert (code, res.error_seat) == (E_RANK, 0)
    code, res = call(kernel, [0, 0, 0], [0, 0, 1], [4, 4, -1], 0, dead=7)
    assert code == OK and list(res.payouts[:3]) == [3, 4, 0]          # odd chip left of button
    code, res = call(kernel, [0, 0], [0, 0], None, 0)                  # nothing at all: no pot
    assert code == OK and res.n_pots == 0 and list(res.payouts[:2]) == [0, 0]


def test_r7_dead_money_main_pot_when_a_live_seat_committed_nothing(kernel: Kernel) -> None:
    # Seat 0 is in for nothing: the dead money is a main pot of its own, all live seats eligible;
    # without dead money there is no such (empty) pot.
    code, res = call(kernel, [0, 20, 20], [0, 0, 0], [9, 1, 2], 2, dead=5)
    assert code == OK and res.n_pots == 2
    assert [(res.pots[k].amount, res.pots[k].eligible) for k in range(2)] == [
        (5, 0b111), (40, 0b110)]
    assert list(res.payouts[:3]) == [5, 0, 40]
    code, res = call(kernel, [0, 20, 20], [0, 0, 0], [9, 1, 2], 2)
    assert code == OK and res.n_pots == 1 and res.pots[0].eligible == 0b110


def test_r7_dead_money_extremes_do_not_overflow(kernel: Kernel) -> None:
    code, res = call(kernel, [2**59] * 10, [0] * 10, [1] * 10, 0,
                     Rake(2**32 - 1, 2**32, -1, 0), dead=2**59)
    assert code == OK
    assert res.rake == 11 * 2**59 * (2**32 - 1) // 2**32
    assert sum(res.payouts[:10]) + res.rake == 11 * 2**59


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
        dead = rng.choice((0, 0, 0, 1, 9, 2**59, -1, 2**59 + 1, rng.randint(0, 500)))
        code, res = call(kernel, committed, folded, ranks, button, rake, rng.randint(0, 1),
                         dead=dead)
        codes.add(code)
        if code == OK:
            assert sum(res.payouts[:n]) + res.rake == sum(committed) + dead
            assert sum(res.pots[k].amount for k in range(res.n_pots)) == (
                sum(committed) - sum(res.returned[:n]) + dead)
            assert 0 <= res.n_pots <= n
            for k in range(res.n_pots):
                pot = res.pots[k]
                assert pot.winners and pot.winners & ~pot.eligible == 0
                assert sum(pot.shares[:n]) == pot.amount - pot.rake
        else:
            assert -1 <= res.error_seat < n
    assert codes >= {OK, E_BUTTON, E_CHIPS, E_RANK, E_RAKE, E_DEAD}
