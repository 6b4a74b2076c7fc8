"""The OpenSpiel game (holdem.rl.openspiel): registration, chance nodes, tensors, specs, MCCFR."""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from holdem import Game, IllegalActionError, InvalidConfigError, ProtocolError, acpc
from holdem.vector import VectorGame

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
ospiel = pytest.importorskip("holdem.rl.openspiel")

HUNL_UP = ("universal_poker(betting=nolimit,numPlayers=2,numRounds=4,blind=2 1,"
           "firstPlayer=2 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,"
           "stack=40 40,bettingAbstraction=fcpa)")
# 3 players, unequal stacks, limit: the protocol code refuses it, python_holdem plays it
LIMIT_GAMEDEF = str(acpc.GameDef(limit=True, num_players=3, blinds=(1, 2, 0), stacks=(50, 60, 70),
                                 raise_sizes=(2, 2, 4, 4), max_raises=(3, 4, 4, 4)))


def _play(state, rng):
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1.0) < 1e-9
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_load_game_by_name_and_parameters():
    game = pyspiel.load_game("python_holdem(players=3,stack=100,big_blind=2,small_blind=1,"
                             "actions=fchpa)")
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 5
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.max_chance_outcomes() == 52


@pytest.mark.parametrize("params", [
    "python_holdem(players=2,stack=40,actions=fcpa)",
    "python_holdem(players=3,stacks=30 40 50,actions=fchpa,button=1)",
    "python_holdem(players=4,stack=20,structure=FL,actions=default)",
    "python_holdem(players=2,stack=12,structure=PL,actions=exact)",
    "python_holdem(players=2,stack=30,ante=1,actions=default)",
])
def test_random_sim_test(params):
    game = pyspiel.load_game(params)
    pyspiel.random_sim_test(game, num_sims=15, serialize=True, verbose=False)


def test_chance_nodes_deal_one_card_at_a_time_from_the_deck():
    game = pyspiel.load_game("python_holdem(players=2,stack=40)")
    state = game.new_initial_state()
    seen = []
    for k in range(4):  # the hole cards, seat 0's two first (universal_poker's order)
        assert state.is_chance_node()
        outcomes = [c for c, _ in state.chance_outcomes()]
        assert len(outcomes) == 52 - k and not set(seen) & set(outcomes)
        seen.append(outcomes[0])
        state.apply_action(outcomes[0])
    assert state.current_player() == 0  # R3: heads-up the button (seat 0) acts first preflop
    hand = state.hand
    assert hand is not None and [int(c) for c in hand.hole_cards[0]] == seen[:2]
    assert [int(c) for c in hand.hole_cards[1]] == seen[2:]
    state.apply_action(1)  # button calls
    state.apply_action(1)  # big blind checks: the flop is needed, the check is pending
    assert state.is_chance_node() and len(state.chance_outcomes()) == 48
    for _ in range(3):
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_chance_node() and len(state.hand.board) == 3
    assert state.current_player() == 1  # R3: after the flop the big blind acts first


def test_illegal_actions_are_refused_and_change_nothing():
    game = pyspiel.load_game("python_holdem(players=2,stack=40,actions=fcpa)")
    state = game.new_initial_state()
    state.apply_action(7)
    with pytest.raises(IllegalActionError, match="not a card left"):
        state.apply_action(7)
    with pytest.raises(IllegalActionError, match="not a card left"):
        state.apply_action(52)
    for c in (8, 9, 10):
        state.apply_action(c)
    state.apply_action(1)  # the button calls
    before = (state.history(), str(state), state.information_state_string(1))
    with pytest.raises(IllegalActionError, match="legal: 1 check_call"):
        state.apply_action(0)  # R17: the big blind may not fold when checking is free
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_action(9)
    assert (state.history(), str(state), state.information_state_string(1)) == before
    exact = pyspiel.load_game("python_holdem(players=2,stack=40,actions=exact)")
    state = exact.new_initial_state()
    for c in range(4):
        state.apply_action(c)
    with pytest.raises(IllegalActionError):
        state.apply_action(3)  # raise to 2: below the minimum raise (R23)
    assert state.history() == [0, 1, 2, 3]


def test_tensors_share_the_vector_encoding():
    """The observation tensor of the actor equals VectorGame's row for the same hand."""
    game = pyspiel.load_game("python_holdem(players=3,stack=60,big_blind=2,actions=default)")
    env = VectorGame(Game(big_blind=2), num_tables=1, players=3, stacks=60, seed=5,
                     actions="default")
    obs = env.reset()
    rng = random.Random(2)
    checked = 0
    for _ in range(300):
        hs = env.hand_state(0)
        state = game.new_initial_state()
        # deal the same cards, seat by seat from seat 0
        order = [int(c) for cards in hs.hole_cards for c in cards]
        if hs.button != 0:
            break  # python_holdem keeps the button on seat 0 (parameter button)
        for c in order:
            state.apply_action(c)
        for rec in hs.history:
            assert not state.is_chance_node()
            code = _column_of(env, state, rec)
            state.apply_action(code)
            while state.is_chance_node():
                state.apply_action(int(hs.board[len(state.hand.board) + _pending_cards(state)]))
        if not state.is_terminal():
            actor = state.current_player()
            assert np.array_equal(np.asarray(state.observation_tensor(actor), np.float32), obs[0])
            assert list(env.legal_mask[0].nonzero()[0]) == state.legal_actions()
            checked += 1
        legal = [c for c in range(env.action_layout.size) if env.legal_mask[0][c]]
        obs, _, done = env.step([rng.choice(legal)])
        if done[0]:
            break
    assert checked > 0


def _pending_cards(state):
    return len(state._board) - len(state.hand.board)


