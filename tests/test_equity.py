import importlib
import math
import statistics
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from itertools import combinations

import distributed
import eval7
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_deck import ref_child_seed

import holdem
from holdem import (
    Card,
    DuplicateCardError,
    EquityResult,
    HoldemError,
    InvalidConfigError,
    InvalidHandError,
    InvalidRangeError,
    Range,
    equity,
)
from holdem._parallel import chunk_seed
from holdem.cards import CARDS
from holdem.equity import MC_CHUNK, MC_ROUND_CHUNKS

# --- exact values for named spots --------------------------------------------------------------


def test_aks_vs_qq_preflop() -> None:
    r = equity(["AsKs", "QdQc"])
    assert r.exact and r.boards == 1_712_304 == math.comb(48, 5)
    assert round(100 * r[0].equity, 4) == 46.2145
    assert r[0].equity + r[1].equity == pytest.approx(1.0, abs=1e-12)
    assert r[0].stderr is None and r.seed is None


def test_72o_vs_aces_preflop() -> None:
    r = equity(["7h2c", "AdAh"])
    assert r.boards == 1_712_304
    assert round(100 * r[0].equity, 4) == 11.7944


def test_three_way_preflop() -> None:
    r = equity(["AsKs", "QdQc", "JhTh"])
    assert r.exact and r.boards == math.comb(46, 5)
    assert [round(100 * e, 3) for e in r.equities] == [40.209, 41.054, 18.736]
    assert sum(r.equities) == pytest.approx(1.0, abs=1e-12)


def test_ten_players() -> None:
    hands = ["AsAh", "KsKh", "QsQh", "JsJh", "TsTh", "9s9h", "8s8h", "7s7h", "6s6h", "5s5h"]
    r = equity(hands)
    assert r.exact and r.boards == math.comb(32, 5) and len(r) == 10
    assert sum(r.equities) == pytest.approx(1.0, abs=1e-12)
    assert r[0].equity == max(r.equities)
    mc = equity(hands, samples=100_000, seed=4)
    for e, m in zip(r, mc, strict=True):
        assert m.stderr is not None and abs(e.equity - m.equity) < 4.5 * m.stderr


def test_ties_are_split() -> None:
    # a board that plays: everyone splits
    r = equity(["2c3d", "2h3s", "4c5d"], board="AsKsQsJsTs")
    assert r.boards == 1
    assert r.equities == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert all(p.win == 0 and p.tie == 1 for p in r)
    # same hand values in different suits preflop: equal shares, ties counted for both
    r = equity(["AsKd", "AhKc"])
    assert r[0].equity == pytest.approx(0.5, abs=1e-12)
    assert r[0].tie == r[1].tie > 0.9


# --- an independent oracle: eval7 over every completion ----------------------------------------


def oracle(hands: list[str], board: str, dead: str) -> list[float]:
    known = set(holdem.parse_cards(board + dead + "".join(hands)))
    deck = [c for c in CARDS if c not in known]
    b7 = [eval7.Card(str(c)) for c in holdem.parse_cards(board)]
    h7 = [[eval7.Card(str(c)) for c in holdem.parse_cards(h)] for h in hands]
    shares = [0.0] * len(hands)
    n = 0
    for extra in combinations(deck, 5 - len(b7)):
        full = b7 + [eval7.Card(str(c)) for c in extra]
        vals = [eval7.evaluate(full + h) for h in h7]
        best = max(vals)
        winners = [i for i, v in enumerate(vals) if v == best]
        for i in winners:
            shares[i] += 1 / len(winners)
        n += 1
    return [s / n for s in shares]


@settings(max_examples=40)
@given(
    st.permutations(list(range(52))),
    st.integers(2, 4),
    st.sampled_from([4, 5]),
    st.integers(0, 3),
)
def test_matches_eval7_enumeration(deck: list[int], players: int, nboard: int, ndead: int) -> None:
    cards = [str(CARDS[c]) for c in deck]
    hands = [cards[2 * i] + cards[2 * i + 1] for i in range(players)]
    rest = cards[2 * players:]
    board = "".join(rest[:nboard])
    dead = "".join(rest[nboard:nboard + ndead])
    got = equity(hands, board, dead)
    assert got.exact
    assert got.equities == pytest.approx(oracle(hands, board, dead), abs=1e-12)


