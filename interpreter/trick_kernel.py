"""The trick rules in force, compiled to tables: what a fast perfect-information search needs.

Where the trick rules of a deal depend, while trick play lasts, on nothing but the card led — which cards
follow it (``follow``, ``lead_from``), and which card of a trick wins (``win: highest …``) — they come down to
numbers: per card led, the fallback sets a hand must play from, and the strength of every card in a trick it
leads. :func:`trick_kernel` reads those tables off the rule file's own generated functions, asked on a probe
state, once per rule set and contract; :mod:`rulelang.interpreter.kernel_search` then plays tricks with bit
operations instead of the State API.

Whether the rules qualify is read from the generated code itself (``ast``): each follow, lead and win
expression may read the card led, the deal's variables, its contract and declarer, and constants — nothing
that moves during trick play (hands, cards played, tricks taken, the seat asked). Rules that draw from a
stock, end play early, give cards, let a card go elsewhere than to the winner, say calls that set a variable,
name a special winning card, or a pack with copies are not covered: :func:`trick_kernel` returns None and
says why (:func:`why_not`), and the caller searches through the State API instead.
"""

from __future__ import annotations

import ast
import random
from dataclasses import dataclass

from rulelang.compile.codegen import PLAYER, STATE
from rulelang.compile.coderuntime import best, highest
from rulelang.compile.deck import iter_bits
from rulelang.compile.exprcompile import EvalError
from rulelang.constructs.lay_aside import held_aside
from rulelang.constructs.tricks import Tricks

FIXED_FIELDS = frozenset({"contract", "declarer", "called", "dealer", "forehand", "deal_number"})
"""Fields of the state a kernel's rule may read: none changes while tricks are played."""
CHECKED_TRICKS = 200
"""Random full tricks on which a new kernel's winner is checked against the rule file's own winner function."""
KERNEL_CACHE_SIZE = 256
_KERNELS: dict[tuple, "TrickKernel | str"] = {}     # per rule set and the values its rules read
_RULES: dict[tuple, "frozenset | str"] = {}         # per rule set: what its rules read, or why not covered


@dataclass(frozen=True)
class TrickKernel:
    """The trick rules of one deal as tables.

    ``lead``: the fallback sets a leader plays from (the first his hand meets; none: any card). ``follow[led]``:
    the fallback sets for the others when ``led`` was led. ``rank[led][card]``: how strong ``card`` is in a
    trick led by ``led`` — the highest wins; -1 for a card no win rule gives the trick to. ``head``: a follower
    must play a card that wins the trick as it stands, when he has one. ``kind[card]`` and ``between[a][b]``
    (cards of one kind only) say when two cards in one hand are worth the same: the same kind, and no card
    still out ranks between them under any card led. ``stronger[card]``: the cards that beat ``card`` in a trick
    it leads. ``special``: the cards a win rule names (``{card: …, when: …}``); a trick holding one is judged by
    the rule file's own winner function (``judge``), the strengths giving only the ``highest`` rules' order.
    ``ladders``: per kind, its cards strongest first, where that order holds under every card led and no two
    kinds' cards rank between each other's (then only the order of the cards still out matters, not which
    they are: positions that differ by which low cards were played are one); empty where it does not hold."""

    lead: tuple[int, ...]
    follow: tuple[tuple[int, ...], ...]
    rank: tuple[tuple[int, ...], ...]
    head: bool
    kind: tuple[int, ...]
    between: dict
    stronger: tuple[int, ...] = ()
    special: int = 0
    judge: object = None
    ladders: tuple = ()


    def trick_winner(self, plays: list[tuple[int, int]], cards: int) -> int:
        """The seat that wins the full trick ``plays`` ((seat, card) in order; ``cards`` their mask)."""
        if cards & self.special:
            won = self.judge(plays, cards)
            return next(seat for seat, card in plays if card == won)
        ranks = self.rank[plays[0][1]]
        return max(plays, key=lambda play: ranks[play[1]])[0]

    def legal(self, hand: int, led: int, best: int) -> int:
        """The cards of ``hand`` that may be played: leading when ``led`` < 0, else to a trick led by ``led``
        whose winning card so far has strength ``best``."""
        if led < 0:
            for cards in self.lead:
                if hand & cards:
                    return hand & cards
            return hand
        allowed = hand
        for cards in self.follow[led]:
            if hand & cards:
                allowed = hand & cards
                break
        if self.head:
            ranks = self.rank[led]
            heads = sum(1 << card for card in iter_bits(allowed) if ranks[card] > best)
            if heads:
                return heads
        return allowed


