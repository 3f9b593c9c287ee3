"""The perfect-information solver generated from the rules (rulelang.interpreter.solver): the tricks each card
is worth with best play by all, as DDS counts them for Bridge, realised by play that follows it, in any game with
sides, within its node bound and leaving the state as it was."""

from __future__ import annotations

import random

import pytest

from rulelang.interpreter import solver
from rulelang.interpreter.agents import SeededChance
from rulelang.loader import load_game


def trick_play_position(game, seed: int, cards_left: int):
    """A seeded deal bid at random (a Bridge auction mostly passed), its cards then played at random until
    ``cards_left`` cards are in the hands; None if the deal never reached trick play."""
    state, chance, rng = game.new_initial_state(), SeededChance(seed), random.Random(seed)
    while not (state.current_player() >= 0 and state.step.kind == "tricks"):
        if state.is_terminal() or state.deal_number > 0:
            return None
        if state.current_player() < 0:
            chance.play(state)
            continue
        legal = state.legal_actions()
        passing = [a for a in legal if state.action_to_string(a) in ("pass", "passe", "weiter")]
        state.apply_action(passing[0] if passing and rng.random() < 0.7 else rng.choice(legal))
    while sum(bin(hand).count("1") for hand in state.hands) > cards_left:
        if not solver.in_trick_play(state, 0):
            return None                       # play ended early, or a card is given from the talon (chance)
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def side_tricks(state, side: int) -> int:
    taken = state.deal_results[-1]["tricks"] if state.is_terminal() else state.tricks.taken
    return sum(t for s, t in enumerate(taken) if side >> s & 1)


def test_every_card_of_a_bridge_ending_is_worth_what_dds_says():
    dd = pytest.importorskip("rulelang.adapters.double_dummy")
    game = load_game("bridge", max_deals=1)
    compared = 0
    for cards_left, seeds in ((8, range(70)), (12, range(70, 120))):
        for seed in seeds:
            state = trick_play_position(game, seed, cards_left)
            if state is None:
                continue
            assert solver.card_tricks(state) == dd.card_tricks(state), f"seed {seed}, {cards_left} cards"
            compared += 1
    assert compared >= 80


@pytest.mark.parametrize("name, cards_left", [("bridge", 12), ("skat", 9), ("schafkopf", 12)])
def test_playing_the_best_card_each_time_takes_what_the_solver_said(name, cards_left):
    """In a game of two sides, each playing its best card, the side to play takes what it was promised."""
    game = load_game(name, max_deals=1)
    played = 0
    for seed in range(8):
        state = trick_play_position(game, seed, cards_left)
        if state is None:
            continue
        side = solver.side_mask(state, solver.hand_to_play(state))
        start, promised = side_tricks(state, side), max(solver.card_tricks(state).values())
        while not state.is_terminal() and state.current_player() >= 0 and state.step.kind == "tricks":
            values = solver.card_tricks(state)                  # each for the side to play: it takes the most
            state.apply_action(min(card for card, value in values.items() if value == max(values.values())))
        assert side_tricks(state, side) - start == promised, f"{name}, seed {seed}"
        played += 1
    assert played >= 3


def test_the_node_bound_gives_up_and_the_state_is_left_as_it_was():
    game = load_game("bridge", max_deals=1)
    state = trick_play_position(game, 5, 52 - 4)
    history, hands = list(state.history), list(state.hands)
    assert solver.card_tricks(state, max_nodes=50) is None
    assert state.history == history and state.hands == hands
    ending = trick_play_position(game, 5, 8)
    assert solver.card_tricks(ending) == solver.card_tricks(ending)
