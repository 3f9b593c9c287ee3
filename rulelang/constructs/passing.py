"""``passing``: every seat still in passes some cards face down to another seat (Hearts' pass of three).

YAML ``- passing: {count: 3, to: "next(player)"}``; DSL ``passing 3 to next(player)``, with
``from SEAT`` (who chooses first, default forehand) and ``when COND`` as every phase has.
Each seat in turn picks ``count`` cards of its hand, one at a time (a seat holding fewer
passes all it holds); the cards wait face down until every seat has chosen, then each
seat's cards go at once to the seat ``to`` names (``player``: the passer), so nobody
chooses knowing what he will receive. A seat sees the cards it passes and, once they
arrive, the cards passed to it (its information state ends ``| received …``); nobody
else sees either.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.base import WHEN, Construct, DealPart, Lines, bits, turn_order
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import SEAT, EvalError
from rulelang.compile.ir import PhaseBase, Rule


@dataclass
class PassingPhase(PhaseBase):
    """Each active seat from ``start`` picks ``count`` cards; then each seat's go to the seat ``to`` names."""

    count: int
    to: Rule
    start: Rule | None = None
    kind: str = "passing"


class PassingState(DealPart):
    """The seats in turn (``order``, ``pos``), the cards each seat has set aside (``waiting``), where
    each seat's cards go (``targets``), the cards each seat has received this deal (``received``) and
    those it passed (``passed``)."""

    copied = ("order", "waiting", "targets", "received", "passed")

    def __init__(self, game) -> None:
        n = game.num_players
        self.order: list[int] = []
        self.pos = 0
        self.waiting = [0] * n
        self.targets = [-1] * n
        self.received = [0] * n
        self.passed = [0] * n


def _dsl(b, meta, children):
    """``passing N to SEAT [from SEAT] [when COND]``."""
    count, to, start, when = children
    return b.phase("passing", meta, [("count", count), ("to", to), ("from", start), ("when", when)])


