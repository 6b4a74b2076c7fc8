"""No input crashes the interpreter (sizes checked before they are
multiplied or allocated). Calls that used to crash run in a child process, so a crash shows
as a crash (a negative exit status), not as a dead test runner."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from holdem import HoldemError, InvalidArrayError, InvalidConfigError, deal_hands, hand_width
from holdem.evaluator import evaluate_many


def run_child(code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter; fail the test on a crash (a signal)."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode >= 0, f"child crashed with signal {-proc.returncode}: {proc.stderr}"
    assert proc.returncode == 0, proc.stderr
    return proc


WRAPPING = [2**64 // hand_width(6) + 1, 2**63 // hand_width(6) + 1, 2**63, 2**64, 2**200]


@pytest.mark.parametrize("n_hands", WRAPPING)
@pytest.mark.parametrize("with_out", [False, True])
def test_deal_hands_size_that_wraps_is_refused(n_hands: int, with_out: bool) -> None:
    out = bytearray(hand_width(6) * 4) if with_out else None
    with pytest.raises(InvalidConfigError, match=r"n_hands must be 0 \.\."):
        deal_hands(n_hands, 6, seed=1, out=out)


def test_deal_hands_size_that_wraps_in_a_child_process() -> None:
    run_child("""
        from holdem import deal_hands, hand_width, InvalidConfigError
        for burns in (True, False):
            for players in (1, 6, 22):
                w = hand_width(players, burns=burns)
                for n in (2**64 // w + 1, 2**64 // w * 2 + 1, 2**63, -1, -2**70):
                    for out in (None, bytearray(w), bytearray(0)):
                        try:
                            deal_hands(n, players, seed=3, burns=burns, out=out)
                        except InvalidConfigError:
                            pass
                        else:
                            raise SystemExit(f"accepted {n}")
    """)


@pytest.mark.parametrize("n_hands", [-1, -2**64])
def test_deal_hands_negative_count(n_hands: int) -> None:
    with pytest.raises(InvalidConfigError, match=f"got {n_hands}"):
        deal_hands(n_hands, 6, seed=1)


def test_deal_hands_wrong_type_names_the_parameter() -> None:
    with pytest.raises(HoldemError, match="n_hands must be an int"):
        deal_hands(2.0, 6, seed=1)  # type: ignore[arg-type]


def test_deal_hands_valid_sizes_still_work() -> None:
    w = hand_width(6)
    out = bytearray(3 * w)
    assert deal_hands(3, 6, seed=1, out=out) is out
    assert bytes(out) == bytes(deal_hands(3, 6, seed=1))
    assert len(deal_hands(0, 6, seed=1)) == 0


def test_evaluate_many_column_count_checked_before_the_cast() -> None:
    np = pytest.importorskip("numpy")
    wide = np.zeros((0, 2**32 + 5), dtype=np.uint8)  # would read as 5 columns after a cast
    with pytest.raises(InvalidArrayError, match="5, 6 or 7 cards"):
        evaluate_many(wide)


SUBCLASS_NEW_RETURNS = ["None", "0", "object()", "'a string'"]


@pytest.mark.parametrize("made", SUBCLASS_NEW_RETURNS)
def test_deck_copy_of_a_subclass_whose_new_returns_another_object(made: str) -> None:
    """Deck.copy() makes the copy with ``type(self).__new__``: a subclass whose ``__new__``
    returns something else had its C state written into that object (None: a crash)."""
    proc = run_child(f"""
        from holdem import Deck, DeckError
        class Odd(Deck):
            def __new__(cls, *args, **kwargs):
                return {made}
        deck = Deck.__new__(Odd)
        for copy in (deck.copy, deck.__copy__):
            try:
                copy()
            except DeckError as e:
                print(e)
            else:
                raise SystemExit("accepted")
        print(len(deck), Deck(seed=1).copy().deal(2) == Deck(seed=1).deal(2))
    """)
    lines = proc.stdout.splitlines()
    assert lines[0] == f"cannot copy: Odd.__new__ returned {type(eval(made)).__name__}, not a Deck"
    assert lines[1] == lines[0]
    assert lines[2] == "52 True"


@pytest.mark.parametrize("made", SUBCLASS_NEW_RETURNS)
def test_hand_state_subclass_whose_new_returns_another_object(made: str) -> None:
    """clone(), a new hand and unpickling make the state with ``cls.__new__``: each refuses
    what is not a hand state instead of writing the C state into it (None: a crash)."""
    proc = run_child(f"""
        import pickle
        from holdem import Game, HandState, InvalidStateError
        class Odd(HandState):
            def __new__(cls, *args, **kwargs):
                return {made}
        game = Game(big_blind=2)
        hand = game.new_hand([200, 200, 200], button=0, seed=1)
        odd = HandState.__new__(Odd)
        tries = {{
            "clone": odd.clone,
            "start a hand": lambda: Odd._start(game, [200, 200, 200], 0, 1, None, None),
            "unpickle": lambda: hand.__reduce__()[0](Odd, hand.__reduce__()[1][1]),
        }}
        for doing, call in tries.items():
            try:
                call()
            except InvalidStateError as e:
                print(e)
            else:
                raise SystemExit(f"accepted: {{doing}}")
        print(pickle.loads(pickle.dumps(hand)) == hand.clone() == hand)
    """)
    name = type(eval(made)).__name__
    assert proc.stdout.splitlines() == [
        f"cannot {doing}: Odd.__new__ returned {name}, not a hand state"
        for doing in ("clone", "start a hand", "unpickle")] + ["True"]


def test_game_rules_cache_set_from_outside_is_rebuilt() -> None:
    """The compiled rules kept on a game are only trusted when they are the engine's type: a
    value set from outside is replaced, not read as rules."""
    proc = run_child("""
        from holdem import Game
        game = Game(big_blind=2)
        plain = game.new_hand([200, 200, 200], button=0, seed=1)
        for junk in (5, "rules", object(), 2**70):
            object.__setattr__(game, "_core_rules", junk)
            hand = game.new_hand([200, 200, 200], button=0, seed=1)
            assert hand == plain, (junk, hand)
        print("ok")
    """)
    assert proc.stdout.strip() == "ok"


@pytest.mark.parametrize("name", ["run_hand", "table_posts"])
def test_table_loop_refuses_none_for_a_state(name: str) -> None:
    """The compiled table loop's entry points take a hand state; None is refused, not read."""
    proc = run_child(f"""
        from holdem.table import _loop
        try:
            _loop.{name}(*[None] * _loop.{name}.__code__.co_argcount)
        except TypeError as e:
            print(e)
    """)
    assert "Argument 'state' has incorrect type" in proc.stdout
