"""``deal``: chance gives every seat a packet of cards, from forehand in the direction of play.

YAML ``- deal: {each: 3}``; DSL ``deal each 3`` (grammar section "deal"). ``each`` may read the deal, with
``player`` bound to the seat dealt to: a last deal that gives the taker two and the others three,
``each: "if player == declarer then 2 else 3"``; ``to: SEATS`` deals only to those seats (a seat out of the
deal receives nothing). The deal arithmetic of ``validate`` stops following the card counts after such a deal.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import CHANCE, WHEN, Construct, DealPart, Lines, bits, seats_from
from rulelang.compile.exprcompile import INT, SEATS, EvalError
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class DealPhase(PhaseBase):
    """Every seat receives ``each`` cards, from forehand in the direction of play."""

    each: int
    per_seat: Rule | None = None
    to: Rule | None = None
    kind: str = "deal"


class DealState(DealPart):
    """The seat each card of the deal goes to (``slots``) and how many are dealt (``pos``)."""

    copied = ("slots",)

    def __init__(self, game) -> None:
        self.slots: list[int] = []
        self.pos = 0


def _dsl(b, meta, children):
    """``deal [each N] [when COND]``."""
    each, when = children
    return b.phase("deal", meta, [("each", each), ("when", when)])


class Deal(Construct):
    """Chance deals ``each`` cards to every seat, forehand first, one packet per seat."""

    kind = "deal"
    batch_kernel = "rulelang.batch.kernels:DEAL"
    writes = ("dealt",)
    order = 10
    summary = "every seat receives a packet of cards"
    example = {"each": 3}
    schema = {'entry': 'Every seat receives cards, one packet at a time.',
              'defs': {'dealPhase': {'title': 'a mapping like {each: 3}',
                                     'description': 'Dealing a packet to every seat.',
                                     'type': 'object',
                                     'additionalProperties': False,
                                     'required': ['each'],
                                     'properties': {'each': {'description': 'How many cards every seat receives in '
                                                                            'this packet; it may read the deal, '
                                                                            'with player the seat dealt to, e.g. "if '
                                                                            'player == declarer then 2 else 3".',
                                                             '$ref': '#/$defs/intExpr'},
                                                    'to': {'description': 'The seats dealt to (default every '
                                                                          'seat), e.g. active.',
                                                           '$ref': '#/$defs/seatsExpr'},
                                                    'when': WHEN}}}}
    codes = ("R320", "R326")
    tallied = False
    deals = True
    dsl = {"deal": _dsl}
    part = DealState
    public = False

    @staticmethod
    def compile(c, path, body):
        to = c.rule(path + ("to",), SEATS) if "to" in body else None
        each = _known_each(c, path + ("each",))
        if each is None:
            return DealPhase(0, c.rule(path + ("each",), INT, c.player_scope()), to)
        return DealPhase(each, None, to)

    @staticmethod
    def dump(phase) -> str:
        each = f"`{phase.per_seat.text}`" if phase.per_seat is not None else phase.each
        return f" each {each}" + (f" to `{phase.to.text}`" if phase.to is not None else "")

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: the packets come out of the stock (not followed past a deal whose counts depend on the
        deal: the hands' size is then unknown)."""
        if phase.per_seat is not None or phase.to is not None:
            table.hand = None
            table.last_dealt = index
            return
        if phase.each < 1:
            table.report("R326", f"a deal of {phase.each} cards each gives nobody a card", index,
                         "deal at least one card each, or remove this step")
            return
        need = phase.each * table.players
        if need > table.stock:
            dealt = table.cards - table.stock + need
            table.report("R320", f"the deal needs {dealt} cards by this step but the deck has {table.cards}", index,
                         "deal fewer cards each, or use a larger pack")
            table.stock = -1
            return
        table.stock -= need
        table.hand = None if table.hand is None else table.hand + phase.each
        table.last_dealt = index

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.deal
        seats = phase.to.fn(st, None) if phase.to is not None else (1 << st.game.num_players) - 1
        order = seats_from(st, st.forehand, seats)
        if phase.per_seat is None:
            part.slots = [seat for seat in order for _ in range(phase.each)]
        else:
            part.slots = [seat for seat in order for _ in range(max(0, int(phase.per_seat.fn(st, seat))))]
        if bin(st.stock).count("1") < len(part.slots):
            raise EvalError(f"the deal needs {len(part.slots)} cards but only {bin(st.stock).count('1')} are left",
                            phase.span)
        part.pos = 0
        st.current = CHANCE
        return bool(part.slots)

    @staticmethod
    def legal(st, phase):
        return bits(st.stock)

    @staticmethod
    def draws(st, phase) -> tuple[int, int]:
        """The cards the pending chance events draw from, and how many they draw."""
        return st.stock, len(st.deal.slots) - st.deal.pos

    @staticmethod
    def seer(st, phase, action):
        return st.deal.slots[st.deal.pos]

    @staticmethod
    def receiver(st, phase) -> int:
        return st.deal.slots[st.deal.pos]

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        deal["dealt"][st.game.seat_name(st.deal.slots[st.deal.pos])].append(name)

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.deal
        bit = 1 << action
        seat = part.slots[part.pos]
        st.stock ^= bit
        st.hands[seat] |= bit
        st.dealt[seat] |= bit
        part.pos += 1
        return part.pos >= len(part.slots)

    @staticmethod
    def apply_drawn(st, phase, cards: list[int]) -> bool:
        """``apply`` of each of ``cards`` in turn, its seer noted in ``st.seen_tail``; True when the deal is done."""
        part = st.deal
        slots, pos, hands, dealt, seen = part.slots, part.pos, st.hands, st.dealt, st.seen_tail
        taken = 0
        for card in cards:
            seat, bit = slots[pos], 1 << card
            hands[seat] |= bit
            dealt[seat] |= bit
            seen.append(seat)
            taken |= bit
            pos += 1
        st.stock ^= taken
        part.pos = pos
        return pos >= len(slots)

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import count, rest
        who = f"each of {ctx.say(body['to'])}" if body.get("to") is not None else "every player"
        return [f"Deal {who} {count(body.get('each', 1), 'card', ctx)}, one packet each, starting with "
                f"forehand and going {ctx.direction}"] + rest(body, {"each", "to", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, plain_head
        return plain_head("deal", {"each", "when"}, [("each", "each", expr_text), WHEN_PART])(value, pad)


def _known_each(c, path: tuple) -> int | None:
    """``each`` as a number known before play (a number, or an expression of params), or None when it reads the
    deal (the seat dealt to, the declarer)."""
    value = c.doc.get(path, 1)
    if not isinstance(value, str):
        return c.number(path, 1)
    compiled = c.expression(path, INT, c.player_scope())
    if compiled is None:
        return 1
    if compiled.is_const:
        return int(compiled.value)
    try:
        return int(c.scope.module.evaluate_now(compiled.code))
    except EvalError:
        return c.number(path, 1)                       # a number of params that cannot be worked out: N219
    except (TypeError, AttributeError, KeyError, NameError, IndexError):
        return None


CONSTRUCT = Deal
