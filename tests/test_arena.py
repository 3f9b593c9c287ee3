"""``rulelang arena --matches M``: duplicate whole matches, every rotation dealt the same deals."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rulelang.cli.arena import _DealChance, _play, arena
from rulelang.cli.main import main
from rulelang.interpreter.agents import make_agent
from rulelang.loader import load_game


def without_timings(result: dict) -> dict:
    """An arena result without its timings, which differ from run to run."""
    return {**result, "agents": [{k: v for k, v in a.items() if k != "ms_per_move"} for a in result["agents"]]}


@pytest.fixture(scope="module")
def with_matches():
    return arena("zwanzig-ab", ["random", "random"], 6, 4, matches=6)


def test_every_rotation_of_a_match_is_dealt_the_same_deals_however_the_play_went():
    game = load_game("zwanzig-ab", max_deals=60)
    dealt = []
    for seed in (1, 2):                                   # different players' seeds: different play, match lengths
        agents = [make_agent("random", seed * 10 + s) for s in range(4)]
        state = _play(game, agents, [0, 1, 2, 3], _DealChance(7, True), Counter(), Counter(), [])
        dealt.append([(r["dealer"], r["dealt"]) for r in state.deal_results])
    common = min(map(len, dealt))
    assert common >= 2 and dealt[0][:common] == dealt[1][:common]
    assert dealt[0][0] != dealt[0][1]                    # not one deal over and over


def test_per_match_results_come_with_an_interval_and_the_wins_add_up_to_every_match(with_matches):
    assert with_matches["matches"] == 6
    shares = [agent["per_match"]["wins"] for agent in with_matches["agents"]]
    assert sum(shares) == pytest.approx(1, abs=1e-3) and all(0 <= s <= 1 for s in shares)
    for agent in with_matches["agents"]:
        low, high = agent["per_match"]["ci95"]
        assert low <= agent["per_match"]["mean"] <= high


def test_matches_leave_the_per_deal_figures_as_they_were(with_matches):
    alone = arena("zwanzig-ab", ["random", "random"], 6, 4)
    per_deal = {**with_matches, "agents": [{k: v for k, v in a.items() if k != "per_match"}
                                           for a in with_matches["agents"]]}
    per_deal.pop("matches")
    assert without_timings(per_deal) == without_timings(alone)


def test_the_same_seed_gives_the_same_matches_whatever_the_number_of_jobs(with_matches):
    assert without_timings(arena("zwanzig-ab", ["random", "random"], 6, 4, jobs=2, matches=6)) == \
        without_timings(with_matches)


def test_the_command_line_prints_the_matches(capsys):
    assert main(["arena", "zwanzig-ab", "--agents", "heuristic:rollouts=2,random", "--deals", "1",
                 "--matches", "1", "--seed", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["matches"] == 1 and set(result["agents"][0]["per_match"]) == {"mean", "ci95", "wins"}
    assert main(["arena", "zwanzig-ab", "--agents", "random,random", "--deals", "1", "--matches", "1",
                 "--seed", "2"]) == 0
    assert "per match (1 duplicate matches)" in capsys.readouterr().out


def test_a_search_with_a_budget_in_playouts_gives_the_same_numbers_for_the_same_seed():
    specs = ["search:playouts=6;rollouts=4", "heuristic:rollouts=4"]
    assert without_timings(arena("zwanzig-ab", specs, 2, 11)) == without_timings(arena("zwanzig-ab", specs, 2, 11))
