"""Clones and undo snapshots share what is written rarely, and that sharing is never seen.

A clone copies only what changes on every move (hands, cards won, history, who saw what, the
trick on the table); the scores, payments, cards dealt and discarded, variables, decisions,
counters, deal results and most of each slice are shared and replaced when they change
(``State.put``, ``renews_part``). These tests compare *every* field of a state and of every
slice: playing a clone to the end of its match never changes the original, nor the original
its clones; a resampled world played out leaves its state alone; and an undo stack walked
back from the end of a match gives every earlier state back exactly.
"""

from __future__ import annotations

import random

import pytest

from rulelang.constructs.base import DealPart
from rulelang.loader import load_game, shipped_games

GAMES = shipped_games()
IDS = [path.name for path in GAMES]
SKIPPED = ("game", "phase", "handler", "_undo")     # the compiled rules (shared by design) and the stack


def everything(state) -> str:
    """Every field of ``state`` and of each of its slices, as text."""
    fields = {}
    for name, value in state.__dict__.items():
        if name in SKIPPED:
            continue
        if isinstance(value, DealPart):
            slots = {slot: getattr(value, slot) for slot in getattr(type(value), "__slots__", ())}
            value = sorted({**getattr(value, "__dict__", {}), **slots}.items())
        fields[name] = value
    return repr(sorted(fields.items()))


def play_out(state, rng: random.Random, steps: int | None = None) -> None:
    """Random moves until the match ends (or ``steps`` of them)."""
    while not state.is_terminal() and steps != 0:
        state.apply_action(rng.choice(state.legal_actions()))
        steps = None if steps is None else steps - 1


@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_a_clone_played_to_the_end_changes_nothing_of_its_original_nor_the_original_its_clones(path):
    game = load_game(str(path), max_deals=2)
    rng = random.Random(path.name)
    state = game.new_initial_state()
    kept = []
    while not state.is_terminal():
        if rng.random() < 0.08:
            before = everything(state)
            twin = state.clone()
            assert everything(twin) == before
            kept.append((state.clone(), before))
            play_out(twin, random.Random(rng.random()))
            assert everything(state) == before, f"playing a clone out changed its original at move {len(state.history)}"
        state.apply_action(rng.choice(state.legal_actions()))
    assert kept, "no clone was taken"
    for twin, before in kept:
        assert everything(twin) == before, "playing the original on changed a clone of it"


@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_a_resampled_world_played_out_leaves_its_state_alone(path):
    game = load_game(str(path), max_deals=1)
    rng = random.Random(path.name)
    state = game.new_initial_state()
    probes = 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat >= 0 and rng.random() < 0.15:
            before = everything(state)
            world = state.resample_from_infostate(seat, random.Random(rng.random()))
            assert everything(state) == before, "resampling changed the state it resampled"
            play_out(world, random.Random(rng.random()))
            assert everything(state) == before, "playing a resampled world out changed the state"
            probes += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert probes


@pytest.mark.parametrize("path", GAMES, ids=IDS)
def test_the_undo_stack_gives_every_earlier_state_back_exactly(path):
    game = load_game(str(path), max_deals=2)
    rng = random.Random(path.name)
    state = game.new_initial_state()
    state.keep_undo()
    seen = []
    while not state.is_terminal():
        seen.append(everything(state))
        state.apply_action(rng.choice(state.legal_actions()))
    while seen:
        state.undo_action(-1, state.history[-1])
        assert everything(state) == seen.pop(), f"undo to move {len(state.history)} differs"
