"""Live dealing and dealer errors (RULES.md R11-R14, R38-R42; seed 001 "Errores del Repartidor").

The expected cards in the rule tests are written out by hand from the stacked deck and the
rule text. Reshuffles use a test shuffle that sorts the cards (ascending or descending by card
id, 2c lowest, As highest), so the order after a reshuffle is known without running the code
under test.

The stacked deck ``DECK_A`` (top first) is the sixteen cards below, then the other 36 in id
order (2c 2d 2h 2s 3c ... 9s Tc Jc Qc Kc). Three players, button seat 0: seat 1 posts the small
blind, seat 2 the big blind, seat 1 is dealt first (R12), seat 0 acts first preflop (R16).

=====  ====  ======================  ===========================================
index  card  normal deal             note
=====  ====  ======================  ===========================================
0..5   Ks Qs Js Ts Kh Qh            p0 Ks s1, p1 Qs s2, p2 Js s0, p3 Ts s1, p4 Kh s2, p5 Qh s0
6      Jh    flop burn
7..9   Th Kd Qd   flop
10     Jd    turn burn
11     As    turn
12     Td    river burn
13     Ah    river
14,15  Ad Ac
=====  ====  ======================  ===========================================
"""

from __future__ import annotations

import doctest
import random
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import holdem
import holdem.live.events
import holdem.live.hand
from holdem import (
    CARDS,
    Card,
    CardExposed,
    DealerError,
    DeckError,
    DuplicateCardError,
    ExtraCards,
    Game,
    IllegalActionError,
    InvalidEventError,
    InvalidStateError,
    LiveHand,
    OverdealtFlop,
    PrematureFlop,
    PrematureRiver,
    PrematureTurn,
    Street,
    parse_cards,
)

GAME = Game(big_blind=2)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def stacked(top: str) -> list[Card]:
    head = list(parse_cards(top))
    return head + [c for c in CARDS if c not in head]


DECK_A = stacked("Ks Qs Js Ts Kh Qh Jh Th Kd Qd Jd As Td Ah Ad Ac")


def ascending(cs: tuple[Card, ...]) -> list[Card]:
    return sorted(cs)


def descending(cs: tuple[Card, ...]) -> list[Card]:
    return sorted(cs, reverse=True)


def live(shuffle: Callable[[tuple[Card, ...]], Iterable[Card]] | None = ascending,
         n: int = 3, deck: list[Card] = DECK_A) -> LiveHand:
    return LiveHand(GAME, [100] * n, button=0, deck=deck, seed=0, shuffle=shuffle)


def check_down(hand: LiveHand, until: Street | None = None) -> None:
    """Everyone checks or calls until the hand is over (or the street ``until`` is reached)."""
    while not hand.is_terminal() and (until is None or hand.street != until):
        hand.check_or_call()
        assert hand.accounting().is_complete()


def snapshot(hand: LiveHand) -> tuple[object, ...]:
    return (hand.accounting(), hand.history, hand.rulings, hand.state, hand.misdeals,
            hand.is_dealing(), hand.possible_events())


# ---------------------------------------------------------------------- the contract used
def test_state_contract_missing_board_cards_raise_and_leave_the_state_unchanged() -> None:
    """What LiveHand relies on (documented in Game.new_hand): a hand given fewer than five
    board cards raises InvalidHandError when an action needs the next street, and the state
    is then unchanged; the same actions replay on a hand given more cards."""
    state = GAME.new_hand([100, 100], button=0, hole_cards=["AsAh", "KsKh"], board=())
    state.call()
    before = state.clone()
    with pytest.raises(holdem.InvalidHandError):
        state.check()
    assert state == before and state.street == Street.PREFLOP
    again = GAME.new_hand([100, 100], button=0, hole_cards=["AsAh", "KsKh"], board="2c3c4c")
    again.call()
    again.check()
    assert again.street == Street.FLOP and again.board == cards("2c 3c 4c")


# ---------------------------------------------------------------------- the normal deal
def test_r11_r14_normal_deal_off_a_stacked_deck() -> None:
    hand = live()
    assert hand.first_seat_dealt == 1
    assert hand.hole_cards == (cards("Js Qh"), cards("Ks Ts"), cards("Qs Kh"))
    check_down(hand)
    assert hand.board == cards("Th Kd Qd As Ah")
    assert hand.burns == cards("Jh Jd Td")
    assert hand.accounting().deck[:2] == cards("Ad Ac")
    assert hand.rulings == ()


def test_r12_heads_up_run_out_deals_with_burns() -> None:
    hand = LiveHand(GAME, [1, 2], button=0, deck=DECK_A, seed=0)  # both all in from the blinds
    # heads-up the button (seat 0) is the small blind; seat 1 is dealt first
    assert hand.hole_cards == (cards("Qs Ts"), cards("Ks Js"))
    assert hand.is_terminal() and not hand.is_dealing()
    assert hand.board == cards("Qh Jh Th Qd As")
    assert hand.burns == cards("Kh Kd Jd")


