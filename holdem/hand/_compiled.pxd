# Declarations of the compiled hand core (holdem/hand/_compiled.pyx) for other Cython modules.
#
# From another .pyx: ``from holdem.hand._compiled cimport HandCore``; a ``HandState`` of the
# compiled core is a ``HandCore`` (a Python subclass), so a typed caller (the table's decision
# loop, holdem/table/_loop.pyx) reads the hand's C struct ``_h`` (csrc/hd_hand.h) and calls
# ``_act``/``legal_actions`` directly. ``_act`` applies an action without any check: callers
# validate first.

from libc.stdint cimport int64_t, uint8_t

from holdem.hand._hd_hand cimport hd_hstate_t, hd_rules_t


cdef class GameRules:
    cdef hd_rules_t g
    cdef readonly object plan


cdef class HandCore:
    cdef object _game  # None for a state never started (HandState.__new__): see _compiled.pyx
    cdef GameRules _rules
    cdef hd_hstate_t _h
    cdef bint _partial
    cdef tuple _start_stacks, _hole, _board, _burns, _posts
    cdef list _hist
    cdef object _result, _legal, _seed

    cdef _deal(self, int n, seed, hole_cards, board, int first, uint8_t *cards)
    cpdef HandCore clone(self)
    cdef _copy_from(self, HandCore o)
    cdef _missing_cards(self)
    cdef object _settle(self)
    cdef void _street_returns(self, int64_t *back)
    cdef _act(self, int kind, int64_t to)
    cdef _act_restoring(self, int kind, int64_t to)
    cpdef legal_actions(self)
    cdef _seat_check(self, seat)
    cdef tuple _resolve(self, action, seat)
