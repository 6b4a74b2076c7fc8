"""holdem.acpc.play against a small ACPC dealer on 127.0.0.1 (real sockets, seeded hands).

The dealer here is written independently of holdem.acpc: it formats MATCHSTATE lines itself,
reads ``<matchstate>:<action>`` answers and checks every action with a HandState.
"""

from __future__ import annotations

import random
import re
import socket
import struct
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem import (
    Action,
    ActionType,
    AgentError,
    HandState,
    ProtocolError,
    RandomAgent,
    SeatStatus,
    Street,
    acpc,
)

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


def _advance(state: HandState, action: Action, token: str, rounds: list[str]) -> None:
    """Apply ``action`` (ACPC ``token``) and add it to the betting ``rounds``, opening the
    rounds a new street (or a showdown: every round) needs."""
    state.apply(action)
    rounds[-1] += token
    if state.is_terminal():
        if state.street is Street.SHOWDOWN:
            rounds += [""] * (4 - len(rounds))
    else:
        rounds += [""] * (state.street_index + 1 - len(rounds))


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
                _advance(state, action, token, rounds)
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


def _match(gamedef: acpc.GameDef, agents: list[object], hands: int,
           number: Callable[[int], Any] = int
           ) -> tuple[DealerLog, list[acpc.ClientResult | BaseException]]:
    """A match of ``hands`` against the local dealer; ``number`` makes the port and the
    timeout (in whole seconds) the clients are given."""
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
            results[k] = acpc.play("127.0.0.1", number(ports[k]), agents[k], gamedef,
                                   timeout=number(int(TIMEOUT)))
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


def test_client_takes_an_action_code_from_numpy() -> None:
    # a policy's argmax is a numpy integer; the client refused it ("an agent answers an
    # Action, a str or an int") while HandState.apply and Table take it
    import numpy as np

    gamedef = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
    log, results = _match(gamedef, [lambda obs: np.int64(1), lambda obs: np.int32(1)], 6)
    assert log.errors == [] and len(log.payoffs) == 6
    assert all(isinstance(r, acpc.ClientResult) and r.hands == 6 for r in results)


def test_client_takes_a_port_and_a_timeout_from_numpy() -> None:
    # they were refused (TypeError: port must be an int, got int64)
    import numpy as np

    gamedef = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
    for number in (np.int64, np.uint16):
        log, results = _match(gamedef, [lambda obs: 1, lambda obs: 1], 3, number)
        assert log.errors == [] and len(log.payoffs) == 3
        assert all(isinstance(r, acpc.ClientResult) and r.hands == 3 for r in results)


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


@pytest.mark.parametrize(("host", "timeout", "message"), [
    # the system read the name up to the NUL: this connected to 127.0.0.1
    ("127.0.0.1\0.example.org", TIMEOUT, r"^host '127\.0\.0\.1\\x00\.example\.org' holds a "
                                         r"NUL character: give a host name or address$"),
    # UnicodeError from the IDNA codec, not holdem's
    ("a" * 64 + ".example", TIMEOUT, r"^host 'a{64}\.example' is not a host name or address "
                                     r"\(.*label .*too long"),
    ("\udcff", TIMEOUT, r"^host '\\udcff' is not a host name or address"),
    # OverflowError("timestamp out of range for platform time_t") above about 9.2e9 s
    ("127.0.0.1", 1e10, r"^timeout must be a positive number of seconds, at most 10\*\*9 "
                        r"\(about 31 years\), or None for no timeout; got 10000000000\.0$"),
    ("127.0.0.1", 10**9 + 1, r"at most 10\*\*9"),
], ids=["nul", "long-label", "surrogate", "timeout-1e10", "timeout-above"])
def test_client_refuses_a_host_or_timeout_sockets_cannot_take(host: str, timeout: float,
                                                              message: str) -> None:
    gamedef = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
    connected: list[object] = []

    def close_at_once(server: socket.socket) -> None:  # so a client that connects returns
        try:
            conn, address = server.accept()
        except OSError:  # nobody came in time (or the test failed and closed the server)
            return
        connected.append(address)
        conn.close()

    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(1.0)
        dealer = threading.Thread(target=close_at_once, args=(server,))
        dealer.start()
        with pytest.raises(ProtocolError, match=message):
            acpc.play(host, server.getsockname()[1], lambda obs: 1, gamedef, timeout=timeout)
        dealer.join(TIMEOUT)
    assert connected == []  # the arguments were checked before connecting


