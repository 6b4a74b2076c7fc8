"""The PHH reader's fast TOML path (holdem._toml.loads) against the standard library's tomllib.

The fast path reads the lines PHH files are made of and leaves every other document to
tomllib. The property checked everywhere: it either declines (None) or gives exactly what
tomllib gives, same types, same order, same floats bit for bit; and it declines every document
tomllib refuses, so errors always come from tomllib.
"""

from __future__ import annotations

import math
import random
import tomllib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from phh_corpus import corpus_texts

from holdem import _toml, phh
from holdem.errors import InvalidHistoryError
from holdem.phh import HistoryAction


def typed(x: Any) -> Any:
    """x with every type spelled out: 1, 1.0 and True differ, nan equals nan, -0.0 is not 0.0,
    and a table's key order counts."""
    if isinstance(x, dict):
        return ("table", [(k, typed(v)) for k, v in x.items()])
    if isinstance(x, list):
        return ("array", [typed(v) for v in x])
    if isinstance(x, float):
        return ("float", "nan" if math.isnan(x) else x.hex())
    return (type(x).__name__, x)


def agrees(text: str) -> bool:
    """Check the property on one document; True when the fast path read it."""
    fast = _toml._fast(text)
    try:
        expected = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        assert fast is None, f"the fast path read a document tomllib refuses: {text!r}"
        return False
    if fast is None:
        return False
    assert typed(fast) == typed(expected), text
    assert typed(_toml.loads(text)) == typed(expected)
    return True


def test_the_corpus_reads_as_tomllib_reads_it() -> None:
    fast = total = 0
    for _, text in corpus_texts(""):
        total += 1
        fast += agrees(text)
    assert total > 10_000
    # the point of the path: it reads (nearly) every real file
    assert fast >= total - 5, f"the fast path read only {fast} of {total} corpus files"


def test_our_own_phh_and_phhs_output_takes_the_fast_path() -> None:
    texts = [t for _, (_, t) in zip(range(50), corpus_texts("phh/pluribus/"), strict=False)]
    hands = [phh.loads(t) for t in texts]
    for hh in hands:
        assert agrees(phh.dumps(hh))
    assert agrees(phh.dumps_all(hands))
    assert phh.loads_all(phh.dumps_all(hands)) == hands


# (document, whether the fast path reads it): every one is also checked against tomllib
CASES = [
    ("", True),
    ("\n\n# a comment\n\t\n", True),
    ("a = 1", True),
    ("a=1\r\nb = 'x'\r\n", True),
    ("a = 1\r", False),                       # a lone CR at the end: tomllib's to judge
    ("a = 1\rb = 2", False),
    ("a = 'x' # it's a \"comment\"\n", True),
    ("a = 'x#y'", True),
    ("a = \"x#y\"", True),
    ("a = 'tab\tinside'", True),
    ("a = 'ctl\x01'", False),
    ("a = 1 # ctl \x01", False),
    ("a = 1 # tab \t ok", True),
    ("a = \"esc\\n\"", False),
    ("a = 'unicode \u00e9\u2660'", True),
    ("a = '''multi'''", False),
    ('a = """multi"""', False),
    ("a = -1\nb = +1\nc = 0\nd = -0\ne = +0", True),
    ("a = 01", False),
    ("a = 1_000", False),
    ("a = 0x1F", False),
    ("a = 1.5\nb = -0.0\nc = 1e5\nd = 1E+05\ne = 1.5e-3\nf = 0.1", True),
    ("a = 1.", False),
    ("a = .5", False),
    ("a = 1.e5", False),
    ("a = inf\nb = -inf\nc = +inf\nd = nan\ne = -nan\nf = +nan", True),
    ("a = Inf", False),
    ("a = true\nb = false", True),
    ("a = True", False),
    ("a = 1979-05-27", False),
    ("a = 07:32:00", False),
    ("a = {b = 1}", False),
    ("a = []\nb = [ ]\nc = [1,]\nd = [ 1 , 2 , ]", True),
    ("a = [,]", False),
    ("a = [1,,2]", False),
    ("a = [1 2]", False),
    ("a = [[1], [2]]", False),
    ("a = [1, 'x', 1.5, true, inf]", True),
    ("a = ['x', 'y'] # c", True),
    ("a = [\n1,\n2,\n]", False),
    ("a = 1\na = 2", False),                  # duplicate key
    ("[t]\na = 1\n[t]\nb = 2", False),        # table defined twice
    ("t = 1\n[t]\na = 2", False),             # table over a key
    ("[t]\na = 1\n[u]\na = 2", True),
    ("a = 1\n[t]\na = 2", True),
    ("[ t ]\na = 1", True),
    ("[[t]]\na = 1", False),
    ("[t.u]\na = 1", False),
    ("a.b = 1", False),
    ('"a" = 1', False),
    ("true = 1\nfalse = 2\n1 = 3\na-b_C = 4", True),
    ("a =", False),
    ("a", False),
    ("= 1", False),
    ("\ufeffa = 1", False),
    ("a = 1 2", False),
    ("a = 'x' 'y'", False),
    ("a = " + "9" * 30, True),
    ("a = " + "9" * 31, False),
    ("a = " + "9" * 5000, False),             # int() refuses it: tomllib's ValueError
]


