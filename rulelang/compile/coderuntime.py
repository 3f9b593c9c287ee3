"""The helpers generated rule code calls: small functions over ints and bitmasks.

Each takes what it needs as arguments (a table the compiler made is passed as ``_kN``),
so a helper knows nothing of any one game. :data:`HELPERS` is what a game's module sees.
"""

from __future__ import annotations

from rulelang.compile.values import EvalError


def bit(index: int) -> int:
    """The one-card (or one-seat) set of ``index``; the empty set for none (-1)."""
    return 1 << index if index >= 0 else 0


def has(mask: int, index: int) -> bool:
    """Whether ``index`` (a card or seat, -1 for none) is in ``mask``."""
    return index >= 0 and mask >> index & 1 == 1


def subset(part: int, whole: int) -> bool:
    """Whether every card of ``part`` is in ``whole``."""
    return part & whole == part


def suit_cards(masks: tuple, suit) -> int:
    """The cards of ``suit`` (none or -1: no cards)."""
    return masks[suit] if suit is not None and suit >= 0 else 0


def divide(x: int, y: int, span) -> int:
    """``x / y`` rounded down; a division by zero is an error located at the rule."""
    if y == 0:
        raise EvalError("division by zero", span)
    return x // y


def modulo(x: int, y: int, span) -> int:
    """``x % y``; a zero divisor is an error located at the rule."""
    if y == 0:
        raise EvalError("division by zero", span)
    return x % y


def per_seats(values: list, mask: int) -> int:
    """The sum of ``values[seat]`` over the seats of ``mask``."""
    total, seat = 0, 0
    while mask:
        if mask & 1:
            total += values[seat]
        mask >>= 1
        seat += 1
    return total


def card_points(points: tuple, cards: int) -> int:
    """The card points of a set of cards: one look-up per eight cards of the pack, in tables made once per
    points table (the sum for every byte of a mask)."""
    found = _SCORING.get(id(points))
    if found is None or found[0] is not points:
        found = _SCORING[id(points)] = (points, _byte_sums(points))
    total = 0
    for sums in found[1]:
        if not cards:
            break
        total += sums[cards & 255]
        cards >>= 8
    return total


def _byte_sums(points: tuple) -> tuple[tuple[int, ...], ...]:
    """Per byte of a card mask (cards 8k..8k+7): the points of every byte value."""
    tables = []
    for base in range(0, len(points), 8):
        values = points[base:base + 8]
        tables.append(tuple(sum(value for i, value in enumerate(values) if byte >> i & 1) for byte in range(256)))
    return tuple(tables)


_SCORING: dict[int, tuple[tuple, tuple]] = {}   # per points table (by identity): the table and its byte sums


def points_of(points: tuple, won: list, mask: int) -> int:
    """The card points in the tricks taken by the seats of ``mask``."""
    total, seat = 0, 0
    while mask:
        if mask & 1:
            total += card_points(points, won[seat])
        mask >>= 1
        seat += 1
    return total


def won_by(won: list, mask: int) -> int:
    """The cards in the tricks taken by the seats of ``mask``."""
    cards, seat = 0, 0
    while mask:
        if mask & 1:
            cards |= won[seat]
        mask >>= 1
        seat += 1
    return cards


def highest(order: tuple, cards: int) -> int:
    """The highest-ranking card of a set (``order`` holds (rank order, card) per card); -1 if empty."""
    return min(order[c] for c in _bits(cards))[1] if cards else -1


def lowest(order: tuple, cards: int) -> int:
    """The lowest-ranking card of a set; -1 if empty."""
    return max(order[c] for c in _bits(cards))[1] if cards else -1


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def best(cards: int, suit_of_card: tuple, order: tuple) -> int:
    """The highest-ranking of ``cards``: the lowest-numbered when they share a suit (a suit's cards are
    numbered highest first), else the one of lowest ``order``, ties to the lower number."""
    low = (cards & -cards).bit_length() - 1
    if cards & ~suit_of_card[low]:
        low = min(_bits(cards), key=lambda c: (order[c], c))
    return low


def copy_winner(trick: list, best: int, twins: tuple, later: int) -> int:
    """Of the copies of ``best`` in the trick, the first played; the last played when ``best`` is in ``later``."""
    copies = [card for _, card in trick if twins[best] >> card & 1]
    return copies[-1] if later >> best & 1 else copies[0]


