"""Actions told in the game's own words: titles of contracts and items, not identifiers.

``action_words(state, actor, action)`` is the public sentence for an action about to be
applied ("bids Solo", "says Kontra on Game", "plays A♣"); it never mentions a
card only its player may see (a discard, a card dealt or drawn), for which it is None.
The terminal table and any other table narrate with it.
"""

from __future__ import annotations

from rulelang.compile_items import announcement, doubling
from rulelang.interpreter.state import CHANCE


def contract_title(game, name: str) -> str:
    """The title a rule file gives contract ``name`` (its name when it gives none)."""
    row = (game.definition.document.get("contracts") or {}).get(name)
    title = row.get("title") if isinstance(row, dict) else None
    return str(title) if title else name.replace("_", " ")


def item_title(game, name: str) -> str:
    """The title a rule file gives item ``name`` (its name with spaces when it gives none)."""
    item = game.definition.items.get(name)
    return item.title if item is not None and item.title else name.replace("_", " ")


def action_words(state, actor: int, action: int) -> str | None:
    """What everyone at the table sees ``actor`` do with ``action``, or None for a hidden or chance action."""
    if actor == CHANCE:
        return None
    step = state.step
    name = state.game.action_to_string(action)
    kind = step.kind if step is not None and state.sub != "first_dealer" else "lot"
    if kind == "tricks":
        return f"plays {name}"
    if kind == "exchange":
        return None if action < state.game.num_cards else "ends the exchange"
    if kind == "auction":
        return _auction_words(state, step, name)
    if kind == "choose":
        return f"chooses {step.var}: {name}"
    if kind == "piles":
        return f"takes {name.replace('pile', 'pile ')}"
    return f"says {name}"


def _auction_words(state, phase, name: str) -> str:
    game = state.game
    if name == phase.pass_word:
        return f"passes ({name})"
    if name in game.definition.contracts:
        return f"bids {contract_title(game, name)}"
    for item in game.definition.items:
        if name == announcement(item, phase.for_word):
            return f"announces {item_title(game, item)} ({phase.for_word})"
        if name == announcement(item, phase.against_word):
            return f"announces {item_title(game, item)} against the declarers ({phase.against_word})"
        for word in phase.doubling:
            if name == doubling(word, item):
                return f"says {word.capitalize()} on {item_title(game, item)}"
    return f"says {name}"
