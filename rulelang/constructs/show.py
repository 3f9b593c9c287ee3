"""``show``: a holding shown to everyone — a poignée of trumps, a declared meld — public from then on.

YAML ``- show: {cards: "hand(player) & trumps", may: "count(hand(player) & trumps) >= 10", word: poignee}``;
DSL in the generic form ``show { cards = "…"  may = "…"  word = "poignee" }``. The seats of ``by``
(default every seat), from forehand in the direction of play, are each asked in turn; one for which
``may`` holds and ``cards`` holds a card in its hand (``player`` bound to the seat; only cards it holds
are shown) says ``word`` (default ``show``) or ``keep``, any other can only say ``keep`` — every seat is
asked, so that being asked tells the others nothing of its hand. A seat that shows lays ``cards`` open for everyone: for the rest of the deal every observation and
information state shows which of them it still holds, no sampled world deals them anew, and
``shown(SEATS)`` reads the cards the seats showed this deal, played or not (a poignée's bonus:
``count(shown(declarers)) >= 10``). With ``must: true`` a seat for which ``may`` holds shows
without being asked.

With ``counts: [simple, double, triple]`` (numbers known before play) a seat shows exactly one of those numbers
of cards of ``cards``, not all it holds: it says ``WORD N`` (``poignee 10``) for an N it holds enough cards for,
then picks the N cards one at a time (when it holds exactly N, they are shown at once). ``forbid`` rules a card
out of the holding shown (``card`` the card, ``value`` the number said): a card that may join the holding
only when every other card of it is shown is ``forbid: "card in wild and count(hand(player) & trumps) >=
value"``. The others see the cards when the last is picked.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.compile.codegen import part_attr
from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, bits, permitted, seats_from, symbol
from rulelang.constructs.open_hand import later_trick_play
from rulelang.compile.exprcompile import BOOL, CARD, CARDS, INT, SEATS, Binding
from rulelang.compile.ir import PhaseBase, Rule

KEEP = "keep"
MAX_COUNTS = 8
"""The most numbers of cards a ``show`` may offer (``counts``)."""


@dataclass
class ShowPhase(PhaseBase):
    """Who may show (``by``, ``may``), what a seat shows (``cards``), the word for showing, whether it must."""

    by: Rule | None = None
    cards: Rule | None = None
    may: Rule | None = None
    word: str = "show"
    must: bool = False
    counts: tuple[int, ...] = ()
    forbid: Rule | None = None
    kind: str = "show"


class ShowState(DealPart):
    """The seats still to be asked (``order``, ``pos``), per seat the cards it showed this deal (``shown``,
    replaced when one shows, so a copy shares it); with ``counts``, how many cards the seat said it shows
    (``said``, 0: none said) and those it has picked so far (``picked``); the card and the number a ``forbid``
    is asked about (``card``, ``offered``)."""

    copied = ("order",)

    def __init__(self, game) -> None:
        self.order: list[int] = []
        self.pos = 0
        self.shown: list[int] = [0] * game.num_players
        self.said = 0
        self.picked = 0
        self.card = -1
        self.offered = 0


class Show(Construct):
    """Each seat that may, in turn from forehand, shows a holding to everyone or keeps it hidden."""

    kind = "show"
    batch_kernel = "rulelang.batch.kernels_more:SHOW"
    keeps_hands = True
    order = 64
    summary = "a holding shown to everyone (a poignée, a declared meld), public for the rest of the deal"
    example = {"cards": "hand(player) & trumps", "may": "count(hand(player) & trumps) >= 10", "word": "poignee"}
    schema = {'entry': 'A holding shown to everyone, public for the rest of the deal.',
              'defs': {'showPhase': {'title': 'a mapping with cards, may, by, word, must, counts, forbid',
                                     'description': 'The seats that may each show a holding to everyone or keep it '
                                                    'hidden; what is shown stays public for the rest of the deal.',
                                     'type': 'object',
                                     'additionalProperties': False,
                                     'required': ['cards'],
                                     'properties': {'cards': {'description': 'The cards a seat shows (player bound '
                                                                             'to the seat), e.g. hand(player) & '
                                                                             'trumps.',
                                                              '$ref': '#/$defs/cardsExpr'},
                                                    'may': {'description': 'Who may show (player bound); default: '
                                                                           'every seat with something to show.',
                                                            '$ref': '#/$defs/boolExpr'},
                                                    'by': {'description': 'The seats asked, from forehand in turn '
                                                                          '(default seats).',
                                                           '$ref': '#/$defs/seatsExpr'},
                                                    'word': {'description': 'The word for showing (default show); '
                                                                            'the other choice is keep.',
                                                             '$ref': '#/$defs/name'},
                                                    'must': {'description': 'true: a seat for which may holds shows '
                                                                            'without being asked.',
                                                             'type': 'boolean'},
                                                    'counts': {'description': 'The numbers of cards a seat may show '
                                                                              '(whole numbers or params), e.g. '
                                                                              '[simple, double, triple]: it says '
                                                                              'one and picks that many.',
                                                               'type': 'array', 'minItems': 1,
                                                               'maxItems': MAX_COUNTS,
                                                               'items': {'$ref': '#/$defs/intExpr'}},
                                                    'forbid': {'description': 'A card may not be among those shown '
                                                                              'when this holds (card the card, '
                                                                              'value the number said).',
                                                               '$ref': '#/$defs/boolExpr'},
                                                    'when': WHEN}}}}
    codes = ("R377", "R385")
    part = ShowState
    words = "show a holding, or keep it hidden"

    @staticmethod
    def symbols(c, body) -> list[str]:
        word = str(body.get("word", "show"))
        counts = _known_counts(c, body)
        return ([f"{word} {n}" for n in counts] if counts else [word]) + [KEEP]

    @staticmethod
    def compile(c, path, body):
        if not later_trick_play(c, path):
            c.error("R377", "the holding is shown after the last trick play, when it can change no play", path,
                    "put `show` before the `tricks` phase it is shown for")
        scope = c.player_scope()
        by = c.rule(path + ("by",), SEATS) if body.get("by") is not None else None
        counts = tuple(c.number(path + ("counts", i), 0) for i in range(len(body.get("counts") or ())))
        _check_counts(c, path, body, counts)
        forbid = None
        if body.get("forbid") is not None:
            asked = scope.child(card=Binding(CARD, part_attr("show", "card")),
                                value=Binding(INT, part_attr("show", "offered")))
            forbid = c.rule(path + ("forbid",), BOOL, asked)
        return ShowPhase(by=by, cards=c.rule(path + ("cards",), CARDS, scope),
                         may=c.optional_rule(path + ("may",), BOOL, scope), word=str(body.get("word", "show")),
                         must=bool(body.get("must")), counts=counts, forbid=forbid)

    @staticmethod
    def dump(phase) -> str:
        who = f" by `{phase.by.text}`" if phase.by is not None else ""
        may = f" may `{phase.may.text}`" if phase.may is not None else ""
        counts = f" counts {', '.join(map(str, phase.counts))}" if phase.counts else ""
        forbid = f" forbid `{phase.forbid.text}`" if phase.forbid is not None else ""
        return f" `{phase.cards.text}`{who}{may}{counts}{forbid} word {phase.word}" + (", must" if phase.must else "")

    @staticmethod
    def asked(st, phase) -> list[int]:
        """The seats of ``by``, in turn from forehand."""
        everyone = (1 << st.game.num_players) - 1
        mask = phase.by.fn(st, None) if phase.by is not None else everyone
        return seats_from(st, st.forehand, mask & everyone)

    @staticmethod
    def may_show(st, phase, seat: int) -> bool:
        """Whether ``seat`` may show: ``may`` holds for it and it holds a card of ``cards``."""
        return bool(phase.cards.fn(st, seat) & st.hands[seat]) and (phase.may is None or bool(phase.may.fn(st, seat)))

    @staticmethod
    def showable(st, phase, seat: int, count: int) -> int:
        """The cards of ``cards`` in ``seat``'s hand that ``forbid`` lets it show when it says ``count``."""
        part = st.show
        cards = phase.cards.fn(st, seat) & st.hands[seat]
        if phase.forbid is None:
            return cards
        kept = part.offered
        part.offered = count
        try:
            return sum(1 << card for card in permitted(st, part, "card", bits(cards), phase.forbid, seat))
        finally:
            part.offered = kept

    @staticmethod
    def counts_for(st, phase, seat: int) -> list[int]:
        """The numbers of ``counts`` ``seat`` may say: it may show and holds that many cards it may show."""
        if not Show.may_show(st, phase, seat):
            return []
        return [n for n in phase.counts if Show.showable(st, phase, seat, n).bit_count() >= n]

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.show
        seats = Show.asked(st, phase)
        part.said, part.picked = 0, 0
        if phase.must:
            for seat in seats:
                if Show.may_show(st, phase, seat):
                    Show._shows(st, seat, phase.cards.fn(st, seat) & st.hands[seat])
            return False
        part.order, part.pos = seats, 0
        if not seats:
            return False
        st.current = seats[0]
        return True

    @staticmethod
    def _shows(st, seat: int, cards: int) -> None:
        shown = list(st.show.shown)
        shown[seat] |= cards
        st.show.shown = shown

    @staticmethod
    def legal(st, phase):
        part, ids = st.show, st.game.symbol_ids
        if part.said:
            return bits(Show.showable(st, phase, st.current, part.said) & ~part.picked)
        if phase.counts:
            return sorted([ids[f"{phase.word} {n}"] for n in Show.counts_for(st, phase, st.current)] + [ids[KEEP]])
        return sorted([ids[phase.word], ids[KEEP]]) if Show.may_show(st, phase, st.current) else [ids[KEEP]]

    @staticmethod
    def apply(st, phase, action) -> bool:
        part, seat = st.show, st.current
        if part.said:                                         # picked cards are laid open one by one
            part.picked |= 1 << action
            Show._shows(st, seat, 1 << action)
            if part.picked.bit_count() < part.said:
                return False
        else:
            name = symbol(st, action)
            if name == phase.word:
                Show._shows(st, seat, phase.cards.fn(st, seat) & st.hands[seat])
            elif name != KEEP:
                count, cards = Show._count_said(st, phase, seat, name)
                if cards is None:                                 # a choice of cards: picked one at a time
                    part.said, part.picked = count, 0
                    return False
                Show._shows(st, seat, cards)
        part.said, part.picked = 0, 0
        part.pos += 1
        if part.pos >= len(part.order):
            return True
        st.current = part.order[part.pos]
        return False

    # ------------------------------------------------------------------ what seats see
    @staticmethod
    def public_holdings(st) -> dict[int, int]:
        return {seat: cards & st.hands[seat] for seat, cards in enumerate(st.show.shown) if cards & st.hands[seat]}

    @staticmethod
    def observe(st, player: int) -> dict:
        """Every shown holding, as far as its seat still holds it."""
        held = Show.public_holdings(st)
        if not any(st.show.shown):
            return {}
        return {"shown": {st.game.seat_name(seat): st.game.deck.names(cards)
                          for seat, cards in enumerate(st.show.shown) if cards},
                "shown_held": {st.game.seat_name(seat): st.game.deck.names(cards) for seat, cards in held.items()}}

    @staticmethod
    def informs(st, player: int) -> str:
        return "".join(f" | shown {st.game.seat_name(seat)}: {' '.join(st.game.deck.names(cards))}"
                       for seat, cards in enumerate(st.show.shown) if cards and seat != player)

    @staticmethod
    def _showing(st, step, action: int, name: str) -> str | None:
        """The cards ``action`` lays open at once, as names; None for a number said before its cards are picked."""
        seat, part = st.current, st.show
        if part.said:
            return name
        if name == step.word:
            return " ".join(st.game.deck.names(step.cards.fn(st, seat) & st.hands[seat]))
        cards = Show._count_said(st, step, seat, name)[1]
        return None if cards is None else " ".join(st.game.deck.names(cards))

    @staticmethod
    def _count_said(st, phase, seat: int, name: str) -> tuple[int, int | None]:
        """The number ``WORD N`` says, and the cards it lays open at once: those the seat may show when it holds
        exactly that many, else None (it picks them one at a time)."""
        count = int(name.rpartition(" ")[2])
        cards = Show.showable(st, phase, seat, count)
        return count, (cards if cards.bit_count() == count else None)

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        if name == KEEP:
            return "keeps his hand hidden"
        cards = Show._showing(st, step, action, name)
        if st.show.said:
            return f"shows {cards}"
        return f"says {name}, and picks the cards to show" if cards is None else f"shows {cards} ({name})"

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        entry = {"seat": seat, "phase": step.kind, "action": name}
        if name != KEEP:
            cards = Show._showing(st, step, action, name)
            if st.show.said:
                entry["words"] = "shows"
            elif cards is None:
                entry["words"] = "says"
            else:
                entry["action"] = f"{name}: {cards}"
                entry["words"] = "shows"
        deal["decisions"].append(entry)

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        who = ctx.say(body["by"]) if body.get("by") is not None else "each player"
        may = f", if {_as_he(ctx.say(body['may']))}," if body.get("may") is not None else ""
        cards = _as_he(ctx.say(body.get("cards")))
        word = body.get("word", "show")
        verb = f"shows {cards}" if body.get("must") else \
            f"may show {cards} ('{word}') or keep them hidden ('keep')"
        if body.get("counts"):
            numbers = " or ".join(str(ctx.say(n)) for n in body["counts"])
            verb = (f"may show exactly {numbers} of {cards} ('{word} N', then picking the cards), or keep them "
                    "hidden ('keep')")
        lines = [f"In turn from forehand, {who}{may} {verb}: what is shown is seen by everyone for the rest of the "
                 "deal"]
        if body.get("forbid") is not None:
            lines.append(f"A card may not be shown when {_as_he(ctx.say(body['forbid']))}")
        return lines + rest(body, {"cards", "may", "by", "word", "must", "counts", "forbid", "when"})


