"""The deck: 52 cards, a per-deck xoshiro256** generator, unbiased Fisher-Yates.

>>> from holdem import Deck
>>> deck = Deck(seed=7)
>>> hole = deck.deal(2)
>>> deck.burn() in deck.burned, len(deck)
(True, 49)

Same seed, same cards, on every platform: the generator (csrc/hd_rng.h) and the shuffle
(csrc/hd_deck.h) use only 64-bit integer arithmetic. Seeds follow :mod:`holdem._seeding`.
"""

from cpython.pyport cimport PY_SSIZE_T_MAX
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from array import array

from holdem import _memory
from holdem._ints import int_or_none
from holdem._seeding import resolve_seed, seed_bits
from holdem._shown import excerpt, literal, shown
from holdem.cards import CARDS as _CARDS_PY, Card, parse_cards
from holdem.errors import DeckError, InvalidArrayError, InvalidConfigError

__all__ = ["Deck", "child_seed", "deal_hands", "hand_width"]

cdef tuple _CARDS = _CARDS_PY
cdef enum:
    _LIVE = 0
    _DEALT = 1
    _BURNED = 2
    _REMOVED = 3


cdef bint _flag(object v, str what) except -1:
    """A True/False option, refused if it is anything else (no truthiness guess)."""
    if type(v) is not bool:
        raise InvalidConfigError(f"{what} must be True or False, got {excerpt(v)}")
    return v


cdef int _count(object n, str what) except -1:
    v = int_or_none(n)
    if v is None:
        raise InvalidConfigError(f"{what} must be an int, not {type(n).__name__}: {excerpt(n)}")
    if v < 0:
        raise DeckError(f"{what} must be >= 0, got {shown(v)}")
    return min(v, 1 << 20)  # anything over 52 is refused by the caller with the real count


