# cython: freethreading_compatible = True
"""Compiled core of :mod:`holdem.pots`: a thin wrapper over ``csrc/hd_pots.c``.

Use :func:`holdem.pots.split_pots` for one hand; :func:`holdem.pots.split_pots_batch` resolves
many hands from buffers in one ``nogil`` loop (no Python objects per hand). This module
never imports ``holdem.pots``: a ``rake`` is read by its fields (anything else is
rejected as not a ``Rake``).
"""

from cpython.number cimport PyNumber_Index
from libc.stdint cimport int32_t, int64_t, uint8_t, uintptr_t

import sys
from array import array

from holdem._shown import excerpt
from holdem.errors import InvalidArrayError, InvalidPotError

MAX_SEATS = HD_POTS_MAX_SEATS
MAX_CHIPS = HD_POTS_MAX_CHIPS
MAX_DEAD = HD_POTS_MAX_DEAD
MAX_RAKE_DENOMINATOR = HD_POTS_MAX_RAKE_DEN
cdef int64_t _MAX_RANK = 2147483647
cdef int _SHOWN_BITS = 2000  # below the 640 digits sys.set_int_max_str_digits accepts at least


cdef object _index(object v, str name, str want):
    """``operator.index(v)``, or InvalidPotError naming ``name`` when ``v`` has an
    ``__index__`` that refuses it (a numpy array of more than one item, say)."""
    try:
        return PyNumber_Index(v)
    except TypeError:
        raise InvalidPotError(f"{name} is a {type(v).__name__}, not {want}") from None


cdef str _shown(object v):
    """``v`` (an int) for an error message: one too long for ``str()``, which refuses more
    than 4300 digits with a plain ValueError, by its size instead."""
    if isinstance(v, int) and v.bit_length() > _SHOWN_BITS:
        return f"{'-' if v < 0 else ''}an integer of {v.bit_length()} bits"
    return str(v)


cdef int split_pots_c(const int64_t *committed, const uint8_t *folded, const int32_t *ranks,
                      int n, int button, int64_t dead, const hd_rake_t *rake, bint flop_dealt,
                      hd_pot_result_t *out) noexcept nogil:
    """Resolve one hand into ``out``; 0 on success, a negative HD_POTS_E_* code on bad input.

    ``dead`` chips (>= 0, e.g. a big-blind ante) belong to no seat and join the main pot.
    """
    return hd_split_pots(committed, folded, ranks, n, button, dead, rake, flop_dealt, out)


cdef str _error_message(int code, int seat, int n, int button):
    if code == HD_POTS_E_SEATS:
        return f"split_pots needs 2 to {HD_POTS_MAX_SEATS} seats, got {n}"
    if code == HD_POTS_E_BUTTON:
        return f"button must be a seat index in 0..{n - 1}, got {button}"
    if code == HD_POTS_E_CHIPS:
        return (f"committed[{seat}] is out of range; chips must be whole numbers "
                f"in 0..{HD_POTS_MAX_CHIPS}")
    if code == HD_POTS_E_NO_LIVE:
        return "every seat folded; at least one seat must still be in the hand"
    if code == HD_POTS_E_RANK:
        return (f"ranks[{seat}] is missing but seat {seat} contests a pot at showdown; "
                f"give its hand rank (an int >= 0, higher is stronger)")
    if code == HD_POTS_E_DEAD:
        return (f"dead money is out of range; it must be a whole number of chips "
                f"in 0..{HD_POTS_MAX_DEAD}")
    if code == HD_POTS_E_RAKE:
        return ("rake must be a fraction num/den in [0, 1] with 1 <= den <= 2**32 and a cap "
                ">= 0 or none")
    return f"pot resolver rejected its input (code {code})"


