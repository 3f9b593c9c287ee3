"""Packs with copies (``deck: {copies: 2}``), in card names: every card twice under one name.

A player holding both copies of a card has one move for it; a move or a log names a card and
the engine plays the copy that is legal; of two equal cards in a trick the first played wins
unless ``later_copy_wins`` names the card; a name in a rule stands for every copy; a rule that
needs a single card cannot name one (N232); chance deals every copy, each as likely.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from helpers import Table, seat
from rulelang.diagnostics import RuleError
from rulelang.loader import load_text
from rulelang.adapters.tensors import fill, shapes

RULES = """game copies "Two packs"

param later_tens = false

players 4

deck {
  pack skat32-french
  copies = 2
}

phases {
  deal each 8
  talon rest
  tricks among seats {
    lead forehand
    follow led_suit, any
    win highest led_suit
    later_copy_wins = "if later_tens then {'10♥'} else none"
  }
  score {
    each seats add count(won({player}) & {'A♣'}) + (if 'Q♠' in played then 10 else 0)
  }
}

match {
  start 0
  end when deal_number >= 1
  winner highest
}
"""
HANDS = {"P1": "A♣ A♣ 10♥ K♥ Q♥ J♥ 9♥ 8♥", "P2": "10♥ 7♥ 7♣ 8♣ 9♣ 10♣ J♣ Q♣",
         "P3": "A♠ A♠ K♠ K♠ Q♠ J♠ 10♠ 9♠", "P4": "A♦ A♦ K♦ K♦ Q♦ Q♦ J♦ J♦"}


def game(later_tens: bool = False):
    text = RULES.replace("param later_tens = false", f"param later_tens = {str(later_tens).lower()}")
    return load_text(text, "rules", max_deals=1)


def dealt(g=None) -> Table:
    return Table(g or game(), HANDS, dealer="P4")          # P1 leads


def test_the_pack_holds_every_card_twice_under_one_name():
    g = game()
    names = Counter(card.name for card in g.deck.cards)
    assert g.num_cards == 64 and set(names.values()) == {2} and len(names) == 32


def test_a_player_holding_both_copies_has_one_move_for_them_and_keeps_the_other_after_playing():
    t = dealt()
    assert t.legal().count("A♣") == 1 and len(t.legal()) == 7
    t.do("P1 A♣")
    assert "A♣" in t.hand("P1") and t.legal().count("A♣") == 0       # P2 must follow clubs: he holds no A♣
    assert t.state.hands[seat("P1")].bit_count() == 7


def test_of_two_equal_cards_in_a_trick_the_first_played_wins():
    t = dealt()
    t.do("P1 10♥", "P2 10♥", "P3 A♠", "P4 A♦")
    assert t.to_act() == "P1"                                          # P1's 10♥ came first


def test_later_copy_wins_lets_the_second_copy_of_a_named_card_win():
    t = dealt(game(later_tens=True))
    t.do("P1 10♥", "P2 10♥", "P3 A♠", "P4 A♦")
    assert t.to_act() == "P2"


def test_a_name_in_a_rule_stands_for_every_copy():
    t = dealt()
    t.do("P1 A♣", "P2 7♣", "P3 Q♠", "P4 A♦", "P1 A♣", "P2 8♣", "P3 A♠", "P4 A♦")   # P1 takes both A♣; the Q♠ falls
    state = t.state
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.scores[seat("P1")] == 2 + 10 and state.scores[seat("P3")] == 10


def test_a_rule_that_needs_one_card_cannot_name_a_card_of_two_copies():
    text = RULES.replace("count(won({player}) & {'A♣'})", "(if taken_by('A♣') == player then 1 else 0)")
    with pytest.raises(RuleError) as error:
        load_text(text, "rules")
    assert [d.code for d in error.value.diagnostics] == ["N232"]


def test_chance_deals_every_copy_and_each_is_as_likely_as_any_other_card():
    state = game().new_initial_state()
    while state.sub == "first_dealer" or not state.legal_actions() or state.legal_actions()[0] >= 64:
        state.apply_action(state.legal_actions()[0])
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 64 and {p for _, p in outcomes} == {1 / 64}


def test_a_log_that_names_a_card_replays_whichever_copy_is_held():
    t = dealt()
    t.state.apply_checked(t.game.string_to_action("A♣"))                # the first copy's number
    t.settle()
    t.do("P2 7♣", "P3 A♠", "P4 A♦")
    assert t.to_act() == "P1" and "A♣" in t.hand("P1")


def test_the_hand_tensor_counts_both_copies():
    g = game()
    t = dealt(g)
    pieces = {name: np.zeros(shape) for name, shape in shapes(g, True)}
    fill(pieces, t.state, seat("P1"))
    assert pieces["hand"].sum() == 8


def test_random_deals_give_every_name_at_most_twice_and_the_battery_invariants_hold():
    from test_battery import Playout
    g = game()
    for seed in range(30):
        state = Playout(g, seed, seed % 10 == 0).run()
        assert state.is_terminal()
    rng, state = random.Random(1), g.new_initial_state()
    state.apply_chance(rng)
    names = Counter(name for s in range(4) for name in g.deck.names(state.hands[s]))
    assert max(names.values()) <= 2 and sum(names.values()) == 32
