"""Hostile and broken input: whatever a file holds, validating it gives diagnostics, never a crash.

Hypothesis feeds the whole validate pipeline (``rulelang.cli.validate.diagnostics_of`` on
a temporary file) with arbitrary text and with mutations of every shipped game: bytes
replaced, lines deleted, duplicated or swapped, values of two ``key: value`` lines
swapped, numbers replaced by extreme ones. Only :class:`Diagnostic` objects may come out,
and each input must be done within a limit of CPU time that interrupts an input that would
otherwise run on. The limit counts the processor time this process spends, not the time on
the clock, so a busy machine cannot break the test (Hypothesis' own deadline is off).

Inputs that once crashed the pipeline are kept as plain regression tests at the end.
"""

from __future__ import annotations

import os

import re
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulelang.cli.validate import diagnostics_of
from rulelang.diagnostics import Diagnostic
from rulelang.loader import shipped_games
from helpers import ROOT, copy_fixtures, is_variant, write_game

SHIPPED = shipped_games() + [ROOT / "examples" / "re-and-kontra.rules"]   # and constructs no shipped game uses yet
EXTREMES = ["0", "-1", "1", "33", "64", "65", "1000000", "99999999999999999999", "0 / 0", "true", "none", "[]", "{}",
            '""', "x", "-", "~", "&a", "*a"]
LIMIT_SECONDS = 120
"""CPU seconds after which an input counts as hung: a guard against a hang, not a measure of speed (Doppelkopf,
the largest shipped game, validates in about 2; speed is measured in benchmarks/)."""
FUZZ = settings(max_examples=int(os.environ.get("RULELANG_FUZZ_EXAMPLES", 20)), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

class TookTooLong(Exception):
    """An input kept the pipeline busy past :data:`LIMIT_SECONDS` of CPU time."""


def _interrupt(signum, frame):
    raise TookTooLong(f"validating one input took more than {LIMIT_SECONDS} s of CPU time")


@contextmanager
def time_limit():
    """Interrupt the pipeline after :data:`LIMIT_SECONDS` of this process's CPU time (``ITIMER_PROF``)."""
    previous = signal.signal(signal.SIGPROF, _interrupt)
    signal.setitimer(signal.ITIMER_PROF, LIMIT_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def validate_text(tmp_path: Path, text: str, suffix: str) -> list[Diagnostic]:
    """Validate ``text`` as a file with ``suffix``: only diagnostics may come out, within the time limit."""
    path = tmp_path / f"fuzzed{suffix}"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    with time_limit():
        found = diagnostics_of(str(path))
    assert all(isinstance(d, Diagnostic) and d.code for d in found)
    return found


# ---------------------------------------------------------------------- mutations
def replace_bytes(text: str, at: int, new: str) -> str:
    """``text`` with the character at ``at`` (wrapped round) replaced by ``new``."""
    if not text:
        return new
    i = at % len(text)
    return text[:i] + new + text[i + 1:]


def delete_line(lines: list[str], at: int) -> list[str]:
    """``lines`` without line ``at`` (wrapped round)."""
    return lines[:at % len(lines)] + lines[at % len(lines) + 1:] if lines else lines


def duplicate_line(lines: list[str], at: int) -> list[str]:
    """``lines`` with line ``at`` (wrapped round) twice."""
    return lines[:at % len(lines) + 1] + lines[at % len(lines):] if lines else lines


def swap_lines(lines: list[str], at: int, other: int) -> list[str]:
    """``lines`` with two lines swapped."""
    if not lines:
        return lines
    out = list(lines)
    i, j = at % len(out), other % len(out)
    out[i], out[j] = out[j], out[i]
    return out


def swap_values(lines: list[str], at: int, other: int) -> list[str]:
    """``lines`` with the values of two ``key: value`` lines swapped."""
    pairs = [i for i, line in enumerate(lines) if re.search(r":\s+\S", line)]
    if len(pairs) < 2:
        return lines
    out = list(lines)
    i, j = pairs[at % len(pairs)], pairs[other % len(pairs)]
    (ki, vi), (kj, vj) = (re.split(r"(?<=:)\s+", out[i], maxsplit=1), re.split(r"(?<=:)\s+", out[j], maxsplit=1))
    out[i], out[j] = f"{ki} {vj}", f"{kj} {vi}"
    return out


def replace_number(text: str, at: int, new: str) -> str:
    """``text`` with one of its numbers replaced by ``new``."""
    numbers = list(re.finditer(r"\b\d+\b", text))
    if not numbers:
        return text
    found = numbers[at % len(numbers)]
    return text[:found.start()] + new + text[found.end():]


MUTATION = st.one_of(
    st.tuples(st.just("bytes"), st.integers(0, 10_000), st.sampled_from(EXTREMES + ["", ":", "{", "'", '"', "\t"])),
    st.tuples(st.just("delete"), st.integers(0, 500), st.just("")),
    st.tuples(st.just("duplicate"), st.integers(0, 500), st.just("")),
    st.tuples(st.just("swap"), st.integers(0, 500), st.integers(0, 500)),
    st.tuples(st.just("values"), st.integers(0, 500), st.integers(0, 500)),
    st.tuples(st.just("number"), st.integers(0, 500), st.sampled_from(EXTREMES)),
)


def mutate(text: str, mutation: tuple) -> str:
    """Apply one mutation drawn from :data:`MUTATION`."""
    kind, at, arg = mutation
    if kind == "bytes":
        return replace_bytes(text, at, arg)
    if kind == "number":
        return replace_number(text, at, arg)
    lines = text.splitlines(keepends=True)
    if kind == "delete":
        lines = delete_line(lines, at)
    elif kind == "duplicate":
        lines = duplicate_line(lines, at)
    elif kind == "swap":
        lines = swap_lines(lines, at, arg)
    else:
        lines = swap_values([line.rstrip("\n") for line in lines], at, arg)
        return "\n".join(lines) + "\n"
    return "".join(lines)


# ---------------------------------------------------------------------- properties
def test_the_mutations_change_what_they_say():
    lines = ["a: 1\n", "b: 2\n", "c: x\n"]
    assert delete_line(lines, 1) == ["a: 1\n", "c: x\n"]
    assert duplicate_line(lines, 0) == ["a: 1\n", "a: 1\n", "b: 2\n", "c: x\n"]
    assert swap_lines(lines, 0, 2) == ["c: x\n", "b: 2\n", "a: 1\n"]
    assert swap_values(["a: 1", "b: 2"], 0, 1) == ["a: 2", "b: 1"]
    assert replace_number("each: 5", 0, "0 / 0") == "each: 0 / 0"
    assert replace_bytes("abc", 4, "X") == "aXc"


@FUZZ
@given(text=st.text(max_size=400), suffix=st.sampled_from([".yaml", ".rules"]))
def test_arbitrary_text_gives_only_diagnostics(tmp_path, text, suffix):
    validate_text(tmp_path, text, suffix)


PIECES = list("{}[]()=:-,|'\"#\n \tx1") + ["game", "players 4", "phases", "deal each", "when", "if", "then",
                                              "else", "extends", "zwanzig-ab", "&a", "*a", "- ", ": ", "'A♣'"]


@FUZZ
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=60), suffix=st.sampled_from([".yaml", ".rules"]))
def test_text_made_of_the_languages_own_pieces_gives_only_diagnostics(tmp_path, pieces, suffix):
    validate_text(tmp_path, "".join(pieces), suffix)


