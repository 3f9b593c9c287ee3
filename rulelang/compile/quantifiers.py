"""Quantifiers and aggregates over finite domains: ``sum(points(s) for s in seats)``, ``{c for c in hand(player) if …}``.

An aggregate ``F(BODY for X in DOMAIN [if COND])`` works ``BODY`` out for each element ``X`` of ``DOMAIN`` that
``COND`` admits and combines the values by ``F``: ``sum``, ``count`` (of the elements whose ``BODY`` holds),
``any``, ``all``, ``max``, ``min`` (0 when no element is admitted), ``argmax`` and ``argmin`` (the element that
reaches the best value; of equal ones the first in the domain's order, none when no element is admitted). A
set builder ``{X for X in DOMAIN if COND}`` gives the admitted elements of a set of seats or cards.

The domains: a set of seats (``seats``, ``active``, ``team(dealer)``), whose order is the order of play
from forehand; a set of cards (``hand(player)``, ``trick``, a suit), in the deck's order; ``suits``, in the
deck's order; ``numbers(A, B)`` (A to B, at most :data:`MAX_NUMBERS` of them) and ``ranks``.

Where the domain's possible elements are known when the file is compiled — the seats, the suits, the numbers
between two constants, a constant set of cards — the aggregate is written out element by element with the
element a constant (``sum(tricks(s) for s in seats)`` is four reads of ``taken``): straight-line code that the
batch engine runs too. Over a set of cards known only in play it becomes a generator over the set's cards
(the scalar engine's alone). Either way its cost is bounded before play (:mod:`rulelang.compile.evalcost`).
"""

from __future__ import annotations

import ast

from rulelang.compile.codegen import STATE, binop, call, compare, literal, name, state_attr
from rulelang.compile.typed import Binding, Compiled, constant, const, none_code
from rulelang.compile.values import BOOL, CARD, CARDS, INT, INTS, NONE, SEAT, SEATS, SUIT, SUITS, TYPE_WORDS

AGGREGATES = ("sum", "count", "any", "all", "max", "min", "argmax", "argmin")
MAX_NUMBERS = 1000
"""The most numbers ``numbers(A, B)`` may hold when A and B are known only in play (E553 beyond)."""
MAX_UNROLLED = 64
"""The most elements an aggregate is written out for; a larger constant domain becomes a generator."""
_FLOOR = -(1 << 62)


def compile_aggregate(compiler, e) -> Compiled:
    """``F(BODY for X in DOMAIN [if COND])`` (``e.op == "aggregate"``, ``e.value == (F, X)``)."""
    function, variable = e.value
    if function not in AGGREGATES:
        return compiler.fail(e, "N203", f"'{function}' does not take `for`", "an aggregate is one of "
                             + ", ".join(AGGREGATES) + ": sum(tricks(s) for s in seats)")
    domain = _domain(compiler, e.args[1])
    if domain is None:
        return none_code()
    body, condition = e.args[0], e.args[2] if len(e.args) > 2 else None
    want = {"sum": INT, "max": INT, "min": INT, "argmax": INT, "argmin": INT}.get(function, BOOL)
    parts = _parts(compiler, domain, variable, body, condition, want)
    if parts is None:
        return none_code()
    if isinstance(parts, Generated):
        return parts.combine(function, domain)
    return _combine(function, domain, parts)


