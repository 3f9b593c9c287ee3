"""``rulelang fmt``: a rule file in canonical layout or in the other syntax, its comments kept.

``--check`` prints nothing and exits 1 when the file differs from its canonical layout
(as a CI step would use it); ``--in-place`` rewrites the file, and only in its own
syntax, since a ``.rules`` file rewritten as YAML would no longer be what its name says.
``--upgrade`` also renames the file's names that the language has taken since it was written
(:mod:`rulelang.read.upgrade`, warning W621).
"""

from __future__ import annotations

import sys
from pathlib import Path

from rulelang.cli.args import UsageError

SYNTAX = {".rules": "rules", ".yaml": "yaml", ".yml": "yaml"}


def formatted(path: Path, to: str, upgrade: bool = False) -> tuple[str, str]:
    """(the file's text, the file printed in syntax ``to`` with its comments; ``upgrade``: its names the language
    took since renamed)."""
    from rulelang.render.fmt import to_rules, to_yaml
    from rulelang.render.fmt_comments import collect_comments
    from rulelang.loader import read_document
    from rulelang.read.source import SOURCES
    doc = read_document(path)
    text = SOURCES.text(doc.path)
    comments = collect_comments(text, doc)
    data = doc.data
    if upgrade:
        from rulelang.read.upgrade import upgraded
        data = upgraded(data)
    return text, to_yaml(data, comments) if to == "yaml" else to_rules(data, comments)


def fmt_command(ref: str, to: str | None, check: bool, in_place: bool, upgrade: bool = False) -> int:
    """Print, check (exit 1 if not formatted) or rewrite the rule file ``ref`` (``upgrade``: see the module)."""
    from rulelang.diagnostics import Diagnostic, RuleError
    from rulelang.loader import find_game
    path = find_game(ref)
    if path is None:
        raise RuleError([Diagnostic("R313", f"no rule file called '{ref}'", None, "give a path")])
    own = SYNTAX.get(path.suffix, "rules")
    to = to or own
    if in_place and to != own:
        raise UsageError(f"--in-place keeps a file in its own syntax; {path.name} is {own}, not {to}")
    text, printed = formatted(path, to, upgrade)
    if check:
        if printed != text:
            sys.stderr.write(f"{path}: not formatted; `rulelang fmt --in-place {path}` formats it\n")
            return 1
        return 0
    if in_place:
        if printed != text:
            path.write_text(printed, encoding="utf-8")
        return 0
    sys.stdout.write(printed)
    return 0
