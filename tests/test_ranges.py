import pickle
from decimal import Decimal
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from holdem import Card, HoldemError, InvalidRangeError, Range, parse_range
from holdem.cards import CARDS, RANKS
from holdem.ranges import Combo


def combos_of(text: str) -> set[str]:
    return {f"{a}{b}" for a, b in Range(text)}


# --- expansion -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("AA", 6), ("AKs", 4), ("AKo", 12), ("AK", 16), ("QQ+", 18), ("ATs+", 16),
        ("A5s-A2s", 16), ("99-22", 48), ("AcKd", 1), ("KQo+", 12), ("K9+", 64),
        ("22+", 78), ("T9s-T6s", 16), ("22-99", 48), ("A2s-A5s", 16),
        ("22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32", 1326),
    ],
)
def test_combo_counts(text: str, count: int) -> None:
    assert len(Range(text)) == count


def test_plus_and_spans_expand_to_the_named_classes() -> None:
    assert Range("QQ+") == Range("QQ, KK, AA")
    assert Range("ATs+") == Range("ATs, AJs, AQs, AKs")
    assert Range("A5s-A2s") == Range("A5s, A4s, A3s, A2s")
    assert Range("99-22") == Range("99, 88, 77, 66, 55, 44, 33, 22")
    assert Range("AK") == Range("AKs, AKo")
    assert Range("KAs") == Range("AKs")
    assert Range("aks, qq+") == Range("AKs, QQ+")


def test_suited_offsuit_and_exact_combos() -> None:
    assert combos_of("AKs") == {"AsKs", "AhKh", "AdKd", "AcKc"}
    offsuit = combos_of("AKo")
    assert len(offsuit) == 12 and all(c[1] != c[3] for c in offsuit)
    assert combos_of("AA") == {f"{a}{b}" for b, a in combinations(CARDS[48:], 2)}
    assert combos_of("KdAc") == {"AcKd"}  # exact combos are stored higher card first
    assert Range("AcKd").combos == ((Card("Ac"), Card("Kd")),)


def test_weights_and_percentages() -> None:
    r = Range("0.5(AA,KK), 40%(ATs+), QQ")
    assert r.weight("AsAh") == 0.5 and r.weight("KsKd") == 0.5
    assert r.weight("AsTs") == 0.4 and r.weight("QsQd") == 1.0
    assert r.weight("2c2d") == 0.0
    assert r.total_weight == pytest.approx(6 + 6 * 0.5 * 2 + 16 * 0.4)
    assert Range("0.5(0.5(AA))").weight("AsAh") == 0.25  # nested weights multiply
    assert Range("1.000(AA)") == Range("100.0%(AA)") == Range("1(AA)") == Range("AA")


def test_later_items_win() -> None:
    assert Range("AA, 0.5(AA)").weight("AsAh") == 0.5
    assert Range("0.5(AA), AA").weight("AsAh") == 1.0
    assert Range("AKs, 0.5(AsKs)").weight("AsKs") == 0.5


_ITEMS = ["random", "Random", "AA", "QQ+", "AKs", "ATo+", "A5s-A2s", "99-22", "AsKd", "T9"]


@given(st.lists(st.tuples(st.sampled_from(_ITEMS), st.sampled_from(["", "0.5", "40%", "0.25"])),
                min_size=1, max_size=8))
def test_later_items_win_around_random(items: list[tuple[str, str]]) -> None:
    """A text is its items applied in order, each writing its combos over the earlier ones:
    ``random`` (kept as one weight for every combo, not written combo by combo) drops
    everything before it and nothing after it."""
    texts = [f"{w}({item})" if w else item for item, w in items]
    expected: dict[Combo, float] = {}
    for text in texts:
        one = Range(text)
        expected.update(zip(one.combos, one.weights, strict=True))
    whole = Range(", ".join(texts))
    assert dict(zip(whole.combos, whole.weights, strict=True)) == expected
    assert Range(f"0.5({', '.join(texts)})") == Range.from_combos(
        {c: w * 0.5 for c, w in expected.items()})


# --- blockers --------------------------------------------------------------------------------


