"""``value_auction``, ``take_talon`` and ``choose … forbid`` as constructs of their own, outside Skat.

A small three-player game written in the DSL: bidding by numbers in duels, the declarer
taking the talon and discarding (never a Jack), and a choice with a forbidden value. The
DSL and YAML forms give the same document; ``explain`` says each rule; the heuristic player
judges only the lowest raise of a value auction and never reads a hidden card through a
definition.
"""

from __future__ import annotations

import random

import pytest

from rulelang.render.explain import explain_game
from rulelang.render.fmt import to_rules
from rulelang.interpreter.agents.heuristic import HeuristicAgent, candidates, public_score_phases
from rulelang.interpreter.game import IllegalActionError
from rulelang.interpreter.runner import play_match
from rulelang.loader import load_text, parse_text, resolve_document

RULES = """
game duel-bidding
players 3
deck { pack skat32-french  tag jacks = J♣, J♠, J♥, J♦ }
phases {
  deal each 10
  talon rest
  value_auction from forehand values [18, 20, 22, 24] into bid
  take_talon by declarer discard 2 forbid card in jacks when declarer != none
  choose kind by declarer from [plain, big] forbid value == big and bid < 22 when declarer != none
  tricks among seats when declarer != none { lead forehand  follow led_suit, any  win highest led_suit }
  score when declarer != none {
    each {declarer} add (if kind == big then 2 else 1) * (points({declarer}) + card_points(discarded({declarer})))
  }
}
match { start 0  end when deal_number >= 3  winner highest  tie share }
"""

YAML_PHASES = [
    {"deal": {"each": 10}},
    {"talon": "rest"},
    {"value_auction": {"from": "forehand", "values": [18, 20, 22, 24], "var": "bid"}},
    {"take_talon": {"by": "declarer", "discard": 2, "forbid": "card in jacks", "when": "declarer != none"}},
    {"choose": {"var": "kind", "by": "declarer", "from": ["plain", "big"], "forbid": "value == big and bid < 22",
                "when": "declarer != none"}},
]


@pytest.fixture(scope="module")
def game():
    return load_text(RULES, "rules", max_deals=1)


