"""``rulelang replay``: check a log move by move, optionally under other rules."""

from __future__ import annotations

import sys
from pathlib import Path

from rulelang.cli import output


def game_for_log(log, rules: str | None):
    """The game a log is replayed under: ``rules`` if given, else the log's own rule file or game name."""
    from rulelang.loader import load_game
    max_deals = log.header.get("max_deals")
    if rules:
        return load_game(rules, max_deals=max_deals)
    ref = log.header.get("rules")
    if not ref or not Path(ref).is_file():
        ref = str(log.header.get("game"))
    return load_game(ref, max_deals=max_deals)


def replay_command(path: str, rules: str | None, as_json: bool) -> int:
    """Replay the log at ``path``; print what happened; 1 if it stopped at a problem."""
    from rulelang.interpreter.log import read_log
    from rulelang.interpreter.narrate import narrate_match
    from rulelang.interpreter.replay import replay
    log = read_log(path)
    game = game_for_log(log, rules)
    outcome = replay(log, game)
    summary = outcome.record.summary(outcome.state)
    logged = log.result[1].get("scores") if log.result else None
    if as_json:
        output.print_json({"ok": outcome.ok, "applied": outcome.applied, "replay": summary, "logged_scores": logged,
                           "problem": outcome.problem.to_json() if outcome.problem else None,
                           "notes": [n.to_json() for n in outcome.notes or []]})
        return 0 if outcome.ok else 1
    output.print_lines(narrate_match(summary, f"Replay of {path} under {game.definition.title}"))
    for note in outcome.notes or []:
        sys.stderr.write(note.render() + "\n")
    if outcome.problem is not None:
        sys.stderr.write(outcome.problem.render() + "\n")
        return 1
    verdict = f"replay ok: {outcome.applied} actions, every one legal"
    if logged is not None:
        verdict += "; the logged result is reproduced"
    output.print_lines([verdict])
    return 0
