"""Where a rule document holds expressions, and which names they read.

The JSON Schema marks every expression-valued field with a reference to one of the
expression definitions (``intExpr``, ``boolExpr`` …). :func:`expression_sites` walks a
document alongside the schema and yields the path and text of every expression written
as text, so checks never keep their own list of expression fields. :func:`names_read`
parses each one with :func:`rulelang.read.expr.parse_expr` and collects the names it reads.

>>> from rulelang.read.document import Document
>>> doc = Document({"match": {"end": "min(score) <= limit", "winner": "lowest"}})
>>> list(expression_sites(doc))
[(('match', 'end'), 'min(score) <= limit')]
>>> sorted(names_read(doc))
['limit', 'score']
"""

from __future__ import annotations

import copy
import re
from typing import Any, Iterator

from rulelang.diagnostics import RuleError
from rulelang.read.document import Document
from rulelang.read.expr import Expr, parse_expr
from rulelang.validators.schema import schema

EXPRESSION_DEFS = frozenset({"expr", "intExpr", "boolExpr", "anyExpr", "seatExpr", "seatsExpr", "cardsExpr"})
_ROOT = schema()
_KINDS = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number"}


def expression_sites(doc: Document) -> Iterator[tuple[tuple, str]]:
    """``(path, text)`` of every expression written as text in ``doc``."""
    data = doc.data if isinstance(doc.data, dict) else {}
    root = dict(_ROOT["properties"])
    root.update(_ROOT["else"]["properties"])
    for key, value in data.items():
        if key in root:
            yield from _walk(value, root[key], (key,))


def _resolve(node: Any) -> tuple[dict, str | None]:
    """The schema ``node`` stands for after following ``$ref``s, and the last definition's name."""
    name = None
    while isinstance(node, dict) and "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = _ROOT["$defs"][name]
    return (node if isinstance(node, dict) else {}), name


def _walk(value: Any, node: Any, path: tuple) -> Iterator[tuple[tuple, str]]:
    node, name = _resolve(node)
    if name in EXPRESSION_DEFS:
        if isinstance(value, str):
            yield path, value
        return
    for branch in node.get("anyOf", []) + node.get("oneOf", []):
        if _fits(value, branch):
            yield from _walk(value, branch, path)
            return
    if isinstance(value, dict):
        yield from _mapping(value, node, path)
    elif isinstance(value, list) and "items" in node:
        for i, item in enumerate(value):
            yield from _walk(item, node["items"], path + (i,))


def _mapping(value: dict, node: dict, path: tuple) -> Iterator[tuple[tuple, str]]:
    properties = node.get("properties", {})
    extra = node.get("additionalProperties")
    for key, item in value.items():
        sub = properties.get(key, extra if isinstance(extra, dict) else None)
        if sub is not None:
            yield from _walk(item, sub, path + (key,))


def _fits(value: Any, branch: Any) -> bool:
    """True if ``branch`` describes values of ``value``'s kind and has something to walk."""
    node, _ = _resolve(branch)
    kinds = node.get("type")
    if kinds is None:
        return "$ref" in branch and isinstance(value, (dict, list))
    kinds = [kinds] if isinstance(kinds, str) else kinds
    return _KINDS.get(type(value)) in kinds and isinstance(value, (dict, list))


def parsed_sites(doc: Document) -> list[tuple[tuple, str, Expr]]:
    """``(path, text, expr)`` of every expression of ``doc`` that parses (others are reported elsewhere).

    Several checks read the same document one after the other, so the last document's
    expressions are kept and not parsed again.
    """
    if _LAST[0] is not doc or _LAST[1] != doc.data:
        _LAST[:] = [doc, copy.deepcopy(doc.data), list(_parse_all(doc))]
    return _LAST[2]


_LAST: list = [None, None, []]


def _parse_all(doc: Document) -> Iterator[tuple[tuple, str, Expr]]:
    for path, text in expression_sites(doc):
        try:
            yield path, text, parse_expr(text)
        except RuleError:
            continue


def expr_names(expr: Expr) -> set[str]:
    """The names an expression reads (not the functions it calls)."""
    return {str(node.value) for node in expr.walk() if node.op == "name"}


def names_read(doc: Document) -> dict[str, list[tuple]]:
    """Each name read by some expression of ``doc``, with the paths of the expressions reading it. Every word
    of an expression that does not parse counts as read: its syntax error is reported, and a name it was
    meant to read is not reported unread besides."""
    found: dict[str, list[tuple]] = {}
    parsed = parsed_sites(doc)
    for path, _, expr in parsed:
        for name in expr_names(expr):
            found.setdefault(name, []).append(path)
    sites = list(expression_sites(doc))
    if len(parsed) < len(sites):
        parsed_paths = {path for path, _, _ in parsed}
        for path, text in sites:
            if path not in parsed_paths:
                for word in _WORD.findall(text):
                    found.setdefault(word, []).append(path)
    return found


_WORD = re.compile(r"[A-Za-z_]\w*")
