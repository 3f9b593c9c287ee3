"""The lobby: the games a table can be made for, and rule files uploaded by the people at the server.

Shipped games are listed with title, player count, the game they vary and the summary
``rulelang explain`` opens with. An upload goes through every check ``rulelang validate``
runs, with the same limits on size, nesting, aliases and evaluation; its diagnostics come
back with line, column, the source line and a hint, and only a file without errors is kept.
"""

from __future__ import annotations

import re
import time
from functools import lru_cache

from rulelang.diagnostics import Diagnostic, RuleError

UPLOAD_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._ -]{0,80}\.(rules|yaml|yml)")
AGENT_CHOICES = ("random", "heuristic", "search")
"""The agents a seat can be given in the lobby."""


class LobbyError(Exception):
    """A request the lobby cannot carry out; the message says why, in words for the person who sent it."""


@lru_cache(maxsize=1)
def shipped() -> tuple[dict, ...]:
    """Every shipped game: its name, title, players, the game it extends, and a summary of its rules."""
    from rulelang.read.files import shipped_list
    from rulelang.loader import open_document
    games = []
    for entry in shipped_list():
        about = open_document(entry["name"]).data.get("about") or {}
        summary = about.get("summary") if isinstance(about, dict) else None
        games.append({"ref": entry["name"], "title": entry["title"], "players": entry["players"],
                      "extends": entry["extends"], "summary": str(summary or "").strip()})
    return tuple(games)


def is_shipped(ref: str) -> bool:
    """True when ``ref`` is a shipped game's name."""
    return any(game["ref"] == ref for game in shipped())


def diagnostic_view(diagnostic: Diagnostic, renames: tuple[tuple[str, str], ...] = (),
                    rendered: str | None = None) -> dict:
    """A diagnostic as a page shows it: its JSON form and the rendered text with the source line and caret,
    naming rule files as people know them: each ``(stored, shown)`` of ``renames`` (an upload's stored path by
    the name it came with, a folder of the server by nothing) replaced in turn."""
    seen = {**diagnostic.to_json(), "text": diagnostic.render() if rendered is None else rendered}
    return _renamed(seen, renames)


def _renamed(value, renames: tuple[tuple[str, str], ...]):
    """``value`` (JSON: strings, lists, mappings) with every ``stored`` text replaced by its ``shown`` name, in
    every string it holds — the message and hint as well as the rendered text, so no server path is shown."""
    if isinstance(value, str):
        for stored, shown in renames:
            value = value.replace(stored, shown)
        return value
    if isinstance(value, list):
        return [_renamed(item, renames) for item in value]
    if isinstance(value, dict):
        return {key: _renamed(item, renames) for key, item in value.items()}
    return value


def check_upload(store, name: str, text: str, checker=None, renames: tuple = (), owner: str = "") -> dict:
    """Check an uploaded rule file as ``rulelang validate`` checks a file; ``{"ok", "ref", "title", "players",
    "diagnostics"}``. Only a file without errors is kept (``ref`` names it then). With a ``checker``
    (:class:`~rulelang.web.checks.Checker`) the check runs in a worker process within its time limit
    (:class:`~rulelang.web.checks.CheckRefused` otherwise); the server's paths in what is shown are replaced
    as ``renames`` says, the stored file by the name it came with. The upload is ``owner``'s, seen by them alone
    until they publish it."""
    if not UPLOAD_NAME.fullmatch(name or ""):
        raise LobbyError("name the file like my-game.rules or my-game.yaml (letters, digits, '-', '_', '.')")
    path = store.upload_path(text, "." + name.rsplit(".", 1)[1])
    path.write_text(text, encoding="utf-8")
    try:
        found, (title, players) = checker.check(str(path), text) if checker is not None else _check_here(path, text)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    shown = [diagnostic_view(d, ((str(path), name), *renames), rendered) for d, rendered in found]
    if any(d.is_error for d, _ in found):
        path.unlink(missing_ok=True)
        return {"ok": False, "ref": None, "title": None, "players": None, "diagnostics": shown}
    ref = store.save_upload(path, (name, title or name, players), time.time(), owner)
    return {"ok": True, "ref": ref, "title": title or name, "players": players, "diagnostics": shown}


def _check_here(path, text: str) -> tuple[list, tuple]:
    """The check of :func:`check_upload` in this process (no time limit)."""
    from rulelang.validators.report import diagnostics_of
    found = diagnostics_of(str(path))
    about = (None, None) if any(d.is_error for d in found) else about_text(text, str(path))
    return [(d, d.render()) for d in found], about


def about_text(text: str, path: str) -> tuple[str | None, int | None]:
    """The title and player count of a rule text that passed every check."""
    from rulelang.loader import parse_text, resolve_document
    try:
        data = resolve_document(parse_text(text, path)).data
    except RuleError:
        return None, None
    players = data.get("players")
    return str(data.get("title") or data.get("game") or "") or None, players if isinstance(players, int) else None


def load_for_table(store, ref: str, deals: int | None):
    """The game a table is made for: a shipped game's name or an upload's reference."""
    from rulelang.loader import load_game
    if ref.startswith("upload:"):
        path = store.upload_file(ref)
        if path is None:
            raise LobbyError(f"no uploaded rule file '{ref}' on this server; upload it again")
        return load_game(str(path), max_deals=deals)
    if not is_shipped(ref):
        raise LobbyError(f"no shipped game called '{ref}'; choose one from the list")
    return load_game(ref, max_deals=deals)


MAX_NAME = 30


def seat_names(value, players: int) -> list[str]:
    """The people's names of a new-table request (optional): one per seat, each at most :data:`MAX_NAME`
    printable characters; an empty name leaves the seat called by its number."""
    if value is None:
        return [""] * players
    if not isinstance(value, list) or len(value) != players or not all(isinstance(v, str) for v in value):
        raise LobbyError(f"give one name for each of the {players} seats, or none")
    names = [" ".join(v.split()) for v in value]
    for name in names:
        if len(name) > MAX_NAME or not name.isprintable():
            raise LobbyError(f"a name is at most {MAX_NAME} printable characters: {name[:MAX_NAME]!r}…")
    return names


def seat_kinds(value, players: int) -> list[str]:
    """The seat choices of a new-table request, checked: one per seat, each a person or a known agent."""
    from rulelang.interpreter.agents import AgentSpecError, make_agent
    if not isinstance(value, list) or len(value) != players:
        raise LobbyError(f"choose who sits in each of the {players} seats")
    kinds = []
    for kind in value:
        if kind != "person":
            if not isinstance(kind, str) or kind.partition(":")[0] not in AGENT_CHOICES:
                raise LobbyError(f"a seat is a person or one of the agents {', '.join(AGENT_CHOICES)}, not {kind!r}")
            try:
                make_agent(kind, 0)
            except AgentSpecError as exc:
                raise LobbyError(str(exc)) from None
        kinds.append(kind)
    if "person" not in kinds:
        raise LobbyError("at least one seat must be a person")
    return kinds
