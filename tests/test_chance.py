"""``State.apply_chance``: a whole run of chance events in one call, legal, private and uniform."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from helpers import ROOT
from rulelang.interpreter import CHANCE
from rulelang.loader import load_game, shipped_games

GAMES = sorted({p.stem for p in shipped_games()})


def play_with_apply_chance(game, seed: int, deals: int = 2):
    """A random match of up to ``deals`` deals whose chance events all come from ``apply_chance``."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and state.deal_number < deals:
        if state.current_player() == CHANCE:
            assert state.apply_chance(rng) >= 1
            assert state.current_player() != CHANCE
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game_name", GAMES)
def test_every_sampled_event_is_legal_and_seen_by_the_same_seats(game_name):
    game = load_game(game_name, max_deals=2)
    for seed in range(3):
        played = play_with_apply_chance(game, seed)
        replayed = game.new_initial_state()
        for action in played.history:
            replayed.apply_checked(action)
        assert replayed.serialize() == played.serialize()
        assert replayed.seen == played.seen
        for seat in range(game.num_players):
            assert replayed.information_state_string(seat) == played.information_state_string(seat)


def test_a_decision_node_is_left_alone():
    game = load_game("zwanzig-ab")
    state = game.new_initial_state()
    state.apply_chance(random.Random(1))
    before = state.serialize()
    assert state.apply_chance(random.Random(2)) == 0
    assert state.serialize() == before


def test_a_whole_packet_round_is_one_call_and_every_card_lands_in_each_hand_equally_often():
    game = load_game("zwanzig-ab")
    start = game.new_initial_state()
    start.apply_action(game.seat_base)
    assert start.is_chance_node()
    rng, deals = random.Random(5), 3200
    held = Counter()
    for _ in range(deals):
        state = start.clone()
        assert state.apply_chance(rng) == 4 * 2
        assert state.step.kind == "choose"
        for seat in range(4):
            held.update((seat, card) for card in state.hand_cards(seat))
    expected = deals * 2 / 32
    spread = (expected * (1 - 2 / 32)) ** 0.5
    assert len(held) == 4 * 32
    assert all(abs(count - expected) < 5 * spread for count in held.values())


def test_the_order_of_the_draws_is_uniform_too():
    game = load_game("zwanzig-ab")
    start = game.new_initial_state()
    start.apply_action(game.seat_base)
    first, rng, deals = Counter(), random.Random(9), 3200
    for _ in range(deals):
        state = start.clone()
        state.apply_chance(rng)
        first[state.history[1]] += 1
    expected = deals / 32
    assert len(first) == 32
    assert all(abs(count - expected) < 5 * expected ** 0.5 for count in first.values())


def test_with_an_undo_stack_every_event_is_undone_on_its_own():
    game = load_game("zwanzig-ab")
    state = game.new_initial_state()
    state.keep_undo()
    state.apply_action(game.seat_base)
    fresh = state.serialize()
    applied = state.apply_chance(random.Random(3))
    for action in reversed(state.history[-applied:]):
        state.undo_action(CHANCE, action)
    assert state.serialize() == fresh


def test_no_action_applies_once_the_match_is_over():
    game = load_game("zwanzig-ab", max_deals=1)
    state = play_with_apply_chance(game, 4, deals=1)
    assert state.is_terminal() and state.apply_chance(random.Random(1)) == 0
    history = list(state.history)
    with pytest.raises(ValueError, match="the match is over"):
        state.apply_action(0)
    assert state.history == history and state.legal_actions() == []


CHANCE_CHOICE = ROOT / "tests" / "invalid" / "fixtures" / "chance-choice.yaml"


def test_a_choice_by_chance_is_a_public_chance_event_with_every_value_equally_likely():
    game = load_game(str(CHANCE_CHOICE), max_deals=1)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])                   # the first dealer, by lot
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [game.action_to_string(a) for a, _ in outcomes] == ["clubs", "spades", "hearts", "diamonds"]
    assert {p for _, p in outcomes} == {0.25}
    state.apply_action(game.string_to_action("hearts"))
    assert state.var_text("trump") == "hearts"
    for seat in range(4):
        assert state.information_state_string(seat).endswith(" hearts")   # everyone sees the draw
        assert state.observation(seat)["vars"] == {"trump": "hearts"}
    assert state.decisions == {}                                     # no seat decided it


def test_a_seeded_chance_choice_draws_the_same_value_and_explain_says_it_is_drawn():
    from rulelang.render.explain import explain_game
    from rulelang.loader import open_document
    game = load_game(str(CHANCE_CHOICE), max_deals=1)
    drawn = []
    for _ in range(2):
        state, rng = game.new_initial_state(), random.Random(11)
        state.apply_chance(rng)
        drawn.append(state.var_text("trump"))
    assert drawn[0] == drawn[1] and drawn[0] in ("clubs", "spades", "hearts", "diamonds")
    lines = explain_game(open_document(str(CHANCE_CHOICE)).data)
    assert any("trump is drawn at random, each value equally likely: one of the suits" in line.lower() for line in lines)
