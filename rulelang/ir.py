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


@dataclass(kw_only=True)
class PhaseBase:
    """What every phase has: where it is written and an optional condition to run at all."""

    span: Span | None = None
    when: Rule | None = None


@dataclass
class DealPhase(PhaseBase):
    """Every seat receives ``each`` cards, from forehand in the direction of play."""

    each: int
    kind: str = "deal"


@dataclass
class TalonPhase(PhaseBase):
    """Every undealt card goes to the talon."""

    kind: str = "talon"


@dataclass
class ChoosePhase(PhaseBase):
    """``by`` chooses one of ``options``; stored in the deal variable ``var``."""

    var: str
    by: Rule
    options: list[str]
    values: list
    kind: str = "choose"


@dataclass
class ExchangePhase(PhaseBase):
    """Each seat in turn from ``start`` discards up to ``max`` cards and draws as many from the talon."""

    start: Rule
    max: int
    kind: str = "exchange"


@dataclass
class DecidePhase(PhaseBase):
    """Each seat in turn from ``start`` picks an option; ``leave`` drops it from the active seats."""

    options: list[str]
    start: Rule
    leave: str | None
    forbid: dict[str, Rule]
    kind: str = "decide"


@dataclass
class WinRule:
    """One rule of the trick winner: the highest card of the trick within ``cards``,
    or the named ``card`` when ``when`` holds (a special winner, e.g. one card that takes any trick holding two given others)."""

    cards: Rule | None = None
    card: Rule | None = None
    when: Rule | None = None
    text: str = ""


@dataclass
class TrickRules:
    """How tricks are led, followed and won; a contract may have its own.

    ``allowed(st, seat)`` is the compiled whole of ``lead_from`` and ``follow``: the cards the
    seat may play before the trick must be headed; ``winner(st, None)`` the compiled whole of
    ``win``: the card that wins the trick on the table, -1 when no rule applies."""

    lead_from: list[Rule]
    follow: list[Rule]
    win: list[WinRule]
    head: bool = False
    allowed: Rule | None = None
    winner: Rule | None = None


@dataclass
class TricksPhase(PhaseBase):
    """Trick play among ``among``; ``rules`` says how tricks go, ``by_contract`` overrides them per contract."""

    among: Rule
    lead: Rule
    rules: TrickRules
    alone: str
    by_contract: dict = field(default_factory=dict)
    lead_by_contract: dict = field(default_factory=dict)
    kind: str = "tricks"


@dataclass
class SetPhase(PhaseBase):
    """Set the deal variable ``var`` to ``value``."""

    var: str = ""
    value: Rule | None = None
    kind: str = "set"


@dataclass
class PilesPhase(PhaseBase):
    """Chance lays the stock out in ``count`` equal face-down piles; seats pick them in turn from ``start``."""

    count: int = 4
    start: Rule | None = None
    kind: str = "piles"


@dataclass
class ThrowInPhase(PhaseBase):
    """A redeal by the same dealer when some hand ``must`` be thrown in, or a holder who ``may`` chooses to."""

    must: Rule | None = None
    may: Rule | None = None
    kind: str = "throw_in"


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
class AuctionPhase(PhaseBase):
    """Rounds of bids, announcements and doublings until every seat in a row passes."""

    start: Rule | None = None
    pass_word: str = "pass"
    for_word: str = "for"
    against_word: str = "against"
    doubling: list[str] = field(default_factory=list)
    kind: str = "auction"


@dataclass
class TurnsPhase(PhaseBase):
    """Each active seat in turn from ``start`` goes through all of ``steps`` before the next seat begins."""

    start: Rule | None = None
    steps: list = field(default_factory=list)
    kind: str = "turns"


@dataclass
class SettlePhase(PhaseBase):
    """Score every counting item per side, then settle between the sides (``pattern``)."""

    pattern: str = "declarers_share"
    multiplier: Rule | None = None
    kind: str = "settle"


@dataclass
class ScorePhase(PhaseBase):
    """Each seat of ``each`` adds ``add`` to its match score."""

    each: Rule
    add: Rule
    kind: str = "score"


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
