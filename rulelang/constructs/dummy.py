"""``dummy``: a seat's hand is laid open after the opening lead and another seat plays it.

YAML ``- dummy: {seat: "next(next(declarer))", by: declarer}``; DSL ``dummy next(next(declarer)) by
declarer``. Placed before trick play: from the first card of the deal's trick play on,
everyone sees the dummy's hand (the observation's ``dummy_hand``, every information state),
and when it is the dummy's turn the ``by`` seat chooses its card (``current_player()`` is
then that seat; the card is still the dummy's, played to the dummy's place in the trick).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DealPart, Lines
from rulelang.compile.exprcompile import SEAT, EvalError
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class DummyPhase(PhaseBase):
    """``seat``'s hand is exposed after the opening lead and played by ``by``."""

    seat: Rule | None = None
    by: Rule | None = None
    kind: str = "dummy"


class DummyState(DealPart):
    """The dummy's seat and the seat that plays its cards (-1: no dummy this deal)."""

    def __init__(self, game) -> None:
        self.seat = -1
        self.by = -1


def _dsl(b, meta, children):
    """``dummy SEAT by SEAT [when COND]``."""
    seat, by, when = children
    return b.phase("dummy", meta, [("seat", seat), ("by", by), ("when", when)])


def exposed(st) -> bool:
    """Whether the dummy's hand lies open: a dummy was named and a card of trick play has been played."""
    return st.dummy.seat >= 0 and bool(st.tricks.trick or st.tricks.trick_winners)


class Dummy(Construct):
    """A seat's hand is laid open after the opening lead and played by another seat."""

    kind = "dummy"
    batch_kernel = "rulelang.batch.auction:DUMMY"
    keeps_hands = True
    order = 62
    summary = "a hand laid open after the opening lead and played by another seat"
    example = {"seat": "next(next(declarer))", "by": "declarer"}
    schema = {'entry': "A hand laid open after the opening lead, played by another seat.",
              'defs': {'dummyPhase': {'title': 'a mapping like {seat: next(next(declarer)), by: declarer}',
                                      'description': "The dummy: from the first card of trick play on, this seat's "
                                                     "hand is seen by everyone and the by seat plays its cards.",
                                      'type': 'object',
                                      'additionalProperties': False,
                                      'required': ['seat', 'by'],
                                      'properties': {'seat': {'description': 'The dummy, e.g. next(next(declarer)).',
                                                              '$ref': '#/$defs/seatExpr'},
                                                     'by': {'description': "The seat that plays the dummy's cards, "
                                                                           "e.g. declarer.",
                                                            '$ref': '#/$defs/seatExpr'},
                                                     'when': WHEN}}}}
    codes = ("R368",)
    tallied = False
    dsl = {"dummy": _dsl}
    part = DummyState

    @staticmethod
    def compile(c, path, body):
        if str(body.get("seat")).replace(" ", "") == str(body.get("by")).replace(" ", ""):
            c.error("R368", f"the dummy `{body.get('seat')}` is the seat that plays it", path + ("by",),
                    "another seat plays the dummy's cards, usually the declarer: `by: declarer`")
        return DummyPhase(c.rule(path + ("seat",), SEAT), c.rule(path + ("by",), SEAT))

    @staticmethod
    def dump(phase) -> str:
        return f" `{phase.seat.text}` by `{phase.by.text}`"

    @staticmethod
    def enter(st, phase) -> bool:
        seat, by = phase.seat.fn(st, None), phase.by.fn(st, None)
        if seat < 0 or by < 0 or seat == by:
            raise EvalError(f"the dummy must be a seat played by another seat (dummy {seat + 1}, by {by + 1})",
                            phase.span)
        st.dummy.seat, st.dummy.by = seat, by
        return False

    @staticmethod
    def acts_for(st, seat: int) -> int:
        part = st.dummy
        step = st.step
        return part.by if seat == part.seat and step is not None and step.kind == "tricks" else seat

    @staticmethod
    def observe(st, player: int) -> dict:
        part = st.dummy
        if part.seat < 0:
            return {}
        seen = {"dummy": st.game.seat_name(part.seat)}
        if exposed(st):
            seen["dummy_hand"] = st.game.deck.names(st.hands[part.seat])
        return seen

    @staticmethod
    def informs(st, player: int) -> str:
        part = st.dummy
        if not exposed(st) or player == part.seat:
            return ""
        return f" | dummy {st.game.seat_name(part.seat)}: {' '.join(st.game.deck.names(st.dealt[part.seat]))}"

    @staticmethod
    def public_holdings(st) -> dict[int, int]:
        return {st.dummy.seat: st.hands[st.dummy.seat]} if exposed(st) else {}

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        return [f"{ctx.say(body.get('seat'))} is the dummy: after the opening lead his hand is laid open for everyone "
                f"to see, and {ctx.say(body.get('by'))} plays its cards"] + rest(body, {"seat", "by", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts
        if not isinstance(value, dict) or set(value) - {"seat", "by", "when"} or "seat" not in value:
            return None
        seat = expr_text(value["seat"])
        text, used = head_parts(value, [("by", "by", expr_text), WHEN_PART])
        return [f"{pad}dummy {seat}{text}"] if seat is not None and used == set(value) - {"seat"} else None


CONSTRUCT = Dummy
