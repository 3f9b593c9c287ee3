"""Jass, the Schieber (games/jass.yaml), rule by rule in card names, and 300 random deals against an independent
reading: the cards each player may play in trumps, Obenabe and Undenufe, the Weis that counts, and every score."""

from __future__ import annotations

import random

import pytest

from helpers import Table, card_rank as rank, card_suit as suit, logged_random_match, names_of, played_deals, seat
from rulelang.loader import load_game

TRUMP_ORDER = ["J", "9", "A", "K", "Q", "10", "8", "7", "6"]
HIGH_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6"]
LOW_ORDER = list(reversed(HIGH_ORDER))
PLAIN_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "10": 10}
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "K": 4, "Q": 3, "10": 10}
FOUR = {"J": 200, "9": 150, "A": 100, "K": 100, "Q": 100, "10": 100}
RUNS = {3: 20, 4: 50, 5: 100, 6: 150, 7: 200, 8: 250, 9: 300}


@pytest.fixture(scope="module")
def game():
    return load_game("jass")


# P1 deals; play goes anticlockwise, P2 is forehand: P2, P3, P4, P1. P2 and P4 are partners.
HANDS = {
    "P2": "JH 6H AS KS QS 6C 7C 8C 9C",
    "P3": "9H 7H 10S JS 6S AC KC QC JC",
    "P4": "AH KH QH 8S 9S 10C 6D 7D 8D",
    "P1": "10H 8H 7S 9D 10D JD QD KD AD",
}


def test_forehand_names_the_game_or_pushes_it_to_his_partner(game):
    table = Table(game, HANDS, dealer="P1")
    assert table.to_act() == "P2" and set(table.legal()) == {"trumps", "obenabe", "undenufe", "schieben"}
    table.do("P2 schieben")
    assert table.to_act() == "P4" and "schieben" not in table.legal()
    table.do("P4 trumps")
    assert table.to_act() == "P4", "the partner who took the choice names the trump suit"
    table.do("P4 hearts")
    assert table.to_act() == "P2", "forehand leads"


def test_a_player_may_always_trump_but_never_under_trump(game):
    table = Table(game, HANDS, dealer="P1")
    table.do("P2 trumps", "P2 hearts", "P2 AS")
    assert table.cards() == {"10♠", "J♠", "6♠", "9♥", "7♥"}, "P3 follows spades or trumps"
    table.do("P3 9H")                                          # the Nell
    assert table.cards() == {"8♠", "9♠"}, "P4 holds spades and only lower trumps: no under-trump"
    table.do("P4 8S")
    assert table.cards() == {"7♠"}, "P1's trumps are both below the Nell: he must follow"


def test_when_trumps_are_led_the_puur_alone_need_not_follow(game):
    table = Table(game, HANDS, dealer="P1")
    table.do("P2 trumps", "P2 hearts", "P2 6H")
    assert table.cards() == {"9♥", "7♥"}
    table = Table(game, HANDS, dealer="P1")
    table.do("P2 trumps", "P2 spades", "P2 AS")
    assert table.cards() == {"10♠", "J♠", "6♠"}, "with other trumps the Puur is one of them"
    hands = dict(HANDS, P3="9H 7H 10S AD 6S AC KC QC JC", P4="AH KH QH 8S 9S 10C 6D 7S 8D",
                 P1="10H 8H 7D 9D 10D JD QD KD JS")
    table = Table(game, hands, dealer="P1")
    table.do("P2 trumps", "P2 spades", "P2 QS", "P3 6S", "P4 8S")
    assert table.cards() == names_of(game, table.state.hands[seat("P1")]), "P1's only trump is the Puur: free"


def test_undenufe_the_lowest_card_of_the_suit_led_wins(game):
    table = Table(game, HANDS, dealer="P1")
    table.do("P2 undenufe", "P2 6C", "P3 AC", "P4 10C")
    assert table.cards() == {"9♦", "10♦", "J♦", "Q♦", "K♦", "A♦", "10♥", "8♥", "7♠"}, "no club: anything"
    table.do("P1 7S")
    assert table.to_act() == "P2", "the Six of clubs takes it"


def test_the_best_weis_scores_for_its_team_only(game):
    table = Table(game, HANDS, dealer="P1")
    table.do("P2 obenabe")
    counted = {(f"P{m.seat + 1}", m.kind, m.points) for m in table.state.meld.counts}
    assert counted == {("P1", "sequence", 150), ("P3", "sequence", 50)}, \
        "P1's A K Q J 10 9 of diamonds beats everything, and his partner's A K Q J of clubs counts with it"
    shown = table.state.observation(seat("P2"))["melds"]
    assert ("P1", "sequence", 150) in {(m["seat"], m["kind"], m["points"]) for m in shown}


def test_logs_replay(game, tmp_path):
    _, _, replayed = logged_random_match(game, 9, tmp_path)
    assert replayed


# ---------------------------------------------------------------------- an independent reading
def strength(card: str, mode: str, trump: str | None, led: str) -> tuple:
    if mode == "trumps" and suit(card) == trump:
        return (2, -TRUMP_ORDER.index(rank(card)))
    if suit(card) == led:
        order = LOW_ORDER if mode == "undenufe" else HIGH_ORDER
        return (1, -order.index(rank(card)))
    return (0, 0)


