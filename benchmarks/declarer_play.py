"""Whose card play wins a declarer's games: the same deals, the auction by one agent, the tricks by others.

    python benchmarks/declarer_play.py --game skat-tournament --deals 150 --declarer search:playouts=100
        [--defenders heuristic] [--only lead|follow] [--jobs 2]

Deal i is dealt from seed i and bid by ``--auction`` (default ``heuristic``) at every seat; once the tricks
begin, the declarer's cards are played by ``--declarer`` (with ``--only lead`` or ``follow`` only his leads
or only his follows; the rest by the auction's agent) and the other seats' by ``--defenders``. Prints how
many games were played and the share the declarer won, overall and per kind of game (the deal's ``kind``
variable, where the rule file has one), so that two card players can be compared on the very contracts the
bidding produced.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool

from rulelang.interpreter.agents import make_agent
from rulelang.loader import load_game


def play(task: tuple) -> tuple[str, bool] | None:
    """One deal: (the kind of game, whether the declarer came out ahead), or None when nobody declared."""
    ref, seed, auction, declarer_spec, defender_spec, only = task
    game = load_game(ref, max_deals=1)
    bidders = [make_agent(auction, seed * 1009 + seat + 1) for seat in range(game.num_players)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    players = None
    while not state.is_terminal():
        actor = state.current_player()
        if actor < 0:
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        if players is None and state.step is not None and state.step.kind == "tricks":
            if state.declarer < 0:
                return None
            players = [make_agent(declarer_spec if seat == state.declarer else defender_spec, seed * 1009 + seat + 1)
                       for seat in range(game.num_players)]
        agent = bidders[actor] if players is None else players[actor]
        if players is not None and actor == state.declarer and only and (only == "lead") != (not state.tricks.trick):
            agent = bidders[actor]
        state.apply_action(agent.step(state))
    if state.declarer < 0:
        return None
    return str(state.vars.get("kind")), state.returns()[state.declarer] > 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="skat-tournament")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--auction", default="heuristic")
    parser.add_argument("--declarer", default="heuristic")
    parser.add_argument("--defenders", default="heuristic")
    parser.add_argument("--only", choices=("lead", "follow"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tasks = [(args.game, seed, args.auction, args.declarer, args.defenders, args.only) for seed in range(args.deals)]
    with Pool(args.jobs) as pool:
        rows = [row for row in pool.map(play, tasks) if row is not None]
    if not rows:
        print("no deal was declared")
        return 1
    kinds = sorted({kind for kind, _ in rows})
    per_kind = ", ".join(f"{kind} {sum(won for k, won in rows if k == kind)}/{sum(k == kind for k, _ in rows)}"
                         for kind in kinds)
    print(f"{args.game}: {len(rows)} games; declarer ({args.declarer}{', ' + args.only + 's only' if args.only else ''})"
          f" against {args.defenders} wins {100 * sum(won for _, won in rows) / len(rows):.1f} % ({per_kind}); "
          f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
