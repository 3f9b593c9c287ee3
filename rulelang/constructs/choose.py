"""``choose``: one seat picks a value (a suit, or a name from a list) for a deal variable.

YAML ``- choose: {var: trump, by: forehand, from: suits}``; DSL ``choose trump by forehand
from suits``. ``forbid`` makes a value illegal when it holds (``player`` the seat,
``value`` the value: ``forbid: "value == null and hand_game"``). A single possible value
is taken without asking. ``by: chance`` draws the value at random, each equally likely, in
sight of everyone (a chance event).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.compile.codegen import part_attr
from rulelang.constructs.base import CHANCE, WHEN, Construct, DealPart, DiffKey, Lines, permitted, symbol
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import BOOL, NAME, SEAT, SUIT, Binding, EvalError
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class ChoosePhase(PhaseBase):
    """``by`` chooses one of ``options`` (None: chance draws it); stored in the deal variable ``var``."""

    var: str
    by: Rule | None
    options: list[str]
    values: list
    forbid: Rule | None = None
    kind: str = "choose"


class ChooseState(DealPart):
    """The value being weighed by ``forbid`` (``value``)."""

    def __init__(self, game) -> None:
        self.value = None


def _dsl(b, meta, children):
    """``choose VAR [by SEAT] [from VALUE] [forbid COND] [when COND]``."""
    var, by, source, forbid, when = children
    return b.phase("choose", meta, [("var", var), ("by", by), ("from", source), ("forbid", forbid), ("when", when)])


VALUES_SCHEMA = {'description': 'What may be chosen: suits, or a list of names.',
                 'title': 'suits or a list of names',
                 'anyOf': [{'title': 'suits', 'const': 'suits'},
                           {'title': 'a list of names', 'type': 'array', 'minItems': 1,
                            'items': {'$ref': '#/$defs/name'}}]}
"""The schema of ``from``: the values a seat may choose (``choose``) or name (``pick``)."""


def choice_values(body: dict, deck) -> list[str]:
    """The values of ``from``: the suits' names for ``suits``, else the names listed."""
    chosen = body.get("from")
    return [s.name for s in deck.suits] if chosen == "suits" else [str(o) for o in chosen or []]


