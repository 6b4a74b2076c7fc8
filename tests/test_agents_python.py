"""The built-in Python agents themselves: their parameters, ``spawn`` and pickles, as
``holdem.simulate`` uses them (also for subclasses that decide their own way)."""

from __future__ import annotations

import copyreg
import math
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from holdem import (
    CallAgent,
    DuplicateCardError,
    EquityAgent,
    Game,
    InvalidCardError,
    InvalidConfigError,
    InvalidHandError,
    InvalidStateError,
    RandomAgent,
    Table,
    simulate,
)
from holdem.table.agents import ActionLike, Observation


@pytest.mark.parametrize("kw, match", [
    ({"samples": 0}, "samples"),
    ({"samples": -5}, "samples"),
    ({"samples": 1.5}, "samples"),
    ({"samples": "48"}, "samples"),
    ({"samples": True}, "samples"),
    # above 1,000,000 (what the compiled policy takes): 10**9 drew a 28 GB buffer a decision,
    # and simulate left the batched engine for Tables without a word
    ({"samples": 1_000_001}, r"samples must be an int 1\.\.1,000,000 .* got 1000001"),
    ({"samples": 10**9}, "samples must be an int 1..1,000,000"),
    ({"raise_at": math.nan}, "raise_at"),
    ({"raise_at": "high"}, "raise_at"),
    ({"raise_at": None}, "raise_at"),
    ({"raise_at": True}, "raise_at"),
    ({"raise_at": 10**400}, "raise_at must be a number a float can hold"),  # (OverflowError)
])
def test_equity_agent_refuses_bad_parameters(kw: dict[str, Any], match: str) -> None:
    """Before, ``samples=0`` raised ZeroDivisionError at the agent's first decision, a negative
    count played with an equity of 0, and a bad ``raise_at`` raised TypeError or ValueError
    inside a hand."""
    with pytest.raises(InvalidConfigError, match=match):
        EquityAgent(seed=1, **kw)
    assert EquityAgent(seed=1, samples=1_000_000).samples == 1_000_000


@pytest.mark.parametrize("seed", [1.5, "x", b"a", True, [1], 2j])
@pytest.mark.parametrize("cls", [RandomAgent, EquityAgent])
def test_agents_take_an_int_seed_or_none(cls: type[Any], seed: object) -> None:
    """As every ``seed=`` in holdem: an int of any size (numpy's too) or None. A float, str or
    bool seed was taken by random.Random as it is, and a list or numpy int raised its
    TypeError."""
    import numpy as np

    with pytest.raises(InvalidConfigError, match="seed must be an int"):
        cls(seed=seed)
    with pytest.raises(InvalidConfigError, match="seed must be an int"):
        cls(seed=1).spawn(seed)

    class Sub(cls):  # type: ignore[misc, valid-type]
        pass

    with pytest.raises(InvalidConfigError, match="seed must be an int"):
        Sub(seed=1).spawn(seed)
    for good in (np.int64(5), 5, -(2**70), None):
        agent = cls(seed=good)
        assert type(agent.seed) is int and (good is None or agent.seed == good)
        assert type(Sub(seed=1).spawn(good)) is Sub
    assert cls(seed=np.int64(5))._rng.random() == random.Random(5).random()
    # None draws 64 bits and keeps them (the agent had no seed to replay its play with)
    drawn = cls()
    assert 0 <= drawn.seed < 2**64 and f"seed={drawn.seed}" in repr(drawn)
    assert cls(seed=drawn.seed)._rng.random() == drawn._rng.random()
    # as every seed: taken modulo 2**64 (random.Random took -1 as 1)
    assert cls(seed=-1)._rng.random() == cls(seed=2**64 - 1)._rng.random()
    assert cls(seed=-1)._rng.random() != cls(seed=1)._rng.random()


def test_equity_agent_accepts_good_parameters_and_plays() -> None:
    for kw in ({"samples": 1}, {"samples": 3, "raise_at": 1}, {"raise_at": 0.5},
               {"raise_at": math.inf}):
        agent = EquityAgent(seed=1, **kw)
        table = Table(Game(big_blind=2), seats=2, seed=1)
        table.sit(0, "e", 200, agent)
        table.sit(1, "c", 200, CallAgent())
        record = table.play_hand()
        assert sum(record.payoffs.values()) == 0


