"""A settlement's scoring compiled to code: one function per set of items that count, scoring each for each side.

A ``settle`` phase scores every item that counts in the contract played: announced items for
the side that announced them, the others for each side that achieved them (or was caught).
What counts, with which factor, is known per contract when the game is compiled, so contracts
that count the same items with the same factor share one function ``rule_N(st, pl)`` with ``pl``
(declarers, defenders, the value of the contract's game): the items' ``achieved``, ``caught``
and ``value`` expressions are written into it with the side they are asked about in place of
``side``, and it returns the rows the settlement pays, as (item name, won by the declarers?,
amount, doubling level, announced?). Items scored for each seat alone (``per_seat``) are left
to the settlement itself (:mod:`rulelang.constructs.settle`). ``rulelang dump --stage code``
shows these functions with the rules.

An item's ``achieved`` is asked about two sides, and is evaluated whichever way the item goes; the
parts of it that do not depend on the side and that every evaluation reaches (``trick_of(CARD) ==
tricks_played``, ``holder(CARDS)``: not what follows an ``and``) are computed once, into locals
``_once0``, ``_once1``, …, before the item's rows, and read wherever the item's rules repeat them.
"""

from __future__ import annotations

import ast
import itertools

from rulelang.compile.codegen import PLAYER, binop, copy_tree, literal, part_attr
from rulelang.compile.codegen import name as read
from rulelang.compile.coderuntime import HELPERS
from rulelang.compile.ir import Rule

PURE_CALLS = frozenset(HELPERS) | {"len", "min", "max", "abs", "bool"}
SHAREABLE = (ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp)

DECLARERS, DEFENDERS, GAME_VALUE = "_declarers", "_defenders", "_game_value"
ROWS, LEVEL, OWNER = "_rows", "_level", "_owner"


def scoring_rules(c, path, doubling_adds: int) -> dict[str | None, Rule]:
    """Per contract name, and None for a deal played in no contract of the ladder, the compiled scoring
    of the items that count in it (see the module's docstring)."""
    contracts, items = c.compiled_contracts, c.compiled_items
    shared: dict[tuple, list] = {}                 # (items, factor) -> the contracts that count them
    for name in [None, *contracts]:
        contract = contracts.get(name) if name is not None else None
        listed = contract.items if contract is not None and contract.items is not None else list(items)
        counting = tuple(item for item in listed if item in items and not items[item].per_seat)
        factor = 1 if contract is None else contract.bonus_factor
        shared.setdefault((counting, factor), []).append(name)
    rules = {}
    for (counting, factor), names in shared.items():
        text = ", ".join(name or "no contract" for name in names)
        rule = Rule(None, f"the settlement's items in {text}", c.doc.span_of(path))
        unpack = ast.Tuple([_store(DECLARERS), _store(DEFENDERS), _store(GAME_VALUE)], ast.Store())
        body = [ast.Assign([unpack], read(PLAYER)), ast.Assign([_store(ROWS)], ast.List([], ast.Load()))]
        once = (f"_once{index}" for index in itertools.count())
        for item in counting:
            body += _item_code(_Rules(c.scope.module, items[item], once), 1 if items[item].is_game else factor,
                               doubling_adds)
        c.scope.module.statements(body + [ast.Return(read(ROWS))], rule, scalar_only=True)
        rules.update(dict.fromkeys(names, rule))
    return rules


def _item_code(rules, factor: int, doubling_adds: int) -> list:
    """The statements that add the item's rows: the game for the declarers; an announced item for its
    owner; else each side that achieved it, or was caught. Only an item with ``announce`` can be
    announced (the auction offers no other), so only such an item asks whether it was; only it and
    the game can be doubled."""
    item = rules.item
    level = ast.Call(ast.Attribute(part_attr("auction", "levels"), "get", ast.Load()),
                     [literal(item.name), literal(0)], [])
    doubled = item.is_game or item.announce
    body = [ast.Assign([_store(LEVEL)], level)] if doubled else []
    if item.is_game:
        won = rules.asked(item.achieved, read(DECLARERS))
        return body + [_row(item, won, _doubled(read(GAME_VALUE), doubling_adds), literal(False))]
    body += rules.computed_once()
    silent = []
    for side, on_declarers in ((DECLARERS, True), (DEFENDERS, False)):
        value = _times(rules.asked(item.value, literal(None)), factor)
        scored = _row(item, literal(on_declarers), value, literal(False), doubled)
        caught = [ast.If(rules.asked(item.caught, read(side)),
                         [_row(item, literal(not on_declarers), value, literal(False), doubled)], [])] \
            if item.caught is not None else []
        silent.append(ast.If(rules.asked(item.achieved, read(side)), [scored], caught))
    if not item.announce:
        return body + silent
    owner = ast.Call(ast.Attribute(part_attr("auction", "announced"), "get", ast.Load()), [literal(item.name)], [])
    announced_value = rules.asked(item.announced_value, literal(None)) if item.announced_value is not None else \
        _times(rules.asked(item.value, literal(None)), 2)
    owner_side = ast.IfExp(read(OWNER), read(DECLARERS), read(DEFENDERS))
    won = ast.IfExp(rules.asked(item.achieved, owner_side), read(OWNER), ast.UnaryOp(ast.Not(), read(OWNER)))
    announced = [_row(item, won, _times(_doubled(announced_value, doubling_adds), factor), literal(True))]
    is_announced = ast.Compare(read(OWNER), [ast.IsNot()], [literal(None)])
    return body + [ast.Assign([_store(OWNER)], owner), ast.If(is_announced, announced, silent)]


