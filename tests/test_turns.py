"""Turns of several steps per seat, and removing a base phase in a variant (reading A4 of Zwanzig ab)."""

from __future__ import annotations

from rulelang.interpreter.agents import ScriptedDeal
from rulelang.loader import load_game, open_document

HANDS = {
    0: ["10♠", "10♥", "A♦", "9♦", "8♦"],
    1: ["K♣", "J♣", "9♠", "Q♥", "8♥"],
    2: ["A♣", "A♠", "J♠", "J♥", "K♦"],
    3: ["K♠", "Q♠", "9♥", "J♦", "7♦"],
}
TALON = ["8♣", "Q♦", "9♣", "10♦", "A♥", "K♥", "7♥", "Q♣", "10♣", "7♣", "7♠", "8♠"]


def dealt_state(name: str):
    """A state of ``name`` after the deal above, dealer P2 (so forehand is P3), trump chosen: spades."""
    game = load_game(name, max_deals=1)
    state = game.new_initial_state()
    chance = ScriptedDeal(game, {s: [c for c in cards] for s, cards in HANDS.items()}, TALON, dealer=1)
    while state.is_chance_node():
        state.apply_action(chance.step(state))
    state.apply_checked(game.string_to_action("spades"))
    while state.is_chance_node():
        state.apply_action(chance.step(state))
    return game, state, chance


def test_the_variant_removes_the_base_games_separate_play_or_pass_phase():
    kinds = [next(iter(entry)) for entry in open_document("zwanzig-ab-interleaved").data["phases"]]
    assert kinds == ["deal", "choose", "deal", "talon", "turns", "tricks", "score"]


def test_each_player_says_play_or_pass_right_after_his_own_exchange():
    game, state, chance = dealt_state("zwanzig-ab-interleaved")
    say = lambda name: state.apply_checked(game.string_to_action(name))      # noqa: E731
    say("J♠")
    say("done")
    state.apply_action(chance.step(state))                    # P3 draws 8♣; forehand plays without asking
    assert state.decisions[2] == "play (forced)"
    assert state.current_player() == 3                        # P4 exchanges next ...
    say("done")
    assert [game.action_to_string(a) for a in state.legal_actions()] == ["play", "pass"]   # ... and decides at once
    say("pass")
    assert not state.active >> 3 & 1
    assert state.current_player() == 0 and state.step.kind == "exchange"


def test_in_the_base_game_all_exchanges_come_before_any_decision():
    game, state, chance = dealt_state("zwanzig-ab")
    state.apply_checked(game.string_to_action("done"))        # P3 keeps
    assert state.current_player() == 3 and state.phase.kind == "exchange"
