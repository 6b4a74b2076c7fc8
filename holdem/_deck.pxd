# The deck kernel, for other Cython modules:
#
#     from holdem._deck cimport hd_rng_t, hd_rng_seed, hd_deck_t, hd_deck_init, hd_deck_draw
#
# Extensions that cimport this need include_dirs=["csrc"] (setup.py's ext() sets it). All
# functions are static inline C (csrc/hd_rng.h, csrc/hd_deck.h): nothing to link.
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t


cdef extern from "hd_rng.h" nogil:
    ctypedef struct hd_rng_t:
        uint64_t s[4]
    uint64_t hd_splitmix64(uint64_t *x)
    void hd_rng_seed(hd_rng_t *r, uint64_t seed)
    uint64_t hd_rng_next(hd_rng_t *r)
    uint32_t hd_rng_below(hd_rng_t *r, uint32_t n)
    double hd_rng_double(hd_rng_t *r)
    uint64_t hd_seed_child(uint64_t seed, uint64_t index)


cdef extern from "hd_deck.h" nogil:
    ctypedef struct hd_deck_t:
        uint8_t cards[52]
        uint8_t n
    void hd_deck_init(hd_deck_t *d)
    void hd_deck_restore(hd_deck_t *d)
    void hd_deck_shuffle(hd_deck_t *d, hd_rng_t *r)
    uint8_t hd_deck_draw(hd_deck_t *d, hd_rng_t *r)
    uint8_t hd_deck_pop(hd_deck_t *d)
    int hd_deck_find(const hd_deck_t *d, int card)
    int hd_deck_remove(hd_deck_t *d, int card)
    int hd_hand_width(int players, int burns)
    void hd_deal_hand(hd_deck_t *d, uint64_t seed, int players, int burns, uint8_t *row)
    void hd_deal_seats(hd_deck_t *d, uint64_t seed, int players, int first, uint8_t *cards)
    void hd_deal_hands(uint64_t seed, uint64_t start, int64_t n_hands, int players,
                       int burns, uint8_t *out)


cdef class Deck:
    cdef hd_deck_t _deck
    cdef hd_rng_t _rng
    # what happened to the card at each position >= _deck.n: _DEALT, _BURNED or _REMOVED
    cdef uint8_t _kind[52]
    cdef object _seed
    cdef bint _fresh

    cdef uint8_t _take(self, uint8_t kind) noexcept
    cdef tuple _taken(self, uint8_t kind)
    cdef str _where(self, int card)
