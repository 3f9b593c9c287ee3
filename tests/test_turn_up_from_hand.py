"""``turn_up`` from a seat's hand: Whist's dealer turns his own last card for trumps and keeps it (issue 48).

A four-handed Whist in card names: the card turned is the last one dealt to the dealer, it stays in his hand
face up to everyone until he plays it, no sampled world moves it, an explicit deal and a log say which card
it is, ``explain`` says the rule, and the batch engine names what it does not run.
"""

from __future__ import annotations

import json
import random

import pytest

from helpers import legal_names as legal, say
from rulelang.interpreter.agents import ScriptedDeal
from rulelang.interpreter.log import log_lines, read_log, write_log
from rulelang.interpreter.replay import replay
from rulelang.interpreter.runner import play_match
from rulelang.interpreter.worlds import determinize
from rulelang.loader import load_text
from rulelang.render.explain import explain_game

WHIST = """
game: whist
title: Whist, the dealer's last card trumps
players: 4
teams: [[1, 3], [2, 4]]
seating: {first_dealer: random, next_dealer: 1, forehand: 1}
deck: {pack: french52}
phases:
  - deal: {each: 13}
  - turn_up: {var: turned, from: dealer}
  - set: {var: trump, value: "suit(turned)"}
  - tricks: {among: seats, lead: forehand, follow: [led_suit, any], win: [{highest: trump}, {highest: led_suit}]}
  - score: {each: seats, add: "if tricks(team(player)) > 6 then tricks(team(player)) - 6 else 0"}
match: {start: 0, end: "max(score) >= 5", winner: highest, tie: share}
"""
SUITS = {0: "♣", 1: "♦", 2: "♥", 3: "♠"}
HANDS = {seat: [f"{rank}{SUITS[seat]}" for rank in "A K Q J 10 9 8 7 6 5 4 3 2".split()] for seat in range(4)}
"""One suit a seat; P4 deals and his last card, the 2♠, is turned: spades are trumps."""


@pytest.fixture(scope="module")
def game():
    return load_text(WHIST, "yaml", max_deals=1)


def dealt(game, hands=HANDS):
    state = game.new_initial_state()
    ScriptedDeal(game, {seat: list(cards) for seat, cards in hands.items()}, dealer=3).play(state)
    return state


def test_the_dealers_last_card_is_turned_for_trumps_and_stays_in_his_hand(game):
    state = dealt(game)
    assert game.action_to_string(state.vars["turned"]) == "2♠" and state.vars["trump"] == game.deck.suit_index("spades")
    assert state.hands[3] >> game.deck.lookup["2♠"] & 1
    assert all(state.observation(seat)["turned_up"] == ["2♠"] for seat in range(4))


def test_the_turned_card_is_public_until_played_and_no_world_moves_it(game):
    state = dealt(game)
    two = game.deck.lookup["2♠"]
    turn_up = next(part for part in game.parts if part.kind == "turn_up")
    assert turn_up.public_holdings(state) == {3: 1 << two}
    for seed in range(20):
        world = determinize(state, 0, random.Random(seed))
        assert world.hands[3] >> two & 1, "every world P1 imagines leaves the 2♠ with the dealer"
    say(state, "A♣", "K♦", "K♥")
    assert "2♠" in legal(state), "P4 has no club"
    say(state, "2♠")
    assert turn_up.public_holdings(state) == {} and state.observation(0)["turned_up"] == ["2♠"]


def test_two_deals_that_differ_only_in_the_dealers_hidden_cards_look_the_same_to_the_others(game):
    one = dealt(game)
    swapped = {**HANDS, 2: HANDS[2][:-1] + ["A♠"], 3: ["2♥"] + HANDS[3][1:]}   # P3 and P4 swap A♠ and 2♥
    two = dealt(game, swapped)
    assert one.observation(0) == two.observation(0)
    assert one.information_state_string(0) == two.information_state_string(0)


def test_an_explicit_deal_may_name_the_card_turned(game):
    state = game.new_initial_state()
    ScriptedDeal(game, {seat: list(cards) for seat, cards in HANDS.items()}, dealer=3, turned=["A♠"]).play(state)
    assert game.action_to_string(state.vars["turned"]) == "A♠"


def test_a_seeded_log_replays_and_a_written_deal_names_the_card_turned_from_the_hand(game, tmp_path):
    state, record = play_match(game, seed=4)
    path = tmp_path / "whist.jsonl"
    write_log(str(path), log_lines(game, 4, record, state))
    outcome = replay(read_log(str(path)), game)
    assert outcome.ok and outcome.state.history == state.history
    lines = [{"type": "header", "format": "rulelang-log/1", "game": "whist", "seats": ["P1", "P2", "P3", "P4"],
              "max_deals": 1},
             {"type": "deal", "deal": 1, "dealer": "P4", "hands": {f"P{s + 1}": HANDS[s] for s in range(4)},
              "talon": [], "turned_from_hand": ["J♠"]},
             {"type": "action", "seat": "P1", "action": "A♣"}]
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    replayed = replay(read_log(str(path)), game).state
    assert game.action_to_string(replayed.vars["turned"]) == "J♠"


def test_explain_says_the_card_stays_in_the_dealers_hand():
    import yaml
    text = "\n".join(explain_game(yaml.safe_load(WHIST)))
    assert "The last card dealt to the dealer is turned up for everyone to see (turned); it stays in his hand" in text


def test_the_batch_engine_names_what_it_does_not_run(game):
    pytest.importorskip("numpy")
    from rulelang.batch.engine import BatchRun
    from rulelang.batch.vectorize import BatchUnsupported
    with pytest.raises(BatchUnsupported, match="turn_up `from` a seat"):
        BatchRun(game, 10, seed=0)
