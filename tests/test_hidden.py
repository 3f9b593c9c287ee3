"""Hidden information: a seat's view, and the moves open to it, depend only on what it may know."""

from __future__ import annotations

import random

import pytest

from helpers import ROOT, is_variant
from rulelang.loader import load_game, shipped_games

# every shipped game, and the examples whose constructs no shipped game uses yet (secret parties, calls)
GAMES = sorted({p.stem for p in shipped_games()}) + [str(ROOT / "examples" / "re-and-kontra.rules")]
VARIANTS = {p.stem for p in shipped_games() if is_variant(p)}      # a few lines over a base probed in full


@pytest.mark.parametrize("game_name", GAMES, ids=lambda g: g.rsplit("/", 1)[-1])
def test_in_every_world_a_seat_cannot_tell_apart_the_same_seat_acts_with_the_same_moves(game_name):
    game = load_game(game_name, max_deals=1)
    checked = 0
    for seed in range(2 if game_name in VARIANTS else 3):
        rng, state = random.Random(seed), game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(rng)
                continue
            seat = state.current_player()
            for viewer in range(game.num_players):
                world = state.resample_from_infostate(viewer, random.Random(seed * 1000 + len(state.history) + viewer))
                if world is None:
                    continue
                assert world.current_player() == seat
                assert world.information_state_string(viewer) == state.information_state_string(viewer)
                assert world.observation(viewer) == state.observation(viewer)
                if viewer == seat:
                    assert world.legal_actions() == state.legal_actions(), state.information_state_string(seat)
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 10


def test_the_called_card_is_part_of_every_seats_information_state():
    game = load_game("zwanzigerrufen", max_deals=1)
    rng, state = random.Random(15), game.new_initial_state()
    while state.called < 0:
        if state.is_chance_node():
            state.apply_chance(rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    called = game.deck.cards[state.called].name
    for seat in range(game.num_players):
        assert state.information_state_string(seat).endswith(f"| called {called}")
