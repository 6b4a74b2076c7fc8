"""The deck: reproducible from a seed, uniform, never loses or duplicates a card.

The C generator and shuffle are checked against a plain-Python reference written here from
the published algorithms (splitmix64 / xoshiro256** by Blackman & Vigna, Lemire's bounded
draw, Fisher-Yates); uniformity is checked with chi-square tests whose thresholds come from
the chi-square distribution (Wilson-Hilferty quantiles) at a stated false-alarm rate. All
runs are seeded, so the suite is deterministic.
"""

from __future__ import annotations

import array
import copy
import math
import pickle
import random
from collections.abc import Callable, Sequence
from statistics import NormalDist

import pytest
from hypothesis import given
from hypothesis import strategies as st

import holdem
from holdem import CARDS, Card, Deck, DeckError, DuplicateCardError, deal_hands, hand_width
from holdem._deck import _draw_below, _rng_next, child_seed
from holdem.errors import InvalidArrayError, InvalidCardError, InvalidConfigError

M64 = (1 << 64) - 1


# --- a plain-Python reference of csrc/hd_rng.h and csrc/hd_deck.h -------------------------


class RefRng:
    """splitmix64-seeded xoshiro256** with Lemire's unbiased bounded draw."""

    def __init__(self, seed: int) -> None:
        self.x = seed & M64
        self.s = [self._splitmix() for _ in range(4)]

    def _splitmix(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) & M64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def next(self) -> int:
        s = self.s

        def rotl(v: int, k: int) -> int:
            return ((v << k) | (v >> (64 - k))) & M64

        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        m = (self.next() >> 32) * n
        if (m & 0xFFFFFFFF) < n:
            threshold = (2**32 - n) % n
            while (m & 0xFFFFFFFF) < threshold:
                m = (self.next() >> 32) * n
        return m >> 32


def ref_deck_order(seed: int) -> list[int]:
    """The 52 ids in the order a new ``Deck(seed)`` deals them."""
    rng = RefRng(seed)
    cards = list(range(52))
    for i in range(52, 1, -1):  # Fisher-Yates from the top (cards[-1] is dealt first)
        j = rng.below(i)
        cards[i - 1], cards[j] = cards[j], cards[i - 1]
    return cards[::-1]


def table_order(deck: Deck, players: int, burns: bool) -> list[int]:
    """Deal a hand the way ``deal_hands`` lays out a row."""
    holes = [[0, 0] for _ in range(players)]
    for k in range(2):
        for p in range(players):
            holes[p][k] = deck.deal_one()
    board: list[int] = []
    burned: list[int] = []
    for street in (3, 1, 1):
        if burns:
            burned.append(deck.burn())
        board += deck.deal(street)
    return [c for h in holes for c in h] + board + burned


# --- chi-square thresholds ------------------------------------------------------------------


