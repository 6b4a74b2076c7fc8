# cython: language_level=3
"""Equity kernels: exhaustive enumeration and Monte Carlo, ``nogil`` loops over the C evaluator.

Private: :func:`holdem.equity` (``holdem/equity.py``) validates the input, plans the chunks and
calls these. A *problem* is described by flat buffers:

* ``cards``: ``uint8[2 * ncombos]``, the two card ids of every combo of every player;
* ``offsets``: ``int32[n + 1]``, player ``p`` owns combos ``offsets[p] .. offsets[p+1]-1``;
* ``accept``: ``float64[ncombos]``, combo weight divided by its player's largest weight
  (Monte Carlo acceptance probability);
* ``board``: ``uint8[nb]`` known board cards; ``dead``: a 52-bit mask of board and dead cards.

Counts come back per player: ``wins[p]`` (sole best hand) and ``ties[p * (n + 1) + k]`` (best
hand shared by ``k`` players), so the equity share ``wins + sum(ties_k / k)`` is exact.
"""

from cpython.pyport cimport PY_SSIZE_T_MAX
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from holdem._deck cimport hd_rng_below, hd_rng_double, hd_rng_seed, hd_rng_t
from holdem._eval cimport eval_tables, hd_tables_share

cdef extern from "hd_eval.h" nogil:
    ctypedef unsigned int hd_rank_t
    ctypedef struct hd_hand_t:
        pass
    hd_hand_t hd_hand_empty()
    hd_hand_t hd_hand_add(hd_hand_t h, int card)
    hd_hand_t hd_hand_merge(hd_hand_t a, hd_hand_t b)
    hd_rank_t hd_hand_rank7(hd_hand_t h)

hd_tables_share(eval_tables())  # the evaluator's tables, linked once into holdem._eval

cdef enum:
    MAXP = 10                   # most players
    NT = MAXP * (MAXP + 1)      # tie counters: [player][players sharing the pot]
    # consecutive failed combo draws (card conflicts between players) before Monte Carlo stops
    MAX_REJECTIONS = 1000000


cdef struct Ctx:
    int n
    int k                       # board cards still to come
    int nrem                    # cards left in the deck
    uint64_t boards             # boards scored since the last reset
    uint8_t rem[52]
    hd_hand_t hole[MAXP]        # each player's two hole cards as an accumulator
    uint64_t wins[MAXP]
    uint64_t ties[NT]


cdef inline void _reset(Ctx *c) noexcept nogil:
    """Zero the counters of the ``n`` players (the only ones counted and read)."""
    cdef int p, kk
    c.boards = 0
    for p in range(c.n):
        c.wins[p] = 0
        for kk in range(2, c.n + 1):
            c.ties[p * (MAXP + 1) + kk] = 0


cdef inline void _score(Ctx *c, hd_hand_t board) noexcept nogil:
    """Rank every player's hand on one complete board and count the outcome, branch-free
    (outcomes are unpredictable; the rank lookups are independent so they overlap)."""
    cdef hd_rank_t r[MAXP]
    cdef hd_rank_t best = 0
    cdef int p, nbest = 0, who = 0
    for p in range(c.n):
        r[p] = hd_hand_rank7(hd_hand_merge(board, c.hole[p]))
    for p in range(c.n):
        if r[p] > best:
            best = r[p]
            nbest = 1
            who = p
        elif r[p] == best:
            nbest += 1
    c.boards += 1
    if nbest == 1:
        c.wins[who] += 1
    else:
        for p in range(c.n):
            if r[p] == best:
                c.ties[p * (MAXP + 1) + nbest] += 1


cdef void _leaf(Ctx *c, int start, hd_hand_t acc) noexcept nogil:
    """The last board card over ``rem[start:]``: the innermost loop, counters kept local."""
    cdef int j
    cdef int stop = c.nrem
    cdef hd_hand_t h0, h1
    cdef hd_rank_t r0, r1
    cdef uint64_t w0 = 0, w1 = 0, tie = 0
    if c.n == 2:
        h0 = hd_hand_merge(acc, c.hole[0])  # board so far plus each hand, once per loop
        h1 = hd_hand_merge(acc, c.hole[1])
        for j in range(start, stop):
            r0 = hd_hand_rank7(hd_hand_add(h0, c.rem[j]))
            r1 = hd_hand_rank7(hd_hand_add(h1, c.rem[j]))
            w0 += r0 > r1
            w1 += r1 > r0
            tie += r0 == r1
        c.wins[0] += w0
        c.wins[1] += w1
        c.ties[2] += tie
        c.ties[MAXP + 1 + 2] += tie
        c.boards += <uint64_t>(stop - start)
    else:
        for j in range(start, stop):
            _score(c, hd_hand_add(acc, c.rem[j]))


