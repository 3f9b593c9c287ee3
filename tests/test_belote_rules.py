"""Belote (games/belote.yaml), rule by rule in card names, and 300 random deals against an independent reading
of the rules: the cards each player may play, the declarations that count, and every deal's score."""

from __future__ import annotations

import random

import pytest

from helpers import Table, card_rank as rank, card_suit as suit, logged_random_match, names_of, played_deals, seat
from rulelang.loader import load_game

TRUMP_ORDER = ["J", "9", "A", "10", "K", "Q", "8", "7"]
PLAIN_ORDER = ["A", "10", "K", "Q", "J", "9", "8", "7"]
SEQUENCE_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7"]
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3}
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
CARRE = {"J": 200, "9": 150, "A": 100, "10": 100, "K": 100, "Q": 100}


@pytest.fixture(scope="module")
def game():
    return load_game("belote")


# A deal in dealing order: 3 + 2 cards each, the turned card (the talon's first), then 3 each (2 for the taker).
# P1 deals, so P2 is forehand and play goes P2, P3, P4, P1.
HANDS = {
    "P2": "JS 9S AH KH QH 7C 8C",          # takes spades: gets the turned A♠ and two more
    "P3": "10S 7H 8H 9C 10C JC KC QC",
    "P4": "KS QS 8D 9D 10D JD QD KD",
    "P1": "8S 7S 9H 10H JH AC AD 7D",
}
TALON = "AS"


def dealt(game, dealer: str = "P1", hands=HANDS, talon=TALON) -> Table:
    return Table(game, hands, talon, dealer=dealer)


def test_the_turned_card_is_taken_in_the_first_round_and_the_taker_gets_two_more(game):
    table = dealt(game)
    assert table.to_act() == "P2" and set(table.legal()) == {"spades", "pass"}
    table.do("P2 spades")
    assert table.hand("P2") == {"J♠", "9♠", "A♥", "K♥", "Q♥", "7♣", "8♣", "A♠"}
    assert all(len(table.hand(s)) == 8 for s in ("P1", "P2", "P3", "P4"))


def test_in_the_second_round_another_suit_is_named_and_after_two_passes_nobody_plays(game):
    table = dealt(game)
    table.do("P2 pass", "P3 pass", "P4 pass", "P1 pass")
    assert table.to_act() == "P2" and "spades" not in table.legal() and "hearts" in table.legal()
    table.do("P2 hearts")
    assert game.deck.suits[table.state.vars["trump"]].name == "hearts" and "A♠" in table.hand("P2")
    again = dealt(game)
    again.do(*[f"{s} pass" for s in ("P2", "P3", "P4", "P1")] * 2)
    assert again.state.deal_number == 1 and list(again.state.scores) == [0, 0, 0, 0]
    assert again.state.dealer == seat("P2"), "the next player deals"


def test_trumps_rank_jack_nine_ace_and_plain_suits_ace_ten_king(game):
    table = dealt(game)
    table.do("P2 spades", "P2 AS")
    assert table.cards() == {"10♠"}
    table.do("P3 10S")                                   # below the Ace in trumps
    assert table.cards() == {"K♠", "Q♠"}
    table.do("P4 KS")
    assert table.cards() == {"8♠", "7♠"}
    table.do("P1 8S")
    assert table.to_act() == "P2"                        # the Ace of trumps holds


def test_a_trump_led_must_be_beaten_if_possible(game):
    hands = dict(HANDS, P3="10S 7H 8H 9C 10C JC KC 9D", P4="KS QS 8D QC 10D JD QD KD")
    table = dealt(game, hands=hands)
    table.do("P2 spades", "P2 9S")                      # the Nine: only the Jack beats it
    assert table.cards() == {"10♠"}                      # P3 cannot beat it, but must still play a trump
    table.do("P3 10S")
    assert table.cards() == {"K♠", "Q♠"}
    table.do("P4 QS", "P1 7S")
    assert table.to_act() == "P2", "the Nine of trumps beat the Ten and the Queen"


