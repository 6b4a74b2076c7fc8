"""holdem.charts: the SVG charts are well-formed XML and draw what they are given."""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from holdem import CallAgent, Game, InvalidConfigError, RandomAgent, Stats, charts, simulate
from holdem.charts import grid_chart, winnings_chart
from holdem.cli import main
from holdem.history import from_state

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(SVG + "text")]


def test_winnings_chart_scales_points_into_the_plot() -> None:
    svg = charts.winnings_chart({"a": [(0, 0), (10, 5), (20, -5)], "b": [(0, 0), (20, 10)]},
                                {"a": [0, 1, 2], "b": [0, 3]}, title="t <&>",
                                notes={"a": "+1 bb/100"})
    root = parse(svg)
    lines = list(root.iter(SVG + "polyline"))
    assert len(lines) == 2 and len(list(root.iter(SVG + "polygon"))) == 2
    # plot area: x from 78 to 900 - 230 = 670; the first point is x=0, the last x=20
    xs = [float(p.split(",")[0]) for p in lines[0].attrib["points"].split()]
    assert xs[0] == 78.0 and xs[-1] == 670.0
    assert "t <&>" in texts(root) and "+1 bb/100" in texts(root)
    with pytest.raises(InvalidConfigError):
        charts.winnings_chart({})


def test_simulation_chart_ends_at_each_agents_total() -> None:
    r = simulate({"call": CallAgent(), "random": RandomAgent(seed=1)}, Game(big_blind=2),
                 hands=300, seed=2, chunk_hands=50, executor="serial")
    assert [d for d, _ in r.curve] == list(range(5, 301, 5))
    assert r.curve[-1][1] == (r["call"].chips, r["random"].chips)
    root = parse(charts.simulation_chart(r))
    assert len(list(root.iter(SVG + "polyline"))) == 2
    assert any(t.startswith(f"{r['call'].bb_per_100:+.1f} bb/100") for t in texts(root))
    d = simulate({"call": CallAgent(), "random": RandomAgent(seed=1)}, Game(big_blind=2),
                 hands=100, seed=2, chunk_hands=50, executor="serial", duplicate=True)
    assert "(duplicate" in charts.simulation_chart(d)
    one = simulate({"call": CallAgent(), "random": RandomAgent(seed=1)}, Game(big_blind=2),
                   hands=1, seed=2, executor="serial")
    assert "Cumulative winnings over 1 hand<" in charts.simulation_chart(one)
    assert "Cumulative winnings over 300 hands<" in charts.simulation_chart(r)


def test_stats_chart_needs_curves_and_follows_them() -> None:
    s = Game(big_blind=2).new_hand([200, 200], button=0)
    s.fold()  # ann gives up her small blind: -0.5 bb, bob +0.5 bb
    st = Stats(curves=True)
    st.add(s, ("ann", "bob"))
    st.add(s, ("ann", "bob"))
    assert st.curves == {"ann": [-0.5, -1.0], "bob": [0.5, 1.0]}
    parse(charts.stats_chart(st))
    with pytest.raises(InvalidConfigError, match="curves=True"):
        charts.stats_chart(Stats())


def test_range_frequencies_and_grid() -> None:
    freq = charts.range_frequencies("QQ+, AKs, 0.5(AKo), AcQd")
    # AcQd is one of the 12 AQo combos
    assert freq == {"AA": 1.0, "KK": 1.0, "QQ": 1.0, "AKs": 1.0, "AKo": 0.5, "AQo": 1 / 12}
    rows = charts.hand_classes()
    assert rows[0][:3] == ["AA", "AKs", "AQs"] and rows[1][0] == "AKo" and rows[12][12] == "22"
    assert sum(len(r) for r in rows) == 169
    root = parse(charts.grid_chart(freq, title="r"))
    cells = [r for r in root.iter(SVG + "rect") if r.attrib.get("width") == "46"]
    assert len(cells) == 169
    assert "50%" in texts(root) and "8%" in texts(root)
    with pytest.raises(InvalidConfigError, match="kind"):
        charts.grid_chart(freq, kind="heat")


def test_equity_grid_against_a_hand() -> None:
    eq = charts.range_equities("AA", samples=2000, seed=1)
    assert len(eq) == 169
    # against aces: the other pairs are about 18-20%, AKs about 12%, AA itself 50% (a tie)
    assert eq["AA"] == pytest.approx(0.5, abs=0.02)
    assert eq["KK"] == pytest.approx(0.18, abs=0.03)
    assert max(eq.values()) < 0.6
    parse(charts.grid_chart(eq, kind="equity", title="vs AA"))


