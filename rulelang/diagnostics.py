"""One diagnostic type for every stage, and its rendering.

A :class:`Diagnostic` has a code (``S1xx`` syntax, ``Y1xx`` YAML, ``C1xx`` schema,
``N2xx`` names and types, ``R3xx`` rule semantics, ``G4xx`` flow graph, ``E5xx`` run
time, ``W6xx`` warnings), a severity, a message in the game's own words, a span, a hint
and related notes.  Rendered it reads::

    games/x.rules:12:5: error[N201]: unknown suit 'diamond'
       12 |   forbid pass when trump == diamond
          |                             ^
    hint: the suits are clubs, spades, hearts, diamonds
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from rulelang.read.source import SOURCES, Span

ERROR = "error"
WARNING = "warning"
NOTE = "note"

_SEVERITY_ORDER = {ERROR: 0, WARNING: 1, NOTE: 2}


@dataclass
class Diagnostic:
    """One problem found in a rule file, a log or a move."""

    code: str
    message: str
    span: Span | None = None
    hint: str | None = None
    severity: str = ERROR
    notes: list[tuple[str, Span | None]] = field(default_factory=list)

    @property
    def is_error(self) -> bool:
        """True for diagnostics that stop a file from being used."""
        return self.severity == ERROR

    def render(self) -> str:
        """The human form: location, code, message, quoted source line with caret, hint."""
        where = f"{self.span}: " if self.span else ""
        lines = [f"{where}{self.severity}[{self.code}]: {self.message}"]
        lines.extend(_quote(self.span))
        for text, span in self.notes:
            lines.append(f"note: {text}" + (f" ({span})" if span else ""))
            lines.extend(_quote(span))
        if self.hint:
            lines.append(f"hint: {self.hint}")
        return "\n".join(lines)

    def to_json(self) -> dict:
        """A JSON-ready dict of this diagnostic."""
        out = {"code": self.code, "severity": self.severity, "message": self.message}
        if self.span:
            out.update(path=self.span.path, line=self.span.line, column=self.span.column)
        if self.hint:
            out["hint"] = self.hint
        if self.notes:
            out["notes"] = [
                {"message": text, **({"path": s.path, "line": s.line, "column": s.column} if s else {})}
                for text, s in self.notes
            ]
        return out


def _quote(span: Span | None) -> list[str]:
    if span is None:
        return []
    text = SOURCES.line(span.path, span.line)
    if text is None:
        return []
    gutter = f"{span.line:>5} | "
    width = 1
    if span.end_line == span.line and span.end_column > span.column:
        width = span.end_column - span.column
    caret = " " * (len(gutter) - 2) + "| " + " " * (span.column - 1) + "^" * min(width, 60)
    return [gutter + text, caret]


class RuleError(Exception):
    """Raised when a stage cannot go on; carries every diagnostic collected so far."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sort_diagnostics(diagnostics)
        super().__init__(render_all(self.diagnostics))


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Best match first: errors before warnings, then by file position."""
    def key(d: Diagnostic):
        s = d.span
        return (_SEVERITY_ORDER.get(d.severity, 3), s.path if s else "", s.line if s else 0, s.column if s else 0, d.code)
    return sorted(diagnostics, key=key)


def unique_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` without repeats (same code, message and place), in their order."""
    seen, out = set(), []
    for d in diagnostics:
        key = (d.code, d.message, d.span)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def render_all(diagnostics: Iterable[Diagnostic]) -> str:
    """Render diagnostics separated by blank lines."""
    return "\n\n".join(d.render() for d in diagnostics)


class Report:
    """Diagnostics collected by one or more stages."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def add(self, diagnostic: Diagnostic) -> None:
        """Record one diagnostic."""
        self.items.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        """Record several diagnostics."""
        self.items.extend(diagnostics)

    @property
    def has_errors(self) -> bool:
        """True if any collected diagnostic is an error."""
        return any(d.is_error for d in self.items)

    def raise_if_errors(self) -> None:
        """Raise :class:`RuleError` with everything collected if there is an error."""
        if self.has_errors:
            raise RuleError(self.items)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(sort_diagnostics(self.items))


class IllegalActionError(Exception):
    """A move that the rules forbid now; names the rule and where it is written."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic
        super().__init__(diagnostic.render())


def similar_names(name: str, known: Iterable[str], n: int = 2, cutoff: float = 0.6) -> list[str]:
    """The names of ``known`` a slip for ``name`` most likely meant, best first: those that hold it as a whole
    word part (``bonus`` → ``bonus_last``) or that it holds (``bonus_last`` → ``bonus``), then the closest
    by spelling (``bonuss`` → ``bonus``)."""
    import difflib
    known = [str(k) for k in known if str(k) != name]
    parts = set(name.split("_"))
    whole = [k for k in known if parts <= set(k.split("_")) or set(k.split("_")) <= parts]
    spelled = difflib.get_close_matches(name, known, n=n, cutoff=cutoff)
    return list(dict.fromkeys(whole + spelled))[:n]
