# cython: language_level=3, always_allow_keywords=False, binding=False
"""Compiled core of the hand evaluator: :func:`evaluate` and :func:`evaluate_many`.

The public names are re-exported by :mod:`holdem.evaluator` and :mod:`holdem`.
"""

from cpython.array cimport array, clone
from cpython.buffer cimport (
    PyBUF_C_CONTIGUOUS, PyBUF_FORMAT, PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer,
)
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.number cimport PyNumber_Index
from cpython.object cimport PyObject
from libc.stdint cimport (
    int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, uintptr_t,
)
from libc.string cimport memcpy, memset

import sys

from holdem._shown import excerpt
from holdem.cards import Card, parse_cards
from holdem.errors import InvalidArrayError, InvalidHandError


cdef extern from *:
    """
    /* Card id of an int (or int subclass such as Card) holding 0..51, else -1. Reads the
       value in place for small ints (no conversion call, no object created). */
    static CYTHON_INLINE long hd_py_card_id(PyObject *o) {
    #if PY_VERSION_HEX >= 0x030C0000
        if (PyUnstable_Long_IsCompact((PyLongObject *)o)) {
            Py_ssize_t v = PyUnstable_Long_CompactValue((PyLongObject *)o);
            return ((size_t)v < 52) ? (long)v : -1;
        }
        return -1;
    #else
        Py_ssize_t size = Py_SIZE(o);
        if (size == 1) {
            digit d = ((PyLongObject *)o)->ob_digit[0];
            return d < 52 ? (long)d : -1;
        }
        return size == 0 ? 0 : -1;
    #endif
    }
    """
    long hd_py_card_id(PyObject *o)


cdef extern from "Python.h":
    bint PyList_CheckExact(object o)
    bint PyTuple_CheckExact(object o)
    bint PyUnicode_CheckExact(object o)
    bint PyLong_Check(PyObject *o)
    bint PyBool_Check(PyObject *o)
    Py_ssize_t PyList_GET_SIZE(object o)
    Py_ssize_t PyTuple_GET_SIZE(object o)
    PyObject **PySequence_Fast_ITEMS(object o)
    PyObject *PyTuple_GET_ITEM(object o, Py_ssize_t i)

hd_eval_init()

NUM_RANKS = HD_NUM_RANKS
#: Smallest rank of each category (HIGH_CARD .. STRAIGHT_FLUSH), then NUM_RANKS + 1.
CATEGORY_MIN = (
    HD_MIN_HIGH_CARD, HD_MIN_PAIR, HD_MIN_TWO_PAIR, HD_MIN_THREE_OF_A_KIND, HD_MIN_STRAIGHT,
    HD_MIN_FLUSH, HD_MIN_FULL_HOUSE, HD_MIN_FOUR_OF_A_KIND, HD_MIN_STRAIGHT_FLUSH,
    HD_NUM_RANKS + 1,
)

cdef extern from "hd_eval.h" nogil:
    const hd_tables_t *hd_tables_here()

cdef extern from "hd_tables.h":
    const uint16_t hd_flush_rank[8192]
    const uint64_t hd_batch_pair[512]
    int HD_HASH7_ROW_BITS, HD_HASH7_COL_BITS, HD_HASH56_ROW_BITS, HD_HASH56_COL_BITS

#: Bytes of lookup tables the evaluator uses.
TABLE_BYTES = (sizeof(hd_card_key) + sizeof(hd_batch_pair) + sizeof(hd_flush_rank)
               + ((1 << HD_HASH7_ROW_BITS) + (1 << HD_HASH56_ROW_BITS)) * sizeof(uint8_t)
               + ((1 << HD_HASH7_COL_BITS) + (1 << HD_HASH56_COL_BITS)) * sizeof(uint16_t))

# Rank ints are handed out from here, so evaluate() creates no object.
cdef tuple _RANK_OBJECTS = tuple(range(HD_NUM_RANKS + 1))


