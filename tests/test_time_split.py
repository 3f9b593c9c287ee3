"""``benchmarks/time_split.py`` times each construct by wrapping its methods for one run: the split
must count the calls a deal makes and leave every construct as it found it."""

from __future__ import annotations

import random

from helpers import load_benchmark

from rulelang.constructs import constructs
from rulelang.interpreter.state import State
from rulelang.loader import load_game

split = load_benchmark("time_split")


def methods() -> dict:
    """Every construct method and phase change the split wraps, as they are now."""
    found = {("State", "_next_phase"): State.__dict__["_next_phase"]}
    for kind, construct in constructs().items():
        found.update({(kind, name): construct.__dict__[name] for name in ("enter", "legal", "apply")
                      if name in construct.__dict__})
    return found


def test_the_construct_split_counts_calls_and_puts_every_method_back():
    before = methods()
    game = load_game("zwanzig-ab", max_deals=1)
    rows = {key: (micros, calls) for key, micros, calls in split.construct_split(game, random.Random(3), 40, 0.0)}
    assert methods() == before
    assert rows["choose.apply"][1] == 1.0 and rows["score.enter"][1] == 1.0       # one trump, one score a deal
    assert 4 <= rows["tricks.apply"][1] <= 20 and rows["tricks.legal"][1] == rows["tricks.apply"][1]
    assert all(micros > 0 for micros, _ in rows.values())


def test_the_api_split_times_the_engine_and_the_floor_alike():
    game = load_game("zwanzigerrufen", max_deals=1)
    engine = split.api_split(game.new_initial_state, random.Random(5), 30, 0.0)
    by_hand = split.api_split(split.FLOORS["zwanzigerrufen"], random.Random(5), 30, 0.0)
    assert set(engine) == set(by_hand) == set(split.API_CALLS)
    assert all(value > 0 for value in [*engine.values(), *by_hand.values()])
