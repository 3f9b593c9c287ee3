"""Typing expressions and compiling them to ``ast`` code (never Python's ``eval`` of text).

A :class:`Scope` says what each name means in one place of a rule file: its type and the
code that reads it from a running state. :func:`compile_expr` checks types and returns a
:class:`Compiled` whose ``code`` is an ``ast`` expression over ``st`` (the state) and ``pl``
(the seat or side asked about), constants folded; :class:`~rulelang.compile.codegen.CodeModule`
turns the game's expressions into one compiled module. The engine's state offers the
attributes read here: ``vars``, ``dealer``, ``forehand``, ``active`` (seat bitmask),
``led_suit``, ``trick_mask``, ``tricks``, ``won``, ``scores``.
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from dataclasses import dataclass, field
from typing import Callable

from rulelang.compile.codegen import PLAYER, STATE, CodeModule, binop, call, compare, copy_tree, literal, name
from rulelang.compile.typed import (PER_SEAT, UNAVAILABLE, Binding, Compiled, const, constant, none_code,  # noqa: F401
                                    unavailable)
from rulelang.compile.definitions import (INLINE_CONSTANT_NODES, INLINE_NODES, Definition, Definitions, Shape,
                                          is_local, is_simple, node_count, reads_state,
                                          reads_of, substitute)
from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.read.expr import Expr, locate
from rulelang.read.source import Span
from rulelang.compile.values import (  # the value types and EvalError live in values; named here too
    BOOL, CARD, CARDS, INT, MAX_INT, NAME, NONE, SCORES, SEAT, SEATS, SUIT, TYPE_WORDS, EvalError)


_SEAT_RULES = "in rules asked about one seat at a time (docs/language.md, Names, lists them)"
_TRICK_RULES = "inside trick rules (`lead`, `lead_from`, `follow`, `win`, `head` of a `tricks` phase or a contract)"
ONLY_IN = {
    "player": (_SEAT_RULES, "this rule speaks of the whole table: name a seat (forehand, dealer, declarer, next(…))"),
    "led_suit": (_TRICK_RULES, "outside a trick, read what the tricks left: `played`, `won(seats)`, `trick_cards(n)`"),
    "led_card": (_TRICK_RULES, "outside a trick, read what the tricks left: `played`, `won(seats)`, `trick_cards(n)`"),
    "trick": (_TRICK_RULES, "outside a trick, read what the tricks left: `played`, `won(seats)`, `trick_cards(n)`"),
    "side": ("in the conditions of items, where it is the side asked about",
             "name the side here: `declarers`, `defenders`, or a set of seats"),
}
"""Names a rule may read only in some places: where, and what to write elsewhere (N201)."""


PLAYER_CODE = name(PLAYER)


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
    module: CodeModule = field(default_factory=CodeModule)
    twins: tuple = ()                   # per card, the mask of its copies; empty when the pack has one copy
    teams: tuple = ()                   # per seat, the mask of its fixed team; empty without ``teams``
    defines: Definitions = field(default_factory=Definitions)   # the game's ``define``s and their compiled shapes
    card_spellings: dict = field(default_factory=dict)          # each key of ``cards``, as the file wrote it

    def child(self, **extra: Binding) -> "Scope":
        """A scope with extra names on top of this one."""
        names = dict(self.names)
        names.update(extra)
        return Scope(names, self.cards, self.card_suits, self.suit_masks, self.points, self.players, self.step,
                     self.reads, self.card_order, self.module, self.twins, self.teams, self.defines,
                     self.card_spellings)

    def table(self, value) -> ast.Name:
        """The game module's name for a table built at compile time."""
        return self.module.table(value)


def compile_expr(expr: Expr, scope: Scope, origin: Span | None, want: str | tuple | None = None) -> Compiled:
    """Type-check ``expr`` in ``scope`` and compile it; ``want`` is the type the place needs."""
    compiler = _Compiler(scope, origin)
    result = compiler.node(expr)
    if want is not None:
        result = compiler.coerce(result, want, expr, "here")
    if compiler.errors or compiler.failed:
        raise RuleError(compiler.errors)
    return result


def popcount(mask: int) -> int:
    """Number of set bits of ``mask``."""
    return bin(mask).count("1")


