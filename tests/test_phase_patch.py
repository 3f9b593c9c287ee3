"""A variant changes keys of a base phase named by its kind, the rest kept (issue 41): merged as mappings
are, located at the variant's lines, shown by diff and explain, and refused with R311 when the kind does
not name one phase."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.loader import open_document
from rulelang.validators.report import diagnostics_of

ROOT = Path(__file__).resolve().parent.parent


def variant(tmp_path: Path, phases: str, base: str = "zwanzig-ab") -> str:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {base}\ngame: house\ntitle: House rules\nphases:\n{phases}", encoding="utf-8")
    return str(path)


def phase_of(doc, kind: str, nth: int = 1) -> dict:
    return [p[kind] for p in doc.data["phases"] if kind in p][nth - 1]


def test_a_kind_named_patch_changes_one_key_and_keeps_the_rest(tmp_path):
    base = phase_of(open_document("zwanzig-ab"), "tricks")
    doc = open_document(variant(tmp_path, "  tricks:\n    head: true\n"))
    assert phase_of(doc, "tricks") == {**base, "head": True}
    assert len(doc.data["phases"]) == len(open_document("zwanzig-ab").data["phases"])
    assert not diagnostics_of(doc.path)


def test_null_removes_a_key_and_a_nested_mapping_merges(tmp_path):
    base = phase_of(open_document("zwanzig-ab"), "tricks")
    assert "alone" in base
    doc = open_document(variant(tmp_path, "  tricks:\n    alone: null\n"))
    assert "alone" not in phase_of(doc, "tricks") and phase_of(doc, "tricks")["win"] == base["win"]


def test_a_mistake_in_a_patched_key_is_located_in_the_variant(tmp_path):
    path = variant(tmp_path, "  tricks:\n    lead: nobody_here\n")
    found = [d for d in diagnostics_of(path) if d.severity == "error"]
    assert found and found[0].span.path == path and found[0].span.line == 6


def test_the_nth_phase_of_a_kind(tmp_path):
    base = open_document("zwanzig-ab")
    deals = [p["deal"] for p in base.data["phases"] if "deal" in p]
    assert len(deals) >= 2
    doc = open_document(variant(tmp_path, "  deal 2:\n    each: 3\n"))
    assert phase_of(doc, "deal", 2)["each"] == 3 and phase_of(doc, "deal", 1) == deals[0]


@pytest.mark.parametrize("phases, words", [
    ("  auction:\n    from: forehand\n", "no `auction` phase"),
    ("  deal:\n    each: 3\n", "`deal 1:`"),
    ("  deal 9:\n    each: 3\n", "not a 9th"),
    ("  tricks: true\n", "a mapping of the keys it changes"),
])
def test_a_patch_that_names_no_single_phase_is_r311(tmp_path, phases, words):
    found = diagnostics_of(variant(tmp_path, phases))
    assert [d.code for d in found] == ["R311"], found
    assert words in found[0].message + found[0].hint and found[0].span.line == 5


def test_diff_and_explain_show_the_change(tmp_path, capsys):
    from rulelang.cli.main import main
    main(["diff", "zwanzig-ab", str(ROOT / "games" / "zwanzig-ab-stichzwang.yaml")])
    assert "tricks: head added: true" in capsys.readouterr().out
    main(["explain", str(ROOT / "games" / "zwanzig-ab-stichzwang.yaml")])
    out = capsys.readouterr().out
    assert "What it changes in zwanzig-ab:" in out and "tricks: head added: true" in out


def test_a_patch_equal_to_the_base_is_w608(tmp_path):
    base = phase_of(open_document("zwanzig-ab"), "tricks")
    found = diagnostics_of(variant(tmp_path, f"  tricks:\n    follow: {list(base['follow'])}\n"))
    assert [d.code for d in found] == ["W608"]
