"""Every diagnostic code has one meaning: the one ``docs/diagnostics.md`` gives it.

Other documents (README.md, docs/*.md) may mention a code, but each mention must name a
code the catalogue has, and the words around it (its table row, or its clause) must
describe the same thing: they share a word of substance with the catalogue's title and
explanation (a table row or clause naming several codes, as the limits table does, is
compared with all of them together; code blocks are examples and give no meaning). A doc that once said "E553: more than 1000 redeals in a row" while the
catalogue says "a rule failed during play" is caught because the two share no such word
(issue 47).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulelang.validators.catalogue import parse_catalogue

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = parse_catalogue((ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8"))
CODE = re.compile(r"\b([SYCNRGEW]\d{3})(?:[–-]([SYCNRGEW]?\d{3}))?\b")
WORD = re.compile(r"[a-z][a-z_]{3,}")
COMMON = frozenset("""
    that this with from have when there their than then they them which what where while
    rule rules file files game games error errors warning warnings code codes line lines
    each every some other only must does done into onto also given gives give more most
    less least over under after before same here used uses using named names name says
    said shows shown show would could should about again first last none being been were
""".split())


def documents() -> list[Path]:
    """The documents other than the catalogue that could mention a code."""
    return [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "diagnostics.md")]


def words(text: str) -> set[str]:
    """The words of substance of a text (lower case, four letters or more, no filler)."""
    return {w.rstrip("s") for w in WORD.findall(text.lower())} - COMMON


def context_of(line: str, start: int, end: int) -> str:
    """What a mention says about its code: its table row, or the clause around it."""
    if line.lstrip().startswith("|"):
        return line
    before = max(line.rfind(sep, 0, start) for sep in (". ", "; ", ", S", "(", ":"))
    after = [i for i in (line.find(sep, end) for sep in (". ", "; ", ", S", ")")) if i >= 0]
    return line[max(before, 0):min(after) if after else len(line)]


def codes_named(match: re.Match) -> list[str]:
    """The codes a mention names: one, or each code of a range such as E540–E544."""
    first, last = match.group(1), match.group(2)
    if not last:
        return [first]
    low, high = int(first[1:]), int(last.lstrip("SYCNRGEW"))
    return [f"{first[0]}{n}" for n in range(low, high + 1) if f"{first[0]}{n}" in CATALOGUE]


def mentions() -> list[tuple[str, int, tuple[str, ...], str]]:
    """(document, line number, codes, context) of each mention outside the catalogue.

    Codes named in the same context (a table row, one clause) are one mention.
    """
    found: dict[tuple[str, int, str], list[str]] = {}
    for path in documents():
        in_code_block = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("```"):
                in_code_block = not in_code_block
            for match in CODE.finditer(line):
                context = "" if in_code_block else context_of(line, match.start(), match.end())
                found.setdefault((path.name, number, context), []).extend(codes_named(match))
    return [(doc, number, tuple(codes), context) for (doc, number, context), codes in found.items()]


def test_the_documents_mention_codes_at_all():
    assert len(mentions()) > 30


def meaning(codes) -> str:
    """The catalogue's titles and explanations of some codes."""
    return " ".join(CATALOGUE[code].title + " " + CATALOGUE[code].text for code in codes)


@pytest.mark.parametrize("doc,line,codes,context", mentions(), ids=lambda v: str(v)[:30])
def test_a_mentioned_code_is_catalogued_with_the_same_meaning(doc, line, codes, context):
    unknown = [code for code in codes if code not in CATALOGUE]
    assert not unknown, f"{doc}:{line}: {unknown} not in docs/diagnostics.md"
    said = words(CODE.sub("", context))
    if not said:
        return  # a code in a code block, or a bare list of codes, gives no meaning of its own
    assert said & words(meaning(codes)), (
        f"{doc}:{line}: {'/'.join(codes)} described as {context.strip()!r}, "
        f"but docs/diagnostics.md gives: {[CATALOGUE[c].title for c in codes]}")


def test_a_code_given_another_meaning_is_caught():
    assert not words("the hand is dealt twice from one pack") & words(meaning(["E553"]))
    assert words("a rule failed during play") & words(meaning(["E553"]))