class _Compiler:
    def __init__(self, scope: Scope, origin: Span | None, expanding: tuple = ()):
        self.scope, self.origin, self.errors = scope, origin, []
        self.expanding = expanding      # the definitions being worked out, outermost first
        self.failed = False             # a definition read here gave errors already reported
        self.quantifier_depth = 0       # how many generators this expression is inside (their variables _q0, _q1 …)

    def within(self, scope: "Scope", deeper: bool = False) -> "_Compiler":
        """A compiler for a part of this expression in ``scope`` (an aggregate's body); see :meth:`absorb`."""
        inner = _Compiler(scope, self.origin, self.expanding)
        inner.quantifier_depth = self.quantifier_depth + (1 if deeper else 0)
        return inner

    def absorb(self, inner: "_Compiler") -> None:
        """Take the errors of a compiler made by :meth:`within`."""
        self.errors.extend(inner.errors)
        self.failed = self.failed or inner.failed

    def fail(self, node: Expr, code: str, message: str, hint: str) -> Compiled:
        self.errors.append(Diagnostic(code, message, locate(self.origin, node.line, node.column), hint))
        return none_code()

    def span(self, node: Expr) -> Span | None:
        return locate(self.origin, node.line, node.column)

    def coerce(self, c: Compiled, want, node: Expr, where: str) -> Compiled:
        wants = want if isinstance(want, tuple) else (want,)
        if c.type in wants or c.type == NONE and (self.errors or self.failed):
            return c
        if CARDS in wants and c.type == SUIT:
            return self.suit_to_cards(c)
        if CARDS in wants and c.type == CARD:
            return _derive(CARDS, lambda v: 1 << v if v >= 0 else 0, c, lambda code: call("_bit", code))
        if CARDS in wants and c.type == NONE:
            return constant(CARDS, 0)
        for kind in (CARD, SEAT, SUIT):                   # none as one card, seat or suit: -1 in play
            if kind in wants and c.type == NONE and not self.errors:
                return constant(kind, -1)
        if SEATS in wants and c.type == SEAT:
            return _derive(SEATS, lambda v: 1 << v if v >= 0 else 0, c, lambda code: call("_bit", code))
        if self.errors or self.failed:
            return c
        if CARD in wants and node.op == "card" and self.scope.twins:
            return self.copies_of_one_name(node, where)
        expected = " or ".join(TYPE_WORDS[w] for w in wants)
        return self.fail(node, "N210", f"{where} needs {expected}, but this is {TYPE_WORDS.get(c.type, c.type)}",
                         "check what the name or function stands for (docs/language.md, Expressions)")

    def suit_to_cards(self, c: Compiled) -> Compiled:
        masks = tuple(self.scope.suit_masks)
        table = self.scope.table(masks)
        return _derive(CARDS, lambda s: masks[s] if s is not None and s >= 0 else 0, c,
                       lambda code: call("_suit_cards", table, code))

    def node(self, e: Expr) -> Compiled:
        method = getattr(self, "op_" + _OP_METHODS.get(e.op, "binary"))
        return method(e)

    def op_int(self, e: Expr) -> Compiled:
        if e.value > MAX_INT:
            shown = e.value if len(str(e.value)) <= 24 else f"{str(e.value)[:10]}… ({len(str(e.value))} digits)"
            return self.fail(e, "N215", f"the number {shown} is too large", f"numbers are limited to {MAX_INT}")
        return constant(INT, e.value)

    def op_bool(self, e: Expr) -> Compiled:
        return constant(BOOL, e.value)

    def op_none(self, e: Expr) -> Compiled:
        return constant(NONE, None)

    def op_card(self, e: Expr) -> Compiled:
        card = self.scope.cards.get(str(e.value).casefold())
        if card is None:
            from rulelang.compile.deck import card_guess
            return self.fail(e, "N202", f"there is no card '{e.value}' in this deck", card_guess(
                str(e.value), self.scope.cards, self.scope.card_spellings,
                "cards are written as rank and suit symbol or letter ('10♥', '10H') or by an alias"))
        if self.scope.twins:
            return constant(CARDS, self.scope.twins[card])      # every copy of the name
        return constant(CARD, card)

    def copies_of_one_name(self, node: Expr, where: str) -> Compiled:
        """N232: a rule needs one card, but in a pack with copies a card's name is several cards."""
        copies = bin(self.scope.twins[0]).count("1")
        return self.fail(node, "N232", f"{where} needs one card, but in this pack of {copies} copies '{node.value}' "
                         f"is {copies} cards", f"ask about the set of them instead: '{node.value}' in trick, "
                         f"count(won({{player}}) & {{'{node.value}'}}), holding({{'{node.value}'}})")

    def op_name(self, e: Expr) -> Compiled:
        binding = self.scope.names.get(e.value)
        if binding is None:
            return self.definition(e, []) if e.value in self.scope.defines else self.unknown_name(e)
        if binding.type == UNAVAILABLE:
            return self.not_here(e, binding)
        if binding.type == PER_SEAT:
            return self.fail(e, "N201", f"'{e.value}' is a match counter kept per seat: it has a value for each seat",
                             f"read one seat's, {e.value}(player) or {e.value}(P1)")
        self.scope.reads.add(e.value)
        return Compiled(binding.type, copy.deepcopy(binding.code), binding.is_const, binding.const)

    def definition(self, e: Expr, args: list[Expr]) -> Compiled:
        """A read of a ``define``: its shape for these arguments in this place, compiled once
        (:mod:`rulelang.compile.definitions`), folded, written in or called."""
        found: Definition = self.scope.defines.found[str(e.value)]
        if found.broken or found.name in self.expanding:
            self.failed = True                      # refused before compiling (N234, N236), reported there
            return none_code()
        if len(args) != len(found.params):
            return self.fail(e, "N216", f"the definition '{found.name}' takes {len(found.params)} argument(s), got "
                             f"{len(args)}", f"write {found.head}")
        values = [self.node(a) for a in args]
        if self.errors or self.failed:
            return none_code()
        self.scope.reads.add(found.name)
        context = self.scope.defines.context(found, self.scope)
        key = (found.name, tuple((n, b.type, ast.dump(b.code)) for n, b in context),
               tuple((v.type, ast.dump(v.code) if reads_state(v.code) else None) for v in values))
        shape = self.scope.defines.shapes.get(key)
        if shape is None:
            shape = self.scope.defines.shapes[key] = self.shape(found, context, values)
        if shape.errors or shape.code is None:          # no code: it failed on an error reported elsewhere
            if not shape.reported:
                shape.reported = True
                self.errors.extend(shape.errors)
            self.failed = True
            return none_code()
        return self.read_shape(shape, values, context)

    def shape(self, found: Definition, context: list, values: list[Compiled]) -> Shape:
        """Compile ``found`` for arguments of these types, the reading place's own names as in ``context``."""
        extra, local_names = {}, []
        for name_, binding in context:
            if is_local(binding.code):              # a score's let: handed in as an argument
                local_names.append(name_)
                binding = Binding(binding.type, name(f"_c{len(local_names) - 1}"))
            extra[name_] = binding
        params = [f"_p{i}" for i in range(len(found.params))]
        for param, label, value in zip(found.params, params, values):
            # an argument that is a read of the state (``player``, ``dealer``) is compiled in as it is, so the
            # body's functions read it the way a rule written out does (``won({player})`` is ``st.won[pl]``)
            code = copy_tree(value.code) if reads_state(value.code) else name(label)
            extra[param] = Binding(value.type, code, lexical=True)
        inner = _Compiler(self.scope.defines.base.child(**extra), found.origin, (*self.expanding, found.name))
        result = inner.node(found.expr)
        if inner.errors or inner.failed:
            return Shape(result.type, errors=inner.errors, reported=not inner.errors)
        where = f"{Path(found.origin.path).name}:{found.origin.line}:{found.origin.column}" if found.origin else ""
        shape = Shape(result.type, result.code, result.value, result.is_const, params=len(params),
                      locals=tuple(local_names), doc=f"{where}: {found.head}")
        if not result.is_const and (local_names or
                                    node_count(result.code, INLINE_CONSTANT_NODES) > INLINE_CONSTANT_NODES):
            shape.function(self.scope.module)
        return shape

    def read_shape(self, shape: Shape, values: list[Compiled], context: list) -> Compiled:
        """The code of a read of a compiled shape: its constant, its code written in, or a call of its function."""
        if shape.is_const:
            return Compiled(shape.type, copy_tree(shape.code), True, shape.value)
        if shape.label is None:
            codes = {f"_p{i}": v.code for i, v in enumerate(values)}
            small = node_count(shape.code) <= INLINE_NODES or values and all(v.is_const or is_simple(v.code)
                                                                                  for v in values)
            if small and all(is_simple(code) or reads_of(shape.code, label) <= 1 for label, code in codes.items()):
                return Compiled(shape.type, substitute(shape.code, codes))
        locals_ = dict(context)
        args = [v.code for v in values] + [copy_tree(locals_[n].code) for n in shape.locals]
        return Compiled(shape.type, ast.Call(name(shape.function(self.scope.module)), [name(STATE), name(PLAYER), *args],
                                             []))

    def per_seat_counter(self, e: Expr, marker: Binding) -> Compiled:
        """``NAME(SEAT)``: one seat's value of a match counter kept per seat (0 for none)."""
        if len(e.args) != 1:
            return self.fail(e, "N216", f"{e.value}() takes 1 argument(s), got {len(e.args)}",
                             f"write {e.value}(SEAT), e.g. {e.value}(player)")
        seat = self.coerce(self.node(e.args[0]), SEAT, e.args[0], f"the argument of {e.value}()")
        if self.errors or self.failed:
            return none_code()
        self.scope.reads.add(e.value)
        return Compiled(INT, call("_seat_counter", marker.code, seat.code))

    def not_here(self, e: Expr, marker: Binding) -> Compiled:
        """N201 for a name or function this place may not read (:func:`~rulelang.compile.typed.unavailable`)."""
        where, instead = marker.const
        return self.fail(e, "N201", f"'{e.value}' is known only {where}, not here", instead)

    def unknown_name(self, e: Expr) -> Compiled:
        import difflib
        where = ONLY_IN.get(str(e.value))
        if where is not None:
            known_in, instead = where
            return self.fail(e, "N201", f"'{e.value}' is known only {known_in}, not here", instead)
        close = difflib.get_close_matches(str(e.value), list(self.scope.names), n=3)
        hint = f"did you mean {', '.join(repr(c) for c in close)}?" if close else \
            "names are params, deal variables, roles, suits, options and the names listed in docs/language.md"
        return self.fail(e, "N201", f"unknown name '{e.value}'", hint)

    def op_cond(self, e: Expr) -> Compiled:
        test = self.coerce(self.node(e.args[0]), BOOL, e.args[0], "the condition after `if`")
        yes, no = self.node(e.args[1]), self.node(e.args[2])
        if yes.type != no.type:
            yes, no = self.unify(yes, no, e)
        if test.is_const:
            return yes if test.value else no
        return Compiled(yes.type, ast.IfExp(test.code, yes.code, no.code))

    def unify(self, a: Compiled, b: Compiled, e: Expr):
        for kind in (SUIT, SEAT, CARD):                   # a suit, seat or card that is none is -1 at run time
            if {a.type, b.type} == {kind, NONE}:
                return (a, constant(kind, -1)) if a.type == kind else (constant(kind, -1), b)
        if CARDS in (a.type, b.type):
            return self.coerce(a, CARDS, e, "both branches"), self.coerce(b, CARDS, e, "both branches")
        self.fail(e, "N211", f"the two branches give different kinds of value: {TYPE_WORDS.get(a.type)} and "
                  f"{TYPE_WORDS.get(b.type)}", "make `then` and `else` give the same kind of value")
        return a, a

    def op_logic(self, e: Expr) -> Compiled:
        a = self.coerce(self.node(e.args[0]), BOOL, e.args[0], f"`{e.op}`")
        b = self.coerce(self.node(e.args[1]), BOOL, e.args[1], f"`{e.op}`")
        is_and = e.op == "and"
        if a.is_const:
            return b if bool(a.value) == is_and else a
        return Compiled(BOOL, ast.BoolOp(ast.And() if is_and else ast.Or(), [a.code, b.code]))

    def op_not(self, e: Expr) -> Compiled:
        a = self.coerce(self.node(e.args[0]), BOOL, e.args[0], "`not`")
        return _derive(BOOL, lambda v: not v, a, lambda code: ast.UnaryOp(ast.Not(), code))

    def op_neg(self, e: Expr) -> Compiled:
        a = self.coerce(self.node(e.args[0]), INT, e.args[0], "`-`")
        return _derive(INT, lambda v: -v, a, lambda code: ast.UnaryOp(ast.USub(), code))

    def op_aggregate(self, e: Expr) -> Compiled:
        from rulelang.compile.quantifiers import compile_aggregate
        return compile_aggregate(self, e)

    def op_set_of(self, e: Expr) -> Compiled:
        from rulelang.compile.quantifiers import compile_set_builder
        return compile_set_builder(self, e)

    def op_set(self, e: Expr) -> Compiled:
        reported = len(self.errors)
        items = [self.node(a) for a in e.args]
        if len(self.errors) > reported:
            return none_code()                  # an element is wrong, and that is said already
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
            for side in e.args:
                if side.op == "card" and self.scope.twins and not self.errors:
                    return self.copies_of_one_name(side, f"`{e.op}`")
            if a.type != b.type and NONE not in (a.type, b.type):
                return self.fail(e, "N213", f"cannot compare {TYPE_WORDS.get(a.type)} with {TYPE_WORDS.get(b.type)}",
                                 "both sides of == and != must be the same kind of value")
            for kind in (SUIT, SEAT, CARD):               # a suit, seat or card that is none is -1 at run time
                if kind in (a.type, b.type):
                    a, b = self.none_as(a, kind), self.none_as(b, kind)
            return _binary(BOOL, e.op, a, b)
        a = self.coerce(a, INT, e.args[0], f"`{e.op}`")
        b = self.coerce(b, INT, e.args[1], f"`{e.op}`")
        return _binary(BOOL, e.op, a, b)

    def none_as_suit(self, c: Compiled) -> Compiled:
        """``none`` as the suit that is none (-1)."""
        return self.none_as(c, SUIT)

    @staticmethod
    def none_as(c: Compiled, kind: str) -> Compiled:
        """``none`` as the value of ``kind`` that stands for none (-1: no suit, no seat, no card)."""
        if c.type == NONE:
            return constant(kind, -1)
        return c

    def op_in(self, e: Expr) -> Compiled:
        item, group = self.node(e.args[0]), self.node(e.args[1])
        if group.type in (SEAT, SEATS) or item.type == SEAT:
            item = self.coerce(item, SEAT, e.args[0], "the left of `in`")
            group = self.coerce(group, SEATS, e.args[1], "the right of `in`")
            return _member(item, group)
        if item.type == CARD:
            group = self.coerce(group, CARDS, e.args[1], "the right of `in`")
            return _member(item, group)
        item = self.coerce(item, CARDS, e.args[0], "the left of `in`")
        group = self.coerce(group, CARDS, e.args[1], "the right of `in`")
        if e.args[0].op == "card" and self.scope.twins:             # 'Q♣' in trick: any copy of it
            return _binary(BOOL, "!=", _binary(CARDS, "set&", item, group), constant(CARDS, 0))
        return _binary(BOOL, "subset", item, group)

    def op_binary(self, e: Expr) -> Compiled:
        a, b = self.node(e.args[0]), self.node(e.args[1])
        set_type = _set_type(a.type, b.type)
        if set_type and e.op in ("|", "&", "-"):
            a, b = self.coerce(a, set_type, e.args[0], f"`{e.op}`"), self.coerce(b, set_type, e.args[1], f"`{e.op}`")
            return _binary(set_type, "set" + e.op, a, b)
        if e.op in ("|", "&"):
            return self.fail(e, "N214", f"`{e.op}` joins sets of cards or seats", "use + and * for numbers")
        a = self.coerce(a, INT, e.args[0], f"`{e.op}`")
        b = self.coerce(b, INT, e.args[1], f"`{e.op}`")
        if e.op in ("/", "%"):
            return self.division(e, a, b)
        return _binary(INT, e.op, a, b)

    def division(self, e: Expr, a: Compiled, b: Compiled) -> Compiled:
        helper = "_divide" if e.op == "/" else "_modulo"
        return Compiled(INT, call(helper, a.code, b.code, self.scope.table(self.span(e))))

    def op_call(self, e: Expr) -> Compiled:
        from rulelang.compile.functions import FUNCTIONS, LATER_FUNCTIONS
        spec = FUNCTIONS.get(e.value)
        marker = self.scope.names.get(e.value)
        if e.value in self.scope.defines and (spec is None or e.value in LATER_FUNCTIONS):
            return self.definition(e, e.args)         # the file's own definition, also over a function added later
        if marker is not None and marker.type == UNAVAILABLE:
            return self.not_here(e, marker)
        if marker is not None and marker.type == PER_SEAT:
            return self.per_seat_counter(e, marker)
        if e.value == "numbers":
            from rulelang.compile.quantifiers import compile_numbers
            return compile_numbers(self, e)
        if spec is None:
            return self.unknown_function(e)
        if len(e.args) != len(spec.params):
            shown = ", ".join(p if isinstance(p, str) else "|".join(p) for p in spec.params)
            return self.fail(e, "N216", f"{e.value}() takes {len(spec.params)} argument(s), got {len(e.args)}",
                             f"write {e.value}({shown})")
        args = [self.coerce(self.node(a), want, a, f"the argument of {e.value}()") for a, want in zip(e.args, spec.params)]
        if self.errors or self.failed:
            return none_code()
        return Compiled(spec.result, spec.emit(self.scope, args))

    def unknown_function(self, e: Expr) -> Compiled:
        from rulelang.compile.functions import FUNCTIONS
        import difflib
        close = difflib.get_close_matches(str(e.value), list(FUNCTIONS), n=3)
        hint = f"did you mean {', '.join(close)}?" if close else f"the functions are {', '.join(sorted(FUNCTIONS))}"
        return self.fail(e, "N203", f"unknown function '{e.value}'", hint)


