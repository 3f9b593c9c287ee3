"""Euchre (games/euchre.yaml and euchre-points), rule by rule in card names.

The 24-card pack; the turn-up ordered up in the first round (the dealer takes it and
discards another card) or another suit named in the second, with the dealer stuck; the
maker going alone while his partner sits out; the right and left bowers as the two highest
trumps, the left bower following trumps and not its own suit; the makers' 1, 2 or 4 points
and the euchre; OpenSpiel's zero-sum returns and the common scoring of euchre-points. The
deal against OpenSpiel is tests/test_euchre_openspiel.py; ``tests/logs/euchre-alone.jsonl``
is a hand-written deal that replays to its scores.
"""

from __future__ import annotations

from functools import lru_cache

from helpers import LOGS, Table, seat
from rulelang.interpreter.log import read_log
from rulelang.interpreter.replay import replay
from rulelang.loader import load_game

LOG = LOGS / "euchre-alone.jsonl"

# P4 deals; Q♥ is turned up.
HANDS = {"P1": "J♥ J♦ A♥ K♠ 9♣", "P2": "A♠ Q♠ 10♦ 9♦ K♣", "P3": "K♥ 10♥ A♣ Q♣ 9♠", "P4": "A♦ K♦ Q♦ 10♠ J♣"}
TURNED = "Q♥"


@lru_cache(maxsize=None)
def game(name: str = "euchre"):
    return load_game(name, max_deals=1)


def table(*moves, name: str = "euchre", hands=HANDS, turned: str = TURNED) -> Table:
    t = Table(game(name), hands, talon=turned, dealer="P4")
    t.do(*moves)
    return t


def winner(t: Table) -> str:
    return t.game.seat_name(t.state.tricks.trick_winners[-1][0])


def test_the_pack_is_nine_to_ace_in_four_suits():
    assert sorted({c.rank for c in game().deck.cards}) == sorted(["A", "K", "Q", "J", "10", "9"])
    assert game().num_cards == 24


# ---------------------------------------------------------------------- making trumps
def test_in_the_first_round_only_the_turned_up_suit_may_be_ordered_up():
    t = table()
    assert t.to_act() == "P1" and set(t.legal()) == {"hearts", "pass"}


def test_ordering_up_gives_the_dealer_the_card_and_he_discards_another():
    t = table("P1 hearts")
    assert t.to_act() == "P4" and TURNED in t.hand("P4")
    assert TURNED not in t.legal() and len(t.legal()) == 5
    t.do("P4 J♣")
    assert t.state.var_text("trump") == "hearts" and t.game.seat_name(t.state.declarer) == "P1"
    for player in range(4):                                  # everyone saw the card go to the dealer ...
        assert "takes up Q♥" in t.state.observation(player)["decisions"]["P4"]
    assert "J♣" not in t.state.information_state_string(seat("P2")).split()   # ... but not the discard


def test_in_the_second_round_another_suit_is_named_and_the_dealer_is_stuck():
    t = table("P1 pass", "P2 pass", "P3 pass", "P4 pass")
    assert set(t.legal()) == {"clubs", "diamonds", "spades", "pass"}
    t.do("P1 pass", "P2 pass", "P3 pass")
    assert set(t.legal()) == {"clubs", "diamonds", "spades"}        # stick the dealer
    t.do("P4 diamonds")
    assert t.state.var_text("trump") == "diamonds" and TURNED not in t.hand("P4")


# ---------------------------------------------------------------------- going alone and the bowers
def test_a_maker_going_alone_leaves_his_partner_out():
    t = table("P1 hearts", "P4 J♣")
    assert t.to_act() == "P1" and set(t.legal()) == {"partner", "alone"}
    t.do("P1 alone")
    assert t.game.seat_name(t.state.active.bit_length() - 1) == "P4" and not t.state.active >> seat("P3") & 1
    assert t.to_act() == "P1"                                  # forehand leads


def test_the_left_bower_beats_every_trump_but_the_right_bower():
    t = table("P1 hearts", "P4 J♣", "P1 partner", "P1 9♣", "P2 K♣", "P3 A♣", "P4 Q♦")
    assert winner(t) == "P3"                                  # no trump played: the highest club
    t.do("P3 K♥")
    assert set(t.legal()) == {"Q♥"}                           # the dealer follows trumps with the card he took up
    t.do("P4 Q♥")
    assert set(t.legal()) == {"J♦", "A♥", "J♥"}               # the left bower J♦ is a trump
    t.do("P1 J♦", "P2 9♦")
    assert winner(t) == "P1"


def test_the_left_bower_does_not_follow_its_own_suit():
    t = table("P1 hearts", "P4 J♣", "P1 partner", "P1 K♠", "P2 A♠", "P3 9♠", "P4 10♠", "P2 10♦", "P3 10♥",
              "P4 A♦")                                        # diamonds led: P1's J♦ is no diamond
    assert set(t.legal()) == {"9♣", "J♦", "A♥", "J♥"}
    t.do("P1 J♦")
    assert winner(t) == "P1"                                  # it beats the 10♥ trump and the A♦


# ---------------------------------------------------------------------- the score
def play_out(t: Table) -> list[int]:
    while not t.state.is_terminal():
        t.state.apply_action(t.state.legal_actions()[0])
    return t.state.deal_results[-1]["delta"]


def test_the_makers_taking_all_five_score_two_zero_sum_and_the_others_lose_as_much():
    t = table("P1 hearts", "P4 J♣", "P1 partner")
    assert play_out(t) == [2, -2, 2, -2] and t.state.tricks.taken == [4, 0, 1, 0]


def test_euchred_makers_lose_two_and_in_euchre_points_the_defenders_gain_two():
    t = table("P1 pass", "P2 hearts", "P4 J♣", "P2 partner")
    assert play_out(t) == [2, -2, 2, -2] and t.state.tricks.taken == [4, 0, 1, 0]
    t = table("P1 pass", "P2 hearts", "P4 J♣", "P2 partner", name="euchre-points")
    assert play_out(t) == [2, 0, 2, 0]


def test_in_euchre_points_the_makers_alone_score_their_points():
    t = table("P1 hearts", "P4 J♣", "P1 partner", name="euchre-points")
    assert play_out(t) == [2, 0, 2, 0]


def test_the_hand_written_log_replays_to_its_scores():
    outcome = replay(read_log(str(LOG)), game())
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert outcome.state.scores == [4, -4, 4, -4]            # P1 alone takes all five
