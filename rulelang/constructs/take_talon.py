"""``take_talon``: a seat takes the whole talon into its hand, then discards as many cards face down.

YAML ``- take_talon: {by: declarer, discard: 2, when: "hand_game == pick_up"}``; DSL
``take_talon by declarer discard 2 when hand_game == pick_up``. The seat alone sees the
cards it takes (its observation's ``took`` and its information state ``| took …``) and the
cards it discards (``my_discards``); the others see only that it took the talon and
discarded. ``forbid`` makes a card illegal to discard when it holds (``player`` the seat,
``card`` the card: ``forbid: "card in kings"``). Rules read the discards as
``discarded(SEATS)`` — Skat's declarer counts the card points of ``talon | discarded({declarer})``,
the Skat whether he played Hand or picked it up.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.codegen import part_attr
from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, bits
from rulelang.diagnostics import Diagnostic
from rulelang.exprcompile import BOOL, CARD, SEAT, Binding, EvalError
from rulelang.ir import PhaseBase, Rule


@dataclass
class TakeTalonPhase(PhaseBase):
    """``by`` takes the talon, then discards ``discard`` cards, none that ``forbid`` rules out."""

    by: Rule | None = None
    discard: int = 0
    forbid: Rule | None = None
    kind: str = "take_talon"


class TakeTalonState(DealPart):
    """The seat that took the talon (-1: none), the cards it took, how many it still discards, and the
    card being weighed by ``forbid`` (``card``)."""

    def __init__(self, game) -> None:
        self.seat = -1
        self.taken = 0
        self.left = 0
        self.card = -1


def _dsl(b, meta, children):
    """``take_talon by SEAT [discard N] [forbid COND] [when COND]``."""
    by, discard, forbid, when = children
    return b.phase("take_talon", meta, [("by", by), ("discard", discard), ("forbid", forbid), ("when", when)])


class TakeTalon(Construct):
    """A seat takes every talon card into its hand and discards as many face down."""

    kind = "take_talon"
    order = 57
    summary = "a seat takes the talon into its hand and discards"
    example = {"by": "declarer", "discard": 2}
    schema = {'entry': 'A seat takes the whole talon into its hand, then discards cards face down.',
              'defs': {'takeTalonPhase': {'title': 'a mapping like {by: declarer, discard: 2}',
                                          'description': 'A seat takes every talon card into its hand (seen by it '
                                                         'alone), then discards as many cards face down.',
                                          'type': 'object',
                                          'additionalProperties': False,
                                          'required': ['by', 'discard'],
                                          'properties': {'by': {'description': 'The seat that takes the talon, '
                                                                               'e.g. declarer.',
                                                                '$ref': '#/$defs/seatExpr'},
                                                         'discard': {'description': 'How many cards it then '
                                                                                    'discards, e.g. 2.',
                                                                     '$ref': '#/$defs/intExpr'},
                                                         'forbid': {'description': 'A card may not be discarded '
                                                                                   'when this holds (player is the '
                                                                                   'seat, card the card), e.g. card '
                                                                                   'in kings.',
                                                                    '$ref': '#/$defs/boolExpr'},
                                                         'when': WHEN}}}}
    codes = ("R371", "E524")
    tallied = False
    dsl = {"take_talon": _dsl}
    part = TakeTalonState
    public = False
    words = "discard"

    @staticmethod
    def compile(c, path, body):
        discard = c.number(path + ("discard",), 0)
        if discard < 0:
            c.error("R371", f"a take_talon cannot discard {discard} cards", path + ("discard",),
                    "discard as many cards as the talon holds, or 0 to keep them all")
        forbid = None
        if body.get("forbid") is not None:
            scope = c.player_scope().child(card=Binding(CARD, part_attr("take_talon", "card")))
            forbid = c.rule(path + ("forbid",), BOOL, scope)
        return TakeTalonPhase(c.rule(path + ("by",), SEAT), discard, forbid)

    @staticmethod
    def dump(phase) -> str:
        forbid = f"; forbid when `{phase.forbid.text}`" if phase.forbid is not None else ""
        return f" by `{phase.by.text}` discard {phase.discard}{forbid}"

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.take_talon
        seat = phase.by.fn(st, None)
        if seat < 0:
            raise EvalError(f"`{phase.by.text}` names no seat to take the talon", phase.by.span)
        part.seat, part.taken, part.left = seat, st.talon, phase.discard
        st.hands[seat] |= st.talon
        st.talon = 0
        st.decisions[seat] = "takes the talon"
        if part.left <= 0:
            return False
        if bin(st.hands[seat]).count("1") < part.left:
            raise EvalError(f"{st.game.seat_name(seat)} holds fewer than {part.left} cards to discard", phase.span)
        st.current = seat
        return TakeTalon._check_left(st, phase)

    @staticmethod
    def _check_left(st, phase) -> bool:
        if not TakeTalon._may_discard(st, phase):
            raise EvalError(f"{st.game.seat_name(st.current)} has no card left to discard: `{phase.forbid.text}` "
                            "forbids them all", phase.forbid.span)
        return True

    @staticmethod
    def _may_discard(st, phase) -> int:
        part = st.take_talon
        hand = st.hands[part.seat]
        if phase.forbid is None:
            return hand
        allowed = 0
        for card in bits(hand):
            part.card = card
            if not phase.forbid.fn(st, part.seat):
                allowed |= 1 << card
        return allowed

    @staticmethod
    def legal(st, phase):
        return bits(TakeTalon._may_discard(st, phase))

    @staticmethod
    def seer(st, phase, action):
        return st.take_talon.seat

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.take_talon
        st.hands[part.seat] ^= 1 << action
        st.discards[part.seat] |= 1 << action
        st.out |= 1 << action
        part.left -= 1
        return part.left <= 0 or not TakeTalon._check_left(st, phase)

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        part = st.take_talon
        if phase.forbid is not None and 0 <= action < st.game.num_cards and st.hands[part.seat] >> action & 1:
            allowed = " ".join(st.game.deck.names(TakeTalon._may_discard(st, phase)))
            return Diagnostic("E524", f"{st.game.seat_name(part.seat)} may not discard {st.action_to_string(action)}: "
                              f"the rule `{phase.forbid.text}` forbids it", phase.forbid.span,
                              f"discard one of {allowed}")
        return Construct.explain(st, phase, action)

    @staticmethod
    def observe(st, player: int) -> dict:
        part = st.take_talon
        if part.seat < 0:
            return {}
        seen = {"talon_taken_by": st.game.seat_name(part.seat)}
        if player == part.seat:
            seen["took"] = st.game.deck.names(part.taken)
        return seen

    @staticmethod
    def informs(st, player: int) -> str:
        part = st.take_talon
        if part.seat < 0 or player != part.seat:
            return ""
        return " | took " + " ".join(st.game.deck.names(part.taken))

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        deal["decisions"].append({"seat": seat, "phase": "take_talon", "action": name, "words": "discards",
                                  "private": True})

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return "discards a card"

    @staticmethod
    def private_words(st, step, action: int, name: str) -> str | None:
        return f"you discard {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.explain import rest
        lines = [f"{ctx.say(body.get('by'))} takes the talon into his hand, unseen by the others, and discards "
                 f"{ctx.say(body.get('discard', 0))} card(s) face down"]
        if body.get("forbid") is not None:
            lines.append(f"He may not discard a card when {ctx.say(body['forbid'])}")
        return lines + rest(body, {"by", "discard", "forbid", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.fmt import WHEN_PART, expr_text, head_parts, scalar_text
        if not isinstance(value, dict) or not set(value) <= {"by", "discard", "forbid", "when"} or "by" not in value:
            return None
        text, used = head_parts(value, [("by", "by", expr_text), ("discard", "discard", scalar_text),
                                        ("forbid", "forbid", expr_text), WHEN_PART])
        return [f"{pad}take_talon{text}"] if used == set(value) else None


CONSTRUCT = TakeTalon