_OP_METHODS = {
    "int": "int", "bool": "bool", "none": "none", "card": "card", "name": "name", "cond": "cond",
    "and": "logic", "or": "logic", "not": "not", "neg": "neg", "set": "set", "call": "call",
    "==": "compare", "!=": "compare", "<": "compare", "<=": "compare", ">": "compare", ">=": "compare",
    "in": "in", "aggregate": "aggregate", "set_of": "set_of",
}

# Each binary operation: how constants fold, and the code for values known only in play.
_FOLD: dict[str, Callable] = {
    "==": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
    "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y,
    "+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
    "set|": lambda x, y: x | y, "set&": lambda x, y: x & y, "set-": lambda x, y: x & ~y,
    "subset": lambda x, y: x & y == x,
}
_COMPARE_CODE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE}
_ARITHMETIC_CODE = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "set|": ast.BitOr, "set&": ast.BitAnd}


def _code_of(op: str, a: ast.expr, b: ast.expr) -> ast.expr:
    if op in _COMPARE_CODE:
        return compare(a, _COMPARE_CODE[op](), b)
    if op in _ARITHMETIC_CODE:
        return binop(a, _ARITHMETIC_CODE[op](), b)
    if op == "set-":
        return binop(a, ast.BitAnd(), ast.UnaryOp(ast.Invert(), b))
    return call("_subset", a, b)