cdef object _evaluate_general(object cards):
    """Any accepted input (and every error): parse, check, then rank."""
    parsed = parse_cards(cards)  # InvalidCardError / DuplicateCardError name the card
    cdef Py_ssize_t n = len(parsed)
    if n < 5 or n > 7:
        raise InvalidHandError(
            f"a hand to evaluate has 5, 6 or 7 cards, got {n}: {excerpt(cards)}")
    cdef uint8_t ids[7]
    cdef Py_ssize_t i
    for i in range(n):
        ids[i] = <uint8_t>(<int>parsed[i])
    return <object>PyTuple_GET_ITEM(_RANK_OBJECTS, hd_eval_cards(ids, <int>n))


cdef inline int _rank_of(Py_UCS4 ch) noexcept:
    if ch >= u'2' and ch <= u'9':
        return <int>ch - 50  # ord('2')
    if ch == u'T' or ch == u't':
        return 8
    if ch == u'J' or ch == u'j':
        return 9
    if ch == u'Q' or ch == u'q':
        return 10
    if ch == u'K' or ch == u'k':
        return 11
    if ch == u'A' or ch == u'a':
        return 12
    return -1


cdef inline int _suit_of(Py_UCS4 ch) noexcept:
    if ch == u'c' or ch == u'C':
        return 0
    if ch == u'd' or ch == u'D':
        return 1
    if ch == u'h' or ch == u'H':
        return 2
    if ch == u's' or ch == u'S':
        return 3
    return -1


cdef object _evaluate_text(str text):
    """Fast path for one string of 5..7 well-formed distinct cards ("AsKd..", "As Kd ..");
    anything else goes to _evaluate_general, which raises the precise error."""
    cdef Py_ssize_t i = 0, length = len(text)
    cdef int n = 0, r, su
    cdef uint64_t seen = 0, key = HD_KEY_INIT
    cdef Py_UCS4 ch
    cdef long card
    while i < length:
        ch = text[i]
        if ch == u' ' or ch == u',' or ch == u'\t' or ch == u'\n':
            i += 1
            continue
        if ch == u'1' and i + 1 < length and text[i + 1] == u'0':
            r = 8
            i += 2
        else:
            r = _rank_of(ch)
            i += 1
        if r < 0 or i >= length or n == 7:
            return _evaluate_general(text)
        su = _suit_of(text[i])
        i += 1
        if su < 0:
            return _evaluate_general(text)
        card = 4 * r + su
        if (seen >> card) & 1:
            return _evaluate_general(text)
        seen |= (<uint64_t>1) << card
        key += hd_card_key[card]
        n += 1
    if n < 5:
        return _evaluate_general(text)
    return <object>PyTuple_GET_ITEM(_RANK_OBJECTS, hd_rank_key_ids(key, seen))


def evaluate(cards, /):
    """The rank of a 5, 6 or 7 card hand: 1 (7-5-4-3-2) .. 7462 (royal flush), higher wins.

    ``cards`` is a sequence of :class:`~holdem.Card`, ints 0..51 or card strings, or one string.

    >>> evaluate("As Ks Qs Js Ts 2c 3d")
    7462
    >>> evaluate([0, 4, 8, 12, 21])  # 2c 3c 4c 5c 7d
    1
    """
    cdef PyObject **items
    cdef Py_ssize_t n, i
    cdef PyObject *o
    cdef long v
    cdef uint64_t seen = 0
    cdef uint64_t key = HD_KEY_INIT
    if PyTuple_CheckExact(cards):
        n = PyTuple_GET_SIZE(cards)
    elif PyList_CheckExact(cards):
        n = PyList_GET_SIZE(cards)
    elif PyUnicode_CheckExact(cards):
        return _evaluate_text(<str>cards)
    else:
        return _evaluate_general(cards)
    if n < 5 or n > 7:
        return _evaluate_general(cards)
    items = PySequence_Fast_ITEMS(cards)
    for i in range(n):
        o = items[i]
        if not PyLong_Check(o) or PyBool_Check(o):
            return _evaluate_general(cards)
        v = hd_py_card_id(o)
        if v < 0 or (seen >> v) & 1:
            return _evaluate_general(cards)
        seen |= (<uint64_t>1) << v
        key += hd_card_key[v]
    return <object>PyTuple_GET_ITEM(_RANK_OBJECTS, hd_rank_key_ids(key, seen))


