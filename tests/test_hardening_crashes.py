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
