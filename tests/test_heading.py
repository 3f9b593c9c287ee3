"""Which cards would head the trick (Stichzwang, and the heuristic's card play): worked out from the
trick's best card where every win rule is ``highest``, and the same as trying each card with the
win rules, in every shipped game; a rule whose cards read the trick on the table is tried card by card."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulelang.constructs.tricks import Tricks
from rulelang.loader import load_game, load_text, shipped_games

GAMES = shipped_games()
ROOT = Path(__file__).resolve().parents[1]


def heads_card_by_card(state, allowed: int) -> int:
    """``Tricks.heading`` with the shortcut turned off."""
    rules = state.tricks.rules
    tiers, rules.tiers = rules.tiers, None
    try:
        return Tricks.heading(state, allowed)
    finally:
        rules.tiers = tiers


@pytest.mark.parametrize("path", GAMES, ids=[p.name for p in GAMES])
def test_the_cards_that_head_a_trick_are_the_same_worked_out_or_tried(path):
    game = load_game(str(path), max_deals=1)
    rng = random.Random(path.name)
    tried = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.phase is not None and state.phase.kind == "tricks" and state.tricks.trick \
                    and state.current_player() >= 0:
                hand = state.hands[state.current]
                assert Tricks.heading(state, hand) == heads_card_by_card(state, hand)
                tried += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert tried


def test_zwanzig_ab_works_heading_out_and_a_rule_reading_the_trick_is_tried_card_by_card():
    text = (ROOT / "games" / "zwanzig-ab.yaml").read_text(encoding="utf-8")
    tricks = [p for p in load_text(text, "yaml").definition.phases if p.kind == "tricks"]
    assert [len(p.rules.tiers) for p in tricks] == [2]
    reading = load_text(text.replace("- highest: trump", "- highest: trump & trick"), "yaml")
    assert [p.rules.tiers for p in reading.definition.phases if p.kind == "tricks"] == [None]
