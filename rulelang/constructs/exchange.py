"""``exchange``: each seat still in discards up to ``max`` cards and draws as many from the talon.

YAML ``- exchange: {from: forehand, max: 3}``; DSL ``exchange from forehand max 3``. When
the talon runs short, a seat may exchange at most the cards left; with ``refill: discards`` the cards the
earlier seats of this exchange laid away are shuffled into the talon first (Bourré, Rams: "if the pack runs
out, the discards are shuffled and used"). May be a step of ``turns``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import CHANCE, WHEN, Construct, DealPart, Lines, bits, turn_order
from rulelang.diagnostics import WARNING, Diagnostic
from rulelang.compile.exprcompile import SEAT
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class ExchangePhase(PhaseBase):
    """Each seat in turn from ``start`` discards up to ``max`` cards and draws as many from the talon."""

    start: Rule
    max: int
    refill: bool = False
    kind: str = "exchange"


class ExchangeState(DealPart):
    """The seats in turn (``order``, ``pos``), the cards discarded so far and the draws still pending; the cards
    the seats that finished laid away (``laid``, which a refill shuffles into the talon) and how many cards the
    last refill gave back (``refilled``, until the first card drawn after it)."""

    copied = ("order",)

    def __init__(self, game) -> None:
        self.order: list[int] = []
        self.pos = self.count = self.pending = self.laid = self.mine = self.refilled = 0
        self.refill = False


def _dsl(b, meta, children):
    """``exchange [from SEAT] [max N] [when COND]``."""
    source, most, when = children
    return b.phase("exchange", meta, [("from", source), ("max", most), ("when", when)])


class Exchange(Construct):
    """Each active seat in turn discards 0..max cards, then draws as many from the talon (chance)."""

    kind = "exchange"
    batch_kernel = "rulelang.batch.kernels:EXCHANGE"
    writes = ("discards",)
    order = 40
    summary = "each seat exchanges cards with the talon"
    example = {"from": "forehand", "max": 3}
    schema = {'entry': 'Each seat in turn discards cards and draws as many from the talon.',
              'defs': {'exchangePhase': {'title': 'a mapping like {from: forehand, max: 3}',
                                         'description': 'Exchanging cards with the talon.',
                                         'type': 'object',
                                         'additionalProperties': False,
                                         'required': ['from', 'max'],
                                         'properties': {'from': {'description': 'The seat that exchanges first; the '
                                                                                'others follow in the direction.',
                                                                 '$ref': '#/$defs/seatExpr'},
                                                        'max': {'description': 'The most cards a seat may exchange.',
                                                                '$ref': '#/$defs/intExpr'},
                                                        'refill': {'description': 'discards: when the talon runs '
                                                                   'short, the cards the earlier seats of this '
                                                                   'exchange laid away are shuffled into it.',
                                                                   'enum': ['discards']},
                                                        'when': WHEN}}}}
    codes = ("R321", "W601", "W611", "E509")
    tallied = False
    dsl = {"exchange": _dsl}
    part = ExchangeState
    public = False
    step = True
    words = "exchange — discard a card to the talon, or done to draw as many"

    @staticmethod
    def compile(c, path, body):
        return ExchangePhase(c.rule(path + ("from",), SEAT), c.number(path + ("max",), 0),
                             body.get("refill") == "discards")

    @staticmethod
    def dump(phase) -> str:
        return f" from `{phase.start.text}` max {phase.max}" + (" refill discards" if phase.refill else "")

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: what the exchange may ask of the talon."""
        asked = phase.max * table.players
        if not table.talon:
            table.report("R321", "an exchange with no talon to draw from", index,
                         "put `talon: rest` before the exchange")
        elif phase.max < 1 and table.literal.get(index):
            table.report("W611", f"an exchange of at most {phase.max} cards lets nobody exchange anything", index,
                         "set `max` to at least 1, or remove the exchange", WARNING)
        elif asked > table.talon and not phase.refill:
            table.report("W601", f"the talon holds {table.talon} cards but the exchange may ask for up to {asked}; "
                         "later players get what is left", index, "this is allowed; lower `max` if it is not meant",
                         WARNING)

    @staticmethod
    def enter(st, phase) -> bool:
        if phase.max <= 0:
            return False
        part = st.exchange
        part.order = turn_order(st, phase.start.fn(st, None), st.active)
        part.pos, part.count, part.pending, part.laid, part.mine, part.refilled = 0, 0, 0, 0, 0, 0
        part.refill = phase.refill
        return Exchange._turn(st, part)

    @staticmethod
    def _turn(st, part) -> bool:
        while part.pos < len(part.order):
            if st.talon or part.refill and part.laid:
                st.current = part.order[part.pos]
                return True
            part.pos += 1
        return False

    @staticmethod
    def legal(st, phase):
        if st.exchange.pending:
            return bits(st.talon)
        legal = bits(st.hands[st.current])
        legal.append(st.game.done_action)
        return legal

    @staticmethod
    def draws(st, phase) -> tuple[int, int]:
        """The talon the pending draw comes from, and how many cards it takes."""
        return st.talon, st.exchange.pending

    @staticmethod
    def seer(st, phase, action):
        part = st.exchange
        return part.order[part.pos] if part.pending or action < st.game.num_cards else -1

    @staticmethod
    def receiver(st, phase) -> int:
        part = st.exchange
        return part.order[part.pos] if part.pending else -1

    @staticmethod
    def apply_drawn(st, phase, cards: list[int]) -> bool:
        """The whole pending draw at once (see :meth:`Deal.apply_drawn`)."""
        part = st.exchange
        seat = part.order[part.pos]
        drawn = 0
        for card in cards:
            drawn |= 1 << card
        st.talon ^= drawn
        st.hands[seat] |= drawn
        st.seen_tail.extend([seat] * len(cards))
        part.pending -= len(cards)
        part.refilled = 0
        return False if part.pending else Exchange._next_seat(st, part)

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.exchange
        seat = part.order[part.pos]
        if part.pending:
            st.talon ^= 1 << action
            st.hands[seat] |= 1 << action
            part.pending -= 1
            part.refilled = 0
            if part.pending:
                return False
            return Exchange._next_seat(st, part)
        if action >= st.game.num_cards:
            return Exchange._draw(st, part)
        st.hands[seat] ^= 1 << action
        st.discards[seat] |= 1 << action
        st.out |= 1 << action
        part.mine |= 1 << action
        part.count += 1
        if part.count >= phase.max or part.count >= (st.talon | (part.laid if phase.refill else 0)).bit_count():
            return Exchange._draw(st, part)
        return False

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        seat = st.game.seat_name(st.current)
        name = st.action_to_string(action)
        if 0 <= action < st.game.num_cards and not st.exchange.pending:
            return Diagnostic("E509", f"{seat} cannot discard {name}: it is not in {seat}'s hand", phase.span,
                              f"discard one of {' '.join(st.game.deck.names(st.hands[st.current]))}, or say done")
        return Construct.explain(st, phase, action)

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        if actor < 0:
            if st.exchange.refilled:
                deal["decisions"].append({"seat": "chance", "phase": "refill", "action": str(st.exchange.refilled),
                                          "opens": f"the {st.exchange.refilled} cards laid away are shuffled "
                                                   "into the talon"})
            deal["talon"].append(name)
            receiver = st.game.seat_name(Exchange.receiver(st, step))
            deal["decisions"].append({"seat": receiver, "phase": "draw", "action": name, "private": True})
        elif action < st.game.num_cards:
            deal["decisions"].append({"seat": seat, "phase": "discard", "action": name, "private": True})
        else:
            Construct.record(st, step, actor, action, name, seat, deal)

    @staticmethod
    def _draw(st, part) -> bool:
        st.put("decisions", part.order[part.pos], f"exchanges {part.count}")
        if part.count:
            if part.count > st.talon.bit_count():
                Exchange._refill(st, part)
            part.pending, part.count = part.count, 0
            st.current = CHANCE
            return False
        return Exchange._next_seat(st, part)

    @staticmethod
    def _refill(st, part) -> None:
        """The cards laid away by the seats that finished this exchange go back into the talon, unseen."""
        laid = part.laid
        st.talon |= laid
        st.out &= ~laid
        for seat in range(st.game.num_players):
            st.discards[seat] &= ~laid
        part.laid, part.refilled = 0, laid.bit_count()

    @staticmethod
    def _next_seat(st, part) -> bool:
        part.laid, part.mine = part.laid | part.mine, 0
        part.pos += 1
        part.count = 0
        return not Exchange._turn(st, part)

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return None if action < st.game.num_cards else "ends the exchange"

    @staticmethod
    def private_words(st, step, action: int, name: str) -> str | None:
        return f"you lay away {name}" if action < st.game.num_cards else None

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import count, rest
        most = body.get("max", 0)
        if ctx.reader.params.get(most, most) == 0:
            return [f"No exchange: a player may exchange at most {ctx.say(most)} cards"] + \
                rest(body, {"from", "max", "when"})
        return [f"Starting with {ctx.say(body.get('from'))} and going {ctx.direction}, each player still in may "
                f"discard up to {count(body.get('max', 0), 'card', ctx)}, out of play, and draw as many from the "
                "talon", "When the talon runs short, the cards the earlier players laid away are shuffled into it"
                if body.get("refill") == "discards" else
                "When the talon runs short, a player may exchange at most the cards left"] + \
            rest(body, {"from", "max", "when", "refill"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, plain_head
        return plain_head("exchange", {"from", "max", "when"},
                          [("from", "from", expr_text), ("max", "max", expr_text), WHEN_PART])(value, pad)


CONSTRUCT = Exchange
