#!/usr/bin/env python3
"""Generate ``csrc/hd_tables.h`` and ``csrc/hd_tables.c``: the hand evaluator's lookup tables.

Deterministic (no randomness, no dependencies beyond the standard library); a test checks that
the checked-in files equal this script's output. Run from the repository root::

    python tools/gen_tables.py          # rewrite the two files
    python tools/gen_tables.py --check  # exit 1 if they are stale

How a hand is evaluated (see ``csrc/hd_eval.h``):

* Every card adds a 64-bit value to an accumulator: a per-rank key ``5**rank`` in the low 32
  bits (counts are at most 4, so the sum is the base-5 numeral of the rank counts and is unique
  for every rank multiset), ``1 << (32 + 4*suit)``, a per-suit counter, and ``1 << 48``, a card
  counter.  The accumulator starts with every suit nibble at 3, so a suit with 5 or more cards
  sets bit 3 of its nibble: the flush test is one AND with ``HD_FLUSH_BITS``.
* Flush hands (at most 7 cards, so nothing but a flush or straight flush can beat it) look up the
  13-bit rank mask of the flush suit in ``hd_flush_rank[8192]``.
* Other hands look up the rank-key sum ``x`` through a perfect hash, one for 7 cards
  (``hd_hash7_*``: 49,205 rank multisets in 65,536 slots) and one for 5 or 6 (``hd_hash56_*``:
  24,570 in 32,768): ``h = (x * MUL mod 2**32) >> SHIFT`` (multiplicative hashing, in 32 bits
  so that SIMD code computes it too); ``h >> COL_BITS`` is a row, the low ``COL_BITS`` bits a
  column, and ``rank[column ^ disp[row]]`` is the rank: a displacement scheme (rows placed
  fullest first, each at the smallest displacement that lands its columns on free slots, after
  Tarjan & Yao, 1979).  Every row/column pair indexes inside its tables, so lookups are
  memory-safe even on garbage input.  Splitting by size keeps the 7-card table (the one every
  equity loop and every batch of 7-card rows reads) at 128 KB.
* Batch evaluation (``evaluate_many``) of wider integer types reads ``hd_batch_pair``: for every
  value v the pair (key, 1 << v), or (``HD_POISON``, 0) for v >= 52, 16-byte aligned so one
  vector add per card sums both; popcount of the bit sum is the row's number of distinct valid
  cards.  (Byte rows take an AVX2 path where it exists, which only needs the rank keys.)

Ranks are dense: 1 (7-5-4-3-2 high card) .. 7462 (royal flush), higher is stronger.
"""

from __future__ import annotations

import argparse
import sys
from itertools import combinations
from pathlib import Path

NRANKS = 13
KEY_BITS = 32
SUIT_SHIFT = 32
COUNT_SHIFT = 48
# card counts, row bits and column bits of the two perfect hashes (row + column bits <= 32)
HASHES = {"7": (range(7, 8), 14, 16), "56": (range(5, 7), 13, 15)}
CATEGORY_NAMES = (
    "HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT",
    "FLUSH", "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH",
)

RANK_KEYS = [5**r for r in range(NRANKS)]
KEY_INIT = 0x3333 << SUIT_SHIFT
FLUSH_BITS = 0x8888 << SUIT_SHIFT
POISON = 1 << 56  # key of an invalid card value in hd_batch_pair (8 of them do not overflow)
KEY_BAD_SHIFT = 56


def straight_top(present: set[int]) -> int | None:
    """The top rank of the highest straight among ``present`` ranks (3 for the wheel)."""
    for top in range(NRANKS - 1, 3, -1):
        if all(top - i in present for i in range(5)):
            return top
    if {12, 0, 1, 2, 3} <= present:
        return 3
    return None


def best_nonflush(counts: list[int]) -> tuple[int, tuple[int, ...]]:
    """(category, tie-break ranks) of the best five cards from rank counts, no flush possible."""
    desc = [r for r in range(NRANKS - 1, -1, -1) if counts[r]]
    quads = [r for r in desc if counts[r] >= 4]
    trips = [r for r in desc if counts[r] >= 3]
    pairs = [r for r in desc if counts[r] >= 2]
    if quads:
        q = quads[0]
        return 7, (q, next(r for r in desc if r != q))
    if trips and len(pairs) >= 2:
        t = trips[0]
        return 6, (t, next(r for r in pairs if r != t))
    top = straight_top(set(desc))
    if top is not None:
        return 4, (top,)
    if trips:
        t = trips[0]
        return 3, (t, *[r for r in desc if r != t][:2])
    if len(pairs) >= 2:
        p, q = pairs[0], pairs[1]
        return 2, (p, q, next(r for r in desc if r not in (p, q)))
    if pairs:
        p = pairs[0]
        return 1, (p, *[r for r in desc if r != p][:3])
    return 0, tuple(desc[:5])


def best_flush(mask: int) -> tuple[int, tuple[int, ...]]:
    """(category, tie-break ranks) of the best five cards from a flush suit's rank mask."""
    desc = [r for r in range(NRANKS - 1, -1, -1) if mask >> r & 1]
    top = straight_top(set(desc))
    if top is not None:
        return 8, (top,)
    return 5, tuple(desc[:5])


