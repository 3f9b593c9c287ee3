"""The rule document's JSON Schema and its check, with messages in the game author's words."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rulelang.diagnostics import Diagnostic
from rulelang.read.document import Document
from rulelang.validators.schema import check_schema, phase_kinds, schema
from rulelang.read.yamlload import load_yaml
from helpers import assert_golden as golden_file

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "errors"
ZWANZIG = (ROOT / "games" / "zwanzig-ab.yaml").read_text(encoding="utf-8")


def assert_golden(name: str, text: str) -> None:
    """Compare ``text`` (plus a final newline) with ``tests/golden/errors/<name>.txt``."""
    golden_file(GOLDEN / f"{name}.txt", text + "\n")


def zwanzig_with(old: str, new: str, path: str = "variant.yaml") -> Document:
    """The shipped Zwanzig ab with one piece of its text replaced."""
    assert old in ZWANZIG
    return load_yaml(ZWANZIG.replace(old, new, 1), path)


def problems(old: str, new: str) -> list[Diagnostic]:
    """The schema diagnostics of Zwanzig ab with ``old`` replaced by ``new``."""
    return check_schema(zwanzig_with(old, new))


def test_the_shipped_zwanzig_ab_passes_the_schema_with_no_diagnostics():
    assert check_schema(load_yaml(ZWANZIG, "games/zwanzig-ab.yaml")) == []


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_property_in_the_schema_has_a_description_for_editors():
    def missing(node, at="#"):
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                if "description" not in sub:
                    yield f"{at}/properties/{key}"
            for key, sub in node.items():
                yield from missing(sub, f"{at}/{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                yield from missing(sub, f"{at}/{i}")

    assert list(missing(schema())) == []


def test_the_schema_is_strict_about_unknown_keys_in_every_mapping_it_describes():
    definitions = schema()["$defs"]
    strict = [name for name, d in definitions.items() if d.get("type") == "object" and "properties" in d]
    assert strict and all(definitions[name]["additionalProperties"] is False for name in strict)


def test_schema_returns_a_fresh_copy_each_time():
    first = schema()
    first["title"] = "changed"
    assert schema()["title"] != "changed"


def test_the_phase_kinds_are_those_of_the_language():
    assert phase_kinds() == ["deal", "talon", "turn_up", "choose", "exchange", "decide", "bids", "value_auction", "pick",
                             "take_talon", "take_up", "strain_auction", "declare", "tricks", "dummy", "open_hand", "show", "meld", "score", "set", "piles", "throw_in", "auction",
                             "call", "settle", "turns", "passing", "lay_aside", "parties"]


BAD_DOCUMENTS = [
    # (case, old text, new text, code, line, column, message)
    ("misspelt key in decide", "forbid:", "forbidd:", "C101", 29, 7, "unknown key 'forbidd' in decide"),
    ("misspelt top-level key", "seating:", "seatin:", "C101", 15, 1, "unknown key 'seatin' at the top level"),
    ("missing deck", "deck:\n  pack: skat32-french\n", "", "C102", 2, 1, "missing required key 'deck'"),
    ("missing each in deal", "{each: 2}", "{}", "C102", 20, 5, "missing required key 'each' in deal"),
    ("players in words", "players: 4", "players: four", "C103", 11, 10, "'players' must be a whole number, got 'four'"),
    ("follow item of the wrong type", "[led_suit, trump, any]", "[led_suit, 3, any]", "C103", 34, 26,
     "item 2 of 'follow' must be a card-set expression (like led_suit), got 3"),
    ("direction not allowed", "direction: clockwise", "direction: clockwize", "C104", 12, 12,
     "'direction' must be one of clockwise, anticlockwise, got 'clockwize'"),
    ("first dealer neither random nor a seat", "first_dealer: random", "first_dealer: rnd", "C104", 16, 17,
     "'first_dealer' must be random or a seat number from 1, got 'rnd'"),
    ("unknown phase kind", "- tricks:", "- tricksies:", "C105", 31, 5, "unknown phase kind 'tricksies'"),
    ("phase written as a bare word", "- talon: rest", "- talon", "C106", 23, 5,
     "phase 4 must be a mapping with one key, the phase kind; got 'talon'"),
    ("phase with two keys", "- talon: rest", "- {talon: rest, deal: {each: 1}}", "C106", 23, 19,
     "phase 4 has 2 keys (talon, deal); a phase entry has exactly one key, the phase kind"),
    ("too few players", "players: 4", "players: 1", "C107", 11, 10, "'players' must be at least 2, got 1"),
    ("game id not kebab-case", "game: zwanzig-ab", "game: Zwanzig Ab", "C107", 2, 7,
     "'game' must be a kebab-case id like zwanzig-ab, got 'Zwanzig Ab'"),
    ("seat zero", "first_dealer: random", "first_dealer: 0", "C107", 16, 17, "'first_dealer' must be at least 1, got 0"),
    ("param name with a space", "  no_trick_bonus: 5", "  no trick: 5", "C107", 10, 13,
     "key 'no trick' in params is not a name (letters, digits and _)"),
]


@pytest.mark.parametrize("case, old, new, code, line, column, message", BAD_DOCUMENTS,
                         ids=[c[0] for c in BAD_DOCUMENTS])
def test_each_schema_violation_is_reported_in_the_authors_words_at_the_right_place(
        case, old, new, code, line, column, message):
    found = problems(old, new)
    assert [(d.code, d.span.line, d.span.column, d.message) for d in found] == [(code, line, column, message)]
    assert found[0].hint


def test_an_unknown_key_hint_suggests_the_closest_allowed_key_and_lists_them_all():
    (unknown,) = problems("forbid:", "forbidd:")
    assert unknown.hint == "did you mean 'forbid'? allowed keys: options, from, leave, forbid, among, drop, when"


def test_an_unknown_phase_kind_hint_lists_the_phase_kinds():
    (unknown,) = problems("- tricks:", "- tricksies:")
    assert "did you mean 'tricks'?" in unknown.hint
    assert "deal, talon, turn_up, choose, exchange, decide, bids, value_auction, pick, take_talon, take_up, strain_auction, declare, tricks" in unknown.hint


def test_a_phase_whose_keys_lost_their_indentation_gets_an_indentation_hint():
    doc = load_yaml("extends: zwanzig-ab\nphases:\n  - decide:\n    options: [play, pass]\n    from: forehand\n",
                    "indent.yaml")
    (entry,) = check_schema(doc)
    assert entry.code == "C106" and (entry.span.line, entry.span.column) == (4, 5)
    assert entry.message.startswith("phase 1 has 3 keys (decide, options, from)")
    assert "indented under its kind" in entry.hint


def test_a_variant_may_leave_out_the_required_keys():
    doc = load_yaml("extends: zwanzig-ab\ntitle: Zwanzig ab for three\nplayers: 3\n", "three.yaml")
    assert check_schema(doc) == []


def test_a_variant_may_replace_phases_by_their_1_based_number():
    doc = load_yaml("extends: zwanzig-ab\nphases:\n  5: {exchange: {from: forehand, max: 2}}\n", "fewer.yaml")
    assert check_schema(doc) == []


def test_a_variant_checks_the_phases_it_replaces_by_number():
    doc = load_yaml("extends: zwanzig-ab\nphases:\n  0: {deal: {each: 1}}\n  '3': {deal: {each: [1]}}\n", "bad.yaml")
    found = [(d.code, d.span.line) for d in check_schema(doc)]
    assert found == [("C107", 3), ("C103", 4)]


def test_a_variant_may_set_keys_to_null_to_remove_them():
    doc = load_yaml("extends: zwanzig-ab\nabout: null\nmatch:\n  tie: null\n", "plain.yaml")
    assert check_schema(doc) == []


def test_a_base_game_may_not_give_phases_as_a_mapping():
    doc = load_yaml(ZWANZIG, "mapping.yaml")
    doc.data["phases"] = {"1": {"deal": {"each": 2}}}
    (wrong,) = check_schema(doc)
    assert wrong.code == "C103" and wrong.message == "'phases' must be a list of phases, got a mapping"


def test_a_variant_may_override_part_of_a_mapping_but_not_part_of_a_list_item():
    doc = load_yaml("extends: zwanzig-ab\nmatch: {winner: highest}\ndeck:\n  suits:\n    - {symbol: X}\n",
                    "partial.yaml")
    found = [(d.code, d.message) for d in check_schema(doc)]
    assert found == [("C102", "missing required key 'name' in item 1 of 'suits'")]


def test_contracts_and_items_are_optional_and_checked_when_given():
    doc = zwanzig_with("match:", "contracts: {solo: {rank: 1, value: 2}}\nitems: {}\nmatch:")
    assert check_schema(doc) == []
    bad = zwanzig_with("match:", "contracts: {solo: {rank: 1}}\nmatch:")
    assert [d.code for d in check_schema(bad)] == ["C102"]


def test_numbers_may_be_written_as_whole_numbers_or_as_expression_text():
    doc = zwanzig_with("{each: 2}", "{each: \"hand_size - 3\"}")
    assert check_schema(doc) == []


def test_every_diagnostic_points_into_the_file_and_has_a_hint():
    found = problems("players: 4\n", "players: four\nplayrs: 4\n") + problems("- tricks:", "- tricksies:")
    assert found and all(d.span is not None and d.span.path == "variant.yaml" and d.hint for d in found)


GOLDEN_CASES = {
    "schema-unknown-key": ("forbid:", "forbidd:"),
    "schema-missing-key": ("deck:\n  pack: skat32-french\n", ""),
    "schema-wrong-type": ("players: 4", "players: four"),
    "schema-not-allowed": ("winner: lowest", "winner: least"),
    "schema-unknown-phase-kind": ("- tricks:", "- tricksies:"),
    "schema-phase-entry": ("- talon: rest", "- {talon: rest, deal: {each: 1}}"),
    "schema-too-small": ("max: 3", "max: \"\""),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_rendered_schema_errors_match_their_golden_files(name):
    old, new = GOLDEN_CASES[name]
    found = check_schema(zwanzig_with(old, new, f"{name}.yaml"))
    assert_golden(name, "\n\n".join(d.render() for d in found))


KEYS = st.sampled_from(["game", "players", "deck", "phases", "match", "deal", "each", "from", "x", "1"])
PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS | st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(KEYS, PLAIN, max_size=6), st.booleans())
def test_any_plain_data_gets_a_list_of_diagnostics_and_never_an_exception(data, variant):
    if variant:
        data["extends"] = "zwanzig-ab"
    found = check_schema(Document(data=data, path="fuzz.yaml"))
    assert all(isinstance(d, Diagnostic) and d.code.startswith("C") and d.hint for d in found)


# ---------------------------------------------------------------------- the schema for editors
@lru_cache(maxsize=1)
def editor_validator() -> Draft202012Validator:
    """The editor schema's validator, checked once (it is the same for every file)."""
    from rulelang.validators.schema_export import editor_schema
    Draft202012Validator.check_schema(editor_schema())
    return Draft202012Validator(editor_schema())


