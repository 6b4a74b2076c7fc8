"""holdem: a Texas Hold'em engine, exact on the rules and fast enough to be the inner loop.

>>> import holdem
>>> holdem.Card("As")
Card('As')
>>> hand = holdem.Game(big_blind=2).new_hand([200, 200], seed=1)
>>> hand.legal_actions().call, hand.actor
(1, 0)

Where things are (each has its docstring; the README is the guide):

- cards and hand strength: :class:`Card`, :func:`parse_cards`, :func:`evaluate`,
  :func:`evaluate_many`, :class:`Deck`, :func:`deal_hands`;
- one hand under the rules: :class:`Game` (the rules, frozen) and :class:`HandState`
  (``legal_actions()``, ``apply``, ``clone()``, ``is_terminal()``, ``result``); pots:
  :func:`split_pots`, :class:`Rake`;
- tables of agents: :class:`Table`, :class:`RandomAgent`, :class:`CallAgent`,
  :class:`EquityAgent`; many hands: :func:`simulate`, :class:`Stats`;
- equity and ranges: :func:`equity`, :class:`Range`;
- batched self-play in C with numpy arrays: :mod:`holdem.vector` (``VectorGame``);
  RL interfaces (Gymnasium, PettingZoo, OpenSpiel): :mod:`holdem.rl`;
- hand histories and protocols: :mod:`holdem.phh`, :mod:`holdem.pokerstars`,
  :mod:`holdem.history`, :mod:`holdem.acpc`; live dealing with dealer errors:
  :class:`LiveHand`;
- every error is a subclass of :class:`HoldemError` (a ``ValueError``).
"""

import importlib
import os
from typing import TYPE_CHECKING, Any

from holdem._version import __version__

# --- errors -------------------------------------------------------------------------------
from holdem import errors as _errors
from holdem.errors import *  # noqa: F403  (every name of holdem.errors.__all__)

# --- cards --------------------------------------------------------------------------------
from holdem.cards import (
    CARDS,
    Card,
    cards_to_mask,
    format_cards,
    mask_to_cards,
    parse_card,
    parse_cards,
)

# --- the compiled core: a source folder without a build says so --------------------------
try:
    import holdem._deck
    import holdem._eval
    import holdem._pots  # noqa: F401
except ModuleNotFoundError as _missing:
    if not (_missing.name or "").startswith("holdem._"):
        raise
    raise ImportError(
        f"holdem's compiled extensions are not built (no module {_missing.name} in "
        f"{os.path.dirname(__file__)}): this is a source folder. Install holdem with "
        "`pip install .` (or `pip install -e .` to develop), or build the extensions in place "
        "with `python setup.py build_ext --inplace`; to use an installed holdem instead, run "
        "Python from another folder. (HOLDEM_PURE_PYTHON=1 does not help here: it only "
        "replaces the hand core, the evaluator and the deck are always compiled.)",
        name=_missing.name,
    ) from None

# --- evaluator ----------------------------------------------------------------------------
from holdem.evaluator import (
    HandCategory,
    best_five,
    category,
    describe,
    evaluate,
    evaluate_many,
)

# --- deck ---------------------------------------------------------------------------------
from holdem._deck import Deck, child_seed, deal_hands, hand_width

# --- pots ---------------------------------------------------------------------------------
from holdem.pots import Pot, PotResult, Rake, split_pots

# --- game and hand state ------------------------------------------------------------------
from holdem.hand.actions import Action, ActionType
from holdem.hand.game import AnteType, DealStart, Game, Mode, Structure
from holdem.hand.records import (
    ActionRecord,
    ExtraPost,
    HandResult,
    LegalActions,
    Post,
    SeatStatus,
    Street,
)
from holdem.hand.game import HandState

# --- table, agents, tournaments -----------------------------------------------------------
from holdem.table.agents import Agent, CallAgent, EquityAgent, Observation, RandomAgent
from holdem.table.table import HandRecord, Player, PlayerStatus, Table
from holdem.table.tournament import BlindLevel, BlindSchedule

# --- ranges, equity, simulation -----------------------------------------------------------
from holdem.equity import EquityResult, PlayerEquity, equity
from holdem.simulate import AgentResult, SimulationResult, simulate
from holdem.ranges import Range, parse_range

