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
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, seats_from, symbol
from rulelang.constructs.open_hand import later_trick_play
from rulelang.compile.exprcompile import BOOL, CARDS, SEATS
from rulelang.compile.ir import PhaseBase, Rule

KEEP = "keep"


@dataclass
class ShowPhase(PhaseBase):
    """Who may show (``by``, ``may``), what a seat shows (``cards``), the word for showing, whether it must."""

    by: Rule | None = None
    cards: Rule | None = None
    may: Rule | None = None
    word: str = "show"
    must: bool = False
    kind: str = "show"


class ShowState(DealPart):
    """The seats still to be asked (``order``, ``pos``) and per seat the cards it showed this deal (``shown``,
    replaced when one shows, so a copy shares it)."""

    copied = ("order",)

    def __init__(self, game) -> None:
        self.order: list[int] = []
        self.pos = 0
        self.shown: list[int] = [0] * game.num_players


class Show(Construct):
    """Each seat that may, in turn from forehand, shows a holding to everyone or keeps it hidden."""

    kind = "show"
    batch_kernel = "rulelang.batch.kernels_more:SHOW"
    keeps_hands = True
    order = 64
    summary = "a holding shown to everyone (a poignée, a declared meld), public for the rest of the deal"
    example = {"cards": "hand(player) & trumps", "may": "count(hand(player) & trumps) >= 10", "word": "poignee"}
    schema = {'entry': 'A holding shown to everyone, public for the rest of the deal.',
              'defs': {'showPhase': {'title': 'a mapping with cards, may, by, word, must',
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
                                                    'when': WHEN}}}}
    codes = ("R377",)
    part = ShowState
    words = "show a holding, or keep it hidden"

    @staticmethod
    def symbols(c, body) -> list[str]:
        return [str(body.get("word", "show")), KEEP]

    @staticmethod
    def compile(c, path, body):
        if not later_trick_play(c, path):
            c.error("R377", "the holding is shown after the last trick play, when it can change no play", path,
                    "put `show` before the `tricks` phase it is shown for")
        scope = c.player_scope()
        by = c.rule(path + ("by",), SEATS) if body.get("by") is not None else None
        return ShowPhase(by=by, cards=c.rule(path + ("cards",), CARDS, scope),
                         may=c.optional_rule(path + ("may",), BOOL, scope), word=str(body.get("word", "show")),
                         must=bool(body.get("must")))

    @staticmethod
    def dump(phase) -> str:
        who = f" by `{phase.by.text}`" if phase.by is not None else ""
        may = f" may `{phase.may.text}`" if phase.may is not None else ""
        return f" `{phase.cards.text}`{who}{may} word {phase.word}" + (", must" if phase.must else "")

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
    def enter(st, phase) -> bool:
        part = st.show
        seats = Show.asked(st, phase)
        if phase.must:
            for seat in seats:
                if Show.may_show(st, phase, seat):
                    Show._shows(st, phase, seat)
            return False
        part.order, part.pos = seats, 0
        if not seats:
            return False
        st.current = seats[0]
        return True

    @staticmethod
    def _shows(st, phase, seat: int) -> None:
        shown = list(st.show.shown)
        shown[seat] |= phase.cards.fn(st, seat) & st.hands[seat]
        st.show.shown = shown

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return sorted([ids[phase.word], ids[KEEP]]) if Show.may_show(st, phase, st.current) else [ids[KEEP]]

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.show
        if symbol(st, action) == phase.word:
            Show._shows(st, phase, st.current)
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
    def action_words(st, step, action: int, name: str) -> str | None:
        if name == KEEP:
            return "keeps his hand hidden"
        cards = " ".join(st.game.deck.names(step.cards.fn(st, st.current)))
        return f"shows {cards} ({name})"

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        entry = {"seat": seat, "phase": step.kind, "action": name}
        if name != KEEP:
            entry["action"] = f"{name}: {' '.join(st.game.deck.names(step.cards.fn(st, actor)))}"
            entry["words"] = "shows"
        deal["decisions"].append(entry)

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        who = ctx.say(body["by"]) if body.get("by") is not None else "each player"
        may = f", if {_as_he(ctx.say(body['may']))}," if body.get("may") is not None else ""
        cards = _as_he(ctx.say(body.get("cards")))
        verb = f"shows {cards}" if body.get("must") else \
            f"may show {cards} ('{body.get('word', 'show')}') or keep them hidden ('keep')"
        return [f"In turn from forehand, {who}{may} {verb}: what is shown is seen by everyone for the rest of the "
                "deal"] + rest(body, {"cards", "may", "by", "word", "must", "when"})


def _as_he(text: str) -> str:
    """A condition or card set on "the player", said of the seat asked: "he holds …", "the spades in his hand"."""
    return text.replace("the player's", "his").replace("the player", "he").replace("he's", "his")

CONSTRUCT = Show