# ---------------------------------------------------------------------- R38
def test_r38_first_card_exposed_is_a_misdeal() -> None:
    hand = live(descending)
    ruling = hand.report(CardExposed(0))
    assert ruling.rule == "R38" and "misdeal" in ruling.text
    assert hand.misdeals == 1 and hand.is_dealing()
    # all 52 collected, reshuffled (descending: As Ah Ad Ac Ks Kh Kd Kc Qs Qh Qd Qc Js Jh ...)
    # and dealt again from seat 1: As s1, Ah s2, Ad s0, Ac s1, Ks s2, Kh s0
    assert hand.hole_cards == (cards("Ad Kh"), cards("As Ac"), cards("Ah Ks"))
    assert hand.burns == () and hand.board == ()
    check_down(hand)
    assert hand.burns == cards("Kd Qd Js")
    assert hand.board == cards("Kc Qs Qh Qc Jh")


# ---------------------------------------------------------------------- R39
def test_r39_one_exposed_card_is_replaced_and_burned() -> None:
    hand = live()
    ruling = hand.report(CardExposed(3))  # Ts, seat 1's second card
    assert ruling.rule == "R39"
    # the deal goes on; the top card (Jh) replaces Ts, Ts is the burn card
    assert hand.hole_cards == (cards("Js Qh"), cards("Ks Jh"), cards("Qs Kh"))
    assert hand.burns == cards("Ts")
    check_down(hand)
    assert hand.board == cards("Th Kd Qd As Ah")  # no second burn before the flop
    assert hand.burns == cards("Ts Jd Td")
    assert hand.misdeals == 0


def test_r39_two_exposed_cards_are_a_misdeal() -> None:
    hand = live(ascending)
    hand.report(CardExposed(3))
    ruling = hand.report(CardExposed(4))
    assert ruling.rule == "R39" and "misdeal" in ruling.text
    assert hand.misdeals == 1
    # reshuffled ascending: 2c 2d 2h 2s 3c 3d ...; dealt from seat 1
    assert hand.hole_cards == (cards("2h 3d"), cards("2c 2s"), cards("2d 3c"))
    assert hand.burns == ()
    check_down(hand)
    assert hand.burns == cards("3h 4h 5c")
    assert hand.board == cards("3s 4c 4d 4s 5d")


# ---------------------------------------------------------------------- R40
def test_r40_flop_before_the_betting_ended_is_redealt_without_burn() -> None:
    hand = live(ascending)
    hand.call()  # seat 0; seats 1 and 2 still to act
    ruling = hand.report(PrematureFlop())
    assert ruling.rule == "R40"
    # the burn (Jh) stays; Th Kd Qd go back into the deck, which is reshuffled (ascending)
    assert hand.burns == cards("Jh") and hand.board == ()
    assert hand.street == Street.PREFLOP and hand.actor == 1
    hand.call()
    hand.check()
    assert hand.board == cards("2c 2d 2h")  # new flop, no burn
    assert hand.burns == cards("Jh")
    check_down(hand)
    assert hand.board == cards("2c 2d 2h 3c 3h")
    assert hand.burns == cards("Jh 2s 3d")
    assert {Card("Th"), Card("Kd"), Card("Qd")} <= set(hand.accounting().deck)


def test_r40_flop_with_too_many_cards_is_redealt_without_burn() -> None:
    hand = live(descending)
    check_down(hand, Street.FLOP)
    assert hand.board == cards("Th Kd Qd") and hand.burns == cards("Jh")
    ruling = hand.report(OverdealtFlop(4))  # Th Kd Qd and Jd turned
    assert ruling.rule == "R40"
    # all four shuffled back (descending): As Ah Ad Ac Kd Kc Qd ...; the burn Jh stays
    assert hand.board == cards("As Ah Ad")
    assert hand.burns == cards("Jh")
    check_down(hand)
    assert hand.board == cards("As Ah Ad Kd Qd")
    assert hand.burns == cards("Jh Ac Kc")


def test_r40_premature_flop_after_an_r39_burn_takes_no_second_burn() -> None:
    hand = live(ascending)
    hand.report(CardExposed(3))  # Ts burned, Jh replaces it
    hand.call()
    hand.report(PrematureFlop())  # Th Kd Qd turned without a burn (Ts is on the table)
    assert hand.burns == cards("Ts") and hand.board == ()
    hand.call()
    hand.check()
    assert hand.board == cards("2c 2d 2h") and hand.burns == cards("Ts")


