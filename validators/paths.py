"""The ways one deal can go through its phases, for checks that follow a deal step by step.

A deal's course depends on the deal variables: a ``choose`` may pick any of its values,
a ``set`` stores its value, and a phase with ``when`` runs only when its condition holds
for the values chosen so far. :func:`deal_paths` enumerates these courses (at most
:data:`MAX_PATHS`); each :class:`Step` records the phase and the variables as they stand
when it starts. A condition that cannot be decided before play (it reads the cards or the
scores) is taken to hold, so every phase that may run is on some path.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.constructs import construct
from rulelang.compile.ir import GameDef
from rulelang.validators.probe import NOT_CONSTANT, evaluate, stub_state

MAX_PATHS = 256


@dataclass
class Step:
    """One phase on a path, with the deal variables as they stand when it starts."""

    index: int
    phase: object
    vars: dict


@dataclass
class DealPath:
    """One course of a deal: the phases that run, in order."""

    steps: list[Step] = field(default_factory=list)

    @property
    def final_vars(self) -> dict:
        """The deal variables after the last phase that sets one."""
        return self.steps[-1].vars if self.steps else {}


def unset_vars(game: GameDef) -> dict:
    """Every deal variable as it stands before anything is chosen."""
    return {name: -1 if type_ == "suit" else None for name, type_ in game.deal_vars.items()}


def deal_paths(game: GameDef) -> list[DealPath]:
    """The courses a deal of ``game`` can take (the first :data:`MAX_PATHS`)."""
    found: list[DealPath] = []
    _walk(game, 0, unset_vars(game), [], found)
    return found


def _walk(game: GameDef, index: int, values: dict, steps: list[Step], found: list[DealPath]) -> None:
    if len(found) >= MAX_PATHS:
        return
    if index >= len(game.phases):
        found.append(DealPath(list(steps)))
        return
    phase = game.phases[index]
    if phase is None or not may_run(game, phase, values):
        _walk(game, index + 1, values, steps, found)
        return
    step = Step(index, phase, dict(values))
    for after in _outcomes(game, phase, values):
        _walk(game, index + 1, after, steps + [step], found)


def may_run(game: GameDef, phase, values: dict) -> bool:
    """False only if the phase's ``when`` is known to fail with these deal variables."""
    if phase.when is None:
        return True
    result = evaluate(phase.when, stub_state(game, vars=dict(values)))
    return result is NOT_CONSTANT or bool(result)


def _outcomes(game: GameDef, phase, values: dict) -> list[dict]:
    """The deal variables after ``phase``: one dict per value it may store (its construct's ``outcomes``)."""
    return construct(phase.kind).outcomes(game, phase, values)


def describe(game: GameDef, values: dict) -> str:
    """Deal variables in the game's words: ``trump = hearts, dealing = cut`` (unset ones left out)."""
    parts = []
    for name, value in values.items():
        if game.deal_vars.get(name) == "suit":
            if not isinstance(value, int) or value < 0:
                continue
            value = game.deck.suits[value].name
        elif value is None:
            continue
        parts.append(f"{name} = {value}")
    return ", ".join(parts)