def chi2_quantile(df: int, p: float) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile (good to ~0.1% for df >= 2)."""
    z = NormalDist().inv_cdf(p)
    a = 2.0 / (9.0 * df)
    return df * (1.0 - a + z * math.sqrt(a)) ** 3


def pearson(counts: Sequence[int], expected: float) -> float:
    return sum((c - expected) ** 2 for c in counts) / expected


FALSE_ALARM = 1e-4  # chance that a correct generator fails one of these tests for its seed


def position_table(decks: Sequence[Sequence[int]]) -> list[list[int]]:
    table = [[0] * 52 for _ in range(52)]
    for order in decks:
        for pos, card in enumerate(order):
            table[pos][card] += 1
    return table


def positions_look_uniform(decks: Sequence[Sequence[int]]) -> bool:
    """Chi-square tests of "each card is equally likely at each position".

    Each position (row) is a multinomial over 52 cards: Pearson ~ chi2(51); the 52 rows are
    tested with a Bonferroni-split false-alarm rate. The whole table of a uniform random
    permutation has covariance P(x)P/(n-1) (P the centering projection), so Pearson's sum
    over all 52x52 cells times (n-1)/n ~ chi2((n-1)^2).
    """
    n, big_n = 52, len(decks)
    table = position_table(decks)
    e = big_n / n
    per_row = chi2_quantile(n - 1, 1 - FALSE_ALARM / 2 / n)
    if any(pearson(row, e) > per_row for row in table):
        return False
    total = sum(pearson(row, e) for row in table) * (n - 1) / n
    return total <= chi2_quantile((n - 1) ** 2, 1 - FALSE_ALARM / 2)


# --- reproducibility --------------------------------------------------------------------------


def test_rng_reference_is_the_published_algorithm() -> None:
    # splitmix64's published test vector for seed 1234567 checks the reference itself.
    r = RefRng(1234567)
    assert r.s[:4] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
    ]


@pytest.mark.parametrize("seed", [0, 1, 42, 2**63, M64, -5])
def test_c_generator_matches_reference(seed: int) -> None:
    ref = RefRng(seed)
    assert _rng_next(seed, 50) == [ref.next() for _ in range(50)]
    # 2**31 + 1: the rejection threshold (2**32 mod 2**31 + 1 = 2**31 - 1) is large, so many
    # draws are rejected and redrawn
    for bound in (1, 2, 3, 52, 1000, 2**31 + 1, 3 * 2**30, 2**32 - 1):
        ref = RefRng(seed)
        assert _draw_below(seed, bound, 200) == [ref.below(bound) for _ in range(200)]


def ref_child_seed(seed: int, index: int) -> int:
    r = RefRng(0)
    r.x = seed ^ 0x6A09E667F3BCC909
    a = r._splitmix()
    r.x = a ^ ((index * 0xD1B54A32D192ED03 + 0x243F6A8885A308D3) & M64)
    r._splitmix()
    return r._splitmix()


@pytest.mark.parametrize(("seed", "index"), [(0, 0), (42, 0), (42, 1), (-1, 2**64 - 1)])
def test_child_seed_matches_reference(seed: int, index: int) -> None:
    assert child_seed(seed, index) == ref_child_seed(seed & M64, index)


def test_child_seed_matches_reference_on_random_seeds_and_indexes() -> None:
    # the one seed derivation (table hands: child_seed(bits, hand number); parallel chunks)
    rng = random.Random(4)
    for _ in range(2000):
        bits, number = rng.getrandbits(64), rng.choice([0, 1, rng.getrandbits(20),
                                                        rng.getrandbits(64)])
        assert child_seed(bits, number) == ref_child_seed(bits, number)


@pytest.mark.parametrize("seed", [0, 7, 123456789, -1, 2**70 + 3])
def test_deck_order_matches_reference(seed: int) -> None:
    assert [int(c) for c in Deck(seed=seed).deal(52)] == ref_deck_order(seed)


def test_pinned_first_deal() -> None:
    # Pinned: any change of platform, compiler or refactor that changes dealing fails here.
    assert Deck(seed=42).deal(7) == holdem.parse_cards("3c 6s Th Kd Ks Jc Td")
    assert Deck(seed=0).deal(3) == holdem.parse_cards("9s Jh 3d")
    assert child_seed(42, 0) == 10838199342797907026
    row = list(deal_hands(1, 6, seed=42))
    assert row == [19, 43, 41, 50, 39, 33, 38, 4, 46, 23, 3, 49, 12, 17, 7, 44, 31, 20, 45, 21]


def test_same_seed_same_cards_different_seed_different_cards() -> None:
    a, b = Deck(seed=99), Deck(seed=99)
    assert [a.deal(5), a.burn(), a.deal(3)] == [b.deal(5), b.burn(), b.deal(3)]
    a.reset()
    b.reset()
    assert a.deal(52) == b.deal(52)
    assert Deck(seed=99).deal(52) != Deck(seed=100).deal(52)


def test_seed_mapping_to_64_bits() -> None:
    # Documented in holdem._seeding: ints are reduced modulo 2**64.
    assert Deck(seed=-1).deal(52) == Deck(seed=M64).deal(52)
    assert Deck(seed=2**64).deal(52) == Deck(seed=0).deal(52)
    assert Deck(seed=2**200 + 9).deal(52) == Deck(seed=9).deal(52)
    assert Deck(seed=-1).seed == -1  # the seed is kept as given


def test_seed_accepts_index_types() -> None:
    np = pytest.importorskip("numpy")
    assert Deck(seed=np.int64(5)).deal(52) == Deck(seed=5).deal(52)
    assert Deck(seed=np.uint64(2**64 - 1)).deal(52) == Deck(seed=-1).deal(52)


def test_no_seed_draws_one_that_replays() -> None:
    d = Deck()
    assert isinstance(d.seed, int) and 0 <= d.seed < 2**64
    first = d.deal(10)
    assert Deck(seed=d.seed).deal(10) == first
    assert Deck().seed != Deck().seed  # 64 random bits: a collision is ~1e-19


@pytest.mark.parametrize("bad", [1.5, "7", b"7", True, [1], object()])
def test_bad_seed_type(bad: object) -> None:
    with pytest.raises(InvalidConfigError, match="seed must be an int"):
        Deck(seed=bad)  # type: ignore[arg-type]


# --- uniformity -------------------------------------------------------------------------------


def test_shuffle_positions_uniform_python_path() -> None:
    d = Deck(seed=2024)
    decks = []
    for _ in range(52 * 100):
        decks.append([int(c) for c in d.deal(52)])
        d.reset()
    assert positions_look_uniform(decks)


def test_shuffle_positions_uniform_after_partial_deal() -> None:
    # shuffle() of what is left, after 10 cards were dealt: the 42 left are uniform over
    # positions 0..41 (checked on the cards' ranks within the remaining set).
    d = Deck(seed=77)
    counts = [[0] * 42 for _ in range(42)]
    for _ in range(42 * 100):
        d.reset()
        d.deal(10)
        left = sorted(d.cards_left)
        d.shuffle()
        for pos, c in enumerate(d.deal(42)):
            counts[pos][left.index(c)] += 1
    e = 100.0
    q = chi2_quantile(41, 1 - FALSE_ALARM / 42)
    assert all(pearson(row, e) <= q for row in counts)


def test_shuffle_positions_uniform_batch_path() -> None:
    # 22 players with burns use all 52 cards: each row is a whole permutation.
    assert hand_width(22) == 52
    n = 52 * 100
    rows = deal_hands(n, 22, seed=31337)
    decks = [rows[i * 52 : (i + 1) * 52] for i in range(n)]
    assert positions_look_uniform(decks)


def naive_shuffle_orders(n_decks: int, seed: int) -> list[list[int]]:
    """The classic biased shuffle (swap each position with any position)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n_decks):
        cards = list(range(52))
        for i in range(52):
            j = rng.randrange(52)
            cards[i], cards[j] = cards[j], cards[i]
        out.append(cards)
    return out


