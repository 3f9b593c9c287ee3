"""Expert positions in card names (tests/positions/*.yaml): the move every strong player makes, or moves none
would make, each with its reason (issue 42, item 3). The heuristic must solve at least 80 % of them;
``python benchmarks/positions.py`` measures the search agent too."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from helpers import Table
from rulelang.interpreter.agents import make_agent
from rulelang.loader import load_game

FOLDER = Path(__file__).parent / "positions"
HEURISTIC_SHARE = 0.8


def positions() -> list[tuple[str, dict]]:
    """Every position of every file, with its game."""
    found = []
    for path in sorted(FOLDER.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        found.extend((data["game"], position) for position in data["positions"])
    return found


def set_up(game_name: str, position: dict):
    """The state of ``position``: its deal by name, its moves made; the seat to act must be a player."""
    game = load_game(game_name, max_deals=1)
    t = Table(game, position["hands"], talon=position.get("talon"), dealer=position.get("dealer", "P1"))
    t.do(*position.get("moves", []))
    assert t.state.current_player() >= 0, position["name"]
    return t.state


def answer(state, agent) -> tuple[object, int]:
    """The agent's move in ``state``; where it says a word before its card (Re, Kontra), that word is made
    and the card it then plays is its answer. Returns the state the move is made in and the move."""
    move = agent.step(state)
    while state.step is not None and state.step.kind == "tricks" and move >= state.game.num_cards:
        state = state.clone()
        state.apply_checked(move)
        move = agent.step(state)
    return state, move


def solved(state, position: dict, move: int) -> bool:
    """Whether ``move`` is one of the position's good moves, or none of its bad ones."""
    name = state.action_to_string(move)
    if "good" in position:
        return name in position["good"]
    return name not in position["bad"]


@pytest.mark.parametrize("game_name, position", positions(), ids=[p["name"] for _, p in positions()])
def test_every_position_is_well_formed(game_name, position):
    state = set_up(game_name, position)
    named = set(position.get("good", [])) | set(position.get("bad", []))
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert named and named <= legal, f"{named - legal} not legal; legal: {sorted(legal)}"
    assert ("good" in position) != ("bad" in position) and position["reason"].strip()
    assert "good" in position or legal - named, "every legal move is bad"


def test_the_heuristic_solves_four_positions_in_five():
    found = positions()
    missed = []
    for game_name, position in found:
        state, move = answer(set_up(game_name, position), make_agent("heuristic", 0))
        if not solved(state, position, move):
            missed.append(f"{position['name']}: played {state.action_to_string(move)}")
    assert len(missed) <= (1 - HEURISTIC_SHARE) * len(found), "\n".join(missed)
