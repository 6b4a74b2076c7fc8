"""Fuzzing of holdem's Python-level input paths: text parsers, pickles and the batched engine's
table loader. The C core has its own harnesses (tools/fuzz.sh, libFuzzer).

The contract every target checks: whatever the bytes, holdem raises a ``HoldemError`` (a
``ValueError``) or accepts the input; any other exception raised inside holdem's own code is a
finding. (An exception raised outside it is not: ``pickle.loads`` of garbage fails in the
``pickle`` module before any holdem code runs.)

Coverage-guided, with atheris (``pip install atheris``; libFuzzer's options follow the target,
and a corpus directory keeps what it finds; an empty one starts with the target's seeds)::

    python tools/pyfuzz.py phh -max_total_time=600 /tmp/pyfuzz-phh

A finding stops the run with the traceback, and libFuzzer saves the input as ``crash-<sha1>``;
replay it with ``python tools/pyfuzz.py phh crash-<sha1>``.

Without atheris, a seeded smoke run: each target's seeds (valid inputs from tests/data or
built here) and ``--count`` byte-level mutations of them (flips, inserted delimiters and
large numbers, deleted and repeated spans); ``tests/test_pyfuzz.py`` runs it in every test
run::

    python tools/pyfuzz.py --smoke [--count 300] [TARGET...]

Targets: phh, phh_all, pokerstars, range, card, gamedef, matchstate, acpc_log, pickle,
vector_tables (numpy).
"""

from __future__ import annotations

import io
import os
import pickle
import pickletools
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
_MEMO_MOST = 100_000  # pickle memo indices above this: CPython's unpickler, not holdem


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _phh(data: bytes) -> None:
    from holdem import phh
    from holdem.history import replay

    replay(phh.loads(_text(data)))


def _phh_all(data: bytes) -> None:
    from holdem import phh
    from holdem.history import replay

    for hand in phh.loads_all(_text(data)):
        replay(hand)


def _pokerstars(data: bytes) -> None:
    from holdem import pokerstars
    from holdem.history import replay

    for hand in pokerstars.parse(io.StringIO(_text(data))):
        replay(hand)


def _range(data: bytes) -> None:
    from holdem.ranges import Range

    str(Range(_text(data)))


def _card(data: bytes) -> None:
    from holdem.cards import Card

    repr(Card(_text(data)))


def _gamedef(data: bytes) -> None:
    from holdem import acpc

    str(acpc.parse_game(_text(data)))


def _matchstate(data: bytes) -> None:
    from holdem import acpc

    str(acpc.parse_matchstate(_text(data)))


def _acpc_log(data: bytes) -> None:
    from holdem import acpc
    from holdem.history import replay

    for hand in acpc.import_log(_text(data).splitlines(), acpc.parse_gamedef(
            acpc.HEADS_UP_NO_LIMIT)):
        replay(hand)


def _pickle(data: bytes) -> None:
    # what CPython's unpickler does wrong by itself, before any holdem code runs: a memo index
    # of gigabytes makes it allocate them; a truncated BYTEARRAY8 makes 3.11's free the array
    # it reads into while exporting its buffer (it prints a SystemError)
    try:
        for op, arg, _ in pickletools.genops(data):
            if op.name in ("PUT", "GET", "LONG_BINPUT", "LONG_BINGET") and int(arg) > _MEMO_MOST:
                return
    except Exception as exc:
        if "bytearray8" in str(exc):
            return
    obj = pickle.loads(data)
    for name in ("legal_actions", "clone", "is_terminal"):
        method = getattr(obj, name, None)
        if callable(method) and type(obj).__module__.startswith("holdem"):
            method()


_TABLES: list[tuple[Any, bytes]] = []


def _vector_bases() -> list[tuple[Any, bytes]]:
    """Batches of a few games, each stepped a few times, and their tables' bytes."""
    if not _TABLES:
        import numpy as np

        from holdem import Game, Rake, Structure
        from holdem.vector import VectorGame

        games = [Game(big_blind=2),
                 Game(big_blind=2, straddle=True, ante=1, rake=Rake("0.05", cap=3)),
                 Game(structure=Structure.FIXED_LIMIT, big_blind=2)]
        for k, game in enumerate(games):
            for session in (False, True):
                env = VectorGame(game, num_tables=2, players=3 + k, stacks=40, seed=k,
                                 session=session)
                env.reset()
                rng = np.random.default_rng(k)
                for _ in range(7 + 3 * k):
                    mask = env.legal_mask
                    env.step((rng.random(mask.shape) * mask).argmax(axis=1))
                _TABLES.append((env, bytes(env._batch.dump_tables())))
    return _TABLES


