"""``settle``: every item that counts scored for one side, then the net settled between the sides.

YAML ``- settle: {pattern: declarers_share, multiplier: EXPR}`` with the items under
``items``; DSL ``settle { … }``. With ``declarers_share`` each defender pays the net to the
declaring side, which shares it; with ``declarers_score`` each declarer scores the net (won or
lost) and the defenders' scores stay as they are — a settlement declared not zero-sum, as in
games where only the declarer's score is written down. An item scored for each seat alone
(``per_seat``) is paid by every other seat.
Each doubling step (Kontra, Retour, …) doubles its item; with ``doubling_adds: N`` a step
adds N to the item's value instead (announcements worth +2 each rather than ×2).
"""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.constructs.auction import counting_items
from rulelang.constructs.base import WHEN, Construct, DealPart, Lines
from rulelang.diagnostics import Diagnostic
from rulelang.exprcompile import INT
from rulelang.ir import PhaseBase, Rule
from rulelang.validators.checks import check


@dataclass
class SettlePhase(PhaseBase):
    """Score every counting item per side, then settle between the sides (``pattern``)."""

    pattern: str = "declarers_share"
    multiplier: Rule | None = None
    doubling_adds: int = 0
    kind: str = "settle"


class SettleState(DealPart):
    """What the settlement scored: one row per item (``results``), the items' names (``scored_items``)
    and the factor of the whole settlement (``multiplier``). The settlement is one step that
    begins by copying the slice (``renews_part``), so a clone shares it."""

    def __init__(self, game) -> None:
        self.results: list[dict] = []
        self.scored_items: set[str] = set()
        self.multiplier = 1