@pytest.mark.parametrize(("text", "fast"), CASES)
def test_each_kind_of_line(text: str, fast: bool) -> None:
    assert agrees(text) is fast


_KEYS = ["a", "b", "1", "true", "a-b", "a.b", '"q"', "", " a", "a b"]
_SCALARS = ["1", "-1", "+1", "0", "-0", "01", "1_0", "0x1", "1.5", "1.", ".5", "-0.0", "1e5",
            "1E-05", "1.5e+3", "inf", "-inf", "+nan", "nan", "Inf", "true", "false", "True",
            "'s'", "''", "'a#b'", "'q\"'", '"d"', '"e\\n"', '"\\u00e9"', "'tab\t'", "'c\x01'",
            "1979-05-27", "{a = 1}", "'''m'''", '"""m"""', "9" * 30, "9" * 31, "'x", "x'"]
_SEPS = [" = ", "=", " =", "= ", "\t=\t", " : ", "  "]
_COMMENTS = ["", "", " # c", "#", " #'\"[]", " # \x01", "\t# tab"]
_ENDS = ["\n", "\n", "\r\n", "\r", ""]


@st.composite
def documents(draw: Any) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["kv", "kv", "kv", "array", "table", "blank", "junk"]))
        if kind in ("kv", "array"):
            key = draw(st.sampled_from(_KEYS))
            if kind == "kv":
                value = draw(st.sampled_from(_SCALARS))
            else:
                items = draw(st.lists(st.sampled_from([*_SCALARS, "[1]", "[]"]), max_size=4))
                glue = draw(st.sampled_from([", ", ",", " , ", ",\n", " "]))
                value = "[" + draw(st.sampled_from(["", " ", "\n"])) + glue.join(items) \
                    + draw(st.sampled_from(["", ",", ", ", ",,"])) + "]"
            line = key + draw(st.sampled_from(_SEPS)) + value
        elif kind == "table":
            line = draw(st.sampled_from(["[t]", "[u]", "[ t ]", "[[t]]", "[t.u]", "[1]", "[]",
                                         "[t", "t]"]))
        elif kind == "blank":
            line = draw(st.sampled_from(["", " ", "\t"]))
        else:
            line = draw(st.text(alphabet="ab1=[]'\",.#\t \\-+e", max_size=12))
        lines.append(line + draw(st.sampled_from(_COMMENTS)) + draw(st.sampled_from(_ENDS)))
    return "".join(lines)


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_generated_documents(text: str) -> None:
    agrees(text)


_PALETTE = "'\"[],=#.\\ \t\n\r\x01ae019_-+"


def test_mutated_corpus_files() -> None:
    # seeded edits of real files: insert, delete or replace a character that TOML cares about
    rnd = random.Random(20261205)
    texts = [t for _, (_, t) in zip(range(300), corpus_texts("phh/"), strict=False)]
    read = 0
    for i in range(6000):
        text = texts[i % len(texts)]
        for _ in range(rnd.randint(1, 3)):
            at = rnd.randrange(len(text) + 1)
            op = rnd.randrange(3)
            ch = rnd.choice(_PALETTE)
            if op == 0:
                text = text[:at] + ch + text[at:]
            elif op == 1:
                text = text[:at] + text[at + 1:]
            else:
                text = text[:at] + ch + text[at + 1:]
        read += agrees(text)
    assert 0 < read < 6000  # both outcomes were exercised


