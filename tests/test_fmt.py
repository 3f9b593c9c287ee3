"""The printers of `rulelang fmt`: DSL and YAML text that load back into an equal document."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulelang.read.dsl import load_dsl
from rulelang.render.fmt import is_canonical, to_rules, to_yaml

try:
    from rulelang.read.yamlload import load_yaml
except ImportError:  # the YAML loader is written alongside; fall back to PyYAML
    def load_yaml(text, path):
        class Loaded:
            data = yaml.safe_load(text)
        return Loaded()

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
YAML_GAMES = sorted(GAMES.glob("*.yaml"))
ZWANZIG_AB = yaml.safe_load((GAMES / "zwanzig-ab.yaml").read_text(encoding="utf-8"))


def rules_round_trip(data: dict) -> dict:
    return load_dsl(to_rules(data), "printed.rules").data


def yaml_round_trip(data: dict) -> dict:
    return load_yaml(to_yaml(data), "printed.yaml").data


# ---------------------------------------------------------------- layout
def test_zwanzig_ab_prints_exactly_as_the_shipped_rules_file_without_its_header():
    shipped = (GAMES / "zwanzig-ab.rules").read_text(encoding="utf-8")
    body = shipped[shipped.index("\ngame ") + 1:]
    assert to_rules(ZWANZIG_AB) == body


def test_readable_statements_are_used_where_the_data_fits_them():
    text = to_rules({"phases": [{"exchange": {"from": "forehand", "max": 3}}, {"talon": "rest"}]})
    assert text == "phases {\n  exchange from forehand max 3\n  talon rest\n}\n"


def test_data_that_does_not_fit_a_statement_falls_back_to_the_generic_form_with_keywords_quoted():
    text = to_rules({"players": [4, 5], "phases": [{"deal": {"each": 2, "extra": None}}]})
    assert text == '"players" = [4, 5]\n\nphases {\n  "deal" {\n    each = 2\n    extra = null\n  }\n}\n'


def test_unknown_keys_are_written_generically_with_strings_quoted():
    text = to_rules({"contracts": {"solo": {"rank": 3, "sides": "alone", "items": ["game", "valat"]}}})
    assert text == 'contracts {\n  solo {\n    rank = 3\n    sides = "alone"\n    items = ["game", "valat"]\n  }\n}\n'


def test_a_list_of_mappings_is_written_in_brackets_one_mapping_per_item():
    text = to_rules({"rules": [{"card": "x", "when": "y"}, {"highest": "trump"}]})
    assert text == 'rules = [\n  {\n    card = "x"\n    when = "y"\n  },\n  { highest = "trump" },\n]\n'


def test_expression_text_that_is_not_canonical_stays_quoted():
    text = to_rules({"match": {"end": "min( score )<=0", "start": "20", "winner": "lowest"}})
    assert text == 'match {\n  end when "min( score )<=0"\n  start "20"\n  winner lowest\n}\n'


def test_canonical_text_is_recognised_and_literals_are_not_expressions():
    assert is_canonical("player == forehand or trump == diamonds")
    assert not is_canonical("player==forehand")
    assert not is_canonical("20") and not is_canonical("true")


def test_yaml_keeps_the_key_order_of_the_document():
    text = to_yaml({"game": "g", "about": {"summary": "s", "source": "t"}, "players": 4})
    assert text == "game: g\nabout:\n  summary: s\n  source: t\nplayers: 4\n"


def test_a_key_that_cannot_be_written_is_refused_with_a_value_error():
    with pytest.raises(ValueError):
        to_rules({"points": {-1: 2}, "x": {-1: 2}})


# ---------------------------------------------------------------- round trips
@pytest.mark.parametrize("path", YAML_GAMES, ids=lambda p: p.name)
def test_every_shipped_yaml_game_survives_yaml_to_doc_to_rules_to_doc(path):
    data = load_yaml(path.read_text(encoding="utf-8"), str(path)).data
    assert yaml_round_trip(data) == data
    assert rules_round_trip(yaml_round_trip(data)) == data


def test_the_shipped_rules_file_survives_rules_to_doc_to_rules_to_doc():
    data = load_dsl((GAMES / "zwanzig-ab.rules").read_text(encoding="utf-8"), "z.rules").data
    assert rules_round_trip(data) == data
    assert load_dsl(to_rules(rules_round_trip(data)), "again.rules").data == data


# ---------------------------------------------------------------- properties
IDENTIFIERS = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
KNOWN_KEYS = st.sampled_from([
    "game", "title", "params", "players", "direction", "about", "deck", "seating", "phases", "match",
    "source", "pack", "suits", "ranks", "points", "aliases", "tags", "remove", "name", "symbol", "letter",
    "naming", "first_dealer", "forehand", "each", "when", "var", "by", "from", "max", "options", "leave",
    "forbid", "among", "lead", "follow", "win", "highest", "alone", "let", "add", "start", "end", "winner",
    "tie", "true", "null", "10", "if",
])
KEYS = st.one_of(IDENTIFIERS, KNOWN_KEYS)
SCALARS = st.one_of(st.text(max_size=12), st.integers(), st.booleans(), st.none(), KNOWN_KEYS,
                    st.sampled_from(["next(forehand)", "a == b", "x+1", "'A♣' in trick", "-3", "{a, b}"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(KEYS, inner, max_size=4)), max_leaves=16)
PHASES = st.lists(st.dictionaries(st.sampled_from(["deal", "talon", "choose", "exchange", "decide", "tricks",
                                                   "score", "piles"]), VALUES, min_size=1, max_size=1), max_size=4)
DOCUMENTS = st.dictionaries(KEYS, VALUES, max_size=8).flatmap(
    lambda doc: st.just(doc) | PHASES.map(lambda phases: {**doc, "phases": phases}))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENTS)
def test_random_documents_survive_to_rules_and_back(data):
    assert rules_round_trip(data) == data


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(IDENTIFIERS, VALUES, max_size=8))
def test_random_documents_survive_to_yaml_and_back(data):
    assert yaml_round_trip(data) == data


NAMES = st.sampled_from(["forehand", "trump", "hearts", "player", "active", "led_suit", "any", "score", "n"])
EXPRESSIONS = st.one_of(
    NAMES,
    st.builds(lambda a, op, b: f"{a} {op} {b}", NAMES, st.sampled_from(["==", "+", "-", "or", "in", "*"]), NAMES),
    st.builds(lambda f, a: f"{f}({a})", st.sampled_from(["next", "tricks", "min", "count"]), NAMES),
    st.builds(lambda a, b: f"{a}=={b}", NAMES, NAMES),
    st.builds(lambda a, b, c: f"if {a} then {b} else {c}", NAMES, st.integers(-5, 5).map(str), NAMES),
)
REPLACEMENTS = st.one_of(st.integers(-30, 30), NAMES, EXPRESSIONS, st.text(max_size=8), st.booleans())


def leaf_paths(node, path=()):
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return [path]
    return [p for key, value in items for p in leaf_paths(value, path + (key,))]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutations_of_zwanzig_ab_survive_to_rules_and_yaml_and_back(data):
    doc = copy.deepcopy(ZWANZIG_AB)
    paths = leaf_paths(doc)
    for _ in range(data.draw(st.integers(1, 6))):
        path = data.draw(st.sampled_from(paths))
        node = doc
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = data.draw(REPLACEMENTS)
    assert rules_round_trip(doc) == doc
    assert rules_round_trip(yaml_round_trip(doc)) == doc


# ---------------------------------------------------------------- comments, --check and --in-place
COMMENTED = """\
# House rules of the Tuesday club.

