"""Schnapsen (games/schnapsen.yaml) in card names: calls of trick play by any seat, with a value, once a trick,
a claim that ends play, the trump Jack exchanged for the turned card, closing the stock (issue 48).

Each rule in a scripted deal, then 300 random deals against an independent scorer written from pagat's
rules: it follows every card itself, checks the strict following once the stock is closed or gone, and
works out the game points from the cards taken and the calls said.
"""

from __future__ import annotations

import random

import pytest

from helpers import Table, logged_random_match
from rulelang.loader import load_game

RANKS = ["A", "10", "K", "Q", "J"]
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}


@pytest.fixture(scope="module")
def game():
    return load_game("schnapsen", max_deals=1)


def table(game, p1: str, p2: str, talon: str) -> Table:
    """P2 deals, so P1 leads; each hand in dealing order (three, then two); ``talon``: the turned card, then the
    stock from the top."""
    return Table(game, {"P1": p1, "P2": p2}, talon=talon, dealer="P2")


HANDS = ("K♥ Q♥ J♣ A♠ 10♠", "A♥ 10♥ Q♠ K♦ J♦", "A♣ 10♣ K♣ Q♣ A♦ 10♦ Q♦ J♥ K♠ J♠")


def test_on_his_lead_a_player_may_say_a_marriage_exchange_the_jack_or_close(game):
    deal = table(game, *HANDS)
    said = {name for name in deal.legal() if not name[0].isdigit() and name[:-1] not in RANKS}
    assert said == {"marriage hearts", "exchange", "close"}, "no trick yet: he may not go out"
    deal.do("P1 A♠")
    assert not {"marriage hearts", "exchange", "close"} & set(deal.legal()), "only the leader says them"


def test_after_a_marriage_he_leads_the_king_or_the_queen(game):
    deal = table(game, *HANDS)
    deal.do("P1 marriage hearts")
    assert deal.cards() == {"K♥", "Q♥"}
    assert {"exchange", "close"} <= set(deal.legal()), "he may still exchange the Jack or close before he leads"
    assert deal.state.vars["marriage_suit"] == game.deck.suit_index("hearts")
    assert deal.state.observation(1)["said"] == [("P1", "marriage hearts")]


def test_the_trump_jack_is_exchanged_for_the_turned_card_in_sight_of_both(game):
    deal = table(game, *HANDS)
    deal.do("P1 exchange")
    assert "A♣" in deal.hand("P1") and "J♣" not in deal.hand("P1")
    for viewer in (0, 1):
        seen = deal.state.observation(viewer)
        assert seen["turned_up"] == ["J♣"] and seen["drawn_face_up"] == {"P1": ["A♣"]}
    assert "exchange" not in deal.legal()


def test_nobody_need_follow_while_the_stock_lasts(game):
    deal = table(game, *HANDS)
    deal.do("P1 10♠")
    assert set(deal.legal()) == deal.hand("P2")


def test_once_the_stock_is_closed_a_player_must_follow_and_head_and_nothing_is_drawn(game):
    deal = table(game, *HANDS)
    deal.do("P1 close", "P1 K♥")
    assert set(deal.legal()) == {"A♥", "10♥"}, "he must win the trick with a heart if he can"
    deal.do("P2 A♥")
    assert len(deal.hand("P1")) == 4 and len(deal.hand("P2")) == 4, "a closed stock gives no cards"
    deal.do("P2 Q♠")
    assert set(deal.legal()) == {"A♠", "10♠"}


def test_a_player_void_in_the_suit_led_must_trump_once_the_stock_is_closed(game):
    deal = table(game, "K♥ Q♥ J♣ A♠ 10♠", "A♥ 10♥ Q♠ K♦ 10♣", "A♣ J♦ K♣ Q♣ A♦ 10♦ Q♦ J♥ K♠ J♠")
    deal.do("P1 close", "P1 J♣")
    assert deal.legal() == ["10♣"], "the trump is the only card of the suit led"
    void = table(game, "K♥ Q♥ J♣ A♠ K♦", "A♥ 10♥ Q♠ 10♣ J♠", "A♣ J♦ K♣ Q♣ A♦ 10♠ Q♦ J♥ K♠ 10♦")
    void.do("P1 close", "P1 K♦")
    assert void.legal() == ["10♣"], "no diamond: he must trump"


