"""``decided(seat)``: the option a seat last picked in a ``decide`` this deal, read by any later rule."""

from __future__ import annotations

import pytest

from rulelang.interpreter.runner import play_match
from rulelang.loader import load_game, load_text

ALONE_BY_NAME = """
game: euchre-decided
extends: euchre
phases:
  12:
    score:
      let:
        made: "tricks(declarers)"
        points: "if made == 5 then (if decided(declarer) == alone then 4 else 2) else if made >= 3 then 1 else -2"
      each: seats
      add: "if player in declarers then (if points > 0 or zero_sum then points else 0) else if points < 0 then -points else if zero_sum then -points else 0"
      when: "declarer != none"
"""


def test_the_phase_replaced_is_euchres_score():
    phases = load_game("euchre").definition.document["phases"]
    assert "score" in phases[11]


@pytest.mark.parametrize("seed", range(6))
def test_going_alone_read_by_its_name_scores_as_the_seats_that_sit_out_do(seed):
    named = load_text(ALONE_BY_NAME, "yaml", max_deals=3)
    plain = load_game("euchre", max_deals=3)
    assert play_match(named, seed=seed)[0].scores == play_match(plain, seed=seed)[0].scores


def test_a_seat_that_has_not_decided_reads_none():
    game = load_game("euchre")
    state = game.new_initial_state()
    assert state.decide.chosen == (None,) * 4
