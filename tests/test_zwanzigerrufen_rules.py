"""Zwanzigerrufen as shipped (games/zwanzigerrufen.yaml): the Viennese game of the rules reference
/work/shared/rules/zwanzigerrufen.md §§1-10 with the recommended readings of §12, and the
alternative readings shipped as variants (games/zwanzigerrufen-*.yaml).

Every scenario fixes the cards by name. Unless a test says otherwise the dealer is P4, so the
cutter is P3 (who cuts) and the forehand P1. Each test name is a sentence of behaviour.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from rulelang.cli.main import main as rulelang_main
from rulelang.interpreter.game import IllegalActionError
from rulelang.interpreter.log import read_log
from rulelang.interpreter.replay import replay
from rulelang.interpreter.runner import play_match
from zr_helpers import (BASE, BASE_44, BASE_45, CAUGHT, CAUGHT_TRICKS, EXAMPLE, EXAMPLE_AUCTION, EXAMPLE_TRICKS,
                        KINGS_TRULL, LOGS, LONE_PAGAT, NO_TAROCK, SEATS, SUIT_SOLO, TAROCKS, VALAT, VALAT_TRICKS, Table,
                        calm, cards, forehand_holding, game, item_net, mask_of, name_of, names, points_of, seat, swap)

VIENNA = "zwanzigerrufen"


def called_game(hands: dict, *auction: str) -> Table:
    """P1 calls, the given auction moves follow, then everyone says Weiter."""
    t = Table(game(VIENNA), hands)
    t.do("P1 call", *auction)
    t.weiter()
    return t


# ====================================================================== 1. cards
def test_the_pack_has_twenty_tarocks_without_II_and_III_and_twenty_suit_cards_of_five_ranks():
    g = game(VIENNA)
    deck = [c.name for c in g.deck.cards]
    assert len(deck) == 40
    assert deck[:20] == TAROCKS
    assert "II" not in deck and "III" not in deck
    for suit, glatze in (("♥", "A"), ("♦", "A"), ("♠", "10"), ("♣", "10")):
        assert [c for c in deck if c.endswith(suit)] == [f"{r}{suit}" for r in ("K", "Q", "C", "J", glatze)]
    # rank within a suit, highest first: Sküs > XXI > … > IV > I; K > Q > C > J > Glatze
    assert [c.order for c in g.deck.cards] == list(range(20)) + list(range(5)) * 4


@pytest.mark.parametrize("alias, card", [("Mond", "XXI"), ("Pagat", "I"), ("Spatz", "I"), ("Gstieß", "Sküs"),
                                         ("Zwanziger", "XX"), ("Gartenzaun", "XIX"), ("KH", "K♥"), ("10S", "10♠"),
                                         ("CD", "C♦"), ("AH", "A♥"), ("jc", "J♣"), ("xxi", "XXI")])
def test_cards_can_be_named_by_their_aliases_and_typed_forms(alias, card):
    assert cards(game(VIENNA), alias) == [card]


def test_card_points_are_five_for_the_trull_and_kings_one_for_other_tarocks_and_the_pack_totals_88():
    g = game(VIENNA)
    value = {c.name: c.points for c in g.deck.cards}
    assert value["Sküs"] == value["XXI"] == value["I"] == 5
    assert all(value[t] == 1 for t in TAROCKS if t not in ("Sküs", "XXI", "I"))
    for suit in "♥♦♠♣":
        assert [value[f"{r}{suit}"] for r in "KQCJ"] == [5, 4, 3, 2]
    assert value["A♥"] == value["A♦"] == value["10♠"] == value["10♣"] == 0
    assert sum(value[t] for t in TAROCKS) == 32
    assert sum(value.values()) == 88


def test_the_declaring_side_wins_the_game_with_45_card_points():
    t = called_game(BASE)
    t.tricks(*BASE_45)
    assert t.won_points("P1", "P3") == 45 and t.won_points("P2", "P4") == 43
    assert t.items() == {"Game": ("declarers", 1)}
    assert t.deltas() == {"P1": 1, "P2": -1, "P3": 1, "P4": -1}


def test_the_declaring_side_loses_the_game_with_44_card_points():
    t = called_game(BASE)
    t.tricks(*BASE_44)
    assert t.won_points("P1", "P3") == 44 and t.won_points("P2", "P4") == 44
    assert t.items() == {"Game": ("defenders", 1)}
    assert t.deltas() == {"P1": -1, "P2": 1, "P3": -1, "P4": 1}


# ====================================================================== 2. seating, deal, knock
def test_the_seat_before_the_dealer_chooses_cut_or_knock_and_the_seat_after_him_is_forehand():
    for dealer, cutter, forehand in (("P4", "P3", "P1"), ("P1", "P4", "P2"), ("P2", "P1", "P3"), ("P3", "P2", "P4")):
        t = Table(game(VIENNA), BASE, dealer=dealer, cut=None)
        assert t.to_act() == cutter and t.phase() == "choose" and t.legal() == ["cut", "knock"]
        t.do(f"{cutter} cut")
        assert name_of(t.state.forehand) == forehand and name_of(t.state.dealer) == dealer
        assert t.to_act() == forehand and t.phase() == "auction"


def test_cards_are_dealt_in_two_rounds_of_five_card_packets_from_forehand_and_no_talon_remains():
    g = game(VIENNA)
    st = g.new_initial_state()
    rng = random.Random(7)
    st.apply_checked(g.seat_base + seat("P4"))        # the first dealer, drawn by lot: P4
    st.apply_checked(g.string_to_action("cut"))       # P3 cuts
    receivers = []
    while st.is_chance_node():
        before = list(st.hands)
        st.apply_checked(rng.choice(st.legal_actions()))
        receivers += [name_of(s) for s in range(4) if st.hands[s] != before[s]]
    packet = [p for p in SEATS for _ in range(5)]
    assert receivers == packet + packet
    assert all(bin(h).count("1") == 10 for h in st.hands)
    assert st.stock == 0 and st.talon == 0


def test_the_forehand_of_one_deal_deals_the_next():
    t = Table(game(VIENNA, max_deals=2), BASE)
    t.auto_play(calm)
    t.deal(BASE, cut=None)
    assert name_of(t.state.dealer) == "P1" and t.to_act() == "P4"      # P4 now cuts; P2 is forehand
    t.do("P4 cut")
    assert name_of(t.state.forehand) == "P2" and t.to_act() == "P2"


def test_knocking_lays_out_four_piles_of_ten_taken_in_turn_from_forehand_and_the_dealer_gets_the_last():
    piles = [BASE["P1"], BASE["P2"], BASE["P3"], BASE["P4"]]            # the laying-out order: pile1 .. pile4
    t = Table(game(VIENNA), {}, cut="knock", talon=" ".join(piles))
    assert t.phase() == "piles" and t.to_act() == "P1"
    assert t.legal() == ["pile1", "pile2", "pile3", "pile4"]
    t.do("P1 pile3")
    assert t.to_act() == "P2" and t.legal() == ["pile1", "pile2", "pile4"]
    t.do("P2 pile1")
    assert t.to_act() == "P3" and t.legal() == ["pile2", "pile4"]
    t.do("P3 pile4")                                   # P4, the dealer, takes the last pile without a choice
    assert t.phase() == "auction" and t.to_act() == "P1"
    assert t.hand("P1") == set(cards(t.game, piles[2]))
    assert t.hand("P2") == set(cards(t.game, piles[0]))
    assert t.hand("P3") == set(cards(t.game, piles[3]))
    assert t.hand("P4") == set(cards(t.game, piles[1]))
    assert t.legal() == ["call", "suit_solo", "solo"]  # P1 holds XX now: the auction goes on as usual
    t.do("P1 call")
    assert t.game.deck.cards[t.state.called].name == "XIX"            # P1 took XX but lacks XIX


def test_nobody_sees_the_cards_of_a_pile_he_did_not_take():
    piles = [BASE["P1"], BASE["P2"], BASE["P3"], BASE["P4"]]
    t = Table(game(VIENNA), {}, cut="knock", talon=" ".join(piles))
    t.do("P1 pile3", "P2 pile1", "P3 pile4")
    for p in SEATS:
        words = set(t.state.information_state_string(seat(p)).split())
        others = set().union(*(t.hand(q) for q in SEATS if q != p))
        assert not words & others


def test_after_knocking_each_players_information_state_shows_the_cards_of_the_pile_he_took():
    piles = [BASE["P1"], BASE["P2"], BASE["P3"], BASE["P4"]]
    t = Table(game(VIENNA), {}, cut="knock", talon=" ".join(piles))
    t.do("P1 pile3", "P2 pile1", "P3 pile4")
    for p in SEATS:
        words = set(t.state.information_state_string(seat(p)).split())
        assert t.hand(p) <= words


# ====================================================================== 3. Zusammenwerfen
def test_a_hand_without_tarock_must_be_thrown_in_and_the_same_dealer_deals_again_without_counting_the_deal():
    t = Table(game(VIENNA), NO_TAROCK)
    st = t.state
    assert t.phase() == "choose" and t.to_act() == "P3"   # redealt at once: the cutter chooses again
    assert name_of(st.dealer) == "P4" and st.deal_number == 0 and not st.deal_results
    assert st.scores == [0, 0, 0, 0] and all(h == 0 for h in st.hands)
    t.deal(BASE)
    assert t.phase() == "auction" and t.to_act() == "P1" and t.hand("P1") == set(cards(t.game, BASE["P1"]))
    t.auto_play(calm)
    assert len(st.deal_results) == 1 and st.deal_number == 1 and st.deal_results[0]["dealer"] == seat("P4")


def test_the_holder_of_a_lone_trull_card_may_throw_in_and_the_same_dealer_deals_again():
    t = Table(game(VIENNA), LONE_PAGAT)
    assert t.phase() == "throw_in" and t.to_act() == "P2" and t.legal() == ["throw", "keep"]
    t.do("P2 throw")
    assert t.phase() == "choose" and t.to_act() == "P3"
    assert name_of(t.state.dealer) == "P4" and t.state.deal_number == 0 and not t.state.deal_results


def test_the_holder_of_a_lone_trull_card_may_keep_and_the_deal_is_played():
    t = Table(game(VIENNA), LONE_PAGAT)
    t.do("P2 keep")
    assert t.phase() == "auction" and t.to_act() == "P1" and t.hand("P2") == set(cards(t.game, LONE_PAGAT["P2"]))


def test_a_lone_tarock_that_is_no_trull_card_gives_no_choice_to_throw_in():
    t = Table(game(VIENNA), swap(LONE_PAGAT, "I", "XV"))    # P2's only tarock is now XV
    assert t.phase() == "auction" and t.to_act() == "P1"


def test_strict_throw_in_redeals_a_lone_trull_card_without_asking():
    t = Table(game("zwanzigerrufen-strict-throw-in"), LONE_PAGAT)
    assert t.phase() == "choose" and t.to_act() == "P3" and t.state.deal_number == 0
    t = Table(game("zwanzigerrufen-strict-throw-in"), NO_TAROCK)
    assert t.phase() == "choose" and t.to_act() == "P3"
    t = Table(game("zwanzigerrufen-strict-throw-in"), swap(LONE_PAGAT, "I", "XV"))
    assert t.phase() == "auction"


# ====================================================================== 4. announcements
@pytest.mark.parametrize("held, called", [([], "XX"), (["XIX"], "XX"), (["XX"], "XIX"), (["XX", "XIX"], "XVIII"),
                                          (["XX", "XIX", "XVIII"], "XVII"), (["XX", "XIX", "XVIII", "XVII"], "XVI"),
                                          (["XX", "XIX", "XVII"], "XVIII")])
def test_forehand_calls_the_highest_of_XX_to_XVI_he_lacks_and_its_holder_becomes_his_partner(held, called):
    hands = forehand_holding(held)
    t = Table(game(VIENNA), hands)
    assert t.to_act() == "P1" and "weiter" not in t.legal()     # forehand must open
    t.do("P1 call")
    st = t.state
    assert t.game.deck.cards[st.called].name == called
    holder = next(p for p in SEATS if called in hands[p].split())
    assert st.side_mask == (1 << seat("P1")) | (1 << seat(holder))
    assert st.contract == "call" and name_of(st.declarer) == "P1"


def test_forehand_holding_XX_to_XVI_may_not_call_and_must_play_a_solo():
    t = Table(game(VIENNA), forehand_holding(["XX", "XIX", "XVIII", "XVII", "XVI"]))
    assert t.legal() == ["solo"]
    with pytest.raises(IllegalActionError) as err:
        t.state.apply_checked(t.game.string_to_action("call"))
    assert err.value.diagnostic.code == "E506" and "callable in hand(player)" in err.value.diagnostic.message
    t.do("P1 solo")
    assert t.state.contract == "solo" and t.state.side_mask == 1 << seat("P1")


def test_only_forehand_may_make_the_call_and_he_must_open():
    t = Table(game(VIENNA), BASE)
    allow = t.game.definition.contracts["call"].allow
    assert [allow.fn(t.state, seat(p)) for p in SEATS] == [True, False, False, False]
    assert t.to_act() == "P1" and t.legal() == ["call", "suit_solo", "solo"]
    with pytest.raises(IllegalActionError):
        t.state.apply_checked(t.game.string_to_action("weiter"))


def test_the_announcements_end_after_four_weiter_in_a_row():
    t = Table(game(VIENNA), BASE)
    t.do("P1 call", "P2 weiter", "P3 weiter", "P4 absolut_dagegen", "P1 weiter", "P2 weiter", "P3 weiter")
    assert t.phase() == "auction" and t.to_act() == "P4"
    t.do("P4 weiter")
    assert t.phase() == "tricks" and t.to_act() == "P1"


def test_solo_outranks_suit_solo_which_outranks_the_call_and_a_lower_bid_is_illegal():
    t = Table(game(VIENNA), KINGS_TRULL)
    t.do("P1 call", "P2 suit_solo")
    assert t.state.contract == "suit_solo" and name_of(t.state.declarer) == "P2"
    assert t.state.side_mask == 1 << seat("P2")
    assert "suit_solo" not in t.legal() and "solo" in t.legal()          # P3 may only go higher
    with pytest.raises(IllegalActionError) as err:
        t.state.apply_checked(t.game.string_to_action("suit_solo"))
    assert err.value.diagnostic.code == "E507"
    t.do("P3 solo")
    assert t.state.contract == "solo" and name_of(t.state.declarer) == "P3"
    for p in ("P4", "P1", "P2"):
        assert not {"call", "suit_solo", "solo"} & set(t.legal())
        t.do(f"{p} weiter")
    t.do("P3 weiter")
    assert t.phase() == "tricks" and t.state.contract == "solo"


def test_suit_solo_needs_at_least_five_suit_cards():
    t = Table(game(VIENNA), KINGS_TRULL)                   # P4 holds three suit cards, P2 five, P3 seven
    t.do("P1 call", "P2 weiter", "P3 weiter")
    assert "suit_solo" not in t.legal() and "solo" in t.legal()
    with pytest.raises(IllegalActionError) as err:
        t.state.apply_checked(t.game.string_to_action("suit_solo"))
    assert err.value.diagnostic.code == "E506" and "count(hand(player) - tarock) >= 5" in err.value.diagnostic.message
    t = Table(game(VIENNA), KINGS_TRULL)
    t.do("P1 call")
    assert "suit_solo" in t.legal()                        # P2: exactly five
    t.do("P2 weiter")
    assert "suit_solo" in t.legal()                        # P3: seven


def test_bonuses_are_announced_dazu_only_by_the_declaring_side_and_dagegen_only_by_the_other_side():
    t = Table(game(VIENNA), BASE)
    t.do("P1 call")                                        # P1+P3 against P2+P4
    expected = {"P2": "dagegen", "P3": "dazu", "P4": "dagegen", "P1": "dazu"}
    for p in ("P2", "P3", "P4", "P1"):
        legal = set(t.legal())
        word, other = expected[p], "dazu" if expected[p] == "dagegen" else "dagegen"
        for bonus in ("pagat_ultimo", "valat", "absolut"):
            assert f"{bonus}_{word}" in legal and f"{bonus}_{other}" not in legal
        assert not {"trull_dazu", "four_kings_dazu", "mondfang_dazu"} & legal   # not announced
        t.do(f"{p} weiter")


@pytest.mark.parametrize("bonus", ["pagat_ultimo", "absolut", "valat"])
def test_dagegen_on_pagat_ultimo_absolut_or_valat_includes_kontra_on_the_game(bonus):
    t = Table(game(VIENNA), BASE)
    t.do("P1 call", f"P2 {bonus}_dagegen")
    assert t.state.auction.levels == {"game": 1} and t.state.auction.announced == {bonus: False}
    assert "kontra_game" not in t.legal()                  # P3 may answer with Retour
    assert "retour_game" in t.legal()


def test_dazu_announcements_do_not_double_the_game():
    t = Table(game(VIENNA), BASE)
    t.do("P1 call", "P2 weiter", "P3 pagat_ultimo_dazu")
    assert t.state.auction.levels == {} and t.state.auction.announced == {"pagat_ultimo": True}


def test_kontra_retour_supra_and_resupra_on_the_game_alternate_between_the_sides():
    t = Table(game(VIENNA), BASE)
    t.do("P1 call")
    assert "kontra_game" in t.legal()                       # P2, a defender
    t.do("P2 kontra_game")
    assert "retour_game" in t.legal()                       # P3, the (secret) partner
    t.do("P3 weiter")
    assert "retour_game" not in t.legal() and "supra_game" not in t.legal()   # P4 is a defender
    t.do("P4 weiter")
    t.do("P1 retour_game")
    assert "supra_game" in t.legal()
    t.do("P2 supra_game")
    assert "resupra_game" in t.legal()
    t.do("P3 resupra_game")
    assert not [a for a in t.legal() if a.endswith("_game")]
    assert t.state.auction.levels == {"game": 4}
    t.weiter()
    t.auto_play(calm)
    game_row = next(r for r in t.result()["items"] if r["item"] == "Game")
    assert game_row["value"] == 16 and game_row["level"] == 4


def test_with_doubling_adds_each_step_of_the_chain_adds_to_the_game_instead_of_doubling_it():
    from rulelang.loader import load_text
    adding = load_text("extends: zwanzigerrufen\nphases:\n  8:\n    settle: {pattern: declarers_share, "
                       "doubling_adds: 2}\n", "yaml", max_deals=1)
    t = Table(adding, BASE)
    t.do("P1 call", "P2 kontra_game", "P3 weiter", "P4 weiter", "P1 retour_game", "P2 supra_game",
         "P3 resupra_game")
    t.weiter()
    t.auto_play(calm)
    game_row = next(r for r in t.result()["items"] if r["item"] == "Game")
    assert game_row["value"] == 1 + 4 * 2 and game_row["level"] == 4


def test_a_kontra_on_one_announced_bonus_doubles_only_that_bonus():
    t = Table(game(VIENNA), BASE)
    t.do("P1 call", "P2 weiter", "P3 absolut_dazu", "P4 kontra_absolut")
    assert t.state.auction.levels == {"absolut": 1}
    assert "retour_absolut" in t.legal() and "kontra_game" not in t.legal()   # P1 is a declarer
    t.do("P1 retour_absolut")
    assert t.state.auction.levels == {"absolut": 2}
    assert "kontra_pagat_ultimo" not in t.legal()          # a silent bonus cannot be doubled
    assert not [a for a in t.legal() if a.startswith(("kontra_trull", "kontra_four_kings", "kontra_mondfang"))]
    t.weiter()
    t.tricks(*BASE_45)                                     # P1+P3 win the game with 45 but miss the Absolut
    assert t.items() == {"Game": ("declarers", 1), "Absolut": ("defenders", 8)}   # 2 announced × 4
    assert t.deltas() == {"P1": -7, "P2": 7, "P3": -7, "P4": 7}


def test_the_doubling_chain_on_a_dagegen_bonus_starts_with_the_declaring_side():
    t = Table(game(VIENNA), EXAMPLE)
    t.do("P1 call", "P2 absolut_dagegen")                  # owned by P2+P4
    assert "kontra_absolut" in t.legal()                   # P3, a declarer
    t.do("P3 kontra_absolut")
    assert "retour_absolut" in t.legal()                   # P4, an owner
    t.do("P4 retour_absolut")
    assert "supra_absolut" in t.legal()
    t.do("P1 supra_absolut")
    assert "resupra_absolut" in t.legal()
    t.do("P2 resupra_absolut")
    assert not [a for a in t.legal() if a.endswith("_absolut")]
    assert t.state.auction.levels == {"game": 1, "absolut": 4}
    t.weiter()
    t.tricks(*EXAMPLE_TRICKS)                              # P2+P4 take 48: the Absolut fails
    assert t.items() == {"Game": ("defenders", 2), "Absolut": ("declarers", 32), "Pagat Ultimo": ("defenders", 1)}
    assert t.deltas() == {"P1": 29, "P2": -29, "P3": 29, "P4": -29}


def test_announcements_made_for_a_call_lapse_when_a_solo_is_bid():
    t = Table(game(VIENNA), BASE)
    t.do("P1 call", "P2 absolut_dagegen", "P3 kontra_absolut", "P4 solo")
    st = t.state
    assert st.contract == "solo" and name_of(st.declarer) == "P4" and st.side_mask == 1 << seat("P4")
    assert st.auction.announced == {} and st.auction.levels == {} and st.called == -1
    assert "absolut_dagegen" in t.legal()                  # P1, now a defender, may announce it anew
    t.weiter()
    t.auto_play(calm)
    rows = {r["item"]: r for r in t.result()["items"]}
    assert rows["Game"]["level"] == 0 and rows["Game"]["value"] == 4
    assert not any(r["announced"] for r in rows.values())


# ====================================================================== 5. play
def test_forehand_leads_the_first_trick_and_the_winner_of_a_trick_leads_the_next():
    t = called_game(BASE)
    assert t.to_act() == "P1"
    assert t.trick("P1 K♥ P2 J♥ P3 A♥ P4 IV") == "P4"
    assert t.to_act() == "P4"


def test_forehand_leads_the_first_trick_of_a_solo_declared_by_another_seat():
    t = Table(game(VIENNA), BASE)
    t.do("P1 call", "P2 weiter", "P3 solo")
    t.weiter()
    assert t.phase() == "tricks" and t.to_act() == "P1"


def test_a_player_must_follow_the_suit_led():
    t = called_game(BASE)
    t.do("P1 K♥")
    assert t.legal() == ["C♥", "J♥"]
    with pytest.raises(IllegalActionError) as err:
        t.state.apply_checked(t.game.string_to_action("Sküs"))
    assert err.value.diagnostic.code == "E504"


def test_a_player_void_in_the_suit_led_must_play_a_tarock():
    t = called_game(BASE)
    t.do("P1 K♥", "P2 C♥", "P3 A♥")
    assert set(t.legal()) == {"I", "XVI", "XII", "VIII", "IV"}


def test_a_player_void_in_the_suit_led_and_in_tarocks_may_play_any_card():
    t = called_game(CAUGHT)
    t.tricks(*CAUGHT_TRICKS[:7])                           # P2 has played all his tarocks and is void in clubs
    t.do("P4 IX", "P1 XVI")
    assert t.to_act() == "P2" and set(t.legal()) == t.hand("P2") == {"C♥", "C♦", "10♠"}


def test_a_tarock_lead_must_be_followed_by_a_tarock():
    t = called_game(BASE)
    t.do("P1 XV")
    assert set(t.legal()) == {"Sküs", "XVIII", "XIV", "X", "VI"}


def test_nobody_has_to_head_the_trick():
    t = called_game(BASE)
    t.do("P1 XV")
    assert "VI" in t.legal() and "Sküs" in t.legal()        # no Stichzwang: the low tarock may be played
    t.do("P2 VI", "P3 V")
    assert "IV" in t.legal()
    assert t.trick("P4 IV") == "P1"


def test_the_highest_tarock_wins_and_a_tarock_beats_any_suit_card():
    t = called_game(BASE)
    assert t.trick("P1 K♥ P2 J♥ P3 A♥ P4 IV") == "P4"
    assert t.trick("P4 XII P1 XIX P2 XVIII P3 XX") == "P3"


def test_in_a_suit_solo_tarocks_are_not_trumps_and_a_suit_card_must_be_led_while_held():
    t = Table(game(VIENNA), EXAMPLE)                       # P1 holds seven suit cards, P4 only tarocks
    t.do("P1 suit_solo")
    t.weiter()
    assert t.state.contract == "suit_solo" and t.to_act() == "P1"
    assert set(t.legal()) == {"K♥", "Q♥", "J♥", "K♦", "C♦", "J♠", "10♣"}      # not XXI, XIX, XI
    t.do("P1 J♥")
    assert set(t.legal()) == {"C♥", "A♥"}                  # P2 follows suit
    t.do("P2 C♥")
    assert set(t.legal()) == {"A♦", "Q♠", "10♠", "K♣", "C♣", "J♣"}   # P3 void in hearts: a suit card, no tarock
    t.do("P3 A♦")
    assert set(t.legal()) == t.hand("P4")                 # P4 has no suit card: any tarock
    t.do("P4 XVI")
    assert t.state.tricks.trick_winners[-1][0] == seat("P2")      # the Cavall beats the Jack; the XVI does not trump


def test_in_a_suit_solo_a_tarock_lead_is_followed_by_tarock_and_the_highest_tarock_wins():
    t = Table(game(VIENNA), SUIT_SOLO)
    t.do("P1 call", "P2 suit_solo")
    t.weiter()
    assert t.to_act() == "P1" and set(t.legal()) == t.hand("P1")   # only tarocks: any may be led
    t.do("P1 XIX")
    assert set(t.legal()) == {"XXI", "X"}                  # P2 must follow with a tarock
    t.do("P2 XXI")
    assert set(t.legal()) == {"XX", "I", "IX", "VIII"}
    assert t.trick("P3 VIII P4 IV") == "P2"
    assert "X" in t.hand("P2") and set(t.legal()) == t.hand("P2") - {"X"}   # a suit card must be led while held


def test_in_a_suit_solo_a_tarock_may_be_played_to_a_suit_lead_only_without_suit_cards():
    t = Table(game(VIENNA), SUIT_SOLO)
    t.do("P1 call", "P2 suit_solo")
    t.weiter()
    t.trick("P1 XIX P2 X P3 VIII P4 IV")
    assert t.trick("P1 XVIII P2 XXI P3 IX P4 V") == "P2"
    t.do("P2 K♦")
    assert set(t.legal()) == {"J♦", "A♦"}                  # P3 follows suit
    t.do("P3 J♦")
    assert set(t.legal()) == {"10♠", "K♣", "Q♣", "C♣", "J♣", "10♣"}   # P4 is void in diamonds: no tarock
    t.do("P4 10♠")
    assert set(t.legal()) == t.hand("P1")                  # P1 holds no suit card: any tarock
    assert t.trick("P1 Sküs") == "P2"                      # and the Sküs does not win a diamond trick


def test_the_maerchenstich_sküs_mond_and_pagat_in_one_trick_is_won_by_the_pagat_and_is_no_mondfang():
    t = called_game(BASE)
    assert t.trick("P1 Mond P2 Sküs P3 V P4 Pagat") == "P4"
    t.auto_play(calm)
    assert "Mondfang" not in t.items()
    assert t.result()["counters"]["double_deals"] == 0


def test_the_maerchenstich_counts_whatever_the_order_of_the_three_cards():
    t = called_game(swap(BASE, "XXI", "Sküs"))               # P1 leads the Sküs, P2 plays the Mond
    assert t.trick("P1 Sküs P2 Mond P3 V P4 Pagat") == "P4"


def test_the_maerchenstich_also_applies_in_a_suit_solo():
    t = Table(game(VIENNA), SUIT_SOLO)
    t.do("P1 call", "P2 suit_solo")
    t.weiter()
    assert t.trick("P1 Sküs P2 XXI P3 I P4 VII") == "P3"


def test_without_maerchenstich_the_sküs_wins_the_three_and_it_is_a_mondfang():
    t = Table(game("zwanzigerrufen-no-maerchenstich"), BASE)
    t.do("P1 call")
    t.weiter()
    assert t.trick("P1 Mond P2 Sküs P3 V P4 Pagat") == "P2"
    t.auto_play(calm)
    assert t.items()["Mondfang"] == ("defenders", 1)
    assert t.result()["counters"]["double_deals"] == 4


def test_without_maerchenstich_a_suit_solo_trick_of_the_three_is_won_by_the_sküs():
    t = Table(game("zwanzigerrufen-no-maerchenstich"), SUIT_SOLO)
    t.do("P1 call", "P2 suit_solo")
    t.weiter()
    assert t.trick("P1 Sküs P2 XXI P3 I P4 VII") == "P1"


def test_with_the_ordered_maerchenstich_mond_skus_pagat_in_that_order_is_won_by_the_pagat():
    t = Table(game("zwanzigerrufen-ordered-maerchenstich"), BASE)
    t.do("P1 call")
    t.weiter()
    assert t.trick("P1 Mond P2 Sküs P3 V P4 Pagat") == "P4"


def test_with_the_ordered_maerchenstich_another_order_leaves_the_trick_to_the_skus():
    t = Table(game("zwanzigerrufen-ordered-maerchenstich"), swap(BASE, "XXI", "Sküs"))
    t.do("P1 call")
    t.weiter()
    assert t.trick("P1 Sküs P2 Mond P3 V P4 Pagat") == "P1"


def test_without_throw_in_a_hand_without_tarocks_is_played():
    variant = game("zwanzigerrufen-no-throw-in")
    kinds = [phase.kind for phase in variant.definition.phases]
    assert "throw_in" not in kinds and kinds[:4] == ["choose", "deal", "deal", "piles"]


# ====================================================================== 6. the called partner is secret
def observed_partner(t: Table) -> dict:
    return {p: t.state.observation(seat(p))["partner"] for p in SEATS}


def test_the_partner_is_unknown_to_the_declarer_and_the_defenders_until_the_called_card_is_played():
    t = called_game(BASE)
    assert observed_partner(t) == {"P1": "unknown", "P2": "unknown", "P3": ["P3"], "P4": "unknown"}
    assert all(t.state.observation(seat(p))["called"] == "XX" for p in SEATS)
    t.trick("P1 XV P2 XVIII P3 XIII P4 XVI")
    assert observed_partner(t)["P1"] == "unknown"
    t.do("P2 Sküs", "P3 XX", "P4 IV", "P1 VII")
    assert observed_partner(t) == {p: ["P3"] for p in SEATS}


def test_everyone_sees_the_partner_as_soon_as_the_called_card_is_on_the_table():
    t = called_game(BASE)
    t.do("P1 XV", "P2 XVIII", "P3 XX")
    assert observed_partner(t) == {p: ["P3"] for p in SEATS}


def test_the_partner_reveals_himself_by_an_announcement():
    t = Table(game(VIENNA), BASE)
    t.do("P1 call", "P2 weiter", "P3 absolut_dazu")
    assert observed_partner(t) == {p: ["P3"] for p in SEATS}


def test_the_declarers_own_announcement_does_not_reveal_the_partner():
    t = Table(game(VIENNA), BASE)
    t.do("P1 call", "P2 kontra_game", "P3 weiter", "P4 weiter", "P1 retour_game")
    assert observed_partner(t)["P2"] == "unknown"


def test_in_a_solo_every_seat_sees_that_the_soloist_has_no_partner():
    t = Table(game(VIENNA), BASE)
    t.do("P1 call", "P2 solo")
    t.weiter()
    assert observed_partner(t) == {p: [] for p in SEATS}


def test_observations_and_information_states_never_show_another_seats_hidden_cards():
    g = game(VIENNA)
    for seed in range(6):
        rng = random.Random(seed)
        st = g.new_initial_state()
        while not st.is_terminal():
            for p in range(4):
                obs = st.observation(p)
                assert obs["hand"] == g.deck.names(st.hands[p])
                hidden = set().union(*(names(g, st.hands[q]) for q in range(4) if q != p))
                text = json.dumps({k: v for k, v in obs.items() if k != "called"}, ensure_ascii=False)
                assert not any(f'"{c}"' in text for c in hidden)
                assert not hidden & set(st.information_state_string(p).split())
            st.apply_action(rng.choice(st.legal_actions()))


# ====================================================================== 7. scoring
def test_the_worked_example_scores_game_2_absolut_4_and_pagat_ultimo_4_for_a_net_of_2():
    t = Table(game(VIENNA), EXAMPLE)
    t.do(*EXAMPLE_AUCTION)
    t.tricks(*EXAMPLE_TRICKS)
    assert t.won_points("P1", "P3") == 40 and t.won_points("P2", "P4") == 48
    assert t.items() == {"Game": ("defenders", 2), "Absolut": ("declarers", 4), "Pagat Ultimo": ("defenders", 4)}
    assert t.deltas() == {"P1": -2, "P2": 2, "P3": -2, "P4": 2}


def test_a_silent_pagat_ultimo_won_in_the_last_trick_counts_1():
    t = called_game(EXAMPLE)
    t.tricks(*EXAMPLE_TRICKS)
    assert t.items() == {"Game": ("defenders", 1), "Pagat Ultimo": ("defenders", 1)}
    assert t.deltas() == {"P1": -2, "P2": 2, "P3": -2, "P4": 2}


def test_an_announced_pagat_ultimo_counts_double_and_its_kontra_doubles_only_it():
    t = Table(game(VIENNA), EXAMPLE)
    t.do("P1 call", "P2 weiter", "P3 weiter", "P4 pagat_ultimo_dagegen", "P1 kontra_pagat_ultimo")
    t.weiter()
    t.tricks(*EXAMPLE_TRICKS)
    assert t.items() == {"Game": ("defenders", 2), "Pagat Ultimo": ("defenders", 4)}
    assert t.deltas() == {"P1": -6, "P2": 6, "P3": -6, "P4": 6}


def test_a_silent_pagat_caught_in_the_last_trick_counts_1_against_its_side():
    t = called_game(CAUGHT)
    t.tricks(*CAUGHT_TRICKS)
    assert t.won_points("P1", "P3") == 63
    assert t.items() == {"Game": ("declarers", 1), "Absolut": ("declarers", 1), "Pagat Ultimo": ("declarers", 1)}
    assert t.deltas() == {"P1": 3, "P2": -3, "P3": 3, "P4": -3}


def test_a_silent_pagat_caught_by_its_own_partner_in_the_last_trick_costs_nothing():
    t = called_game(swap(CAUGHT, "XX", "X"))               # P4 holds the XX: P1's partner holds the Pagat
    assert t.state.side_mask == (1 << seat("P1")) | (1 << seat("P4"))
    winners = t.tricks("P1 Sküs P2 XI P3 XIV P4 IV", "P1 XXI P2 XII P3 XV P4 V", "P1 XVIII P2 XIII P3 X P4 VI",
                       "P1 K♥ P2 Q♥ P3 J♥ P4 A♥", "P1 K♦ P2 Q♦ P3 J♦ P4 A♦", "P1 K♠ P2 J♠ P3 Q♠ P4 VII",
                       "P4 VIII P1 XVI P2 C♥ P3 C♠", "P1 Q♣ P2 C♣ P3 K♣ P4 IX", "P4 XX P1 XVII P2 C♦ P3 J♣",
                       "P4 I P1 XIX P2 10♠ P3 10♣")
    assert winners[-1] == "P1"
    assert "Pagat Ultimo" not in t.items()
    assert t.items() == {"Game": ("declarers", 1), "Valat": ("declarers", 4), "Absolut": ("declarers", 1)}


def test_a_pagat_that_wins_an_earlier_trick_is_no_pagat_ultimo():
    t = called_game(BASE)
    winners = t.tricks(*BASE_44)
    assert BASE_44[6].endswith("P4 I") and winners[6] == "P4"
    assert set(t.items()) == {"Game"}


def test_a_failed_announced_pagat_ultimo_counts_its_announced_value_for_the_opponents():
    t = Table(game(VIENNA), CAUGHT)
    t.do("P1 call", "P2 weiter", "P3 weiter", "P4 pagat_ultimo_dagegen")   # with Kontra on the game
    t.weiter()
    t.tricks(*CAUGHT_TRICKS)
    assert t.items() == {"Game": ("declarers", 2), "Absolut": ("declarers", 1), "Pagat Ultimo": ("declarers", 2)}
    assert t.deltas() == {"P1": 5, "P2": -5, "P3": 5, "P4": -5}


def test_a_failed_silent_bonus_counts_nothing():
    t = called_game(BASE)
    t.tricks(*BASE_45)                                     # nobody reaches 56: no Absolut; the Pagat fell early
    assert set(t.items()) == {"Game"}


def test_a_failed_announced_absolut_counts_for_the_opponents():
    t = Table(game(VIENNA), BASE)
    t.do("P1 call", "P2 weiter", "P3 absolut_dazu")
    t.weiter()
    t.tricks(*BASE_45)
    assert t.items() == {"Game": ("declarers", 1), "Absolut": ("defenders", 2)}
    assert t.deltas() == {"P1": -1, "P2": 1, "P3": -1, "P4": 1}


# CAUGHT played two other ways: P1+P3 take 56 and 55 card points.
CAUGHT_56 = ("P1 XVIII P2 XI P3 XV P4 IX", "P1 XIX P2 XIII P3 XIV P4 V", "P1 Sküs P2 XII P3 XX P4 VIII",
             "P1 K♦ P2 C♦ P3 J♦ P4 A♦", "P1 XVII P2 Q♥ P3 Q♠ P4 VII", "P1 XVI P2 Q♦ P3 J♣ P4 I",
             "P1 XXI P2 10♠ P3 J♥ P4 VI", "P1 Q♣ P2 C♣ P3 K♣ P4 X", "P4 IV P1 K♥ P2 C♥ P3 C♠",
             "P4 A♥ P1 K♠ P2 J♠ P3 10♣")
CAUGHT_55 = ("P1 XXI P2 XI P3 XV P4 VI", "P1 XVIII P2 XII P3 XX P4 I", "P3 XIV P4 IV P1 XVI P2 XIII",
             "P1 XIX P2 Q♦ P3 J♥ P4 X", "P1 XVII P2 C♣ P3 J♦ P4 VIII", "P1 Sküs P2 C♥ P3 C♠ P4 VII",
             "P1 K♦ P2 C♦ P3 10♣ P4 A♦", "P1 K♠ P2 10♠ P3 Q♠ P4 V", "P4 IX P1 K♥ P2 Q♥ P3 J♣",
             "P4 A♥ P1 Q♣ P2 J♠ P3 K♣")


def test_a_side_taking_56_card_points_scores_a_silent_absolut():
    t = called_game(CAUGHT)
    t.tricks(*CAUGHT_56)
    assert t.won_points("P1", "P3") == 56 and t.won_points("P2", "P4") == 32
    assert t.items() == {"Game": ("declarers", 1), "Absolut": ("declarers", 1)}
    assert t.deltas() == {"P1": 2, "P2": -2, "P3": 2, "P4": -2}


def test_a_side_taking_55_card_points_scores_no_absolut():
    t = called_game(CAUGHT)
    t.tricks(*CAUGHT_55)
    assert t.won_points("P1", "P3") == 55 and t.won_points("P2", "P4") == 33
    assert t.items() == {"Game": ("declarers", 1)}


def test_a_silent_valat_counts_4_beside_the_game_and_the_absolut():
    t = called_game(VALAT)
    winners = t.tricks(*VALAT_TRICKS)
    assert set(winners) == {"P1"}
    assert t.items() == {"Game": ("declarers", 1), "Valat": ("declarers", 4), "Absolut": ("declarers", 1)}
    assert t.deltas() == {"P1": 6, "P2": -6, "P3": 6, "P4": -6}


def test_an_announced_valat_counts_8():
    t = Table(game(VIENNA), VALAT)
    t.do("P1 call", "P2 weiter", "P3 valat_dazu")
    t.weiter()
    t.tricks(*VALAT_TRICKS)
    assert t.items() == {"Game": ("declarers", 1), "Valat": ("declarers", 8), "Absolut": ("declarers", 1)}


def test_when_valat_cancels_bonuses_a_valat_leaves_only_the_game_and_the_valat():
    t = Table(game("zwanzigerrufen-valat-cancels"), VALAT)
    t.do("P1 call")
    t.weiter()
    t.tricks(*VALAT_TRICKS)
    assert t.items() == {"Game": ("declarers", 1), "Valat": ("declarers", 4)}
    assert t.deltas() == {"P1": 5, "P2": -5, "P3": 5, "P4": -5}


def test_when_valat_cancels_bonuses_a_deal_without_valat_keeps_its_bonuses():
    t = Table(game("zwanzigerrufen-valat-cancels"), CAUGHT)
    t.do("P1 call")
    t.weiter()
    t.tricks(*CAUGHT_TRICKS)
    assert t.items() == {"Game": ("declarers", 1), "Absolut": ("declarers", 1), "Pagat Ultimo": ("declarers", 1)}


def test_when_valat_cancels_bonuses_a_failed_valat_announcement_counts_but_cancels_nothing():
    """Only a Valat actually made cancels the other bonuses; a failed announcement still counts for the
    opponents, and the other bonuses count as usual."""
    t = Table(game("zwanzigerrufen-valat-cancels"), CAUGHT)
    t.do("P1 call", "P2 weiter", "P3 valat_dazu")
    t.weiter()
    t.tricks(*CAUGHT_TRICKS)
    assert t.items()["Valat"] == ("defenders", 8)
    assert set(t.items()) - {"Game", "Valat"}


def test_trull_and_four_kings_from_the_initial_hand_count_for_the_holders_side():
    t = called_game(KINGS_TRULL)                           # P1+P4 declare; P2 (Trull) and P3 (Kings) defend
    assert t.state.side_mask == (1 << seat("P1")) | (1 << seat("P4"))
    t.auto_play(calm)
    items = t.items()
    assert items["Trull"] == ("defenders", 1) and items["4 Kings"] == ("defenders", 2)
    net = item_net(t)
    assert t.deltas() == {"P1": net, "P2": -net, "P3": -net, "P4": net}


def test_trull_held_by_the_partner_counts_for_the_declaring_side():
    hands = swap(swap(KINGS_TRULL, "XX", "XIII"), "K♥", "Q♥")   # P2 holds XX and the Trull; Kings split
    t = called_game(hands)
    assert t.state.side_mask == (1 << seat("P1")) | (1 << seat("P2"))
    t.auto_play(calm)
    assert t.items()["Trull"] == ("declarers", 1) and "4 Kings" not in t.items()


def test_a_mondfang_counts_against_the_side_that_lost_the_mond_even_to_the_partners_sküs():
    hands = swap(BASE, "Sküs", "XVII")                     # P3, P1's partner, holds the Sküs
    t = called_game(hands)
    assert t.trick("P1 Mond P2 XVIII P3 Sküs P4 XVI") == "P3"
    t.auto_play(calm)
    assert t.items()["Mondfang"] == ("defenders", 1)
    assert t.result()["counters"]["double_deals"] == 4


def test_in_a_solo_every_bonus_counts_double_and_the_soloist_settles_with_each_of_three():
    t = Table(game(VIENNA), KINGS_TRULL)
    t.do("P1 call", "P2 solo")                             # P2 holds the Trull
    t.weiter()
    t.auto_play(calm)
    items = t.items()
    assert items["Trull"] == ("declarers", 2) and items["4 Kings"] == ("defenders", 4)
    assert items["Game"][1] == 4
    net = item_net(t)
    assert t.deltas() == {"P1": -net, "P2": 3 * net, "P3": -net, "P4": -net}


def test_a_solo_doubles_announced_bonuses_too():
    t = Table(game(VIENNA), VALAT)
    t.do("P1 solo", "P2 weiter", "P3 weiter", "P4 valat_dagegen")    # implied Kontra on the game
    t.weiter()
    t.auto_play(calm)
    items = t.items()
    assert items["Game"][1] == 8                           # Solo 4, Kontra ×2, not doubled as a bonus
    assert items["Valat"][1] == 16                         # announced 8, doubled in the Solo


def test_a_suit_solo_counts_only_game_valat_absolut_and_four_kings():
    t = Table(game(VIENNA), KINGS_TRULL)
    t.do("P1 call", "P2 weiter", "P3 suit_solo")           # P3 holds the four Kings, P2 the Trull
    assert not [a for a in t.legal() if a.startswith("pagat_ultimo")]
    assert "absolut_dagegen" in t.legal() and "valat_dagegen" in t.legal()
    t.weiter()
    t.auto_play(calm)
    items = t.items()
    assert set(items) <= {"Game", "Valat", "Absolut", "4 Kings"}
    assert items["4 Kings"] == ("declarers", 2) and items["Game"][1] == 2
    net = item_net(t)
    assert t.deltas() == {"P1": -net, "P2": -net, "P3": 3 * net, "P4": -net}


def test_a_suit_solo_counts_no_trull_and_no_mondfang():
    t = Table(game(VIENNA), SUIT_SOLO)
    t.do("P1 call", "P2 suit_solo")
    t.weiter()
    assert t.trick("P1 Sküs P2 XXI P3 VIII P4 IV") == "P1"      # the Sküs takes the Mond
    t.auto_play(calm)
    assert set(t.items()) <= {"Game", "Valat", "Absolut", "4 Kings"}
    assert t.result()["counters"]["double_deals"] == 0
    swapped = swap(swap(SUIT_SOLO, "I", "XVIII"), "XXI", "XVII")   # P1 holds the Trull
    t = Table(game(VIENNA), swapped)
    t.do("P1 call", "P2 suit_solo")
    t.weiter()
    t.auto_play(calm)
    assert "Trull" not in t.items()


def test_after_a_mondfang_the_next_four_scored_deals_count_double_and_a_throw_in_is_no_deal():
    g = game(VIENNA, max_deals=6)
    t = Table(g, swap(BASE, "Sküs", "XVII"))
    t.do("P1 call")
    t.weiter()
    t.trick("P1 Mond P2 XVIII P3 Sküs P4 XVI")              # a Mondfang in deal 1
    t.auto_play(calm)
    t.deal(NO_TAROCK)                                      # deal 2 is thrown in and dealt again
    assert t.state.deal_number == 1 and len(t.state.deal_results) == 1
    for _ in range(5):
        t.deal(KINGS_TRULL)                                # Sküs and Mond in one hand: no further Mondfang
        t.auto_play(calm)
    results = t.state.deal_results
    assert len(results) == 6
    assert [r["multiplier"] for r in results] == [1, 2, 2, 2, 2, 1]
    assert [r["counters"]["double_deals"] for r in results] == [4, 3, 2, 1, 0, 0]
    for r in results[1:]:
        net = sum(i["value"] if i["side"] == "declarers" else -i["value"] for i in r["items"] if i["side"] in
                  ("declarers", "defenders"))
        declarer = r["declarer"]
        assert abs(r["delta"][declarer]) == abs(net) * r["multiplier"]


def test_a_further_mondfang_in_the_double_round_adds_four_more_doubled_deals_without_quadrupling():
    g = game(VIENNA, max_deals=3)
    t = Table(g, swap(BASE, "Sküs", "XVII"))
    t.do("P1 call")
    t.weiter()
    t.trick("P1 Mond P2 XVIII P3 Sküs P4 XVI")
    t.auto_play(calm)
    t.deal(swap(BASE, "Sküs", "XVII"))                     # dealer P1: P2 is forehand and calls XX (P3)
    t.do("P2 call")
    t.weiter()
    t.trick("P2 XVIII P3 Sküs P4 XVI P1 Mond")
    t.auto_play(calm)
    t.deal(KINGS_TRULL)
    t.auto_play(calm)
    results = t.state.deal_results
    assert results[1]["items"] and any(i["item"] == "Mondfang" for i in results[1]["items"])
    assert [r["multiplier"] for r in results] == [1, 2, 2]
    assert [r["counters"]["double_deals"] for r in results] == [4, 7, 6]


def test_clockwise_seating_only_relabels_the_table():
    vienna, clockwise = game(VIENNA), game("zwanzigerrufen-clockwise")
    assert clockwise.definition.document["direction"] == "clockwise"
    assert vienna.definition.document["direction"] == "anticlockwise"
    runs = []
    for g in (vienna, clockwise):
        t = Table(g, KINGS_TRULL)
        t.do("P1 call", "P2 weiter", "P3 suit_solo")
        t.weiter()
        t.auto_play(calm)
        runs.append((t.state.history, t.result()["delta"], t.result()["items"]))
    assert runs[0] == runs[1]
    t = Table(clockwise, BASE, cut=None)
    assert t.to_act() == "P3"
    t.do("P3 cut")
    assert t.to_act() == "P1"


# ====================================================================== 8. the worked example as a log
EXAMPLE_LOG = LOGS / "zwanzigerrufen-worked-example.jsonl"


def test_the_worked_example_log_replays_with_the_cli_and_reproduces_its_result(capsys):
    assert rulelang_main(["replay", str(EXAMPLE_LOG)]) == 0
    out = capsys.readouterr().out
    assert "the logged result is reproduced" in out


def test_the_worked_example_log_records_each_items_value():
    log = read_log(str(EXAMPLE_LOG))
    assert "seed" not in log.header or log.header["seed"] is None
    assert log.header["max_deals"] == 1
    outcome = replay(log, game(VIENNA))
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert {k: v for k, v in log.result[1]["scores"].items()} == {"P1": -2, "P2": 2, "P3": -2, "P4": 2}
    deal = outcome.record.deals[0]
    items = {i["item"]: (i["side"], i["value"], i["level"], i["announced"]) for i in deal["items"]}
    assert items == {"Game": ("defenders", 2, 1, False), "Absolut": ("declarers", 4, 1, True),
                     "Pagat Ultimo": ("defenders", 4, 1, True)}
    assert deal["contract"] == {"name": "call", "title": "Call (normal game)", "declarer": "P1", "side": ["P1", "P3"],
                                "called": "XX"}
    assert deal["delta"] == {"P1": -2, "P2": 2, "P3": -2, "P4": 2}
    dealt = deal["dealt"]
    assert "XX" in dealt["P3"] and "I" in dealt["P4"] and "XX" not in dealt["P1"]
    last = deal["tricks"][-1]
    assert last["winner"] == "P4" and ["P4", "I"] in last["cards"]
    g = game(VIENNA)
    declarers = sum(points_of(g, mask_of(g, [c for _, c in tr["cards"]])) for tr in deal["tricks"]
                    if tr["winner"] in ("P1", "P3"))
    assert declarers == 40
    for hand in dealt.values():
        assert not {"Sküs", "XXI", "I"} <= set(hand) and not {"K♥", "K♦", "K♠", "K♣"} <= set(hand)
    assert all(tr["winner"] for tr in deal["tricks"]) and len({tr["winner"] for tr in deal["tricks"]}) > 1


def test_a_changed_result_line_makes_the_replay_of_the_worked_example_fail(tmp_path, capsys):
    text = EXAMPLE_LOG.read_text(encoding="utf-8")
    wrong = tmp_path / "zr-wrong-result.jsonl"
    wrong.write_text(text.replace('"P1": -2, "P2": 2, "P3": -2, "P4": 2', '"P1": 2, "P2": -2, "P3": 2, "P4": -2'),
                     encoding="utf-8")
    assert rulelang_main(["replay", str(wrong)]) == 1
    assert "E531" in capsys.readouterr().err


@pytest.mark.parametrize("log", sorted(p.name for p in LOGS.glob("zr-*.jsonl")))
def test_the_other_zwanzigerrufen_logs_replay_and_reproduce_their_results(log):
    parsed = read_log(str(LOGS / log))
    outcome = replay(parsed, game(VIENNA))
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert outcome.applied > 80 and parsed.result is not None


def test_the_deal_line_of_a_redeal_follows_the_cutters_renewed_choice():
    """A deal line feeds the chance events after it: the first one comes before the lot for the dealer,
    the one of a redeal after the cutter has chosen again (before it, it would deal the thrown-in hand)."""
    lines = [json.loads(line) for line in (LOGS / "zr-throw-in-redeal.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(line["type"], line.get("action")) for line in lines[1:6]] == [
        ("deal", None), ("action", "cut"), ("action", "cut"), ("deal", None), ("action", "call")]
    outcome = replay(read_log(str(LOGS / "zr-throw-in-redeal.jsonl")), game(VIENNA))
    deal = outcome.record.deals[0]
    assert deal["dealt"]["P1"] == cards(game(VIENNA), BASE["P1"]) and outcome.state.deal_number == 1


def test_the_worked_example_log_gives_the_deal_before_the_cutters_choice():
    lines = [json.loads(line) for line in EXAMPLE_LOG.read_text(encoding="utf-8").splitlines()]
    assert [line["type"] for line in lines[:3]] == ["header", "deal", "action"]
    assert lines[2]["seat"] == "P3" and lines[2]["action"] == "cut"
    said = [(line["seat"], line["action"]) for line in lines if line["type"] == "action"][1:10]
    assert said == [tuple(m.split()) for m in EXAMPLE_AUCTION]


# ====================================================================== 9. properties
def test_a_match_is_a_fixed_number_of_eight_deals():
    g = game(VIENNA, max_deals=None)
    state, _ = play_match(g, seed=3)
    assert state.is_terminal() and len(state.deal_results) == 8



def deal_checks(g, record, state) -> None:
    for deal, result in zip(record.deals, state.deal_results):
        assert sum(result["delta"]) == 0
        taken = {p: 0 for p in SEATS}
        for tr in deal["tricks"]:
            taken[tr["winner"]] += points_of(g, mask_of(g, [c for _, c in tr["cards"]]))
        side = result["side"]
        declarers = sum(v for p, v in taken.items() if side >> seat(p) & 1)
        defenders = sum(v for p, v in taken.items() if not side >> seat(p) & 1)
        assert declarers + defenders == 88
    assert sum(state.scores) == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(min_value=0, max_value=10 ** 6))
def test_every_settled_deal_sums_to_zero_and_both_sides_card_points_sum_to_88(seed):
    g = game(VIENNA, max_deals=4)
    state, record = play_match(g, seed=seed)
    assert len(state.deal_results) == 4
    deal_checks(g, record, state)


@pytest.mark.parametrize("variant", ["zwanzigerrufen-clockwise", "zwanzigerrufen-no-maerchenstich",
                                     "zwanzigerrufen-strict-throw-in", "zwanzigerrufen-valat-cancels"])
def test_every_variant_settles_each_deal_to_zero_with_88_card_points(variant):
    g = game(variant, max_deals=4)
    for seed in range(5):
        state, record = play_match(g, seed=seed)
        deal_checks(g, record, state)
