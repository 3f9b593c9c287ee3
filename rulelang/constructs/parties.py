"""``parties``: two parties decided by who holds given cards, secret until play reveals them.

YAML ``- parties: {cards: "{'Q♣'}"}``; DSL ``parties { cards = "{'Q♣'}" }``. After the deal,
the seats holding any of ``cards`` form one party — the ``declarers`` of the rules (and
``defenders`` the others) — and nobody is told who they are: each seat knows its own party
from its hand, and a seat's party becomes known to all when it plays one of the cards. Once
every copy of the cards has been played by a known seat (or is in the viewer's own hand),
the other seats are known to be the other party. With a doubled pack and
``parties: {cards: "{'Q♣'}"}`` the one or two holders of a Queen of clubs play together
(examples/re-and-kontra.rules).

With ``join: N`` one seat holding every one of the cards says so (it is known to all), and the
first other seat to win one of the first N tricks joins its party, known to all from then on;
if it wins all N it plays alone (a marriage announced by the holder of both copies: ``join: 3``).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DealPart, Lines
from rulelang.constructs.trick_calls import called_sides
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import CARDS
from rulelang.compile.ir import PhaseBase, Rule
from rulelang.validators.registry import check


@dataclass
class PartiesPhase(PhaseBase):
    """The holders of ``cards`` against the rest."""

    cards: Rule | None = None
    join: int = 0
    kind: str = "parties"


class PartiesState(DealPart):
    """The cards that decide the parties this deal (``cards``, 0 before the phase) and the tricks a
    lone holder's partner may join in (``join``); set once, never changed: who is known comes from
    the cards played (``st.tricks.finished``) and the tricks' winners."""

    def __init__(self, game) -> None:
        self.cards = 0
        self.join = 0


def holders(st, cards: int, join: int = 0) -> int:
    """The seats holding one of ``cards`` or having played one this deal, as a seat mask; with ``join``,
    a lone holder's mask gains the first other seat to win one of the first ``join`` tricks."""
    mask = 0
    for seat, hand in enumerate(st.hands):
        if hand & cards:
            mask |= 1 << seat
    for seat, _ in played_party_cards(st, cards):
        mask |= 1 << seat
    if join and mask & (mask - 1) == 0:
        for winner, _ in st.tricks.trick_winners[:join]:
            if not mask >> winner & 1:
                return mask | 1 << winner
    return mask


def lone_holder(st) -> int:
    """The seat that holds every card deciding the parties, when ``join`` makes it say so; else -1."""
    part = st.parties
    if not part.join:
        return -1
    mask = holders(st, part.cards)
    return mask.bit_length() - 1 if mask and mask & (mask - 1) == 0 else -1


def played_party_cards(st, cards: int) -> list[tuple[int, int]]:
    """(seat, card) of every card of ``cards`` played this deal, in finished tricks or on the table."""
    found = [(seat, card) for plays in st.tricks.finished for seat, card in plays if cards >> card & 1]
    found.sort(key=lambda play: play[1])
    return found + [(seat, card) for seat, card in st.tricks.trick if cards >> card & 1]


def known_to(st, player: int) -> dict[int, bool]:
    """Per seat whose party ``player`` knows: True for the declarers' party, False for the others.

    ``player`` knows its own party; everyone knows the seats that played a party card or made a
    call of their side; and once every party card is played or in ``player``'s hand, the remaining
    seats are the other party. A lone holder under ``join`` is known to all, and everyone is
    known once its partner has won a trick or the ``join`` tricks are over."""
    cards = st.parties.cards
    holder = lone_holder(st)
    if holder >= 0:
        return _joined_known(st, holder)
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


def _joined_known(st, holder: int) -> dict[int, bool]:
    """``known_to`` while a lone holder awaits its partner (the same for every viewer): the holder, and
    every seat once the partner is found or the ``join`` tricks are over."""
    decided = st.side_mask != 1 << holder or len(st.tricks.trick_winners) >= st.parties.join
    if not decided:
        return {holder: True}
    return {seat: bool(st.side_mask >> seat & 1) for seat in range(st.game.num_players)}


class Parties(Construct):
    """Sets the declarers' party to the holders of the given cards, hidden from the other seats."""

    kind = "parties"
    forms_sides = True
    batch_kernel = "rulelang.batch.kernels_more:PARTIES"
    keeps_hands = True
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
                                                       'join': {'description': 'When one seat holds all '
                                                                               'the cards it says so, and the '
                                                                               'first other seat to win one of '
                                                                               'the first N tricks joins it '
                                                                               '(a marriage: 3).',
                                                                'type': 'integer', 'minimum': 1,
                                                                'maximum': 1000},
                                                       'when': WHEN}}}}

    @staticmethod
    def compile(c, path, body):
        return PartiesPhase(cards=c.rule(path + ("cards",), CARDS), join=int(body.get("join") or 0))

    @staticmethod
    def dump(phase) -> str:
        return f" holders of `{phase.cards.text}`" + (f", joined within {phase.join} tricks" if phase.join else "")

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: the parties are decided by the cards in the hands, so they must be dealt first."""
        if table.hand == 0:
            table.report("R364", "the parties are decided before any card is dealt, so everyone is a defender",
                         index, "put the `parties` phase after the deal")

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.parties
        part.cards, part.join = phase.cards.fn(st, None), phase.join
        st.side_mask = holders(st, part.cards, part.join)
        return False

    @staticmethod
    def after_trick(st) -> None:
        part = st.parties
        if part.join and len(st.tricks.trick_winners) <= part.join:
            st.side_mask = holders(st, part.cards, part.join)

    @staticmethod
    def observe(st, player: int) -> dict:
        if not st.parties.cards:
            return {}
        seat = st.game.seat_name
        known = known_to(st, player)
        return {"parties": {seat(s): ("declarers" if mine else "defenders") for s, mine in sorted(known.items())}}

    @staticmethod
    def implied_voids(st, observer: int, voids: list[int]) -> None:
        holder = lone_holder(st)
        for seat in range(st.game.num_players):
            if holder >= 0 and seat not in (holder, observer):
                voids[seat] |= st.parties.cards
        for seat, declarer in called_sides(st).items():
            if not declarer and seat != observer:
                voids[seat] |= st.parties.cards

    @staticmethod
    def must_hold(st, observer: int) -> dict[int, int]:
        cards = st.parties.cards
        if not cards or lone_holder(st) >= 0:              # a joined partner holds none of them
            return {}
        shown = {seat for seat, _ in played_party_cards(st, cards)}
        return {seat: cards for seat, declarer in called_sides(st).items()
                if declarer and seat != observer and seat not in shown}

    @staticmethod
    def reform(world) -> None:
        if world.parties.cards:
            world.side_mask = holders(world, world.parties.cards, world.parties.join)

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        cards = ctx.say(body.get("cards")).strip("{}")
        secret = "nobody is told who they are unless one player holds them all" if body.get("join") else \
            "nobody is told who they are"
        return [f"The players holding {cards} form one party (the declarers), the others the other; {secret}",
                "A player's party becomes known to all when he plays one of these cards"] + _join_words(body) + \
            rest(body, {"cards", "when", "join"})


def _join_words(body: dict) -> Lines:
    """``explain``'s sentence for ``join``."""
    join = body.get("join")
    if not join:
        return []
    tricks = "the first trick" if join == 1 else f"one of the first {join} tricks"
    return [f"A player holding all of them says so, and the first other player to win {tricks} becomes his "
            f"partner; if he wins {'it' if join == 1 else 'them all'} he plays alone"]


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