def test_going_out_with_66_wins_three_game_points_when_the_other_took_no_trick(game):
    deal = table(game, "K♣ Q♣ A♠ 10♠ J♥", "A♥ J♠ Q♦ J♦ 10♦", "A♣ J♣ 10♣ K♥ Q♥ A♦ K♦ 10♥ Q♠ K♠")
    deal.do("P1 trump_marriage", "P1 K♣", "P2 A♥", "P1 A♠", "P2 J♠")
    assert deal.hand("P1") >= {"J♣", "K♥"}, "the winner drew first each time"
    deal.do("P1 enough")
    result = deal.state.deal_results[-1]
    assert result["delta"] == [3, 0], "40 + 4 + 11 + 11 + 2 = 68, and P2 took no trick"


def test_going_out_short_of_66_gives_the_other_two_game_points(game):
    deal = table(game, *HANDS)
    deal.do("P1 marriage hearts", "P1 K♥", "P2 Q♠", "P1 enough")
    assert deal.state.deal_results[-1]["delta"] == [0, 2], "P1 has 4 + 3 + 20 = 27"


# ---------------------------------------------------------------------- the independent scorer
def strict_legal(hand: set[str], led: str, trump: str) -> set[str]:
    """What pagat lets a player follow with once the stock is closed or gone: a higher card of the suit led,
    else any card of it, else a trump, else anything."""
    suit = led[-1]
    same = {c for c in hand if c[-1] == suit}
    higher = {c for c in same if RANKS.index(c[:-1]) < RANKS.index(led[:-1])}
    trumps = {c for c in hand if c[-1] == trump}
    return higher or same or trumps or hand


def play_and_check(game, seed: int):
    """A random deal, every follow checked against :func:`strict_legal` while the rules are strict; the final
    state and the calls said, in order."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    names = game.deck.names
    while not state.is_terminal():
        legal = state.legal_actions()
        action = rng.choice(legal)
        part = state.tricks
        if state.current_player() >= 0 and state.step.kind == "tricks" and part.trick and action < game.num_cards:
            closed = "close" in part.calls
            left = bin(state.stock).count("1") + bin(state.turn_up.cards).count("1")
            if closed or left == 0:
                hand = set(names(state.hands[state.current]))
                led = game.action_to_string(part.trick[0][1])
                allowed = {game.action_to_string(a) for a in legal if a < game.num_cards}
                assert allowed == strict_legal(hand, led, game.deck.suits[state.vars["trump"]].symbol), seed
        state.apply_action(action)
    return state


def independent_game_points(state) -> list[int]:
    """pagat's scoring, from the cards each player took and the calls said."""
    game, part = state.game, state.tricks
    won = [set(game.deck.names(mask)) for mask in state.won]
    tricks = part.taken
    marriages = [0, 0]
    for word, who, _ in part.said:
        marriages[who] += {"marriage": 20, "trump_marriage": 40}.get(word, 0)
    total = [sum(POINTS[c[:-1]] for c in won[s]) + (marriages[s] if tricks[s] else 0) for s in (0, 1)]
    claimant, closer = part.calls.get("enough"), part.calls.get("close")
    if claimant is not None:
        winner, fault = (claimant, False) if total[claimant] >= 66 else (1 - claimant, True)
    elif closer is not None:
        winner, fault = (closer, False) if total[closer] >= 66 else (1 - closer, True)
    else:
        winner, fault = part.trick_winners[-1][0], False
    loser = 1 - winner
    if fault:
        points = 3 if tricks[loser] == 0 else 2
    else:
        points = 3 if tricks[loser] == 0 else 2 if total[loser] < 33 else 1
    return [points if s == winner else 0 for s in (0, 1)]


def test_300_random_deals_agree_with_an_independent_scorer(game):
    claims = closes = 0
    for seed in range(300):
        state = play_and_check(game, seed)
        assert state.deal_results[-1]["delta"] == independent_game_points(state), f"seed {seed}"
        claims += "enough" in state.tricks.calls
        closes += "close" in state.tricks.calls
    assert claims > 50 and closes > 30, "the random deals went out and closed often enough to test both"


def test_a_logged_deal_with_calls_replays(game, tmp_path):
    for seed in range(3):
        assert logged_random_match(game, seed, tmp_path)[2].ok


def test_a_call_that_may_not_be_said_is_refused_at_its_rule(game):
    deal = table(game, *HANDS)
    assert deal.refused("P1 enough") == "E513", "he has taken no trick yet"
    deal.do("P1 marriage hearts")
    assert deal.refused("P1 marriage hearts") == "E513", "once a trick"
