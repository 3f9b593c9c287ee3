"""W616: the scores can never meet the match's ``end``, found without playing
(the reasoning is :mod:`rulelang.compile.endless`, which the engine also uses to stop such a match)."""

from __future__ import annotations

from typing import Iterator

from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.read.document import Document
from rulelang.compile.endless import why_endless
from rulelang.compile.ir import GameDef
from rulelang.validators.registry import check
from rulelang.validators.probe import is_constant


@check("end_is_reachable")
def end_is_reachable(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """W616 when the scores only move away from what ``end`` needs (a constant false ``end`` is G403's)."""
    if is_constant(game.match.end, False):
        return
    way = why_endless(game)
    if way is not None:
        yield Diagnostic("W616", f"the match can never end: {way}, and `end: {game.match.end.text}` needs "
                         "scores they never reach", game.match.end.span,
                         "check the sign of the score phases' `add` and the bound in `end`", severity=WARNING)
