"""The compiled functions of :mod:`.fast_search` (imported only where numba is installed and asked for).

One self-contained alpha–beta over trick play on the tables of a trick kernel, numba-compiled and kept in
numba's cache beside this file; see :mod:`.fast_search` for what it searches and who calls it.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types

from rulelang.interpreter.kernel_search import UNBOUNDED

HISTORY_SCALE = 1 << 20
"""A leader's sort key: his card's history (``KernelSearch.history``) times this, less its strength — a strength
is at most the pack's size (``trick_kernel``), far below it."""
KEY_WORDS = 8
"""Words of a transposition table's key: the leader and the hands, or the leader and who holds each card still
out per kind (``WORD_BITS`` bits a word)."""
WORD_BITS = 60

KEY = types.UniTuple(types.int64, KEY_WORDS)
"""A transposition table key's type."""
BOUNDS = types.UniTuple(types.int64, 2)
"""A transposition table entry's type: the lower and upper bound."""


@numba.njit(cache=True)
def _legal(tab_lead, tab_follow, tab_follow_len, rank, head, hand, led, best):
    """The cards of ``hand`` that may be played (see ``TrickKernel.legal``)."""
    if led < 0:
        for i in range(tab_lead.shape[0]):
            if hand & tab_lead[i]:
                return hand & tab_lead[i]
        return hand
    allowed = hand
    for i in range(tab_follow_len[led]):
        if hand & tab_follow[led, i]:
            allowed = hand & tab_follow[led, i]
            break
    if head:
        heads = 0
        for card in range(rank.shape[0]):
            if allowed >> card & 1 and rank[led, card] > best:
                heads |= 1 << card
        if heads:
            return heads
    return allowed

@numba.njit(cache=True)
def _key(ctx, hands, leader, words):
    """The transposition table's key of the position at a trick's start (``words``: scratch space)."""
    words[:] = 0
    seats = hands.shape[0]
    if ctx.ladder_len.shape[0] == 0:
        words[0] = leader
        for seat in range(seats):
            words[seat + 1] = hands[seat]
    else:
        words[0] = leader
        word, used = 1, 0
        bits = ctx.seat_bits
        out = 0
        for seat in range(seats):
            out |= hands[seat]
        for k in range(ctx.ladder_len.shape[0]):
            count = 0
            for i in range(ctx.ladder_len[k]):
                card = ctx.ladders[k, i]
                if not out >> card & 1:
                    continue
                for seat in range(seats):
                    if hands[seat] >> card & 1:
                        if used + bits > WORD_BITS:
                            word, used = word + 1, 0
                        words[word] |= seat << used
                        used += bits
                        count += 1
            if used + 6 > WORD_BITS:
                word, used = word + 1, 0
            words[word] |= (count + 1) << used
            used += 6
    return (words[0], words[1], words[2], words[3], words[4], words[5], words[6], words[7])

@numba.njit(cache=True)
def _count(mask):
    """The cards in ``mask`` (a population count)."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count

@numba.njit(cache=True)
def _worth(ctx, cards):
    """What ``cards`` taken in one trick count: one trick, or their points."""
    if not ctx.count_points:
        return 1
    total = 0
    for card in range(ctx.n):
        if cards >> card & 1:
            total += ctx.points[card]
    return total

@numba.njit(cache=True)
def _sure(ctx, hands, leader):
    """The tricks (or points) the leader's side takes for sure (``KernelSearch.sure_tricks``)."""
    if ctx.lead.shape[0] > 0:
        return 0
    others = 0
    for seat in range(hands.shape[0]):
        if seat != leader:
            others |= hands[seat]
    total = 0
    for card in range(ctx.n):
        if hands[leader] >> card & 1 and not ctx.stronger[card] & others:
            total += ctx.points[card] if ctx.count_points else 1
    return total

