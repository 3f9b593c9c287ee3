"""The double-dummy judge (rulelang.adapters.double_dummy, extra ``rulelang[bridge]``): positions read through the
public State API, DDS's legal cards the engine's, and the numbers of the card-play benchmark right on fixed deals.

The identity behind them: each card moves the double-dummy count of the declaring side's tricks by exactly the
tricks it gave away, so the tricks the side takes are those it makes at the opening lead, less what its cards
gave away, plus what the defence's gave."""

from __future__ import annotations

import pytest

pytest.importorskip("endplay")

from helpers import Table, load_benchmark, partnership_whist           # noqa: E402
from rulelang.adapters import double_dummy as dd                       # noqa: E402
from rulelang.interpreter.agents import SeededChance, make_agent       # noqa: E402
from rulelang.loader import load_game, load_text                       # noqa: E402

HANDS = {"P1": "A♠ K♠ Q♠ J♠ A♥ K♥ Q♥ A♦ K♦ Q♦ A♣ K♣ Q♣", "P2": "10♠ 9♠ 8♠ J♥ 10♥ 9♥ J♦ 10♦ 9♦ J♣ 10♣ 9♣ 8♣",
         "P3": "7♠ 6♠ 5♠ 8♥ 7♥ 6♥ 8♦ 7♦ 6♦ 7♣ 6♣ 5♣ 4♣", "P4": "4♠ 3♠ 2♠ 5♥ 4♥ 3♥ 2♥ 5♦ 4♦ 3♦ 2♦ 3♣ 2♣"}


@pytest.fixture(scope="module")
def bridge():
    return load_game("bridge", max_deals=1)


def opening_lead(game, seed: int, spec: str = "random"):
    """A seeded deal bid by ``spec`` agents, at its opening lead (None when it was passed out)."""
    state, chance = game.new_initial_state(), SeededChance(seed)
    agents = [make_agent(spec, seed * 7 + s) for s in range(4)]
    while not dd.in_trick_play(state, 0):
        if state.is_terminal():
            return None
        if state.current_player() < 0:
            chance.play(state)
        else:
            state.apply_action(agents[state.current_player()].step(state))
    return state


def declarer_side_tricks(state, declarer: str) -> int:
    taken = state.deal_results[-1]["tricks"]
    seat = int(declarer[-1]) - 1
    return taken[seat] + taken[(seat + 2) % 4]


def test_which_games_dds_can_state():
    assert dd.unfit(load_game("bridge")) is None
    assert "lead_from" in dd.unfit(load_game("spades"))          # spades kept back from the lead until broken
    assert "partnerships" in dd.unfit(load_game("hearts"))
    assert "four hands" in dd.unfit(load_game("skat"))


def test_a_hand_of_top_cards_makes_every_trick_and_the_defence_has_no_choice_that_costs(bridge):
    t = Table(bridge, HANDS, dealer="P1")
    t.do("P1 3notrump", "P2 pass", "P3 pass", "P4 pass")
    position = dd.position(t.state)
    assert position.to_play == 1 and position.leader == 1 and position.trump is None and position.trick == ()
    assert position.hands[0][:4] == ("CA", "CK", "CQ", "DA")                # in the deck's order
    score = dd.score_play(t.state, [dd.DoubleDummyPlayer()] * 4)
    assert score.contract == "3NT by P1" and score.fit == 13 - 9
    assert score.lost == {"declarer": 0, "defence": 0} and score.costly == {"declarer": 0, "defence": 0}
    assert score.decisions == 52 and t.state.deal_results[-1]["tricks"] == [13, 0, 0, 0]


def test_the_hand_to_play_is_the_dummy_when_the_declarer_plays_from_it(bridge):
    t = Table(bridge, HANDS, dealer="P1")
    t.do("P1 pass", "P2 1hearts", "P3 pass", "P4 pass", "P1 pass", "P3 7♠")
    assert t.state.current_player() == 1                               # the declarer P2 plays for his dummy P4
    position = dd.position(t.state)
    assert position.to_play == 3 and position.leader == 2 and position.trick == ("S7",) and position.trump == "H"
    tricks = dd.card_tricks(t.state)
    assert set(tricks) == set(t.state.legal_actions())


def test_the_declarer_takes_what_double_dummy_play_says(bridge):
    for seed in range(6):
        state = opening_lead(bridge, seed)
        if state is None:
            continue
        score = dd.score_play(state, [dd.DoubleDummyPlayer()] * 4)
        assert score.lost == {"declarer": 0, "defence": 0}
        declarer = score.contract.split(" by ")[1]
        assert declarer_side_tricks(state, declarer) == score.fit + score.level + 6


def test_every_trick_given_away_is_counted_to_the_side_that_gave_it(bridge):
    for seed in range(6):
        state = opening_lead(bridge, seed)
        if state is None:
            continue
        score = dd.score_play(state, [make_agent("random", seed * 11 + s) for s in range(4)])
        declarer = score.contract.split(" by ")[1]
        made = score.fit + score.level + 6
        assert declarer_side_tricks(state, declarer) == made - score.lost["declarer"] + score.lost["defence"]
        for side in ("declarer", "defence"):
            assert score.costly[side] <= score.choices[side] and score.costly[side] <= score.lost[side]


def test_a_passed_out_deal_has_no_contract(bridge):
    t = Table(bridge, HANDS, dealer="P1")
    t.do("P1 pass", "P2 pass", "P3 pass")
    state = t.state
    state.apply_action(state.string_to_action("pass"))
    assert not dd.in_trick_play(state, 0)


def test_the_benchmark_gives_the_same_numbers_for_the_same_seed_with_a_budget_in_playouts():
    bench = load_benchmark("double_dummy")
    runs = [bench.play_deal("bridge", "search:playouts=4;rollouts=4", "random", 3) for _ in range(2)]
    untimed = [{key: value for key, value in run.items() if key != "seconds"} for run in runs]
    assert untimed[0] == untimed[1] and runs[0]["cards"] == 52
    summary = bench.summarise("x", [runs[0], {"passed_out": True}])
    assert summary["deals"] == 2 and summary["passed_out"] == 1 and summary["fit"][0] == runs[0]["fit"]


PLAIN_WHIST = partnership_whist("plain-whist", "  - deal: {each: 13}",
                                "{among: seats, lead: forehand, follow: [led_suit, any], win: [{highest: led_suit}]}")


def test_a_game_without_a_contract_is_scored_by_partnership():
    game = load_text(PLAIN_WHIST, "yaml", max_deals=1)
    assert dd.unfit(game) is None
    for seed in range(3):
        state, chance = game.new_initial_state(), SeededChance(seed)
        while state.current_player() < 0:
            chance.play(state)
        leader = dd.position(state).to_play
        made = max(dd.card_tricks(state).values())
        score = dd.score_play(state, [make_agent("random", seed * 5 + s) for s in range(4)])
        assert score.played and score.contract is None and score.fit is None and score.sides == ("P1+P3", "P2+P4")
        ours, theirs = score.sides[leader % 2], score.sides[1 - leader % 2]
        taken = state.deal_results[-1]["tricks"]
        assert taken[leader] + taken[(leader + 2) % 4] == made - score.lost[ours] + score.lost[theirs]
