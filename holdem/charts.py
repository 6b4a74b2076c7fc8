"""Charts as SVG text, drawn by the project itself (no plotting library needed).

- :func:`winnings_chart`: cumulative winnings per player over hands, each curve in a shaded
  95% band (the interval of the total won so far: +/- 1.96 standard deviations of one hand's
  result times the square root of the hands played). :func:`simulation_chart` draws it for a
  :func:`holdem.simulate` result, :func:`stats_chart` for :class:`holdem.Stats` kept with
  ``curves=True``.
- :func:`grid_chart`: the 13x13 preflop grid (pairs on the diagonal, suited hands above it,
  offsuit below) coloured by a value per hand class: :func:`range_frequencies` (how much of
  each class a range holds) or :func:`range_equities` (each class's equity against a range).

>>> import holdem
>>> from holdem import charts
>>> svg = charts.grid_chart(charts.range_frequencies(holdem.Range("QQ+, AKs, 0.5(AKo)")),
...                         title="An opening range")
>>> svg.startswith("<svg") and "AKo" in svg and "50%" in svg
True

Write the text to a ``.svg`` file and open it in any browser.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from holdem._shown import excerpt
from holdem.cards import RANKS
from holdem.errors import InvalidConfigError

__all__ = [
    "grid_chart",
    "hand_classes",
    "range_equities",
    "range_frequencies",
    "simulation_chart",
    "stats_chart",
    "vpip_frequencies",
    "winnings_chart",
]

_Z95 = 1.959963984540054
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac")
_FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif\""
_ORDER = RANKS[::-1]  # A K Q ... 2, the grid's rows and columns


def _nice_step(span: float, count: int) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``count`` ticks."""
    if span <= 0:
        return 1.0
    raw = span / count
    mag = float(10.0 ** math.floor(math.log10(raw))) if raw > 0 else 0.0
    if mag == 0:  # a span so small that the division or the power underflows (5e-324)
        return span
    for m in (1, 2, 5, 10):
        if m * mag >= raw:
            return float(m * mag)
    return 10 * mag


def _ticks(lo: float, hi: float, count: int = 6) -> list[float]:
    step = _nice_step(hi - lo, count)
    start = math.floor(lo / step) * step
    out = []
    v = start
    while v <= hi + step * 1e-9:
        if v >= lo - step * 1e-9:
            out.append(round(v, 10) + 0.0)  # + 0.0: no "-0" label from a sum a hair below 0
        v += step
    return out


def _num(v: float) -> str:
    """A tick label: ``250``, ``1.5k``, ``20M``, ``3B``, ``400T`` (never ``2e+08M``)."""
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= scale:
            return f"{v / scale:g}{suffix}"
    return f"{v:g}"


# Characters XML 1.0 cannot hold, even escaped: C0 controls but tab, newline and carriage
# return, lone surrogates, U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _text(value: str) -> str:
    """``value`` as SVG text: markup escaped, characters XML cannot hold shown as U+FFFD."""
    return escape(_NOT_XML.sub("\ufffd", value))


_LIMIT = 1e15  # the largest |x| or |y| a chart draws (float coordinates stay exact enough)


