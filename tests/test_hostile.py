"""Hostile input: rule files and logs never open other files, hang, run unbounded or crash.

Each test is one attack or one careless mistake, and asserts the exact diagnostic that
comes out (code, severity, place), and that nothing of a file the user did not name is
ever quoted.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from helpers import LOGS, copy_fixtures, write_variant
from rulelang.cli.main import main
from rulelang.cli.validate import diagnostics_of

SECRET = "TOP-SECRET-LINE"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the command line; its exit status, standard output and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def codes(found) -> list[tuple[str, str]]:
    """The codes and severities of some diagnostics, in order."""
    return [(d.code, d.severity) for d in found]


@pytest.fixture
def outside(tmp_path) -> Path:
    """A folder beside the variant's, holding a rule-file-named file whose first line is a secret."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.yaml").write_text(SECRET + "\n", encoding="utf-8")
    (folder / "secret.txt").write_text(SECRET + "\n", encoding="utf-8")
    return folder


@pytest.fixture
def home(tmp_path) -> Path:
    """The folder the variants under test live in."""
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


# ---------------------------------------------------------------------- files a rule file names
@pytest.mark.parametrize("ref, code", [
    ("../outside/secret.yaml", "R314"), ("../outside/secret.txt", "R315"), ("/etc/passwd", "R315"),
    ("/proc/self/environ", "R315"), ("../../../../../../etc/hostname", "R315"), ("link.yaml", "R314"),
])
def test_extends_opens_no_file_outside_the_variants_folder(home, outside, capsys, ref, code):
    (home / "link.yaml").symlink_to(outside / "secret.yaml")
    variant = home / "variant.yaml"
    variant.write_text(f"extends: {ref}\n", encoding="utf-8")
    status, out, err = run(capsys, "validate", str(variant))
    found = diagnostics_of(str(variant))
    assert status == 1 and codes(found) == [(code, "error")] and found[0].span.line == 1
    assert SECRET not in out + err and "root:" not in out + err


def test_allow_path_lets_a_variant_reach_a_base_in_another_folder(home, outside, capsys):
    copy_fixtures(outside)
    variant = home / "variant.yaml"
    variant.write_text("extends: ../outside/fixtures/base.yaml\ntitle: elsewhere\n", encoding="utf-8")
    assert run(capsys, "validate", str(variant))[0] == 1
    assert run(capsys, "validate", "--allow-path", str(outside), str(variant)) == (0, f"{variant}: ok\n", "")


def test_a_base_in_a_folder_below_the_variant_is_found(home):
    variant = write_variant(home, "title: below\n")
    assert diagnostics_of(str(variant)) == []


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_file_that_is_not_a_regular_file_is_refused_at_once(home, kind):
    target = home / "base.yaml"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "device":
        target.symlink_to("/dev/zero")
    else:
        target.mkdir()
    found = diagnostics_of(str(target))
    assert codes(found) == [("S124", "error")]
    if kind == "folder":
        (home / "variant.yaml").write_text("extends: base.yaml\n", encoding="utf-8")
        (found,) = diagnostics_of(str(home / "variant.yaml"))
        assert (found.code, found.span.path, found.span.line) == ("S124", str(home / "variant.yaml"), 1)


def test_a_file_that_grows_while_it_is_read_is_cut_off_by_bytes_read(monkeypatch, home):
    import rulelang.read.files as loader
    big = home / "big.yaml"
    big.write_text("# x\n" * 100, encoding="utf-8")
    monkeypatch.setattr(loader, "MAX_FILE_BYTES", 64)
    assert codes(diagnostics_of(str(big))) == [("S120", "error")]


def test_a_rule_file_named_on_the_command_line_must_be_a_rule_file(home, outside, capsys):
    status, out, err = run(capsys, "validate", str(outside / "secret.txt"))
    assert status == 1 and "error[R315]" in out and SECRET not in out + err


# ---------------------------------------------------------------------- logs
def header(**fields) -> str:
    import json
    base = {"type": "header", "format": "rulelang-log/1", "game": "zwanzig-ab", "seats": ["P1", "P2", "P3", "P4"],
            "max_deals": 1}
    base.update(fields)
    return json.dumps(base, ensure_ascii=False)


MOVE = '{"type": "action", "seat": "chance", "action": "P1"}'


def write_log(folder: Path, *lines: str, name: str = "game.jsonl") -> str:
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("rules, code", [("../outside/secret.yaml", "R314"), ("/etc/passwd", "R315"),
                                         ("/proc/self/environ", "R315")])
def test_a_logs_rules_open_no_file_outside_the_logs_folder(home, outside, capsys, rules, code):
    log = write_log(home, header(rules=rules), MOVE)
    status, out, err = run(capsys, "replay", log)
    assert status == 1 and f"error[{code}]" in err and SECRET not in out + err
    assert codes(diagnostics_of(log)) == [(code, "error")]


def test_a_logs_game_must_be_a_shipped_game_not_a_path(home, outside, capsys):
    log = write_log(home, header(game=str(outside / "secret.yaml")), MOVE)
    status, out, err = run(capsys, "replay", log)
    assert status == 1 and "error[R313]" in err and SECRET not in out + err