@settings(max_examples=60)
@given(
    st.permutations(list(range(52))),
    st.integers(2, 10),
    st.sampled_from([0, 3, 4, 5]),
    st.integers(0, 4),
    st.booleans(),
)
def test_hands_as_text_take_a_short_path_with_the_same_result(
        deck: list[int], players: int, nboard: int, ndead: int, as_tuple: bool) -> None:
    # hands, board and dead cards written as canonical names are read and enumerated without
    # the general machinery when the boards fit one chunk: the result must be the general
    # path's, bit for bit (the general path takes the same cards as Card objects)
    eq = importlib.import_module("holdem.equity")
    names = [str(CARDS[c]) for c in deck]
    hands = [names[2 * i] + names[2 * i + 1] for i in range(players)]
    rest = names[2 * players:]
    board, dead = "".join(rest[:nboard]), "".join(rest[nboard:nboard + ndead])
    as_cards = [[Card(h[:2]), Card(h[2:])] for h in hands]
    general = equity(as_cards, [Card(c) for c in rest[:nboard]],
                     [Card(c) for c in rest[nboard:nboard + ndead]])
    short = eq._small_hands(tuple(hands) if as_tuple else hands, board, dead or ())
    assert short is None or short == general
    if nboard:  # at most 1,081 boards: one chunk
        assert short == general and short.exact and short.boards == general.boards
    if nboard == 0 and players == 2:  # 1.7 million boards: several chunks, the general path
        assert short is None
    assert equity(hands, board, dead) == general


@pytest.mark.parametrize(("players", "board", "dead"), [
    (["AsKs", "QdQc"], "2c7d9", ()),        # a board cut short
    (["AsKs", "QdQc"], "2c7d9h", "2c"),     # a dead card on the board
    (["AsKs", "QdQc"], "2c7d9hAs", ()),     # a card twice
    (["AsKs", "AsQc"], "2c7d9h", ()),
    (["asks", "QdQc"], "2c7d9h", ()),       # not canonical: the general parser reads it
    (["As Ks", "QdQc"], "2c7d9h", ()),
    (["AsKs", "QdQc"], "2c 7d 9h", ()),
    (["AsKs", "QQ"], "2c7d9h", ()),         # a range
    (["AsKs"], "2c7d9h", ()),
    (["AsKs", "QdQc"], "2c7d9hTsJcQh", ()),
    ("AsKsQdQc", "2c7d9h", ()),
    (["AsKs", "QdQc"], "2c7d9h", ["Ah"]),
])
def test_the_short_path_leaves_everything_else_to_the_general_path(
        players: object, board: str, dead: object) -> None:
    eq = importlib.import_module("holdem.equity")
    assert eq._small_hands(players, board, dead) is None
    try:
        general: object = equity(players, board, dead)  # type: ignore[arg-type]
    except HoldemError as e:  # the general path's own error
        general = type(e)
    assert (isinstance(general, type) and issubclass(general, HoldemError)) or (
        isinstance(general, EquityResult) and general.exact)


def test_the_short_path_is_not_taken_for_monte_carlo_progress_or_executors() -> None:
    eq = importlib.import_module("holdem.equity")
    calls = []
    real = eq._small_hands

    def counting(*args: object) -> object:
        calls.append(args)
        return real(*args)

    hands, board = ["AsKs", "QdQc"], "2c7d9h"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(eq, "_small_hands", counting)
        exact = equity(hands, board)
        assert len(calls) == 1 and exact.exact
        assert equity(hands, board, executor="serial") == exact and len(calls) == 2
        assert not equity(hands, board, samples=1000, seed=1).exact
        assert equity(hands, board, exact=True) == exact
        assert not equity(hands, board, exact=False, seed=1).exact
        assert len(calls) == 3
        with ThreadPoolExecutor(2) as pool:
            assert equity(hands, board, executor=pool) == exact
        with pytest.raises(InvalidConfigError, match="progress"):
            equity(hands, board, progress=0)  # checked, not skipped by the short path
        assert equity(hands, board, progress=False) == exact
        assert len(calls) == 4


def test_flop_matches_eval7_enumeration() -> None:
    hands, board = ["AsKs", "QdQc", "7h6h"], "Qs8h5h"
    got = equity(hands, board)
    assert got.boards == math.comb(52 - 9, 2)
    assert got.equities == pytest.approx(oracle(hands, board, ""), abs=1e-12)


