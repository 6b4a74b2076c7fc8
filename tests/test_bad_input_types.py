"""Arguments of the wrong type to phh, acpc, stats and charts are refused by name, not AttributeError."""

from __future__ import annotations

import io
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import holdem
from holdem import acpc, charts, phh, stats
from holdem.errors import InvalidConfigError, InvalidHistoryError

HAND = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ['d dh p1 AsKs', 'd dh p2 7c2d', 'p2 f']
"""
LOG_LINE = "STATE:0:cc/cc/cc/cc:AsKs|2c3d/4h5h6h/7c/8c:0|0:a|b"


def _folded_hand() -> holdem.HandState:
    state = holdem.Game(big_blind=2).new_hand([200, 200], button=0)
    state.fold()
    return state


# --------------------------------------------------------------------------- phh

@pytest.mark.parametrize("value", [None, 123, ["variant = 'NT'"]])
def test_phh_loads_refuses_what_is_not_text(value: Any) -> None:
    """loads(None) and loads_all(None) raised AttributeError ('replace') inside the parser."""
    with pytest.raises(TypeError, match=rf"loads: text must be a str .*{type(value).__name__}"):
        phh.loads(value)
    with pytest.raises(TypeError, match=rf"loads_all: text must be a str .*{type(value).__name__}"):
        phh.loads_all(value)


@pytest.mark.parametrize("value", [HAND.encode(), bytearray(HAND.encode())])
def test_phh_loads_of_bytes_says_to_decode_them(value: bytes) -> None:
    """loads(b"...") raised "a bytes-like object is required, not 'str'" (no parameter)."""
    with pytest.raises(TypeError, match=r"loads: text must be a str, not .*decode it"):
        phh.loads(value)
    with pytest.raises(TypeError, match=r"loads_all: text must be a str, not .*decode it"):
        phh.loads_all(value)
    assert phh.loads(value.decode()) == phh.loads(HAND)


@pytest.mark.parametrize("value", [None, 123, HAND.encode()])
def test_phh_load_refuses_what_is_neither_a_path_nor_a_file(value: Any) -> None:
    """load(None) and load(123) raised AttributeError ('read')."""
    for name, fn in [("load", phh.load), ("load_all", phh.load_all)]:
        with pytest.raises(TypeError, match=rf"{name}: fp must be a path .*"
                                            rf"{type(value).__name__}"):
            fn(value)


def test_phh_load_refuses_a_stream_that_gives_no_text() -> None:
    class Odd:
        name = "odd"

        def read(self) -> int:
            return 7

    with pytest.raises(TypeError, match=r"load: fp\.read\(\) must give str or bytes.*int"):
        phh.load(Odd())  # type: ignore[arg-type]
    assert phh.load(io.BytesIO(HAND.encode())) == phh.load(io.StringIO(HAND)) == phh.loads(HAND)


@pytest.mark.parametrize("value", [None, 123, Path])
def test_phh_dump_refuses_what_cannot_be_written_to(value: Any) -> None:
    """dump(hh, None) raised AttributeError ('write')."""
    hh = phh.loads(HAND)
    with pytest.raises(TypeError, match=rf"dump: fp must be a path .*{type(value).__name__}"):
        phh.dump(hh, value)
    with pytest.raises(TypeError, match=r"dump_all: fp must be a path"):
        phh.dump_all([hh], value)


def test_phh_dump_to_a_binary_file_says_to_open_it_as_text(tmp_path: Path) -> None:
    """A binary stream raised "a bytes-like object is required, not 'str'"."""
    hh = phh.loads(HAND)
    out = io.BytesIO()
    with pytest.raises(TypeError, match=r"dump: fp is a binary file .*text mode"):
        phh.dump(hh, out)  # type: ignore[arg-type]
    assert out.getvalue() == b""
    text = io.StringIO()
    phh.dump(hh, text)
    assert phh.loads(text.getvalue()) == hh


@pytest.mark.parametrize("value", [[], None, "variant = 'NT'", 5])
def test_from_dict_needs_a_mapping(value: Any) -> None:
    """HandHistory.from_dict([]) raised AttributeError ('items')."""
    with pytest.raises(InvalidHistoryError,
                       match=rf"from_dict needs a mapping .*got {type(value).__name__}"):
        holdem.HandHistory.from_dict(value)


@pytest.mark.parametrize("key", [1, b"_x", None])
def test_from_dict_names_a_field_name_that_is_not_a_str(key: Any) -> None:
    data = dict(phh.loads(HAND).to_dict())
    data[key] = 1
    with pytest.raises(InvalidHistoryError,
                       match=rf"from_dict: field names must be strings, got {type(key).__name__}"):
        holdem.HandHistory.from_dict(data)


@pytest.mark.parametrize("players", [Decimal("nan"), Decimal(2), 2.0, "2", True, np.int64(2)])
def test_history_action_players_must_be_an_int(players: Any) -> None:
    """players=Decimal("nan") raised decimal.InvalidOperation (in the comparison)."""
    for text in ("p1 cc", "p1 cc # " + "x" * 60):  # the cached path and the other one
        with pytest.raises(InvalidHistoryError,
                           match=rf"players must be None or an int .*{type(players).__name__}"):
            phh.HistoryAction.from_str(text, players=players)
    assert phh.HistoryAction.from_str("p1 cc", players=2).player == 0
    assert phh.HistoryAction.from_str("p1 cc", players=None).player == 0


# --------------------------------------------------------------------------- acpc

@pytest.mark.parametrize("gamedef", [None, acpc.HEADS_UP_NO_LIMIT, 5])
def test_acpc_functions_refuse_a_gamedef_that_is_not_one(gamedef: Any) -> None:
    """import_state_line(line, None) and MatchState.to_state(None) raised AttributeError
    ('check_protocol'); a gamedef's text is not read implicitly."""
    want = rf"gamedef must be a holdem\.acpc\.GameDef .*{type(gamedef).__name__}"
    with pytest.raises(TypeError, match="import_state_line: " + want):
        acpc.import_state_line(LOG_LINE, gamedef)
    with pytest.raises(TypeError, match="import_log: " + want):
        acpc.import_log([LOG_LINE], gamedef)
    ms = acpc.parse_matchstate("MATCHSTATE:0:0::AsKs|")
    with pytest.raises(TypeError, match=r"MatchState\.to_state: " + want):
        ms.to_state(gamedef)