cdef class Deck:
    """Deck(seed=None)
--

A 52-card deck with its own random generator.

    ``Deck(seed=None)``: a new deck holds all 52 cards, already shuffled by its own
    xoshiro256** generator seeded from ``seed`` (an int of any size or sign, reduced modulo
    2**64; ``None`` draws one from os.urandom, and :attr:`seed` tells which, so a run can be
    replayed). Cards come off the top: :meth:`deal`, :meth:`deal_one`, :meth:`burn`.
    :meth:`remove` takes known or dead cards out. Every card is always accounted for:
    ``len(deck) + len(deck.dealt) + len(deck.burned) + len(deck.removed) == 52``.

    There is no ``peek``: the order of the cards left is not exposed (:attr:`cards_left` is
    in id order).

    >>> d = Deck(seed=1)
    >>> len(d), len(d.deal(5)), len(d)
    (52, 5, 47)
    >>> Deck(seed=1).deal(5) == Deck(seed=1).deal(5)
    True
    """

    def __cinit__(self):
        # a valid deck even if __init__ never runs (Deck.__new__, or a subclass whose
        # __init__ does not call Deck's): the cards in id order and the generator seeded
        # from the seed reported, 0 (an all-zero state would never leave zero, and the
        # bounded draws of shuffle() would reject it forever)
        hd_deck_init(&self._deck)
        memset(self._kind, _LIVE, 52)
        hd_rng_seed(&self._rng, 0)
        self._seed = 0
        self._fresh = False

    def __init__(self, seed=None):
        s = resolve_seed(seed)
        hd_rng_seed(&self._rng, <uint64_t>seed_bits(s))
        hd_deck_init(&self._deck)  # (again, so calling __init__ twice starts afresh too)
        memset(self._kind, _LIVE, 52)
        hd_deck_shuffle(&self._deck, &self._rng)
        self._seed = s
        self._fresh = True

    @property
    def seed(self):
        """The seed this deck was made with (drawn from os.urandom if none was given)."""
        return self._seed

    def __len__(self):
        return self._deck.n

    def __contains__(self, card):
        """``"As" in deck``: is the card still in the deck? (A non-card raises
        :class:`~holdem.InvalidCardError`.)"""
        return hd_deck_find(&self._deck, int(Card(card))) >= 0

    @property
    def cards_left(self):
        """The cards still in the deck, in id order (not in dealing order: no peeking)."""
        cdef uint8_t present[52]
        cdef int i
        memset(present, 0, 52)
        for i in range(self._deck.n):
            present[self._deck.cards[i]] = 1
        return tuple([_CARDS[i] for i in range(52) if present[i]])

    cdef tuple _taken(self, uint8_t kind):
        cdef int i
        return tuple([_CARDS[self._deck.cards[i]]
                      for i in range(51, self._deck.n - 1, -1) if self._kind[i] == kind])

    @property
    def dealt(self):
        """The cards dealt face up or to players so far, in the order dealt."""
        return self._taken(_DEALT)

    @property
    def burned(self):
        """The burned cards, in the order burned (kept face down, readable here)."""
        return self._taken(_BURNED)

    @property
    def removed(self):
        """The cards taken out with :meth:`remove`, in the order removed."""
        return self._taken(_REMOVED)

    cdef inline uint8_t _take(self, uint8_t kind) noexcept:
        cdef uint8_t c = hd_deck_pop(&self._deck)
        self._kind[self._deck.n] = kind
        return c

    def shuffle(self):
        """Shuffle the cards left (unbiased Fisher-Yates on this deck's generator)."""
        hd_deck_shuffle(&self._deck, &self._rng)
        self._fresh = False

    def deal(self, n):
        """Deal ``n`` cards off the top: a tuple of :class:`~holdem.Card`.

        Raises :class:`~holdem.DeckError` if fewer than ``n`` are left (nothing is dealt).
        """
        cdef int k = _count(n, "the number of cards to deal")
        cdef int i
        if k > self._deck.n:
            raise DeckError(f"cannot deal {shown(n)} cards: only {self._deck.n} left in the deck")
        cdef tuple out = PyTuple_New(k)
        for i in range(k):
            card = <object>PyTuple_GET_ITEM(_CARDS, self._take(_DEALT))
            Py_INCREF(card)
            PyTuple_SET_ITEM(out, i, card)
        self._fresh = False
        return out

    def deal_one(self):
        """Deal one card off the top."""
        if self._deck.n == 0:
            raise DeckError("cannot deal a card: the deck is empty")
        self._fresh = False
        return _CARDS[self._take(_DEALT)]

    def burn(self):
        """Burn the top card: it leaves the deck face down, is returned, and is kept in
        :attr:`burned`."""
        if self._deck.n == 0:
            raise DeckError("cannot burn a card: the deck is empty")
        self._fresh = False
        return _CARDS[self._take(_BURNED)]

    def remove(self, cards):
        """Take known or dead cards out of the deck (text like ``"AsKd"`` or an iterable of
        cards). The other cards keep their order.

        Raises :class:`~holdem.DeckError` naming the first card that is not in the deck, and
        :class:`~holdem.DuplicateCardError` for a card given twice; the deck is then unchanged.
        """
        todo = parse_cards(cards)
        for c in todo:
            if hd_deck_find(&self._deck, int(c)) < 0:
                raise DeckError(
                    f"cannot remove {c}: it is not in the deck (already {self._where(int(c))})")
        for c in todo:
            hd_deck_remove(&self._deck, int(c))
            self._kind[self._deck.n] = _REMOVED
        if todo:
            self._fresh = False

    cdef str _where(self, int card):
        cdef int i
        for i in range(self._deck.n, 52):
            if self._deck.cards[i] == card:
                return ("dealt", "burned", "removed")[self._kind[i] - 1]
        return "gone"  # not reached: the array is always a permutation of 0..51

    def reset(self):
        """Put all 52 cards back and shuffle them, continuing this deck's random stream.

        The generator is not reseeded, so each reset gives a new order (a whole session of
        hands replays from ``Deck(seed=deck.seed)`` and the same calls). To restart from the
        seed, make a new ``Deck(seed=deck.seed)``.
        """
        hd_deck_restore(&self._deck)
        memset(self._kind, _LIVE, 52)
        hd_deck_shuffle(&self._deck, &self._rng)
        self._fresh = False

    def copy(self):
        """An independent deck in the same state (same cards left, same generator state): both
        deal the same cards from here on."""
        cdef object o = type(self).__new__(type(self))
        cdef Deck d
        if not isinstance(o, Deck):  # a subclass's __new__ made something else: no C state
            raise DeckError(f"cannot copy: {type(self).__name__}.__new__ returned "
                            f"{type(o).__name__}, not a Deck")
        d = <Deck>o
        memcpy(&d._deck, &self._deck, sizeof(hd_deck_t))
        memcpy(&d._rng, &self._rng, sizeof(hd_rng_t))
        memcpy(d._kind, self._kind, 52)
        d._seed = self._seed
        d._fresh = self._fresh
        return d

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        rng = tuple([self._rng.s[i] for i in range(4)])
        return (_restore, (self._seed, rng, bytes(self._deck.cards[:52]), self._deck.n,
                           bytes(self._kind[:52]), self._fresh))

    def __repr__(self):
        seed = literal(self._seed)  # (in hex past Python's limit of digits printed)
        if self._fresh:
            return f"Deck(seed={seed})"
        return (f"<Deck seed={seed}: {self._deck.n} left, {len(self.dealt)} dealt, "
                f"{len(self.burned)} burned, {len(self.removed)} removed>")

    def __str__(self):
        return f"a deck with {self._deck.n} cards left"


