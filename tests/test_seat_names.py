"""The seats by their fixed names in expressions (issue 48): ``P1`` … ``Pn`` are seat constants, so a rule can name
a seat or its team for the whole match (``team(P1)``) instead of counting from the dealer. A file that already
used such a name for a param or a definition keeps its own meaning, with W621 and ``fmt --upgrade``."""

from __future__ import annotations

import random

from helpers import write_variant
from rulelang.loader import load_game
from rulelang.read.upgrade import upgraded
from validators.report import diagnostics_of

FIXED = """phases:
  - deal: {each: 8}
  - tricks: {among: seats, lead: P2, follow: [led_suit, any], win: [{highest: led_suit}]}
  - score: {each: seats, add: "if player in team(P1) then tricks(team(P1)) else 0"}
"""


def test_a_rule_names_a_fixed_seat_and_its_team(tmp_path):
    path = write_variant(tmp_path, "teams: [[1, 3], [2, 4]]\n" + FIXED)
    game = load_game(str(path), max_deals=1)
    state, rng = game.new_initial_state(), random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(rng)
        else:
            if state.tricks.trick == 0 and not state.tricks.trick_winners:
                assert state.current_player() == 1, "P2 leads the first trick, whoever deals"
            state.apply_action(rng.choice(state.legal_actions()))
    taken = sum(1 for winner, _ in state.tricks.trick_winners if winner in (0, 2))
    assert state.deal_results[-1]["delta"] == [taken, 0, taken, 0]


def test_a_param_already_named_like_a_seat_keeps_its_meaning_with_w621(tmp_path):
    path = write_variant(tmp_path, "params: {P1: 3}\n" + FIXED.replace("lead: P2", "lead: forehand")
                      .replace('add: "if player in team(P1) then tricks(team(P1)) else 0"', 'add: "P1"'))
    found = diagnostics_of(str(path))
    assert [d.code for d in found if d.code == "W621"] == ["W621"]
    assert not [d for d in found if d.is_error]
    assert "P1_" in upgraded({"params": {"P1": 3}, "x": "P1"})["params"]


def test_names_the_language_took_for_play_around_the_tricks_keep_a_files_meaning(tmp_path):
    """Issue 48's names (``stock_left``, ``aside_shown``, ``said_by``, ``picked``, …) in a file written before them."""
    path = write_variant(tmp_path, 'params: {stock_left: 3}\ndefine:\n  "picked(p)": "tricks({p}) > 0"\n'
                         '  said_by: "stock_left + 1"\n')
    found = diagnostics_of(str(path))
    assert sorted(d.message.split("'")[1] for d in found if d.code == "W621") == ["picked", "said_by", "stock_left"]
    assert not [d for d in found if d.is_error]
    new = upgraded({"params": {"stock_left": 3}, "define": {"picked(p)": "tricks({p}) > 0", "said_by": "stock_left"}})
    assert new["params"] == {"stock_left_": 3} and new["define"] == {"picked_(p)": "tricks({p}) > 0",
                                                                   "said_by_": "stock_left_"}