def _known_counts(c, body: dict) -> list[int]:
    """``counts`` before compilation: each a whole number or a param's value (others left out)."""
    params = c.data.get("params") or {}
    found = []
    for value in body.get("counts") or ():
        value = params.get(value, value) if isinstance(value, str) else value
        if isinstance(value, int) and not isinstance(value, bool) and value not in found:
            found.append(value)
    return found


def _check_counts(c, path: tuple, body: dict, counts: tuple[int, ...]) -> None:
    """R385: the numbers of cards to show must be positive and different, and asked of a seat (not ``must``)."""
    if not counts:
        return
    if any(n < 1 for n in counts) or len(set(counts)) < len(counts):
        c.error("R385", f"the numbers of cards to show ({', '.join(map(str, counts))}) must each be at least 1 and "
                "all different", path + ("counts",), "give the sizes of the holding, e.g. [10, 13, 15]")
    if body.get("must"):
        c.error("R385", "a show with counts asks the seat how many cards it shows, so it cannot be a must",
                path + ("must",), "drop `must`, or drop `counts` to show the whole holding without asking")


def _as_he(text: str) -> str:
    """A condition or card set on "the player", said of the seat asked: "he holds …", "the spades in his hand"."""
    return text.replace("the player's", "his").replace("the player", "he").replace("he's", "his")

CONSTRUCT = Show
