"""Typing expressions and compiling them to closures (never Python's ``eval``).

A :class:`Scope` says what each name means in one place of a rule file: its type and how
to read it from a running state. :func:`compile_expr` checks types and returns a
:class:`Compiled` whose ``fn(state, player)`` computes the value. The engine's state
offers the attributes read here: ``vars``, ``dealer``, ``forehand``, ``active`` (seat
bitmask), ``led_suit``, ``trick_mask``, ``tricks``, ``won``, ``scores``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.expr import Expr, locate
from rulelang.source import Span

INT, BOOL, SEAT, SEATS, SUIT, CARD, CARDS, NAME, SCORES, NONE = (
    "int", "bool", "seat", "seats", "suit", "card", "cards", "name", "scores", "none")

TYPE_WORDS = {
    INT: "a whole number", BOOL: "a condition (true or false)", SEAT: "a seat", SEATS: "a set of seats",
    SUIT: "a suit", CARD: "a card", CARDS: "a set of cards", NAME: "an option name", SCORES: "the scores of all seats",
    NONE: "none",
}

MAX_INT = 10 ** 12


class EvalError(Exception):
    """An expression failed while a game ran (for example a division by zero)."""

    def __init__(self, message: str, span: Span | None):
        super().__init__(message)
        self.span = span


@dataclass
class Binding:
    """What one name means: its type and a reader ``fn(state, player)``."""

    type: str
    fn: Callable
    const: object = None
    is_const: bool = False


def const(type_: str, value) -> Binding:
    """A binding to a constant value."""
    return Binding(type_, lambda st, pl: value, value, True)


@dataclass
class Scope:
    """Names visible at one place of a rule file, and facts about the deck."""

    names: dict[str, Binding] = field(default_factory=dict)
    cards: dict[str, int] = field(default_factory=dict)
    card_suits: list[int] = field(default_factory=list)
    suit_masks: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    players: int = 4
    step: int = 1
    reads: set = field(default_factory=set)
    card_order: list = field(default_factory=list)

    def child(self, **extra: Binding) -> "Scope":
        """A scope with extra names on top of this one."""
        names = dict(self.names)
        names.update(extra)
        return Scope(names, self.cards, self.card_suits, self.suit_masks, self.points, self.players, self.step,
                     self.reads, self.card_order)


@dataclass
class Compiled:
    """A typed, compiled expression."""

    type: str
    fn: Callable
    is_const: bool = False
    value: object = None


def compile_expr(expr: Expr, scope: Scope, origin: Span | None, want: str | tuple | None = None) -> Compiled:
    """Type-check ``expr`` in ``scope`` and compile it; ``want`` is the type the place needs."""
    compiler = _Compiler(scope, origin)
    result = compiler.node(expr)
    if want is not None:
        result = compiler.coerce(result, want, expr, "here")
    if compiler.errors:
        raise RuleError(compiler.errors)
    return result


def popcount(mask: int) -> int:
    """Number of set bits of ``mask``."""
    return bin(mask).count("1")


class _Compiler:
    def __init__(self, scope: Scope, origin: Span | None):
        self.scope, self.origin, self.errors = scope, origin, []

    def fail(self, node: Expr, code: str, message: str, hint: str) -> Compiled:
        self.errors.append(Diagnostic(code, message, locate(self.origin, node.line, node.column), hint))
        return Compiled(NONE, lambda st, pl: None)

    def span(self, node: Expr) -> Span | None:
        return locate(self.origin, node.line, node.column)

    def coerce(self, c: Compiled, want, node: Expr, where: str) -> Compiled:
        wants = want if isinstance(want, tuple) else (want,)
        if c.type in wants or c.type == NONE and c.fn is not None and self.errors:
            return c
        if CARDS in wants and c.type == SUIT:
            return self.suit_to_cards(c)
        if CARDS in wants and c.type == CARD:
            return _derive(CARDS, lambda v: 1 << v if v >= 0 else 0, c)
        if CARDS in wants and c.type == NONE:
            return Compiled(CARDS, lambda st, pl: 0, True, 0)
        if SEATS in wants and c.type == SEAT:
            return _derive(SEATS, lambda v: 1 << v if v >= 0 else 0, c)
        if self.errors:
            return c
        expected = " or ".join(TYPE_WORDS[w] for w in wants)
        return self.fail(node, "N210", f"{where} needs {expected}, but this is {TYPE_WORDS.get(c.type, c.type)}",
                         "check what the name or function stands for (docs/language.md, Expressions)")

    def suit_to_cards(self, c: Compiled) -> Compiled:
        masks = self.scope.suit_masks
        return _derive(CARDS, lambda s: masks[s] if s is not None and s >= 0 else 0, c)

    def node(self, e: Expr) -> Compiled:
        method = getattr(self, "op_" + _OP_METHODS.get(e.op, "binary"))
        return method(e)

    def op_int(self, e: Expr) -> Compiled:
        if e.value > MAX_INT:
            shown = e.value if len(str(e.value)) <= 24 else f"{str(e.value)[:10]}… ({len(str(e.value))} digits)"
            return self.fail(e, "N215", f"the number {shown} is too large", f"numbers are limited to {MAX_INT}")
        return Compiled(INT, lambda st, pl, v=e.value: v, True, e.value)

    def op_bool(self, e: Expr) -> Compiled:
        return Compiled(BOOL, lambda st, pl, v=e.value: v, True, e.value)

    def op_none(self, e: Expr) -> Compiled:
        return Compiled(NONE, lambda st, pl: None, True, None)

    def op_card(self, e: Expr) -> Compiled:
        card = self.scope.cards.get(str(e.value).casefold())
        if card is None:
            return self.fail(e, "N202", f"there is no card '{e.value}' in this deck",
                             "cards are written as rank and suit symbol or letter ('10♥', '10H') or by an alias")
        return Compiled(CARD, lambda st, pl, v=card: v, True, card)

    def op_name(self, e: Expr) -> Compiled:
        binding = self.scope.names.get(e.value)
        if binding is None:
            return self.unknown_name(e)
        self.scope.reads.add(e.value)
        return Compiled(binding.type, binding.fn, binding.is_const, binding.const)

    def unknown_name(self, e: Expr) -> Compiled:
        import difflib
        close = difflib.get_close_matches(str(e.value), list(self.scope.names), n=3)
        hint = f"did you mean {', '.join(repr(c) for c in close)}?" if close else \
            "names are params, deal variables, roles, suits, options and the names listed in docs/language.md"
        return self.fail(e, "N201", f"unknown name '{e.value}'", hint)

    def op_cond(self, e: Expr) -> Compiled:
        test = self.coerce(self.node(e.args[0]), BOOL, e.args[0], "the condition after `if`")
        yes, no = self.node(e.args[1]), self.node(e.args[2])
        if yes.type != no.type:
            yes, no = self.unify(yes, no, e)
        t, a, b = test.fn, yes.fn, no.fn
        return Compiled(yes.type, lambda st, pl: a(st, pl) if t(st, pl) else b(st, pl))

    def unify(self, a: Compiled, b: Compiled, e: Expr):
        for pair in ((a.type, b.type), (b.type, a.type)):
            if pair == (SUIT, NONE):
                return (a, Compiled(SUIT, lambda st, pl: -1)) if a.type == SUIT else (Compiled(SUIT, lambda st, pl: -1), b)
        if CARDS in (a.type, b.type):
            return self.coerce(a, CARDS, e, "both branches"), self.coerce(b, CARDS, e, "both branches")
        self.fail(e, "N211", f"the two branches give different kinds of value: {TYPE_WORDS.get(a.type)} and "
                  f"{TYPE_WORDS.get(b.type)}", "make `then` and `else` give the same kind of value")
        return a, a

    def op_logic(self, e: Expr) -> Compiled:
        a = self.coerce(self.node(e.args[0]), BOOL, e.args[0], f"`{e.op}`")
        b = self.coerce(self.node(e.args[1]), BOOL, e.args[1], f"`{e.op}`")
        fa, fb = a.fn, b.fn
        if e.op == "and":
            return Compiled(BOOL, lambda st, pl: fa(st, pl) and fb(st, pl))
        return Compiled(BOOL, lambda st, pl: fa(st, pl) or fb(st, pl))

    def op_not(self, e: Expr) -> Compiled:
        a = self.coerce(self.node(e.args[0]), BOOL, e.args[0], "`not`")
        return _derive(BOOL, lambda v: not v, a)

    def op_neg(self, e: Expr) -> Compiled:
        a = self.coerce(self.node(e.args[0]), INT, e.args[0], "`-`")
        return _derive(INT, lambda v: -v, a)

    def op_set(self, e: Expr) -> Compiled:
        items = [self.node(a) for a in e.args]
        kinds = {c.type for c in items}
        if not items or kinds <= {CARD, CARDS, SUIT}:
            parts = [self.coerce(c, CARDS, a, "a set") for c, a in zip(items, e.args)]
            return _fold_or(CARDS, parts)
        if kinds <= {SEAT, SEATS}:
            return _fold_or(SEATS, [self.coerce(c, SEATS, a, "a set") for c, a in zip(items, e.args)])
        return self.fail(e, "N212", "a set in { } holds cards or seats", "write {'A♣', 'K♣'} or {dealer, forehand}")

    def op_compare(self, e: Expr) -> Compiled:
        a, b = self.node(e.args[0]), self.node(e.args[1])
        if e.op in ("==", "!="):
            if a.type != b.type and NONE not in (a.type, b.type):
                return self.fail(e, "N213", f"cannot compare {TYPE_WORDS.get(a.type)} with {TYPE_WORDS.get(b.type)}",
                                 "both sides of == and != must be the same kind of value")
            if a.type == SUIT or b.type == SUIT:
                a, b = self.none_as_suit(a), self.none_as_suit(b)
            return _binary(BOOL, _COMPARE[e.op], a, b)
        a = self.coerce(a, INT, e.args[0], f"`{e.op}`")
        b = self.coerce(b, INT, e.args[1], f"`{e.op}`")
        return _binary(BOOL, _COMPARE[e.op], a, b)

    def none_as_suit(self, c: Compiled) -> Compiled:
        if c.type == NONE:
            return Compiled(SUIT, lambda st, pl: -1, True, -1)
        return c

    def op_in(self, e: Expr) -> Compiled:
        item, group = self.node(e.args[0]), self.node(e.args[1])
        if group.type in (SEAT, SEATS) or item.type == SEAT:
            item = self.coerce(item, SEAT, e.args[0], "the left of `in`")
            group = self.coerce(group, SEATS, e.args[1], "the right of `in`")
            return _binary(BOOL, lambda x, m: x >= 0 and bool(m >> x & 1), item, group)
        if item.type == CARD:
            group = self.coerce(group, CARDS, e.args[1], "the right of `in`")
            return _binary(BOOL, lambda x, m: x >= 0 and bool(m >> x & 1), item, group)
        item = self.coerce(item, CARDS, e.args[0], "the left of `in`")
        group = self.coerce(group, CARDS, e.args[1], "the right of `in`")
        return _binary(BOOL, lambda x, m: x & m == x, item, group)

    def op_binary(self, e: Expr) -> Compiled:
        a, b = self.node(e.args[0]), self.node(e.args[1])
        set_type = _set_type(a.type, b.type)
        if set_type and e.op in ("|", "&", "-"):
            a, b = self.coerce(a, set_type, e.args[0], f"`{e.op}`"), self.coerce(b, set_type, e.args[1], f"`{e.op}`")
            return _binary(set_type, _SET_OPS[e.op], a, b)
        if e.op in ("|", "&"):
            return self.fail(e, "N214", f"`{e.op}` joins sets of cards or seats", "use + and * for numbers")
        a = self.coerce(a, INT, e.args[0], f"`{e.op}`")
        b = self.coerce(b, INT, e.args[1], f"`{e.op}`")
        if e.op in ("/", "%"):
            return self.division(e, a, b)
        return _binary(INT, _INT_OPS[e.op], a, b)

    def division(self, e: Expr, a: Compiled, b: Compiled) -> Compiled:
        span, fa, fb, op = self.span(e), a.fn, b.fn, e.op

        def divide(st, pl):
            x, y = fa(st, pl), fb(st, pl)
            if y == 0:
                raise EvalError("division by zero", span)
            return x // y if op == "/" else x % y
        return Compiled(INT, divide)

    def op_call(self, e: Expr) -> Compiled:
        from rulelang.functions import FUNCTIONS
        spec = FUNCTIONS.get(e.value)
        if spec is None:
            return self.unknown_function(e)
        if len(e.args) != len(spec.params):
            shown = ", ".join(p if isinstance(p, str) else "|".join(p) for p in spec.params)
            return self.fail(e, "N216", f"{e.value}() takes {len(spec.params)} argument(s), got {len(e.args)}",
                             f"write {e.value}({shown})")
        args = [self.coerce(self.node(a), want, a, f"the argument of {e.value}()") for a, want in zip(e.args, spec.params)]
        return Compiled(spec.result, spec.build(self.scope, [a.fn for a in args]))

    def unknown_function(self, e: Expr) -> Compiled:
        from rulelang.functions import FUNCTIONS
        import difflib
        close = difflib.get_close_matches(str(e.value), list(FUNCTIONS), n=3)
        hint = f"did you mean {', '.join(close)}?" if close else f"the functions are {', '.join(sorted(FUNCTIONS))}"
        return self.fail(e, "N203", f"unknown function '{e.value}'", hint)


_OP_METHODS = {
    "int": "int", "bool": "bool", "none": "none", "card": "card", "name": "name", "cond": "cond",
    "and": "logic", "or": "logic", "not": "not", "neg": "neg", "set": "set", "call": "call",
    "==": "compare", "!=": "compare", "<": "compare", "<=": "compare", ">": "compare", ">=": "compare",
    "in": "in",
}

_COMPARE = {
    "==": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
    "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y,
}
_INT_OPS = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}
_SET_OPS = {"|": lambda x, y: x | y, "&": lambda x, y: x & y, "-": lambda x, y: x & ~y}


def _set_type(a: str, b: str) -> str | None:
    kinds = {a, b}
    if kinds & {CARDS} and kinds <= {CARD, CARDS, SUIT, NONE}:
        return CARDS
    if kinds & {SEATS} and kinds <= {SEAT, SEATS}:
        return SEATS
    return None


def _derive(type_: str, op: Callable, c: Compiled) -> Compiled:
    if c.is_const:
        value = op(c.value)
        return Compiled(type_, lambda st, pl: value, True, value)
    f = c.fn
    return Compiled(type_, lambda st, pl: op(f(st, pl)))


def _binary(type_: str, op: Callable, a: Compiled, b: Compiled) -> Compiled:
    if a.is_const and b.is_const:
        value = op(a.value, b.value)
        return Compiled(type_, lambda st, pl: value, True, value)
    fa, fb = a.fn, b.fn
    if b.is_const:
        vb = b.value
        return Compiled(type_, lambda st, pl: op(fa(st, pl), vb))
    return Compiled(type_, lambda st, pl: op(fa(st, pl), fb(st, pl)))


def _fold_or(type_: str, parts: list[Compiled]) -> Compiled:
    if all(p.is_const for p in parts):
        value = 0
        for p in parts:
            value |= p.value
        return Compiled(type_, lambda st, pl: value, True, value)
    fns = [p.fn for p in parts]

    def union(st, pl):
        value = 0
        for f in fns:
            value |= f(st, pl)
        return value
    return Compiled(type_, union)
