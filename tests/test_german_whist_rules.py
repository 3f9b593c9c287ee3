"""German Whist (games/german-whist.yaml) in card names: the stock's top card face up (``draw: {shown: top}``).

The turned card is trumps and the first prize; the winner of a trick takes the face-up card in sight of
both, the loser the next card unseen, and the next card is turned; players must follow suit; only the last
13 tricks score. 300 random deals against an independent scorer that follows the cards itself.
"""

from __future__ import annotations

import random

import pytest

from helpers import Table, seat, logged_random_match
from rulelang.interpreter.worlds import determinize
from rulelang.loader import load_game

RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
P1_HAND = "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"
P2_HAND = "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2C"


@pytest.fixture(scope="module")
def game():
    return load_game("german-whist", max_deals=1)


def table(game, talon: str) -> Table:
    """P2 deals, so P1 leads; ``talon``: the turned card first, then the stock from the top."""
    return Table(game, {"P1": P1_HAND, "P2": P2_HAND}, talon=talon, dealer="P2")


STOCK = "2H AC 3C KC 4C QC 5C JC 6C 10C 7C 9C 8C AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D"


def test_the_turned_card_is_trumps_and_the_first_prize_face_up_on_the_stock(game):
    deal = table(game, STOCK)
    state = deal.state
    assert game.deck.suits[state.vars["trump"]].name == "hearts"
    for viewer in (0, 1):
        seen = state.observation(viewer)
        assert seen["stock_top"] == "2♥" and seen["stock"] == 26
    assert "2♥" not in deal.hand("P1") | deal.hand("P2")


def test_a_player_must_follow_suit(game):
    void = table(game, STOCK)
    void.do("P1 A♠")
    assert set(void.legal()) == void.hand("P2"), "P2 has no spade: he may play anything, trump or not"
    holding = Table(game, {"P1": P1_HAND.replace("2S", "2C"), "P2": P2_HAND.replace("2C", "2S")}, talon=STOCK,
                    dealer="P2")
    holding.do("P1 K♠")
    assert holding.legal() == ["2♠"], "P2 holds a spade and must play it"


def test_the_winner_takes_the_face_up_card_and_the_loser_the_next_unseen(game):
    deal = table(game, STOCK)
    deal.do("P1 A♠", "P2 3♥")
    assert deal.to_act() == "P2", "the trump wins, and its player leads"
    assert "2♥" in deal.hand("P2"), "the winner takes the face-up 2♥"
    assert "A♣" in deal.hand("P1"), "the loser takes the next card"
    state = deal.state
    assert state.observation(0)["drawn_face_up"] == {"P2": ["2♥"]}
    assert state.observation(1)["stock_top"] == state.observation(0)["stock_top"] == "3♣", "the next is turned"
    assert "A♣" not in state.information_state_string(1), "P2 never sees the card P1 drew"
    for seed in range(10):
        world = determinize(state, 0, random.Random(seed))
        assert world.hands[seat("P2")] >> game.deck.lookup["2♥"] & 1, "every world of P1's leaves P2 the 2♥"


def play_random(game, seed: int):
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        kind = state.step.kind if state.step is not None and state.sub != "first_dealer" else "lot"
        steps.append((state.current_player(), action, kind, state.hands[state.current_player()]
                      if state.current_player() >= 0 else 0))
        state.apply_action(action)
    return state, steps


def independent_deal(game, steps):
    """The tricks each seat takes among the last 13, following the deal from its actions by Wikipedia's rules."""
    names = [card.name for card in game.deck.cards]
    dealer = next(action for _, action, kind, _ in steps if kind == "lot") - game.seat_base
    moves = [(actor, names[action], kind, held) for actor, action, kind, held in steps if kind not in ("lot", "set")]
    dealt = [card for _, card, kind, _ in moves if kind == "deal"]
    hands = {(dealer + 1) % 2: set(dealt[:13]), dealer: set(dealt[13:26])}
    top = next(card for _, card, kind, _ in moves if kind == "turn_up")
    trump = top[-1]
    chance = iter([card for actor, card, kind, _ in moves if kind == "tricks" and actor == -1])
    plays = [(actor, card) for actor, card, kind, _ in moves if kind == "tricks" and actor >= 0]
    leader, late = (dealer + 1) % 2, [0, 0]
    for number in range(26):
        (first, led), (second, other) = plays[2 * number], plays[2 * number + 1]
        assert first == leader and led in hands[first] and other in hands[second]
        if other[-1] != led[-1]:
            assert not any(card[-1] == led[-1] for card in hands[second]), "a player who can follow must"
        hands[first].discard(led)
        hands[second].discard(other)
        winner = first
        if other[-1] == led[-1] and RANKS.index(other[:-1]) < RANKS.index(led[:-1]) or \
                other[-1] == trump and led[-1] != trump:
            winner = second
        if number < 13:
            assert next(chance) == top, "the winner takes the face-up card"
            hands[winner].add(top)
            hands[1 - winner].add(next(chance))
            top = next(chance) if number < 12 else None
        else:
            late[winner] += 1
        leader = winner
    return late


def test_300_random_deals_agree_with_an_independent_scorer(game):
    for seed in range(300):
        state, steps = play_random(game, seed)
        late = independent_deal(game, steps)
        assert sum(late) == 13
        assert state.deal_results[-1]["delta"] == late, f"seed {seed}"


def test_a_logged_deal_replays(game, tmp_path):
    record, state, outcome = logged_random_match(game, 5, tmp_path)
    assert outcome.ok


def test_the_narration_says_who_drew_what_after_each_trick(game, tmp_path):
    from rulelang.interpreter.narrate import narrate_deal
    record = logged_random_match(game, 6, tmp_path)[0]
    lines = narrate_deal(record.deals[0])
    first = lines.index(next(line for line in lines if line.startswith("  trick 1:")))
    winner = lines[first].rsplit("→ ", 1)[1]
    assert lines[first + 1].startswith(f"    {winner} draws ") and lines[first + 1].endswith("turned up on the stock")
    assert sum(line.count(" draws ") for line in lines) == 26, "13 rounds of two draws"
