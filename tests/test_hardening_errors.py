"""The error contract. Bad values raise a HoldemError naming what was
wrong and what is allowed (never IndexError, OverflowError, RecursionError or int()'s
digit-limit ValueError); wrong Python types stay TypeError naming the parameter."""

from __future__ import annotations

import pytest

from holdem import (
    Action,
    ActionType,
    Game,
    HoldemError,
    IllegalActionError,
    InvalidActionError,
    InvalidConfigError,
    InvalidHistoryError,
    InvalidSeatError,
    phh,
    replay,
)
from holdem._shown import EXCERPT_CHARS, excerpt, shown
from holdem.hand.actions import MAX_CHIPS
from holdem.hand.game import COMPILED, HandState, ReferenceHandState

CORES = [HandState, ReferenceHandState]
HUGE = 10**5000  # int() of its text and repr() of it both fail in Python


def _id(v: object) -> str:
    if isinstance(v, int) and v.bit_length() > 200:
        return f"{v.bit_length()}bits"
    text = repr(v)
    return text if len(text) < 30 else f"{text[:12]}...({len(text)})"


def hand(cls: type) -> object:
    if cls is HandState and not COMPILED:
        pytest.skip("the compiled core is not built")
    return cls._start(Game(big_blind=2), [100, 100, 100], 0, 1, None, None)


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
@pytest.mark.parametrize("seat", [84, -26, 3, -1, 2**64, -(2**64), HUGE], ids=_id)
def test_error_contract_status_seat_out_of_range(cls: type, seat: int) -> None:
    st = hand(cls)
    with pytest.raises(InvalidSeatError, match=r"out of range: this hand has seats 0\.\.2"):
        st.status(seat)  # type: ignore[attr-defined]
    with pytest.raises(IndexError):  # InvalidSeatError is also an IndexError
        st.status_code(seat)  # type: ignore[attr-defined]


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
@pytest.mark.parametrize("seat", ["1", 1.0, None, b"1"], ids=_id)
def test_error_contract_status_wrong_type_names_the_parameter(cls: type, seat: object) -> None:
    with pytest.raises(TypeError, match="seat must be an int"):
        hand(cls).status(seat)  # type: ignore[attr-defined]


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
@pytest.mark.parametrize("seat", ["0", 0.0, True, False, b"0", [0]], ids=_id)
def test_error_contract_acting_seat_wrong_type_names_the_parameter(cls: type,
                                                                   seat: object) -> None:
    """``apply(..., seat=)`` names the seat that must be acting (R16: players act in turn):
    an int seat number. Another type is bad input (a HoldemError naming the parameter and
    what it must be): never taken for seat 0 (``True``, ``0.0``), never an out-of-turn
    error that contradicts itself ("seat '0' acted out of turn: seat 0 is to act"). The
    state is unchanged."""
    st = hand(cls)
    before = st.clone()  # type: ignore[attr-defined]
    assert st.actor == 0  # type: ignore[attr-defined]
    with pytest.raises(InvalidActionError, match="seat must be an int seat number"):
        st.call(seat=seat)  # type: ignore[attr-defined]
    with pytest.raises(InvalidActionError, match="seat must be an int seat number"):
        st.apply("cc", seat=seat)  # type: ignore[attr-defined]
    assert st == before
    st.call(seat=0)  # type: ignore[attr-defined]
    assert st.actor == 1  # type: ignore[attr-defined]


def test_error_contract_invalid_seat_error_is_a_holdem_error() -> None:
    assert issubclass(InvalidSeatError, HoldemError) and issubclass(InvalidSeatError, IndexError)


@pytest.mark.parametrize("field", ["big_blind", "small_blind", "ante", "max_raises"])
@pytest.mark.parametrize("value", [MAX_CHIPS + 1, 2**63, 2**64, HUGE], ids=_id)
def test_error_contract_game_fields_above_the_chip_limit(field: str, value: int) -> None:
    kwargs: dict[str, object] = {"big_blind": 35, field: value}
    if field == "small_blind":
        kwargs["big_blind"] = MAX_CHIPS
    if field == "max_raises":  # used by fixed limit only
        from holdem import Structure

        kwargs["structure"] = Structure.FIXED_LIMIT
    with pytest.raises(InvalidConfigError, match=r"(engine's limit of 2\*\*53|above the big)"):
        Game(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["small_bet", "big_bet"])
def test_error_contract_fixed_limit_bets_above_the_chip_limit(field: str) -> None:
    from holdem import Structure

    kwargs: dict[str, object] = {"structure": Structure.FIXED_LIMIT, "big_blind": 2, field: 2**64}
    with pytest.raises(InvalidConfigError):
        Game(**kwargs)  # type: ignore[arg-type]


