"""holdem.vector.sample_legal: the uniform random policy over a batch, in numpy."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import holdem.vector
from holdem import Game, Structure
from holdem.errors import HoldemError, InvalidArrayError
from holdem.vector import VectorGame, sample_legal


def random_masks(rng: np.random.Generator, rows: int, columns: int) -> np.ndarray:
    """Random (rows, columns) masks with at least one legal column per row."""
    mask = rng.random((rows, columns)) < rng.random((rows, 1))
    mask[np.arange(rows), rng.integers(0, columns, rows)] = True
    return mask


@pytest.mark.parametrize("columns", [1, 2, 5, 6, 8, 9, 12, 13, 20, 32])
def test_every_column_is_legal(columns: int) -> None:
    rng = np.random.default_rng(columns)
    mask = random_masks(rng, 5000, columns)
    cols = sample_legal(mask, rng)
    assert cols.dtype == np.int64 and cols.shape == (5000,)
    assert mask[np.arange(5000), cols].all()


@pytest.mark.parametrize("columns", [4, 6, 9, 13])
def test_uniform_over_the_legal_columns(columns: int) -> None:
    """Every pattern of legal columns (a sample of them for the wide masks) drawn often:
    each legal column within 5 standard deviations of 1 / count, the last one included
    (the table path's padding must not take its share or give it more)."""
    rng = np.random.default_rng(100 + columns)
    if columns <= 6:
        patterns = np.arange(1, 1 << columns)
    else:
        patterns = np.unique(rng.integers(1, 1 << columns, 40))
    per = 6000
    bits = (patterns[:, None] >> np.arange(columns)) & 1
    mask = np.repeat(bits.astype(bool), per, axis=0)
    cols = sample_legal(mask, rng).reshape(len(patterns), per)
    for p, row in zip(bits, cols, strict=True):
        legal = np.flatnonzero(p)
        counts = np.bincount(row, minlength=columns)
        assert counts[p == 0].sum() == 0
        expected = per / len(legal)
        sigma = math.sqrt(per * (1 / len(legal)) * (1 - 1 / len(legal)))
        assert np.abs(counts[legal] - expected).max() <= 5 * sigma + 1e-9, (p, counts)


class ZeroDraws(np.random.Generator):
    """A generator whose every draw is 0.0 (the lowest a Generator's random() returns)."""

    def random(self, size: Any = None, dtype: Any = np.float64, out: Any = None) -> Any:
        return np.zeros(size, dtype)


@pytest.mark.parametrize("columns", [6, 20])
def test_draws_of_zero_still_pick_a_legal_column(columns: int) -> None:
    mask = np.zeros((3, columns), bool)
    mask[:, 4] = True
    mask[1, 2] = True
    assert sample_legal(mask, ZeroDraws(np.random.PCG64(1))).tolist() == [4, 2, 4]


def test_deterministic_per_generator_state() -> None:
    mask = random_masks(np.random.default_rng(3), 1000, 6)
    a = sample_legal(mask, np.random.default_rng(7))
    b = sample_legal(mask, np.random.default_rng(7))
    assert (a == b).all()
    assert (sample_legal(mask, 7) == a).all()  # a seed makes the same generator
    rng = np.random.default_rng(7)
    first, second = sample_legal(mask, rng), sample_legal(mask, rng)
    assert (first == a).all() and (second != first).any()  # the generator moves on


@pytest.mark.parametrize("columns", range(1, 13))
def test_every_pattern_takes_its_drawn_column(columns: int) -> None:
    # the table path: row r gets its k-th legal column, k = floor(draw * legal columns),
    # draw the r-th float32 of the generator; every pattern of legal columns, in an order
    # where each row's neighbours differ (the rows are gathered from one shared buffer)
    patterns = np.random.default_rng(columns).permutation(np.arange(1, 1 << columns))
    mask = ((patterns[:, None] >> np.arange(columns)) & 1).astype(bool)
    draws = np.random.default_rng(3).random(len(mask), dtype=np.float32)
    want = [np.flatnonzero(row)[int(draw * np.float32(row.sum()))]
            for row, draw in zip(mask, draws, strict=True)]
    assert sample_legal(mask, np.random.default_rng(3)).tolist() == want


@pytest.mark.parametrize("columns", range(1, 13))
def test_few_and_many_rows_find_the_same_patterns(columns: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # batches under _PACK_ROWS rows find the patterns with numpy.packbits, larger ones with
    # the gather: both give every row the same bits (bool bytes 2..255 and nonzero integers
    # as 1, views that are not contiguous), so the same columns from the same generator
    rng = np.random.default_rng(10 + columns)
    mask = random_masks(rng, 300, columns)
    raw = (mask.astype(np.uint8) * rng.integers(1, 256, mask.shape, dtype=np.uint8)).view(bool)
    masks = [mask, raw, mask.astype(np.int64) * -3, np.asfortranarray(mask), raw[::2]]
    low = (1 << columns) - 1
    for m in masks:
        monkeypatch.setattr(holdem.vector, "_PACK_ROWS", 0)
        gathered = holdem.vector._patterns(m) & low
        many = sample_legal(m, np.random.default_rng(2))
        monkeypatch.setattr(holdem.vector, "_PACK_ROWS", 10**9)
        packed = holdem.vector._patterns(m)
        assert packed.dtype == np.int64 and packed.tolist() == gathered.tolist()
        assert sample_legal(m, np.random.default_rng(2)).tolist() == many.tolist()
    want = ((mask * (1 << np.arange(columns))).sum(axis=1)).tolist()
    assert holdem.vector._patterns(mask).tolist() == want


@pytest.mark.parametrize("columns", [3, 6, 9, 20])
def test_bool_bytes_other_than_one_are_true(columns: int) -> None:
    # a bool array viewed from bytes may hold 2..255 for True: such rows are read as True
    mask = random_masks(np.random.default_rng(4), 300, columns)
    raw = mask.astype(np.uint8) * np.random.default_rng(5).integers(1, 256, mask.shape,
                                                                      dtype=np.uint8)
    want = sample_legal(mask, np.random.default_rng(1))
    assert (sample_legal(raw.view(bool), np.random.default_rng(1)) == want).all()


@pytest.mark.parametrize("columns", [6, 20])
def test_integer_masks_mean_nonzero(columns: int) -> None:
    mask = random_masks(np.random.default_rng(5), 500, columns)
    want = sample_legal(mask, np.random.default_rng(1))
    for dtype in (np.uint8, np.int32, np.int64):
        as_int = mask.astype(dtype) * 3  # nonzero values other than 1 too
        assert (sample_legal(as_int, np.random.default_rng(1)) == want).all()
    assert (sample_legal(mask.tolist(), np.random.default_rng(1)) == want).all()


def test_views_and_empty_batches() -> None:
    mask = random_masks(np.random.default_rng(6), 400, 6)
    view = mask[::3]  # not contiguous
    cols = sample_legal(view, np.random.default_rng(2))
    assert view[np.arange(len(view)), cols].all()
    empty = sample_legal(np.zeros((0, 6), bool), np.random.default_rng(2))
    assert empty.shape == (0,) and empty.dtype == np.int64


@pytest.mark.parametrize("game", [Game(big_blind=2),
                                  Game(structure=Structure.FIXED_LIMIT, big_blind=2)])
@pytest.mark.parametrize("layout", ["default", "fcpa"])
def test_drives_a_batch_through_checked_steps(game: Game, layout: str) -> None:
    env = VectorGame(game, num_tables=64, players=6, stacks=200, seed=4,
                     actions=layout)
    env.reset()
    rng = np.random.default_rng(4)
    seen = np.zeros(env.action_layout.size, np.int64)
    hands = 0
    for _ in range(200):
        cols = sample_legal(env.legal_mask, rng)
        seen += np.bincount(cols, minlength=env.action_layout.size)
        _, _, done = env.step(cols)  # checked: a masked column would be refused
        hands += int(done.sum())
    assert hands > 0
    legal_anywhere = seen > 0
    assert legal_anywhere[:2].all()  # fold and check/call both drawn


@given(st.integers(0, 40), st.integers(1, 40), st.sampled_from(["?", "u1", "i2", "i8", "u8"]),
       st.integers(0, 2**32 - 1), st.floats(0.0, 1.0))
def test_any_mask(rows: int, columns: int, dtype: str, seed: int, density: float) -> None:
    """Any mask of any size and integer type: each row gets one of its legal columns, or
    the first row with none is named; the same seed gives the same columns."""
    rng = np.random.default_rng(seed)
    legal = rng.random((rows, columns)) < density
    values = rng.integers(1, 100, (rows, columns)) if dtype != "?" else 1
    mask = (legal * values).astype(dtype)
    empty = np.flatnonzero(~legal.any(axis=1))
    if len(empty):
        with pytest.raises(InvalidArrayError, match=f"mask row {empty[0]} has no legal column"):
            sample_legal(mask, seed)
        return
    cols = sample_legal(mask, seed)
    assert cols.shape == (rows,) and cols.dtype == np.int64
    assert legal[np.arange(rows), cols].all()
    assert (sample_legal(mask, seed) == cols).all()


@pytest.mark.parametrize("columns", [6, 20])
def test_a_row_without_a_legal_column_is_refused(columns: int) -> None:
    mask = np.ones((10, columns), bool)
    mask[7] = False
    with pytest.raises(InvalidArrayError, match="mask row 7 has no legal column"):
        sample_legal(mask, np.random.default_rng(1))


@pytest.mark.parametrize(("mask", "match"), [
    (np.ones(6, bool), r"2-D array of bools .* got shape \(6,\)"),
    (np.ones((2, 3, 4), bool), r"got shape \(2, 3, 4\)"),
    (np.ones((4, 0), bool), r"at least one column .* got shape \(4, 0\)"),
    (np.ones((4, 6), np.float32), "got dtype float32"),
    (np.array([["a", "b"]]), "got dtype <U1"),
    ([[True, False], [True]], "2-D array of bools"),
    (None, r"got shape \(\)"),
])
def test_bad_masks(mask: object, match: str) -> None:
    with pytest.raises(InvalidArrayError, match=match) as info:
        sample_legal(mask, np.random.default_rng(1))
    assert isinstance(info.value, ValueError) and isinstance(info.value, HoldemError)


@pytest.mark.parametrize("rng", ["1", 1.5, True, None, -1, [1, 2], object()])
def test_bad_generators(rng: object) -> None:
    with pytest.raises(InvalidArrayError, match=r"rng must be a numpy\.random\.Generator"):
        sample_legal(np.ones((2, 6), bool), rng)


def test_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(holdem.vector, "_np", None)
    with pytest.raises(ModuleNotFoundError,
                       match=r"needs numpy: pip install 'holdem-engine\[numpy\]'"):
        sample_legal([[True]], 1)
