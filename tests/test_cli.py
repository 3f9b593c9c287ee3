"""The ``rulelang`` command line: list, run (narrated, JSON, logged), replay, validate, dump.

Commands are run in-process through ``rulelang.cli.main.main``; output is captured with
``capsys``. The narration of a seeded run is a golden file (``tests/golden/cli/``);
regenerate it with ``UPDATE_GOLDEN=1 python -m pytest tests/test_cli.py``.
"""

from __future__ import annotations

import json
import re
import textwrap

import pytest

from helpers import GOLDEN_CLI, LOGS, ROOT, YAML_GAME, assert_golden, relative_paths
from rulelang.cli.main import main
from rulelang.loader import shipped_games


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the command line; its exit status, standard output and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


BROKEN = """\
    game: broken-zwanzig
    title: Zwanzig ab with a misspelt suit
    extends: zwanzig-ab
    phases:
      6:
        decide:
          options: [play, pass]
          from: next(forehand)
          leave: pass
          forbid:
            pass: "player == forehand or trump == diamond"
    """


@pytest.fixture
def broken(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(textwrap.dedent(BROKEN), encoding="utf-8")
    return path


# ---------------------------------------------------------------------- list
def test_list_shows_every_shipped_game_with_its_title(capsys):
    code, out, err = run(capsys, "list")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert any(re.fullmatch(r"zwanzig-ab\s+Zwanzig ab  \(also as \.yaml\)", line) for line in lines)
    assert {line.split()[0] for line in lines} == {p.stem for p in shipped_games()}


# ---------------------------------------------------------------------- run
def test_run_narrates_a_seeded_run_deal_by_deal(capsys):
    code, out, err = run(capsys, "run", "zwanzig-ab", "--seed", "1", "--deals", "2")
    assert code == 0 and err == ""
    assert_golden(GOLDEN_CLI / "run_seed1.txt", out)


def test_run_with_the_same_seed_prints_the_same_output(capsys):
    first = run(capsys, "run", "zwanzig-ab", "--seed", "9")
    again = run(capsys, "run", "zwanzig-ab", "--seed", "9")
    assert first == again and first[0] == 0
    assert "wins." in first[1].splitlines()[-1]                 # a whole match, to the end


def test_run_json_gives_deals_with_decisions_tricks_and_deltas_totals_and_winner(capsys):
    code, out, err = run(capsys, "run", "zwanzig-ab", "--seed", "1", "--deals", "2", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"deals", "totals", "winner"} <= data.keys()
    assert len(data["deals"]) == 2
    for deal in data["deals"]:
        assert {"decisions", "tricks", "delta"} <= deal.keys()
        assert set(deal["delta"]) == {"P1", "P2", "P3", "P4"}
        assert all({"cards", "winner"} <= trick.keys() for trick in deal["tricks"])
    start = 20
    assert data["totals"] == {s: start + sum(d["delta"][s] for d in data["deals"]) for s in ("P1", "P2", "P3", "P4")}
    assert data["winner"] is None                               # two deals: the match is not over
    assert run(capsys, "run", "zwanzig-ab", "--seed", "1", "--deals", "2", "--json")[1] == out


def test_run_json_of_a_whole_match_names_the_winner(capsys):
    code, out, _ = run(capsys, "run", "zwanzig-ab", "--seed", "4", "--json")
    data = json.loads(out)
    assert code == 0 and data["winner"] == min(data["totals"], key=data["totals"].get)
    assert data["totals"][data["winner"]] <= 0


@pytest.mark.parametrize("deals", [["--deals", "3"], []])
def test_a_run_log_replays_and_the_replay_exits_zero(capsys, tmp_path, deals):
    log = tmp_path / "run.jsonl"
    code, narrated, _ = run(capsys, "run", "zwanzig-ab", "--seed", "11", *deals, "--log", str(log))
    assert code == 0 and log.is_file()
    code, out, err = run(capsys, "replay", str(log))
    assert code == 0, err
    assert out.splitlines()[-1].startswith("replay ok: ") and out.splitlines()[-1].endswith("the logged result is reproduced")
    assert narrated.splitlines()[-1] == out.splitlines()[-2]    # the same totals line
    code, out, _ = run(capsys, "replay", "--json", str(log))
    assert code == 0 and json.loads(out)["ok"] is True


def test_replay_of_the_hand_written_log_exits_zero(capsys):
    code, out, err = run(capsys, "replay", str(LOGS / "zwanzig-ab-hearts-deal.jsonl"))
    assert code == 0, err
    assert "P1 +10 → 30  P2 -6 → 14  P3 -4 → 16  P4 0 → 20" in out


def test_replay_of_an_illegal_log_exits_one_with_the_located_error(capsys):
    log = LOGS / "zwanzig-ab-illegal-follow.jsonl"
    code, out, err = run(capsys, "replay", "--rules", str(YAML_GAME), str(log))
    assert code == 1
    assert relative_paths(err) == (GOLDEN_CLI / "replay_illegal_follow.txt").read_text(encoding="utf-8")
    code, out, err = run(capsys, "replay", "--json", str(log))
    problem = json.loads(out)["problem"]
    assert code == 1 and (problem["code"], problem["line"], problem["column"]) == ("E530", 14, 44)


def test_replay_of_a_log_with_a_different_result_exits_one_with_e531(capsys):
    code, _, err = run(capsys, "replay", str(LOGS / "zwanzig-ab-wrong-result.jsonl"))
    assert code == 1
    assert re.search(r"zwanzig-ab-wrong-result\.jsonl:28:42: error\[E531\]: the replay ends with scores", err)


# ---------------------------------------------------------------------- validate
def test_validate_accepts_shipped_games_of_every_form(capsys):
    """A YAML game, a DSL game, a variant by `extends` and a game named, each ok (every shipped game is validated
    by the battery, tests/test_battery.py)."""
    forms = {"bridge.yaml", "hearts.rules", "zwanzigerrufen-clockwise.yaml", "doppelkopf.rules"}
    files = [str(p) for p in shipped_games() if p.name in forms]
    assert len(files) == len(forms)
    code, out, _ = run(capsys, "validate", *files, "zwanzig-ab")
    assert code == 0
    verdicts = [line for line in out.splitlines() if re.match(r"\S+: (ok|\d+ error)", line)]
    assert len(verdicts) == len(files) + 1
    for ref, verdict in zip(files + ["zwanzig-ab"], verdicts):
        assert re.fullmatch(rf"{re.escape(ref)}: ok(, \d+ warning\(s\))?", verdict)


def test_validate_rejects_a_broken_file_with_a_located_message(capsys, broken):
    code, out, _ = run(capsys, "validate", str(broken))
    assert code == 1
    lines = out.splitlines()
    source = '        pass: "player == forehand or trump == diamond"'
    column = source.index("diamond\"") + 1                      # the caret points at the unknown name
    assert lines[0] == f"{broken}:11:{column}: error[N201]: unknown name 'diamond'"
    assert lines[1] == f"   11 | {source}"
    assert lines[2] == "      | " + " " * (column - 1) + "^"
    assert "hint: did you mean 'diamonds'?" in lines
    assert lines[-1] == f"{broken}: 1 error(s)"


def test_validate_json_reports_the_same_diagnostic(capsys, broken):
    code, out, _ = run(capsys, "validate", "--json", str(broken))
    data = json.loads(out)
    assert code == 1 and data["ok"] is False
    (diagnostic,) = data["files"][0]["diagnostics"]
    column = textwrap.dedent(BROKEN).splitlines()[10].index("diamond\"") + 1
    assert (diagnostic["code"], diagnostic["line"], diagnostic["column"]) == ("N201", 11, column)


# ---------------------------------------------------------------------- dump
def test_dump_document_prints_the_resolved_document_as_json(capsys):
    code, out, _ = run(capsys, "dump", "--stage", "document", "zwanzig-ab")
    data = json.loads(out)
    assert code == 0 and data["game"] == "zwanzig-ab" and data["players"] == 4
    assert [next(iter(p)) for p in data["phases"]] == ["deal", "choose", "deal", "talon", "exchange", "decide",
                                                       "tricks", "score"]


def test_dump_ir_prints_the_compiled_rules(capsys):
    code, out, _ = run(capsys, "dump", "--stage", "ir", "zwanzig-ab")
    assert code == 0
    assert out.startswith("game zwanzig-ab (Zwanzig ab) digest ")
    phase = next(line for line in out.splitlines() if line.startswith("phase 7: "))
    assert phase.startswith("phase 7: tricks among `active` lead `forehand`")
    assert "follow `led_suit`, `trump`, `any`" in phase
    assert "match: start 20; end when min(score) <= 0; winner lowest; tie play_on" in out


def test_dump_tables_prints_cards_suits_and_actions(capsys):
    code, out, _ = run(capsys, "dump", "--stage", "tables", "zwanzig-ab")
    assert code == 0
    cards = [line for line in out.splitlines() if re.match(r"\s+\d+ \S+\s+(clubs|spades|hearts|diamonds)\s", line)]
    assert len(cards) == 32
    assert re.match(r"\s+0 A♣\s+clubs\s+0\s+11$", cards[0]) and re.match(r"\s+1 10♣\s+clubs\s+1\s+10$", cards[1])
    assert "  32: clubs" in out and "  38: done" in out


def test_dump_code_prints_the_module_the_rules_compile_to(capsys):
    code, out, _ = run(capsys, "dump", "--stage", "code", "zwanzig-ab")
    assert code == 0
    assert_golden(GOLDEN_CLI / "dump_code_zwanzig_ab.txt", out)


# ---------------------------------------------------------------------- errors never show a traceback
BAD_INPUTS = {
    "missing rule file": ["run", "no/such/file.yaml"],
    "unknown game": ["run", "no-such-game", "--seed", "1"],
    "validate missing file": ["validate", "nowhere.rules"],
    "dump unknown game": ["dump", "--stage", "ir", "no-such-game"],
    "missing log": ["replay", "no/such/log.jsonl"],
}


@pytest.mark.parametrize("argv", BAD_INPUTS.values(), ids=BAD_INPUTS.keys())
def test_bad_input_gives_a_diagnostic_and_exit_one_not_a_traceback(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert "Traceback" not in out + err and "internal error" not in out + err
    assert re.search(r"error\[[A-Z]\d{3}\]", out + err)


@pytest.mark.parametrize("text", [
    "game: x\nplayers: [4\n",                                    # YAML syntax
    "game: x\ngame: y\n",                                        # duplicate key
    "- just\n- a list\n",                                        # not a mapping
    "game: x\nplayers: 4\n",                                     # missing sections
])
@pytest.mark.parametrize("command", ["validate", "run", "dump"])
def test_a_bad_rule_file_gives_located_errors_and_exit_one_not_a_traceback(capsys, tmp_path, text, command):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    argv = {"validate": ["validate", str(path)], "run": ["run", str(path), "--seed", "1"],
            "dump": ["dump", "--stage", "ir", str(path)]}[command]
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert "Traceback" not in out + err and "internal error" not in out + err
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: error\[[A-Z]\d{{3}}\]", out + err)


@pytest.mark.parametrize("text", ["not json\n", '{"type": "action"}\n', ""])
def test_a_bad_log_gives_a_located_error_and_exit_one_not_a_traceback(capsys, tmp_path, text):
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1
    assert "Traceback" not in out + err and "internal error" not in out + err
    assert re.search(rf"{re.escape(str(path))}:1:\d+: error\[E54\d\]", err)


def test_a_usage_error_exits_two_with_the_usage_line(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["run"])
    assert caught.value.code == 2
    assert "usage: rulelang run" in capsys.readouterr().err


def test_the_golden_files_hold_no_absolute_paths():
    for path in GOLDEN_CLI.glob("*.txt"):
        assert str(ROOT) not in path.read_text(encoding="utf-8")


# ---------------------------------------------------------------------- edge cases once crashing
def test_a_log_header_with_a_non_text_rules_entry_falls_back_to_the_game_name(capsys, tmp_path):
    path = tmp_path / "bad.jsonl"
    lines = (LOGS / "zwanzig-ab-hearts-deal.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["rules"] = 5
    path.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert "internal error" not in err and "Traceback" not in err
    assert code == 0 and out.splitlines()[-1].startswith("replay ok")


@pytest.mark.parametrize("deals", ["0", "-1", "two"])
def test_run_refuses_a_deal_count_below_one_as_a_usage_error(capsys, deals):
    with pytest.raises(SystemExit) as caught:
        main(["run", "zwanzig-ab", "--seed", "1", "--deals", deals])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "argument --deals" in err and "Traceback" not in err


# ---------------------------------------------------------------------- list, once per game
def test_list_names_every_game_once(capsys):
    code, out, _ = run(capsys, "list")
    names = [line.split()[0] for line in out.splitlines()]
    assert code == 0 and len(names) == len(set(names))


# ---------------------------------------------------------------------- small things users hit
def test_version_prints_the_package_version(capsys):
    from rulelang import __version__
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out == f"rulelang {__version__}\n"


def test_list_json_gives_each_shipped_game_once_with_its_players_and_files(capsys):
    code, out, _ = run(capsys, "list", "--json")
    games = {g["name"]: g for g in json.loads(out)}
    assert code == 0 and set(games) == {p.stem for p in shipped_games()}
    assert games["zwanzig-ab"]["files"] == ["zwanzig-ab.rules", "zwanzig-ab.yaml"]
    assert games["zwanzig-ab-wikibooks-five"]["players"] == 5 and games["fuenf-dazu"]["extends"] == "zwanzig-ab"


def test_a_misspelt_game_name_gets_a_did_you_mean(capsys):
    code, _, err = run(capsys, "run", "zwanzig-abb")
    assert code == 1 and "hint: did you mean 'zwanzig-ab'? shipped games:" in err


def test_a_misspelt_statement_gets_a_did_you_mean(tmp_path, capsys):
    path = tmp_path / "x.rules"
    path.write_text("game x\nplayrs 4\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1 and "error[S113]: unknown statement `playrs`" in out and "hint: did you mean `players`?" in out


ONE_DEAL_MATCH = """\
game: one-deal
extends: zwanzig-ab
match:
  end: "true"
"""


def test_deals_k_plays_at_most_k_deals_as_its_help_says(capsys, tmp_path):
    one_deal = tmp_path / "one-deal.yaml"
    one_deal.write_text(ONE_DEAL_MATCH, encoding="utf-8")
    code, out, _ = run(capsys, "run", str(one_deal), "--seed", "1", "--deals", "5", "--json")
    assert code == 0 and len(json.loads(out)["deals"]) == 1          # the match ended by its rules first
    code, out, _ = run(capsys, "run", "zwanzig-ab", "--seed", "1", "--deals", "3", "--json")
    assert code == 0 and len(json.loads(out)["deals"]) == 3          # the match goes on: stopped after K
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    assert "play at most K deals" in capsys.readouterr().out


def test_run_tells_each_deal_as_soon_as_it_is_scored_and_prints_what_the_whole_narration_would(capsys):
    from rulelang.interpreter.narrate import narrate_match
    from rulelang.interpreter.runner import make_agents, play_match
    from rulelang.loader import load_game
    game = load_game("zwanzig-ab", max_deals=3)
    told: list[dict] = []
    state, record = play_match(game, agents=make_agents(game, None, 4), seed=4,
                               on_deal=lambda deal: told.append(dict(deal, told_at=len(told))))
    assert len(told) == 3 and all(deal.get("delta") for deal in told), "each deal is told once it is scored"
    assert [deal["number"] for deal in told] == [1, 2, 3]
    assert main(["run", "zwanzig-ab", "--seed", "4", "--deals", "3"]) == 0
    printed = capsys.readouterr().out
    assert printed == "\n".join(narrate_match(record.summary(state), "Zwanzig ab — seed 4")) + "\n"