# ---------------------------------------------------------------------- R41
def test_r41_turn_dealt_too_early() -> None:
    hand = live(descending)
    check_down(hand, Street.FLOP)
    hand.check()  # seat 1; seats 2 and 0 still to act on the flop
    ruling = hand.report(PrematureTurn())
    assert ruling.rule == "R41"
    # burn Jd, the premature turn As is set aside
    assert hand.set_aside == cards("As") and hand.burns == cards("Jh Jd")
    assert hand.board == cards("Th Kd Qd")
    hand.check()
    hand.check()
    # the dealer burns (Td) and turns what would have been the river (Ah) as the turn
    assert hand.board == cards("Th Kd Qd Ah") and hand.burns == cards("Jh Jd Td")
    check_down(hand)
    # reshuffle with the set-aside As, burns excluded (descending: As on top); no burn
    assert hand.board == cards("Th Kd Qd Ah As")
    assert hand.burns == cards("Jh Jd Td")
    assert hand.set_aside == ()


def test_r41_turn_set_aside_even_if_the_others_fold() -> None:
    hand = live(descending)
    check_down(hand, Street.FLOP)
    hand.bet(10)  # seat 1
    hand.report(PrematureTurn())
    hand.fold()
    hand.fold()
    assert hand.is_terminal() and hand.payoffs == (-2, 4, -2)
    assert hand.board == cards("Th Kd Qd") and hand.set_aside == cards("As")
    assert hand.burns == cards("Jh Jd")
    assert hand.accounting().is_complete()


def test_r41_river_dealt_too_early() -> None:
    hand = live(ascending)
    check_down(hand, Street.TURN)
    assert hand.board == cards("Th Kd Qd As")
    hand.check()  # seat 1
    ruling = hand.report(PrematureRiver())
    assert ruling.rule == "R41"
    assert hand.set_aside == cards("Ah") and hand.burns == cards("Jh Jd Td")
    check_down(hand)
    # the rest of the deck reshuffled with Ah (ascending: 2c on top), river without a burn
    assert hand.board == cards("Th Kd Qd As 2c")
    assert hand.burns == cards("Jh Jd Td")
    assert Card("Ah") in hand.accounting().deck


def test_r41_turn_and_river_both_early() -> None:
    hand = live(descending)
    check_down(hand, Street.FLOP)
    hand.check()
    hand.report(PrematureTurn())  # burn Jd, As set aside
    check_down(hand, Street.TURN)
    assert hand.board == cards("Th Kd Qd Ah")  # burn Td, the would-be river Ah as the turn
    hand.check()
    hand.report(PrematureRiver())  # burn Ad, Ac set aside
    assert hand.set_aside == cards("As Ac") and hand.burns == cards("Jh Jd Td Ad")
    check_down(hand)
    # reshuffled with both set-aside cards (descending: As on top), no burn
    assert hand.board == cards("Th Kd Qd Ah As")
    assert hand.burns == cards("Jh Jd Td Ad")
    assert hand.set_aside == () and Card("Ac") in hand.accounting().deck


def test_r40_overdealt_flop_after_a_premature_turn_is_refused() -> None:
    """R40/R41: an overdealt flop shuffles the flop cards and the extra ones back; a premature
    turn burns and sets aside the next two cards. Once a premature turn is set aside on a flop,
    the top of the deck no longer holds the cards an overdealt flop would have turned: the
    engine used to shuffle back Td (never on the flop) and keep Jd as a burn. R40 and R41 do
    not cover both on one flop, so the report is refused (call the floor), as a second
    premature turn is, and the hand is unchanged."""
    hand = live(descending)
    check_down(hand, Street.FLOP)
    hand.report(PrematureTurn())  # burn Jd, As set aside; nobody has acted on the flop yet
    assert "OverdealtFlop" not in " ".join(hand.possible_events())
    before = snapshot(hand)
    with pytest.raises(InvalidEventError, match="premature turn was already set aside"):
        hand.report(OverdealtFlop(4))
    assert snapshot(hand) == before
    assert hand.board == cards("Th Kd Qd") and hand.burns == cards("Jh Jd")
    assert hand.set_aside == cards("As")


# ---------------------------------------------------------------------- R42
def test_r42_one_extra_card_is_the_burn() -> None:
    hand = live()
    ruling = hand.report(ExtraCards(1))
    assert ruling.rule == "R42"
    assert hand.burns == cards("Jh")  # the extra card, returned and used as the burn
    assert hand.hole_cards == (cards("Js Qh"), cards("Ks Ts"), cards("Qs Kh"))
    check_down(hand)
    assert hand.board == cards("Th Kd Qd As Ah")
    assert hand.burns == cards("Jh Jd Td")


@pytest.mark.parametrize("reports", [[ExtraCards(2)], [ExtraCards(3)],
                                     [ExtraCards(1), ExtraCards(1)]])
def test_r42_several_extra_cards_are_a_misdeal(reports: list[ExtraCards]) -> None:
    hand = live(ascending)
    for e in reports:
        ruling = hand.report(e)
    assert ruling.rule == "R42" and "misdeal" in ruling.text
    assert hand.misdeals == 1
    assert hand.hole_cards == (cards("2h 3d"), cards("2c 2s"), cards("2d 3c"))
    check_down(hand)
    assert hand.burns == cards("3h 4h 5c")
    assert hand.board == cards("3s 4c 4d 4s 5d")


