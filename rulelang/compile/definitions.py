"""Definitions (``define``): named expressions, with or without parameters, each compiled once.

A definition is typed and compiled the first time a rule reads it, and again only where it is
read with other kinds of arguments or in a place whose own names it reads mean something else
(``player`` in a rule about one seat, ``led_suit`` in trick rules): each such *shape* is compiled
once and kept in :attr:`Definitions.shapes`. A shape whose value is known before play is folded
into the rules that read it; a small one is written into them; any other becomes a function
``def_N(st, pl, …)`` of the game's module, called where it is read. Checking and loading a file
therefore cost time in proportion to its length, however the definitions read each other.

Before anything is compiled, :func:`check_definitions` refuses what could never come to an end or
would nest without bound: a definition that uses itself, directly or through others (N234), and
chains of definitions reading definitions deeper than :data:`MAX_DEFINITION_DEPTH` (N236), each at
the line the author wrote with the chain shown.
"""

from __future__ import annotations

import ast
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field

from rulelang.compile.codegen import PLAYER, STATE
from rulelang.diagnostics import Diagnostic
from rulelang.read.expr import Expr, locate
from rulelang.read.source import Span

MAX_DEFINITION_DEPTH = 64
"""How deeply definitions may read definitions (a chain ``d64 → d63 → … → d1``); deeper is N236."""

INLINE_NODES = 24
"""A compiled definition of at most this many ``ast`` nodes is written into the rules that read it."""

INLINE_CONSTANT_NODES = 200
"""A definition read with constant or plain arguments (option names, numbers, ``player``) is written in up to
this many nodes: nothing is worked out twice, the call is saved, and the batch engine needs some constants as
constants (``announced(word)``)."""

_RECURSION_LIMIT = 20000


@dataclass
class Definition:
    """One ``define`` entry: its name, parameter names, parsed expression and where it is written."""

    name: str
    params: tuple[str, ...]
    expr: Expr
    origin: Span | None                 # where the expression's text starts
    key_span: Span | None               # where the key (``beats(a, b)``) is written
    free: frozenset = frozenset()       # names it reads, itself or through definitions it uses (not its params)
    broken: bool = False                # refused (N234, N236): a read of it compiles to nothing, silently

    @property
    def head(self) -> str:
        """The key as written canonically: ``beats(a, b)``, or the bare name."""
        return f"{self.name}({', '.join(self.params)})" if self.params else self.name


@dataclass
class Shape:
    """A definition compiled for one kind of use: its type, code and value, or the errors it gave."""

    type: str
    code: ast.expr | None = None
    value: object = None
    is_const: bool = False
    label: str | None = None            # the function ``def_N`` once it has one
    locals: tuple = ()                  # the names of the reading place passed in as arguments (a score's lets)
    errors: list = field(default_factory=list)
    reported: bool = False
    params: int = 0
    doc: str = ""

    def function(self, module) -> str:
        """The name of this shape's function in the game's module (a ``CodeModule``), added on first need."""
        if self.label is None:
            names = [f"_p{i}" for i in range(self.params)] + [f"_c{i}" for i in range(len(self.locals))]
            self.label = module.definition(self.code, names, self.doc)
        return self.label


@dataclass
class Definitions:
    """The game's definitions by name, the shapes compiled so far, and the scope they are compiled in."""

    found: dict[str, Definition] = field(default_factory=dict)
    shapes: dict = field(default_factory=dict)
    base: object = None                 # the game's base Scope, set once it is built

    def __contains__(self, name) -> bool:
        return name in self.found

    def __bool__(self) -> bool:
        return bool(self.found)

    def context(self, definition: Definition, scope) -> list[tuple[str, object]]:
        """(name, binding) of each name ``definition`` reads that the reading place means its own way."""
        base = self.base.names if self.base is not None else {}
        return [(n, scope.names[n]) for n in sorted(definition.free)
                if n in scope.names and scope.names[n] is not base.get(n) and not getattr(scope.names[n], "lexical", False)]


def is_local(code: ast.expr) -> bool:
    """Whether a binding's code reads a local variable of the reading function (a score's ``let``), which a
    definition's own function receives as an argument."""
    return isinstance(code, ast.Name) and code.id not in (STATE, PLAYER)


def references(definition: Definition, names) -> list[Expr]:
    """The nodes of ``definition``'s expression that read one of ``names`` (a definition), in reading order."""
    return [node for node in definition.expr.walk()
            if node.op == "call" and node.value in names
            or node.op == "name" and node.value in names and node.value not in definition.params]


def check_definitions(found: dict[str, Definition]) -> list[Diagnostic]:
    """N234 for each circle of definitions, N236 for chains deeper than :data:`MAX_DEFINITION_DEPTH`; the
    definitions concerned are marked ``broken``, and every other one gets its ``free`` names. Iterative:
    a file of thousands of definitions is checked without deep recursion."""
    diagnostics: list[Diagnostic] = []
    state: dict[str, int] = {}          # 1 while on the path, 2 when done
    depth: dict[str, int] = {}
    for start in found:
        if start not in state:
            _walk(found, start, state, depth, diagnostics)
    return diagnostics


