"""Decisions before the tricks that the heuristic takes from the hand at the real table, with no rollouts
(interpreter/agents/hand.py): an exchange with the talon, laying away the weakest card while a card drawn from
the hidden ones is stronger on average; staying in or leaving by the public scoring of the tricks the hand can
count on, over worlds it cannot tell from the real one. Zwanzig ab in card names; P1 deals, P2 is forehand."""

from __future__ import annotations

import pytest

from helpers import Table
import rulelang.interpreter.agents.heuristic as heuristic
from rulelang.interpreter.agents import make_agent
from rulelang.loader import load_game

OTHERS = {"P3": "AC 10C KC QC JC", "P4": "AS 10S KS QS JS", "P1": "AD 10D KD QD JD"}


@pytest.fixture
def no_rollouts(monkeypatch):
    """Any decision judged by rollouts fails the test."""
    monkeypatch.setattr(heuristic, "judge", lambda *a, **k: pytest.fail("a decision weighed by rollouts"))


def exchanging(p2_hand: str, talon: str) -> Table:
    """P2 (forehand) named hearts and is to exchange with the talon given."""
    t = Table(load_game("zwanzig-ab", max_deals=1), {"P2": p2_hand, **OTHERS}, talon=talon)
    t.do("P2 hearts")
    return t


def moves_of(t: Table, seat: str, limit: int = 4) -> list[str]:
    """What the heuristic says for ``seat`` while it is the one to act (at most ``limit`` moves)."""
    agent, said = make_agent("heuristic", seed=1), []
    while t.to_act() == seat and len(said) < limit:
        move = agent.step(t.state)
        said.append(t.state.action_to_string(move))
        t.do(f"{seat} {said[-1]}")
    return said


def test_the_weakest_cards_are_laid_away_while_the_hidden_cards_are_stronger(no_rollouts):
    t = exchanging("AH KH 7S 8S 7D", "QH JH 10H 9H 8H 7H 9S 8D 9D 9C 8C 7C")
    said = moves_of(t, "P2")
    assert said[:3] == ["7♠", "7♦", "8♠"]                     # the three plain low cards, hearts being trumps
    assert "A♥" not in said and "K♥" not in said


def test_a_hand_stronger_than_the_hidden_cards_keeps_them(no_rollouts):
    t = exchanging("AH KH QH JH 10H", "7S 8S 9S 7D 8D 9D 9C 8C 7C 9H 8H 7H")
    assert moves_of(t, "P2") == ["done"]


def deciding(p3_hand: str) -> Table:
    """Everyone kept their cards after P2 named hearts: P3, the first after forehand, decides to play or pass."""
    others = {"P2": "9H 8H 9S 8S 9D", "P4": "AS 10S KS QS JS", "P1": "AD 10D KD QD JD"}
    t = Table(load_game("zwanzig-ab", max_deals=1), {"P3": p3_hand, **others})
    t.do("P2 hearts", "P2 done", "P3 done", "P4 done", "P1 done")
    return t


def test_a_hand_of_high_trumps_stays_in(no_rollouts):
    assert moves_of(deciding("AH KH QH JH 10H"), "P3", 1) == ["play"]


def test_a_hand_that_can_count_on_no_trick_drops_out(no_rollouts):
    assert moves_of(deciding("7C 8C 7S 7D 8D"), "P3", 1) == ["pass"]