def _scripted_dealer(server: socket.socket, lines: Sequence[tuple[str, bool | str]],
                     log: DealerLog, token: str = "c") -> None:
    """Send ``lines`` in order; after a line marked True or with a token of its own, read the
    client's answer (which must be ``token``, or the line's)."""
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
                    want = answered if isinstance(answered, str) else token
                    if answer != f"{line}:{want}":
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
    outcome, log = _scripted(lines)
    assert isinstance(outcome, acpc.ProtocolError) and re.search(message, str(outcome)), outcome
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


# --- dealers that break the connection ------------------------------------------------------


def _raw_dealer(behave: object, *, rcvbuf: int | None = None
                ) -> tuple[int, threading.Thread, socket.socket]:
    """A dealer on 127.0.0.1 that runs ``behave(conn, reader)`` on the client's connection
    (after reading its version line); every socket operation is bounded by TIMEOUT."""
    server = socket.socket()
    if rcvbuf is not None:  # set before listen(), so the connection has it from the start
        server.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(TIMEOUT)

    def run() -> None:
        try:
            conn, _ = server.accept()
            conn.settimeout(TIMEOUT)
            with conn, conn.makefile("rb") as reader:
                reader.readline()
                behave(conn, reader)  # type: ignore[operator]
        except OSError:
            pass  # the client closed or reset the connection first: what it raised is tested
        finally:
            server.close()

    dealer = threading.Thread(target=run, daemon=True)
    dealer.start()
    return server.getsockname()[1], dealer, server


def _reset(conn: socket.socket) -> None:
    """Close ``conn`` with a reset (RST) instead of an orderly close (FIN)."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


def _play_against(behave: object, timeout: float = TIMEOUT, **dealer: object
                  ) -> tuple[BaseException | acpc.ClientResult, float]:
    port, thread, _ = _raw_dealer(behave, **dealer)  # type: ignore[arg-type]
    gamedef = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
    start = time.monotonic()
    try:
        outcome: BaseException | acpc.ClientResult = acpc.play(
            "127.0.0.1", port, lambda obs: 1, gamedef, timeout=timeout)
    except (ProtocolError, TimeoutError) as exc:
        outcome = exc
    elapsed = time.monotonic() - start
    thread.join(TIMEOUT)
    assert not thread.is_alive()
    return outcome, elapsed


def _trickle(conn: socket.socket, reader: object) -> None:
    # a line sent a byte at a time, each byte well within the client's timeout (0.4 s), for
    # about 6 s in all: each wait of the client was bounded, the line's was not
    for byte in b"MATCHSTATE:0:0::AsKd|"[:20]:
        conn.sendall(bytes([byte]))
        time.sleep(0.3)


def test_client_timeout_bounds_a_whole_line_not_each_byte() -> None:
    # the client read with readline() on a socket timeout, which bounds each recv: a dealer
    # trickling a byte at a time held it for up to 64 KiB times the timeout (18 days at 30 s)
    outcome, elapsed = _play_against(_trickle, timeout=0.4)
    assert isinstance(outcome, TimeoutError)
    assert re.fullmatch(r"the dealer did not end its line \(\d bytes with no end of line: "
                        r"b'M[A-Z]{0,4}'\) for 0\.4 s \(after 0 finished hands; timeout=None "
                        r"waits for ever\)", str(outcome)), outcome
    assert elapsed < 3.0


def _half_line(conn: socket.socket, reader: object) -> None:
    conn.sendall(b"MATCHSTATE:0:0::AsK")


def _line_then_cut_line(conn: socket.socket, reader: object) -> None:
    conn.sendall(b"MATCHSTATE:0:0::AsKd|\r\nMATCHSTATE:0:0:f:AsKd|")


def _half_line_then_stall(conn: socket.socket, reader: object) -> None:
    conn.sendall(b"MATCHSTATE:0:0::AsK")
    time.sleep(1.5)


def _bare_cr(conn: socket.socket, reader: object) -> None:
    conn.sendall(b"MATCHSTATE:0:0:f:AsKd|\r")
    time.sleep(1.5)


def _reset_in_hand(conn: socket.socket, reader: object) -> None:
    conn.sendall(b"MATCHSTATE:0:0::AsKd|\r\n")
    time.sleep(0.2)
    _reset(conn)


def _reset_after_hand(conn: socket.socket, reader: object) -> None:
    conn.sendall(b"MATCHSTATE:0:0:f:AsKd|\r\n")
    time.sleep(0.2)
    _reset(conn)


def _reset_at_once(conn: socket.socket, reader: object) -> None:
    _reset(conn)


def _endless_line(conn: socket.socket, reader: object) -> None:
    conn.sendall(b"MATCHSTATE" * (2 << 20))  # 20 MB with no end of line


@pytest.mark.parametrize(("behave", "error", "message"), [
    # the half line was read as a whole one: "cards 'AsK': expected 2..10 hole-card fields"
    (_half_line, ProtocolError,
     r"^the dealer closed the connection in the middle of a line \(19 bytes with no end of "
     r"line: b'MATCHSTATE:0:0::AsK'\): the match was cut short after 0 finished hands$"),
    # a last line cut by the close that happens to parse was taken as a finished hand
    (_line_then_cut_line, ProtocolError,
     r"closed the connection in the middle of a line \(22 bytes .* in the middle of hand 0: "
     r"the match was cut short after 0 finished"),
    # "the dealer sent nothing for 0.4 s", though it had sent half a line
    (_half_line_then_stall, TimeoutError,
     r"^the dealer did not end its line \(19 bytes with no end of line: "
     r"b'MATCHSTATE:0:0::AsK'\) for 0\.4 s"),
    # a bare CR is not an end of line (ACPC's dealer ends its lines with CR LF)
    (_bare_cr, TimeoutError, r"did not end its line \(23 bytes"),
    # a reset raised a bare ConnectionResetError, where a close raises ProtocolError
    (_reset_in_hand, ProtocolError,
     r"^the dealer reset the connection \(.*; what it sent last may be lost\) in the middle "
     r"of hand 0: the match was cut short after 0 finished hands$"),
    (_reset_after_hand, ProtocolError,
     r"^the dealer reset the connection .*: the match was cut short after 1 finished hands$"),
    (_reset_at_once, ProtocolError,
     r"^the dealer reset the connection .* after 0 finished hands$"),
    # refused at 64 KiB, the rest never read: memory stays bounded
    (_endless_line, ProtocolError,
     r"^the dealer sent a line longer than 64 KiB \(after 0 finished hands\): "
     r"b'MATCHSTATEMATCHSTATE"),
], ids=["close-mid-line", "close-mid-line-valid", "stall-mid-line", "bare-cr", "reset-in-hand",
        "reset-after-hand", "reset-at-once", "too-long"])
def test_client_names_a_dealer_that_breaks_the_connection(
        behave: object, error: type[BaseException], message: str) -> None:
    outcome, elapsed = _play_against(behave, timeout=0.4)
    assert isinstance(outcome, error), outcome
    assert re.search(message, str(outcome)), outcome
    assert elapsed < TIMEOUT / 2


def test_client_times_out_when_the_dealer_takes_no_answer(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    # a dealer that sends lines where the client acts and never reads its answers: once the
    # buffers are full the client's send blocked, then raised a bare TimeoutError("timed out")
    real = socket.create_connection

    def small_send_buffer(*args: object, **kwargs: object) -> socket.socket:
        sock = real(*args, **kwargs)  # type: ignore[arg-type]
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1)  # the smallest: fills at once
        return sock

    monkeypatch.setattr(socket, "create_connection", small_send_buffer)  # acpc's too

    def flood(conn: socket.socket, reader: object) -> None:
        # hands in which the client acts twice (a limp, then a call of an all-in), each line
        # going on from the client's answers as a dealer that read them would send it
        for k in range(3000):
            conn.sendall(f"MATCHSTATE:1:{k}::|AsKd\r\nMATCHSTATE:1:{k}:cr20000:|AsKd\r\n"
                         f"MATCHSTATE:1:{k}:cr20000c///:QcQd|AsKd/2c7d9h/3s/4d\r\n".encode())
        time.sleep(2.0)

    outcome, elapsed = _play_against(flood, timeout=0.4, rcvbuf=1)
    assert elapsed < TIMEOUT / 2
    assert isinstance(outcome, TimeoutError), outcome
    m = re.fullmatch(r"the dealer did not take the client's line "
                     r"b'MATCHSTATE:1:(\d+):(cr20000)?:\|AsKd:c' within 0\.4 s \(after (\d+) "
                     r"finished hands; timeout=None waits for ever\)", str(outcome))
    assert m is not None and m[1] == m[3], outcome  # in the hand after the last finished one


# --- lines that do not follow each other ----------------------------------------------------


def _scripted(lines: list[tuple[str, bool]], agent: object = lambda obs: 1, token: str = "c"
              ) -> tuple[acpc.ClientResult | ProtocolError, DealerLog]:
    gamedef = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(TIMEOUT)
    log = DealerLog()
    dealer = threading.Thread(target=_scripted_dealer, args=(server, lines, log, token))
    dealer.start()
    try:
        outcome: acpc.ClientResult | ProtocolError = acpc.play(
            "127.0.0.1", server.getsockname()[1], agent, gamedef, timeout=TIMEOUT)
    except ProtocolError as exc:
        outcome = exc
    dealer.join(TIMEOUT)
    assert not dealer.is_alive()
    return outcome, log


_FLOP = "MATCHSTATE:0:0:r300c/:AsKd|/2c7d9h"
# the lines of hand 0 up to the flop, where the client (position 0) is to act: it called
_TO_FLOP = [("MATCHSTATE:0:0::AsKd|", False), ("MATCHSTATE:0:0:r300:AsKd|", True), (_FLOP, True)]


@pytest.mark.parametrize(("lines", "message"), [
    # hand 0 never ended: it was dropped, and the result counted 1 hand
    ([("MATCHSTATE:0:0::AsKd|", False), ("MATCHSTATE:0:1:f:QcQd|", False)],
     r"^hand 1 began before hand 0 ended \(its last line was 'MATCHSTATE:0:0::AsKd\|'\): "
     r"'MATCHSTATE:0:1:f:QcQd\|'$"),
    # hands 5, 4 and 5 again were counted as 3 hands
    ([("MATCHSTATE:0:5:f:AsKd|", False), ("MATCHSTATE:0:4:f:QcQd|", False)],
     r"^hand 5 ended with 'MATCHSTATE:0:5:f:AsKd\|', then came 'MATCHSTATE:0:4:f:QcQd\|': "
     r"ACPC's dealer numbers the hands of a match in increasing order$"),
    ([("MATCHSTATE:0:5:f:AsKd|", False), ("MATCHSTATE:0:5:r300f:AsKd|", False)],
     r"^hand 5 ended with 'MATCHSTATE:0:5:f:AsKd\|', then came 'MATCHSTATE:0:5:r300f:AsKd\|'"),
    # each line was read on its own: a hand could change under the agent
    ([("MATCHSTATE:0:0::AsKd|", False), ("MATCHSTATE:1:0:r300:|AsKd", False)],
     r"^'MATCHSTATE:1:0:r300:\|AsKd' does not follow 'MATCHSTATE:0:0::AsKd\|' in hand 0: the "
     r"position changed from 0 to 1$"),
    ([("MATCHSTATE:0:0::AsKd|", False), ("MATCHSTATE:0:0:r300:QcQd|", False)],
     r"in hand 0: the hole cards of position 0 changed$"),
    ([*_TO_FLOP, ("MATCHSTATE:0:0:r300c/c:AsKd|/2c7d8h", False)],
     r"in hand 0: the board changed$"),
    ([*_TO_FLOP, ("MATCHSTATE:0:0:r400c/c:AsKd|/2c7d9h", False)],
     r"in hand 0: the betting 'r400c/c' does not go on from 'r300c/'$"),
    # the agent's Observation refused it: InvalidConfigError("hand_number must be an int
    # 0..2**53"), not naming the line
    ([("MATCHSTATE:1:9007199254740993::|AsKd", False)],
     r"^hand number 9007199254740993 is above 2\*\*53 \(the largest an agent's observation "
     r"holds\) in 'MATCHSTATE:1:9007199254740993::\|AsKd'$"),
], ids=["new-hand-in-hand", "hand-back", "ended-hand-again", "position", "hole-cards", "board",
        "betting", "hand-number"])
def test_client_refuses_a_line_that_does_not_follow_the_last(lines: list[tuple[str, bool]],
                                                             message: str) -> None:
    outcome, log = _scripted(lines)
    assert isinstance(outcome, ProtocolError), outcome
    assert re.search(message, str(outcome)), outcome
    assert log.errors == []


@pytest.mark.parametrize(("lines", "token", "message"), [
    # the client checked, the dealer went on as if it had bet
    ([*_TO_FLOP, ("MATCHSTATE:0:0:r300c/r400:AsKd|/2c7d9h", False)], "c",
     r"^the client answered 'c' to 'MATCHSTATE:0:0:r300c/:AsKd\|/2c7d9h', but the dealer "
     r"went on with the betting 'r300c/r400': 'MATCHSTATE:0:0:r300c/r400:AsKd\|/2c7d9h' \(is "
     r"the dealer's game this gamedef\? ACPC's dealer changes an answer it finds invalid\)$"),
    # a raise to 2000 taken as one to 20000 (the line begins with the answer's characters)
    ([("MATCHSTATE:1:0::|AsKd", True), ("MATCHSTATE:1:0:r20000f:|AsKd", False)], "r2000",
     r"^the client answered 'r2000' to 'MATCHSTATE:1:0::\|AsKd', but the dealer went on with "
     r"the betting 'r20000f'"),
    # the answer left out: the dealer sent the line the client answered again
    ([("MATCHSTATE:1:0::|AsKd", True), ("MATCHSTATE:1:0::|AsKd", False)], "r2000",
     r"^the client answered 'r2000' to 'MATCHSTATE:1:0::\|AsKd', but the dealer went on with "
     r"the betting ''"),
], ids=["check-became-bet", "raise-size", "left-out"])
def test_client_refuses_a_dealer_that_did_not_apply_its_answer(
        lines: list[tuple[str, bool]], token: str, message: str) -> None:
    # the client answered, then read on as if its answer had been taken: a dealer whose game
    # differs from the gamedef given (other stacks or blinds) or that "fixed" an answer
    # played another hand than the one the agent was shown
    raiser = (lambda obs: Action.parse("raise 2000")) if token != "c" else (lambda obs: 1)
    outcome, log = _scripted(lines, raiser, token)
    assert isinstance(outcome, ProtocolError), outcome
    assert re.search(message, str(outcome)), outcome
    assert log.errors == [] and log.answers == sum(answered for _, answered in lines)
    # the same answer taken: the hand goes on
    good = lines[0][0].replace("::", f":{token}f:") if token != "c" else None
    if good is not None:
        outcome, log = _scripted([lines[0], (good, False)], raiser, token)
        assert outcome == acpc.ClientResult(1, (100,)) and log.errors == []


@pytest.mark.parametrize(("lines", "message"), [
    # the hand's first line already has the client's call
    ([(_FLOP, False)], r"^the dealer's betting 'r300c/' has the client's position 0 call to "
     r"300 preflop, an action the client never sent: 'MATCHSTATE:0:0:r300c/:AsKd\|/2c7d9h'"),
    ([("MATCHSTATE:1:0:c:|AsKd", False)], r"position 1 call to 100 preflop, an action"),
    # a fold played for the client ended the hand: it was counted as the client's loss
    ([("MATCHSTATE:0:0::AsKd|", False), ("MATCHSTATE:0:0:r300f:AsKd|", False)],
     r"^the dealer's betting 'r300f' has the client's position 0 fold preflop, an action"),
    # the client called; its check on the flop came with its call (the line where it was to
    # act left out)
    ([*_TO_FLOP[:2], ("MATCHSTATE:0:0:r300c/cr600:AsKd|/2c7d9h", False)],
     r"^the dealer's betting 'r300c/cr600' has the client's position 0 check flop, an action"),
], ids=["first-line", "first-line-position-1", "fold-ends-hand", "line-left-out"])
def test_client_refuses_a_dealer_that_acts_for_it(lines: list[tuple[str, bool]],
                                                   message: str) -> None:
    """ACPC's dealer waits for a seat's answer to each line where it is to act: a line with
    an action of the client's position that the client did not send is not its match."""
    outcome, log = _scripted(lines)
    assert isinstance(outcome, ProtocolError), outcome
    assert re.search(message, str(outcome)), outcome
    assert log.errors == [] and log.answers == sum(answered for _, answered in lines)


