"""The functions expressions may call, each with its parameter types and result type."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from rulelang.exprcompile import BOOL, CARD, CARDS, INT, NAME, SCORES, SEAT, SEATS, SUIT, popcount


@dataclass(frozen=True)
class FunctionSpec:
    """A callable name: parameter types, result type, and a builder of its closure."""

    params: tuple
    result: str
    build: Callable
    doc: str


def _per_seats(read: Callable) -> Callable:
    """Build a function of a seat set that sums ``read(state, seat)`` over the set."""
    def build(scope, fns):
        (f,) = fns

        def total(st, pl):
            mask, value, seat = f(st, pl), 0, 0
            while mask:
                if mask & 1:
                    value += read(st, seat, scope)
                mask >>= 1
                seat += 1
            return value
        return total
    return build


def _card_points(st, seat, scope) -> int:
    mask, total, points = st.won[seat], 0, scope.points
    while mask:
        low = mask & -mask
        total += points[low.bit_length() - 1]
        mask ^= low
    return total


def _unary(op: Callable) -> Callable:
    """Build a one-argument function from ``op(scope, state, value)``."""
    def build(scope, fns):
        (f,) = fns
        return lambda st, pl: op(scope, st, f(st, pl))
    return build


def _highest(scope, st, mask: int) -> int:
    if not mask:
        return -1
    order = scope.card_order
    return min((order[c] for c in _bits(mask)))[1]


def _lowest(scope, st, mask: int) -> int:
    if not mask:
        return -1
    order = scope.card_order
    return max((order[c] for c in _bits(mask)))[1]


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _holder(scope, st, mask: int) -> int:
    for seat, hand in enumerate(st.dealt):
        if mask and hand & mask == mask:
            return seat
    return -1


def _winning_card(scope, st, number: int) -> int:
    return st.trick_winners[number - 1][1] if 0 < number <= len(st.trick_winners) else -1


def _position(scope, st, card: int) -> int:
    for place, (_, played) in enumerate(st.trick, start=1):
        if played == card:
            return place
    return 0


def _taken_by(scope, st, card: int) -> int:
    number = st.card_trick[card] if card >= 0 else 0
    return st.trick_winners[number - 1][0] if number else -1


FUNCTIONS: dict[str, FunctionSpec] = {
    "tricks": FunctionSpec((SEATS,), INT, _per_seats(lambda st, s, sc: st.tricks[s]),
                           "tricks taken this deal by a seat or a set of seats"),
    "points": FunctionSpec((SEATS,), INT, _per_seats(_card_points),
                           "card points in the tricks taken by a seat or a set of seats"),
    "score": FunctionSpec((SEAT,), INT, _unary(lambda sc, st, s: st.scores[s]),
                          "the seat's match score before this deal's scoring"),
    "count": FunctionSpec(((CARDS, SEATS),), INT, _unary(lambda sc, st, m: popcount(m)),
                          "how many cards or seats a set holds"),
    "min": FunctionSpec((SCORES,), INT, _unary(lambda sc, st, v: min(v)), "the lowest of the scores"),
    "max": FunctionSpec((SCORES,), INT, _unary(lambda sc, st, v: max(v)), "the highest of the scores"),
    "next": FunctionSpec((SEAT,), SEAT, _unary(lambda sc, st, s: (s + sc.step) % sc.players),
                         "the seat after this one in the direction of play"),
    "prev": FunctionSpec((SEAT,), SEAT, _unary(lambda sc, st, s: (s - sc.step) % sc.players),
                         "the seat before this one in the direction of play"),
    "suit": FunctionSpec((CARD,), SUIT, _unary(lambda sc, st, c: sc.card_suits[c] if c >= 0 else -1),
                         "the suit of a card"),
    "abs": FunctionSpec((INT,), INT, _unary(lambda sc, st, v: abs(v)), "the absolute value of a number"),
    "hand": FunctionSpec((SEAT,), CARDS, _unary(lambda sc, st, s: st.hands[s]), "the cards a seat holds now"),
    "dealt": FunctionSpec((SEAT,), CARDS, _unary(lambda sc, st, s: st.dealt[s]),
                          "the cards a seat was dealt (its hand before any exchange or play)"),
    "highest": FunctionSpec((CARDS,), CARD, _unary(_highest), "the highest-ranking card of a set (none if empty)"),
    "lowest": FunctionSpec((CARDS,), CARD, _unary(_lowest), "the lowest-ranking card of a set (none if empty)"),
    "holder": FunctionSpec((CARDS,), SEAT, _unary(_holder),
                           "the seat that was dealt every card of the set, or none"),
    "played_by": FunctionSpec((CARD,), SEAT, _unary(lambda sc, st, c: st.card_player[c] if c >= 0 else -1),
                              "the seat that played a card in a trick, or none"),
    "trick_of": FunctionSpec((CARD,), INT, _unary(lambda sc, st, c: st.card_trick[c] if c >= 0 else 0),
                             "the number (from 1) of the trick a card fell in, or 0"),
    "taken_by": FunctionSpec((CARD,), SEAT, _unary(_taken_by), "the seat that won the trick a card fell in, or none"),
    "winning_card": FunctionSpec((INT,), CARD, _unary(_winning_card), "the card that won trick number N"),
    "position": FunctionSpec((CARD,), INT, _unary(_position),
                             "the place (from 1) of a card in the trick on the table, or 0"),
    "scored": FunctionSpec((NAME,), BOOL, _unary(lambda sc, st, name: name in st.scored_items),
                           "whether the named item scored for either side in this deal's settlement"),
}
