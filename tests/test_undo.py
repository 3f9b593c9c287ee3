"""Undo from a stack of snapshots (``State.keep_undo``) restores exactly what replaying the history does."""

from __future__ import annotations

import random

import pytest

from helpers import full_fingerprint
from rulelang.loader import load_game, shipped_games

GAMES = sorted({p.stem for p in shipped_games()})


@pytest.mark.parametrize("game_name", GAMES)
def test_undoing_every_move_from_the_stack_walks_back_through_the_same_states(game_name):
    game = load_game(game_name, max_deals=3)
    rng = random.Random(game_name)
    for _ in range(3):
        state = game.new_initial_state()
        state.keep_undo()
        seen = []
        for _ in range(rng.randrange(20, 250)):
            if state.is_terminal():
                break
            seen.append(full_fingerprint(state))
            state.apply_action(rng.choice(state.legal_actions()))
        while state.history:
            state.undo_action(state.current_player(), state.history[-1])
            assert full_fingerprint(state) == seen.pop()


def test_a_clone_does_not_share_the_undo_stack_and_undo_goes_on_after_it():
    game = load_game("zwanzigerrufen", max_deals=1)
    rng = random.Random(5)
    state = game.new_initial_state()
    state.keep_undo()
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    copy = state.clone()
    before = full_fingerprint(state)
    copy.apply_action(copy.legal_actions()[0])
    copy.undo_action(copy.current_player(), copy.history[-1])       # the copy replays: it keeps no stack
    assert full_fingerprint(copy) == before == full_fingerprint(state)
    last = state.history[-1]
    state.undo_action(0, last)
    replayed = game.new_initial_state()
    for action in state.history:
        replayed.apply_action(action)
    assert full_fingerprint(state) == full_fingerprint(replayed)


def test_undo_of_a_move_that_was_not_the_last_is_refused():
    state = load_game("zwanzig-ab").new_initial_state()
    state.keep_undo()
    state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="not the last action"):
        state.undo_action(0, state.history[-1] + 1)
