"""Source texts and spans: where in which file a piece of a rule document came from."""

from __future__ import annotations

import re
from dataclasses import dataclass

_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#[^\n]*|\'[^\'\n]*\'?|[{}\[\]()]')


def too_deep(text: str, limit: int) -> int | None:
    """The offset of the first bracket nested deeper than ``limit`` in ``text``, outside double-quoted
    strings (with their escapes), single-quoted cards and ``#`` comments; None if there is none.

    Every reader of untrusted text (rule files, expressions, log lines) checks this before a
    parser that recurses sees the text.
    """
    level = 0
    for match in _BRACKETS.finditer(text):
        token = match.group()
        if token in "{[(":
            level += 1
            if level > limit:
                return match.start()
        elif token in "}])":
            level = max(level - 1, 0)
    return None


@dataclass(frozen=True)
class Span:
    """A region of a source file: 1-based line and column of its start and end."""

    path: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


class SourceRegistry:
    """Remembers the text of every file loaded so diagnostics can quote source lines."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}

    def add(self, path: str, text: str) -> None:
        """Record the text of ``path``."""
        self._texts[path] = text

    def text(self, path: str) -> str:
        """The whole text recorded for ``path`` (empty if none was)."""
        return self._texts.get(path, "")

    def line(self, path: str, line: int) -> str | None:
        """Return line ``line`` (1-based) of ``path`` without its newline, or None.

        Lines end at ``\n`` alone: U+2028, U+0085 and the like are characters of a line.
        """
        text = self._texts.get(path)
        if text is None or line < 1:
            return None
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        if line > len(lines):
            return None
        return lines[line - 1].rstrip("\r")


SOURCES = SourceRegistry()
