"""Worlds a seat cannot tell from the real one: the hidden cards dealt anew, for agents that look ahead.

:func:`determinize` clones a state and deals every card ``seat`` cannot see — the other
hands, the talon, the piles not taken, the other seats' discards — anew among those
places, each keeping its number of cards. What ``seat`` knows stays: its own hand and
discards, every card played, the trick on the table, and a called card whose holder has
been revealed. The cards are put in a fixed order before they are shuffled, so two
states that differ only in what ``seat`` cannot see give the same worlds for the same
generator: an agent that decides on worlds alone cannot be told what it may not know.

What the rules let a seat infer beyond that (a seat that did not follow suit holds none
of it, a bid's condition on the bidder's hand) is not yet used: the worlds are
consistent with every card a seat has seen, not with every inference.
"""

from __future__ import annotations

import random

from rulelang.deck import iter_bits


def hidden_places(state, seat: int) -> list[tuple[str, int, int]]:
    """(kind, index, mask) of every place that holds cards ``seat`` cannot see."""
    places = [("hand", s, state.hands[s]) for s in range(state.game.num_players) if s != seat]
    places.append(("talon", 0, state.talon))
    places.extend(("pile", i, pile) for i, pile in enumerate(state.piles))
    places.extend(("discards", s, state.discards[s]) for s in range(state.game.num_players) if s != seat)
    return [place for place in places if place[2]]


def determinize(state, seat: int, rng: random.Random):
    """A clone of ``state`` with every card hidden from ``seat`` dealt anew among the places that hide them."""
    world = state.clone()
    fixed = _revealed_called_card(state, seat)
    places = hidden_places(state, seat)
    pool = sorted(card for _, _, mask in places for card in iter_bits(mask & ~fixed))
    rng.shuffle(pool)
    old_discards = sum(mask for kind, _, mask in places if kind == "discards")
    for kind, index, mask in places:
        keep = mask & fixed
        count = bin(mask & ~fixed).count("1")
        new = keep
        for card in pool[:count]:
            new |= 1 << card
        del pool[:count]
        _put(world, kind, index, mask, new)
    world.out = world.out & ~old_discards | sum(world.discards[s] for s in range(world.game.num_players) if s != seat)
    _reform_called_side(world)
    return world


def _revealed_called_card(state, seat: int) -> int:
    """The called card as a mask, when its holder is known to ``seat`` and it is still held."""
    called = getattr(state, "called", -1)
    if called is None or called < 0 or not state.revealed:
        return 0
    return 1 << called


def _put(world, kind: str, index: int, old: int, new: int) -> None:
    """Give place ``(kind, index)`` of ``world`` the cards ``new`` instead of ``old``."""
    if kind == "hand":
        world.hands[index] = new
        world.dealt[index] = world.dealt[index] & ~old | new
    elif kind == "talon":
        world.talon = new
    elif kind == "pile":
        world.piles[index] = new
    else:
        world.discards[index] = new
        world.dealt[index] = world.dealt[index] & ~old | new


def _reform_called_side(world) -> None:
    """After the deal anew, the declarer's side is the declarer and whoever now holds the called card."""
    called = getattr(world, "called", -1)
    if world.contract is None or called is None or called < 0 or world.revealed:
        return
    row = world.game.definition.contracts.get(world.contract)
    if row is None or row.sides != "called":
        return
    holder = next((s for s in range(world.game.num_players) if world.hands[s] >> called & 1), None)
    world.side_mask = 1 << world.declarer | (1 << holder if holder is not None else 0)
