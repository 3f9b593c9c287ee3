"""``new_initial_state`` clones one state made on first use: playing on its clones must never change it.

For every shipped rule file, random matches (with clones and undo on the way) are played from
``new_initial_state``; afterwards the kept state, and each new state handed out, must still equal
a state made from scratch, field by field and slice by slice.
"""

from __future__ import annotations

import random

import pytest

from rulelang.interpreter.state import State
from rulelang.loader import load_game, shipped_games


def slots(value) -> dict | None:
    """The fields of a deal slice (``__dict__`` or ``__slots__``); None for anything else."""
    if isinstance(value, type) or not type(value).__module__.startswith("rulelang.constructs"):
        return None
    names = [name for cls in type(value).__mro__ for name in getattr(cls, "__slots__", ())]
    return {**{name: getattr(value, name) for name in names if hasattr(value, name)}, **getattr(value, "__dict__", {})}


def contents(state) -> dict[str, str]:
    """Every field of a state, a deal slice as its own fields (the game left out: it is shared)."""
    fields = {}
    for name, value in vars(state).items():
        if name != "game":
            inner = slots(value)
            fields[name] = repr(sorted(inner.items())) if inner is not None else repr(value)
    return fields


@pytest.mark.parametrize("path", shipped_games(), ids=lambda path: path.name)
def test_playing_on_new_states_leaves_the_initial_state_as_made(path):
    game = load_game(path, max_deals=2)
    fresh = contents(State(game))
    assert contents(game.new_initial_state()) == fresh
    rng = random.Random(path.name)
    for match in range(6):
        state = game.new_initial_state()
        state.keep_undo(match % 2 == 0)
        steps = 0
        while not state.is_terminal() and steps < 400:
            action = rng.choice(state.legal_actions())
            if steps % 17 == 5:
                twin = state.clone()
                twin.apply_action(action)
            state.apply_action(action)
            if steps % 23 == 7 and match % 2 == 0:
                state.undo_action(-1, action)
                state.apply_action(action)
            steps += 1
        assert contents(game._initial) == fresh, path.name
    assert contents(game.new_initial_state()) == fresh


def test_a_new_state_changed_in_place_leaves_the_next_one_alone():
    """A test or tool may set up a position by changing a new state's containers in place."""
    game = load_game("zwanzig-ab-helpster", max_deals=2)
    fresh = contents(State(game))
    first = game.new_initial_state()
    first.counters.update({name: 3 for name in first.counters})
    first.scores[0] = 99
    first.vars["trump"] = 2
    first.decisions[1] = "pass"
    first.hands[2] |= 1
    assert contents(game.new_initial_state()) == fresh