def test_uniformity_test_catches_a_biased_shuffle() -> None:
    # The test above must be able to fail: the textbook biased shuffle is rejected, and a
    # correct Fisher-Yates on the same generator and sample size passes.
    assert not positions_look_uniform(naive_shuffle_orders(52 * 100, 1))
    rng = random.Random(1)
    good = []
    for _ in range(52 * 100):
        cards = list(range(52))
        rng.shuffle(cards)
        good.append(cards)
    assert positions_look_uniform(good)


@pytest.mark.parametrize("bound", [52, 7, 3 * 2**30])
def test_bounded_draw_uniform(bound: int) -> None:
    # For 3 * 2**30 a draw without rejection gives every third value twice the weight:
    # the residues mod 3 would come out 1/2, 1/4, 1/4. Bin by residue and by range.
    n = 60000
    draws = _draw_below(12345, bound, n)
    assert all(0 <= v < bound for v in draws)
    bins = min(bound, 52)
    by_range = [0] * bins
    for v in draws:
        by_range[v * bins // bound] += 1
    tests = [(by_range, bins)]
    if bound % 3 == 0:
        by_res = [0] * 3
        for v in draws:
            by_res[v % 3] += 1
        tests.append((by_res, 3))
    for counts, k in tests:
        assert pearson(counts, n / k) <= chi2_quantile(k - 1, 1 - FALSE_ALARM / 2)


def test_bounded_draw_test_catches_modulo_bias() -> None:
    # The same residue test rejects the biased multiply-shift draw (no rejection step).
    rng = RefRng(12345)
    bound = 3 * 2**30
    draws = [((rng.next() >> 32) * bound) >> 32 for _ in range(60000)]
    by_res = [0] * 3
    for v in draws:
        by_res[v % 3] += 1
    assert pearson(by_res, 20000) > chi2_quantile(2, 1 - FALSE_ALARM / 2)


# --- accounting, no duplicates ------------------------------------------------------------------


def accounted(d: Deck) -> None:
    everything = [*d.cards_left, *d.dealt, *d.burned, *d.removed]
    assert sorted(everything) == list(CARDS)
    assert len(d) == len(d.cards_left)
    assert all(c in d for c in d.cards_left)
    assert not any(c in d for c in (*d.dealt, *d.burned, *d.removed))


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("deal"), st.integers(0, 12)),
        st.tuples(st.just("deal_one"), st.just(0)),
        st.tuples(st.just("burn"), st.just(0)),
        st.tuples(st.just("remove"), st.lists(st.integers(0, 51), max_size=4, unique=True)),
        st.tuples(st.just("shuffle"), st.just(0)),
        st.tuples(st.just("reset"), st.just(0)),
        st.tuples(st.just("copy"), st.just(0)),
    ),
    max_size=40,
)


