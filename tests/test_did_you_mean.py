"""Authors' slips get a guess and a location at the real mistake (issue 41): did-you-mean for cards,
aliases and items, a new name in a variant close to the base's (W626), a keyword written twice (S104),
and no follow-on findings from a mistake already reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.validators.report import diagnostics_of, diagnostics_of_text

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


def shipped(name: str) -> str:
    return (GAMES / name).read_text(encoding="utf-8")


def findings(text: str, path: str) -> list:
    return diagnostics_of_text(text, path)


def test_a_misspelt_card_alias_gets_the_alias_as_written_and_nothing_else():
    text = shipped("koenigrufen.yaml").replace("tarock - {'Pagat'}", "tarock - {'Pagatt'}", 1)
    found = findings(text, str(GAMES / "k.yaml"))
    assert [d.code for d in found] == ["N202"]       # the set around it is not reported besides
    assert "'Pagatt'" in found[0].message and found[0].hint == "did you mean 'Pagat'?"


def test_a_misspelt_card_name_gets_the_closest_cards():
    text = shipped("hearts.rules").replace("{'2♣'}", "{'2♧'}", 1)
    found = findings(text, str(GAMES / "h.rules"))
    assert [d.code for d in found] == ["N202"]
    assert "'2♣'" in found[0].hint


def test_an_alias_naming_no_card_gets_a_guess():
    text = shipped("koenigrufen.yaml").replace("Pagat: I,", "Pagat: Il,", 1)
    found = [d for d in findings(text, str(GAMES / "k.yaml")) if d.code == "N202"]
    assert found and "the alias 'Pagat' names 'Il'" in found[0].message and "did you mean" in found[0].hint


def test_a_misspelt_item_in_a_contract_gets_the_item_meant(tmp_path):
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: koenigrufen\ngame: v\ntitle: V\ncontracts:\n  piccolo:\n    items: [game, pagatt]\n")
    found = diagnostics_of(str(variant))
    assert [d.code for d in found] == ["N218"] and found[0].hint == "did you mean 'pagat'?"
    assert (found[0].span.line, found[0].span.column) == (6, 19)


def test_a_new_item_named_close_to_the_bases_asks_whether_that_one_was_meant(tmp_path):
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: koenigrufen\ngame: v\ntitle: V\nitems:\n  pagatt:\n    value: 2\n")
    found = {d.code: d for d in diagnostics_of(str(variant))}
    assert set(found) == {"C102", "W626"}            # refused for its missing keys, and the likely slip named
    assert "the base game has 'pagat'" in found["W626"].message and "`pagat:`" in found["W626"].hint


@pytest.mark.parametrize("before, after, word, column", [
    ("players 4", "players players 4", "players", 9),
    ("    lead holding", "    lead lead holding", "lead", 10),
    ("  first_dealer random", "  first_dealer first_dealer random", "first_dealer", 16),
])
def test_a_dsl_keyword_written_twice_is_located_at_the_second(before, after, word, column):
    text = shipped("hearts.rules").replace(before, after, 1)
    found = findings(text, str(GAMES / "h.rules"))
    assert [d.code for d in found] == ["S104"] and f"`{word}` is written twice" in found[0].message
    assert found[0].span.column == column and text.splitlines()[found[0].span.line - 1] .lstrip().startswith(
        after.strip().split()[0])


def test_an_expression_keyword_written_twice_is_located_at_the_second_and_reads_its_names():
    text = shipped("belote.yaml").replace('end: "max(score) >= target"', 'end: "max(score) >= target and and true"')
    found = findings(text, str(GAMES / "b.yaml"))
    assert [d.code for d in found] == ["S104"]      # no W602 for `target`, which the broken line reads
    line = text.splitlines()[found[0].span.line - 1]
    assert line[found[0].span.column - 1:].startswith("and true")


def test_not_not_is_no_slip():
    text = shipped("belote.yaml").replace('end: "max(score) >= target"', 'end: "not not max(score) >= target"')
    assert not [d for d in findings(text, str(GAMES / "b.yaml")) if d.severity == "error"]


def test_no_catalogued_message_shows_a_python_none():
    for golden in (ROOT / "tests" / "golden" / "diagnostics").glob("*.txt"):
        assert "None" not in golden.read_text(encoding="utf-8"), golden.name


def test_a_short_name_for_a_base_item_finds_the_item_it_is_part_of(tmp_path):
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: zwanzigerrufen\ngame: v\ntitle: V\nitems:\n  pagat:\n    value: 2\n")
    found = {d.code: d for d in diagnostics_of(str(variant))}
    assert "the base game has 'pagat_ultimo'" in found["W626"].message
    listed = tmp_path / "w.yaml"
    listed.write_text("extends: zwanzigerrufen\ngame: w\ntitle: W\ncontracts:\n  call:\n    items: [game, pagat]\n")
    (error,) = diagnostics_of(str(listed))
    assert error.code == "N218" and error.hint.startswith("did you mean 'pagat_ultimo'")
    assert "None" not in error.render() and "None" not in found["W626"].render()
