"""A plain suit's winner cashed before a low card is led (the heuristic's lead without a master).

A leader holding no card that beats every card out of sight — trumps are still out — cashes a plain suit's top
card where every other seat is likely still to hold that suit; where the suit is likely to be ruffed at once he
leads as before. What he reads of the others is public: hand sizes and cards laid open, never their cards."""

from __future__ import annotations

import pytest

from helpers import Table
from rulelang.interpreter.agents import make_agent
from rulelang.interpreter.agents.cardplay import _none_of, plain_winner, unseen_mask
from rulelang.interpreter.agents.worth import beats_masks
from rulelang.loader import load_game

AUCTION = ["P1 1spades", "P2 pass", "P3 3spades", "P4 pass", "P1 4spades", "P2 pass", "P3 pass", "P4 pass"]
"""North–South bid 4♠, East (P2) is on lead."""
NORTH = "AS KS QS JS 10S 9S AH KH 6D 5D 2D 4C 3C"
SOUTH = "8S 6S 4S 2S QH JH 10H 9H AD KD QD JD 10D"


@pytest.fixture(scope="module")
def bridge():
    return load_game("bridge", max_deals=1)


def opening_lead(game, east: str, west: str, south: str = SOUTH):
    """The state at East's opening lead against 4♠, East and West dealt ``east`` and ``west``."""
    t = Table(game, {"P1": NORTH, "P2": east, "P3": south, "P4": west})
    t.do(*AUCTION)
    assert t.state.step.kind == "tricks" and t.state.current_player() == 1
    return t.state


def winner_led(state) -> str | None:
    seat = state.current_player()
    legal = [a for a in state.legal_actions() if a < state.game.num_cards]
    found = plain_winner(state, seat, legal, unseen_mask(state, seat), beats_masks(state))
    return None if found is None else state.action_to_string(found)


def test_the_ace_of_a_suit_everyone_still_holds_is_cashed(bridge):
    state = opening_lead(bridge, "AC KC 5C 2C 8H 6H 4H 9D 7D 3D 7S 5S 3S",
                         "QC JC 10C 9C 8C 7C 6C 7H 5H 3H 2H 8D 4D")
    assert winner_led(state) == "A♣"
    assert state.action_to_string(make_agent("heuristic", 1).step(state)) == "A♣"


def test_a_suit_the_others_are_likely_void_in_is_not_cashed(bridge):
    # East holds eleven clubs: the two clubs out of his sight cannot be in all three other hands
    state = opening_lead(bridge, "AC KC QC JC 10C 9C 8C 7C 6C 5C 2C 7S 5S",
                         "3S 8H 7H 6H 5H 4H 3H 2H 9D 8D 7D 4D 3D")
    assert winner_led(state) is None


def test_only_public_facts_are_read(bridge):
    # the same East hand; West's and South's hidden cards swapped about: the same lead
    east = "AC KC 5C 2C 8H 6H 4H 9D 7D 3D 7S 5S 3S"
    one = opening_lead(bridge, east, "QC JC 10C 9C 8C 7C 6C 7H 5H 3H 2H 8D 4D")
    other = opening_lead(bridge, east, "8S 6S 4S 2S QH JH 10H 9H AD KD QD JD 10D",
                         south="QC JC 10C 9C 8C 7C 6C 7H 5H 3H 2H 8D 4D")
    assert winner_led(one) == winner_led(other) == "A♣"


def test_the_chance_of_a_hand_without_a_suit():
    assert _none_of(13, 39, 0) == 1.0
    assert _none_of(0, 39, 5) == 1.0
    assert _none_of(13, 13, 1) == 0.0
    assert _none_of(13, 26, 1) == pytest.approx(0.5)
    assert _none_of(13, 39, 2) == pytest.approx(26 / 39 * 25 / 38)
