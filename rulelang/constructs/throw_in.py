"""``throw_in``: a redeal by the same dealer, when some hand ``must`` be thrown in or a holder who ``may`` wants it.

YAML ``- throw_in: {must: COND, may: COND}`` (``player`` is the seat whose hand is
looked at); DSL ``throw_in { must = COND  may = COND }``. A thrown-in deal does not count.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, seats_from, symbol
from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.compile.exprcompile import BOOL
from rulelang.compile.ir import PhaseBase, Rule
from rulelang.validators.registry import check


@dataclass
class ThrowInPhase(PhaseBase):
    """A redeal by the same dealer when some hand ``must`` be thrown in, or a holder who ``may`` chooses to."""

    must: Rule | None = None
    may: Rule | None = None
    kind: str = "throw_in"


class ThrowInState(DealPart):
    """The seats that may throw in (``order``) and whose turn it is (``pos``)."""

    copied = ("order",)

    def __init__(self, game) -> None:
        self.order: list[int] = []
        self.pos = 0


def _for_a_player(condition: str) -> str:
    """A condition on "the player" said of any one player: "a player holds no trump"."""
    return condition.replace("the player", "a player", 1) if "the player" in condition else \
        f"{condition} for some player"


def _as_he(condition: str) -> str:
    """A condition on "the player" after "a player … if": "he holds exactly one trump"."""
    first = condition.replace("the player's", "his", 1) if condition.find("the player's") == \
        condition.find("the player") else condition.replace("the player", "he", 1)
    return first.replace("the player's", "his").replace("the player", "he")


class ThrowIn(Construct):
    """A hand that ``must`` be thrown in redeals at once; a holder who ``may`` is asked throw or keep."""

    kind = "throw_in"
    batch_kernel = "rulelang.batch.kernels_more:THROW_IN"
    keeps_hands = True
    order = 100
    summary = "the cards are thrown in and dealt again"
    example = {"must": "count(hand(player) & trump) == 0"}
    schema = {'entry': 'Throw the cards in and redeal.',
              'defs': {'throwInPhase': {'title': 'a mapping with must and/or may',
                                        'description': 'Throw-in (Zusammenwerfen): the same dealer deals again and '
                                                       'the deal does not count.',
                                        'type': 'object',
                                        'additionalProperties': False,
                                        'properties': {'must': {'description': 'A condition on a hand (player bound) '
                                                                               'that forces a redeal.',
                                                                '$ref': '#/$defs/boolExpr'},
                                                       'may': {'description': 'A condition on a hand (player bound) '
                                                                              'under which its holder may choose to '
                                                                              'throw in.',
                                                               '$ref': '#/$defs/boolExpr'},
                                                       'when': WHEN}}}}
    codes = ("W619",)
    part = ThrowInState
    redeals = True
    words = "throw the cards in, or keep them"

    @staticmethod
    def symbols(c, body) -> list[str]:
        return ["throw", "keep"]

    @staticmethod
    def compile(c, path, body):
        scope = c.player_scope()
        return ThrowInPhase(must=c.optional_rule(path + ("must",), BOOL, scope),
                            may=c.optional_rule(path + ("may",), BOOL, scope))

    @staticmethod
    def blocked(phase) -> str | None:
        from rulelang.validators.probe import is_constant
        if is_constant(phase.must, True):
            return "its `must` condition always holds, so every deal is thrown in and dealt again"
        return None

    @staticmethod
    def blocker_notes(doc, phase) -> list:
        return [("every redeal starts the deal again here", doc.span_of(("phases", 0)))]

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.throw_in
        seats = seats_from(st, st.forehand, (1 << st.game.num_players) - 1)
        if phase.must is not None and any(phase.must.fn(st, seat) for seat in seats):
            st.redeal = True
            return False
        part.order = [seat for seat in seats if phase.may is not None and phase.may.fn(st, seat)]
        part.pos = 0
        if not part.order:
            return False
        st.current = part.order[0]
        return True

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted([ids["throw"], ids["keep"]])

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.throw_in
        if symbol(st, action) == "throw":
            st.put("decisions", st.current, "throws in")
            st.redeal = True
            return True
        part.pos += 1
        if part.pos >= len(part.order):
            return True
        st.current = part.order[part.pos]
        return False

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        lines = []
        if body.get("must") is not None:
            lines.append(f"If {_for_a_player(ctx.say(body['must']))}, the cards are thrown in and the same "
                         "dealer deals again; the deal does not count")
        if body.get("may") is not None:
            lines.append(f"A player may throw the cards in the same way if {_as_he(ctx.say(body['may']))}")
        return (lines or ["Throw-in"]) + rest(body, {"must", "may", "when"})


@check("throw_in_can_throw")
def throw_in_can_throw(doc, game):
    """A throw-in whose ``must`` and ``may`` are missing or never hold never throws the cards in (W619)."""
    from rulelang.validators.probe import is_constant
    for i, phase in enumerate(game.phases):
        if getattr(phase, "kind", None) != "throw_in":
            continue
        if all(rule is None or is_constant(rule, False) for rule in (phase.must, phase.may)):
            yield Diagnostic("W619", "this throw-in never throws the cards in: neither `must` nor `may` can hold",
                             doc.span_of(("phases", i)), "give `must` or `may` a condition on the hand, or remove "
                             "the phase", severity=WARNING)


CONSTRUCT = ThrowIn
