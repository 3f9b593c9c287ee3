"""Match counters kept per seat (issue 48): ``counters: {NAME: {each: seats, start: N}}``, worked out for each seat
after every deal with ``player`` bound and read as ``NAME(SEAT)``.

Helpster's Zwanzig ab lets a player drop out at most three times in a match: with a counter per seat the
rule is written once for every seat, by fixed seat names or by ``player``, instead of four counters kept
relative to the dealer. A partnership's record is a counter its partners keep alike.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from helpers import write_game
from rulelang.batch.engine import BatchRun
from rulelang.batch.vectorize import BatchUnsupported
from rulelang.diagnostics import RuleError
from rulelang.loader import load_game
from rulelang.render.explain import explain_game

DROPS = '''
  counters:
    drops: {each: seats, start: 0}
    deals_seen: 0
  after_deal:
    drops: "drops(player) + (if player in active then 0 else 1)"
    deals_seen: "deals_seen + 1"
'''


def game_with_drops(tmp_path, limit: int = 3):
    """The fixture base game with a counter of drops per seat; a seat that dropped ``limit`` times must play."""
    path = write_game(tmp_path, "")
    text = path.read_text(encoding="utf-8")
    text = text.replace('pass: "player == forehand"', f'pass: "player == forehand or drops(player) >= {limit}"')
    text = text.replace("match:\n", "match:\n" + DROPS.lstrip("\n"), 1)
    path.write_text(text, encoding="utf-8")
    return load_game(str(path))


def test_each_seat_counts_its_own_drops_and_may_not_drop_past_the_limit(tmp_path):
    game = game_with_drops(tmp_path)
    rng, state = random.Random(2), game.new_initial_state()
    drops = [0, 0, 0, 0]
    while not state.is_terminal() and state.deal_number < 12:
        number = state.deal_number
        while not state.is_terminal() and state.deal_number == number:
            if state.phase is not None and state.phase.kind == "decide" and state.current_player() >= 0:
                seat = state.current_player()
                legal = [game.action_to_string(a) for a in state.legal_actions()]
                assert ("pass" in legal) == (seat != state.forehand and drops[seat] < 3), (legal, drops)
            legal = state.legal_actions()
            dropping = [a for a in legal if game.action_to_string(a) == "pass"]
            state.apply_action(dropping[0] if dropping else rng.choice(legal))       # drop whenever allowed
        if state.deal_number > number:
            active = state.deal_results[-1]["active"]
            drops = [d + (0 if active >> s & 1 else 1) for s, d in enumerate(drops)]
            assert list(state.counters["drops"]) == drops
            assert state.counters["deals_seen"] == state.deal_number
    assert drops == [3, 3, 3, 3], "every seat dropped as often as allowed, and no more"


def test_a_counter_kept_per_seat_is_read_for_one_seat(tmp_path):
    path = write_game(tmp_path, "")
    text = path.read_text(encoding="utf-8").replace("match:\n", "match:\n" + DROPS.lstrip("\n"), 1)
    path.write_text(text.replace('pass: "player == forehand"', 'pass: "drops > 2"'), encoding="utf-8")
    with pytest.raises(RuleError) as raised:
        load_game(str(path))
    assert [d.code for d in raised.value.diagnostics] == ["N201"]
    assert "kept per seat" in raised.value.diagnostics[0].message
    assert "drops(player)" in raised.value.diagnostics[0].hint


def test_explain_says_it_and_the_batch_engine_names_what_it_lacks(tmp_path):
    game = game_with_drops(tmp_path)
    text = "\n".join(explain_game(yaml.safe_load(Path(game.definition.path).read_text(encoding="utf-8"))))
    assert "Each player has a counter drops, starting at 0; after each deal each player's becomes" in text
    with pytest.raises(BatchUnsupported, match="kept per seat"):
        BatchRun(game, 10, seed=0)


TEAM_RECORD = '''
  counters:
    made: {each: teams, start: 0}
  after_deal:
    made: "made(player) + (if declarer != none and player in team(declarer) and points(team(declarer)) >= target then 1 else 0)"
'''


def twenty_nine_with_a_team_record(tmp_path):
    """Twenty-Nine counting, for each partnership, the deals it bid and made."""
    text = Path("games/twenty-nine.yaml").read_text(encoding="utf-8")
    text = text.replace("match:\n", "match:\n" + TEAM_RECORD.lstrip("\n"), 1).replace("game: twenty-nine", "game: t29")
    path = tmp_path / "t29.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(str(path))


def test_a_counter_kept_per_team_is_one_value_both_partners_read(tmp_path):
    game = twenty_nine_with_a_team_record(tmp_path)
    rng, state = random.Random(5), game.new_initial_state()
    made = [0, 0]                                    # P1 and P3; P2 and P4
    while not state.is_terminal():
        number = state.deal_number
        while not state.is_terminal() and state.deal_number == number:
            state.apply_action(rng.choice(state.legal_actions()))
        result = state.deal_results[-1]
        declarer = result["declarer"]
        if declarer is not None and declarer >= 0 and result["delta"][declarer] > 0:
            made[declarer % 2] += 1                  # the bidders score a game point only when they made it
        if not state.is_terminal():
            assert list(state.counters["made"]) == [made[0], made[1], made[0], made[1]]
    assert sum(made) > 0


def test_a_team_counter_is_worked_out_for_the_team_s_first_seat(tmp_path):
    text = Path("games/twenty-nine.yaml").read_text(encoding="utf-8").replace("game: twenty-nine", "game: t29")
    text = text.replace("match:\n", "match:\n  counters:\n    marks: {each: teams, start: 0}\n  after_deal:\n"
                        '    marks: "marks(player) + (if player == P1 or player == P2 then 1 else 100)"\n', 1)
    (tmp_path / "t29.yaml").write_text(text, encoding="utf-8")
    game = load_game(str(tmp_path / "t29.yaml"))
    rng, state = random.Random(1), game.new_initial_state()
    while state.deal_number < 3 and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert list(state.counters["marks"]) == [state.deal_number] * 4
    text = "\n".join(explain_game(yaml.safe_load(text)))
    assert "Each team has a counter marks, starting at 0; after each deal each team's becomes" in text


def test_a_counter_kept_per_team_needs_fixed_teams(tmp_path):
    path = write_game(tmp_path, "")
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("match:\n", "match:\n  counters:\n    made: {each: teams}\n", 1), encoding="utf-8")
    with pytest.raises(RuleError) as raised:
        load_game(str(path))
    assert [d.code for d in raised.value.diagnostics] == ["R382"]
    assert "no fixed teams" in raised.value.diagnostics[0].message
