"""The OpenSpiel adapter: any rule file as a pyspiel game that OpenSpiel's own checks accept."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel adapter needs open_spiel (pip install -e '.[test]')")

import rulelang.adapters.openspiel as adapter  # noqa: E402
from helpers import Table, is_variant  # noqa: E402
from rulelang.interpreter.agents import make_agent  # noqa: E402
from rulelang.loader import load_game, shipped_games  # noqa: E402

GAMES = sorted({p.stem for p in shipped_games()})


def spiel_game(rules: str, deals: int = 1):
    """The pyspiel game of ``rules``."""
    return pyspiel.load_game("rulelang", {"rules": rules, "deals": deals})


def replayed(game, history):
    """A pyspiel state of ``game`` after ``history``."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


@pytest.mark.parametrize("rules", GAMES)
def test_openspiels_random_simulation_test_passes_with_serialization(rules):
    variant = is_variant(next(p for p in shipped_games() if p.stem == rules))
    large = load_game(rules, max_deals=1).num_cards > 64            # a 78-card simulation takes 8 s of a run
    pyspiel.random_sim_test(spiel_game(rules), num_sims=1 if variant or large else 2, serialize=True, verbose=False)


def test_the_game_type_and_sizes_follow_the_rule_file():
    game, engine = spiel_game("zwanzigerrufen"), load_game("zwanzigerrufen", max_deals=1)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 4 and game.num_distinct_actions() == engine.num_distinct_actions()
    assert game.max_game_length() >= 40 and game.max_utility() > 0 > game.min_utility()
    sizes = [int(np.prod(shape)) for _, shape in adapter.piece_shapes(engine, True)]
    assert game.information_state_tensor_shape() == [sum(sizes)]
    assert [name for name, _ in adapter.piece_shapes(engine, False)] == list(adapter.OBSERVATION_PIECES)


def test_a_match_of_several_deals_is_one_episode():
    game = spiel_game("zwanzig-ab", deals=3)
    state, rng = game.new_initial_state(), random.Random(4)
    while not state.is_terminal():
        assert state.returns() == [0.0] * 4
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.engine_state.deal_number == 3 or state.engine_state.match_ended


HANDS = {"P1": "AC 9C 8C 8S 10D", "P2": "KC 10S KS 7S JD", "P3": "AS 9S KH KD 8D", "P4": "10C QC AH AD 7D"}
SWAPPED = dict(HANDS, P3="AS QC KH KD 8D", P4="10C 9S AH AD 7D")


def dealt(hands):
    """A pyspiel state right after a scripted Zwanzig ab deal (P1 deals)."""
    table = Table(load_game("zwanzig-ab", max_deals=1), hands)
    return replayed(spiel_game("zwanzig-ab"), table.state.history)


def test_a_seat_sees_the_same_whatever_the_others_hold():
    one, other = dealt(HANDS), dealt(SWAPPED)
    assert one.history() != other.history()
    for seat in (0, 1):
        assert one.information_state_string(seat) == other.information_state_string(seat)
        assert one.observation_string(seat) == other.observation_string(seat)
        assert one.information_state_tensor(seat) == other.information_state_tensor(seat)
        assert one.observation_tensor(seat) == other.observation_tensor(seat)
    assert one.observation_tensor(3) != other.observation_tensor(3)


def test_the_tensor_holds_the_hand_the_trick_and_the_contract_pieces():
    state = dealt(HANDS)
    observer = adapter.RulelangObserver(state.get_game(), pyspiel.IIGObservationType(perfect_recall=False), None)
    observer.set_from(state, 0)
    engine = state.engine_state
    hand = {engine.game.deck.cards[c].name for c in np.flatnonzero(observer.dict["hand"])}
    assert hand == set(engine.game.deck.names(engine.hands[0]))
    assert observer.dict["player"][0] == 1 and observer.dict["contract"][0] == 1
    assert not observer.dict["trick"].any()


def test_resampling_keeps_the_information_state_and_pickling_keeps_the_state():
    state = dealt(HANDS)
    while state.current_player() != 1:
        state.apply_action(state.legal_actions()[0])
    sampler = lambda: random.Random(3).random()  # noqa: E731
    other = state.resample_from_infostate(1, sampler)
    assert other.information_state_string(1) == state.information_state_string(1)
    back = pickle.loads(pickle.dumps(state))
    assert back.history() == state.history() and str(back) == str(state)
    assert state.get_game().deserialize_state(state.serialize()).history() == state.history()


def test_openspiels_ismcts_bot_plays_as_an_agent_through_the_adapter():
    game = load_game("zwanzig-ab", max_deals=1)
    agent = make_agent("openspiel-ismcts:sims=5", seed=1)
    state, rng = game.new_initial_state(), random.Random(2)
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(rng)
            continue
        action = agent.step(state) if state.current_player() == 0 else rng.choice(state.legal_actions())
        moves += state.current_player() == 0
        state.apply_checked(action)
    assert moves > 0


def test_the_rules_must_be_named():
    with pytest.raises(ValueError, match="name the rules"):
        pyspiel.load_game("rulelang")


def test_a_broken_rule_file_is_a_value_error_with_its_diagnostics(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("game: broken\nplayers: 1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="broken.yaml"):
        spiel_game(str(path))
