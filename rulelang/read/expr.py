"""The expression language: parsing to a small AST, and printing canonical text.

Expressions are parsed with the ``expr`` start symbol of the one Lark grammar. The AST is
made of :class:`Expr` nodes (``op``, ``args``, ``value``, ``line``, ``column``); typing and
compilation to closures live in :mod:`rulelang.compile.exprcompile`.

>>> to_text(parse_expr("if trump==hearts then 2 else 1"))
'if trump == hearts then 2 else 1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from lark import Token
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.read.grammar import parser
from rulelang.read.source import Span, too_deep

MAX_EXPR_LENGTH = 4000
MAX_EXPR_DEPTH = 60

# Binding strength of each operator, higher binds tighter (used for printing).
PRECEDENCE = {
    "cond": 1, "or": 2, "and": 3, "not": 4,
    "==": 5, "!=": 5, "<": 5, "<=": 5, ">": 5, ">=": 5, "in": 5,
    "+": 6, "-": 6, "|": 6, "*": 7, "/": 7, "%": 7, "&": 7, "neg": 8,
}


@dataclass
class Expr:
    """A node of an expression: ``op`` names it; leaves keep their ``value``."""

    op: str
    args: list["Expr"] = field(default_factory=list)
    value: object = None
    line: int = 1
    column: int = 1

    def walk(self):
        """Yield this node and every node below it."""
        yield self
        for arg in self.args:
            yield from arg.walk()


def parse_expr(text: str, origin: Span | None = None) -> Expr:
    """Parse ``text`` as an expression; errors are located relative to ``origin``."""
    if len(text) > MAX_EXPR_LENGTH:
        raise RuleError([_diag("S150", f"expression is {len(text)} characters long; the limit is {MAX_EXPR_LENGTH}",
                               origin, 1, 1, "split it with `let` names")])
    if too_deep(text, MAX_EXPR_DEPTH) is not None:
        raise RuleError([_diag("S151", f"expression nests brackets deeper than {MAX_EXPR_DEPTH} levels", origin,
                               1, 1, "name parts of it with `let`")])
    try:
        expr = _parsed(text)
    except LarkError as exc:
        raise RuleError([syntax_diagnostic(exc, text, origin)]) from None
    if expr is None:
        raise RuleError([_diag("S151", f"expression nests deeper than {MAX_EXPR_DEPTH} levels", origin, 1, 1,
                               "name parts of it with `let`")])
    return expr


@lru_cache(maxsize=512)
def _parsed(text: str) -> Expr | None:
    """The expression of ``text``, or None when it nests too deep; a syntax error raises Lark's error. Kept by
    text, so an expression read by several stages (compiling, the checks) is parsed once; the nodes are
    never changed by their readers (their positions are relative to the expression's own start)."""
    tree = parser().parse(text, start="expr")
    if depth(tree) > MAX_EXPR_DEPTH:
        return None
    expr = from_tree(tree)
    return None if depth(expr) > MAX_EXPR_DEPTH else expr


def depth(node) -> int:
    """How deeply an :class:`Expr` or a Lark tree nests (a leaf is 1), counted without recursion."""
    stack, deepest = [(node, 1)], 0
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        children = node.args if isinstance(node, Expr) else getattr(node, "children", ())
        stack.extend((child, level + 1) for child in children)
    return deepest


def syntax_diagnostic(exc: LarkError, text: str, origin: Span | None) -> Diagnostic:
    """Turn a Lark error inside an expression into a located S1xx diagnostic."""
    line, column = getattr(exc, "line", 1) or 1, getattr(exc, "column", 1) or 1
    twice = repeated_word(text, getattr(exc, "pos_in_stream", None), EXPRESSION_KEYWORDS)
    if twice is not None:
        at, word = twice
        line, column = line_and_column(text, at)
        return _diag("S104", f"`{word}` is written twice", origin, line, column, "remove one of them")
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        return _diag("S101", "the expression ends too early", origin, line, column,
                     "something is missing at the end: an operand, `else`, or a closing bracket")
    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        return _diag("S102", f"unexpected character {char!r} in expression", origin, line, column,
                     "names are letters, digits and _; cards are written in quotes, e.g. '10♥'")
    token = getattr(exc, "token", None)
    shown = f"'{token}'" if token is not None else "this"
    return _diag("S103", f"unexpected {shown} in expression", origin, line, column,
                 "check the operators and brackets around it")


# Words of the expression language that never stand twice in a row (``not not x`` is allowed).
EXPRESSION_KEYWORDS = frozenset({"and", "or", "if", "then", "else", "in", "for"})
_TWICE = re.compile(r"\b([A-Za-z_]\w*)[ \t]+\1\b")


def repeated_word(text: str, end: int | None, words, start: int | None = None) -> tuple[int, str] | None:
    """Where a word of ``words`` is written twice in a row before offset ``end`` of ``text`` (where the parser
    stopped): the offset of the second one and the word; None if there is none. Without ``start`` the pair
    must stand right before ``end``; with it, the last pair from ``start`` on counts."""
    if end is None:
        return None
    found = None
    for match in _TWICE.finditer(text, start or 0, end):
        word = match.group(1)
        if word in words and (start is not None or not text[match.end():end].strip()):
            found = match.end() - len(word), word
    return found


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _diag(code: str, message: str, origin: Span | None, line: int, column: int, hint: str) -> Diagnostic:
    return Diagnostic(code, message, locate(origin, line, column), hint)


def locate(origin: Span | None, line: int, column: int) -> Span | None:
    """The file span of position (line, column) inside an expression that starts at ``origin``."""
    if origin is None:
        return None
    if line == 1:
        return Span(origin.path, origin.line, origin.column + column - 1)
    return Span(origin.path, origin.line + line - 1, column)


def from_tree(tree) -> Expr:
    """Convert a Lark parse tree of the ``expr`` rule into an :class:`Expr`."""
    if isinstance(tree, Token):
        return Expr("name", value=str(tree), line=tree.line, column=tree.column)
    kind = tree.data
    line, column = tree.meta.line, tree.meta.column
    builder = _BUILDERS.get(kind)
    if builder is None:
        raise ValueError(f"unknown expression node {kind}")
    node = builder(tree.children)
    node.line, node.column = line, column
    return node


def _children(items) -> list[Expr]:
    return [from_tree(c) for c in items if c is not None]


_BUILDERS = {
    "cond": lambda c: Expr("cond", _children(c)),
    "or_": lambda c: Expr("or", _children(c)),
    "and_": lambda c: Expr("and", _children(c)),
    "not_": lambda c: Expr("not", _children(c)),
    "compare": lambda c: Expr(str(c[1]), [from_tree(c[0]), from_tree(c[2])]),
    "in_": lambda c: Expr("in", _children(c)),
    "binop": lambda c: Expr(str(c[1]), [from_tree(c[0]), from_tree(c[2])]),
    "neg": lambda c: Expr("neg", _children(c)),
    "int": lambda c: Expr("int", value=int(c[0])),
    "true": lambda c: Expr("bool", value=True),
    "false": lambda c: Expr("bool", value=False),
    "none": lambda c: Expr("none"),
    "card": lambda c: Expr("card", value=str(c[0])[1:-1]),
    "call": lambda c: Expr("call", _children(c[1:]), value=str(c[0])),
    "name": lambda c: Expr("name", value=str(c[0])),
    "set_": lambda c: Expr("set", _children(c)),
    "aggregate": lambda c: Expr("aggregate", _children([c[1], c[3], c[4]]), value=(str(c[0]), str(c[2]))),
    "set_builder": lambda c: Expr("set_of", _children([c[0], c[2], c[3]]), value=str(c[1])),
}


def to_text(expr: Expr) -> str:
    """The canonical text of ``expr``: single spaces around operators, minimal brackets."""
    return _print(expr, 0)


def _print(e: Expr, outer: int) -> str:
    op = e.op
    if op == "int":
        return str(e.value)
    if op == "bool":
        return "true" if e.value else "false"
    if op == "none":
        return "none"
    if op == "card":
        return f"'{e.value}'"
    if op == "name":
        return str(e.value)
    if op == "call":
        return f"{e.value}({', '.join(_print(a, 0) for a in e.args)})"
    if op == "set":
        return "{" + ", ".join(_print(a, 0) for a in e.args) + "}"
    if op in ("aggregate", "set_of"):
        function, variable = e.value if op == "aggregate" else (None, e.value)
        text = f"{_print(e.args[0], 0)} for {variable} in {_print(e.args[1], PRECEDENCE['+'])}"
        if len(e.args) > 2:
            text += f" if {_print(e.args[2], PRECEDENCE['or'])}"
        return f"{function}({text})" if function else "{" + text + "}"
    mine = PRECEDENCE[op]
    if op == "cond":
        text = f"if {_print(e.args[0], 0)} then {_print(e.args[1], 0)} else {_print(e.args[2], 0)}"
    elif op == "not":
        text = f"not {_print(e.args[0], mine)}"
    elif op == "neg":
        text = f"-{_print(e.args[0], mine)}"
    else:
        left, right = e.args
        right_level = mine + 1
        left_level = mine + 1 if mine == 5 else mine
        text = f"{_print(left, left_level)} {op} {_print(right, right_level)}"
    return f"({text})" if mine < outer or (op == "cond" and outer > 0) else text


HIDDEN_READS = frozenset({"hand", "dealt", "holder", "holding", "declarers", "defenders", "side", "called", "partner",
                          "talon", "discarded"})
"""Names and functions of expressions whose value may depend on cards or parties a seat cannot see."""


_HEAD = re.compile(r"\s*([^\W\d]\w*)\s*(?:\(([^()]*)\))?\s*\Z")
_PARAM = re.compile(r"[^\W\d]\w*\Z")


def definition_head(key) -> tuple[str, tuple[str, ...]] | None:
    """The name and parameter names of a ``define`` key: ``beats(a, b)`` is ``('beats', ('a', 'b'))``, ``lost``
    is ``('lost', ())``; None when the key is neither a name nor a name with parameters in brackets.

    >>> definition_head("beats(a, b)")
    ('beats', ('a', 'b'))
    """
    found = _HEAD.match(str(key))
    if found is None:
        return None
    inside = found.group(2)
    if inside is None or not inside.strip():
        return found.group(1), ()
    params = tuple(part.strip() for part in inside.split(","))
    if not all(_PARAM.match(param) for param in params):
        return None
    return found.group(1), params


def definition_texts(defines: dict) -> dict[str, tuple[tuple[str, ...], str]]:
    """Each definition of a ``define`` mapping by name: its parameters and its expression's text (keys that
    are no definition head are left out)."""
    found = {}
    for key, text in (defines or {}).items():
        head = definition_head(key)
        if head is not None:
            found[head[0]] = (head[1], str(text))
    return found


def reads_hidden(expr: Expr, defines: dict, own_hand: bool = False) -> bool:
    """Whether ``expr``, or a definition it uses (``define``, given as text), reads a name of
    :data:`HIDDEN_READS`; a definition that does not parse counts as reading one. With ``own_hand``,
    ``hand(player)`` — the hand of the seat the expression is asked about — does not count."""
    seen: set[str] = set()
    bodies = definition_texts(defines)
    todo = [expr]
    while todo:
        for node in todo.pop().walk():
            if own_hand and _is_own_hand(node):
                continue
            if node.op in ("name", "call") and node.value in HIDDEN_READS:
                return True
            if node.op in ("name", "call") and node.value in bodies and node.value not in seen:
                seen.add(node.value)
                try:
                    todo.append(parse_expr(bodies[node.value][1]))
                except RuleError:
                    return True
    return False


def _is_own_hand(node: Expr) -> bool:
    return node.op == "call" and node.value == "hand" and len(node.args) == 1 and node.args[0].op == "name" \
        and node.args[0].value == "player"


def disjuncts(expr: Expr) -> list[Expr]:
    """The terms of a chain of ``or`` (the expression itself when it is no ``or``)."""
    if expr.op == "or":
        return [term for arg in expr.args for term in disjuncts(arg)]
    return [expr]

