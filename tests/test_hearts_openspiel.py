"""Hearts against OpenSpiel's ``hearts``, an implementation no one here wrote (extra ``crosscheck``).

Each game is played in lock-step: OpenSpiel draws the pass direction and the deal and picks
every move at random; the same deal and moves are applied to rulelang's ``hearts`` (with
``pass_by_chance``, the one-deal form OpenSpiel plays). At every decision both must agree
on whose turn it is and on the set of legal cards, the pass included; after every trick on
who leads next (the trick's winner); at the end on the returns, which OpenSpiel counts
from an upper bound of 26 (``26 - points``) where rulelang gives ``-points``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rulelang.interpreter.agents import ScriptedDeal
from rulelang.loader import load_text

pyspiel = pytest.importorskip("pyspiel")

RANKS, SUITS = "23456789TJQKA", "CDHS"
DIRECTIONS = {0: "hold", 1: "left", 2: "across", 3: "right"}   # OpenSpiel's PassDir
VARIANTS = {
    "hearts": ({}, 500),
    "hearts-omnibus": ({"jd_bonus": True}, 100),
    "hearts-no-pass": ({"pass_cards": False}, 100),
}


def one_deal_game(name: str):
    """rulelang's game ``name`` for one deal with the pass drawn by chance, as OpenSpiel plays it."""
    return load_text(f"extends: {name}\nparams:\n  pass_by_chance: true\n", "yaml", max_deals=1)


def card_of(game, action: int) -> int:
    """rulelang's card for OpenSpiel's card action (rank-major: 4 × rank + suit)."""
    rank = RANKS[action // 4].replace("T", "10")
    return game.deck.lookup[f"{rank}{SUITS[action % 4]}".casefold()]


class LockStep:
    """One OpenSpiel game and the same game in rulelang, advanced together."""

    def __init__(self, spiel_game, game, seed: int):
        self.game, self.rng = game, random.Random(seed)
        self.theirs, self.ours = spiel_game.new_initial_state(), game.new_initial_state()
        self.direction = "hold"
        self.hands: dict[int, list[str]] = {seat: [] for seat in range(4)}

    def deal(self, fixed: dict[int, list[str]] | None = None) -> None:
        """OpenSpiel draws the direction and the cards (or deals ``fixed`` hands without a pass); rulelang is
        given the same (P4 deals, so P1 passes first)."""
        theirs = self.theirs
        while theirs.is_chance_node():
            action = self.rng.choice(theirs.legal_actions()) if fixed is None else self.fixed_draw(fixed)
            if theirs.history() == []:
                self.direction = DIRECTIONS[action]
            else:
                dealt = len(theirs.history()) - 1
                self.hands[dealt % 4].append(self.game.deck.cards[card_of(self.game, action)].name)
            theirs.apply_action(action)
        script = ScriptedDeal(self.game, self.hands, dealer=3)
        ours = self.ours
        while ours.is_chance_node():
            legal = ours.legal_actions()
            if ours.sub != "first_dealer" and legal[0] >= self.game.num_cards:
                ours.apply_action(self.game.string_to_action(self.direction))
            else:
                ours.apply_action(script.step(ours))

    def fixed_draw(self, hands: dict[int, list[str]]) -> int:
        """The chance action that deals ``hands``: no pass, then each seat's next card in turn."""
        history = self.theirs.history()
        if not history:
            return 0
        seat, place = (len(history) - 1) % 4, (len(history) - 1) // 4
        rank, suit = hands[seat][place][:-1].replace("10", "T"), "♣♦♥♠".index(hands[seat][place][-1])
        return 4 * RANKS.index(rank) + suit

    def play(self) -> list[int]:
        """Every move at random on OpenSpiel's side, checked and applied on ours; the leaders of tricks 2..13."""
        theirs, ours, leaders = self.theirs, self.ours, []
        while not theirs.is_terminal():
            assert ours.current_player() == theirs.current_player()
            legal = sorted(card_of(self.game, a) for a in theirs.legal_actions())
            assert sorted(ours.legal_actions()) == legal, self.where()
            action = self.rng.choice(theirs.legal_actions())
            theirs.apply_action(action)
            ours.apply_action(card_of(self.game, action))
            if ours.tricks.trick == [] and ours.tricks.trick_winners and not theirs.is_terminal():
                leaders.append(theirs.current_player())
        assert ours.is_terminal()
        return leaders

    def where(self) -> str:
        return f"after {len(self.theirs.history())} OpenSpiel actions:\n{self.theirs}"


@pytest.mark.parametrize("name", VARIANTS)
def test_random_games_of_openspiel_hearts_have_the_same_legal_moves_trick_winners_and_returns(name):
    params, games = VARIANTS[name]
    spiel_game, game = pyspiel.load_game("hearts", params), one_deal_game(name)
    directions, moons = Counter(), 0
    for seed in range(games):
        table = LockStep(spiel_game, game, seed)
        table.deal()
        leaders = table.play()
        winners = [seat for seat, _ in table.ours.tricks.trick_winners]
        assert leaders == winners[:-1]
        assert [r + 26 for r in table.ours.returns()] == table.theirs.returns(), table.where()
        directions[table.direction] += 1
        moons += 26.0 in table.ours.returns()
    assert moons == 0                                   # random play does not shoot the moon: see below
    if params.get("pass_cards", True):
        assert set(directions) == {"left", "right", "across", "hold"}, directions
    else:
        assert set(directions) == {"hold"}


SHOOTER = "A♣ K♣ Q♣ J♣ A♦ K♦ Q♦ J♦ A♠ K♠ Q♠ J♠ A♥".split()


@pytest.mark.parametrize("name", ["hearts", "hearts-omnibus"])
def test_a_player_holding_the_top_of_every_suit_shoots_the_moon_in_both_engines(name):
    """P1 wins every trick whatever anyone plays, so he takes every heart and the Q♠."""
    params = VARIANTS[name][0]
    spiel_game, game = pyspiel.load_game("hearts", params), one_deal_game(name)
    rest = [c.name for c in game.deck.cards if c.name not in SHOOTER]
    hands = {0: SHOOTER, **{seat: rest[seat - 1::3] for seat in (1, 2, 3)}}
    for seed in range(20):
        table = LockStep(spiel_game, game, seed)
        table.deal(hands)
        table.play()
        shooter = -10 if name == "hearts-omnibus" else 0    # the J♦ still counts for its taker
        assert table.ours.returns() == [-shooter, -26, -26, -26]
        assert [r + 26 for r in table.ours.returns()] == table.theirs.returns()
