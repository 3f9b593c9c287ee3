"""Alpha–beta over trick play with the tables of a :class:`~rulelang.interpreter.trick_kernel.TrickKernel`.

The same search as the State API's (:mod:`rulelang.interpreter.solver`) — the tricks, or the card points, one
side takes with best play by all — done on bitmasks: the hands are ints changed in place, a card's legality
and a trick's winner are table lookups. Positions at the start of a trick are kept in a transposition table
(bounds, keyed on the hands and the leader, or on who holds each card still out where the kinds allow); the
tricks a leader cashes for sure bound the value; of the cards of one hand that are worth the same (one kind,
no card still out ranking between them) one is tried; a follower tries first the cheapest card that wins the
trick, or his lowest when his side already holds it, and a leader first the card that has cut the search off
most so far (the history heuristic, each cutoff weighted by the square of the cards then in hand), then his
strongest.

``max_nodes`` bounds the work (:class:`Exhausted`); no clock is read.
"""

from __future__ import annotations

from rulelang.compile.deck import bit_list, iter_bits

UNBOUNDED = 1 << 30
"""Above any count of tricks or card points: the open end of a search window."""


class Exhausted(Exception):
    """The search reached its node bound."""


def settled(low: int, high: int, alpha: int, beta: int) -> int | None:
    """The value a transposition table's bounds ``low``..``high`` give for the window ``alpha``..``beta`` without
    a search, or None."""
    if low >= beta or low == high:
        return low
    if high <= alpha:
        return high
    return None


def bounds_after(low: int, high: int, best: int, alpha: int, beta: int) -> tuple[int, int]:
    """The bounds to keep once a fail-soft search of the window ``alpha``..``beta`` returned ``best``: an upper
    bound when it failed low, a lower one when it failed high, else the value itself."""
    if best <= alpha:
        return low, min(high, best)
    if best >= beta:
        return max(low, best), high
    return best, best


