"""holdem as an OpenSpiel game: ``pyspiel.load_game("python_holdem(...)")``.

>>> import pyspiel
>>> import holdem.rl.openspiel  # registers the game
>>> game = pyspiel.load_game("python_holdem(players=2,stack=200,big_blind=2,actions=fcpa)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

Parameters (all optional): ``players`` (2-10), ``stack`` (chips per seat), ``stacks`` (one
per seat separated by spaces, instead of ``stack``), ``small_blind``, ``big_blind``, ``ante``, ``structure``
(``NL``, ``PL`` or ``FL``, in any case; fixed limit bets ``big_blind`` then ``2 * big_blind``
with ``max_raises`` raises: given with another structure, ``max_raises`` raises
:class:`holdem.InvalidConfigError`, as ``stack`` given with ``stacks`` does), ``button`` (the
dealer seat), ``actions`` (a discrete layout of
:class:`holdem.vector.ActionLayout`: ``fcpa``, ``fchpa``, ``default``; or ``exact``: action
``0`` fold, ``1`` check/call, ``k`` bet/raise to ``k - 1`` chips, the codes of
:meth:`holdem.HandState.legal_action_codes`). :func:`load_game` also takes an ACPC gamedef
or a ``universal_poker(...)`` string. ``fcpa`` has universal_poker's action ids and legal
actions; ``fchpa`` is holdem's layout (ids 0 fold, 1 call, 2 half pot, 3 pot, 4 all-in, where
universal_poker numbers half pot 4 and rounds it to the nearest chip).

The game string (``str(game)``, which pyspiel's serialization writes) lists the parameters
that take effect, normalized: every one of them (defaults included), ``stack`` when the
stacks are equal and ``stacks`` when not, ``structure`` in capitals, ``max_raises`` for
``FL`` only. ``pyspiel.load_game(str(game))`` loads the same game:

>>> str(pyspiel.load_game("python_holdem(players=2,stacks=50 50,structure=nl)"))
'python_holdem(actions=fcpa,ante=0,big_blind=2,button=0,players=2,small_blind=1,stack=50,structure=NL)'

Chance nodes are explicit, one card each, uniform over the cards still in the deck: the hole
cards first (seat by seat from seat 0, two each, as universal_poker deals; a dealer deals two
rounds from the seat left of the button, R12, which gives every seat the same distribution),
then the board (three flop cards, the turn, the river, R14), each dealt after the action that
closes the street. Burn cards (R13) are not modelled: they do not change the distribution of
the cards dealt. ``chance_outcomes()`` answers at a chance node only. An action that is not
legal (a card already dealt, a masked column, an id outside the game's actions) raises
:class:`holdem.IllegalActionError` and changes nothing. The strings show a player's hole
cards and the flop the higher card first: the order they were dealt in is not information.
A chance node that deals the board therefore follows a *pending* action: the action is part of
the history (and of the strings) and is applied to the hand once its cards are out. Returns
are chips won or lost (the hand's payoffs). :meth:`HoldemState.resample_from_infostate`
(OpenSpiel's Python ISMCTS calls it) draws the hole cards a player has not seen again.

Tensors share the batched engine's encoding (:class:`holdem.vector.ObservationSpec`, one row
seen by the player). The observation tensor is that row; the information state tensor adds
the action sequence (one column per decision of the longest hand, in order: the action plus
one, 0 for none yet): with the player's cards and the board of the row it is perfect recall,
since the seat of each decision follows from the actions before it. Those columns are at most
:data:`MAX_HISTORY_WIDTH` (2**20): deeper stacks (over about 524,000 big blinds heads-up,
104,000 at ten seats) raise :class:`holdem.InvalidConfigError` at load. At a chance node after a pending action the tensors
describe the hand before that action (the strings include it).
``open_spiel.python.observation.make_observation`` follows the ``IIGObservationType`` it is
given, as OpenSpiel's games do: none is the observation (not the information state); a
public observer (``private_info`` NONE) leaves out the player's hole cards, a private one
(``public_info`` False) has only them.
"""

from __future__ import annotations

import importlib
import pickle
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Real
from typing import Any

from holdem._ints import int_or_none
from holdem._shown import excerpt, shown
from holdem.rl import missing_extra, not_a_column, reduce_with_state

try:  # the optional rl extra
    import pyspiel
except ImportError as _exc:
    raise ImportError(missing_extra(__name__, _exc)) from _exc

