"""What the table heard and saw is in every seat's observation, phase by phase, as it was said.

For each construct whose ``observe`` shows public words or cards — the auction's announcements, Bridge's
bidding and dummy, Skat's value bidding, the talon laid open in Königrufen, the trick on the table — seeded
random deals are played and, after every move, each seat's observation is compared with the words said (or
the cards played) so far in that phase, in card and seat names. A hook that drops or garbles its key fails
here (benchmarks/mutation_run.py plants such bugs).
"""

from __future__ import annotations

import random

import pytest

from rulelang.loader import load_game


def moves_and_views(game_name: str, seed: int, limit: int = 400, choose=None):
    """Each move of a seeded random deal: (phase kind, seat name, move name, the state after it); ``choose(state,
    legal, rng)`` picks a move where given, else one at random."""
    game = load_game(game_name, max_deals=1)
    state, rng = game.new_initial_state(), random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_chance(rng)
            continue
        legal = state.legal_actions()
        action = choose(state, legal, rng) if choose else rng.choice(legal)
        kind, seat = state.phase.kind, game.seat_name(state.current_player())
        name = game.action_to_string(action)
        state.apply_action(action)
        yield kind, seat, name, state


@pytest.mark.parametrize("seed", range(4))
def test_every_word_of_the_auction_is_in_every_seats_view_as_it_was_said(seed):
    said = []
    for kind, seat, name, state in moves_and_views("zwanzigerrufen", seed):
        if kind == "auction":
            said.append((seat, name))
        if said and state.contract is not None and state.phase is not None and state.phase.kind != "auction":
            for player in range(4):
                assert state.observation(player)["announcements"] == said
            return


@pytest.mark.parametrize("seed", range(4))
def test_bridge_bidding_and_the_dummy_are_in_every_seats_view(seed):
    calls, last = [], None
    for kind, seat, name, state in moves_and_views("bridge", seed):
        if kind == "strain_auction":
            calls.append(name)
            assert all(state.observation(p).get("bidding", []) == calls for p in range(4))
        elif kind == "tricks":
            last = state
    if last is not None and last.declarer is not None and last.declarer >= 0:
        partner = last.game.seat_name((last.declarer + 2) % 4)
        assert all(last.observation(p).get("dummy") == partner for p in range(4))


@pytest.mark.parametrize("seed", range(6))
def test_skat_value_bidding_is_in_every_seats_view(seed):
    said = []
    for kind, seat, name, state in moves_and_views("skat", seed):
        if kind == "value_auction":
            said.append((seat, name))
        if said:
            for player in range(3):
                assert state.observation(player)["value_bidding"]["said"] == said


def test_the_trick_on_the_table_is_in_every_seats_view_in_play_order():
    played = []
    for kind, seat, name, state in moves_and_views("hearts", 3):
        if kind != "tricks":
            continue
        played = [] if len(played) == 4 else played
        played.append((seat, name))
        if len(played) < 4:
            for player in range(4):
                assert state.observation(player)["trick"] == played


def lowest_bid(state, legal, rng):
    """In the auction a pass where one is allowed, else the first bid (forehand's Rufer stands); random elsewhere."""
    if state.phase.kind != "auction":
        return rng.choice(legal)
    passes = [a for a in legal if state.game.action_to_string(a) == state.phase.pass_word]
    return passes[0] if passes else legal[0]


def test_the_talon_laid_open_is_in_every_seats_view():
    shown = 0
    for seed in range(10):
        for kind, seat, name, state in moves_and_views("koenigrufen", seed, choose=lowest_bid):
            part = state.take_talon
            if part.shown:
                cards = state.game.deck.names(part.shown)
                assert all(state.observation(p).get("talon_shown") == cards for p in range(4))
                shown += 1
                break
    assert shown > 0


def advanced(game_name: str, seed: int, until, choose=None):
    """A state of a seeded deal at the first point where ``until(state)`` holds (chance played at random, each
    decision by ``choose(legal, rng)``, at random by default)."""
    game = load_game(game_name, max_deals=1)
    state, rng = game.new_initial_state(), random.Random(seed)
    while not until(state):
        if state.is_chance_node():
            state.apply_chance(rng)
        else:
            legal = state.legal_actions()
            state.apply_action(choose(legal, rng) if choose else rng.choice(legal))
    return state


def in_exchange(state) -> bool:
    return state.phase is not None and state.phase.kind == "exchange"


def test_a_card_drawn_in_an_exchange_may_be_any_card_of_the_talon():
    state = advanced("zwanzig-ab", 2, lambda st: in_exchange(st) and st.exchange.pending,
                     choose=lambda legal, rng: legal[0])       # forehand discards before drawing
    game = state.game
    outcomes = {game.action_to_string(a) for a, _ in state.chance_outcomes()}
    assert outcomes == set(game.deck.names(state.talon)) and len(outcomes) == 12
    assert {game.action_to_string(a) for a in state.legal_actions()} == outcomes    # a log may name any of them


@pytest.mark.parametrize("seed", range(3))
def test_what_a_seat_chose_is_its_decision_and_chance_makes_none(seed):
    for kind, seat, name, state in moves_and_views("zwanzig-ab", seed):
        if kind == "choose":
            assert state.decisions.get(int(seat[1:]) - 1) == name                   # P1 is seat 0
            break
    from rulelang.loader import load_text
    game = load_text("game: h\nextends: hearts\nparams: {pass_by_chance: true}\n", "yaml", max_deals=1)
    hearts = game.new_initial_state()
    hearts_rng = random.Random(seed)
    while hearts.is_chance_node():
        hearts.apply_chance(hearts_rng)
    assert "pass_to" in hearts.vars and not hearts.decisions   # the pass direction drawn by chance is nobody's


def test_a_seat_in_the_exchange_may_discard_any_card_it_holds_or_stop():
    state = advanced("zwanzig-ab", 4, lambda st: in_exchange(st) and not st.is_chance_node())
    game = state.game
    held = set(game.deck.names(state.hands[state.current_player()]))
    assert {game.action_to_string(a) for a in state.legal_actions()} == held | {"done"}
