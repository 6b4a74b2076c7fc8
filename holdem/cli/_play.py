"""``holdem play``: hands against the built-in agents in a terminal, one line of input per move.

You sit at a :class:`holdem.Table` with the built-in agents (:class:`holdem.CallAgent`,
:class:`holdem.RandomAgent`, :class:`holdem.EquityAgent`); the table runs the session (moving
button R4, blinds R2/R3, no cards without chips R37) and you are one more agent, one that asks
on stdin. Everything is printed as plain text and read line by line, so a script (or a test)
can play too.

Moves: ``f``/``fold``, ``x``/``check``, ``c`` (check or call), ``call``, ``b N``/``bet N``,
``r N``/``raise N`` (N is the street total: "raise to"), ``a``/``allin``, plus ``help``,
``status`` and ``quit``. A move the rules do not allow is explained, with what is allowed, and
asked again.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Sequence
from typing import IO, Any, Final

from holdem._parallel import chunk_seed
from holdem._textfile import write_replacing
from holdem.cards import Card
from holdem.errors import HoldemError, InvalidActionError
from holdem.hand.actions import Action, ActionType
from holdem.hand.game import Game, Structure
from holdem.hand.records import ActionRecord, LegalActions, Street
from holdem.table.agents import CallAgent, EquityAgent, Observation, RandomAgent
from holdem.table.table import HandRecord, Table

__all__ = ["AGENTS", "HumanAgent", "make_agent", "make_game", "play_session"]

#: Built-in agents by name: each factory takes a seed.
AGENTS: Final[dict[str, Callable[[int], Any]]] = {
    "call": lambda seed: CallAgent(),
    "random": lambda seed: RandomAgent(seed=seed),
    "equity": lambda seed: EquityAgent(seed=seed),
}

ME: Final = "You"
MOVE_CHARS: Final = 4096
"""The longest line read as a move (longer: InvalidActionError, nothing more is read)."""

HELP: Final = """\
moves: f (fold)   x (check)   c (check or call)   b N (bet to N)   r N (raise to N)   a (all in)
       the words work too: fold, check, call, bet 40, raise 120, allin