def compile_set_builder(compiler, e) -> Compiled:
    """``{X for X in DOMAIN if COND}``: the admitted elements, a set of the domain's kind."""
    variable = e.value
    domain = _domain(compiler, e.args[1])
    if domain is None:
        return none_code()
    if domain.element not in (SEAT, CARD):
        return compiler.fail(e, "N212", f"a set in {{ }} holds cards or seats, not {TYPE_WORDS[domain.element]}s",
                             "build a set over seats or cards; over other domains use any(…) or count(…)")
    element = e.args[0]
    if not (element.op == "name" and element.value == variable):
        return compiler.fail(element, "N212", "a set builder gives the elements themselves: write {x for x in …}",
                             "put the condition after `if`: {c for c in hand(player) if suit(c) == trump}")
    condition = e.args[2] if len(e.args) > 2 else None
    parts = _parts(compiler, domain, variable, element, condition, domain.element)
    if parts is None:
        return none_code()
    kind = SEATS if domain.element == SEAT else CARDS
    if isinstance(parts, Generated):
        return Compiled(kind, call("_bits_of", parts.generator(ast.Tuple([parts.element_code], ast.Load()))))
    value, codes = 0, []
    for part in parts:
        if part.admitted.is_const:
            value |= (1 << part.element) if part.admitted.value else 0
        else:
            codes.append(ast.IfExp(part.admitted.code, literal(1 << part.element), literal(0)))
    if not codes:
        return constant(kind, value)
    total = codes[0]
    for code in codes[1:] + ([literal(value)] if value else []):
        total = binop(total, ast.BitOr(), code)
    return Compiled(kind, total)


class Domain:
    """What an aggregate ranges over: its elements' type, its code, and the possible elements when known."""

    def __init__(self, element: str, compiled: Compiled, universe: list[int] | None, order: ast.expr | None = None):
        self.element, self.compiled, self.universe, self.order = element, compiled, universe, order

    def member(self, value: int) -> Compiled:
        """Whether ``value`` of the universe is in the domain (a bit test of a set, or true for a range)."""
        if self.element in (INT,):
            return constant(BOOL, True)
        if self.compiled.is_const:
            return constant(BOOL, bool(self.compiled.value >> value & 1))
        test = compare(binop(binop(self.compiled.code, ast.RShift(), literal(value)), ast.BitAnd(), literal(1)),
                       ast.NotEq(), literal(0))
        return Compiled(BOOL, test)


def _domain(compiler, node) -> Domain | None:
    before = len(compiler.errors)
    found = compiler.node(node)
    if len(compiler.errors) > before or found.type == NONE and compiler.failed:
        return None                           # its own error, reported
    scope = compiler.scope
    if found.type in (SEAT, SEATS):
        found = compiler.coerce(found, SEATS, node, "the domain after `in`")
        return Domain(SEAT, found, list(range(scope.players)))
    if found.type == SUITS:
        return Domain(SUIT, found, [s for s in range(len(scope.suit_masks)) if found.value >> s & 1]
                      if found.is_const else list(range(len(scope.suit_masks))))
    if found.type == INTS:
        if found.is_const:
            low, high = found.value
            if high - low + 1 <= MAX_UNROLLED:
                return Domain(INT, found, list(range(low, high + 1)))
        return Domain(INT, found, None)
    if found.type in (CARD, CARDS, SUIT, NONE):
        found = compiler.coerce(found, CARDS, node, "the domain after `in`")
        if found.is_const and bin(found.value).count("1") <= MAX_UNROLLED:
            return Domain(CARD, found, [c for c in range(len(scope.card_suits)) if found.value >> c & 1])
        return Domain(CARD, found, None)
    if not compiler.errors:
        compiler.fail(node, "N210", f"`for … in` needs seats, cards, suits or numbers, but this is "
                      f"{TYPE_WORDS.get(found.type, found.type)}", "range over seats, active, hand(player), trick, "
                      "suits, ranks or numbers(1, tricks_played)")
    return None


class Part:
    """One element of a written-out aggregate: the element, whether it is admitted, and its body's value."""

    def __init__(self, element: int, admitted: Compiled, value: Compiled, order: ast.expr | int):
        self.element, self.admitted, self.value, self.order = element, admitted, value, order