# ---------------------------------------------------------------------------------------------
# Batch evaluation over any buffer

cdef int _kind(const char *fmt, Py_ssize_t itemsize) except -2:
    """0..7 for u8 i8 u16 i16 u32 i32 u64 i64; -1 if the format is not a native integer."""
    cdef bytes f = fmt if fmt != NULL else b"B"
    if f[:1] in (b"@", b"="):
        f = f[1:]
    elif f[:1] == b"<" and sys.byteorder == "little":
        f = f[1:]
    elif f[:1] in (b">", b"!") and (sys.byteorder == "big" or itemsize == 1):
        f = f[1:]
    if len(f) != 1 or f not in b"bBhHiIlLqQnN":
        return -1
    cdef int signed = f.islower()
    if itemsize == 1:
        return 1 if signed else 0
    if itemsize == 2:
        return 3 if signed else 2
    if itemsize == 4:
        return 5 if signed else 4
    if itemsize == 8:
        return 7 if signed else 6
    return -1


cdef Py_ssize_t _run(int kind, const void *cards, size_t n, int k, hd_rank_t *out) noexcept nogil:
    if kind == 0:
        return hd_eval_batch_u8(<const uint8_t *>cards, n, k, out)
    if kind == 1:
        return hd_eval_batch_i8(<const int8_t *>cards, n, k, out)
    if kind == 2:
        return hd_eval_batch_u16(<const uint16_t *>cards, n, k, out)
    if kind == 3:
        return hd_eval_batch_i16(<const int16_t *>cards, n, k, out)
    if kind == 4:
        return hd_eval_batch_u32(<const uint32_t *>cards, n, k, out)
    if kind == 5:
        return hd_eval_batch_i32(<const int32_t *>cards, n, k, out)
    if kind == 6:
        return hd_eval_batch_u64(<const uint64_t *>cards, n, k, out)
    return hd_eval_batch_i64(<const int64_t *>cards, n, k, out)


cdef Py_ssize_t _run_wide(int kind, const char *cards, Py_ssize_t itemsize, size_t n, int k,
                          void *out, int out_kind) noexcept nogil:
    """Like _run, into an int32/uint32/int64/uint64 output (out_kind as _kind), in chunks."""
    cdef hd_rank_t tmp[2048]
    cdef size_t start = 0, m, i
    cdef Py_ssize_t bad
    while start < n:
        m = n - start if n - start < 2048 else 2048
        bad = _run(kind, cards + start * k * itemsize, m, k, tmp)
        if bad >= 0:
            return <Py_ssize_t>start + bad
        if out_kind == 4 or out_kind == 5:
            for i in range(m):
                (<int32_t *>out)[start + i] = tmp[i]
        else:
            for i in range(m):
                (<int64_t *>out)[start + i] = tmp[i]
        start += m
    return -1


cdef list _row_values(int kind, const void *buf, Py_ssize_t start, int k):
    """The k card values at element offset ``start`` of a buffer of the given kind."""
    cdef Py_ssize_t i
    out = []
    for i in range(start, start + k):
        if kind == 0:
            out.append((<const uint8_t *>buf)[i])
        elif kind == 1:
            out.append((<const int8_t *>buf)[i])
        elif kind == 2:
            out.append((<const uint16_t *>buf)[i])
        elif kind == 3:
            out.append((<const int16_t *>buf)[i])
        elif kind == 4:
            out.append((<const uint32_t *>buf)[i])
        elif kind == 5:
            out.append((<const int32_t *>buf)[i])
        elif kind == 6:
            out.append((<const uint64_t *>buf)[i])
        else:
            out.append((<const int64_t *>buf)[i])
    return out


cdef str _describe_bad_row(object row, Py_ssize_t index):
    cdef uint64_t seen = 0
    for v in row:
        if not 0 <= v < 52:
            return f"row {index} has card id {v}, outside 0..51"
        if (seen >> v) & 1:
            return f"row {index} has card {Card(v)} (id {v}) twice"
        seen |= (<uint64_t>1) << v
    return f"row {index} is invalid"  # pragma: no cover (the C check and this one agree)


