"""What a bid says about the bidder's hand, read from the rules: worlds that give it (``listen``)."""

from __future__ import annotations

import random

from rulelang.read.expr import parse_expr, reads_hidden
from rulelang.interpreter.agents import SeededChance, make_agent
from rulelang.interpreter.inference import public_voids, said_evidence
from rulelang.interpreter.worlds import determinize
from rulelang.interpreter.state import CHANCE
from zr_helpers import SUIT_SOLO, TAROCKS, Table, forehand_holding, game, mask_of, seat, swap

VIENNA = "zwanzigerrufen"


def worlds(t: Table, observer: str, said, count: int = 40) -> list:
    state, who = t.state, seat(observer)
    voids = public_voids(state, who)
    return [determinize(state, who, random.Random(k), voids, said) for k in range(count)]


def test_a_call_says_the_caller_holds_every_callable_tarock_above_the_called_one():
    t = Table(game(VIENNA), forehand_holding(["XX", "XIX"]))
    t.do("P1 call")                                              # calls XVIII: P1 holds XX and XIX
    said = said_evidence(t.state, seat("P2"))
    assert [e.seat for e in said] == [seat("P1")]
    held = mask_of(t.game, "XX XIX")
    assert all(w.hands[seat("P1")] & held == held for w in worlds(t, "P2", said))
    assert not all(w.hands[seat("P1")] & held == held for w in worlds(t, "P2", ()))    # not known without it


def test_a_suit_solo_says_the_bidder_holds_five_suit_cards():
    t = Table(game(VIENNA), SUIT_SOLO)
    t.do("P1 call", "P2 suit_solo")
    said = said_evidence(t.state, seat("P3"))
    assert seat("P2") in [e.seat for e in said]
    tarock = mask_of(t.game, TAROCKS)
    assert min(bin(w.hands[seat("P2")] & ~tarock).count("1") for w in worlds(t, "P3", said)) >= 5
    assert min(bin(w.hands[seat("P2")] & ~tarock).count("1") for w in worlds(t, "P3", ())) < 5


def test_a_seat_reads_nothing_from_its_own_bid_and_nothing_hidden_leaks_through_what_was_said():
    hands = forehand_holding(["XX", "XIX"])
    t = Table(game(VIENNA), hands)
    t.do("P1 call")
    assert said_evidence(t.state, seat("P1")) == []
    # P3 and P4 swap two cards P2 cannot see: P2's worlds are the same card for card
    other = Table(game(VIENNA), swap(hands, *_two_cards_of(hands["P3"], hands["P4"])))
    other.do("P1 call")
    for k in range(20):
        a = determinize(t.state, seat("P2"), random.Random(k), None, said_evidence(t.state, seat("P2")))
        b = determinize(other.state, seat("P2"), random.Random(k), None, said_evidence(other.state, seat("P2")))
        assert a.hands == b.hands and a.talon == b.talon


def _two_cards_of(first: str, second: str) -> tuple[str, str]:
    mine, theirs = first.split(), second.split()
    return next(c for c in mine if c not in ("XX", "XIX")), next(c for c in theirs if c not in ("XX", "XIX"))


def test_only_rules_that_read_no_hidden_card_but_the_movers_own_hand_are_read():
    assert not reads_hidden(parse_expr("count(hand(player) - tarock) >= 5"), {}, own_hand=True)
    assert reads_hidden(parse_expr("count(hand(player) - tarock) >= 5"), {})
    assert reads_hidden(parse_expr("count(hand(next(player))) >= 5"), {}, own_hand=True)
    assert reads_hidden(parse_expr("count(talon) > 0 and count(hand(player)) > 0"), {}, own_hand=True)
    assert reads_hidden(parse_expr("strong"), {"strong": "count(hand(dealer)) > 3"}, own_hand=True)


def test_listening_players_finish_deals_with_legal_moves():
    g = game(VIENNA)
    for spec in ("heuristic:listen=1;rollouts=8", "search:listen=1;playouts=4"):
        for deal in range(2):
            state = g.new_initial_state()
            chance, agents = SeededChance(deal), [make_agent(spec, deal * 10 + s) for s in range(4)]
            while not state.is_terminal():
                actor = state.current_player()
                state.apply_checked(chance.step(state) if actor == CHANCE else agents[actor].step(state))
            assert state.deal_results