def test_blocked_combos_are_removed() -> None:
    r = Range("AA, AKs")
    blocked = r.without("As")
    assert len(blocked) == 3 + 3
    assert all(Card("As") not in combo for combo in blocked)
    assert parse_range("AKs", dead="Ks Qd") == Range("AhKh, AdKd, AcKc")
    assert parse_range(r, dead=[51, Card("Ah")]) == r.without("AsAh")
    assert len(Range("AcKd").without("Kd")) == 0 and not Range("AcKd").without("Kd")


# --- normal form and round trips -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("AA,KK,QQ", "QQ+"),
        ("KK, QQ, JJ", "KK-JJ"),
        ("ATs, AJs, AQs, AKs", "ATs+"),
        ("AKs, AKo", "AK"),
        ("A2s+, A2o+", "A2+"),
        ("A2s-A5s", "A5s-A2s"),
        ("22-99", "99-22"),
        ("AcKd", "AcKd"),
        ("40%(ATs+), AA", "AA, 0.4(ATs+)"),
        ("0.5(AA, KK)", "0.5(KK+)"),
    ],
)
def test_str_is_a_normal_form(text: str, normal: str) -> None:
    assert str(Range(text)) == normal
    assert Range(normal) == Range(text)


def test_repr_pastes_back_and_pickles() -> None:
    r = Range("QQ+, AKs, 0.5(AKo), 7c6c")
    assert repr(r) == "Range('QQ+, AKs, 7c6c, 0.5(AKo)')"
    assert eval(repr(r), {"Range": Range}) == r
    assert pickle.loads(pickle.dumps(r)) == r
    assert hash(Range("AA,KK")) == hash(Range("KK+"))


@st.composite
def weighted_ranges(draw: st.DrawFn) -> Range:
    all_combos = [f"{a}{b}" for b, a in combinations(CARDS, 2)]
    chosen = draw(st.lists(st.sampled_from(all_combos), max_size=60, unique=True))
    ws = draw(st.lists(st.sampled_from([1.0, 0.5, 0.25, 0.1, 0.3333]),
                       min_size=len(chosen), max_size=len(chosen)))
    return Range.from_combos(dict(zip(chosen, ws, strict=True)))


@st.composite
def class_ranges(draw: st.DrawFn) -> str:
    items = []
    for _ in range(draw(st.integers(0, 6))):
        hi = draw(st.integers(1, 12))
        lo = draw(st.integers(0, hi))
        sfx = "" if hi == lo else draw(st.sampled_from(["", "s", "o"]))
        plus = draw(st.sampled_from(["", "+"]))
        items.append(f"{RANKS[hi]}{RANKS[lo]}{sfx}{plus}")
    return ", ".join(items)


@given(weighted_ranges())
def test_round_trip_weighted_combos(r: Range) -> None:
    assert eval(repr(r), {"Range": Range}) == r
    assert pickle.loads(pickle.dumps(r)) == r
    if not r:  # the empty range writes as '', which Range() refuses
        with pytest.raises(InvalidRangeError):
            Range(str(r))
        return
    assert Range(str(r)) == r


def test_item_7_empty_range_text_is_refused() -> None:
    """Range('') used to be an empty range without a word; the empty range is still there
    for code that needs it (from_combos, without), with a repr that pastes back."""
    for text in ("", "   ", "\t\n"):
        with pytest.raises(InvalidRangeError, match="empty range text") as info:
            Range(text)
        assert isinstance(info.value, HoldemError) and info.value.position == 0
    with pytest.raises(InvalidRangeError, match="empty range text"):
        parse_range("")
    empty = Range("AcKd").without("Kd")
    assert not empty and str(empty) == "" and repr(empty) == "Range.from_combos(())"
    assert eval(repr(empty), {"Range": Range}) == empty == Range.from_combos(())
    assert pickle.loads(pickle.dumps(empty)) == empty
    with pytest.raises(TypeError):
        Range()  # type: ignore[call-arg]  # the text is required