def holder(st, cards: int) -> int:
    """The seat that was dealt every card of the set, or -1."""
    for seat, hand in enumerate(st.dealt):
        if cards and hand & cards == cards:
            return seat
    return -1


def holding(st, cards: int) -> int:
    """The seat that holds every card of the set now, or -1."""
    for seat, hand in enumerate(st.hands):
        if cards and hand & cards == cards:
            return seat
    return -1


def suit_of(suits: tuple, card: int) -> int:
    """The suit of a card; -1 for none."""
    return suits[card] if card >= 0 else -1


def winning_card(st, number: int) -> int:
    """The card that won trick ``number`` (from 1), or -1."""
    return st.tricks.trick_winners[number - 1][1] if 0 < number <= len(st.tricks.trick_winners) else -1


def trick_cards(st, number: int) -> int:
    """The cards of finished trick ``number`` (from 1), as a mask; 0 for a trick not yet played."""
    if not 0 < number <= len(st.tricks.trick_winners):
        return 0
    return st.tricks.trick_masks[number - 1]


def cards_played(st, seats: int) -> int:
    """The cards the seats of ``seats`` played this deal, in finished tricks and on the table."""
    cards = 0
    for plays in (*st.tricks.finished, st.tricks.trick):
        for seat, card in plays:
            if seats >> seat & 1:
                cards |= 1 << card
    return cards


def position(st, card: int) -> int:
    """The place (from 1) of a card in the trick on the table, or 0."""
    for place, (_, played) in enumerate(st.tricks.trick, start=1):
        if played == card:
            return place
    return 0


def taken_by(st, card: int) -> int:
    """The seat that won the finished trick a card fell in, or -1 (also while its trick is on the table)."""
    number = trick_of(st, card)
    winners = st.tricks.trick_winners
    return winners[number - 1][0] if 0 < number <= len(winners) else -1


def played_by(st, card: int) -> int:
    """The seat that played a card, in a finished trick or in the trick on the table, or -1."""
    if card < 0:
        return -1
    number = trick_of(st, card)
    finished = st.tricks.finished
    for seat, played in finished[number - 1] if 0 < number <= len(finished) else st.tricks.trick:
        if played == card:
            return seat
    return -1


def trick_of(st, card: int) -> int:
    """The number (from 1) of the trick a card fell in, the trick on the table included, or 0."""
    if card >= 0:
        for number, mask in enumerate(st.tricks.trick_masks, start=1):
            if mask >> card & 1:
                return number
        if any(played == card for _, played in st.tricks.trick):
            return len(st.tricks.trick_masks) + 1
    return 0


def first_trick_won(st, seats: int) -> int:
    """The number (from 1) of the first finished trick a seat of ``seats`` took, or 0."""
    for number, (winner, _) in enumerate(st.tricks.trick_winners, start=1):
        if seats >> winner & 1:
            return number
    return 0


def tricks_worth(st, points: tuple, seats: int, least: int) -> int:
    """How many finished tricks taken by a seat of ``seats`` hold at least ``least`` card points."""
    worth = [0] + [sum(points[card] for _, card in plays) for plays in st.tricks.finished]
    return sum(1 for number, (winner, _) in enumerate(st.tricks.trick_winners, start=1)
               if seats >> winner & 1 and worth[number] >= least)


def defenders(st, seats: int) -> int:
    """The seats against the declarers: those in the deal (or all ``seats``) outside the declarers' side."""
    among = st.tricks.among
    return among & ~st.side_mask if among else seats & ~st.side_mask


def team_of(teams: tuple, seat: int) -> int:
    """The mask of a seat's fixed team; the empty set for none (-1)."""
    return teams[seat] if seat >= 0 else 0


def discarded(st, seats: int) -> int:
    """The cards the seats of ``seats`` discarded face down this deal (an exchange, a talon taken up)."""
    out = 0
    for seat, cards in enumerate(st.discards):
        if seats >> seat & 1:
            out |= cards
    return out


def shown(st, seats: int) -> int:
    """The cards the seats of ``seats`` showed to everyone this deal (a ``show`` phase), played or not."""
    out = 0
    for seat, cards in enumerate(st.show.shown):
        if seats >> seat & 1:
            out |= cards
    return out


