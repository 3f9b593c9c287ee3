"""examples/hearts.rules in card names: the pass to the left on the first deal, the 2♣ lead by
whoever holds it, and no heart nor the Q♠ on the first trick while a player has another card."""

from __future__ import annotations

from helpers import ROOT, Table
from rulelang.loader import load_game

HANDS = {"P1": "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C", "P2": "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D",
         "P3": "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H", "P4": "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"}


def test_the_first_trick_is_led_with_the_2_of_clubs_and_takes_no_points_while_other_cards_are_held():
    game = load_game(str(ROOT / "examples" / "hearts.rules"), max_deals=1)
    t = Table(game, HANDS)
    for who, cards in (("P2", "2♦ 3♦ 4♦"), ("P3", "2♥ 3♥ 4♥"), ("P4", "2♠ 3♠ 4♠"), ("P1", "2♣ 3♣ 4♣")):
        t.do(*(f"{who} {card}" for card in cards.split()))
    assert t.to_act() == "P2" and t.legal() == ["2♣"]        # P1 passed the 2♣ to P2
    t.do("P2 2♣")
    assert sorted(t.legal()) == sorted(["2♦", "3♦", "4♦"])    # P3 holds hearts and the three diamonds passed to him
    t.do("P3 4♦")
    assert "Q♠" not in t.legal() and not any(card.endswith("♥") for card in t.legal())
    assert len(t.legal()) == 9                                 # P4's spades but the Q♠ (his hearts are the pass)
