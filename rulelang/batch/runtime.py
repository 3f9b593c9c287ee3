"""The helpers of the batch rule code: :mod:`rulelang.compile.coderuntime`'s helpers over numpy arrays.

Every value is an ``int64`` array with one entry per deal (a card set is a bitmask of up to 64 cards,
the 64th the sign bit: ``~``, ``&``, ``|`` and shifts mean on it what they mean on Python's ints,
and :func:`popcount` counts it as unsigned), a condition a ``bool`` array, a per-seat
field an array of shape (deals, seats). A rule's ``pl`` is one seat for every deal (an int) or
a seat per deal (an array). Each helper gives, deal by deal, what its scalar namesake gives;
:data:`HELPERS` is what a batch module sees.
"""

from __future__ import annotations

import numpy as np

if not hasattr(np, "bitwise_count"):
    raise ImportError(f"the batch engine needs numpy 2 (this is numpy {np.__version__})")

INT = np.int64


MASK64 = (1 << 64) - 1


def signed(value: int) -> int:
    """A Python int of up to 64 bits as the int64 that holds the same bits (a 64-card set's top card
    is the sign bit)."""
    return value - (1 << 64) if value >= 1 << 63 else value


def unsigned(value) -> int:
    """The Python int of an int64's 64 bits (the inverse of :func:`signed`)."""
    return int(value) & MASK64


def truth(value):
    """Python's truth of each entry (a non-empty set, a non-zero number)."""
    value = np.asarray(value)
    return value if value.dtype == np.bool_ else value != 0


def _flags(*values) -> bool:
    """Whether every value is already a condition (bools), so ``and``/``or`` are ``&``/``|``."""
    return all(isinstance(v, (bool, np.bool_)) or (isinstance(v, np.ndarray) and v.dtype == np.bool_)
               for v in values)


def where(test, yes, no):
    """``yes if test else no``, deal by deal."""
    return np.where(truth(test), yes, no)


def both(a, b):
    """``a and b`` with Python's values: ``b`` where ``a`` holds, else ``a``."""
    if _flags(a, b):
        return np.logical_and(a, b)
    return np.where(truth(a), b, a)


def either(a, b):
    """``a or b`` with Python's values: ``a`` where it holds, else ``b``."""
    if _flags(a, b):
        return np.logical_or(a, b)
    return np.where(truth(a), a, b)


def negate(a):
    """``not a``."""
    return np.logical_not(truth(a))


def member(item, group: tuple):
    """``item in group`` for a tuple of constants."""
    return np.isin(item, np.asarray(group))


def returned(result, done, test, value):
    """The function's result once ``value`` is returned where ``test`` holds and nothing was returned yet."""
    if result is None:
        return value
    if done is False:
        return np.where(truth(test), value, result)
    return np.where(truth(test) & np.logical_not(done), value, result)


def kept(test, value, old):
    """A local assigned under ``test``: ``value`` where it holds, ``old`` elsewhere."""
    return np.where(truth(test), value, old)


def at(values, index):
    """``values[index]`` of a per-seat array: one seat for all deals, or a seat per deal."""
    if np.ndim(index) == 0:
        return values[:, int(index)]
    return gather(values, index)


_ROWS: dict[int, np.ndarray] = {}
_OFFSETS: dict[tuple[int, int], np.ndarray] = {}


def _rows(n: int) -> np.ndarray:
    """``arange(n)``, made once per size."""
    found = _ROWS.get(n)
    if found is None:
        found = _ROWS[n] = np.arange(n)
    return found


def row_starts(n: int, width: int) -> np.ndarray:
    """Where each row of an (n, width) array begins in its flat view: ``arange(n) * width``, made once."""
    found = _OFFSETS.get((n, width))
    if found is None:
        found = _OFFSETS[(n, width)] = np.arange(n, dtype=INT) * width
    return found


def gather(values: np.ndarray, index) -> np.ndarray:
    """``values[row, index[row]]`` for every row of a 2-d array (Python's wrap-around for -1 kept).

    A take from the flat view at precomputed row starts: a third of the time of numpy's indexing by
    two arrays."""
    n, width = values.shape
    if values.flags.c_contiguous and not (index < 0).any():
        return values.reshape(-1).take(row_starts(n, width) + index)
    return values[_rows(n), index]


