"""A perfect-information solver of trick play, from the rules: how many tricks each card is worth.

In a state whose every card is known (a world an agent draws, or a judge's view), :func:`card_tricks` says for
each legal card how many of the deal's tricks still to be won the side to play takes after it, every later card
played to the best for its own side — the double-dummy count, for any rule file whose trick play has sides
(fixed teams, or a declaring side); :func:`card_points` counts card points instead. Where the trick rules in
force come down to tables (:mod:`.trick_kernel`) it searches on bitmasks (:mod:`.kernel_search`); elsewhere
with alpha–beta through the State API itself (``apply_action`` / ``undo_action`` on an undo stack), so whatever
the rule file says of following, winning and leading is what it plays; positions reached twice are looked up
(a transposition table keyed on the hands and the trick on the table), and of the cards of one hand that no
card still out falls between — the same suit, the same card points, beating and beaten by the same cards —
only one is tried.

``max_nodes`` bounds the work: past it the search gives up and returns None, so a caller with a budget tries the
last tricks only. No clock is read: the same position always gives the same answer.
"""

from __future__ import annotations

from rulelang.compile.deck import iter_bits
from rulelang.constructs.base import seats_from
from rulelang.interpreter.agents.worth import beats_masks
from rulelang.interpreter.fast_search import Unavailable, fast_search
from rulelang.interpreter.kernel_search import UNBOUNDED, Exhausted, KernelSearch, bounds_after, settled
from rulelang.interpreter.trick_kernel import trick_kernel


def side_mask(state, seat: int) -> int:
    """The seats on ``seat``'s side as a mask: its fixed team, else the declaring side or the others, else the
    seat alone (every seat plays for itself)."""
    teams = state.game.definition.teams
    if teams:
        return teams[seat]
    if state.declarer < 0:
        return 1 << seat
    everyone = (1 << len(state.hands)) - 1
    return state.side_mask if state.side_mask >> seat & 1 else everyone & ~state.side_mask


def in_trick_play(state, deal: int) -> bool:
    """Whether ``state`` is still in the card play of deal number ``deal`` (counted from 0)."""
    return not state.is_terminal() and state.deal_number == deal and state.current_player() >= 0 \
        and state.step is not None and state.step.kind == "tricks"


def hand_to_play(state) -> int:
    """The seat whose hand plays next (a dummy's, when another seat plays it)."""
    first = state.legal_actions()[0]
    return next(s for s, hand in enumerate(state.hands) if hand >> first & 1)


class _Search:
    """One solving run: the state searched in place, its deal, the side counted, the table and the nodes."""

    def __init__(self, state, max_nodes: int, count_points: bool = False) -> None:
        self.state, self.deal, self.max_nodes, self.nodes = state, state.deal_number, max_nodes, 0
        self.table: dict[tuple, tuple[int, int]] = {}
        self.points = [card.points for card in state.game.deck.cards]
        self.count_points = count_points

    def in_play(self) -> bool:
        return in_trick_play(self.state, self.deal)

    def side(self, seat: int) -> int:
        return side_mask(self.state, seat)

    def mover(self) -> int:
        return hand_to_play(self.state)

    def taken_by(self, side: int) -> int:
        """The tricks (or card points) the seats of ``side`` have taken this deal."""
        if self.count_points:
            won = self.state.won
            return sum(self.points[c] for s in range(len(won)) if side >> s & 1 for c in iter_bits(won[s]))
        return sum(t for s, t in enumerate(self.state.tricks.taken) if side >> s & 1)

    def key(self) -> tuple:
        state = self.state
        return (tuple(state.hands), tuple(state.tricks.trick), self.mover())

    def moves(self) -> list[int]:
        """The legal cards, one of each set of cards equal in play."""
        state = self.state
        legal = [a for a in state.legal_actions() if a < state.game.num_cards]
        if len(legal) < 2:
            return legal
        beats = beats_masks(state)
        out = state.tricks.trick_mask                     # the cards on the table count as cards still out
        for hand in state.hands:
            out |= hand
        out &= ~sum(1 << c for c in legal)
        suits, kept, seen = state.game.card_suits, [], set()
        for card in legal:
            above = sum(1 << c for c in iter_bits(out) if beats[c] >> card & 1)
            sign = (suits[card], self.points[card], beats[card] & out, above)
            if sign not in seen:
                seen.add(sign)
                kept.append(card)
        return kept

    def value(self, side: int, alpha: int, beta: int) -> int:
        """The tricks ``side`` takes from here with best play by all (alpha–beta, bounds from the table)."""
        if not self.in_play():
            return 0
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise Exhausted
        key = self.key()
        low, high = self.table.get(key, (0, UNBOUNDED))
        known = settled(low, high, alpha, beta)
        if known is not None:
            return known
        alpha, beta = max(alpha, low), min(beta, high)
        state = self.state
        ours = self.side(self.mover()) == side
        best = -1 if ours else UNBOUNDED
        before = self.taken_by(side)
        window = alpha, beta
        for card in self.moves():
            player = state.current_player()
            state.apply_action(card)
            won = self.taken_by(side) - before
            got = won + self.value(side, alpha - won, beta - won)
            state.undo_action(player, card)
            if ours:
                best = max(best, got)
                alpha = max(alpha, best)
            else:
                best = min(best, got)
                beta = min(beta, best)
            if alpha >= beta:
                break
        self.table[key] = bounds_after(low, high, best, *window)
        return best


