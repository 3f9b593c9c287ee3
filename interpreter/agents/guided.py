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

from rulelang.interpreter.agents.cardplay import choose_card
from rulelang.interpreter.agents.heuristic import _partner_holds_trick, _quick_move, rollout
from rulelang.interpreter.agents.worth import next_trick_worth


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
    """The card the heuristic player's rules (:func:`~.cardplay.choose_card`) choose for the seat to act in a
    rollout's ``world``, its side read from the world."""
    seat = world.current_player()
    fitted_trick, fitted_point = worth.of(world, seat)
    partner_holds = bool(world.tricks.trick) and _partner_holds_trick(world)
    return choose_card(world, seat, legal, next_trick_worth(world, seat, fitted_trick), fitted_point, partner_holds)
