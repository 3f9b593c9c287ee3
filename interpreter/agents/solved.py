"""Card play by perfect-information search in sampled worlds: what the strongest bridge programs do, from the rules.

In trick play, where the deal's outcome for a seat is the tricks or the card points its side takes (as the
learned worth of each says, :func:`objective`) and the other seats play as one side (:func:`against_one_side`),
each world the seat cannot tell apart from the real deal (:func:`~rulelang.interpreter.worlds.determinize`,
voids and what the bidding said respected) is solved exactly
(:func:`~rulelang.interpreter.solver.card_tricks`, ``card_points``), and the card worth the most tricks (or
points) on average over the worlds is played — the heuristic's own card when it is among the best. A world
whose search would pass ``max_nodes`` positions means the deal is still too large: the caller judges the card
its usual way, and the search is not tried again in this deal until fewer cards are left.
"""

from __future__ import annotations

import random
import time

from rulelang.interpreter import solver
from rulelang.interpreter.agents.learned import each_for_himself
from rulelang.interpreter.agents.worth import next_trick_worth, sign, trick_worth
from rulelang.interpreter.worlds import determinize

SOLVED_NODES = 3_000
"""Positions one world's search may visit before the deal counts as too large to solve (about 25 ms)."""
NODES_A_MS = 120
"""About the positions the table search visits a millisecond on a quiet machine: a time budget's share of a
world in positions (a time budget is not reproducible anyway)."""
COMPILED_NODES_A_MS = 500
"""The same for the compiled search (:mod:`~rulelang.interpreter.fast_search`, extra ``rulelang[fast]``)."""


def nodes_a_ms() -> int:
    """The positions a millisecond of a time budget buys: more where the search runs compiled."""
    from rulelang.interpreter.fast_search import available
    return COMPILED_NODES_A_MS if available() else NODES_A_MS


def against_one_side(state, seat: int) -> bool:
    """Whether the seats not on ``seat``'s side play as one side — the other team, the declarer or his opponents —
    so that a solved world, which pits them together against the seat's side, plays the deal that is played.
    Not where every seat plays for itself (no teams and no declarer, or a contract of ``sides: none``) among three
    or more: there a solved world would have the others give up their own tricks to beat the seat (on 500
    duplicate deals of a game of five tricks each for himself, rollouts played better than solving)."""
    teams, players = state.game.definition.teams, state.game.num_players
    if teams:
        others = (1 << players) - 1 & ~teams[seat]
        return all(teams[o] & others == others for o in range(players) if others >> o & 1)
    if state.declarer < 0 or each_for_himself(state):
        return players <= 2
    return True


def objective(state, seat: int, sides: set[int]) -> tuple[int, bool]:
    """What ``seat``'s side plays for now, as the learned worth of tricks and card points says: (1, …) to take
    the most, (-1, …) the fewest, (0, …) when neither decides; and whether card points (True) or tricks count.
    Points count where they weigh more over a deal than the tricks do."""
    per_trick, per_point = trick_worth(state.game).known(state, seat, sides)
    cards = state.game.deck.cards
    total_points = sum(card.points for card in cards)
    tricks_a_deal = len(cards) / max(1, state.game.num_players)
    if per_point and abs(per_point) * total_points > abs(per_trick) * tricks_a_deal:
        return sign(per_point), True
    return sign(next_trick_worth(state, seat, per_trick)), False


class SolvedPlay:
    """The worlds solved for one seat's card, and the deal found too large (kept between moves)."""

    def __init__(self, rng: random.Random, max_nodes: int = SOLVED_NODES) -> None:
        self.rng, self.max_nodes = rng, max_nodes
        self.too_large: tuple[int, int, int] | None = None      # (match id, deal, cards left) found too large

    def choose(self, state, seat: int, cards: list[int], anchor: int, wanted: int, worlds: int,
               deadline: float | None, voids: list[int], said=(), points: bool = False) -> int | None:
        """The card worth most tricks (``wanted`` 1) or fewest (-1) — with ``points``, card points — over
        ``worlds`` worlds, or those begun before ``deadline`` (two at least); ``anchor`` when it is among the
        best; None when the deal is too large to solve yet."""
        left = sum(hand.bit_count() for hand in state.hands)
        mark = (id(state.game), state.deal_number)
        if self.too_large is not None and self.too_large[:2] == mark and left >= self.too_large[2]:
            return None
        totals = dict.fromkeys(cards, 0)
        done = 0
        while done < worlds and (deadline is None or done < 2 or time.perf_counter() < deadline):
            world = determinize(state, seat, random.Random(self.rng.getrandbits(32)), voids, said) \
                or determinize(state, seat, random.Random(self.rng.getrandbits(32)), said=said)
            values = (solver.card_points if points else solver.card_tricks)(world, self.max_nodes)
            if values is None or set(values) != set(cards):
                self.too_large = (*mark, left) if values is None else None
                return None
            for card in cards:
                totals[card] += wanted * values[card]
            done += 1
        best = max(totals.values())
        return anchor if totals.get(anchor) == best else next(card for card in cards if totals[card] == best)
