"""A suit stands for its cards, a card for its one-card set and a seat for its one-seat set wherever a
set is joined: `hearts | diamonds`, `'A♠' | 'K♠'`, `dealer | forehand` (once N214, "use + and * for
numbers", though docs/language.md says a suit stands for its cards where a card set is expected)."""

from __future__ import annotations

import pytest

from helpers import SUITED_HANDS, Table, one_deal_of
from rulelang.loader import load_text

RULES = """
game red "Red cards first"
players 4
deck { pack skat32-french }
phases {
  deal each 8
  tricks among seats {
    lead forehand
    follow "hearts | diamonds", "'A♠' | 'K♠'", any
    win highest "hearts | diamonds", highest led_suit
  }
  score {
    each "dealer | forehand" add tricks(player)
  }
}
match {
  start 0
  end when true
  winner highest
  tie share
}
"""
HANDS = SUITED_HANDS


@pytest.fixture(scope="module")
def game():
    return load_text(RULES)


def test_two_suits_joined_are_the_cards_of_both(game):
    t = Table(game, HANDS, dealer="P4")
    t.do("P1 A♣")
    assert sorted(t.legal()) == sorted(["A♥", "10♥", "K♥", "9♥", "8♥", "7♥"])     # red cards before the rest
    t.do("P2 A♥", "P3 A♦")
    assert sorted(t.legal()) == sorted(["Q♥", "J♥", "Q♦", "J♦"])


def test_two_cards_joined_are_a_set_of_two(game):
    t = Table(game, HANDS, dealer="P4")
    t.do("P1 7♣", "P2 A♥", "P3 7♦", "P4 J♦")                            # a red card wins: the A♥
    assert t.to_act() == "P2"
    t.do("P2 7♥", "P3 8♦", "P4 J♥")
    assert t.legal() == ["A♠"]                                          # P1 has no red card: A♠ of the pair



def test_the_batch_engine_joins_them_as_the_scalar_engine_does(game):
    pytest.importorskip("numpy")
    from rulelang.batch.engine import BatchRun
    from helpers import check_replays
    one_deal = one_deal_of(game)
    check_replays(one_deal, BatchRun(one_deal, 100, seed=2, record=True).play())
