"""Common subexpressions of a batch rule, computed once.

A rule's ``let`` names are written into its expression wherever they are used, so a long rule (a
game value whose multiplier counts a chain of top trumps, each link written out again in the next,
under every branch of a condition) repeats the same subexpressions many times. The scalar rule evaluates only the branch a condition takes;
its batch twin evaluates every branch for every deal (a condition is a selection, ``_b_where``), so
each repetition costs a pass over the arrays. :func:`hoisted` gives a statement's expression with
every subexpression that occurs more than once computed once into a local first.

Every call in batch code is to a pure helper and every operator is pure, and the whole expression is
evaluated anyway, so computing a subexpression earlier and once changes no value. The locals are
named by this module (``_cse0``, ``_cse1``, …), never by a rule.
"""

from __future__ import annotations

import ast

HOISTED = (ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp)


def worth_hoisting(node) -> bool:
    """Whether a node is worth computing once: a call or an operation, not a negative constant (a name,
    a constant or an attribute is read as cheaply as a local)."""
    return isinstance(node, HOISTED) and not (isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant))


def hoisted(code: ast.expr, names) -> tuple[list[ast.Assign], ast.expr]:
    """``(assignments, expression)``: locals for the subexpressions of ``code`` that occur more than
    once, in the order they depend on each other, and ``code`` reading them; ``names`` yields fresh
    local names."""
    keys: dict[int, tuple] = {}
    counts: dict[tuple, int] = {}
    _count(code, keys, counts)
    assignments: list[ast.Assign] = []
    return assignments, _Hoister(keys, counts, names, assignments).visit(code)


def _key(node, keys: dict) -> tuple:
    """The node's structure as a hashable key (equal keys: equal expressions), kept in ``keys`` by id."""
    found = keys.get(id(node))
    if found is not None:
        return found
    parts: list = [type(node).__name__]
    for field, value in ast.iter_fields(node):
        if field == "ctx":
            continue
        parts.append((field, _value_key(value, keys)))
    found = keys[id(node)] = tuple(parts)
    return found


def _value_key(value, keys: dict):
    if isinstance(value, ast.AST):
        return _key(value, keys)
    if isinstance(value, list):
        return tuple(_value_key(item, keys) for item in value)
    return (type(value).__name__, value)


def _count(node, keys: dict, counts: dict) -> None:
    """Count each hoistable subexpression of ``node``; a repeated one's inside is counted once."""
    if worth_hoisting(node):
        key = _key(node, keys)
        counts[key] = counts.get(key, 0) + 1
        if counts[key] > 1:
            return
    for child in ast.iter_child_nodes(node):
        _count(child, keys, counts)


class _Hoister(ast.NodeTransformer):
    """Replaces each repeated subexpression by a local, adding its assignment (inner ones first)."""

    def __init__(self, keys: dict, counts: dict, names, assignments: list):
        self.keys, self.counts, self.names, self.assignments = keys, counts, names, assignments
        self.locals: dict[tuple, str] = {}

    def visit(self, node):
        if not worth_hoisting(node):
            return self.generic_visit(node)
        key = _key(node, self.keys)
        if self.counts.get(key, 0) < 2:
            return self.generic_visit(node)
        name = self.locals.get(key)
        if name is None:
            inner = self.generic_visit(node)
            name = self.locals[key] = next(self.names)
            self.assignments.append(ast.Assign([ast.Name(name, ast.Store())], inner))
        return ast.Name(name, ast.Load())
