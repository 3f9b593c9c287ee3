"""Where checks are registered: :func:`check` records a function in :data:`CHECKS`.

The check families (:mod:`rulelang.validators.semantic_deck` and its siblings) and the constructs with
checks of their own import this module; :mod:`rulelang.validators.checks` runs what they registered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from rulelang.diagnostics import Diagnostic
from rulelang.read.document import Document

CheckFn = Callable[[Document, "GameDef | None"], Iterator[Diagnostic]]


@dataclass(frozen=True)
class Check:
    """A registered check and whether it needs the compiled game."""

    name: str
    fn: CheckFn
    needs_definition: bool = True
    any_shape: bool = False             # also runs on a document the schema refused


CHECKS: dict[str, Check] = {}


def check(name: str, needs_definition: bool = True, any_shape: bool = False):
    """Register a check under ``name``; ``any_shape`` checks read documents of any shape safely and also run
    when the schema refused the document."""
    def register(fn: CheckFn) -> CheckFn:
        """Record ``fn`` in :data:`CHECKS` and return it unchanged."""
        CHECKS[name] = Check(name, fn, needs_definition, any_shape)
        return fn
    return register