def _vector_tables(data: bytes) -> None:
    """The input spliced into a real dump of tables at an offset it names, loaded as
    unpickling does (``Batch.load_tables``); tables that load must step on."""
    import numpy as np

    if len(data) < 4:
        return
    bases = _vector_bases()
    env, base = bases[data[0] % len(bases)]
    at = int.from_bytes(data[1:3], "little") % len(base)
    patched = bytearray(base)
    patched[at:at + len(data) - 3] = data[3:3 + len(base) - at]
    try:
        env._batch.load_tables(memoryview(bytes(patched)))
        rng = np.random.default_rng(len(data))
        for _ in range(20):
            mask = env.legal_mask
            env.step((rng.random(mask.shape) * mask).argmax(axis=1))
    finally:
        env._batch.load_tables(memoryview(base))  # the base state again, for the next input


TARGETS: dict[str, Callable[[bytes], None]] = {
    "phh": _phh, "phh_all": _phh_all, "pokerstars": _pokerstars, "range": _range,
    "card": _card, "gamedef": _gamedef, "matchstate": _matchstate, "acpc_log": _acpc_log,
    "pickle": _pickle, "vector_tables": _vector_tables,
}


def _holdem_file(filename: str) -> bool:
    """Whether code of ``filename`` is holdem's: a file of the imported package, or a Cython
    module's source (recorded relative to the source tree: ``holdem/_vector.pyx``)."""
    import holdem

    if filename.replace("\\", "/").startswith("holdem/"):
        return True
    package = os.path.dirname(os.path.abspath(holdem.__file__))
    try:
        return os.path.commonpath([package, os.path.abspath(filename)]) == package
    except ValueError:  # (another drive)
        return False


def _in_holdem(exc: BaseException) -> bool:
    """Whether the innermost frame of ``exc``'s traceback is holdem's (Python or Cython)."""
    tb, where = exc.__traceback__, ""
    while tb is not None:
        where = tb.tb_frame.f_code.co_filename
        tb = tb.tb_next
    return _holdem_file(where)


def _holdem_frames(exc: BaseException) -> list[str]:
    """The names of holdem's functions in ``exc``'s traceback, outermost first."""
    names, tb = [], exc.__traceback__
    while tb is not None:
        if _holdem_file(tb.tb_frame.f_code.co_filename):
            names.append(tb.tb_frame.f_code.co_name.rsplit(".", 1)[-1])  # (Cython: dotted)
        tb = tb.tb_next
    return names


def check(target: str, data: bytes) -> None:
    """Run ``target`` on ``data``: a HoldemError or an exception from outside holdem is fine;
    any other exception raised in holdem's code propagates (a finding). For ``pickle`` a
    ``TypeError`` from a holdem constructor the stream called directly is fine too: a pickle
    may call any class with any arguments, and a wrong call is a TypeError in Python (as
    ``HandState()`` is: hands start with ``Game.new_hand``)."""
    from holdem import HoldemError

    try:
        TARGETS[target](data)
    except HoldemError:
        pass
    except Exception as exc:
        if not _in_holdem(exc):
            return
        if (target == "pickle" and isinstance(exc, TypeError)
                and _holdem_frames(exc) in (["__init__"], ["__new__"], ["__cinit__"])):
            return
        raise


def seeds(target: str) -> list[bytes]:
    """Valid inputs for ``target`` (the smoke run mutates them)."""
    def read(*parts: str, most: int = 6000) -> bytes:
        return DATA.joinpath(*parts).read_bytes()[:most]

    if target == "phh":
        return [f.read_bytes() for f in sorted((DATA / "phh" / "pluribus").rglob("*.phh"))[:3]]
    if target == "phh_all":  # the first three hands of a .phhs file
        text = (DATA / "public_50.phhs").read_bytes()
        return [text[:text.index(b"\n[4]")]]
    if target == "pokerstars":
        return [read("pokerstars", name) for name in (
            "cash-limits.txt", "cash-nl-cents.txt", "tournament-side-pots.txt")]
    if target == "range":
        return [b"AKs, QQ+, 76s+", b"22+, A2s+, KTo+", b"AcKd, 99-22, A5s-A2s"]
    if target == "card":
        return [b"As", b"10d", b"Tc"]
    if target == "gamedef":
        return [read("acpc", name) for name in ("holdem.limit.3p.game",
                                                "holdem.nolimit.6p.game")]
    if target == "matchstate":
        return [b"MATCHSTATE:0:0::Jc9c|", b"MATCHSTATE:1:7:r300c/cr900:|QhQc/2c7d9h",
                b"MATCHSTATE:0:3:cc/cc/cc/r250:AsKd|/2c7d9h/3s/4d"]
    if target == "acpc_log":
        return [read("acpc", "nolimit.2p.log")]
    if target == "pickle":
        from holdem import Card, Game
        from holdem.ranges import Range

        state = Game(big_blind=2).new_hand([100, 100, 100], button=0, seed=1)
        state.check_or_call()
        return [pickle.dumps(obj, protocol=p) for obj in (state, Card("As"), Range("QQ+"),
                                                          Game(big_blind=4, ante=1))
                for p in (2, 5)]
    if target == "vector_tables":
        return [bytes([k, 0, 0]) + bytes(8) for k in range(6)] + [b"\x01\x10\x00\xff" * 3]
    raise KeyError(target)


