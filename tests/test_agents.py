"""The agents: chosen by name, blind to what their seat may not know, legal in every shipped game, and
the heuristic player better than random play on duplicate deals."""

from __future__ import annotations

import random

import pytest

from rulelang.interpreter.agents import (AgentSpecError, HeuristicAgent, RandomAgent, SeededChance, agent_specs,
                                         make_agent)
from rulelang.interpreter.inference import public_voids
from rulelang.interpreter.worlds import determinize
from rulelang.interpreter.state import CHANCE
from rulelang.loader import load_game, shipped_games
from helpers import Table, is_variant

GAMES = sorted({p.stem for p in shipped_games()})
VARIANTS = {p.stem for p in shipped_games() if is_variant(p)}      # a few lines over a base played in full


# ---------------------------------------------------------------------- by name
def test_agents_are_made_by_name_with_options():
    assert isinstance(make_agent("random", 1), RandomAgent)
    search = make_agent("search:ms=50;playouts=12", 1)
    assert (search.ms, search.playouts) == (50, 12)
    agent = make_agent("heuristic:rollouts=8", 1)
    assert isinstance(agent, HeuristicAgent) and agent.rollouts == 8 and agent.caution == 1
    assert make_agent("heuristic:caution=3;rollouts=16", 1).caution == 3
    assert agent_specs("heuristic", 4) == ["heuristic"] * 4
    assert agent_specs("random, heuristic,random,heuristic", 4) == ["random", "heuristic", "random", "heuristic"]


