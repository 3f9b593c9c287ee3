"""Sheepshead (games/sheepshead.yaml) in card names, and 300 random deals scored by an independent reading of
the rules (sheepsheadrules.com's scoring, Wikipedia's card order and points)."""

from __future__ import annotations

import random

import pytest

from helpers import legal_names as legal, named_deal, play_deal, say
from rulelang.interpreter.agents import ScriptedDeal
from rulelang.loader import load_game

TRUMPS = "Q♣ Q♠ Q♥ Q♦ J♣ J♠ J♥ J♦ A♦ 10♦ K♦ 9♦ 8♦ 7♦".split()
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}


@pytest.fixture(scope="module")
def game():
    return load_game("sheepshead", max_deals=1)


def deal(game, named: dict[int, str], blind: str = ""):
    """Seats 0-4 hold the cards named (the rest dealt in deck order); the blind is ``blind`` then the rest. P5
    deals, so P1 is forehand."""
    return named_deal(game, named, 6, blind, dealer=4)


def test_the_first_to_pick_takes_the_blind_and_the_jack_of_diamonds_is_his_partner(game):
    state = deal(game, {1: "J♦"})
    say(state, "pick", "pass", "pass", "pass", "pass")                  # P1 picks; P2 holds the J♦
    assert state.declarer == 0 and state.side_mask == 0b11
    assert len(legal(state)) == 8                            # six cards and the blind: he buries two


def test_a_picker_holding_the_jack_of_diamonds_plays_alone(game):
    state = deal(game, {1: "J♦"})
    say(state, "pass", "pick", "pass", "pass", "pass")
    assert state.declarer == 1 and state.side_mask == 1 << 1


def test_nobody_picking_plays_a_leaster(game):
    state = deal(game, {})
    say(state, "pass", "pass", "pass", "pass", "pass")
    assert state.contract == "leaster" and state.declarer == -1 and state.phase.kind == "tricks"


def test_the_lowest_diamond_trumps_a_fail_ace(game):
    state = deal(game, {0: "A♥ 9♠", 1: "7♦ 8♠", 2: "9♥ 7♠", 3: "10♥ K♠", 4: "K♥ 10♠"})
    say(state, "pass", "pass", "pass", "pass", "pass")       # a Leaster; P1 leads
    say(state, "A♥", "7♦", "9♥", "10♥", "K♥")
    assert state.tricks.taken == [0, 1, 0, 0, 0]


def test_the_queens_and_jacks_rank_above_the_diamonds_clubs_first(game):
    state = deal(game, {0: "J♣", 1: "Q♠", 2: "A♦", 3: "Q♣", 4: "J♦"})
    say(state, "pass", "pass", "pass", "pass", "pass")
    say(state, "J♣", "Q♠", "A♦", "Q♣", "J♦")
    assert state.tricks.taken == [0, 0, 0, 1, 0]


def test_a_queen_of_hearts_is_a_trump_and_does_not_follow_hearts(game):
    state = deal(game, {0: "A♥", 1: "Q♥ 8♠ 9♠ 10♠ K♠ 7♠"})
    say(state, "pass", "pass", "pass", "pass", "pass")
    say(state, "A♥")
    assert legal(state) == {"Q♥", "8♠", "9♠", "10♠", "K♠", "7♠"}        # no heart: anything


def test_a_trump_led_must_be_followed_with_a_trump(game):
    state = deal(game, {0: "Q♣", 1: "J♥ A♥ 8♠ 9♠ 10♠ K♠"})
    say(state, "pass", "pass", "pass", "pass", "pass")
    say(state, "Q♣")
    assert legal(state) == {"J♥"}


def test_the_leaster_blind_goes_to_the_winner_of_the_last_trick(game):
    state = deal(game, {}, blind="A♣ 10♣")
    say(state, "pass", "pass", "pass", "pass", "pass")
    rng = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            ScriptedDeal(game, {}, talon=game.deck.names(state.talon)).play(state)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    last = state.tricks.trick_winners[-1][0]
    assert set(game.deck.names(state.won[last])) >= {"A♣", "10♣"}


# ---------------------------------------------------------------------- an independent scorer
def points(names) -> int:
    return sum(POINTS.get(name[:-1], 0) for name in names)