from holdem import (
    Action,
    Card,
    Game,
    HandState,
    HoldemError,
    IllegalActionError,
    InvalidConfigError,
    InvalidHandError,
    InvalidStateError,
    Structure,
)
from holdem.acpc import GameDef, GameDefError, parse_game
from holdem.vector import ActionLayout, ObservationSpec, _encode_into

__all__ = ["GAME_NAME", "MAX_EXACT_ACTIONS", "MAX_HISTORY_WIDTH", "HoldemGame", "HoldemState",
           "game_parameters", "load_game"]

GAME_NAME = "python_holdem"

#: The most action ids of ``actions=exact`` (one per chip): the limit of
#: :meth:`holdem.HandState.legal_action_codes`.
MAX_EXACT_ACTIONS = 1 << 20

#: The most columns of the action sequence in the information state tensor (one per decision
#: of the longest hand, :attr:`HoldemGame.history_width`): 4 MiB of float32 per tensor.
MAX_HISTORY_WIDTH = 1 << 20

# numpy comes with open_spiel; imported by name so that the type check needs neither
np: Any = importlib.import_module("numpy")

_DEFAULTS: dict[str, Any] = {
    "players": 2, "stack": 200, "stacks": "", "small_blind": 1, "big_blind": 2, "ante": 0,
    "structure": "NL", "max_raises": 3, "button": 0, "actions": "fcpa",
}
_INT32_MAX = (1 << 31) - 1
_STRUCTURES = {"NL": Structure.NO_LIMIT, "PL": Structure.POT_LIMIT, "FL": Structure.FIXED_LIMIT}
_STREETS = ("preflop", "flop", "turn", "river")

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="holdem Texas Hold'em",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)


@dataclass(frozen=True)
class _Config:
    game: Game
    stacks: tuple[int, ...]
    button: int
    layout: ActionLayout | None  # None: exact codes
    params: dict[str, Any]       # the parameters that take effect, normalized (the game string)

    def __deepcopy__(self, memo: dict[int, object]) -> _Config:
        """The config itself: it is never changed, and pyspiel deep-copies every field of a
        state for each clone (``state.child``, ``state.clone``), this one included."""
        return self


def _stacks(text: object, players: int) -> tuple[int, ...]:
    parts = str(text).split()
    try:
        values = [int(p) for p in parts]
    except ValueError:
        raise InvalidConfigError(f"stack must be integers separated by spaces, got {excerpt(text)}") from None
    if len(values) == 1:
        values *= players
    if len(values) != players:
        raise InvalidConfigError(f"stack needs 1 or {players} values, got {len(values)}")
    if any(v < 1 for v in values):
        raise InvalidConfigError(f"every stack must be at least 1 chip, got {excerpt(text)}")
    return tuple(values)