# --- ranges ----------------------------------------------------------------------------------


@pytest.mark.parametrize("board", ["Js7d2c3h", "Js7d2c3h9s"])
def test_range_equity_is_the_weighted_mean_of_hand_equities(board: str) -> None:
    """Exhaustive range-vs-range = sum over non-conflicting combo pairs of w1*w2*equity."""
    r1, r2 = Range("0.5(AA), KJs, 0.25(72o)"), Range("QQ+, 0.4(AJ)")
    got = equity([r1, r2], board)
    assert got.exact
    num = den = 0.0
    blocked = set(holdem.parse_cards(board))
    for (a, b), w1 in r1.items():
        for (c, d), w2 in r2.items():
            cards = {a, b, c, d}
            if len(cards) < 4 or cards & blocked:
                continue
            e = equity([f"{a}{b}", f"{c}{d}"], board)
            num += w1 * w2 * e.boards * e[0].equity
            den += w1 * w2 * e.boards
    assert got[0].equity == pytest.approx(num / den, abs=1e-12)
    assert got.boards == sum(
        1 for (a, b) in r1 for (c, d) in r2
        if len({a, b, c, d}) == 4 and not {a, b, c, d} & blocked
    ) * (44 if len(board) == 8 else 1)


def test_tiny_weights_give_the_equities_of_the_plain_ranges() -> None:
    # the product of the weights used to underflow to 0: ZeroDivisionError
    tiny = "0." + "0" * 299 + "1"  # 1e-300
    plain = equity(["AA", "KK"], "2c3d4h", exact=True)
    got = equity([Range(f"{tiny}(AA)"), Range(f"{tiny}(KK)")], "2c3d4h", exact=True)
    assert got.boards == plain.boards
    assert got.equities == pytest.approx(plain.equities, abs=1e-12)
    mixed = equity([Range(f"{tiny}(AA), 0.5(KK)"), Range(f"{tiny}(QQ)")], "2c3d4h")
    assert mixed.equities == pytest.approx(equity(["KK", "QQ"], "2c3d4h").equities, abs=1e-12)
    alone = equity(["AdAc", "KsKh"], "2c3d4h").equities
    assert equity([Range.from_combos({"AdAc": 5e-324}), "KsKh"], "2c3d4h").equities == alone
    r = equity([Range.from_combos({"AsAh": 5e-324, "AdAc": 1e-300}), "KsKh"], "2c3d4h")
    assert r.equities == pytest.approx(alone, abs=1e-12)


def test_every_deal_weighing_less_than_a_float_is_reported() -> None:
    # each player's one combo of weight 1 is the same As Ah: every deal multiplies at least
    # two weights of 1e-300
    players = [Range.from_combos({"AsAh": 1.0, spare: 1e-300})
               for spare in ("JcTd", "JdTh", "JsTs")]
    with pytest.raises(InvalidRangeError, match="weights are too small"):
        equity(players, "2c3d4h", exact=True)


def test_range_vs_range_symmetry() -> None:
    board = "Td9c4s"
    a, b = "QQ+, AKs, 0.5(AQo)", "TT, 99, 0.5(KQs), JTs"
    ab = equity([a, b], board)
    ba = equity([b, a], board)
    assert ab[0].equity == pytest.approx(ba[1].equity, abs=1e-12)
    assert ab[1].equity == pytest.approx(ba[0].equity, abs=1e-12)
    assert ab[0].equity + ab[1].equity == pytest.approx(1.0, abs=1e-12)
    same = equity(["KK+, AK", "KK+, AK"], board)
    assert same.equities == pytest.approx((0.5, 0.5), abs=1e-12)


def test_range_vs_range_monte_carlo_symmetry() -> None:
    same = equity(["QQ+, AKs", "QQ+, AKs", "QQ+, AKs"], samples=300_000, seed=3)
    for p in same:
        assert p.stderr is not None
        assert abs(p.equity - 1 / 3) < 5 * p.stderr


def test_blocked_combos_are_dropped() -> None:
    # AsKs blocks the ace of spades and the king of spades in the other range
    r = equity(["AsKs", "AA, KK"], exact=True)
    assert r.boards == (3 + 3) * math.comb(48, 5)
    with pytest.raises(InvalidRangeError, match="no combos left"):
        equity(["AsAh", "AdAc", "AA"])
    with pytest.raises(InvalidRangeError, match="no way to deal"):
        equity(["AA", "AA", "AA"])


