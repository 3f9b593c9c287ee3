"""Definitions with parameters, compiled once each: what they mean, what is refused, and what they cost.

A definition is typed and compiled once per kind of use, so checking a file is linear in its
length however its definitions read each other (the doubling chain of issue 38); a circle of
definitions, a chain deeper than 64 and a rule that could take too long to work out are refused
at the line the author wrote. Costs are counted in compiled functions and steps, never in time.
"""

from __future__ import annotations

import pytest

from helpers import random_states
from rulelang.batch.state import from_states
from rulelang.batch.vectorize import BatchCode
from rulelang.diagnostics import RuleError
from rulelang.interpreter.runner import play_match
from rulelang.loader import load_game, load_text, parse_text
from rulelang.render.fmt import to_rules
from rulelang.validators.report import diagnostics_of_text

np = pytest.importorskip("numpy")

SCORED_BY_A_FUNCTION = """
game: worth
title: Zwanzig ab, scored through a definition with a parameter
extends: zwanzig-ab
define:
  factor: "if trump == hearts then hearts_factor else 1"
  "lost(seat)": "tricks(seat) * factor"
  "either(a, b)": "if a > 0 then 0 - a else b"
phases:
  8:
    score:
      each: active
      add: "either(lost(player), no_trick_bonus * factor)"
"""

def totals(game, seed: int) -> list[int]:
    state, _ = play_match(game, seed=seed)
    return list(state.scores)


def codes(text: str, name: str = "game.yaml") -> list[str]:
    return [d.code for d in diagnostics_of_text(text, name) if d.is_error]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_score_written_with_a_parameter_scores_as_the_one_written_out(seed):
    game = load_text(SCORED_BY_A_FUNCTION, "yaml", max_deals=4)
    assert totals(game, seed) == totals(load_game("zwanzig-ab", max_deals=4), seed)


def test_the_dsl_writes_parameters_in_brackets_and_fmt_round_trips_them():
    text = "game: t\nextends: zwanzig-ab\ndefine:\n  \"lost(seat)\": \"tricks(seat) * 2\"\n"
    rules = to_rules(parse_text(text, "t.yaml").data)
    assert "define lost(seat) = tricks(seat) * 2" in rules
    assert parse_text(rules, "t.rules").data["define"] == {"lost(seat)": "tricks(seat) * 2"}


def test_a_definition_with_parameters_compiles_to_one_function_called_where_it_is_read():
    text = SCORED_BY_A_FUNCTION.replace('"either(a, b)": "if a > 0 then 0 - a else b"',
                                        '"either(a, b)": "if a > 0 and a * a > b * 2 or a - b > 1 then 0 - a else b"')
    source = load_text(text, "yaml").definition.code.source()
    assert source.count(": either(a, b)") == 1          # one function, its docstring the definition's head
    assert source.count("(st, pl, _p0, _p1)") == 1


def test_a_parameter_takes_the_kind_of_its_argument_and_may_reuse_a_games_name():
    text = SCORED_BY_A_FUNCTION.replace('"lost(seat)": "tricks(seat) * factor"',
                                        '"lost(trump)": "tricks(trump) * factor + 0 * tricks(declarers)"')
    assert codes(text) == []


def test_the_wrong_number_of_arguments_is_reported_where_the_definition_is_read():
    found = diagnostics_of_text(SCORED_BY_A_FUNCTION.replace("lost(player)", "lost(player, 2)"), "g.yaml")
    (error,) = [d for d in found if d.is_error]
    assert error.code == "N216" and "'lost' takes 1 argument(s), got 2" in error.message
    assert error.hint == "write lost(seat)" and error.span.line == 13


def test_a_type_error_in_a_definition_is_reported_once_at_the_definition():
    text = SCORED_BY_A_FUNCTION.replace('"lost(seat)": "tricks(seat) * factor"', '"lost(seat)": "tricks(seat) * hearts"')
    text = text.replace("either(lost(player), ", "either(lost(player) + lost(player), ")
    found = [d for d in diagnostics_of_text(text, "g.yaml") if d.is_error]
    assert [d.code for d in found] == ["N210"] and found[0].span.line == 7


def test_a_definition_that_calls_itself_is_refused_at_its_line_with_the_chain():
    text = SCORED_BY_A_FUNCTION.replace('"if a > 0 then 0 - a else b"', '"if a > 0 then either(a - 1, b) else b"')
    (error,) = [d for d in diagnostics_of_text(text, "g.yaml") if d.is_error]
    assert error.code == "N234" and "either → either" in error.message and error.span.line == 8


