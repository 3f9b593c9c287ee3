"""Validating a game log (``.jsonl``): replayed move by move, every problem as a diagnostic.

A log names its rules in its header (``rules``: a rule file inside the log's folder
tree; else ``game``: a shipped game). The replay's own diagnostic comes first (E53x, E54x,
W650); when it stops at an illegal move (E530) the engine's reason is reported too,
located at the rule that forbids the move (E501-E509, E511), and when the log goes on
after the match is over (E536), the engine's E510 for the first move too many.
"""

from __future__ import annotations

from rulelang.diagnostics import Diagnostic, RuleError


def log_diagnostics(path: str) -> list[Diagnostic]:
    """Every diagnostic of the log at ``path``."""
    from rulelang.interpreter.log import game_for_log, read_log
    from rulelang.interpreter.replay import replay
    try:
        log = read_log(path)
        game = game_for_log(log)
    except RuleError as exc:
        return list(exc.diagnostics)
    outcome = replay(log, game)
    found = list(outcome.notes or [])
    if outcome.problem is not None:
        found.append(outcome.problem)
        found.extend(_reason(log, outcome))
    return found


def _entry(log, number: int) -> dict | None:
    return next((entry for line, entry in log.entries if line == number), None)


def _reason(log, outcome) -> list[Diagnostic]:
    """The engine's own diagnostic for the move a replay stopped at, when the engine has one.

    For an illegal move (E530) that is the rule that forbids it (E501-E509, E511), located
    at the rule; for a move after the end of the match (E536) it is E510, located at the move.
    """
    problem = outcome.problem
    if problem.code not in ("E530", "E536") or problem.span is None:
        return []
    entry = _entry(log, problem.span.line)
    if entry is None or entry.get("type") != "action":
        return []
    state = outcome.state
    action = state.string_to_action(str(entry.get("action", "")))
    if action is None:
        return []
    if problem.code == "E530":
        return [] if state.is_terminal() else [state.explain_illegal(action)]
    return _after_the_end(log, state, action, problem.span.line)


def _after_the_end(log, state, action: int, number: int) -> list[Diagnostic]:
    """E510, the engine's word for a move made when the match is over, at the logged move."""
    from rulelang.interpreter.game import IllegalActionError
    from rulelang.interpreter.log import at
    try:
        state.apply_checked(action)
    except IllegalActionError as exc:
        reason = exc.diagnostic
        return [Diagnostic(reason.code, reason.message, at(log, number), reason.hint)]
    return []