class Choose(Construct):
    """A seat picks one value; a single possible value is taken without asking."""

    kind = "choose"
    batch_kernel = "rulelang.batch.kernels:CHOOSE"
    keeps_hands = True
    order = 30
    summary = "a seat chooses a value for a deal variable"
    example = {"var": "trump", "by": "forehand", "from": "suits"}
    schema = {'entry': 'A seat chooses one value, stored in a deal variable.',
              'defs': {'choosePhase': {'title': 'a mapping like {var: trump, by: forehand, from: suits}',
                                       'description': 'A seat chooses one value.',
                                       'type': 'object',
                                       'additionalProperties': False,
                                       'required': ['var', 'by', 'from'],
                                       'properties': {'var': {'description': 'The deal variable that stores the '
                                                                             'choice, e.g. trump.',
                                                              '$ref': '#/$defs/name'},
                                                      'by': {'description': 'The seat that chooses, e.g. '
                                                                            'forehand; chance: drawn at random.',
                                                             '$ref': '#/$defs/seatExpr'},
                                                      'from': VALUES_SCHEMA,
                                                      'forbid': {'description': 'A value is illegal when this '
                                                                                'holds (player is the seat, value '
                                                                                'the value), e.g. value == null.',
                                                                 '$ref': '#/$defs/boolExpr'},
                                                      'when': WHEN}}}}
    codes = ("R304", "E519")
    tallied = False
    part = ChooseState
    dsl = {"choose": _dsl}
    diff_keys = {"var": DiffKey(text=str), "forbid": DiffKey(text=lambda cond: f"; forbid when {cond}")}
    identity = "var"
    words = "choose"

    @staticmethod
    def symbols(c, body) -> list[str]:
        return choice_values(body, c.deck)

    @staticmethod
    def option_names(body) -> list[str]:
        source = body.get("from")
        return [str(o) for o in source] if isinstance(source, list) else []

    @staticmethod
    def deal_vars(c, body) -> dict[str, str]:
        return {str(body.get("var")): SUIT if body.get("from") == "suits" else NAME}

    @staticmethod
    def compile(c, path, body):
        var = str(body.get("var"))
        by = None if body.get("by") == "chance" else c.rule(path + ("by",), SEAT)
        options = choice_values(body, c.deck)
        values = list(range(len(options))) if body.get("from") == "suits" else list(options)
        if not options:
            c.error("R304", f"`choose {var}` has nothing to choose from", path, "give `from: suits` or a list")
        forbid = None
        if body.get("forbid") is not None:
            if by is None:
                c.error("R304", f"`choose {var}` by chance cannot forbid a value", path + ("forbid",),
                        "drop `forbid`, or let a seat choose")
            kind = SUIT if body.get("from") == "suits" else NAME
            scope = c.player_scope().child(value=Binding(kind, part_attr("choose", "value")))
            forbid = c.rule(path + ("forbid",), BOOL, scope)
        return ChoosePhase(var, by, options, values, forbid)

    @staticmethod
    def dump(phase) -> str:
        who = "chance" if phase.by is None else f"`{phase.by.text}`"
        forbid = f"; forbid when `{phase.forbid.text}`" if phase.forbid is not None else ""
        return f" {phase.var} by {who} from {', '.join(phase.options)}{forbid}"

    @staticmethod
    def outcomes(game, phase, values: dict) -> list[dict]:
        return [{**values, phase.var: value} for value in phase.values] or [values]

    @staticmethod
    def enter(st, phase) -> bool:
        st.current = CHANCE if phase.by is None else phase.by.fn(st, None)
        allowed = Choose.allowed(st, phase, st.current)
        if not allowed:
            raise EvalError(f"{st.game.seat_name(st.current)} has nothing left to choose for {phase.var}: "
                            f"`{phase.forbid.text}` forbids every value", phase.forbid.span)
        if len(allowed) == 1:
            st.put("vars", phase.var, phase.values[phase.options.index(allowed[0])])
            return False
        return True

    @staticmethod
    def allowed(st, phase, seat: int) -> list[str]:
        """The values ``seat`` may choose now (all of them unless ``forbid`` rules some out)."""
        if phase.forbid is None:
            return list(phase.options)
        allowed = set(permitted(st, st.choose, "value", phase.values, phase.forbid, seat))
        return [option for option, value in zip(phase.options, phase.values) if value in allowed]

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted(ids[o] for o in Choose.allowed(st, phase, st.current))

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        name = st.action_to_string(action)
        if phase.forbid is not None and name in phase.options:
            legal = ", ".join(Choose.allowed(st, phase, st.current))
            return Diagnostic("E519", f"{st.game.seat_name(st.current)} may not choose {name} for {phase.var}: the "
                              f"rule `{phase.forbid.text}` forbids it", phase.forbid.span, f"legal now: {legal}")
        return Construct.explain(st, phase, action)

    @staticmethod
    def apply(st, phase, action) -> bool:
        name = symbol(st, action)
        st.put("vars", phase.var, phase.values[phase.options.index(name)])
        if phase.by is not None:
            st.put("decisions", st.current, name)
        return True

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        deal["decisions"].append({"seat": seat, "phase": "choose", "action": name, "var": step.var})

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return f"chooses {step.var}: {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import effective_deck, rest
        source = body.get("from")
        if source == "suits":
            suits = [str(s.get("name")) for s in effective_deck(ctx.data).get("suits") or []]
            options = f"one of the suits ({', '.join(suits)})"
        else:
            options = "one of " + ", ".join(str(o) for o in source or [])
        when = "" if dealt else ", before any card is dealt"
        if body.get("by") == "chance":
            return [f"{body.get('var')} is drawn at random, each value equally likely: {options}{when}"] + \
                rest(body, {"var", "by", "from", "when"})
        forbid = [f"He may not choose a value when {ctx.say(body['forbid'])}"] if body.get("forbid") is not None \
            else []
        return [f"{ctx.say(body.get('by'))} chooses {body.get('var')}: {options}{when}"] + forbid + \
            rest(body, {"var", "by", "from", "forbid", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts, scalar_text, scalars
        if not isinstance(value, dict) or "var" not in value or not set(value) <= {"var", "by", "from", "forbid", "when"}:
            return None

        def choose_from(source):
            texts = scalars(source)
            return f"[{', '.join(texts)}]" if texts is not None else scalar_text(source)
        var = scalar_text(value["var"])
        text, used = head_parts(value, [("by", "by", expr_text), ("from", "from", choose_from),
                                        ("forbid", "forbid", expr_text), WHEN_PART])
        return [f"{pad}choose {var}{text}"] if var is not None and used == set(value) - {"var"} else None


CONSTRUCT = Choose
