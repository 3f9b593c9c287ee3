"""The pipeline from a file name (or a shipped game's name) to a running :class:`Game`.

``read_document`` parses one file (DSL or YAML by its suffix), ``resolve_document``
merges its ``extends`` chain (both from :mod:`rulelang.read.files`, named here too), ``check_document`` runs the schema and the compiler and
returns every diagnostic, ``load_game`` gives a ready Game or raises RuleError.
"""

from __future__ import annotations

from pathlib import Path

from rulelang.diagnostics import Diagnostic, Report, RuleError
from rulelang.read.document import Document
from rulelang.read.files import (MAX_FILE_BYTES, allow_paths, find_game, find_reference, games_dir, open_document, parse_text,
                                 read_document, resolve_document, shipped_game, shipped_games)

__all__ = ["allow_paths", "check_document", "find_game", "find_reference", "games_dir", "load_definition", "load_game",
           "load_text", "open_document", "parse_text", "point_at_variant", "read_document", "resolve_document",
           "shipped_game", "shipped_games"]


def check_document(doc: Document):
    """Schema and compile checks of a resolved document: ``(definition or None, report)``."""
    from rulelang.compile.compiler import compile_game
    from rulelang.validators.schema import check_schema
    report = Report()
    report.extend(check_schema(doc))
    if report.has_errors:
        return None, point_at_variant(doc, report)
    try:
        definition = compile_game(doc)
    except RuleError as exc:
        report.extend(exc.diagnostics)
        return None, point_at_variant(doc, report)
    from rulelang.validators.checks import run_checks
    report.extend(run_checks(doc, definition))
    return definition, point_at_variant(doc, report)


def point_at_variant(doc: Document, report: Report) -> Report:
    """Give each diagnostic of a variant that points into its base, and nowhere into the variant, a note at
    the variant's ``extends``: the rule it reports is the base's, but the change that broke it is the variant's.
    """
    extends = doc.spans.get(("extends",))
    if extends is None:
        return report
    for diagnostic in report.items:
        span = diagnostic.span
        if span is not None and span.path != doc.path and not any(
                note is not None and note.path == doc.path for _, note in diagnostic.notes):
            diagnostic.notes.append((f"in the base game, as {Path(doc.path).name} changes it", extends))
    return report


def load_definition(ref: str):
    """The compiled definition of game ``ref``; raises RuleError on any error.

    A document that passed every check before (see :mod:`rulelang.read.cache`) is only compiled.
    """
    from rulelang.read import cache
    doc = open_document(ref)
    if cache.passed_before(doc.data):
        from rulelang.compile.compiler import compile_game
        return compile_game(doc)
    definition, report = check_document(doc)
    report.raise_if_errors()
    cache.record_pass(doc.data)
    return definition


def load_game(ref: str, max_deals: int | None = None):
    """A ready :class:`~rulelang.interpreter.Game` for ``ref``; raises RuleError on any error."""
    from rulelang.interpreter import Game
    return Game(load_definition(ref), max_deals=max_deals)


def load_text(text: str, syntax: str = "rules", max_deals: int | None = None):
    """A ready game from rule text rather than a file: ``syntax`` is ``rules`` (the DSL) or ``yaml``.

    Diagnostics point into ``<text>``; an ``extends`` names a shipped game, or a rule file
    under the current folder. Every check of :func:`load_game` runs; RuleError on any error.
    """
    from rulelang.interpreter import Game
    if syntax not in ("rules", "yaml"):
        raise ValueError(f"syntax must be 'rules' or 'yaml', not {syntax!r}")
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise RuleError([Diagnostic("S120", f"the rule text is larger than {MAX_FILE_BYTES} bytes", None,
                                    "split the game into a base and variants")])
    doc = resolve_document(parse_text(text, f"<text>.{syntax}"))
    definition, report = check_document(doc)
    report.raise_if_errors()
    return Game(definition, max_deals=max_deals)
