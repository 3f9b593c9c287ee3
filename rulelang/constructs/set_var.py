"""``set``: a deal variable takes the value of an expression.

YAML ``- set: {var: trump, value: hearts}``; DSL ``set trump = hearts [when COND]`` (grammar section "set").
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DiffKey, Lines
from rulelang.compile.exprcompile import SUIT, TYPE_WORDS, Binding
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class SetPhase(PhaseBase):
    """Set the deal variable ``var`` to ``value``."""

    var: str = ""
    value: Rule | None = None
    kind: str = "set"


def _dsl(b, meta, children):
    """``set VAR = VALUE [when COND]``."""
    var, value, when = children
    return b.phase("set", meta, [("var", var), ("value", value), ("when", when)])


def _render(value) -> str:
    from rulelang.render.words import render
    return render(value)


def _declared(c, var: str) -> tuple[str, int] | None:
    """(type, phase index) of the first phase of another kind that declares the deal variable ``var``."""
    from rulelang.constructs import construct
    for index, kind, body in c.phase_entries():
        found = construct(kind) if isinstance(kind, str) else None
        if found is not None and not found.typed_later:
            declared = found.deal_vars(c, body)
            if var in declared:
                return declared[var], index
    return None


def _kind_words(type_: str | None) -> str:
    return TYPE_WORDS.get(type_, f"a value of type {type_}")


class Set(Construct):
    """Sets a deal variable."""

    kind = "set"
    batch_kernel = "rulelang.batch.kernels:SET"
    keeps_hands = True
    order = 80
    summary = "a deal variable is set"
    codes = ("N231",)
    typed_later = True
    dsl = {"set_var": _dsl}
    diff_keys = {"var": DiffKey(text=str), "value": DiffKey(text=lambda value: f"= {_render(value)}")}
    identity = "var"
    example = {"var": "trump", "value": "hearts"}
    schema = {'entry': 'Set a deal variable.',
              'defs': {'setPhase': {'title': 'a mapping with var and value',
                                    'description': 'Set a deal variable.',
                                    'type': 'object',
                                    'additionalProperties': False,
                                    'required': ['var', 'value'],
                                    'properties': {'var': {'description': 'The deal variable to set.',
                                                           '$ref': '#/$defs/name'},
                                                   'value': {'description': 'Its value, an expression (e.g. hearts).',
                                                             '$ref': '#/$defs/anyExpr'},
                                                   'when': WHEN}}}}

    @staticmethod
    def deal_vars(c, body) -> dict[str, str]:
        return {str(body.get("var")): SUIT}

    @staticmethod
    def compile(c, path, body):
        from rulelang.compile.codegen import state_item
        var = str(body.get("var"))
        value, type_ = c.typed_rule(path + ("value",), None)
        declared = _declared(c, var)
        if declared is not None and declared[0] != type_:
            c.error("N231", f"`set {var}` gives it {_kind_words(type_)}, but phase {declared[1] + 1} chooses it as "
                    f"{_kind_words(declared[0])}", path + ("value",),
                    "set it to a value of the kind it is chosen as, or use another variable")
            type_ = declared[0]
        c.deal_vars[var] = type_
        c.scope.names[var] = Binding(type_, state_item("vars", var))
        return SetPhase(var=var, value=value)

    @staticmethod
    def outcomes(game, phase, values: dict) -> list[dict]:
        from rulelang.validators.probe import NOT_CONSTANT, constant
        value = constant(phase.value)
        if value is not NOT_CONSTANT:
            return [{**values, phase.var: value}]
        if game.deal_vars.get(phase.var) == SUIT:
            return [{**values, phase.var: suit} for suit in range(len(game.deck.suits))]
        return [values]

    @staticmethod
    def enter(st, phase) -> bool:
        st.put("vars", phase.var, phase.value.fn(st, None))
        return False

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts, scalar_text
        if not isinstance(value, dict) or set(value) - {"var", "value", "when"} or "value" not in value:
            return None
        var, text = scalar_text(value.get("var")), expr_text(value["value"])
        when, used = head_parts(value, [WHEN_PART])
        if var is None or text is None or used != set(value) - {"var", "value"}:
            return None
        return [f"{pad}set {var} = {text}{when}"]

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        return [f"{body.get('var')} is set to {ctx.say(body.get('value'))}"] + rest(body, {"var", "value", "when"})


CONSTRUCT = Set
