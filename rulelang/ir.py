"""The compiled form of a game: deck tables, seats, phases and match rules, names resolved.

Every expression is a closure ``fn(state, player)``; every rule keeps the span it was
written at (``span``) so run-time errors and illegal moves point back at the rule file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from rulelang.deck import Deck
from rulelang.source import Span


@dataclass
class Rule:
    """A compiled expression and where it was written."""

    fn: Callable
    text: str
    span: Span | None


@dataclass
class DealPhase:
    """Every seat receives ``each`` cards, from forehand in the direction of play."""

    each: int
    span: Span | None = None
    kind: str = "deal"


@dataclass
class TalonPhase:
    """Every undealt card goes to the talon."""

    span: Span | None = None
    kind: str = "talon"


@dataclass
class ChoosePhase:
    """``by`` chooses one of ``options``; stored in the deal variable ``var``."""

    var: str
    by: Rule
    options: list[str]
    values: list
    span: Span | None = None
    kind: str = "choose"


@dataclass
class ExchangePhase:
    """Each seat in turn from ``start`` discards up to ``max`` cards and draws as many from the talon."""

    start: Rule
    max: int
    span: Span | None = None
    kind: str = "exchange"


@dataclass
class DecidePhase:
    """Each seat in turn from ``start`` picks an option; ``leave`` drops it from the active seats."""

    options: list[str]
    start: Rule
    leave: str | None
    forbid: dict[str, Rule]
    span: Span | None = None
    kind: str = "decide"


@dataclass
class WinRule:
    """One rule of the trick winner: the highest card of the trick within ``cards``."""

    cards: Rule


@dataclass
class TricksPhase:
    """Trick play among ``among``; ``follow`` is the ordered fallback of card sets."""

    among: Rule
    lead: Rule
    follow: list[Rule]
    win: list[WinRule]
    alone: str
    span: Span | None = None
    kind: str = "tricks"


@dataclass
class ScorePhase:
    """Each seat of ``each`` adds ``add`` to its match score."""

    each: Rule
    add: Rule
    span: Span | None = None
    kind: str = "score"


@dataclass
class MatchRules:
    """Start score, when the match ends, who wins, what a tie means."""

    start: int
    end: Rule
    winner: str
    tie: str


@dataclass
class GameDef:
    """Everything the interpreter needs to run one game."""

    name: str
    title: str
    path: str
    digest: str
    players: int
    step: int
    deck: Deck
    first_dealer: int | None
    next_dealer: int
    forehand_offset: int
    phases: list
    match: MatchRules
    symbols: list[str]
    deal_vars: dict[str, str]
    params: dict = field(default_factory=dict)
    document: dict = field(default_factory=dict)
