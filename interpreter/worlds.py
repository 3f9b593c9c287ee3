"""Worlds a seat cannot tell from the real one: the hidden cards dealt anew, for agents that look ahead.

:func:`determinize` clones a state and deals every card ``seat`` cannot see — the other
hands, the talon, the cards still undealt in the stock, the piles not taken, the other
seats' discards — anew among those places, each keeping its number of cards. What ``seat`` knows stays: its own hand and
discards, every card played, the trick on the table, and a called card whose holder has
been revealed. The cards are put in a fixed order before they are shuffled, so two
states that differ only in what ``seat`` cannot see give the same worlds for the same
generator: an agent that decides on worlds alone cannot be told what it may not know.

Given ``voids`` (:func:`~.inference.public_voids`: a seat that did not follow a tier of
the trick rules holds none of it), no seat is dealt a card it cannot hold; given ``said``
(:func:`~.inference.said_evidence`: a bid's condition held for the bidder's hand), worlds
are drawn until one gives it.
"""

from __future__ import annotations

import functools
import random

from rulelang.constructs import Construct, construct, constructs
from rulelang.compile.deck import bit_list, iter_bits


def hidden_places(state, seat: int) -> list[tuple[str, int, int]]:
    """(kind, index, mask) of every place that holds cards ``seat`` cannot see (a hand's cards that everyone
    knows it holds are not among them: :meth:`~rulelang.constructs.base.Construct.public_holdings`).

    A seat of which everyone knows some cards are in its hand or its discards
    (:meth:`~rulelang.constructs.base.Construct.held_or_discarded`) has one place ``held`` for its hand and
    discards together, without those cards; a talon's cards that everyone has seen are no hidden place."""
    n = state.game.num_players
    known, mixed, face_up, public = [0] * n, [0] * n, [0] * n, 0
    for found in state.game.parts:
        for holder, cards in found.public_holdings(state).items():
            known[holder] |= cards
        for holder, cards in found.public_discards(state).items():
            face_up[holder] |= cards
        for holder, cards in found.holdings_known_to(state, seat).items():
            known[holder] |= cards
        for holder, cards in found.held_or_discarded(state).items():
            mixed[holder] |= cards
        public |= found.public_cards(state)
    places = []
    for s in range(n):
        if s == seat:
            continue
        if mixed[s]:
            places.append(("held", s, (state.hands[s] | state.discards[s]) & ~known[s] & ~mixed[s] & ~face_up[s]))
        else:
            places.append(("hand", s, state.hands[s] & ~known[s]))
    places.append(("talon", 0, state.talon & ~public))
    places.append(("stock", 0, state.stock))
    for found in _hiders():
        places.extend(found.hidden(state, seat))
    places.extend(("discards", s, state.discards[s] & ~face_up[s]) for s in range(n) if s != seat and not mixed[s])
    return [place for place in places if place[2]]


def public_discards(state) -> list[int]:
    """Per seat, its discards laid face up for everyone
    (:meth:`~rulelang.constructs.base.Construct.public_discards`): no world moves them."""
    face_up = [0] * state.game.num_players
    for found in state.game.parts:
        for holder, cards in found.public_discards(state).items():
            face_up[holder] |= cards
    return face_up


@functools.cache
def _hiders() -> tuple:
    """The constructs that hold cards of their own (:meth:`~rulelang.constructs.base.Construct.hidden`)."""
    return tuple(c for c in constructs().values() if c.hidden is not Construct.hidden)


def mixed_holdings(state, seat: int) -> dict[int, int]:
    """Per seat other than ``seat``: the cards everyone knows are in its hand or its discards."""
    mixed: dict[int, int] = {}
    for found in state.game.parts:
        for holder, cards in found.held_or_discarded(state).items():
            if holder != seat:
                mixed[holder] = mixed.get(holder, 0) | cards
    return mixed


SAID_TRIES = 100          # worlds drawn at most to find one that gives what the other seats' moves said


def determinize(state, seat: int, rng: random.Random, voids: list[int] | None = None, said: list = ()):
    """A clone of ``state`` with every card hidden from ``seat`` dealt anew among the places that hide them.

    ``voids`` (per seat, the cards it cannot hold: :func:`~.inference.public_voids`) are
    respected; None when no deal can respect them. A seat's ``held`` place is dealt as two: its
    hand and its discards, after the cards known to be in one or the other are shared between
    them at random (:func:`_split_known`), so no world tells which of them it discarded.
    ``said`` (:func:`~.inference.said_evidence`: what a bid's condition says of the bidder's hand)
    is kept by drawing again, up to :data:`SAID_TRIES` worlds; the last is kept if none gives it.
    """
    world = _deal_world(state, seat, rng, voids)
    for _ in range(SAID_TRIES - 1 if said else 0):
        if world is None or all(evidence.holds(world) for evidence in said):
            break
        world = _deal_world(state, seat, rng, voids)
    return world