cdef int _fill_rake(object rake, hd_rake_t *out) except -1:
    """Copy a holdem.pots.Rake into ``out``: read by its fields (``fraction``, ``cap``,
    ``no_flop_no_drop``), so this kernel needs no import of holdem.pots; the C resolver checks
    the values it gets (HD_POTS_E_RAKE)."""
    try:
        num = rake.fraction.numerator
        den = rake.fraction.denominator
        cap = rake.cap
        no_flop_no_drop = rake.no_flop_no_drop
    except AttributeError:
        raise InvalidPotError(f"rake must be a holdem.Rake or None, got {rake!r}") from None
    # what holdem.Rake guarantees, checked for a look-alike: a reduced fraction in [0, 1] of
    # ints and a cap that is None or an int >= 0 (a negative cap is not "no cap")
    if (type(num) is not int or type(den) is not int or not 0 <= num <= den
            or not 1 <= den <= HD_POTS_MAX_RAKE_DEN
            or (cap is not None and (type(cap) is not int or cap < 0))):
        raise InvalidPotError(f"rake must be a holdem.Rake or None, got {rake!r}: its fraction "
                              f"must be in [0, 1] with a denominator of at most 2**32 and its "
                              f"cap an int >= 0 or None")
    out.num = num
    out.den = den
    if cap is None or cap >= HD_POTS_MAX_CHIPS * HD_POTS_MAX_SEATS + HD_POTS_MAX_DEAD:
        out.cap = HD_POTS_NO_CAP          # a cap above any possible pot is no cap
    else:
        out.cap = cap
    out.no_flop_no_drop = 1 if no_flop_no_drop else 0
    return 0


cdef inline int64_t _chips(object v, Py_ssize_t i) except? -1:
    if type(v) is int and 0 <= v <= HD_POTS_MAX_CHIPS:
        return v
    if isinstance(v, bool) or not hasattr(type(v), "__index__"):
        raise InvalidPotError(
            f"committed[{i}] is {v!r}; chips must be whole numbers (int) >= 0")
    v = _index(v, f"committed[{i}]", "a whole number of chips (int) >= 0")
    if v < 0:
        raise InvalidPotError(f"committed[{i}] is {_shown(v)}; chips must be >= 0")
    if v > HD_POTS_MAX_CHIPS:
        raise InvalidPotError(
            f"committed[{i}] is {_shown(v)}; at most {HD_POTS_MAX_CHIPS} chips per seat")
    return v


cdef int64_t _dead(object v) except? -1:
    if type(v) is int and 0 <= v <= HD_POTS_MAX_DEAD:
        return v
    if isinstance(v, bool) or not hasattr(type(v), "__index__"):
        raise InvalidPotError(
            f"dead is {v!r}; dead money must be a whole number of chips (int) >= 0")
    v = _index(v, "dead", "a whole number of chips (int) >= 0")
    if v < 0:
        raise InvalidPotError(f"dead is {_shown(v)}; dead money must be >= 0 chips")
    if v > HD_POTS_MAX_DEAD:
        raise InvalidPotError(
            f"dead is {_shown(v)}; at most {HD_POTS_MAX_DEAD} chips of dead money")
    return v


cdef inline bint _misaligned(const void *p, uintptr_t size) noexcept:
    """Whether ``p`` is off the alignment of its ``size``-byte items (the loop reads them as
    C integers: a numpy view at an odd byte offset may start anywhere)."""
    return (<uintptr_t>p) % size != 0


cdef inline int32_t _rank(object v, Py_ssize_t i) except? -2:
    if v is None:
        return HD_POTS_NO_RANK
    if type(v) is int and 0 <= v <= _MAX_RANK:
        return v
    if isinstance(v, bool) or not hasattr(type(v), "__index__"):
        raise InvalidPotError(
            f"ranks[{i}] is {v!r}; a rank is an int >= 0 (higher is stronger) or None")
    v = _index(v, f"ranks[{i}]", "an int >= 0 (higher is stronger) or None")
    if v < 0 or v > _MAX_RANK:
        raise InvalidPotError(
            f"ranks[{i}] is {_shown(v)}; a rank is an int in 0..{_MAX_RANK} (higher is stronger) "
            f"or None")
    return v


cdef uint8_t _folded(object v, Py_ssize_t i) except 255:
    """folded[i] as 0 or 1: True/False, a numpy bool or the int 0 or 1 (as the batch reads its
    buffers); anything else is refused, not read by its truthiness (``"no"`` is not False)."""
    if v is True or v is False:
        return 1 if v is True else 0
    kind = getattr(getattr(v, "dtype", None), "kind", None)
    if kind is not None and getattr(v, "shape", None) != ():  # an array, not one flag
        kind = None
    if kind == "b":  # a numpy bool
        return 1 if v else 0
    if kind in ("i", "u") or type(v) is int:
        if v == 0 or v == 1:
            return 1 if v == 1 else 0
    raise InvalidPotError(f"folded[{i}] must be True or False (or 0 or 1), got {excerpt(v)}")


