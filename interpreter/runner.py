"""Playing a match: agents at the seats, a chance policy, a record of everything that happened."""

from __future__ import annotations

from rulelang.interpreter.agents import RandomAgent, SeededChance
from rulelang.interpreter.record import MatchRecord
from rulelang.interpreter.state import CHANCE


def random_agents(game, seed: int | None) -> list[RandomAgent]:
    """One seeded random agent per seat (seeds derived from ``seed``)."""
    return make_agents(game, "random", seed)


def make_agents(game, spec: str | None, seed: int | None) -> list:
    """One agent per seat from an ``--agents`` text (default ``random``), each seeded from ``seed`` and its seat."""
    from rulelang.interpreter.agents import agent_specs, make_agent
    specs = agent_specs(spec or "random", game.num_players)
    base = 0 if seed is None else seed
    return [make_agent(name, None if seed is None else base * 1009 + seat + 1) for seat, name in enumerate(specs)]


def play_match(game, agents=None, chance=None, seed: int | None = None, on_action=None, on_deal=None):
    """Play until the match ends (or the game's deal limit); returns ``(state, record)``.

    ``chance`` plays the chance events (default: seeded from ``seed``, each pending run of
    them sampled at once); ``on_action(state, actor, action)`` is called before each action,
    chance events included, is applied; ``on_deal(deal)`` with each deal's record as soon as the
    deal is scored (so that a long match can be told as it goes).
    """
    agents = agents or random_agents(game, seed)
    chance = chance or SeededChance(seed)
    state = game.new_initial_state()
    record = MatchRecord(game)
    told = 0

    def before(action: int, actor: int = CHANCE) -> None:
        if on_action is not None:
            on_action(state, actor, action)
        record.before(state, actor, action)

    def after() -> None:
        nonlocal told
        record.after(state)
        while on_deal is not None and told < len(state.deal_results):
            on_deal(record.deals[told])
            told += 1

    while not state.is_terminal():
        actor = state.current_player()
        if actor == CHANCE:
            chance.play(state, before, after)
            continue
        action = agents[actor].step(state)
        before(action, actor)
        state.apply_action(action)
        after()
    return state, record
