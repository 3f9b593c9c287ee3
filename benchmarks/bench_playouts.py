"""Random-playout speed of Zwanzig ab: the rulelang engine against a hand-written Python baseline.

    python benchmarks/bench_playouts.py [--deals N] [--matches M] [--seed S] [--rounds R] [--profile]

The engine side drives the public State API only: ``legal_actions()`` then ``apply_action()`` with
a uniformly random choice at every decision, and ``apply_chance(rng)`` for each run of chance
events (the dealer by lot, a packet round of the deal, a talon draw), as the baseline shuffles. The baseline side is ``baseline_zwanzig_ab.py``, the same rules and the
same random choices written directly in Python. Both run in this process, the same number of deals
(single-deal episodes, ``Game(definition, max_deals=1)``) and of full matches, interleaved in
``--rounds`` rounds so that a noisy neighbour on the machine hits both sides alike.

``--profile`` runs the engine deals under cProfile instead and prints the hot spots; where a deal's
time goes, call by call and construct by construct, is ``time_split.py``'s.
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULE_FILE = HERE.parent / "games" / "zwanzig-ab.yaml"
sys.path.insert(0, str(HERE))

import baseline_zwanzig_ab as baseline  # noqa: E402

DEFAULT_DEALS = 30000    # about 5 s of engine time (165 µs/deal) on an idle core of the machine of README.md
DEFAULT_MATCHES = 2500   # about 11.6 deals each: about 5 s of engine time
WARMUP_DEALS = 300
WARMUP_MATCHES = 20


# ---------------------------------------------------------------------------- loading the engine
def load_zwanzig(max_deals: int | None):
    """``(game, how)``: Zwanzig ab compiled by the loader, or by the compiler directly while the
    loader's parts (YAML/DSL loaders, schema) are not all in the tree."""
    try:
        from rulelang.loader import load_game
        return load_game("zwanzig-ab", max_deals=max_deals), "rulelang.loader.load_game"
    except (ImportError, AttributeError):
        pass
    import yaml
    from rulelang.compile.compiler import compile_game
    from rulelang.read.document import Document
    from rulelang.interpreter import Game
    data = yaml.safe_load(RULE_FILE.read_text(encoding="utf-8"))
    definition = compile_game(Document(data, {}, str(RULE_FILE)))
    return Game(definition, max_deals=max_deals), "yaml.safe_load + compile_game (loader fallback)"


# ---------------------------------------------------------------------------- the two playouts
def engine_episodes(game, rng: random.Random, count: int) -> tuple[int, int]:
    """Play ``count`` episodes (deals or matches, as the game's max_deals says) with random actions;
    returns ``(deals, actions)``."""
    choice = rng.choice
    deals = actions = 0
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions += state.apply_chance(rng)
                continue
            state.apply_action(choice(state.legal_actions()))
            actions += 1
        deals += state.deal_number
    return deals, actions


def baseline_deals(rng: random.Random, count: int) -> int:
    """Play ``count`` single deals with a dealer by lot; returns the deals played."""
    randrange, play_deal = rng.randrange, baseline.play_deal
    for _ in range(count):
        play_deal(rng, randrange(baseline.PLAYERS))
    return count


def baseline_matches(rng: random.Random, count: int) -> int:
    """Play ``count`` matches; returns the deals played."""
    deals = 0
    for _ in range(count):
        deals += baseline.play_match(rng)[1]
    return deals


# ---------------------------------------------------------------------------- timing
class Tally:
    """Time and work of one side, summed over rounds."""

    def __init__(self):
        self.seconds = self.cpu = 0.0
        self.episodes = self.deals = self.actions = 0
        self.best = float("inf")  # fastest round, seconds per episode

    def add(self, seconds: float, cpu: float, episodes: int, deals: int, actions: int = 0) -> None:
        self.seconds += seconds
        self.cpu += cpu
        self.episodes += episodes
        self.deals += deals
        self.actions += actions
        if episodes:
            self.best = min(self.best, seconds / episodes)


def timed(fn, *args):
    """``(wall seconds, CPU seconds of this process, result)`` of ``fn(*args)``."""
    start, cpu = time.perf_counter(), time.process_time()
    result = fn(*args)
    return time.perf_counter() - start, time.process_time() - cpu, result


