"""``rulelang simulate --engine batch``: the same statistics as the scalar engine's random players,
from the batch engine; a game it cannot run falls back to the scalar engine with a note."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numpy")

from rulelang.batch.tally import BLOCK  # noqa: E402
from rulelang.cli.main import main  # noqa: E402
from rulelang.cli.simulate import simulate  # noqa: E402


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


DEALS = 20_000


@pytest.fixture(scope="module")
def batch_stats():
    return simulate("zwanzig-ab", DEALS, 0, 11, agents="random", engine="batch").to_json()


def within(value: float, exact: float, variance: float) -> bool:
    return abs(value - exact) <= 4 * (variance / DEALS) ** 0.5


def test_batch_deals_have_the_exact_random_play_shares(batch_stats):
    """As tests/test_simulate.py checks the scalar engine: trumps a quarter each, two cards exchanged
    on average, a seat passing in 9 deals of 32."""
    assert batch_stats["deals"] == DEALS
    assert all(within(batch_stats["vars"]["trump"][s], 1 / 4, 3 / 16) for s in ("clubs", "spades", "hearts", "diamonds"))
    assert all(within(mean, 2.0, 4 / 3) for mean in batch_stats["cards_exchanged"].values())
    passes = batch_stats["decisions"]["decide pass"]
    assert all(within(share, 9 / 32, 9 / 32 * 23 / 32) for share in passes.values())
    plays = batch_stats["decisions"]["decide play"]
    assert all(abs(plays[s] + passes[s] - 1) < 1e-3 for s in plays)


def test_batch_scores_agree_with_the_scalar_engine_within_their_intervals(batch_stats):
    scalar = simulate("zwanzig-ab", 1500, 0, 3, agents="random").to_json()
    for seat, change in batch_stats["score_change"].items():
        assert abs(change - scalar["score_change"][seat]) < 0.35
    assert abs(batch_stats["no_trick_share"] - scalar["no_trick_share"]) < 0.05


def test_the_numbers_do_not_depend_on_how_many_processes_share_the_blocks(capsys):
    deals = str(BLOCK + 500)
    argv = ("simulate", "zwanzig-ab", "--engine", "batch", "--deals", deals, "--matches", "0", "--seed", "4", "--json")
    one = run(capsys, *argv, "--jobs", "1")
    two = run(capsys, *argv, "--jobs", "2")
    assert one[0] == two[0] == 0
    assert json.loads(one[1]) == json.loads(two[1])
    assert json.loads(one[1])["engine"] == "batch" and json.loads(one[1])["agents"] == "random"


def test_a_game_the_batch_engine_cannot_run_falls_back_with_a_note(capsys, monkeypatch):
    from rulelang.batch import engine
    monkeypatch.delitem(engine.phase_kernels(), "passing")
    code, out, err = run(capsys, "simulate", "hearts", "--engine", "batch", "--deals", "20", "--matches", "0",
                         "--seed", "1", "--json")
    assert code == 0
    assert "the batch engine cannot run hearts yet: the phase `passing` (no batch kernel yet)" in err
    assert json.loads(out)["engine"] == "scalar" and json.loads(out)["deals"] == 20


def test_the_batch_engine_plays_random_players_only(capsys):
    code, _, err = run(capsys, "simulate", "zwanzig-ab", "--engine", "batch", "--agents", "heuristic")
    assert code != 0
    assert "--engine batch plays random players only" in err


SCALAR_DEALS = 800


def _shares(stats: dict) -> dict:
    """Every share the table reports of choices: decisions per seat, contracts, deal variables."""
    found = {("contract", name): share for name, share in stats["contracts"].items()}
    for var, shares in stats["vars"].items():
        found.update({("var", var, value): share for value, share in shares.items()})
    for name, seats in stats["decisions"].items():
        found.update({("decision", name, seat): share for seat, share in seats.items()})
    return found


@pytest.mark.parametrize("game", ["hearts", "oh-hell", "euchre", "spades", "skat", "koenigrufen", "bridge",
                                  "doppelkopf", "schafkopf", "zwanzigerrufen"])
def test_batch_random_players_choose_as_the_scalar_random_players_do(game):
    """Every share of a choice (each decision per seat, each contract, each deal variable) from 20,000 batch
    deals lies within five standard errors of the same share from 800 scalar deals with random players:
    the batch engine draws every choice uniformly from the same legal actions."""
    batch = _shares(simulate(game, DEALS, 0, 2, agents="random", engine="batch").to_json())
    scalar = _shares(simulate(game, SCALAR_DEALS, 0, 2, agents="random").to_json())
    for key in set(batch) | set(scalar):
        want, got = scalar.get(key, 0.0), batch.get(key, 0.0)
        spread = max(want * max(1.0, want), 1.0 / SCALAR_DEALS) ** 0.5 / SCALAR_DEALS ** 0.5
        assert abs(got - want) <= 5 * spread + 0.005, f"{game} {key}: batch {got}, scalar {want}"


def test_a_pack_beyond_64_cards_falls_back_to_the_scalar_engine(capsys, tmp_path):
    rules = tmp_path / "tripled.yaml"
    rules.write_text("extends: zwanzig-ab-wikibooks-doubled\ngame: zwanzig-ab-tripled\n"
                     "deck:\n  pack: skat32-german\n  copies: 3\n", encoding="utf-8")
    code, out, err = run(capsys, "simulate", str(rules), "--engine", "batch", "--deals", "10", "--matches", "0",
                         "--seed", "1", "--json")
    assert code == 0
    assert "a pack of 96 cards (the batch engine holds up to 64); the scalar engine plays its deals" in err
    assert json.loads(out)["engine"] == "scalar"