def _config(params: object) -> _Config:
    if params is None:
        params = {}
    if not isinstance(params, Mapping):
        raise InvalidConfigError(f"params must be a dict of game parameters (or None), got "
                                 f"{excerpt(params)}; allowed keys: {sorted(_DEFAULTS)}")
    # checked as load_game checks them (and as pyspiel types them): 32-bit ints, strings
    p = {**_DEFAULTS, **_parameters(dict(params))}
    players = int(p["players"])
    if not 2 <= players <= 10:
        raise InvalidConfigError(f"players must be 2..10 (R1), got {players}")
    structure = str(p["structure"]).upper()
    if structure not in _STRUCTURES:
        raise InvalidConfigError(f"structure must be NL, PL or FL, got {excerpt(p['structure'])}")
    kwargs: dict[str, Any] = {"structure": _STRUCTURES[structure],
                              "small_blind": int(p["small_blind"]),
                              "big_blind": int(p["big_blind"]), "ante": int(p["ante"])}
    if structure == "FL":
        kwargs["max_raises"] = int(p["max_raises"])
    elif int(p["max_raises"]) != _DEFAULTS["max_raises"]:
        raise InvalidConfigError(f"max_raises applies to structure=FL only (fixed limit); "
                                 f"got max_raises={p['max_raises']} with structure={structure}")
    if str(p["stacks"]).strip() and int(p["stack"]) != _DEFAULTS["stack"]:
        raise InvalidConfigError(f"give stack (every seat) or stacks (one per seat), not both; "
                                 f"got stack={p['stack']} and stacks={excerpt(p['stacks'])}")
    game = Game(**kwargs)
    button = int(p["button"])
    if not 0 <= button < players:
        raise InvalidConfigError(f"button must be a seat 0..{players - 1}, got {button}")
    stacks = _stacks(p["stacks"] or p["stack"], players)
    if min(stacks) <= game.big_blind + game.ante:
        raise InvalidConfigError(f"every stack must exceed the big blind plus the ante "
                                 f"({game.big_blind + game.ante}), got {min(stacks)}")
    actions = str(p["actions"])
    layout = None if actions == "exact" else ActionLayout.preset(actions)
    if layout is None and max(stacks) + 2 > MAX_EXACT_ACTIONS:
        raise InvalidConfigError(f"actions=exact lists one action per chip: stacks up to "
                                 f"{MAX_EXACT_ACTIONS - 2:,} chips, got {max(stacks):,}")
    shown: dict[str, Any] = {"players": players}
    if len(set(stacks)) == 1:
        shown["stack"] = stacks[0]
    else:
        shown["stacks"] = " ".join(map(str, stacks))
    shown.update(small_blind=game.small_blind, big_blind=game.big_blind, ante=game.ante,
                 structure=structure)
    if structure == "FL":
        shown["max_raises"] = kwargs["max_raises"]
    shown.update(button=button, actions=actions)
    if max(stacks) > _INT32_MAX:
        raise InvalidConfigError(f"stacks must fit OpenSpiel's 32-bit int parameters (up to "
                                 f"{_INT32_MAX:,}), got {max(stacks):,}")
    cfg = _Config(game, stacks, button, layout, shown)
    length = 2 * players + 5 + _max_decisions(cfg)
    if length > _INT32_MAX:
        raise InvalidConfigError(
            f"stacks of {max(stacks) // game.big_blind:,} big blinds allow hands of {length:,} "
            f"moves, more than OpenSpiel's 32-bit max_game_length holds: use a bigger big "
            f"blind or smaller stacks")
    width = _max_decisions(cfg)  # the information state tensor's action columns
    if width > MAX_HISTORY_WIDTH:
        raise InvalidConfigError(
            f"stacks of {max(stacks) // game.big_blind:,} big blinds at {players} seats allow "
            f"hands of {width:,} decisions: the information state tensor would have a column "
            f"for each ({4 * width:,} bytes of float32 per tensor), more than "
            f"{MAX_HISTORY_WIDTH:,}: use a bigger big blind or smaller stacks")
    return cfg


def _max_decisions(cfg: _Config) -> int:
    """A bound on the decisions of a hand: a full bet or raise lifts the level by at least the
    big blind over the hand (at most ``max stack / bb`` of them, plus one short all-in per seat
    and per street), each answered by at most ``n - 1`` seats, plus ``n`` checks per street."""
    n = len(cfg.stacks)
    raises = max(cfg.stacks) // cfg.game.big_blind + 4 * n
    return n * raises + 4 * n


def _cards(ids: list[int], ordered: bool = False) -> str:
    """Cards as text, in the order given (``ordered``) or the higher first."""
    return "".join(str(Card(c)) for c in (ids if ordered else sorted(ids, reverse=True)))


def _most_won(stacks: tuple[int, ...]) -> int:
    """The most a seat can win: from each other seat at most what it covers of it (R31)."""
    return max(sum(min(s, o) for j, o in enumerate(stacks) if j != i)
               for i, s in enumerate(stacks))


def _most_lost(stacks: tuple[int, ...]) -> int:
    """The most a seat can lose: its stack, less what no other seat can match (R21)."""
    return max(min(s, max(o for j, o in enumerate(stacks) if j != i))
               for i, s in enumerate(stacks))


def _game_info(cfg: _Config) -> pyspiel.GameInfo:
    n = len(cfg.stacks)
    num_actions = max(cfg.stacks) + 2 if cfg.layout is None else cfg.layout.size
    return pyspiel.GameInfo(
        num_distinct_actions=num_actions, max_chance_outcomes=52, num_players=n,
        min_utility=float(-_most_lost(cfg.stacks)), max_utility=float(_most_won(cfg.stacks)),
        utility_sum=0.0, max_game_length=2 * n + 5 + _max_decisions(cfg))


