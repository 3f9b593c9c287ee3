"""A deal whose count depends on the seat, and a deal to some seats only (issue 40).

Belote's third deal in card names: the seat that took the turned card gets two more, the others three, so
every hand holds eight; a deal ``to: active`` gives nothing to a seat that dropped out; an explicit deal and
a log deal them alike; ``explain`` says it; the batch engine names what it lacks.
"""

from __future__ import annotations

import random

import pytest
import yaml

from helpers import Table, logged_random_match, seat
from rulelang.batch.engine import BatchRun
from rulelang.batch.vectorize import BatchUnsupported
from rulelang.loader import load_text
from rulelang.render.explain import explain_game

BELOTE_DEAL = """
game: belote-deal
title: Belote's deal
players: 4
teams: [[1, 3], [2, 4]]
seating: {first_dealer: random, next_dealer: 1, forehand: 1}
deck: {pack: skat32-french}
phases:
  - deal: {each: 3}
  - deal: {each: 2}
  - turn_up: {var: turned}
  - pick: {var: trump, from: suits, by: forehand, forbid: "value != suit(turned)"}
  - take_up: {by: declarer, discard: 0, when: "declarer != none"}
  - deal: {each: "if declarer == none then 0 else if player == declarer then 2 else 3"}
  - tricks:
      among: seats
      lead: forehand
      when: "declarer != none"
      follow: [led_suit, any]
      win: [{highest: trump}, {highest: led_suit}]
  - score: {each: seats, add: "tricks({player})", when: "declarer != none"}
match: {start: 0, end: "deal_number >= 1", winner: highest, tie: share}
"""

HANDS = {"P1": "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣", "P2": "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦", "P3": "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥",
         "P4": "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠"}
"""P2 deals only seven: the turned card, the 7♦, is his eighth."""


@pytest.fixture(scope="module")
def game():
    return load_text(BELOTE_DEAL, "yaml")


def test_the_taker_gets_two_more_and_the_others_three(game):
    deal = Table(game, HANDS, talon="7♦", dealer="P4")
    deal.do("P1 pass", "P2 diamonds")
    state = deal.state
    assert [bin(hand).count("1") for hand in state.hands] == [8, 8, 8, 8]
    assert deal.hand("P2") == {"A♦", "K♦", "Q♦", "J♦", "10♦", "9♦", "8♦", "7♦"}
    assert set(state.observation(seat("P1"))["hand"]) == deal.hand("P1") and len(deal.hand("P1")) == 8


def test_every_random_deal_gives_eight_cards_each_and_its_log_replays(game, tmp_path):
    for seed in range(20):
        rng, state = random.Random(seed), game.new_initial_state()
        while not state.is_terminal() and not (state.phase is not None and state.phase.kind == "tricks"):
            state.apply_action(rng.choice(state.legal_actions()))
        if state.declarer >= 0:
            assert [bin(hand).count("1") for hand in state.hands] == [8, 8, 8, 8], seed
        assert logged_random_match(game, seed, tmp_path)[2].ok


def test_a_deal_to_the_active_seats_skips_one_that_dropped_out(tmp_path):
    text = BELOTE_DEAL.replace('''  - deal: {each: 3}
  - deal: {each: 2}''', '''  - deal: {each: 3}
  - decide: {options: [stay, out], from: forehand, leave: out}
  - deal: {each: 2, to: active}''')
    game = load_text(text.replace("- pick:", "- set: {var: never, value: 0}\n  - pick:"), "yaml")
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.current_player() < 0:
        state.apply_action(rng.choice(state.legal_actions()))
    out = state.forehand
    state.apply_action(game.string_to_action("out"))
    while state.phase is not None and state.phase.kind == "decide":
        state.apply_action(game.string_to_action("stay"))
    while state.current_player() < 0 and state.phase is not None and state.phase.kind == "deal":
        state.apply_action(rng.choice(state.legal_actions()))
    assert bin(state.hands[out]).count("1") == 3
    assert all(bin(state.hands[s]).count("1") == 5 for s in range(4) if s != out)


def test_explain_says_it_and_the_batch_engine_names_what_it_lacks(game):
    text = "\n".join(explain_game(yaml.safe_load(BELOTE_DEAL)))
    assert "6. Deal every player 0 if the declarer is none, 2 if the player is the declarer, otherwise 3 cards" in text
    with pytest.raises(BatchUnsupported, match="depends on the seat"):
        BatchRun(game, 10, seed=0)