def rank_multisets(sizes: range) -> list[list[int]]:
    """All rank-count vectors (each count 0..4) whose total is in ``sizes``."""
    out: list[list[int]] = []

    def rec(r: int, left: int, counts: list[int]) -> None:
        if r == NRANKS:
            if sum(counts) in sizes:
                out.append(counts.copy())
            return
        for c in range(min(4, left) + 1):
            counts.append(c)
            rec(r + 1, left - c, counts)
            counts.pop()

    rec(0, max(sizes), [])
    return out


def build() -> dict[str, object]:
    # 1. The 7,462 classes of five-card hands, ordered weakest first.
    five = rank_multisets(range(5, 6))
    classes = {best_nonflush(c) for c in five}
    classes |= {best_flush(sum(1 << r for r in rs)) for rs in combinations(range(NRANKS), 5)}
    order = sorted(classes)
    assert len(order) == 7462, len(order)
    value = {cls: i + 1 for i, cls in enumerate(order)}
    cat_min = [min(v for cls, v in value.items() if cls[0] == cat) for cat in range(9)]

    # 2. Flush table: rank mask of the flush suit (5..7 cards of it) -> rank.
    flush = [0] * (1 << NRANKS)
    for m in range(1 << NRANKS):
        if 5 <= m.bit_count() <= 7:
            flush[m] = value[best_flush(m)]

    # 3. Non-flush: rank-key sum -> rank, for every rank multiset of 5, 6 or 7 cards, in one
    #    perfect hash per group of sizes.
    hashes = {}
    for name, (sizes, row_bits, col_bits) in HASHES.items():
        entries: dict[int, int] = {}
        for counts in rank_multisets(sizes):
            x = sum(c * k for c, k in zip(counts, RANK_KEYS, strict=True))
            assert x < 1 << KEY_BITS and x not in entries
            entries[x] = value[best_nonflush(counts)]
        hashes[name] = perfect_hash(entries, row_bits, col_bits)
    card_key = [0] * 64
    for card in range(52):
        card_key[card] = (RANK_KEYS[card >> 2] + (1 << (SUIT_SHIFT + 4 * (card & 3)))
                          + (1 << COUNT_SHIFT))
    # Batch input: for every byte value 0..255 the pair (key, bit): a card's key and 1 << id;
    # for values >= 52, HD_POISON (a key bit >= 48 that no sum of at most 7 valid keys reaches)
    # and no bit, so popcount(sum of a row's bits) is its number of distinct valid cards.
    batch_pair: list[int] = []
    for v in range(256):
        batch_pair += [card_key[v], 1 << v] if v < 52 else [POISON, 0]
    return {
        "batch_pair": batch_pair, "flush": flush, "hashes": hashes,
        "card_key": card_key, "cat_min": cat_min,
    }


def perfect_hash(entries: dict[int, int], row_bits: int, col_bits: int) -> dict[str, object]:
    """A multiplier (odd, 32-bit, from a fixed splitmix64 sequence: deterministic) whose hash
    ``(x * mul mod 2**32) >> (32 - row_bits - col_bits)`` is injective on the keys, then the
    displacement of every row: the slot of key x is ``column ^ disp[row]``."""
    mask64 = (1 << 64) - 1
    shift = 32 - row_bits - col_bits
    state = 0x486F6C64656D2121  # "Holdem!!"
    for attempt in range(1, 10_001):
        state = (state + 0x9E3779B97F4A7C15) & mask64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask64
        mul = ((z ^ (z >> 31)) & 0xFFFFFFFF) | 1
        hashed = {((x * mul) & 0xFFFFFFFF) >> shift: v for x, v in entries.items()}
        if len(hashed) != len(entries):
            continue
        # rows fullest first (ties by row index), each at the smallest displacement < 256
        # (stored as uint8_t) that lands all its columns on free slots; else the next multiplier
        rows: dict[int, list[tuple[int, int]]] = {}
        for h, v in hashed.items():
            rows.setdefault(h >> col_bits, []).append((h & ((1 << col_bits) - 1), v))
        size = 1 << col_bits
        disp = [0] * (1 << row_bits)
        table = [0] * size
        used = bytearray(size)
        for row in sorted(rows, key=lambda r: (-len(rows[r]), r)):
            cols = rows[row]
            d = next((d for d in range(256) if not any(used[c ^ d] for c, _ in cols)), None)
            if d is None:
                break
            disp[row] = d
            for c, v in cols:
                used[c ^ d] = 1
                table[c ^ d] = v
        else:
            return {"mul": mul, "attempt": attempt, "disp": disp, "table": table,
                    "row_bits": row_bits, "col_bits": col_bits, "shift": shift,
                    "n_keys": len(entries), "used": sum(used)}
    raise RuntimeError("no perfect hash found")  # pragma: no cover