class HoldemGame(pyspiel.Game):  # type: ignore[misc]
    """The pyspiel game (see the module docstring for the parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.config = _config(params)
        # the game string (str(game), serialization) names only what takes effect
        super().__init__(_GAME_TYPE, _game_info(self.config), dict(self.config.params))
        self.spec = ObservationSpec(len(self.config.stacks))
        self.history_width = _max_decisions(self.config)

    def __reduce__(self) -> tuple[Any, ...]:
        """A pickle (and a copy) is the game made again from its parameters, checked as new
        ones, at every pickle protocol: pyspiel's own pickling of a game aborts the interpreter
        at protocols 0 and 1, and sends a forged game string to its parser."""
        return (HoldemGame, (dict(self.config.params),))

    def new_initial_state(self) -> HoldemState:
        return HoldemState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of ``iig_obs_type`` (None: the default observation, perfect_recall
        False, as OpenSpiel's own games take it): ``public_info`` gives the public columns
        (and, with ``perfect_recall``, the action sequence), ``private_info`` SINGLE_PLAYER
        the player's hole cards, NONE none of them; ALL_PLAYERS is not provided (the
        encoding holds one player's cards) and raises :class:`holdem.InvalidConfigError`."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if not isinstance(iig_obs_type, pyspiel.IIGObservationType):
            raise InvalidConfigError(f"iig_obs_type must be a pyspiel.IIGObservationType or "
                                     f"None, got {excerpt(iig_obs_type)}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise InvalidConfigError("python_holdem has no observer of every player's private "
                                     "cards (private_info ALL_PLAYERS): the encoding holds "
                                     "one player's hole cards (SINGLE_PLAYER) or none (NONE)")
        return _Observer(self, bool(iig_obs_type.perfect_recall), bool(iig_obs_type.public_info),
                         iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)


_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class _Items(list):  # type: ignore[type-arg]
    """A list whose items are immutable (card ids, codes, tuples of them): its deep copy is a
    copy of the list. pyspiel clones a Python state (``state.child``, ``state.clone``: every
    node of a tree search) by deep-copying each of its fields, and ``copy.deepcopy`` visits
    every item of a plain list and of each tuple in it."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, object]) -> _Items:
        return _Items(self)


