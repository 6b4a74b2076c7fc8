"""holdem.acpc.play against a small ACPC dealer on 127.0.0.1 (real sockets, seeded hands).

The dealer here is written independently of holdem.acpc: it formats MATCHSTATE lines itself,
reads ``<matchstate>:<action>`` answers and checks every action with a HandState.
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import pytest

from holdem import Action, ActionType, AgentError, HandState, RandomAgent, SeatStatus, Street, acpc

TIMEOUT = 20.0
DATA = Path(__file__).parent / "data" / "acpc"


@dataclass
class DealerLog:
    payoffs: list[list[int]] = field(default_factory=list)  # per hand, per player
    errors: list[str] = field(default_factory=list)
    answers: int = 0


def _cards(state: HandState, position: int, rounds: int) -> str:
    n = state.num_players
    showdown = state.is_terminal() and state.street is Street.SHOWDOWN
    holes = []
    for p in range(n):
        hole = state.hole_cards[p]
        shown = p == position or (showdown and state.status(p) is not SeatStatus.FOLDED)
        holes.append("".join(map(str, hole)) if shown and hole else "")
    board = [str(c) for c in state.board]
    parts = ["|".join(holes)]
    for r, (lo, hi) in enumerate(((0, 3), (3, 4), (4, 5)), start=1):
        if r < rounds:
            parts.append("".join(board[lo:hi]))
    return "/".join(parts)


def _dealer(servers: list[socket.socket], gamedef: acpc.GameDef, hands: int,
            log: DealerLog) -> None:
    n = gamedef.num_players
    conns = []
    try:
        for server in servers:
            conn, _ = server.accept()
            conn.settimeout(TIMEOUT)
            conns.append((conn, conn.makefile("rb")))
        for _, reader in conns:
            version = reader.readline()
            if version != b"VERSION:2.0.0\r\n":
                log.errors.append(f"bad version line {version!r}")
                return
        limit = gamedef.limit
        for h in range(hands):
            state = gamedef.new_hand(seed=1000 + h)
            player_at = [(p - h) % n for p in range(n)]  # position -> player (seats rotate)
            rounds = [""]
            while True:
                lines = {}
                for p in range(n):
                    line = f"MATCHSTATE:{p}:{h}:{'/'.join(rounds)}:{_cards(state, p, len(rounds))}"
                    lines[p] = line
                    conns[player_at[p]][0].sendall(line.encode() + b"\r\n")
                if state.is_terminal():
                    break
                actor = state.actor
                assert actor is not None
                answer = conns[player_at[actor]][1].readline().decode().rstrip("\r\n")
                log.answers += 1
                prefix = lines[actor] + ":"
                if not answer.startswith(prefix):
                    log.errors.append(f"answer {answer!r} does not echo {lines[actor]!r}")
                    return
                token = answer[len(prefix):]
                behind = state.committed[actor] - state.bets[actor]
                if token == "f":
                    action = Action.fold()
                elif token == "c":
                    action = Action.parse("cc")
                elif limit and token == "r":
                    la = state.legal_actions()
                    action = Action.parse(f"cbr {la.min_to}")
                elif not limit and token[:1] == "r" and token[1:].isdigit():
                    action = Action.parse(f"cbr {int(token[1:]) - behind}")
                else:
                    log.errors.append(f"bad action {token!r} in {answer!r}")
                    return
                if not state.is_legal(action):
                    log.errors.append(f"illegal action {token!r} in {answer!r}")
                    return
                state.apply(action)
                rounds[-1] += token
                if state.is_terminal():
                    if state.street is Street.SHOWDOWN:
                        rounds += [""] * (4 - len(rounds))
                else:
                    rounds += [""] * (state.street_index + 1 - len(rounds))
            by_player = [0] * n
            for p in range(n):
                by_player[player_at[p]] = state.payoffs[p]
            log.payoffs.append(by_player)
    except OSError as exc:
        log.errors.append(f"dealer socket error: {exc!r}")
    finally:
        for conn, reader in conns:
            reader.close()
            conn.close()
        for server in servers:
            server.close()


def _match(gamedef: acpc.GameDef, agents: list[object], hands: int
           ) -> tuple[DealerLog, list[acpc.ClientResult | BaseException]]:
    servers = []
    for _ in agents:
        server = socket.create_server(("127.0.0.1", 0))
        server.settimeout(TIMEOUT)
        servers.append(server)
    ports = [s.getsockname()[1] for s in servers]
    log = DealerLog()
    dealer = threading.Thread(target=_dealer, args=(servers, gamedef, hands, log))
    dealer.start()
    results: list[acpc.ClientResult | BaseException] = [RuntimeError("no result")] * len(agents)

    def run(k: int) -> None:
        try:
            results[k] = acpc.play("127.0.0.1", ports[k], agents[k], gamedef, timeout=TIMEOUT)
        except BaseException as exc:  # reported by the test
            results[k] = exc

    clients = [threading.Thread(target=run, args=(k,)) for k in range(len(agents))]
    for c in clients:
        c.start()
    for c in clients:
        c.join(TIMEOUT * 3)
    dealer.join(TIMEOUT * 3)
    assert not dealer.is_alive() and not any(c.is_alive() for c in clients)
    return log, results


@pytest.mark.parametrize(("gamedef", "hands"), [
    (acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT), 40),
    (acpc.parse_gamedef(acpc.HEADS_UP_LIMIT), 40),
    (acpc.parse_gamedef(acpc.HEADS_UP_LIMIT.replace("numPlayers = 2", "numPlayers = 3")
                        .replace("blind = 10 5", "blind = 5 10 0")
                        .replace("firstPlayer = 2 1 1 1", "firstPlayer = 3 1 1 1")), 30),
    (acpc.parse_gamedef((DATA / "holdem.nolimit.6p.game").read_text()), 15),
], ids=["nl2", "fl2", "fl3", "nl6"])
def test_client_plays_a_match_against_a_local_dealer(gamedef: acpc.GameDef, hands: int) -> None:
    agents: list[object] = [RandomAgent(seed=k + 1) for k in range(gamedef.num_players)]
    log, results = _match(gamedef, agents, hands)
    assert log.errors == []
    assert len(log.payoffs) == hands and log.answers >= 2 * hands
    for k, result in enumerate(results):
        assert isinstance(result, acpc.ClientResult), result
        assert result.hands == hands
        assert list(result.payoffs) == [row[k] for row in log.payoffs]
    assert sum(r.total for r in results if isinstance(r, acpc.ClientResult)) == 0
    assert any(row[0] != 0 for row in log.payoffs)  # chips changed hands


def test_client_plays_callable_agents() -> None:
    gamedef = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)

    def min_raiser(obs: object) -> Action:
        legal = obs.legal  # type: ignore[attr-defined]
        return Action(ActionType.BET_RAISE, legal.min_to) if legal.can_raise else Action.parse("cc")

    log, results = _match(gamedef, [min_raiser, lambda obs: 1], 10)  # 1: check/call
    assert log.errors == [] and len(log.payoffs) == 10
    assert all(isinstance(r, acpc.ClientResult) and r.hands == 10 for r in results)


def test_client_refuses_an_illegal_agent_answer() -> None:
    gamedef = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
    log, results = _match(gamedef, [lambda obs: "cbr 1", lambda obs: "cbr 1"], 3)
    assert any(isinstance(r, AgentError) and "cbr 1" in str(r) for r in results)
    assert log.payoffs == []  # nothing illegal reached the dealer


@pytest.mark.parametrize(("gamedef", "kwargs", "error", "message"), [
    (acpc.HEADS_UP_NO_LIMIT, {}, TypeError, "gamedef must be a holdem.acpc.GameDef"),
    (None, {}, TypeError, "gamedef must be a holdem.acpc.GameDef"),
    (acpc.parse_game(acpc.HEADS_UP_NO_LIMIT.replace("stack = 20000 20000", "stack = 20000 100")),
     {}, acpc.GameDefError, "equal stacks only"),
    (acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT), {"port": 70000}, acpc.ProtocolError,
     "port must be 1..65535"),
    (acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT), {"port": "x"}, TypeError, "port must be an int"),
    (acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT), {"timeout": 0}, acpc.ProtocolError,
     "timeout must be a positive"),
    (acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT), {"timeout": float("nan")}, acpc.ProtocolError,
     "timeout must be a positive"),
    (acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT), {"timeout": "5"}, TypeError,
     "timeout must be a number"),
])
def test_client_checks_its_arguments_before_connecting(
        gamedef: object, kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    # the gamedef was first used on the dealer's first line: the client had connected and
    # sent its version (the dealer's match had begun), then failed with an AttributeError (a
    # str or None) or a GameDefError; port 70000 connected to another port (70000 - 65536)
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.5)
    try:
        port = kwargs.pop("port", server.getsockname()[1])
        with pytest.raises(error, match=message):
            acpc.play("127.0.0.1", port, RandomAgent(seed=1), gamedef,  # type: ignore[arg-type]
                      **kwargs)  # type: ignore[arg-type]
        with pytest.raises(TimeoutError):
            server.accept()  # nobody connected
    finally:
        server.close()


def _scripted_dealer(server: socket.socket, lines: list[tuple[str, bool]], log: DealerLog) -> None:
    """Send ``lines`` in order; after a line marked True, read the client's answer."""
    try:
        conn, _ = server.accept()
        conn.settimeout(TIMEOUT)
        with conn, conn.makefile("rb") as reader:
            if reader.readline() != b"VERSION:2.0.0\r\n":
                log.errors.append("bad version line")
                return
            for line, answered in lines:
                conn.sendall(line.encode() + b"\r\n")
                if answered:
                    answer = reader.readline().decode().rstrip("\r\n")
                    log.answers += 1
                    if answer != line + ":c":
                        log.errors.append(f"answer {answer!r} to {line!r}")
                        return
    except OSError as exc:
        log.errors.append(f"dealer socket error: {exc!r}")
    finally:
        server.close()