def _set_type(a: str, b: str) -> str | None:
    """The set type ``a | b`` (``&``, ``-``) is worked out in, or None: a suit or a card stands for its set of
    cards and a seat for its one-seat set, so ``trump | jokers`` and ``'A♠' | 'K♠'`` are card sets."""
    kinds = {a, b}
    if kinds <= {CARD, CARDS, SUIT, NONE} and kinds & {CARD, CARDS, SUIT}:
        return CARDS
    if kinds <= {SEAT, SEATS}:
        return SEATS
    return None


def _derive(type_: str, fold: Callable, c: Compiled, code: Callable) -> Compiled:
    """``fold`` of a constant, else ``code(c.code)``."""
    if c.is_const:
        return constant(type_, fold(c.value))
    return Compiled(type_, code(c.code))


def _binary(type_: str, op: str, a: Compiled, b: Compiled) -> Compiled:
    if a.is_const and b.is_const:
        return constant(type_, _FOLD[op](a.value, b.value))
    if op == "subset" and a.is_const:
        return Compiled(type_, compare(binop(b.code, ast.BitAnd(), literal(a.value)), ast.Eq(), literal(a.value)))
    return Compiled(type_, _code_of(op, a.code, b.code))


def _member(item: Compiled, group: Compiled) -> Compiled:
    """``item in group`` for one card or seat: a bit test, folded as far as the constants allow."""
    if item.is_const and group.is_const:
        return constant(BOOL, item.value >= 0 and bool(group.value >> item.value & 1))
    if item.is_const:
        if item.value < 0:
            return constant(BOOL, False)
        return Compiled(BOOL, compare(binop(group.code, ast.BitAnd(), literal(1 << item.value)), ast.NotEq(),
                                      literal(0)))
    return Compiled(BOOL, call("_has", group.code, item.code))


def _fold_or(type_: str, parts: list[Compiled]) -> Compiled:
    value = 0
    for part in parts:
        if part.is_const:
            value |= part.value
    codes = [part.code for part in parts if not part.is_const]
    if not codes:
        return constant(type_, value)
    code = codes[0]
    for other in codes[1:] + ([literal(value)] if value else []):
        code = binop(code, ast.BitOr(), other)
    return Compiled(type_, code)