def bids_of(st, seats: int) -> int:
    """The sum of the numbers the seats of ``seats`` bid this deal (0 for a seat that has not bid)."""
    part = getattr(st, "bids", None)
    if part is None:
        return 0
    return sum(n for s, n in enumerate(part.said) if n > 0 and seats >> s & 1)


def trick_card(st, number: int) -> int:
    """The ``number``-th card (from 1) played to the trick on the table, or -1."""
    trick = st.tricks.trick
    return trick[number - 1][1] if 0 < number <= len(trick) else -1


def trick_seat(st, number: int) -> int:
    """The seat that played the ``number``-th card (from 1) of the trick on the table, or -1."""
    trick = st.tricks.trick
    return trick[number - 1][0] if 0 < number <= len(trick) else -1


def winning_now(st) -> int:
    """The card now winning the trick on the table under the trick rules in force, or -1 (no trick on the
    table, or no win rule gives one of its cards yet)."""
    part = st.tricks
    if not part.trick or part.rules is None:
        return -1
    card = part.rules.winner.fn(st, None)
    return card if card >= 0 and part.trick_mask >> card & 1 else -1


def winner_now(st) -> int:
    """The seat that played the card now winning the trick on the table, or -1."""
    card = winning_now(st)
    return next((seat for seat, played in st.tricks.trick if played == card), -1)


def beats(st, card: int, other: int, suits: tuple) -> bool:
    """Whether ``card`` would take ``other`` in the trick on the table under the win rules in force: the win rules
    asked about a trick of the two (``other`` played first, and led when no card is on the table). Any card
    beats none; a card does not beat itself."""
    part = st.tricks
    if card < 0 or card == other or part.rules is None:
        return False
    if other < 0:
        return True
    trick, mask, led = part.trick, part.trick_mask, part.led_suit
    try:
        part.trick, part.trick_mask = [(-1, other), (-1, card)], 1 << card | 1 << other
        if led < 0:
            part.led_suit = suits[other]
        return part.rules.winner.fn(st, None) == card
    finally:
        part.trick, part.trick_mask, part.led_suit = trick, mask, led


def rank_in(orders: tuple, card: int, cards: int) -> int:
    """The place (from 1, the lowest) of ``card`` among ``cards`` by the deck's order of strength; 0 if it is not
    one of them. Copies of one card share their place."""
    if card < 0 or not cards >> card & 1:
        return 0
    mine = orders[card]                  # a lower order is a stronger card
    return 1 + len({orders[c] for c in range(cards.bit_length()) if cards >> c & 1 and orders[c] > mine})


def decided(st, seat: int):
    """The option ``seat`` last picked in a ``decide`` this deal, or None."""
    return st.decide.chosen[seat] if seat >= 0 else None


def stock_left(st) -> int:
    """The cards still to be drawn in trick play: the stock, a face-up top card, and the card turned up for
    trumps when the trick rules draw it last (``draw: {last: turned}``)."""
    left = bin(st.stock).count("1")
    part = st.tricks
    rules = part.rules
    draw = rules.draw if rules is not None else None
    if draw is None:
        return left
    turn_up = getattr(st, "turn_up", None)
    return left + (part.top >= 0) + (bin(turn_up.cards).count("1") if draw.turned_last and turn_up else 0)


def seat_counter(values: tuple, seat: int) -> int:
    """One seat's value of a match counter kept per seat (0 for none)."""
    return values[seat] if seat is not None and seat >= 0 else 0


def picked(st, seat: int, option: str) -> bool:
    """Whether ``seat`` picked ``option`` in a ``decide`` this deal."""
    part = getattr(st, "decide", None)
    return part is not None and (seat, option) in part.picked


def dealt_with(st, seats: int, value: str) -> int:
    """How many earlier deals of this match a seat of ``seats`` dealt in which a deal variable or the contract
    had the value ``value`` (a dealer who plays each contract once: ``dealt_with({dealer}, value) == 0``)."""
    return sum(1 for deal in st.finished_deals if seats >> deal["dealer"] & 1
               and (deal["contract"] == value or value in deal["vars"].values()))


