"""tools/pyfuzz.py, the fuzzing of holdem's Python-level input paths: a seeded smoke run of
every target (the inputs atheris starts from, and byte-level mutations of them) finds nothing,
and the contract it checks tells holdem's own exceptions from the rest."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import pyfuzz

from holdem import HoldemError, InvalidConfigError


@pytest.mark.parametrize("target", sorted(pyfuzz.TARGETS))
def test_smoke_finds_nothing(target: str) -> None:
    if target == "vector_tables":
        pytest.importorskip("numpy", reason="the batched engine's tables are stepped in numpy")
    seeds = pyfuzz.seeds(target)
    accepted = 0
    for data in seeds:  # the seeds are valid inputs: the mutations start from real ones
        try:
            pyfuzz.TARGETS[target](data)
            accepted += 1
        except HoldemError:
            pass
    assert accepted >= (3 if target == "vector_tables" else len(seeds)), target
    assert pyfuzz.smoke([target], 400) == len(seeds) + 400


def _in(path: str, body: str) -> object:
    """A function whose code reports ``path`` as its file (holdem's or another's)."""
    scope: dict[str, object] = {"InvalidConfigError": InvalidConfigError}
    exec(compile(f"def f(data):\n    {body}\n", path, "exec"), scope)
    return scope["f"]


def test_check_raises_only_what_holdem_raises_outside_its_hierarchy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import holdem

    ours = str(Path(holdem.__file__).resolve().parent / "x.py")
    cases = {
        "ours_bad": (_in(ours, "raise KeyError(data)"), KeyError),
        "ours_ok": (_in(ours, "raise InvalidConfigError('no')"), None),
        "cython": (_in("holdem/_x.pyx", "raise IndexError(data)"), IndexError),
        "theirs": (_in("/usr/lib/python3/pickle.py", "raise KeyError(data)"), None),
        # a checkout in a directory called holdem: its tools are not the package
        "clone": (_in("/home/u/holdem/tools/pyfuzz.py", "raise KeyError(data)"), None),
    }
    for name, (fn, raised) in cases.items():
        monkeypatch.setitem(pyfuzz.TARGETS, name, fn)
        if raised is None:
            pyfuzz.check(name, b"x")
        else:
            with pytest.raises(raised):
                pyfuzz.check(name, b"x")
    # a pickle that calls a holdem class the wrong way gets Python's TypeError: not a finding
    init = _in("holdem/hand/_compiled.pyx", "raise TypeError('start a hand with new_hand')")
    init.__code__ = init.__code__.replace(co_name="__init__")  # type: ignore[attr-defined]
    monkeypatch.setitem(pyfuzz.TARGETS, "pickle", init)
    pyfuzz.check("pickle", b"x")
    monkeypatch.setitem(pyfuzz.TARGETS, "phh", init)  # elsewhere it is one
    with pytest.raises(TypeError):
        pyfuzz.check("phh", b"x")


def test_mutations_are_seeded_and_edit_the_seed() -> None:
    import random

    seed = b"MATCHSTATE:0:0::Jc9c|"
    one = list(pyfuzz.mutations(seed, random.Random(3), 50))
    assert one == list(pyfuzz.mutations(seed, random.Random(3), 50))
    assert len(one) == 50 and sum(m != seed for m in one) >= 45


def test_the_smoke_command_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, said in ((["--smoke", "--count", "x"], "--count needs a whole number"),
                       (["--smoke", "--count"], "got nothing"),
                       (["--smoke", "nope"], "unknown targets ['nope']")):
        assert pyfuzz._main(argv) == 2
        assert said in capsys.readouterr().out
    assert pyfuzz._main(["--smoke", "--count", "2", "card"]) == 0
    assert capsys.readouterr().out == "5 inputs, no finding\n"
