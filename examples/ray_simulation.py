"""A simulation on Ray: the deals are shared out in seeded chunks, and the numbers are the local ones.

    pip install -e '.[ray]'
    python examples/ray_simulation.py [--rules zwanzigerrufen] [--deals 2000] [--address ray://host:10001]
"""

from __future__ import annotations

import argparse

from rulelang.cli.simulate import simulate


def main(argv: list[str] | None = None) -> dict:
    """Simulate on Ray (a local instance when no address is given); print the contracts and score changes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="zwanzigerrufen")
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--address", default=None, help="a Ray cluster; default: start a local one")
    parser.add_argument("--jobs", type=int, default=2, help="CPUs of the local Ray")
    args = parser.parse_args(argv)
    stats = simulate(args.rules, args.deals, 0, args.seed, agents="random", jobs=args.jobs, backend="ray",
                     address=args.address).to_json()
    print(f"{args.rules}: {stats['deals']} deals on Ray; contracts {stats['contracts']}")
    print("mean score change per deal:", stats["score_change"])
    return stats


if __name__ == "__main__":
    main()
