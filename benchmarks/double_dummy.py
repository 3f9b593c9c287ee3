"""Card play scored against double-dummy: every card of every deal judged by DDS (extra ``rulelang[bridge]``).

    python benchmarks/double_dummy.py [--game bridge] [--deals 40] [--seed 0]
        [--agents heuristic,search:ms=100,random] [--auction own|SPEC] [--jobs 2] [--json]

Deal *i* is dealt from seed ``--seed + i`` for every agent. Each agent plays all four seats. ``--auction own``
(default) lets each agent bid its own deals, so the contracts are its own; ``--auction SPEC`` has that agent bid
every deal, so every agent plays the cards of the same contracts. Before each card DDS scores every legal card
(the tricks still to come that the side to play takes after it, best play by all); the engine's legal cards must
be DDS's at every card, or the run stops.

Per agent: the deals played and passed out, contracts at the seven level and redoubled, the contract's fit (the
tricks the declaring side makes double-dummy at the opening lead minus the tricks it needs), the tricks each side
gave away a deal, the share of a side's cards with a choice that gave a trick away, and ms a card — each with a
95 % interval over the deals (normal for means; for shares, 2,000 bootstrap resamples of the deals, seeded). A
budget in time (``search:ms``) is not reproducible from run to run; one in playouts is.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

SIDES = ("declarer", "defence")


def play_deal(game_name: str, spec: str, auction: str, seed: int) -> dict:
    """Deal ``seed`` bid by ``auction`` (or ``spec`` itself for ``own``) and played by ``spec``: its scores."""
    from rulelang.adapters import double_dummy as dd
    from rulelang.interpreter.agents import SeededChance, make_agent
    from rulelang.loader import load_game
    game = load_game(game_name, max_deals=1)
    state, chance = game.new_initial_state(), SeededChance(seed)
    bidders = [make_agent(spec if auction == "own" else auction, seed * 1009 + s + 1) for s in range(4)]
    while not dd.in_trick_play(state, 0):
        if state.is_terminal():
            return {"passed_out": True}
        if state.current_player() < 0:
            chance.play(state)
        else:
            state.apply_action(bidders[state.current_player()].step(state))
    players = bidders if auction == "own" else [make_agent(spec, seed * 1009 + s + 1) for s in range(4)]
    timed = [_Timed(agent) for agent in players]
    score = dd.score_play(state, timed)
    if not score.played:
        return {"passed_out": True}
    return {"passed_out": False, "contract": score.contract, "level": score.level, "doubling": score.doubling,
            "fit": score.fit, "lost": score.lost, "choices": score.choices, "costly": score.costly,
            "cards": score.decisions, "seconds": sum(t.seconds for t in timed)}


class _Timed:
    """An agent whose thinking time is added up."""

    def __init__(self, agent) -> None:
        self.agent, self.seconds = agent, 0.0

    def step(self, state) -> int:
        start = time.perf_counter()
        action = self.agent.step(state)
        self.seconds += time.perf_counter() - start
        return action


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean and its normal 95 % interval."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = sum(values) / n
    if n == 1:
        return mean, math.nan, math.nan
    half = 1.96 * math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return mean, mean - half, mean + half


def share_interval(hits: list[int], totals: list[int], seed: int = 0) -> tuple[float, float, float]:
    """The share sum(hits)/sum(totals) and its bootstrap 95 % interval over the deals."""
    if not sum(totals):
        return math.nan, math.nan, math.nan
    rng, n, shares = random.Random(seed), len(hits), []
    for _ in range(2000):
        picks = [rng.randrange(n) for _ in range(n)]
        total = sum(totals[i] for i in picks)
        shares.append(sum(hits[i] for i in picks) / total if total else 0.0)
    shares.sort()
    return sum(hits) / sum(totals), shares[49], shares[1949]


def summarise(spec: str, rows: list[dict]) -> dict:
    """One agent's figures over its deals."""
    played = [r for r in rows if not r["passed_out"]]
    sides = list(played[0]["lost"]) if played else list(SIDES)
    out = {"agent": spec, "deals": len(rows), "passed_out": len(rows) - len(played), "sides": sides,
           "seven_level": sum(r["level"] == 7 for r in played), "redoubled": sum(r["doubling"] == 2 for r in played),
           "fit": mean_interval([r["fit"] for r in played if r["fit"] is not None])}
    for side in sides:
        out[f"{side}_lost"] = mean_interval([r["lost"][side] for r in played])
        out[f"{side}_costly"] = share_interval([r["costly"][side] for r in played],
                                               [r["choices"][side] for r in played])
    cards = sum(r["cards"] for r in played)
    out["ms_per_card"] = 1000 * sum(r["seconds"] for r in played) / cards if cards else math.nan
    return out


def table(results: list[dict]) -> str:
    """The figures as a Markdown table."""
    def iv(x, pct=False):
        k = 100 if pct else 1
        return f"{x[0] * k:.2f} [{x[1] * k:.2f}, {x[2] * k:.2f}]"
    sides = results[0]["sides"] if results else list(SIDES)
    lines = ["| agent | deals | passed out | 7-level | redoubled | fit | " + " | ".join(f"{s} lost" for s in sides)
             + " | " + " | ".join(f"{s} costly %" for s in sides) + " | ms/card |", "|" + "---|" * (7 + 2 * len(sides))]
    for r in results:
        lost = " | ".join(iv(r[f"{s}_lost"]) for s in sides)
        costly = " | ".join(iv(r[f"{s}_costly"], True) for s in sides)
        lines.append(f"| {r['agent']} | {r['deals']} | {r['passed_out']} | {r['seven_level']} | {r['redoubled']} | "
                     f"{iv(r['fit'])} | {lost} | {costly} | {r['ms_per_card']:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Score each agent's card play on the same deals."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="bridge")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agents", default="heuristic,random")
    parser.add_argument("--auction", default="own")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from rulelang.adapters import double_dummy as dd
    from rulelang.loader import load_game
    why = dd.unfit(load_game(args.game))
    if why:
        print(f"{args.game}: {why}", file=sys.stderr)
        return 2
    seeds = range(args.seed, args.seed + args.deals)
    results = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for spec in filter(None, (s.strip() for s in args.agents.split(","))):
            try:
                rows = list(pool.map(play_deal, *zip(*[(args.game, spec, args.auction, s) for s in seeds])))
            except ValueError as error:                   # DDS disagreed with the rules on a legal card
                print(f"{args.game}: {error}", file=sys.stderr)
                return 2
            results.append(summarise(spec, rows))
    print(json.dumps(results, indent=1) if args.json else table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