@pytest.mark.parametrize("line, code", [
    ("[" * 5000 + "]" * 5000, "E542"),
    ('{"type": "action", "seat": "P1", "action": ' + "9" * 5000 + "}", "E542"),
    ('{"type": "action", "seat": "P1", "action": NaN}', "E542"),
    ('{"type": "deal", "dealer": ["P1"], "hands": {}}', "E538"),
    ('{"type": "deal", "dealer": {"x": 1}, "hands": {}}', "E538"),
    ('{"type": ["action"]}', "E543"),
])
def test_a_hostile_log_line_gives_a_located_diagnostic(home, line, code):
    found = diagnostics_of(write_log(home, header(), line))
    assert found[0].code == code and found[0].is_error and found[0].span.line == 2


def test_a_log_with_only_a_header_does_not_replay_ok(home, capsys):
    status, _, err = run(capsys, "replay", write_log(home, header()))
    assert status == 1 and "error[E545]" in err


def test_a_second_result_line_is_an_error_not_silently_the_winner(home):
    result = '{"type": "result", "deals": 1, "scores": {"P1": 20}}'
    found = diagnostics_of(write_log(home, header(), MOVE, result, result))
    assert codes(found) == [("E546", "error")] and found[0].span.line == 4


@pytest.mark.parametrize("char", ["\u2028", "\u0085", "\u2029"])
def test_a_log_with_a_line_separator_inside_a_string_replays(tmp_path, capsys, char):
    source = (LOGS / "zwanzig-ab-hearts-deal.jsonl").read_text(encoding="utf-8").split("\n")
    folder = tmp_path / f"odd{char}name"
    folder.mkdir()
    source[0] = source[0].replace('"format"', f'"note": "a{char}b", "format"')
    log = write_log(folder, *[line for line in source if line])
    assert run(capsys, "replay", log)[0] == 0


def test_a_log_larger_than_the_limit_is_refused_by_bytes_read(monkeypatch, home):
    import rulelang.interpreter.log as log_module
    monkeypatch.setattr(log_module, "MAX_LOG_BYTES", 100)
    assert codes(diagnostics_of(write_log(home, header(), MOVE, MOVE))) == [("E540", "error")]


# ---------------------------------------------------------------------- loops and evaluation
def let_chain(count: int) -> str:
    """A score phase whose lets each read the one before twice: 2**count if evaluated naively."""
    lets = "".join(f'        l{i}: "l{i - 1} + l{i - 1} - l{i - 1}"\n' for i in range(1, count))
    return ("phases:\n  8:\n    score:\n      let:\n        l0: \"tricks(player)\"\n" + lets
            + f'      each: active\n      add: "0 - l{count - 1}"\n')


def test_a_chain_of_lets_is_worked_out_once_each(home, capsys):
    variant = home / "lets.yaml"
    variant.write_text("extends: zwanzig-ab\n" + let_chain(40), encoding="utf-8")
    started = time.process_time()
    assert not [d for d in diagnostics_of(str(variant), simulate=3) if d.is_error]
    status, out, _ = run(capsys, "run", str(variant), "--seed", "3", "--deals", "2", "--json")
    assert status == 0 and time.process_time() - started < 120  # a hang guard in CPU s: 2**40 evaluations never end


EXPRESSIONS = {"nots": "not " * 400 + "true", "sum": "+".join(["1"] * 1900) + " > 0",
               "brackets": "(" * 300 + "true" + ")" * 300, "minus": "-" * 500 + "1 > 0"}


@pytest.mark.parametrize("name", EXPRESSIONS)
def test_a_deep_expression_is_refused_in_yaml_as_in_the_dsl(home, name):
    text = EXPRESSIONS[name]
    (home / "deep.yaml").write_text(f'extends: zwanzig-ab\nmatch:\n  end: "{text}"\n', encoding="utf-8")
    (home / "deep.rules").write_text(f"extends = zwanzig-ab\nmatch {{\n  end when {text}\n}}\n", encoding="utf-8")
    yaml_codes = codes(diagnostics_of(str(home / "deep.yaml")))
    dsl_codes = codes(diagnostics_of(str(home / "deep.rules")))
    assert yaml_codes == [("S151", "error")] and dsl_codes == [("S121" if name == "brackets" else "S151", "error")]


def test_a_division_by_zero_at_run_time_is_located_and_exit_1(home, capsys):
    variant = home / "div.yaml"
    variant.write_text('extends: zwanzig-ab\nphases:\n  8:\n    score:\n      each: active\n'
                       '      add: "tricks(player) / (tricks(player) - tricks(player))"\n', encoding="utf-8")
    status, _, err = run(capsys, "run", str(variant), "--seed", "1")
    assert status == 1 and f"{variant}:6:13: error[E553]: a rule failed while the game was played: " \
                           "division by zero" in err


