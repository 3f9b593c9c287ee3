"""What a pass says: a seat that passed at once holds a hand not worth declaring (``interpreter/agents/passes.py``).

Skat's value auction: the seats whose only word was a pass are named (``ValueAuction.passed_at_once``), a seat
that bid and then passed is not; the worlds the heuristic judges a bid on keep each such seat's hand weak by the
choice models (a hand of Jacks and Aces is ruled out, one of sevens and eights is not); the observer's own pass
and trick play give nothing; and what is inferred reads only who passed, never a hidden card.
"""

from __future__ import annotations

import random

import pytest

from rulelang.interpreter.agents.passes import pass_evidence
from rulelang.interpreter.agents.rollouts import _quick_move
from rulelang.interpreter.worlds import determinize
from rulelang.loader import load_game
from tests.zr_helpers import mask_of


@pytest.fixture(scope="module")
def skat():
    return load_game("skat", max_deals=1)


def after(game, seed: int, *words: str):
    """The state after the deal of ``seed`` and the words, each said by whoever is to act."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.current_player() < 0:
        state.apply_chance(rng)
    for word in words:
        names = {state.action_to_string(a): a for a in state.legal_actions()}
        assert word in names, f"{word!r} is not legal here: {sorted(names)}"
        state.apply_action(names[word])
        while state.current_player() < 0 and not state.is_terminal():
            state.apply_chance(rng)
    return state


def test_only_a_pass_said_at_once_is_named(skat):
    state = after(skat, 1, "passe")                       # middlehand passes without a word
    first = state.value_auction.said[0][0]
    assert skat.parts and [first] == [s for part in skat.parts for s in part.passed_at_once(state)]
    state = after(skat, 1, "18", "ja", "passe")           # middlehand bid 18, then passed at 20's turn
    bidder = state.value_auction.said[0][0]
    assert bidder not in [s for part in skat.parts for s in part.passed_at_once(state)]


def test_a_passed_seat_holds_no_declaring_hand(skat):
    state = after(skat, 2, "passe", "passe")               # two passes: forehand decides
    observer = state.current_player()
    found = pass_evidence(state, observer, _quick_move)
    assert sorted(e.seat for e in found) == sorted({0, 1, 2} - {observer})
    seat = found[0].seat
    world = state.clone()
    world.hands = list(world.hands)
    world.hands[seat] = mask_of(skat, "J♣ J♠ J♥ J♦ A♣ 10♣ A♠ 10♠ A♥ 10♥")
    assert not found[0].holds(world)
    world.hands[seat] = mask_of(skat, "7♣ 8♣ 7♠ 8♠ 9♠ 7♥ 8♥ 7♦ 8♦ 9♦")
    assert found[0].holds(world)
    worlds = [determinize(state, observer, random.Random(k), said=found) for k in range(20)]
    assert all(all(e.holds(w) for e in found) for w in worlds)


def test_nothing_is_said_by_ones_own_pass_or_in_trick_play(skat):
    state = after(skat, 3, "passe")
    passer = state.value_auction.said[0][0]
    assert pass_evidence(state, passer, _quick_move) == []
    state = after(skat, 3, "18", "ja", "passe", "passe")      # middlehand's 18 held by forehand, who declares
    rng = random.Random(3)
    for _ in range(20):
        if state.step is not None and state.step.kind == "tricks":
            break
        state.apply_chance(rng) if state.current_player() < 0 else state.apply_action(state.legal_actions()[0])
    assert state.step.kind == "tricks"
    assert pass_evidence(state, state.current_player(), _quick_move) == []


def test_what_is_inferred_reads_no_hidden_card(skat):
    """Two states that differ only in the cards the observer cannot see give the same seats and the same fits."""
    state = after(skat, 4, "passe")
    observer = state.current_player()
    other = determinize(state, observer, random.Random(9))
    assert other.hands[observer] == state.hands[observer] and other.hands != state.hands
    one, two = pass_evidence(state, observer, _quick_move), pass_evidence(other, observer, _quick_move)
    assert [(e.seat, e.fits) for e in one] == [(e.seat, e.fits) for e in two] and one

