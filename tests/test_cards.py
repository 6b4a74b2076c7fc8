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