other: status (cards, board, stacks)   help   quit"""

_WORDS: Final = {
    "f": "fold", "fold": "fold",
    "x": "check", "k": "check", "check": "check",
    "c": "cc", "call": "call",
    "b": "bet", "bet": "bet",
    "r": "raise", "raise": "raise",
    "a": "allin", "allin": "allin", "all-in": "allin", "shove": "allin",
}


def make_agent(name: str, seed: int) -> Any:
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise HoldemError(
            f"unknown agent {name!r} (built-in agents: {', '.join(sorted(AGENTS))})"
        ) from None


def make_game(limit: str, big_blind: int) -> Game:
    structure = {"no": Structure.NO_LIMIT, "pot": Structure.POT_LIMIT,
                 "fixed": Structure.FIXED_LIMIT}[limit]
    return Game(structure=structure, big_blind=big_blind)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _isatty(f: IO[str]) -> bool:
    try:
        return f.isatty()
    except (AttributeError, ValueError):
        return False


class _Quit(Exception):
    pass


class HumanAgent:
    """The person at the keyboard, as a table agent: shows what happened since their last turn,
    the legal actions with amounts, and reads a move (asking again until it is legal)."""

    name = "human"

    def __init__(self, out: IO[str], inp: IO[str], table: Table) -> None:
        self.out = out
        self.inp = inp
        self.table = table
        self.hand = -1
        self.seen = 0
        self.street = Street.PREFLOP
        self.quitting = False

    # -------------------------------------------------------------------- output
    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def _new_hand(self, number: int, names: Sequence[str], button: str, posted: Sequence[int],
                  hole: Sequence[Card] | None) -> None:
        self.hand, self.seen, self.street = number, 0, Street.PREFLOP
        g = self.table.game
        holder = "You have" if button == ME else f"{button} has"
        self.say()
        self.say(f"=== Hand {number + 1}: {holder} the button; blinds {g.small_blind}/"
                 f"{g.big_blind} ===")
        posts = [f"{name} {amount}" for name, amount in zip(names, posted, strict=True) if amount]
        self.say("Posted: " + ", ".join(posts))
        if hole:
            self.say(f"Your cards: {_cards(hole)}")

    def _catch_up(self, history: Sequence[ActionRecord], board: Sequence[Card],
                  names: Sequence[str]) -> None:
        for rec in history[self.seen:]:
            self._street_to(rec.street, board)
            who = names[rec.seat]
            if who == ME:
                continue
            t = rec.type
            if t == ActionType.FOLD:
                text = "folds"
            elif t == ActionType.CHECK:
                text = "checks"
            elif t == ActionType.CALL:
                text = f"calls {rec.amount}"
            elif t == ActionType.BET:
                text = f"bets {rec.to}"
            else:
                text = f"raises to {rec.to}"
            self.say(f"{who} {text}" + (" (all in)" if rec.all_in else ""))
        self.seen = len(history)

    def _street_to(self, street: Street, board: Sequence[Card]) -> None:
        while self.street < street and self.street < Street.RIVER:
            self.street = Street(self.street + 1)
            shown = {Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}[self.street]
            if len(board) >= shown:
                self.say(f"--- {str(self.street).capitalize()}: {_cards(board[:shown])} ---")

    # -------------------------------------------------------------------- acting
    def act(self, obs: Observation) -> Action:
        names = [ME if n == ME else n for n in obs.names]
        history = obs.history
        if obs.hand_number != self.hand:
            paid = [0] * len(names)
            for rec in history:
                paid[rec.seat] += rec.amount
            posted = [c - p for c, p in zip(obs.committed, paid, strict=True)]
            self._new_hand(obs.hand_number, names, names[obs.button], posted, obs.hole_cards)
        self._catch_up(history, obs.board, names)
        self._street_to(obs.street, obs.board)
        la = obs.legal
        if self.quitting:
            return Action.fold() if la.can_fold else Action.check()
        owe = f"to call {la.call}" if not la.can_check else "no bet to you"
        self.say(f"Your turn ({owe}; pot {obs.pot}; your stack {obs.stacks[obs.position]}). "
                 f"You may: {_options(la)}")
        while True:
            line = self._read()
            if line is None:
                return self._leave(la)
            words = line.lower().split()
            if words == ["all", "in"]:  # as the help writes it: "a (all in)"
                words = ["allin"]
            if not words:
                continue
            if words[0] in ("q", "quit", "exit"):
                return self._leave(la)
            if words[0] in ("h", "help", "?"):
                self.say(HELP)
                continue
            if words[0] in ("s", "status"):
                self._status(obs, names)
                continue
            try:
                return _move(words, obs)
            except HoldemError as e:
                self.say(f"  {e}. You may: {_options(la)}")

    def _read(self) -> str | None:
        print("> ", end="", file=self.out, flush=True)
        # bounded: a line that never ends (stdin from /dev/zero) was read whole into memory
        line = self.inp.readline(MOVE_CHARS + 1)
        if not line:
            self.say()
            return None
        if len(line) > MOVE_CHARS and not line.endswith("\n"):
            raise InvalidActionError(f"a move is one line of at most {MOVE_CHARS} characters; "
                                     f"the input has a longer one (is it a text of moves?)")
        if not _isatty(self.inp):
            self.say(line.rstrip("\n"))  # echo scripted input so the transcript reads well
        return line.strip()

    def _leave(self, la: LegalActions) -> Action:
        if la.can_check:
            self.say("You leave the table: you check while checking is free, and fold "
                     "if someone bets.")
        else:
            self.say("You leave the table: your hand is folded.")
        self.quitting = True
        self.table.leave(ME)  # takes effect at the end of this hand
        return Action.fold() if la.can_fold else Action.check()

    def _status(self, obs: Observation, names: Sequence[str]) -> None:
        self.say(f"Your cards: {_cards(obs.hole_cards)}   Board: "
                 f"{_cards(obs.board) or '(none yet)'}   Pot: {obs.pot}")
        folded = {r.seat for r in obs.history if r.type == ActionType.FOLD}
        parts = []
        for i, name in enumerate(names):
            flags = []
            if i == obs.button:
                flags.append("button")
            if obs.bets[i]:
                flags.append(f"bet {obs.bets[i]}")
            if i in folded:
                flags.append("folded")
            elif obs.stacks[i] == 0:
                flags.append("all in")
            parts.append(f"{name} {obs.stacks[i]}" + (f" ({', '.join(flags)})" if flags else ""))
        self.say("Stacks: " + " | ".join(parts))

    # -------------------------------------------------------------------- after the hand
    def finish(self, record: HandRecord) -> None:
        state = record.state
        names = list(record.names)
        if record.number != self.hand:  # the hand ended before our first turn
            me = names.index(ME) if ME in names else None
            paid = [0] * len(names)
            for _seat, _kind, amount in record.posts:
                paid[record.seats.index(_seat)] += amount
            hole = state.hole_cards[me] if me is not None else None
            self._new_hand(record.number, names, names[record.seats.index(record.button)]
                           if record.button in record.seats else "nobody", paid, hole)
        self._catch_up(state.history, state.board, names)
        result = state.result
        if result.showdown_order:
            self._street_to(Street.RIVER, state.board)
            for seat in result.showdown_order:
                who = names[seat]
                if seat in result.shown:
                    verb = "show" if who == ME else "shows"
                    self.say(f"{who} {verb} {_cards(result.shown[seat])}: "
                             f"{result.descriptions.get(seat, '')}")
                else:
                    self.say(f"{who} {'muck' if who == ME else 'mucks'}")
        pots = [p for p in result.pots if p.amount]
        for k, pot in enumerate(pots):
            label = "the pot" if len(pots) == 1 else ("the main pot" if k == 0 else f"side pot {k}")
            for seat, share in zip(pot.winners, pot.shares, strict=True):
                who = names[seat]
                self.say(f"{who} {'win' if who == ME else 'wins'} {share} from {label}")
        mine = record.payoffs.get(ME)
        if mine is not None:
            stack = state.result.final_stacks[names.index(ME)]
            what = f"won {mine}" if mine > 0 else f"lost {-mine}" if mine < 0 else "broke even"
            self.say(f"Hand over: you {what}; your stack is {stack}.")


def _options(la: LegalActions) -> str:
    opts = []
    if la.can_fold:
        opts.append("fold (f)")
    opts.append("check (x)" if la.can_check else f"call {la.call} (c)")
    if la.can_raise:
        assert la.min_to is not None and la.max_to is not None
        word, key = ("bet", "b") if la.is_bet else ("raise to", "r")
        if la.min_to == la.max_to:
            opts.append(f"{word} {la.min_to} ({key} {la.min_to})")
        else:
            opts.append(f"{word} {la.min_to}..{la.max_to} ({key} N)")
    return " | ".join(opts)


def _move(words: list[str], obs: Observation) -> Action:
    """The action for the typed words, checked against the legal actions (R17-R28): raises
    :class:`HoldemError` saying why a move is not allowed."""
    la = obs.legal
    word = _WORDS.get(words[0])
    if word is None:
        raise HoldemError(f"'{words[0]}' is not a move (type help for the list)")
    if word in ("bet", "raise"):
        if len(words) == 3 and words[1].lower() == "to":  # "raise to 40", as the prompt says
            words = [words[0], words[2]]
        if len(words) != 2:
            raise HoldemError(f"{word} needs one amount, the total to {word} to, like '{word} 40'")
        try:
            to = int(words[1])
        except ValueError:
            raise HoldemError(f"'{words[1]}' is not a whole number of chips") from None
        if not la.can_raise:
            raise HoldemError(f"you may not {word} now (the betting is capped, or was not "
                              "reopened by a short all-in, or nobody could call): "
                              + ("check" if la.can_check else "call or fold"))
        if word == "bet" and not la.is_bet:
            if la.can_check:  # the big blind's option: nothing to call, but the blind is a bet
                raise HoldemError("nothing to call, but the big blind counts as this "
                                  "round's bet: raise instead (r N)")
            raise HoldemError("there is already a bet: raise instead (r N)")
        if word == "raise" and la.is_bet:
            raise HoldemError("there is no bet to raise: bet instead (b N)")
        assert la.min_to is not None and la.max_to is not None
        if not la.min_to <= to <= la.max_to:
            span = (f"exactly {la.min_to}" if la.min_to == la.max_to
                    else f"from {la.min_to} to {la.max_to}")
            raise HoldemError(f"{word} to {to} is not allowed: the {word} goes {span}")
        return Action.bet(to) if word == "bet" else Action.raise_to(to)
    if len(words) != 1:
        raise HoldemError(f"{words[0]} takes no amount")
    if word == "fold":
        if not la.can_fold:
            raise HoldemError("no need to fold: checking is free (R17); check")
        return Action.fold()
    if word == "check":
        if not la.can_check:
            raise HoldemError(f"you cannot check facing a bet: call {la.call} or fold")
        return Action.check()
    if word == "call":
        if la.can_check:
            raise HoldemError("there is no bet to call: check")
        return Action.call()
    if word == "cc":
        return Action.check_or_call()
    total = obs.bets[obs.position] + obs.stacks[obs.position]
    if la.can_raise and la.max_to == total:
        return Action.all_in()
    if not la.can_check and la.call == obs.stacks[obs.position]:
        return Action.all_in()
    allowed = f"the most is {la.max_to}" if la.can_raise else "call or fold"
    raise HoldemError(f"all in ({total}) is not allowed here: {allowed}")


def _save(path: str, record: HandRecord, number: int, human: HumanAgent,
          seat_count: int, first: bool) -> bool:
    """Write hand ``number`` to ``path`` (``first``: the session's first hand written, which
    starts the file anew); whether it was written (a hand PHH cannot hold is skipped)."""
    from holdem.history import from_state
    from holdem.phh import dumps

    now = datetime.datetime.now(datetime.UTC)  # when the hand was played
    # the table's seat numbers (from 1, as the terminal shows them), by the hand's seats:
    # from_state turns them, with the players, to PHH's p1 = the first seat left of the button
    seats = [s + 1 for s in record.seats]
    try:
        hh = from_state(record.state, players=list(record.names), hand=record.number + 1,
                        seats=seats, seat_count=seat_count,
                        event="holdem play", year=now.year, month=now.month, day=now.day,
                        time=datetime.time(now.hour, now.minute, now.second),
                        time_zone_abbreviation="UTC")
    except HoldemError as e:
        human.say(f"(hand {record.number + 1} is not saved: {e})")
        return False
    text = f"[{number}]\n" + dumps(hh)
    try:
        if first:  # an existing file is replaced once the hand is all written: Ctrl-C while
            # the first hand was written left it empty (a .phhs file of no hands)
            write_replacing(path, text)
        else:
            with open(path, "a", encoding="utf-8") as f:
                f.write("\n" + text)
    except OSError as e:  # (a failed write names no file: the command's error line will)
        raise OSError(e.errno, e.strerror or str(e), path) from None
    return True


def play_session(*, game: Game, players: int, agents: Sequence[str], stack: int, seed: int,
                 hands: int | None, out: IO[str], inp: IO[str], save: str | None = None) -> int:
    """Play until ``hands`` hands are done, you quit, you are broke or every agent is.

    ``save``: a path; every finished hand is written there as PHH (a ``.phhs`` file)."""
    table = Table(game, seats=players, seed=seed)
    human = HumanAgent(out, inp, table)
    table.sit(0, ME, stack, human)
    for k in range(1, players):
        name = agents[(k - 1) % len(agents)]
        table.sit(k, f"{name}-{k + 1}", stack, make_agent(name, chunk_seed(seed, k)))
    played = 0
    saved = False  # a hand of this session is in ``save`` (the first one starts it anew)
    limit = math.inf if hands is None else hands
    while played < limit:
        seated = {p.name: p for p in table.players}
        if ME not in seated:
            break
        if seated[ME].stack == 0:
            human.say("You have no chips left.")
            break
        if not any(p.stack for n, p in seated.items() if n != ME):
            human.say("Every agent is out of chips: you won the table.")
            break
        record = table.play_hand()
        played += 1
        human.finish(record)
        final = record.state.result.final_stacks
        for name, chips in zip(record.names, final, strict=True):
            if name != ME and chips == 0:
                human.say(f"{name} is out of chips and sits out (no chips, no cards: R37).")
        if save is not None:
            saved = _save(save, record, played, human, players, not saved) or saved
    human.say()
    human.say(f"Session over after {played} hand{'s' if played != 1 else ''}.")
    rows = [(p.name, p.stack) for p in sorted(table.players, key=lambda p: p.seat)]
    if ME not in {name for name, _ in rows}:
        rows.insert(0, (ME, table.cashed_out))
    width = max(len(name) for name, _ in rows)
    for name, chips in rows:
        human.say(f"  {name:<{width}}  {chips:>8}  ({chips - stack:+d})")
    return 0