def validate_mutated(tmp_path: Path, game: Path, mutations) -> None:
    """Validate ``game``'s text after ``mutations``: only diagnostics, within the time limit."""
    text = game.read_text(encoding="utf-8")
    for mutation in mutations:
        text = mutate(text, mutation)
    validate_text(tmp_path, text, game.suffix)


@pytest.mark.parametrize("game", [p for p in SHIPPED if not is_variant(p)], ids=lambda p: p.name)
@FUZZ
@given(mutations=st.lists(MUTATION, min_size=1, max_size=3))
def test_mutations_of_every_shipped_game_give_only_diagnostics(tmp_path, game, mutations):
    validate_mutated(tmp_path, game, mutations)


@pytest.mark.parametrize("game", [p for p in SHIPPED if is_variant(p)], ids=lambda p: p.name)
@settings(FUZZ, max_examples=10)                # a variant is a few lines over a base fuzzed above
@given(mutations=st.lists(MUTATION, min_size=1, max_size=3))
def test_mutations_of_every_shipped_variant_give_only_diagnostics(tmp_path, game, mutations):
    validate_mutated(tmp_path, game, mutations)


LOG_FILES = sorted((ROOT / "tests" / "logs").glob("*.jsonl")) + [
    p for p in sorted((ROOT / "tests" / "invalid").glob("*.jsonl")) if p.name[:4] not in ("E540", "E541")]