def _parts(compiler, domain: Domain, variable: str, body, condition, want):
    """The parts of a written-out aggregate, a :class:`Generated` one, or None after an error."""
    if domain.universe is None:
        return _generated(compiler, domain, variable, body, condition, want)
    parts = []
    players = compiler.scope.players
    for element in domain.universe:
        scope = compiler.scope.child(**{variable: _lexical(const(domain.element, element))})
        inner = compiler.within(scope)
        value = inner.coerce(inner.node(body), want, body, "the value before `for`")
        admitted = domain.member(element)
        if condition is not None:
            test = inner.coerce(inner.node(condition), BOOL, condition, "the condition after `if`")
            admitted = _and(admitted, test)
        if inner.errors or inner.failed:
            compiler.absorb(inner)
            return None
        order = binop(binop(literal(element), ast.Sub(), state_attr("forehand")), ast.Mod(), literal(players)) \
            if domain.element == SEAT else element
        parts.append(Part(element, admitted, value, order))
    return parts


def _lexical(binding: Binding) -> Binding:
    binding.lexical = True
    return binding


def _and(a: Compiled, b: Compiled) -> Compiled:
    if a.is_const:
        return b if a.value else a
    if b.is_const:
        return a if b.value else b
    return Compiled(BOOL, ast.BoolOp(ast.And(), [a.code, b.code]))


def _if(test: Compiled, yes: ast.expr, no: ast.expr) -> ast.expr | None:
    """``yes if test else no``, or ``yes``/``no`` when the test is known (None when it is known false)."""
    if test.is_const:
        return yes if test.value else None
    return ast.IfExp(test.code, yes, no)


def _combine(function: str, domain: Domain, parts: list[Part]) -> Compiled:
    if function in ("sum", "count"):
        terms = [_if(p.admitted if function == "sum" else _and(p.admitted, p.value),
                     p.value.code if function == "sum" else literal(1), literal(0)) for p in parts]
        return _fold(INT, [t for t in terms if t is not None], ast.Add(), 0)
    if function in ("any", "all"):
        if function == "any":
            terms = [_and(p.admitted, p.value) for p in parts]
        else:
            terms = [p.value if p.admitted.is_const and p.admitted.value else
                     Compiled(BOOL, ast.BoolOp(ast.Or(), [ast.UnaryOp(ast.Not(), p.admitted.code), p.value.code]))
                     for p in parts if not (p.admitted.is_const and not p.admitted.value)]
        return _logic(function == "any", terms)
    if function in ("max", "min"):
        floor = _FLOOR if function == "max" else -_FLOOR
        values = [_if(p.admitted, p.value.code, literal(floor)) for p in parts]
        values = [v for v in values if v is not None]
        if not values:
            return constant(INT, 0)
        best = call(function, *values) if len(values) > 1 else values[0]
        if all(p.admitted.is_const for p in parts):
            return Compiled(INT, best)
        return Compiled(INT, call("_or_zero", best, literal(floor)))
    sign = 1 if function == "argmax" else -1
    flat = []
    for p in parts:
        if p.admitted.is_const and not p.admitted.value:
            continue
        flat += [p.admitted.code if not p.admitted.is_const else literal(True), p.value.code, literal(p.element),
                 p.order if isinstance(p.order, ast.AST) else literal(p.order)]
    return Compiled(domain.element, call("_arg_best", literal(sign), literal(-1), *flat))


def _fold(type_: str, terms: list, op, empty) -> Compiled:
    if not terms:
        return constant(type_, empty)
    total = terms[0]
    for term in terms[1:]:
        total = binop(total, op, term)
    return Compiled(type_, total)


def _logic(is_any: bool, terms: list[Compiled]) -> Compiled:
    known = [t for t in terms if t.is_const]
    if any(bool(t.value) == is_any for t in known):
        return constant(BOOL, is_any)
    codes = [t.code for t in terms if not t.is_const]
    if not codes:
        return constant(BOOL, not is_any)
    return Compiled(BOOL, codes[0] if len(codes) == 1 else ast.BoolOp(ast.Or() if is_any else ast.And(), codes))


