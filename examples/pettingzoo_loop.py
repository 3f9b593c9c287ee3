"""A PettingZoo loop over any rule file: every seat plays a random legal action from its mask.

    pip install -e '.[pettingzoo]'
    python examples/pettingzoo_loop.py [--rules zwanzigerrufen] [--episodes 5]
"""

from __future__ import annotations

import argparse

import numpy as np

from rulelang.adapters.pettingzoo import env


def main(argv: list[str] | None = None) -> dict:
    """Play ``--episodes`` episodes; print and return each agent's total reward."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="zwanzigerrufen")
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    table, rng = env(rules=args.rules), np.random.default_rng(args.seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for episode in range(args.episodes):
        table.reset(seed=args.seed + episode)
        for agent in table.agent_iter():
            observation, reward, termination, truncation, _ = table.last()
            totals[agent] += reward
            if termination or truncation:
                table.step(None)
            else:
                table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    print(f"{args.rules}, {args.episodes} episodes, total rewards:", totals)
    return totals


if __name__ == "__main__":
    main()
