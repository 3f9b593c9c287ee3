"""Spades against OpenSpiel's ``spades``, an implementation no one here wrote (extra ``crosscheck``).

Each game is played in lock-step: OpenSpiel deals (card k of its deal to player k mod 4) and
picks every bid and card at random; the same deal and moves are applied to rulelang's
``spades`` (P1 is OpenSpiel's player 0, who bids and leads first). At every decision both
must agree on whose turn it is and on the set of legal moves (partners' bids capped at 13,
spades led only by a player who holds nothing else); after every trick on who leads next;
at the end on the returns, each partnership's score for the deal: contracts, bags, Nils.
"""

from __future__ import annotations

import random

import pytest

from helpers import play_in_lock_step
from rulelang.interpreter.agents import ScriptedDeal
from rulelang.loader import load_text

pyspiel = pytest.importorskip("pyspiel")

RANKS, SUITS = "23456789TJQKA", "CDHS"          # OpenSpiel's card = 13 × suit + rank
GAMES = 300


def our_card(game, action: int) -> int:
    """rulelang's card for OpenSpiel's card action."""
    rank = RANKS[action % 13].replace("T", "10")
    return game.deck.lookup[f"{rank}{SUITS[action // 13]}".casefold()]


def our_action(game, action: int) -> int:
    """rulelang's action for OpenSpiel's bid (52 + n) or card action."""
    return game.symbol_ids[str(action - 52)] if action >= 52 else our_card(game, action)


def lock_step(spiel_game, game, seed: int):
    """One random OpenSpiel game replayed in rulelang, compared at every step; both final states."""
    rng = random.Random(seed)
    theirs, ours = spiel_game.new_initial_state(), game.new_initial_state()
    hands = {seat: [] for seat in range(4)}
    while theirs.is_chance_node():
        action = rng.choice(theirs.legal_actions())
        hands[len(theirs.history()) % 4].append(game.deck.cards[our_card(game, action)].name)
        theirs.apply_action(action)
    ScriptedDeal(game, hands, dealer=3).play(ours)
    leaders = play_in_lock_step(theirs, ours, lambda a: our_action(game, a), lambda r, legal: r.choice(legal), rng)
    return theirs, ours, leaders


def test_random_games_of_openspiel_spades_have_the_same_bids_moves_trick_winners_and_returns():
    spiel_game = pyspiel.load_game("spades")
    game = load_text("extends: spades\n", "yaml", max_deals=1)
    nils = made = failed = 0
    for seed in range(GAMES):
        theirs, ours, leaders = lock_step(spiel_game, game, seed)
        assert leaders == [seat for seat, _ in ours.tricks.trick_winners][:-1]
        assert ours.returns() == theirs.returns(), f"seed {seed}: {ours.returns()} against {theirs.returns()}"
        assert ours.returns()[0] == ours.returns()[2] and ours.returns()[1] == ours.returns()[3]
        said, taken = ours.bids.said, ours.tricks.taken
        nils += said.count(0)
        for team in ((0, 2), (1, 3)):
            made += sum(taken[s] for s in team) >= sum(said[s] for s in team)
            failed += sum(taken[s] for s in team) < sum(said[s] for s in team)
    assert nils and made and failed                 # Nils, made and broken contracts are all compared


def test_ten_bags_cost_a_hundred_and_a_nil_made_earns_a_hundred_in_both_engines():
    """P1 holds every spade and takes all 13 tricks on a bid of 1; his partner's Nil holds; P2 and P4 fail."""
    spiel_game = pyspiel.load_game("spades")
    game = load_text("extends: spades\n", "yaml", max_deals=1)
    spades = [39 + rank for rank in range(13)]
    others = [card for card in range(52) if card not in spades]
    hands = {0: spades, 1: others[0::3], 2: others[1::3], 3: others[2::3]}
    theirs, ours = spiel_game.new_initial_state(), game.new_initial_state()
    for place in range(52):
        theirs.apply_action(hands[place % 4][place // 4])
    named = {seat: [game.deck.cards[our_card(game, c)].name for c in cards] for seat, cards in hands.items()}
    ScriptedDeal(game, named, dealer=3).play(ours)
    for bid in (1, 1, 0, 1):
        theirs.apply_action(52 + bid)
        ours.apply_action(our_action(game, 52 + bid))
    while not theirs.is_terminal():
        assert sorted(ours.legal_actions()) == sorted(our_action(game, a) for a in theirs.legal_actions())
        action = theirs.legal_actions()[0]
        theirs.apply_action(action)
        ours.apply_action(our_action(game, action))
    assert ours.tricks.taken == [13, 0, 0, 0]
    # P1 and P3: 10 for the bid, 12 bags, -100 for ten of them, +100 for the Nil; P2 and P4: -20
    assert ours.returns() == theirs.returns() == [22, -20, 22, -20]
