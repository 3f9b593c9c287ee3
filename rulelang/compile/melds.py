"""Combinations of cards that score — runs, sets of one rank, named cards — found in a hand or in a trick, and
the comparison that decides whose count.

A ``meld`` phase (the declarations of each hand) and a trick rule set's ``melds`` (combinations in a trick,
scored for its winner) name their kinds the same way::

    kinds:
      sequence: {run: 3, points: [20, 50, 100], order: [A, K, Q, J, "10", "9", "8", "7"]}
      carre: {same_rank: {J: 200, "9": 150, A: 100, "10": 100, K: 100, Q: 100}}
      royal_pair: {cards: "kings_queens & trump", points: 20}
      marriage: {cards: "kings_queens & this_suit", each: suits, points: "if this_suit == trump then 40 else 20"}

- ``run: N``: N or more cards of one suit next to each other in ``order`` (ranks high to low; default the
  deck's); ``points`` by length from N, the last for any longer run. A run is counted whole (a run of six is one
  meld), once even when copies of its cards are held twice.
- ``same_rank: {RANK: POINTS}``: a card of that rank in every suit; with ``twice`` (``{A: 1000}``) the points
  when every suit's card is held twice (a pack with copies).
- ``cards: CARDS``: all of these cards held (``player`` bound to the seat); ``points`` a number or an
  expression; ``twice`` the points when every card is held twice. ``each: suits`` asks it once a suit with
  ``this_suit`` bound to that suit's cards.

A card may count in melds of different kinds; in one kind it counts once (runs are whole, sets one a rank).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.compile.deck import bit_list

@dataclass(frozen=True)
class MeldKind:
    """One kind of meld, compiled: its ``form`` (``run``, ``same_rank`` or ``cards``) and what it needs."""

    name: str
    form: str
    position: int                               # its place among the kinds as written (first: 0)
    least: int = 0                              # run: the shortest run
    by_length: tuple = ()                       # run: points by length from ``least``
    lines: tuple = ()                           # run: per suit, each rank's cards high to low (copies together)
    ranks: tuple = ()                           # same_rank: (rank, points, twice, per-suit masks, top)
    rules: tuple = ()                           # cards: (cards rule, points rule or int, twice rule or int) a suit


@dataclass(frozen=True)
class Meld:
    """A combination found: its kind, the seat, the cards, its points, how many cards, how high its top card
    (lower is higher), whether held twice, and the kind's place."""

    kind: str
    seat: int
    cards: int
    points: int
    length: int
    top: int
    position: int
    times: int = 1
    trump: bool = field(default=False, compare=False)


# ---------------------------------------------------------------------- finding
def find_melds(st, kinds, cards: int, seat: int, trump: int = 0) -> list[Meld]:
    """Every meld of ``kinds`` in ``cards`` (a hand, or a trick's cards), credited to ``seat``; ``trump``: the
    cards that make a meld a trump meld."""
    found: list[Meld] = []
    for kind in kinds:
        if kind.form == "run":
            found += _runs(kind, cards, seat)
        elif kind.form == "same_rank":
            found += _sets(kind, cards, seat)
        else:
            found += _named(st, kind, cards, seat)
    if trump:
        found = [Meld(m.kind, m.seat, m.cards, m.points, m.length, m.top, m.position, m.times,
                      not m.cards & ~trump) for m in found]
    return found


def _runs(kind: MeldKind, cards: int, seat: int) -> list[Meld]:
    found = []
    for line in kind.lines:
        start = None
        for place, mask in enumerate((*line, 0)):
            if mask and cards & mask:
                start = place if start is None else start
                continue
            if start is not None and place - start >= kind.least:
                length = place - start
                held = 0
                for m in line[start:place]:
                    held |= (cards & m) & -(cards & m)          # one copy a rank
                points = kind.by_length[min(length - kind.least, len(kind.by_length) - 1)]
                found.append(Meld(kind.name, seat, held, points, length, start, kind.position))
            start = None
    return found


def _sets(kind: MeldKind, cards: int, seat: int) -> list[Meld]:
    found = []
    for rank, points, twice, masks, top in kind.ranks:
        if not all(masks):
            continue
        times = min(bin(cards & m).count("1") for m in masks)
        if times < 1:
            continue
        held = 0
        for m in masks:
            for card in bit_list(cards & m)[:2 if times >= 2 and twice else 1]:
                held |= 1 << card
        worth = twice if times >= 2 and twice else points
        found.append(Meld(kind.name, seat, held, worth, bin(held).count("1"), top, kind.position,
                          2 if times >= 2 and twice else 1))
    return found


def _named(st, kind: MeldKind, cards: int, seat: int) -> list[Meld]:
    found = []
    twins = st.game.deck.twins
    for rule, points, twice in kind.rules:
        wanted = rule.fn(st, seat)
        if not wanted:
            continue
        names = {twins[c] if twins else 1 << c for c in bit_list(wanted)}
        times = min(bin(cards & name).count("1") for name in names)
        if times < 1:
            continue
        doubled = times >= 2 and twice != 0
        held = 0
        for name in names:
            for card in bit_list(cards & name)[:2 if doubled else 1]:
                held |= 1 << card
        worth = _value(st, twice if doubled else points, seat)
        if worth:
            top = min(st.game.deck.cards[c].order for c in bit_list(held))
            found.append(Meld(kind.name, seat, held, worth, bin(held).count("1"), top, kind.position,
                              2 if doubled else 1))
    return found


def _value(st, points, seat: int) -> int:
    return points if isinstance(points, int) else int(points.fn(st, seat) or 0)


# ---------------------------------------------------------------------- comparison
KEYS = ("points", "length", "top", "trump", "kind")
"""What a comparison of melds may look at, in the order a rule names them."""


def strength(meld: Meld, keys) -> tuple:
    """The meld's strength under the comparison ``keys`` (greater is better)."""
    values = {"points": meld.points, "length": meld.length, "top": -meld.top, "trump": int(meld.trump),
              "kind": -meld.position}
    return tuple(values[k] for k in keys)


def counted(melds: list[Meld], sides: list[int], keys, tie: str, play_order: list[int]) -> list[Meld]:
    """The melds that count: all of those of the side (a mask of seats) holding the best meld, by ``keys``;
    equal best melds of different sides go to the side first in ``play_order`` (``tie: first``) or to none
    (``tie: none``). With no ``sides`` every meld counts."""
    if not sides or not melds:
        return list(melds)
    best = max(strength(m, keys) for m in melds)
    holders = [m.seat for m in melds if strength(m, keys) == best]
    side_of = {seat: next((side for side in sides if side >> seat & 1), 1 << seat) for seat in holders}
    if len(set(side_of.values())) > 1:
        if tie != "first":
            return []
        first = min(holders, key=lambda seat: play_order.index(seat) if seat in play_order else len(play_order))
        winner = side_of[first]
    else:
        winner = side_of[holders[0]]
    return [m for m in melds if winner >> m.seat & 1]
