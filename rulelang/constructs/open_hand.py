"""``open_hand``: a seat lays its hand open for everyone to see, and goes on playing it itself.

YAML ``- open_hand: {seat: declarer, when: "contract == null_open"}``; DSL ``open_hand declarer
when contract == null_open``. From the phase on, for the rest of the deal, every seat sees the
open hand (the observation's ``open_hand`` and ``open_cards``, every information state), as in
contracts a declarer plays with his cards face up; unlike a ``dummy`` the seat chooses its own
cards. Placed before the trick play it is shown for.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DealPart, Lines
from rulelang.compile.exprcompile import SEAT, EvalError
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class OpenHandPhase(PhaseBase):
    """``seat``'s hand is shown to everyone from here on."""

    seat: Rule | None = None
    kind: str = "open_hand"


class OpenHandState(DealPart):
    """The open seat (-1: no hand is open this deal) and the cards it held when it laid them open."""

    def __init__(self, game) -> None:
        self.seat = -1
        self.cards = 0


def _dsl(b, meta, children):
    """``open_hand SEAT [when COND]``."""
    seat, when = children
    return b.phase("open_hand", meta, [("seat", seat), ("when", when)])


def later_trick_play(c, path: tuple) -> bool:
    """Whether a ``tricks`` phase follows the top-level phase at ``path`` (``("phases", index, kind)``; True when
    that cannot be told, as inside a ``turns`` phase)."""
    phases = c.data.get("phases")
    if len(path) != 3 or path[0] != "phases" or not isinstance(phases, list) or not isinstance(path[1], int):
        return True
    return any(isinstance(entry, dict) and "tricks" in entry for entry in phases[path[1] + 1:])


class OpenHand(Construct):
    """A seat's hand laid open to everyone for the rest of the deal, still played by that seat."""

    kind = "open_hand"
    batch_kernel = "rulelang.batch.kernels_more:OPEN_HAND"
    keeps_hands = True
    order = 63
    summary = "a hand laid open to everyone for the rest of the deal, played by its own seat"
    example = {"seat": "declarer"}
    schema = {'entry': "A hand laid open to everyone for the rest of the deal, played by its own seat.",
              'defs': {'open_handPhase': {'title': 'a mapping like {seat: declarer}',
                                          'description': "From this phase on, this seat's hand is seen by everyone; "
                                                         "the seat still plays its own cards.",
                                          'type': 'object',
                                          'additionalProperties': False,
                                          'required': ['seat'],
                                          'properties': {'seat': {'description': 'The seat that lays its hand open, '
                                                                                 'e.g. declarer.',
                                                                  '$ref': '#/$defs/seatExpr'},
                                                         'when': WHEN}}}}
    codes = ("R369",)
    tallied = False
    dsl = {"open_hand": _dsl}
    part = OpenHandState

    @staticmethod
    def compile(c, path, body):
        if not later_trick_play(c, path):
            c.error("R369", "the hand is laid open after the last trick play, when no card is left to show", path,
                    "put `open_hand` before the `tricks` phase it is shown for")
        return OpenHandPhase(c.rule(path + ("seat",), SEAT))

    @staticmethod
    def dump(phase) -> str:
        return f" `{phase.seat.text}`"

    @staticmethod
    def enter(st, phase) -> bool:
        seat = phase.seat.fn(st, None)
        if seat < 0:
            raise EvalError("the seat that lays its hand open is none", phase.span)
        st.open_hand.seat, st.open_hand.cards = seat, st.hands[seat]
        return False

    @staticmethod
    def observe(st, player: int) -> dict:
        part = st.open_hand
        if part.seat < 0:
            return {}
        return {"open_hand": st.game.seat_name(part.seat), "open_cards": st.game.deck.names(st.hands[part.seat])}

    @staticmethod
    def informs(st, player: int) -> str:
        part = st.open_hand
        if part.seat < 0 or player == part.seat:
            return ""
        return f" | open {st.game.seat_name(part.seat)}: {' '.join(st.game.deck.names(part.cards))}"

    @staticmethod
    def public_holdings(st) -> dict[int, int]:
        return {st.open_hand.seat: st.hands[st.open_hand.seat]} if st.open_hand.seat >= 0 else {}

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        return [f"{ctx.say(body.get('seat'))} lays his hand open: for the rest of the deal everyone sees it, and he "
                "plays it himself"] + rest(body, {"seat", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts
        if not isinstance(value, dict) or set(value) - {"seat", "when"} or "seat" not in value:
            return None
        seat = expr_text(value["seat"])
        text, used = head_parts(value, [WHEN_PART])
        return [f"{pad}open_hand {seat}{text}"] if seat is not None and used == set(value) - {"seat"} else None


CONSTRUCT = OpenHand
