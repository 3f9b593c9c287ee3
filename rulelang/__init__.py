"""rulelang: the rules of trick-taking card games as data, and one interpreter for them.

The public names are importable from here (``rulelang.load_game``, ``rulelang.State``, …;
see docs/api.md) and the ``rulelang`` command line is ``rulelang.cli:main``.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_PUBLIC = {
    "load_game": "rulelang.loader", "load_text": "rulelang.loader", "load_definition": "rulelang.loader",
    "shipped_games": "rulelang.loader",
    "Game": "rulelang.interpreter", "State": "rulelang.interpreter", "CHANCE": "rulelang.interpreter",
    "TERMINAL": "rulelang.interpreter", "IllegalActionError": "rulelang.interpreter",
    "deserialize_state": "rulelang.interpreter",
    "make_agent": "rulelang.interpreter.agents", "SeededChance": "rulelang.interpreter.agents",
    "ScriptedDeal": "rulelang.interpreter.agents", "play_match": "rulelang.interpreter.runner",
    "read_log": "rulelang.interpreter.log", "replay": "rulelang.interpreter.replay",
    "Diagnostic": "rulelang.diagnostics", "RuleError": "rulelang.diagnostics",
}
__all__ = sorted(_PUBLIC) + ["__version__"]


def __getattr__(name: str):
    """The public names, imported on first use so that ``import rulelang`` stays cheap."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'rulelang' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