def test_client_takes_the_last_line_of_a_hand_again_and_the_largest_hand_number() -> None:
    big = 2**53
    end = "MATCHSTATE:1:3:cr300c/r20000c//:QhQc|AsKd/2c7d9h/3s/4d"
    outcome, log = _scripted([
        ("MATCHSTATE:1:3::|AsKd", True), ("MATCHSTATE:1:3:c:|AsKd", False),
        ("MATCHSTATE:1:3:cr300:|AsKd", True), ("MATCHSTATE:1:3:cr300c/:|AsKd/2c7d9h", False),
        ("MATCHSTATE:1:3:cr300c/r20000:|AsKd/2c7d9h", True), (end, False),
        (end, False),  # the same last line again
        (f"MATCHSTATE:0:{big}:f:AsKd|", False)])
    assert log.errors == [] and log.answers == 3
    assert outcome == acpc.ClientResult(2, (-20000, 50))


def _close_at_once(conn: socket.socket, reader: object) -> None:
    pass  # the version line read, the connection closed with no line sent


def test_a_close_before_any_hand_is_no_match() -> None:
    # it was ClientResult(hands=0): a port that is not a dealer's seat looked like an empty match
    outcome, _ = _play_against(_close_at_once)
    assert isinstance(outcome, ProtocolError)
    assert re.fullmatch(r"127\.0\.0\.1:\d+ closed the connection before any hand: is it the "
                        r"port of a seat of an ACPC dealer\?", str(outcome)), outcome


