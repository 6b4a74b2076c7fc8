"""Bad-input suite: cards and the evaluator (Card, parse_card(s), format_cards, masks,
evaluate, evaluate_many, best_five, category, describe). See tests/badinput.py for the
contract and how each property runs in a child process."""

from __future__ import annotations

import pytest
from badinput import bounded, call, rejected, run_in_child
from hypothesis import given
from hypothesis import strategies as st


def _card(i: int) -> object:
    import holdem

    return holdem.Card(i)


# Values of every shape a caller might pass where a card, a card list or text is expected.
BIG_INTS = st.one_of(st.integers(-60, 120), st.integers(-(2**70), 2**70),
                     st.sampled_from([2**31, 2**32, 2**63 - 1, 2**63, 2**64, -(2**63) - 1]))
CARD_TEXT = st.text(alphabet="23456789TJQKAtjqka10cdhsCDHS ,x\t\n\x00é", max_size=24)
ANY_TEXT = st.one_of(CARD_TEXT, st.text(max_size=12))
ODD = st.one_of(st.none(), st.floats(allow_nan=True), st.binary(max_size=4), st.booleans(),
                st.complex_numbers(max_magnitude=5), st.just(object()))
CARD_ITEM = st.one_of(BIG_INTS, ANY_TEXT, st.integers(0, 51), ODD)
HANDS = st.tuples(st.permutations(range(52)), st.integers(4, 8)).map(lambda t: t[0][:t[1]])
CARD_SEQ = st.one_of(st.lists(CARD_ITEM, max_size=9),
                     st.lists(CARD_ITEM, max_size=9).map(tuple),
                     st.lists(st.integers(0, 51), min_size=4, max_size=8).map(tuple),
                     HANDS.map(list), HANDS.map(lambda h: " ".join(str(_card(c)) for c in h)),
                     HANDS.map(lambda h: [_card(c) for c in h]),
                     HANDS.map(lambda h: [*h[:-1], str(_card(h[-1]))]),
                     ANY_TEXT, ODD)


def _valid_cards(items: object) -> list[int] | None:
    """The card ids ``items`` means by the documented rules, or None if it is not valid."""
    import holdem

    if isinstance(items, str):
        try:
            return [int(c) for c in holdem.parse_cards(items)]
        except holdem.HoldemError:
            return None
    if not isinstance(items, (list, tuple)):
        return None
    out = []
    for x in items:
        if isinstance(x, bool):
            return None
        if isinstance(x, int):
            if not 0 <= x < 52:
                return None
            out.append(int(x))
        elif isinstance(x, str):
            try:
                out.append(int(holdem.parse_card(x)))
            except holdem.HoldemError:
                return None
        else:
            return None
    return out if len(set(out)) == len(out) else None


@given(st.one_of(CARD_ITEM, CARD_SEQ))
@bounded(150)
def card(value: object) -> None:
    import holdem

    got = call(holdem.Card, value)
    if not rejected(got):
        assert isinstance(got, holdem.Card) and 0 <= got < 52
        assert holdem.Card(str(got)) is got and eval(repr(got), {"Card": holdem.Card}) is got
    for fn in (holdem.Card.from_str, holdem.parse_card):
        got = call(fn, value, types=("text",))
        if not rejected(got):
            assert isinstance(got, holdem.Card) and isinstance(value, str)
    got = call(holdem.Card.from_int, value, types=("value",))
    if not rejected(got):
        assert isinstance(value, int) and got == value


@given(CARD_SEQ, st.booleans())
@bounded(150)
def parse_cards(cards: object, unique: bool) -> None:
    import holdem

    got = call(holdem.parse_cards, cards, unique=unique)
    want = _valid_cards(cards)
    if rejected(got):
        assert want is None or not unique, f"{cards!r} is valid ({want}) but was rejected"
        return
    assert all(isinstance(c, holdem.Card) for c in got)
    if want is not None:
        assert [int(c) for c in got] == want
    if unique:
        assert len(set(got)) == len(got)
    text = holdem.format_cards(got)
    assert holdem.parse_cards(text, unique=unique) == got
    mask = call(holdem.cards_to_mask, cards)
    if not rejected(mask) and unique:
        assert holdem.mask_to_cards(mask) == tuple(sorted(got))


@given(CARD_SEQ, st.one_of(st.text(max_size=3), ODD))
@bounded(100)
def format_cards(cards: object, sep: object) -> None:
    import holdem

    got = call(holdem.format_cards, cards, sep, types=("sep", "cards"))
    if not rejected(got):
        assert isinstance(got, str)


@given(st.one_of(BIG_INTS, st.integers(0, 2**52 - 1), ODD, ANY_TEXT))
@bounded(100)
def mask_to_cards(mask: object) -> None:
    import holdem

    got = call(holdem.mask_to_cards, mask, types=("mask",))
    if not rejected(got):
        assert holdem.cards_to_mask(got) == mask