def winner_of(trick, mode, trump):
    led = suit(trick[0][1])
    return max(trick, key=lambda play: strength(play[1], mode, trump, led))


def may_play(hand: list[str], trick, mode: str, trump: str | None) -> set[str]:
    if not trick:
        return set(hand)
    led = suit(trick[0][1])
    same = [c for c in hand if suit(c) == led]
    if mode != "trumps":
        return set(same or hand)
    trumps = [c for c in hand if suit(c) == trump]
    if led == trump:
        return set(hand) if [c for c in trumps if rank(c) != "J"] == [] else set(trumps)
    _, best = winner_of(trick, mode, trump)
    under = {c for c in trumps if strength(c, mode, trump, led) <= strength(best, mode, trump, led)}
    if same:
        return set(same) | (set(trumps) - under)
    return (set(hand) - under) or set(hand)


def weis_of(hand: set[str], who: int) -> list[tuple]:
    """(points, kind place, top, seat, suit) of each Weis: fours first among equal points, then the higher top, then
    a sequence in trumps."""
    found = []
    for r, points in FOUR.items():
        if all(f"{r}{s}" in hand for s in "♣♦♥♠"):
            found.append((points, 1, -HIGH_ORDER.index(r), who, None))
    for s in "♣♦♥♠":
        run: list[str] = []
        for r in HIGH_ORDER + [None]:
            if r is not None and f"{r}{s}" in hand:
                run.append(r)
                continue
            if len(run) >= 3:
                found.append((RUNS[len(run)], 0, -HIGH_ORDER.index(run[0]), who, s))
            run = []
    return found


def counted_weis(hands, forehand: int, trump: str | None) -> list[int]:
    every = [w for who in range(4) for w in weis_of(hands[who], who)]
    if not every:
        return [0, 0]
    def key(w):
        return w[0], w[1], w[2], w[4] is not None and w[4] == trump
    best = max(key(w) for w in every)
    holders = [w[3] for w in every if key(w) == best]
    first = min(holders, key=lambda who: (who - forehand) % 4)
    team = first % 2
    return [sum(w[0] for w in every if w[3] % 2 == t) if t == team else 0 for t in (0, 1)]


def expected(hands, tricks, mode, trump, forehand) -> list[int]:
    times = 3 if mode != "trumps" else 2 if trump in "♠♣" else 1
    won, taken = [0, 0], [0, 0]
    for number, trick in enumerate(tricks, start=1):
        holder, _ = winner_of(trick, mode, trump)
        for _, c in trick:
            if mode == "trumps" and suit(c) == trump:
                won[holder % 2] += TRUMP_POINTS.get(rank(c), 0)
            else:
                won[holder % 2] += 8 if mode != "trumps" and rank(c) == "8" else PLAIN_POINTS.get(rank(c), 0)
        won[holder % 2] += 5 if number == 9 else 0
        taken[holder % 2] += 1
    weis = counted_weis(hands, forehand, trump)
    stoeck = [0, 0]
    if mode == "trumps":
        for who, hand in hands.items():
            if {f"K{trump}", f"Q{trump}"} <= hand:
                stoeck[who % 2] = 20
    return [times * (won[t] + weis[t] + stoeck[t] + (100 if taken[t] == 9 else 0)) for t in (0, 1)]


def mode_of(play_vars) -> str:
    return play_vars.get("second") if play_vars.get("first") == "schieben" else play_vars["first"]


def test_300_random_deals_play_and_score_as_the_rules_read(game):
    def trump_of(play_vars, mode):
        return game.deck.suits[play_vars["trump"]].symbol if mode == "trumps" else None

    def allowed(state, hand, trick):
        mode = mode_of(state.vars)
        return may_play(hand, trick, mode, trump_of(state.vars, mode))
    modes = set()
    for result, hands, tricks, play_vars, _ in played_deals(game, 300, 23, allowed):
        mode = mode_of(play_vars)
        score = expected({s: set(h) for s, h in hands.items()}, tricks, mode, trump_of(play_vars, mode),
                         (result["dealer"] + 1) % 4)
        assert list(result["delta"]) == [score[0], score[1], score[0], score[1]], (mode, hands, tricks)
        modes.add(mode)
    assert modes == {"trumps", "obenabe", "undenufe"}



def test_a_world_drawn_for_a_seat_gives_the_same_weis_that_counts(game):
    rng = random.Random(4)
    checked = 0
    for _ in range(12):
        state = game.new_initial_state()
        while not (state.phase is not None and state.phase.kind == "tricks" and len(state.tricks.finished) == 2):
            state.apply_action(rng.choice(state.legal_actions()))
        for me in range(4):
            world = state.resample_from_infostate(me, random.Random(me))
            assert world is not None
            assert {(m.seat, m.kind, m.cards) for m in world.meld.counts} == \
                {(m.seat, m.kind, m.cards) for m in state.meld.counts}
            checked += bool(state.meld.counts)
    assert checked > 10
