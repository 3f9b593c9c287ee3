"""Partnership auction Pinochle (games/pinochle.yaml): the melds of the double deck in card names, and 300 random
deals against an independent reading — the cards each player may play, every seat's meld, and every score."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import card_rank as rank, card_suit as suit, logged_random_match, played_deals
from rulelang.loader import load_game

RANKS = ["A", "10", "K", "Q", "J", "9"]
AROUND = {"A": (100, 1000), "K": (80, 800), "Q": (60, 600), "J": (40, 400)}


@pytest.fixture(scope="module")
def game():
    return load_game("pinochle")


def meld_of(hand: Counter, trump: str) -> int:
    """A hand's meld read from the rules: the run (150, twice 1500) holding its royal marriage, marriages, dixes,
    the four ranks around, pinochle; a card counts in melds of different classes, not twice in one."""
    def times(*cards):
        return min(hand[c] for c in cards)
    total = 0
    runs = times(*(f"{r}{trump}" for r in ("A", "10", "K", "Q", "J")))
    total += {0: 0, 1: 150, 2: 1500}[runs]
    for s in "♣♦♥♠":
        married = times(f"K{s}", f"Q{s}") - (runs if s == trump else 0)   # a run's marriage is in its 150
        total += married * (40 if s == trump else 20)
    total += 10 * hand[f"9{trump}"]
    for r, (once, twice) in AROUND.items():
        total += {0: 0, 1: once, 2: twice}[times(*(f"{r}{s}" for s in "♣♦♥♠"))]
    total += {0: 0, 1: 40, 2: 300}[times("Q♠", "J♦")]
    return total


MELDING = {
    "P2": "AH 10H KH QH JH 9H 9C 9D 9S 10C 10D 10S",      # a run of hearts (150) and its Nine (10)
    "P3": "AC AD AH AS KC KD KH KS QS JD QS JD",          # Aces and Kings around, pinochle twice, a marriage
    "P4": "AC AD AS KC KD KS QC QD QH JC JS JH",          # two marriages
    "P1": "10C 10D 10H 10S QC QD JC JS 9C 9D 9H 9S",      # the other Nine of hearts
}


def test_the_melds_of_a_hand_in_card_names(game):
    from helpers import Table
    table = Table(game, MELDING, dealer="P1")
    table.do("P3 250", "P2 pass", "P4 pass", "P1 pass", "P3 hearts")
    melded = {f"P{s + 1}": sorted((m.kind, m.points) for m in table.state.meld.found if m.seat == s) for s in range(4)}
    assert melded["P2"] == [("dix", 10), ("marriage", 40), ("run", 110)], "a run of 150 with its royal marriage"
    assert melded["P3"] == [("around", 80), ("around", 100), ("marriage", 20), ("pinochle", 300)]
    assert melded["P4"] == [("marriage", 20), ("marriage", 20)] and melded["P1"] == [("dix", 10)]
    for who, cards in MELDING.items():
        hand = Counter(name.replace("H", "♥").replace("C", "♣").replace("D", "♦").replace("S", "♠")
                       for name in cards.split())
        assert sum(p for _, p in melded[who]) == meld_of(hand, "♥"), who
    assert len(table.state.observation(0)["melds"]) == len(table.state.meld.found), "every meld is shown"


def test_logs_replay(game, tmp_path):
    _, _, replayed = logged_random_match(game, 3, tmp_path)
    assert replayed


# ---------------------------------------------------------------------- an independent reading
def beats(card: str, best: str, trump: str, led: str) -> bool:
    if suit(best) == trump:
        return suit(card) == trump and RANKS.index(rank(card)) < RANKS.index(rank(best))
    return suit(card) == trump or suit(card) == led and RANKS.index(rank(card)) < RANKS.index(rank(best))


def may_play(hand: list[str], trick, trump: str) -> set[str]:
    """Follow suit, else trump, else anything; and of those, one that beats the best card so far if one does."""
    if not trick:
        return set(hand)
    led = suit(trick[0][1])
    best = trick[0][1]
    for _, card in trick[1:]:
        if beats(card, best, trump, led):
            best = card
    allowed = [c for c in hand if suit(c) == led] or [c for c in hand if suit(c) == trump] or hand
    return set(c for c in allowed if beats(c, best, trump, led)) or set(allowed)


def test_300_random_deals_play_and_score_as_the_rules_read(game):
    def allowed(state, hand, trick):
        return may_play(hand, trick, game.deck.suits[state.vars["trump"]].symbol)
    played = 0
    for result, hands, tricks, play_vars, _ in played_deals(game, 300, 31, allowed):
        if hands is None:
            assert not any(result["delta"])
            continue
        played += 1
        trump = game.deck.suits[play_vars["trump"]].symbol
        counted = {s: Counter(h) for s, h in hands.items()}
        assert list(result["delta"]) == expected(counted, tricks, trump, result["declarer"], result["value_bid"])
    assert played > 250



def expected(hands, tricks, trump, declarer, bid) -> list[int]:
    counters, taken = [0, 0], [0, 0]
    for number, trick in enumerate(tricks, start=1):
        led = suit(trick[0][1])
        holder, best = trick[0]
        for seat, card in trick[1:]:
            if beats(card, best, trump, led):
                holder, best = seat, card
        counters[holder % 2] += 10 * sum(rank(c) in ("A", "10", "K") for _, c in trick) + (10 if number == 12 else 0)
        taken[holder % 2] += 1
    meld = [sum(meld_of(hands[s], trump) for s in range(4) if s % 2 == t) if taken[t] else 0 for t in (0, 1)]
    team = [meld[t] + counters[t] for t in (0, 1)]
    side = declarer % 2
    if team[side] < bid:
        team[side] = -bid
    return [team[0], team[1], team[0], team[1]]
