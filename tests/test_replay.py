"""Logs: a hand-written log with an explicit deal replays; illegal or divergent logs stop at their line.

The logs live in ``tests/logs/``. ``zwanzig-ab-hearts-deal.jsonl`` is one deal written by
hand: P1 deals, P2 names hearts, P4 exchanges two cards and passes, P2 takes three
tricks (−6), P3 two (−4) and P1 none (+10).
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from helpers import GOLDEN_CLI, LOGS, YAML_GAME, assert_golden, relative_paths
from rulelang.diagnostics import RuleError
from rulelang.interpreter.log import log_lines, read_log, write_log
from rulelang.interpreter.replay import replay
from rulelang.interpreter.runner import play_match
from rulelang.loader import load_game, shipped_games

FILES = [p for p in shipped_games() if p.stem == "zwanzig-ab"]
GOOD = LOGS / "zwanzig-ab-hearts-deal.jsonl"
ILLEGAL = LOGS / "zwanzig-ab-illegal-follow.jsonl"
WRONG_RESULT = LOGS / "zwanzig-ab-wrong-result.jsonl"


@lru_cache(maxsize=None)
def game_of(path, max_deals=None):
    return load_game(str(path), max_deals=max_deals)


@pytest.fixture(params=FILES, ids=[p.name for p in FILES])
def one_deal(request):
    return game_of(request.param, max_deals=1)


def column_of(path, line: int, text: str) -> int:
    """The 1-based column of ``text`` on line ``line`` of ``path``."""
    return path.read_text(encoding="utf-8").splitlines()[line - 1].index(text) + 1


def test_a_hand_written_log_with_an_explicit_deal_replays_with_the_expected_scores(one_deal):
    outcome = replay(read_log(str(GOOD)), one_deal)
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert outcome.notes == []
    state = outcome.state
    assert state.scores == [30, 14, 16, 20]
    assert state.tricks.taken == [0, 3, 2, 0]
    assert state.var_text("trump") == "hearts"
    assert one_deal.deck.names(state.out) == ["A♥", "10♥"]       # written as A♥ and 10h in the log
    assert outcome.applied == 1 + 20 + 2 + 25                   # first dealer, dealt, drawn, logged moves
    deal = outcome.record.deals[0]
    assert deal["dealer"] == "P1" and deal["forehand"] == "P2"
    assert [t["winner"] for t in deal["tricks"]] == ["P2", "P2", "P2", "P3", "P3"]


def test_a_card_that_does_not_follow_suit_stops_the_replay_with_e530_at_its_line_and_column(one_deal):
    outcome = replay(read_log(str(ILLEGAL)), one_deal)
    assert not outcome.ok
    problem = outcome.problem
    assert problem.code == "E530"
    assert (problem.span.line, problem.span.column) == (14, column_of(ILLEGAL, 14, '"A♦"'))
    assert problem.message == ("illegal move in deal 1: P3 may not play A♦: "
                               "the follow rule `led_suit` requires one of 9♠ 8♠ 7♠")
    assert outcome.state.tricks.trick == [(1, one_deal.string_to_action("A♠"))]   # stopped before the bad card


def test_the_e530_message_names_the_log_line_and_the_rule_that_forbids_the_card():
    game = game_of(YAML_GAME, max_deals=1)
    outcome = replay(read_log(str(ILLEGAL)), game)
    assert_golden(GOLDEN_CLI / "replay_illegal_follow.txt", relative_paths(outcome.problem.render()) + "\n")


def test_a_log_whose_result_differs_gives_e531_at_the_scores(one_deal):
    outcome = replay(read_log(str(WRONG_RESULT)), one_deal)
    assert not outcome.ok
    problem = outcome.problem
    assert problem.code == "E531"
    assert (problem.span.line, problem.span.column) == (28, column_of(WRONG_RESULT, 28, "{\"P1\": 30"))
    assert "'P2': 14" in problem.message and "'P2': 13" in problem.message
    assert outcome.state.scores == [30, 14, 16, 20]


@pytest.mark.parametrize("seed", [1, 7])
def test_a_seeded_runs_log_replays_ok(one_deal, seed, tmp_path):
    game = one_deal
    state, record = play_match(game, seed=seed)
    path = tmp_path / "seeded.jsonl"
    write_log(str(path), log_lines(game, seed, record, state))
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["type"] == "header" and lines[0]["seed"] == seed and lines[0]["digest"] == game.definition.digest
    assert lines[-1] == {"type": "result", "deals": 1, "winner": None, "winners": [],
                         "scores": {f"P{s + 1}": v for s, v in enumerate(state.scores)}}
    outcome = replay(read_log(str(path)), game)
    assert outcome.ok and outcome.state.scores == state.scores
    assert outcome.state.history == state.history


# ---------------------------------------------------------------------- other located problems
def write(tmp_path, lines: list) -> str:
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in lines) + "\n",
                    encoding="utf-8")
    return str(path)


def good_lines() -> list[dict]:
    return [json.loads(x) for x in GOOD.read_text(encoding="utf-8").splitlines()]


def test_the_wrong_seat_acting_gives_e532(one_deal, tmp_path):
    lines = good_lines()
    lines[3]["seat"] = "P4"                                      # line 4: it is P2's turn to exchange
    outcome = replay(read_log(write(tmp_path, lines)), one_deal)
    assert outcome.problem.code == "E532" and outcome.problem.span.line == 4
    assert outcome.problem.message == "the log has P4 act here, but it is P2's turn"


def test_an_action_that_names_nothing_gives_e533(one_deal, tmp_path):
    lines = good_lines()
    lines[2]["action"] = "trumps"
    outcome = replay(read_log(write(tmp_path, lines)), one_deal)
    assert outcome.problem.code == "E533" and outcome.problem.span.line == 3


def test_a_deal_naming_an_unknown_card_gives_e520(one_deal, tmp_path):
    lines = good_lines()
    lines[1]["hands"]["P1"][0] = "11♠"
    outcome = replay(read_log(write(tmp_path, lines)), one_deal)
    assert outcome.problem.code == "E520" and outcome.problem.span.line == 2


def test_a_deal_giving_a_card_twice_stops_the_replay(one_deal, tmp_path):
    lines = good_lines()
    lines[1]["hands"]["P1"][0] = "A♠"                            # P2 holds A♠ too
    outcome = replay(read_log(write(tmp_path, lines)), one_deal)
    assert not outcome.ok and outcome.problem.code == "E521" and outcome.problem.span.line == 2


@pytest.mark.parametrize("lines, code", [
    (['{"type": "action", "seat": "P1", "action": "pass"}'], "E544"),
    (['{"type": "header", "game": "zwanzig-ab"}', '{"type": "action", "seat": '], "E542"),
    (['{"type": "header", "game": "zwanzig-ab"}', '["action"]'], "E543"),
    (['{"type": "header", "game": "zwanzig-ab"}', '{"type": "bid"}'], "E543"),
])
def test_a_malformed_log_is_refused_with_a_located_error(tmp_path, lines, code):
    with pytest.raises(RuleError) as caught:
        read_log(write(tmp_path, lines))
    assert [d.code for d in caught.value.diagnostics] == [code]
    assert caught.value.diagnostics[0].span is not None


def test_a_missing_log_file_is_refused_with_e541(tmp_path):
    with pytest.raises(RuleError) as caught:
        read_log(str(tmp_path / "nowhere.jsonl"))
    assert caught.value.diagnostics[0].code == "E541"


# ---------------------------------------------------------------------- malformed and overlong logs
def test_moves_logged_after_the_end_of_the_match_are_reported_with_e536(one_deal, tmp_path):
    lines = good_lines()
    lines.insert(-1, {"type": "action", "seat": "P3", "action": "9♥"})   # P3 does not even hold 9♥
    outcome = replay(read_log(write(tmp_path, lines)), one_deal)
    assert not outcome.ok
    assert (outcome.problem.code, outcome.problem.span.line) == ("E536", 28)
    assert outcome.state.scores == [30, 14, 16, 20]                   # the match itself was replayed


def test_a_log_without_its_deal_is_reported_with_e537_at_the_first_move(one_deal, tmp_path):
    lines = [line for line in good_lines() if line["type"] not in ("deal", "result")]
    outcome = replay(read_log(write(tmp_path, lines)), one_deal)
    assert not outcome.ok
    assert (outcome.problem.code, outcome.problem.span.line) == ("E537", 2)
    assert outcome.applied == 0


@pytest.mark.parametrize("change", [
    {"hands": ["A♣", "10♣"]},
    {"hands": {"P1": "Q♠ J♠ K♦ Q♦ J♦"}},
    {"talon": "K♥ Q♥"},
], ids=["hands a list", "cards a string", "talon a string"])
def test_a_malformed_deal_line_gives_e538_at_its_line(one_deal, tmp_path, change):
    lines = good_lines()
    lines[1].update(change)
    outcome = replay(read_log(write(tmp_path, lines)), one_deal)
    assert not outcome.ok
    assert (outcome.problem.code, outcome.problem.span.line) == ("E538", 2)