def test_r39_and_r42_in_one_deal_both_burn() -> None:
    """Not covered by the rules: both cards are 'used as the burn card' (documented choice)."""
    hand = live()
    hand.report(CardExposed(3))  # Ts replaced by Jh
    hand.report(ExtraCards(1))  # Th
    assert hand.burns == cards("Ts Th")
    check_down(hand)
    assert hand.board == cards("Kd Qd Jd Td Ad")
    assert hand.burns == cards("Ts Th As Ah")


def test_r12_deal_start_left_of_the_big_blind_option() -> None:
    game = Game(big_blind=2, deal_start=holdem.DealStart.LEFT_OF_BIG_BLIND)
    hand = LiveHand(game, [100] * 3, button=0, deck=DECK_A, seed=0)
    # big blind seat 2, so seat 0 is dealt first: Ks s0, Qs s1, Js s2, Ts s0, Kh s1, Qh s2
    assert hand.first_seat_dealt == 0
    assert hand.hole_cards == (cards("Ks Ts"), cards("Qs Kh"), cards("Js Qh"))
    hand.report(CardExposed(4))  # Kh (seat 1) replaced by the top card Jh
    assert hand.hole_cards[1] == cards("Qs Jh") and hand.burns == cards("Kh")


def test_the_deal_closes_at_the_first_action_or_board_error() -> None:
    hand = live()
    assert hand.is_dealing()
    hand.report(ExtraCards(1))
    assert hand.is_dealing()
    hand.report(PrematureFlop())
    assert not hand.is_dealing()
    other = live()
    other.call()
    assert not other.is_dealing()


# ---------------------------------------------------------------------- validation
@pytest.mark.parametrize(("setup", "event", "words"), [
    ("call", CardExposed(1), "the deal is over"),
    ("call", ExtraCards(1), "the deal is over"),
    ("", CardExposed(6), "positions 0..5"),
    ("", PrematureTurn(), "flop betting"),
    ("", PrematureRiver(), "turn betting"),
    ("", OverdealtFlop(4), "not the street"),
    ("flop check", OverdealtFlop(4), "flop betting has started"),
    ("flop", PrematureFlop(), "flop is already out"),
    ("flop check turn", PrematureTurn(), "already set aside"),
    ("end", PrematureRiver(), "hand is over"),
])
def test_invalid_events_rejected_with_state_unchanged(setup: str, event: DealerError,
                                                      words: str) -> None:
    hand = live()
    for step in setup.split():
        if step == "call":
            hand.call()
        elif step == "flop":
            check_down(hand, Street.FLOP)
        elif step == "check":
            hand.check()
        elif step == "turn":
            hand.report(PrematureTurn())
        elif step == "end":
            check_down(hand)
    before = snapshot(hand)
    with pytest.raises(InvalidEventError) as info:
        hand.report(event)
    message = str(info.value)
    assert repr(event) in message and words in message and "possible now" in message
    assert snapshot(hand) == before


def test_possible_events_follow_the_hand() -> None:
    hand = live()
    assert hand.possible_events() == ("CardExposed(position=0..5)", "ExtraCards(count>=1)",
                                      "PrematureFlop(cards=3..45)")
    hand.call()
    assert hand.possible_events() == ("PrematureFlop(cards=3..45)",)
    check_down(hand, Street.FLOP)
    assert hand.possible_events() == ("OverdealtFlop(cards=4..45)", "PrematureTurn()")
    hand.check()
    assert hand.possible_events() == ("PrematureTurn()",)
    hand.report(PrematureTurn())
    assert hand.possible_events() == ()
    check_down(hand, Street.TURN)
    assert hand.possible_events() == ("PrematureRiver()",)
    check_down(hand, Street.RIVER)
    assert hand.possible_events() == ()
    check_down(hand)
    assert hand.possible_events() == ()


def test_invalid_event_message_lists_what_is_possible() -> None:
    hand = live()
    hand.call()
    with pytest.raises(InvalidEventError, match=r"possible now: PrematureFlop\(cards=3\.\.\d+\)"):
        hand.report(CardExposed(2))


@pytest.mark.parametrize("make", [
    lambda: CardExposed(-1), lambda: CardExposed(True), lambda: ExtraCards(0),
    lambda: PrematureFlop(2), lambda: OverdealtFlop(3), lambda: CardExposed(1.0),  # type: ignore[arg-type]
])
def test_malformed_events(make: Callable[[], DealerError]) -> None:
    with pytest.raises(InvalidEventError):
        make()


def test_not_an_event() -> None:
    hand = live()
    with pytest.raises(InvalidEventError, match="not a dealer-error event"):
        hand.report("misdeal")  # type: ignore[arg-type]


