"""What a trick is worth, learned per contract and side (rulelang.interpreter.agents.learned): a Null declarer
sheds tricks that a Grand declarer takes, the fits survive the cache folder and nothing else is read back from
it, and the real game's side is only used as far as the seat knows it."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from helpers import Table
from rulelang.interpreter.agents import learned, make_agent
from rulelang.interpreter.agents.heuristic import side_of
from rulelang.interpreter.agents.worth import trick_worth
from rulelang.loader import load_game

HANDS = {"P2": "JC JS AH 10H KH 9H AC 10C 7S 8D", "P3": "JH AS 10S KS QS 9S AD 10D KD QC",
         "P1": "JD QH 8H 7H KC 9C 8C 7C 8S QD"}
P2_DECLARES_AT_18 = ("P3 18", "P2 ja", "P3 passe", "P1 passe")


@lru_cache(maxsize=None)
def skat():
    return load_game("skat", max_deals=1)


def test_a_null_declarer_sheds_tricks_that_a_grand_declarer_takes():
    worth = trick_worth(skat())
    null = worth.lookup((None, "hand", "null_game", "simple"), "declaring")
    grand = worth.lookup((None, "pick_up", "grand", "simple"), "declaring")
    assert null[0] < 0 < grand[0]


def test_a_defender_that_scores_nothing_still_plays_against_the_declarer():
    suit = trick_worth(skat()).lookup((None, "pick_up", "suit", "simple"), "defending")
    assert suit[1] > 0                           # card points a defender takes are points the declarer lacks


def test_the_heuristic_null_declarer_ducks_under_the_card_led():
    t = Table(skat(), HANDS, dealer="P1")
    t.do(*P2_DECLARES_AT_18, "P2 hand", "P2 null_game", "P2 simple", "P2 7S", "P3 9S", "P1 8S", "P3 QC", "P1 7C")
    assert t.to_act() == "P2" and set(t.legal()) == {"A♣", "10♣", "J♣"}     # on the Q♣ led
    move = make_agent("heuristic", seed=1).step(t.state)
    assert t.state.action_to_string(move) == "J♣"     # the highest card under the Queen; the Ace would lose


def test_a_seat_that_does_not_know_its_side_gets_the_contracts_worth_for_either_side():
    game = load_game("zwanzigerrufen", max_deals=1)
    worth = trick_worth(game)
    state = game.new_initial_state()
    state.declarer, state.contract = 0, "call"
    values = (state.contract, *(state.vars.get(name) for name in worth.names))
    assert worth.known(state, 2, {2}) == worth.lookup(values, None)
    assert worth.known(state, 0, {0}) == worth.lookup(values, "declaring")


def test_the_fits_come_back_from_the_cache_folder_and_nothing_else_does(tmp_path, monkeypatch):
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path))
    game = load_game("hearts", max_deals=1)
    first = learned.cached_worth(game)
    monkeypatch.setattr(learned, "learn", lambda g: pytest.fail("learned again"))
    again = learned.cached_worth(game)
    assert again.overall == first.overall and again.groups == first.groups
    path = learned._path(game)
    for broken in ({"overall": [1, "x"], "groups": [], "tried": []}, {"overall": [1, 2]},
                   {"overall": [1, 2], "groups": [[[None, 3], None, 1, 2]], "tried": []}, [1, 2]):
        path.write_text(json.dumps(broken), encoding="utf-8")
        monkeypatch.setattr(learned, "learn", lambda g: first)
        assert learned.cached_worth(game) is first


def test_whether_the_declarer_has_a_partner_is_not_read_from_the_hidden_sides():
    game = load_game("zwanzigerrufen", max_deals=1)
    worth = trick_worth(game)
    alone, partnered = game.new_initial_state(), game.new_initial_state()
    for state, side in ((alone, 0b0001), (partnered, 0b0101)):        # the called card in the talon, or with P3
        state.declarer, state.contract, state.side_mask = 0, "call", side
    assert worth.known(alone, 1, {1}) == worth.known(partnered, 1, {1})
