"""Klaverjas (games/klaverjas.yaml, Rotterdam; games/klaverjas-amsterdam.yaml) rule by rule in card names, and
300 random deals of each against an independent reading: the cards each player may play, the roem of every
trick, nat and pit, and every deal's score."""

from __future__ import annotations

import pytest

from helpers import Table, card_rank as rank, card_suit as suit, logged_random_match, names_of, played_deals
from rulelang.loader import load_game
from test_belote_rules import (PLAIN_POINTS, SEQUENCE_ORDER, TRUMP_POINTS,  # Belote ranks and counts alike
                               strength, winner_of)



@pytest.fixture(scope="module")
def rotterdam():
    return load_game("klaverjas")


@pytest.fixture(scope="module")
def amsterdam():
    return load_game("klaverjas-amsterdam")


# P4 deals, so P1 is forehand and names trumps; play goes P1, P2, P3, P4; P1 and P3 are partners.
PARTNER_HOLDS = {
    "P1": "AC 7C 8C JS 9S AS KH QH",
    "P2": "9C 10C JC 7H 8H 10S 7D 8D",
    "P3": "KS QS 8S 9D 10D JD QD KD",          # no club
    "P4": "KC QC 7S 9H 10H JH AH AD",
}


def test_forehand_must_name_trumps(rotterdam):
    table = Table(rotterdam, PARTNER_HOLDS, dealer="P4")
    assert table.to_act() == "P1" and "pass" not in table.legal()
    table.do("P1 spades")
    assert table.to_act() == "P1" and len(table.cards()) == 8


def test_rotterdam_trumps_over_the_partner_and_amsterdam_lets_him_play_anything(rotterdam, amsterdam):
    table = Table(rotterdam, PARTNER_HOLDS, dealer="P4")
    table.do("P1 spades", "P1 AC", "P2 9C")
    assert table.cards() == {"K♠", "Q♠", "8♠"}, "Rotterdam: no club, so P3 trumps his partner's Ace"
    table = Table(amsterdam, PARTNER_HOLDS, dealer="P4")
    table.do("P1 spades", "P1 AC", "P2 9C")
    assert table.cards() == names_of(amsterdam, table.state.hands[2]), "Amsterdam: his partner holds, any card"


NO_UNDERTRUMP = {
    "P1": "7H 8H 9H 10H AS 9S 7C 8C",
    "P2": "JS 10S AC KC QC JC 10C 9C",         # no heart
    "P3": "8S 7S AD KD QD JD 10D 9D",          # no heart, two low trumps
    "P4": "KS QS AH KH QH JH 8D 7D",
}


@pytest.mark.parametrize("variant", ["klaverjas", "klaverjas-amsterdam"])
def test_a_player_who_cannot_follow_beats_a_trump_played_or_discards_but_never_under_trumps(variant):
    game = load_game(variant)
    table = Table(game, NO_UNDERTRUMP, dealer="P4")
    table.do("P1 spades", "P1 7H")
    assert table.cards() == {"J♠", "10♠"}, "P2 has no heart: he must trump"
    table.do("P2 JS")
    assert table.cards() == {"A♦", "K♦", "Q♦", "J♦", "10♦", "9♦"}, "P3 cannot beat the Jack and may not under-trump"
    table.do("P3 AD")
    assert table.cards() == {"A♥", "K♥", "Q♥", "J♥"}


def test_a_trump_led_must_be_beaten_if_possible(rotterdam):
    table = Table(rotterdam, NO_UNDERTRUMP, dealer="P4")
    table.do("P1 spades", "P1 9S")
    assert table.cards() == {"J♠"}, "only the Jack beats the Nine of trumps"
    table.do("P2 JS")
    assert table.cards() == {"8♠", "7♠"}, "P3 cannot beat it: he follows with any trump"


ROEM = {
    "P1": "10D 7H 8H 9H 10H AS 9S 8S",
    "P2": "JD JS 10S AC KC QC JC 10C",
    "P3": "QD 7S AH KH QH JH 9C 8C",
    "P4": "KD KS QS AD 9D 8D 7D 7C",
}


def test_roem_in_a_trick_goes_to_the_side_that_wins_it(rotterdam):
    table = Table(rotterdam, ROEM, dealer="P4")
    table.do("P1 spades", "P1 10D", "P2 JD", "P3 QD", "P4 KD")   # K Q J 10 of diamonds: fifty
    state = table.state
    assert state.tricks.trick_winners[-1][0] == 0, "the Ten ranks above the King in a plain suit"
    from rulelang.compile.coderuntime import trick_melds
    assert trick_melds(state, 0b0101) == 50 and trick_melds(state, 0b1010) == 0


