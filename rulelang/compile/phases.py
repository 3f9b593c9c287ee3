"""Compiling the phases of a deal (a mixin of :class:`rulelang.compile.compiler.GameCompiler`).

Each phase kind compiles itself (:meth:`rulelang.constructs.base.Construct.compile`); this
mixin finds the construct of an entry, and adds what every phase has: its span and ``when``.
"""

from __future__ import annotations

from rulelang.constructs import construct
from rulelang.compile.exprcompile import BOOL, PLAYER_CODE, SEAT, Binding


class PhasesMixin:
    """``phase(index, entry)`` and what the constructs' compilers share."""

    def phase(self, index: int, entry: dict):
        """Compile entry ``index`` of ``phases``."""
        return self.phase_at(("phases", index), entry)

    def phase_at(self, where: tuple, entry: dict):
        """Compile the phase entry found at document path ``where``."""
        kind, body = next(iter(entry.items()))
        path = where + (kind,)
        found = construct(kind) if isinstance(kind, str) else None
        if found is None:
            self.error("R303", f"unknown phase kind '{kind}'", path, "see docs/language.md, Phases")
            return None
        body = body if isinstance(body, dict) else {}
        result = found.compile(self, path, body)
        result.span = self.doc.span_of(where)
        result.when = self.optional_rule(path + ("when",), BOOL)
        return result

    def player_scope(self, scope=None):
        """A scope with ``player`` bound to the seat being considered."""
        return (scope or self.scope).child(player=Binding(SEAT, PLAYER_CODE))
