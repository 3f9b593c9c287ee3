"""The trick rules as tables (rulelang.interpreter.trick_kernel) and the bitmask search on them
(kernel_search): the same value for every card as the search through the State API, in every shipped game the
tables cover; rules that read what moves during trick play are refused with the reason."""

from __future__ import annotations

import pytest

from helpers import named_deal, partnership_whist
from test_solver import trick_play_position
from rulelang.interpreter import solver, trick_kernel
from rulelang.loader import load_game, load_text

COVERED = [("bridge", 16), ("skat", 12), ("spades", 16), ("oh-hell", 12), ("preferans", 12), ("koenigrufen", 12),
           ("zwanzig-ab", 12), ("schafkopf", 12), ("zwanzigerrufen", 16), ("euchre", 16)]
ENOUGH = 6
"""Positions compared a game: the search through the State API is slow (Bridge's six take 8 s); the tables are
compared with DDS on many more Bridge positions in tests/test_solver.py."""


@pytest.mark.parametrize("name, cards_left", COVERED)
def test_the_tables_give_every_card_the_value_the_state_search_gives(name, cards_left):
    game = load_game(name, max_deals=1)
    compared = 0
    for seed in range(12):
        if compared == ENOUGH:
            break
        state = trick_play_position(game, seed, cards_left)
        if state is None or trick_kernel.trick_kernel(state) is None:
            continue
        on_tables, _ = solver.solve(state)
        assert on_tables == solver.solve_by_state(state)[0], f"{name}, seed {seed}"
        compared += 1
    assert compared >= 3


def test_a_special_winner_is_judged_by_the_rules_on_whole_tricks():
    """Zwanzigerrufen's Pagat takes a trick holding the Sküs and the Mond: the tables rank the tarocks by the
    `highest` rules and ask the rule file's winner of a trick that holds a named card."""
    game = load_game("zwanzigerrufen", max_deals=1)
    state = next(s for s in (trick_play_position(game, seed, 16) for seed in range(20)) if s is not None)
    kernel = trick_kernel.trick_kernel(state)
    cards = {name: game.deck.lookup[name.casefold()] for name in ("Sküs", "Mond", "Pagat", "XX", "XIX")}
    assert kernel.special == 1 << cards["Pagat"]
    trick = [(0, cards["Sküs"]), (1, cards["Mond"]), (2, cards["Pagat"]), (3, cards["XX"])]
    mask = sum(1 << card for _, card in trick)
    assert kernel.trick_winner(trick, mask) == 2
    without_mond = [(0, cards["Sküs"]), (1, cards["XIX"]), (2, cards["Pagat"]), (3, cards["XX"])]
    assert kernel.trick_winner(without_mond, sum(1 << card for _, card in without_mond)) == 0


@pytest.mark.parametrize("name", ["skat", "schafkopf", "koenigrufen", "zwanzigerrufen"])
def test_counting_card_points_the_tables_agree_with_the_state_search(name):
    game = load_game(name, max_deals=1)
    compared = 0
    for seed in range(10):
        state = trick_play_position(game, seed, 12)
        if state is None or trick_kernel.trick_kernel(state) is None:
            continue
        on_tables = solver.card_points(state)
        assert on_tables == solver.solve_by_state(state, points=True)[0], f"{name}, seed {seed}"
        assert max(on_tables.values()) <= sum(card.points for card in game.deck.cards)
        compared += 1
    assert compared >= 3


@pytest.mark.parametrize("name, reason", [
    ("hearts", "reads what changes during trick play"),        # hearts may not be led until broken
    ("doppelkopf", "copies of cards"),
    ("belote", "reads what changes during trick play"),        # over-trumping: the trick's cards decide
    ("five-hundred", "ends trick play early"),                 # misère stops at the bidder's first trick
    ("jass", "reads what changes during trick play"),          # the Puur alone need not follow trumps
])
def test_rules_the_tables_do_not_cover_say_why_and_are_searched_through_the_state(name, reason):
    game = load_game(name, max_deals=1)
    state = next(s for s in (trick_play_position(game, seed, 8) for seed in range(40)) if s is not None)
    assert reason in trick_kernel.why_not(state)
    assert trick_kernel.trick_kernel(state) is None
    assert solver.card_tricks(state) == solver.solve_by_state(state)[0]


WHIST = partnership_whist("whist-ending",
                          "  - deal: {each: 3}\n  - talon: rest\n  - set: {var: trump, value: hearts}",
                          "{among: seats, lead: forehand, follow: FOLLOW, "
                          "win: [{highest: trump}, {highest: led_suit}]}",
                          first_dealer=4)
ENDING = {0: "A♥ 2♠ 3♠", 1: "Q♥ A♠ K♠", 2: "K♥ A♣ K♣", 3: "2♦ 3♦ 4♦"}


def _ending(follow: str):
    """Three tricks of a whist with hearts trumps, P1 to lead: P1 ♥A ♠2 ♠3, P2 ♥Q ♠A ♠K, P3 ♥K ♣A ♣K,
    P4 ♦2 ♦3 ♦4."""
    game = load_text(WHIST.replace("FOLLOW", follow), "yaml", max_deals=1)
    state = named_deal(game, ENDING, 3)
    assert state.current_player() == 0
    return state


def test_a_whist_ending_in_card_names():
    """Leading the ♥A draws P2's ♥Q and P3's ♥K together: P2's spades then take two tricks. A spade lead
    lets P3 ruff with the ♥K, and the ♥A still takes a trick: two for P1 and P3."""
    state = _ending("[led_suit, any]")
    assert trick_kernel.trick_kernel(state) is not None
    values = solver.card_tricks(state)
    assert values == solver.solve_by_state(state)[0]
    names = {state.game.deck.cards[card].name: value for card, value in values.items()}
    assert names == {"A♥": 1, "2♠": 2, "3♠": 2}


def test_a_follow_rule_reading_the_hand_is_not_covered_but_still_solved():
    state = _ending("['if count(hand(player)) > 2 then led_suit else any', any]")
    assert "reads what changes during trick play" in trick_kernel.why_not(state)
    assert solver.card_tricks(state) == solver.solve_by_state(state)[0]


def test_the_tables_give_up_at_the_node_bound_and_leave_the_state_as_it_was():
    game = load_game("bridge", max_deals=1)
    state = trick_play_position(game, 5, 40)
    hands = list(state.hands)
    assert trick_kernel.trick_kernel(state) is not None
    assert solver.solve(state, max_nodes=30)[0] is None and state.hands == hands
