"""The heuristic's card for the trick on the table, one set of rules for the player and its rollouts.

The player (:class:`~.heuristic.HeuristicAgent`) knows its side and the worth of a trick only as far as its
seat does; a rollout (:mod:`.guided`) reads them from a world where every card is known. Both hand
:func:`choose_card` the same things — the worth of one more trick, the fitted worth of a card point, and
whether a partner holds the trick — and get the same card, so that a search improves on the very policy it is
anchored on. Which card beats which comes from :func:`~.worth.beats_masks` (a bitmask per card, cached per
trick rules), the trumps from :func:`~.worth.trump_mask`.
"""

from __future__ import annotations

from rulelang.compile.deck import iter_bits
from rulelang.constructs.tricks import Tricks
from rulelang.interpreter.agents.learned import declarer_alone
from rulelang.interpreter.agents.worth import beats_masks, next_trick_worth, sign, trump_mask


def choose_card(state, seat: int, legal: list[int], per_trick: float, per_point: float,
                partner_holds: bool, forced: int = -1) -> int:
    """The card for ``seat``: a master led when tricks or card points are wanted (a declarer whose tricks are
    worth nothing but the points they bring still leads his top trump), the weakest card that takes a trick
    worth taking (its own points counted), points onto a partner's trick, and where points cost, the card most
    dangerous later onto another's trick. ``per_trick`` is one more trick's worth, ``per_point`` a card point's
    (fitted), ``partner_holds`` whether a partner of ``seat`` wins the trick so far. ``forced`` is a seat of
    the other side whose every trick ``seat`` wants (:func:`trick_shunner`: a declarer who must take none), or
    -1: a card he must take is led where his hand lies open, and a trick he holds is left to him."""
    masks, cards = beats_masks(state), state.game.deck.cards
    point_sign = sign(per_point)
    trick = state.tricks.trick
    if forced >= 0:
        card = _forcing_card(state, seat, legal, masks, forced)
        if card is not None:
            return card
    if not trick:                                         # the weakest card is wanted only when leading
        weakest = min(legal, key=lambda c: (masks[c].bit_count(), cards[c].points * point_sign, c))
        wanted = per_trick > 0 or per_point > 0                 # a trick, or the card points it brings home
        return _lead(state, seat, legal, masks, weakest, per_trick, per_point) if wanted else weakest
    on_table = sum(cards[c].points for _, c in trick)
    taking = Tricks.heading(state, sum(1 << c for c in legal), strict=False)
    if partner_holds:
        return _give(state, seat, [c for c in legal if not taking >> c & 1] or legal, masks, point_sign)
    wanted = per_trick + per_point * on_table > 0
    worth_taking = [c for c in iter_bits(taking) if per_trick + per_point * (on_table + cards[c].points) > 0]
    last = len(trick) == len(state.tricks.order) - 1
    if wanted and worth_taking:                           # the card's own points count in the trick it takes
        if point_sign < 0 and last:
            return max(worth_taking, key=lambda c: (masks[c].bit_count(), c))   # last: shed the strongest
        if point_sign >= 0 and not last:
            return min(worth_taking, key=lambda c: (cards[c].points, masks[c].bit_count(), c))   # may be beaten yet
        return min(worth_taking, key=lambda c: (masks[c].bit_count(), c))
    ducking = [c for c in legal if not taking >> c & 1]
    if not ducking:                                       # every card takes: the one whose points cost least
        return max(legal, key=lambda c: (cards[c].points * point_sign, masks[c].bit_count(), c))
    if point_sign < 0:                                    # points cost: onto another's trick with them
        danger = dangers(state, ducking, unseen_mask(state, seat), masks)
        return max(ducking, key=lambda c: (cards[c].points + danger[c], cards[c].points, masks[c].bit_count(), c))
    if wanted:                                            # another's trick: the fewest points, the weakest card
        return min(ducking, key=lambda c: (cards[c].points, masks[c].bit_count(), c))
    return max(ducking, key=lambda c: (-cards[c].points * point_sign, masks[c].bit_count(), c))


def trick_shunner(state, seat: int, defending: bool, worth) -> int:
    """The declarer, where ``seat`` is known to play against him (``defending``), he plays alone
    (:func:`~.learned.declarer_alone`) and one more trick costs him now (a declaring side's trick, with the card
    points a trick holds on average, is worth less than nothing — a misère, a Null, a Bettel — and the game's scoring, where it can be read, does not want it
    yet: :func:`~.worth.next_trick_worth`; a Piccolo's one trick he still needs is not forced on him): the seat
    whose every trick ``seat`` wants; else -1."""
    declarer = state.declarer
    if declarer < 0 or declarer == seat or not defending or not declarer_alone(state):
        return -1
    per_trick, per_point = worth.known(state, declarer, {declarer})
    fitted = per_trick + per_point * trick_points(state.game)
    return declarer if fitted < 0 and next_trick_worth(state, declarer, fitted) < 0 else -1


