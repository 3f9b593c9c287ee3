"""All the engine's speed figures in one run, each against a baseline measured in the same run.

    python benchmarks/bench.py [--quick] [--json] [--seed S] [--rounds R]

(a) random playouts through the public ``State`` API, per deal: Zwanzig ab against the
    hand-written baseline (``baseline_zwanzig_ab.py``), Zwanzigerrufen on its own (no
    hand-written Zwanzigerrufen exists to compare with);
(b) per decision against OpenSpiel's ``oh_hell`` (default parameters), driven from a
    Python loop and by OpenSpiel's own C++ loop (``pyspiel.evaluate_bots`` with uniform
    random bots) — skipped unless ``pip install -e '.[bench]'`` installed ``open_spiel``;
(c) ``simulate`` deals per second with ``--jobs 1`` and ``--jobs 2``;
(d) ``clone``, ``undo_action`` from the stack, and ``apply_chance`` of a whole packet round
    against dealing it card by card; ``clone`` in trick play against OpenSpiel's ``oh_hell``.

Engine and baselines are timed in interleaved rounds, so that load from elsewhere on the
machine hits both alike; each figure is the best round. ``--json`` prints the figures as
one JSON object for machines.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline_zwanzig_ab as baseline  # noqa: E402
from bench_undo import advanced, clone_against_openspiel, per_call, undo_from_stack  # noqa: E402

from rulelang.loader import load_game  # noqa: E402


def best_of(rounds: int, *sides):
    """Per side, the best seconds per unit over ``rounds`` interleaved rounds; sides are ``(run, units)``."""
    best = [float("inf")] * len(sides)
    for number in range(rounds):
        order = list(enumerate(sides)) if number % 2 == 0 else list(enumerate(sides))[::-1]
        for index, (run, units) in order:
            started = time.perf_counter()
            run()
            best[index] = min(best[index], (time.perf_counter() - started) / units)
    return best


# ---------------------------------------------------------------------------- (a) playouts
def engine_playouts(game, rng: random.Random, deals: int) -> tuple[int, int]:
    """Random one-deal playouts: ``(actions, decisions)`` played; chance in one step."""
    actions = decisions = 0
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions += state.apply_chance(rng)
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
            decisions += 1
    return actions, decisions


def playouts(deals: int, rounds: int, seed: int) -> dict:
    """Microseconds per deal: both games on the engine, Zwanzig ab's hand-written baseline."""
    rng = random.Random(seed)
    zab, zr = load_game("zwanzig-ab", max_deals=1), load_game("zwanzigerrufen", max_deals=1)
    zr_deals = max(1, deals // 3)
    engine_playouts(zab, rng, 100)
    engine_playouts(zr, rng, 30)
    engine, hand, engine_zr = best_of(
        rounds,
        (lambda: engine_playouts(zab, rng, deals), deals),
        (lambda: [baseline.play_deal(rng, rng.randrange(baseline.PLAYERS)) for _ in range(deals)], deals),
        (lambda: engine_playouts(zr, rng, zr_deals), zr_deals))
    actions, decisions = engine_playouts(zr, random.Random(seed), 50)
    return {"zwanzig-ab": {"engine_us": engine * 1e6, "baseline_us": hand * 1e6, "ratio": engine / hand},
            "zwanzigerrufen": {"engine_us": engine_zr * 1e6, "actions_per_deal": actions / 50,
                               "decisions_per_deal": decisions / 50}}


# ---------------------------------------------------------------------------- (b) OpenSpiel
def openspiel_python_loop(game, rng: random.Random, episodes: int) -> int:
    """OpenSpiel ``oh_hell`` random episodes from Python; the decisions made."""
    decisions = 0
    for _ in range(episodes):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions


def openspiel(episodes: int, rounds: int, seed: int) -> dict:
    """Microseconds per decision: OpenSpiel from Python, OpenSpiel's C++ loop, and our engine."""
    try:
        import pyspiel
    except ImportError:
        return {"skipped": "open_spiel is not installed: pip install -e '.[bench]'"}
    game, rng = pyspiel.load_game("oh_hell"), random.Random(seed)
    decisions = openspiel_python_loop(game, random.Random(seed), episodes) / episodes
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]

    def cpp_loop():
        for _ in range(episodes):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, rng.randrange(1 << 30))
    zab = load_game("zwanzig-ab", max_deals=1)
    ours = engine_playouts(zab, random.Random(seed), 200)[1] / 200
    deals = max(1, round(episodes * decisions / ours))
    python, cpp, engine = best_of(rounds, (lambda: openspiel_python_loop(game, rng, episodes), episodes * decisions),
                                  (cpp_loop, episodes * decisions),
                                  (lambda: engine_playouts(zab, rng, deals), deals * ours))
    return {"oh_hell_decisions_per_episode": decisions, "openspiel_python_us": python * 1e6,
            "openspiel_cpp_us": cpp * 1e6, "engine_zwanzig_ab_us": engine * 1e6,
            "engine_vs_python": engine / python, "engine_vs_cpp": engine / cpp}


