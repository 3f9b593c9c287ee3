"""A game's rule functions for many deals at once, rewritten as ``ast`` from its generated module.

Each generated ``rule_N(st, pl)`` (:mod:`rulelang.compile.codegen`) becomes ``rule_N(bs, pl)`` over a
:class:`~rulelang.batch.state.BatchState`, whose fields are numpy arrays with one entry per deal.
The rewriting is mechanical, node by node, so the batch rules are the same rules: operators stay
operators (numpy's act entry by entry), Python's control flow becomes selection — a conditional
expression, ``and``/``or``/``not`` and an ``if`` become ``where`` over the deals, a ``return``
under an ``if`` fills the result where its condition holds and nothing was returned before —
and each helper call its batch twin (:mod:`rulelang.batch.runtime`); a subexpression repeated
within a statement is computed once (:mod:`rulelang.batch.cse`). Strings (option names,
contract names) become their codes in :attr:`BatchCode.strings`, so that the arrays hold ints.
As in the scalar module, nothing is text: the tree is built and handed to ``compile()``.

A rule whose code reads something the batch state does not hold, or calls a helper without a
twin, is not rewritten; :meth:`BatchCode.fn` then raises :class:`BatchUnsupported` naming it.
"""

from __future__ import annotations

import ast
import copy
import itertools

import numpy as np

from rulelang.batch import runtime
from rulelang.batch.cse import hoisted
from rulelang.compile.codegen import PLAYER, STATE, _hoist_parts

BATCH_STATE = "bs"
COUNTED = {"trick", "trick_winners"}       # list fields the batch state holds as their lengths
ABSENT = -(1 << 62)          # None, as rulelang.batch.state holds it
LARGEST = (1 << 64) - 1      # a 64-card set; held as the int64 of the same bits


class BatchUnsupported(Exception):
    """A rule or a phase the batch engine cannot run; the message says which and why."""


class _Unsupported(Exception):
    pass


