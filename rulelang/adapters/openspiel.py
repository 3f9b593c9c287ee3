"""Any rule file as an OpenSpiel game (optional extra ``rulelang[openspiel]``).

    import pyspiel
    import rulelang.adapters.openspiel                      # registers the game "rulelang"
    game = pyspiel.load_game("rulelang", {"rules": "my-game.rules", "deals": 1})

``rules`` is a shipped game's name or a rule file; ``deals`` the deals of one episode (1: a
single deal from a dealer by lot; more: a match of at most that many deals). The game is
sequential, imperfect-information, explicitly stochastic (every card dealt is a chance
node, with uniform ``chance_outcomes``) and general-sum, with terminal rewards: a seat's
return is its score change as the rules count it (points shed count positive where the
lowest score wins). Actions keep the engine's numbering (cards, then decisions, then the
seats for the dealer by lot), and ``action_to_string`` gives the game's own names.

Strings: ``information_state_string`` is the engine's (the history with others' hidden cards
as ``?``), ``observation_string`` the JSON of ``observation(player)``. Tensors are built from
``observation(player)`` alone, so they hold nothing the seat may not know; their layout is
:data:`OBSERVATION_PIECES` (both tensors) plus :data:`INFORMATION_PIECES` (information state
only) — see docs/openspiel.md. ``min_utility``, ``max_utility`` and ``max_game_length`` are
not derivable from every rule file, so they are estimated: twice the extremes of
:data:`~rulelang.adapters.tensors.PROBE_DEALS` seeded random deals, times ``deals``
(:func:`~rulelang.adapters.tensors.utility_bound`).
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from rulelang.adapters import tensors
from rulelang.adapters.tensors import utility_bound
from rulelang.diagnostics import RuleError
from rulelang.interpreter.inference import resample_from_infostate
from rulelang.loader import load_game

MAX_PLAYERS = 10
OBSERVATION_PIECES = ("player", "hand", "trick", "played", "tricks", "hand_sizes", "vars", "contract", "declarer",
                      "partner", "scores")
INFORMATION_PIECES = ("discards", "auction")

GAME_TYPE = pyspiel.GameType(
    short_name="rulelang", long_name="A rulelang rule file",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS, min_num_players=2,
    provides_information_state_string=True, provides_information_state_tensor=True,
    provides_observation_string=True, provides_observation_tensor=True,
    parameter_specification={"rules": "", "deals": 1})


class RulelangGame(pyspiel.Game):
    """One rule file as an OpenSpiel game."""

    def __init__(self, params=None):
        params = dict(params or {})
        rules, deals = str(params.get("rules", "")), int(params.get("deals", 1))
        if not rules:
            raise ValueError('name the rules: pyspiel.load_game("rulelang", {"rules": NAME_OR_PATH})')
        self.key = (rules, deals)
        self.engine = engine_game(rules, deals)
        bound, longest = utility_bound(self.engine, deals)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_distinct_actions(),
            max_chance_outcomes=self.engine.num_distinct_actions(),
            num_players=self.engine.num_players, min_utility=-float(bound), max_utility=float(bound),
            utility_sum=None, max_game_length=longest)
        super().__init__(GAME_TYPE, info, {"rules": rules, "deals": deals})

    def new_initial_state(self):
        """The state before the first chance event."""
        return RulelangState(self)

    def __reduce__(self):
        """Pickled as its parameters: the rule file is loaded again."""
        return RulelangGame, (dict(self.get_parameters()),)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of information states (perfect recall) or observations."""
        return RulelangObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class RulelangState(pyspiel.State):
    """An OpenSpiel state around one engine :class:`~rulelang.interpreter.State`."""

    def __init__(self, game):
        super().__init__(game)
        self.held = Held(game.key, game.engine.new_initial_state())

    @property
    def engine_state(self):
        """The engine's :class:`~rulelang.interpreter.State` this state wraps."""
        return self.held.state

    def current_player(self):
        """The seat to act; ``pyspiel.PlayerId.CHANCE`` or ``TERMINAL`` (the engine uses the same numbers)."""
        return self.engine_state.current_player()

    def _legal_actions(self, player):
        return self.engine_state.legal_actions()

    def chance_outcomes(self):
        """Every chance action with its probability."""
        return self.engine_state.chance_outcomes()

    def _apply_action(self, action):
        self.engine_state.apply_action(action)

    def _action_to_string(self, player, action):
        engine = self.engine_state.game
        name = engine.action_to_string(action)
        copy = engine.deck.cards[action].copy if 0 <= action < engine.num_cards else 0
        return f"{name} (copy {copy + 1})" if copy and player == pyspiel.PlayerId.CHANCE else name

    def is_terminal(self):
        """Whether the episode is over."""
        return self.engine_state.is_terminal()

    def returns(self):
        """Each seat's result; zero until the end (terminal rewards)."""
        if not self.engine_state.is_terminal():
            return [0.0] * self.engine_state.game.num_players
        return self.engine_state.returns()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state ``player_id`` cannot tell from this one, hidden cards drawn anew; this state if none is found."""
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        found = resample_from_infostate(self.engine_state, player_id, rng)
        other = self.get_game().new_initial_state()
        for action in (found or self.engine_state).history:
            other.apply_action(action)
        return other

    def __str__(self):
        return str(self.engine_state)


class Held:
    """The engine state inside an OpenSpiel state. OpenSpiel serializes a Python state by
    pickling its attributes; this one pickles as its game's parameters and action history
    (compiled rules are never pickled) and comes back by replaying the history."""

    __slots__ = ("key", "state")

    def __init__(self, key: tuple, state):
        self.key, self.state = key, state

    def __reduce__(self):
        return _replayed, (self.key, list(self.state.history))

    def __deepcopy__(self, memo):
        return Held(self.key, self.state.clone())


_ENGINES: dict = {}


def engine_game(rules: str, deals: int):
    """The engine's game for ``rules`` and ``deals``, loaded once per process."""
    key = (rules, deals)
    if key not in _ENGINES:
        try:
            _ENGINES[key] = load_game(rules, max_deals=deals)
        except RuleError as error:
            raise ValueError("\n".join(d.render() for d in error.diagnostics)) from None
    return _ENGINES[key]