def test_vpip_frequencies_count_known_starting_hands() -> None:
    # ann (AsKs, suited) raises, bob (7c2d, offsuit) folds: AKs played 1 of 1, 72o 0 of 1
    s = Game(big_blind=2).new_hand([200, 200], button=0, hole_cards=["AsKs", "7c2d"])
    s.raise_to(6)
    s.fold()
    st = Stats(starting_hands=True)
    st.add(s, ("ann", "bob"))
    assert charts.vpip_frequencies(st, "ann") == {"AKs": 1.0}
    assert charts.vpip_frequencies(st, "bob") == {"72o": 0.0}
    with pytest.raises(InvalidConfigError, match="starting_hands=True"):
        charts.vpip_frequencies(Stats(), "ann")


@pytest.mark.parametrize(("curves", "bands", "message"), [
    ({"a": [(0, 0), (1, math.inf)]}, None, "y of point 1 must be a finite number"),
    ({"a": [(0, 0), (1, 1e308)]}, None, "within"),
    ({"a": [(0, 0), (1, math.nan)]}, None, "y of point 1"),
    ({"a": [(0, 0), (math.nan, 1)]}, None, "x of point 1"),
    ({"a": [(0, 0), (1, 1)]}, {"a": [0.5]}, "band 'a' has 1 entries for 2 points"),
    ({"a": [(0, 0), (1, 1)]}, {"a": [0.5, -1]}, "entry 1 must be >= 0"),
    ({7: [(0, 0), (1, 1)]}, None, "curve names must be str"),
    ({"a": [(0, 0), (1,)]}, None, "point 1 must be"),
    ({"a": [(0, 0), (1, "2")]}, None, "must be a number"),
])
def test_winnings_chart_refuses_what_it_cannot_draw(curves: Any, bands: Any,
                                                     message: str) -> None:
    # these raised OverflowError, IndexError or AttributeError, or drew "nan" coordinates
    with pytest.raises(InvalidConfigError, match=message):
        winnings_chart(curves, bands)


@pytest.mark.parametrize("value", [math.nan, math.inf, -0.1, 1.5, "0.5", None])
def test_grid_chart_values_must_be_in_0_1(value: object) -> None:
    with pytest.raises(InvalidConfigError, match="'AA'"):
        grid_chart({"AA": value, "KK": 0.5})  # type: ignore[dict-item]


def test_charts_take_numpy_numbers() -> None:
    np = pytest.importorskip("numpy")
    assert winnings_chart({"a": [(np.int64(0), np.float32(0)), (1, np.float64(2.5))]},
                          {"a": [np.float32(0), 0.5]}).startswith("<svg")
    assert grid_chart({"AA": np.float32(0.25)}).startswith("<svg")


def test_grid_chart_escapes_its_scale_label() -> None:
    # the label under the colour scale was written as given: '<' or '&' broke the XML
    root = parse(grid_chart({"AA": 0.5}, label="VPIP <all> & more"))
    assert "VPIP <all> & more" in texts(root)


def test_text_xml_cannot_hold_is_replaced_not_written() -> None:
    # a control character (a PHH player name may hold one: TOML writes it as \u0007) or a lone
    # surrogate went into the SVG as is, which no XML parser or browser reads
    names = {"a\x07b": [(0, 0), (1, 1)], "c\ud800d": [(0, 0), (1, 2)]}
    root = parse(winnings_chart(names, notes={"a\x07b": "x\x1by"}, title="t\x00", x_label="\x0c",
                                y_label="\ufffe"))
    shown = texts(root)
    assert "a\ufffdb" in shown and "c\ufffdd" in shown and "x\ufffdy" in shown
    assert "t\ufffd" in shown and "\ufffd" in shown
    root = parse(grid_chart({"AA": 1.0}, title="\x01 grid", subtitle="\x02", label="\x03"))
    assert {"\ufffd grid", "\ufffd"} <= set(texts(root))
    # tab, newline and carriage return are XML characters: kept (escaped as text)
    assert "a\tb" in texts(parse(winnings_chart({"a\tb": [(0, 0), (1, 1)]})))


