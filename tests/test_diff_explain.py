"""``rulelang diff`` and ``rulelang explain``: goldens for three variants, and properties for every shipped game.

Regenerate the goldens with ``UPDATE_GOLDEN=1 python -m pytest tests/test_diff_explain.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulelang.cli.main import main
from rulelang.render.diff import align, diff_documents, diff_lines
from rulelang.render.explain import Reader, explain_game
from rulelang.loader import open_document, shipped_games
from helpers import assert_golden

GOLDEN = Path(__file__).resolve().parent / "golden"
GOLDEN_VARIANTS = ["zwanzig-ab-pagat", "zwanzig-ab-allekartenspiele", "fuenf-dazu"]



def run(capsys, *argv) -> tuple[int, str, str]:
    """Run the command line; (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def changes(a: str, b: str):
    return diff_documents(open_document(a).data, open_document(b).data)


# ---------------------------------------------------------------------- goldens
@pytest.mark.parametrize("name", GOLDEN_VARIANTS)
def test_diff_against_the_base_game_matches_the_golden(capsys, name):
    code, out, err = run(capsys, "diff", "zwanzig-ab", name)
    assert code == 0 and err == ""
    assert_golden(GOLDEN / "diff" / f"{name}.txt", out)


@pytest.mark.parametrize("name", GOLDEN_VARIANTS)
def test_explain_matches_the_golden(capsys, name):
    code, out, err = run(capsys, "explain", name)
    assert code == 0 and err == ""
    assert_golden(GOLDEN / "explain" / f"{name}.txt", out)


# ---------------------------------------------------------------------- diff
def test_diff_names_the_changed_rules_in_rule_terms():
    texts = [c.text for c in changes("zwanzig-ab", "zwanzig-ab-pagat")]
    assert "ranking: A 10 K Q J 9 8 7 → A K Q J 10 9 8 7" in texts
    texts = [c.text for c in changes("zwanzig-ab", "zwanzig-ab-allekartenspiele")]
    assert "param hearts_factor: 2 → 4" in texts
    assert "phase 6 decide: forbid pass when player == forehand or trump == diamonds → player == forehand or " \
           "trump == hearts or trump == clubs" in texts
    assert "exact finish added: 0" in texts
    texts = [c.text for c in changes("zwanzig-ab", "fuenf-dazu")]
    assert "start score: 20 → 15" in texts
    assert any(t.startswith("phase (was 6) removed: decide play | pass") for t in texts)
    assert "phase 7→5 tricks: head added: true" in texts


def test_diff_of_a_game_with_itself_and_with_its_dsl_twin_is_empty():
    assert changes("zwanzig-ab", "zwanzig-ab") == []
    root = Path(__file__).resolve().parent.parent / "games"
    assert changes(str(root / "zwanzig-ab.yaml"), str(root / "zwanzig-ab.rules")) == []


def test_diff_of_an_inserted_phase_does_not_shift_the_others():
    found = changes("zwanzig-ab", "zwanzig-ab-kartenspiele")
    phases = [c.text for c in found if c.section == "phases"]
    assert phases[0] == "phase 1 added: choose mode by forehand from blind, look"
    assert "phase 2→3 choose: only when mode == look (added)" in phases
    assert not any(t.split(":")[0].endswith(("decide", "tricks")) for t in phases)   # renumbered, unchanged


def test_diff_fills_in_named_packs():
    texts = [c.text for c in changes("zwanzig-ab", "zwanzig-ab-german")]
    assert "pack: skat32-french → skat32-german" in texts
    assert "ranking: A 10 K Q J 9 8 7 → A 10 K O U 9 8 7" in texts
    assert any(t.startswith("suits: clubs (♣)") and "bells (B, as diamonds)" in t for t in texts)


def test_diff_json_lists_every_change_with_its_section(capsys):
    code, out, _ = run(capsys, "diff", "--json", "zwanzig-ab", "zwanzig-ab-wikibooks-five")
    data = json.loads(out)
    assert code == 0 and data["a"] == "zwanzig-ab"
    assert {"section": "table", "what": "players", "change": "changed", "before": 4, "after": 5,
            "text": "players: 4 → 5"} in data["changes"]
    assert all(set(c) == {"section", "what", "change", "before", "after", "text"} for c in data["changes"])


def test_diff_lines_group_changes_under_section_titles():
    lines = diff_lines("zwanzig-ab", "zwanzig-ab-exact", changes("zwanzig-ab", "zwanzig-ab-exact"))
    assert lines == ["zwanzig-ab-exact against zwanzig-ab:", "The match", "  exact finish added: 0"]
    assert diff_lines("a", "a", []) == ["a against a:", "  no rule changes"]


def test_align_pairs_equal_phases_and_keeps_order():
    a = [{"deal": {"each": 2}}, {"talon": "rest"}, {"score": {"each": "active", "add": 1}}]
    b = [{"choose": {"var": "x", "by": "forehand", "from": ["p", "q"]}}, {"deal": {"each": 2}},
         {"score": {"each": "seats", "add": 1}}]
    assert align(a, b) == [(None, 0), (0, 1), (1, None), (2, 2)]


def test_diff_covers_contracts_items_and_counters():
    texts = [c.text for c in changes("zwanzig-ab", "zwanzigerrufen")]
    assert any(t.startswith("contract call added:") for t in texts)
    assert any(t.startswith("item mondfang added:") for t in texts)
    assert "counter double_deals (start) added: 0" in texts


# ---------------------------------------------------------------------- explain
@pytest.mark.parametrize("path", shipped_games(), ids=[p.name for p in shipped_games()])
def test_explain_renders_every_phase_contract_and_item_of_every_shipped_game(path):
    data = open_document(str(path)).data
    lines = explain_game(data)
    text = "\n".join(lines)
    numbered = set()
    for line in lines:
        if label := re.match(r"(\d+)(?:–(\d+))?\. ", line):
            numbered.update(range(int(label[1]), int(label[2] or label[1]) + 1))
    assert numbered == set(range(1, len(data["phases"]) + 1))
    for name in data.get("contracts") or {}:
        assert f"({name})" in text
    for name in data.get("items") or {}:
        assert f"({name})" in text
    assert "The end of the match" in text
    assert not [line for line in lines if line[:1].isdigit() and "`" in line]   # every expression was read


def test_explain_reads_expressions_in_words_with_param_values():
    reader = Reader({"hearts_factor": 2})
    assert reader.say("if trump == hearts then hearts_factor else 1") == \
        "hearts_factor (2) if trump is hearts, otherwise 1"
    assert reader.say("min(score) <= 0") == "the lowest of the scores is at most 0"
    assert reader.say("not callable in hand(player)") == "callable is not in the player's hand"
    assert reader.say("next(dealer) in active") == "the player after the dealer is one of the players still in"
    assert reader.say("-(tricks(player) + 1) * 2") == "minus (the player's tricks + 1) × 2"
    assert reader.say("tricks(player) > 0") == "the player took a trick"
    assert reader.say("trick_of('Mond') > 0") == "Mond was played"


def test_explain_shows_unknown_keys_rather_than_dropping_them():
    data = {"game": "x", "players": 2, "phases": [{"shuffle": {"times": 3}}, {"deal": {"each": 1, "face": "up"}}],
            "match": {"end": True, "bonus": 1}}
    text = "\n".join(explain_game(data))
    assert "1. Shuffle: times 3." in text and "(face: up)" in text and "(bonus: 1)" in text


def test_explain_says_a_choice_before_the_deal_is_made_before_any_card():
    text = "\n".join(explain_game(open_document("zwanzig-ab-wikibooks").data, "zwanzig-ab"))
    assert "1. Forehand chooses mode: one of blind, look, before any card is dealt." in text
    assert "A variant of zwanzig-ab" in text
    assert "Deal every player first_packet (3) cards" in text


def test_explain_tells_identical_steps_in_a_row_once_and_holdings_in_plain_words():
    text = "\n".join(explain_game(open_document("zwanzigerrufen").data))
    assert "2–3. Only if dealing is cut: deal every player 5 cards, one packet each, starting with forehand and " \
           "going anticlockwise, twice." in text
    assert "5. If a player holds no tarock, the cards are thrown in" in text
    assert "may throw the cards in the same way if he holds exactly one tarock" in text
    assert "May be bid when the player holds at least 5 cards that are not tarock" in text
    assert "The leader must lead a card that is not tarock, else any card." in text
    assert "the number of the tarock" not in text


def test_explain_of_a_card_turned_up_and_then_taken_up_does_not_say_nobody_holds_it():
    euchre = explain_game(open_document("euchre").data)
    turned = next(line for line in euchre if "turned up for everyone" in line)
    assert "nobody holds it for the rest of the deal" not in turned and "unless it is taken up" in turned
    oh_hell = "\n".join(explain_game(open_document("oh-hell").data))
    assert "nobody holds it for the rest of the deal" in oh_hell
