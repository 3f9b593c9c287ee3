"""The PettingZoo environment and the single-seat Gymnasium wrapper."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the PettingZoo adapter needs pettingzoo (pip install -e '.[test]')")

from helpers import Table  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from rulelang.loader import load_game, shipped_games  # noqa: E402
from rulelang.adapters.pettingzoo import SingleSeatEnv, env  # noqa: E402

GAMES = sorted({p.stem for p in shipped_games()})


@pytest.mark.parametrize("rules", GAMES)
def test_pettingzoos_api_test_passes(rules):
    api_test(env(rules=rules), num_cycles=200, verbose_progress=False)


def test_an_episode_ends_with_every_seats_return_as_its_reward():
    table = env(rules="zwanzig-ab")
    table.reset(seed=3)
    rewards = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, _ = table.last()
        rewards[agent] += reward
        if termination or truncation:
            table.step(None)
            continue
        assert observation["action_mask"].sum() >= 1
        table.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert list(rewards.values()) == table.state.returns()


HANDS = {"P1": "AC 9C 8C 8S 10D", "P2": "KC 10S KS 7S JD", "P3": "AS 9S KH KD 8D", "P4": "10C QC AH AD 7D"}
SWAPPED = dict(HANDS, P3="AS QC KH KD 8D", P4="10C 9S AH AD 7D")


def observed(hands, agent: str):
    """What ``agent`` observes right after a scripted deal."""
    table = env(rules="zwanzig-ab")
    table.reset(seed=0)
    table.state = Table(load_game("zwanzig-ab", max_deals=1), hands).state
    return table.observe(agent)


def test_a_seat_observes_the_same_whatever_the_others_hold():
    for agent in ("player_0", "player_1"):
        one, other = observed(HANDS, agent), observed(SWAPPED, agent)
        assert np.array_equal(one["observation"], other["observation"])
        assert np.array_equal(one["action_mask"], other["action_mask"])
    assert not np.array_equal(observed(HANDS, "player_3")["observation"], observed(SWAPPED, "player_3")["observation"])


def test_an_illegal_action_is_explained_and_changes_nothing():
    table = env(rules="zwanzig-ab")
    table.reset(seed=1)
    before = table.state.serialize()
    legal = set(np.flatnonzero(table.observe(table.agent_selection)["action_mask"]))
    illegal = next(a for a in range(table.game.num_distinct_actions()) if a not in legal)
    with pytest.raises(ValueError, match=r"error\[E5"):
        table.step(illegal)
    assert table.state.serialize() == before


def test_the_single_seat_wrapper_seats_our_agents_in_the_other_seats():
    single = SingleSeatEnv("zwanzigerrufen", seat=1, others="random")
    observation, info = single.reset(seed=2)
    assert single.observation_space.contains(observation)
    done, reward, moves = False, 0.0, 0
    while not done:
        assert single.table.state.current_player() == 1
        action = int(np.flatnonzero(info["action_mask"])[0])
        observation, reward, done, truncated, info = single.step(action)
        moves += 1
        assert not truncated and single.observation_space.contains(observation)
    assert moves >= 10 and reward == single.table.state.returns()[1]


def test_gymnasiums_check_env_passes_on_the_single_seat_environment():
    from gymnasium.utils.env_checker import check_env
    check_env(SingleSeatEnv("zwanzig-ab", others="random"), skip_render_check=True)


def test_an_illegal_action_of_the_single_seat_ends_its_episode_with_the_lowest_return_or_raises():
    single = SingleSeatEnv("zwanzig-ab", seat=0, others="random")
    observation, info = single.reset(seed=3)
    illegal = next(a for a in range(len(info["action_mask"])) if not info["action_mask"][a])
    observation, reward, done, truncated, info = single.step(illegal)
    assert done and not truncated and info["illegal_action"] and "P1" in info["why"]
    assert reward == single.illegal_reward() < 0 and not observation["action_mask"].any()
    strict = SingleSeatEnv("zwanzig-ab", seat=0, others="random", illegal="raise")
    _, info = strict.reset(seed=3)
    with pytest.raises(ValueError, match=r"error\[E5"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="lose"):
        SingleSeatEnv("zwanzig-ab", illegal="ignore")


def test_the_same_seed_gives_the_single_seat_the_same_episode():
    def episode(seed):
        single = SingleSeatEnv("zwanzig-ab", seat=2, others="heuristic")
        observation, info = single.reset(seed=seed)
        seen = [observation["observation"].tolist()]
        done = False
        while not done:
            observation, _, done, _, info = single.step(int(np.flatnonzero(info["action_mask"])[-1]))
            seen.append(observation["observation"].tolist())
        return seen
    assert episode(5) == episode(5)


def test_a_state_reads_as_one_line():
    from rulelang.loader import load_game
    state = load_game("zwanzig-ab").new_initial_state()
    while state.current_player() < 0:
        state.apply_action(state.legal_actions()[0])
    text = repr(state)
    assert text.startswith("<State zwanzig-ab: deal 1, phase ") and "to act; scores P1 20" in text
    assert "\n" not in text and "♣" not in text, "no card, so no hidden card"


def test_the_single_seat_benchmark_times_the_environment_for_either_seat_zero():
    from helpers import load_benchmark
    bench = load_benchmark("single_seat_env")
    for seat0 in ("random", "heuristic"):
        steps, seconds, judged = bench.steps_per_second("hearts", 1, "heuristic", seat0)
        assert steps == 16 and seconds > 0 and judged == 0     # Hearts: 3 cards passed, 13 played; none judged
