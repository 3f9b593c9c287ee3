"""How many expert positions (tests/positions/*.yaml) each agent solves.

    python benchmarks/positions.py [--agents heuristic,search:playouts=200]

Each position is the move every strong player makes (``good``) or moves none would make (``bad``), in card
names, with its reason (issue 42, item 3: the heuristic should solve 80 %, search 90 %). Prints one line per
position and agent and the share solved; agents are seeded (seed 0), so a budget in playouts is reproducible.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_expert_positions import answer, positions, set_up, solved  # noqa: E402  (the tests' reading of the files)
from rulelang.interpreter.agents import make_agent  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Run the command line; 0 when done."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", default="heuristic,search:playouts=200")
    args = parser.parse_args(argv)
    found = positions()
    for spec in args.agents.split(","):
        right = 0
        for game_name, position in found:
            state, move = answer(set_up(game_name, position), make_agent(spec, 0))
            ok = solved(state, position, move)
            right += ok
            print(f"{spec:24} {'solved' if ok else 'MISSED':6} {game_name:16} {position['name']} "
                  f"(played {state.action_to_string(move)})")
        print(f"{spec}: {right} of {len(found)} ({100 * right / len(found):.0f} %)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