def resolve(committed, folded, ranks, button, rake, bint flop_dealt, dead=0):
    """Resolve one hand; the engine behind :func:`holdem.pots.split_pots`.

    ``dead`` chips (>= 0) belong to no seat: they join the main pot (R7). Returns ``(payouts,
    returned, rake, pots)`` where ``pots`` is a list of ``(amount, rake, eligible, winners,
    shares)`` tuples (``shares`` aligned with ``winners``). Raises InvalidPotError naming the
    bad input.
    """
    cdef int64_t c_committed[HD_POTS_MAX_SEATS]
    cdef uint8_t c_folded[HD_POTS_MAX_SEATS]
    cdef int32_t c_ranks[HD_POTS_MAX_SEATS]
    cdef hd_rake_t c_rake
    cdef hd_rake_t *p_rake = NULL
    cdef hd_pot_result_t res
    cdef hd_pot_t *p
    cdef Py_ssize_t n, i, k
    cdef int code, c_button
    cdef int64_t c_dead

    committed = tuple(committed)
    n = len(committed)
    if n < 2 or n > HD_POTS_MAX_SEATS:
        raise InvalidPotError(
            f"split_pots needs 2 to {HD_POTS_MAX_SEATS} seats, got {n} committed amounts")
    folded = tuple(folded)
    if len(folded) != n:
        raise InvalidPotError(
            f"folded has {len(folded)} entries but committed has {n}; give one per seat")
    if ranks is None:
        ranks = (None,) * n
    else:
        ranks = tuple(ranks)
        if len(ranks) != n:
            raise InvalidPotError(
                f"ranks has {len(ranks)} entries but committed has {n}; give one per seat "
                f"(None where unknown)")
    if isinstance(button, bool) or not hasattr(type(button), "__index__"):
        raise InvalidPotError(f"button must be a seat index in 0..{n - 1}, got {button!r}")
    button = _index(button, "button", f"a seat index in 0..{n - 1}")
    if button < 0 or button >= n:
        raise InvalidPotError(f"button must be a seat index in 0..{n - 1}, got {_shown(button)}")
    c_button = button
    c_dead = _dead(dead)
    for i in range(n):
        c_committed[i] = _chips(committed[i], i)
        c_folded[i] = _folded(folded[i], i)
        c_ranks[i] = _rank(ranks[i], i)
    if rake is not None:
        _fill_rake(rake, &c_rake)
        p_rake = &c_rake

    code = hd_split_pots(c_committed, c_folded, c_ranks, <int>n, c_button, c_dead, p_rake,
                         flop_dealt, &res)
    if code != HD_POTS_OK:
        raise InvalidPotError(_error_message(code, res.error_seat, <int>n, c_button))

    pots = []
    for k in range(res.n_pots):
        p = &res.pots[k]
        eligible = []
        winners = []
        shares = []
        for i in range(n):
            if (p.eligible >> i) & 1:
                eligible.append(i)
            if (p.winners >> i) & 1:
                winners.append(i)
                shares.append(p.shares[i])
        pots.append((p.amount, p.rake, tuple(eligible), tuple(winners), tuple(shares)))
    payouts = tuple([res.payouts[i] for i in range(n)])
    returned = tuple([res.returned[i] for i in range(n)])
    return payouts, returned, res.rake, pots


cdef int _check_shapes(Py_ssize_t m, Py_ssize_t n, tuple folded, tuple ranks, Py_ssize_t buttons,
                       tuple payouts, object rakes) except -1:
    """Refuse a batch whose arrays do not agree: ``committed`` has shape (m, n), the other
    2-D arrays must too; ``buttons`` and ``rakes`` (None: not given) have m entries."""
    if n < 2 or n > HD_POTS_MAX_SEATS:
        raise InvalidPotError(f"split_pots_batch needs 2 to {HD_POTS_MAX_SEATS} seats per "
                              f"hand, got shape ({m}, {n})")
    for name, shape in (("folded", folded), ("ranks", ranks), ("payouts", payouts)):
        if shape != (m, n):
            raise InvalidPotError(f"{name} has shape ({shape[0]}, {shape[1]}) but committed "
                                  f"has ({m}, {n}); all must match")
    if buttons != m:
        raise InvalidPotError(f"buttons has {buttons} entries for {m} hands")
    if rakes is not None and rakes != m:
        raise InvalidPotError(f"rakes has {rakes} entries for {m} hands")
    return 0


