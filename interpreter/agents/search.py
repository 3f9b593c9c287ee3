"""A determinized search agent: every move judged by rollouts in worlds the seat cannot tell apart."""

from __future__ import annotations

import random
import time

from rulelang.interpreter.agents.heuristic import HeuristicAgent, beyond_noise, rollout_gain
from rulelang.interpreter.agents.inference import public_voids, said_evidence


class SearchAgent:
    """Determinized search anchored on the heuristic player: every legal move judged by rollouts in worlds
    drawn from what the seat knows, the heuristic's own move kept unless another beats it.

    Like the heuristic player's decisions, but for every move, card play included, and
    with a budget: ``playouts`` rollouts per move, or as many as ``ms`` milliseconds allow
    (the worlds are shared by the moves, so each move gets the same deals). Few rollouts
    are noisy, and their quick card play is weaker than the heuristic's: the search leaves
    the heuristic's move only for one that beats it on the same worlds by more than one
    standard error of the paired differences. ``listen`` as for the heuristic player.
    """

    name = "search"

    def __init__(self, seed: int | None = None, ms: int = 200, playouts: int | None = None, listen: int = 0):
        self.rng = random.Random(seed)
        self.guide = HeuristicAgent(None if seed is None else seed ^ 0x9E3779B9, listen=listen)
        self.ms, self.playouts, self.listen = ms, playouts, bool(listen)

    def step(self, state) -> int:
        """The heuristic's move, or a move the rollouts show better beyond their noise."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return beyond_noise(self.rollouts(state, legal), legal, self.guide.step(state))

    def rollouts(self, state, legal: list[int]) -> dict[int, list[float]]:
        """Per legal move, its gains for the seat to act over the budget's worlds (the same worlds for all)."""
        seat = state.current_player()
        voids = public_voids(state, seat)
        said = said_evidence(state, seat) if self.listen else ()
        before = state.returns()[seat]
        deadline = None if self.playouts else time.perf_counter() + self.ms / 1000
        gains: dict[int, list[float]] = {action: [] for action in legal}
        rounds = 0
        while rounds < (self.playouts or 10 ** 9) // len(legal) or rounds < 1:
            seed = self.rng.getrandbits(32)
            for action in legal:
                gains[action].append(rollout_gain(state, seat, action, seed, voids, before, said))
            rounds += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        return gains
