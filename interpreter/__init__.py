"""The interpreter: runs any compiled rule file with OpenSpiel's state vocabulary."""

from rulelang.interpreter.game import Game, IllegalActionError
from rulelang.interpreter.state import CHANCE, TERMINAL, State, deserialize_state

__all__ = ["Game", "State", "IllegalActionError", "CHANCE", "TERMINAL", "deserialize_state"]
