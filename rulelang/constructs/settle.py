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

from dataclasses import dataclass, field

from rulelang.compile.settle import scoring_rules
from rulelang.constructs.base import WHEN, Construct, DealPart, Lines
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import INT
from rulelang.compile.ir import PhaseBase, Rule
from rulelang.validators.registry import check


@dataclass
class SettlePhase(PhaseBase):
    """Score every counting item per side, then settle between the sides (``pattern``); ``scoring`` holds,
    per contract name (None: no contract of the ladder), the compiled scoring of its items
    (:mod:`rulelang.compile.settle`)."""

    pattern: str = "declarers_share"
    multiplier: Rule | None = None
    doubling_adds: int = 0
    scoring: dict = field(default_factory=dict)
    kind: str = "settle"


class SettleState(DealPart):
    """What the settlement scored: one row per item and side, as (item, won by the declarers — or None
    when scored for a seat alone —, amount, doubling level or that seat, announced?) (``results``),
    the items' names (``scored_items``) and the factor of the whole settlement (``multiplier``). The
    settlement is one step that begins by copying the slice (``renews_part``), so a clone shares it."""

    def __init__(self, game) -> None:
        self.results: list[tuple] = []
        self.scored_items: set[str] = set()
        self.multiplier = 1


class Settle(Construct):
    """Scores the game and every bonus separately, sums them per side and pays out by ``pattern``."""

    kind = "settle"
    batch_kernel = "rulelang.batch.auction:SETTLE"
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
        doubling_adds = int(body.get("doubling_adds") or 0)
        return SettlePhase(pattern=str(body.get("pattern", "declarers_share")),
                           multiplier=c.optional_rule(path + ("multiplier",), INT), doubling_adds=doubling_adds,
                           scoring=scoring_rules(c, path, doubling_adds))

    @staticmethod
    def dump(phase) -> str:
        return f" {phase.pattern}" + (f" times `{phase.multiplier.text}`" if phase.multiplier else "") + \
            (f", doublings add {phase.doubling_adds}" if phase.doubling_adds else "")

    @staticmethod
    def enter(st, phase) -> bool:
        game, part = st.game, st.settle.copy()
        st.settle = part
        everyone = (1 << game.num_players) - 1
        among = st.tricks.among or everyone
        declarers = st.side_mask & among
        defenders = among & ~declarers
        plan = _plan(game, phase, st.contract)
        game_value = plan.value.fn(st, None) if plan.value is not None else 0
        rows = plan.scoring.fn(st, (declarers, defenders, game_value))
        personal = None
        if plan.per_seat:
            personal = [0] * game.num_players
            for item, factor in plan.per_seat:
                Settle._per_seat(st, item, factor, among, personal, rows)
            if plan.order is not None:
                rows.sort(key=lambda row: plan.order[row[0]])
        if plan.exclusive:
            rows = Settle._exclusive(st, rows, declarers, defenders)
        net, scored = 0, set(part.scored_items)
        for name, won, amount, _, _ in rows:
            scored.add(name)
            if won is not None:
                net += amount if won else -amount
        part.results, part.scored_items = rows, scored
        multiplier = phase.multiplier.fn(st, None) if phase.multiplier is not None else 1
        part.multiplier = multiplier
        if phase.pattern == "declarers_score":
            paid = [(seat, net * multiplier) for seat in range(game.num_players) if declarers >> seat & 1 and net]
        else:
            paid = Settle._payments(st, net * multiplier, declarers, defenders)
        if personal is not None:
            paid += [(seat, amount * multiplier) for seat, amount in enumerate(personal) if amount]
        if paid:
            st.add_scores(paid)
        return False

    @staticmethod
    def _exclusive(st, rows: list, declarers: int, defenders: int) -> list:
        """``rows`` without the items that are not exclusive when a side achieved an exclusive one (the game
        and items scored per seat stay)."""
        items = st.game.definition.items
        if not any(row[1] is not None and items[row[0]].exclusive and (
                items[row[0]].achieved.fn(st, declarers) or items[row[0]].achieved.fn(st, defenders)) for row in rows):
            return rows
        return [row for row in rows if items[row[0]].exclusive or items[row[0]].is_game or row[1] is None]

    @staticmethod
    def _per_seat(st, item, factor: int, among: int, personal: list, rows: list) -> None:
        """Score ``item`` for each seat alone (``per_seat``): every other seat pays it; a row
        (item, None, amount, seat, False) for each seat that achieved it."""
        others = bin(among).count("1") - 1
        for seat in range(st.game.num_players):
            if among >> seat & 1 and item.achieved.fn(st, 1 << seat):
                value = item.value.fn(st, None) * factor
                for other in range(st.game.num_players):
                    if among >> other & 1:
                        personal[other] += value * others if other == seat else -value
                rows.append((item.name, None, value, seat, False))

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
        seat_name, defined = st.game.seat_name, st.game.definition.items
        items = []
        for name, won, value, level, announced in st.settle.results:
            item = defined[name]
            if won is None:
                items.append({"item": item.title, "side": seat_name(level), "value": value, "announced": False,
                              "level": 0})
            else:
                items.append({"item": item.title, "side": "declarers" if won else "defenders", "value": value,
                              "announced": announced, "game": item.is_game, "level": level})
        return {"items": items, "multiplier": st.settle.multiplier}

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        lines = ["Settlement: every item that counts is scored for the side that achieved it; " +
                 ("each declarer scores the net, won or lost, and the defenders score nothing (the deal does not "
                  "sum to zero)" if body.get("pattern") == "declarers_score" else
                  "each defender pays the net to the declaring side, which shares it")]
        if body.get("multiplier") is not None:
            lines.append(f"The whole settlement is multiplied by {ctx.say(body['multiplier'])}")
        if body.get("doubling_adds"):
            lines.append(f"Each doubling step adds {body['doubling_adds']} to its item instead of doubling it")
        return lines + rest(body, {"pattern", "multiplier", "doubling_adds", "when"})


