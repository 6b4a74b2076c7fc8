# cython: language_level=3
"""The compiled core of :class:`holdem.HandState`: one ``hd_hstate_t`` (csrc/hd_hand.h) per hand.

The betting rules, the forced bets and the settlement are the plain-C ones of csrc/hd_hand.c
(the batched engine, :mod:`holdem._vector`, steps the same struct); this class keeps beside the
struct only what is Python: the history list, the card tuples, the posts, the seed and the
:class:`holdem.HandResult`. The pure-Python reference core :mod:`holdem.hand._reference` is the
readable spec: the test suite runs both on the same traces and random hands and compares them
decision by decision.
"""

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memset

from holdem._deck cimport (
    hd_deck_init,
    hd_deck_pop,
    hd_deck_shuffle,
    hd_deck_t,
    hd_rng_seed,
    hd_rng_t,
)
from holdem._pots cimport HD_POTS_NO_CAP, HD_POTS_OK, hd_pot_result_t, hd_pot_t
from holdem._eval cimport eval_tables, hd_tables_share
from holdem.hand._hd_hand cimport (
    HD_CARD_NONE, HD_HAND_E_BOARD, HD_HAND_E_HOLE, HD_HAND_MAX_POSTS, HD_HAND_OK,
    HD_HAND_UNBOUNDED, HD_POST_ANTE, HD_POST_BIG_BLIND, HD_POST_BIG_BLIND_ANTE,
    HD_POST_DEAD_SMALL_BLIND, HD_POST_ENTRY_BIG_BLIND, HD_POST_SMALL_BLIND, HD_POST_STRADDLE,
    HD_REC_BET, HD_REC_CALL, HD_REC_CHECK, HD_REC_FOLD, HD_REC_RAISE, hd_hs_act_rec,
    hd_hs_consistent, hd_hs_legal, hd_hs_pot, hd_hs_raise_block, hd_hs_settle,
    hd_hs_show_order, hd_hs_showdown, hd_hs_start_ex, hd_hstate_t, hd_legal_t, hd_post_t,
    hd_record_t, hd_rules_check, hd_rules_t, hd_start_t,
)

from holdem.hand._fields import (
    POST_KINDS, check_replay, check_state, plan_fields, rebuild, register_core)
from holdem._ints import int_or_none
from holdem._seeding import resolve_seed
from holdem.hand._settle import settle
from holdem.hand._validate import (
    MAX_CHIPS,
    actions_of,
    check_start,
    explain_code,
    given_cards,
    more_board,
    not_started,
    plan_dead_hands,
    plan_posts,
    resolve,
    seat_index,
    to_action,
)
from holdem._shown import excerpt
from holdem._shown import shown as _shown
from holdem.cards import Card
from holdem.errors import (
    IllegalActionError,
    InvalidActionError,
    InvalidConfigError,
    InvalidHandError,
    InvalidSeatError,
    InvalidStateError,
    OutOfTurnError,
)
from holdem.hand.actions import ActionType
from holdem.hand.records import HandResult, LegalActions, Post
from holdem.pots import Pot

__all__ = ["HandCore"]

hd_tables_share(eval_tables())  # the evaluator's tables, linked once into holdem._eval

cdef enum:
    MAXP = 10  # seats per hand (R1): HD_HAND_MAX_SEATS

cdef object _MASK64 = (1 << 64) - 1
cdef object _MAX_CHIPS = MAX_CHIPS
cdef tuple _CARD_OBJS = tuple([Card(i) for i in range(52)])
cdef tuple _POST_KINDS = POST_KINDS  # hd_post_t.kind (HD_POST_*) -> Post.kind
# LegalActions(*fields) without the Python-level NamedTuple.__new__: the same tuple subclass
_new_tuple = tuple.__new__

# The C codes agree with the Python names they stand for (one declared mapping each): history
# types are ActionType values, post kinds index POST_KINDS.
if ((HD_REC_FOLD, HD_REC_CHECK, HD_REC_CALL, HD_REC_BET, HD_REC_RAISE)
        != (ActionType.FOLD, ActionType.CHECK, ActionType.CALL, ActionType.BET,
            ActionType.RAISE)):
    raise ImportError("holdem.hand._compiled: HD_REC_* differ from holdem.ActionType")
if (_POST_KINDS[HD_POST_ANTE], _POST_KINDS[HD_POST_SMALL_BLIND], _POST_KINDS[HD_POST_BIG_BLIND],
        _POST_KINDS[HD_POST_STRADDLE], _POST_KINDS[HD_POST_BIG_BLIND_ANTE],
        _POST_KINDS[HD_POST_ENTRY_BIG_BLIND], _POST_KINDS[HD_POST_DEAD_SMALL_BLIND]) != (
        "ante", "small_blind", "big_blind", "straddle", "big_blind_ante", "entry_big_blind",
        "dead_small_blind") or len(_POST_KINDS) != 7:
    raise ImportError("holdem.hand._compiled: HD_POST_* differ from holdem.hand._fields.POST_KINDS")


