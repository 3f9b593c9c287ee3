"""``open_hand``: a seat lays its hand open for the rest of the deal and still plays it itself."""

from __future__ import annotations

import random

import pytest

from rulelang.render.explain import explain_game
from rulelang.render.fmt import to_rules
from rulelang.interpreter.agents import RandomAgent, SeededChance
from rulelang.interpreter.runner import play_match
from rulelang.loader import load_text, parse_text, resolve_document

OPEN = """
game: zwanzig-ab-open
title: Zwanzig ab, forehand plays face up
extends: zwanzig-ab
phases:
  - deal: {each: 2}
  - choose: {var: trump, by: forehand, from: suits}
  - deal: {each: 3}
  - talon: rest
  - exchange: {from: forehand, max: 3}
  - decide:
      options: [play, pass]
      from: next(forehand)
      leave: pass
      forbid:
        pass: "player == forehand or trump == diamonds"
  - open_hand: {seat: forehand}
  - tricks:
      among: active
      lead: forehand
      follow: [led_suit, trump, any]
      win: [{highest: trump}, {highest: led_suit}]
      alone: takes_all
  - score:
      let:
        factor: "if trump == hearts then hearts_factor else 1"
      each: active
      add: "if tricks(player) > 0 then -tricks(player) * factor else no_trick_bonus * factor"
"""


@pytest.fixture(scope="module")
def game():
    return load_text(OPEN, "yaml", max_deals=1)


def to_trick_play(game, seed: int):
    """A state at the first card of trick play, reached by random players (seeds from ``seed`` on, until a deal
    reaches trick play with more than one player in)."""
    while True:
        state, chance, agent = game.new_initial_state(), SeededChance(seed), RandomAgent(seed)
        while not state.is_terminal() and (state.step is None or state.step.kind != "tricks" or state.is_chance_node()):
            if state.is_chance_node():
                chance.play(state)
            else:
                state.apply_action(agent.step(state))
        if not state.is_terminal():
            return state
        seed += 1000


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_seat_sees_the_open_hand_from_the_phase_on(game, seed):
    state = to_trick_play(game, seed)
    forehand = state.forehand
    cards = game.deck.names(state.hands[forehand])
    for seat in range(game.num_players):
        seen = state.observation(seat)
        assert seen["open_hand"] == game.seat_name(forehand) and seen["open_cards"] == cards
    assert state.current_player() == forehand                 # it plays its own cards
    state.apply_action(state.legal_actions()[0])
    assert state.observation(1 - forehand % 2)["open_cards"] == game.deck.names(state.hands[forehand])


def test_before_the_phase_the_hand_is_hidden(game):
    state = game.new_initial_state()
    chance = SeededChance(4)
    while state.is_chance_node():
        chance.play(state)
    assert "open_hand" not in state.observation(0) and "open_cards" not in state.observation(0)


@pytest.mark.parametrize("seed", [5, 6])
def test_worlds_drawn_for_another_seat_keep_the_open_hand(game, seed):
    state = to_trick_play(game, seed)
    forehand = state.forehand
    observer = next(s for s in range(game.num_players) if s != forehand)
    rng = random.Random(seed)
    for _ in range(10):
        world = state.resample_from_infostate(observer, rng)
        assert world.hands[forehand] == state.hands[forehand]
        assert world.information_state_string(observer) == state.information_state_string(observer)
    assert f"| open {game.seat_name(forehand)}:" in state.information_state_string(observer)
    assert "| open" not in state.information_state_string(forehand)


@pytest.mark.parametrize("seed", range(5))
def test_random_deals_play_to_the_end(game, seed):
    state, _ = play_match(game, seed=seed)
    assert state.is_terminal() and state.stopped is None


def test_dsl_and_explain_say_it():
    rules = to_rules(parse_text(OPEN, "open.yaml").data)
    assert "open_hand forehand" in rules
    assert resolve_document(parse_text(rules, "open.rules")).data["phases"][6] == {"open_hand": {"seat": "forehand"}}
    text = "\n".join(explain_game(resolve_document(parse_text(OPEN, "open.yaml")).data))
    assert "Forehand lays his hand open: for the rest of the deal everyone sees it, and he plays it himself" in text


def test_a_when_condition_keeps_the_hand_hidden_in_other_deals():
    text = OPEN.replace("  - open_hand: {seat: forehand}", "  - open_hand: {seat: forehand, when: \"trump == clubs\"}")
    g = load_text(text, "yaml", max_deals=1)
    seen = set()
    for seed in range(12):
        state = to_trick_play(g, seed)
        shown = "open_hand" in state.observation(0)
        assert shown == (state.var_text("trump") == "clubs")
        seen.add(shown)
    assert seen == {True, False}


TWO_OPEN = OPEN.replace("  - open_hand: {seat: forehand}",
                        "  - open_hand: {seat: forehand}\n  - open_hand: {seat: next(forehand)}")


@pytest.mark.parametrize("seed", [7, 8])
def test_two_open_hand_phases_lay_both_hands_open_and_worlds_keep_both(seed):
    g = load_text(TWO_OPEN, "yaml", max_deals=1)
    state = to_trick_play(g, seed)
    first, second = state.forehand, (state.forehand + 1) % g.num_players
    both = {g.seat_name(seat): g.deck.names(state.hands[seat]) for seat in (first, second)}
    for seat in range(g.num_players):
        seen = state.observation(seat)
        assert seen["open_hands"] == both and seen["open_hand"] == g.seat_name(first), seat
    observer = next(s for s in range(g.num_players) if s not in (first, second))
    rng = random.Random(seed)
    for _ in range(10):
        world = state.resample_from_infostate(observer, rng)
        assert world.hands[first] == state.hands[first] and world.hands[second] == state.hands[second]
    infostate = state.information_state_string(observer)
    assert f"| open {g.seat_name(first)}:" in infostate and f"| open {g.seat_name(second)}:" in infostate