# ---------------------------------------------------------------------------- (c) simulate
def simulate_rates(deals: int, seed: int) -> dict:
    """Deals per second of ``simulate zwanzig-ab`` by random players with one and with two processes."""
    from rulelang.cli.simulate import simulate
    rates = {}
    for jobs in (1, 2):
        started = time.perf_counter()
        simulate("zwanzig-ab", deals, 0, seed, agents="random", jobs=jobs)
        rates[f"jobs_{jobs}"] = deals / (time.perf_counter() - started)
    return rates


# ---------------------------------------------------------------------------- (d) clone, undo, chance
def chance_rates(repeat: int, seed: int) -> dict:
    """Microseconds for one packet round of Zwanzig ab's deal: in one step, and card by card."""
    game = load_game("zwanzig-ab")
    start = game.new_initial_state()
    start.apply_action(game.seat_base)
    rng = random.Random(seed)

    def one_step():
        start.clone().apply_chance(rng)

    def card_by_card():
        state = start.clone()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
    clone = per_call(start.clone, repeat)
    return {"apply_chance_us": per_call(one_step, repeat) - clone,
            "card_by_card_us": per_call(card_by_card, repeat) - clone}


def state_costs(repeat: int, seed: int) -> dict:
    """Clone and undo of a Zwanzigerrufen state deep into a match, and apply_chance."""
    state = advanced("zwanzigerrufen", 400, seed, keep=False)
    return {"clone_us": per_call(state.clone, repeat), "undo_from_stack_us": undo_from_stack("zwanzigerrufen", 400, seed),
            **chance_rates(repeat, seed), "clone_against_openspiel": clone_against_openspiel(repeat * 10, 5, seed)}


# ---------------------------------------------------------------------------- report
def measure(quick: bool, rounds: int, seed: int) -> dict:
    """Every figure, as one JSON-ready object."""
    scale = 1 if quick else 5
    return {"machine": {"python": platform.python_version(), "implementation": platform.python_implementation(),
                        "machine": platform.machine(), "system": platform.system()},
            "playouts": playouts(600 * scale, rounds, seed), "openspiel": openspiel(60 * scale, rounds, seed),
            "simulate": simulate_rates(800 * scale, seed), "state": state_costs(200 * scale, seed),
            "batch": {"skipped": "no batch engine yet"}}


def lines(figures: dict) -> list[str]:
    """The figures as text."""
    play, spiel, sim, state = figures["playouts"], figures["openspiel"], figures["simulate"], figures["state"]
    zab = play["zwanzig-ab"]
    out = [f"Python {figures['machine']['python']} ({figures['machine']['implementation']}), "
           f"{figures['machine']['machine']}",
           "(a) random playouts, µs per deal (best round)",
           f"    zwanzig-ab      engine {zab['engine_us']:8.1f}   hand-written {zab['baseline_us']:7.1f}   "
           f"ratio {zab['ratio']:.2f}",
           f"    zwanzigerrufen  engine {play['zwanzigerrufen']['engine_us']:8.1f}   "
           f"({play['zwanzigerrufen']['decisions_per_deal']:.1f} decisions per deal; no hand-written baseline)"]
    if "skipped" in spiel:
        out.append(f"(b) OpenSpiel: skipped — {spiel['skipped']}")
    else:
        out += ["(b) µs per decision, random play",
                f"    OpenSpiel oh_hell from Python {spiel['openspiel_python_us']:6.2f}   "
                f"OpenSpiel C++ loop {spiel['openspiel_cpp_us']:6.2f}   "
                f"engine (zwanzig-ab) {spiel['engine_zwanzig_ab_us']:6.2f}",
                f"    engine / OpenSpiel from Python {spiel['engine_vs_python']:.2f}   "
                f"engine / OpenSpiel C++ {spiel['engine_vs_cpp']:.2f}"]
    out += [f"(c) simulate zwanzig-ab: {sim['jobs_1']:.0f} deals/s with --jobs 1, {sim['jobs_2']:.0f} with --jobs 2 "
            f"({sim['jobs_2'] / sim['jobs_1']:.2f}×); batch engine: {figures['batch']['skipped']}",
            f"(d) zwanzigerrufen clone {state['clone_us']:.1f} µs, undo from the stack "
            f"{state['undo_from_stack_us']:.1f} µs; one packet round of zwanzig-ab: apply_chance "
            f"{state['apply_chance_us']:.1f} µs, card by card {state['card_by_card_us']:.1f} µs"]
    clones = state["clone_against_openspiel"]
    if "skipped" in clones:
        out.append(f"(d) clone against OpenSpiel: skipped — {clones['skipped']}")
    else:
        out.append("(d) clone in trick play after two tricks, µs: " + ", ".join(
            f"{name} {micro:.2f} ({clones['ratio'][name]:.2f}×)" for name, micro in clones["us"].items()))
    return out


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a fifth of the work (noisier)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5, help="interleaved timing rounds (5)")
    args = parser.parse_args()
    figures = measure(args.quick, args.rounds, args.seed)
    print(json.dumps(figures, indent=2) if args.json else "\n".join(lines(figures)))


if __name__ == "__main__":
    main()
