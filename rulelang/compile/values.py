"""The expression language's value types, and the error an expression raises while a game runs.

Every stage that types or runs expressions reads these: the compiler (``exprcompile``), the
built-in ``functions``, the generated code's helpers (``coderuntime``) and the engines.
"""

from __future__ import annotations

from rulelang.diagnostics import Diagnostic
from rulelang.read.source import Span

INT, BOOL, SEAT, SEATS, SUIT, CARD, CARDS, NAME, SCORES, NONE = (
    "int", "bool", "seat", "seats", "suit", "card", "cards", "name", "scores", "none")
SUITS, INTS = "suits", "ints"           # domains of aggregates only: the suits, a run of whole numbers

TYPE_WORDS = {
    INT: "a whole number", BOOL: "a condition (true or false)", SEAT: "a seat", SEATS: "a set of seats",
    SUIT: "a suit", CARD: "a card", CARDS: "a set of cards", NAME: "an option name", SCORES: "the scores of all seats",
    NONE: "none", SUITS: "the suits (a domain for `for`)", INTS: "a run of numbers (a domain for `for`)",
}

MAX_INT = 10 ** 12


class EvalError(Exception):
    """An expression failed while a game ran (for example a division by zero)."""

    def __init__(self, message: str, span: Span | None):
        super().__init__(message)
        self.span = span


class NoLegalAction(EvalError):
    """A state that is not finished in which the seat to act has no legal action (E550), at the phase."""


NO_ACTION_HINT = "check what the seat holds at this point: earlier phases may have left its hand empty"


def failed_rule(exc: EvalError) -> Diagnostic:
    """E553 for a rule that could not be worked out while a game was played, at the rule; E550 for a seat
    left with no legal action, at its phase."""
    if isinstance(exc, NoLegalAction):
        return Diagnostic("E550", str(exc), exc.span, NO_ACTION_HINT)
    return Diagnostic("E553", f"a rule failed while the game was played: {exc}", exc.span,
                      "make sure the expression has a value in every situation a deal can reach; "
                      "`rulelang validate --simulate N FILE` finds such rules before play")
