"""``parties``: two parties decided by who holds given cards, secret until play reveals them.

YAML ``- parties: {cards: "{'Q♣'}"}``; DSL ``parties { cards = "{'Q♣'}" }``. After the deal,
the seats holding any of ``cards`` form one party — the ``declarers`` of the rules (and
``defenders`` the others) — and nobody is told who they are: each seat knows its own party
from its hand, and a seat's party becomes known to all when it plays one of the cards. Once
every copy of the cards has been played by a known seat (or is in the viewer's own hand),
the other seats are known to be the other party. With a doubled pack and
``parties: {cards: "{'Q♣'}"}`` the one or two holders of a Queen of clubs play together
(examples/re-and-kontra.rules).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DealPart, Lines
from rulelang.constructs.trick_calls import called_sides
from rulelang.diagnostics import Diagnostic
from rulelang.exprcompile import CARDS
from rulelang.ir import PhaseBase, Rule
from rulelang.validators.checks import check


@dataclass
class PartiesPhase(PhaseBase):
    """The holders of ``cards`` against the rest."""

    cards: Rule | None = None
    kind: str = "parties"


class PartiesState(DealPart):
    """The cards that decide the parties this deal (``cards``, 0 before the phase); set once, never
    changed: who is known comes from the cards played (``st.tricks.card_player``)."""

    def __init__(self, game) -> None:
        self.cards = 0


def holders(st, cards: int) -> int:
    """The seats holding one of ``cards`` or having played one this deal, as a seat mask."""
    mask = 0
    for seat, hand in enumerate(st.hands):
        if hand & cards:
            mask |= 1 << seat
    for seat, _ in played_party_cards(st, cards):
        mask |= 1 << seat
    return mask


def played_party_cards(st, cards: int) -> list[tuple[int, int]]:
    """(seat, card) of every card of ``cards`` played this deal, in finished tricks or on the table."""
    players = st.tricks.card_player
    found = [(players[card], card) for card in range(st.game.num_cards) if cards >> card & 1 and players[card] >= 0]
    return found + [(seat, card) for seat, card in st.tricks.trick if cards >> card & 1]


def known_to(st, player: int) -> dict[int, bool]:
    """Per seat whose party ``player`` knows: True for the declarers' party, False for the others.

    ``player`` knows its own party; everyone knows the seats that played a party card or made a
    call of their side; and once every party card is played or in ``player``'s hand, the remaining
    seats are the other party."""
    cards = st.parties.cards
    known = {player: bool(st.side_mask >> player & 1)}
    accounted = st.hands[player] & cards
    for seat, card in played_party_cards(st, cards):
        known[seat] = True
        accounted |= 1 << card
    for seat, declarer in called_sides(st).items():
        known.setdefault(seat, declarer)
    if accounted == cards:
        for seat in range(st.game.num_players):
            known.setdefault(seat, False)
    return known


class Parties(Construct):
    """Sets the declarers' party to the holders of the given cards, hidden from the other seats."""

    kind = "parties"
    order = 145
    summary = "the holders of given cards form a party, secret until they play them"
    part = PartiesState
    codes = ("R363", "R364")
    example = {"cards": "{'Q♣'}"}
    schema = {'entry': 'The holders of given cards form a party, secret until play shows it.',
              'defs': {'partiesPhase': {'title': "a mapping like {cards: \"{'Q♣'}\"}",
                                        'description': 'Two parties: the seats holding any of the cards (the '
                                                       'declarers) and the others.',
                                        'type': 'object',
                                        'additionalProperties': False,
                                        'required': ['cards'],
                                        'properties': {'cards': {'description': 'The cards whose holders form the '
                                                                                'declarers\' party, e.g. '
                                                                                "\"{'Q♣'}\".",
                                                                 '$ref': '#/$defs/cardsExpr'},
                                                       'when': WHEN}}}}

    @staticmethod
    def compile(c, path, body):
        return PartiesPhase(cards=c.rule(path + ("cards",), CARDS))

    @staticmethod
    def dump(phase) -> str:
        return f" holders of `{phase.cards.text}`"

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: the parties are decided by the cards in the hands, so they must be dealt first."""
        if table.hand == 0:
            table.report("R364", "the parties are decided before any card is dealt, so everyone is a defender",
                         index, "put the `parties` phase after the deal")

    @staticmethod
    def enter(st, phase) -> bool:
        st.parties.cards = phase.cards.fn(st, None)
        st.side_mask = holders(st, st.parties.cards)
        return False

    @staticmethod
    def observe(st, player: int) -> dict:
        if not st.parties.cards:
            return {}
        seat = st.game.seat_name
        known = known_to(st, player)
        return {"parties": {seat(s): ("declarers" if mine else "defenders") for s, mine in sorted(known.items())}}

    @staticmethod
    def implied_voids(st, observer: int, voids: list[int]) -> None:
        for seat, declarer in called_sides(st).items():
            if not declarer and seat != observer:
                voids[seat] |= st.parties.cards

    @staticmethod
    def must_hold(st, observer: int) -> dict[int, int]:
        cards = st.parties.cards
        shown = {seat for seat, _ in played_party_cards(st, cards)}
        return {seat: cards for seat, declarer in called_sides(st).items()
                if declarer and seat != observer and seat not in shown}

    @staticmethod
    def reform(world) -> None:
        if world.parties.cards:
            world.side_mask = holders(world, world.parties.cards)

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.explain import rest
        cards = ctx.say(body.get("cards")).strip("{}")
        return [f"The players holding {cards} form one party (the declarers), the others the other; nobody is "
                "told who they are",
                "A player's party becomes known to all when he plays one of these cards"] + \
            rest(body, {"cards", "when"})


@check("parties_are_decided_by_cards")
def parties_are_decided_by_cards(doc, game):
    """A ``parties`` phase whose cards are no card at all makes everyone a defender (R363)."""
    from rulelang.validators.probe import constant
    for i, phase in enumerate(game.phases):
        if getattr(phase, "kind", None) == "parties" and constant(phase.cards) == 0:
            yield Diagnostic("R363", "no card decides the parties: nobody can hold one, so every player is on the "
                             "same side", doc.span_of(("phases", i, "parties", "cards")),
                             "name the cards whose holders form the declarers' party, e.g. \"{'Q♣'}\"")


CONSTRUCT = Parties