@given(CARD_SEQ)
@bounded(200)
def evaluate(cards: object) -> None:
    import holdem

    want = _valid_cards(cards)
    ok = want is not None and 5 <= len(want) <= 7
    got = call(holdem.evaluate, cards)
    if rejected(got):
        assert not ok, f"{cards!r} is a valid hand but was rejected: {got}"
        return
    assert ok, f"{cards!r} is not a valid 5-7 card hand but evaluate returned {got!r}"
    assert type(got) is int and 1 <= got <= 7462
    assert got == holdem.evaluate([int(c) for c in want])
    five = call(holdem.best_five, cards)
    assert not rejected(five) and len(five) == 5 and holdem.evaluate(five) == got


@given(st.one_of(BIG_INTS, st.integers(1, 7462), ODD, ANY_TEXT))
@bounded(100)
def rank_queries(rank: object) -> None:
    import holdem

    for fn in (holdem.category, holdem.describe):
        got = call(fn, rank, types=("rank",))
        if not rejected(got):
            assert isinstance(rank, int) and 1 <= rank <= 7462


# --- evaluate_many: dtypes, shapes, layouts, n_cards and out= --------------------------------

INT_DTYPES = ["uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64",
              ">i4", ">u2", "<i8"]
OTHER_DTYPES = ["float64", "float32", "bool", "complex64", "object", "U2", "datetime64[s]"]
OUT_DTYPES = ["uint16", "int32", "uint32", "int64", "uint64", "uint8", "int16", "float64",
              ">u2", "bool"]


@st.composite
def many_inputs(draw: st.DrawFn) -> tuple[object, dict[str, object], object]:
    import array

    import numpy as np

    rows = draw(st.integers(0, 6))
    k = draw(st.sampled_from([5, 6, 7, 7, 0, 1, 4, 8, 52]))
    values = draw(st.one_of(
        st.lists(st.permutations(range(52)).map(lambda p: p[:7]), min_size=rows, max_size=rows),
        st.lists(st.lists(st.integers(-300, 300), min_size=7, max_size=7),
                 min_size=rows, max_size=rows)))
    grid = [(list(v) + [0] * 52)[:k] for v in values]
    dtype = draw(st.sampled_from(INT_DTYPES * 3 + OTHER_DTYPES))
    with np.errstate(all="ignore"):
        try:
            arr = np.array(grid, dtype=np.int64).astype(dtype).reshape(rows, k)
        except (TypeError, ValueError):
            arr = np.zeros((rows, k), dtype=dtype)
    layout = draw(st.sampled_from(["c", "c", "fortran", "strided", "readonly", "flat", "3d",
                                   "scalar", "memoryview", "bytes", "array", "list"]))
    kwargs: dict[str, object] = {}
    if layout in ("memoryview", "bytes") and arr.dtype.kind not in "iub":
        layout = "c"  # numpy cannot export (or cast) these dtypes as a buffer
    if layout == "fortran":
        arr = np.asfortranarray(arr)
    elif layout == "strided":
        arr = np.repeat(arr, 2, axis=1)[:, ::2]
    elif layout == "readonly":
        arr.flags.writeable = False
    elif layout == "flat":
        arr = arr.reshape(-1)
    elif layout == "3d":
        arr = arr.reshape(1, rows, k)
    elif layout == "scalar":
        arr = np.int64(draw(st.integers(0, 51)))
    elif layout == "memoryview":
        arr = memoryview(np.ascontiguousarray(arr))
    elif layout == "bytes":
        arr = bytes(np.ascontiguousarray(arr, dtype=np.uint8).reshape(-1) & 0xFF)
    elif layout == "array":
        arr = array.array("b", [max(-128, min(127, int(x))) for row in grid for x in row])
    elif layout == "list":
        arr = grid
    if draw(st.booleans()):
        kwargs["n_cards"] = draw(st.one_of(st.sampled_from([5, 6, 7, k]), BIG_INTS, ODD,
                                           st.just("7"), st.just(7.0)))
    out: object = None
    if draw(st.booleans()):
        out_rows = draw(st.sampled_from([rows, rows, rows + 1, max(rows - 1, 0), 0]))
        out = np.full(out_rows, 77, dtype=draw(st.sampled_from(OUT_DTYPES)))
        how = draw(st.sampled_from(["plain", "plain", "readonly", "2d", "strided", "bytes",
                                    "overlap"]))
        if how == "readonly":
            out.flags.writeable = False
        elif how == "2d":
            out = out.reshape(-1, 1)
        elif how == "strided":
            out = np.full(2 * out_rows, 77, dtype=out.dtype)[::2]
        elif how == "bytes":
            out = bytes(out_rows * 2)
        elif how == "overlap" and isinstance(arr, np.ndarray) and arr.dtype == np.uint16:
            out = arr.reshape(-1)[:out_rows] if arr.flags.c_contiguous and arr.size else out
        kwargs["out"] = out
    return arr, kwargs, grid


