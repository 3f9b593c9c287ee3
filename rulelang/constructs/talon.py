"""``talon``: every card still undealt goes face down to the talon.

YAML ``- talon: rest`` (or ``{when: COND}``); DSL ``talon rest`` / ``talon when COND``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, Lines
from rulelang.diagnostics import WARNING
from rulelang.compile.ir import PhaseBase


@dataclass
class TalonPhase(PhaseBase):
    """Every undealt card goes to the talon."""

    kind: str = "talon"


def _dsl(b, meta, children):
    """``talon when COND``."""
    return b.phase("talon", meta, [("when", children[0])])


class Talon(Construct):
    """Every undealt card goes to the talon."""

    kind = "talon"
    batch_kernel = "rulelang.batch.kernels:TALON"
    order = 20
    summary = "the undealt cards go to the talon"
    example = "rest"
    schema = {'entry': 'rest: every undealt card goes to the talon, face down.',
              'defs': {'talonPhase': {'title': 'rest, or {when: COND}',
                                      'description': 'Every undealt card goes to the talon.',
                                      'oneOf': [{'enum': ['rest']},
                                                {'type': 'object',
                                                 'additionalProperties': False,
                                                 'properties': {'when': WHEN}}]}}}
    codes = ("W617",)
    dsl = {"talon_when": _dsl}

    @staticmethod
    def compile(c, path, body):
        return TalonPhase()

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: the stock becomes the talon; a talon that receives nothing is a slip (W617)."""
        if table.stock == 0 and not table.talon:
            table.report("W617", "the talon receives no cards: every card is dealt before it", index,
                         "deal fewer cards each, or remove the talon", WARNING)
        table.talon, table.stock, table.last_dealt = table.stock, 0, index

    @staticmethod
    def enter(st, phase) -> bool:
        st.talon |= st.stock
        st.stock = 0
        return False

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        return ["The undealt cards go face down to the talon"] + rest(body, {"when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, head_parts, scalar_text
        if isinstance(value, dict):
            text, used = head_parts(value, [WHEN_PART])
            return [f"{pad}talon{text}"] if used and used == set(value) else None
        text = scalar_text(value)
        return None if text is None else [f"{pad}talon {text}"]


CONSTRUCT = Talon
