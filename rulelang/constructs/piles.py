"""``piles``: dealing by knocking — the stock laid out in equal face-down piles, taken in turn.

YAML ``- piles: {count: 4, from: forehand}``; DSL ``piles { count = 4  from = forehand }``.
Each seat from ``from`` takes a pile (the actions ``pile1`` … ``pileN``); the last seat
takes the last pile without being asked. Nobody sees the cards as they are laid out.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import CHANCE, WHEN, Construct, DealPart, Lines, bits, seats_from, symbol
from rulelang.compile.exprcompile import SEAT
from rulelang.compile.ir import PhaseBase, Rule

MAX_PILES = 64
"""The most piles a ``piles`` phase lays out: every pile is an action of its own."""


@dataclass
class PilesPhase(PhaseBase):
    """Chance lays the stock out in ``count`` equal face-down piles; seats pick them in turn from ``start``."""

    count: int = 4
    start: Rule | None = None
    kind: str = "piles"


class PilesState(DealPart):
    """The piles (``piles``, card masks), the pile each laid-out card goes to (``slots``, ``pos``),
    the seats in turn (``order``) and how many have taken a pile (``taken``)."""

    copied = ("piles", "slots", "order")

    def __init__(self, game) -> None:
        self.piles: list[int] = []
        self.slots: list[int] = []
        self.order: list[int] = []
        self.pos = self.taken = 0


class Piles(Construct):
    """Chance lays the stock out in equal piles; seats pick a pile each in turn; the last seat takes the last pile."""

    kind = "piles"
    batch_kernel = "rulelang.batch.kernels_more:PILES"
    order = 90
    summary = "the stock is laid out in piles that the seats take in turn"
    example = {"count": 4, "from": "forehand"}
    schema = {'entry': 'Deal by knocking: piles taken in turn.',
              'defs': {'pilesPhase': {'title': 'a mapping with count and from',
                                      'description': 'Knocking: the stock is laid out in equal face-down piles, '
                                                     'taken in turn.',
                                      'type': 'object',
                                      'additionalProperties': False,
                                      'required': ['from'],
                                      'properties': {'count': {'description': 'How many piles (default 4).',
                                                               '$ref': '#/$defs/intExpr'},
                                                     'from': {'description': 'The seat that takes a pile first; the '
                                                                             'others follow in the direction of '
                                                                             'play, the last takes the last pile.',
                                                              '$ref': '#/$defs/seatExpr'},
                                                     'when': WHEN}}}}
    codes = ("R324", "R325")
    tallied = False
    deals = True
    part = PilesState
    public = False
    words = "take a pile"

    @staticmethod
    def limits(body: dict):
        """Beyond the schema (C107): the count is a whole number from 1 to :data:`MAX_PILES`."""
        count = body.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_PILES:
            yield ("count",), f"'count' must be a whole number from 1 to {MAX_PILES}", \
                "the number of piles is written as a number: every pile is an action of its own"

    @staticmethod
    def symbols(c, body) -> list[str]:
        return [f"pile{i + 1}" for i in range(int(body.get("count", 4)))]

    @staticmethod
    def compile(c, path, body):
        return PilesPhase(count=c.number(path + ("count",), 4), start=c.rule(path + ("from",), SEAT))

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: the stock divided among the piles, one pile to each seat."""
        count = phase.count
        if count < 1:
            table.report("R324", f"the stock cannot be laid out in {count} piles", index, "give `count` of at least 1")
            return
        if table.stock % count:
            table.report("R324", f"the {table.stock} cards of the stock cannot be laid out in {count} equal piles",
                         index, f"deal or remove cards so that the stock divides by {count}")
        if count != table.players:
            table.report("R325", f"{count} piles for {table.players} players: each player takes one pile, so some "
                         + ("players get none" if count < table.players else "piles are never taken"), index,
                         f"lay out {table.players} piles")
        table.hand = None if table.hand is None or count != table.players else table.hand + table.stock // count
        table.stock, table.last_dealt = 0, index

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.piles
        size = bin(st.stock).count("1") // phase.count
        part.piles = [0] * phase.count
        part.slots = [pile for pile in range(phase.count) for _ in range(size)]
        part.pos = 0
        part.order = seats_from(st, phase.start.fn(st, None), (1 << st.game.num_players) - 1)
        part.taken = 0
        st.current = CHANCE
        return True

    @staticmethod
    def legal(st, phase):
        part = st.piles
        if part.pos < len(part.slots):
            return bits(st.stock)
        ids = st.game.symbol_ids
        return [ids[f"pile{i + 1}"] for i, pile in enumerate(part.piles) if pile]

    @staticmethod
    def worth_judging(st, phase, legal: list[int]) -> list[int]:
        """The first pile only: the piles are of a size and nobody has seen a card of any, so every pile is alike
        to the seat taking one, and weighing them by playouts would weigh noise."""
        return legal[:1]

    @staticmethod
    def draws(st, phase) -> tuple[int, int]:
        """The stock the piles are laid out from, and how many cards are still to lay."""
        return st.stock, len(st.piles.slots) - st.piles.pos

    @staticmethod
    def seer(st, phase, action):
        return -2 if st.piles.pos < len(st.piles.slots) else -1

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.piles
        if part.pos < len(part.slots):
            st.stock ^= 1 << action
            part.piles[part.slots[part.pos]] |= 1 << action
            part.pos += 1
            if part.pos == len(part.slots):
                st.current = part.order[0]
            return False
        Piles._take(st, part, part.order[part.taken], int(symbol(st, action)[4:]) - 1)
        part.taken += 1
        left = [i for i, pile in enumerate(part.piles) if pile]
        if len(left) == 1 and part.taken == len(part.order) - 1:
            Piles._take(st, part, part.order[part.taken], left[0])
            return True
        if not left or part.taken >= len(part.order):
            return True
        st.current = part.order[part.taken]
        return False

    @staticmethod
    def apply_drawn(st, phase, cards: list[int]) -> bool:
        """``apply`` of each of ``cards`` in turn while the piles are laid out (nobody sees them); the
        first seat is asked for a pile once the last card is down."""
        part = st.piles
        piles, slots, pos, laid = part.piles, part.slots, part.pos, 0
        for card in cards:
            bit = 1 << card
            piles[slots[pos]] |= bit
            laid |= bit
            pos += 1
        st.stock ^= laid
        st.seen_tail.extend([-2] * len(cards))
        part.pos = pos
        if pos == len(slots):
            st.current = part.order[0]
        return False

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        if actor >= 0:
            Construct.record(st, step, actor, action, name, seat, deal)

    @staticmethod
    def _take(st, part, seat: int, pile: int) -> None:
        st.hands[seat] |= part.piles[pile]
        st.put("dealt", seat, st.dealt[seat] | part.piles[pile])
        st.put("decisions", seat, f"takes pile {pile + 1}")
        part.piles[pile] = 0

    @staticmethod
    def places(st) -> dict[str, int]:
        return {f"pile {i + 1}": pile for i, pile in enumerate(st.piles.piles)}

    @staticmethod
    def hidden(st, seat: int) -> list[tuple[str, int, int]]:
        return [("piles", i, pile) for i, pile in enumerate(st.piles.piles)]

    @staticmethod
    def put_hidden(world, index: int, cards: int) -> None:
        part = world.piles = world.piles.copy()
        part.piles[index] = cards

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return f"takes {name.replace('pile', 'pile ')}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        return [f"The cards are laid out in {ctx.say(body.get('count', 4))} face-down piles; starting with "
                f"{ctx.say(body.get('from'))} each player takes one, and the last player takes the last pile"] + \
            rest(body, {"count", "from", "when"})


CONSTRUCT = Piles