def _read(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def _call(helper: str, *args: ast.expr) -> ast.Call:
    return ast.Call(_read(helper), list(args), [])


class _Expressions(ast.NodeTransformer):
    """Rewrites one expression of a rule for the batch state."""

    def __init__(self, strings: dict, tables: set, helpers: set, definitions: dict | None = None):
        self.strings, self.tables, self.helpers = strings, tables, helpers
        self.definitions = definitions if definitions is not None else {}   # def_N -> why it has no twin, or None

    def generic_visit(self, node):
        """Any other node: its children rewritten; a node Python's control flow or containers need, refused."""
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.GeneratorExp, ast.DictComp, ast.SetComp, ast.Starred,
                             ast.Dict, ast.List, ast.Set, ast.JoinedStr, ast.Await, ast.NamedExpr, ast.Slice)):
            raise _Unsupported(f"`{ast.unparse(node)}`")
        return super().generic_visit(node)

    def visit_Constant(self, node):
        """A string as its code, None as the held None, a number as the int64 of its bits."""
        if isinstance(node.value, str):
            return ast.Constant(self.strings.setdefault(node.value, len(self.strings)))
        if node.value is None:
            return ast.Constant(ABSENT)
        if isinstance(node.value, int) and not isinstance(node.value, bool):
            if not -(1 << 63) <= node.value <= LARGEST:
                raise _Unsupported(f"the number {node.value} (more than 64 bits)")
            return ast.Constant(runtime.signed(node.value))
        return node

    def visit_Name(self, node):
        """``st`` becomes ``bs``; every other name is the compiler's own and stays."""
        if node.id == STATE:
            return _read(BATCH_STATE)
        return node

    def visit_Subscript(self, node):
        """The led card, a deal variable by name, a table entry, or a seat's entry of a per-seat field."""
        inner = node.value
        if isinstance(inner, ast.Subscript) and _is_field(inner.value, "trick") and _is_int(inner.slice, 0) \
                and _is_int(node.slice, 1):
            return ast.Attribute(self.visit(inner.value.value), "led_card", ast.Load())
        if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            return ast.Subscript(self.visit(inner), node.slice, ast.Load())
        if isinstance(inner, ast.Name) and inner.id.startswith("_k"):
            if inner.id not in self.tables:
                raise _Unsupported(f"a table of the compiler that has no array form (`{inner.id}`)")
            return _call("_b_table", inner, self.visit(node.slice))
        if isinstance(inner, ast.Attribute) and inner.attr in COUNTED:
            raise _Unsupported(f"`{ast.unparse(node)}`")
        return _call("_b_at", self.visit(inner), self.visit(node.slice))

    def visit_UnaryOp(self, node):
        """``not`` over the deals; ``-`` and ``~`` as they are."""
        if isinstance(node.op, ast.Not):
            return _call("_b_not", self.visit(node.operand))
        return ast.UnaryOp(node.op, self.visit(node.operand))

    def visit_BoolOp(self, node):
        """``and``/``or`` with Python's values, deal by deal."""
        helper = "_b_and" if isinstance(node.op, ast.And) else "_b_or"
        values = [self.visit(v) for v in node.values]
        folded = values[-1]
        for value in reversed(values[:-1]):
            folded = _call(helper, value, folded)
        return folded

    def visit_IfExp(self, node):
        """``a if c else b`` as selection over the deals."""
        return _call("_b_where", self.visit(node.test), self.visit(node.body), self.visit(node.orelse))

    def visit_Compare(self, node):
        """Comparisons deal by deal; ``in`` a tuple of constants, a call said, an item scored."""
        left, parts = self.visit(node.left), []
        if len(node.ops) == 1 and isinstance(node.ops[0], ast.In) and isinstance(node.left, ast.Constant) \
                and isinstance(node.left.value, str):
            for field, helper in (("scored_items", "_b_scored"), ("calls", "_b_called")):
                if _is_field(node.comparators[0], field):
                    return _call(helper, self.visit(node.comparators[0].value), node.left)
        for op, right in zip(node.ops, node.comparators):
            right_code = self.visit(right)
            if isinstance(op, (ast.In, ast.NotIn)):
                if not isinstance(right, ast.Tuple):
                    raise _Unsupported(f"`{ast.unparse(node)}`")
                test = _call("_b_in", left, right_code)
                parts.append(_call("_b_not", test) if isinstance(op, ast.NotIn) else test)
            elif isinstance(op, (ast.Is, ast.IsNot)):
                raise _Unsupported(f"`{ast.unparse(node)}`")
            else:
                parts.append(ast.Compare(left, [op], [right_code]))
            left = right_code
        folded = parts[-1]
        for part in reversed(parts[:-1]):
            folded = _call("_b_and", part, folded)
        return folded

    def visit_Call(self, node):
        """A helper as its batch twin; ``bit_count``, ``len``, ``min``, ``max``, ``abs`` and ``bool`` deal by deal."""
        func = node.func
        if node.keywords:
            raise _Unsupported(f"`{ast.unparse(node)}`")
        if isinstance(func, ast.Attribute) and func.attr == "bit_count" and not node.args:
            return _call("_b_popcount", self.visit(func.value))
        if not isinstance(func, ast.Name):
            raise _Unsupported(f"`{ast.unparse(node)}`")
        if func.id == "_copy_winner" and node.args and _is_field(node.args[0], "trick"):
            node = ast.Call(func, [node.args[0].value, *node.args[1:]], [])
        args = [self.visit(a) for a in node.args]
        if func.id == "len" and len(node.args) == 1 and _counted(node.args[0]):
            return args[0]
        builtin = {"min": "_b_min", "max": "_b_max", "abs": "_b_abs", "bool": "_b_truth"}.get(func.id)
        if builtin is not None:
            return _call(builtin, *args)
        if func.id in self.definitions:
            if self.definitions[func.id] is not None:
                raise _Unsupported(self.definitions[func.id])
            return ast.Call(func, args, [])
        if func.id not in runtime.HELPERS:
            raise _Unsupported(f"the helper `{func.id}` (no batch twin yet)")
        self.helpers.add(func.id)
        return ast.Call(func, args, [])

    def visit_Attribute(self, node):
        """A field of the state or a slice; the trick calls and scored items only through ``in``."""
        if node.attr in ("calls", "scored_items"):
            raise _Unsupported(f"`{ast.unparse(node)}`")
        return self.generic_visit(node)