# --- imported on first use, so ``import holdem`` stays fast ------------------------------
# hand histories and live dealing: ``holdem.LiveHand`` and
# ``from holdem import LiveHand`` work as usual; type checkers read the imports below.
# (``equity`` and ``simulate`` stay eager: they share their names with their modules, and
# importing a submodule rebinds the package attribute of the same name.)
if TYPE_CHECKING:
    # --- hand histories ---
    from holdem.history import Replay, from_state, replay
    from holdem.phh import HandHistory, HistoryAction

    # --- live dealing ---
    from holdem.live.hand import LiveHand, ShuffleFunction
    from holdem.live.events import (
        CardAccount,
        CardExposed,
        DealerError,
        ExtraCards,
        OverdealtFlop,
        PrematureFlop,
        PrematureRiver,
        PrematureTurn,
        Ruling,
    )

    # --- batched self-play ---
    from holdem.vector import ActionLayout, ObservationSpec, VectorGame

    # --- judging agents: statistics ---
    from holdem.stats import PlayerStats, Stats, player_stats


def get_include() -> str:
    """The folder of the C headers (``hd_*.h``) that holdem's ``.pxd`` declarations include:
    give it to the C compiler (``include_dirs=[holdem.get_include()]``) to build Cython code
    that cimports holdem's kernels (numpy's ``get_include()`` convention). In an installed
    holdem it is the package folder itself, next to the ``.pxd`` files; in a source checkout
    (editable install) it is ``csrc/``.

    >>> import os
    >>> os.path.exists(os.path.join(get_include(), "hd_eval.h"))
    True
    """
    here = os.path.dirname(__file__)
    if os.path.exists(os.path.join(here, "hd_eval.h")):
        return here
    return os.path.join(os.path.dirname(here), "csrc")


# the names of holdem.live.events.__all__ (read without importing it; a test checks they agree)
_LAZY_EVENTS = ["CardAccount", "CardExposed", "DealerError", "ExtraCards", "OverdealtFlop",
                "PrematureFlop", "PrematureRiver", "PrematureTurn", "Ruling"]
_LAZY: dict[str, str] = {
    **dict.fromkeys(("Replay", "from_state", "replay"), "holdem.history"),
    **dict.fromkeys(("HandHistory", "HistoryAction"), "holdem.phh"),
    **dict.fromkeys(("LiveHand", "ShuffleFunction"), "holdem.live.hand"),
    **dict.fromkeys(_LAZY_EVENTS, "holdem.live.events"),
    **dict.fromkeys(("ActionLayout", "ObservationSpec", "VectorGame"), "holdem.vector"),
    **dict.fromkeys(("PlayerStats", "Stats", "player_stats"), "holdem.stats"),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'holdem' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


_HELPERS = frozenset({"Any", "TYPE_CHECKING", "importlib", "os", "holdem"})  # imports of this file


def __dir__() -> list[str]:
    """The public names, the lazy ones and the subpackages (not this file's own imports)."""
    return sorted((set(globals()) | set(_LAZY)) - _HELPERS)


__all__ = [
    "CARDS",
    "Card",
    "__version__",
    "cards_to_mask",
    "get_include",
    "format_cards",
    "mask_to_cards",
    "parse_card",
    "parse_cards",
    # evaluator
    "HandCategory",
    "best_five",
    "category",
    "describe",
    "evaluate",
    "evaluate_many",
    # deck
    "Deck",
    "child_seed",
    "deal_hands",
    "hand_width",
    # pots
    "Pot",
    "PotResult",
    "Rake",
    "split_pots",
    # game and state
    "Action",
    "ActionRecord",
    "ActionType",
    "AnteType",
    "DealStart",
    "Game",
    "HandResult",
    "HandState",
    "LegalActions",
    "Mode",
    "Post",
    "ExtraPost",
    "SeatStatus",
    "Street",
    "Structure",
    # table
    "Agent",
    "BlindLevel",
    "BlindSchedule",
    "CallAgent",
    "EquityAgent",
    "HandRecord",
    "Observation",
    "Player",
    "PlayerStatus",
    "RandomAgent",
    "Table",
    # equity
    "AgentResult",
    "EquityResult",
    "PlayerEquity",
    "SimulationResult",
    "simulate",
    "Range",
    "equity",
    "parse_range",
    # history
    "HandHistory",
    "HistoryAction",
    "Replay",
    "from_state",
    "replay",
    # live (and its events: holdem.live.events.__all__, added below)
    "LiveHand",
    "ShuffleFunction",
    # batched self-play
    "ActionLayout",
    "ObservationSpec",
    "VectorGame",
    # statistics
    "PlayerStats",
    "Stats",
    "player_stats",
]
__all__ += _errors.__all__
# holdem.live.events.__all__ again, spelled out: type checkers read only literal lists in
# __all__ (a test checks it is _LAZY_EVENTS)
__all__ += ["CardAccount", "CardExposed", "DealerError", "ExtraCards", "OverdealtFlop",
            "PrematureFlop", "PrematureRiver", "PrematureTurn", "Ruling"]