def test_stats_charts_of_a_player_named_with_a_control_character(tmp_path: Path) -> None:
    s = Game(big_blind=2).new_hand([200, 200], button=0, hole_cards=["AsKs", "7c2d"])
    s.raise_to(6)
    s.fold()
    path = tmp_path / "hand.phh"
    path.write_text(from_state(s, players=["bell\x07", "<bob> & 'co'"]).dumps(), encoding="utf-8")
    chart, grid = tmp_path / "c.svg", tmp_path / "g.svg"
    assert main(["stats", str(path), "--chart", str(chart), "--grid", str(grid), "--player",
                 "bell\x07"], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    assert {"bell\ufffd", "<bob> & 'co'"} <= set(texts(parse(chart.read_text("utf-8"))))
    assert "bell\ufffd: VPIP by starting hand" in texts(parse(grid.read_text("utf-8")))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: grid_chart({"AA": 0.5}, title=None), "title must be a str"),
    (lambda: grid_chart({"AA": 0.5}, subtitle=3), "subtitle must be a str"),
    (lambda: grid_chart({"AA": 0.5}, label=b"x"), "label must be a str"),
    (lambda: grid_chart({"AA": 0.5}, cell="46"), "cell must be an int"),
    (lambda: grid_chart({"AA": 0.5}, cell=0), "cell must be from 24"),
    (lambda: grid_chart(None), "values must be a mapping"),
    (lambda: grid_chart("AA"), "values must be a mapping"),
    (lambda: winnings_chart({"a": [(0, 0), (1, 1)]}, title=None), "title must be a str"),
    (lambda: winnings_chart({"a": [(0, 0), (1, 1)]}, x_label=1), "x_label must be a str"),
    (lambda: winnings_chart({"a": [(0, 0), (1, 1)]}, notes={"a": 5}), "note of 'a'"),
    (lambda: winnings_chart({"a": [(0, 0), (1, 1)]}, notes=["a"]), "notes must be a mapping"),
    (lambda: winnings_chart({"a": [(0, 0), (1, 1)]}, {"a": 5}), "band 'a' must be a list"),
    (lambda: winnings_chart({"a": [(0, 0), (1, 1)]}, width=10), "width must be from 400"),
    (lambda: winnings_chart({"a": [(0, 0), (1, 1)]}, height="540"), "height must be an int"),
    (lambda: winnings_chart(5), "curves must be a mapping"),
    # a band or note of a name that is no curve's (a typo) was dropped without a word
    (lambda: winnings_chart({"a": [(0, 0), (1, 1)]}, {"b": [0, 1]}),
     r"band 'b' names no curve \(the curves: 'a'\)"),
    (lambda: winnings_chart({"a": [(0, 0), (1, 1)], "c": [(0, 1)]}, notes={"A": "x"}),
     r"note 'A' names no curve \(the curves: 'a', 'c'\)"),
    (lambda: winnings_chart({"a": "xy", "b": [(0, 0)]}), "curve 'a' must be a list"),
])
def test_charts_name_an_argument_of_the_wrong_type_or_size(call: Any, message: str) -> None:
    # these raised TypeError or AttributeError, or drew a chart of negative size
    with pytest.raises(InvalidConfigError, match=message):
        call()


def test_charts_of_a_player_not_in_the_statistics_name_them() -> None:
    # stats_chart raised KeyError (players="ann" charted 'a', 'n', 'n'); vpip_frequencies gave
    # an empty grid for a name that is not there, as if the player had never been dealt a hand
    s = Game(big_blind=2).new_hand([200, 200], button=0, hole_cards=["AsKs", "7c2d"])
    s.fold()
    st = Stats(curves=True, starting_hands=True)
    st.add(s, ("ann", "bob"))
    for players in (["zed"], ["ann", 5]):
        with pytest.raises(InvalidConfigError, match="is not in these statistics"):
            charts.stats_chart(st, players=players)
    with pytest.raises(InvalidConfigError, match="players must be a list of names"):
        charts.stats_chart(st, players="ann")
    with pytest.raises(InvalidConfigError, match="'zed' is not in these statistics"):
        charts.vpip_frequencies(st, "zed")
    root = parse(charts.stats_chart(st, players=["bob", "ann", "bob"]))
    assert len(list(root.iter(SVG + "polyline"))) == 2
    assert charts.vpip_frequencies(st, "ann") == {"AKs": 0.0}


@pytest.mark.parametrize("key", ["KAs", "AKS", "AK", "aks", "AAo", "AKs ", "1", 7])
def test_grid_chart_refuses_a_value_for_what_is_not_a_hand_class(key: object) -> None:
    # such a value was dropped without a word: its cell stayed blank, as if it had no value
    with pytest.raises(InvalidConfigError, match="is not a hand class of the grid"):
        grid_chart({key: 0.5, "AA": 1.0})  # type: ignore[dict-item]


def tick_labels(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(SVG + "text") if t.attrib.get("fill") == "#555"]


