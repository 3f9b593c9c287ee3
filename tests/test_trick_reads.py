"""The trick reads agree about the trick on the table, in card names.

`played_by(card)` once saw only finished tricks while `cards_played(seats)` saw the table too,
so a follow or win rule that asked who led (`played_by(led_card)`) silently got none. Now:

| read | a card in a finished trick | a card in the trick on the table |
|---|---|---|
| `played_by(card)` | the seat that played it | the seat that played it |
| `trick_of(card)` | its trick's number | the number of the trick on the table |
| `taken_by(card)` | the trick's winner | none: the trick is not won yet |
| `cards_played(seats)` | counted | counted |
| `holder(cards)` | the seat dealt them (play does not change it) | the same |

The game below reads them in its trick rules: a trick forehand leads must be followed (any
other leader's trick may be answered with any card), and in a trick the dealer leads the
highest card of any suit wins (in the others, the highest card of the suit led).
"""

from __future__ import annotations

import pytest

from helpers import SUITED_HANDS, Table, one_deal_of
from rulelang.loader import load_text

RULES = """
game reads "Trick reads on the table"
players 4
deck { pack skat32-french }
phases {
  deal each 8
  tricks among seats {
    lead forehand
    follow "if played_by(led_card) == forehand then led_suit else any", any
    win highest "if played_by(led_card) == dealer then any else led_suit"
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
HANDS = SUITED_HANDS


@pytest.fixture(scope="module")
def game():
    return load_text(RULES)


def dealt(game) -> Table:
    return Table(game, HANDS, dealer="P4")                         # P1 is forehand and leads


def test_a_trick_forehand_leads_must_be_followed(game):
    t = dealt(game)
    t.do("P1 A♠")
    assert sorted(t.legal()) == sorted(["10♠", "K♠"])               # played_by(led_card) is P1 while the trick is open


def test_a_trick_another_seat_leads_may_be_answered_with_any_card(game):
    t = dealt(game)
    t.do("P1 7♠", "P2 10♠", "P3 9♠", "P4 Q♠")                       # P2's 10♠ wins; P2 leads next
    assert t.to_act() == "P2"
    t.do("P2 A♥")
    assert len(t.legal()) == 7                                      # P3 may play any card, not only hearts


def test_a_win_rule_reads_who_led_the_open_trick(game):
    t = dealt(game)
    t.do("P1 7♠", "P2 10♠", "P3 9♠", "P4 J♠")                       # P1 led: P4 had to follow; the 10♠ wins
    t.do("P2 8♥", "P3 7♦", "P4 Q♥", "P1 7♣")                       # P2 led: the highest heart wins
    assert t.to_act() == "P4"
    t.do("P4 J♦", "P1 A♣", "P2 7♥", "P3 8♦")                       # the dealer led: the highest card of any suit
    assert t.to_act() == "P1"


def test_every_read_agrees_about_the_trick_on_the_table(game):
    t = dealt(game)
    t.do("P1 7♠", "P2 10♠", "P3 9♠", "P4 Q♠", "P2 A♥")
    state, name = t.state, game.seat_name
    from rulelang.compile import coderuntime as rt
    card = game.deck.lookup["a♥"]
    assert name(rt.played_by(state, card)) == "P2"
    assert rt.trick_of(state, card) == 2
    assert rt.taken_by(state, card) == -1
    assert rt.cards_played(state, 1 << 1) >> card & 1
    assert name(rt.holder(state, 1 << card)) == "P2"
    first = game.deck.lookup["10♠"]
    assert (name(rt.played_by(state, first)), rt.trick_of(state, first), name(rt.taken_by(state, first))) == \
        ("P2", 1, "P2")
    unplayed = game.deck.lookup["a♣"]
    assert (rt.played_by(state, unplayed), rt.trick_of(state, unplayed), rt.taken_by(state, unplayed)) == (-1, 0, -1)


def test_the_batch_engine_reads_the_open_trick_as_the_scalar_engine_does(game):
    pytest.importorskip("numpy")
    from rulelang.batch.engine import BatchRun
    from helpers import check_replays
    one_deal = one_deal_of(game)
    check_replays(one_deal, BatchRun(one_deal, 200, seed=5, record=True).play())