cdef int _check_dead_column(object dead, Py_ssize_t m) except -1:
    """Refuse a per-hand ``dead`` that is not a C-contiguous int64 buffer of m entries (its
    values are checked hand by hand by the resolver)."""
    cdef const int64_t[::1] col
    try:
        col = dead
    except (TypeError, ValueError, BufferError) as exc:
        raise InvalidPotError(f"dead must be an int or a C-contiguous int64 buffer of {m} "
                              f"entries (one per hand), got {type(dead).__name__}: {exc}") \
            from None
    if col.shape[0] != m:
        raise InvalidPotError(f"dead has {col.shape[0]} entries for {m} hands")
    return 0


def _split_pots_batch_typed(const int64_t[:, ::1] committed not None,
                            const uint8_t[:, ::1] folded not None,
                            const int32_t[:, ::1] ranks not None,
                            const int32_t[::1] buttons not None,
                            int64_t[:, ::1] payouts not None,
                            int64_t[::1] rakes=None,
                            *, rake=None, bint flop_dealt=True, dead=0):
    """:func:`split_pots_batch` on buffers of exactly the C types (the nogil loop)."""
    cdef Py_ssize_t m = committed.shape[0], n = committed.shape[1], row
    cdef hd_rake_t c_rake
    cdef hd_rake_t *p_rake = NULL
    cdef hd_pot_result_t res
    cdef int code = HD_POTS_OK, i
    cdef bint want_rakes = rakes is not None
    cdef const int64_t[::1] dead_col
    cdef bint per_hand_dead = False
    cdef int64_t c_dead = 0

    _check_shapes(m, n, (folded.shape[0], folded.shape[1]), (ranks.shape[0], ranks.shape[1]),
                  buttons.shape[0], (payouts.shape[0], payouts.shape[1]),
                  rakes.shape[0] if want_rakes else None)
    if m > 0 and (_misaligned(&committed[0, 0], 8) or _misaligned(&ranks[0, 0], 4)
                  or _misaligned(&buttons[0], 4) or _misaligned(&payouts[0, 0], 8)
                  or (want_rakes and _misaligned(&rakes[0], 8))):
        # split_pots_batch copies the inputs (aligned) and names a misaligned output
        raise BufferError("a buffer does not start on its items' alignment")
    if not hasattr(type(dead), "__len__"):     # one amount for every hand
        c_dead = _dead(dead)
    else:
        _check_dead_column(dead, m)
        dead_col = dead
        if m > 0 and _misaligned(&dead_col[0], 8):  # read as int64: an aligned copy
            dead_col = array("q", bytes(memoryview(dead)))  # (copied as bytes)
        per_hand_dead = True
    if m > 0:  # a row written before a later row is read would change what that row reads
        inputs = [("committed", <uintptr_t>&committed[0, 0], m * n * 8),
                  ("folded", <uintptr_t>&folded[0, 0], m * n),
                  ("ranks", <uintptr_t>&ranks[0, 0], m * n * 4),
                  ("buttons", <uintptr_t>&buttons[0], m * 4)]
        if per_hand_dead:
            inputs.append(("dead", <uintptr_t>&dead_col[0], m * 8))
        outputs = [("payouts", <uintptr_t>&payouts[0, 0], m * n * 8)]
        if want_rakes:
            outputs.append(("rakes", <uintptr_t>&rakes[0], m * 8))
            inputs.append(outputs[0])
        for name, at, size in outputs:
            for other, oat, osize in inputs:
                if other != name and at < oat + osize and oat < at + size:
                    raise InvalidArrayError(f"{name} must not overlap {other}")
    if rake is not None:
        _fill_rake(rake, &c_rake)
        p_rake = &c_rake

    row = 0
    with nogil:
        while row < m:
            if per_hand_dead:
                c_dead = dead_col[row]
            code = split_pots_c(&committed[row, 0], &folded[row, 0], &ranks[row, 0], <int>n,
                                buttons[row], c_dead, p_rake, flop_dealt, &res)
            if code != HD_POTS_OK:
                break
            for i in range(n):
                payouts[row, i] = res.payouts[i]
            if want_rakes:
                rakes[row] = res.rake
            row += 1
    if code == HD_POTS_E_DEAD:
        raise InvalidPotError(f"hand {row}: dead money is {c_dead}; it must be a whole number "
                              f"of chips in 0..{HD_POTS_MAX_DEAD}")
    if code != HD_POTS_OK:
        raise InvalidPotError(f"hand {row}: "
                              + _error_message(code, res.error_seat, <int>n, buttons[row]))