@given(class_ranges())
def test_round_trip_class_text(text: str) -> None:
    if not text:
        with pytest.raises(InvalidRangeError):
            Range(text)
        return
    r = Range(text)
    assert Range(str(r)) == r
    assert str(Range(str(r))) == str(r)  # the normal form is a fixed point


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "position", "token"),
    [
        ("AA, AKx", 4, "AKx"),
        ("QQ+,, AK", 4, ","),
        ("AA, KK, ZZ", 8, "ZZ"),
        ("AsAs", 0, "AsAs"),
        ("AAs", 0, "AAs"),
        ("AKs-QJs", 0, "AKs-QJs"),
        ("AKs-A2o", 0, "AKs-A2o"),
        ("1.5(AA)", 0, "1.5"),
        # above 1 as written, though the nearest float is 1.0 (they read as weight 1)
        ("1.0000000000000001(AA)", 0, "1.0000000000000001"),
        ("KK, 100.00000000000001%(AA)", 4, "100.00000000000001%"),
        ("0(AA)", 0, "0"),
        ("x(AA)", 0, "x"),
        ("0.5(AA", 6, ""),
        ("AA)", 2, ")"),
        ("AA KK", 3, "KK"),
        ("AKs+-", 0, "AKs+-"),
    ],
)
def test_bad_text_points_at_the_token(text: str, position: int, token: str) -> None:
    with pytest.raises(InvalidRangeError) as info:
        Range(text)
    err = info.value
    assert isinstance(err, HoldemError) and isinstance(err, ValueError)
    assert err.position == position and err.token == token
    assert f"position {position}" in str(err)
    # the caret line points under the offending character
    lines = str(err).splitlines()
    assert lines[-1].index("^") - 2 == position and lines[-2] == "  " + text


def test_bad_weights_and_types() -> None:
    with pytest.raises(InvalidRangeError):
        Range.from_combos({"AsKs": 1.5})
    with pytest.raises(InvalidRangeError):
        Range.from_combos(["AsKsQs"])
    with pytest.raises(InvalidRangeError):
        Range(["AA"])  # type: ignore[arg-type]
    with pytest.raises(HoldemError):
        Range("AA").weight("Zz")
    assert "Zz" not in Range("AA")


# --- extreme weights and nesting -------------------------------------------------------------

TINY = "0." + "0" * 299 + "1"  # 1e-300


@pytest.mark.parametrize("w", [1e-05, 9.99e-05, 1e-300, 2.2250738585072014e-308, 5e-324, 0.1 + 0.2])
def test_small_weights_round_trip(w: float) -> None:
    # str() used to write 1e-05(AA), which the grammar (no exponents) refuses, so pickling
    # failed too
    r = Range.from_combos({"AsAh": w, "KsKh": 1.0})
    text = str(r)
    assert "e" not in text  # no card name has an e
    assert Range(text) == r and Range(text).weight("AsAh") == w
    assert pickle.loads(pickle.dumps(r)) == r
    assert str(Range("0.00001(AA)")) == "0.00001(AA)"


@pytest.mark.parametrize("text", [f"{TINY}({TINY}(AA))", f"KK, {TINY}({TINY}(AA))",
                                  "0." + "0" * 400 + "1(AA)", f"0.5({TINY}%(0.5({TINY}(AA))))"])
def test_weights_that_underflow_to_zero_are_refused(text: str) -> None:
    # used to give a weight of 0.0, written 0.0(AA), which does not parse back
    with pytest.raises(InvalidRangeError, match="smallest float"):
        Range(text)
    assert Range(f"{TINY}(AA)").weight("AsAh") == 1e-300


def test_nesting_depth_is_limited() -> None:
    # used to raise RecursionError
    ok = Range("0.5(" * 32 + "AA" + ")" * 32)
    assert ok.weight("AsAh") == 0.5 ** 32
    for k in (33, 600, 5000):
        with pytest.raises(InvalidRangeError, match="nest at most 32 levels") as info:
            Range("1(" * k + "AA" + ")" * k)
        assert info.value.position == 2 * 32 and info.value.token == "1"


MB = 1_000_000


