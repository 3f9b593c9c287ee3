"""Where a random deal's time goes: per State API call, and per construct.

    python benchmarks/time_split.py [GAME] [--deals N] [--seed S]

GAME is a shipped game's name or a rule file (default ``zwanzigerrufen``). Random one-deal playouts
(chance in one step, as ``bench.py`` plays them) are timed twice:

* per API call — ``new_initial_state``, ``apply_chance``, ``legal_actions``, ``apply_action`` — µs a
  deal, and the same for the game written by hand behind the State API where there is one
  (``api_floor_zwanzig_ab.py``, ``api_floor_zwanzigerrufen.py``);
* per construct — each construct's ``enter``, ``legal`` and ``apply``, and the State's phase
  changes (``_next_phase``, which includes the ``enter`` of the phases it starts and the end of the
  deal) — µs a deal and calls a deal.

The cost of reading the clock around a call is measured first and taken off each call timed, so
the figures add up to about the time of a deal; they are still a little high where a timed call
is inside another (a construct's ``apply`` inside ``apply_action``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import api_floor_zwanzig_ab  # noqa: E402
import api_floor_zwanzigerrufen  # noqa: E402

from rulelang.constructs import constructs  # noqa: E402
from rulelang.interpreter.state import State  # noqa: E402
from rulelang.loader import load_game  # noqa: E402

FLOORS = {"zwanzig-ab": api_floor_zwanzig_ab.ApiState, "zwanzigerrufen": api_floor_zwanzigerrufen.ApiState}
API_CALLS = ("new state", "apply_chance", "legal_actions", "apply_action")


def clock_cost() -> float:
    """Seconds one ``perf_counter`` call and the bookkeeping around a timed call take."""
    clock, total = time.perf_counter, 0.0
    for _ in range(100000):
        started = clock()
        total += clock() - started
    return total / 100000


def api_split(new_state, rng: random.Random, deals: int, tick: float) -> dict[str, float]:
    """µs a deal spent in each API call, random one-deal playouts of states made by ``new_state``."""
    clock = time.perf_counter
    spent, calls = dict.fromkeys(API_CALLS, 0.0), dict.fromkeys(API_CALLS, 0)
    for _ in range(deals):
        started = clock()
        state = new_state()
        spent["new state"] += clock() - started
        while not state.is_terminal():
            if state.is_chance_node():
                started = clock()
                state.apply_chance(rng)
                spent["apply_chance"] += clock() - started
                calls["apply_chance"] += 1
                continue
            started = clock()
            legal = state.legal_actions()
            spent["legal_actions"] += clock() - started
            action = rng.choice(legal)
            started = clock()
            state.apply_action(action)
            spent["apply_action"] += clock() - started
            calls["legal_actions"] += 1
            calls["apply_action"] += 1
    calls["new state"] = deals
    return {name: (spent[name] - tick * calls[name]) / deals * 1e6 for name in API_CALLS}


def timed(owner, name: str, key: str, spent: dict, counts: dict) -> None:
    """Replace ``owner.name`` by a version that adds its time to ``spent[key]`` and counts its calls."""
    found = owner.__dict__[name]
    function = found.__func__ if isinstance(found, staticmethod) else found
    clock = time.perf_counter
    spent[key], counts[key] = 0.0, 0

    def wrapper(*args):
        started = clock()
        result = function(*args)
        spent[key] += clock() - started
        counts[key] += 1
        return result
    setattr(owner, name, staticmethod(wrapper) if isinstance(found, staticmethod) else wrapper)


def construct_split(game, rng: random.Random, deals: int, tick: float) -> list[tuple[str, float, float]]:
    """(what, µs a deal, calls a deal) per construct method and phase change, most time first."""
    spent: dict[str, float] = {}
    counts: dict[str, int] = {}
    saved = [(State, "_next_phase", State.__dict__["_next_phase"])]
    timed(State, "_next_phase", "phase changes", spent, counts)
    for kind, construct in constructs().items():
        for method in ("enter", "legal", "apply"):
            if method in construct.__dict__:
                saved.append((construct, method, construct.__dict__[method]))
                timed(construct, method, f"{kind}.{method}", spent, counts)
    try:
        api_split(game.new_initial_state, rng, deals, 0.0)
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)
    rows = [(key, (spent[key] - tick * counts[key]) / deals * 1e6, counts[key] / deals)
            for key in spent if counts[key]]
    return sorted(rows, key=lambda row: -row[1])


def calls_line(split: dict[str, float]) -> str:
    """One line of µs a deal per API call, and their sum."""
    return "   ".join(f"{name} {split[name]:.1f}" for name in API_CALLS) + f"   sum {sum(split.values()):.1f}"


def main() -> None:
    """Print both splits for the game named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="zwanzigerrufen")
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = load_game(args.game, max_deals=1)
    tick = clock_cost()
    api_split(game.new_initial_state, random.Random(args.seed), 300, tick)
    engine = api_split(game.new_initial_state, random.Random(args.seed), args.deals, tick)
    print(f"{args.game}: µs a deal per API call ({args.deals} random deals; clock cost {tick * 1e9:.0f} ns a call)")
    print("    " + calls_line(engine))
    floor = FLOORS.get(Path(args.game).stem)
    if floor is not None:
        by_hand = api_split(floor, random.Random(args.seed), args.deals, tick)
        print("    by hand behind the State API: " + calls_line(by_hand))
    print("µs a deal per construct (calls a deal); phase changes include the enter of the phases they start")
    for key, micros, calls in construct_split(game, random.Random(args.seed), args.deals, tick):
        print(f"    {key:24} {micros:6.1f}   ({calls:.1f})")


if __name__ == "__main__":
    main()
