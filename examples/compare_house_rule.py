"""Compare a house rule with its base game by simulation: the same seeded deals under both.

    python examples/compare_house_rule.py [--deals 2000] [--agents heuristic]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rulelang.cli.simulate import simulate

HOUSE_RULE = Path(__file__).with_name("house-rule.yaml")


def main(argv: list[str] | None = None) -> tuple[dict, dict]:
    """Simulate the base game and the house rule; print the figures that differ."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--agents", default="random")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    base = simulate("zwanzig-ab", args.deals, 0, args.seed, agents=args.agents).to_json()
    house = simulate(str(HOUSE_RULE), args.deals, 0, args.seed, agents=args.agents).to_json()
    for name, stats in (("zwanzig-ab", base), ("house rule", house)):
        change = "  ".join(f"{seat} {value:+.3f}" for seat, value in stats["score_change"].items())
        passes = stats["decisions"].get("decide pass", {})
        print(f"{name:12} mean score change per deal: {change}; P2 passes {passes.get('P2', 0):.1%}")
    return base, house


if __name__ == "__main__":
    main()