# Hearts count four times.
extends: zwanzig-ab   # the base
title: "Zwanzig ab # Tuesday"
# the params we change
params:
  hearts_factor: 4  # was 2
  # a comment inside params
  no_trick_bonus: 6
# trailing words
"""
COMMENTS = ["# House rules of the Tuesday club.", "# Hearts count four times.", "# the base",
            "# the params we change", "# was 2", "# a comment inside params", "# trailing words"]


def fmt(capsys, *argv) -> tuple[int, str, str]:
    from rulelang.cli.main import main
    code = main(["fmt", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("to", ["yaml", "rules"])
def test_fmt_keeps_every_comment_in_order_in_both_syntaxes(tmp_path, capsys, to):
    source = tmp_path / "club.yaml"
    source.write_text(COMMENTED, encoding="utf-8")
    code, printed, _ = fmt(capsys, "--to", to, str(source))
    assert code == 0 and [line for line in printed.split("\n") if line.startswith("#")] == COMMENTS
    assert "'Zwanzig ab # Tuesday'" in printed or '"Zwanzig ab # Tuesday"' in printed
    again = tmp_path / f"printed.{'rules' if to == 'rules' else 'yaml'}"
    again.write_text(printed, encoding="utf-8")
    assert fmt(capsys, str(again))[1] == printed                   # formatting is idempotent
    back = fmt(capsys, "--to", "yaml", str(again))[1]
    assert [line for line in back.split("\n") if line.startswith("#")] == COMMENTS


def test_fmt_check_exits_one_for_an_unformatted_file_and_in_place_formats_it(tmp_path, capsys):
    source = tmp_path / "club.yaml"
    source.write_text(COMMENTED, encoding="utf-8")
    code, out, err = fmt(capsys, "--check", str(source))
    assert (code, out) == (1, "") and "not formatted" in err
    assert fmt(capsys, "--in-place", str(source)) == (0, "", "")
    assert fmt(capsys, "--check", str(source)) == (0, "", "")
    assert load_yaml(source.read_text(encoding="utf-8"), "x.yaml").data == load_yaml(COMMENTED, "y.yaml").data


def test_the_shipped_dsl_game_is_formatted_and_in_place_refuses_to_change_the_syntax(tmp_path, capsys):
    assert fmt(capsys, "--check", str(GAMES / "zwanzig-ab.rules")) == (0, "", "")
    copy = tmp_path / "z.rules"
    copy.write_text((GAMES / "zwanzig-ab.rules").read_text(encoding="utf-8"), encoding="utf-8")
    code, _, err = fmt(capsys, "--in-place", "--to", "yaml", str(copy))
    assert code == 2 and "keeps a file in its own syntax" in err