def test_phh_errors_still_come_from_tomllib() -> None:
    with pytest.raises(InvalidHistoryError, match="not valid TOML"):
        phh.loads("variant = 'NT'\nvariant = 'NT'\n")
    with pytest.raises(InvalidHistoryError, match="a number is too long"):
        phh.loads("antes = [" + "9" * 5000 + "]\n")


# --- HistoryAction.from_str keeps the actions it parsed --------------------------------------


def test_a_kept_action_is_the_one_a_fresh_parse_gives() -> None:
    texts = ["p3 f", "p1 cc", "p2 cbr 210", "p2 cbr 2.5", "d dh p1 TcQc", "d dh p2 ????",
             "d db 7d5h9d", "d db Qh", "p1 sm AhKh", "p1 sm -", "p1 sm", "p1 f # tank fold", ""]
    for text in texts:
        first = HistoryAction.from_str(text, players=6)
        again = HistoryAction.from_str(text, players=6)
        fresh = HistoryAction._parse(text, 6)
        assert first == again == fresh
        assert str(first) == str(fresh)


def test_the_player_bound_is_part_of_what_is_kept() -> None:
    assert HistoryAction.from_str("p7 f").player == 6  # kept for players=None
    with pytest.raises(InvalidHistoryError, match="there is no p7 in a 6-player hand"):
        HistoryAction.from_str("p7 f", players=6)
    with pytest.raises(InvalidHistoryError, match="there is no p7 in a 6-player hand"):
        HistoryAction.from_str("p7 f", players=6)  # a refusal is not kept either


def test_the_kept_actions_are_bounded() -> None:
    phh._PARSED.clear()
    for k in range(phh._PARSED_MAX + 100):
        HistoryAction.from_str(f"p1 cbr {k}")
    assert 0 < len(phh._PARSED) <= phh._PARSED_MAX


def test_long_actions_are_not_kept() -> None:
    # a commentary of any length is allowed: keeping 4,096 of them could hold gigabytes
    phh._PARSED.clear()
    long = "p1 f # " + "x" * 100_000
    assert HistoryAction.from_str(long).commentary == "x" * 100_000
    assert HistoryAction.from_str("p1 cbr 9007199254740992").amount == 2**53
    assert list(phh._PARSED) == [("p1 cbr 9007199254740992", None)]


def test_a_subclass_gets_its_own_objects() -> None:
    class Tagged(HistoryAction):
        __slots__ = ()

    HistoryAction.from_str("p2 cc")
    assert type(Tagged.from_str("p2 cc")) is Tagged
    assert type(HistoryAction.from_str("p2 cc")) is HistoryAction


@pytest.mark.parametrize("text", ["a = 01.5", "a = -01.5", "a = 00.5", "a = 01e5"])
def test_a_float_with_a_leading_zero_is_refused_as_tomllib_refuses_it(text: str) -> None:
    """TOML forbids leading zeros in a float's integer part: the fast path must decline it so
    that tomllib's error is the one raised."""
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(text)
    assert _toml._fast(text) is None
    with pytest.raises(tomllib.TOMLDecodeError):
        _toml.loads(text)


@pytest.mark.parametrize("key", ["a.b", "a b", "", "é", "a=b", '"', "a#b", "1.5"])
def test_dumps_key_quotes_a_key_that_is_not_bare(key: str) -> None:
    """A key with a dot (or any character a bare key cannot hold) is written quoted: a bare
    ``a.b`` reads back as the table ``a`` holding ``b``."""
    doc = f"{_toml.dumps_key(key)} = 1"
    assert tomllib.loads(doc) == {key: 1}
    assert _toml.loads(doc) == {key: 1}
    assert _toml.dumps_key("a-b_C9") == "a-b_C9"  # a bare key stays bare