def _walk(found, start, state, depth, diagnostics) -> None:
    path: list[str] = [start]
    edges = {start: iter(references(found[start], found))}
    state[start] = 1
    while path:
        top = path[-1]
        node = next(edges[top], None)
        if node is None:
            _finish(found[top], found, depth, diagnostics)
            state[top] = 2
            path.pop()
            continue
        other = str(node.value)
        if state.get(other) == 1:
            _circle(found, path[path.index(other):], node, diagnostics)
        elif other not in state:
            state[other] = 1
            path.append(other)
            edges[other] = iter(references(found[other], found))


def _circle(found, members: list[str], node: Expr, diagnostics) -> None:
    """N234 at the read that closes the circle ``members`` (the last member reads the first)."""
    chain = " → ".join((*members, members[0]))
    closing = found[members[-1]]
    diagnostics.append(Diagnostic(
        "N234", f"the definition '{members[0]}' uses itself: {chain}", locate(closing.origin, node.line, node.column),
        "a definition may use other definitions, but never, through them, itself"))
    for member in members:
        found[member].broken = True


def _finish(definition: Definition, found, depth, diagnostics) -> None:
    """Work out the depth and the free names of ``definition``, whose definitions are all finished."""
    used = [found[str(n.value)] for n in references(definition, found)]
    free = {str(n.value) for n in definition.expr.walk()
            if n.op in ("name", "call") and n.value not in found and n.value not in definition.params}
    for other in used:
        free |= other.free
    definition.free = frozenset(free)
    deepest = max((depth.get(other.name, 0) for other in used), default=0)
    depth[definition.name] = deepest + 1
    if any(other.broken for other in used):
        definition.broken = True
    elif deepest + 1 > MAX_DEFINITION_DEPTH and deepest == MAX_DEFINITION_DEPTH:
        chain = _deepest_chain(definition, found, depth)
        shown = " → ".join(chain[:4] + (["…"] if len(chain) > 6 else []) + chain[-2:]) if len(chain) > 6 \
            else " → ".join(chain)
        diagnostics.append(Diagnostic(
            "N236", f"the definition '{definition.name}' reads definitions {deepest + 1} levels deep: {shown}",
            definition.origin, f"definitions may read definitions at most {MAX_DEFINITION_DEPTH} levels deep "
            "(docs/language.md, Limits): write a step of the chain out, or give it a parameter"))
        definition.broken = True


def _deepest_chain(definition: Definition, found, depth) -> list[str]:
    chain, at = [definition.name], definition
    while True:
        used = [found[str(n.value)] for n in references(at, found)]
        if not used:
            return chain
        at = max(used, key=lambda d: depth.get(d.name, 0))
        chain.append(at.name)


def node_count(code: ast.AST, limit: int = INLINE_NODES) -> int:
    """How many ``ast`` nodes ``code`` has (stopping once past ``limit``)."""
    count = 0
    for _ in ast.walk(code):
        count += 1
        if count > limit:
            break
    return count


class _Substitute(ast.NodeTransformer):
    """Replaces the reads of a definition's parameters (``_p0`` …) by the code of its arguments."""

    def __init__(self, codes: dict[str, ast.expr]):
        self.codes = codes

    def visit_Name(self, node: ast.Name) -> ast.expr:
        from rulelang.compile.codegen import copy_tree
        found = self.codes.get(node.id)
        return copy_tree(found) if found is not None else node


def substitute(code: ast.expr, codes: dict[str, ast.expr]) -> ast.expr:
    """``code`` (a copy) with each read of a name of ``codes`` replaced by a copy of its code."""
    from rulelang.compile.codegen import copy_tree
    return _Substitute(codes).visit(copy_tree(code))


def reads_state(code: ast.expr) -> bool:
    """Whether ``code`` is the seat asked about or a plain read of the state (``pl``, ``st.dealer``): an argument
    a definition's shape may be compiled with as it is, since it means the same in every function of the module
    (a local such as a let or another definition's parameter does not)."""
    while isinstance(code, ast.Attribute):
        code = code.value
    return isinstance(code, ast.Name) and code.id in (PLAYER, STATE)


def reads_of(code: ast.expr, label: str) -> int:
    """How many times ``code`` reads the name ``label``."""
    return sum(1 for node in ast.walk(code) if isinstance(node, ast.Name) and node.id == label)


def is_simple(code: ast.expr) -> bool:
    """A constant or a plain read, cheap to evaluate twice."""
    return isinstance(code, (ast.Constant, ast.Name)) or \
        isinstance(code, ast.Attribute) and isinstance(code.value, ast.Name)


@contextmanager
def deep_enough():
    """Room on Python's stack for compiling definitions that read definitions :data:`MAX_DEFINITION_DEPTH`
    levels deep, each an expression nested up to its own limit. The limit is raised and left raised: putting it
    back would cut short a compile running at the same time in another thread (the web table compiles uploads
    in its worker threads), and the compiler's recursion is Python calling Python, which the interpreter runs
    without growing the C stack."""
    if sys.getrecursionlimit() < _RECURSION_LIMIT:
        sys.setrecursionlimit(_RECURSION_LIMIT)
    yield