def flat_view(values: np.ndarray) -> np.ndarray:
    """The flat view of a C-contiguous array, sharing its memory (a write through it is a write to it)."""
    if not values.flags.c_contiguous:
        raise ValueError("a flat write needs a C-contiguous array")
    return values.reshape(-1)


def flat_cells(values: np.ndarray, rows, index) -> np.ndarray:
    """The places in ``values.reshape(-1)`` (a C-contiguous 2-d array's flat view, which shares its
    memory) of ``values[rows, index]``: for a take or an in-place write there, each row's ``index`` in
    0 … width - 1."""
    return rows * values.shape[1] + index


def table(values: np.ndarray, index):
    """``values[index]`` of a table the compiler built (Python's wrap-around for -1 kept)."""
    return values[index]


def across(ufunc, values) -> np.ndarray:
    """``ufunc.reduce(values, axis=-1)`` of a (deals, k) array: for a few columns, column by column
    (numpy reduces a short last axis about ten times slower than it combines whole columns); a
    sum of booleans counts them."""
    values = np.asarray(values)
    width = values.shape[-1]
    if values.ndim != 2 or not 0 < width <= 16:
        return ufunc.reduce(values.astype(INT) if ufunc is np.add and values.dtype == np.bool_ else values, axis=-1)
    out = values[:, 0].astype(INT) if ufunc is np.add and values.dtype == np.bool_ else values[:, 0].copy()
    for column in range(1, width):
        ufunc(out, values[:, column], out=out)
    return out


def joined(bits) -> np.ndarray:
    """The union of the rows of ``bits`` (cards, deals): the set of each deal's cards."""
    bits = np.asarray(bits)
    out = bits[0].copy()
    for row in bits[1:]:
        out |= row
    return out


def popcount(mask):
    """The number of cards (or seats) in each set."""
    return np.bitwise_count(np.asarray(mask, dtype=INT).view(np.uint64)).astype(INT)


def bit(index):
    """The one-card set of ``index``; the empty set for -1."""
    index = np.asarray(index, dtype=INT)
    return np.where(index >= 0, np.left_shift(INT(1), np.maximum(index, 0)), 0)


def has(mask, index):
    """Whether ``index`` (-1: none) is in ``mask``."""
    index = np.asarray(index, dtype=INT)
    return (index >= 0) & ((np.right_shift(mask, np.maximum(index, 0)) & 1) == 1)


def subset(part, whole):
    """Whether every card of ``part`` is in ``whole``."""
    return (part & whole) == part


_EXTENDED: dict[tuple, tuple] = {}     # per table (by identity) and missing value: the table and its extension


def looked_up(values: np.ndarray, index, missing: int):
    """``values[index]``, or ``missing`` where the index is -1 (none): one take from the table with
    ``missing`` appended, which index -1 reads."""
    key = (id(values), missing)
    found = _EXTENDED.get(key)
    if found is None or found[0] is not values:
        found = _EXTENDED[key] = (values, np.append(values, values.dtype.type(missing)))
    index = np.asarray(index, dtype=INT)
    try:
        return found[1].take(index)
    except IndexError:          # an index below -1: none as well
        return np.where(index >= 0, values[np.maximum(index, 0)], missing)


def suit_cards(masks: np.ndarray, suit):
    """The cards of ``suit`` (-1: none)."""
    return looked_up(masks, suit, 0)


def divide(x, y, span):
    """``x / y`` rounded down; a zero divisor gives 0 here (the scalar engine reports it)."""
    y = np.asarray(y)
    return np.where(y != 0, np.floor_divide(x, np.where(y != 0, y, 1)), 0)


def modulo(x, y, span):
    """``x % y``; a zero divisor gives 0 here (the scalar engine reports it)."""
    y = np.asarray(y)
    return np.where(y != 0, np.mod(x, np.where(y != 0, y, 1)), 0)


