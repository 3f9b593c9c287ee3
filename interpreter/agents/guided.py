"""Rollouts that play cards the way the heuristic player does (kept in :mod:`.rollouts`; this module names them).

A search that judges moves by rollouts improves on the policy its rollouts follow, so
rollouts that play cards greedily by the deck's order (:func:`~.rollouts.rollout`, the heuristic's
rollouts until 2026-12-06, ``heuristic:guided=0`` since) make the search find "better" moves for a weaker
player than the one it is anchored on. :func:`guided_rollout` plays the rest of the deal
with the heuristic player's card play instead — the worth of the trick for the seat to
act, each card's strength under the trick rules in force, masters led when tricks or card points are
wanted, points given to a partner who holds the trick, the strongest card that ducks
when a trick is not wanted — made cheap enough for hundreds of rollouts per move: which
card beats which is worked out once per set of trick rules as one bitmask per card, and
a side is read from the world itself (in a rollout's world every card is known).
Everything else is decided as in the quick rollouts.
"""

from __future__ import annotations

from rulelang.interpreter.agents.rollouts import guided_card, guided_move, guided_rollout

__all__ = ["guided_card", "guided_move", "guided_rollout"]