def test_acpc_import_log_needs_lines_of_text() -> None:
    """import_log(b"STATE", gamedef) raised AttributeError ('startswith'); a whole str was
    read a character at a time (no hand, no error)."""
    gd = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
    with pytest.raises(TypeError, match=r"import_log: lines must be .*not one bytes .*decode"):
        acpc.import_log(b"STATE", gd)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"import_log: lines must be .*not one str .*splitlines"):
        acpc.import_log(LOG_LINE, gd)
    with pytest.raises(TypeError, match=r"import_log: lines must be .*not NoneType"):
        acpc.import_log(None, gd)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"import_log: lines must give str lines, not bytes "
                                        r"\(open the file in text mode\): BytesIO is a binary"):
        acpc.import_log(io.BytesIO(f"# log\n{LOG_LINE}\n".encode()), gd)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"import_log: lines must give str lines, line 2 is "
                                        r"NoneType"):
        acpc.import_log(["# log", None], gd)  # type: ignore[list-item]
    assert len(acpc.import_log(io.StringIO(f"# log\n{LOG_LINE}\n"), gd)) == 1


# --------------------------------------------------------------------------- stats

@pytest.mark.parametrize("state", [None, "hand", phh.loads(HAND)])
def test_stats_add_state_needs_a_hand_state(state: Any) -> None:
    """Stats().add_state(None, names) raised AttributeError ('result_or_none')."""
    st = holdem.Stats()
    with pytest.raises(InvalidConfigError,
                       match=rf"add_state needs a finished holdem\.HandState, got "
                             rf"{type(state).__name__}"):
        st.add_state(state, ["a", "b"])
    assert len(st) == 0


@pytest.mark.parametrize("unit", ["x", None, np.uint64(2**64 - 1), 0, -1, Fraction(-1, 2),
                                  float("nan"), float("inf"), Decimal("nan"), Decimal("sNaN"),
                                  Decimal("1e999999999"), True,
                                  pytest.param(10**5000, id="huge"), 1e-30, [1]])
def test_stats_add_state_checks_the_unit(unit: Any) -> None:
    """unit="x" raised a bare ValueError (float()), np.uint64(2**64 - 1) OverflowError."""
    st = holdem.Stats()
    with pytest.raises(InvalidConfigError, match=r"^unit "):
        st.add_state(_folded_hand(), ["a", "b"], unit=unit)
    assert len(st) == 0


@pytest.mark.parametrize("unit", [1, 2, Fraction(1, 100), Decimal("0.01"), 0.01, np.int64(1),
                                  Fraction(1)])
