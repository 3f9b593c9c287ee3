"""The registry of semantic, graph and usage checks: small functions, each yielding diagnostics.

A check is ``check(doc, definition) -> Iterator[Diagnostic]``; register it with
:func:`check`. Checks registered with ``needs_definition=False`` read the document only
(``definition`` is None) and also run when the compiler stopped, so an author sees their
findings next to the compiler's. :func:`run_checks` runs every check on a compiled game,
:func:`run_document_checks` only the document ones.

The checks live by family: :mod:`~rulelang.validators.semantic_deck` (cards and names),
:mod:`~rulelang.validators.semantic_deal` (deal arithmetic),
:mod:`~rulelang.validators.semantic_rules` (decisions, trick winners, contracts and items),
:mod:`~rulelang.validators.graph` (the flow of phases, the bidding ladder, auction words),
:mod:`~rulelang.validators.usage` (W6xx: unused and shadowed definitions, constant conditions),
:mod:`~rulelang.validators.variants` (overrides that change nothing, names close to the base's) and
:mod:`~rulelang.validators.never` (contracts that can never be won or bid).
"""

from __future__ import annotations

from rulelang.diagnostics import Diagnostic
from rulelang.read.document import Document
from rulelang.compile.ir import GameDef
from rulelang.validators.registry import CHECKS, Check, CheckFn, check  # registered there; named here too


def run_checks(doc: Document, definition: GameDef) -> list[Diagnostic]:
    """Every registered check's diagnostics for a compiled game."""
    _load_families()
    found: list[Diagnostic] = []
    for entry in CHECKS.values():
        found.extend(entry.fn(doc, definition))
    return found


def run_document_checks(doc: Document, schema_ok: bool = True) -> list[Diagnostic]:
    """The diagnostics of the checks that read the document only (for a game that did not compile); when the
    schema refused the document, of those among them that read a document of any shape."""
    _load_families()
    found: list[Diagnostic] = []
    for entry in CHECKS.values():
        if not entry.needs_definition and (schema_ok or entry.any_shape):
            found.extend(entry.fn(doc, None))
    return found


def _load_families() -> None:
    """Import the check modules and the constructs, which register their checks."""
    from rulelang.constructs import constructs
    from rulelang.validators import (graph, never, reach, semantic_deal, semantic_deck,  # noqa: F401
                                     semantic_rules, usage, variants)
    constructs()
