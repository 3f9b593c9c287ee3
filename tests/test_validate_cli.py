"""``rulelang validate``: the best few diagnostics or all of them, colour on a terminal only,
JSON, SARIF 2.1.0, random deals with ``--simulate``, and game logs."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from rulelang.cli.main import main
from rulelang.cli.validate import SHOWN, diagnostics_of, human_report, paint, use_colour, validate_files
from helpers import write_game

ROOT = Path(__file__).resolve().parent.parent
INVALID = ROOT / "tests" / "invalid"
BASE = INVALID / "fixtures" / "base.yaml"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the command line; its exit status, standard output and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def many_warnings(tmp_path) -> str:
    """A variant with twelve params nobody reads: twelve warnings and no error."""
    params = "".join(f"  p{i:02}: {i}\n" for i in range(12))
    return str(write_game(tmp_path, f"params:\n{params}", name="many.yaml"))


class Terminal(io.StringIO):
    """An output stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


# ---------------------------------------------------------------------- human output
def test_the_plain_output_is_each_rendered_diagnostic_and_a_status_line(capsys):
    ref = str(INVALID / "N201-unknown-name.yaml")
    code, out, _ = run(capsys, "validate", ref)
    (diagnostic,) = diagnostics_of(ref)
    assert code == 1
    assert out == diagnostic.render() + "\n\n" + f"{ref}: 1 error(s)\n"


def test_by_default_the_first_few_are_shown_and_the_rest_counted(capsys, many_warnings):
    code, out, _ = run(capsys, "validate", many_warnings)
    assert code == 0
    assert out.count("warning[W602]") == SHOWN == 10
    assert f"… and 2 more; `rulelang validate --all {many_warnings}` shows every one" in out
    assert out.rstrip("\n").endswith(f"{many_warnings}: ok, 12 warning(s)")


def test_all_shows_every_diagnostic(capsys, many_warnings):
    code, out, _ = run(capsys, "validate", "--all", many_warnings)
    assert code == 0 and out.count("warning[W602]") == 12 and "more;" not in out


def test_errors_come_first_then_warnings_by_position(tmp_path):
    path = write_game(tmp_path, "params: {unused: 1}\n", name="mixed.yaml")
    path.write_text(path.read_text(encoding="utf-8").replace('end: "min(score) <= 0"', 'end: "1 == 2"'))
    found = diagnostics_of(str(path))
    assert [d.code for d in found] == ["G403", "W602"]


def test_several_files_each_get_a_status_line(capsys):
    files = [str(BASE), str(INVALID / "W602-param-never-read.yaml"), str(INVALID / "R320-deal-needs-more-cards.yaml")]
    code, out, _ = run(capsys, "validate", *files)
    status = [line for line in out.splitlines() if line.startswith(tuple(files)) and ": " in line and "[" not in line]
    assert code == 1
    assert status == [f"{files[0]}: ok", f"{files[1]}: ok, 1 warning(s)", f"{files[2]}: 1 error(s)"]


# ---------------------------------------------------------------------- colour
def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour(Terminal()) and not use_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(Terminal())


