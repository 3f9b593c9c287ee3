"""Contract Bridge (games/bridge.yaml), rule by rule in card names.

The auction from the dealer (each bid above the last, double by an opponent, redouble by
the doubled side, the pass-out, the declarer as the first of his side to name the
strain), the dummy laid open after the opening lead and played by the declarer, and the
duplicate score. The deal against OpenSpiel is tests/test_bridge_openspiel.py;
``tests/logs/bridge-3nt-redoubled.jsonl`` is a hand-written deal that replays to its scores.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from helpers import LOGS, Table, seat
from rulelang.interpreter.log import read_log
from rulelang.interpreter.replay import replay
from rulelang.interpreter.state import IllegalActionError
from rulelang.loader import load_game, load_text

LOG = LOGS / "bridge-3nt-redoubled.jsonl"

# P1 holds the top three of every suit and the A♣ K♣ Q♣; the rest is spread by rank.
HANDS = {"P1": "A♠ K♠ Q♠ J♠ A♥ K♥ Q♥ A♦ K♦ Q♦ A♣ K♣ Q♣", "P2": "10♠ 9♠ 8♠ J♥ 10♥ 9♥ J♦ 10♦ 9♦ J♣ 10♣ 9♣ 8♣",
         "P3": "7♠ 6♠ 5♠ 8♥ 7♥ 6♥ 8♦ 7♦ 6♦ 7♣ 6♣ 5♣ 4♣", "P4": "4♠ 3♠ 2♠ 5♥ 4♥ 3♥ 2♥ 5♦ 4♦ 3♦ 2♦ 3♣ 2♣"}


@lru_cache(maxsize=None)
def game(vulnerable: bool = False):
    if not vulnerable:
        return load_game("bridge", max_deals=1)
    return load_text("extends: bridge\nparams:\n  dealer_vulnerable: true\n  non_dealer_vulnerable: true\n", "yaml",
                     max_deals=1)


def table(*moves, vulnerable: bool = False) -> Table:
    t = Table(game(vulnerable), HANDS, dealer="P1")
    t.do(*moves)
    return t


def play_out(t: Table) -> list[int]:
    st = t.state
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    return st.deal_results[-1]["delta"]


# ---------------------------------------------------------------------- the auction
def test_the_dealer_calls_first_and_every_bid_is_higher_than_the_last():
    t = table()
    assert t.to_act() == "P1" and {"1clubs", "7notrump", "pass"} <= set(t.legal()) and "double" not in t.legal()
    t.do("P1 1spades")
    assert "1spades" not in t.legal() and "1hearts" not in t.legal() and {"1notrump", "2clubs"} <= set(t.legal())


def test_only_an_opponent_doubles_and_only_the_doubled_side_redoubles():
    t = table("P1 1spades")
    assert "double" in t.legal() and "redouble" not in t.legal()
    t.do("P2 pass")
    with pytest.raises(IllegalActionError) as error:
        t.state.apply_checked(t.game.string_to_action("double"))
    assert error.value.diagnostic.code == "E517" and "his own side's" in error.value.diagnostic.message
    t.do("P3 pass", "P4 double")
    assert "redouble" in t.legal() and "double" not in t.legal()
    t.do("P1 pass", "P2 pass")
    assert "redouble" in t.legal()                             # P3, the doubled side, may still redouble


def test_four_passes_pass_the_deal_out():
    t = table("P1 pass", "P2 pass", "P3 pass", "P4 pass")
    assert t.state.is_terminal() and t.state.deal_results[-1]["delta"] == [0, 0, 0, 0]


def test_the_declarer_is_the_first_of_his_side_to_name_the_strain():
    t = table("P1 1hearts", "P2 pass", "P3 2hearts", "P4 pass", "P1 pass", "P2 pass")
    assert t.to_act() == "P2"                                  # three passes: the left of P1 leads
    assert t.game.seat_name(t.state.declarer) == "P1" and t.state.var_text("trump") == "hearts"
    assert t.state.vars["level"] == 2 and t.state.vars["doubling"] == 0


# ---------------------------------------------------------------------- the dummy
def test_the_dummy_is_laid_open_after_the_opening_lead_and_the_declarer_plays_it():
    t = table("P1 3notrump", "P2 pass", "P3 pass", "P4 pass")
    before = t.state.information_state_string(seat("P2"))
    assert "dummy_hand" not in t.state.observation(seat("P2")) and "7♠" not in before
    t.do("P2 10♠")
    for player in ("P1", "P2", "P4"):
        assert t.state.observation(seat(player))["dummy_hand"] == t.game.deck.names(t.state.hands[seat("P3")])
        assert "| dummy P3: " in t.state.information_state_string(seat(player))
    assert t.to_act() == "P1" and t.state.current == seat("P3")       # the declarer chooses the dummy's card
    assert set(t.legal()) == {"7♠", "6♠", "5♠"}
    t.do("P1 5♠")
    assert t.to_act() == "P4"


def test_a_resampled_world_keeps_the_dummy_and_deals_the_other_hidden_hands_anew():
    t = table("P1 3notrump", "P2 pass", "P3 pass", "P4 pass", "P2 10♠")
    rng, moved = random.Random(3), 0
    for _ in range(10):
        world = t.state.resample_from_infostate(seat("P4"), rng)
        assert world.hands[seat("P3")] == t.state.hands[seat("P3")]
        assert world.information_state_string(seat("P4")) == t.state.information_state_string(seat("P4"))
        moved += world.hands[seat("P1")] != t.state.hands[seat("P1")]
    assert moved


# ---------------------------------------------------------------------- the score
def test_three_notrump_redoubled_with_four_overtricks_not_vulnerable():
    t = table("P1 3notrump", "P2 double", "P3 pass", "P4 pass", "P1 redouble", "P2 pass", "P3 pass", "P4 pass")
    # 4 × 100 for the contract, 300 game, 100 for making it redoubled, 4 × 200 overtricks
    assert play_out(t) == [1600, -1600, 1600, -1600] and t.state.tricks.taken[0] == 13


def test_a_grand_slam_vulnerable():
    t = table("P1 7notrump", "P2 pass", "P3 pass", "P4 pass", vulnerable=True)
    assert play_out(t) == [2220, -2220, 2220, -2220]            # 220 + 1500 slam + 500 game


def test_undertricks_doubled_vulnerable():
    t = table("P1 pass", "P2 7clubs", "P3 double", "P4 pass", "P1 pass", "P2 pass", vulnerable=True)
    # P2 and P4 take one trick (a club ruff): 12 down doubled vulnerable, 200 + 11 × 300
    assert play_out(t) == [3500, -3500, 3500, -3500] and t.state.tricks.taken[1] + t.state.tricks.taken[3] == 1


def test_the_hand_written_log_replays_to_its_scores():
    outcome = replay(read_log(str(LOG)), game())
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert outcome.state.scores == [1600, -1600, 1600, -1600]


# ---------------------------------------------------------------------- the auction in a rollout
def rollout_call(*moves) -> str:
    """What the seat to call says in a rollout (every card known) after ``moves``."""
    from rulelang.interpreter.agents.rollouts import _quick_move
    from rulelang.interpreter.agents.worth import trick_worth
    state = table(*moves).state
    return state.action_to_string(_quick_move(state, state.legal_actions(), trick_worth(state.game),
                                              random.Random(0)))


def test_in_a_rollout_a_bid_that_fails_is_doubled_and_one_that_makes_is_not():
    assert rollout_call("P1 pass", "P2 1clubs") == "double"         # P3 holds with P1 every trick worth having
    assert rollout_call("P1 1clubs") == "pass"                      # P2 cannot beat P1's thirteen tricks


def test_in_a_rollout_the_doubled_side_redoubles_a_contract_it_makes_and_lets_a_failing_one_stand():
    assert rollout_call("P1 1notrump", "P2 double") == "redouble"   # P3, P1's partner: P1 takes all thirteen
    assert rollout_call("P1 pass", "P2 1clubs", "P3 double") == "pass"     # P4, P2's partner: it goes down