def _finite(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidConfigError(f"{what} must be a number, got {excerpt(value)}")
    try:
        x = float(value)
    except OverflowError:  # an int (or Fraction) beyond any float
        x = math.inf
    if not -_LIMIT <= x <= _LIMIT:  # NaN fails both comparisons
        raise InvalidConfigError(
            f"{what} must be a finite number within +/-1e15, got {excerpt(value)}")
    return x


# The legend's column (190 pixels) holds about this many characters of a name (bold, 13 px)
# and of a note (12 px); longer ones are cut with an ellipsis, whole in a tooltip.
_LEGEND_NAME, _LEGEND_NOTE = 20, 26


def _legend(text: str, room: int) -> str:
    """A legend text that fits its column: cut to ``room`` characters, the whole text in a
    ``<title>`` (shown on hover)."""
    if len(text) <= room:
        return _text(text)
    return f"<title>{_text(text)}</title>{_text(text[:room - 1].rstrip())}\u2026"


def _str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidConfigError(f"{what} must be a str, got {excerpt(value)}")
    return value


def _size(value: object, what: str, low: int) -> int:
    """A size in pixels: an int of at least ``low`` (smaller ones leave no room to draw)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidConfigError(f"{what} must be an int, got {excerpt(value)}")
    pixels = int(value)
    if not low <= pixels <= 100_000:
        raise InvalidConfigError(f"{what} must be from {low} to 100000 pixels, got {excerpt(value)}")
    return pixels


def _mapping(value: object, what: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise InvalidConfigError(f"{what} must be a mapping (a dict), got {excerpt(value)}")
    return value


def _check_curves(curves: Mapping[str, Sequence[tuple[float, float]]],
                  bands: Mapping[str, Sequence[float]]) -> None:
    """InvalidConfigError naming the first curve, point or band entry a chart cannot draw."""
    for name, pts in curves.items():
        if not isinstance(name, str):
            raise InvalidConfigError(f"curve names must be str, got {excerpt(name)}")
        if isinstance(pts, str) or not isinstance(pts, Sequence):
            raise InvalidConfigError(f"curve {name!r} must be a list of (x, y) points, got "
                                     f"{excerpt(pts)}")
        for k, pt in enumerate(pts):
            if not isinstance(pt, tuple | list) or len(pt) != 2:
                raise InvalidConfigError(f"curve {name!r}: point {k} must be (x, y), got {excerpt(pt)}")
            if _finite(pt[0], f"curve {name!r}: x of point {k}") < 0:
                raise InvalidConfigError(f"curve {name!r}: x of point {k} must be >= 0 (the "
                                         f"x axis starts at 0), got {excerpt(pt[0])}")
            _finite(pt[1], f"curve {name!r}: y of point {k}")
        band = bands.get(name)
        if band is not None:
            if isinstance(band, str) or not hasattr(band, "__len__"):
                raise InvalidConfigError(f"band {name!r} must be a list of numbers, got "
                                         f"{excerpt(band)}")
            if len(band) != len(pts):
                raise InvalidConfigError(f"band {name!r} has {len(band)} entries for "
                                         f"{len(pts)} points")
            for k, half in enumerate(band):
                if _finite(half, f"band {name!r}: entry {k}") < 0:
                    raise InvalidConfigError(f"band {name!r}: entry {k} must be >= 0, got "
                                             f"{excerpt(half)}")


def winnings_chart(curves: Mapping[str, Sequence[tuple[float, float]]],
                   bands: Mapping[str, Sequence[float]] | None = None, *,
                   title: str = "Cumulative winnings", x_label: str = "hands",
                   y_label: str = "big blinds won", notes: Mapping[str, str] | None = None,
                   width: int = 900, height: int = 540) -> str:
    """Lines of ``(x, y)`` points per player, each in a shaded band ``y +/- bands[name][k]``.

    ``notes``: a short text per player for the legend (e.g. its bb/100 and interval).
    """
    if curves is not None:
        _mapping(curves, "curves")
    if not curves or not any(len(pts) for pts in curves.values() if hasattr(pts, "__len__")):
        raise InvalidConfigError("a winnings chart needs at least one curve with points")
    if len(curves) > len(PALETTE):
        raise InvalidConfigError(
            f"a winnings chart draws at most {len(PALETTE)} curves (one colour each, and room "
            f"for their legend), got {len(curves)}")
    bands = _mapping(bands, "bands") if bands is not None else {}
    notes = _mapping(notes, "notes") if notes is not None else {}
    _check_curves(curves, bands)
    for what, given in (("band", bands), ("note", notes)):
        for name in given:
            if name not in curves:
                raise InvalidConfigError(
                    f"{what} {excerpt(name)} names no curve (the curves: "
                    f"{', '.join(map(repr, curves))})")
    for name, note in notes.items():
        _str(note, f"the note of {name!r}")
    for value, what in ((title, "title"), (x_label, "x_label"), (y_label, "y_label")):
        _str(value, what)
    width, height = _size(width, "width", 400), _size(height, "height", 240)
    left, right, top, bottom = 78, 230, 70 if bands else 52, 58
    pw, ph = width - left - right, height - top - bottom
    xs = [x for pts in curves.values() for x, _ in pts]
    ys = [0.0]
    for name, pts in curves.items():
        band = bands.get(name)
        for k, (_, y) in enumerate(pts):
            half = band[k] if band is not None else 0.0
            ys += [y - half, y + half]
    x0, x1 = 0.0, max(xs) if max(xs) > 0 else 1.0
    y0, y1 = min(ys), max(ys)
    if y1 - y0 < 1e-9:
        y0, y1 = y0 - 1, y1 + 1
    pad = 0.05 * (y1 - y0)
    y0, y1 = y0 - pad, y1 + pad

    def sx(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * pw

    def sy(y: float) -> float:
        return top + (y1 - y) / (y1 - y0) * ph

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" {_FONT} font-size="13">',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{left}" y="30" font-size="18" font-weight="600" fill="#222">'
           f'{_text(title)}</text>']
    for t in _ticks(y0, y1):
        y = sy(t)
        colour, w = ("#888", 1.2) if t == 0 else ("#e6e6e6", 1)
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y:.1f}" y2="{y:.1f}" '
                   f'stroke="{colour}" stroke-width="{w}"/>')
        out.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end" fill="#555">'
                   f'{_num(t)}</text>')
    for t in _ticks(x0, x1):
        x = sx(t)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{top + ph}" '
                   'stroke="#f0f0f0"/>')
        out.append(f'<text x="{x:.1f}" y="{top + ph + 20}" text-anchor="middle" fill="#555">'
                   f'{_num(t)}</text>')
    out.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" '
               'stroke="#bbb"/>')
    out.append(f'<text x="{left + pw / 2:.1f}" y="{height - 14}" text-anchor="middle" '
               f'fill="#333">{_text(x_label)}</text>')
    out.append(f'<text transform="translate(20 {top + ph / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle" fill="#333">{_text(y_label)}</text>')
    for i, (name, pts) in enumerate(curves.items()):
        colour = PALETTE[i % len(PALETTE)]
        band = bands.get(name)
        if band is not None and pts:
            upper = [f"{sx(x):.1f},{sy(y + h):.1f}" for (x, y), h in zip(pts, band, strict=True)]
            lower = [f"{sx(x):.1f},{sy(y - h):.1f}" for (x, y), h in zip(pts, band, strict=True)]
            out.append(f'<polygon points="{" ".join(upper + lower[::-1])}" fill="{colour}" '
                       'fill-opacity="0.16" stroke="none"/>')
    for i, (name, pts) in enumerate(curves.items()):
        colour = PALETTE[i % len(PALETTE)]
        line = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts)
        out.append(f'<polyline points="{line}" fill="none" stroke="{colour}" '
                   'stroke-width="2.2" stroke-linejoin="round"/>')
        ly = top + 10 + 44 * i
        lx = left + pw + 18
        out.append(f'<rect x="{lx}" y="{ly}" width="14" height="14" rx="3" fill="{colour}"/>')
        out.append(f'<text x="{lx + 22}" y="{ly + 12}" font-weight="600" fill="#222">'
                   f'{_legend(name, _LEGEND_NAME)}</text>')
        if name in notes:
            out.append(f'<text x="{lx + 22}" y="{ly + 30}" font-size="12" fill="#555">'
                       f'{_legend(notes[name], _LEGEND_NOTE)}</text>')
    if bands:
        out.append(f'<text x="{left}" y="52" font-size="12.5" fill="#777">shaded: the 95% '
                   'interval of each total (1.96 standard deviations of a hand times the '
                   'square root of the hands)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def simulation_chart(result: Any, *, title: str | None = None) -> str:
    """The cumulative winnings (in big blinds) of each agent of a :func:`holdem.simulate`
    result (its ``curve``: ten points per chunk, at most about 600 drawn), with the 95% band
    (the duplicate interval for a duplicate match). ``result`` must be a
    :class:`holdem.simulate.SimulationResult`, else :class:`InvalidConfigError`."""
    from holdem.simulate import SimulationResult

    if not isinstance(result, SimulationResult):
        raise InvalidConfigError(
            f"simulation_chart needs the result of holdem.simulate (a SimulationResult), got "
            f"{type(result).__name__}: {excerpt(result)}")
    curve = result.curve
    if not curve:
        raise InvalidConfigError("this simulation result has no winnings curve to draw")
    bb = result.big_blind
    m = result.seatings
    curves: dict[str, list[tuple[float, float]]] = {}
    bands: dict[str, list[float]] = {}
    notes = {}
    for j, agent in enumerate(result.players):
        dup = agent.duplicate_ci95
        # standard deviation of one hand (or of one deal's average over its seatings), in bb
        if dup is not None:
            sd = dup * math.sqrt(result.deals) / (100 * _Z95)
        else:
            sd = agent.ci95 * math.sqrt(result.hands) / (100 * _Z95)
        step = max(1, math.ceil(len(curve) / 600))
        kept = curve[step - 1::step]
        if kept[-1] is not curve[-1]:
            kept = (*kept, curve[-1])
        pts = [(0.0, 0.0)] + [(float(deals * m), chips[j] / bb) for deals, chips in kept]
        half = [0.0] + [_Z95 * sd * (m * math.sqrt(deals) if dup is not None
                                     else math.sqrt(deals)) for deals, _ in kept]
        curves[agent.name] = pts
        bands[agent.name] = half
        ci = dup if dup is not None else agent.ci95
        # one hand (or one deal) has no spread to measure: n/a, as in the summary table
        measured = (result.deals if dup is not None else agent.hands) >= 2
        notes[agent.name] = (f"{agent.bb_per_100:+.1f} bb/100 \u00b1 "
                             + (f"{ci:.1f}" if measured else "n/a"))
    if title is None:
        title = (f"Cumulative winnings over {result.hands:,} "
                 f"hand{'' if result.hands == 1 else 's'}")
        if m > 1:
            title += f" (duplicate, {m} seatings)"
    return winnings_chart(curves, bands, title=title, notes=notes)


def _thin(points: Sequence[float], limit: int = 600) -> list[tuple[int, float]]:
    """At most about ``limit`` (hands played, value) points of a per-hand series."""
    n = len(points)
    step = max(1, math.ceil(n / limit))
    out = [(0, 0.0)]
    out += [(k + 1, points[k]) for k in range(step - 1, n, step)]
    if out[-1][0] != n:
        out.append((n, points[-1]))
    return out


def _stats_arg(stats: object, what: str) -> None:
    """Refuse a ``stats`` that is not a :class:`holdem.Stats` (:class:`InvalidConfigError`)."""
    from holdem.stats import Stats

    if not isinstance(stats, Stats):
        raise InvalidConfigError(f"{what} needs a holdem.Stats, got {type(stats).__name__}: "
                                 f"{excerpt(stats)}")


def _known_player(stats: Any, name: object) -> None:
    if not isinstance(name, str) or name not in stats:
        raise InvalidConfigError(f"player {excerpt(name)} is not in these statistics")


def stats_chart(stats: Any, *, title: str = "Cumulative winnings",
                players: Sequence[str] | None = None) -> str:
    """The cumulative winnings in big blinds of the players of a :class:`holdem.Stats` kept
    with ``curves=True`` (by default the ten who played the most hands), each over its own
    hands, with its 95% band when there are at most four players."""
    _stats_arg(stats, "stats_chart")
    if stats.curves is None:
        raise InvalidConfigError("keep the curves to chart them: Stats(..., curves=True)")
    if players is not None:
        if isinstance(players, str) or not isinstance(players, Sequence | set | frozenset):
            raise InvalidConfigError(f"players must be a list of names, got {excerpt(players)}")
        for name in players:
            _known_player(stats, name)
        names = list(dict.fromkeys(players))
    else:
        names = sorted(stats, key=lambda n: (-stats[n].hands, n))[:len(PALETTE)]
    shaded = len(names) <= 4  # more bands than that hide each other
    curves: dict[str, list[tuple[float, float]]] = {}
    bands: dict[str, list[float]] = {}
    notes = {}
    for name in names:
        p = stats[name]
        pts = _thin(stats.curves[name])
        sd = p.ci95 * math.sqrt(p.hands) / (100 * _Z95) if p.hands > 1 else 0.0
        curves[name] = [(float(x), y) for x, y in pts]
        if shaded:
            bands[name] = [_Z95 * sd * math.sqrt(x) for x, _ in pts]
        notes[name] = (f"{p.bb_per_100:+.1f} bb/100 \u00b1 "
                       + (f"{p.ci95:.1f}" if p.hands >= 2 else "n/a"))
    return winnings_chart(curves, bands, title=title, notes=notes,
                          x_label="hands played by the player")


# --- the 13x13 preflop grid ------------------------------------------------------------------


def hand_classes() -> list[list[str]]:
    """The 169 hand classes as the grid's rows: ``AA AKs AQs ...`` down to ``... 32o 22``."""
    rows = []
    for i, a in enumerate(_ORDER):
        row = []
        for j, b in enumerate(_ORDER):
            row.append(a + b if i == j else (a + b + "s" if i < j else b + a + "o"))
        rows.append(row)
    return rows


def _class_of(rank_hi: int, rank_lo: int, suited: bool) -> str:
    a, b = RANKS[rank_hi], RANKS[rank_lo]
    if rank_hi == rank_lo:
        return a + b
    return a + b + ("s" if suited else "o")


def range_frequencies(hand_range: Any) -> dict[str, float]:
    """Each hand class's share of its combos in ``hand_range`` (a :class:`holdem.Range` or
    its text), weights counted: ``0.5(AKo)`` gives ``AKo`` 0.5."""
    from holdem.ranges import Range

    if not isinstance(hand_range, Range | str):
        raise InvalidConfigError(f"range_frequencies: hand_range must be a holdem.Range or "
                                 f"range text like 'QQ+, AKs', got {excerpt(hand_range)}")
    r = hand_range if isinstance(hand_range, Range) else Range(hand_range)
    total: dict[str, float] = {}
    for (c1, c2), w in r.items():
        hi, lo = max(c1.rank, c2.rank), min(c1.rank, c2.rank)
        cls = _class_of(hi, lo, c1.suit == c2.suit)
        total[cls] = total.get(cls, 0.0) + w
    return {cls: w / (6 if len(cls) == 2 else 4 if cls[2] == "s" else 12)
            for cls, w in total.items()}


def range_equities(opponent: Any, *, samples: int = 20_000, seed: int = 0) -> dict[str, float]:
    """Each hand class's all-in preflop equity against ``opponent`` (a range or a hand), by
    :func:`holdem.equity` (Monte Carlo with ``samples`` boards per class, seeded)."""
    from holdem.equity import _player, equity

    _player(opponent, "range_equities: opponent")  # a bad one named as the caller gave it
    out = {}
    for row in hand_classes():
        for cls in row:
            res = equity([cls, opponent], samples=samples, seed=seed, executor="serial")
            out[cls] = res.equities[0]
    return out


def vpip_frequencies(stats: Any, player: str) -> dict[str, float]:
    """Each hand class's VPIP share for ``player`` of a :class:`holdem.Stats` kept with
    ``starting_hands=True`` (classes the player was never dealt are absent)."""
    _stats_arg(stats, "vpip_frequencies")
    if stats.starting_hands is None:
        raise InvalidConfigError("count the starting hands to chart them: "
                                 "Stats(..., starting_hands=True)")
    _known_player(stats, player)
    classes = stats.starting_hands.get(player, {})
    return {cls: played / dealt for cls, (dealt, played) in classes.items() if dealt}


def _mix(c1: str, c2: str, t: float) -> str:
    a = [int(c1[k:k + 2], 16) for k in (1, 3, 5)]
    b = [int(c2[k:k + 2], 16) for k in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b, strict=True))