def test_tick_labels_of_huge_totals_are_short_and_plain() -> None:
    # ticks of 2e14 read '2e+08M' (and x ticks '500000M'), wide enough to run into the
    # axis title
    root = parse(winnings_chart({"a": [(0, 0), (3e12, 1e15)], "b": [(0, 0), (3e12, -2e14)]}))
    labels = tick_labels(root)
    assert not any("e" in t for t in labels), labels
    assert {"0", "1000T", "500T", "500B", "1T", "3T"} <= set(labels), labels
    assert max(len(t) for t in labels) <= 5
    root = parse(winnings_chart({"a": [(0, 0), (2e9, 4e6)]}))
    assert {"1B", "2B", "1M", "4M"} <= set(tick_labels(root)), tick_labels(root)


def notes_of(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(SVG + "text") if "bb/100" in (t.text or "")]


def test_one_hand_has_no_interval_in_the_legend() -> None:
    # the summary tables say '+/- n/a' for one hand (or one deal): the legend said '± 0.0'
    one = simulate({"call": CallAgent(), "random": RandomAgent(seed=1)}, Game(big_blind=2),
                   hands=1, seed=2, executor="serial")
    assert [n.endswith("\u00b1 n/a") for n in notes_of(parse(charts.simulation_chart(one)))] \
        == [True, True]
    dup = simulate({"call": CallAgent(), "random": RandomAgent(seed=1)}, Game(big_blind=2),
                   hands=1, seed=2, executor="serial", duplicate=True)
    assert all(n.endswith("\u00b1 n/a") for n in notes_of(parse(charts.simulation_chart(dup))))
    two = simulate({"call": CallAgent(), "random": RandomAgent(seed=1)}, Game(big_blind=2),
                   hands=2, seed=2, executor="serial")
    assert not any(n.endswith("n/a") for n in notes_of(parse(charts.simulation_chart(two))))
    s = Game(big_blind=2).new_hand([200, 200], button=0)
    s.fold()
    st = Stats(curves=True)
    st.add(s, ("ann", "bob"))
    assert notes_of(parse(charts.stats_chart(st))) == ["-50.0 bb/100 \u00b1 n/a",
                                                       "+50.0 bb/100 \u00b1 n/a"]
    st.add(s, ("ann", "bob"))
    assert notes_of(parse(charts.stats_chart(st))) == ["-50.0 bb/100 \u00b1 0.0",
                                                       "+50.0 bb/100 \u00b1 0.0"]


def test_the_legend_fits_the_chart() -> None:
    # an eleventh curve took the first one's colour and its legend fell below the chart;
    # a long name or note ran past the right edge, cut off mid-letter
    eleven = {f"p{k}": [(0, 0), (1, k)] for k in range(11)}
    with pytest.raises(InvalidConfigError, match="at most 10 curves"):
        winnings_chart(eleven)
    name, note = "a player with a very long screen name", "+1234.5 bb/100 \u00b1 1234.5 (duplicate)"
    root = parse(winnings_chart({name: [(0, 0), (1, 1)], "short": [(0, 0), (1, 2)]},
                                notes={name: note, "short": "+1.0 bb/100"}))
    legend = [t for t in root.iter(SVG + "text") if t.find(SVG + "title") is not None]
    assert [t.find(SVG + "title").text for t in legend] == [name, note]  # type: ignore[union-attr]
    shown = [t.find(SVG + "title").tail or "" for t in legend]  # type: ignore[union-attr]
    assert shown == ["a player with a ver\u2026", "+1234.5 bb/100 \u00b1 1234.5 (\u2026"]
    assert {"short", "+1.0 bb/100"} <= set(texts(root))
    # ten curves: every legend entry (a name and a note, 44 pixels apart) inside the chart
    ten = {f"p{k}": [(0, 0), (1, k)] for k in range(10)}
    root = parse(winnings_chart(ten, notes={n: "+1.0 bb/100 \u00b1 2.0" for n in ten}))
    assert max(float(t.attrib.get("y", 0)) for t in root.iter(SVG + "text")) < 540
    assert len({p.attrib["stroke"] for p in root.iter(SVG + "polyline")}) == 10


@pytest.mark.parametrize("points", [[(0, 0), (5e-324, 1)], [(0, 0), (1e-310, 2)],
                                    [(0, 0), (5e-324, 5e-324)]])
def test_a_span_too_small_to_divide_still_charts(points: list[tuple[float, float]]) -> None:
    """A subnormal span underflowed to a tick step of 0: math.log10(0) raised ValueError."""
    svg = winnings_chart({"a": points})
    ET.fromstring(svg)
    assert "nan" not in svg.lower() and "inf" not in svg.lower()


# ---------------------------------------------------------------------- mutation-run additions
def _points(text: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in text.split())]