class Generated:
    """An aggregate over a domain known only in play: a generator over its elements (scalar engine only)."""

    def __init__(self, label: str, iterable: ast.expr, value: Compiled, condition: Compiled | None, element: str):
        self.label, self.iterable, self.value, self.condition, self.element = label, iterable, value, condition, element

    @property
    def element_code(self) -> ast.expr:
        """The element's variable, read."""
        return name(self.label)

    def generator(self, item: ast.expr, also: Compiled | None = None) -> ast.GeneratorExp:
        """``(item for label in iterable if condition [and also])``."""
        tests = [c.code for c in (self.condition, also) if c is not None and not (c.is_const and c.value)]
        target = ast.Name(self.label, ast.Store())
        return ast.GeneratorExp(item, [ast.comprehension(target, self.iterable, tests, 0)])

    def combine(self, function: str, domain: Domain) -> Compiled:
        """The aggregate's value from the generator."""
        if function == "sum":
            return Compiled(INT, call("sum", self.generator(self.value.code)))
        if function == "count":
            return Compiled(INT, call("sum", self.generator(literal(1), self.value)))
        if function in ("any", "all"):
            return Compiled(BOOL, call(function, self.generator(self.value.code)))
        if function in ("max", "min"):
            return Compiled(INT, call("_best_or_zero", literal(1 if function == "max" else -1),
                                      self.generator(self.value.code)))
        sign = 1 if function == "argmax" else -1
        item = ast.Tuple([self.value.code, self.element_code], ast.Load())
        return Compiled(domain.element, call("_arg_best_of", literal(sign), self.generator(item)))


def _generated(compiler, domain: Domain, variable: str, body, condition, want):
    label = f"_q{compiler.quantifier_depth}"
    binding = Binding(domain.element, name(label), lexical=True)
    inner = compiler.within(compiler.scope.child(**{variable: binding}), deeper=True)
    value = inner.coerce(inner.node(body), want, body, "the value before `for`")
    test = inner.coerce(inner.node(condition), BOOL, condition, "the condition after `if`") if condition else None
    if inner.errors or inner.failed:
        compiler.absorb(inner)
        return None
    if domain.element == INT:
        low, high = (literal(v) for v in domain.compiled.value) if domain.compiled.is_const else \
            (ast.Subscript(domain.compiled.code, literal(i), ast.Load()) for i in (0, 1))
        iterable = call("_numbers", low, high, compiler.scope.table(compiler.span(body)))
    else:
        iterable = call("_elements", domain.compiled.code)
    return Generated(label, iterable, value, test, domain.element)


def compile_numbers(compiler, e) -> Compiled:
    """``numbers(A, B)``: the whole numbers from A to B (none when B < A), a domain for ``for``."""
    if len(e.args) != 2:
        return compiler.fail(e, "N216", f"numbers() takes 2 argument(s), got {len(e.args)}", "write numbers(1, 8)")
    low, high = (compiler.coerce(compiler.node(a), INT, a, "the argument of numbers()") for a in e.args)
    if compiler.errors or compiler.failed:
        return none_code()
    code = ast.Tuple([low.code, high.code], ast.Load())
    if low.is_const and high.is_const:
        if high.value - low.value >= MAX_NUMBERS:
            return compiler.fail(e, "N239", f"numbers({low.value}, {high.value}) holds more than {MAX_NUMBERS:,} "
                                 "numbers", f"an aggregate ranges over at most {MAX_NUMBERS:,} numbers")
        return Compiled(INTS, code, True, (low.value, high.value))
    return Compiled(INTS, code)


def numbers_binding(low: int, high: int) -> Binding:
    """A name for a constant run of numbers (``ranks``: 1 to the most ranks of a suit)."""
    return Binding(INTS, ast.Tuple([literal(low), literal(high)], ast.Load()), (low, high), True)


def suits_binding(count: int) -> Binding:
    """``suits``: every suit of the deck, a domain for ``for``."""
    return Binding(SUITS, literal((1 << count) - 1), (1 << count) - 1, True)