def test_colour_paints_the_text_without_changing_it(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    ref = str(INVALID / "Y102-duplicate-key.yaml")
    out = Terminal()
    validate_files([ref], out=out)
    text = out.getvalue()
    assert "\x1b[1;31merror[Y102]:" in text and "\x1b[1;32mhint:" in text and "\x1b[1;36mnote:" in text
    assert ANSI.sub("", text) == human_report(ref, diagnostics_of(ref))


def test_paint_colours_warnings_yellow():
    rendered = "x.yaml:1:1: warning[W602]: the param 'a' is never read\n    1 | a: 1\n      | ^\nhint: remove it"
    painted = paint(rendered, "warning")
    assert "\x1b[1;33mwarning[W602]:" in painted and "\x1b[1;33m^" in painted
    assert ANSI.sub("", painted) == rendered


# ---------------------------------------------------------------------- JSON
def test_json_gives_every_diagnostic_with_its_place(capsys, many_warnings):
    code, out, _ = run(capsys, "validate", "--format", "json", many_warnings, str(INVALID / "N201-unknown-name.yaml"))
    data = json.loads(out)
    assert code == 1 and data["ok"] is False
    first, second = data["files"]
    assert first["ok"] is True and len(first["diagnostics"]) == 12
    (diagnostic,) = second["diagnostics"]
    assert (diagnostic["code"], diagnostic["severity"], diagnostic["line"]) == ("N201", "error", 10)


def test_the_json_flag_is_the_json_format(capsys):
    ref = str(INVALID / "N201-unknown-name.yaml")
    assert run(capsys, "validate", "--json", ref)[1] == run(capsys, "validate", "--format", "json", ref)[1]


# ---------------------------------------------------------------------- SARIF
@pytest.fixture
def sarif(capsys) -> dict:
    refs = [str(INVALID / "Y102-duplicate-key.yaml"), str(INVALID / "W602-param-never-read.yaml"),
            str(INVALID / "S123-unreadable.yaml").replace("S123-unreadable", "no-such-file")]
    code, out, _ = run(capsys, "validate", "--format", "sarif", *refs)
    assert code == 1
    return json.loads(out)


def test_sarif_is_version_2_1_0_with_one_run_of_rulelang(sarif):
    assert sarif["version"] == "2.1.0" and "sarif-2.1.0" in sarif["$schema"]
    (run_,) = sarif["runs"]
    assert run_["tool"]["driver"]["name"] == "rulelang"


def test_sarif_rules_are_the_codes_that_occur_with_their_catalogue_text(sarif):
    driver = sarif["runs"][0]["tool"]["driver"]
    assert [r["id"] for r in driver["rules"]] == ["R313", "W602", "Y102"]
    y102 = driver["rules"][2]
    assert y102["shortDescription"]["text"] == "duplicate key"
    assert "silently keep the last value" in y102["fullDescription"]["text"]
    assert y102["defaultConfiguration"]["level"] == "error" and driver["rules"][1]["defaultConfiguration"]["level"] \
        == "warning"


def test_sarif_results_point_at_rules_and_at_one_based_regions(sarif):
    run_ = sarif["runs"][0]
    rules = [r["id"] for r in run_["tool"]["driver"]["rules"]]
    results = {r["ruleId"]: r for r in run_["results"]}
    for result in run_["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
    duplicate = results["Y102"]
    region = duplicate["locations"][0]["physicalLocation"]["region"]
    assert duplicate["level"] == "error" and (region["startLine"], region["startColumn"]) == (4, 1)
    assert duplicate["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(
        "tests/invalid/Y102-duplicate-key.yaml")
    (related,) = duplicate["relatedLocations"]
    assert related["physicalLocation"]["region"]["startLine"] == 3 and "first given here" in related["message"]["text"]
    assert results["W602"]["level"] == "warning" and "hint: " in results["W602"]["message"]["text"]
    assert "region" not in results["R313"]["locations"][0]["physicalLocation"]


# ---------------------------------------------------------------------- simulation and logs
def test_simulate_plays_random_deals_and_reports_what_only_running_shows(capsys):
    ref = str(INVALID / "E553-evaluation-fails.yaml")
    assert run(capsys, "validate", ref)[0] == 0
    code, out, _ = run(capsys, "validate", "--simulate", "2", ref)
    assert code == 1
    assert "error[E553]: a rule failed while a deal was played: division by zero" in out
    assert "note: this happened in every one of 2 random deals, first with seed 0" in out


def test_simulate_finds_nothing_in_a_good_game_and_says_what_it_played_and_checked(capsys):
    assert run(capsys, "validate", "--simulate", "3", "zwanzig-ab")[1] == (
        "zwanzig-ab: ok\n"
        "zwanzig-ab: played 3 random deals and up to 3 whole matches, checking that every seat to act has a legal "
        "move, every deal ends within 5000 actions, settlements sum to zero, every rule can be worked out and that "
        "a match ends within 500 deals\n")


def test_a_game_log_is_replayed_and_its_problems_reported(capsys):
    ref = str(INVALID / "E502-option-forbidden.jsonl")
    code, out, _ = run(capsys, "validate", ref)
    assert code == 1
    assert "error[E530]: illegal move in deal 1: P2 may not pass" in out and "error[E502]:" in out


def test_simulate_can_be_played_by_other_agents_and_says_so(capsys):
    code, out, _ = run(capsys, "validate", "--simulate", "2", "--agents", "heuristic:rollouts=4", "fuenf-dazu")
    assert code == 0 and "fuenf-dazu: played 2 deals with the players heuristic:rollouts=4 and up to 2 whole matches" in out
    code, _, err = run(capsys, "validate", "--simulate", "2", "--agents", "nobody", "zwanzig-ab")
    assert code == 2 and "no agent called 'nobody'" in err