class Passing(Construct):
    """Each active seat in turn sets ``count`` cards aside; when all have, every seat's cards go to its target."""

    kind = "passing"
    batch_kernel = "rulelang.batch.kernels_more:PASSING"
    order = 140
    summary = "every seat passes cards face down to another seat"
    example = {"count": 3, "to": "next(player)"}
    schema = {'entry': 'Every seat passes cards face down to another seat.',
              'defs': {'passingPhase': {'title': 'a mapping like {count: 3, to: next(player)}',
                                        'description': 'Passing cards: each seat sets cards aside, then all are '
                                                       'passed at once.',
                                        'type': 'object',
                                        'additionalProperties': False,
                                        'required': ['count', 'to'],
                                        'properties': {'count': {'description': 'How many cards each seat passes.',
                                                                 '$ref': '#/$defs/intExpr'},
                                                       'to': {'description': 'The seat that receives them (player '
                                                                             'bound to the passer), e.g. '
                                                                             'next(player).',
                                                              '$ref': '#/$defs/seatExpr'},
                                                       'from': {'description': 'The seat that chooses first '
                                                                               '(default forehand); the others '
                                                                               'follow in the direction of play.',
                                                                '$ref': '#/$defs/seatExpr'},
                                                       'when': WHEN}}}}
    codes = ("R329", "E512")
    dsl = {"passing": _dsl}
    part = PassingState
    public = False
    tallied = False
    words = "pass cards — choose them one at a time"

    @staticmethod
    def compile(c, path, body):
        start = c.optional_rule(path + ("from",), SEAT)
        return PassingPhase(c.number(path + ("count",), 0), c.rule(path + ("to",), SEAT, c.player_scope()), start)

    @staticmethod
    def dump(phase) -> str:
        start = f" from `{phase.start.text}`" if phase.start is not None else ""
        return f" {phase.count} to `{phase.to.text}`{start}"

    @staticmethod
    def count_cards(table, phase, index: int) -> None:
        """Deal arithmetic: a seat cannot pass more cards than it holds; passing keeps every hand's size."""
        if table.hand is not None and phase.count > table.hand:
            table.report("R329", f"each seat passes {phase.count} cards but holds only {table.hand} here", index,
                         f"pass at most {table.hand} cards, or deal before passing")

    # ------------------------------------------------------------------ runtime
    @staticmethod
    def enter(st, phase) -> bool:
        if phase.count <= 0:
            return False
        part = st.passing
        n = st.game.num_players
        start = phase.start.fn(st, None) if phase.start is not None else st.forehand
        part.order = [seat for seat in turn_order(st, start, st.active) if st.hands[seat]]
        part.pos, part.waiting, part.targets = 0, [0] * n, [-1] * n
        for seat in part.order:
            target = phase.to.fn(st, seat)
            if not isinstance(target, int) or not 0 <= target < n:
                raise EvalError(f"{st.game.seat_name(seat)} passes to no seat: `{phase.to.text}` gives none",
                                phase.to.span)
            part.targets[seat] = target
        if not part.order:
            return False
        st.current = part.order[0]
        return True

    @staticmethod
    def legal(st, phase):
        return bits(st.hands[st.current])

    @staticmethod
    def seer(st, phase, action):
        return st.current

    @staticmethod
    def apply(st, phase, action) -> bool:
        part = st.passing
        seat = st.current
        bit = 1 << action
        st.hands[seat] ^= bit
        part.waiting[seat] |= bit
        if part.waiting[seat].bit_count() < phase.count and st.hands[seat]:
            return False
        part.pos += 1
        if part.pos < len(part.order):
            st.current = part.order[part.pos]
            return False
        Passing._hand_over(st, part)
        return True

    @staticmethod
    def _hand_over(st, part) -> None:
        """Every seat's waiting cards go to its target at once; the receiver now knows them."""
        seat_name = st.game.seat_name
        for seat in part.order:
            cards, target = part.waiting[seat], part.targets[seat]
            st.hands[target] |= cards
            part.received[target] |= cards
            part.passed[seat] |= cards
            part.waiting[seat] = 0
            st.put("decisions", seat, f"passes {cards.bit_count()} to {seat_name(target)}")

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        if not 0 <= action < st.game.num_cards:
            return Construct.explain(st, phase, action)
        seat = st.game.seat_name(st.current)
        name = st.action_to_string(action)
        held = " ".join(st.game.deck.names(st.hands[st.current]))
        return Diagnostic("E512", f"{seat} cannot pass {name}: it is not in {seat}'s hand", phase.span,
                          f"pass one of {held}")

    # ------------------------------------------------------------------ what seats see
    @staticmethod
    def observe(st, player: int) -> dict:
        """The cards ``player`` has set aside and those passed to it: its own, never another's."""
        part, deck = st.passing, st.game.deck
        seen = {}
        if part.waiting[player]:
            seen["passing"] = deck.names(part.waiting[player])
        if part.received[player]:
            seen["received"] = deck.names(part.received[player])
        return seen

    @staticmethod
    def informs(st, player: int) -> str:
        """The cards passed to ``player``, which it learns when they arrive."""
        received = st.passing.received[player]
        return f" | received {' '.join(st.game.deck.names(received))}" if received else ""

    @staticmethod
    def places(st) -> dict[str, int]:
        seat = st.game.seat_name
        return {f"passed by {seat(s)}": cards for s, cards in enumerate(st.passing.waiting) if cards}

    @staticmethod
    def holdings_known_to(st, seat: int) -> dict[int, int]:
        """The passer knows where its cards went: those still in the receiver's hand stay there in its worlds."""
        part = st.passing
        target = part.targets[seat]
        if target < 0 or target == seat or not part.passed[seat]:
            return {}
        return {target: part.passed[seat] & st.hands[target]}

    @staticmethod
    def hidden(st, seat: int) -> list[tuple[str, int, int]]:
        return [("passing", s, cards) for s, cards in enumerate(st.passing.waiting) if cards and s != seat]

    @staticmethod
    def put_hidden(world, index: int, cards: int) -> None:
        part = world.passing = world.passing.copy()
        old = part.waiting[index]
        part.waiting[index] = cards
        world.put("dealt", index, world.dealt[index] & ~old | cards)

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        deal["decisions"].append({"seat": seat, "phase": "passing", "action": name, "private": True,
                                  "words": f"passes to {st.game.seat_name(st.passing.targets[actor])}"})

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return None

    @staticmethod
    def private_words(st, step, action: int, name: str) -> str | None:
        return f"you pass {name} to {st.game.seat_name(st.passing.targets[st.current])}"

    # ------------------------------------------------------------------ prose
    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import count, rest
        start = f"Starting with {ctx.say(body['from'])}" if body.get("from") is not None else "Starting with forehand"
        return [f"{start} and going {ctx.direction}, each player still in sets {count(body.get('count'), 'card', ctx)} "
                f"of his hand aside face down, to be passed to {ctx.say(body.get('to'))}",
                "When every player has chosen, all the cards are passed at once; a player sees only the cards he "
                "passes and those he receives"] + rest(body, {"count", "to", "from", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts
        if not isinstance(value, dict) or not {"count", "to"} <= set(value) <= {"count", "to", "from", "when"}:
            return None
        number, to = expr_text(value["count"]), expr_text(value["to"])
        if number is None or to is None:
            return None
        text, used = head_parts(value, [("from", "from", expr_text), WHEN_PART])
        return [f"{pad}passing {number} to {to}{text}"] if used == set(value) - {"count", "to"} else None


CONSTRUCT = Passing
