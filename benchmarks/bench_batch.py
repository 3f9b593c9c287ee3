"""The batch engine's speed per game: µs per random deal in blocks, and per decision.

    python benchmarks/bench_batch.py [GAME ...] [--block N] [--rounds R] [--json]

Every shipped game by default. Each game plays ``--rounds`` blocks of ``--block`` deals
(``BatchRun(game, block, seed).play()``, seeds 1 … R) after one warm-up block; the best
round is kept, as the rest of the benchmarks keep it.
"""

from __future__ import annotations

import argparse
import json
import time

from rulelang.batch.engine import BatchRun
from rulelang.interpreter import Game
from rulelang.loader import load_definition, shipped_games


def per_game(ref: str, block: int, rounds: int) -> dict:
    """µs per deal (best round), decisions per deal and µs per decision of random ``ref`` deals."""
    game = Game(load_definition(ref), max_deals=1)
    decisions = BatchRun(game, block, 0).play().decisions / block
    best = float("inf")
    for seed in range(1, rounds + 1):
        started = time.perf_counter()
        BatchRun(game, block, seed).play()
        best = min(best, time.perf_counter() - started)
    micro = best / block * 1e6
    return {"us_per_deal": micro, "decisions_per_deal": decisions, "us_per_decision": micro / decisions}


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME")
    parser.add_argument("--block", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    refs = args.games or sorted(str(path) for path in shipped_games())
    figures = {ref.rsplit("/", 1)[-1]: per_game(ref, args.block, args.rounds) for ref in refs}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for name, row in figures.items():
        print(f"{name:42} {row['us_per_deal']:8.2f} µs a deal  {row['decisions_per_deal']:6.1f} decisions  "
              f"{row['us_per_decision']:6.3f} µs a decision")


if __name__ == "__main__":
    main()
