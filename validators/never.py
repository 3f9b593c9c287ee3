"""Contracts and items that can never be won, and contracts that can never be bid: found by reasoning over the
rules, not by playing (W627, W628).

Each rule is read as an expression and given, bottom up, the range its numbers can take and the truth values
its conditions can take, over every deal the rules allow: a card-point count lies between nothing and the
whole pack's points, a trick count between none and the most tricks a deal can have, a count of cards
between none and the cards there are, a param is its value. A comparison whose sides' ranges never meet the
way it asks is never true, and ``and``, ``or``, ``not`` and ``if … then … else`` combine that (with
``contract == NAME`` decided for the contract being asked about). Anything the reasoning cannot bound may be
anything, so a finding is certain: a contract whose game item needs 200 card points of a pack of 120 can
never be won. ``rulelang validate --simulate`` adds what random play saw (:func:`confirm`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator

from rulelang.diagnostics import WARNING, Diagnostic, RuleError
from rulelang.compile.endless import arithmetic, compare
from rulelang.compile.ir import GameDef
from rulelang.read.expr import Expr, parse_expr, to_text
from rulelang.read.document import Document
from rulelang.validators.probe import NOT_CONSTANT, constant
from rulelang.validators.registry import check

ANY_CONTRACT = object()
DEPTH = 20                      # how deep definitions are followed into


@dataclass(frozen=True)
class Range:
    """A range of whole numbers, ``lo`` … ``hi`` (infinite ends allowed), and why it is bounded."""

    lo: float
    hi: float
    why: str = ""


EVERYTHING = Range(-math.inf, math.inf)


class Bounds:
    """What the reasoning knows about one game: its params, definitions and the size of a deal."""

    def __init__(self, game: GameDef, doc: Document):
        cards = game.deck.cards
        self.points = Range(sum(min(c.points, 0) for c in cards), sum(max(c.points, 0) for c in cards),
                            "the card points of the whole pack")
        narrowest = 2 if any(str(getattr(getattr(p, "among", None), "text", "seats")) not in ("seats", "players")
                             for p in game.phases if getattr(p, "kind", "") == "tricks") else game.players
        self.tricks = Range(0, len(cards) // max(2, min(narrowest, game.players)), "the tricks of a whole deal")
        self.cards = Range(0, max(len(cards), game.players), "the cards of the pack")
        self.params = {str(k): v for k, v in game.params.items()}
        deck = game.deck
        self.copies = max(1, deck.copies)
        self.set_sizes = {**{suit.name: bin(mask).count("1") for suit, mask in zip(deck.suits, deck.suit_masks)},
                          **{str(tag): bin(mask).count("1") for tag, mask in deck.tags.items()}}
        defines = doc.get(("define",)) if isinstance(doc.get(("define",)), dict) else {}
        self.defines = {str(k): v for k, v in defines.items() if "(" not in str(k) and isinstance(v, str)}


class Reasoner:
    """Ranges and truth values of expressions under one contract (or any contract)."""

    def __init__(self, bounds: Bounds, contract=ANY_CONTRACT):
        self.bounds, self.contract, self.depth = bounds, contract, 0

    # ------------------------------------------------------------------ truth
    def truths(self, e: Expr) -> tuple[set, str]:
        """The truth values ``e`` can take, and (when it is never true) why."""
        method = getattr(self, "truth_" + {"and": "and_", "or": "or_", "not": "not_", "cond": "cond"}.get(e.op, "x"),
                         None)
        if method is not None:
            return method(e)
        if e.op == "bool":
            return {bool(e.value)}, f"`{to_text(e)}` is false"
        if e.op in ("==", "!=") and self._is_contract_test(e):
            return self._contract_truth(e)
        if e.op in ("<", "<=", ">", ">=", "==", "!="):
            return self._comparison(e)
        if e.op == "name" and str(e.value) in self.bounds.defines:
            return self._through_definition(e, self.truths)
        if e.op == "name" and isinstance(self.bounds.params.get(str(e.value)), bool):
            value = self.bounds.params[str(e.value)]
            return {value}, f"the param {e.value} is {str(value).lower()}"
        return {True, False}, ""

    def truth_and_(self, e: Expr):
        results = [self.truths(a) for a in e.args]
        for values, why in results:
            if True not in values:
                return {False}, why
        return {v for values, _ in results for v in values} if len(results) else {True}, ""

    def truth_or_(self, e: Expr):
        results = [self.truths(a) for a in e.args]
        if all(True not in values for values, _ in results):
            return {False}, "; ".join(dict.fromkeys(why for _, why in results if why))
        return {True, False} if any(False in v for v, _ in results) else {True}, ""

    def truth_not_(self, e: Expr):
        values, _ = self.truths(e.args[0])
        flipped = {not v for v in values}
        return flipped, f"`{to_text(e.args[0])}` always holds" if True not in flipped else ""

    def truth_cond(self, e: Expr):
        test, _ = self.truths(e.args[0])
        branches = ([self.truths(e.args[1])] if True in test else []) + ([self.truths(e.args[2])] if False in test else [])
        values = {v for found, _ in branches for v in found}
        return values, "; ".join(dict.fromkeys(why for _, why in branches if why)) if True not in values else ""

    def _is_contract_test(self, e: Expr) -> bool:
        """``contract == NAME`` or ``NAME != contract``: two names, one of them ``contract``."""
        names = [str(a.value) for a in e.args if a.op == "name"]
        return len(names) == 2 and names.count("contract") == 1

    def _contract_truth(self, e: Expr):
        if self.contract is ANY_CONTRACT:
            return {True, False}, ""
        other = next(str(a.value) for a in e.args if str(a.value) != "contract")
        value = (other == self.contract) == (e.op == "==")
        return {value}, "" if value else f"the contract is {self.contract}"

    def _comparison(self, e: Expr):
        a, b = self.span(e.args[0]), self.span(e.args[1])
        if a is EVERYTHING or b is EVERYTHING:
            return {True, False}, ""
        can = compare(e.op, (a.lo, a.hi), (b.lo, b.hi)) is not False
        must = {"<": a.hi < b.lo, "<=": a.hi <= b.lo, ">": a.lo > b.hi, ">=": a.lo >= b.hi,
                "==": a.lo == a.hi == b.lo == b.hi, "!=": a.hi < b.lo or b.hi < a.lo}[e.op]
        if can:
            return ({True} if must else {True, False}), ""
        sides = ", ".join(said for said in (_say(e.args[0], a), _say(e.args[1], b)) if said)
        return {False}, f"`{to_text(e)}` never holds" + (f": {sides}" if sides else "")

    # ------------------------------------------------------------------ numbers
    def span(self, e: Expr) -> Range:
        """The range of the number ``e`` can be, or :data:`EVERYTHING`."""
        if e.op == "int":
            return Range(e.value, e.value)
        if e.op == "neg":
            inner = self.span(e.args[0])
            return Range(-inner.hi, -inner.lo, inner.why)
        if e.op in ("+", "-", "*") and len(e.args) == 2:
            return _arithmetic(e.op, self.span(e.args[0]), self.span(e.args[1]))
        if e.op == "cond":
            test, _ = self.truths(e.args[0])
            parts = ([self.span(e.args[1])] if True in test else []) + ([self.span(e.args[2])] if False in test else [])
            return Range(min(p.lo for p in parts), max(p.hi for p in parts), parts[0].why) if parts else EVERYTHING
        if e.op == "name":
            return self._name_span(str(e.value), e)
        if e.op == "call" and str(e.value) == "count":
            return self._count_span(e)
        if e.op == "call":
            return self._call_span(str(e.value))
        return EVERYTHING

    def _name_span(self, name: str, e: Expr) -> Range:
        value = self.bounds.params.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return Range(value, value, f"the param {name}")
        if name in self.bounds.defines:
            return self._through_definition(e, self.span)
        if name == "tricks_played":
            return self.bounds.tricks
        return EVERYTHING

    def _call_span(self, function: str) -> Range:
        if function in ("points", "card_points", "trick_points"):
            return self.bounds.points
        if function == "tricks":
            return self.bounds.tricks
        if function == "count":
            return self.bounds.cards
        return EVERYTHING

    def _count_span(self, e: Expr) -> Range:
        """``count(SET)``: at most the cards of the pack, fewer for a set within a suit, a tag or a set literal."""
        size, why = self._set_size(e.args[0]) if e.args else (None, "")
        if size is None:
            return self.bounds.cards
        return Range(0, size, why)

    def _set_size(self, e: Expr) -> tuple[int | None, str]:
        """The most cards the set ``e`` can hold and what says so, or None if only the pack bounds it."""
        if e.op == "name" and str(e.value) in self.bounds.set_sizes:
            return self.bounds.set_sizes[str(e.value)], f"the cards of {e.value}"
        if e.op == "set" and all(a.op == "card" for a in e.args):
            return len(e.args) * self.bounds.copies, "the cards named"
        if e.op == "&" and len(e.args) == 2:
            sizes = [found for found in map(self._set_size, e.args) if found[0] is not None]
            return min(sizes) if sizes else (None, "")
        if e.op == "-" and e.args:
            return self._set_size(e.args[0])
        return None, ""

    def _through_definition(self, e: Expr, reader):
        if self.depth >= DEPTH:
            return reader(Expr("unknown"))
        self.depth += 1
        try:
            return reader(parse_expr(self.bounds.defines[str(e.value)]))
        except RuleError:
            return reader(Expr("unknown"))
        finally:
            self.depth -= 1


def _arithmetic(op: str, a: Range, b: Range) -> Range:
    if a is EVERYTHING or b is EVERYTHING:
        return EVERYTHING
    lo, hi = arithmetic(op, (a.lo, a.hi), (b.lo, b.hi))
    return Range(lo, hi, a.why or b.why)


def _say(e: Expr, span: Range) -> str:
    """What bounds one side of a comparison, or "" for a number written out."""
    text = to_text(e)
    if e.op in ("int", "neg") and span.lo == span.hi:
        return ""
    if span.lo == span.hi:
        return f"{text} is {int(span.lo)}"
    if math.isinf(span.hi):
        return f"{text} is at least {int(span.lo)}" + (f" ({span.why})" if span.why else "")
    return f"{text} is at most {int(span.hi)}" + (f" ({span.why})" if span.why else "")


def never_true(text: str, bounds: Bounds, contract=ANY_CONTRACT) -> str | None:
    """Why the condition ``text`` can never hold (under ``contract``), or None if it may."""
    try:
        expr = parse_expr(text)
    except RuleError:
        return None
    values, why = Reasoner(bounds, contract).truths(expr)
    return why or f"`{text}` never holds" if True not in values else None


@check("contracts_can_be_won_and_bid")
def contracts_can_be_won_and_bid(doc: Document, game: GameDef) -> Iterator[Diagnostic]:
    """W627 a contract (or an item) that can never be won, W628 a contract that can never be bid."""
    for diagnostic, _ in findings(doc, game):
        yield diagnostic


def findings(doc: Document, game: GameDef) -> list[tuple[Diagnostic, list[str]]]:
    """Each W627 and W628 of the game, with the contracts it is about (none for an item's)."""
    bounds = Bounds(game, doc)
    found = []
    reached_otherwise = {str(getattr(phase, "all_pass", None)) for phase in game.phases}
    for name, contract in game.contracts.items():
        if contract.allow is None or name in reached_otherwise or constant(contract.allow) is not NOT_CONSTANT:
            continue        # played when all pass, it needs no bid (``allow: "false"``); a constant ``allow`` is R350
        why = never_true(contract.allow.text, bounds)       # ``contract`` there is the bid standing, any of them
        if why:
            found.append((Diagnostic(
                "W628", f"the contract '{name}' can never be bid: its `allow` never holds ({why})",
                contract.allow.span or contract.span, "check the numbers `allow` compares; `rulelang validate "
                "--simulate` shows how often random play bid it", severity=WARNING), [name]))
    found.extend(_contracts_never_won(game, bounds))
    found.extend((d, []) for d in _items_never_achieved(game, bounds))
    return found


def confirm(found: list[Diagnostic], doc: Document, game: GameDef, tally: dict, deals: int) -> None:
    """Add to each W627 and W628 in ``found`` what ``deals`` random deals saw: ``tally`` holds, per contract,
    the deals it was played in and those its declarers won (:func:`rulelang.validators.simulate.simulate`)."""
    about = {(d.code, d.message): names for d, names in findings(doc, game)}
    for diagnostic in found:
        names = about.get((diagnostic.code, diagnostic.message))
        if not names:
            continue
        seen = "; ".join(_seen(name, tally.get(name, (0, 0)), diagnostic.code) for name in names)
        diagnostic.notes.append((f"in {deals} random deals {seen}", None))


def _seen(name: str, counts: tuple, code: str) -> str:
    played, won = counts
    if code == "W628" or not played:
        return f"'{name}' was played in {'none' if not played else played}"
    return f"'{name}' was played in {played} and won in {'none' if not won else won}"


def _contracts_never_won(game: GameDef, bounds: Bounds) -> Iterator[tuple[Diagnostic, list[str]]]:
    """One W627 per game item and reason, naming every contract it makes unwinnable."""
    unwinnable: dict[tuple, list[str]] = {}
    for name, contract in game.contracts.items():
        for item in _counted_items(game, contract):
            why = never_true(item.achieved.text, bounds, name) if item.is_game else None
            if why:
                unwinnable.setdefault((item.name, why), []).append(name)
    for (item_name, why), names in unwinnable.items():
        item = game.items[item_name]
        which = f"the contract '{names[0]}'" if len(names) == 1 else \
            "the contracts " + ", ".join(f"'{n}'" for n in names)
        yield _never_won(f"{which} can never be won: the game item '{item_name}' never holds "
                         f"({why})", item, game.contracts[names[0]].span, names[0]), names


def _items_never_achieved(game: GameDef, bounds: Bounds) -> Iterator[Diagnostic]:
    for item in game.items.values():
        counted_by = [n for n, c in game.contracts.items() if item in _counted_items(game, c)]
        if game.contracts and item.is_game:
            continue                                    # said per contract above
        contracts = counted_by or [ANY_CONTRACT]
        whys = [never_true(item.achieved.text, bounds, c) for c in contracts]
        if all(whys):
            yield _never_won(f"the item '{item.name}' can never be achieved ({whys[0]})", item, None)


def _counted_items(game: GameDef, contract) -> list:
    names = contract.items if contract.items is not None else list(game.items)
    return [game.items[n] for n in names if n in game.items]


def _never_won(message: str, item, note_span, contract: str = "") -> Diagnostic:
    notes = [(f"'{contract}' is defined here", note_span)] if note_span is not None else []
    return Diagnostic("W627", message, item.achieved.span or item.span, "compare with numbers the deal can reach; "
                      "`rulelang validate --simulate` shows how often random play won it", severity=WARNING,
                      notes=notes)