def test_illegal_action_leaves_the_hand_unchanged() -> None:
    hand = live()
    before = snapshot(hand)
    with pytest.raises(IllegalActionError):
        hand.check()  # seat 0 faces the big blind
    with pytest.raises(IllegalActionError):
        hand.call(seat=2)
    with pytest.raises(holdem.InvalidActionError):
        hand.apply(3.5)  # type: ignore[arg-type]
    with pytest.raises(holdem.InvalidActionError):
        hand.apply("shuffle up")
    assert snapshot(hand) == before
    check_down(hand)
    with pytest.raises(IllegalActionError, match="over"):
        hand.check()


def test_r16_phh_action_naming_another_seat_is_out_of_turn() -> None:
    """R16/R19: players act in turn. A PHH action names its player (``p3 cc`` is seat 2's
    call); a live hand, like a HandState, refuses it when another seat is to act (here seat 0,
    under the gun) instead of applying it for the seat to act, and changes nothing."""
    hand = live()
    assert hand.actor == 0
    before = snapshot(hand)
    with pytest.raises(holdem.OutOfTurnError, match="seat 2 acted out of turn: seat 0"):
        hand.apply("p3 cc")
    with pytest.raises(holdem.InvalidActionError, match="names seat 2, but seat=0"):
        hand.apply("p3 cc", seat=0)
    assert snapshot(hand) == before
    hand.apply("p1 cc")  # seat 0's own call
    assert hand.actor == 1 and hand.state.bets == (2, 1, 2)


def test_action_code_refused_on_a_live_hand_says_what_the_code_meant() -> None:
    """An int action is an action code (``3``: a raise to 2), as on a HandState: a refused
    one says so rather than only naming the raise."""
    hand = live()
    with pytest.raises(IllegalActionError, match="action code 3 means a bet/raise to 2"):
        hand.apply(3)


def test_stacks_given_as_any_iterable_deal_as_on_a_hand_state() -> None:
    """LiveHand takes stacks and button as Game.new_hand does (R1): any iterable of ints,
    read once. A generator is not consumed twice (it used to leave a hand of no seats and
    fail with ZeroDivisionError)."""
    hand = LiveHand(GAME, (s for s in [100, 100, 100]), button=0, deck=DECK_A, seed=0)
    assert hand.num_players == 3 and hand.stacks == (100, 99, 98)
    assert hand.hole_cards == (cards("Js Qh"), cards("Ks Ts"), cards("Qs Kh"))
    check_down(hand)
    assert hand.is_terminal() and hand.accounting().is_complete()
    with pytest.raises(holdem.InvalidConfigError, match="2 to 10 players"):
        LiveHand(GAME, iter([100]))


def test_stacked_deck_must_hold_52_distinct_cards() -> None:
    with pytest.raises(DeckError, match="all 52 cards"):
        LiveHand(GAME, [100, 100], deck=DECK_A[:51])
    with pytest.raises(DuplicateCardError):
        LiveHand(GAME, [100, 100], deck=[*DECK_A[:51], DECK_A[0]])


def test_bad_shuffle_function_is_rejected_and_hand_unchanged() -> None:
    hand = live(lambda cs: list(cs)[1:])
    before = snapshot(hand)
    with pytest.raises(DeckError, match="shuffle function"):
        hand.report(CardExposed(0))
    assert snapshot(hand) == before


@pytest.mark.parametrize("returned", [
    lambda cs: ["Xx"] * len(cs),          # not cards
    lambda cs: [*cs[1:], cs[1]],          # a card twice (the count is right)
    lambda cs: 7,                         # not an iterable
])
def test_shuffle_function_returning_non_cards_is_a_deck_error_naming_it(
        returned: Callable[[tuple[Card, ...]], object]) -> None:
    """R38: the misdeal reshuffles with the table's shuffle function. When that function
    returns something that is not the cards it was given (text that is not a card, a card
    twice, a number) the error is the DeckError that names the shuffle function and what it
    must return (it used to be a bare InvalidCardError about "a card"), and the hand is
    unchanged."""
    hand = live(returned)  # type: ignore[arg-type]
    before = snapshot(hand)
    with pytest.raises(DeckError, match="the shuffle function must return the 52 cards"):
        hand.report(CardExposed(0))
    assert snapshot(hand) == before


# ---------------------------------------------------------------------- determinism, history
def test_seeded_shuffles_are_deterministic() -> None:
    def run(seed: int) -> tuple[object, ...]:
        hand = LiveHand(GAME, [100] * 4, button=1, seed=seed)
        first = hand.hole_cards
        hand.report(CardExposed(0))
        hand.call()
        hand.report(PrematureFlop())
        check_down(hand)
        return first, hand.accounting()

    assert run(11) == run(11)
    assert run(11) != run(12)
    assert LiveHand(GAME, [100, 100], seed=3).seed == 3


def test_history_and_rulings_record_every_event() -> None:
    hand = live()
    hand.report(CardExposed(3))
    hand.call()
    hand.report(PrematureFlop())
    assert hand.history == (CardExposed(3), holdem.Action.call(), PrematureFlop())
    assert [r.rule for r in hand.rulings] == ["R39", "R40"]
    assert [r.event for r in hand.rulings] == [CardExposed(3), PrematureFlop()]


