"""``holdem play``: hands against built-in agents in a terminal, one line of input per move.

The session is a sequence of hands at one table: you sit in seat 1, the agents in the other
seats; stacks carry over from hand to hand and the button moves one seat clockwise each hand
(R4) among the players who still have chips (R37: a player with no chips is out). Everything is
printed as plain text and read line by line from stdin, so a script (or a test) can play too.

Moves: ``f``/``fold``, ``x``/``check``, ``c``/``call``, ``b N``/``bet N``, ``r N``/``raise N``
(N is the street total, "raise to"), ``a``/``allin``, plus ``help``, ``status`` and ``quit``.
A move the rules do not allow is explained (with what is allowed) and asked again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Final

from holdem.actions import Action, ActionType
from holdem.cards import Card
from holdem.errors import HoldemError
from holdem.game import Game, Structure
from holdem.hand_types import Street
from holdem.state import HandState

__all__ = ["AGENTS", "Session", "agent_by_name"]

#: An agent: given the hand (the agent acts for ``state.actor``) and its own random generator,
#: return a legal action. Agents read only what that seat may see (its cards, the board, the
#: bets and stacks): they never look at other players' hole cards.
Agent = Callable[[HandState, random.Random], Action]


def _calling_agent(state: HandState, rng: random.Random) -> Action:
    """Always checks or calls (a "calling station")."""
    return Action.check_or_call()


def _random_agent(state: HandState, rng: random.Random) -> Action:
    """Uniform over fold (when facing a bet), check/call and a random bet or raise size."""
    legal = state.legal_actions()
    options = [Action.check_or_call()]
    if legal.can_fold:
        options.append(Action.fold())
    if legal.can_raise:
        assert legal.min_to is not None and legal.max_to is not None
        high = min(legal.max_to, legal.min_to * 3)
        options.append(Action.bet_or_raise(rng.randint(legal.min_to, max(legal.min_to, high))))
    return rng.choice(options)


AGENTS: Final[dict[str, Agent]] = {"call": _calling_agent, "random": _random_agent}


def agent_by_name(name: str) -> Agent:
    try:
        return AGENTS[name]
    except KeyError:
        raise HoldemError(
            f"unknown agent {name!r} (built-in agents: {', '.join(sorted(AGENTS))})"
        ) from None


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


@dataclass
class Session:
    """A table session of ``hands`` hands (``None``: until you quit or someone is broke)."""

    game: Game
    names: list[str]
    agents: list[Agent | None]  # None = the human
    stacks: list[int]
    out: IO[str]
    inp: IO[str]
    seed: int
    hands: int | None = None

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str | None:
        print(prompt, end="", file=self.out, flush=True)
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        if not _isatty(self.inp):
            self.say(line.rstrip("\n"))  # echo scripted input so the transcript reads well
        return line.strip()

    # -------------------------------------------------------------------- the session
    def run(self) -> int:
        rng = random.Random(self.seed)
        agent_rngs = [random.Random(rng.getrandbits(64)) for _ in self.names]
        n = len(self.names)
        start = self.stacks[:]
        button = n - 1
        played = 0
        quit_ = False
        while not quit_ and (self.hands is None or played < self.hands):
            seats = [i for i in range(n) if self.stacks[i] > 0]
            if self.stacks[0] == 0:
                self.say("You have no chips left.")
                break
            if len(seats) < 2:
                self.say("Every agent is out of chips: you won the table.")
                break
            # R4: the button moves to the next player dealt in.
            button = next(s for s in ((button + k) % n for k in range(1, n + 1)) if s in seats)
            played += 1
            quit_ = self._hand(played, seats, button, rng.getrandbits(64), agent_rngs)
        self.say()
        self.say(f"Session over after {played} hand{'s' if played != 1 else ''}.")
        width = max(len(x) for x in self.names)
        for i, name in enumerate(self.names):
            delta = self.stacks[i] - start[i]
            self.say(f"  {name:<{width}}  {self.stacks[i]:>8}  ({delta:+d})")
        return 0

    def _hand(self, number: int, seats: list[int], button: int, seed: int,
              agent_rngs: Sequence[random.Random]) -> bool:
        """Play one hand; True when the user asked to quit."""
        names = [self.names[s] for s in seats]
        state = self.game.new_hand([self.stacks[s] for s in seats], button=seats.index(button),
                                   seed=seed)
        me = seats.index(0)
        total = "" if self.hands is None else f" of {self.hands}"
        g = self.game
        self.say()
        holder = "You have" if state.button == me else f"{names[state.button]} has"
        self.say(f"=== Hand {number}{total}: {holder} the button; "
                 f"blinds {g.small_blind}/{g.big_blind} ===")
        for post in state.posts:
            what = post.kind.replace("_", " ")
            who = "You post" if post.seat == me else f"{names[post.seat]} posts"
            self.say(f"{who} {what} {post.amount}")
        hole = state.hole_cards[me]
        assert hole is not None
        self.say(f"Your cards: {_cards(hole)}")
        street = Street.PREFLOP
        seen = len(state.history)
        while not state.is_terminal():
            if state.street != street:
                street = state.street
                self._street_line(state)
            actor = state.actor
            assert actor is not None
            if actor == me:
                move = self._ask_move(state, names)
                if move is None:
                    # quit or end of input: fold this hand (the chips already in stay in)
                    self.say("You leave the table: your hand is folded (checked when free).")
                    if not state.is_terminal():
                        self._forfeit(state, me)
                    self._report_new(state, names, seen, me)
                    self._settle(state, seats, names, me)
                    return True
                state.apply(move)
            else:
                agent = self.agents[seats[actor]]
                assert agent is not None
                state.apply(agent(state, agent_rngs[seats[actor]]))
            seen = self._report_new(state, names, seen, me)
        self._settle(state, seats, names, me)
        return False

    def _forfeit(self, state: HandState, me: int) -> None:
        while not state.is_terminal():
            legal = state.legal_actions()
            if legal.seat == me:
                state.apply(Action.fold() if legal.can_fold else Action.check())
            else:
                state.apply(Action.check_or_call())

    def _street_line(self, state: HandState) -> None:
        if state.street in (Street.FLOP, Street.TURN, Street.RIVER):
            self.say(f"--- {str(state.street).capitalize()}: {_cards(state.board)}  "
                     f"(pot {state.pot}) ---")

    def _report_new(self, state: HandState, names: Sequence[str], seen: int, me: int) -> int:
        history = state.history
        for rec in history[seen:]:
            who = "You" if rec.seat == me else names[rec.seat]
            t = rec.type
            if t == ActionType.FOLD:
                text = "fold" if rec.seat == me else "folds"
            elif t == ActionType.CHECK:
                text = "check" if rec.seat == me else "checks"
            elif t == ActionType.CALL:
                text = ("call " if rec.seat == me else "calls ") + str(rec.amount)
            elif t == ActionType.BET:
                text = ("bet " if rec.seat == me else "bets ") + str(rec.to)
            else:
                text = ("raise to " if rec.seat == me else "raises to ") + str(rec.to)
            if rec.all_in:
                text += " (all in)"
            if rec.seat != me:
                self.say(f"{who} {text}")
        return len(history)

    def _status(self, state: HandState, names: Sequence[str], me: int) -> None:
        hole = state.hole_cards[me]
        assert hole is not None
        self.say(f"Your cards: {_cards(hole)}   Board: {_cards(state.board) or '(none yet)'}   "
                 f"Pot: {state.pot}")
        parts = []
        for i, name in enumerate(names):
            tag = "You" if i == me else name
            flags = []
            if i == state.button:
                flags.append("button")
            if state.bets[i]:
                flags.append(f"bet {state.bets[i]}")
            status = state.statuses[i].name.lower().replace("_", " ")
            if status != "active":
                flags.append(status)
            extra = f" ({', '.join(flags)})" if flags else ""
            parts.append(f"{tag} {state.stacks[i]}{extra}")
        self.say("Stacks: " + " | ".join(parts))

    def _options(self, state: HandState) -> str:
        la = state.legal_actions()
        opts = []
        if la.can_fold:
            opts.append("fold (f)")
        if la.can_check:
            opts.append("check (x)")
        else:
            opts.append(f"call {la.call} (c)")
        if la.can_raise:
            assert la.min_to is not None and la.max_to is not None
            word, key = ("bet", "b") if la.is_bet else ("raise to", "r")
            if la.min_to == la.max_to:
                opts.append(f"{word} {la.min_to} ({key} {la.min_to})")
            else:
                opts.append(f"{word} {la.min_to}..{la.max_to} ({key} N)")
        return " | ".join(opts)

    def _ask_move(self, state: HandState, names: Sequence[str]) -> Action | None:
        me = state.actor
        assert me is not None
        la = state.legal_actions()
        owe = f"to call {la.call}" if not la.can_check else "no bet to you"
        self.say(f"Your turn ({owe}; pot {state.pot}; your stack {state.stacks[me]}). "
                 f"You may: {self._options(state)}")
        while True:
            line = self.ask("> ")
            if line is None:
                return None
            words = line.lower().split()
            if not words:
                continue
            cmd = words[0]
            if cmd in ("q", "quit", "exit"):
                return None
            if cmd in ("h", "help", "?"):
                self.say(HELP)
                continue
            if cmd in ("s", "status"):
                self._status(state, names, me)
                continue
            try:
                action = self._parse_move(words, state)
            except HoldemError as e:
                self.say(f"  {e}. You may: {self._options(state)}")
                continue
            if state.is_legal(action):
                return action
            try:
                state.apply(action)  # not legal: raises with the reason, changes nothing
            except HoldemError as e:
                self.say(f"  Not allowed: {e}. You may: {self._options(state)}")

    def _parse_move(self, words: list[str], state: HandState) -> Action:
        word = _WORDS.get(words[0])
        if word is None:
            raise HoldemError(f"'{words[0]}' is not a move (type help for the list)")
        if word in ("bet", "raise"):
            if len(words) != 2:
                raise HoldemError(f"{word} needs one amount, the total to {word} to, like '{word} 40'")
            try:
                to = int(words[1])
            except ValueError:
                raise HoldemError(f"'{words[1]}' is not a whole number of chips") from None
            if to <= 0:
                raise HoldemError("the amount must be positive")
            return Action.bet(to) if word == "bet" else Action.raise_to(to)
        if len(words) != 1:
            raise HoldemError(f"{word} takes no amount")
        return {
            "fold": Action.fold(), "check": Action.check(), "call": Action.call(),
            "cc": Action.check_or_call(), "allin": Action.all_in(),
        }[word]

    def _settle(self, state: HandState, seats: Sequence[int], names: Sequence[str],
                me: int) -> None:
        result = state.result
        board = state.board
        if result.showdown_order:
            if len(board) == 5:
                self.say(f"--- Showdown: {_cards(board)} ---")
            for seat in result.showdown_order:
                who = "You" if seat == me else names[seat]
                if seat in result.shown:
                    verb = "show" if seat == me else "shows"
                    self.say(f"{who} {verb} {_cards(result.shown[seat])}: "
                             f"{result.descriptions.get(seat, '')}")
                else:
                    self.say(f"{who} {'muck' if seat == me else 'mucks'}")
        for pot_no, pot in enumerate(result.pots):
            label = "the pot" if len(result.pots) == 1 else (
                "the main pot" if pot_no == 0 else f"side pot {pot_no}")
            for seat, share in zip(pot.winners, pot.shares, strict=True):
                who = "You" if seat == me else names[seat]
                self.say(f"{who} {'win' if seat == me else 'wins'} {share} from {label}")
        for i, s in enumerate(seats):
            self.stacks[s] = result.final_stacks[i]
        mine = result.payoffs[me]
        self.say(f"Hand over: you {'won' if mine > 0 else 'lost'} {abs(mine)}; "
                 f"your stack is {self.stacks[0]}." if mine else
                 f"Hand over: you broke even; your stack is {self.stacks[0]}.")


def _isatty(f: IO[str]) -> bool:
    try:
        return f.isatty()
    except (AttributeError, ValueError):
        return False


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


def make_game(limit: str, big_blind: int) -> Game:
    structure = {"no": Structure.NO_LIMIT, "pot": Structure.POT_LIMIT,
                 "fixed": Structure.FIXED_LIMIT}[limit]
    return Game(structure=structure, big_blind=big_blind)