cdef void _walk(Ctx *c, int depth, int start, hd_hand_t acc) noexcept nogil:
    """Deal board cards ``depth .. k-1`` from ``rem[start:]`` in increasing order."""
    cdef int j
    cdef int stop = c.nrem - (c.k - depth) + 1
    if depth == c.k - 1:
        _leaf(c, start, acc)
    else:
        for j in range(start, stop):
            _walk(c, depth + 1, j + 1, hd_hand_add(acc, c.rem[j]))


cdef int _check(const uint8_t[::1] cards, const uint8_t[::1] board, int n) except -1:
    cdef Py_ssize_t t
    if not 2 <= n <= MAXP:
        raise ValueError("2..10 players")
    if board.shape[0] > 5:
        raise ValueError("at most 5 board cards")
    for t in range(cards.shape[0]):
        if cards[t] >= 52:
            raise ValueError("bad card id")
    for t in range(board.shape[0]):
        if board[t] >= 52:
            raise ValueError("bad card id")
    return 0


def exact_chunk(
    const uint8_t[::1] cards,
    const uint8_t[::1] board,
    uint64_t dead,
    int n,
    const int32_t[::1] assign,
    const double[::1] aweight,
    int64_t u0,
    int64_t u1,
    int64_t first,
):
    """Enumerate units ``u0 .. u1-1`` of a problem exhaustively.

    Unit ``u`` is (assignment ``a = u // first``, first board card ``rem[u % first]``) where
    assignment ``a`` gives player ``p`` the combo ``assign[a * n + p]`` with weight
    ``aweight[a]``; with no board card to come, ``first == 1`` and a unit is an assignment.
    The combos of an assignment must not share cards with each other or with ``dead``.
    Returns ``(boards, total_weight, wins, ties)``: weighted sums as floats, added unit by unit
    in unit order (so a chunk's result never depends on where it runs).
    """
    cdef Ctx c
    cdef int nb = board.shape[0]
    cdef int p, i, t, kk, idx
    cdef int64_t u, a, last = -1
    cdef uint64_t m, boards = 0
    cdef double w, total = 0.0
    cdef double wsum[MAXP]
    cdef double tsum[NT]
    cdef hd_hand_t base
    _check(cards, board, n)
    if assign.shape[0] % n != 0 or assign.shape[0] // n != aweight.shape[0]:
        raise ValueError("bad assignment shape")
    # u1 <= units (aweight.shape[0] * first), without forming the product: it may pass 2**63
    if first < 1 or u0 < 0 or (u1 > 0 and (u1 - 1) // first >= aweight.shape[0]):
        raise ValueError("bad unit range")
    for t in range(assign.shape[0]):
        if not 0 <= assign[t] < cards.shape[0] // 2:
            raise ValueError("bad combo index")
    c.n = n
    c.k = 5 - nb
    with nogil:
        for p in range(MAXP):
            wsum[p] = 0.0
        for t in range(NT):
            tsum[t] = 0.0
        base = hd_hand_empty()
        for t in range(nb):
            base = hd_hand_add(base, board[t])
        for u in range(u0, u1):
            a = u // first
            i = <int>(u - a * first)
            if a != last:  # the hands and the deck left: once per assignment, not per unit
                last = a
                m = dead
                for p in range(n):
                    idx = assign[a * n + p]
                    c.hole[p] = hd_hand_add(hd_hand_add(hd_hand_empty(), cards[2 * idx]),
                                            cards[2 * idx + 1])
                    m |= (<uint64_t>1 << cards[2 * idx]) | (<uint64_t>1 << cards[2 * idx + 1])
                c.nrem = 0
                for t in range(52):
                    if not (m >> t) & 1:
                        c.rem[c.nrem] = <uint8_t>t
                        c.nrem += 1
            _reset(&c)
            if c.k == 0:
                _score(&c, base)
            elif i < c.nrem - c.k + 1:
                if c.k == 1:
                    _score(&c, hd_hand_add(base, c.rem[i]))
                else:
                    _walk(&c, 1, i + 1, hd_hand_add(base, c.rem[i]))
            w = aweight[a]
            boards += c.boards
            total += w * <double>c.boards
            for p in range(n):
                wsum[p] += w * <double>c.wins[p]
                for kk in range(2, n + 1):
                    tsum[p * (MAXP + 1) + kk] += w * <double>c.ties[p * (MAXP + 1) + kk]
    wins = [wsum[p] for p in range(n)]
    ties = [tsum[p * (MAXP + 1) + kk] if kk >= 2 else 0.0
            for p in range(n) for kk in range(n + 1)]
    return boards, total, wins, ties


def mc_chunk(
    const uint8_t[::1] cards,
    const int32_t[::1] offsets,
    const double[::1] accept,
    const uint8_t[::1] board,
    uint64_t dead,
    int64_t samples,
    uint64_t seed,
):
    """Deal ``samples`` random boards (and combos, for ranges) from a generator seeded ``seed``.

    Combos: each player draws a combo uniformly from their list and keeps it with probability
    ``accept`` (weight / largest weight); if two players' combos share a card (or one is dead)
    the whole draw is rejected and redone. That samples assignments with probability
    proportional to the product of the weights among assignments without conflicts: the same
    distribution exhaustive enumeration weighs by. The missing board cards are then drawn
    uniformly from the cards left. Returns ``(wins, ties, rejections)`` as integer counts.
    """
    cdef Ctx c
    cdef hd_rng_t rng
    cdef int n = offsets.shape[0] - 1
    cdef int nb = board.shape[0]
    cdef int p, t, cnt, card, ndeck, ranged = 0
    cdef double top
    cdef uint8_t deck[52]
    cdef int32_t j
    cdef int64_t _s
    cdef uint64_t m, bits, fixed, rejected = 0, streak = 0
    cdef bint failed = False
    cdef hd_hand_t base, acc
    cdef hd_hand_t *hole
    _check(cards, board, n)
    if accept.shape[0] * 2 != cards.shape[0] or samples < 0:
        raise ValueError("bad problem shape")
    if offsets[0] != 0 or offsets[n] != accept.shape[0]:
        raise ValueError("bad offsets")
    for p in range(n):
        if offsets[p + 1] <= offsets[p]:
            raise ValueError("every player needs at least one combo")
        top = 0.0
        for j in range(offsets[p], offsets[p + 1]):
            if not 0.0 < accept[j] <= 1.0:
                raise ValueError("acceptance outside (0, 1]")
            top = accept[j] if accept[j] > top else top
        if top != 1.0:
            raise ValueError("every player needs a combo with acceptance 1")
        if offsets[p + 1] - offsets[p] > 1:
            ranged += 1
    c.n = n
    c.k = 5 - nb
    _reset(&c)
    hd_rng_seed(&rng, seed)
    hole = <hd_hand_t *>malloc(accept.shape[0] * sizeof(hd_hand_t) + 1)
    if hole == NULL:
        raise MemoryError()
    for t in range(accept.shape[0]):
        hole[t] = hd_hand_add(hd_hand_add(hd_hand_empty(), cards[2 * t]), cards[2 * t + 1])
    # the deck the board is drawn from: everything but dead cards and fixed hands
    m = dead
    for p in range(n):
        if offsets[p + 1] - offsets[p] == 1:
            j = offsets[p]
            m |= (<uint64_t>1 << cards[2 * j]) | (<uint64_t>1 << cards[2 * j + 1])
    fixed = m
    for p in range(n):
        j = offsets[p]
        c.hole[p] = hole[j]  # fixed hands keep these; range players overwrite them
    ndeck = 0
    for t in range(52):
        if not (m >> t) & 1:
            deck[ndeck] = <uint8_t>t
            ndeck += 1
    if ndeck - 2 * ranged < c.k:
        free(hole)
        raise ValueError("not enough cards left for the board")
    with nogil:
        base = hd_hand_empty()
        for t in range(nb):
            base = hd_hand_add(base, board[t])
        for _s in range(samples):
            if ranged == 0:  # only fixed hands: nothing to draw, nothing can collide
                m = fixed
            else:
                streak = 0
            while ranged != 0:
                m = dead
                for p in range(n):
                    cnt = offsets[p + 1] - offsets[p]
                    j = offsets[p]
                    if cnt > 1:
                        while True:
                            j = offsets[p] + <int32_t>hd_rng_below(&rng, <uint32_t>cnt)
                            if accept[j] >= 1.0 or hd_rng_double(&rng) < accept[j]:
                                break
                    bits = (<uint64_t>1 << cards[2 * j]) | (<uint64_t>1 << cards[2 * j + 1])
                    if m & bits:
                        break
                    m |= bits
                    c.hole[p] = hole[j]
                else:
                    break
                rejected += 1
                streak += 1
                if streak >= MAX_REJECTIONS:
                    failed = True
                    break
            if failed:
                break
            # partial Fisher-Yates over the persistent deck; cards of range players are
            # rejected (the chosen board cards sit below position t and are never redrawn)
            acc = base
            for t in range(c.k):
                while True:
                    j = t + <int32_t>hd_rng_below(&rng, <uint32_t>(ndeck - t))
                    card = deck[j]
                    if not (m >> card) & 1:
                        break
                deck[j] = deck[t]
                deck[t] = <uint8_t>card
                m |= <uint64_t>1 << card
                acc = hd_hand_add(acc, card)
            _score(&c, acc)
    free(hole)
    if failed:
        raise OverflowError("combo draws keep conflicting")
    wins = [c.wins[p] for p in range(n)]
    ties = [c.ties[p * (MAXP + 1) + t] if t >= 2 else 0
            for p in range(n) for t in range(n + 1)]
    return wins, ties, rejected


cdef int64_t _assignments(
    const uint8_t[::1] cards, const int32_t[::1] offsets, const double[::1] weight,
    uint64_t dead, int64_t limit, int32_t *out, double *wout,
) noexcept nogil:
    """Walk the valid assignments in lexicographic order; stop after ``limit + 1``.

    Fills ``out``/``wout`` when they are not NULL (room for ``limit`` assignments needed).
    """
    cdef int n = <int>offsets.shape[0] - 1
    cdef int p, t
    cdef int32_t idx[MAXP]
    cdef uint64_t used[MAXP + 1]
    cdef uint64_t bits
    cdef int64_t count = 0
    cdef double w
    # odometer over combo indices; used[p] = cards of players 0..p-1 plus the dead cards
    p = 0
    used[0] = dead
    idx[0] = offsets[0] - 1
    while p >= 0:
        idx[p] += 1
        if idx[p] >= offsets[p + 1]:
            p -= 1
            continue
        bits = (<uint64_t>1 << cards[2 * idx[p]]) | (<uint64_t>1 << cards[2 * idx[p] + 1])
        if used[p] & bits:
            continue
        if p == n - 1:
            if count >= limit:
                return count + 1
            if out != NULL:
                w = 1.0
                for t in range(n):
                    out[count * n + t] = idx[t]
                    w *= weight[idx[t]]
                wout[count] = w
            count += 1
        else:
            used[p + 1] = used[p] | bits
            p += 1
            idx[p] = offsets[p] - 1
    return count


def valid_assignments(
    const uint8_t[::1] cards, const int32_t[::1] offsets, const double[::1] weight,
    uint64_t dead, int64_t limit,
):
    """Every way to give each player one of their combos without shared or dead cards.

    Returns ``(assign, aweight)`` as bytes (``int32[A * n]`` combo indices, players in order,
    and ``float64[A]`` products of the weights, multiplied in player order), in lexicographic
    order of the combo indices, or ``None`` when there are more than ``limit``.
    """
    cdef int n = <int>offsets.shape[0] - 1
    cdef int p
    cdef int64_t count
    cdef int32_t[::1] a_view
    cdef double[::1] w_view
    if not 1 <= n <= MAXP or weight.shape[0] * 2 != cards.shape[0] or limit < 0:
        raise ValueError("bad problem shape")
    if limit > PY_SSIZE_T_MAX // (4 * MAXP + 8):  # 4 * n * count bytes must not wrap
        raise ValueError("limit too large")
    if offsets[0] != 0 or offsets[n] != weight.shape[0]:
        raise ValueError("bad offsets")
    for p in range(n):
        if offsets[p + 1] < offsets[p]:
            raise ValueError("bad offsets")
    for p in range(cards.shape[0]):
        if cards[p] >= 52:
            raise ValueError("bad card id")
    for p in range(n):
        if offsets[p + 1] == offsets[p]:
            return b"", b""
    with nogil:
        count = _assignments(cards, offsets, weight, dead, limit, NULL, NULL)
    if count > limit:
        return None
    a_buf = bytearray(4 * n * count)
    w_buf = bytearray(8 * count)
    if count:
        a_view = memoryview(a_buf).cast("i")
        w_view = memoryview(w_buf).cast("d")
        with nogil:
            _assignments(cards, offsets, weight, dead, count, &a_view[0], &w_view[0])
    return bytes(a_buf), bytes(w_buf)
