"""``rulelang simulate``: statistics of play (random players here, heuristic by default), computed generically."""

from __future__ import annotations

import json

import pytest

from rulelang.cli.main import main
from rulelang.cli.simulate import simulate
from rulelang.cli.stats_table import merged_rows, table_rows


def run(capsys, *argv) -> tuple[int, str, str]:
    """Run the command line; (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(scope="module")
def base_stats():
    return simulate("zwanzig-ab", 200, 10, 7, agents="random").to_json()


def test_shares_of_each_deal_variable_add_up_to_one(base_stats):
    assert base_stats["deals"] == 200
    assert set(base_stats["vars"]["trump"]) == {"clubs", "spades", "hearts", "diamonds"}
    assert sum(base_stats["vars"]["trump"].values()) == pytest.approx(1, abs=1e-3)


def test_every_seat_plays_or_passes_once_per_deal_forced_plays_included(base_stats):
    play, passes = base_stats["decisions"]["decide play"], base_stats["decisions"]["decide pass"]
    for seat in ("P1", "P2", "P3", "P4"):
        assert play[seat] + passes[seat] == pytest.approx(1, abs=1e-3)
        assert 0 < passes[seat] < 1


def test_per_deal_numbers_are_in_range(base_stats):
    assert 0 <= base_stats["no_trick_share"] <= 1
    assert all(0 <= v <= 3 for v in base_stats["cards_exchanged"].values())
    assert all(-10 <= v <= 10 for v in base_stats["score_change"].values())
    assert base_stats["contracts"] == {}
    length = base_stats["match_length"]
    assert length["matches"] == 10 and length["min"] >= 1 and length["mean"] >= length["min"]


def test_the_same_seed_gives_the_same_numbers(base_stats):
    assert simulate("zwanzig-ab", 200, 10, 7, agents="random").to_json() == base_stats


def test_the_numbers_do_not_depend_on_how_many_processes_share_the_deals(base_stats):
    assert simulate("zwanzig-ab", 200, 10, 7, agents="random", jobs=2).to_json() == base_stats


def test_cli_jobs_gives_the_same_json_and_is_bounded(capsys):
    outputs = [run(capsys, "simulate", "zwanzigerrufen", "--deals", "30", "--matches", "0", "--seed", "4",
                   "--json", "--jobs", jobs, "--agents", "random") for jobs in ("1", "2")]
    assert outputs[0][0] == 0 and outputs[0][1] == outputs[1][1], "the same JSON (the progress lines tell times)"
    code, out, err = run(capsys, "simulate", "zwanzig-ab", "--jobs", "65")
    assert code == 2 and "--jobs 65: at most 64 processes" in err


def test_a_game_without_choices_has_no_deal_variables_or_decisions():
    stats = simulate("fuenf-dazu", 30, 0, 1, agents="random").to_json()
    assert stats["vars"] == {} and stats["decisions"] == {} and stats["cards_exchanged"] == {}
    assert stats["match_length"] == {"matches": 0, "unfinished": 0}
    assert stats["deals"] == 30 and 0 < stats["no_trick_share"] <= 1


def test_contracts_are_counted_for_games_with_a_ladder():
    stats = simulate("zwanzigerrufen", 20, 0, 3, agents="random").to_json()
    assert stats["contracts"] and sum(stats["contracts"].values()) == pytest.approx(1, abs=1e-3)
    assert any(name.startswith("auction ") for name in stats["decisions"])


def test_hearts_blind_shows_up_as_a_deal_variable():
    stats = simulate("zwanzig-ab-kartenspiele", 60, 0, 2, agents="random").to_json()
    assert set(stats["vars"]["mode"]) == {"blind", "look"}
    assert stats["vars"]["trump"]["hearts"] >= stats["vars"]["mode"]["blind"]


def test_table_rows_and_side_by_side_rows(base_stats):
    rows = table_rows(base_stats)
    assert ("", "deals played", "200") in rows
    assert any(r[1] == "trump = hearts" for r in rows)
    merged = merged_rows([base_stats, {**base_stats, "game": "other", "vars": {}}])
    trump = [r for r in merged if r[1] == "trump = hearts"][0]
    assert trump[3] == ""                                          # missing in the second game


def test_cli_json_and_compare_run_both_games_on_the_same_seeds(capsys):
    code, out, _ = run(capsys, "simulate", "zwanzig-ab", "--deals", "40", "--matches", "2", "--seed", "5", "--json",
                       "--compare", "zwanzig-ab-allekartenspiele", "--agents", "random")
    data = json.loads(out)
    assert code == 0 and data["seed"] == 5 and data["matches"] == 2
    first, second = data["games"]
    assert (first["game"], second["game"]) == ("zwanzig-ab", "zwanzig-ab-allekartenspiele")
    assert first["deals"] == second["deals"] == 40


def test_cli_table_without_a_terminal_tells_its_progress_in_plain_lines(capsys):
    code, out, err = run(capsys, "simulate", "zwanzig-ab-helpster", "--deals", "20", "--matches", "1", "--seed", "1",
                          "--agents", "random")
    lines = err.splitlines()
    assert code == 0 and 1 <= len(lines) <= 10 and "\x1b" not in err, "at most a line a tenth, no terminal codes"
    assert lines[-1].startswith("simulating zwanzig-ab-helpster: 21/21 deals, ") and lines[-1].endswith("done")
    assert "rulelang simulate — seed 1" in out and "zwanzig-ab-helpster" in out and "decide: says pass" in out


def test_cli_refuses_zero_deals_and_negative_matches(capsys):
    with pytest.raises(SystemExit) as stop:                       # a usage error from argparse
        run(capsys, "simulate", "zwanzig-ab", "--deals", "0")
    assert stop.value.code == 2
    with pytest.raises(SystemExit) as stop:
        run(capsys, "simulate", "zwanzig-ab", "--deals", "5", "--matches", "-1")
    assert stop.value.code == 2


# ---------------------------------------------------------------------- against numbers worked out by hand
# Zwanzig ab with random players: forehand picks trumps uniformly (1/4 each); in the exchange a random
# player stops ("done") with chance 1/6, 1/5, 1/4 after 0, 1, 2 discards of a five-card hand and must stop
# at 3, so it exchanges 0, 1, 2 or 3 cards with chances 1/6, 1/6, 1/6, 1/2 (mean 2, variance 4/3); a seat
# that is not forehand (3 deals in 4) may pass unless diamonds are trumps (3 in 4), and does so half the
# time: 9/32. Each share is checked within four standard errors of the exact value.
EXACT_DEALS = 2000


@pytest.fixture(scope="module")
def many_deals():
    return simulate("zwanzig-ab", EXACT_DEALS, 1, 11, agents="random").to_json()


def within(value: float, exact: float, variance: float) -> bool:
    return abs(value - exact) <= 4 * (variance / EXACT_DEALS) ** 0.5


def test_a_random_forehand_picks_each_trump_suit_a_quarter_of_the_time(many_deals):
    shares = many_deals["vars"]["trump"]
    assert all(within(shares[suit], 1 / 4, 1 / 4 * 3 / 4) for suit in ("clubs", "spades", "hearts", "diamonds"))


def test_a_random_player_exchanges_two_cards_on_average(many_deals):
    assert all(within(mean, 2.0, 4 / 3) for mean in many_deals["cards_exchanged"].values())


def test_a_random_seat_passes_nine_deals_in_thirty_two(many_deals):
    passes = many_deals["decisions"]["decide pass"]
    assert all(within(share, 9 / 32, 9 / 32 * 23 / 32) for share in passes.values())


# ---------------------------------------------------------------------- what a designer reads off
def test_seat_advantages_are_against_the_table_and_come_with_an_interval(base_stats):
    advantage = base_stats["seat_advantage"]
    assert sum(a["mean"] for a in advantage.values()) == pytest.approx(0, abs=1e-3)
    assert all(a["ci95"][0] < a["mean"] < a["ci95"][1] for a in advantage.values())


def test_the_score_distribution_counts_every_deal_for_every_seat(base_stats):
    for seat, counts in base_stats["score_distribution"].items():
        assert sum(counts.values()) == 200
        mean = sum(float(v) * k for v, k in counts.items()) / 200
        assert mean == pytest.approx(base_stats["score_change"][seat], abs=1e-3)
    assert sum(base_stats["match_lengths"].values()) == 10


def test_contracts_made_and_items_are_counted_from_the_deals():
    stats = simulate("zwanzigerrufen", 40, 0, 3, agents="random").to_json()
    assert set(stats["contracts_made"]) <= set(stats["contracts"])
    assert all(0 <= share <= 1 for share in stats["contracts_made"].values())
    assert stats["items"]["Game"] == {"scored": 1.0, "announced": 0.0}       # the game item is scored every deal
    assert all(v["announced"] <= v["scored"] for v in stats["items"].values())


def test_the_command_plays_heuristic_players_unless_told_and_says_so(capsys):
    code, out, _ = run(capsys, "simulate", "fuenf-dazu", "--deals", "4", "--matches", "0", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["agents"] == "heuristic"
    code, out, _ = run(capsys, "simulate", "fuenf-dazu", "--deals", "4", "--matches", "0", "--seed", "1")
    assert "agents heuristic" in out


def test_a_compare_game_that_does_not_exist_is_reported_before_any_deal_is_played(capsys, monkeypatch):
    import rulelang.cli.simulate as module
    monkeypatch.setattr(module, "play_chunk", lambda *args: pytest.fail("a deal was played"))
    code, _, err = run(capsys, "simulate", "zwanzig-ab", "--deals", "5", "--compare", "zwanzig-ab-nonesuch")
    assert code != 0 and "no rule file or shipped game called 'zwanzig-ab-nonesuch'" in err


SEAT_VARIABLE = """\
extends: zwanzig-ab
phases:
  1:
    set: {var: opener, value: forehand}