def trick_kernel(state) -> TrickKernel | None:
    """The kernel of the trick rules in force in ``state`` (in trick play), or None where they are not covered."""
    found = _kernel_or_reason(state)
    return found if isinstance(found, TrickKernel) else None


def why_not(state) -> str | None:
    """Why the trick rules in force are not covered by a kernel; None when they are."""
    found = _kernel_or_reason(state)
    return None if isinstance(found, TrickKernel) else found


def _kernel_or_reason(state) -> "TrickKernel | str":
    part = state.tricks
    rules_key = (state.game.definition.digest, id(part.rules))
    reads = _RULES.get(rules_key)
    if reads is None:
        found_reads: set = set()
        reads = _not_covered(state, found_reads) or frozenset(found_reads)
        _remember(_RULES, rules_key, reads)
    if isinstance(reads, str):
        return reads
    key = rules_key + tuple(_read_value(state, what) for what in sorted(reads))
    found = _KERNELS.get(key)
    if found is None:
        found = _build(state)
        _remember(_KERNELS, key, found)
    if isinstance(found, TrickKernel):
        reason = _state_not_covered(state)
        if reason:
            return reason
    return found


def _remember(cache: dict, key, value) -> None:
    if len(cache) >= KERNEL_CACHE_SIZE:
        cache.clear()
    cache[key] = value


def _read_value(state, what: tuple):
    """The value of one thing the rules read: ``("vars", name)`` or ``("field", name)``."""
    return state.vars.get(what[1]) if what[0] == "vars" else getattr(state, what[1])


# ---------------------------------------------------------------------- which rules are covered
def _not_covered(state, reads: set) -> str | None:
    """Why the rule set in force is not covered, or None; what its rules read is added to ``reads``."""
    rules, game = state.tricks.rules, state.game
    if rules is None:
        return "not in trick play"
    if any(bin(mask).count("1") > 1 for mask in game.deck.twins):
        return "the pack holds copies of cards"
    for what, there in (("draws from the stock", rules.draw), ("ends trick play early", rules.ends_when),
                        ("gives cards after a trick", rules.gift), ("lets cards be played besides the rule",
                                                                   rules.free)):
        if there is not None:
            return f"the trick rules' {what}"
    if any(call.values or call.ends or call.swap is not None for call in rules.calls):
        return "a call of trick play sets a variable, ends play or swaps a card"
    specials = [win for win in rules.win if win.cards is None]
    if specials and rules.head:
        return "a win rule names a special card where the trick must be headed"
    if any(watcher.kind != "parties" for watcher in game.trick_watchers):
        return "a construct follows each finished trick"
    code = game.definition.code
    for rule in [*rules.lead_from, *rules.follow, *(win.cards for win in rules.win if win.cards is not None)]:
        if not _fixed_in_play(code.code_of(rule), reads):
            return f"the rule '{rule.text}' reads what changes during trick play"
    for win in specials:
        if not _fixed_in_play(code.code_of(win.card), reads):
            return f"the special winner '{win.text}' is not one card for the whole of trick play"
        if win.when is not None and not _fixed_in_play(code.code_of(win.when), reads, on_table=True):
            return f"the rule '{win.text}' reads what changes during trick play"
    return None


