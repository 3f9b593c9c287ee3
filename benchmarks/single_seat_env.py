"""How fast Gymnasium's ``SingleSeatEnv`` steps with our agents at the other seats (issue 42 asks for 200 a second).

    python benchmarks/single_seat_env.py [GAME …] [--episodes N] [--others heuristic] [--seat0 random|heuristic]

Seat 0 is played by a uniformly random legal action (from ``info["action_mask"]``; ``--seat0 heuristic``: by
our heuristic player, whose own thinking is not timed — a learner past its first steps), the other seats by
``--others``; each episode is one deal, reset with seed i. Prints per game the steps, the CPU seconds spent in
``reset`` and ``step`` (``time.process_time``: a busy machine changes them little), the steps a CPU second and
the decisions the other seats judged by rollouts an episode, the first episodes' learning (what a trick is
worth, the choice models, unless the cache folder holds them) included. Needs the extra
``rulelang[pettingzoo]`` (gymnasium, pettingzoo).
"""

from __future__ import annotations

import argparse
import random
import time


def steps_per_second(game: str, episodes: int, others: str, seat0: str = "random") -> tuple[int, float, int]:
    """The steps taken, the CPU seconds spent in the environment and the other seats' decisions judged by
    rollouts over ``episodes`` episodes of ``game``, seat 0 played by ``seat0``."""
    from rulelang.adapters.pettingzoo import SingleSeatEnv
    from rulelang.interpreter.agents import heuristic, make_agent
    env = SingleSeatEnv(game, seat=0, others=others)
    rng, steps, spent, judged = random.Random(0), 0, 0.0, [0]
    player = make_agent("heuristic", 0) if seat0 == "heuristic" else None
    judge = heuristic.judge

    def counted(*args, **options):
        judged[0] += 1
        return judge(*args, **options)
    heuristic.judge = counted
    try:
        for episode in range(episodes):
            start = time.process_time()
            _, info = env.reset(seed=episode)
            spent += time.process_time() - start
            done = False
            while not done:
                if player is None:
                    action = rng.choice([i for i, allowed in enumerate(info["action_mask"]) if allowed])
                else:
                    heuristic.judge = judge                  # seat 0's own decisions are neither timed nor counted
                    action = player.step(env.table.state)
                    heuristic.judge = counted
                start = time.process_time()
                _, _, done, _, info = env.step(action)
                spent += time.process_time() - start
                steps += 1
    finally:
        heuristic.judge = judge
    return steps, spent, judged[0]


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=["zwanzigerrufen", "zwanzig-ab", "hearts", "skat"])
    parser.add_argument("--episodes", type=int, default=10)
    parser.add_argument("--others", default="heuristic")
    parser.add_argument("--seat0", choices=("random", "heuristic"), default="random")
    args = parser.parse_args(argv)
    print(f"SingleSeatEnv, seat 0 {args.seat0}, {args.others} at the other seats, {args.episodes} episodes "
          "(CPU time)\n")
    print("| game | steps | CPU s | steps a second | judged decisions an episode |\n|---|---|---|---|---|")
    for game in args.games:
        steps, seconds, judged = steps_per_second(game, args.episodes, args.others, args.seat0)
        print(f"| {game} | {steps} | {seconds:.1f} | {steps / seconds:.1f} | {judged / args.episodes:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