@given(seed=st.integers(-(2**70), 2**70), ops=OPS)
def test_random_operations_never_lose_or_duplicate(
    seed: int, ops: list[tuple[str, object]]
) -> None:
    d = Deck(seed=seed)
    left = set(CARDS)
    dealt: list[Card] = []
    burned: list[Card] = []
    removed: list[Card] = []
    for op, arg in ops:
        if op == "deal":
            assert isinstance(arg, int)
            if arg > len(left):
                with pytest.raises(DeckError):
                    d.deal(arg)
            else:
                got = d.deal(arg)
                assert len(got) == arg and set(got) <= left
                left -= set(got)
                dealt += got
        elif op in ("deal_one", "burn"):
            if not left:
                with pytest.raises(DeckError, match="empty"):
                    getattr(d, op)()
            else:
                c = getattr(d, op)()
                assert c in left
                left.remove(c)
                (dealt if op == "deal_one" else burned).append(c)
        elif op == "remove":
            assert isinstance(arg, list)
            cards = [CARDS[i] for i in arg]
            if not set(cards) <= left:
                with pytest.raises(DeckError, match="not in the deck"):
                    d.remove(cards)
            else:
                d.remove(cards)
                left -= set(cards)
                removed += cards
        elif op == "shuffle":
            d.shuffle()
        elif op == "reset":
            d.reset()
            left, dealt, burned, removed = set(CARDS), [], [], []
        else:
            d = copy.copy(d)
        assert set(d.cards_left) == left
        assert list(d.dealt) == dealt
        assert list(d.burned) == burned
        assert list(d.removed) == removed
        accounted(d)


@given(seed=st.integers(0, 2**64 - 1), players=st.integers(1, 22), burns=st.booleans())
def test_batch_rows_have_distinct_cards(seed: int, players: int, burns: bool) -> None:
    if not burns and players == 22:
        players = 23
    w = hand_width(players, burns=burns)
    rows = deal_hands(5, players, seed=seed, burns=burns)
    for i in range(5):
        row = rows[i * w : (i + 1) * w]
        assert len(set(row)) == w and max(row) < 52


