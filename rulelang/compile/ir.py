"""The compiled form of a game: deck tables, seats, phases and match rules, names resolved.

Each phase kind's own IR class lives with its construct (:mod:`rulelang.constructs`);
this module holds what every game has.

Every expression is a closure ``fn(state, player)``; every rule keeps the span it was
written at (``span``) so run-time errors and illegal moves point back at the rule file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from rulelang.compile.deck import Deck
from rulelang.read.source import Span


@dataclass
class Rule:
    """A compiled expression and where it was written."""

    fn: Callable
    text: str
    span: Span | None


@dataclass(kw_only=True)
class PhaseBase:
    """What every phase has: where it is written and an optional condition to run at all."""

    span: Span | None = None
    when: Rule | None = None


@dataclass
class Contract:
    """One row of a bidding ladder."""

    name: str
    rank: int
    value: Rule
    allow: Rule | None
    calls: Rule | None
    sides: str
    items: list[str] | None
    bonus_factor: int
    span: Span | None = None


@dataclass
class Item:
    """Something that scores in a deal: the game or a bonus, with its announcement and doubling rules."""

    name: str
    is_game: bool
    value: Rule | None
    announced_value: Rule | None
    announce: str
    achieved: Rule
    caught: Rule | None
    against_kontra: bool
    per_seat: bool
    title: str
    exclusive: bool = False
    span: Span | None = None


@dataclass
class MatchRules:
    """Start score, when the match ends, who wins, what a tie means, match counters."""

    start: int
    end: Rule
    winner: str
    tie: str
    exact: int | None = None
    counters: dict = field(default_factory=dict)
    after_deal: dict = field(default_factory=dict)
    kept_by: dict = field(default_factory=dict)     # counter kept per seat or team: per seat, the seat it reads


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
    contracts: dict = field(default_factory=dict)
    items: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)
    document: dict = field(default_factory=dict)
    code: object = None
    teams: tuple = ()                    # per seat, the mask of its fixed team (``teams``); empty without teams
    contract_names: tuple = ()           # every contract ``contract`` may hold: the ladder's, then phases' own
