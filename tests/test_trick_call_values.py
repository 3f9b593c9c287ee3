"""Calls of trick play by any seat, once a trick, with a value (issue 48), in a four-handed Whist in card names.

A leader may signal a card he holds (``value: cards``), a player who cannot follow may name the seat he wants
to win the trick (``value: seats``); rules read who said what, in which trick and how often (``said_by``,
``said_in``, ``times_said``, the deal variable of the value), the observation lists it for everyone, and
``explain`` says it.
"""

from __future__ import annotations

import pytest
import yaml

from helpers import Table, seat
from rulelang.loader import load_text
from rulelang.render.explain import explain_game

WHIST = """
game: signals
title: Whist with signals
players: 4
teams: [[1, 3], [2, 4]]
seating: {first_dealer: random, next_dealer: 1, forehand: 1}
deck: {pack: french52}
phases:
  - deal: {each: 13}
  - tricks:
      among: seats
      lead: forehand
      follow: [led_suit, any]
      win: [{highest: led_suit}]
      calls:
        signal:
          side: any
          once: trick
          value: cards
          var: signalled
          allow: "count(trick) == 0 and value in hand(player)"
        win_it:
          side: any
          once: trick
          value: seats
          var: wanted
          allow: "count(trick) > 0 and count(hand(player) & led_suit) == 0 and value in team(player)"
  - score:
      each: seats
      add: "times_said(signal, {player}) + (if said_by(win_it) == player then 10 * said_in(win_it) else 0)"
match: {start: 0, end: "deal_number >= 1", winner: highest, tie: share}
"""
SUITS = {"P1": "♣", "P2": "♦", "P3": "♥", "P4": "♠"}
HANDS = {who: " ".join(f"{rank}{suit}" for rank in "A K Q J 10 9 8 7 6 5 4 3 2".split()) for who, suit in SUITS.items()}


@pytest.fixture(scope="module")
def game():
    return load_text(WHIST, "yaml")


def test_the_leader_may_signal_a_card_he_holds_once_a_trick(game):
    deal = Table(game, HANDS, dealer="P4")
    signals = [name for name in deal.legal() if name.startswith("signal ")]
    assert sorted(signals) == sorted(f"signal {card}" for card in HANDS["P1"].split())
    deal.do("P1 signal A♣")
    assert game.action_to_string(deal.state.vars["signalled"]) == "A♣"
    assert not [name for name in deal.legal() if name.startswith("signal")], "once a trick"
    assert deal.state.observation(seat("P3"))["said"] == [("P1", "signal A♣")]


def test_a_player_who_cannot_follow_names_a_seat_of_his_team(game):
    deal = Table(game, HANDS, dealer="P4")
    deal.do("P1 A♣")
    assert {name for name in deal.legal() if name.startswith("win_it")} == {"win_it P2", "win_it P4"}
    deal.do("P2 win_it P4")
    assert deal.state.vars["wanted"] == seat("P4")


def test_rules_read_who_said_what_in_which_trick_and_how_often(game):
    deal = Table(game, HANDS, dealer="P4")
    deal.do("P1 signal A♣", "P1 A♣", "P2 2♦", "P3 2♥", "P4 2♠")
    deal.do("P1 signal K♣", "P1 K♣", "P2 win_it P2", "P2 3♦", "P3 3♥", "P4 3♠")
    for number in range(3, 14):
        rank = "A K Q J 10 9 8 7 6 5 4 3 2".split()[number - 1]
        low = "2 3 4 5 6 7 8 9 10 J Q K A".split()[number - 1]
        deal.do(f"P1 {rank}♣", f"P2 {low}♦", f"P3 {low}♥", f"P4 {low}♠")
    assert deal.state.deal_results[-1]["delta"] == [2, 20, 0, 0], "P1 signalled twice; P2 said win_it in trick 2"


def test_explain_says_who_may_say_a_call_with_a_value_and_how_often(game):
    text = "\n".join(explain_game(yaml.safe_load(WHIST)))
    assert "any player may say signal naming a card (kept as signalled) once a trick" in text
    assert "any player may say win_it naming a player (kept as wanted) once a trick" in text