def expected_scores(game, state) -> list[int]:
    """Each seat's score for the finished deal, from the piles, as the sources state the rules."""
    names = game.deck.names
    won = [names(pile) for pile in state.won]
    tricks = state.deal_results[-1]["tricks"]
    if state.contract == "leaster":
        eligible = [p for p in range(5) if tricks[p] > 0]
        low = min(points(won[p]) for p in eligible)
        winners = [p for p in eligible if points(won[p]) == low]
        return [5 - len(winners) if p in winners else -len(winners) for p in range(5)]
    picker = state.declarer
    holder = next((p for p in range(5) if "J♦" in names(state.dealt[p])), picker)
    side = {picker, holder}
    side_points = sum(points(won[p]) for p in side) + points(names(state.discards[picker]))
    side_tricks = sum(tricks[p] for p in side)
    if side_tricks == 6:
        stake = 3
    elif side_points >= 91:
        stake = 2
    elif side_points >= 61:
        stake = 1
    elif side_tricks == 0:
        stake = -3
    elif side_points <= 30:
        stake = -2
    else:
        stake = -1
    alone = len(side) == 1
    return [(4 if alone else 2) * stake if p == picker else stake if p in side else -stake for p in range(5)]


def test_three_hundred_random_deals_score_as_an_independent_reading_of_the_rules(game):
    kinds = {}
    for seed in range(300):
        state = play_deal(game, seed, lambda state, legal, rng: rng.choice(legal))
        assert state.deal_results[-1]["delta"] == expected_scores(game, state), f"seed {seed}"
        assert sum(state.deal_results[-1]["delta"]) == 0
        kind = state.contract if state.contract == "leaster" else "alone" if bin(state.side_mask).count("1") == 1 \
            else "partners"
        kinds[kind] = kinds.get(kind, 0) + 1
    assert set(kinds) == {"leaster", "alone", "partners"}, kinds


# ---------------------------------------------------------------------- the called-Ace variant
@pytest.fixture(scope="module")
def called_ace():
    return load_game("sheepshead-called-ace", max_deals=1)


def picked_and_called(game, p3: str):
    """P1 picks with five trumps and the 7♥, buries the blind's 7♣ 8♣ and so calls the A♥, which P3 holds."""
    state = deal(game, {0: "Q♣ Q♠ Q♥ Q♦ J♣ 7♥", 2: p3}, blind="7♣ 8♣")
    say(state, "pick", "pass", "pass", "pass", "pass", "7♣", "8♣")
    assert state.called == game.deck.lookup["a♥"] and state.side_mask == 0b101
    return state


def test_the_partner_must_play_the_called_ace_the_first_time_its_suit_is_led(called_ace):
    state = picked_and_called(called_ace, "A♥ 8♥ 9♠ 8♠ 7♠ K♠")
    say(state, "7♥")
    say(state, sorted(legal(state))[0])                            # P2 (no heart) plays anything
    assert legal(state) == {"A♥"}                                   # P3 must play the Ace, not the 8♥


def test_the_partner_may_not_throw_off_the_called_ace_before_its_suit_is_led(called_ace):
    state = picked_and_called(called_ace, "A♥ 8♥ 9♠ 8♠ 7♠ K♠")
    say(state, "Q♣")
    say(state, sorted(legal(state))[0])
    assert "A♥" not in legal(state) and {"8♥", "9♠"} <= legal(state)   # no trump: anything but the Ace


def test_the_picker_keeps_his_last_card_of_the_called_suit(called_ace):
    """P1 deals, so he speaks last: he picks, and forehand P2 leads a spade, of which P1 has none."""
    state = named_deal(called_ace, {0: "Q♣ Q♠ Q♥ Q♦ J♣ 7♥", 1: "A♠ 10♠", 2: "A♥ 8♥"}, 6, "7♣ 8♣", dealer=0)
    say(state, "pass", "pass", "pass", "pass", "pick", "7♣", "8♣")
    assert state.called == called_ace.deck.lookup["a♥"]
    say(state, "A♠")
    while state.current_player() != 0:
        say(state, sorted(legal(state))[0])
    assert "7♥" not in legal(state) and "Q♣" in legal(state)       # his only heart stays until hearts are led