def to_act(game, seed: int, *words: str):
    """A state after the deal of ``seed`` and the given words, each said by whoever is to act."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    state.apply_chance(rng)
    for word in words:
        state.apply_checked(game.string_to_action(word))
        state.apply_chance(rng)
    return state


def said(state) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def test_the_dsl_writes_the_same_document_as_yaml():
    doc = resolve_document(parse_text(RULES, "duel.rules")).data
    assert doc["phases"][:5] == YAML_PHASES
    again = resolve_document(parse_text(to_rules(doc), "again.rules")).data
    assert again["phases"] == doc["phases"]


def test_explain_says_each_rule():
    text = "\n".join(explain_game(resolve_document(parse_text(RULES, "duel.rules")).data))
    assert "Bidding by numbers (18, 20, 22, 24): forehand listens first" in text
    assert "takes the talon into his hand, unseen by the others, and discards 2 card(s) face down" in text
    assert "He may not discard a card when" in text and "He may not choose a value when" in text


def test_the_words_of_speaker_and_listener(game):
    state = to_act(game, 1)
    speaker = state.current_player()
    assert said(state) == {"pass", "18", "20", "22", "24"}
    state = to_act(game, 1, "20")
    assert state.current_player() == state.forehand and said(state) == {"hold", "pass"}
    state = to_act(game, 1, "20", "hold")
    assert state.current_player() == speaker and said(state) == {"pass", "22", "24"}
    state = to_act(game, 1, "20", "hold", "24", "hold")
    assert said(state) == {"pass"}                                 # nothing above 24 is left to say


def test_the_talon_is_taken_and_no_jack_may_be_discarded(game):
    state = to_act(game, 2, "pass", "pass", "18")
    declarer = state.declarer
    assert declarer == state.forehand and bin(state.hands[declarer]).count("1") == 12 and state.talon == 0
    jacks = {c for c in range(game.num_cards) if game.deck.cards[c].rank == "J"}
    assert not jacks & set(state.legal_actions()) and set(state.legal_actions()) <= {
        c for c in range(game.num_cards) if state.hands[declarer] >> c & 1}
    held_jack = next((c for c in jacks if state.hands[declarer] >> c & 1), None)
    if held_jack is not None:
        with pytest.raises(IllegalActionError) as caught:
            state.apply_checked(held_jack)
        assert caught.value.diagnostic.code == "E524"


def test_a_forbidden_choice_is_refused_and_a_single_one_is_taken_without_asking(game):
    state = to_act(game, 3, "pass", "pass", "18")
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert state.vars["kind"] == "plain" and state.step.kind == "tricks"   # big forbidden below 22: not asked
    low = to_act(game, 3, "22", "hold", "pass", "pass")
    low.apply_action(low.legal_actions()[0])
    low.apply_action(low.legal_actions()[0])
    assert said(low) == {"plain", "big"}


def test_discards_count_for_the_declarer_and_whole_deals_play_out(game):
    for seed in range(8):
        state, _ = play_match(game, seed=seed)
        assert state.is_terminal() and state.stopped is None


def test_the_heuristic_judges_only_the_lowest_raise(game):
    state = to_act(game, 1, "20", "hold")
    assert {state.action_to_string(a) for a in candidates(state, state.legal_actions())} == {"pass", "22"}
    move = HeuristicAgent(seed=1, rollouts=8).step(state)
    assert state.action_to_string(move) in ("pass", "22")


def test_a_score_that_reads_a_hand_through_a_definition_is_not_public():
    text = RULES.replace("game duel-bidding", "game duel-bidding\ndefine mine = count(hand(declarer))") \
        .replace("add (if kind", "add mine + (if kind")
    assert public_score_phases(load_text(text, "rules", max_deals=1)) == []
    assert len(public_score_phases(load_text(RULES.replace("card_points(discarded({declarer}))", "0"),
                                             "rules", max_deals=1))) == 1


def test_all_pass_must_name_a_contract_of_the_game():
    from rulelang.diagnostics import RuleError
    import yaml
    doc = resolve_document(parse_text(RULES, "duel.rules")).data
    doc["phases"][2]["value_auction"]["all_pass"] = "ramsch"
    with pytest.raises(RuleError) as caught:
        load_text(yaml.safe_dump(doc, allow_unicode=True), "yaml", max_deals=1)
    assert [d.code for d in caught.value.diagnostics] == ["R370"]
    assert "which is not under `contracts`" in caught.value.diagnostics[0].message


def test_values_may_be_numbers_with_a_step():
    import yaml
    doc = resolve_document(parse_text(RULES, "duel.rules")).data
    doc["phases"][2]["value_auction"]["values"] = {"from": 18, "to": 24, "step": 2}
    stepped = load_text(yaml.safe_dump(doc, allow_unicode=True), "yaml", max_deals=1)
    assert said(to_act(stepped, 1)) == {"pass", "18", "20", "22", "24"}
    assert "Bidding by numbers (18, 20, 22, 24)" in "\n".join(explain_game(doc))
    again = resolve_document(parse_text(to_rules(doc), "again.rules")).data
    assert again["phases"][2] == doc["phases"][2], "the DSL keeps the step form"


def test_values_without_a_step_get_one_error_that_names_it():
    from rulelang.diagnostics import RuleError
    import yaml
    doc = resolve_document(parse_text(RULES, "duel.rules")).data
    doc["phases"][2]["value_auction"]["values"] = {"from": 18, "to": 24}
    with pytest.raises(RuleError) as caught:
        load_text(yaml.safe_dump(doc, allow_unicode=True), "yaml", max_deals=1)
    assert [d.code for d in caught.value.diagnostics] == ["C102"], "no second error that `to` is below `from`"
    assert "'step'" in caught.value.diagnostics[0].message