def _replayed(key: tuple, history: list[int]) -> Held:
    """A :class:`Held` engine state after ``history`` (how a serialized state comes back)."""
    state = engine_game(*key).new_initial_state()
    for action in history:
        state.apply_action(action)
    return Held(key, state)


class RulelangObserver:
    """Tensors and strings of what one seat knows (OpenSpiel's PyObserver interface)."""

    def __init__(self, game, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(tensors.size(game.engine, self.perfect_recall), np.float32)
        self.dict = tensors.views(self.tensor, game.engine, self.perfect_recall)

    def set_from(self, state, player):
        """Fill the tensor with what ``player`` knows in ``state``."""
        self.tensor.fill(0)
        tensors.fill(self.dict, state.engine_state, player)

    def string_from(self, state, player):
        """The information state string (perfect recall) or the observation string of ``player``."""
        engine = state.engine_state
        return engine.information_state_string(player) if self.perfect_recall else engine.observation_string(player)


def piece_shapes(game, perfect_recall: bool) -> list[tuple[str, tuple]]:
    """The named pieces of a tensor and their shapes, in order (see :mod:`rulelang.adapters.tensors`)."""
    return tensors.shapes(game, perfect_recall)


pyspiel.register_game(GAME_TYPE, RulelangGame)


class ISMCTSAgent:
    """OpenSpiel's own ISMCTS bot (``open_spiel.python.algorithms.ismcts``) as a rulelang agent.

    The bot plays through this adapter: it is handed a world the seat cannot tell from the
    real one (``resample_from_infostate``), never the real deal, and searches with
    ``sims`` simulations of random rollouts per move (agent name ``openspiel-ismcts``).
    """

    name = "openspiel-ismcts"

    def __init__(self, seed: int | None = None, sims: int = 100):
        self.rng = random.Random(seed)
        self.sims = sims
        self.bots: dict = {}

    def _bot(self, engine_game_of_state):
        definition = engine_game_of_state.definition
        key = (definition.path, engine_game_of_state.max_deals or 1)
        if key not in self.bots:
            from open_spiel.python.algorithms import ismcts, mcts
            game = pyspiel.load_game("rulelang", {"rules": definition.path, "deals": key[1]})
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(self.rng.getrandbits(31)))
            self.bots[key] = game, ismcts.ISMCTSBot(
                game=game, evaluator=evaluator, uct_c=2.0, max_simulations=self.sims,
                random_state=np.random.RandomState(self.rng.getrandbits(31)),
                max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES, allow_inconsistent_action_sets=True)
        return self.bots[key]

    def step(self, state) -> int:
        """The bot's move in a world drawn from what the seat knows."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        world = resample_from_infostate(state, state.current_player(), self.rng)
        if world is None:
            return self.rng.choice(legal)
        game, bot = self._bot(state.game)
        spiel_state = game.new_initial_state()
        for action in world.history:
            spiel_state.apply_action(action)
        return int(bot.step(spiel_state))