def _state_not_covered(state) -> str | None:
    """Why this state's trick play is not covered although its rules are, or None."""
    part = getattr(state, "parties", None)
    if part is not None and part.join and len(state.tricks.trick_winners) < part.join:
        return "the parties are not settled until a trick is won"
    if any(held_aside(state, seat) for seat in range(len(state.hands))):
        return "a seat has cards laid aside"
    return None


def _fixed_in_play(node, reads: set, on_table: bool = False) -> bool:
    """Whether generated code reads nothing that changes during trick play (see the module's docstring); the
    deal's variables and fields it reads are added to ``reads``. With ``on_table`` it may read the cards of the
    trick (a special winner's condition, asked of whole tricks)."""
    if isinstance(node, ast.Name):
        return node.id not in (STATE, PLAYER)
    if isinstance(node, ast.Attribute) and _is_state(node.value):
        reads.add(("field", node.attr))
        return node.attr in FIXED_FIELDS
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and _is_state(node.value.value) \
            and node.value.attr == "tricks":
        return node.attr in ("led_suit", "trick") or on_table and node.attr == "trick_mask"
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and _is_state(node.value.value) \
            and node.value.attr == "vars":
        reads.add(("vars", getattr(node.slice, "value", None)))
        return isinstance(node.slice, ast.Constant)
    return all(_fixed_in_play(child, reads, on_table) for child in ast.iter_child_nodes(node))


def _is_state(node) -> bool:
    return isinstance(node, ast.Name) and node.id == STATE


# ---------------------------------------------------------------------- building the tables
def _build(state) -> "TrickKernel | str":
    probe = state.clone()
    part, game = probe.tricks, probe.game
    rules, n = part.rules, game.num_cards
    seat = max(probe.current_player(), 0)
    part.trick, part.trick_mask, part.led_suit = [], 0, -1
    try:
        lead = tuple(rule.fn(probe, seat) for rule in rules.lead_from)
        follow, rank = [], []
        suits = game.card_suits
        by_suit = tuple(sum(1 << other for other in range(n) if suits[other] == suits[card]) for card in range(n))
        order = tuple(card.order for card in game.deck.cards)
        for led in range(n):
            part.trick, part.led_suit = [(seat, led)], suits[led]
            follow.append(tuple(rule.fn(probe, seat) for rule in rules.follow))
            rank.append(_strengths(probe, by_suit, order))
    except EvalError as exc:
        return f"a trick rule cannot be worked out on a probe ({exc})"
    if any(rank[led][led] < 0 for led in range(n)):
        return "a card led may leave a trick without a winner"
    named = [win.card.fn(probe, seat) for win in rules.win if win.cards is None]
    special = sum(1 << card for card in named if isinstance(card, int) and 0 <= card < n)
    kind, between = _kinds(follow, rank, lead, special)
    stronger = tuple(sum(1 << other for other in range(n) if rank[led][other] > rank[led][led]) | special
                     for led in range(n))
    kernel = TrickKernel(lead, tuple(follow), tuple(rank), bool(rules.head), kind, between, stronger, special,
                         _judge(probe) if special else None, () if special else _ladders(kind, rank))
    return _checked(state, kernel)


def _judge(probe):
    """The rule file's winner function asked of a whole trick, on the kernel's own probe state."""
    part, winner = probe.tricks, probe.tricks.rules.winner.fn
    suits = probe.game.card_suits

    def judge(plays: list[tuple[int, int]], cards: int) -> int:
        part.trick, part.trick_mask, part.led_suit = plays, cards, suits[plays[0][1]]
        return winner(probe, None)
    return judge


def _strengths(probe, by_suit: tuple, order: tuple) -> tuple[int, ...]:
    """Per card, its strength in the trick led on ``probe`` by the ``highest`` win rules: the first rule whose
    cards meet the cards not yet ranked gives the strongest of them (by ``order``, ``by_suit`` naming each card's
    suit as a mask), again and again; -1 for the cards no rule takes."""
    n = probe.game.num_cards
    sets = [(win.cards.fn(probe, None), win.order) for win in probe.tricks.rules.win if win.cards is not None]
    strength = [-1] * n
    left, next_strength = (1 << n) - 1, n
    while left:
        found = next(((cards & left, ranks) for cards, ranks in sets if cards & left), None)
        if found is None:
            break
        within, ranks = found
        card = highest(ranks, within) if ranks else best(within, by_suit, order)
        strength[card] = next_strength
        next_strength -= 1
        left ^= 1 << card
    return tuple(strength)