def _column_of(env, state, rec):
    from holdem import ActionType
    names = env.action_layout.names
    if rec.type is ActionType.FOLD:
        return names.index("fold")
    if rec.type in (ActionType.CHECK, ActionType.CALL):
        return names.index("check_call")
    amounts = env.action_layout.amounts(state.hand)
    return amounts.index(rec.to)


def test_observation_spec_encode_matches_vector_rows():
    """ObservationSpec.encode / ActionLayout.amounts and mask (one HandState) equal the batched
    engine's rows, amounts and masks over random play, with antes and 2-4 players."""
    for game, players in ((Game(big_blind=2), 2), (Game(big_blind=2), 3),
                          (Game(big_blind=2, ante=1), 4)):
        env = VectorGame(game, num_tables=3, players=players, stacks=60, seed=3)
        obs = env.reset()
        rng = random.Random(players)
        for _ in range(250):
            for t in range(3):
                hs = env.hand_state(t)
                row = np.asarray(env.observation_spec.encode(hs), np.float32)
                assert np.array_equal(row, obs[t])
                assert env.action_layout.amounts(hs) == env.raise_amounts(t)
                assert env.action_layout.mask(hs) == [bool(x) for x in env.legal_mask[t]]
            acts = [rng.choice([c for c in range(env.action_layout.size)
                                if env.legal_mask[t][c]]) for t in range(3)]
            obs, _, _ = env.step(acts)


def test_information_state_and_observation_strings():
    game = pyspiel.load_game("python_holdem(players=2,stack=40)")
    state = _play(game.new_initial_state(), random.Random(4))
    assert "actions" in state.information_state_string(0)
    assert state.information_state_string(0) != state.information_state_string(1)
    assert "hole" in state.observation_string(1)
    width = ospiel.ObservationSpec(2).width
    assert len(state.observation_tensor(0)) == width
    info = state.information_state_tensor(0)
    history = info[width:]
    assert len(history) == game.max_game_length() - (2 * 2 + 5)
    codes = [int(x) - 1 for x in history if x]
    decisions = [a for p, a in zip(_players(state), state.history(), strict=True) if p >= 0]
    assert codes == decisions  # the whole action sequence, in order
    assert info[:width] != state.information_state_tensor(1)[:width]  # own hole cards


def _players(state):
    """The player of each history entry (-1 for chance), replayed from the root."""
    game = state.get_game()
    s = game.new_initial_state()
    out = []
    for a in state.history():
        out.append(s.current_player())
        s.apply_action(a)
    return out


def test_returns_are_the_hand_payoffs_and_zero_sum():
    game = pyspiel.load_game("python_holdem(players=3,stack=30,actions=fchpa)")
    rng = random.Random(9)
    for _ in range(30):
        state = _play(game.new_initial_state(), rng)
        assert state.returns() == [float(p) for p in state.hand.payoffs]
        assert sum(state.returns()) == 0


def test_universal_poker_string_is_parsed():
    params = ospiel.game_parameters(HUNL_UP)
    assert params == {"players": 2, "stacks": "40 40", "small_blind": 1, "big_blind": 2,
                      "button": 1, "structure": "NL", "actions": "fcpa"}
    game = ospiel.load_game(HUNL_UP)
    state = game.new_initial_state()
    for c in range(4):
        state.apply_action(c)
    assert state.current_player() == 1  # ACPC: seat 1 posts the small blind and acts first


def test_acpc_gamedef_limit_is_parsed():
    params = ospiel.game_parameters(LIMIT_GAMEDEF)
    assert params["structure"] == "FL" and params["max_raises"] == 3
    assert params["button"] == 2 and params["stacks"] == "50 60 70"
    game = ospiel.load_game(LIMIT_GAMEDEF)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    # ACPC reads the names in any case
    assert ospiel.game_parameters(LIMIT_GAMEDEF.replace("numPlayers", "NUMPLAYERS")) == params
    # the one reader's GameDef serves both: python_holdem plays these stacks, the protocol not
    gd = acpc.parse_game(LIMIT_GAMEDEF)
    assert ospiel.game_parameters(gd) == params
    assert ospiel.load_game(gd).num_players() == 3
    with pytest.raises(ProtocolError, match="without stacks"):
        acpc.parse_gamedef(LIMIT_GAMEDEF)


@pytest.mark.parametrize("bad, word", [
    (HUNL_UP.replace("numRanks=13", "numRanks=6"), "deck"),
    (HUNL_UP.replace("numRounds=4", "numRounds=2"), "numRounds"),
    (HUNL_UP.replace("firstPlayer=2 1 1 1", "firstPlayer=1 1 1 1"), "firstPlayer"),
    (HUNL_UP.replace("betting=nolimit", "betting=pot"), "betting"),
    (HUNL_UP.replace("numBoardCards=0 3 1 1", "numBoardCards=0 2 1 1"), "numBoardCards"),
    (HUNL_UP.replace("fcpa", "fc"), "bettingAbstraction"),
    (LIMIT_GAMEDEF.replace("raiseSize = 2 2 4 4", "raiseSize = 2 2 6 6"), "raiseSize"),
    ("kuhn_poker()", "universal_poker"),
])
def test_unplayable_specifications_are_refused(bad, word):
    with pytest.raises(InvalidConfigError, match=word):
        ospiel.game_parameters(bad)


