"""Every diagnostic code is catalogued, shown by a broken file, and rendered as its golden says.

* The source tree is scanned for code strings (``"N201"`` as a Python string constant in
  any module of the rulelang, interpreter and validators packages).
* ``docs/diagnostics.md`` has a section ``### CODE — title`` with an explanation and a
  minimal example for each of them, and no section for a code that no longer exists.
* ``tests/invalid/CODE-what-is-wrong.{yaml,rules,jsonl}`` shows each code, and
  ``tests/golden/diagnostics/CODE-what-is-wrong.txt`` is what ``rulelang validate``
  prints for it. Regenerate the goldens with ``UPDATE_GOLDEN=1 python -m pytest
  tests/test_diagnostics_catalogue.py``.

A few codes are reported by a stage that an earlier one shadows, or by a situation no
file content can create; :data:`PREPARED` says how their example is run.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

import rulelang
import rulelang.interpreter
import rulelang.validators
from rulelang.validators.report import diagnostics_of, diagnostics_of_text
from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.validators.catalogue import catalogue, parse_catalogue, to_json
from helpers import assert_golden as golden_file

ROOT = Path(__file__).resolve().parent.parent
INVALID = ROOT / "tests" / "invalid"
GOLDEN = ROOT / "tests" / "golden" / "diagnostics"
DOCS = ROOT / "docs" / "diagnostics.md"
CODE = re.compile(r"[SYCNRGEW]\d{3}")
FAMILIES = {"S": "syntax", "Y": "YAML", "C": "schema", "N": "names and types", "R": "rule semantics",
            "G": "flow graph", "E": "run time", "W": "warnings"}
SHIPPED = re.compile(r"shipped games: [^;\n]*")
PADDING = "# padding to pass the size limit\n" * 40_000


# ---------------------------------------------------------------------- the scanner
def source_files() -> list[Path]:
    """Every Python module of the three packages, wherever they are installed from."""
    roots = [*rulelang.__path__, *rulelang.interpreter.__path__, *rulelang.validators.__path__]
    return sorted({p for root in roots for p in Path(root).rglob("*.py")})


def codes_in(text: str) -> set[str]:
    """The code strings of one module: string constants that are exactly a code."""
    return {node.value for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.fullmatch(node.value)}


def codes_in_source() -> dict[str, list[str]]:
    """Each code found in the source, with the modules that use it."""
    found: dict[str, list[str]] = {}
    for path in source_files():
        for code in codes_in(path.read_text(encoding="utf-8")):
            found.setdefault(code, []).append(path.name)
    return found


def catalogued() -> dict:
    """The entries of ``docs/diagnostics.md``."""
    return parse_catalogue(DOCS.read_text(encoding="utf-8"))


def broken_files() -> list[Path]:
    """The broken files (not the fixtures they use)."""
    return sorted(p for p in INVALID.iterdir() if p.is_file())


# ---------------------------------------------------------------------- running one broken file
def padded(path: Path, ref: str) -> list[Diagnostic]:
    """The file's text padded past 1 MiB, checked as an editor would send it."""
    return diagnostics_of_text(path.read_text(encoding="utf-8") + PADDING, ref)


def unreadable(path: Path, ref: str, monkeypatch) -> list[Diagnostic]:
    """The file checked while reading it fails with 'Permission denied'."""
    import rulelang.read.files as loader
    real = loader.read_limited

    def refuse(file, limit):
        if Path(file).name == path.name:
            raise loader.ReadRefused("unreadable", "Permission denied")
        return real(file, limit)
    monkeypatch.setattr(loader, "read_limited", refuse)
    return diagnostics_of(ref)


def compiled_only(path: Path, ref: str) -> list[Diagnostic]:
    """The compiler's own diagnostics, without the schema check that would report the problem first."""
    from rulelang.compile.compiler import compile_game
    from rulelang.loader import open_document
    try:
        compile_game(open_document(ref))
    except RuleError as exc:
        return list(exc.diagnostics)
    return []


def oversized_log(path: Path, ref: str, tmp_path: Path) -> list[Diagnostic]:
    """The log grown (sparsely) past the 16 MiB limit of logs."""
    from rulelang.interpreter.log import MAX_LOG_BYTES
    big = tmp_path / path.name
    big.write_bytes(path.read_bytes())
    with open(big, "r+b") as handle:
        handle.truncate(MAX_LOG_BYTES + 1)
    return diagnostics_of(str(big))


