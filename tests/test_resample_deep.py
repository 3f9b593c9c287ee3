"""Resampling deep into deals of games where a seat knows more than the table: a pass it made, a dummy's plays."""

from __future__ import annotations

import random

import pytest

from rulelang.interpreter.agents import SeededChance, make_agent
from rulelang.interpreter.inference import public_voids
from rulelang.interpreter.worlds import determinize
from rulelang.interpreter.state import CHANCE
from rulelang.loader import load_game


def decision_states(name: str, deals: int, every: int):
    """Every ``every``-th decision state of ``deals`` random deals of the shipped game ``name``."""
    game = load_game(name, max_deals=1)
    for deal in range(deals):
        state, chance = game.new_initial_state(), SeededChance(deal)
        agents = [make_agent("random", deal * 1009 + s + 1) for s in range(game.num_players)]
        decisions = 0
        while not state.is_terminal():
            actor = state.current_player()
            if actor == CHANCE:
                chance.play(state)
                continue
            decisions += 1
            if decisions % every == 0:
                yield state.clone()
            state.apply_action(agents[actor].step(state))


@pytest.mark.parametrize("name", ["hearts", "hearts-three", "bridge"])
def test_resampling_succeeds_at_every_stage_of_the_trick_play(name):
    for index, state in enumerate(decision_states(name, 4, 9)):
        for seat in range(state.game.num_players):
            other = state.resample_from_infostate(seat, random.Random(index * 31 + seat))
            assert other is not None, f"no resampled state for seat {seat} at move {len(state.history)}"
            assert other.information_state_string(seat) == state.information_state_string(seat)


def test_a_seat_that_passed_cards_keeps_them_with_their_receiver_in_its_worlds():
    state = next(s for s in decision_states("hearts", 1, 1) if s.step.kind == "tricks")
    seat, part = 0, state.passing
    kept = part.passed[seat] & state.hands[part.targets[seat]]
    assert kept
    for k in range(20):
        world = determinize(state, seat, random.Random(k), public_voids(state, seat))
        assert world.hands[part.targets[seat]] & kept == kept


def test_a_dummy_that_does_not_follow_is_void_itself_and_its_declarer_is_not():
    checked = 0
    for state in decision_states("bridge", 6, 1):
        dummy, declarer = state.dummy.seat, state.dummy.by
        if dummy < 0 or state.step.kind != "tricks":
            continue
        observer = next(s for s in range(4) if s not in (dummy, declarer))
        voids = public_voids(state, observer)
        assert not voids[declarer] & state.hands[declarer]              # never a card the seat holds
        assert not voids[dummy] & state.hands[dummy]
        checked += 1
    assert checked > 100


def state_at(name: str, deal: int, moves: int):
    """Random deal ``deal`` of ``name`` (the soak's players) when its history reaches ``moves`` entries."""
    game = load_game(name, max_deals=1)
    state, chance = game.new_initial_state(), SeededChance(deal)
    agents = [make_agent("random", deal * 1009 + s + 1) for s in range(game.num_players)]
    while len(state.history) < moves:
        actor = state.current_player()
        if actor == CHANCE:
            chance.play(state)
        else:
            state.apply_action(agents[actor].step(state))
    return state


@pytest.mark.parametrize("deal, moves, seat, what", [
    (159, 90, 0, "a deal thrown in before this one"),
    (104, 100, 3, "a Suit Solo bid, which few plain worlds allow"),
])
def test_resampling_after_a_throw_in_and_after_a_rare_bid(deal, moves, seat, what):
    state = state_at("zwanzigerrufen", deal, moves)
    for k in range(5):
        other = state.resample_from_infostate(seat, random.Random(k))
        assert other is not None, what
        assert other.information_state_string(seat) == state.information_state_string(seat)


def test_a_seat_void_in_one_deal_is_not_taken_for_void_in_the_next():
    game = load_game("zwanzig-ab")
    state, chance = game.new_initial_state(), SeededChance(3)
    agents = [make_agent("random", s + 1) for s in range(game.num_players)]
    checked = 0
    while not state.is_terminal() and state.deal_number < 4:
        if state.current_player() == CHANCE:
            chance.play(state)
            continue
        if state.deal_number > 0:
            voids = public_voids(state, 0)
            assert all(not voids[s] & state.hands[s] for s in range(1, game.num_players)), \
                f"deal {state.deal_number + 1}: a seat is taken for void in a suit it holds"
            checked += 1
        state.apply_action(agents[state.current_player()].step(state))
    assert checked > 20
