"""Every diagnostic of one rule file, rule text or game log: what ``rulelang validate`` reports and the web
table checks an upload with.

For a rule file: parse and resolve ``extends`` (S1xx, Y1xx, R31x), the JSON Schema (C1xx), the compiler
(N2xx, R3xx), the registered checks (R3xx, G4xx, W6xx; those that read the document alone also when the
compiler stopped) and, with ``simulate`` > 0, that many seeded random deals (E55x). A ``.jsonl`` file is a
log: it is replayed and its problems reported (E5xx, W650).
"""

from __future__ import annotations

from rulelang.diagnostics import Diagnostic, RuleError, sort_diagnostics, unique_diagnostics
from rulelang.loader import check_document, open_document, parse_text, resolve_document
from rulelang.read.document import Document


def diagnostics_of(ref: str, simulate: int = 0, agents: str | None = None) -> list[Diagnostic]:
    """All diagnostics of one rule file or log (parse, extends, schema, names, semantics; optionally play)."""
    if ref.endswith(".jsonl"):
        from rulelang.validators.logs import log_diagnostics
        return sort_diagnostics(log_diagnostics(ref))
    try:
        doc = open_document(ref)
    except RuleError as exc:
        return list(exc.diagnostics)
    return diagnostics_of_document(doc, simulate, agents)


def diagnostics_of_text(text: str, path: str, simulate: int = 0) -> list[Diagnostic]:
    """All diagnostics of rule text as an editor holds it (the syntax is chosen by ``path``'s suffix)."""
    try:
        doc = resolve_document(parse_text(text, path))
    except RuleError as exc:
        return list(exc.diagnostics)
    return diagnostics_of_document(doc, simulate)


def diagnostics_of_document(doc: Document, simulate: int = 0, agents: str | None = None) -> list[Diagnostic]:
    """All diagnostics of a resolved document."""
    from rulelang.validators.checks import run_document_checks
    definition, report = check_document(doc)
    found = list(report.items)
    schema_ok = not any(d.code.startswith("C") for d in found)
    if definition is None:
        found.extend(run_document_checks(doc, schema_ok))
    if definition is not None and simulate > 0 and not report.has_errors:
        from rulelang.validators.never import confirm
        from rulelang.validators.simulate import simulate as play
        tally: dict = {}
        found.extend(play(definition, simulate, agents=agents, tally=tally))
        confirm(found, doc, definition, tally, simulate)
    return sort_diagnostics(unique_diagnostics(found))
