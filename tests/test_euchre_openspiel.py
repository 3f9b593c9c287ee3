"""Euchre against OpenSpiel's ``euchre``, an implementation no one here wrote (extra ``crosscheck``).

Each game is played in lock-step: OpenSpiel draws the dealer, the deal and the turn-up and
picks every bid, discard, go-alone choice and card at random; the same are applied to
rulelang's ``euchre``. At every decision both must agree on whose turn it is and on the
set of legal moves (ordering up in the first round, another suit in the second, stick the
dealer, the dealer's discard, the bowers followed as trumps, a lone maker's partner left
out); after every trick on who leads next; at the end on the returns.
"""

from __future__ import annotations

import random

import pytest

from helpers import play_in_lock_step
from rulelang.interpreter.agents import ScriptedDeal
from rulelang.loader import load_text

pyspiel = pytest.importorskip("pyspiel")

RANKS, SUITS = "9TJQKA", "CDHS"                 # OpenSpiel's card = 4 × rank + suit
WORDS = {24: "pass", 25: "clubs", 26: "diamonds", 27: "hearts", 28: "spades", 29: "alone", 30: "partner"}


def our_game(stick: bool = True):
    """``euchre`` for one deal, as OpenSpiel plays it."""
    return load_text(f"extends: euchre\nparams:\n  stick_the_dealer: {str(stick).lower()}\n", "yaml", max_deals=1)


def our_card(game, action: int) -> int:
    rank = RANKS[action // 4].replace("T", "10")
    return game.deck.lookup[f"{rank}{SUITS[action % 4]}".casefold()]


def our_action(game, action: int) -> int:
    return game.symbol_ids[WORDS[action]] if action in WORDS else our_card(game, action)


def lock_step(spiel_game, game, seed: int):
    """One random OpenSpiel game replayed in rulelang, compared at every step; both final states and leaders."""
    rng = random.Random(seed)
    theirs, ours = spiel_game.new_initial_state(), game.new_initial_state()
    hands, dealer, upcard = {seat: [] for seat in range(4)}, None, None
    while theirs.is_chance_node():
        action = rng.choice(theirs.legal_actions())
        dealt = len(theirs.history()) - 1
        if dealer is None:
            dealer = action
        elif dealt < 20:
            hands[(dealer + dealt) % 4].append(game.deck.cards[our_card(game, action)].name)
        else:
            upcard = game.deck.cards[our_card(game, action)].name
        theirs.apply_action(action)
    ScriptedDeal(game, hands, talon=[upcard], dealer=dealer).play(ours)
    leaders = play_in_lock_step(theirs, ours, lambda a: our_action(game, a), lambda r, legal: r.choice(legal), rng)
    return theirs, ours, leaders


@pytest.mark.parametrize("stick", [True, False])
def test_random_games_of_openspiel_euchre_have_the_same_moves_trick_winners_and_returns(stick):
    spiel_game = pyspiel.load_game("euchre", {"stick_the_dealer": stick})
    game = our_game(stick)
    alone = second_round = 0
    for seed in range(300 if stick else 100):
        theirs, ours, leaders = lock_step(spiel_game, game, seed)
        assert leaders == [seat for seat, _ in ours.tricks.trick_winners][:-1]
        assert ours.returns() == theirs.returns(), f"seed {seed}: {ours.returns()} against {theirs.returns()}"
        alone += bin(ours.active).count("1") == 3
        second_round += ours.declarer >= 0 and ours.vars["trump"] != ours.game.deck.cards[ours.vars["turned"]].suit
    assert alone and second_round                  # lone makers and second-round trumps are compared too


def test_without_stick_the_dealer_eight_passes_throw_the_deal_in_in_both_engines():
    spiel_game, game = pyspiel.load_game("euchre", {"stick_the_dealer": False}), our_game(stick=False)
    theirs, ours = spiel_game.new_initial_state(), game.new_initial_state()
    rng, hands = random.Random(5), {seat: [] for seat in range(4)}
    theirs.apply_action(0)                                     # North (P1) deals
    for dealt in range(21):
        action = rng.choice(theirs.legal_actions())
        if dealt < 20:
            hands[dealt % 4].append(game.deck.cards[our_card(game, action)].name)
        upcard = game.deck.cards[our_card(game, action)].name
        theirs.apply_action(action)
    ScriptedDeal(game, hands, talon=[upcard], dealer=0).play(ours)
    for _ in range(8):
        assert ours.current_player() == theirs.current_player()
        theirs.apply_action(24)
        ours.apply_action(our_action(game, 24))
    assert theirs.is_terminal() and ours.is_terminal()
    assert ours.returns() == theirs.returns() == [0, 0, 0, 0]