VOIDS = {
    "P2": "JS 9S AH KH QH 7C 8C",
    "P3": "10S 7S 8H 9C 10C JC KC 9H",
    "P4": "KS QS 8D 9D 10D JD QD KD",
    "P1": "8S 7H 10H JH AC AD 7D QC",
}


def test_a_player_who_cannot_follow_must_trump_and_over_trump_or_else_under_trump(game):
    table = dealt(game, hands=VOIDS)
    table.do("P2 spades", "P2 7C", "P3 KC")
    assert table.cards() == {"K♠", "Q♠"}, "no club, and P3, an opponent, holds the trick: P4 must trump"
    table.do("P4 QS")
    assert table.cards() == {"Q♣", "A♣"}
    table.do("P1 AC")
    assert table.to_act() == "P4", "the Queen of trumps takes the Ace of clubs"
    table.do("P4 8D", "P1 AD")
    assert table.cards() == {"J♠", "9♠", "A♠"}, "no diamond, and P1 holds the trick: P2 must trump"
    table.do("P2 AS")
    assert table.cards() == {"10♠", "7♠"}, "P3 cannot beat the Ace of trumps, but must still trump"


def test_a_player_whose_partner_holds_the_trick_may_play_anything(game):
    table = dealt(game, hands=VOIDS)
    table.do("P2 spades", "P2 AH", "P3 8H")
    assert table.cards() == {"K♠", "Q♠", "8♦", "9♦", "10♦", "J♦", "Q♦", "K♦"}, "his partner P2 holds the trick"
    table.do("P4 8D")
    assert table.cards() == {"7♥", "10♥", "J♥"}
    table.do("P1 7H")
    assert table.to_act() == "P2", "a discard does not win"


DECLARING = {
    "P2": "AH KH QH 7C 8C JS 9S",            # a tierce A♥ K♥ Q♥ (20); the taker, with the turned A♠
    "P3": "10S 9C 10C JC KC 7H 8H 9H",       # tierces J♣ 10♣ 9♣ and 9♥ 8♥ 7♥ (20 each)
    "P4": "KS QS 8D 9D 10D JD QD KD",        # K♦ Q♦ J♦ 10♦ 9♦ 8♦: a run of six counts as a quinte, 100
    "P1": "8S 7S 10H JH AC AD 7D QC",
}


def declared(state, who: str | None = None) -> set[tuple]:
    """(seat, kind, points) of the declarations that count, or of those ``who`` sees."""
    melds = state.observation(seat(who))["melds"] if who else \
        [{"seat": f"P{m.seat + 1}", "kind": m.kind, "points": m.points} for m in state.meld.counts]
    return {(m["seat"], m["kind"], m["points"]) for m in melds}


def test_only_the_team_with_the_best_declaration_scores_all_its_own_and_shows_them(game):
    table = dealt(game, hands=DECLARING)
    table.do("P2 spades")
    state = table.state
    assert declared(state) == {("P4", "sequence", 100), ("P2", "sequence", 20)}, "P2 scores with his partner"
    assert declared(state, "P1") == declared(state), "everyone sees the declarations that count"
    assert names_of(game, state.meld.shown[seat("P4")]) == {"K♦", "Q♦", "J♦", "10♦", "9♦", "8♦"}
    assert ("P3", "sequence", 20) in declared(state, "P3"), "a seat sees its own declarations"
    assert not any(m[0] == "P3" for m in declared(state, "P1")), "declarations that do not count stay hidden"