def card_tricks(state, max_nodes: int = 200_000) -> dict[int, int] | None:
    """For each legal card of ``state`` (in trick play, every card known), the tricks still to be won in this
    deal that the side to play takes after it with best play by all; None when the search needs more than
    ``max_nodes`` positions. ``state`` is left as it was."""
    return solve(state, max_nodes)[0]


def card_points(state, max_nodes: int = 200_000) -> dict[int, int] | None:
    """As :func:`card_tricks`, counting the card points the side to play takes from here (the cards of the trick
    on the table included) instead of its tricks."""
    return solve(state, max_nodes, points=True)[0]


def solve(state, max_nodes: int = 200_000, points: bool = False) -> tuple[dict[int, int] | None, int]:
    """:func:`card_tricks` (or with ``points`` :func:`card_points`) and the positions the search visited (for
    benchmarks): on bitmasks where the trick rules in force come down to tables (:mod:`.trick_kernel`), else
    through the State API."""
    if in_trick_play(state, state.deal_number):
        kernel = trick_kernel(state)
        if kernel is not None:
            found = _solve_on_tables(state, kernel, max_nodes, points)
            if found is not None:
                return found
    return solve_by_state(state, max_nodes, points)


def _solve_on_tables(state, kernel, max_nodes: int, points: bool = False) -> tuple[dict[int, int] | None, int] | None:
    """The search on the kernel's tables; None when this position does not suit it (hands of uneven length,
    legal cards that differ from the State API's)."""
    part = state.tricks
    trick, order, hands = part.trick, part.order, list(state.hands)
    place = len(trick)
    if not order or place >= len(order) or order[place] != hand_to_play(state):
        return None
    size = hands[order[place]].bit_count()
    if any(hands[seat].bit_count() != size - (i < place) for i, seat in enumerate(order)):
        return None
    led = trick[0][1] if trick else -1
    best, winner = -1, -1
    for seat, card in trick:
        if kernel.rank[led][card] > best:
            best, winner = kernel.rank[led][card], seat
    if part.trick_mask & kernel.special:
        winner = kernel.trick_winner(trick, part.trick_mask)
    legal = [a for a in state.legal_actions() if a < state.game.num_cards]
    if kernel.legal(hands[order[place]], led, best) != sum(1 << card for card in legal):
        return None
    side = side_mask(state, order[place])
    ours = [bool(side >> seat & 1) for seat in range(len(hands))]
    orders = {seat: seats_from(state, seat, part.among) for seat in order}
    card_points = tuple(card.points for card in state.game.deck.cards) if points else None
    if orders.get(order[0]) == list(order):
        compiled = fast_search(kernel, hands, orders, ours, max_nodes, card_points,
                               (order[0], place, led, best, winner, part.trick_mask))
        if compiled is not None:
            try:
                return _values_by(compiled, legal, points, size, part.trick_mask)
            except Unavailable:
                pass
    search = KernelSearch(kernel, hands, orders, ours, max_nodes, card_points)
    search.plays = list(trick)
    if points:
        size = search.points_left + search.worth(part.trick_mask)
    values, guess = {}, size // 2
    try:
        for card in legal:
            def probe(alpha: int, beta: int, card: int = card) -> int:
                return search.after(order, place, led, best, winner, part.trick_mask, card, alpha, beta)
            values[card] = guess = narrowed(probe, guess, size)
    except Exhausted:
        return None, search.nodes
    return values, search.nodes


def _values_by(compiled, legal: list[int], points: bool, size: int, on_table: int) -> tuple[dict[int, int] | None, int]:
    """Each legal card's value by the compiled search (:mod:`.fast_search`), as the Python search finds them."""
    if points:
        card_points = compiled.ctx.points
        size = compiled.root[-1] + sum(int(card_points[c]) for c in iter_bits(on_table))
    found = compiled.values(legal, size)
    return (None if found is None else dict(zip(legal, found))), compiled.nodes


def narrowed(probe, guess: int, top: int) -> int:
    """The exact value in ``0..top`` of a search ``probe(alpha, beta)`` (fail-soft), by windows of width one
    around ``guess`` (MTD(f)): each search only asks whether the value reaches a number, which prunes most."""
    low, high, value = 0, top, guess
    while low < high:
        beta = value + 1 if value == low else value
        value = probe(beta - 1, beta)
        if value < beta:
            high = value
        else:
            low = value
    return value


def solve_by_state(state, max_nodes: int = 200_000, points: bool = False) -> tuple[dict[int, int] | None, int]:
    """:func:`solve` through the State API (``apply_action`` / ``undo_action``): any trick rules."""
    work = state.clone()
    work.keep_undo(True)
    search = _Search(work, max_nodes, points)
    if not search.in_play():
        return {}, 0
    side = search.side(search.mover())
    before = search.taken_by(side)
    result = {}
    try:
        for card in [a for a in work.legal_actions() if a < work.game.num_cards]:
            player = work.current_player()
            work.apply_action(card)
            result[card] = search.taken_by(side) - before + search.value(side, -1, UNBOUNDED)
            work.undo_action(player, card)
    except Exhausted:
        return None, search.nodes
    return result, search.nodes