def _restore(seed, rng, cards, n, kind, fresh):
    """Unpickle a :class:`Deck` (checks the state, so a corrupt pickle cannot break it)."""
    cdef Deck d = Deck.__new__(Deck)
    cdef Deck ref
    cdef int i
    if not (type(rng) is tuple and len(rng) == 4
            and all([type(v) is int and 0 <= v < (1 << 64) for v in rng]) and any(rng)
            and type(cards) is bytes and type(kind) is bytes and type(n) is int
            and type(fresh) is bool and isinstance(seed, int) and not isinstance(seed, bool)):
        # (an all-zero generator state would never leave zero: the shuffle would not end)
        raise DeckError("not a valid pickled Deck state (types or generator state)")
    if (len(rng) != 4 or len(cards) != 52 or len(kind) != 52 or not 0 <= n <= 52
            or sorted(cards) != list(range(52))
            or any([kind[k] != _LIVE for k in range(n)])
            or any([not _DEALT <= kind[k] <= _REMOVED for k in range(n, 52)])):
        raise DeckError("not a valid pickled Deck state")
    if fresh:  # what Deck(seed) holds (its repr says so): every card, as seeded
        ref = Deck(seed)
        if (n != 52 or tuple([ref._rng.s[i] for i in range(4)]) != rng
                or bytes(ref._deck.cards[:52]) != cards):
            raise DeckError("not a valid pickled Deck state (marked fresh, but not as its seed "
                            "deals)")
    for i in range(4):
        d._rng.s[i] = <uint64_t>rng[i]
    for i in range(52):
        d._deck.cards[i] = cards[i]
        d._kind[i] = kind[i]
    d._deck.n = n
    d._seed = seed
    d._fresh = fresh
    return d


def hand_width(n_players, *, burns=True):
    """Columns of one :func:`deal_hands` row: ``2 * n_players + 5`` (``+ 3`` with burns)."""
    cdef bint b = _flag(burns, "burns")
    return 2 * _players(n_players, b) + 5 + (3 if b else 0)


cdef int _players(object n_players, bint burns) except -1:
    p = int_or_none(n_players)
    if p is None:
        raise InvalidConfigError(
            f"n_players must be an int, not {type(n_players).__name__}: {excerpt(n_players)}")
    top = 22 if burns else 23
    if not 1 <= p <= top:
        raise InvalidConfigError(
            f"n_players must be 1..{top} ({'with' if burns else 'without'} burns), got {shown(p)}")
    return p


def child_seed(seed, index):
    """The 64-bit seed of row ``index`` of a :func:`deal_hands` batch seeded with ``seed``.

    Row ``i`` is dealt exactly like ``Deck(seed=child_seed(seed, i))`` dealt in table order.
    This is holdem's one seed derivation (``hd_seed_child``, csrc/hd_rng.h): parallel chunks,
    table hands and agents' seeds all come from it.
    """
    if type(index) is not int or not 0 <= index <= _MAX64:
        i = int_or_none(index)  # a plain int, asked once
        if i is None or not 0 <= i <= _MAX64:
            raise InvalidConfigError(
                f"index must be an int in 0 .. 2**64-1, got {excerpt(index if i is None else i)}")
        index = i
    if type(seed) is int:
        return hd_seed_child(<uint64_t>(seed & _MAX64), <uint64_t>index)
    return hd_seed_child(<uint64_t>seed_bits(seed), <uint64_t>index)


cdef object _MAX64 = (1 << 64) - 1