class HoldemState(pyspiel.State):  # type: ignore[misc]
    """A hand in progress: the deal (chance nodes), then holdem's :class:`HandState`."""

    def __init__(self, game: HoldemGame) -> None:
        super().__init__(game)
        self._cfg = game.config
        self._n = len(self._cfg.stacks)
        self._hole: list[int] = _Items()     # hole cards dealt, in dealing order
        self._board: list[int] = _Items()    # board cards dealt
        self._hand: HandState | None = None
        self._pending: tuple[int, Action] | None = None   # (code, action) waiting for cards
        self._log: list[tuple[int, int, int]] = _Items()  # (seat, street, code) per decision
        self._legal: tuple[int, list[int]] = (-1, _Items())  # (len(_log), legal codes) cache

    __reduce__ = reduce_with_state  # (a pickle always carries the state it is checked by)

    def __getstate__(self) -> Any:
        self._whole()  # (a state stopped mid-way is not pickled as if it were whole)
        return super().__getstate__()

    _stopped = False
    """Set (on the instance) when an action or a card was stopped part-way (Ctrl-C, a
    MemoryError): pyspiel records a move only once it returns, so the state's own records
    (the hand, the action log, the cards) may be ahead of pyspiel's history, and every later
    answer (the legal actions, the information state) would be the wrong node's. Every query
    then raises :class:`holdem.InvalidStateError` (a pickle of it is refused): play on from a
    clone taken before, or start another hand."""

    def _whole(self) -> None:
        if self._stopped:
            raise InvalidStateError("this state was stopped mid-way through a move (an "
                                    "interrupt): its records may be ahead of its history; play "
                                    "on from a clone taken before, or start another hand "
                                    "(game.new_initial_state())")

    def __setstate__(self, state: str) -> None:
        """Checked: pyspiel restores the history and the pickled ``__dict__`` as they are (a
        forged legal-actions cache let ``apply_action`` take a column of no layout, a
        ``_log`` of None failed at the next query, other hole cards were shown). The hand is
        replayed from the history: every field must be the replay's, and the cache is the
        replay's."""
        def bad(why: str) -> InvalidStateError:
            return InvalidStateError(f"not a valid pickled HoldemState: {why}"[:300])

        try:
            super().__setstate__(state)  # (the fields of the pickled __dict__ are unpickled)
        except (ValueError, TypeError, EOFError, pickle.UnpicklingError,
                pyspiel.SpielError) as exc:  # (ValueError: HoldemError's, a game's parser)
            raise bad(str(exc)) from None
        game = self.get_game()
        if not isinstance(game, HoldemGame):
            raise bad(f"its game is {game}, not {GAME_NAME}")
        replay = game.new_initial_state()
        try:
            for action in self.history():
                replay.apply_action(action)
        except (HoldemError, pyspiel.SpielError) as exc:
            raise bad(f"its history does not replay: {exc}") from None
        moves = [(m.player, m.action) for m in self.full_history()]
        if moves != [(m.player, m.action) for m in replay.full_history()] or (
                self.move_number() != replay.move_number()):
            raise bad("its history is not the one its actions make")
        fields, made = self.__dict__, replay.__dict__
        if set(fields) != set(made):
            raise bad("its fields are not a state's")
        for name, value in made.items():
            if name != "_legal" and fields[name] != value:
                raise bad(f"{name} is not the one its history makes")
        fields.update(made)

    # ------------------------------------------------------------------ queries
    @property
    def hand(self) -> HandState | None:
        """The holdem hand (None until every hole card is dealt)."""
        return self._hand

    def current_player(self) -> int:
        # (pyspiel asks it a dozen times a move: is_chance_node, is_terminal, legal_actions...)
        if self._stopped:
            self._whole()
        hand = self._hand
        if hand is None or self._pending is not None:
            return _CHANCE
        if hand.is_terminal():
            return _TERMINAL
        return hand.current_player()

    def is_terminal(self) -> bool:
        return self._hand is not None and self._pending is None and self._hand.is_terminal()

    def returns(self) -> list[float]:
        self._whole()
        if not self.is_terminal():
            return [0.0] * self._n
        assert self._hand is not None
        return self._hand.returns()

    def _legal_actions(self, player: int) -> list[int]:
        self._whole()
        assert self._hand is not None
        if self._legal[0] != len(self._log):  # computed once per decision
            if self._cfg.layout is None:
                codes = self._hand.legal_action_codes()
            else:
                codes = [c for c, ok in enumerate(self._cfg.layout.mask(self._hand)) if ok]
            self._legal = (len(self._log), _Items(codes))
        return list(self._legal[1])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current_player() != pyspiel.PlayerId.CHANCE:  # (universal_poker: SpielError)
            now = ("the hand is over" if self.is_terminal()
                   else f"seat {self.current_player()} is to act")
            raise IllegalActionError(f"no card is dealt now ({now}): chance_outcomes() is for "
                                     f"a chance node")
        used = set(self._hole) | set(self._board)
        left = [c for c in range(52) if c not in used]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HoldemState:
        """A state ``player_id`` cannot tell from this one (what OpenSpiel's ISMCTS asks of a
        game): the same actions, board and own hole cards, the other seats' hole cards dealt
        so far drawn again, uniformly from the cards the player has not seen.
        ``probability_sampler()`` gives the draws, one float in [0, 1) per card, as
        :class:`pyspiel.UniformProbabilitySampler` does; this state does not change.

        >>> import pyspiel
        >>> import holdem.rl.openspiel  # registers python_holdem
        >>> state = pyspiel.load_game("python_holdem").new_initial_state()
        >>> for action in (51, 50, 0, 1, 1):  # As Ah to seat 0, 2c 2d to seat 1; seat 0 calls
        ...     state.apply_action(action)
        >>> sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)  # (seed, low, high)
        >>> other = state.resample_from_infostate(0, sampler)
        >>> other.information_state_string(0) == state.information_state_string(0)
        True
        >>> other.history()[:2], other.history()[4:]  # seat 1's two cards drawn again
        ([51, 50], [1])
        """
        self._whole()
        player = self._seat(player_id)
        if not callable(probability_sampler):
            raise InvalidConfigError(f"probability_sampler must be a callable returning a "
                                     f"float in [0, 1), got {excerpt(probability_sampler)}")
        seen = {*self._hole[2 * player:2 * player + 2], *self._board}
        pool = [c for c in range(52) if c not in seen]
        cards: dict[int, int] = {}  # history index (the hole cards come first) -> card
        for k in range(len(self._hole)):
            if k // 2 == player:
                continue
            u = probability_sampler()
            x = float(u) if isinstance(u, Real) and not isinstance(u, bool) else -1.0
            if not 0 <= x < 1:  # (numpy floats are Real)
                raise InvalidConfigError(f"probability_sampler() must return a float in "
                                         f"[0, 1), got {excerpt(u)}")
            cards[k] = pool.pop(min(int(x * len(pool)), len(pool) - 1))
        state: HoldemState = self.get_game().new_initial_state()
        for k, action in enumerate(self.history()):
            state.apply_action(cards.get(k, action))
        return state

    def _to_action(self, code: int) -> Action:
        assert self._hand is not None
        if self._cfg.layout is None:
            return Action.from_int(code)
        if code == 0 and self._cfg.layout.fold:
            return Action.fold()
        if code == (1 if self._cfg.layout.fold else 0):
            return Action.check_or_call()
        to = self._cfg.layout.amounts(self._hand)[code]
        assert to is not None
        return Action.bet_or_raise(to)

    # ------------------------------------------------------------------ moves
    def _apply_action(self, action: int) -> None:
        self._whole()
        try:
            self._move(action)
        except BaseException as exc:
            if not isinstance(exc, HoldemError):  # (refused: nothing changed)
                self._stopped = True
            raise

    def _move(self, action: int) -> None:
        if self.is_chance_node():
            if not 0 <= action < 52 or action in self._hole or action in self._board:
                raise IllegalActionError(f"chance outcome {action} is not a card left in the "
                                         f"deck (0..51, not dealt yet)")
            self._deal(action)
            return
        if self.is_terminal():
            raise IllegalActionError(f"the hand is over: no action {action} can follow; start "
                                     f"another with game.new_initial_state()")
        hand = self._hand
        assert hand is not None and hand.actor is not None
        if self._cfg.layout is not None and action not in self._legal_actions(hand.actor):
            names = self._cfg.layout.names
            legal = ", ".join(f"{c} {names[c]}" for c in self._legal_actions(hand.actor))
            raise IllegalActionError(f"action {action} is not legal for seat {hand.actor}; "
                                     f"legal: {legal}")
        seat, street = hand.actor, hand.street_index
        move = self._to_action(action)
        try:
            hand.apply(move)  # exact codes: an illegal size raises here, nothing changed
        except InvalidHandError:  # the board is needed: deal it first (state unchanged)
            self._pending = (action, move)
        self._log.append((seat, street, action))

    def _deal(self, card: int) -> None:
        n = self._n
        if self._hand is None:
            self._hole.append(card)
            if len(self._hole) == 2 * n:  # seat by seat from seat 0, as universal_poker deals
                hole: list[list[int] | None] = [self._hole[2 * s:2 * s + 2] for s in range(n)]
                self._hand = self._cfg.game.new_hand(list(self._cfg.stacks),
                                                     button=self._cfg.button,
                                                     hole_cards=hole, board=[])
            return
        self._board.append(card)
        if len(self._board) < 3:
            return
        assert self._pending is not None
        self._hand.add_board([card] if len(self._board) > 3 else self._board)
        try:
            self._hand.apply(self._pending[1])
        except InvalidHandError:
            return
        self._pending = None

    # ------------------------------------------------------------------ strings
    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card(action)}"
        if self._cfg.layout is None:
            most = self.get_game().num_distinct_actions()
            if not 0 <= action < most:  # (a code above every stack is not an action here)
                raise IllegalActionError(f"action {action} is not an action of this game "
                                         f"(0..{most - 1})")
            return str(Action.from_int(action))
        names = self._cfg.layout.names
        if not 0 <= action < len(names):  # (a negative index would name another column)
            raise IllegalActionError(not_a_column(action, names))
        return names[action]

    def _seat(self, player: object) -> int:
        """``player`` as a seat 0..n-1 (an int, numpy integers too), or InvalidConfigError."""
        seat = int_or_none(player)
        if seat is None or not 0 <= seat < self._n:
            raise InvalidConfigError(f"seat must be 0..{self._n - 1}, got {excerpt(player)}")
        return seat

    def _cards_text(self, player: int) -> str:
        """The player's hole cards dealt so far, the higher first: the order they came in is
        not information (the tensors, one-hot, do not have it either)."""
        player = self._seat(player)  # (the slice below would show another seat's cards)
        return _cards(self._hole[2 * player:2 * player + 2])

    def _board_text(self) -> str:
        """The board, the flop's cards the higher first (their order is not information)."""
        return _cards(self._board[:3]) + _cards(self._board[3:], ordered=True) or "-"

    def _public_text(self) -> str:
        parts = []
        hand = self._hand
        if hand is not None:
            parts.append(f"stacks {list(hand.stacks)} bets {list(hand.bets)} pot {hand.pot}")
        parts.append("board " + self._board_text())
        return " | ".join(parts)

    def information_state_text(self, player: int, private: bool = True) -> str:
        """The player's information state as text; without ``private`` its hole cards are
        left out (the public information state)."""
        self._whole()
        player = self._seat(player)
        log = " ".join(f"{s}:{_STREETS[st][0]}:{self._action_to_string(s, c)}"
                       for s, st, c in self._log)
        cards = self._cards_text(player)
        hole = f" hole {cards or '-'}" if private else ""
        return (f"[seat {player} button {self._cfg.button}]{hole}"
                f" | board {self._board_text()} | actions {log}")

    def observation_text(self, player: int, private: bool = True) -> str:
        """The player's observation as text; without ``private`` its hole cards are left out
        (the public observation)."""
        self._whole()
        player = self._seat(player)
        cards = self._cards_text(player)
        hole = f" hole {cards or '-'}" if private else ""
        return f"[seat {player}]{hole} | {self._public_text()}"

    def private_text(self, player: int) -> str:
        """The player's private information alone: its hole cards."""
        player = self._seat(player)
        return f"[seat {player}] hole {self._cards_text(player) or '-'}"

    def __str__(self) -> str:
        hole = " ".join(self._cards_text(p) or "-" for p in range(self._n))
        log = " ".join(f"{s}:{self._action_to_string(s, c)}" for s, _st, c in self._log)
        return f"hole {hole} | {self._public_text()} | actions {log}"

    # ------------------------------------------------------------------ tensors
    def encode(self, player: int) -> list[float]:
        """The shared observation row seen by ``player`` (zeros before the hole cards)."""
        self._whole()
        spec: ObservationSpec = self.get_game().spec
        player = self._seat(player)
        if self._hand is None:
            return [0.0] * spec.width
        return spec.encode(self._hand, player)

    def history_codes(self, width: int) -> list[float]:
        """Every decision so far, in order: its action plus one (0: not yet), in ``width``
        columns: from the decisions so far up to ``game.history_width`` (the decisions of the
        longest hand, as the information state tensor has them); any other width raises
        :class:`holdem.InvalidConfigError`."""
        self._whole()
        most: int = self.get_game().history_width
        size = int_or_none(width)
        if size is None or not len(self._log) <= size <= most:
            raise InvalidConfigError(f"width must be an int {len(self._log)}..{most} (the "
                                     f"decisions so far up to those of the longest hand), "
                                     f"got {excerpt(width)}")
        out = [0.0] * size
        for j, (_s, _st, c) in enumerate(self._log):
            out[j] = c + 1.0
        return out