def laid_aside(st, seats: int) -> int:
    """The cards the seats of ``seats`` laid aside face down this deal (``lay_aside``), shown since or not."""
    part = getattr(st, "lay_aside", None)
    return part.laid if part is not None and part.owner >= 0 and seats >> part.owner & 1 else 0


def melded(st, seats: int) -> int:
    """The points of the melds the seats of ``seats`` declared this deal that count (``meld``)."""
    part = getattr(st, "meld", None)
    return sum(m.points for m in part.counts if seats >> m.seat & 1) if part is not None else 0


def trick_melds(st, seats: int) -> int:
    """The points of the combinations (the trick rules' ``melds``) in the tricks the seats of ``seats`` won, as
    they were found when each trick was given."""
    return sum(meld.points for found in st.tricks.melds_won for meld in found if seats >> meld.seat & 1)


def aside_shown(st) -> int:
    """The trick (from 1) in which the cards laid aside were shown; 0 while they lie face down (or none)."""
    part = getattr(st, "lay_aside", None)
    return part.shown_in if part is not None else 0


def said_by(st, word: str) -> int:
    """The seat that last said the call ``word`` of trick play this deal, or -1 (none)."""
    return st.tricks.calls.get(word, -1)


def said_in(st, word: str) -> int:
    """The trick (from 1) in which the call ``word`` was last said this deal, or 0."""
    return st.tricks.said_in.get(word, 0)


def times_said(st, word: str, seats: int) -> int:
    """How many times the seats of ``seats`` said the call ``word`` this deal."""
    return sum(1 for said, seat, _ in st.tricks.said if said == word and seats >> seat & 1)


def at(table: tuple, index: int) -> int:
    """``table[index]``, or 0 for none (-1)."""
    return table[index] if index >= 0 else 0


def or_zero(best: int, floor: int) -> int:
    """A written-out ``max``/``min`` aggregate: its value, or 0 when no element was admitted (``floor``)."""
    return 0 if best == floor else best


def arg_best(sign: int, default: int, *flat) -> int:
    """A written-out ``argmax`` (``sign`` 1) or ``argmin`` (-1): ``flat`` holds, per element, whether it is
    admitted, its value, the element and its place in the domain's order; of equal values the earliest place
    wins; ``default`` when none is admitted."""
    found, best, place = default, None, None
    for i in range(0, len(flat), 4):
        admitted, value, element, order = flat[i:i + 4]
        if admitted and (best is None or value * sign > best or value * sign == best and order < place):
            found, best, place = element, value * sign, order
    return found


def elements(mask: int):
    """The members of a set (cards or seats) in order, for an aggregate over a set known only in play."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def numbers(low: int, high: int, span) -> range:
    """The numbers from ``low`` to ``high`` for an aggregate; a run longer than 1,000 is the rule's error."""
    if high - low >= 1000:
        raise EvalError(f"numbers({low}, {high}) holds more than 1,000 numbers", span)
    return range(low, high + 1)


def bits_of(items) -> int:
    """The set of the elements a set builder admits."""
    out = 0
    for (element,) in items:
        out |= 1 << element
    return out


def best_or_zero(sign: int, values) -> int:
    """``max`` (``sign`` 1) or ``min`` (-1) of an aggregate's values; 0 when there are none."""
    found = None
    for value in values:
        if found is None or value * sign > found * sign:
            found = value
    return 0 if found is None else found


def arg_best_of(sign: int, pairs) -> int:
    """The element of the best (value, element) pair, the first of equal ones; -1 (none) when there is none."""
    found, best = -1, None
    for value, element in pairs:
        if best is None or value * sign > best:
            found, best = element, value * sign
    return found


HELPERS = {f"_{fn.__name__}": fn for fn in (
    or_zero, arg_best, elements, numbers, bits_of, best_or_zero, arg_best_of, trick_card, trick_seat, winning_now,
    winner_now, beats, rank_in, at, decided, said_by, said_in, times_said, stock_left, laid_aside, aside_shown, melded, trick_melds, picked,
    dealt_with, seat_counter,
    bit, has, subset, suit_cards, best, copy_winner, divide, modulo, per_seats, card_points, points_of, won_by,
    highest, lowest, holder, holding, suit_of, winning_card, trick_cards, cards_played, position, taken_by,
    played_by, trick_of, first_trick_won, tricks_worth, defenders, bids_of, team_of, discarded, shown)}
