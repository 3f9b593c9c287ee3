"""``turns``: each seat still in goes through several steps (say, exchange then play or pass) before the next.

YAML ``- turns: {from: forehand, steps: [{exchange: {…}}, {decide: {…}}]}``; DSL
``turns { from = forehand  steps { exchange … decide … } }``. A step is a phase of a kind
that may be one (``Construct.step``); while it runs it sees only the seat whose turn it
is (``State.only_seat``), and the phase hands every action to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, seats_from
from rulelang.compile.exprcompile import SEAT
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class TurnsPhase(PhaseBase):
    """Each active seat in turn from ``start`` goes through all of ``steps`` before the next seat begins."""

    start: Rule | None = None
    steps: list = field(default_factory=list)
    kind: str = "turns"


class TurnsState(DealPart):
    """The seats in turn (``seats``, ``pos``), the step being run (``step_pos``, ``step``) and its construct."""

    copied = ("seats",)

    def __init__(self, game) -> None:
        self.seats: list[int] = []
        self.pos, self.step_pos = 0, -1
        self.step = self.handler = None


def _step_kinds() -> list[str]:
    from rulelang.constructs import constructs
    return [kind for kind, c in constructs().items() if c.step]


class Turns(Construct):
    """Runs ``steps`` for one seat at a time, in the direction of play from ``start``; the steps
    see only that seat (``State.only_seat``) and the phase delegates every action to the step."""

    kind = "turns"
    batch_kernel = "rulelang.batch.kernels:TURNS"
    order = 130
    summary = "each seat in turn goes through several steps"
    example = {"from": "forehand", "steps": [{"exchange": {"from": "forehand", "max": 2}},
                                              {"decide": {"options": ["play", "pass"], "from": "forehand"}}]}
    schema = {'entry': 'Per-seat turns of several steps.',
              'defs': {'turnsPhase': {'title': 'a mapping with from and steps',
                                      'description': 'Each active seat in turn goes through all the steps before the '
                                                     'next seat begins (e.g. exchange, then play or pass).',
                                      'type': 'object',
                                      'additionalProperties': False,
                                      'required': ['from', 'steps'],
                                      'properties': {'from': {'description': 'The seat whose turn comes first.',
                                                              '$ref': '#/$defs/seatExpr'},
                                                     'steps': {'description': "The steps of one seat's turn: "
                                                                              'exchange and decide phases, in order.',
                                                               'type': 'array',
                                                               'minItems': 1,
                                                               'items': {'$ref': '#/$defs/phase'}},
                                                     'when': WHEN}}}}
    codes = ("R305",)
    part = TurnsState
    public = False

    @staticmethod
    def steps_of(body) -> list:
        steps = body.get("steps")
        return steps if isinstance(steps, list) else []

    @staticmethod
    def inner_phases(phase) -> list:
        return phase.steps

    @staticmethod
    def compile(c, path, body):
        steps = []
        kinds = _step_kinds()
        for i, entry in enumerate(body.get("steps") or []):
            kind = next(iter(entry)) if isinstance(entry, dict) and entry else None
            if kind not in kinds:
                c.error("R305", f"a turn cannot hold a '{kind}' step", path + ("steps", i),
                        f"the steps of a turn are {', '.join(kinds)}")
                continue
            steps.append(c.phase_at(path + ("steps", i), entry))
        return TurnsPhase(start=c.rule(path + ("from",), SEAT), steps=steps)

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.turns
        part.seats = seats_from(st, phase.start.fn(st, None), st.active)
        part.pos, part.step_pos = 0, -1
        return not Turns._advance(st, phase, part)

    @staticmethod
    def _advance(st, phase, part) -> bool:
        """Move to the next step that waits for an action; True when every seat has had its turn."""
        from rulelang.constructs import construct
        while part.pos < len(part.seats):
            st.only_seat = part.seats[part.pos]
            part.step_pos += 1
            while part.step_pos < len(phase.steps):
                step = phase.steps[part.step_pos]
                if step.when is None or step.when.fn(st, None):
                    part.step, part.handler = step, construct(step.kind)
                    if part.handler.enter(st, step):
                        return False
                part.step_pos += 1
            part.pos, part.step_pos = part.pos + 1, -1
        st.only_seat = part.step = part.handler = None
        return True

    @staticmethod
    def legal(st, phase):
        return st.turns.handler.legal(st, st.turns.step)

    @staticmethod
    def seer(st, phase, action):
        return st.turns.handler.seer(st, st.turns.step, action)

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.turns
        if part.handler.apply(st, part.step, action):
            return Turns._advance(st, phase, part)
        return False

    @staticmethod
    def explain(st, phase, action):
        return st.turns.handler.explain(st, st.turns.step, action)

    @staticmethod
    def current_step(st, phase):
        return st.turns.step if st.turns.step is not None else phase

    @staticmethod
    def receiver(st, phase) -> int:
        part = st.turns
        return part.handler.receiver(st, part.step) if part.handler is not None else -1

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.constructs import construct
        from rulelang.render.explain import rest
        lines = [f"Starting with {ctx.say(body.get('from'))} and going {ctx.direction}, each player still in takes "
                 "a whole turn before the next player begins; a turn is the steps below, in order"]
        for entry in body.get("steps") or []:
            if isinstance(entry, dict) and len(entry) == 1:
                (kind, step), = entry.items()
                found = construct(kind) if isinstance(kind, str) else None
                if found is not None and isinstance(step, dict):
                    lines.extend("  " + line for line in found.english(ctx, step, True))
        return lines + rest(body, {"from", "steps", "when"})


CONSTRUCT = Turns
