"""Bad-input suite: HandState.legal_action_codes() on hands with stacks up to the engine's
2**53-chip limit (it once built a list of 2**53 codes: MemoryError, or minutes at 2**27)."""

from __future__ import annotations

import pytest
from badinput import bounded, call, rejected, run_in_child
from hypothesis import given
from hypothesis import strategies as st


@given(st.integers(2, 10), st.one_of(st.integers(1, 400), st.integers(2**20, 2**53 - 1)),
       st.integers(0, 2**32))
@bounded(50)
def action_codes(n: int, stack: int, seed: int) -> None:
    import holdem

    state = holdem.Game(big_blind=2).new_hand([stack] * n, seed=seed)
    got = call(state.legal_action_codes)
    if rejected(got):
        return
    if state.is_terminal():  # everyone all in from the blinds: no decision
        assert got == []
    else:
        assert got[:2] in ([0, 1], [1])
        la = state.legal_actions()
        if la.can_raise:
            assert la.min_to is not None and la.max_to is not None
            assert got[-1] == la.max_to + 1 and len(got) - got.index(la.min_to + 1) == (
                la.max_to - la.min_to + 1)


@pytest.mark.parametrize("prop", ["action_codes"])
def test_in_child(prop: str) -> None:
    run_in_child(__file__, prop)
