"""With `teams`, the match is won by a team: partners level on the top score are no tie.

Spades scores a team's points to both partners, so the two leaders were always tied: a team's
win was narrated "shared win" and logged `"winner": null`, and under `tie: play_on` the match
never ended. Now ties and winners are judged by team, and the log and narration name the team.
"""

from __future__ import annotations

import json

import pytest

from rulelang.cli.main import main
from rulelang.interpreter.runner import play_match
from rulelang.loader import load_text

ONE_DEAL = """
game: spades-one-deal
extends: spades
match:
  end: "deal_number >= 1"
  tie: play_on
"""


@pytest.fixture(scope="module")
def finished():
    game = load_text(ONE_DEAL, syntax="yaml")
    state, record = play_match(game, seed=1)
    return state, record


def test_partners_level_on_the_top_score_win_together(finished):
    state, _ = finished
    scores = state.scores
    assert state.match_ended and len(state.deal_results) >= 1
    assert len(state.winners) == 2 and scores[state.winners[0]] == scores[state.winners[1]]
    assert {state.winners} <= {(0, 2), (1, 3)}
    assert state.winner is None                                     # no seat won alone


def test_the_summary_names_the_winning_team(finished):
    state, record = finished
    summary = record.summary(state)
    names = ["P1 and P3", "P2 and P4"]
    assert summary["winner"] in names and summary["winners"] == summary["winner"].split(" and ")


def test_the_log_and_the_narration_name_the_winning_team(tmp_path, capsys):
    rules = tmp_path / "spades-one-deal.yaml"
    rules.write_text(ONE_DEAL, encoding="utf-8")
    log = tmp_path / "match.jsonl"
    assert main(["run", str(rules), "--seed", "1", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    result = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert result["winner"] in ("P1 and P3", "P2 and P4") and len(result["winners"]) == 2
    assert f"{result['winner']} win." in out and "shared win" not in out
