"""``define``: named expressions, worked out where they are read, in YAML and the DSL."""

from __future__ import annotations

import pytest

from rulelang.validators.report import diagnostics_of_text
from rulelang.diagnostics import RuleError
from rulelang.render.explain import explain_game
from rulelang.render.fmt import to_rules
from rulelang.interpreter.runner import play_match
from rulelang.loader import load_game, load_text, parse_text, resolve_document

VARIANT = """
game: defined
title: Zwanzig ab, scored through definitions
extends: zwanzig-ab
define:
  factor: "if trump == hearts then hearts_factor else 1"
  lost: "tricks(player) * factor"
phases:
  8:
    score:
      each: active
      add: "if tricks(player) > 0 then 0 - lost else no_trick_bonus * factor"
"""


def totals(game, seed: int) -> list[int]:
    state, _ = play_match(game, seed=seed)
    return list(state.scores)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_score_written_with_definitions_scores_as_the_one_written_out(seed):
    assert totals(load_text(VARIANT, "yaml", max_deals=4), seed) == totals(load_game("zwanzig-ab", max_deals=4), seed)


def test_player_in_a_definition_is_the_seat_of_the_place_that_reads_it():
    text = VARIANT.replace('lost: "tricks(player) * factor"', 'lost: "tricks(player) * factor + 0 * tricks(dealer)"')
    game = load_text(text, "yaml", max_deals=3)
    assert totals(game, 5) == totals(load_game("zwanzig-ab", max_deals=3), 5)


def test_a_variant_overrides_one_definition_by_name(tmp_path):
    (tmp_path / "defined.yaml").write_text(VARIANT, encoding="utf-8")
    (tmp_path / "doubled.yaml").write_text("game: doubled\ntitle: Doubled\nextends: defined.yaml\ndefine:\n"
                                           "  factor: \"2\"\n", encoding="utf-8")
    base, doubled = load_game(str(tmp_path / "defined.yaml"), 2), load_game(str(tmp_path / "doubled.yaml"), 2)
    state, _ = play_match(doubled, seed=4)
    plain, _ = play_match(base, seed=4)
    assert state.history[:40] == plain.history[:40]
    assert state.scores != plain.scores


def test_the_dsl_writes_definitions_as_statements_and_fmt_round_trips_them():
    doc = resolve_document(parse_text(VARIANT, "defined.yaml"))
    rules = to_rules(parse_text(VARIANT, "defined.yaml").data)
    assert "define factor = if trump == hearts then hearts_factor else 1" in rules
    assert "define lost = tricks(player) * factor" in rules
    again = resolve_document(parse_text(rules, "defined.rules"))
    assert again.data["define"] == doc.data["define"]
    assert totals(load_text(rules, "rules", max_deals=2), 7) == totals(load_text(VARIANT, "yaml", max_deals=2), 7)


def test_explain_lists_the_definitions_in_words():
    data = resolve_document(parse_text(VARIANT, "defined.yaml")).data
    text = "\n".join(explain_game(data))
    assert "Definitions" in text and "lost means the player's tricks × factor" in text


def test_a_type_error_in_a_definition_is_reported_at_the_definition():
    text = VARIANT.replace('lost: "tricks(player) * factor"', 'lost: "hearts * 2"')
    found = [d for d in diagnostics_of_text(text, "defined.yaml") if d.is_error]
    assert found and found[0].span.line == 7 and found[0].span.path == "defined.yaml"
    with pytest.raises(RuleError):
        load_text(text, "yaml")


def test_a_definition_read_in_trick_rules_may_use_the_names_of_trick_rules():
    text = VARIANT.replace("define:\n", "define:\n  suit_led: \"led_suit\"\n") + \
        "  7:\n    tricks:\n      among: active\n      lead: forehand\n      follow: [suit_led, trump, any]\n" \
        "      win: [{highest: trump}, {highest: led_suit}]\n      alone: takes_all\n"
    assert totals(load_text(text, "yaml", max_deals=3), 8) == totals(load_game("zwanzig-ab", max_deals=3), 8)


def test_an_error_in_a_definition_brings_no_second_error_where_it_is_read():
    text = VARIANT.replace('lost: "tricks(player) * factor"', 'lost: "tricks(player) * factor"\n  reds: "hearts + diamonds"')
    text = text.replace('add: "if tricks(player) > 0', 'add: "count(won({player}) & reds) + (if tricks(player) > 0')
    text = text.replace('else no_trick_bonus * factor"', 'else no_trick_bonus * factor)"')
    errors = [d for d in diagnostics_of_text(text, "<defined>.yaml") if d.is_error]
    assert [(d.code, d.span.line) for d in errors] == [("N210", 8)]   # at the definition; no N214 at the use


def test_a_seat_or_none_and_the_empty_set_may_be_defined_and_read():
    text = VARIANT.replace('lost: "tricks(player) * factor"', 'lost: "tricks(player) * factor"\n'
                           '  chooser: "if trump == hearts then forehand else none"\n  nothing: "none"')
    text = text.replace('add: "if tricks(player) > 0', 'add: "count(won({player}) & nothing) + '
                        '(if chooser == player then 1 else 0) + (if tricks(player) > 0')
    text = text.replace('else no_trick_bonus * factor"', 'else no_trick_bonus * factor)"')
    assert [d for d in diagnostics_of_text(text, "<defined>.yaml") if d.is_error] == []
    game = load_text(text, "yaml")
    state, _ = play_match(game, seed=2)
    assert state.is_terminal()
