"""Whether the scores can ever meet the match's ``end``, found without playing.

Each ``score`` phase's ``add`` is read as a range of whole numbers (tricks, card points
and counts are never negative; params and numbers are what they say; ``if`` joins its
branches). When every ``add`` of the game is at least 0, no score ever falls below the
start; when every one is at most 0, none ever rises above it. The ``end`` condition is
then read over scores kept on that side of the start, and if it can hold for none of
them, the match can never end. Games that settle between sides (``settle``), or whose
scores change by anything but ``score`` phases, are left to ``validate --simulate``
(W615) and the engine's limit (E554). ``validate`` warns (W616, :mod:`rulelang.validators.reach`)
and the engine stops such a match after its first deal (E554).
"""

from __future__ import annotations

import math

from rulelang.diagnostics import RuleError
from rulelang.read.expr import Expr, parse_expr
from rulelang.compile.ir import GameDef

INF = math.inf
ANY = (-INF, INF)
NON_NEGATIVE_CALLS = {"tricks", "points", "count", "tricks_played", "trick_of", "abs"}
NON_NEGATIVE_NAMES = {"tricks_played", "deal_number", "players"}
COMPARISONS = {"<", "<=", ">", ">=", "==", "!="}


def why_endless(game: GameDef) -> str | None:
    """How the scores move (``scores only rise from 10``) when they never reach what ``end`` needs, else None."""
    adds = _score_adds(game)
    if adds is None or not adds:
        return None
    params = {k: v for k, v in game.params.items() if isinstance(v, int) and not isinstance(v, bool)}
    ranges = [_range(_parse(rule.text), params) for rule in adds]
    start = game.match.start
    if all(low >= 0 for low, _ in ranges):
        scores, way = (start, INF), f"scores only rise from {start}"
    elif all(high <= 0 for _, high in ranges):
        scores, way = (-INF, start), f"scores only fall from {start}"
    else:
        return None
    return way if _may_hold(_parse(game.match.end.text), scores, params) is False else None


def _score_adds(game: GameDef):
    """The ``add`` rules of the score phases, or None when scores change any other way too (a settlement)."""
    adds = []
    for phase in game.phases:
        if phase.kind == "settle":
            return None
        if phase.kind == "score":
            adds.append(phase.add)
        for step in getattr(phase, "steps", None) or []:
            if step.kind == "settle":
                return None
            if step.kind == "score":
                adds.append(step.add)
    return adds


def _parse(text: str) -> Expr | None:
    try:
        return parse_expr(text)
    except RuleError:
        return None


def _range(e: Expr | None, params: dict) -> tuple[float, float]:
    """The whole numbers ``e`` can come to, as (lowest, highest); ANY when it cannot be told."""
    if e is None:
        return ANY
    if e.op == "int":
        return (e.value, e.value)
    if e.op == "name":
        if e.value in params:
            return (params[e.value], params[e.value])
        return (0, INF) if e.value in NON_NEGATIVE_NAMES else ANY
    if e.op == "call":
        return (0, INF) if e.value in NON_NEGATIVE_CALLS else ANY
    if e.op == "neg":
        low, high = _range(e.args[0], params)
        return (-high, -low)
    if e.op == "cond":
        (a, b), (c, d) = _range(e.args[1], params), _range(e.args[2], params)
        return (min(a, c), max(b, d))
    if e.op in ("+", "-", "*"):
        return arithmetic(e.op, _range(e.args[0], params), _range(e.args[1], params))
    return ANY


def arithmetic(op: str, a: tuple, b: tuple) -> tuple[float, float]:
    """The range of ``a op b`` for ranges ``a`` and ``b`` (``+``, ``-``, ``*``), as (lowest, highest)."""
    if op == "+":
        return (a[0] + b[0], a[1] + b[1])
    if op == "-":
        return (a[0] - b[1], a[1] - b[0])
    products = [x * y for x in a for y in b if not (math.isinf(x) and y == 0 or math.isinf(y) and x == 0)]
    return (min(products), max(products)) if len(products) == 4 else ANY


def _may_hold(e: Expr | None, scores: tuple, params: dict) -> bool | None:
    """False if condition ``e`` holds for no scores in the range ``scores``; None when it may."""
    if e is None:
        return None
    if e.op == "and":
        parts = [_may_hold(a, scores, params) for a in e.args]
        return False if False in parts else None
    if e.op == "or":
        parts = [_may_hold(a, scores, params) for a in e.args]
        return False if all(p is False for p in parts) else None
    if e.op == "bool":
        return None if e.value else False
    if e.op in COMPARISONS:
        return compare(e.op, _score_range(e.args[0], scores, params), _score_range(e.args[1], scores, params))
    return None


def _score_range(e: Expr, scores: tuple, params: dict) -> tuple[float, float]:
    """A side of a comparison in ``end``: scores (``min``/``max``/``score`` of them) in their range, else a number."""
    if e.op == "call" and e.value in ("min", "max", "score"):
        return scores
    if e.op == "name" and e.value == "score":
        return scores
    return _range(e, params)


def compare(op: str, a: tuple, b: tuple) -> bool | None:
    """False when ``a op b`` holds for no values of the two ranges."""
    impossible = {"<": a[0] >= b[1], "<=": a[0] > b[1], ">": a[1] <= b[0], ">=": a[1] < b[0],
                  "==": a[1] < b[0] or b[1] < a[0], "!=": a[0] == a[1] == b[0] == b[1]}
    return False if impossible[op] else None
