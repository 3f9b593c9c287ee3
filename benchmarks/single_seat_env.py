"""How fast Gymnasium's ``SingleSeatEnv`` steps with our agents at the other seats (issue 42 asks for 200 a second).

    python benchmarks/single_seat_env.py [GAME …] [--episodes N] [--others heuristic]

Seat 0 is played by a uniformly random legal action (from ``info["action_mask"]``), the other seats by
``--others``; each episode is one deal, reset with seed i. Prints per game the steps, the CPU seconds
(``time.process_time``: a busy machine changes them little) and the steps a CPU second, the first episodes'
learning (what a trick is worth, the choice models, unless the cache folder holds them) included. Needs the
extra ``rulelang[pettingzoo]`` (gymnasium, pettingzoo).
"""

from __future__ import annotations

import argparse
import random
import time


def steps_per_second(game: str, episodes: int, others: str) -> tuple[int, float]:
    """The steps taken and the CPU seconds spent over ``episodes`` episodes of ``game``."""
    from rulelang.adapters.pettingzoo import SingleSeatEnv
    env = SingleSeatEnv(game, seat=0, others=others)
    rng, steps = random.Random(0), 0
    start = time.process_time()
    for episode in range(episodes):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            legal = [i for i, allowed in enumerate(info["action_mask"]) if allowed]
            _, _, done, _, info = env.step(rng.choice(legal))
            steps += 1
    return steps, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=["zwanzigerrufen", "zwanzig-ab", "hearts", "skat"])
    parser.add_argument("--episodes", type=int, default=10)
    parser.add_argument("--others", default="heuristic")
    args = parser.parse_args(argv)
    print(f"SingleSeatEnv, {args.others} at the other seats, {args.episodes} episodes (CPU time)\n")
    print("| game | steps | CPU s | steps a second |\n|---|---|---|---|")
    for game in args.games:
        steps, seconds = steps_per_second(game, args.episodes, args.others)
        print(f"| {game} | {steps} | {seconds:.1f} | {steps / seconds:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
