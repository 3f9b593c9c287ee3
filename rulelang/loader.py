"""The pipeline from a file name (or a shipped game's name) to a running :class:`Game`.

``read_document`` parses one file (DSL or YAML by its suffix), ``resolve_document``
merges its ``extends`` chain, ``check_document`` runs the schema and the compiler and
returns every diagnostic, ``load_game`` gives a ready Game or raises RuleError.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from rulelang.diagnostics import Diagnostic, Report, RuleError
from rulelang.document import Document
from rulelang.resolve import resolve_extends

MAX_FILE_BYTES = 1 << 20
SUFFIXES = (".rules", ".yaml", ".yml")


def games_dir() -> Path:
    """The folder of the shipped rule files."""
    return Path(str(resources.files("rulelang.games")))


def shipped_games() -> list[Path]:
    """Every shipped rule file, sorted by name."""
    return sorted(p for p in games_dir().iterdir() if p.suffix in SUFFIXES)


def find_game(ref: str, relative_to: Path | None = None) -> Path | None:
    """The file ``ref`` names: a path (relative to ``relative_to`` if given) or a shipped game's name."""
    candidates = []
    if relative_to is not None:
        candidates.append(relative_to / ref)
    candidates.append(Path(ref))
    for path in candidates:
        if _is_file(path):
            return path
    for suffix in SUFFIXES:
        shipped = games_dir() / f"{ref}{suffix}"
        if _is_file(shipped):
            return shipped
    return None


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a readable file; a name the system cannot even look up is not one."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def read_document(path: Path) -> Document:
    """Parse one rule file (``.rules`` as DSL, ``.yaml``/``.yml`` as YAML), without resolving ``extends``."""
    shown = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise RuleError([Diagnostic("S120", f"the file is {size} bytes; rule files are limited to {MAX_FILE_BYTES}",
                                        None, "split the game into a base and variants")])
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RuleError([Diagnostic("S122", f"{shown} is not UTF-8 text", None, "save the file as UTF-8")]) from None
    except OSError as exc:
        raise RuleError([Diagnostic("S123", f"cannot read {shown}: {exc.strerror}", None, "check the path")]) from None
    return parse_text(text, shown)


def parse_text(text: str, path: str) -> Document:
    """Parse rule text; the syntax is chosen by the suffix of ``path`` (DSL unless .yaml/.yml)."""
    if path.endswith((".yaml", ".yml")):
        from rulelang.yamlload import load_yaml
        return load_yaml(text, path)
    from rulelang.dsl import load_dsl
    return load_dsl(text, path)


def resolve_document(doc: Document) -> Document:
    """``doc`` with its ``extends`` chain merged in."""
    def load_base(ref: str, child: Document) -> Document:
        here = Path(child.path).parent if not child.path.startswith("<") else None
        found = find_game(ref, here)
        if found is None:
            names = ", ".join(p.stem for p in shipped_games())
            raise RuleError([Diagnostic("R312", f"`extends: {ref}` names no shipped game and no file",
                                        child.span_of(("extends",)), f"shipped games: {names}")])
        return read_document(found)
    return resolve_extends(doc, load_base)


def open_document(ref: str) -> Document:
    """Find, parse and resolve the game ``ref`` (a path or a shipped name)."""
    path = find_game(ref)
    if path is None:
        names = ", ".join(p.stem for p in shipped_games())
        raise RuleError([Diagnostic("R313", f"no rule file or shipped game called '{ref}'", None,
                                    f"shipped games: {names}; or give a path to a .rules or .yaml file")])
    return resolve_document(read_document(path))


def check_document(doc: Document):
    """Schema and compile checks of a resolved document: ``(definition or None, report)``."""
    from rulelang.compiler import compile_game
    from rulelang.validators.schema import check_schema
    report = Report()
    report.extend(check_schema(doc))
    if report.has_errors:
        return None, report
    try:
        definition = compile_game(doc)
    except RuleError as exc:
        report.extend(exc.diagnostics)
        return None, report
    from rulelang.validators.checks import run_checks
    report.extend(run_checks(doc, definition))
    return definition, report


def load_definition(ref: str):
    """The compiled definition of game ``ref``; raises RuleError on any error."""
    doc = open_document(ref)
    definition, report = check_document(doc)
    report.raise_if_errors()
    return definition


def load_game(ref: str, max_deals: int | None = None):
    """A ready :class:`~rulelang.interpreter.Game` for ``ref``; raises RuleError on any error."""
    from rulelang.interpreter import Game
    return Game(load_definition(ref), max_deals=max_deals)
