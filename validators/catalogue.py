"""The catalogue of diagnostic codes: ``docs/diagnostics.md`` and its packaged summary.

Every code has a section in ``docs/diagnostics.md`` headed ``### CODE — title``, followed
by its explanation and then a minimal example (introduced by a line starting ``Example``). :func:`parse_catalogue` reads that text;
``catalogue.json`` (next to this module, generated from the docs by
``python -m rulelang.validators.catalogue docs/diagnostics.md``) carries the titles and
explanations into installed copies, where SARIF output names its rules with them.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

HEADING = re.compile(r"^### ([A-Z]\d{3}) — (.+)$")
FENCE = "```"


@dataclass(frozen=True)
class Entry:
    """One catalogued code: its title and its explanation (plain text, paragraphs joined)."""

    code: str
    title: str
    text: str


def parse_catalogue(markdown: str) -> dict[str, Entry]:
    """The entries of a catalogue written as in ``docs/diagnostics.md``, by code."""
    entries: dict[str, Entry] = {}
    current: list[str] | None = None
    code = title = ""
    for line in markdown.splitlines() + ["### Z999 — end"]:
        match = HEADING.match(line)
        if match:
            if current is not None:
                entries[code] = Entry(code, title, _explanation(current))
            code, title, current = match.group(1), match.group(2).strip(), []
        elif current is not None:
            current.append(line)
    entries.pop("Z999", None)
    return entries


def _explanation(lines: list[str]) -> str:
    """The prose before the example (a line starting ``Example``, a code block or a heading)."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line.startswith((FENCE, "#", "Example")):
            break
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(" ".join(p) for p in paragraphs if p)


@lru_cache(maxsize=1)
def catalogue() -> dict[str, Entry]:
    """The packaged catalogue (``catalogue.json``), by code (empty if it is missing)."""
    try:
        text = resources.files(__package__).joinpath("catalogue.json").read_text(encoding="utf-8")
    except OSError:
        return {}
    return {code: Entry(code, **fields) for code, fields in json.loads(text).items()}


def to_json(entries: dict[str, Entry]) -> str:
    """The text of ``catalogue.json`` for ``entries``."""
    data = {code: {"title": e.title, "text": e.text} for code, e in sorted(entries.items())}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """Write ``catalogue.json`` from the catalogue document named in ``argv``."""
    (source,) = argv
    with open(source, encoding="utf-8") as handle:
        text = to_json(parse_catalogue(handle.read()))
    target = resources.files(__package__).joinpath("catalogue.json")
    with open(str(target), "w", encoding="utf-8") as out:
        out.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
