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
from rulelang.constructs.base import Construct
from rulelang.constructs.tricks import Tricks
from rulelang.interpreter.agents.learned import declarer_alone, each_for_himself
from rulelang.interpreter.agents.worth import beats_masks, kept_for_contract, next_trick_worth, sign, trump_mask


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
    (:func:`~.learned.declarer_alone`; not a contract every seat plays for itself) and his side's trick, with the
    card points a trick holds on average, is worth less than nothing (a misère, a Null, a Bettel): the seat whose
    every trick ``seat`` wants; else -1. Whether the game's scoring still agrees as things stand (a Piccolo's
    one trick he still needs is not forced on him) is asked only where a card would be chosen for it
    (:func:`_forcing_card`)."""
    declarer = state.declarer
    if declarer < 0 or declarer == seat or not defending:
        return -1
    return declarer if kept_for_contract("shuns", state, lambda: _declarer_shuns(state, worth)) else -1


def _declarer_shuns(state, worth) -> bool:
    """Whether the declarer plays alone, not each for himself, and his side's trick with its average card points
    is worth less than nothing (:func:`trick_shunner`)."""
    if not declarer_alone(state) or each_for_himself(state):
        return False
    per_trick, per_point = worth.known(state, state.declarer, {state.declarer})
    return per_trick + per_point * trick_points(state.game) < 0


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
    applies, or where the game's scoring, as far as it can be read, says one more trick is wanted by him now
    (:func:`~.worth.next_trick_worth`: a Piccolo's first): the usual card play goes on."""
    trick = state.tricks.trick
    if not trick:
        if known_hand(state, forced) is None:
            return None
        forcing = [c for c in legal if Tricks.forced_to_head(state, seat, c, forced)]
        card = min(forcing, key=lambda c: (masks[c].bit_count(), c)) if forcing else None
    else:
        if all(player != forced for player, _ in trick):          # he has yet to play to it
            return None
        so_far = Tricks.winning_so_far(state)
        if so_far is None or so_far[0] != forced:
            return None
        taking = Tricks.heading(state, sum(1 << c for c in legal), strict=False)
        ducking = [c for c in legal if not taking >> c & 1]
        card = max(ducking, key=lambda c: (masks[c].bit_count(), c)) if ducking else None
    return card if card is not None and next_trick_worth(state, forced, -1.0) < 0 else None


def known_hand(state, seat: int) -> int | None:
    """``seat``'s whole hand where everyone knows every card of it (a hand laid open: the constructs'
    :meth:`~rulelang.constructs.base.Construct.public_holdings`), else None."""
    hand = state.hands[seat]
    return hand if hand & ~public_hands(state).get(seat, 0) == 0 else None


def _holding_parts(game) -> list:
    """The game's constructs that tell cards everyone knows a seat holds (kept per rule file)."""
    found = _HOLDING_PARTS.get(game.definition.digest)
    if found is None:
        found = _HOLDING_PARTS[game.definition.digest] = [
            part for part in game.parts if part.public_holdings is not Construct.public_holdings]
    return found


_HOLDING_PARTS: dict[str, list] = {}


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
    """The strongest card no unseen card beats; where points cost, only a master whose suit holds too few unseen
    points to turn the trick against the leader. Without one, in a game whose cards carry no points, a plain
    suit's winner that only a trump takes (:func:`plain_winner`); else ``weakest``. Where cards carry points it
    is not done: the defenders' cashing made a declarer's hands look too poor to bid in the rollouts (three
    times as many deals passed out; benchmarks/RESULTS.md)."""
    unseen = unseen_mask(state, seat)
    masters = [c for c in legal if unseen & ~masks[c] == 0]
    if per_point < 0:
        suits, cards = state.game.card_suits, state.game.deck.cards
        masters = [c for c in masters if per_trick + per_point * sum(
            cards[o].points for o in iter_bits(unseen) if suits[o] == suits[c]) > 0]
    if masters:
        return max(masters, key=lambda c: (masks[c].bit_count(), c))
    if not trick_points(state.game):
        winner = plain_winner(state, seat, legal, unseen, masks)
        if winner is not None:
            return winner
    return weakest


FOLLOW_CHANCE = 0.5
"""How likely every other seat must be to hold a plain suit still before its winner is cashed (:func:`plain_winner`)."""


def plain_winner(state, seat: int, legal: list[int], unseen: int, masks: list[int]) -> int | None:
    """Of ``legal``, a plain suit's winner to cash: a card no card of its suit out of sight beats, so that only a
    trump takes it, where every other seat is likely (``FOLLOW_CHANCE``) still to hold that suit — the cards out
    of sight dealt at random by the public hand sizes; of several, the one with most points, then the strongest;
    None where there is none."""
    trumps, suits, cards = trump_mask(state), state.game.card_suits, state.game.deck.cards
    suit_masks = state.game.deck.suit_masks
    seen = {other: held for other, held in public_hands(state).items() if other != seat}
    out = unseen & ~sum(seen.values())
    found = [c for c in legal if not trumps >> c & 1 and suits[c] is not None
             and not out & ~masks[c] & suit_masks[suits[c]] & ~trumps]
    if not found:
        return None
    others = [other for other in range(len(state.hands)) if other != seat and state.hands[other]]
    hidden = [state.hands[other].bit_count() - seen.get(other, 0).bit_count() for other in others]
    total = sum(hidden)

    def follow_chance(c: int) -> float:
        suit = suit_masks[suits[c]] & ~trumps
        out_of_suit = (out & suit).bit_count()
        chance = 1.0
        for other, size in zip(others, hidden):
            if not seen.get(other, 0) & suit:                # else seen to hold the suit
                chance *= 1.0 - _none_of(size, total, out_of_suit)
        return chance
    found = [c for c in found if follow_chance(c) >= FOLLOW_CHANCE]
    return max(found, key=lambda c: (cards[c].points, masks[c].bit_count(), c)) if found else None


def public_hands(state) -> dict[int, int]:
    """Per seat, the cards of its hand everyone sees (a hand laid open, cards taken up in sight of all: the
    constructs' :meth:`~rulelang.constructs.base.Construct.public_holdings`)."""
    seen: dict[int, int] = {}
    for part in _holding_parts(state.game):
        for seat, held in part.public_holdings(state).items():
            seen[seat] = seen.get(seat, 0) | held
    return seen


def _none_of(size: int, total: int, count: int) -> float:
    """The chance that a hand of ``size`` of ``total`` hidden cards, dealt at random, holds none of ``count`` of
    them."""
    none = 1.0
    for i in range(min(count, total)):
        none *= max(0, total - size - i) / (total - i)
    return none


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
