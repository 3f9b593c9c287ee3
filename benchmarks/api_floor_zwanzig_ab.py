"""Zwanzig ab written by hand behind the ``State`` API: the floor of a game compiled to Python.

``baseline_zwanzig_ab.play_deal`` plays a deal in one function. The engine is driven through
the API OpenSpiel's vocabulary asks for — ``is_terminal``, ``is_chance_node``, ``apply_chance``,
``legal_actions`` as a sorted list, ``apply_action``, a history of every action — so even code
generated for one game, with every dispatch and look-up gone, pays for that shape: a call per
question, a list per decision, a step per move. This module is that code written by hand, from
the baseline's rule functions, with the same random choices; ``bench.py`` times it beside both, so
the ratio the engine could reach by generating per game is measured rather than guessed.

Actions: cards 0–31, trumps 32–35 (a suit), stop exchanging 36, play 37, pass 38, a first dealer
by lot 39–42.
"""

from __future__ import annotations

import random

from baseline_zwanzig_ab import (DECK, FIRST_PACKET, MAX_EXCHANGE, PLAYERS, SECOND_PACKET, legal_cards, may_pass,
                                 score_deal, trick_winner)

CHANCE, TERMINAL = -1, -4
TRUMP, DONE, PLAY, PASS, DEALER = 32, 36, 37, 38, 39
TRUMPS = [TRUMP + suit for suit in range(4)]


class ApiState:
    """One deal of Zwanzig ab behind the State API (a first dealer by lot, then the deal to its score)."""

    def __init__(self):
        self.history: list[int] = []
        self.current = CHANCE
        self.stage = "dealer"
        self.hands: list[list[int]] = [[] for _ in range(PLAYERS)]
        self.stock = list(DECK)
        self.seats: list[int] = []
        self.turn = 0
        self.trump = -1
        self.discarded = 0
        self.playing = [True] * PLAYERS
        self.players: list[int] = []
        self.trick: list[int] = []
        self.order: list[int] = []
        self.tricks = [0] * PLAYERS
        self.scores: list[int] = []

    def is_terminal(self) -> bool:
        """True when the deal is scored."""
        return self.current == TERMINAL

    def is_chance_node(self) -> bool:
        """True when chance acts next."""
        return self.current == CHANCE

    def apply_chance(self, rng: random.Random) -> int:
        """The pending chance events at once: the first dealer and the first packets, the second packets,
        or a seat's draw from the talon; how many."""
        if self.stage == "dealer":
            dealer = rng.randrange(PLAYERS)
            self.history.append(DEALER + dealer)
            forehand = (dealer + 1) % PLAYERS
            self.seats = [(forehand + i) % PLAYERS for i in range(PLAYERS)]
            drawn = self._deal(rng, FIRST_PACKET)
            self.stage, self.current = "trump", forehand
            return 1 + drawn
        if self.stage == "second":
            drawn = self._deal(rng, SECOND_PACKET)
            self._exchange_turn(0)
            return drawn
        seat = self.seats[self.turn]
        cards = rng.sample(self.stock, self.discarded)
        for card in cards:
            self.stock.remove(card)
        self.history.extend(cards)
        self.hands[seat] = sorted(self.hands[seat] + cards)
        self._exchange_turn(self.turn + 1)
        return len(cards)

    def _deal(self, rng: random.Random, each: int) -> int:
        cards = rng.sample(self.stock, each * PLAYERS)
        self.history.extend(cards)
        for index, seat in enumerate(self.seats):
            packet = cards[index * each:(index + 1) * each]
            self.hands[seat] = sorted(self.hands[seat] + packet)
            for card in packet:
                self.stock.remove(card)
        return len(cards)

    def legal_actions(self) -> list[int]:
        """The legal actions now, sorted."""
        stage = self.stage
        if stage == "tricks":
            return sorted(legal_cards(self.hands[self.current], self.trick, self.trump))
        if stage == "exchange":
            return [*self.hands[self.current], DONE]
        if stage == "decide":
            return [PLAY, PASS]
        return TRUMPS if stage == "trump" else []

    def apply_action(self, action: int) -> None:
        """Apply a legal action."""
        self.history.append(action)
        stage = self.stage
        if stage == "tricks":
            self._play(action)
        elif stage == "exchange":
            if action == DONE:
                self._draw()
            else:
                self.hands[self.current].remove(action)
                self.discarded += 1
                if self.discarded >= MAX_EXCHANGE or self.discarded >= len(self.stock):
                    self._draw()
        elif stage == "decide":
            self.playing[self.current] = action == PLAY
            self._decide_turn(self.turn + 1)
        else:
            self.trump = action - TRUMP
            self.stage, self.current = "second", CHANCE

    def _exchange_turn(self, turn: int) -> None:
        self.turn, self.discarded = turn, 0
        if turn < PLAYERS and self.stock:
            self.stage, self.current = "exchange", self.seats[turn]
        else:
            self._decide_turn(1)

    def _draw(self) -> None:
        if self.discarded:
            self.stage, self.current = "draw", CHANCE
        else:
            self._exchange_turn(self.turn + 1)

    def _decide_turn(self, turn: int) -> None:
        while turn < PLAYERS and not may_pass(self.seats[turn], self.seats[0], self.trump):
            turn += 1
        if turn < PLAYERS:
            self.stage, self.turn, self.current = "decide", turn, self.seats[turn]
            return
        self.players = [seat for seat in self.seats if self.playing[seat]]
        if len(self.players) > 1:
            self.stage, self.order, self.current = "tricks", self.players, self.players[0]
        else:
            self._score()

    def _play(self, card: int) -> None:
        seat = self.current
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) < len(self.order):
            self.current = self.order[len(self.trick)]
            return
        winner = self.order[trick_winner(self.trick, self.trump)]
        self.tricks[winner] += 1
        self.trick = []
        lead = self.players.index(winner)
        self.order = self.players[lead:] + self.players[:lead]
        self.current = winner
        if not self.hands[winner]:
            self._score()

    def _score(self) -> None:
        self.scores = score_deal(self.tricks, self.playing, self.trump)
        self.stage, self.current = "over", TERMINAL


def play_deals(rng: random.Random, deals: int, new_state=ApiState) -> int:
    """Random deals through the API of states made by ``new_state``, as ``bench.engine_playouts`` drives the
    engine; the decisions made."""
    decisions = 0
    for _ in range(deals):
        state = new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance(rng)
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions
