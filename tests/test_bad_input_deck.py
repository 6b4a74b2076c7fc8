"""Bad-input suite: Deck (its methods and its pickles), deal_hands, hand_width, child_seed.
See tests/badinput.py for the contract and how each property runs in a child process."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from badinput import bounded, call, forged_pickle, rejected, run_in_child
from hypothesis import given
from hypothesis import strategies as st

INTS = st.one_of(st.integers(-3, 60), st.integers(-(2**70), 2**70),
                 st.sampled_from([2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -1]))
ODD = st.one_of(st.none(), st.floats(allow_nan=True), st.text(max_size=4),
                st.binary(max_size=3), st.booleans(), st.just([1, 2]))
CARDS = st.one_of(st.text(alphabet="23456789TJQKAcdhs ,", max_size=8),
                  st.lists(st.one_of(st.integers(-2, 55), st.text(max_size=3)), max_size=4),
                  ODD)


def _snapshot(deck: Any) -> bytes:
    return pickle.dumps(deck)


def _check(deck: Any) -> None:
    import holdem

    parts = [deck.cards_left, deck.dealt, deck.burned, deck.removed]
    every = [int(c) for part in parts for c in part]
    assert sorted(every) == list(range(52)), "cards are lost or doubled"
    assert len(deck) == len(deck.cards_left)
    assert all(isinstance(c, holdem.Card) for part in parts for c in part)


NO_ARGS: tuple[object, ...] = ()
OPS = st.lists(st.one_of(
    st.tuples(st.just("deal"), st.tuples(st.one_of(INTS, st.integers(0, 60), ODD))),
    st.tuples(st.sampled_from(["deal_one", "burn", "shuffle", "reset"]), st.just(NO_ARGS)),
    st.tuples(st.just("remove"), st.tuples(CARDS)),
    st.tuples(st.just("contains"), st.tuples(st.one_of(INTS, ODD, CARDS))),
), max_size=25)


@given(st.one_of(INTS, ODD), OPS)
@bounded(100)
def deck_methods(seed: object, ops: list[tuple[str, tuple[object, ...]]]) -> None:
    import holdem

    deck = call(holdem.Deck, seed, types=("seed",))
    if rejected(deck):
        assert not isinstance(seed, int) or isinstance(seed, bool)
        return
    assert seed is None or (isinstance(seed, int) and deck.seed == seed)
    for name, args in ops:
        before = _snapshot(deck)
        if name == "contains":
            got = call(deck.__contains__, *args)
            assert rejected(got) or isinstance(got, bool)
            assert _snapshot(deck) == before
            continue
        types = {"deal": ("n",), "remove": ("cards",)}.get(name, ())
        got = call(getattr(deck, name), *args, types=types)
        if rejected(got):
            assert _snapshot(deck) == before, f"rejected {name}{args!r} changed the deck"
        elif name == "deal":
            assert isinstance(got, tuple) and len(got) == args[0]
        _check(deck)
        copy = pickle.loads(pickle.dumps(deck))
        assert _snapshot(copy) == _snapshot(deck) and copy.cards_left == deck.cards_left


@st.composite
def deck_state(draw: st.DrawFn) -> tuple[Any, tuple[Any, ...]]:
    import holdem

    deck = holdem.Deck(seed=draw(st.integers(0, 2**64 - 1)))
    deck.deal(draw(st.integers(0, 10)))
    deck.burn()
    fn, args = deck.__reduce__()[:2]
    args = list(args)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(args) - 1))
        args[i] = draw(st.one_of(
            INTS, ODD, st.binary(min_size=50, max_size=54), st.lists(INTS, max_size=5),
            st.just(bytes(range(52))), st.just(bytes(52)), st.just(bytes([60] * 52)),
            st.tuples(INTS, INTS, INTS, INTS)))
    return fn, tuple(args)


@given(deck_state())
@bounded(150)
def deck_pickle(state: tuple[Any, tuple[Any, ...]]) -> None:
    fn, args = state
    deck = call(pickle.loads, forged_pickle(fn, args))
    if not rejected(deck):
        _check(deck)
        for name, arg in (("deal", 3), ("burn", None), ("shuffle", None), ("reset", None)):
            call(getattr(deck, name), *(() if arg is None else (arg,)))
            _check(deck)
        repr(deck)


@given(st.one_of(INTS, st.integers(0, 40), ODD), st.one_of(INTS, st.integers(0, 25), ODD),
       st.one_of(INTS, ODD), st.one_of(st.booleans(), ODD), st.one_of(INTS, ODD))
@bounded(150)
def deal_hands(n_hands: object, n_players: object, seed: object, burns: object,
               start: object) -> None:
    import holdem

    if isinstance(n_hands, int) and n_hands > 2000 and n_hands * 30 < 2**63:
        n_hands = -n_hands  # a real request that big only measures the machine's memory
    got = call(holdem.deal_hands, n_hands, n_players, seed=seed, burns=burns, start=start,
               types=("n_hands", "n_players", "seed", "start", "burns"))
    if rejected(got):
        return
    width = holdem.hand_width(n_players, burns=bool(burns))  # type: ignore[arg-type]
    assert len(got) == n_hands * width  # type: ignore[operator]
    for i in range(0, len(got), width):
        assert len(set(got[i:i + width])) == width and max(got[i:i + width], default=0) < 52


@st.composite
def out_buffers(draw: st.DrawFn) -> tuple[int, int, object]:
    import numpy as np

    n_players = draw(st.integers(1, 23))
    burns = n_players <= 22 and draw(st.booleans())
    width = 2 * n_players + 5 + (3 if burns else 0)
    n_hands = draw(st.one_of(
        st.integers(0, 6),
        # sizes whose byte count n_hands * width wraps around 2**64 or 2**63
        st.integers(1, 3).map(lambda k: 2**64 // width + k),
        st.integers(1, 3).map(lambda k: 2**63 // width + k),
        st.sampled_from([2**62, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**65]),
    ))
    rows = draw(st.integers(0, 6))
    kind = draw(st.sampled_from(["2d", "flat", "bytearray", "bytes", "int16", "readonly",
                                 "fortran", "strided", "3d"]))
    arr = np.zeros((rows, width), dtype=np.uint8)
    out: object = arr
    if kind == "flat":
        out = arr.reshape(-1)
    elif kind == "bytearray":
        out = bytearray(rows * width)
    elif kind == "bytes":
        out = bytes(rows * width)
    elif kind == "int16":
        out = arr.astype(np.int16)
    elif kind == "readonly":
        arr.flags.writeable = False
    elif kind == "fortran":
        out = np.asfortranarray(np.zeros((rows, width + 1), dtype=np.uint8))
    elif kind == "strided":
        out = np.zeros((rows, 2 * width), dtype=np.uint8)[:, ::2]
    elif kind == "3d":
        out = arr.reshape(1, rows, width)
    return n_hands, n_players, (burns, out)


@given(out_buffers(), st.integers(0, 2**64 - 1))
@bounded(150)
def deal_hands_out(case: tuple[int, int, Any], seed: int) -> None:
    import numpy as np

    import holdem

    n_hands, n_players, (burns, out) = case
    def contents(buf: object) -> bytes:
        return np.array(buf, copy=True).tobytes() if isinstance(buf, np.ndarray) else \
            bytes(buf)  # type: ignore[call-overload]

    before = contents(out)
    got = call(holdem.deal_hands, n_hands, n_players, seed=seed, burns=burns, out=out)
    if rejected(got):
        assert contents(out) == before, "a rejected deal_hands wrote to out"
        return
    assert got is out
    want = holdem.deal_hands(n_hands, n_players, seed=seed, burns=burns)
    assert contents(out) == bytes(want)


@given(st.one_of(INTS, ODD), st.one_of(st.booleans(), ODD), st.one_of(INTS, ODD),
       st.one_of(INTS, ODD))
@bounded(100)
def widths_and_seeds(n_players: object, burns: object, seed: object, index: object) -> None:
    import holdem

    got = call(holdem.hand_width, n_players, burns=burns, types=("n_players", "burns"))
    if not rejected(got):
        assert isinstance(n_players, int) and got == 2 * n_players + 5 + (3 if burns else 0)
    got = call(holdem.child_seed, seed, index, types=("seed", "index"))
    if not rejected(got):
        assert isinstance(got, int) and 0 <= got < 2**64


@pytest.mark.parametrize("field,value", [(1, 0), (1, (1, 2, 3, "4")), (1, (-1, 0, 0, 0)),
                                         (2, list(range(52))), (3, "0"), (3, 52.0),
                                         (4, "x" * 52), (0, None), (5, 1)])
def test_deck_pickle_with_a_field_of_the_wrong_type(field: int, value: object) -> None:
    # Found by this suite: a pickled Deck with a field of the wrong type raised TypeError or
    # OverflowError from the unpickler instead of DeckError.
    import holdem

    fn, args = holdem.Deck(seed=3).__reduce__()[:2]
    args = list(args)
    args[field] = value
    with pytest.raises(holdem.DeckError, match="not a valid pickled Deck state"):
        pickle.loads(forged_pickle(fn, tuple(args)))
    assert pickle.loads(forged_pickle(*holdem.Deck(seed=3).__reduce__())).deal(2) == \
        holdem.Deck(seed=3).deal(2)


def test_deal_hands_beyond_the_machines_memory_is_refused_before_allocating(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """deal_hands(10**12, 6) asked for 20 TB and raised a bare MemoryError(''): the rows'
    bytes are counted first and refused beyond the machine's memory (an out= buffer given
    is the caller's: nothing is allocated then)."""
    import holdem
    from holdem import _memory

    with pytest.raises(holdem.InvalidConfigError,
                       match=r"^deal_hands: 1,000,000,000,000 hands of 20 cards would take "
                             r"about 20,000,000,000,000 bytes, more than this machine's "):
        holdem.deal_hands(10**12, 6, seed=1)
    monkeypatch.setattr(_memory, "physical_memory", lambda: 10**6)
    with pytest.raises(holdem.InvalidConfigError,
                       match=r"^deal_hands: 50,001 hands of 20 cards would take about "
                             r"1,000,020 bytes, more than this machine's 1,000,000 bytes of "
                             r"memory: deal fewer hands per call \(start= deals the next "
                             r"ones\), or pass out="):
        holdem.deal_hands(50_001, 6, seed=1)
    assert len(holdem.deal_hands(50_000, 6, seed=1)) == 10**6
    out = bytearray(50_001 * 20)
    assert holdem.deal_hands(50_001, 6, seed=1, out=out) is out


@pytest.mark.parametrize("prop", ["deck_methods", "deck_pickle", "deal_hands",
                                  "deal_hands_out", "widths_and_seeds"])
def test_in_child(prop: str) -> None:
    run_in_child(__file__, prop)
