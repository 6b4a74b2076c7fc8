/* Pot resolution kernel: see hd_pots.h for the contract and holdem/pots.py for the rules. */
#include "hd_pots.h"

/* Append a pot of `amount` chips (none when 0) that the seats in `eligible` may win. */
HD_INLINE void hd_pots_add(hd_pot_result_t *out, int64_t amount, uint16_t eligible)
{
    hd_pot_t *p;
    if (amount <= 0) return;
    p = &out->pots[out->n_pots++];
    p->amount = amount;
    p->rake = 0;
    p->eligible = eligible;
    p->winners = 0;
}

int hd_split_pots(const int64_t *committed, const uint8_t *folded, const int32_t *ranks,
                  int n, int button, int64_t dead, const hd_rake_t *rake, int flop_dealt,
                  hd_pot_result_t *out)
{
    int64_t c[HD_POTS_MAX_SEATS];        /* contributions after the uncalled return */
    int64_t levels[HD_POTS_MAX_SEATS];   /* distinct live contribution levels, ascending */
    int order[HD_POTS_MAX_SEATS];        /* seats clockwise from the first left of the button */
    int i, k, nlevels = 0, nlive = 0, top = -1;
    int64_t first = -1, second = -1, prev, total = 0, rake_left = 0;
    uint16_t live = 0;                   /* bit i: seat i did not fold */

    if (out == 0) return HD_POTS_E_NULL;
    out->error_seat = -1;
    out->n_pots = 0;
    out->rake = 0;
    if (committed == 0 || folded == 0) return HD_POTS_E_NULL;
    if (n < 2 || n > HD_POTS_MAX_SEATS) return HD_POTS_E_SEATS;
    if (button < 0 || button >= n) return HD_POTS_E_BUTTON;
    if (dead < 0 || dead > HD_POTS_MAX_DEAD) return HD_POTS_E_DEAD;

    for (i = 0; i < n; i++) {
        int64_t v = committed[i];
        if (v < 0 || v > HD_POTS_MAX_CHIPS) { out->error_seat = i; return HD_POTS_E_CHIPS; }
        c[i] = v;
        out->returned[i] = 0;
        out->payouts[i] = 0;
        if (!folded[i]) nlive++;
        /* R21: the highest committer (unique) gets back its excess over the second highest. */
        if (v > first) { second = first; first = v; top = i; }
        else if (v > second) second = v;
    }
    if (nlive == 0) return HD_POTS_E_NO_LIVE;
    if (rake != 0) {
        if (rake->den == 0 || rake->den > HD_POTS_MAX_RAKE_DEN || rake->num > rake->den
            || (rake->cap < 0 && rake->cap != HD_POTS_NO_CAP))
            return HD_POTS_E_RAKE;
    }
    if (first > second) {                 /* n >= 2, so second >= 0 here */
        out->returned[top] = first - second;
        c[top] = second;
    }

    /* Pot levels: each distinct live contribution (insertion sort, n <= 10). */
    total = dead;                         /* R7: dead money is in the pot, owned by no seat */
    for (i = 0; i < n; i++) {
        int64_t v = c[i];
        int j, dup = 0;
        total += v;
        if (folded[i]) continue;
        for (j = 0; j < nlevels; j++) if (levels[j] == v) { dup = 1; break; }
        if (dup) continue;
        j = nlevels++;
        while (j > 0 && levels[j - 1] > v) { levels[j] = levels[j - 1]; j--; }
        levels[j] = v;
    }

    /* Layer the chips. Pot k holds every seat's chips in (levels[k-1], levels[k]]; the last pot
     * also takes folded chips above the highest live level (dead money goes to the highest live
     * contributors). Only live seats that reached the level are eligible. Dead money (R7) goes
     * into the main pot, the lowest live level, which every live seat reached: that pot exists
     * whenever dead > 0, even if it holds no seat's chips. */
    prev = 0;
    if (nlevels == 1) { /* one level (a single live seat, or every live seat in for as much): one
                           pot, every chip in it, every live seat eligible (the loop's result) */
        for (i = 0; i < n; i++)
            if (!folded[i]) live |= (uint16_t)(1u << i);
        hd_pots_add(out, total, live);
    } else {
        for (k = 0; k < nlevels; k++) {
            int last = (k == nlevels - 1);
            int64_t hi = levels[k], amount = k == 0 ? dead : 0;
            uint16_t elig = 0;
            for (i = 0; i < n; i++) {
                int64_t part = c[i] - prev;
                if (!folded[i] && c[i] >= hi) elig |= (uint16_t)(1u << i);
                if (part <= 0) continue;
                if (!last && part > hi - prev) part = hi - prev;
                amount += part;
            }
            hd_pots_add(out, amount, elig);
            prev = hi;
        }
    }

    /* R34: floor(fraction * pot), capped per hand, from the main pot first. */
    if (rake != 0 && !(rake->no_flop_no_drop && !flop_dealt)) {
        rake_left = (int64_t)hd_pots_rake_of((uint64_t)total, rake->num, rake->den);
        if (rake->cap != HD_POTS_NO_CAP && rake_left > rake->cap) rake_left = rake->cap;
    }
    out->rake = rake_left;

    for (i = 0; i < n; i++) order[i] = (button + 1 + i) % n;

    for (k = 0; k < out->n_pots; k++) {
        hd_pot_t *p = &out->pots[k];
        int64_t net, share, odd;
        int32_t best = HD_POTS_NO_RANK;
        int nwin = 0;
        uint16_t win = 0;

        p->rake = rake_left < p->amount ? rake_left : p->amount;
        rake_left -= p->rake;
        for (i = 0; i < n; i++) p->shares[i] = 0;

        if ((p->eligible & (p->eligible - 1)) == 0) {
            win = p->eligible;           /* uncontested: no ranks needed */
            nwin = 1;
        } else {
            for (i = 0; i < n; i++) {
                int32_t r;
                if (!(p->eligible >> i & 1u)) continue;
                r = ranks != 0 ? ranks[i] : HD_POTS_NO_RANK;
                if (r < 0) { out->error_seat = i; return HD_POTS_E_RANK; }
                if (r > best) { best = r; win = 0; nwin = 0; }
                if (r == best) { win |= (uint16_t)(1u << i); nwin++; }
            }
        }
        p->winners = win;

        /* R32: equal shares; the odd chips one each, clockwise from left of the button. */
        net = p->amount - p->rake;
        share = net / nwin;
        odd = net - share * nwin;
        for (i = 0; i < n; i++) {
            int s = order[i];
            int64_t got;
            if (!(win >> s & 1u)) continue;
            got = share + (odd > 0 ? 1 : 0);
            if (odd > 0) odd--;
            p->shares[s] = got;
            out->payouts[s] += got;
        }
    }
    for (i = 0; i < n; i++) out->payouts[i] += out->returned[i];
    return HD_POTS_OK;
}