@pytest.mark.parametrize(("hole", "board", "opponents", "error", "match"), [
    ((), (), 1, InvalidHandError, "hole must be two cards, got 0"),
    ("As", "", 1, InvalidHandError, "hole must be two cards, got 1"),
    ("AsKs", "2c3c", 1, InvalidHandError, "board must be 0, 3, 4 or 5 cards, got 2"),
    ("AsKs", "2c3c4c5c6c7c", 1, InvalidHandError, "board must be 0, 3, 4 or 5 cards, got 6"),
    ("AsKs", "AsKdQh", 1, DuplicateCardError, "As is both a hole card and on the board"),
    ("AsAs", "", 1, DuplicateCardError, "As appears twice"),
    ("AsXx", "", 1, InvalidCardError, "Xx"),
    ("AsKs", None, 1, InvalidCardError, "None"),
    ("AsKs", "", 0, InvalidHandError, "opponents must be an int >= 1, got 0"),
    ("AsKs", "", True, InvalidHandError, "opponents must be an int >= 1, got True"),
    ("AsKs", "", 2.0, InvalidHandError, "opponents must be an int >= 1, got 2.0"),
])
def test_equity_agent_equity_names_bad_cards_and_opponents(
        hole: Any, board: Any, opponents: Any, error: type[Exception], match: str) -> None:
    """``EquityAgent.equity`` is public: bad cards or counts raised an internal batch-buffer
    error ("a flat buffer of 576 card ids is not a whole number of rows of 7"), and
    ``opponents=0`` was read as 1. They are named now, and the agent's draws are untouched."""
    agent = EquityAgent(seed=3, samples=16)
    before = agent._rng.getstate()
    with pytest.raises(error, match=match):
        agent.equity(hole, board, opponents)
    assert agent._rng.getstate() == before


def test_equity_agent_equity_takes_cards_as_text_ids_or_cards() -> None:
    from holdem import parse_cards

    hole, board = parse_cards("AsKs"), parse_cards("Qs Js 2d")
    values = {EquityAgent(seed=5, samples=64).equity(h, b, 2)
              for h, b in ((hole, board), ("AsKs", "QsJs2d"), ([int(c) for c in hole],
                                                              tuple(int(c) for c in board)))}
    assert len(values) == 1 and 0.0 < values.pop() < 1.0


class _Station(RandomAgent):
    """A RandomAgent subclass that decides its own way: always check or call."""

    name = "station"

    def __init__(self, seed: int | None = None, *, tag: str = "x") -> None:
        super().__init__(seed)
        self.tag = tag

    def act(self, observation: Observation) -> ActionLike:
        return "cc" if self.tag else "f"  # reads its own attribute


class _Checker(EquityAgent):
    """An EquityAgent subclass that never puts a chip in: check, else fold."""

    name = "checker"

    def act(self, observation: Observation) -> ActionLike:
        return "cc" if observation.legal.can_check else "f"


def test_spawn_keeps_a_subclass_and_its_attributes() -> None:
    """simulate re-seeds agents with ``spawn``: a subclass's spawn made a plain RandomAgent
    (or EquityAgent), so its own ``act`` never played."""
    station = _Station(seed=1, tag="mine")
    child = station.spawn(7)
    assert type(child) is _Station and child.tag == "mine" and child.seed == 7
    assert child.act is not None and child._rng.random() == RandomAgent(7)._rng.random()
    assert station.seed == 1 and station._rng.random() == RandomAgent(1)._rng.random()
    eq = _Checker(seed=2, samples=5, raise_at=0.7).spawn(9)
    assert type(eq) is _Checker and (eq.seed, eq.samples, eq.raise_at) == (9, 5, 0.7)
    plain = RandomAgent(seed=3).spawn(4)
    assert type(plain) is RandomAgent and repr(plain) == "RandomAgent(seed=4)"
    assert repr(EquityAgent(1, samples=6).spawn(2)) == repr(EquityAgent(2, samples=6))


@pytest.mark.parametrize("engine", ["auto", "table"])
def test_subclasses_play_their_own_act_in_simulate(engine: str) -> None:
    calls = simulate([_Station(seed=1), CallAgent()], Game(big_blind=2), hands=200, seed=1,
                     executor="serial", chunk_hands=50, engine=engine)
    assert calls.engine == "table"
    assert all(p.showdowns == 200 for p in calls.players)  # two calling stations
    checks = simulate([_Checker(seed=1), CallAgent()], Game(big_blind=2), hands=200, seed=1,
                      executor="serial", chunk_hands=50, engine=engine)
    # the checker folds its small blinds and checks its big blinds down: it never wins a chip
    # more than the blinds it takes at showdown, and it loses every small blind it folds
    assert checks.players[0].showdowns == 100
    assert checks.players[0].chips <= 100 * 2 - 100 * 1


class _Tagged(EquityAgent):
    """An EquityAgent subclass with an attribute of its own (it decides as the base class)."""

    def __init__(self, seed: int | None = None, *, tag: str = "x") -> None:
        super().__init__(seed, samples=4)
        self.tag = tag


