"""The search agent's card play by exact search in sampled worlds (rulelang.interpreter.agents.solved): used where
the tricks decide and the deal is small enough, reproducible with a budget in playouts, and better than the
heuristic's card against the true deal's double-dummy values."""

from __future__ import annotations

import random

from test_solver import trick_play_position
from rulelang.interpreter import solver
from rulelang.interpreter.agents import HeuristicAgent, SearchAgent, make_agent
from rulelang.interpreter.agents.heuristic import side_of
from rulelang.interpreter.agents.solved import SolvedPlay, against_one_side, objective
from rulelang.interpreter.inference import public_voids
from rulelang.loader import load_game


def _bridge_endings(cards_left: int, count: int):
    game = load_game("bridge", max_deals=1)
    found = (trick_play_position(game, seed, cards_left) for seed in range(4 * count))
    return [state for state in found if state is not None and len(state.legal_actions()) > 1][:count]


def test_tricks_decide_in_bridge_and_card_points_in_a_skat_suit_game():
    bridge = _bridge_endings(12, 1)[0]
    seat = bridge.current_player()
    assert objective(bridge, seat, side_of(bridge, seat)) == (1, False)
    skat = next(s for s in (trick_play_position(load_game("skat", max_deals=1), seed, 12) for seed in range(30))
                if s is not None and s.vars.get("kind") != "null_game")
    seat = skat.current_player()
    assert objective(skat, seat, side_of(skat, seat)) == (1, True)


def test_the_solved_card_beats_the_heuristics_against_the_true_deal():
    """On 30 Bridge endings of four tricks, the cards chosen by solving eight worlds each give away fewer
    double-dummy tricks of the true deal than the heuristic's cards."""
    lost = {"solved": 0, "heuristic": 0}
    for index, state in enumerate(_bridge_endings(16, 30)):
        truth = solver.card_tricks(state)
        best = max(truth.values())
        solved = SearchAgent(index, playouts=8 * len(state.legal_actions())).step(state)
        lost["solved"] += best - truth[solved]
        lost["heuristic"] += best - truth[HeuristicAgent(index).step(state)]
    assert lost["solved"] < lost["heuristic"], lost


def test_a_budget_in_playouts_gives_the_same_cards_again():
    endings = _bridge_endings(20, 6)
    first = [make_agent("search:playouts=16", 3).step(state) for state in endings]
    assert first == [make_agent("search:playouts=16", 3).step(state) for state in endings]


def test_a_deal_too_large_to_solve_is_left_to_the_rollouts_until_fewer_cards_are_left():
    state = _bridge_endings(40, 1)[0]
    seat = state.current_player()
    cards = state.legal_actions()
    play = SolvedPlay(random.Random(1), max_nodes=50)
    assert play.choose(state, seat, cards, cards[0], 1, 4, None, public_voids(state, seat)) is None
    assert play.too_large is not None and play.too_large[2] == 40
    assert play.choose(state, seat, cards, cards[0], 1, 4, None, public_voids(state, seat)) is None
    small = _bridge_endings(8, 1)[0]
    seat = small.current_player()
    assert SolvedPlay(random.Random(1)).choose(small, seat, small.legal_actions(), small.legal_actions()[0], 1, 4,
                                                None, public_voids(small, seat)) in small.legal_actions()


def test_solve_0_keeps_the_rollouts():
    assert make_agent("search:solve=0", 1).solved is None and make_agent("search", 1).solved is not None


def test_a_bound_in_positions_solves_a_deal_the_default_leaves_to_the_rollouts():
    """``search:nodes`` sets what one world may take, whatever the budget: 28 cards are too many for the
    default 3,000 positions of a budget in playouts and few enough for 200,000, which plays the same again."""
    state = _bridge_endings(28, 1)[0]
    legal = state.legal_actions()
    anchor = legal[0]
    default, bounded = make_agent("search:playouts=8", 2), make_agent("search:playouts=8;nodes=200000", 2)
    default.solved.max_nodes = 3_000                # what the default agent would use, set before the call
    assert default.solved_card(state, legal, anchor, None) is None
    assert bounded.solved.max_nodes != 200_000 and bounded.nodes == 200_000
    found = bounded.solved_card(state, legal, anchor, None)
    assert found in legal and bounded.solved.max_nodes == 200_000
    assert make_agent("search:playouts=8;nodes=200000", 2).solved_card(state, legal, anchor, None) == found


def test_worlds_are_solved_only_against_one_side():
    """A solved world pits the other seats together against the seat's side: right against a team, a declarer or
    his opponents, not where every seat plays for itself — there the search rolls its worlds out."""
    def position(name: str):
        game = load_game(name, max_deals=1)
        return next(s for s in (trick_play_position(game, seed, 12) for seed in range(40)) if s is not None)
    for name, solved in (("bridge", True), ("skat", True), ("zwanzig-ab", False), ("hearts", False)):
        state = position(name)
        seat = state.current_player()
        assert against_one_side(state, seat) is solved, name
        if not solved:
            agent = make_agent("search:playouts=8;nodes=200000", 1)
            assert agent.solved_card(state, state.legal_actions(), state.legal_actions()[0], None) is None, name
