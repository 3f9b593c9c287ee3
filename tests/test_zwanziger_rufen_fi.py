"""Zwanziger-rufen after the Finnish article (games/zwanziger-rufen-fi.yaml): the rules reference
/work/shared/rules/zwanzigerrufen.md §11 with readings A16-A18, as a diff against the Viennese game.

The deals are those of the Viennese tests (tests/zr_helpers.py); the dealer is P4, so P1 is
forehand. There is no cut or knock: the auction starts as soon as the cards are dealt.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from rulelang.interpreter.game import IllegalActionError
from rulelang.interpreter.runner import play_match
from zr_helpers import (BASE, CAUGHT, CAUGHT_TRICKS, EXAMPLE, EXAMPLE_TRICKS, KINGS_TRULL, NO_TAROCK, SEATS, VALAT,
                        VALAT_TRICKS, Table, calm, forehand_holding, game, item_net, mask_of, points_of, seat, swap,
                        swap_text)

FI = "zwanziger-rufen-fi"


def fi(hands: dict, *auction: str, max_deals: int = 1) -> Table:
    """A Finnish table with these cards; the auction moves are made, then everyone passes."""
    t = Table(game(FI, max_deals=max_deals), hands)
    t.do(*auction)
    t.weiter()
    return t


def partners(t: Table) -> dict:
    return {p: t.state.observation(seat(p))["partner"] for p in SEATS}


# ---------------------------------------------------------------------- cards and deal
def test_the_finnish_game_plays_the_same_forty_cards_worth_88_points():
    fin, vienna = game(FI), game("zwanzigerrufen")
    assert [(c.name, c.points) for c in fin.deck.cards] == [(c.name, c.points) for c in vienna.deck.cards]
    assert sum(c.points for c in fin.deck.cards) == 88
    assert fin.definition.document["direction"] == "anticlockwise"


def test_there_is_no_cut_and_no_knock_the_auction_starts_after_the_deal():
    t = Table(game(FI), BASE, cut=None)
    assert t.phase() == "auction" and t.to_act() == "P1"
    assert not {"cut", "knock", "pile1", "throw", "keep"} & set(game(FI).symbols)


def test_a_hand_without_tarock_is_played_because_there_is_no_throw_in():
    t = Table(game(FI), NO_TAROCK)
    assert t.phase() == "auction" and t.to_act() == "P1"


# ---------------------------------------------------------------------- bidding
def test_forehand_must_open_with_the_call():
    t = Table(game(FI), BASE)
    assert t.legal() == ["call"]
    for word in ("weiter", "no_trump", "solo"):
        with pytest.raises(IllegalActionError):
            t.state.apply_checked(t.game.string_to_action(word))


@pytest.mark.parametrize("held, called", [([], "XX"), (["XX"], "XIX"), (["XX", "XIX", "XVIII"], "XVII"),
                                          (["XX", "XIX", "XVIII", "XVII", "XVI"], "XV")])
def test_the_call_names_the_highest_tarock_below_XXI_that_forehand_lacks(held, called):
    hands = forehand_holding(held)
    t = Table(game(FI), hands)
    assert t.legal() == ["call"]                           # no forced Solo in the Finnish rules
    t.do("P1 call")
    assert t.game.deck.cards[t.state.called].name == called
    holder = next(p for p in SEATS if called in hands[p].split())
    assert t.state.side_mask == (1 << seat("P1")) | (1 << seat(holder))


def test_the_call_skips_the_sküs_and_the_mond():
    hands = swap(swap(BASE, "XX", "XI"), "Sküs", "VII")    # P1 holds Sküs, XXI, XX, XIX
    t = Table(game(FI), hands)
    t.do("P1 call")
    assert t.game.deck.cards[t.state.called].name == "XVIII"


def test_no_trump_may_be_bid_only_after_the_call_and_solo_only_after_no_trump():
    t = Table(game(FI), BASE)
    t.do("P1 call")
    assert "no_trump" in t.legal() and "solo" not in t.legal() and "call" not in t.legal()
    with pytest.raises(IllegalActionError) as err:
        t.state.apply_checked(t.game.string_to_action("solo"))
    assert "contract == no_trump" in err.value.diagnostic.message
    t.do("P2 no_trump")
    assert t.state.contract == "no_trump" and t.state.side_mask == 1 << seat("P2")
    assert "solo" in t.legal() and "no_trump" not in t.legal()
    t.do("P3 solo")
    assert t.state.contract == "solo" and t.state.side_mask == 1 << seat("P3")
    assert not {"call", "no_trump", "solo"} & set(t.legal())


def test_the_finnish_rules_have_no_kontra_and_only_the_declaring_side_announces():
    g = game(FI)
    assert not [s for s in g.symbols if s.startswith(("kontra", "retour", "supra", "resupra"))]
    assert not [s for s in g.symbols if s.startswith(("absolut", "valat", "mondfang", "trull", "four_kings"))]
    t = Table(g, BASE)
    t.do("P1 call")
    for p in ("P2", "P3", "P4", "P1"):
        legal = set(t.legal())
        assert not [a for a in legal if a.endswith("_dagegen")]
        if p in ("P1", "P3"):
            assert {"pagat_ultimo_dazu", "slam_dazu"} <= legal
        else:
            assert not [a for a in legal if a.endswith("_dazu")]
        t.do(f"{p} weiter")
    assert t.phase() == "tricks"


def test_the_called_partner_may_reveal_himself_by_promising_pagat_ultimo():
    t = Table(game(FI), BASE)
    t.do("P1 call")
    assert partners(t) == {"P1": "unknown", "P2": "unknown", "P3": ["P3"], "P4": "unknown"}
    t.do("P2 weiter", "P3 pagat_ultimo_dazu")
    assert partners(t) == {p: ["P3"] for p in SEATS}


def test_pagat_ultimo_may_not_be_announced_in_the_no_trump_game():
    t = Table(game(FI), BASE)
    t.do("P1 call", "P2 no_trump", "P3 weiter", "P4 weiter", "P1 weiter")
    assert "slam_dazu" in t.legal() and "pagat_ultimo_dazu" not in t.legal()


def test_announcements_lapse_when_a_higher_contract_is_bid():
    t = Table(game(FI), BASE)
    t.do("P1 call", "P2 weiter", "P3 pagat_ultimo_dazu", "P4 no_trump")
    assert t.state.auction.announced == {} and t.state.contract == "no_trump" and t.state.side_mask == 1 << seat("P4")


def test_a_match_is_four_deals():
    state, _ = play_match(game(FI, max_deals=None), seed=5)
    assert state.is_terminal() and len(state.deal_results) == 4


# ---------------------------------------------------------------------- play
@pytest.mark.parametrize("auction, leader", [(("P1 call",), "P1"), (("P1 call", "P2 no_trump"), "P2"),
                                             (("P1 call", "P2 no_trump", "P3 solo"), "P3")])
def test_the_declarer_leads_the_first_trick(auction, leader):
    t = fi(KINGS_TRULL, *auction)
    assert t.phase() == "tricks" and t.to_act() == leader


def test_in_no_trump_a_void_player_must_still_play_a_tarock_and_it_cannot_win():
    t = fi(BASE, "P1 call", "P2 no_trump")
    t.do("P2 J♥")
    assert set(t.legal()) == {"A♥"}                        # P3 follows suit
    t.do("P3 A♥")
    assert set(t.legal()) == {"I", "XVI", "XII", "VIII", "IV"}   # P4 is void in hearts: a tarock
    t.do("P4 XVI")
    assert set(t.legal()) == {"K♥", "Q♥"}
    assert t.trick("P1 Q♥") == "P1"                        # the highest heart wins, not the XVI


def test_in_no_trump_a_tarock_lead_is_won_by_the_highest_tarock():
    t = fi(BASE, "P1 call", "P2 no_trump")
    t.trick("P2 J♥ P3 A♥ P4 XVI P1 Q♥")
    t.do("P1 XV")
    assert set(t.legal()) == {"Sküs", "XVIII", "XIV", "X", "VI"}
    assert t.trick("P2 XVIII P3 XIII P4 XII") == "P2"


def test_in_the_call_game_tarocks_are_trumps():
    t = fi(BASE, "P1 call")
    assert t.trick("P1 K♥ P2 J♥ P3 A♥ P4 IV") == "P4"


def test_there_is_no_maerchenstich_the_sküs_wins_over_mond_and_pagat():
    t = fi(BASE, "P1 call")
    assert t.trick("P1 Mond P2 Sküs P3 V P4 Pagat") == "P2"


# ---------------------------------------------------------------------- scoring
def test_a_call_game_is_worth_1_and_each_winner_receives_it_from_a_loser():
    t = fi(CAUGHT, "P1 call")
    t.tricks(*CAUGHT_TRICKS)
    assert t.won_points("P1", "P3") == 63
    assert t.items() == {"Game": ("declarers", 1)}         # no Absolut; a caught Pagat costs nothing
    assert t.deltas() == {"P1": 1, "P2": -1, "P3": 1, "P4": -1}


def test_a_silent_pagat_ultimo_counts_2():
    t = fi(EXAMPLE, "P1 call")
    t.tricks(*EXAMPLE_TRICKS)
    assert t.items() == {"Game": ("defenders", 1), "Pagat Ultimo": ("defenders", 2)}
    assert t.deltas() == {"P1": -3, "P2": 3, "P3": -3, "P4": 3}


def test_an_announced_pagat_ultimo_counts_4():
    hands = swap(EXAMPLE, "XX", "XVI")                     # P4, holder of the Pagat, is P1's partner
    t = Table(game(FI), hands)
    t.do("P1 call", "P2 weiter", "P3 weiter", "P4 pagat_ultimo_dazu")
    t.weiter()
    t.tricks(*(swap_text(tr, "XX", "XVI") for tr in EXAMPLE_TRICKS))
    assert t.won_points("P1", "P4") == 59
    assert t.items() == {"Game": ("declarers", 1), "Pagat Ultimo": ("declarers", 4)}
    assert t.deltas() == {"P1": 5, "P2": -5, "P3": -5, "P4": 5}


def test_a_silent_slam_counts_6():
    t = fi(VALAT, "P1 call")
    assert set(t.tricks(*VALAT_TRICKS)) == {"P1"}
    assert t.items() == {"Game": ("declarers", 1), "Slam": ("declarers", 6)}
    assert t.deltas() == {"P1": 7, "P2": -7, "P3": 7, "P4": -7}


def test_an_announced_slam_counts_12():
    t = Table(game(FI), VALAT)
    t.do("P1 call", "P2 weiter", "P3 slam_dazu")
    t.weiter()
    t.tricks(*VALAT_TRICKS)
    assert t.items() == {"Game": ("declarers", 1), "Slam": ("declarers", 12)}
    assert t.deltas() == {"P1": 13, "P2": -13, "P3": 13, "P4": -13}


def test_trump_honours_after_a_call_are_paid_1_by_each_other_player_and_all_kings_do_not_count():
    t = fi(KINGS_TRULL, "P1 call")                         # P2 holds Sküs, XXI, I; P3 all four Kings
    t.auto_play(calm)
    items = t.items()
    assert items["Trump honours"] == ("P2", 1) and "All kings" not in items
    net = item_net(t)
    assert t.deltas() == {"P1": net - 1, "P2": -net + 3, "P3": -net - 1, "P4": net - 1}


def test_all_kings_after_a_no_trump_game_are_paid_1_by_each_other_player_and_trump_honours_do_not_count():
    t = fi(KINGS_TRULL, "P1 call", "P2 no_trump")
    t.auto_play(calm)
    items = t.items()
    assert items["All kings"] == ("P3", 1) and "Trump honours" not in items
    assert items["Game"][1] == 2
    net = item_net(t)
    assert t.deltas() == {"P1": -net - 1, "P2": 3 * net - 1, "P3": -net + 3, "P4": -net - 1}


def test_a_solo_is_worth_4_and_its_trump_honours_are_not_doubled():
    t = fi(KINGS_TRULL, "P1 call", "P2 no_trump", "P3 weiter", "P4 weiter", "P1 solo")
    assert t.state.contract == "solo" and t.state.side_mask == 1 << seat("P1")
    t.auto_play(calm)
    items = t.items()
    assert items["Game"][1] == 4 and items["Trump honours"] == ("P2", 1) and "All kings" not in items
    net = item_net(t)
    assert t.deltas() == {"P1": 3 * net - 1, "P2": -net + 3, "P3": -net - 1, "P4": -net - 1}


def test_there_is_no_mondfang_and_no_double_round():
    t = Table(game(FI, max_deals=2), BASE)
    t.do("P1 call")
    t.weiter()
    assert t.trick("P1 Mond P2 Sküs P3 V P4 XVI") == "P2"  # the Sküs takes the Mond
    t.auto_play(calm)
    assert "Mondfang" not in t.items() and t.state.counters == {}
    t.deal(KINGS_TRULL)                                    # dealer P1: P2 is forehand and calls
    t.auto_play(calm)
    results = t.state.deal_results
    assert [r["multiplier"] for r in results] == [1, 1]
    second = results[1]
    assert second["contract"] == "call" and second["declarer"] == seat("P2")
    net = item_net(t, 1)
    for s in range(4):
        team = net if second["side"] >> s & 1 else -net
        personal = sum(3 * r["value"] if r["side"] == f"P{s + 1}" else -r["value"]
                       for r in second["items"] if r["side"] in SEATS)
        assert second["delta"][s] == team + personal


# ---------------------------------------------------------------------- properties
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(min_value=0, max_value=10 ** 6))
def test_every_finnish_deal_settles_to_zero_and_both_sides_take_88_card_points(seed):
    g = game(FI, max_deals=4)
    state, record = play_match(g, seed=seed)
    assert len(state.deal_results) == 4
    for deal, result in zip(record.deals, state.deal_results):
        assert sum(result["delta"]) == 0
        side = result["side"]
        taken = [points_of(g, mask_of(g, [c for _, c in tr["cards"]])) for tr in deal["tricks"]]
        declarers = sum(v for v, tr in zip(taken, deal["tricks"]) if side >> seat(tr["winner"]) & 1)
        assert sum(taken) == 88 and 0 <= declarers <= 88
    assert sum(state.scores) == 0
