"""JSON-lines game logs: writing them, reading them, and replaying them move by move.

The format is documented in ``docs/log-format.md``. A log either records every chance
event (a seeded run) or gives each deal explicitly (``{"type": "deal", "hands": …}``),
which is how people write down a disputed hand by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.interpreter.agents import DealError, ScriptedDeal
from rulelang.interpreter.game import IllegalActionError
from rulelang.interpreter.record import MatchRecord
from rulelang.interpreter.state import CHANCE
from rulelang.source import SOURCES, Span

FORMAT = "rulelang-log/1"
MAX_LOG_BYTES = 16 << 20


def header(game, seed: int | None) -> dict:
    """The first line of a log."""
    return {"type": "header", "format": FORMAT, "game": game.name, "rules": game.definition.path,
            "digest": game.definition.digest, "seed": seed,
            "seats": [game.seat_name(s) for s in range(game.num_players)], "max_deals": game.max_deals}


def result_line(state) -> dict:
    """The last line of a log: final scores and winner."""
    seat = state.game.seat_name
    return {"type": "result", "deals": state.deal_number,
            "scores": {seat(s): v for s, v in enumerate(state.scores)},
            "winner": seat(state.winner) if state.winner is not None else None}


def log_lines(game, seed: int | None, record: MatchRecord, state) -> list[dict]:
    """Every line of the log of a finished (or stopped) run."""
    lines = [header(game, seed)]
    lines.extend({"type": "action", **entry} for entry in record.actions)
    lines.append(result_line(state))
    return lines


def write_log(path: str, lines: list[dict]) -> None:
    """Write log lines as JSON lines (UTF-8)."""
    with open(path, "w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")


@dataclass
class LogFile:
    """A parsed log: its lines with their line numbers."""

    path: str
    header: dict
    entries: list[tuple[int, dict]] = field(default_factory=list)
    result: tuple[int, dict] | None = None


def read_log(path: str) -> LogFile:
    """Parse a log file; malformed lines give located diagnostics."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_LOG_BYTES:
            raise RuleError([Diagnostic("E540", f"the log is larger than {MAX_LOG_BYTES} bytes", None,
                                        "replay a shorter log")])
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleError([Diagnostic("E541", f"cannot read the log {path}: {exc}", None, "check the path")]) from None
    SOURCES.add(path, text)
    parsed = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RuleError([Diagnostic("E542", f"this line is not JSON: {exc.msg}", Span(path, number, exc.colno),
                                        "each line of a log is one JSON object")]) from None
        if not isinstance(line, dict) or "type" not in line:
            raise RuleError([Diagnostic("E543", "a log line must be an object with a \"type\"", Span(path, number, 1),
                                        "types are header, deal, action and result")])
        parsed.append((number, line))
    if not parsed or parsed[0][1].get("type") != "header":
        raise RuleError([Diagnostic("E544", "the log does not start with a header line", Span(path, 1, 1),
                                    'begin with {"type": "header", "game": "<game id>", …}')])
    log = LogFile(path, parsed[0][1])
    for number, line in parsed[1:]:
        if line["type"] == "result":
            log.result = (number, line)
        elif line["type"] in ("action", "deal"):
            log.entries.append((number, line))
        else:
            raise RuleError([Diagnostic("E543", f"unknown log line type '{line['type']}'", Span(path, number, 1),
                                        "types are header, deal, action and result")])
    return log


def at(log: LogFile, number: int, key: str = "action") -> Span:
    """The span of ``key``'s value on line ``number`` of the log."""
    text = SOURCES.line(log.path, number) or ""
    found = text.find(f'"{key}":')
    column = found + len(key) + 4 if found >= 0 else 1
    while 0 < column <= len(text) and text[column - 1] == " ":
        column += 1
    return Span(log.path, number, max(column, 1))
