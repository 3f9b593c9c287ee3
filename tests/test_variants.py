"""One scenario per changed rule of every shipped Zwanzig ab variant and of Fünf dazu!, in card names.

Each deal is fixed with ``ScriptedDeal`` (hands in dealing order, the talon top first) and
played move by move with ``state.apply_checked``. The dealer is always P1, so forehand is
P2 and (in the base game) the decisions start with P3.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from rulelang.interpreter.agents import ScriptedDeal
from rulelang.interpreter.game import IllegalActionError
from rulelang.loader import load_game, open_document

SEATS = ("P1", "P2", "P3", "P4", "P5")


@lru_cache(maxsize=None)
def one_deal(name: str):
    """The game ``name`` stopped after one deal."""
    return load_game(name, max_deals=1)


@lru_cache(maxsize=None)
def whole(name: str):
    """The game ``name`` as a whole match (at most 40 deals)."""
    return load_game(name, max_deals=40)


class Table:
    """A deal fixed card by card; moves are given as ``"P2 hearts"`` and checked to be legal."""

    def __init__(self, game, hands: dict, talon: str | None = None, scores: list | None = None,
                 counters: dict | None = None):
        self.game = game
        self.state = game.new_initial_state()
        if scores is not None:
            self.state.scores = list(scores)
        if counters is not None:
            self.state.counters.update(counters)
        self.deal(hands, talon)

    def names(self, text: str) -> list[str]:
        """Canonical names of space-separated cards (``"ac 10h"`` → ``["A♣", "10♥"]``)."""
        deck = self.game.deck
        return [deck.cards[deck.lookup[word.casefold()]].name for word in text.split()]

    def deal(self, hands: dict, talon: str | None = None) -> None:
        """Script the next deal (dealer P1) and deal until someone must act."""
        given = {SEATS.index(s): self.names(text) for s, text in hands.items()}
        used = {c for cards in given.values() for c in cards}
        rest = self.names(talon) if talon is not None else \
            [c.name for c in self.game.deck.cards if c.name not in used]
        self.chance = ScriptedDeal(self.game, given, rest, dealer=0)
        self.number = self.state.deal_number
        self.settle()

    def settle(self) -> None:
        """Apply chance events of this deal until a player acts or the deal ends."""
        while self.state.is_chance_node() and self.state.deal_number == self.number:
            self.state.apply_checked(self.chance.step(self.state))

    def do(self, *moves: str) -> None:
        """Apply ``"P3 pass"``-style moves; each seat must be the one to act."""
        for move in moves:
            who, name = move.split()
            assert self.to_act() == who, f"{move}: it is {self.to_act()}'s turn"
            action = self.game.string_to_action(name)
            assert action is not None, name
            self.state.apply_checked(action)
            self.settle()

    def to_act(self) -> str | None:
        """The seat to act, or None."""
        current = self.state.current_player()
        return self.game.seat_name(current) if current >= 0 else None

    def legal(self) -> list[str]:
        """Names of the legal actions now."""
        return [self.game.action_to_string(a) for a in self.state.legal_actions()]

    def hand(self, who: str) -> set[str]:
        """The cards ``who`` holds."""
        return set(self.game.deck.names(self.state.hands[SEATS.index(who)]))

    def delta(self) -> dict[str, int]:
        """Score changes of the last finished deal."""
        result = self.state.deal_results[-1]
        return {self.game.seat_name(s): v for s, v in enumerate(result["delta"])}


def keep_all(*seats: str) -> list[str]:
    """Every seat keeps its cards in the exchange."""
    return [f"{s} done" for s in seats]


KEEP4 = keep_all("P2", "P3", "P4", "P1")

# Base-game deal (2 + 3 cards, dealer P1): P2 holds all five top spades.
SPADES = {"P2": "AS 10S KS QS JS", "P3": "AC 10C KC QC JC", "P4": "AH 10H KH QH JH", "P1": "AD 10D KD QD JD"}


# ---------------------------------------------------------------------- every file
VARIANTS = ["zwanzig-ab-pagat", "zwanzig-ab-slam", "zwanzig-ab-stichzwang", "zwanzig-ab-exact",
            "zwanzig-ab-german", "zwanzig-ab-kartenspiele", "zwanzig-ab-wikibooks", "zwanzig-ab-wikibooks-five",
            "zwanzig-ab-wikibooks-german", "zwanzig-ab-wikibooks-first-out", "zwanzig-ab-allekartenspiele",
            "zwanzig-ab-neuropool", "zwanzig-ab-helpster", "fuenf-dazu", "fuenf-dazu-exchange"]


@pytest.mark.parametrize("name", VARIANTS)
def test_every_variant_says_where_it_comes_from_and_what_it_changes(name):
    from rulelang.loader import find_game, read_document
    path = find_game(name)
    assert path.read_text(encoding="utf-8").startswith("# ")      # a header comment
    raw = read_document(path).data
    assert raw.get("extends")                                     # overrides only what differs
    about = open_document(name).data["about"]
    assert about["source"] and about["summary"] and about["deviations"]


@pytest.mark.parametrize("name", VARIANTS)
def test_every_variant_plays_three_deals(name):
    from rulelang.interpreter.runner import play_match
    state, _ = play_match(load_game(name, max_deals=3), seed=1)
    assert state.is_terminal() and 1 <= state.deal_number <= 3


# ---------------------------------------------------------------------- pagat.com
def test_pagat_ranks_naturally_so_the_king_beats_the_ten():
    t = Table(one_deal("zwanzig-ab-pagat"), {"P2": "KS 7C 8C 9C JD", "P3": "10S QD KD AD 7H",
                                             "P4": "8S 8H 9H 10H JH", "P1": "9S QH KH AH 7D"})
    t.do("P2 clubs", *KEEP4, "P3 play", "P4 play", "P1 play")
    t.do("P2 KS", "P3 10S", "P4 8S", "P1 9S")
    assert t.state.tricks.trick_winners[0] == (SEATS.index("P2"), t.game.string_to_action("KS"))


def test_base_game_ranks_ace_ten_so_the_ten_beats_the_king():
    t = Table(one_deal("zwanzig-ab"), {"P2": "KS 7C 8C 9C JD", "P3": "10S QD KD AD 7H",
                                       "P4": "8S 8H 9H 10H JH", "P1": "9S QH KH AH 7D"})
    t.do("P2 clubs", *KEEP4, "P3 play", "P4 play", "P1 play")
    t.do("P2 KS", "P3 10S", "P4 8S", "P1 9S")
    assert t.state.tricks.trick_winners[0][0] == SEATS.index("P3")


def _slam(name: str) -> dict:
    t = Table(one_deal(name), SPADES)
    t.do("P2 spades", *KEEP4, "P3 play", "P4 play", "P1 play")
    for lead, others in (("AS", ("AC", "AH", "AD")), ("10S", ("10C", "10H", "10D")), ("KS", ("KC", "KH", "KD")),
                         ("QS", ("QC", "QH", "QD")), ("JS", ("JC", "JH", "JD"))):
        t.do(f"P2 {lead}", f"P3 {others[0]}", f"P4 {others[1]}", f"P1 {others[2]}")
    return t.delta()


def test_pagat_all_five_tricks_cost_five_without_a_slam_extra():
    assert _slam("zwanzig-ab-pagat") == {"P1": 5, "P2": -5, "P3": 5, "P4": 5}


def test_the_slam_reading_takes_five_more_for_all_tricks_in_play():
    assert _slam("zwanzig-ab-slam") == {"P1": 5, "P2": -10, "P3": 5, "P4": 5}


def test_the_slam_bonus_is_not_given_to_forehand_credited_without_play():
    t = Table(one_deal("zwanzig-ab-slam"), SPADES)
    t.do("P2 spades", *KEEP4, "P3 pass", "P4 pass", "P1 pass")
    assert t.delta() == {"P1": 0, "P2": -5, "P3": 0, "P4": 0}


# ---------------------------------------------------------------------- Stichzwang reading
def test_stichzwang_must_beat_the_best_card_of_the_suit_led_if_possible():
    hands = {"P2": "QS 7C 8C 9C JD", "P3": "AS 7S QD KD AD", "P4": "8S 8H 9H 10H JH", "P1": "9S QH KH AH 7D"}
    t = Table(one_deal("zwanzig-ab-stichzwang"), hands)
    t.do("P2 clubs", *KEEP4, "P3 play", "P4 play", "P1 play", "P2 QS")
    assert t.legal() == ["A♠"]
    with pytest.raises(IllegalActionError):
        t.state.apply_checked(t.game.string_to_action("7S"))
    base = Table(one_deal("zwanzig-ab"), hands)
    base.do("P2 clubs", *KEEP4, "P3 play", "P4 play", "P1 play", "P2 QS")
    assert base.legal() == ["A♠", "7♠"]


def test_stichzwang_must_overtrump_when_void():
    hands = {"P2": "QS 7H 8H 9D JD", "P3": "10C 7D QD KD AD", "P4": "JC AC 9H 10H JH", "P1": "9S QH KH AH 7S"}
    t = Table(one_deal("zwanzig-ab-stichzwang"), hands)
    t.do("P2 clubs", *KEEP4, "P3 play", "P4 play", "P1 play", "P2 QS", "P3 10C")
    assert t.legal() == ["A♣"]                                    # over-trump 10♣ with A♣, not J♣


# ---------------------------------------------------------------------- exactly zero
def test_exact_zero_a_deal_that_would_overshoot_leaves_the_score():
    t = Table(one_deal("zwanzig-ab-exact"), SPADES, scores=[20, 3, 20, 20])
    t.do("P2 spades", *KEEP4, "P3 pass", "P4 pass", "P1 pass")
    assert t.state.scores[1] == 3 and t.delta()["P2"] == 0


def test_exact_zero_a_seat_already_on_zero_stays_there_when_it_takes_tricks():
    # two seats on zero share the lead, so under `tie: play_on` the match goes on; P2 then takes every trick
    t = Table(one_deal("zwanzig-ab-exact"), SPADES, scores=[20, 0, 0, 20])
    t.do("P2 spades", *KEEP4, "P3 pass", "P4 pass", "P1 pass")
    assert t.state.scores[1] == 0 and t.delta()["P2"] == 0


def test_exact_zero_landing_on_zero_wins():
    t = Table(whole("zwanzig-ab-exact"), SPADES, scores=[20, 5, 20, 20])
    t.do("P2 spades", *KEEP4, "P3 pass", "P4 pass", "P1 pass")
    assert t.state.is_terminal() and t.state.winner == 1 and t.state.scores[1] == 0


# ---------------------------------------------------------------------- German pack
def test_german_pack_cards_are_typed_rank_and_suit_letter():
    game = one_deal("zwanzig-ab-german")
    assert [c.name for c in game.deck.cards[:8]] == ["AA", "10A", "KA", "OA", "UA", "9A", "8A", "7A"]
    assert len(game.deck.cards) == 32 and game.action_to_string(game.string_to_action("ob")) == "OB"


def test_german_pack_bells_play_the_part_of_diamonds_nobody_may_drop_out():
    hands = {"P2": "AB 10B KB OB UB", "P3": "AA 10A KA OA UA", "P4": "AH 10H KH OH UH", "P1": "AL 10L KL OL UL"}
    t = Table(one_deal("zwanzig-ab-german"), hands)
    t.do("P2 bells", *KEEP4)
    assert t.state.phase.kind == "tricks" and t.state.active == 0b1111


def test_german_pack_hearts_still_double():
    hands = {"P2": "AH 10H KH OH UH", "P3": "AA 10A KA OA UA", "P4": "AB 10B KB OB UB", "P1": "AL 10L KL OL UL"}
    t = Table(one_deal("zwanzig-ab-german"), hands)
    t.do("P2 hearts", *KEEP4, "P3 pass", "P4 pass", "P1 pass")
    assert t.delta()["P2"] == -10


# ---------------------------------------------------------------------- kartenspiele.net
def test_kartenspiele_hearts_blind_is_called_before_any_card_and_counts_four_times():
    t = Table(one_deal("zwanzig-ab-kartenspiele"), SPADES)
    assert t.to_act() == "P2" and t.legal() == ["blind", "look"]
    assert t.state.hands == [0, 0, 0, 0]                         # nothing dealt yet
    t.do("P2 blind")
    assert t.state.var_text("trump") == "hearts"
    t.do(*KEEP4, "P3 pass", "P4 pass", "P1 pass")
    assert t.delta()["P2"] == -20                                 # five tricks × 4


def test_kartenspiele_look_names_trumps_after_two_cards():
    t = Table(one_deal("zwanzig-ab-kartenspiele"), SPADES)
    t.do("P2 look")
    assert len(t.hand("P2")) == 2 and t.legal() == ["clubs", "spades", "hearts", "diamonds"]


def test_kartenspiele_the_trump_chooser_without_a_trick_gets_forty():
    t = Table(one_deal("zwanzig-ab-kartenspiele"), {"P2": "7S 8S 9S 7C 8C", "P3": "AC 10C KC QC JC",
                                                    "P4": "AH 10H KH QH JH", "P1": "AS 10S KS QS JS"})
    t.do("P2 look", "P2 diamonds", *KEEP4)
    t.do("P2 7S", "P3 AC", "P4 AH", "P1 AS", "P1 10S", "P2 8S", "P3 10C", "P4 10H", "P1 KS", "P2 9S", "P3 KC",
         "P4 KH", "P1 QS", "P2 7C", "P3 QC", "P4 QH", "P1 JS", "P2 8C", "P3 JC", "P4 JH")
    assert t.delta() == {"P1": -5, "P2": 40, "P3": 5, "P4": 5}


# ---------------------------------------------------------------------- Wikibooks
WB_HANDS = {"P2": "AS 10S KS QS JS", "P3": "AC 10C KC QC JC", "P4": "AH 10H KH QH JH", "P1": "AD 10D KD QD JD"}


def test_wikibooks_trumps_after_three_cards_exchange_at_most_two():
    t = Table(one_deal("zwanzig-ab-wikibooks"), WB_HANDS)
    t.do("P2 look")
    assert len(t.hand("P2")) == 3 and t.hand("P2") == {"A♠", "10♠", "K♠"}
    t.do("P2 spades", "P2 AS", "P2 10S")                          # the second discard ends the turn
    assert t.to_act() == "P3" and len(t.hand("P2")) == 5


def test_wikibooks_herz_blind_counts_four_and_scores_land_exactly_on_zero():
    t = Table(one_deal("zwanzig-ab-wikibooks"), WB_HANDS, scores=[20, 12, 20, 20])
    t.do("P2 blind", *KEEP4, "P3 pass", "P4 pass", "P1 pass")
    assert t.state.scores[1] == 12                                 # -20 would overshoot zero
    t2 = Table(one_deal("zwanzig-ab-wikibooks"), WB_HANDS, scores=[20, 20, 20, 20])
    t2.do("P2 blind", *KEEP4, "P3 pass", "P4 pass", "P1 pass")
    assert t2.state.scores[1] == 0 and t2.state.winner == 1


def test_wikibooks_five_players_exchange_three_until_the_talon_runs_out():
    game = one_deal("zwanzig-ab-wikibooks-five")
    hands = {"P2": "AS 10S KS QS JS", "P3": "AC 10C KC QC JC", "P4": "AH 10H KH QH JH", "P5": "AD 10D KD QD JD",
             "P1": "9S 8S 7S 9C 8C"}
    t = Table(game, hands)
    assert game.num_players == 5
    t.do("P2 look", "P2 clubs")
    assert bin(t.state.talon).count("1") == 7
    t.do("P2 AS", "P2 10S", "P2 KS", "P3 AC", "P3 10C", "P3 KC")   # three each: 1 card left
    t.do("P4 AH")                                                  # only one card can be drawn now
    assert t.to_act() == "P5" or t.state.phase.kind != "exchange"
    assert bin(t.state.talon).count("1") == 0


def test_wikibooks_german_deals_six_cards_three_and_three():
    game = one_deal("zwanzig-ab-wikibooks-german")
    hands = {"P2": "AA 10A KA OA UA 9A", "P3": "AL 10L KL OL UL 9L", "P4": "AH 10H KH OH UH 9H",
             "P1": "AB 10B KB OB UB 9B"}
    t = Table(game, hands)
    t.do("P2 look")
    assert len(t.hand("P2")) == 3 and t.legal() == ["acorns", "leaves", "hearts", "bells"]
    t.do("P2 acorns")
    assert all(len(t.hand(s)) == 6 for s in ("P1", "P2", "P3", "P4"))
    assert bin(t.state.talon).count("1") == 8


def test_wikibooks_first_out_ends_below_zero_and_equal_lowest_share():
    game = whole("zwanzig-ab-wikibooks-first-out")
    t = Table(game, WB_HANDS, scores=[20, 3, 20, 20])
    t.do("P2 look", "P2 spades", *KEEP4, "P3 pass", "P4 pass", "P1 pass")
    assert t.state.is_terminal() and t.state.scores[1] == -2 and t.state.winner == 1
    t = Table(game, WB_HANDS, scores=[20, 5, 20, 20])
    t.do("P2 look", "P2 spades", *KEEP4, "P3 pass", "P4 pass", "P1 pass")
    assert not t.state.is_terminal() and t.state.scores[1] == 0   # zero is not yet out


# ---------------------------------------------------------------------- allekartenspiele.de
@pytest.mark.parametrize("trump,may_pass", [("hearts", False), ("clubs", False), ("diamonds", True), ("spades", True)])
def test_allekartenspiele_nobody_may_drop_out_under_hearts_or_clubs(trump, may_pass):
    t = Table(one_deal("zwanzig-ab-allekartenspiele"), SPADES)
    assert len(t.hand("P2")) == 3                                  # trumps after three cards
    t.do(f"P2 {trump}", *KEEP4)
    assert (t.to_act() == "P3" and t.legal() == ["play", "pass"]) == may_pass


def test_allekartenspiele_hearts_count_four_times():
    t = Table(one_deal("zwanzig-ab-allekartenspiele"), {"P2": "AH 10H KH QH JH", "P3": "AC 10C KC QC JC",
                                                        "P4": "AS 10S KS QS JS", "P1": "AD 10D KD QD JD"})
    t.do("P2 hearts", *KEEP4)
    for rank in ("A", "10", "K", "Q", "J"):
        t.do(f"P2 {rank}H", f"P3 {rank}C", f"P4 {rank}S", f"P1 {rank}D")
    assert t.delta() == {"P1": 20, "P2": -20, "P3": 20, "P4": 20}


# ---------------------------------------------------------------------- neuropool.com
def test_neuropool_nobody_drops_out_and_the_exchange_is_two():
    t = Table(one_deal("zwanzig-ab-neuropool"), SPADES)
    assert len(t.hand("P2")) == 3
    t.do("P2 spades", "P2 AS", "P2 10S")
    assert t.to_act() == "P3"
    t.do("P3 done", "P4 done", "P1 done")
    assert t.state.phase.kind == "tricks" and t.to_act() == "P2"


def test_neuropool_a_trick_won_with_a_heart_costs_two():
    hands = {"P2": "AH 7S 8S 9S JS", "P3": "7H AC KC QC JC", "P4": "8H 10H KH QH JH", "P1": "9H 10D KD QD JD"}
    t = Table(one_deal("zwanzig-ab-neuropool"), hands)
    t.do("P2 clubs", *KEEP4)
    t.do("P2 AH", "P3 7H", "P4 8H", "P1 9H")                       # P2 wins with a heart: -2
    t.do("P2 7S", "P3 AC", "P4 10H", "P1 10D")                     # P3 trumps: -1
    t.do("P3 KC", "P4 KH", "P1 KD", "P2 8S", "P3 QC", "P4 QH", "P1 QD", "P2 9S", "P3 JC", "P4 JH", "P1 JD", "P2 JS")
    assert t.delta() == {"P1": 5, "P2": -2, "P3": -4, "P4": 5}


# ---------------------------------------------------------------------- helpster.de
def test_helpster_the_dealers_right_names_trumps_may_not_drop_out_but_forehand_may():
    t = Table(one_deal("zwanzig-ab-helpster"), SPADES)
    assert t.to_act() == "P4"                                      # the dealer P1's right
    t.do("P4 clubs", *KEEP4, "P3 pass")
    assert t.to_act() == "P1" and t.legal() == ["play", "pass"]
    t.do("P1 pass", "P2 pass")                                     # forehand may drop out
    assert t.state.decisions[SEATS.index("P4")] == "play (forced)"
    assert t.delta() == {"P1": 0, "P2": 0, "P3": 0, "P4": -5}


def test_helpster_the_trump_chooser_without_a_trick_gets_ten():
    t = Table(one_deal("zwanzig-ab-helpster"), {"P2": "AS 10S KS QS JS", "P3": "AC 10C KC QC JC",
                                                "P4": "7H 8H 9H 7D 8D", "P1": "AD 10D KD QD JD"})
    t.do("P4 spades", *KEEP4, "P3 pass", "P1 pass", "P2 play")
    for card, other in (("AS", "7H"), ("10S", "8H"), ("KS", "9H"), ("QS", "7D"), ("JS", "8D")):
        t.do(f"P2 {card}", f"P4 {other}")
    assert t.delta() == {"P1": 0, "P2": -5, "P3": 0, "P4": 10}


def test_helpster_drop_outs_are_counted_and_rationed():
    game = whole("zwanzig-ab-helpster")
    t = Table(game, SPADES, counters={"drops_0": 0, "drops_1": 0, "drops_2": 3, "drops_3": 0})
    t.do("P4 clubs", *KEEP4)
    assert t.to_act() == "P1" and t.state.decisions[SEATS.index("P3")] == "play (forced)"   # P3 used up 3
    t2 = Table(game, SPADES)
    t2.do("P4 clubs", *KEEP4, "P3 pass", "P1 pass", "P2 play")
    for card, other in (("AS", "AH"), ("10S", "10H"), ("KS", "KH"), ("QS", "QH"), ("JS", "JH")):
        t2.do(f"P2 {card}", f"P4 {other}")
    # P1 (the dealer) and P3 passed; the deal passes to P2: counted from the new dealer P2, P3 is
    # one seat on (drops_1) and P1 three seats on (drops_3)
    assert t2.state.dealer == SEATS.index("P2")
    assert t2.state.counters == {"drops_0": 0, "drops_1": 1, "drops_2": 0, "drops_3": 1}


# ---------------------------------------------------------------------- Fünf dazu!
FD_HANDS = {"P2": "QS 7C 8C 9C JD", "P3": "AS 7S QD KD AD", "P4": "8S 8H 9H 10H JH", "P1": "9S QH KH AH 7D"}


def test_fuenf_dazu_no_trumps_no_exchange_no_dropping_out_play_starts_at_once():
    t = Table(one_deal("fuenf-dazu"), FD_HANDS)
    assert t.state.phase.kind == "tricks" and t.to_act() == "P2"
    assert "trump" not in t.state.vars and t.state.scores == [15, 15, 15, 15]


def test_fuenf_dazu_must_follow_and_head_the_trick():
    t = Table(one_deal("fuenf-dazu"), FD_HANDS)
    t.do("P2 QS")
    assert t.legal() == ["A♠"]
    t.do("P3 AS", "P4 8S")
    assert t.legal() == ["9♠"]


def test_fuenf_dazu_a_void_player_may_play_anything_and_no_card_trumps():
    t = Table(one_deal("fuenf-dazu"), FD_HANDS)
    t.do("P2 7C")
    assert t.legal() == sorted(t.legal(), key=t.game.string_to_action) and len(t.legal()) == 5
    t.do("P3 AS", "P4 JH", "P1 AH")
    assert t.state.tricks.trick_winners[0][0] == SEATS.index("P2")


def test_fuenf_dazu_scores_minus_one_per_trick_and_five_more_without():
    t = Table(one_deal("fuenf-dazu"), {"P2": "AS 10S KS QS JS", "P3": "AC 10C KC QC JC",
                                       "P4": "AH 10H KH QH JH", "P1": "AD 10D KD QD JD"})
    for rank in ("A", "10", "K", "Q", "J"):
        t.do(f"P2 {rank}S", f"P3 {rank}C", f"P4 {rank}H", f"P1 {rank}D")
    assert t.delta() == {"P1": 5, "P2": -5, "P3": 5, "P4": 5}


def test_fuenf_dazu_exchange_flag_turns_the_exchange_on():
    t = Table(one_deal("fuenf-dazu-exchange"), FD_HANDS)
    assert t.state.phase.kind == "exchange" and t.to_act() == "P2" and "done" in t.legal()


# ---------------------------------------------------------------------- replaying a log under a variant
def _cli(capsys, *argv) -> tuple[int, str, str]:
    from rulelang.cli.main import main
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


HEAD_LOG = [
    {"type": "header", "format": "rulelang-log/1", "game": "zwanzig-ab", "seats": ["P1", "P2", "P3", "P4"],
     "max_deals": 1},
    {"type": "deal", "deal": 1, "dealer": "P1",
     "hands": {"P2": ["Q♠", "7♣", "8♣", "9♣", "J♦"], "P3": ["A♠", "7♠", "Q♦", "K♦", "A♦"],
               "P4": ["8♠", "8♥", "9♥", "10♥", "J♥"], "P1": ["9♠", "Q♥", "K♥", "A♥", "7♦"]}},
    *({"type": "action", "seat": s, "action": a} for s, a in [
        ("P2", "clubs"), ("P2", "done"), ("P3", "done"), ("P4", "done"), ("P1", "done"),
        ("P3", "play"), ("P4", "play"), ("P1", "play"), ("P2", "Q♠"), ("P3", "7♠")]),
]


def _write_log(path, lines) -> str:
    import json
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_replay_under_a_variant_stops_at_the_first_move_it_forbids_and_says_why(capsys, tmp_path):
    log = _write_log(tmp_path / "head.jsonl", HEAD_LOG)
    code, out, err = _cli(capsys, "replay", log, "--rules", "zwanzig-ab-stichzwang")
    assert code == 1
    assert "head.jsonl:12:" in err and "error[E530]" in err and "P3 may not play 7♠" in err
    assert "the trick must be headed if possible" in err and "hint: play one of A♠" in err
    assert "the log stops being legal under zwanzig-ab-stichzwang in deal 1, at line 12" in out
    code, _, _ = _cli(capsys, "replay", log)                      # legal under its own rules
    assert code == 0


def test_replay_under_a_variant_shows_how_the_scores_differ(capsys, tmp_path):
    log = str(tmp_path / "run.jsonl")
    assert _cli(capsys, "run", "zwanzig-ab", "--seed", "5", "--log", log)[0] == 0
    code, out, _ = _cli(capsys, "replay", log, "--rules", "zwanzig-ab-exact", "--json")
    data = __import__("json").loads(out)
    comparison = data["comparison"]
    assert code == 0 and data["ok"] and comparison["rules"] == "zwanzig-ab-exact"
    assert comparison["stopped"] is None and comparison["deals"]
    final = comparison["final"]
    assert final["difference"] == {s: final["replayed"][s] - final["logged"][s] for s in final["logged"]}
    assert all(v >= 0 for v in final["replayed"].values())        # exact zero: nobody goes below
    code, out, _ = _cli(capsys, "replay", log, "--rules", "zwanzig-ab-exact")
    assert code == 0 and "Scores after each deal: logged (zwanzig-ab) | under zwanzig-ab-exact" in out
    assert out.splitlines()[-1] == "replay ok: " + str(data["applied"]) + \
        " actions, every one legal under zwanzig-ab-exact"


def test_replay_under_the_natural_ranking_diverges_when_another_player_wins_a_trick(capsys, tmp_path):
    log = str(tmp_path / "run.jsonl")
    _cli(capsys, "run", "zwanzig-ab", "--seed", "5", "--log", log)
    code, out, err = _cli(capsys, "replay", log, "--rules", "zwanzig-ab-pagat")
    assert code == 1 and "error[E532]" in err
    assert "(the trick before, under zwanzig-ab-pagat:" in out


def test_replay_under_the_same_rules_in_the_other_syntax_is_a_plain_replay(capsys, tmp_path):
    from pathlib import Path
    log = str(tmp_path / "run.jsonl")
    _cli(capsys, "run", "zwanzig-ab", "--seed", "3", "--deals", "2", "--log", log)
    yaml_game = str(Path(__file__).resolve().parent.parent / "games" / "zwanzig-ab.yaml")
    code, out, _ = _cli(capsys, "replay", log, "--rules", yaml_game)
    assert code == 0 and "Scores after each deal" not in out
    assert out.splitlines()[-1].endswith("the logged result is reproduced")


# ---------------------------------------------------------------------- more changed rules
def test_allekartenspiele_scores_must_land_exactly_on_zero():
    t = Table(one_deal("zwanzig-ab-allekartenspiele"), SPADES, scores=[20, 4, 20, 20])
    t.do("P2 spades", *KEEP4, "P3 pass", "P4 pass", "P1 pass")
    assert t.state.scores[1] == 4                                   # -5 would overshoot zero


def test_neuropool_no_trick_scores_ten_when_hearts_are_trumps():
    t = Table(one_deal("zwanzig-ab-neuropool"), {"P2": "AH 10H KH QH JH", "P3": "AC 10C KC QC JC",
                                                 "P4": "AS 10S KS QS JS", "P1": "AD 10D KD QD JD"})
    t.do("P2 hearts", *KEEP4)
    for rank in ("A", "10", "K", "Q", "J"):
        t.do(f"P2 {rank}H", f"P3 {rank}C", f"P4 {rank}S", f"P1 {rank}D")
    assert t.delta() == {"P1": 10, "P2": -10, "P3": 10, "P4": 10}   # five heart tricks at 2 each


def test_wikibooks_german_exchanges_up_to_three():
    hands = {"P2": "AA 10A KA OA UA 9A", "P3": "AL 10L KL OL UL 9L", "P4": "AH 10H KH OH UH 9H",
             "P1": "AB 10B KB OB UB 9B"}
    t = Table(one_deal("zwanzig-ab-wikibooks-german"), hands)
    t.do("P2 look", "P2 acorns", "P2 9A", "P2 UA")
    assert t.to_act() == "P2" and "done" in t.legal()
    t.do("P2 OA")                                                   # the third discard ends the turn
    assert t.to_act() == "P3" and len(t.hand("P2")) == 6


def test_helpster_trumps_are_named_after_three_cards():
    t = Table(one_deal("zwanzig-ab-helpster"), SPADES)
    assert [len(t.hand(s)) for s in ("P1", "P2", "P3", "P4")] == [3, 3, 3, 3]