def test_subclass_pickles_keep_their_own_attributes() -> None:
    """Agents travel to pool workers as pickles: a RandomAgent subclass lost its own
    attributes on the way, and an EquityAgent subclass with one did not load at all."""
    station = pickle.loads(pickle.dumps(_Station(seed=3, tag="mine")))
    assert type(station) is _Station and station.tag == "mine" and station.seed == 3
    assert station._random() == RandomAgent(3)._rng.random()
    tagged = pickle.loads(pickle.dumps(_Tagged(seed=2, tag="t")))
    assert type(tagged) is _Tagged and tagged.tag == "t" and tagged.samples == 4
    # the built-in classes still refuse a pickle with fields of another shape
    for cls, state in ((RandomAgent, {"seed": 1, "_rng": random.Random(1), "x": 1}),
                       (EquityAgent, {"seed": 1, "samples": 8, "raise_at": 0.6,
                                      "_rng": random.Random(1), "x": 1}),
                       (_Station, {"seed": 1, "tag": "t"}),
                       (_Tagged, {"seed": 1, "samples": 0, "raise_at": 0.6,
                                  "_rng": random.Random(1), "tag": "t"}),
                       (EquityAgent, {"seed": 1, "samples": 8, "raise_at": math.nan,
                                      "_rng": random.Random(1)}),
                       (EquityAgent, {"seed": 1, "samples": 8, "raise_at": -10**400,
                                      "_rng": random.Random(1)})):
        with pytest.raises(InvalidStateError):
            cls.__new__(cls).__setstate__(state)


def test_subclasses_play_their_own_act_on_a_process_pool() -> None:
    agents = {"station": _Station(seed=1, tag="t"), "call": CallAgent()}
    serial = simulate(agents, Game(big_blind=2), hands=120, seed=2, chunk_hands=30,
                      executor="serial")
    with ProcessPoolExecutor(max_workers=2) as pool:
        pooled = simulate(agents, Game(big_blind=2), hands=120, seed=2, chunk_hands=30,
                          executor=pool)
    assert pooled == serial and all(p.showdowns == 120 for p in pooled.players)


@pytest.mark.parametrize("cls", [RandomAgent, EquityAgent])
def test_a_pickled_agent_with_a_seed_that_is_not_an_int_is_refused(cls: type[Any]) -> None:
    """A corrupt pickle's ``seed='abc'`` loaded (its repr then showed it); an int, or None
    (pickled by an earlier build, which kept None), loads."""
    import pickle

    from holdem import InvalidStateError

    agent = cls(seed=3)
    state = agent.__getstate__() if hasattr(agent, "__getstate__") else dict(agent.__dict__)
    for seed in (None, 7, 2**70):
        fresh = cls.__new__(cls)
        fresh.__setstate__({**state, "seed": seed})
        assert fresh.seed == seed
    for bad in ("abc", 1.5, [1]):
        with pytest.raises(InvalidStateError, match=f"not a valid pickled {cls.__name__}"):
            cls.__new__(cls).__setstate__({**state, "seed": bad})
    assert pickle.loads(pickle.dumps(agent)).seed == 3


def test_equity_agent_caps_the_opponents_at_three() -> None:
    """Documented: the equity is estimated against ``min(opponents, 3)`` random hands, so nine
    opponents give exactly what three give with the same seed (aces against three random
    hands win about 64%, against four about 56%)."""
    nine = EquityAgent(7, samples=4000).equity("AsAh", "", 9)
    three = EquityAgent(7, samples=4000).equity("AsAh", "", 3)
    assert nine == three == EquityAgent(7, samples=4000).equity("AsAh", "", 4)
    assert 0.61 < nine < 0.67
    assert EquityAgent(7, samples=4000).equity("AsAh", "", 2) > 0.70


class _Forged:
    """Pickles as an object of ``cls`` whose state is ``state`` (as a corrupt file could)."""

    def __init__(self, cls: type[Any], state: dict[str, Any]) -> None:
        self.cls, self.state = cls, state

    def __reduce__(self) -> tuple[Any, ...]:
        return (copyreg._reconstructor, (self.cls, object, None), self.state)


class _PlainRandom(RandomAgent):
    """A RandomAgent subclass with nothing of its own."""


def test_a_pickled_equity_agent_with_a_numpy_raise_at_is_refused() -> None:
    """``raise_at`` is a float or an int (as the constructor takes it): a numpy float in a
    pickle's state is refused, not carried into the agent's decisions."""
    import numpy as np

    state = dict(EquityAgent(1).__dict__)
    assert pickle.loads(pickle.dumps(_Forged(EquityAgent, state))).raise_at == state["raise_at"]
    with pytest.raises(InvalidStateError, match="not a valid pickled EquityAgent"):
        pickle.loads(pickle.dumps(_Forged(EquityAgent, {**state, "raise_at": np.float64(0.5)})))


def test_a_pickled_random_agent_subclass_holding_random_is_refused() -> None:
    """``_random`` is the class's method: a subclass's pickled state may hold attributes of its
    own, but not one that would shadow it."""
    state = RandomAgent(1).__getstate__()
    back = pickle.loads(pickle.dumps(_Forged(_PlainRandom, state)))
    assert type(back) is _PlainRandom and back._random() == RandomAgent(1)._rng.random()
    with pytest.raises(InvalidStateError, match="not a valid pickled RandomAgent"):
        pickle.loads(pickle.dumps(_Forged(_PlainRandom, {**state, "_random": "x"})))
