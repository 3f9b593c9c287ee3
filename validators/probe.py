"""Asking compiled rules questions without playing: constant values, and values in sample situations.

* :func:`constant` runs a compiled rule on a state and a player that refuse to be read:
  if the rule still gives a value, it gives that value in every game (``when: false``,
  ``forbid: {pass: "1 == 1"}``).
* :func:`stub_state` is a fresh deal's state (the engine's own ``_reset_deal`` fills it)
  with chosen attributes overridden, for evaluating rules in a sample situation.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from rulelang.compile.ir import GameDef, Rule

NOT_CONSTANT = object()


class _Touched(Exception):
    """A probed rule tried to read the state or the player."""


def _refuse(*args, **kwargs):
    raise _Touched()


class _Untouchable:
    """A state and player stand-in: any attribute read or operation raises :class:`_Touched`."""

    def __getattr__(self, name: str):
        raise _Touched(name)


for _name in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__radd__", "__sub__",
              "__rsub__", "__mul__", "__rmul__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__",
              "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__lshift__", "__rlshift__",
              "__rshift__", "__rrshift__", "__neg__", "__invert__", "__bool__", "__index__", "__int__",
              "__hash__", "__iter__", "__len__", "__getitem__", "__contains__"):
    setattr(_Untouchable, _name, _refuse)

_NOBODY = _Untouchable()


def constant(rule: Rule | None) -> Any:
    """The value ``rule`` has in every game, or :data:`NOT_CONSTANT` if it depends on play."""
    if rule is None:
        return NOT_CONSTANT
    try:
        return rule.fn(_NOBODY, _NOBODY)
    except Exception:  # noqa: BLE001 - any failure means the value is not known before play
        return NOT_CONSTANT


def is_constant(rule: Rule | None, value: Any) -> bool:
    """True if ``rule`` has the value ``value`` in every game (``False == 0`` is not confused)."""
    found = constant(rule)
    return found is not NOT_CONSTANT and type(found) is type(value) and found == value


def stub_state(game: GameDef, **attributes) -> SimpleNamespace:
    """A state at the start of a deal of ``game`` (dealer P1), with ``attributes`` set on top."""
    from rulelang.interpreter.game import Game
    from rulelang.interpreter.state import State
    state = SimpleNamespace(game=Game(game))
    state.scores = [game.match.start] * game.players
    state.deal_number, state.counters, state.dealer = 0, dict(game.match.counters), 0
    state.__dict__.update({kind: part.copy() for kind, part in state.game.idle_parts.items()})
    State._reset_deal(state)
    state.forehand = game.forehand_offset * game.step % game.players
    for name, value in attributes.items():
        setattr(state, name, value)
    return state


def evaluate(rule: Rule, state, player=None) -> Any:
    """The value of ``rule`` in ``state``, or :data:`NOT_CONSTANT` if it fails there."""
    try:
        return rule.fn(state, player)
    except Exception:  # noqa: BLE001 - a sample situation the rule cannot handle says nothing
        return NOT_CONSTANT