@numba.njit(cache=True)
def _moves(ctx, hands, seat, led, best, winner, table, kept, keys, history):
    """The cards the seat tries, in order, written to ``kept`` (``keys``: scratch space); how many
    (``KernelSearch.moves``): one of each set worth the same, a leader's by his cards' cutoffs (``history``), then
    strongest first, a follower's
    cheapest winner first, his lowest when his side holds the trick."""
    legal = _legal(ctx.lead, ctx.follow, ctx.follow_len, ctx.rank, ctx.head, hands[seat], led, best)
    if legal & (legal - 1) == 0:
        for card in range(ctx.n):
            if legal >> card & 1:
                kept[0] = card
                return 1
        return 0
    out = table
    for other in range(hands.shape[0]):
        if other != seat:
            out |= hands[other]
    size = 0
    for card in range(ctx.n):
        if not legal >> card & 1:
            continue
        same = False
        for j in range(size):
            k = kept[j]
            if ctx.kind[k] == ctx.kind[card] and not ctx.between[k, card] & out and (
                    not ctx.count_points or ctx.points[k] == ctx.points[card]):
                same = True
                break
        if same:
            continue
        if led < 0:
            key = -history[card] * HISTORY_SCALE - ctx.rank[card, card]
        elif ctx.ours[winner] == ctx.ours[seat]:
            key = ctx.rank[led, card]
        else:
            strength = ctx.rank[led, card]
            key = (1000 if strength <= best else 0) + strength
        j = size                                   # insertion sort: stable, as Python's sort
        while j > 0 and keys[j - 1] > key:
            kept[j], keys[j] = kept[j - 1], keys[j - 1]
            j -= 1
        kept[j], keys[j] = card, key
        size += 1
    return size

