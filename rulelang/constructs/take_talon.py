"""``take_talon``: a seat takes the whole talon into its hand, then discards as many cards face down.

YAML ``- take_talon: {by: declarer, discard: 2, when: "hand_game == pick_up"}``; DSL
``take_talon by declarer discard 2 when hand_game == pick_up``. The seat alone sees the
cards it takes (its observation's ``took`` and its information state ``| took …``) and the
cards it discards (``my_discards``); the others see only that it took the talon and
discarded. ``forbid`` makes a card illegal to discard when it holds (``player`` the seat,
``card`` the card: ``forbid: "card in kings"``). Rules read the discards as
``discarded(SEATS)`` — a declarer whose talon counts for him reads ``talon | discarded({declarer})``,
whether he took it up or left it lying.

With ``show: true`` the talon is laid open first, and everyone sees what the seat takes.
With ``parts: [first_half, second_half]`` chance lays the talon out in that many equal parts
(in sight of all when shown) and the seat chooses one by its name; the others stay in the
talon (a rejected half that counts for the defenders: ``talon``). Everyone then
knows the taken cards are in the seat's hand or its discards, but not which.

``show_discard`` lays a discard face up for everyone when it holds (``card`` the card): a trump discarded
shown to all is ``show_discard: "card in trumps"``.
The observation's ``discards_shown`` names them; no world moves them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.compile.codegen import part_attr
from rulelang.constructs.deal_counts import lay_out_parts, take_and_discard
from rulelang.constructs.base import CHANCE, WHEN, Construct, DealPart, Lines, bits, permitted, symbol
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import BOOL, CARD, SEAT, Binding, EvalError
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class TakeTalonPhase(PhaseBase):
    """``by`` takes the talon, then discards ``discard`` cards, none that ``forbid`` rules out."""

    by: Rule | None = None
    discard: int = 0
    forbid: Rule | None = None
    parts: list[str] | None = None
    show: bool = False
    public_forbid: Rule | None = None
    show_discard: Rule | None = None
    kind: str = "take_talon"


class TakeTalonState(DealPart):
    """The seat that takes the talon (-1: none), the cards it took, how many it still discards, the card
    being weighed by ``forbid`` (``card``), the talon as it was laid open (``shown``), its parts as chance
    laid them out (``parts``), the part chosen (-1: none yet), the public part of the phase's ``forbid``
    that worlds drawn for other seats apply (``public_forbid``) and the discards laid face up
    (``discards_shown``)."""

    copied = ("parts",)

    def __init__(self, game) -> None:
        self.seat = -1
        self.taken = 0
        self.left = 0
        self.card = -1
        self.shown = 0
        self.parts: list[int] = []
        self.chosen = -1
        self.public_forbid = None
        self.discards_shown = 0


def _dsl(b, meta, children):
    """``take_talon by SEAT [discard N] [forbid COND] [when COND]`` (``parts`` and ``show``: the generic form)."""
    by, discard, forbid, when = children
    return b.phase("take_talon", meta, [("by", by), ("discard", discard), ("forbid", forbid), ("when", when)])


def _part_names(body: dict) -> list[str]:
    parts = body.get("parts")
    return [str(p) for p in parts] if isinstance(parts, list) else []


class TakeTalon(Construct):
    """A seat takes every talon card into its hand and discards as many face down."""

    kind = "take_talon"
    batch_kernel = "rulelang.batch.kernels_more:TAKE_TALON"
    writes = ("discards",)
    order = 57
    summary = "a seat takes the talon into its hand and discards"
    example = {"by": "declarer", "discard": 2}
    schema = {'entry': 'A seat takes the whole talon into its hand, then discards cards face down.',
              'defs': {'takeTalonPhase': {'title': 'a mapping like {by: declarer, discard: 2}',
                                          'description': 'A seat takes every talon card into its hand (seen by it '
                                                         'alone), then discards as many cards face down.',
                                          'type': 'object',
                                          'additionalProperties': False,
                                          'required': ['by', 'discard'],
                                          'properties': {'by': {'description': 'The seat that takes the talon, '
                                                                               'e.g. declarer.',
                                                                '$ref': '#/$defs/seatExpr'},
                                                         'discard': {'description': 'How many cards it then '
                                                                                    'discards, e.g. 2.',
                                                                     '$ref': '#/$defs/intExpr'},
                                                         'forbid': {'description': 'A card may not be discarded '
                                                                                   'when this holds (player is the '
                                                                                   'seat, card the card), e.g. card '
                                                                                   'in kings.',
                                                                    '$ref': '#/$defs/boolExpr'},
                                                         'parts': {'description': 'Chance lays the talon out in '
                                                                                  'this many equal parts, named '
                                                                                  'so; the seat takes one.',
                                                                   'type': 'array', 'minItems': 2, 'maxItems': 6,
                                                                   'uniqueItems': True,
                                                                   'items': {'$ref': '#/$defs/name'}},
                                                         'show': {'description': 'The talon is laid open to '
                                                                                 'everyone first (default false).',
                                                                  'type': 'boolean'},
                                                         'show_discard': {'description': 'A discard is laid face '
                                                                                         'up for everyone when '
                                                                                         'this holds (card the '
                                                                                         'card), e.g. card in '
                                                                                         'trumps.',
                                                                          '$ref': '#/$defs/boolExpr'},
                                                         'when': WHEN}}}}
    codes = ("R371", "R373", "R374", "R375", "E524")
    tallied = False
    dsl = {"take_talon": _dsl}
    part = TakeTalonState
    public = False
    words = "discard"

    @staticmethod
    def symbols(c, body) -> list[str]:
        return _part_names(body)

    @staticmethod
    def option_names(body) -> list[str]:
        return _part_names(body)

    @staticmethod
    def compile(c, path, body):
        discard = c.number(path + ("discard",), 0)
        if discard < 0:
            c.error("R371", f"a take_talon cannot discard {discard} cards", path + ("discard",),
                    "discard as many cards as the talon holds, or 0 to keep them all")
        forbid = public = None
        if body.get("forbid") is not None:
            scope = c.player_scope().child(card=Binding(CARD, part_attr("take_talon", "card")))
            forbid = c.rule(path + ("forbid",), BOOL, scope)
            public = _public_part(c, path + ("forbid",), scope)
        parts = _part_names(body) or None
        shown = None
        if body.get("show_discard") is not None:
            scope = c.player_scope().child(card=Binding(CARD, part_attr("take_talon", "card")))
            shown = c.rule(path + ("show_discard",), BOOL, scope)
        return TakeTalonPhase(c.rule(path + ("by",), SEAT), discard, forbid, parts, bool(body.get("show", False)),
                              public, shown)

    @staticmethod
    def dump(phase) -> str:
        forbid = f"; forbid when `{phase.forbid.text}`" if phase.forbid is not None else ""
        parts = f" in parts {', '.join(phase.parts)}" if phase.parts else ""
        shown = f"; shows a discard when `{phase.show_discard.text}`" if phase.show_discard is not None else ""
        return f" by `{phase.by.text}`{parts}{' shown' if phase.show else ''} discard {phase.discard}{forbid}{shown}"

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: the seat takes the talon (or one of its parts) and discards (R373, R374, R375)."""
        if table.talon is None:
            return
        taken = lay_out_parts(table, index, len(phase.parts)) if phase.parts else table.talon
        if taken is None:
            return
        table.talon -= taken
        take_and_discard(table, index, f"`{phase.by.text}`", taken, phase.discard, keeps_taken=False)

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.take_talon
        seat = phase.by.fn(st, None)
        if seat < 0:
            raise EvalError(f"`{phase.by.text}` names no seat to take the talon", phase.by.span)
        part.seat, part.left, part.shown = seat, phase.discard, st.talon if phase.show else 0
        part.parts, part.chosen, part.taken, part.public_forbid = [], -1, 0, phase.public_forbid
        part.discards_shown = 0
        if phase.parts:
            size, rest = divmod(bin(st.talon).count("1"), len(phase.parts))
            if rest or not size:
                raise EvalError(f"a talon of {bin(st.talon).count('1')} cards cannot be laid out in "
                                f"{len(phase.parts)} equal parts", phase.span)
            part.parts = [0] * len(phase.parts)
            st.current = CHANCE
            return True
        return TakeTalon._take(st, phase, st.talon)

    @staticmethod
    def _take(st, phase, cards: int) -> bool:
        """The seat takes ``cards`` into its hand; True while it has cards to discard."""
        part = st.take_talon
        seat = part.seat
        part.taken = cards
        st.hands[seat] |= cards
        st.talon &= ~cards
        st.put("decisions", seat, "takes the talon" if part.chosen < 0 else f"takes {phase.parts[part.chosen]}")
        if part.left <= 0:
            return False
        if bin(st.hands[seat]).count("1") < part.left:
            raise EvalError(f"{st.game.seat_name(seat)} holds fewer than {part.left} cards to discard", phase.span)
        st.current = seat
        return TakeTalon._check_left(st, phase)

    @staticmethod
    def _laying_out(st) -> bool:
        """Whether chance is still laying the talon out in parts."""
        part = st.take_talon
        return bool(part.parts) and part.chosen < 0 and not part.parts[-1]

    @staticmethod
    def _check_left(st, phase) -> bool:
        if not TakeTalon._may_discard(st, phase):
            raise EvalError(f"{st.game.seat_name(st.current)} has no card left to discard: `{phase.forbid.text}` "
                            "forbids them all", phase.forbid.span)
        return True

    @staticmethod
    def _may_discard(st, phase) -> int:
        part = st.take_talon
        hand = st.hands[part.seat]
        return sum(1 << card for card in permitted(st, part, "card", bits(hand), phase.forbid, part.seat))

    @staticmethod
    def legal(st, phase):
        part = st.take_talon
        if TakeTalon._laying_out(st):
            return bits(st.talon & ~sum(part.parts))
        if part.parts and part.chosen < 0:
            ids = st.game.symbol_ids
            return sorted(ids[name] for name in phase.parts)
        return bits(TakeTalon._may_discard(st, phase))

    @staticmethod
    def seer(st, phase, action):
        part = st.take_talon
        if part.parts and part.chosen < 0:
            return -1 if phase.show or not TakeTalon._laying_out(st) else -2
        return part.seat

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.take_talon
        if TakeTalon._laying_out(st):
            return TakeTalon._lay_out(st, part, action)
        if part.parts and part.chosen < 0:
            part.chosen = phase.parts.index(symbol(st, action))
            return not TakeTalon._take(st, phase, part.parts[part.chosen])
        st.hands[part.seat] ^= 1 << action
        st.discards[part.seat] |= 1 << action
        st.out |= 1 << action
        if TakeTalon.shows_discard(st, phase, action):
            part.discards_shown |= 1 << action
        part.left -= 1
        return part.left <= 0 or not TakeTalon._check_left(st, phase)

    @staticmethod
    def shows_discard(st, phase, card: int) -> bool:
        """Whether ``card``, discarded, is laid face up for everyone (``show_discard``)."""
        if phase.show_discard is None:
            return False
        part = st.take_talon
        kept, part.card = part.card, card
        try:
            return bool(phase.show_discard.fn(st, part.seat))
        finally:
            part.card = kept

    @staticmethod
    def _lay_out(st, part, card: int) -> bool:
        """Chance lays ``card`` into the part being filled; the last part is the rest. Never ends the phase."""
        size = bin(st.talon).count("1") // len(part.parts)
        index = next(i for i, cards in enumerate(part.parts) if bin(cards).count("1") < size)
        part.parts[index] |= 1 << card
        if index == len(part.parts) - 2 and bin(part.parts[index]).count("1") == size:
            part.parts[-1] = st.talon & ~sum(part.parts[:-1])
            st.current = part.seat
        return False

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        part = st.take_talon
        if phase.forbid is not None and 0 <= action < st.game.num_cards and st.hands[part.seat] >> action & 1:
            allowed = " ".join(st.game.deck.names(TakeTalon._may_discard(st, phase)))
            return Diagnostic("E524", f"{st.game.seat_name(part.seat)} may not discard {st.action_to_string(action)}: "
                              f"the rule `{phase.forbid.text}` forbids it", phase.forbid.span,
                              f"discard one of {allowed}")
        return Construct.explain(st, phase, action)

    @staticmethod
    def observe(st, player: int) -> dict:
        part, names = st.take_talon, st.game.deck.names
        if part.seat < 0:
            return {}
        seen: dict = {}
        if part.shown:
            seen["talon_shown"] = names(part.shown)
        if part.parts and part.parts[-1] and (part.shown or player == part.seat and part.chosen >= 0):
            seen["talon_parts"] = [names(cards) for cards in part.parts]
        if part.taken or part.chosen >= 0:
            seen["talon_taken_by"] = st.game.seat_name(part.seat)
            if player == part.seat or part.shown:
                seen["took"] = names(part.taken)
        if part.discards_shown:
            seen["discards_shown"] = names(part.discards_shown)
        return seen

    @staticmethod
    def informs(st, player: int) -> str:
        part, names = st.take_talon, st.game.deck.names
        if part.seat < 0:
            return ""
        text = " | talon shown " + " ".join(names(part.shown)) if part.shown else ""
        if (part.taken or part.chosen >= 0) and (player == part.seat or part.shown):
            text += " | took " + " ".join(names(part.taken))
        if part.discards_shown:
            text += " | discarded face up " + " ".join(names(part.discards_shown))
        return text

    @staticmethod
    def public_cards(st) -> int:
        part = st.take_talon
        return st.talon & part.shown if part.seat >= 0 else 0

    @staticmethod
    def public_discards(st) -> dict[int, int]:
        part = st.take_talon
        return {part.seat: part.discards_shown} if part.seat >= 0 and part.discards_shown else {}

    @staticmethod
    def held_or_discarded(st) -> dict[int, int]:
        part = st.take_talon
        if part.seat < 0 or not part.shown or not part.taken:
            return {}
        still = part.taken & (st.hands[part.seat] | st.discards[part.seat]) & ~part.discards_shown
        return {part.seat: still} if still else {}

    @staticmethod
    def may_discard(world, seat: int, card: int) -> bool:
        """By the part of ``forbid`` that reads nothing hidden (``card in kings``, not what the hand holds)."""
        part = world.take_talon
        if part.public_forbid is None or seat != part.seat:
            return True
        part.card = card
        try:
            return not part.public_forbid.fn(world, seat)
        except EvalError:
            return True

    @staticmethod
    def _stage_words(st, step) -> str:
        """What the next action of the phase does: lays a card out in a part, takes a part, or discards."""
        part = st.take_talon
        if TakeTalon._laying_out(st):
            size = bin(st.talon).count("1") // len(part.parts)
            filling = next(i for i, cards in enumerate(part.parts) if bin(cards).count("1") < size)
            return f"lays out {step.parts[filling]}:"
        return "takes" if part.parts and part.chosen < 0 else "discards"

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        words = TakeTalon._stage_words(st, step)
        entry = {"seat": seat, "phase": "take_talon", "action": name, "words": words}
        if words == "discards":
            part = st.take_talon
            if TakeTalon.shows_discard(st, step, action):
                entry["words"] = "discards face up"
            else:
                entry["private"] = True
            if part.shown and not part.parts and part.left == step.discard:
                shown = " ".join(st.game.deck.names(part.shown))
                entry["opens"] = f"{seat} takes the talon, shown to everyone: {shown}"
        deal["decisions"].append(entry)

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        words = TakeTalon._stage_words(st, step)
        if words == "discards" and TakeTalon.shows_discard(st, step, action):
            return f"discards {name} face up"
        return "discards a card" if words == "discards" else f"{words} {name}"

    @staticmethod
    def private_words(st, step, action: int, name: str) -> str | None:
        return f"you discard {name}" if TakeTalon._stage_words(st, step) == "discards" else None

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        parts = _part_names(body)
        seen = "laid open to everyone" if body.get("show") else "unseen by the others"
        if parts:
            taken = (f"Chance lays the talon out in {len(parts)} equal parts ({', '.join(parts)}), {seen}; "
                     f"{ctx.say(body.get('by'))} takes the one he names into his hand, the rest stays in the talon, "
                     f"and he discards {ctx.say(body.get('discard', 0))} card(s) face down")
        else:
            taken = (f"{ctx.say(body.get('by'))} takes the talon into his hand, {seen}, and discards "
                     f"{ctx.say(body.get('discard', 0))} card(s) face down")
        lines = [taken]
        if body.get("forbid") is not None:
            lines.append(f"He may not discard a card when {ctx.say(body['forbid'])}")
        if body.get("show_discard") is not None:
            lines.append(f"He lays a discard face up for everyone to see when {ctx.say(body['show_discard'])}")
        return lines + rest(body, {"by", "discard", "forbid", "parts", "show", "show_discard", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts, scalar_text
        if not isinstance(value, dict) or not set(value) <= {"by", "discard", "forbid", "when"} or "by" not in value:
            return None
        text, used = head_parts(value, [("by", "by", expr_text), ("discard", "discard", scalar_text),
                                        ("forbid", "forbid", expr_text), WHEN_PART])
        return [f"{pad}take_talon{text}"] if used == set(value) else None


def _public_part(c, path: tuple, scope):
    """The terms of the ``or`` chain at ``path`` that read nothing a seat may not see, as one rule (None if
    every term reads something hidden): what a world drawn for another seat may hold against a discard."""
    from rulelang.compile.compiler import expr_origin
    from rulelang.read.expr import Expr, disjuncts, parse_expr, reads_hidden
    from rulelang.diagnostics import RuleError
    origin = expr_origin(c.doc, path)
    try:
        terms = disjuncts(parse_expr(c.rule_text(path), origin))
    except RuleError:
        return None
    kept = [term for term in terms if not reads_hidden(term, c.data.get("define") or {})]
    if not kept:
        return None
    joined = kept[0]
    for term in kept[1:]:
        joined = Expr("or", [joined, term])
    return c.rule_of(joined, BOOL, scope, origin)


CONSTRUCT = TakeTalon