_SPECIAL = [b"\n", b":", b"/", b"|", b"=", b"[", b"]", b'"', b",", b"-", b"+", b".", b"#",
            b"99999999999999999999", b"-1", b"0", b"\x00", b"\xff", b"nan", b"1e308"]


def mutations(seed: bytes, rng: random.Random, count: int) -> Iterator[bytes]:
    """``count`` inputs, each ``seed`` with one to four random byte-level edits."""
    for _ in range(count):
        b = bytearray(seed)
        for _ in range(rng.randint(1, 4)):
            op = rng.randrange(5)
            at = rng.randrange(len(b) + 1)
            if op == 0 and b:
                b[min(at, len(b) - 1)] = rng.randrange(256)
            elif op == 1:
                b[at:at] = rng.choice(_SPECIAL)
            elif op == 2:
                del b[at:at + rng.randint(1, 16)]
            elif op == 3:
                b[at:at] = b[at:at + rng.randint(1, 32)] * rng.randint(1, 4)
            else:  # a digit run replaced
                digits = [k for k in range(len(b)) if 48 <= b[k] <= 57]
                if digits:
                    k = rng.choice(digits)
                    b[k:k + 1] = rng.choice(_SPECIAL[13:17])
        yield bytes(b)


def smoke(targets: list[str], count: int) -> int:
    """Every target's seeds and ``count`` mutations of them, seeded; returns the inputs run."""
    ran = 0
    for target in targets:
        rng = random.Random(target)
        pool = seeds(target)
        for data in pool:
            check(target, data)
            ran += 1
        for k in range(count):
            for data in mutations(pool[k % len(pool)], rng, 1):
                check(target, data)
                ran += 1
    return ran


def _main(argv: list[str]) -> int:
    if argv[:1] == ["--smoke"]:
        rest = argv[1:]
        count = 300
        if rest[:1] == ["--count"]:
            if len(rest) < 2 or not rest[1].isdigit():
                print(f"--count needs a whole number >= 0, got {' '.join(rest[1:2]) or 'nothing'}")
                return 2
            count, rest = int(rest[1]), rest[2:]
        unknown = [t for t in rest if t not in TARGETS]
        if unknown:
            print(f"unknown targets {unknown}; the targets: {', '.join(TARGETS)}")
            return 2
        try:
            ran = smoke(rest or list(TARGETS), count)
        except KeyboardInterrupt:
            print("interrupted: no finding so far")
            return 130
        print(f"{ran} inputs, no finding")
        return 0
    if not argv or argv[0] not in TARGETS:
        print(__doc__)
        return 2
    import atheris  # (the coverage-guided run only)

    target = argv[0]
    # every holdem module instrumented as it is imported (before anything else imports holdem)
    with atheris.instrument_imports(include=["holdem"]):
        import holdem
        import holdem.acpc
        import holdem.history
        import holdem.phh
        import holdem.pokerstars
        import holdem.ranges
        import holdem.vector  # noqa: F401
    dirs = [a for a in argv[1:] if not a.startswith("-")]
    if dirs and not os.path.isfile(dirs[0]):  # a corpus directory: an empty one gets the seeds
        os.makedirs(dirs[0], exist_ok=True)
        if not os.listdir(dirs[0]):
            for k, data in enumerate(seeds(target)):
                Path(dirs[0], f"seed-{k}").write_bytes(data)
    atheris.Setup([sys.argv[0], *argv[1:]], lambda data: check(target, data))
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
