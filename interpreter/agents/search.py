"""A determinized search agent: every move judged by rollouts in worlds the seat cannot tell apart."""

from __future__ import annotations

import random
import time

from rulelang.interpreter.agents.heuristic import rollout_gain
from rulelang.interpreter.agents.inference import public_voids


class SearchAgent:
    """Determinized search: every legal move judged by rollouts in worlds drawn from what the seat knows.

    Like the heuristic player's decisions, but for every move, card play included, and
    with a budget: ``playouts`` rollouts per move, or as many as ``ms`` milliseconds allow
    (the worlds are shared by the moves, so each move gets the same deals).
    """

    name = "search"

    def __init__(self, seed: int | None = None, ms: int = 200, playouts: int | None = None):
        self.rng = random.Random(seed)
        self.ms, self.playouts = ms, playouts

    def step(self, state) -> int:
        """The move with the best mean result over the budget's rollouts."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        voids = public_voids(state, seat)
        before = state.returns()[seat]
        deadline = None if self.playouts else time.perf_counter() + self.ms / 1000
        totals = {action: 0.0 for action in legal}
        rounds = 0
        while rounds < (self.playouts or 10 ** 9) // len(legal) or rounds < 1:
            seed = self.rng.getrandbits(32)
            for action in legal:
                totals[action] += rollout_gain(state, seat, action, seed, voids, before)
            rounds += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        return max(legal, key=lambda a: (totals[a], -legal.index(a)))
