"""What rules read of the tricks played — ``trick_of``, ``played_by``, ``taken_by``, ``trick_cards``,
``cards_played``, ``winning_card``, ``first_trick_won``, ``tricks_worth`` — against a record kept
by the test from the moves alone, at every move of random deals of games of 32, 48 and 52 cards.
``trick_of``, ``played_by`` and ``cards_played`` see the trick on the table too; ``taken_by`` only
finished tricks."""

from __future__ import annotations

import random

import pytest

from rulelang.compile import coderuntime as rt
from rulelang.loader import load_game


class Record:
    """The tricks of one deal as the moves show them: each finished trick's plays and winner."""

    def __init__(self):
        self.tricks: list[tuple[list[tuple[int, int]], int]] = []

    def note(self, state) -> None:
        finished = len(state.tricks.trick_winners)
        if finished > len(self.tricks):
            plays, winner = state.tricks.last_trick
            self.tricks.append((list(plays), winner))

    def trick_of(self, card: int, on_table) -> int:
        done = next((n for n, (plays, _) in enumerate(self.tricks, 1) if any(c == card for _, c in plays)), 0)
        return done or (len(self.tricks) + 1 if any(c == card for _, c in on_table) else 0)

    def played_by(self, card: int, on_table) -> int:
        return next((s for plays, _ in [*self.tricks, (on_table, None)] for s, c in plays if c == card), -1)


def check(state, record: Record) -> None:
    n, cards = state.game.num_players, state.game.num_cards
    points = tuple(card.points for card in state.game.deck.cards)
    on_table = state.tricks.trick
    for card in range(-1, cards):
        number = record.trick_of(card, on_table)
        assert rt.trick_of(state, card) == number
        assert rt.played_by(state, card) == record.played_by(card, on_table)
        assert rt.taken_by(state, card) == (record.tricks[number - 1][1] if 0 < number <= len(record.tricks) else -1)
    for number in range(len(record.tricks) + 2):
        expected = sum(1 << c for _, c in record.tricks[number - 1][0]) if 0 < number <= len(record.tricks) else 0
        assert rt.trick_cards(state, number) == expected
    for seats in range(1 << n):
        played = sum(1 << c for plays, _ in record.tricks for s, c in plays if seats >> s & 1)
        played |= sum(1 << c for s, c in on_table if seats >> s & 1)
        assert rt.cards_played(state, seats) == played
        first = next((i for i, (_, w) in enumerate(record.tricks, 1) if seats >> w & 1), 0)
        assert rt.first_trick_won(state, seats) == first
        for least in (0, 10, 25):
            worth = sum(1 for plays, w in record.tricks
                        if seats >> w & 1 and sum(points[c] for _, c in plays) >= least)
            assert rt.tricks_worth(state, points, seats, least) == worth


@pytest.mark.parametrize("name", ["zwanzig-ab", "doppelkopf", "hearts"])
def test_the_trick_history_functions_agree_with_the_moves(name):
    game = load_game(name, max_deals=1)
    rng = random.Random(name)
    for _ in range(3):
        state, record = game.new_initial_state(), Record()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            if state.phase is not None and state.phase.kind == "tricks" or state.is_terminal():
                record.note(state)
                if state.current_player() >= 0 and len(record.tricks) % 3 == 1:
                    check(state, record)
        assert record.tricks, "no trick was played"
        check(state, record)
