"""Every rule-file example of docs/language.md is a complete file that loads without an error.

Each YAML block of the page is a variant of a shipped game (or a game of its own): it is checked as
``rulelang validate`` checks a file, so its expressions parse and type-check, its definitions are read
and compiled, and it plays; a block that does not load fails here with the block's first line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulelang.interpreter.runner import play_match
from rulelang.loader import load_text
from rulelang.validators.report import diagnostics_of_text

DOCS = Path(__file__).resolve().parent.parent / "docs" / "language.md"
BLOCKS = re.findall(r"^```yaml\n(.*?)^```", DOCS.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_the_page_has_its_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: b.splitlines()[0][:40])
def test_an_example_loads_without_an_error_and_plays_a_deal(block):
    assert "extends:" in block or "phases:" in block, "an example is a whole file"
    errors = [str(d) for d in diagnostics_of_text(block, "example.yaml") if d.is_error]
    assert errors == []
    state, _ = play_match(load_text(block, "yaml", max_deals=1), seed=1)
    assert state.is_terminal() or state.deal_number >= 1


DSL_DEFINES = re.findall(r"`(define [^`]+)`", DOCS.read_text(encoding="utf-8"))


@pytest.mark.parametrize("statement", [s for s in DSL_DEFINES if "…" not in s and "NAME" not in s])
def test_a_define_statement_the_page_shows_is_read_as_it_says(statement):
    from rulelang.loader import parse_text
    data = parse_text(f"game g\n{statement}\n", "g.rules").data
    assert len(data["define"]) == 1
