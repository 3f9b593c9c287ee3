"""Checks of decisions, trick winners, contracts and items that typing alone cannot see.

R340 every option of a ``decide`` can be forbidden at once, R341 an option that is always
forbidden, R360 a trick no win rule gives a winner, R350 a contract that can never be bid,
R352-R358 contracts, auction, trick play, items and settlement that need each other,
R362 phases in an order that cannot work, W612 a called card that is never used.
"""

from __future__ import annotations

from typing import Iterator

from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.read.document import Document
from rulelang.compile.ir import GameDef
from rulelang.validators.registry import check
from rulelang.validators.paths import deal_paths, deal_vars_of, describe
from rulelang.validators.probe import NOT_CONSTANT, evaluate, is_constant, stub_state


def phases_of(game: GameDef, kind: str) -> list[tuple[int, object]]:
    """``(index, phase)`` of every phase of ``kind``."""
    return [(i, p) for i, p in enumerate(game.phases) if getattr(p, "kind", None) == kind]


def seat_words(game: GameDef, seat: int, dealer: int) -> str:
    """A seat described from the dealer: 'the dealer', 'forehand', 'the 2nd seat after the dealer'."""
    steps = (seat - dealer) * game.step % game.players
    if steps == 0:
        return "the dealer"
    if steps == game.forehand_offset % game.players:
        return "forehand"
    return f"the seat {steps} after the dealer"


