"""The functions expressions may call, each with its parameter types and result type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rulelang.exprcompile import CARD, CARDS, INT, SCORES, SEAT, SEATS, SUIT, popcount


@dataclass(frozen=True)
class FunctionSpec:
    """A callable name: parameter types, result type, and a builder of its closure."""

    params: tuple
    result: str
    build: Callable
    doc: str


def _tricks(scope, fns):
    (f,) = fns
    return lambda st, pl: st.tricks[f(st, pl)]


def _points(scope, fns):
    (f,) = fns
    points = scope.points

    def card_points(st, pl):
        mask, total = st.won[f(st, pl)], 0
        while mask:
            low = mask & -mask
            total += points[low.bit_length() - 1]
            mask ^= low
        return total
    return card_points


def _score(scope, fns):
    (f,) = fns
    return lambda st, pl: st.scores[f(st, pl)]


def _count(scope, fns):
    (f,) = fns
    return lambda st, pl: popcount(f(st, pl))


def _min(scope, fns):
    (f,) = fns
    return lambda st, pl: min(f(st, pl))


def _max(scope, fns):
    (f,) = fns
    return lambda st, pl: max(f(st, pl))


def _next(scope, fns):
    (f,) = fns
    n, step = scope.players, scope.step
    return lambda st, pl: (f(st, pl) + step) % n


def _prev(scope, fns):
    (f,) = fns
    n, step = scope.players, scope.step
    return lambda st, pl: (f(st, pl) - step) % n


def _suit_of(scope, fns):
    (f,) = fns
    suits = scope.card_suits
    return lambda st, pl: suits[f(st, pl)]


def _abs(scope, fns):
    (f,) = fns
    return lambda st, pl: abs(f(st, pl))


def _hand(scope, fns):
    (f,) = fns
    return lambda st, pl: st.hands[f(st, pl)]


FUNCTIONS: dict[str, FunctionSpec] = {
    "tricks": FunctionSpec((SEAT,), INT, _tricks, "number of tricks the seat has taken this deal"),
    "points": FunctionSpec((SEAT,), INT, _points, "card points in the tricks the seat has taken"),
    "score": FunctionSpec((SEAT,), INT, _score, "the seat's match score before this deal's scoring"),
    "count": FunctionSpec(((CARDS, SEATS),), INT, _count, "how many cards or seats a set holds"),
    "min": FunctionSpec((SCORES,), INT, _min, "the lowest of the scores"),
    "max": FunctionSpec((SCORES,), INT, _max, "the highest of the scores"),
    "next": FunctionSpec((SEAT,), SEAT, _next, "the seat after this one in the direction of play"),
    "prev": FunctionSpec((SEAT,), SEAT, _prev, "the seat before this one in the direction of play"),
    "suit": FunctionSpec((CARD,), SUIT, _suit_of, "the suit of a card"),
    "abs": FunctionSpec((INT,), INT, _abs, "the absolute value of a number"),
    "hand": FunctionSpec((SEAT,), CARDS, _hand, "the cards a seat holds now"),
}
