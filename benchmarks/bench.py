"""All the engine's speed figures in one run, each against a baseline measured in the same run.

    python benchmarks/bench.py [--quick] [--json] [--seed S] [--rounds R]

(a) random playouts through the public ``State`` API, per deal: Zwanzig ab against the
    hand-written baseline (``baseline_zwanzig_ab.py``) and against the same game written by hand
    behind the State API (``api_floor_zwanzig_ab.py``: what code generated for one game could at
    best reach), Zwanzigerrufen the same (``baseline_zwanzigerrufen.py``, ``api_floor_zwanzigerrufen.py``);
(b) per decision against OpenSpiel's ``oh_hell`` (default parameters), driven from a
    Python loop and by OpenSpiel's own C++ loop (``pyspiel.evaluate_bots`` with uniform
    random bots) — skipped unless ``pip install -e '.[bench]'`` installed ``open_spiel``;
(c) ``simulate`` deals per second with ``--jobs 1`` and ``--jobs 2``; the batch engine's µs per
    deal and per decision (Zwanzig ab, Oh Hell) against OpenSpiel's C++ loop on ``oh_hell`` in the
    same rounds, and ``simulate --engine batch`` deals per second with one and two processes;
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

import api_floor_zwanzig_ab as api_floor  # noqa: E402
import api_floor_zwanzigerrufen as api_floor_zr  # noqa: E402
import baseline_zwanzig_ab as baseline  # noqa: E402
import baseline_zwanzigerrufen as baseline_zr  # noqa: E402
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
    engine, hand, floor, engine_zr, hand_zr, floor_zr = best_of(
        rounds,
        (lambda: engine_playouts(zab, rng, deals), deals),
        (lambda: [baseline.play_deal(rng, rng.randrange(baseline.PLAYERS)) for _ in range(deals)], deals),
        (lambda: api_floor.play_deals(rng, deals), deals),
        (lambda: engine_playouts(zr, rng, zr_deals), zr_deals),
        (lambda: [baseline_zr.play_deal(rng, rng.randrange(baseline_zr.PLAYERS)) for _ in range(zr_deals)], zr_deals),
        (lambda: api_floor_zr.play_deals(rng, zr_deals), zr_deals))
    actions, decisions = engine_playouts(zr, random.Random(seed), 50)
    return {"zwanzig-ab": {"engine_us": engine * 1e6, "baseline_us": hand * 1e6, "ratio": engine / hand,
                           "api_floor_us": floor * 1e6, "floor_ratio": floor / hand, "engine_vs_floor": engine / floor},
            "zwanzigerrufen": {"engine_us": engine_zr * 1e6, "baseline_us": hand_zr * 1e6, "ratio": engine_zr / hand_zr,
                               "api_floor_us": floor_zr * 1e6, "floor_ratio": floor_zr / hand_zr,
                               "engine_vs_floor": engine_zr / floor_zr, "actions_per_deal": actions / 50,
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


def batch_rates(deals: int, rounds: int, seed: int) -> dict:
    """The batch engine: µs per deal and per decision of random Zwanzig ab and Oh Hell deals in blocks,
    against OpenSpiel's C++ loop on oh_hell in the same rounds; ``simulate --engine batch`` deals/s."""
    try:
        from rulelang.batch.engine import BatchRun
    except ImportError:
        return {"skipped": "numpy 2 is not installed: pip install -e '.[batch]'"}
    from rulelang.cli.simulate import simulate
    from rulelang.interpreter import Game
    from rulelang.loader import load_definition
    games = {name: Game(load_definition(name), max_deals=1) for name in ("zwanzig-ab", "oh-hell")}
    block = min(deals, 10_000)
    decisions = {name: BatchRun(game, block, seed).play().decisions / block for name, game in games.items()}
    sides = [(lambda g=game: BatchRun(g, block, seed).play(), block) for game in games.values()]
    cpp = _cpp_loop(seed)
    if cpp is not None:
        sides.append(cpp)
    best = best_of(rounds, *sides)
    figures = {"block": block, "decisions_per_deal": decisions}
    for (name, per_deal) in zip(games, best):
        figures[name] = {"us_per_deal": per_deal * 1e6, "us_per_decision": per_deal * 1e6 / decisions[name]}
    if cpp is not None:
        figures["openspiel_cpp_us_per_decision"] = best[-1] * 1e6
        for name in games:
            figures[name]["times_faster_than_cpp"] = best[-1] * 1e6 / figures[name]["us_per_decision"]
    for jobs in (1, 2):
        started = time.perf_counter()
        simulate("zwanzig-ab", deals, 0, seed, agents="random", jobs=jobs, engine="batch")
        figures[f"simulate_jobs_{jobs}"] = deals / (time.perf_counter() - started)
    return figures


