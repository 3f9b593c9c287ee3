"""Finding and reading rule files: the shipped games, the files a reference may name, one file read
into a document (DSL or YAML by its suffix) and its ``extends`` chain resolved.

Every file opened is one the user named, a shipped game, or one an ``extends`` or a log's
``rules`` names inside the referring file's own folder tree or a folder allowed by
:func:`allow_paths`; each is read with the size bound of :mod:`rulelang.read.safeio`.
"""

from __future__ import annotations

import difflib
import re
from importlib import resources
from pathlib import Path

from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.read.document import Document
from rulelang.read.resolve import resolve_extends
from rulelang.read.safeio import NOT_REGULAR, NOT_UTF8, TOO_LARGE, ReadRefused, read_limited
from rulelang.read.source import Span

MAX_FILE_BYTES = 1 << 20
SUFFIXES = (".rules", ".yaml", ".yml")
SHIPPED_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
ALLOWED_ROOTS: tuple[Path, ...] = ()


def games_dir() -> Path:
    """The folder of the shipped rule files."""
    return Path(str(resources.files("rulelang.games")))


def shipped_games() -> list[Path]:
    """Every shipped rule file, sorted by name."""
    return sorted(p for p in games_dir().iterdir() if p.suffix in SUFFIXES)


def find_game(ref: str) -> Path | None:
    """The file ``ref`` names on the command line: a path the user gave, or a shipped game's name."""
    if _exists(Path(ref)):
        return Path(ref)
    return shipped_game(ref)


def shipped_game(name: str) -> Path | None:
    """The shipped rule file called ``name`` (without its suffix), or None."""
    if not SHIPPED_NAME.fullmatch(name):
        return None
    for suffix in SUFFIXES:
        shipped = games_dir() / f"{name}{suffix}"
        if _exists(shipped):
            return shipped
    return None


def allow_paths(roots: list[str] | tuple[str, ...]) -> None:
    """Let references in rule files and logs reach files under ``roots`` too (``--allow-path``)."""
    global ALLOWED_ROOTS
    ALLOWED_ROOTS = tuple(Path(root).resolve() for root in roots)


def find_reference(ref: str, referrer: str, span: Span | None, key: str) -> Path | None:
    """The rule file a rule file or log at ``referrer`` names with ``ref`` (its ``extends``, a log's ``rules``).

    Only rule files are opened: a shipped game's name, or a path with a rule file's suffix
    inside the referring file's own folder tree (or under a root given with ``--allow-path``).
    None when ``ref`` names nothing; RuleError (R314, R315) when it names a file it may not.
    """
    if SHIPPED_NAME.fullmatch(ref):
        return shipped_game(ref)
    here = Path(referrer).parent if not referrer.startswith("<") else Path.cwd()
    candidate = here / ref
    if candidate.suffix not in SUFFIXES:
        raise RuleError([Diagnostic("R315", f"`{key}: {ref}` does not name a rule file", span,
                                    "rule files end in .rules, .yaml or .yml; or name a shipped game")])
    roots = (_resolved(here),) + ALLOWED_ROOTS + (_resolved(games_dir()),)
    target = _resolved(candidate)
    if not any(target == root or root in target.parents for root in roots):
        raise RuleError([Diagnostic("R314", f"`{key}: {ref}` lies outside the folder of the file that names it",
                                    span, "keep the base beside the variant (or in a folder below it), name a "
                                    "shipped game, or allow the folder with --allow-path DIR")])
    return candidate if _exists(candidate) else None


def _resolved(path: Path) -> Path:
    """``path`` made absolute with every symbolic link followed, as far as the system allows."""
    try:
        return path.resolve()
    except (OSError, ValueError, RuntimeError):
        return path.absolute()