# ------------------------------------------------------------------ decisions
@check("options_always_forbidden")
def options_always_forbidden(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """An option whose ``forbid`` condition always holds can never be taken (R341)."""
    for i, phase in phases_of(game, "decide"):
        for option, rule in phase.forbid.items():
            if is_constant(rule, True):
                yield Diagnostic("R341", f"the option '{option}' is always forbidden: its condition `{rule.text}` "
                                 "always holds", rule.span, "make the condition depend on the deal, or remove the "
                                 "option")


@check("some_option_left")
def some_option_left(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """A ``decide`` must leave some option: find a seat and deal where every option is forbidden (R340)."""
    seen = set()
    for path in deal_paths(game):
        for step in path.steps:
            phase = step.phase
            if getattr(phase, "kind", None) != "decide" or step.index in seen:
                continue
            if set(phase.options) <= set(phase.forbid):
                witness = _stuck_seat(game, phase, step.vars)
                if witness is not None:
                    seen.add(step.index)
                    yield _stuck(doc, game, step, witness)


def _stuck_seat(game: GameDef, phase, values: dict) -> tuple[int, int] | None:
    """``(seat, dealer)`` for which every option of ``phase`` is forbidden, if there is one."""
    for dealer in range(game.players):
        forehand = (dealer + game.forehand_offset * game.step) % game.players
        state = stub_state(game, vars=deal_vars_of(values), dealer=dealer, forehand=forehand)
        for seat in range(game.players):
            results = [evaluate(phase.forbid[o], state, seat) for o in phase.options]
            if all(r is not NOT_CONSTANT and r for r in results):
                return seat, dealer
    return None


def _stuck(doc: Document, game: GameDef, step, witness: tuple[int, int]) -> Diagnostic:
    seat, dealer = witness
    situation = describe(game, step.vars)
    when = f" when {situation}" if situation else ""
    notes = [(f"'{o}' is forbidden by `{step.phase.forbid[o].text}`", step.phase.forbid[o].span)
             for o in step.phase.options]
    return Diagnostic("R340", f"every option of this decision can be forbidden at once: {seat_words(game, seat, dealer)}"
                      f" would have nothing to choose{when}", doc.span_of(("phases", step.index)),
                      "leave one option without a `forbid`, or make the conditions exclude each other", notes=notes)


# ------------------------------------------------------------------ trick winners
@check("every_trick_has_a_winner")
def every_trick_has_a_winner(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """Some win rule must cover the card led, whatever it is (R360): end ``win`` with ``highest: led_suit``."""
    reported = set()
    for path in deal_paths(game):
        for step in path.steps:
            if getattr(step.phase, "kind", None) != "tricks":
                continue
            for where, contract, rules in _rule_sets(step.index, step.phase):
                if where in reported:
                    continue
                card = _uncovered_lead(game, rules, contract, step.vars)
                if card is not None:
                    reported.add(where)
                    yield _no_winner(doc, game, where, card, step.vars)


def _rule_sets(index: int, phase):
    """``(path of win, contract, rules)`` for the phase's own rules and each contract's."""
    yield ("phases", index, "tricks", "win"), None, phase.rules
    for name, rules in phase.by_contract.items():
        if rules.win is not phase.rules.win:
            yield ("contracts", name, "tricks", "win"), name, rules


def _uncovered_lead(game: GameDef, rules, contract, values: dict) -> int | None:
    """A card that, led, no ``highest`` rule covers (so a trick of such cards has no winner). A card no rule
    covers alone passes when every card played after it is covered: the Excuse, whose follower names the suit
    (``highest: "suit(led)"`` with ``led`` the second card when the Excuse was led)."""
    for card in range(len(game.deck.cards)):
        if not _trick_covered(game, rules, contract, values, [card]) and not all(
                _trick_covered(game, rules, contract, values, [card, second])
                for second in range(len(game.deck.cards)) if second != card):
            return card
    return None


def _trick_covered(game: GameDef, rules, contract, values: dict, trick: list[int]) -> bool:
    """Whether some win rule names a card of the trick ``trick`` (card indexes, from the first seat on)."""
    state = stub_state(game, vars=deal_vars_of(values), contract=contract)
    state.tricks.led_suit = game.deck.cards[trick[0]].suit
    state.tricks.trick_mask = sum(1 << card for card in trick)
    state.tricks.trick = list(enumerate(trick))
    return any(_covers(rule, state, card) for rule in rules.win for card in trick)


def _covers(rule, state, card: int) -> bool:
    if rule.cards is None:
        return False
    mask = evaluate(rule.cards, state)
    return mask is NOT_CONSTANT or not isinstance(mask, int) or bool(mask >> card & 1)


def _no_winner(doc: Document, game: GameDef, where: tuple, card: int, values: dict) -> Diagnostic:
    situation = describe(game, values)
    when = f" (with {situation})" if situation else ""
    name = game.deck.cards[card].name
    return Diagnostic("R360", f"some tricks have no winner: when {name} is led{when} and nobody plays a card a "
                      "`win` rule names, no rule picks a winner", doc.span_of(where),
                      "end `win` with a rule every trick meets, e.g. `highest: led_suit`")


# ------------------------------------------------------------------ contracts, items, settlement
@check("contracts_can_be_bid")
def contracts_can_be_bid(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """A contract whose ``allow`` is always false can never be bid (R350), unless it is the contract played when
    every seat passes (an auction's or value auction's ``all_pass``: a Leaster no one may bid)."""
    played_when_all_pass = {getattr(phase, "all_pass", None) for phase in game.phases}
    for name, contract in game.contracts.items():
        if is_constant(contract.allow, False) and name not in played_when_all_pass:
            yield Diagnostic("R350", f"the contract '{name}' can never be bid: its `allow` condition never holds",
                             contract.allow.span, "fix the condition, or remove the contract")


@check("called_card_is_used")
def called_card_is_used(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """``calls`` only matters with ``sides: called`` (W612)."""
    for name, contract in game.contracts.items():
        if contract.calls is not None and contract.sides != "called":
            yield Diagnostic("W612", f"the contract '{name}' calls a card, but its sides are '{contract.sides}', so "
                             "the called card does nothing", doc.span_of(("contracts", name, "calls")),
                             "write `sides: called`, or remove `calls`", severity=WARNING)


@check("contracts_items_and_phases_fit")
def contracts_items_and_phases_fit(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """Contracts need an auction, trick play and a game item; items need a settlement and vice versa."""
    kinds = {getattr(p, "kind", None) for p in game.phases}
    games = [name for name, item in game.items.items() if item.is_game]
    reached = "auction" in kinds or any(getattr(p, "all_pass", None) for p in game.phases)
    needs = [
        (game.contracts and not reached, "R352", ("contracts",),
         "contracts are defined but no `auction` phase lets anyone bid them (nor is one played when all pass)",
         "add an `auction` phase before play"),
        ("auction" in kinds and not game.contracts, "R353", _first(doc, game, "auction"),
         "an auction with no contracts to bid: its first speaker can never open", "define `contracts`"),
        (game.contracts and "tricks" not in kinds, "R354", ("contracts",),
         "contracts are defined but there is no trick play to play them", "add a `tricks` phase"),
        (game.contracts and not games and "score" not in kinds, "R355", ("contracts",),
         "contracts are defined but no item has `game: true`, so no contract's value is ever scored",
         "add an item with `game: true` and an `achieved` condition, or score the deal in a `score` phase"),
        (game.items and "settle" not in kinds, "R356", ("items",),
         "items are defined but no `settle` phase scores them", "add a `settle` phase after trick play"),
    ]
    for failed, code, path, message, hint in needs:
        if failed:
            yield Diagnostic(code, message, doc.span_of(path), hint)
    for extra in games[1:]:
        yield Diagnostic("R358", f"the items '{games[0]}' and '{extra}' both have `game: true`; a deal has one game",
                         doc.span_of(("items", extra, "game")), _own_win_hint(doc, games[0], extra),
                         notes=[(f"'{games[0]}' is the game", doc.span_of(("items", games[0], "game")))])


def _own_win_hint(doc: Document, game_item: str, extra: str) -> str:
    """R358's hint: one game item, whose ``achieved`` tells the contracts apart (built from the file's own text)."""
    counting = [str(name) for name, row in (doc.get(("contracts",)) or {}).items()
                if isinstance(row, dict) and extra in (row.get("items") or [])]
    mine, theirs = doc.get(("items", extra, "achieved")), doc.get(("items", game_item, "achieved"))
    if not counting or not isinstance(mine, str) or not isinstance(theirs, str):
        return (f"keep `game: true` on one item; the others are bonuses. A contract with a win condition of its own "
                f"says so in the game item's `achieved`: \"if contract == CONTRACT then … else …\"")
    which = " or ".join(f"contract == {name}" for name in counting)
    return (f"keep `game: true` on '{game_item}' alone and give the contract its own win condition there: "
            f"`achieved: \"if {which} then {mine} else {theirs}\"`, and count '{game_item}' in the `items` of "
            f"{' and '.join(repr(c) for c in counting)} in place of '{extra}'")


def _first(doc: Document, game: GameDef, kind: str) -> tuple:
    found = phases_of(game, kind)
    return ("phases", found[0][0]) if found else ("phases",)


@check("phase_order")
def phase_order(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """Bidding comes before trick play and settlement after it (R362)."""
    tricks = [i for i, _ in phases_of(game, "tricks")]
    if not tricks:
        return
    for i, _ in phases_of(game, "auction"):
        if i > tricks[0]:
            yield Diagnostic("R362", "the auction comes after trick play, so the contract it picks is never played",
                             doc.span_of(("phases", i)), "move the auction before the `tricks` phase",
                             notes=[("trick play is here", doc.span_of(("phases", tricks[0])))])
    for i, _ in phases_of(game, "settle"):
        if i < tricks[0]:
            yield Diagnostic("R362", "the settlement comes before trick play, so it scores a deal not yet played",
                             doc.span_of(("phases", i)), "move the settlement after the `tricks` phase",
                             notes=[("trick play is here", doc.span_of(("phases", tricks[0])))])