def test_batch_output_is_allocated_once() -> None:
    """The default output is the only allocation of its size: peak traced memory stays near
    the buffer's own (it was twice: a bytes object, then the array copied from it)."""
    import tracemalloc

    n = 200_000
    tracemalloc.start()
    try:
        rows = deal_hands(n, 6, seed=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(rows, array.array) and len(rows) == n * hand_width(6)
    assert peak < 1.25 * len(rows), (peak, len(rows))


# --- deal, burn, remove, reset --------------------------------------------------------------------


def test_deal_burn_remove_accounting() -> None:
    d = Deck(seed=3)
    hole = d.deal(4)
    burn = d.burn()
    flop = d.deal(3)
    d.remove("Ah Kd") if ("Ah" in d and "Kd" in d) else d.remove(d.cards_left[:2])
    assert d.dealt == (*hole, *flop)
    assert d.burned == (burn,)
    assert len(d.removed) == 2
    assert len(d) == 52 - 4 - 1 - 3 - 2
    accounted(d)
    assert all(isinstance(c, Card) for c in d.deal(3))


def test_deal_zero_and_whole_deck() -> None:
    d = Deck(seed=1)
    assert d.deal(0) == ()
    everything = d.deal(52)
    assert sorted(everything) == list(CARDS)
    assert len(d) == 0 and d.deal(0) == ()


def test_remove_keeps_the_order_of_the_other_cards() -> None:
    a = Deck(seed=11)
    b = a.copy()
    order = a.deal(52)
    dead = [order[3], order[10], order[40]]
    b.remove(dead)
    assert b.deal(49) == tuple(c for c in order if c not in dead)


def test_remove_accepts_text_ints_and_cards() -> None:
    d = Deck(seed=1)
    d.remove("As Kd")
    d.remove([0, Card("3c")])
    assert set(d.removed) == {Card("As"), Card("Kd"), Card("2c"), Card("3c")}
    assert len(d) == 48


def test_reset_brings_all_cards_back_and_continues_the_stream() -> None:
    d = Deck(seed=5)
    first = d.deal(52)
    d.reset()
    assert len(d) == 52 and d.dealt == () and d.burned == () and d.removed == ()
    second = d.deal(52)
    assert sorted(second) == list(CARDS)
    assert second != first  # the stream continues: a new order, not a replay
    replay = Deck(seed=5)
    replay.deal(52)
    replay.reset()
    assert replay.deal(52) == second  # but a replay of the same calls gives the same cards


def test_copy_and_pickle_deal_the_same_future() -> None:
    d = Deck(seed=8)
    d.deal(5)
    d.burn()
    d.remove("2c") if "2c" in d else None
    for clone in (d.copy(), copy.copy(d), copy.deepcopy(d), pickle.loads(pickle.dumps(d))):
        assert clone is not d
        assert (clone.dealt, clone.burned, clone.removed, clone.seed) == (
            d.dealt,
            d.burned,
            d.removed,
            d.seed,
        )
        assert clone.copy().deal(len(d)) == d.copy().deal(len(d))
        clone.shuffle()
        clone.reset()  # clones are independent
        assert len(d) < 52


def test_corrupt_pickle_state_is_refused() -> None:
    reduced: tuple[Callable[..., object], tuple[object, ...]] = Deck(seed=1).__reduce__()  # type: ignore[assignment]
    fn, args = reduced
    seed, rng, cards, n, kind, fresh = args
    with pytest.raises(DeckError):
        fn(seed, rng, bytes([0] * 52), n, kind, fresh)
    with pytest.raises(DeckError):
        fn(seed, rng, cards, 53, kind, fresh)
    # marked fresh (its repr then says Deck(seed=...)) but not what that seed deals: 10 cards
    # dealt, or another seed, or another generator state
    dealt = Deck(seed=1)
    dealt.deal(10)
    _, after = dealt.__reduce__()  # type: ignore[misc]
    for forged in ((*after[:5], True), (2, *args[1:]), (seed, (*rng[:3], rng[3] ^ 1), *args[2:])):
        with pytest.raises(DeckError, match="marked fresh, but not as its seed deals"):
            fn(*forged)
    assert repr(fn(*args)) == "Deck(seed=1)" and repr(fn(*after)).startswith("<Deck seed=1: 42")


def test_contains_and_cards_left() -> None:
    d = Deck(seed=4)
    c = d.deal_one()
    assert c not in d and str(c) not in d and int(c) not in d
    assert all(x in d for x in CARDS if x != c)
    assert d.cards_left == tuple(x for x in CARDS if x != c)  # id order: no peeking
    with pytest.raises(InvalidCardError):
        _ = "Zz" in d


def test_repr_and_str() -> None:
    d = Deck(seed=12)
    assert repr(d) == "Deck(seed=12)"
    assert eval(repr(d), {"Deck": Deck}).deal(52) == Deck(seed=12).deal(52)
    d.deal(2)
    d.burn()
    d.remove(d.cards_left[:1])
    assert repr(d) == "<Deck seed=12: 48 left, 2 dealt, 1 burned, 1 removed>"
    assert str(d) == "a deck with 48 cards left"  # for people; repr() is the code form


# --- errors -----------------------------------------------------------------------------------------


def test_dealing_more_than_remain_changes_nothing() -> None:
    d = Deck(seed=6)
    d.deal(50)
    before = (d.cards_left, d.dealt)
    with pytest.raises(DeckError, match="cannot deal 3 cards: only 2 left"):
        d.deal(3)
    assert (d.cards_left, d.dealt) == before
    d.deal(2)
    with pytest.raises(DeckError, match="empty"):
        d.deal_one()
    with pytest.raises(DeckError, match="empty"):
        d.burn()


@pytest.mark.parametrize("n", [-1, 1.0, "2", None, True])
def test_deal_bad_count(n: object) -> None:
    d = Deck(seed=1)
    with pytest.raises(holdem.HoldemError):
        d.deal(n)  # type: ignore[arg-type]
    assert len(d) == 52


def test_remove_errors_name_the_card_and_change_nothing() -> None:
    d = Deck(seed=2)
    c = d.deal_one()
    other = next(x for x in CARDS if x != c)
    with pytest.raises(DeckError, match=f"cannot remove {c}: it is not in the deck .already dealt"):
        d.remove([other, c])
    assert other in d and len(d) == 51  # atomic: `other` was not removed either
    with pytest.raises(DuplicateCardError):
        d.remove([other, other])
    with pytest.raises(InvalidCardError):
        d.remove("Xx")
    with pytest.raises(InvalidCardError):
        d.remove([52])
    b = d.burn()
    with pytest.raises(DeckError, match="already burned"):
        d.remove([b])
    d.remove([other])
    with pytest.raises(DeckError, match="already removed"):
        d.remove([other])
    assert len(d) == 49
    accounted(d)


# --- batch dealing ------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "burns"), [(2, True), (6, True), (9, False), (22, True)])
def test_batch_row_is_a_deck_dealt_in_table_order(players: int, burns: bool) -> None:
    w = hand_width(players, burns=burns)
    assert w == 2 * players + 5 + (3 if burns else 0)
    rows = deal_hands(4, players, seed=2718, burns=burns)
    for i in range(4):
        d = Deck(seed=child_seed(2718, i))
        assert list(rows[i * w : (i + 1) * w]) == table_order(d, players, burns)


def test_batch_chunks_give_the_same_rows() -> None:
    whole = deal_hands(100, 6, seed=9)
    w = hand_width(6)
    parts = [deal_hands(30, 6, seed=9, start=s) for s in (0, 30, 60)] + [
        deal_hands(10, 6, seed=9, start=90)
    ]
    assert b"".join(p.tobytes() for p in parts) == whole.tobytes()
    assert len(whole) == 100 * w


def test_batch_out_buffers() -> None:
    ref = deal_hands(10, 6, seed=4)
    assert isinstance(ref, array.array) and ref.typecode == "B"
    buf = bytearray(200)
    assert deal_hands(10, 6, seed=4, out=buf) is buf and bytes(buf) == ref.tobytes()
    np = pytest.importorskip("numpy")
    a = np.zeros((10, 20), dtype=np.uint8)
    assert deal_hands(10, 6, seed=4, out=a) is a
    assert a.tobytes() == ref.tobytes()
    assert deal_hands(0, 6, seed=4).tobytes() == b""


def test_batch_bad_2d_buffer_gives_its_own_reason() -> None:
    # the reason quoted was the 1-D attempt's ("wrong number of dimensions"), not the dtype
    np = pytest.importorskip("numpy")
    with pytest.raises(InvalidArrayError, match=r"shape \(1, 12\) or \(12,\): Buffer dtype "
                                                r"mismatch, expected 'uint8_t'"):
        deal_hands(1, 2, seed=1, out=np.zeros((1, 12), np.int64))
    with pytest.raises(InvalidArrayError, match=r"\(12,\): Buffer dtype mismatch"):
        deal_hands(1, 2, seed=1, out=np.zeros(12, np.int64))


def test_batch_bad_buffers_raise() -> None:
    np = pytest.importorskip("numpy")
    bad: list[object] = [
        np.zeros((10, 19), np.uint8),  # wrong width
        np.zeros((9, 20), np.uint8),  # wrong rows
        np.zeros(199, np.uint8),  # wrong length
        np.zeros((10, 20), np.int64),  # wrong dtype
        np.zeros((10, 20), np.int8),  # signed
        np.zeros((20, 20), np.uint8)[::2],  # not contiguous
        np.zeros((20, 10), np.uint8).T,  # Fortran order
        bytes(200),  # read-only
        np.zeros((10, 20), np.uint8).copy(),
        "x" * 200,
    ]
    ro = bad[-2]
    assert isinstance(ro, np.ndarray)
    ro.flags.writeable = False
    for out in bad[:-1]:
        with pytest.raises(InvalidArrayError):
            deal_hands(10, 6, seed=1, out=out)
    with pytest.raises(InvalidArrayError):
        deal_hands(10, 6, seed=1, out=bad[-1])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n_hands": -1, "n_players": 6, "seed": 1},
        {"n_hands": 1.5, "n_players": 6, "seed": 1},
        {"n_hands": 1, "n_players": 0, "seed": 1},
        {"n_hands": 1, "n_players": 23, "seed": 1},
        {"n_hands": 1, "n_players": 24, "seed": 1, "burns": False},
        {"n_hands": 1, "n_players": "6", "seed": 1},
        {"n_hands": 1, "n_players": 6, "seed": None},
        {"n_hands": 1, "n_players": 6, "seed": 1.0},
        {"n_hands": 1, "n_players": 6, "seed": 1, "start": -1},
        {"n_hands": 2, "n_players": 6, "seed": 1, "start": 2**64 - 1},
    ],
)
def test_batch_bad_arguments(kwargs: dict[str, object]) -> None:
    f: Callable[..., object] = deal_hands
    with pytest.raises(InvalidConfigError):
        f(**kwargs)


