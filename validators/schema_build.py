"""Build ``schema.json`` from the document's skeleton and each construct's schema fragment.

``schema_document.json`` (next to this module) describes what every game has — the deck,
seating, contracts, items, the match — with an empty ``phase`` entry; each construct
(:mod:`rulelang.constructs`) brings the ``$defs`` of its phase kind and the description of
its entry. ``python -m rulelang.validators.schema_build`` writes ``schema.json``; a test
fails when the checked-in file is not what this builds.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

from rulelang.constructs import constructs

REF = "#/$defs/"


def build_schema() -> dict:
    """The whole rule document's JSON Schema: the skeleton with every construct's phase kind added."""
    text = resources.files(__package__).joinpath("schema_document.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    defs = schema["$defs"]
    entries = defs["phase"]["properties"]
    for kind, found in constructs().items():
        fragment = found.schema
        first = next(iter(fragment["defs"]))
        entries[kind] = {"description": fragment["entry"], "$ref": REF + first}
        for name, body in fragment["defs"].items():
            if name in defs:
                raise ValueError(f"the construct '{kind}' defines '{name}', which the schema already has")
            defs[name] = body
    return schema


def schema_text() -> str:
    """``build_schema()`` as the text of ``schema.json``."""
    return json.dumps(build_schema(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    """Write ``schema.json`` next to this module (or to the path given)."""
    target = Path(argv[0]) if argv else Path(__file__).with_name("schema.json")
    target.write_text(schema_text(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