cdef object _c_order_copy(object obj):
    """A C-ordered copy of the buffer ``obj`` (any strides, any byte order) as native integers
    of its size, with its shape; its format (a str) when it holds no integers (a float, a
    record); None when the buffer cannot be read at all."""
    try:
        mv = memoryview(obj)
    except (TypeError, ValueError, BufferError):
        return None
    if mv.ndim == 0 or 0 in mv.shape:
        return None  # not reached: an empty or 0-D buffer is contiguous
    fmt = mv.format
    order, code = (fmt[:1], fmt[1:]) if fmt[:1] in "@=<>!" else ("@", fmt)
    if len(code) != 1 or code not in "bBhHiIlLqQnN" or (order != "@" and code in "nN"):
        return fmt
    if order != "@":  # standard sizes ("=l" is 4 bytes): the native code of that size
        unsigned = code.isupper()
        code = {1: "b", 2: "h", 4: "i", 8: "q"}.get(mv.itemsize, "")
        code = code.upper() if unsigned else code
        if not code or array(code).itemsize != mv.itemsize:
            return fmt
    swap = mv.itemsize > 1 and order in ("<", ">", "!") and (
        order == "<") != (sys.byteorder == "little")
    try:
        data = mv.tobytes()  # C order
        if swap:  # (an array of that code holds the items: byteswap turns each)
            items = array(code, data)
            items.byteswap()
            data = memoryview(items).cast("B")
        return memoryview(data).cast(code, mv.shape)
    except (TypeError, ValueError, BufferError, NotImplementedError):
        return None
    except MemoryError:  # (a broadcast view of 2**40 rows holds a byte)
        raise InvalidArrayError(
            f"cards: no memory to copy this non-contiguous buffer of shape {tuple(mv.shape)} "
            f"({mv.nbytes:,} bytes) into rows: give a C-contiguous array") from None


cdef Py_ssize_t _rows(int ndim, const Py_ssize_t *shape, object nc, int *k) except -1:
    """The rows of a buffer of card ids of this shape, its cards per row in k[0] (``nc``:
    the checked n_cards, or None); InvalidArrayError for a shape that is not rows of 5..7."""
    if ndim == 2:
        if not 5 <= shape[1] <= 7:  # checked before the cast to int
            raise InvalidArrayError(f"rows must have 5, 6 or 7 cards, got {shape[1]}")
        k[0] = <int>shape[1]
        if nc is not None and nc != k[0]:
            raise InvalidArrayError(f"n_cards={nc} does not match the array's {k[0]} columns")
        return shape[0]
    if ndim == 1:
        if nc is None:
            raise InvalidArrayError("a flat buffer needs n_cards= (5, 6 or 7 cards per row)")
        k[0] = nc
        if shape[0] % k[0]:
            raise InvalidArrayError(f"a flat buffer of {shape[0]} card ids is not a whole "
                                    f"number of rows of {k[0]}")
        return shape[0] // k[0]
    raise InvalidArrayError(
        f"card ids must be a 2-D array (N x 5, 6 or 7), got {ndim} dimensions")


cdef void _check_shape(object obj, object nc) except *:
    """_rows on the header of the buffer ``obj`` (any layout), when it has one."""
    cdef Py_ssize_t shape[2]
    cdef int k
    try:
        mv = memoryview(obj)
    except (TypeError, ValueError, BufferError):
        return  # not readable: said where it is copied
    if mv.ndim not in (1, 2):
        return
    shape[0] = mv.shape[0]
    shape[1] = mv.shape[1] if mv.ndim == 2 else 0
    _rows(mv.ndim, shape, nc, &k)