class _Observer:
    """Tensors and strings for pyspiel (``make_py_observer``).

    With ``public`` the tensor is the shared observation row (``"observation"``; the hole
    columns zero without ``private``), plus the action sequence (``"actions"``) with
    ``recall``; without ``public`` it is the player's hole cards alone (``"hole"``, 52
    columns; empty without ``private`` too)."""

    def __init__(self, game: HoldemGame, perfect_recall: bool, public: bool = True,
                 private: bool = True) -> None:
        self._game = game
        self._recall = perfect_recall and public
        self._public = public
        self._private = private
        width = game.spec.width
        if public:
            size = width + (game.history_width if self._recall else 0)
        else:
            size = 52 if private else 0
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        if public:
            self.dict["observation"] = self.tensor[:width]
            if self._recall:
                self.dict["actions"] = self.tensor[width:]
        elif private:
            self.dict["hole"] = self.tensor

    def set_from(self, state: HoldemState, player: int) -> None:
        if state._hand is None:  # nothing dealt yet: all zeros (pyspiel asks a new state
            state._whole()       # first, for each tensor a state gives)
            state._seat(player)  # (the checks encode makes)
            self.tensor.fill(0.0)
            return
        if not self._public:
            row = state.encode(player)  # (checks the player)
            if self._private:
                self.tensor[:] = row[:52]
            return
        w = self._game.spec.width
        state._whole()
        _encode_into(self._game.spec, state._hand, state._seat(player), self.tensor)
        if not self._private:
            self.tensor[:52] = 0.0  # the hole cards
        if self._recall:  # state.history_codes(history_width), written in place
            tail = self.tensor[w:]
            tail[:] = 0.0
            log = state._log
            if log:  # (the decisions of the longest hand fit: history_width is their count)
                tail[:len(log)] = [c + 1.0 for _s, _st, c in log]

    def string_from(self, state: HoldemState, player: int) -> str:
        if not self._public:
            if self._private:
                return state.private_text(player)
            state.encode(player)  # (checks the player)
            return ""
        if self._recall:
            return state.information_state_text(player, self._private)
        return state.observation_text(player, self._private)


