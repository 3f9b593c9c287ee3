"""Checks of cards and names that the deck builder and the compiler let pass silently.

N220 a removed card that is not in the pack, N221 points for a rank or card that does not
exist, N222 an alias that renames an existing card, N225 an option listed twice, N226 a
contract counting an item twice, N228 a deal variable given two different kinds of value.
"""

from __future__ import annotations

import copy
from typing import Iterator

from rulelang.compile.deck import Deck, build_deck
from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.read.document import Document
from rulelang.validators.registry import check


def unreduced_deck(doc: Document) -> Deck | None:
    """The deck before ``remove`` and ``aliases`` are applied, or None if it cannot be built."""
    data = copy.deepcopy(doc.data)
    deck = data.get("deck")
    if not isinstance(deck, dict):
        return None
    deck.pop("remove", None)
    deck.pop("aliases", None)
    deck.pop("tags", None)
    try:
        return build_deck(Document(data, doc.spans, doc.path))
    except (RuleError, TypeError, ValueError, AttributeError):
        return None


def deck_spec(doc: Document) -> dict:
    """The document's ``deck`` mapping (empty if missing)."""
    deck = doc.data.get("deck")
    return deck if isinstance(deck, dict) else {}


def _spelled(deck: Deck, written: str) -> str:
    """A hint naming the card ``written`` stands for, if it is a card under another spelling."""
    card = deck.lookup.get(str(written).casefold())
    if card is None:
        return ""
    return f"'{written}' is how players type {deck.cards[card].name}; here write the card's name: {deck.cards[card].name}"


@check("removed_cards_exist", needs_definition=False)
def removed_cards_exist(doc: Document, game=None) -> Iterator[Diagnostic]:
    """Every card of ``remove`` must be a card of the pack, by its name (N220)."""
    deck = unreduced_deck(doc)
    if deck is None:
        return
    names = {card.name.casefold() for card in deck.cards}
    for i, name in enumerate(deck_spec(doc).get("remove") or []):
        if str(name).casefold() not in names:
            hint = _spelled(deck, name) or "`remove` lists cards by name, e.g. 7♣ or XXI"
            yield Diagnostic("N220", f"`remove` names '{name}', which is not a card of this pack; nothing is removed",
                             doc.span_of(("deck", "remove", i)), hint)


@check("points_name_ranks_or_cards", needs_definition=False)
def points_name_ranks_or_cards(doc: Document, game=None) -> Iterator[Diagnostic]:
    """Every key of ``points`` must be a rank or a card's name (N221)."""
    deck = unreduced_deck(doc)
    if deck is None:
        return
    known = {card.rank for card in deck.cards} | {card.name for card in deck.cards}
    for key in deck_spec(doc).get("points") or {}:
        if str(key) not in known:
            ranks = ", ".join(dict.fromkeys(card.rank for card in deck.cards))
            hint = _spelled(deck, key) or f"points are given by rank ({ranks}) or by a card's name"
            yield Diagnostic("N221", f"points are given for '{key}', which is neither a rank nor a card of this deck",
                             doc.span_of(("deck", "points", key)), hint)


@check("aliases_do_not_rename_cards", needs_definition=False)
def aliases_do_not_rename_cards(doc: Document, game=None) -> Iterator[Diagnostic]:
    """An alias must be a new name, not the name of another card (N222)."""
    deck = unreduced_deck(doc)
    if deck is None:
        return
    for alias, target in (deck_spec(doc).get("aliases") or {}).items():
        card = deck.lookup.get(str(alias).casefold())
        if card is not None and deck.cards[card].name.casefold() != str(target).casefold():
            yield Diagnostic("N222", f"the alias '{alias}' is already the name of the card {deck.cards[card].name}; "
                             f"it would make '{alias}' mean {target}", doc.span_of(("deck", "aliases", alias)),
                             "choose an alias that is not a card's name or spelling")


def phase_bodies(doc: Document) -> Iterator[tuple[int, str, dict]]:
    """``(index, kind, body)`` of every phase entry whose body is a mapping."""
    phases = doc.data.get("phases")
    for i, entry in enumerate(phases if isinstance(phases, list) else []):
        if isinstance(entry, dict) and len(entry) == 1:
            kind, body = next(iter(entry.items()))
            yield i, kind, body if isinstance(body, dict) else {}


def _twice(values: list) -> Iterator[tuple[int, object]]:
    seen = set()
    for i, value in enumerate(values):
        if str(value) in seen:
            yield i, value
        seen.add(str(value))


@check("options_listed_once", needs_definition=False)
def options_listed_once(doc: Document, game=None) -> Iterator[Diagnostic]:
    """A ``choose`` lists each value once (N225)."""
    for i, kind, body in phase_bodies(doc):
        options = body.get("from")
        if kind == "choose" and isinstance(options, list):
            for j, option in _twice(options):
                yield Diagnostic("N225", f"`choose {body.get('var')}` lists '{option}' twice",
                                 doc.span_of(("phases", i, kind, "from", j)), "list each value once")


@check("contract_items_listed_once", needs_definition=False)
def contract_items_listed_once(doc: Document, game=None) -> Iterator[Diagnostic]:
    """A contract counts each item once (N226): an item listed twice would be scored twice."""
    contracts = doc.data.get("contracts")
    for name, row in (contracts if isinstance(contracts, dict) else {}).items():
        items = row.get("items") if isinstance(row, dict) else None
        for j, item in _twice(items if isinstance(items, list) else []):
            yield Diagnostic("N226", f"contract '{name}' lists the item '{item}' twice; it would be scored twice",
                             doc.span_of(("contracts", name, "items", j)), "list each item once")


@check("deal_variables_keep_their_kind", needs_definition=False)
def deal_variables_keep_their_kind(doc: Document, game=None) -> Iterator[Diagnostic]:
    """A deal variable chosen in two phases holds the same kind of value in both (N228)."""
    first: dict[str, tuple[str, int]] = {}
    for i, kind, body in phase_bodies(doc):
        if kind != "choose":
            continue
        var = str(body.get("var"))
        holds = "a suit" if body.get("from") == "suits" else "an option name"
        if var in first and first[var][0] != holds:
            earlier = first[var][1]
            yield Diagnostic("N228", f"the deal variable '{var}' holds {holds} here but {first[var][0]} in phase "
                             f"{earlier + 1}", doc.span_of(("phases", i, kind, "var")),
                             "use a different variable name for a different kind of choice",
                             notes=[(f"'{var}' is chosen here first", doc.span_of(("phases", earlier, kind, "var")))])
        first.setdefault(var, (holds, i))
