"""A time budget is kept by reading the clock, not by counting: these tests give the agents a clock that moves a
millisecond at every reading, so what is checked is where the agents look at it and what they do then — never how
fast this machine is. The figures on a real clock are `python benchmarks/search_budget.py`."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from rulelang.interpreter.agents import heuristic, make_agent, search
from rulelang.interpreter.agents.basic import SeededChance
from rulelang.loader import load_game


@pytest.fixture
def ticking_clock(monkeypatch):
    """``time.perf_counter`` a millisecond later at every reading."""
    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) / 1000)


def counted(monkeypatch, module) -> list[int]:
    """Counts the rollouts ``module`` starts (one entry per rollout)."""
    calls, real = [], module.rollout_gain
    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(module, "rollout_gain", counting)
    return calls


def first_decision(name: str, kind: str):
    """The first state of a seeded deal of ``name`` where a step of ``kind`` offers a choice."""
    game = load_game(name, max_deals=1)
    state, chance, rng = game.new_initial_state(), SeededChance(3), random.Random(3)
    while True:
        if state.current_player() < 0:
            chance.play(state)
        elif state.step.kind == kind and len(state.legal_actions()) > 1:
            return state
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_the_search_stops_at_its_deadline_and_keeps_only_whole_rounds(monkeypatch, ticking_clock):
    state = first_decision("zwanzigerrufen", "tricks")
    calls = counted(monkeypatch, search)
    agent = make_agent("search:ms=20", 1)
    gains = agent.rollouts(state, state.legal_actions(), deadline=time.perf_counter() + 0.020)
    assert 0 < len(calls) <= 21                   # a reading after each rollout: the budget and one rollout more
    assert len({len(g) for g in gains.values()}) == 1             # every move on the same worlds
    assert agent.step(state) in state.legal_actions()


def test_the_heuristic_begins_no_world_after_its_deadline_but_plays_two(monkeypatch):
    state = first_decision("zwanzigerrufen", "auction")
    options = heuristic.candidates(state, state.legal_actions())
    calls = counted(monkeypatch, heuristic)
    past = float("-inf")                                          # a deadline that every clock reading is after
    heuristic.judge(state, state.current_player(), options, random.Random(1), 64, deadline=past)
    assert len(calls) == 2 * len(options)


def test_a_budget_in_playouts_reads_no_clock(monkeypatch):
    state = first_decision("zwanzigerrufen", "tricks")
    monkeypatch.setattr(time, "perf_counter", lambda: pytest.fail("the clock was read"))
    agent = make_agent("search:playouts=8", 1)
    assert agent.step(state) in state.legal_actions()
