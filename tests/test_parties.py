"""``parties``: the holders of given cards against the rest, secret until play shows them.

A Doppelkopf-like table in card names: 48 cards (two copies of A 10 K Q J 9), the holders
of the Queens of clubs are the declarers; either side may say its word (re, kontra) on its
turn while it holds 11 cards or more, which tells everyone its party and adds 2 to the value.
A seat knows its own party; a seat that plays a Q♣ is known to be a declarer; once both Q♣
are accounted for, the other seats are known to be the other party. States that differ only
in who holds the other Q♣ look the same to a seat that cannot see it, and the worlds an
agent samples keep the parties consistent with what was played and said.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from helpers import Table, seat
from rulelang.interpreter.game import IllegalActionError
from rulelang.interpreter.worlds import determinize
from rulelang.loader import load_text

RULES = """
game parties-test "Re and Kontra"
players 4
deck {
  pack skat32-french
  ranks A, 10, K, Q, J, 9
  copies = 2
  points A = 11, 10 = 10, K = 4, Q = 3, J = 2
}
phases {
  deal each 12
  parties {
    cards = "{'Q♣'}"
  }
  tricks among seats {
    lead forehand
    follow led_suit, any
    win highest led_suit
    calls {
      re {
        side = declarers
        allow = "count(hand(player)) >= 11"
      }
      kontra {
        side = defenders
        allow = "count(hand(player)) >= 11"
      }
    }
  }
  score {
    let value = 1 + (if announced(re) then 2 else 0) + (if announced(kontra) then 2 else 0)
    each seats add if (player in declarers) == (points(declarers) > 120) then value else -value
  }
}
match {
  start 0
  end when true
  winner highest
}
"""
HANDS = {"P1": "A♣ A♣ 10♣ 10♣ K♣ K♣ J♣ J♣ 9♣ 9♣ A♠ A♠",
         "P2": "Q♣ 10♠ 10♠ K♠ K♠ Q♠ Q♠ J♠ J♠ 9♠ 9♠ A♥",
         "P3": "A♥ 10♥ 10♥ K♥ K♥ Q♥ Q♥ J♥ J♥ 9♥ 9♥ A♦",
         "P4": "Q♣ A♦ 10♦ 10♦ K♦ K♦ Q♦ Q♦ J♦ J♦ 9♦ 9♦"}


@pytest.fixture(scope="module")
def game():
    return load_text(RULES, max_deals=1)


def parties(t: Table, who: str) -> dict:
    return t.state.observation(seat(who))["parties"]


def test_before_play_each_seat_knows_only_its_own_party(game):
    t = Table(game, HANDS, dealer="P4")                              # P1 leads
    assert parties(t, "P1") == {"P1": "defenders"}
    assert parties(t, "P2") == {"P2": "declarers"}                   # he knows a partner exists, not who
    assert t.state.side_mask == 1 << seat("P2") | 1 << seat("P4")


def test_a_seat_that_plays_the_queen_of_clubs_is_known_to_all_and_then_everyone_when_both_have_fallen(game):
    t = Table(game, HANDS, dealer="P4")
    t.do("P1 A♣", "P2 Q♣")                                           # P2 is void in clubs but one Q♣
    assert parties(t, "P3") == {"P2": "declarers", "P3": "defenders"}
    assert parties(t, "P4") == {"P2": "declarers", "P4": "declarers", "P1": "defenders", "P3": "defenders"}
    t.do("P3 A♥", "P4 Q♣")
    assert parties(t, "P1") == {"P1": "defenders", "P2": "declarers", "P3": "defenders", "P4": "declarers"}


def test_a_seat_holding_both_queens_of_clubs_is_a_party_of_one(game):
    hands = dict(HANDS, P2=HANDS["P2"].replace("A♥", "Q♣"), P4=HANDS["P4"].replace("Q♣", "A♥"))
    t = Table(game, hands, dealer="P4")
    assert t.state.side_mask == 1 << seat("P2")
    assert parties(t, "P2") == {"P1": "defenders", "P2": "declarers", "P3": "defenders", "P4": "defenders"}
    assert parties(t, "P1") == {"P1": "defenders"}


def test_states_that_differ_only_in_who_holds_the_other_queen_look_the_same_to_a_seat_that_cannot_see_it(game):
    swapped = dict(HANDS, P3=HANDS["P3"].replace("A♦", "Q♣"), P4=HANDS["P4"].replace("Q♣", "A♦"))
    one, other = Table(game, HANDS, dealer="P1"), Table(game, swapped, dealer="P1")   # P2 leads
    for t in (one, other):
        t.do("P2 Q♣")
    assert one.state.side_mask != other.state.side_mask
    for who in ("P1", "P2"):
        assert one.state.observation(seat(who)) == other.state.observation(seat(who))
        assert one.state.information_state_string(seat(who)) == other.state.information_state_string(seat(who))


def test_the_worlds_an_agent_samples_keep_the_parties_those_worlds_deal(game):
    t = Table(game, HANDS, dealer="P4")
    t.do("P1 A♣", "P2 Q♣")
    rng, holders = random.Random(3), set()
    for _ in range(40):
        world = determinize(t.state, seat("P1"), rng)
        queens = [s for s in range(4) if any(world.game.deck.cards[c].name == "Q♣"
                                             for c in range(48) if world.hands[s] >> c & 1)]
        assert world.side_mask == 1 << seat("P2") | sum(1 << s for s in queens)
        assert world.observation(seat("P1")) == t.state.observation(seat("P1"))
        holders.update(queens)
    assert {seat("P3"), seat("P4")} <= holders <= {seat("P2"), seat("P3"), seat("P4")}   # P2 may hold both


def test_the_declarers_win_with_more_than_120_card_points(game):
    t = Table(game, HANDS, dealer="P4")
    state = t.state
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    won = state.won[seat("P2")] | state.won[seat("P4")]
    declarers_win = sum(card.points for i, card in enumerate(game.deck.cards) if won >> i & 1) > 120
    assert state.scores[seat("P2")] == state.scores[seat("P4")] == (1 if declarers_win else -1)
    assert state.scores[seat("P1")] == state.scores[seat("P3")] == (-1 if declarers_win else 1)


def test_a_seat_may_say_its_own_sides_word_on_its_turn_until_its_second_card_and_everyone_learns_its_party(game):
    t = Table(game, HANDS, dealer="P4")
    assert "kontra" in t.legal() and "re" not in t.legal()            # P1 is a defender
    t.do("P1 kontra")
    assert t.to_act() == "P1" and "kontra" not in t.legal()           # said once; P1 still has to play
    assert parties(t, "P3") == {"P1": "defenders", "P3": "defenders"}
    assert t.state.observation(seat("P2"))["calls"] == [("P1", "kontra")]
    t.do("P1 A♣", "P2 Q♣", "P3 A♥", "P4 Q♣", "P1 A♠")                 # P1's A♣ takes the first trick
    assert "re" in t.legal()                                          # P2 is to play his second card
    t.do("P2 10♠", "P3 A♦", "P4 A♦", "P1 A♠")
    assert t.to_act() == "P2" and "re" not in t.legal()               # too late: 10 cards left


def test_a_call_of_the_other_side_or_said_twice_is_refused_with_the_reason(game):
    t = Table(game, HANDS, dealer="P4")
    with pytest.raises(IllegalActionError) as error:
        t.do("P1 re")
    assert error.value.diagnostic.code == "E513" and "only the declarers say it" in error.value.diagnostic.message
    t.do("P1 kontra")
    with pytest.raises(IllegalActionError) as error:
        t.do("P1 kontra")
    assert "said already" in error.value.diagnostic.message


def test_each_call_adds_two_to_the_value_of_the_deal(game):
    t = Table(game, HANDS, dealer="P4")
    t.do("P1 kontra", "P1 A♣", "P2 re")
    state = t.state
    while not state.is_terminal():
        state.apply_action(next(a for a in state.legal_actions() if a < state.game.num_cards))
    assert sorted(abs(score) for score in state.scores) == [5, 5, 5, 5]


def test_one_tricks_cards_and_points_and_the_cards_a_party_played_can_be_scored(game):
    scored = "card_points(trick_cards(1)) + count(cards_played(declarers) & {'Q♣'})"
    text = RULES.replace("let value = 1 +", f"let value = {scored} + 0 * (1 +")
    text = text.replace("(if announced(kontra) then 2 else 0)\n", "(if announced(kontra) then 2 else 0))\n")
    g = load_text(text, max_deals=1)
    t = Table(g, HANDS, dealer="P4")
    t.do("P1 A♣", "P2 Q♣", "P3 A♥", "P4 Q♣")                 # 11 + 3 + 11 + 3 = 28; both Q♣ by declarers
    state = t.state
    while not state.is_terminal():
        state.apply_action(next(a for a in state.legal_actions() if a < g.num_cards))
    assert sorted(abs(score) for score in state.scores) == [30, 30, 30, 30]


def test_trick_points_are_the_card_points_of_a_finished_trick_and_nothing_before(game):
    scored = "trick_points(1) + trick_points(12) + trick_points(13)"     # there is no trick 13: it counts 0
    text = RULES.replace("let value = 1 +", f"let value = {scored} + 0 * (1 +")
    text = text.replace("(if announced(kontra) then 2 else 0)\n", "(if announced(kontra) then 2 else 0))\n")
    g = load_text(text, max_deals=1)
    t = Table(g, HANDS, dealer="P4")
    t.do("P1 A♣", "P2 Q♣", "P3 A♥", "P4 Q♣")                 # trick 1: 11 + 3 + 11 + 3 = 28
    state = t.state
    while not state.is_terminal():
        state.apply_action(next(a for a in state.legal_actions() if a < g.num_cards))
    last_cards, _ = state.deal_results[-1]["last_trick"]
    last = sum(g.deck.cards[card].points for _, card in last_cards)
    assert len(HANDS["P1"].split()) == 12
    assert sorted(abs(score) for score in state.scores) == [28 + last] * 4


def test_a_seat_that_called_for_the_defenders_is_never_dealt_a_queen_of_clubs_in_the_worlds_of_another(game):
    from rulelang.interpreter.inference import public_voids
    t = Table(game, HANDS, dealer="P4")
    t.do("P1 A♠", "P2 10♠", "P3 kontra")                              # P3, a defender, says kontra
    voids = public_voids(t.state, seat("P1"))
    queens = sum(1 << c for c, card in enumerate(game.deck.cards) if card.name == "Q♣")
    assert voids[seat("P3")] & queens == queens and voids[seat("P1")] == 0
    rng = random.Random(5)
    for _ in range(30):
        world = determinize(t.state, seat("P1"), rng, voids)
        assert not world.hands[seat("P3")] & queens
        assert world.side_mask & 1 << seat("P3") == 0


def test_the_heuristic_player_counts_on_a_partner_only_once_it_knows_him(game):
    from rulelang.interpreter.agents.heuristic import side_of
    t = Table(game, HANDS, dealer="P4")
    assert side_of(t.state, seat("P2")) == {seat("P2")}
    t.do("P1 A♣", "P2 Q♣")
    assert side_of(t.state, seat("P4")) == {seat("P2"), seat("P4")}   # P4 holds the other Q♣
    assert side_of(t.state, seat("P2")) == {seat("P2")}                # P2 does not know who has it
    assert side_of(t.state, seat("P1")) == {seat("P1")}


AUCTION_WITH_PARTIES = """extends: fixtures/auction.yaml
game: auction-parties
contracts:
  normal: {rank: 0, value: 1, sides: parties}
