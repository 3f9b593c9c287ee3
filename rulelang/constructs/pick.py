"""``pick``: each seat in turn names a value or passes; the first to name one ends the round.

YAML ``- pick: {var: trump, from: suits, by: forehand, forbid: "value != suit(turned)"}``;
DSL ``pick trump from suits by forehand forbid value != suit(turned)`` (another pass word
than ``pass``: the generic ``pick { … }`` form). The seat that names a
value becomes the declarer (with its team, where the game has ``teams``, as the declarers)
and the value is stored in the deal variable ``var``; nobody after it is asked. ``forbid``
makes a value illegal when it holds (``player`` the seat, ``value`` the value); ``must``
keeps a seat from passing when it holds (a dealer who must name one: ``player == dealer``).
When everyone passes nothing is named and ``declarer`` stays none, so a later phase can
run ``when: "declarer == none"`` — a second round of naming trumps. Every seat is
asked, even with one option left, as OpenSpiel asks.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.compile.codegen import part_attr
from rulelang.constructs.base import WHEN, Construct, DealPart, DiffKey, Lines, permitted, symbol, turn_order
from rulelang.constructs.choose import VALUES_SCHEMA, choice_values
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import BOOL, NAME, SEAT, SUIT, Binding, EvalError
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class PickPhase(PhaseBase):
    """Each seat in turn from ``start`` names one of ``options`` (stored in ``var``) or says ``pass_word``."""

    var: str = ""
    options: list = None
    values: list = None
    start: Rule | None = None
    pass_word: str = "pass"
    forbid: Rule | None = None
    must: Rule | None = None
    kind: str = "pick"


class PickState(DealPart):
    """The seats in turn (``order``, ``pos``) and the value being weighed by ``forbid`` (``value``)."""

    copied = ("order",)

    def __init__(self, game) -> None:
        self.order: list[int] = []
        self.pos = 0
        self.value = None


def _dsl(b, meta, children):
    """``pick VAR from VALUES [by SEAT] [forbid COND] [must COND] [when COND]`` (another pass word: the generic form)."""
    var, source, start, forbid, must, when = children
    parts = [("var", var), ("from", source), ("by", start), ("forbid", forbid), ("must", must), ("when", when)]
    return b.phase("pick", meta, parts)


class Pick(Construct):
    """Each seat in turn names a value or passes; the first value named ends the round and makes a declarer."""

    kind = "pick"
    names_declarer = True
    forms_sides = True
    batch_kernel = "rulelang.batch.kernels_more:PICK"
    order = 57
    summary = "each seat in turn names a value or passes; the first to name one declares"
    example = {"var": "trump", "from": "suits", "by": "forehand", "forbid": "value == clubs", "must": "player == dealer"}
    schema = {'entry': 'Each seat in turn names a value or passes; the first value named ends it.',
              'defs': {'pickPhase': {'title': 'a mapping with var, from, by, pass, forbid and must',
                                     'description': 'Each seat in turn names a value or passes; the first to name '
                                                    'one becomes the declarer and nobody after it is asked.',
                                     'type': 'object',
                                     'additionalProperties': False,
                                     'required': ['var', 'from', 'by'],
                                     'properties': {'var': {'description': 'The deal variable that stores the value '
                                                                           'named, e.g. trump.',
                                                            '$ref': '#/$defs/name'},
                                                    'from': VALUES_SCHEMA,
                                                    'by': {'description': 'The seat asked first; the others follow '
                                                                          'in the direction of play.',
                                                           '$ref': '#/$defs/seatExpr'},
                                                    'pass': {'description': 'The word for passing (default pass).',
                                                             '$ref': '#/$defs/name'},
                                                    'forbid': {'description': 'A value is illegal when this holds '
                                                                              '(player is the seat, value the '
                                                                              'value), e.g. value == suit(turned).',
                                                               '$ref': '#/$defs/boolExpr'},
                                                    'must': {'description': 'The seat may not pass when this holds, '
                                                                            'e.g. player == dealer.',
                                                             '$ref': '#/$defs/boolExpr'},
                                                    'when': WHEN}}}}
    codes = ("R366", "E515")
    dsl = {"pick": _dsl}
    diff_keys = {"var": DiffKey(text=str)}
    identity = "var"
    part = PickState
    words = "name"

    @staticmethod
    def symbols(c, body) -> list[str]:
        return choice_values(body, c.deck) + [str(body.get("pass", "pass"))]

    @staticmethod
    def option_names(body) -> list[str]:
        source = body.get("from")
        return ([str(o) for o in source] if isinstance(source, list) else []) + [str(body.get("pass", "pass"))]

    @staticmethod
    def deal_vars(c, body) -> dict[str, str]:
        return {str(body.get("var")): SUIT if body.get("from") == "suits" else NAME}

    @staticmethod
    def compile(c, path, body):
        var = str(body.get("var"))
        options = choice_values(body, c.deck)
        values = list(range(len(options))) if body.get("from") == "suits" else list(options)
        word = str(body.get("pass", "pass"))
        if not options or word in options:
            c.error("R366", f"`pick {var}` has nothing to name but passing" if not options else
                    f"`pick {var}`: the pass word '{word}' is also one of the values", path,
                    "give `from: suits` or a list of names, and a pass word that is none of them")
        kind = SUIT if body.get("from") == "suits" else NAME
        scope = c.player_scope().child(value=Binding(kind, part_attr("pick", "value")))
        forbid = c.rule(path + ("forbid",), BOOL, scope) if body.get("forbid") is not None else None
        must = c.optional_rule(path + ("must",), BOOL, c.player_scope())
        return PickPhase(var, options, values, c.rule(path + ("by",), SEAT), word, forbid, must)

    @staticmethod
    def dump(phase) -> str:
        forbid = f"; forbid when `{phase.forbid.text}`" if phase.forbid is not None else ""
        must = f"; must when `{phase.must.text}`" if phase.must is not None else ""
        return f" {phase.var} from {', '.join(phase.options)} by `{phase.start.text}` or {phase.pass_word}{forbid}{must}"

    @staticmethod
    def outcomes(game, phase, values: dict) -> list[dict]:
        return [{**values, phase.var: value} for value in phase.values] + [values]

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.pick
        part.order = turn_order(st, phase.start.fn(st, None), st.active)
        part.pos = 0
        return Pick._turn(st, phase, part)

    @staticmethod
    def allowed(st, phase, seat: int) -> list[str]:
        """The values ``seat`` may name now, and the pass word unless it must name one."""
        allowed = set(permitted(st, st.pick, "value", phase.values, phase.forbid, seat))
        out = [option for option, value in zip(phase.options, phase.values) if value in allowed]
        if phase.must is None or not phase.must.fn(st, seat):
            out.append(phase.pass_word)
        return out

    @staticmethod
    def _turn(st, phase, part) -> bool:
        if part.pos >= len(part.order):
            return False
        seat = part.order[part.pos]
        if not Pick.allowed(st, phase, seat):
            raise EvalError(f"{st.game.seat_name(seat)} may neither pass nor name a value", phase.span)
        st.current = seat
        return True

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted(ids[o] for o in Pick.allowed(st, phase, st.current))

    @staticmethod
    def apply(st, phase, action) -> bool:
        name, seat = symbol(st, action), st.current
        st.put("decisions", seat, name)
        if name == phase.pass_word:
            st.pick.pos += 1
            return not Pick._turn(st, phase, st.pick)
        st.put("vars", phase.var, phase.values[phase.options.index(name)])
        st.declarer = seat
        teams = st.game.definition.teams
        st.side_mask = teams[seat] if teams else 1 << seat
        return True

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        name = st.action_to_string(action)
        seat = st.game.seat_name(st.current)
        legal = ", ".join(Pick.allowed(st, phase, st.current))
        if name == phase.pass_word and phase.must is not None:
            return Diagnostic("E515", f"{seat} may not {name}: the rule `{phase.must.text}` says he must name one",
                              phase.must.span, f"legal now: {legal}")
        if name in phase.options and phase.forbid is not None:
            return Diagnostic("E515", f"{seat} may not name {name}: the rule `{phase.forbid.text}` forbids it",
                              phase.forbid.span, f"legal now: {legal}")
        return Construct.explain(st, phase, action)

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return "passes" if name == step.pass_word else f"names {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        source = body.get("from")
        values = "a suit" if source == "suits" else "one of " + ", ".join(str(o) for o in source or [])
        word = body.get("pass", "pass")
        lines = [f"Starting with {ctx.say(body.get('by'))} and going {ctx.direction}, each player still in names "
                 f"{values} for {body.get('var')} or says {word}; the first to name one becomes the declarer, and "
                 "nobody after him is asked"]
        if body.get("forbid") is not None:
            lines.append(f"Nobody may name a value when {ctx.say(body['forbid'])}")
        if body.get("must") is not None:
            lines.append(f"A player may not say {word} when {ctx.say(body['must'])}")
        return lines + rest(body, {"var", "from", "by", "pass", "forbid", "must", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts, scalar_text, scalars
        if not isinstance(value, dict) or "var" not in value or \
                not set(value) <= {"var", "from", "by", "forbid", "must", "when"}:
            return None

        def pick_from(source):
            texts = scalars(source)
            return f"[{', '.join(texts)}]" if texts is not None else scalar_text(source)
        var = scalar_text(value["var"])
        parts = [("from", "from", pick_from), ("by", "by", expr_text), ("forbid", "forbid", expr_text),
                 ("must", "must", expr_text), WHEN_PART]
        text, used = head_parts(value, parts)
        return [f"{pad}pick {var}{text}"] if var is not None and used == set(value) - {"var"} else None


CONSTRUCT = Pick