def test_acpc_raise_to_is_converted_to_the_street_total():
    """ACPC r<total> counts the whole hand; holdem's raise-to counts the street."""
    game = ospiel.load_game(HUNL_UP.replace("fcpa", "fullgame"))  # exact codes
    state = game.new_initial_state()
    for c in range(4):
        state.apply_action(c)
    state.apply_action(1)  # small blind calls: 2 each
    state.apply_action(1)  # big blind checks
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    hand = state.hand
    seat = hand.actor
    assert seat == 0  # ACPC seat 0 is the big blind: first to act after the flop
    before = hand.committed[seat]
    assert before == 2
    to = acpc.street_raise_to(8, before)  # ACPC "r8": 8 in the hand, 6 on the flop
    assert to == 6
    state.apply_action(to + 1)  # the exact code of "bet to 6"
    assert state.hand.bets[seat] == 6 and state.hand.committed[seat] == 8
    with pytest.raises(InvalidConfigError, match="not above"):
        acpc.street_raise_to(2, 2)


def test_parameters_are_checked():
    for bad in ("python_holdem(players=11)", "python_holdem(structure=XL)",
                "python_holdem(actions=fcx)", "python_holdem(stack=2)",
                "python_holdem(players=3,stacks=10 20)"):
        with pytest.raises(InvalidConfigError, match=r"players|structure|preset|stack"):
            pyspiel.load_game(bad)


def test_external_sampling_mccfr_runs_on_a_small_game():
    """An OpenSpiel algorithm on the game: external-sampling MCCFR, heads-up limit, short
    stacks; the average policy is a distribution over the legal actions."""
    from open_spiel.python.algorithms import external_sampling_mccfr
    game = pyspiel.load_game("python_holdem(players=2,stack=6,structure=FL,max_raises=1,"
                             "actions=default)")
    solver = external_sampling_mccfr.ExternalSamplingSolver(
        game, external_sampling_mccfr.AverageType.SIMPLE)
    np.random.seed(0)
    for _ in range(300):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    for c in range(4):
        state.apply_action(c)
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert abs(sum(probs.values()) - 1.0) < 1e-9
    assert len(solver._infostates) > 0


def test_readme_openspiel_example_runs():
    """The README's OpenSpiel section: its example runs as written."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = text.split("### OpenSpiel", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict[str, object] = {}
    exec(compile(code, "README.md (OpenSpiel)", "exec"), scope)
    assert scope["state"].is_chance_node()  # type: ignore[attr-defined]
    assert len(scope["policy"].action_probabilities(_dealt(scope["game"]))) >= 2  # type: ignore[attr-defined]
    assert scope["action"] in scope["dealt"].legal_actions()  # type: ignore[attr-defined]


def _dealt(game):
    state = game.new_initial_state()
    for c in range(4):
        state.apply_action(c)
    return state


def test_module_docstring_examples():
    import doctest
    failed, tried = doctest.testmod(ospiel, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failed == 0


@pytest.mark.parametrize("stack", [20000, 300, 600, 900, 1700])
def test_same_game_as_universal_poker_hunl_fcpa(stack: int):
    """Differential: python_holdem loaded from a universal_poker string plays the same game as
    OpenSpiel's universal_poker (same card ids, the same fcpa action ids): dealt the same cards
    and given the same random actions, the legal actions agree at every decision and the
    returns agree at the end (showdowns, folds, all-ins, split pots). Short stacks make pot
    raises of exactly the stack (universal_poker's pot action, not its all-in: fcpa's
    ``keep="first"``) and beyond it (its all-in)."""
    spec = HUNL_UP.replace("blind=2 1", "blind=100 50").replace("stack=40 40",
                                                                f"stack={stack} {stack}")
    theirs, ours = pyspiel.load_game(spec), ospiel.load_game(spec)
    rng = random.Random(5 + stack)
    rivers = 0
    for _ in range(200):
        a, b = theirs.new_initial_state(), ours.new_initial_state()
        while not a.is_terminal():
            if a.is_chance_node():  # the same card ids, dealt in the same order
                assert b.is_chance_node() and a.chance_outcomes() == b.chance_outcomes()
                card = rng.choice([c for c, _ in a.chance_outcomes()])
                a.apply_action(card)
                b.apply_action(card)
                continue
            assert not b.is_chance_node()
            assert a.legal_actions() == b.legal_actions()
            move = rng.choice(a.legal_actions())
            a.apply_action(move)
            b.apply_action(move)
        assert b.is_terminal()
        assert a.returns() == b.returns()
        rivers += len(b.hand.board) == 5
    assert rivers > 10


HUNL_200BB = ("universal_poker(betting=nolimit,numPlayers=2,numRounds=4,blind=100 50,"
              "firstPlayer=2 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,"
              "numBoardCards=0 3 1 1,stack=20000 20000,bettingAbstraction=fcpa)")


@pytest.mark.parametrize(("spec", "want"), [
    (HUNL_200BB, "python_holdem(actions=fcpa,ante=0,big_blind=100,button=1,players=2,"
                 "small_blind=50,stack=20000,structure=NL)"),
    ("python_holdem(players=3,structure=nl)", "python_holdem(actions=fcpa,ante=0,big_blind=2,"
     "button=0,players=3,small_blind=1,stack=200,structure=NL)"),
    ("python_holdem(players=3,stacks=30 40 50,structure=fl,max_raises=2)",
     "python_holdem(actions=fcpa,ante=0,big_blind=2,button=0,max_raises=2,players=3,"
     "small_blind=1,stacks=30 40 50,structure=FL)"),
    ("python_holdem(stacks=60 60,structure=FL)", "python_holdem(actions=fcpa,ante=0,"
     "big_blind=2,button=0,max_raises=3,players=2,small_blind=1,stack=60,structure=FL)"),
    ("python_holdem(structure=Pl,actions=exact,stack=30)", "python_holdem(actions=exact,"
     "ante=0,big_blind=2,button=0,players=2,small_blind=1,stack=30,structure=PL)"),
])
def test_game_string_shows_the_parameters_that_take_effect(spec: str, want: str) -> None:
    """stack or stacks (not both), max_raises in fixed limit only, the structure in
    capitals; load_game(str(game)) gives the same game (and the same string)."""
    game = ospiel.load_game(spec) if spec.startswith("universal") else pyspiel.load_game(spec)
    assert str(game) == want
    again = pyspiel.load_game(str(game))
    assert str(again) == want and again.config == game.config
    assert pyspiel.load_game(str(again)).config == game.config


def test_parameters_that_would_be_ignored_are_refused() -> None:
    with pytest.raises(InvalidConfigError, match="max_raises applies to structure=FL"):
        pyspiel.load_game("python_holdem(structure=NL,max_raises=5)")
    with pytest.raises(InvalidConfigError, match="max_raises applies to structure=FL"):
        ospiel.load_game(HUNL_200BB, max_raises=2)
    with pytest.raises(InvalidConfigError, match=r"stack .* or stacks"):
        pyspiel.load_game("python_holdem(stack=50,stacks=30 40)")
    with pytest.raises(InvalidConfigError, match=r"stack .* or stacks"):
        ospiel.load_game(HUNL_200BB, stack=100)


def test_serialization_round_trips_through_the_game_string() -> None:
    game = pyspiel.load_game("python_holdem(players=3,stacks=30 40 50,structure=fl,"
                             "max_raises=2,actions=fchpa)")
    state = _play(game.new_initial_state(), random.Random(3))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and state2.returns() == state.returns()


@pytest.mark.parametrize(("params", "message"), [
    ({"stack": 10**11}, "stack must fit OpenSpiel's 32-bit int parameters"),
    ({"ante": 10**20}, "ante must fit OpenSpiel's 32-bit int parameters"),
    ({"players": "abc"}, "players must be an int"),
    ({"stacks": "100 3000000000"}, "stacks must fit OpenSpiel's 32-bit int parameters"),
    ({"stack": 300_000_000, "big_blind": 1, "small_blind": 0, "players": 10},
     "more than OpenSpiel's 32-bit max_game_length holds"),
])
def test_parameters_beyond_openspiels_32_bit_ints_are_refused(params: dict[str, object],
                                                                message: str) -> None:
    """pyspiel keeps game parameters and the game length as 32-bit ints: larger values used
    to escape as pyspiel's own errors (or a TypeError from GameInfo)."""
    with pytest.raises(InvalidConfigError, match=message):
        ospiel.HoldemGame(params)


