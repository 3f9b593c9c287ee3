"""Where the heuristic's time goes in a deal: CPU time per move, by the kind of phase it is made in.

    python benchmarks/decision_time.py [GAME] [--deals N] [--agent heuristic]

The agent plays every seat of ``--deals`` single deals (deal i from seed i, chance from ``random.Random(i)``);
each ``step`` is timed in CPU time (``time.process_time``, so a busy machine changes little) and counted by
its phase's kind — a move with one legal option apart, as ``(forced)``. Prints per kind the moves a deal, the
ms a deal and the ms a move, then the deal's total: the auction, not the card play, is what a designer waits
for (benchmarks/RESULTS.md).
"""

from __future__ import annotations

import argparse
import collections
import random
import time


def split(game_name: str, deals: int, spec: str) -> tuple[dict, dict]:
    """CPU seconds and moves by phase kind over ``deals`` deals of ``game_name``, ``spec`` at every seat."""
    from rulelang.interpreter.agents import make_agent
    from rulelang.interpreter.state import CHANCE
    from rulelang.loader import load_game
    game = load_game(game_name, max_deals=1)
    agents = [make_agent(spec, seed=s) for s in range(game.num_players)]
    seconds, moves = collections.Counter(), collections.Counter()
    for deal in range(deals):
        state, rng = game.new_initial_state(), random.Random(deal)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_chance(rng)
                continue
            kind = (state.step.kind if state.step is not None else "-") + \
                ("" if len(state.legal_actions()) > 1 else " (forced)")
            start = time.process_time()
            action = agents[state.current_player()].step(state)
            seconds[kind] += time.process_time() - start
            moves[kind] += 1
            state.apply_action(action)
    return seconds, moves


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="?", default="zwanzigerrufen")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--agent", default="heuristic")
    args = parser.parse_args(argv)
    seconds, moves = split(args.game, args.deals, args.agent)
    n = args.deals
    print(f"{args.game}, {n} deals, {args.agent} at every seat (CPU time)\n")
    print("| phase | moves a deal | ms a deal | ms a move |\n|---|---|---|---|")
    for kind in sorted(seconds, key=lambda k: -seconds[k]):
        print(f"| {kind} | {moves[kind] / n:.1f} | {1000 * seconds[kind] / n:.1f} | "
              f"{1000 * seconds[kind] / moves[kind]:.2f} |")
    print(f"| all | {sum(moves.values()) / n:.1f} | {1000 * sum(seconds.values()) / n:.1f} | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