def test_events_repr_pastes_back() -> None:
    for e in (CardExposed(4), ExtraCards(2), PrematureFlop(4), OverdealtFlop(5),
              PrematureTurn(), PrematureRiver()):
        assert eval(repr(e), vars(holdem)) == e


def test_events_are_immutable_hashable_values() -> None:
    import pickle

    e = CardExposed(3)
    assert e == CardExposed(3) and hash(e) == hash(CardExposed(3))
    assert e != CardExposed(4) and PrematureTurn() != PrematureRiver()
    assert PrematureFlop(4) != OverdealtFlop(4)
    assert pickle.loads(pickle.dumps(e)) == e
    with pytest.raises(AttributeError):
        e.position = 4
    assert len({PrematureTurn(), PrematureTurn(), ExtraCards(1)}) == 2


def test_live_hand_repr_pastes_back() -> None:
    hand = LiveHand(GAME, [100, 80, 60], button=2, deck=DECK_A, seed=9)
    hand.report(CardExposed(2))
    hand.call()
    hand.report(PrematureFlop())
    check_down(hand, Street.TURN)
    again = eval(repr(hand), vars(holdem))
    assert again.accounting() == hand.accounting() and again.history == hand.history
    assert again.state == hand.state


def test_clone_is_independent() -> None:
    hand = live()
    hand.report(CardExposed(3))
    copy = hand.clone()
    before = snapshot(hand)
    copy.call()
    copy.report(PrematureFlop())
    check_down(copy)
    assert snapshot(hand) == before
    assert copy.burns[0] == Card("Ts") and copy.is_terminal() and not hand.is_terminal()


def test_betting_is_the_state_machines() -> None:
    """The final state equals a HandState dealt the same final cards and the same actions."""
    hand = live(descending)
    hand.raise_to(6)
    hand.report(PrematureFlop())
    hand.call()
    hand.fold()
    hand.bet(10)
    hand.report(PrematureTurn())
    hand.call()
    check_down(hand)
    actions = [a for a in hand.history if not isinstance(a, DealerError)]
    ref = GAME.new_hand([100] * 3, button=0, hole_cards=hand.hole_cards, board=hand.board)
    for a in actions:
        ref.apply(a)
    assert ref.is_terminal() and ref.payoffs == hand.payoffs
    assert ref.history == hand.state.history


# ---------------------------------------------------------------------- property
_EVENTS: list[Callable[[int], DealerError]] = [
    lambda k: CardExposed(k % 12), lambda k: ExtraCards(1 + k % 2),
    lambda k: PrematureFlop(3 + k % 2), lambda k: OverdealtFlop(4 + k % 2),
    lambda k: PrematureTurn(), lambda k: PrematureRiver(),
]


@given(
    n=st.integers(2, 6),
    stacks=st.lists(st.integers(1, 40), min_size=6, max_size=6),
    button=st.integers(0, 5),
    seed=st.integers(0, 2**32),
    deck=st.none() | st.permutations(CARDS),
    custom_shuffle=st.booleans(),
    steps=st.lists(st.tuples(st.booleans(), st.integers(0, 10**6)), max_size=40),
)
def test_random_dealer_errors_never_lose_a_card(
    n: int, stacks: list[int], button: int, seed: int, deck: list[Card] | None,
    custom_shuffle: bool, steps: list[tuple[bool, int]],
) -> None:
    shuffle = None
    if custom_shuffle:  # a "physical" shuffle reported by the table: any permutation will do
        rng = random.Random(seed)

        def shuffle(cs: tuple[Card, ...]) -> list[Card]:
            return rng.sample(cs, len(cs))

    hand = LiveHand(GAME, stacks[:n], button=button % n, deck=deck, seed=seed, shuffle=shuffle)
    start = sum(stacks[:n])
    recorded = 0
    for is_event, k in steps:
        if hand.is_terminal():
            break
        if is_event:
            event = _EVENTS[k % len(_EVENTS)](k // len(_EVENTS))
            before = snapshot(hand)
            listed = " ".join(hand.possible_events())
            try:
                hand.report(event)
            except InvalidEventError:
                assert snapshot(hand) == before
                continue
            assert type(event).__name__ + "(" in listed
        else:
            la = hand.legal_actions()
            options = [holdem.Action.check_or_call()]
            if la.can_fold:
                options.append(holdem.Action.fold())
            if la.can_raise:
                assert la.min_to is not None and la.max_to is not None
                options += [holdem.Action.bet_or_raise(la.min_to),
                            holdem.Action.bet_or_raise(la.max_to)]
            hand.apply(options[k % len(options)])
        recorded += 1
        acc = hand.accounting()
        assert acc.is_complete()
        assert hand.state.board == acc.board and hand.state.hole_cards == acc.hole
    assert len(hand.history) == recorded  # every accepted action and event, nothing else
    assert len(hand.rulings) == sum(isinstance(x, DealerError) for x in hand.history)
    check_down(hand)
    assert hand.accounting().is_complete()
    result = hand.result
    assert sum(result.payoffs) + result.rake == 0
    assert sum(result.final_stacks) + result.rake == start
    # the betting equals a plain HandState given the final cards and the same actions
    ref = GAME.new_hand(stacks[:n], button=button % n, hole_cards=hand.hole_cards,
                        board=hand.board)
    for a in hand.history:
        if not isinstance(a, DealerError):
            ref.apply(a)
    assert ref.is_terminal() and ref.payoffs == result.payoffs


# ---------------------------------------------------------------------- docs
@pytest.mark.parametrize("module", [holdem.live.hand, holdem.live.events])
def test_module_doctests(module: object) -> None:
    failed, attempted = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)  # type: ignore[arg-type]
    assert attempted > 0 and failed == 0


