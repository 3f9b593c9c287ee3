"""Three-card Loo (games/loo.yaml) in card names: stakes written with a match counter (issue 48).

The ante, the pool carried between deals in the counter ``pot``, a third of the pool a trick, the looed
paying into the next pool, the single in which nobody may drop, the last seat that may not drop, the
leader's duty to lead the top trump or a trump from two, heading and over-trumping. 300 random deals
across whole matches against an independent scorer that keeps its own pool.
"""

from __future__ import annotations

import random

import pytest

from helpers import Table, seat
from rulelang.loader import load_game

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]


@pytest.fixture(scope="module")
def game():
    return load_game("loo")


HANDS = {"P1": "8♣ A♦ 3♦", "P2": "K♣ J♠ 7♠", "P3": "10♣ 4♥ 5♠", "P4": "7♣ J♦ 9♥", "P5": "Q♥ 10♥ Q♠"}


def single(game, hands=HANDS, turned: str = "2♥") -> Table:
    """The first deal of a match, P2 dealing (P3 leads): the pool holds only the ante, a single."""
    return Table(game, hands, talon=turned, dealer="P2")


def test_in_a_single_nobody_may_drop(game):
    deal = single(game)
    assert deal.state.vars["trump"] == game.deck.suit_index("hearts")
    assert deal.to_act() == "P3" and deal.cards() == {"4♥", "10♣", "5♠"}, "everyone is in: P3 leads"
    assert set(deal.state.decisions.values()) == {"play (forced)"}


def test_players_must_follow_and_head_or_trump_and_over_trump(game):
    deal = single(game)
    deal.do("P3 4♥")
    assert deal.legal() == ["9♥"], "P4 follows with his heart"
    deal.do("P4 9♥")
    assert set(deal.legal()) == {"Q♥", "10♥"}, "both beat the 9♥"
    deal.do("P5 10♥")
    assert set(deal.legal()) == {"8♣", "A♦", "3♦"}, "P1 has no heart: anything"
    deal.do("P1 A♦")
    deal.do("P2 J♠", "P5 Q♥")
    deal.do("P1 3♦")
    assert set(deal.legal()) == {"K♣", "7♠"}, "P2 cannot follow a diamond and holds no trump"


def test_the_leader_leads_the_top_trump_or_a_trump_from_two(game):
    hands = {**HANDS, "P3": "A♥ 4♥ 5♠"}
    hands["P5"] = "Q♥ 10♣ Q♠"
    deal = Table(game, hands, talon="2♥", dealer="P2")
    assert deal.cards() == {"A♥"}, "the Ace of trumps must be led"
    hands = {**HANDS, "P3": "K♥ 4♥ 5♠", "P5": "Q♥ 10♣ Q♠"}
    turned = Table(game, hands, talon="A♥", dealer="P2")
    assert turned.cards() == {"K♥"}, "the Ace is turned: the King must be led"
    hands = {**HANDS, "P3": "J♥ 4♥ 5♠", "P5": "Q♥ 10♣ Q♠"}
    two = Table(game, hands, talon="2♥", dealer="P2")
    assert two.cards() == {"J♥", "4♥"}, "two trumps: a trump must be led"


def test_each_trick_wins_a_third_of_the_pool_and_the_looed_pay_into_the_next(game):
    deal = single(game)
    deal.do("P3 4♥", "P4 9♥", "P5 Q♥", "P1 3♦", "P2 J♠",
            "P5 10♥", "P1 8♣", "P2 7♠", "P3 10♣", "P4 J♦",
            "P5 Q♠", "P1 A♦", "P2 K♣", "P3 5♠", "P4 7♣")
    state = deal.state
    assert state.scores == [-3, -6, -3, -3, 3], "P5 takes the pool of 3; the four others are looed; P2 anted"
    assert state.counters["pot"] == 12


def test_with_a_pool_to_win_players_may_drop_but_the_last_may_not(game):
    deal = single(game)
    deal.do("P3 4♥", "P4 9♥", "P5 Q♥", "P1 3♦", "P2 J♠",
            "P5 10♥", "P1 8♣", "P2 7♠", "P3 10♣", "P4 J♦",
            "P5 Q♠", "P1 A♦", "P2 K♣", "P3 5♠", "P4 7♣")
    deal.deal({"P1": "K♦ 10♦ 3♥", "P2": "K♣ 8♣ 7♦", "P3": "6♥ A♠ K♠", "P4": "2♥ 5♠ 4♠", "P5": "A♣ Q♥ 9♠"},
              talon="Q♣")
    assert set(deal.legal()) == {"play", "drop"}
    deal.do("P4 drop", "P5 drop", "P1 drop", "P2 drop")
    assert deal.state.deal_number == 2, "P3, the last, may not drop: alone, he takes the pool of 15 without play"
    assert deal.state.scores[seat("P3")] == -3 + 15 - 3


# ---------------------------------------------------------------------- the independent scorer
def test_300_random_deals_agree_with_an_independent_scorer(game):
    deals = 0
    for seed in range(30):
        rng, state = random.Random(seed), game.new_initial_state()
        pot, scores = 0, [0] * 5
        while not state.is_terminal():
            number, dealer = state.deal_number, None
            while not state.is_terminal() and state.deal_number == number:
                if dealer is None and state.current_player() >= 0:
                    dealer = state.dealer
                state.apply_action(rng.choice(state.legal_actions()))
            result = state.deal_results[-1]
            pool = pot + 3
            active = [s for s in range(5) if result["active"] >> s & 1]
            tricks = result["tricks"]
            looed = [s for s in active if tricks[s] == 0]
            delta = [pool // 3 * tricks[s] - (3 if s == dealer else 0) - (3 if s in looed else 0) for s in range(5)]
            assert result["delta"] == delta, f"seed {seed}, deal {number + 1}"
            assert sum(tricks) == 3 and len(active) >= 1
            scores = [a + b for a, b in zip(scores, delta)]
            pot = 3 * len(looed)
            assert sum(scores) + pot == 0, "no chip is made or lost"
            deals += 1
        assert state.scores == scores
    assert deals == 300
