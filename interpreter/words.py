"""Actions told in the game's own words: titles of contracts and items, not identifiers.

``action_words(state, actor, action)`` is the public sentence for an action about to be
applied ("bids Solo", "says Kontra on Game", "plays A♣"); it never mentions a
card only its player may see (a discard, a card dealt or drawn), for which it is None.
The terminal table and any other table narrate with it.
"""

from __future__ import annotations

from rulelang.constructs import construct
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
    if step is None or state.sub == "first_dealer":
        return f"says {name}"
    return construct(step.kind).action_words(state, step, action, name)


def winner_name(state) -> str | None:
    """Who won the match, in words: a seat ("P2"), a team ("P1 and P3"), or None (shared, or not over)."""
    names = [state.game.seat_name(s) for s in state.winners]
    return " and ".join(names) if names else None