def test_error_contract_game_at_the_limit_plays() -> None:
    g = Game(big_blind=MAX_CHIPS // 4, ante=1)
    st = g.new_hand([MAX_CHIPS, MAX_CHIPS], seed=1)
    st.all_in()
    st.call()
    assert sum(st.result.final_stacks) == 2 * MAX_CHIPS


@pytest.mark.parametrize("stack", [MAX_CHIPS + 1, 2**63, 2**64, HUGE], ids=_id)
def test_error_contract_new_hand_stack_above_the_limit(stack: int) -> None:
    with pytest.raises(InvalidConfigError, match=r"2\*\*53"):
        Game(big_blind=2).new_hand([100, stack], seed=1)


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
@pytest.mark.parametrize("to", [MAX_CHIPS + 1, 2**63, 2**64, HUGE], ids=_id)
def test_error_contract_apply_amount_above_the_limit(cls: type, to: int) -> None:
    st = hand(cls)
    with pytest.raises(InvalidActionError, match=r"2\*\*53"):
        st.apply((ActionType.BET_RAISE, to))  # type: ignore[attr-defined]
    with pytest.raises(InvalidActionError, match=r"2\*\*53"):
        Action.raise_to(to)


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
@pytest.mark.parametrize("text", [
    "p" + "9" * 5000 + " cbr 10", "p1 cbr " + "9" * 5000, "cbr " + "9" * 5000,
    "p" + "1" * 40 + " f", "p1 cbr 99999999999999999999", "cbr ٣",
], ids=_id)
def test_error_contract_action_text_with_huge_numbers(cls: type, text: str) -> None:
    st = hand(cls)
    before = st._getstate() if hasattr(st, "_getstate") else st.__getstate__()  # type: ignore[attr-defined]
    with pytest.raises(InvalidActionError):
        st.apply(text)  # type: ignore[attr-defined]
    after = st._getstate() if hasattr(st, "_getstate") else st.__getstate__()  # type: ignore[attr-defined]
    assert after == before


def test_error_contract_in_range_amount_is_still_illegal_not_invalid() -> None:
    st = Game(big_blind=2).new_hand([100, 100], seed=1)
    with pytest.raises(IllegalActionError, match="above the maximum"):
        st.apply("p1 cbr 5000")


PHH = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [{stacks}]
actions = [{actions}]
"""


@pytest.mark.parametrize(("stacks", "actions"), [
    ("100, 100", "'d dh p1 AsAh', 'd dh p2 KdKc', 'p" + "9" * 5000 + " cbr 10'"),
    ("100, 100", "'d dh p1 AsAh', 'd dh p2 KdKc', 'p1 cbr " + "9" * 5000 + "'"),
    ("100, 100", "'d dh p1 AsAh', 'd dh p2 KdKc', 'p1 cbr 99999999999999999999.5'"),
    ("100, " + "9" * 5000, "'d dh p1 AsAh'"),
    ("100, 9" + "0" * 30, "'d dh p1 AsAh'"),
], ids=_id)
def test_error_contract_phh_with_huge_numbers(stacks: str, actions: str) -> None:
    with pytest.raises(HoldemError) as info:
        replay(phh.loads(PHH.format(stacks=stacks, actions=actions)))
    assert "4300" not in str(info.value) or "2**53" in str(info.value)


@pytest.mark.parametrize("depth", [2000, 100_000])
def test_error_contract_phh_nested_too_deeply(depth: int) -> None:
    text = "variant = 'NT'\nx = " + "[" * depth + "]" * depth + "\n"
    with pytest.raises(InvalidHistoryError, match="nested too deeply"):
        phh.loads(text)
    inline = "variant = 'NT'\nx = " + "{a = " * depth + "1" + "}" * depth + "\n"
    with pytest.raises(InvalidHistoryError, match="nested too deeply"):
        phh.loads(inline)


@pytest.mark.parametrize("cls", CORES, ids=["compiled", "reference"])
def test_error_contract_huge_ints_in_messages(cls: type) -> None:
    """A value too long for int -> str (over 4300 digits) still gets its HoldemError: the
    message shows it shortened instead of failing while it is formatted."""
    from holdem import Deck, ExtraPost, child_seed, deal_hands

    st = hand(cls)
    calls = [
        lambda: st.apply("f", seat=HUGE),  # type: ignore[attr-defined]
        lambda: st.apply((ActionType.RAISE, HUGE)),  # type: ignore[attr-defined]
        lambda: st.apply((HUGE, 5)),  # type: ignore[attr-defined]
        lambda: st.apply(-HUGE),  # type: ignore[attr-defined]
        lambda: Action.from_int(-HUGE),
        lambda: Game(big_blind=2).new_hand([100, 100, 100], seed=1,
                                           extra_posts=[ExtraPost(2, HUGE, 0)]),
        lambda: Game(big_blind=2).new_hand([100, 100, 100], button=HUGE, seed=1),
        lambda: Game(big_blind=2).new_hand([100, -HUGE], seed=1),
        lambda: Deck(seed=1).deal(HUGE),
        lambda: Deck(seed=1).deal(-HUGE),
        lambda: deal_hands(HUGE, 6, seed=1),
        lambda: deal_hands(1, HUGE, seed=1),
        lambda: deal_hands(1, 6, seed=1, start=HUGE),
        lambda: child_seed(1, HUGE),
    ]
    for i, call in enumerate(calls):
        with pytest.raises(HoldemError) as info:
            call()
        text = str(info.value)
        assert "bits" in text or "digits" in text or "too large" in text, (i, text)


@pytest.mark.parametrize(("kind", "to"), [(2, 2**64), (2, -(2**64)), (2**64, 0), (-(2**40), 0),
                                          # a float NaN raised a plain ValueError
                                          (2, float("nan")), (float("nan"), 0)],
                         ids=_id)
def test_error_contract_apply_unchecked_values_beyond_c_integers(kind: int, to: int) -> None:
    st = hand(HandState)
    before = st._getstate()  # type: ignore[attr-defined]
    with pytest.raises(InvalidActionError, match=r"2\*\*53"):
        st.apply_unchecked(kind, to)  # type: ignore[attr-defined]
    assert st._getstate() == before  # type: ignore[attr-defined]



def test_a_text_of_exactly_excerpt_chars_is_quoted_whole() -> None:
    text = "x" * EXCERPT_CHARS
    assert excerpt(text) == repr(text)
    assert excerpt(text, quote=False) == text
    assert excerpt(text + "y") == f"{text!r}... ({EXCERPT_CHARS + 1:,} characters)"


def test_an_int_past_256_bits_is_described_not_printed() -> None:
    assert shown(2**300) == "an int of 301 bits"
    assert shown(2**256 - 1) == repr(2**256 - 1) and shown(-(2**256)) == "an int of 257 bits"