phases:
  - deal: {each: 8}
  - auction: {from: forehand, pass: weiter, doubling: [kontra, re]}
  - parties: {cards: "{'A♣', 'A♠'}", when: "contract == normal"}
  - tricks:
      among: seats
      lead: forehand
      follow: [led_suit, hearts, any]
      win: [{highest: hearts}, {highest: led_suit}]
  - settle: {pattern: declarers_share}
"""
AUCTION_HANDS = {"P1": "A♣ Q♣ J♣ A♥ K♥ J♥ J♦ 8♦", "P2": "K♣ 9♣ Q♠ 9♥ 7♥ 10♦ K♦ 7♦",
                 "P3": "10♣ 8♣ A♠ 10♠ 9♠ Q♥ A♦ Q♦", "P4": "7♣ K♠ J♠ 8♠ 7♠ 10♥ 8♥ 9♦"}


def test_a_contract_whose_sides_are_parties_tells_nobody_the_partner(tmp_path):
    from helpers import copy_fixtures
    from rulelang.loader import load_game
    copy_fixtures(tmp_path)
    path = tmp_path / "auction-parties.yaml"
    path.write_text(AUCTION_WITH_PARTIES, encoding="utf-8")
    t = Table(load_game(str(path), max_deals=1), AUCTION_HANDS)        # P1 deals, P2 bids first
    t.do("P2 normal", "P3 weiter", "P4 weiter", "P1 weiter", "P2 weiter")         # every seat passes in a row
    state = t.state
    assert state.contract == "normal" and state.side_mask == 1 << seat("P1") | 1 << seat("P3")
    for who in ("P1", "P2", "P3", "P4"):
        view = state.observation(seat(who))
        assert view["partner"] == "unknown"
        assert view["parties"] == {who: "declarers" if who in ("P1", "P3") else "defenders"}


def test_a_seat_that_called_for_the_declarers_holds_a_queen_of_clubs_in_every_world_of_another(game):
    t = Table(game, HANDS, dealer="P1")                              # P2 leads
    t.do("P2 re", "P2 10♠")                                          # P2 says re but keeps his Q♣ back
    queens = sum(1 << c for c, card in enumerate(game.deck.cards) if card.name == "Q♣")
    rng = random.Random(2)
    for _ in range(40):
        world = determinize(t.state, seat("P1"), rng)
        assert world.hands[seat("P2")] & queens and world.side_mask >> seat("P2") & 1


# ---------------------------------------------------------------------- join: a lone holder's partner found by a trick
@lru_cache(maxsize=None)
def joining_game(tricks: int):
    return load_text(RULES.replace("cards = \"{'Q♣'}\"", f"cards = \"{{'Q♣'}}\"\n    join = {tricks}"), max_deals=1)


LONE = dict(HANDS, P2=HANDS["P2"].replace("A♥", "Q♣"), P4=HANDS["P4"].replace("Q♣", "A♥"))    # P2 holds both Q♣


def test_a_lone_holder_under_join_is_known_to_all_and_the_first_other_winner_of_the_first_tricks_joins_him():
    t = Table(joining_game(2), LONE, dealer="P4")
    assert parties(t, "P1") == {"P2": "declarers"} and parties(t, "P3") == {"P2": "declarers"}
    t.do("P1 9♣", "P2 Q♣", "P3 A♥", "P4 9♦")                         # P2 takes the first trick himself
    assert t.state.side_mask == 1 << seat("P2") and parties(t, "P4") == {"P2": "declarers"}
    t.do("P2 9♠", "P3 K♥", "P4 J♦", "P1 A♠")                         # P1 takes the second: he joins
    assert t.state.side_mask == 1 << seat("P1") | 1 << seat("P2")
    assert parties(t, "P3") == {"P1": "declarers", "P2": "declarers", "P3": "defenders", "P4": "defenders"}


def test_a_lone_holder_who_takes_every_trick_of_the_join_plays_alone_and_everyone_knows_it():
    t = Table(joining_game(1), LONE, dealer="P4")
    t.do("P1 9♣", "P2 Q♣", "P3 A♥", "P4 9♦")
    assert t.state.side_mask == 1 << seat("P2")
    assert parties(t, "P1") == {"P1": "defenders", "P2": "declarers", "P3": "defenders", "P4": "defenders"}
    t.do("P2 9♠", "P3 K♥", "P4 J♦", "P1 A♠")                         # too late to join
    assert t.state.side_mask == 1 << seat("P2")


def test_join_changes_nothing_when_two_seats_hold_the_cards():
    t = Table(joining_game(2), HANDS, dealer="P4")
    assert parties(t, "P1") == {"P1": "defenders"}
    t.do("P1 A♠", "P2 9♠", "P3 K♥", "P4 J♦", "P1 A♠", "P2 9♠", "P3 K♥", "P4 J♦")
    assert t.state.side_mask == 1 << seat("P2") | 1 << seat("P4") and parties(t, "P1") == {"P1": "defenders"}


def test_the_worlds_of_another_seat_deal_the_lone_holders_cards_to_him_alone():
    t = Table(joining_game(2), LONE, dealer="P4")
    t.do("P1 9♣", "P2 Q♣")
    from rulelang.interpreter.inference import public_voids
    rng, voids = random.Random(5), public_voids(t.state, seat("P3"))
    for _ in range(20):
        world = determinize(t.state, seat("P3"), rng, voids)
        queens = [bin(hand & t.state.parties.cards).count("1") for hand in world.hands]
        assert queens == [0, 1, 0, 0] and world.side_mask == 1 << seat("P2")