def _colour(v: float, diverging: bool) -> str:
    v = min(max(v, 0.0), 1.0)
    if diverging:
        return (_mix("#d7604d", "#f7f7f7", v / 0.5) if v < 0.5
                else _mix("#f7f7f7", "#2e8b57", (v - 0.5) / 0.5))
    return _mix("#f4f6f9", "#1f5f99", v)


def _ink(fill: str) -> str:
    r, g, b = (int(fill[k:k + 2], 16) for k in (1, 3, 5))
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else "#1d1d1d"


def grid_chart(values: Mapping[str, float], *, title: str = "Preflop hands",
               subtitle: str = "", kind: str = "frequency", label: str | None = None,
               cell: int = 46) -> str:
    """The 13x13 grid of hand classes coloured by ``values`` (class -> a number in [0, 1]; a
    class without a value is drawn blank). ``kind="frequency"`` uses a white-to-blue scale,
    ``kind="equity"`` a red-white-green scale centred on 50%; ``label`` names the scale."""
    if kind not in ("frequency", "equity"):
        raise InvalidConfigError(f"kind must be 'frequency' or 'equity', got {excerpt(kind)}")
    _mapping(values, "values")
    for value, what in ((title, "title"), (subtitle, "subtitle")):
        _str(value, what)
    if label is not None:
        _str(label, "label")
    cell = _size(cell, "cell", 24)
    classes = {cls for row in hand_classes() for cls in row}
    for cls, given in values.items():
        if cls not in classes:
            raise InvalidConfigError(
                f"{excerpt(cls)} is not a hand class of the grid: give a pair like 'AA', or two ranks, "
                "higher first, and 's' (suited) or 'o' (offsuit), like 'AKs' or 'T9o'")
        if not 0 <= _finite(given, f"the value of {cls!r}") <= 1:
            raise InvalidConfigError(f"the value of {cls!r} must be in [0, 1], got {excerpt(given)}")
    diverging = kind == "equity"
    left, top = 20, 74 if subtitle else 58
    size = 13 * cell
    width, height = left * 2 + size, top + size + 70
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" {_FONT}>',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{left}" y="34" font-size="18" font-weight="600" fill="#222">'
           f'{_text(title)}</text>']
    if subtitle:
        out.append(f'<text x="{left}" y="56" font-size="12.5" fill="#777">'
                   f'{_text(subtitle)}</text>')
    for i, row in enumerate(hand_classes()):
        for j, cls in enumerate(row):
            x, y = left + j * cell, top + i * cell
            v = values.get(cls)
            fill = "#fbfbfb" if v is None else _colour(v, diverging)
            ink = "#a0a0a0" if v is None else _ink(fill)
            weight = "400" if v is None else "600"
            out.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" '
                       'stroke="#ffffff" stroke-width="1.5"/>')
            out.append(f'<text x="{x + cell / 2}" y="{y + cell * 0.45:.1f}" font-size="13" '
                       f'font-weight="{weight}" text-anchor="middle" fill="{ink}">{cls}</text>')
            if v is not None:
                out.append(f'<text x="{x + cell / 2}" y="{y + cell * 0.8:.1f}" font-size="11" '
                           f'text-anchor="middle" fill="{ink}" fill-opacity="0.85">'
                           f'{100 * v:.0f}%</text>')
    # the colour scale
    sy = top + size + 22
    steps = 40
    bar_w = size * 0.6
    bx = left + (size - bar_w) / 2
    for k in range(steps):
        out.append(f'<rect x="{bx + k * bar_w / steps:.1f}" y="{sy}" '
                   f'width="{bar_w / steps + 0.6:.1f}" height="12" '
                   f'fill="{_colour(k / (steps - 1), diverging)}"/>')
    if label is None:
        label = "equity" if diverging else "share of the hand's combos"
    out.append(f'<text x="{bx - 8:.1f}" y="{sy + 11}" font-size="12" text-anchor="end" '
               'fill="#555">0%</text>')
    out.append(f'<text x="{bx + bar_w + 8:.1f}" y="{sy + 11}" font-size="12" fill="#555">'
               '100%</text>')
    out.append(f'<text x="{left + size / 2}" y="{sy + 32}" font-size="12" '
               f'text-anchor="middle" fill="#555">{_text(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
