"""A settlement's scoring compiled to code: per contract, one function that scores each of its items for each side.

A ``settle`` phase scores every item that counts in the contract played: announced items for
the side that announced them, the others for each side that achieved them (or was caught).
What counts, with which factor, is known per contract when the game is compiled, so each
contract gets one function ``rule_N(st, pl)`` with ``pl`` the pair (declarers, defenders): the
items' ``achieved``, ``caught`` and ``value`` expressions are written into it with the side
they are asked about in place of ``side``, and it returns the rows the settlement pays, as
(item name, won by the declarers?, amount, doubling level, announced?). Items scored for each
seat alone (``per_seat``) are left to the settlement itself (:mod:`rulelang.constructs.settle`).
``rulelang dump --stage code`` shows these functions with the rules.
"""

from __future__ import annotations

import ast
import copy

from rulelang.codegen import PLAYER, binop, literal, part_attr
from rulelang.codegen import name as read
from rulelang.ir import Rule

DECLARERS, DEFENDERS, ROWS, LEVEL, OWNER = "_declarers", "_defenders", "_rows", "_level", "_owner"


def scoring_rules(c, path, doubling_adds: int) -> dict[str | None, Rule]:
    """Per contract name, and None for a deal played in no contract of the ladder, the compiled scoring
    of the items that count in it (see the module's docstring)."""
    contracts, items = c.compiled_contracts, c.compiled_items
    span = c.doc.span_of(path)
    rules = {}
    for name in [None, *contracts]:
        contract = contracts.get(name) if name is not None else None
        listed = contract.items if contract is not None and contract.items is not None else list(items)
        counting = [items[item] for item in listed if item in items and not items[item].per_seat]
        rule = Rule(None, f"the settlement's items in {name or 'no contract'}", span)
        body = [ast.Assign([ast.Tuple([_store(DECLARERS), _store(DEFENDERS)], ast.Store())], read(PLAYER)),
                ast.Assign([_store(ROWS)], ast.List([], ast.Load()))]
        for item in counting:
            factor = 1 if item.is_game or contract is None else contract.bonus_factor
            body += _item_code(c.scope.module, item, contract, factor, doubling_adds)
        c.scope.module.statements(body + [ast.Return(read(ROWS))], rule, scalar_only=True)
        rules[name] = rule
    return rules


def _item_code(module, item, contract, factor: int, doubling_adds: int) -> list:
    """The statements that add ``item``'s rows: the game for the declarers; an announced item for its
    owner; else each side that achieved it, or was caught."""
    level = ast.Call(ast.Attribute(part_attr("auction", "levels"), "get", ast.Load()),
                     [literal(item.name), literal(0)], [])
    body = [ast.Assign([_store(LEVEL)], level)]
    if item.is_game:
        value = _asked(module, contract.value, literal(None)) if contract is not None else literal(0)
        won = _asked(module, item.achieved, read(DECLARERS))
        return body + [_row(item, won, _doubled(value, doubling_adds), literal(False))]
    owner = ast.Call(ast.Attribute(part_attr("auction", "announced"), "get", ast.Load()), [literal(item.name)], [])
    announced_value = _asked(module, item.announced_value, literal(None)) if item.announced_value is not None else \
        binop(literal(2), ast.Mult(), _asked(module, item.value, literal(None)))
    owner_side = ast.IfExp(read(OWNER), read(DECLARERS), read(DEFENDERS))
    won = ast.IfExp(_asked(module, item.achieved, owner_side), read(OWNER), ast.UnaryOp(ast.Not(), read(OWNER)))
    announced = [_row(item, won, _times(_doubled(announced_value, doubling_adds), factor), literal(True))]
    silent = []
    for side, on_declarers in ((DECLARERS, True), (DEFENDERS, False)):
        value = _times(_asked(module, item.value, literal(None)), factor)
        scored = _row(item, literal(on_declarers), value, literal(False))
        caught = [ast.If(_asked(module, item.caught, read(side)),
                         [_row(item, literal(not on_declarers), value, literal(False))], [])] \
            if item.caught is not None else []
        silent.append(ast.If(_asked(module, item.achieved, read(side)), [scored], caught))
    is_announced = ast.Compare(read(OWNER), [ast.IsNot()], [literal(None)])
    return body + [ast.Assign([_store(OWNER)], owner), ast.If(is_announced, announced, silent)]


def _asked(module, rule: Rule, side: ast.expr) -> ast.expr:
    """The expression of ``rule`` asked about ``side`` (written where the rule says ``side``); a value is
    asked about no side (None), as the settlement has always asked values."""
    return _Side(side).visit(module.code_of(rule))


class _Side(ast.NodeTransformer):
    """Puts the code of a side where an item's rule reads the side it is asked about."""

    def __init__(self, side: ast.expr):
        self.side = side

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return copy.deepcopy(self.side) if node.id == PLAYER else node


def _row(item, won: ast.expr, amount: ast.expr, announced: ast.expr) -> ast.stmt:
    """``_rows.append((name, won, amount, _level, announced))``."""
    row = ast.Tuple([literal(item.name), won, amount, read(LEVEL), announced], ast.Load())
    return ast.Expr(ast.Call(ast.Attribute(read(ROWS), "append", ast.Load()), [row], []))


def _doubled(value: ast.expr, doubling_adds: int) -> ast.expr:
    """``value`` after ``_level`` doubling steps: doubled each step, or ``doubling_adds`` added each."""
    if doubling_adds:
        return binop(value, ast.Add(), binop(literal(doubling_adds), ast.Mult(), read(LEVEL)))
    return binop(value, ast.LShift(), read(LEVEL))


def _times(value: ast.expr, factor: int) -> ast.expr:
    """``value * factor``, or ``value`` when the factor is 1."""
    return value if factor == 1 else binop(value, ast.Mult(), literal(factor))


def _store(identifier: str) -> ast.Name:
    return ast.Name(identifier, ast.Store())
