"""Twenty-Nine (games/twenty-nine.yaml) in card names: the trump card laid aside face down (``lay_aside``),
asked for by a player who cannot follow (a call with ``shows_aside``), trumps that count only once shown,
the Pair (issue 48).

Each rule in a scripted deal; hidden-information probes on two deals that differ only in the card laid
aside; 300 random deals against an independent scorer that follows every trick itself.
"""

from __future__ import annotations

import random

import pytest

from helpers import Table, seat, logged_random_match
from rulelang.interpreter.worlds import determinize
from rulelang.loader import load_game

RANKS = ["J", "9", "A", "10", "K", "Q", "8", "7"]
POINTS = {"J": 3, "9": 2, "A": 1, "10": 1}
HANDS = {"P1": "J♣ 9♣ A♣ 10♣ K♦ Q♦ 8♦ 7♦", "P2": "J♦ 9♦ A♦ 10♦ J♥ 7♠ 8♠ 9♥",
         "P3": "K♣ Q♣ 8♣ 7♣ A♥ 10♥ K♥ Q♥", "P4": "J♠ 9♠ A♠ 10♠ K♠ Q♠ 8♥ 7♥"}
"""Each hand in dealing order: the first four, then four more. P4 deals, so P1 leads and P2 bids first."""


@pytest.fixture(scope="module")
def game():
    return load_game("twenty-nine", max_deals=1)


def bid_and_lay(game, card: str = "10♦") -> Table:
    """P2 bids 16, the others pass, and P2 lays ``card`` aside: its suit is trumps."""
    deal = Table(game, HANDS, talon="", dealer="P4")
    deal.do("P2 16", "P1 pass", "P3 pass", "P4 pass", f"P2 {card}")
    return deal


def test_only_the_bidder_knows_the_card_he_laid_aside(game):
    deal = bid_and_lay(game)
    state = deal.state
    assert "10♦" not in deal.hand("P2")
    assert state.observation(seat("P2"))["laid_aside"] == {"P2": ["10♦"]}
    for other in ("P1", "P3", "P4"):
        assert state.observation(seat(other))["laid_aside"] == {"P2": 1}
        assert "10♦" not in state.information_state_string(seat(other))
        assert "10♦" not in str(state.observation(seat(other)))


def test_two_deals_that_differ_only_in_the_card_laid_aside_look_the_same_to_the_others(game):
    one, two = bid_and_lay(game, "10♦"), bid_and_lay(game, "J♦")
    for other in ("P1", "P3", "P4"):
        assert one.state.observation(seat(other)) == two.state.observation(seat(other))
        assert one.state.information_state_string(seat(other)) == two.state.information_state_string(seat(other))


def test_a_world_of_another_seat_deals_the_card_laid_aside_anew(game):
    state = bid_and_lay(game).state
    laid = set()
    for seed in range(30):
        world = determinize(state, seat("P1"), random.Random(seed))
        assert bin(world.lay_aside.cards).count("1") == 1 and world.lay_aside.cards == world.lay_aside.laid
        laid.add(world.lay_aside.cards)
    assert len(laid) > 3, "P1 cannot tell which card lies there"


def test_a_player_who_cannot_follow_may_ask_and_must_then_trump(game):
    deal = bid_and_lay(game)
    deal.do("P1 J♣")
    assert "ask" in deal.legal(), "P2 has no club"
    deal.do("P2 ask")
    state = deal.state
    assert "10♦" in deal.hand("P2") and state.observation(seat("P1"))["laid_aside"] == {"P2": ["10♦"]}
    assert state.observation(seat("P4"))["aside_shown"] == 1
    assert deal.cards() == {"J♦", "9♦", "A♦", "10♦"}, "he asked: he must play a trump"
    deal.do("P2 9♦", "P3 7♣")
    assert "ask" not in deal.legal(), "the trump is shown already"
    deal.do("P4 7♥")
    assert state.tricks.trick_winners[-1][0] == seat("P2"), "the trump wins the trick"


def test_a_trump_played_before_the_card_is_shown_is_a_plain_card(game):
    deal = bid_and_lay(game)
    deal.do("P1 J♣", "P2 A♦", "P3 7♣", "P4 7♥")
    assert deal.state.tricks.trick_winners[-1][0] == seat("P1"), "the A♦ did not win: trumps were not shown"