def _cpp_loop(seed: int):
    """(run, decisions) of 200 OpenSpiel oh_hell episodes by its C++ loop, or None without open_spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game, rng = pyspiel.load_game("oh_hell"), random.Random(seed)
    per_episode = openspiel_python_loop(game, random.Random(seed), 50) / 50
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]

    def run():
        for _ in range(200):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, rng.randrange(1 << 30))
    return run, 200 * per_episode


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
            "batch": batch_rates(20_000 * scale, rounds, seed)}


def lines(figures: dict) -> list[str]:
    """The figures as text."""
    play, spiel, sim, state = figures["playouts"], figures["openspiel"], figures["simulate"], figures["state"]
    zab, zr = play["zwanzig-ab"], play["zwanzigerrufen"]
    out = [f"Python {figures['machine']['python']} ({figures['machine']['implementation']}), "
           f"{figures['machine']['machine']}",
           "(a) random playouts, µs per deal (best round)",
           f"    zwanzig-ab      engine {zab['engine_us']:8.1f}   hand-written {zab['baseline_us']:7.1f}   "
           f"ratio {zab['ratio']:.2f}",
           f"    zwanzig-ab by hand behind the State API {zab['api_floor_us']:7.1f}: {zab['floor_ratio']:.2f}× the "
           f"hand-written deal; the engine {zab['engine_vs_floor']:.2f}× it",
           f"    zwanzigerrufen  engine {zr['engine_us']:8.1f}   hand-written {zr['baseline_us']:7.1f}   "
           f"ratio {zr['ratio']:.2f}   ({zr['decisions_per_deal']:.1f} decisions per deal)",
           f"    zwanzigerrufen by hand behind the State API {zr['api_floor_us']:7.1f}: {zr['floor_ratio']:.2f}× the "
           f"hand-written deal; the engine {zr['engine_vs_floor']:.2f}× it"]
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
            f"({sim['jobs_2'] / sim['jobs_1']:.2f}×)"]
    out += batch_lines(figures["batch"])
    out.append(f"(d) zwanzigerrufen clone {state['clone_us']:.1f} µs, undo from the stack "
               f"{state['undo_from_stack_us']:.1f} µs; one packet round of zwanzig-ab: apply_chance "
               f"{state['apply_chance_us']:.1f} µs, card by card {state['card_by_card_us']:.1f} µs")
    clones = state["clone_against_openspiel"]
    if "skipped" in clones:
        out.append(f"(d) clone against OpenSpiel: skipped — {clones['skipped']}")
    else:
        out.append("(d) clone in trick play after two tricks, µs: " + ", ".join(
            f"{name} {micro:.2f} ({clones['ratio'][name]:.2f}×)" for name, micro in clones["us"].items()))
    return out


def batch_lines(batch: dict) -> list[str]:
    """The batch engine's figures as text."""
    if "skipped" in batch:
        return [f"(c) batch engine: skipped — {batch['skipped']}"]
    out = [f"(c) batch engine, random deals in blocks of {batch['block']}, per core:"]
    for name in ("zwanzig-ab", "oh-hell"):
        row = batch[name]
        faster = f"   {row['times_faster_than_cpp']:.1f}× OpenSpiel's C++ loop" if "times_faster_than_cpp" in row else ""
        out.append(f"    {name:11} {row['us_per_deal']:6.2f} µs per deal, {batch['decisions_per_deal'][name]:.1f} "
                   f"decisions, {row['us_per_decision']:.3f} µs per decision{faster}")
    if "openspiel_cpp_us_per_decision" in batch:
        out.append(f"    OpenSpiel oh_hell C++ loop {batch['openspiel_cpp_us_per_decision']:.3f} µs per decision")
    out.append(f"    simulate zwanzig-ab --engine batch: {batch['simulate_jobs_1']:.0f} deals/s with --jobs 1, "
               f"{batch['simulate_jobs_2']:.0f} with --jobs 2")
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
