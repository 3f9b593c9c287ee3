"""``score``: each seat of a set adds a value to its match score; ``let`` names a value per seat.

YAML ``- score: {each: seats, let: {won: tricks(player)}, add: 10 * won}``; DSL
``score { let won = tricks(player)  each seats add 10 * won }``. All values are worked out
before any is added.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DiffKey, Lines
from rulelang.diagnostics import WARNING, Diagnostic, RuleError
from rulelang.compile.exprcompile import INT, SEATS, Binding
from rulelang.compile.ir import PhaseBase, Rule
from rulelang.validators.registry import check


@dataclass
class ScorePhase(PhaseBase):
    """Each seat of ``each`` adds ``add`` to its match score."""

    each: Rule
    add: Rule
    kind: str = "score"


def _dsl(b, meta, children):
    """``score [when COND] { … }``."""
    return b.phase("score", meta, [("when", children[0])], children[1:])


def _each(value, pad, mapping) -> Lines | None:
    from rulelang.render.fmt import expr_text
    each, add = expr_text(value), expr_text(mapping.get("add")) if "add" in mapping else None
    if each is None:
        return None
    return [f"{pad}each {each}" + (f" add {add}" if add is not None else "")]


def _add(value, pad, mapping) -> Lines | None:
    from rulelang.render.fmt import expr_text
    add = expr_text(value)
    if add is None:
        return None
    together = "each" in mapping and expr_text(mapping["each"]) is not None
    return [] if together else [f"{pad}add {add}"]


class Score(Construct):
    """Every seat of ``each`` adds ``add`` to its score; all values are computed before any is added."""

    kind = "score"
    batch_kernel = "rulelang.batch.kernels:SCORE"
    keeps_hands = True
    order = 70
    summary = "seats add a value to their match score"
    example = {"let": {"won": "tricks(player)"}, "each": "active", "add": "0 - won"}
    schema = {'entry': 'Seats add a value to their match score.',
              'defs': {'scorePhase': {'title': 'a mapping with let, each and add',
                                      'description': 'Adding to match scores.',
                                      'type': 'object',
                                      'additionalProperties': False,
                                      'required': ['each', 'add'],
                                      'properties': {'let': {'description': 'Local names for this score, name to '
                                                                            'expression.',
                                                             'type': 'object',
                                                             'propertyNames': {'$ref': '#/$defs/name'},
                                                             'additionalProperties': {'$ref': '#/$defs/anyExpr'}},
                                                     'each': {'description': 'The seats that score, a seat-set '
                                                                             'expression such as active.',
                                                              '$ref': '#/$defs/seatsExpr'},
                                                     'add': {'description': 'The value each seat adds to its score '
                                                                            '(player is the seat).',
                                                             '$ref': '#/$defs/intExpr'},
                                                     'when': WHEN}}}}
    codes = ("W618",)
    dsl = {"score": _dsl}
    diff_keys = {"let": DiffKey(text=lambda lets: "; " + "; ".join(f"let {n} = {v}" for n, v in lets.items()),
                                expanded=True)}

    @staticmethod
    def compile(c, path, body):
        """``each SEATS add N`` with its ``let`` names; each let is worked out once per seat, in order,
        as a local ``_letN`` of the function of ``add``."""
        scope = c.player_scope()
        lets = []
        for name in body.get("let") or {}:
            compiled = c.expression(path + ("let", name), None, scope)
            local = f"_let{len(lets)}"
            lets.append((local, compiled.code if compiled else ast.Constant(None)))
            type_ = compiled.type if compiled else INT
            scope = scope.child(**{name: Binding(type_, ast.Name(local, ast.Load()))})
        add = c.typed_rule(path + ("add",), INT, scope, tuple(lets))[0]
        return ScorePhase(c.rule(path + ("each",), SEATS), add)

    @staticmethod
    def dump(phase) -> str:
        return f" each `{phase.each.text}` add `{phase.add.text}`"

    @staticmethod
    def enter(st, phase) -> bool:
        seats = phase.each.fn(st, None)
        st.add_scores([(s, phase.add.fn(st, s)) for s in range(st.game.num_players) if seats >> s & 1])
        return False

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        local = set(body.get("let") or {})
        who = "every player" if body.get("each") == "seats" else f"each of {ctx.say(body.get('each'))}"
        lines = [f"Scoring: {who} adds to his score {ctx.say(body.get('add'), local)}"]
        for name, value in (body.get("let") or {}).items():
            lines.append(f"here {name} means {ctx.say(value, local)}")
        return lines + rest(body, {"let", "each", "add", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import INDENT, WHEN_PART, block, body, expr_text, grouped_statement, head_parts
        if not isinstance(value, dict):
            return None
        text, used = head_parts(value, [WHEN_PART])
        others = {k: v for k, v in value.items() if k not in used}
        statements = {"let": grouped_statement("let {k} = {v}", expr_text), "each": _each, "add": _add}
        return block(pad, f"score{text}", body(others, statements, pad + INDENT))


def _names_in(text) -> set[str]:
    """The names an expression of the document reads (none if it does not parse)."""
    from rulelang.read.expr import parse_expr
    from rulelang.validators.exprs import expr_names
    try:
        return expr_names(parse_expr(str(text)))
    except RuleError:
        return set()


@check("score_lets_are_used", needs_definition=False)
def score_lets_are_used(doc, game=None):
    """A ``let`` of a score phase that neither ``add`` nor a later ``let`` reads changes nothing (W618)."""
    from rulelang.validators.semantic_deck import phase_bodies
    for i, kind, body in phase_bodies(doc):
        lets = body.get("let") if kind == "score" else None
        if not isinstance(lets, dict):
            continue
        names = list(lets)
        for j, name in enumerate(names):
            readers = [lets[later] for later in names[j + 1:]] + [body.get("add"), body.get("each")]
            if not any(str(name) in _names_in(text) for text in readers if text is not None):
                yield Diagnostic("W618", f"the score's `let {name}` is never used: neither `add` nor a later `let` "
                                 "reads it", doc.span_of(("phases", i, "score", "let", name)),
                                 f"use {name} in `add`, or remove the let", severity=WARNING)


CONSTRUCT = Score
