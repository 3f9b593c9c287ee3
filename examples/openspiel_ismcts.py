"""Evaluate OpenSpiel's ISMCTS bot on a rule file, through the OpenSpiel adapter, against random bots.

    pip install -e '.[openspiel]'
    python examples/openspiel_ismcts.py [--rules zwanzig-ab] [--episodes 10] [--sims 50]
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import rulelang.adapters.openspiel  # noqa: F401 - registers the game "rulelang"


def main(argv: list[str] | None = None) -> list[float]:
    """Seat ISMCTS at seat 0 and uniform random bots elsewhere; print and return seat 0's returns."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="zwanzig-ab")
    parser.add_argument("--episodes", type=int, default=10)
    parser.add_argument("--sims", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = pyspiel.load_game("rulelang", {"rules": args.rules})
    rng = np.random.RandomState(args.seed)
    searcher = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                                max_simulations=args.sims, random_state=rng)
    results = []
    for _ in range(args.episodes):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probabilities)))
            elif state.current_player() == 0:
                state.apply_action(searcher.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        results.append(state.returns()[0])
    print(f"ISMCTS ({args.sims} simulations) at seat 0 of {args.rules}: mean return {np.mean(results):+.3f} "
          f"over {args.episodes} deals")
    return results


if __name__ == "__main__":
    main()