"""


def test_a_seat_held_in_a_deal_variable_is_shown_by_its_name(capsys, tmp_path):
    rules = tmp_path / "seat-variable.yaml"
    rules.write_text(SEAT_VARIABLE, encoding="utf-8")
    code, out, _ = run(capsys, "simulate", str(rules), "--deals", "20", "--matches", "0", "--seed", "1", "--json")
    assert code == 0
    assert set(json.loads(out)["vars"]["opener"]) <= {"P1", "P2", "P3", "P4"}     # not 0-based numbers


def test_a_contract_is_made_when_the_deal_moves_its_declarer_toward_winning_the_match():
    from rulelang.interpreter.tally import contract_made
    shed = {"delta": [-2, 5, 0, 0], "declarer": 0}                  # a game scored in a score phase, no items
    assert contract_made(shed, lowest_wins=True) and not contract_made(shed, lowest_wins=False)
    won_item = {"delta": [0, 0, 0, 0], "declarer": 0, "items": [{"game": True, "side": "declarers"}]}
    assert contract_made(won_item, lowest_wins=True)                 # with items, the game item decides


def test_decisions_read_in_the_games_words_and_count_each_time_per_hundred_deals():
    stats = simulate("zwanzigerrufen", 12, 3, 0, agents="random").to_json()
    rows = {name: value for section, name, value in table_rows(stats) if section.startswith("decisions")}
    assert "auction: passes (weiter)" in rows and "auction: bids Call (normal game)" in rows
    passes = [float(part) for part in rows["auction: passes (weiter)"].split()[1::2]]
    assert max(passes) > 100, "a seat passes more than once a deal in Zwanzigerrufen's auction, each time counted"
    assert all(section == "decisions (times a seat makes each, per 100 deals)"
               for section, name, _ in table_rows(stats) if name.startswith("auction:"))


def test_a_search_with_a_budget_in_playouts_gives_the_same_numbers_for_the_same_seed():
    runs = [simulate("zwanzig-ab", 3, 0, 5, agents="search:playouts=6;rollouts=4").to_json() for _ in range(2)]
    assert runs[0] == runs[1]