def _deal_world(state, seat: int, rng: random.Random, voids: list[int] | None):
    """One world as :func:`determinize` draws it, without what was said."""
    world = state.clone()
    world.discards, world.dealt = world.discards.copy(), world.dealt.copy()   # shared by a clone; written here
    fixed = _revealed_called_card(state, seat)
    places = hidden_places(state, seat)
    mixed = mixed_holdings(state, seat)
    face_up = public_discards(state) if mixed else None
    splits = {holder: _split_known(state, world, holder, cards, rng, voids, face_up[holder])
              for holder, cards in mixed.items()}
    if any(split is None for split in splits.values()):
        return None
    pool = bit_list(sum(mask for _, _, mask in places) & ~fixed)     # the places hold different cards
    rng.shuffle(pool)
    first = rng.random() < 0.5 if mixed else False   # half the worlds keep void cards out of such discards
    for strict in dict.fromkeys((first, False)):
        slots = _slots(state, world, places, fixed, voids, splits, strict, face_up)
        counts = [count for _, _, _, count, _ in slots]
        forbidden = [banned for _, _, _, _, banned in slots]
        pins = _pins(state, seat, slots, pool, counts, forbidden)
        if pins is None:
            continue
        pinned = sum(pins)
        rest = [card for card in pool if not pinned >> card & 1]
        dealt = _assign(rest, [count - bin(pin).count("1") for count, pin in zip(counts, pins)], forbidden, rng)
        if dealt is not None:
            break
    else:
        return None
    others = [s for s in range(world.game.num_players) if s != seat]
    old_discards = sum(state.discards[s] for s in others)
    for (kind, index, mask, _, _), cards, pin in zip(slots, dealt, pins):
        _put(world, kind, index, mask, mask & fixed | pin | sum(1 << card for card in cards))
    for holder, discarded in splits.items():
        known = mixed[holder]
        world.hands[holder] = world.hands[holder] & ~known | known & ~discarded
        world.discards[holder] = world.discards[holder] & ~known | discarded
    world.out = world.out & ~old_discards | sum(world.discards[s] for s in others)
    _reform_called_side(world)
    for found in world.game.parts:
        found.reform(world)
    return world


def _slots(state, world, places, fixed: int, voids, splits: dict, strict: bool, face_up) -> list[tuple]:
    """(kind, index, mask, count, forbidden) of every place to deal: a ``held`` place as its hand part and its
    discards part, sized by how many of its known cards :func:`_split_known` put in each; with ``strict`` its
    discards hold no card of what it is void in either (a seat may have thrown away what it then lacks, or
    not: half the worlds say one, half the other). ``face_up`` (per seat, :func:`public_discards`) are discards
    that stay where they are, outside the count."""
    slots = []
    for kind, index, mask in places:
        count = bin(mask & ~fixed).count("1")
        if kind != "held":
            slots.append((kind, index, mask, count, voids[index] if voids and kind == "hand" else 0))
            continue
        discarded = splits[index]
        to_discard = bin(state.discards[index] & ~face_up[index]).count("1") - bin(discarded).count("1")
        keep = count - to_discard
        undiscardable = sum(1 << c for c in range(world.game.num_cards) if not _may_discard(world, index, c))
        slots.append(("held_hand", index, mask, keep, voids[index] if voids else 0))
        void = voids[index] if voids and strict else 0
        slots.append(("held_discards", index, 0, to_discard, undiscardable | void))
    return slots


def _may_discard(world, seat: int, card: int) -> bool:
    """Whether every construct lets ``seat`` have discarded ``card`` (:meth:`Construct.may_discard`)."""
    return all(found.may_discard(world, seat, card) for found in world.game.parts)


def _split_known(state, world, seat: int, known: int, rng: random.Random, voids, face_up: int) -> int | None:
    """Which of the ``known`` cards (everyone knows they are in ``seat``'s hand or discards) a world puts in
    its discards: a number drawn from those the hand and discards could take, then that many cards at
    random — those it cannot hold among them, none it could not have discarded. None if nothing fits.
    ``face_up``: the seat's discards laid face up, which take none of the places."""
    public = 0
    for found in state.game.parts:
        public |= found.public_holdings(state).get(seat, 0)
    hand_slots = bin(state.hands[seat] & ~public).count("1")
    discard_slots = bin(state.discards[seat] & ~face_up).count("1")
    must = known & (voids[seat] if voids else 0)
    may = [c for c in iter_bits(known & ~must) if _may_discard(world, seat, c)]
    if any(not _may_discard(world, seat, c) for c in iter_bits(must)):
        return None
    size = bin(known).count("1")
    low = max(bin(must).count("1"), size - hand_slots)
    high = min(discard_slots, bin(must).count("1") + len(may))
    if low > high:
        return None
    count = rng.randint(low, high)
    return must | sum(1 << c for c in rng.sample(may, count - bin(must).count("1")))


