"""The perfect-information solver generated from the rules: nodes a second and time to solve endings.

    python benchmarks/solver.py [--games bridge,skat,zwanzigerrufen] [--cards 8,12,16,20] [--positions 20]
        [--max-nodes 2000000] [--python]

For each game and each number of cards left in the hands, ``--positions`` seeded endings (a deal bid mostly
with passes, then cards played at random) are solved: every legal card scored (``solver.card_tricks``). Prints
how many were searched on the trick rules' tables (:mod:`rulelang.interpreter.trick_kernel`; the others through
the State API), the mean and longest ms, the mean nodes, the nodes a second, and the endings given up at
``--max-nodes``. The search is the compiled one where the extra ``rulelang[fast]`` (numba) is installed
(:mod:`rulelang.interpreter.fast_search`), unless ``--python``. For Bridge with the extra ``rulelang[bridge]`` it also times DDS on the same positions, gives
the ratio of the total times, and counts the cards whose value differs (there must be none).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """Solve the endings and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="bridge,skat,zwanzigerrufen")
    parser.add_argument("--cards", default="8,12,16,20")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--max-nodes", type=int, default=2_000_000)
    parser.add_argument("--python", action="store_true", help="search in Python even where numba is installed")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[1]
    sys.path[:0] = [str(root), str(root / "tests")]
    from test_solver import trick_play_position
    from rulelang.interpreter import fast_search, solver, trick_kernel
    if args.python:
        fast_search.turn_off()
    print(f"search: {'compiled (numba)' if fast_search.available() else 'Python'}\n")
    from rulelang.loader import load_game
    try:
        from rulelang.adapters import double_dummy
    except ImportError:
        double_dummy = None
    print("| game | cards left | positions | on tables | mean ms | longest ms | mean nodes | nodes/s | given up | "
          "DDS ms | × DDS | differences |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in args.games.split(","):
        game = load_game(name, max_deals=1)
        warm = next(filter(None, (trick_play_position(game, seed, 8) for seed in range(50))), None)
        if warm is not None:
            solver.solve(warm, args.max_nodes)            # numba's cache read, the kernel built: not timed
        for cards in (int(c) for c in args.cards.split(",")):
            times, nodes, dds_times, differences, given_up, seed, tabled = [], [], [], 0, 0, 0, 0
            while len(times) + given_up < args.positions and seed < 50 * args.positions:
                state, seed = trick_play_position(game, seed, cards), seed + 1
                if state is None:
                    continue
                tabled += trick_kernel.trick_kernel(state) is not None
                start = time.perf_counter()
                values, visited = solver.solve(state, args.max_nodes)
                if values is None:
                    given_up += 1
                    continue
                times.append(1000 * (time.perf_counter() - start))
                nodes.append(visited)
                if double_dummy is not None and double_dummy.unfit(game) is None:
                    start = time.perf_counter()
                    theirs = double_dummy.card_tricks(state)
                    dds_times.append(1000 * (time.perf_counter() - start))
                    differences += sum(values[c] != theirs[c] for c in values)
            if not times:
                continue
            rate = sum(nodes) / (sum(times) / 1000) if sum(times) else 0
            dds = f"{sum(dds_times) / len(dds_times):.2f}" if dds_times else "–"
            ratio = f"{sum(times) / sum(dds_times):.1f}" if dds_times else "–"
            print(f"| {name} | {cards} | {len(times)} | {tabled} | {sum(times) / len(times):.1f} | {max(times):.1f} | "
                  f"{sum(nodes) / len(nodes):.0f} | {rate:,.0f} | {given_up} | {dds} | {ratio} | "
                  f"{differences if dds_times else '–'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