@numba.njit(cache=True)
def _search(ctx, hands, table_, stat, leader, place, led, best, winner, table, alpha, beta, left, only, history):
    """The tricks (or points) the side takes from here: at ``place`` of the order after ``leader``, the trick
    led by ``led`` (-1: a trick's start) with its best strength ``best`` (``winner``'s) and ``table`` on it;
    ``left`` the points still in the hands. With ``only`` ≥ 0 that card is played and nothing looked up
    (``KernelSearch.after``), else every card tried (``in_trick``, and ``from_lead`` at a trick's start).
    ``stat``: [positions visited, their bound, whether the bound was passed].

    The Python search's recursion, unrolled onto a stack of frames (numba cannot keep a recursive function
    in its cache): frame ``d`` holds a position, its window, the cards to try and the one being tried."""
    depth = ctx.n + 2
    f_leader = np.empty(depth, np.int64)
    f_place = np.empty(depth, np.int64)
    f_led = np.empty(depth, np.int64)
    f_best = np.empty(depth, np.int64)
    f_winner = np.empty(depth, np.int64)
    f_table = np.empty(depth, np.int64)
    f_alpha = np.empty(depth, np.int64)
    f_beta = np.empty(depth, np.int64)
    f_left = np.empty(depth, np.int64)
    f_low = np.empty(depth, np.int64)
    f_high = np.empty(depth, np.int64)
    f_window = np.empty((depth, 2), np.int64)
    f_result = np.empty(depth, np.int64)
    f_seat = np.empty(depth, np.int64)
    f_next = np.zeros(depth, np.int64)
    f_count = np.zeros(depth, np.int64)
    f_moves = np.empty((depth, ctx.n), np.int64)
    f_card = np.empty(depth, np.int64)
    f_won = np.zeros(depth, np.int64)
    f_looked = np.zeros(depth, np.bool_)
    f_keys = np.zeros((depth, KEY_WORDS), np.int64)
    scratch = np.zeros(KEY_WORDS, np.int64)
    sort_keys = np.empty(ctx.n, np.int64)
    d = 0
    f_leader[0], f_place[0], f_led[0], f_best[0], f_winner[0] = leader, place, led, best, winner
    f_table[0], f_alpha[0], f_beta[0], f_left[0] = table, alpha, beta, left
    entering, returning, value = True, False, 0
    while True:
        if entering:
            entering = False
            leader, place, alpha, beta = f_leader[d], f_place[d], f_alpha[d], f_beta[d]
            low, high = 0, UNBOUNDED
            looked = place == 0 and (d > 0 or only < 0)
            f_looked[d] = looked
            if looked:
                size = _count(hands[leader])
                known = size == 0
                value = 0
                if not known:
                    if ctx.count_points:
                        size = f_left[d]
                    stat[0] += 1
                    if stat[0] > stat[1]:
                        stat[2] = 1
                        for k in range(d):
                            hands[f_seat[k]] ^= 1 << f_card[k]
                        return 0
                    key = _key(ctx, hands, leader, scratch)
                    f_keys[d, :] = scratch
                    if key in table_:
                        found = table_[key]
                        low, high = found[0], found[1]
                    else:
                        sure = _sure(ctx, hands, leader)
                        if ctx.ours[leader]:
                            low, high = sure, size
                        else:
                            low, high = 0, size - sure
                    if low >= beta or low == high:
                        known, value = True, low
                    elif high <= alpha:
                        known, value = True, high
                    else:
                        alpha, beta = max(alpha, low), min(beta, high)
                if known:
                    returning = True
                    continue
            f_low[d], f_high[d], f_alpha[d], f_beta[d] = low, high, alpha, beta
            f_window[d, 0], f_window[d, 1] = alpha, beta
            seat = ctx.orders[leader, place]
            f_seat[d] = seat
            f_result[d] = -1 if ctx.ours[seat] else UNBOUNDED
            if d == 0 and only >= 0:
                f_moves[0, 0], f_count[0] = only, 1
            else:
                f_count[d] = _moves(ctx, hands, seat, f_led[d], f_best[d], f_winner[d], f_table[d], f_moves[d],
                                    sort_keys, history)
            f_next[d] = 0
        elif returning:
            returning = False
            if d == 0:
                return value
            d -= 1
            seat = f_seat[d]
            hands[seat] ^= 1 << f_card[d]
            got = f_won[d] + value
            if ctx.ours[seat]:
                if got > f_result[d]:
                    f_result[d] = got
                    if got > f_alpha[d]:
                        f_alpha[d] = got
            elif got < f_result[d]:
                f_result[d] = got
                if got < f_beta[d]:
                    f_beta[d] = got
            if f_alpha[d] >= f_beta[d]:
                f_next[d] = f_count[d]
                if d > 0 or only < 0:                       # the probed card itself is no cutoff of a loop
                    cards_left = _count(hands[seat]) + 1
                    history[f_card[d]] += cards_left * cards_left
        if f_next[d] < f_count[d]:                        # the next card of frame d: a frame for it
            card = f_moves[d, f_next[d]]
            f_next[d] += 1
            seat = f_seat[d]
            bit = 1 << card
            hands[seat] ^= bit
            f_card[d] = card
            after = f_left[d] - ctx.points[card] if ctx.count_points else f_left[d]
            now_led = card if f_led[d] < 0 else f_led[d]
            strength = ctx.rank[now_led, card]
            now_best, now_winner = f_best[d], f_winner[d]
            if strength > now_best:
                now_best, now_winner = strength, seat
            e = d + 1
            f_left[e] = after
            if f_place[d] + 1 < ctx.trick_size:
                f_won[d] = 0
                f_leader[e], f_place[e], f_led[e], f_best[e] = f_leader[d], f_place[d] + 1, now_led, now_best
                f_winner[e], f_table[e] = now_winner, f_table[d] | bit
                f_alpha[e], f_beta[e] = f_alpha[d], f_beta[d]
            else:
                won = _worth(ctx, f_table[d] | bit) if ctx.ours[now_winner] else 0
                f_won[d] = won
                f_leader[e], f_place[e], f_led[e], f_best[e], f_winner[e], f_table[e] = now_winner, 0, -1, -1, -1, 0
                f_alpha[e], f_beta[e] = f_alpha[d] - won, f_beta[d] - won
            d = e
            entering = True
            continue
        result = f_result[d]                                # every card tried: frame d is done
        if f_looked[d]:
            low, high = f_low[d], f_high[d]
            if result <= f_window[d, 0]:
                high = min(high, result)
            elif result >= f_window[d, 1]:
                low = max(low, result)
            else:
                low, high = result, result
            kept = f_keys[d]
            table_[(kept[0], kept[1], kept[2], kept[3], kept[4], kept[5], kept[6], kept[7])] = (low, high)
        value = result
        returning = True


@numba.njit(cache=True)
def _values(ctx, hands, table_, stat, root, legal, size, history):
    """Each of ``legal``'s value by windows of width one around the last (``solver.narrowed``, MTD(f)); -1
    for every card once the bound on positions is passed."""
    leader, place, led, best, winner, table, left = root
    values = np.full(legal.shape[0], -1, np.int64)
    guess = size // 2
    for i in range(legal.shape[0]):
        low, high, value = 0, size, guess
        while low < high:
            beta = value + 1 if value == low else value
            value = _search(ctx, hands, table_, stat, leader, place, led, best, winner, table, beta - 1, beta,
                            left, legal[i], history)
            if stat[2]:
                return values
            if value < beta:
                high = value
            else:
                low = value
        values[i] = guess = value
    return values
