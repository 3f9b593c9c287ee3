"""One Python module per game, built as ``ast`` nodes from the typed rules and passed to ``compile()``.

Every expression of a rule file becomes a function ``rule_N(st, pl)`` of the game's module:
straight-line code over ints and bitmasks with the file's constants folded in (``st`` is the
running state, ``pl`` the seat or side a rule is asked about). Nothing is ever assembled as
source text: user strings (option names, deal variables) reach the code only as
``ast.Constant``; every name in it is the compiler's own — ``st``, ``pl``, ``rule_N``,
``_letN`` for a score's lets, ``_kN`` for a table built at compile time (a span, the card
points), and the helpers of :mod:`rulelang.compile.coderuntime`. ``rulelang dump --stage code``
prints the module with ``ast.unparse``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from rulelang.compile import coderuntime
from rulelang.compile.evalcost import evaluation_costs, repeated_reads, share_reads

STATE, PLAYER = "st", "pl"


def copy_tree(node):
    """An independent copy of the ``ast`` tree ``node`` (what ``copy.deepcopy`` gives for a tree, several
    times faster: generated code is copied whenever a rule is written into a larger function)."""
    other = node.__class__.__new__(node.__class__)
    fields = {}
    for key, value in node.__dict__.items():
        if isinstance(value, ast.AST):
            value = copy_tree(value)
        elif isinstance(value, list):
            value = [copy_tree(item) if isinstance(item, ast.AST) else item for item in value]
        fields[key] = value
    other.__dict__.update(fields)
    return other


def name(identifier: str) -> ast.Name:
    """A read of one of the compiler's own names."""
    return ast.Name(identifier, ast.Load())


def literal(value) -> ast.expr:
    """A constant value as code: ints, bools, strings and None as ``ast.Constant``."""
    if isinstance(value, (bool, int, str)) or value is None:
        return ast.Constant(value)
    raise TypeError(f"no literal for {type(value).__name__}")


def state_attr(attribute: str) -> ast.expr:
    """``st.<attribute>``."""
    return ast.Attribute(name(STATE), attribute, ast.Load())


def part_attr(kind: str, attribute: str) -> ast.expr:
    """``st.<kind>.<attribute>``: a field of a construct's slice of deal state."""
    return ast.Attribute(state_attr(kind), attribute, ast.Load())


def state_item(attribute: str, key) -> ast.expr:
    """``st.<attribute>[key]``, the key a constant or code."""
    index = key if isinstance(key, ast.AST) else literal(key)
    return ast.Subscript(state_attr(attribute), index, ast.Load())


def call(helper: str, *args: ast.expr) -> ast.expr:
    """A call of a helper of :mod:`rulelang.compile.coderuntime` (or a builtin)."""
    return ast.Call(name(helper), list(args), [])


def binop(left: ast.expr, op: ast.operator, right: ast.expr) -> ast.expr:
    """``left <op> right``."""
    return ast.BinOp(left, op, right)


def compare(left: ast.expr, op: ast.cmpop, right: ast.expr) -> ast.expr:
    """``left <op> right`` for a comparison."""
    return ast.Compare(left, [op], [right])