def test_a_refused_connection_names_the_dealer() -> None:
    # the system's bare "[Errno 111] Connection refused" did not say where the client went
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
    gamedef = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT)
    with pytest.raises(ConnectionRefusedError, match=rf"^\[Errno \d+\] cannot connect to the "
                       rf"dealer at 127\.0\.0\.1:{port}: "):
        acpc.play("127.0.0.1", port, lambda obs: 1, gamedef, timeout=TIMEOUT)


@pytest.mark.parametrize("line", ["MATCHSTATE:1:0::|", "MATCHSTATE:0:0::|AsKd"])
def test_client_refuses_a_line_that_hides_its_own_hole_cards(line: str) -> None:
    # the agent was asked to act with no hole cards (EquityAgent then failed inside its
    # equity); a dealer always shows a player its own cards
    asked: list[object] = []
    outcome, _ = _scripted([(line, True)], lambda obs: asked.append(obs) or 1, "c")
    assert isinstance(outcome, ProtocolError), outcome
    position = line.split(":")[1]
    assert re.fullmatch(rf"the dealer hid the client's own hole cards \(position {position}\) "
                        rf"in {re.escape(repr(line))}", str(outcome)), outcome
    assert asked == []  # the agent was not asked


def _transcript(gamedef: acpc.GameDef, seed: int, position: int
                ) -> tuple[list[tuple[str, str | None]], list[Action]]:
    """The lines a dealer sends ``position`` in hand 0 of random legal play (seeded), each
    with the token the client answers when it is to act, and the client's actions."""
    state = gamedef.new_hand(seed=seed)
    rng = random.Random(seed)
    rounds = [""]
    lines: list[tuple[str, str | None]] = []
    mine: list[Action] = []
    while True:
        line = f"MATCHSTATE:{position}:0:{'/'.join(rounds)}:{_cards(state, position, len(rounds))}"
        if state.is_terminal():
            lines.append((line, None))
            return lines, mine
        actor = state.actor
        la = state.legal_actions()
        choices = [Action.parse("cc")] + [Action.fold()] * la.can_fold
        if la.can_raise:
            choices += [Action.parse(f"cbr {to}") for to in sorted({la.min_to, la.max_to})]
        action = rng.choice(choices)
        if action.type is ActionType.FOLD:
            token = "f"
        elif action.to is None:
            token = "c"
        elif gamedef.limit:
            token = "r"
        else:  # the total over the hand
            token = f"r{action.to + state.committed[actor] - state.bets[actor]}"
        lines.append((line, token if actor == position else None))
        if actor == position:
            mine.append(action)
        _advance(state, action, token, rounds)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["nl", "fl"]), st.integers(0, 2**32), st.integers(0, 1),
       st.integers(0, 10**6))