def test_information_state_tensors_beyond_2_to_the_20_columns_are_refused_at_load() -> None:
    """python_holdem(stack=1000000000,big_blind=2) loaded, then information_state_tensor_shape
    and information_state_tensor allocated 3.73 GiB each (a column per decision of the
    longest hand: 10**9). A game whose tensor has more than MAX_HISTORY_WIDTH (2**20) action
    columns is refused by load_game, through pyspiel as directly."""
    deep = "stacks of 500,000,000 big blinds at 2 seats allow hands of 1,000,000,024 decisions"
    with pytest.raises(InvalidConfigError, match=rf"^{deep}: the information state tensor .* "
                                                 r"\(4,000,000,096 bytes of float32 per "
                                                 r"tensor\), more than 1,048,576: use a bigger "
                                                 r"big blind or smaller stacks$"):
        pyspiel.load_game("python_holdem(players=2,stack=1000000000,big_blind=2)")
    for players, big_blinds in ((2, 524_277), (10, 104_814)):  # one over: 2**20 + 2, + 4
        with pytest.raises(InvalidConfigError, match="information state tensor"):
            pyspiel.load_game(f"python_holdem(players={players},stack={2 * big_blinds})")
        with pytest.raises(InvalidConfigError, match="information state tensor"):
            ospiel.load_game(players=players, stack=2 * big_blinds)
        game = pyspiel.load_game(f"python_holdem(players={players},stack={2 * big_blinds - 2})")
        assert game.history_width <= 2**20
        assert game.information_state_tensor_shape() == [
            game.observation_tensor_shape()[0] + game.history_width]
    assert ospiel.MAX_HISTORY_WIDTH == 2**20