def test_showing_the_card_makes_a_trump_played_earlier_in_the_trick_count(game):
    deal = bid_and_lay(game)
    deal.do("P1 J♣", "P2 A♦", "P3 7♣", "P4 ask")
    assert deal.cards() == deal.hand("P4"), "P4 asked but holds no trump: he plays anything"
    deal.do("P4 7♥")
    assert deal.state.tricks.trick_winners[-1][0] == seat("P2"), "the A♦ became a trump in this trick"


def test_the_pair_once_shown_and_after_a_trick_changes_the_bid_by_four(game):
    deal = bid_and_lay(game)
    deal.do("P1 J♣", "P2 ask", "P2 9♦", "P3 7♣", "P4 J♠")
    assert "pair" not in deal.legal()
    deal.do("P2 7♠", "P3 A♥", "P4 Q♠", "P1 7♦")
    assert deal.to_act() == "P1", "P1's trump won the second trick"
    assert "pair" in deal.legal(), "P1 holds K♦ Q♦ and his side took a trick since trumps were shown"
    deal.do("P1 pair")
    assert deal.state.tricks.calls["pair"] == seat("P1")


def test_the_bidder_with_no_other_card_shows_and_plays_the_card_laid_aside(game):
    rng = random.Random(3)
    for seed in range(40):
        rng.seed(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            calls = [a for a in legal if a >= game.num_cards and game.action_to_string(a) == "ask"]
            action = rng.choice([a for a in legal if a not in calls] or legal)
            state.apply_action(action)
        if state.declarer >= 0:
            assert state.lay_aside.cards == 0, "the card laid aside was played"
            assert state.lay_aside.shown_in > 0


# ---------------------------------------------------------------------- the independent scorer
def strength(card: str, led: str, trump: str | None) -> int:
    rank = len(RANKS) - RANKS.index(card[:-1])
    return 100 + rank if trump is not None and card[-1] == trump else rank if card[-1] == led else 0


def test_300_random_deals_agree_with_an_independent_scorer(game):
    played = 0
    for seed in range(300):
        rng, state = random.Random(seed), game.new_initial_state()
        tricks, shown_in, asks = [], 0, []
        while not state.is_terminal():
            legal = state.legal_actions()
            action = rng.choice(legal)
            if state.current_player() >= 0 and state.step.kind == "tricks":
                part = state.tricks
                if action < game.num_cards and not part.trick:
                    tricks.append([])
                if action < game.num_cards:
                    hand = set(game.deck.names(state.hands[state.current]))
                    card = game.action_to_string(action)
                    if tricks[-1]:
                        led = tricks[-1][0][1][-1]
                        assert card[-1] == led or not any(c[-1] == led for c in hand), f"seed {seed}: must follow"
                    tricks[-1].append((state.current, card))
                elif game.action_to_string(action) == "ask":
                    asks.append((state.current, len(tricks)))
            state.apply_action(action)
            if not shown_in and state.declarer >= 0 and state.lay_aside.shown_in:
                shown_in = state.lay_aside.shown_in
        if state.declarer < 0:
            assert state.deal_results[-1]["delta"] == [0, 0, 0, 0]
            continue
        played += 1
        trump = game.deck.names(state.lay_aside.laid)[0][-1]
        points = [0, 0]
        for number, trick in enumerate(tricks, start=1):
            counted = trump if shown_in and number >= shown_in else None
            led = trick[0][1][-1]
            winner = max(trick, key=lambda play: strength(play[1], led, counted))[0]
            points[winner % 2] += sum(POINTS.get(c[:-1], 0) for _, c in trick)
        assert sum(points) == 28
        bidders = state.declarer % 2
        bid = state.vars["bid_value"]
        pair = state.tricks.calls.get("pair")
        target = bid if pair is None else max(16, bid - 4) if pair % 2 == bidders else min(28, bid + 4)
        made = 1 if points[bidders] >= target else -1
        expected = [made if s % 2 == bidders else 0 for s in range(4)]
        assert state.deal_results[-1]["delta"] == expected, f"seed {seed}"
    assert played > 100


def test_a_logged_deal_replays(game, tmp_path):
    record, state, outcome = logged_random_match(game, 8, tmp_path)
    assert outcome.ok