def test_winnings_chart_band_spans_the_curve_plus_and_minus_its_half_width() -> None:
    """Module docs: each curve in a shaded band of +/- the interval: the polygon is the upper
    edge (y + half) then the lower edge (y - half) reversed, centred on the curve."""
    root = parse(winnings_chart({"a": [(0, 0.0), (5, 2.0), (10, -1.0)]},
                                {"a": [0.0, 3.0, 4.0]}))
    (poly,) = list(root.iter(SVG + "polygon"))
    (line,) = [p for p in root.iter(SVG + "polyline")]
    band, curve = _points(poly.get("points", "")), _points(line.get("points", ""))
    upper, lower = band[:3], band[3:][::-1]
    for (ux, uy), (lx, ly), (cx, cy), half in zip(upper, lower, curve, (0.0, 3.0, 4.0),
                                                  strict=True):
        assert ux == lx == cx
        assert abs((uy + ly) / 2 - cy) <= 0.1  # centred (pixels rounded to 0.1)
        assert (ly - uy > 1) == (half > 0)  # the lower edge is below the upper one (SVG y down)


def test_stats_chart_band_grows_with_the_square_root_of_the_hands() -> None:
    """Module docs: the band is 1.96 sd of one hand times the square root of the hands
    played: zero width at 0 hands, twice as wide at 4 hands as at 1."""
    s = Game(big_blind=2).new_hand([200, 200], button=0)
    s.fold()
    st = Stats(curves=True)
    for names in (("ann", "bob"), ("bob", "ann"), ("ann", "bob"), ("bob", "ann")):
        st.add(s, names)
    root = parse(charts.stats_chart(st, players=["ann"]))
    (poly,) = list(root.iter(SVG + "polygon"))
    band = _points(poly.get("points", ""))
    upper, lower = band[:5], band[5:][::-1]
    width = [ly - uy for (_, uy), (_, ly) in zip(upper, lower, strict=True)]
    assert width[0] == 0
    assert width[1] > 1
    assert abs(width[4] / width[1] - 2) < 0.02


def test_legend_name_of_exactly_the_room_is_shown_whole() -> None:
    """_legend: a legend text is cut only when longer than its room (20 characters for a
    name): a 20-character name is shown whole, with no tooltip or ellipsis; 21 is cut."""
    fits, cut = "n" * 20, "m" * 21
    svg = winnings_chart({fits: [(0, 0.0), (1, 1.0)], cut: [(0, 0.0), (1, -1.0)]})
    root = parse(svg)
    assert fits in texts(root)
    (title,) = list(root.iter(SVG + "title"))
    assert title.text == cut and title.tail == "m" * 19 + "\u2026"


@pytest.mark.parametrize("given", [22, ["AA", "KK"], ("AsKs",), None, 1.5, b"AA"], ids=repr)
def test_range_frequencies_takes_a_range_or_its_text_only(given: object) -> None:
    """It turned anything into text: the int 22 was read as pocket deuces, a list as the
    token "['AA'"."""
    with pytest.raises(InvalidConfigError, match=r"hand_range must be a holdem\.Range or "
                                                 r"range text"):
        charts.range_frequencies(given)


def test_range_frequencies_of_numpy_text_is_the_text_s() -> None:
    np = pytest.importorskip("numpy")
    assert charts.range_frequencies(np.str_("AKs, 0.5(QQ)")) == {"AKs": 1.0, "QQ": 0.5}


@pytest.mark.parametrize(("opponent", "message"), [
    (None, "range_equities: opponent: a hand is two cards"),
    (["As"], "range_equities: opponent: a hand has 2 cards, not 1"),
    ("AKx", "invalid range token 'AKx'")], ids=repr)
def test_range_equities_names_a_bad_opponent(opponent: object, message: str) -> None:
    """A bad opponent was reported as "player 2" of an equity call the caller never made."""
    from holdem import HoldemError

    with pytest.raises(HoldemError, match=message):
        charts.range_equities(opponent, samples=10)


def test_winnings_chart_labels_zero_as_0_never_minus_0() -> None:
    """Ticks are sums of the step from the lowest: one a hair below zero was labelled "-0"."""
    svg = winnings_chart({"a": [(0, 0.0), (1, -0.3), (2, 0.2)]})
    labels = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert "0" in labels and "-0" not in labels


def test_winnings_chart_refuses_a_point_left_of_its_axis() -> None:
    """The x axis starts at 0 (hands played): a negative x was drawn left of the plot, over
    the labels (x = -1402 in a 900-pixel chart)."""
    with pytest.raises(InvalidConfigError, match=r"curve 'a': x of point 1 must be >= 0"):
        winnings_chart({"a": [(0, 0), (-5, -3), (2, 2)]})