@pytest.mark.parametrize("variant", ["klaverjas", "klaverjas-amsterdam"])
def test_logs_replay(variant, tmp_path):
    _, _, replayed = logged_random_match(load_game(variant), 7, tmp_path)
    assert replayed


# ---------------------------------------------------------------------- an independent reading
def may_play(hand: list[str], trick, trump: str, me: int, amsterdam: bool) -> set[str]:
    """Follow suit; a trump led must be beaten if possible; unable to follow, trump (Amsterdam: not while the
    partner holds), beating a trump already played if possible, else a card of another suit, a lower trump only
    when nothing else is left."""
    if not trick:
        return set(hand)
    led = suit(trick[0][1])
    holder, best = winner_of(trick, trump)
    trumps = [c for c in hand if suit(c) == trump]
    higher = [c for c in trumps if strength(c, trump, led) > strength(best, trump, led)]
    same = [c for c in hand if suit(c) == led]
    if led == trump:
        return set(higher or trumps or hand)
    if same:
        return set(same)
    if amsterdam and holder % 2 == me % 2:
        lower = [c for c in trumps if c not in higher]
        return set(c for c in hand if c not in lower) or set(hand)
    return set(higher or [c for c in hand if suit(c) != trump] or hand)


def roem(trick_cards: list[str], trump: str) -> int:
    """The roem of one trick: runs of three (20) or four (50) in A K Q J 10 9 8 7 order of one suit, the King and
    Queen of trumps (20), four of a kind (100, four Jacks 200)."""
    points = 0
    for s in "♣♦♥♠":
        places = sorted(SEQUENCE_ORDER.index(rank(c)) for c in trick_cards if suit(c) == s)
        run = best = 1 if places else 0
        for a, b in zip(places, places[1:]):
            run = run + 1 if b == a + 1 else 1
            best = max(best, run)
        points += {3: 20, 4: 50}.get(best, 0)
    if {f"K{trump}", f"Q{trump}"} <= set(trick_cards):
        points += 20
    ranks = {rank(c) for c in trick_cards}
    if len(ranks) == 1:
        points += 200 if ranks == {"J"} else 100
    return points


def expected_scores(tricks, trump: str, players: int):
    won, taken, roems = [0, 0], [0, 0], [0, 0]
    for number, trick in enumerate(tricks, start=1):
        holder, _ = winner_of(trick, trump)
        cards = [c for _, c in trick]
        won[holder % 2] += sum((TRUMP_POINTS if suit(c) == trump else PLAIN_POINTS).get(rank(c), 0) for c in cards)
        won[holder % 2] += 10 if number == 8 else 0
        taken[holder % 2] += 1
        roems[holder % 2] += roem(cards, trump)
    total = [won[t] + roems[t] for t in (0, 1)]
    pit = [100 if taken[t] == 8 else 0 for t in (0, 1)]
    side, other = players % 2, 1 - players % 2
    if total[side] > total[other]:
        return [total[t] + pit[t] for t in (0, 1)], False
    score = [0, 0]
    score[other] = 162 + sum(roems) + pit[other]
    return score, True


@pytest.mark.parametrize("variant", ["klaverjas", "klaverjas-amsterdam"])
def test_300_random_deals_play_and_score_as_the_rules_read(variant):
    game = load_game(variant)

    def allowed(state, hand, trick):
        trump = game.deck.suits[state.vars["trump"]].symbol
        return may_play(hand, trick, trump, state.current_player(), variant.endswith("amsterdam"))
    wet = with_roem = 0
    for result, _, tricks, play_vars, _ in played_deals(game, 300, 17, allowed):
        trump = game.deck.suits[play_vars["trump"]].symbol
        score, nat = expected_scores(tricks, trump, result["declarer"])
        assert list(result["delta"]) == [score[0], score[1], score[0], score[1]], (tricks, trump, score)
        wet += nat
        with_roem += any(roem([c for _, c in t], trump) for t in tricks)
    assert wet > 10 and with_roem > 100



def test_explain_says_the_trump_order_and_the_roem():
    from pathlib import Path

    import yaml

    from rulelang.render.explain import explain_game
    text = "\n".join(explain_game(yaml.safe_load(Path("games/klaverjas.yaml").read_text(encoding="utf-8"))))
    assert "The trick goes to the highest trump (ranked J 9 A 10 K Q 8 7)" in text
    assert "Combinations in a trick score for the player who wins it: sequence, a run of 3 or more" in text
