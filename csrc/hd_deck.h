/* A 52-card deck over a per-object RNG: partial Fisher-Yates, no allocation. Plain C99.
 *
 * Layout: cards[0 .. n) are the cards still in the deck; the top of the deck (the next card
 * dealt) is cards[n - 1]. Dealing moves the top card out of the live range (n -= 1), so
 * cards[n .. 52) keep every card taken out, the first one taken at cards[51]: the array is
 * always a permutation of the 52 ids and nothing is ever lost.
 *
 * Shuffling is Fisher-Yates from the top down: for i = n-1 .. 1, swap cards[i] with
 * cards[j], j uniform in [0, i] (Lemire's exactly unbiased bounded draw, hd_rng.h). Because
 * positions are fixed from the top, dealing k cards after a shuffle gives the same cards as
 * k steps of the partial shuffle `hd_deck_draw`, which is what the batch paths use: they never
 * pay for a full 52-card shuffle to deal 20 cards.
 *
 * Card ids are 4*rank + suit (0..51). Functions that read card ids from the caller check
 * them; none reads or writes outside cards[0 .. 52). */
#ifndef HD_DECK_H
#define HD_DECK_H

#include <string.h>

#include "hd_common.h"
#include "hd_rng.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint8_t cards[HD_NCARDS]; /* a permutation of 0..51; [0, n) live, top = cards[n-1] */
    uint8_t n;                /* cards left, 0..52 */
} hd_deck_t;

/* All 52 cards in id order (2c 2d 2h 2s 3c ... As), none dealt. */
HD_INLINE void hd_deck_init(hd_deck_t *d) {
    int i;
    for (i = 0; i < HD_NCARDS; i++) d->cards[i] = (uint8_t)i;
    d->n = HD_NCARDS;
}

/* Put every card back (the order of the array is kept: it is still a permutation). */
HD_INLINE void hd_deck_restore(hd_deck_t *d) { d->n = HD_NCARDS; }

/* Shuffle the cards left (unbiased Fisher-Yates, n - 1 bounded draws). */
HD_INLINE void hd_deck_shuffle(hd_deck_t *d, hd_rng_t *r) {
    uint32_t i, j;
    uint8_t t;
    for (i = d->n; i > 1; i--) {
        j = hd_rng_below(r, i);
        t = d->cards[i - 1];
        d->cards[i - 1] = d->cards[j];
        d->cards[j] = t;
    }
}

/* One step of a partial Fisher-Yates shuffle: take a card uniformly at random from the cards
 * left and return it. The deck must not be empty (the caller checks d->n > 0). */
HD_INLINE uint8_t hd_deck_draw(hd_deck_t *d, hd_rng_t *r) {
    uint32_t top = (uint32_t)d->n - 1u;
    uint32_t j = hd_rng_below(r, (uint32_t)d->n);
    uint8_t c = d->cards[j];
    d->cards[j] = d->cards[top];
    d->cards[top] = c;
    d->n = (uint8_t)top;
    return c;
}

/* Deal the top card. The deck must not be empty (the caller checks d->n > 0). */
HD_INLINE uint8_t hd_deck_pop(hd_deck_t *d) {
    d->n = (uint8_t)(d->n - 1u);
    return d->cards[d->n];
}

/* Position of `card` among the cards left, or -1 if it is not there (or not a card id). */
HD_INLINE int hd_deck_find(const hd_deck_t *d, int card) {
    int i;
    if (card < 0 || card >= HD_NCARDS) return -1;
    for (i = 0; i < (int)d->n; i++)
        if (d->cards[i] == (uint8_t)card) return i;
    return -1;
}

/* Take `card` out of the deck, keeping the order of the other cards left (so removing a dead
 * card does not change which cards come next, only skips it). Returns 0, or -1 if the card
 * is not in the deck (the deck is then unchanged). */