def test_a_dsl_file_defines_and_reads_definitions_with_parameters_in_its_trick_rules_and_score():
    from rulelang.loader import shipped_games
    text = next(p for p in shipped_games() if p.name == "zwanzig-ab.rules").read_text(encoding="utf-8")
    text = text.replace("phases {", "define lost(seat, times) = tricks(seat) * times\n"
                        "define trumps_or(cards) = if trump == none then cards else trump\nphases {", 1)
    text = text.replace("win highest trump, highest led_suit", "win highest trumps_or(led_suit), highest led_suit")
    text = text.replace("then -tricks(player) * factor", "then -lost(player, factor)")
    assert "lost(player, factor)" in text and "trumps_or(led_suit)" in text
    game = load_text(text, "rules", max_deals=3)
    assert totals(game, 3) == totals(load_game("zwanzig-ab", max_deals=3), 3)


def doubling(levels: int, reads: int = 2) -> str:
    lines = ["extends: zwanzig-ab", "define:", '  d0: "tricks(player)"']
    step = " + ".join([f"d{{}}"] * reads)
    lines += [f'  d{i}: "{step.format(*[i - 1] * reads)}"' for i in range(1, levels + 1)]
    lines.append('phases:\n  8:\n    score: {each: active, add: "0 - d%d"}' % levels)
    return "\n".join(lines) + "\n"


def test_forty_definitions_each_reading_the_one_before_twice_are_checked_and_played_in_linear_work():
    game = load_text(doubling(40), "yaml", max_deals=2)
    code = game.definition.code
    assert len(code.definitions) <= 40               # each definition compiled once, not 2**40 times
    assert max(code.costs(len(game.deck.cards)).values()) < 2_000     # and worked out in linear steps
    source = code.source()
    assert "(_h0 := def_" in source                  # the second read is the first one's value
    state, _ = play_match(game, seed=1)
    assert state.is_terminal() or state.deal_number >= 2


def test_five_hundred_nested_definitions_give_a_located_diagnostic_not_a_recursion_error():
    found = diagnostics_of_text(doubling(500, reads=1), "deep.yaml")
    errors = [d for d in found if d.is_error]
    assert [d.code for d in errors] == ["N236"]
    assert errors[0].span.line == 67 and "d64 → d63" in errors[0].message


def test_a_chain_of_sixty_four_definitions_is_allowed():
    assert codes(doubling(63, reads=1)) == []


def test_a_rule_that_could_take_too_long_is_refused_before_play():
    lines = ["extends: zwanzig-ab", "define:", '  "f0(n)": "n + tricks(player)"']
    lines += [f'  "f{i}(n)": "f{i - 1}(n + 1) + f{i - 1}(n + 2)"' for i in range(1, 25)]
    lines.append('phases:\n  8:\n    score: {each: active, add: "0 - f24(0)"}')
    (error,) = [d for d in diagnostics_of_text("\n".join(lines), "g.yaml") if d.is_error]
    assert error.code == "N238" and "the limit is 1,000,000" in error.message


def test_a_definition_read_in_both_branches_costs_its_dearer_branch_only():
    lines = ["extends: zwanzig-ab", "define:", '  d0: "tricks(player)"']
    lines += [f'  d{i}: "if tricks(dealer) > {i % 3} then d{i - 1} + 1 else d{i - 1} * 2"' for i in range(1, 60)]
    lines.append('phases:\n  8:\n    score: {each: active, add: "0 - d59"}')
    assert codes("\n".join(lines)) == []


def test_a_definition_may_read_the_lets_of_the_score_that_reads_it():
    text = SCORED_BY_A_FUNCTION.replace('"lost(seat)": "tricks(seat) * factor"', '"lost(seat)": "tricks(seat) * f"')
    text = text.replace("      each: active\n", "      let: {f: \"factor\", g: \"f * f * f + f * f + f\"}\n"
                        "      each: active\n")
    text = text.replace("either(lost(player), ", "either(lost(player) + 0 * g * g * g * g, ")
    game = load_text(text, "yaml", max_deals=3)
    assert totals(game, 2) == totals(load_game("zwanzig-ab", max_deals=3), 2)


def test_definition_functions_have_batch_twins_that_agree_with_them():
    text = SCORED_BY_A_FUNCTION.replace('"either(a, b)": "if a > 0 then 0 - a else b"',
                                        '"either(a, b)": "if a > 0 and a * a > b * 2 or a - b > 1 then 0 - a else b"')
    game = load_text(text, "yaml", max_deals=3)
    code = BatchCode(game.definition.code)
    assert code.reasons == {}
    states = random_states(game, 1, 12, moves=(30, 60))
    batch = from_states(game, states, code.strings)
    score = next(r for r in game.definition.code.pending if "either(" in r.text)
    got = np.broadcast_to(code.fn(score)(batch, 0), (len(states),))
    assert [int(v) for v in got] == [score.fn(s, 0) for s in states]


def test_a_key_that_is_no_definition_head_is_refused():
    text = "extends: zwanzig-ab\ndefine:\n  \"f(a, a)\": \"a\"\n"
    assert codes(text) == ["N237"]
    with pytest.raises(RuleError):
        load_text("extends: zwanzig-ab\ndefine:\n  \"f(1)\": \"2\"\n", "yaml")