def test_readme_live_dealing_section_runs() -> None:
    text = (Path(__file__).parent.parent / "README.md").read_text()
    start = text.index("### Live dealing and dealer errors")
    end = text.index("\n#", start + 5)
    test = doctest.DocTestParser().get_doctest(text[start:end], {}, "README: live dealing",
                                               "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert test.examples and runner.failures == 0


def test_a_live_hand_never_dealt_refuses_every_member_and_copy() -> None:
    """``LiveHand.__new__(LiveHand)`` holds no hand: every public member, copy and pickle of
    it raised AttributeError naming a private slot; now InvalidStateError says how to make
    one (as a blank HandState does). A misspelt attribute is still an AttributeError."""
    import copy
    import inspect
    import pickle

    blank = LiveHand.__new__(LiveHand)
    want = ("this LiveHand was never dealt (it holds no hand): make one with "
            "LiveHand(game, stacks, ...) or by unpickling a dealt hand")
    args = {"seat": 0, "action": "cc", "to": 4, "items": ["cc"],
            "event": PrematureFlop()}
    names = [n for n in dir(LiveHand) if not n.startswith("_")]
    assert len(names) >= 35
    for name in names:
        member = inspect.getattr_static(LiveHand, name)
        with pytest.raises(InvalidStateError) as err:
            if callable(member) and not isinstance(member, property):
                bound = getattr(blank, name)
                params = [p for p in inspect.signature(bound).parameters.values()
                          if p.default is p.empty]
                bound(*[args[p.name] for p in params])
            else:
                getattr(blank, name)
        assert str(err.value) == want, name
    for doing in (repr, str, copy.copy, copy.deepcopy, pickle.dumps):
        with pytest.raises(InvalidStateError, match="never dealt"):
            doing(blank)
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        blank.nope  # noqa: B018
    dealt = LiveHand(Game(big_blind=2), [100, 100], seed=3)
    assert not hasattr(dealt, "nope") and dealt.num_players == 2
    assert pickle.loads(pickle.dumps(dealt)).hole_cards == dealt.hole_cards


# ---------------------------------------------------------------------- mutation-run additions
def _recording(calls: list[tuple[Card, ...]]) -> Callable[[tuple[Card, ...]], list[Card]]:
    """A test shuffle that records what it is given and sorts it (ascending)."""
    def shuffle(cs: tuple[Card, ...]) -> list[Card]:
        calls.append(tuple(cs))
        return sorted(cs)
    return shuffle


REST_A = tuple(c for c in CARDS if c not in cards("Ks Qs Js Ts Kh Qh Jh Th Kd Qd Jd As Td Ah Ad Ac"))


def test_r40_premature_flop_ruling_names_every_card_turned() -> None:
    """R40: a premature flop of four cards: the ruling names the four cards turned (after the
    burn Jh, the next four cards of DECK_A: Th Kd Qd Jd), not only three."""
    hand = live()
    ruling = hand.report(PrematureFlop(cards=4))
    assert ruling.rule == "R40"
    assert "premature flop Th Kd Qd Jd (after burning Jh)" in ruling.text


def test_r40_overdealt_flop_ruling_names_every_card_turned() -> None:
    """R40: a flop turned with four cards (Th Kd Qd, then the extra Jd off the top of the
    deck): the ruling names all four cards shuffled back."""
    hand = live()
    check_down(hand, Street.FLOP)
    assert hand.board == cards("Th Kd Qd")
    ruling = hand.report(OverdealtFlop(cards=4))
    assert ruling.rule == "R40"
    assert "the flop of 4 cards Th Kd Qd Jd is shuffled back" in ruling.text


def test_r42_extra_card_count_starts_again_after_a_misdeal() -> None:
    """R42 counts extra cards per deal: after two extra cards (a misdeal) the hand is dealt
    again, and one extra card in the new deal is the burn card, not another misdeal."""
    hand = live()
    hand.report(ExtraCards())
    assert hand.report(ExtraCards()).text.startswith("misdeal")
    assert hand.misdeals == 1
    ruling = hand.report(ExtraCards())
    assert ruling.rule == "R42" and ruling.text.startswith("the extra card")
    assert hand.misdeals == 1 and len(hand.burns) == 1


def test_r39_misdeal_shuffle_is_given_hole_cards_then_burns_then_deck() -> None:
    """Module docs: for a misdeal the shuffle is given the hole cards in deal order, the
    burns, then the deck top first. R39 at position 1 (Qs) replaces it with the top card Jh
    and burns Qs; a second exposed card is a misdeal (R39)."""
    calls: list[tuple[Card, ...]] = []
    hand = live(_recording(calls))
    hand.report(CardExposed(1))
    assert hand.burns == cards("Qs")
    assert hand.report(CardExposed(2)).rule == "R39" and hand.misdeals == 1
    assert calls == [(*cards("Ks Jh Js Ts Kh Qh"), *cards("Qs"),
                      *cards("Th Kd Qd Jd As Td Ah Ad Ac"), *REST_A)]


def test_r41_river_reshuffle_is_given_the_deck_then_the_set_aside_card() -> None:
    """Module docs: for R41 the shuffle is given the deck top first, then the set-aside cards.
    Flop Th Kd Qd (burn Jh); premature turn: burn Jd, As set aside; the turn is burn Td, Ah;
    the river reshuffles Ad Ac + the other 36 cards, then As."""
    calls: list[tuple[Card, ...]] = []
    hand = live(_recording(calls))
    check_down(hand, Street.FLOP)
    hand.report(PrematureTurn())
    assert hand.set_aside == cards("As")
    check_down(hand, Street.TURN)
    assert hand.board == cards("Th Kd Qd Ah")
    check_down(hand, Street.RIVER)
    assert calls == [(*cards("Ad Ac"), *REST_A, *cards("As"))]
    assert hand.set_aside == ()


def test_r40_premature_flop_may_turn_every_card_left_after_the_burn() -> None:
    """R40 with three players: 52 - 6 hole cards = 46 in the deck; after the burn 45 can be
    turned. possible_events says 3..45, a flop of 45 cards is accepted, 46 refused."""
    hand = live()
    assert "PrematureFlop(cards=3..45)" in hand.possible_events()
    with pytest.raises(InvalidEventError, match="only 45 cards"):
        hand.clone().report(PrematureFlop(cards=46))
    assert hand.report(PrematureFlop(cards=45)).rule == "R40"
    assert hand.accounting().is_complete()


def test_r40_premature_flop_after_an_r39_burn_may_turn_the_whole_deck() -> None:
    """After an R39 burn no burn is due for the flop: the 45 cards left (52 - 6 hole - 1
    burn) may all be turned, and possible_events says so."""
    hand = live()
    hand.report(CardExposed(1))
    assert hand.cards_left == 45
    assert "PrematureFlop(cards=3..45)" in hand.possible_events()
    assert hand.report(PrematureFlop(cards=45)).rule == "R40"


def test_r40_overdealt_flop_may_use_every_card_left_in_the_deck() -> None:
    """R40: on the flop 52 - 6 - 1 - 3 = 42 cards are left, so a flop of up to 3 + 42 = 45
    cards can have been turned: 45 is accepted, 46 refused."""
    hand = live()
    check_down(hand, Street.FLOP)
    assert hand.cards_left == 42
    assert "OverdealtFlop(cards=4..45)" in hand.possible_events()
    with pytest.raises(InvalidEventError, match="only 42 cards"):
        hand.clone().report(OverdealtFlop(cards=46))
    assert hand.report(OverdealtFlop(cards=45)).rule == "R40"
    assert len(hand.board) == 3 and hand.accounting().is_complete()


def test_apply_does_not_copy_the_betting_state_per_action() -> None:
    """A LiveHand action is applied to its betting state in place: cloning the state for
    every action copied the whole history each time (quadratic in the hand's length). A long
    min-raise war clones nothing; a rejected action still changes nothing."""
    from unittest import mock

    clones = []
    original = holdem.HandState.clone

    def counted(state: holdem.HandState) -> holdem.HandState:
        clones.append(len(state.raw_history()))
        return original(state)

    hand = LiveHand(Game(big_blind=2), [10**9, 10**9], seed=1)
    with mock.patch.object(holdem.HandState, "clone", counted):
        for _ in range(200):
            hand.apply(holdem.Action.raise_to(hand.legal_actions().min_to))
        assert clones == []
        before = hand.state.history
        with pytest.raises(IllegalActionError):
            hand.apply(holdem.Action.raise_to(1))
    assert hand.state.history == before and len(before) == 200
    hand.apply(holdem.Action.call())  # closes preflop: the flop is dealt off the deck
    assert hand.street == Street.FLOP and len(hand.board) == 3
    assert hand.state.history[:200] == before
