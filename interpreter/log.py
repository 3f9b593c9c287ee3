"""JSON-lines game logs: writing them, reading them, and replaying them move by move.

The format is documented in ``docs/log-format.md``. A log either records every chance
event (a seeded run) or gives each deal explicitly (``{"type": "deal", "hands": …}``),
which is how people write down a disputed hand by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from rulelang.interpreter.words import winner_name
from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.interpreter.game import MAX_MATCH_DEALS
from rulelang.interpreter.record import MatchRecord
from rulelang.read.safeio import TOO_LARGE, ReadRefused, read_limited
from rulelang.read.source import SOURCES, Span, too_deep

FORMAT = "rulelang-log/1"
MAX_LOG_BYTES = 16 << 20


def header(game, seed: int | None, log_path: str | None = None) -> dict:
    """The first line of a log; its ``rules`` is relative to the log's folder when the file lies inside it."""
    return {"type": "header", "format": FORMAT, "game": game.name, "rules": rules_ref(game, log_path),
            "digest": game.definition.digest, "seed": seed,
            "seats": [game.seat_name(s) for s in range(game.num_players)], "max_deals": game.max_deals}


def rules_ref(game, log_path: str | None) -> str:
    """How a log at ``log_path`` names its rule file: relative to the log's folder if inside it, else absolute."""
    rules = game.definition.path
    if log_path is None or rules.startswith("<"):
        return rules
    rules_file, folder = Path(rules).resolve(), Path(log_path).resolve().parent
    return rules_file.relative_to(folder).as_posix() if folder in rules_file.parents else str(rules_file)


def result_line(state) -> dict:
    """The last line of a log: final scores and winner."""
    seat = state.game.seat_name
    return {"type": "result", "deals": state.deal_number,
            "scores": {seat(s): v for s, v in enumerate(state.scores)},
            "winner": winner_name(state), "winners": [seat(s) for s in state.winners]}


def log_lines(game, seed: int | None, record: MatchRecord, state, log_path: str | None = None) -> list[dict]:
    """Every line of the log of a finished (or stopped) run that is written to ``log_path``."""
    lines = [header(game, seed, log_path)]
    lines.extend({"type": "action", **entry} for entry in record.actions)
    lines.append(result_line(state))
    return lines


def write_log(path: str, lines: list[dict]) -> None:
    """Write log lines as JSON lines (UTF-8) to the file ``path``."""
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        write_lines(out, lines)


def write_lines(out, lines: list[dict]) -> None:
    """Write log lines as JSON lines to the open text stream ``out``."""
    for line in lines:
        out.write(json.dumps(line, ensure_ascii=False) + "\n")


@dataclass
class LogFile:
    """A parsed log: its header and its lines with their line numbers."""

    path: str
    header: dict
    entries: list[tuple[int, dict]] = field(default_factory=list)
    result: tuple[int, dict] | None = None
    header_line: int = 1


def read_log(path: str) -> LogFile:
    """Parse a log file; malformed lines give located diagnostics.

    Only a regular file is read, and never more than :data:`MAX_LOG_BYTES`. Lines are
    split at newlines alone: U+2028 and U+0085 are characters a JSON string may hold.
    """
    try:
        text = read_limited(path, MAX_LOG_BYTES)
    except ReadRefused as refused:
        if refused.reason == TOO_LARGE:
            raise RuleError([Diagnostic("E540", f"the log is larger than {MAX_LOG_BYTES} bytes", None,
                                        "replay a shorter log")]) from None
        raise RuleError([Diagnostic("E541", f"cannot read the log {path}: {refused.detail}", None,
                                    "name a log file written by `rulelang run --log` or by hand")]) from None
    SOURCES.add(path, text)
    parsed = [(number, parse_line(raw, path, number)) for number, raw in enumerate(text.split("\n"), start=1)
              if raw.strip()]
    if not parsed or parsed[0][1].get("type") != "header":
        raise RuleError([Diagnostic("E544", "the log does not start with a header line", Span(path, 1, 1),
                                    'begin with {"type": "header", "game": "<game id>", …}')])
    log = LogFile(path, parsed[0][1], header_line=parsed[0][0])
    for number, line in parsed[1:]:
        _add_line(log, number, line)
    if not log.entries:
        raise RuleError([Diagnostic("E545", "the log has no moves: nothing follows its header",
                                    Span(path, log.header_line, 1),
                                    "a log records the deals and actions of a game after its header")])
    return log


