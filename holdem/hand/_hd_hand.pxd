# Declarations of csrc/hd_hand.h (the plain-C rules of one hand), written once for the two
# Cython modules that run them: the compiled hand core (holdem/hand/_compiled.pyx) and the
# batched engine (holdem/_vector.pyx). Declarations only: nothing to link from here (each
# extension that cimports this is built with csrc/hd_hand.c, see setup.py).

from libc.stdint cimport int32_t, int64_t, uint8_t

from holdem._pots cimport hd_pot_result_t, hd_rake_t


cdef extern from "hd_hand.h" nogil:
    enum:
        HD_NL
        HD_PL
        HD_FL
        HD_FOLD
        HD_CHECK_CALL
        HD_BET_RAISE
        HD_HAND_MAX_SEATS
        HD_HAND_MAX_POSTS
        HD_HAND_UNBOUNDED
        HD_CARD_NONE
        HD_HAND_OK
        HD_HAND_E_BOARD
        HD_HAND_E_HOLE
        HD_REC_FOLD, HD_REC_CHECK, HD_REC_CALL, HD_REC_BET, HD_REC_RAISE
        HD_POST_ANTE, HD_POST_SMALL_BLIND, HD_POST_BIG_BLIND, HD_POST_STRADDLE
        HD_POST_BIG_BLIND_ANTE, HD_POST_ENTRY_BIG_BLIND, HD_POST_DEAD_SMALL_BLIND
    ctypedef struct hd_rules_t:
        int32_t structure
        int32_t straddle
        int32_t bb_ante
        int32_t deal_from_bb
        int32_t lift_heads_up
        int32_t fold_free
        int32_t cap
        int32_t has_rake
        int64_t big_blind
        int64_t small_blind
        int64_t ante
        int64_t sizes[4]
        hd_rake_t rake
    ctypedef struct hd_legal_t:
        int32_t seat
        int32_t can_fold
        int32_t can_check
        int32_t can_raise
        int32_t is_bet
        int64_t call
        int64_t min_to
        int64_t max_to
    ctypedef struct hd_hstate_t:
        int64_t stacks[10]
        int64_t bets[10]
        int64_t committed[10]
        int64_t acted[10]
        int64_t cur
        int64_t inc
        int64_t full
        int64_t dead
        int64_t rake
        int32_t n, button, sb_seat, bb_seat, first_dealt
        int32_t street
        int32_t actor
        int32_t raises
        int32_t aggr
        int32_t live
        int32_t nboard
        int32_t over
        int32_t showdown
        int32_t error
        uint8_t folded[10]
        uint8_t hole[20]
        uint8_t board[5]
        uint8_t unknown
        int32_t ranks[10]
        int64_t start[10]
        int64_t payout[10]
    ctypedef struct hd_post_t:
        int32_t seat
        int32_t kind
        int64_t amount
    ctypedef struct hd_extra_t:
        int32_t seat
        int64_t live
        int64_t dead
    ctypedef struct hd_start_t:
        int32_t dead_small_blind
        int32_t unknown_cards
        int32_t nextra
        int32_t dead_hands
        hd_extra_t extra[10]
    ctypedef struct hd_record_t:
        int32_t seat
        int32_t street
        int32_t type
        int32_t all_in
        int64_t to
        int64_t amount

    int hd_rules_check(const hd_rules_t *g)
    int hd_hs_start(const hd_rules_t *g, hd_hstate_t *h, int n, int button,
                    const int64_t *stacks, const uint8_t *cards)
    int hd_hs_start_trusted(const hd_rules_t *g, hd_hstate_t *h, int n, int button,
                            const int64_t *stacks, const uint8_t *cards)
    int hd_hs_check(const hd_rules_t *g, const hd_hstate_t *h, int kind, int64_t to)
    void hd_hs_act(const hd_rules_t *g, hd_hstate_t *h, int kind, int64_t to)
    int hd_hs_start_ex(const hd_rules_t *g, hd_hstate_t *h, int n, int button,
                       const int64_t *stacks, const uint8_t *cards, const hd_start_t *opt,
                       hd_post_t *posts, int *nposts)
    void hd_hs_legal(const hd_rules_t *g, const hd_hstate_t *h, hd_legal_t *out)
    void hd_hs_legal_inline(const hd_rules_t *g, const hd_hstate_t *h, hd_legal_t *out)
    int hd_hs_raise_block(const hd_rules_t *g, const hd_hstate_t *h, int i)
    void hd_hs_act_rec(const hd_rules_t *g, hd_hstate_t *h, int kind, int64_t to,
                       hd_record_t *rec)
    int64_t hd_hs_pot(const hd_hstate_t *h)
    int hd_hs_settle(const hd_rules_t *g, const hd_hstate_t *h, hd_pot_result_t *out)
    int hd_hs_show_order(const hd_hstate_t *h, int32_t *order)
    int hd_hs_showdown(const hd_hstate_t *h, int muck, int32_t *order, uint8_t *shown)
    int hd_hs_consistent(const hd_rules_t *g, const hd_hstate_t *h)
