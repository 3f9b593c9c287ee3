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
    changes = _changes(str(base), doc, path) if base else []
    output.print_lines(explain_game(doc.data, str(base) if base else None, changes))
    return 0


def _changes(base: str, doc, path) -> list[str]:
    """The variant's changes to its base, as ``rulelang diff`` lists them (without its heading)."""
    from rulelang.read.files import find_reference, read_document, resolve_document
    from rulelang.render.diff import diff_documents, diff_lines
    found = find_reference(base, str(path), None, "extends")
    if found is None:
        return []
    base_doc = resolve_document(read_document(found))
    return diff_lines(base, str(path), diff_documents(base_doc.data, doc.data))[1:]
    return 0
