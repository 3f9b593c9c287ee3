"""The match end checked after each trick (issue 48): a trick rule set's ``ends_when`` reads the match scores with
what the deal has taken so far, so play stops in the trick that reaches the target and the match's ``end`` sees
the deal scored. German Whist to 20, scored by the tricks taken from the fourteenth on."""

from __future__ import annotations

import random

from rulelang.loader import load_game

TRICKS = '''
    tricks:
      among: seats
      lead: forehand
      follow: [led_suit, any]
      win: [{highest: trump}, {highest: led_suit}]
      draw: {each: 1, shown: top}
'''


def race(tmp_path, stop_in_deal: bool):
    """German Whist to 20, play stopping in the trick that reaches it or not."""
    stop = '      ends_when: "max(score(p) + late_tricks(p) for p in seats) >= target"\n' if stop_in_deal else ""
    path = tmp_path / f"race-{stop_in_deal}.yaml"
    path.write_text("extends: german-whist\nparams:\n  target: 20\nphases:\n  4:" + TRICKS + stop, encoding="utf-8")
    return load_game(str(path))


def final_states(game, seeds):
    for seed in seeds:
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


def test_play_stops_in_the_trick_that_reaches_the_target(tmp_path):
    finals = list(final_states(race(tmp_path, stop_in_deal=True), range(40)))
    assert all(max(state.scores) == 20 for state in finals), [state.scores for state in finals]
    assert any(any(state.hands) for state in finals), "some last deals stopped with cards still in hand"

def test_without_it_the_last_deal_is_played_out_past_the_target(tmp_path):
    finals = list(final_states(race(tmp_path, stop_in_deal=False), range(40)))
    assert any(max(state.scores) > 20 for state in finals)