cdef inline void _put(tuple t, Py_ssize_t i, object v) noexcept:
    Py_INCREF(v)
    PyTuple_SET_ITEM(t, i, v)


cdef bint _plain_start(object stacks, object button, bint straddle):
    """The common, valid case checked in C: a list of 2-10 int stacks in 1..2**53, int button."""
    cdef Py_ssize_t n, i
    cdef object s
    if type(stacks) is not list or type(button) is not int:
        return False
    n = len(<list>stacks)
    if n < (3 if straddle else 2) or n > MAXP or not 0 <= button < n:
        return False
    for i in range(n):
        s = (<list>stacks)[i]
        if type(s) is not int or not 0 < s <= _MAX_CHIPS:
            return False
    return True


cdef HandCore _blank(cls, str doing):
    """``cls.__new__(cls)``, refused (InvalidStateError) unless it is a hand: a subclass
    whose ``__new__`` returns something else (None...) has no C state to fill."""
    cdef object o = cls.__new__(cls)
    if not isinstance(o, HandCore):
        raise InvalidStateError(f"cannot {doing}: {cls.__name__}.__new__ returned "
                                f"{type(o).__name__}, not a hand state")
    return <HandCore>o


def _rebuild(cls, state):
    cdef HandCore st
    if not (isinstance(cls, type) and issubclass(cls, HandCore)):
        raise InvalidStateError(f"not a valid pickled HandState: {cls!r} is not a hand class")
    st = _blank(cls, "unpickle")
    st._setstate(state)
    return st


cdef class GameRules:
    """The C rules of one :class:`holdem.Game` (``hd_rules_t``), filled once from ``game._plan``
    by field name and kept on the game (``game._core_rules``) for every hand it deals."""

    def __init__(self, plan):
        cdef hd_rules_t *g = &self.g
        cdef int k
        self.plan = plan
        g.structure = plan.structure
        g.straddle = plan.straddle
        g.bb_ante = plan.bb_ante
        g.deal_from_bb = plan.deal_from_bb
        g.lift_heads_up = plan.lift_heads_up
        g.fold_free = plan.fold_free
        # R27: a cap beyond 2**30 raises is never reached (each raise is one action)
        g.cap = plan.cap if plan.cap < HD_HAND_UNBOUNDED else HD_HAND_UNBOUNDED
        g.big_blind = plan.big_blind
        g.small_blind = plan.small_blind
        g.ante = plan.ante
        sizes = tuple(plan.sizes)  # (read unchecked below: a plan from a subclass may differ)
        if len(sizes) != 4:
            raise InvalidConfigError(f"the game's bet sizes must be 4 (one a street), got "
                                     f"{excerpt(sizes)}")
        for k in range(4):
            g.sizes[k] = sizes[k]
        rake = plan.rake
        g.has_rake = rake is not None
        g.rake.num, g.rake.den, g.rake.cap, g.rake.no_flop_no_drop = (
            rake if rake is not None else (0, 1, HD_POTS_NO_CAP, 1))
        if hd_rules_check(g) != HD_HAND_OK:
            raise InvalidConfigError(f"the game's values are out of the engine's range: {plan}")


cdef GameRules _blank_rules():
    """Valid rules (no-limit 1/2) for a state made without a hand (``HandState.__new__``),
    so that no code path reads a None's memory as rules (its methods refuse it anyway)."""
    cdef GameRules r = GameRules.__new__(GameRules)
    cdef int k
    r.g.cap = HD_HAND_UNBOUNDED
    r.g.big_blind = 2
    r.g.small_blind = 1
    for k in range(4):
        r.g.sizes[k] = 2
    r.g.rake.num, r.g.rake.den, r.g.rake.cap, r.g.rake.no_flop_no_drop = (
        0, 1, HD_POTS_NO_CAP, 1)
    if hd_rules_check(&r.g) != HD_HAND_OK:  # not reached
        raise InvalidConfigError("the blank rules are out of the engine's range")
    return r


cdef GameRules _BLANK_RULES = _blank_rules()


cdef GameRules _rules_of(game):
    """The :class:`GameRules` of ``game``, made on its first hand."""
    cdef object r = game._core_rules
    if type(r) is not GameRules:  # None before the first hand (or anything set from outside)
        r = GameRules(game._plan)
        object.__setattr__(game, "_core_rules", r)
    return <GameRules>r


