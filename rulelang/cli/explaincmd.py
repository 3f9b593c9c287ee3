"""``rulelang explain GAME``: the resolved rules of a game in plain English."""

from __future__ import annotations

from rulelang.cli import output


def explain_command(ref: str) -> int:
    """Print the rules of ``ref`` (a shipped name or a rule file) in plain English."""
    from rulelang.render.explain import explain_game
    from rulelang.loader import find_game, open_document, read_document
    doc = open_document(ref)
    path = find_game(ref)
    base = read_document(path).data.get("extends") if path is not None else None
    output.print_lines(explain_game(doc.data, str(base) if base else None))
    return 0
