"""Contract Bridge against OpenSpiel's ``bridge`` (``use_double_dummy_result=false``), an implementation no one
here wrote (extra ``crosscheck``).

Each game is played in lock-step: OpenSpiel deals (card k of its deal to player k mod 4)
and picks every call and card at random; the same are applied to rulelang's ``bridge``.
At every decision both must agree on who chooses (the declarer for the dummy too) and on
the set of legal moves (bids above the last, double and redouble by the right side);
after every trick on who leads next; at the end on the returns, the duplicate score of the
contract, with either side vulnerable.
"""

from __future__ import annotations

import random

import pytest

from helpers import play_in_lock_step
from rulelang.interpreter.agents import ScriptedDeal
from rulelang.loader import load_text

pyspiel = pytest.importorskip("pyspiel")

RANKS, SUITS = "23456789TJQKA", "CDHS"          # OpenSpiel's card = 4 × rank + suit
STRAINS = ["clubs", "diamonds", "hearts", "spades", "notrump"]
CALLS = {52: "pass", 53: "double", 54: "redouble"}
VULNERABLE = {"none": (False, False), "dealer": (True, False), "both": (True, True)}


def our_game(dealer_vul: bool, other_vul: bool):
    """``bridge`` for one deal with OpenSpiel's vulnerability params."""
    text = (f"extends: bridge\nparams:\n  dealer_vulnerable: {str(dealer_vul).lower()}\n"
            f"  non_dealer_vulnerable: {str(other_vul).lower()}\n")
    return load_text(text, "yaml", max_deals=1)


def our_card(game, action: int) -> int:
    rank = RANKS[action // 4].replace("T", "10")
    return game.deck.lookup[f"{rank}{SUITS[action % 4]}".casefold()]


def our_action(game, action: int) -> int:
    if action in CALLS:
        return game.symbol_ids[CALLS[action]]
    if action >= 55:
        bid = action - 55
        return game.symbol_ids[f"{bid // 5 + 1}{STRAINS[bid % 5]}"]
    return our_card(game, action)


def random_call(rng, legal: list[int]) -> int:
    """Any legal call or card at random."""
    return rng.choice(legal)


def low_call(rng, legal: list[int]) -> int:
    """A part score or game contract: the first bid between 1♣ and 4NT, doubled and redoubled at times, then
    passes; cards at random. Random auctions end far too high for any contract to be made."""
    bids = [a for a in legal if a >= 55]
    if 54 in legal and rng.random() < 0.3:
        return 54
    if 53 in legal and rng.random() < 0.3:
        return 53
    if 52 in legal and len(bids) == 35:
        return rng.choice(bids[:20])
    return 52 if 52 in legal else rng.choice(legal)


def lock_step(spiel_game, game, seed: int, choose=random_call):
    """One OpenSpiel game, moves picked by ``choose``, replayed in rulelang and compared at every step; both final
    states and the leaders of tricks 2..13."""
    rng = random.Random(seed)
    theirs, ours = spiel_game.new_initial_state(), game.new_initial_state()
    hands = {seat: [] for seat in range(4)}
    while theirs.is_chance_node():
        action = rng.choice(theirs.legal_actions())
        hands[len(theirs.history()) % 4].append(game.deck.cards[our_card(game, action)].name)
        theirs.apply_action(action)
    ScriptedDeal(game, hands).play(ours)
    leaders = play_in_lock_step(theirs, ours, lambda a: our_action(game, a), choose, rng)
    return theirs, ours, leaders


@pytest.mark.parametrize("auction", ["random", "low"])
@pytest.mark.parametrize("vulnerable", VULNERABLE)
def test_random_games_of_openspiel_bridge_have_the_same_calls_moves_trick_winners_and_returns(vulnerable, auction):
    dealer_vul, other_vul = VULNERABLE[vulnerable]
    spiel_game = pyspiel.load_game("bridge", {"use_double_dummy_result": False, "dealer_vul": dealer_vul,
                                              "non_dealer_vul": other_vul})
    game = our_game(dealer_vul, other_vul)
    doubled = made = down = 0
    for seed in range(300 if vulnerable == "none" else 100):
        theirs, ours, leaders = lock_step(spiel_game, game, seed, random_call if auction == "random" else low_call)
        assert leaders == [seat for seat, _ in ours.tricks.trick_winners][:-1]
        assert ours.returns() == theirs.returns(), f"seed {seed}: {ours.returns()} against {theirs.returns()}"
        if ours.declarer >= 0:
            doubled += ours.vars["doubling"] > 0
            result = sum(ours.tricks.taken[s] for s in (ours.declarer, ours.declarer ^ 2)) - 6 - ours.vars["level"]
            made, down = made + (result >= 0), down + (result < 0)
    assert doubled and down and (made or auction == "random")       # random auctions end too high to make
