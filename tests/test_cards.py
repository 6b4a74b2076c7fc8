import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import holdem
from holdem import CARDS, Card, DuplicateCardError, InvalidCardError, parse_cards
from holdem.cards import cards_to_mask, format_cards, mask_to_cards, to_card_ids


def test_ids_are_4_rank_plus_suit() -> None:
    assert int(Card("2c")) == 0
    assert int(Card("2d")) == 1
    assert int(Card("2h")) == 2
    assert int(Card("2s")) == 3
    assert int(Card("3c")) == 4
    assert int(Card("As")) == 51
    assert [str(c) for c in CARDS[:5]] == ["2c", "2d", "2h", "2s", "3c"]
    assert all(int(c) == i for i, c in enumerate(CARDS))


@pytest.mark.parametrize("text", ["Td", "td", "TD", "10d", "10D", " Td "])
def test_ten_spellings(text: str) -> None:
    assert Card(text) is Card("Td")


def test_repr_pastes_back() -> None:
    for c in CARDS:
        assert eval(repr(c), {"Card": Card}) is c
        assert Card(str(c)) is c


def test_card_is_an_int_and_shared() -> None:
    c = Card("As")
    assert isinstance(c, int)
    assert Card(51) is c and Card(c) is c
    assert c.rank == 12 and c.suit == 3 and c.name == "Ace of Spades"
    assert pickle.loads(pickle.dumps(c)) is c
    assert sorted([Card("As"), Card("2c"), Card("Kd")]) == [Card("2c"), Card("Kd"), Card("As")]


@pytest.mark.parametrize("text", ["AsKd", "As Kd", "As,Kd", "as kd", "AS, KD", " As  Kd "])
def test_parse_separators(text: str) -> None:
    assert parse_cards(text) == (Card("As"), Card("Kd"))


def test_parse_mixed_iterable() -> None:
    assert parse_cards(["As", 47, Card("Qh")]) == (Card("As"), Card("Ks"), Card("Qh"))
    assert to_card_ids("2c 3c") == [0, 4]


@pytest.mark.parametrize("bad", ["", "A", "Ax", "1s", "11s", "Zs", "AsK", "As Kd x", "♠A"])
def test_bad_strings_name_the_text(bad: str) -> None:
    with pytest.raises(InvalidCardError):
        parse_cards(bad) if bad.strip() else Card(bad)


def test_bad_card_message_names_offender() -> None:
    with pytest.raises(InvalidCardError, match="'Xs'"):
        Card("Xs")
    with pytest.raises(InvalidCardError, match="52"):
        Card(52)
    with pytest.raises(InvalidCardError):
        Card(-1)
    with pytest.raises(InvalidCardError):
        Card(True)
    with pytest.raises(InvalidCardError):
        Card(1.0)  # type: ignore[arg-type]


def test_from_int_refuses_text() -> None:
    # Card.from_int('2C') used to return the card the text names (it fell through to Card());
    # text belongs to from_str/parse_card, so from_int refuses it and points there.
    assert Card.from_int(0) is Card("2c") and Card.from_int(Card("As")) is Card("As")
    for text in ("2C", "As", "51", ""):
        with pytest.raises(InvalidCardError, match="from_str"):
            Card.from_int(text)  # type: ignore[arg-type]
    with pytest.raises(InvalidCardError):
        Card.from_int(52)


def test_duplicates() -> None:
    with pytest.raises(DuplicateCardError, match="As"):
        parse_cards("As Kd as")
    assert parse_cards("As As", unique=False) == (Card("As"), Card("As"))
    assert issubclass(DuplicateCardError, ValueError)
    # unique is True or False: None (or 0, "no") was read by its truth and let repeats through
    for bad in (None, 0, 1, "no", 2.0):
        with pytest.raises(holdem.InvalidConfigError, match="unique must be True or False"):
            parse_cards("As As", unique=bad)  # type: ignore[arg-type]
        with pytest.raises(holdem.InvalidConfigError, match="unique must be True or False"):
            to_card_ids("As Kd", unique=bad)  # type: ignore[arg-type]


def test_masks() -> None:
    m = cards_to_mask("2c As")
    assert m == 1 | 1 << 51
    assert mask_to_cards(m) == (Card("2c"), Card("As"))
    with pytest.raises(InvalidCardError):
        mask_to_cards(1 << 52)
    assert format_cards([51, 46]) == "As Kh"


@given(st.lists(st.integers(0, 51), unique=True, max_size=52))
def test_round_trip(ids: list[int]) -> None:
    text = format_cards(ids)
    assert [int(c) for c in parse_cards(text)] == ids
    assert [int(c) for c in parse_cards(text.replace(" ", ""))] == ids


@given(st.text(max_size=8))
def test_fuzz_rejections_are_value_errors(text: str) -> None:
    try:
        parse_cards(text)
    except ValueError as e:
        assert isinstance(e, holdem.HoldemError)