def test_child_seed() -> None:
    assert child_seed(1, 0) != child_seed(1, 1) != child_seed(2, 1)
    assert child_seed(-1, 5) == child_seed(M64, 5)
    assert 0 <= child_seed(3, 2**64 - 1) < 2**64
    with pytest.raises(InvalidConfigError):
        child_seed(1, -1)
    with pytest.raises(InvalidConfigError):
        child_seed(1, 2**64)


def test_init_again_starts_afresh() -> None:
    d = Deck(seed=3)
    d.deal(5)
    d.burn()
    d.__init__(seed=3)  # type: ignore[misc]
    assert len(d) == 52 and d.dealt == () and d.burned == ()
    assert d.deal(52) == Deck(seed=3).deal(52)


@pytest.mark.parametrize("burns", ["no", "False", None, 0, 1, [1, 2]])
def test_burns_is_true_or_false(burns: object) -> None:
    """burns was read by truthiness: burns="no" dealt (and counted) the burns, and a numpy
    array raised numpy's ValueError instead of a holdem error."""
    with pytest.raises(InvalidConfigError, match="burns must be True or False"):
        hand_width(6, burns=burns)  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match="burns must be True or False"):
        deal_hands(1, 6, seed=1, burns=burns)  # type: ignore[arg-type]


