"""The DSL statement tables of docs/language.md list every statement the grammar has.

The tables once lacked `define` (and said nothing of `extends` and `teams`, which are written
in the generic form). This reads the statement keywords from the grammar itself — the
alternatives of the top level, of `about`, `deck` and `seating`, and every `%extend phase`
of a construct's section — and looks for each in the table of its block.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulelang.read.grammar import GRAMMAR_PATH

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
GRAMMAR = GRAMMAR_PATH.read_text(encoding="utf-8")


def rule_keywords(rule: str) -> set[str]:
    """The keywords that open the alternatives of grammar rule ``rule`` (``?top``, ``?deck_stmt`` …)."""
    block = re.search(rf"^\??{rule}:(.*?)(?:\n\s*\n|\n\S)", GRAMMAR, re.S | re.M).group(0)
    return set(re.findall(r'(?:^\??\w+:|\|)\s*"(\w+)"', block, re.M))


def phase_keywords() -> set[str]:
    """The keywords that open a phase statement, from every construct's ``%extend phase``."""
    found = set()
    for block in re.findall(r"^%extend phase:(.*?)(?=\n(?:%|//|\s*\n))", GRAMMAR, re.S | re.M):
        found.update(re.findall(r'(?:^|\|)\s*"(\w+)"', block, re.M))
    return found


def table_after(heading: str) -> str:
    """The rows of the first table after ``heading`` in the DSL section."""
    dsl = LANGUAGE.split("## The DSL", 1)[1]
    rest = dsl.split(heading, 1)[1]
    start = rest.index("| statement |")
    return rest[start:].split("\n\n", 1)[0]


def first_words(table: str) -> set[str]:
    """The words that open the statements of a table, and those of the blocks they show (`about { source … }`)."""
    words = set()
    for cell in re.findall(r"^\| (.+?) \|", table, re.M):
        for code in re.findall(r"`([^`]+)`", cell):
            words.add(code.split()[0])
            words.update(re.findall(r"(?:\{|  )\s*(\w+)", code))
    return words


@pytest.mark.parametrize("rule,heading", [("top", "expression's place is stored exactly as written."),
                                          ("about_stmt", "expression's place is stored exactly as written."),
                                          ("seating_stmt", "expression's place is stored exactly as written."),
                                          ("deck_stmt", "In `deck { … }`:")])
def test_every_statement_of_a_block_is_in_its_table(rule, heading):
    missing = rule_keywords(rule) - first_words(table_after(heading))
    assert missing == set(), f"docs/language.md's table lacks the statements {sorted(missing)}"


def test_every_phase_statement_is_in_the_phases_table():
    missing = phase_keywords() - first_words(table_after("In `phases { … }`"))
    assert missing == set(), f"docs/language.md's phases table lacks {sorted(missing)}"


def test_the_grammar_has_the_statements_the_reader_is_told_of():
    assert {"game", "param", "define", "deck", "phases", "match"} <= rule_keywords("top")
    assert {"deal", "tricks", "score", "choose"} <= phase_keywords()
