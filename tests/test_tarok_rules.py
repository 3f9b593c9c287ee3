"""Tarok's rules in card names (games/tarok.yaml); OpenSpiel's code agrees move by move in
tests/test_tarok_openspiel.py, these say each rule by itself.

Deals are written seat by seat; cards not named are dealt in deck order to fill the hands and the talon.
"""

from __future__ import annotations

import pytest

from helpers import legal_names, named_deal, say
from rulelang.interpreter.agents import ScriptedDeal
from rulelang.loader import load_game


@pytest.fixture(scope="module")
def tarok():
    return load_game("tarok", max_deals=1)


def deal(game, named: dict[int, str], talon: str = ""):
    """A new deal in which each seat of ``named`` holds those cards and the talon starts with ``talon``."""
    return named_deal(game, named, 12, talon)


legal = legal_names


def klop(game, named):
    state = deal(game, named)
    say(state, "pass", "pass", "pass", "klop")
    return state


def test_the_pagat_wins_a_trick_holding_the_mond_and_the_skis(tarok):
    state = klop(tarok, {0: "XXI", 1: "Škis", 2: "I V", 3: "XX"})
    say(state, "XXI", "Škis", "I", "XX")
    assert state.tricks.taken == [0, 0, 1, 0]                # P3's Pagat took the Mond and the Škis


def test_in_klop_a_player_must_go_over_the_highest_tarok_on_the_table(tarok):
    state = klop(tarok, {0: "XX 7♠", 1: "XXI II", 2: "X III", 3: "Škis IV"})
    lead = {state.action_to_string(a) for a in state.legal_actions()}
    assert "I" not in lead
    say(state, "XX")
    assert legal(state) == {"XXI"}                         # P2 must beat the XX with the Mond
    say(state, "XXI")
    assert {"X", "III"} <= legal(state)                    # nobody can beat the Mond: any tarok


def test_in_klop_the_pagat_only_as_the_last_tarok(tarok):
    state = klop(tarok, {0: "XX", 1: "I II"})
    say(state, "XX")
    assert "I" not in legal(state) and "II" in legal(state)


def test_in_klop_the_pagat_must_be_played_onto_the_mond_and_the_skis(tarok):
    state = klop(tarok, {0: "XXI", 1: "Škis", 2: "I V"})
    say(state, "XXI", "Škis")
    assert legal(state) == {"I"}


def test_the_winners_of_the_first_six_klop_tricks_receive_a_talon_card(tarok):
    state = klop(tarok, {})
    talon_before = bin(state.talon).count("1")
    for _ in range(4):
        say(state, sorted(legal(state))[0])
    ScriptedDeal(tarok, {}, talon=tarok.deck.names(state.talon)).play(state)
    assert bin(state.talon).count("1") == talon_before - 1
    assert sum(bin(pile).count("1") for pile in state.won) == 5


def test_the_declarer_may_not_discard_a_king_or_a_trula_card(tarok):
    state = deal(tarok, {0: "K♥ I 7♠ 8♠", 1: "XXI"})
    say(state, "pass", "pass", "pass", "three", "K♦")      # P1 plays Three and calls the King of Diamonds
    ScriptedDeal(tarok, {}, talon=tarok.deck.names(state.talon)).play(state)
    say(state, "set1")
    assert {"K♥", "I"}.isdisjoint(legal(state)) and "7♠" in legal(state)
