"""The record of the match's last deal is written when ``deal_results`` is first read.

It must read as if it had been written when the deal ended: the same for every shipped game
whether read at once, from a clone made before, after undoing the last move and playing it
again, or after a state that went on from a clone read its own.
"""

from __future__ import annotations

import random

import pytest

from rulelang.loader import load_game, shipped_games


def play_to_end(state, rng) -> int:
    """Random moves (chance included) until the match is over; the last action."""
    action = -1
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
    return action


@pytest.mark.parametrize("path", shipped_games(), ids=lambda path: path.name)
def test_the_last_deal_reads_the_same_however_it_is_reached(path):
    game = load_game(path, max_deals=2)
    for seed in range(3):
        state = game.new_initial_state()
        state.keep_undo()
        last = play_to_end(state, random.Random(f"{path.name}{seed}"))
        early = state.clone()
        records = state.deal_results
        assert len(records) == state.deal_number >= 1
        assert early.deal_results == records and state.deal_results == records
        assert records[-1]["scores"] == state.scores
        state.undo_action(-1, last)
        assert not state.is_terminal() and len(state.deal_results) == len(records) - 1
        state.apply_action(last)
        assert state.deal_results == records


def test_the_last_deal_records_the_deal_not_what_follows():
    game = load_game("zwanzig-ab", max_deals=1)
    state = game.new_initial_state()
    play_to_end(state, random.Random(4))
    delta, scores = list(state.deal_delta), list(state.scores)
    record, = state.deal_results
    assert record["delta"] == delta and record["scores"] == scores
    assert sum(record["tricks"]) == 5 and record["vars"]["trump"] in ("clubs", "spades", "hearts", "diamonds")
    assert state.deal_results == [record]
