"""``bids``: each seat in turn bids a number — how many tricks it will take — once per deal.

YAML ``- bids: {from: "next(dealer)", max: hand_size, forbid: "player == dealer and bid(seats) + number == hand_size"}``;
DSL ``bids from next(dealer) max hand_size forbid player == dealer and bid(seats) + number == hand_size``.
Each seat still in, from ``from`` in the direction of play, says one whole number from
``min`` (default 0) to ``max``; ``forbid`` makes a number illegal when it holds, with
``player`` bound to the bidder and ``number`` to the number (the dealer, bidding last, may
not make the bids add up to the tricks); a seat is asked even when one number is left, as OpenSpiel
asks. Everyone hears every bid; rules read them as ``bid(SEATS)``,
the sum of the bids of a seat or set of seats (partners' bids add up). The actions are the
numbers themselves (``0``, ``1``, …).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulelang.compile.codegen import part_attr
from rulelang.constructs.base import WHEN, Construct, DealPart, DiffKey, Lines, permitted, symbol, turn_order
from rulelang.diagnostics import Diagnostic
from rulelang.compile.exprcompile import BOOL, INT, SEAT, Binding, EvalError
from rulelang.compile.ir import PhaseBase, Rule

MAX_BID = 100
"""The highest number a ``bids`` phase offers: every number is an action of its own."""

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class BidsPhase(PhaseBase):
    """Each seat in turn from ``start`` bids a number from ``low`` to ``high``, unless ``forbid`` holds."""

    start: Rule | None = None
    low: int = 0
    high: int = 0
    forbid: Rule | None = None
    kind: str = "bids"


class BidsState(DealPart):
    """Each seat's bid (-1 before it bids), the seats in turn (``order``, ``pos``) and the number being
    weighed by ``forbid`` (``number``)."""

    copied = ("said", "order")

    def __init__(self, game) -> None:
        self.said = [-1] * game.num_players
        self.order: list[int] = []
        self.pos = 0
        self.number = 0


def _dsl(b, meta, children):
    """``bids [from SEAT] [min N] [max N] [forbid COND] [when COND]``."""
    start, low, high, forbid, when = children
    parts = [("from", start), ("min", low), ("max", high), ("forbid", forbid), ("when", when)]
    return b.phase("bids", meta, parts)


def _known(c, body: dict, key: str, default: int) -> int:
    """``min`` or ``max`` before compilation: a whole number or a param's value (else ``default``)."""
    value = body.get(key, default)
    params = c.data.get("params") or {}
    value = params.get(value, value) if isinstance(value, str) else value
    return value if isinstance(value, int) and not isinstance(value, bool) else default