def test_make_observation_follows_the_observation_type_it_is_given() -> None:
    """``make_observation(game)`` without a type is the observation, as for OpenSpiel's own
    games (it was the information state, actions included); a public observer (private_info
    NONE) showed the player's hole cards, and a private one (public_info False) the public
    state too."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_holdem(players=3,stack=40,actions=fcpa)")
    kuhn = pyspiel.load_game("kuhn_poker")  # the convention, from a C++ game
    assert list(make_observation(kuhn).tensor.shape) == kuhn.observation_tensor_shape()
    state = _play_to_the_flop(game)
    default = make_observation(game)
    assert list(default.tensor.shape) == game.observation_tensor_shape()
    assert set(default.dict) == {"observation"}
    for p in range(3):
        default.set_from(state, p)
        assert default.tensor.tolist() == pytest.approx(state.observation_tensor(p))
        assert default.string_from(state, p) == state.observation_string(p)
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(
        public_info=False, perfect_recall=False,
        private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    recall = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE))
    # the strings show the hole cards and the flop the higher card first
    flop = sorted(state.hand.board[:3], key=int, reverse=True)
    board = "".join(str(c) for c in (*flop, *state.hand.board[3:]))
    for p in range(3):
        mine = "".join(str(c) for c in sorted(state.hand.hole_cards[p], key=int, reverse=True))
        row = np.array(state.observation_tensor(p), dtype=np.float32)
        public.set_from(state, p)
        assert not public.tensor[:52].any()  # no hole card
        assert np.array_equal(public.tensor[52:], row[52:])  # the public columns as they are
        text = public.string_from(state, p)
        assert mine not in text and board in text
        recall.set_from(state, p)
        assert not recall.tensor[:52].any()
        assert recall.tensor.shape == (game.information_state_tensor_size(),)
        assert mine not in recall.string_from(state, p)
        assert board in recall.string_from(state, p)
        private.set_from(state, p)
        assert private.tensor.shape == (52,)
        assert np.array_equal(private.tensor, row[:52])
        text = private.string_from(state, p)
        assert mine in text and board not in text
    with pytest.raises(InvalidConfigError, match="ALL_PLAYERS"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def _play_to_the_flop(game: Any) -> Any:
    """A hand of ``game`` with every seat calling preflop and the flop dealt."""
    state = game.new_initial_state()
    rng = random.Random(7)
    while state.hand is None or not state.hand.board:
        if state.is_chance_node():
            state.apply_action(rng.choice([c for c, _ in state.chance_outcomes()]))
        else:
            state.apply_action(1)  # check/call
    return state


def _after(game: Any, moves: list[int]) -> Any:
    """A new state of ``game`` after ``moves`` (cards and actions, in order)."""
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(move)
    return state


def test_strings_do_not_depend_on_the_order_cards_were_dealt_in():
    """The same hole cards dealt in the other order, and the same flop in any order, are the
    same information state (the tensors, one-hot, already were; OpenSpiel's tabular
    algorithms key on the string: each flop info state had up to 12 copies)."""
    game = pyspiel.load_game("python_holdem(players=2,stack=40,actions=fcpa)")
    a = _after(game, [0, 10, 1, 11, 1, 1, 20, 21, 22])  # hole cards, call, check, flop
    b = _after(game, [10, 0, 11, 1, 1, 1, 22, 20, 21])
    assert a.history() != b.history() and not a.is_chance_node()
    for p in range(2):
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.observation_string(p) == b.observation_string(p)
        assert a.information_state_tensor(p) == b.information_state_tensor(p)
    assert "hole 4h2c" in a.information_state_string(0)  # 10 is 4h: the higher first
    assert "board 7h7d7c" in a.information_state_string(0)
    a.apply_action(1)  # checks to the turn
    a.apply_action(1)
    a.apply_action(30)  # 9h
    assert "board 7h7d7c9h" in a.information_state_string(0)


def test_chance_outcomes_answer_at_a_chance_node_only():
    # they listed the cards left at a player's decision and at the end (universal_poker
    # raises): an algorithm asking at the wrong node got an answer
    game = pyspiel.load_game("python_holdem(players=2,stack=40,actions=fcpa)")
    state = _after(game, [0, 1, 2, 3])
    with pytest.raises(IllegalActionError, match=r"no card is dealt now \(seat 0 is to act\)"):
        state.chance_outcomes()
    state.apply_action(0)  # the button folds
    assert state.is_terminal()
    with pytest.raises(IllegalActionError, match="the hand is over"):
        state.chance_outcomes()


@pytest.mark.parametrize(("stacks", "low", "high"), [
    ("stack=200", -200, 200),
    ("stacks=700 1300", -700, 700),  # was -1300..1300: nobody can lose more than 700
    ("players=3,stacks=100 200 300", -200, 300),  # 300 wins 100 + 200; 300 loses 200 at most
    ("players=3,stack=50", -50, 100),
])
def test_utility_bounds_are_as_tight_as_the_stacks_allow(stacks: str, low: int, high: int):
    game = pyspiel.load_game(f"python_holdem({stacks})")
    assert (game.min_utility(), game.max_utility()) == (low, high)
    rng = random.Random(3)
    for _ in range(200):  # random hands stay inside them
        state = game.new_initial_state()
        while not state.is_terminal():
            moves = ([c for c, _ in state.chance_outcomes()] if state.is_chance_node()
                     else state.legal_actions())
            state.apply_action(rng.choice(moves))
        assert all(low <= r <= high for r in state.returns())


def test_exact_action_names_stop_at_the_games_actions():
    game = pyspiel.load_game("python_holdem(players=2,stack=20,actions=exact)")
    state = _after(game, [0, 1, 2, 3])
    assert game.num_distinct_actions() == 22
    assert state.action_to_string(21) == "cbr 20"
    for code in (22, 99, -1):
        with pytest.raises(IllegalActionError, match=f"action {code} is not an action of this "
                                                     r"game \(0\.\.21\)"):
            state.action_to_string(code)


@pytest.mark.parametrize("stacks", ["200 200 200", "300 120 60"])
def test_same_game_as_universal_poker_three_players_fcpa(stacks: str):
    """Differential at three seats (unequal stacks too): dealt the same card ids in the same
    order and given the same random actions, universal_poker and python_holdem offer the same
    legal actions at every decision and return the same payoffs, but for the odd chip of a
    tied pot: universal_poker splits it (ACPC's value), holdem gives it to one winner (R32)."""
    spec = ("universal_poker(betting=nolimit,numPlayers=3,numRounds=4,blind=1 2 0,"
            "firstPlayer=3 1 1 1,numSuits=4,numRanks=13,numHoleCards=2,"
            f"numBoardCards=0 3 1 1,stack={stacks},bettingAbstraction=fcpa)")
    theirs, ours = pyspiel.load_game(spec), ospiel.load_game(spec)
    rng = random.Random(1)
    odd = 0
    for _ in range(150):
        a, b = theirs.new_initial_state(), ours.new_initial_state()
        while not a.is_terminal():
            if a.is_chance_node():
                card = rng.choice([c for c, _ in a.chance_outcomes()])
                a.apply_action(card)
                b.apply_action(card)
                continue
            assert a.legal_actions() == b.legal_actions()
            move = rng.choice(a.legal_actions())
            a.apply_action(move)
            b.apply_action(move)
        assert b.is_terminal() and sum(b.returns()) == 0
        if a.returns() != b.returns():  # R32: one odd chip, to a player who tied
            odd += 1
            assert all(abs(x - y) < 1 for x, y in zip(a.returns(), b.returns(), strict=True))
    assert odd < 10


def _forged(state: Any, history: str | None = None, **fields: Any) -> bytes:
    """``state``'s pickle with ``fields`` of its ``__dict__`` changed (pyspiel's state, its
    ``__getstate__``, is the history, then the ``__dict__`` pickled in base64) and its
    history line replaced by ``history``."""
    import base64
    import copyreg
    import io
    import pickle

    text = state.__getstate__()
    head, encoded = text.rsplit("__dict__=", 1)
    if history is not None:
        head = "\n".join(history if line.startswith("history=") else line
                         for line in head.split("\n"))
    saved = pickle.loads(base64.b64decode(encoded))
    saved.update(fields)
    forged = head + "__dict__=" + base64.b64encode(pickle.dumps(saved)).decode() + "\n"

    class Pickler(pickle.Pickler):
        def reducer_override(self, obj: Any) -> Any:
            return ((copyreg.__newobj__, (type(state),), forged) if obj is state
                    else NotImplemented)

    buf = io.BytesIO()
    Pickler(buf, protocol=2).dump(state)
    return buf.getvalue()


def test_a_state_pickle_is_checked_against_its_history() -> None:
    """pyspiel restores a Python state's pickled ``__dict__`` as it is: a forged cache of
    legal actions let ``apply_action(77)`` through to an IndexError, ``_log=None`` raised
    TypeError and ``_cfg=None`` AttributeError at the next query, another ``_hole`` or
    ``_n=5`` were taken (other cards shown, other observations). The hand is replayed from
    the history at load: a field that is not the replay's is refused, and the cache is the
    replay's."""
    import pickle

    from holdem import InvalidStateError

    game = pyspiel.load_game("python_holdem(players=2,stack=40,actions=fcpa)")
    state = _after(game, [0, 1, 2, 3, 1])
    cards = list(reversed(state._hole))
    for fields, why in [({"_log": None}, "_log is not the one its history makes"),
                        ({"_cfg": None}, "_cfg is not the one its history makes"),
                        ({"_hole": cards}, "_hole is not the one its history makes"),
                        ({"_n": 5}, "_n is not the one its history makes"),
                        ({"_hand": None}, "_hand is not the one its history makes"),
                        ({"_extra": 1}, "its fields are not a state's")]:
        with pytest.raises(InvalidStateError, match=f"not a valid pickled HoldemState: {why}"):
            pickle.loads(_forged(state, **fields))
    for history, why in [("history=-1:0,-1:1,-1:2,-1:3,0:9", "its history does not replay"),
                         ("history=-1:0,-1:1,-1:2,-1:3,1:1", "its history is not the one"),
                         ("history=-1:0,-1:1,-1:2,-1:4,0:1", "_hole is not the one")]:
        with pytest.raises(InvalidStateError, match=f"not a valid pickled HoldemState: {why}"):
            pickle.loads(_forged(state, history))
    twin = pickle.loads(_forged(state, _legal=(1, [0, 1, 2, 3, 77])))
    assert twin.legal_actions() == state.legal_actions() == [1, 2, 3]
    with pytest.raises(IllegalActionError, match="action 77 is not legal"):
        twin.apply_action(77)
    assert str(twin) == str(state)


_GAME_PICKLES = """
import copy, pickle, sys
import pyspiel
from holdem.rl.openspiel import HoldemGame
for spec in ("python_holdem(players=2,stack=40,actions=fcpa)",
             "python_holdem(players=3,stacks=30 40 50,button=2,ante=1,actions=fchpa)",
             "python_holdem(players=4,stack=20,structure=FL,max_raises=3,actions=default)"):
    game = pyspiel.load_game(spec)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        twin = pickle.loads(pickle.dumps(game, protocol))
        assert type(twin) is HoldemGame, (spec, protocol, type(twin))
        assert str(twin) == str(game), (spec, protocol, str(twin))
        assert twin.get_parameters() == game.get_parameters()
        state = twin.new_initial_state()
        state.apply_action(5)
        assert str(pickle.loads(pickle.dumps(state, protocol))) == str(state)
    assert str(copy.deepcopy(game)) == str(copy.copy(game)) == str(game)
print("ok")
"""


def test_a_game_pickles_at_every_protocol() -> None:
    """pyspiel's own pickling of a game aborted the interpreter at protocols 0 and 1 (a C++
    exception: 'instance allocation failed'). The game is pickled by its parameters at every
    protocol (in a child process, so that an abort shows as a failure)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _GAME_PICKLES], capture_output=True,
                          text=True, timeout=300)
    assert (done.returncode, done.stdout) == (0, "ok\n"), done.stderr[-2000:]


def _random_nodes(seed: int, hands: int) -> Iterator[tuple[Any, Any, int | None]]:
    """Every node of ``hands`` random hands of a 3-player fchpa game and a heads-up pot-limit
    one with exact codes: ``(game, state, the move played next)``, None at the end (the
    caller leaves the state as it is: this moves it on)."""
    rng = random.Random(seed)
    for spec in ("python_holdem(players=3,stack=30,actions=fchpa)",
                 "python_holdem(players=2,stack=12,structure=PL,actions=exact)"):
        game = pyspiel.load_game(spec)
        for _ in range(hands):
            state = game.new_initial_state()
            while not state.is_terminal():
                moves = ([c for c, _ in state.chance_outcomes()] if state.is_chance_node()
                         else state.legal_actions())
                move = rng.choice(moves)
                yield game, state, move
                state.apply_action(move)
            yield game, state, None


def test_a_state_pickled_at_every_move_plays_on_as_the_original() -> None:
    """Pickles and deep copies taken at every move (chance nodes, a betting action waiting
    for its board, the end) load through the replay and play on as the original does."""
    import copy
    import pickle

    for _game, state, _move in _random_nodes(5, 6):
        for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
            assert str(twin) == str(state) and twin.history() == state.history()
            assert twin.is_terminal() == state.is_terminal()
            if state.is_terminal():
                assert twin.returns() == state.returns()
            elif not state.is_chance_node():
                assert twin.legal_actions() == state.legal_actions()
                assert twin.information_state_tensor() == state.information_state_tensor()


def test_the_information_state_tensor_is_the_row_and_the_codes_at_every_node() -> None:
    """The game's observer keeps one tensor and writes each state's into it: the shared row,
    then the decisions' codes plus one, zeros after them. At every node of hands one after
    another (a short history right after a long one), it is ``encode`` and
    ``history_codes`` of that state, for each player; zeros before the hole cards are dealt
    (pyspiel first writes a new state's into it, for each tensor asked)."""
    import numpy as np

    for game, state, _move in _random_nodes(3, 8):
        for p in range(game.num_players()):
            want = state.encode(p) + state.history_codes(game.history_width)
            assert np.array_equal(np.asarray(state.information_state_tensor(p), np.float32),
                                  np.asarray(want, np.float32))
            assert np.array_equal(np.asarray(state.observation_tensor(p), np.float32),
                                  np.asarray(state.encode(p), np.float32))
            if state._hand is None:
                assert not any(want)


def test_clones_and_children_are_independent_replays_of_their_history() -> None:
    """pyspiel clones a Python state (``clone``, ``child``: every node of a tree search) by
    deep-copying each of its fields; they copy cheaply now (the config is shared, the hand is
    cloned, the lists of ints and tuples are copied as lists). At every move, a clone and a
    child are the state their history replays, and playing on either leaves the original as
    it was."""
    from holdem.rl.openspiel import _Items

    for game, state, move in _random_nodes(11, 5):
        if move is None:
            continue
        before = (str(state), state.history(), state.information_state_string(0))
        clone, child = state.clone(), state.child(move)
        replay = game.new_initial_state()
        for action in [*state.history(), move]:
            replay.apply_action(action)
        assert str(child) == str(replay) and child.history() == replay.history()
        assert str(clone) == before[0] and clone.history() == before[1]
        for copy in (clone, child):
            assert type(copy._log) is _Items and type(copy._hole) is _Items
            assert copy._cfg is state._cfg
            assert state._hand is None or copy._hand is not state._hand
            while not copy.is_terminal():  # played on to the end
                copy.apply_action(copy.chance_outcomes()[0][0] if copy.is_chance_node()
                                  else copy.legal_actions()[-1])
        assert (str(state), state.history(), state.information_state_string(0)) == before


def test_a_state_never_loads_without_its_state() -> None:
    """A pickle of a state written without its state (pyspiel's ``__setstate__`` never
    called) gave a state with no C++ object: its first query crashed the interpreter. The
    pickle carries the state as an argument now, and no state at all raises
    InvalidStateError at load (run in a child, so that a regression cannot kill the
    suite)."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import io, pickle, pyspiel
        import holdem.rl.openspiel as ospiel
        from holdem import InvalidStateError
        from holdem.rl import restore

        class Pickler(pickle.Pickler):  # each state written without its state
            def reducer_override(self, obj):
                if type(obj) is ospiel.HoldemState:
                    return obj.__reduce_ex__(2)[:2]
                return NotImplemented

        game = pyspiel.load_game("python_holdem(players=2,stack=40,actions=fcpa)")
        state = game.new_initial_state()
        for card in (0, 1, 2, 3):
            state.apply_action(card)
        buf = io.BytesIO()
        Pickler(buf, protocol=2).dump(state)
        twin = pickle.loads(buf.getvalue())
        assert str(twin) == str(state) and twin.legal_actions() == state.legal_actions()
        try:
            restore(ospiel.HoldemState, None)
        except InvalidStateError as exc:
            print(exc)
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode >= 0, f"child crashed with signal {-proc.returncode}: {proc.stderr}"
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("not a valid pickled HoldemState"), proc.stdout


def test_resample_from_infostate_keeps_what_the_player_knows_and_draws_the_rest() -> None:
    """At every node of random hands (the hole-card deal, decisions, a betting action waiting
    for its board, the end), for every player: the resampled state has the same information
    state and observation (strings and tensors), the same actions, board and own hole cards,
    and the other seats' hole cards are distinct cards the player has not seen; the state
    itself does not change, and the same sampler seed gives the same state."""
    for game, state, _move in _random_nodes(11, 5):
        n = game.num_players()
        before = (state.history(), str(state))
        for p in range(n):
            seed = len(state.history()) * 10 + p
            other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(
                seed, 0.0, 1.0))
            assert type(other) is type(state)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.current_player() == state.current_player()
            assert other.is_terminal() == state.is_terminal()
            if not state.is_terminal() and not state.is_chance_node():
                assert other.legal_actions() == state.legal_actions()
            dealt = len(state._hole)
            mine = [k for k in range(dealt) if k // 2 == p]
            hist, old = other.history(), state.history()
            assert len(hist) == len(old)
            assert [hist[k] for k in mine] == [old[k] for k in mine]
            assert hist[dealt:] == old[dealt:]  # the board and the actions
            drawn = [hist[k] for k in range(dealt) if k // 2 != p]
            assert len(set(drawn)) == len(drawn)
            assert not set(drawn) & {*(old[k] for k in mine), *state._board}
            again = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(
                seed, 0.0, 1.0))
            assert again.history() == hist
        assert (state.history(), str(state)) == before


def test_resample_from_infostate_draws_the_unseen_cards_uniformly() -> None:
    """Heads-up after the flop, seen from seat 0: 47 cards unseen, seat 1's two drawn from
    them. Over 9,000 resamples each card is one of seat 1's about 383 times (2/47 of them,
    a standard deviation of 19; a bias toward the pool's start or end, or a card never
    drawn, falls outside 300..470), and the pair is in no particular order."""
    game = pyspiel.load_game("python_holdem(players=2,stack=40)")
    state = game.new_initial_state()
    for move in (51, 50, 0, 1, 1, 1, 20, 24, 28):  # As Ah | 2c 2d | call, check | 7c 8c 9c
        state.apply_action(move)
    assert state.current_player() == 1 and not state.is_chance_node()
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    counts = dict.fromkeys([c for c in range(52) if c not in (51, 50, 20, 24, 28)], 0)
    first_high = 0
    for _ in range(9000):
        a, b = state.resample_from_infostate(0, sampler).history()[2:4]
        counts[a] += 1
        counts[b] += 1
        first_high += a > b
    assert len(counts) == 47 and sum(counts.values()) == 18000
    assert all(300 <= v <= 470 for v in counts.values()), counts
    assert 4200 <= first_high <= 4800


def _ismcts_hands(game: Any, seed: int, hands: int, simulations: int, seeded: bool,
                  decide: Any) -> list[list[float]]:
    """``hands`` hands of OpenSpiel's Python ISMCTS bot (random rollouts) in every seat, the
    cards dealt with ``random.Random(1)``; ``decide(bot, state)`` returns each action.
    ``seeded``: the bot resamples with ``random.Random(seed)`` (``set_resampler``) instead
    of its unseeded sampler. Returns each hand's returns."""
    from open_spiel.python.algorithms import ismcts, mcts

    rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                           uct_c=2.0, max_simulations=simulations, random_state=rng)
    if seeded:
        draws = random.Random(seed)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(
            player, draws.random))
    dice, returns = random.Random(1), []
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(dice.choice([c for c, _ in state.chance_outcomes()]))
            else:
                state.apply_action(decide(bot, state))
        returns.append(state.returns())
    return returns


