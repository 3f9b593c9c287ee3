"""The rule document: plain data shared by both surface syntaxes, plus where each part came from.

``Document.data`` is made only of dicts, lists, strings, ints, floats, bools and None,
so it can be compared, dumped and checked by JSON Schema. ``Document.spans`` maps a path
into the data (a tuple of keys and list indexes, ``("phases", 3, "decide", "forbid")``)
to the :class:`~rulelang.read.source.Span` it was written at. Lookups fall back to the
nearest enclosing path that has a span, so every part of a document can be located.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from rulelang.read.source import Span

Path = tuple


@dataclass
class Document:
    """A rule document and the spans of its parts."""

    data: dict
    spans: dict[Path, Span] = field(default_factory=dict)
    path: str = "<string>"

    def span_of(self, path: Path) -> Span | None:
        """The span of ``path`` or of its nearest ancestor that has one."""
        path = tuple(path)
        while True:
            span = self.spans.get(path)
            if span is not None or not path:
                return span
            path = path[:-1]

    def get(self, path: Path, default: Any = None) -> Any:
        """The value at ``path``, or ``default`` if some step of it is missing."""
        node: Any = self.data
        for step in path:
            try:
                node = node[step]
            except (KeyError, IndexError, TypeError):
                return default
        return node


def rekeyed(value: Any, key: Callable[[Any], str]) -> Any:
    """``value`` (plain document data) with every mapping key replaced by ``key(k)``, so that a document whose
    keys mix numbers and text (``points: {A: 11, 10: 10}``) can be written as canonical, sorted JSON."""
    if isinstance(value, dict):
        return {key(k): rekeyed(v, key) for k, v in value.items()}
    if isinstance(value, list):
        return [rekeyed(v, key) for v in value]
    return value