def c_array(ctype: str, name: str, values: list[int], per_line: int, fmt: str = "{}",
            attr: str = "") -> str:
    lines = []
    for i in range(0, len(values), per_line):
        lines.append("    " + ",".join(fmt.format(v) for v in values[i : i + per_line]) + ",")
    return f"const {ctype} {name}[{len(values)}]{attr} = {{\n" + "\n".join(lines) + "\n};\n"


def render(t: dict[str, object]) -> tuple[str, str]:
    flush, hashes = t["flush"], t["hashes"]
    card_key, cat_min = t["card_key"], t["cat_min"]
    assert isinstance(flush, list) and isinstance(hashes, dict)
    assert isinstance(card_key, list) and isinstance(cat_min, list)
    banner = "/* GENERATED by tools/gen_tables.py -- do not edit by hand. */\n"
    cats = "\n".join(
        f"#define HD_MIN_{name} {v}" for name, v in zip(CATEGORY_NAMES, cat_min, strict=True)
    )
    hash_macros = "\n".join(
        f"#define HD_HASH{n}_MUL 0x{h['mul']:08X}u\n"
        f"#define HD_HASH{n}_SHIFT {h['shift']}\n"
        f"#define HD_HASH{n}_ROW_BITS {h['row_bits']}\n"
        f"#define HD_HASH{n}_COL_BITS {h['col_bits']}"
        for n, h in hashes.items())
    hash_decls = "".join(
        f"extern HD_HIDDEN const uint8_t hd_hash{n}_disp[{len(h['disp'])}];\n"
        f"extern HD_HIDDEN const uint16_t hd_hash{n}_rank[{len(h['table'])}];\n"
        for n, h in hashes.items())
    header = f"""{banner}/* Lookup tables of the hand evaluator; see tools/gen_tables.py for the scheme. */
#ifndef HD_TABLES_H
#define HD_TABLES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {{
#endif

#if defined(__GNUC__) || defined(__clang__)
#define HD_ALIGN16 __attribute__((aligned(16)))
#else
#define HD_ALIGN16
#endif
/* Private to each extension module that links them: with hidden visibility a -fPIC build
   addresses the tables directly (RIP-relative), not through the GOT on every lookup. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32) && !defined(__CYGWIN__)
#define HD_HIDDEN __attribute__((visibility("hidden")))
#else
#define HD_HIDDEN
#endif

#define HD_KEY_INIT 0x{KEY_INIT:016X}ULL    /* every suit counter starts at 3 */
#define HD_FLUSH_BITS 0x{FLUSH_BITS:016X}ULL  /* bit 3 of each suit nibble */
#define HD_SUIT_SHIFT {SUIT_SHIFT}
#define HD_POISON 0x{POISON:016X}ULL  /* key of values >= 52 in hd_batch_pair */
#define HD_KEY_BAD_SHIFT {KEY_BAD_SHIFT}  /* (key >> {KEY_BAD_SHIFT}) != 0 iff a poisoned value was added */
#define HD_COUNT_SHIFT {COUNT_SHIFT}  /* (key >> {COUNT_SHIFT}) & 15 is the number of cards */
{hash_macros}
#define HD_NUM_RANKS 7462
/* smallest rank of each category, 0 = high card .. 8 = straight flush */
{cats}

extern HD_HIDDEN const uint64_t hd_card_key[64];              /* ids 52..63 are zero padding */
/* v -> (key, 1 << v) at [2v], [2v + 1]; (HD_POISON, 0) if v >= 52; 16-byte aligned pairs */
extern HD_HIDDEN const uint64_t hd_batch_pair[512] HD_ALIGN16;
extern HD_HIDDEN const uint16_t hd_flush_rank[8192];
{hash_decls}
#ifdef __cplusplus
}}
#endif
#endif /* HD_TABLES_H */
"""
    about = "".join(
        f"/* hd_hash{n}: {h['n_keys']} rank multisets hashed into {h['used']} slots (of "
        f"{len(h['table'])}); multiplier found at attempt {h['attempt']}. */\n"
        for n, h in hashes.items())
    body = (
        f"{banner}{about}"
        '#include "hd_tables.h"\n\n'
        + c_array("uint64_t", "hd_card_key", card_key, 4, "0x{:016X}ULL")
        + "\n" + c_array("uint64_t", "hd_batch_pair", t["batch_pair"], 4,  # type: ignore[arg-type]
                          "0x{:016X}ULL", " HD_ALIGN16")
        + "\n" + c_array("uint16_t", "hd_flush_rank", flush, 16)
        + "".join(
            "\n" + c_array("uint8_t", f"hd_hash{n}_disp", h["disp"], 24)
            + "\n" + c_array("uint16_t", f"hd_hash{n}_rank", h["table"], 16)
            for n, h in hashes.items())
    )
    return header, body


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="fail if the checked-in files differ")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "csrc")
    args = ap.parse_args(argv)
    header, body = render(build())
    files = {args.out / "hd_tables.h": header, args.out / "hd_tables.c": body}
    if args.check:
        stale = [str(p) for p, text in files.items() if not p.exists() or p.read_text() != text]
        if stale:
            print("stale:", *stale, file=sys.stderr)
            return 1
        return 0
    for p, text in files.items():
        p.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