def stopped_match(path: Path, ref: str, monkeypatch) -> list[Diagnostic]:
    """The engine's diagnostic for a match its rules never end, with the engine's deal limit lowered to 20."""
    import rulelang.interpreter.game as game_module
    from rulelang.interpreter.runner import play_match
    from rulelang.loader import load_game
    monkeypatch.setattr(game_module, "MAX_MATCH_DEALS", 20)
    state, _ = play_match(load_game(ref), seed=1)
    return [state.stopped] if state.stopped else []


PREPARED = {
    "Y110": "padded", "S120": "padded", "S123": "unreadable", "E540": "oversized_log", "E554": "stopped_match",
    "R303": "compiled_only", "R304": "compiled_only", "R330": "compiled_only",
}
SIMULATED_DEALS = 3


def diagnostics_for(path: Path, monkeypatch, tmp_path) -> list[Diagnostic]:
    """What ``rulelang validate`` reports for a broken file (prepared as :data:`PREPARED` says)."""
    ref = str(path.relative_to(ROOT))
    how = PREPARED.get(path.name[:4])
    if how == "padded":
        return padded(path, ref)
    if how == "unreadable":
        return unreadable(path, ref, monkeypatch)
    if how == "compiled_only":
        return compiled_only(path, ref)
    if how == "oversized_log":
        return oversized_log(path, ref, tmp_path)
    if how == "stopped_match":
        return stopped_match(path, ref, monkeypatch)
    return diagnostics_of(ref, simulate=SIMULATED_DEALS if path.name.startswith(("E55", "W615")) else 0)


def rendered(diagnostics: list[Diagnostic]) -> str:
    """The diagnostics as validate prints them, with the checkout's path and the list of shipped games taken out."""
    text = "\n\n".join(d.render() for d in diagnostics) + "\n"
    return SHIPPED.sub("shipped games: …", text.replace(str(ROOT) + os.sep, ""))


def assert_golden(name: str, text: str) -> None:
    """Compare with ``tests/golden/diagnostics/<name>.txt``; rewrite it when UPDATE_GOLDEN=1."""
    golden_file(GOLDEN / f"{name}.txt", text)


# ---------------------------------------------------------------------- the tests
def test_the_scanner_finds_code_strings_but_not_prose_or_other_strings():
    text = 'X = Diagnostic("N201", "x")\nY = {"S110": f}\n"""Docs mention E530 in prose."""\nZ = "N2010"\n'
    assert codes_in(text) == {"N201", "S110"}


def test_every_code_in_the_source_is_catalogued():
    missing = sorted(set(codes_in_source()) - set(catalogued()))
    assert not missing, f"codes without a section in docs/diagnostics.md: {missing}"


def test_every_catalogued_code_still_exists_in_the_source():
    gone = sorted(set(catalogued()) - set(codes_in_source()))
    assert not gone, f"docs/diagnostics.md catalogues codes no module reports: {gone}"


def test_every_code_has_a_broken_file_and_a_golden_message():
    stems = {p.stem for p in broken_files()}
    for code in sorted(codes_in_source()):
        shown = [s for s in stems if s.startswith(code + "-")]
        assert shown, f"{code} has no broken file tests/invalid/{code}-*.yaml|rules|jsonl"
        assert all((GOLDEN / f"{s}.txt").is_file() for s in shown), f"{code} has no golden message"


def test_every_broken_file_is_named_after_a_code_that_exists():
    known = set(codes_in_source())
    strays = [p.name for p in broken_files() if p.name[:4] not in known or p.name[4] != "-"]
    assert not strays


def test_at_least_fifty_codes_across_every_family():
    codes = set(codes_in_source())
    assert len(codes) >= 50
    assert {code[0] for code in codes} == set(FAMILIES)


def test_every_catalogue_entry_explains_its_code_and_shows_an_example():
    text = DOCS.read_text(encoding="utf-8")
    for code, entry in catalogued().items():
        section = text.split(f"### {code} — ", 1)[1].split("\n### ", 1)[0]
        assert entry.title and len(entry.text) > 20, code
        assert "```" in section and f"tests/invalid/{code}-" in section, f"{code} has no example"


def test_the_packaged_catalogue_is_the_one_in_the_docs():
    assert (ROOT / "validators" / "catalogue.json").read_text(encoding="utf-8") == to_json(catalogued())
    assert set(catalogue()) == set(catalogued())


@pytest.mark.parametrize("path", broken_files(), ids=lambda p: p.stem)
def test_each_broken_file_reports_its_code_as_its_golden_shows(path, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    found = diagnostics_for(path, monkeypatch, tmp_path)
    assert path.name[:4] in [d.code for d in found]
    assert_golden(path.stem, rendered(found))
