"""No input crashes the interpreter (sizes checked before they are
multiplied or allocated). Calls that used to crash run in a child process, so a crash shows
as a crash (a negative exit status), not as a dead test runner."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from holdem import (
    Game,
    HoldemError,
    InvalidArrayError,
    InvalidConfigError,
    InvalidHandError,
    deal_hands,
    hand_width,
)
from holdem.evaluator import evaluate_many
from holdem.hand.game import HandState, ReferenceHandState


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


def test_a_plan_whose_bet_sizes_are_not_four_is_refused() -> None:
    """The compiled cores read a game's four bet sizes (one a street) without bounds checks:
    a plan with fewer (a game's private ``_plan`` set from outside, or made by a subclass)
    is refused by both, the batched engine and the hand core, before they read it."""
    proc = run_child("""
        from holdem import Game, InvalidConfigError
        from holdem.vector import VectorGame
        for sizes in ((), (2,), [2, 2, 4], (2, 2, 4, 4, 8)):
            for make in (lambda g: g.new_hand([200, 200], button=0, seed=1),
                         lambda g: VectorGame(g, num_tables=2, players=2, stacks=200, seed=1)):
                game = Game(big_blind=2)
                object.__setattr__(game, "_plan", game._plan._replace(sizes=sizes))
                try:
                    make(game)
                except InvalidConfigError as exc:
                    assert "the game's bet sizes must be 4 (one a street)" in str(exc), exc
                else:
                    raise AssertionError(f"sizes {sizes} taken")
        print("ok")
    """)
    assert proc.stdout.strip() == "ok"


def test_the_batch_reads_a_copy_of_its_columns() -> None:
    """``Batch`` (the batched engine's private core) reads its action columns without bounds
    checks: a column entry whose ``__int__`` empties the list it came from changes nothing
    read (a copy)."""
    proc = run_child("""
        from holdem import Game
        from holdem import _vector
        from holdem.vector import ActionLayout, _rules
        game = Game(big_blind=2)
        layout = ActionLayout()
        codes = [tuple(c) for c in layout._codes]
        class Shrinks:
            def __init__(self, value):
                self.value = value
            def __index__(self):
                victim.clear()
                return self.value
            __int__ = __index__
        victim = [(Shrinks(codes[0][0]), *codes[0][1:]), *codes[1:]]
        batch = _vector.Batch(_rules(game), 2, 2, (200, 200), 1, False, victim,
                              list(layout._priority))
        assert victim == [] and batch is not None
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


# Objects that lie. A check made through an object's own methods (comparisons, len(), hash,
# arithmetic, __index__) must not be what lets a different value reach C: each entry point
# turns such an argument into a plain int or tuple first. Every call runs in a child process.
LIARS = """
    class Always(int):  # every comparison true, __index__ returns itself
        __index__ = lambda s: s
        __ge__ = __le__ = __lt__ = __gt__ = lambda s, o: True
    class Never(int):  # every comparison false
        __index__ = lambda s: s
        __ge__ = __le__ = __lt__ = __gt__ = lambda s, o: False
    class Short(list):  # len() says 2
        __len__ = lambda s: 2
    class Unequal(int):  # equal to nothing, itself included
        __hash__ = object.__hash__
        __eq__ = lambda s, o: False
    class Wraps(int):  # (b + 1) % n is far below zero
        __add__ = lambda s, o: s
        __mod__ = lambda s, o: -10**6

    def refused(call, *errors):
        try:
            call()
        except errors as e:
            print(type(e).__name__)
        else:
            print("accepted")
"""


def run_liars(code: str) -> list[str]:
    return run_child(textwrap.dedent(LIARS) + textwrap.dedent(code)).stdout.split()


def test_lying_ints_for_sizes_and_counts_are_read_as_plain_ints() -> None:
    """``evaluate_many(n_cards=)`` (a C division by 0), ``deal_hands``' counts (a product
    that wrapped, and 30 players' worth of cards from a 52-card deck), ``Deck.deal``."""
    out = run_liars("""
        import holdem
        from holdem import DeckError, InvalidArrayError, InvalidConfigError
        refused(lambda: holdem.evaluate_many(bytes(10), n_cards=Always(0)), InvalidArrayError)
        refused(lambda: holdem.deal_hands(Always(pow(7, -1, 2**64)), 1, seed=1, burns=False,
                                          out=bytearray(1)), InvalidConfigError)
        refused(lambda: holdem.deal_hands(1, Always(30), seed=1), InvalidConfigError)
        refused(lambda: holdem.deal_hands(1, 2, seed=1, start=Always(-1)), InvalidConfigError)
        refused(lambda: holdem.child_seed(1, Always(-1)), InvalidConfigError)
        refused(lambda: holdem.Deck(seed=1).deal(Never(-5)), DeckError)
        refused(lambda: holdem.Card(Always(1000)), holdem.InvalidCardError)
        print(holdem.evaluate_many(bytes(range(7)), n_cards=Never(7)).tolist()
              == holdem.evaluate_many(bytes(range(7)), n_cards=7).tolist())
    """)
    assert out == ["InvalidArrayError", "InvalidConfigError", "InvalidConfigError",
                   "InvalidConfigError", "InvalidConfigError", "DeckError", "InvalidCardError",
                   "True"]


def test_lying_arguments_of_a_new_hand_and_its_queries() -> None:
    """Hole cards whose len() lies (written past a 25-byte array), extra posts whose seats are
    unequal to themselves (one per seat, 10 at most), a button whose arithmetic lies (a
    negative seat), per-seat queries whose comparisons lie (read out of bounds)."""
    out = run_liars("""
        import pickle
        import holdem
        from holdem import InvalidConfigError, InvalidSeatError, InvalidStateError
        game = holdem.Game(big_blind=2)
        refused(lambda: game.new_hand([100, 100], hole_cards=Short([None] * 200),
                                      board="AsKsQsJsTs"), InvalidConfigError)
        hand = game.new_hand([100, 100], hole_cards=[None, None], board="AsKsQsJsTs")
        rebuild, (cls, state) = hand.__reduce__()
        state = list(state)
        state[list(holdem.hand._fields.FIELDS).index("hole")] = Short([None] * 3000)
        refused(lambda: rebuild(cls, tuple(state)), InvalidStateError)
        refused(lambda: game.new_hand([100] * 4, seed=1, extra_posts=[
            (Unequal(3), 1, 0) for _ in range(500)]), InvalidConfigError)
        wrapped = game.new_hand([100, 100, 100], button=Wraps(0), seed=1)
        print(wrapped == game.new_hand([100, 100, 100], button=0, seed=1))
        dealt = game.new_hand([100, 100], seed=1)
        refused(lambda: dealt.status(Always(10**9)), InvalidSeatError)
        refused(lambda: dealt.status_code(Always(-2**31)), InvalidSeatError)
        refused(lambda: dealt._block_reason(2**31 - 1), InvalidSeatError)
        refused(lambda: dealt._block_reason(-1), InvalidSeatError)
        print(dealt.status(Never(1)) == dealt.status(1),
              dealt.status_code(Never(0)) == dealt.status_code(0))
    """)
    assert out == ["InvalidConfigError", "InvalidStateError", "InvalidConfigError", "True",
                   "InvalidSeatError", "InvalidSeatError", "InvalidSeatError",
                   "InvalidSeatError", "True", "True"]


def test_an_agent_that_empties_the_tables_player_list_mid_hand() -> None:
    """The compiled table loop indexed the caller's list of players by seat at every
    decision; an agent that reaches that list and empties it made it read past the end."""
    proc = run_child("""
        import sys, holdem
        def agent(obs):
            frame = sys._getframe(1)
            while "players" not in frame.f_locals:
                frame = frame.f_back
            frame.f_locals["players"].clear()
            return 1
        table = holdem.Table(holdem.Game(big_blind=2), seats=3, seed=1)
        for s in range(3):
            table.sit(s, f"p{s}", 100, agent)
        try:
            table.play_hand()
        except holdem.TableError as e:
            print("refused:", e)
    """)
    assert proc.stdout.startswith("refused: players, names and the hand's seats differ")


def test_an_action_layout_whose_codes_divide_by_zero() -> None:
    """The batch took each pot fraction's denominator from the layout unchecked: a subclass
    that gives 0 made a C division by zero (SIGFPE) at reset()."""
    out = run_child("""
        from holdem import Game, InvalidConfigError
        from holdem.vector import ActionLayout, VectorGame
        for codes in ([(1, 0, 1), (2, 1, 0)], [(1, 0, 1), (2, 0, 1)], [(1, 0, 1), (2, 101, 1)],
                      [(1, 0, 1), (2, 1, 1001)], [(1, 0, 1), (2, 2**70, 1)], [(1, 0, 1), "x"]):
            class Odd(ActionLayout):
                _codes = codes  # (a cached property of the layout: a class attribute here)
            try:
                VectorGame(Game(big_blind=2), num_tables=1, players=2, stacks=200, seed=1,
                           actions=Odd()).reset()
            except InvalidConfigError as e:
                print("refused")
    """).stdout.split()
    assert out == ["refused"] * 6


def test_equity_estimate_counts_its_cards_once() -> None:
    """The compiled equity estimate wrote ``len(board)`` cards into a 5-card array, asking
    len() again after the check: a board whose len() changes overflowed the stack."""
    out = run_child("""
        from holdem import _vector, InvalidConfigError
        class Growing(list):
            calls = 0
            def __len__(self):
                Growing.calls += 1
                return 3 if Growing.calls <= 2 else 50
        for board in (Growing(range(2, 52)), Growing(range(2, 5))):
            try:
                print(_vector.equity_estimate([0, 1], board, 1, 10, 0))
            except InvalidConfigError as e:
                print("refused")
        for opponents in (0, 4):
            try:
                _vector.equity_estimate([0, 1], [], opponents, 10, 0)
            except InvalidConfigError as e:
                print(e)
    """).stdout.splitlines()
    assert out[0] == "refused"
    assert 0.0 <= float(out[1]) <= 1.0
    assert out[2:] == ["opponents must be 1..3, got 0", "opponents must be 1..3, got 4"]


@pytest.mark.parametrize("cls", [HandState, ReferenceHandState], ids=["compiled", "reference"])
def test_unchecked_action_needing_a_card_not_given_leaves_the_hand_as_it_was(cls: type) -> None:
    """apply_unchecked on a hand dealt from given cards stopped half-way when the next street
    needed a board card not given: no seat was to act, and the next action read the seat
    -1's chips (outside the C arrays) and logged a record never written. Now it raises and
    leaves the hand as it was, as apply does."""
    st = cls._start(Game(big_blind=2), [100, 100], 0, None, ["AsAh", "KdKc"], "")
    st.apply("cc")  # the small blind calls; the big blind's check closes the preflop round
    before = st.clone()
    for act in (lambda: st.apply_unchecked(1), lambda: st.apply_unchecked(1),
                lambda: st.apply("cc")):
        with pytest.raises(InvalidHandError, match="the board needs 3 cards"):
            act()
        assert st == before
        assert st.actor == 1 and st.legal_actions().seat == 1
        assert st.raw_history() == before.raw_history()
    st.add_board("2c7d9h")
    st.apply_unchecked(1)
    assert (st.street_index, st.actor, st.pot) == (1, 1, 4)


def test_deck_whose_init_did_not_run_shuffles() -> None:
    """A Deck made without its __init__ (Deck.__new__, or a subclass whose __init__ does not
    call Deck's) had an all-zero generator: shuffle() and reset() spun forever in C, holding
    the GIL. Its generator is now seeded from the seed it reports, 0."""
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        from holdem import Deck
        class Forgetful(Deck):
            def __init__(self):  # does not call Deck.__init__
                pass
        for deck in (Deck.__new__(Deck), Forgetful()):
            deck.shuffle()
            print(deck.seed, deck.deal(5) == Deck(seed=0).deal(5))
            deck.reset()
            print(len(deck), len(deck.copy().deal(10)))
    """)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["0", "True", "52", "10"] * 2


def test_evaluate_many_buffers_off_their_alignment() -> None:
    """evaluate_many read (and wrote) a buffer that starts off its items' alignment (a numpy
    view at an odd byte offset) as C integers: undefined behaviour (UBSan reports it; a
    strict-alignment CPU faults). Such buffers now go through aligned copies."""
    np = pytest.importorskip("numpy")

    def misaligned(shape: tuple[int, ...], dtype: str) -> object:
        dt = np.dtype(dtype)
        raw = np.zeros(int(np.prod(shape)) * dt.itemsize + 1, dtype=np.uint8)
        return raw[1:].view(dt).reshape(shape)

    rows = np.array([[48, 49, 50, 51, 44, 0, 1], [0, 4, 8, 12, 21, 30, 40]])
    want = [int(r) for r in evaluate_many(rows)]
    for dtype in ("i8", "u4", "i2"):
        cards = misaligned(rows.shape, dtype)
        cards[:] = rows
        assert [int(r) for r in evaluate_many(cards)] == want
        for out_dtype in ("u2", "i4", "u8"):
            out = misaligned((2,), out_dtype)
            assert evaluate_many(cards, out=out) is out
            assert [int(r) for r in out] == want
    cards[1, 1] = 0  # a repeated card: named, and the output is left alone
    with pytest.raises(InvalidArrayError, match="row 1"):
        evaluate_many(cards, out=out)
    assert [int(r) for r in out] == want


def test_deal_hands_start_beyond_64_bits_is_refused_even_for_no_rows() -> None:
    """``start`` is read as a 64-bit int: 2**64 with no rows passed the range check and then
    raised OverflowError (not a HoldemError)."""
    with pytest.raises(InvalidConfigError, match="start must be an int"):
        deal_hands(0, 6, seed=1, start=2**64)
    assert len(deal_hands(0, 6, seed=1, start=2**64 - 1)) == 0
    assert len(deal_hands(1, 6, seed=1, start=2**64 - 1)) == hand_width(6)


@pytest.mark.parametrize("args", [(2**40, 10, 0), (1, 2**40, 0), (1, 10, -1), (1, 10, 2**64),
                                  (1.5, 10, 0), (1, 10, None)])
def test_equity_estimate_counts_and_seed_out_of_c_range(args: tuple[object, ...]) -> None:
    """opponents, samples and the seed were converted to C integers before their range
    check: values beyond them raised OverflowError (or a TypeError naming no parameter)."""
    from holdem import _vector

    with pytest.raises(InvalidConfigError, match=r"^(opponents|samples|seed) must be"):
        _vector.equity_estimate([0, 1], [], *args)


@pytest.mark.parametrize("first", [2**62, 2**63 - 1, 3 * 2**61])
def test_exact_chunk_unit_range_is_checked_without_overflow(first: int) -> None:
    """The equity kernel checked ``u1 <= assignments * first`` by forming the product, which
    overflows int64 for a large ``first`` (undefined behaviour; in practice it wrapped, and a
    valid unit range was refused as "bad unit range"). The bound is checked by division."""
    import array

    from holdem import _equity

    cards = bytes([0, 1, 2, 3])  # two combos: 2c2d, 2h2s
    board = bytes([10, 11, 12])
    assign = memoryview(array.array("i", [0, 1, 1, 0])).cast("B").cast("i")
    weight = memoryview(array.array("d", [1.0, 1.0])).cast("B").cast("d")
    # unit 0 (assignment 0, the first turn card) whatever the number of units per assignment
    want = _equity.exact_chunk(cards, board, 0, 2, assign, weight, 0, 1, 46)
    assert _equity.exact_chunk(cards, board, 0, 2, assign, weight, 0, 1, first) == want
    with pytest.raises(ValueError, match="bad unit range"):
        _equity.exact_chunk(cards, board, 0, 2, assign, weight, 0, 2 * 46 + 1, 46)
    assert _equity.exact_chunk(cards, board, 0, 2, assign, weight, 0, 2 * 46, 46)[0] > 0
