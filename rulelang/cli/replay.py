"""``rulelang replay``: check a log move by move, optionally under other rules.

With ``--rules OTHER`` naming rules other than the log's own, the log is replayed under
OTHER as far as its moves stay legal there; the first move that is not is reported with
the rule that forbids it (exit 1). Whether or not it gets through, the scores after each
deal are shown as logged (the log replayed under its own rules) and as they come out under
OTHER, with the difference per seat. A different final score is then the point of the
exercise, not an error.
"""

from __future__ import annotations

import sys

from rulelang.cli import output

DIFFERENT_RESULT = "E531"


def own_game(log):
    """The log's own game, or None when it cannot be found or compiled."""
    from rulelang.diagnostics import RuleError
    from rulelang.interpreter.log import game_for_log
    try:
        return game_for_log(log)
    except RuleError:
        return None


def is_other_rules(log, game, own) -> bool:
    """Whether ``game``'s rules differ from those the log was written under (a YAML and a DSL twin do not)."""
    from rulelang.render.diff import diff_documents
    if own is not None:
        return bool(diff_documents(own.definition.document, game.definition.document))
    logged = log.header.get("digest")
    return logged is not None and logged != game.definition.digest


def deal_scores(outcome) -> list[dict]:
    """The scores after each finished deal of a replay."""
    return [d["scores"] for d in outcome.record.deals if d.get("scores")]


def compare_scores(log, game, outcome, own) -> dict:
    """Scores per deal as logged and under ``game``, the final difference per seat, and where it stopped."""
    from rulelang.interpreter.replay import replay
    logged = deal_scores(replay(log, own)) if own is not None else []
    replayed = deal_scores(outcome)
    seats = [game.seat_name(s) for s in range(game.num_players)]
    final_logged = (log.result[1].get("scores") if log.result else None) or (logged[-1] if logged else None)
    final_replayed = {s: v for s, v in zip(seats, outcome.state.scores)}
    problem = outcome.problem if outcome.problem is not None and outcome.problem.code != DIFFERENT_RESULT else None
    difference = {} if problem else \
        {s: final_replayed[s] - final_logged[s] for s in seats if final_logged and s in final_logged}
    logged_deals = log.result[1].get("deals") if log.result else len(logged)
    shown = len(replayed) if problem else max(len(logged), len(replayed))
    state = outcome.state
    return {"logged_rules": own.definition.name if own is not None else log.header.get("game"),
            "rules": game.definition.name, "seats": seats,
            "deals": [{"deal": k + 1, "logged": logged[k] if k < len(logged) else None,
                       "replayed": replayed[k] if k < len(replayed) else None} for k in range(shown)],
            "final": {"logged": final_logged, "replayed": None if problem else final_replayed,
                      "difference": difference},
            "stopped": problem.to_json() if problem else None,
            "stopped_in_deal": state.deal_number + 1 if problem else None,
            "last_trick": _trick_text(game, state.tricks.last_trick) if problem and state.tricks.last_trick else None,
            "match_over_early": state.is_terminal() and bool(logged_deals) and state.deal_number < logged_deals,
            "match_goes_on": not problem and not state.is_terminal() and log.result is not None}


def _trick_text(game, last) -> str:
    cards, winner = last
    played = " ".join(f"{game.seat_name(s)} {game.action_to_string(c)}" for s, c in cards)
    return f"{played} → {game.seat_name(winner)}"


def comparison_lines(c: dict) -> list[str]:
    """The comparison as text: a table of scores per deal, then the differences."""
    seats = c["seats"]
    width = max(9, *(len(s) + 8 for s in seats))
    lines = [""]
    if c["deals"]:
        lines += [f"Scores after each deal: logged ({c['logged_rules']}) | under {c['rules']}",
                  "deal  " + "".join(f"{s:<{width}}" for s in seats)]
    for row in c["deals"]:
        cells = [f"{_cell(row['logged'], s)} | {_cell(row['replayed'], s)}" for s in seats]
        lines.append(f"{row['deal']:<6}" + "".join(f"{cell:<{width}}" for cell in cells))
    final = c["final"]
    if final["difference"]:
        lines.append(f"final scores under {c['rules']} minus the logged ones: "
                     + "  ".join(f"{s} {_signed(v)}" for s, v in final["difference"].items()))
    if c["match_over_early"]:
        lines.append(f"under {c['rules']} the match is already over before the log's last deal")
    if c["match_goes_on"]:
        lines.append(f"under {c['rules']} nobody has won yet when the log ends: the match would go on")
    if c["stopped"]:
        stop = c["stopped"]
        lines.append(f"the log stops being legal under {c['rules']} in deal {c['stopped_in_deal']}, at line "
                     f"{stop.get('line', '?')}: {stop['message']}")
        if c["last_trick"]:
            lines.append(f"  (the trick before, under {c['rules']}: {c['last_trick']})")
    return lines


def _cell(scores: dict | None, seat: str) -> str:
    return "-" if not scores or seat not in scores else str(scores[seat])


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def replay_command(path: str, rules: str | None, as_json: bool) -> int:
    """Replay the log at ``path``; print what happened; 1 if it stopped at a problem."""
    from rulelang.interpreter.log import game_for_log, read_log
    from rulelang.interpreter.replay import replay
    log = read_log(path)
    game = game_for_log(log, rules)
    outcome = replay(log, game)
    own = own_game(log) if rules else None
    comparison = compare_scores(log, game, outcome, own) if rules and is_other_rules(log, game, own) else None
    problem = outcome.problem
    if comparison is not None and problem is not None and problem.code == DIFFERENT_RESULT:
        problem = None
    if as_json:
        return _print_json(log, outcome, problem, comparison)
    return _print_text(path, log, game, outcome, problem, comparison)


def _print_json(log, outcome, problem, comparison) -> int:
    summary = outcome.record.summary(outcome.state)
    logged = log.result[1].get("scores") if log.result else None
    payload = {"ok": problem is None, "applied": outcome.applied, "replay": summary, "logged_scores": logged,
               "problem": problem.to_json() if problem else None,
               "notes": [n.to_json() for n in outcome.notes or []]}
    if comparison is not None:
        payload["comparison"] = comparison
    output.print_json(payload)
    return 0 if problem is None else 1


def _print_text(path, log, game, outcome, problem, comparison) -> int:
    from rulelang.interpreter.narrate import narrate_match
    summary = outcome.record.summary(outcome.state)
    output.print_lines(narrate_match(summary, f"Replay of {path} under {game.definition.title}"))
    if comparison is not None:
        output.print_lines(comparison_lines(comparison))
    for note in outcome.notes or []:
        sys.stderr.write(note.render() + "\n")
    if problem is not None:
        sys.stderr.write(problem.render() + "\n")
        return 1
    verdict = f"replay ok: {outcome.applied} actions, every one legal"
    if comparison is not None:
        verdict += f" under {game.definition.name}"
    elif log.result is not None:
        verdict += "; the logged result is reproduced"
    output.print_lines([verdict])
    return 0
