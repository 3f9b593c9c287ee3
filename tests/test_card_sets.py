"""``played`` (the cards of the deal's finished tricks), ``holding(cards)`` (the seat that holds
cards now) and the ``french52`` pack, in a small Hearts-like game: a pass of three to the
left, the holder of 2♣ leads it, hearts may not be led until a heart has been played.
"""

from __future__ import annotations

import pytest

from helpers import Table
from rulelang.interpreter.game import IllegalActionError
from rulelang.loader import load_text

RULES = """
game broken-hearts "Hearts may not be led until broken"
players 4
deck french52
phases {
  deal each 13
  passing 3 to next(player)
  tricks among seats {
    lead holding({'2♣'})
    lead_from = ["if tricks_played == 0 then {'2♣'} else if count(played & hearts) > 0 then any else any - hearts",
                 "any"]
    follow led_suit, any
    win highest led_suit
  }
  score {
    each seats add count(dealt(player) & hearts) - count(hand(player) & hearts)
  }
}
match {
  start 0
  end when true
  winner lowest
}
"""
HANDS = {"P1": "2C 3C 4C 5C 6C 7C 8C 9C 2H 3H 4H 5H 6H",
         "P2": "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
         "P3": "10C JC QC KC AC 7H 8H 9H 10H JH QH KH AH",
         "P4": "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"}


@pytest.fixture(scope="module")
def game():
    return load_text(RULES)


def passed(game, p1: str) -> Table:
    """Dealt by P1 (P2 forehand, so P2 passes first), every seat's three cards passed to the left."""
    t = Table(game, HANDS)
    for who, cards in (("P2", "2♦ 3♦ 4♦"), ("P3", "7♥ 8♥ 9♥"), ("P4", "2♠ 3♠ 4♠"), ("P1", p1)):
        t.do(*(f"{who} {card}" for card in cards.split()))
    return t


def test_the_french52_pack_has_52_cards_ace_high(game):
    names = [card.name for card in game.deck.cards]
    assert len(names) == 52 and len(set(names)) == 52
    assert names[:2] == ["A♣", "K♣"] and names[-1] == "2♠"


def test_holding_names_the_seat_that_holds_the_card_now_after_it_was_passed(game):
    t = passed(game, p1="2♣ 3♣ 4♣")
    assert "2♣" in t.hand("P2")                       # P1 passed the 2♣ to P2
    assert t.to_act() == "P2"                          # holding({'2♣'}) leads, not P1, who was dealt it
    assert t.legal() == ["2♣"]                         # and the first lead is the 2♣


def test_hearts_may_not_be_led_until_a_heart_has_been_played(game):
    t = passed(game, p1="7♣ 8♣ 9♣")
    t.do("P1 2♣", "P2 7♣", "P3 10♣", "P4 5♠")        # P3 wins; P4, void in clubs, kept his hearts back
    assert t.to_act() == "P3"
    with pytest.raises(IllegalActionError) as caught:
        t.do("P3 10♥")
    diagnostic = caught.value.diagnostic
    assert diagnostic.code == "E504"
    assert "if count(played & hearts) > 0 then any else any - hearts` requires one of" in diagnostic.message
    t.do("P3 J♣")


def test_played_holds_the_cards_of_finished_tricks_only_and_a_heart_in_it_opens_hearts(game):
    t = passed(game, p1="7♣ 8♣ 9♣")
    state = t.state
    t.do("P1 2♣", "P2 7♣", "P3 10♣")
    assert state.tricks.played == 0                    # the trick on the table is not finished
    t.do("P4 7♥")                                      # P4, void in clubs, throws a heart
    assert set(game.deck.names(state.tricks.played)) == {"2♣", "7♣", "10♣", "7♥"}
    assert t.to_act() == "P3"
    t.do("P3 10♥")                                     # a heart has been played: hearts may be led