class Bids(Construct):
    """Each seat in turn bids a number once; everyone hears it; ``bid(SEATS)`` reads the bids."""

    kind = "bids"
    batch_kernel = "rulelang.batch.kernels_more:BIDS"
    keeps_hands = True
    order = 55
    summary = "each seat in turn bids a number of tricks"
    example = {"from": "next(dealer)", "max": 5, "forbid": "player == dealer and bid(seats) + number == 5"}
    schema = {'entry': 'Each seat in turn bids a number once.',
              'defs': {'bidsPhase': {'title': 'a mapping with from, min, max and forbid',
                                     'description': 'Each seat still in, in turn, bids a whole number (how many '
                                                    'tricks it will take); everyone hears it.',
                                     'type': 'object',
                                     'additionalProperties': False,
                                     'required': ['from', 'max'],
                                     'properties': {'from': {'description': 'The seat that bids first; the others '
                                                                            'follow in the direction of play.',
                                                             '$ref': '#/$defs/seatExpr'},
                                                    'min': {'description': 'The lowest number (default 0): a whole '
                                                                           "number or a param's name.",
                                                            '$ref': '#/$defs/intExpr'},
                                                    'max': {'description': "The highest number: a whole number or a "
                                                                           "param's name, e.g. hand_size.",
                                                            '$ref': '#/$defs/intExpr'},
                                                    'forbid': {'description': 'A number is illegal when this holds '
                                                                              '(player is the bidder, number the '
                                                                              'number), e.g. player == dealer and '
                                                                              'bid(seats) + number == 5.',
                                                               '$ref': '#/$defs/boolExpr'},
                                                    'when': WHEN}}}}
    codes = ("R365", "E514")
    dsl = {"bids": _dsl}
    diff_keys = {"forbid": DiffKey(text=lambda cond: f"; forbid when {cond}")}
    part = BidsState
    words = "bid"

    @staticmethod
    def limits(body: dict):
        """Beyond the schema (C107): the bounds are whole numbers up to :data:`MAX_BID` or names of params."""
        for key in ("min", "max"):
            value = body.get(key, 0)
            if isinstance(value, str) and _NAME.match(value):
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_BID:
                yield (key,), f"'{key}' must be a whole number from 0 to {MAX_BID} or a param's name", \
                    "every number that can be bid is an action of its own, so the bounds are known before play"

    @staticmethod
    def symbols(c, body) -> list[str]:
        low, high = _known(c, body, "min", 0), _known(c, body, "max", 0)
        return [str(n) for n in range(max(0, low), min(high, MAX_BID) + 1)]

    @staticmethod
    def compile(c, path, body):
        low, high = c.number(path + ("min",), 0), c.number(path + ("max",), 0)
        if not 0 <= low <= high <= MAX_BID:
            c.error("R365", f"the bids run from {low} to {high}: nobody has a number to bid", path,
                    f"give 0 <= min <= max <= {MAX_BID}")
        forbid = None
        if body.get("forbid") is not None:
            scope = c.player_scope().child(number=Binding(INT, part_attr("bids", "number")))
            forbid = c.rule(path + ("forbid",), BOOL, scope)
        return BidsPhase(c.rule(path + ("from",), SEAT), low, high, forbid)

    @staticmethod
    def dump(phase) -> str:
        forbid = f"; forbid when `{phase.forbid.text}`" if phase.forbid is not None else ""
        return f" {phase.low}..{phase.high} from `{phase.start.text}`{forbid}"

    @staticmethod
    def blocked(phase) -> str | None:
        from rulelang.validators.probe import is_constant
        if is_constant(phase.forbid, True):
            return "every number is always forbidden, so nobody can bid"
        return None

    @staticmethod
    def enter(st, phase) -> bool:
        part = st.bids
        part.order = turn_order(st, phase.start.fn(st, None), st.active)
        part.pos = 0
        return Bids._turn(st, phase, part)

    @staticmethod
    def allowed(st, phase, seat: int, first: bool = False) -> list[int]:
        """The numbers ``seat`` may bid now (with ``first``, only the lowest of them: whether there is one)."""
        return permitted(st, st.bids, "number", range(phase.low, phase.high + 1), phase.forbid, seat, first)

    @staticmethod
    def _turn(st, phase, part) -> bool:
        """Ask the next seat (even with one number left, as OpenSpiel asks); False when every seat has bid."""
        if part.pos >= len(part.order):
            return False
        seat = part.order[part.pos]
        if not Bids.allowed(st, phase, seat, first=True):
            raise EvalError(f"{st.game.seat_name(seat)} has no number left to bid: `{phase.forbid.text}` "
                            "forbids them all", phase.forbid.span)
        st.current = seat
        return True

    @staticmethod
    def _said(st, seat: int, number: int) -> None:
        st.bids.said[seat] = number
        st.put("decisions", seat, f"bids {number}")

    @staticmethod
    def legal(st, phase):
        ids = st.game.symbol_ids
        return [ids[str(n)] for n in Bids.allowed(st, phase, st.current)]

    @staticmethod
    def apply(st, phase, action) -> bool:
        Bids._said(st, st.current, int(symbol(st, action)))
        st.bids.pos += 1
        return not Bids._turn(st, phase, st.bids)

    @staticmethod
    def explain(st, phase, action) -> Diagnostic:
        name = st.action_to_string(action)
        if phase.forbid is not None and name.isdigit() and phase.low <= int(name) <= phase.high:
            legal = ", ".join(str(n) for n in Bids.allowed(st, phase, st.current))
            return Diagnostic("E514", f"{st.game.seat_name(st.current)} may not bid {name}: the rule "
                              f"`{phase.forbid.text}` forbids it", phase.forbid.span, f"legal now: {legal}")
        return Construct.explain(st, phase, action)

    @staticmethod
    def observe(st, player: int) -> dict:
        seat = st.game.seat_name
        said = {seat(s): n for s, n in enumerate(st.bids.said) if n >= 0}
        return {"bids": said} if said else {}

    @staticmethod
    def deal_result(st) -> dict:
        return Bids.observe(st, -1)

    @staticmethod
    def record(st, step, actor, action, name, seat, deal) -> None:
        deal["decisions"].append({"seat": seat, "phase": "bids", "action": name, "words": "bids"})

    @staticmethod
    def action_words(st, step, action: int, name: str) -> str | None:
        return f"bids {name}"

    @staticmethod
    def english(ctx, body: dict, dealt: bool) -> Lines:
        from rulelang.render.explain import rest
        lines = [f"Starting with {ctx.say(body.get('from'))} and going {ctx.direction}, each player still in bids "
                 f"how many tricks he will take, from {ctx.say(body.get('min', 0))} to {ctx.say(body.get('max'))}; "
                 "everyone hears it"]
        if body.get("forbid") is not None:
            lines.append(f"Nobody may bid a number when {ctx.say(body['forbid'])}")
        return lines + rest(body, {"from", "min", "max", "forbid", "when"})

    @staticmethod
    def fmt(value, pad) -> Lines | None:
        from rulelang.render.fmt import WHEN_PART, expr_text, head_parts, scalar_text
        if not isinstance(value, dict) or not set(value) <= {"from", "min", "max", "forbid", "when"}:
            return None
        parts = [("from", "from", expr_text), ("min", "min", scalar_text), ("max", "max", scalar_text),
                 ("forbid", "forbid", expr_text), WHEN_PART]
        text, used = head_parts(value, parts)
        return [f"{pad}bids{text}"] if used == set(value) else None


CONSTRUCT = Bids