def _exists(path: Path) -> bool:
    """Whether something exists at ``path`` (reading it says what, if it is no regular file)."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def read_document(path: Path, referenced_at: Span | None = None) -> Document:
    """Parse one rule file (``.rules`` as DSL, ``.yaml``/``.yml`` as YAML), without resolving ``extends``.

    Only regular files with a rule file's suffix are read, and never more than
    :data:`MAX_FILE_BYTES`; ``referenced_at`` is where another file named this one.
    """
    shown = str(path)
    if path.suffix not in SUFFIXES:
        raise RuleError([Diagnostic("R315", f"{shown} is not a rule file", referenced_at,
                                    "rule files end in .rules, .yaml or .yml")])
    try:
        text = read_limited(path, MAX_FILE_BYTES)
    except ReadRefused as refused:
        raise RuleError([_refusal(refused, shown, referenced_at)]) from None
    return parse_text(text, shown)


def _refusal(refused: ReadRefused, shown: str, span: Span | None) -> Diagnostic:
    if refused.reason == TOO_LARGE:
        return Diagnostic("S120", f"{shown}: {refused.detail}; rule files are limited to {MAX_FILE_BYTES}",
                          span, "split the game into a base and variants")
    if refused.reason == NOT_UTF8:
        return Diagnostic("S122", f"{shown} is not UTF-8 text", span, "save the file as UTF-8")
    if refused.reason == NOT_REGULAR:
        return Diagnostic("S124", f"{shown} is not a rule file: {refused.detail}", span,
                          "name a .rules or .yaml file")
    return Diagnostic("S123", f"cannot read {shown}: {refused.detail}", span, "check the path")


def parse_text(text: str, path: str) -> Document:
    """Parse rule text; the syntax is chosen by the suffix of ``path`` (DSL unless .yaml/.yml)."""
    if path.endswith((".yaml", ".yml")):
        from rulelang.read.yamlload import load_yaml
        return load_yaml(text, path)
    from rulelang.read.dsl import load_dsl
    return load_dsl(text, path)


def resolve_document(doc: Document) -> Document:
    """``doc`` with its ``extends`` chain merged in."""
    def load_base(ref: str, child: Document) -> Document:
        span = child.span_of(("extends",))
        found = find_reference(ref, child.path, span, "extends")
        if found is None:
            raise RuleError([Diagnostic("R312", f"`extends: {ref}` names no shipped game and no file",
                                        span, _guess_game(ref) + f"shipped games: {_shipped_names()}")])
        return read_document(found, span)
    return resolve_extends(doc, load_base)


def open_document(ref: str) -> Document:
    """Find, parse and resolve the game ``ref`` (a path or a shipped name)."""
    path = find_game(ref)
    if path is None:
        raise RuleError([Diagnostic("R313", f"no rule file or shipped game called '{ref}'", None,
                                    _guess_game(ref) + f"shipped games: {_shipped_names()}; or give a path to a "
                                    ".rules or .yaml file")])
    return resolve_document(read_document(path))


def _shipped_names() -> str:
    return ", ".join(sorted({p.stem for p in shipped_games()}))


def _guess_game(ref: str) -> str:
    """``did you mean 'x'? `` for the shipped game closest to ``ref``, or nothing."""
    close = difflib.get_close_matches(ref, sorted({p.stem for p in shipped_games()}), n=1, cutoff=0.75)
    return f"did you mean '{close[0]}'? " if close else ""


_LISTED: dict[tuple, list[dict]] = {}
"""The last :func:`shipped_list`, by the shipped files' names, sizes and times (reading them all takes seconds)."""


def shipped_list() -> list[dict]:
    """Each shipped game once: name, title, players, the game it extends, and its files (first one read)."""
    paths = shipped_games()
    key = tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in paths)
    if key not in _LISTED:
        _LISTED.clear()
        _LISTED[key] = _list_games(paths)
    return [dict(game, files=list(game["files"])) for game in _LISTED[key]]


def _list_games(paths) -> list[dict]:
    """The entries of :func:`shipped_list`, read from the files."""
    forms: dict[str, list] = {}
    for path in paths:
        forms.setdefault(path.stem, []).append(path)
    games = []
    for name, paths in sorted(forms.items()):
        doc = read_document(paths[0])
        players = resolve_document(doc).data.get("players") if doc.data.get("extends") else doc.data.get("players")
        games.append({"name": name, "title": doc.data.get("title", ""), "extends": doc.data.get("extends"),
                      "players": players, "files": [p.name for p in paths]})
    return games
