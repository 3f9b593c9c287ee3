"""What a rule costs to work out, bounded before play, and reads of a definition shared within a rule.

A definition compiled to a function (``def_N``) is called wherever a rule reads it. A rule that reads
the same definition twice with the same arguments (``d + d``) would call it twice, and a chain of
definitions each reading the one before twice would double the work per link. :func:`share_reads`
rewrites a function of the scalar module so that a call made again, where the first call's value is
sure to be known, reads the first call's value from a local (``(_hN := def_3(st, pl)) + _hN``); it
follows Python's order of evaluation, so a call in one branch of a condition is never taken for
known in the other. Every generated function is pure, so sharing a value changes no result.

:func:`evaluation_costs` then counts, for each function of the module, how many ``ast`` nodes an
evaluation can pass through at most — a condition costs its test and its dearer branch, a call of a
definition what that definition costs — so the compiler can refuse a rule that could take too long
(N238) before any deal is played.
"""

from __future__ import annotations

import ast
import itertools

MAX_EVALUATION_COST = 1_000_000
"""The most ``ast`` nodes the evaluation of one rule may pass through (N238 beyond)."""

DEFINITION_PREFIX = "def_"


def _definition_call(node) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.startswith(DEFINITION_PREFIX)


def repeated_reads(fn: ast.FunctionDef) -> set[str]:
    """The definition calls (as ``ast.dump`` text) that ``fn`` makes more than once."""
    counts: dict[str, int] = {}
    for node in ast.walk(fn):
        if _definition_call(node):
            key = ast.dump(node)
            counts[key] = counts.get(key, 0) + 1
    return {key for key, count in counts.items() if count > 1}


def share_reads(fn: ast.FunctionDef, repeated: set[str]) -> ast.FunctionDef:
    """``fn`` (changed in place: pass a copy) with each call of ``repeated`` (:func:`repeated_reads`) read from
    a local where its first evaluation is sure to have happened."""
    if not repeated:
        return fn
    sharer = _Sharer(repeated, (f"_h{i}" for i in itertools.count()))
    for statement in ast.walk(fn):
        if isinstance(statement, (ast.Return, ast.Assign, ast.Expr)) and statement.value is not None:
            statement.value = sharer.visit(statement.value, {})
        elif isinstance(statement, ast.If):
            statement.test = sharer.visit(statement.test, {})
    return fn


class _Sharer:
    """Walks an expression in Python's order of evaluation, keeping which repeated calls are known so far."""

    def __init__(self, repeated: set[str], names):
        self.repeated, self.names = repeated, names

    def visit(self, node, known: dict):
        if isinstance(node, ast.IfExp):
            node.test = self.visit(node.test, known)
            node.body = self.visit(node.body, dict(known))
            node.orelse = self.visit(node.orelse, dict(known))
            return node
        if isinstance(node, ast.BoolOp):
            node.values[0] = self.visit(node.values[0], known)
            later = dict(known)               # values[k] is evaluated only after values[1..k-1]
            node.values[1:] = [self.visit(value, later) for value in node.values[1:]]
            return node
        if isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
            return node                       # a scope of its own
        key = ast.dump(node) if _definition_call(node) else None
        if key in self.repeated and key in known:
            return ast.Name(known[key], ast.Load())
        self.children(node, known)
        if key in self.repeated:
            label = known[key] = next(self.names)
            return ast.NamedExpr(ast.Name(label, ast.Store()), node)
        return node

    def children(self, node, known: dict) -> None:
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                setattr(node, field, self.visit(value, known))
            elif isinstance(value, list):
                setattr(node, field, [self.visit(item, known) if isinstance(item, ast.expr) else item
                                      for item in value])


def evaluation_costs(functions: list[ast.FunctionDef], cards: int = 64) -> dict[str, int]:
    """Per function name, the most ``ast`` nodes one evaluation passes through, calls of definitions
    counted at what the definition costs (each definition calls only definitions before it), and the body of
    an aggregate over a set of cards known only in play once for each of the deck's ``cards``, over numbers
    once for each of the most numbers it may range over."""
    costs: dict[str, int] = {"(cards)": cards}
    for fn in functions:
        costs[fn.name] = sum(_cost(statement, costs) for statement in fn.body)
    return costs


def _elements_bound(iterable, costs: dict) -> int:
    """How many elements a generated aggregate may range over (see :mod:`rulelang.compile.quantifiers`)."""
    helper = iterable.func.id if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) else ""
    return 1000 if helper == "_numbers" else costs["(cards)"]


def _cost(node, costs: dict) -> int:
    if isinstance(node, ast.GeneratorExp):
        (loop,) = node.generators
        inner = _cost(node.elt, costs) + sum(_cost(test, costs) for test in loop.ifs)
        return 1 + _cost(loop.iter, costs) + _elements_bound(loop.iter, costs) * inner
    if isinstance(node, ast.IfExp):
        return 1 + _cost(node.test, costs) + max(_cost(node.body, costs), _cost(node.orelse, costs))
    if isinstance(node, ast.If):
        return 1 + _cost(node.test, costs) + max(sum(_cost(s, costs) for s in node.body),
                                                 sum(_cost(s, costs) for s in node.orelse))
    own = costs.get(node.func.id, 0) if _definition_call(node) else 0
    return 1 + own + sum(_cost(child, costs) for child in ast.iter_child_nodes(node))
