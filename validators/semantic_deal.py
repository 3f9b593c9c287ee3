"""Deal arithmetic for the player count, followed along every course a deal can take.

Each phase kind moves the card counts in its own ``count_cards`` (see :mod:`rulelang.constructs`:
R320/R326 deal, R321/W601/W611 exchange, R324/R325 piles, R327/R374 tricks, R373/R375 take_up
and take_talon); this module walks
the courses of a deal and reports what no single phase can see: R323 cards never dealt when
play starts (hands + talon must make the deck). Seating: R328 a first dealer who is not
one of the seats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from rulelang.constructs import construct
from rulelang.diagnostics import Diagnostic
from rulelang.read.document import Document
from rulelang.compile.ir import GameDef
from rulelang.validators.registry import check
from rulelang.validators.paths import DealPath, deal_paths, describe, shared_values


@dataclass
class Table:
    """Card counts as a deal goes on: the stock, each hand, the talon."""

    cards: int
    players: int
    stock: int = 0
    hand: int | None = 0
    talon: int | None = None
    last_dealt: int | None = None
    turned: int = 0                     # cards turned up and not yet taken
    uneven: tuple | None = None         # (phase index, who, holds, others): a seat's hand differs from the rest
    literal: dict = field(default_factory=dict)
    found: list = field(default_factory=list)

    def report(self, code: str, message: str, index: int | None, hint: str, severity: str = "error",
               field: tuple = ()) -> None:
        """Record a problem at phase ``index`` (None: the whole phase list), at its ``field`` (a path inside the
        phase's mapping, e.g. ``("discard",)``) when the phase's text has it."""
        self.found.append((code, message, index, hint, severity, field))


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
        _, message, _, hint, severity, field = problem
        notes = []
        common = shared_values([path.final_vars for path in where])
        if len(where) < len(paths) and describe(game, common):
            notes.append((f"this happens when {describe(game, common)}", None))
        span = doc.span_of(("phases",) if index is None else ("phases", index))
        if index is not None and field:
            kind = getattr(game.phases[index], "kind", None)
            span = doc.span_of(("phases", index, kind, *field)) or span
        yield Diagnostic(code, message, span, hint, severity=severity, notes=notes)


def _follow(game: GameDef, path: DealPath, literal: dict) -> list[tuple]:
    table = Table(len(game.deck.cards), game.players, stock=len(game.deck.cards), literal=literal)
    started = False
    for step in path.steps:
        kind = getattr(step.phase, "kind", None)
        if kind == "tricks" and not started:
            started = True
            if getattr(step.phase.rules, "draw", None) is None:       # a stock drawn from in play is used
                _leftover(table, step.index)
        found = construct(kind) if isinstance(kind, str) else None
        if found is not None and found.count_cards is not None:
            found.count_cards(table, step.phase, step.index)
        if table.stock < 0:
            return table.found
    if not started and not any(getattr(phase, "kind", None) == "tricks" for phase in game.phases):
        _leftover(table, None)          # a course without trick play in a trick game is thrown in: nothing is lost
    return table.found


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


@check("first_dealer_is_a_seat", needs_definition=False)
def first_dealer_is_a_seat(doc: Document, game=None) -> Iterator[Diagnostic]:
    """A first dealer given by number must be one of the seats (R328)."""
    first, players = doc.get(("seating", "first_dealer")), doc.get(("players",))
    if isinstance(first, int) and isinstance(players, int) and not isinstance(first, bool) and first > players:
        yield Diagnostic("R328", f"the first dealer is seat {first}, but the game has {players} seats",
                         doc.span_of(("seating", "first_dealer")), f"give a seat number from 1 to {players}, or "
                         "`random`")