def check_flag(str name, object value):
    """``value`` if it is True or False, else InvalidPotError naming ``name`` (no guess from
    truthiness: ``"no"`` is not False)."""
    if value is not True and value is not False:
        raise InvalidPotError(f"{name} must be True or False, got {excerpt(value)}")
    return value


def split_pots_batch(committed, folded, ranks, buttons, payouts, rakes=None, *, rake=None,
                     flop_dealt=True, dead=0):
    """Resolve ``m`` hands of ``n`` seats each, without Python objects per hand.

    ``committed`` (shape (m, n)), ``folded`` (0/1 or bool), ``ranks`` (-1 = unknown) and
    ``buttons`` (shape (m,)) are read: buffers of any integer dtype (int8 .. uint64, bool for
    ``folded``) and any layout; C-contiguous int64, uint8, int32 and int32 buffers are used as
    they are, others are copied (values checked to fit, else InvalidArrayError). ``payouts``
    (int64, shape (m, n)) and, if given, ``rakes`` (int64, shape (m,)) are written: writable
    C-contiguous int64 buffers (else :class:`~holdem.InvalidArrayError` naming the argument).
    Numpy arrays work, or ``memoryview(array).cast(fmt, (m, n))``. ``rake`` and
    ``flop_dealt`` apply to every hand. ``dead`` is the dead money of each hand (chips owned
    by no seat, such as a big-blind ante, added to the main pot; R7): either one int for every
    hand or an int64 buffer of shape (m,). Raises InvalidPotError naming the first bad hand
    (rows before it are written).

    >>> from array import array
    >>> c = memoryview(array("q", [50, 100, 100])).cast("B").cast("q", (1, 3))
    >>> f = memoryview(array("B", [0, 0, 1])).cast("B", (1, 3))
    >>> r = memoryview(array("i", [7, 5, -1])).cast("B").cast("i", (1, 3))
    >>> out = memoryview(array("q", [0, 0, 0])).cast("B").cast("q", (1, 3))
    >>> split_pots_batch(c, f, r, array("i", [0]), out)
    >>> out.tolist()
    [[150, 100, 0]]
    >>> split_pots_batch(c, f, r, array("i", [0]), out, dead=array("q", [30]))
    >>> out.tolist()
    [[180, 100, 0]]
    """
    cdef hd_rake_t c_rake
    check_flag("flop_dealt", flop_dealt)
    try:
        _split_pots_batch_typed(committed, folded, ranks, buttons, payouts, rakes, rake=rake,
                                flop_dealt=flop_dealt, dead=dead)
        return
    except InvalidPotError:
        raise
    except (ValueError, TypeError, BufferError):
        pass  # a buffer of another dtype or layout: convert, then run the same loop
    # the shapes first, from the buffers' headers: nothing is copied or scanned for a batch
    # whose arrays disagree (a broadcast view of billions of rows beside a small output)
    shapes = []
    for obj, name, ndim in ((committed, "committed", 2), (folded, "folded", 2),
                            (ranks, "ranks", 2), (buttons, "buttons", 1)):
        mv = _view(obj, name, "integers")
        if mv.ndim != ndim:
            raise InvalidArrayError(f"{name} must be {ndim}-D, got {_describe(mv)}")
        shapes.append(mv.shape)
    _out(payouts, "payouts", 2)
    if rakes is not None:
        _out(rakes, "rakes", 1)
    m, n = shapes[0]
    _check_shapes(m, n, shapes[1], shapes[2], shapes[3][0], memoryview(payouts).shape,
                  None if rakes is None else memoryview(rakes).shape[0])
    args = (
        _as_c(committed, "committed", "q", 2, -(1 << 63), (1 << 63) - 1),
        _as_c(folded, "folded", "B", 2, 0, 1),
        _as_c(ranks, "ranks", "i", 2, -(1 << 31), (1 << 31) - 1),
        _as_c(buttons, "buttons", "i", 1, -(1 << 31), (1 << 31) - 1),
        payouts,
        rakes)
    if any([a is None for a in args[:3]]):
        # an input with no items, which a memoryview cannot be shaped as (a shape with a zero):
        # a batch of no hands (its arrays agree, checked above)
        if hasattr(type(dead), "__len__"):
            _check_dead_column(dead, m)
        else:
            _dead(dead)
        if rake is not None:
            _fill_rake(rake, &c_rake)
        return
    _split_pots_batch_typed(*args, rake=rake, flop_dealt=flop_dealt, dead=dead)