def _over_seats(ufunc, values, mask):
    """``ufunc`` (add, or) over ``values[:, seat]`` for the seats of ``mask``: a seat set for all deals
    (an int) or one per deal, a column at a time."""
    mask = np.asarray(mask)
    out = np.zeros(len(values), dtype=INT)
    for seat in range(values.shape[1]):
        if mask.ndim == 0:
            if int(mask) >> seat & 1:
                ufunc(out, values[:, seat], out=out)
        else:
            ufunc(out, np.where(np.right_shift(mask, seat) & 1 == 1, values[:, seat], 0), out=out)
    return out


def per_seats(values, mask):
    """The sum of ``values[seat]`` over the seats of ``mask``."""
    return _over_seats(np.add, values, mask)


def won_by(won, mask):
    """The cards taken by the seats of ``mask``."""
    return _over_seats(np.bitwise_or, won, mask)


_BYTE_POINTS: dict[int, tuple] = {}      # per points table (by identity): the table and its per-byte sums


def _byte_points(points: np.ndarray) -> np.ndarray:
    """(bytes, 256): the card points of every value of each byte of a card set."""
    found = _BYTE_POINTS.get(id(points))
    if found is None or found[0] is not points:
        values = np.arange(256)
        sums = np.zeros(((len(points) + 7) // 8, 256), dtype=INT)
        for card, worth in enumerate(points.tolist()):
            sums[card // 8] += ((values >> (card % 8)) & 1) * worth
        found = _BYTE_POINTS[id(points)] = (points, sums)
    return found[1]


def card_points(points: np.ndarray, cards):
    """The card points of each set of cards, a byte of the set at a time."""
    cards = np.asarray(cards, dtype=INT)
    sums = _byte_points(points)
    total = np.zeros(cards.shape, dtype=INT)
    for index in range(len(sums)):
        total += sums[index][np.right_shift(cards, 8 * index) & 255]
    return total


def points_of(points: np.ndarray, won, mask):
    """The card points taken by the seats of ``mask``."""
    return card_points(points, won_by(won, mask))


_RANKINGS: dict[tuple, tuple] = {}      # per key table (by identity) and direction: the table and its ranking


def _ranking(key: np.ndarray, descending: bool) -> tuple[np.ndarray, np.ndarray]:
    """The cards in ``key`` order as a bit permutation: per byte of a card set, each of its 256 values
    with every card moved to the bit of its place in the order; and the card at each place."""
    found = _RANKINGS.get((id(key), descending))
    if found is None or found[0] is not key:
        order = np.argsort(-key if descending else key, kind="stable")
        place = np.empty(len(key), dtype=INT)
        place[order] = np.arange(len(key))
        values = np.arange(256)
        moved = np.zeros(((len(key) + 7) // 8, 256), dtype=INT)
        for card in range(len(key)):
            moved[card // 8] |= np.where((values >> (card % 8)) & 1 == 1, np.left_shift(INT(1), place[card]), 0)
        found = _RANKINGS[(id(key), descending)] = (key, (moved, order.astype(INT)))
    return found[1]


def lowest_card(cards, key: np.ndarray, descending: bool = False):
    """Of each set, the card whose ``key`` is least (greatest, ``descending``); -1 for an empty set.

    The set's bits are moved to their places in the key's order, a byte at a time, and the lowest
    place held names the card."""
    cards = np.asarray(cards, dtype=INT)
    moved, order = _ranking(key, descending)
    ranked = np.zeros(cards.shape, dtype=INT)
    for index in range(len(moved)):
        ranked |= moved[index][np.right_shift(cards, 8 * index) & 255]
    return np.where(cards != 0, order[np.maximum(low_bit(ranked), 0)], -1)


def low_bit(cards):
    """The lowest-numbered card of each set (-1 for an empty set)."""
    cards = np.asarray(cards, dtype=INT)
    return np.where(cards != 0, popcount((cards & -cards) - 1), -1)


_KEYS: dict[int, tuple] = {}


def _card_keys(order: np.ndarray) -> np.ndarray:
    """Per card, its ``order`` then its number as one key (built once per order table)."""
    found = _KEYS.get(id(order))
    if found is None or found[0] is not order:
        found = _KEYS[id(order)] = (order, order * 64 + np.arange(len(order)))
    return found[1]


def best(cards, suit_of_card: np.ndarray, order: np.ndarray):
    """The highest-ranking of ``cards``: the lowest-numbered when they share a suit (a suit's cards are
    numbered highest first), else the one of lowest ``order``, ties to the lower number."""
    cards = np.asarray(cards, dtype=INT)
    low = low_bit(cards)
    mixed = (cards & ~looked_up(suit_of_card, low, 0)) != 0
    if not mixed.any():
        return low
    ranked = lowest_card(cards[mixed], _card_keys(order))
    low = np.broadcast_to(low, cards.shape).copy()
    low[mixed] = ranked
    return low


def highest(order_key: np.ndarray, cards):
    """The highest-ranking card of each set (``order_key``: the rank key per card); -1 if empty."""
    return lowest_card(cards, order_key)


def lowest(order_key: np.ndarray, cards):
    """The lowest-ranking card of each set; -1 if empty."""
    return lowest_card(cards, order_key, descending=True)


def table_at(table: np.ndarray, index):
    """``table[index]``, or 0 for none (-1) (the twin of the generated code's ``_at``)."""
    return looked_up(table, index, 0)


_ORDER_MASKS: dict = {}


def _order_masks(orders: np.ndarray) -> list[tuple[int, int]]:
    """(order, the mask of the cards with that order) for each distinct order of strength of ``orders``."""
    found = _ORDER_MASKS.get(id(orders))
    if found is None or found[0] is not orders:
        masks = [(int(v), signed(sum(1 << int(c) for c in np.flatnonzero(orders == v)))) for v in np.unique(orders)]
        found = _ORDER_MASKS[id(orders)] = (orders, masks)
    return found[1]


def rank_in(orders: np.ndarray, card, cards):
    """The place (from 1, the lowest) of each deal's card among its cards by the order of strength (a lower order
    is a stronger card; copies share their place); 0 where it is none or not one of them."""
    card, cards = np.asarray(card, dtype=INT), np.asarray(cards, dtype=INT)
    mine = looked_up(orders, card, -1)
    held = (np.right_shift(cards, np.maximum(card, 0)) & 1) == 1
    place = np.ones(np.broadcast(card, cards).shape, dtype=INT)
    for order, mask in _order_masks(orders):
        place = place + (((cards & mask) != 0) & (order > mine))
    return np.where((card >= 0) & held, place, 0)


def suit_of(suits: np.ndarray, card):
    """The suit of a card; -1 for none."""
    return looked_up(suits, card, -1)


def team_of(teams: np.ndarray, seat):
    """The mask of a seat's fixed team; the empty set for none (-1)."""
    return looked_up(teams, seat, 0)


def _per_deal(bs, value) -> np.ndarray:
    return np.broadcast_to(np.asarray(value, dtype=INT), (bs.n,))


def _seat_holding(hands, cards):
    """The first seat whose set of ``hands`` holds every card of ``cards`` (-1: none, or no cards)."""
    cards = np.asarray(cards, dtype=INT)[..., None]
    holds = ((hands & cards) == cards) & (cards != 0)
    return np.where(holds.any(axis=1), holds.argmax(axis=1), -1)


def holder(bs, cards):
    """The seat that was dealt every card of the set, or -1."""
    return _seat_holding(bs.dealt, _per_deal(bs, cards))


def holding(bs, cards):
    """The seat that holds every card of the set now, or -1."""
    return _seat_holding(bs.hands, _per_deal(bs, cards))


def _on_table(bs, card) -> np.ndarray:
    """Per deal: the place (from 0) of ``card`` in the trick on the table, or -1."""
    part = bs.tricks
    places = np.arange(part.table_cards.shape[1])
    here = (part.table_cards == card[:, None]) & (places < part.trick[:, None]) & (card[:, None] >= 0)
    return np.where(here.any(axis=1), here.argmax(axis=1), -1)


def trick_of(bs, card):
    """The number (from 1) of the trick a card fell in, the trick on the table included, or 0."""
    card = _per_deal(bs, card)
    finished = np.where(card >= 0, bs.tricks.trick_of_card[bs.rows, np.maximum(card, 0)], 0)
    return np.where((finished == 0) & (_on_table(bs, card) >= 0), bs.tricks.trick_winners + 1, finished)


def taken_by(bs, card):
    """The seat that won the finished trick a card fell in, or -1 (also while its trick is on the table)."""
    number = trick_of(bs, card)
    done = (number > 0) & (number <= bs.tricks.trick_winners)
    return np.where(done, bs.tricks.winners[bs.rows, np.maximum(number - 1, 0)], -1)


def played_by(bs, card):
    """The seat that played a card, in a finished trick or in the trick on the table, or -1."""
    card = _per_deal(bs, card)
    finished = np.where(card >= 0, bs.tricks.played_by_card[bs.rows, np.maximum(card, 0)], -1)
    place = _on_table(bs, card)
    table = bs.tricks.table_seats[bs.rows, np.maximum(place, 0)]
    return np.where(finished >= 0, finished, np.where(place >= 0, table, -1))


def winning_card(bs, number):
    """The card that won trick ``number`` (from 1), or -1."""
    number = _per_deal(bs, number)
    finished = (number > 0) & (number <= bs.tricks.trick_winners)
    return np.where(finished, bs.tricks.winning_cards[bs.rows, np.clip(number - 1, 0, None)], -1)


def first_trick_won(bs, seats):
    """The number (from 1) of the first finished trick a seat of ``seats`` took, or 0."""
    part = bs.tricks
    seats = _per_deal(bs, seats)
    winners = part.winners[:, :max(int(part.trick_winners.max(initial=0)), 1)]
    finished = np.arange(winners.shape[1]) < part.trick_winners[:, None]
    took = finished & ((np.right_shift(seats[:, None], np.maximum(winners, 0)) & 1) == 1)
    return np.where(took.any(axis=1), took.argmax(axis=1) + 1, 0)


def defenders(bs, seats):
    """The seats against the declarers: those in the deal (or all ``seats``) outside the declarers' side."""
    among = bs.tricks.among
    return np.where(among != 0, among & ~bs.side_mask, seats & ~bs.side_mask)


def discarded(bs, seats):
    """The cards the seats of ``seats`` discarded face down this deal."""
    return won_by(bs.discards, seats)


def shown(bs, seats):
    """The cards the seats of ``seats`` showed to everyone this deal."""
    return won_by(bs.show.shown, seats)


def bids_of(bs, seats):
    """The sum of the numbers the seats of ``seats`` bid this deal (0 for a seat that has not bid)."""
    said = bs.bids.said
    return per_seats(np.where(said > 0, said, 0), seats)


def copy_winner(part, best, twins: np.ndarray, later):
    """Of the copies of ``best`` in the trick on the table (``part``: the batch trick slice), the first
    played; the last played when ``best`` is in ``later``."""
    best = np.asarray(best, dtype=INT)
    index = np.maximum(best, 0)
    copies = twins.take(index)
    any_later = not (np.ndim(later) == 0 and not later)
    first = last = np.full(best.shape, -1, dtype=INT)
    for place in range(part.table_cards.shape[1]):           # the places of the trick, in the order played
        card = part.table_cards[:, place]
        copy = (place < part.trick) & ((np.right_shift(copies, np.maximum(card, 0)) & 1) == 1)
        first = np.where(copy & (first < 0), card, first)
        if any_later:
            last = np.where(copy, card, last)
    found = np.where((np.right_shift(np.asarray(later, dtype=INT), index) & 1) == 1, last, first) if any_later \
        else first
    return np.where(first >= 0, found, best)


def position(bs, card):
    """The place (from 1) of a card in the trick on the table, or 0."""
    part = bs.tricks
    card = _per_deal(bs, card)
    here = (part.table_cards == card[:, None]) & (np.arange(part.table_cards.shape[1]) < part.trick[:, None])
    return np.where(here.any(axis=1) & (card >= 0), here.argmax(axis=1) + 1, 0)


def cards_played(bs, seats):
    """The cards the seats of ``seats`` played this deal, in finished tricks and on the table."""
    part = bs.tricks
    out = won_by(part.seat_played, seats)
    for place in range(part.table_cards.shape[1]):
        seat, card = part.table_seats[:, place], part.table_cards[:, place]
        on_table = (place < part.trick) & ((np.right_shift(seats, np.maximum(seat, 0)) & 1) == 1)
        out = out | np.where(on_table, np.left_shift(INT(1), np.maximum(card, 0)), 0)
    return out


def tricks_worth(bs, points: np.ndarray, seats, least):
    """How many finished tricks taken by a seat of ``seats`` hold at least ``least`` card points."""
    part, seats = bs.tricks, _per_deal(bs, seats)
    played = max(int(part.trick_winners.max(initial=0)), 1)
    winners = part.winners[:, :played]
    finished = np.arange(played) < part.trick_winners[:, None]
    taken = finished & ((np.right_shift(seats[:, None], np.maximum(winners, 0)) & 1) == 1)
    worth = card_points(points, part.trick_masks[:, :played])
    return (taken & (worth >= np.asarray(least)[..., None])).sum(axis=1)


def called(part, word: str):
    """Whether the call ``word`` has been said during trick play (``part``: the batch trick slice)."""
    found = part.calls.get(word)
    return found >= 0 if found is not None else False


def scored(part, item: str):
    """Whether the settlement scored ``item`` (``part``: the batch settle slice)."""
    found = part.scored.get(item)
    return found if found is not None else False


def reduce_min(*values):
    """``min`` of one per-seat array (over the seats) or of several values (deal by deal)."""
    if len(values) == 1:
        return np.asarray(values[0]).min(axis=-1)
    return np.minimum.reduce(np.broadcast_arrays(*values))


def reduce_max(*values):
    """``max`` of one per-seat array (over the seats) or of several values (deal by deal)."""
    if len(values) == 1:
        return np.asarray(values[0]).max(axis=-1)
    return np.maximum.reduce(np.broadcast_arrays(*values))


def or_zero(best, floor):
    """A written-out ``max``/``min`` aggregate, deal by deal: 0 where no element was admitted."""
    return np.where(np.asarray(best) == floor, 0, best)


def arg_best(sign, default, *flat):
    """A written-out ``argmax``/``argmin``, deal by deal (see rulelang.compile.coderuntime.arg_best): per element
    whether it is admitted, its value, the element and its place; the earliest place wins a tie."""
    found = best = place = None
    have = np.asarray(False)
    for i in range(0, len(flat), 4):
        admitted, value, element, order = (np.asarray(v) for v in flat[i:i + 4])
        value = value * sign
        admitted = truth(admitted)
        if found is None:
            take = admitted
            found, best, place = np.where(take, element, default), value, order
        else:
            take = admitted & (~have | (value > best) | ((value == best) & (order < place)))
            found, best, place = np.where(take, element, found), np.where(take, value, best), np.where(take, order, place)
        have = have | admitted
    return np.asarray(default) if found is None else np.where(have, found, default)


HELPERS = {
    "_or_zero": or_zero, "_arg_best": arg_best,
    "_bit": bit, "_has": has, "_subset": subset, "_suit_cards": suit_cards, "_best": best, "_divide": divide,
    "_modulo": modulo, "_per_seats": per_seats, "_card_points": card_points, "_points_of": points_of,
    "_won_by": won_by, "_highest": highest, "_lowest": lowest, "_suit_of": suit_of, "_team_of": team_of,
    "_holder": holder, "_holding": holding, "_trick_of": trick_of, "_taken_by": taken_by, "_played_by": played_by,
    "_winning_card": winning_card, "_first_trick_won": first_trick_won, "_defenders": defenders,
    "_discarded": discarded, "_shown": shown, "_at": table_at, "_rank_in": rank_in, "_bids_of": bids_of,
    "_copy_winner": copy_winner, "_position": position,
    "_cards_played": cards_played, "_tricks_worth": tricks_worth,
}
"""The scalar helpers that have a batch twin, by the name the generated code calls."""

PLUMBING = {
    "_b_truth": truth, "_b_where": where, "_b_and": both, "_b_or": either, "_b_not": negate, "_b_in": member,
    "_b_returned": returned, "_b_kept": kept, "_b_at": at, "_b_table": table, "_b_popcount": popcount,
    "_b_min": reduce_min, "_b_scored": scored, "_b_called": called, "_b_max": reduce_max, "_b_abs": np.abs,
}
"""The helpers the rewriting itself brings in (Python's control flow and builtins, deal by deal)."""
