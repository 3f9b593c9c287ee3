"""What search pays per node: clone, undo by replaying the history, undo from the stack, and the stack's price.

    python benchmarks/bench_undo.py [--repeat N] [--seed S]

For Zwanzig ab at the 8th trick of a deal and for Zwanzigerrufen deep into a match, it
prints microseconds per ``clone()``, per ``undo_action`` that replays the history (the
default) and per ``undo_action`` from the stack of ``keep_undo()``, and the price the
stack puts on ``apply_action`` (random playouts with and without it, interleaved).
"""

from __future__ import annotations

import argparse
import random
import time

from rulelang.loader import load_game


def advanced(name: str, steps: int, seed: int, keep: bool):
    """A state of game ``name`` after up to ``steps`` random actions (with an undo stack if ``keep``)."""
    state = load_game(name).new_initial_state()
    if keep:
        state.keep_undo()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def per_call(fn, repeat: int) -> float:
    """Microseconds per call of ``fn`` over ``repeat`` calls."""
    started = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - started) / repeat * 1e6


def undo_from_stack(name: str, steps: int, seed: int) -> float:
    """Microseconds per undo from the stack, walking a whole random line back."""
    state = advanced(name, steps, seed, keep=True)
    count = len(state.history)
    started = time.perf_counter()
    while state.history:
        state.undo_action(0, state.history[-1])
    return (time.perf_counter() - started) / count * 1e6


def playout_price(name: str, deals: int, seed: int) -> tuple[float, float]:
    """Microseconds per action of random one-deal playouts without and with an undo stack."""
    game = load_game(name, max_deals=1)
    times = {False: 0.0, True: 0.0}
    actions = {False: 0, True: 0}
    for deal in range(deals):
        for keep in (False, True):
            rng = random.Random(seed + deal)
            state = game.new_initial_state()
            if keep:
                state.keep_undo()
            started = time.perf_counter()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            times[keep] += time.perf_counter() - started
            actions[keep] += len(state.history)
    return times[False] / actions[False] * 1e6, times[True] / actions[True] * 1e6


def main() -> None:
    """Print the figures for both games."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, steps in (("zwanzig-ab", 55), ("zwanzigerrufen", 400)):
        state = advanced(name, steps, args.seed, keep=False)
        last = state.history[-1]

        def replay_undo(state=state, last=last):
            state.clone().undo_action(0, last)
        clone = per_call(state.clone, args.repeat)
        replay = per_call(replay_undo, max(20, args.repeat // 10)) - clone
        stack = undo_from_stack(name, steps, args.seed)
        plain, kept = playout_price(name, 200, args.seed)
        print(f"{name}: history of {len(state.history)} actions")
        print(f"  clone                        {clone:9.2f} µs")
        print(f"  undo_action, replaying       {replay:9.2f} µs")
        print(f"  undo_action, from the stack  {stack:9.2f} µs   ({replay / stack:.0f}× faster)")
        print(f"  apply_action in playouts     {plain:9.2f} µs per action, {kept:.2f} µs with keep_undo "
              f"({kept / plain:.2f}×)")


if __name__ == "__main__":
    main()
