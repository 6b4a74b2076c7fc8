# Declarations of the compiled hand core (holdem/hand/_compiled.pyx) for other Cython modules.
#
# From another .pyx: ``from holdem.hand._compiled cimport HandCore``; a ``HandState`` of the
# compiled core is a ``HandCore`` (a Python subclass), so a typed caller (the table's decision loop,
# holdem/table/_loop.pyx) reads the C arrays and calls ``_act``/``legal_actions`` directly.
# ``_act`` applies an action without any check: callers validate first.

from libc.stdint cimport int64_t

cdef enum:
    MAXP = 10  # seats per hand (R1)


cdef class HandCore:
    cdef readonly object game
    cdef int _n, _button, _street, _actor, _raises, _aggr, _nboard, _live, _kind
    cdef int _sb_seat, _bb_seat, _first
    cdef int64_t _cur, _inc, _full, _bb, _cap, _dead
    cdef int64_t _sizes[4]
    cdef bint _over, _partial, _lift, _fold_free
    cdef int64_t _stacks[MAXP]
    cdef int64_t _bets[MAXP]
    cdef int64_t _committed[MAXP]
    cdef int64_t _acted[MAXP]
    cdef bint _folded[MAXP]
    cdef tuple _start_stacks, _hole, _board, _burns, _posts
    cdef list _hist
    cdef object _result, _legal, _seed

    cdef int64_t _blind(self, int seat, int64_t amount) noexcept
    cdef _post(self, list posts, int seat, str kind, int64_t amount, bint live)
    cdef _deal(self, seed, hole_cards, board, int first)
    cpdef HandCore clone(self)
    cdef _copy_from(self, HandCore o)
    cdef _need_board(self, int count)
    cdef _finish(self)
    cdef object _settle(self)
    cdef int _find_actor(self, int start) noexcept
    cdef _end_street(self)
    cdef _act(self, int kind, int64_t to)
    cpdef legal_actions(self)
    cdef int _raise_block(self, int i) noexcept
    cdef _seat_check(self, seat)
    cdef tuple _resolve(self, action, seat)