def test_equal_declarations_go_to_the_trump_one_then_to_the_player_first_to_play(game):
    hands = {
        "P2": "AH KH QH 7C 8C 8S 7S",            # a tierce in hearts
        "P3": "KS QS JS 9C 10C 7D 8H 9H",        # a tierce in spades
        "P4": "10S 8D 9D JC AD QD QC KD",
        "P1": "9S 10H JH AC JD 10D KC 7H",
    }
    table = dealt(game, hands=hands)
    table.do("P2 spades")
    assert {m[0] for m in declared(table.state)} == {"P3"}, "in spades, the trump tierce beats the heart tierce"
    table = dealt(game, hands=hands)
    table.do("P2 pass", "P3 pass", "P4 pass", "P1 pass", "P2 clubs")
    assert {m[0] for m in declared(table.state)} == {"P2", "P4"}, \
        "neither in trumps: P2 plays before P3, and his partner's A♦ K♦ Q♦ counts with his tierce"


def test_four_jacks_beat_a_quarte_and_carry_the_partners_tierce(game):
    hands = {
        "P2": "JS JC JH 10H 7C 8C 8S",          # with the turned J♦: four Jacks, 200
        "P3": "AS KS QS 10S 9S AC KC QC",       # tierces A♠ K♠ Q♠ and A♣ K♣ Q♣
        "P4": "7S 8H 7H 10C 9C AD KD QD",       # a tierce A♦ K♦ Q♦
        "P1": "10D 9D 8D 7D AH KH QH 9H",       # a quarte 10♦ 9♦ 8♦ 7♦ (50) and a tierce A♥ K♥ Q♥
    }
    table = dealt(game, hands=hands, talon="JD")
    table.do("P2 diamonds")                              # P1's quarte is in trumps, but 50 is less than 200
    assert declared(table.state) == {("P2", "carre", 200), ("P4", "sequence", 20)}


def play_out(table: Table, rng: random.Random) -> None:
    """Random legal cards until the deal ends."""
    number = table.state.deal_number
    while table.state.deal_number == number and not table.state.is_terminal():
        table.state.apply_action(rng.choice(table.state.legal_actions()))
        table.settle()


def test_belote_and_rebelote_count_for_the_team_that_held_them_whatever_happens(game):
    for seed in range(40):
        table = dealt(game)                              # P2 holds K♥ Q♥, trumps in the second round
        table.do("P2 pass", "P3 pass", "P4 pass", "P1 pass", "P2 hearts")
        play_out(table, random.Random(seed))
        delta = table.state.deal_results[-1]["delta"]
        assert delta[seat("P2")] >= 20 and delta[seat("P2")] == delta[seat("P4")]


def test_logs_replay(game, tmp_path):
    _, _, replayed = logged_random_match(game, 5, tmp_path)
    assert replayed


# ---------------------------------------------------------------------- an independent reading
def may_play(hand: list[str], trick: list[tuple[int, str]], trump: str, me: int, order) -> set[str]:
    """The cards ``me`` may play, read from the rules: follow suit; a trump led must be beaten if possible; unable
    to follow, trump unless the partner holds the trick, beating a trump already played if possible."""
    if not trick:
        return set(hand)
    led = suit(trick[0][1])
    holder, best = winner_of(trick, trump)
    trumps = [c for c in hand if suit(c) == trump]
    higher = [c for c in trumps if beats(c, best, trump, led)]
    same = [c for c in hand if suit(c) == led]
    if led == trump:
        return set(higher or trumps or hand)
    if same:
        return set(same)
    if holder % 2 == me % 2:
        return set(hand)
    return set(higher or trumps or hand)


def strength(card: str, trump: str, led: str) -> tuple:
    if suit(card) == trump:
        return (2, -TRUMP_ORDER.index(rank(card)))
    if suit(card) == led:
        return (1, -PLAIN_ORDER.index(rank(card)))
    return (0, 0)


def beats(card: str, other: str, trump: str, led: str) -> bool:
    return strength(card, trump, led) > strength(other, trump, led)


def winner_of(trick, trump):
    led = suit(trick[0][1])
    return max(trick, key=lambda play: strength(play[1], trump, led))