HD_INLINE int hd_deck_remove(hd_deck_t *d, int card) {
    int i = hd_deck_find(d, card);
    int top;
    if (i < 0) return -1;
    top = (int)d->n - 1;
    memmove(&d->cards[i], &d->cards[i + 1], (size_t)(top - i));
    d->cards[top] = (uint8_t)card;
    d->n = (uint8_t)top;
    return 0;
}

/* Columns of one row of hd_deal_hands: 2*players hole cards, 5 board cards, 3 burns. */
HD_INLINE int hd_hand_width(int players, int burns) { return 2 * players + 5 + (burns ? 3 : 0); }

/* Deal one hold'em hand into row[0 .. hd_hand_width) in table order from a fresh deck seeded
 * with `seed`: one card to each player in turn, then a second round; (burn) flop x3, (burn)
 * turn, (burn) river. Row layout: row[2p], row[2p+1] = player p's hole cards (first, second
 * card dealt); row[2P .. 2P+5) = flop, flop, flop, turn, river; with burns, row[2P+5 .. 2P+8)
 * = burn before the flop, turn, river. `d` is scratch space. Requires 1 <= players and
 * hd_hand_width(players, burns) <= 52. */
HD_INLINE void hd_deal_hand(hd_deck_t *d, uint64_t seed, int players, int burns, uint8_t *row) {
    hd_rng_t r;
    int p, k, b = 2 * players;
    hd_rng_seed(&r, seed);
    hd_deck_init(d);
    for (k = 0; k < 2; k++)
        for (p = 0; p < players; p++) row[2 * p + k] = hd_deck_draw(d, &r);
    for (k = 0; k < 3; k++) {
        if (burns) row[b + 5 + k] = hd_deck_draw(d, &r);
        if (k == 0) {
            row[b] = hd_deck_draw(d, &r);
            row[b + 1] = hd_deck_draw(d, &r);
            row[b + 2] = hd_deck_draw(d, &r);
        } else {
            row[b + 2 + k] = hd_deck_draw(d, &r);
        }
    }
}

/* hd_deal_hand(d, seed, players, 1, row)'s cards straight into seat order: the hole cards of
 * deal position p go to seat s = (first + p) % players, cards[2s] (first card) and cards[2s+1];
 * the board to cards[2 * players .. 2 * players + 5); the burns are drawn (the same draws, in
 * the same order) but not kept. Requires 2 <= players <= 22 and 0 <= first < players. */
HD_INLINE void hd_deal_seats(hd_deck_t *d, uint64_t seed, int players, int first,
                             uint8_t *cards) {
    hd_rng_t r;
    int p, k, s, b = 2 * players;
    hd_rng_seed(&r, seed);
    hd_deck_init(d);
    for (k = 0; k < 2; k++)
        for (p = 0, s = first; p < players; p++, s = s + 1 == players ? 0 : s + 1)
            cards[2 * s + k] = hd_deck_draw(d, &r);
    (void)hd_deck_draw(d, &r); /* burn */
    cards[b] = hd_deck_draw(d, &r);
    cards[b + 1] = hd_deck_draw(d, &r);
    cards[b + 2] = hd_deck_draw(d, &r);
    (void)hd_deck_draw(d, &r); /* burn */
    cards[b + 3] = hd_deck_draw(d, &r);
    (void)hd_deck_draw(d, &r); /* burn */
    cards[b + 4] = hd_deck_draw(d, &r);
}

/* Rows [0, n_hands) of a batch: row i is hd_deal_hand with seed hd_seed_child(seed, start+i),
 * so any chunk of a batch can be dealt on its own and gives the same rows. `out` is row-major,
 * n_hands * hd_hand_width(players, burns) bytes. */
HD_INLINE void hd_deal_hands(uint64_t seed, uint64_t start, int64_t n_hands, int players,
                             int burns, uint8_t *out) {
    hd_deck_t d;
    int64_t i;
    int w = hd_hand_width(players, burns);
    for (i = 0; i < n_hands; i++)
        hd_deal_hand(&d, hd_seed_child(seed, start + (uint64_t)i), players, burns, out + i * w);
}

#ifdef __cplusplus
}
#endif
#endif /* HD_DECK_H */
