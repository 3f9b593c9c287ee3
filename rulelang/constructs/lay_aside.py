"""``lay_aside``: a seat lays cards of its hand aside face down, known only to itself (a hidden trump card).

YAML ``- lay_aside: {by: declarer, count: 1, from: CARDS}``; DSL ``lay_aside 1 by declarer``. The seat picks
``count`` cards of its hand (of ``from`` when given, one at a time); they lie face down in front of it: it sees
them, the others see only how many lie there. They stay its cards: trick play asks for them when its hand is empty.
A call of trick play with ``shows_aside: true`` (a player who cannot follow asks for the trump to be shown) turns
them face up for everyone and returns them to the seat's hand, where everyone knows them until they are played; so
does the seat's own turn to play with nothing else in hand. Rules read the cards as ``laid_aside(SEATS)`` (laid
aside this deal, face down or shown since: a trump suit chosen by the card laid aside is
``suit(highest(laid_aside({declarer})))``, which the seat's opponents cannot know until it is shown) and the trick
they were shown in as ``aside_shown`` (from 1; 0 while they lie face down): a trump counts only once shown, ``win:
[{highest: "if aside_shown > 0 then trump else none"}, …]``. A card laid aside is no deal variable, so no
observation names it early.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, bits
from rulelang.compile.exprcompile import CARDS, SEAT
from rulelang.compile.ir import PhaseBase, Rule
from rulelang.diagnostics import Diagnostic


@dataclass
class LayAsidePhase(PhaseBase):
    """The seat ``by`` lays ``count`` cards of its hand (of ``cards`` when given) aside face down."""

    by: Rule
    count: int = 1
    cards: Rule | None = None
    kind: str = "lay_aside"


class LayAsideState(DealPart):
    """The seat whose cards lie aside (``owner``), the cards lying face down now (``cards``), every card laid
    aside this deal (``laid``), how many are still to be chosen (``still``) and the trick they were shown in
    (``shown_in``, 0 while face down)."""

    def __init__(self, game) -> None:
        self.owner = -1
        self.cards = 0
        self.laid = 0
        self.still = 0
        self.shown_in = 0


def show_aside(st) -> None:
    """The cards laid aside are shown to everyone and go back to their seat's hand (a call or the seat's turn
    with nothing else to play)."""
    part = getattr(st, "lay_aside", None)
    if part is None or not part.cards:
        return
    st.hands[part.owner] |= part.cards
    part.cards = 0
    part.shown_in = len(st.tricks.trick_winners) + 1


def held_aside(st, seat: int) -> int:
    """The cards ``seat`` has lying face down (0 for a game without ``lay_aside``)."""
    part = getattr(st, "lay_aside", None)
    return part.cards if part is not None and part.owner == seat else 0


def _dsl(b, meta, children):
    """``lay_aside [N] by SEAT [from CARDS] [when COND]``."""
    count, by, cards, when = children
    return b.phase("lay_aside", meta, [("count", count), ("by", by), ("from", cards), ("when", when)])


class LayAside(Construct):
    """A seat lays cards of its hand aside face down: it alone knows them until they are shown."""

    kind = "lay_aside"
    batch_kernel = "rulelang.batch.kernels_more:LAY_ASIDE"
    order = 145
    summary = "a seat lays cards of its hand aside face down, known only to itself"
    example = {"by": "declarer", "count": 1}
    schema = {'entry': 'A seat lays cards of its hand aside face down.',
              'defs': {'layAsidePhase': {'title': 'a mapping like {by: declarer, count: 1}',
                                         'description': 'A seat lays cards of its hand aside face down, known only '
                                                        'to itself until a call of trick play shows them.',
                                         'type': 'object',
                                         'additionalProperties': False,
                                         'required': ['by'],
                                         'properties': {'by': {'description': 'The seat that lays them aside, '
                                                                              'e.g. declarer.',
                                                               '$ref': '#/$defs/seatExpr'},
                                                        'count': {'description': 'How many cards (default 1).',
                                                                  'type': 'integer', 'minimum': 1, 'maximum': 8},
                                                        'from': {'description': 'The cards it may lay aside '
                                                                                '(default any card of its hand).',
                                                                 '$ref': '#/$defs/cardsExpr'},
                                                        'when': WHEN}}}}
    codes = ("R381", "E527")
    part = LayAsideState
    dsl = {"lay_aside": _dsl}
    public = False
    tallied = False
    words = "lay a card aside face down"

    @staticmethod
    def compile(c, path, body):
        cards = c.rule(path + ("from",), CARDS, c.player_scope()) if "from" in body else None
        return LayAsidePhase(c.rule(path + ("by",), SEAT), int(body.get("count", 1)), cards)

    @staticmethod
    def dump(phase) -> str:
        cards = f" from `{phase.cards.text}`" if phase.cards is not None else ""
        return f" {phase.count} by `{phase.by.text}`{cards}"

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: the seat must hold the cards it lays aside (they stay its own)."""
        if table.hand is not None and phase.count > table.hand:
            table.report("R381", f"{phase.count} cards are laid aside here, but each hand holds {table.hand}",
                         index, "lay aside fewer cards, or deal before laying them aside", field=("count",))

    # ------------------------------------------------------------------ runtime
    @staticmethod
    def enter(st, phase) -> bool:
        seat = phase.by.fn(st, None)
        if seat is None or seat < 0:
            return False
        part = st.lay_aside
        part.owner, part.still = seat, phase.count
        if not LayAside._choices(st, phase, seat):
            return False
        st.current = seat
        return True

    @staticmethod
    def _choices(st, phase, seat: int) -> int:
        hand = st.hands[seat]
        return hand & phase.cards.fn(st, seat) if phase.cards is not None else hand

    @staticmethod
    def legal(st, phase):
        return bits(LayAside._choices(st, phase, st.current))

    @staticmethod
    def seer(st, phase, action: int) -> int:
        return st.current

    @staticmethod
    def apply(st, phase, action) -> bool:
        part, bit = st.lay_aside, 1 << action
        st.hands[st.current] ^= bit
        part.cards |= bit
        part.laid |= bit
        part.still -= 1
        return part.still <= 0 or not LayAside._choices(st, phase, st.current)

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        seat = st.game.seat_name(st.current)
        choices = " ".join(st.game.deck.names(LayAside._choices(st, phase, st.current)))
        return Diagnostic("E527", f"{seat} cannot lay {st.action_to_string(action)} aside: it is not one of the "
                          "cards of his hand the rule allows", phase.cards.span if phase.cards else phase.span,
                          f"lay aside one of {choices}")

    # ------------------------------------------------------------------ what seats see
    @staticmethod
    def observe(st, player: int) -> dict:
        """The cards laid aside: by name to their seat, and to everyone once shown; else only how many."""
        part = st.lay_aside
        if not part.laid:
            return {}
        owner = st.game.seat_name(part.owner)
        if player == part.owner or part.shown_in:
            return {"laid_aside": {owner: st.game.deck.names(part.laid)}, "aside_shown": part.shown_in}
        return {"laid_aside": {owner: bin(part.cards).count("1")}, "aside_shown": 0}

    @staticmethod
    def places(st) -> dict[str, int]:
        return {"laid aside": st.lay_aside.cards}

    @staticmethod
    def hidden(st, seat: int) -> list[tuple[str, int, int]]:
        part = st.lay_aside
        return [("lay_aside", part.owner, part.cards)] if part.cards and seat != part.owner else []

    @staticmethod
    def put_hidden(world, index: int, cards: int) -> None:
        part = world.lay_aside = world.lay_aside.copy()
        part.laid = part.laid & ~part.cards | cards
        part.cards = cards
        world.put("dealt", index, world.dealt[index] | cards)

    @staticmethod
    def public_holdings(st) -> dict[int, int]:
        part = st.lay_aside
        held = part.laid & st.hands[part.owner] if part.shown_in and part.owner >= 0 else 0
        return {part.owner: held} if held else {}

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        deal["decisions"].append({"seat": seat, "phase": "lay_aside", "action": name, "private": True,
                                  "words": "lays aside"})

    @staticmethod
    def deal_result(st) -> dict:
        laid = st.lay_aside.laid
        return {"laid_aside": st.game.deck.names(laid)} if laid else {}

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return "lays a card aside face down"

    @staticmethod
    def private_words(st, step, action: int, name: str) -> str | None:
        return f"you lay {name} aside face down"

    # ------------------------------------------------------------------ prose
    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import count, rest
        cards = f" of {ctx.say(body['from'])}" if body.get("from") is not None else ""
        return [f"{ctx.say(body.get('by'))} lays {count(body.get('count', 1), 'card', ctx)}{cards} of his hand aside "
                "face down: he alone knows it until it is shown, and it stays his, back in his hand once shown"] + \
            rest(body, {"by", "count", "from", "when"})


    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts
        if not isinstance(value, dict) or "by" not in value or not set(value) <= {"by", "count", "from", "when"}:
            return None
        count = expr_text(value["count"]) if "count" in value else ""
        by = expr_text(value["by"])
        text, used = head_parts(value, [("from", "from", expr_text), WHEN_PART])
        if count is None or by is None or used != set(value) - {"by", "count"}:
            return None
        return [f"{pad}lay_aside {count + ' ' if count else ''}by {by}{text}"]


CONSTRUCT = LayAside