LOG_PIECES = ['"', "[", "]", "{", "}", ",", ":", "null", "[]", "{}", '"P1"', '["P1"]', '{"P1": 1}', "-1",
              "1e999", "9" * 40, '"\u2028"', '"deal"', '"action"', '"result"', '"header"', '"chance"', '"A♣"']


def validate_log(tmp_path: Path, text: str) -> list[Diagnostic]:
    """Validate ``text`` as a log beside a copy of the fixture games: only diagnostics, within the time limit."""
    copy_fixtures(tmp_path)
    return validate_text(tmp_path, text, ".jsonl")


@pytest.mark.parametrize("log", LOG_FILES, ids=lambda p: p.name)
@settings(FUZZ, max_examples=15)                # every log replays a whole deal per example
@given(mutations=st.lists(st.one_of(MUTATION, st.tuples(st.just("bytes"), st.integers(0, 10_000),
                                                         st.sampled_from(LOG_PIECES))), min_size=1, max_size=3))
def test_mutations_of_every_log_give_only_diagnostics(tmp_path, log, mutations):
    text = log.read_text(encoding="utf-8")
    for mutation in mutations:
        text = mutate(text, mutation)
    validate_log(tmp_path, text)


@FUZZ
@given(lines=st.lists(st.text(max_size=80), max_size=4))
def test_arbitrary_lines_after_a_header_give_only_diagnostics(tmp_path, lines):
    head = '{"type": "header", "format": "rulelang-log/1", "game": "zwanzig-ab", "max_deals": 1}'
    validate_log(tmp_path, "\n".join([head, *lines]) + "\n")


def test_the_example_of_constructs_no_shipped_game_uses_validates_without_errors():
    """The shipped games themselves are validated by the battery (test_battery.py)."""
    game = SHIPPED[-1]
    assert not [d.render() for d in diagnostics_of(str(game)) if d.is_error]


# ---------------------------------------------------------------------- crashes found by fuzzing, now fixed
def test_a_variant_phase_key_that_is_not_a_number_gives_a_diagnostic(tmp_path):
    path = tmp_path / "variant.yaml"
    path.write_text("extends: zwanzig-ab\nphases:\n  tricks:\n    talon: rest\n", encoding="utf-8")
    assert [(d.code, d.severity) for d in diagnostics_of(str(path))] == [("C101", "error")]    # tricks has no talon


def test_an_extends_longer_than_a_file_name_gives_a_diagnostic(tmp_path):
    path = tmp_path / "variant.yaml"
    path.write_text("extends: " + "x" * 300 + "\n", encoding="utf-8")
    assert [(d.code, d.severity) for d in diagnostics_of(str(path))] == [("R312", "error")]


def test_an_input_that_runs_on_is_interrupted(monkeypatch):
    monkeypatch.setattr(__import__("test_fuzz"), "LIMIT_SECONDS", 0.05)
    with pytest.raises(TookTooLong):
        with time_limit():
            while True:
                pass


@pytest.mark.parametrize("count", ["3000000", "many", "0"])
def test_a_hostile_pile_count_is_refused_before_the_compiler_sees_it(tmp_path, count):
    text = (Path(SHIPPED[0]).parent / "zwanzigerrufen.yaml").read_text(encoding="utf-8")
    found = validate_text(tmp_path, text.replace("piles: {count: 4", f"piles: {{count: {count}"), ".yaml")
    assert [d.code for d in found] == ["C107"]


def test_a_division_by_zero_in_a_number_known_before_play_gives_a_diagnostic(tmp_path):
    path = tmp_path / "variant.yaml"
    path.write_text('extends: zwanzig-ab\nphases:\n  1:\n    deal: {each: "1 / 0"}\n', encoding="utf-8")
    assert [(d.code, d.severity) for d in diagnostics_of(str(path))] == [("N219", "error")]


def test_a_definition_that_reads_a_failed_definition_through_another_gives_a_diagnostic(tmp_path):
    """A definition whose only failure is reading one that failed (its error reported before) has no code:
    read later in another rule, it gives no new error and no crash (found mutating games/preferans.yaml)."""
    path = write_game(tmp_path, 'define:\n  bad(p): "nonesuch(p)"\n  mid: "count({p for p in seats if bad(p)})"\n'
                      '  top: "mid + 1"\n')
    text = path.read_text(encoding="utf-8").replace("  - tricks:\n", '  - tricks:\n      when: "mid >= 0"\n', 1)
    path.write_text(text.replace('add: "', 'add: "top + ', 1), encoding="utf-8")
    assert [(d.code, d.severity) for d in diagnostics_of(str(path))] == [("N203", "error")]
