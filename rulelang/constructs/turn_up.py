"""``turn_up``: chance turns up the next card of the stock for everyone to see; it stays out of play.

YAML ``- turn_up: {var: turned}``; DSL ``turn_up turned``. The card is stored in the deal
variable ``var`` (a card), so rules read it: ``set trump = suit(turned)`` makes its suit
trumps. The card lies face up beside the stock for the rest of
the deal; nobody holds it.

With ``from: SEAT`` (YAML or the generic form) the card turned up is the last card dealt to that seat
— a dealer who turns his own last card for trumps: ``{var: turned, from: dealer}``. It stays in his
hand, face up to everyone until he plays it (every observation's ``turned_up``, no sampled world
moves it). Chance draws it from his hand, which is the same as his last card of a shuffled deal; an
explicit deal turns the last card it lists for the seat (a log names it as ``turned_from_hand``).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import CHANCE, WHEN, Construct, DealPart, DiffKey, Lines, bits
from rulelang.compile.exprcompile import CARD, SEAT, EvalError
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class TurnUpPhase(PhaseBase):
    """Chance turns up one card of the stock; it is stored in the deal variable ``var``."""

    var: str = "turned"
    seat: Rule | None = None
    kind: str = "turn_up"


class TurnUpState(DealPart):
    """The cards turned up from the stock this deal (a mask), and those turned up in a hand, which stay there
    (``shown``, and the seat whose hand: ``holder``)."""

    def __init__(self, game) -> None:
        self.cards = 0
        self.shown = 0
        self.holder = -1


def _dsl(b, meta, children):
    """``turn_up VAR [when COND]``."""
    var, when = children
    return b.phase("turn_up", meta, [("var", var), ("when", when)])


class TurnUp(Construct):
    """Chance turns up a card of the stock, face up for everyone, out of play for the deal."""

    kind = "turn_up"
    batch_kernel = "rulelang.batch.kernels_more:TURN_UP"
    order = 25
    summary = "chance turns up a card for everyone to see"
    example = {"var": "turned"}
    schema = {'entry': 'A card of the stock is turned up for everyone to see.',
              'defs': {'turnUpPhase': {'title': 'a mapping like {var: turned}',
                                       'description': 'Chance turns up the next card of the stock; it lies face up '
                                                      'for the rest of the deal and nobody holds it.',
                                       'type': 'object',
                                       'additionalProperties': False,
                                       'required': ['var'],
                                       'properties': {'var': {'description': 'The deal variable that holds the '
                                                                             'card, e.g. turned: rules read it as '
                                                                             'suit(turned).',
                                                              '$ref': '#/$defs/name'},
                                                      'from': {'description': 'The seat whose last card dealt is '
                                                                              'turned up instead; it stays in his '
                                                                              'hand, face up (e.g. dealer).',
                                                               '$ref': '#/$defs/seatExpr'},
                                                      'when': WHEN}}}}
    codes = ("R332",)
    tallied = False
    deals = True
    dsl = {"turn_up": _dsl}
    diff_keys = {"var": DiffKey(text=str)}
    identity = "var"
    part = TurnUpState

    @staticmethod
    def deal_vars(c, body) -> dict[str, str]:
        return {str(body.get("var")): CARD}

    @staticmethod
    def compile(c, path, body):
        return TurnUpPhase(str(body.get("var")), c.rule(path + ("from",), SEAT) if "from" in body else None)

    @staticmethod
    def dump(phase) -> str:
        return f" {phase.var}" + (f" from `{phase.seat.text}`" if phase.seat is not None else "")

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: one card leaves the stock; there must be one (a card turned in a hand stays there)."""
        if phase.seat is not None:
            return
        if table.stock < 1:
            table.report("R332", f"there is no card left to turn up for `{phase.var}`: every card is dealt before it",
                         index, "deal fewer cards each, so that the stock keeps a card to turn up (turning it up before "
                         "the deal leaves the deal a card short)")
            return
        table.stock -= 1
        table.turned += 1
        table.last_dealt = index

    @staticmethod
    def enter(st, phase) -> bool:
        if phase.seat is not None:
            seat = phase.seat.fn(st, None)
            if seat is None or seat < 0 or not st.hands[seat]:
                raise EvalError(f"`{phase.seat.text}` holds no card to turn up for `{phase.var}`", phase.span)
            st.turn_up.holder = seat
        elif not st.stock:
            raise EvalError(f"there is no card left to turn up for `{phase.var}`", phase.span)
        st.current = CHANCE
        return True

    @staticmethod
    def _source(st, phase) -> int:
        return st.hands[st.turn_up.holder] if phase.seat is not None else st.stock

    @staticmethod
    def legal(st, phase):
        return bits(TurnUp._source(st, phase))

    @staticmethod
    def draws(st, phase) -> tuple[int, int]:
        """The stock (or the seat's hand) the card is turned from, and one card."""
        return TurnUp._source(st, phase), 1

    @staticmethod
    def apply(st, phase, action) -> bool:
        if phase.seat is not None:
            st.turn_up.shown |= 1 << action
        else:
            st.stock ^= 1 << action
            st.turn_up.cards |= 1 << action
        st.put("vars", phase.var, action)
        return True

    @staticmethod
    def apply_drawn(st, phase, cards: list[int]) -> bool:
        """``apply`` of the one drawn card, seen by everyone."""
        st.seen_tail.append(-1)
        return TurnUp.apply(st, phase, cards[0])

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        if step.seat is not None:
            deal.setdefault("turned_from_hand", []).append(name)
        else:
            deal["talon"].append(name)
        deal.setdefault("turned_up", []).append(name)

    @staticmethod
    def deal_result(st) -> dict:
        cards = st.turn_up.cards | st.turn_up.shown
        return {"turned_up": st.game.deck.names(cards)} if cards else {}

    @staticmethod
    def places(st) -> dict[str, int]:
        return {"turned up": st.turn_up.cards}

    @staticmethod
    def public_holdings(st) -> dict[int, int]:
        part = st.turn_up
        held = part.shown & st.hands[part.holder] if part.holder >= 0 else 0
        return {part.holder: held} if held else {}

    @staticmethod
    def observe(st, player: int) -> dict:
        cards = st.turn_up.cards | st.turn_up.shown
        return {"turned_up": st.game.deck.names(cards)} if cards else {}

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return f"turns up {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        phases = ctx.data.get("phases") or []
        taken = any(isinstance(p, dict) and "take_up" in p for p in phases)
        drawn = any(isinstance(p, dict) and isinstance(p.get("tricks"), dict)
                    and isinstance(p["tricks"].get("draw"), dict) and p["tricks"]["draw"].get("last") == "turned"
                    for p in phases)
        after = ("it lies face up in nobody's hand unless it is taken up (below)" if taken
                 else "it lies face up under the stock and is drawn last (below)" if drawn
                 else "nobody holds it for the rest of the deal")
        if body.get("from") is not None:
            return [f"The last card dealt to {ctx.say(body.get('from'))} is turned up for everyone to see "
                    f"({body.get('var')}); it stays in his hand, face up until he plays it"] + \
                rest(body, {"var", "from", "when"})
        return [f"The next card of the stock is turned up for everyone to see ({body.get('var')}); {after}"] + \
            rest(body, {"var", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, head_parts, scalar_text
        if not isinstance(value, dict) or "var" not in value or not set(value) <= {"var", "when"}:
            return None
        var = scalar_text(value["var"])
        text, used = head_parts(value, [WHEN_PART])
        return [f"{pad}turn_up {var}{text}"] if var is not None and used == set(value) - {"var"} else None


CONSTRUCT = TurnUp