@pytest.mark.parametrize("path", sorted((ROOT / "games").glob("*.*")), ids=lambda p: p.name)
def test_the_editor_schema_accepts_every_shipped_file_as_written(path):
    from rulelang.loader import read_document
    if path.suffix in (".yaml", ".rules"):
        assert [e.message for e in editor_validator().iter_errors(read_document(path).data)] == []


@pytest.mark.parametrize("text, wrong", [
    ("extends: zwanzig-ab\nmatch: {tie: shared}\n", "'shared' is not one of"),
    ("extends: zwanzig-ab\nplayers: four\n", "is not of type 'integer'"),
    ("extends: zwanzig-ab\nmatch: {winer: lowest}\n", "'winer' was unexpected"),
    ("game: x\nplayers: 4\n", "'deck' is a required property"),
    ("extends: zwanzig-ab\nphases: [{deal: {}}]\n", "'each' is a required property"),
])
def test_the_editor_schema_still_rejects_what_a_variant_gets_wrong(text, wrong):
    import yaml
    errors = list(editor_validator().iter_errors(yaml.safe_load(text)))
    found = " | ".join(_all_messages(errors))
    assert errors and wrong in found, found


def _all_messages(errors) -> list[str]:
    """The messages of schema errors and of every error in their contexts (anyOf branches)."""
    return [m for e in errors for m in [e.message, *_all_messages(e.context)]]


def test_a_variant_may_leave_out_merged_keys_and_remove_with_null():
    import yaml
    doc = yaml.safe_load("extends: zwanzig-ab\nmatch: {tie: share, exact: null}\nparams: {hearts_factor: null}\n"
                         "phases: {6: null}\nabout:\n")
    assert list(editor_validator().iter_errors(doc)) == []