def test_a_megabyte_of_text_is_quoted_short() -> None:
    """The message used to quote the whole text (a megabyte)."""
    with pytest.raises(InvalidCardError) as info:
        Card("x" * 1_000_000)
    assert str(info.value) == (f"not a card: {'x' * 80!r}... (1,000,000 characters) (a rank "
                               "2-9, T (or 10), J, Q, K, A then a suit c, d, h, s)")
    with pytest.raises(DuplicateCardError) as dup:
        parse_cards("As " * 500_000)
    assert str(dup.value) == (f"duplicate card: As appears twice in {'As ' * 26 + 'As'!r}... "
                              "(1,500,000 characters)")
    with pytest.raises(InvalidCardError, match=r"^not a card: 'Ax' \(a rank"):
        parse_cards("Ax")  # short text: quoted whole, as before


HUGE = 10**5000  # more digits than Python turns into text (int max str digits: 4300)


class _RefusingIndex:
    """Has ``__index__`` but refuses it, as a numpy array that is not an integer scalar does."""

    def __index__(self) -> int:
        raise TypeError("only integer scalar arrays can be converted to a scalar index")


@pytest.mark.parametrize("value", [HUGE, -HUGE, [HUGE]], ids=["huge", "-huge", "[huge]"])
def test_a_huge_int_is_refused_as_a_card_error(value: object) -> None:
    """The message quoted the int and failed with a bare ValueError ("Exceeds the limit (4300
    digits) for integer string conversion"), not an InvalidCardError."""
    for fn in (Card, Card.from_int, lambda v: parse_cards([v]), lambda v: format_cards([v]),
               lambda v: cards_to_mask([v])):
        with pytest.raises(InvalidCardError, match=r"bits|too large to print"):
            fn(value)


def test_an_index_that_refuses_is_not_a_card() -> None:
    """A numpy array that is not an integer scalar has ``__index__`` but refuses it: Card()
    let numpy's TypeError through (naming no argument) instead of an InvalidCardError."""
    np = pytest.importorskip("numpy")
    for value in (_RefusingIndex(), np.array(5.0), np.arange(3), np.array([5])):
        with pytest.raises(InvalidCardError, match="not a card"):
            Card(value)  # type: ignore[arg-type]
        with pytest.raises(InvalidCardError, match="not a card"):
            Card.from_int(value)  # type: ignore[arg-type]
    assert Card(np.array(51)) is Card("As")  # an integer scalar array is a card id


def test_mask_to_cards_takes_int_like_masks() -> None:
    """Any int-like mask, as Card() and category() take numpy ints; a huge bad mask is
    described in a short message."""
    np = pytest.importorskip("numpy")
    m = cards_to_mask("2c As")
    assert mask_to_cards(np.uint64(m)) == mask_to_cards(np.int64(m)) == (Card("2c"), Card("As"))
    for bad in (True, 1.0, "3", None, _RefusingIndex()):
        with pytest.raises(TypeError, match="mask"):
            mask_to_cards(bad)  # type: ignore[arg-type]
    for huge in (1 << 100_000, -(1 << 100_000)):
        with pytest.raises(InvalidCardError) as info:
            mask_to_cards(huge)
        assert len(str(info.value)) < 100 and "100001 bits" in str(info.value)
    with pytest.raises(InvalidCardError, match="0x10000000000000"):
        mask_to_cards(1 << 52)


def test_format_cards_reads_text() -> None:
    """Text used to be read one character at a time: "not a card: 'A'" for "AsKd"."""
    assert format_cards("ah10D,2c") == "Ah Td 2c"
    assert format_cards("AsKd", sep="") == "AsKd"
    assert format_cards("As As") == "As As"  # formatting does not ask for distinct cards
    assert format_cards("") == ""
    with pytest.raises(InvalidCardError, match="'Kx'"):
        format_cards("As Kx")


def test_parse_cards_unique_finds_a_repeat_among_the_first_53_of_a_long_list():
    # 52 distinct cards then a repeat: the 53rd card is a repeat whatever follows, so
    # unique=True must raise even though more items come after it
    cards = [*CARDS, CARDS[0], CARDS[1]]
    with pytest.raises(DuplicateCardError, match="2c"):
        parse_cards(cards)
    with pytest.raises(DuplicateCardError, match="2c"):
        parse_cards(tuple(cards))
    assert len(parse_cards(cards, unique=False)) == 54


def test_cards_to_mask_refuses_a_repeated_card():
    # a mask is a set of cards, read as parse_cards reads them (unique by default)
    with pytest.raises(DuplicateCardError):
        cards_to_mask("As As")
    with pytest.raises(DuplicateCardError):
        cards_to_mask([51, 51])
    assert cards_to_mask("As") == 1 << 51