# --- exhaustive vs Monte Carlo ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "board"),
    [(["AsKs", "QdQc"], ""), (["AsKs", "QdQc", "JhTh"], ""), (["QQ+, AKs", "TT, AQs"], "Kh7c2d"),
     # a weighted range: combos are drawn in proportion to their weights (0.25 here)
     (["KhKd", "AA, 0.25(QQ)"], "9c7d2s")],
)
def test_monte_carlo_agrees_with_enumeration(players: list[str], board: str) -> None:
    exact = equity(players, board, exact=True)
    mc = equity(players, board, samples=250_000, seed=11)
    assert not mc.exact and mc.boards == 250_000 and mc.seed == 11
    for e, m in zip(exact, mc, strict=True):
        assert m.stderr is not None and 0 < m.stderr < 0.002
        # 4.5 standard errors: a seeded, fixed outcome that would fail for a biased sampler
        assert abs(e.equity - m.equity) < 4.5 * m.stderr
    assert sum(mc.equities) == pytest.approx(1.0, abs=1e-12)


def test_target_se_stop_rule() -> None:
    r = equity(["AsKs", "QdQc"], target_se=0.002, seed=5)
    assert r.stderr is not None and r.stderr <= 0.002
    assert r.boards % (MC_CHUNK * MC_ROUND_CHUNKS) == 0
    # one round is ~1M boards, whose standard error is well below 0.002
    assert r.boards == MC_CHUNK * MC_ROUND_CHUNKS
    capped = equity(["AsKs", "QdQc"], target_se=1e-9, samples=300_000, seed=5)
    assert capped.boards == 300_000 and capped.stderr is not None and capped.stderr > 1e-9


def test_seed_reproduces_and_none_draws_one() -> None:
    a = equity(["AhKh", "2c2d"], samples=100_000, seed=123)
    b = equity(["AhKh", "2c2d"], samples=100_000, seed=123)
    c = equity(["AhKh", "2c2d"], samples=100_000, seed=124)
    assert a == b and a != c
    d = equity(["AhKh", "2c2d"], samples=100_000)
    assert d.seed is not None
    assert equity(["AhKh", "2c2d"], samples=100_000, seed=d.seed) == d


def test_seeds_follow_the_project_rule() -> None:
    # any int, taken modulo 2**64 (holdem._seeding); the int given is reported back
    a = equity(["AhKh", "2c2d"], samples=50_000, seed=-1)
    b = equity(["AhKh", "2c2d"], samples=50_000, seed=2**64 - 1)
    assert a.seed == -1 and b.seed == 2**64 - 1
    assert a.equities == b.equities and a.boards == b.boards


def test_docstring_examples() -> None:
    import doctest
    import importlib

    for name in ("holdem.ranges", "holdem.equity", "holdem._parallel"):
        mod = importlib.import_module(name)  # holdem.equity the attribute is the function
        failed, tried = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
        assert tried > 0 and failed == 0, name


def test_chunk_seeds_match_the_c_implementation() -> None:
    for seed, index in [(0, 0), (1, 0), (1, 1), (2**64 - 1, 12345), (987654321, 2**40)]:
        assert chunk_seed(seed, index) == ref_child_seed(seed, index)  # Python reference
        assert chunk_seed(seed, index) == holdem.child_seed(seed, index)  # the deck's helper


# --- determinism across executors ------------------------------------------------------------


def test_identical_results_on_any_executor() -> None:
    players = ["AsKs", "QQ+, AJs+", "77"]
    kw = {"samples": 5 * MC_CHUNK + 123, "seed": 2024}
    serial = equity(players, **kw, executor="serial")
    with ProcessPoolExecutor(max_workers=2) as pool:
        procs = equity(players, **kw, executor=pool)
    with ThreadPoolExecutor(max_workers=3) as threads:
        thr = equity(players, **kw, executor=threads)
    auto = equity(players, **kw)
    assert serial == procs == thr == auto


def test_stop_rule_is_identical_when_a_pool_joins_later() -> None:
    # executor=None: round one in-process, then a process pool for the later rounds
    auto = equity(["AsKs", "QdQc"], target_se=0.0004, seed=9)
    serial = equity(["AsKs", "QdQc"], target_se=0.0004, seed=9, executor="serial")
    assert auto == serial and auto.boards == 2 * MC_CHUNK * MC_ROUND_CHUNKS


