"""Semantic checks of a compiled game: small functions in a registry, each yielding diagnostics.

A check is ``check(doc, definition) -> Iterator[Diagnostic]``; register it with
:func:`check`. :func:`run_checks` runs them all.
"""

from __future__ import annotations

from typing import Callable, Iterator

from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.document import Document
from rulelang.ir import GameDef

CHECKS: dict[str, Callable[[Document, GameDef], Iterator[Diagnostic]]] = {}


def check(name: str):
    """Register a check under ``name``."""
    def register(fn):
        CHECKS[name] = fn
        return fn
    return register


def run_checks(doc: Document, definition: GameDef) -> list[Diagnostic]:
    """Every registered check's diagnostics."""
    found: list[Diagnostic] = []
    for fn in CHECKS.values():
        found.extend(fn(doc, definition))
    return found


@check("deal_arithmetic")
def deal_arithmetic(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """The packets dealt must not need more cards than the deck has."""
    dealt = 0
    for i, phase in enumerate(game.phases):
        if phase is not None and phase.kind == "deal":
            dealt += phase.each * game.players
            if dealt > len(game.deck.cards):
                yield Diagnostic("R320", f"the deal needs {dealt} cards by this step but the deck has "
                                 f"{len(game.deck.cards)}", doc.span_of(("phases", i)),
                                 "deal fewer cards each, or use a larger pack")


@check("talon_exchange")
def talon_exchange(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """An exchange needs a talon; warn when the talon can run out (later exchangers get what is left)."""
    dealt, talon = 0, 0
    for i, phase in enumerate(game.phases):
        kind = getattr(phase, "kind", None)
        if kind == "deal":
            dealt += phase.each * game.players
        elif kind == "talon":
            talon = len(game.deck.cards) - dealt
        elif kind == "exchange":
            if talon == 0:
                yield Diagnostic("R321", "an exchange with no talon to draw from", doc.span_of(("phases", i)),
                                 "put `talon: rest` before the exchange")
            elif phase.max * game.players > talon:
                yield Diagnostic("W601", f"the talon holds {talon} cards but the exchange may ask for up to "
                                 f"{phase.max * game.players}; later players get what is left",
                                 doc.span_of(("phases", i)), "this is allowed; lower `max` if it is not meant",
                                 severity=WARNING)


@check("tricks_have_winner_rules")
def tricks_have_winner_rules(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """Trick play needs at least one win rule."""
    for i, phase in enumerate(game.phases):
        if getattr(phase, "kind", None) == "tricks" and not phase.rules.win:
            yield Diagnostic("R322", "trick play without a rule for who wins the trick", doc.span_of(("phases", i)),
                             "add `win: [{highest: led_suit}]` at least")