def test_resample_from_infostate_lets_openspiels_ismcts_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenSpiel's Python ISMCTS bot determinizes with ``resample_from_infostate`` (once a
    simulation): it plays whole heads-up hands of python_holdem (it raised SpielError "not
    implemented" before)."""
    calls = []
    resample = ospiel.HoldemState.resample_from_infostate

    def counted(state: Any, player: int, sampler: Any) -> Any:
        calls.append(player)
        return resample(state, player, sampler)

    monkeypatch.setattr(ospiel.HoldemState, "resample_from_infostate", counted)
    decisions = []

    def decide(bot: Any, state: Any) -> int:
        action: int = bot.step(state)
        assert action in state.legal_actions()
        assert calls[-30:] == [state.current_player()] * 30
        decisions.append(action)
        return action

    game = pyspiel.load_game("python_holdem(players=2,stack=20,actions=fcpa)")
    returns = _ismcts_hands(game, 4, 3, 30, False, decide)
    assert len(returns) == 3 and all(sum(r) == 0 for r in returns)
    assert len(calls) == 30 * len(decisions) > 0


def test_ismcts_is_seeded_once_its_resampler_is() -> None:
    """OpenSpiel's ISMCTS resamples with an unseeded ``UniformProbabilitySampler(0., 1.)``;
    given a seeded one through ``set_resampler`` (as the README shows), two bots of the same
    seed search to the same visit counts at every decision of the same hands."""
    game = pyspiel.load_game("python_holdem(players=3,stack=30,actions=fchpa)")

    def policies(seed: int) -> list[Any]:
        out: list[Any] = []

        def decide(bot: Any, state: Any) -> int:
            policy, action = bot.step_with_policy(state)
            out.append((state.history(), policy))
            return int(action)

        _ismcts_hands(game, seed, 2, 40, True, decide)
        return out

    first = policies(5)
    assert len(first) > 2 and first == policies(5)
    assert first != policies(6)


def test_resample_from_infostate_refuses_a_bad_player_or_sampler() -> None:
    game = pyspiel.load_game("python_holdem(players=3,stack=40)")
    state = game.new_initial_state()
    for card in range(6):  # the hole cards: seat 0 to act
        state.apply_action(card)
    before = state.history()
    for bad in (3, -1, 1 << 70, -(1 << 70), "0", 1.0, None):
        with pytest.raises(InvalidConfigError, match=r"seat must be 0\.\.2"):
            state.resample_from_infostate(bad, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(InvalidConfigError, match="must be a callable returning a float"):
        state.resample_from_infostate(0, 0.5)
    for value in (1.0, -0.1, float("nan"), "0.5", None, True):
        with pytest.raises(InvalidConfigError, match=r"probability_sampler\(\) must return"):
            state.resample_from_infostate(0, lambda v=value: v)
    for value in (np.float32(0.25), np.float64(0.5), 0, Fraction(1, 3)):  # any real in [0, 1)
        assert len(state.resample_from_infostate(1, lambda v=value: v).history()) == 6
    assert state.history() == before