def trick_points(game) -> float:
    """The card points a trick holds on average: the pack's points over the tricks a deal of it makes."""
    found = _TRICK_POINTS.get(game.definition.digest)
    if found is None:
        cards = game.deck.cards
        found = _TRICK_POINTS[game.definition.digest] = \
            sum(card.points for card in cards) * game.num_players / len(cards)
    return found


_TRICK_POINTS: dict[str, float] = {}


def _forcing_card(state, seat: int, legal: list[int], masks: list[int], forced: int) -> int | None:
    """Against ``forced``, a seat that must take no trick: leading, the weakest card he must take
    (:meth:`~rulelang.constructs.tricks.Tricks.forced_to_head`) where his whole hand is known to all (laid open);
    following, where he holds the trick so far, the strongest card that leaves it to him. None where neither
    applies (the usual card play goes on)."""
    trick = state.tricks.trick
    if not trick:
        if known_hand(state, forced) is None:
            return None
        forcing = [c for c in legal if Tricks.forced_to_head(state, seat, c, forced)]
        return min(forcing, key=lambda c: (masks[c].bit_count(), c)) if forcing else None
    so_far = Tricks.winning_so_far(state)
    if so_far is None or so_far[0] != forced:
        return None
    taking = Tricks.heading(state, sum(1 << c for c in legal), strict=False)
    ducking = [c for c in legal if not taking >> c & 1]
    return max(ducking, key=lambda c: (masks[c].bit_count(), c)) if ducking else None


def known_hand(state, seat: int) -> int | None:
    """``seat``'s whole hand where everyone knows every card of it (a hand laid open: the constructs'
    :meth:`~rulelang.constructs.base.Construct.public_holdings`), else None."""
    hand, known = state.hands[seat], 0
    for found in state.game.parts:
        known |= found.public_holdings(state).get(seat, 0)
    return hand if hand & ~known == 0 else None


def _give(state, seat: int, keep: list[int], masks: list[int], point_sign: int) -> int:
    """A card for a partner's trick from ``keep``: points if points are worth having; a master of its kind
    counts half its points, since it brings them home in a trick of its own."""
    cards = state.game.deck.cards
    if point_sign <= 0:
        return max(keep, key=lambda c: (cards[c].points * point_sign, -masks[c].bit_count(), -c))
    own = suit_masters(state, keep, unseen_mask(state, seat), masks)
    return max(keep, key=lambda c: (cards[c].points / (2 if c in own else 1), -masks[c].bit_count(), -c))


def _lead(state, seat: int, legal: list[int], masks: list[int], weakest: int, per_trick: float,
          per_point: float) -> int:
    """The strongest card no unseen card beats, else ``weakest``; where points cost, only a master whose suit
    holds too few unseen points to turn the trick against the leader."""
    unseen = unseen_mask(state, seat)
    masters = [c for c in legal if unseen & ~masks[c] == 0]
    if per_point < 0:
        suits, cards = state.game.card_suits, state.game.deck.cards
        masters = [c for c in masters if per_trick + per_point * sum(
            cards[o].points for o in iter_bits(unseen) if suits[o] == suits[c]) > 0]
    return max(masters, key=lambda c: (masks[c].bit_count(), c)) if masters else weakest


def unseen_mask(state, seat: int) -> int:
    """The cards ``seat`` has not seen, as a mask: neither in its hand, nor played, nor its own discards."""
    seen = state.hands[seat] | state.tricks.trick_mask | state.discards[seat]
    for won in state.won:
        seen |= won
    return (1 << state.game.num_cards) - 1 & ~seen


def suit_masters(state, cards: list[int], unseen: int, masks: list[int]) -> set[int]:
    """Those of ``cards`` that no unseen card of their kind beats (``masks``: what each card beats led): a trump no
    unseen trump beats, a plain card no unseen plain card of its suit beats (a trump only ruffs it)."""
    suits, trumps = state.game.card_suits, trump_mask(state)
    def rival(c: int, o: int) -> bool:
        trump = trumps >> c & 1
        return (trumps >> o & 1) == trump and (trump or suits[o] == suits[c])
    return {c for c in cards if not any(rival(c, o) for o in iter_bits(unseen & ~masks[c]))}


def dangers(state, cards: list[int], unseen: int, masks: list[int]) -> dict[int, int]:
    """For each of ``cards``, the card points of the unseen cards of its suit that it beats: what it could be
    made to take later, where points cost (a lone high card of a suit whose costly card is still out)."""
    suits, deck = state.game.card_suits, state.game.deck.cards
    return {c: sum(deck[o].points for o in iter_bits(unseen & masks[c]) if suits[o] == suits[c]) for c in cards}