@pytest.mark.parametrize(("text", "position", "token"), [
    ("AA, " + "K" * MB, 4, "K" * MB),  # a megabyte token
    ("AA, KK " + "Q" * MB, 7, "Q" * MB),
    ("AA, " * (MB // 4) + "AKx, QQ", MB, "AKx"),  # a short token far into a long text
    ("AKx, " + "AA, " * (MB // 4), 0, "AKx"),
])
def test_errors_in_a_long_text_quote_a_bounded_excerpt(text: str, position: int,
                                                       token: str) -> None:
    """Used to quote the token and the whole text (twice the megabyte) in the message: the
    token is cut to 80 characters with its length, and the caret line shows the 80 characters
    around the error, still pointing at it."""
    with pytest.raises(InvalidRangeError) as info:
        Range(text)
    err = info.value
    assert err.position == position and err.token == token  # the attributes stay whole
    message = str(err)
    assert len(message) < 400
    first, shown, caret = message.splitlines()
    assert f"at position {position}: " in first
    if len(token) > 80:
        assert f"{token[:80]!r}... ({len(token):,} characters) at position" in first
    assert shown[caret.index("^"):].startswith(token[:3])  # the caret points at the token
    assert shown.endswith("...") == (position + 40 < len(text))


@pytest.mark.parametrize("w", [10**400, -(10**400), Fraction(10**400, 3)])
def test_from_combos_weights_too_large_for_a_float_are_refused(w: object) -> None:
    # float(w) used to raise OverflowError, not a holdem error
    with pytest.raises(InvalidRangeError, match="outside"):
        Range.from_combos({"AsKs": w})


@pytest.mark.parametrize("text", ["\uff10(AA)", "\u0660.\u0665(AA)", "\uff10.5(AA)"])
def test_weights_are_ascii_decimals(text: str) -> None:
    # non-ASCII digits matched the weight pattern: a full-width zero was reported as weights
    # multiplying below the smallest float, Arabic-Indic 0.5 was taken as 0.5
    with pytest.raises(InvalidRangeError, match=r"expected a weight like 0\.5") as info:
        Range(text)
    assert info.value.position == 0


# --- random: every two-card hand ------------------------------------------------------------


def test_random_is_every_combo_and_writes_back_as_random() -> None:
    every = Range("22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32")
    for text in ("random", "Random", " RANDOM "):
        r = Range(text)
        assert r == every and len(r) == 1326 and set(r.weights) == {1.0}
        assert {frozenset(c) for c in r} == {frozenset(c) for c in combinations(CARDS, 2)}
    assert str(every) == "random" and repr(every) == "Range('random')"
    assert eval(repr(every), {"Range": Range}) == every
    # with weights and other items (later items win, as everywhere)
    half = Range("AA, 0.5(random)")
    assert half.total_weight == 663.0 and str(half) == "0.5(random)"
    mixed = Range("0.5(random), AA")
    assert mixed.weight("AsAh") == 1.0 and mixed.weight("KsKh") == 0.5
    assert str(mixed).startswith("AA, 0.5(KK-22, A2+, ") and Range(str(mixed)) == mixed
    # less than every combo is written out, and reads back
    dead = Range("random").without("As Kd")
    assert len(dead) == 1225 and "random" not in str(dead) and Range(str(dead)) == dead
    # a word is not a prefix of random
    for text in ("rand", "randomly", "random+", "0.5random"):
        with pytest.raises(InvalidRangeError, match="invalid range token"):
            Range(text)


def test_equity_against_random_is_the_average_over_every_hand() -> None:
    # On the river the equity against a random hand is the plain average over the 990 hands
    # the opponent can hold: counted here with the evaluator, hand by hand.
    from holdem import equity
    from holdem.evaluator import evaluate

    board = ["2c", "7d", "9h", "Ts", "Jc"]
    live = [c for c in CARDS if str(c) not in {"As", "Ah", *board}]
    mine = evaluate(["As", "Ah", *board])
    won = tied = 0
    for a, b in combinations(live, 2):
        theirs = evaluate([a, b, *board])
        won += mine > theirs
        tied += mine == theirs
    assert len(live) == 45 and won > 0 and tied > 0  # AdAc ties; sets and straights win
    r = equity(["AsAh", "random"], board="".join(board))
    assert r.exact and r.boards == 990
    assert r[0].win == pytest.approx(won / 990)
    assert r[0].tie == pytest.approx(tied / 990)
    assert r[0].equity == pytest.approx((won + tied / 2) / 990)


@pytest.mark.parametrize("pct", ["33.3", "14.3", "0.7", "1.1", "4.1", "8.2", "50", "12.5"])
def test_a_percentage_weight_is_the_decimal_weight(pct: str) -> None:
    """``33.3%`` was 33.3 / 100 in floats (0.33299999999999996), unequal to ``0.333``."""
    decimal = str(Decimal(pct).scaleb(-2))
    assert Range(f"{pct}%(AA)") == Range(f"{decimal}(AA)")
    assert str(Range(f"{pct}%(AA)")) == f"{float(decimal)!r}(AA)"


def test_from_combos_names_what_it_was_given() -> None:
    """A string was iterated character by character ("not a card: 'A'"), a Decimal weight was
    "not a number", and Fraction(1, 10**400) was reported as the weight 0.0."""
    with pytest.raises(InvalidRangeError, match=r"not the text 'AsAh': give \['AsAh'\]"):
        Range.from_combos("AsAh")
    assert Range.from_combos({"AsAh": Decimal("0.5")}) == Range("0.5(AsAh)")
    with pytest.raises(InvalidRangeError, match=r"weight Fraction\(1, 1000.*outside \(0, 1\] "
                                                r"\(as a float: 0\.0\)"):
        Range.from_combos({"AsAh": Fraction(1, 10**400)})
    for bad in (Decimal("sNaN"), Decimal("NaN"), 10**400):
        with pytest.raises(InvalidRangeError, match="outside"):
            Range.from_combos({"AsAh": bad})


@pytest.mark.parametrize(("ten", "tee"), [
    ("10s10h", "TsTh"), ("A10s", "ATs"), ("1010", "TT"), ("1010+", "TT+"), ("A10o-A8o", "ATo-A8o"),
    ("K10s+", "KTs+"), ("109", "T9"), ("0.5(A10s), 10c9c", "0.5(ATs), Tc9c")])
def test_ten_is_spelled_10_in_range_text_as_in_card_text(ten: str, tee: str) -> None:
    """Cards take ``10`` for ``T`` (``Card('10d')``), and so did Range.weight/``in``/
    from_combos; range text refused it, and equity() then called "10s10h, 9s9h" a hand of
    4 cards."""
    assert Range(ten) == Range(tee)
    assert Range(ten.upper()) == Range(tee)


def test_equity_of_range_text_with_10_is_the_range_s() -> None:
    from holdem import equity

    ten = equity(["2c2d", "10s10h, 9s9h"], samples=2000, seed=1)
    tee = equity(["2c2d", "TsTh, 9s9h"], samples=2000, seed=1)
    assert ten.equities == tee.equities


@pytest.mark.parametrize(("text", "token"), [
    ("AA,\n\nAKx", "AKx"), ("AA,\tAKx", "AKx"), ("AA, \r\n AKx", "AKx"), ("AA,\x0bAKx", "AKx"),
    ("AA, " * 30 + "\n\t" + "AKx", "AKx")])
def test_the_caret_diagram_of_text_with_newlines_or_tabs_points_at_the_token(
        text: str, token: str) -> None:
    """The diagram pasted the text as it was: a newline broke it into more lines, and the
    caret, counted in characters, stood under nothing (or a tab moved the token on a
    terminal). Each such character shows as one space."""
    with pytest.raises(InvalidRangeError) as info:
        Range(text)
    assert info.value.token == token
    _first, shown, caret = str(info.value).splitlines()
    assert shown[caret.index("^"):].startswith(token)


@pytest.mark.parametrize("text", ["AA-AKs", "AKs-AA", "AA-AK", "KK-AQo", "AKs-KQs"])
def test_a_span_between_a_pair_and_another_hand_says_what_a_span_joins(text: str) -> None:
    """"AA-AKs" was told its ends must be "suited, offsuit or neither" (as "AA-AK", which
    differs only in the suits, was told what a span joins): both are not spans."""
    with pytest.raises(InvalidRangeError, match="a span joins two pairs"):
        Range(text)


@pytest.mark.parametrize(("text", "message"), [
    ("AKs-AQo", "both ends of a span must be suited, offsuit or neither"),
    ("AA-KKs", "a pair cannot be suited or offsuit"), ("AAs-KK", "a pair cannot be suited")])
def test_span_suit_errors_still_name_the_suits(text: str, message: str) -> None:
    with pytest.raises(InvalidRangeError, match=message):
        Range(text)
