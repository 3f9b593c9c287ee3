"""Definitions with parameters against the same rules written out by hand (issue 38).

Two variants of Hearts are generated from one set of templates: one says its rules through 48
definitions with parameters — read in ``lead_from``, ``follow`` and ``win`` and in the score — and one
writes every read of them out by hand. The script measures, in one run:

* how long the definitions file takes to load (parse, check, compile, link: ``load_text``), best of
  five fresh loads with the expression cache emptied, against the 0.5 s target;
* µs per random deal of each variant through the State API, in interleaved rounds (best round kept,
  ``bench.best_of``), and their ratio against the 1.5× target; both variants must play the same deals.

    python benchmarks/bench_definitions.py            # about 20 s
    python benchmarks/bench_definitions.py --quick
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from rulelang.loader import load_text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import best_of, engine_playouts  # noqa: E402 - the interleaved rounds and playouts of bench.py

HEAD = """game: hearts-{kind}
extends: hearts
"""

# name, parameters, body: the rules said once.
DEFINITIONS = [
    ("penalty", ("c",), "suit(c) == hearts or c == 'Q♠'"),
    ("broken", (), "count(played & (hearts | {'Q♠'})) > 0"),
    ("leads_from", ("p",), "if broken or count(hand(p) - hearts) == 0 then hand(p) else hand(p) - hearts"),
    ("follows", ("p",), "hand(p) & led_suit"),
    ("first_trick", (), "tricks_played == 0"),
    ("safe_first", ("p",), "hand(p) - hearts - {'Q♠'}"),
    ("winning_suit", (), "led_suit"),
] + [(f"pen{i}", ("p",), f"count(won({{p}}) & hearts) * {i % 3} + (if 'Q♠' in won({{p}}) then {i % 2} else 0)")
     for i in range(41)]


def text_of(kind: str) -> str:
    """The variant ``kind``: ``defined`` (with ``define``) or ``by_hand`` (every read written out)."""
    lead = "leads_from(player)"
    follow = ["if first_trick and count(follows(player)) == 0 and count(safe_first(player)) > 0 then "
              "safe_first(player) else follows(player)", "if first_trick and count(safe_first(player)) > 0 then "
              "safe_first(player) else hand(player)"]
    win = "winning_suit"
    add = "points({player}) + " + " + ".join(f"pen{i}(player)" for i in range(41)) + " * 0"
    if kind == "by_hand":
        lead, follow, win, add = (expand(lead), [expand(f) for f in follow], expand(win), expand(add))
    lines = [HEAD.format(kind=kind.replace("_", "-"))]
    if kind == "defined":
        lines.append("define:")
        for name, params, body in DEFINITIONS:
            key = f"{name}({', '.join(params)})" if params else name
            lines.append(f'  "{key}": "{body}"')
    lines += ["phases:", "  5:", "    tricks:", "      among: seats", "      lead: \"holding({'2♣'})\"",
              f'      lead_from: ["{lead}"]', "      follow: [" + ", ".join(f'"{f}"' for f in follow) + "]",
              f'      win: [{{highest: "{win}"}}]', "  6:", "    score:", "      each: seats", f'      add: "{add}"']
    return "\n".join(lines) + "\n"


def expand(text: str) -> str:
    """``text`` with every read of a definition written out (its parameters replaced by the arguments)."""
    from rulelang.read.expr import Expr, parse_expr, to_text
    bodies = {name: (params, parse_expr(body)) for name, params, body in DEFINITIONS}

    def walk(e: Expr) -> Expr:
        args = [walk(a) for a in e.args]
        if e.op in ("name", "call") and e.value in bodies:
            params, body = bodies[e.value]
            return walk(substitute(body, dict(zip(params, args))))
        return Expr(e.op, args, e.value, e.line, e.column)

    def substitute(e: Expr, given: dict) -> Expr:
        if e.op == "name" and e.value in given:
            return given[e.value]
        return Expr(e.op, [substitute(a, given) for a in e.args], e.value, e.line, e.column)

    return to_text(walk(parse_expr(text)))


def load_seconds(text: str, rounds: int) -> float:
    """The best of ``rounds`` fresh loads of ``text``."""
    from rulelang.read import expr
    best = float("inf")
    for _ in range(rounds):
        expr._parsed.cache_clear()
        started = time.perf_counter()
        load_text(text, "yaml")
        best = min(best, time.perf_counter() - started)
    return best


def playout(game, seed: int) -> tuple:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return tuple(state.history), tuple(state.scores)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a fifth of the deals")
    args = parser.parse_args(argv)
    deals, rounds = (40, 3) if args.quick else (200, 5)
    defined_text, by_hand_text = text_of("defined"), text_of("by_hand")
    defined, by_hand = load_text(defined_text, "yaml", max_deals=1), load_text(by_hand_text, "yaml", max_deals=1)
    for seed in range(20):
        assert playout(defined, seed) == playout(by_hand, seed), "the two variants must play the same deals"
    load = load_seconds(defined_text, 5)
    sides = [(lambda game=game: engine_playouts(game, random.Random(7), deals), deals) for game in (defined, by_hand)]
    best = dict(zip(("defined", "by_hand"), (seconds * 1e6 for seconds in best_of(rounds, *sides))))
    ratio = best["defined"] / best["by_hand"]
    print(f"definitions file: {len(DEFINITIONS)} definitions, {len(defined_text):,} bytes "
          f"(written out by hand: {len(by_hand_text):,} bytes)")
    print(f"load (parse, check, compile, link), best of 5: {load * 1000:.0f} ms   target < 500 ms   "
          f"{'ok' if load < 0.5 else 'MISSED'}")
    print(f"random deal, best of {rounds} rounds of {deals}: defined {best['defined']:.0f} µs, "
          f"by hand {best['by_hand']:.0f} µs, ratio {ratio:.2f}   target <= 1.5   {'ok' if ratio <= 1.5 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