def _pins(state, seat: int, places: list, pool: list[int], counts: list[int], forbidden: list[int]) -> list[int] | None:
    """Per place, the cards put there before the rest is dealt: for every hand a construct says must hold
    one of some cards (:meth:`~rulelang.constructs.base.Construct.must_hold`), the first such card of the
    shuffled ``pool``. None when a hand cannot get one."""
    pins = [0] * len(places)
    hands = {place[1]: i for i, place in enumerate(places) if place[0] in ("hand", "held_hand")}
    for found in state.game.parts:
        for holder, cards in found.must_hold(state, seat).items():
            i = hands.get(holder)
            if i is None:
                return None
            taken = sum(pins)
            card = next((c for c in pool if cards >> c & 1 and not taken >> c & 1 and not forbidden[i] >> c & 1), None)
            if card is None or bin(pins[i]).count("1") >= counts[i]:
                return None
            pins[i] |= 1 << card
    return pins


def _assign(pool: list[int], counts: list[int], forbidden: list[int], rng: random.Random) -> list[list[int]] | None:
    """The shuffled ``pool`` shared out: ``counts[i]`` cards to place ``i``, none of ``forbidden[i]``.

    The most constrained places are served first from the shuffled pool; when that
    greedy deal runs into a corner, a maximum flow finds a deal if there is one.
    """
    if not any(forbidden):
        out, start = [], 0
        for count in counts:
            out.append(pool[start:start + count])
            start += count
        return out
    order = sorted(range(len(counts)), key=lambda i: (-bin(forbidden[i]).count("1"), i))
    left, out = list(pool), [[] for _ in counts]
    for i in order:
        allowed = [card for card in left if not forbidden[i] >> card & 1]
        if len(allowed) < counts[i]:
            return _assign_by_flow(pool, counts, forbidden, rng)
        out[i] = allowed[:counts[i]]
        taken = set(out[i])
        left = [card for card in left if card not in taken]
    return out


def _assign_by_flow(pool: list[int], counts: list[int], forbidden: list[int], rng: random.Random):
    """A deal respecting ``forbidden`` by maximum flow (networkx), or None if there is none."""
    import networkx as nx
    graph = nx.DiGraph()
    for card in pool:
        graph.add_edge("source", ("card", card), capacity=1)
        for i, count in enumerate(counts):
            if count and not forbidden[i] >> card & 1:
                graph.add_edge(("card", card), ("place", i), capacity=1)
    for i, count in enumerate(counts):
        graph.add_edge(("place", i), "sink", capacity=count)
    value, flow = nx.maximum_flow(graph, "source", "sink")
    if value < sum(counts):
        return None
    out = [[] for _ in counts]
    for card in pool:
        for (_, i), used in flow[("card", card)].items():
            if used:
                out[i].append(card)
    for cards in out:
        rng.shuffle(cards)
    return out


def _revealed_called_card(state, seat: int) -> int:
    """The called card as a mask, when its holder is known to ``seat`` and it is still held."""
    called = getattr(state, "called", -1)
    if called is None or called < 0 or not state.revealed:
        return 0
    return 1 << called


def _put(world, kind: str, index: int, old: int, new: int) -> None:
    """Give place ``(kind, index)`` of ``world`` the cards ``new`` instead of ``old``."""
    if kind == "hand":
        world.hands[index] = world.hands[index] & ~old | new
        world.dealt[index] = world.dealt[index] & ~old | new
    elif kind == "held_hand":                             # the first of a held place's two parts
        world.hands[index] = world.hands[index] & ~old | new
        world.discards[index] &= ~old
        world.dealt[index] = world.dealt[index] & ~old | new
    elif kind == "held_discards":
        world.discards[index] |= new
        world.dealt[index] |= new
    elif kind == "talon":
        world.talon = world.talon & ~old | new
    elif kind == "stock":
        world.stock = world.stock & ~old | new
    elif kind != "discards":
        construct(kind).put_hidden(world, index, new)
    else:
        world.discards[index] = world.discards[index] & ~old | new      # discards laid face up stay
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
