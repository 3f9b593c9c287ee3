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
DECLARER, CONTRACT = "(declarer)", "(contract)"     # the course's declarer and contract, kept with its variables


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
        for course in _declarers(game, phase, after):
            _walk(game, index + 1, course, steps + [step], found)


def _declarers(game: GameDef, phase, values: dict) -> list[dict]:
    """After a phase that may name a declarer: a course with none (everyone passed; the contract played
    then, if any) and one with a declarer for each contract the game has (for a game without contracts,
    one with a declarer)."""
    if not construct(phase.kind).names_declarer or not getattr(phase, "bids", True):
        return [values]         # (an auction of announcements alone names no declarer)
    declared = [{**values, DECLARER: 0, CONTRACT: name} for name in (list(game.contracts) or [None])]
    if values.get(DECLARER) == 0:
        return declared         # a later auction may raise the contract, never take the declarer away
    return [{**values, DECLARER: -1, CONTRACT: getattr(phase, "all_pass", None)}] + declared


def may_run(game: GameDef, phase, values: dict) -> bool:
    """False only if the phase's ``when`` is known to fail with these deal variables (and declarer)."""
    if phase.when is None:
        return True
    state = stub_state(game, vars=deal_vars_of(values), declarer=values.get(DECLARER, -1),
                       contract=values.get(CONTRACT))
    result = evaluate(phase.when, state)
    return result is NOT_CONSTANT or bool(result)


def shared_values(courses: list[dict]) -> dict:
    """The values (deal variables, declarer, contract) every one of ``courses`` ends with alike."""
    if not courses:
        return {}
    return {name: value for name, value in courses[0].items() if all(c.get(name, value) == value and name in c
                                                                     for c in courses)}


def deal_vars_of(values: dict) -> dict:
    """The deal variables of a course's values (without its declarer and contract)."""
    return {name: value for name, value in values.items() if name not in (DECLARER, CONTRACT)}


def _outcomes(game: GameDef, phase, values: dict) -> list[dict]:
    """The deal variables after ``phase``: one dict per value it may store (its construct's ``outcomes``)."""
    return construct(phase.kind).outcomes(game, phase, values)


def describe(game: GameDef, values: dict) -> str:
    """Deal variables in the game's words: ``trump = hearts, dealing = cut`` (unset ones left out)."""
    parts = []
    if DECLARER in values:
        parts.append("nobody declares" if values[DECLARER] == -1 else "a seat declares")
    if values.get(CONTRACT) is not None:
        parts.append(f"the contract is {values[CONTRACT]}")
    for name, value in deal_vars_of(values).items():
        if game.deal_vars.get(name) == "suit":
            if not isinstance(value, int) or value < 0:
                continue
            value = game.deck.suits[value].name
        elif value is None:
            continue
        parts.append(f"{name} = {value}")
    return ", ".join(parts)
