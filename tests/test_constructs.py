"""Every registered construct carries its whole self (docs/architecture.md, "How to add a construct").

For each construct of :func:`rulelang.constructs.constructs`: its schema fragment describes
its ``example`` and refuses a stray key; the checked-in ``schema.json`` is what the
fragments build; its English reads the example; its ``fmt`` rendering reads back as the
same document; its DSL statement (when it has one) loads as the document it prints; each
of its diagnostic codes is raised in its module, catalogued in docs/diagnostics.md and
shown by a broken file in tests/invalid/; its slice of deal state copies independently.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest

from rulelang.constructs import Construct, constructs
from rulelang.constructs.base import DealPart
from rulelang.read.dsl import load_dsl
from rulelang.render.explain import Context
from rulelang.render.fmt import to_rules
from rulelang.interpreter.state import State
from rulelang.loader import load_game
from rulelang.validators.catalogue import parse_catalogue
from rulelang.validators.schema import _phase_validator, phase_kinds
from rulelang.validators.schema_build import schema_text

ROOT = Path(__file__).resolve().parents[1]
KINDS = list(constructs())
CATALOGUE = parse_catalogue((ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8"))
INVALID = sorted(p.name for p in (ROOT / "tests" / "invalid").iterdir() if p.is_file())
GENERIC_STATE = set(State(load_game("zwanzig-ab")).__dict__) - set(KINDS)


def test_the_registry_holds_the_phase_kinds_in_the_schema_order():
    assert KINDS == phase_kinds()
    assert {"deal", "tricks", "score", "auction", "settle", "piles", "turns"} <= set(KINDS)


def test_the_checked_in_schema_is_what_the_constructs_build():
    written = (ROOT / "validators" / "schema.json").read_text(encoding="utf-8")
    assert written == schema_text(), "schema.json is stale: run python -m rulelang.validators.schema_build"


@pytest.mark.parametrize("kind", KINDS)
def test_the_schema_fragment_describes_the_example_and_refuses_a_stray_key(kind):
    found = constructs()[kind]
    assert found.schema["entry"] and found.schema["defs"], f"{kind} has no schema fragment"
    validator = _phase_validator(kind)
    assert found.example is not None, f"{kind} has no example"
    assert not list(validator.iter_errors(found.example)), f"{kind}'s example does not fit its schema"
    body = found.example if isinstance(found.example, dict) else {}
    assert list(validator.iter_errors({**body, "no_such_key": 1})), f"{kind} accepts any key"


@pytest.mark.parametrize("kind", KINDS)
def test_the_english_reads_the_example(kind):
    found = constructs()[kind]
    assert found.english is not Construct.english, f"{kind} has no English"
    body = found.example if isinstance(found.example, dict) else {}
    context = Context({"game": "demo", "players": 4, "deck": {"pack": "skat32-french"},
                       "phases": [{kind: found.example}]})
    lines = found.english(context, body, True)
    assert lines and all(isinstance(line, str) and line.strip() for line in lines)
    assert not any("{" in line or "None" in line for line in lines), lines


@pytest.mark.parametrize("kind", KINDS)
def test_fmt_renders_the_example_so_that_it_reads_back(kind):
    data = {"phases": [{kind: constructs()[kind].example}]}
    text = to_rules(data)
    assert load_dsl(text, "demo.rules").data == data, text


@pytest.mark.parametrize("kind", [k for k in KINDS if constructs()[k].dsl])
def test_a_readable_statement_is_a_rule_the_builder_knows(kind):
    found = constructs()[kind]
    grammar = (ROOT / "rulelang" / "read" / "grammar" / "rulelang.lark").read_text(encoding="utf-8")
    assert f"// ---- {kind} (rulelang/constructs/" in grammar, f"{kind} has no section in the grammar"
    section = grammar.split(f"// ---- {kind} (")[1].split("// ----")[0]
    for rule in found.dsl:
        assert f"-> {rule}" in section or f"\n{rule}:" in section or f"\n?{rule}:" in section, \
            f"the DSL rule {rule} of {kind} is not in its grammar section"


@pytest.mark.parametrize("kind", KINDS)
def test_every_code_is_raised_here_catalogued_and_shown_by_a_broken_file(kind):
    found = constructs()[kind]
    assert found.codes, f"{kind} owns no diagnostic"
    module = sys.modules[found.__module__]
    helpers = {sys.modules[value.__module__] for value in vars(module).values()          # its helper modules
               if getattr(value, "__module__", "").startswith("rulelang.constructs.")}
    source = "".join(inspect.getsource(m) for m in {module} | helpers)
    for code in found.codes:
        assert source.count(f'"{code}"') >= 2, f"{code} is listed by {kind} but not raised in its modules"
        assert code in CATALOGUE, f"{code} is not in docs/diagnostics.md"
        assert any(name.startswith(code + "-") for name in INVALID), f"{code} has no file in tests/invalid"


@pytest.mark.parametrize("kind", [k for k in KINDS if constructs()[k].part is not None])
def test_a_slice_of_deal_state_copies_independently_and_does_not_shadow_the_state(kind):
    found = constructs()[kind]
    assert issubclass(found.part, DealPart)
    assert kind not in GENERIC_STATE
    part = found.part(load_game("zwanzig-ab"))
    copy = part.copy()
    for name in found.part.copied:
        assert getattr(copy, name) == getattr(part, name) and getattr(copy, name) is not getattr(part, name)
    assert fields_of(copy) == fields_of(part)


def fields_of(part) -> dict:
    """The fields of a slice, kept in its ``__dict__`` or in ``__slots__``."""
    slots = {name: getattr(part, name) for name in getattr(type(part), "__slots__", ())}
    return {**getattr(part, "__dict__", {}), **slots}


@pytest.mark.parametrize("kind", KINDS)
def test_what_diff_shows_of_a_phase_names_keys_the_phase_has(kind):
    found = constructs()[kind]
    properties = next(iter(found.schema["defs"].values())).get("properties", {})
    assert set(found.diff_keys) <= set(properties), f"{kind} shows keys its schema does not have"
    assert found.identity is None or found.identity in properties
