"""Play a whole match in Python with agents at the seats, and print what happened.

    python examples/play_match.py [--game zwanzig-ab] [--agents heuristic] [--seed 1]
"""

from __future__ import annotations

import argparse

import rulelang


def main(argv: list[str] | None = None) -> dict:
    """Play one match and print each deal's score changes and the result; return the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="zwanzig-ab", help="a shipped game or a rule file")
    parser.add_argument("--agents", default="heuristic", help="random, heuristic, search, …")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=None, help="stop after this many deals")
    args = parser.parse_args(argv)
    game = rulelang.load_game(args.game, max_deals=args.deals)
    players = [rulelang.make_agent(args.agents, seed=args.seed * 100 + seat) for seat in range(game.num_players)]
    state, record = rulelang.play_match(game, agents=players, seed=args.seed)
    summary = record.summary(state)
    for deal in summary["deals"]:
        print(f"deal {deal['number']}: " + "  ".join(f"{seat} {delta:+}" for seat, delta in deal["delta"].items()))
    print("totals:", summary["totals"], "winner:", summary["winner"] or "none yet")
    return summary


if __name__ == "__main__":
    main()
