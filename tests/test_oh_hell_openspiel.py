"""Oh Hell against OpenSpiel's ``oh_hell``, an implementation no one here wrote (extra ``crosscheck``).

Each game is played in lock-step: OpenSpiel draws the dealer, the deal and the turned-up
card and picks every bid and card at random; the same deal and moves are applied to
rulelang's ``oh-hell``, sized by ``players`` and params exactly as OpenSpiel's parameters
size it. At every decision both must agree on whose turn it is and on the set of legal
moves (the dealer's forbidden bid included); after every trick on who leads next; at the
end on the returns.
"""

from __future__ import annotations

import random

import pytest

from rulelang.interpreter.agents import ScriptedDeal
from rulelang.loader import load_text

pyspiel = pytest.importorskip("pyspiel")

RANKS, SUITS = "23456789TJQKA", "CDSH"          # OpenSpiel's card = rank × num_suits + suit

# (players, num_suits, num_cards_per_suit, tricks, off_bid_penalty, points_per_trick, games)
TABLES = {
    "default": (3, 4, 13, 7, False, 1, 300),
    "four-five": (4, 4, 13, 5, False, 1, 100),
    "seven": (7, 4, 13, 7, False, 1, 60),
    "small-pack-penalty": (5, 3, 9, 4, True, 2, 100),
    "every-card": (3, 2, 5, 3, False, 1, 100),
    "one-trick": (6, 4, 13, 1, True, 1, 100),
}


def our_game(players: int, suits: int, ranks: int, tricks: int, penalty: bool, per_trick: int):
    """``oh-hell`` as a variant of one table size, one deal long."""
    text = (f"extends: oh-hell\nplayers: {players}\nparams:\n  hand_size: {tricks}\n  num_suits: {suits}\n"
            f"  num_cards_per_suit: {ranks}\n  off_bid_penalty: {str(penalty).lower()}\n"
            f"  points_per_trick: {per_trick}\n")
    return load_text(text, "yaml", max_deals=1)


class LockStep:
    """One OpenSpiel game and the same game in rulelang, advanced together."""

    def __init__(self, spiel_game, game, seed: int, suits: int):
        self.game, self.rng, self.suits = game, random.Random(seed), suits
        self.players = game.num_players
        self.theirs, self.ours = spiel_game.new_initial_state(), game.new_initial_state()
        self.deck_size = spiel_game.get_parameters()["num_suits"] * spiel_game.get_parameters()["num_cards_per_suit"]

    def card_of(self, action: int) -> int:
        """rulelang's card for OpenSpiel's card action."""
        rank = RANKS[action // self.suits].replace("T", "10")
        return self.game.deck.lookup[f"{rank}{SUITS[action % self.suits]}".casefold()]

    def ours_of(self, action: int) -> int:
        """rulelang's action for OpenSpiel's bid or card action."""
        if action >= self.deck_size:
            return self.game.symbol_ids[str(action - self.deck_size)]
        return self.card_of(action)

    def deal(self) -> tuple[int, str]:
        """OpenSpiel draws the trick count, the dealer, the hands (card k to player k mod n) and the trump card;
        rulelang is given the same. Returns the dealer and the turned-up card."""
        theirs, hands, dealer, turned = self.theirs, {seat: [] for seat in range(self.players)}, None, None
        dealt = 0
        while theirs.is_chance_node():
            action = self.rng.choice(theirs.legal_actions())
            step = len(theirs.history())
            if step == 1:
                dealer = action
            elif step >= 2:
                name = self.game.deck.cards[self.card_of(action)].name
                if dealt < self.players * self.hand_size:
                    hands[dealt % self.players].append(name)
                else:
                    turned = name
                dealt += 1
            theirs.apply_action(action)
        ScriptedDeal(self.game, hands, talon=[turned], dealer=dealer).play(self.ours)
        return dealer, turned

    @property
    def hand_size(self) -> int:
        return self.game.definition.params["hand_size"]

    def play(self) -> list[int]:
        """Every bid and card at random on OpenSpiel's side, checked and applied on ours; the leaders of later tricks."""
        theirs, ours, leaders = self.theirs, self.ours, []
        while not theirs.is_terminal():
            assert ours.current_player() == theirs.current_player(), self.where()
            legal = sorted(self.ours_of(a) for a in theirs.legal_actions())
            assert sorted(ours.legal_actions()) == legal, self.where()
            action = self.rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            ours.apply_action(self.ours_of(action))
            if ours.tricks.trick == [] and ours.tricks.trick_winners and not theirs.is_terminal():
                leaders.append(theirs.current_player())
        assert ours.is_terminal()
        return leaders

    def where(self) -> str:
        return f"after {len(self.theirs.history())} OpenSpiel actions:\n{self.theirs}"


@pytest.mark.parametrize("table", TABLES)
def test_random_games_of_openspiel_oh_hell_have_the_same_bids_moves_trick_winners_and_returns(table):
    players, suits, ranks, tricks, penalty, per_trick, games = TABLES[table]
    spiel_game = pyspiel.load_game("oh_hell", {
        "players": players, "num_suits": suits, "num_cards_per_suit": ranks, "num_tricks_fixed": tricks,
        "off_bid_penalty": penalty, "points_per_trick": per_trick})
    game = our_game(players, suits, ranks, tricks, penalty, per_trick)
    assert game.num_cards == suits * ranks
    exact, dealers = 0, set()
    for seed in range(games):
        lock = LockStep(spiel_game, game, seed, suits)
        dealer, turned = lock.deal()
        assert lock.ours.dealer == dealer
        assert lock.ours.var_text("trump") == game.deck.suits[game.deck.cards[game.deck.lookup[turned.casefold()]].suit].name
        leaders = lock.play()
        winners = [seat for seat, _ in lock.ours.tricks.trick_winners]
        assert leaders == winners[:-1]
        assert lock.ours.returns() == lock.theirs.returns(), lock.where()
        dealers.add(dealer)
        exact += sum(lock.ours.tricks.taken[s] == lock.ours.bids.said[s] for s in range(players))
    assert dealers == set(range(players))
    assert exact > 0                                    # some bids are made, so the bonus is compared too
