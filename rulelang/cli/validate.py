"""``rulelang validate``: every diagnostic of every file, human or JSON."""

from __future__ import annotations

import json
import sys

from rulelang.diagnostics import Diagnostic, RuleError, sort_diagnostics


def diagnostics_of(ref: str) -> list[Diagnostic]:
    """All diagnostics of one rule file (parse, extends, schema, names, semantics)."""
    from rulelang.loader import check_document, open_document
    try:
        doc = open_document(ref)
    except RuleError as exc:
        return list(exc.diagnostics)
    _, report = check_document(doc)
    return sort_diagnostics(report.items)


def validate_files(files: list[str], as_json: bool = False) -> int:
    """Validate ``files``; print the diagnostics; 1 if any file has an error, else 0."""
    results = {ref: diagnostics_of(ref) for ref in files}
    failed = any(d.is_error for found in results.values() for d in found)
    if as_json:
        payload = {"ok": not failed, "files": [
            {"file": ref, "ok": not any(d.is_error for d in found), "diagnostics": [d.to_json() for d in found]}
            for ref, found in results.items()]}
        sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
        return 1 if failed else 0
    for ref, found in results.items():
        for diagnostic in found:
            sys.stdout.write(diagnostic.render() + "\n\n")
        errors = sum(d.is_error for d in found)
        warnings = len(found) - errors
        status = "ok" if not errors else f"{errors} error(s)"
        sys.stdout.write(f"{ref}: {status}" + (f", {warnings} warning(s)" if warnings else "") + "\n")
    return 1 if failed else 0
