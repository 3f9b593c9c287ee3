"""Hearts and its variants, rule by rule in card names (games/hearts.rules and the hearts-* files).

The pass rotates left, right, across, none; the holder of 2♣ leads it; no heart nor the Q♠
on the first trick while a player has another card; hearts are not led until a heart or the
Q♠ has fallen, unless the leader has nothing else; hearts cost 1 and the Q♠ 13, and a player
who takes them all scores nothing while everyone else scores 26; the match ends at 100 and
the lowest score wins. ``tests/logs/hearts-one-suit-each.jsonl`` is one deal written by
hand (each seat dealt one suit; P3 takes ten tricks and 11 points, P4 the Q♠ and 15).
"""

from __future__ import annotations

import json
from functools import lru_cache

from helpers import LOGS, Table, seat
from rulelang.interpreter.replay import replay
from rulelang.interpreter.log import read_log
from rulelang.loader import load_game, load_text

LOG = LOGS / "hearts-one-suit-each.jsonl"
ONE_SUIT_EACH = {"P1": "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣", "P2": "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦",
                 "P3": "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥", "P4": "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠"}
LOW_PASSES = [("P1", "2♣ 3♣ 4♣"), ("P2", "2♦ 3♦ 4♦"), ("P3", "2♥ 3♥ 4♥"), ("P4", "2♠ 3♠ 4♠")]


@lru_cache(maxsize=None)
def game(name: str = "hearts", max_deals: int | None = 1):
    return load_game(name, max_deals=max_deals)


def logged_moves() -> list[str]:
    """The moves of the hand-written log, as ``"P3 10♥"``."""
    lines = [json.loads(line) for line in LOG.read_text(encoding="utf-8").splitlines()]
    return [f"{line['seat']} {line['action']}" for line in lines if line["type"] == "action"]


def passed(t: Table, passes=LOW_PASSES) -> None:
    for who, cards in passes:
        t.do(*(f"{who} {card}" for card in cards.split()))


def finish_deal(state) -> None:
    """Play the rest of the current deal with each seat's first legal move."""
    number = state.deal_number
    while state.deal_number == number and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])


def test_the_hand_written_log_replays_to_its_scores():
    outcome = replay(read_log(str(LOG)), game())
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert outcome.state.scores == [0, 0, 11, 15]


def test_the_first_deal_passes_left_and_nobody_receives_before_everyone_has_chosen():
    t = Table(game(), ONE_SUIT_EACH, dealer="P4")
    t.do("P1 2♣", "P1 3♣", "P1 4♣", "P2 2♦", "P2 3♦", "P2 4♦")
    assert t.hand("P2") == set("A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦".split())
    t.do("P3 2♥", "P3 3♥", "P3 4♥", "P4 2♠", "P4 3♠", "P4 4♠")
    assert {"2♣", "3♣", "4♣"} <= t.hand("P2") and {"2♠", "3♠", "4♠"} <= t.hand("P1")
    assert {"2♥", "3♥", "4♥"} <= t.hand("P4") and {"2♦", "3♦", "4♦"} <= t.hand("P3")


def test_the_pass_goes_right_on_the_second_deal_across_on_the_third_and_not_at_all_on_the_fourth():
    t = Table(game("hearts", 4), ONE_SUIT_EACH, dealer="P4")
    received = []
    for dealer, first in (("P1", 1), ("P2", 2)):                     # forehand passes first: P2, then P3
        finish_deal(t.state)
        t.dealer = dealer
        t.deal(ONE_SUIT_EACH)
        passed(t, LOW_PASSES[first:] + LOW_PASSES[:first])
        received.append(t.hand("P1") - set(ONE_SUIT_EACH["P1"].split()))
    assert received[0] == {"2♦", "3♦", "4♦"}                          # deal 2: to the right, P2 → P1
    assert received[1] == {"2♥", "3♥", "4♥"}                          # deal 3: across, P3 → P1
    finish_deal(t.state)
    t.dealer = "P3"
    t.deal(ONE_SUIT_EACH)
    assert t.to_act() == "P1" and t.legal() == ["2♣"]                  # deal 4: no pass, the 2♣ leads at once


def test_the_holder_of_the_2_of_clubs_after_the_pass_leads_it():
    t = Table(game(), ONE_SUIT_EACH, dealer="P4")
    passed(t)
    assert t.to_act() == "P2" and t.legal() == ["2♣"]                  # P1 passed the 2♣ to P2


def test_on_the_first_trick_nobody_may_play_a_heart_or_the_queen_of_spades_while_he_has_another_card():
    t = Table(game(), ONE_SUIT_EACH, dealer="P4")
    passed(t)
    t.do("P2 2♣")
    assert sorted(t.legal()) == sorted(["2♦", "3♦", "4♦"])            # P3: hearts and the three diamonds
    t.do("P3 2♦")
    assert "Q♠" not in t.legal() and not any(card.endswith("♥") for card in t.legal())
    assert len(t.legal()) == 9                                         # P4's spades but the Q♠