def deal_hands(n_hands, n_players, *, seed, burns=True, start=0, out=None):
    """Deal ``n_hands`` hold'em hands for ``n_players`` into a uint8 buffer (batch, ``nogil``).

    Each row is one hand from a freshly shuffled deck, dealt in table order: a card to each
    player in turn, a second round, then (burn) flop, (burn) turn, (burn) river. Row layout
    (``w = hand_width(n_players, burns=burns)`` columns, card ids 0..51):

    - columns ``2*p`` and ``2*p + 1``: player ``p``'s hole cards (first and second card dealt);
    - columns ``2*P .. 2*P+4``: flop (3), turn, river;
    - with ``burns=True``, columns ``2*P+5 .. 2*P+7``: the burns before flop, turn and river.

    Row ``i`` depends only on ``(seed, start + i)`` (its deck is seeded with
    ``child_seed(seed, start + i)``), so a batch split into chunks with ``start`` gives the
    same rows on any number of workers.

    ``out``: a writable, C-contiguous uint8 buffer of shape ``(n_hands, w)`` or ``(n_hands*w,)``
    (a numpy array, ``bytearray``, ``array.array('B')``...), filled and returned; by default a
    new ``array.array('B')`` of ``n_hands * w`` bytes, row-major, is returned (more bytes than
    the machine's physical memory raise :class:`holdem.InvalidConfigError`, before anything
    is allocated).

    >>> rows = deal_hands(2, 6, seed=1)
    >>> len(rows) == 2 * hand_width(6), len(set(rows[:20])) == 20
    (True, True)
    """
    if seed is None:
        raise InvalidConfigError("deal_hands needs an explicit seed (an int)")
    cdef uint64_t s = seed_bits(seed)
    cdef bint b = _flag(burns, "burns")
    cdef int p = _players(n_players, b)
    cdef int w = hd_hand_width(p, b)
    nh = int_or_none(n_hands)
    if nh is None:
        raise InvalidConfigError(
            f"n_hands must be an int, not {type(n_hands).__name__}: {excerpt(n_hands)}")
    n_hands = nh
    # sizes are checked as Python ints before anything is multiplied in C or allocated
    if not 0 <= n_hands <= PY_SSIZE_T_MAX // w:
        raise InvalidConfigError(
            f"n_hands must be 0 .. {PY_SSIZE_T_MAX // w} (rows of {w} bytes addressable in "
            f"one buffer), got {shown(n_hands)}")
    cdef int64_t n = n_hands
    st = int_or_none(start)  # a plain int, asked once
    if st is not None:
        start = st
    # row indexes start .. start + n_hands - 1 are 64-bit, and start itself is read as one
    # (also when no row is dealt)
    if type(start) is not int or not (0 <= start < (1 << 64) and start + n_hands <= (1 << 64)):
        raise InvalidConfigError(
            f"start must be an int in 0 .. 2**64 - max(n_hands, 1), got {excerpt(start)}")
    cdef uint64_t first = start
    cdef uint8_t[:, ::1] out2
    cdef uint8_t[::1] out1
    cdef uint8_t *ptr = NULL
    if out is None:  # n * w bytes: refused beyond the machine's memory (was a bare MemoryError)
        what = f"deal_hands: {n:,} hands of {w} cards"
        advice = "deal fewer hands per call (start= deals the next ones), or pass out="
        _memory.check_fits(n * w, what, advice)
        try:
            out = array("B", b"\0") * (n * w)  # allocated once (bytes(...) then a copy: twice)
        except MemoryError:  # (another limit than the machine's: ulimit -v, a container)
            raise _memory.no_memory(n * w, what, advice) from None
    try:
        out2 = out
    except (ValueError, TypeError, BufferError) as e2:
        try:
            out1 = out
        except (ValueError, TypeError, BufferError) as e:
            # the reason of the shape the buffer has (a 2-D buffer's, not the 1-D attempt's)
            why = e2 if getattr(out, "ndim", 1) == 2 else e
            raise InvalidArrayError(
                f"out must be a writable C-contiguous uint8 buffer of shape ({n}, {w}) or "
                f"({n * w},): {why}") from None
        if out1.shape[0] != n * w:
            raise InvalidArrayError(
                f"out has {out1.shape[0]} bytes; {n} hands of {w} cards need {n * w}")
        if n:
            ptr = &out1[0]
    else:
        if out2.shape[0] != n or out2.shape[1] != w:
            raise InvalidArrayError(
                f"out has shape ({out2.shape[0]}, {out2.shape[1]}); expected ({n}, {w})")
        if n:
            ptr = &out2[0, 0]
    if n:
        with nogil:
            hd_deal_hands(s, first, n, p, b, ptr)
    return out


def _draw_below(seed, uint32_t bound, int count):
    """``count`` draws of the bounded generator in [0, bound) (for the uniformity tests)."""
    cdef hd_rng_t r
    if bound == 0 or count < 0:
        raise InvalidConfigError("bound must be >= 1 and count >= 0")
    hd_rng_seed(&r, <uint64_t>seed_bits(seed))
    return [hd_rng_below(&r, bound) for _ in range(count)]


def _rng_next(seed, int count):
    """The first ``count`` raw 64-bit outputs of xoshiro256** seeded with ``seed``."""
    cdef hd_rng_t r
    hd_rng_seed(&r, <uint64_t>seed_bits(seed))
    return [hd_rng_next(&r) for _ in range(count)]
