"""Zwanzigerrufen written by hand behind the ``State`` API: the floor of this game compiled to Python.

``baseline_zwanzigerrufen.play_deal`` plays a deal in four plain functions. The engine is driven
through OpenSpiel's vocabulary — ``is_terminal``, ``is_chance_node``, ``apply_chance``,
``legal_actions`` as a sorted list of ints, ``apply_action``, a history of every action — so even
code generated for this one game pays for that shape. This module is that code written by hand
from the baseline's rule functions (as ``api_floor_zwanzig_ab.py`` is for Zwanzig ab); ``bench.py``
times it beside both.

Actions: cards 0–39, then the words of the phases in ``WORDS`` (cut, knock, the piles, throw,
keep, the auction's words), then a first dealer by lot.
"""

from __future__ import annotations

import random

import api_floor_zwanzig_ab
from baseline_zwanzigerrufen import (ANNOUNCE_WORDS, CONTRACTS, DECK, DOUBLE_WORDS, PASS, PLAYERS, TRICKS, Bidding,
                                     Outcome, auction_options, auction_say, cards_of, cutter_of, deal_packets,
                                     forehand_of, lay_piles, legal_cards, may_throw_in, must_throw_in, seats_from,
                                     settle, trick_winner)

CHANCE, TERMINAL = -1, -4
AUCTION_WORDS = [*CONTRACTS, PASS, *(word for words in ANNOUNCE_WORDS.values() for word in words),
                 *(word for words in DOUBLE_WORDS.values() for word in words)]
WORDS = ["cut", "knock", "pile1", "pile2", "pile3", "pile4", "throw", "keep", *AUCTION_WORDS]
ACTION = {word: len(DECK) + index for index, word in enumerate(WORDS)}
CUT, KNOCK, PILE, THROW, KEEP = ACTION["cut"], ACTION["knock"], ACTION["pile1"], ACTION["throw"], ACTION["keep"]
DEALER = len(DECK) + len(WORDS)


class ApiState:
    """One deal of Zwanzigerrufen behind the State API (a first dealer by lot, then the deal to its score)."""

    def __init__(self):
        self.history: list[int] = []
        self.current, self.stage = CHANCE, "dealer"
        self.dealer = self.forehand = self.turn = self.passes = self.number = 0
        self.knocked = False
        self.hands: list[int] = [0] * PLAYERS
        self.piles: list[int] = []
        self.asked: list[int] = []
        self.bidding = Bidding()
        self.outcome: Outcome | None = None
        self.order: list[int] = []
        self.trick: list[int] = []
        self.scores: list[int] = [0] * PLAYERS

    def is_terminal(self) -> bool:
        """True when the deal is scored."""
        return self.current == TERMINAL

    def is_chance_node(self) -> bool:
        """True when chance acts next."""
        return self.current == CHANCE

    def apply_chance(self, rng: random.Random) -> int:
        """The pending chance events at once: the first dealer, or the cards dealt or laid out; how many."""
        if self.stage == "dealer":
            self.dealer = rng.randrange(PLAYERS)
            self.history.append(DEALER + self.dealer)
            self.forehand = forehand_of(self.dealer)
            self._choose()
            return 1
        cards = rng.sample(DECK, len(DECK))
        self.history.extend(cards)
        if self.knocked:
            self.piles, self.hands = lay_piles(cards), [0] * PLAYERS
            self.stage, self.turn, self.current = "piles", 0, self.forehand
        else:
            self.hands = deal_packets(cards, self.forehand)
            self._dealt()
        return len(cards)

    def legal_actions(self) -> list[int]:
        """The legal actions now, sorted."""
        stage = self.stage
        if stage == "tricks":
            return cards_of(legal_cards(self.hands[self.current], self.trick, self.bidding.contract == "suit_solo"))
        if stage == "auction":
            return sorted(ACTION[word] for word in auction_options(self.bidding, self.hands, self.current,
                                                                    self.forehand))
        if stage == "piles":
            return [PILE + index for index, pile in enumerate(self.piles) if pile]
        if stage == "throw_in":
            return [THROW, KEEP]
        return [CUT, KNOCK] if stage == "choose" else []

    def apply_action(self, action: int) -> None:
        """Apply a legal action."""
        self.history.append(action)
        stage = self.stage
        if stage == "tricks":
            self._play(action)
        elif stage == "auction":
            self._say(WORDS[action - len(DECK)])
        elif stage == "piles":
            self._take(action - PILE)
        elif stage == "throw_in":
            if action == THROW:
                self._choose()
            else:
                self._ask(self.turn + 1)
        else:
            self.knocked = action == KNOCK
            self.stage, self.current = "deal", CHANCE

    def _choose(self) -> None:
        self.stage, self.current = "choose", cutter_of(self.dealer)

    def _take(self, pile: int) -> None:
        seats = seats_from(self.forehand)
        self.hands[seats[self.turn]], self.piles[pile] = self.piles[pile], 0
        self.turn += 1
        if self.turn < PLAYERS - 1:
            self.current = seats[self.turn]
            return
        self.hands[seats[-1]] = next(pile for pile in self.piles if pile)
        self._dealt()

    def _dealt(self) -> None:
        if must_throw_in(self.hands):
            self._choose()
            return
        self.asked = may_throw_in(self.hands, self.forehand)
        self._ask(0)

    def _ask(self, turn: int) -> None:
        if turn < len(self.asked):
            self.stage, self.turn, self.current = "throw_in", turn, self.asked[turn]
            return
        self.stage, self.passes, self.current = "auction", 0, self.forehand
        self.outcome = Outcome(self.hands)

    def _say(self, word: str) -> None:
        if word == PASS:
            self.passes += 1
            if self.passes == PLAYERS:
                self.stage, self.number, self.order = "tricks", 1, seats_from(self.forehand)
                self.current = self.forehand
                return
        else:
            self.passes = 0
            auction_say(self.bidding, self.hands, self.current, word)
        self.current = (self.current + 1) % PLAYERS

    def _play(self, card: int) -> None:
        self.hands[self.current] ^= 1 << card
        self.trick.append(card)
        if len(self.trick) < PLAYERS:
            self.current = self.order[len(self.trick)]
            return
        winner = trick_winner(self.trick, self.bidding.contract == "suit_solo")
        self.outcome.add_trick(self.number, self.order, self.trick, winner)
        self.current = self.order[winner]
        self.number, self.order, self.trick = self.number + 1, seats_from(self.current), []
        if self.number > TRICKS:
            self.scores = settle(self.bidding, self.outcome)
            self.stage, self.current = "over", TERMINAL


def play_deals(rng: random.Random, deals: int) -> int:
    """Random deals through the API, as ``bench.engine_playouts`` drives the engine; the decisions made."""
    return api_floor_zwanzig_ab.play_deals(rng, deals, ApiState)