def test_burns_given_as_a_numpy_array_is_refused() -> None:
    np = pytest.importorskip("numpy")
    for burns in (np.array([1, 2]), np.bool_(True)):
        with pytest.raises(InvalidConfigError, match="burns must be True or False"):
            hand_width(6, burns=burns)
        with pytest.raises(InvalidConfigError, match="burns must be True or False"):
            deal_hands(1, 6, seed=1, burns=burns)


def test_an_index_that_refuses_is_not_an_int() -> None:
    """Seeds, counts and indexes that have ``__index__`` but refuse it (a numpy array that is
    not an integer scalar) let numpy's TypeError through, naming no argument."""
    np = pytest.importorskip("numpy")
    for value in (np.array(2.0), np.arange(2)):
        with pytest.raises(InvalidConfigError, match="seed"):
            Deck(seed=value)
        with pytest.raises(InvalidConfigError, match="number of cards to deal"):
            Deck(seed=1).deal(value)
        with pytest.raises(InvalidConfigError, match="index"):
            child_seed(1, value)
        with pytest.raises(InvalidConfigError, match="seed"):
            child_seed(value, 1)
        with pytest.raises(InvalidConfigError, match="n_players"):
            hand_width(value)
        with pytest.raises(InvalidConfigError, match="n_hands"):
            deal_hands(value, 2, seed=1)
        with pytest.raises(InvalidConfigError, match="n_players"):
            deal_hands(1, value, seed=1)
        with pytest.raises(InvalidConfigError, match="start"):
            deal_hands(1, 2, seed=1, start=value)
        with pytest.raises(InvalidConfigError, match="seed"):
            deal_hands(1, 2, seed=value)
    # integer scalars (0-d arrays too) are ints
    assert Deck(seed=np.array(7)).deal(5) == Deck(seed=7).deal(5)
    assert deal_hands(2, 2, seed=1, start=np.array(3)).tolist() == \
        deal_hands(2, 2, seed=1, start=3).tolist()


