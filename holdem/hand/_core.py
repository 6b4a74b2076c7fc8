"""The seam between holdem's two hand cores: the one place that chooses which one runs.

- the compiled core: :mod:`holdem.hand._compiled` (Cython over the plain-C rules of
  csrc/hd_hand.c: one ``hd_hstate_t`` per hand, the ``hd_rules_t`` of its Game, settlement in
  C through csrc/hd_eval.c and csrc/hd_pots.c; the batched engine :mod:`holdem._vector` steps
  the same struct) with its table loop :mod:`holdem.table._loop` (the table's decision loop,
  ``RandomAgent``'s policy and the per-hand bookkeeping in C, built against that struct);
- the reference core: :mod:`holdem.hand._reference` (plain Python, the readable spec and the
  differential oracle of the tests), chosen with ``HOLDEM_PURE_PYTHON=1``; the table then
  runs its Python steps (:mod:`holdem.table._steps`) and ``RandomAgent`` its Python policy.

The choice is made once, at import. There is no silent fallback: a compiled core that does
not load is an ImportError saying how to build it.

The contract each core provides (``HandCore``; :class:`holdem.HandState` adds the enums, the
records and the verbs on top of it, :class:`holdem.Table` and the agents use nothing else):

- construction: ``HandCore._start(game, stacks, button, seed, hole_cards, board, ...)``
  (what :meth:`holdem.Game.new_hand` calls) and unpickling through ``__reduce__``: both cores
  pickle as ``holdem.hand._fields.rebuild(cls, FIELDS tuple)``, and ``rebuild`` hands it to
  the core ``cls`` belongs to where the pickle loads (each core registers its ``_rebuild``),
  so a hand pickled under one core loads under the other;
  a state made otherwise (``HandState.__new__``) holds no hand: every query, action, copy
  and pickle of it raises :class:`holdem.InvalidStateError` (``_validate.not_started``), it
  compares equal to blank states only and its repr says it is not started;
- plain queries: ``game``, ``num_players``, ``button``, ``small_blind_seat``,
  ``big_blind_seat``, ``actor``, ``board``, ``burned``, ``hole_cards``, ``stacks``,
  ``starting_stacks``, ``bets``, ``committed``, ``pot``, ``posts``, ``current_bet``,
  ``street_index`` (0..4), ``seed``, ``is_terminal()``, ``status_code(seat)`` (0 active,
  1 folded, 2 all-in), ``raw_history()`` (``(seat, street, type, to, amount, all_in)`` int
  tuples), ``result_or_none()`` (a :class:`holdem.HandResult` or None), ``legal_actions()``,
  ``actions()``, ``is_legal(action)``;
- actions: ``apply(action, seat=None)`` (checked: the state is unchanged after a rejected
  action), ``apply_unchecked(kind, to)`` (``kind`` 0 fold, 1 check/call, 2 bet/raise to
  ``to``; trusted callers only), ``add_board(cards)``;
- values: ``clone()``/``__copy__``, ``__eq__`` on the whole state, pickling.

Both cores read the game's rules by name from ``game._plan`` (:class:`holdem.hand.game.Plan`),
pickle the same tuple of :data:`holdem.hand._fields.FIELDS` (checked by ``check_state``; the
compiled core also checks the loaded struct in C), and give the same results: the reference
settles with :func:`holdem.hand._settle.settle`, the compiled core in C (``hd_hs_settle``,
``hd_hs_showdown``) into the same :class:`holdem.HandResult` (post kinds and history types
through one declared mapping each: ``_fields.POST_KINDS``, ``holdem.ActionType``); the
differential tests compare them hand by hand.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

__all__ = ["COMPILED", "HandCore", "table_loop"]

COMPILED: bool = not os.environ.get("HOLDEM_PURE_PYTHON")
"""Whether the compiled cores run (``HOLDEM_PURE_PYTHON`` unset or empty)."""

_HOW = ("Reinstall holdem (`pip install --force-reinstall holdem-engine`), or in a source "
        "folder rebuild it with `pip install -e .` or `python setup.py build_ext --inplace`; "
        "HOLDEM_PURE_PYTHON=1 runs the pure-Python reference hand core instead.")

table_loop: Any = None
""":mod:`holdem.table._loop` with the compiled core, else None (the table's Python steps)."""

if TYPE_CHECKING or not COMPILED:
    from holdem.hand._reference import HandCore
else:
    try:
        from holdem.hand._compiled import HandCore
        from holdem.table import _loop as table_loop
    except ImportError as exc:
        raise ImportError(
            f"holdem's compiled hand core did not load ({exc}). {_HOW}",
            name=getattr(exc, "name", None)) from exc