_INT_FORMATS = frozenset("bBhHiIlLqQnN?")
_C_TYPES = {"q": "int64", "B": "uint8", "i": "int32"}


cdef object _view(object obj, str name, str want):
    if obj is None:
        raise TypeError(f"{name} must be a buffer of {want}, not None")
    try:
        return memoryview(obj)
    except TypeError:
        raise TypeError(f"{name} must be a buffer of {want} (numpy array, memoryview, "
                        f"array.array), not {type(obj).__name__}") from None
    except (ValueError, BufferError) as exc:  # a buffer type that cannot export its items
        raise InvalidArrayError(f"{name} must be a buffer of {want}; this one cannot be "
                                f"read ({exc})") from None


cdef str _describe(object mv):
    return (f"format {mv.format!r} ({mv.itemsize}-byte items), {mv.ndim}-D"
            f"{'' if mv.c_contiguous else ', not C-contiguous'}"
            f"{', read-only' if mv.readonly else ''}")


cdef object _as_c(object obj, str name, str fmt, int ndim, object low, object high):
    """``obj`` (any integer buffer, any layout) as a C-contiguous buffer of ``fmt``."""
    mv = _view(obj, name, "integers")
    if mv.ndim != ndim:
        raise InvalidArrayError(f"{name} must be {ndim}-D, got {_describe(mv)}")
    code = mv.format.lstrip("@=")
    if len(code) != 1 or code not in _INT_FORMATS:
        raise InvalidArrayError(
            f"{name} must hold integers (int8 .. uint64), got {_describe(mv)}")
    np = sys.modules.get("numpy")
    if np is not None and isinstance(obj, np.ndarray):
        if obj.size and (obj.min() < low or obj.max() > high):
            raise InvalidArrayError(f"{name} has values outside {low}..{high} "
                                    f"({_C_TYPES[fmt]}, what the kernel reads)")
        # C order and aligned (ascontiguousarray keeps a misaligned view as it is)
        return np.require(obj, {"q": np.int64, "B": np.uint8, "i": np.int32}[fmt], ("C", "A"))
    try:
        rows = mv.tolist()
        flat = [v for row in rows for v in row] if ndim == 2 else rows
    except NotImplementedError:
        # a format memoryview cannot unpack: '=' (standard sizes: a misaligned numpy view
        # exports it): its bytes, in C order, are native integers of its item size
        native = {1: "b", 2: "h", 4: "i", 8: "q"}.get(mv.itemsize)
        if native is None or code == "?":
            raise InvalidArrayError(
                f"{name} must hold integers (int8 .. uint64), got {_describe(mv)}") from None
        flat = memoryview(mv.tobytes()).cast(native if code.islower() else native.upper())
        flat = flat.tolist()
    for v in flat:
        if not low <= v <= high:
            raise InvalidArrayError(f"{name} has value {v}, outside {low}..{high} "
                                    f"({_C_TYPES[fmt]}, what the kernel reads)")
    buf = array(fmt, [int(v) for v in flat])
    if ndim == 1:
        return buf
    if not len(flat):
        return None  # no rows (memoryview cannot cast to a shape with a zero): nothing to do
    return memoryview(buf).cast("B").cast(fmt, mv.shape)


cdef object _out(object obj, str name, int ndim):
    """An output must be written in place: a writable C-contiguous int64 buffer."""
    cdef const uint8_t[::1] raw
    mv = _view(obj, name, "int64")
    code = mv.format.lstrip("@=")
    if (mv.readonly or not mv.c_contiguous or mv.ndim != ndim or mv.itemsize != 8
            or code not in ("q", "l", "n")):
        raise InvalidArrayError(
            f"{name} must be a writable C-contiguous {ndim}-D int64 buffer; got "
            f"{_describe(mv)}")
    if mv.nbytes:
        raw = mv.cast("B")
        if _misaligned(&raw[0], 8):
            raise InvalidArrayError(
                f"{name} must be an aligned int64 buffer (it starts off an 8-byte boundary, "
                f"as a view at an odd byte offset may): write into a fresh array")
    return obj