@pytest.mark.parametrize(("position", "hole"), [(1, "|AsKh|"), (2, "||AdKs")])
def test_client_payoff_is_the_dealers_even_split_of_a_tied_pot(position: int, hole: str) -> None:
    # positions 1 and 2 tie for a pot of 25: ACPC's dealer values the hand +2.5 for each (its
    # valueOfState splits evenly, and its SCORE line sums these values); the client reported
    # holdem's payoffs, which give the odd chip to one winner (+3 and +2)
    gamedef = acpc.parse_gamedef((DATA / "holdem.limit.3p.game").read_text())
    boards = ["", "/4c7d9h", "/4c7d9h/Ts", "/4c7d9h/Ts/2h"]
    script = [("::", 2), (":c:", 0), (":cf:", 1), (":cfc/:", 1), (":cfc/c:", 2),
              (":cfc/cc/:", 1), (":cfc/cc/c:", 2), (":cfc/cc/cc/:", 1), (":cfc/cc/cc/c:", 2)]
    lines = [(f"MATCHSTATE:{position}:7{betting}{hole}{boards[betting.count('/')]}",
              actor == position) for betting, actor in script]
    lines.append((f"MATCHSTATE:{position}:7:cfc/cc/cc/cc:|AsKh|AdKs{boards[3]}", False))
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(TIMEOUT)
    log = DealerLog()
    dealer = threading.Thread(target=_scripted_dealer, args=(server, lines, log))
    dealer.start()
    result = acpc.play("127.0.0.1", server.getsockname()[1], lambda obs: 1, gamedef,
                       timeout=TIMEOUT)
    dealer.join(TIMEOUT)
    assert log.errors == [] and log.answers == sum(a for _, a in lines)
    assert result.payoffs == (Fraction(5, 2),) and result.total == Fraction(5, 2)
    state = acpc.parse_matchstate(lines[-1][0]).to_state(gamedef)
    assert state.payoffs[1:] == (3, 2)  # holdem's own split (R32), not the dealer's