class SettlePlan:
    """What a settlement scores in one contract, worked out once per game: the compiled scoring of the items
    scored for a side (``scoring``, from the phase), the contract's value when its game counts
    (``value``, else None: the game is then worth 0), each item scored per seat with the factor its
    value is multiplied by (``per_seat``), whether any item is exclusive (``exclusive``), and — when
    an item scored per seat is listed before one scored for a side — each item's place in the list,
    to put the rows back in that order (``order``, else None)."""

    def __init__(self, game, phase, contract_name) -> None:
        definition = game.definition
        contract = definition.contracts.get(contract_name)
        listed = contract.items if contract is not None and contract.items is not None else definition.items
        counting = [definition.items[name] for name in listed if name in definition.items]
        self.scoring = phase.scoring[contract.name if contract is not None else None]
        self.value = contract.value if contract is not None and any(item.is_game for item in counting) else None
        self.per_seat = tuple((item, 1 if item.is_game or contract is None else contract.bonus_factor)
                              for item in counting if item.per_seat)
        self.exclusive = any(item.exclusive for item in counting)
        kinds = [item.per_seat for item in counting]
        mixed = any(kinds[i] and not kinds[j] for i in range(len(kinds)) for j in range(i + 1, len(kinds)))
        self.order = {item.name: place for place, item in enumerate(counting)} if mixed else None


def _plan(game, phase, contract_name) -> SettlePlan:
    """The :class:`SettlePlan` of ``phase`` in contract ``contract_name``, made on first use and kept with
    the game."""
    plans = game.phase_tables.get(id(phase))
    if plans is None:
        plans = game.phase_tables[id(phase)] = {}
    plan = plans.get(contract_name)
    if plan is None:
        plan = plans[contract_name] = SettlePlan(game, phase, contract_name)
    return plan


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
