"""A determinized search agent: every move judged by rollouts in worlds the seat cannot tell apart."""

from __future__ import annotations

import random
import time

from rulelang.constructs import construct
from rulelang.interpreter.agents.guided import guided_rollout
from rulelang.interpreter.agents.heuristic import (ROLLOUT_BUDGET, HeuristicAgent, beyond_noise, rollout,
                                                   rollout_gain, side_of)
from rulelang.interpreter.agents.passes import pass_evidence
from rulelang.interpreter.agents.rollouts import _quick_move
from rulelang.interpreter.agents.solved import SOLVED_NODES, SolvedPlay, against_one_side, nodes_a_ms, objective
from rulelang.interpreter.inference import public_voids, said_evidence


class SearchAgent:
    """Determinized search anchored on the heuristic player: every legal move judged by rollouts in worlds
    drawn from what the seat knows, the heuristic's own move kept unless another beats it.

    Like the heuristic player's decisions, but for every move, card play included, and
    with a budget: ``playouts`` rollouts per move, or as many as ``ms`` milliseconds allow
    (the worlds are shared by the moves, so each move gets the same deals). The rollouts
    play cards as the heuristic player does (:func:`~.guided.guided_rollout`; ``guided=0``:
    the heuristic's quicker greedy rollouts), so the search improves on the player it is
    anchored on. Few rollouts are noisy: the search leaves the heuristic's move only for one
    that beats it on the same worlds by more than ``caution`` standard errors of the paired
    differences, times the evidence a bolder bid needs. ``listen`` as for the heuristic player;
    ``rollouts`` is the anchor's own budget per decision (the heuristic player's default).

    In trick play where the tricks or card points a side takes decide, the other seats play as one side
    (:func:`~.solved.against_one_side`: not where every seat plays for itself) and once the deal is small
    enough, each world is solved exactly instead of rolled out (:mod:`.solved`: the card worth most over the worlds;
    ``solve=0`` turns this off). A budget of ``playouts`` then solves ``playouts`` / cards worlds (two at
    least), each within :data:`~.solved.SOLVED_NODES` positions; a budget of ``ms`` lets a world take about a
    quarter of it, so a larger budget solves from earlier in the deal. ``nodes`` sets the positions a world may
    take whatever the budget (a reproducible way to solve from earlier: it counts positions, not time).
    """

    name = "search"

    def __init__(self, seed: int | None = None, ms: int = 200, playouts: int | None = None, listen: int = 0,
                 guided: int = 1, caution: int = 1, rollouts: int = ROLLOUT_BUDGET, solve: int = 1,
                 nodes: int | None = None):
        self.rng = random.Random(seed)
        self.solved = SolvedPlay(random.Random(None if seed is None else seed ^ 0x2545F491)) if solve else None
        self.guide = HeuristicAgent(None if seed is None else seed ^ 0x9E3779B9, rollouts=rollouts, listen=listen)
        self.ms, self.playouts, self.listen = ms, playouts, bool(listen)
        self.play = guided_rollout if guided else rollout
        self.caution = caution
        self.nodes = nodes

    def step(self, state) -> int:
        """The heuristic's move, or a move the rollouts show better beyond their noise. With a time budget the
        heuristic's own move is found within the first half of it, and the whole move, rollouts included,
        takes the budget and at most one rollout more."""
        start = None if self.playouts else time.perf_counter()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        deadline = None if start is None else start + self.ms / 1000
        anchor = self.guide.step(state, None if start is None else start + self.ms / 2000)
        solved = self.solved_card(state, legal, anchor, deadline)
        if solved is not None:
            return solved
        return beyond_noise(self.rollouts(state, legal, deadline), legal, anchor, self.caution,
                            evidence_weights(state, legal))

    def solved_card(self, state, legal: list[int], anchor: int, deadline: float | None) -> int | None:
        """The card the worlds' exact solutions choose (:mod:`.solved`), or None where they do not apply."""
        step = state.step
        if self.solved is None or step is None or step.kind != "tricks" or any(
                action >= state.game.num_cards for action in legal):
            return None
        seat = state.current_player()
        if not against_one_side(state, seat):
            return None
        wanted, points = objective(state, seat, side_of(state, seat))
        if not wanted:
            return None
        worlds = max(2, self.playouts // len(legal)) if self.playouts else 10 ** 9
        self.solved.max_nodes = self.nodes or (SOLVED_NODES if self.playouts else
                                               max(SOLVED_NODES, nodes_a_ms() * self.ms // 4))
        return self.solved.choose(state, seat, legal, anchor, wanted, worlds, deadline, public_voids(state, seat),
                                  said_evidence(state, seat) if self.listen else (), points)

    def rollouts(self, state, legal: list[int], deadline: float | None = None) -> dict[int, list[float]]:
        """Per legal move, its gains for the seat to act over the budget's worlds (the same worlds for all): the
        ``playouts`` budget's rounds, or whole rounds until ``deadline`` (a ``time.perf_counter()`` reading; a
        round cut short by it is left out, so every move keeps the same worlds)."""
        seat = state.current_player()
        voids = public_voids(state, seat)
        said = (said_evidence(state, seat) if self.listen else []) + pass_evidence(state, seat, _quick_move)
        before = state.returns()[seat]
        gains: dict[int, list[float]] = {action: [] for action in legal}
        rounds = (self.playouts // len(legal) or 1) if self.playouts else 10 ** 9
        for _ in range(rounds):
            seed, row = self.rng.getrandbits(32), []
            for action in legal:
                row.append(rollout_gain(state, seat, action, seed, voids, before, said, self.play))
                if deadline is not None and time.perf_counter() > deadline:
                    return gains
            for action, gain in zip(legal, row):
                gains[action].append(gain)
        return gains


def evidence_weights(state, legal: list[int]) -> dict[int, float] | None:
    """Outside trick play, how much evidence each move needs, as the step's construct says
    (:meth:`~rulelang.constructs.base.Construct.evidence`: a bolder bid more); None in trick play."""
    step = state.step
    found = construct(step.kind) if step is not None and step.kind != "tricks" else None
    return {action: found.evidence(state, step, action) for action in legal} if found is not None else None
