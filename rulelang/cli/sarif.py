"""SARIF 2.1.0 output of ``rulelang validate --format sarif``, for code-scanning viewers.

One run of the tool ``rulelang``: a rule per code that occurs (named and explained from
the catalogue of ``docs/diagnostics.md``), a result per diagnostic with its level, message
(hint appended), physical location (``startLine``/``startColumn``, 1-based) and related
locations for its notes.
"""

from __future__ import annotations

from pathlib import Path

from rulelang import __version__
from rulelang.diagnostics import ERROR, WARNING, Diagnostic
from rulelang.read.source import Span

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {ERROR: "error", WARNING: "warning"}


def to_sarif(results: dict[str, list[Diagnostic]]) -> dict:
    """The SARIF log of ``results`` (file name → its diagnostics)."""
    diagnostics = [d for found in results.values() for d in found]
    codes = sorted({d.code for d in diagnostics})
    index = {code: i for i, code in enumerate(codes)}
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "rulelang", "version": __version__, "rules": [rule(c) for c in codes]}},
            "results": [result(d, index[d.code], ref) for ref, found in results.items() for d in found],
        }],
    }


def rule(code: str) -> dict:
    """The reporting descriptor of ``code``, with the catalogue's title and explanation."""
    from rulelang.validators.catalogue import catalogue
    entry = catalogue().get(code)
    title = entry.title if entry else code
    text = entry.text if entry else f"see docs/diagnostics.md, {code}"
    return {"id": code, "name": _pascal(title), "shortDescription": {"text": title},
            "fullDescription": {"text": text}, "help": {"text": f"docs/diagnostics.md, {code}: {text}"},
            "defaultConfiguration": {"level": "warning" if code.startswith("W") else "error"}}


def result(diagnostic: Diagnostic, rule_index: int, ref: str) -> dict:
    """The SARIF result of one diagnostic found while checking ``ref``."""
    text = diagnostic.message + (f"\nhint: {diagnostic.hint}" if diagnostic.hint else "")
    out = {"ruleId": diagnostic.code, "ruleIndex": rule_index, "level": LEVELS.get(diagnostic.severity, "note"),
           "message": {"text": text}, "locations": [location(diagnostic.span, ref)]}
    related = [dict(location(span, ref), id=i, message={"text": note})
               for i, (note, span) in enumerate(diagnostic.notes) if span is not None]
    if related:
        out["relatedLocations"] = related
    return out


def location(span: Span | None, ref: str) -> dict:
    """A physical location: the span's file and start (or the file checked, when there is no span)."""
    if span is None:
        return {"physicalLocation": {"artifactLocation": {"uri": _uri(ref)}}}
    region = {"startLine": span.line, "startColumn": span.column}
    if span.end_line >= span.line and (span.end_line > span.line or span.end_column > span.column):
        region.update(endLine=span.end_line, endColumn=span.end_column)
    return {"physicalLocation": {"artifactLocation": {"uri": _uri(span.path)}, "region": region}}


def _uri(path: str) -> str:
    """A relative path as a relative URI; an absolute one as a file URI."""
    candidate = Path(path)
    if candidate.is_absolute():
        return candidate.as_uri()
    return candidate.as_posix()


def _pascal(title: str) -> str:
    words = "".join(c if c.isalnum() else " " for c in title).split()
    return "".join(w[:1].upper() + w[1:] for w in words) or "Rule"