pyspiel.register_game(_GAME_TYPE, HoldemGame)


# ---------------------------------------------------------------------- specifications
def game_parameters(spec: str | GameDef) -> dict[str, Any]:
    """The ``python_holdem`` parameters of a game read by :func:`holdem.acpc.parse_game` (an
    ACPC gamedef or a ``universal_poker(...)`` string, or its :class:`~holdem.acpc.GameDef`).
    Unequal stacks are played as given; a limit game without stacks gets
    :attr:`~holdem.acpc.GameDef.starting_stacks`. What ``python_holdem`` cannot set up (a
    fixed-limit big bet other than twice the big blind) raises
    :class:`holdem.acpc.GameDefError` (an :class:`holdem.InvalidConfigError`) naming it."""
    if not isinstance(spec, str | GameDef):
        raise InvalidConfigError(f"spec must be an ACPC gamedef or a universal_poker(...) "
                                 f"string, or a holdem.acpc.GameDef; got {excerpt(spec)}")
    gd = spec if isinstance(spec, GameDef) else parse_game(spec)
    params: dict[str, Any] = {"players": gd.num_players, "stacks": " ".join(map(str, gd.starting_stacks)),
                              "small_blind": gd.small_blind, "big_blind": gd.big_blind,
                              "button": gd.button}
    if gd.limit:
        assert gd.raise_sizes is not None and gd.max_raises is not None
        if gd.raise_sizes[2] != 2 * gd.big_blind:
            raise GameDefError(
                f"raiseSize {' '.join(map(str, gd.raise_sizes))}: python_holdem's fixed limit "
                f"bets the big blind, then twice it on the turn and river "
                f"({gd.big_blind} {gd.big_blind} {2 * gd.big_blind} {2 * gd.big_blind})")
        params.update(structure="FL", max_raises=gd.max_raises[0])
    else:
        params["structure"] = "NL"
    abstraction = gd.betting_abstraction or ("fullgame" if gd.limit else "fcpa")
    if abstraction == "fullgame":
        params["actions"] = "default" if gd.limit else "exact"
    else:
        params["actions"] = abstraction
    return params


