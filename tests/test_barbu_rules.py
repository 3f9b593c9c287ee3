"""Barbu (games/barbu.yaml) in card names: a record across the match (``dealt_with``: each dealer chooses each
contract once), doubles between pairs of players read with ``picked`` and settled by the difference of their
scores (issue 48).

Each rule in a scripted deal, then 300 random deals over whole matches against an independent scorer that
follows every trick, every double and every contract itself.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from helpers import Table, seat
from rulelang.loader import load_game

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
CONTRACTS = ["no_tricks", "no_hearts", "no_queens", "no_king", "no_last_two", "trumps"]
HANDS = {"P1": "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥",
         "P2": "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦",
         "P3": "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣",
         "P4": "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠"}


@pytest.fixture(scope="module")
def game():
    return load_game("barbu")


def dealt(game) -> Table:
    """P1 deals (and leads); P2 is forehand and doubles first."""
    return Table(game, HANDS, dealer="P1")


NO_DOUBLES = ("P2 pass_left", "P3 pass_left", "P4 pass_left", "P2 pass_across", "P3 pass_across",
              "P4 pass_across", "P2 pass_right", "P3 pass_right", "P4 pass_right")
"""Nobody doubles; the dealer, doubled by nobody, may not double and is not asked."""


def test_hearts_are_not_led_in_no_hearts_while_the_leader_holds_another_suit(game):
    deal = dealt(game)
    deal.do("P1 no_hearts", *NO_DOUBLES)
    assert deal.cards() == {"A♣", "K♣", "Q♣", "J♣", "10♣", "9♣", "8♣"}


def test_the_dealer_may_double_only_a_player_who_doubled_him(game):
    deal = dealt(game)
    deal.do("P1 no_tricks", "P2 pass_left", "P3 pass_left", "P4 pass_left", "P2 pass_across", "P3 double_across")
    deal.do("P4 pass_across")
    assert set(deal.legal()) == {"double_across", "pass_across"}, "P1's across is P3, who doubled him: he may answer …"
    deal2 = dealt(game)
    deal2.do("P1 no_tricks", "P2 pass_left", "P3 pass_left", "P4 pass_left", "P2 pass_across", "P3 pass_across",
             "P4 pass_across")
    assert deal2.state.decisions[seat("P1")] == "pass_across (forced)", "… and nobody doubled him here"


def test_no_queens_ends_when_the_fourth_queen_is_taken_and_a_double_moves_the_difference(game):
    deal = dealt(game)
    deal.do("P1 no_queens", "P2 double_left", *NO_DOUBLES[1:])
    deal.do("P1 Q♣", "P2 Q♦", "P3 7♣", "P4 Q♠")             # P1 takes three queens with his own
    deal.do("P1 2♥", "P2 A♦", "P3 Q♥", "P4 A♠")             # P3 takes the last queen: play stops
    result = deal.state.deal_results[-1]
    assert sum(result["delta"]) == -24
    assert result["delta"][seat("P1")] == -18
    assert result["delta"][seat("P2")] == 0 + (0 - (-6)), "P2 doubled P3 and did 6 better"
    assert result["delta"][seat("P3")] == -6 - 6


def test_in_trumps_a_player_void_in_the_suit_led_must_trump_and_over_trump(game):
    hands = {"P1": "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥",
             "P2": "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♠",
             "P3": "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣",
             "P4": "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♦"}
    deal = Table(game, hands, dealer="P1")
    deal.do("P1 trumps", "P1 spades", *NO_DOUBLES)
    deal.do("P1 A♣")
    assert deal.legal() == ["2♠"], "P2 has no club: he must trump"
    deal.do("P2 2♠", "P3 2♣")
    assert set(deal.legal()) == {r + "♠" for r in RANKS if r != "2"}, "P4 has no club: he must over-trump"


def test_each_dealer_chooses_each_contract_once_in_the_match(game):
    rng, state = random.Random(4), game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    chosen = defaultdict(list)
    for deal in state.deal_results:
        chosen[deal["dealer"]].append(deal["vars"]["game"])
    assert len(state.deal_results) == 24
    assert all(sorted(games) == sorted(CONTRACTS) for games in chosen.values()) and len(chosen) == 4


# ---------------------------------------------------------------------- the independent scorer
def base_scores(contract: str, tricks: list[tuple[int, list[str]]]) -> list[int]:
    """Each seat's score for the deal by the contract, from (winner, cards) of each trick played."""
    score = [0] * 4
    for number, (winner, cards) in enumerate(tricks, start=1):
        if contract == "no_tricks":
            score[winner] -= 2
        elif contract == "no_hearts":
            score[winner] -= sum(6 if c == "A♥" else 2 for c in cards if c.endswith("♥"))
        elif contract == "no_queens":
            score[winner] -= 6 * sum(c.startswith("Q") for c in cards)
        elif contract == "no_king":
            score[winner] -= 20 * ("K♥" in cards)
        elif contract == "no_last_two":
            score[winner] -= {12: 10, 13: 20}.get(number, 0)
        else:
            score[winner] += 5
    return score


def test_300_random_deals_agree_with_an_independent_scorer(game):
    deals, rng = 0, random.Random(0)
    while deals < 300:
        state = game.new_initial_state()
        while not state.is_terminal() and deals < 300:
            number, plays, doubles, dealer = state.deal_number, [], set(), None
            while not state.is_terminal() and state.deal_number == number:
                action = rng.choice(state.legal_actions())
                actor = state.current_player()
                if actor >= 0 and dealer is None:
                    dealer = state.dealer
                name = game.action_to_string(action)
                if actor >= 0 and name.startswith("double_"):
                    step = {"double_left": 1, "double_across": 2, "double_right": 3}[name]
                    doubles.add((actor, (actor + step) % 4))
                if actor >= 0 and state.step.kind == "tricks":
                    plays.append((actor, name))
                state.apply_action(action)
            result = state.deal_results[-1]
            contract = result["vars"]["game"]
            trump = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}.get(result["vars"].get("trump"))
            tricks = []
            for i in range(0, len(plays), 4):
                trick = plays[i:i + 4]
                led = trick[0][1][-1]
                key = (lambda c: (2 if c[-1] == trump else 1 if c[-1] == led else 0, -RANKS.index(c[:-1])))
                tricks.append((max(trick, key=lambda play: key(play[1]))[0], [c for _, c in trick]))
            if contract == "no_queens":
                taken = [sum(c.startswith("Q") for c in cards) for _, cards in tricks]
                assert sum(taken) == 4 and taken[-1] > 0, "play stops at the trick that takes the fourth queen"
            base = base_scores(contract, tricks)
            expected = [base[p] + sum((((p, q) in doubles) + ((q, p) in doubles)) * (base[p] - base[q])
                                      for q in range(4)) for p in range(4)]
            assert result["delta"] == expected, f"deal {deals}: {contract}"
            assert dealer == result["dealer"]
            deals += 1