def test_fuzz_a_left_out_line_where_the_client_acts_is_refused(
        kind: str, seed: int, position: int, pick: int) -> None:
    """A hand of random play sent whole is played through; the same hand with one line
    where the client is to act left out (the dealer then shows an action the client never
    sent) raises ProtocolError, whichever line it is."""
    gamedef = acpc.parse_gamedef(acpc.HEADS_UP_NO_LIMIT if kind == "nl" else acpc.HEADS_UP_LIMIT)
    lines, mine = _transcript(gamedef, seed, position)
    acting = [i for i, (_, token) in enumerate(lines) if token is not None]
    for drop in (None, acting[pick % len(acting)] if acting else None):
        sent = [(line, token or False) for i, (line, token) in enumerate(lines) if i != drop]
        answers = iter(mine)
        server = socket.create_server(("127.0.0.1", 0))
        server.settimeout(TIMEOUT)
        log = DealerLog()
        dealer = threading.Thread(target=_scripted_dealer, args=(server, sent, log))
        dealer.start()
        try:
            outcome: acpc.ClientResult | ProtocolError = acpc.play(
                "127.0.0.1", server.getsockname()[1], lambda obs, it=answers: next(it), gamedef,
                timeout=TIMEOUT)
        except ProtocolError as exc:
            outcome = exc
        dealer.join(TIMEOUT)
        assert not dealer.is_alive()
        if drop is None:
            assert isinstance(outcome, acpc.ClientResult) and outcome.hands == 1, outcome
            assert log.errors == [] and log.answers == len(mine)
        else:
            assert isinstance(outcome, ProtocolError), (drop, sent)
            assert "an action the client never sent" in str(outcome), outcome
        if not acting:
            break
