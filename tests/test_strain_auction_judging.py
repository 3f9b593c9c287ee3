"""How a player that judges by playouts weighs a strain auction (Bridge, Five Hundred): passing is its quiet
option, only each strain's lowest bid and the named contracts are weighed, and a higher contract or a later
doubling needs more evidence. Without these every option of 36 was weighed on two worlds and the luckiest
taken: every Bridge auction of the heuristic players ended at the seven level (benchmarks/RESULTS.md)."""

from __future__ import annotations

import pytest

from helpers import Table, named_deal, say
from rulelang.constructs import construct
from rulelang.interpreter.agents import make_agent
from rulelang.loader import load_game

AUCTION = construct("strain_auction")


@pytest.fixture(scope="module")
def bridge():
    return load_game("bridge", max_deals=1)


def weighed(state) -> list[str]:
    return [state.action_to_string(a) for a in AUCTION.worth_judging(state, state.step, state.legal_actions())]


def evidence(state, name: str) -> float:
    return AUCTION.evidence(state, state.step, state.string_to_action(name))


# A Yarborough for P1 (nothing above a nine) and every honour but the jacks to P3.
WEAK = {"P1": "9♠ 8♠ 7♠ 9♥ 8♥ 7♥ 9♦ 8♦ 7♦ 9♣ 8♣ 7♣ 6♣", "P2": "6♠ 5♠ 4♠ 3♠ 6♥ 5♥ 4♥ 6♦ 5♦ 4♦ 5♣ 4♣ 3♣",
        "P3": "A♠ K♠ Q♠ A♥ K♥ Q♥ A♦ K♦ Q♦ A♣ K♣ Q♣ 2♠", "P4": "J♠ 10♠ J♥ 10♥ 3♥ 2♥ J♦ 10♦ 3♦ 2♦ J♣ 10♣ 2♣"}


def test_passing_is_the_quiet_option_and_each_strain_offers_its_lowest_bid(bridge):
    t = Table(bridge, WEAK, dealer="P1")
    assert t.state.step.pass_word == "pass"
    assert weighed(t.state) == ["pass", "1clubs", "1diamonds", "1hearts", "1spades", "1notrump"]
    t.do("P1 1hearts")
    assert weighed(t.state) == ["pass", "double", "1spades", "1notrump", "2clubs", "2diamonds", "2hearts"]


def test_a_higher_contract_and_a_later_doubling_need_more_evidence(bridge):
    t = Table(bridge, WEAK, dealer="P1")
    assert [evidence(t.state, n) for n in ("pass", "1clubs", "3notrump", "7notrump")] == [1.0, 1.0, 3.0, 7.0]
    t.do("P1 1hearts")
    assert evidence(t.state, "double") == 2.0
    t.do("P2 double")
    assert evidence(t.state, "redouble") == 3.0


def test_a_named_contract_is_weighed_and_ranks_with_the_bid_below_it():
    game = load_game("five-hundred", max_deals=1)
    state = named_deal(game, {}, 10, dealer=3)
    say(state, "6hearts", "7spades")
    assert "misere" in weighed(state) and "7clubs" in weighed(state) and "8clubs" not in weighed(state)
    assert evidence(state, "misere") == 1.0 + 8 - 6                 # slotted after 8♠, so as high as an 8 bid
    assert evidence(state, "6notrump") == 1.0


def test_the_heuristic_passes_a_yarborough_and_opens_a_hand_of_twelve_honours(bridge):
    t = Table(bridge, WEAK, dealer="P1")
    player = make_agent("heuristic", seed=1)
    assert t.state.action_to_string(player.step(t.state)) == "pass"
    t.do("P1 pass", "P2 pass")
    assert t.state.action_to_string(player.step(t.state)) != "pass"