def split(total: int, rounds: int) -> list[int]:
    """``total`` as ``rounds`` near-equal positive parts."""
    rounds = max(1, min(rounds, total))
    return [total // rounds + (1 if i < total % rounds else 0) for i in range(rounds)]


def measure(engine_fn, baseline_fn, total: int, rounds: int) -> tuple[Tally, Tally]:
    """Run both sides in alternating order, round by round, ``total`` episodes each."""
    eng, base = Tally(), Tally()
    for i, n in enumerate(split(total, rounds)):
        sides = [("engine", engine_fn), ("baseline", baseline_fn)]
        if i % 2:
            sides.reverse()
        for name, fn in sides:
            gc.collect()
            seconds, cpu, result = timed(fn, n)
            if name == "engine":
                eng.add(seconds, cpu, n, *result)
            else:
                base.add(seconds, cpu, n, result)
    return eng, base


def report(title: str, unit: str, eng: Tally, base: Tally) -> None:
    units = unit + ("es" if unit.endswith("ch") else "s")
    per_eng, per_base = eng.seconds / eng.episodes, base.seconds / base.episodes
    print(f"{title}")
    extra = f", {eng.actions / eng.episodes:.1f} actions/{unit}, {eng.actions / eng.seconds:,.0f} actions/s" \
        if eng.actions else ""
    for name, side, more in (("engine", eng, extra), ("baseline", base, "")):
        print(f"  {name:9s} {side.episodes:>7,} {units} in {side.seconds:6.2f} s: {side.episodes / side.seconds:>9,.1f} "
              f"{units}/s  ({side.seconds / side.episodes * 1e6:8.1f} µs/{unit}{more}; "
              f"by CPU time {side.episodes / side.cpu:,.1f} {units}/s)")
    if unit == "match":
        print(f"  deals per match: engine {eng.deals / eng.episodes:.2f}, baseline {base.deals / base.episodes:.2f}")
    print(f"  ratio (engine time per {unit} / baseline time per {unit}): {per_eng / per_base:.2f}"
          f"   [fastest rounds: {eng.best / base.best:.2f}; by CPU time: {eng.cpu / base.cpu:.2f}]")


def profile(game, rng: random.Random, deals: int, top: int) -> None:
    """The engine's single-deal playouts under cProfile, hot spots by own time."""
    import cProfile
    import pstats
    engine_episodes(game, rng, WARMUP_DEALS)
    profiler = cProfile.Profile()
    profiler.enable()
    engine_episodes(game, rng, deals)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.strip_dirs().sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS, help=f"single deals per side ({DEFAULT_DEALS})")
    parser.add_argument("--matches", type=int, default=None,
                        help=f"full matches per side ({DEFAULT_MATCHES}, or deals/12 when only --deals is given; 0 skips)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating timing rounds (5)")
    parser.add_argument("--profile", action="store_true", help="profile the engine deals instead of timing")
    parser.add_argument("--top", type=int, default=25, help="rows of the profile (25)")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    matches = args.matches
    if matches is None:
        matches = DEFAULT_MATCHES if args.deals == DEFAULT_DEALS else max(1, args.deals // 12)

    deal_game, how = load_zwanzig(max_deals=1)
    match_game, _ = load_zwanzig(max_deals=None)
    if args.profile:
        profile(deal_game, random.Random(args.seed), args.deals, args.top)
        return 0

    print(f"Zwanzig ab random playouts: Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.machine()}; seed {args.seed}; {args.rounds} alternating rounds")
    print(f"engine loaded via {how}")

    eng_rng, base_rng = random.Random(args.seed), random.Random(args.seed)
    engine_episodes(deal_game, eng_rng, WARMUP_DEALS)
    baseline_deals(base_rng, WARMUP_DEALS)
    eng, base = measure(lambda n: engine_episodes(deal_game, eng_rng, n), lambda n: baseline_deals(base_rng, n),
                        args.deals, args.rounds)
    report("single deals (max_deals=1):", "deal", eng, base)

    if matches > 0:
        eng_rng, base_rng = random.Random(args.seed + 1), random.Random(args.seed + 1)
        engine_episodes(match_game, eng_rng, WARMUP_MATCHES)
        baseline_matches(base_rng, WARMUP_MATCHES)
        eng, base = measure(lambda n: engine_episodes(match_game, eng_rng, n), lambda n: baseline_matches(base_rng, n),
                            matches, args.rounds)
        report("full matches (start 20, until a unique lowest score <= 0):", "match", eng, base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
