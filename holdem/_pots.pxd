# Declarations of the pot-resolution kernel (csrc/hd_pots.h) for other Cython modules.
#
# From another .pyx: ``from holdem._pots cimport split_pots_c, hd_pot_result_t, hd_rake_t``.
# ``split_pots_c`` is exported through this module's C API, so the caller does not need to
# compile csrc/hd_pots.c in; it is ``noexcept nogil`` and may be called in a ``with nogil`` loop.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint64_t


cdef extern from "hd_pots.h" nogil:
    enum:
        HD_POTS_MAX_SEATS
        HD_POTS_MAX_POTS
        HD_POTS_NO_RANK
        HD_POTS_OK
        HD_POTS_E_NULL
        HD_POTS_E_SEATS
        HD_POTS_E_BUTTON
        HD_POTS_E_CHIPS
        HD_POTS_E_NO_LIVE
        HD_POTS_E_RANK
        HD_POTS_E_RAKE

    const int64_t HD_POTS_MAX_CHIPS
    const uint64_t HD_POTS_MAX_RAKE_DEN
    const int64_t HD_POTS_NO_CAP

    ctypedef struct hd_rake_t:
        uint64_t num
        uint64_t den
        int64_t cap
        int32_t no_flop_no_drop

    ctypedef struct hd_pot_t:
        int64_t amount
        int64_t rake
        int64_t shares[10]
        uint16_t eligible
        uint16_t winners

    ctypedef struct hd_pot_result_t:
        int32_t n_pots
        int32_t error_seat
        int64_t rake
        int64_t returned[10]
        int64_t payouts[10]
        hd_pot_t pots[10]

    int hd_split_pots(const int64_t *committed, const uint8_t *folded, const int32_t *ranks,
                      int n, int button, const hd_rake_t *rake, int flop_dealt,
                      hd_pot_result_t *out)


cdef int split_pots_c(const int64_t *committed, const uint8_t *folded, const int32_t *ranks,
                      int n, int button, const hd_rake_t *rake, bint flop_dealt,
                      hd_pot_result_t *out) noexcept nogil
