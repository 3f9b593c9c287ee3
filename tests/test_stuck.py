"""A state that is not finished always has someone who can act (issue 37): where the rules leave
a seat to act with no legal action, every way of playing stops with E550 at the phase — never
an internal error, never a hang. (What the rules decide statically is refused earlier, at
``validate``: R373, R374, R375; see tests/invalid.)

The file below validates (whether the dealer runs out of cards depends on who leads), so only
play can find it: the dealer and forehand play out their hands between themselves, and in the
second trick play the dealer holds no card when his turn comes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.cli.main import main
from rulelang.compile.values import NoLegalAction
from rulelang.interpreter.agents import SeededChance
from rulelang.interpreter.state import CHANCE
from rulelang.loader import load_game

ROOT = Path(__file__).resolve().parent.parent
STUCK = "tests/invalid/E550-no-legal-action.yaml"
_BASE = (ROOT / "tests" / "invalid" / "fixtures" / "base.yaml").read_text(encoding="utf-8")
PLAIN_TEXT = _BASE.split("phases:")[0] + "phases:" + (ROOT / STUCK).read_text(encoding="utf-8").split("phases:")[1] + \
    "match:" + _BASE.split("match:")[1]     # the file without `extends`, as a person uploads it


def _stuck_state():
    state, chance = load_game(STUCK).new_initial_state(), SeededChance(1)
    while True:
        if state.current_player() == CHANCE:
            chance.play(state)
            continue
        try:
            legal = state.legal_actions()
        except NoLegalAction:
            return state
        state.apply_action(legal[0])


def test_the_engine_names_the_seat_and_the_phase_instead_of_offering_nothing():
    state = _stuck_state()
    with pytest.raises(NoLegalAction, match=r"P\d is to act in phase 5 \(tricks\) but has no legal action") as stuck:
        state.legal_actions()
    assert stuck.value.span.line == 13 and not state.is_terminal()
    assert state.hands[state.current_player()] == 0          # the seat to act has no card: stuck, not over


@pytest.mark.parametrize("command", [
    ["run", STUCK, "--seed", "1"],
    ["run", STUCK, "--seed", "1", "--agents", "heuristic"],
    ["simulate", STUCK, "--deals", "5"],
    ["simulate", STUCK, "--deals", "5", "--engine", "batch"],
    ["arena", STUCK, "--agents", "random,heuristic", "--deals", "2"],
], ids=lambda c: " ".join(c[2:]))
def test_every_command_stops_with_e550_at_the_phase(command, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(command) == 1
    err = capsys.readouterr().err
    assert f"{STUCK}:13:5: error[E550]:" in err and "internal error" not in err


def test_validate_with_simulate_reports_it_before_play(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["validate", STUCK, "--simulate", "3"]) == 1
    assert "error[E550]" in capsys.readouterr().out


def test_a_web_table_stops_with_e550_shown_to_every_seat(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from rulelang.web.app import create_app
    from web_helpers import make_table, play_until_failure
    with TestClient(create_app(str(tmp_path), bot_delay=0)) as client:
        client.headers["x-owner-token"] = "the-uploader-of-this-test"      # an upload is its uploader's
        upload = client.post("/api/rules", json={"name": "stuck.yaml", "text": PLAIN_TEXT})
        assert upload.status_code == 200, upload.text
        table = make_table(client, upload.json()["ref"], ["person", "random", "random", "random"])
        failed = play_until_failure(client, table)
        assert failed is not None and "error[E550]" in failed["failure"] and "stuck.yaml:" in failed["failure"]