def test_identical_exact_range_results_on_any_executor() -> None:
    # weighted sums in floating point: identical bits because chunks are reduced in order
    players = ["0.3(QQ+), AKs", "0.7(TT-88), KQs"]
    serial = equity(players, "Kd7c2h", exact=True, executor="serial")
    with ProcessPoolExecutor(max_workers=2) as pool:
        procs = equity(players, "Kd7c2h", exact=True, executor=pool)
    with ThreadPoolExecutor(max_workers=2) as threads:
        thr = equity(players, "Kd7c2h", exact=True, executor=threads)
    assert serial == procs == thr


def test_dask_cluster_gives_the_serial_result() -> None:
    players = ["AsKs", "QQ+, AJs+"]
    kw = {"samples": 4 * MC_CHUNK, "seed": 77}
    serial = equity(players, **kw, executor="serial")
    with distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        on_dask = equity(players, **kw, executor=client.get_executor(pure=False))
    assert on_dask == serial


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"players": ["AsKs"]}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc", "2c2d", "3c3d", "4c4d", "5c5d", "6c6d", "7c7d",
                      "8c8d", "9c9d", "TcTd"]}, InvalidConfigError),
        ({"players": "AsKs QdQc"}, InvalidConfigError),
        ({"players": ["AsKs", "AsQd"]}, DuplicateCardError),
        ({"players": ["AsKs", "QdQc"], "board": "Qd7h2c"}, DuplicateCardError),
        ({"players": ["AsKs", "QdQc"], "board": "7h2c3d", "dead": "7h"}, DuplicateCardError),
        ({"players": ["AsKs", "QdQc"], "board": "7h2c"}, InvalidHandError),
        ({"players": ["AsKs", "QdQc"], "board": "7h2c3d4d5d6d"}, InvalidHandError),
        ({"players": ["AsKsQs", "QdQc"]}, InvalidHandError),
        ({"players": ["AsKs", "QdQc"], "dead": [c for c in range(52) if c not in (51, 47, 41, 40)][:44]},
         InvalidHandError),
        ({"players": [["As"], "QdQc"]}, InvalidHandError),
        ({"players": ["AsKs", "QQ+, AKx"]}, InvalidRangeError),
        ({"players": ["AsKs", "QdQc"], "samples": 0}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc"], "samples": -5}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc"], "samples": 1.5}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc"], "samples": True}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc"], "seed": 1.5}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc"], "seed": "1"}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc"], "executor": "threads"}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc"], "executor": 4}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc"], "exact": True, "samples": 10}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc"], "target_se": 0}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc"], "exact": "yes"}, InvalidConfigError),
        # equal to True or False but not them: the checks after read them with `is` (exact=0
        # enumerated on the short path, exact=1 ran Monte Carlo on the general one)
        ({"players": ["AsKs", "QdQc"], "board": "2c7d9h", "exact": 0}, InvalidConfigError),
        ({"players": ["AsKs", "QdQc"], "exact": 1}, InvalidConfigError),
        ({"players": ["AK", "QQ"], "board": "2c7d9h", "exact": 1.0}, InvalidConfigError),
    ],
)
def test_bad_input_raises_holdem_errors(kwargs: dict[str, object], error: type) -> None:
    with pytest.raises(error) as info:
        equity(**kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, HoldemError)


def test_too_big_for_exact_enumeration() -> None:
    every = "22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"
    with pytest.raises(InvalidConfigError, match="too many to enumerate"):
        equity([every, every, every], exact=True)


def test_result_object() -> None:
    r = equity(["AsKs", "QdQc"], board="Qs7h2c")
    assert isinstance(r, EquityResult) and len(r) == 2
    assert [p.player for p in r] == ["AsKs", "QdQc"]
    assert r[1].win + r[1].tie <= 1.0
    text = str(r)
    assert "990 boards (exact)" in text and "AsKs" in text
    assert str(equity(["AsKs", "QdQc"], board="Qs7h2c3d4d")).startswith("1 board (exact)\n")
    assert eval(repr(r), {"EquityResult": EquityResult, "PlayerEquity": holdem.PlayerEquity}) == r