@dataclass
class CodeModule:
    """The functions of one game's rules, linked into one compiled module; ``scalar_only`` holds the indexes of
    functions that only the scalar engine runs (a settlement's scoring: the batch engine settles by
    its own kernels), which have no batch twin."""

    path: str = "<rules>"
    functions: list = field(default_factory=list)
    tables: dict = field(default_factory=dict)
    pending: list = field(default_factory=list)
    index: dict = field(default_factory=dict)
    scalar_only: set = field(default_factory=set)
    definitions: list = field(default_factory=list)
    _scalar: tuple | None = field(default=None, repr=False)   # (what was built from, the scalar functions)

    def table(self, value) -> ast.Name:
        """A name ``_kN`` for a value built at compile time (a tuple, a span); the same value, the same name."""
        key = (type(value).__name__, repr(value))
        if key not in self.tables:
            self.tables[key] = (f"_k{len(self.tables)}", value)
        return name(self.tables[key][0])

    def function(self, code: ast.expr, rule, lets: tuple = ()) -> None:
        """Add ``rule_N(st, pl)`` returning ``code`` after the ``(name, code)`` lets; ``rule.fn`` is set by :meth:`link`."""
        body = [ast.Assign([ast.Name(let, ast.Store())], value) for let, value in lets]
        self.statements(body + [ast.Return(code)], rule)

    def statements(self, body: list, rule, scalar_only: bool = False) -> None:
        """Add ``rule_N(st, pl)`` with the statements ``body``, its docstring the rule's place and text."""
        index = len(self.functions)
        if scalar_only:
            self.scalar_only.add(index)
        where = f"{Path(rule.span.path).name}:{rule.span.line}:{rule.span.column}" if rule.span else "built in"
        self.functions.append(_function_def(f"rule_{index}", [ast.Expr(ast.Constant(f"{where}: {rule.text}"))] + body))
        self.pending.append(rule)
        self.index[id(rule)] = index

    def definition(self, code: ast.expr, params: list[str], doc: str) -> str:
        """Add ``def_N(st, pl, <params>)`` returning ``code`` (a definition compiled once) and return its name."""
        label = f"def_{len(self.definitions)}"
        self.definitions.append(_function_def(label, [ast.Expr(ast.Constant(doc)), ast.Return(code)], params))
        return label

    def code_of(self, rule) -> ast.expr:
        """A copy of the expression a one-expression rule returns (to build a larger function from it);
        ``None`` as code for a rule that did not compile (its errors are reported, nothing will run)."""
        index = self.index.get(id(rule))
        if index is None:
            return ast.Constant(None)
        return copy_tree(self.functions[index].body[-1].value)

    def module(self) -> ast.Module:
        """The whole module: the tables, then one function per rule (slices read twice or more held in a local)."""
        body = [ast.Assign([ast.Name(label, ast.Store())], _table_code(value))
                for label, value in self.tables.values() if _table_code(value) is not None]
        tree = ast.Module(body + self.scalar_functions(), [])
        return ast.fix_missing_locations(tree)

    def scalar_functions(self) -> list[ast.FunctionDef]:
        """The definitions' functions, then the rules', as the scalar module holds them: construct slices read
        twice held in a local, a definition read twice where its value is known read once
        (:func:`~rulelang.compile.evalcost.share_reads`). The functions kept stay as built."""
        built = (len(self.definitions), len(self.functions))
        if self._scalar is not None and self._scalar[0] == built:
            return self._scalar[1]                   # costed, then linked: built once
        functions = [_hoist_parts(fn) for fn in self.definitions + self.functions]
        if self.definitions:
            for i, fn in enumerate(functions):
                repeated = repeated_reads(fn)
                if repeated:
                    functions[i] = share_reads(copy_tree(fn), repeated)
        self._scalar = (built, functions)
        return functions

    def costs(self, cards: int) -> dict:
        """Per rule (by identity), the most ``ast`` nodes one evaluation of its function passes through (a deck
        of ``cards`` cards)."""
        costs = evaluation_costs(self.scalar_functions(), cards)
        return {id(rule): costs[f"rule_{index}"] for index, rule in enumerate(self.pending)}

    def link(self) -> None:
        """Compile the module once and give every rule its function."""
        namespace = self.namespace()
        exec(compile(self.module(), f"<rules of {self.path}>", "exec"), namespace)  # noqa: S102 - a code object compiled from ast
        for index, rule in enumerate(self.pending):
            rule.fn = namespace[f"rule_{index}"]

    def namespace(self) -> dict:
        """The module's globals: the runtime helpers and the tables that have no code of their own."""
        namespace = {"__builtins__": _BUILTINS}
        namespace.update(coderuntime.HELPERS)
        for label, value in self.tables.values():
            namespace[label] = value
        return namespace

    def source(self) -> str:
        """The module as Python text, for reading (``ast.unparse``); never executed."""
        return ast.unparse(self.module())

    def evaluate_now(self, code: ast.expr):
        """The value of ``code`` with no state (a number known before play); errors propagate."""
        tree = ast.fix_missing_locations(ast.Module(self.definitions + [_function_def("rule_now", [ast.Return(code)])],
                                                    []))
        namespace = self.namespace()
        exec(compile(tree, "<rule>", "exec"), namespace)  # noqa: S102 - a code object compiled from ast
        return namespace["rule_now"](None, None)


def _part_read(node) -> str | None:
    """The construct kind of ``st.<kind>`` when ``node`` is ``st.<kind>.<field>`` (a construct's deal
    slice, not a method of a plain field such as ``st.side_mask.bit_count``), else None."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
        inner = node.value
        if isinstance(inner.value, ast.Name) and inner.value.id == STATE:
            from rulelang.constructs import constructs
            return inner.attr if inner.attr in constructs() else None
    return None


class _PartLocals(ast.NodeTransformer):
    """Rewrites ``st.<kind>.<field>`` to ``_part_<kind>.<field>`` for the kinds in ``kinds``."""

    def __init__(self, kinds: set[str]):
        self.kinds = kinds

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        kind = _part_read(node)
        if kind in self.kinds:
            return ast.Attribute(name(f"_part_{kind}"), node.attr, ast.Load())
        return self.generic_visit(node)


def _hoist_parts(fn: ast.FunctionDef) -> ast.FunctionDef:
    """``fn`` with each construct slice it reads twice or more (``st.tricks``) loaded once into a local
    (a copy: the functions kept for :meth:`CodeModule.code_of` stay as built)."""
    reads: dict[str, int] = {}
    for node in ast.walk(fn):
        kind = _part_read(node)
        if kind is not None:
            reads[kind] = reads.get(kind, 0) + 1
    kinds = {kind for kind, count in reads.items() if count > 1}
    if not kinds:
        return fn
    fn = _PartLocals(kinds).visit(copy_tree(fn))
    loads = [ast.Assign([ast.Name(f"_part_{kind}", ast.Store())], state_attr(kind)) for kind in sorted(kinds)]
    fn.body = fn.body[:1] + loads + fn.body[1:]
    return fn


def _table_code(value) -> ast.expr | None:
    """A table written out in the module when it is plain data (tuples of ints), for the reader."""
    if isinstance(value, tuple) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return ast.Tuple([ast.Constant(v) for v in value], ast.Load())
    return None


def _arguments(params: list[str] = ()) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(STATE), ast.arg(PLAYER), *map(ast.arg, params)], kwonlyargs=[],
                         kw_defaults=[], defaults=[])


def _function_def(label: str, body: list, params: list[str] = ()) -> ast.FunctionDef:
    return ast.FunctionDef(label, _arguments(params), body, [], None)


_BUILTINS = {"len": len, "min": min, "max": max, "abs": abs, "bool": bool, "sum": sum, "any": any, "all": all}
