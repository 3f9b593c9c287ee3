"""The ``passing`` construct: each seat sets cards aside face down, then all are passed at once.

Scenarios in card names on ``examples/pass-three.rules`` (8 cards each from a 32-card pack,
three passed to the left on odd deals and to the right on even ones), the information each
seat gets, the errors of a bad pass, and the generic battery's invariants.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from helpers import Table, seat
from rulelang.diagnostics import RuleError
from rulelang.interpreter.game import IllegalActionError
from rulelang.loader import load_game, load_text
from test_battery import run_playouts

ROOT = Path(__file__).resolve().parents[1]
GAME_FILE = ROOT / "examples" / "pass-three.rules"
HANDS = {"P1": "7C 8C 9C 10C JC QC KC AC", "P2": "7S 8S 9S 10S JS QS KS AS",
         "P3": "7H 8H 9H 10H JH QH KH AH", "P4": "7D 8D 9D 10D JD QD KD AD"}


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME_FILE), max_deals=2)


def dealt(game) -> Table:
    """The first deal: P1 deals, so P2 is forehand and chooses first."""
    return Table(game, HANDS)


def test_each_seat_chooses_three_cards_from_forehand_and_nobody_receives_before_all_have_chosen(game):
    t = dealt(game)
    t.do("P2 7♠", "P2 8♠", "P2 9♠")
    assert t.to_act() == "P3"
    assert t.hand("P3") == set("7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥".split())      # P2's cards are not there yet
    assert t.hand("P2") == set("10♠ J♠ Q♠ K♠ A♠".split())
    t.do("P3 7♥", "P3 8♥", "P3 9♥", "P4 7♦", "P4 8♦", "P4 9♦", "P1 7♣", "P1 8♣", "P1 9♣")
    # deal 1 passes to the left (next seat): P1 → P2 → P3 → P4 → P1
    assert t.hand("P2") == set("10♠ J♠ Q♠ K♠ A♠ 7♣ 8♣ 9♣".split())
    assert t.hand("P3") == set("10♥ J♥ Q♥ K♥ A♥ 7♠ 8♠ 9♠".split())
    assert t.hand("P1") == set("10♣ J♣ Q♣ K♣ A♣ 7♦ 8♦ 9♦".split())
    assert t.to_act() == "P2"                                           # forehand leads the first trick


def test_the_second_deal_passes_to_the_right(game):
    t = dealt(game)
    for who, cards in (("P2", "7♠ 8♠ 9♠"), ("P3", "7♥ 8♥ 9♥"), ("P4", "7♦ 8♦ 9♦"), ("P1", "7♣ 8♣ 9♣")):
        t.do(*(f"{who} {c}" for c in cards.split()))
    state = t.state
    while state.deal_number == 0:
        state.apply_action(state.legal_actions()[0])
    t.dealer = "P2"
    t.deal(HANDS)
    assert t.to_act() == "P3"
    for who, cards in (("P3", "A♥ K♥ Q♥"), ("P4", "A♦ K♦ Q♦"), ("P1", "A♣ K♣ Q♣"), ("P2", "A♠ K♠ Q♠")):
        t.do(*(f"{who} {c}" for c in cards.split()))
    assert {"A♥", "K♥", "Q♥"} <= t.hand("P2") and {"A♣", "K♣", "Q♣"} <= t.hand("P4")


def test_a_seat_sees_what_it_passes_and_what_it_receives_and_nobody_else_does(game):
    t = dealt(game)
    t.do("P2 7♠", "P2 8♠")
    assert t.state.observation(seat("P2"))["passing"] == ["8♠", "7♠"] or \
        set(t.state.observation(seat("P2"))["passing"]) == {"7♠", "8♠"}
    assert "passing" not in t.state.observation(seat("P3"))
    assert "7♠" in t.state.information_state_string(seat("P2"))
    assert "7♠" not in t.state.information_state_string(seat("P3"))
    t.do("P2 9♠", "P3 7♥", "P3 8♥", "P3 9♥", "P4 7♦", "P4 8♦", "P4 9♦", "P1 7♣", "P1 8♣", "P1 9♣")
    p3 = t.state.information_state_string(seat("P3"))
    assert p3.endswith("| received 9♠ 8♠ 7♠") or p3.endswith("| received 7♠ 8♠ 9♠"), p3
    assert set(t.state.observation(seat("P3"))["received"]) == {"7♠", "8♠", "9♠"}
    assert "7♠" not in t.state.information_state_string(seat("P4"))
    assert "received" not in t.state.observation(seat("P4")) or \
        "7♠" not in t.state.observation(seat("P4"))["received"]


def test_two_deals_that_differ_only_in_what_another_seat_passed_look_the_same_to_a_third_seat(game):
    views = []
    for passed in ("7♠ 8♠ 9♠", "A♠ K♠ Q♠"):
        t = dealt(game)
        t.do(*(f"P2 {c}" for c in passed.split()))
        t.do("P3 7♥", "P3 8♥", "P3 9♥")
        views.append((t.state.information_state_string(seat("P4")), t.state.observation(seat("P4")),
                      t.state.legal_actions()))
    assert views[0] == views[1]


def test_a_card_not_held_cannot_be_passed_and_the_error_names_the_hand(game):
    t = dealt(game)
    with pytest.raises(IllegalActionError) as caught:
        t.do("P2 A♥")
    diagnostic = caught.value.diagnostic
    assert diagnostic.code == "E512"
    assert diagnostic.message == "P2 cannot pass A♥: it is not in P2's hand"
    assert diagnostic.hint == "pass one of " + " ".join(game.deck.names(t.state.hands[seat("P2")]))


def test_passing_more_cards_than_the_hands_hold_is_refused_before_play(tmp_path):
    text = GAME_FILE.read_text(encoding="utf-8").replace("passing 3", "passing 9")
    with pytest.raises(RuleError) as caught:
        load_text(text)
    assert [d.code for d in caught.value.diagnostics] == ["R329"]
    assert "each seat passes 9 cards but holds only 8 here" in caught.value.diagnostics[0].message


def test_the_yaml_form_and_the_dsl_form_are_one_document(tmp_path):
    from rulelang.render.fmt import to_rules, to_yaml
    from rulelang.loader import open_document
    document = open_document(str(GAME_FILE)).data
    assert document["phases"][1] == {"passing": {"count": 3, "to": "if deal_number % 2 == 0 then next(player) "
                                                                   "else prev(player)"}}
    assert "  passing 3 to if deal_number % 2 == 0 then next(player) else prev(player)\n" in to_rules(document)
    written = tmp_path / "pass-three.yaml"
    written.write_text(to_yaml(document), encoding="utf-8")
    assert open_document(str(written)).data == document


def test_random_play_keeps_every_invariant_of_the_battery():
    failures, deals = run_playouts(GAME_FILE, 1, [(seed, seed % 20 == 0) for seed in range(120)])
    assert not failures, failures[0]
    assert len(deals) == 120


def test_a_sampled_world_keeps_what_the_seat_knows():
    game = load_game(str(GAME_FILE), max_deals=1)
    rng, state = random.Random(4), game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(rng)
            continue
        for viewer in range(game.num_players):
            world = state.resample_from_infostate(viewer, random.Random(len(state.history) + viewer))
            if world is not None:
                assert world.information_state_string(viewer) == state.information_state_string(viewer)
                assert world.observation(viewer) == state.observation(viewer)
                checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 40


def test_openspiels_random_simulation_test_passes_on_a_game_with_a_pass():
    pyspiel = pytest.importorskip("pyspiel")
    import rulelang.adapters.openspiel  # noqa: F401 - registers the game
    game = pyspiel.load_game("rulelang", {"rules": str(GAME_FILE), "deals": 1})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
