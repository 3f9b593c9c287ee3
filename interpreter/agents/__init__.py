"""Agents choose actions from what their seat may know; chance policies draw chance events.

Every agent is ``agent.step(state) -> action``. :func:`make_agent` builds one by name, as
the command line does with ``--agents``: ``random``, ``heuristic`` (generic rule-based
card play, decisions by quick rollouts), ``search`` (every move judged by rollouts in
worlds drawn from what the seat knows, within a budget) and ``openspiel-ismcts``
(OpenSpiel's ISMCTS bot through the OpenSpiel adapter), with options as
``heuristic:rollouts=32``, ``search:ms=100`` / ``search:playouts=64`` or
``openspiel-ismcts:sims=100``.
"""

from __future__ import annotations

from rulelang.interpreter.agents.basic import DealError, RandomAgent, ScriptedDeal, SeededChance
from rulelang.interpreter.agents.view import describe_view

_LATER = {"HeuristicAgent": "rulelang.interpreter.agents.heuristic", "SearchAgent": "rulelang.interpreter.agents.search"}
"""The agents imported when first used (their modules and the inference take a third of `run`'s start-up)."""


def __getattr__(name: str):
    """``HeuristicAgent`` and ``SearchAgent``, imported on first use."""
    if name in _LATER:
        import importlib
        return getattr(importlib.import_module(_LATER[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _heuristic(seed: int | None = None, **options):
    from rulelang.interpreter.agents.heuristic import HeuristicAgent
    return HeuristicAgent(seed, **options)


def _search(seed: int | None = None, **options):
    from rulelang.interpreter.agents.search import SearchAgent
    return SearchAgent(seed, **options)


def openspiel_ismcts(seed: int | None = None, sims: int = 100):
    """OpenSpiel's ISMCTS bot through the OpenSpiel adapter (needs the extra ``rulelang[openspiel]``)."""
    try:
        from rulelang.adapters.openspiel import ISMCTSAgent
    except ImportError:
        raise AgentSpecError("the openspiel-ismcts agent needs OpenSpiel: pip install 'rulelang[openspiel]'") from None
    return ISMCTSAgent(seed, sims)


AGENTS = {"random": RandomAgent, "heuristic": _heuristic, "search": _search, "openspiel-ismcts": openspiel_ismcts}
OPTIONS = {"heuristic": {"rollouts": (1, 10_000), "caution": (0, 5), "listen": (0, 1), "screen": (0, 1),
                         "guided": (0, 1)},
           "search": {"ms": (1, 60_000), "playouts": (1, 100_000), "listen": (0, 1), "guided": (0, 1),
                      "caution": (0, 5), "rollouts": (1, 10_000), "solve": (0, 1),
                      "nodes": (100, 100_000_000)},
           "openspiel-ismcts": {"sims": (1, 100_000)}}
"""Each agent's options: whole numbers, with the smallest and largest value allowed."""

__all__ = ["AGENTS", "DealError", "HeuristicAgent", "RandomAgent", "ScriptedDeal", "SearchAgent", "SeededChance",
           "agent_specs", "describe_view", "make_agent"]


class AgentSpecError(ValueError):
    """An agent name or option that does not exist; the message says what does."""


def make_agent(spec: str, seed: int | None = None):
    """The agent ``spec`` names (``name``, or ``name:option=value`` with options separated by ``;``), seeded."""
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name not in AGENTS:
        raise AgentSpecError(f"no agent called '{name}'; the agents are {', '.join(AGENTS)}")
    options = {}
    for part in filter(None, (p.strip() for p in rest.split(";"))):
        key, _, value = part.partition("=")
        kinds = OPTIONS.get(name, {})
        if key not in kinds:
            known = ", ".join(kinds) or "none"
            raise AgentSpecError(f"the {name} agent has no option '{key}' (its options: {known})")
        low, high = kinds[key]
        if not value.strip().isdigit() or not low <= int(value) <= high:
            raise AgentSpecError(f"'{value}' is not a valid {key} for the {name} agent: a whole number from {low} "
                                 f"to {high}")
        options[key] = int(value)
    return AGENTS[name](seed, **options)


def agent_specs(text: str, players: int) -> list[str]:
    """One agent spec per seat from ``--agents``: one spec for every seat, or one per seat, comma-separated."""
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise AgentSpecError(f"--agents names {len(specs)} agents for {players} seats: give one, or one per seat")
    return specs
