"""A holding shown to everyone (``show``): a poignée of spades on the 52-card stand-in of the Tarok
bidding file. Scenarios in card names, what every seat is shown before and after (states that differ
only in what a seat may not know), worlds that keep shown cards where they are, ``shown(SEATS)`` in a
score, the batch engine replayed through the scalar one.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulelang.interpreter.agents import ScriptedDeal
from rulelang.loader import load_text

BASE = (Path(__file__).parent / "bidding" / "tarok-bidding.yaml").read_text(encoding="utf-8")
SHOW = '  - show: {cards: "hand(player) & spades", may: "count(hand(player) & spades) >= 5", word: poignee%s}\n'
HANDS = {0: "A♠ K♠ Q♠ J♠ 10♠ 9♠ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥".split(),
         1: "8♠ 7♠ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♦ 3♦ 4♦ 5♦ 6♦".split(),
         2: "6♠ 5♠ 4♠ 3♠ 2♠ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦".split(),
         3: "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣".split()}
"""P1 six spades, P3 five: both may show; P2 two spades and P4 none may not."""


def game_with(extra: str = "", score: str | None = None):
    text = BASE.replace("  - tricks:\n", SHOW % extra + "  - tricks:\n")
    if score is not None:
        text = text.replace("  - settle: {pattern: declarers_share}\n", "  - score:\n      each: seats\n"
                            f"      add: \"{score}\"\n")
        text = text.replace("items:\n  game:\n    game: true\n    achieved: \"tricks(side) >= 7\"\n", "")
    return load_text(text, "yaml", max_deals=1)


def after_bidding(game, hands=HANDS):
    state = game.new_initial_state()
    ScriptedDeal(game, {seat: list(cards) for seat, cards in hands.items()}).play(state)
    for word in ("two", "pass", "pass", "pass", "two"):
        state.apply_action(game.symbol_ids[word])
    return state


def names(state, seat: int) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_every_seat_is_asked_in_turn_from_forehand_and_only_those_that_may_can_show():
    game = game_with()
    state = after_bidding(game)
    assert state.phase.kind == "show" and state.current_player() == 0
    assert sorted(names(state, 0)) == ["keep", "poignee"]
    state.apply_action(game.symbol_ids["keep"])
    assert state.current_player() == 1 and names(state, 1) == ["keep"], \
        "P2 (two spades) is asked all the same, so that being asked tells the others nothing"
    state.apply_action(game.symbol_ids["keep"])
    state.apply_action(game.symbol_ids["poignee"])
    assert names(state, 3) == ["keep"]
    state.apply_action(game.symbol_ids["keep"])
    assert state.phase.kind == "tricks"


def test_a_shown_holding_is_public_and_a_kept_one_is_not():
    game = game_with()
    state = after_bidding(game)
    for word in ("keep", "keep", "poignee", "keep"):
        state.apply_action(game.symbol_ids[word])
    seen = state.observation(1)
    assert seen["shown"] == {"P3": ["6♠", "5♠", "4♠", "3♠", "2♠"]} or \
        sorted(seen["shown"]["P3"]) == sorted(["6♠", "5♠", "4♠", "3♠", "2♠"])
    assert "P1" not in seen["shown"]
    assert "shown P3: " in state.information_state_string(1)


def test_observations_before_showing_do_not_depend_on_what_the_others_hold():
    """Two deals that differ only in P3's and P4's cards look the same to P1 until P3 shows."""
    game = game_with()
    swapped = dict(HANDS)
    swapped[2], swapped[3] = HANDS[2][:5] + HANDS[3][:8], HANDS[3][8:] + HANDS[2][5:]
    one, two = after_bidding(game), after_bidding(game, swapped)
    assert one.observation(0) == two.observation(0)
    for state in (one, two):
        state.apply_action(game.symbol_ids["keep"])
    assert one.observation(0) == two.observation(0)         # P2 asked, P3 not yet
    for state in (one, two):
        state.apply_action(game.symbol_ids["keep"])
        state.apply_action(game.symbol_ids["keep"])
    assert one.observation(0) == two.observation(0)          # P3 kept his spades hidden


def test_every_sampled_world_keeps_the_shown_cards_in_the_hand_that_showed_them():
    from rulelang.interpreter.worlds import determinize
    game = game_with()
    state = after_bidding(game)
    for word in ("keep", "keep", "poignee"):
        state.apply_action(game.symbol_ids[word])
    spades = sum(1 << game.deck.lookup[name.casefold()] for name in HANDS[2][:5])
    for seed in range(30):
        world = determinize(state, 1, random.Random(seed))
        assert world.hands[2] & spades == spades


def test_must_shows_without_asking():
    game = game_with(", must: true")
    state = after_bidding(game)
    assert state.phase.kind == "tricks"
    assert set(state.observation(3)["shown"]) == {"P1", "P3"}


def test_shown_reads_the_cards_shown_in_a_score():
    game = game_with(", must: true", score="count(shown({player}))")
    state = after_bidding(game)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.deal_results[-1]["delta"] == [6, 0, 5, 0]


def test_batch_shows_replay_through_the_scalar_engine():
    pytest.importorskip("numpy")
    from helpers import check_replays
    from rulelang.batch.engine import BatchRun
    for game in (game_with(), game_with(", must: true", score="count(shown({player}))")):
        check_replays(game, BatchRun(game, 200, seed=11, record=True).play())
