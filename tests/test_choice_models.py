"""What a hand is worth under each option of a choice (interpreter/agents/choices.py), in card names.

The models are learned per rule file from simulated deals; these tests hold them to what any Skat player
knows of the hands below, to the arithmetic of the fit, and to the cache folder's rules.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

from helpers import Table, card_names
from rulelang.interpreter.agents import choices
from rulelang.interpreter.agents.choices import ChoiceModels, choice_models, features, from_json, predict, ridge, to_json
from rulelang.interpreter.agents.heuristic import _quick_move
from rulelang.interpreter.agents.worth import trick_worth
from rulelang.loader import load_game

DECLARES_AT_18 = ("P3 18", "P2 ja", "P3 passe", "P1 passe")


@lru_cache(maxsize=None)
def skat():
    return load_game("skat", max_deals=1)


def skat_table(hand: str, skat_cards: str, *moves: str) -> Table:
    """Skat with P2 (forehand) dealt ``hand`` and the Skat ``skat_cards``; the rest shared out in deck order."""
    game = skat()
    used = set(card_names(game, f"{hand} {skat_cards}"))
    rest = [card.name for card in game.deck.cards if card.name not in used]
    t = Table(game, {"P2": hand, "P3": " ".join(rest[:10]), "P1": " ".join(rest[10:20])}, talon=skat_cards)
    t.do(*moves)
    return t


def kind_worth(hand: str) -> dict[str, float]:
    """The models' estimate of P2's result under each kind of game, having declared Hand at 18."""
    t = skat_table(hand, "7D 8D", *DECLARES_AT_18, "P2 hand")
    row = features(t.state, t.state.current_player())
    return {option: predict(fit, row) for option, fit in choice_models(skat(), _quick_move).fits["kind"].items()}


def test_the_fit_finds_a_linear_rule_and_its_intercept():
    rng = random.Random(1)
    rows = [[float(rng.randrange(4)), float(rng.randrange(3))] for _ in range(200)]
    intercept, weights = ridge(rows, [3.0 + 2.0 * a - 1.0 * b for a, b in rows], penalty=1e-6)
    assert abs(intercept - 3.0) < 1e-3 and abs(weights[0] - 2.0) < 1e-3 and abs(weights[1] + 1.0) < 1e-3


def test_the_penalty_shrinks_a_weight_toward_nothing():
    rows = [[float(i % 2)] for i in range(20)]
    targets = [10.0 * row[0] for row in rows]
    assert ridge(rows, targets, penalty=1e-6)[1][0] > ridge(rows, targets, penalty=20.0)[1][0] > 0.0


def test_a_hand_of_low_cards_is_worth_most_as_a_null():
    worth = kind_worth("7C 8C 9C 7S 8S 9S 7H 8H 7D 9D")
    assert max(worth, key=worth.get) == "null_game"


def test_a_sound_null_hand_is_worth_a_won_null():
    """Seven, eight, nine in three suits and seven, nine in the fourth lose every trick: a Null won at 18 brings
    the declarer 23 and 50 (tournament scoring), so its estimate is above nothing; with a lone Ace for one of the
    nines the hand is worth less as a Null."""
    sound = kind_worth("7C 8C 9C 7S 8S 9S 7H 8H 7D 9D")
    assert sound["null_game"] > 0.0
    assert kind_worth("7C 8C 9C 7S 8S 9S 7H 8H 7D AD")["null_game"] < sound["null_game"]


def test_exposed_cards_are_those_more_low_cards_of_their_suit_can_force():
    game = skat()
    def exposed(hand):
        return choices._exposed(game, sum(1 << game.deck.lookup[name.casefold()] for name in card_names(game, hand)))
    assert exposed("7C 9C JC") == 0                     # each has as many of its own below as out
    assert exposed("AS") == 1 and exposed("8H") == 1    # the 7♥ out forces the 8♥
    assert exposed("7C 8C 9C 7S 8S 9S 7H 8H 7D 9D") == 0
    assert exposed("JC JS JH JD AC AS AH AD 10C 10S") == 10


def test_four_jacks_and_four_aces_are_worth_most_as_a_grand():
    worth = kind_worth("JC JS JH JD AC AS AH AD 10C 10S")
    assert max(worth, key=worth.get) == "grand"


def test_two_jacks_and_a_long_suit_are_worth_most_as_a_suit_game():
    worth = kind_worth("JC JS AH 10H KH QH 9H 7C 8S 9D")
    assert max(worth, key=worth.get) == "suit"


def test_the_second_round_plays_each_option_from_the_hands_it_suits():
    game = skat()
    models = choice_models(game, _quick_move)
    first = choices._explore(game, models, "kind", 20261206 + 1, _quick_move)
    trial = ChoiceModels(game, dict(models.fits, kind=choices._fit(first)))
    second = choices._explore_toward(game, trial, "kind", 20261207 + 1, _quick_move)
    ranks = list(dict.fromkeys(card.rank for card in game.deck.cards))
    def held(rows, option, *names):                     # cards of these ranks per hand, over the option's rows
        found = [row for chosen, row, _ in rows if chosen == option]
        return sum(row[ranks.index(name)] for row in found for name in names) / len(found)
    def won(rows, option):                              # the share of the option's rows that came out ahead
        found = [result for chosen, _, result in rows if chosen == option]
        return sum(result > 0 for result in found) / len(found)
    assert held(second, "null_game", "A", "10") < 0.8 * held(first, "null_game", "A", "10")
    assert won(second, "null_game") > 3 * won(first, "null_game")       # a Null played from a Null hand is won
    assert held(second, "grand", "J") > 1.5 * held(first, "grand", "J")
    assert {chosen for chosen, _, _ in second} == {"suit", "grand", "null_game"}


def test_only_choices_of_names_are_modelled_a_trump_suit_is_not():
    assert [phase.var for phase in choices.modelled_phases(skat())] == ["skat_play", "kind", "announcement"]
    assert choices.modelled_phases(load_game("zwanzig-ab", max_deals=1)) == []


def test_a_rollout_lays_away_neither_a_jack_nor_an_ace_after_picking_up():
    t = skat_table("JC JS JH AH AC 10H KH 7C 8S 9D", "7D 8D", *DECLARES_AT_18, "P2 pick_up")
    state = t.state
    laid = []
    for _ in range(2):
        card = _quick_move(state, state.legal_actions(), trick_worth(skat()), random.Random(0))
        laid.append(state.action_to_string(card))
        state.apply_action(card)
    assert not {name[0] for name in laid} & {"J", "A"}, laid


def test_a_null_declarer_in_a_rollout_ducks_with_his_strongest_card_that_loses():
    game = skat()
    hands = {"P2": "7C 8C KC 7S 8S 9S 7H 8H 9D 7D", "P3": "10D 9C AS KS QS JS 10S AH KH QH",
             "P1": "8D QC JC 10C AC JH 10H 9H AD KD"}
    t = Table(game, hands, talon="QD JD")
    t.do(*DECLARES_AT_18, "P2 hand", "P2 null_game", "P2 simple", "P2 9D", "P3 10D", "P1 8D", "P3 9C", "P1 10C")
    state = t.state
    card = _quick_move(state, state.legal_actions(), trick_worth(game), random.Random(0))
    assert state.action_to_string(card) == "8♣"            # under the 10♣, keeping the 7♣ for later; not K♣


def test_the_models_are_kept_in_the_cache_folder_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path))
    found = choice_models(skat(), _quick_move)
    path = choices._path(skat())
    choices._MODELS.clear()
    assert path is not None
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(to_json(found)), encoding="utf-8")
    again = choice_models(skat(), _quick_move)
    assert again.fits == found.fits


def test_a_damaged_or_foreign_cache_file_is_refit_not_trusted(tmp_path, monkeypatch):
    monkeypatch.setenv("RULELANG_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(choices, "CHOICE_DEALS", 40)
    path = choices._path(skat())
    path.parent.mkdir(parents=True, exist_ok=True)
    for text in ("{not json", json.dumps({"fits": {"kind": {"suit": [1.0, [1.0]]}}}),
                 json.dumps({"fits": {"elsewhere": {}}})):
        choices._MODELS.clear()
        path.write_text(text, encoding="utf-8")
        models = choice_models(skat(), _quick_move)
        width = len(features(skat().new_initial_state(), 0))
        assert all(len(weights) == width for options in models.fits.values() for _, weights in options.values())
    choices._MODELS.clear()


def test_learning_is_the_same_every_time(monkeypatch):
    monkeypatch.setattr(choices, "CHOICE_DEALS", 40)
    first = to_json(choices.learn(skat(), _quick_move))
    second = to_json(choices.learn(skat(), _quick_move))
    choices._MODELS.clear()
    assert first == second and first["fits"]


def test_json_of_another_shape_is_refused():
    models = ChoiceModels(skat(), {"kind": {"suit": (0.0, [0.0])}})
    data = to_json(models)
    try:
        from_json(skat(), data)
    except ValueError:
        return
    raise AssertionError("a model of the wrong width was read")
