"""``call``: the declarer names a card of a set; whoever holds it is his secret partner.

YAML ``- call: {by: declarer, from: kings, when: "contract == rufer"}``; DSL ``call by declarer
from kings when contract == rufer``. After the bidding the seat names one card of the set
(not one ``forbid`` rules out, with ``player`` the seat and ``card`` the card); everyone
hears it (rules read it as ``called``). The seat that holds it now is the declarer's partner,
known only to itself until the card is played; if the declarer holds it himself, or it lies
in the talon, he plays alone — and nobody is told. Calling a King:
``{by: declarer, from: kings}`` with the contract's ``sides: called``. A single card left is
named without asking.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.compile.codegen import part_attr
from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, bits, permitted
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import BOOL, CARD, CARDS, SEAT, Binding, EvalError
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class CallPhase(PhaseBase):
    """``by`` names one card of ``cards``, none that ``forbid`` rules out; its holder partners him."""

    by: Rule | None = None
    cards: Rule | None = None
    forbid: Rule | None = None
    kind: str = "call"


class CallState(DealPart):
    """The card being weighed by ``forbid`` (``card``)."""

    def __init__(self, game) -> None:
        self.card = -1


def _dsl(b, meta, children):
    """``call [by SEAT] from CARDS [forbid COND] [when COND]``."""
    by, cards, forbid, when = children
    return b.phase("call", meta, [("by", by), ("from", cards), ("forbid", forbid), ("when", when)])


class Call(Construct):
    """The declarer names a card; its holder is his partner, in secret until the card falls."""

    kind = "call"
    forms_sides = True
    batch_kernel = "rulelang.batch.kernels_more:CALL"
    keeps_hands = True
    order = 112
    summary = "the declarer calls a card; its holder is his secret partner"
    example = {"by": "declarer", "from": "kings"}
    schema = {'entry': 'The declarer names a card of a set; its holder becomes his secret partner.',
              'defs': {'callPhase': {'title': 'a mapping like {by: declarer, from: kings}',
                                     'description': 'A seat names one card of a set, heard by all; the seat '
                                                    'holding it is its partner, in secret.',
                                     'type': 'object',
                                     'additionalProperties': False,
                                     'required': ['by', 'from'],
                                     'properties': {'by': {'description': 'The seat that calls, e.g. declarer.',
                                                           '$ref': '#/$defs/seatExpr'},
                                                    'from': {'description': 'The cards it may call, e.g. kings.',
                                                             '$ref': '#/$defs/cardsExpr'},
                                                    'forbid': {'description': 'A card may not be called when this '
                                                                              'holds (player is the seat, card the '
                                                                              'card).',
                                                               '$ref': '#/$defs/boolExpr'},
                                                    'when': WHEN}}}}
    codes = ("R372", "E525")
    tallied = False
    dsl = {"call_card": _dsl}
    part = CallState
    words = "call"

    @staticmethod
    def compile(c, path, body):
        forbid = None
        if body.get("forbid") is not None:
            scope = c.player_scope().child(card=Binding(CARD, part_attr("call", "card")))
            forbid = c.rule(path + ("forbid",), BOOL, scope)
        if not any(str(row.get("sides")) == "called" for row in (c.data.get("contracts") or {}).values()
                   if isinstance(row, dict)):
            c.error("R372", "a `call` names a partner, but no contract forms its sides by a called card", path,
                    "give the contracts that call a partner `sides: called`")
        return CallPhase(c.rule(path + ("by",), SEAT), c.rule(path + ("from",), CARDS), forbid)

    @staticmethod
    def dump(phase) -> str:
        forbid = f"; forbid when `{phase.forbid.text}`" if phase.forbid is not None else ""
        return f" by `{phase.by.text}` from `{phase.cards.text}`{forbid}"

    @staticmethod
    def allowed(st, phase, seat: int) -> int:
        """The cards ``seat`` may call now."""
        cards = phase.cards.fn(st, seat)
        return sum(1 << card for card in permitted(st, st.call, "card", bits(cards), phase.forbid, seat))

    @staticmethod
    def enter(st, phase) -> bool:
        seat = phase.by.fn(st, None)
        if seat < 0:
            raise EvalError(f"`{phase.by.text}` names no seat to call a card", phase.by.span)
        st.current = seat
        cards = bits(Call.allowed(st, phase, seat))
        if not cards:
            raise EvalError(f"{st.game.seat_name(seat)} has no card to call: `{phase.cards.text}` leaves none",
                            phase.cards.span)
        if len(cards) == 1:
            Call._named(st, seat, cards[0])
            return False
        return True

    @staticmethod
    def legal(st, phase):
        return bits(Call.allowed(st, phase, st.current))

    @staticmethod
    def apply(st, phase, action) -> bool:
        Call._named(st, st.current, action)
        return True

    @staticmethod
    def _named(st, seat: int, card: int) -> None:
        st.called, st.revealed = card, False
        holder = next((s for s, hand in enumerate(st.hands) if hand >> card & 1), -1)
        st.side_mask = 1 << seat | (1 << holder if holder >= 0 else 0)
        st.put("decisions", seat, "calls " + st.game.deck.cards[card].name)

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        if 0 <= action < st.game.num_cards:
            name, who = st.action_to_string(action), st.game.seat_name(st.current)
            legal = " ".join(st.game.deck.names(Call.allowed(st, phase, st.current)))
            if phase.forbid is not None and phase.cards.fn(st, st.current) >> action & 1:
                return Diagnostic("E525", f"{who} may not call {name}: the rule `{phase.forbid.text}` forbids it",
                                  phase.forbid.span, f"call one of {legal}")
            return Diagnostic("E525", f"{who} may not call {name}: it is not one of `{phase.cards.text}`",
                              phase.cards.span, f"call one of {legal}")
        return Construct.explain(st, phase, action)

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        deal["decisions"].append({"seat": seat, "phase": "call", "action": name, "words": "calls"})

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return f"calls {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        lines = [f"{ctx.say(body.get('by'))} calls a card of {ctx.say(body.get('from'))}, heard by all: whoever "
                 "holds it is his partner, known only to himself until the card is played (if the caller holds it "
                 "or it lies in the talon, he plays alone)"]
        if body.get("forbid") is not None:
            lines.append(f"He may not call a card when {ctx.say(body['forbid'])}")
        return lines + rest(body, {"by", "from", "forbid", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts
        if not isinstance(value, dict) or not set(value) <= {"by", "from", "forbid", "when"} or "from" not in value:
            return None
        text, used = head_parts(value, [("by", "by", expr_text), ("from", "from", expr_text),
                                        ("forbid", "forbid", expr_text), WHEN_PART])
        return [f"{pad}call{text}"] if used == set(value) else None


CONSTRUCT = Call
