"""Trumps that cross suits, with ``led_card`` (the card led to the trick), in card names.

A Schafkopf-like order with French cards: every Queen, then every Jack, then the diamonds are
trumps (Q♣ Q♠ Q♥ Q♦ J♣ J♠ J♥ J♦ A♦ 10♦ K♦ 9♦ 8♦ 7♦). A Queen led is a trump lead: a player
must follow with a trump, not with the Queen's suit; a club led is followed by clubs that are
not trumps. The order comes from the ``win`` fallbacks: the highest Queen, else the highest
Jack, else the highest diamond, else the highest card of the suit led.
"""

from __future__ import annotations

import pytest

from helpers import Table
from rulelang.diagnostics import RuleError
from rulelang.loader import load_text

RULES = """
game cross "Trumps across the suits"
players 4
deck {
  pack skat32-french
  tag queens = Q♣, Q♠, Q♥, Q♦
  tag jacks = J♣, J♠, J♥, J♦
}
phases {
  deal each 8
  tricks among seats {
    lead forehand
    follow "if led_card in queens | jacks | diamonds then queens | jacks | diamonds else led_suit - queens - jacks", any
    win highest queens, highest jacks, highest diamonds, highest led_suit
  }
  score {
    each seats add tricks(player)
  }
}
match {
  start 0
  end when true
  winner highest
}
"""
HANDS = {"P1": "Q♥ A♣ 10♣ K♣ 9♣ 8♣ 7♣ A♠", "P2": "Q♣ J♣ A♥ 10♥ K♥ 9♥ 8♥ 7♥",
         "P3": "J♥ 7♦ A♦ 10♠ K♠ 9♠ 8♠ 7♠", "P4": "Q♠ Q♦ J♠ J♦ 10♦ K♦ 9♦ 8♦"}


@pytest.fixture(scope="module")
def game():
    return load_text(RULES)


def dealt(game) -> Table:
    return Table(game, HANDS, dealer="P4")                         # P1 leads


def test_a_queen_led_is_followed_by_trumps_not_by_its_suit(game):
    t = dealt(game)
    t.do("P1 Q♥")
    assert sorted(t.legal()) == sorted(["Q♣", "J♣"])               # P2's hearts do not follow the Q♥
    t.do("P2 J♣")
    assert sorted(t.legal()) == sorted(["J♥", "7♦", "A♦"])


def test_a_plain_suit_led_is_followed_by_its_cards_that_are_not_trumps(game):
    t = dealt(game)
    t.do("P1 A♠")
    assert sorted(t.legal()) == sorted(["Q♣", "J♣", "A♥", "10♥", "K♥", "9♥", "8♥", "7♥"])   # void: any card
    t.do("P2 A♥", "P3 10♠")
    assert "Q♠" in t.legal() and "J♠" in t.legal() and len(t.legal()) == 8   # P4 has no plain spade


def test_the_win_fallbacks_rank_trumps_across_the_suits(game):
    t = dealt(game)
    t.do("P1 Q♥", "P2 J♣", "P3 A♦", "P4 Q♠")
    assert t.to_act() == "P4"                                       # Q♠ over Q♥ over J♣ over A♦
    t.do("P4 J♦", "P1 A♣", "P2 Q♣", "P3 J♥")
    assert t.to_act() == "P2"                                       # a void P1 threw A♣; Q♣ beats J♥ and J♦


def test_led_card_is_a_single_card_for_the_expression_checks():
    with pytest.raises(RuleError) as error:
        load_text(RULES.replace("if led_card in queens", "if led_card + 1 in queens"))
    assert error.value.diagnostics[0].code == "N210"
