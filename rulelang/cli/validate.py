"""``rulelang validate``: every diagnostic of every file, as text (coloured on a terminal), JSON or SARIF.

The pipeline for one rule file: parse and resolve ``extends`` (S1xx, Y1xx, R31x), the
JSON Schema (C1xx), the compiler (N2xx, R3xx), the registered semantic, graph and usage
checks (R3xx, G4xx, W6xx) and, with ``--simulate N``, N seeded random deals (E55x).
When the compiler stops, the checks that read the document alone still run, so an author
sees all that can be found at once. A ``.jsonl`` file is a game log: it is replayed and
its problems reported (E5xx, W650).

The text form shows the best few diagnostics of each file (errors first, then by
position) and says how many more there are; ``--all`` shows every one.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import TextIO

from rulelang.diagnostics import Diagnostic
from rulelang.validators.report import diagnostics_of

SHOWN = 10
FORMATS = ("human", "json", "sarif")


def validate_files(files: list[str], as_json: bool = False, fmt: str = "human", show_all: bool = False,
                   simulate: int = 0, out: TextIO | None = None, agents: str | None = None) -> int:
    """Validate ``files``; write the diagnostics; 1 if any file has an error, else 0."""
    out = out or sys.stdout
    fmt = "json" if as_json else fmt
    results = {ref: diagnostics_of(ref, simulate, agents) for ref in files}
    failed = any(d.is_error for found in results.values() for d in found)
    if fmt == "json":
        out.write(json.dumps(json_report(results), indent=2, ensure_ascii=False) + "\n")
    elif fmt == "sarif":
        from rulelang.cli.sarif import to_sarif
        out.write(json.dumps(to_sarif(results), indent=2, ensure_ascii=False) + "\n")
    else:
        colour = use_colour(out)
        for ref, found in results.items():
            out.write(human_report(ref, found, show_all, colour))
            if simulate and was_simulated(ref, found):
                out.write(simulated_line(ref, simulate, agents))
    return 1 if failed else 0


def was_simulated(ref: str, found: list[Diagnostic]) -> bool:
    """Whether ``--simulate`` played ``ref``: a rule file that has no error but those found by playing."""
    return not ref.endswith(".jsonl") and not any(d.is_error and not d.code.startswith("E55") for d in found)


def simulated_line(ref: str, deals: int, agents: str | None = None) -> str:
    """What ``--simulate`` played, by whom, and what it checked, in one line."""
    from rulelang.validators.simulate import CHECKED, MATCHES
    deals_text = "1 random deal" if deals == 1 else f"{deals} random deals"
    if agents:
        deals_text = f"{deals} deal{'s' if deals != 1 else ''} with the players {agents}"
    return (f"{ref}: played {deals_text} and up to {min(deals, MATCHES)} whole matches, checking that "
            + ", ".join(CHECKED[:-1]) + f" and that {CHECKED[-1]}\n")


def json_report(results: dict[str, list[Diagnostic]]) -> dict:
    """The ``--json`` form: per file whether it is usable and every diagnostic."""
    failed = any(d.is_error for found in results.values() for d in found)
    return {"ok": not failed, "files": [
        {"file": ref, "ok": not any(d.is_error for d in found), "diagnostics": [d.to_json() for d in found]}
        for ref, found in results.items()]}


def human_report(ref: str, found: list[Diagnostic], show_all: bool = False, colour: bool = False) -> str:
    """The text form for one file: the best few diagnostics (all with ``show_all``) and a status line."""
    shown = found if show_all else found[:SHOWN]
    parts = [(paint(d.render(), d.severity) if colour else d.render()) + "\n\n" for d in shown]
    if len(found) > len(shown):
        parts.append(f"… and {len(found) - len(shown)} more; `rulelang validate --all {ref}` shows every one\n")
    errors = sum(d.is_error for d in found)
    warnings = len(found) - errors
    status = "ok" if not errors else f"{errors} error(s)"
    parts.append(f"{ref}: {status}" + (f", {warnings} warning(s)" if warnings else "") + "\n")
    return "".join(parts)


# ---------------------------------------------------------------------- colour
_ANSI = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "note": "\x1b[1;36m", "hint": "\x1b[1;32m",
         "gutter": "\x1b[34m", "reset": "\x1b[0m"}
_HEADER = re.compile(r"^(.*?)(error|warning|note)(\[[A-Z]\d{3}\]:)(.*)$")
_CARET = re.compile(r"^(\s*\|\s*)(\^+)$")
_GUTTER = re.compile(r"^(\s*\d+ \|)(.*)$")


def use_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and "NO_COLOR" not in os.environ


def paint(text: str, severity: str) -> str:
    """A rendered diagnostic with ANSI colours: severity and code, carets, gutters, notes and hint."""
    lines = text.split("\n")
    return "\n".join(_paint_line(line, severity, first=i == 0) for i, line in enumerate(lines))


def _paint_line(line: str, severity: str, first: bool) -> str:
    a = _ANSI
    if first and (m := _HEADER.match(line)):
        return f"{m.group(1)}{a[m.group(2)]}{m.group(2)}{m.group(3)}{a['reset']}\x1b[1m{m.group(4)}{a['reset']}"
    if m := _CARET.match(line):
        return f"{a['gutter']}{m.group(1)}{a['reset']}{a.get(severity, '')}{m.group(2)}{a['reset']}"
    if m := _GUTTER.match(line):
        return f"{a['gutter']}{m.group(1)}{a['reset']}{m.group(2)}"
    for word in ("hint", "note"):
        if line.startswith(word + ":"):
            return f"{a[word]}{word}:{a['reset']}{line[len(word) + 1:]}"
    return line
