"""Oh Hell (games/oh-hell.yaml), rule by rule in card names.

The pack sized by params as OpenSpiel sizes it; the card turned up after the deal, whose
suit is trumps, seen by everyone and held by nobody; one round of bids from forehand in
which the dealer, bidding last, may not make the bids add up to the tricks; following
suit, the highest trump winning; a point a trick and ten for an exact bid (or the
off-bid penalty); a match of rounds in which every player deals in turn. The whole deal
against OpenSpiel is tests/test_oh_hell_openspiel.py; ``tests/logs/oh-hell-exact-bids.jsonl``
is a hand-written deal that replays to its scores.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from helpers import LOGS, Table, seat
from rulelang.interpreter.log import read_log
from rulelang.interpreter.replay import replay
from rulelang.interpreter.state import IllegalActionError
from rulelang.loader import load_game, load_text

LOG = LOGS / "oh-hell-exact-bids.jsonl"

HANDS = {"P1": "A♠ K♠ 2♥", "P2": "Q♠ 3♥ 4♣", "P3": "5♦ 6♦ 7♥"}


@lru_cache(maxsize=None)
def variant(**params) -> object:
    """``oh-hell`` with some params changed, one deal long."""
    lines = "".join(f"  {key}: {str(value).lower()}\n" for key, value in params.items())
    return load_text(f"extends: oh-hell\nparams:\n{lines}", "yaml", max_deals=1)


def three_cards(**params) -> Table:
    """Three cards each, P3 deals, 8♥ turned up: hearts are trumps, P1 bids first."""
    return Table(variant(hand_size=3, **params), HANDS, talon="8♥", dealer="P3")


def numbers(t: Table) -> set[str]:
    return set(t.legal())


# ---------------------------------------------------------------------- the pack and the turn-up
def test_the_pack_is_sized_by_params_from_two_up_in_openspiels_suit_order():
    game = variant(num_suits=2, num_cards_per_suit=5, hand_size=3)
    assert [c.name for c in game.deck.cards] == "6♣ 5♣ 4♣ 3♣ 2♣ 6♦ 5♦ 4♦ 3♦ 2♦".split()
    assert load_game("oh-hell").num_cards == 52


def test_the_turned_up_card_makes_trumps_is_seen_by_everyone_and_held_by_nobody():
    t = three_cards()
    st = t.state
    assert st.var_text("trump") == "hearts" and st.var_text("turned") == "8♥"
    for player in range(3):
        assert st.observation(player)["turned_up"] == ["8♥"]
        assert "8♥" in st.information_state_string(player).split()
        assert "8♥" not in st.observation(player)["hand"]
    assert st.card_places()["turned up"] == 1 << t.game.deck.lookup["8♥".casefold()]


# ---------------------------------------------------------------------- the bids
def test_bids_go_round_from_forehand_and_everyone_hears_them():
    t = three_cards()
    assert t.to_act() == "P1" and numbers(t) == {"0", "1", "2", "3"}
    t.do("P1 2", "P2 0")
    assert t.state.observation(seat("P3"))["bids"] == {"P1": 2, "P2": 0}


def test_the_dealer_may_not_make_the_bids_add_up_to_the_tricks():
    t = three_cards()
    t.do("P1 2", "P2 1")
    assert t.to_act() == "P3" and numbers(t) == {"1", "2", "3"}
    with pytest.raises(IllegalActionError) as error:
        t.state.apply_checked(t.game.string_to_action("0"))
    assert error.value.diagnostic.code == "E514" and "P3 may not bid 0" in error.value.diagnostic.message


def test_a_dealer_with_one_number_left_is_still_asked():
    t = Table(variant(hand_size=1), {"P1": "A♠", "P2": "2♣", "P3": "3♦"}, talon="8♥", dealer="P3")
    t.do("P1 1", "P2 0")
    assert t.to_act() == "P3" and numbers(t) == {"1"}


def test_only_the_dealer_is_restricted():
    t = three_cards()
    t.do("P1 3")
    assert numbers(t) == {"0", "1", "2", "3"}                 # P2 may bid 0 although 3 + 0 = 3


# ---------------------------------------------------------------------- the play
def test_a_player_follows_suit_else_plays_anything_and_the_highest_trump_wins():
    t = three_cards()
    t.do("P1 1", "P2 1", "P3 0", "P1 A♠")
    assert numbers(t) == {"Q♠"}
    t.do("P2 Q♠")
    assert numbers(t) == {"5♦", "6♦", "7♥"}                   # P3 has no spade
    t.do("P3 7♥")
    assert t.game.seat_name(t.state.tricks.trick_winners[-1][0]) == "P3" and t.to_act() == "P3"


# ---------------------------------------------------------------------- the score
def play_out(t: Table, *moves: str) -> list[int]:
    t.do(*moves)
    assert t.state.is_terminal()
    return t.state.deal_results[-1]["delta"]


DEAL = ("P1 2", "P2 0", "P3 0",
        "P1 A♠", "P2 Q♠", "P3 5♦",          # P1
        "P1 K♠", "P2 4♣", "P3 6♦",          # P1
        "P1 2♥", "P2 3♥", "P3 7♥")          # P3


def test_a_point_a_trick_and_ten_more_for_an_exact_bid():
    assert play_out(three_cards(), *DEAL) == [2 + 10, 0 + 10, 1]


def test_with_the_off_bid_penalty_a_missed_bid_costs_a_point_per_trick_off():
    assert play_out(three_cards(off_bid_penalty=True, points_per_trick=2), *DEAL) == [2 * 2 + 10, 10, -2]


# ---------------------------------------------------------------------- variants, the match, worlds
def test_a_table_size_and_hand_size_are_a_variant_of_players_and_params():
    game = load_text("extends: oh-hell\nplayers: 5\nparams:\n  hand_size: 10\n", "yaml")
    st = game.new_initial_state()
    rng = random.Random(4)
    st.apply_chance(rng)
    assert [bin(h).count("1") for h in st.hands] == [10] * 5 and bin(st.talon).count("1") == 1
    assert sorted(int(game.action_to_string(a)) for a in st.legal_actions()) == list(range(11))


def test_every_player_deals_in_turn_for_rounds_rounds():
    game = load_game("oh-hell")
    st = game.new_initial_state()
    rng, dealers = random.Random(2), []
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_chance(rng)
            if st.deal_number == len(dealers) and not st.is_terminal():
                dealers.append(st.dealer)
            continue
        st.apply_action(rng.choice(st.legal_actions()))
    assert len(dealers) == 9 and all(dealers.count(s) == 3 for s in range(3))


def test_a_resampled_state_keeps_the_turned_card_and_deals_the_unseen_cards_anew():
    game = load_game("oh-hell")
    st = game.new_initial_state()
    rng = random.Random(9)
    st.apply_chance(rng)
    st.apply_action(st.legal_actions()[1])
    moved = 0
    for _ in range(20):
        world = st.resample_from_infostate(0, rng)
        assert world.information_state_string(0) == st.information_state_string(0)
        assert world.vars["turned"] == st.vars["turned"] and world.hands[0] == st.hands[0]
        moved += world.talon != st.talon
    assert moved                                              # the undealt cards are as unknown as the hands


def test_the_hand_written_log_replays_to_its_scores():
    outcome = replay(read_log(str(LOG)), variant(hand_size=3))
    assert outcome.ok, outcome.problem and outcome.problem.render()
    assert outcome.state.scores == [12, 10, 1]
