"""Files keep loading as the language grows: a corpus of rule files in earlier forms loads and plays the same.

* ``tests/corpus/`` holds files written in forms the docs once showed: Oh Hell with its phases in the
  generic form (``set { var = …  value = … }``, which the ``set`` statement made S112 for a while), and a
  file whose own names the language has since taken (``ranks``, ``beats``, ``winner_now``): it loads with
  its own meaning and a W621 warning at each, and ``rulelang fmt --upgrade`` renames them so that it
  plays the same without a warning.
* Every shipped game written wholly in the generic form (every key ``key = value`` or ``key { … }``,
  every phase ``kind { … }``), as docs/language.md promises any document can be written, gives the same
  document and plays the same deals.
* Every shipped game converted to the other syntax (``rulelang fmt --to``) gives the same document.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.cli.fmtcmd import formatted
from rulelang.compile.compiler import digest
from rulelang.interpreter.runner import play_match
from rulelang.loader import load_game, load_text, parse_text, shipped_games
from rulelang.read.files import read_document
from rulelang.render.fmt import entry
from rulelang.validators.report import diagnostics_of

CORPUS = Path(__file__).resolve().parent / "corpus"
GAMES = sorted(shipped_games())


def same_play(game, other, seed: int = 4, deals: int = 2) -> None:
    a, _ = play_match(game, seed=seed)
    b, _ = play_match(other, seed=seed)
    assert a.history == b.history and list(a.scores) == list(b.scores)


def test_oh_hell_in_the_generic_form_of_last_month_loads_and_plays_as_oh_hell():
    path = CORPUS / "oh-hell-generic-set.rules"
    assert [d.code for d in diagnostics_of(str(path)) if d.is_error] == []
    same_play(load_game(str(path), max_deals=2), load_game("oh-hell", max_deals=2))


def test_a_file_whose_names_the_language_took_since_keeps_its_meaning_and_is_warned():
    path = CORPUS / "names-taken-later.yaml"
    found = diagnostics_of(str(path))
    assert [d.code for d in found if d.is_error] == []
    warned = [d for d in found if d.code == "W621"]
    assert [(d.span.line, d.message.split("'")[1]) for d in warned] == [(5, "ranks"), (7, "beats"), (8, "winner_now")]
    assert all("rulelang fmt --upgrade" in d.hint for d in warned)


def test_fmt_upgrade_renames_the_taken_names_and_the_file_plays_the_same(tmp_path):
    path = CORPUS / "names-taken-later.yaml"
    _, text = formatted(path, "yaml", upgrade=True)
    assert "ranks_: 2" in text and "beats_(a, b)" in text and "beats_(winner_now_, 0)" in text
    upgraded = tmp_path / "upgraded.yaml"
    upgraded.write_text(text, encoding="utf-8")
    assert [d.code for d in diagnostics_of(str(upgraded)) if d.is_error or d.code == "W621"] == []
    same_play(load_game(str(path), max_deals=2), load_game(str(upgraded), max_deals=2))


def test_the_language_reads_its_new_names_where_a_file_does_not_use_them_itself():
    text = ("extends: zwanzig-ab\nphases:\n  8:\n    score: {each: active, add: "
            "\"0 - tricks(player) * 0 - max(n for n in ranks) + 8 - count(hand(player) & suits_of(player))\"}\n"
            "define:\n  \"suits_of(p)\": \"{c for c in hand(p) if any(suit(c) == s for s in suits)}\"\n")
    assert [d.code for d in diagnostics_of_text_errors(text)] == []


def diagnostics_of_text_errors(text: str) -> list:
    from rulelang.validators.report import diagnostics_of_text
    return [d for d in diagnostics_of_text(text, "g.yaml") if d.is_error]


def generic(data: dict) -> str:
    """The document written wholly in the generic form."""
    lines = []
    for key, value in data.items():
        lines += entry(key, value, "")
    phases = data.get("phases")
    if isinstance(phases, list):                       # every phase as `kind { … }` inside `phases { … }`
        lines = [line for key, value in data.items() if key != "phases" for line in entry(key, value, "")]
        lines.append("phases {")
        for phase in phases:
            (kind, body), = phase.items()
            lines += entry(kind, body, "  ")          # a kind that is a keyword quoted, as the docs say
        lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_a_shipped_game_written_wholly_in_the_generic_form_is_the_same_game(path):
    doc = read_document(path)
    text = generic(doc.data)
    assert digest(parse_text(text, path.stem + ".rules").data) == digest(doc.data)
    if path.suffix == ".rules" or "extends" not in doc.data:
        same_play(load_text(text, "rules", max_deals=1), load_game(str(path), max_deals=1), deals=1)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_a_shipped_game_in_the_other_syntax_is_the_same_document(path):
    other = "yaml" if path.suffix == ".rules" else "rules"
    _, text = formatted(path, other)
    back = parse_text(text, f"{path.stem}.{'rules' if other == 'rules' else 'yaml'}").data
    assert digest(back) == digest(read_document(path).data)         # keys compared as text: 10 and '10' alike