def test_stats_add_state_takes_the_documented_units(unit: Any) -> None:
    st = holdem.Stats()
    st.add_state(_folded_hand(), ["a", "b"], unit=unit)
    chip = Fraction(repr(unit)) if isinstance(unit, float) else Fraction(unit)
    assert st["b"].net == pytest.approx(chip) and st["a"].net == pytest.approx(-chip)


def test_stats_format_table_needs_player_stats() -> None:
    """format_table(["x"]) raised AttributeError (in the row)."""
    with pytest.raises(InvalidConfigError, match=r"format_table takes PlayerStats .*"
                                                 r"players\[0\] is str: 'x'"):
        stats.format_table(["x"])  # type: ignore[list-item]
    with pytest.raises(InvalidConfigError, match=r"format_table takes an iterable .*NoneType"):
        stats.format_table(None)  # type: ignore[arg-type]
    st = holdem.Stats()
    st.add_state(_folded_hand(), ["a", "b"])
    with pytest.raises(InvalidConfigError, match=r"got Stats.*stats\.values\(\)"):
        stats.format_table(st)  # type: ignore[arg-type]
    assert stats.format_table(st.values()).splitlines()[1].startswith("a ")


# --------------------------------------------------------------------------- charts

@pytest.mark.parametrize("value", [None, {"a": 1}, "stats"])
def test_charts_need_their_result_or_stats(value: Any) -> None:
    """simulation_chart(None), stats_chart(None) and vpip_frequencies(None, "a") raised
    AttributeError."""
    with pytest.raises(InvalidConfigError, match=rf"simulation_chart needs the result of "
                                                 rf"holdem\.simulate .*{type(value).__name__}"):
        charts.simulation_chart(value)
    with pytest.raises(InvalidConfigError,
                       match=rf"stats_chart needs a holdem\.Stats, got {type(value).__name__}"):
        charts.stats_chart(value)
    with pytest.raises(InvalidConfigError, match=rf"vpip_frequencies needs a holdem\.Stats, "
                                                 rf"got {type(value).__name__}"):
        charts.vpip_frequencies(value, "a")


# ------------------------------------------------- a whole where an iterable or a hand is due

@pytest.mark.parametrize("value", [None, 1.5, 0, np.int64(2), "abc"])
def test_simulate_names_agents_that_are_not_a_list(value: Any) -> None:
    # TypeError: 'NoneType' object is not iterable, naming nothing
    with pytest.raises(InvalidConfigError, match="agents must be a list of agents or a mapping"):
        holdem.simulate(value, game=holdem.Game(big_blind=2), hands=2, seed=1)


@pytest.mark.parametrize("value", [None, 3, "hands", _folded_hand()])
def test_stats_name_hands_that_are_not_an_iterable_of_hands(value: Any) -> None:
    # a single HandState (an easy slip for [state]) gave "'HandState' object is not iterable"
    for call in (lambda: holdem.Stats(value), lambda: holdem.player_stats(value),
                 lambda: holdem.Stats().update(value)):
        with pytest.raises(InvalidConfigError, match="hands must be an iterable of hands"):
            call()
    assert list(holdem.Stats([_folded_hand()])) == ["seat0", "seat1"]


def test_live_hand_replay_names_items_that_are_not_an_iterable() -> None:
    live = holdem.LiveHand(holdem.Game(big_blind=2), [100, 100], button=0, seed=1)
    for value in (None, 5):
        with pytest.raises(holdem.InvalidActionError, match="replay takes an iterable"):
            live.replay(value)  # type: ignore[arg-type]


def test_hand_history_made_directly_checks_variant_and_actions() -> None:
    # HandHistory(variant=[]) gave "unhashable type: 'list'", actions=None "not iterable"
    hh = phh.loads(HAND)
    for field, value in (("variant", []), ("variant", {}), ("actions", None), ("actions", 5),
                         ("actions", "p2 f")):
        with pytest.raises(InvalidHistoryError, match=field):
            hh.replace(**{field: value})
    with pytest.raises(InvalidHistoryError, match="variant"):
        phh.HandHistory([], (0, 0), (1, 2), (200, 200), min_bet=2)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", [np.uint8, np.int8, np.int16, np.int64])
def test_replay_takes_a_chip_unit_from_numpy(kind: Any) -> None:
    # np.uint8(1): OverflowError (Fraction kept the numpy type and 10**18 overflowed it)
    played = holdem.replay(phh.loads(HAND), chip_unit=kind(1))
    assert played.chip_unit == 1 and played.state.payoffs == (1, -1)
