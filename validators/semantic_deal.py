"""Deal arithmetic for the player count, followed along every course a deal can take.

Hands + talon = deck: R320 a deal needs more cards than are left, R323 cards never dealt
when play starts, R326 a deal of no cards, R327 trick play before any card is dealt.
Exchange limits against the talon: R321 no talon, W601 the talon may run out, W611 an
exchange of at most 0 cards (when written as a number: a param set to 0 is a switch).
Piles: R324 the stock does not divide evenly, R325 a pile count that differs from the
player count. Seating: R328 a first dealer who is not one of the seats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.document import Document
from rulelang.ir import GameDef
from rulelang.validators.checks import check
from rulelang.validators.paths import DealPath, deal_paths, describe


@dataclass
class Table:
    """Card counts as a deal goes on: the stock, each hand, the talon."""

    cards: int
    players: int
    stock: int = 0
    hand: int | None = 0
    talon: int | None = None
    last_dealt: int | None = None
    literal: dict = field(default_factory=dict)
    found: list = field(default_factory=list)

    def report(self, code: str, message: str, index: int | None, hint: str, severity: str = "error") -> None:
        """Record a problem at phase ``index`` (None: the whole phase list)."""
        self.found.append((code, message, index, hint, severity))


@check("deal_arithmetic")
def deal_arithmetic(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """Follow the cards through every course of a deal and report what does not add up."""
    paths = deal_paths(game)
    literal = {i: isinstance(doc.get(("phases", i, "exchange", "max")), int) for i in range(len(game.phases))}
    seen: dict[tuple, list] = {}
    for path in paths:
        for problem in _follow(game, path, literal):
            seen.setdefault((problem[0], problem[2]), [problem, []])[1].append(path)
    for (code, index), (problem, where) in seen.items():
        _, message, _, hint, severity = problem
        notes = []
        if len(where) < len(paths) and describe(game, where[0].final_vars):
            notes.append((f"this happens when {describe(game, where[0].final_vars)}", None))
        span = doc.span_of(("phases",) if index is None else ("phases", index))
        yield Diagnostic(code, message, span, hint, severity=severity, notes=notes)


def _follow(game: GameDef, path: DealPath, literal: dict) -> list[tuple]:
    table = Table(len(game.deck.cards), game.players, stock=len(game.deck.cards), literal=literal)
    started = False
    for step in path.steps:
        kind = getattr(step.phase, "kind", None)
        if kind == "tricks" and not started:
            started = True
            _leftover(table, step.index)
        handler = _STEPS.get(kind)
        if handler is not None:
            handler(table, step.phase, step.index)
        if table.stock < 0:
            return table.found
    if not started:
        _leftover(table, None)
    return table.found


def _deal(table: Table, phase, index: int) -> None:
    if phase.each < 1:
        table.report("R326", f"a deal of {phase.each} cards each gives nobody a card", index,
                     "deal at least one card each, or remove this step")
        return
    need = phase.each * table.players
    if need > table.stock:
        dealt = table.cards - table.stock + need
        table.report("R320", f"the deal needs {dealt} cards by this step but the deck has {table.cards}", index,
                     "deal fewer cards each, or use a larger pack")
        table.stock = -1
        return
    table.stock -= need
    table.hand = None if table.hand is None else table.hand + phase.each
    table.last_dealt = index


def _talon(table: Table, phase, index: int) -> None:
    table.talon, table.stock, table.last_dealt = table.stock, 0, index


def _exchange(table: Table, phase, index: int) -> None:
    asked = phase.max * table.players
    if not table.talon:
        table.report("R321", "an exchange with no talon to draw from", index, "put `talon: rest` before the exchange")
    elif phase.max < 1 and table.literal.get(index):
        table.report("W611", f"an exchange of at most {phase.max} cards lets nobody exchange anything", index,
                     "set `max` to at least 1, or remove the exchange", WARNING)
    elif asked > table.talon:
        table.report("W601", f"the talon holds {table.talon} cards but the exchange may ask for up to {asked}; "
                     "later players get what is left", index, "this is allowed; lower `max` if it is not meant",
                     WARNING)


def _piles(table: Table, phase, index: int) -> None:
    count = phase.count
    if count < 1:
        table.report("R324", f"the stock cannot be laid out in {count} piles", index, "give `count` of at least 1")
        return
    if table.stock % count:
        table.report("R324", f"the {table.stock} cards of the stock cannot be laid out in {count} equal piles",
                     index, f"deal or remove cards so that the stock divides by {count}")
    if count != table.players:
        table.report("R325", f"{count} piles for {table.players} players: each player takes one pile, so some "
                     + ("players get none" if count < table.players else "piles are never taken"), index,
                     f"lay out {table.players} piles")
    table.hand = None if table.hand is None or count != table.players else table.hand + table.stock // count
    table.stock, table.last_dealt = 0, index


def _tricks(table: Table, phase, index: int) -> None:
    if table.hand == 0:
        table.report("R327", "trick play starts before any card is dealt", index,
                     "deal the cards first: put `deal` or `piles` phases before `tricks`")
    table.hand = None


def _leftover(table: Table, index: int | None) -> None:
    """Cards still in the stock when play starts are never used: hands + talon must make the deck."""
    if table.stock <= 0 or not table.hand:
        return
    talon = table.talon or 0
    at = table.last_dealt if table.last_dealt is not None else index
    table.report("R323", f"{table.stock} of the {table.cards} cards are never dealt: the hands hold "
                 f"{table.players}×{table.hand} and the talon {talon}", at,
                 "deal more cards each, put `talon: rest` after the last deal, or `remove` the unused cards")
    table.stock = 0


_STEPS = {"deal": _deal, "talon": _talon, "exchange": _exchange, "piles": _piles, "tricks": _tricks}


@check("first_dealer_is_a_seat", needs_definition=False)
def first_dealer_is_a_seat(doc: Document, game=None) -> Iterator[Diagnostic]:
    """A first dealer given by number must be one of the seats (R328)."""
    first, players = doc.get(("seating", "first_dealer")), doc.get(("players",))
    if isinstance(first, int) and isinstance(players, int) and not isinstance(first, bool) and first > players:
        yield Diagnostic("R328", f"the first dealer is seat {first}, but the game has {players} seats",
                         doc.span_of(("seating", "first_dealer")), f"give a seat number from 1 to {players}, or "
                         "`random`")