class Settle(Construct):
    """Scores the game and every bonus separately, sums them per side and pays out by ``pattern``."""

    kind = "settle"
    keeps_hands = True
    renews_part = True
    order = 120
    summary = "items are scored per side and settled between the sides"
    example = {"pattern": "declarers_share", "multiplier": "2"}
    schema = {'entry': 'Score items and settle between sides.',
              'defs': {'settlePhase': {'title': 'a mapping with pattern and multiplier',
                                       'description': 'Score every counting item, sum per side and settle between '
                                                      'the sides.',
                                       'type': 'object',
                                       'additionalProperties': False,
                                       'properties': {'pattern': {'description': 'declarers_share: each defender '
                                                                                 'pays the net, the declaring side '
                                                                                 'shares the total (zero-sum); '
                                                                                 'declarers_score: each declarer '
                                                                                 'scores the net, the defenders '
                                                                                 'nothing (not zero-sum).',
                                                                  'enum': ['declarers_share', 'declarers_score']},
                                                      'multiplier': {'description': 'A whole-number factor for the '
                                                                                    'whole settlement (e.g. a double '
                                                                                    'round).',
                                                                     '$ref': '#/$defs/intExpr'},
                                                      'doubling_adds': {'description': 'Each doubling step adds '
                                                                                       'this many points to its '
                                                                                       'item instead of doubling it '
                                                                                       '(e.g. 2: each announcement +2).',
                                                                        'type': 'integer', 'minimum': 1,
                                                                        'maximum': 1000},
                                                      'when': WHEN}}}}
    codes = ("R357",)
    part = SettleState

    @staticmethod
    def compile(c, path, body):
        return SettlePhase(pattern=str(body.get("pattern", "declarers_share")),
                           multiplier=c.optional_rule(path + ("multiplier",), INT),
                           doubling_adds=int(body.get("doubling_adds") or 0))

    @staticmethod
    def dump(phase) -> str:
        return f" {phase.pattern}" + (f" times `{phase.multiplier.text}`" if phase.multiplier else "") + \
            (f", doublings add {phase.doubling_adds}" if phase.doubling_adds else "")

    @staticmethod
    def enter(st, phase) -> bool:
        game, part = st.game.definition, st.settle.copy()
        st.settle = part
        contract = game.contracts.get(st.contract)
        everyone = (1 << st.game.num_players) - 1
        among = st.tricks.among or everyone
        declarers = st.side_mask & among
        defenders = among & ~declarers
        net, personal = 0, [0] * st.game.num_players
        part.results, part.scored_items = [], set(part.scored_items)
        scored = []
        for name in counting_items(st):
            item = game.items[name]
            factor = 1 if item.is_game or contract is None else contract.bonus_factor
            if item.per_seat:
                Settle._per_seat(st, item, factor, among, personal)
                continue
            scored.extend((item, side, amount * factor)
                          for side, amount in Settle._score_item(st, phase, item, contract, declarers, defenders))
        if any(item.exclusive and (item.achieved.fn(st, declarers) or item.achieved.fn(st, defenders))
               for item, _, _ in scored):
            scored = [entry for entry in scored if entry[0].exclusive or entry[0].is_game]
        announced, levels = st.auction.announced, st.auction.levels
        for item, side, amount in scored:
            net += amount if side == declarers else -amount
            part.scored_items.add(item.name)
            part.results.append({"item": item.title, "side": "declarers" if side == declarers else "defenders",
                                 "value": amount, "announced": item.name in announced, "game": item.is_game,
                                 "level": levels.get(item.name, 0)})
        multiplier = phase.multiplier.fn(st, None) if phase.multiplier is not None else 1
        part.multiplier = multiplier
        if phase.pattern == "declarers_score":
            paid = [(seat, net * multiplier) for seat in range(st.game.num_players) if declarers >> seat & 1 and net]
        else:
            paid = Settle._payments(st, net * multiplier, declarers, defenders)
        paid += [(seat, amount * multiplier) for seat, amount in enumerate(personal) if amount]
        if paid:
            st.add_scores(paid)
        return False

    @staticmethod
    def _score_item(st, phase, item, contract, declarers: int, defenders: int):
        """(side, amount) pairs this item scores."""
        announced = st.auction.announced
        steps = st.auction.levels.get(item.name, 0)
        adds = phase.doubling_adds

        def doubled(value: int) -> int:
            return value + adds * steps if adds else value * 2 ** steps
        if item.is_game:
            value = contract.value.fn(st, None) if contract is not None else 0
            winner = declarers if item.achieved.fn(st, declarers) else defenders
            return [(winner, doubled(value))]
        if item.name in announced:
            owner = declarers if announced[item.name] else defenders
            other = defenders if owner == declarers else declarers
            value = item.announced_value.fn(st, None) if item.announced_value else 2 * item.value.fn(st, None)
            return [(owner if item.achieved.fn(st, owner) else other, doubled(value))]
        value = item.value.fn(st, None)
        scored = []
        for side, other in ((declarers, defenders), (defenders, declarers)):
            if item.achieved.fn(st, side):
                scored.append((side, value))
            elif item.caught is not None and item.caught.fn(st, side):
                scored.append((other, value))
        return scored

    @staticmethod
    def _per_seat(st, item, factor: int, among: int, personal: list) -> None:
        others = bin(among).count("1") - 1
        part = st.settle
        for seat in range(st.game.num_players):
            if among >> seat & 1 and item.achieved.fn(st, 1 << seat):
                value = item.value.fn(st, None) * factor
                for other in range(st.game.num_players):
                    if among >> other & 1:
                        personal[other] += value * others if other == seat else -value
                part.scored_items.add(item.name)
                part.results.append({"item": item.title, "side": st.game.seat_name(seat), "value": value,
                                     "announced": False, "level": 0})

    @staticmethod
    def _payments(st, net: int, declarers: int, defenders: int) -> list[tuple[int, int]]:
        """(seat, amount) for each seat: each defender pays ``net`` (or receives it when negative); the
        declarers share the total."""
        n_def, n_decl = bin(defenders).count("1"), bin(declarers).count("1")
        if not net or not n_decl or not n_def:
            return []
        share = net * n_def // n_decl
        return [(seat, share if declarers >> seat & 1 else -net) for seat in range(st.game.num_players)
                if (declarers | defenders) >> seat & 1]

    @staticmethod
    def deal_result(st) -> dict:
        return {"items": list(st.settle.results), "multiplier": st.settle.multiplier}

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.explain import rest
        lines = ["Settlement: every item that counts is scored for the side that achieved it; " +
                 ("each declarer scores the net, won or lost, and the defenders score nothing (the deal does not "
                  "sum to zero)" if body.get("pattern") == "declarers_score" else
                  "each defender pays the net to the declaring side, which shares it")]
        if body.get("multiplier") is not None:
            lines.append(f"The whole settlement is multiplied by {ctx.say(body['multiplier'])}")
        if body.get("doubling_adds"):
            lines.append(f"Each doubling step adds {body['doubling_adds']} to its item instead of doubling it")
        return lines + rest(body, {"pattern", "multiplier", "doubling_adds", "when"})


@check("settlement_has_items")
def settlement_has_items(doc, game):
    """A ``settle`` phase needs items to score (R357)."""
    if game.items:
        return
    for i, phase in enumerate(game.phases):
        if getattr(phase, "kind", None) == "settle":
            yield Diagnostic("R357", "a settlement with no items to score", doc.span_of(("phases", i)),
                             "define `items`, or use a `score` phase")
            return


CONSTRUCT = Settle