def _is_field(node, attr: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == attr


def _is_int(node, value: int) -> bool:
    return isinstance(node, ast.Constant) and node.value == value and type(node.value) is int


def _counted(node) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in COUNTED


class _Body:
    """Rewrites a rule function's statements as predicated code over the deals."""

    def __init__(self, expressions: _Expressions):
        self.expressions = expressions
        self.out: list[ast.stmt] = []
        self.assigned: set[str] = set()
        self.tests = 0
        self.names = (f"_cse{index}" for index in itertools.count())

    def block(self, statements: list, test: ast.expr | None) -> bool:
        """Add ``statements`` run where ``test`` holds (everywhere for None); True when the block always returns."""
        for statement in statements:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                continue
            if isinstance(statement, ast.Return):
                self.ret(statement.value, test)
                if test is None:
                    return True
            elif isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                    and isinstance(statement.targets[0], ast.Name):
                self.assign(statement.targets[0].id, statement.value, test)
            elif isinstance(statement, ast.If):
                self.branch(statement, test)
            else:
                raise _Unsupported(f"the statement `{ast.unparse(ast.fix_missing_locations(statement))}`")
        return False

    def ret(self, value, test) -> None:
        """``return value`` where ``test`` holds (everywhere for None) and nothing was returned yet."""
        code = self.expressions.visit(value) if value is not None else ast.Constant(ABSENT)
        where = test if test is not None else ast.Constant(True)
        self.store("_result", _call("_b_returned", _read("_result"), _read("_done"), where, code))
        done = _call("_b_or", _read("_done"), where) if test is not None else ast.Constant(True)
        self.store("_done", done)

    def assign(self, target: str, value, test) -> None:
        """``target = value`` where ``test`` holds, keeping its earlier value elsewhere."""
        code = self.expressions.visit(value)
        if test is not None and target in self.assigned:
            code = _call("_b_kept", test, code, _read(target))
        self.assigned.add(target)
        self.store(target, code)

    def branch(self, statement: ast.If, test) -> None:
        """An ``if``: its body where its test holds too, its ``else`` where it does not."""
        condition = _call("_b_truth", self.expressions.visit(statement.test))
        label = f"_test{self.tests}"
        self.tests += 1
        self.store(label, condition if test is None else _call("_b_and", test, condition))
        self.block(statement.body, _read(label))
        if statement.orelse:
            other = _call("_b_not", condition)
            label = f"_test{self.tests}"
            self.tests += 1
            self.store(label, other if test is None else _call("_b_and", test, other))
            self.block(statement.orelse, _read(label))

    def store(self, target: str, code: ast.expr) -> None:
        """Emit ``target = code``, its repeated subexpressions computed once before it."""
        assignments, code = hoisted(code, self.names)
        self.out.extend(assignments)
        self.out.append(ast.Assign([ast.Name(target, ast.Store())], code))


def batch_function(fn: ast.FunctionDef, strings: dict, tables: set, helpers: set,
                   definitions: dict | None = None) -> ast.FunctionDef:
    """The batch twin of one generated rule or definition function (raises _Unsupported); the helpers it calls
    are added to ``helpers``; ``definitions`` says which definition functions have twins (None) and why not."""
    body = _Body(_Expressions(strings, tables, helpers, definitions))
    doc = fn.body[:1] if fn.body and isinstance(fn.body[0], ast.Expr) else []
    start = [ast.Assign([ast.Name("_result", ast.Store())], ast.Constant(None)),
             ast.Assign([ast.Name("_done", ast.Store())], ast.Constant(False))]
    body.block(fn.body, None)
    extra = [ast.arg(a.arg) for a in fn.args.args[2:]]          # a definition's parameters
    arguments = ast.arguments(posonlyargs=[], args=[ast.arg(BATCH_STATE), ast.arg(PLAYER), *extra], kwonlyargs=[],
                              kw_defaults=[], defaults=[])
    return ast.FunctionDef(fn.name, arguments, doc + start + body.out + [ast.Return(_read("_result"))], [], None)


def batch_table(value, strings: dict | None = None):
    """A compile-time table as an array: ints as they are; (rank, card) pairs as one sortable key."""
    if isinstance(value, tuple) and value and all(isinstance(v, tuple) and len(v) == 2 for v in value):
        return np.array([rank * 64 + card for rank, card in value], dtype=np.int64)
    if isinstance(value, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        if any(not -(1 << 63) <= v <= LARGEST for v in value):
            return None
        return np.array([runtime.signed(v) for v in value], dtype=np.int64)
    if isinstance(value, tuple) and value and all(isinstance(v, str) for v in value) and strings is not None:
        return np.array([strings.setdefault(v, len(strings)) for v in value], dtype=np.int64)
    return None


class BatchCode:
    """The batch twins of a game's rule functions, compiled once; ``strings`` codes every string constant,
    ``helpers`` names the helpers the twins call."""

    def __init__(self, module, strings: dict | None = None):
        self.strings: dict[str, int] = strings if strings is not None else {}
        namespace = {"__builtins__": {}}
        namespace.update(runtime.HELPERS)
        namespace.update(runtime.PLUMBING)
        tables = set()
        for label, value in module.tables.values():
            converted = batch_table(value, self.strings)
            namespace[label] = value if converted is None else converted
            if converted is not None:
                tables.add(label)
        functions, self.reasons, self.helpers = [], {}, set()
        definitions: dict[str, str | None] = {}
        for fn in module.definitions:          # each calls only definitions before it
            try:
                functions.append(batch_function(_hoist_parts(copy.deepcopy(fn)), self.strings, tables, self.helpers,
                                                definitions))
                definitions[fn.name] = None
            except _Unsupported as why:
                definitions[fn.name] = str(why)
        for index, fn in enumerate(module.functions):
            if index in module.scalar_only:
                continue
            try:
                functions.append(batch_function(_hoist_parts(copy.deepcopy(fn)), self.strings, tables, self.helpers,
                                                definitions))
            except _Unsupported as why:
                self.reasons[index] = str(why)
        tree = ast.fix_missing_locations(ast.Module(functions, []))
        exec(compile(tree, f"<batch rules of {module.path}>", "exec"), namespace)  # noqa: S102 - compiled from ast
        self.module, self.namespace = module, namespace
        self.trees = {f.name: f for f in functions}

    def fn(self, rule):
        """The batch function of ``rule``; :class:`BatchUnsupported` when it could not be rewritten."""
        index = self.module.index.get(id(rule))
        if index is None:
            raise BatchUnsupported(f"the rule `{rule.text}` has no code")
        if index in self.module.scalar_only:
            raise BatchUnsupported(f"the rule `{rule.text}` ({_where(rule)}) is run by the scalar engine only")
        if index in self.reasons:
            raise BatchUnsupported(f"the rule `{rule.text}` ({_where(rule)}) reads {self.reasons[index]}")
        return self.namespace[f"rule_{index}"]

    def code(self, string: str) -> int:
        """The code of a string value (an option, a contract) in the batch arrays."""
        return self.strings.setdefault(string, len(self.strings))

    def source(self) -> str:
        """The batch module as Python text, for reading."""
        return ast.unparse(ast.fix_missing_locations(ast.Module(list(self.trees.values()), [])))


def _where(rule) -> str:
    span = rule.span
    return f"{span.path}:{span.line}:{span.column}" if span else "built in"


_CACHE: dict[int, tuple] = {}       # per rule module (by identity): the module and its batch code


def batch_code(module) -> BatchCode:
    """The batch code of a game's rule module, built once per module."""
    found = _CACHE.get(id(module))
    if found is None or found[0] is not module:
        found = _CACHE[id(module)] = (module, BatchCode(module))
    return found[1]