def test_redealing_for_ever_at_run_time_is_located(home, capsys):
    variant = write_variant(home, 'phases:\n  5:\n    throw_in:\n      must: "count(hand(player)) > 0"\n',
                            name="redeal.yaml")
    status, _, err = run(capsys, "run", str(variant), "--seed", "1")
    assert status == 1 and "error[E553]" in err and "more than 1000 redeals in a row" in err
    assert f"{variant}:3:3: error[E553]" in err


def test_an_auction_nobody_can_open_is_located_at_the_auction(home, capsys):
    variant = home / "nobid.yaml"
    never = '    allow: "count(hand(player)) > 20"\n'
    variant.write_text("extends: zwanzigerrufen\ncontracts:\n" +
                       "".join(f"  {name}:\n{never}" for name in ("call", "suit_solo", "solo")), encoding="utf-8")
    status, _, err = run(capsys, "run", str(variant), "--seed", "1")
    assert status == 1 and "zwanzigerrufen.yaml:75:5: error[E553]" in err
    assert "has no legal bid to open the auction" in err


def test_a_match_whose_end_is_never_met_is_stopped_with_a_located_error(home, capsys, monkeypatch):
    import rulelang.interpreter.game as game_module
    monkeypatch.setattr(game_module, "MAX_MATCH_DEALS", 30)
    variant = write_variant(home, 'match:\n  end: "max(score) > 1000 or deal_number % 7 == 100"\n',
                            name="never.yaml")
    status, out, err = run(capsys, "run", str(variant), "--seed", "2", "--json")
    assert status == 1 and f"{variant}:3:9: error[E554]: the match was stopped after 30 deals: " \
                           "`end: max(score) > 1000 or deal_number % 7 == 100` never held" in err


def test_a_match_that_provably_never_ends_is_stopped_after_its_first_deal(home, capsys):
    variant = write_variant(home, 'match:\n  end: "max(score) > 1000"\n', name="never.yaml")
    status, out, err = run(capsys, "run", str(variant), "--seed", "2")
    assert status == 1 and f"{variant}:3:9: error[E554]: the match was stopped after 1 deal: it can never end: " \
                           "scores only fall from 10, and `end: max(score) > 1000` needs scores they never reach" in err
    status, out, err = run(capsys, "run", str(variant), "--seed", "2", "--deals", "3")
    assert status == 0 and "Stopped after 3 deal(s)" in out and "E554" not in err


def test_a_tie_that_always_plays_on_is_stopped_and_says_so(home, capsys, monkeypatch):
    import rulelang.interpreter.game as game_module
    monkeypatch.setattr(game_module, "MAX_MATCH_DEALS", 25)
    variant = write_variant(home, 'phases:\n  7:\n    score: {each: seats, add: "1"}\n'
                            'match:\n  end: "max(score) >= 12"\n  tie: play_on\n', name="tied.yaml")
    status, _, err = run(capsys, "run", str(variant), "--seed", "2")
    assert status == 1 and re.search(r"tied.yaml:6:9: error\[E554\]: the match was stopped after 25 deals: "
                                     r"`end` held after \d+ of them, but the lead was shared each time", err)
    found = diagnostics_of(str(variant), simulate=2)
    assert codes(found) == [("W615", "warning")] and "tied" in found[0].message


def test_an_unwritable_log_is_a_usage_error_before_any_card_is_played(tmp_path, capsys):
    status, out, err = run(capsys, "run", "zwanzig-ab", "--seed", "1", "--log", str(tmp_path / "no" / "g.jsonl"))
    assert status == 2 and out == "" and "cannot write" in err and "No such file or directory" in err


def test_a_variant_that_empties_a_required_mapping_says_so_at_its_own_line(home):
    variant = write_variant(home, "deck:\n", name="nodeck.yaml")
    (found,) = diagnostics_of(str(variant))
    assert (found.code, found.span.path, found.span.line) == ("R316", str(variant), 2)


def test_a_match_whose_scores_only_move_away_from_its_end_is_seen_without_playing(home):
    variant = write_variant(home, 'phases:\n  7:\n    score: {each: active, add: "2 * tricks(player) + 1"}\n',
                            name="rising.yaml")
    assert codes(diagnostics_of(str(variant))) == [("W616", "warning")]
    falling = write_variant(home, 'phases:\n  7:\n    score: {each: active, add: "0 - 2 * tricks(player)"}\n'
                            'match:\n  end: "max(score) >= 20"\n', name="falling.yaml")
    assert codes(diagnostics_of(str(falling))) == [("W616", "warning")]
    both_ways = write_variant(home, 'phases:\n  7:\n    score: {each: active, add: "if tricks(player) > 0 then '
                              '0 - tricks(player) else 5"}\n', name="both.yaml")
    assert diagnostics_of(str(both_ways)) == []


@pytest.mark.parametrize("game", sorted(p.name for p in (Path(__file__).parent.parent / "games").glob("*.*")
                                        if p.suffix in (".rules", ".yaml")))
def test_no_shipped_game_is_said_to_be_unable_to_end(game):
    found = diagnostics_of(str(Path(__file__).parent.parent / "games" / game))
    assert "W616" not in [d.code for d in found] and "G403" not in [d.code for d in found]
