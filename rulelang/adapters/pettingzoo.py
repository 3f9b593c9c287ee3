"""Any rule file as a PettingZoo AEC environment, and a Gymnasium single-seat wrapper
(optional extra ``rulelang[pettingzoo]``).

    from rulelang.adapters.pettingzoo import env
    table = env(rules="my-game.rules")            # or a shipped game's name
    table.reset(seed=1)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        ...

Agents are ``player_0`` … (PettingZoo's names; ``infos[agent]["seat"]`` is the seat's name in
the game, ``P1`` …). An observation is a dict: ``observation``, the seat's
information-state tensor (:mod:`rulelang.adapters.tensors`, filled from ``observation(p)`` alone), and
``action_mask``, 1 for each legal action of the seat to act (all 0 for the others). Chance
events are played by the environment from the seed given to ``reset``. Rewards come at the
end of the episode (``deals`` deals, default one): each seat's return. An illegal action is
refused with the engine's explanation (``ValueError``), never applied.
"""

from __future__ import annotations

import random

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rulelang.adapters import tensors
from rulelang.compile.exprcompile import MAX_INT
from rulelang.interpreter import CHANCE
from rulelang.loader import load_game


def env(rules: str, deals: int = 1, render_mode: str | None = None) -> "RulelangEnv":
    """The AEC environment of ``rules`` (PettingZoo's ``env()`` convention)."""
    return RulelangEnv(rules, deals, render_mode)


class RulelangEnv(AECEnv):
    """One rule file as an agent-environment-cycle game."""

    metadata = {"name": "rulelang_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules: str, deals: int = 1, render_mode: str | None = None):
        super().__init__()
        self.game = load_game(rules, max_deals=deals)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.game.num_players)]
        actions, length = self.game.num_distinct_actions(), tensors.size(self.game, True)
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(-MAX_INT, MAX_INT, (length,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8)}) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.state = None
        self._rng = random.Random()

    def observation_space(self, agent):
        """The space of ``agent``'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The space of ``agent``'s actions: every action of the game (the mask says which are legal)."""
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """A new episode; its deals drawn from ``seed``."""
        self._rng = random.Random(seed)
        self.state = self.game.new_initial_state()
        self._play_chance()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {"seat": self.game.seat_name(s)} for s, agent in enumerate(self.agents)}
        self.agent_selection = self._seat_to_act()

    def observe(self, agent):
        """What ``agent`` knows, and the mask of its legal actions."""
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if not self.state.is_terminal() and self.state.current_player() == seat:
            mask[self.state.legal_actions()] = 1
        return {"observation": tensors.tensor_of(self.state, seat), "action_mask": mask}

    def step(self, action):
        """Apply the selected agent's ``action``; the episode's rewards when it ends."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = int(action)
        if action not in self.state.legal_actions():
            raise ValueError(self.state.explain_illegal(action).render())
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(action)
        self._play_chance()
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {name: float(returns[s]) for s, name in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self._seat_to_act()
        self._accumulate_rewards()

    def render(self):
        """The state as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        return str(self.state)

    def close(self):
        """Nothing to release."""

    def _play_chance(self) -> None:
        while self.state.current_player() == CHANCE:
            self.state.apply_chance(self._rng)

    def _seat_to_act(self) -> str:
        current = self.state.current_player()
        return self.possible_agents[current] if current >= 0 else self.agent_selection


class SingleSeatEnv(gymnasium.Env):
    """A Gymnasium environment for one seat: our agents (``others``, e.g. ``heuristic``) play the rest.

    Observations are the AEC environment's dicts; the reward is the seat's return at the
    end of the episode; ``info["action_mask"]`` repeats the legal actions. An action the rules do
    not allow now ends the episode with ``illegal_reward`` (default: the game's lowest return) and
    ``info["illegal_action"]`` (``illegal="lose"``, so that any action of the space may be stepped, as
    Gymnasium's ``check_env`` does), or raises ``ValueError`` with the engine's explanation
    (``illegal="raise"``).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, rules: str, seat: int = 0, others: str = "heuristic", deals: int = 1,
                 render_mode: str | None = None, illegal: str = "lose", illegal_reward: float | None = None):
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        self.table = RulelangEnv(rules, deals, render_mode)
        self.deals = deals
        self.illegal = illegal
        self._illegal_reward = illegal_reward
        self.ended_by_illegal = False
        self.seat = seat
        self.name = self.table.possible_agents[seat]
        self.others_spec = others
        self.others = self._make_others(None)
        self.observation_space = self.table.observation_space(self.name)
        self.action_space = self.table.action_space(self.name)
        self.render_mode = render_mode

    def reset(self, *, seed=None, options=None):
        """A new episode, the other seats played up to this seat's first move."""
        super().reset(seed=seed)
        self.table.reset(seed=seed)
        if seed is not None:
            self.others = self._make_others(seed)     # the same seed, the same episode: the other seats too
        self.ended_by_illegal = False
        self._others_play()
        observation = self.table.observe(self.name)
        return observation, {"action_mask": observation["action_mask"]}

    def step(self, action):
        """This seat's move, then the others' until it is this seat's turn again or the episode ends."""
        state = self.table.state
        legal = not state.is_terminal() and not self.ended_by_illegal and int(action) in state.legal_actions()
        if not legal and self.illegal == "lose":
            self.ended_by_illegal = True
            observation = self.table.observe(self.name)
            mask = np.zeros_like(observation["action_mask"])
            why = "the episode is over" if state.is_terminal() else state.explain_illegal(int(action)).message
            return {**observation, "action_mask": mask}, self.illegal_reward(), True, False, \
                {"action_mask": mask, "illegal_action": True, "why": why}
        self.table.step(action)
        self._others_play()
        observation = self.table.observe(self.name)
        done = self.table.state.is_terminal()
        reward = float(self.table.state.returns()[self.seat]) if done else 0.0
        return observation, reward, done, False, {"action_mask": observation["action_mask"]}

    def _make_others(self, seed: int | None) -> dict:
        """Our agents for the other seats, each seeded by its seat and the episode's seed."""
        from rulelang.interpreter.agents import make_agent
        players = self.table.game.num_players
        return {s: make_agent(self.others_spec, s if seed is None else seed * players + s)
                for s in range(players) if s != self.seat}

    def illegal_reward(self) -> float:
        """The reward of an illegal action: as given, else the game's lowest return (as OpenSpiel's
        ``min_utility`` estimates it, :func:`~rulelang.adapters.tensors.utility_bound`), worked out once."""
        if self._illegal_reward is None:
            self._illegal_reward = -tensors.utility_bound(self.table.game, self.deals)[0]
        return float(self._illegal_reward)

    def render(self):
        """The state as text."""
        return self.table.render()

    def _others_play(self) -> None:
        state = self.table.state
        while not state.is_terminal() and state.current_player() != self.seat:
            self.table.step(self.others[state.current_player()].step(state))