def test_a_player_with_only_hearts_and_the_queen_of_spades_may_play_them_on_the_first_trick():
    hands = {"P1": "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 5♣ 4♣ 3♣ 2♣", "P2": "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦",
             "P3": "Q♠ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥", "P4": "A♠ K♠ A♥ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠"}
    t = Table(game("hearts-no-pass"), hands, dealer="P4")
    t.do("P1 2♣", "P2 2♦")
    assert len(t.legal()) == 13                                        # nothing else: any heart or the Q♠
    t.do("P3 Q♠")
    assert "A♥" not in t.legal() and len(t.legal()) == 12              # P4 still has spades to shed


CLUBS_AND_HEARTS = {"P1": "2♣ 5♣ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥",
                    "P2": "A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦",
                    "P3": "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠",
                    "P4": "A♣ K♣ Q♣ J♣ 10♣ 9♣ 8♣ 7♣ 6♣ 4♣ 3♣ K♥ A♥"}


def test_hearts_may_not_be_led_until_broken():
    t = Table(game("hearts-no-pass"), CLUBS_AND_HEARTS, dealer="P4")
    t.do("P1 2♣", "P2 2♦", "P3 2♠", "P4 3♣")
    assert t.to_act() == "P4" and not {"K♥", "A♥"} & set(t.legal()) and len(t.legal()) == 10


def test_the_queen_of_spades_breaks_hearts():
    t = Table(game("hearts-no-pass"), CLUBS_AND_HEARTS, dealer="P4")
    t.do("P1 2♣", "P2 2♦", "P3 2♠", "P4 3♣", "P4 A♣", "P1 5♣", "P2 3♦", "P3 Q♠")
    assert t.to_act() == "P4" and {"K♥", "A♥"} <= set(t.legal())


def test_a_leader_with_nothing_but_hearts_may_lead_them_before_they_are_broken():
    t = Table(game("hearts-no-pass"), CLUBS_AND_HEARTS, dealer="P4")
    t.do("P1 2♣", "P2 2♦", "P3 2♠", "P4 3♣", "P4 4♣", "P1 5♣", "P2 3♦", "P3 3♠")
    assert t.to_act() == "P1" and len(t.legal()) == 11


def test_each_heart_costs_one_and_the_queen_of_spades_thirteen():
    t = Table(game(), ONE_SUIT_EACH, dealer="P4")
    t.do(*logged_moves())
    assert t.state.scores == [0, 0, 11, 15]                            # P4: Q♠ A♥ K♥; P3: the other 11 hearts


SHOOTER = {"P1": "A♣ K♣ Q♣ J♣ A♦ K♦ Q♦ J♦ A♠ K♠ Q♠ J♠ A♥", "P2": "10♣ 9♣ 8♣ 7♣ 10♦ 9♦ 8♦ 7♦ 10♠ 9♠ 8♠ 7♠ K♥",
           "P3": "6♣ 5♣ 4♣ 3♣ 6♦ 5♦ 4♦ 3♦ 6♠ 5♠ 4♠ 3♠ Q♥", "P4": "2♣ 2♦ 2♠ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥"}


def test_a_player_who_takes_every_heart_and_the_queen_of_spades_scores_nothing_and_the_others_26():
    t = Table(game("hearts-no-pass"), SHOOTER, dealer="P4")           # P1 holds the top of every suit
    finish_deal(t.state)
    assert t.state.tricks.taken[seat("P1")] == 13
    assert t.state.scores == [0, 26, 26, 26]


def test_the_match_ends_when_someone_reaches_100_and_the_lowest_score_wins():
    t = Table(game("hearts", None), ONE_SUIT_EACH, dealer="P4", scores=[20, 30, 10, 90])
    t.do(*logged_moves())
    assert t.state.is_terminal() and t.state.scores == [20, 30, 21, 105]
    assert t.state.winner == seat("P1")


def test_omnibus_hearts_gives_the_jack_of_diamonds_minus_10_to_its_taker():
    t = Table(game("hearts-omnibus"), ONE_SUIT_EACH, dealer="P4")
    t.do(*logged_moves())
    assert t.state.scores == [0, 0, 1, 15]                             # P3 took the J♦ in trick 8


def test_in_omnibus_hearts_a_shooter_of_the_moon_still_counts_the_jack_of_diamonds():
    omnibus_no_pass = load_text("extends: hearts-omnibus\nparams: {pass_cards: false}\n", "yaml", max_deals=1)
    t = Table(omnibus_no_pass, SHOOTER, dealer="P4")
    finish_deal(t.state)
    assert t.state.scores == [-10, 26, 26, 26]


def test_three_players_play_without_the_2_of_diamonds_17_cards_each_passing_left_right_then_not():
    g = game("hearts-three", 3)
    assert g.num_cards == 51 and "2♦" not in {c.name for c in g.deck.cards}
    state = g.new_initial_state()
    directions = []
    for _ in range(3):
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        assert [bin(h).count("1") for h in state.hands] == [17, 17, 17]
        directions.append(state.vars["pass_to"])
        finish_deal(state)
    assert directions == ["left", "right", "hold"]


def test_five_players_play_without_the_2_of_diamonds_and_the_2_of_spades_10_cards_each():
    g = game("hearts-five")
    assert g.num_cards == 50 and not {"2♦", "2♠"} & {c.name for c in g.deck.cards}
    state = g.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert [bin(h).count("1") for h in state.hands] == [10] * 5