def _parameters(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` checked against the parameter specification before pyspiel converts them
    (an int beyond 32 bits, a numpy integer or a value of another type would fail there with
    pybind11's own error): ints (numpy integers too) within 32 bits, strings."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key not in _DEFAULTS:
            raise InvalidConfigError(f"unknown parameter {excerpt(key)}; allowed: {sorted(_DEFAULTS)}")
        if type(_DEFAULTS[key]) is int:
            number = int_or_none(value)
            if number is None:
                raise InvalidConfigError(f"{key} must be an int, got {excerpt(value)}")
            if not -_INT32_MAX - 1 <= number <= _INT32_MAX:
                got = f"{number:,}" if number.bit_length() <= 256 else shown(number)
                raise InvalidConfigError(f"{key} must fit OpenSpiel's 32-bit int parameters "
                                         f"(up to {_INT32_MAX:,}), got {got}")
            value = number
        elif not isinstance(value, str):
            raise InvalidConfigError(f"{key} must be a str, got {excerpt(value)}")
        out[key] = value
    return out


def load_game(spec: str | GameDef | None = None, **params: Any) -> HoldemGame:
    """``pyspiel.load_game("python_holdem", params)``; ``spec`` is an ACPC gamedef, a
    ``universal_poker(...)`` string or a :class:`holdem.acpc.GameDef` (keyword parameters
    override its values; see :func:`game_parameters`)."""
    merged = _parameters({**(game_parameters(spec) if spec is not None else {}), **params})
    try:
        game: HoldemGame = pyspiel.load_game(GAME_NAME, merged)
    except HoldemError:
        raise
    return game
