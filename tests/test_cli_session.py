"""What a newcomer sees in a ``holdem play`` session and its saved hands, and in a short
``holdem simulate``: driven as a user would, in a subprocess."""

from __future__ import annotations

from test_cli import run


def test_play_bet_on_the_big_blind_option_is_explained() -> None:
    """In the big blind with nothing to call the prompt says "no bet to you"; typing a bet must
    not be answered with "there is already a bet", which contradicts it."""
    # hand 1: fold the button; hand 2: the big blind, the calling agent completes
    r = run("play", "--players", "2", "--agents", "call", "--seed", "1", "--hands", "2",
            stdin="f\nb 6\nr 6\nq\n")
    assert r.returncode == 0, r.stderr
    hand2 = r.stdout.split("=== Hand 2")[1]
    assert "Your turn (no bet to you; pot 4;" in hand2
    assert "there is already a bet" not in hand2
    assert ("nothing to call, but the big blind counts as this round's bet: raise instead (r N)"
            in hand2)
    assert "call-2 calls 4" in hand2  # and the raise the message points to is taken