@pytest.mark.parametrize("spec, message", [
    ("clever", "no agent called 'clever'; the agents are random, heuristic, search"),
    ("heuristic:depth=3", "the heuristic agent has no option 'depth' (its options: rollouts, caution, listen, screen, guided)"),
    ("heuristic:caution=6", "'6' is not a valid caution for the heuristic agent: a whole number from 0 to 5"),
    ("heuristic:rollouts=many", "'many' is not a valid rollouts for the heuristic agent: a whole number from 1 to"),
    ("search:ms=99999999", "'99999999' is not a valid ms for the search agent: a whole number from 1 to 60000"),
    ("search:playouts=0", "'0' is not a valid playouts for the search agent"),
    ("random:rollouts=3", "the random agent has no option 'rollouts' (its options: none)"),
])
def test_a_wrong_agent_name_or_option_says_what_exists(spec, message):
    with pytest.raises(AgentSpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_agent(spec)


def test_the_search_agents_rollouts_option_is_the_budget_of_the_heuristic_move_it_is_anchored_on():
    assert make_agent("search:playouts=4;rollouts=4", 1).guide.rollouts == 4
    assert make_agent("search", 1).guide.rollouts == make_agent("heuristic", 1).rollouts
    with pytest.raises(AgentSpecError, match="'0' is not a valid rollouts for the search agent"):
        make_agent("search:rollouts=0")


def test_a_list_of_agents_must_name_one_or_one_per_seat():
    with pytest.raises(AgentSpecError, match="--agents names 2 agents for 4 seats"):
        agent_specs("random,heuristic", 4)


# ---------------------------------------------------------------------- hidden information
def states_to_decide(game_name: str, count: int, seed: int):
    """Random states of a game where a seat (not chance) is to choose among several moves: after 1 to 40
    random moves of the seats, chance dealing as it comes (a 78-card deal is not 78 of the moves)."""
    game = load_game(game_name, max_deals=1)
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new_initial_state()
        stop = rng.randrange(1, 40)
        while stop and not state.is_terminal():
            stop -= state.current_player() != CHANCE
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal() and state.current_player() != CHANCE and len(state.legal_actions()) > 1:
            found.append(state)
    return found


@pytest.mark.parametrize("game_name", ["zwanzig-ab", "zwanzigerrufen", "zwanziger-rufen-fi", "fuenf-dazu-exchange"])
def test_the_heuristic_moves_alike_in_states_that_differ_only_in_what_its_seat_cannot_see(game_name):
    differed = 0
    for index, state in enumerate(states_to_decide(game_name, 12, 7)):
        seat = state.current_player()
        other = state.resample_from_infostate(seat, random.Random(index))
        assert other.information_state_string(seat) == state.information_state_string(seat)
        differed += other.hands != state.hands
        assert HeuristicAgent(index, rollouts=8).step(state) == HeuristicAgent(index, rollouts=8).step(other)
    assert differed >= 6


def test_a_world_keeps_what_the_seat_knows_and_the_number_of_cards_in_every_place():
    for index, state in enumerate(states_to_decide("zwanzig-ab", 20, 3)):
        seat = state.current_player()
        world = determinize(state, seat, random.Random(index))
        assert world.hands[seat] == state.hands[seat] and world.tricks.trick == state.tricks.trick
        assert [bin(h).count("1") for h in world.hands] == [bin(h).count("1") for h in state.hands]
        assert bin(world.talon).count("1") == bin(state.talon).count("1")
        places = world.card_places()
        assert sum(bin(m).count("1") for m in places.values()) == world.game.num_cards
        assert all(not (a & b) for i, a in enumerate(places.values()) for b in list(places.values())[i + 1:])


# ---------------------------------------------------------------------- legal play, and better than random
@pytest.mark.parametrize("game_name", GAMES)
def test_the_heuristic_plays_whole_deals_of_every_shipped_game_without_an_illegal_move(game_name):
    game = load_game(game_name, max_deals=1)
    for deal in range(1 if game_name in VARIANTS else 3):
        state, chance = game.new_initial_state(), SeededChance(deal)
        agents = [HeuristicAgent(deal * 10 + s, rollouts=6) for s in range(game.num_players)]
        while not state.is_terminal():
            actor = state.current_player()
            state.apply_checked(chance.step(state) if actor == CHANCE else agents[actor].step(state))


def duplicate_means(game_name: str, deals: int) -> tuple[float, float]:
    """Mean return per deal of one heuristic seat among random ones, and of a random seat in its place,
    every deal played once per seat for each, on the same cards."""
    game = load_game(game_name, max_deals=1)
    totals = {"heuristic": 0.0, "random": 0.0}
    for deal in range(deals):
        for seat in range(game.num_players):
            for kind in totals:
                state, chance = game.new_initial_state(), SeededChance(deal)
                agents = [RandomAgent(deal * 10 + s) for s in range(game.num_players)]
                if kind == "heuristic":
                    agents[seat] = HeuristicAgent(deal)
                while not state.is_terminal():
                    actor = state.current_player()
                    state.apply_action(chance.step(state) if actor == CHANCE else agents[actor].step(state))
                totals[kind] += state.returns()[seat]
    n = deals * game.num_players
    return totals["heuristic"] / n, totals["random"] / n


def test_the_search_agent_plays_legal_moves_within_its_budget():
    game = load_game("zwanzigerrufen", max_deals=1)
    state, chance = game.new_initial_state(), SeededChance(4)
    agents = [make_agent("search:playouts=8", s) for s in range(game.num_players)]
    while not state.is_terminal():
        actor = state.current_player()
        state.apply_checked(chance.step(state) if actor == CHANCE else agents[actor].step(state))


def test_the_heuristic_player_does_better_than_random_play_on_the_same_cards():
    heuristic, random_play = duplicate_means("zwanzig-ab", 20)
    assert heuristic > random_play + 1


def test_in_a_game_whose_lowest_score_wins_the_heuristic_takes_the_tricks_that_lower_its_score():
    # Fünf dazu: a trick takes a point off (good, the lowest score wins), no trick adds five
    heuristic, random_play = duplicate_means("fuenf-dazu", 60)
    assert heuristic > random_play + 0.4


# ---------------------------------------------------------------------- the arena
def arena_json(capsys, *argv) -> dict:
    import json
    from rulelang.cli.main import main
    assert main(["arena", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_arena_reports_each_agent_with_its_interval_moves_and_time(capsys):
    result = arena_json(capsys, "zwanzig-ab", "--agents", "heuristic:rollouts=4,random", "--deals", "6", "--seed", "3")
    assert result["game"] == "zwanzig-ab" and result["deals"] == 6 and result["seed"] == 3
    names = [a["name"] for a in result["agents"]]
    assert names == ["heuristic:rollouts=4", "random"]
    for agent in result["agents"]:
        low, high = agent["ci95"]
        assert low <= agent["mean"] <= high and agent["moves"] > 0 and agent["ms_per_move"] >= 0


def untimed(result: dict) -> list[tuple]:
    """An arena result without its timings, which differ from run to run."""
    return [(a["name"], a["mean"], a["ci95"], a["moves"], a["contracts"]) for a in result["agents"]]


def test_the_arena_gives_the_same_numbers_whatever_the_number_of_jobs(capsys):
    argv = ("zwanzigerrufen", "--agents", "random,heuristic:rollouts=2", "--deals", "4", "--seed", "11")
    one, two = arena_json(capsys, *argv, "--jobs", "1"), arena_json(capsys, *argv, "--jobs", "2")
    assert untimed(one) == untimed(two)
    assert any(a["contracts"] for a in one["agents"])


@pytest.mark.parametrize("agents, message", [("random", "at least two"), ("random,clever", "no agent called 'clever'")])
def test_the_arena_needs_two_known_agents(capsys, agents, message):
    from rulelang.cli.main import main
    assert main(["arena", "zwanzig-ab", "--agents", agents, "--deals", "1"]) == 2
    assert message in capsys.readouterr().err



# ---------------------------------------------------------------------- inference and resampling
@pytest.mark.parametrize("game_name", GAMES)
def test_resampled_states_keep_the_seats_information_and_replay_legally(game_name):
    for index, state in enumerate(states_to_decide(game_name, 15, 21)):
        for seat in range(state.game.num_players):
            other = state.resample_from_infostate(seat, random.Random(index * 7 + seat))
            assert other is not None, "the sampler failed on a consistent state"
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.hands[seat] == state.hands[seat] and other.scores == state.scores
            replay = state.game.new_initial_state()
            for action in other.history:
                replay.apply_checked(action)
            voids = public_voids(state, seat)
            assert all(not (other.hands[s] & voids[s]) for s in range(state.game.num_players))


def test_a_seat_that_did_not_follow_suit_is_known_to_hold_none_of_it():
    # Zwanzig ab, clubs trumps: P2 leads A♠; P3 has no spade and trumps; P4 has neither spade nor club
    hands = {"P2": "AS 10S KS QS JS", "P3": "AC 10C KC QC JC", "P4": "AH 10H KH QH JH", "P1": "AD 10D KD QD JD"}
    t = Table(load_game("zwanzig-ab", max_deals=1), hands)
    t.do("P2 clubs", "P2 done", "P3 done", "P4 done", "P1 done", "P3 play", "P4 play", "P1 play", "P2 AS", "P3 10C",
         "P4 KH")
    deck = t.game.deck
    spades, clubs = (deck.suit_masks[deck.suit_index(name)] for name in ("spades", "clubs"))
    voids = public_voids(t.state, 1)
    assert voids[2] == spades and voids[3] == spades | clubs and voids[0] == 0 and voids[1] == 0
    for index in range(20):
        world = t.state.resample_from_infostate(1, random.Random(index))
        assert not world.hands[2] & spades and not world.hands[3] & (spades | clubs)


def test_the_arena_refuses_more_processes_than_it_allows(capsys):
    from rulelang.cli.main import main
    assert main(["arena", "zwanzig-ab", "--agents", "random,random", "--jobs", "100000"]) == 2
    assert "--jobs 100000: at most 64 processes" in capsys.readouterr().err
