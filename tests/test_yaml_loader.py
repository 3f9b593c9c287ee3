"""The YAML surface syntax: plain data, spans for every path, and Y1xx errors instead of tracebacks."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulelang.diagnostics import RuleError
from rulelang.read.document import Document
from rulelang.read.source import SOURCES
from rulelang.read.yamlload import MAX_BYTES, load_yaml
from helpers import assert_golden as golden_file

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "errors"


def assert_golden(name: str, text: str) -> None:
    """Compare ``text`` (plus a final newline) with ``tests/golden/errors/<name>.txt``."""
    golden_file(GOLDEN / f"{name}.txt", text + "\n")


def load(text: str, path: str = "test.yaml") -> Document:
    """Load dedented YAML text."""
    return load_yaml(textwrap.dedent(text), path)


def errors_of(text: str, path: str = "bad.yaml") -> list:
    """The diagnostics that loading ``text`` raises."""
    with pytest.raises(RuleError) as caught:
        load(text, path)
    return caught.value.diagnostics


NESTED = """\
    game: demo
    deck:
      pack: skat32-french
      remove: [7♣, 8♣]
    phases:
      - deal: {each: 2}
      - decide:
          options: [play, pass]
          forbid:
            pass: "player == forehand"
    """


def test_a_scalar_value_is_located_at_the_value_and_a_nested_block_at_its_key():
    doc = load(NESTED)
    span = doc.spans[("deck", "pack")]
    assert (span.line, span.column, span.end_line, span.end_column) == (3, 9, 3, 22)
    assert doc.spans[("deck",)].column == 1
    assert doc.spans[("phases", 1, "decide", "forbid", "pass")].line == 10
    assert doc.spans[("phases", 1, "decide", "forbid", "pass")].column == 15


def test_list_items_are_located_at_the_item_itself():
    doc = load(NESTED)
    assert (doc.spans[("deck", "remove", 1)].line, doc.spans[("deck", "remove", 1)].column) == (4, 16)
    assert (doc.spans[("phases", 0)].line, doc.spans[("phases", 0)].column) == (6, 5)
    assert (doc.spans[("phases", 1, "decide", "options", 0)].column) == 17


def test_every_path_of_the_data_has_a_span_and_the_root_is_the_empty_path():
    doc = load(NESTED)

    def paths(value, at=()):
        yield at
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
        for key, child in items:
            yield from paths(child, at + (key,))

    assert set(paths(doc.data)) == set(doc.spans)
    assert doc.spans[()].line == 1
    assert doc.span_of(("deck", "pack", "no", "such")) == doc.spans[("deck", "pack")]


def test_scalars_come_out_as_ints_floats_bools_strings_and_none():
    doc = load("""\
        players: 4
        ratio: 1.5
        open: true
        shut: false
        name: zwanzig-ab
        quoted: "10"
        nothing: ~
        day: 2024-01-01
        sign: =
        """)
    assert doc.data == {"players": 4, "ratio": 1.5, "open": True, "shut": False, "name": "zwanzig-ab",
                        "quoted": "10", "nothing": None, "day": "2024-01-01", "sign": "="}
    assert type(doc.data["players"]) is int


def test_keys_are_strings_as_written_so_a_rank_key_10_becomes_the_string_10():
    doc = load("""\
        points:
          10: 10
          A: 11
          true: 1
          0x1F: 2
        """)
    assert doc.data["points"] == {"10": 10, "A": 11, "true": 1, "0x1F": 2}


def test_the_document_knows_its_path_and_its_text_is_registered_for_quoting():
    doc = load("game: demo\nplayers: 4\n", "registered.yaml")
    assert doc.path == "registered.yaml"
    assert SOURCES.line("registered.yaml", 2) == "players: 4"


def test_the_shipped_zwanzig_ab_loads_to_plain_data():
    path = ROOT / "games" / "zwanzig-ab.yaml"
    doc = load_yaml(path.read_text(encoding="utf-8"), "games/zwanzig-ab.yaml")
    assert doc.data["players"] == 4
    assert doc.data["phases"][6]["tricks"]["win"] == [{"highest": "trump"}, {"highest": "led_suit"}]
    assert doc.spans[("phases", 6, "tricks", "alone")].line == 38


BILLION_LAUGHS = "\n".join(
    ['lol0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    + [f"lol{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
)

BAD_INPUTS = [
    # (case, text, code, line, column)
    ("colon in a plain value", "a: b: c\n", "Y101", 1, 5),
    ("tab indentation", "a:\n\tb: 1\n", "Y101", 2, 1),
    ("unclosed bracket", "a: [1, 2\n", "Y101", 2, 1),
    ("two documents", "a: 1\n---\nb: 2\n", "Y101", 2, 1),
    ("undefined alias", "a: *nowhere\n", "Y101", 1, 4),
    ("control character", "a: \x07\n", "Y101", 1, 4),
    ("value that does not fit its tag", "a: !!int many\n", "Y101", 1, 4),
    ("duplicate key", "a: 1\nb: 2\na: 3\n", "Y102", 3, 1),
    ("list as key", "? [a, b]\n: 1\n", "Y103", 1, 3),
    ("null key", "~: 1\n", "Y103", 1, 1),
    ("list at the top level", "- a\n- b\n", "Y104", 1, 1),
    ("text at the top level", "just words\n", "Y104", 1, 1),
    ("empty text", "", "Y105", 1, 1),
    ("only comments", "# nothing here\n", "Y105", 1, 1),
    ("nesting deeper than 64", "a: " + "[" * 70 + "]" * 70 + "\n", "Y111", 1, 68),
    ("more than 100 aliases", "a: &x 1\nb: [" + ", ".join(["*x"] * 101) + "]\n", "Y112", 2, 405),
    ("alias inside its own anchor", "a: &x [1, *x]\n", "Y112", 1, 11),
    ("python object tag", "a: !!python/object:os.system ls\n", "Y113", 1, 4),
    ("custom tag", "a: !card 10H\n", "Y113", 1, 4),
    ("binary tag", "a: !!binary aGVsbG8=\n", "Y113", 1, 4),
    ("merge key", "base: &b {x: 1}\nother:\n  <<: *b\n", "Y113", 3, 3),
]


@pytest.mark.parametrize("case, text, code, line, column", BAD_INPUTS, ids=[c[0] for c in BAD_INPUTS])
def test_each_bad_input_is_reported_with_its_code_at_the_right_line_and_column(case, text, code, line, column):
    first = errors_of(text)[0]
    assert (first.code, first.span.line, first.span.column) == (code, line, column)
    assert first.hint


def test_a_file_over_one_mebibyte_is_rejected_before_parsing():
    first = errors_of("a: '" + "x" * MAX_BYTES + "'\n")[0]
    assert (first.code, first.span.line, first.span.column) == ("Y110", 1, 1)


def test_a_document_expanding_to_too_many_values_is_rejected_with_y112():
    text = "a: [" + ", ".join(["1"] * 100_001) + "]\n"
    assert errors_of(text)[0].code == "Y112"


def test_a_billion_laughs_alias_bomb_is_rejected_quickly_with_y112():
    start = time.process_time()                 # CPU time: another busy core cannot break it
    diagnostics = errors_of(BILLION_LAUGHS)
    assert time.process_time() - start < 5.0
    assert diagnostics[0].code == "Y112"
    assert "expands to" in diagnostics[0].message


def test_aliases_within_the_limits_are_expanded_into_plain_copies():
    doc = load("a: &x {each: 3}\nb: *x\n")
    assert doc.data == {"a": {"each": 3}, "b": {"each": 3}}


def test_several_key_problems_are_reported_together():
    codes = [d.code for d in errors_of("a: 1\na: 2\n~: 3\nb: !!set {x}\n")]
    assert codes == ["Y102", "Y103", "Y113"]


def test_a_duplicate_key_points_back_at_its_first_occurrence():
    (duplicate,) = errors_of("a: 1\nb: 2\na: 3\n")
    text, span = duplicate.notes[0]
    assert "first given here" in text and (span.line, span.column) == (1, 1)


GOLDEN_CASES = {
    "yaml-syntax": "game: demo\nplayers: 4\ndeck:\n  pack: skat32: french\n",
    "yaml-duplicate-key": "game: demo\nplayers: 4\nplayers: 5\n",
    "yaml-unsafe-tag": "game: !!python/object/apply:os.system [ls]\n",
    "yaml-alias-bomb": BILLION_LAUGHS,
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_rendered_yaml_errors_match_their_golden_files(name):
    with pytest.raises(RuleError) as caught:
        load_yaml(GOLDEN_CASES[name], f"{name}.yaml")
    assert_golden(name, "\n\n".join(d.render() for d in caught.value.diagnostics))


YAML_PIECES = list("ab01 :-[]{}&*!#'\"|>?,%@`~\n\t.=<\u00e9") + ["!!python/object", "&a ", "*a", "  ", "- ", ": ", "<<"]
YAMLISH = st.lists(st.sampled_from(YAML_PIECES), max_size=60).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(), YAMLISH))
def test_any_text_either_loads_to_a_document_or_raises_a_rule_error(text):
    try:
        doc = load_yaml(text, "fuzz.yaml")
    except RuleError as error:
        assert error.diagnostics and all(d.code.startswith("Y") and d.hint for d in error.diagnostics)
    else:
        assert isinstance(doc, Document) and isinstance(doc.data, dict)