@given(many_inputs())
@bounded(200)
def evaluate_many(case: tuple[object, dict[str, object], object]) -> None:
    import copy

    import numpy as np

    import holdem

    cards, kwargs, _grid = case
    before = copy.deepcopy(cards) if not isinstance(cards, memoryview) else bytes(cards)
    out = kwargs.get("out")
    out_before = np.array(out, copy=True) if isinstance(out, np.ndarray) else None
    got = call(holdem.evaluate_many, cards, **kwargs)
    # the input is never written
    if isinstance(cards, np.ndarray):
        assert np.array_equal(cards, before)
    elif isinstance(cards, memoryview):
        assert bytes(cards) == before
    else:
        assert cards == before
    if rejected(got):
        if out_before is not None and not str(got.exc).startswith("evaluate_many: row"):
            assert np.array_equal(out, out_before), "a rejected call wrote to out"
        return
    flat = [int(x) for x in np.asarray(memoryview(cards) if isinstance(cards, bytes) else cards,
                                       dtype=np.int64).reshape(-1)]
    k = int(np.asarray(cards).shape[-1]) if np.asarray(cards).ndim == 2 else kwargs["n_cards"]
    assert isinstance(k, int)
    rows = [flat[i:i + k] for i in range(0, len(flat), k)]
    assert [int(r) for r in got] == [holdem.evaluate(r) for r in rows]
    if out is not None:
        assert got is out


def test_format_cards_and_masks_reject_wrong_types_by_name() -> None:
    # Found by this suite: AttributeError / bare TypeError instead of the contract's errors.
    import holdem

    with pytest.raises(holdem.InvalidCardError, match="not an iterable of cards"):
        holdem.format_cards(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="sep must be a str"):
        holdem.format_cards([0, 1], None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="mask must be an int"):
        holdem.mask_to_cards(None)  # type: ignore[arg-type]
    assert holdem.format_cards([51, 46], "") == "AsKh"


@pytest.mark.parametrize("prop", ["card", "parse_cards", "format_cards", "mask_to_cards",
                                  "evaluate", "rank_queries", "evaluate_many"])
def test_in_child(prop: str) -> None:
    run_in_child(__file__, prop)


def test_a_huge_sized_input_is_refused_without_reading_it_all() -> None:
    """A sized input of 2**40 card ids (a broadcast numpy array: one byte held) ran for ever in
    ``evaluate`` and ``parse_cards`` (every card made first, then checked for repeats), and
    ``evaluate_many`` of such a non-contiguous view raised a bare MemoryError. 53 cards hold a
    repeat: no more are read; the copy that cannot be made is named."""
    import itertools

    np = pytest.importorskip("numpy")
    import holdem
    from holdem import DuplicateCardError, InvalidArrayError, parse_cards

    huge = np.broadcast_to(np.int64(0), (2**40,))
    endless = itertools.cycle([0, 1])
    for attempt in (lambda: holdem.evaluate(huge), lambda: parse_cards(huge),
                 lambda: parse_cards(endless)):
        with pytest.raises(DuplicateCardError, match="duplicate card: 2c appears twice"):
            attempt()
    with pytest.raises(InvalidArrayError, match=r"no memory to copy this non-contiguous "
                                                r"buffer of shape \(1099511627776, 7\)"):
        holdem.evaluate_many(np.broadcast_to(np.int8(0), (2**40, 7)))
    assert len(parse_cards(itertools.islice(itertools.cycle([0]), 60), unique=False)) == 60


def test_card_text_is_read_only_as_far_as_its_first_fault() -> None:
    """Card text was cut into tokens whole before the first was looked at: a 9 MB text with a
    bad first card (or a repeat in its first 53) made a copy and a list of 3,000,000 tokens
    first (about 190 MB here, 2-4 s). A bad token ends the parse there, and with ``unique``
    no more than 53 cards are read; the error is the one the start of the text gives."""
    import tracemalloc

    import holdem
    from holdem import DuplicateCardError, InvalidCardError, parse_cards

    for text, error, match in (("Zz " * 3_000_000, InvalidCardError, "not a card: 'Zz'"),
                               ("Zz" * 4_500_000, InvalidCardError, "not a card: 'Zz'"),
                               ("As " * 3_000_000, DuplicateCardError, "As appears twice"),
                               ("2c 3c " + "Zz," * 3_000_000, InvalidCardError, "'Zz'")):
        for parse in (parse_cards, holdem.evaluate, holdem.cards_to_mask):
            tracemalloc.start()
            try:
                with pytest.raises(error, match=match):
                    parse(text)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            assert peak < 1_000_000, (parse, peak)
    assert len(parse_cards("As " * 60, unique=False)) == 60  # (without unique: every card)