def _kinds(follow: list, rank: list, lead: tuple, special: int = 0) -> tuple[tuple[int, ...], dict]:
    """Cards that behave alike but for their order (the same fallback sets met, led and led to, the same
    strengths when they lead; a special winner alone), numbered as kinds; and for two cards of a kind, the cards
    ranking between them under some card led."""
    n = len(rank)
    met = [tuple(_member_of(row, c) for row in follow) + (_member_of(lead, c),) for c in range(n)]
    signs: dict[tuple, int] = {}
    kind = tuple(signs.setdefault((met[c], follow[c], rank[c], c if special >> c & 1 else -1), len(signs))
                 for c in range(n))
    rows = list(set(rank))
    above = [[sum(1 << o for o in range(n) if row[o] > row[c]) for c in range(n)] for row in rows]
    members: dict[int, list[int]] = {}
    for card, k in enumerate(kind):
        members.setdefault(k, []).append(card)
    between = {}
    for cards in members.values():
        for i, a in enumerate(cards):
            for b in cards[i + 1:]:
                gap = 0
                for row, over in zip(rows, above):
                    low, high = (a, b) if row[a] < row[b] else (b, a)
                    if row[low] != row[high]:
                        gap |= over[low] & ~over[high] & ~(1 << high)
                between[a, b] = between[b, a] = gap
    return kind, between


def _ladders(kind: tuple, rank: list) -> tuple:
    """Per kind, its cards strongest first (by their strength when one of them leads), if every card led orders
    each kind the same way and ranks no card of one kind between two of another; else ()."""
    members: dict[int, list[int]] = {}
    for card, k in enumerate(kind):
        members.setdefault(k, []).append(card)
    ladders = []
    for k in range(len(members)):
        cards = members[k]
        own = rank[cards[0]]
        ladders.append(tuple(sorted(cards, key=lambda c: -own[c])))
    for row in set(rank):
        spans = []
        for ladder in ladders:
            strengths = [row[c] for c in ladder]
            ranked = [x for x in strengths if x >= 0]
            if ranked and len(ranked) < len(strengths) or ranked != sorted(ranked, reverse=True):
                return ()
            if ranked:
                spans.append((min(ranked), max(ranked)))
        spans.sort()
        if any(high >= low for (_, high), (low, _) in zip(spans, spans[1:])):
            return ()
    return tuple(ladders)


def _member_of(sets: tuple, card: int) -> int:
    """Which of ``sets`` hold ``card``, as a bitmask of their places."""
    return sum(1 << i for i, cards in enumerate(sets) if cards >> card & 1)


def _checked(state, kernel: TrickKernel) -> "TrickKernel | str":
    """The kernel, once its winner agrees with the rule file's on random full tricks (seeded: the same each
    time); else why not."""
    probe = state.clone()
    part, game = probe.tricks, probe.game
    seats = len(part.order) or len(probe.hands)
    chooser = random.Random(0)
    cards = list(range(game.num_cards))
    for _ in range(CHECKED_TRICKS):
        trick = chooser.sample(cards, min(seats, len(cards)))
        part.trick = [(i, card) for i, card in enumerate(trick)]
        part.trick_mask = sum(1 << card for card in trick)
        part.led_suit = game.card_suits[trick[0]]
        try:
            theirs = Tricks.winning_play(probe)[1]
        except EvalError:
            return "a trick may have no winner"
        seat = kernel.trick_winner(part.trick, part.trick_mask)
        if part.trick[seat][1] != theirs:
            return "the win rules do not rank the cards in one order per card led"
    return kernel
