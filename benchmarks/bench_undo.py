"""What search pays per node: clone, undo by replaying the history, undo from the stack, and the stack's price.

    python benchmarks/bench_undo.py [--repeat N] [--seed S]

For Zwanzig ab at the 8th trick of a deal and for Zwanzigerrufen deep into a match, it
prints microseconds per ``clone()``, per ``undo_action`` that replays the history (the
default) and per ``undo_action`` from the stack of ``keep_undo()``, and the price the
stack puts on ``apply_action`` (random playouts with and without it, interleaved). Then
``clone()`` against OpenSpiel's ``oh_hell`` in the same process, both in trick play after
two tricks, timed in interleaved rounds (best round): our Oh Hell, Zwanzig ab and
Zwanzigerrufen against OpenSpiel's clone (needs ``pip install -e '.[bench]'``).
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


def in_trick_play(name: str, tricks: int, seed: int):
    """A one-deal state of game ``name`` in trick play, ``tricks`` tricks done, after random play."""
    game, rng = load_game(name, max_deals=1), random.Random(seed)
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            if (not state.is_terminal() and state.step is not None and state.step.kind == "tricks"
                    and len(state.tricks.trick_winners) == tricks and not state.tricks.trick):
                return state


def openspiel_in_play(tricks: int, seed: int):
    """An OpenSpiel ``oh_hell`` state in the play phase with ``tricks`` tricks done; None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game, rng = pyspiel.load_game("oh_hell"), random.Random(seed)
    players = game.num_players()
    while True:
        state, played = game.new_initial_state(), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            action = rng.choice(state.legal_actions())
            played += action < 52 and "Phase: Play" in str(state)
            state.apply_action(action)
            if played == tricks * players and not state.is_terminal():
                return state


def clone_against_openspiel(repeat: int, rounds: int, seed: int) -> dict:
    """Microseconds per ``clone()``, best of ``rounds`` interleaved rounds: OpenSpiel's ``oh_hell`` and ours."""
    theirs = openspiel_in_play(2, seed)
    if theirs is None:
        return {"skipped": "open_spiel is not installed: pip install -e '.[bench]'"}
    sides = {"openspiel_oh_hell": theirs}
    sides.update({name: in_trick_play(name, 2, seed) for name in ("oh-hell", "zwanzig-ab", "zwanzigerrufen")})
    best = dict.fromkeys(sides, float("inf"))
    for number in range(rounds):
        for name in (list(sides) if number % 2 == 0 else list(sides)[::-1]):
            best[name] = min(best[name], per_call(sides[name].clone, repeat))
    return {"us": best, "ratio": {name: best[name] / best["openspiel_oh_hell"] for name in best}}


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
    clones = clone_against_openspiel(args.repeat * 10, 5, args.seed)
    if "skipped" in clones:
        print(f"clone against OpenSpiel: skipped — {clones['skipped']}")
        return
    print("clone in trick play after two tricks, best of 5 interleaved rounds:")
    for name, micro in clones["us"].items():
        print(f"  {name:20} {micro:7.2f} µs   {clones['ratio'][name]:5.2f}× OpenSpiel's oh_hell")


if __name__ == "__main__":
    main()