class KernelSearch:
    """One search: the kernel, the hands (changed in place and restored), the order of play after each leader,
    which seats count for the side searched for, the table and the nodes visited."""

    def __init__(self, kernel, hands: list[int], orders: dict[int, list[int]], ours: list[bool],
                 max_nodes: int, points: tuple[int, ...] | None = None) -> None:
        self.kernel, self.hands, self.orders, self.ours = kernel, hands, orders, ours
        self.max_nodes, self.nodes = max_nodes, 0
        self.table: dict[tuple, tuple[int, int]] = {}
        self.plays: list[tuple[int, int]] = []     # the trick on the table: (seat, card) in order
        self.points = points                       # per card, its points: counted instead of tricks
        self.ladders = kernel.ladders if points is None else ()
        self.ladder_masks = [sum(1 << card for card in ladder) for ladder in self.ladders]
        self.rungs: dict[tuple, tuple] = {}
        self.history = [0] * len(kernel.rank)      # per card, its cutoffs weighted by the cards left: leads tried first
        self.points_left = 0 if points is None else sum(self.worth(hand) for hand in hands)

    def worth(self, cards: int) -> int:
        """What ``cards`` taken in one trick count: their points, or one trick."""
        if self.points is None:
            return 1
        return sum(self.points[card] for card in iter_bits(cards))

    # ------------------------------------------------------------------ a trick from its start
    def from_lead(self, leader: int, alpha: int, beta: int) -> int:
        """The tricks (or points) the side takes from a trick ``leader`` is to lead, with best play by all."""
        hands = self.hands
        left = hands[leader].bit_count()
        if not left:
            return 0
        if self.points is not None:
            left = self.points_left
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise Exhausted
        key = self.relative_key(leader) if self.ladders else (leader, *hands)
        found = self.table.get(key)
        if found is None:
            sure = self.sure_tricks(leader)
            low, high = (sure, left) if self.ours[leader] else (0, left - sure)
        else:
            low, high = found
        known = settled(low, high, alpha, beta)
        if known is not None:
            return known
        alpha, beta = max(alpha, low), min(beta, high)
        best = self.in_trick(self.orders[leader], 0, -1, -1, -1, 0, alpha, beta)
        self.table[key] = bounds_after(low, high, best, alpha, beta)
        return best

    def relative_key(self, leader: int) -> tuple:
        """The position at a trick's start as the leader and, per kind, which hand holds each card still out,
        strongest first: positions that differ only by which of equal-ranking cards are gone are one."""
        hands, rungs, key = self.hands, self.rungs, [leader]
        for ladder, mask in zip(self.ladders, self.ladder_masks):
            held = tuple(hand & mask for hand in hands)
            found = rungs.get(held)
            if found is None:
                found = rungs[held] = tuple(seat for card in ladder for seat, part in enumerate(held)
                                            if part >> card & 1)
            key.append(found)
        return tuple(key)

    def sure_tricks(self, leader: int) -> int:
        """The tricks the leader's side takes for sure: the leader's cards that no card of another hand beats in a
        trick they lead, cashed one after another, the leader keeping the lead (none where the leader may not
        lead any card); counting points, those cards' own points."""
        if self.kernel.lead:
            return 0
        others = 0
        for seat, hand in enumerate(self.hands):
            if seat != leader:
                others |= hand
        stronger, points = self.kernel.stronger, self.points
        masters = [card for card in bit_list(self.hands[leader]) if not stronger[card] & others]
        return len(masters) if points is None else sum(points[card] for card in masters)

    def in_trick(self, order: list[int], place: int, led: int, best: int, winner: int, table: int,
                 alpha: int, beta: int) -> int:
        """The tricks the side takes when the seat at ``place`` of ``order`` is to play to the trick led by
        ``led`` (-1: he leads), whose best card so far has strength ``best`` and is ``winner``'s, with the
        cards ``table`` on it."""
        seat = order[place]
        maximising = self.ours[seat]
        result = -1 if maximising else UNBOUNDED
        for card in self.moves(order, place, led, best, winner, table):
            got = self.after(order, place, led, best, winner, table, card, alpha, beta)
            if maximising:
                if got > result:
                    result = got
                    if got > alpha:
                        alpha = got
            else:
                if got < result:
                    result = got
                    if got < beta:
                        beta = got
            if alpha >= beta:
                left = self.hands[seat].bit_count() + 1     # a cutoff high in the tree counts for more
                self.history[card] += left * left
                break
        return result

    def after(self, order: list[int], place: int, led: int, best: int, winner: int, table: int, card: int,
              alpha: int, beta: int) -> int:
        """The tricks the side takes once the seat at ``place`` plays ``card`` (see :meth:`in_trick`)."""
        seat = order[place]
        bit = 1 << card
        self.hands[seat] ^= bit
        self.plays.append((seat, card))
        if self.points is not None:
            self.points_left -= self.points[card]
        try:
            if led < 0:
                led = card
            strength = self.kernel.rank[led][card]
            if strength > best:
                best, winner = strength, seat
            if place + 1 < len(order):
                return self.in_trick(order, place + 1, led, best, winner, table | bit, alpha, beta)
            if (table | bit) & self.kernel.special:
                winner = self.kernel.trick_winner(self.plays, table | bit)
            won = self.worth(table | bit) if self.ours[winner] else 0
            plays, self.plays = self.plays, []
            try:
                return won + self.from_lead(winner, alpha - won, beta - won)
            finally:
                self.plays = plays
        finally:
            self.plays.pop()
            self.hands[seat] ^= bit
            if self.points is not None:
                self.points_left += self.points[card]

    # ------------------------------------------------------------------ the cards tried, in order
    def moves(self, order: list[int], place: int, led: int, best: int, winner: int, table: int) -> list[int]:
        """The legal cards of the seat at ``place``, one of each set worth the same, the likeliest best first."""
        seat = order[place]
        kernel, hands = self.kernel, self.hands
        cards = bit_list(kernel.legal(hands[seat], led, best))
        if len(cards) > 1:
            cards = self.distinct(cards, seat, table)
            cards.sort(key=self.ordering(seat, led, best, winner))
        return cards

    def distinct(self, cards: list[int], seat: int, table: int) -> list[int]:
        """One card of each set of ``cards`` worth the same: one kind, no card of another hand or on the table
        ranking between them (and, counting points, the same points)."""
        out = table
        for other, hand in enumerate(self.hands):
            if other != seat:
                out |= hand
        kind, between, points = self.kernel.kind, self.kernel.between, self.points
        kept: list[int] = []
        for card in cards:
            sort = kind[card]
            if not any(kind[k] == sort and not between[k, card] & out and (points is None or points[k] == points[card])
                       for k in kept):
                kept.append(card)
        return kept

    def ordering(self, seat: int, led: int, best: int, winner: int):
        """The sort key of the cards a seat tries: a leader's card that cut the search off most so far first
        (the history heuristic: ``history``), then his strongest; a follower's cheapest winner first, his lowest
        first when his side holds the trick."""
        if led < 0:
            ranks, history = self.kernel.rank, self.history
            return lambda card: (-history[card], -ranks[card][card])
        ranks = self.kernel.rank[led]
        if self.ours[winner] == self.ours[seat]:
            return lambda card: ranks[card]
        return lambda card: (ranks[card] <= best, ranks[card])
