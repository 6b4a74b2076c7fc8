# C declarations of the hand evaluator (csrc/hd_eval.h).
#
# From another .pyx, with holdem installed: ``from holdem._eval cimport eval_cards_c`` ranks
# 5 to 7 cards through this module's C API (``noexcept nogil``); build with
# ``include_dirs=[holdem.get_include()]`` (the headers ship with holdem). The inline
# incremental evaluator (hd_hand_empty, hd_hand_add, hd_hand_rank) reads tables defined in
# csrc/hd_tables.c: a module that uses it compiles csrc/hd_eval.c and csrc/hd_tables.c in
# (see setup.py; they are in the sdist), or shares this module's copy: build it with
# HD_TABLES_SHARED and csrc/hd_tables_shared.c, and at import, before any lookup, run
# ``hd_tables_share(eval_tables())`` (as holdem._equity and holdem._vector do).
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t


cdef extern from "hd_eval.h" nogil:
    ctypedef uint16_t hd_rank_t
    ctypedef struct hd_hand_t:
        uint64_t key
        uint64_t mask
    ctypedef struct hd_tables_t:
        pass
    void hd_tables_share(const hd_tables_t *t)  # in a module built with HD_TABLES_SHARED

    int HD_NUM_RANKS
    uint64_t HD_KEY_INIT
    const uint64_t hd_card_key[64]
    int HD_MIN_HIGH_CARD, HD_MIN_PAIR, HD_MIN_TWO_PAIR, HD_MIN_THREE_OF_A_KIND, HD_MIN_STRAIGHT
    int HD_MIN_FLUSH, HD_MIN_FULL_HOUSE, HD_MIN_FOUR_OF_A_KIND, HD_MIN_STRAIGHT_FLUSH

    hd_hand_t hd_hand_empty()
    hd_hand_t hd_hand_add(hd_hand_t h, int card)
    hd_hand_t hd_hand_merge(hd_hand_t a, hd_hand_t b)
    hd_rank_t hd_hand_rank(hd_hand_t h)
    hd_rank_t hd_hand_rank7(hd_hand_t h)
    hd_rank_t hd_rank_key_ids(uint64_t key, uint64_t ids)
    hd_rank_t hd_eval_cards(const uint8_t *cards, int n)
    int hd_category(hd_rank_t r)
    void hd_eval_init()
    int hd_rank_histogram(int n, uint64_t *hist)

    Py_ssize_t hd_eval_batch_u8(const uint8_t *cards, size_t n, int k, hd_rank_t *out)
    Py_ssize_t hd_eval_batch_i8(const int8_t *cards, size_t n, int k, hd_rank_t *out)
    Py_ssize_t hd_eval_batch_u16(const uint16_t *cards, size_t n, int k, hd_rank_t *out)
    Py_ssize_t hd_eval_batch_i16(const int16_t *cards, size_t n, int k, hd_rank_t *out)
    Py_ssize_t hd_eval_batch_u32(const uint32_t *cards, size_t n, int k, hd_rank_t *out)
    Py_ssize_t hd_eval_batch_i32(const int32_t *cards, size_t n, int k, hd_rank_t *out)
    Py_ssize_t hd_eval_batch_u64(const uint64_t *cards, size_t n, int k, hd_rank_t *out)
    Py_ssize_t hd_eval_batch_i64(const int64_t *cards, size_t n, int k, hd_rank_t *out)


cdef hd_rank_t eval_cards_c(const uint8_t *cards, int n) noexcept nogil
cdef const hd_tables_t *eval_tables() noexcept nogil
