"""Rule files kept in step with the language: the names it has taken since a file was written, renamed.

When the language takes a name for itself (``ranks``, ``suits``, ``winning_now`` …; ``rank(card)``,
``beats(a, b)`` …), a file that already used it — a param, a definition — keeps loading with its own
meaning (the file's name wins there) and ``rulelang validate`` warns at the author's line (W621).
:func:`upgraded` gives the document with each such name of the file renamed (``ranks`` → ``ranks_``,
or the first free name after it) in its key and in every expression that reads it, which
``rulelang fmt --upgrade`` prints or writes back. Generic phase forms written before a construct had a
statement of its own (``set { var = … value = … }``) need no renaming: they load as written, and
``rulelang fmt`` prints them in the statement form.
"""

from __future__ import annotations

from rulelang.read.expr import Expr, definition_head, parse_expr, to_text
from rulelang.diagnostics import RuleError

LATER = {
    "suits": "every suit of the deck, a domain for `for`", "ranks": "the ranks of a suit, a domain for `for`",
    "winning_now": "the card now winning the trick on the table", "winner_now": "the seat now winning it",
    "trick_card": "the function trick_card(n)", "trick_seat": "the function trick_seat(n)",
    "beats": "the function beats(a, b)", "rank": "the function rank(card)", "rank_in": "the function rank_in(card, cards)",
    "decided": "the function decided(seat)", "numbers": "the function numbers(a, b)",
    "stock_left": "the cards still to be drawn in trick play", "said_by": "the function said_by(call)",
    "said_in": "the function said_in(call)", "times_said": "the function times_said(call, seats)",
    "laid_aside": "the function laid_aside(seats)", "picked": "the function picked(seat, option)",
    "dealt_with": "the function dealt_with(seats, value)", "melded": "the function melded(seats)",
    "trick_melds": "the function trick_melds(seats)", "aside_shown": "the trick the cards laid aside were shown in",
    **{f"P{seat}": f"the seat P{seat}" for seat in range(1, 65)},
}
"""Names the language took after rule files may have used them, and what the language's name means."""

NOT_EXPRESSIONS = frozenset({"game", "title", "about", "extends", "teams", "players", "direction", "deck", "seating"})


def taken_names(data: dict) -> list[tuple[tuple, str]]:
    """(path of the entry, name) of each param and definition of ``data`` named like a name the language
    took later."""
    found = []
    for name in data.get("params") or {}:
        if str(name) in LATER:
            found.append((("params", name), str(name)))
    for key in data.get("define") or {}:
        head = definition_head(key)
        if head is not None and head[0] in LATER:
            found.append((("define", key), head[0]))
    return found


def upgraded(data: dict) -> dict:
    """``data`` with every name of :func:`taken_names` renamed, in its key and in every expression."""
    renames = {}
    taken = _names_in(data)
    for _, name in taken_names(data):
        new = f"{name}_"
        while new in taken or new in LATER:
            new += "_"
        renames[name] = new
        taken.add(new)
    if not renames:
        return data
    return _renamed(data, renames, ())


def _names_in(data) -> set[str]:
    names: set[str] = set()
    for key in list((data.get("params") or {})) + list((data.get("define") or {})):
        head = definition_head(key)
        if head is not None:
            names.add(head[0])
    return names


def _renamed(value, renames: dict, path: tuple):
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            new_key = _renamed_key(key, renames, path)
            out[new_key] = item if not path and key in NOT_EXPRESSIONS else _renamed(item, renames, path + (key,))
        return out
    if isinstance(value, list):
        return [_renamed(item, renames, path + (i,)) for i, item in enumerate(value)]
    if isinstance(value, str):
        return _renamed_text(value, renames)
    return value


def _renamed_key(key, renames: dict, path: tuple):
    if path in (("params",), ("define",)):
        head = definition_head(key)
        if head is not None and head[0] in renames:
            name = renames[head[0]]
            return f"{name}({', '.join(head[1])})" if head[1] else name
    return key


def _renamed_text(text: str, renames: dict) -> str:
    """An expression with the names of ``renames`` read under their new names; other text as it is."""
    try:
        expr = parse_expr(text)
    except RuleError:
        return text
    if not any(node.op in ("name", "call") and node.value in renames for node in expr.walk()):
        return text
    return to_text(_rename_nodes(expr, renames))


def _rename_nodes(expr: Expr, renames: dict) -> Expr:
    bound = {expr.value[1] if expr.op == "aggregate" else expr.value} if expr.op in ("aggregate", "set_of") else set()
    value = expr.value
    if expr.op in ("name", "call") and value in renames:
        value = renames[value]
    args = [_rename_nodes(arg, {k: v for k, v in renames.items() if k not in bound}) for arg in expr.args]
    return Expr(expr.op, args, value, expr.line, expr.column)