cdef inline int _check_started(HandCore st) except -1:
    """InvalidStateError for a state never started (``HandState.__new__``, no hand in its
    struct): one pointer comparison, as every way a hand is made (``_start``, ``_setstate``,
    ``clone``) sets its game. The per-decision methods test it only once ``_h.over`` is set
    (``__cinit__`` sets it on a blank state), on the path that raises anyway."""
    if st._game is None:
        raise not_started(st)
    return 0


cdef int _card_id(object c) except -1:
    return HD_CARD_NONE if c is None else <int>c


cdef class HandCore:
    """Compiled hand state (see :class:`holdem.HandState` for the documented API)."""

    # the C state is declared in _compiled.pxd (the table loop cimports it)

    def __cinit__(self, *args, **kwargs):
        self._rules = _BLANK_RULES  # replaced when a hand starts or is restored
        # A state never started (HandState.__new__) has no hand: over, nobody to act, so
        # that the per-decision methods reach their "hand is over" branch, which then tells
        # a blank state (no game: InvalidStateError) from a finished hand. Every way a hand
        # is made (_start, _setstate, clone) writes the whole struct.
        self._h.over = 1
        self._h.actor = -1

    def __init__(self, *args, **kwargs):
        raise TypeError("start a hand with Game.new_hand(...)")

    # ------------------------------------------------------------------ setup
    @classmethod
    def _start(cls, game, stacks, button, seed, hole_cards, board, dead_small_blind=False,
               extra_posts=(), dead_hands=()):
        cdef HandCore st
        cdef GameRules rules = _rules_of(game)
        cdef int n, k, code, nposts = 0, bb_seat, dead_mask = 0
        cdef int64_t chips[MAXP]
        cdef uint8_t cards[2 * MAXP + 5]
        cdef hd_post_t posts[HD_HAND_MAX_POSTS]
        cdef hd_start_t opt
        cdef hd_start_t *popt = NULL
        cdef tuple out
        if not _plain_start(stacks, button, rules.g.straddle):
            stacks, button = check_start(game, stacks, button)  # plain ints, or raises
        n = len(stacks)
        bb_seat = (button + 1) % n if n == 2 else (button + 2) % n
        if dead_small_blind is not False or (type(extra_posts) is not tuple
                                             and type(extra_posts) is not list) or extra_posts:
            _, bb_seat, post_sb, extras = plan_posts(game, n, button, dead_small_blind,
                                                     extra_posts)
            memset(&opt, 0, sizeof(opt))
            popt = &opt
            opt.dead_small_blind = not post_sb
            if len(extras) > MAXP:  # not reached: one post per seat at most
                raise InvalidConfigError(f"{len(extras)} extra posts for {n} seats")
            opt.nextra = len(extras)
            for k in range(opt.nextra):
                opt.extra[k].seat, opt.extra[k].live, opt.extra[k].dead = extras[k]
        if not (type(dead_hands) is tuple and not dead_hands):
            for k in plan_dead_hands(n, dead_hands):  # TDA 30: seats 0..n-1, one left live
                dead_mask |= 1 << k
            if dead_mask:
                if popt == NULL:
                    memset(&opt, 0, sizeof(opt))
                    popt = &opt
                opt.dead_hands = dead_mask
        st = _blank(cls, "start a hand")
        st._game = game
        st._rules = rules
        st._deal(n, seed, hole_cards, board,
                 ((bb_seat if rules.g.deal_from_bb else button) + 1) % n, cards)
        if st._partial:
            if popt == NULL:
                memset(&opt, 0, sizeof(opt))
                popt = &opt
            opt.unknown_cards = 1
        for k in range(n):
            chips[k] = stacks[k]
        st._start_stacks = tuple(stacks)
        st._hist = []
        st._result = None
        st._legal = None
        code = hd_hs_start_ex(&rules.g, &st._h, n, button, chips, cards, popt, posts, &nposts)
        if code != HD_HAND_OK:  # not reached: the arguments were checked above
            raise InvalidConfigError(f"the engine refused the hand's start (code {code})")
        out = PyTuple_New(nposts)
        for k in range(nposts):
            _put(out, k, (posts[k].seat, _POST_KINDS[posts[k].kind], posts[k].amount))
        st._posts = out
        if st._h.error:  # an all-in run-out needs cards that were not given
            st._missing_cards()
        return st

    cdef _deal(self, int n, seed, hole_cards, board, int first, uint8_t *cards):
        """The cards (R11-R14): the tuples, and ``cards`` for the struct (hole cards by seat,
        then the five board cards; ``HD_CARD_NONE`` for a card not given)."""
        cdef int k, b, s
        cdef hd_deck_t deck
        cdef hd_rng_t rng
        cdef int ids[2 * MAXP + 8]
        cdef list hole
        if not 0 <= first < n or not 2 <= n <= MAXP:  # not reached: checked by _start
            raise InvalidConfigError(f"no seat {first} among {n} to deal from")
        if hole_cards is None and board is None:
            if type(seed) is not int:
                plain = None if seed is None else int_or_none(seed)  # numpy ints too
                if plain is None and seed is not None:
                    raise InvalidConfigError(f"seed must be an int or None, got {seed!r}")
                seed = resolve_seed(None) if seed is None else plain  # a plain int, kept
            self._seed = seed
            # R11: the same generator, shuffle and order as Deck(seed=seed).deal()
            hd_deck_init(&deck)
            hd_rng_seed(&rng, <uint64_t>(seed & _MASK64))
            hd_deck_shuffle(&deck, &rng)
            for k in range(2 * n + 8):
                ids[k] = hd_deck_pop(&deck)
            hole = [None] * n
            for k in range(n):
                s = (first + k) % n
                hole[s] = (_CARD_OBJS[ids[k]], _CARD_OBJS[ids[n + k]])
                cards[2 * s] = ids[k]
                cards[2 * s + 1] = ids[n + k]
            b = 2 * n
            self._hole = tuple(hole)
            self._burns = (_CARD_OBJS[ids[b]], _CARD_OBJS[ids[b + 4]], _CARD_OBJS[ids[b + 6]])
            self._board = (_CARD_OBJS[ids[b + 1]], _CARD_OBJS[ids[b + 2]],
                           _CARD_OBJS[ids[b + 3]], _CARD_OBJS[ids[b + 5]],
                           _CARD_OBJS[ids[b + 7]])
            for k in range(3):
                cards[b + k] = ids[b + 1 + k]
            cards[b + 3] = ids[b + 5]
            cards[b + 4] = ids[b + 7]
            self._partial = False
            return
        self._hole, self._board, self._partial = given_cards(n, seed, hole_cards, board)
        self._seed = None
        self._burns = ()
        _card_ids(self._hole, self._board, cards)

    # ------------------------------------------------------------------ plain queries
    @property
    def game(self):
        """The :class:`holdem.Game` this hand is played under."""
        _check_started(self)
        return self._game

    @property
    def num_players(self):
        _check_started(self)
        return self._h.n

    @property
    def button(self):
        _check_started(self)
        return self._h.button

    @property
    def small_blind_seat(self):
        """R2/R3: left of the button, or the button itself heads-up or when the small blind
        is dead (``dead_small_blind=True``: nobody posted it)."""
        _check_started(self)
        return self._h.sb_seat

    @property
    def big_blind_seat(self):
        _check_started(self)
        return self._h.bb_seat

    @property
    def actor(self):
        """The seat to act, or ``None`` when the hand is over."""
        if self._h.actor < 0:  # -1 in a blank state too
            _check_started(self)
            return None
        return self._h.actor

    @property
    def street_index(self):
        """0 preflop, 1 flop, 2 turn, 3 river, 4 showdown."""
        _check_started(self)
        return self._h.street

    @property
    def board(self):
        """The community cards dealt so far (R14)."""
        _check_started(self)
        return self._board[: self._h.nboard]

    @property
    def burned(self):
        """The burn cards used so far (R13); empty when the hand was started from given cards."""
        _check_started(self)
        return self._burns[: (0, 0, 0, 1, 2, 3)[self._h.nboard]]

    @property
    def hole_cards(self):
        """Each seat's two hole cards (``None`` for a hand given as unknown)."""
        _check_started(self)
        return self._hole

    @property
    def stacks(self):
        """Chips behind, per seat (not counting chips already bet, nor the pots' payouts)."""
        _check_started(self)
        return tuple([self._h.stacks[i] - self._h.payout[i] for i in range(self._h.n)])

    @property
    def starting_stacks(self):
        _check_started(self)
        return self._start_stacks

    @property
    def bets(self):
        """Each seat's bet on the current street (blinds count, antes do not)."""
        _check_started(self)
        return tuple([self._h.bets[i] for i in range(self._h.n)])

    @property
    def committed(self):
        """Chips each seat has put in this hand (a big-blind ante and the dead part of an
        extra post are dead money: in :attr:`pot`, not here; a dead hand's posts are here,
        as a folded seat's). An
        uncalled bet leaves it when its street closes (R21); in a hand won because everyone
        else folded, the winner's last bet stays here and in :attr:`pot`; its uncalled part
        is ``result.returned``."""
        _check_started(self)
        return tuple([self._h.committed[i] for i in range(self._h.n)])

    @property
    def pot(self):
        """All chips in the middle, current street bets included."""
        _check_started(self)
        return hd_hs_pot(&self._h)

    @property
    def posts(self):
        """The forced bets posted at the start (antes, blinds, straddle, extra posts), in
        posting order."""
        _check_started(self)
        return tuple([Post(*p) for p in self._posts])

    @property
    def current_bet(self):
        """The street total a seat must match to call (preflop at least the full big blind, R9)."""
        _check_started(self)
        return self._h.cur

    def is_terminal(self):
        if self._h.over:  # set in a blank state too
            _check_started(self)
            return True
        return False

    @property
    def seed(self):
        """The deck seed of this hand (drawn from os.urandom when none was given), or None when
        the cards were given: ``game.new_hand(stacks, button=b, seed=state.seed)`` replays it."""
        _check_started(self)
        return self._seed

    def add_board(self, cards):
        """Give more board cards to a hand started from given cards (live dealing, replays):
        the board grows up to five cards; cards already dealt never change."""
        cdef int k
        _check_started(self)
        self._board, self._partial = more_board(self._hole, self._board, self._seed, cards)
        for k in range(len(self._board)):
            self._h.board[k] = <int>self._board[k]

    def status_code(self, seat):
        """0 active, 1 folded, 2 all in (a seat outside 0..n-1: InvalidSeatError)."""
        cdef int i
        _check_started(self)
        if type(seat) is not int or not 0 <= seat < self._h.n:
            seat = seat_index(seat, self._h.n)
        i = seat
        if self._h.folded[i]:
            return 1
        return 2 if self._h.stacks[i] == self._h.payout[i] else 0

    def raw_history(self):
        """The history as ``(seat, street, type, to, amount, all_in)`` int tuples."""
        _check_started(self)
        return list(self._hist)

    def result_or_none(self):
        _check_started(self)
        if self._result is None and self._h.over:
            self._result = self._settle()
        return self._result

    # ------------------------------------------------------------------ copying, pickling
    cpdef HandCore clone(self):
        """An independent copy (the struct copied, immutable parts shared): cheap, no deepcopy."""
        cdef HandCore new = _blank(type(self), "clone")
        _check_started(self)
        new._copy_from(self)
        new._hist = list(self._hist)
        if self._result is not None:
            new._result = self._result._own()
        return new

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        # clone() is already a deep copy: what it shares is immutable. (copy.deepcopy went
        # through __reduce__ and checked and replayed the whole hand, as a pickle is.)
        return self.clone()

    cdef _copy_from(self, HandCore o):
        self._game = o._game
        self._rules = o._rules
        self._h = o._h
        self._partial = o._partial
        self._start_stacks = o._start_stacks
        self._hole = o._hole
        self._board = o._board
        self._burns = o._burns
        self._posts = o._posts
        self._hist = o._hist
        self._seed = o._seed
        self._result = o._result
        self._legal = o._legal

    def _getstate(self):
        """The state as the tuple of :data:`holdem.hand._fields.FIELDS` (in that order)."""
        cdef int n = self._h.n
        cdef hd_hstate_t *h = &self._h
        _check_started(self)
        plan = plan_fields(self._game)
        return (
            self._game, n, h.button, h.street, h.actor, h.raises, h.aggr, h.nboard, h.live,
            plan["kind"], h.sb_seat, h.bb_seat, h.cur, h.inc, h.full, plan["bb"], plan["cap"],
            h.dead, plan["sizes"], h.over != 0, self._partial, plan["lift"], plan["fold_free"],
            self.stacks, self.bets, self.committed,
            tuple([h.acted[i] for i in range(n)]),
            tuple([h.folded[i] != 0 for i in range(n)]),
            self._start_stacks, self._hole, self._board, self._burns, self._posts,
            tuple(self._hist), self.result_or_none(), self._seed,
        )

    def _setstate(self, state):
        """Restore a state from :meth:`_getstate`'s tuple, checked first by
        :func:`holdem.hand._fields.check_state`, then as a struct by the engine's own
        consistency check, then replayed by :func:`holdem.hand._fields.check_replay`
        (InvalidStateError; nothing is changed)."""
        cdef int i, n
        cdef hd_hstate_t h
        cdef uint8_t cards[2 * MAXP + 5]
        cdef GameRules rules
        s = check_state(state)
        n = s["n"]
        if n > MAXP:  # not reached: check_state bounds the seat count by the same limit
            raise InvalidStateError(f"not a valid pickled HandState: {n} seats")
        rules = _rules_of(s["game"])
        memset(&h, 0, sizeof(h))
        h.n = n
        h.button = s["button"]
        h.street = s["street"]
        h.actor = s["actor"]
        h.raises = s["raises"]
        h.aggr = s["aggr"]
        h.nboard = s["nboard"]
        h.live = s["live"]
        h.sb_seat = s["sb_seat"]
        h.bb_seat = s["bb_seat"]
        h.first_dealt = ((h.bb_seat if rules.g.deal_from_bb else h.button) + 1) % n
        h.cur = s["cur"]
        h.inc = s["inc"]
        h.full = s["full"]
        h.dead = s["dead"]
        h.over = s["over"]
        h.unknown = s["partial"]  # check_state: a hand not partial has every card
        h.showdown = h.over and h.live > 1
        for i in range(MAXP):
            h.acted[i] = -1
            h.ranks[i] = -1
        for i in range(n):
            h.stacks[i] = s["stacks"][i]
            h.bets[i] = s["bets"][i]
            h.committed[i] = s["committed"][i]
            h.acted[i] = s["acted"][i]
            h.folded[i] = s["folded"][i]
            h.start[i] = s["start_stacks"][i]
        _card_ids(s["hole"], s["board"], cards)
        for i in range(2 * n):
            h.hole[i] = cards[i]
        for i in range(5):
            h.board[i] = cards[2 * n + i]
        if hd_hs_consistent(&rules.g, &h) != HD_HAND_OK:
            raise InvalidStateError("not a valid pickled HandState: the betting state is not "
                                    "one the engine can reach (chips, seats or cards)")
        check_replay(s)
        self._game = s["game"]
        self._rules = rules
        self._h = h
        self._partial = s["partial"]
        self._start_stacks = s["start_stacks"]
        self._hole = s["hole"]
        self._board = s["board"]
        self._burns = s["burns"]
        self._posts = s["posts"]
        self._hist = list(s["hist"])
        self._result = s["result"]
        self._seed = s["seed"]
        self._legal = None

    def __reduce__(self):
        # holdem.hand._fields.rebuild: the class's core where it is loaded restores it
        return (rebuild, (type(self), self._getstate()))

    def __eq__(self, other):
        if not isinstance(other, HandCore):
            return NotImplemented
        if self._game is None or (<HandCore>other)._game is None:
            return self._game is None and (<HandCore>other)._game is None  # blank states
        return self._getstate() == (<HandCore>other)._getstate()

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    # ------------------------------------------------------------------ showdown
    cdef _missing_cards(self):
        """Raise for the unknown cards the engine stopped at (``h.error``)."""
        cdef int32_t order[MAXP]
        cdef int k, count
        cdef hd_hstate_t *h = &self._h
        if h.error == HD_HAND_E_BOARD:
            need = 5 if h.street == 3 else 3 if h.street == 0 else h.nboard + 1
            raise InvalidHandError(
                f"the board needs {need} cards but only {len(self._board)} were given")
        if h.error == HD_HAND_E_HOLE:
            count = hd_hs_show_order(h, order)
            for k in range(count):
                if self._hole[order[k]] is None:
                    raise InvalidHandError(f"seat {order[k]} reaches the showdown but its hole "
                                           f"cards are unknown")
        raise InvalidHandError(f"the hand could not be settled (code {h.error})")

    cdef object _settle(self):
        """The result of the finished hand, from the C settlement: the pots the engine paid
        (``hd_hs_settle``) and the R33 showing order (``hd_hs_showdown``)."""
        cdef hd_hstate_t *h = &self._h
        cdef int n = h.n, j, k, count = 0
        cdef int32_t order[MAXP]
        cdef uint8_t show[MAXP]
        cdef hd_pot_result_t res
        cdef hd_pot_t *p
        cdef int64_t before
        cdef int64_t back[MAXP]
        game = self._game
        # R21: the uncalled chips given back when a round closed (the pot resolver adds those
        # of the end of the hand)
        self._street_returns(back)
        if hd_hs_settle(&self._rules.g, h, &res) != HD_POTS_OK:
            return settle(  # not reached for a valid hand; raises with the reason
                game, h.button, [h.folded[j] != 0 for j in range(n)],
                list(self.committed), list(self.stacks), self._start_stacks, self._hole,
                self.board, h.aggr if h.street >= 3 else -1, h.showdown != 0, h.dead,
                [back[j] for j in range(n)])
        shown = {}
        rank_of = {}
        mucked = []
        if h.showdown:  # R29-R33 (see holdem.hand._settle.settle)
            count = hd_hs_showdown(h, game.muck_losing_hands, order, show)
            for k in range(count):
                j = order[k]
                if show[k]:
                    rank_of[j] = h.ranks[j]
                    shown[j] = self._hole[j]
                else:
                    mucked.append(j)
        pots = []
        for k in range(res.n_pots):  # as holdem.pots.split_pots builds them
            p = &res.pots[k]
            eligible = []
            winners = []
            shares = []
            for j in range(n):
                if (p.eligible >> j) & 1:
                    eligible.append(j)
                if (p.winners >> j) & 1:
                    winners.append(j)
                    shares.append(p.shares[j])
            pots.append(Pot(p.amount, tuple(eligible), tuple(winners), tuple(shares), p.rake))
        final = []
        for j in range(n):
            before = h.stacks[j] - h.payout[j]
            final.append(before + res.payouts[j])
        return _new_tuple(HandResult, (
            tuple([final[j] - self._start_stacks[j] for j in range(n)]), tuple(final),
            tuple(pots), tuple([res.returned[j] + back[j] for j in range(n)]), res.rake,
            tuple([order[k] for k in range(count)]), shown, tuple(mucked), rank_of))

    cdef void _street_returns(self, int64_t *back):
        """``back[j]``: the chips seat j got back as uncalled (R21) when a betting round
        closed: its live posts and the amounts of its actions minus what it still has in the
        pots (as :func:`holdem.hand._settle.street_returns`)."""
        cdef int n = self._h.n, j
        cdef tuple rec
        for j in range(n):
            back[j] = -self._h.committed[j]
        # (the seats were checked when the hand was made or unpickled; checked again here, as
        # they index a C array)
        for rec in self._posts:
            kind = rec[1]
            j = rec[0]
            if 0 <= j < n and kind != "big_blind_ante" and kind != "dead_small_blind":
                back[j] += <int64_t>rec[2]  # a live post (the others are dead money, R7, R36)
        for rec in self._hist:
            j = rec[0]
            if 0 <= j < n:
                back[j] += <int64_t>rec[4]
        for j in range(n):
            if back[j] < 0:
                back[j] = 0

    # ------------------------------------------------------------------ engine core
    cdef _act(self, int kind, int64_t to):
        """Apply an action without any check (kind 0 fold, 1 check/call, 2 bet/raise to)."""
        cdef hd_record_t rec
        if self._h.over:
            _check_started(self)
            raise IllegalActionError("the hand is over: no more actions")
        if not 0 <= self._h.actor < self._h.n:  # not reached: a hand stopped mid-way is restored
            raise IllegalActionError("no seat is to act in this hand")
        self._legal = None
        hd_hs_act_rec(&self._rules.g, &self._h, kind, to, &rec)
        self._hist.append((rec.seat, rec.street, rec.type, rec.to, rec.amount, rec.all_in != 0))
        if self._h.error:
            self._missing_cards()

    # ------------------------------------------------------------------ legal actions
    cpdef legal_actions(self):
        """What the seat to act may do (cached; see :class:`holdem.LegalActions`)."""
        cdef hd_legal_t la
        if self._legal is not None:
            return self._legal
        if self._h.over:
            _check_started(self)
            raise IllegalActionError("the hand is over: nobody is to act")
        hd_hs_legal(&self._rules.g, &self._h, &la)
        if la.can_raise:
            legal = _new_tuple(LegalActions, (
                la.seat, la.can_fold != 0, la.can_check != 0, la.call, True, la.is_bet != 0,
                la.min_to, la.max_to))
        else:
            legal = _new_tuple(LegalActions, (
                la.seat, la.can_fold != 0, la.can_check != 0, la.call, False, la.is_bet != 0,
                None, None))
        self._legal = legal
        return legal

    def _block_reason(self, int i):
        _check_started(self)
        if not 0 <= i < self._h.n:
            raise InvalidSeatError(f"seat {i} is out of range: this hand has seats "
                                   f"0..{self._h.n - 1}")
        code = hd_hs_raise_block(&self._rules.g, &self._h, i)
        if code == 27:
            return f"the betting is capped (R27: a bet and {self._rules.plan.cap - 1} raises)"
        return _REASONS[code]

    def actions(self):
        """The legal action kinds as actions (fold, check or call, min and max bet/raise)."""
        return actions_of(self.legal_actions())

    def is_legal(self, action):
        """Whether :meth:`apply` would take ``action`` now (False at the end of the hand); a
        malformed action raises :class:`InvalidActionError` as :meth:`apply` does."""
        try:
            self._resolve(action, None)
        except IllegalActionError:
            return False
        return True

    # ------------------------------------------------------------------ acting (checked)
    cdef _seat_check(self, seat):
        if self._h.over:
            _check_started(self)
            raise IllegalActionError("the hand is over: no more actions")
        if seat is not None and seat != self._h.actor:
            raise OutOfTurnError(
                f"seat {_shown(seat)} acted out of turn: seat {self._h.actor} is to act")
        return self.legal_actions()

    cdef tuple _resolve(self, action, seat):
        """Validate ``action`` for the seat to act; return ``(kind, to)`` for :meth:`_act`."""
        t, to, seat = to_action(action, seat)
        la = self._seat_check(seat)
        i = la.seat
        if not isinstance(action, (tuple, str)):  # an int code: say what it meant
            try:
                return resolve(t, to, la, self._h.bets[i], self._h.stacks[i], self._h.cur,
                               self._block_reason)
            except IllegalActionError as exc:
                raise explain_code(action, exc) from None
        return resolve(t, to, la, self._h.bets[i], self._h.stacks[i], self._h.cur,
                       self._block_reason)

    def apply(self, action, *, seat=None):
        """Validate and apply ``action``: an :class:`Action` (or an ``(ActionType, to)``
        pair: ``to`` is None for fold, check, call and all-in), PHH text (``"cbr 300"``,
        ``"p2 cc"``) or an int code (``0`` fold, ``1`` check/call, ``k`` bet/raise to
        ``k - 1``). Codes and amounts may be any integer type but bool (numpy's too).

        ``seat``, when given, must be the seat to act (else :class:`OutOfTurnError`). A
        malformed action raises :class:`InvalidActionError`, one the rules do not allow
        :class:`IllegalActionError`; either way the state is unchanged.
        """
        kind, to = self._resolve(action, seat)
        self._act_restoring(kind, to)

    cdef _act_restoring(self, int kind, int64_t to):
        """:meth:`_act`; when a card that was not given stops the hand mid-way (a partial
        hand), the state is restored before InvalidHandError propagates (no seat would be
        to act in the struct left behind)."""
        cdef hd_hstate_t saved
        cdef Py_ssize_t nhist
        if self._partial:  # cards may be missing: keep a copy to restore
            saved = self._h
            nhist = len(self._hist)
            try:
                self._act(kind, to)
            except InvalidHandError:
                self._h = saved
                del self._hist[nhist:]
                self._legal = None
                raise
        else:
            self._act(kind, to)

    def apply_unchecked(self, kind, to=0):
        """Fast path for trusted callers: ``kind`` 0 fold, 1 check/call, 2 bet/raise to ``to``.

        No validation of the rules: an illegal action leaves the state inconsistent (but never
        touches memory outside the state: acting on a finished hand is refused, a bet/raise
        is kept within the seat's chips, and a value that does not fit a C integer raises
        InvalidActionError, not OverflowError). A card that was not given, needed by the
        action, raises InvalidHandError and leaves the state as it was (as :meth:`apply`).
        """
        cdef int k
        cdef int64_t t
        if self._h.over:
            _check_started(self)
            raise IllegalActionError("the hand is over: no more actions")
        try:
            k = kind
            t = to
        except (OverflowError, ValueError):  # (ValueError: a float NaN)
            raise InvalidActionError(
                f"apply_unchecked: kind is 0..2 and to 0 .. 2**53 chips (the engine's limit), "
                f"got kind={_shown(kind)}, to={_shown(to)}") from None
        except TypeError:
            raise TypeError(f"apply_unchecked: kind and to must be ints, got "
                            f"{type(kind).__name__} and {type(to).__name__}") from None
        self._act_restoring(k, t)