class _Rules:
    """One item's rules as code: each asked about a side, with the parts of ``achieved`` that every
    evaluation of it reaches and that do not depend on the side read from locals (``computed_once``)."""

    def __init__(self, module, item, names):
        self.module, self.item = module, item
        self.shared: dict[str, str] = {}          # the structure of a part computed once -> its local
        self.nodes: dict[str, ast.expr] = {}
        for node in _side_free(module.code_of(item.achieved)) if not item.is_game else []:
            for part in _heads(node):
                key = ast.dump(part)
                if key not in self.shared:
                    self.shared[key], self.nodes[key] = next(names), part
        self.signatures = {_signature(node) for node in self.nodes.values()}

    def computed_once(self) -> list:
        """``_onceN = <part>`` for each part of ``achieved`` computed once, each reading the ones before."""
        statements, earlier = [], {}
        for key, local in self.shared.items():
            value = _Side(literal(None), earlier, self.signatures).generic_visit(copy_tree(self.nodes[key]))
            statements.append(ast.Assign([_store(local)], value))
            earlier = {**earlier, key: local}
        return statements

    def asked(self, rule: Rule, side: ast.expr) -> ast.expr:
        """The expression of ``rule`` asked about ``side`` (written where the rule says ``side``; a value is
        asked about no side, None, as the settlement has always asked values), the parts computed once
        read from their locals."""
        return _Side(side, self.shared, self.signatures).visit(self.module.code_of(rule))


def _side_free(node) -> list:
    """The largest parts of ``node`` that every evaluation of it reaches and that read no side: operations
    and calls of the runtime's helpers without ``pl``, not after an ``and``/``or`` nor in one branch
    of a conditional only."""
    if isinstance(node, SHAREABLE) and all(
            not (isinstance(inner, ast.Name) and inner.id == PLAYER) and
            not (isinstance(inner, ast.Call) and not (isinstance(inner.func, ast.Name) and inner.func.id in PURE_CALLS))
            for inner in ast.walk(node)):
        return [node]
    if isinstance(node, ast.BoolOp):
        return _side_free(node.values[0])
    if isinstance(node, ast.IfExp):
        return _side_free(node.test)
    if isinstance(node, ast.Compare):
        return _side_free(node.left) + _side_free(node.comparators[0])
    if isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp, ast.NamedExpr)):
        return []
    return [found for child in ast.iter_child_nodes(node) for found in _side_free(child)]


def _signature(node) -> tuple:
    """What a node is at its top (its kind, the helper it calls or its operator), to compare two quickly
    before comparing them whole."""
    if isinstance(node, ast.Call):
        return ast.Call, node.func.id if isinstance(node.func, ast.Name) else None, len(node.args)
    if isinstance(node, ast.Compare):
        return ast.Compare, tuple(type(op) for op in node.ops)
    return type(node), type(getattr(node, "op", None))


def _heads(node) -> list:
    """``node``, after the first operand of ``and``/``or`` that heads it (so that a rule beginning with the
    same test reads it once too), that operand's own head first."""
    return (_heads(node.values[0]) if isinstance(node, ast.BoolOp) else []) + [node]


class _Side(ast.NodeTransformer):
    """Puts the code of a side where an item's rule reads the side it is asked about, and a local where
    it repeats a part computed once."""

    def __init__(self, side: ast.expr, shared: dict, signatures: set):
        self.side, self.shared, self.signatures = side, shared, signatures

    def visit(self, node):
        if self.shared and isinstance(node, SHAREABLE) and _signature(node) in self.signatures:
            local = self.shared.get(ast.dump(node))
            if local is not None:
                return read(local)
        return super().visit(node)

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return copy_tree(self.side) if node.id == PLAYER else node


def _row(item, won: ast.expr, amount: ast.expr, announced: ast.expr, doubled: bool = True) -> ast.stmt:
    """``_rows.append((name, won, amount, _level, announced))``; the level 0 for an item never doubled."""
    row = ast.Tuple([literal(item.name), won, amount, read(LEVEL) if doubled else literal(0), announced], ast.Load())
    return ast.Expr(ast.Call(ast.Attribute(read(ROWS), "append", ast.Load()), [row], []))


def _doubled(value: ast.expr, doubling_adds: int) -> ast.expr:
    """``value`` after ``_level`` doubling steps: doubled each step, or ``doubling_adds`` added each."""
    if doubling_adds:
        return binop(value, ast.Add(), binop(literal(doubling_adds), ast.Mult(), read(LEVEL)))
    return binop(value, ast.LShift(), read(LEVEL))


def _times(value: ast.expr, factor: int) -> ast.expr:
    """``value * factor``: ``value`` when the factor is 1, the product when the value is a number."""
    if factor == 1:
        return value
    if isinstance(value, ast.Constant) and type(value.value) is int:
        return literal(value.value * factor)
    return binop(value, ast.Mult(), literal(factor))


def _store(identifier: str) -> ast.Name:
    return ast.Name(identifier, ast.Store())