def melds_of(hand: set[str], who: int, trump: str) -> list[tuple]:
    """(points, is trump, seat, cards) of each declaration in ``hand``."""
    found = []
    for s in "♣♦♥♠":
        run = []
        for r in SEQUENCE_ORDER + [None]:
            if r is not None and f"{r}{s}" in hand:
                run.append(f"{r}{s}")
                continue
            if len(run) >= 3:
                found.append(({3: 20, 4: 50}.get(len(run), 100), s == trump, who, tuple(run)))
            run = []
    for r, points in CARRE.items():
        if all(f"{r}{s}" in hand for s in "♣♦♥♠"):
            found.append((points, False, who, tuple(f"{r}{s}" for s in "♣♦♥♠")))
    return found


def counted_melds(hands: dict[int, set[str]], trump: str, forehand: int) -> list[tuple]:
    every = [m for who in range(4) for m in melds_of(hands[who], who, trump)]
    if not every:
        return []
    best = max((m[0], m[1]) for m in every)
    holders = [m[2] for m in every if (m[0], m[1]) == best]
    first = min(holders, key=lambda who: (who - forehand) % 4)
    return [m for m in every if m[2] % 2 == first % 2]


def card_points(card: str, trump: str) -> int:
    return (TRUMP_POINTS if suit(card) == trump else PLAIN_POINTS).get(rank(card), 0)


def expected_scores(hands, tricks, trump, declarer, forehand, held_over):
    """Each team's score for the deal, and what is held over, read from the rules."""
    won = [0, 0]
    taken = [0, 0]
    for number, trick in enumerate(tricks, start=1):
        holder, _ = winner_of(trick, trump)
        won[holder % 2] += sum(card_points(c, trump) for _, c in trick) + (10 if number == 8 else 0)
        taken[holder % 2] += 1
    melds = counted_melds(hands, trump, forehand)
    melded = [sum(m[0] for m in melds if m[2] % 2 == t) for t in (0, 1)]
    kq = {f"K{trump}", f"Q{trump}"}
    belote = [0, 0]
    for who, hand in hands.items():
        if kq <= hand:
            belote[who % 2] = 20
    in_play = [250 if taken[t] == 8 else won[t] if taken[t] else 0 for t in (0, 1)]
    total = [in_play[t] + melded[t] + belote[t] for t in (0, 1)]
    takers = declarer % 2
    other = 1 - takers
    score = [0, 0]
    if total[takers] > total[other]:
        score = list(total)
        winner, held = takers, 0
    elif total[takers] == total[other]:
        score[other], score[takers] = total[other], belote[takers]
        winner, held = None, held_over + total[takers]
    else:
        score[takers] = belote[takers]
        score[other] = (250 if taken[other] == 8 else 162) + sum(melded) + belote[other]
        winner, held = other, 0
    if winner is not None:
        score[winner] += held_over
    return score, held


def test_300_random_deals_play_and_score_as_the_rules_read(game):
    def trump_of(state):
        return game.deck.suits[state.vars["trump"]].symbol

    def allowed(state, hand, trick):
        return may_play(hand, trick, trump_of(state), state.current_player(), None)
    outcomes, kinds = 0, set()
    for result, hands, tricks, play_vars, counters in played_deals(game, 300, 11, allowed):
        if hands is None:
            assert not any(result["delta"]), "a deal nobody takes scores nothing"
            continue
        trump = game.deck.suits[play_vars["trump"]].symbol
        score, _ = expected_scores({s: set(h) for s, h in hands.items()}, tricks, trump, result["declarer"],
                                   (result["dealer"] + 1) % 4, counters["held_over"])
        assert list(result["delta"]) == [score[0], score[1], score[0], score[1]], (hands, tricks, score)
        outcomes += 1
        kinds.update(m["kind"] for m in result.get("melds", []) if m["counts"])
    assert outcomes > 200 and "sequence" in kinds

