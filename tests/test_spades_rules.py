"""Spades (games/spades.yaml and spades-broken), rule by rule in card names.

Fixed teams P1+P3 against P2+P4; one bid each from forehand, partners together at most 13,
0 as Nil; spades always trumps, led only by a player who holds nothing else (as OpenSpiel)
or, in spades-broken, once a spade has fallen; a team's contract (ten a trick bid, a point a
bag, or minus ten a trick bid), Nils made and broken, the tenth bag's penalty counted from
the units digit of the team's score; a match to 500 or down to −350. The whole deal against
OpenSpiel is tests/test_spades_openspiel.py; ``tests/logs/spades-nil.jsonl`` is a hand-written
deal that replays to its scores.
"""

from __future__ import annotations

from functools import lru_cache

from helpers import LOGS, Table
from rulelang.render.explain import explain_game
from rulelang.interpreter.log import read_log
from rulelang.interpreter.replay import replay
from rulelang.loader import load_game

LOG = LOGS / "spades-nil.jsonl"

# P1 holds every spade; the others share the rest by suit runs.
ALL_SPADES = {"P1": "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠",
              "P2": "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣",
              "P3": "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦",
              "P4": "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥"}
# P1 has one spade and twelve hearts; P2 is void in hearts and holds spades.
MIXED = {"P1": "2♠ A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥",
         "P2": "A♠ K♠ Q♠ J♠ 10♠ 9♠ A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣",
         "P3": "8♠ 7♠ 6♠ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣ A♦ K♦ Q♦ 2♥",
         "P4": "5♠ 4♠ 3♠ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦"}


@lru_cache(maxsize=None)
def game(name: str = "spades"):
    return load_game(name, max_deals=1)


def table(hands, *moves, name: str = "spades", scores=None) -> Table:
    t = Table(game(name), hands, dealer="P4", scores=scores)
    t.do(*moves)
    return t


def run_out(t: Table) -> list[int]:
    """Play the first legal card until the deal ends; the deal's score changes."""
    while not t.state.is_terminal():
        t.state.apply_action(t.state.legal_actions()[0])
    return t.state.deal_results[-1]["delta"]


# ---------------------------------------------------------------------- teams and bids
def test_the_teams_are_fixed_by_seat_and_known_to_everyone():
    t = table(MIXED)
    for player in range(4):
        assert t.state.observation(player)["teams"] == [["P1", "P3"], ["P2", "P4"]]
    assert "They play in fixed teams: P1 and P3 against P2 and P4." in explain_game(game().definition.document)


def test_partners_may_not_bid_more_than_thirteen_together():
    t = table(MIXED, "P1 10", "P2 13")
    assert set(t.legal()) == {"0", "1", "2", "3"}              # P3: with P1's 10
    t.do("P3 3")
    assert set(t.legal()) == {"0"}                             # P4: with P2's 13, only Nil


# ---------------------------------------------------------------------- leading spades
def test_spades_are_led_only_by_a_player_who_holds_nothing_else():
    t = table(MIXED, "P1 1", "P2 5", "P3 2", "P4 2")
    assert "2♠" not in t.legal()
    t.do("P1 A♥", "P2 A♠")                                     # P2 is void in hearts and trumps
    t.do("P3 2♥", "P4 5♠")
    assert t.to_act() == "P2" and not any(card.endswith("♠") for card in t.legal())   # still not broken
    only_spades = table(ALL_SPADES, "P1 13", "P2 0", "P3 0", "P4 0")
    assert set(only_spades.legal()) == set(ALL_SPADES["P1"].split())


def test_in_spades_broken_a_spade_played_breaks_them():
    t = table(MIXED, "P1 1", "P2 5", "P3 2", "P4 2", "P1 A♥", "P2 A♠", "P3 2♥", "P4 5♠", name="spades-broken")
    assert t.to_act() == "P2" and {"K♠", "A♣"} <= set(t.legal())


def test_the_highest_spade_wins_a_trick_it_is_played_to():
    t = table(MIXED, "P1 1", "P2 5", "P3 2", "P4 2", "P1 A♥", "P2 9♠", "P3 2♥", "P4 5♠")
    assert t.game.seat_name(t.state.tricks.trick_winners[-1][0]) == "P2"


# ---------------------------------------------------------------------- the score
def test_a_team_that_makes_its_bid_scores_ten_a_trick_and_a_point_a_bag():
    t = table(ALL_SPADES, "P1 5", "P2 0", "P3 3", "P4 1")
    # P1+P3 bid 8 and take 13: 80 + 5 bags; P2's Nil holds (+100) and P4's 1 fails: -10 + 100
    assert run_out(t) == [85, 90, 85, 90]


def test_a_broken_nil_costs_a_hundred_and_its_tricks_still_count_for_the_partner():
    t = table(ALL_SPADES, "P1 0", "P2 2", "P3 7", "P4 2")
    # P1's Nil takes 13: -100; P1+P3 bid 7 and take 13: 70 + 6 bags; P2+P4 take none of 4: -40
    assert run_out(t) == [-24, -40, -24, -40]


def test_the_tenth_bag_costs_a_hundred_counted_from_the_units_digit_of_the_score():
    t = table(ALL_SPADES, "P1 10", "P2 0", "P3 0", "P4 0", scores=[128, 0, 128, 0])
    # 8 bags before, 3 more: 100 + 3 - 100; P3's Nil holds: +100; P2 and P4 both Nil and hold: +200
    assert run_out(t) == [103, 200, 103, 200]


def test_the_match_ends_at_five_hundred_or_at_the_mercy_line():
    done = game().definition.match.end.fn
    st = game().new_initial_state()
    for scores, over in (([499, 10, 499, 10], False), ([500, 10, 500, 10], True), ([0, -350, 0, -350], True),
                         ([0, -349, 0, -349], False)):
        st.scores = scores
        assert done(st, None) is over


def test_the_hand_written_log_replays_to_its_scores():
    outcome = replay(read_log(str(LOG)), game())
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert outcome.state.scores == [85, 90, 85, 90]

