"""Win rules that speak only of whole tricks: no player asks them of a trick half played.

`validate --simulate` played random deals and passed such a file, and the heuristic then stopped
the game with E553 ("no win rule applies to this trick"): it asked who was winning a trick of two
cards. A player now reckons a trick the rules name no winner of yet as won by nobody so far.

The rule file below names a winner only when four cards lie on the table. `validate` refuses it
(R360 probes a trick of the lead alone), so it is compiled here without the checks: the players
must cope with whatever rules they are given.
"""

from __future__ import annotations

import pytest

from helpers import SUITED_HANDS, Table
from rulelang.compile.compiler import compile_game
from rulelang.interpreter import Game
from rulelang.interpreter.runner import make_agents, play_match
from rulelang.loader import parse_text, resolve_document

RULES = """
game whole "Whole tricks only"
players 4
deck { pack skat32-french }
phases {
  deal each 8
  tricks among seats {
    lead forehand
    follow led_suit, any
    win highest "if count(cards_played(seats) - played) == 4 then led_suit else none"
  }
  score {
    each seats add tricks(player)
  }
}
match {
  start 0
  end when deal_number >= 2
  winner highest
  tie share
}
"""
HANDS = SUITED_HANDS


@pytest.fixture(scope="module")
def game():
    return Game(compile_game(resolve_document(parse_text(RULES, "<whole>.rules"))))


def test_the_rules_name_the_winner_of_a_whole_trick(game):
    t = Table(game, HANDS, dealer="P4")
    t.do("P1 7♠", "P2 10♠", "P3 9♠", "P4 Q♠")
    assert t.to_act() == "P2"


@pytest.mark.parametrize("agents", ["heuristic", "search:playouts=4"])
def test_players_finish_a_match_whose_win_rules_speak_of_whole_tricks(game, agents):
    state, _ = play_match(game, agents=make_agents(game, agents, 3), seed=3)
    assert state.is_terminal() and state.stopped is None and len(state.deal_results) == 2