def test_chunking_does_not_change_enumeration(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    mod = importlib.import_module("holdem.equity")
    cases = [(["AsKs", "QdQc", "7h7c"], "Ah9d2c"), (["0.5(QQ+), AKs", "JJ-99"], "Kc8d3h")]
    before = [equity(p, b, exact=True) for p, b in cases]
    monkeypatch.setattr(mod, "EXACT_CHUNK_BOARDS", 7)  # about one unit per chunk
    after = [equity(p, b, exact=True) for p, b in cases]
    assert after[0] == before[0]  # integer counts: identical
    assert after[1].boards == before[1].boards
    assert after[1].equities == pytest.approx(before[1].equities, abs=1e-12)


@pytest.mark.parametrize("chunk", [1, 30, 1 << 18])
def test_turn_ranges_of_three_players_in_any_chunks(monkeypatch: pytest.MonkeyPatch,
                                                    chunk: int) -> None:
    """On the turn an assignment of the ranges' combos is 42 units (one per river card)
    that share its hands and deck: chunks that start and end inside an assignment (one unit,
    about 30 boards) and one chunk for everything give the weighted mean of the per-deal
    enumerations, three-way ties (a straight on the board) split included."""
    mod = importlib.import_module("holdem.equity")
    monkeypatch.setattr(mod, "EXACT_CHUNK_BOARDS", chunk)
    board = "5s6d7c8h"
    r1, r2 = Range("0.5(AA), KJs"), Range("QQ, 0.25(AJs)")
    got = equity([r1, r2, "Td2d"], board, exact=True, executor="serial")
    blocked = set(holdem.parse_cards(board + "Td2d"))
    num, den, boards = [0.0, 0.0, 0.0], 0.0, 0
    for (a, b), w1 in r1.items():
        for (c, d), w2 in r2.items():
            cards = {a, b, c, d}
            if len(cards) < 4 or cards & blocked:
                continue
            shares = oracle([f"{a}{b}", f"{c}{d}", "Td2d"], board, "")
            for p in range(3):
                num[p] += w1 * w2 * 42 * shares[p]
            den += w1 * w2 * 42
            boards += 42  # rivers: 52 cards less the board and three hands
    assert got.boards == boards
    assert got.equities == pytest.approx([x / den for x in num], abs=1e-12)
    assert got[2].tie > 0.0  # some rivers (a 4 or a 9) put a straight on the board


def test_a_long_enumeration_reports_progress_between_tasks(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """An enumeration is cut into tasks of at most EXACT_TASK_WORK evaluations, and a progress
    line comes between two tasks: ``holdem equity random random --exact --progress 2`` was
    silent for hours on one task per worker (and held every chunk's result, 2.8 GB). The
    results are summed in chunk order whatever the tasks, so they do not change."""
    import importlib

    mod = importlib.import_module("holdem.equity")
    hands, board = ["0.5(QQ+), AKs", "JJ-99"], "Kc8d3h"
    monkeypatch.setattr(mod, "EXACT_CHUNK_BOARDS", 500)  # chunks of a few units
    before = equity(hands, board, exact=True, executor="serial", progress=False)
    monkeypatch.setattr(mod, "EXACT_TASK_WORK", 20_000)  # a few chunks a task
    calls: list[int] = []
    real = mod._exact_task
    monkeypatch.setattr(mod, "_exact_task", lambda *a: calls.append(1) or real(*a))
    after = equity(hands, board, exact=True, executor="serial", progress=1e-9)
    assert after == before and len(calls) > 20
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) >= len(calls) - 1 and lines[-1].startswith("equity: ")
    assert f"{before.boards:,}/{before.boards:,} boards (100%)" in lines[-1]


class _Stop(Exception):
    pass


def _stop(*args: object) -> None:
    raise _Stop


def test_monte_carlo_plan_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # the chunk sizes used to be listed up front: MemoryError after 30 s for samples=2**40
    import importlib
    import tracemalloc

    mod = importlib.import_module("holdem.equity")
    monkeypatch.setattr(mod, "_mc_chunk", _stop)  # the first chunk ends the run
    for samples in (2**36, 2**53):
        tracemalloc.start()
        try:
            with pytest.raises(_Stop):
                equity(["AsKs", "QdQc"], samples=samples, seed=1, executor="serial",
                       progress=False)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 4_000_000


def test_monte_carlo_batches_do_not_change_results(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    mod = importlib.import_module("holdem.equity")
    players = ["AsKs", "QQ+, AJs+", "77"]
    kw = {"samples": 5 * MC_CHUNK + 123, "seed": 2024}
    before = equity(players, **kw, executor="serial")
    monkeypatch.setattr(mod, "MC_BATCH_CHUNKS", 2)
    assert equity(players, **kw, executor="serial") == before
    with ThreadPoolExecutor(max_workers=3) as threads:
        assert equity(players, **kw, executor=threads) == before


def test_hands_ranges_and_text_are_interchangeable() -> None:
    a = equity(["AsKs", "QQ+, AJs+"], "Td9c4s")
    b = equity([Range("AsKs"), Range("QQ+, AJs+")], "Td9c4s")
    c = equity([(holdem.Card("As"), 47), "AJs+, QQ+"], ["Td", "9c", "4s"])
    assert a.equities == b.equities == c.equities and a.boards == b.boards == c.boards


def test_ranges_that_almost_always_collide_are_reported() -> None:
    # ten players who nearly always all pick a combo with the ace of spades: valid deals exist
    # (everyone takes their own spare combo) but a random draw finds one about once in 52**9
    others = [c for c in CARDS if c != holdem.Card("As")]
    players = []
    for p in range(10):
        spare = f"{others[2 * p]}{others[2 * p + 1]}"
        players.append(Range.from_combos([f"As{c}" for c in others] + [spare]))
    with pytest.raises(InvalidRangeError, match="collide too often"):
        equity(players, samples=1_000, seed=1, executor="serial")


@pytest.mark.parametrize("text", ["AhKh,AsKs", "AhKh, QsQd, 7c6c", "AsKs, AsQs"])
def test_range_text_of_exact_combos_is_a_range(text: str) -> None:
    """Range text listing exact combos also reads as a list of cards: it used to be refused
    as a hand of 4 or 6 cards (InvalidHandError), or as a duplicate card when two combos share
    one, instead of being the range Range(text) is."""
    board = "2c7d9h8s"
    got = equity([text, "JdJc"], board)
    assert got.exact and got[0].player == text
    combos = [f"{a}{b}" for a, b in Range(text)]
    assert got.boards == len(combos) * 44
    # every combo is dealt with the same 44 rivers: the mean of the hand-vs-hand equities
    expected = sum(oracle([c, "JdJc"], board, "")[0] for c in combos) / len(combos)
    assert got[0].equity == pytest.approx(expected, abs=1e-12)
    assert equity([Range(text), "JdJc"], board).equities == got.equities
    # text that is neither a hand nor a range still names the hand problem
    for bad, error in (("AsKsQs", InvalidHandError), ("AsKs AsQs", DuplicateCardError),
                       ("As Kd Qh Jc", InvalidHandError)):
        with pytest.raises(error):
            equity([bad, "JdJc"], board)


# --- Monte Carlo standard errors, the stop rule and edge cases ---------------------------------


def _shares_stderr(r: EquityResult, p: int) -> float:
    """Player ``p``'s standard error of the mean per-board pot share, computed from its
    definition: heads-up a board's share is 1 (win), 1/2 (tie) or 0, so the result's win and
    tie fractions give every board's share."""
    wins, ties = r[p].win * r.boards, r[p].tie * r.boards
    assert wins == pytest.approx(round(wins), abs=1e-6)
    assert ties == pytest.approx(round(ties), abs=1e-6)
    shares = [1.0] * round(wins) + [0.5] * round(ties)
    shares += [0.0] * (r.boards - len(shares))
    assert r[p].equity == pytest.approx(statistics.fmean(shares), abs=1e-12)
    return statistics.stdev(shares) / math.sqrt(r.boards)  # sample (n - 1) variance


@pytest.mark.parametrize("samples", [10, 200, 5_000])
def test_monte_carlo_stderr_is_that_of_the_mean_share_with_ties_split(samples: int) -> None:
    """The standard error is the sample standard deviation (n - 1) of the per-board shares
    over sqrt(boards), a tie counting 1/2 (its square 1/4) in the share: AK vs AK ties on most
    boards, so the tie term weighs."""
    r = equity(["AsKs", "AhKh"], samples=samples, seed=1, executor="serial")
    assert not r.exact and r.boards == samples
    assert r[0].tie > 0.5  # most boards are split
    for p in range(2):
        assert r[p].stderr == pytest.approx(_shares_stderr(r, p), rel=1e-9)
    # a hand-checkable case: always a tie, so every share is 1/2 and the error is 0
    tie = equity(["AsKs", "AhKh"], "QsJhTd2c2d", samples=samples, seed=1, executor="serial")
    assert tie.equities == (0.5, 0.5) and tie.stderr == 0.0


def test_result_stderr_is_the_largest_player_stderr() -> None:
    r = equity(["AsAh", "KdKc", "7c2d"], samples=20_000, seed=1, executor="serial")
    errs = [p.stderr for p in r]
    assert all(e is not None and e > 0 for e in errs)
    assert len(set(errs)) == 3  # they differ: largest, not smallest or any
    assert r.stderr == max(e for e in errs if e is not None)


def test_target_se_waits_for_every_player() -> None:
    """The run stops after the first round at which every player's error is <= target_se:
    after one round (same seed, same boards) some player is above it, so a second is run."""
    players, target = ["AsAh", "KdKc", "7c2d"], 0.0004
    one_round = MC_CHUNK * MC_ROUND_CHUNKS
    first = equity(players, samples=one_round, seed=1, executor="serial")
    errs = [p.stderr for p in first if p.stderr is not None]
    assert min(errs) <= target < max(errs)  # one round: some players there, not all
    r = equity(players, target_se=target, seed=1, executor="serial")
    assert r.boards == 2 * one_round
    assert all(p.stderr is not None and p.stderr <= target for p in r)


def test_exactly_enough_cards_left_for_the_board() -> None:
    """Dead cards leaving exactly the 5 board cards: one board is dealt, not refused."""
    keep = {"As", "Ah", "Kd", "Kc", "2c", "7d", "9h", "Js", "3d"}
    dead = [str(c) for c in CARDS if str(c) not in keep]
    r = equity(["AsAh", "KdKc"], dead=dead, executor="serial")
    assert r.exact and r.boards == 1 and r.equities == (1.0, 0.0)  # the board 2c7d9hJs3d
    with pytest.raises(InvalidHandError, match="only 4 cards are left for the 5"):
        equity(["AsAh", "KdKc"], dead=[*dead, "3d"], executor="serial")


def test_too_many_dead_cards_for_the_hole_cards_says_so() -> None:
    # "only -8 cards are left for the 5 board cards"
    with pytest.raises(InvalidHandError, match=r"only 12 cards are left for the 20 hole cards "
                                               r"of 10 players and the 5 board cards"):
        equity(["random"] * 10, dead=list(range(40)), executor="serial")


def test_small_range_problems_are_enumerated_automatically() -> None:
    """AA vs AA: 36 pairs of combos (too many to bound the work by the product), only 6 of
    them valid deals: counted, then enumerated exactly rather than sampled."""
    r = equity(["AA", "AA"], executor="serial")
    assert r.exact and r.seed is None and r.stderr is None
    assert r.boards == 6 * math.comb(48, 5)
    assert r.equities == (0.5, 0.5)


def test_a_range_emptied_by_dead_cards_is_named() -> None:
    """Combos are removed when either card is taken: the kings (the second card of AKs)
    alone empty it."""
    with pytest.raises(InvalidRangeError, match="player 1's range 'AKs' has no combos left"):
        equity(["AKs", "QdQc"], dead="KsKhKdKc", executor="serial")
    with pytest.raises(InvalidRangeError, match="player 2's range 'AKs' has no combos left"):
        equity(["QdQc", "AKs"], board="Ks7h2c", dead="KhKdKc", executor="serial")
    # one king dead: the three other suited AKs, as a range of those combos
    r = equity(["AKs", "QdQc"], dead="Ks", executor="serial")
    assert r.exact and r.boards == 3 * math.comb(47, 5)
    assert r.equities == equity(["AhKh, AdKd, AcKc", "QdQc"], dead="Ks").equities


def test_one_sample_has_an_infinite_stderr() -> None:
    r = equity(["AsKs", "QdQc"], samples=1, seed=1, executor="serial")
    assert r.boards == 1 and not r.exact
    assert r.equities in ((1.0, 0.0), (0.0, 1.0), (0.5, 0.5))
    assert all(p.stderr == math.inf for p in r) and r.stderr == math.inf
