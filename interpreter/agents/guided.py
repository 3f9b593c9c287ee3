"""Rollouts that play cards the way the heuristic player does, for the search agent.

A search that judges moves by rollouts improves on the policy its rollouts follow, so
rollouts that play cards greedily by the deck's order (:func:`~.heuristic.rollout`, quick
enough for the heuristic's own decisions) make the search find "better" moves for a weaker
player than the one it is anchored on. :func:`guided_rollout` plays the rest of the deal
with the heuristic player's card play instead — the worth of the trick for the seat to
act, each card's strength under the trick rules in force, masters led when tricks are
wanted, points given to a partner who holds the trick, the strongest card that ducks
when a trick is not wanted — made cheap enough for hundreds of rollouts per move: which
card beats which is worked out once per set of trick rules as one bitmask per card, and
a side is read from the world itself (in a rollout's world every card is known).
Everything else is decided as in the quick rollouts.
"""

from __future__ import annotations

import random

from rulelang.compile.deck import iter_bits
from rulelang.interpreter.agents.heuristic import (_partner_holds_trick, _quick_move, dangers, rollout, suit_masters,
                                                  unseen_mask)
from rulelang.interpreter.agents.worth import beats_masks, next_trick_worth, sign
from rulelang.constructs.tricks import Tricks


def guided_rollout(world, deal_number: int, rng: random.Random) -> list[float]:
    """Moves until the deal ``deal_number`` is over (or the match), cards played by :func:`guided_card`;
    the returns then."""
    return rollout(world, deal_number, rng, guided_move)


def guided_move(world, legal: list[int], worth, rng: random.Random) -> int:
    """A card by :func:`guided_card` in trick play (where no call is open); else the quick rollouts' move."""
    if world.step is not None and world.step.kind == "tricks" and legal[-1] < world.game.num_cards:
        return guided_card(world, legal, worth)
    return _quick_move(world, legal, worth, rng)


def guided_card(world, legal: list[int], worth) -> int:
    """The card the heuristic player's rules choose for the seat to act in a rollout's ``world``."""
    seat = world.current_player()
    fitted_trick, fitted_point = worth.of(world, seat)
    per_trick = next_trick_worth(world, seat, fitted_trick)
    per_point = sign(fitted_point)
    beats = beats_masks(world)
    cards = world.game.deck.cards
    weakest = min(legal, key=lambda c: (beats[c].bit_count(), cards[c].points * per_point, c))
    trick = world.tricks.trick
    if not trick:
        return _lead(world, legal, beats, weakest, per_trick, fitted_point) if per_trick > 0 else weakest
    on_table = sum(cards[c].points for _, c in trick)
    taking = Tricks.heading(world, sum(1 << c for c in legal), strict=False)
    if _partner_holds_trick(world):
        keep = [c for c in legal if not taking >> c & 1] or legal
        if per_point <= 0:
            return max(keep, key=lambda c: (cards[c].points * per_point, -beats[c].bit_count(), -c))
        own = suit_masters(world, keep, unseen_mask(world, seat), beats)
        return max(keep, key=lambda c: (cards[c].points / (2 if c in own else 1), -beats[c].bit_count(), -c))
    wanted = per_trick + fitted_point * on_table > 0
    worth_taking = [c for c in iter_bits(taking) if per_trick + fitted_point * (on_table + cards[c].points) > 0]
    if wanted and worth_taking:                           # the card's own points count in the trick it takes
        if per_point < 0 and len(trick) == len(world.tricks.order) - 1:
            return max(worth_taking, key=lambda c: (beats[c].bit_count(), c))   # last: shed the strongest
        if per_point >= 0 and len(trick) < len(world.tricks.order) - 1:
            return min(worth_taking, key=lambda c: (cards[c].points, beats[c].bit_count(), c))   # may be beaten yet
        return min(worth_taking, key=lambda c: (beats[c].bit_count(), c))
    ducking = [c for c in legal if not taking >> c & 1]
    if not ducking:                                       # every card takes: the one whose points cost least
        return max(legal, key=lambda c: (cards[c].points * per_point, beats[c].bit_count(), c))
    if per_point < 0:                                     # points cost: onto another's trick with them
        danger = dangers(world, ducking, unseen_mask(world, seat), beats)
        return max(ducking, key=lambda c: (cards[c].points + danger[c], cards[c].points, beats[c].bit_count(), c))
    if wanted:                                            # another's trick: the fewest points, the weakest card
        return min(ducking, key=lambda c: (cards[c].points, beats[c].bit_count(), c))
    return max(ducking, key=lambda c: (-cards[c].points * per_point, beats[c].bit_count(), c))


def _lead(world, legal: list[int], beats: list[int], weakest: int, per_trick: float, per_point: float) -> int:
    """The strongest card that no card the mover has not seen beats, else ``weakest``; where points cost,
    only a master whose suit holds too few unseen points to turn the trick against the leader."""
    unseen = unseen_mask(world, world.current)
    masters = [c for c in legal if unseen & ~beats[c] == 0]
    if per_point < 0:
        suits, cards = world.game.card_suits, world.game.deck.cards
        masters = [c for c in masters if per_trick + per_point * sum(
            cards[o].points for o in iter_bits(unseen) if suits[o] == suits[c]) > 0]
    return max(masters, key=lambda c: (beats[c].bit_count(), c)) if masters else weakest
