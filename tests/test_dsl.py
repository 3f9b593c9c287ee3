"""The DSL loader: .rules files load into the same document as YAML, with spans and located errors."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulelang.diagnostics import RuleError
from rulelang.read.dsl import MAX_FILE_BYTES, load_dsl
from rulelang.read.dsl_errors import EXAMPLES
from rulelang.render.fmt import field_keywords, keywords
from rulelang.read.source import Span
from helpers import assert_golden as golden_file

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
GOLDEN = Path(__file__).resolve().parent / "golden" / "dsl"


def load(text: str, path: str = "test.rules"):
    return load_dsl(text, path)


def errors_of(text: str) -> list:
    with pytest.raises(RuleError) as caught:
        load(text, "bad.rules")
    return caught.value.diagnostics


def assert_golden(name: str, text: str) -> None:
    """Compare with ``tests/golden/dsl/<name>.txt``; rewrite it when UPDATE_GOLDEN=1."""
    golden_file(GOLDEN / f"{name}.txt", text)


# ---------------------------------------------------------------- the shipped game
def test_zwanzig_ab_rules_load_to_the_same_document_as_the_yaml():
    rules = load((GAMES / "zwanzig-ab.rules").read_text(encoding="utf-8"), "games/zwanzig-ab.rules")
    assert rules.data == yaml.safe_load((GAMES / "zwanzig-ab.yaml").read_text(encoding="utf-8"))


def test_spans_point_at_the_values_and_statements_in_the_file():
    doc = load((GAMES / "zwanzig-ab.rules").read_text(encoding="utf-8"), "z.rules")
    at = {path: (span.line, span.column) for path, span in doc.spans.items()}
    assert at[("game",)] == (4, 6)
    assert at[("title",)] == (4, 17)
    assert at[("params", "no_trick_bonus")] == (13, 24)
    assert at[("phases", 4)] == (30, 3)
    assert at[("phases", 4, "exchange", "max")] == (30, 30)
    assert at[("phases", 5, "decide", "options", 1)] == (31, 17)
    assert at[("phases", 5, "decide", "forbid", "pass")] == (32, 22)
    assert at[("phases", 6, "tricks", "win", 1, "highest")] == (37, 32)
    assert at[("match", "end")] == (48, 12)


def test_every_key_and_list_item_of_the_document_has_a_span():
    doc = load((GAMES / "zwanzig-ab.rules").read_text(encoding="utf-8"), "z.rules")
    paths = []

    def walk(node, path):
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            paths.append(path + (key,))
            walk(value, path + (key,))

    walk(doc.data, ())
    assert all(p in doc.spans for p in paths)
    assert doc.spans[()] == Span("z.rules", 1, 1)


def test_a_span_covers_the_whole_value_so_the_caret_underlines_it():
    doc = load("phases {\n  exchange from next(forehand) max 3\n}\n")
    span = doc.spans[("phases", 0, "exchange", "from")]
    assert (span.line, span.column, span.end_line, span.end_column) == (2, 17, 2, 31)


# ---------------------------------------------------------------- values
def test_bare_words_read_like_yaml_plain_scalars():
    doc = load('x = [1, 1.5, -2, true, false, null, A♣, 10♥, "10", zwanzig-ab]')
    assert doc.data == {"x": [1, 1.5, -2, True, False, None, "A♣", "10♥", "10", "zwanzig-ab"]}


def test_expression_fields_hold_canonical_text_and_integer_literals_stay_ints():
    doc = load("phases { deal each 2  exchange from next( forehand ) max n+1 }\nmatch { start -20 end when x==1 }")
    assert doc.data["phases"] == [{"deal": {"each": 2}}, {"exchange": {"from": "next(forehand)", "max": "n + 1"}}]
    assert doc.data["match"] == {"start": -20, "end": "x == 1"}


def test_a_quoted_string_in_an_expression_slot_is_kept_as_written():
    assert load('match { end when "min( score )<=0" }').data == {"match": {"end": "min( score )<=0"}}


def test_keywords_are_plain_keys_inside_a_generic_mapping():
    doc = load("phases { piles { from = forehand when = \"x\" count = 4 } }")
    assert doc.data == {"phases": [{"piles": {"from": "forehand", "when": "x", "count": 4}}]}


def test_the_grammar_takes_every_keyword_as_a_key_inside_a_generic_mapping():
    assert field_keywords() == keywords()


def test_deck_statements_build_suits_points_aliases_tags_and_removals():
    doc = load("""deck {
      pack skat32-french
      suit tarock T letter T naming rank with ranks Sküs, XXI, "10"
      suit hearts ♥ letter H
      ranks A, 10, K
      points A = 11, 10 = 10, "K♥" = 4
      alias Pagat = I
      alias Mond = XXI
      tag trull = Sküs, XXI, I
      remove 7♣, 7♠
    }""")
    assert doc.data["deck"] == {
        "pack": "skat32-french",
        "suits": [{"name": "tarock", "symbol": "T", "letter": "T", "ranks": ["Sküs", "XXI", "10"], "naming": "rank"},
                  {"name": "hearts", "symbol": "♥", "letter": "H"}],
        "ranks": ["A", 10, "K"],
        "points": {"A": 11, 10: 10, "K♥": 4},
        "aliases": {"Pagat": "I", "Mond": "XXI"},
        "tags": {"trull": ["Sküs", "XXI", "I"]},
        "remove": ["7♣", "7♠"],
    }


def test_phases_take_a_when_condition_and_unknown_kinds_in_the_generic_form():
    doc = load("phases { deal each 5 when dealing == cut  talon when true  settle { pattern = shares } }")
    assert doc.data["phases"] == [{"deal": {"each": 5, "when": "dealing == cut"}}, {"talon": {"when": True}},
                                  {"settle": {"pattern": "shares"}}]


def test_comments_and_line_breaks_are_free():
    assert load("# a game\ngame   x # its id\nplayers\n  4").data == {"game": "x", "players": 4}


# ---------------------------------------------------------------- diagnostics
BAD_INPUTS = {
    "S110_missing_closing_brace": ("S110", "seating {\n  first_dealer random\n"),
    "S110_missing_closing_bracket": ("S110", "x = [1, 2\n"),
    "S111_unexpected_closing_brace": ("S111", "players 4\n}\n"),
    "S112_missing_value_after_keyword": ("S112", "seating {\n  first_dealer\n}\n"),
    "S112_missing_expression": ("S112", "phases {\n  tricks {\n    lead\n  }\n}\n"),
    "S113_unknown_statement": ("S113", "seating {\n  lead forehand\n}\n"),
    "S113_unexpected_token_for_a_statement": ("S113", "phases {\n  deal each 2\n  = 3\n}\n"),
    "S114_unterminated_string": ("S114", 'about {\n  source "Brostedt\n}\n'),
    "S115_stray_character": ("S115", "players 4 @\n"),
    "S116_duplicate_statement": ("S116", "players 4\ndirection clockwise\nplayers 5\n"),
    "S116_duplicate_forbid": ("S116", "phases {\n  decide play | pass {\n    forbid pass when a\n"
                                      "    forbid pass when b\n  }\n}\n"),
    "S117_missing_equals_in_param": ("S117", "param hearts_factor 2\n"),
    "S117_missing_equals_in_let": ("S117", "phases {\n  score {\n    let factor if a then 2 else 1\n  }\n}\n"),
    "S118_bad_escape": ("S118", 'about {\n  source "a \\q b"\n}\n'),
    "S118_minus_without_number": ("S118", "players -four\n"),
    "S119_unexpected_token": ("S119", "phases {\n  tricks among active lead forehand\n}\n"),
    "S121_too_deeply_nested": ("S121", "x = " + "[" * 70 + "\n"),
    "S151_expression_too_deep": ("S151", "match {\n  end when " + "not " * 70 + "x\n}\n"),
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_each_syntax_mistake_gets_its_code_and_a_golden_message(name):
    code, text = BAD_INPUTS[name]
    diagnostics = errors_of(text)
    assert diagnostics[0].code == code
    assert all(d.hint for d in diagnostics)
    assert_golden(name, "\n\n".join(d.render() for d in diagnostics) + "\n")


def test_a_file_over_one_mebibyte_is_refused_before_parsing():
    (diagnostic,) = errors_of("game big\n#" + "x" * MAX_FILE_BYTES)
    assert diagnostic.code == "S120"
    assert_golden("S120_file_too_large", diagnostic.render() + "\n")


def test_an_overlong_inline_expression_is_refused():
    (diagnostic,) = errors_of("match { end when " + "+".join(["a"] * 2100) + " }")
    assert diagnostic.code == "S150"
    assert diagnostic.span.line == 1 and diagnostic.span.column == 18


def test_a_number_too_long_for_python_is_reported_not_raised():
    (diagnostic,) = errors_of("x = " + "7" * 5000)
    assert diagnostic.code == "S118"


def test_all_duplicates_of_a_file_are_reported_together():
    codes = [d.code for d in errors_of("players 4\nplayers 5\nparam x = 1\nparam x = 2\n")]
    assert codes == ["S116", "S116"]


def test_a_deep_chain_of_operators_is_refused_without_a_recursion_error():
    (diagnostic,) = errors_of("match { end when " + "-" * 3000 + "1 }")
    assert diagnostic.code == "S151"


def test_messages_never_name_lark_classes_or_terminals():
    for code, text in BAD_INPUTS.values():
        message = "\n".join(d.render() for d in errors_of(text))
        for word in ("Token", "Unexpected", "lark", "RBRACE", "LBRACE", "WORD", "$END"):
            assert word not in message


@pytest.mark.parametrize("label", sorted(EXAMPLES))
def test_every_labelled_example_gets_its_own_label(label):
    for text in EXAMPLES[label]:
        assert errors_of(text)[0].code == label, text


# ---------------------------------------------------------------- fuzzing
TOKENS = ["game", "about", "param", "players", "deck", "seating", "phases", "match", "deal", "each", "decide",
          "forbid", "when", "tricks", "among", "lead", "follow", "win", "highest", "score", "let", "add", "suit",
          "letter", "with", "ranks", "points", "{", "}", "[", "]", "(", ")", "=", "==", ",", "|", "-", "+", "x",
          "10", "A♣", '"s"', '"', "'A'", "#", "\n", " ", "not", "if", "then", "else", "@", "\\", "true", "null"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=200), st.lists(st.sampled_from(TOKENS), max_size=40).map(" ".join)))
def test_arbitrary_text_only_ever_raises_rule_errors(text):
    try:
        doc = load(text, "fuzz.rules")
    except RuleError as error:
        assert error.diagnostics and all(d.code.startswith("S") for d in error.diagnostics)
    else:
        assert isinstance(doc.data, dict)
