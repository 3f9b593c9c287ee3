"""Skat (games/skat.yaml), rule by rule in card names.

The auction by numbers (middlehand says to forehand, who holds or passes; passing is final;
rearhand says to the survivor; forehand alone after two passes; all pass: thrown in); Hand or
the Skat picked up and two cards discarded unseen; suit game, Grand and Null with their trumps
and card orders; Schneider, Schwarz and Ouvert announced only in Hand; the open hand of an
Ouvert; game values from matadors and levels, overbidding, and the declarer alone scoring —
checked against a scorer written here over many random deals. ``tests/logs/skat-hearts.jsonl``
is one whole deal that replays to its score.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

from helpers import LOGS, Table, play_deal, seat
from rulelang.interpreter.log import read_log
from rulelang.interpreter.replay import replay
from rulelang.loader import load_game

LOG = LOGS / "skat-hearts.jsonl"

# Dealer P1: forehand P2, middlehand P3, rearhand P1. The Skat is 9♦ 7♦.
HANDS = {"P2": "JC JS AH 10H KH 9H AC 10C 7S 8D", "P3": "JH AS 10S KS QS 9S AD 10D KD QC",
         "P1": "JD QH 8H 7H KC 9C 8C 7C 8S QD"}


@lru_cache(maxsize=None)
def game():
    return load_game("skat", max_deals=1)


def table(*moves: str, hands=None) -> Table:
    t = Table(game(), hands or HANDS, dealer="P1")
    t.do(*moves)
    return t


def last_trick_winner(t: Table) -> str:
    return t.game.seat_name(t.state.tricks.trick_winners[-1][0])


P2_DECLARES_AT_18 = ("P3 18", "P2 ja", "P3 passe", "P1 passe")


# ---------------------------------------------------------------------- the auction
def test_middlehand_says_to_forehand_who_holds_or_passes():
    t = table()
    assert t.to_act() == "P3" and {"passe", "18", "264"} <= set(t.legal()) and "ja" not in t.legal()
    t.do("P3 18")
    assert t.to_act() == "P2" and set(t.legal()) == {"ja", "passe"}
    t.do("P2 ja")
    assert t.to_act() == "P3" and "18" not in t.legal() and "20" in t.legal()


def test_passing_is_final_and_rearhand_says_to_the_survivor():
    t = table("P3 18", "P2 passe")
    assert t.to_act() == "P1" and "18" not in t.legal() and "20" in t.legal()
    t.do("P1 20")
    assert t.to_act() == "P3" and set(t.legal()) == {"ja", "passe"}      # P3 listens now
    t.do("P3 ja", "P1 passe")
    assert t.state.declarer == seat("P3") and t.state.vars["bid_value"] == 20


def test_the_survivor_of_both_duels_declares_at_the_value_held():
    t = table(*P2_DECLARES_AT_18)
    assert t.state.declarer == seat("P2") and t.state.vars["bid_value"] == 18
    assert t.to_act() == "P2" and set(t.legal()) == {"pick_up", "hand"}


def test_a_value_must_be_higher_than_the_standing_one():
    t = table("P3 20", "P2 ja")
    assert t.refused("P3 20") == "E518" and t.refused("P3 ja") == "E518"


def test_forehand_after_two_passes_may_bid_18_or_pass_and_all_passing_throws_the_deal_in():
    t = table("P3 passe", "P1 passe")
    assert t.to_act() == "P2" and set(t.legal()) == {"18", "passe"}
    t.do("P2 passe")
    assert t.state.is_terminal() and t.state.deal_results[-1]["delta"] == [0, 0, 0]
    alone = table("P3 passe", "P1 passe", "P2 18")
    assert alone.state.declarer == seat("P2") and alone.state.vars["bid_value"] == 18


# ---------------------------------------------------------------------- the Skat
def test_the_declarer_picks_up_the_skat_unseen_by_the_others_and_discards_two():
    t = table(*P2_DECLARES_AT_18, "P2 pick_up")
    assert {"9♦", "7♦"} <= t.hand("P2") and len(t.hand("P2")) == 12
    assert len(t.cards()) == 12
    assert t.state.observation(seat("P2"))["took"] == ["9♦", "7♦"]
    other = t.state.observation(seat("P3"))
    assert "took" not in other and other["hand_sizes"]["P2"] == 12 and other["talon_taken_by"] == "P2"
    assert "took 9♦ 7♦" in t.state.information_state_string(seat("P2"))
    assert "9♦" not in t.state.information_state_string(seat("P3"))
    t.do("P2 AC", "P2 10C")
    assert t.state.observation(seat("P2"))["my_discards"] == ["A♣", "10♣"]
    assert t.to_act() == "P2" and set(t.legal()) == {"suit", "grand", "null_game"}


def test_a_hand_game_keeps_the_skat_and_may_announce_schneider_schwarz_or_ouvert():
    t = table(*P2_DECLARES_AT_18, "P2 hand", "P2 suit", "P2 hearts")
    assert len(t.hand("P2")) == 10 and t.state.talon
    assert set(t.legal()) == {"simple", "schneider", "schwarz", "ouvert"}


def test_after_picking_up_no_announcement_is_left_but_a_null_may_be_ouvert():
    t = table(*P2_DECLARES_AT_18, "P2 pick_up", "P2 9D", "P2 7D", "P2 suit", "P2 hearts")
    assert t.to_act() == "P2" and t.cards() == t.hand("P2")   # simple, taken without asking: play starts
    null = table(*P2_DECLARES_AT_18, "P2 pick_up", "P2 9D", "P2 7D", "P2 null_game")
    assert set(null.legal()) == {"simple", "ouvert"}


def test_a_null_worth_less_than_the_bid_cannot_be_declared():
    t = table("P3 48", "P2 ja", "P3 passe", "P1 passe", "P2 pick_up", "P2 9D", "P2 7D")
    assert "null_game" not in t.legal() and t.refused("P2 null_game") == "E519"
    hand = table("P3 48", "P2 ja", "P3 passe", "P1 passe", "P2 hand")
    assert "null_game" in hand.legal()                            # Null Ouvert Hand is worth 59
    hand.do("P2 null_game")
    assert hand.state.vars["announcement"] == "ouvert" and hand.state.step.kind == "tricks"  # the only one left


# ---------------------------------------------------------------------- trumps and card order
def hearts_game() -> Table:
    return table(*P2_DECLARES_AT_18, "P2 hand", "P2 suit", "P2 hearts", "P2 simple")


def test_in_a_suit_game_the_jacks_lead_the_trumps_and_a_led_jack_asks_for_trumps():
    t = hearts_game()
    t.do("P2 JC")
    assert t.cards() == {"J♥"}                                  # P3's only trump is a Jack
    t.do("P3 JH")
    assert t.cards() == {"J♦", "Q♥", "8♥", "7♥"}
    t.do("P1 QH")
    assert last_trick_winner(t) == "P2"


def test_the_jacks_rank_clubs_spades_hearts_diamonds_above_the_ace_of_trumps():
    t = hearts_game()
    t.do("P2 AH", "P3 JH", "P1 JD")
    assert last_trick_winner(t) == "P3"


def test_in_a_grand_only_the_jacks_are_trumps():
    t = table(*P2_DECLARES_AT_18, "P2 hand", "P2 grand", "P2 simple")
    t.do("P2 AH")
    assert t.cards() == t.hand("P3")                            # J♥ is no heart: P3 is void
    t.do("P3 JH", "P1 QH")
    assert last_trick_winner(t) == "P3"


def test_in_a_null_there_are_no_trumps_and_the_ten_ranks_below_the_jack():
    t = table(*P2_DECLARES_AT_18, "P2 hand", "P2 null_game", "P2 simple")
    t.do("P2 10C", "P3 QC", "P1 7C")
    assert last_trick_winner(t) == "P3"
    t.do("P3 JH")
    assert t.cards() == {"Q♥", "8♥", "7♥"}                      # a Jack is a heart in a Null
    t.do("P1 8H", "P2 10H")
    assert last_trick_winner(t) == "P3"                              # J♥ beats 10♥


def test_an_ouvert_lays_the_declarers_hand_open_to_everyone():
    t = table(*P2_DECLARES_AT_18, "P2 hand", "P2 grand", "P2 ouvert")
    view = t.state.observation(seat("P3"))
    assert view["open_hand"] == "P2" and set(view["open_cards"]) == t.hand("P2")


# ---------------------------------------------------------------------- the value and the score
TRUMP_ORDER = {"clubs": "♣", "spades": "♠", "hearts": "♥", "diamonds": "♦"}
BASE = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12}
NULL_VALUE = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}


def skat_order_score(state) -> list[int]:
    """The declarer's score of a finished deal by the Skat Order, written here independently of the rules."""
    g = state.game
    n = g.num_players
    if state.declarer < 0:
        return [0] * n
    d, v = state.declarer, state.vars
    names = {c: g.deck.cards[c].name for c in range(g.num_cards)}
    others = [s for s in range(n) if s != d]
    held = {names[c] for c in range(g.num_cards) if not any(state.dealt[s] >> c & 1 for s in others)}
    skat = state.talon | state.discards[d]
    points = sum(g.deck.cards[c].points for c in range(g.num_cards) if (state.won[d] | skat) >> c & 1)
    tricks = state.tricks.taken[d]
    hand, ouvert = v["skat_play"] == "hand", v["announcement"] == "ouvert"
    if v["kind"] == "null_game":
        value, won = NULL_VALUE[(hand, ouvert)], tricks == 0
        return [value if s == d and won else -2 * value if s == d else 0 for s in range(n)]
    order = ["J♣", "J♠", "J♥", "J♦"]
    if v["kind"] == "suit":
        suit = g.deck.suits[v["trump"]].name
        order += [rank + TRUMP_ORDER[suit] for rank in ("A", "10", "K", "Q", "9", "8", "7")]
        base = BASE[suit]
    else:
        base = 24
    with_top = order[0] in held
    run = next((i for i, card in enumerate(order) if (card in held) != with_top), len(order))
    schneider = points >= 90 or points <= 30
    schwarz = tricks in (0, 10)
    said_schneider = v["announcement"] in ("schneider", "schwarz", "ouvert")
    said_schwarz = v["announcement"] in ("schwarz", "ouvert")
    levels = 1 + hand + schneider + said_schneider + schwarz + said_schwarz + ouvert
    value = base * (run + levels)
    won = points >= 61 and (not said_schneider or points >= 90) and (not said_schwarz or tricks == 10)
    if value < v["bid_value"]:
        won, value = False, base * -(-v["bid_value"] // base)
    return [(value if won else -2 * value) if s == d else 0 for s in range(n)]


def sensible_choice(state, legal: list[int], rng: random.Random) -> int:
    """A random move, with low bids and short auctions more likely than random bids make them."""
    names = [state.action_to_string(a) for a in legal]
    low = [a for a, name in zip(legal, names) if name in ("passe", "ja", "18", "20", "22", "23", "24", "27")]
    if low and rng.random() < 0.8:
        return rng.choice(low)
    return rng.choice(legal)


def test_every_deal_scores_as_the_skat_order_says():
    kinds, levels = set(), set()
    for seed in range(300):
        state = play_deal(game(), seed, sensible_choice)
        assert state.deal_results[-1]["delta"] == skat_order_score(state), seed
        if state.declarer >= 0:
            kinds.add(state.vars["kind"])
            levels.add((state.vars["skat_play"], state.vars["announcement"]))
            assert state.deal_results[-1]["delta"].count(0) == 2      # only the declarer scores
    assert kinds == {"suit", "grand", "null_game"}
    assert {("hand", "schneider"), ("pick_up", "simple"), ("hand", "ouvert")} <= levels


def test_matadors_with_and_against_count_the_unbroken_run_of_top_trumps():
    # P2 holds J♣ J♠ and not J♥: "with 2", hearts Hand, simple: (2 + 2) × 10 = 40 if won
    t = hearts_game()
    while not t.state.is_terminal():
        t.state.apply_action(t.state.legal_actions()[0])
    assert t.state.deal_results[-1]["delta"] == skat_order_score(t.state)
    assert abs(t.state.deal_results[-1]["delta"][seat("P2")]) in (40, 80, 50, 100, 60, 120, 70, 140)


def test_an_overbid_game_is_lost_at_the_smallest_multiple_of_its_base_reaching_the_bid():
    # P2 holds "with 2" in diamonds: with 2, game 3, Hand 4 → 36 < 40; lost at 5 × 9 = 45, twice: -90
    t = table("P3 40", "P2 ja", "P3 passe", "P1 passe", "P2 hand", "P2 suit", "P2 diamonds", "P2 simple")
    while not t.state.is_terminal():
        t.state.apply_action(t.state.legal_actions()[0])
    assert t.state.deal_results[-1]["delta"] == [0, -90, 0]


def test_the_hand_written_log_replays_to_its_score():
    outcome = replay(read_log(str(LOG)), game())
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert outcome.state.scores == [0, 40, 0]


# ---------------------------------------------------------------------- the Ramsch variant
@lru_cache(maxsize=None)
def ramsch_game():
    return load_game("skat-ramsch", max_deals=1)


def all_passed() -> Table:
    t = Table(ramsch_game(), HANDS, dealer="P1")
    t.do("P3 passe", "P1 passe", "P2 passe")
    return t


def test_when_all_pass_the_variant_plays_a_ramsch_with_nobody_declaring():
    t = all_passed()
    state = t.state
    assert state.contract == "ramsch" and state.declarer == -1 and t.to_act() == "P2"
    view = state.observation(seat("P3"))
    assert view["contract"] == "ramsch" and view["declarer"] is None
    t.do("P2 AH")
    assert t.cards() == t.hand("P3")                            # J♥ is no heart: only the Jacks are trumps
    t.do("P3 JH")
    assert t.cards() == {"Q♥", "8♥", "7♥"}


def ramsch_score(state) -> list[int]:
    """The Ramsch, written here: the Skat to the last trick's winner, the most points lose, Jungfrau doubles,
    Durchmarsch wins 120."""
    g = state.game
    last = state.tricks.trick_winners[-1][0]
    def points(s):
        cards = state.won[s] | (state.talon if s == last else 0)
        return sum(g.deck.cards[c].points for c in range(g.num_cards) if cards >> c & 1)
    taken = [state.tricks.taken[s] for s in range(3)]
    if 10 in taken:
        return [120 if t == 10 else 0 for t in taken]
    most = max(points(s) for s in range(3))
    factor = 2 if 0 in taken else 1
    return [-most * factor if points(s) == most else 0 for s in range(3)]


def test_every_ramsch_scores_as_the_club_rule_says():
    played = 0
    for seed in range(400):
        state = play_deal(ramsch_game(), seed, lambda st, legal, rng: (
            st.game.string_to_action("passe") if "passe" in [st.action_to_string(a) for a in legal]
            else rng.choice(legal)))
        assert state.contract == "ramsch"
        assert state.deal_results[-1]["delta"] == ramsch_score(state), seed
        played += 1
    assert played == 400


def test_a_ramsch_is_told_as_a_contract_with_nobody_declaring():
    from rulelang.interpreter.narrate import _contract
    assert _contract({"name": "ramsch", "title": "Ramsch", "declarer": None, "side": []}) == \
        ["contract: Ramsch, with nobody declaring"]


# ---------------------------------------------------------------------- tournament scoring (Seeger-Fabian)
@lru_cache(maxsize=None)
def tournament_game():
    return load_game("skat-tournament", max_deals=1)


def seeger_fabian_score(state) -> list[int]:
    """The Skat Order's score with the tournament's 50 for a game won or lost and 40 to each opponent of a lost
    game, written here from the Skat Tournament Rules."""
    order = skat_order_score(state)
    if state.declarer < 0:
        return order
    d = state.declarer
    if order[d] > 0:
        return [order[d] + 50 if s == d else 0 for s in range(len(order))]
    return [order[d] - 50 if s == d else 40 for s in range(len(order))]


def test_tournament_scoring_adds_fifty_a_game_and_forty_to_each_opponent_of_a_lost_one():
    outcomes = set()
    for seed in range(300):
        state = play_deal(tournament_game(), seed, sensible_choice)
        assert state.deal_results[-1]["delta"] == seeger_fabian_score(state), seed
        if state.declarer >= 0:
            outcomes.add(state.deal_results[-1]["delta"][state.declarer] > 0)
    assert outcomes == {True, False}


def test_a_won_tournament_game_scores_its_value_and_fifty_a_lost_one_pays_each_opponent_forty():
    won = Table(tournament_game(), HANDS, dealer="P1", talon="9D 7D")
    moves = [json.loads(line) for line in LOG.read_text(encoding="utf-8").splitlines()]
    won.do(*(f"{move['seat']} {move['action']}" for move in moves if move["type"] == "action"))
    assert won.state.deal_results[-1]["delta"] == [0, 40 + 50, 0]      # the logged hearts game, won at 40
    lost = Table(tournament_game(), HANDS, dealer="P1")
    lost.do(*P2_DECLARES_AT_18, "P2 hand", "P2 null_game", "P2 simple", "P2 AC")   # a Null's Ace takes the trick
    while not lost.state.is_terminal():
        lost.state.apply_action(lost.state.legal_actions()[0])
    assert lost.state.deal_results[-1]["delta"] == [40, -2 * 35 - 50, 40]