@pytest.mark.parametrize(("lines", "message"), [
    ([("MATCHSTATE:0:0::AsKd|", False), ("MATCHSTATE:0:0:r300:AsKd|", True)],
     "in the middle of hand 0: the match was cut short after 0 finished hands"),
    ([("MATCHSTATE:0:0:f:AsKd|", False), ("MATCHSTATE:1:1::|QcQd", True)],
     "in the middle of hand 1: the match was cut short after 1 finished hands"),
])
def test_client_refuses_a_match_cut_short_in_a_hand(lines: list[tuple[str, bool]],
                                                    message: str) -> None:
    # ACPC's dealer closes every connection when a player fails (times out, disconnects...):
    # the client returned a ClientResult as if the match had ended
    gamedef = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(TIMEOUT)
    log = DealerLog()
    dealer = threading.Thread(target=_scripted_dealer, args=(server, lines, log))
    dealer.start()
    with pytest.raises(acpc.ProtocolError, match=message):
        acpc.play("127.0.0.1", server.getsockname()[1], lambda obs: 1, gamedef, timeout=TIMEOUT)
    dealer.join(TIMEOUT)
    assert log.errors == []



def test_client_timeouts_say_what_the_client_waited_for() -> None:
    # both raised a bare TimeoutError("timed out"): no word of the dealer, the wait or how far
    # the match had gone
    gamedef = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
    # a dealer that takes the connection (the system queues it) and then sends nothing
    with socket.create_server(("127.0.0.1", 0)) as server, \
            pytest.raises(TimeoutError, match=r"the dealer sent nothing for 0\.3 s \(after 0 "
                                              r"finished hands; timeout=None waits for ever\)"):
        acpc.play("127.0.0.1", server.getsockname()[1], lambda obs: 1, gamedef, timeout=0.3)
    # a dealer that never accepts, its queue full (one connection: backlog 0), so the
    # connection is not made in time
    with socket.create_server(("127.0.0.1", 0), backlog=0) as server:
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT), \
                pytest.raises(TimeoutError, match=rf"no connection to the dealer at "
                                                  rf"127\.0\.0\.1:{port} within 0\.3 s"):
            acpc.play("127.0.0.1", port, lambda obs: 1, gamedef, timeout=0.3)
