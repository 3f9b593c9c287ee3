"""``rulelang diff A B``: what game B changes against game A, in rule terms."""

from __future__ import annotations

from rulelang.cli import output


def diff_command(ref_a: str, ref_b: str, as_json: bool) -> int:
    """Print the rule changes from ``ref_a`` to ``ref_b`` (text grouped by section, or JSON)."""
    from rulelang.render.diff import diff_documents, diff_lines
    from rulelang.loader import open_document
    doc_a, doc_b = open_document(ref_a), open_document(ref_b)
    changes = diff_documents(doc_a.data, doc_b.data)
    if as_json:
        output.print_json({"a": ref_a, "b": ref_b, "changes": [c.to_json() for c in changes]})
    else:
        output.print_lines(diff_lines(ref_a, ref_b, changes))
    return 0
