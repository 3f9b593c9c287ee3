"""Soak: every agent plays many seeded deals of every shipped game, every move checked; resampling checked.

    python benchmarks/soak_agents.py [--deals N] [--first F] [--agents A,B,…] [--games G,…] [--resample K] [--jobs J]

Each agent plays ``--deals`` single deals of each game in every seat (all seats the same agent),
deal *i* from seed *i* for *i* from ``--first`` (0; a later run continues where one stopped), every move through ``State.apply_checked`` (an illegal move stops the run
with the game, the seed and the diagnostic). With ``--resample K`` every K-th decision of the
deals is also probed: for every seat, ``resample_from_infostate`` must give a state with the same
``information_state_string`` whose history replays legally move by move, and it must not fail.
Prints, per game and agent, the deals, moves, ms per move and resampling probes; exits 1 on any
failure. The default test suite plays a few deals of each game per agent; this is the long run.
"""

from __future__ import annotations

import argparse
from pathlib import Path
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def play_deals(game_name: str, spec: str, first: int, stop: int, resample: int) -> dict:
    """Deals ``first`` … ``stop - 1`` of ``game_name`` by ``spec`` in every seat: counts, time, failures."""
    from rulelang.interpreter.agents import SeededChance, make_agent
    from rulelang.interpreter.game import IllegalActionError
    from rulelang.interpreter.state import CHANCE
    from rulelang.loader import load_game
    game = load_game(game_name, max_deals=1)
    counts = {"deals": 0, "moves": 0, "seconds": 0.0, "probes": 0, "failures": []}
    for deal in range(first, stop):
        state, chance = game.new_initial_state(), SeededChance(deal)
        agents = [make_agent(spec, deal * 1009 + s + 1) for s in range(game.num_players)]
        decisions = 0
        while not state.is_terminal():
            actor = state.current_player()
            if actor == CHANCE:
                chance.play(state)
                continue
            decisions += 1
            if resample and decisions % resample == 0:
                counts["probes"] += 1
                counts["failures"] += probe_resampling(state, deal)
            started = time.perf_counter()
            action = agents[actor].step(state)
            counts["seconds"] += time.perf_counter() - started
            counts["moves"] += 1
            try:
                state.apply_checked(action)
            except IllegalActionError as error:
                counts["failures"].append(f"seed {deal}: illegal move {action}: {error}")
                break
        counts["deals"] += 1
    return counts


def probe_resampling(state, deal: int) -> list[str]:
    """Failures of ``resample_from_infostate`` for any seat of ``state``."""
    from rulelang.interpreter.game import IllegalActionError
    failures = []
    for seat in range(state.game.num_players):
        other = state.resample_from_infostate(seat, random.Random(deal * 31 + seat + len(state.history)))
        if other is None:
            failures.append(f"seed {deal}: no resampled state for seat {seat} at move {len(state.history)}")
        elif other.information_state_string(seat) != state.information_state_string(seat):
            failures.append(f"seed {deal}: seat {seat} can tell the resampled state at move {len(state.history)}")
        else:
            replay = state.game.new_initial_state()
            try:
                for action in other.history:
                    replay.apply_checked(action)
            except IllegalActionError as error:
                failures.append(f"seed {deal}: seat {seat}'s resampled history does not replay: {error}")
    return failures


def main(argv: list[str] | None = None) -> int:
    """Run the soak; print one line per game and agent; 1 if anything failed."""
    from rulelang.loader import shipped_games
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="the seed of the first deal")
    parser.add_argument("--agents", default="random,heuristic:rollouts=4,search:playouts=4")
    parser.add_argument("--games", default=None,
                        help="comma-separated names or rule files; default every shipped rule file (zwanzig-ab.rules "
                             "and zwanzig-ab.yaml both)")
    parser.add_argument("--resample", type=int, default=0, metavar="K", help="probe every K-th decision")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    games = args.games.split(",") if args.games else [str(p) for p in sorted(shipped_games())]
    chunk = max(1, args.deals // (4 * args.jobs))
    failed = False
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for game_name in games:
            for spec in args.agents.split(","):
                stop = args.first + args.deals
                parts = [pool.submit(play_deals, game_name, spec, first, min(first + chunk, stop), args.resample)
                         for first in range(args.first, stop, chunk)]
                total = {"deals": 0, "moves": 0, "seconds": 0.0, "probes": 0, "failures": []}
                for part in parts:
                    for key, value in part.result().items():
                        total[key] += value
                failed |= bool(total["failures"])
                ms = 1000 * total["seconds"] / max(total["moves"], 1)
                print(f"{Path(game_name).name:36} {spec:24} {total['deals']:6} deals {total['moves']:8} moves {ms:7.2f} ms/move"
                      f" {total['probes']:6} probes {len(total['failures'])} failures", flush=True)
                for failure in total["failures"][:5]:
                    print(f"    {failure}", flush=True)
    print(f"{'FAILED' if failed else 'all passed'} in {time.perf_counter() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