def evaluate_many(cards, *, n_cards=None, out=None):
    """Rank every row of an ``N x 5``, ``N x 6`` or ``N x 7`` array of card ids (0..51).

    ``cards`` is any buffer of integers: a numpy array of any integer dtype, byte order and
    layout (one that is not C-contiguous native integers, such as ``hands[:, :5]``, is read
    through a copy), a 2-D memoryview, or a flat buffer (``bytes``, ``array.array``, 1-D
    numpy) with ``n_cards`` per row. Returns ``uint16`` ranks: a numpy array if ``cards`` is
    one, else an ``array.array('H')``; or fills ``out`` (a writable 1-D buffer of N
    ``uint16``, ``int32``, ``uint32``, ``int64`` or ``uint64``) and returns it.
    Bad input raises :class:`~holdem.InvalidArrayError` (a row with a bad card: ``out`` may
    already hold the ranks of rows before it); the GIL is released while ranking.

    >>> list(evaluate_many(bytes([48, 49, 50, 51, 44, 0, 1]), n_cards=7))
    [7452]
    """
    cdef Py_buffer view
    cdef Py_buffer oview
    cdef bint have_view = False, have_out = False
    cdef int kind, k, out_kind = 2
    cdef Py_ssize_t nrows, bad
    cdef hd_rank_t *dst
    cdef const void *src
    cdef void *src_copy = NULL   # an aligned copy of a misaligned input
    cdef void *dst_copy = NULL   # an aligned stand-in for a misaligned output
    cdef array result_arr
    # n_cards is checked the same way for every shape: None, or an int-like 5, 6 or 7
    # (a plain int: a subclass's comparisons may lie)
    nc = None
    if type(n_cards) is int:
        nc = n_cards
    elif n_cards is not None:
        if not isinstance(n_cards, bool) and hasattr(n_cards, "__index__"):
            try:
                nc = PyNumber_Index(n_cards)
            except TypeError:  # an __index__ that refuses (a non-integer numpy array)
                nc = None
    if n_cards is not None and (nc is None or not 5 <= nc <= 7):
        raise InvalidArrayError(f"n_cards must be 5, 6 or 7, got {excerpt(n_cards)}")
    try:
        try:
            PyObject_GetBuffer(cards, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
        except (BufferError, ValueError, TypeError) as exc:
            if isinstance(exc, TypeError):
                raise InvalidArrayError(
                    f"evaluate_many needs a buffer of card ids (numpy array, memoryview, "
                    f"bytes, array.array), not {type(cards).__name__}") from None
            # another layout (a column slice, a transposed or reversed view): read through a
            # C-ordered copy, as split_pots_batch reads its inputs; its shape is checked
            # first, from its header (nothing is copied for rows of the wrong size)
            _check_shape(cards, nc)
            copied = _c_order_copy(cards)
            if isinstance(copied, str):  # its format: not integers
                raise InvalidArrayError(
                    f"card ids must be integers (int8 .. uint64), got format "
                    f"{copied!r}") from None
            if copied is None:
                raise InvalidArrayError(
                    f"evaluate_many cannot read this buffer ({exc}); "
                    f"use numpy.ascontiguousarray") from None
            PyObject_GetBuffer(copied, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
        have_view = True
        kind = _kind(view.format, view.itemsize)
        if kind < 0:
            fmt = view.format.decode("ascii", "replace") if view.format != NULL else "B"
            copied = _c_order_copy(cards)  # integers in the other byte order: turned
            if copied is None or isinstance(copied, str):
                raise InvalidArrayError(
                    f"card ids must be integers (int8 .. uint64), got format {fmt!r}")
            PyBuffer_Release(&view)
            have_view = False
            PyObject_GetBuffer(copied, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
            have_view = True
            kind = _kind(view.format, view.itemsize)
            if kind < 0:  # pragma: no cover (the copy is native integers)
                raise InvalidArrayError(f"card ids must be integers, got format {fmt!r}")
        nrows = _rows(view.ndim, view.shape, nc, &k)

        if out is not None:
            try:
                PyObject_GetBuffer(out, &oview,
                                   PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE)
            except (BufferError, ValueError, TypeError) as exc:
                raise InvalidArrayError(
                    f"out must be a writable C-contiguous buffer of uint16 ({exc})") from None
            have_out = True
            out_kind = _kind(oview.format, oview.itemsize)
            if out_kind not in (2, 4, 5, 6, 7) or oview.ndim != 1:
                raise InvalidArrayError(
                    "out must be a 1-D buffer of uint16, int32, uint32, int64 or uint64")
            if oview.shape[0] != nrows:
                raise InvalidArrayError(
                    f"out has {oview.shape[0]} items, the input has {nrows} rows")
            if (nrows > 0 and <char *>oview.buf < <char *>view.buf + view.len
                    and <char *>view.buf < <char *>oview.buf + oview.len):
                raise InvalidArrayError("out must not overlap the input buffer")
            dst = <hd_rank_t *>oview.buf
            result = out
        else:
            np = sys.modules.get("numpy")
            if np is not None and isinstance(cards, np.ndarray):
                result = np.empty(nrows, dtype=np.uint16)
                PyObject_GetBuffer(result, &oview, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE)
                have_out = True
                dst = <hd_rank_t *>oview.buf
            else:
                result_arr = clone(array("H"), nrows, False)
                result = result_arr
                dst = <hd_rank_t *>result_arr.data.as_voidptr

        # the kernels read and write whole items: a buffer that starts off its items'
        # alignment (a numpy view at an odd byte offset, a packed field) goes through an
        # aligned copy (malloc aligns for every integer type)
        src = view.buf
        if nrows > 0 and (<uintptr_t>view.buf) % <uintptr_t>view.itemsize:
            src_copy = PyMem_Malloc(<size_t>view.len)
            if src_copy == NULL:
                raise MemoryError()
            memcpy(src_copy, view.buf, <size_t>view.len)
            src = src_copy
        if out is not None and nrows > 0 and (<uintptr_t>oview.buf) % <uintptr_t>oview.itemsize:
            dst_copy = PyMem_Malloc(<size_t>oview.len)
            if dst_copy == NULL:
                raise MemoryError()
            dst = <hd_rank_t *>dst_copy
        with nogil:
            if out_kind == 2:
                bad = _run(kind, src, <size_t>nrows, k, dst)
            else:
                bad = _run_wide(kind, <const char *>src, view.itemsize, <size_t>nrows, k,
                                dst if dst_copy != NULL else oview.buf, out_kind)
            if dst_copy != NULL and bad < 0:
                memcpy(oview.buf, dst_copy, <size_t>oview.len)
        if bad >= 0:
            row = _row_values(kind, src, bad * k, k)
            raise InvalidArrayError(f"evaluate_many: {_describe_bad_row(row, bad)}")
        return result
    finally:
        PyMem_Free(src_copy)
        PyMem_Free(dst_copy)
        if have_out:
            PyBuffer_Release(&oview)
        if have_view:
            PyBuffer_Release(&view)


def _rank_histogram(int n):
    """Counts of each rank 0..7462 over all C(52, n) hands, n in 5..7 (a compiled loop)."""
    cdef uint64_t hist[7463]
    cdef int rc
    if not 5 <= n <= 7:
        raise InvalidHandError(f"n must be 5, 6 or 7, got {n}")
    memset(hist, 0, sizeof(hist))
    with nogil:
        rc = hd_rank_histogram(n, hist)
    if rc != 0:  # pragma: no cover (n was checked above)
        raise InvalidHandError(f"n must be 5, 6 or 7, got {n}")
    return [hist[i] for i in range(HD_NUM_RANKS + 1)]


cdef hd_rank_t eval_cards_c(const uint8_t *cards, int n) noexcept nogil:
    """Rank of ``n`` (5..7) distinct card ids (0..51) for other Cython modules; 0 if ``n`` or
    a card is out of range or repeated. Exported through this module's C API (declared in
    _eval.pxd), so a caller that cimports it needs only the headers, not csrc/*.c."""
    return hd_eval_cards(cards, n)


cdef const hd_tables_t *eval_tables() noexcept nogil:
    """This module's evaluator tables, the one copy: modules built with HD_TABLES_SHARED pass
    them to ``hd_tables_share`` at import (see _eval.pxd)."""
    return hd_tables_here()