def test_a_huge_int_in_a_seed_or_a_card_gives_a_holdem_error() -> None:
    """An int of more digits than Python turns into text, inside a list (a seed that is not
    an int) or as a card: the message failed with a bare ValueError ("Exceeds the limit")."""
    huge = 10**5000
    with pytest.raises(InvalidConfigError, match="too large to print"):
        Deck(seed=[huge])  # type: ignore[arg-type]
    with pytest.raises(InvalidConfigError, match="too large to print"):
        deal_hands(1, 2, seed=[huge])  # type: ignore[arg-type]
    deck = Deck(seed=1)
    with pytest.raises(InvalidCardError, match="16610 bits"):
        _ = huge in deck
    with pytest.raises(InvalidCardError, match="16610 bits"):
        deck.remove([huge])
    assert len(deck) == 52


def test_repr_of_a_deck_with_a_huge_seed() -> None:
    """Seeds are ints of any size, but repr() quoted the seed in decimal and raised
    ValueError past Python's 4300-digit limit; it is written in hex then (and pastes back)."""
    seed = 10**5000
    deck = Deck(seed=seed)
    text = repr(deck)
    assert text.startswith("Deck(seed=0x")
    assert eval(text, {"Deck": Deck}).deal(52) == Deck(seed=seed).deal(52)
    deck.deal(2)
    assert repr(deck).startswith("<Deck seed=0x") and repr(deck).endswith(
        ": 50 left, 2 dealt, 0 burned, 0 removed>")
    assert repr(Deck(seed=-(10**5000))).startswith("Deck(seed=-0x")
    assert repr(Deck(seed=2**64 + 5)) == f"Deck(seed={2**64 + 5})"  # printable: decimal


def test_a_bad_seed_is_named_by_its_type_and_value() -> None:
    with pytest.raises(InvalidConfigError, match=r"^seed must be an int \(any size or sign\) "
                       r"or None, not float: 1\.5$"):
        Deck(seed=1.5)  # type: ignore[arg-type]
