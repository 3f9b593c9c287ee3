"""``take_up``: a seat takes the turned-up card into its hand, then discards as many face down.

YAML ``- take_up: {by: dealer, discard: 1, when: "trump == suit(turned)"}``; DSL
``take_up by dealer discard 1 when trump == suit(turned)``. Everyone sees the card go into
the seat's hand (and knows he holds it until he plays it); the seat alone sees what it
discards. With ``keep: true`` (the default) the card taken up may not be discarded, as
OpenSpiel plays it. Follows a ``turn_up``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.deal_counts import take_and_discard
from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, bits
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import SEAT
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class TakeUpPhase(PhaseBase):
    """``by`` takes the turned-up cards, then discards ``discard`` cards (not those taken, with ``keep``)."""

    by: Rule | None = None
    discard: int = 1
    keep: bool = True
    kind: str = "take_up"


class TakeUpState(DealPart):
    """The seat that took the cards up (-1: none), the cards taken, and how many it still discards."""

    def __init__(self, game) -> None:
        self.seat = -1
        self.taken = 0
        self.left = 0


def _dsl(b, meta, children):
    """``take_up by SEAT [discard N] [when COND]``."""
    by, discard, when = children
    return b.phase("take_up", meta, [("by", by), ("discard", discard), ("when", when)])


class TakeUp(Construct):
    """A seat takes the turned-up card into its hand and discards as many cards face down."""

    kind = "take_up"
    batch_kernel = "rulelang.batch.kernels_more:TAKE_UP"
    writes = ("discards", "dealt")
    order = 58
    summary = "a seat takes the turned-up card and discards"
    example = {"by": "dealer", "discard": 1}
    schema = {'entry': 'A seat takes the turned-up card into its hand, then discards as many face down.',
              'defs': {'takeUpPhase': {'title': 'a mapping like {by: dealer, discard: 1}',
                                       'description': 'A seat takes the turned-up cards (turn_up) into its hand, '
                                                      'then discards as many face down.',
                                       'type': 'object',
                                       'additionalProperties': False,
                                       'required': ['by'],
                                       'properties': {'by': {'description': 'The seat that takes the card, e.g. '
                                                                            'dealer.',
                                                             '$ref': '#/$defs/seatExpr'},
                                                      'discard': {'description': 'How many cards it then discards '
                                                                                 '(default 1).',
                                                                  '$ref': '#/$defs/intExpr'},
                                                      'keep': {'description': 'The card taken up may not be discarded '
                                                                              '(default true).',
                                                               'type': 'boolean'},
                                                      'when': WHEN}}}}
    codes = ("R373", "R374", "R333", "E516")
    tallied = False
    dsl = {"take_up": _dsl}
    part = TakeUpState
    public = False
    words = "discard"

    @staticmethod
    def compile(c, path, body):
        discard = c.number(path + ("discard",), 1)
        if discard < 0:
            c.error("R333", f"a take_up cannot discard {discard} cards", path + ("discard",),
                    "discard as many cards as are taken up (1), or 0 to keep them all")
        return TakeUpPhase(c.rule(path + ("by",), SEAT), discard, bool(body.get("keep", True)))

    @staticmethod
    def dump(phase) -> str:
        return f" by `{phase.by.text}` discard {phase.discard}" + ("" if phase.keep else ", the taken card too")

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: the seat takes the turned-up cards and discards; it must hold enough to discard,
        and ends with as many cards as the others (or trick play leaves someone without a card)."""
        taken, table.turned = table.turned, 0
        take_and_discard(table, index, f"`{phase.by.text}`", taken, phase.discard, keeps_taken=phase.keep)

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.take_up = st.take_up.copy()
        seat = phase.by.fn(st, None)
        cards = st.turn_up.cards if hasattr(st, "turn_up") else 0
        part.seat, part.taken, part.left = seat, cards, phase.discard
        if hasattr(st, "turn_up"):
            st.turn_up = st.turn_up.copy()
            st.turn_up.cards = 0
        st.hands[seat] |= cards
        st.dealt[seat] |= cards
        st.put("decisions", seat, "takes up " + " ".join(st.game.deck.names(cards)))
        if part.left <= 0:
            return False
        st.current = seat
        return True

    @staticmethod
    def _may_discard(st, phase) -> int:
        part = st.take_up
        return st.hands[part.seat] & ~(part.taken if phase.keep else 0)

    @staticmethod
    def legal(st, phase):
        return bits(TakeUp._may_discard(st, phase))

    @staticmethod
    def seer(st, phase, action):
        return st.take_up.seat

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.take_up
        st.hands[part.seat] ^= 1 << action
        st.discards[part.seat] |= 1 << action
        st.out |= 1 << action
        part.left -= 1
        return part.left <= 0

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        part = st.take_up
        if 0 <= action < st.game.num_cards and part.taken >> action & 1 and phase.keep:
            name = st.action_to_string(action)
            return Diagnostic("E516", f"{st.game.seat_name(part.seat)} may not discard {name}: it is the card he took "
                              "up", phase.span, f"discard one of {' '.join(st.game.deck.names(TakeUp._may_discard(st, phase)))}")
        return Construct.explain(st, phase, action)

    @staticmethod
    def public_holdings(st) -> dict[int, int]:
        part = st.take_up
        still = part.taken & st.hands[part.seat] if part.seat >= 0 else 0
        return {part.seat: still} if still else {}

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        deal["decisions"].append({"seat": seat, "phase": "take_up", "action": name, "words": "discards",
                                  "private": True})

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return "discards a card"

    @staticmethod
    def private_words(st, step, action: int, name: str) -> str | None:
        return f"you discard {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        discard = body.get("discard", 1)
        keep = "" if body.get("keep", True) is False else ", but not the card he took up"
        return [f"{ctx.say(body.get('by'))} takes the turned-up card into his hand and discards {ctx.say(discard)} "
                f"card(s) face down{keep}"] + rest(body, {"by", "discard", "keep", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts, scalar_text
        if not isinstance(value, dict) or not set(value) <= {"by", "discard", "when"} or "by" not in value:
            return None
        text, used = head_parts(value, [("by", "by", expr_text), ("discard", "discard", scalar_text), WHEN_PART])
        return [f"{pad}take_up{text}"] if used == set(value) else None


CONSTRUCT = TakeUp
