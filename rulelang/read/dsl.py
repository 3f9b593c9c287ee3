"""The DSL surface syntax: a ``.rules`` file parsed by the Lark grammar into a rule document.

The DSL loads into exactly the same :class:`~rulelang.read.document.Document` as the YAML form.
Readable statements (``deal each 2``, ``forbid pass when …``) and the generic fallback
(``key = value``, ``key { … }``) both become plain dicts and lists; every key and list
item gets the :class:`~rulelang.read.source.Span` it was written at. Inline expressions are
stored as their canonical text (:func:`rulelang.read.expr.to_text`).

>>> load_dsl("game demo\\nplayers 4\\nmatch { end when max(score) >= 10 }", "demo.rules").data
{'game': 'demo', 'players': 4, 'match': {'end': 'max(score) >= 10'}}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from lark import Token, Tree, v_args
from lark.exceptions import LarkError, VisitError
from lark.visitors import Transformer_NonRecursive

from rulelang.constructs import constructs
from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.read.document import Document
from rulelang.read.dsl_errors import syntax_diagnostic
from rulelang.read.expr import MAX_EXPR_DEPTH, MAX_EXPR_LENGTH, from_tree, to_text
from rulelang.read.grammar import parser
from rulelang.read.source import SOURCES, Span, too_deep

MAX_FILE_BYTES = 1 << 20
MAX_NESTING = 64

_INT = re.compile(r"[0-9]+", re.ASCII)
_FLOAT = re.compile(r"[0-9]+\.[0-9]+(?:[eE][-+]?[0-9]+)?|[0-9]+[eE][-+]?[0-9]+", re.ASCII)
_WORDS = {"true": True, "false": False, "null": None}

# Readable statements whose only part is the value of one key: rule name -> key.
SIMPLE_STATEMENTS = {
    "game": "game", "players": "players", "direction": "direction",
    "source": "source", "summary": "summary", "deviations": "deviations",
    "pack": "pack", "ranks": "ranks", "remove": "remove",
    "first_dealer": "first_dealer", "next_dealer": "next_dealer", "forehand": "forehand",
    "talon": "talon", "lead": "lead", "alone": "alone", "each": "each", "add": "add",
    "start_at": "start", "end_when": "end", "winner": "winner", "tie": "tie",
}

# Readable statements that add one entry to a mapping: rule name -> the mapping's key.
GROUPED_STATEMENTS = {"param": "params", "define": "define", "alias": "aliases", "tag": "tags", "forbid": "forbid",
                      "let": "let"}


def load_dsl(text: str, path: str) -> Document:
    """Parse the DSL ``text`` of the file ``path`` into a :class:`Document`; raise :class:`RuleError`."""
    SOURCES.add(path, text)
    check_limits(text, path)
    try:
        tree = parser().parse(text, start="start")
    except LarkError as exc:
        raise RuleError([syntax_diagnostic(exc, text, path)]) from None
    builder = DocumentBuilder(path)
    try:
        root = builder.transform(tree)
    except VisitError as exc:
        raise exc.orig_exc from None
    if builder.diagnostics:
        raise RuleError(builder.diagnostics)
    spans = {(): Span(path, 1, 1)}
    spans.update(root.inner)
    return Document(root.value, spans, path)


def check_limits(text: str, path: str) -> None:
    """Refuse input too large (S120) or nested too deeply (S121) to be parsed safely."""
    size = len(text.encode("utf-8", errors="surrogatepass"))
    if size > MAX_FILE_BYTES:
        raise RuleError([Diagnostic("S120", f"the file is {size} bytes long; the limit is {MAX_FILE_BYTES} (1 MiB)",
                                    Span(path, 1, 1), "split the rules with `extends`")])
    offset = too_deep(text, MAX_NESTING)
    if offset is not None:
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        raise RuleError([Diagnostic("S121", f"blocks and brackets nest deeper than {MAX_NESTING} levels",
                                    Span(path, line, column, line, column + 1),
                                    "flatten the structure; rule documents are never this deep")])


def scalar_value(word: str) -> Any:
    """The value of a bare word: an int, a float, true/false/null, or else the word itself."""
    if _INT.fullmatch(word):
        return int(word)
    if _FLOAT.fullmatch(word):
        return float(word)
    return _WORDS.get(word, word)


@dataclass
class Node:
    """A value built from the source, its span, and the spans of its parts (by relative path)."""

    value: Any
    span: Span
    inner: dict = field(default_factory=dict)

    def graft(self, spans: dict, prefix: tuple) -> None:
        """Record this node's span and its parts' spans under ``prefix`` in ``spans``."""
        spans[prefix] = self.span
        for path, span in self.inner.items():
            spans[prefix + path] = span


@dataclass
class Put:
    """What one statement contributes to its block: ``key`` set to ``node``.

    With ``group`` set, the statement adds ``key: node`` to the mapping at ``group``
    (``param x = 1`` adds to ``params``); with ``append`` it adds ``node`` to the list
    at ``key`` (``suit`` adds to ``suits``).
    """

    key: Any
    node: Node
    span: Span
    group: Any = None
    append: bool = False


def list_node(items: list[Node], span: Span) -> Node:
    """A list node of ``items``."""
    node = Node([item.value for item in items], span)
    for index, item in enumerate(items):
        item.graft(node.inner, (index,))
    return node


def flatten(children) -> list[Put]:
    """The statements of several children, in order (None children are left out)."""
    return [put for child in children if child is not None for put in child]


@v_args(meta=True)
class DocumentBuilder(Transformer_NonRecursive):
    """Turns the parse tree of a rule file into a :class:`Node` of plain data with spans.

    Problems found on the way (duplicate keys, bad literals, oversized expressions) are
    collected in ``diagnostics``; the caller raises them together.
    """

    def __init__(self, path: str):
        super().__init__(visit_tokens=False)
        self.path = path
        self.diagnostics: list[Diagnostic] = []

    # ------------------------------------------------------------ positions and problems
    def span(self, meta) -> Span:
        """The span of a tree's meta."""
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def token_span(self, token: Token) -> Span:
        """The span of one token."""
        return Span(self.path, token.line, token.column, token.end_line, token.end_column)

    def problem(self, code: str, message: str, span: Span, hint: str, notes=()) -> None:
        """Record a diagnostic and go on."""
        self.diagnostics.append(Diagnostic(code, message, span, hint, notes=list(notes)))

    # ------------------------------------------------------------ values
    def word(self, meta, children) -> Node:
        """A bare word: number, boolean, null or text."""
        token = children[0]
        return Node(self.scalar(token), self.token_span(token))

    def scalar(self, token: Token) -> Any:
        """The value of a bare word; a number too long for Python is reported (S118)."""
        try:
            return scalar_value(str(token))
        except ValueError:
            self.problem("S118", f"this number has {len(token)} digits, too many to read", self.token_span(token),
                         'write it in quotes to keep it as text')
            return None

    def keyword(self, meta, children) -> Node:
        """A keyword used as a key inside a generic mapping."""
        token = children[0]
        return Node(scalar_value(str(token)), self.token_span(token))

    def phase_keyword(self, meta, children) -> Node:
        """A phase kind that has a statement, written generically: ``set { var = … value = … }``."""
        return self.keyword(meta, children)

    def string(self, meta, children) -> Node:
        """A quoted string."""
        return Node(self.decode(children[0]), self.token_span(children[0]))

    def negative(self, meta, children) -> Node:
        """``- NUMBER``."""
        value = self.scalar(children[0])
        span = self.span(meta)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.problem("S118", f"'-' must be followed by a number, not {str(children[0])!r}", span,
                         'write the text in quotes, e.g. "-x"')
            return Node(None, span)
        return Node(-value, span)

    def decode(self, token: Token) -> str:
        """The text of a STRING token, escapes resolved as in JSON."""
        try:
            return json.loads(str(token), strict=False)
        except ValueError:
            self.problem("S118", "invalid escape sequence in this string", self.token_span(token),
                         'the escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX')
            return str(token)[1:-1]

    def list(self, meta, children) -> Node:
        """``[a, b, …]``."""
        return list_node([c for c in children if c is not None], self.span(meta))

    def scalars(self, meta, children) -> Node:
        """``a, b, …`` after a keyword."""
        return list_node(children, self.span(meta))

    def options(self, meta, children) -> Node:
        """``play | pass``."""
        return list_node(children, self.span(meta))

    def mapping(self, meta, children) -> Node:
        """``{ key = value … }`` in a value position."""
        return self.build_mapping(flatten(children), self.span(meta))

    def slot(self, meta, children) -> Node:
        """An expression slot: canonical text, or an int/bool literal, or a quoted string as written."""
        child, span = children[0], self.span(meta)
        if isinstance(child, Token):
            return Node(self.decode(child), span)
        if meta.end_pos - meta.start_pos > MAX_EXPR_LENGTH:
            self.problem("S150", f"expression is {meta.end_pos - meta.start_pos} characters long; "
                                 f"the limit is {MAX_EXPR_LENGTH}", span, "split it with `let` names")
            return Node(None, span)
        if tree_depth(child) > MAX_EXPR_DEPTH:
            self.problem("S151", f"expression nests deeper than {MAX_EXPR_DEPTH} levels", span,
                         "name parts of it with `let`")
            return Node(None, span)
        return Node(literal_or_text(from_tree(child)), span)

    # ------------------------------------------------------------ generic statements
    def entry(self, meta, children) -> list[Put]:
        """``key = value``."""
        key, value = children
        return [Put(key.value, value, self.span(meta))]

    def entry_block(self, meta, children) -> list[Put]:
        """``key { … }``."""
        key, puts, span = children[0], flatten(children[1:]), self.span(meta)
        return [Put(key.value, self.build_mapping(puts, span), span)]

    def define_params(self, meta, children) -> list[Put]:
        """``define beats(a, b) = EXPR``: the entry ``beats(a, b)`` of ``define``."""
        key, *params, value = children
        head = f"{key.value}({', '.join(str(p.value) for p in params if p is not None)})"
        return [Put(head, value, self.span(meta), group="define")]

    def __default__(self, data, children, meta):
        """Readable one-value statements by table; expression nodes stay trees for :meth:`slot`."""
        if data in SIMPLE_STATEMENTS:
            return [Put(SIMPLE_STATEMENTS[data], children[0], self.span(meta))]
        if data in GROUPED_STATEMENTS:
            key, value = children
            return [Put(key.value, value, self.span(meta), group=GROUPED_STATEMENTS[data])]
        return super().__default__(data, children, meta)

    # ------------------------------------------------------------ top level
    def start(self, meta, children) -> Node:
        """The whole file."""
        return self.build_mapping(flatten(children), Span(self.path, 1, 1))

    def title(self, meta, children) -> list[Put]:
        """A string on its own: the game's title."""
        token = children[0]
        return [Put("title", Node(self.decode(token), self.token_span(token)), self.token_span(token))]

    def block(self, key: str, meta, children) -> list[Put]:
        """``key { statements }`` for a readable block."""
        span = self.span(meta)
        return [Put(key, self.build_mapping(flatten(children), span), span)]

    def about(self, meta, children) -> list[Put]:
        """``about { source "…" … }``."""
        return self.block("about", meta, children)

    def seating(self, meta, children) -> list[Put]:
        """``seating { first_dealer random … }``."""
        return self.block("seating", meta, children)

    def match(self, meta, children) -> list[Put]:
        """``match { start 20 … }``."""
        return self.block("match", meta, children)

    def deck(self, meta, children) -> list[Put]:
        """``deck { pack … suit … }``."""
        return self.block("deck", meta, children)

    def deck_pack(self, meta, children) -> list[Put]:
        """``deck NAME``: shorthand for ``deck { pack NAME }``."""
        span, pack = self.span(meta), children[0]
        node = Node({"pack": pack.value}, span)
        pack.graft(node.inner, ("pack",))
        return [Put("deck", node, span)]

    # ------------------------------------------------------------ deck
    def suit(self, meta, children) -> list[Put]:
        """``suit NAME [SYMBOL] letter X [naming rank] [with ranks …]``."""
        name, symbol, letter, naming, ranks = children
        span = self.span(meta)
        parts = [("name", name), ("symbol", symbol), ("letter", letter), ("ranks", ranks), ("naming", naming)]
        node = self.head_mapping(parts, span)
        return [Put("suits", node, span, append=True)]

    def points(self, meta, children) -> list[Put]:
        """``points A = 11, 10 = 10, …``."""
        return children

    def pair(self, meta, children) -> Put:
        """One ``RANK = N`` of a points statement."""
        key, value = children
        return Put(key.value, value, self.span(meta), group="points")

    # ------------------------------------------------------------ phases
    def phases(self, meta, children) -> list[Put]:
        """``phases { … }``: each statement is one phase."""
        span = self.span(meta)
        items = []
        for put in flatten(children):
            item = Node({put.key: put.node.value}, put.span)
            put.node.graft(item.inner, (put.key,))
            items.append(item)
        return [Put("phases", list_node(items, span), span)]

    def phase(self, kind: str, meta, parts, block=()) -> list[Put]:
        """A readable phase: its head ``parts`` (key, node or None) and the statements of its block."""
        span = self.span(meta)
        puts = [Put(key, node, node.span) for key, node in parts if node is not None]
        return [Put(kind, self.build_mapping(puts + flatten(block), span), span)]

    def head_mapping(self, parts, span: Span) -> Node:
        """A mapping of the present (key, node) parts of a statement head."""
        return self.build_mapping([Put(k, n, n.span) for k, n in parts if n is not None], span)

    # ------------------------------------------------------------ blocks to mappings
    def build_mapping(self, puts: list[Put], span: Span) -> Node:
        """Assemble a mapping from statements, reporting keys given twice (S116)."""
        node, first = Node({}, span), {}
        for put in puts:
            if put.group is not None:
                self.add_to_group(node, first, put)
            elif put.append:
                self.append_to(node, first, put)
            elif self.is_new(first, put.key, put, "single"):
                node.value[put.key] = put.node.value
                put.node.graft(node.inner, (put.key,))
        return node

    def is_new(self, first: dict, key, put: Put, kind: str) -> bool:
        """Record where ``key`` is first given; on a second time report S116 and return False."""
        seen = first.get(key)
        if seen is None:
            first[key] = (kind, put.span)
            return True
        if seen[0] == kind and kind != "single":
            return True
        shown = key[-1] if isinstance(key, tuple) else key
        where = f" in `{key[0]}`" if isinstance(key, tuple) else ""
        self.problem("S116", f"`{shown}` is given twice{where}", put.span,
                     "a key may be given only once in a block; remove or merge one of them",
                     [("first given here", seen[1])])
        return False

    def add_to_group(self, node: Node, first: dict, put: Put) -> None:
        """Add ``put`` to the mapping at ``put.group`` (``param``, ``forbid``, ``points`` …)."""
        group = put.group
        if not self.is_new(first, group, put, "group"):
            return
        if group not in node.value:
            node.value[group] = {}
            node.inner[(group,)] = put.span
        if self.is_new(first, (group, put.key), put, "single"):
            node.value[group][put.key] = put.node.value
            put.node.graft(node.inner, (group, put.key))

    def append_to(self, node: Node, first: dict, put: Put) -> None:
        """Append ``put.node`` to the list at ``put.key`` (``suit`` statements)."""
        if not self.is_new(first, put.key, put, "append"):
            return
        items = node.value.setdefault(put.key, [])
        node.inner.setdefault((put.key,), put.span)
        put.node.graft(node.inner, (put.key, len(items)))
        items.append(put.node.value)


def _add_construct_rules() -> None:
    """Give the builder each construct's DSL rules (``Construct.dsl``: grammar rule -> builder)."""
    for found in constructs().values():
        for rule, build in found.dsl.items():
            if hasattr(DocumentBuilder, rule):
                raise ValueError(f"the construct '{found.kind}' builds the DSL rule '{rule}', which is taken")
            setattr(DocumentBuilder, rule, v_args(meta=True)(build))


_add_construct_rules()


def tree_depth(tree) -> int:
    """How deeply a parse tree nests (a leaf is 1), without recursion."""
    stack, deepest = [(tree, 1)], 0
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        if isinstance(node, Tree):
            stack.extend((child, level + 1) for child in node.children)
    return deepest


def literal_or_text(expr) -> Any:
    """An expression's document value: ints and booleans as such, anything else as canonical text."""
    if expr.op in ("int", "bool"):
        return expr.value
    if expr.op == "neg" and expr.args[0].op == "int":
        return -expr.args[0].value
    return to_text(expr)
