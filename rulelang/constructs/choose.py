"""``choose``: one seat picks a value (a suit, or a name from a list) for a deal variable.

YAML ``- choose: {var: trump, by: forehand, from: suits}``; DSL ``choose trump by forehand
from suits``. A single possible value is taken without asking. ``by: chance`` draws the
value at random, each equally likely, in sight of everyone (a chance event).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import CHANCE, WHEN, Construct, DiffKey, Lines, symbol
from rulelang.exprcompile import NAME, SEAT, SUIT
from rulelang.ir import PhaseBase, Rule


@dataclass
class ChoosePhase(PhaseBase):
    """``by`` chooses one of ``options`` (None: chance draws it); stored in the deal variable ``var``."""

    var: str
    by: Rule | None
    options: list[str]
    values: list
    kind: str = "choose"


def _dsl(b, meta, children):
    """``choose VAR [by SEAT] [from VALUE] [when COND]``."""
    var, by, source, when = children
    return b.phase("choose", meta, [("var", var), ("by", by), ("from", source), ("when", when)])


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
                                                      'when': WHEN}}}}
    codes = ("R304",)
    tallied = False
    dsl = {"choose": _dsl}
    diff_keys = {"var": DiffKey(text=str)}
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
        return ChoosePhase(var, by, options, values)

    @staticmethod
    def dump(phase) -> str:
        who = "chance" if phase.by is None else f"`{phase.by.text}`"
        return f" {phase.var} by {who} from {', '.join(phase.options)}"

    @staticmethod
    def outcomes(game, phase, values: dict) -> list[dict]:
        return [{**values, phase.var: value} for value in phase.values] or [values]

    @staticmethod
    def enter(st, phase) -> bool:
        st.current = CHANCE if phase.by is None else phase.by.fn(st, None)
        if len(phase.options) == 1:
            st.vars[phase.var] = phase.values[0]
            return False
        return True

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted(ids[o] for o in phase.options)

    @staticmethod
    def apply(st, phase, action) -> bool:
        name = symbol(st, action)
        st.vars[phase.var] = phase.values[phase.options.index(name)]
        if phase.by is not None:
            st.decisions[st.current] = name
        return True

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        deal["decisions"].append({"seat": seat, "phase": "choose", "action": name, "var": step.var})

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return f"chooses {step.var}: {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.explain import effective_deck, rest
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
        return [f"{ctx.say(body.get('by'))} chooses {body.get('var')}: {options}{when}"] + \
            rest(body, {"var", "by", "from", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.fmt import WHEN_PART, expr_text, head_parts, scalar_text, scalars
        if not isinstance(value, dict) or "var" not in value or not set(value) <= {"var", "by", "from", "when"}:
            return None

        def choose_from(source):
            texts = scalars(source)
            return f"[{', '.join(texts)}]" if texts is not None else scalar_text(source)
        var = scalar_text(value["var"])
        text, used = head_parts(value, [("by", "by", expr_text), ("from", "from", choose_from), WHEN_PART])
        return [f"{pad}choose {var}{text}"] if var is not None and used == set(value) - {"var"} else None


CONSTRUCT = Choose