cdef int _card_ids(tuple hole, tuple board, uint8_t *cards) except -1:
    """Hole cards by seat then five board cards as ids into ``cards`` (``HD_CARD_NONE`` for
    an unknown hand or a board card not given yet)."""
    cdef Py_ssize_t n = len(hole), k
    if n > MAXP or len(board) > 5:  # not reached: given_cards and check_state count them
        raise InvalidHandError(f"{n} hands and {len(board)} board cards do not fit a hand")
    for k in range(n):
        h = hole[k]
        if h is None:
            cards[2 * k] = cards[2 * k + 1] = HD_CARD_NONE
        else:
            cards[2 * k] = _card_id(h[0])
            cards[2 * k + 1] = _card_id(h[1])
    for k in range(5):
        cards[2 * n + k] = _card_id(board[k]) if k < len(board) else HD_CARD_NONE
    return 0


_REASONS = {
    0: None,
    18: "the seat cannot cover more than the call (R18: call all in or fold)",
    17: "no other player in the hand could call more (R17: call or fold only)",
    27: "the betting is capped (R27)",
    28: "an all-in of less than half a bet did not reopen the betting (R28: call or fold only)",
    24: "an all-in of less than a full raise did not reopen the betting (R24: call or fold only)",
}


register_core(HandCore, _rebuild)  # pickles name holdem.hand._fields.rebuild
