"""Contracts that can never be won or bid are found by reasoning over the rules (issue 41: W627, W628),
with no finding on any shipped game, and ``--simulate`` says what random play saw."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.validators.report import diagnostics_of

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p for p in (ROOT / "games").iterdir() if p.suffix in (".yaml", ".rules"))


def house(tmp_path: Path, body: str) -> str:
    path = tmp_path / "house.yaml"
    path.write_text("extends: koenigrufen\ngame: house\ntitle: House\n" + body, encoding="utf-8")
    return str(path)


def codes(path: str, simulate: int = 0) -> dict:
    return {d.code: d for d in diagnostics_of(path, simulate=simulate)}


def test_a_target_above_the_pack_makes_a_contract_unwinnable(tmp_path):
    path = house(tmp_path, "params:\n  win_thirds: 400\n")
    found = [d for d in diagnostics_of(path) if d.code == "W627"]
    assert len(found) == 1, found
    assert "'rufer'" in found[0].message and "'piccolo'" not in found[0].message    # won by one trick, not points
    assert "can never be won" in found[0].message and "thirds >= win_thirds" in found[0].message


def test_only_the_contract_whose_branch_cannot_hold_is_reported(tmp_path):
    body = ('items:\n  game:\n    achieved: "if contract == solorufer then tricks(side) > 13 '
            'else thirds >= win_thirds"\n')
    found = [d for d in diagnostics_of(house(tmp_path, body)) if d.code == "W627"]
    assert [d.message.split("'")[1] for d in found] == ["solorufer"]
    assert "tricks(side) > 13" in found[0].message and "at most 13" in found[0].message


def test_an_allow_that_never_holds_makes_a_contract_unbiddable(tmp_path):
    body = 'contracts:\n  dreier:\n    allow: "count(hand(player) & tarock) > 54"\n'
    found = codes(house(tmp_path, body))
    assert "W628" in found and "'dreier' can never be bid" in found["W628"].message


def test_simulate_confirms_what_reasoning_found(tmp_path):
    path = house(tmp_path, "params:\n  win_thirds: 400\n")
    found = codes(path, simulate=30)
    notes = " ".join(text for text, _ in found["W627"].notes)
    assert "random deals" in notes and "won in none" in notes


def test_a_reachable_target_is_no_finding(tmp_path):
    assert not {"W627", "W628"} & set(codes(house(tmp_path, "params:\n  win_thirds: 200\n")))


def test_no_shipped_game_has_a_contract_that_cannot_be_won_or_bid():
    from rulelang.loader import load_definition, open_document
    from rulelang.validators.never import findings
    for game in SHIPPED:                # the reasoning alone: every shipped file is validated whole elsewhere
        found = findings(open_document(str(game)), load_definition(str(game)))
        assert not found, (game.name, [d.message for d, _ in found])
