"""``decide``: each seat still in picks one of some options; ``leave`` drops it from the deal.

YAML ``- decide: {options: [play, pass], from: forehand, leave: pass, forbid: {pass: COND}}``;
DSL ``decide play | pass from forehand leave pass { forbid pass when COND }``. A seat with
one option left takes it without being asked. May be a step of ``turns``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DealPart, DiffKey, Lines, symbol, turn_order
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import BOOL, SEAT, SEATS, EvalError
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class DecidePhase(PhaseBase):
    """Each seat in turn from ``start`` picks an option; ``leave`` drops it from the active seats."""

    options: list[str]
    start: Rule
    leave: str | None
    forbid: dict[str, Rule]
    among: Rule | None = None
    drop: dict = None
    kind: str = "decide"


class DecideState(DealPart):
    """The seats in turn (``order``), whose turn it is (``pos``), and per seat the option it last picked this
    deal (``chosen``, a tuple replaced when a seat picks: rules read it as ``decided(seat)``), and every
    (seat, option) picked this deal (``picked``: rules read it as ``picked(seat, option)``)."""

    copied = ("order",)

    def __init__(self, game) -> None:
        self.order: list[int] = []
        self.pos = 0
        self.chosen: tuple = (None,) * game.num_players
        self.picked: frozenset = frozenset()


def _dsl(b, meta, children):
    """``decide A | B [from SEAT] [leave A] [when COND] [{ forbid … }]``."""
    options, source, leave, when, block = children
    parts = [("options", options), ("from", source), ("leave", leave), ("when", when)]
    return b.phase("decide", meta, parts, [block])


def _dsl_block(b, meta, children):
    """The ``{ … }`` of a decide phase."""
    from rulelang.read.dsl import flatten
    return flatten(children)


def _options_text(options) -> str:
    return " | ".join(str(o) for o in options)


class Decide(Construct):
    """Each active seat in turn picks an option; forced choices are taken without asking."""

    kind = "decide"
    batch_kernel = "rulelang.batch.kernels:DECIDE"
    keeps_hands = True
    order = 50
    summary = "each seat in turn picks one of some options"
    example = {"options": ["play", "pass"], "from": "next(forehand)", "leave": "pass",
               "forbid": {"pass": "player == dealer"}}
    schema = {'entry': 'Each seat in turn picks one of some options.',
              'defs': {'decidePhase': {'title': 'a mapping with options, from, leave and forbid',
                                       'description': 'Each seat in turn picks an option.',
                                       'type': 'object',
                                       'additionalProperties': False,
                                       'required': ['options', 'from'],
                                       'properties': {'options': {'description': 'The options to pick from, e.g. '
                                                                                 '[play, pass].',
                                                                  'type': 'array',
                                                                  'minItems': 1,
                                                                  'uniqueItems': True,
                                                                  'items': {'$ref': '#/$defs/name'}},
                                                      'from': {'description': 'The seat that decides first; the '
                                                                              'others follow in the direction.',
                                                               '$ref': '#/$defs/seatExpr'},
                                                      'leave': {'description': 'The option that takes a seat out of '
                                                                               'the active set for this deal.',
                                                                '$ref': '#/$defs/name'},
                                                      'forbid': {'description': 'Option to condition: the option is '
                                                                                'illegal when the condition holds '
                                                                                '(player is the deciding seat).',
                                                                 'type': 'object',
                                                                 'propertyNames': {'$ref': '#/$defs/name'},
                                                                 'additionalProperties': {'$ref': '#/$defs/boolExpr'}},
                                                      'among': {'description': 'The seats that decide (default every '
                                                                               'seat still in), e.g. {declarer}.',
                                                                '$ref': '#/$defs/seatsExpr'},
                                                      'drop': {'description': 'Option to seats: when a seat picks the '
                                                                              'option, these seats sit out the rest of '
                                                                              'the deal (player is the deciding seat), '
                                                                              'e.g. {alone: team(player) - {player}}.',
                                                               'type': 'object',
                                                               'propertyNames': {'$ref': '#/$defs/name'},
                                                               'additionalProperties': {'$ref': '#/$defs/seatsExpr'}},
                                                      'when': WHEN}}}}
    codes = ("N208", "E502")
    dsl = {"decide": _dsl, "decide_block": _dsl_block}
    diff_keys = {"options": DiffKey(text=_options_text, value=_options_text),
                 "forbid": DiffKey(text=lambda forbid: "; " + "; ".join(f"forbid {o} when {c}" for o, c in
                                                                        forbid.items()), expanded=True),
                 "drop": DiffKey(text=lambda drop: "; " + "; ".join(f"{o} drops {c}" for o, c in drop.items()),
                                 expanded=True)}
    identity = "options"
    part = DecideState
    step = True
    words = "decide"

    @staticmethod
    def symbols(c, body) -> list[str]:
        return [str(o) for o in body.get("options") or []]

    @staticmethod
    def option_names(body) -> list[str]:
        options = body.get("options")
        return [str(o) for o in options] if isinstance(options, list) else []

    @staticmethod
    def compile(c, path, body):
        options = [str(o) for o in body.get("options") or []]
        leave = body.get("leave")
        if leave is not None and str(leave) not in options:
            c.error("N208", f"`leave: {leave}` is not one of the options {', '.join(options)}", path + ("leave",),
                    "name the option that takes a seat out of the deal")
        scope = c.player_scope()
        forbid = {}
        for option in body.get("forbid") or {}:
            if str(option) not in options:
                c.error("N208", f"`forbid {option}`: '{option}' is not one of the options",
                        path + ("forbid", option), f"the options are {', '.join(options)}")
            forbid[str(option)] = c.rule(path + ("forbid", option), BOOL, scope)
        drop = {}
        for option in body.get("drop") or {}:
            if str(option) not in options:
                c.error("N208", f"`drop {option}`: '{option}' is not one of the options",
                        path + ("drop", option), f"the options are {', '.join(options)}")
            drop[str(option)] = c.rule(path + ("drop", option), SEATS, scope)
        return DecidePhase(options, c.rule(path + ("from",), SEAT), leave and str(leave), forbid,
                           c.optional_rule(path + ("among",), SEATS), drop)

    @staticmethod
    def dump(phase) -> str:
        forbid = "; ".join(f"forbid {o} when `{r.text}`" for o, r in phase.forbid.items())
        return f" {' | '.join(phase.options)} from `{phase.start.text}` leave {phase.leave}" + \
            (f"; {forbid}" if forbid else "")

    @staticmethod
    def blocked(phase) -> str | None:
        from rulelang.validators.probe import is_constant
        if phase.options and all(is_constant(phase.forbid.get(o), True) for o in phase.options):
            return "every option is always forbidden, so nobody can decide"
        return None

    @staticmethod
    def blocker_notes(doc, phase) -> list:
        return [(f"'{option}' is forbidden by `{rule.text}`", rule.span) for option, rule in phase.forbid.items()]

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.decide
        deciders = st.active if phase.among is None else st.active & phase.among.fn(st, None)
        part.order = turn_order(st, phase.start.fn(st, None), deciders)
        part.pos = 0
        return Decide._turn(st, phase, part)

    @staticmethod
    def allowed(st, phase, seat) -> list[str]:
        """The options ``seat`` may pick now."""
        forbid = phase.forbid
        return [o for o in phase.options if o not in forbid or not forbid[o].fn(st, seat)]

    @staticmethod
    def _turn(st, phase, part) -> bool:
        while part.pos < len(part.order):
            seat = part.order[part.pos]
            options = Decide.allowed(st, phase, seat)
            if len(options) > 1:
                st.current = seat
                return True
            if not options:
                raise EvalError(f"{st.game.seat_name(seat)} has no option left: every option is forbidden", phase.span)
            Decide._record(st, phase, seat, options[0] + " (forced)", options[0])
            part.pos += 1
        return False

    @staticmethod
    def _record(st, phase, seat, text, option) -> None:
        st.put("decisions", seat, text)
        part = st.decide
        part.chosen = part.chosen[:seat] + (option,) + part.chosen[seat + 1:]
        part.picked = part.picked | {(seat, option)}
        if option == phase.leave:
            st.active &= ~(1 << seat)
        if phase.drop and option in phase.drop:
            st.active &= ~phase.drop[option].fn(st, seat)

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted(ids[o] for o in Decide.allowed(st, phase, st.current))

    @staticmethod
    def apply(st, phase, action) -> bool:
        option = symbol(st, action)
        Decide._record(st, phase, st.current, option, option)
        st.decide.pos += 1
        return not Decide._turn(st, phase, st.decide)

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        name = st.action_to_string(action)
        rule = phase.forbid.get(name)
        if rule is not None and rule.fn(st, st.current):
            return Diagnostic("E502", f"{st.game.seat_name(st.current)} may not {name}: the rule `{rule.text}` "
                              "forbids it", rule.span, f"legal now: {', '.join(Decide.allowed(st, phase, st.current))}")
        return Construct.explain(st, phase, action)

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        options = [str(o) for o in body.get("options") or []]
        lines = [f"Starting with {ctx.say(body.get('from'))} and going {ctx.direction}, each player still in says "
                 f"{' or '.join(options)}"]
        if body.get("among") is not None:
            lines.append(f"Only {ctx.say(body['among'])} decide")
        if body.get("leave"):
            lines.append(f"A player who says {body['leave']} drops out: he takes no part in the rest of this deal")
        for option, seats in (body.get("drop") or {}).items():
            lines.append(f"When a player says {option}, {ctx.say(seats)} sit out the rest of this deal")
        for option, cond in (body.get("forbid") or {}).items():
            lines.append(f"Nobody may say {option} when {ctx.say(cond)}")
        lines.append("A player with only one option left takes it without being asked")
        return lines + rest(body, {"options", "from", "leave", "forbid", "among", "drop", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import INDENT, WHEN_PART, block, body, expr_text, grouped_statement, head_parts, \
            scalar_text, scalars
        options = scalars(value.get("options")) if isinstance(value, dict) else None
        if options is None:
            return None
        text, used = head_parts(value, [("from", "from", expr_text), ("leave", "leave", scalar_text), WHEN_PART])
        others = {k: v for k, v in value.items() if k not in used | {"options"}}
        head = f"decide {' | '.join(options)}{text}"
        statements = {"forbid": grouped_statement("forbid {k} when {v}", expr_text)}
        return [f"{pad}{head}"] if not others else block(pad, head, body(others, statements, pad + INDENT))


CONSTRUCT = Decide