def _add_line(log: LogFile, number: int, line: dict) -> None:
    """File one line of the log under its type."""
    kind = line["type"]
    if kind in ("action", "deal") and log.result is None:
        log.entries.append((number, line))
    elif kind in ("action", "deal", "result") and log.result is not None:
        raise RuleError([Diagnostic("E546", "the log goes on after its result line", Span(log.path, number, 1),
                                    "a log ends with one result line", notes=[
                                        ("the result line", Span(log.path, log.result[0], 1))])])
    elif kind == "result":
        log.result = (number, line)
    else:
        raise RuleError([Diagnostic("E543", f"unknown log line type {shown_value(kind)}", Span(log.path, number, 1),
                                    "types are header, deal, action and result")])


def parse_line(raw: str, path: str, number: int) -> dict:
    """One line of a log as a JSON object, within the limits of depth, length and number size."""
    deep = too_deep(raw, MAX_LINE_NESTING)
    if deep is not None:
        raise RuleError([Diagnostic("E542", f"this line nests deeper than {MAX_LINE_NESTING} levels",
                                    Span(path, number, deep + 1), "log lines are flat objects of lists and names")])
    try:
        line = json.loads(raw, parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise RuleError([Diagnostic("E542", f"this line is not JSON: {exc.msg}", Span(path, number, exc.colno),
                                    "each line of a log is one JSON object")]) from None
    except ValueError as exc:
        raise RuleError([Diagnostic("E542", f"this line is not JSON a log may hold: {exc}", Span(path, number, 1),
                                    "numbers in a log are scores, seeds and counts")]) from None
    if not isinstance(line, dict) or "type" not in line:
        raise RuleError([Diagnostic("E543", "a log line must be an object with a \"type\"", Span(path, number, 1),
                                    "types are header, deal, action and result")])
    return line


MAX_LINE_NESTING = 16
MAX_NUMBER_DIGITS = 30


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number of {len(text)} digits (at most {MAX_NUMBER_DIGITS})")
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS + 10:
        raise ValueError(f"a number of {len(text)} characters")
    return float(text)


def _no_constant(text: str):
    raise ValueError(f"{text} is not a number")


def shown_value(value) -> str:
    """A log value as a diagnostic quotes it: short and on one line."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "…"


def game_for_log(log: LogFile, rules: str | None = None):
    """The game a log is replayed under: ``rules`` if given (the user named it), else the log's own.

    The log's own rules are its header's ``rules`` (a rule file inside the log's folder tree,
    see :func:`~rulelang.loader.find_reference`), else its ``game``, which must be a shipped game.
    """
    from rulelang.loader import find_reference, load_game, shipped_game, shipped_games
    max_deals = log.header.get("max_deals")
    if not isinstance(max_deals, int) or isinstance(max_deals, bool) or not 1 <= max_deals <= MAX_MATCH_DEALS:
        max_deals = None
    if rules:
        return load_game(rules, max_deals=max_deals)
    ref = log.header.get("rules")
    found = find_reference(ref, log.path, at(log, log.header_line, "rules"), "rules") \
        if isinstance(ref, str) and ref else None
    name = log.header.get("game")
    found = found or (shipped_game(name) if isinstance(name, str) else None)
    if found is None:
        names = ", ".join(sorted({p.stem for p in shipped_games()}))
        raise RuleError([Diagnostic("R313", f"the log's game {shown_value(name)} is no shipped game, and its rules "
                                    "name no rule file beside the log", at(log, log.header_line, "game"),
                                    f"replay it with --rules FILE; shipped games: {names}")])
    return load_game(str(found), max_deals=max_deals)


def at(log: LogFile, number: int, key: str = "action") -> Span:
    """The span of ``key``'s value on line ``number`` of the log."""
    text = SOURCES.line(log.path, number) or ""
    found = text.find(f'"{key}":')
    column = found + len(key) + 4 if found >= 0 else 1
    while 0 < column <= len(text) and text[column - 1] == " ":
        column += 1
    return Span(log.path, number, max(column, 1))
