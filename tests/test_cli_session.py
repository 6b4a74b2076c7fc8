"""What a newcomer sees in a ``holdem play`` session and its saved hands, and in a short
``holdem simulate``: driven as a user would, in a subprocess."""

from __future__ import annotations

import re

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


def test_play_says_when_an_agent_is_out_of_chips() -> None:
    """An agent that loses its last chip must not vanish from the next hand unannounced."""
    r = run("play", "--players", "3", "--agents", "equity,random", "--seed", "1",
            stdin="r 10\nc\na\ncall\nbet 4\nr 14\nfold\nc\nallin\nq\n")
    assert r.returncode == 0, r.stderr
    hand4, hand5 = r.stdout.split("=== Hand 4")[1].split("=== Hand 5")
    assert "random-3 calls 27 (all in)" in hand4
    assert "random-3 is out of chips and sits out" in hand4
    assert "random-3" not in hand5.split("Session over")[0]  # dealt out from then on
    assert re.search(r"^  random-3 +0  \(-200\)$", r.stdout, re.M)
